/* np.linalg.eig / eigvals of complex64 / complex128 matrices without
 * LAPACK (nplinalg.h; nplinalg_eig.c hands complex dtypes here), the
 * steps of LAPACK's zgeev without its balancing: a complex128 copy
 * scaled by a power of two, reduced to upper Hessenberg form by
 * Householder reflections, then to upper triangular (Schur) form by
 * single-shift QR sweeps as zlahqr's (Wilkinson's shift from the
 * trailing 2 x 2, exceptional shifts at the 10th and 20th sweeps of an
 * eigenvalue, Givens rotations chasing the bulge), the transformations
 * accumulated in Z. The eigenvalues are the diagonal of the Schur form,
 * in its order; the eigenvectors Z y for y the back-substitution of the
 * triangle (ztrevc's, a near-zero divisor replaced by eps |t_kk|), each
 * normalised as zgeev's: unit 2-norm, its component of largest modulus
 * real and positive. complex64 is computed in float64 and rounded. */
#include <complex.h>
#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include <ufjit/dtype.h>

#include "common/alloc.h"
#include "common/nplinalg.h"
#include "common/nplinalg_cplx.h"

typedef double complex cplx;

static double cabs1(cplx z)
{
    return fabs(creal(z)) + fabs(cimag(z));
}

/* h (n * n, row-major) = P h P with P = I - 2 w w^H / |w|^2 reducing
 * column k below the subdiagonal, z = z P. */
static void hessenberg(cplx *h, cplx *z, int64_t n, cplx *w)
{
    for (int64_t k = 0; k + 2 < n; k++) {
        int64_t len = n - k - 1;
        double nn = 0, tail = 0;
        for (int64_t i = 0; i < len; i++) {
            w[i] = h[(k + 1 + i) * n + k];
            double a = cabs(w[i]);
            nn = hypot(nn, a);
            if (i > 0)
                tail = fmax(tail, a);
        }
        if (tail == 0)
            continue;
        double a0 = cabs(w[0]);
        cplx ph = a0 > 0 ? w[0] / a0 : 1;
        cplx beta = -ph * nn; /* w = x - beta e1, no cancellation */
        w[0] -= beta;
        double ww = 0;
        for (int64_t i = 0; i < len; i++)
            ww += creal(w[i]) * creal(w[i]) + cimag(w[i]) * cimag(w[i]);
        double f = 2 / ww;
        for (int64_t j = k; j < n; j++) { /* rows k+1.. from the left */
            cplx d = 0;
            for (int64_t i = 0; i < len; i++)
                d += conj(w[i]) * h[(k + 1 + i) * n + j];
            d *= f;
            for (int64_t i = 0; i < len; i++)
                h[(k + 1 + i) * n + j] -= d * w[i];
        }
        for (int64_t i = 0; i < n; i++) { /* columns k+1.. from the right */
            cplx d = 0, *hi = h + i * n + k + 1, *zi = z + i * n + k + 1;
            for (int64_t j = 0; j < len; j++)
                d += hi[j] * w[j];
            d *= f;
            for (int64_t j = 0; j < len; j++)
                hi[j] -= d * conj(w[j]);
            d = 0;
            for (int64_t j = 0; j < len; j++)
                d += zi[j] * w[j];
            d *= f;
            for (int64_t j = 0; j < len; j++)
                zi[j] -= d * conj(w[j]);
        }
        h[(k + 1) * n + k] = beta;
        for (int64_t i = k + 2; i < n; i++)
            h[i * n + k] = 0;
    }
}

/* The Givens rotation G = [[c, s], [-conj(s), c]] (c real) with G [x; y]
 * = [r; 0]. */
static void givens(cplx x, cplx y, double *c, cplx *s)
{
    double ax = cabs(x), ay = cabs(y);
    if (ay == 0) {
        *c = 1;
        *s = 0;
        return;
    }
    if (ax == 0) {
        *c = 0;
        *s = conj(y) / ay;
        return;
    }
    double r = hypot(ax, ay);
    *c = ax / r;
    *s = x / ax * conj(y) / r;
}

