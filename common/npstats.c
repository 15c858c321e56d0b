/* np.histogram for kernels (npstats.h): Numba's two algorithms, equal
 * bins by arithmetic and given edges by bisection, with Numba's
 * operations in Numba's types. */
#include <math.h>
#include <stdbool.h>
#include <string.h>
#if defined(__SSE2__) && defined(__x86_64__)
#include <emmintrin.h>
#endif

#include <ufjit/dtype.h>

#include "common/alloc.h"
#include "common/npstats.h"

/* The type Numba computes a binary operation of two numbers in, as far as
 * the results can differ: int64 (wrapping), uint64, float32, float64. */
typedef enum arith { K_I64, K_U64, K_F32, K_F64 } arith;

static bool small_int(int32_t dt) /* exact in float32; float32 with it */
{
    return dt == UF_BOOL || dt == UF_INT8 || dt == UF_UINT8 ||
           dt == UF_INT16 || dt == UF_UINT16;
}

static bool unsigned_int(int32_t dt)
{
    return dt == UF_BOOL || dt == UF_UINT8 || dt == UF_UINT16 ||
           dt == UF_UINT32 || dt == UF_UINT64;
}

static arith promote(int32_t a, int32_t b)
{
    bool fa = a == UF_FLOAT32 || a == UF_FLOAT64;
    bool fb = b == UF_FLOAT32 || b == UF_FLOAT64;
    if (!fa && !fb) {
        if (a != UF_UINT64 && b != UF_UINT64)
            return K_I64;
        return unsigned_int(a) && unsigned_int(b) ? K_U64 : K_F64;
    }
    if (a == UF_FLOAT64 || b == UF_FLOAT64)
        return K_F64;
    /* float32 with float32 or a small integer stays float32 */
    return (a == UF_FLOAT32 || small_int(a)) &&
                   (b == UF_FLOAT32 || small_int(b))
               ? K_F32
               : K_F64;
}

/* A number in both forms: f its float64 value, i its integer bits
 * (int64, or uint64 for UF_UINT64). */
typedef struct num {
    double f;
    int64_t i;
} num;

static num load(const char *p, int32_t dt)
{
    num r = {0.0, 0};
    switch (dt) {
#define UF__LOAD(e, ctype)                                                  \
    case UF_##e: {                                                          \
        ctype v;                                                            \
        memcpy(&v, p, sizeof v);                                            \
        r.f = (double)v;                                                    \
        r.i = (int64_t)v;                                                   \
        return r;                                                           \
    }
        UF__LOAD(BOOL, bool)
        UF__LOAD(INT8, int8_t)
        UF__LOAD(UINT8, uint8_t)
        UF__LOAD(INT16, int16_t)
        UF__LOAD(UINT16, uint16_t)
        UF__LOAD(INT32, int32_t)
        UF__LOAD(UINT32, uint32_t)
        UF__LOAD(INT64, int64_t)
#undef UF__LOAD
    case UF_UINT64: {
        uint64_t v;
        memcpy(&v, p, sizeof v);
        r.f = (double)v;
        r.i = (int64_t)v;
        return r;
    }
    case UF_FLOAT32: {
        float v;
        memcpy(&v, p, sizeof v);
        r.f = (double)v;
        return r;
    }
    default:
        memcpy(&r.f, p, sizeof r.f);
        return r;
    }
}

static num end_num(const uf__hist_end *e)
{
    num r = {e->f, e->i};
    if (e->dt == UF_FLOAT32 || e->dt == UF_FLOAT64)
        r.i = 0;
    else
        r.f = e->dt == UF_UINT64 ? (double)(uint64_t)e->i : (double)e->i;
    return r;
}

/* x - y in type k, as float64. */
static double sub(num x, num y, arith k)
{
    switch (k) {
    case K_I64:
        return (double)(int64_t)((uint64_t)x.i - (uint64_t)y.i);
    case K_U64:
        return (double)((uint64_t)x.i - (uint64_t)y.i);
    case K_F32:
        return (double)((float)x.f - (float)y.f);
    default:
        return x.f - y.f;
    }
}

