/* The complex np.linalg runtime behind kernels (common/
 * nplinalg_complex.c and matrix_power in nplinalg_fact.c), for what the
 * Numba oracle cannot reach cheaply: known determinants of complex
 * matrices that need pivoting, the sign of modulus 1, inverse and solve
 * residuals of random complex128 and complex64 matrices from 1 to 100
 * rows (past the blocked update's 48 columns), negative and
 * non-contiguous strides, Fortran order, 0 x 0, singular and non-finite
 * matrices (an inf or NaN in the imaginary part too), matrix powers
 * against inverses, norms by the moduli (scaled near 1e+-300), Cholesky
 * (L L^H, the upper triangle and the diagonal's imaginary parts not
 * read), QR (q r = a, q^H q = I, zgeqrf's real diagonal), eigh (known
 * spectra, a repeated eigenvalue's orthonormal vectors, random
 * Hermitian matrices, complex64); and, through uf_call, a kernel's complex det / inv /
 * solve / matrix_power values, out of memory at every allocation reaching
 * the caller as UF_ERR_NOMEM with nothing left behind, and the refusals
 * at FILE:LINE:COL. */
#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "common/nplinalg.h"
#include "common/nrt.h"
#include "test_util.h"

static unsigned seed = 8765;
static double next_unit(void)
{
    seed = seed * 1103515245u + 12345u;
    return (double)(seed >> 8) / (double)(1u << 24) * 2.0 - 1.0;
}

static void cnear(double re, double im, double wre, double wim, double tol,
                  int line)
{
    double err = hypot(re - wre, im - wim);
    if (!(err <= tol * fmax(hypot(wre, wim), 1e-300)))
        uf_fail_at(__FILE__, line, "%.17g%+.17gj, want %.17g%+.17gj", re,
                   im, wre, wim);
}

#define CNEAR(r, i, wr, wi, t) cnear((r), (i), (wr), (wi), (t), __LINE__)

/* det of slogdet's three doubles */
static void det_of(const double *o, double *re, double *im)
{
    double e = exp(o[2]);
    *re = o[0] * e;
    *im = o[1] * e;
}

static void test_det_known(void **state)
{
    (void)state;
    double o[3], re, im;
    int64_t s2[2] = {2, 2}, t2[2] = {32, 16};
    /* (1+2i)(5-i) - 3 * 4i = 7 - 3i */
    double a[8] = {1, 2, 3, 0, 0, 4, 5, -1};
    assert_int_equal(uf__np_linalg_slogdet((char *)a, s2, t2, UF_COMPLEX128,
                                           o), 0);
    det_of(o, &re, &im);
    CNEAR(re, im, 7, -3, 1e-15);
    assert_true(fabs(hypot(o[0], o[1]) - 1) < 1e-15);
    /* F order (the transpose): the same determinant */
    int64_t tf[2] = {16, 32};
    assert_int_equal(uf__np_linalg_slogdet((char *)a, s2, tf, UF_COMPLEX128,
                                           o), 0);
    det_of(o, &re, &im);
    CNEAR(re, im, 7, -3, 1e-15);
    /* rows reversed (a negative stride): the sign flips */
    int64_t tr[2] = {-32, 16};
    assert_int_equal(uf__np_linalg_slogdet((char *)(a + 4), s2, tr,
                                           UF_COMPLEX128, o), 0);
    det_of(o, &re, &im);
    CNEAR(re, im, -7, 3, 1e-15);
    /* a zero corner: only the row swap factorises it; det = -(i * 2i) */
    double sw[8] = {0, 0, 0, 1, 2, 0, 0, 0};
    assert_int_equal(uf__np_linalg_slogdet((char *)sw, s2, t2, UF_COMPLEX128,
                                           o), 0);
    det_of(o, &re, &im);
    CNEAR(re, im, 0, -2, 1e-15);
    assert_true(o[0] == 0 || fabs(o[0]) < 1e-16);
    /* complex64, factorised in float32 */
    float f[8] = {1, 2, 3, 0, 0, 4, 5, -1};
    int64_t t8[2] = {16, 8};
    assert_int_equal(uf__np_linalg_slogdet((char *)f, s2, t8, UF_COMPLEX64,
                                           o), 0);
    det_of(o, &re, &im);
    CNEAR(re, im, 7, -3, 1e-6);
    /* singular: NumPy's (0, -inf); empty: (1, 0) */
    double sg[8] = {1, 1, 2, 2, 2, 2, 4, 4};
    assert_int_equal(uf__np_linalg_slogdet((char *)sg, s2, t2, UF_COMPLEX128,
                                           o), 0);
    assert_true(o[0] == 0 && o[1] == 0 && o[2] == -INFINITY);
    int64_t s0[2] = {0, 0};
    assert_int_equal(uf__np_linalg_slogdet((char *)sg, s0, t2, UF_COMPLEX128,
                                           o), 0);
    assert_true(o[0] == 1 && o[1] == 0 && o[2] == 0);
    /* a diagonal of phases: the sign is their product, log|det| the sum
     * of the logs of the moduli */
    double dg[18] = {0};
    dg[0] = 0, dg[1] = 2;         /* 2i */
    dg[8] = -3, dg[9] = 0;        /* -3 */
    dg[16] = 1, dg[17] = 1;       /* 1 + i */
    int64_t s3[2] = {3, 3}, t3[2] = {48, 16};
    assert_int_equal(uf__np_linalg_slogdet((char *)dg, s3, t3, UF_COMPLEX128,
                                           o), 0);
    /* 2i * -3 * (1 + i) = -6i - 6i^2 = 6 - 6i */
    CNEAR(o[0], o[1], 1 / sqrt(2), -1 / sqrt(2), 1e-15);
    assert_true(fabs(o[2] - log(6 * sqrt(2))) < 1e-14);
}

