/* The runtime behind np.histogram, np.cov and np.corrcoef in kernels
 * (common/npstats.c), for what
 * the Numba oracle cannot reach cheaply: equal bins against a plain
 * count for many sizes and ranges; the range from the data (NaN
 * skipped, none left); 0-d, empty, strided and reversed data; integer
 * subtraction wrapping as Numba's int64 does; uint64 and float32 ends;
 * edges by bisection against a linear scan, equal edges, NaN refused;
 * np.cov / np.corrcoef values, flags, NaN rules and checks; and, through the C API, values, Numba's ValueErrors, refusals at their
 * FILE:LINE:COL, and out of memory at every allocation of a call
 * reaching the caller as UF_ERR_NOMEM with nothing left behind. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "common/npstats.h"
#include "common/nrt.h"
#include "test_util.h"

static unsigned seed = 777;
static unsigned next_rand(void)
{
    seed = seed * 1103515245u + 12345u;
    return seed >> 8;
}

static uf__hist_end fend(double f)
{
    return (uf__hist_end){f, 0, UF_FLOAT64};
}

static uf__hist_end iend(int64_t i)
{
    return (uf__hist_end){0.0, i, UF_INT64};
}

/* Equal bins of [lo, hi] over float64 data: the counts against
 * Numba's formula written out per element, edges as np.linspace. */
static void test_equal_bins(void **state)
{
    (void)state;
    double a[500];
    int64_t hist[64], want[64];
    double edges[65];
    for (int64_t bins = 1; bins <= 64; bins += bins < 8 ? 1 : 13) {
        for (int rep = 0; rep < 5; rep++) {
            int64_t n = (int64_t)(next_rand() % 500);
            for (int64_t i = 0; i < n; i++)
                a[i] = (double)(next_rand() % 20000) / 1000.0 - 5.0;
            double lo = (double)(next_rand() % 5), hi = lo + 7.5;
            if (n > 3) {
                a[0] = hi; /* the max counts in the last bin */
                a[1] = NAN;
                a[2] = lo;
            }
            uf__hist_end r[2] = {fend(lo), fend(hi)};
            int64_t s8 = 8;
            assert_int_equal(uf__np_histogram_range((const char *)a, 1, &n,
                                                    &s8, UF_FLOAT64, bins, 1,
                                                    r),
                             0);
            uf__np_histogram_fill((const char *)a, 1, &n, &s8, UF_FLOAT64,
                                  bins, r, hist, edges);
            memset(want, 0, sizeof want);
            double ratio = (double)bins / (hi - lo);
            for (int64_t i = 0; i < n; i++) {
                double b = floor((a[i] - lo) * ratio);
                if (b >= 0 && b < (double)bins)
                    want[(int64_t)b]++;
                else if (a[i] == hi)
                    want[bins - 1]++;
            }
            for (int64_t k = 0; k < bins; k++)
                if (hist[k] != want[k])
                    uf_fail_at(__FILE__, __LINE__, "bins %lld n %lld: bin "
                               "%lld %lld, want %lld", (long long)bins,
                               (long long)n, (long long)k,
                               (long long)hist[k], (long long)want[k]);
            assert_true(edges[0] == lo && edges[bins] == hi);
            if (n > 3)
                assert_true(hist[bins - 1] >= 1 && hist[0] >= 1);
        }
    }
}

/* The range from the data: NaN skipped; none left: (inf, -inf), a
 * ValueError; bins <= 0 first; a 0-d array; a reversed, strided 2-D
 * view. */
