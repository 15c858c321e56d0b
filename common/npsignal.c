/* np.convolve and np.correlate for kernels (npsignal.h): both operands
 * are first copied into contiguous buffers of the type the products are
 * computed in (the longer one first, the shorter reversed for a
 * convolution, v conjugated for a correlation), then each output is one
 * inner product over the overlap. Compiled as ISO C (-ffp-contract=off):
 * no fused multiply-adds. */
#include <complex.h>
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include <ufjit/dtype.h>

#include "common/alloc.h"
#include "common/npsignal.h"

int64_t uf__np_correlate_len(int64_t na, int64_t nv, int mode)
{
    int64_t n1 = na > nv ? na : nv, n = na > nv ? nv : na;
    return mode == UF__NPSIGNAL_VALID ? n1 - n + 1
           : mode == UF__NPSIGNAL_SAME ? n1
                                       : n1 + n - 1;
}

/* The element at p of dtype dt as a complex number (re, im), and its
 * bits as a wrapping 64-bit integer (integers and bools only). */
static void load_c(const char *p, int32_t dt, double *re, double *im)
{
    *im = 0.0;
    switch (dt) {
#define LOAD(e, ctype)                                                      \
    case UF_##e: {                                                          \
        ctype x;                                                            \
        memcpy(&x, p, sizeof x);                                            \
        *re = (double)x;                                                    \
        return;                                                             \
    }
        LOAD(BOOL, bool)
        LOAD(INT8, int8_t)
        LOAD(UINT8, uint8_t)
        LOAD(INT16, int16_t)
        LOAD(UINT16, uint16_t)
        LOAD(INT32, int32_t)
        LOAD(UINT32, uint32_t)
        LOAD(INT64, int64_t)
        LOAD(UINT64, uint64_t)
        LOAD(FLOAT32, float)
        LOAD(FLOAT64, double)
#undef LOAD
    case UF_COMPLEX64: {
        float x[2];
        memcpy(x, p, sizeof x);
        *re = x[0];
        *im = x[1];
        return;
    }
    default: {
        double x[2];
        memcpy(x, p, sizeof x);
        *re = x[0];
        *im = x[1];
        return;
    }
    }
}

static uint64_t load_u(const char *p, int32_t dt)
{
    switch (dt) {
#define LOAD(e, ctype)                                                      \
    case UF_##e: {                                                          \
        ctype x;                                                            \
        memcpy(&x, p, sizeof x);                                            \
        return (uint64_t)x;                                                 \
    }
        LOAD(BOOL, bool)
        LOAD(INT8, int8_t)
        LOAD(UINT8, uint8_t)
        LOAD(INT16, int16_t)
        LOAD(UINT16, uint16_t)
        LOAD(INT32, int32_t)
        LOAD(UINT32, uint32_t)
        LOAD(INT64, int64_t)
#undef LOAD
    default: {
        uint64_t x;
        memcpy(&x, p, sizeof x);
        return x;
    }
    }
}

/* An integer sum into out[i] of dtype dto: Numba's casts (truncation to
 * the width, != 0 for bools; the only float result, of uint64 with a
 * signed integer, converts the signed int64 sum). */
static void store_u(char *out, int64_t i, int32_t dto, uint64_t s)
{
    switch (dto) {
#define STORE(e, ctype)                                                     \
    case UF_##e: {                                                          \
        ctype x = (ctype)s;                                                 \
        memcpy(out + i * (int64_t)sizeof x, &x, sizeof x);                  \
        return;                                                             \
    }
        STORE(INT8, int8_t)
        STORE(UINT8, uint8_t)
        STORE(INT16, int16_t)
        STORE(UINT16, uint16_t)
        STORE(INT32, int32_t)
        STORE(UINT32, uint32_t)
        STORE(INT64, int64_t)
        STORE(UINT64, uint64_t)
#undef STORE
    case UF_BOOL: {
        bool x = s != 0;
        memcpy(out + i, &x, 1);
        return;
    }
    default: {
        double x = (double)(int64_t)s;
        memcpy(out + i * 8, &x, 8);
        return;
    }
    }
}

