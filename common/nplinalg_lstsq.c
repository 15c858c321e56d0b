/* np.linalg.lstsq (nplinalg.h) without LAPACK, reduced first as LAPACK's
 * gelsd is: a Householder QR of a (m >= n) or of a^T (m < n, an LQ of a),
 * both on a float64 column-major copy scaled by a power of two, so that
 * the SVD runs on the k * k triangle R (k = min(m, n)) rather than on a.
 * The one-sided Jacobi of nplinalg_svd.c orthogonalises the columns of
 * R^T (R's rows): R^T = U S V^T with the rotated columns U S and the
 * accumulated rotations V. Then
 *   m >= n: a = Q R, c = Q^T b (the reflectors applied to b, Q never
 *     formed), x = pinv(R) c[0..n) = sum_t (U S)_t (V_t . c) / s_t^2, the
 *     residuals |c[n..m)|^2 (gelsd's, where the rank is n < m); with
 *     fewer right-hand sides than n, V^T c is made by the Jacobi's
 *     rotations applied to the rows c^T instead of V (nrhs * 6 flops a
 *     rotation rather than n * 6: half the sweeps' work for one b);
 *   m < n: a = R^T Q^T, y = pinv(R^T) b = sum_t V_t ((U S)_t . b) / s_t^2,
 *     x = Q [y; 0], the minimum-norm solution;
 * the sums over the singular values above rcond * s[0] (gelsd's rank). */
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