static void test_statuses(void **state)
{
    (void)state;
    double o[3], out[12];
    int64_t s2[2] = {2, 2}, t2[2] = {32, 16}, s23[2] = {2, 3},
            t23[2] = {48, 16};
    double a[12] = {1, 0, 2, 0, 3, 1, 4, 0, 5, 0, 6, 0};
    assert_int_equal(uf__np_linalg_slogdet((char *)a, s23, t23,
                                           UF_COMPLEX128, o),
                     UF__NPLINALG_SQUARE);
    assert_int_equal(uf__np_linalg_inv((char *)a, s23, t23, UF_COMPLEX128,
                                       (char *)out),
                     UF__NPLINALG_SQUARE);
    /* an inf or NaN in either part */
    double ni[8] = {1, 0, 2, NAN, 3, 0, 4, 0};
    double ii[8] = {1, 0, 2, 0, INFINITY, 0, 4, 0};
    assert_int_equal(uf__np_linalg_slogdet((char *)ni, s2, t2, UF_COMPLEX128,
                                           o), UF__NPLINALG_NONFINITE);
    assert_int_equal(uf__np_linalg_inv((char *)ii, s2, t2, UF_COMPLEX128,
                                       (char *)out), UF__NPLINALG_NONFINITE);
    float nf[8] = {1, 0, 2, 0, 3, NAN, 4, 0};
    int64_t t8[2] = {16, 8};
    assert_int_equal(uf__np_linalg_inv((char *)nf, s2, t8, UF_COMPLEX64,
                                       (char *)out), UF__NPLINALG_NONFINITE);
    /* singular: inv and solve raise, slogdet does not */
    double sg[8] = {1, 1, 2, 2, 2, 2, 4, 4};
    assert_int_equal(uf__np_linalg_inv((char *)sg, s2, t2, UF_COMPLEX128,
                                       (char *)out), UF__NPLINALG_SINGULAR);
    double b[4] = {1, 0, 1, 0};
    int64_t bs[1] = {2}, bt[1] = {16};
    assert_int_equal(uf__np_linalg_solve((char *)sg, s2, t2, (char *)b, 1,
                                         bs, bt, UF_COMPLEX128, (char *)out),
                     UF__NPLINALG_SINGULAR);
    /* Numba's order: a's NaN, then b's, then the sizes */
    double bn[6] = {1, 0, NAN, 0, 1, 0};
    int64_t b3[1] = {3};
    assert_int_equal(uf__np_linalg_solve((char *)ni, s2, t2, (char *)bn, 1,
                                         b3, bt, UF_COMPLEX128, (char *)out),
                     UF__NPLINALG_NONFINITE);
    assert_int_equal(uf__np_linalg_solve((char *)a, s2, t2, (char *)bn, 1,
                                         b3, bt, UF_COMPLEX128, (char *)out),
                     UF__NPLINALG_NONFINITE);
    bn[2] = 2;
    assert_int_equal(uf__np_linalg_solve((char *)a, s2, t2, (char *)bn, 1,
                                         b3, bt, UF_COMPLEX128, (char *)out),
                     UF__NPLINALG_SYSTEM);
    /* matrix_power: not square, except p == 0 (the identity of a's
     * shape); a negative power of a singular matrix */
    assert_int_equal(uf__np_linalg_matrix_power((char *)a, s23, t23,
                                                UF_COMPLEX128, 2,
                                                (char *)out),
                     UF__NPLINALG_POWER_SQUARE);
    assert_int_equal(uf__np_linalg_matrix_power((char *)a, s23, t23,
                                                UF_COMPLEX128, 0,
                                                (char *)out), 0);
    static const double eye23[12] = {1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0};
    assert_memory_equal(out, eye23, sizeof eye23);
    assert_int_equal(uf__np_linalg_matrix_power((char *)sg, s2, t2,
                                                UF_COMPLEX128, -2,
                                                (char *)out),
                     UF__NPLINALG_SINGULAR);
    /* 0 x 0: nothing to write, no error */
    int64_t s0[2] = {0, 0};
    assert_int_equal(uf__np_linalg_inv((char *)a, s0, t2, UF_COMPLEX128,
                                       (char *)out), 0);
    assert_int_equal(uf__np_linalg_matrix_power((char *)a, s0, t2,
                                                UF_COMPLEX128, -3,
                                                (char *)out), 0);
}