/* -1, 0 or 1 as x <, ==, > y in type k; 2 unordered (NaN). */
static int cmp(num x, num y, arith k)
{
    switch (k) {
    case K_I64:
        return x.i < y.i ? -1 : x.i > y.i;
    case K_U64:
        return (uint64_t)x.i < (uint64_t)y.i ? -1
                                             : (uint64_t)x.i > (uint64_t)y.i;
    default:
        return x.f < y.f ? -1 : x.f > y.f ? 1 : x.f == y.f ? 0 : 2;
    }
}

/* Calls row(ctx, p, n, stride, dt) on each row (the last dimension) of
 * the array in C order; a 0-d array is one row of one element. */
typedef void (*row_fn)(void *ctx, const char *p, int64_t n, int64_t stride,
                       int32_t dt);

static void each_row(const char *data, int64_t nd, const int64_t *shape,
                     const int64_t *strides, int32_t dt, row_fn row,
                     void *ctx)
{
    if (nd == 0) {
        row(ctx, data, 1, 0, dt);
        return;
    }
    for (int64_t k = 0; k < nd; k++)
        if (shape[k] == 0)
            return;
    int64_t idx[64] = {0};
    int64_t outer = nd - 1;
    for (;;) {
        const char *p = data;
        for (int64_t k = 0; k < outer; k++)
            p += idx[k] * strides[k];
        row(ctx, p, shape[outer], strides[outer], dt);
        int64_t k = outer - 1;
        while (k >= 0 && ++idx[k] == shape[k])
            idx[k--] = 0;
        if (k < 0)
            return;
    }
}

typedef struct minmax {
    double lo, hi;
} minmax;

static void minmax_row(void *ctx, const char *p, int64_t n, int64_t stride,
                       int32_t dt)
{
    minmax *m = ctx;
    double lo = m->lo, hi = m->hi;
    switch (dt) {
#define UF__MINMAX(e, ctype)                                                \
    case UF_##e:                                                            \
        for (int64_t j = 0; j < n; j++, p += stride) {                      \
            ctype x;                                                        \
            memcpy(&x, p, sizeof x);                                        \
            double v = (double)x;                                           \
            lo = lo > v ? v : lo;                                           \
            hi = hi < v ? v : hi;                                           \
        }                                                                   \
        break;
        UF__MINMAX(BOOL, bool)
        UF__MINMAX(INT8, int8_t)
        UF__MINMAX(UINT8, uint8_t)
        UF__MINMAX(INT16, int16_t)
        UF__MINMAX(UINT16, uint16_t)
        UF__MINMAX(INT32, int32_t)
        UF__MINMAX(UINT32, uint32_t)
        UF__MINMAX(INT64, int64_t)
        UF__MINMAX(UINT64, uint64_t)
        UF__MINMAX(FLOAT32, float)
        UF__MINMAX(FLOAT64, double)
#undef UF__MINMAX
    default:
        break;
    }
    m->lo = lo;
    m->hi = hi;
}

int uf__np_histogram_range(const char *data, int64_t nd,
                           const int64_t *shape, const int64_t *strides,
                           int32_t dt, int64_t bins, int32_t has_range,
                           uf__hist_end *range)
{
    if (!has_range) {
        minmax m = {INFINITY, -INFINITY};
        each_row(data, nd, shape, strides, dt, minmax_row, &m);
        range[0] = (uf__hist_end){m.lo, 0, UF_FLOAT64};
        range[1] = (uf__hist_end){m.hi, 0, UF_FLOAT64};
    }
    if (bins <= 0)
        return UF__NPSTATS_HIST_BINS;
    int c = cmp(end_num(&range[0]), end_num(&range[1]),
                promote(range[0].dt, range[1].dt));
    return c == -1 || c == 0 ? 0 : UF__NPSTATS_HIST_RANGE;
}

typedef struct equal_bins {
    num lo, hi;
    int32_t lo_dt, hi_dt;
    double ratio;
    int64_t bins, *hist;
} equal_bins;

/* trunc(b) as an unsigned bin index for b >= 0.0: NaN and b >= 2^63 give
 * 2^63 (x86-64's cvttsd2si, without C's undefined conversion), past any
 * bin count. */
