/* np.linalg.svd, pinv and lstsq of complex64 / complex128 matrices
 * without LAPACK (nplinalg.h; nplinalg_svd.c and nplinalg_lstsq.c hand
 * complex dtypes here): one-sided Jacobi (Hestenes) on the columns of a
 * complex128 column-major copy of a (of a^H when a is wide), scaled by a
 * power of two so that no sum of squares overflows. A pair of columns
 * (p, q) with p^H q = g = |g| e^(i phi) is made real first (q times
 * e^(-i phi), so p^H q = |g|), then rotated by a real Jacobi rotation
 * (Hestenes'); the same column operations accumulate V. When no
 * pair is left with |p^H q| > eps |p| |q| the column norms are the
 * singular values, the normalised columns U; columns of U for singular
 * values at rounding noise, and the extra ones of full_matrices, are
 * completed by complex Gram-Schmidt on the unit vectors. complex64 is
 * decomposed in float64 and rounded once; s is of the parts' float dtype
 * (Numba's cgesdd / zgesdd). pinv and lstsq are built on the reduced
 * decomposition. */
#include <complex.h>
#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include <ufjit/dtype.h>

#include "common/alloc.h"
#include "common/nplinalg.h"
#include "common/nplinalg_cplx.h"

#define SWEEPS 80

typedef double complex cplx;

/* A real of the parts' dtype (svd's s, lstsq's residuals and s). */
static void rput(char *p, int32_t dt, double v)
{
    if (dt == UF_COMPLEX64) {
        float f = (float)v;
        memcpy(p, &f, sizeof f);
    } else {
        memcpy(p, &v, sizeof v);
    }
}

/* p^H q over n complex elements, the parts as interleaved doubles. */
static void cdot(const double *restrict p, const double *restrict q,
                 int64_t n, double *gr, double *gi)
{
    double r = 0, i = 0;
    for (int64_t k = 0; k < n; k++) {
        double pr = p[2 * k], pi = p[2 * k + 1];
        double qr = q[2 * k], qi = q[2 * k + 1];
        r += pr * qr + pi * qi;
        i += pr * qi - pi * qr;
    }
    *gr = r;
    *gi = i;
}

/* q' = (er + i ei) q, then (p, q) = (c p - s q', s p + c q'). */
static void crot(double *restrict p, double *restrict q, int64_t n,
                 double c, double s, double er, double ei)
{
    for (int64_t k = 0; k < n; k++) {
        double qr = er * q[2 * k] - ei * q[2 * k + 1];
        double qi = er * q[2 * k + 1] + ei * q[2 * k];
        double pr = p[2 * k], pi = p[2 * k + 1];
        p[2 * k] = c * pr - s * qr;
        p[2 * k + 1] = c * pi - s * qi;
        q[2 * k] = s * pr + c * qr;
        q[2 * k + 1] = s * pi + c * qi;
    }
}

/* The complex sweeps: x (M * N complex, column-major) and, when not
 * NULL, v (N * N) rotated until the columns of x are orthogonal; d is N
 * doubles of scratch (the squared column norms, updated by each rotation
 * (Hestenes: |x_p'|^2 = |x_p|^2 - t x_p.x_q)); false when SWEEPS are
 * not enough. */
