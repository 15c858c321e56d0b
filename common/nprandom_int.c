/* np.random's integer-valued distributions (uf__np_random_ifill: poisson,
 * binomial, geometric, negative_binomial, hypergeometric, logseries,
 * zipf), noncentral_chisquare, multinomial and dirichlet, Numba 0.68's
 * steps on the per-thread generator of common/nprandom.c
 * (common/nprandom_state.h). */
#include "common/nprandom.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "common/nprandom_state.h"

/* ---- The integer-valued distributions (uf__np_random_ifill) ---- */

/* Python's int(x) of a double as Numba's fptosi runs on x86-64: the
 * truncation, INT64_MIN where it does not fit (NaN, infinities). */
static inline int64_t to_i64(double x)
{
    if (!(x > -9223372036854775808.0 - 1.0 && x < 9223372036854775808.0))
        return INT64_MIN;
    return (int64_t)x;
}

/* log(gamma(x)) as Numba's numba_poisson_ptrs uses it (NumPy's loggam):
 * Stirling's series shifted above 7. */
static double loggam(double x)
{
    static const double a[10] = {
        8.333333333333333e-02,  -2.777777777777778e-03,
        7.936507936507937e-04,  -5.952380952380952e-04,
        8.417508417508418e-04,  -1.917526917526918e-03,
        6.410256410256410e-03,  -2.955065359477124e-02,
        1.796443723688307e-01,  -1.39243221690590e+00};
    double x0 = x;
    long n = 0;
    if (x == 1.0 || x == 2.0)
        return 0.0;
    if (x <= 7.0) {
        n = (long)(7 - x);
        x0 = x + (double)n;
    }
    double x2 = 1.0 / (x0 * x0), xp = 2 * 3.14159265358979323846;
    double gl0 = a[9];
    for (int k = 8; k >= 0; k--) {
        gl0 *= x2;
        gl0 += a[k];
    }
    double gl = gl0 / x0 + 0.5 * log(xp) + (x0 - 0.5) * log(x0) - x0;
    if (x <= 7.0)
        for (long k = 1; k <= n; k++) {
            gl -= log(x0 - 1.0);
            x0 -= 1.0;
        }
    return gl;
}

/* np.random.poisson(lam): Hormann's transformed rejection from 10 up,
 * Knuth's product of uniforms below (Numba's two paths). */
static int32_t poisson_draw(mt_state *s, double lam, int64_t *r)
{
    if (lam >= 10.0) {
        double slam = sqrt(lam), loglam = log(lam);
        double b = 0.931 + 2.53 * slam;
        double a = -0.059 + 0.02483 * b;
        double invalpha = 1.1239 + 1.1328 / (b - 3.4);
        double vr = 0.9277 - 3.6224 / (b - 2);
        for (;;) {
            double U = uf__mt_double(s) - 0.5;
            double V = uf__mt_double(s);
            double us = 0.5 - fabs(U);
            int64_t k = to_i64(floor((2 * a / us + b) * U + lam + 0.43));
            if (us >= 0.07 && V <= vr) {
                *r = k;
                return 0;
            }
            if (k < 0 || (us < 0.013 && V > us))
                continue;
            if (log(V) + log(invalpha) - log(a / (us * us) + b) <=
                -lam + (double)k * loglam - loggam((double)k + 1)) {
                *r = k;
                return 0;
            }
        }
    }
    /* NaN would draw forever in Numba (prod <= NaN never holds): here
     * it is the negative lambda's ValueError */
    if (lam < 0.0 || lam != lam)
        return UF__NPRANDOM_BAD_POISSON;
    if (lam == 0.0) {
        *r = 0;
        return 0;
    }
    double enlam = exp(-lam), prod = 1.0;
    int64_t x = 0;
    for (;;) {
        prod *= uf__mt_double(s);
        if (prod <= enlam) {
            *r = x;
            return 0;
        }
        x++;
    }
}