static void test_range(void **state)
{
    (void)state;
    double a[6] = {3.0, NAN, -2.0, INFINITY, 1.0, NAN};
    int64_t n = 6, s8 = 8, zero = 0;
    uf__hist_end r[2];
    assert_int_equal(uf__np_histogram_range((const char *)a, 1, &n, &s8,
                                            UF_FLOAT64, 4, 0, r),
                     0);
    assert_true(r[0].f == -2.0 && r[1].f == INFINITY);
    int64_t hist[4];
    double edges[5];
    uf__np_histogram_fill((const char *)a, 1, &n, &s8, UF_FLOAT64, 4, r,
                          hist, edges);
    /* ratio 4 / inf = 0: finite values in bin 0, inf (NaN product) equal
     * to the max in the last, NaN nowhere */
    assert_int_equal(hist[0], 3);
    assert_int_equal(hist[3], 1);
    assert_true(isnan(edges[1]) || isinf(edges[1]));
    assert_int_equal(uf__np_histogram_range((const char *)a, 1, &zero, &s8,
                                            UF_FLOAT64, 4, 0, r),
                     UF__NPSTATS_HIST_RANGE);
    assert_true(r[0].f == INFINITY && r[1].f == -INFINITY);
    double nans[2] = {NAN, NAN};
    int64_t two = 2;
    assert_int_equal(uf__np_histogram_range((const char *)nans, 1, &two,
                                            &s8, UF_FLOAT64, 4, 0, r),
                     UF__NPSTATS_HIST_RANGE);
    assert_int_equal(uf__np_histogram_range((const char *)a, 1, &zero, &s8,
                                            UF_FLOAT64, 0, 0, r),
                     UF__NPSTATS_HIST_BINS);
    assert_int_equal(uf__np_histogram_range((const char *)a, 1, &n, &s8,
                                            UF_FLOAT64, -3, 0, r),
                     UF__NPSTATS_HIST_BINS);
    /* NaN in the range given */
    r[0] = fend(NAN);
    r[1] = fend(1.0);
    assert_int_equal(uf__np_histogram_range((const char *)a, 1, &n, &s8,
                                            UF_FLOAT64, 3, 1, r),
                     UF__NPSTATS_HIST_RANGE);
    /* 0-d: one element, equal ends: no count, edges all 2.5 */
    double x = 2.5;
    assert_int_equal(uf__np_histogram_range((const char *)&x, 0, NULL, NULL,
                                            UF_FLOAT64, 3, 0, r),
                     0);
    uf__np_histogram_fill((const char *)&x, 0, NULL, NULL, UF_FLOAT64, 3, r,
                          hist, edges);
    assert_true(hist[0] == 0 && hist[1] == 0 && hist[2] == 0);
    assert_true(edges[0] == 2.5 && edges[3] == 2.5);
    /* a 3x4 int32 array read column-reversed every other row: rows 0 and
     * 2, elements 3, 2, 1, 0 */
    int32_t m[12] = {0, 1, 2, 3, 10, 10, 10, 10, 4, 5, 6, 7};
    int64_t shape[2] = {2, 4}, strides[2] = {32, -4};
    r[0] = iend(0);
    r[1] = iend(8);
    uf__np_histogram_fill((const char *)&m[3], 2, shape, strides, UF_INT32,
                          4, r, hist, edges);
    for (int k = 0; k < 4; k++)
        assert_int_equal(hist[k], 2);
    assert_true(edges[1] == 2.0 && edges[4] == 8.0);
}

/* Numba's types: int64 v - bin_min wraps; uint64 data with uint64 ends;
 * float32 ends subtract in float32. */
static void test_types(void **state)
{
    (void)state;
    int64_t big[3] = {INT64_MAX, INT64_MIN, 0};
    int64_t n = 3, s8 = 8, hist[2];
    double edges[3];
    uf__hist_end r[2] = {iend(-1), iend(1)};
    uf__np_histogram_fill((const char *)big, 1, &n, &s8, UF_INT64, 2, r,
                          hist, edges);
    /* INT64_MAX + 1 wraps to INT64_MIN: below; INT64_MIN + 1 below; 0 in
     * bin 1 (0 - -1 = 1, ratio 1) */
    assert_int_equal(hist[0], 0);
    assert_int_equal(hist[1], 1);
    uint64_t u[3] = {UINT64_MAX, 1, 1ull << 63};
    r[0] = (uf__hist_end){0.0, 0, UF_UINT64};
    r[1] = (uf__hist_end){0.0, (int64_t)UINT64_MAX, UF_UINT64};
    uf__np_histogram_fill((const char *)u, 1, &n, &s8, UF_UINT64, 2, r,
                          hist, edges);
    assert_int_equal(hist[0], 1);
    assert_int_equal(hist[1], 2);
    float f[2] = {0.1f, 3.0f};
    int64_t two = 2, s4 = 4;
    r[0] = (uf__hist_end){(double)0.1f, 0, UF_FLOAT32};
    r[1] = (uf__hist_end){3.0, 0, UF_FLOAT32};
    int64_t h3[3];
    double e4[4];
    uf__np_histogram_fill((const char *)f, 1, &two, &s4, UF_FLOAT32, 3, r,
                          h3, e4);
    assert_true(h3[0] == 1 && h3[1] == 0 && h3[2] == 1);
    assert_true(e4[0] == (double)0.1f && e4[3] == 3.0);
}

