/* np.repeat / a.repeat, np.resize, np.broadcast_to, np.broadcast_arrays
 * and np.trim_zeros inside kernels (compiler/types/infer_npshape.c,
 * compiler/lower/lower_npshape.c) through uf_call, for what the Numba
 * oracle (tests/e2e/run_npshape_oracle.py) cannot see: results of
 * reversed strided views and F arrays checked element by element against
 * the argument read in C order, broadcast views sharing the argument's
 * data inside the kernel (stride 0 where a length 1 was stretched), a
 * broadcast of a kernel-local array returned (its block passes to the
 * caller and goes with the last uf_array), repeats, resizes and broadcasts in loops
 * leaving no block behind across 10^5 calls, the run-time errors' codes
 * and Numba's words, out of memory at every allocation, and the refusals
 * at file:line:col. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nrt_test_util.h"

static const char src[] =
    "from numba import njit\n"
    "import numpy as np\n"
    "@njit\n"
    "def rep(a, r):\n"
    "    return np.repeat(a, r)\n"
    "@njit\n"
    "def resize(a, n):\n"
    "    return np.resize(a, n)\n"
    "@njit\n"
    "def bto(a, m, n):\n"
    "    return np.broadcast_to(a, (m, n))\n"
    "@njit\n"
    "def barr(a, b):\n"
    "    x, y = np.broadcast_arrays(a, b)\n"
    "    return x, y\n"
    "@njit\n"
    "def bto_sees(a):\n"
    "    v = np.broadcast_to(a[:, 2:3], (a.shape[0], 6))\n"
    "    a[0, 2] = -5.0\n"
    "    return v[0, 5] + v[3, 0] * 1000.0, v.strides[1]\n"
    "@njit\n"
    "def local_bcast(n):\n"
    "    a = np.arange(3) * 2.0\n"
    "    return np.broadcast_to(a, (n, 3)), np.repeat(a, n)\n"
    "@njit\n"
    "def local_trim(n):\n"
    "    a = np.zeros(n + 4)\n"
    "    a[2:n + 2] = np.arange(n) + 1.0\n"
    "    return np.trim_zeros(a), np.trim_zeros(a, 'b')\n"
    "@njit\n"
    "def loop_shapes(n):\n"
    "    s = 0.0\n"
    "    for i in range(n):\n"
    "        t = np.arange(i + 1) * 1.0\n"
    "        r = np.repeat(t, np.arange(i + 1) + 1)\n"
    "        z = np.resize(t, 2 * i + 1)\n"
    "        b = np.broadcast_to(t, (3, i + 1))\n"
    "        u, v = np.broadcast_arrays(t, 1.5)\n"
    "        s += r[r.size - 1] + z[2 * i] + b[2, i] + v[0]\n"
    "        s += np.trim_zeros(np.repeat(z, 2), 'f').size\n"
    "    return s\n";

static uf_context *ctx;
static uf_module *mod;

static int setup(void **state)
{
    (void)state;
    uf_error err;
    ctx = uf_context_new(&err);
    if (!ctx)
        return -1;
    mod = uf_module_from_string(ctx, "npshape_c.py", src, &err);
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

static uf_array *i64s(int n, const int64_t *v)
{
    uf_error err;
    int64_t shape[1] = {n};
    uf_array *a = uf_empty(UF_INT64, 1, shape, UF_ORDER_C, &err);
    uf_assert_ok(a != NULL, &err);
    if (n > 0)
        memcpy(uf_array_data(a), v, sizeof *v * (size_t)n);
    return a;
}

static double at2(const uf_array *a, int64_t i, int64_t j)
{
    const int64_t *st = uf_array_strides(a);
    return *(const double *)((const char *)uf_array_data(a) + i * st[0] +
                             j * st[1]);
}

static double at1(const uf_array *a, int64_t i)
{
    return *(const double *)((const char *)uf_array_data(a) +
                             i * uf_array_strides(a)[0]);
}

static bool same(double x, double y)
{
    return x == y || (isnan(x) && isnan(y));
}

/* Element k in C order of a 2-D array. */
static double flat2(const uf_array *a, int64_t k)
{
    int64_t n = uf_array_shape(a)[1];
    return at2(a, k / n, k % n);
}

