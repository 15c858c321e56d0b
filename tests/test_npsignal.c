/* The runtime behind np.convolve / np.correlate in kernels
 * (common/npsignal.c) and its lowering, for what the Numba oracle cannot
 * reach cheaply: every length pair up to 13 in every mode against a
 * direct O(n^2) sum (exact for integers, within the stated (n + 2) ulps
 * of the sum of |products| for floats), negative strides, complex
 * conjugation, wrapping integer sums and bools; through uf_call a kernel
 * with NaN/inf, the empty-operand ValueErrors, a refusal at file:line:col
 * and out of memory at every allocation reaching the caller as
 * UF_ERR_NOMEM with nothing left behind. */
#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "common/npsignal.h"
#include "common/nrt.h"
#include "test_util.h"

static unsigned seed = 4242;
static unsigned next_rand(void)
{
    seed = seed * 1103515245u + 12345u;
    return seed >> 8;
}

/* The reference: NumPy's definition written out, out[k] of the full
 * convolution / correlation, then the mode's window (same keeps the
 * longer operand's length, centred as NumPy centres it). */
static void reference(const double complex *a, int64_t na,
                      const double complex *v, int64_t nv, bool corr,
                      int mode, double complex *out, double *mag)
{
    int64_t nf = na + nv - 1, n1 = na > nv ? na : nv;
    int64_t nn = na > nv ? nv : na, len = uf__np_correlate_len(na, nv, mode);
    int64_t off = mode == UF__NPSIGNAL_FULL ? 0
                  : mode == UF__NPSIGNAL_SAME ? (nf - n1) / 2 +
                                                    (corr && na < nv &&
                                                     (nn % 2 == 0))
                                              : nn - 1;
    for (int64_t j = 0; j < len; j++) {
        int64_t k = j + off;
        double complex s = 0;
        double m = 0;
        for (int64_t i = 0; i < na; i++) {
            /* convolve: a[i] v[k - i]; correlate: a[i] conj(v[i + nv - 1 - k]) */
            int64_t t = corr ? i + nv - 1 - k : k - i;
            if (t < 0 || t >= nv)
                continue;
            double complex w = corr ? conj(v[t]) : v[t];
            s += a[i] * w;
            m += cabs(a[i]) * cabs(w);
        }
        out[j] = s;
        mag[j] = m;
    }
}

static void test_float64_all_lengths(void **state)
{
    (void)state;
    double a[26], v[26], out[40];
    double complex ca[13], cv[13], want[40];
    double mag[40];
    for (int corr = 0; corr < 2; corr++)
        for (int mode = 0; mode < 3; mode++)
            for (int64_t na = 1; na <= 13; na++)
                for (int64_t nv = 1; nv <= 13; nv++) {
                    for (int i = 0; i < 26; i++) {
                        a[i] = (double)(next_rand() % 2001) / 100.0 - 10;
                        v[i] = (double)(next_rand() % 2001) / 100.0 - 10;
                    }
                    /* a read backwards from its end (stride -16) */
                    for (int i = 0; i < na; i++)
                        ca[i] = a[2 * (na - 1 - i)];
                    for (int i = 0; i < nv; i++)
                        cv[i] = v[i];
                    reference(ca, na, cv, nv, corr, mode, want, mag);
                    assert_int_equal(
                        uf__np_correlate((const char *)&a[2 * (na - 1)], na,
                                         -16, UF_FLOAT64, (const char *)v,
                                         nv, 8, UF_FLOAT64,
                                         corr | mode << 1, (char *)out,
                                         UF_FLOAT64),
                        0);
                    int64_t len = uf__np_correlate_len(na, nv, mode);
                    for (int64_t j = 0; j < len; j++) {
                        double tol = (double)((na < nv ? na : nv) + 2) *
                                     2.220446049250313e-16 * mag[j];
                        if (fabs(out[j] - creal(want[j])) > tol)
                            uf_fail_at(__FILE__, __LINE__,
                       "corr %d mode %d na %lld nv "
                                       "%lld out[%lld] = %.17g, want "
                                       "%.17g", corr, mode, (long long)na,
                                       (long long)nv, (long long)j, out[j],
                                       creal(want[j]));
                    }
                }
}

