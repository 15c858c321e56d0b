/* The real SVD without LAPACK: the bidiagonal QR on its own
 * (common/nplinalg_bdsqr.c: the all-ones bidiagonal's known values
 * 2 cos(k pi / (2n + 1)), a graded bidiagonal's smallest values to
 * relative accuracy, checked by the product of the values, which is
 * |det B| = prod |d_i|, and the vectors' residual and orthogonality;
 * the logged rotations of least squares against the accumulated V),
 * the Golub-Kahan driver (common/nplinalg_gk.c) on matrices of
 * prescribed spectrum Q1 diag(sigma) Q2^T (Q1, Q2 random orthogonal:
 * graded, repeated, rank-deficient spectra; the values to n eps |a|, U
 * and V orthonormal, U S V^T = a, to n eps |a| too; the least-squares
 * form's solutions by the normal equations), and
 * np.linalg.svd's entry: tall, wide, full_matrices, float32, 1 x n, n
 * x 1, the statuses (empty, inf or NaN). */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/nplinalg.h"
#include "test_util.h"

#define EPS 2.220446049250313e-16

static unsigned seed = 2718;
static double next_unit(void)
{
    seed = seed * 1103515245u + 12345u;
    return (double)(seed >> 8) / (double)(1u << 24) * 2.0 - 1.0;
}

/* max |U^T U - I| over the ncol columns of u (nr rows, column-major). */
static double orth_err(const double *u, int64_t nr, int64_t ncol)
{
    double e = 0;
    for (int64_t p = 0; p < ncol; p++)
        for (int64_t q = 0; q < ncol; q++) {
            double s = 0;
            for (int64_t i = 0; i < nr; i++)
                s += u[p * nr + i] * u[q * nr + i];
            e = fmax(e, fabs(s - (p == q)));
        }
    return e;
}

/* max |a - U S V^T| (a: M * N column-major; U's first N columns). */
static double recon_err(const double *a, int64_t M, int64_t N,
                        const double *u, const double *s, const double *v)
{
    double e = 0;
    for (int64_t i = 0; i < M; i++)
        for (int64_t j = 0; j < N; j++) {
            double t = 0;
            for (int64_t k = 0; k < N; k++)
                t += u[k * M + i] * s[k] * v[k * N + j];
            e = fmax(e, fabs(t - a[j * M + i]));
        }
    return e;
}

/* The bidiagonal (d, e) through uf__nplinalg_bdsqr with U = V = I:
 * descending, >= 0, B = U S V^T and U, V orthonormal to tol n eps |B|;
 * s gets the values. */
static void check_bidiagonal(const double *d, const double *e, int64_t n,
                             double tol, double *s)
{
    double *dd = malloc((size_t)n * sizeof *dd);
    double *ee = malloc((size_t)n * sizeof *ee);
    double *u = calloc((size_t)(n * n), sizeof *u);
    double *v = calloc((size_t)(n * n), sizeof *v);
    double *b = calloc((size_t)(n * n), sizeof *b);
    double *w = malloc((size_t)(UF__NPLINALG_BDSQR_WORK * n) * sizeof *w);
    assert_true(dd && ee && u && v && b && w);
    memcpy(dd, d, (size_t)n * sizeof *dd);
    memcpy(ee, e, (size_t)(n - 1) * sizeof *ee);
    double big = 0;
    for (int64_t i = 0; i < n; i++) {
        u[i * n + i] = v[i * n + i] = 1;
        b[i * n + i] = d[i];
        if (i + 1 < n)
            b[(i + 1) * n + i] = e[i];
        big = fmax(big, fmax(fabs(d[i]), i + 1 < n ? fabs(e[i]) : 0));
    }
    assert_true(uf__nplinalg_bdsqr(n, dd, ee, u, n, n, v, n, n, w));
    for (int64_t k = 0; k < n; k++) {
        assert_true(dd[k] >= 0);
        if (k > 0)
            assert_true(dd[k] <= dd[k - 1]);
    }
    assert_true(recon_err(b, n, n, u, dd, v) <= tol * (double)n * EPS * big);
    assert_true(orth_err(u, n, n) <= tol * (double)n * EPS);
    assert_true(orth_err(v, n, n) <= tol * (double)n * EPS);
    /* the values alone: the same ones (the vectors only follow) */
    double *d2 = malloc((size_t)n * sizeof *d2);
    assert_non_null(d2);
    memcpy(d2, d, (size_t)n * sizeof *d2);
    memcpy(ee, e, (size_t)(n - 1) * sizeof *ee);
    assert_true(uf__nplinalg_bdsqr(n, d2, ee, NULL, 0, 1, NULL, 0, 1, w));
    for (int64_t k = 0; k < n; k++)
        assert_true(fabs(d2[k] - dd[k]) <= tol * (double)n * EPS * dd[0]);
    memcpy(s, dd, (size_t)n * sizeof *s);
    free(d2);
    free(dd);
    free(ee);
    free(u);
    free(v);
    free(b);
    free(w);
}

