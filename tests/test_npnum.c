/* The runtime behind np.interp, np.digitize and np.bincount in kernels
 * (common/npnum.c), for what the
 * Numba oracle cannot reach cheaply: the guessed binary search against a
 * plain bisection for every table size from 1 up, random keys and
 * guesses; interpolation values, NaN and infinity rules and statuses
 * through the C entry point (0-d, empty, strided and reversed x, integer
 * x and tables, complex fp in Numba's complex arithmetic); and, through
 * the C API, a kernel refused at its FILE:LINE:COL and out of memory at
 * every allocation of a call reaching the caller as UF_ERR_NOMEM with
 * nothing left behind. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "common/npnum.h"
#include "common/nrt.h"
#include "test_util.h"

static unsigned seed = 4242;
static unsigned next_rand(void)
{
    seed = seed * 1103515245u + 12345u;
    return seed >> 8;
}

/* The last i with arr[i] <= key, -1 below arr[0], n above arr[n - 1]. */
static int64_t bisect(double key, const double *arr, int64_t n)
{
    if (key > arr[n - 1])
        return n;
    int64_t i = -1;
    while (i + 1 < n && arr[i + 1] <= key)
        i++;
    return i;
}

static void test_search(void **state)
{
    (void)state;
    double arr[300];
    for (int64_t n = 1; n <= 300; n += n < 12 ? 1 : 37) {
        for (int dup = 0; dup < 2; dup++) {
            /* sorted; with dup, runs of equal points */
            double v = -10.0;
            for (int64_t i = 0; i < n; i++) {
                if (!dup || next_rand() % 3 == 0)
                    v += (double)(next_rand() % 100) / 10.0 + 0.1;
                arr[i] = v;
            }
            for (int k = 0; k < 200; k++) {
                double key = -12.0 + (v + 14.0) *
                                         (double)(next_rand() % 10000) /
                                         10000.0;
                if (k % 10 == 0)
                    key = arr[next_rand() % (unsigned)n]; /* on a point */
                int64_t guess = (int64_t)(next_rand() % (unsigned)(n + 4)) -
                                2;
                int64_t got = uf__np_interp_search(key, arr, n, guess);
                int64_t want = bisect(key, arr, n);
                if (got != want)
                    uf_fail_at(__FILE__, __LINE__, "n=%lld key=%g guess="
                               "%lld: %lld, bisection %lld", (long long)n,
                               key, (long long)guess, (long long)got,
                               (long long)want);
            }
        }
    }
}

/* np.interp of the n float64 x (stride sx bytes) on a float64 table. */
static int interp_f64(const double *x, int64_t n, int64_t sx,
                      const double *xp, const double *fp, int64_t m,
                      double *out)
{
    return uf__np_interp((const char *)x, 1, &n, &sx, UF_FLOAT64,
                         UF_FLOAT64, (const char *)xp, m, 8, UF_FLOAT64,
                         (const char *)fp, m, 8, UF_FLOAT64, (char *)out);
}

static bool same_bits(double a, double b)
{
    return (isnan(a) && isnan(b)) || memcmp(&a, &b, sizeof a) == 0;
}

