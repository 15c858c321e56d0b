/* np.concatenate, np.stack, np.vstack, np.column_stack and np.append
 * inside kernels (compiler/types/infer_npjoin.c,
 * compiler/lower/lower_npjoin.c) through uf_call, for what the Numba
 * oracle (tests/e2e/run_npjoin_oracle.py) cannot see: views built here
 * (reversed, every other column, F order) against values computed here,
 * the F result's strides, the memcpy path and the loop path giving the
 * same elements, the errors' codes and messages (the dimension named),
 * a guvectorize kernel, no leak across 10^5 calls, out of memory at
 * every allocation reaching the caller as UF_ERR_NOMEM, the refusals at
 * file:line:col. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nrt_test_util.h"

static const char src[] =
    "from numba import njit, guvectorize\n"
    "import numpy as np\n"
    "@njit\n"
    "def cat(a, b, k):\n"
    "    return np.concatenate((a, b), axis=k)\n"
    "@njit\n"
    "def stack(a, b, k):\n"
    "    return np.stack((a, b), k)\n"
    "@njit\n"
    "def cols(a, b):\n"
    "    return np.column_stack((a, b))\n"
    "@njit\n"
    "def app(a, x):\n"
    "    return np.append(a, x)\n"
    "@njit\n"
    "def mix(a):\n"
    "    s = 0.0\n"
    "    r = a[0]\n"
    "    for i in range(4):\n"
    "        r = np.concatenate((r, a[i], a[::-1, 0]))\n"
    "        v = np.vstack((a, a[::2]))\n"
    "        t = np.stack((a, a), axis=-1)\n"
    "        s += r[-1] + v[-1, 0] + t[0, 0, 1] + np.append(r, 2.0)[-1]\n"
    "    return s + r.size\n"
    "@guvectorize(['void(float64[:], float64[:], float64[:])'],\n"
    "             '(n),(m)->(n)')\n"
    "def gstack(a, b, out):\n"
    "    s = np.stack((a, b))\n"
    "    out[:] = 0.0\n"
    "    out[0] = s.size\n";

static uf_context *ctx;
static uf_module *mod;

static int setup(void **state)
{
    (void)state;
    uf_error err;
    ctx = uf_context_new(&err);
    if (!ctx)
        return -1;
    mod = uf_module_from_string(ctx, "npjoin_c.py", src, &err);
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

/* f(x[0..n)) -> its one result (NULL with err filled on failure). */
static uf_array *calln(const char *name, uf_array **x, int n, uf_error *err)
{
    uf_array *out = NULL;
    int rc = uf_call(fn(name), x, n, &out, 1, NULL, err);
    return rc == 0 ? out : NULL;
}

/* A rows x cols float64 array in `order` whose element (i, j) is
 * i * 100 + j. */
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
                (double)(i * 100 + j);
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

static double at2(const uf_array *a, int64_t i, int64_t j)
{
    const int64_t *st = uf_array_strides(a);
    return *(const double *)((const char *)uf_array_data(a) + i * st[0] +
                             j * st[1]);
}

static double at3(const uf_array *a, int64_t i, int64_t j, int64_t k)
{
    const int64_t *st = uf_array_strides(a);
    return *(const double *)((const char *)uf_array_data(a) + i * st[0] +
                             j * st[1] + k * st[2]);
}

/* Along axis 1 and axis -2: a reversed strided view (the loop path) next
 * to a contiguous block of long rows (the memcpy path), against the
 * elements read here. */
