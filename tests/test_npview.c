/* np.flip, np.rot90, np.expand_dims, np.swapaxes, np.moveaxis,
 * np.transpose(a, axes) and np.atleast_Nd inside kernels
 * (compiler/types/infer_npview.c, compiler/lower/lower_npview.c) through
 * uf_call, for what the Numba oracle (tests/e2e/run_npview_oracle.py)
 * cannot see: views of views built here (reversed, F) checked element by
 * element against the argument, writes through a view reaching it, views
 * of kernel-local arrays returned (their block passes to the caller and
 * goes with the last uf_array), views made in loops leaving no block
 * behind across 10^5 calls, empty arrays never moved outside their block,
 * the run-time errors' codes and Numba's words, out of memory at every
 * allocation, and the refusals at file:line:col. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nrt_test_util.h"

static const char src[] =
    "from numba import njit\n"
    "import numpy as np\n"
    "@njit\n"
    "def flip(a):\n"
    "    return np.flip(a)\n"
    "@njit\n"
    "def rot90k(a, k):\n"
    "    return np.rot90(a, k)\n"
    "@njit\n"
    "def swap(a, i, j):\n"
    "    return np.swapaxes(a, i, j)\n"
    "@njit\n"
    "def move(a, i, j):\n"
    "    return np.moveaxis(a, i, j)\n"
    "@njit\n"
    "def expand(a, i):\n"
    "    return np.expand_dims(a, i)\n"
    "@njit\n"
    "def transp(a, i, j):\n"
    "    return np.transpose(a, (i, j))\n"
    "@njit\n"
    "def write_rot(a):\n"
    "    v = np.rot90(a, 3)\n"
    "    v[0, 1] = -7.0\n"
    "    np.flip(a)[0, 0] = -9.0\n"
    "    return a.sum()\n"
    "@njit\n"
    "def local_views(n):\n"
    "    a = np.arange(n) * 2.0\n"
    "    b = np.zeros((n, 2))\n"
    "    b[:, 1] = 1.0\n"
    "    return np.flip(a), np.atleast_3d(b), np.expand_dims(a, 0)\n"
    "@njit\n"
    "def loop_views(n):\n"
    "    s = 0.0\n"
    "    for i in range(n):\n"
    "        t = np.arange(3 * (i + 1)).reshape(3, i + 1) * 1.0\n"
    "        r = np.rot90(np.swapaxes(np.flip(t), 0, 1))\n"
    "        e = np.expand_dims(r, -1)\n"
    "        s += e[0, 0, 0] + np.transpose(t, (1, 0))[0, 2]\n"
    "    return s\n"
    "@njit\n"
    "def ascopy(a, x):\n"
    "    c = np.ascontiguousarray(a[:, ::2])\n"
    "    f = np.asfortranarray(a)\n"
    "    t = np.asarray((x, x + 1.0))\n"
    "    r = np.roll(a[:, 1:], 1)\n"
    "    k = np.take(a.T, np.arange(3) * 5)\n"
    "    return k[2] + r[0, 0] + c[2, 1] + f[2, 3] + t[1] + np.asarray(x, np.float32)[()]\n"
    "@njit\n"
    "def rolls(a, s):\n"
    "    return np.roll(a[::-1, 1:], s), np.roll(a, s)\n"
    "@njit\n"
    "def take(a, i):\n"
    "    return np.take(a, i)\n"
    "@njit\n"
    "def empty_flip(n):\n"
    "    a = np.zeros((n, 3))\n"
    "    return np.flip(a), np.rot90(a, 2)\n";

static uf_context *ctx;
static uf_module *mod;

static int setup(void **state)
{
    (void)state;
    uf_error err;
    ctx = uf_context_new(&err);
    if (!ctx)
        return -1;
    mod = uf_module_from_string(ctx, "npview_c.py", src, &err);
    if (!mod)
        fprintf(stderr, "%s\n", err.message);
    return mod ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    uf_module_free(mod);
    uf_context_free(ctx);
    return 0;
}

static uf_func *fn(const char *name)
{
    uf_error err;
    uf_func *f = uf_module_get(mod, name, &err);
    uf_assert_ok(f != NULL, &err);
    return f;
}

/* f(x[0..n)) -> its nout results into out[] (0, or the error code). */
static int calln(const char *name, uf_array **x, int n, uf_array **out,
                 int nout, uf_error *err)
{
    for (int i = 0; i < nout; i++)
        out[i] = NULL; /* allocated by the call */
    return uf_call(fn(name), x, n, out, nout, NULL, err);
}