/* Edges: bisection against a linear scan (the last edge <= v), equal
 * edges, the last edge inclusive, NaN and decreasing edges refused, an
 * empty edges array. */
static void test_edges(void **state)
{
    (void)state;
    double e[9] = {-3.0, -1.0, 0.0, 0.0, 2.5, 4.0, 7.0, 7.0, 9.0};
    int64_t ne = 9, s8 = 8;
    assert_int_equal(uf__np_histogram_check_edges((const char *)e, ne, 8,
                                                  UF_FLOAT64),
                     0);
    double a[400];
    int64_t n = 400, hist[8], want[8] = {0};
    for (int64_t i = 0; i < n; i++)
        a[i] = (double)(next_rand() % 1500) / 100.0 - 4.0;
    a[0] = 9.0;
    a[1] = NAN;
    a[2] = 0.0;
    a[3] = 7.0;
    uf__np_histogram_edges((const char *)a, 1, &n, &s8, UF_FLOAT64,
                           (const char *)e, ne, 8, UF_FLOAT64, hist);
    for (int64_t i = 0; i < n; i++) {
        if (!(e[0] <= a[i] && a[i] <= e[8]))
            continue;
        int64_t k = 7;
        while (k > 0 && a[i] < e[k])
            k--;
        want[k]++;
    }
    for (int k = 0; k < 8; k++)
        assert_int_equal(hist[k], want[k]);
    assert_int_equal(hist[2], 0); /* [0, 0): the equal edges' first bin */
    double bad[3] = {0.0, NAN, 1.0}, dec[3] = {0.0, 2.0, 1.0};
    assert_int_equal(uf__np_histogram_check_edges((const char *)bad, 3, 8,
                                                  UF_FLOAT64),
                     UF__NPSTATS_HIST_EDGES);
    assert_int_equal(uf__np_histogram_check_edges((const char *)dec, 3, 8,
                                                  UF_FLOAT64),
                     UF__NPSTATS_HIST_EDGES);
    /* read backwards, dec is increasing: 1, 2, 0 is not; 0 edges */
    assert_int_equal(uf__np_histogram_check_edges((const char *)&dec[2], 2,
                                                  -8, UF_FLOAT64),
                     0);
    assert_int_equal(uf__np_histogram_check_edges((const char *)dec, 0, 8,
                                                  UF_FLOAT64),
                     UF__NPSTATS_HIST_NOEDGES);
    /* one edge: no bins, nothing written */
    uf__np_histogram_edges((const char *)a, 1, &n, &s8, UF_FLOAT64,
                           (const char *)e, 1, 8, UF_FLOAT64, hist);
    /* integer data and edges compare as integers */
    int64_t iv[4] = {INT64_MAX, INT64_MAX - 1, 5, -1};
    int64_t ie[3] = {0, INT64_MAX - 1, INT64_MAX};
    int64_t four = 4, h2[2];
    uf__np_histogram_edges((const char *)iv, 1, &four, &s8, UF_INT64,
                           (const char *)ie, 3, 8, UF_INT64, h2);
    assert_int_equal(h2[0], 1);
    assert_int_equal(h2[1], 2);
}

/* np.cov / np.corrcoef through the runtime: known values of a 2 x 3
 * matrix read reversed, rowvar false, y, ddof and bias, the clip, NaN for
 * constant rows and for no observations, Numba's checks. */
