/* Atomics, fences and the counting barriers in cuda.jit kernels
 * (tests/kernels/cuda/atomics.py) on cudasim, or the GPU under
 * UFJIT_TEST_CUDA_TARGET=cuda: exact results under contention from every
 * simulated thread (cudasim runs blocks on several workers at once: the
 * atomics are real host atomics), the old values each call returns,
 * inc/dec wrapping, max/min with numba-cuda's NaN rules, CAS and exch,
 * syncthreads_count/and/or, and the typing errors. */
#include <math.h>
#include <stdlib.h>

#include "cuda_kernel_file.h"

static int setup(void **state)
{
    (void)state;
    return kernel_file_load("atomics.py");
}

static uf_array *vec(uf_dtype dt, int64_t n)
{
    return zeroed(dt, 1, &n);
}

static uf_array *mat(uf_dtype dt, int64_t r, int64_t c)
{
    const int64_t s[2] = {r, c};
    return zeroed(dt, 2, s);
}

/* element i of a as a double / an integer (any of the tested dtypes) */
static double getf(uf_array *a, int64_t i)
{
    void *p = uf_array_data(a);
    switch (uf_array_dtype(a)) {
    case UF_FLOAT32: return ((float *)p)[i];
    case UF_FLOAT64: return ((double *)p)[i];
    case UF_INT32: return ((int32_t *)p)[i];
    case UF_UINT32: return ((uint32_t *)p)[i];
    case UF_INT64: return (double)((int64_t *)p)[i];
    default: return (double)((uint64_t *)p)[i];
    }
}

static uint64_t getu(uf_array *a, int64_t i)
{
    void *p = uf_array_data(a);
    switch (uf_array_dtype(a)) {
    case UF_INT32: return (uint64_t)(int64_t)((int32_t *)p)[i];
    case UF_UINT32: return ((uint32_t *)p)[i];
    case UF_INT64: return (uint64_t)((int64_t *)p)[i];
    case UF_UINT64: return ((uint64_t *)p)[i];
    default: return (uint64_t)(int64_t)getf(a, i);
    }
}

static void setf(uf_array *a, int64_t i, double v)
{
    void *p = uf_array_data(a);
    switch (uf_array_dtype(a)) {
    case UF_FLOAT32: ((float *)p)[i] = (float)v; break;
    case UF_FLOAT64: ((double *)p)[i] = v; break;
    case UF_INT32: ((int32_t *)p)[i] = (int32_t)v; break;
    case UF_UINT32: ((uint32_t *)p)[i] = (uint32_t)v; break;
    case UF_INT64: ((int64_t *)p)[i] = (int64_t)v; break;
    default: ((uint64_t *)p)[i] = (uint64_t)v; break;
    }
}

static void setu(uf_array *a, int64_t i, uint64_t v)
{
    void *p = uf_array_data(a);
    switch (uf_array_dtype(a)) {
    case UF_INT32: case UF_UINT32: ((uint32_t *)p)[i] = (uint32_t)v; break;
    case UF_INT64: case UF_UINT64: ((uint64_t *)p)[i] = v; break;
    default: setf(a, i, (double)(int64_t)v); break;
    }
}

/* 64 blocks x 256 threads */
#define NB 64
#define NT 256
#define N (NB * NT)

/* seed 002: every thread adds 1 to one global counter */
static void test_seed_counter(void **state)
{
    (void)state;
    uf_array *c = vec(UF_INT32, 1);
    uf_array *args[1] = {c};
    run("count_atomic", 64, 64, args, 1);
    assert_int_equal(((int32_t *)uf_array_data(c))[0], 64 * 64);
    run("count_atomic", NB, NT, args, 1);
    assert_int_equal(((int32_t *)uf_array_data(c))[0], 64 * 64 + N);
    /* the racy one may lose updates across blocks, never invent them */
    uf_array *bad = vec(UF_INT32, 1);
    args[0] = bad;
    run("count_bad", 64, 64, args, 1);
    int32_t got = ((int32_t *)uf_array_data(bad))[0];
    assert_true(got >= 1 && got <= 64 * 64);
    uf_array_release(bad);
    uf_array_release(c);
}