/* np.repeat of a reversed strided view and of an F array: one count
 * (0, 1, 3) and a count per element, element by element in C order. */
static void test_repeat(void **state)
{
    (void)state;
    uf_error err;
    uf_array *g = grid(5, 7, UF_ORDER_C), *f = grid(3, 4, UF_ORDER_F);
    uf_array *v = uf_array_slice(g, "::-1, 1::2", &err); /* 5 x 3 */
    uf_assert_ok(v != NULL, &err);
    uf_array *srcs[2] = {v, f};
    for (int s = 0; s < 2; s++) {
        uf_array *a = srcs[s], *r;
        int64_t size = uf_array_shape(a)[0] * uf_array_shape(a)[1];
        for (int k = 0; k <= 3; k += k == 1 ? 2 : 1) {
            uf_array *args[2] = {a, i64(k)};
            uf_assert_ok(calln("rep", args, 2, &r, 1, &err) == 0, &err);
            assert_int_equal(uf_array_ndim(r), 1);
            assert_int_equal(uf_array_shape(r)[0], size * k);
            assert_true(uf_array_flags(r) & UF_ARRAY_C_CONTIGUOUS);
            for (int64_t i = 0; i < size * k; i++)
                assert_true(same(at1(r, i), flat2(a, i / k)));
            uf_array_release(r);
            uf_array_release(args[1]);
        }
        /* counts 0, 1, 2, 0, 1, 2, ... */
        int64_t counts[15], total = 0;
        for (int i = 0; i < size; i++)
            total += counts[i] = i % 3;
        uf_array *args[2] = {a, i64s((int)size, counts)};
        uf_assert_ok(calln("rep", args, 2, &r, 1, &err) == 0, &err);
        assert_int_equal(uf_array_shape(r)[0], total);
        int64_t pos = 0;
        for (int64_t i = 0; i < size; i++)
            for (int64_t c = 0; c < counts[i]; c++)
                assert_true(same(at1(r, pos++), flat2(a, i)));
        uf_array_release(r);
        uf_array_release(args[1]);
    }
    uf_array_release(v);
    uf_array_release(f);
    uf_array_release(g);
}

/* np.resize: the flattened elements cycled (an F array, a reversed
 * view), shorter and longer; an empty array gives zeros. */
static void test_resize(void **state)
{
    (void)state;
    uf_error err;
    uf_array *g = grid(4, 6, UF_ORDER_C), *f = grid(3, 4, UF_ORDER_F);
    uf_array *v = uf_array_slice(g, "::-1, ::-2", &err); /* 4 x 3 */
    uf_assert_ok(v != NULL, &err);
    uf_array *srcs[2] = {v, f};
    for (int s = 0; s < 2; s++) {
        for (int64_t n = 0; n <= 40; n += 7) {
            uf_array *args[2] = {srcs[s], i64(n)}, *r;
            uf_assert_ok(calln("resize", args, 2, &r, 1, &err) == 0, &err);
            assert_int_equal(uf_array_shape(r)[0], n);
            for (int64_t i = 0; i < n; i++)
                assert_true(same(at1(r, i), flat2(srcs[s], i % 12)));
            uf_array_release(r);
            uf_array_release(args[1]);
        }
    }
    uf_array *e = grid(0, 3, UF_ORDER_C), *args[2] = {e, i64(5)}, *r;
    uf_assert_ok(calln("resize", args, 2, &r, 1, &err) == 0, &err);
    assert_int_equal(uf_array_shape(r)[0], 5);
    for (int64_t i = 0; i < 5; i++)
        assert_true(at1(r, i) == 0.0);
    uf_array_release(r);
    uf_array_release(args[1]);
    uf_array_release(e);
    uf_array_release(v);
    uf_array_release(f);
    uf_array_release(g);
}

/* np.broadcast_to shares the argument's data: a column of an F array
 * stretched (stride 0 on the stretched axis), writes to the argument seen
 * through the view; np.broadcast_arrays of a row and a column. */
