/* The eigenvalue problems behind np.linalg.eigh / eigvalsh and eig /
 * eigvals (nplinalg.h), without LAPACK. Both work on a float64 copy
 * scaled by a power of two (so that no square overflows; the values
 * scale back exactly), float32 input rounded once at the end.
 *   Symmetric: Householder reduction of the lower triangle to
 *   tridiagonal form, then the implicit QL iteration with Wilkinson
 *   shifts (the tred2 / tql2 pair of EISPACK), eigenvalues ascending with
 *   their vectors.
 *   General: Householder reduction to Hessenberg form, Francis'
 *   double-shift QR iteration to the real Schur form (EISPACK orthes /
 *   hqr2), eigenvectors by back-substitution in the triangle and back
 *   through the accumulated transformations, each normalised to unit
 *   length (LAPACK geev's). A 2 x 2 block with complex eigenvalues is
 *   Numba's domain change: DOMAIN before any vector is computed.
 * Matrices here are column-major n * n (X(i, j) = x[j * n + i]). */
#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include <ufjit/dtype.h>

#include "common/alloc.h"
#include "common/nplinalg.h"

#define X(m, i, j) ((m)[(j) * n + (i)])
#define MAXIT 60 /* QR / QL steps for one eigenvalue before CONVERGE */

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

/* The checks Numba makes, in its order (square, then finite), and the
 * power of two *ex that a's largest magnitude is below. lower: only the
 * lower triangle is read (eigh's UPLO='L'); Numba's finiteness check
 * still sees the whole matrix. */
static int check(const char *a, const int64_t *shape, const int64_t *st,
                 int32_t dt, int *ex)
{
    int64_t n = shape[0];
    if (shape[1] != n)
        return UF__NPLINALG_SQUARE;
    double big = 0;
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < n; j++) {
            double x = fabs(get(a + i * st[0] + j * st[1], dt));
            if (!isfinite(x))
                return UF__NPLINALG_NONFINITE;
            big = x > big ? x : big;
        }
    *ex = 0;
    if (big > 0)
        frexp(big, ex);
    return 0;
}

/* v (column-major) = a scaled by 2**-ex; only the lower triangle when
 * sym (mirrored into the upper one). */
static void copy_in(const char *a, int64_t n, const int64_t *st, int32_t dt,
                    int ex, bool sym, double *v)
{
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = sym ? j : 0; i < n; i++) {
            double x = ldexp(get(a + i * st[0] + j * st[1], dt), -ex);
            X(v, i, j) = x;
            if (sym)
                X(v, j, i) = x;
        }
}

/* Householder tridiagonalisation of the symmetric v: d the diagonal,
 * e[1..n) the subdiagonal, v the orthogonal transformation when vec
 * (else the reduced diagonal is read from v's, half the work). */
