/* The transcendental limit of the benchmark suite: the suite's
 * transcendental cases written as plain C loops over glibc's vector math
 * (libmvec's AVX-512 _ZGVeN8v_sin, _ZGVeN16v_expf, ... or, on a CPU
 * without AVX-512, its AVX2 _ZGVdN4v_sin, _ZGVdN8v_expf, ...), on 1 or 2
 * OpenMP threads. A server, like bench_ufjit, so bench/run.py can poll it
 * between the rounds of the cases it bounds.
 *
 *   setup KERNEL DTYPE OP...   KERNEL: sin, exp (one array), gaussian
 *                              (array, scalar mean, scalar sigma), polar
 *                              (four arrays); OP as bench_ufjit's:
 *                              lin/LO/HI/N or scalar/V. Replies with a
 *                              checksum of one run, for the harness to
 *                              compare with NumPy's result, "what": the
 *                              functions and precision the loop uses,
 *                              and "isa". A last operand isa=avx2 or
 *                              isa=avx512 picks the loops (default: the
 *                              widest this CPU runs), so an AVX-512
 *                              machine measures the AVX2 limit too.
 *   run THREADS REPS           REPS timings
 *   quit
 * Each loop calls the functions the benchmark's kernel calls, in the
 * precision the kernel computes them in (Numba's typing rules, which
 * ufjit follows; checked with `ufjit inspect --llvm`): a float32 case is
 * not all float32 when the kernel mixes in float64 literals.
 * Without AVX2 (or with isa=avx512 on a CPU without it) setup answers
 * ok: false and the limit is reported as unavailable. */
#include <immintrin.h>
#include <math.h>
#include <omp.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Seconds on the monotonic clock: omp_get_wtime is coarse under LLVM's
 * libomp (clang builds), and a round under a microsecond read as 0. */
static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

#define AVX512 __attribute__((target("avx512f")))
#define AVX2 __attribute__((target("avx2,fma")))

AVX512 __m512d _ZGVeN8v_sin(__m512d x);
AVX512 __m512d _ZGVeN8v_cos(__m512d x);
AVX512 __m512d _ZGVeN8v_exp(__m512d x);
AVX512 __m512 _ZGVeN16v_sinf(__m512 x);
AVX512 __m512 _ZGVeN16v_cosf(__m512 x);
AVX512 __m512 _ZGVeN16v_expf(__m512 x);
AVX2 __m256d _ZGVdN4v_sin(__m256d x);
AVX2 __m256d _ZGVdN4v_cos(__m256d x);
AVX2 __m256d _ZGVdN4v_exp(__m256d x);
AVX2 __m256 _ZGVdN8v_sinf(__m256 x);
AVX2 __m256 _ZGVdN8v_cosf(__m256 x);
AVX2 __m256 _ZGVdN8v_expf(__m256 x);

enum { K_SIN, K_EXP, K_GAUSS, K_POLAR };
static const char *const knames[] = {"sin", "exp", "gaussian", "polar"};
static const int karrays[] = {1, 1, 1, 4};
/* what each loop computes, [kernel][f32], in the AVX-512 loops' words
 * (what_avx2 rewrites them for the AVX2 loops) */
static const char *const kwhat[4][2] = {
    {"sin float64 (_ZGVeN8v_sin, 8 lanes)",
     "sinf float32 (_ZGVeN16v_sinf, 16 lanes)"},
    {"exp float64 (_ZGVeN8v_exp, 8 lanes)",
     "expf float32 (_ZGVeN16v_expf, 16 lanes)"},
    {"all float64: exp (_ZGVeN8v_exp, 8 lanes), divisions",
     "((x - mean) / sigma)**2 in float32; -0.5 * that, exp and the "
     "division by the float32 sigma * SQRT_2PI in float64 (_ZGVeN8v_exp, "
     "8 lanes: the kernel's -0.5 is a float64 literal); rounded to "
     "float32"},
    {"all float64: cos, sin (_ZGVeN8v_cos/_sin, 8 lanes), sqrt",
     "cosf, sinf (_ZGVeN16v_cosf/_sinf, 16 lanes), products, squares and "
     "sqrt in float32 (the kernel's `** 0.5` is float64, but the float64 "
     "square root of a float32, rounded to float32, is the float32 "
     "square root: LLVM narrows it so)"}};

static int kern = -1, f32, avx512;
static long n;
static void *in[4], *out;
static double scal[2];