static void test_concat_views(void **state)
{
    (void)state;
    uf_error err;
    uf_array *g = grid(6, 9, UF_ORDER_C), *w = grid(6, 40, UF_ORDER_C);
    uf_array *v = uf_array_slice(g, "::-1, 1::2", &err);
    uf_assert_ok(v != NULL, &err);
    uf_array *args[3] = {v, w, i64(1)};
    uf_array *r = calln("cat", args, 3, &err);
    uf_assert_ok(r != NULL, &err);
    assert_int_equal(uf_array_ndim(r), 2);
    assert_int_equal(uf_array_shape(r)[0], 6);
    assert_int_equal(uf_array_shape(r)[1], 44);
    assert_int_equal(uf_array_strides(r)[1], 8); /* C */
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 44; j++)
            assert_true(at2(r, i, j) ==
                        (j < 4 ? at2(v, i, j) : at2(w, i, j - 4)));
    uf_array_release(r);
    uf_array_release(args[2]);
    /* axis -2 of two 2-D arrays: axis 0, one memcpy of each */
    args[0] = g;
    args[1] = w;
    args[2] = i64(-2);
    assert_null(calln("cat", args, 3, &err)); /* 9 and 40 columns */
    args[1] = grid(3, 9, UF_ORDER_C);
    r = calln("cat", args, 3, &err);
    uf_assert_ok(r != NULL, &err);
    assert_int_equal(uf_array_shape(r)[0], 9);
    for (int i = 0; i < 9; i++)
        for (int j = 0; j < 9; j++)
            assert_true(at2(r, i, j) == (double)((i % 6) * 100 + j));
    uf_array_release(r);
    uf_array_release(args[1]);
    uf_array_release(args[2]);
    uf_array_release(v);
    uf_array_release(w);
    uf_array_release(g);
}

/* F inputs give an F result (Numba's layout), filled in the same order. */
static void test_fortran(void **state)
{
    (void)state;
    uf_error err;
    uf_array *a = grid(3, 70, UF_ORDER_F), *b = grid(3, 5, UF_ORDER_F);
    uf_array *args[3] = {a, b, i64(1)};
    uf_array *r = calln("cat", args, 3, &err);
    uf_assert_ok(r != NULL, &err);
    assert_int_equal(uf_array_shape(r)[1], 75);
    assert_int_equal(uf_array_strides(r)[0], 8); /* F */
    assert_int_equal(uf_array_strides(r)[1], 24);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 75; j++)
            assert_true(at2(r, i, j) ==
                        (double)(i * 100 + (j < 70 ? j : j - 70)));
    uf_array_release(r);
    uf_array_release(args[2]);
    /* np.stack of F arrays at axis 1: (3, 2, 70), F */
    args[1] = a;
    args[2] = i64(1);
    r = calln("stack", args, 3, &err);
    uf_assert_ok(r != NULL, &err);
    assert_int_equal(uf_array_ndim(r), 3);
    assert_int_equal(uf_array_shape(r)[1], 2);
    assert_int_equal(uf_array_strides(r)[0], 8);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 70; j++)
            assert_true(at3(r, i, 1, j) == (double)(i * 100 + j));
    uf_array_release(r);
    uf_array_release(args[2]);
    /* column_stack of a 1-D view and an F block: C (not every input F) */
    uf_array *col = uf_array_slice(a, ":, 7", &err);
    uf_assert_ok(col != NULL, &err);
    args[0] = col;
    args[1] = b;
    r = calln("cols", args, 2, &err);
    uf_assert_ok(r != NULL, &err);
    assert_int_equal(uf_array_shape(r)[1], 6);
    assert_int_equal(uf_array_strides(r)[1], 8);
    for (int i = 0; i < 3; i++) {
        assert_true(at2(r, i, 0) == (double)(i * 100 + 7));
        for (int j = 1; j < 6; j++)
            assert_true(at2(r, i, j) == (double)(i * 100 + j - 1));
    }
    uf_array_release(r);
    uf_array_release(col);
    uf_array_release(a);
    uf_array_release(b);
}