/* Numba's q ** n for an integer n: squaring below 0x10000, pow above. */
static double int_pow(double q, int64_t n)
{
    uint64_t e = n < 0 ? 0u - (uint64_t)n : (uint64_t)n;
    if (e > 0x10000)
        return pow(q, (double)n);
    double r = 1.0;
    while (e != 0) {
        if (e & 1u)
            r *= q;
        e >>= 1;
        q *= q;
    }
    return n < 0 ? 1.0 / r : r;
}

/* The squeeze of BTPE's step 5.2 at NumPy's legacy constants: true to
 * reject. */
static bool btpe_squeeze(double A, double xm, int64_t m, int64_t n,
                         int64_t y, double r, double q)
{
    int64_t x1 = y + 1, f1 = m + 1, z = n + 1 - m, w = n - y + 1;
    double x2 = (double)(x1 * x1), f2 = (double)(f1 * f1);
    double z2 = (double)(z * z), w2 = (double)(w * w);
    double dx1 = (double)x1, df1 = (double)f1, dz = (double)z,
           dw = (double)w;
    return A > (xm * log(df1 / dx1) + ((double)(n - m) + 0.5) * log(dz / dw) +
                (double)(y - m) * log(dw * r / (dx1 * q)) +
                (13680. - (462. - (132. - (99. - 140. / f2) / f2) / f2) / f2) /
                    df1 / 166320. +
                (13680. - (462. - (132. - (99. - 140. / z2) / z2) / z2) / z2) /
                    dz / 166320. +
                (13680. - (462. - (132. - (99. - 140. / x2) / x2) / x2) / x2) /
                    dx1 / 166320. +
                (13680. - (462. - (132. - (99. - 140. / w2) / w2) / w2) / w2) /
                    dw / 166320.);
}

/* BTPE (Kachitvichyanukul & Schmeiser) for n r > 30, r <= 1/2. */
static int64_t binomial_btpe(mt_state *s, int64_t n, double r)
{
    double dn = (double)n, q = 1.0 - r;
    double fm = dn * r + r;
    int64_t m = to_i64(floor(fm));
    double p1 = floor(2.195 * sqrt(dn * r * q) - 4.6 * q) + 0.5;
    double xm = (double)m + 0.5, xl = xm - p1, xr = xm + p1;
    double c = 0.134 + 20.5 / (15.3 + (double)m);
    double a = (fm - xl) / (fm - xl * r);
    double laml = a * (1.0 + a / 2.0);
    a = (xr - fm) / (xr * q);
    double lamr = a * (1.0 + a / 2.0);
    double p2 = p1 * (1.0 + 2.0 * c), p3 = p2 + c / laml, p4 = p3 + c / lamr;
    for (;;) { /* step 10 */
        double nrq = dn * r * q;
        double u = uf__mt_double(s) * p4, v = uf__mt_double(s);
        int64_t y;
        if (u <= p1) {
            return to_i64(floor(xm - p1 * v + u));
        } else if (u <= p2) { /* 20 */
            double x = xl + (u - p1) / c;
            v = v * c + 1.0 - fabs((double)m - x + 0.5) / p1;
            if (v > 1.0)
                continue;
            y = to_i64(floor(x));
        } else if (u <= p3) { /* 30 */
            y = to_i64(floor(xl + log(v) / laml));
            if (y < 0 || v == 0.0)
                continue;
            v = v * (u - p2) * laml;
        } else { /* 40 */
            y = to_i64(floor(xr - log(v) / lamr));
            if (y > n || v == 0.0)
                continue;
            v = v * (u - p3) * lamr;
        }
        /* 50 */
        int64_t k = y - m < 0 ? m - y : y - m;
        if (k > 20 && (double)k < nrq / 2.0 - 1) { /* 52 */
            double dk = (double)k;
            double rho =
                (dk / nrq) * ((dk * (dk / 3.0 + 0.625) + 0.16666666666666666) /
                                  nrq +
                              0.5);
            double t = (double)(-k * k) / (2 * nrq);
            double A = log(v);
            if (A < t - rho)
                return y;
            if (A > t + rho)
                continue;
            if (btpe_squeeze(A, xm, m, n, y, r, q))
                continue;
            return y;
        }
        double sr = r / q, aa = sr * (double)(n + 1), F = 1.0;
        if (m < y) {
            for (int64_t i = m + 1; i <= y; i++)
                F = F * (aa / (double)i - sr);
        } else if (m > y) {
            for (int64_t i = y + 1; i <= m; i++)
                F = F / (aa / (double)i - sr);
        }
        if (v > F)
            continue;
        return y;
    }
}

