/* np.random inside kernels: the generator (common/nprandom.c) against
 * NumPy's legacy RandomState values after a seed, randint's widths and
 * empty ranges, shuffle over negative and non-contiguous strides, choice
 * without replacement, each thread's own state; and through the C API:
 * kernels drawing arrays leave nothing behind, out of memory at every
 * allocation is UF_ERR_NOMEM with nothing leaked, refused forms at
 * FILE:LINE:COL. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "common/nprandom.h"
#include "common/nrt.h"
#include "nrt_test_util.h"
#include "test_util.h"

/* np.random.RandomState(42): random_sample(), standard_normal(),
 * randint(0, 10) -- the values NumPy's legacy generator gives. */
static void test_numpy_values(void **state)
{
    (void)state;
    static const double rs[] = {0.3745401188473625, 0.9507143064099162,
                                0.7319939418114051, 0.5986584841970366};
    static const double sn[] = {0.4967141530112327, -0.13826430117118466,
                                0.6476885381006925, 1.5230298564080254};
    static const int64_t ri[] = {6, 3, 7, 4, 6, 9, 2, 6, 7, 4};
    uf__np_random_seed(42);
    for (int i = 0; i < 4; i++)
        assert_true(uf__np_random_double() == rs[i]);
    uf__np_random_seed(42);
    for (int i = 0; i < 4; i++)
        assert_true(uf__np_random_normal(0.0, 1.0) == sn[i]);
    uf__np_random_seed(42);
    int64_t got[10];
    assert_int_equal(uf__np_random_randint(0, 10, 64, got, 10), 0);
    for (int i = 0; i < 10; i++)
        assert_int_equal(got[i], ri[i]);
    /* fill gives the one-at-a-time stream, across the 624-word blocks */
    double *a = malloc(2000 * sizeof *a);
    assert_non_null(a);
    uf__np_random_seed(7);
    uf__np_random_fill(UF__NPRANDOM_RANDOM, 0, 0, 0, a, 2000);
    uf__np_random_seed(7);
    for (int i = 0; i < 2000; i++)
        if (a[i] != uf__np_random_double() || !(a[i] >= 0 && a[i] < 1))
            uf_fail_at(__FILE__, __LINE__, "draw %d differs or is outside [0, 1)", i);
    /* normal's cached second value, uniform and exponential's formulas */
    uf__np_random_seed(3);
    uf__np_random_fill(UF__NPRANDOM_NORMAL, 1.0, 2.0, 0, a, 5);
    uf__np_random_seed(3);
    for (int i = 0; i < 5; i++)
        assert_true(a[i] == 1.0 + 2.0 * uf__np_random_normal(0.0, 1.0));
    uf__np_random_seed(3);
    uf__np_random_fill(UF__NPRANDOM_EXPONENTIAL, 2.5, 0, 0, a, 3);
    uf__np_random_seed(3);
    for (int i = 0; i < 3; i++)
        assert_true(a[i] == -log(1.0 - uf__np_random_double()) * 2.5);
    uf__np_random_seed(3);
    double u = uf__np_random_uniform(-1.0, INFINITY);
    assert_true(isinf(u) || isnan(u)); /* -1 + inf * r */
    free(a);
}

/* randint in 32 bits: n wraps as a signed 32-bit number (ValueError as
 * Numba's); no draw for n == 0 requests or a one-value range. */
static void test_randint_widths(void **state)
{
    (void)state;
    int32_t v[4];
    assert_int_equal(uf__np_random_randint(1, 4000000000LL, 32, v, 4),
                     UF__NPRANDOM_EMPTY_RANGE);
    assert_int_equal(uf__np_random_randint(5, 5, 64, v, 0), 0);
    assert_int_equal(uf__np_random_randint(5, 5, 64, v, 1),
                     UF__NPRANDOM_EMPTY_RANGE);
    uf__np_random_seed(1);
    assert_int_equal(uf__np_random_randint(-7, -6, 32, v, 4), 0);
    for (int i = 0; i < 4; i++)
        assert_int_equal(v[i], -7);
    double first = uf__np_random_double(); /* nothing was drawn above */
    uf__np_random_seed(1);
    assert_true(uf__np_random_double() == first);
    /* 64-bit bounds across the whole signed range */
    int64_t w[64];
    assert_int_equal(uf__np_random_randint(INT64_MIN / 2, INT64_MAX / 2, 64,
                                           w, 64),
                     0);
    bool neg = false, pos = false;
    for (int i = 0; i < 64; i++) {
        assert_true(w[i] >= INT64_MIN / 2 && w[i] < INT64_MAX / 2);
        neg |= w[i] < 0;
        pos |= w[i] > 0;
    }
    assert_true(neg && pos);
}

