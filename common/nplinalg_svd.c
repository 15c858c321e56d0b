/* The singular value decomposition behind np.linalg.svd and the matrix
 * 2-norms (nplinalg.h), without LAPACK: one-sided Jacobi (Hestenes) on
 * the columns of a float64 column-major copy of the matrix (its
 * transpose when it is wide), scaled by a power of two so that no sum
 * of squares overflows. Pairs of columns are rotated until every pair is
 * orthogonal to float64 rounding (|x_p . x_q| <= eps |x_p| |x_q|); the
 * column norms are then the singular values (to high relative
 * accuracy), the normalised columns U, the accumulated rotations V.
 * Columns of U for zero singular values, and the extra ones of
 * full_matrices, are completed by Gram-Schmidt on the unit vectors.
 * float32 matrices are decomposed in float64 and rounded once. */
#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include <ufjit/dtype.h>

#include "common/alloc.h"
#include "common/nplinalg.h"

#define SWEEPS 80

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

/* Rotate the columns of x (M rows, column-major) and, when v is not
 * NULL, of v (N rows) until orthogonal; false when SWEEPS are not
 * enough. A column whose norm is below eps times x's Frobenius norm is
 * rounding noise, not rotated further (its angle to the others cannot
 * be computed; LAPACK's bound on such singular values is absolute too). */
static double noise_of(const double *x, int64_t M, int64_t N)
{
    double frob = 0;
    for (int64_t i = 0; i < M * N; i++)
        frob += x[i] * x[i];
    return DBL_EPSILON * DBL_EPSILON * frob;
}

static bool jacobi(double *x, int64_t M, int64_t N, double *v, double noise)
{
    for (int sweep = 0; sweep < SWEEPS; sweep++) {
        bool rotated = false;
        for (int64_t p = 0; p + 1 < N; p++)
            for (int64_t q = p + 1; q < N; q++) {
                double *restrict xp = x + p * M, *restrict xq = x + q * M;
                double al = 0, be = 0, ga = 0;
                for (int64_t i = 0; i < M; i++) {
                    al += xp[i] * xp[i];
                    be += xq[i] * xq[i];
                    ga += xp[i] * xq[i];
                }
                if (ga == 0 || al <= noise || be <= noise ||
                    !(fabs(ga) > DBL_EPSILON * sqrt(al * be)))
                    continue;
                rotated = true;
                double zeta = (be - al) / (2 * ga);
                double t = copysign(1.0, zeta) /
                           (fabs(zeta) + sqrt(1 + zeta * zeta));
                double c = 1 / sqrt(1 + t * t), s = c * t;
                for (int64_t i = 0; i < M; i++) {
                    double a = xp[i], b = xq[i];
                    xp[i] = c * a - s * b;
                    xq[i] = s * a + c * b;
                }
                if (v != NULL) {
                    double *restrict vp = v + p * N, *restrict vq = v + q * N;
                    for (int64_t i = 0; i < N; i++) {
                        double a = vp[i], b = vq[i];
                        vp[i] = c * a - s * b;
                        vq[i] = s * a + c * b;
                    }
                }
            }
        if (!rotated)
            return true;
    }
    return false;
}

/* The columns j of u (M rows) where live[j] is false made orthonormal to
 * the live ones and to each other, from the unit vectors (Gram-Schmidt
 * twice). */
static void complete(double *u, int64_t M, int64_t ncol, bool *live)
{
    for (int64_t j = 0; j < ncol; j++) {
        if (live[j])
            continue;
        double *uj = u + j * M;
        /* some unit vector keeps >= 1/M of its square in the complement
         * (the squares sum to its dimension): take the first with half */
        for (int64_t e = 0; e < M; e++) {
            memset(uj, 0, (size_t)M * sizeof *uj);
            uj[e] = 1;
            for (int pass = 0; pass < 2; pass++)
                for (int64_t k = 0; k < ncol; k++) {
                    if (k == j || !live[k])
                        continue;
                    const double *uk = u + k * M;
                    double d = 0;
                    for (int64_t i = 0; i < M; i++)
                        d += uk[i] * uj[i];
                    for (int64_t i = 0; i < M; i++)
                        uj[i] -= d * uk[i];
                }
            double nn = 0;
            for (int64_t i = 0; i < M; i++)
                nn += uj[i] * uj[i];
            if (nn > 0.5 / (double)M) {
                nn = sqrt(nn);
                for (int64_t i = 0; i < M; i++)
                    uj[i] /= nn;
                break;
            }
        }
        live[j] = true;
    }
}

/* The SVD into s (float64, k values) and, when u is not NULL, u and
 * vh (a's dtype). */
