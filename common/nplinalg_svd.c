/* The singular value decomposition behind np.linalg.svd and the matrix
 * 2-norms, cond, matrix_rank and pinv (nplinalg.h), without LAPACK: the
 * Golub-Kahan SVD of nplinalg_gk.c (Householder bidiagonalisation, then
 * dbdsqr's bidiagonal QR: LAPACK's dgesvd) on a float64 column-major
 * copy of the matrix (its transpose when it is wide), scaled by a power
 * of two so that no sum of squares overflows; a tall one reduced by a
 * QR first. float32 matrices are decomposed in float64 and rounded
 * once. (It was a one-sided Jacobi until session 27: as accurate, 2 to 4
 * times slower from 32 rows up, and no faster at 8.) Here too: the
 * Householder reflectors of the QRs (lstsq's too). */
#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include <ufjit/dtype.h>

#include "common/alloc.h"
#include "common/nplinalg.h"

static double get(const char *p, int32_t dt)
{
    if (dt == UF_FLOAT32) {
        float f;
        memcpy(&f, p, sizeof f);
        return f;
    }
    double d;
    memcpy(&d, p, sizeof d);
    return d;
}

static void put(char *p, int32_t dt, double v)
{
    if (dt == UF_FLOAT32) {
        float f = (float)v;
        memcpy(p, &f, sizeof f);
    } else {
        memcpy(p, &v, sizeof v);
    }
}

typedef double v4d __attribute__((vector_size(32)));
#define INLINE static inline __attribute__((always_inline))

/* a . b of n doubles in eight partial sums (two vectors of four: a
 * single chain is bound by the additions' latency), then the rest one by
 * one; the same sums, so the same bits, with and without AVX. */
INLINE double dot_v(const double *a, const double *b, int64_t n)
{
    v4d s0 = {0}, s1 = {0};
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        v4d a0, b0, a1, b1;
        memcpy(&a0, a + i, sizeof a0);
        memcpy(&b0, b + i, sizeof b0);
        memcpy(&a1, a + i + 4, sizeof a1);
        memcpy(&b1, b + i + 4, sizeof b1);
        s0 += a0 * b0;
        s1 += a1 * b1;
    }
    s0 += s1;
    double s = (s0[0] + s0[1]) + (s0[2] + s0[3]);
    for (; i < n; i++)
        s += a[i] * b[i];
    return s;
}

double uf__nplinalg_dot(const double *a, const double *b, int64_t n)
{
    return dot_v(a, b, n);
}

/* The reflector H = I - tau v v^T (v[0] = 1) with H x = (beta, 0, ...)
 * of x (n long), as LAPACK's dlarfg: x[0] becomes beta, x[1..n) v's
 * tail; tau 0 (no reflection) where x's tail is already 0. */
double uf__nplinalg_house(double *x, int64_t n)
{
    double tail = uf__nplinalg_dot(x + 1, x + 1, n - 1);
    if (tail == 0)
        return 0;
    double alpha = x[0], nrm = sqrt(alpha * alpha + tail);
    double beta = alpha >= 0 ? -nrm : nrm;
    double sc = 1 / (alpha - beta);
    for (int64_t i = 1; i < n; i++)
        x[i] *= sc;
    x[0] = beta;
    return (beta - alpha) / beta;
}

/* y = H y for the reflector (v, tau) of uf__nplinalg_house (v[0] = 1
 * implied). */
void uf__nplinalg_reflect(const double *v, double tau, double *y,
                          int64_t n)
{
    if (tau == 0)
        return;
    double d = tau * (y[0] + uf__nplinalg_dot(v + 1, y + 1, n - 1));
    y[0] -= d;
    for (int64_t i = 1; i < n; i++)
        y[i] -= d * v[i];
}

