/* The complex Hermitian eigensolver (common/nplinalg_heev.c, behind
 * np.linalg.eigh / eigvalsh of complex64 / complex128 matrices): a known
 * spectrum (the Hermitian tridiagonal Toeplitz matrix), eigenvectors
 * orthonormal to n eps where the eigenvalues are clustered, repeated or
 * all equal (I plus a tiny perturbation, I itself: the old real 2n
 * embedding's were orthogonal only to eps |a| / gap), random Hermitian
 * matrices from 1 to 80 rows in C and Fortran order and complex64, the
 * upper triangle and the diagonal's imaginary parts not read, eigvalsh's
 * values eigh's bit for bit, and the statuses (0 x 0, not square, NaN
 * or inf anywhere). */
#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/nplinalg.h"
#include "test_util.h"

#define EPS 2.220446049250313e-16

static unsigned seed = 4321;
static double next_unit(void)
{
    seed = seed * 1103515245u + 12345u;
    return (double)(seed >> 8) / (double)(1u << 24) * 2.0 - 1.0;
}

/* max |h v - v w| / max |h| and max |v^H v - I| of h Hermitian (n * n, C
 * order, both triangles), v C order. */
static void residuals(const double complex *h, const double *w,
                      const double complex *v, int64_t n, double *res,
                      double *orth)
{
    double big = 1e-300;
    for (int64_t i = 0; i < n * n; i++)
        big = fmax(big, cabs(h[i]));
    *res = *orth = 0;
    for (int64_t k = 0; k < n; k++) {
        for (int64_t i = 0; i < n; i++) {
            double complex s = 0;
            for (int64_t j = 0; j < n; j++)
                s += h[i * n + j] * v[j * n + k];
            *res = fmax(*res, cabs(s - v[i * n + k] * w[k]) / big);
        }
        for (int64_t m = 0; m < n; m++) {
            double complex s = 0;
            for (int64_t i = 0; i < n; i++)
                s += conj(v[i * n + k]) * v[i * n + m];
            *orth = fmax(*orth, cabs(s - (k == m)));
        }
    }
}

/* eigh of the n * n h (C order), checked: w ascending, residual and
 * orthogonality below tol n eps; eigvalsh's w the same bits. */
static void check_eigh(const double complex *h, int64_t n, double tol,
                       double *w)
{
    double complex *v = malloc((size_t)(n * n + 1) * sizeof *v);
    double *w2 = malloc((size_t)(n + 1) * sizeof *w2);
    assert_non_null(v);
    assert_non_null(w2);
    int64_t sh[2] = {n, n}, st[2] = {n * 16, 16};
    assert_int_equal(uf__np_linalg_eigh((const char *)h, sh, st,
                                        UF_COMPLEX128, (char *)w,
                                        (char *)v),
                     0);
    for (int64_t k = 1; k < n; k++)
        assert_true(w[k - 1] <= w[k]);
    double res, orth;
    residuals(h, w, v, n, &res, &orth);
    assert_true(res <= tol * (double)n * EPS);
    assert_true(orth <= tol * (double)n * EPS);
    assert_int_equal(uf__np_linalg_eigh((const char *)h, sh, st,
                                        UF_COMPLEX128, (char *)w2, NULL),
                     0);
    assert_memory_equal(w, w2, (size_t)n * sizeof *w);
    free(v);
    free(w2);
}

/* tridiag(b, 2, conj(b)) with |b| = 1: 2 + 2 cos(k pi / (n + 1)). */
static void test_known_spectrum(void **state)
{
    (void)state;
    enum { N = 12 };
    double complex h[N * N] = {0};
    double complex b = 0.6 + 0.8 * I; /* (I is a float complex) */
    for (int i = 0; i < N; i++) {
        h[i * N + i] = 2;
        if (i + 1 < N) {
            h[(i + 1) * N + i] = b;
            h[i * N + i + 1] = conj(b);
        }
    }
    double w[N];
    check_eigh(h, N, 4, w);
    for (int k = 0; k < N; k++)
        assert_true(fabs(w[k] - (2 + 2 * cos((N - k) * M_PI / (N + 1)))) <
                    4 * N * EPS);
}

/* I + tiny (m + m^H): n eigenvalues within ~n tiny of 1; exact I. */
static void test_clustered(void **state)
{
    (void)state;
    static const double tiny[] = {1e-6, 1e-10, 1e-13, 1e-15, 0};
    static const int64_t sizes[] = {2, 6, 30, 50};
    for (size_t t = 0; t < sizeof tiny / sizeof *tiny; t++)
        for (size_t q = 0; q < sizeof sizes / sizeof *sizes; q++) {
            int64_t n = sizes[q];
            double complex *h = malloc((size_t)(n * n) * sizeof *h);
            double *w = malloc((size_t)n * sizeof *w);
            assert_non_null(h);
            assert_non_null(w);
            for (int64_t i = 0; i < n; i++)
                for (int64_t j = 0; j <= i; j++) {
                    double complex z = next_unit() + I * next_unit();
                    if (i == j)
                        z = 2 * creal(z);
                    h[i * n + j] = (i == j) + tiny[t] * z;
                    h[j * n + i] = conj(h[i * n + j]);
                }
            check_eigh(h, n, 4, w);
            for (int64_t k = 0; k < n; k++)
                assert_true(fabs(w[k] - 1) <= 4 * (double)n * tiny[t] +
                                                   4 * (double)n * EPS);
            free(h);
            free(w);
        }
}

