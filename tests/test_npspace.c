/* np.logspace, np.geomspace (compiler/lower/lower_npspace.c) and
 * np.kaiser (common/npsignal.c's uf__np_kaiser) through the C API, for
 * what the Numba oracle cannot reach cheaply: Numba's bits (taken from
 * Numba 0.68) of kaiser windows on both sides of the series' switch,
 * beta 0 and NaN, symmetry; through uf_call bounds read from a strided
 * view with a negative step, complex (imaginary) bounds, num 0 and 1,
 * NaN and inf bounds, the ValueErrors (a negative num, geomspace's zero),
 * a float num refused at file:line:col, and out of memory at every
 * allocation reaching the caller as UF_ERR_NOMEM with nothing left. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "common/npsignal.h"
#include "common/nrt.h"
#include "test_util.h"

/* got[i] must be want[i] within `ulps` units in the last place, 0 bit
 * for bit (NaN any NaN). */
static void near_bits(const char *file, int line, const double *got,
                      const double *want, int n, int ulps)
{
    for (int i = 0; i < n; i++) {
        double w = want[i], g = got[i];
        bool ok = isnan(w) ? isnan(g)
                  : g == w ? signbit(g) == signbit(w)
                           : isfinite(w) && isfinite(g) &&
                                 fabs(g - w) <= ulps * (nextafter(fabs(w),
                                                                  INFINITY) -
                                                        fabs(w));
        if (!ok)
            uf_fail_at(file, line, "[%d] = %a, want %a", i, g, w);
    }
}
#define SAME_BITS(got, want, n) near_bits(__FILE__, __LINE__, got, want, n, 0)
/* np.logspace's pow may be libmvec's on a vectorised loop */
#define NEAR_BITS(got, want, n) near_bits(__FILE__, __LINE__, got, want, n, 4)

static void test_kaiser_runtime(void **state)
{
    (void)state;
    double o[101];
    /* beta 14: every argument of i0 past 8 but the ends' 0 */
    static const double w14[5] = {0x1.034547dd02151p-17, 0x1.51c7f77c9c0aap-3,
                                  1.0, 0x1.51c7f77c9c0aap-3,
                                  0x1.034547dd02151p-17};
    assert_int_equal(uf__np_kaiser(5, 14.0, o), 0);
    SAME_BITS(o, w14, 5);
    /* beta 9, an even M: arguments on both sides of 8 */
    static const double w9[6] = {0x1.df6b7d64e789ep-11, 0x1.7c048530b4c19p-3,
                                 0x1.af649682c1ebfp-1, 0x1.af649682c1ebfp-1,
                                 0x1.7c048530b4c19p-3, 0x1.df6b7d64e789ep-11};
    assert_int_equal(uf__np_kaiser(6, 9.0, o), 0);
    SAME_BITS(o, w9, 6);
    /* beta 0 (and -0): a rectangle; NaN: NaN everywhere */
    assert_int_equal(uf__np_kaiser(7, -0.0, o), 0);
    for (int i = 0; i < 7; i++)
        assert_true(o[i] == 1.0);
    assert_int_equal(uf__np_kaiser(3, NAN, o), 0);
    assert_true(isnan(o[0]) && isnan(o[1]) && isnan(o[2]));
    /* M = 2: both ends 1 / I0(beta); a negative beta as |beta| */
    double p[2], q[2];
    assert_int_equal(uf__np_kaiser(2, 5.5, p), 0);
    assert_int_equal(uf__np_kaiser(2, -5.5, q), 0);
    assert_true(p[0] == p[1] && p[0] == q[0] && p[0] < 0.03 && p[0] > 0.02);
    /* symmetric, 1 in the middle of an odd window, at most 1 */
    assert_int_equal(uf__np_kaiser(101, 8.6, o), 0);
    assert_true(o[50] == 1.0);
    for (int i = 0; i < 101; i++)
        if (o[i] != o[100 - i] || o[i] > 1.0 || !(o[i] > 0.0))
            uf_fail_at(__FILE__, __LINE__, "o[%d] = %a, o[%d] = %a", i, o[i],
                       100 - i, o[100 - i]);
}

