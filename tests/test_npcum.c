/* np.nancumsum, np.nancumprod, np.diff and np.average inside kernels
 * (compiler/types/infer_npcum.c, compiler/lower/lower_npcum.c) through
 * uf_call, for what the Numba oracle (tests/e2e/run_npcum_oracle.py)
 * cannot see: views built here (reversed, every other column) against
 * sums computed here, np.diff's scratch row (n >= 2) reused across rows,
 * the errors' codes and messages, no leak across 10^5 calls (uf__nrt_live
 * and uf__alloc_live back where they started), out of memory at every
 * allocation reaching the caller as UF_ERR_NOMEM, the refusals at
 * file:line:col (average's axis=, CUDA kernels). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nrt_test_util.h"

static const char src[] =
    "from numba import njit\n"
    "import numpy as np\n"
    "@njit\n"
    "def nancumsum(a):\n"
    "    return np.nancumsum(a)\n"
    "@njit\n"
    "def nancumprod(a):\n"
    "    return np.nancumprod(a)\n"
    "@njit\n"
    "def diff3(a):\n"
    "    return np.diff(a, n=3)\n"
    "@njit\n"
    "def diffn(a, n):\n"
    "    return np.diff(a, n)\n"
    "@njit\n"
    "def average_w(a, w):\n"
    "    return np.average(a, weights=w)\n"
    "@njit\n"
    "def mix(a):\n"
    "    s = 0.0\n"
    "    for i in range(3):\n"
    "        d = np.diff(a, 2)\n"
    "        c = np.nancumsum(d)\n"
    "        p = np.nancumprod(a[0])\n"
    "        s += c[-1] + p[0] + np.average(a, weights=a) + i\n"
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
    mod = uf_module_from_string(ctx, "npcum_c.py", src, &err);
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

/* A 2-D float64 array whose element (i, j) is ((i * cols + j) * 37 mod
 * 101) - 50, a NaN at every (i * cols + j) % 7 == 3 when nans. */
static uf_array *grid(int64_t rows, int64_t cols, bool nans)
{
    uf_error err;
    int64_t shape[2] = {rows, cols};
    uf_array *a = uf_empty(UF_FLOAT64, 2, shape, UF_ORDER_C, &err);
    uf_assert_ok(a != NULL, &err);
    double *d = uf_array_data(a);
    for (int64_t k = 0; k < rows * cols; k++)
        d[k] = nans && k % 7 == 3 ? NAN : (double)((k * 37) % 101) - 50.0;
    return a;
}

/* A 0-d int64 array holding v: a scalar argument. */
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

/* nancumsum / nancumprod of a reversed strided view with NaNs: C order,
 * NaN skipped, against running sums here. */
static void test_nancum_views(void **state)
{
    (void)state;
    uf_error err;
    uf_array *g = grid(6, 9, true);
    uf_array *v = uf_array_slice(g, "::-1, 1::2", &err);
    uf_assert_ok(v != NULL, &err);
    uf_array *s = calln("nancumsum", &v, 1, &err);
    uf_assert_ok(s != NULL, &err);
    uf_array *p = calln("nancumprod", &v, 1, &err);
    uf_assert_ok(p != NULL, &err);
    assert_int_equal(uf_array_ndim(s), 1);
    assert_int_equal(uf_array_shape(s)[0], 24);
    const double *sd = uf_array_data(s), *pd = uf_array_data(p);
    double acc = 0, prod = 1;
    int k = 0;
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 4; j++, k++) {
            double x = at2(v, i, j);
            if (!isnan(x)) {
                acc += x;
                prod *= x;
            }
            assert_true(sd[k] == acc);
            assert_true(pd[k] == prod);
        }
    uf_array_release(p);
    uf_array_release(s);
    uf_array_release(v);
    uf_array_release(g);
}

/* np.diff(a, n=3) of an F array and of a 1-row view: the third
 * differences along the last axis, from the scratch row, as computed
 * here. */
static void test_diff_orders(void **state)
{
    (void)state;
    uf_error err;
    int64_t shape[2] = {4, 7};
    uf_array *f = uf_empty(UF_FLOAT64, 2, shape, UF_ORDER_F, &err);
    uf_assert_ok(f != NULL, &err);
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 7; j++)
            *(double *)((char *)uf_array_data(f) + i * 8 + j * 32) =
                (double)(i + 1) * j * j * j;
    uf_array *d = calln("diff3", &f, 1, &err);
    uf_assert_ok(d != NULL, &err);
    assert_int_equal(uf_array_shape(d)[0], 4);
    assert_int_equal(uf_array_shape(d)[1], 4);
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) /* the third difference of j^3: 6 */
            assert_true(at2(d, i, j) == 6.0 * (i + 1));
    uf_array_release(d);
    /* n past the last axis: an empty last axis */
    uf_array *args[2] = {f, i64(9)};
    d = calln("diffn", args, 2, &err);
    uf_assert_ok(d != NULL, &err);
    assert_int_equal(uf_array_shape(d)[0], 4);
    assert_int_equal(uf_array_shape(d)[1], 0);
    uf_array_release(d);
    uf_array_release(args[1]);
    /* n < 0: Numba's ValueError */
    args[1] = i64(-2);
    d = calln("diffn", args, 2, &err);
    assert_null(d);
    assert_int_equal(err.code, UF_ERR_VALUE);
    assert_non_null(strstr(err.message, "diff(): order must be "
                                        "non-negative"));
    uf_array_release(args[1]);
    uf_array_release(f);
}

