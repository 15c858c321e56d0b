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

/* ---- np.digitize: Numba's _monotonicity, then np.searchsorted ------------ */

/* Calls BODY with `px`, the address of each element of *X in C order, `k`
 * its flat index. */
#define FOR_EACH_XPTR(X, BODY)                                              \
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
            for (int64_t i_ = 0; i_ < len_; i_++, k++) {                    \
                const char *px = row_ + i_ * step_;                         \
                BODY;                                                       \
            }                                                               \
            for (int64_t d_ = (X)->nd - 2; d_ >= 0; d_--) {                 \
                if (++idx_[d_] < (X)->shape[d_])                            \
                    break;                                                  \
                idx_[d_] = 0;                                               \
            }                                                               \
        }                                                                   \
    } while (0)

/* An integer element as int64 (a float64 holding one, for tuples). */
static int64_t as_i64(const char *p, int32_t dt)
{
    switch (dt) {
#define UF__AS_I64(e, ctype)                                                \
    case UF_##e: {                                                          \
        ctype v;                                                            \
        memcpy(&v, p, sizeof v);                                            \
        return (int64_t)v;                                                  \
    }
        UF__AS_I64(BOOL, bool)
        UF__AS_I64(INT8, int8_t)
        UF__AS_I64(UINT8, uint8_t)
        UF__AS_I64(INT16, int16_t)
        UF__AS_I64(UINT16, uint16_t)
        UF__AS_I64(INT32, int32_t)
        UF__AS_I64(UINT32, uint32_t)
        UF__AS_I64(INT64, int64_t)
        UF__AS_I64(UINT64, uint64_t)
        UF__AS_I64(FLOAT32, float)
        UF__AS_I64(FLOAT64, double)
#undef UF__AS_I64
    default:
        return 0;
    }
}

static uint64_t as_u64(const char *p, int32_t dt)
{
    return (uint64_t)as_i64(p, dt);
}

/* Numba's less-than and less-or-equal of searchsorted: NaN sorts last
 * (key b NaN: everything is below it). */
#define F_LT(a, b) ((a) < (b) || (isnan(b) && !isnan(a)))
#define F_LE(a, b) (isnan(b) || (a) <= (b))
#define I_LT(a, b) ((a) < (b))
#define I_LE(a, b) ((a) <= (b))

#define DEFINE_DIGITIZE(NAME, T, READ, LT, LE)                              \
    /* 1 increasing (or all equal, or empty), -1 decreasing, 0 neither */   \
    static int NAME##_monotonic(const T *b, int64_t n)                      \
    {                                                                       \
        if (n == 0)                                                         \
            return 1;                                                       \
        T last = b[0];                                                      \
        int64_t i = 1;                                                      \
        while (i < n && b[i] == last)                                       \
            i++;                                                            \
        if (i == n)                                                         \
            return 1;                                                       \
        T next = b[i];                                                      \
        bool up = last < next;                                              \
        for (i = i + 1; i < n; i++) {                                       \
            last = next;                                                    \
            next = b[i];                                                    \
            if (up ? last > next : last < next)                             \
                return 0;                                                   \
        }                                                                   \
        return up ? 1 : -1;                                                 \
    }                                                                       \
    static int64_t NAME##_bisect(const T *b, T key, int64_t lo, int64_t hi, \
                                 bool left)                                 \
    {                                                                       \
        while (lo < hi) {                                                   \
            int64_t mid = lo + ((hi - lo) >> 1);                            \
            if (left ? LT(b[mid], key) : LE(b[mid], key))                   \
                lo = mid + 1;                                               \
            else                                                            \
                hi = mid;                                                   \
        }                                                                   \
        return lo;                                                          \
    }                                                                       \
    static int NAME##_digitize(const xarr *X, bool scalar, const char *bins, \
                               int64_t nb, int64_t sb, int32_t bdt,         \
                               bool right, int64_t *out)                    \
    {                                                                       \
        T *b = uf__malloc(nb ? (size_t)nb : 1, sizeof(T), NULL);            \
        if (!b)                                                             \
            return UF__NPNUM_NOMEM;                                         \
        for (int64_t i = 0; i < nb; i++)                                    \
            b[i] = READ(bins + i * sb, bdt);                                \
        int mono = NAME##_monotonic(b, nb);                                 \
        if (mono == 0) {                                                    \
            uf__free(b);                                                    \
            return UF__NPNUM_DIGITIZE_MONO;                                 \
        }                                                                   \
        for (int64_t i = 0, j = nb - 1; mono < 0 && i < j; i++, j--) {      \
            T t = b[i];                                                     \
            b[i] = b[j];                                                    \
            b[j] = t;                                                       \
        }                                                                   \
        /* right=False is searchsorted's side 'right' and the reverse */    \
        bool left = right;                                                  \
        int64_t base = mono < 0 ? nb : 0, sign = mono < 0 ? -1 : 1;         \
        if (scalar) {                                                       \
            out[0] = base + sign * NAME##_bisect(b, READ(X->data, X->dt),   \
                                                 0, nb, left);              \
            uf__free(b);                                                    \
            return 0;                                                       \
        }                                                                   \
        /* Numba's searchsorted of an array narrows from the previous key */ \
        T last = 0;                                                         \
        int64_t lo = 0, hi = nb;                                            \
        FOR_EACH_XPTR(X, {                                                  \
            T key = READ(px, X->dt);                                        \
            if (k == 0)                                                     \
                last = key;                                                 \
            if (left ? LT(last, key) : LE(last, key)) {                     \
                hi = nb;                                                    \
            } else {                                                        \
                lo = 0;                                                     \
                hi = hi < nb ? hi + 1 : nb;                                 \
            }                                                               \
            last = key;                                                     \
            lo = NAME##_bisect(b, key, lo, hi, left);                       \
            hi = lo;                                                        \
            out[k] = base + sign * lo;                                      \
        });                                                                 \
        uf__free(b);                                                        \
        return 0;                                                           \
    }