/* h (Hessenberg) to upper triangular by single-shift QR, z = z Q; false
 * when an eigenvalue takes more than zlahqr's 30 max(10, n) sweeps. */
static bool schur(cplx *h, cplx *z, int64_t n)
{
    const double eps = DBL_EPSILON, small = DBL_MIN * (double)n / eps;
    int64_t itmax = 30 * (n > 10 ? n : 10);
    int64_t hi = n - 1, its = 0;
    while (hi > 0) {
        int64_t l = hi;
        for (; l > 0; l--) { /* a negligible subdiagonal: deflate there */
            double sub = cabs1(h[l * n + l - 1]);
            double tst = cabs1(h[(l - 1) * n + l - 1]) + cabs1(h[l * n + l]);
            if (tst == 0 && l + 1 <= hi)
                tst = fabs(creal(h[(l + 1) * n + l]));
            if (sub <= small || sub <= eps * tst) {
                h[l * n + l - 1] = 0;
                break;
            }
        }
        if (l == hi) {
            hi--;
            its = 0;
            continue;
        }
        if (++its > itmax)
            return false;
        cplx mu;
        if (its == 10) /* zlahqr's exceptional shifts */
            mu = 0.75 * fabs(creal(h[(l + 1) * n + l])) + h[l * n + l];
        else if (its == 20)
            mu = 0.75 * fabs(creal(h[hi * n + hi - 1])) + h[hi * n + hi];
        else { /* the eigenvalue of the trailing 2 x 2 nearer its corner */
            cplx a = h[(hi - 1) * n + hi - 1], b = h[(hi - 1) * n + hi];
            cplx c = h[hi * n + hi - 1], d = h[hi * n + hi];
            cplx half = (a - d) / 2, disc = csqrt(half * half + b * c);
            cplx m1 = d - (b * c) / (half + disc);
            cplx m2 = d - (b * c) / (half - disc);
            if (half + disc == 0)
                m1 = d;
            if (half - disc == 0)
                m2 = d;
            mu = cabs1(m1 - d) <= cabs1(m2 - d) ? m1 : m2;
            if (!isfinite(creal(mu)) || !isfinite(cimag(mu)))
                mu = d;
        }
        for (int64_t k = l; k < hi; k++) { /* chase the bulge */
            cplx x = k == l ? h[l * n + l] - mu : h[k * n + k - 1];
            cplx y = k == l ? h[(l + 1) * n + l] : h[(k + 1) * n + k - 1];
            double c;
            cplx s;
            givens(x, y, &c, &s);
            for (int64_t j = k > l ? k - 1 : l; j < n; j++) { /* G h */
                cplx p = h[k * n + j], q = h[(k + 1) * n + j];
                h[k * n + j] = c * p + s * q;
                h[(k + 1) * n + j] = c * q - conj(s) * p;
            }
            if (k > l)
                h[(k + 1) * n + k - 1] = 0;
            int64_t top = k + 2 < hi ? k + 2 : hi;
            for (int64_t i = 0; i <= top; i++) { /* h G^H */
                cplx p = h[i * n + k], q = h[i * n + k + 1];
                h[i * n + k] = c * p + conj(s) * q;
                h[i * n + k + 1] = c * q - s * p;
            }
            for (int64_t i = 0; i < n; i++) { /* z G^H */
                cplx p = z[i * n + k], q = z[i * n + k + 1];
                z[i * n + k] = c * p + conj(s) * q;
                z[i * n + k + 1] = c * q - s * p;
            }
        }
    }
    return true;
}

/* v (n * n, column k the eigenvector of t_kk) = z y_k, y_k the
 * back-substitution of the triangular t, normalised as zgeev's; y is n
 * scratch. */