/* The SVD into s (float64, k values) and, when u is not NULL, u and
 * vh (a's dtype), by Golub-Kahan (nplinalg_gk.c) on x (M * N, M >= N: a,
 * or a^T when wide). A tall x (M >= 1.6 N, LAPACK's crossover) is first
 * reduced by a Householder QR, x = Q R, and the SVD taken of the N * N
 * triangle R = U' S V^T (the bidiagonalisation and the rotations then
 * run on N rows rather than M), x = (Q [U'; 0]) S V^T, the extra
 * columns of full_matrices Q's further ones; otherwise x is
 * bidiagonalised as it is. */
static int svd(const char *a, const int64_t *shape, const int64_t *strides,
               int32_t dt, int32_t full, char *u, double *s, char *vh)
{
    int64_t m = shape[0], n = shape[1];
    if (m == 0 || n == 0)
        return UF__NPLINALG_EMPTY;
    bool tall = m >= n, uv = u != NULL;
    int64_t M = tall ? m : n, N = tall ? n : m;
    int64_t ucol = full ? M : N;
    bool qr = 10 * M >= 16 * N;
    double big = 0;
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++) {
            double x = fabs(get(a + i * strides[0] + j * strides[1], dt));
            if (!isfinite(x))
                return UF__NPLINALG_NONFINITE;
            big = x > big ? x : big;
        }
    /* x (M * N), tau (N), w (N * N: R, when qr), v (N * N, when uv) */
    int64_t nw = qr ? N * N : 0, nv = uv ? N * N : 0;
    double *x = uf__malloc((size_t)(M * N + N + nw + nv), sizeof(double),
                           NULL);
    double *uu = uv ? uf__malloc((size_t)(M * ucol), sizeof(double), NULL)
                    : NULL;
    int st = 0;
    if (x == NULL || (uv && uu == NULL)) {
        st = UF__NPLINALG_NOMEM;
        goto done;
    }
    double *tau = x + M * N, *w = tau + N, *v = uv ? w + nw : NULL;
    int ex = 0;
    if (big > 0)
        frexp(big, &ex);
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++) {
            double e = ldexp(get(a + i * strides[0] + j * strides[1], dt), -ex);
            if (tall)
                x[j * M + i] = e;
            else
                x[i * M + j] = e;
        }
    if (qr) {
        for (int64_t j = 0; j < N; j++) {
            double *xj = x + j * M + j;
            tau[j] = uf__nplinalg_house(xj, M - j);
            uf__nplinalg_reflect_cols(xj + M, M, xj, tau[j], M - j,
                                      N - j - 1);
        }
        memset(w, 0, (size_t)(N * N) * sizeof *w);
        for (int64_t j = 0; j < N; j++)
            memcpy(w + j * N, x + j * M, (size_t)(j + 1) * sizeof *w);
        /* U' into uu's first N columns, with N rows for now */
        st = uf__nplinalg_gk(w, N, N, s, uu, N, v);
    } else {
        st = uf__nplinalg_gk(x, M, N, s, uu, ucol, v);
    }
    if (st != 0)
        goto done;
    for (int64_t k = 0; k < N; k++)
        s[k] = ldexp(s[k], ex);
    if (dt == UF_FLOAT32)
        for (int64_t k = 0; k < N; k++)
            s[k] = (float)s[k];
    if (!uv)
        goto done;
    if (qr) { /* the left vectors: Q [U'; 0], then Q's columns past N */
        for (int64_t k = ucol - 1; k >= 0; k--) {
            double *uk = uu + k * M;
            if (k < N) {
                memmove(uk, uu + k * N, (size_t)N * sizeof *uk);
                memset(uk + N, 0, (size_t)(M - N) * sizeof *uk);
            } else {
                memset(uk, 0, (size_t)M * sizeof *uk);
                uk[k] = 1;
            }
        }
        for (int64_t j = N - 1; j >= 0; j--) /* H_0 .. H_{N-1} [U'; 0] */
            uf__nplinalg_reflect_cols(uu + j, M, x + j * M + j, tau[j],
                                      M - j, ucol);
    }
    /* tall: u = left (m x ucol), vh = V^T (n x n); wide: a^T = left S
     * V^T, so u = V (m x m), vh = left^T (ucol x n) */
    size_t isz = dt == UF_FLOAT32 ? 4 : 8;
    for (int64_t k = 0; k < N; k++)
        for (int64_t i = 0; i < N; i++) {
            double e = v[k * N + i]; /* row i of V's column k */
            if (tall)
                put(vh + (size_t)(k * N + i) * isz, dt, e);
            else
                put(u + (size_t)(i * N + k) * isz, dt, e);
        }
    for (int64_t k = 0; k < ucol; k++)
        for (int64_t i = 0; i < M; i++) {
            double e = uu[k * M + i];
            if (tall)
                put(u + (size_t)(i * ucol + k) * isz, dt, e);
            else
                put(vh + (size_t)(k * M + i) * isz, dt, e);
        }
