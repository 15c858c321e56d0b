/* The SVD of a real upper bidiagonal matrix by implicit QR, LAPACK's
 * dbdsqr (Demmel and Kahan, "Accurate singular values of bidiagonal
 * matrices", 1990) without the dqds branch: the zero-shift QR sweep
 * where the shift would spoil the small singular values' relative
 * accuracy, else the shifted one (the smaller singular value of the
 * trailing 2 x 2), chasing towards the larger end; an off-diagonal
 * entry is set to 0 by the relative tests of the paper (its e_i <= tol
 * mu_i recurrence) or where it is below thresh, an absolute floor of
 * tol times an estimate of the smallest singular value. The rotations
 * are applied to the columns of U and V (nplinalg.h), each sweep's
 * sequence at once, carrying a running column in registers (each
 * element read and written once a sweep, not once a rotation). The
 * indices follow dbdsqr's (1-based, through D, E, W) so that the code
 * can be read against it. */
#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "common/alloc.h"
#include "common/nplinalg.h"

typedef double v4d __attribute__((vector_size(32)));
#define INLINE static inline __attribute__((always_inline))

/* The rotations j = 0 .. k-2 of (c[j], s[j]) on the columns (j, j + 1)
 * of a (nr rows, leading dimension lda), as LAPACK's dlasr('R', 'V',
 * fwd ? 'F' : 'B'): x_j' = s x_{j+1} + c x_j, x_{j+1}' = c x_{j+1} - s
 * x_j. ROWS rows at a time, the column being rotated onwards held in
 * vectors: each rotation depends on the one before, so the rows give
 * the independent chains that hide the latency. */
