/* np.interp for kernels (npnum.h). The table (xp, fp) is read once into
 * float64 (kept in place when it already is contiguous float64), the
 * slopes cached when there are no more of them than x points, as Numba
 * does; then one pass over x in C order. Numba's arithmetic is kept
 * operation by operation (no contraction into fused multiply-adds: this
 * file is compiled as ISO C, -ffp-contract=off), so results are Numba's
 * to the bit. */
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include <ufjit/dtype.h>

#include "common/alloc.h"
#include "common/npnum.h"

#define LIKELY_IN_CACHE 8 /* Numba's LIKELY_IN_CACHE_SIZE */

static inline int64_t search(double key, const double *arr, int64_t len,
                             int64_t guess)
{
    int64_t imin = 0, imax = len;
    if (key > arr[len - 1])
        return len;
    if (key < arr[0])
        return -1;
    if (len <= 4) { /* a linear search; key >= arr[0] */
        int64_t i = 1;
        while (i < len && key >= arr[i])
            i++;
        return i - 1;
    }
    if (guess > len - 3)
        guess = len - 3;
    if (guess < 1)
        guess = 1;
    /* the guess and its neighbours first, then a window of 8 */
    if (key < arr[guess]) {
        if (key >= arr[guess - 1])
            return guess - 1;
        imax = guess - 1;
        if (guess > LIKELY_IN_CACHE && key >= arr[guess - LIKELY_IN_CACHE])
            imin = guess - LIKELY_IN_CACHE;
    } else {
        if (key < arr[guess + 1])
            return guess;
        if (key < arr[guess + 2])
            return guess + 1;
        imin = guess + 2;
        if (guess < len - LIKELY_IN_CACHE - 1 &&
            key < arr[guess + LIKELY_IN_CACHE])
            imax = guess + LIKELY_IN_CACHE;
    }
    while (imin < imax) {
        int64_t imid = imin + ((imax - imin) >> 1);
        if (key >= arr[imid])
            imin = imid + 1;
        else
            imax = imid;
    }
    return imin - 1;
}

/* The same answer on a sorted table without NaN (where the guess cannot
 * change it), faster: the guess's interval, else a bisection without
 * branches (random points mispredict every step of Numba's). In
 * [-1, n - 1]: n - 1 above the table, which interpolates alike. */
static inline int64_t search_sorted(double key, const double *arr,
                                    int64_t n, int64_t guess)
{
    if (guess >= 0 && guess < n - 1 && arr[guess] <= key &&
        key < arr[guess + 1])
        return guess;
    int64_t lo = 0, len = n;
    while (len > 1) { /* arr[..lo) <= key < arr[lo + len..) */
        int64_t half = len >> 1;
        lo += arr[lo + half - 1] <= key ? half : 0;
        len -= half;
    }
    return lo + (arr[lo] <= key) - 1;
}

/* True when arr[0..n) is non-decreasing and holds no NaN. */
static bool is_sorted(const double *arr, int64_t n)
{
    bool ok = true;
    for (int64_t i = 0; i + 1 < n; i++)
        ok &= arr[i] <= arr[i + 1];
    return ok && !isnan(arr[0]);
}

int64_t uf__np_interp_search(double key, const double *arr, int64_t n,
                             int64_t guess)
{
    return search(key, arr, n, guess);
}

/* The element at p of dtype dt as float64 (np.asarray(x, np.float64)). */
static double as_f64(const char *p, int32_t dt)
{
    switch (dt) {
#define UF__AS_F64(e, ctype)                                                \
    case UF_##e: {                                                          \
        ctype v;                                                            \
        memcpy(&v, p, sizeof v);                                            \
        return (double)v;                                                   \
    }
        UF__AS_F64(BOOL, bool)
        UF__AS_F64(INT8, int8_t)
        UF__AS_F64(UINT8, uint8_t)
        UF__AS_F64(INT16, int16_t)
        UF__AS_F64(UINT16, uint16_t)
        UF__AS_F64(INT32, int32_t)
        UF__AS_F64(UINT32, uint32_t)
        UF__AS_F64(INT64, int64_t)
        UF__AS_F64(UINT64, uint64_t)
        UF__AS_F64(FLOAT32, float)
#undef UF__AS_F64
    default: {
        double v;
        memcpy(&v, p, sizeof v);
        return v;
    }
    }
}

/* ---- the real case: Numba's np_interp_impl_inner ------------------------ */

typedef struct rtab {
    const double *dx, *dy, *slopes; /* slopes NULL: computed per point */
    int64_t n;                      /* >= 2 */
    bool sorted;                    /* search_sorted will do */
} rtab;

