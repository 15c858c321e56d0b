/* The selection runtime behind np.median / np.percentile in kernels
 * (common/npselect.c), for what the Numba oracle cannot reach cheaply:
 * the k-th element of random arrays with many duplicates, NaN and every
 * size from 0 up, against a full sort; orders that break naive pivots
 * (sorted, reversed, organ pipe, all equal, sawtooth) at 10^5 elements;
 * medians of every dtype in Numba's arithmetic (the wrapped int64 sum,
 * float32's rounded one, strided and 0-d arrays); percentiles' formula,
 * statuses and NaN rules; and, through uf_call, out of memory at every
 * allocation of a call reaching the caller as UF_ERR_NOMEM with nothing
 * left behind. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "common/npselect.h"
#include "common/nrt.h"
#include "test_util.h"

static int cmp_f64(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return a < b ? -1 : a > b ? 1 : 0;
}

static unsigned seed = 12345;
static unsigned next_rand(void)
{
    seed = seed * 1103515245u + 12345u;
    return seed >> 8;
}

/* a[0..n) after select(k): a[k] is the sorted k-th, nothing before it
 * greater, nothing after it smaller. */
static void check_select(const double *src, int64_t n, int64_t k,
                         const char *what)
{
    double *a = malloc(sizeof(double) * (size_t)n);
    double *s = malloc(sizeof(double) * (size_t)n);
    assert_non_null(a);
    assert_non_null(s);
    memcpy(a, src, sizeof(double) * (size_t)n);
    memcpy(s, src, sizeof(double) * (size_t)n);
    qsort(s, (size_t)n, sizeof *s, cmp_f64);
    double v = uf__np_select_f64(a, n, k);
    if (v != s[k] || a[k] != v)
        uf_fail_at(__FILE__, __LINE__, "%s n=%lld k=%lld: %g, sorted %g",
                   what, (long long)n, (long long)k, v, s[k]);
    for (int64_t i = 0; i < n; i++)
        if ((i < k && a[i] > v) || (i > k && a[i] < v))
            uf_fail_at(__FILE__, __LINE__, "%s n=%lld k=%lld: a[%lld] = %g "
                       "on the wrong side of %g", what, (long long)n,
                       (long long)k, (long long)i, a[i], v);
    free(a);
    free(s);
}

static void test_select_random(void **state)
{
    (void)state;
    static const int64_t sizes[] = {1, 2, 3, 4, 5, 7, 8, 16, 17, 31, 100,
                                    1001, 4096};
    double *a = malloc(sizeof(double) * 4096);
    assert_non_null(a);
    for (size_t z = 0; z < sizeof sizes / sizeof *sizes; z++) {
        int64_t n = sizes[z];
        for (int dup = 0; dup < 3; dup++) {
            /* distinct values, a few values repeated, two values */
            unsigned span = dup == 0 ? 1u << 20 : dup == 1 ? 7 : 2;
            for (int64_t i = 0; i < n; i++)
                a[i] = (double)(next_rand() % span) - span / 2.0;
            int64_t ks[] = {0, n / 2, n - 1, (n - 1) / 2,
                            (int64_t)(next_rand() % (unsigned)n)};
            for (size_t j = 0; j < 5; j++)
                check_select(a, n, ks[j], "random");
        }
    }
    free(a);
}

static void test_select_orders(void **state)
{
    (void)state;
    enum { N = 100000 };
    double *a = malloc(sizeof(double) * N);
    assert_non_null(a);
    const char *names[] = {"sorted", "reversed", "organ pipe", "all equal",
                           "sawtooth", "median-of-3 killer"};
    for (int o = 0; o < 6; o++) {
        for (int64_t i = 0; i < N; i++) {
            switch (o) {
            case 0: a[i] = (double)i; break;
            case 1: a[i] = (double)(N - i); break;
            case 2: a[i] = (double)(i < N / 2 ? i : N - i); break;
            case 3: a[i] = 1.5; break;
            case 4: a[i] = (double)(i % 97); break;
            default: /* odd indices high, even low (a classic bad case) */
                a[i] = (double)(i % 2 ? N / 2 + i / 2 : i / 2);
                break;
            }
        }
        check_select(a, N, N / 2, names[o]);
        check_select(a, N, 3, names[o]);
    }
    free(a);
}

/* NaN: Numba's own order of partitions decides (its np.median does not
 * skip NaN); the values below are Numba 0.68's. */