DEFINE_DIGITIZE(f64, double, as_f64, F_LT, F_LE)
DEFINE_DIGITIZE(i64, int64_t, as_i64, I_LT, I_LE)
DEFINE_DIGITIZE(u64, uint64_t, as_u64, I_LT, I_LE)

int uf__np_digitize(const char *x, int64_t xnd, const int64_t *xshape,
                    const int64_t *xstrides, int32_t xdt, int32_t scalar,
                    const char *bins, int64_t nb, int64_t sb, int32_t bdt,
                    int32_t right, int64_t *out)
{
    const xarr X = {x, xnd, xshape, xstrides, xdt};
    char kx = uf_dtype_kind((uf_dtype)xdt), kb = uf_dtype_kind((uf_dtype)bdt);
    bool ux = kx != 'i' && kx != 'f', ub = kb != 'i' && kb != 'f';
    bool big = xdt == UF_UINT64 || bdt == UF_UINT64;
    /* NumPy's promotion: uint64 with a signed integer is float64 */
    if (kx == 'f' || kb == 'f' || (big && !(ux && ub)))
        return f64_digitize(&X, scalar, bins, nb, sb, bdt, right, out);
    if (big)
        return u64_digitize(&X, scalar, bins, nb, sb, bdt, right, out);
    return i64_digitize(&X, scalar, bins, nb, sb, bdt, right, out);
}

/* ---- np.bincount ---------------------------------------------------------- */

/* The largest of a[1:] and first, or -1 below first when an element of
 * a[1:] is negative. Inlined with adt a constant, as bincount_loop. */
static inline __attribute__((always_inline)) int64_t
bincount_max(const char *a, int64_t na, int64_t sa, int32_t adt, int64_t first)
{
    int64_t amax = first, amin = 0;
    for (int64_t i = 1; i < na; i++) {
        int64_t v = as_i64(a + i * sa, adt);
        amin = v < amin ? v : amin;
        amax = v > amax ? v : amax;
    }
    return amin < 0 ? first - 1 : amax;
}

int uf__np_bincount_len(const char *a, int64_t na, int64_t sa, int32_t adt,
                        int64_t nw, int64_t minlength, int64_t *len)
{
    if (nw >= 0 && nw != na)
        return UF__NPNUM_BINCOUNT_WLEN;
    if (minlength < 0)
        return UF__NPNUM_BINCOUNT_MINLEN;
    int64_t first = na > 0 ? as_i64(a, adt) : -1;
    int64_t amax;
    if (adt == UF_INT64 && sa == 8) /* contiguous: vectorises */
        amax = bincount_max(a, na, 8, UF_INT64, first);
    else
        amax = bincount_max(a, na, sa, adt, first);
    if (amax < first) /* a negative element after the first */
        return UF__NPNUM_BINCOUNT_NEG;
    int64_t n = amax + 1 > minlength ? amax + 1 : minlength;
    if (na > 0 && first < 0 && first + n < 0)
        return UF__NPNUM_BINCOUNT_NEG; /* Numba writes out of bounds */
    *len = n;
    return 0;
}

/* The loop with the element types as constants: as_i64/as_f64 fold to one
 * load each, where a call per element ran bincount 5x slower than Numba. */
static inline __attribute__((always_inline)) void
bincount_loop(const char *a, int64_t na, int64_t sa, int32_t adt,
              const char *w, int64_t sw, int32_t wdt, int64_t len, char *out)
{
    int64_t *count = (int64_t *)(void *)out;
    double *sum = (double *)(void *)out;
    for (int64_t i = 0; i < na; i++) {
        int64_t v = as_i64(a + i * sa, adt);
        if (v < 0) /* a[0] only: Numba's negative index */
            v += len;
        if (w)
            sum[v] += as_f64(w + i * sw, wdt);
        else
            count[v]++;
    }
}

void uf__np_bincount_fill(const char *a, int64_t na, int64_t sa,
                          int32_t adt, const char *w, int64_t sw,
                          int32_t wdt, int64_t len, char *out)
{
    memset(out, 0, (size_t)len * 8);
    if (adt == UF_INT64 && sa == 8 && !w)
        bincount_loop(a, na, 8, UF_INT64, NULL, 0, UF_FLOAT64, len, out);
    else if (adt == UF_INT64 && sa == 8 && wdt == UF_FLOAT64 && sw == 8)
        bincount_loop(a, na, 8, UF_INT64, w, 8, UF_FLOAT64, len, out);
    else
        bincount_loop(a, na, sa, adt, w, sw, wdt, len, out);
}
