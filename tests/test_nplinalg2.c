/* The eigenvalue and least-squares runtime behind kernels
 * (common/nplinalg_eig.c, nplinalg_lstsq.c), for what
 * the Numba oracle cannot reach cheaply: eigh's and eig's defining
 * equations on random matrices from 1 to 96 rows, known spectra
 * (triangular, diagonal, repeated, zero), only eigh's lower triangle read,
 * negative and non-contiguous strides, float32, entries near 1e300 and
 * 1e-300, complex eigenvalues as DOMAIN, the statuses (not square, inf /
 * NaN, empty); lstsq against the normal equations, its residuals, the
 * minimum-norm solution of rank-deficient and wide systems, rcond, the
 * QR-reduced paths on tall, wide, rank-deficient and Hilbert matrices,
 * Numba's order of checks; and, through uf_call, out of memory at every
 * allocation of a call reaching the caller as UF_ERR_NOMEM with nothing
 * left behind, and the refusals at FILE:LINE:COL. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "common/nplinalg.h"
#include "common/nrt.h"
#include "test_util.h"

static unsigned seed = 98765;
static double next_unit(void)
{
    seed = seed * 1103515245u + 12345u;
    return (double)(seed >> 8) / (double)(1u << 24) * 2.0 - 1.0;
}

#define N_MAX 96

static void c_layout(int64_t n, int64_t *shape, int64_t *st, int isz)
{
    shape[0] = shape[1] = n;
    st[0] = n * isz;
    st[1] = isz;
}

/* max |s v - v diag(w)| / max(|w|, 1) and max |v^T v - I| of n * n
 * (C order) s, v. */
static void eig_errors(const double *s, const double *v, const double *w,
                       int64_t n, bool orth, double *resid, double *orth_err)
{
    double big = 1, r = 0, o = 0;
    for (int64_t k = 0; k < n; k++)
        big = fmax(big, fabs(w[k]));
    for (int64_t i = 0; i < n; i++)
        for (int64_t k = 0; k < n; k++) {
            double t = -v[i * n + k] * w[k];
            for (int64_t j = 0; j < n; j++)
                t += s[i * n + j] * v[j * n + k];
            r = fmax(r, fabs(t));
        }
    for (int64_t i = 0; orth && i < n; i++)
        for (int64_t k = 0; k < n; k++) {
            double t = i == k ? -1 : 0;
            for (int64_t j = 0; j < n; j++)
                t += v[j * n + i] * v[j * n + k];
            o = fmax(o, fabs(t));
        }
    *resid = r / big;
    *orth_err = o;
}

static void test_eigh_random(void **state)
{
    (void)state;
    static double a[N_MAX * N_MAX], s[N_MAX * N_MAX], v[N_MAX * N_MAX];
    static double w[N_MAX], w2[N_MAX];
    static const int64_t sizes[] = {1, 2, 3, 7, 33, 96};
    for (size_t t = 0; t < sizeof sizes / sizeof *sizes; t++) {
        int64_t n = sizes[t], shape[2], st[2];
        c_layout(n, shape, st, 8);
        for (int64_t i = 0; i < n * n; i++)
            a[i] = next_unit();
        for (int64_t i = 0; i < n; i++) /* a's lower triangle, mirrored */
            for (int64_t j = 0; j < n; j++)
                s[i * n + j] = i >= j ? a[i * n + j] : a[j * n + i];
        assert_int_equal(uf__np_linalg_eigh((char *)a, shape, st,
                                            UF_FLOAT64, (char *)w,
                                            (char *)v), 0);
        double r, o, tol = 20 * (double)n * DBL_EPSILON;
        eig_errors(s, v, w, n, true, &r, &o);
        if (r > tol || o > tol)
            uf_fail_at(__FILE__, __LINE__, "n %lld: residual %g, "
                       "orthonormality %g", (long long)n, r, o);
        for (int64_t k = 1; k < n; k++)
            assert_true(w[k - 1] <= w[k]);
        /* eigvalsh: the same values without vectors; the symmetric s
         * (upper triangle now read nowhere either) the same again */
        assert_int_equal(uf__np_linalg_eigh((char *)s, shape, st,
                                            UF_FLOAT64, (char *)w2, NULL),
                         0);
        for (int64_t k = 0; k < n; k++)
            if (fabs(w2[k] - w[k]) > tol * fmax(fabs(w[n - 1]), 1))
                uf_fail_at(__FILE__, __LINE__, "n %lld: w[%lld] %g vs %g",
                           (long long)n, (long long)k, w2[k], w[k]);
    }
}