static void tridiag(double *v, int64_t n, double *d, double *e, bool vec)
{
    for (int64_t j = 0; j < n; j++)
        d[j] = X(v, n - 1, j);
    for (int64_t i = n - 1; i > 0; i--) {
        double scale = 0, h = 0;
        for (int64_t k = 0; k < i; k++)
            scale += fabs(d[k]);
        if (scale == 0) {
            e[i] = d[i - 1];
            for (int64_t j = 0; j < i; j++) {
                d[j] = X(v, i - 1, j);
                X(v, i, j) = 0;
                X(v, j, i) = 0;
            }
        } else {
            for (int64_t k = 0; k < i; k++) {
                d[k] /= scale;
                h += d[k] * d[k];
            }
            double f = d[i - 1], g = sqrt(h);
            if (f > 0)
                g = -g;
            e[i] = scale * g;
            h -= f * g;
            d[i - 1] = f - g;
            for (int64_t j = 0; j < i; j++)
                e[j] = 0;
            for (int64_t j = 0; j < i; j++) {
                f = d[j];
                X(v, j, i) = f;
                g = e[j] + X(v, j, j) * f;
                double *restrict vj = &X(v, 0, j);
                for (int64_t k = j + 1; k < i; k++) {
                    g += vj[k] * d[k];
                    e[k] += vj[k] * f;
                }
                e[j] = g;
            }
            f = 0;
            for (int64_t j = 0; j < i; j++) {
                e[j] /= h;
                f += e[j] * d[j];
            }
            double hh = f / (h + h);
            for (int64_t j = 0; j < i; j++)
                e[j] -= hh * d[j];
            for (int64_t j = 0; j < i; j++) {
                f = d[j];
                g = e[j];
                double *restrict vj = &X(v, 0, j);
                for (int64_t k = j; k < i; k++)
                    vj[k] -= f * e[k] + g * d[k];
                d[j] = X(v, i - 1, j);
                X(v, i, j) = 0;
            }
        }
        d[i] = h;
    }
    if (!vec) {
        for (int64_t i = 0; i < n; i++)
            d[i] = X(v, i, i);
        e[0] = 0;
        return;
    }
    /* the transformations accumulated */
    for (int64_t i = 0; i + 1 < n; i++) {
        X(v, n - 1, i) = X(v, i, i);
        X(v, i, i) = 1;
        double h = d[i + 1];
        double *restrict vi1 = &X(v, 0, i + 1);
        if (h != 0) {
            for (int64_t k = 0; k <= i; k++)
                d[k] = vi1[k] / h;
            for (int64_t j = 0; j <= i; j++) {
                double *restrict vj = &X(v, 0, j);
                double g = 0;
                for (int64_t k = 0; k <= i; k++)
                    g += vi1[k] * vj[k];
                for (int64_t k = 0; k <= i; k++)
                    vj[k] -= g * d[k];
            }
        }
        for (int64_t k = 0; k <= i; k++)
            vi1[k] = 0;
    }
    for (int64_t j = 0; j < n; j++) {
        d[j] = X(v, n - 1, j);
        X(v, n - 1, j) = 0;
    }
    X(v, n - 1, n - 1) = 1;
    e[0] = 0;
}

/* Implicit QL with shifts (nplinalg.h). */
bool uf__nplinalg_tql(double *v, int64_t n, double *d, double *e)
{
    for (int64_t i = 1; i < n; i++)
        e[i - 1] = e[i];
    e[n - 1] = 0;
    double f = 0, tst1 = 0;
    for (int64_t l = 0; l < n; l++) {
        double t = fabs(d[l]) + fabs(e[l]);
        tst1 = t > tst1 ? t : tst1;
        int64_t m = l;
        while (m < n - 1 && !(fabs(e[m]) <= DBL_EPSILON * tst1))
            m++;
        if (m > l) {
            int it = 0;
            do {
                if (++it > MAXIT)
                    return false;
                double g = d[l];
                double p = (d[l + 1] - g) / (2 * e[l]);
                double r = hypot(p, 1);
                if (p < 0)
                    r = -r;
                d[l] = e[l] / (p + r);
                d[l + 1] = e[l] * (p + r);
                double dl1 = d[l + 1], h = g - d[l];
                for (int64_t i = l + 2; i < n; i++)
                    d[i] -= h;
                f += h;
                p = d[m];
                double c = 1, c2 = 1, c3 = 1, el1 = e[l + 1], s = 0, s2 = 0;
                for (int64_t i = m - 1; i >= l; i--) {
                    c3 = c2;
                    c2 = c;
                    s2 = s;
                    g = c * e[i];
                    h = c * p;
                    r = hypot(p, e[i]);
                    e[i + 1] = s * r;
                    s = e[i] / r;
                    c = p / r;
                    p = c * d[i] - s * g;
                    d[i + 1] = h + s * (c * g + s * d[i]);
                    if (v != NULL) {
                        double *restrict vi = &X(v, 0, i);
                        double *restrict vi1 = &X(v, 0, i + 1);
                        for (int64_t k = 0; k < n; k++) {
                            double hk = vi1[k];
                            vi1[k] = s * vi[k] + c * hk;
                            vi[k] = c * vi[k] - s * hk;
                        }
                    }
                }
                p = -s * s2 * c3 * el1 * e[l] / dl1;
                e[l] = s * p;
                d[l] = c * p;
            } while (fabs(e[l]) > DBL_EPSILON * tst1);
        }
        d[l] += f;
        e[l] = 0;
    }
    return true;
}

