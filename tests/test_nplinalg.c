/* The np.linalg runtime behind kernels (common/nplinalg*.c), for what the
 * Numba oracle cannot reach cheaply: matrices that need pivoting, known
 * determinants, inverse and solve residuals of random matrices from 1 to
 * 96 rows against the identity, negative and non-contiguous strides,
 * float32 factorised in float32, the statuses (not square, inf / NaN,
 * singular, sizes of a system, matrix norm orders), Cholesky, QR (LAPACK's
 * signs), matrix powers, the SVD (reconstruction and orthonormality over
 * shapes and strides, rank-deficient and scaled matrices) and its users
 * cond / matrix_rank / pinv, norms that would
 * overflow or underflow summed naively, NaN rules of Numba's loops; and,
 * through uf_call, out of memory at every allocation of a call reaching
 * the caller as UF_ERR_NOMEM with nothing left behind, and the refusals
 * at FILE:LINE:COL. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "common/nplinalg.h"
#include "common/nrt.h"
#include "test_util.h"

static unsigned seed = 4321;
static double next_unit(void)
{
    seed = seed * 1103515245u + 12345u;
    return (double)(seed >> 8) / (double)(1u << 24) * 2.0 - 1.0;
}

static void near(double got, double want, double rtol, int line)
{
    if (!(fabs(got - want) <= rtol * fmax(fabs(want), 1e-300)) &&
        !(isnan(got) && isnan(want)) && got != want)
        uf_fail_at(__FILE__, line, "%.17g, want %.17g", got, want);
}

#define NEAR(g, w, r) near((g), (w), (r), __LINE__)

static const int64_t st8[2] = {0, 8};

/* Square matrices in C order: shape and strides of an n * n float64. */
static void c_layout(int64_t n, int64_t *shape, int64_t *st, int isz)
{
    shape[0] = shape[1] = n;
    st[0] = n * isz;
    st[1] = isz;
}

static void test_det_known(void **state)
{
    (void)state;
    int64_t shape[2], st[2];
    double out[2];
    /* a zero in the corner: only a row swap factorises it */
    double swap[4] = {0, 1, 1, 0};
    c_layout(2, shape, st, 8);
    assert_int_equal(uf__np_linalg_slogdet((char *)swap, shape, st,
                                           UF_FLOAT64, out), 0);
    assert_true(out[0] == -1.0 && out[1] == 0.0);
    double m3[9] = {6, 1, 1, 4, -2, 5, 2, 8, 7}; /* det -306 */
    c_layout(3, shape, st, 8);
    assert_int_equal(uf__np_linalg_slogdet((char *)m3, shape, st,
                                           UF_FLOAT64, out), 0);
    NEAR(out[0] * exp(out[1]), -306.0, 1e-14);
    /* the transpose through strides (F order) has the same determinant;
     * rows reversed (a negative stride) flips its sign for n = 3 */
    int64_t tst[2] = {8, 24};
    assert_int_equal(uf__np_linalg_slogdet((char *)m3, shape, tst,
                                           UF_FLOAT64, out), 0);
    NEAR(out[0] * exp(out[1]), -306.0, 1e-14);
    int64_t rst[2] = {-24, 8};
    assert_int_equal(uf__np_linalg_slogdet((char *)(m3 + 6), shape, rst,
                                           UF_FLOAT64, out), 0);
    NEAR(out[0] * exp(out[1]), 306.0, 1e-14);
    /* float32, factorised in float32 */
    float f3[9] = {6, 1, 1, 4, -2, 5, 2, 8, 7};
    c_layout(3, shape, st, 4);
    assert_int_equal(uf__np_linalg_slogdet((char *)f3, shape, st,
                                           UF_FLOAT32, out), 0);
    NEAR(out[0] * exp(out[1]), -306.0, 1e-5);
    /* triangular: the product of the diagonal, in log form past
     * float64's range (1e200^3) */
    double tri[9] = {1e200, 5, 7, 0, -1e200, 3, 0, 0, 1e200};
    c_layout(3, shape, st, 8);
    assert_int_equal(uf__np_linalg_slogdet((char *)tri, shape, st,
                                           UF_FLOAT64, out), 0);
    assert_true(out[0] == -1.0);
    NEAR(out[1], 3 * 200 * log(10.0), 1e-14);
    /* singular: (0, -inf); empty: (1, 0) */
    double sing[9] = {1, 2, 3, 2, 4, 6, 1, 1, 1};
    assert_int_equal(uf__np_linalg_slogdet((char *)sing, shape, st,
                                           UF_FLOAT64, out), 0);
    assert_true(out[0] == 0.0 && out[1] == -INFINITY);
    c_layout(0, shape, st, 8);
    assert_int_equal(uf__np_linalg_slogdet((char *)sing, shape, st,
                                           UF_FLOAT64, out), 0);
    assert_true(out[0] == 1.0 && out[1] == 0.0);
}

