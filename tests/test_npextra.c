/* np.nanargmin / np.nanargmax, np.count_nonzero and np.ptp inside kernels
 * (compiler/types/infer_npextra.c, compiler/lower/lower_npextra.c) through
 * uf_call: long contiguous arrays whose NaN sits in the vector body or in
 * the scalar tail (the vectorised count and ptp), 0-d arrays (which `ufjit
 * call` cannot pass, so the Numba oracle run_npextra_oracle.py does not
 * reach them), the run-time errors, and the compile-time refusals at
 * file:line:col. Reference answers are computed here by C-order scans. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "test_util.h"

#include "compiler/types/infer_npreduce.h"

static const char src[] =
    "from numba import njit\n"
    "import numpy as np\n"
    "@njit\n"
    "def all4(a):\n"
    "    return np.nanargmin(a), np.nanargmax(a), np.count_nonzero(a), "
    "np.ptp(a)\n"
    "@njit\n"
    "def zerod(x):\n"
    "    a = np.full((), x)\n"
    "    return np.nanargmin(a), np.count_nonzero(a), np.nanargmax(a=a)\n"
    "@njit\n"
    "def zerod_axis(x):\n"
    "    return np.count_nonzero(np.full((), x), axis=0)\n"
    "@njit\n"
    "def iargs(a):\n"
    "    return np.argmin(a), np.argmax(a), np.nanargmin(a), "
    "np.nanargmax(a), a[::-1].argmin(), np.nanargmax(a[1::2])\n"
    "@njit\n"
    "def ptp_only(a):\n"
    "    return np.ptp(a)\n";

static uf_context *ctx;
static uf_module *mod;

static int setup(void **state)
{
    (void)state;
    uf_error err;
    ctx = uf_context_new(&err);
    if (!ctx)
        return -1;
    mod = uf_module_from_string(ctx, "npextra_c.py", src, &err);
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

static int call(const char *name, uf_array **in, int nin, uf_array **res,
                int nres, uf_error *err)
{
    uf_func *f = uf_module_get(mod, name, err);
    uf_assert_ok(f != NULL, err);
    for (int k = 0; k < nres; k++)
        res[k] = NULL;
    return uf_call(f, in, nin, res, nres, NULL, err);
}

static uf_array *f64(const double *v, int64_t n)
{
    uf_error err;
    uf_array *a = uf_empty(UF_FLOAT64, 1, &n, UF_ORDER_C, &err);
    uf_assert_ok(a != NULL, &err);
    if (n)
        memcpy(uf_array_data(a), v, (size_t)n * sizeof(double));
    return a;
}

static int64_t geti(uf_array *a)
{
    assert_int_equal(uf_array_dtype(a), UF_INT64);
    return *(int64_t *)uf_array_data(a);
}

/* all4 of n float64 values, NaN at the given positions (-1: none),
 * against a C-order scan. */
static void check_all4(int64_t n, int64_t nan1, int64_t nan2)
{
    static double x[5000];
    for (int64_t i = 0; i < n; i++)
        x[i] = (double)((i * 7919) % 1013) - 500.0 + (i % 3) * 0.25;
    if (nan1 >= 0)
        x[nan1] = NAN;
    if (nan2 >= 0)
        x[nan2] = NAN;
    int64_t imn = 0, imx = 0, nz = 0;
    double mn = INFINITY, mx = -INFINITY;
    bool anynan = false;
    for (int64_t i = 0; i < n; i++) {
        nz += x[i] != 0;
        if (isnan(x[i])) {
            anynan = true;
            continue;
        }
        if (x[i] < mn)
            mn = x[i], imn = i;
        if (x[i] > mx)
            mx = x[i], imx = i;
    }
    uf_array *a = f64(x, n), *res[4];
    uf_error err;
    uf_assert_ok(call("all4", &a, 1, res, 4, &err) == 0, &err);
    assert_int_equal(geti(res[0]), imn);
    assert_int_equal(geti(res[1]), imx);
    assert_int_equal(geti(res[2]), nz);
    double p = *(double *)uf_array_data(res[3]);
    if (anynan)
        assert_true(isnan(p));
    else
        assert_true(p == mx - mn);
    for (int k = 0; k < 4; k++)
        uf_array_release(res[k]);
    uf_array_release(a);
}