static bool jacobi(double *x, int64_t M, int64_t N, double *v, double *d)
{
    double frob = 0;
    for (int64_t j = 0; j < N; j++)
        frob += uf__nplinalg_dot(x + 2 * j * M, x + 2 * j * M, 2 * M);
    double noise = DBL_EPSILON * DBL_EPSILON * frob;
    for (int sweep = 0; sweep < SWEEPS; sweep++) {
        bool rotated = false;
        for (int64_t j = 0; j < N; j++)
            d[j] = uf__nplinalg_dot(x + 2 * j * M, x + 2 * j * M, 2 * M);
        for (int64_t p = 0; p + 1 < N; p++)
            for (int64_t q = p + 1; q < N; q++) {
                double *xp = x + 2 * p * M, *xq = x + 2 * q * M;
                double al = d[p], be = d[q];
                if (al <= noise || be <= noise)
                    continue;
                double gr, gi;
                cdot(xp, xq, M, &gr, &gi);
                double ga = hypot(gr, gi);
                if (ga == 0 || !(ga > DBL_EPSILON * sqrt(al * be)))
                    continue;
                rotated = true;
                double zeta = (be - al) / (2 * ga);
                double t = copysign(1.0, zeta) /
                           (fabs(zeta) + sqrt(1 + zeta * zeta));
                double c = 1 / sqrt(1 + t * t), s = c * t;
                crot(xp, xq, M, c, s, gr / ga, -gi / ga);
                if (v != NULL)
                    crot(v + 2 * p * N, v + 2 * q * N, N, c, s, gr / ga,
                         -gi / ga);
                double np = al - t * ga, nq = be + t * ga;
                d[p] = np < 0.25 * al ? uf__nplinalg_dot(xp, xp, 2 * M) : np;
                d[q] = nq < 0.25 * be ? uf__nplinalg_dot(xq, xq, 2 * M) : nq;
            }
        if (!rotated)
            return true;
    }
    return false;
}

/* The columns j of u (M rows, complex) where live[j] is false made
 * orthonormal to the live ones and to each other, from the unit vectors
 * (Gram-Schmidt twice; some unit vector keeps >= 1/M of its square in
 * the complement: the first with half is taken). */