/* np.random.binomial(n, p): BTPE above n p = 30, inversion (BINV)
 * below, p above 1/2 drawn as 1 - p and flipped. */
static int32_t binomial_draw(mt_state *s, int64_t n, double p, int64_t *r)
{
    if (n < 0)
        return UF__NPRANDOM_BAD_BINOMIAL_N;
    if (!(0.0 <= p && p <= 1.0))
        return UF__NPRANDOM_BAD_BINOMIAL_P;
    if (p == 0.0) {
        *r = 0;
        return 0;
    }
    if (p == 1.0) {
        *r = n;
        return 0;
    }
    bool flipped = p > 0.5;
    if (flipped)
        p = 1.0 - p;
    double q = 1.0 - p, np_prod = (double)n * p;
    if (np_prod > 30.0) {
        int64_t x = binomial_btpe(s, n, p);
        *r = flipped ? n - x : x;
        return 0;
    }
    int64_t niters = 1;
    double qn = int_pow(q, n);
    while (qn <= 1e-308) { /* underflow: several smaller draws */
        niters <<= 2;
        n >>= 2;
        qn = int_pow(q, n);
    }
    double bound = np_prod + 10.0 * sqrt(np_prod * q + 1);
    if ((double)n < bound)
        bound = (double)n;
    int64_t total = 0;
    while (niters > 0) {
        int64_t x = 0;
        double U = uf__mt_double(s), px = qn;
        while ((double)x <= bound) {
            if (U <= px) {
                total += flipped ? n - x : x;
                niters--;
                break;
            }
            U -= px;
            x++;
            px = ((double)(n - x + 1) * p * px) / ((double)x * q);
        }
    }
    *r = total;
    return 0;
}

/* np.random.geometric(p): search below p = 1/3, inversion above. */
static int32_t geometric_draw(mt_state *s, double p, int64_t *r)
{
    if (p <= 0.0 || p > 1.0)
        return UF__NPRANDOM_BAD_GEOMETRIC;
    double q = 1.0 - p;
    if (p >= 0.333333333333333333333333) {
        int64_t x = 1;
        double sum = p, prod = p, U = uf__mt_double(s);
        while (U > sum) {
            prod *= q;
            sum += prod;
            x++;
        }
        *r = x;
        return 0;
    }
    double lq = log(q), u = log(1.0 - uf__mt_double(s));
    if (lq == 0.0) /* p below 2**-53: Numba's float division raises */
        return UF__NPRANDOM_ZERODIV;
    *r = to_i64(ceil(u / lq));
    return 0;
}

/* np.random.hypergeometric(ngood, nbad, nsample): NumPy's HYP loop, no
 * checks (Numba has none). */
static int32_t hypergeometric_draw(mt_state *s, double ngood, double nbad,
                                   double nsample, int64_t *r)
{
    int64_t d1 = to_i64(nbad) + to_i64(ngood) - to_i64(nsample);
    double d2 = nbad < ngood ? nbad : ngood;
    double Y = d2;
    int64_t K = to_i64(nsample);
    while (Y > 0.0 && K > 0) {
        double u = uf__mt_double(s);
        if (d1 + K == 0) /* nsample > ngood + nbad: Numba's float
                            division by zero */
            return UF__NPRANDOM_ZERODIV;
        Y -= (double)to_i64(floor(u + Y / (double)(d1 + K)));
        K--;
    }
    int64_t Z = to_i64(d2 - Y);
    *r = ngood > nbad ? to_i64(nsample) - Z : Z;
    return 0;
}