static void test_broadcast_views(void **state)
{
    (void)state;
    uf_error err;
    uf_array *f = grid(4, 5, UF_ORDER_F);
    uf_array *col = uf_array_slice(f, ":, 2:3", &err); /* 4 x 1 */
    uf_assert_ok(col != NULL, &err);
    uf_array *args[3] = {col, i64(4), i64(6)}, *r;
    uf_assert_ok(calln("bto", args, 3, &r, 1, &err) == 0, &err);
    assert_int_equal(uf_array_shape(r)[0], 4);
    assert_int_equal(uf_array_shape(r)[1], 6);
    for (int64_t i = 0; i < 4; i++)
        for (int64_t j = 0; j < 6; j++)
            assert_true(same(at2(r, i, j), at2(f, i, 2)));
    uf_array_release(r);
    /* inside the kernel the view shares a's data: a write to a is seen
     * (bto_sees returns a value computed inside, not the view) */
    uf_array *o2[2];
    uf_assert_ok(calln("bto_sees", &f, 1, o2, 2, &err) == 0, &err);
    assert_true(*(double *)uf_array_data(o2[0]) == -5.0 + 302.0 * 1000.0);
    assert_int_equal(*(int64_t *)uf_array_data(o2[1]), 0);
    uf_array_release(o2[0]);
    uf_array_release(o2[1]);
    uf_array_release(args[1]);
    uf_array_release(args[2]);
    /* (4, 1) with (5,): both (4, 5) */
    uf_array *row = uf_array_slice(f, "1, :", &err); /* 5 */
    uf_assert_ok(row != NULL, &err);
    uf_array *ba[2] = {col, row}, *out[2];
    uf_assert_ok(calln("barr", ba, 2, out, 2, &err) == 0, &err);
    for (int o = 0; o < 2; o++) {
        assert_int_equal(uf_array_shape(out[o])[0], 4);
        assert_int_equal(uf_array_shape(out[o])[1], 5);
    }
    for (int64_t i = 0; i < 4; i++)
        for (int64_t j = 0; j < 5; j++) {
            assert_true(same(at2(out[0], i, j), at2(f, i, 2)));
            assert_true(same(at2(out[1], i, j), at2(f, 1, j)));
        }
    uf_array_release(out[0]);
    uf_array_release(out[1]);
    uf_array_release(row);
    uf_array_release(col);
    uf_array_release(f);
}

/* A broadcast view of a kernel-local array returned keeps its block
 * alive until the caller releases it. */
static void test_local_returned(void **state)
{
    (void)state;
    uf_error err;
    long nrt = uf__nrt_live();
    uf_array *n = i64(4), *out[2];
    uf_assert_ok(calln("local_bcast", &n, 1, out, 2, &err) == 0, &err);
    assert_int_equal(uf_array_shape(out[0])[0], 4);
    assert_int_equal(uf_array_strides(out[0])[0], 0);
    for (int64_t i = 0; i < 4; i++)
        for (int64_t j = 0; j < 3; j++)
            assert_true(at2(out[0], i, j) == 2.0 * (double)j);
    assert_int_equal(uf_array_shape(out[1])[0], 12);
    assert_true(at1(out[1], 11) == 4.0);
    assert_true(uf__nrt_live() > nrt);
    uf_array_release(out[1]);
    assert_true(uf__nrt_live() > nrt); /* the view's block */
    uf_array_release(out[0]);
    assert_int_equal(uf__nrt_live(), nrt);
    /* trim_zeros of a local: [1, 2, 3] from index 2; 'b' keeps the front
     * zeros; an all-zero array gives an empty view */
    for (int64_t k = 0; k <= 3; k += 3) {
        uf_array *kk = i64(k);
        uf_assert_ok(calln("local_trim", &kk, 1, out, 2, &err) == 0, &err);
        assert_int_equal(uf_array_shape(out[0])[0], k);
        assert_int_equal(uf_array_shape(out[1])[0], k ? k + 2 : 0);
        for (int64_t i = 0; i < k; i++) {
            assert_true(at1(out[0], i) == (double)(i + 1));
            assert_true(at1(out[1], i + 2) == (double)(i + 1));
        }
        uf_array_release(out[0]);
        uf_array_release(out[1]);
        uf_array_release(kk);
    }
    assert_int_equal(uf__nrt_live(), nrt);
    uf_array_release(n);
}