int uf__np_linalg_lstsq(const char *a, const int64_t *shape,
                        const int64_t *strides, const char *b, int64_t bnd,
                        const int64_t *bshape, const int64_t *bstrides,
                        int32_t dt, double rcond, char *x, char *res,
                        int64_t *nres, int32_t *rank, char *s)
{
    if (dt == UF_COMPLEX64 || dt == UF_COMPLEX128)
        return uf__nplinalg_c_lstsq(a, shape, strides, b, bnd, bshape,
                                    bstrides, dt, rcond, x, res, nres, rank,
                                    s);
    int64_t m = shape[0], n = shape[1];
    int64_t nrhs = bnd == 1 ? 1 : bshape[1];
    int64_t bs1 = bnd == 1 ? 0 : bstrides[1];
    *nres = 0;
    *rank = 0;
    double big = 0;
    for (int64_t i = 0; i < m; i++) /* Numba's order of checks */
        for (int64_t j = 0; j < n; j++) {
            double e = fabs(get(a + i * strides[0] + j * strides[1], dt));
            if (!isfinite(e))
                return UF__NPLINALG_NONFINITE;
            big = e > big ? e : big;
        }
    for (int64_t i = 0; i < bshape[0]; i++)
        for (int64_t j = 0; j < nrhs; j++)
            if (!isfinite(get(b + i * bstrides[0] + j * bs1, dt)))
                return UF__NPLINALG_NONFINITE;
    if (m == 0 || n == 0 || bshape[0] == 0 || nrhs == 0)
        return UF__NPLINALG_EMPTY;
    if (bshape[0] != m)
        return UF__NPLINALG_SYSTEM;
    bool tall = m >= n;
    int64_t M = tall ? m : n, N = tall ? n : m;
    /* q (M * N): a or a^T, then the reflectors below R; tau (N); w, v (N
     * * N): R^T, then U S, and V (or (V^T c)^T); d, sv (N); c (m *
     * nrhs): b, then Q^T b (tall), or y then x (wide, n) */
    int64_t nc = tall ? m * nrhs : n;
    double *q = uf__malloc((size_t)(M * N + 2 * N * N + 3 * N + nc),
                           sizeof(double), NULL);
    int64_t *ix = uf__malloc((size_t)N, sizeof(int64_t), NULL);
    int st = UF__NPLINALG_NOMEM;
    if (q == NULL || ix == NULL)
        goto done;
    double *tau = q + M * N, *w = tau + N, *v = w + N * N, *d = v + N * N;
    double *sv = d + N, *c = sv + N;
    int ex = 0;
    if (big > 0)
        frexp(big, &ex);
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++) {
            double e = ldexp(get(a + i * strides[0] + j * strides[1], dt),
                             -ex);
            q[tall ? j * M + i : i * M + j] = e;
        }
    for (int64_t j = 0; j < N; j++) {
        double *qj = q + j * M + j;
        tau[j] = uf__nplinalg_house(qj, M - j);
        for (int64_t l = j + 1; l < N; l++)
            uf__nplinalg_reflect(qj, tau[j], q + l * M + j, M - j);
    }
    memset(w, 0, (size_t)(2 * N * N) * sizeof *w);
    for (int64_t j = 0; j < N; j++)
        for (int64_t i = j; i < N; i++) /* w's column j: R's row j */
            w[j * N + i] = q[i * M + j];
    if (tall)
        for (int64_t k = 0; k < nrhs; k++) {
            double *ck = c + k * m;
            for (int64_t i = 0; i < m; i++)
                ck[i] = get(b + i * bstrides[0] + k * bs1, dt);
            for (int64_t j = 0; j < N; j++)
                uf__nplinalg_reflect(q + j * M + j, tau[j], ck + j, M - j);
        }
    bool fold = tall && nrhs < N; /* v: (V^T c)^T, nrhs * N */
    int64_t vr = fold ? nrhs : N;
    for (int64_t j = 0; j < N; j++) {
        if (!fold)
            v[j * N + j] = 1;
        for (int64_t k = 0; fold && k < nrhs; k++)
            v[j * nrhs + k] = c[k * m + j];
    }
    if (!uf__nplinalg_jacobi(w, N, N, v, vr, d)) {
        st = UF__NPLINALG_CONVERGE;
        goto done;
    }
    for (int64_t j = 0; j < N; j++) {
        sv[j] = sqrt(uf__nplinalg_dot(w + j * N, w + j * N, N));
        ix[j] = j;
    }
    for (int64_t j = 1; j < N; j++) { /* descending, stable */
        int64_t t = ix[j], k = j;
        for (; k > 0 && sv[ix[k - 1]] < sv[t]; k--)
            ix[k] = ix[k - 1];
        ix[k] = t;
    }
    /* dlalsd's rule: rcond <= 0 or >= 1 is the dtype's unit roundoff */
    double eps = dt == UF_FLOAT32 ? FLT_EPSILON / 2 : DBL_EPSILON / 2;
    double cut = (rcond <= 0 || rcond >= 1 ? eps : rcond) * sv[ix[0]];
    int64_t r = 0;
    while (r < N && sv[ix[r]] > cut)
        r++;
    *rank = (int32_t)r;
    bool resid = r == n && m > n;
    size_t isz = dt == UF_FLOAT32 ? 4 : 8;
    for (int64_t k = 0; k < nrhs; k++) {
        double *xk = tall ? c + k * m : c;
        double *acc = d; /* N doubles: the solution in R's space */
        memset(acc, 0, (size_t)N * sizeof *acc);
        if (!tall)
            for (int64_t i = 0; i < m; i++)
                xk[i] = get(b + i * bstrides[0] + k * bs1, dt);
        for (int64_t u = 0; u < r; u++) {
            int64_t t = ix[u];
            const double *wt = w + t * N, *vt = v + t * vr;
            double f = fold ? vt[k]
                            : uf__nplinalg_dot(tall ? vt : wt, xk, N);
            f /= sv[t] * sv[t];
            const double *g = tall ? wt : vt;
            for (int64_t i = 0; i < N; i++)
                acc[i] += f * g[i];
        }
        if (tall) {
            for (int64_t j = 0; j < n; j++)
                put(x + (size_t)(j * nrhs + k) * isz, dt,
                    ldexp(acc[j], -ex));
            if (resid) {
                double ss = uf__nplinalg_dot(xk + n, xk + n, m - n);
                put(res + (size_t)k * isz, dt, ss);
            }
            continue;
        }
        memcpy(xk, acc, (size_t)N * sizeof *acc);
        memset(xk + N, 0, (size_t)(n - N) * sizeof *xk);
        for (int64_t j = N - 1; j >= 0; j--)
            uf__nplinalg_reflect(q + j * M + j, tau[j], xk + j, M - j);
        for (int64_t j = 0; j < n; j++)
            put(x + (size_t)(j * nrhs + k) * isz, dt, ldexp(xk[j], -ex));
    }
    if (resid)
        *nres = nrhs;
    for (int64_t t = 0; t < N; t++)
        put(s + (size_t)t * isz, dt, ldexp(sv[ix[t]], ex));
    st = 0;
done:
    uf__free(q);
    uf__free(ix);
    return st;
}