/* the tutorial's histogram: grid-stride, float32 bins of width 0.8 */
static void test_histogram(void **state)
{
    (void)state;
    const int n = 5000, nbins = 10;
    uf_array *x = vec(UF_FLOAT32, n), *h = vec(UF_INT32, nbins);
    uf_array *lo = zeroed(UF_FLOAT32, 0, NULL), *hi = zeroed(UF_FLOAT32, 0,
                                                           NULL);
    float *xv = uf_array_data(x);
    for (int i = 0; i < n; i++)
        xv[i] = (float)(-4.5 + 9.0 * ((i * 7919) % n) / n);
    *(float *)uf_array_data(lo) = -4.0f;
    *(float *)uf_array_data(hi) = 4.0f;
    uf_array *args[4] = {x, lo, hi, h};
    run("histogram", 4, 64, args, 4);
    /* numba's types: float32 / int64 is float64; np.int32 truncates */
    int32_t want[10] = {0};
    double width = (double)(4.0f - -4.0f) / nbins;
    for (int i = 0; i < n; i++) {
        int32_t b = (int32_t)((double)(xv[i] - -4.0f) / width);
        if (b >= 0 && b < nbins)
            want[b]++;
    }
    for (int b = 0; b < nbins; b++)
        assert_int_equal(((int32_t *)uf_array_data(h))[b], want[b]);
    uf_array_release(x);
    uf_array_release(h);
    uf_array_release(lo);
    uf_array_release(hi);
}

/* each thread's atomic.add returns a distinct ticket 0 .. N-1, in every
 * dtype (float adds of 1.0 are exact below 2^24) */
static void test_tickets(void **state)
{
    (void)state;
    static const uf_dtype dts[] = {UF_INT32,  UF_UINT32, UF_INT64,
                                   UF_UINT64, UF_FLOAT32, UF_FLOAT64};
    char *seen = malloc(N);
    assert_non_null(seen);
    for (size_t d = 0; d < sizeof dts / sizeof dts[0]; d++) {
        uf_array *c = vec(dts[d], 1), *out = vec(dts[d], N);
        uf_array *args[2] = {c, out};
        run("tickets", NB, NT, args, 2);
        assert_true(getf(c, 0) == N);
        memset(seen, 0, N);
        for (int64_t i = 0; i < N; i++) {
            double t = getf(out, i);
            assert_true(t >= 0 && t < N && t == floor(t));
            assert_false(seen[(int64_t)t]);
            seen[(int64_t)t] = 1;
        }
        uf_array_release(c);
        uf_array_release(out);
    }
    free(seen);
}

/* tuple indices into 2-d arrays (int64 add, float32 sub), a negative one
 * wrapping */
static void test_add_sub_2d(void **state)
{
    (void)state;
    uf_array *a = mat(UF_INT64, 5, 7), *b = mat(UF_FLOAT32, 3, 4);
    uf_array *args[2] = {a, b};
    uf_error err;
    uf_func *f = uf_module_get(mod, "add_sub_2d", &err);
    uf_launch_options o = {.size = sizeof o, .target = SIM};
    uf_assert_ok(uf_launch(f, (uf_dim3){4, 4, 1}, (uf_dim3){8, 8, 1}, args, 2,
                           &o, &err) == 0,
                 &err);
    int64_t wa[5][7] = {{0}};
    float wb[3][4] = {{0}};
    for (int x = 0; x < 32; x++)
        for (int y = 0; y < 32; y++) {
            wa[x % 5][y % 7]++;
            wb[3 - 1 - x % 3][y % 4] -= 1;
        }
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 7; j++)
            assert_int_equal(((int64_t *)uf_array_data(a))[i * 7 + j],
                             wa[i][j]);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 4; j++)
            assert_true(((float *)uf_array_data(b))[i * 4 + j] == wb[i][j]);
    uf_array_release(a);
    uf_array_release(b);
}

/* shared-memory counters (int32, float64) per block, summed globally */
static void test_shared_counters(void **state)
{
    (void)state;
    uf_array *ci = vec(UF_INT32, 1), *cf = vec(UF_FLOAT64, 1);
    uf_array *args[2] = {ci, cf};
    run("shared_count", NB, NT, args, 2);
    assert_int_equal(((int32_t *)uf_array_data(ci))[0], N);
    assert_true(((double *)uf_array_data(cf))[0] == N * 0.5);
    uf_array_release(ci);
    uf_array_release(cf);
}