/* Known spectra, strides, scaling, float32. */
static void test_eigh_known(void **state)
{
    (void)state;
    int64_t shape[2], st[2];
    double w[4], v[16];
    double two[4] = {2, 99, 1, 2}; /* [[2, 1], [1, 2]]: 1 and 3 */
    c_layout(2, shape, st, 8);
    assert_int_equal(uf__np_linalg_eigh((char *)two, shape, st, UF_FLOAT64,
                                        (char *)w, (char *)v), 0);
    assert_true(fabs(w[0] - 1) < 4e-16 && fabs(w[1] - 3) < 8e-16);
    assert_true(fabs(fabs(v[0]) - sqrt(0.5)) < 1e-15);
    assert_true(fabs(v[0] + v[2]) < 1e-15); /* (1, -1) / sqrt 2 */
    /* a diagonal matrix: its diagonal sorted, vectors unit ones */
    double dg[9] = {3, 0, 0, 0, -1, 0, 0, 0, 2};
    c_layout(3, shape, st, 8);
    assert_int_equal(uf__np_linalg_eigh((char *)dg, shape, st, UF_FLOAT64,
                                        (char *)w, (char *)v), 0);
    assert_true(w[0] == -1 && w[1] == 2 && w[2] == 3);
    assert_true(fabs(v[1 * 3 + 0]) == 1 && fabs(v[2 * 3 + 1]) == 1 &&
                fabs(v[0 * 3 + 2]) == 1);
    /* the transpose read through F strides: its lower triangle is the
     * C matrix's upper one */
    double up[4] = {2, 1, 99, 2};
    int64_t fst[2] = {8, 16};
    c_layout(2, shape, st, 8);
    assert_int_equal(uf__np_linalg_eigh((char *)up, shape, fst, UF_FLOAT64,
                                        (char *)w, (char *)v), 0);
    assert_true(fabs(w[0] - 1) < 4e-16 && fabs(w[1] - 3) < 8e-16);
    /* rows and columns reversed (negative strides): the same spectrum */
    int64_t rst[2] = {-16, -8};
    assert_int_equal(uf__np_linalg_eigh((char *)(up + 3), shape, rst,
                                        UF_FLOAT64, (char *)w, NULL), 0);
    assert_true(fabs(w[0] - 1) < 4e-16 && fabs(w[1] - 3) < 8e-16);
    /* near overflow and underflow: scaled exactly */
    double huge[4] = {2e300, 0, 1e300, 2e300}, tiny[4] = {2e-300, 0, 1e-300,
                                                          2e-300};
    assert_int_equal(uf__np_linalg_eigh((char *)huge, shape, st, UF_FLOAT64,
                                        (char *)w, (char *)v), 0);
    assert_true(fabs(w[1] / 3e300 - 1) < 1e-15 && isfinite(v[0]));
    assert_int_equal(uf__np_linalg_eigh((char *)tiny, shape, st, UF_FLOAT64,
                                        (char *)w, (char *)v), 0);
    assert_true(fabs(w[0] / 1e-300 - 1) < 1e-15 && v[0] != 0);
    /* float32, computed in float64 and rounded once */
    float f[4] = {2, 7, 1, 2}, fw[2], fv[4];
    c_layout(2, shape, st, 4);
    assert_int_equal(uf__np_linalg_eigh((char *)f, shape, st, UF_FLOAT32,
                                        (char *)fw, (char *)fv), 0);
    assert_true(fw[0] == 1.0f && fw[1] == 3.0f);
    assert_true(fabsf(fabsf(fv[0]) - sqrtf(0.5f)) <= FLT_EPSILON);
    /* repeated eigenvalues: orthonormal vectors still */
    double id[16] = {5, 0, 0, 0, 0, 5, 0, 0, 0, 0, 5, 0, 0, 0, 0, 5};
    c_layout(4, shape, st, 8);
    assert_int_equal(uf__np_linalg_eigh((char *)id, shape, st, UF_FLOAT64,
                                        (char *)w, (char *)v), 0);
    double r, o;
    eig_errors(id, v, w, 4, true, &r, &o);
    assert_true(w[0] == 5 && w[3] == 5 && r < 1e-15 && o < 1e-15);
}