/* The operands' geometry: out[pos(j)] = sum over t of ap1[s + t] *
 * ap2[t], s = j - nl, 0 <= t < n, 0 <= s + t < n1 (Numba's three loops
 * of _np_correlate_core in one). */
typedef struct geom {
    int64_t n1, n, nl, len;
    bool backwards;
} geom;

static int64_t lo_t(const geom *g, int64_t s)
{
    (void)g;
    return s < 0 ? -s : 0;
}

static int64_t hi_t(const geom *g, int64_t s)
{
    return g->n1 - s < g->n ? g->n1 - s : g->n;
}

static int64_t pos(const geom *g, int64_t j)
{
    return g->backwards ? g->len - 1 - j : j;
}

typedef double v4d __attribute__((vector_size(32)));
typedef float v8f __attribute__((vector_size(32)));

/* BLAS's dot: eight partial sums, then the rest one by one. */
#define DEFINE_DOT(NAME, T, V, W, ATTR)                                     \
    ATTR static T NAME(const T *x, const T *y, int64_t n)                   \
    {                                                                       \
        V s0 = {0}, s1 = {0};                                               \
        int64_t i = 0;                                                      \
        for (; i + 2 * W <= n; i += 2 * W) {                                \
            V a0, b0, a1, b1;                                               \
            memcpy(&a0, x + i, sizeof a0);                                  \
            memcpy(&b0, y + i, sizeof b0);                                  \
            memcpy(&a1, x + i + W, sizeof a1);                              \
            memcpy(&b1, y + i + W, sizeof b1);                              \
            s0 += a0 * b0;                                                  \
            s1 += a1 * b1;                                                  \
        }                                                                   \
        s0 += s1;                                                           \
        T s = 0;                                                            \
        for (int k = 0; k < W; k++)                                         \
            s += s0[k];                                                     \
        for (; i < n; i++)                                                  \
            s += x[i] * y[i];                                               \
        return s;                                                           \
    }
#define AVX2 __attribute__((target("avx2")))
DEFINE_DOT(dot_f64, double, v4d, 4, )
DEFINE_DOT(dot_f64_avx2, double, v4d, 4, AVX2)
DEFINE_DOT(dot_f32, float, v8f, 8, )
DEFINE_DOT(dot_f32_avx2, float, v8f, 8, AVX2)

/* The real dots, over the whole output. */
#define DEFINE_REAL(NAME, T, DOT, ATTR)                                     \
    ATTR static void NAME(const geom *g, const T *x, const T *y, T *out)    \
    {                                                                       \
        for (int64_t j = 0; j < g->len; j++) {                              \
            int64_t s = j - g->nl, t0 = lo_t(g, s), t1 = hi_t(g, s);        \
            out[pos(g, j)] = DOT(x + s + t0, y + t0, t1 - t0);              \
        }                                                                   \
    }
DEFINE_REAL(real_f64, double, dot_f64, )
DEFINE_REAL(real_f64_avx2, double, dot_f64_avx2, AVX2)
DEFINE_REAL(real_f32, float, dot_f32, )
DEFINE_REAL(real_f32_avx2, float, dot_f32_avx2, AVX2)

/* The complex dots (zdotu: no conjugation), x and y interleaved (re,
 * im); four partial sums of each part. */
#define DEFINE_CPLX(NAME, T)                                                \
    static void NAME(const geom *g, const T *x, const T *y, T *out)         \
    {                                                                       \
        for (int64_t j = 0; j < g->len; j++) {                              \
            int64_t s = j - g->nl, t0 = lo_t(g, s), t1 = hi_t(g, s);        \
            const T *p = x + 2 * (s + t0), *q = y + 2 * t0;                 \
            int64_t n = t1 - t0, i = 0;                                     \
            T re[4] = {0}, im[4] = {0};                                     \
            for (; i + 4 <= n; i += 4)                                      \
                for (int k = 0; k < 4; k++) {                               \
                    T a = p[2 * (i + k)], b = p[2 * (i + k) + 1];           \
                    T c = q[2 * (i + k)], d = q[2 * (i + k) + 1];           \
                    re[k] += a * c - b * d;                                 \
                    im[k] += a * d + b * c;                                 \
                }                                                           \
            T r = (re[0] + re[1]) + (re[2] + re[3]);                        \
            T m = (im[0] + im[1]) + (im[2] + im[3]);                        \
            for (; i < n; i++) {                                            \
                T a = p[2 * i], b = p[2 * i + 1];                           \
                T c = q[2 * i], d = q[2 * i + 1];                           \
                r += a * c - b * d;                                         \
                m += a * d + b * c;                                         \
            }                                                               \
            out[2 * pos(g, j)] = r;                                         \
            out[2 * pos(g, j) + 1] = m;                                     \
        }                                                                   \
    }