done:
    uf__free(x);
    uf__free(uu);
    return st;
}

int uf__np_linalg_singular(const char *a, const int64_t *shape,
                           const int64_t *strides, int32_t dt, double *s)
{
    if (dt == UF_COMPLEX64 || dt == UF_COMPLEX128)
        return uf__nplinalg_c_singular(a, shape, strides, dt, s);
    return svd(a, shape, strides, dt, 0, NULL, s, NULL);
}

int uf__np_linalg_svd(const char *a, const int64_t *shape,
                      const int64_t *strides, int32_t dt, int32_t full,
                      char *u, char *s, char *vh)
{
    if (dt == UF_COMPLEX64 || dt == UF_COMPLEX128)
        return uf__nplinalg_c_svd(a, shape, strides, dt, full, u, s, vh);
    int64_t k = shape[0] < shape[1] ? shape[0] : shape[1];
    double *sv = uf__malloc((size_t)(k > 0 ? k : 1), sizeof(double), NULL);
    if (sv == NULL)
        return UF__NPLINALG_NOMEM;
    int st = svd(a, shape, strides, dt, full, u, sv, vh);
    if (st == 0)
        for (int64_t i = 0; i < k; i++)
            put(s + i * (dt == UF_FLOAT32 ? 4 : 8), dt, sv[i]);
    uf__free(sv);
    return st;
}

/* Numba's s[0] / s[-1] (or s[-1] / s[0]) in a's precision. */
static double ratio(double x, double y, int32_t dt)
{
    return dt == UF_FLOAT32 || dt == UF_COMPLEX64
               ? (double)((float)x / (float)y)
               : x / y;
}

int uf__np_linalg_cond(const char *a, const int64_t *shape,
                       const int64_t *strides, int32_t dt, int32_t has_p,
                       double p, double *out)
{
    int64_t m = shape[0], n = shape[1], k = m < n ? m : n;
    double r;
    if (!has_p || p == 2 || p == -2) {
        double *s = uf__malloc((size_t)(k > 0 ? k : 1), sizeof(double),
                               NULL);
        if (s == NULL)
            return UF__NPLINALG_NOMEM;
        int st = uf__np_linalg_singular(a, shape, strides, dt, s);
        if (st == 0)
            r = has_p && p < 0 ? ratio(s[k - 1], s[0], dt)
                               : ratio(s[0], s[k - 1], dt);
        uf__free(s);
        if (st != 0)
            return st;
    } else { /* norm(x, p) * norm(inv(x), p) */
        double nx, ni;
        int st = uf__np_linalg_norm(a, 2, shape, strides, dt, 1, p, &nx);
        if (st != 0)
            return st;
        size_t isz = uf_dtype_itemsize((uf_dtype)dt);
        char *inv = uf__malloc((size_t)(n * n > 0 ? n * n : 1), isz, NULL);
        if (inv == NULL)
            return UF__NPLINALG_NOMEM;
        st = uf__np_linalg_inv(a, shape, strides, dt, inv);
        int64_t is[2] = {n, n}, it[2] = {n * (int64_t)isz, (int64_t)isz};
        if (st == 0)
            st = uf__np_linalg_norm(inv, 2, is, it, dt, 1, p, &ni);
        uf__free(inv);
        if (st != 0)
            return st;
        r = nx * ni;
    }
    *out = isnan(r) ? INFINITY : r;
    return 0;
}