static void test_statuses(void **state)
{
    (void)state;
    double m[6] = {1, 2, 3, 4, 5, 6}, w[3], v[9];
    int64_t s23[2] = {2, 3}, t23[2] = {24, 8}, shape[2], st[2];
    assert_int_equal(uf__np_linalg_eigh((char *)m, s23, t23, UF_FLOAT64,
                                        (char *)w, (char *)v),
                     UF__NPLINALG_SQUARE);
    assert_int_equal(uf__np_linalg_eig((char *)m, s23, t23, UF_FLOAT64,
                                       (char *)w, NULL),
                     UF__NPLINALG_SQUARE);
    /* an inf above eigh's triangle still fails (Numba checks all of a);
     * a NaN too */
    double bad[4] = {1, INFINITY, 2, 3};
    c_layout(2, shape, st, 8);
    assert_int_equal(uf__np_linalg_eigh((char *)bad, shape, st, UF_FLOAT64,
                                        (char *)w, (char *)v),
                     UF__NPLINALG_NONFINITE);
    bad[1] = NAN;
    assert_int_equal(uf__np_linalg_eig((char *)bad, shape, st, UF_FLOAT64,
                                       (char *)w, (char *)v),
                     UF__NPLINALG_NONFINITE);
    /* empty: nothing written */
    w[0] = 42;
    c_layout(0, shape, st, 8);
    assert_int_equal(uf__np_linalg_eigh((char *)m, shape, st, UF_FLOAT64,
                                        (char *)w, (char *)v), 0);
    assert_int_equal(uf__np_linalg_eig((char *)m, shape, st, UF_FLOAT64,
                                       (char *)w, (char *)v), 0);
    assert_true(w[0] == 42);
    /* complex eigenvalues: a rotation, a random matrix's pair */
    double rot[4] = {0, -1, 1, 0};
    c_layout(2, shape, st, 8);
    assert_int_equal(uf__np_linalg_eig((char *)rot, shape, st, UF_FLOAT64,
                                       (char *)w, (char *)v),
                     UF__NPLINALG_DOMAIN);
    double cyc[9] = {0, 0, 1, 1, 0, 0, 0, 1, 0}; /* cube roots of 1 */
    c_layout(3, shape, st, 8);
    assert_int_equal(uf__np_linalg_eig((char *)cyc, shape, st, UF_FLOAT64,
                                       (char *)w, NULL),
                     UF__NPLINALG_DOMAIN);
}

/* eig of P D P^-1 (D known, P random, P^-1 by the LU runtime): the
 * defining equation, unit columns, D's values. */
static void test_eig_random(void **state)
{
    (void)state;
    static double p[N_MAX * N_MAX], pi[N_MAX * N_MAX], a[N_MAX * N_MAX];
    static double v[N_MAX * N_MAX], w[N_MAX], ws[N_MAX];
    static const int64_t sizes[] = {1, 2, 3, 6, 17, 40};
    for (size_t t = 0; t < sizeof sizes / sizeof *sizes; t++) {
        int64_t n = sizes[t], shape[2], st[2];
        c_layout(n, shape, st, 8);
        for (int64_t i = 0; i < n * n; i++)
            p[i] = next_unit() + (i % (n + 1) == 0 ? 3 : 0);
        assert_int_equal(uf__np_linalg_inv((char *)p, shape, st, UF_FLOAT64,
                                           (char *)pi), 0);
        for (int64_t i = 0; i < n; i++) /* a = P diag(k - n / 2) P^-1 */
            for (int64_t j = 0; j < n; j++) {
                double x = 0;
                for (int64_t k = 0; k < n; k++)
                    x += p[i * n + k] * ((double)k - (double)n / 2) *
                         pi[k * n + j];
                a[i * n + j] = x;
            }
        assert_int_equal(uf__np_linalg_eig((char *)a, shape, st, UF_FLOAT64,
                                           (char *)w, (char *)v), 0);
        double r, o, tol = 1e3 * (double)n * DBL_EPSILON;
        eig_errors(a, v, w, n, false, &r, &o);
        if (r > tol)
            uf_fail_at(__FILE__, __LINE__, "n %lld: residual %g",
                       (long long)n, r);
        for (int64_t k = 0; k < n; k++) {
            double nn = 0;
            for (int64_t i = 0; i < n; i++)
                nn += v[i * n + k] * v[i * n + k];
            assert_true(fabs(nn - 1) < 1e-14);
        }
        /* eigvals: the same values; sorted, D's */
        assert_int_equal(uf__np_linalg_eig((char *)a, shape, st, UF_FLOAT64,
                                           (char *)ws, NULL), 0);
        for (int64_t k = 0; k < n; k++)
            assert_true(ws[k] == w[k]);
        for (int64_t j = 1; j < n; j++)
            for (int64_t k = j; k > 0 && ws[k - 1] > ws[k]; k--) {
                double x = ws[k];
                ws[k] = ws[k - 1];
                ws[k - 1] = x;
            }
        for (int64_t k = 0; k < n; k++)
            if (fabs(ws[k] - ((double)k - (double)n / 2)) > 1e4 * tol)
                uf_fail_at(__FILE__, __LINE__, "n %lld: eigenvalue %g",
                           (long long)n, ws[k]);
    }
}

