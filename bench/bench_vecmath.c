/* SLEEF against glibc's libmvec, per function, ISA and dtype: the
 * measurement behind the choice of vector math library (issue 19).
 *
 *   bench_vecmath [N_ULP]    prints one Markdown table to stdout
 *
 * For every function of ufjit's libmvec mapping
 * (compiler/host/codegen_host_mvec.c) it times the AVX2 and AVX-512 entry
 * points of libmvec (_ZGVdN4v_sin, _ZGVeN16v_sinf, ...) and of SLEEF
 * (Sleef_sind4_u10avx2 and Sleef_sind4_u35avx2, ...: the 1.0-ulp variant,
 * or SLEEF's nearest, u05 for hypot and u15 for erfc, and the 3.5-ulp one
 * where it exists) in a tight loop over 4096 elements in L1 (best of 40
 * rounds, one thread: ns per element; inputs spread over the range below,
 * pow on positive bases), and measures each one's error on
 * the inputs tests/test_mvec_ulp.c uses (specials, a dense sweep of the
 * usual range, random binades):
 *  - max ulp against glibc's scalar libm, the metric and the 4-ulp bound
 *    of tests/test_mvec_ulp.c;
 *  - max ulp against a more precise reference (long double libm for
 *    float64, double libm for float32), fractional;
 *  - special inputs whose result differs from libm's (a NaN, an infinity
 *    or a zero of the other sign): test_mvec_ulp wants none.
 * Both libraries are opened with dlopen, so the program builds without
 * SLEEF and says so in its table. */
#include <dlfcn.h>
#include <float.h>
#include <immintrin.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define AVX512 __attribute__((target("avx512f")))
#define AVX2 __attribute__((target("avx2,fma")))

typedef double (*f64_1)(double);
typedef float (*f32_1)(float);
typedef long double (*fl_1)(long double);
typedef double (*f64_2)(double, double);
typedef float (*f32_2)(float, float);
typedef long double (*fl_2)(long double, long double);

/* The mapped functions: name, arguments, sweep range, the libm
 * functions in three precisions (as void (*)(void), cast back by arity). */
typedef void (*any_fn)(void);
#define R1(n) (any_fn)(f64_1)n, (any_fn)(f32_1)n##f, (any_fn)(fl_1)n##l
#define R2(n) (any_fn)(f64_2)n, (any_fn)(f32_2)n##f, (any_fn)(fl_2)n##l
static const struct func {
    const char *name;
    int nargs;
    double lo, hi;
    any_fn d, f, l;
} funcs[] = {
    {"sin", 1, -10, 10, R1(sin)},      {"cos", 1, -10, 10, R1(cos)},
    {"tan", 1, -10, 10, R1(tan)},      {"asin", 1, -1, 1, R1(asin)},
    {"acos", 1, -1, 1, R1(acos)},      {"atan", 1, -20, 20, R1(atan)},
    {"atan2", 2, -5, 5, R2(atan2)},    {"sinh", 1, -20, 20, R1(sinh)},
    {"cosh", 1, -20, 20, R1(cosh)},    {"tanh", 1, -10, 10, R1(tanh)},
    {"asinh", 1, -20, 20, R1(asinh)},  {"acosh", 1, 1, 40, R1(acosh)},
    {"atanh", 1, -1, 1, R1(atanh)},    {"exp", 1, -30, 30, R1(exp)},
    {"expm1", 1, -10, 10, R1(expm1)},  {"log", 1, 0, 100, R1(log)},
    {"log1p", 1, -1, 100, R1(log1p)},  {"log2", 1, 0, 100, R1(log2)},
    {"log10", 1, 0, 100, R1(log10)},   {"pow", 2, -10, 10, R2(pow)},
    {"hypot", 2, -100, 100, R2(hypot)}, {"erf", 1, -6, 6, R1(erf)},
    {"erfc", 1, -6, 30, R1(erfc)},     {"exp2", 1, -30, 30, R1(exp2)},
};
enum { NFUNCS = sizeof funcs / sizeof funcs[0] };

static const double specials[] = {
    0.0, -0.0, INFINITY, -INFINITY, NAN, -NAN, 1.0, -1.0, 0.5, -0.5,
    2.0, -2.0, 3.0, -3.0, 1.5, -1.5, 1e-300, -1e-300, 4.9e-324, -4.9e-324,
    2.2250738585072009e-308, 1.4e-45, 1.17549421e-38, 1e-40, DBL_MAX,
    -DBL_MAX, FLT_MAX, -FLT_MAX, 709.78, 709.79, -745.1, -708.4, 88.72,
    88.73, -103.97, -87.3, 1e22, -1e22, 1e300, 3.4e38, 0.1, 1e-8,
};
enum { NSPEC = sizeof specials / sizeof specials[0] };

