/* np.linalg.lstsq (nplinalg.h) without LAPACK, reduced as LAPACK's
 * gelsd: on a float64 column-major copy scaled by a power of two, a
 * Householder QR of a first where it is tall (m >= 1.6 n: the SVD then
 * runs on the n * n triangle R), or an LQ of a where it is wide (a QR of
 * a^T: a = R^T Q^T), then the Golub-Kahan SVD of nplinalg_gk.c of the
 * square or tall matrix T left (a, R or R^T), T = U S V^T, U and V
 * never formed: the reflectors and the bidiagonal QR's left rotations
 * are applied to the right-hand sides, its right rotations (logged) and
 * P's reflectors to the solutions (uf__nplinalg_gk_solve). Then
 *   m >= n: c = U'^T (Q^T) b, x = V S^+ c[0..n), the residuals
 *     |c[n..m)|^2 (gelsd's, where the rank is n < m);
 *   m < n: y = V S^+ U^T b (T = R^T), x = Q [y; 0], the minimum-norm
 *     solution;
 * S^+ inverting the singular values above rcond * s[0] (gelsd's rank). */
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
    bool qr = !tall || 10 * M >= 16 * N;
    /* q (M * N): a or a^T, then the QR's reflectors; tau (N); t (N * N:
     * R or R^T, when qr); sv (N); c (M * nrhs): b, then Q^T b (tall; the
     * solution in its first N rows), or b then y (wide, m rows); xk
     * (M): a wide solution; cp (N * nrhs): c's first N rows packed */
    int64_t nt = qr ? N * N : 0;
    double *q = uf__malloc((size_t)(M * N + N + nt + N + M * nrhs + M +
                                    N * nrhs),
                           sizeof(double), NULL);
    int st = UF__NPLINALG_NOMEM;
    if (q == NULL)
        goto done;
    double *tau = q + M * N, *t = tau + N, *sv = t + nt;
    double *c = sv + N, *xk = c + M * nrhs, *cp = xk + M;
    int ex = 0;
    if (big > 0)
        frexp(big, &ex);
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++) {
            double e = ldexp(get(a + i * strides[0] + j * strides[1], dt),
                             -ex);
            q[tall ? j * M + i : i * M + j] = e;
        }
    /* c: b's columns, m rows each (the leading dimension M when tall, m
     * = N when wide) */
    int64_t ldc = tall ? M : N;
    for (int64_t k = 0; k < nrhs; k++)
        for (int64_t i = 0; i < m; i++)
            c[k * ldc + i] = get(b + i * bstrides[0] + k * bs1, dt);
    /* dlalsd's rule: rcond <= 0 or >= 1 is the dtype's unit roundoff */
    double eps = dt == UF_FLOAT32 ? FLT_EPSILON / 2 : DBL_EPSILON / 2;
    double cut = rcond <= 0 || rcond >= 1 ? eps : rcond;
    int64_t r = 0;
    if (qr) {
        for (int64_t j = 0; j < N; j++) {
            double *qj = q + j * M + j;
            tau[j] = uf__nplinalg_house(qj, M - j);
            uf__nplinalg_reflect_cols(qj + M, M, qj, tau[j], M - j,
                                      N - j - 1);
        }
        /* t: R (tall) or R^T (wide), N * N column-major */
        memset(t, 0, (size_t)(N * N) * sizeof *t);
        for (int64_t j = 0; j < N; j++)
            for (int64_t i = 0; i <= j; i++) {
                if (tall)
                    t[j * N + i] = q[j * M + i];
                else
                    t[i * N + j] = q[j * M + i];
            }
        if (tall) /* c = Q^T b: rows N .. M the residual's part */
            for (int64_t k = 0; k < nrhs; k++)
                for (int64_t j = 0; j < N; j++)
                    uf__nplinalg_reflect(q + j * M + j, tau[j],
                                         c + k * M + j, M - j);
        /* the SVD of the triangle, c's first N rows (ld M or N) */
        if (ldc == N) {
            st = uf__nplinalg_gk_solve(t, N, N, sv, c, nrhs, cut, &r);
        } else { /* c's first N rows packed, then put back */
            for (int64_t k = 0; k < nrhs; k++)
                memcpy(cp + k * N, c + k * M, (size_t)N * sizeof *cp);
            st = uf__nplinalg_gk_solve(t, N, N, sv, cp, nrhs, cut, &r);
            for (int64_t k = 0; k < nrhs; k++)
                memcpy(c + k * M, cp + k * N, (size_t)N * sizeof *cp);
        }
    } else {
        st = uf__nplinalg_gk_solve(q, M, N, sv, c, nrhs, cut, &r);
    }
    if (st != 0)
        goto done;
    *rank = (int32_t)r;
    bool resid = r == n && m > n;
    size_t isz = dt == UF_FLOAT32 ? 4 : 8;
    for (int64_t k = 0; k < nrhs; k++) {
        double *ck = c + k * ldc; /* the solution in its first N rows */
        if (tall) {
            for (int64_t j = 0; j < n; j++)
                put(x + (size_t)(j * nrhs + k) * isz, dt,
                    ldexp(ck[j], -ex));
            if (resid) {
                double ss = uf__nplinalg_dot(ck + n, ck + n, m - n);
                put(res + (size_t)k * isz, dt, ss);
            }
            continue;
        }
        memcpy(xk, ck, (size_t)N * sizeof *xk); /* x = Q [y; 0] */
        memset(xk + N, 0, (size_t)(M - N) * sizeof *xk);
        for (int64_t j = N - 1; j >= 0; j--)
            uf__nplinalg_reflect(q + j * M + j, tau[j], xk + j, M - j);
        for (int64_t j = 0; j < n; j++)
            put(x + (size_t)(j * nrhs + k) * isz, dt, ldexp(xk[j], -ex));
    }
    if (resid)
        *nres = nrhs;
    for (int64_t i = 0; i < N; i++)
        put(s + (size_t)i * isz, dt, ldexp(sv[i], ex));
    st = 0;
done:
    uf__free(q);
    return st;
}