static inline uint64_t bin_of(double b)
{
#if defined(__SSE2__) && defined(__x86_64__)
    return (uint64_t)_mm_cvttsd_si64(_mm_set_sd(b));
#else
    return b < 9223372036854775808.0 ? (uint64_t)b : UINT64_MAX;
#endif
}

#if defined(__SSE2__) && defined(__x86_64__) && defined(__GNUC__)
/* The contiguous float64 loop with SSE4.1's rounding instruction, where
 * the CPU has it: floor and one unsigned comparison, Numba's loop (10%
 * faster again than the one below). */
__attribute__((target("sse4.1"))) static void
equal_f64_sse41(const double *a, int64_t n, double lo, double hi,
                double ratio, int64_t bins, int64_t *hist)
{
    for (int64_t j = 0; j < n; j++) {
        double v = a[j];
        uint64_t i = bin_of(floor((v - lo) * ratio));
        if (i < (uint64_t)bins)
            hist[i]++;
        else if (v == hi)
            hist[bins - 1]++;
    }
}
#define UF__HIST_SSE41 1
#else
#define UF__HIST_SSE41 0
#endif

/* Numba's loop body: b = floor((v - lo) * ratio) counts when 0 <= b <
 * bins (its int64 conversion of NaN or a huge b is out of that range on
 * x86-64, as the comparison in float64 is), else v == hi in the last.
 * For b >= 0, floor(b) is trunc(b) (no call of floor: baseline x86-64 has
 * no rounding instruction), compared as an integer: 20% faster than a
 * second float comparison. */
static void equal_row(void *ctx, const char *p, int64_t n, int64_t stride,
                      int32_t dt)
{
    equal_bins *e = ctx;
    int64_t *hist = e->hist, bins = e->bins;
    double fb = (double)bins, ratio = e->ratio;
    arith ks = promote(dt, e->lo_dt), kc = promote(dt, e->hi_dt);
    if (ks == K_F64 && kc == K_F64) { /* v, lo and hi as float64 */
        double lo = e->lo.f, hi = e->hi.f;
        if (dt == UF_FLOAT64 && stride == (int64_t)sizeof(double)) {
            const double *a = (const double *)(const void *)p;
#if UF__HIST_SSE41
            if (__builtin_cpu_supports("sse4.1")) {
                equal_f64_sse41(a, n, lo, hi, ratio, bins, hist);
                return;
            }
#endif
            for (int64_t j = 0; j < n; j++) {
                double v = a[j], b = (v - lo) * ratio;
                uint64_t i = bin_of(b);
                if (b >= 0.0 && i < (uint64_t)bins)
                    hist[i]++;
                else if (v == hi)
                    hist[bins - 1]++;
            }
            return;
        }
        switch (dt) {
#define UF__EQUAL(e, ctype)                                                 \
    case UF_##e:                                                            \
        for (int64_t j = 0; j < n; j++, p += stride) {                      \
            ctype x;                                                        \
            memcpy(&x, p, sizeof x);                                        \
            double v = (double)x, b = (v - lo) * ratio;                     \
            uint64_t i = bin_of(b);                                         \
            if (b >= 0.0 && i < (uint64_t)bins)                             \
                hist[i]++;                                                  \
            else if (v == hi)                                               \
                hist[bins - 1]++;                                           \
        }                                                                   \
        return;
            UF__EQUAL(BOOL, bool)
            UF__EQUAL(INT8, int8_t)
            UF__EQUAL(UINT8, uint8_t)
            UF__EQUAL(INT16, int16_t)
            UF__EQUAL(UINT16, uint16_t)
            UF__EQUAL(INT32, int32_t)
            UF__EQUAL(UINT32, uint32_t)
            UF__EQUAL(INT64, int64_t)
            UF__EQUAL(UINT64, uint64_t)
            UF__EQUAL(FLOAT32, float)
            UF__EQUAL(FLOAT64, double)
#undef UF__EQUAL
        default:
            break;
        }
    }
    for (int64_t j = 0; j < n; j++, p += stride) {
        num v = load(p, dt);
        double b = sub(v, e->lo, ks) * ratio;
        if (b >= 0.0 && b < fb)
            hist[(int64_t)b]++;
        else if (cmp(v, e->hi, kc) == 0)
            hist[bins - 1]++;
    }
}