static void test_long_arrays(void **state)
{
    (void)state;
    check_all4(1, -1, -1);
    check_all4(31, -1, -1);
    check_all4(4099, -1, -1);
    check_all4(4099, 17, -1);   /* in the 4-vector body */
    check_all4(4099, 4098, -1); /* in the scalar tail */
    check_all4(4099, 0, 4097);
}

/* The first index of the smallest (max: largest) of n int64s, every
 * step-th from off. */
static int64_t first_best(const int64_t *x, int64_t n, int64_t off,
                          int64_t step, bool max)
{
    int64_t bi = 0;
    for (int64_t i = 1, k = off + step; i < n; i++, k += step)
        if (max ? x[k] > x[off + bi * step] : x[k] < x[off + bi * step])
            bi = i;
    return bi;
}

/* argmin-style scans of ints in 8-lane vectors (lower_npextra.c): ties
 * across lanes, the best in the vector body or the scalar tail, views. */
static void test_int_args(void **state)
{
    (void)state;
    static const uf_dtype dts[] = {UF_INT64, UF_INT32, UF_UINT8, UF_INT8};
    static int64_t x[300];
    for (size_t t = 0; t < sizeof dts / sizeof dts[0]; t++)
        for (int64_t n = 1; n < 300; n += 37) {
            uf_error err;
            uf_array *a = uf_empty(dts[t], 1, &n, UF_ORDER_C, &err);
            uf_assert_ok(a != NULL, &err);
            for (int64_t i = 0; i < n; i++) {
                int64_t v = (i * 37 + (int64_t)t * 11) % 23; /* ties */
                if (i == n - 1 && n % 2)
                    v = -5 * (dts[t] != UF_UINT8); /* best in the tail */
                x[i] = dts[t] == UF_UINT8 && v < 0 ? 0 : v;
                void *p = uf_array_getptr(a, &i, &err);
                switch (dts[t]) {
                case UF_INT64: *(int64_t *)p = x[i]; break;
                case UF_INT32: *(int32_t *)p = (int32_t)x[i]; break;
                case UF_UINT8: *(uint8_t *)p = (uint8_t)x[i]; break;
                default: *(int8_t *)p = (int8_t)x[i]; break;
                }
            }
            uf_array *res[6];
            int rc = call("iargs", &a, 1, res, 6, &err);
            if (n < 2) { /* a[1::2] is empty */
                assert_int_equal(rc, UF_ERR_VALUE);
                uf_array_release(a);
                continue;
            }
            uf_assert_ok(rc == 0, &err);
            int64_t want[6] = {first_best(x, n, 0, 1, false),
                               first_best(x, n, 0, 1, true),
                               first_best(x, n, 0, 1, false),
                               first_best(x, n, 0, 1, true),
                               first_best(x, n, n - 1, -1, false),
                               first_best(x, n / 2, 1, 2, true)};
            for (int k = 0; k < 6; k++) {
                if (geti(res[k]) != want[k])
                    fail_msg("dtype %d n %lld result %d: %lld, want %lld",
                             (int)dts[t], (long long)n, k,
                             (long long)geti(res[k]), (long long)want[k]);
                uf_array_release(res[k]);
            }
            uf_array_release(a);
        }
}

static void test_errors(void **state)
{
    (void)state;
    double nn[3] = {NAN, NAN, NAN};
    uf_array *a = f64(nn, 3), *res[4];
    uf_error err;
    assert_int_equal(call("all4", &a, 1, res, 4, &err), UF_ERR_VALUE);
    assert_non_null(strstr(err.message, "All-NaN slice encountered"));
    uf_array_release(a);
    a = f64(nn, 0);
    assert_int_equal(call("ptp_only", &a, 1, res, 1, &err), UF_ERR_VALUE);
    assert_non_null(strstr(err.message, "zero-size array reduction not "
                                        "possible"));
    assert_int_equal(call("all4", &a, 1, res, 4, &err), UF_ERR_VALUE);
    assert_non_null(strstr(err.message, "argmin of an empty sequence"));
    uf_array_release(a);
}