static inline double interp_real(double x, const rtab *t, int64_t *guess)
{
    const double *dx = t->dx, *dy = t->dy;
    int64_t n = t->n;
    if (isnan(x))
        return x; /* the guess stays */
    int64_t j = t->sorted ? search_sorted(x, dx, n, *guess)
                          : search(x, dx, n, *guess);
    *guess = j;
    if (j == -1)
        return dy[0];
    if (j >= n - 1) /* above the table, or on its last point */
        return dy[j == n ? n - 1 : j];
    if (dx[j] == x) /* no non-finite slope where the point is exact */
        return dy[j];
    double slope = t->slopes ? t->slopes[j]
                             : (dy[j + 1] - dy[j]) / (dx[j + 1] - dx[j]);
    double r = slope * (x - dx[j]) + dy[j];
    if (isnan(r)) { /* NaN one way: try from the other end */
        r = slope * (x - dx[j + 1]) + dy[j + 1];
        if (isnan(r) && dy[j] == dy[j + 1])
            r = dy[j];
    }
    return r;
}

/* ---- the complex case: Numba's np_interp_impl_complex_inner ------------- */

/* Numba's `re + 1j * im` in complex128: the float64 re and im go through
 * complex multiplication and addition, which is not {re, im} when im is
 * not finite (0 * inf is NaN) or a zero is negative. */
static inline void make_complex(double re, double im, double *z)
{
    z[0] = re + (0.0 * im - 1.0 * 0.0);
    z[1] = 0.0 + (0.0 * 0.0 + 1.0 * im);
}

typedef struct ctab {
    const double *dx, *re, *im; /* fp as float64 parts */
    double *sre, *sim;          /* the cached slopes, or NULL */
    int64_t n;                  /* >= 2 */
    bool xp32, fp32;            /* xp float32, fp complex64 */
    bool sorted;                /* search_sorted will do */
} ctab;

/* a - b in the type Numba's subtraction has: float32 when both are */
static inline double sub_in(double a, double b, bool f32)
{
    return f32 ? (double)((float)a - (float)b) : a - b;
}

static void complex_slope(const ctab *t, int64_t j, double *re, double *im)
{
    double inv = 1.0 / sub_in(t->dx[j + 1], t->dx[j], t->xp32);
    double z[2];
    make_complex(sub_in(t->re[j + 1], t->re[j], t->fp32) * inv,
                 sub_in(t->im[j + 1], t->im[j], t->fp32) * inv, z);
    *re = z[0];
    *im = z[1];
}

/* One part (re or im) of the interpolation between j and j + 1. */
static inline double complex_part(double slope, double x, const ctab *t,
                                  const double *y, int64_t j, bool x32)
{
    bool f32 = x32 && t->xp32;
    double r = slope * sub_in(x, t->dx[j], f32) + y[j];
    if (isnan(r)) {
        r = slope * sub_in(x, t->dx[j + 1], f32) + y[j + 1];
        if (isnan(r) && y[j] == y[j + 1])
            r = y[j];
    }
    return r;
}

static void interp_complex(double x, const ctab *t, bool x32, int64_t *guess,
                           double *out)
{
    int64_t n = t->n;
    if (isnan(x)) {
        make_complex(x, 0.0, out);
        return;
    }
    int64_t j = t->sorted ? search_sorted(x, t->dx, n, *guess)
                          : search(x, t->dx, n, *guess);
    *guess = j;
    int64_t at = j == -1 ? 0 : j == n ? n - 1 : j;
    if (j == -1 || j >= n - 1 || t->dx[j] == x) {
        out[0] = t->re[at];
        out[1] = t->im[at];
        return;
    }
    double sre, sim;
    if (t->sre) {
        sre = t->sre[j];
        sim = t->sim[j];
    } else {
        complex_slope(t, j, &sre, &sim);
    }
    make_complex(complex_part(sre, x, t, t->re, j, x32),
                 complex_part(sim, x, t, t->im, j, x32), out);
}

/* ---- the pass over x ----------------------------------------------------- */

typedef struct xarr {
    const char *data;
    int64_t nd;
    const int64_t *shape, *strides;
    int32_t dt;
} xarr;

/* Calls BODY with double `xv` for each element of *X in C order, `k` its
 * flat index. */
#define FOR_EACH_X(X, BODY)                                                 \
    do {                                                                    \
        int64_t n_ = 1, idx_[64] = {0};                                     \
        for (int64_t d_ = 0; d_ < (X)->nd; d_++)                            \
            n_ *= (X)->shape[d_];                                           \
        int64_t len_ = (X)->nd ? (X)->shape[(X)->nd - 1] : 1;               \
        int64_t step_ = (X)->nd ? (X)->strides[(X)->nd - 1] : 0;            \
        int64_t k = 0;                                                      \
        for (int64_t done_ = 0; done_ < n_; done_ += len_) {                \
            const char *row_ = (X)->data;                                   \
            for (int64_t d_ = 0; d_ < (X)->nd - 1; d_++)                    \
                row_ += idx_[d_] * (X)->strides[d_];                        \
            if ((X)->dt == UF_FLOAT64) {                                    \
                for (int64_t i_ = 0; i_ < len_; i_++, k++) {                \
                    double xv;                                              \
                    memcpy(&xv, row_ + i_ * step_, sizeof xv);              \
                    BODY;                                                   \
                }                                                           \
            } else {                                                        \
                for (int64_t i_ = 0; i_ < len_; i_++, k++) {                \
                    double xv = as_f64(row_ + i_ * step_, (X)->dt);         \
                    BODY;                                                   \
                }                                                           \
            }                                                               \
            for (int64_t d_ = (X)->nd - 2; d_ >= 0; d_--) {                 \
                if (++idx_[d_] < (X)->shape[d_])                            \
                    break;                                                  \
                idx_[d_] = 0;                                               \
            }                                                               \
        }                                                                   \
    } while (0)