/* max |a x - b| / (|a| |x| + |b|) over the n * r complex128 x (C order),
 * a and b read through their strides (in complex elements). */
static double residual(const double complex *a, int64_t as0, int64_t as1,
                       const double complex *x, const double complex *b,
                       int64_t bs0, int64_t bs1, int64_t n, int64_t r)
{
    double worst = 0, na = 0, nx = 0;
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < n; j++)
            na = fmax(na, cabs(a[i * as0 + j * as1]));
    for (int64_t i = 0; i < n * r; i++)
        nx = fmax(nx, cabs(x[i]));
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < r; j++) {
            double complex s = 0;
            for (int64_t k = 0; k < n; k++)
                s += a[i * as0 + k * as1] * x[k * r + j];
            double complex bij = b ? b[i * bs0 + j * bs1]
                                   : (i == j ? 1.0 : 0.0);
            worst = fmax(worst, cabs(s - bij) /
                                    (na * nx * (double)n + cabs(bij)));
        }
    return worst;
}

static void test_inverse_residuals(void **state)
{
    (void)state;
    static const int64_t ns[] = {1, 2, 3, 5, 8, 17, 48, 49, 64, 100};
    for (size_t t = 0; t < sizeof ns / sizeof ns[0]; t++) {
        int64_t n = ns[t];
        /* a lives in every other column of a 2n-wide buffer, read
         * transposed with rows reversed: strides of both signs */
        double complex *buf = malloc((size_t)(2 * n * n) * sizeof *buf);
        double complex *x = malloc((size_t)(n * n) * sizeof *x);
        double complex *b = malloc((size_t)(3 * n) * sizeof *b);
        double complex *y = malloc((size_t)(3 * n) * sizeof *y);
        assert_non_null(buf);
        assert_non_null(x);
        assert_non_null(b);
        assert_non_null(y);
        for (int64_t i = 0; i < 2 * n * n; i++)
            buf[i] = next_unit() + I * next_unit();
        for (int64_t i = 0; i < 3 * n; i++)
            b[i] = next_unit() + I * next_unit();
        /* element (i, j) at buf[(n - 1 - j) * 2n + 2 i]: s0 = 2, s1 = -2n */
        const double complex *a0 = buf + (n - 1) * 2 * n;
        int64_t shape[2] = {n, n}, st[2] = {2 * 16, -2 * n * 16};
        assert_int_equal(uf__np_linalg_inv((const char *)a0, shape, st,
                                           UF_COMPLEX128, (char *)x), 0);
        double r = residual(a0, 2, -2 * n, x, NULL, 0, 0, n, n);
        if (!(r < 64 * 2.2e-16))
            uf_fail_at(__FILE__, __LINE__, "inv %lld: %g", (long long)n, r);
        /* solve with a 2-D b of 3 columns, b read F order */
        int64_t bsh[2] = {n, 3}, bst[2] = {16, n * 16};
        assert_int_equal(uf__np_linalg_solve((const char *)a0, shape, st,
                                             (const char *)b, 2, bsh, bst,
                                             UF_COMPLEX128, (char *)y), 0);
        r = residual(a0, 2, -2 * n, y, b, 1, n, n, 3);
        if (!(r < 64 * 2.2e-16))
            uf_fail_at(__FILE__, __LINE__, "solve %lld: %g", (long long)n,
                       r);
        /* a 1-D b with stride 3 */
        int64_t b1[1] = {n}, s1[1] = {48};
        assert_int_equal(uf__np_linalg_solve((const char *)a0, shape, st,
                                             (const char *)b, 1, b1, s1,
                                             UF_COMPLEX128, (char *)y), 0);
        r = residual(a0, 2, -2 * n, y, b, 3, 0, n, 1);
        if (!(r < 64 * 2.2e-16))
            uf_fail_at(__FILE__, __LINE__, "solve1 %lld: %g", (long long)n,
                       r);
        /* complex64: factorised in float32 */
        float complex *af = malloc((size_t)(n * n) * sizeof *af);
        float complex *xf = malloc((size_t)(n * n) * sizeof *xf);
        assert_non_null(af);
        assert_non_null(xf);
        for (int64_t i = 0; i < n * n; i++)
            af[i] = (float complex)buf[i];
        int64_t fst[2] = {n * 8, 8};
        assert_int_equal(uf__np_linalg_inv((const char *)af, shape, fst,
                                           UF_COMPLEX64, (char *)xf), 0);
        for (int64_t i = 0; i < n * n; i++) {
            x[i] = xf[i];
            buf[i] = af[i];
        }
        r = residual(buf, n, 1, x, NULL, 0, 0, n, n);
        if (!(r < 64 * 1.2e-7))
            uf_fail_at(__FILE__, __LINE__, "inv c64 %lld: %g", (long long)n,
                       r);
        free(af);
        free(xf);
        free(buf);
        free(x);
        free(b);
        free(y);
    }
}