static void test_statuses(void **state)
{
    (void)state;
    double a[6] = {1, 2, 3, 4, 5, 6}, out[9], b[3] = {1, 2, 3};
    int64_t shape[2] = {2, 3}, st[2] = {24, 8};
    assert_int_equal(uf__np_linalg_slogdet((char *)a, shape, st, UF_FLOAT64,
                                           out), UF__NPLINALG_SQUARE);
    assert_int_equal(uf__np_linalg_inv((char *)a, shape, st, UF_FLOAT64,
                                       (char *)out), UF__NPLINALG_SQUARE);
    double nanm[4] = {1, NAN, 2, 3}, infm[4] = {1, 2, -INFINITY, 3};
    int64_t s2[2] = {2, 2}, t2[2] = {16, 8}, b1[1] = {2}, bs[1] = {8};
    assert_int_equal(uf__np_linalg_slogdet((char *)nanm, s2, t2, UF_FLOAT64,
                                           out), UF__NPLINALG_NONFINITE);
    assert_int_equal(uf__np_linalg_inv((char *)infm, s2, t2, UF_FLOAT64,
                                       (char *)out), UF__NPLINALG_NONFINITE);
    double sing[4] = {1, 2, 2, 4};
    assert_int_equal(uf__np_linalg_inv((char *)sing, s2, t2, UF_FLOAT64,
                                       (char *)out), UF__NPLINALG_SINGULAR);
    assert_int_equal(uf__np_linalg_solve((char *)sing, s2, t2, (char *)b, 1,
                                         b1, bs, UF_FLOAT64, (char *)out),
                     UF__NPLINALG_SINGULAR);
    /* NaN in b before the sizes: Numba checks a, b, then the system */
    double bn[3] = {1, NAN, 3};
    int64_t b3[1] = {3};
    assert_int_equal(uf__np_linalg_solve((char *)sing, s2, t2, (char *)bn,
                                         1, b3, bs, UF_FLOAT64, (char *)out),
                     UF__NPLINALG_NONFINITE);
    assert_int_equal(uf__np_linalg_solve((char *)sing, s2, t2, (char *)b, 1,
                                         b3, bs, UF_FLOAT64, (char *)out),
                     UF__NPLINALG_SYSTEM);
    double r;
    assert_int_equal(uf__np_linalg_norm((char *)a, 2, shape, st, UF_FLOAT64,
                                        1, 3.0, &r), UF__NPLINALG_NORM_ORD);
    /* the matrix 2-norms: [[1, 2, 3], [4, 5, 6]]'s singular values */
    assert_int_equal(uf__np_linalg_norm((char *)a, 2, shape, st, UF_FLOAT64,
                                        1, -2.0, &r), 0);
    NEAR(r, 0.7728696356734844, 1e-14);
    assert_int_equal(uf__np_linalg_norm((char *)a, 2, shape, st, UF_FLOAT64,
                                        1, 2.0, &r), 0);
    NEAR(r, 9.508032000695724, 1e-15);
    assert_int_equal(uf__np_linalg_norm((char *)nanm, 2, s2, t2, UF_FLOAT64,
                                        1, 2.0, &r), UF__NPLINALG_NONFINITE);
}

/* inv(a) @ a and a @ solve(a, b) - b for random matrices of every size
 * up to 96, C order and transposed through strides. */
static void test_inverse_residuals(void **state)
{
    (void)state;
    enum { N = 96 };
    double *a = malloc(sizeof(double) * N * N);
    double *x = malloc(sizeof(double) * N * N);
    double *b = malloc(sizeof(double) * N * 3);
    double *y = malloc(sizeof(double) * N * 3);
    assert_true(a && x && b && y);
    for (int64_t n = 1; n <= N; n += n < 8 ? 1 : 11) {
        for (int64_t i = 0; i < n * n; i++)
            a[i] = next_unit();
        for (int64_t i = 0; i < n * 3; i++)
            b[i] = next_unit() * 100;
        for (int tr = 0; tr < 2; tr++) {
            int64_t shape[2], st[2];
            c_layout(n, shape, st, 8);
            if (tr) { /* a.T */
                st[0] = 8;
                st[1] = n * 8;
            }
            assert_int_equal(uf__np_linalg_inv((char *)a, shape, st,
                                               UF_FLOAT64, (char *)x), 0);
            double worst = 0;
            for (int64_t i = 0; i < n; i++)
                for (int64_t j = 0; j < n; j++) {
                    double s = 0;
                    for (int64_t k = 0; k < n; k++)
                        s += x[i * n + k] *
                             a[tr ? j * n + k : k * n + j];
                    worst = fmax(worst, fabs(s - (i == j)));
                }
            if (worst > 1e-9)
                uf_fail_at(__FILE__, __LINE__, "n=%lld tr=%d: inv(a) @ a "
                           "off the identity by %g", (long long)n, tr, worst);
            int64_t bshape[2] = {n, 3}, bst[2] = {24, 8};
            assert_int_equal(uf__np_linalg_solve((char *)a, shape, st,
                                                 (char *)b, 2, bshape, bst,
                                                 UF_FLOAT64, (char *)y), 0);
            worst = 0;
            for (int64_t i = 0; i < n; i++)
                for (int64_t j = 0; j < 3; j++) {
                    double s = 0;
                    for (int64_t k = 0; k < n; k++)
                        s += (tr ? a[k * n + i] : a[i * n + k]) * y[k * 3 + j];
                    worst = fmax(worst, fabs(s - b[i * 3 + j]));
                }
            if (worst > 1e-8)
                uf_fail_at(__FILE__, __LINE__, "n=%lld tr=%d: a @ x - b = "
                           "%g", (long long)n, tr, worst);
        }
    }
    /* float32: a 1-D right-hand side read backwards (negative stride) */
    float af[9] = {6, 1, 1, 4, -2, 5, 2, 8, 7}, bf[3] = {3, 2, 1}, xf[3];
    int64_t shape[2], st[2], b1[1] = {3}, bsn[1] = {-4};
    c_layout(3, shape, st, 4);
    assert_int_equal(uf__np_linalg_solve((char *)af, shape, st,
                                         (char *)(bf + 2), 1, b1, bsn,
                                         UF_FLOAT32, (char *)xf), 0);
    for (int i = 0; i < 3; i++)
        NEAR(af[i * 3] * xf[0] + af[i * 3 + 1] * xf[1] + af[i * 3 + 2] * xf[2],
             (double)(i + 1), 1e-5);
    free(a);
    free(x);
    free(b);
    free(y);
}