/* Shuffling rows of a view with negative and non-contiguous strides
 * moves the same rows as shuffling a contiguous copy. */
static void test_shuffle_strides(void **state)
{
    (void)state;
    enum { R = 9, C = 4 };
    int16_t base[R][2 * C], flat[R][C];
    for (int i = 0; i < R; i++)
        for (int j = 0; j < 2 * C; j++)
            base[i][j] = (int16_t)(i * 100 + j);
    for (int i = 0; i < R; i++)
        for (int j = 0; j < C; j++)
            flat[i][j] = base[R - 1 - i][2 * j];
    /* the view base[::-1, ::2] */
    int64_t shape[2] = {R, C};
    int64_t strides[2] = {-(int64_t)sizeof base[0], 2 * sizeof(int16_t)};
    int64_t cstr[2] = {sizeof flat[0], sizeof(int16_t)};
    uf__np_random_seed(99);
    uf__np_random_shuffle((char *)&base[R - 1][0], 2, shape, strides, 2);
    uf__np_random_seed(99);
    uf__np_random_shuffle((char *)flat, 2, shape, cstr, 2);
    bool moved = false;
    for (int i = 0; i < R; i++)
        for (int j = 0; j < C; j++) {
            assert_int_equal(base[R - 1 - i][2 * j], flat[i][j]);
            assert_int_equal(base[i][2 * j + 1], i * 100 + 2 * j + 1);
            moved |= flat[i][j] != (R - 1 - i) * 100 + 2 * j;
        }
    assert_true(moved);
    /* 0 and 1 rows: nothing drawn */
    uf__np_random_seed(5);
    double x = uf__np_random_double();
    uf__np_random_seed(5);
    int64_t one = 1;
    uf__np_random_shuffle((char *)flat, 2, &one, cstr, 2);
    assert_true(uf__np_random_double() == x);
}

/* choice without replacement: distinct values of the population, the
 * larger-sample status, an empty population; with replacement of an
 * empty one, the empty range. */
static void test_choice(void **state)
{
    (void)state;
    int64_t out[50];
    uf__np_random_seed(11);
    assert_int_equal(uf__np_random_choice(NULL, 50, 8, 0, 0, (char *)out,
                                          50),
                     0);
    int seen[50] = {0};
    for (int i = 0; i < 50; i++) {
        assert_true(out[i] >= 0 && out[i] < 50);
        assert_int_equal(seen[out[i]]++, 0);
    }
    assert_int_equal(uf__np_random_choice(NULL, 3, 8, 0, 0, (char *)out, 4),
                     UF__NPRANDOM_LARGER_SAMPLE);
    assert_int_equal(uf__np_random_choice(NULL, 0, 8, 0, 0, (char *)out, 0),
                     0);
    assert_int_equal(uf__np_random_choice(NULL, 0, 8, 0, 1, (char *)out, 1),
                     UF__NPRANDOM_EMPTY_RANGE);
    /* a strided float population: every pick is one of its elements */
    double pop[10];
    for (int i = 0; i < 10; i++)
        pop[i] = i * 1.5;
    double picks[20];
    assert_int_equal(uf__np_random_choice((const char *)&pop[9], 5,
                                          -2 * (int64_t)sizeof(double), 8, 1,
                                          (char *)picks, 20),
                     0);
    for (int i = 0; i < 20; i++) {
        double k = picks[i] / 1.5;
        assert_true(k == floor(k) && (int)k % 2 == 1);
    }
    /* out of memory for the permuted copy */
    uf__alloc_fail_at(1);
    int32_t st = uf__np_random_choice(NULL, 10, 8, 0, 0, (char *)out, 3);
    uf__alloc_fail_at(0);
    assert_int_equal(st, UF__NPRANDOM_NOMEM);
}