static void test_matrix_power(void **state)
{
    (void)state;
    enum { N = 6 };
    double complex a[N * N], p3[N * N], m3[N * N], inv[N * N], t[N * N];
    for (int i = 0; i < N * N; i++)
        a[i] = (next_unit() + I * next_unit()) + (i % (N + 1) == 0 ? 3 : 0);
    int64_t shape[2] = {N, N}, st[2] = {N * 16, 16};
    assert_int_equal(uf__np_linalg_matrix_power((char *)a, shape, st,
                                                UF_COMPLEX128, 3,
                                                (char *)p3), 0);
    for (int i = 0; i < N; i++) /* a^3 by hand */
        for (int j = 0; j < N; j++) {
            double complex s = 0;
            for (int k = 0; k < N; k++)
                s += a[i * N + k] * a[k * N + j];
            t[i * N + j] = s;
        }
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            double complex s = 0;
            for (int k = 0; k < N; k++)
                s += t[i * N + k] * a[k * N + j];
            CNEAR(creal(p3[i * N + j]), cimag(p3[i * N + j]), creal(s),
                  cimag(s), 1e-13);
        }
    /* a^-3 @ a^3 = I */
    assert_int_equal(uf__np_linalg_matrix_power((char *)a, shape, st,
                                                UF_COMPLEX128, -3,
                                                (char *)m3), 0);
    assert_true(residual(p3, N, 1, m3, NULL, 0, 0, N, N) < 1e-13);
    assert_int_equal(uf__np_linalg_matrix_power((char *)a, shape, st,
                                                UF_COMPLEX128, -1,
                                                (char *)inv), 0);
    assert_true(residual(a, N, 1, inv, NULL, 0, 0, N, N) < 1e-14);
    /* p == 1 of a strided complex64 view: a's elements, copied */
    float complex f[2 * N * N], g[N * N];
    for (int i = 0; i < 2 * N * N; i++)
        f[i] = (float)next_unit() + I * (float)next_unit();
    int64_t fst[2] = {2 * N * 8, -8};
    assert_int_equal(uf__np_linalg_matrix_power((char *)(f + N - 1), shape,
                                                fst, UF_COMPLEX64, 1,
                                                (char *)g), 0);
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            assert_true(g[i * N + j] == f[i * 2 * N + N - 1 - j]);
}

