/* Basic slicing inside kernels (compiler/types/infer_slice.c,
 * compiler/lower/lower_slice.c) through uf_call, with NumPy's answers
 * computed here: ndarray's own basic indexing (uf_array_slice, NumPy's
 * rules) for views, memmove semantics for overlapping stores. Covers
 * negative steps, empty slices, bounds past either end, 0-d results,
 * non-contiguous inputs, overlapping assignment and bad input. The
 * Numba oracle of the same constructs is tests/e2e/run_slicing_oracle.py. */
#include <stdio.h>
#include <string.h>

#include "test_util.h"

static const char src[] =
    "from numba import njit\n"
    "import numpy as np\n"
    "@njit\n"
    "def take(a, out, lo, hi, st):\n"
    "    v = a[lo:hi:st]\n"
    "    for k in range(len(v)):\n"
    "        out[k] = v[k]\n"
    "    return len(v), v.strides[0]\n"
    "@njit\n"
    "def take_open(a, out):\n"
    "    v = a[::-1][2:]\n"
    "    for k in range(len(v)):\n"
    "        out[k] = v[k]\n"
    "    return len(v)\n"
    "@njit\n"
    "def shift(a):\n"
    "    a[1:] = a[:-1]\n"
    "@njit\n"
    "def unshift(a):\n"
    "    a[:-1] = a[1:]\n"
    "@njit\n"
    "def reverse(a):\n"
    "    a[:] = a[::-1]\n"
    "@njit\n"
    "def fill(a, v):\n"
    "    a[1:4] = v\n"
    "@njit\n"
    "def zero_d(a, i, j):\n"
    "    return a[i, j, ...], a[i][j]\n"
    "@njit\n"
    "def axes(a):\n"
    "    v = a[None, ..., None]\n"
    "    return v.ndim, v.shape[0], v.shape[-1], v.strides[0]\n"
    "@njit\n"
    "def put_row(a, b, i):\n"
    "    a[i, :] = b\n"
    "@njit\n"
    "def col(a, j):\n"
    "    c = a[:, j]\n"
    "    s = 0.0\n"
    "    for k in range(len(c)):\n"
    "        s = s * 10.0 + c[k]\n"
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
    mod = uf_module_from_string(ctx, "slicing_c.py", src, &err);
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

static uf_array *i64(int64_t v)
{
    uf_error err;
    uf_array *a = uf_full(UF_INT64, 0, NULL, &v, UF_INT64, UF_ORDER_C, &err);
    uf_assert_ok(a != NULL, &err);
    return a;
}

static uf_array *ramp(int64_t n)
{
    uf_error err;
    uf_array *a = uf_arange(0, (double)n, 1, UF_FLOAT64, &err);
    uf_assert_ok(a != NULL, &err);
    return a;
}

static uf_func *fn(const char *name)
{
    uf_error err;
    uf_func *f = uf_module_get(mod, name, &err);
    uf_assert_ok(f != NULL, &err);
    return f;
}

static int64_t geti(uf_array *a)
{
    return *(int64_t *)uf_array_data(a);
}

static double getd(uf_array *a)
{
    return *(double *)uf_array_data(a);
}

/* a[lo:hi:st] in the kernel against ndarray's NumPy slicing, on a base
 * of 10 and on a reversed strided view of it. */