static void test_eig_known(void **state)
{
    (void)state;
    int64_t shape[2], st[2];
    double w[3], v[9];
    /* upper triangular: its diagonal; the first vector e0 */
    double tri[9] = {3, 1, 2, 0, -1, 5, 0, 0, 2};
    c_layout(3, shape, st, 8);
    assert_int_equal(uf__np_linalg_eig((char *)tri, shape, st, UF_FLOAT64,
                                       (char *)w, (char *)v), 0);
    assert_true(w[0] == 3 && w[1] == -1 && w[2] == 2);
    assert_true(fabs(v[0]) == 1 && v[3] == 0 && v[6] == 0);
    /* zeros: zeros, unit vectors */
    double z[9] = {0};
    assert_int_equal(uf__np_linalg_eig((char *)z, shape, st, UF_FLOAT64,
                                       (char *)w, (char *)v), 0);
    assert_true(w[0] == 0 && w[1] == 0 && w[2] == 0 && fabs(v[0]) == 1);
    /* the transpose through F strides: lower triangular, same values */
    int64_t fst[2] = {8, 24};
    assert_int_equal(uf__np_linalg_eig((char *)tri, shape, fst, UF_FLOAT64,
                                       (char *)w, (char *)v), 0);
    double sw[3] = {w[0], w[1], w[2]};
    assert_true(fabs(sw[0] + sw[1] + sw[2] - 4) < 1e-14);
    assert_true(fabs(sw[0] * sw[1] * sw[2] + 6) < 1e-13);
    /* scaled near overflow: values scale exactly, vectors finite */
    double huge[4] = {2e300, 1e300, 1e300, 2e300};
    c_layout(2, shape, st, 8);
    assert_int_equal(uf__np_linalg_eig((char *)huge, shape, st, UF_FLOAT64,
                                       (char *)w, (char *)v), 0);
    double lo = fmin(w[0], w[1]), hi = fmax(w[0], w[1]);
    assert_true(fabs(lo / 1e300 - 1) < 1e-15 && fabs(hi / 3e300 - 1) <
                1e-15);
    assert_true(isfinite(v[0]) && fabs(fabs(v[0]) - sqrt(0.5)) < 1e-15);
    /* float32, rows reversed */
    float f[4] = {1, 2, 0, 4}, fw[2], fv[4];
    int64_t rst[2] = {-8, 4};
    assert_int_equal(uf__np_linalg_eig((char *)(f + 2), shape, rst,
                                       UF_FLOAT32, (char *)fw, (char *)fv),
                     0); /* [[0, 4], [1, 2]]: 1 +- sqrt 5 */
    assert_true(fabsf(fminf(fw[0], fw[1]) - (1 - sqrtf(5))) < 4e-7f);
    assert_true(fabsf(fmaxf(fw[0], fw[1]) - (1 + sqrtf(5))) < 4e-7f);
}

/* lstsq of a (m * n) and one right-hand side: x, residuals, rank, s. */
static int ls(const double *a, int64_t m, int64_t n, const double *b,
              double rcond, double *x, double *res, int64_t *nres,
              int32_t *rank, double *s)
{
    int64_t shape[2] = {m, n}, st[2] = {n * 8, 8}, bs[1] = {m}, bt[1] = {8};
    return uf__np_linalg_lstsq((const char *)a, shape, st, (const char *)b,
                               1, bs, bt, UF_FLOAT64, rcond, (char *)x,
                               (char *)res, nres, rank, (char *)s);
}