static void test_norms(void **state)
{
    (void)state;
    double out;
    /* |3+4i|^2 + |-i|^2 + 0 = 26, read with a stride of 2 elements */
    double v[10] = {3, 4, 99, 99, 0, -1, 99, 99, 0, 0};
    int64_t s3[1] = {3}, t3[1] = {32};
    assert_int_equal(uf__np_linalg_norm((char *)v, 1, s3, t3, UF_COMPLEX128,
                                        0, 0, &out), 0);
    assert_true(fabs(out - sqrt(26)) < 1e-15);
    /* ord 1, inf, -inf, 0, 3 by the moduli */
    assert_int_equal(uf__np_linalg_norm((char *)v, 1, s3, t3, UF_COMPLEX128,
                                        1, 1, &out), 0);
    assert_true(out == 6);
    assert_int_equal(uf__np_linalg_norm((char *)v, 1, s3, t3, UF_COMPLEX128,
                                        1, INFINITY, &out), 0);
    assert_true(out == 5);
    assert_int_equal(uf__np_linalg_norm((char *)v, 1, s3, t3, UF_COMPLEX128,
                                        1, -INFINITY, &out), 0);
    assert_true(out == 0);
    assert_int_equal(uf__np_linalg_norm((char *)v, 1, s3, t3, UF_COMPLEX128,
                                        1, 0, &out), 0);
    assert_true(out == 2);
    assert_int_equal(uf__np_linalg_norm((char *)v, 1, s3, t3, UF_COMPLEX128,
                                        1, 3, &out), 0);
    assert_true(fabs(out - cbrt(126)) < 1e-14);
    /* parts near 1e300 and 1e-300: scaled, no overflow or underflow */
    double big[4] = {1e300, 1e300, 0, -1e300};
    int64_t s2[1] = {2}, t2[1] = {16};
    assert_int_equal(uf__np_linalg_norm((char *)big, 1, s2, t2,
                                        UF_COMPLEX128, 0, 0, &out), 0);
    assert_true(fabs(out / (sqrt(3) * 1e300) - 1) < 1e-15);
    double tiny[4] = {3e-300, 0, 0, 4e-300};
    assert_int_equal(uf__np_linalg_norm((char *)tiny, 1, s2, t2,
                                        UF_COMPLEX128, 0, 0, &out), 0);
    assert_true(fabs(out / 5e-300 - 1) < 1e-15);
    /* a NaN part: NaN */
    double nan[4] = {1, NAN, 2, 0};
    assert_int_equal(uf__np_linalg_norm((char *)nan, 1, s2, t2,
                                        UF_COMPLEX128, 0, 0, &out), 0);
    assert_true(isnan(out));
    /* complex64 matrix: 1-norm (the largest column sum of moduli), inf,
     * Frobenius of a transposed view; ord 2 needs a complex SVD */
    float m[8] = {3, 4, 1, 0, 0, 0, 0, -2}; /* [[3+4i, 1], [0, -2i]] */
    int64_t ms[2] = {2, 2}, mt[2] = {16, 8}, mtt[2] = {8, 16};
    assert_int_equal(uf__np_linalg_norm((char *)m, 2, ms, mt, UF_COMPLEX64,
                                        1, 1, &out), 0);
    assert_true(out == 5);
    assert_int_equal(uf__np_linalg_norm((char *)m, 2, ms, mt, UF_COMPLEX64,
                                        1, INFINITY, &out), 0);
    assert_true(out == 6);
    assert_int_equal(uf__np_linalg_norm((char *)m, 2, ms, mt, UF_COMPLEX64,
                                        1, -1, &out), 0);
    assert_true(out == 3);
    assert_int_equal(uf__np_linalg_norm((char *)m, 2, ms, mtt, UF_COMPLEX64,
                                        0, 0, &out), 0);
    assert_true(fabs(out - sqrt(30)) < 1e-6);
    /* ord 2 / -2, cond: the singular values 5.1166727, 1.9543951 */
    assert_int_equal(uf__np_linalg_norm((char *)m, 2, ms, mt, UF_COMPLEX64,
                                        1, 2, &out), 0);
    assert_true(fabs(out / 5.11667274 - 1) < 1e-6);
    assert_int_equal(uf__np_linalg_norm((char *)m, 2, ms, mt, UF_COMPLEX64,
                                        1, -2, &out), 0);
    assert_true(fabs(out / 1.95439508 - 1) < 1e-6);
    assert_int_equal(uf__np_linalg_cond((char *)m, ms, mt, UF_COMPLEX64, 0,
                                        0, &out), 0);
    assert_true(fabs(out / 2.6180339887 - 1) < 1e-6);
    /* cond with p 1: norm(a, 1) * norm(inv(a), 1) */
    assert_int_equal(uf__np_linalg_cond((char *)m, ms, mt, UF_COMPLEX64, 1,
                                        1, &out), 0);
    assert_true(fabs(out - 3) < 1e-6); /* 5 * 0.6 */
    /* matrix_rank: [[1, i], [i, -1]] has rank 1; a 1-D vector of zeros
     * but for an imaginary part: 1 */
    double r1[8] = {1, 0, 0, 1, 0, 1, -1, 0};
    int64_t rk, rt[2] = {32, 16};
    assert_int_equal(uf__np_linalg_matrix_rank((char *)r1, 2, ms, rt,
                                               UF_COMPLEX128, 0, 0, &rk), 0);
    assert_int_equal(rk, 1);
    double z1[4] = {0, 0, 0, 1e-300};
    int64_t zs[1] = {2}, zt[1] = {16};
    assert_int_equal(uf__np_linalg_matrix_rank((char *)z1, 1, zs, zt,
                                               UF_COMPLEX128, 0, 0, &rk), 0);
    assert_int_equal(rk, 1);
}