/* complex128: v conjugated by np.correlate only; ints exactly. */
static void test_complex_and_ints(void **state)
{
    (void)state;
    double complex a[9], v[5], out[13], want[13];
    double mag[13];
    for (int i = 0; i < 9; i++)
        a[i] = (double)(i + 1) + (double)(i % 3) * I;
    for (int i = 0; i < 5; i++)
        v[i] = (double)(2 - i) + 0.5 * (double)i * I;
    for (int corr = 0; corr < 2; corr++)
        for (int swap = 0; swap < 2; swap++) {
            const double complex *x = swap ? v : a, *y = swap ? a : v;
            int64_t nx = swap ? 5 : 9, ny = swap ? 9 : 5;
            assert_int_equal(uf__np_correlate((const char *)x, nx, 16,
                                              UF_COMPLEX128, (const char *)y,
                                              ny, 16, UF_COMPLEX128,
                                              corr | UF__NPSIGNAL_FULL << 1,
                                              (char *)out, UF_COMPLEX128),
                             0);
            reference(x, nx, y, ny, corr, UF__NPSIGNAL_FULL, want, mag);
            for (int j = 0; j < 13; j++)
                assert_true(cabs(out[j] - want[j]) <= 1e-13 * (1 + mag[j]));
        }
    /* int8 wraps as Numba's int64 sum stored into int8 does */
    int8_t ia[3] = {100, 100, 100}, iv[2] = {100, 3}, io[4];
    assert_int_equal(uf__np_correlate((const char *)ia, 3, 1, UF_INT8,
                                      (const char *)iv, 2, 1, UF_INT8,
                                      UF__NPSIGNAL_FULL << 1, (char *)io,
                                      UF_INT8),
                     0);
    assert_int_equal(io[0], (int8_t)(100 * 100));
    assert_int_equal(io[1], (int8_t)(100 * 3 + 100 * 100));
    assert_int_equal(io[3], (int8_t)(100 * 3));
    /* bools: any product true */
    bool ba[4] = {true, false, false, true}, bv[2] = {false, true}, bo[5];
    assert_int_equal(uf__np_correlate((const char *)ba, 4, 1, UF_BOOL,
                                      (const char *)bv, 2, 1, UF_BOOL,
                                      UF__NPSIGNAL_FULL << 1, (char *)bo,
                                      UF_BOOL),
                     0);
    static const bool bw[5] = {false, true, false, false, true};
    for (int j = 0; j < 5; j++)
        assert_int_equal(bo[j], bw[j]);
    /* uint64 with int64: the int64 sum as float64, as Numba */
    uint64_t ua[1] = {UINT64_MAX};
    int64_t sv[1] = {3};
    double fo[1];
    assert_int_equal(uf__np_correlate((const char *)ua, 1, 8, UF_UINT64,
                                      (const char *)sv, 1, 8, UF_INT64, 0,
                                      (char *)fo, UF_FLOAT64),
                     0);
    assert_true(fo[0] == -3.0);
}

/* The windows' known values: zeros at the ends of Hann's and Bartlett's,
 * Hamming's 0.08, Blackman's -1.39e-17 (0.42 - 0.5 + 0.08 rounded), 1 in
 * the middle of an odd window, symmetry. */
static void test_windows(void **state)
{
    (void)state;
    double o[101];
    assert_int_equal(uf__np_window(UF__NPSIGNAL_HANNING, 5, o), 0);
    assert_true(fabs(o[0]) < 1e-16 && o[1] == 0.5 && o[2] == 1.0);
    assert_true(fabs(o[3] - 0.5) < 1e-16 && fabs(o[4]) < 1e-16);
    assert_int_equal(uf__np_window(UF__NPSIGNAL_BARTLETT, 5, o), 0);
    assert_true(o[0] == 0.0 && o[1] == 0.5 && o[2] == 1.0 && o[3] == 0.5 &&
                o[4] == 0.0);
    assert_int_equal(uf__np_window(UF__NPSIGNAL_HAMMING, 3, o), 0);
    assert_true(fabs(o[0] - 0.08) < 1e-16 && o[1] == 1.0);
    assert_int_equal(uf__np_window(UF__NPSIGNAL_BLACKMAN, 3, o), 0);
    assert_true(fabs(o[0]) < 1e-16 && fabs(o[1] - 1.0) < 1e-15);
    for (int w = 0; w < 4; w++) {
        assert_int_equal(uf__np_window(w, 101, o), 0);
        for (int i = 0; i < 101; i++)
            if (fabs(o[i] - o[100 - i]) > 1e-15 || o[i] > 1.0)
                uf_fail_at(__FILE__, __LINE__, "window %d: o[%d] = %.17g, "
                           "o[%d] = %.17g", w, i, o[i], 100 - i, o[100 - i]);
    }
}

static uf_module *module(uf_context *ctx, uf_error *err)
{
    static const char src[] =
        "from numba import njit\n"
        "import numpy as np\n"
        "@njit\n"
        "def conv(a, v):\n"
        "    return np.convolve(a, v)\n"
        "@njit\n"
        "def corr(a, v):\n"
        "    return np.correlate(a, v, 'same')\n"
        "@njit\n"
        "def bad(a, v):\n"
        "    return np.correlate(a, v.reshape(1, -1))\n"
        "@njit\n"
        "def win(a, v):\n"
        "    m = a.size\n"
        "    return np.concatenate((np.hanning(m - 3), np.hamming(m),\n"
        "                           np.bartlett(1), np.blackman(0)))\n";
    return uf_module_from_string(ctx, "npsignal.py", src, err);
}

static uf_array *vec(const double *x, int64_t n, uf_error *err)
{
    uf_array *a = uf_empty(UF_FLOAT64, 1, &n, UF_ORDER_C, err);
    if (a != NULL && n > 0)
        memcpy(uf_array_data(a), x, sizeof(double) * (size_t)n);
    return a;
}