static void test_norms(void **state)
{
    (void)state;
    double r;
    int64_t n2[1] = {2}, n4[1] = {4}, s8[1] = {8}, sn[1] = {-8};
    double big[2] = {1e300, -1e300}, tiny[2] = {1e-300, 1e-300};
    assert_int_equal(uf__np_linalg_norm((char *)big, 1, n2, s8, UF_FLOAT64,
                                        0, 0, &r), 0);
    NEAR(r, sqrt(2.0) * 1e300, 1e-15);
    assert_int_equal(uf__np_linalg_norm((char *)tiny, 1, n2, s8, UF_FLOAT64,
                                        0, 0, &r), 0);
    NEAR(r, sqrt(2.0) * 1e-300, 1e-15);
    double v[4] = {3, NAN, -4, 0};
    /* Numba's max loop skips NaN unless it comes first */
    uf__np_linalg_norm((char *)v, 1, n4, s8, UF_FLOAT64, 1, INFINITY, &r);
    assert_true(r == 4.0);
    uf__np_linalg_norm((char *)(v + 1), 1, n2, sn, UF_FLOAT64, 1, -INFINITY,
                       &r); /* NaN, 3 read backwards */
    assert_true(isnan(r));
    uf__np_linalg_norm((char *)v, 1, n4, s8, UF_FLOAT64, 0, 0, &r);
    assert_true(isnan(r));
    double w[4] = {3, 0, -4, 0};
    uf__np_linalg_norm((char *)w, 1, n4, s8, UF_FLOAT64, 1, 0, &r);
    assert_true(r == 2.0);
    uf__np_linalg_norm((char *)w, 1, n4, s8, UF_FLOAT64, 1, 1, &r);
    assert_true(r == 7.0);
    uf__np_linalg_norm((char *)w, 1, n4, s8, UF_FLOAT64, 1, 2, &r);
    assert_true(r == 5.0);
    uf__np_linalg_norm((char *)w, 1, n4, s8, UF_FLOAT64, 1, 3, &r);
    NEAR(r, cbrt(91.0), 1e-15);
    uf__np_linalg_norm((char *)w, 1, n4, s8, UF_FLOAT64, 1, INFINITY, &r);
    assert_true(r == 4.0);
    uf__np_linalg_norm((char *)w, 1, n4, s8, UF_FLOAT64, 1, -INFINITY, &r);
    assert_true(r == 0.0);
    /* an empty vector is 0 for every ord (Numba, not NumPy's ValueError) */
    int64_t n0[1] = {0};
    r = 1;
    uf__np_linalg_norm((char *)w, 1, n0, s8, UF_FLOAT64, 1, INFINITY, &r);
    assert_true(r == 0.0);
    /* matrices: [[1, -2, 3], [-4, 5, -6]], and its transpose */
    double m[6] = {1, -2, 3, -4, 5, -6};
    int64_t ms[2] = {2, 3}, mst[2] = {24, 8};
    struct {
        double ord, want;
    } t[] = {{INFINITY, 15}, {-INFINITY, 6}, {1, 9}, {-1, 5}};
    for (size_t i = 0; i < sizeof t / sizeof *t; i++) {
        uf__np_linalg_norm((char *)m, 2, ms, mst, UF_FLOAT64, 1, t[i].ord,
                           &r);
        if (r != t[i].want)
            uf_fail_at(__FILE__, __LINE__, "ord %g: %g, want %g", t[i].ord,
                       r, t[i].want);
    }
    int64_t ts[2] = {3, 2}, tst[2] = {8, 24};
    uf__np_linalg_norm((char *)m, 2, ts, tst, UF_FLOAT64, 1, INFINITY, &r);
    assert_true(r == 9.0); /* rows (1, -4), (-2, 5), (3, -6) */
    uf__np_linalg_norm((char *)m, 2, ts, tst, UF_FLOAT64, 0, 0, &r);
    NEAR(r, sqrt(91.0), 1e-15);
    /* Frobenius of a non-contiguous matrix past float64's range */
    double bm[6] = {1e300, 1e300, 5, 5, 1e300, 0}; /* rows 0 and 2 */
    int64_t bs2[2] = {2, 2}, bst2[2] = {32, 8};
    uf__np_linalg_norm((char *)bm, 2, bs2, bst2, UF_FLOAT64, 0, 0, &r);
    NEAR(r, sqrt(3.0) * 1e300, 1e-15);
    float f[3] = {3e38f, 3e38f, 0};
    int64_t n3[1] = {3}, s4[1] = {4};
    uf__np_linalg_norm((char *)f, 1, n3, s4, UF_FLOAT32, 0, 0, &r);
    NEAR(r, sqrt(2.0) * 3e38, 1e-7);
    (void)st8;
}