static int32_t logseries_draw(mt_state *s, double p, int64_t *r)
{
    if (p <= 0.0 || p > 1.0)
        return UF__NPRANDOM_BAD_LOGSERIES;
    double lr = log(1.0 - p);
    double V = uf__mt_double(s);
    if (V >= p) {
        *r = 1;
        return 0;
    }
    double U = uf__mt_double(s);
    double q = 1.0 - exp(lr * U);
    if (V <= q * q) {
        if (log(q) == 0.0) /* p 1: q is 1, Numba's division raises */
            return UF__NPRANDOM_ZERODIV;
        *r = to_i64(1.0 + log(V) / log(q));
    }
    else
        *r = V >= q ? 1 : 2;
    return 0;
}

/* np.random.zipf(a): NumPy's rejection; a NaN (which Numba would draw
 * with forever) is the a <= 1 ValueError. */
static int32_t zipf_draw(mt_state *s, double a, int64_t *r)
{
    if (!(a > 1.0))
        return UF__NPRANDOM_BAD_ZIPF;
    double am1 = a - 1.0, b = pow(2.0, am1);
    for (;;) {
        double U = 1.0 - uf__mt_double(s);
        double V = uf__mt_double(s);
        int64_t X = to_i64(floor(pow(U, -1.0 / am1)));
        if (X < 1)
            continue;
        double T = pow(1.0 + 1.0 / (double)X, am1);
        if (V * (double)X * (T - 1.0) / (b - 1.0) <= T / b) {
            *r = X;
            return 0;
        }
    }
}

int32_t uf__np_random_ifill(int32_t kind, int64_t n_, double a, double b,
                            double c, int64_t *out, int64_t n)
{
    if (n <= 0)
        return 0;
    mt_state *s = uf__mt_state();
    for (int64_t i = 0; i < n; i++) {
        int32_t st = 0;
        switch (kind) {
        case UF__NPRANDOM_POISSON:
            st = poisson_draw(s, a, &out[i]);
            break;
        case UF__NPRANDOM_BINOMIAL:
            st = binomial_draw(s, n_, a, &out[i]);
            break;
        case UF__NPRANDOM_GEOMETRIC:
            st = geometric_draw(s, a, &out[i]);
            break;
        case UF__NPRANDOM_NEGATIVE_BINOMIAL: {
            double y;
            if (a <= 0)
                return UF__NPRANDOM_BAD_NEGBIN_N;
            if (b < 0.0 || b > 1.0)
                return UF__NPRANDOM_BAD_NEGBIN_P;
            if (b == 0.0)
                return UF__NPRANDOM_ZERODIV;
            if (!uf__mt_gamma(s, a, (1.0 - b) / b, &y))
                return UF__NPRANDOM_BAD_GAMMA;
            st = poisson_draw(s, y, &out[i]);
            break;
        }
        case UF__NPRANDOM_HYPERGEOMETRIC:
            st = hypergeometric_draw(s, a, b, c, &out[i]);
            break;
        case UF__NPRANDOM_LOGSERIES:
            st = logseries_draw(s, a, &out[i]);
            break;
        default:
            st = zipf_draw(s, a, &out[i]);
        }
        if (st != 0)
            return st;
    }
    return 0;
}

/* np.random.noncentral_chisquare(df, nonc): checked once, then NumPy's
 * draws (chisquare(df - 1) + (normal + sqrt(nonc))^2 above df 1, else
 * chisquare(df + 2 poisson(nonc / 2))). */