enum { NTIME = 4096, ROUNDS = 40 };

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ---- calling a vector function on an array ---------------------------
 * One loop per (ISA, dtype, arity): the vector argument goes in a ymm or
 * zmm register, so the caller must be compiled for that ISA. n is a
 * multiple of the lanes. */
#define VLOOP(attr, fname, T, V, load, store, lanes)                        \
    attr static void fname##_1(any_fn fp, const T *x, const T *y, T *o,     \
                               long n)                                      \
    {                                                                       \
        V (*f)(V) = (V(*)(V))fp;                                            \
        (void)y;                                                            \
        for (long i = 0; i < n; i += lanes)                                 \
            store(o + i, f(load(x + i)));                                   \
    }                                                                       \
    attr static void fname##_2(any_fn fp, const T *x, const T *y, T *o,     \
                               long n)                                      \
    {                                                                       \
        V (*f)(V, V) = (V(*)(V, V))fp;                                      \
        for (long i = 0; i < n; i += lanes)                                 \
            store(o + i, f(load(x + i), load(y + i)));                      \
    }
VLOOP(AVX2, d64, double, __m256d, _mm256_loadu_pd, _mm256_storeu_pd, 4)
VLOOP(AVX2, d32, float, __m256, _mm256_loadu_ps, _mm256_storeu_ps, 8)
VLOOP(AVX512, e64, double, __m512d, _mm512_loadu_pd, _mm512_storeu_pd, 8)
VLOOP(AVX512, e32, float, __m512, _mm512_loadu_ps, _mm512_storeu_ps, 16)

typedef void (*loop64)(any_fn, const double *, const double *, double *,
                       long);
typedef void (*loop32)(any_fn, const float *, const float *, float *, long);

/* One entry point to measure. */
typedef struct variant {
    const char *lib; /* "libmvec", "SLEEF u10", "SLEEF u35" */
    char symbol[64];
    any_fn fn;
} variant;

/* ---- error ------------------------------------------------------------ */
static uint64_t rng_state;