/* cholesky: a known factor, the upper triangle not read, negative
 * strides, float32, the statuses (not square, a pivot <= 0, -inf from an
 * inf below the diagonal; a NaN pivot goes on as potrf's). */
static void test_cholesky(void **state)
{
    (void)state;
    double a[4] = {4, 99, 2, 3}, l[4];
    int64_t s2[2] = {2, 2}, t2[2] = {16, 8};
    assert_int_equal(uf__np_linalg_cholesky((char *)a, s2, t2, UF_FLOAT64,
                                            (char *)l), 0);
    NEAR(l[0], 2, 0);
    NEAR(l[1], 0, 0);
    NEAR(l[2], 1, 0);
    NEAR(l[3], sqrt(2.0), 1e-15);
    /* the same matrix reversed on both axes: [[3, 2], [2, 4]] */
    double sym[4] = {4, 2, 2, 3};
    int64_t tr[2] = {-16, -8};
    assert_int_equal(uf__np_linalg_cholesky((char *)(sym + 3), s2, tr,
                                            UF_FLOAT64, (char *)l), 0);
    NEAR(l[0], sqrt(3.0), 1e-15);
    NEAR(l[2], 2 / sqrt(3.0), 1e-15);
    NEAR(l[3], sqrt(4 - 4 / 3.0), 1e-15);
    float af[4] = {9, 0, 3, 5}, lf[4];
    int64_t tf[2] = {8, 4};
    assert_int_equal(uf__np_linalg_cholesky((char *)af, s2, tf, UF_FLOAT32,
                                            (char *)lf), 0);
    assert_true(lf[0] == 3 && lf[1] == 0 && lf[2] == 1 && lf[3] == 2);
    /* L @ L.T of a random SPD matrix of 60 rows (past 4-wide sums) */
    enum { N = 60 };
    static double m[N * N], spd[N * N], f[N * N];
    for (int i = 0; i < N * N; i++)
        m[i] = next_unit();
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            double s = i == j ? N : 0;
            for (int k = 0; k < N; k++)
                s += m[i * N + k] * m[j * N + k];
            spd[i * N + j] = s;
        }
    int64_t sn[2] = {N, N}, tn[2] = {N * 8, 8};
    assert_int_equal(uf__np_linalg_cholesky((char *)spd, sn, tn, UF_FLOAT64,
                                            (char *)f), 0);
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            double s = 0;
            for (int k = 0; k < N; k++)
                s += f[i * N + k] * f[j * N + k];
            NEAR(s, spd[i * N + j], 1e-12 * N);
            if (j > i)
                assert_true(f[i * N + j] == 0);
        }
    double notpd[4] = {1, 2, 2, 1}, zero[4] = {0}, nanp[4] = {4, 0, 1, NAN},
           infl[4] = {4, 0, INFINITY, 5};
    assert_int_equal(uf__np_linalg_cholesky((char *)notpd, s2, t2,
                                            UF_FLOAT64, (char *)l),
                     UF__NPLINALG_NOT_PD);
    assert_int_equal(uf__np_linalg_cholesky((char *)zero, s2, t2,
                                            UF_FLOAT64, (char *)l),
                     UF__NPLINALG_NOT_PD);
    assert_int_equal(uf__np_linalg_cholesky((char *)infl, s2, t2,
                                            UF_FLOAT64, (char *)l),
                     UF__NPLINALG_NOT_PD);
    assert_int_equal(uf__np_linalg_cholesky((char *)nanp, s2, t2,
                                            UF_FLOAT64, (char *)l), 0);
    assert_true(l[0] == 2 && l[2] == 0.5 && isnan(l[3]));
    int64_t s23[2] = {2, 3}, t23[2] = {24, 8}, s00[2] = {0, 0};
    assert_int_equal(uf__np_linalg_cholesky((char *)m, s23, t23, UF_FLOAT64,
                                            (char *)l), UF__NPLINALG_SQUARE);
    assert_int_equal(uf__np_linalg_cholesky((char *)m, s00, t23, UF_FLOAT64,
                                            (char *)l), 0);
}

/* qr: LAPACK's signs on known matrices, q's columns orthonormal and
 * q @ r == a for tall, wide and strided matrices, a zero column (tau 0),
 * the statuses (empty, inf / NaN). */