int uf__np_linalg_eigh(const char *a, const int64_t *shape,
                       const int64_t *strides, int32_t dt, char *w, char *v)
{
    if (dt == UF_COMPLEX64 || dt == UF_COMPLEX128)
        return uf__nplinalg_c_eigh(a, shape, strides, dt, w, v);
    int ex;
    int st = check(a, shape, strides, dt, &ex);
    int64_t n = shape[0];
    if (st != 0 || n == 0)
        return st;
    double *z = uf__malloc((size_t)(n * n), sizeof(double), NULL);
    double *d = uf__malloc((size_t)n, sizeof(double), NULL);
    double *e = uf__malloc((size_t)n, sizeof(double), NULL);
    int64_t *ix = uf__malloc((size_t)n, sizeof(int64_t), NULL);
    if (z == NULL || d == NULL || e == NULL || ix == NULL) {
        st = UF__NPLINALG_NOMEM;
        goto done;
    }
    copy_in(a, n, strides, dt, ex, true, z);
    tridiag(z, n, d, e, v != NULL);
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
    size_t isz = dt == UF_FLOAT32 ? 4 : 8;
    for (int64_t k = 0; k < n; k++)
        put(w + (size_t)k * isz, dt, ldexp(d[ix[k]], ex));
    if (v != NULL) /* column k of v: the vector of w[k]; v is C order */
        for (int64_t k = 0; k < n; k++)
            for (int64_t i = 0; i < n; i++)
                put(v + (size_t)(i * n + k) * isz, dt, X(z, i, ix[k]));
done:
    uf__free(z);
    uf__free(d);
    uf__free(e);
    uf__free(ix);
    return st;
}

/* Householder reduction of h to upper Hessenberg form, the
 * transformations accumulated into v (ort: scratch of n). */
static void hessenberg(double *h, double *v, double *ort, int64_t n)
{
    for (int64_t m = 1; m < n - 1; m++) {
        double scale = 0;
        for (int64_t i = m; i < n; i++)
            scale += fabs(X(h, i, m - 1));
        if (scale == 0)
            continue;
        double hh = 0;
        for (int64_t i = n - 1; i >= m; i--) {
            ort[i] = X(h, i, m - 1) / scale;
            hh += ort[i] * ort[i];
        }
        double g = sqrt(hh);
        if (ort[m] > 0)
            g = -g;
        hh -= ort[m] * g;
        ort[m] -= g;
        for (int64_t j = m; j < n; j++) {
            double *restrict hj = &X(h, 0, j);
            double f = 0;
            for (int64_t i = m; i < n; i++)
                f += ort[i] * hj[i];
            f /= hh;
            for (int64_t i = m; i < n; i++)
                hj[i] -= f * ort[i];
        }
        for (int64_t i = 0; i < n; i++) {
            double f = 0;
            for (int64_t j = m; j < n; j++)
                f += ort[j] * X(h, i, j);
            f /= hh;
            for (int64_t j = m; j < n; j++)
                X(h, i, j) -= f * ort[j];
        }
        ort[m] *= scale;
        X(h, m, m - 1) = scale * g;
    }
    if (v == NULL)
        return;
    memset(v, 0, (size_t)(n * n) * sizeof *v);
    for (int64_t i = 0; i < n; i++)
        X(v, i, i) = 1;
    for (int64_t m = n - 2; m >= 1; m--) {
        if (X(h, m, m - 1) == 0)
            continue;
        for (int64_t i = m + 1; i < n; i++)
            ort[i] = X(h, i, m - 1);
        for (int64_t j = m; j < n; j++) {
            double *restrict vj = &X(v, 0, j);
            double g = 0;
            for (int64_t i = m; i < n; i++)
                g += ort[i] * vj[i];
            g = (g / ort[m]) / X(h, m, m - 1); /* two divisions: no
                                                   underflow */
            for (int64_t i = m; i < n; i++)
                vj[i] += g * ort[i];
        }
    }
}