static void test_ones(void **state)
{
    (void)state;
    for (int64_t n = 1; n <= 60; n += 7) {
        double d[64], e[64], s[64];
        for (int64_t i = 0; i < n; i++)
            d[i] = e[i] = 1;
        check_bidiagonal(d, e, n, 4, s);
        for (int64_t k = 1; k <= n; k++) {
            double want = 2 * cos((double)k * M_PI / (double)(2 * n + 1));
            assert_true(fabs(s[k - 1] - want) <= 4 * (double)n * EPS);
        }
    }
}

/* d_i, e_i falling by 10^-2 a step: values down to 1e-60 (far below eps
 * |B|), each to high relative accuracy (dbdsqr's promise): the sum of
 * their logarithms is log |det B| to a few n eps. */
static void test_graded(void **state)
{
    (void)state;
    enum { N = 30 };
    double d[N], e[N], s[N];
    for (int i = 0; i < N; i++) {
        d[i] = pow(10.0, -2.0 * i) * (1 + 0.5 * next_unit());
        e[i] = pow(10.0, -2.0 * i - 1) * next_unit();
    }
    check_bidiagonal(d, e, N, 4, s);
    double logdet = 0, logs = 0;
    for (int i = 0; i < N; i++) {
        logdet += log(fabs(d[i]));
        logs += log(s[i]);
    }
    assert_true(fabs(logs - logdet) <= 8 * N * EPS * fabs(logdet) + 1e-12);
    assert_true(s[N - 1] < 1e-55 && s[N - 1] > 0);
}

/* Random bidiagonals, some entries 0 (splits), some tiny. */
static void test_random_bidiagonal(void **state)
{
    (void)state;
    for (int64_t n = 2; n <= 70; n += 4) {
        double d[70], e[70], s[70];
        for (int64_t i = 0; i < n; i++) {
            d[i] = next_unit();
            e[i] = next_unit();
            if (i % 7 == 3)
                e[i] = 0;
            if (i % 11 == 5)
                d[i] = 0;
            if (i % 13 == 6)
                e[i] *= 1e-20;
        }
        check_bidiagonal(d, e, n, 8, s);
    }
}

/* The logged right rotations (lstsq's): V_b y by the log is V_b y by
 * the accumulated V, and the values are the same bits. */
static void test_logged(void **state)
{
    (void)state;
    for (int64_t n = 1; n <= 50; n += 7) {
        double d[50], e[50], d2[50], e2[50], y[50], z[50];
        double *v = calloc((size_t)(n * n), sizeof *v);
        double *w = malloc((size_t)(UF__NPLINALG_BDSQR_WORK * n) * sizeof *w);
        assert_true(v && w);
        for (int64_t i = 0; i < n; i++) {
            d[i] = d2[i] = next_unit();
            e[i] = e2[i] = i % 9 == 4 ? 0 : next_unit();
            y[i] = next_unit();
            v[i * n + i] = 1;
        }
        assert_true(uf__nplinalg_bdsqr(n, d, e, NULL, 0, 1, v, n, n, w));
        uf__nplinalg_rotlog lg;
        assert_int_equal(
            uf__nplinalg_bdsqr_logged(n, d2, e2, NULL, 0, 1, &lg, w), 0);
        assert_memory_equal(d, d2, (size_t)n * sizeof *d);
        uf__nplinalg_rotlog_apply(&lg, y, z);
        for (int64_t i = 0; i < n; i++) {
            double t = 0;
            for (int64_t k = 0; k < n; k++)
                t += v[k * n + i] * y[k];
            assert_true(fabs(t - z[i]) <= 8 * (double)n * EPS);
        }
        uf__nplinalg_rotlog_free(&lg);
        free(v);
        free(w);
    }
}