/* seed 002's SQRT_2PI is a float32 constant */
static double sqrt_2pi(void) { return (double)(float)sqrt(2 * M_PI); }

AVX512 static void run_f64(long lo, long hi)
{
    const double *x = in[0], *y = in[1], *z = in[2], *w = in[3];
    double *o = out;
    const double m = scal[0], s = scal[1], d = s * sqrt_2pi();
    long i = lo;
    for (; i + 8 <= hi; i += 8) {
        __m512d v = _mm512_loadu_pd(x + i), r;
        switch (kern) {
        case K_SIN: r = _ZGVeN8v_sin(v); break;
        case K_EXP: r = _ZGVeN8v_exp(v); break;
        case K_GAUSS: {
            __m512d t = _mm512_div_pd(_mm512_sub_pd(v, _mm512_set1_pd(m)),
                                      _mm512_set1_pd(s));
            t = _mm512_mul_pd(_mm512_set1_pd(-0.5), _mm512_mul_pd(t, t));
            r = _mm512_div_pd(_ZGVeN8v_exp(t), _mm512_set1_pd(d));
            break;
        }
        default: {
            __m512d t1 = _mm512_loadu_pd(y + i), r2 = _mm512_loadu_pd(z + i);
            __m512d t2 = _mm512_loadu_pd(w + i);
            __m512d dx = _mm512_sub_pd(_mm512_mul_pd(v, _ZGVeN8v_cos(t1)),
                                       _mm512_mul_pd(r2, _ZGVeN8v_cos(t2)));
            __m512d dy = _mm512_sub_pd(_mm512_mul_pd(v, _ZGVeN8v_sin(t1)),
                                       _mm512_mul_pd(r2, _ZGVeN8v_sin(t2)));
            r = _mm512_sqrt_pd(_mm512_add_pd(_mm512_mul_pd(dx, dx),
                                             _mm512_mul_pd(dy, dy)));
            break;
        }
        }
        _mm512_storeu_pd(o + i, r);
    }
    for (; i < hi; i++) {
        double t, dx, dy;
        switch (kern) {
        case K_SIN: o[i] = sin(x[i]); break;
        case K_EXP: o[i] = exp(x[i]); break;
        case K_GAUSS:
            t = (x[i] - m) / s;
            o[i] = exp(-0.5 * t * t) / d;
            break;
        default:
            dx = x[i] * cos(y[i]) - z[i] * cos(w[i]);
            dy = x[i] * sin(y[i]) - z[i] * sin(w[i]);
            o[i] = sqrt(dx * dx + dy * dy);
            break;
        }
    }
}

/* gaussian_pdf on float32 in the kernel's precision (Numba's typing, which
 * ufjit follows: `-0.5 * t` is float64 * float32 -> float64, so exp runs
 * in float64 and so does the division by the float32 `sigma * SQRT_2PI`;
 * the result is rounded to float32): eight elements per call, the 8-lane
 * double exp. */
AVX512 static __m256 gauss_f32x8(const float *x, float m, float s, float d)
{
    __m256 t = _mm256_div_ps(_mm256_sub_ps(_mm256_loadu_ps(x),
                                           _mm256_set1_ps(m)),
                             _mm256_set1_ps(s));
    __m512d u = _mm512_mul_pd(_mm512_set1_pd(-0.5),
                              _mm512_cvtps_pd(_mm256_mul_ps(t, t)));
    return _mm512_cvtpd_ps(_mm512_div_pd(_ZGVeN8v_exp(u),
                                         _mm512_set1_pd((double)d)));
}