static int64_t count(int64_t nd, const int64_t *shape)
{
    int64_t n = 1;
    for (int64_t k = 0; k < nd; k++)
        n *= shape[k];
    return n;
}

int uf__np_interp(const char *x, int64_t xnd, const int64_t *xshape,
                  const int64_t *xstrides, int32_t xdt, int32_t xty,
                  const char *xp, int64_t nxp, int64_t sxp, int32_t xpdt,
                  const char *fp, int64_t nfp, int64_t sfp, int32_t fpdt,
                  char *out)
{
    if (nxp == 0)
        return UF__NPNUM_INTERP_EMPTY;
    if (nxp != nfp)
        return UF__NPNUM_INTERP_SIZE;
    const xarr X = {x, xnd, xshape, xstrides, xdt};
    int64_t lenx = count(xnd, xshape), n = nxp;
    bool cplx = uf_dtype_kind((uf_dtype)fpdt) == 'c';
    int64_t fsz = (int64_t)uf_dtype_itemsize((uf_dtype)fpdt);
    double *o = (double *)(void *)out;
    if (n == 1) { /* np.full(x.shape, fp[0]) */
        double v0 = cplx ? as_f64(fp, fpdt == UF_COMPLEX64 ? UF_FLOAT32
                                                            : UF_FLOAT64)
                         : as_f64(fp, fpdt);
        double v1 = cplx ? as_f64(fp + fsz / 2, fpdt == UF_COMPLEX64
                                                     ? UF_FLOAT32
                                                     : UF_FLOAT64)
                         : 0.0;
        for (int64_t k = 0; k < lenx; k++) {
            if (cplx) {
                o[2 * k] = v0;
                o[2 * k + 1] = v1;
            } else {
                o[k] = v0;
            }
        }
        return 0;
    }
    bool own_dx = !(xpdt == UF_FLOAT64 && sxp == 8);
    bool own_dy = cplx || !(fpdt == UF_FLOAT64 && sfp == 8);
    bool cache = n <= lenx; /* Numba's rule: few slopes, many points */
    size_t need = (size_t)((own_dx ? n : 0) + (own_dy ? (cplx ? 2 : 1) * n
                                                      : 0) +
                           (cache ? (cplx ? 2 : 1) * (n - 1) : 0));
    double *buf = NULL;
    if (need) {
        buf = uf__malloc(need, sizeof(double), NULL);
        if (!buf)
            return UF__NPNUM_NOMEM;
    }
    double *p = buf;
    const double *dx = (const double *)(const void *)xp;
    if (own_dx) {
        for (int64_t i = 0; i < n; i++)
            p[i] = as_f64(xp + i * sxp, xpdt);
        dx = p;
        p += n;
    }
    if (!cplx) {
        const double *dy = (const double *)(const void *)fp;
        if (own_dy) {
            for (int64_t i = 0; i < n; i++)
                p[i] = as_f64(fp + i * sfp, fpdt);
            dy = p;
            p += n;
        }
        rtab t = {dx, dy, NULL, n, false};
        if (cache) { /* the O(n) check pays only with many points */
            for (int64_t i = 0; i < n - 1; i++)
                p[i] = (dy[i + 1] - dy[i]) / (dx[i + 1] - dx[i]);
            t.slopes = p;
            t.sorted = is_sorted(dx, n);
        }
        int64_t guess = 0;
        FOR_EACH_X(&X, o[k] = interp_real(xv, &t, &guess));
    } else {
        int32_t part = fpdt == UF_COMPLEX64 ? UF_FLOAT32 : UF_FLOAT64;
        double *re = p, *im = p + n;
        for (int64_t i = 0; i < n; i++) {
            re[i] = as_f64(fp + i * sfp, part);
            im[i] = as_f64(fp + i * sfp + fsz / 2, part);
        }
        p += 2 * n;
        ctab t = {dx, re, im, NULL, NULL, n, xpdt == UF_FLOAT32,
                  fpdt == UF_COMPLEX64, false};
        if (cache) {
            t.sorted = is_sorted(dx, n);
            for (int64_t i = 0; i < n - 1; i++)
                complex_slope(&t, i, &p[i], &p[n - 1 + i]);
            t.sre = p;
            t.sim = p + n - 1;
        }
        bool x32 = xty == UF_FLOAT32;
        int64_t guess = 0;
        FOR_EACH_X(&X, interp_complex(xv, &t, x32, &guess, &o[2 * k]));
    }
    uf__free(buf);
    return 0;
}