/* NaN and inf through a kernel; empty operands raise Numba's
 * ValueErrors; the 2-D v is refused where it is written. */
static void test_kernel(void **state)
{
    (void)state;
    uf_error err;
    uf_context *ctx = uf_context_new(&err);
    uf_assert_ok(ctx != NULL, &err);
    uf_module *mod = module(ctx, &err);
    uf_assert_ok(mod != NULL, &err);
    uf_func *conv = uf_module_get(mod, "conv", &err);
    uf_assert_ok(conv != NULL, &err);
    static const double xa[3] = {1.0, NAN, 2.0}, xv[2] = {INFINITY, 1.0};
    uf_array *args[2] = {vec(xa, 3, &err), vec(xv, 2, &err)};
    uf_assert_ok(args[0] != NULL && args[1] != NULL, &err);
    uf_array *out = NULL;
    uf_assert_ok(uf_call(conv, args, 2, &out, 1, NULL, &err) == 0, &err);
    const double *o = uf_array_data(out);
    assert_true(o[0] == INFINITY);
    assert_true(isnan(o[1]) && isnan(o[2]));
    assert_true(o[3] == 2.0);
    uf_array_release(out);
    uf_array *empty = vec(NULL, 0, &err);
    uf_assert_ok(empty != NULL, &err);
    uf_array *e2[2] = {args[0], empty};
    out = NULL;
    assert_int_not_equal(uf_call(conv, e2, 2, &out, 1, NULL, &err), 0);
    assert_non_null(strstr(err.message, "ValueError: 'v' cannot be empty"));
    e2[0] = empty;
    e2[1] = args[0];
    assert_int_not_equal(uf_call(conv, e2, 2, &out, 1, NULL, &err), 0);
    assert_non_null(strstr(err.message, "ValueError: 'a' cannot be empty"));
    uf_func *bad = uf_module_get(mod, "bad", &err);
    uf_assert_ok(bad != NULL, &err);
    out = NULL;
    assert_int_not_equal(uf_call(bad, args, 2, &out, 1, NULL, &err), 0);
    assert_int_equal(err.line, 11);
    assert_int_equal(err.column, 28);
    assert_non_null(strstr(err.message, "only supported on 1D arrays"));
    /* windows of M - 3 = 0 points (empty), M = 3, 1 (ones), 0 */
    uf_func *win = uf_module_get(mod, "win", &err);
    uf_assert_ok(win != NULL, &err);
    out = NULL;
    uf_assert_ok(uf_call(win, args, 2, &out, 1, NULL, &err) == 0, &err);
    assert_int_equal(uf_array_shape(out)[0], 4);
    o = uf_array_data(out);
    assert_true(fabs(o[0] - 0.08) < 1e-16 && o[1] == 1.0 && o[3] == 1.0);
    uf_array_release(out);
    uf_array_release(empty);
    uf_array_release(args[0]);
    uf_array_release(args[1]);
    uf_module_free(mod);
    uf_context_free(ctx);
}

/* Out of memory at each allocation of a call (the result array, the
 * runtime's copies): UF_ERR_NOMEM, nothing left. */
static void test_out_of_memory(void **state)
{
    (void)state;
    uf_error err;
    uf_context *ctx = uf_context_new(&err);
    uf_assert_ok(ctx != NULL, &err);
    uf_module *mod = module(ctx, &err);
    uf_assert_ok(mod != NULL, &err);
    double x[300];
    for (int i = 0; i < 300; i++)
        x[i] = (double)(next_rand() % 100);
    uf_array *args[2] = {vec(x, 300, &err), vec(x, 17, &err)};
    uf_assert_ok(args[0] != NULL && args[1] != NULL, &err);
    static const char *const kernels[] = {"conv", "corr", "win"};
    for (int c = 0; c < 3; c++) {
        uf_func *f = uf_module_get(mod, kernels[c], &err);
        uf_assert_ok(f != NULL, &err);
        uf_array *out = NULL;
        uf_assert_ok(uf_call(f, args, 2, &out, 1, NULL, &err) == 0, &err);
        uf_array_release(out);
        long nrt = uf__nrt_live(), live = uf__alloc_live();
        int failures = 0;
        for (long k = 1; k < 100; k++) {
            out = NULL;
            uf__alloc_fail_at(k);
            int rc = uf_call(f, args, 2, &out, 1, NULL, &err);
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
        if (failures == 0)
            uf_fail_at(__FILE__, __LINE__,
                       "%s: no allocation failed", kernels[c]);
    }
    uf_array_release(args[0]);
    uf_array_release(args[1]);
    uf_module_free(mod);
    uf_context_free(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_float64_all_lengths),
        cmocka_unit_test(test_complex_and_ints),
        cmocka_unit_test(test_windows),
        cmocka_unit_test(test_kernel),
        cmocka_unit_test(test_out_of_memory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