static void test_qr(void **state)
{
    (void)state;
    double a[2] = {3, 4}, q[64], r[64];
    int64_t s21[2] = {2, 1}, t21[2] = {8, 8};
    assert_int_equal(uf__np_linalg_qr((char *)a, s21, t21, UF_FLOAT64,
                                      (char *)q, (char *)r), 0);
    NEAR(r[0], -5, 1e-15);
    NEAR(q[0], -0.6, 1e-15);
    NEAR(q[1], -0.8, 1e-15);
    double neg[2] = {-3, 4};
    assert_int_equal(uf__np_linalg_qr((char *)neg, s21, t21, UF_FLOAT64,
                                      (char *)q, (char *)r), 0);
    NEAR(r[0], 5, 1e-15);
    NEAR(q[0], -0.6, 1e-15);
    /* a 1 * 3 row: no reflection, r is a, q is [[1]] */
    double row[3] = {-2, 1, 7};
    int64_t s13[2] = {1, 3}, t13[2] = {24, 8};
    assert_int_equal(uf__np_linalg_qr((char *)row, s13, t13, UF_FLOAT64,
                                      (char *)q, (char *)r), 0);
    assert_true(q[0] == 1 && r[0] == -2 && r[1] == 1 && r[2] == 7);
    static const int64_t dims[][2] = {{7, 5}, {5, 7}, {6, 6}, {3, 1}};
    for (size_t d = 0; d < 4; d++) {
        int64_t m = dims[d][0], n = dims[d][1], k = m < n ? m : n;
        double x[64];
        for (int i = 0; i < 64; i++)
            x[i] = next_unit();
        /* transposed, reversed rows: strides (-8, m * 8) over x */
        int64_t sh[2] = {m, n}, st[2] = {-8, m * 8};
        const char *base = (const char *)(x + m - 1);
        assert_int_equal(uf__np_linalg_qr(base, sh, st, UF_FLOAT64,
                                          (char *)q, (char *)r), 0);
        for (int64_t i = 0; i < m; i++)
            for (int64_t j = 0; j < n; j++) {
                double s = 0;
                for (int64_t t = 0; t < k; t++)
                    s += q[i * k + t] * r[t * n + j];
                NEAR(s, *(const double *)(base + i * st[0] + j * st[1]),
                     1e-13);
                if (j < i && i < k)
                    assert_true(r[i * n + j] == 0);
            }
        for (int64_t i = 0; i < k; i++)
            for (int64_t j = 0; j < k; j++) {
                double s = 0;
                for (int64_t t = 0; t < m; t++)
                    s += q[t * k + i] * q[t * k + j];
                assert_true(fabs(s - (i == j)) < 1e-14);
            }
    }
    double zc[6] = {0, 1, 0, 2, 0, 3};
    int64_t s32[2] = {3, 2}, t32[2] = {16, 8};
    assert_int_equal(uf__np_linalg_qr((char *)zc, s32, t32, UF_FLOAT64,
                                      (char *)q, (char *)r), 0);
    assert_true(r[0] == 0 && q[0] == 1 && q[2] == 0 && q[4] == 0);
    float af[2] = {3, 4}, qf[2], rf[1];
    int64_t tf[2] = {4, 4};
    assert_int_equal(uf__np_linalg_qr((char *)af, s21, tf, UF_FLOAT32,
                                      (char *)qf, (char *)rf), 0);
    assert_true(fabsf(rf[0] + 5) < 1e-6f && fabsf(qf[1] + 0.8f) < 1e-6f);
    int64_t s03[2] = {0, 3}, s30[2] = {3, 0};
    assert_int_equal(uf__np_linalg_qr((char *)a, s03, t21, UF_FLOAT64,
                                      (char *)q, (char *)r),
                     UF__NPLINALG_EMPTY);
    assert_int_equal(uf__np_linalg_qr((char *)a, s30, t21, UF_FLOAT64,
                                      (char *)q, (char *)r),
                     UF__NPLINALG_EMPTY);
    double nanv[2] = {1, NAN};
    assert_int_equal(uf__np_linalg_qr((char *)nanv, s21, t21, UF_FLOAT64,
                                      (char *)q, (char *)r),
                     UF__NPLINALG_NONFINITE);
}

/* matrix_power: Fibonacci powers exact, Numba's identity of a non-square
 * shape at 0, inverse powers, the statuses. */
static void test_matrix_power(void **state)
{
    (void)state;
    double fib[4] = {1, 1, 1, 0}, out[9];
    int64_t s2[2] = {2, 2}, t2[2] = {16, 8};
    static const struct {
        int64_t p;
        double f;
    } t[] = {{1, 1}, {2, 2}, {3, 3}, {4, 5}, {7, 21}, {10, 89},
             {64, 17167680177565.0}}; /* F(p + 1): exact products */
    for (size_t i = 0; i < sizeof t / sizeof *t; i++) {
        assert_int_equal(uf__np_linalg_matrix_power((char *)fib, s2, t2,
                                                    UF_FLOAT64, t[i].p,
                                                    (char *)out), 0);
        assert_true(out[0] == t[i].f);
    }
    /* [[1, 1], [1, 0]] ** -3 = [[-1, 2], [2, -3]] */
    assert_int_equal(uf__np_linalg_matrix_power((char *)fib, s2, t2,
                                                UF_FLOAT64, -3, (char *)out),
                     0);
    NEAR(out[0], -1, 1e-15);
    NEAR(out[1], 2, 1e-15);
    NEAR(out[3], -3, 1e-15);
    double m23[6] = {5, 5, 5, 5, 5, 5};
    int64_t s23[2] = {2, 3}, t23[2] = {24, 8};
    assert_int_equal(uf__np_linalg_matrix_power((char *)m23, s23, t23,
                                                UF_FLOAT64, 0, (char *)out),
                     0);
    assert_true(out[0] == 1 && out[1] == 0 && out[4] == 1 && out[5] == 0);
    assert_int_equal(uf__np_linalg_matrix_power((char *)m23, s23, t23,
                                                UF_FLOAT64, 2, (char *)out),
                     UF__NPLINALG_POWER_SQUARE);
    double sing[4] = {1, 2, 2, 4}, nanm[4] = {1, NAN, 2, 3};
    assert_int_equal(uf__np_linalg_matrix_power((char *)sing, s2, t2,
                                                UF_FLOAT64, -2, (char *)out),
                     UF__NPLINALG_SINGULAR);
    assert_int_equal(uf__np_linalg_matrix_power((char *)nanm, s2, t2,
                                                UF_FLOAT64, -1, (char *)out),
                     UF__NPLINALG_NONFINITE);
    float ff[4] = {1, 1, 1, 0}, of[4];
    int64_t tf[2] = {8, 4};
    assert_int_equal(uf__np_linalg_matrix_power((char *)ff, s2, tf,
                                                UF_FLOAT32, 9, (char *)of),
                     0);
    assert_true(of[0] == 55 && of[3] == 21);
}