static void *thread_draws(void *arg)
{
    double *r = arg;
    r[0] = uf__np_random_double(); /* unseeded: OS entropy */
    uf__np_random_seed(42);
    r[1] = uf__np_random_double();
    return NULL;
}

/* Each thread has its own state: a seed in one leaves another's stream
 * alone, and an unseeded thread draws in [0, 1). */
static void test_threads(void **state)
{
    (void)state;
    uf__np_random_seed(42);
    double a = uf__np_random_double();
    double r[2];
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, thread_draws, r), 0);
    assert_int_equal(pthread_join(t, NULL), 0);
    assert_true(r[0] >= 0.0 && r[0] < 1.0);
    assert_true(r[1] == 0.3745401188473625);
    assert_true(uf__np_random_double() == 0.9507143064099162); /* ours */
    (void)a;
}

/* The integer distributions against NumPy's legacy RandomState(42)
 * (the algorithms Numba runs), their checks, and multinomial / dirichlet
 * runs. */
static void test_int_dists(void **state)
{
    (void)state;
    static const struct {
        int kind;
        int64_t n;
        double a;
        int64_t want[6];
    } cases[] = {
        {UF__NPRANDOM_POISSON, 0, 3.5, {4, 1, 3, 4, 3, 2}},
        {UF__NPRANDOM_POISSON, 0, 25.0, {23, 29, 19, 26, 31, 20}},
        {UF__NPRANDOM_BINOMIAL, 10, 0.3, {2, 5, 4, 3, 2, 2}},
        {UF__NPRANDOM_BINOMIAL, 1000, 0.6, {613, 598, 625, 595, 630, 595}},
        {UF__NPRANDOM_GEOMETRIC, 0, 0.5, {1, 5, 2, 2, 1, 1}},
    };
    int64_t got[6];
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        uf__np_random_seed(42);
        assert_int_equal(uf__np_random_ifill(cases[c].kind, cases[c].n,
                                             cases[c].a, 0, 0, got, 6),
                         0);
        for (int i = 0; i < 6; i++)
            if (got[i] != cases[c].want[i])
                uf_fail_at(__FILE__, __LINE__, "case %zu draw %d: %lld, "
                           "NumPy %lld", c, i, (long long)got[i],
                           (long long)cases[c].want[i]);
    }
    /* the geometric inversion below p 1/3 continues the stream */
    assert_int_equal(uf__np_random_ifill(UF__NPRANDOM_GEOMETRIC, 0, 0.1, 0,
                                         0, got, 3), 0);
    assert_int_equal(got[0], 1);
    assert_int_equal(got[1], 20);
    assert_int_equal(got[2], 9);
    /* the checks, and none when nothing is drawn */
    static const struct {
        int kind;
        int64_t n;
        double a, b;
        int32_t st;
    } bad[] = {
        {UF__NPRANDOM_POISSON, 0, -1.0, 0, UF__NPRANDOM_BAD_POISSON},
        {UF__NPRANDOM_POISSON, 0, NAN, 0, UF__NPRANDOM_BAD_POISSON},
        {UF__NPRANDOM_BINOMIAL, -1, 0.5, 0, UF__NPRANDOM_BAD_BINOMIAL_N},
        {UF__NPRANDOM_BINOMIAL, 3, NAN, 0, UF__NPRANDOM_BAD_BINOMIAL_P},
        {UF__NPRANDOM_GEOMETRIC, 0, 0.0, 0, UF__NPRANDOM_BAD_GEOMETRIC},
        {UF__NPRANDOM_NEGATIVE_BINOMIAL, 0, 0.0, 0.5,
         UF__NPRANDOM_BAD_NEGBIN_N},
        {UF__NPRANDOM_NEGATIVE_BINOMIAL, 0, 2.0, -0.5,
         UF__NPRANDOM_BAD_NEGBIN_P},
        {UF__NPRANDOM_NEGATIVE_BINOMIAL, 0, 2.0, 0.0, UF__NPRANDOM_ZERODIV},
        {UF__NPRANDOM_NEGATIVE_BINOMIAL, 0, 2.0, 1.0, UF__NPRANDOM_BAD_GAMMA},
        {UF__NPRANDOM_LOGSERIES, 0, 1.5, 0, UF__NPRANDOM_BAD_LOGSERIES},
        {UF__NPRANDOM_ZIPF, 0, 1.0, 0, UF__NPRANDOM_BAD_ZIPF},
        {UF__NPRANDOM_ZIPF, 0, NAN, 0, UF__NPRANDOM_BAD_ZIPF},
        /* where Numba's float divisions raise: a p that leaves q 1 */
        {UF__NPRANDOM_GEOMETRIC, 0, 1e-17, 0, UF__NPRANDOM_ZERODIV},
        {UF__NPRANDOM_LOGSERIES, 0, 1.0, 0, UF__NPRANDOM_ZERODIV},
    };
    for (size_t c = 0; c < sizeof bad / sizeof bad[0]; c++) {
        uf__np_random_seed(1); /* logseries(1) raises once V < 1 - ... */
        if (uf__np_random_ifill(bad[c].kind, bad[c].n, bad[c].a, bad[c].b, 0,
                                got, 2) != bad[c].st)
            uf_fail_at(__FILE__, __LINE__, "bad case %zu", c);
        assert_int_equal(uf__np_random_ifill(bad[c].kind, bad[c].n, bad[c].a,
                                             bad[c].b, 0, got, 0),
                         0);
    }
    /* p 0 and 1, lam 0: no draw */
    uf__np_random_seed(5);
    double before = uf__np_random_double();
    uf__np_random_seed(5);
    assert_int_equal(uf__np_random_ifill(UF__NPRANDOM_BINOMIAL, 9, 1.0, 0, 0,
                                         got, 2), 0);
    assert_int_equal(got[0], 9);
    assert_int_equal(uf__np_random_ifill(UF__NPRANDOM_POISSON, 0, 0.0, 0, 0,
                                         got, 2), 0);
    assert_int_equal(got[1], 0);
    assert_true(uf__np_random_double() == before);
    /* hypergeometric: between max(0, nsample - nbad) and min(ngood,
     * nsample); geometric's NaN is Numba's INT64_MIN */
    int64_t h[200];
    assert_int_equal(uf__np_random_ifill(UF__NPRANDOM_HYPERGEOMETRIC, 0, 7,
                                         5, 9, h, 200), 0);
    for (int i = 0; i < 200; i++)
        assert_true(h[i] >= 4 && h[i] <= 7);
    assert_int_equal(uf__np_random_ifill(UF__NPRANDOM_GEOMETRIC, 0, NAN, 0,
                                         0, got, 1), 0);
    assert_true(got[0] == INT64_MIN);
    /* noncentral_chisquare checks before drawing, NaN nonc gives NaN */
    double d[8];
    assert_int_equal(uf__np_random_noncentral_chisquare(0.0, 1.0, d, 0),
                     UF__NPRANDOM_BAD_NC_DF);
    assert_int_equal(uf__np_random_noncentral_chisquare(1.0, -1.0, d, 0),
                     UF__NPRANDOM_BAD_NC_NONC);
    assert_int_equal(uf__np_random_noncentral_chisquare(1.0, NAN, d, 2), 0);
    assert_true(isnan(d[0]) && isnan(d[1]));
    /* multinomial: each run sums to n, from a negative-stride tuple of
     * int32; the buckets after a break stay 0 */
    int32_t pv[3] = {1, 0, 0};
    int64_t m[12];
    memset(m, 0x55, sizeof m);
    assert_int_equal(uf__np_random_multinomial(10, (const char *)&pv[2], 3,
                                               -4, 'i' * 256 + 4, m, 12), 0);
    for (int i = 0; i < 12; i++)
        assert_int_equal(m[i], i % 3 == 2 ? 10 : 0);
    double pf[3] = {0.2, 0.3, 0.5};
    assert_int_equal(uf__np_random_multinomial(1000, (const char *)pf, 3, 8,
                                               'f' * 256 + 8, m, 12), 0);
    for (int i = 0; i < 12; i += 3)
        assert_int_equal(m[i] + m[i + 1] + m[i + 2], 1000);
    assert_int_equal(uf__np_random_multinomial(10, (const char *)pf, 0, 8,
                                               'f' * 256 + 8, m, 0),
                     UF__NPRANDOM_RANGE_STEP);
    assert_int_equal(uf__np_random_multinomial(-1, (const char *)pf, 3, 8,
                                               'f' * 256 + 8, m, 3),
                     UF__NPRANDOM_BAD_BINOMIAL_N);
    /* dirichlet: rows of positive numbers summing to 1 */
    assert_int_equal(uf__np_random_dirichlet((const char *)pf, 3, 8,
                                             'f' * 256 + 8, d, 6), 0);
    for (int i = 0; i < 6; i += 3) {
        assert_true(d[i] > 0 && d[i + 1] > 0 && d[i + 2] > 0);
        assert_true(fabs(d[i] + d[i + 1] + d[i + 2] - 1.0) < 1e-15);
    }
    pf[1] = 0.0;
    assert_int_equal(uf__np_random_dirichlet((const char *)pf, 3, 8,
                                             'f' * 256 + 8, d, 0),
                     UF__NPRANDOM_BAD_DIRICHLET);
}

