/* The Golub-Kahan SVD of a real float64 matrix (nplinalg.h), as
 * LAPACK's dgesvd: Householder bidiagonalisation x = Q B P^T (dgebd2:
 * a reflector from the left zeroes a column below the diagonal, one
 * from the right a row past the superdiagonal), Q and P formed from
 * their reflectors only when the vectors are asked for (dorgbr, by
 * backward accumulation), then the bidiagonal QR of nplinalg_bdsqr.c,
 * whose rotations turn Q into U and P into V. */
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "common/alloc.h"
#include "common/nplinalg.h"

typedef double v4d __attribute__((vector_size(32)));
#define INLINE static inline __attribute__((always_inline))

/* y += a x over n doubles (four at a time). */
INLINE void axpy(double *restrict y, const double *restrict x, double a,
                 int64_t n)
{
    int64_t i = 0;
    for (; i + 4 <= n; i += 4) {
        v4d xv, yv;
        memcpy(&xv, x + i, sizeof xv);
        memcpy(&yv, y + i, sizeof yv);
        yv += a * xv;
        memcpy(y + i, &yv, sizeof yv);
    }
    for (; i < n; i++)
        y[i] += a * x[i];
}

/* a . b of n doubles, the sums of nplinalg_svd.c's uf__nplinalg_dot
 * (so the same bits), inlined here for the AVX2 copies. */
INLINE double dot(const double *a, const double *b, int64_t n)
{
    v4d s0 = {0}, s1 = {0};
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        v4d a0, b0, a1, b1;
        memcpy(&a0, a + i, sizeof a0);
        memcpy(&b0, b + i, sizeof b0);
        memcpy(&a1, a + i + 4, sizeof a1);
        memcpy(&b1, b + i + 4, sizeof b1);
        s0 += a0 * b0;
        s1 += a1 * b1;
    }
    s0 += s1;
    double s = (s0[0] + s0[1]) + (s0[2] + s0[3]);
    for (; i < n; i++)
        s += a[i] * b[i];
    return s;
}

/* The reflector (v, tau) from the left on the columns [c0, c1) of x
 * (rows r .. r + len): v[0] = 1 implied. */
INLINE void left(double *x, int64_t ld, const double *v, double tau,
                 int64_t r, int64_t len, int64_t c0, int64_t c1)
{
    if (tau == 0)
        return;
    for (int64_t l = c0; l < c1; l++) {
        double *y = x + l * ld + r;
        double dd = tau * (y[0] + dot(v + 1, y + 1, len - 1));
        y[0] -= dd;
        axpy(y + 1, v + 1, -dd, len - 1);
    }
}

/* The reflector (v, tau) (len long, v[0] = 1) from the right on the
 * rows [r0, r1) of the columns c .. c + len of x: x -= tau (x v) v^T, the
 * product x v (w, r1 - r0 doubles) by columns. */
INLINE void right(double *x, int64_t ld, const double *v, double tau,
                  int64_t c, int64_t len, int64_t r0, int64_t r1, double *w)
{
    if (tau == 0 || r1 <= r0)
        return;
    int64_t nr = r1 - r0;
    memcpy(w, x + c * ld + r0, (size_t)nr * sizeof *w);
    for (int64_t j = 1; j < len; j++)
        axpy(w, x + (c + j) * ld + r0, v[j], nr);
    axpy(x + c * ld + r0, w, -tau, nr);
    for (int64_t j = 1; j < len; j++)
        axpy(x + (c + j) * ld + r0, w, -tau * v[j], nr);
}

/* The body of uf__nplinalg_gk, inlined twice (any x86-64, and AVX2: the
 * same operations, so the same bits). */