/* u (m * uc) @ diag(s) @ vh (vr * n) against a (strides st), u's and
 * vh's rows / columns orthonormal. */
static void check_svd(const double *a, const int64_t *st, int64_t m,
                      int64_t n, const double *u, int64_t uc, const double *s,
                      const double *vh, int64_t vr, double tol)
{
    int64_t k = m < n ? m : n;
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++) {
            double x = 0;
            for (int64_t t = 0; t < k; t++)
                x += u[i * uc + t] * s[t] * vh[t * n + j];
            double w = *(const double *)((const char *)a + i * st[0] +
                                         j * st[1]);
            if (fabs(x - w) > tol * s[0])
                uf_fail_at(__FILE__, __LINE__, "(%d, %d): %g, want %g",
                           (int)i, (int)j, x, w);
        }
    for (int64_t i = 0; i < uc; i++)
        for (int64_t j = 0; j < uc; j++) {
            double d = 0;
            for (int64_t t = 0; t < m; t++)
                d += u[t * uc + i] * u[t * uc + j];
            if (!(fabs(d - (i == j)) < tol))
                uf_fail_at(__FILE__, __LINE__, "%d x %d: u'u (%d, %d) %g",
                           (int)m, (int)n, (int)i, (int)j, d);
        }
    for (int64_t i = 0; i < vr; i++)
        for (int64_t j = 0; j < vr; j++) {
            double d = 0;
            for (int64_t t = 0; t < n; t++)
                d += vh[i * n + t] * vh[j * n + t];
            if (!(fabs(d - (i == j)) < tol))
                uf_fail_at(__FILE__, __LINE__, "%d x %d: vv' (%d, %d) %g",
                           (int)m, (int)n, (int)i, (int)j, d);
        }
    for (int64_t t = 1; t < k; t++)
        assert_true(s[t] <= s[t - 1] && s[t] >= 0);
}

/* svd: known singular values, tall / wide / square, full and reduced,
 * transposed and reversed strides, rank-deficient and zero matrices
 * (U completed), entries near overflow and underflow, float32, the
 * statuses. */
static void test_svd(void **state)
{
    (void)state;
    static double a[40 * 40], u[40 * 40], vh[40 * 40], s[40];
    double d3[6] = {0, 3, 0, -5, 0, 0}; /* [[0, 3], [0, -5], [0, 0]] */
    int64_t s32[2] = {3, 2}, t32[2] = {16, 8};
    assert_int_equal(uf__np_linalg_svd((char *)d3, s32, t32, UF_FLOAT64, 1,
                                       (char *)u, (char *)s, (char *)vh), 0);
    NEAR(s[0], sqrt(34.0), 1e-15);
    assert_true(s[1] == 0);
    check_svd(d3, t32, 3, 2, u, 3, s, vh, 2, 1e-14);
    static const int64_t dims[][2] = {
        {7, 5}, {5, 7}, {6, 6}, {1, 4}, {4, 1}, {40, 23}, {23, 40}};
    for (size_t d = 0; d < sizeof dims / sizeof *dims; d++)
        for (int full = 0; full < 2; full++) {
            int64_t m = dims[d][0], n = dims[d][1], k = m < n ? m : n;
            for (int i = 0; i < 40 * 40; i++)
                a[i] = next_unit();
            /* a transposed and reversed view: strides (-8, m * 8) */
            int64_t sh[2] = {m, n}, st[2] = {-8, m * 8};
            const double *base = a + m - 1;
            assert_int_equal(uf__np_linalg_svd((const char *)base, sh, st,
                                               UF_FLOAT64, full, (char *)u,
                                               (char *)s, (char *)vh), 0);
            check_svd(base, st, m, n, u, full ? m : k, s, vh, full ? n : k,
                      1e-13);
        }
    /* rank 1 (every row the same) and zero: U completed to orthonormal */
    int64_t s45[2] = {4, 5}, t45[2] = {0, 8};
    double row[5] = {1, -2, 3, 0, 2};
    assert_int_equal(uf__np_linalg_svd((char *)row, s45, t45, UF_FLOAT64, 1,
                                       (char *)u, (char *)s, (char *)vh), 0);
    NEAR(s[0], sqrt(4 * 18.0), 1e-15);
    assert_true(s[1] < 1e-14 && s[3] < 1e-14);
    check_svd(row, t45, 4, 5, u, 4, s, vh, 5, 1e-13);
    double z[6] = {0};
    assert_int_equal(uf__np_linalg_svd((char *)z, s32, t32, UF_FLOAT64, 1,
                                       (char *)u, (char *)s, (char *)vh), 0);
    assert_true(s[0] == 0 && s[1] == 0);
    check_svd(z, t32, 3, 2, u, 3, s, vh, 2, 1e-14);
    /* scaled by a power of two: no overflow or underflow of the squares;
     * [[1, 2], [-1, .5]] has singular values sqrt(5) and sqrt(5) / 2 */
    double big[4] = {1e300, 2e300, -1e300, 5e299}, tiny[4];
    int64_t s2[2] = {2, 2}, t2[2] = {16, 8};
    for (int i = 0; i < 4; i++)
        tiny[i] = big[i] * 1e-300 * 1e-300;
    assert_int_equal(uf__np_linalg_svd((char *)big, s2, t2, UF_FLOAT64, 1,
                                       (char *)u, (char *)s, (char *)vh), 0);
    NEAR(s[0] / 1e300, sqrt(5.0), 1e-14);
    NEAR(s[1] / 1e300, sqrt(5.0) / 2, 1e-14);
    assert_int_equal(uf__np_linalg_svd((char *)tiny, s2, t2, UF_FLOAT64, 0,
                                       (char *)u, (char *)s, (char *)vh), 0);
    NEAR(s[0] / 1e-300, sqrt(5.0), 1e-13);
    NEAR(s[1] / 1e-300, sqrt(5.0) / 2, 1e-13);
    float f[4] = {3, 0, 0, -4}, uf[4], sf[2], vf[4];
    int64_t tf[2] = {8, 4};
    assert_int_equal(uf__np_linalg_svd((char *)f, s2, tf, UF_FLOAT32, 1,
                                       (char *)uf, (char *)sf, (char *)vf),
                     0);
    assert_true(sf[0] == 4 && sf[1] == 3);
    assert_true(fabsf(uf[1]) == 1 && fabsf(vf[1]) == 1);
    int64_t s03[2] = {0, 3};
    assert_int_equal(uf__np_linalg_svd((char *)z, s03, t32, UF_FLOAT64, 1,
                                       (char *)u, (char *)s, (char *)vh),
                     UF__NPLINALG_EMPTY);
    double nanm[4] = {1, 2, NAN, 3};
    assert_int_equal(uf__np_linalg_svd((char *)nanm, s2, t2, UF_FLOAT64, 1,
                                       (char *)u, (char *)s, (char *)vh),
                     UF__NPLINALG_NONFINITE);
}