/* uf__nplinalg_gk_solve: the least-squares solution (A^T (A x - b) = 0
 * to rounding) of tall and square a, full rank and one short (the
 * minimum-norm one there: x orthogonal to the null vector). */
static void test_solve(void **state)
{
    (void)state;
    static const int64_t shapes[][2] = {{1, 1}, {6, 6}, {20, 20}, {40, 9},
                                        {9, 2}};
    for (size_t cs = 0; cs < sizeof shapes / sizeof shapes[0]; cs++)
        for (int short_rank = 0; short_rank < 2; short_rank++) {
            int64_t M = shapes[cs][0], N = shapes[cs][1], nrhs = 2;
            if (short_rank && N < 2)
                continue;
            double *a = malloc((size_t)(M * N) * sizeof *a);
            double *x = malloc((size_t)(M * N) * sizeof *x);
            double *b = malloc((size_t)(M * nrhs) * sizeof *b);
            double *c = malloc((size_t)(M * nrhs) * sizeof *c);
            double *s = malloc((size_t)N * sizeof *s);
            double *r = malloc((size_t)M * sizeof *r);
            assert_true(a && x && b && c && s && r);
            for (int64_t i = 0; i < M * N; i++)
                a[i] = next_unit();
            if (short_rank) /* the last column the first's double */
                for (int64_t i = 0; i < M; i++)
                    a[(N - 1) * M + i] = 2 * a[i];
            for (int64_t i = 0; i < M * nrhs; i++)
                b[i] = c[i] = next_unit();
            memcpy(x, a, (size_t)(M * N) * sizeof *x);
            int64_t rank;
            assert_int_equal(uf__nplinalg_gk_solve(x, M, N, s, c, nrhs,
                                                   1e-10, &rank),
                             0);
            assert_int_equal(rank, N - short_rank);
            for (int64_t k = 0; k < nrhs; k++) {
                const double *xk = c + k * M;
                for (int64_t i = 0; i < M; i++) {
                    double t = -b[k * M + i];
                    for (int64_t j = 0; j < N; j++)
                        t += a[j * M + i] * xk[j];
                    r[i] = t;
                }
                for (int64_t j = 0; j < N; j++) {
                    double t = 0;
                    for (int64_t i = 0; i < M; i++)
                        t += a[j * M + i] * r[i];
                    assert_true(fabs(t) <= 1e3 * (double)M * EPS);
                }
                if (short_rank) /* x . (2, 0, .., -1) = 0 */
                    assert_true(fabs(2 * xk[0] - xk[N - 1]) <=
                                1e3 * (double)M * EPS);
            }
            free(a);
            free(x);
            free(b);
            free(c);
            free(s);
            free(r);
        }
}

/* q (n * n, column-major) a random orthogonal matrix: the product of n
 * Householder reflections of random vectors. */
static void random_orthogonal(double *q, int64_t n)
{
    memset(q, 0, (size_t)(n * n) * sizeof *q);
    for (int64_t i = 0; i < n; i++)
        q[i * n + i] = 1;
    double *h = malloc((size_t)n * sizeof *h);
    assert_non_null(h);
    for (int64_t r = 0; r < n; r++) {
        double nn = 0;
        for (int64_t i = 0; i < n; i++) {
            h[i] = next_unit();
            nn += h[i] * h[i];
        }
        for (int64_t j = 0; j < n; j++) { /* column j -= 2 h (h . q_j) / nn */
            double t = 0;
            for (int64_t i = 0; i < n; i++)
                t += h[i] * q[j * n + i];
            t = 2 * t / nn;
            for (int64_t i = 0; i < n; i++)
                q[j * n + i] -= t * h[i];
        }
    }
    free(h);
}

/* a (M * N) = Q1[:, :N] diag(sigma) Q2^T through uf__nplinalg_gk, with
 * and without the vectors: sigma to tol n eps sigma[0], orthonormal U
 * (ucol columns) and V, U S V^T = a, all to tol n eps. */