/* A 2-D float64 array, element (i, j) = i * 100 + j, NaN at (1, 2). */
static uf_array *grid(int64_t rows, int64_t cols, uf_order order)
{
    uf_error err;
    int64_t shape[2] = {rows, cols};
    uf_array *a = uf_empty(UF_FLOAT64, 2, shape, order, &err);
    uf_assert_ok(a != NULL, &err);
    const int64_t *st = uf_array_strides(a);
    for (int64_t i = 0; i < rows; i++)
        for (int64_t j = 0; j < cols; j++)
            *(double *)((char *)uf_array_data(a) + i * st[0] + j * st[1]) =
                i == 1 && j == 2 ? NAN : (double)(i * 100 + j);
    return a;
}

static uf_array *i64(int64_t v)
{
    uf_error err;
    uf_array *a = uf_empty(UF_INT64, 0, NULL, UF_ORDER_C, &err);
    uf_assert_ok(a != NULL, &err);
    *(int64_t *)uf_array_data(a) = v;
    return a;
}

static double at(const uf_array *a, const int64_t *ix)
{
    const int64_t *st = uf_array_strides(a);
    const char *p = uf_array_data(a);
    for (int k = 0; k < uf_array_ndim(a); k++)
        p += ix[k] * st[k];
    return *(const double *)p;
}

static double at2(const uf_array *a, int64_t i, int64_t j)
{
    int64_t ix[2] = {i, j};
    return at(a, ix);
}

static bool same(double x, double y)
{
    return x == y || (isnan(x) && isnan(y));
}

/* np.flip and np.rot90 (every k, negative ones as Python's modulo) of a
 * reversed strided view and of an F array, element by element. */
static void test_flip_rot90_views(void **state)
{
    (void)state;
    uf_error err;
    uf_array *g = grid(5, 7, UF_ORDER_C);
    uf_array *f = grid(4, 3, UF_ORDER_F);
    uf_array *v = uf_array_slice(g, "::-1, 1::2", &err); /* 5 x 3 */
    uf_assert_ok(v != NULL, &err);
    uf_array *srcs[2] = {v, f};
    for (int s = 0; s < 2; s++) {
        uf_array *a = srcs[s], *r;
        int64_t m = uf_array_shape(a)[0], n = uf_array_shape(a)[1];
        uf_assert_ok(calln("flip", &a, 1, &r, 1, &err) == 0, &err);
        for (int64_t i = 0; i < m; i++)
            for (int64_t j = 0; j < n; j++)
                assert_true(same(at2(r, i, j), at2(a, m - 1 - i, n - 1 - j)));
        uf_array_release(r);
        for (int k = -5; k <= 5; k++) {
            uf_array *args[2] = {a, i64(k)};
            uf_assert_ok(calln("rot90k", args, 2, &r, 1, &err) == 0, &err);
            int q = ((k % 4) + 4) % 4;
            int64_t rm = q % 2 ? n : m, rn = q % 2 ? m : n;
            assert_int_equal(uf_array_shape(r)[0], rm);
            assert_int_equal(uf_array_shape(r)[1], rn);
            for (int64_t i = 0; i < rm; i++)
                for (int64_t j = 0; j < rn; j++) {
                    /* NumPy's rot90: counter-clockwise q times */
                    double want = q == 0   ? at2(a, i, j)
                                  : q == 1 ? at2(a, j, n - 1 - i)
                                  : q == 2 ? at2(a, m - 1 - i, n - 1 - j)
                                           : at2(a, m - 1 - j, i);
                    assert_true(same(at2(r, i, j), want));
                }
            uf_array_release(r);
            uf_array_release(args[1]);
        }
    }
    uf_array_release(v);
    uf_array_release(f);
    uf_array_release(g);
}

/* Writes through rot90 and flip views reach the argument. */
static void test_write_through(void **state)
{
    (void)state;
    uf_error err;
    int64_t shape[2] = {3, 4};
    uf_array *a = uf_zeros(UF_FLOAT64, 2, shape, UF_ORDER_C, &err);
    uf_assert_ok(a != NULL, &err);
    uf_array *r;
    uf_assert_ok(calln("write_rot", &a, 1, &r, 1, &err) == 0, &err);
    assert_true(*(double *)uf_array_data(r) == -16.0);
    /* rot90(a, 3)[0, 1] is a[m - 1 - 1, 0] = a[1, 0]; flip's [0, 0] is
     * a[2, 3] */
    assert_true(at2(a, 1, 0) == -7.0);
    assert_true(at2(a, 2, 3) == -9.0);
    uf_array_release(r);
    uf_array_release(a);
}