/* Random Hermitian n * n: C order; F order (the transpose: conj(h),
 * the same values); upper triangle and diagonal imaginary parts
 * garbage (not read); complex64 near complex128's. */
static void test_random(void **state)
{
    (void)state;
    static const int64_t sizes[] = {1, 2, 3, 8, 17, 33, 64, 80};
    for (size_t q = 0; q < sizeof sizes / sizeof *sizes; q++) {
        int64_t n = sizes[q];
        size_t nn = (size_t)(n * n);
        double complex *h = malloc(nn * sizeof *h);
        double complex *g = malloc(nn * sizeof *g);
        double complex *v = malloc(nn * sizeof *v);
        float complex *hf = malloc(nn * sizeof *hf);
        double *w = malloc((size_t)n * sizeof *w);
        double *w2 = malloc((size_t)n * sizeof *w2);
        float *wf = malloc((size_t)n * sizeof *wf);
        assert_true(h && g && v && hf && w && w2 && wf);
        for (int64_t i = 0; i < n; i++)
            for (int64_t j = 0; j <= i; j++) {
                double complex z = next_unit() + I * next_unit();
                if (i == j)
                    z = creal(z);
                h[i * n + j] = z;
                h[j * n + i] = conj(z);
            }
        check_eigh(h, n, 4, w);
        memcpy(g, h, nn * sizeof *g);
        for (int64_t i = 0; i < n; i++) {
            g[i * n + i] += 5 * I;
            for (int64_t j = i + 1; j < n; j++)
                g[i * n + j] = 7 - 3 * I;
        }
        int64_t sh[2] = {n, n}, st[2] = {n * 16, 16}, fst[2] = {16, n * 16};
        assert_int_equal(uf__np_linalg_eigh((char *)g, sh, st, UF_COMPLEX128,
                                            (char *)w2, (char *)v),
                         0);
        assert_memory_equal(w, w2, (size_t)n * sizeof *w);
        /* F order reads g's transpose, whose lower triangle is h's upper
         * one: conj(h), the same eigenvalues */
        memcpy(g, h, nn * sizeof *g);
        assert_int_equal(uf__np_linalg_eigh((char *)g, sh, fst,
                                            UF_COMPLEX128, (char *)w2,
                                            (char *)v),
                         0);
        for (int64_t k = 0; k < n; k++)
            assert_true(fabs(w[k] - w2[k]) <= 8 * (double)n * EPS);
        for (size_t i = 0; i < nn; i++)
            hf[i] = (float complex)h[i];
        int64_t ft[2] = {n * 8, 8};
        assert_int_equal(uf__np_linalg_eigh((char *)hf, sh, ft, UF_COMPLEX64,
                                            (char *)wf, (char *)v),
                         0);
        for (int64_t k = 0; k < n; k++)
            assert_true(fabs(wf[k] - w[k]) <= 4e-7 * (double)n);
        free(h);
        free(g);
        free(v);
        free(hf);
        free(w);
        free(w2);
        free(wf);
    }
}

static void test_statuses(void **state)
{
    (void)state;
    double complex h[4] = {1, 2, 2, 1}, v[4];
    double w[2];
    int64_t s0[2] = {0, 0}, s2[2] = {2, 2}, s23[2] = {2, 3}, t[2] = {32, 16};
    assert_int_equal(uf__np_linalg_eigh((char *)h, s0, t, UF_COMPLEX128,
                                        (char *)w, (char *)v),
                     0);
    assert_int_equal(uf__np_linalg_eigh((char *)h, s23, t, UF_COMPLEX128,
                                        (char *)w, (char *)v),
                     UF__NPLINALG_SQUARE);
    h[1] = 2 + NAN * I; /* in the upper triangle: still checked */
    assert_int_equal(uf__np_linalg_eigh((char *)h, s2, t, UF_COMPLEX128,
                                        (char *)w, (char *)v),
                     UF__NPLINALG_NONFINITE);
    h[1] = INFINITY;
    assert_int_equal(uf__np_linalg_eigh((char *)h, s2, t, UF_COMPLEX128,
                                        (char *)w, NULL),
                     UF__NPLINALG_NONFINITE);
    h[1] = 2;
    assert_int_equal(uf__np_linalg_eigh((char *)h, s2, t, UF_COMPLEX128,
                                        (char *)w, (char *)v),
                     0);
    assert_true(fabs(w[0] + 1) < 4 * EPS && fabs(w[1] - 3) < 4 * EPS);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_known_spectrum),
        cmocka_unit_test(test_clustered),
        cmocka_unit_test(test_random),
        cmocka_unit_test(test_statuses),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