static int svd(const char *a, const int64_t *shape, const int64_t *strides,
               int32_t dt, int32_t full, char *u, double *s, char *vh)
{
    int64_t m = shape[0], n = shape[1];
    if (m == 0 || n == 0)
        return UF__NPLINALG_EMPTY;
    bool tall = m >= n, uv = u != NULL;
    int64_t M = tall ? m : n, N = tall ? n : m;
    int64_t ucol = full ? M : N;
    double big = 0;
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++) {
            double x = fabs(get(a + i * strides[0] + j * strides[1], dt));
            if (!isfinite(x))
                return UF__NPLINALG_NONFINITE;
            big = x > big ? x : big;
        }
    double *x = uf__malloc((size_t)(M * N), sizeof(double), NULL);
    double *v = uv ? uf__malloc((size_t)(N * N), sizeof(double), NULL)
                   : NULL;
    double *sv = uf__malloc((size_t)N, sizeof(double), NULL);
    int64_t *ix = uf__malloc((size_t)N, sizeof(int64_t), NULL);
    bool *live = uf__malloc((size_t)(ucol > N ? ucol : N), sizeof(bool),
                            NULL);
    int st = 0;
    if (x == NULL || (uv && v == NULL) || sv == NULL || ix == NULL ||
        live == NULL) {
        st = UF__NPLINALG_NOMEM;
        goto done;
    }
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
    if (uv) {
        memset(v, 0, (size_t)(N * N) * sizeof *v);
        for (int64_t i = 0; i < N; i++)
            v[i * N + i] = 1;
    }
    double noise = noise_of(x, M, N);
    if (!jacobi(x, M, N, v, noise)) {
        st = UF__NPLINALG_CONVERGE;
        goto done;
    }
    for (int64_t j = 0; j < N; j++) {
        double nn = 0;
        for (int64_t i = 0; i < M; i++)
            nn += x[j * M + i] * x[j * M + i];
        sv[j] = sqrt(nn);
        ix[j] = j;
    }
    for (int64_t j = 1; j < N; j++) { /* descending, stable */
        int64_t t = ix[j], k = j;
        for (; k > 0 && sv[ix[k - 1]] < sv[t]; k--)
            ix[k] = ix[k - 1];
        ix[k] = t;
    }
    for (int64_t k = 0; k < N; k++)
        s[k] = ldexp(sv[ix[k]], ex);
    if (dt == UF_FLOAT32)
        for (int64_t k = 0; k < N; k++)
            s[k] = (float)s[k];
    if (!uv)
        goto done;
    /* U's columns in order of the singular values, in the space past x */
    double *uu = uf__malloc((size_t)(M * ucol), sizeof(double), NULL);
    if (uu == NULL) {
        st = UF__NPLINALG_NOMEM;
        goto done;
    }
    for (int64_t k = 0; k < ucol; k++) {
        /* a noise column's direction is not orthogonal to the others */
        live[k] = k < N && sv[ix[k]] * sv[ix[k]] > noise;
        if (live[k])
            for (int64_t i = 0; i < M; i++)
                uu[k * M + i] = x[ix[k] * M + i] / sv[ix[k]];
    }
    complete(uu, M, ucol, live);
    /* tall: u = U (m x ucol), vh = V^T (n x n); wide: a^T = U S V^T, so
     * u = V (m x m), vh = U^T (ucol x n) */
    for (int64_t k = 0; k < N; k++)
        for (int64_t i = 0; i < N; i++) {
            double e = v[ix[k] * N + i]; /* row i of V's column k */
            if (tall)
                put(vh + (k * N + i) * (dt == UF_FLOAT32 ? 4 : 8), dt, e);
            else
                put(u + (i * N + k) * (dt == UF_FLOAT32 ? 4 : 8), dt, e);
        }
    for (int64_t k = 0; k < ucol; k++)
        for (int64_t i = 0; i < M; i++) {
            double e = uu[k * M + i];
            if (tall)
                put(u + (i * ucol + k) * (dt == UF_FLOAT32 ? 4 : 8), dt, e);
            else
                put(vh + (k * M + i) * (dt == UF_FLOAT32 ? 4 : 8), dt, e);
        }
    uf__free(uu);
done:
    uf__free(x);
    uf__free(v);
    uf__free(sv);
    uf__free(ix);
    uf__free(live);
    return st;
}

int uf__np_linalg_singular(const char *a, const int64_t *shape,
                           const int64_t *strides, int32_t dt, double *s)
{
    return svd(a, shape, strides, dt, 0, NULL, s, NULL);
}

int uf__np_linalg_svd(const char *a, const int64_t *shape,
                      const int64_t *strides, int32_t dt, int32_t full,
                      char *u, char *s, char *vh)
{
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
    return dt == UF_FLOAT32 ? (double)((float)x / (float)y) : x / y;
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
        size_t isz = dt == UF_FLOAT32 ? 4 : 8;
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
        for (int64_t i = 0; i < shape[0]; i++)
            if (get(a + i * strides[0], dt) != 0) {
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
                (dt == UF_FLOAT32 ? (double)FLT_EPSILON : DBL_EPSILON);
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
        /* out (n * m) = vh.T diag(1 / s) u.T over s > s[0] * rcond */
        double cut = s[0] * rcond;
        int64_t r = 0;
        while (r < k && s[r] > cut)
            r++;
        for (int64_t i = 0; i < n; i++)
            for (int64_t j = 0; j < m; j++) {
                double x = 0;
                for (int64_t t = 0; t < r; t++)
                    x += get(vh + (t * n + i) * isz, dt) / s[t] *
                         get(u + (j * k + t) * isz, dt);
                put(out + (i * m + j) * isz, dt, x);
            }
    }
    uf__free(u);
    uf__free(vh);
    uf__free(s);
    return st;
}