static const char src[] =
    "import numpy as np\n"
    "from numba import njit\n"
    "@njit\n"
    "def mix(seed, n):\n"
    "    np.random.seed(seed)\n"
    "    a = np.random.normal(1.0, 2.0, (n, 3))\n"
    "    b = np.random.randint(0, 100, n)\n"
    "    c = np.random.choice(n * 2, n, False)\n"
    "    p = np.random.permutation(a)\n"
    "    np.random.shuffle(b)\n"
    "    return p[:, 0] + b + c + np.random.random(n)\n"
    "@njit\n"
    "def ints(seed, n):\n"
    "    np.random.seed(seed)\n"
    "    m = np.random.multinomial(n, np.array((0.25, 0.75)), (n, 2))\n"
    "    d = np.random.dirichlet((1.0, 2.0), n)\n"
    "    return (np.random.poisson(3.0, n) + np.random.binomial(n, 0.5, n)\n"
    "            + m[:, 0, 1] + d[:, 0] + np.random.zipf(2.0, n))\n";

static uf_array *i64(int64_t v)
{
    uf_error err;
    uf_array *a = uf_empty(UF_INT64, 0, NULL, UF_ORDER_C, &err);
    uf_assert_ok(a != NULL, &err);
    *(int64_t *)uf_array_data(a) = v;
    return a;
}