static const char src[] =
    "from numba import njit\n"
    "import numpy as np\n"
    "@njit\n"
    "def spaces(a):\n"
    "    b = a[::-2]\n"
    "    return np.concatenate((np.logspace(b[0], b[1], 4),\n"
    "                           np.geomspace(-b[1], -b[0], 3)))\n"
    "@njit\n"
    "def kai(a):\n"
    "    return np.kaiser(a.size, a[0])\n"
    "@njit\n"
    "def cplx(a):\n"
    "    return np.geomspace(a[0] * 1j, a[1] * 1j, 3)\n"
    "@njit\n"
    "def lnum(a):\n"
    "    return np.logspace(a[0], a[1], int(a[2]))\n"
    "@njit\n"
    "def gnum(a):\n"
    "    return np.geomspace(a[0], a[1], int(a[2]))\n"
    "@njit\n"
    "def bad(a):\n"
    "    return np.logspace(a[0], a[1], a[2])\n";

static uf_array *vec(const double *x, int64_t n, uf_error *err)
{
    uf_array *a = uf_empty(UF_FLOAT64, 1, &n, UF_ORDER_C, err);
    if (a != NULL && n > 0)
        memcpy(uf_array_data(a), x, sizeof(double) * (size_t)n);
    return a;
}

/* Calls kernel `name` of mod on the values x[0..n); 0 and *out, or
 * uf_call's code with err set. */
static int call(uf_module *mod, const char *name, const double *x, int64_t n,
                uf_array **out, uf_error *err)
{
    uf_func *f = uf_module_get(mod, name, err);
    uf_assert_ok(f != NULL, err);
    uf_array *a = vec(x, n, err);
    uf_assert_ok(a != NULL, err);
    *out = NULL;
    int rc = uf_call(f, &a, 1, out, 1, NULL, err);
    uf_array_release(a);
    return rc;
}

static void test_kernel(void **state)
{
    (void)state;
    uf_error err;
    uf_context *ctx = uf_context_new(&err);
    uf_assert_ok(ctx != NULL, &err);
    uf_module *mod = uf_module_from_string(ctx, "npspace.py", src, &err);
    uf_assert_ok(mod != NULL, &err);
    uf_array *out;
    /* bounds from a[::-2]: logspace(3, 2, 4), geomspace(-2, -3, 3) */
    static const double x5[5] = {1.0, 0.0, 2.0, 0.0, 3.0};
    uf_assert_ok(call(mod, "spaces", x5, 5, &out, &err) == 0, &err);
    static const double ws[7] = {1000.0, 0x1.d028ac9478910p+8,
                                 0x1.aee30e5e82f7ep+7, 100.0, -2.0,
                                 -0x1.3988e1409212ep+1, -3.0};
    assert_int_equal(uf_array_shape(out)[0], 7);
    NEAR_BITS(uf_array_data(out), ws, 7);
    uf_array_release(out);
    /* np.kaiser(a.size, a[0]) */
    static const double b9[6] = {9.0, 0, 0, 0, 0, 0};
    uf_assert_ok(call(mod, "kai", b9, 6, &out, &err) == 0, &err);
    assert_int_equal(uf_array_dtype(out), UF_FLOAT64);
    assert_true(((const double *)uf_array_data(out))[2] ==
                0x1.af649682c1ebfp-1);
    uf_array_release(out);
    uf_assert_ok(call(mod, "kai", b9, 1, &out, &err) == 0, &err);
    assert_true(uf_array_shape(out)[0] == 1 &&
                ((const double *)uf_array_data(out))[0] == 1.0);
    uf_array_release(out);
    /* geomspace(1j, 100j, 3): complex128, 1j 10j 100j exactly */
    static const double c2[2] = {1.0, 100.0};
    uf_assert_ok(call(mod, "cplx", c2, 2, &out, &err) == 0, &err);
    assert_int_equal(uf_array_dtype(out), UF_COMPLEX128);
    static const double wc[6] = {0.0, 1.0, 0.0, 10.0, 0.0, 100.0};
    SAME_BITS(uf_array_data(out), wc, 6);
    uf_array_release(out);
    /* num 0: empty; 1: [10 ** start] */
    static const double n0[3] = {2.0, 5.0, 0.0}, n1[3] = {2.0, 5.0, 1.0};
    uf_assert_ok(call(mod, "lnum", n0, 3, &out, &err) == 0, &err);
    assert_int_equal(uf_array_shape(out)[0], 0);
    uf_array_release(out);
    uf_assert_ok(call(mod, "lnum", n1, 3, &out, &err) == 0, &err);
    assert_true(uf_array_shape(out)[0] == 1 &&
                ((const double *)uf_array_data(out))[0] == 100.0);
    uf_array_release(out);
    uf_assert_ok(call(mod, "gnum", n1, 3, &out, &err) == 0, &err);
    assert_true(((const double *)uf_array_data(out))[0] == 2.0);
    uf_array_release(out);
    /* NaN and inf bounds: logspace(nan, 1, 3) = [nan, nan, 10],
     * geomspace(inf, 1, 3) = [inf, nan, 1] */
    static const double nn[3] = {NAN, 1.0, 3.0}, ni[3] = {INFINITY, 1.0, 3.0};
    static const double wn[3] = {NAN, NAN, 10.0}, wi[3] = {INFINITY, NAN, 1.0};
    uf_assert_ok(call(mod, "lnum", nn, 3, &out, &err) == 0, &err);
    SAME_BITS(uf_array_data(out), wn, 3);
    uf_array_release(out);
    uf_assert_ok(call(mod, "gnum", ni, 3, &out, &err) == 0, &err);
    SAME_BITS(uf_array_data(out), wi, 3);
    uf_array_release(out);
    /* Numba's ValueErrors: a negative num; a zero bound (checked first) */
    static const double neg[3] = {1.0, 2.0, -1.0}, z[3] = {0.0, 2.0, -1.0};
    assert_int_not_equal(call(mod, "lnum", neg, 3, &out, &err), 0);
    assert_non_null(strstr(err.message, "negative dimensions"));
    assert_int_not_equal(call(mod, "gnum", neg, 3, &out, &err), 0);
    assert_non_null(strstr(err.message, "negative dimensions"));
    assert_int_not_equal(call(mod, "gnum", z, 3, &out, &err), 0);
    assert_non_null(strstr(err.message, "ValueError: Geometric sequence "
                                        "cannot include zero"));
    /* a float num: refused where it is written */
    assert_int_not_equal(call(mod, "bad", neg, 3, &out, &err), 0);
    assert_int_equal(err.line, 22);
    assert_int_equal(err.column, 36);
    assert_non_null(strstr(err.message, "must be an integer"));
    uf_module_free(mod);
    uf_context_free(ctx);
}