static void test_values(void **state)
{
    (void)state;
    double xp[] = {0.0, 1.0, 2.0, 4.0, 5.0, 6.0, 8.0};
    double fp[] = {1.0, 3.0, 2.0, 6.0, INFINITY, 7.0, 7.0};
    double x[] = {NAN, -1.0, 0.0, 0.5, 3.0, 4.0, 4.5, 5.0, 5.5, 7.0, 8.0,
                  9.0, -INFINITY, INFINITY};
    double want[] = {NAN, 1.0, 1.0, 2.0, 4.0, 6.0,
                     /* a slope of inf: inf * 0.5 + 6, and from 5 */
                     INFINITY, INFINITY,
                     /* -inf * 0.5 + inf is NaN; from 6: -inf * -0.5 + 7 */
                     INFINITY, 7.0, 7.0, 7.0, 1.0, 7.0};
    int64_t n = (int64_t)(sizeof x / sizeof *x);
    double out[14];
    /* few x (no slope cache) and the same points again with the cache
     * (more x than sample points) */
    for (int64_t len = 6; len <= n; len += n - 6) {
        assert_int_equal(interp_f64(x, len, 8, xp, fp, 7, out), 0);
        for (int64_t i = 0; i < len; i++)
            if (!same_bits(out[i], want[i]))
                uf_fail_at(__FILE__, __LINE__, "x=%g: %g, want %g", x[i],
                           out[i], want[i]);
    }
    /* NaN from both ends with equal neighbours: fp[j] itself */
    double xq[] = {0.0, 1.0}, fq[] = {INFINITY, INFINITY}, h = 0.5, r;
    assert_int_equal(interp_f64(&h, 1, 8, xq, fq, 2, &r), 0);
    assert_true(r == INFINITY);
    double fr[] = {-INFINITY, INFINITY};
    assert_int_equal(interp_f64(&h, 1, 8, xq, fr, 2, &r), 0);
    assert_true(isnan(r));
    /* a reversed, strided x: every other element from the end */
    double xs[] = {0.25, 99.0, 3.0, 99.0, 7.5};
    double o3[3];
    assert_int_equal(interp_f64(xs + 4, 3, -16, xp, fp, 7, o3), 0);
    assert_true(o3[0] == 7.0 && o3[1] == 4.0 && o3[2] == 1.5);
    /* a 0-d x, an empty one (nothing written) */
    o3[0] = o3[1] = -1.0;
    assert_int_equal(uf__np_interp((const char *)&h, 0, NULL, NULL,
                                   UF_FLOAT64, UF_FLOAT64, (const char *)xp,
                                   7, 8, UF_FLOAT64, (const char *)fp, 7, 8,
                                   UF_FLOAT64, (char *)o3),
                     0);
    assert_true(o3[0] == 2.0 && o3[1] == -1.0);
    assert_int_equal(interp_f64(xs, 0, 8, xp, fp, 7, o3), 0);
    assert_true(o3[0] == 2.0);
    /* one sample point: fp[0] everywhere, NaN x too */
    assert_int_equal(interp_f64(x, 3, 8, xp, fp, 1, o3), 0);
    assert_true(o3[0] == 1.0 && o3[1] == 1.0 && o3[2] == 1.0);
    /* Numba's ValueErrors: xp empty first, then the lengths */
    assert_int_equal(uf__np_interp((const char *)x, 0, NULL, NULL,
                                   UF_FLOAT64, UF_FLOAT64, (const char *)xp,
                                   0, 8, UF_FLOAT64, (const char *)fp, 3, 8,
                                   UF_FLOAT64, (char *)o3),
                     UF__NPNUM_INTERP_EMPTY);
    assert_int_equal(uf__np_interp((const char *)x, 0, NULL, NULL,
                                   UF_FLOAT64, UF_FLOAT64, (const char *)xp,
                                   7, 8, UF_FLOAT64, (const char *)fp, 6, 8,
                                   UF_FLOAT64, (char *)o3),
                     UF__NPNUM_INTERP_SIZE);
}

/* Integer x and tables read as float64; complex fp. */
static void test_dtypes(void **state)
{
    (void)state;
    int32_t xi[2][3] = {{-1, 0, 1}, {2, 3, 9}};
    int64_t shape[2] = {2, 3}, strides[2] = {12, 4};
    int16_t xp[] = {0, 2, 3};
    uint8_t fp[] = {10, 20, 0};
    double out[6];
    assert_int_equal(uf__np_interp((const char *)xi, 2, shape, strides,
                                   UF_INT32, UF_INT32, (const char *)xp, 3,
                                   2, UF_INT16, (const char *)fp, 3, 1,
                                   UF_UINT8, (char *)out),
                     0);
    double want[] = {10.0, 10.0, 15.0, 20.0, 0.0, 0.0};
    for (int i = 0; i < 6; i++)
        assert_true(out[i] == want[i]);
    /* complex128 fp: (re + 1j * im) in complex arithmetic, so an
     * infinite imaginary slope makes the real part NaN as in Numba */
    double xq[] = {0.0, 1.0, 2.0};
    double fc[] = {1.0, 2.0, 3.0, 4.0, 5.0, INFINITY};
    double xv[] = {0.5, 1.5, 2.0, NAN};
    double oc[8];
    int64_t n4 = 4, s8 = 8;
    assert_int_equal(uf__np_interp((const char *)xv, 1, &n4, &s8,
                                   UF_FLOAT64, UF_FLOAT64, (const char *)xq,
                                   3, 8, UF_FLOAT64, (const char *)fc, 3, 16,
                                   UF_COMPLEX128, (char *)oc),
                     0);
    assert_true(oc[0] == 2.0 && oc[1] == 3.0);
    assert_true(isnan(oc[2]) && oc[3] == INFINITY);
    assert_true(oc[4] == 5.0 && oc[5] == INFINITY);
    assert_true(isnan(oc[6]) && oc[7] == 0.0 && !signbit(oc[7]));
}