AVX512 static void run_f32(long lo, long hi)
{
    const float *x = in[0], *y = in[1], *z = in[2], *w = in[3];
    float *o = out;
    const float m = (float)scal[0], s = (float)scal[1];
    const float d = s * (float)sqrt_2pi();
    long i = lo;
    for (; i + 16 <= hi; i += 16) {
        __m512 v = _mm512_loadu_ps(x + i), r;
        switch (kern) {
        case K_SIN: r = _ZGVeN16v_sinf(v); break;
        case K_EXP: r = _ZGVeN16v_expf(v); break;
        case K_GAUSS:
            _mm256_storeu_ps(o + i, gauss_f32x8(x + i, m, s, d));
            _mm256_storeu_ps(o + i + 8, gauss_f32x8(x + i + 8, m, s, d));
            continue;
        default: {
            __m512 t1 = _mm512_loadu_ps(y + i), r2 = _mm512_loadu_ps(z + i);
            __m512 t2 = _mm512_loadu_ps(w + i);
            __m512 dx = _mm512_sub_ps(_mm512_mul_ps(v, _ZGVeN16v_cosf(t1)),
                                      _mm512_mul_ps(r2, _ZGVeN16v_cosf(t2)));
            __m512 dy = _mm512_sub_ps(_mm512_mul_ps(v, _ZGVeN16v_sinf(t1)),
                                      _mm512_mul_ps(r2, _ZGVeN16v_sinf(t2)));
            r = _mm512_sqrt_ps(_mm512_add_ps(_mm512_mul_ps(dx, dx),
                                             _mm512_mul_ps(dy, dy)));
            break;
        }
        }
        _mm512_storeu_ps(o + i, r);
    }
    for (; i < hi; i++) {
        float t, dx, dy;
        switch (kern) {
        case K_SIN: o[i] = sinf(x[i]); break;
        case K_EXP: o[i] = expf(x[i]); break;
        case K_GAUSS:
            t = (x[i] - m) / s;
            o[i] = (float)(exp(-0.5 * (double)(t * t)) / (double)d);
            break;
        default:
            dx = x[i] * cosf(y[i]) - z[i] * cosf(w[i]);
            dy = x[i] * sinf(y[i]) - z[i] * sinf(w[i]);
            o[i] = sqrtf(dx * dx + dy * dy);
            break;
        }
    }
}

/* The same loops on AVX2: half the lanes, the same functions. */
AVX2 static void run_f64_avx2(long lo, long hi)
{
    const double *x = in[0], *y = in[1], *z = in[2], *w = in[3];
    double *o = out;
    const double m = scal[0], s = scal[1], d = s * sqrt_2pi();
    long i = lo;
    for (; i + 4 <= hi; i += 4) {
        __m256d v = _mm256_loadu_pd(x + i), r;
        switch (kern) {
        case K_SIN: r = _ZGVdN4v_sin(v); break;
        case K_EXP: r = _ZGVdN4v_exp(v); break;
        case K_GAUSS: {
            __m256d t = _mm256_div_pd(_mm256_sub_pd(v, _mm256_set1_pd(m)),
                                      _mm256_set1_pd(s));
            t = _mm256_mul_pd(_mm256_set1_pd(-0.5), _mm256_mul_pd(t, t));
            r = _mm256_div_pd(_ZGVdN4v_exp(t), _mm256_set1_pd(d));
            break;
        }
        default: {
            __m256d t1 = _mm256_loadu_pd(y + i), r2 = _mm256_loadu_pd(z + i);
            __m256d t2 = _mm256_loadu_pd(w + i);
            __m256d dx = _mm256_sub_pd(_mm256_mul_pd(v, _ZGVdN4v_cos(t1)),
                                       _mm256_mul_pd(r2, _ZGVdN4v_cos(t2)));
            __m256d dy = _mm256_sub_pd(_mm256_mul_pd(v, _ZGVdN4v_sin(t1)),
                                       _mm256_mul_pd(r2, _ZGVdN4v_sin(t2)));
            r = _mm256_sqrt_pd(_mm256_add_pd(_mm256_mul_pd(dx, dx),
                                             _mm256_mul_pd(dy, dy)));
            break;
        }
        }
        _mm256_storeu_pd(o + i, r);
    }
    for (; i < hi; i++) {
        double t, dx, dy;
        switch (kern) {
        case K_SIN: o[i] = sin(x[i]); break;
        case K_EXP: o[i] = exp(x[i]); break;
        case K_GAUSS:
            t = (x[i] - m) / s;
            o[i] = exp(-0.5 * t * t) / d;
            break;
        default:
            dx = x[i] * cos(y[i]) - z[i] * cos(w[i]);
            dy = x[i] * sin(y[i]) - z[i] * sin(w[i]);
            o[i] = sqrt(dx * dx + dy * dy);
            break;
        }
    }
}

/* gauss_f32x8 on AVX2: the float64 part in two halves of 4 lanes. */
AVX2 static __m128 gauss_f32x4(__m128 t2, double d)
{
    __m256d u = _mm256_mul_pd(_mm256_set1_pd(-0.5), _mm256_cvtps_pd(t2));
    return _mm256_cvtpd_ps(_mm256_div_pd(_ZGVdN4v_exp(u),
                                         _mm256_set1_pd(d)));
}