static void check_spectrum(int64_t M, int64_t N, const double *sigma,
                           bool full, double tol)
{
    int64_t ucol = full ? M : N;
    double *q1 = malloc((size_t)(M * M) * sizeof *q1);
    double *q2 = malloc((size_t)(N * N) * sizeof *q2);
    double *a = malloc((size_t)(M * N) * sizeof *a);
    double *x = malloc((size_t)(M * N) * sizeof *x);
    double *u = malloc((size_t)(M * ucol) * sizeof *u);
    double *v = malloc((size_t)(N * N) * sizeof *v);
    double *s = malloc((size_t)N * sizeof *s);
    double *s2 = malloc((size_t)N * sizeof *s2);
    assert_true(q1 && q2 && a && x && u && v && s && s2);
    random_orthogonal(q1, M);
    random_orthogonal(q2, N);
    for (int64_t i = 0; i < M; i++)
        for (int64_t j = 0; j < N; j++) {
            double t = 0;
            for (int64_t k = 0; k < N; k++)
                t += q1[k * M + i] * sigma[k] * q2[k * N + j];
            a[j * M + i] = t;
        }
    double big = sigma[0], bound = tol * (double)M * EPS;
    memcpy(x, a, (size_t)(M * N) * sizeof *x);
    assert_int_equal(uf__nplinalg_gk(x, M, N, s, u, ucol, v), 0);
    memcpy(x, a, (size_t)(M * N) * sizeof *x);
    assert_int_equal(uf__nplinalg_gk(x, M, N, s2, NULL, 0, NULL), 0);
    for (int64_t k = 0; k < N; k++) {
        assert_true(fabs(s[k] - sigma[k]) <= bound * big);
        assert_true(fabs(s2[k] - sigma[k]) <= bound * big);
    }
    assert_true(orth_err(u, M, ucol) <= bound);
    assert_true(orth_err(v, N, N) <= bound);
    assert_true(recon_err(a, M, N, u, s, v) <= bound * big);
    free(q1);
    free(q2);
    free(a);
    free(x);
    free(u);
    free(v);
    free(s);
    free(s2);
}

static void test_prescribed(void **state)
{
    (void)state;
    static const int64_t shapes[][2] = {{1, 1}, {5, 1}, {8, 8}, {20, 7},
                                        {33, 33}, {40, 12}, {64, 64}};
    double sigma[64];
    for (size_t c = 0; c < sizeof shapes / sizeof shapes[0]; c++) {
        int64_t M = shapes[c][0], N = shapes[c][1];
        for (int kind = 0; kind < 4; kind++) {
            for (int64_t k = 0; k < N; k++)
                switch (kind) {
                case 0: /* graded: 1 .. 1e-12 */
                    sigma[k] = pow(10.0, -12.0 * (double)k /
                                             (double)(N > 1 ? N - 1 : 1));
                    break;
                case 1: /* repeated: 3, 3, .., 1, 1, .. */
                    sigma[k] = k < N / 2 ? 3 : 1;
                    break;
                case 2: /* rank-deficient: the last third 0 */
                    sigma[k] = 3 * k < 2 * N ? (double)(N - k) : 0;
                    break;
                default: /* all equal */
                    sigma[k] = 2;
                }
            check_spectrum(M, N, sigma, false, 8);
            check_spectrum(M, N, sigma, true, 8);
        }
    }
}

/* np.linalg.svd's entry, C order: u s vh = a for tall, wide, full and
 * reduced, float64 and float32 (to float32's eps); the statuses. */