static void test_bitwise(void **state)
{
    (void)state;
    uf_array *u = vec(UF_UINT32, 3), *s = vec(UF_INT64, 3);
    ((uint32_t *)uf_array_data(u))[0] = 0xffffffffu;
    ((int64_t *)uf_array_data(s))[0] = -1;
    uf_array *args[1] = {u};
    run("bitwise", 1, 64, args, 1);
    args[0] = s;
    run("bitwise", 1, 64, args, 1);
    const uint32_t *pu = uf_array_data(u);
    assert_int_equal(pu[0], 0);
    assert_int_equal(pu[1], 0xffffffffu);
    assert_int_equal(pu[2], 0);
    const int64_t *ps = uf_array_data(s);
    assert_true((uint64_t)ps[0] == 0xffffffff00000000ull);
    assert_int_equal(ps[1], 0xffffffffll);
    assert_int_equal(ps[2], 0);
    uf_array_release(u);
    uf_array_release(s);
}

/* cas: one winner; exch: the values handed on form one chain;
 * compare_and_swap: only the first finds 0 */
static void test_cas_exch(void **state)
{
    (void)state;
    const int n = 16 * 64;
    uf_array *flag = vec(UF_INT64, 1), *winner = vec(UF_INT64, 1),
             *ex = vec(UF_INT32, 1), *olds = vec(UF_INT32, n),
             *sw = vec(UF_UINT64, 1), *swo = vec(UF_UINT64, n);
    ((int64_t *)uf_array_data(flag))[0] = -1;
    ((int64_t *)uf_array_data(winner))[0] = -5;
    ((int32_t *)uf_array_data(ex))[0] = -1;
    uf_array *args[6] = {flag, winner, ex, olds, sw, swo};
    run("first_wins", 16, 64, args, 6);
    int64_t w = ((int64_t *)uf_array_data(winner))[0];
    assert_true(w >= 0 && w < n);
    assert_int_equal(((int64_t *)uf_array_data(flag))[0], w);
    /* olds and the final value: -1 and every thread index once each */
    /* one byte more than the values need: gcc -O3 does not know
     * assert_true stops the test, and sees seen[n + 1] written */
    char *seen = calloc((size_t)n + 2, 1);
    assert_non_null(seen);
    const int32_t *o = uf_array_data(olds);
    for (int i = 0; i <= n; i++) {
        int32_t v = i < n ? o[i] : ((int32_t *)uf_array_data(ex))[0];
        assert_true(v >= -1 && v < n && !seen[v + 1]);
        seen[v + 1] = 1;
    }
    uint64_t final = ((uint64_t *)uf_array_data(sw))[0];
    assert_true(final >= 1 && final <= (uint64_t)n);
    const uint64_t *so = uf_array_data(swo);
    for (int i = 0; i < n; i++)
        assert_true(so[i] == ((uint64_t)i == final - 1 ? 0 : final));
    free(seen);
    uf_array_release(flag);
    uf_array_release(winner);
    uf_array_release(ex);
    uf_array_release(olds);
    uf_array_release(sw);
    uf_array_release(swo);
}

/* atomicInc / atomicDec: one thread's sequence, the wrap from above the
 * limit, and the count left by N threads */