DEFINE_CPLX(cplx_f64, double)
DEFINE_CPLX(cplx_f32, float)

/* A float operand with an integer one: each product in T (dto), added
 * one by one into a float64 (complex128) sum, stored as T. */
#define DEFINE_MIX(NAME, T)                                                 \
    static void NAME(const geom *g, const T *x, const T *y, T *out,         \
                     bool cplx)                                             \
    {                                                                       \
        for (int64_t j = 0; j < g->len; j++) {                              \
            int64_t s = j - g->nl, t0 = lo_t(g, s), t1 = hi_t(g, s);        \
            double r = 0.0, m = 0.0;                                        \
            for (int64_t t = t0; t < t1; t++) {                             \
                if (!cplx) {                                                \
                    r += (double)(T)(x[s + t] * y[t]);                      \
                    continue;                                               \
                }                                                           \
                T a = x[2 * (s + t)], b = x[2 * (s + t) + 1];               \
                T c = y[2 * t], d = y[2 * t + 1];                           \
                r += (double)(T)(a * c - b * d);                            \
                m += (double)(T)(a * d + b * c);                            \
            }                                                               \
            int64_t o = pos(g, j);                                          \
            if (cplx) {                                                     \
                out[2 * o] = (T)r;                                          \
                out[2 * o + 1] = (T)m;                                      \
            } else {                                                        \
                out[o] = (T)r;                                              \
            }                                                               \
        }                                                                   \
    }
DEFINE_MIX(mix_f64, double)
DEFINE_MIX(mix_f32, float)

static bool is_float(int32_t dt)
{
    char k = uf_dtype_kind((uf_dtype)dt);
    return k == 'f' || k == 'c';
}

/* Copies n elements from src (stride st, dtype dt) into buf as T (two
 * per element when cplx), reversed (rev) and conjugated (conj). */
#define DEFINE_COPY(NAME, T)                                                \
    static void NAME(T *buf, const char *src, int64_t n, int64_t st,        \
                     int32_t dt, bool cplx, bool rev, bool conj)            \
    {                                                                       \
        for (int64_t i = 0; i < n; i++) {                                   \
            double re, im;                                                  \
            load_c(src + i * st, dt, &re, &im);                             \
            int64_t k = rev ? n - 1 - i : i;                                \
            if (cplx) {                                                     \
                buf[2 * k] = (T)re;                                         \
                buf[2 * k + 1] = conj ? -(T)im : (T)im;                     \
            } else {                                                        \
                buf[k] = (T)re;                                             \
            }                                                               \
        }                                                                   \
    }
DEFINE_COPY(copy_f64, double)
DEFINE_COPY(copy_f32, float)

/* A conversion of an integer element straight to float32 rounds once
 * (load_c's double is exact up to 2^53 only: int64 and uint64 go
 * directly). */
static void fix_wide_ints(float *buf, const char *src, int64_t n,
                          int64_t st, int32_t dt, bool cplx, bool rev)
{
    if (dt != UF_INT64 && dt != UF_UINT64)
        return;
    for (int64_t i = 0; i < n; i++) {
        uint64_t u = load_u(src + i * st, dt);
        float f = dt == UF_INT64 ? (float)(int64_t)u : (float)u;
        int64_t k = rev ? n - 1 - i : i;
        buf[cplx ? 2 * k : k] = f;
    }
}