static void test_lstsq(void **state)
{
    (void)state;
    double x[8], res[2], s[4];
    int64_t nres;
    int32_t rank;
    /* a line through 4 points: y = 1 + 2 t + noise; the normal
     * equations' solution and b - a x's squared norm */
    double a[8] = {1, 0, 1, 1, 1, 2, 1, 3}, b[4] = {1.1, 2.9, 5.2, 6.8};
    assert_int_equal(ls(a, 4, 2, b, -1, x, res, &nres, &rank, s), 0);
    /* (a^T a) x = a^T b: [[4, 6], [6, 14]] x = [16, 33.7] */
    double x1 = (16 * 14 - 6 * 33.7) / (4 * 14 - 36.0);
    double x2 = (4 * 33.7 - 6 * 16) / (4 * 14 - 36.0);
    assert_true(fabs(x[0] - x1) < 1e-14 && fabs(x[1] - x2) < 1e-14);
    assert_true(rank == 2 && nres == 1);
    double rr = 0;
    for (int i = 0; i < 4; i++) {
        double e = b[i] - x[0] - x[1] * i;
        rr += e * e;
    }
    assert_true(fabs(res[0] - rr) < 1e-14);
    assert_true(s[0] >= s[1] && s[1] > 0);
    /* rank-deficient (the second column twice the first): rank 1, no
     * residuals, the minimum-norm solution (x2 = 2 x1) */
    double d[6] = {1, 2, 2, 4, 3, 6}, db[3] = {1, 2, 3};
    assert_int_equal(ls(d, 3, 2, db, -1, x, res, &nres, &rank, s), 0);
    assert_true(rank == 1 && nres == 0);
    assert_true(fabs(x[0] - 0.2) < 1e-15 && fabs(x[1] - 0.4) < 1e-15);
    /* rcond past s[1] / s[0] cuts a full-rank system to rank 1 */
    double g[4] = {1, 0, 0, 1e-3}, gb[2] = {1, 1};
    assert_int_equal(ls(g, 2, 2, gb, 0.01, x, res, &nres, &rank, s), 0);
    assert_true(rank == 1 && x[0] == 1 && x[1] == 0 && nres == 0);
    assert_int_equal(ls(g, 2, 2, gb, -1, x, res, &nres, &rank, s), 0);
    assert_true(rank == 2 && fabs(x[1] - 1e3) < 1e-10);
    /* rcond >= 1 is machine precision (gelsd's rule), not a cut */
    assert_int_equal(ls(g, 2, 2, gb, 2.0, x, res, &nres, &rank, s), 0);
    assert_true(rank == 2);
    /* wide (m < n): the minimum-norm solution x = a^T (a a^T)^-1 b */
    double wd[3] = {1, 2, 2}, wb[1] = {9};
    assert_int_equal(ls(wd, 1, 3, wb, -1, x, res, &nres, &rank, s), 0);
    assert_true(rank == 1 && nres == 0);
    assert_true(fabs(x[0] - 1) < 1e-15 && fabs(x[1] - 2) < 1e-15 &&
                fabs(x[2] - 2) < 1e-15);
    /* a 2-D b read backwards (negative strides), float32 */
    float fa[4] = {2, 0, 0, 4}, fb[4] = {1, 2, 3, 4}, fx[4], fr[2], fs[2];
    int64_t shape[2] = {2, 2}, st[2] = {8, 4};
    int64_t bshape[2] = {2, 2}, bst[2] = {-8, -4};
    assert_int_equal(uf__np_linalg_lstsq((char *)fa, shape, st,
                                         (char *)(fb + 3), 2, bshape, bst,
                                         UF_FLOAT32, -1, (char *)fx,
                                         (char *)fr, &nres, &rank,
                                         (char *)fs), 0);
    /* b = [[4, 3], [2, 1]]; x = [[2, 1.5], [0.5, 0.25]] */
    assert_true(fx[0] == 2 && fx[1] == 1.5f && fx[2] == 0.5f &&
                fx[3] == 0.25f);
    assert_true(fs[0] == 4 && fs[1] == 2 && nres == 0 && rank == 2);
    /* Numba's order: a's inf / NaN, b's, empty, then the sizes */
    double bad[2] = {NAN, 1};
    assert_int_equal(ls(bad, 2, 1, b, -1, x, res, &nres, &rank, s),
                     UF__NPLINALG_NONFINITE);
    double binf[3] = {1, INFINITY, 0};
    int64_t sh[2] = {4, 2}, tt[2] = {16, 8}, bs[1] = {3}, bt[1] = {8};
    assert_int_equal(uf__np_linalg_lstsq((char *)a, sh, tt, (char *)binf,
                                         1, bs, bt, UF_FLOAT64, -1,
                                         (char *)x, (char *)res, &nres,
                                         &rank, (char *)s),
                     UF__NPLINALG_NONFINITE);
    binf[1] = 0;
    assert_int_equal(uf__np_linalg_lstsq((char *)a, sh, tt, (char *)binf,
                                         1, bs, bt, UF_FLOAT64, -1,
                                         (char *)x, (char *)res, &nres,
                                         &rank, (char *)s),
                     UF__NPLINALG_SYSTEM);
    assert_int_equal(ls(a, 0, 2, b, -1, x, res, &nres, &rank, s),
                     UF__NPLINALG_EMPTY);
    int64_t b2[2] = {4, 0}, b2t[2] = {8, 8};
    assert_int_equal(uf__np_linalg_lstsq((char *)a, sh, tt, (char *)b, 2,
                                         b2, b2t, UF_FLOAT64, -1,
                                         (char *)x, (char *)res, &nres,
                                         &rank, (char *)s),
                     UF__NPLINALG_EMPTY);
}

/* x = (g^T g)^-1 g^T y of the m * n g (row-major, full column rank) by
 * Cholesky of the normal equations: the reference for well-conditioned
 * tall systems (n <= 32). */
static void normal_solve(const double *g, int64_t m, int64_t n,
                         const double *y, double *x)
{
    double c[32 * 32], r[32];
    for (int64_t i = 0; i < n; i++) {
        r[i] = 0;
        for (int64_t k = 0; k < m; k++)
            r[i] += g[k * n + i] * y[k];
        for (int64_t j = 0; j < n; j++) {
            c[i * n + j] = 0;
            for (int64_t k = 0; k < m; k++)
                c[i * n + j] += g[k * n + i] * g[k * n + j];
        }
    }
    for (int64_t j = 0; j < n; j++) { /* c = L L^T, in place */
        for (int64_t k = 0; k < j; k++)
            c[j * n + j] -= c[j * n + k] * c[j * n + k];
        c[j * n + j] = sqrt(c[j * n + j]);
        for (int64_t i = j + 1; i < n; i++) {
            for (int64_t k = 0; k < j; k++)
                c[i * n + j] -= c[i * n + k] * c[j * n + k];
            c[i * n + j] /= c[j * n + j];
        }
    }
    for (int64_t i = 0; i < n; i++) { /* L z = r, L^T x = z */
        for (int64_t k = 0; k < i; k++)
            r[i] -= c[i * n + k] * r[k];
        r[i] /= c[i * n + i];
    }
    for (int64_t i = n - 1; i >= 0; i--) {
        for (int64_t k = i + 1; k < n; k++)
            r[i] -= c[k * n + i] * x[k];
        x[i] = r[i] / c[i * n + i];
    }
}