static void test_zero_d(void **state)
{
    (void)state;
    uf_error err;
    uf_array *x = uf_zeros(UF_FLOAT64, 0, NULL, UF_ORDER_C, &err), *res[3];
    uf_assert_ok(x != NULL, &err); /* a number for the kernel */
    uf_assert_ok(call("zerod", &x, 1, res, 3, &err) == 0, &err);
    assert_int_equal(geti(res[0]), 0);
    assert_int_equal(geti(res[1]), 0); /* 0.0 is not counted */
    assert_int_equal(geti(res[2]), 0);
    for (int k = 0; k < 3; k++)
        uf_array_release(res[k]);
    assert_int_equal(call("zerod_axis", &x, 1, res, 1, &err), UF_ERR_VALUE);
    assert_non_null(strstr(err.message, "AxisError: axis 0 is out of bounds "
                                        "for array of dimension 0"));
    uf_array_release(x);
}

/* Each refusal at its line and column, Numba's exception named. */
static void test_refusals(void **state)
{
    (void)state;
    static const struct {
        const char *body, *frag;
        int col;
    } cases[] = {
        {"    return np.nanargmin(a.astype(np.complex128))", "complex", 12},
        {"    return np.ptp(np.full((), 1.0))", "0-d", 12},
        {"    return np.ptp(a > 0)", "Boolean dtype is unsupported", 12},
        {"    return np.count_nonzero(a, axis=())", "axis=()", 37},
        {"    return np.count_nonzero(a, 1.5)", "integer axis", 32},
        {"    return np.nanargmin(a, axis=(0,))", "axis must be an integer",
         33},
        {"    return np.ptp(a, 0)", "too many positional", 22},
        {"    return np.count_nonzero(3.0)", "count the elements", 12},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[512];
        snprintf(text, sizeof text,
                 "from numba import njit\nimport numpy as np\n@njit\n"
                 "def f(a):\n%s\n",
                 cases[i].body);
        uf_error err;
        uf_module *m = uf_module_from_string(ctx, "bad.py", text, &err);
        uf_array *a = NULL, *res[1] = {NULL};
        int rc = -1;
        if (m) {
            int64_t n = 4;
            a = uf_zeros(UF_FLOAT64, 1, &n, UF_ORDER_C, &err);
            uf_func *f = uf_module_get(m, "f", &err);
            rc = f ? uf_call(f, &a, 1, res, 1, NULL, &err) : -1;
        }
        if (rc == 0 || !strstr(err.message, cases[i].frag) ||
            err.line != 5 || err.column != cases[i].col)
            fail_msg("case %zu: rc %d, %d:%d %s", i, rc, err.line,
                     err.column, err.message);
        uf_array_release(res[0]);
        uf_array_release(a);
        uf_module_free(m);
    }
}

/* README's list of reductions holds the four (test_readme_lists checks
 * the text; this checks the table has them). */
static void test_listing(void **state)
{
    (void)state;
    const char *want[] = {"numpy.nanargmin", "numpy.nanargmax",
                          "numpy.count_nonzero", "numpy.ptp"};
    for (int w = 0; w < 4; w++) {
        const char *name, *kind;
        bool found = false;
        for (int i = 0; uf__npreduce_listing_at(i, &name, &kind); i++)
            found |= strcmp(name, want[w]) == 0 &&
                     strcmp(kind, "function") == 0;
        if (!found)
            fail_msg("%s is not listed", want[w]);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_long_arrays), cmocka_unit_test(test_int_args),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_zero_d), cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_listing)};
    return cmocka_run_group_tests(tests, setup, teardown);
}
