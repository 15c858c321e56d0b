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
 * Hermitian matrices, complex64), svd (u s vh = a and unitary factors,
 * full and reduced, tall and wide, known singular values), pinv (Numba's
 * cut), lstsq (exact, normal equations, minimum norm, float32
 * residuals), eig (known spectra, a v = v w with zgeev's normalisation,
 * |a| near 1e+-200); and, through uf_call, a kernel's complex det / inv /
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
/* a (m * n complex128, row-major) filled from next_unit(). */
static void crand(double complex *a, int64_t m, int64_t n)
{
    for (int64_t i = 0; i < m * n; i++)
        a[i] = CMPLX(next_unit(), next_unit());
}

/* max |x^H x - I| over the c columns of x (r rows, row-major) when cols,
 * else over its r rows. */
static double unitary_err(const double complex *x, int64_t r, int64_t c,
                          bool cols)
{
    int64_t nv = cols ? c : r, len = cols ? r : c;
    double e = 0;
    for (int64_t p = 0; p < nv; p++)
        for (int64_t q = 0; q < nv; q++) {
            double complex d = 0;
            for (int64_t i = 0; i < len; i++)
                d += cols ? conj(x[i * c + p]) * x[i * c + q]
                          : conj(x[p * c + i]) * x[q * c + i];
            e = fmax(e, cabs(d - (p == q)));
        }
    return e;
}

/* svd: random complex128 matrices tall, wide and square, full and
 * reduced (u s vh = a, u and vh unitary, s descending), rows reversed
 * (the same s), a known diagonal, complex64, the statuses. */
