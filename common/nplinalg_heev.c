/* np.linalg.eigh / eigvalsh of a complex Hermitian matrix without
 * LAPACK, as zheev computes it (eigenvalues to n eps |a|, eigenvectors
 * orthonormal to n eps whatever the gaps):
 *   1. zhetd2's Householder reduction of the lower triangle to real
 *      symmetric tridiagonal form, Q^H a Q = T: each reflector
 *      H = I - tau v v^H is zlarfg's, whose beta is real, so T's
 *      off-diagonal comes out real with no further scaling;
 *   2. T's eigenvalues and real eigenvectors Z by nplinalg_eig.c's
 *      implicit QL (the real eigh's solver);
 *   3. the complex back-transform V = Q Z, the reflectors applied to
 *      the rows of Z (zunmtr).
 * float64 throughout on a copy scaled by a power of two (no square
 * overflows; the eigenvalues scale back exactly), complex64 rounded
 * once at the end. The parts are kept in separate arrays so that the
 * updates are plain loops of doubles the compiler vectorises. */
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include <ufjit/dtype.h>

#include "common/alloc.h"
#include "common/nplinalg.h"
#include "common/nplinalg_cplx.h"

#define INLINE static inline __attribute__((always_inline))

/* The reflector of zlarfg: of (alpha, x) (x m long, split parts) makes
 * H = I - tau v v^H with H^H (alpha, x) = (beta, 0), beta real, v = (1,
 * x's new values); alpha becomes beta. tau is 0 where x is 0 and alpha
 * real (no reflection). */
static void larfg(double *ar, double *ai, double *xr, double *xi,
                  int64_t m, double *taur, double *taui)
{
    double big = 0;
    for (int64_t k = 0; k < m; k++)
        big = fmax(big, fmax(fabs(xr[k]), fabs(xi[k])));
    double ss = 0;
    if (big > 0)
        for (int64_t k = 0; k < m; k++) {
            double p = xr[k] / big, q = xi[k] / big;
            ss += p * p + q * q;
        }
    double xnorm = big * sqrt(ss);
    if (xnorm == 0 && *ai == 0) {
        *taur = *taui = 0;
        return;
    }
    double beta = -copysign(hypot(hypot(*ar, *ai), xnorm), *ar);
    *taur = (beta - *ar) / beta;
    *taui = -*ai / beta;
    /* x *= 1 / (alpha - beta) */
    double dr = *ar - beta, di = *ai, dd = dr * dr + di * di;
    double sr = dr / dd, si = -di / dd;
    for (int64_t k = 0; k < m; k++) {
        double p = xr[k], q = xi[k];
        xr[k] = p * sr - q * si;
        xi[k] = p * si + q * sr;
    }
    *ar = beta;
    *ai = 0;
}

/* Householder tridiagonalisation of the Hermitian (ar, ai) (n * n,
 * column-major, lower triangle read and overwritten, the diagonal's
 * imaginary part not read): d the diagonal, e[1..n) the subdiagonal
 * (e[i] between rows i - 1 and i; nplinalg_eig.c's tql's layout),
 * reflector i's v below the subdiagonal of column i and its tau in
 * (tr[i], ti[i]). (yr, yi): n doubles each of scratch. */