int uf__np_correlate(const char *a, int64_t na, int64_t sa, int32_t dta,
                     const char *v, int64_t nv, int64_t sv, int32_t dtv,
                     int32_t how, char *out, int32_t dto)
{
    bool corr = how & UF__NPSIGNAL_CORRELATE;
    int mode = how >> 1;
    /* ap1, the longer (a when equal), and ap2 */
    bool swap = na < nv;
    const char *p1 = swap ? v : a, *p2 = swap ? a : v;
    int64_t n1 = swap ? nv : na, n = swap ? na : nv;
    int64_t s1 = swap ? sv : sa, s2 = swap ? sa : sv;
    int32_t d1 = swap ? dtv : dta, d2 = swap ? dta : dtv;
    bool rev2 = !corr;                      /* convolve: ap2 reversed */
    bool conj1 = corr && swap, conj2 = corr && !swap; /* v conjugated */
    geom g = {n1, n, 0, uf__np_correlate_len(na, nv, mode),
              corr && swap};
    g.nl = mode == UF__NPSIGNAL_VALID ? 0
           : mode == UF__NPSIGNAL_SAME ? n / 2
                                       : n - 1;
    bool fa = is_float(d1), fb = is_float(d2);
    if (!fa && !fb) { /* integers and bools */
        uint64_t *x = uf__malloc((size_t)(n1 + n), sizeof *x, NULL);
        if (x == NULL)
            return -1;
        uint64_t *y = x + n1;
        for (int64_t i = 0; i < n1; i++)
            x[i] = load_u(p1 + i * s1, d1);
        for (int64_t i = 0; i < n; i++)
            y[rev2 ? n - 1 - i : i] = load_u(p2 + i * s2, d2);
        for (int64_t j = 0; j < g.len; j++) {
            int64_t s = j - g.nl, t1 = hi_t(&g, s);
            uint64_t acc = 0;
            for (int64_t t = lo_t(&g, s); t < t1; t++)
                acc += x[s + t] * y[t];
            store_u(out, pos(&g, j), dto, acc);
        }
        uf__free(x);
        return 0;
    }
    bool cplx = uf_dtype_kind((uf_dtype)dto) == 'c';
    bool single = dto == UF_FLOAT32 || dto == UF_COMPLEX64;
    size_t w = cplx ? 2 : 1;
    bool avx2 = __builtin_cpu_supports("avx2");
    if (single) {
        float *x = uf__malloc((size_t)(n1 + n) * w, sizeof *x, NULL);
        if (x == NULL)
            return -1;
        float *y = x + (size_t)n1 * w;
        copy_f32(x, p1, n1, s1, d1, cplx, false, conj1);
        copy_f32(y, p2, n, s2, d2, cplx, rev2, conj2);
        fix_wide_ints(x, p1, n1, s1, d1, cplx, false);
        fix_wide_ints(y, p2, n, s2, d2, cplx, rev2);
        float *o = (float *)(void *)out;
        if (fa && fb)
            cplx ? cplx_f32(&g, x, y, o)
                 : avx2 ? real_f32_avx2(&g, x, y, o) : real_f32(&g, x, y, o);
        else
            mix_f32(&g, x, y, o, cplx);
        uf__free(x);
        return 0;
    }
    double *x = uf__malloc((size_t)(n1 + n) * w, sizeof *x, NULL);
    if (x == NULL)
        return -1;
    double *y = x + (size_t)n1 * w;
    copy_f64(x, p1, n1, s1, d1, cplx, false, conj1);
    copy_f64(y, p2, n, s2, d2, cplx, rev2, conj2);
    double *o = (double *)(void *)out;
    if (fa && fb)
        cplx ? cplx_f64(&g, x, y, o)
             : avx2 ? real_f64_avx2(&g, x, y, o) : real_f64(&g, x, y, o);
    else
        mix_f64(&g, x, y, o, cplx);
    uf__free(x);
    return 0;
}

/* n runs over 1 - m, 3 - m, ..., m - 1 (Numba's np.arange(1 - M, M, 2):
 * float64 for two of them, int64 for the others, the same values); each
 * expression as Numba's, left to right. */