/* np.digitize: both directions and sides, NaN last, integers compared as
 * integers (uint64 beyond 2**53), numbers, the monotonicity error. */
static void test_digitize(void **state)
{
    (void)state;
    double inc[] = {0.0, 1.0, 1.0, 2.5}, dec[] = {2.5, 1.0, 1.0, 0.0};
    double x[] = {-1.0, 0.0, 1.0, 2.0, 2.5, 3.0, NAN};
    int64_t n = 7, s8 = 8, out[7];
    static const int64_t want[4][7] = {
        {0, 1, 3, 3, 4, 4, 4}, /* increasing, right=False */
        {0, 0, 1, 3, 3, 4, 4}, /* increasing, right=True */
        {4, 3, 1, 1, 0, 0, 0}, /* decreasing, right=False */
        {4, 4, 3, 1, 1, 0, 0}, /* decreasing, right=True */
    };
    for (int c = 0; c < 4; c++) {
        assert_int_equal(uf__np_digitize((const char *)x, 1, &n, &s8,
                                         UF_FLOAT64, 0,
                                         (const char *)(c < 2 ? inc : dec),
                                         4, 8, UF_FLOAT64, c % 2, out),
                         0);
        for (int i = 0; i < 7; i++)
            if (out[i] != want[c][i])
                uf_fail_at(__FILE__, __LINE__, "case %d x=%g: %lld, want "
                           "%lld", c, x[i], (long long)out[i],
                           (long long)want[c][i]);
    }
    /* a number: the same search without narrowing */
    assert_int_equal(uf__np_digitize((const char *)&x[2], 0, NULL, NULL,
                                     UF_FLOAT64, 1, (const char *)inc, 4, 8,
                                     UF_FLOAT64, 0, out),
                     0);
    assert_int_equal(out[0], 3);
    /* uint64 with uint64: no rounding through float64 */
    uint64_t ub[] = {(1ull << 63) + 1, (1ull << 63) + 3};
    uint64_t ux[] = {(1ull << 63) + 2, (1ull << 63) + 1};
    int64_t two = 2;
    assert_int_equal(uf__np_digitize((const char *)ux, 1, &two, &s8,
                                     UF_UINT64, 0, (const char *)ub, 2, 8,
                                     UF_UINT64, 0, out),
                     0);
    assert_true(out[0] == 1 && out[1] == 1);
    /* not monotonic; empty bins give 0 */
    double bad[] = {0.0, 2.0, 1.0};
    assert_int_equal(uf__np_digitize((const char *)x, 1, &n, &s8,
                                     UF_FLOAT64, 0, (const char *)bad, 3, 8,
                                     UF_FLOAT64, 0, out),
                     UF__NPNUM_DIGITIZE_MONO);
    assert_int_equal(uf__np_digitize((const char *)x, 1, &n, &s8,
                                     UF_FLOAT64, 0, (const char *)bad, 0, 8,
                                     UF_FLOAT64, 0, out),
                     0);
    assert_true(out[0] == 0 && out[6] == 0);
}

/* np.bincount: lengths, statuses in Numba's order, weights, the negative
 * first element Numba counts from the end. */
static void test_bincount(void **state)
{
    (void)state;
    int32_t a[] = {-1, 4, 2, 4};
    int64_t len = -7;
    assert_int_equal(uf__np_bincount_len((const char *)a, 4, 4, UF_INT32,
                                         -1, 0, &len),
                     0);
    assert_int_equal(len, 5);
    int64_t counts[5];
    uf__np_bincount_fill((const char *)a, 4, 4, UF_INT32, NULL, 0, 0, len,
                         (char *)counts);
    assert_true(counts[0] == 0 && counts[2] == 1 && counts[4] == 3);
    double w[] = {0.5, 1.0, 2.0, 4.0}, sums[9];
    assert_int_equal(uf__np_bincount_len((const char *)a, 4, 4, UF_INT32, 4,
                                         9, &len),
                     0);
    assert_int_equal(len, 9);
    uf__np_bincount_fill((const char *)a, 4, 4, UF_INT32, (const char *)w,
                         8, UF_FLOAT64, len, (char *)sums);
    assert_true(sums[8] == 0.5 && sums[4] == 5.0 && sums[2] == 2.0 &&
                sums[0] == 0.0);
    /* the weights' length first, then minlength, then negatives */
    assert_int_equal(uf__np_bincount_len((const char *)a, 4, 4, UF_INT32, 3,
                                         -1, &len),
                     UF__NPNUM_BINCOUNT_WLEN);
    assert_int_equal(uf__np_bincount_len((const char *)a, 4, 4, UF_INT32,
                                         -1, -1, &len),
                     UF__NPNUM_BINCOUNT_MINLEN);
    int32_t neg[] = {1, -1};
    assert_int_equal(uf__np_bincount_len((const char *)neg, 2, 4, UF_INT32,
                                         -1, 0, &len),
                     UF__NPNUM_BINCOUNT_NEG);
    /* a[0] = -3 with a result of 2: Numba writes out of bounds */
    assert_int_equal(uf__np_bincount_len((const char *)&(int32_t){-3}, 1,
                                         4, UF_INT32, -1, 2, &len),
                     UF__NPNUM_BINCOUNT_NEG);
    assert_int_equal(uf__np_bincount_len((const char *)a, 0, 4, UF_INT32,
                                         -1, 0, &len),
                     0);
    assert_int_equal(len, 0);
}