INLINE void bidiag(double *x, int64_t M, int64_t N, double *d, double *e,
                   double *tauq, double *taup, double *row, double *w)
{
    for (int64_t i = 0; i < N; i++) {
        double *xi = x + i * M + i;
        tauq[i] = uf__nplinalg_house(xi, M - i);
        d[i] = xi[0];
        left(x, M, xi, tauq[i], i, M - i, i + 1, N);
        if (i + 1 >= N)
            continue;
        int64_t len = N - i - 1;
        for (int64_t j = 0; j < len; j++) /* row i past the diagonal */
            row[j] = x[(i + 1 + j) * M + i];
        taup[i] = uf__nplinalg_house(row, len);
        e[i] = row[0];
        row[0] = 1;
        right(x, M, row, taup[i], i + 1, len, i + 1, M, w);
        for (int64_t j = 1; j < len; j++) /* kept for P */
            x[(i + 1 + j) * M + i] = row[j];
    }
}

/* Q (M * ucol) and P (N * N) from the reflectors that bidiag left in x,
 * backward (each reflector on the columns it reaches, no further). */
INLINE void form(const double *x, int64_t M, int64_t N, const double *tauq,
                 const double *taup, double *u, int64_t ucol, double *v,
                 double *row)
{
    if (u != NULL) {
        memset(u, 0, (size_t)(M * ucol) * sizeof *u);
        for (int64_t k = 0; k < ucol; k++)
            u[k * M + k] = 1;
        for (int64_t i = N - 1; i >= 0; i--)
            left(u, M, x + i * M + i, tauq[i], i, M - i, i, ucol);
    }
    memset(v, 0, (size_t)(N * N) * sizeof *v);
    for (int64_t k = 0; k < N; k++)
        v[k * N + k] = 1;
    for (int64_t i = N - 2; i >= 0; i--) {
        int64_t len = N - i - 1;
        row[0] = 1;
        for (int64_t j = 1; j < len; j++)
            row[j] = x[(i + 1 + j) * M + i];
        left(v, N, row, taup[i], i + 1, len, i + 1, N);
    }
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define GK_X86 1
__attribute__((target("avx2"))) static void
bidiag_avx2(double *x, int64_t M, int64_t N, double *d, double *e,
            double *tauq, double *taup, double *row, double *w)
{
    bidiag(x, M, N, d, e, tauq, taup, row, w);
}
__attribute__((target("avx2"))) static void
form_avx2(const double *x, int64_t M, int64_t N, const double *tauq,
          const double *taup, double *u, int64_t ucol, double *v,
          double *row)
{
    form(x, M, N, tauq, taup, u, ucol, v, row);
}
#endif

static void left_any(double *x, int64_t ld, const double *v, double tau,
                     int64_t len, int64_t ncols)
{
    left(x, ld, v, tau, 0, len, 0, ncols);
}

#ifdef GK_X86
__attribute__((target("avx2"))) static void
left_avx2(double *x, int64_t ld, const double *v, double tau, int64_t len,
          int64_t ncols)
{
    left(x, ld, v, tau, 0, len, 0, ncols);
}
#endif

void uf__nplinalg_reflect_cols(double *x, int64_t ld, const double *v,
                               double tau, int64_t len, int64_t ncols)
{
#ifdef GK_X86
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2")) {
        left_avx2(x, ld, v, tau, len, ncols);
        return;
    }
#endif
    left_any(x, ld, v, tau, len, ncols);
}

static void bidiag_any(double *x, int64_t M, int64_t N, double *d,
                       double *e, double *tauq, double *taup, double *row,
                       double *w)
{
    bidiag(x, M, N, d, e, tauq, taup, row, w);
}

static void form_any(const double *x, int64_t M, int64_t N,
                     const double *tauq, const double *taup, double *u,
                     int64_t ucol, double *v, double *row)
{
    form(x, M, N, tauq, taup, u, ucol, v, row);
}