INLINE void hetrd(double *ar, double *ai, int64_t n, double *d, double *e,
                  double *tr, double *ti, double *yr, double *yi)
{
    for (int64_t i = 0; i + 1 < n; i++) {
        int64_t p = i + 1, m = n - p; /* A22 = a[p.., p..], m * m */
        double *vr = ar + i * n + p, *vi = ai + i * n + p;
        double taur, taui;
        larfg(vr, vi, vr + 1, vi + 1, m - 1, &taur, &taui);
        e[p] = vr[0];
        tr[i] = taur;
        ti[i] = taui;
        if (taur != 0 || taui != 0) {
            vr[0] = 1;
            vi[0] = 0;
            /* y = A22 v from the lower triangle (zhemv) */
            memset(yr, 0, (size_t)m * sizeof *yr);
            memset(yi, 0, (size_t)m * sizeof *yi);
            for (int64_t j = 0; j < m; j++) {
                const double *cr = ar + (p + j) * n + p;
                const double *ci = ai + (p + j) * n + p;
                double t1r = vr[j], t1i = vi[j], t2r = 0, t2i = 0;
                yr[j] += t1r * cr[j];
                yi[j] += t1i * cr[j];
                for (int64_t k = j + 1; k < m; k++) {
                    yr[k] += t1r * cr[k] - t1i * ci[k];
                    yi[k] += t1r * ci[k] + t1i * cr[k];
                    t2r += cr[k] * vr[k] + ci[k] * vi[k];
                    t2i += cr[k] * vi[k] - ci[k] * vr[k];
                }
                yr[j] += t2r;
                yi[j] += t2i;
            }
            /* w = tau y - tau / 2 (tau y)^H v v: yr, yi become w */
            double hr = 0, hi = 0; /* (tau y)^H v */
            for (int64_t k = 0; k < m; k++) {
                double wr = taur * yr[k] - taui * yi[k];
                double wi = taur * yi[k] + taui * yr[k];
                yr[k] = wr;
                yi[k] = wi;
                hr += wr * vr[k] + wi * vi[k];
                hi += wr * vi[k] - wi * vr[k];
            }
            double alr = -0.5 * (taur * hr - taui * hi);
            double ali = -0.5 * (taur * hi + taui * hr);
            for (int64_t k = 0; k < m; k++) {
                yr[k] += alr * vr[k] - ali * vi[k];
                yi[k] += alr * vi[k] + ali * vr[k];
            }
            /* A22 -= v w^H + w v^H, lower triangle (zher2) */
            for (int64_t j = 0; j < m; j++) {
                double *cr = ar + (p + j) * n + p;
                double *ci = ai + (p + j) * n + p;
                double wr = yr[j], wi = -yi[j]; /* conj(w_j) */
                double ur = vr[j], ui = -vi[j]; /* conj(v_j) */
                for (int64_t k = j; k < m; k++) {
                    cr[k] -= vr[k] * wr - vi[k] * wi + yr[k] * ur -
                             yi[k] * ui;
                    ci[k] -= vr[k] * wi + vi[k] * wr + yr[k] * ui +
                             yi[k] * ur;
                }
            }
        }
        d[i] = ar[i * n + i];
    }
    d[n - 1] = ar[(n - 1) * n + n - 1];
    e[0] = 0;
}

/* (vr, vi) (n * n, row-major) = Q (vr, vi) with Q = H(0) ... H(n - 2)
 * the reflectors hetrd left in (ar, ai), tr, ti: H(n - 2) applied
 * first, each to the rows below its index, a row at a time so that
 * both loops run along rows (sr, si: n doubles of scratch). */
INLINE void unmtr(const double *ar, const double *ai, const double *tr,
                  const double *ti, int64_t n, double *vr, double *vi,
                  double *sr, double *si)
{
    for (int64_t i = n - 2; i >= 0; i--) {
        if (tr[i] == 0 && ti[i] == 0)
            continue;
        int64_t p = i + 1;
        const double *ur = ar + i * n, *ui = ai + i * n; /* v = u[p..] */
        /* s = v^H V[p.., :] */
        memset(sr, 0, (size_t)n * sizeof *sr);
        memset(si, 0, (size_t)n * sizeof *si);
        for (int64_t k = p; k < n; k++) {
            double cr = k == p ? 1 : ur[k], ci = k == p ? 0 : -ui[k];
            const double *rr = vr + k * n, *ri = vi + k * n;
            for (int64_t c = 0; c < n; c++) {
                sr[c] += cr * rr[c] - ci * ri[c];
                si[c] += cr * ri[c] + ci * rr[c];
            }
        }
        /* V[p.., :] -= (tau v) s */
        for (int64_t k = p; k < n; k++) {
            double xr = k == p ? 1 : ur[k], xi = k == p ? 0 : ui[k];
            double fr = tr[i] * xr - ti[i] * xi;
            double fi = tr[i] * xi + ti[i] * xr;
            double *rr = vr + k * n, *ri = vi + k * n;
            for (int64_t c = 0; c < n; c++) {
                rr[c] -= fr * sr[c] - fi * si[c];
                ri[c] -= fr * si[c] + fi * sr[c];
            }
        }
    }
}

/* hetrd and unmtr compiled twice, for any x86-64 (SSE2) and for AVX2
 * (the same operations, so the same bits), as nplinalg_gk.c's reductions. */
static void reduce_any(double *ar, double *ai, int64_t n, double *d,
                       double *e, double *tr, double *ti, double *yr,
                       double *yi)
{
    hetrd(ar, ai, n, d, e, tr, ti, yr, yi);
}