AVX2 static void run_f32_avx2(long lo, long hi)
{
    const float *x = in[0], *y = in[1], *z = in[2], *w = in[3];
    float *o = out;
    const float m = (float)scal[0], s = (float)scal[1];
    const float d = s * (float)sqrt_2pi();
    long i = lo;
    for (; i + 8 <= hi; i += 8) {
        __m256 v = _mm256_loadu_ps(x + i), r;
        switch (kern) {
        case K_SIN: r = _ZGVdN8v_sinf(v); break;
        case K_EXP: r = _ZGVdN8v_expf(v); break;
        case K_GAUSS: {
            __m256 t = _mm256_div_ps(_mm256_sub_ps(v, _mm256_set1_ps(m)),
                                     _mm256_set1_ps(s));
            t = _mm256_mul_ps(t, t);
            r = _mm256_set_m128(
                gauss_f32x4(_mm256_extractf128_ps(t, 1), (double)d),
                gauss_f32x4(_mm256_castps256_ps128(t), (double)d));
            break;
        }
        default: {
            __m256 t1 = _mm256_loadu_ps(y + i), r2 = _mm256_loadu_ps(z + i);
            __m256 t2 = _mm256_loadu_ps(w + i);
            __m256 dx = _mm256_sub_ps(_mm256_mul_ps(v, _ZGVdN8v_cosf(t1)),
                                      _mm256_mul_ps(r2, _ZGVdN8v_cosf(t2)));
            __m256 dy = _mm256_sub_ps(_mm256_mul_ps(v, _ZGVdN8v_sinf(t1)),
                                      _mm256_mul_ps(r2, _ZGVdN8v_sinf(t2)));
            r = _mm256_sqrt_ps(_mm256_add_ps(_mm256_mul_ps(dx, dx),
                                             _mm256_mul_ps(dy, dy)));
            break;
        }
        }
        _mm256_storeu_ps(o + i, r);
    }
    for (; i < hi; i++) {
        float t, dx, dy;
        switch (kern) {
        case K_SIN: o[i] = sinf(x[i]); break;
        case K_EXP: o[i] = expf(x[i]); break;
        case K_GAUSS:
            t = (x[i] - m) / s;
            o[i] = (float)(exp(-0.5 * (double)(t * t)) / (double)d);
            break;
        default:
            dx = x[i] * cosf(y[i]) - z[i] * cosf(w[i]);
            dy = x[i] * sinf(y[i]) - z[i] * sinf(w[i]);
            o[i] = sqrtf(dx * dx + dy * dy);
            break;
        }
    }
}

/* kwhat's text for the AVX2 loops: _ZGVeN8v_ -> _ZGVdN4v_, _ZGVeN16v_
 * -> _ZGVdN8v_, the lanes halved. */
static const char *what_avx2(const char *w)
{
    static const char *const from[] = {"_ZGVeN8v_", "_ZGVeN16v_",
                                        "8 lanes", "16 lanes"};
    static const char *const to[] = {"_ZGVdN4v_", "_ZGVdN8v_", "4 lanes",
                                     "8 lanes"};
    static char buf[1024];
    size_t len = 0;
    while (*w && len + 16 < sizeof buf) {
        int k = 0;
        while (k < 4 && strncmp(w, from[k], strlen(from[k])) != 0)
            k++;
        if (k < 4) {
            len += (size_t)snprintf(buf + len, sizeof buf - len, "%s", to[k]);
            w += strlen(from[k]);
        } else {
            buf[len++] = *w++;
        }
    }
    buf[len] = '\0';
    return buf;
}

/* Whole vectors per thread: chunks are multiples of 16 elements. */
static void run_once(int threads)
{
#pragma omp parallel num_threads(threads)
    {
        int t = omp_get_thread_num(), nt = omp_get_num_threads();
        long per = (n / nt + 15) / 16 * 16;
        long lo = t * per, hi = lo + per < n ? lo + per : n;
        if (lo < hi) {
            if (avx512)
                (f32 ? run_f32 : run_f64)(lo, hi);
            else
                (f32 ? run_f32_avx2 : run_f64_avx2)(lo, hi);
        }
    }
}

/* np.linspace(lo, hi, n): i * step + lo, the last element exactly hi. */
static int fill(void *dst, const char *spec)
{
    double lo, hi;
    long cnt;
    if (sscanf(spec, "lin/%lf/%lf/%ld", &lo, &hi, &cnt) != 3 || cnt != n)
        return -1;
    double step = n > 1 ? (hi - lo) / (double)(n - 1) : 0.0;
    for (long i = 0; i < n; i++) {
        double v = i == n - 1 && n > 1 ? hi : (double)i * step + lo;
        if (f32)
            ((float *)dst)[i] = (float)v;
        else
            ((double *)dst)[i] = v;
    }
    return 0;
}