/* One double-shift (Francis) QR sweep on rows / columns l..en of h
 * from m, the transformations applied to the whole of h and v (when
 * not NULL), as the real Schur form needs for the vectors. */
static void francis(double *h, double *v, int64_t n, int64_t l, int64_t m,
                    int64_t en, double p, double q, double r)
{
    for (int64_t k = m; k < en; k++) {
        bool notlast = k != en - 1;
        double x = 0;
        if (k != m) {
            p = X(h, k, k - 1);
            q = X(h, k + 1, k - 1);
            r = notlast ? X(h, k + 2, k - 1) : 0;
            x = fabs(p) + fabs(q) + fabs(r);
            if (x == 0)
                continue;
            p /= x;
            q /= x;
            r /= x;
        }
        double s = sqrt(p * p + q * q + r * r);
        if (p < 0)
            s = -s;
        if (s == 0)
            continue;
        if (k != m)
            X(h, k, k - 1) = -s * x;
        else if (l != m)
            X(h, k, k - 1) = -X(h, k, k - 1);
        p += s;
        x = p / s;
        double y = q / s, z = r / s;
        q /= p;
        r /= p;
        for (int64_t j = k; j < n; j++) { /* rows */
            double t = X(h, k, j) + q * X(h, k + 1, j);
            if (notlast) {
                t += r * X(h, k + 2, j);
                X(h, k + 2, j) -= t * z;
            }
            X(h, k, j) -= t * x;
            X(h, k + 1, j) -= t * y;
        }
        int64_t top = en < k + 3 ? en : k + 3;
        for (int64_t i = 0; i <= top; i++) { /* columns */
            double t = x * X(h, i, k) + y * X(h, i, k + 1);
            if (notlast) {
                t += z * X(h, i, k + 2);
                X(h, i, k + 2) -= t * r;
            }
            X(h, i, k) -= t;
            X(h, i, k + 1) -= t * q;
        }
        if (v != NULL)
            for (int64_t i = 0; i < n; i++) {
                double t = x * X(v, i, k) + y * X(v, i, k + 1);
                if (notlast) {
                    t += z * X(v, i, k + 2);
                    X(v, i, k + 2) -= t * r;
                }
                X(v, i, k) -= t;
                X(v, i, k + 1) -= t * q;
            }
    }
}

/* Split the converged 2 x 2 block at rows en-1, en with real
 * eigenvalues into two 1 x 1 ones (rotating h and v); wr gets them. */
static void split2(double *h, double *v, int64_t n, int64_t en, double p,
                   double w, double z, double x, double *wr)
{
    z = p >= 0 ? p + z : p - z;
    wr[en - 1] = x + z;
    wr[en] = z != 0 ? x - w / z : x + z;
    x = X(h, en, en - 1);
    double s = fabs(x) + fabs(z);
    p = x / s;
    double q = z / s, r = sqrt(p * p + q * q);
    p /= r;
    q /= r;
    for (int64_t j = en - 1; j < n; j++) {
        double t = X(h, en - 1, j);
        X(h, en - 1, j) = q * t + p * X(h, en, j);
        X(h, en, j) = q * X(h, en, j) - p * t;
    }
    for (int64_t i = 0; i <= en; i++) {
        double t = X(h, i, en - 1);
        X(h, i, en - 1) = q * t + p * X(h, i, en);
        X(h, i, en) = q * X(h, i, en) - p * t;
    }
    if (v != NULL)
        for (int64_t i = 0; i < n; i++) {
            double t = X(v, i, en - 1);
            X(v, i, en - 1) = q * t + p * X(v, i, en);
            X(v, i, en) = q * X(v, i, en) - p * t;
        }
    X(h, en, en - 1) = 0;
}