#define ROWS 32
#define NV (ROWS / 4)
INLINE void rotseq_body(double *a, int64_t nr, int64_t lda, int64_t k,
                        const double *c, const double *s, bool fwd)
{
    int64_t i = 0;
    for (; i + ROWS <= nr; i += ROWS) {
        v4d t[NV];
        double *p = a + i;
        double *first = fwd ? p : p + (k - 1) * lda;
#pragma GCC unroll 8
        for (int q = 0; q < NV; q++)
            memcpy(&t[q], first + 4 * q, sizeof t[q]);
        if (fwd) {
            for (int64_t j = 0; j + 1 < k; j++) {
                double *x = p + j * lda, *y = x + lda, cj = c[j], sj = s[j];
#pragma GCC unroll 8
                for (int q = 0; q < NV; q++) {
                    v4d yq;
                    memcpy(&yq, y + 4 * q, sizeof yq);
                    v4d xq = sj * yq + cj * t[q];
                    memcpy(x + 4 * q, &xq, sizeof xq);
                    t[q] = cj * yq - sj * t[q];
                }
            }
        } else {
            for (int64_t j = k - 2; j >= 0; j--) {
                double *x = p + j * lda, *y = x + lda, cj = c[j], sj = s[j];
#pragma GCC unroll 8
                for (int q = 0; q < NV; q++) {
                    v4d xq;
                    memcpy(&xq, x + 4 * q, sizeof xq);
                    v4d yq = cj * t[q] - sj * xq;
                    memcpy(y + 4 * q, &yq, sizeof yq);
                    t[q] = sj * t[q] + cj * xq;
                }
            }
        }
        double *last = fwd ? p + (k - 1) * lda : p;
#pragma GCC unroll 8
        for (int q = 0; q < NV; q++)
            memcpy(last + 4 * q, &t[q], sizeof t[q]);
    }
    for (; i < nr; i++) {
        double *p = a + i;
        if (fwd) {
            double t = p[0];
            for (int64_t j = 0; j + 1 < k; j++) {
                double y = p[(j + 1) * lda];
                p[j * lda] = s[j] * y + c[j] * t;
                t = c[j] * y - s[j] * t;
            }
            p[(k - 1) * lda] = t;
        } else {
            double t = p[(k - 1) * lda];
            for (int64_t j = k - 2; j >= 0; j--) {
                double x = p[j * lda];
                p[(j + 1) * lda] = c[j] * t - s[j] * x;
                t = s[j] * t + c[j] * x;
            }
            p[0] = t;
        }
    }
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define BDSQR_X86 1
__attribute__((target("avx2"))) static void
rotseq_avx2(double *a, int64_t nr, int64_t lda, int64_t k, const double *c,
            const double *s, bool fwd)
{
    rotseq_body(a, nr, lda, k, c, s, fwd);
}
#endif

static void rotseq_any(double *a, int64_t nr, int64_t lda, int64_t k,
                       const double *c, const double *s, bool fwd)
{
    rotseq_body(a, nr, lda, k, c, s, fwd);
}

/* rotseq_any or, where the CPU has it, the AVX2 copy (the same
 * operations, so the same bits). */
static void rotseq(double *a, int64_t nr, int64_t lda, int64_t k,
                   const double *c, const double *s, bool fwd)
{
    if (a == NULL || nr == 0 || k < 2)
        return;
#ifdef BDSQR_X86
    static int avx2 = -1;
    if (avx2 < 0) {
        __builtin_cpu_init();
        avx2 = __builtin_cpu_supports("avx2") ? 1 : 0;
    }
    if (avx2) {
        rotseq_avx2(a, nr, lda, k, c, s, fwd);
        return;
    }
#endif
    rotseq_any(a, nr, lda, k, c, s, fwd);
}

/* (c, s, r) with c f + s g = r, c g - s f = 0 (LAPACK 3.10's dlartg:
 * r has f's sign; scaled where f^2 + g^2 could overflow or underflow). */
static void lartg(double f, double g, double *c, double *s, double *r)
{
    const double rtmin = 1.4916681462400413e-154;  /* sqrt(DBL_MIN) */
    const double rtmax = 9.480751908109176e+153;   /* sqrt(DBL_MAX / 2) */
    double f1 = fabs(f), g1 = fabs(g);
    if (g == 0) {
        *c = 1;
        *s = 0;
        *r = f;
    } else if (f == 0) {
        *c = 0;
        *s = copysign(1.0, g);
        *r = g1;
    } else if (f1 > rtmin && f1 < rtmax && g1 > rtmin && g1 < rtmax) {
        double d = sqrt(f * f + g * g);
        *c = f1 / d;
        *r = copysign(d, f);
        *s = g / *r;
    } else {
        double u = fmin(DBL_MAX, fmax(DBL_MIN, fmax(f1, g1)));
        double fs = f / u, gs = g / u, d = sqrt(fs * fs + gs * gs);
        *c = fabs(fs) / d;
        double rr = copysign(d, f);
        *s = gs / rr;
        *r = rr * u;
    }
}

/* The singular values of [f g; 0 h], LAPACK's dlas2. */
static void las2(double f, double g, double h, double *ssmin, double *ssmax)
{
    double fa = fabs(f), ga = fabs(g), ha = fabs(h);
    double fhmn = fmin(fa, ha), fhmx = fmax(fa, ha);
    if (fhmn == 0) {
        *ssmin = 0;
        if (fhmx == 0) {
            *ssmax = ga;
        } else {
            double mx = fmax(fhmx, ga), mn = fmin(fhmx, ga);
            *ssmax = mx * sqrt(1 + (mn / mx) * (mn / mx));
        }
    } else if (ga < fhmx) {
        double as = 1 + fhmn / fhmx, at = (fhmx - fhmn) / fhmx;
        double au = (ga / fhmx) * (ga / fhmx);
        double c = 2 / (sqrt(as * as + au) + sqrt(at * at + au));
        *ssmin = fhmn * c;
        *ssmax = fhmx / c;
    } else {
        double au = fhmx / ga;
        if (au == 0) {
            *ssmin = (fhmn * fhmx) / ga;
            *ssmax = ga;
        } else {
            double as = 1 + fhmn / fhmx, at = (fhmx - fhmn) / fhmx;
            double c = 1 / (sqrt(1 + (as * au) * (as * au)) +
                            sqrt(1 + (at * au) * (at * au)));
            *ssmin = (fhmn * c) * au;
            *ssmin += *ssmin;
            *ssmax = ga / (c + c);
        }
    }
}

static double sign(double a, double b) { return copysign(fabs(a), b); }

/* The SVD of [f g; 0 h], LAPACK's dlasv2: [csl snl; -snl csl] [f g; 0
 * h] [csr -snr; snr csr] = [ssmax 0; 0 ssmin], |ssmax| >= |ssmin|. */
static void lasv2(double f, double g, double h, double *ssmin,
                  double *ssmax, double *snr, double *csr, double *snl,
                  double *csl)
{
    double ft = f, fa = fabs(ft), ht = h, ha = fabs(h);
    int pmax = 1;
    bool swap = ha > fa;
    if (swap) {
        pmax = 3;
        double t = ft;
        ft = ht;
        ht = t;
        t = fa;
        fa = ha;
        ha = t;
    }
    double gt = g, ga = fabs(gt);
    double clt, crt, slt, srt;
    if (ga == 0) {
        *ssmin = ha;
        *ssmax = fa;
        clt = 1;
        crt = 1;
        slt = 0;
        srt = 0;
    } else {
        bool gasmal = true;
        if (ga > fa) {
            pmax = 2;
            if (fa / ga < DBL_EPSILON / 2) {
                gasmal = false;
                *ssmax = ga;
                *ssmin = ha > 1 ? fa / (ga / ha) : (fa / ga) * ha;
                clt = 1;
                slt = ht / gt;
                srt = 1;
                crt = ft / gt;
            }
        }
        if (gasmal) {
            double dd = fa - ha;
            double l = dd == fa ? 1 : dd / fa;
            double m = gt / ft, t = 2 - l, mm = m * m, tt = t * t;
            double s = sqrt(tt + mm);
            double r = l == 0 ? fabs(m) : sqrt(l * l + mm);
            double a = 0.5 * (s + r);
            *ssmin = ha / a;
            *ssmax = fa * a;
            if (mm == 0) {
                if (l == 0)
                    t = sign(2, ft) * sign(1, gt);
                else
                    t = gt / sign(dd, ft) + m / t;
            } else {
                t = (m / (s + t) + m / (r + l)) * (1 + a);
            }
            l = sqrt(t * t + 4);
            crt = 2 / l;
            srt = t / l;
            clt = (crt + srt * m) / a;
            slt = (ht / ft) * srt / a;
        }
    }
    if (swap) {
        *csl = srt;
        *snl = crt;
        *csr = slt;
        *snr = clt;
    } else {
        *csl = clt;
        *snl = slt;
        *csr = crt;
        *snr = srt;
    }
    double tsign = pmax == 1   ? sign(1, *csr) * sign(1, *csl) * sign(1, f)
                   : pmax == 2 ? sign(1, *snr) * sign(1, *csl) * sign(1, g)
                               : sign(1, *snr) * sign(1, *snl) * sign(1, h);
    *ssmax = sign(*ssmax, tsign);
    *ssmin = sign(*ssmin, tsign * sign(1, f) * sign(1, h));
}

/* x' = c x + s y, y' = c y - s x over n elements (BLAS drot). */
static void rot(double *x, double *y, int64_t n, double c, double s)
{
    for (int64_t i = 0; i < n; i++) {
        double t = c * x[i] + s * y[i];
        y[i] = c * y[i] - s * x[i];
        x[i] = t;
    }
}

/* V's side of the sweeps: its columns (v, nrv rows, ldv apart)
 * rotated, or, where lg is not NULL, the rotations logged instead. */
typedef struct vside {
    double *v;
    int64_t nrv, ldv;
    uf__nplinalg_rotlog *lg;
} vside;

/* The sequence of nb - 1 rotations (c, s) on the columns ll .. ll + nb
 * - 1 (1-based) applied to V or logged; false when the log cannot
 * grow. */
static bool vrot(vside *vs, int64_t ll, int64_t nb, const double *c,
                 const double *s, bool fwd)
{
    uf__nplinalg_rotlog *lg = vs->lg;
    if (lg == NULL) {
        if (vs->nrv > 0)
            rotseq(vs->v + (ll - 1) * vs->ldv, vs->nrv, vs->ldv, nb, c, s,
                   fwd);
        return true;
    }
    if (lg->nrec + 1 > lg->caprec) {
        int64_t cap = lg->caprec ? 2 * lg->caprec : 64;
        int64_t *r = uf__realloc(lg->rec, (size_t)(3 * cap), sizeof *r, NULL);
        if (r == NULL)
            return false;
        lg->rec = r;
        lg->caprec = cap;
    }
    if (lg->nrot + nb - 1 > lg->caprot) {
        int64_t cap = lg->caprot ? 2 * lg->caprot : 4 * lg->n + 64;
        while (cap < lg->nrot + nb - 1)
            cap *= 2;
        double *r = uf__realloc(lg->cs, (size_t)(2 * cap), sizeof *r, NULL);
        if (r == NULL)
            return false;
        lg->cs = r;
        lg->caprot = cap;
    }
    int64_t *r = lg->rec + 3 * lg->nrec++;
    r[0] = ll;
    r[1] = nb;
    r[2] = fwd;
    for (int64_t j = 0; j + 1 < nb; j++) {
        lg->cs[2 * (lg->nrot + j)] = c[j];
        lg->cs[2 * (lg->nrot + j) + 1] = s[j];
    }
    lg->nrot += nb - 1;
    return true;
}

void uf__nplinalg_rotlog_apply(const uf__nplinalg_rotlog *lg,
                               const double *y, double *z)
{
    int64_t n = lg->n;
    for (int64_t i = 0; i < n; i++) /* undo the sort, then the signs */
        z[lg->perm[i]] = y[i];
    for (int64_t i = 0; i < n; i++)
        z[i] *= lg->sign[i];
    /* V = G_1 .. G_K: V y = G_1 (.. (G_K y)), each sequence's own
     * rotations last first; a rotation x_j' = s x_{j+1} + c x_j on
     * columns is z_j' = c z_j - s z_{j+1}, z_{j+1}' = s z_j + c z_{j+1}
     * on the vector */
    int64_t at = lg->nrot;
    for (int64_t q = lg->nrec - 1; q >= 0; q--) {
        const int64_t *r = lg->rec + 3 * q;
        int64_t ll = r[0], nb = r[1];
        at -= nb - 1;
        const double *cs = lg->cs + 2 * at;
        double *w = z + ll - 1;
        if (r[2]) /* forward: applied 0 .. nb - 2, undone downwards */
            for (int64_t j = nb - 2; j >= 0; j--) {
                double c = cs[2 * j], s = cs[2 * j + 1];
                double a = w[j], b = w[j + 1];
                w[j] = c * a - s * b;
                w[j + 1] = s * a + c * b;
            }
        else
            for (int64_t j = 0; j + 1 < nb; j++) {
                double c = cs[2 * j], s = cs[2 * j + 1];
                double a = w[j], b = w[j + 1];
                w[j] = c * a - s * b;
                w[j + 1] = s * a + c * b;
            }
    }
}

void uf__nplinalg_rotlog_free(uf__nplinalg_rotlog *lg)
{
    uf__free(lg->rec);
    uf__free(lg->cs);
    uf__free(lg->perm);
    uf__free(lg->sign);
    memset(lg, 0, sizeof *lg);
}

#define D(i) d[(i) - 1]
#define E(i) e[(i) - 1]
#define W(i) work[(i) - 1]
#define UCOL(j) (u + ((j) - 1) * ldu)
#define VCOL(j) (v + ((j) - 1) * ldv)

/* dbdsqr, V's side through vs; 0, CONVERGE, or NOMEM (the log). */
static int bdsqr(int64_t n, double *d, double *e, double *u, int64_t nru,
                 int64_t ldu, vside *vs, double *work)
{
    double *v = vs->v;
    int64_t nrv = vs->nrv, ldv = vs->ldv;
    const double eps = DBL_EPSILON / 2, unfl = DBL_MIN;
    const double tol = fmax(10, fmin(100, pow(eps, -0.125))) * eps;
    if (u == NULL)
        nru = 0;
    if (v == NULL)
        nrv = 0;
    if (n <= 0)
        return 0;
    int64_t nm1 = n - 1, nm12 = 2 * nm1, nm13 = 3 * nm1;
    double smax = 0;
    for (int64_t i = 1; i <= n; i++)
        smax = fmax(smax, fabs(D(i)));
    for (int64_t i = 1; i < n; i++)
        smax = fmax(smax, fabs(E(i)));
    /* thresh: tol times an underestimate of the smallest singular
     * value (dbdsqr's relative-accuracy floor) */
    double sminoa = fabs(D(1));
    if (sminoa != 0) {
        double mu = sminoa;
        for (int64_t i = 2; i <= n; i++) {
            mu = fabs(D(i)) * (mu / (mu + fabs(E(i - 1))));
            sminoa = fmin(sminoa, mu);
            if (sminoa == 0)
                break;
        }
    }
    sminoa /= sqrt((double)n);
    double thresh =
        fmax(tol * sminoa, 6 * ((double)n * ((double)n * unfl)));
    int64_t maxit = 6 * n * n, iter = 0, oldll = -1, oldm = -1, m = n;
    int idir = 0;
    while (m > 1) {
        if (iter > maxit)
            return UF__NPLINALG_CONVERGE;
        /* the bottom unreduced block d[ll..m] */
        smax = fabs(D(m));
        int64_t ll = 0;
        bool split = false;
        for (int64_t lll = 1; lll <= m - 1; lll++) {
            ll = m - lll;
            double abss = fabs(D(ll)), abse = fabs(E(ll));
            if (abse <= thresh) {
                split = true;
                break;
            }
            smax = fmax(smax, fmax(abss, abse));
        }
        if (split) {
            E(ll) = 0;
            if (ll == m - 1) { /* d[m] is a singular value */
                m--;
                continue;
            }
        } else {
            ll = 0;
        }
        ll++;
        if (ll == m - 1) { /* a 2 x 2 block: at once */
            double sigmn, sigmx, sinr, cosr, sinl, cosl;
            lasv2(D(m - 1), E(m - 1), D(m), &sigmn, &sigmx, &sinr, &cosr,
                  &sinl, &cosl);
            D(m - 1) = sigmx;
            E(m - 1) = 0;
            D(m) = sigmn;
            /* drot's x' = c x + s y, y' = c y - s x: the forward
             * sequence of one rotation */
            if (!vrot(vs, m - 1, 2, &cosr, &sinr, true))
                return UF__NPLINALG_NOMEM;
            if (nru > 0)
                rot(UCOL(m - 1), UCOL(m), nru, cosl, sinl);
            m -= 2;
            continue;
        }
        /* a new block: chase from its larger end */
        if (ll > oldm || m < oldll)
            idir = fabs(D(ll)) >= fabs(D(m)) ? 1 : 2;
        /* convergence: the relative tests (mu_i estimates the smallest
         * singular value of the leading / trailing part) */
        double sminl;
        bool conv = false;
        if (idir == 1) {
            if (fabs(E(m - 1)) <= tol * fabs(D(m))) {
                E(m - 1) = 0;
                continue;
            }
            double mu = fabs(D(ll));
            sminl = mu;
            for (int64_t lll = ll; lll <= m - 1; lll++) {
                if (fabs(E(lll)) <= tol * mu) {
                    E(lll) = 0;
                    conv = true;
                    break;
                }
                mu = fabs(D(lll + 1)) * (mu / (mu + fabs(E(lll))));
                sminl = fmin(sminl, mu);
            }
        } else {
            if (fabs(E(ll)) <= tol * fabs(D(ll))) {
                E(ll) = 0;
                continue;
            }
            double mu = fabs(D(m));
            sminl = mu;
            for (int64_t lll = m - 1; lll >= ll; lll--) {
                if (fabs(E(lll)) <= tol * mu) {
                    E(lll) = 0;
                    conv = true;
                    break;
                }
                mu = fabs(D(lll)) * (mu / (mu + fabs(E(lll))));
                sminl = fmin(sminl, mu);
            }
        }
        if (conv)
            continue;
        oldll = ll;
        oldm = m;
        /* the shift, 0 where it would cost the smallest value its
         * relative accuracy */
        double shift, r;
        if ((double)n * tol * (sminl / smax) <= fmax(eps, 0.01 * tol)) {
            shift = 0;
        } else {
            double sll;
            if (idir == 1) {
                sll = fabs(D(ll));
                las2(D(m - 1), E(m - 1), D(m), &shift, &r);
            } else {
                sll = fabs(D(m));
                las2(D(ll), E(ll), D(ll + 1), &shift, &r);
            }
            if (sll > 0 && (shift / sll) * (shift / sll) < eps)
                shift = 0;
        }
        iter += m - ll;
        int64_t nb = m - ll + 1;
        if (shift == 0 && idir == 1) {
            double cs = 1, sn, oldcs = 1, oldsn = 0;
            for (int64_t i = ll; i <= m - 1; i++) {
                lartg(D(i) * cs, E(i), &cs, &sn, &r);
                if (i > ll)
                    E(i - 1) = oldsn * r;
                lartg(oldcs * r, D(i + 1) * sn, &oldcs, &oldsn, &D(i));
                W(i - ll + 1) = cs;
                W(i - ll + 1 + nm1) = sn;
                W(i - ll + 1 + nm12) = oldcs;
                W(i - ll + 1 + nm13) = oldsn;
            }
            double h = D(m) * cs;
            D(m) = h * oldcs;
            E(m - 1) = h * oldsn;
            if (!vrot(vs, ll, nb, &W(1), &W(n), true))
                return UF__NPLINALG_NOMEM;
            rotseq(nru ? UCOL(ll) : NULL, nru, ldu, nb, &W(nm12 + 1),
                   &W(nm13 + 1), true);
            if (fabs(E(m - 1)) <= thresh)
                E(m - 1) = 0;
        } else if (shift == 0) {
            double cs = 1, sn, oldcs = 1, oldsn = 0;
            for (int64_t i = m; i >= ll + 1; i--) {
                lartg(D(i) * cs, E(i - 1), &cs, &sn, &r);
                if (i < m)
                    E(i) = oldsn * r;
                lartg(oldcs * r, D(i - 1) * sn, &oldcs, &oldsn, &D(i));
                W(i - ll) = cs;
                W(i - ll + nm1) = -sn;
                W(i - ll + nm12) = oldcs;
                W(i - ll + nm13) = -oldsn;
            }
            double h = D(ll) * cs;
            D(ll) = h * oldcs;
            E(ll) = h * oldsn;
            if (!vrot(vs, ll, nb, &W(nm12 + 1), &W(nm13 + 1), false))
                return UF__NPLINALG_NOMEM;
            rotseq(nru ? UCOL(ll) : NULL, nru, ldu, nb, &W(1), &W(n), false);
            if (fabs(E(ll)) <= thresh)
                E(ll) = 0;
        } else if (idir == 1) {
            double f = (fabs(D(ll)) - shift) *
                       (sign(1, D(ll)) + shift / D(ll));
            double g = E(ll), cosr, sinr, cosl, sinl;
            for (int64_t i = ll; i <= m - 1; i++) {
                lartg(f, g, &cosr, &sinr, &r);
                if (i > ll)
                    E(i - 1) = r;
                f = cosr * D(i) + sinr * E(i);
                E(i) = cosr * E(i) - sinr * D(i);
                g = sinr * D(i + 1);
                D(i + 1) = cosr * D(i + 1);
                lartg(f, g, &cosl, &sinl, &r);
                D(i) = r;
                f = cosl * E(i) + sinl * D(i + 1);
                D(i + 1) = cosl * D(i + 1) - sinl * E(i);
                if (i < m - 1) {
                    g = sinl * E(i + 1);
                    E(i + 1) = cosl * E(i + 1);
                }
                W(i - ll + 1) = cosr;
                W(i - ll + 1 + nm1) = sinr;
                W(i - ll + 1 + nm12) = cosl;
                W(i - ll + 1 + nm13) = sinl;
            }
            E(m - 1) = f;
            if (!vrot(vs, ll, nb, &W(1), &W(n), true))
                return UF__NPLINALG_NOMEM;
            rotseq(nru ? UCOL(ll) : NULL, nru, ldu, nb, &W(nm12 + 1),
                   &W(nm13 + 1), true);
            if (fabs(E(m - 1)) <= thresh)
                E(m - 1) = 0;
        } else {
            double f = (fabs(D(m)) - shift) *
                       (sign(1, D(m)) + shift / D(m));
            double g = E(m - 1), cosr, sinr, cosl, sinl;
            for (int64_t i = m; i >= ll + 1; i--) {
                lartg(f, g, &cosr, &sinr, &r);
                if (i < m)
                    E(i) = r;
                f = cosr * D(i) + sinr * E(i - 1);
                E(i - 1) = cosr * E(i - 1) - sinr * D(i);
                g = sinr * D(i - 1);
                D(i - 1) = cosr * D(i - 1);
                lartg(f, g, &cosl, &sinl, &r);
                D(i) = r;
                f = cosl * E(i - 1) + sinl * D(i - 1);
                D(i - 1) = cosl * D(i - 1) - sinl * E(i - 1);
                if (i > ll + 1) {
                    g = sinl * E(i - 2);
                    E(i - 2) = cosl * E(i - 2);
                }
                W(i - ll) = cosr;
                W(i - ll + nm1) = -sinr;
                W(i - ll + nm12) = cosl;
                W(i - ll + nm13) = -sinl;
            }
            E(ll) = f;
            if (fabs(E(ll)) <= thresh)
                E(ll) = 0;
            if (!vrot(vs, ll, nb, &W(nm12 + 1), &W(nm13 + 1), false))
                return UF__NPLINALG_NOMEM;
            rotseq(nru ? UCOL(ll) : NULL, nru, ldu, nb, &W(1), &W(n), false);
        }
    }
    /* positive values (V's column negated with them), then descending
     * by selection, U's and V's columns swapped along */
    uf__nplinalg_rotlog *lg = vs->lg;
    for (int64_t i = 1; i <= n; i++) {
        if (lg != NULL) {
            lg->perm[i - 1] = i - 1;
            lg->sign[i - 1] = D(i) < 0 ? -1 : 1;
        }
        if (D(i) < 0) {
            D(i) = -D(i);
            for (int64_t k = 0; k < nrv; k++)
                VCOL(i)[k] = -VCOL(i)[k];
        }
    }
    for (int64_t i = 1; i <= n - 1; i++) {
        int64_t isub = 1;
        double smin = D(1);
        for (int64_t j = 2; j <= n + 1 - i; j++)
            if (D(j) <= smin) {
                isub = j;
                smin = D(j);
            }
        int64_t last = n + 1 - i;
        if (isub != last) {
            D(isub) = D(last);
            D(last) = smin;
            if (lg != NULL) {
                int64_t t = lg->perm[isub - 1];
                lg->perm[isub - 1] = lg->perm[last - 1];
                lg->perm[last - 1] = t;
            }
            for (int64_t k = 0; k < nrv; k++) {
                double t = VCOL(isub)[k];
                VCOL(isub)[k] = VCOL(last)[k];
                VCOL(last)[k] = t;
            }
            for (int64_t k = 0; k < nru; k++) {
                double t = UCOL(isub)[k];
                UCOL(isub)[k] = UCOL(last)[k];
                UCOL(last)[k] = t;
            }
        }
    }
    return 0;
}

bool uf__nplinalg_bdsqr(int64_t n, double *d, double *e, double *u,
                        int64_t nru, int64_t ldu, double *v, int64_t nrv,
                        int64_t ldv, double *work)
{
    vside vs = {v, v != NULL ? nrv : 0, ldv, NULL};
    return bdsqr(n, d, e, u, nru, ldu, &vs, work) == 0;
}

int uf__nplinalg_bdsqr_logged(int64_t n, double *d, double *e, double *u,
                              int64_t nru, int64_t ldu,
                              uf__nplinalg_rotlog *lg, double *work)
{
    memset(lg, 0, sizeof *lg);
    lg->n = n;
    lg->perm = uf__malloc((size_t)(n > 0 ? n : 1), sizeof *lg->perm, NULL);
    lg->sign = uf__malloc((size_t)(n > 0 ? n : 1), sizeof *lg->sign, NULL);
    if (lg->perm == NULL || lg->sign == NULL)
        return UF__NPLINALG_NOMEM;
    vside vs = {NULL, 0, 1, lg};
    return bdsqr(n, d, e, u, nru, ldu, &vs, work);
}