/* Views of kernel-local arrays returned: each result holds its block,
 * which outlives the call and goes with the last release. */
static void test_local_views_returned(void **state)
{
    (void)state;
    uf_error err;
    long nrt = uf__nrt_live();
    uf_array *n = i64(5), *out[3];
    uf_assert_ok(calln("local_views", &n, 1, out, 3, &err) == 0, &err);
    assert_int_equal(uf_array_ndim(out[0]), 1);
    for (int64_t i = 0; i < 5; i++) {
        int64_t ix[3] = {i, 0, 0};
        assert_true(at(out[0], ix) == (double)(4 - i) * 2.0);
    }
    assert_int_equal(uf_array_ndim(out[1]), 3); /* (5, 2) -> (5, 2, 1) */
    assert_int_equal(uf_array_shape(out[1])[0], 5);
    assert_int_equal(uf_array_shape(out[1])[1], 2);
    assert_int_equal(uf_array_shape(out[1])[2], 1);
    for (int64_t i = 0; i < 5; i++) {
        int64_t ix[3] = {i, 1, 0};
        assert_true(at(out[1], ix) == 1.0);
    }
    assert_int_equal(uf_array_ndim(out[2]), 2);
    assert_int_equal(uf_array_shape(out[2])[0], 1);
    assert_int_equal(uf_array_shape(out[2])[1], 5);
    int64_t ix[2] = {0, 3};
    assert_true(at(out[2], ix) == 6.0);
    assert_true(uf__nrt_live() > nrt);
    uf_array_release(out[2]);
    uf_array_release(out[1]);
    uf_array_release(out[0]);
    assert_int_equal(uf__nrt_live(), nrt);
    uf_array_release(n);
}

/* Empty arrays: a flipped or rotated (0, 3) array stays (0, 3), its data
 * inside the block (the return finds it, nothing leaks). */
static void test_empty(void **state)
{
    (void)state;
    uf_error err;
    uf_array *n = i64(0), *out[2];
    uf_assert_ok(calln("empty_flip", &n, 1, out, 2, &err) == 0, &err);
    uf_array_release(out[0]); /* compiled */
    uf_array_release(out[1]);
    long nrt = uf__nrt_live(), live = uf__alloc_live();
    uf_assert_ok(calln("empty_flip", &n, 1, out, 2, &err) == 0, &err);
    assert_int_equal(uf_array_shape(out[0])[0], 0);
    assert_int_equal(uf_array_shape(out[0])[1], 3);
    assert_int_equal(uf_array_shape(out[1])[0], 0);
    assert_int_equal(uf_array_shape(out[1])[1], 3);
    uf_array_release(out[0]);
    uf_array_release(out[1]);
    assert_int_equal(uf__nrt_live(), nrt);
    assert_int_equal(uf__alloc_live(), live);
    uf_array_release(n);
}

/* np.roll of a strided view (the wrapping walk) and of a C array (two
 * copies), every shift from -2 size to 2 size, against the flat rotation
 * computed here; NaN carried. */
static void test_roll(void **state)
{
    (void)state;
    uf_error err;
    uf_array *g = grid(3, 4, UF_ORDER_C), *out[2];
    uf_array *v = uf_array_slice(g, "::-1, 1:", &err); /* 3 x 3 */
    uf_assert_ok(v != NULL, &err);
    for (int64_t sh = -24; sh <= 24; sh++) {
        uf_array *args[2] = {g, i64(sh)};
        uf_assert_ok(calln("rolls", args, 2, out, 2, &err) == 0, &err);
        for (int r = 0; r < 2; r++) {
            const uf_array *from = r == 0 ? v : g;
            int64_t cols = uf_array_shape(from)[1];
            int64_t size = uf_array_shape(from)[0] * cols;
            assert_int_equal(uf_array_shape(out[r])[1], cols);
            for (int64_t i = 0; i < size; i++) {
                int64_t to = ((i + sh) % size + size) % size;
                assert_true(same(at2(out[r], to / cols, to % cols),
                                 at2(from, i / cols, i % cols)));
            }
            uf_array_release(out[r]);
        }
        uf_array_release(args[1]);
    }
    uf_array_release(v);
    uf_array_release(g);
}