int uf__np_linalg_matrix_rank(const char *a, int64_t nd,
                              const int64_t *shape, const int64_t *strides,
                              int32_t dt, int32_t has_tol, double tol,
                              int64_t *out)
{
    *out = 0;
    if (nd == 1) { /* Numba's (and NumPy's): 1 where an element is not 0 */
        bool cx = dt == UF_COMPLEX64 || dt == UF_COMPLEX128;
        size_t h = cx ? uf_dtype_itemsize((uf_dtype)dt) / 2 : 0;
        int32_t pt = dt == UF_COMPLEX64    ? UF_FLOAT32 /* a part's */
                     : dt == UF_COMPLEX128 ? UF_FLOAT64
                                           : dt;
        for (int64_t i = 0; i < shape[0]; i++)
            if (get(a + i * strides[0], pt) != 0 ||
                (cx && get(a + i * strides[0] + h, pt) != 0)) {
                *out = 1;
                break;
            }
        return 0;
    }
    int64_t m = shape[0], n = shape[1], k = m < n ? m : n;
    double *s = uf__malloc((size_t)(k > 0 ? k : 1), sizeof(double), NULL);
    if (s == NULL)
        return UF__NPLINALG_NOMEM;
    int st = uf__np_linalg_singular(a, shape, strides, dt, s);
    if (st == 0) {
        double t = tol;
        if (!has_tol) /* s[0] * max(m, n) * eps of a's dtype */
            t = s[0] * (double)(m > n ? m : n) *
                (dt == UF_FLOAT32 || dt == UF_COMPLEX64 ? (double)FLT_EPSILON
                                                        : DBL_EPSILON);
        while (*out < k && s[*out] > t)
            (*out)++;
    }
    uf__free(s);
    return st;
}

int uf__np_linalg_pinv(const char *a, const int64_t *shape,
                       const int64_t *strides, int32_t dt, double rcond,
                       char *out)
{
    if (dt == UF_COMPLEX64 || dt == UF_COMPLEX128)
        return uf__nplinalg_c_pinv(a, shape, strides, dt, rcond, out);
    int64_t m = shape[0], n = shape[1], k = m < n ? m : n;
    for (int64_t i = 0; i < m; i++) /* Numba checks before the sizes */
        for (int64_t j = 0; j < n; j++)
            if (!isfinite(get(a + i * strides[0] + j * strides[1], dt)))
                return UF__NPLINALG_NONFINITE;
    if (k == 0)
        return 0;
    size_t isz = dt == UF_FLOAT32 ? 4 : 8;
    char *u = uf__malloc((size_t)(m * k), isz, NULL);
    char *vh = uf__malloc((size_t)(k * n), isz, NULL);
    double *s = uf__malloc((size_t)k, sizeof(double), NULL);
    int st = u && vh && s ? svd(a, shape, strides, dt, 0, u, s, vh)
                          : UF__NPLINALG_NOMEM;
    if (st == 0) {
        /* out (n * m) = vh.T diag(1 / s) u.T, Numba's cut: s > s[0] *
         * rcond inverted, the sum to one past the last of them, or 1
         * when there is none (s[0] then multiplies, not inverted) */
        double at = s[0] * rcond;
        int64_t r = 0;
        for (int64_t t = 0; t < k; t++)
            if (s[t] > at) {
                s[t] = 1 / s[t];
                r = t;
            }
        r++;
        for (int64_t t = 0; t < k && dt == UF_FLOAT32; t++)
            s[t] = (float)s[t];
        for (int64_t i = 0; i < n; i++)
            for (int64_t j = 0; j < m; j++) {
                double x = 0;
                for (int64_t t = 0; t < r; t++)
                    x += get(vh + (t * n + i) * isz, dt) * s[t] *
                         get(u + (j * k + t) * isz, dt);
                put(out + (i * m + j) * isz, dt, x);
            }
    }
    uf__free(u);
    uf__free(vh);
    uf__free(s);
    return st;
}