void uf__np_histogram_fill(const char *data, int64_t nd,
                           const int64_t *shape, const int64_t *strides,
                           int32_t dt, int64_t bins, const uf__hist_end *range,
                           int64_t *hist, double *edges)
{
    num lo = end_num(&range[0]), hi = end_num(&range[1]);
    arith kr = promote(range[0].dt, range[1].dt);
    memset(hist, 0, (size_t)bins * sizeof *hist);
    if (cmp(hi, lo, kr) == 1) {
        equal_bins e = {lo, hi, range[0].dt, range[1].dt,
                        (double)bins / sub(hi, lo, kr), bins, hist};
        each_row(data, nd, shape, strides, dt, equal_row, &e);
    }
    /* np.linspace(lo, hi, bins + 1): start + i * step, the last is stop */
    double step = (hi.f - lo.f) / (double)bins;
    for (int64_t i = 0; i < bins; i++)
        edges[i] = lo.f + (double)i * step;
    edges[bins] = hi.f;
}

int uf__np_histogram_check_edges(const char *edges, int64_t n,
                                 int64_t estride, int32_t edt)
{
    if (n == 0)
        return UF__NPSTATS_HIST_NOEDGES;
    arith k = promote(edt, edt);
    num prev = load(edges, edt);
    for (int64_t i = 1; i < n; i++) {
        num x = load(edges + i * estride, edt);
        int c = cmp(prev, x, k);
        if (c != -1 && c != 0) /* `not bins[i] <= bins[i + 1]`: NaN too */
            return UF__NPSTATS_HIST_EDGES;
        prev = x;
    }
    return 0;
}

typedef struct given_bins {
    const char *edges;
    int64_t nbins, estride;
    int32_t edt;
    num lo, hi;
    int64_t *hist;
} given_bins;

static void given_row(void *ctx, const char *p, int64_t n, int64_t stride,
                      int32_t dt)
{
    given_bins *g = ctx;
    arith k = promote(dt, g->edt);
    if (dt == UF_FLOAT64 && g->edt == UF_FLOAT64) {
        /* the same bin without branches: the last edge <= v among the
         * nbins first (they increase), found by halving */
        double lo = g->lo.f, hi = g->hi.f;
        const char *edges = g->edges;
        int64_t es = g->estride, nb = g->nbins;
        for (int64_t j = 0; j < n; j++, p += stride) {
            double v;
            memcpy(&v, p, sizeof v);
            if (!(lo <= v && v <= hi))
                continue;
            int64_t at = 0, len = nb;
            while (len > 1) {
                int64_t half = len >> 1;
                double x;
                memcpy(&x, edges + (at + half) * es, sizeof x);
                at += x <= v ? half : 0;
                len -= half;
            }
            g->hist[at]++;
        }
        return;
    }
    for (int64_t j = 0; j < n; j++, p += stride) {
        num v = load(p, dt);
        int c0 = cmp(g->lo, v, k), c1 = cmp(v, g->hi, k);
        if (!(c0 == -1 || c0 == 0) || !(c1 == -1 || c1 == 0))
            continue; /* outside, or NaN */
        /* Numba's bisection in edges[:-1] */
        int64_t lo = 0, hi = g->nbins - 1;
        while (lo < hi) {
            int64_t mid = (lo + hi + 1) >> 1;
            if (cmp(v, load(g->edges + mid * g->estride, g->edt), k) == -1)
                hi = mid - 1;
            else
                lo = mid;
        }
        g->hist[lo]++;
    }
}

void uf__np_histogram_edges(const char *data, int64_t nd,
                            const int64_t *shape, const int64_t *strides,
                            int32_t dt, const char *edges, int64_t n,
                            int64_t estride, int32_t edt, int64_t *hist)
{
    int64_t nbins = n - 1;
    memset(hist, 0, (size_t)nbins * sizeof *hist);
    if (nbins <= 0)
        return;
    given_bins g = {edges, nbins, estride, edt, load(edges, edt),
                    load(edges + nbins * estride, edt), hist};
    each_row(data, nd, shape, strides, dt, given_row, &g);
}