static void test_views_match_numpy(void **state)
{
    (void)state;
    static const int64_t t[][3] = {
        {1, -1, 1}, {0, 10, 2},     {9, 0, -1},   {-1, -11, -4},
        {-100, 100, 3}, {100, -100, -1}, {5, 2, 1}, {3, 3, 1},
        {-3, 100, 1}, {8, 1, -3},   {0, 0, -1},   {-11, 4, 2},
        {11, 9, -1}, {2, 7, 9}};
    uf_func *f = fn("take");
    uf_error err;
    for (int base = 0; base < 2; base++) {
        uf_array *whole = ramp(20);
        uf_array *a = base == 0 ? uf_array_slice(whole, ":10", &err)
                                : uf_array_slice(whole, "::-2", &err);
        uf_assert_ok(a != NULL, &err);
        for (size_t c = 0; c < sizeof t / sizeof t[0]; c++) {
            char expr[96];
            snprintf(expr, sizeof expr, "%lld:%lld:%lld", (long long)t[c][0],
                     (long long)t[c][1], (long long)t[c][2]);
            uf_array *want = uf_array_slice(a, expr, &err);
            uf_assert_ok(want != NULL, &err);
            uf_array *out = uf_zeros(UF_FLOAT64, 1, (int64_t[]){20},
                                     UF_ORDER_C, &err);
            uf_array *in[5] = {a, out, i64(t[c][0]), i64(t[c][1]),
                               i64(t[c][2])};
            uf_array *res[2] = {NULL, NULL};
            uf_assert_ok(uf_call(f, in, 5, res, 2, NULL, &err) == 0, &err);
            int64_t n = uf_array_shape(want)[0];
            if (geti(res[0]) != n)
                fail_msg("base %d a[%s]: length %lld, NumPy %lld", base,
                         expr, (long long)geti(res[0]), (long long)n);
            if (n > 0 && geti(res[1]) != uf_array_strides(want)[0])
                fail_msg("base %d a[%s]: stride %lld, NumPy %lld", base,
                         expr, (long long)geti(res[1]),
                         (long long)uf_array_strides(want)[0]);
            for (int64_t k = 0; k < n; k++) {
                double w = *(double *)uf_array_getptr(want, &k, &err);
                double g = ((double *)uf_array_data(out))[k];
                if (g != w)
                    fail_msg("base %d a[%s][%lld]: %g, NumPy %g", base, expr,
                             (long long)k, g, w);
            }
            for (int k = 0; k < 2; k++)
                uf_array_release(res[k]);
            for (int k = 1; k < 5; k++)
                uf_array_release(in[k]);
            uf_array_release(want);
        }
        uf_array_release(a);
        uf_array_release(whole);
    }
}

static void test_open_bounds(void **state)
{
    (void)state;
    uf_error err;
    uf_array *a = ramp(6), *out = uf_zeros(UF_FLOAT64, 1, (int64_t[]){6},
                                           UF_ORDER_C, &err);
    uf_array *in[2] = {a, out}, *res = NULL;
    uf_assert_ok(uf_call(fn("take_open"), in, 2, &res, 1, NULL, &err) == 0,
                 &err);
    assert_int_equal(geti(res), 4); /* [5 4 3 2 1 0][2:] = 3 2 1 0 */
    const double *o = uf_array_data(out);
    assert_true(o[0] == 3 && o[1] == 2 && o[2] == 1 && o[3] == 0);
    uf_array_release(res);
    uf_array_release(out);
    uf_array_release(a);
}

/* Overlapping stores read the source as if copied first (memmove). */
static void check_store(const char *kernel, const char *view, int64_t n,
                        void (*expect)(double *, int64_t))
{
    uf_error err;
    uf_array *whole = ramp(2 * n);
    uf_array *a = uf_array_slice(whole, view, &err);
    uf_assert_ok(a != NULL, &err);
    int64_t m = uf_array_shape(a)[0];
    double want[64], got[64];
    for (int64_t k = 0; k < m; k++)
        want[k] = *(double *)uf_array_getptr(a, &k, &err);
    expect(want, m);
    uf_assert_ok(uf_call(fn(kernel), &a, 1, NULL, 0, NULL, &err) == 0, &err);
    for (int64_t k = 0; k < m; k++) {
        got[k] = *(double *)uf_array_getptr(a, &k, &err);
        if (got[k] != want[k])
            fail_msg("%s on [%s] of %lld: [%lld] = %g, NumPy %g", kernel,
                     view, (long long)(2 * n), (long long)k, got[k],
                     want[k]);
    }
    uf_array_release(a);
    uf_array_release(whole);
}