static void test_cholesky_qr(void **state)
{
    (void)state;
    /* [[4, *], [2i, 5 + 7i]] (upper not read, the diagonal's imaginary
     * part neither): L = [[2, 0], [i, 2]] */
    double a[8] = {4, 0, NAN, NAN, 0, 2, 5, 7}, l[8];
    int64_t s2[2] = {2, 2}, t2[2] = {32, 16};
    assert_int_equal(uf__np_linalg_cholesky((char *)a, s2, t2, UF_COMPLEX128,
                                            (char *)l), 0);
    static const double want[8] = {2, 0, 0, 0, 0, 1, 2, 0};
    assert_memory_equal(l, want, sizeof want);
    a[6] = 1; /* 1 - |i|^2 = 0: not positive definite */
    assert_int_equal(uf__np_linalg_cholesky((char *)a, s2, t2, UF_COMPLEX128,
                                            (char *)l),
                     UF__NPLINALG_NOT_PD);
    /* QR of a random 7 x 4 complex64 read transposed from 4 x 7, and of a
     * complex128 4 x 7: q r == a, q^H q == I, r's diagonal real with
     * zgeqrf's sign (-sign(re) of the pivot) */
    for (int c = 0; c < 2; c++) {
        int64_t m = c ? 4 : 7, n = c ? 7 : 4, k = 4;
        double complex x[28], q[28], r[28];
        float complex xf[28], qf[28], rf[28];
        for (int i = 0; i < 28; i++) {
            x[i] = next_unit() + I * next_unit();
            xf[i] = (float complex)x[i];
            x[i] = xf[i];
        }
        int64_t sh[2] = {m, n};
        int64_t st[2] = {c ? n * 16 : 8, c ? 16 : m * 8}; /* c64: F order */
        if (c) {
            assert_int_equal(uf__np_linalg_qr((char *)x, sh, st,
                                              UF_COMPLEX128, (char *)q,
                                              (char *)r), 0);
        } else {
            assert_int_equal(uf__np_linalg_qr((char *)xf, sh, st,
                                              UF_COMPLEX64, (char *)qf,
                                              (char *)rf), 0);
            for (int i = 0; i < 28; i++) {
                q[i] = qf[i];
                r[i] = rf[i];
            }
        }
        double tol = c ? 1e-14 : 1e-5;
        for (int64_t i = 0; i < m; i++)
            for (int64_t j = 0; j < n; j++) {
                double complex s = 0;
                for (int64_t t = 0; t < k; t++)
                    s += q[i * k + t] * r[t * n + j];
                double complex w = c ? x[i * n + j] : x[j * m + i];
                assert_true(cabs(s - w) < tol * 4);
            }
        for (int64_t i = 0; i < k; i++) {
            for (int64_t j = 0; j < k; j++) {
                double complex s = 0;
                for (int64_t t = 0; t < m; t++)
                    s += conj(q[t * k + i]) * q[t * k + j];
                assert_true(cabs(s - (i == j)) < tol);
            }
            assert_true(cimag(r[i * n + i]) == 0);
        }
        double complex a00 = c ? x[0] : x[0];
        assert_true(creal(r[0]) * creal(a00) < 0);
    }
    double z[2] = {1, NAN}, q[2], r[2];
    int64_t s1[2] = {1, 1}, t1[2] = {16, 16}, s0[2] = {0, 1};
    assert_int_equal(uf__np_linalg_qr((char *)z, s1, t1, UF_COMPLEX128,
                                      (char *)q, (char *)r),
                     UF__NPLINALG_NONFINITE);
    assert_int_equal(uf__np_linalg_qr((char *)z, s0, t1, UF_COMPLEX128,
                                      (char *)q, (char *)r),
                     UF__NPLINALG_EMPTY);
}

/* max |a v - v w| (a Hermitian n * n, C order) and max |v^H v - I|. */
static void eig_residuals(const double complex *a, const double *w,
                          const double complex *v, int64_t n, double *res,
                          double *orth)
{
    *res = *orth = 0;
    for (int64_t k = 0; k < n; k++) {
        for (int64_t i = 0; i < n; i++) {
            double complex s = 0;
            for (int64_t j = 0; j < n; j++)
                s += a[i * n + j] * v[j * n + k];
            *res = fmax(*res, cabs(s - v[i * n + k] * w[k]));
        }
        for (int64_t m = 0; m < n; m++) {
            double complex s = 0;
            for (int64_t i = 0; i < n; i++)
                s += conj(v[i * n + k]) * v[i * n + m];
            *orth = fmax(*orth, cabs(s - (k == m)));
        }
    }
}