/* z = (g^T g)^-1 w of the len * 2 g (row-major). */
static void gram_solve(const double *g, int64_t len, const double *w,
                       double *z)
{
    double pp[4] = {0, 0, 0, 0};
    for (int64_t k = 0; k < len; k++)
        for (int64_t i = 0; i < 2; i++)
            for (int64_t j = 0; j < 2; j++)
                pp[i * 2 + j] += g[k * 2 + i] * g[k * 2 + j];
    double det = pp[0] * pp[3] - pp[1] * pp[2];
    z[0] = (pp[3] * w[0] - pp[1] * w[1]) / det;
    z[1] = (pp[0] * w[1] - pp[2] * w[0]) / det;
}

static double max_abs_diff(const double *p, const double *q, int64_t n,
                           double *scale)
{
    double d = 0, s = 0;
    for (int64_t i = 0; i < n; i++) {
        d = fmax(d, fabs(p[i] - q[i]));
        s = fmax(s, fabs(q[i]));
    }
    *scale = s;
    return d;
}

/* The QR-reduced paths (m > n: Q^T b, m < n: an LQ) against the normal
 * equations: tall and wide random systems, a tall one of rank 2 (rcond
 * 1e-10: the minimum-norm solution), a wide one of rank 3, Hilbert
 * matrices (cond 1e10: a x - b orthogonal to a's columns, backward
 * stable), float32 and a wide a read backwards. */