/* ---- np.cov and np.corrcoef: Numba's np_cov_impl_inner ----------------- */

/* A 2-D view (Numba's np.atleast_2d, maybe transposed). */
typedef struct view2 {
    const char *data;
    int64_t rows, cols, rs, cs;
    int32_t dt;
} view2;

static view2 atleast_2d(const char *data, int64_t nd, const int64_t *shape,
                        const int64_t *strides, int32_t dt)
{
    view2 v = {data, 1, 1, 0, 0, dt};
    if (nd == 1) {
        v.cols = shape[0];
        v.cs = strides[0];
    } else if (nd == 2) {
        v.rows = shape[0];
        v.cols = shape[1];
        v.rs = strides[0];
        v.cs = strides[1];
    }
    return v;
}

static view2 transpose(view2 v)
{
    view2 t = {v.data, v.cols, v.rows, v.cs, v.rs, v.dt};
    return t;
}

/* X's parts (Numba's _prepare_cov_input): m and y as rows of
 * variables. */
static int prepare(const char *m_data, int64_t m_nd, const int64_t *m_shape,
                   const int64_t *m_strides, int32_t m_dt,
                   const char *y_data, int64_t y_nd, const int64_t *y_shape,
                   const int64_t *y_strides, int32_t y_dt, int32_t flags,
                   view2 *mv, view2 *yv)
{
    bool rowvar = flags & UF__COV_ROWVAR;
    *mv = atleast_2d(m_data, m_nd, m_shape, m_strides, m_dt);
    yv->rows = 0;
    yv->cols = mv->cols;
    if (y_data == NULL) {
        if (!rowvar)
            *mv = transpose(*mv);
        yv->cols = mv->cols;
        return 0;
    }
    *yv = atleast_2d(y_data, y_nd, y_shape, y_strides, y_dt);
    if (!rowvar) { /* as NumPy: not a (1, n) one */
        if (mv->rows != 1)
            *mv = transpose(*mv);
        if (yv->rows != 1)
            *yv = transpose(*yv);
    }
    return mv->cols != yv->cols ? UF__NPSTATS_COV_DIMS : 0;
}

int uf__np_cov_check(const char *m_data, int64_t m_nd, const int64_t *m_shape,
                     const int64_t *m_strides, int32_t m_dt,
                     const char *y_data, int64_t y_nd, const int64_t *y_shape,
                     const int64_t *y_strides, int32_t y_dt, int32_t flags,
                     double ddof_f, int64_t *nvars)
{
    if (m_nd == 2 && m_shape[0] == 1)
        return UF__NPSTATS_COV_ONE_ROW;
    if (flags & UF__COV_DDOF_REAL) {
        if (!isfinite(ddof_f))
            return UF__NPSTATS_COV_DDOF_INF;
        if (ddof_f - trunc(ddof_f) != 0)
            return UF__NPSTATS_COV_DDOF_FRAC;
    }
    view2 mv, yv;
    int st = prepare(m_data, m_nd, m_shape, m_strides, m_dt, y_data, y_nd,
                     y_shape, y_strides, y_dt, flags, &mv, &yv);
    *nvars = mv.rows + yv.rows;
    return st;
}

typedef struct cplx {
    double re, im;
} cplx;

static cplx load_c(const char *p, int32_t dt)
{
    cplx r = {0.0, 0.0};
    if (dt == UF_COMPLEX64) {
        float v[2];
        memcpy(v, p, sizeof v);
        r.re = v[0];
        r.im = v[1];
    } else if (dt == UF_COMPLEX128) {
        memcpy(&r, p, sizeof r);
    } else {
        r.re = load(p, dt).f;
    }
    return r;
}