static void release(void)
{
    for (int i = 0; i < 4; i++) {
        free(in[i]);
        in[i] = NULL;
    }
    free(out);
    out = NULL;
    kern = -1;
}

static const char *setup(char **tok, int ntok)
{
    release();
    bool has512 = __builtin_cpu_supports("avx512f");
    avx512 = has512;
    if (ntok > 4 && strncmp(tok[ntok - 1], "isa=", 4) == 0) {
        const char *isa = tok[--ntok] + 4;
        if (strcmp(isa, "avx512") == 0 && !has512)
            return "this CPU has no AVX-512";
        if (strcmp(isa, "avx2") != 0 && strcmp(isa, "avx512") != 0)
            return "isa= takes avx2 or avx512";
        avx512 = strcmp(isa, "avx512") == 0;
    }
    if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma"))
        return "this CPU has neither AVX-512 nor AVX2";
    if (ntok < 4)
        return "usage: setup KERNEL DTYPE OP... [isa=avx2|avx512]";
    for (int k = 0; k < 4; k++)
        if (strcmp(tok[1], knames[k]) == 0)
            kern = k;
    f32 = strcmp(tok[2], "float32") == 0;
    if (kern < 0 || (!f32 && strcmp(tok[2], "float64") != 0))
        return "unknown kernel or dtype";
    int nops = kern == K_GAUSS ? 3 : karrays[kern];
    if (ntok != 3 + nops || sscanf(tok[3], "lin/%*f/%*f/%ld", &n) != 1 ||
        n < 1)
        return "wrong operands for the kernel";
    size_t size = (size_t)n * (f32 ? sizeof(float) : sizeof(double));
    for (int i = 0; i < karrays[kern]; i++)
        if ((in[i] = malloc(size)) == NULL || fill(in[i], tok[3 + i]) < 0)
            return "bad array operand (or out of memory)";
    if (kern == K_GAUSS)
        for (int i = 0; i < 2; i++)
            if (sscanf(tok[4 + i], "scalar/%lf", &scal[i]) != 1)
                return "gaussian takes scalar/MEAN scalar/SIGMA";
    if ((out = malloc(size)) == NULL)
        return "out of memory";
    return NULL;
}

int main(void)
{
    char line[4096];
    while (fgets(line, sizeof line, stdin) != NULL) {
        char *tok[16];
        int ntok = 0;
        char *save = NULL;
        for (char *s = strtok_r(line, " \t\r\n", &save); s && ntok < 16;
             s = strtok_r(NULL, " \t\r\n", &save))
            tok[ntok++] = s;
        if (ntok == 0)
            continue;
        if (strcmp(tok[0], "quit") == 0)
            break;
        if (strcmp(tok[0], "setup") == 0) {
            const char *why = setup(tok, ntok);
            if (why != NULL) {
                release();
                printf("{\"ok\": false, \"error\": \"%s\"}\n", why);
            } else {
                run_once(omp_get_max_threads());
                double sum = 0.0, asum = 0.0;
                for (long i = 0; i < n; i++) {
                    double v = f32 ? ((float *)out)[i] : ((double *)out)[i];
                    sum += v;
                    asum += fabs(v);
                }
                printf("{\"ok\": true, \"checksum\": [[%.17g, %.17g]], "
                       "\"what\": \"%s\", \"isa\": \"%s\"}\n",
                       sum, asum,
                       avx512 ? kwhat[kern][f32] : what_avx2(kwhat[kern][f32]),
                       avx512 ? "avx512" : "avx2");
            }
        } else if (strcmp(tok[0], "run") == 0 && ntok == 3 && kern >= 0 &&
                   atoi(tok[1]) > 0 && atoi(tok[2]) > 0) {
            int reps = atoi(tok[2]);
            fputs("{\"ok\": true, \"times\": [", stdout);
            for (int r = 0; r < reps; r++) {
                double t0 = now();
                run_once(atoi(tok[1]));
                printf("%s%.9g", r ? ", " : "", now() - t0);
            }
            puts("]}");
        } else {
            puts("{\"ok\": false, \"error\": \"usage: setup KERNEL DTYPE "
                 "OP... [isa=avx2|avx512] | run THREADS REPS (after setup) | quit\"}");
        }
        fflush(stdout);
    }
    release();
    return 0;
}