static void test_svd(void **state)
{
    (void)state;
    static const int64_t dims[][2] = {{1, 1}, {3, 3}, {5, 2}, {2, 5},
                                      {17, 9}, {9, 17}, {40, 40}};
    for (size_t d = 0; d < sizeof dims / sizeof *dims; d++)
        for (int full = 0; full < 2; full++) {
            int64_t m = dims[d][0], n = dims[d][1], k = m < n ? m : n;
            int64_t uc = full ? m : k, vr = full ? n : k;
            double complex *a = malloc((size_t)(m * n) * sizeof *a);
            double complex *u = malloc((size_t)(m * uc) * sizeof *u);
            double complex *vh = malloc((size_t)(vr * n) * sizeof *vh);
            double *s = malloc((size_t)k * sizeof *s), *s2 = malloc(
                                                    (size_t)k * sizeof *s2);
            crand(a, m, n);
            int64_t sh[2] = {m, n}, st[2] = {n * 16, 16};
            assert_int_equal(uf__np_linalg_svd((char *)a, sh, st,
                                               UF_COMPLEX128, full,
                                               (char *)u, (char *)s,
                                               (char *)vh), 0);
            double err = 0;
            for (int64_t i = 0; i < m; i++)
                for (int64_t j = 0; j < n; j++) {
                    double complex r = 0;
                    for (int64_t t = 0; t < k; t++)
                        r += u[i * uc + t] * s[t] * vh[t * n + j];
                    err = fmax(err, cabs(r - a[i * n + j]));
                }
            double tol = 1e-14 * (double)(m + n) * s[0];
            if (!(err <= tol) || !(unitary_err(u, m, uc, true) <= 1e-13) ||
                !(unitary_err(vh, vr, n, false) <= 1e-13))
                uf_fail_at(__FILE__, __LINE__, "%ldx%ld full %d: %g",
                           (long)m, (long)n, full, err);
            for (int64_t t = 1; t < k; t++)
                assert_true(s[t] <= s[t - 1] && s[t] >= 0);
            int64_t sr[2] = {-n * 16, 16}; /* rows reversed: the same s */
            assert_int_equal(uf__np_linalg_svd((char *)(a + (m - 1) * n), sh,
                                               sr, UF_COMPLEX128, full,
                                               (char *)u, (char *)s2,
                                               (char *)vh), 0);
            for (int64_t t = 0; t < k; t++)
                assert_true(fabs(s2[t] - s[t]) <= tol);
            free(a), free(u), free(vh), free(s), free(s2);
        }
    /* diag(3i, -4): s (4, 3); pinv diag(-i / 3, -1 / 4); rcond 2 keeps
     * Numba's cut of one unrecipocated value: s[0] v0 u0^H */
    double complex dg[4] = {3 * I, 0, 0, -4}, u[4], vh[4], p[4];
    double s[2];
    int64_t s2[2] = {2, 2}, t2[2] = {32, 16};
    assert_int_equal(uf__np_linalg_svd((char *)dg, s2, t2, UF_COMPLEX128, 1,
                                       (char *)u, (char *)s, (char *)vh), 0);
    assert_true(fabs(s[0] - 4) < 1e-15 && fabs(s[1] - 3) < 1e-15);
    assert_int_equal(uf__np_linalg_pinv((char *)dg, s2, t2, UF_COMPLEX128,
                                        1e-15, (char *)p), 0);
    CNEAR(creal(p[0]), cimag(p[0]), 0, -1.0 / 3, 1e-15);
    CNEAR(creal(p[3]), cimag(p[3]), -0.25, 0, 1e-15);
    assert_true(cabs(p[1]) == 0 && cabs(p[2]) == 0);
    assert_int_equal(uf__np_linalg_pinv((char *)dg, s2, t2, UF_COMPLEX128,
                                        2.0, (char *)p), 0);
    assert_true(cabs(p[0]) < 1e-15 && cabs(p[1]) < 1e-15 &&
                cabs(p[2]) < 1e-15);
    CNEAR(creal(p[3]), cimag(p[3]), -4, 0, 1e-15);
    /* complex64: s float32, reconstructed to float32 rounding */
    float complex f[24], fu[36], fv[16];
    float fs[4];
    for (int i = 0; i < 24; i++)
        f[i] = CMPLXF((float)next_unit(), (float)next_unit());
    int64_t s64[2] = {6, 4}, t64[2] = {32, 8};
    assert_int_equal(uf__np_linalg_svd((char *)f, s64, t64, UF_COMPLEX64, 1,
                                       (char *)fu, (char *)fs, (char *)fv),
                     0);
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 4; j++) {
            double complex r = 0;
            for (int t = 0; t < 4; t++)
                r += fu[i * 6 + t] * fs[t] * fv[t * 4 + j];
            assert_true(cabs(r - f[i * 4 + j]) < 1e-5);
        }
    /* statuses: empty, an imaginary NaN (svd, pinv); pinv of empty: 0 */
    int64_t s03[2] = {0, 3};
    assert_int_equal(uf__np_linalg_svd((char *)dg, s03, t2, UF_COMPLEX128, 1,
                                       (char *)u, (char *)s, (char *)vh),
                     UF__NPLINALG_EMPTY);
    assert_int_equal(uf__np_linalg_pinv((char *)dg, s03, t2, UF_COMPLEX128,
                                        1e-15, (char *)p), 0);
    dg[1] = CMPLX(0, NAN);
    assert_int_equal(uf__np_linalg_svd((char *)dg, s2, t2, UF_COMPLEX128, 1,
                                       (char *)u, (char *)s, (char *)vh),
                     UF__NPLINALG_NONFINITE);
    assert_int_equal(uf__np_linalg_pinv((char *)dg, s2, t2, UF_COMPLEX128,
                                        1e-15, (char *)p),
                     UF__NPLINALG_NONFINITE);
}

/* lstsq: a consistent tall system solved exactly (residual 0), an
 * inconsistent one's normal equations, a wide one's minimum-norm
 * solution (pinv's), two right-hand sides with strides, complex64's
 * float32 residuals, the statuses. */