static uint64_t rng(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static double random_binade(bool f32)
{
    uint64_t r = rng();
    if (f32) {
        uint32_t bits = (uint32_t)(r % 0x7f800000u) | (uint32_t)(r >> 63) << 31;
        float f;
        memcpy(&f, &bits, sizeof f);
        return f;
    }
    uint64_t bits = r % 0x7ff0000000000000u;
    bits |= rng() & 0x8000000000000000u;
    double d;
    memcpy(&d, &bits, sizeof d);
    return d;
}

static int64_t ordered64(double x)
{
    int64_t i;
    memcpy(&i, &x, sizeof i);
    return i < 0 ? INT64_MIN - i : i;
}

static int64_t ordered32(float x)
{
    int32_t i;
    memcpy(&i, &x, sizeof i);
    return i < 0 ? (int64_t)INT32_MIN - i : i;
}

static bool special_differs(double want, double got)
{
    if (isnan(want) || isnan(got))
        return !(isnan(want) && isnan(got));
    if (isinf(want) || isinf(got) || (want == 0 && got == 0))
        return !(want == got && signbit(want) == signbit(got));
    return false;
}

static bool is_special(double v)
{
    return v == 0 || isinf(v) || isnan(v);
}

/* test_mvec_ulp.c's distance: integer ulps, HUGE_VAL for a special value
 * that differs. */
static double ulps_int(double want, double got, bool f32)
{
    if (special_differs(want, got))
        return HUGE_VAL;
    if (isnan(want) || isinf(want) || (want == 0 && got == 0))
        return 0;
    int64_t d = f32 ? ordered32((float)want) - ordered32((float)got)
                    : ordered64(want) - ordered64(got);
    return fabs((double)d);
}

/* Fractional ulps of got from a reference more precise than the dtype;
 * the ulp is that of the reference rounded to the dtype (subnormals:
 * the smallest). */
static double ulps_ref(long double ref, double got, bool f32)
{
    if (isnan((double)ref) || isnan(got) || isinf(got) || isinf((double)ref))
        return special_differs((double)(f32 ? (float)ref : (double)ref), got)
                   ? HUGE_VAL : 0;
    int e;
    double r = f32 ? (float)ref : (double)ref;
    if (isinf(r)) /* got is the largest finite: the overflow boundary */
        return 0;
    frexp(r, &e);
    int mant = f32 ? 24 : 53, emin = f32 ? -125 : -1021;
    if (r == 0 || e < emin)
        e = emin;
    long double ulp = ldexpl(1.0L, e - mant);
    return (double)(fabsl((long double)got - ref) / ulp);
}

/* test_mvec_ulp.c's inputs: specials (all pairs for two arguments), the
 * dense sweep, random binades, specials again. */
static long make_inputs(const struct func *fn, bool f32, double *x,
                        double *y, long nsweep)
{
    long n = 0;
    for (int i = 0; i < NSPEC; i++)
        for (int j = 0; j < (fn->nargs == 2 ? NSPEC : 1); j++, n++)
            x[n] = specials[i], y[n] = fn->nargs == 2 ? specials[j] : 1;
    for (long i = 0; i < nsweep; i++, n++) {
        x[n] = fn->lo + (fn->hi - fn->lo) * (double)i / (double)nsweep;
        y[n] = fn->lo + (fn->hi - fn->lo) *
                            (double)(rng() % 100000) / 100000.0;
        if (strcmp(fn->name, "pow") == 0)
            y[n] = x[n] > 0 ? (double)(rng() % 800001) / 10000 - 40
                            : (double)(int64_t)(rng() % 80) / 4 - 10;
    }
    for (long i = 0; i < nsweep; i++, n++) {
        x[n] = random_binade(f32);
        y[n] = random_binade(f32);
        if (strcmp(fn->name, "pow") == 0 && (rng() & 1))
            x[n] = fabs(x[n]);
    }
    return n;
}

typedef struct result {
    double ns;               /* per element */
    double ulp_libm, ulp_ref; /* max */
    long nspecial;           /* special inputs differing from libm */
} result;

/* Runs variant v (ISA e for AVX-512) of function fn on dtype f32. */
static void measure(const struct func *fn, bool f32, bool e,
                    const variant *v, long nsweep, result *res)
{
    long cap = NSPEC * NSPEC + 2 * nsweep + 16;
    double *x = malloc((size_t)cap * sizeof *x);
    double *y = malloc((size_t)cap * sizeof *y);
    double *xd = malloc((size_t)cap * sizeof *xd);
    double *yd = malloc((size_t)cap * sizeof *yd);
    double *od = malloc((size_t)cap * sizeof *od);
    if (!x || !y || !xd || !yd || !od) {
        fprintf(stderr, "bench_vecmath: out of memory\n");
        exit(1);
    }
    float *xf = (float *)xd, *yf = (float *)yd, *of = (float *)od;
    rng_state = 0x9e3779b97f4a7c15u ^ (uint64_t)(fn - funcs) ^ f32;
    long n = make_inputs(fn, f32, x, y, nsweep);
    long lanes = (e ? 8 : 4) * (f32 ? 2 : 1);
    long padded = (n + lanes - 1) / lanes * lanes;
    for (long i = n; i < padded; i++)
        x[i] = y[i] = 1;
    for (long i = 0; i < padded; i++) {
        if (f32)
            xf[i] = (float)x[i], yf[i] = (float)y[i];
        else
            xd[i] = x[i], yd[i] = y[i];
    }
    loop64 l64 = fn->nargs == 2 ? (e ? e64_2 : d64_2) : (e ? e64_1 : d64_1);
    loop32 l32 = fn->nargs == 2 ? (e ? e32_2 : d32_2) : (e ? e32_1 : d32_1);
    if (f32)
        l32(v->fn, xf, yf, of, padded);
    else
        l64(v->fn, xd, yd, od, padded);
    memset(res, 0, sizeof *res);
    for (long i = 0; i < n; i++) {
        double got = f32 ? of[i] : od[i], want;
        long double ref;
        if (f32) {
            want = fn->nargs == 2 ? ((f32_2)fn->f)(xf[i], yf[i])
                                  : ((f32_1)fn->f)(xf[i]);
            ref = fn->nargs == 2 ? ((f64_2)fn->d)(xf[i], yf[i])
                                 : ((f64_1)fn->d)(xf[i]);
        } else {
            want = fn->nargs == 2 ? ((f64_2)fn->d)(x[i], y[i])
                                  : ((f64_1)fn->d)(x[i]);
            ref = fn->nargs == 2 ? ((fl_2)fn->l)(x[i], y[i])
                                 : ((fl_1)fn->l)(x[i]);
        }
        /* special inputs (a zero, an infinity, a NaN): the same bits */
        bool spec = is_special(x[i]) || (fn->nargs == 2 && is_special(y[i]));
        if (spec && !(isnan(want) && isnan(got)) &&
            memcmp(&want, &got, sizeof want) != 0) {
            res->nspecial++;
            continue;
        }
        double d = ulps_int(want, got, f32);
        if (d == HUGE_VAL) {
            res->nspecial++;
            continue;
        }
        if (d > res->ulp_libm)
            res->ulp_libm = d;
        /* the reference only where it is finite in the dtype: overflow
         * boundaries are libm's business */
        double r = ulps_ref(ref, got, f32);
        if (r != HUGE_VAL && r > res->ulp_ref)
            res->ulp_ref = r;
    }
    /* throughput: NTIME elements spread over the sweep's range, in L1
     * (pow: positive bases, its usual case; libmvec's pow takes a slow
     * path for a vector with a negative one) */
    long off = 0;
    for (long i = 0; i < NTIME; i++) {
        double t = fn->lo + (fn->hi - fn->lo) * ((double)i + 0.5) / NTIME;
        double u = fn->lo + (fn->hi - fn->lo) * (double)(rng() % 1000) / 1000;
        if (strcmp(fn->name, "pow") == 0)
            t = fabs(t), u = (double)(rng() % 8001) / 1000 - 4;
        if (f32)
            xf[i] = (float)t, yf[i] = (float)u;
        else
            xd[i] = t, yd[i] = u;
    }
    double best = HUGE_VAL;
    for (int r = 0; r < ROUNDS; r++) {
        double t0 = now();
        for (int k = 0; k < 8; k++) {
            if (f32)
                l32(v->fn, xf + off, yf + off, of + off, NTIME);
            else
                l64(v->fn, xd + off, yd + off, od + off, NTIME);
        }
        double t = (now() - t0) / (8.0 * NTIME);
        if (t < best)
            best = t;
    }
    res->ns = best * 1e9;
    free(x);
    free(y);
    free(xd);
    free(yd);
    free(od);
}

/* The variants of (function, dtype, ISA) found: libmvec's, SLEEF's most
 * precise and its 3.5-ulp one. Returns the count. */
static int find_variants(void *mvec, void *sleef, const struct func *fn,
                         bool f32, bool e, variant *out)
{
    int nv = 0, lanes = (e ? 8 : 4) * (f32 ? 2 : 1);
    variant *v = &out[nv];
    snprintf(v->symbol, sizeof v->symbol, "_ZGV%cN%d%s_%s%s", e ? 'e' : 'd',
             lanes, fn->nargs == 2 ? "vv" : "v", fn->name, f32 ? "f" : "");
    v->lib = "libmvec";
    if (mvec && (v->fn = (any_fn)dlsym(mvec, v->symbol)) != NULL)
        nv++;
    static const char *const precise[] = {"u10", "u05", "u15"};
    for (int p = 0; p < 4 && sleef; p++) {
        const char *prec = p < 3 ? precise[p] : "u35";
        v = &out[nv];
        snprintf(v->symbol, sizeof v->symbol, "Sleef_%s%s%d_%s%s", fn->name,
                 f32 ? "f" : "d", lanes, prec, e ? "avx512f" : "avx2");
        v->lib = p < 3 ? "SLEEF 1-ulp" : "SLEEF u35";
        if ((v->fn = (any_fn)dlsym(sleef, v->symbol)) != NULL) {
            nv++;
            if (p < 3)
                p = 2; /* the most precise found: on to u35 */
        }
    }
    return nv;
}

int main(int argc, char **argv)
{
    long nsweep = argc > 1 ? atol(argv[1]) : 20000;
    if (nsweep < NTIME)
        nsweep = NTIME;
    void *mvec = dlopen("libmvec.so.1", RTLD_NOW);
    void *sleef = dlopen("libsleef.so.3", RTLD_NOW);
    bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    bool avx512 = __builtin_cpu_supports("avx512f");
    printf("libmvec: %s; SLEEF: %s; AVX2 %s, AVX-512 %s\n\n",
           mvec ? "libmvec.so.1" : "missing",
           sleef ? "libsleef.so.3" : "missing (install libsleef3)",
           avx2 ? "yes" : "no", avx512 ? "yes" : "no");
    printf("| function | dtype | ISA | library | symbol | ns/elem | vs libmvec "
           "| max ulp vs libm | max ulp vs reference | specials differing "
           "|\n|---|---|---|---|---|---|---|---|---|---|\n");
    for (int f = 0; f < NFUNCS; f++)
        for (int f32 = 0; f32 < 2; f32++)
            for (int e = 0; e < 2; e++) {
                if (!(e ? avx512 : avx2))
                    continue;
                variant vs[4];
                int nv = find_variants(mvec, sleef, &funcs[f], f32, e, vs);
                double base = 0;
                for (int k = 0; k < nv; k++) {
                    result r;
                    measure(&funcs[f], f32, e, &vs[k], nsweep, &r);
                    if (strcmp(vs[k].lib, "libmvec") == 0)
                        base = r.ns;
                    printf("| %s | %s | %s | %s | `%s` | %.3f | %s%.2fx | "
                           "%.0f | %.2f | %ld |\n",
                           funcs[f].name, f32 ? "float32" : "float64",
                           e ? "AVX-512" : "AVX2", vs[k].lib, vs[k].symbol,
                           r.ns, base > 0 ? "" : "(no libmvec) ",
                           base > 0 ? base / r.ns : 0, r.ulp_libm, r.ulp_ref,
                           r.nspecial);
                    fflush(stdout);
                }
            }
    return 0;
}