static void test_inc_dec(void **state)
{
    (void)state;
    static const uf_dtype dts[] = {UF_UINT32, UF_UINT64};
    for (int d = 0; d < 2; d++) {
        uf_dtype dt = dts[d];
        uf_array *a = vec(dt, 2), *lim = vec(dt, 1), *o1 = mat(dt, 1, 2);
        setu(lim, 0, 3);
        uf_array *args[3] = {a, lim, o1};
        static const int inc_old[] = {0, 1, 2, 3, 0, 1, 2, 3, 0, 1};
        static const int dec_old[] = {0, 3, 2, 1, 0, 3, 2, 1, 0, 3};
        for (int k = 0; k < 10; k++) {
            run("inc_dec", 1, 1, args, 3);
            assert_int_equal(getu(o1, 0), inc_old[k]);
            assert_int_equal(getu(o1, 1), dec_old[k]);
        }
        /* above the limit: inc wraps to 0, dec falls to the limit */
        setu(a, 0, 10);
        setu(a, 1, 10);
        run("inc_dec", 1, 1, args, 3);
        assert_int_equal(getu(a, 0), 0);
        assert_int_equal(getu(a, 1), 3);
        /* the largest values: inc with limit max never wraps early */
        uint64_t max = dt == UF_UINT32 ? 0xffffffffu : UINT64_MAX;
        setu(lim, 0, max);
        setu(a, 0, max - 1);
        setu(a, 1, 0);
        run("inc_dec", 1, 1, args, 3);
        assert_true(getu(a, 0) == max);
        assert_true(getu(a, 1) == max);
        /* N threads with limit 9 from 0 */
        uf_array *on = mat(dt, N, 2);
        setu(lim, 0, 9);
        setu(a, 0, 0);
        setu(a, 1, 0);
        args[2] = on;
        run("inc_dec", NB, NT, args, 3);
        assert_int_equal(getu(a, 0), N % 10);
        assert_int_equal(getu(a, 1), (10 - N % 10) % 10);
        int count[10] = {0};
        for (int64_t i = 0; i < N; i++) {
            uint64_t v = getu(on, 2 * i);
            assert_true(v < 10);
            count[v]++;
        }
        for (int v = 0; v < 10; v++)
            assert_int_equal(count[v], N / 10 + (v < N % 10));
        uf_array_release(on);
        uf_array_release(a);
        uf_array_release(lim);
        uf_array_release(o1);
    }
}

/* max / min / nanmax / nanmin of 1000 values from every thread */
static void test_minmax_contention(void **state)
{
    (void)state;
    static const uf_dtype dts[] = {UF_INT32,  UF_UINT32, UF_INT64,
                                   UF_UINT64, UF_FLOAT32, UF_FLOAT64};
    const int n = 1000;
    for (size_t d = 0; d < sizeof dts / sizeof dts[0]; d++) {
        uf_dtype dt = dts[d];
        bool flt = dt == UF_FLOAT32 || dt == UF_FLOAT64;
        bool uns = dt == UF_UINT32 || dt == UF_UINT64;
        uf_array *a = vec(dt, 4), *v = vec(dt, n), *o = mat(dt, n, 4);
        for (int i = 0; i < n; i++) {
            int64_t x = (int64_t)((i * 7919) % 2001) - 1000;
            if (flt)
                setf(v, i, (double)x * 0.25);
            else if (uns) /* unsigned order: above 2^31 / 2^63 too */
                setu(v, i, (uint64_t)x);
            else
                setf(v, i, (double)x);
        }
        for (int k = 0; k < 4; k++)
            setu(a, k, 5);
        uf_array *args[3] = {a, v, o};
        run("minmax", 4, 256, args, 3);
        if (flt) {
            double mx = 5, mn = 5;
            for (int i = 0; i < n; i++) {
                mx = fmax(mx, getf(v, i));
                mn = fmin(mn, getf(v, i));
            }
            assert_true(getf(a, 0) == mx && getf(a, 2) == mx);
            assert_true(getf(a, 1) == mn && getf(a, 3) == mn);
        } else {
            uint64_t mx = 5, mn = 5;
            int64_t smx = 5, smn = 5;
            for (int i = 0; i < n; i++) {
                uint64_t x = getu(v, i);
                if (dt == UF_UINT32)
                    x &= 0xffffffffu;
                mx = x > mx ? x : mx;
                mn = x < mn ? x : mn;
                smx = (int64_t)x > smx ? (int64_t)x : smx;
                smn = (int64_t)x < smn ? (int64_t)x : smn;
            }
            for (int k = 0; k < 4; k++) {
                uint64_t want = k % 2 == 0 ? (uns ? mx : (uint64_t)smx)
                                           : (uns ? mn : (uint64_t)smn);
                uint64_t got = getu(a, k);
                if (dt == UF_UINT32)
                    got &= 0xffffffffu;
                assert_true(got == want);
            }
        }
        uf_array_release(a);
        uf_array_release(v);
        uf_array_release(o);
    }
}