static void test_errors(void **state)
{
    (void)state;
    uf_error err;
    uf_array *g = grid(2, 3, UF_ORDER_C), *r;
    int64_t c2[2] = {1, 2}, cneg[6] = {1, 1, -1, 1, 1, 1}, c1[1] = {-3};
    struct {
        const char *fn;
        uf_array *args[3];
        int n;
        const char *msg;
    } cases[] = {
        {"rep", {g, i64(-1)}, 2, "ValueError: negative dimensions are not "
         "allowed"},
        {"rep", {g, i64s(2, c2)}, 2, "ValueError: operands could not be "
         "broadcast together"},
        {"rep", {g, i64s(6, cneg)}, 2, "negative dimensions are not"},
        {"rep", {g, i64s(1, c1)}, 2, "negative dimensions are not"},
        {"resize", {g, i64(-2)}, 2, "ValueError: All elements of "
         "`new_shape` must be non-negative"},
        {"bto", {g, i64(2), i64(4)}, 3, "ValueError: operands could not be "
         "broadcast together with remapped shapes"},
        {"bto", {g, i64(-1), i64(3)}, 3, "ValueError: all elements of "
         "broadcast shape must be non-negative"},
        {"barr", {g, g}, 2, NULL}, /* fine: the same shape */
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        uf_array *out[2];
        int nout = strcmp(cases[c].fn, "barr") == 0 ? 2 : 1;
        int rc = calln(cases[c].fn, cases[c].args, cases[c].n, out, nout,
                       &err);
        int want = cases[c].msg ? UF_ERR_VALUE : 0;
        if (rc != want || (want && !strstr(err.message, cases[c].msg)))
            uf_fail_at(__FILE__, __LINE__, "case %zu: %s gave %d (%s)", c,
                       cases[c].fn, rc, rc ? err.message : "");
        for (int o = 0; rc == 0 && o < nout; o++)
            uf_array_release(out[o]);
        for (int i = 1; i < cases[c].n; i++)
            if (cases[c].args[i] != g)
                uf_array_release(cases[c].args[i]);
    }
    /* (2, 3) and (3, 2) do not broadcast */
    uf_array *t = grid(3, 2, UF_ORDER_C), *ba[2] = {g, t}, *out[2];
    int rc = calln("barr", ba, 2, out, 2, &err);
    assert_int_equal(rc, UF_ERR_VALUE);
    assert_non_null(strstr(err.message, "ValueError: shape mismatch: "
                                        "objects cannot be broadcast to a "
                                        "single shape"));
    (void)r;
    uf_array_release(t);
    uf_array_release(g);
}

static void test_no_leak(void **state)
{
    (void)state;
    uf_error err;
    uf_array *n = i64(6), *r;
    uf_assert_ok(calln("loop_shapes", &n, 1, &r, 1, &err) == 0, &err);
    double first = *(double *)uf_array_data(r);
    /* r[-1] = i, z[2i] = (2i) % (i + 1), b[2, i] = i, v[0] = 1.5 */
    double want = 0;
    for (int i = 0; i < 6; i++)
        want += i + (2 * i) % (i + 1) + i + 1.5 + 4 * i;
    assert_true(first == want);
    uf_array_release(r);
    long nrt = uf__nrt_live(), live = uf__alloc_live();
    for (int i = 0; i < 100000; i++) {
        uf_assert_ok(calln("loop_shapes", &n, 1, &r, 1, &err) == 0, &err);
        assert_true(*(double *)uf_array_data(r) == first);
        uf_array_release(r);
    }
    assert_int_equal(uf__nrt_live(), nrt);
    assert_int_equal(uf__alloc_live(), live);
    uf_array_release(n);
}