static void vectors(const cplx *t, const cplx *z, int64_t n, cplx *y,
                    cplx *v)
{
    for (int64_t k = 0; k < n; k++) {
        cplx lam = t[k * n + k];
        double smin = fmax(DBL_EPSILON * cabs1(lam), DBL_MIN);
        y[k] = 1;
        for (int64_t j = k - 1; j >= 0; j--) {
            cplx s = 0;
            for (int64_t l = j + 1; l <= k; l++)
                s += t[j * n + l] * y[l];
            cplx den = t[j * n + j] - lam;
            if (cabs1(den) < smin)
                den = smin;
            y[j] = -s / den;
            if (cabs1(y[j]) > 0x1p500) /* rescale before it overflows */
                for (int64_t l = j; l <= k; l++)
                    y[l] *= 0x1p-500;
        }
        double nn = 0;
        for (int64_t i = 0; i < n; i++) {
            cplx s = 0;
            for (int64_t l = 0; l <= k; l++)
                s += z[i * n + l] * y[l];
            v[i * n + k] = s;
            nn = hypot(nn, cabs(s));
        }
        int64_t big = 0;
        double bm = -1;
        for (int64_t i = 0; i < n; i++) {
            cplx s = v[i * n + k] / nn;
            v[i * n + k] = s;
            double m2 = creal(s) * creal(s) + cimag(s) * cimag(s);
            if (m2 > bm) {
                bm = m2;
                big = i;
            }
        }
        cplx ph = conj(v[big * n + k]) / sqrt(bm);
        for (int64_t i = 0; i < n; i++)
            v[i * n + k] *= ph;
        v[big * n + k] = creal(v[big * n + k]);
    }
}

int uf__nplinalg_c_eig(const char *a, const int64_t *shape,
                       const int64_t *strides, int32_t dt, char *w, char *v)
{
    int64_t n = shape[1];
    if (shape[0] != n)
        return UF__NPLINALG_SQUARE;
    double big = 0;
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < n; j++) {
            cplx e = uf__cplx_get(a + i * strides[0] + j * strides[1], dt);
            if (!isfinite(creal(e)) || !isfinite(cimag(e)))
                return UF__NPLINALG_NONFINITE;
            big = fmax(big, fmax(fabs(creal(e)), fabs(cimag(e))));
        }
    if (n == 0)
        return 0;
    cplx *h = uf__malloc((size_t)(n * n), sizeof(cplx), NULL);
    cplx *z = uf__malloc((size_t)(n * n), sizeof(cplx), NULL);
    cplx *y = uf__malloc((size_t)n, sizeof(cplx), NULL);
    cplx *vv = v ? uf__malloc((size_t)(n * n), sizeof(cplx), NULL) : NULL;
    int st = 0;
    if (h == NULL || z == NULL || y == NULL || (v && vv == NULL)) {
        st = UF__NPLINALG_NOMEM;
        goto done;
    }
    int ex = 0;
    if (big > 0)
        frexp(big, &ex);
    double sc = ldexp(1.0, -ex);
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < n; j++) {
            h[i * n + j] =
                uf__cplx_get(a + i * strides[0] + j * strides[1], dt) * sc;
            z[i * n + j] = i == j;
        }
    hessenberg(h, z, n, y);
    if (!schur(h, z, n)) {
        st = UF__NPLINALG_CONVERGE;
        goto done;
    }
    size_t isz = uf_dtype_itemsize((uf_dtype)dt);
    for (int64_t k = 0; k < n; k++)
        uf__cplx_put(w + (size_t)k * isz, dt, h[k * n + k] * ldexp(1.0, ex));
    if (v == NULL)
        goto done;
    vectors(h, z, n, y, vv);
    for (int64_t i = 0; i < n * n; i++)
        uf__cplx_put(v + (size_t)i * isz, dt, vv[i]);
done:
    uf__free(h);
    uf__free(z);
    uf__free(y);
    uf__free(vv);
    return st;
}
