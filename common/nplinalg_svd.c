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
 * enough. */
static bool jacobi(double *x, int64_t M, int64_t N, double *v)
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
                if (ga == 0 || !(fabs(ga) > DBL_EPSILON * sqrt(al * be)))
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

/* Columns have..ncol of u (M rows) made orthonormal to columns 0..have
 * and to each other, from the unit vectors (Gram-Schmidt twice); where
 * a column of u in 0..have is zero (live[j] false) it is replaced too. */
static void complete(double *u, int64_t M, int64_t ncol, bool *live)
{
    int64_t e = 0;
    for (int64_t j = 0; j < ncol; j++) {
        if (live[j])
            continue;
        double *uj = u + j * M;
        for (; e < M; e++) {
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
            if (nn > 0.25) {
                nn = sqrt(nn);
                for (int64_t i = 0; i < M; i++)
                    uj[i] /= nn;
                e++;
                break;
            }
        }
        live[j] = true;
    }
}

int uf__np_linalg_svd(const char *a, const int64_t *shape,
                      const int64_t *strides, int32_t dt, int32_t full,
                      char *u, double *s, char *vh)
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
    if (!jacobi(x, M, N, v)) {
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
        live[k] = k < N && sv[ix[k]] > 0;
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