/* np.average's errors in Numba's order and words. */
static void test_average_errors(void **state)
{
    (void)state;
    uf_error err;
    uf_array *a = grid(3, 4, false);
    int64_t n3 = 3, n4 = 4;
    uf_array *w3 = uf_zeros(UF_FLOAT64, 1, &n3, UF_ORDER_C, &err);
    uf_array *w4 = uf_zeros(UF_FLOAT64, 1, &n4, UF_ORDER_C, &err);
    uf_assert_ok(w3 && w4, &err);
    uf_array *args[2] = {a, w4};
    /* 1-D weights summing to zero: ZeroDivisionError first */
    assert_null(calln("average_w", args, 2, &err));
    assert_int_equal(err.code, UF_ERR_VALUE);
    assert_non_null(strstr(err.message, "ZeroDivisionError: Weights sum "
                                        "to zero, can't be normalized."));
    /* weights (3,) against (3, 4): np.multiply's ValueError */
    ((double *)uf_array_data(w3))[1] = 2.0;
    args[1] = w3;
    assert_null(calln("average_w", args, 2, &err));
    assert_non_null(strstr(err.message, "ValueError"));
    /* weights (4,) broadcast along the rows: sum(a * w) / sum(w) */
    double *wd = uf_array_data(w4);
    wd[0] = 1.0;
    wd[3] = 3.0;
    args[1] = w4;
    uf_array *r = calln("average_w", args, 2, &err);
    uf_assert_ok(r != NULL, &err);
    double want = 0;
    for (int i = 0; i < 3; i++)
        want += at2(a, i, 0) + 3.0 * at2(a, i, 3);
    assert_true(*(double *)uf_array_data(r) == want / 4.0);
    uf_array_release(r);
    /* a 2-D weights of another shape: TypeError */
    uf_array *t = uf_array_slice(a, "::-1, :3", &err);
    uf_assert_ok(t != NULL, &err);
    args[1] = t;
    assert_null(calln("average_w", args, 2, &err));
    assert_non_null(strstr(err.message, "TypeError: 1D weights expected"));
    uf_array_release(t);
    uf_array_release(w3);
    uf_array_release(w4);
    uf_array_release(a);
}

/* 10^5 calls of a kernel that differences, accumulates and averages in a
 * loop leave no block and no allocation behind. */
static void test_no_leak(void **state)
{
    (void)state;
    uf_error err;
    uf_array *g = grid(4, 6, false);
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
    uf_array *g = grid(5, 8, true);
    uf_assert_ok(oom_call(g, &err) == 0, &err); /* compiled */
    uf_check_oom_each_alloc("mix", oom_call, g);
    uf_array_release(g);
}

/* Refused at the call's FILE:LINE:COL: average's axis=, and every one of
 * them in a CUDA kernel. */
static void test_refused(void **state)
{
    (void)state;
    static const char csrc[] =
        "import numpy as np\n"
        "from numba import cuda, njit\n"
        "@cuda.jit\n"
        "def k(out):\n"
        "    out[0] = np.diff(out)[0]\n"
        "@njit\n"
        "def avg(a):\n"
        "    return np.average(a, axis=0)\n";
    uf_error err;
    uf_module *m = uf_module_from_string(ctx, "npcum_bad.py", csrc, &err);
    uf_assert_ok(m != NULL, &err);
    uf_func *k = uf_module_get(m, "k", &err);
    uf_assert_ok(k != NULL, &err);
    char *text = uf_func_inspect(k, "void(float64[:])", UF_INSPECT_TYPES,
                                 &err);
    assert_null(text);
    assert_non_null(strstr(err.file, "npcum_bad.py"));
    assert_int_equal(err.line, 5);
    assert_int_equal(err.column, 14);
    assert_non_null(strstr(err.message, "CUDA kernels cannot"));
    uf_func *a = uf_module_get(m, "avg", &err);
    uf_assert_ok(a != NULL, &err);
    text = uf_func_inspect(a, "float64(float64[:])", UF_INSPECT_TYPES, &err);
    assert_null(text);
    assert_int_equal(err.line, 8);
    assert_int_equal(err.column, 31);
    assert_non_null(strstr(err.message, "Numba does not support average "
                                        "with axis."));
    uf_module_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nancum_views),
        cmocka_unit_test(test_diff_orders),
        cmocka_unit_test(test_average_errors),
        cmocka_unit_test(test_no_leak),
        cmocka_unit_test(test_out_of_memory),
        cmocka_unit_test(test_refused),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