/* cond, matrix_rank, pinv on matrices with known singular values. */
static void test_svd_users(void **state)
{
    (void)state;
    /* diag(4, 2, 0.5) with its rows reversed: singular values 4, 2, .5 */
    double d[9] = {0, 0, 0.5, 0, 2, 0, 4, 0, 0}, r, out[9];
    int64_t s3[2] = {3, 3}, t3[2] = {24, 8};
    assert_int_equal(uf__np_linalg_cond((char *)d, s3, t3, UF_FLOAT64, 0, 0,
                                        &r), 0);
    NEAR(r, 8, 1e-15);
    assert_int_equal(uf__np_linalg_cond((char *)d, s3, t3, UF_FLOAT64, 1, -2,
                                        &r), 0);
    NEAR(r, 0.125, 1e-15);
    /* p = 1: max column sum of |a| (4) times that of inv(a) (2) */
    assert_int_equal(uf__np_linalg_cond((char *)d, s3, t3, UF_FLOAT64, 1, 1,
                                        &r), 0);
    NEAR(r, 8, 1e-15);
    double z[4] = {0};
    int64_t s2[2] = {2, 2}, t2[2] = {16, 8};
    assert_int_equal(uf__np_linalg_cond((char *)z, s2, t2, UF_FLOAT64, 0, 0,
                                        &r), 0);
    assert_true(isinf(r) && r > 0); /* 0 / 0: NaN becomes inf */
    assert_int_equal(uf__np_linalg_cond((char *)z, s2, t2, UF_FLOAT64, 1, 1,
                                        &r), UF__NPLINALG_SINGULAR);
    assert_int_equal(uf__np_linalg_cond((char *)d, s3, t3, UF_FLOAT64, 1, 3,
                                        &r), UF__NPLINALG_NORM_ORD);
    int64_t rank;
    assert_int_equal(uf__np_linalg_matrix_rank((char *)d, 2, s3, t3,
                                               UF_FLOAT64, 0, 0, &rank), 0);
    assert_int_equal(rank, 3);
    assert_int_equal(uf__np_linalg_matrix_rank((char *)d, 2, s3, t3,
                                               UF_FLOAT64, 1, 1.0, &rank),
                     0);
    assert_int_equal(rank, 2);
    assert_int_equal(uf__np_linalg_matrix_rank((char *)z, 2, s2, t2,
                                               UF_FLOAT64, 0, 0, &rank), 0);
    assert_int_equal(rank, 0);
    int64_t s1[1] = {4}, t1[1] = {-8};
    assert_int_equal(uf__np_linalg_matrix_rank((char *)(d + 3), 1, s1, t1,
                                               UF_FLOAT64, 1, 100.0, &rank),
                     0);
    assert_int_equal(rank, 1); /* d[0..3] has 0.5: 1 whatever tol */
    /* pinv of the reversed diagonal: its inverse, and of diag(1, 1e-10)
     * with rcond 1e-6: the small value dropped */
    assert_int_equal(uf__np_linalg_pinv((char *)d, s3, t3, UF_FLOAT64,
                                        1e-15, (char *)out), 0);
    NEAR(out[2], 0.25, 1e-15);
    NEAR(out[4], 0.5, 1e-15);
    NEAR(out[6], 2, 1e-15);
    assert_true(fabs(out[0]) < 1e-16 && fabs(out[8]) < 1e-16);
    double sm[4] = {1, 0, 0, 1e-10};
    assert_int_equal(uf__np_linalg_pinv((char *)sm, s2, t2, UF_FLOAT64, 1e-6,
                                        (char *)out), 0);
    NEAR(out[0], 1, 1e-15);
    assert_true(out[3] == 0 && out[1] == 0);
    double nanm[4] = {1, NAN, 0, 1};
    int64_t s02[2] = {0, 2};
    assert_int_equal(uf__np_linalg_pinv((char *)nanm, s2, t2, UF_FLOAT64,
                                        1e-15, (char *)out),
                     UF__NPLINALG_NONFINITE);
    assert_int_equal(uf__np_linalg_pinv((char *)nanm, s02, t2, UF_FLOAT64,
                                        1e-15, (char *)out), 0);
}