static void test_median_nan(void **state)
{
    (void)state;
    static const struct {
        double a[7];
        int n;
        double want; /* NaN for NaN */
    } t[] = {
        {{1.0, NAN, 3.0}, 3, NAN},
        {{NAN, 1.0, 3.0}, 3, 3.0},
        {{1.0, 3.0, NAN}, 3, 3.0},
        {{NAN, 1.0, 2.0, 3.0}, 4, 2.5},
        {{1.0, 2.0, NAN, 3.0}, 4, NAN},
        {{NAN, NAN, 1.0}, 3, NAN},
        {{5.0, NAN, 1.0, 2.0, 4.0, 3.0, 0.0}, 7, 3.0},
    };
    for (size_t i = 0; i < sizeof t / sizeof *t; i++) {
        int64_t shape = t[i].n, stride = 8;
        double r;
        assert_int_equal(uf__np_median((const char *)t[i].a, 1, &shape,
                                       &stride, UF_FLOAT64, 0, &r), 0);
        if (!(r == t[i].want || (isnan(r) && isnan(t[i].want))))
            uf_fail_at(__FILE__, __LINE__, "case %zu: median %g, Numba %g",
                       i, r, t[i].want);
    }
    /* nanmedian skips them; nothing left is NaN */
    double a[] = {NAN, 4.0, NAN, 1.0, 2.0}, r;
    int64_t shape = 5, stride = 8;
    assert_int_equal(uf__np_median((const char *)a, 1, &shape, &stride,
                                   UF_FLOAT64, 1, &r), 0);
    assert_true(r == 2.0);
    shape = 1;
    assert_int_equal(uf__np_median((const char *)a, 1, &shape, &stride,
                                   UF_FLOAT64, 1, &r), 0);
    assert_true(isnan(r));
}

static double median_of(const void *data, int64_t nd, const int64_t *shape,
                        const int64_t *strides, uf_dtype dt)
{
    double r = -12345.0;
    assert_int_equal(uf__np_median(data, nd, shape, strides, (int32_t)dt, 0,
                                   &r),
                     0);
    return r;
}

/* Numba's types for the two middle elements' sum; sizes 0, 1, 2, odd,
 * even; strided and 0-d arrays. */
static void test_median_dtypes(void **state)
{
    (void)state;
    int64_t two = 2, s8 = 8, s4 = 4, s1 = 1;
    int64_t big[] = {INT64_MAX, INT64_MAX};
    assert_true(median_of(big, 1, &two, &s8, UF_INT64) == -1.0);
    uint64_t ubig[] = {UINT64_MAX, UINT64_MAX};
    assert_true(median_of(ubig, 1, &two, &s8, UF_UINT64) ==
                (double)(UINT64_MAX - 1) / 2.0);
    int8_t small[] = {127, 127};
    assert_true(median_of(small, 1, &two, &s1, UF_INT8) == 127.0);
    float f[] = {0.1f, 0.2f};
    assert_true(median_of(f, 1, &two, &s4, UF_FLOAT32) ==
                (double)(0.1f + 0.2f) / 2.0);
    float fbig[] = {3e38f, 3e38f};
    assert_true(isinf(median_of(fbig, 1, &two, &s4, UF_FLOAT32)));
    bool b[] = {true, false, true};
    int64_t three = 3;
    assert_true(median_of(b, 1, &three, &s1, UF_BOOL) == 1.0);
    /* 0, 1 elements; a 0-d array */
    double d[] = {4.0, 1.0, 3.0, 2.0, 9.0, 0.0};
    int64_t zero = 0, one = 1;
    assert_true(isnan(median_of(d, 1, &zero, &s8, UF_FLOAT64)));
    assert_true(median_of(d, 1, &one, &s8, UF_FLOAT64) == 4.0);
    assert_true(median_of(d, 0, NULL, NULL, UF_FLOAT64) == 4.0);
    /* a reversed view of every other element: 0, 2, 1 -> 1; a 2x2 view
     * with strides (16, -8) starting at d[1]: 1, 4, 2, 3 -> 2.5 */
    int64_t st = -16;
    assert_true(median_of(d + 5, 1, &three, &st, UF_FLOAT64) == 1.0);
    int64_t shp[] = {2, 2}, strd[] = {16, -8};
    assert_true(median_of(d + 1, 2, shp, strd, UF_FLOAT64) == 2.5);
    int32_t iv[] = {5, -3, 8, 8, 1, 0, 2};
    int64_t seven = 7;
    assert_true(median_of(iv, 1, &seven, &s4, UF_INT32) == 2.0);
    assert_true(median_of(iv, 1, &(int64_t){6}, &s4, UF_INT32) == 3.0);
}

static int pct(const double *a, int64_t n, const double *q, int64_t nq,
               int how, double *out)
{
    int64_t s = 8;
    return uf__np_percentile((const char *)a, 1, &n, &s, UF_FLOAT64,
                             (const char *)q, 1, &nq, &s, UF_FLOAT64, how,
                             out);
}