/* The real Schur form of the Hessenberg h by Francis' QR: wr its real
 * eigenvalues; DOMAIN at the first complex pair, CONVERGE where one
 * eigenvalue takes more than MAXIT sweeps. */
static int schur(double *h, double *v, int64_t n, double *wr)
{
    double norm = 0, exshift = 0;
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = i > 0 ? i - 1 : 0; j < n; j++)
            norm += fabs(X(h, i, j));
    int64_t en = n - 1;
    int it = 0;
    while (en >= 0) {
        int64_t l = en;
        for (; l > 0; l--) { /* a negligible subdiagonal element */
            double s = fabs(X(h, l - 1, l - 1)) + fabs(X(h, l, l));
            if (s == 0)
                s = norm;
            if (fabs(X(h, l, l - 1)) <= DBL_EPSILON * s)
                break; /* <=: a zero matrix (s 0) deflates too */
        }
        if (l == en) { /* one root */
            X(h, en, en) += exshift;
            wr[en] = X(h, en, en);
            if (en > 0)
                X(h, en, en - 1) = 0;
            en--;
            it = 0;
            continue;
        }
        double x = X(h, en, en), y = X(h, en - 1, en - 1);
        double w = X(h, en, en - 1) * X(h, en - 1, en);
        if (l == en - 1) { /* two roots */
            double p = (y - x) / 2, q = p * p + w;
            X(h, en, en) = x + exshift;
            X(h, en - 1, en - 1) = y + exshift;
            if (q < 0)
                return UF__NPLINALG_DOMAIN;
            split2(h, v, n, en, p, w, sqrt(q), x + exshift, wr);
            en -= 2;
            it = 0;
            continue;
        }
        if (it == 10 || it == 30) { /* exceptional shifts (EISPACK's) */
            if (it == 10) {
                exshift += x;
                for (int64_t i = 0; i <= en; i++)
                    X(h, i, i) -= x;
                double s = fabs(X(h, en, en - 1)) +
                           fabs(X(h, en - 1, en - 2));
                x = y = 0.75 * s;
                w = -0.4375 * s * s;
            } else {
                double s = (y - x) / 2;
                s = s * s + w;
                if (s > 0) {
                    s = sqrt(s);
                    if (y < x)
                        s = -s;
                    s = x - w / ((y - x) / 2 + s);
                    for (int64_t i = 0; i <= en; i++)
                        X(h, i, i) -= s;
                    exshift += s;
                    x = y = w = 0.964;
                }
            }
        }
        if (++it > MAXIT)
            return UF__NPLINALG_CONVERGE;
        /* two consecutive small subdiagonal elements */
        int64_t m = en - 2;
        double p, q, r;
        for (;; m--) {
            double z = X(h, m, m);
            r = x - z;
            double s = y - z;
            p = (r * s - w) / X(h, m + 1, m) + X(h, m, m + 1);
            q = X(h, m + 1, m + 1) - z - r - s;
            r = X(h, m + 2, m + 1);
            s = fabs(p) + fabs(q) + fabs(r);
            p /= s;
            q /= s;
            r /= s;
            if (m == l)
                break;
            if (fabs(X(h, m, m - 1)) * (fabs(q) + fabs(r)) <
                DBL_EPSILON * (fabs(p) * (fabs(X(h, m - 1, m - 1)) +
                                          fabs(z) +
                                          fabs(X(h, m + 1, m + 1)))))
                break;
        }
        for (int64_t i = m + 2; i <= en; i++) {
            X(h, i, i - 2) = 0;
            if (i > m + 2)
                X(h, i, i - 3) = 0;
        }
        francis(h, v, n, l, m, en, p, q, r);
    }
    return 0;
}