/* Out of memory at each allocation of a call: UF_ERR_NOMEM, nothing
 * left. */
static void test_out_of_memory(void **state)
{
    (void)state;
    uf_error err;
    uf_context *ctx = uf_context_new(&err);
    uf_assert_ok(ctx != NULL, &err);
    uf_module *mod = uf_module_from_string(ctx, "npspace.py", src, &err);
    uf_assert_ok(mod != NULL, &err);
    static const double x[5] = {1.0, 2.0, 3.0, 4.0, 5.0};
    static const char *const kernels[] = {"spaces", "kai", "cplx"};
    for (int c = 0; c < 3; c++) {
        uf_array *out = NULL;
        uf_assert_ok(call(mod, kernels[c], x, 5, &out, &err) == 0, &err);
        uf_array_release(out);
        uf_func *f = uf_module_get(mod, kernels[c], &err);
        uf_array *a = vec(x, 5, &err);
        uf_assert_ok(f != NULL && a != NULL, &err);
        long nrt = uf__nrt_live(), live = uf__alloc_live();
        int failures = 0;
        for (long k = 1; k < 100; k++) {
            out = NULL;
            uf__alloc_fail_at(k);
            int rc = uf_call(f, &a, 1, &out, 1, NULL, &err);
            bool failed = uf__alloc_failed();
            uf__alloc_fail_at(0);
            if (rc == 0) {
                uf_array_release(out);
                if (!failed)
                    break;
                continue;
            }
            failures++;
            assert_int_equal(err.code, UF_ERR_NOMEM);
            assert_int_equal(uf__nrt_live(), nrt);
            assert_int_equal(uf__alloc_live(), live);
        }
        uf_array_release(a);
        if (failures == 0)
            uf_fail_at(__FILE__, __LINE__, "%s: no allocation failed",
                       kernels[c]);
    }
    uf_module_free(mod);
    uf_context_free(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kaiser_runtime),
        cmocka_unit_test(test_kernel),
        cmocka_unit_test(test_out_of_memory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