/* Numba's errors: codes and messages, the dimension named. */
static void test_errors(void **state)
{
    (void)state;
    uf_error err;
    uf_array *a = grid(2, 3, UF_ORDER_C), *b = grid(2, 4, UF_ORDER_C);
    uf_array *args[3] = {a, b, i64(2)};
    assert_null(calln("cat", args, 3, &err));
    assert_int_equal(err.code, UF_ERR_INDEX);
    assert_non_null(strstr(err.message, "IndexError: np.concatenate(): "
                                        "axis out of bounds"));
    uf_array_release(args[2]);
    args[2] = i64(0);
    assert_null(calln("cat", args, 3, &err));
    assert_int_equal(err.code, UF_ERR_VALUE);
    assert_non_null(strstr(err.message, "ValueError: np.concatenate(): "
                                        "input sizes over dimension 1 do "
                                        "not match"));
    assert_null(calln("stack", args, 3, &err));
    assert_non_null(strstr(err.message, "ValueError: np.stack(): all "
                                        "input arrays must have the same "
                                        "shape"));
    uf_array_release(args[2]);
    args[2] = i64(-4);
    assert_null(calln("stack", args, 3, &err));
    assert_int_equal(err.code, UF_ERR_INDEX);
    assert_non_null(strstr(err.message, "IndexError: np.stack(): axis "
                                        "out of bounds"));
    uf_array_release(args[2]);
    uf_array_release(a);
    uf_array_release(b);
}

/* np.append of a 2-D reversed view and a number, of empty arrays, and
 * of NaN / inf converted to float32 element by element. */
static void test_append(void **state)
{
    (void)state;
    uf_error err;
    uf_array *g = grid(3, 4, UF_ORDER_C);
    uf_array *v = uf_array_slice(g, "::-1, ::-1", &err);
    uf_assert_ok(v != NULL, &err);
    uf_array *args[2] = {v, i64(-5)};
    uf_array *r = calln("app", args, 2, &err);
    uf_assert_ok(r != NULL, &err);
    assert_int_equal(uf_array_dtype(r), UF_FLOAT64);
    assert_int_equal(uf_array_shape(r)[0], 13);
    const double *d = uf_array_data(r);
    for (int k = 0; k < 12; k++)
        assert_true(d[k] == at2(v, k / 4, k % 4));
    assert_true(d[12] == -5.0);
    uf_array_release(r);
    uf_array_release(args[1]);
    /* an empty float32 array and a float64 array holding NaN and inf */
    int64_t zero = 0, three = 3;
    uf_array *e = uf_empty(UF_FLOAT32, 1, &zero, UF_ORDER_C, &err);
    uf_array *s = uf_empty(UF_FLOAT64, 1, &three, UF_ORDER_C, &err);
    uf_assert_ok(e && s, &err);
    double *sd = uf_array_data(s);
    sd[0] = NAN;
    sd[1] = -INFINITY;
    sd[2] = 1e300; /* stays float64: float32 + float64 -> float64 */
    args[0] = e;
    args[1] = s;
    r = calln("app", args, 2, &err);
    uf_assert_ok(r != NULL, &err);
    assert_int_equal(uf_array_dtype(r), UF_FLOAT64);
    assert_int_equal(uf_array_shape(r)[0], 3);
    d = uf_array_data(r);
    assert_true(isnan(d[0]) && d[1] == -INFINITY && d[2] == 1e300);
    uf_array_release(r);
    uf_array_release(e);
    uf_array_release(s);
    uf_array_release(v);
    uf_array_release(g);
}

/* In a guvectorize kernel np.stack works on the core dimensions, and
 * shapes that differ raise Numba's ValueError through the gufunc call. */
static void test_gufunc(void **state)
{
    (void)state;
    uf_error err;
    int64_t n4 = 4, n3 = 3;
    uf_array *a = uf_zeros(UF_FLOAT64, 1, &n4, UF_ORDER_C, &err);
    uf_array *b = uf_zeros(UF_FLOAT64, 1, &n3, UF_ORDER_C, &err);
    uf_assert_ok(a && b, &err);
    uf_array *args[2] = {a, a};
    uf_array *r = calln("gstack", args, 2, &err);
    uf_assert_ok(r != NULL, &err);
    assert_true(((double *)uf_array_data(r))[0] == 8.0);
    uf_array_release(r);
    args[1] = b;
    assert_null(calln("gstack", args, 2, &err));
    assert_int_equal(err.code, UF_ERR_VALUE);
    assert_non_null(strstr(err.message, "np.stack(): all input arrays "
                                        "must have the same shape"));
    uf_array_release(a);
    uf_array_release(b);
}