/* Rows of v into x (row-major, ncols per row, complex pairs when cx). */
static void copy_rows(const view2 *v, double *x, bool cx)
{
    for (int64_t i = 0; i < v->rows; i++)
        for (int64_t k = 0; k < v->cols; k++) {
            cplx c = load_c(v->data + i * v->rs + k * v->cs, v->dt);
            if (cx) {
                x[2 * (i * v->cols + k)] = c.re;
                x[2 * (i * v->cols + k) + 1] = c.im;
            } else {
                x[i * v->cols + k] = c.re;
            }
        }
}

/* Numba's ufunc division of complex numbers (npyfuncs.py, Smith's). */
static cplx cdiv_ufunc(cplx a, cplx b)
{
    cplx r;
    double br = fabs(b.re), bi = fabs(b.im);
    if (br >= bi) {
        if (br == 0.0 && bi == 0.0) {
            r.re = a.re / br;
            r.im = a.im / bi;
            return r;
        }
        double rat = b.im / b.re, scl = 1.0 / (b.re + b.im * rat);
        r.re = (a.re + a.im * rat) * scl;
        r.im = (a.im - a.re * rat) * scl;
        return r;
    }
    double rat = b.re / b.im, scl = 1.0 / (b.im + b.re * rat);
    r.re = (a.re * rat + a.im) * scl;
    r.im = (a.im * rat - a.re) * scl;
    return r;
}

static double clip1(double x)
{
    if (fabs(x) > 1)
        return x > 0 ? 1.0 : x < 0 ? -1.0 : x;
    return x;
}

/* np.cov into c (nv x nv) from x (nv x n, de-meaned here). */
static void cov_of(double *x, int64_t nv, int64_t n, bool cx, double fact,
                   double *c)
{
    double inv = 1.0 / fact; /* np.true_divide(1, fact) */
    for (int64_t i = 0; i < nv; i++) {
        /* row_wise_average: a sequential sum over n */
        if (cx) {
            double *r = x + 2 * i * n, sr = 0.0, si = 0.0, fn = (double)n;
            for (int64_t k = 0; k < n; k++) {
                sr += r[2 * k];
                si += r[2 * k + 1];
            }
            /* Numba's scalar complex / int: CPython's _Py_c_quot with
             * b = n + 0j */
            double rat = 0.0 / fn, den = fn + 0.0 * rat;
            double mr = (sr + si * rat) / den, mi = (si - sr * rat) / den;
            for (int64_t k = 0; k < n; k++) {
                r[2 * k] -= mr;
                r[2 * k + 1] -= mi;
            }
        } else {
            double *r = x + i * n, s = 0.0;
            for (int64_t k = 0; k < n; k++)
                s += r[k];
            double mean = s / (double)n;
            for (int64_t k = 0; k < n; k++)
                r[k] -= mean;
        }
    }
    for (int64_t i = 0; i < nv; i++)
        for (int64_t j = 0; j < nv; j++) {
            if (cx) { /* X @ conj(X.T), then * (inv + 0j) */
                const double *a = x + 2 * i * n, *b = x + 2 * j * n;
                double sr = 0.0, si = 0.0;
                for (int64_t k = 0; k < n; k++) {
                    sr += a[2 * k] * b[2 * k] + a[2 * k + 1] * b[2 * k + 1];
                    si += a[2 * k + 1] * b[2 * k] - a[2 * k] * b[2 * k + 1];
                }
                c[2 * (i * nv + j)] = sr * inv - si * 0.0;
                c[2 * (i * nv + j) + 1] = sr * 0.0 + si * inv;
            } else {
                const double *a = x + i * n, *b = x + j * n;
                double s = 0.0;
                for (int64_t k = 0; k < n; k++)
                    s += a[k] * b[k];
                c[i * nv + j] = s * inv;
            }
        }
}

/* np.corrcoef from the covariances c (nv x nv), in place: Numba's loop
 * `c[i, :] /= stddev; c[:, i] /= stddev`, then the clip. */