int uf__np_window(int32_t which, int64_t m, double *out)
{
    const double pi = 3.141592653589793, d = (double)(m - 1);
    for (int64_t i = 0; i < m; i++) {
        double n = (double)(1 - m + 2 * i);
        switch (which) {
        case UF__NPSIGNAL_BARTLETT:
            out[i] = n <= 0 ? 1 + n / d : 1 - n / d;
            break;
        case UF__NPSIGNAL_BLACKMAN:
            out[i] = 0.42 + 0.5 * cos(pi * n / d) +
                     0.08 * cos(2.0 * pi * n / d);
            break;
        case UF__NPSIGNAL_HAMMING:
            out[i] = 0.54 + 0.46 * cos(pi * n / d);
            break;
        default:
            out[i] = 0.5 + 0.5 * cos(pi * n / d);
            break;
        }
    }
    return 0;
}

/* Chebyshev coefficients of exp(-x) I0(x) on [0, 8] and of exp(-x)
 * sqrt(x) I0(x) on (8, inf) (Cephes' i0.c, as NumPy and Numba use them). */
static const double i0a[30] = {
    -4.4153416464793395e-18, 3.3307945188222384e-17, -2.431279846547955e-16,
    1.715391285555133e-15, -1.1685332877993451e-14, 7.676185498604936e-14,
    -4.856446783111929e-13, 2.95505266312964e-12, -1.726826291441556e-11,
    9.675809035373237e-11, -5.189795601635263e-10, 2.6598237246823866e-09,
    -1.300025009986248e-08, 6.046995022541919e-08, -2.670793853940612e-07,
    1.1173875391201037e-06, -4.4167383584587505e-06, 1.6448448070728896e-05,
    -5.754195010082104e-05, 0.00018850288509584165, -0.0005763755745385824,
    0.0016394756169413357, -0.004324309995050576, 0.010546460394594998,
    -0.02373741480589947, 0.04930528423967071, -0.09490109704804764,
    0.17162090152220877, -0.3046826723431984, 0.6767952744094761,
};
static const double i0b[25] = {
    -7.233180487874754e-18, -4.830504485944182e-18, 4.46562142029676e-17,
    3.461222867697461e-17, -2.8276239805165836e-16, -3.425485619677219e-16,
    1.7725601330565263e-15, 3.8116806693526224e-15, -9.554846698828307e-15,
    -4.150569347287222e-14, 1.54008621752141e-14, 3.8527783827421426e-13,
    7.180124451383666e-13, -1.7941785315068062e-12, -1.3215811840447713e-11,
    -3.1499165279632416e-11, 1.1889147107846439e-11, 4.94060238822497e-10,
    3.3962320257083865e-09, 2.266668990498178e-08, 2.0489185894690638e-07,
    2.8913705208347567e-06, 6.889758346916825e-05, 0.0033691164782556943,
    0.8044904110141088,
};

/* Cephes' chbevl: the series of n coefficients at x, Clenshaw's
 * recurrence as Numba's _chbevl writes it. */
static double chbevl(double x, const double *v, int n)
{
    double b0 = v[0], b1 = 0.0, b2 = 0.0;
    for (int i = 1; i < n; i++) {
        b2 = b1;
        b1 = b0;
        b0 = x * b1 - b2 + v[i];
    }
    return 0.5 * (b0 - b2);
}

/* Numba's _i0: the modified Bessel function of order 0. */
static double i0(double x)
{
    if (x < 0)
        x = -x;
    if (x <= 8.0)
        return exp(x) * chbevl(0.5 * x - 2.0, i0a, 30);
    return exp(x) * chbevl(32.0 / x - 2.0, i0b, 25) / sqrt(x);
}

/* Numba's _i0n over n = 0 .. m - 1: ((n - alpha) / alpha) ** 2.0 is the
 * product LLVM makes of the pow, the rest as written. */
int uf__np_kaiser(int64_t m, double beta, double *out)
{
    const double alpha = (double)(m - 1) / 2.0, t = i0(beta);
    for (int64_t i = 0; i < m; i++) {
        double r = ((double)i - alpha) / alpha;
        out[i] = i0(beta * sqrt(1.0 - r * r)) / t;
    }
    return 0;
}