static void test_eigh(void **state)
{
    (void)state;
    /* [[2, -i], [i, 2]]: 1 and 3; the upper triangle is not read */
    double a[8] = {2, 0, NAN, 0, 0, 1, 2, 0}, w[2];
    double complex v[4];
    int64_t s2[2] = {2, 2}, t2[2] = {32, 16};
    assert_int_equal(uf__np_linalg_eigh((char *)a, s2, t2, UF_COMPLEX128,
                                        (char *)w, (char *)v),
                     UF__NPLINALG_NONFINITE); /* Numba checks all of a */
    a[2] = 0;
    a[3] = 1;
    assert_int_equal(uf__np_linalg_eigh((char *)a, s2, t2, UF_COMPLEX128,
                                        (char *)w, (char *)v), 0);
    assert_true(fabs(w[0] - 1) < 1e-15 && fabs(w[1] - 3) < 1e-15);
    double complex h[4] = {2, -I, I, 2};
    double res, orth;
    eig_residuals(h, w, v, 2, &res, &orth);
    assert_true(res < 1e-15 && orth < 1e-15);
    /* a repeated eigenvalue (4 x 4: 1, 1, 1, 5 = I + 4 u u^H): the
     * three vectors of 1 orthonormal */
    enum { N = 4 };
    double complex u[N] = {0.5, 0.5 * I, -0.5, -0.5 * I}, r[N * N];
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            r[i * N + j] = (i == j) + 4 * u[i] * conj(u[j]);
    double wr[N];
    double complex vr[N * N];
    int64_t s4[2] = {N, N}, t4[2] = {N * 16, 16};
    assert_int_equal(uf__np_linalg_eigh((char *)r, s4, t4, UF_COMPLEX128,
                                        (char *)wr, (char *)vr), 0);
    for (int k = 0; k < 3; k++)
        assert_true(fabs(wr[k] - 1) < 1e-14);
    assert_true(fabs(wr[3] - 5) < 1e-14);
    eig_residuals(r, wr, vr, N, &res, &orth);
    assert_true(res < 1e-14 && orth < 1e-14);
    /* random Hermitian 1..30, complex64 read F order (its transpose: the
     * conjugate matrix, the same eigenvalues), eigvalsh (v NULL) */
    for (int64_t n = 1; n <= 30; n += 29) {
        double complex *m = malloc((size_t)(n * n) * sizeof *m);
        double complex *vv = malloc((size_t)(n * n) * sizeof *vv);
        float complex *mf = malloc((size_t)(n * n) * sizeof *mf);
        float complex *vf = malloc((size_t)(n * n) * sizeof *vf);
        double *ww = malloc((size_t)n * sizeof *ww);
        float *wf = malloc((size_t)n * sizeof *wf);
        assert_non_null(m && vv && mf && vf && ww && wf);
        for (int64_t i = 0; i < n; i++)
            for (int64_t j = 0; j <= i; j++) {
                double complex z = next_unit() + I * next_unit();
                if (i == j)
                    z = creal(z);
                m[i * n + j] = z;
                m[j * n + i] = conj(z);
            }
        int64_t sh[2] = {n, n}, st[2] = {n * 16, 16}, fst[2] = {8, n * 8};
        assert_int_equal(uf__np_linalg_eigh((char *)m, sh, st, UF_COMPLEX128,
                                            (char *)ww, (char *)vv), 0);
        eig_residuals(m, ww, vv, n, &res, &orth);
        assert_true(res < 64 * n * 2.2e-16 && orth < 64 * n * 2.2e-16);
        for (int64_t i = 0; i < n * n; i++)
            mf[i] = (float complex)m[i];
        assert_int_equal(uf__np_linalg_eigh((char *)mf, sh, fst,
                                            UF_COMPLEX64, (char *)wf, NULL),
                         0);
        for (int64_t k = 0; k < n; k++)
            assert_true(fabs(wf[k] - ww[k]) < 1e-5 * n);
        free(m);
        free(vv);
        free(mf);
        free(vf);
        free(ww);
        free(wf);
    }
}

/* Through uf_call: a kernel's values, then out of memory at each
 * allocation (UF_ERR_NOMEM, nothing left), then Numba's exceptions. */