static uf_func *mix_fn, *ints_fn;

static int ints_call(void *ud, uf_error *err)
{
    uf_array **args = ud, *out = NULL;
    int rc = uf_call(ints_fn, args, 2, &out, 1, NULL, err);
    if (rc != 0)
        return err->code;
    uf_array_release(out);
    return 0;
}

static int mix_call(void *ud, uf_error *err)
{
    uf_array **args = ud, *out = NULL;
    int rc = uf_call(mix_fn, args, 2, &out, 1, NULL, err);
    if (rc != 0)
        return err->code;
    uf_array_release(out);
    return 0;
}

/* The same seed gives the same result on every call; 10^4 calls leave
 * nothing behind; out of memory at each allocation is clean. */
static void test_kernel_calls(void **state)
{
    (void)state;
    uf_error err;
    uf_context *ctx = uf_context_new(&err);
    uf_assert_ok(ctx != NULL, &err);
    uf_module *mod = uf_module_from_string(ctx, "nprandom_c.py", src, &err);
    uf_assert_ok(mod != NULL, &err);
    mix_fn = uf_module_get(mod, "mix", &err);
    uf_assert_ok(mix_fn != NULL, &err);
    uf_array *args[2] = {i64(123), i64(40)}, *out = NULL;
    uf_assert_ok(uf_call(mix_fn, args, 2, &out, 1, NULL, &err) == 0, &err);
    double first[40];
    memcpy(first, uf_array_data(out), sizeof first);
    uf_array_release(out);
    long nrt = uf__nrt_live(), live = uf__alloc_live();
    for (int i = 0; i < 10000; i++) {
        out = NULL;
        uf_assert_ok(uf_call(mix_fn, args, 2, &out, 1, NULL, &err) == 0,
                     &err);
        if (memcmp(uf_array_data(out), first, sizeof first) != 0)
            uf_fail_at(__FILE__, __LINE__, "call %d differs after the same seed", i);
        uf_array_release(out);
    }
    assert_int_equal(uf__nrt_live(), nrt);
    assert_int_equal(uf__alloc_live(), live);
    uf_check_oom_each_alloc("mix", mix_call, args);
    /* the integer distributions, multinomial and dirichlet: no leaks, out
     * of memory clean, a negative n's ValueError */
    ints_fn = uf_module_get(mod, "ints", &err);
    uf_assert_ok(ints_fn != NULL, &err);
    out = NULL; /* the first call compiles: count from after it */
    uf_assert_ok(uf_call(ints_fn, args, 2, &out, 1, NULL, &err) == 0, &err);
    uf_array_release(out);
    nrt = uf__nrt_live();
    live = uf__alloc_live();
    for (int i = 0; i < 1000; i++) {
        out = NULL;
        uf_assert_ok(uf_call(ints_fn, args, 2, &out, 1, NULL, &err) == 0,
                     &err);
        assert_int_equal(uf_array_shape(out)[0], 40);
        uf_array_release(out);
    }
    assert_int_equal(uf__nrt_live(), nrt);
    assert_int_equal(uf__alloc_live(), live);
    uf_check_oom_each_alloc("ints", ints_call, args);
    /* ValueErrors: a negative size; a sample larger than 2n */
    uf_array_release(args[1]);
    args[1] = i64(-1);
    assert_int_not_equal(uf_call(mix_fn, args, 2, &out, 1, NULL, &err), 0);
    assert_non_null(strstr(err.message, "ValueError"));
    assert_int_equal(uf__nrt_live(), nrt);
    uf_array_release(args[0]);
    uf_array_release(args[1]);
    uf_module_free(mod);
    uf_context_free(ctx);
}