static int oom_loop(void *ud, uf_error *err)
{
    uf_array *x = ud, *out;
    int rc = calln("loop_shapes", &x, 1, &out, 1, err);
    if (rc != 0)
        return rc;
    uf_array_release(out);
    return 0;
}

static int oom_local(void *ud, uf_error *err)
{
    uf_array *x = ud, *out[2];
    int rc = calln("local_bcast", &x, 1, out, 2, err);
    if (rc != 0)
        return rc;
    uf_array_release(out[0]);
    uf_array_release(out[1]);
    return 0;
}

static void test_out_of_memory(void **state)
{
    (void)state;
    uf_error err;
    uf_array *n = i64(3);
    uf_assert_ok(oom_loop(n, &err) == 0, &err); /* compiled */
    uf_check_oom_each_alloc("loop_shapes", oom_loop, n);
    uf_assert_ok(oom_local(n, &err) == 0, &err);
    uf_check_oom_each_alloc("local_bcast", oom_local, n);
    uf_array_release(n);
}

/* Refused at the call's FILE:LINE:COL as Numba refuses them while
 * typing, and a tuple as `a`, and CUDA kernels. */
static void test_refused(void **state)
{
    (void)state;
    static const char bad[] =
        "import numpy as np\n"
        "from numba import cuda, njit\n"
        "@njit\n"
        "def r1(a):\n"
        "    return np.repeat(a, 1.5)\n"
        "@njit\n"
        "def r2(a):\n"
        "    return np.resize(a, ())\n"
        "@njit\n"
        "def b1(a):\n"
        "    return np.broadcast_to(a, ())\n"
        "@njit\n"
        "def b2(a):\n"
        "    v = np.broadcast_to(a, (2, 3))\n"
        "    v[0, 0] = 1.0\n"
        "    return v\n"
        "@njit\n"
        "def b3(a):\n"
        "    return np.broadcast_arrays(a, a.astype(np.float32))[0]\n"
        "@njit\n"
        "def t1(a):\n"
        "    return np.repeat((1.0, 2.0), 2)\n"
        "@cuda.jit\n"
        "def k(out):\n"
        "    out[0] = np.repeat(out, 2)[0]\n"
        "@njit\n"
        "def z1(a):\n"
        "    return np.trim_zeros(a, 1)\n"
        "@njit\n"
        "def z2(a):\n"
        "    return np.trim_zeros(a)\n";
    static const struct {
        const char *fn, *sig;
        int line, col;
        const char *msg;
    } cases[] = {
        {"r1", "float64[:](float64[:])", 5, 25, "repeats argument must be"},
        {"r2", "float64[:](float64[:])", 8, 25, "non-empty tuple"},
        {"b1", "float64[:](float64[:])", 11, 31, "non-scalar to a scalar"},
        {"b2", "float64[:, :](float64[:])", 15, 5, "read"},
        {"b3", "float64[:](float64[:])", 19, 35, "Mismatch of argument"},
        {"t1", "float64[:](float64[:])", 22, 22, "of a tuple"},
        {"k", "void(float64[:])", 25, 14, "CUDA kernels"},
        {"z1", "float64[:](float64[:])", 28, 29, "string literal"},
        {"z2", "float64[:, :](float64[:, :])", 31, 26, "array must be 1D"},
    };
    uf_error err;
    uf_module *m = uf_module_from_string(ctx, "npshape_bad.py", bad, &err);
    uf_assert_ok(m != NULL, &err);
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        uf_func *f = uf_module_get(m, cases[c].fn, &err);
        uf_assert_ok(f != NULL, &err);
        char *text = uf_func_inspect(f, cases[c].sig, UF_INSPECT_TYPES, &err);
        if (text != NULL || err.line != cases[c].line ||
            err.column != cases[c].col || !strstr(err.file, "npshape_bad.py") ||
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
        cmocka_unit_test(test_repeat),
        cmocka_unit_test(test_resize),
        cmocka_unit_test(test_broadcast_views),
        cmocka_unit_test(test_local_returned),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_no_leak),
        cmocka_unit_test(test_out_of_memory),
        cmocka_unit_test(test_refused),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