static void test_kernel(void **state)
{
    (void)state;
    static const char src[] =
        "from numba import njit\n"
        "import numpy as np\n"
        "@njit\n"
        "def k(a):\n"
        "    x = np.linalg.solve(a, a[0])\n"
        "    s, l = np.linalg.slogdet(a)\n"
        "    q, r = np.linalg.qr(a)\n"
        "    w, v = np.linalg.eigh(a)\n"
        "    return np.linalg.inv(a) + np.linalg.det(a) + x[0] + s * l + "
        "np.linalg.matrix_power(a, -2) + q + r + np.linalg.norm(a, 1) + v + "
        "w[0]\n"
        "@njit\n"
        "def d(a):\n"
        "    return np.linalg.det(a)\n";
    uf_error err;
    uf_context *ctx = uf_context_new(&err);
    uf_assert_ok(ctx != NULL, &err);
    uf_module *mod = uf_module_from_string(ctx, "nplinalg_c.py", src, &err);
    uf_assert_ok(mod != NULL, &err);
    int64_t shape[2] = {2, 2};
    uf_array *x = uf_empty(UF_COMPLEX128, 2, shape, UF_ORDER_C, &err);
    uf_assert_ok(x != NULL, &err);
    double *p = uf_array_data(x);
    static const double a[8] = {1, 2, 3, 0, 0, 4, 5, -1};
    memcpy(p, a, sizeof a);
    uf_func *fd = uf_module_get(mod, "d", &err);
    uf_assert_ok(fd != NULL, &err);
    uf_array *out = NULL;
    uf_assert_ok(uf_call(fd, &x, 1, &out, 1, NULL, &err) == 0, &err);
    assert_int_equal(uf_array_dtype(out), UF_COMPLEX128);
    const double *dv = uf_array_data(out);
    CNEAR(dv[0], dv[1], 7, -3, 1e-15);
    uf_array_release(out);
    uf_func *f = uf_module_get(mod, "k", &err);
    uf_assert_ok(f != NULL, &err);
    out = NULL;
    uf_assert_ok(uf_call(f, &x, 1, &out, 1, NULL, &err) == 0, &err);
    assert_int_equal(uf_array_dtype(out), UF_COMPLEX128);
    uf_array_release(out);
    long nrt = uf__nrt_live(), live = uf__alloc_live();
    int failures = 0;
    for (long k = 1; k < 100; k++) {
        out = NULL;
        uf__alloc_fail_at(k);
        int rc = uf_call(f, &x, 1, &out, 1, NULL, &err);
        bool failed = uf__alloc_failed();
        uf__alloc_fail_at(0);
        if (rc == 0) {
            uf_array_release(out);
            if (!failed)
                break;
            continue;
        }
        failures++;
        assert_int_equal(err.code, UF_ERR_NOMEM);
        assert_int_equal(uf__nrt_live(), nrt);
        assert_int_equal(uf__alloc_live(), live);
    }
    if (failures < 3)
        uf_fail_at(__FILE__, __LINE__, "only %d allocations failed",
                   failures);
    /* singular, then an imaginary NaN: LinAlgError, nothing left */
    static const double sg[8] = {1, 1, 2, 2, 2, 2, 4, 4};
    memcpy(p, sg, sizeof sg);
    out = NULL;
    assert_int_not_equal(uf_call(f, &x, 1, &out, 1, NULL, &err), 0);
    assert_non_null(strstr(err.message, "LinAlgError: Matrix is singular"));
    p[3] = NAN;
    assert_int_not_equal(uf_call(f, &x, 1, &out, 1, NULL, &err), 0);
    assert_non_null(strstr(err.message, "infs or NaNs"));
    assert_int_equal(uf__nrt_live(), nrt);
    assert_int_equal(uf__alloc_live(), live);
    uf_array_release(x);
    uf_module_free(mod);
    uf_context_free(ctx);
}

/* What is refused, at FILE:LINE:COL: a 1-D complex det (Numba's
 * TypingError), a complex a with a float b, a complex function ufjit
 * does not compute yet. */
static void test_refused(void **state)
{
    (void)state;
    static const char src[] =
        "import numpy as np\n"
        "from numba import njit\n"
        "@njit\n"
        "def d1(a):\n"
        "    return np.linalg.det(a)\n"
        "@njit\n"
        "def sv(a, b):\n"
        "    return np.linalg.solve(a, b)\n"
        "@njit\n"
        "def ev(a):\n"
        "    return np.linalg.eigvals(a)\n";
    uf_error err;
    uf_context *ctx = uf_context_new(&err);
    uf_assert_ok(ctx != NULL, &err);
    uf_module *m = uf_module_from_string(ctx, "nplinalg_cbad.py", src,
                                         &err);
    uf_assert_ok(m != NULL, &err);
    static const struct {
        const char *kernel, *sig, *msg;
        int line, col;
    } t[] = {
        {"d1", "complex128(complex128[:])", "only supported on 2-D", 5, 26},
        {"sv", "complex128[:](complex128[:, :], float64[:])", "homogeneous",
         8, 12},
        {"ev", "complex128[:](complex64[:, :])", "complex", 11, 30},
    };
    for (size_t i = 0; i < sizeof t / sizeof *t; i++) {
        uf_func *f = uf_module_get(m, t[i].kernel, &err);
        uf_assert_ok(f != NULL, &err);
        char *text = uf_func_inspect(f, t[i].sig, UF_INSPECT_TYPES, &err);
        assert_null(text);
        assert_non_null(strstr(err.file, "nplinalg_cbad.py"));
        if (err.line != t[i].line || err.column != t[i].col ||
            !strstr(err.message, t[i].msg))
            uf_fail_at(__FILE__, __LINE__, "%s: %d:%d %s", t[i].kernel,
                       err.line, err.column, err.message);
    }
    uf_module_free(m);
    uf_context_free(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_det_known),
        cmocka_unit_test(test_statuses),
        cmocka_unit_test(test_inverse_residuals),
        cmocka_unit_test(test_matrix_power),
        cmocka_unit_test(test_norms),
        cmocka_unit_test(test_cholesky_qr),
        cmocka_unit_test(test_eigh),
        cmocka_unit_test(test_kernel),
        cmocka_unit_test(test_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