static void test_lstsq_reduced(void **state)
{
    (void)state;
    enum { M = 300, N = 20 };
    static double a[M * N], at[N * M], b[M], x[M], xr[M], res[2], s[N];
    static double y[M];
    int64_t nres;
    int32_t rank;
    double sc;
    seed = 4242;
    for (int64_t i = 0; i < M * N; i++)
        a[i] = next_unit();
    for (int64_t i = 0; i < M; i++)
        b[i] = next_unit();
    assert_int_equal(ls(a, M, N, b, -1, x, res, &nres, &rank, s), 0);
    normal_solve(a, M, N, b, xr);
    assert_true(rank == N && nres == 1);
    assert_true(max_abs_diff(x, xr, N, &sc) < 1e-12 * sc);
    double rr = 0; /* residuals: |b - a x|^2 */
    for (int64_t i = 0; i < M; i++) {
        double e = b[i];
        for (int64_t j = 0; j < N; j++)
            e -= a[i * N + j] * x[j];
        rr += e * e;
    }
    assert_true(fabs(res[0] - rr) < 1e-12 * rr);
    for (int64_t t = 1; t < N; t++)
        assert_true(s[t - 1] >= s[t] && s[t] > 0);
    /* wide: at (N * M) = a^T, x = a (a^T a)^-1 b[0..N): the minimum norm */
    for (int64_t i = 0; i < M; i++)
        for (int64_t j = 0; j < N; j++)
            at[j * M + i] = a[i * N + j];
    assert_int_equal(ls(at, N, M, b, -1, x, res, &nres, &rank, s), 0);
    assert_true(rank == N && nres == 0);
    double z[N];
    normal_solve(a, M, N, x, z); /* x in a's range: z = (a^T a)^-1 a^T x */
    for (int64_t i = 0; i < M; i++) {
        xr[i] = 0;
        for (int64_t j = 0; j < N; j++)
            xr[i] += a[i * N + j] * z[j];
    }
    assert_true(max_abs_diff(x, xr, M, &sc) < 1e-12 * sc);
    for (int64_t j = 0; j < N; j++) { /* at x = b */
        double e = -b[j];
        for (int64_t i = 0; i < M; i++)
            e += at[j * M + i] * x[i];
        assert_true(fabs(e) < 1e-12);
    }
    /* rank 2: a = p q (60 * 2, 2 * 6); x = q^T (q q^T)^-1 (p^T p)^-1 p^T b */
    enum { R = 60, C = 6 };
    double p[R * 2], q[2 * C];
    for (int64_t i = 0; i < R * 2; i++)
        p[i] = next_unit();
    for (int64_t i = 0; i < 2 * C; i++)
        q[i] = next_unit();
    for (int64_t i = 0; i < R; i++)
        for (int64_t j = 0; j < C; j++)
            a[i * C + j] = p[i * 2] * q[j] + p[i * 2 + 1] * q[C + j];
    assert_int_equal(ls(a, R, C, b, 1e-10, x, res, &nres, &rank, s), 0);
    assert_true(rank == 2 && nres == 0 && s[2] < 1e-14 * s[0]);
    double w[2], qt[C * 2];
    normal_solve(p, R, 2, b, w);
    for (int64_t i = 0; i < C; i++)
        for (int64_t j = 0; j < 2; j++)
            qt[i * 2 + j] = q[j * C + i];
    gram_solve(qt, C, w, z); /* (q q^T)^-1 w */
    for (int64_t j = 0; j < C; j++)
        xr[j] = q[j] * z[0] + q[C + j] * z[1];
    assert_true(max_abs_diff(x, xr, C, &sc) < 1e-11 * sc);
    /* wide of rank 2 (a^T of that): x = p (p^T p)^-1 (q q^T)^-1 q b */
    for (int64_t i = 0; i < R; i++)
        for (int64_t j = 0; j < C; j++)
            at[j * R + i] = a[i * C + j];
    assert_int_equal(ls(at, C, R, b, 1e-10, x, res, &nres, &rank, s), 0);
    assert_true(rank == 2 && nres == 0);
    normal_solve(qt, C, 2, b, w);
    gram_solve(p, R, w, z); /* (p^T p)^-1 w */
    for (int64_t i = 0; i < R; i++)
        xr[i] = p[i * 2] * z[0] + p[i * 2 + 1] * z[1];
    assert_true(max_abs_diff(x, xr, R, &sc) < 1e-11 * sc);
    /* Hilbert 12 * 8 (tall) and 8 * 12 (wide): cond ~1e10; a^T (a x - b)
     * within eps |a|^2 (|x| + |b|) times a small factor */
    for (int wide = 0; wide < 2; wide++) {
        int64_t m = wide ? 8 : 12, n = wide ? 12 : 8;
        for (int64_t i = 0; i < m; i++)
            for (int64_t j = 0; j < n; j++)
                a[i * n + j] = 1.0 / (double)(i + j + 1);
        assert_int_equal(ls(a, m, n, b, -1, x, res, &nres, &rank, s), 0);
        assert_true(rank == 8 && nres == (wide ? 0 : 1));
        double xn = 0;
        for (int64_t j = 0; j < n; j++)
            xn = fmax(xn, fabs(x[j]));
        for (int64_t i = 0; i < m; i++) {
            y[i] = -b[i];
            for (int64_t j = 0; j < n; j++)
                y[i] += a[i * n + j] * x[j];
        }
        for (int64_t j = 0; j < n; j++) {
            double e = 0;
            for (int64_t i = 0; i < m; i++)
                e += a[i * n + j] * y[i];
            assert_true(fabs(e) < 1e3 * DBL_EPSILON * (xn + 1) * m * n);
        }
    }
    /* float32 tall (computed in float64, rounded) and a wide float64 a
     * read backwards (negative strides) */
    float fa[30 * 4], fb[30], fx[4], fr[1], fs[4];
    for (int64_t i = 0; i < 30 * 4; i++) {
        fa[i] = (float)next_unit();
        a[i] = fa[i];
    }
    for (int64_t i = 0; i < 30; i++) {
        fb[i] = (float)next_unit();
        b[i] = fb[i];
    }
    int64_t fsh[2] = {30, 4}, fst[2] = {16, 4}, fbs[1] = {30}, fbt[1] = {4};
    assert_int_equal(uf__np_linalg_lstsq((char *)fa, fsh, fst, (char *)fb,
                                         1, fbs, fbt, UF_FLOAT32, -1,
                                         (char *)fx, (char *)fr, &nres,
                                         &rank, (char *)fs), 0);
    normal_solve(a, 30, 4, b, xr);
    double xm = fmax(fmax(fabs(xr[0]), fabs(xr[1])),
                     fmax(fabs(xr[2]), fabs(xr[3])));
    for (int64_t j = 0; j < 4; j++)
        assert_true(fabs(fx[j] - xr[j]) <= FLT_EPSILON * xm);
    assert_true(rank == 4 && nres == 1);
    int64_t wsh[2] = {4, 30}, wst[2] = {-8, -32}, bs[1] = {4}, bt[1] = {8};
    /* a[29 - j][3 - i] as the 4 * 30 matrix's (i, j): a^T reversed */
    assert_int_equal(uf__np_linalg_lstsq((char *)(a + 30 * 4 - 1), wsh, wst,
                                         (char *)b, 1, bs, bt, UF_FLOAT64,
                                         -1, (char *)x, (char *)res, &nres,
                                         &rank, (char *)s), 0);
    assert_true(rank == 4 && nres == 0);
    for (int64_t i = 0; i < 4; i++) { /* consistent: a x = b exactly */
        double e = -b[i];
        for (int64_t j = 0; j < 30; j++)
            e += a[(29 - j) * 4 + (3 - i)] * x[j];
        assert_true(fabs(e) < 1e-13);
    }
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
        "    w, v = np.linalg.eigh(a)\n"
        "    x, res, rank, s = np.linalg.lstsq(a, v)\n"
        "    e = np.linalg.eigvalsh(a) + np.linalg.eigvals(a + a.T)\n"
        "    w2, v2 = np.linalg.eig(a + a.T)\n"
        "    return v + x + v2 + (w + e + w2 + s)[0] + rank + res.size\n";
    uf_error err;
    uf_context *ctx = uf_context_new(&err);
    uf_assert_ok(ctx != NULL, &err);
    uf_module *mod = uf_module_from_string(ctx, "nplinalg2.py", src, &err);
    uf_assert_ok(mod != NULL, &err);
    int64_t shape[2] = {9, 9};
    uf_array *x = uf_empty(UF_FLOAT64, 2, shape, UF_ORDER_C, &err);
    uf_assert_ok(x != NULL, &err);
    double *d = uf_array_data(x);
    for (int64_t i = 0; i < 81; i++)
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
        if (err.code != UF_ERR_NOMEM)
            uf_fail_at(__FILE__, __LINE__, "allocation %ld: %s", k,
                       err.message);
        assert_int_equal(uf__nrt_live(), nrt);
        assert_int_equal(uf__alloc_live(), live);
    }
    if (failures < 10)
        uf_fail_at(__FILE__, __LINE__, "only %d allocations failed",
                   failures);
    /* a NaN: LinAlgError, nothing left behind */
    d[40] = NAN;
    out = NULL;
    assert_int_not_equal(uf_call(f, &x, 1, &out, 1, NULL, &err), 0);
    assert_non_null(strstr(err.message, "LinAlgError: Array must not "
                                        "contain infs or NaNs."));
    assert_int_equal(uf__nrt_live(), nrt);
    assert_int_equal(uf__alloc_live(), live);
    /* complex eigenvalues: eig's ValueError, nothing left behind */
    static const char src2[] =
        "from numba import njit\n"
        "import numpy as np\n"
        "@njit\n"
        "def k(a):\n"
        "    return np.linalg.eig(a)[1] + np.linalg.eigh(a)[1]\n";
    uf_module *m2 = uf_module_from_string(ctx, "nplinalg2b.py", src2, &err);
    uf_assert_ok(m2 != NULL, &err);
    f = uf_module_get(m2, "k", &err);
    uf_assert_ok(f != NULL, &err);
    d[40] = 0;
    for (int run = 0; run < 2; run++) { /* the first compiles k */
        assert_int_not_equal(uf_call(f, &x, 1, &out, 1, NULL, &err), 0);
        assert_non_null(strstr(err.message, "ValueError: eig() argument "
                                            "must not cause a domain "
                                            "change."));
        if (run == 0)
            live = uf__alloc_live();
        assert_int_equal(uf__nrt_live(), nrt);
        assert_int_equal(uf__alloc_live(), live);
    }
    uf_module_free(m2);
    uf_array_release(x);
    uf_module_free(mod);
    uf_context_free(ctx);
}