static void test_lstsq(void **state)
{
    (void)state;
    double complex a[24], x0[3], b[16], x[16], res[2], p[24];
    double s[3];
    int64_t nres;
    int32_t rank;
    crand(a, 8, 3);
    crand(x0, 3, 1);
    for (int i = 0; i < 8; i++)
        b[i] = a[3 * i] * x0[0] + a[3 * i + 1] * x0[1] + a[3 * i + 2] * x0[2];
    int64_t sa[2] = {8, 3}, ta[2] = {48, 16}, sb[1] = {8}, tb[1] = {16};
    assert_int_equal(uf__np_linalg_lstsq((char *)a, sa, ta, (char *)b, 1, sb,
                                         tb, UF_COMPLEX128, -1, (char *)x,
                                         (char *)res, &nres, &rank,
                                         (char *)s), 0);
    assert_int_equal(rank, 3);
    assert_int_equal(nres, 1);
    for (int i = 0; i < 3; i++)
        CNEAR(creal(x[i]), cimag(x[i]), creal(x0[i]), cimag(x0[i]), 1e-13);
    assert_true(creal(res[0]) < 1e-26); /* res is float64: its first half */
    crand(b, 8, 1); /* inconsistent: a^H (b - a x) = 0 */
    assert_int_equal(uf__np_linalg_lstsq((char *)a, sa, ta, (char *)b, 1, sb,
                                         tb, UF_COMPLEX128, -1, (char *)x,
                                         (char *)res, &nres, &rank,
                                         (char *)s), 0);
    double rr = 0, *rd = (double *)res;
    double complex g[3] = {0};
    for (int i = 0; i < 8; i++) {
        double complex r = b[i] - (a[3 * i] * x[0] + a[3 * i + 1] * x[1] +
                                   a[3 * i + 2] * x[2]);
        rr += creal(r * conj(r));
        for (int j = 0; j < 3; j++)
            g[j] += conj(a[3 * i + j]) * r;
    }
    for (int j = 0; j < 3; j++)
        assert_true(cabs(g[j]) < 1e-13);
    assert_true(fabs(rd[0] - rr) <= 1e-13 * rr);
    /* wide (3 x 8), two right-hand sides in a column-reversed view of a
     * 3 x 4 b: x = pinv(a) b, no residuals */
    crand(b + 8, 8, 1);
    int64_t sw[2] = {3, 8}, tw[2] = {128, 16}, sb2[2] = {3, 2},
            tb2[2] = {64, -32};
    assert_int_equal(uf__np_linalg_lstsq((char *)a, sw, tw,
                                         (char *)(b + 2), 2, sb2, tb2,
                                         UF_COMPLEX128, -1, (char *)x,
                                         (char *)res, &nres, &rank,
                                         (char *)s), 0);
    assert_int_equal(nres, 0);
    assert_int_equal(rank, 3);
    assert_int_equal(uf__np_linalg_pinv((char *)a, sw, tw, UF_COMPLEX128,
                                        1e-15, (char *)p), 0);
    for (int i = 0; i < 8; i++)
        for (int k = 0; k < 2; k++) {
            double complex w = 0;
            for (int j = 0; j < 3; j++)
                w += p[i * 3 + j] * b[2 + j * 4 - 2 * k];
            CNEAR(creal(x[i * 2 + k]), cimag(x[i * 2 + k]), creal(w),
                  cimag(w), 1e-12);
        }
    /* complex64: residual and s float32 */
    float complex fa[12], fb[4], fx[3];
    float fres[1], fs[3];
    for (int i = 0; i < 12; i++)
        fa[i] = CMPLXF((float)next_unit(), (float)next_unit());
    for (int i = 0; i < 4; i++)
        fb[i] = CMPLXF((float)next_unit(), (float)next_unit());
    int64_t sf[2] = {4, 3}, tf[2] = {24, 8}, sfb[1] = {4}, tfb[1] = {8};
    assert_int_equal(uf__np_linalg_lstsq((char *)fa, sf, tf, (char *)fb, 1,
                                         sfb, tfb, UF_COMPLEX64, -1,
                                         (char *)fx, (char *)fres, &nres,
                                         &rank, (char *)fs), 0);
    double fr = 0;
    for (int i = 0; i < 4; i++) {
        double complex r = fb[i];
        for (int j = 0; j < 3; j++)
            r -= fa[3 * i + j] * fx[j];
        fr += creal(r * conj(r));
    }
    assert_true(nres == 1 && fabs(fres[0] - fr) < 1e-5 && fs[0] >= fs[2]);
    /* statuses: b's rows, empty, an inf in b */
    int64_t s7[1] = {7};
    assert_int_equal(uf__np_linalg_lstsq((char *)a, sa, ta, (char *)b, 1, s7,
                                         tb, UF_COMPLEX128, -1, (char *)x,
                                         (char *)res, &nres, &rank,
                                         (char *)s), UF__NPLINALG_SYSTEM);
    int64_t s0[2] = {0, 3}, sb0[1] = {0};
    assert_int_equal(uf__np_linalg_lstsq((char *)a, s0, ta, (char *)b, 1,
                                         sb0, tb, UF_COMPLEX128, -1,
                                         (char *)x, (char *)res, &nres,
                                         &rank, (char *)s),
                     UF__NPLINALG_EMPTY);
    b[5] = CMPLX(1, INFINITY);
    assert_int_equal(uf__np_linalg_lstsq((char *)a, sa, ta, (char *)b, 1, sb,
                                         tb, UF_COMPLEX128, -1, (char *)x,
                                         (char *)res, &nres, &rank,
                                         (char *)s), UF__NPLINALG_NONFINITE);
}