/* x = np.linalg.lstsq(a, b, rcond)'s solution through the SVD of a
 * float64 copy of a, as LAPACK gelsd: singular values <= rcnd * s[0]
 * count as zero (rcnd the dtype's unit roundoff where rcond <= 0 or >=
 * 1, dlalsd's rule); residuals the squared 2-norms of b - a x, column by
 * column, where the rank is n < m (*nres = nrhs), else none. */
int uf__np_linalg_lstsq(const char *a, const int64_t *shape,
                        const int64_t *strides, const char *b, int64_t bnd,
                        const int64_t *bshape, const int64_t *bstrides,
                        int32_t dt, double rcond, char *x, char *res,
                        int64_t *nres, int32_t *rank, char *s)
{
    int64_t m = shape[0], n = shape[1], k = m < n ? m : n;
    int64_t nrhs = bnd == 1 ? 1 : bshape[1];
    int64_t bs1 = bnd == 1 ? 0 : bstrides[1];
    *nres = 0;
    *rank = 0;
    for (int64_t i = 0; i < m; i++) /* Numba's order of checks */
        for (int64_t j = 0; j < n; j++)
            if (!isfinite(get(a + i * strides[0] + j * strides[1], dt)))
                return UF__NPLINALG_NONFINITE;
    for (int64_t i = 0; i < bshape[0]; i++)
        for (int64_t j = 0; j < nrhs; j++)
            if (!isfinite(get(b + i * bstrides[0] + j * bs1, dt)))
                return UF__NPLINALG_NONFINITE;
    if (m == 0 || n == 0 || bshape[0] == 0 || nrhs == 0)
        return UF__NPLINALG_EMPTY;
    if (bshape[0] != m)
        return UF__NPLINALG_SYSTEM;
    size_t isz = dt == UF_FLOAT32 ? 4 : 8;
    double *ac = uf__malloc((size_t)(m * n), sizeof(double), NULL);
    double *u = uf__malloc((size_t)(m * k), sizeof(double), NULL);
    double *vh = uf__malloc((size_t)(k * n), sizeof(double), NULL);
    double *sv = uf__malloc((size_t)k, sizeof(double), NULL);
    double *ub = uf__malloc((size_t)k, sizeof(double), NULL);
    double *xc = uf__malloc((size_t)n, sizeof(double), NULL);
    int st = UF__NPLINALG_NOMEM;
    if (ac == NULL || u == NULL || vh == NULL || sv == NULL || ub == NULL ||
        xc == NULL)
        goto done;
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++)
            ac[i * n + j] = get(a + i * strides[0] + j * strides[1], dt);
    int64_t cs[2] = {n * 8, 8};
    st = svd((const char *)ac, shape, cs, UF_FLOAT64, 0, (char *)u, sv,
             (char *)vh);
    if (st != 0)
        goto done;
    double eps = dt == UF_FLOAT32 ? FLT_EPSILON / 2 : DBL_EPSILON / 2;
    double cut = (rcond <= 0 || rcond >= 1 ? eps : rcond) * sv[0];
    int64_t r = 0;
    while (r < k && sv[r] > cut)
        r++;
    *rank = (int32_t)r;
    bool resid = r == n && m > n;
    for (int64_t c = 0; c < nrhs; c++) {
        for (int64_t t = 0; t < r; t++) { /* (u^T b)_t / s_t */
            double d = 0;
            for (int64_t i = 0; i < m; i++)
                d += u[i * k + t] * get(b + i * bstrides[0] + c * bs1, dt);
            ub[t] = d / sv[t];
        }
        for (int64_t j = 0; j < n; j++) {
            double d = 0;
            for (int64_t t = 0; t < r; t++)
                d += vh[t * n + j] * ub[t];
            xc[j] = d;
            put(x + (size_t)(j * nrhs + c) * isz, dt, d);
        }
        if (!resid)
            continue;
        double ss = 0;
        for (int64_t i = 0; i < m; i++) {
            double e = get(b + i * bstrides[0] + c * bs1, dt);
            for (int64_t j = 0; j < n; j++)
                e -= ac[i * n + j] * xc[j];
            ss += e * e;
        }
        put(res + (size_t)c * isz, dt, ss);
    }
    if (resid)
        *nres = nrhs;
    for (int64_t t = 0; t < k; t++)
        put(s + (size_t)t * isz, dt, sv[t]);
done:
    uf__free(ac);
    uf__free(u);
    uf__free(vh);
    uf__free(sv);
    uf__free(ub);
    uf__free(xc);
    return st;
}