static void check_entry(int64_t m, int64_t n, int32_t dt, int32_t full)
{
    int64_t k = m < n ? m : n, uc = full ? m : k, vr = full ? n : k;
    size_t isz = dt == UF_FLOAT32 ? 4 : 8;
    double *a = malloc((size_t)(m * n) * sizeof *a);
    char *ab = malloc((size_t)(m * n) * isz);
    char *u = malloc((size_t)(m * uc) * isz), *s = malloc((size_t)k * isz);
    char *vh = malloc((size_t)(vr * n) * isz);
    assert_true(a && ab && u && s && vh);
    for (int64_t i = 0; i < m * n; i++) {
        a[i] = next_unit();
        if (dt == UF_FLOAT32) {
            float f = (float)a[i];
            a[i] = f;
            memcpy(ab + i * 4, &f, 4);
        } else {
            memcpy(ab + i * 8, &a[i], 8);
        }
    }
    int64_t sh[2] = {m, n}, st[2] = {n * (int64_t)isz, (int64_t)isz};
    assert_int_equal(uf__np_linalg_svd(ab, sh, st, dt, full, u, s, vh), 0);
#define EL(p, i)                                                            \
    (dt == UF_FLOAT32 ? (double)((float *)(void *)(p))[i]                 \
                      : ((double *)(void *)(p))[i])
    double eps = dt == UF_FLOAT32 ? FLT_EPSILON : EPS;
    double bound = 16 * (double)(m > n ? m : n) * eps;
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++) {
            double t = 0;
            for (int64_t t2 = 0; t2 < k; t2++)
                t += EL(u, i * uc + t2) * EL(s, t2) * EL(vh, t2 * n + j);
            assert_true(fabs(t - a[i * n + j]) <= bound * EL(s, 0));
        }
    for (int64_t p = 0; p < uc; p++) /* u's columns orthonormal */
        for (int64_t q = 0; q < uc; q++) {
            double t = 0;
            for (int64_t i = 0; i < m; i++)
                t += EL(u, i * uc + p) * EL(u, i * uc + q);
            assert_true(fabs(t - (p == q)) <= bound);
        }
    for (int64_t p = 0; p < vr; p++) /* vh's rows */
        for (int64_t q = 0; q < vr; q++) {
            double t = 0;
            for (int64_t j = 0; j < n; j++)
                t += EL(vh, p * n + j) * EL(vh, q * n + j);
            assert_true(fabs(t - (p == q)) <= bound);
        }
    for (int64_t t = 1; t < k; t++)
        assert_true(EL(s, t) <= EL(s, t - 1));
#undef EL
    free(a);
    free(ab);
    free(u);
    free(s);
    free(vh);
}

static void test_entry(void **state)
{
    (void)state;
    static const int64_t shapes[][2] = {{1, 1}, {1, 6}, {6, 1}, {9, 9},
                                        {30, 4}, {4, 30}, {17, 12},
                                        {12, 17}, {50, 50}};
    for (size_t c = 0; c < sizeof shapes / sizeof shapes[0]; c++)
        for (int full = 0; full < 2; full++) {
            check_entry(shapes[c][0], shapes[c][1], UF_FLOAT64, full);
            check_entry(shapes[c][0], shapes[c][1], UF_FLOAT32, full);
        }
}

static void test_statuses(void **state)
{
    (void)state;
    double a[6] = {1, 2, 3, 4, 5, 6}, u[9], s[3], vh[9];
    int64_t sh[2] = {2, 3}, st[2] = {24, 8};
    int64_t e0[2] = {0, 3};
    assert_int_equal(uf__np_linalg_svd((char *)a, e0, st, UF_FLOAT64, 1,
                                       (char *)u, (char *)s, (char *)vh),
                     UF__NPLINALG_EMPTY);
    a[4] = NAN;
    assert_int_equal(uf__np_linalg_svd((char *)a, sh, st, UF_FLOAT64, 1,
                                       (char *)u, (char *)s, (char *)vh),
                     UF__NPLINALG_NONFINITE);
    a[4] = INFINITY;
    assert_int_equal(uf__np_linalg_singular((char *)a, sh, st, UF_FLOAT64,
                                            s),
                     UF__NPLINALG_NONFINITE);
    /* the zero matrix: all values 0, u and vh still orthonormal */
    memset(a, 0, sizeof a);
    assert_int_equal(uf__np_linalg_svd((char *)a, sh, st, UF_FLOAT64, 1,
                                       (char *)u, (char *)s, (char *)vh),
                     0);
    assert_true(s[0] == 0 && s[1] == 0);
    assert_true(fabs(u[0] * u[0] + u[2] * u[2] - 1) < 1e-15);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ones),
        cmocka_unit_test(test_graded),
        cmocka_unit_test(test_random_bidiagonal),
        cmocka_unit_test(test_logged),
        cmocka_unit_test(test_solve),
        cmocka_unit_test(test_prescribed),
        cmocka_unit_test(test_entry),
        cmocka_unit_test(test_statuses),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