static void back_any(const double *ar, const double *ai, const double *tr,
                     const double *ti, int64_t n, double *vr, double *vi,
                     double *sr, double *si)
{
    unmtr(ar, ai, tr, ti, n, vr, vi, sr, si);
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define HEEV_X86 1
__attribute__((target("avx2"))) static void
reduce_avx2(double *ar, double *ai, int64_t n, double *d, double *e,
            double *tr, double *ti, double *yr, double *yi)
{
    hetrd(ar, ai, n, d, e, tr, ti, yr, yi);
}

__attribute__((target("avx2"))) static void
back_avx2(const double *ar, const double *ai, const double *tr,
          const double *ti, int64_t n, double *vr, double *vi, double *sr,
          double *si)
{
    unmtr(ar, ai, tr, ti, n, vr, vi, sr, si);
}
#endif

static bool avx2(void)
{
#ifdef HEEV_X86
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2");
#else
    return false;
#endif
}

int uf__nplinalg_c_eigh(const char *a, const int64_t *shape,
                        const int64_t *strides, int32_t dt, char *w,
                        char *v)
{
    int64_t n = shape[0];
    if (shape[1] != n)
        return UF__NPLINALG_SQUARE;
    double big = 0;
    for (int64_t i = 0; i < n; i++) /* Numba checks all of a */
        for (int64_t j = 0; j < n; j++) {
            double complex z =
                uf__cplx_get(a + i * strides[0] + j * strides[1], dt);
            if (!isfinite(creal(z)) || !isfinite(cimag(z)))
                return UF__NPLINALG_NONFINITE; /* (fmax drops a NaN) */
            big = fmax(big, fmax(fabs(creal(z)), fabs(cimag(z))));
        }
    if (n == 0)
        return 0;
    int ex = 0;
    if (big > 0)
        frexp(big, &ex);
    size_t nn = (size_t)(n * n), nv = v ? nn : 0;
    /* a's parts, Z, V's parts; d, e, tau's parts, two scratch vectors */
    double *buf = uf__malloc(2 * nn + 3 * nv + 7 * (size_t)n,
                             sizeof(double), NULL);
    int64_t *ix = uf__malloc((size_t)n, sizeof(int64_t), NULL);
    int st = 0;
    if (buf == NULL || ix == NULL) {
        st = UF__NPLINALG_NOMEM;
        goto done;
    }
    double *ar = buf, *ai = ar + nn, *z = ai + nn, *vr = z + nv,
           *vi = vr + nv, *d = vi + nv, *e = d + n, *tr = e + n,
           *ti = tr + n, *s1 = ti + n, *s2 = s1 + n;
    for (int64_t j = 0; j < n; j++) /* the lower triangle, scaled */
        for (int64_t i = j; i < n; i++) {
            double complex x =
                uf__cplx_get(a + i * strides[0] + j * strides[1], dt);
            ar[j * n + i] = ldexp(creal(x), -ex);
            ai[j * n + i] = i == j ? 0 : ldexp(cimag(x), -ex);
        }
    bool wide = avx2();
#ifdef HEEV_X86
    if (wide)
        reduce_avx2(ar, ai, n, d, e, tr, ti, s1, s2);
    else
#endif
        reduce_any(ar, ai, n, d, e, tr, ti, s1, s2);
    if (v != NULL) {
        memset(z, 0, nn * sizeof *z);
        for (int64_t i = 0; i < n; i++)
            z[i * n + i] = 1;
    }
    if (!uf__nplinalg_tql(v != NULL ? z : NULL, n, d, e)) {
        st = UF__NPLINALG_CONVERGE;
        goto done;
    }
    for (int64_t j = 0; j < n; j++) /* ascending, stable */
        ix[j] = j;
    for (int64_t j = 1; j < n; j++) {
        int64_t t = ix[j], k = j;
        for (; k > 0 && d[ix[k - 1]] > d[t]; k--)
            ix[k] = ix[k - 1];
        ix[k] = t;
    }
    bool f = dt == UF_COMPLEX64;
    for (int64_t k = 0; k < n; k++) {
        double x = ldexp(d[ix[k]], ex);
        if (f)
            ((float *)w)[k] = (float)x;
        else
            ((double *)w)[k] = x;
    }
    if (v == NULL)
        goto done;
    for (int64_t i = 0; i < n; i++) /* V = Z, row-major, sorted */
        for (int64_t k = 0; k < n; k++) {
            vr[i * n + k] = z[ix[k] * n + i];
            vi[i * n + k] = 0;
        }
#ifdef HEEV_X86
    if (wide)
        back_avx2(ar, ai, tr, ti, n, vr, vi, s1, s2);
    else
#endif
        back_any(ar, ai, tr, ti, n, vr, vi, s1, s2);
    size_t isz = f ? 8 : 16;
    for (size_t q = 0; q < nn; q++)
        uf__cplx_put(v + q * isz, dt, CMPLX(vr[q], vi[q]));
done:
    uf__free(buf);
    uf__free(ix);
    return st;
}