/* max |a v - v w| of eig's result, every |v_k| 1 and its largest
 * component real (zgeev's normalisation). */
static double eig_resid(const double complex *a, int64_t n,
                        const double complex *w, const double complex *v)
{
    double e = 0;
    for (int64_t k = 0; k < n; k++) {
        double nn = 0, big = 0;
        int64_t at = 0;
        for (int64_t i = 0; i < n; i++) {
            double complex r = -v[i * n + k] * w[k];
            for (int64_t j = 0; j < n; j++)
                r += a[i * n + j] * v[j * n + k];
            e = fmax(e, cabs(r));
            nn += creal(v[i * n + k] * conj(v[i * n + k]));
            if (cabs(v[i * n + k]) > big) {
                big = cabs(v[i * n + k]);
                at = i;
            }
        }
        assert_true(fabs(nn - 1) < 1e-13);
        assert_true(cimag(v[at * n + k]) == 0 && creal(v[at * n + k]) > 0);
    }
    return e;
}

/* eig / eigvals: known spectra, random matrices 1..64 (a v = v w), the
 * eigenvalues of a matrix scaled by 1e+-200 those of the matrix scaled
 * (NumPy's; SciPy's zgeev is off there), complex64, the statuses. */
static void test_eig(void **state)
{
    (void)state;
    double complex w[64], w2[64];
    int64_t s2[2] = {2, 2}, t2[2] = {32, 16};
    double complex tri[4] = {1, 2, 0, 3 * I}, v4[4];
    assert_int_equal(uf__np_linalg_eig((char *)tri, s2, t2, UF_COMPLEX128,
                                       (char *)w, (char *)v4), 0);
    assert_true((cabs(w[0] - 1) < 1e-15 && cabs(w[1] - 3 * I) < 1e-15) ||
                (cabs(w[1] - 1) < 1e-15 && cabs(w[0] - 3 * I) < 1e-15));
    assert_true(eig_resid(tri, 2, w, v4) < 1e-15);
    double complex rot[4] = {0, -1, 1, 0};
    assert_int_equal(uf__np_linalg_eig((char *)rot, s2, t2, UF_COMPLEX128,
                                       (char *)w, (char *)v4), 0);
    assert_true(cabs(w[0] + w[1]) < 1e-15 && fabs(cabs(w[0]) - 1) < 1e-15 &&
                fabs(creal(w[0])) < 1e-15);
    assert_true(eig_resid(rot, 2, w, v4) < 1e-15);
    static const int64_t ns[] = {1, 2, 3, 10, 30, 64};
    for (size_t t = 0; t < sizeof ns / sizeof *ns; t++) {
        int64_t n = ns[t], sh[2] = {n, n}, st[2] = {n * 16, 16};
        double complex *a = malloc((size_t)(n * n) * sizeof *a);
        double complex *v = malloc((size_t)(n * n) * sizeof *v);
        crand(a, n, n);
        assert_int_equal(uf__np_linalg_eig((char *)a, sh, st, UF_COMPLEX128,
                                           (char *)w, (char *)v), 0);
        double e = eig_resid(a, n, w, v);
        if (!(e < 1e-14 * (double)n))
            uf_fail_at(__FILE__, __LINE__, "n %ld: %g", (long)n, e);
        assert_int_equal(uf__np_linalg_eig((char *)a, sh, st, UF_COMPLEX128,
                                           (char *)w2, NULL), 0);
        for (int64_t k = 0; k < n; k++) /* eigvals: the same values */
            assert_true(w2[k] == w[k]);
        for (int sc = 0; sc < 2; sc++) {
            double f = sc ? 1e200 : 1e-200;
            for (int64_t i = 0; i < n * n; i++)
                a[i] *= f;
            assert_int_equal(uf__np_linalg_eig((char *)a, sh, st,
                                               UF_COMPLEX128, (char *)w2,
                                               NULL), 0);
            for (int64_t k = 0; k < n; k++)
                assert_true(cabs(w2[k] / f - w[k]) <= 1e-13 * (double)n);
            for (int64_t i = 0; i < n * n; i++)
                a[i] /= f;
        }
        free(a), free(v);
    }
    float complex f[36], fw[6], fv[36];
    double complex fa[36], dw[6], dv[36];
    for (int i = 0; i < 36; i++) {
        f[i] = CMPLXF((float)next_unit(), (float)next_unit());
        fa[i] = f[i];
    }
    int64_t s6[2] = {6, 6}, t6[2] = {48, 8};
    assert_int_equal(uf__np_linalg_eig((char *)f, s6, t6, UF_COMPLEX64,
                                       (char *)fw, (char *)fv), 0);
    for (int i = 0; i < 6; i++)
        dw[i] = fw[i];
    for (int i = 0; i < 36; i++)
        dv[i] = fv[i];
    double e = 0;
    for (int k = 0; k < 6; k++)
        for (int i = 0; i < 6; i++) {
            double complex r = -dv[i * 6 + k] * dw[k];
            for (int j = 0; j < 6; j++)
                r += fa[i * 6 + j] * dv[j * 6 + k];
            e = fmax(e, cabs(r));
        }
    assert_true(e < 1e-5);
    int64_t s23[2] = {2, 3}, s0[2] = {0, 0};
    assert_int_equal(uf__np_linalg_eig((char *)tri, s23, t2, UF_COMPLEX128,
                                       (char *)w, (char *)v4),
                     UF__NPLINALG_SQUARE);
    assert_int_equal(uf__np_linalg_eig((char *)tri, s0, t2, UF_COMPLEX128,
                                       (char *)w, (char *)v4), 0);
    tri[2] = CMPLX(NAN, 0); /* below the diagonal */
    assert_int_equal(uf__np_linalg_eig((char *)tri, s2, t2, UF_COMPLEX128,
                                       (char *)w, NULL),
                     UF__NPLINALG_NONFINITE);
}

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
        "    u, sv, vh = np.linalg.svd(a)\n"
        "    xl, res, rk, sl = np.linalg.lstsq(a, a[0])\n"
        "    we, ve = np.linalg.eig(a)\n"
        "    return np.linalg.inv(a) + np.linalg.det(a) + x[0] + s * l + "
        "np.linalg.matrix_power(a, -2) + q + r + np.linalg.norm(a, 1) + v + "
        "w[0] + u + sv[0] + vh + xl[0] + sl[0] + rk + we[0] + ve + "
        "np.linalg.pinv(a)\n"
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
    for (long k = 1; k < 300; k++) {
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

/* What is refused, at FILE:LINE:COL: a 1-D complex det and eigvals
 * (Numba's TypingErrors), a complex a with a float b. */
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
        {"ev", "complex128[:](complex128[:])", "only supported on 2-D", 11,
         30},
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
        cmocka_unit_test(test_svd),
        cmocka_unit_test(test_lstsq),
        cmocka_unit_test(test_eig),
        cmocka_unit_test(test_kernel),
        cmocka_unit_test(test_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