static void complete(cplx *u, int64_t M, int64_t ncol, bool *live)
{
    for (int64_t j = 0; j < ncol; j++) {
        if (live[j])
            continue;
        cplx *uj = u + j * M;
        for (int64_t e = 0; e < M; e++) {
            for (int64_t i = 0; i < M; i++)
                uj[i] = i == e;
            for (int pass = 0; pass < 2; pass++)
                for (int64_t k = 0; k < ncol; k++) {
                    if (k == j || !live[k])
                        continue;
                    const cplx *uk = u + k * M;
                    cplx d = 0;
                    for (int64_t i = 0; i < M; i++)
                        d += conj(uk[i]) * uj[i];
                    for (int64_t i = 0; i < M; i++)
                        uj[i] -= d * uk[i];
                }
            double nn = 0;
            for (int64_t i = 0; i < M; i++)
                nn += creal(uj[i]) * creal(uj[i]) +
                      cimag(uj[i]) * cimag(uj[i]);
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

/* The SVD of the m * n complex a (finite, not empty) in float64: s[0..k)
 * descending, and when u is not NULL u (m * ucol, row-major) and vh
 * (vrow * n), ucol = vrow = k, or m and n when full. */
static int csvd(const char *a, const int64_t *shape, const int64_t *strides,
                int32_t dt, bool full, cplx *u, double *s, cplx *vh)
{
    int64_t m = shape[0], n = shape[1];
    bool tall = m >= n, uv = u != NULL;
    int64_t M = tall ? m : n, N = tall ? n : m;
    int64_t ucol = full ? M : N;
    double big = 0;
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++) {
            cplx e = uf__cplx_get(a + i * strides[0] + j * strides[1], dt);
            big = fmax(big, fmax(fabs(creal(e)), fabs(cimag(e))));
        }
    cplx *x = uf__malloc((size_t)(M * N), sizeof(cplx), NULL);
    cplx *v = uv ? uf__malloc((size_t)(N * N), sizeof(cplx), NULL) : NULL;
    cplx *uu = uv ? uf__malloc((size_t)(M * ucol), sizeof(cplx), NULL) : NULL;
    double *d = uf__malloc((size_t)(2 * N), sizeof(double), NULL);
    int64_t *ix = uf__malloc((size_t)N, sizeof(int64_t), NULL);
    bool *live = uv ? uf__malloc((size_t)ucol, sizeof(bool), NULL) : NULL;
    int st = 0;
    if (x == NULL || d == NULL || ix == NULL ||
        (uv && (v == NULL || uu == NULL || live == NULL))) {
        st = UF__NPLINALG_NOMEM;
        goto done;
    }
    double *sv = d + N;
    int ex = 0;
    if (big > 0)
        frexp(big, &ex);
    double sc = ldexp(1.0, -ex);
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++) {
            cplx e = uf__cplx_get(a + i * strides[0] + j * strides[1], dt) * sc;
            if (tall)
                x[j * M + i] = e;
            else
                x[i * M + j] = conj(e); /* a^H */
        }
    if (uv)
        for (int64_t j = 0; j < N; j++)
            for (int64_t i = 0; i < N; i++)
                v[j * N + i] = i == j;
    if (!jacobi((double *)x, M, N, (double *)v, d)) {
        st = UF__NPLINALG_CONVERGE;
        goto done;
    }
    double frob = 0;
    for (int64_t j = 0; j < N; j++) {
        double nn = uf__nplinalg_dot((double *)(x + j * M),
                                     (double *)(x + j * M), 2 * M);
        frob += nn;
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
    if (!uv)
        goto done;
    /* the left vectors (M * ucol) in order: live columns normalised, a
     * noise column's direction (not orthogonal to the others) and the
     * extra ones completed */
    double noise = DBL_EPSILON * DBL_EPSILON * frob;
    for (int64_t k = 0; k < ucol; k++) {
        cplx *uk = uu + k * M;
        live[k] = k < N && sv[ix[k]] * sv[ix[k]] > noise;
        if (live[k])
            for (int64_t i = 0; i < M; i++)
                uk[i] = x[ix[k] * M + i] / sv[ix[k]];
    }
    complete(uu, M, ucol, live);
    /* tall: u = left (m * ucol), vh = V^H (n * n); wide: a^H = left S
     * V^H, so u = V (m * m), vh = left^H (ucol * n) */
    for (int64_t k = 0; k < N; k++)
        for (int64_t i = 0; i < N; i++) {
            cplx e = v[ix[k] * N + i]; /* row i of V's column k */
            if (tall)
                vh[k * N + i] = conj(e);
            else
                u[i * N + k] = e;
        }
    for (int64_t k = 0; k < ucol; k++)
        for (int64_t i = 0; i < M; i++) {
            cplx e = uu[k * M + i];
            if (tall)
                u[i * ucol + k] = e;
            else
                vh[k * M + i] = conj(e);
        }
done:
    uf__free(x);
    uf__free(v);
    uf__free(uu);
    uf__free(d);
    uf__free(ix);
    uf__free(live);
    return st;
}

/* Whether every part of the m * n complex a is finite. */
static bool all_finite(const char *a, int64_t m, int64_t n,
                   const int64_t *strides, int32_t dt)
{
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++) {
            cplx e = uf__cplx_get(a + i * strides[0] + j * strides[1], dt);
            if (!isfinite(creal(e)) || !isfinite(cimag(e)))
                return false;
        }
    return true;
}

int uf__nplinalg_c_svd(const char *a, const int64_t *shape,
                       const int64_t *strides, int32_t dt, int32_t full,
                       char *u, char *s, char *vh)
{
    int64_t m = shape[0], n = shape[1], k = m < n ? m : n;
    if (m == 0 || n == 0)
        return UF__NPLINALG_EMPTY;
    if (!all_finite(a, m, n, strides, dt))
        return UF__NPLINALG_NONFINITE;
    int64_t ucol = full ? m : k, vrow = full ? n : k;
    double *sv = uf__malloc((size_t)k, sizeof(double), NULL);
    cplx *uw = u ? uf__malloc((size_t)(m * ucol), sizeof(cplx), NULL) : NULL;
    cplx *vw = u ? uf__malloc((size_t)(vrow * n), sizeof(cplx), NULL) : NULL;
    int st = sv == NULL || (u && (uw == NULL || vw == NULL))
                 ? UF__NPLINALG_NOMEM
                 : csvd(a, shape, strides, dt, full != 0, uw, sv, vw);
    if (st == 0) {
        size_t isz = uf_dtype_itemsize((uf_dtype)dt);
        for (int64_t i = 0; i < k; i++)
            rput(s + (size_t)i * isz / 2, dt, sv[i]);
        for (int64_t i = 0; u && i < m * ucol; i++)
            uf__cplx_put(u + (size_t)i * isz, dt, uw[i]);
        for (int64_t i = 0; u && i < vrow * n; i++)
            uf__cplx_put(vh + (size_t)i * isz, dt, vw[i]);
    }
    uf__free(sv);
    uf__free(uw);
    uf__free(vw);
    return st;
}

int uf__nplinalg_c_singular(const char *a, const int64_t *shape,
                            const int64_t *strides, int32_t dt, double *s)
{
    int64_t m = shape[0], n = shape[1], k = m < n ? m : n;
    if (m == 0 || n == 0)
        return UF__NPLINALG_EMPTY;
    if (!all_finite(a, m, n, strides, dt))
        return UF__NPLINALG_NONFINITE;
    int st = csvd(a, shape, strides, dt, false, NULL, s, NULL);
    if (st == 0 && dt == UF_COMPLEX64)
        for (int64_t i = 0; i < k; i++)
            s[i] = (float)s[i];
    return st;
}

/* The reduced SVD of a (finite, m, n > 0) into fresh scratch: *u (m *
 * k), *s (k), *vh (k * n), the caller frees the three. */
static int reduced(const char *a, const int64_t *shape,
                   const int64_t *strides, int32_t dt, cplx **u, double **s,
                   cplx **vh)
{
    int64_t m = shape[0], n = shape[1], k = m < n ? m : n;
    *u = uf__malloc((size_t)(m * k), sizeof(cplx), NULL);
    *vh = uf__malloc((size_t)(k * n), sizeof(cplx), NULL);
    *s = uf__malloc((size_t)k, sizeof(double), NULL);
    if (*u == NULL || *vh == NULL || *s == NULL)
        return UF__NPLINALG_NOMEM;
    int st = csvd(a, shape, strides, dt, false, *u, *s, *vh);
    if (st == 0 && dt == UF_COMPLEX64) /* cgesdd's s, in float32 */
        for (int64_t i = 0; i < k; i++)
            (*s)[i] = (float)(*s)[i];
    return st;
}

/* out (n * m) = V S+ U^H as Numba's pinv: the singular values s[t] >
 * s[0] * rcond inverted, and the products over t < cut, cut one past the
 * last of them, or 1 when there is none (Numba's cut_idx; s[0] then
 * multiplies, not inverted). */
int uf__nplinalg_c_pinv(const char *a, const int64_t *shape,
                        const int64_t *strides, int32_t dt, double rcond,
                        char *out)
{
    int64_t m = shape[0], n = shape[1], k = m < n ? m : n;
    if (!all_finite(a, m, n, strides, dt)) /* Numba checks before the sizes */
        return UF__NPLINALG_NONFINITE;
    if (k == 0)
        return 0;
    cplx *u, *vh;
    double *s;
    int st = reduced(a, shape, strides, dt, &u, &s, &vh);
    if (st == 0) {
        double at = s[0] * rcond;
        int64_t cut = 0;
        for (int64_t t = 0; t < k; t++)
            if (s[t] > at) {
                s[t] = 1 / s[t];
                cut = t;
            }
        cut++;
        if (dt == UF_COMPLEX64)
            for (int64_t t = 0; t < k; t++)
                s[t] = (float)s[t];
        size_t isz = uf_dtype_itemsize((uf_dtype)dt);
        for (int64_t i = 0; i < n; i++)
            for (int64_t j = 0; j < m; j++) {
                cplx x = 0;
                for (int64_t t = 0; t < cut; t++)
                    x += conj(vh[t * n + i]) * s[t] * conj(u[j * k + t]);
                uf__cplx_put(out + (size_t)(i * m + j) * isz, dt, x);
            }
    }
    uf__free(u);
    uf__free(vh);
    uf__free(s);
    return st;
}

/* lstsq of a complex a through its reduced SVD: x_k = sum over the
 * singular values above the cut (gelsd's rank) of V_t (U_t^H b_k) / s_t;
 * the residuals |b_k - U U^H b_k|^2 where the rank is n < m. */
int uf__nplinalg_c_lstsq(const char *a, const int64_t *shape,
                         const int64_t *strides, const char *b, int64_t bnd,
                         const int64_t *bshape, const int64_t *bstrides,
                         int32_t dt, double rcond, char *x, char *res,
                         int64_t *nres, int32_t *rank, char *s)
{
    int64_t m = shape[0], n = shape[1], k = m < n ? m : n;
    int64_t nrhs = bnd == 1 ? 1 : bshape[1];
    int64_t bs[2] = {bstrides[0], bnd == 1 ? 0 : bstrides[1]};
    *nres = 0;
    *rank = 0;
    if (!all_finite(a, m, n, strides, dt) || /* Numba's order of checks */
        !all_finite(b, bshape[0], nrhs, bs, dt))
        return UF__NPLINALG_NONFINITE;
    if (m == 0 || n == 0 || bshape[0] == 0 || nrhs == 0)
        return UF__NPLINALG_EMPTY;
    if (bshape[0] != m)
        return UF__NPLINALG_SYSTEM;
    cplx *u, *vh, *c = uf__malloc((size_t)(m + k), sizeof(cplx), NULL);
    double *sv;
    int st = reduced(a, shape, strides, dt, &u, &sv, &vh);
    if (st == 0 && c == NULL)
        st = UF__NPLINALG_NOMEM;
    if (st != 0)
        goto done;
    /* zlalsd's rule: rcond <= 0 or >= 1 is the parts' unit roundoff */
    double eps = dt == UF_COMPLEX64 ? FLT_EPSILON / 2 : DBL_EPSILON / 2;
    double cut = (rcond <= 0 || rcond >= 1 ? eps : rcond) * sv[0];
    int64_t r = 0;
    while (r < k && sv[r] > cut)
        r++;
    *rank = (int32_t)r;
    bool resid = r == n && m > n;
    size_t isz = uf_dtype_itemsize((uf_dtype)dt);
    cplx *y = c + m; /* U^H b_k */
    for (int64_t j = 0; j < nrhs; j++) {
        for (int64_t i = 0; i < m; i++)
            c[i] = uf__cplx_get(b + i * bs[0] + j * bs[1], dt);
        for (int64_t t = 0; t < r; t++) {
            cplx z = 0;
            for (int64_t i = 0; i < m; i++)
                z += conj(u[i * k + t]) * c[i];
            y[t] = z;
        }
        for (int64_t i = 0; i < n; i++) {
            cplx z = 0;
            for (int64_t t = 0; t < r; t++)
                z += conj(vh[t * n + i]) * (y[t] / sv[t]);
            uf__cplx_put(x + (size_t)(i * nrhs + j) * isz, dt, z);
        }
        if (resid) {
            double ss = 0;
            for (int64_t i = 0; i < m; i++) {
                cplx z = c[i];
                for (int64_t t = 0; t < r; t++)
                    z -= u[i * k + t] * y[t];
                ss += creal(z) * creal(z) + cimag(z) * cimag(z);
            }
            rput(res + (size_t)j * isz / 2, dt, ss);
        }
    }
    if (resid)
        *nres = nrhs;
    for (int64_t t = 0; t < k; t++)
        rput(s + (size_t)t * isz / 2, dt, sv[t]);
done:
    uf__free(u);
    uf__free(vh);
    uf__free(sv);
    uf__free(c);
    return st;
}