/* The eigenvectors of the upper triangular h (real Schur form with no
 * 2 x 2 block left) by back-substitution, then through v, normalised
 * to unit length; v gets them. */
static void vectors(double *h, double *v, int64_t n, const double *wr,
                    double norm)
{
    for (int64_t en = n - 1; en >= 0; en--) {
        double p = wr[en];
        X(h, en, en) = 1;
        for (int64_t i = en - 1; i >= 0; i--) {
            double w = X(h, i, i) - p, r = 0;
            for (int64_t j = i + 1; j <= en; j++)
                r += X(h, i, j) * X(h, j, en);
            X(h, i, en) = w != 0 ? -r / w : -r / (DBL_EPSILON * norm);
            double t = fabs(X(h, i, en));
            if (DBL_EPSILON * t * t > 1) /* overflow control */
                for (int64_t j = i; j <= en; j++)
                    X(h, j, en) /= t;
        }
    }
    for (int64_t j = n - 1; j >= 0; j--) /* v = v h, h upper triangular */
        for (int64_t i = 0; i < n; i++) {
            double z = 0;
            for (int64_t k = 0; k <= j; k++)
                z += X(v, i, k) * X(h, k, j);
            X(v, i, j) = z;
        }
    for (int64_t j = 0; j < n; j++) {
        double big = 0, s = 0;
        for (int64_t i = 0; i < n; i++)
            big = fabs(X(v, i, j)) > big ? fabs(X(v, i, j)) : big;
        if (big == 0)
            continue;
        for (int64_t i = 0; i < n; i++) {
            double t = X(v, i, j) / big;
            s += t * t;
        }
        s = big * sqrt(s);
        for (int64_t i = 0; i < n; i++)
            X(v, i, j) /= s;
    }
}

int uf__np_linalg_eig(const char *a, const int64_t *shape,
                      const int64_t *strides, int32_t dt, char *w, char *v)
{
    if (dt == UF_COMPLEX64 || dt == UF_COMPLEX128)
        return uf__nplinalg_c_eig(a, shape, strides, dt, w, v);
    int ex;
    int st = check(a, shape, strides, dt, &ex);
    int64_t n = shape[0];
    if (st != 0 || n == 0)
        return st;
    double *h = uf__malloc((size_t)(n * n), sizeof(double), NULL);
    double *z = v != NULL ? uf__malloc((size_t)(n * n), sizeof(double), NULL)
                          : NULL;
    double *wr = uf__malloc((size_t)n, sizeof(double), NULL);
    if (h == NULL || (v != NULL && z == NULL) || wr == NULL) {
        st = UF__NPLINALG_NOMEM;
        goto done;
    }
    copy_in(a, n, strides, dt, ex, false, h);
    hessenberg(h, z, wr, n);
    double norm = 0;
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = i > 0 ? i - 1 : 0; j < n; j++)
            norm += fabs(X(h, i, j));
    st = schur(h, z, n, wr);
    if (st != 0)
        goto done;
    size_t isz = dt == UF_FLOAT32 ? 4 : 8;
    for (int64_t k = 0; k < n; k++)
        put(w + (size_t)k * isz, dt, ldexp(wr[k], ex));
    if (v == NULL)
        goto done;
    if (norm > 0)
        vectors(h, z, n, wr, norm);
    for (int64_t i = 0; i < n; i++) /* C order: row i, column k */
        for (int64_t k = 0; k < n; k++)
            put(v + (size_t)(i * n + k) * isz, dt, X(z, i, k));
done:
    uf__free(h);
    uf__free(z);
    uf__free(wr);
    return st;
}