/* Numba's run-time errors: codes and words, checked in Numba's order. */
static void test_errors(void **state)
{
    (void)state;
    uf_error err;
    uf_array *g = grid(2, 3, UF_ORDER_C), *r;
    static const struct {
        const char *fn;
        int64_t i, j;
        int code;
        const char *msg;
    } cases[] = {
        {"swap", 2, 9, UF_ERR_VALUE, "ValueError: np.swapaxes: Argument "
         "axis1 out of bounds for dimensions of the array"},
        {"swap", 0, -3, UF_ERR_VALUE, "Argument axis2 out of bounds"},
        {"move", -3, 0, UF_ERR_VALUE, "np.moveaxis: Argument source out"},
        {"move", 0, 2, UF_ERR_VALUE, "Argument destination out of bounds"},
        {"transp", 1, 1, UF_ERR_VALUE, "ValueError: repeated axis in "
         "transpose"},
        {"transp", 5, 5, UF_ERR_VALUE, "repeated axis in transpose"},
        {"transp", 0, -3, UF_ERR_VALUE, "ValueError: axis is out of bounds "
         "for array of given dimension"},
        {"expand", 3, 0, UF_ERR_INDEX, "IndexError: np.expand_dims(): axis "
         "out of bounds"},
        {"expand", -4, 0, UF_ERR_INDEX, "np.expand_dims(): axis out"},
        {"take", 6, 0, UF_ERR_INDEX, "IndexError: Index out of bounds"},
        {"take", -7, 0, UF_ERR_INDEX, "IndexError: Index out of bounds"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        uf_array *args[3] = {g, i64(cases[c].i), i64(cases[c].j)};
        int n = strcmp(cases[c].fn, "expand") == 0 ||
                        strcmp(cases[c].fn, "take") == 0
                    ? 2
                    : 3;
        int rc = calln(cases[c].fn, args, n, &r, 1, &err);
        if (rc != cases[c].code || !strstr(err.message, cases[c].msg))
            uf_fail_at(__FILE__, __LINE__, "case %zu: %s gave %d (%s)", c,
                       cases[c].fn, rc, rc ? err.message : "");
        uf_array_release(args[1]);
        uf_array_release(args[2]);
    }
    /* in range: -1 and -2 wrap */
    uf_array *args[3] = {g, i64(-1), i64(-2)};
    uf_assert_ok(calln("transp", args, 3, &r, 1, &err) == 0, &err);
    assert_int_equal(uf_array_shape(r)[0], 3);
    assert_true(same(at2(r, 2, 1), at2(g, 1, 2)));
    uf_array_release(r);
    uf_assert_ok(calln("move", args, 3, &r, 1, &err) == 0, &err);
    assert_int_equal(uf_array_shape(r)[0], 3);
    assert_true(at2(r, 1, 0) == at2(g, 0, 1));
    uf_array_release(r);
    uf_assert_ok(calln("expand", args, 2, &r, 1, &err) == 0, &err);
    assert_int_equal(uf_array_ndim(r), 3);
    assert_int_equal(uf_array_shape(r)[2], 1);
    uf_array_release(r);
    uf_array_release(args[1]);
    uf_array_release(args[2]);
    uf_array_release(g);
}

/* 10^5 calls of a kernel that views arrays made in a loop: no block and
 * no allocation left, the same result each time. */
static void test_no_leak(void **state)
{
    (void)state;
    uf_error err;
    uf_array *n = i64(6), *r;
    uf_assert_ok(calln("loop_views", &n, 1, &r, 1, &err) == 0, &err);
    double first = *(double *)uf_array_data(r);
    /* rot90(swapaxes(flip(t))): its [0, 0] is t[0, i] = i; the
     * transpose's [0, 2] is t[2, 0] = 2 (i + 1) */
    double want = 0;
    for (int i = 0; i < 6; i++)
        want += 3.0 * i + 2.0;
    assert_true(first == want);
    uf_array_release(r);
    long nrt = uf__nrt_live(), live = uf__alloc_live();
    for (int i = 0; i < 100000; i++) {
        uf_assert_ok(calln("loop_views", &n, 1, &r, 1, &err) == 0, &err);
        assert_true(*(double *)uf_array_data(r) == first);
        uf_array_release(r);
    }
    assert_int_equal(uf__nrt_live(), nrt);
    assert_int_equal(uf__alloc_live(), live);
    uf_array_release(n);
}

static int oom_call(void *ud, uf_error *err)
{
    uf_array *x = ud, *out[3];
    int rc = calln("local_views", &x, 1, out, 3, err);
    if (rc != 0)
        return rc;
    for (int i = 0; i < 3; i++)
        uf_array_release(out[i]);
    return 0;
}

static int oom_ascopy(void *ud, uf_error *err)
{
    uf_array **args = ud, *out;
    int rc = calln("ascopy", args, 2, &out, 1, err);
    if (rc != 0)
        return rc;
    uf_array_release(out);
    return 0;
}

static void test_out_of_memory(void **state)
{
    (void)state;
    uf_error err;
    uf_array *n = i64(4);
    uf_assert_ok(oom_call(n, &err) == 0, &err); /* compiled */
    uf_check_oom_each_alloc("local_views", oom_call, n);
    uf_array_release(n);
    /* the copies of np.roll, ascontiguousarray (a strided view),
     * asfortranarray (a C array) and asarray (a tuple, a number): their
     * values, then out of memory at each */
    uf_array *g = grid(3, 5, UF_ORDER_C), *x, *r;
    uf_array *args[2] = {g, NULL};
    x = uf_empty(UF_FLOAT64, 0, NULL, UF_ORDER_C, &err);
    uf_assert_ok(x != NULL, &err);
    *(double *)uf_array_data(x) = 0.25;
    args[1] = x;
    uf_assert_ok(calln("ascopy", args, 2, &r, 1, &err) == 0, &err);
    assert_true(*(double *)uf_array_data(r) == 103.0 + 204.0 + 202.0 + 203.0 + 1.25 + 0.25);
    uf_array_release(r);
    uf_check_oom_each_alloc("ascopy", oom_ascopy, args);
    uf_array_release(x);
    uf_array_release(g);
}

/* Refused at the call's FILE:LINE:COL as Numba refuses them while
 * typing, and moveaxis's sequences, and CUDA kernels. */
static void test_refused(void **state)
{
    (void)state;
    static const char bad[] =
        "import numpy as np\n"
        "from numba import cuda, njit\n"
        "@njit\n"
        "def r1(a):\n"
        "    return np.rot90(a)\n"
        "@njit\n"
        "def at(x):\n"
        "    return np.atleast_1d(x)\n"
        "@njit\n"
        "def mv(a):\n"
        "    return np.moveaxis(a, (0, 1), (1, 0))\n"
        "@njit\n"
        "def tr(a):\n"
        "    return a.transpose((1, 0, 2))\n"
        "@cuda.jit\n"
        "def k(out):\n"
        "    out[0] = np.flip(out)[0]\n";
    static const struct {
        const char *fn, *sig;
        int line, col;
        const char *msg;
    } cases[] = {
        {"r1", "float64[:](float64[:])", 5, 21, "at least 2 dimensions"},
        {"at", "float64[:](float64)", 8, 26, "takes arrays, not float64"},
        {"mv", "float64[:, :](float64[:, :])", 11, 27, "sequences of axes"},
        {"tr", "float64[:, :](float64[:, :])", 14, 24, "a tuple of 2 axes"},
        {"k", "void(float64[:])", 17, 14, "CUDA kernels"},
    };
    uf_error err;
    uf_module *m = uf_module_from_string(ctx, "npview_bad.py", bad, &err);
    uf_assert_ok(m != NULL, &err);
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        uf_func *f = uf_module_get(m, cases[c].fn, &err);
        uf_assert_ok(f != NULL, &err);
        char *text = uf_func_inspect(f, cases[c].sig, UF_INSPECT_TYPES, &err);
        if (text != NULL || err.line != cases[c].line ||
            err.column != cases[c].col || !strstr(err.file, "npview_bad.py") ||
            !strstr(err.message, cases[c].msg))
            uf_fail_at(__FILE__, __LINE__, "case %s: %s:%d:%d %s",
                       cases[c].fn, err.file, err.line, err.column,
                       text ? "compiled" : err.message);
    }
    uf_module_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_flip_rot90_views),
        cmocka_unit_test(test_write_through),
        cmocka_unit_test(test_local_views_returned),
        cmocka_unit_test(test_empty),
        cmocka_unit_test(test_roll),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_no_leak),
        cmocka_unit_test(test_out_of_memory),
        cmocka_unit_test(test_refused),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