static void test_cov(void **state)
{
    (void)state;
    /* rows (1, 2, 4) and (7, 5, 1), stored reversed */
    double m[6] = {1.0, 5.0, 7.0, 4.0, 2.0, 1.0};
    int64_t shape[2] = {2, 3}, strides[2] = {-24, -8}, nv = 0;
    const char *at = (const char *)&m[5];
    assert_int_equal(uf__np_cov_check(at, 2, shape, strides, UF_FLOAT64,
                                      NULL, 0, NULL, NULL, 0, UF__COV_ROWVAR,
                                      0.0, &nv),
                     0);
    assert_int_equal(nv, 2);
    double c[4];
    assert_int_equal(uf__np_cov(at, 2, shape, strides, UF_FLOAT64, NULL, 0,
                                NULL, NULL, 0, UF__COV_ROWVAR, 0, 0.0, 0, 0,
                                (char *)c),
                     0);
    /* y = 9 - 2 x: var 7/3 and 28/3, cov -14/3 */
    assert_true(fabs(c[0] - 7.0 / 3.0) < 1e-15);
    assert_true(fabs(c[3] - 28.0 / 3.0) < 1e-14);
    assert_true(fabs(c[1] + 14.0 / 3.0) < 1e-14 && c[1] == c[2]);
    /* bias: / 3 instead of / 2; ddof 3: 1 / max(0, 0.0) = inf */
    assert_int_equal(uf__np_cov(at, 2, shape, strides, UF_FLOAT64, NULL, 0,
                                NULL, NULL, 0,
                                UF__COV_ROWVAR | UF__COV_BIAS, 0, 0.0, 0, 0,
                                (char *)c),
                     0);
    assert_true(fabs(c[1] + 28.0 / 9.0) < 1e-14);
    assert_int_equal(uf__np_cov(at, 2, shape, strides, UF_FLOAT64, NULL, 0,
                                NULL, NULL, 0,
                                UF__COV_ROWVAR | UF__COV_DDOF_INT, 3, 0.0, 0,
                                0, (char *)c),
                     0);
    assert_true(c[0] == INFINITY && c[1] == -INFINITY);
    /* corrcoef: -1 within rounding, clipped to [-1, 1]; diagonal 1 */
    assert_int_equal(uf__np_cov(at, 2, shape, strides, UF_FLOAT64, NULL, 0,
                                NULL, NULL, 0, UF__COV_ROWVAR, 0, 0.0, 1, 0,
                                (char *)c),
                     0);
    assert_true(fabs(c[1] + 1.0) < 1e-15 && c[1] >= -1.0);
    assert_true(fabs(c[0] - 1.0) < 1e-15 && c[3] <= 1.0);
    /* rowvar false: 3 variables of 2 observations */
    assert_int_equal(uf__np_cov_check(at, 2, shape, strides, UF_FLOAT64,
                                      NULL, 0, NULL, NULL, 0, 0, 0.0, &nv),
                     0);
    assert_int_equal(nv, 3);
    /* constant rows: NaN correlations; y of other columns refused */
    double k[3] = {2.0, 2.0, 2.0}, one;
    int64_t three = 3, s8 = 8, four = 4;
    assert_int_equal(uf__np_cov((const char *)k, 1, &three, &s8, UF_FLOAT64,
                                NULL, 0, NULL, NULL, 0, UF__COV_ROWVAR, 0,
                                0.0, 1, 1, (char *)&one),
                     0);
    assert_true(isnan(one));
    assert_int_equal(uf__np_cov_check((const char *)k, 1, &three, &s8,
                                      UF_FLOAT64, (const char *)m, 1, &four,
                                      &s8, UF_FLOAT64, UF__COV_ROWVAR, 0.0,
                                      &nv),
                     UF__NPSTATS_COV_DIMS);
    /* no observations: NaN; one row of a 2-D m; float ddof checks */
    int64_t zero = 0, one_row[2] = {1, 3}, rs[2] = {24, 8};
    assert_int_equal(uf__np_cov((const char *)k, 1, &zero, &s8, UF_FLOAT64,
                                NULL, 0, NULL, NULL, 0, UF__COV_ROWVAR, 0,
                                0.0, 0, 1, (char *)&one),
                     0);
    assert_true(isnan(one));
    assert_int_equal(uf__np_cov_check((const char *)m, 2, one_row, rs,
                                      UF_FLOAT64, NULL, 0, NULL, NULL, 0,
                                      UF__COV_ROWVAR, 0.0, &nv),
                     UF__NPSTATS_COV_ONE_ROW);
    assert_int_equal(uf__np_cov_check(at, 2, shape, strides, UF_FLOAT64,
                                      NULL, 0, NULL, NULL, 0,
                                      UF__COV_DDOF_REAL, 1.5, &nv),
                     UF__NPSTATS_COV_DDOF_FRAC);
    assert_int_equal(uf__np_cov_check(at, 2, shape, strides, UF_FLOAT64,
                                      NULL, 0, NULL, NULL, 0,
                                      UF__COV_DDOF_REAL, NAN, &nv),
                     UF__NPSTATS_COV_DDOF_INF);
    /* complex: var of (1+1j, -1-1j) is 4 + 0j, its corrcoef 1 + 0j */
    double z[4] = {1.0, 1.0, -1.0, -1.0}, v[2];
    int64_t two = 2, s16 = 16;
    assert_int_equal(uf__np_cov((const char *)z, 1, &two, &s16,
                                UF_COMPLEX128, NULL, 0, NULL, NULL, 0,
                                UF__COV_ROWVAR | UF__COV_COMPLEX, 0, 0.0, 0,
                                1, (char *)v),
                     0);
    assert_true(v[0] == 4.0 && v[1] == 0.0);
    assert_int_equal(uf__np_cov((const char *)z, 1, &two, &s16,
                                UF_COMPLEX128, NULL, 0, NULL, NULL, 0,
                                UF__COV_ROWVAR | UF__COV_COMPLEX, 0, 0.0, 1,
                                1, (char *)v),
                     0);
    assert_true(v[0] == 1.0 && v[1] == 0.0);
}