static void exp_shift(double *v, int64_t n)
{
    if (n > 1)
        memmove(v + 1, v, (size_t)(n - 1) * sizeof *v);
}

static void exp_unshift(double *v, int64_t n)
{
    if (n > 1)
        memmove(v, v + 1, (size_t)(n - 1) * sizeof *v);
}

static void exp_reverse(double *v, int64_t n)
{
    for (int64_t i = 0, j = n - 1; i < j; i++, j--) {
        double t = v[i];
        v[i] = v[j];
        v[j] = t;
    }
}

static void test_overlapping_stores(void **state)
{
    (void)state;
    static const char *views[] = {":", "::-1", "1::3", "::-2", ":0", ":1"};
    for (size_t k = 0; k < sizeof views / sizeof views[0]; k++)
        for (int64_t n = 1; n <= 9; n += 4) {
            check_store("shift", views[k], n, exp_shift);
            check_store("unshift", views[k], n, exp_unshift);
            check_store("reverse", views[k], n, exp_reverse);
        }
}

static void test_scalar_store_and_axes(void **state)
{
    (void)state;
    uf_error err;
    uf_array *a = ramp(6);
    uf_array *v = uf_full(UF_FLOAT64, 0, NULL, &(double){2.5}, UF_FLOAT64,
                          UF_ORDER_C, &err);
    uf_array *in[2] = {a, v};
    uf_assert_ok(uf_call(fn("fill"), in, 2, NULL, 0, NULL, &err) == 0, &err);
    const double *d = uf_array_data(a);
    assert_true(d[0] == 0 && d[1] == 2.5 && d[3] == 2.5 && d[4] == 4);
    /* past the end: a[1:4] of 2 elements touches a[1] only */
    uf_array *two = ramp(2);
    in[0] = two;
    uf_assert_ok(uf_call(fn("fill"), in, 2, NULL, 0, NULL, &err) == 0, &err);
    assert_true(((double *)uf_array_data(two))[1] == 2.5);
    uf_array_release(two);

    /* a[None, ..., None]: ndim + 2, the new axes of length 1, stride 0 */
    uf_array *res[4] = {NULL};
    uf_assert_ok(uf_call(fn("axes"), &a, 1, res, 4, NULL, &err) == 0, &err);
    assert_int_equal(geti(res[0]), 3);
    assert_int_equal(geti(res[1]), 1);
    assert_int_equal(geti(res[2]), 1);
    assert_int_equal(geti(res[3]), 0);
    for (int k = 0; k < 4; k++)
        uf_array_release(res[k]);

    /* a[i, j, ...]: every axis indexed gives the element (Numba: a
     * scalar where NumPy gives a 0-d array of it) */
    uf_array *m = uf_arange(0, 12, 1, UF_FLOAT64, &err);
    uf_array *m34 = uf_array_reshape(m, 2, (int64_t[]){3, 4}, UF_ORDER_C, false,
                                     &err);
    uf_assert_ok(m34 != NULL, &err);
    uf_array *zin[3] = {m34, i64(-1), i64(2)};
    uf_array *z[2] = {NULL, NULL};
    uf_assert_ok(uf_call(fn("zero_d"), zin, 3, z, 2, NULL, &err) == 0, &err);
    assert_true(getd(z[0]) == 10.0 && getd(z[1]) == 10.0);
    assert_int_equal(uf_array_ndim(z[0]), 0);
    /* a column of the transposed (F-ordered, non-contiguous) matrix */
    uf_array *tr = uf_array_transpose(m34, NULL, &err);
    uf_array *cin[2] = {tr, i64(1)}, *s = NULL;
    uf_assert_ok(uf_call(fn("col"), cin, 2, &s, 1, NULL, &err) == 0, &err);
    assert_true(getd(s) == 4567.0); /* m34[1, :] = 4 5 6 7 */
    /* a row stored from a broadcast (1-element) array and a full row */
    uf_array *one = uf_full(UF_FLOAT64, 1, (int64_t[]){1}, &(double){-1},
                            UF_FLOAT64, UF_ORDER_C, &err);
    uf_array *pin[3] = {m34, one, i64(0)};
    uf_assert_ok(uf_call(fn("put_row"), pin, 3, NULL, 0, NULL, &err) == 0,
                 &err);
    const double *md = uf_array_data(m34);
    assert_true(md[0] == -1 && md[3] == -1 && md[4] == 4);
    uf_array_release(pin[2]);
    uf_array_release(one);
    uf_array_release(s);
    uf_array_release(cin[1]);
    uf_array_release(tr);
    for (int k = 0; k < 2; k++)
        uf_array_release(z[k]);
    uf_array_release(zin[1]);
    uf_array_release(zin[2]);
    uf_array_release(m34);
    uf_array_release(m);
    uf_array_release(v);
    uf_array_release(a);
}