/* What is refused, at FILE:LINE:COL. */
static void test_refused(void **state)
{
    (void)state;
    static const char src[] =
        "import numpy as np\n"
        "from numba import cuda, njit\n"
        "@njit\n"
        "def ieig(a):\n"
        "    return np.linalg.eig(a)\n"
        "@njit\n"
        "def two(a):\n"
        "    return np.linalg.eigvalsh(a, 'L')\n"
        "@njit\n"
        "def mixed(a, b):\n"
        "    return np.linalg.lstsq(a, b)\n"
        "@njit\n"
        "def zerod(a):\n"
        "    return np.linalg.eigvals(a)\n"
        "@cuda.jit\n"
        "def k(out):\n"
        "    out[0] = np.linalg.eigvalsh(out)[0]\n"
        "@njit\n"
        "def rc(a, b):\n"
        "    return np.linalg.lstsq(a, b, 1j)\n";
    uf_error err;
    uf_context *ctx = uf_context_new(&err);
    uf_assert_ok(ctx != NULL, &err);
    uf_module *m = uf_module_from_string(ctx, "nplinalg2_bad.py", src, &err);
    uf_assert_ok(m != NULL, &err);
    static const struct {
        const char *kernel, *sig, *msg;
        int line, col;
    } t[] = {
        {"ieig", "float64(int64[:, :])", "float and complex", 5, 26},
        {"two", "float64(float64[:, :])", "takes 1 positional", 8, 34},
        {"mixed", "float64(float64[:, :], float32[:])", "homogeneous", 11,
         12},
        {"zerod", "float64(float64)", "only supported for array", 14, 30},
        {"k", "void(float64[:, :])", "CUDA kernels cannot", 17, 14},
        {"rc", "float64(float64[:, :], float64[:])", "rcond", 20, 34},
    };
    for (size_t i = 0; i < sizeof t / sizeof *t; i++) {
        uf_func *f = uf_module_get(m, t[i].kernel, &err);
        uf_assert_ok(f != NULL, &err);
        char *text = uf_func_inspect(f, t[i].sig, UF_INSPECT_TYPES, &err);
        assert_null(text);
        assert_non_null(strstr(err.file, "nplinalg2_bad.py"));
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
        cmocka_unit_test(test_eigh_random),
        cmocka_unit_test(test_eigh_known),
        cmocka_unit_test(test_statuses),
        cmocka_unit_test(test_eig_random),
        cmocka_unit_test(test_eig_known),
        cmocka_unit_test(test_lstsq),
        cmocka_unit_test(test_lstsq_reduced),
        cmocka_unit_test(test_out_of_memory),
        cmocka_unit_test(test_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