static const char src[] =
    "from numba import njit\n"
    "import numpy as np\n"
    "@njit\n"
    "def interp(x, xp, fp):\n"
    "    return np.interp(x, xp, fp) + np.interp(x[0], xp, fp)\n"
    "@njit\n"
    "def interp_right(x, xp, fp):\n"
    "    return np.interp(x, xp, fp, right=1.0)\n";

static uf_array *vec(int64_t n, double step)
{
    uf_error err;
    uf_array *a = uf_empty(UF_FLOAT64, 1, &n, UF_ORDER_C, &err);
    uf_assert_ok(a != NULL, &err);
    double *d = uf_array_data(a);
    for (int64_t i = 0; i < n; i++)
        d[i] = (double)i * step;
    return a;
}

/* Through the C API: values, Numba's ValueError, a refusal at its
 * FILE:LINE:COL, and out of memory at each allocation of a call (the
 * runtime's table and slopes, the result arrays): UF_ERR_NOMEM, nothing
 * left. */
static void test_kernel(void **state)
{
    (void)state;
    uf_error err;
    uf_context *ctx = uf_context_new(&err);
    uf_assert_ok(ctx != NULL, &err);
    uf_module *mod = uf_module_from_string(ctx, "npnum.py", src, &err);
    uf_assert_ok(mod != NULL, &err);
    uf_func *f = uf_module_get(mod, "interp", &err);
    uf_assert_ok(f != NULL, &err);
    uf_array *args[3] = {vec(1000, 0.011), vec(50, 0.2), vec(50, -3.0)};
    uf_array *out = NULL;
    uf_assert_ok(uf_call(f, args, 3, &out, 1, NULL, &err) == 0, &err);
    const double *o = uf_array_data(out);
    /* fp = -15 xp: x * -15 + 0 */
    assert_true(fabs(o[10] - (0.11 * -15.0)) < 1e-12);
    assert_true(o[999] == -147.0); /* beyond xp[49] = 9.8 */
    uf_array_release(out);
    long nrt = uf__nrt_live(), live = uf__alloc_live();
    int failures = 0;
    for (long k = 1; k < 100; k++) {
        out = NULL;
        uf__alloc_fail_at(k);
        int rc = uf_call(f, args, 3, &out, 1, NULL, &err);
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
        uf_fail_at(__FILE__, __LINE__, "no allocation failed");
    /* xp and fp of different lengths */
    uf_array *bad[3] = {args[0], args[1], args[0]};
    out = NULL;
    assert_int_not_equal(uf_call(f, bad, 3, &out, 1, NULL, &err), 0);
    assert_int_equal(err.code, UF_ERR_VALUE);
    assert_non_null(strstr(err.message, "ValueError: fp and xp are not of "
                                        "the same size."));
    /* right= is NumPy's, not Numba's */
    uf_func *r = uf_module_get(mod, "interp_right", &err);
    uf_assert_ok(r != NULL, &err);
    out = NULL;
    assert_int_not_equal(uf_call(r, args, 3, &out, 1, NULL, &err), 0);
    assert_non_null(strstr(err.file, "npnum.py"));
    assert_int_equal(err.line, 8);
    assert_int_equal(err.column, 33);
    for (int i = 0; i < 3; i++)
        uf_array_release(args[i]);
    uf_module_free(mod);
    uf_context_free(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_search),
        cmocka_unit_test(test_values),
        cmocka_unit_test(test_dtypes),
        cmocka_unit_test(test_digitize),
        cmocka_unit_test(test_bincount),
        cmocka_unit_test(test_kernel),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