int32_t uf__np_random_noncentral_chisquare(double df, double nonc,
                                           double *out, int64_t n)
{
    if (df <= 0)
        return UF__NPRANDOM_BAD_NC_DF;
    if (nonc < 0)
        return UF__NPRANDOM_BAD_NC_NONC;
    if (n <= 0)
        return 0;
    mt_state *s = uf__mt_state();
    for (int64_t i = 0; i < n; i++) {
        if (nonc != nonc) {
            out[i] = NAN;
            continue;
        }
        double g;
        if (1 < df) {
            if (!uf__mt_gamma(s, (df - 1) / 2.0, 1.0, &g))
                return UF__NPRANDOM_BAD_GAMMA;
            double chi2 = 2.0 * g;
            double nn = uf__mt_gauss(s) + sqrt(nonc);
            out[i] = chi2 + nn * nn;
        } else {
            int64_t k;
            int32_t st = poisson_draw(s, nonc / 2.0, &k);
            if (st != 0)
                return st;
            if (!uf__mt_gamma(s, (df + (double)(2 * k)) / 2.0, 1.0, &g))
                return UF__NPRANDOM_BAD_GAMMA;
            out[i] = 2.0 * g;
        }
    }
    return 0;
}

/* The probabilities an array or a tuple gives, as doubles: dt is the
 * dtype's kind ('f', 'i', 'u') times 256 plus its itemsize. */
static double pval(const char *p, int32_t dt)
{
    union {
        double f8;
        float f4;
        int64_t i8;
        int32_t i4;
        int16_t i2;
        int8_t i1;
        uint64_t u8;
        uint32_t u4;
        uint16_t u2;
        uint8_t u1;
    } v;
    memcpy(&v, p, (size_t)(dt & 0xff));
    switch (dt) {
    case 'f' * 256 + 4:
        return v.f4;
    case 'i' * 256 + 8:
        return (double)v.i8;
    case 'i' * 256 + 4:
        return v.i4;
    case 'i' * 256 + 2:
        return v.i2;
    case 'i' * 256 + 1:
        return v.i1;
    case 'u' * 256 + 8:
        return (double)v.u8;
    case 'u' * 256 + 4:
        return v.u4;
    case 'u' * 256 + 2:
        return v.u2;
    case 'u' * 256 + 1:
        return v.u1;
    default:
        return v.f8;
    }
}

int32_t uf__np_random_multinomial(int64_t n, const char *pv, int64_t plen,
                                  int64_t stride, int32_t dt, int64_t *out,
                                  int64_t size)
{
    if (size > 0) /* np.zeros: the buckets a break leaves */
        memset(out, 0, (size_t)size * sizeof *out);
    if (plen == 0)
        return UF__NPRANDOM_RANGE_STEP;
    if (size <= 0)
        return 0;
    mt_state *s = uf__mt_state();
    for (int64_t i = 0; i < size; i += plen) {
        double p_sum = 1.0;
        int64_t left = n;
        for (int64_t j = 0; j < plen - 1; j++) {
            double p_j = pval(pv + j * stride, dt);
            int64_t nj;
            int32_t st = binomial_draw(s, left, p_j / p_sum, &nj);
            if (st != 0)
                return st;
            out[i + j] = nj;
            left -= nj;
            if (left <= 0)
                break;
            p_sum -= p_j;
        }
        if (left > 0)
            out[i + plen - 1] = left;
    }
    return 0;
}

int32_t uf__np_random_dirichlet(const char *alpha, int64_t alen,
                                int64_t stride, int32_t dt, double *out,
                                int64_t size)
{
    for (int64_t k = 0; k < alen; k++)
        if (pval(alpha + k * stride, dt) <= 0)
            return UF__NPRANDOM_BAD_DIRICHLET;
    if (alen == 0)
        return UF__NPRANDOM_RANGE_STEP;
    if (size <= 0)
        return 0;
    mt_state *s = uf__mt_state();
    for (int64_t i = 0; i < size; i += alen) {
        double norm = 0;
        for (int64_t k = 0; k < alen; k++) {
            if (!uf__mt_gamma(s, pval(alpha + k * stride, dt), 1.0, &out[i + k]))
                return UF__NPRANDOM_BAD_GAMMA;
            norm += out[i + k];
        }
        if (norm == 0.0)
            return UF__NPRANDOM_ZERODIV;
        for (int64_t k = 0; k < alen; k++)
            out[i + k] /= norm;
    }
    return 0;
}