int uf__nplinalg_gk(double *x, int64_t M, int64_t N, double *s, double *u,
                    int64_t ucol, double *v)
{
    if (N == 0)
        return 0;
    /* e (N), tauq (N), taup (N), row (N), w (M), work */
    double *e = uf__malloc(
        (size_t)((4 + UF__NPLINALG_BDSQR_WORK) * N + M), sizeof(double),
        NULL);
    if (e == NULL)
        return UF__NPLINALG_NOMEM;
    double *tauq = e + N, *taup = tauq + N, *row = taup + N, *w = row + N;
    double *work = w + M;
    bool avx2 = false;
#ifdef GK_X86
    __builtin_cpu_init();
    avx2 = __builtin_cpu_supports("avx2");
    if (avx2)
        bidiag_avx2(x, M, N, s, e, tauq, taup, row, w);
#endif
    if (!avx2)
        bidiag_any(x, M, N, s, e, tauq, taup, row, w);
    if (u != NULL) {
#ifdef GK_X86
        if (avx2)
            form_avx2(x, M, N, tauq, taup, u, ucol, v, row);
#endif
        if (!avx2)
            form_any(x, M, N, tauq, taup, u, ucol, v, row);
    }
    bool ok = uf__nplinalg_bdsqr(N, s, e, u, M, M, v, N, N, work);
    uf__free(e);
    return ok ? 0 : UF__NPLINALG_CONVERGE;
}

/* x = Q B P^T: c = Q^T c (the left reflectors), then U_b^T on its first
 * N rows as the rows of c^T (the bidiagonal QR's left rotations), V_b
 * logged; then per column y = S^+ c[0..N), c[0..N) = P V_b y. */
int uf__nplinalg_gk_solve(double *x, int64_t M, int64_t N, double *s,
                          double *c, int64_t nrhs, double cut,
                          int64_t *rank)
{
    *rank = 0;
    if (N == 0)
        return 0;
    /* e (N), tauq (N), taup (N), row (N), w (M), work, ct (nrhs N), y
     * (N) */
    double *e = uf__malloc((size_t)((5 + UF__NPLINALG_BDSQR_WORK) * N + M +
                                    nrhs * N),
                           sizeof(double), NULL);
    if (e == NULL)
        return UF__NPLINALG_NOMEM;
    double *tauq = e + N, *taup = tauq + N, *row = taup + N, *w = row + N;
    double *work = w + M, *ct = work + UF__NPLINALG_BDSQR_WORK * N;
    double *y = ct + nrhs * N;
    bool avx2 = false;
#ifdef GK_X86
    __builtin_cpu_init();
    avx2 = __builtin_cpu_supports("avx2");
    if (avx2)
        bidiag_avx2(x, M, N, s, e, tauq, taup, row, w);
#endif
    if (!avx2)
        bidiag_any(x, M, N, s, e, tauq, taup, row, w);
    for (int64_t i = 0; i < N; i++)
        for (int64_t k = 0; k < nrhs; k++)
            uf__nplinalg_reflect(x + i * M + i, tauq[i], c + k * M + i,
                                 M - i);
    for (int64_t k = 0; k < nrhs; k++)
        for (int64_t i = 0; i < N; i++)
            ct[i * nrhs + k] = c[k * M + i];
    uf__nplinalg_rotlog lg;
    int st = uf__nplinalg_bdsqr_logged(N, s, e, ct, nrhs, nrhs, &lg, work);
    if (st == 0) {
        int64_t r = 0;
        while (r < N && s[r] > cut * s[0])
            r++;
        *rank = r;
        for (int64_t k = 0; k < nrhs; k++) {
            double *ck = c + k * M;
            for (int64_t i = 0; i < N; i++)
                y[i] = i < r ? ct[i * nrhs + k] / s[i] : 0;
            uf__nplinalg_rotlog_apply(&lg, y, ck);
            /* P = G_0 .. G_{N-2}: the last reflector first */
            for (int64_t i = N - 2; i >= 0; i--) {
                int64_t len = N - i - 1;
                row[0] = 1;
                for (int64_t j = 1; j < len; j++)
                    row[j] = x[(i + 1 + j) * M + i];
                uf__nplinalg_reflect(row, taup[i], ck + i + 1, len);
            }
        }
    }
    uf__nplinalg_rotlog_free(&lg);
    uf__free(e);
    return st;
}