static void test_bad_input(void **state)
{
    (void)state;
    uf_error err;
    /* step 0 at run time: NumPy's ValueError */
    uf_array *a = ramp(5), *out = uf_zeros(UF_FLOAT64, 1, (int64_t[]){5},
                                           UF_ORDER_C, &err);
    uf_array *in[5] = {a, out, i64(0), i64(5), i64(0)};
    uf_array *res[2] = {NULL, NULL};
    assert_int_equal(uf_call(fn("take"), in, 5, res, 2, NULL, &err),
                     UF_ERR_VALUE);
    assert_non_null(strstr(err.message, "slice step cannot be zero"));
    /* a row that does not broadcast */
    uf_array *m = uf_zeros(UF_FLOAT64, 2, (int64_t[]){2, 3}, UF_ORDER_C,
                           &err);
    uf_array *b = ramp(2);
    uf_array *pin[3] = {m, b, i64(0)};
    assert_int_equal(uf_call(fn("put_row"), pin, 3, NULL, 0, NULL, &err),
                     UF_ERR_VALUE);
    assert_non_null(strstr(err.message, "cannot assign slice"));
    for (int k = 0; k < 3; k++)
        uf_array_release(in[2 + k]);
    uf_array_release(pin[2]);
    uf_array_release(b);
    uf_array_release(m);
    uf_array_release(out);

    /* what stays refused names the construct at file:line:col */
    static const struct {
        const char *src, *want;
        int col;
    } refused[] = {
        {"from numba import njit\n@njit\ndef f(a, b):\n    return a[b]\n",
         "Unsupported array index type", 14},
        {"from numba import njit\n@njit\ndef f(a):\n    return a[1.0:]\n",
         "slice indices must be integers or None", 14},
        {"from numba import njit\n@njit\ndef f(a):\n    return a[..., ...]\n",
         "an index can only have a single ellipsis", 19},
    };
    for (size_t k = 0; k < sizeof refused / sizeof refused[0]; k++) {
        uf_module *bad = uf_module_from_string(ctx, "k.py", refused[k].src,
                                               &err);
        uf_assert_ok(bad != NULL, &err);
        uf_func *f = uf_module_get(bad, "f", &err);
        uf_array *args[2] = {a, a};
        uf_array *r = NULL;
        int rc = uf_call(f, args, k == 0 ? 2 : 1, &r, 1, NULL, &err);
        if (rc == 0 || !strstr(err.message, refused[k].want) ||
            strcmp(err.file, "k.py") != 0 || err.line != 4 ||
            err.column != refused[k].col)
            fail_msg("case %zu: rc %d, %s:%d:%d: '%s', want 4:%d: '%s'", k,
                     rc, err.file, err.line, err.column, err.message,
                     refused[k].col, refused[k].want);
        uf_module_free(bad);
    }
    uf_array_release(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_views_match_numpy),
        cmocka_unit_test(test_open_bounds),
        cmocka_unit_test(test_overlapping_stores),
        cmocka_unit_test(test_scalar_store_and_axes),
        cmocka_unit_test(test_bad_input),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
