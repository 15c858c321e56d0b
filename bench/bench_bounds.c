/* Compute floors of the elementwise cases that are not memory-bound on
 * this machine: the kernel's arithmetic as AVX-512 C on data that stays in
 * L1 (4096 elements, timed many times, one thread), so that no memory
 * traffic counts. Both cases are bound by the divider, which performs
 * divisions and square roots: gaussian_pdf on float64 divides twice per
 * element, hypot on float32 divides once in float32 and takes two float64
 * square roots per 16 elements (Numba's typing: `1 + t * t` is float64).
 * Each case is timed whole and with its divider work alone; ms_10M_2t is
 * the 10M-element time that per-element cost gives on two cores. Prints
 * one JSON line per loop (bench/run.py makes them a table).
 *
 * usage: bench_bounds [REPS] */
#include <immintrin.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define AVX512 __attribute__((target("avx512f")))
#define N 4096 /* 32 KiB of float64: in L1 */

AVX512 __m512d _ZGVeN8v_exp(__m512d x);

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static double xd[N], od[N];
static float xf[N], yf[N], of[N];
static volatile double sink;

/* gaussian_pdf float64: exp(-0.5 * ((x - m) / s)**2) / (s * SQRT_2PI) */
AVX512 static void gauss_f64(int whole)
{
    const __m512d m = _mm512_set1_pd(0.25), s = _mm512_set1_pd(1.3);
    const __m512d d = _mm512_set1_pd(1.3 * 2.5066282746310002);
    for (int i = 0; i < N; i += 8) {
        __m512d t = _mm512_div_pd(_mm512_sub_pd(_mm512_load_pd(xd + i), m), s);
        t = _mm512_mul_pd(_mm512_set1_pd(-0.5), _mm512_mul_pd(t, t));
        if (whole)
            t = _ZGVeN8v_exp(t);
        _mm512_store_pd(od + i, _mm512_div_pd(t, d));
    }
}

/* hypot float32: t = min/max of |x|, |y| in float32, then
 * max * sqrt(1 + t * t) in float64, rounded to float32 */
AVX512 static __m256 hypot8(__m256 t, __m256 mx)
{
    __m512d u = _mm512_cvtps_pd(_mm256_mul_ps(t, t));
    u = _mm512_sqrt_pd(_mm512_add_pd(u, _mm512_set1_pd(1.0)));
    return _mm512_cvtpd_ps(_mm512_mul_pd(u, _mm512_cvtps_pd(mx)));
}

AVX512 static void hypot_f32(int whole)
{
    for (int i = 0; i < N; i += 16) {
        __m512 x = _mm512_load_ps(xf + i), y = _mm512_load_ps(yf + i);
        __m512 mx = x, t = y;
        if (whole) {
            x = _mm512_abs_ps(x);
            y = _mm512_abs_ps(y);
            t = _mm512_min_ps(x, y);
            mx = _mm512_max_ps(x, y);
        }
        t = _mm512_div_ps(t, mx);
        __m512d tw = _mm512_castps_pd(t), mw = _mm512_castps_pd(mx);
        __m256 lo = hypot8(_mm512_castps512_ps256(t),
                           _mm512_castps512_ps256(mx));
        __m256 hi = hypot8(_mm256_castpd_ps(_mm512_extractf64x4_pd(tw, 1)),
                           _mm256_castpd_ps(_mm512_extractf64x4_pd(mw, 1)));
        _mm256_store_ps(of + i, lo);
        _mm256_store_ps(of + i + 8, hi);
    }
}

/* Best of `reps` timings of 16 passes: ns per element. */
static double time_loop(void (*fn)(int), int whole, int reps)
{
    double best = 1e30;
    for (int r = 0; r < reps; r++) {
        double t0 = now();
        for (int p = 0; p < 16; p++)
            fn(whole);
        double t = (now() - t0) / (16.0 * N);
        if (t < best)
            best = t;
    }
    sink = od[N / 2] + of[N / 2];
    return best * 1e9;
}

static void report(const char *kcase, const char *loop, double ns)
{
    printf("{\"case\": \"%s\", \"loop (in L1, 1 thread)\": \"%s\", "
           "\"ns_per_element\": %.3f, \"ms_10M_2t\": %.2f}\n",
           kcase, loop, ns, ns * 1e7 / 2 / 1e6);
}

int main(int argc, char **argv)
{
    int reps = argc > 1 ? atoi(argv[1]) : 200;
    if (reps < 1)
        reps = 1;
    if (!__builtin_cpu_supports("avx512f")) {
        puts("{\"case\": \"-\", \"loop (in L1, 1 thread)\": "
             "\"no AVX-512 on this CPU: not measured\"}");
        return 0;
    }
    for (int i = 0; i < N; i++) {
        xd[i] = 0.004 * (i % 1000) - 2.0;
        xf[i] = 0.37f * (float)(i % 997) - 150.0f;
        yf[i] = 0.11f * (float)(i % 991) + 1.0f;
    }
    report("gaussian_pdf f64", "the kernel: two divisions, exp (libmvec)",
           time_loop(gauss_f64, 1, reps));
    report("gaussian_pdf f64", "the same without exp: its divisions",
           time_loop(gauss_f64, 0, reps));
    report("hypot f32", "the kernel: abs, min, max, division, sqrt",
           time_loop(hypot_f32, 1, reps));
    report("hypot f32", "its division and square roots only",
           time_loop(hypot_f32, 0, reps));
    return 0;
}