/* Out of memory at each allocation of a call of f: UF_ERR_NOMEM,
 * nothing left; at least one allocation failed. */
static void oom_each(uf_func *f, uf_array **args, int nargs, int nout)
{
    uf_error err;
    uf_array *out[4];
    long nrt = uf__nrt_live(), live = uf__alloc_live();
    int failures = 0;
    for (long k = 1; k < 100; k++) {
        memset(out, 0, sizeof out);
        uf__alloc_fail_at(k);
        int rc = uf_call(f, args, nargs, out, nout, NULL, &err);
        bool failed = uf__alloc_failed();
        uf__alloc_fail_at(0);
        if (rc == 0) {
            for (int j = 0; j < nout; j++)
                uf_array_release(out[j]);
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
}

static const char src[] =
    "from numba import njit\n"
    "import numpy as np\n"
    "@njit\n"
    "def hist(a, bins):\n"
    "    h, e = np.histogram(a, bins, (0.0, 10.0))\n"
    "    h2, e2 = np.histogram(a, np.array((0.0, 5.0, 10.0)))\n"
    "    return h, e, h2 + h[0]\n"
    "@njit\n"
    "def hist_complex(a):\n"
    "    return np.histogram(a + 1j)\n"
    "@njit\n"
    "def corr(a, b):\n"
    "    return np.corrcoef(a, b) + np.cov(a)\n";

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

static uf_array *scalar_i64(int64_t v)
{
    uf_error err;
    uf_array *a = uf_empty(UF_INT64, 0, NULL, UF_ORDER_C, &err);
    uf_assert_ok(a != NULL, &err);
    *(int64_t *)uf_array_data(a) = v;
    return a;
}

/* Through the C API: values, Numba's ValueError, a refusal at its
 * FILE:LINE:COL, and out of memory at each allocation of a call: the
 * result arrays (UF_ERR_NOMEM, nothing left). */
static void test_kernel(void **state)
{
    (void)state;
    uf_error err;
    uf_context *ctx = uf_context_new(&err);
    uf_assert_ok(ctx != NULL, &err);
    uf_module *mod = uf_module_from_string(ctx, "npstats.py", src, &err);
    uf_assert_ok(mod != NULL, &err);
    uf_func *f = uf_module_get(mod, "hist", &err);
    uf_assert_ok(f != NULL, &err);
    uf_array *args[2] = {vec(101, 0.1), scalar_i64(5)};
    uf_array *out[3] = {NULL, NULL, NULL};
    uf_assert_ok(uf_call(f, args, 2, out, 3, NULL, &err) == 0, &err);
    const int64_t *h = uf_array_data(out[0]);
    const double *e = uf_array_data(out[1]);
    const int64_t *h2 = uf_array_data(out[2]);
    /* 0.0 .. 10.0 step 0.1 into 5 bins of 2: floor(x * 0.5) */
    int64_t want[5] = {0}, inside = 0;
    for (int i = 0; i <= 100; i++) {
        double v = (double)i * 0.1, b = floor(v * 0.5);
        if (b < 5)
            want[(int)b]++;
        else if (v == 10.0)
            want[4]++;
        inside += v <= 10.0;
    }
    for (int k = 0; k < 5; k++)
        assert_int_equal(h[k], want[k]);
    assert_true(e[0] == 0.0 && e[1] == 2.0 && e[5] == 10.0);
    assert_int_equal(h2[0] + h2[1], inside + 2 * want[0]);
    for (int k = 0; k < 3; k++)
        uf_array_release(out[k]);
    long nrt = uf__nrt_live();
    oom_each(f, args, 2, 3);
    /* np.corrcoef and np.cov: their temporaries too */
    uf_func *cf = uf_module_get(mod, "corr", &err);
    uf_assert_ok(cf != NULL, &err);
    uf_array *two[2] = {args[0], args[0]};
    memset(out, 0, sizeof out);
    uf_assert_ok(uf_call(cf, two, 2, out, 1, NULL, &err) == 0, &err);
    const double *cc = uf_array_data(out[0]);
    /* corrcoef of a with itself: all 1; plus var(a) = 84.17 */
    double var = 0.0;
    for (int i = 0; i <= 100; i++)
        var += ((double)i * 0.1 - 5.0) * ((double)i * 0.1 - 5.0);
    var /= 100.0;
    for (int i = 0; i < 4; i++)
        assert_true(fabs(cc[i] - 1.0 - var) < 1e-12);
    uf_array_release(out[0]);
    oom_each(cf, two, 2, 1);
    /* bins = 0: Numba's ValueError */
    uf_array *zero[2] = {args[0], scalar_i64(0)};
    memset(out, 0, sizeof out);
    assert_int_not_equal(uf_call(f, zero, 2, out, 3, NULL, &err), 0);
    assert_int_equal(err.code, UF_ERR_VALUE);
    assert_non_null(strstr(err.message, "ValueError: histogram(): `bins` "
                                        "should be a positive integer"));
    assert_int_equal(uf__nrt_live(), nrt);
    uf_array_release(zero[1]);
    /* complex data: refused where it is written */
    uf_func *c = uf_module_get(mod, "hist_complex", &err);
    uf_assert_ok(c != NULL, &err);
    memset(out, 0, sizeof out);
    assert_int_not_equal(uf_call(c, args, 1, out, 2, NULL, &err), 0);
    assert_int_equal(err.code, UF_ERR_TYPING);
    assert_non_null(strstr(err.file, "npstats.py"));
    assert_int_equal(err.line, 10);
    assert_int_equal(err.column, 25);
    for (int i = 0; i < 2; i++)
        uf_array_release(args[i]);
    uf_module_free(mod);
    uf_context_free(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_equal_bins),
        cmocka_unit_test(test_range),
        cmocka_unit_test(test_types),
        cmocka_unit_test(test_edges),
        cmocka_unit_test(test_cov),
        cmocka_unit_test(test_kernel),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