static void test_percentile(void **state)
{
    (void)state;
    double a[] = {4.0, 1.0, 3.0, 2.0}, out[4];
    double q[] = {50.0, 0.0, 100.0, 10.0};
    assert_int_equal(pct(a, 4, q, 4, 0, out), 0);
    assert_true(out[0] == 2.5 && out[1] == 1.0 && out[2] == 4.0);
    /* rank 1 + 3 * 0.1 = 1.3: 1 * (1 - 0.3) + 2 * 0.3 in that order */
    double m = (1 + 3 * (10.0 / 100.0)) - 1.0;
    assert_true(out[3] == 1.0 * (1 - m) + 2.0 * m);
    double qq[] = {0.5, 1.0};
    assert_int_equal(pct(a, 4, qq, 2, UF__NPSELECT_QUANTILE, out), 0);
    assert_true(out[0] == 2.5 && out[1] == 4.0);
    /* q out of range or NaN, before anything else */
    double bad[] = {10.0, NAN};
    assert_int_equal(pct(a, 0, bad, 2, 0, out), UF__NPSELECT_Q_RANGE);
    double over[] = {1.5};
    assert_int_equal(pct(a, 4, over, 1, UF__NPSELECT_QUANTILE, out),
                     UF__NPSELECT_Q_RANGE);
    /* empty: Numba's errors, NaN for the nan* forms */
    double z[] = {0.0}, h[] = {100.0}, mid[] = {30.0};
    assert_int_equal(pct(a, 0, z, 1, 0, out), UF__NPSELECT_EMPTY_MIN);
    assert_int_equal(pct(a, 0, h, 1, 0, out), UF__NPSELECT_EMPTY_MAX);
    assert_int_equal(pct(a, 0, mid, 1, 0, out), UF__NPSELECT_EMPTY_SELECT);
    assert_int_equal(pct(a, 0, mid, 1, UF__NPSELECT_SKIP_NAN, out), 0);
    assert_true(isnan(out[0]));
    assert_int_equal(pct(a, 4, q, 0, 0, out), 0); /* no q, no work */
    /* a NaN makes every result NaN; skipped with SKIP_NAN */
    double withnan[] = {1.0, NAN, 3.0};
    assert_int_equal(pct(withnan, 3, q, 2, 0, out), 0);
    assert_true(isnan(out[0]) && isnan(out[1]));
    assert_int_equal(pct(withnan, 3, q, 2, UF__NPSELECT_SKIP_NAN, out), 0);
    assert_true(out[0] == 2.0 && out[1] == 1.0);
    /* Numba's infinity rules: [1, inf] at 0 and 100 are NaN */
    double inf2[] = {1.0, INFINITY};
    assert_int_equal(pct(inf2, 2, q, 3, 0, out), 0);
    assert_true(isinf(out[0]) && isnan(out[1]) && isnan(out[2]));
    /* int q and elements read as float64 */
    int32_t ia[] = {7, 1, 5}, iq[] = {50};
    int64_t n3 = 3, n1 = 1, s4 = 4;
    assert_int_equal(uf__np_percentile((const char *)ia, 1, &n3, &s4,
                                       UF_INT32, (const char *)iq, 1, &n1,
                                       &s4, UF_INT32, 0, out),
                     0);
    assert_true(out[0] == 5.0);
}

/* Out of memory at each allocation of a kernel's call: UF_ERR_NOMEM,
 * nothing left (the runtime's copy and the result array). */
static void test_out_of_memory(void **state)
{
    (void)state;
    static const char src[] =
        "from numba import njit\n"
        "import numpy as np\n"
        "@njit\n"
        "def med(a):\n"
        "    return np.full(1, np.median(a) + np.nanmedian(a))\n"
        "@njit\n"
        "def pct(a):\n"
        "    return np.percentile(a, a[:3] * 0.0 + 50.0)\n";
    uf_error err;
    uf_context *ctx = uf_context_new(&err);
    uf_assert_ok(ctx != NULL, &err);
    uf_module *mod = uf_module_from_string(ctx, "npselect.py", src, &err);
    uf_assert_ok(mod != NULL, &err);
    int64_t n = 1000;
    uf_array *x = uf_empty(UF_FLOAT64, 1, &n, UF_ORDER_C, &err);
    uf_assert_ok(x != NULL, &err);
    double *d = uf_array_data(x);
    for (int64_t i = 0; i < n; i++)
        d[i] = (double)(next_rand() % 1000);
    static const char *const kernels[] = {"med", "pct"};
    for (int c = 0; c < 2; c++) {
        uf_func *f = uf_module_get(mod, kernels[c], &err);
        uf_assert_ok(f != NULL, &err);
        uf_array *out = NULL;
        uf_assert_ok(uf_call(f, &x, 1, &out, 1, NULL, &err) == 0, &err);
        uf_array_release(out);
        long nrt = uf__nrt_live(), live = uf__alloc_live();
        int failures = 0;
        for (long k = 1; k < 100; k++) {
            out = NULL;
            uf__alloc_fail_at(k);
            int rc = uf_call(f, &x, 1, &out, 1, NULL, &err);
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
            uf_fail_at(__FILE__, __LINE__, "%s: no allocation failed",
                       kernels[c]);
    }
    uf_array_release(x);
    uf_module_free(mod);
    uf_context_free(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_select_random),
        cmocka_unit_test(test_select_orders),
        cmocka_unit_test(test_median_nan),
        cmocka_unit_test(test_median_dtypes),
        cmocka_unit_test(test_percentile),
        cmocka_unit_test(test_out_of_memory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