/* Refused at the call's FILE:LINE:COL. */
static void test_refused(void **state)
{
    (void)state;
    static const char bad[] =
        "import numpy as np\n"
        "from numba import cuda, njit\n"
        "@cuda.jit\n"
        "def k(out):\n"
        "    out[0] = np.random.random()\n"
        "@njit\n"
        "def narrow(a):\n"
        "    return np.random.randint(a[0], a[1])\n"
        "@njit\n"
        "def withp(a):\n"
        "    return np.random.choice(a, 3, p=a)\n"
        "@njit\n"
        "def nbsize(a):\n"
        "    return np.random.negative_binomial(3, 0.5, 4)\n"
        "@njit\n"
        "def mixed(a):\n"
        "    return np.random.dirichlet((1, 2.5))\n";
    static const struct {
        const char *fn, *sig, *msg;
        int line, col;
    } cases[] = {
        {"k", "void(float64[:])", "CUDA kernels cannot", 5, 14},
        {"narrow", "int16(int16[:])", "Numba cannot compile it", 8, 12},
        {"withp", "float64[:](float64[:])", "takes no p", 11, 35},
        {"nbsize", "int64(float64[:])", "takes at most 2", 14, 48},
        {"mixed", "float64[:](float64[:])", "tuple of one type", 17, 32},
    };
    uf_error err;
    uf_context *ctx = uf_context_new(&err);
    uf_assert_ok(ctx != NULL, &err);
    uf_module *m = uf_module_from_string(ctx, "nprandom_bad.py", bad, &err);
    uf_assert_ok(m != NULL, &err);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uf_func *f = uf_module_get(m, cases[i].fn, &err);
        uf_assert_ok(f != NULL, &err);
        char *text = uf_func_inspect(f, cases[i].sig, UF_INSPECT_TYPES, &err);
        assert_null(text);
        assert_non_null(strstr(err.file, "nprandom_bad.py"));
        if (err.line != cases[i].line || err.column != cases[i].col ||
            strstr(err.message, cases[i].msg) == NULL)
            uf_fail_at(__FILE__, __LINE__, "%s: %d:%d %s", cases[i].fn, err.line,
                       err.column, err.message);
    }
    uf_module_free(m);
    uf_context_free(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_numpy_values),
        cmocka_unit_test(test_randint_widths),
        cmocka_unit_test(test_shuffle_strides),
        cmocka_unit_test(test_choice),
        cmocka_unit_test(test_threads),
        cmocka_unit_test(test_int_dists),
        cmocka_unit_test(test_kernel_calls),
        cmocka_unit_test(test_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