/* numba-cuda's NaN rules, one thread, float32 and float64: max / min
 * keep the element when it or the value is NaN; nanmax / nanmin ignore
 * a NaN value and replace a NaN element. Each returns the old value. */
static void test_minmax_nan(void **state)
{
    (void)state;
    for (int d = 0; d < 2; d++) {
        uf_dtype dt = d ? UF_FLOAT32 : UF_FLOAT64;
        static const struct {
            double init, val, want[4];
        } cases[] = {
            {NAN, 3.0, {NAN, NAN, 3.0, 3.0}},
            {1.0, NAN, {1.0, 1.0, 1.0, 1.0}},
            {1.0, 2.0, {2.0, 1.0, 2.0, 1.0}},
            {1.0, -2.0, {1.0, -2.0, 1.0, -2.0}},
            {NAN, NAN, {NAN, NAN, NAN, NAN}},
        };
        for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
            uf_array *a = vec(dt, 4), *v = vec(dt, 1), *o = mat(dt, 1, 4);
            for (int k = 0; k < 4; k++)
                setf(a, k, cases[c].init);
            setf(v, 0, cases[c].val);
            uf_array *args[3] = {a, v, o};
            run("minmax", 1, 1, args, 3);
            for (int k = 0; k < 4; k++) {
                double want = cases[c].want[k], got = getf(a, k);
                if (isnan(want) ? !isnan(got) : got != want)
                    fail_msg("%s case %zu slot %d: %g, want %g",
                             uf_dtype_name(dt), c, k, got, want);
                double old = getf(o, k);
                assert_true(isnan(cases[c].init) ? isnan(old)
                                                 : old == cases[c].init);
            }
            uf_array_release(a);
            uf_array_release(v);
            uf_array_release(o);
        }
    }
}

/* syncthreads_count / _and / _or over blocks of 96 (three warps) */
static void test_sync_votes(void **state)
{
    (void)state;
    const int nb = 4, nt = 96;
    uf_array *pred = vec(UF_INT32, nb * nt), *out = mat(UF_INT32, nb * nt, 3);
    int32_t *p = uf_array_data(pred);
    for (int t = 0; t < nt; t++) {
        p[0 * nt + t] = 1;              /* all */
        p[1 * nt + t] = 0;              /* none */
        p[2 * nt + t] = t == 5 ? 7 : 0; /* one, not 1 */
        p[3 * nt + t] = t % 3 == 0 ? -2 : 0;
    }
    uf_array *args[2] = {pred, out};
    run("sync_votes", (unsigned)nb, (unsigned)nt, args, 2);
    static const int32_t want[4][3] = {
        {96, 1, 1}, {0, 0, 0}, {1, 0, 1}, {32, 0, 1}};
    const int32_t *o = uf_array_data(out);
    for (int b = 0; b < nb; b++)
        for (int t = 0; t < nt; t++)
            for (int k = 0; k < 3; k++)
                if (o[(b * nt + t) * 3 + k] != want[b][k])
                    fail_msg("block %d thread %d vote %d: %d, want %d", b, t,
                             k, o[(b * nt + t) * 3 + k], want[b][k]);
    uf_array_release(pred);
    uf_array_release(out);
}

static void test_fences(void **state)
{
    (void)state;
    uf_array *a = vec(UF_INT64, N), *flag = vec(UF_INT32, 1);
    uf_array *args[2] = {a, flag};
    run("fenced", NB, NT, args, 2);
    for (int64_t i = 0; i < N; i++)
        assert_int_equal(((int64_t *)uf_array_data(a))[i], i);
    assert_int_equal(((int32_t *)uf_array_data(flag))[0], N);
    uf_array_release(a);
    uf_array_release(flag);
}

/* An index out of range under debug=True: the IndexError of a[i]. */
static void test_atomic_bounds(void **state)
{
    (void)state;
    uf_error err;
    const char *src = "from numba import cuda\n"
                      "@cuda.jit(debug=True)\n"
                      "def k(a):\n"
                      "    cuda.atomic.add(a, cuda.threadIdx.x * 2, 1)\n";
    uf_module *m = uf_module_from_string(ctx, "oob.py", src, &err);
    uf_assert_ok(m != NULL, &err);
    uf_func *f = uf_module_get(m, "k", &err);
    uf_array *a = vec(UF_INT32, 8);
    uf_array *args[1] = {a};
    uf_launch_options o = {.size = sizeof o, .target = SIM};
    assert_int_equal(uf_launch(f, (uf_dim3){1, 1, 1}, (uf_dim3){5, 1, 1},
                               args, 1, &o, &err),
                     UF_ERR_INDEX);
    assert_non_null(strstr(err.message, "index 8 is out of bounds for axis 0 "
                                        "with size 8"));
    uf_array_release(a);
    uf_module_free(m);
}