/* 10^5 calls of a kernel that joins in a loop leave no block and no
 * allocation behind. */
static void test_no_leak(void **state)
{
    (void)state;
    uf_error err;
    uf_array *g = grid(4, 6, UF_ORDER_C);
    uf_array *r = calln("mix", &g, 1, &err); /* compiled */
    uf_assert_ok(r != NULL, &err);
    double first = *(double *)uf_array_data(r);
    uf_array_release(r);
    long nrt = uf__nrt_live(), live = uf__alloc_live();
    for (int i = 0; i < 100000; i++) {
        r = calln("mix", &g, 1, &err);
        uf_assert_ok(r != NULL, &err);
        assert_true(*(double *)uf_array_data(r) == first);
        uf_array_release(r);
    }
    assert_int_equal(uf__nrt_live(), nrt);
    assert_int_equal(uf__alloc_live(), live);
    uf_array_release(g);
}

static int oom_call(void *ud, uf_error *err)
{
    uf_array *x = ud;
    uf_array *out = calln("mix", &x, 1, err);
    if (out == NULL)
        return err->code;
    uf_array_release(out);
    return 0;
}

static void test_out_of_memory(void **state)
{
    (void)state;
    uf_error err;
    uf_array *g = grid(5, 8, UF_ORDER_C);
    uf_assert_ok(oom_call(g, &err) == 0, &err); /* compiled */
    uf_check_oom_each_alloc("mix", oom_call, g);
    uf_array_release(g);
}

/* Refused at the call's FILE:LINE:COL: axis=None, a list, arrays of two
 * ndims, and every join in a CUDA kernel. */
static void test_refused(void **state)
{
    (void)state;
    static const struct {
        const char *name, *sig, *fragment;
        int line, col;
    } cases[] = {
        {"k", "void(float64[:])", "CUDA kernels cannot", 5, 14},
        {"none", "float64[:](float64[:])", "Numba does not take axis=None",
         8, 40},
        {"lst", "float64[:](float64[:])", "expecting a non-empty tuple", 11, 27},
        {"nd", "float64[:](float64[:], float64[:, :])",
         "same number of dimensions", 14, 27},
    };
    static const char csrc[] =
        "import numpy as np\n"
        "from numba import cuda, njit\n"
        "@cuda.jit\n"
        "def k(out):\n"
        "    out[0] = np.concatenate((out, out))[0]\n"
        "@njit\n"
        "def none(a):\n"
        "    return np.concatenate((a, a), axis=None)\n"
        "@njit\n"
        "def lst(a):\n"
        "    return np.concatenate([a, a])\n"
        "@njit\n"
        "def nd(a, b):\n"
        "    return np.concatenate((a, b))\n";
    uf_error err;
    uf_module *m = uf_module_from_string(ctx, "npjoin_bad.py", csrc, &err);
    uf_assert_ok(m != NULL, &err);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uf_func *f = uf_module_get(m, cases[i].name, &err);
        uf_assert_ok(f != NULL, &err);
        char *text = uf_func_inspect(f, cases[i].sig, UF_INSPECT_TYPES, &err);
        if (text != NULL)
            fail_msg("%s compiled", cases[i].name);
        if (!strstr(err.message, cases[i].fragment) ||
            err.line != cases[i].line || err.column != cases[i].col)
            fail_msg("%s: %d:%d %s", cases[i].name, err.line, err.column,
                     err.message);
        assert_non_null(strstr(err.file, "npjoin_bad.py"));
    }
    uf_module_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_concat_views),
        cmocka_unit_test(test_fortran),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_append),
        cmocka_unit_test(test_gufunc),
        cmocka_unit_test(test_no_leak),
        cmocka_unit_test(test_out_of_memory),
        cmocka_unit_test(test_refused),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