static void corr_of(double *c, int64_t nv, bool cx, double *sd)
{
    for (int64_t i = 0; i < nv; i++)
        sd[i] = sqrt(c[(cx ? 2 : 1) * (i * nv + i)]);
    for (int64_t i = 0; i < nv; i++) {
        for (int64_t pass = 0; pass < 2; pass++)
            for (int64_t j = 0; j < nv; j++) {
                int64_t at = pass == 0 ? i * nv + j : j * nv + i;
                if (cx) {
                    cplx a = {c[2 * at], c[2 * at + 1]};
                    cplx b = {sd[j], 0.0};
                    cplx q = cdiv_ufunc(a, b);
                    c[2 * at] = q.re;
                    c[2 * at + 1] = q.im;
                } else {
                    c[at] /= sd[j];
                }
            }
    }
    for (int64_t at = 0; at < nv * nv; at++) {
        if (cx) { /* real + 1j * imag, in Numba's complex arithmetic */
            double rc = clip1(c[2 * at]), ic = clip1(c[2 * at + 1]);
            double tr = 0.0 * ic - 1.0 * 0.0, ti = 0.0 * 0.0 + 1.0 * ic;
            c[2 * at] = rc + tr;
            c[2 * at + 1] = 0.0 + ti;
        } else {
            c[at] = clip1(c[at]);
        }
    }
}

int uf__np_cov(const char *m_data, int64_t m_nd, const int64_t *m_shape,
               const int64_t *m_strides, int32_t m_dt, const char *y_data,
               int64_t y_nd, const int64_t *y_shape, const int64_t *y_strides,
               int32_t y_dt, int32_t flags, int64_t ddof_i, double ddof_f,
               int32_t corr, int32_t scalar, char *out)
{
    bool cx = flags & UF__COV_COMPLEX;
    view2 mv, yv;
    prepare(m_data, m_nd, m_shape, m_strides, m_dt, y_data, y_nd, y_shape,
            y_strides, y_dt, flags, &mv, &yv);
    int64_t nv = mv.rows + yv.rows, n = mv.cols, w = cx ? 2 : 1;
    double *o = (double *)(void *)out;
    if (nv == 0 || n == 0) { /* np.full(..., np.nan) */
        int64_t cnt = scalar ? 1 : nv * nv;
        for (int64_t i = 0; i < cnt; i++) {
            o[w * i] = NAN;
            if (cx)
                o[w * i + 1] = 0.0;
        }
        if (scalar && corr && cx) { /* (nan + 0j) / (nan + 0j) */
            cplx q = cdiv_ufunc((cplx){NAN, 0.0}, (cplx){NAN, 0.0});
            o[0] = q.re;
            o[1] = q.im;
        }
        return 0;
    }
    double ddof = flags & UF__COV_DDOF_INT    ? (double)ddof_i
                  : flags & UF__COV_DDOF_REAL ? ddof_f
                  : flags & UF__COV_BIAS      ? 0.0
                                              : 1.0;
    double fact = (double)n - ddof;
    if (flags & UF__COV_DDOF_INT) /* int - int, then max(fact, 0.0) */
        fact = (double)(n - ddof_i);
    fact = fact > 0.0 ? fact : 0.0;
    double *x = uf__malloc((size_t)(nv * n * w), sizeof *x, NULL);
    double *c = scalar ? uf__malloc((size_t)(nv * nv * w), sizeof *c, NULL)
                       : o;
    double *sd = corr && !scalar ? uf__malloc((size_t)nv, sizeof *sd, NULL)
                                 : NULL;
    if (x == NULL || c == NULL || (corr && !scalar && sd == NULL)) {
        uf__free(x);
        if (scalar)
            uf__free(c);
        uf__free(sd);
        return UF__NPSTATS_NOMEM;
    }
    copy_rows(&mv, x, cx);
    copy_rows(&yv, x + mv.rows * n * w, cx);
    cov_of(x, nv, n, cx, fact, c);
    if (scalar) {
        o[0] = c[0];
        if (cx)
            o[1] = c[1];
        if (corr) { /* c / c */
            if (cx) {
                cplx v = {c[0], c[1]}, q = cdiv_ufunc(v, v);
                o[0] = q.re;
                o[1] = q.im;
            } else {
                o[0] = c[0] / c[0];
            }
        }
        uf__free(c);
    } else if (corr) {
        corr_of(c, nv, cx, sd);
    }
    uf__free(x);
    uf__free(sd);
    return 0;
}