/* Out of memory at each allocation of a kernel's call: UF_ERR_NOMEM,
 * nothing left (the runtime's scratch and the result arrays). */
static void test_out_of_memory(void **state)
{
    (void)state;
    static const char src[] =
        "from numba import njit\n"
        "import numpy as np\n"
        "@njit\n"
        "def k(a):\n"
        "    x = np.linalg.solve(a, a[0])\n"
        "    q, r = np.linalg.qr(a)\n"
        "    u, s, vh = np.linalg.svd(a)\n"
        "    r = r + u + vh + np.linalg.norm(a, 2) + np.linalg.pinv(a)\n"
        "    r[0, 0] += np.linalg.cond(a) + np.linalg.matrix_rank(a)\n"
        "    return np.linalg.inv(a) + np.linalg.det(a) + "
        "np.linalg.norm(x) + np.linalg.matrix_power(a, 5) + r\n";
    uf_error err;
    uf_context *ctx = uf_context_new(&err);
    uf_assert_ok(ctx != NULL, &err);
    uf_module *mod = uf_module_from_string(ctx, "nplinalg.py", src, &err);
    uf_assert_ok(mod != NULL, &err);
    int64_t shape[2] = {12, 12};
    uf_array *x = uf_empty(UF_FLOAT64, 2, shape, UF_ORDER_C, &err);
    uf_assert_ok(x != NULL, &err);
    double *d = uf_array_data(x);
    for (int64_t i = 0; i < 144; i++)
        d[i] = next_unit();
    uf_func *f = uf_module_get(mod, "k", &err);
    uf_assert_ok(f != NULL, &err);
    uf_array *out = NULL;
    uf_assert_ok(uf_call(f, &x, 1, &out, 1, NULL, &err) == 0, &err);
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
    /* a singular matrix: LinAlgError, nothing left behind */
    for (int64_t i = 0; i < 144; i++)
        d[i] = 1.0;
    out = NULL;
    assert_int_not_equal(uf_call(f, &x, 1, &out, 1, NULL, &err), 0);
    assert_non_null(strstr(err.message, "LinAlgError: Matrix is singular"));
    assert_int_equal(uf__nrt_live(), nrt);
    assert_int_equal(uf__alloc_live(), live);
    uf_array_release(x);
    uf_module_free(mod);
    uf_context_free(ctx);
}

/* What is refused, at FILE:LINE:COL: a complex full_matrices, integer
 * matrices, a CUDA kernel. */
static void test_refused(void **state)
{
    (void)state;
    static const char src[] =
        "import numpy as np\n"
        "from numba import cuda, njit\n"
        "@njit\n"
        "def n2(a):\n"
        "    return np.linalg.svd(a, 1j)\n"
        "@njit\n"
        "def ieig(a):\n"
        "    return np.linalg.eigvals(a)\n"
        "@cuda.jit\n"
        "def k(out):\n"
        "    out[0] = np.linalg.norm(out)\n"
        "@njit\n"
        "def mp(a):\n"
        "    return np.linalg.matrix_power(a, 2.5)\n";
    uf_error err;
    uf_context *ctx = uf_context_new(&err);
    uf_assert_ok(ctx != NULL, &err);
    uf_module *m = uf_module_from_string(ctx, "nplinalg_bad.py", src, &err);
    uf_assert_ok(m != NULL, &err);
    static const struct {
        const char *kernel, *sig, *msg;
        int line, col;
    } t[] = {
        {"n2", "float64(float64[:, :])", "full_matrices", 5, 29},
        {"ieig", "float64[:](int64[:, :])", "float and complex", 8, 30},
        {"k", "void(float64[:])", "CUDA kernels cannot", 11, 14},
        {"mp", "float64[:, :](float64[:, :])", "Exponent must be", 14, 38},
    };
    for (size_t i = 0; i < sizeof t / sizeof *t; i++) {
        uf_func *f = uf_module_get(m, t[i].kernel, &err);
        uf_assert_ok(f != NULL, &err);
        char *text = uf_func_inspect(f, t[i].sig, UF_INSPECT_TYPES, &err);
        assert_null(text);
        assert_non_null(strstr(err.file, "nplinalg_bad.py"));
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
        cmocka_unit_test(test_norms),
        cmocka_unit_test(test_cholesky),
        cmocka_unit_test(test_qr),
        cmocka_unit_test(test_matrix_power),
        cmocka_unit_test(test_svd),
        cmocka_unit_test(test_svd_users),
        cmocka_unit_test(test_out_of_memory),
        cmocka_unit_test(test_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