/* What the typing refuses, at the call's line. */
static void test_atomic_errors(void **state)
{
    (void)state;
    uf_error err;
    static const struct {
        const char *line, *message;
    } cases[] = {
        {"cuda.atomic.and_(f, 0, 1)",
         "cuda.atomic.and_() supports arrays of int32, uint32, int64 and "
         "uint64, not float64"},
        {"cuda.atomic.inc(i, 0, 1)",
         "cuda.atomic.inc() supports arrays of uint32 and uint64, not int32"},
        {"cuda.atomic.add(m, 0, 1)",
         "cuda.atomic.add(): a 2-d array needs 2 indices, got 1"},
        {"cuda.atomic.add(m, (0, 0, 0), 1)",
         "cuda.atomic.add(): a 2-d array needs 2 indices, got 3"},
        {"cuda.atomic.max(i, 0.5, 1)",
         "the index must be an integer or a tuple of integers, not float64"},
        {"cuda.atomic.add(i, 0)",
         "cuda.atomic.add() takes 3 arguments (2 given)"},
        {"cuda.atomic.cas(i, 0, 1)",
         "cuda.atomic.cas() takes 4 arguments (3 given)"},
        {"cuda.atomic.compare_and_swap(m, 0, 1)",
         "works on the first element of a 1-d array, not a 2-d one"},
        {"cuda.atomic.exch(f, 0, 1)", "not float64"},
        {"cuda.atomic.add(n, 0, 1)",
         "the first argument must be an array, not int64"},
        {"cuda.atomic.add(i, 0, 1j)", "the value must be a real number"},
        {"cuda.syncthreads_count()", "takes 1 argument (0 given)"},
        {"cuda.threadfence(1)", "takes no arguments (1 given)"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        char src[512];
        snprintf(src, sizeof src,
                 "from numba import cuda\n@cuda.jit\n"
                 "def k(f, i, m, n):\n    %s\n",
                 cases[c].line);
        uf_module *mm = uf_module_from_string(ctx, "bad.py", src, &err);
        uf_assert_ok(mm != NULL, &err);
        uf_func *fn = uf_module_get(mm, "k", &err);
        uf_array *f = vec(UF_FLOAT64, 2), *i = vec(UF_INT32, 2),
                 *m = mat(UF_INT32, 2, 2), *n = zeroed(UF_INT64, 0, NULL);
        uf_array *args[4] = {f, i, m, n};
        uf_launch_options o = {.size = sizeof o, .target = SIM};
        assert_true(uf_launch(fn, (uf_dim3){1, 1, 1}, (uf_dim3){1, 1, 1}, args,
                              4, &o, &err) != 0);
        if (!strstr(err.message, cases[c].message))
            fail_msg("case %zu: '%s' lacks '%s'", c, err.message,
                     cases[c].message);
        assert_int_equal(err.line, 4);
        uf_array_release(f);
        uf_array_release(i);
        uf_array_release(m);
        uf_array_release(n);
        uf_module_free(mm);
    }
}

int main(void)
{
    SIM = cuda_test_target();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_seed_counter),
        cmocka_unit_test(test_histogram),
        cmocka_unit_test(test_tickets),
        cmocka_unit_test(test_add_sub_2d),
        cmocka_unit_test(test_shared_counters),
        cmocka_unit_test(test_bitwise),
        cmocka_unit_test(test_cas_exch),
        cmocka_unit_test(test_inc_dec),
        cmocka_unit_test(test_minmax_contention),
        cmocka_unit_test(test_minmax_nan),
        cmocka_unit_test(test_sync_votes),
        cmocka_unit_test(test_fences),
        cmocka_unit_test(test_atomic_bounds),
        cmocka_unit_test(test_atomic_errors),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
