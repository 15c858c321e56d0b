/* np.linalg inside kernels without LAPACK: the host runtime that
 * compiler/lower/lower_nplinalg.c calls by name. Matrices come as data,
 * shape and strides in bytes (any layout, views too) and are copied
 * before they are factorised; results go to memory the caller owns
 * (C order). Real elements only: float32 (factorised in float32, as
 * LAPACK's s* routines) and float64. Each returns 0 or a status below. */
#ifndef UF_COMMON_NPLINALG_H
#define UF_COMMON_NPLINALG_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>

enum {
    UF__NPLINALG_NOMEM = -1,   /* a scratch copy */
    UF__NPLINALG_SQUARE = 1,   /* LinAlgError: not square */
    UF__NPLINALG_NONFINITE = 2, /* LinAlgError: an inf or NaN */
    UF__NPLINALG_SINGULAR = 3, /* LinAlgError: an exact zero pivot */
    UF__NPLINALG_SYSTEM = 4,   /* LinAlgError: solve's sizes differ */
    UF__NPLINALG_NORM_ORD = 5, /* ValueError: no such matrix norm */
    UF__NPLINALG_NORM_SVD = 6, /* ord 2 / -2 of a matrix: needs an SVD */
    UF__NPLINALG_NOT_PD = 7,   /* LinAlgError: cholesky's pivot <= 0 */
    UF__NPLINALG_EMPTY = 8,    /* LinAlgError: qr of an empty matrix */
    UF__NPLINALG_POWER_SQUARE = 9, /* ValueError: matrix_power, not square */
    UF__NPLINALG_CONVERGE = 10, /* ValueError: the SVD did not converge */
    UF__NPLINALG_DOMAIN = 11   /* ValueError: eig's complex eigenvalues */
};

/* *out = np.linalg.norm(x, ord) of the nd (1 or 2) dimensional x, as
 * Numba computes it: has_ord 0 is ord=None (the 2-norm, or Frobenius,
 * scaled as BLAS nrm2 so that it neither overflows nor underflows);
 * otherwise Numba's loops for ord (inf, -inf, 0, 1, 2, p; matrices inf,
 * -inf, 1, -1), in float64. An empty x gives 0. */
int uf__np_linalg_norm(const char *x, int64_t nd, const int64_t *shape,
                       const int64_t *strides, int32_t dt, int32_t has_ord,
                       double ord, double *out);

/* out[0], out[1] = np.linalg.slogdet(a) of the square matrix a (sign
 * and log|det|) by LU with partial pivoting; (1, 0) when empty, (0,
 * -inf) when singular. A complex a (complex64, complex128; inv, solve
 * and matrix_power take them too) writes three: the complex sign's
 * parts, then log|det| (common/nplinalg_complex.c). */
int uf__np_linalg_slogdet(const char *a, const int64_t *shape,
                          const int64_t *strides, int32_t dt, double *out);

/* out = np.linalg.inv(a): n * n elements of a's dtype, C order. */
int uf__np_linalg_inv(const char *a, const int64_t *shape,
                      const int64_t *strides, int32_t dt, char *out);

/* out = np.linalg.solve(a, b) for b of bnd (1 or 2) dimensions: b's
 * shape, a's dtype (b's too), C order. */
int uf__np_linalg_solve(const char *a, const int64_t *shape,
                        const int64_t *strides, const char *b, int64_t bnd,
                        const int64_t *bshape, const int64_t *bstrides,
                        int32_t dt, char *out);

/* common/nplinalg_fact.c. out = np.linalg.cholesky(a): the lower factor
 * L (L @ L.T == a) of the n * n a's lower triangle (its upper one is not
 * read, as LAPACK potrf's), the upper triangle of out zero; C order, a's
 * dtype. NOT_PD where a pivot is <= 0 (Numba does not check for inf or
 * NaN first: a NaN pivot goes on to NaN, an inf below the diagonal makes
 * a pivot -inf). */
int uf__np_linalg_cholesky(const char *a, const int64_t *shape,
                           const int64_t *strides, int32_t dt, char *out);

/* q (m * k), r (k * n), k = min(m, n) = np.linalg.qr(a) (reduced, as
 * Numba's): Householder reflections with LAPACK geqrf's signs (larfg:
 * r's diagonal is -sign(a_kk) * the column's norm), so q and r are
 * LAPACK's to rounding, not only up to sign. C order, a's dtype. EMPTY
 * when m or n is 0, NONFINITE for an inf or NaN (Numba's order). */
int uf__np_linalg_qr(const char *a, const int64_t *shape,
                     const int64_t *strides, int32_t dt, char *q, char *r);

/* out (a's shape, C order) = np.linalg.matrix_power(a, p) by Numba's
 * sequence of products (repeated squaring; p < 0 through inv): p == 0
 * gives the identity of a's shape before any check (as Numba),
 * POWER_SQUARE a non-square a, inv's statuses for p < 0. */
int uf__np_linalg_matrix_power(const char *a, const int64_t *shape,
                               const int64_t *strides, int32_t dt,
                               int64_t p, char *out);

/* common/nplinalg_svd.c. np.linalg.svd(a, full_matrices) of the m * n
 * a: s[0..k) (k = min(m, n)) the singular values, descending; u (m * m,
 * or m * k when not full) and vh (n * n, or k * n); all of a's dtype, C
 * order. EMPTY, NONFINITE as Numba's checks, CONVERGE where the
 * bidiagonal QR does not converge (LAPACK's info > 0). */
int uf__np_linalg_svd(const char *a, const int64_t *shape,
                      const int64_t *strides, int32_t dt, int32_t full,
                      char *u, char *s, char *vh);

/* s[0..k) = the singular values of a, descending, in float64 (rounded
 * to float32 for a float32 a, as Numba's float32 gesdd's); svd's
 * statuses. */
int uf__np_linalg_singular(const char *a, const int64_t *shape,
                           const int64_t *strides, int32_t dt, double *s);

/* *out = np.linalg.cond(a, p) as Numba computes it: p None (has_p 0), 2
 * or -2 the ratio of the extreme singular values (in a's precision; any
 * shape), else norm(a, p) * norm(inv(a), p) (their statuses); NaN gives
 * inf. */
int uf__np_linalg_cond(const char *a, const int64_t *shape,
                       const int64_t *strides, int32_t dt, int32_t has_p,
                       double p, double *out);

/* *out = np.linalg.matrix_rank(a, tol) of the nd (1 or 2) dimensional a:
 * 1-D 1 where an element is not 0 (Numba's, NumPy's); 2-D the count of
 * singular values above tol (has_tol 0: s[0] * max(m, n) * eps). */
int uf__np_linalg_matrix_rank(const char *a, int64_t nd,
                              const int64_t *shape, const int64_t *strides,
                              int32_t dt, int32_t has_tol, double tol,
                              int64_t *out);

/* out (n * m, a's dtype, C order) = np.linalg.pinv(a, rcond): vh.T
 * diag(1 / s) u.T over the singular values > s[0] * rcond; NONFINITE
 * first, an empty a nothing to write. */
int uf__np_linalg_pinv(const char *a, const int64_t *shape,
                       const int64_t *strides, int32_t dt, double rcond,
                       char *out);

/* a . b of n doubles (nplinalg_svd.c). */
double uf__nplinalg_dot(const double *a, const double *b, int64_t n);

/* Householder reflectors as LAPACK's dlarfg / dlarf (nplinalg_svd.c):
 * house makes H = I - tau v v^T (v[0] = 1) with H x = (beta, 0, ...) of
 * x (n long), x[0] becoming beta and x[1..n) v's tail, and returns tau
 * (0 where x's tail is 0: no reflection); reflect sets y = H y. */
double uf__nplinalg_house(double *x, int64_t n);
void uf__nplinalg_reflect(const double *v, double tau, double *y,
                          int64_t n);
/* reflect on ncols columns at once (nplinalg_gk.c): the columns x +
 * l ld (l < ncols), each len long, vectorised (AVX2 where the CPU has
 * it; the same bits). */
void uf__nplinalg_reflect_cols(double *x, int64_t ld, const double *v,
                               double tau, int64_t len, int64_t ncols);

/* common/nplinalg_bdsqr.c: the SVD B = Ub S Vb^T of the upper
 * bidiagonal B (d: n diagonal entries, e: n - 1 above it) by LAPACK
 * dbdsqr's implicit QR (small singular values to high relative
 * accuracy); d becomes S (descending, >= 0), e is destroyed, and the
 * first n columns of u (nru rows, leading dimension ldu) and of v (nrv
 * rows, ldv) become u Ub and v Vb where not NULL; work:
 * UF__NPLINALG_BDSQR_WORK n doubles; false when it does not converge
 * (dbdsqr's info > 0). */
#define UF__NPLINALG_BDSQR_WORK 4

/* The right-hand rotations of uf__nplinalg_bdsqr logged instead of
 * applied to V (least squares needs V only times a few vectors, at the
 * end: O(n) a rotation instead of O(n) a rotation per row of V): the
 * sequences (rec: 3 a sequence: first column (1-based), columns,
 * forward), their (c, s) pairs (cs), then perm and sign (n each: column
 * i of V_b is sign[perm[i]] times column perm[i] of the product of the
 * rotations). bdsqr_logged: uf__nplinalg_bdsqr with V's side logged into
 * *lg (0, CONVERGE, or NOMEM; rotlog_free frees it whatever it
 * returned); rotlog_apply: z (n) = V_b y (y n, not z). */
typedef struct uf__nplinalg_rotlog {
    int64_t n, nrec, caprec, nrot, caprot;
    int64_t *rec, *perm;
    double *cs, *sign;
} uf__nplinalg_rotlog;
int uf__nplinalg_bdsqr_logged(int64_t n, double *d, double *e, double *u,
                              int64_t nru, int64_t ldu,
                              uf__nplinalg_rotlog *lg, double *work);
void uf__nplinalg_rotlog_apply(const uf__nplinalg_rotlog *lg,
                               const double *y, double *z);
void uf__nplinalg_rotlog_free(uf__nplinalg_rotlog *lg);
bool uf__nplinalg_bdsqr(int64_t n, double *d, double *e, double *u,
                        int64_t nru, int64_t ldu, double *v, int64_t nrv,
                        int64_t ldv, double *work);

/* common/nplinalg_gk.c: x (M * N, M >= N, column-major, destroyed) = U
 * S V^T by Golub-Kahan bidiagonalisation and uf__nplinalg_bdsqr: s (N,
 * descending); when u is not NULL, u (M * ucol, ucol N or M: the extra
 * columns complete U to an orthonormal basis) and v (N * N), both
 * column-major. 0, NOMEM or CONVERGE. */
int uf__nplinalg_gk(double *x, int64_t M, int64_t N, double *s, double *u,
                    int64_t ucol, double *v);

/* The same for least squares (lstsq): s (N) as above, U and V never
 * formed; c (M * nrhs, column-major): the first N rows of each column
 * become T^+ c (T the M * N x; T^+ its pseudo-inverse over the singular
 * values above cut * s[0], *rank of them), the rest U'^T c's (U' = Q [U_b 0; 0
 * I], U completed to M columns: c's part outside T's column space). */
int uf__nplinalg_gk_solve(double *x, int64_t M, int64_t N, double *s,
                          double *c, int64_t nrhs, double cut,
                          int64_t *rank);

/* out = np.linalg.lstsq(a, b, rcond) (common/nplinalg_lstsq.c): x (n,
 * or n * nrhs for a 2-D b), res (nrhs slots, *nres of them written:
 * nrhs where the rank is n < m, else 0), *rank, s (min(m, n)), all of
 * a's dtype (rank int32), C order, as Numba's gelsd: NONFINITE (a, then
 * b), EMPTY, SYSTEM in Numba's order. */
int uf__np_linalg_lstsq(const char *a, const int64_t *shape,
                        const int64_t *strides, const char *b, int64_t bnd,
                        const int64_t *bshape, const int64_t *bstrides,
                        int32_t dt, double rcond, char *x, char *res,
                        int64_t *nres, int32_t *rank, char *s);

/* common/nplinalg_eig.c. w (n, ascending) and, when v is not NULL, v (n
 * * n, column k the unit eigenvector of w[k]) = np.linalg.eigh(a) of
 * a's lower triangle; SQUARE, NONFINITE (the whole of a), CONVERGE;
 * nothing written when n is 0. */
int uf__np_linalg_eigh(const char *a, const int64_t *shape,
                       const int64_t *strides, int32_t dt, char *w, char *v);

/* Implicit QL with Wilkinson shifts (EISPACK tql2) on the symmetric
 * tridiagonal (d, e): d the diagonal, e[1..n) the subdiagonal (e[i]
 * between rows i - 1 and i); d becomes the eigenvalues (unsorted), e
 * scratch, and v's columns (n * n, column-major) are rotated by the
 * same rotations when v is not NULL; false when an eigenvalue takes
 * more than 60 steps (CONVERGE). The real eigh's solver, and the
 * complex one's (common/nplinalg_heev.c). */
bool uf__nplinalg_tql(double *v, int64_t n, double *d, double *e);

/* w (n) and, when v is not NULL, v (n * n, column k the unit
 * eigenvector of w[k]) = np.linalg.eig(a) for a real a with real
 * eigenvalues, in the order of the diagonal of its real Schur form
 * (LAPACK's order is its own Schur form's: not always the same);
 * SQUARE, NONFINITE, DOMAIN where an eigenvalue is complex (Numba's
 * ValueError), CONVERGE. */
int uf__np_linalg_eig(const char *a, const int64_t *shape,
                      const int64_t *strides, int32_t dt, char *w, char *v);

/* The scratch of one LU call (nplinalg.c, nplinalg_complex.c): a, the
 * matrix copy (n * n elements of isz bytes); x, the right-hand sides (n
 * * r; none when r is 0); tmp, the products of the blocked updates
 * (max(n * n, 48 r): blocks of 48 rows); piv, n pivots. take: 0, or
 * NOMEM with nothing held; give frees them. */
typedef struct uf__nplinalg_scratch {
    void *a, *x, *tmp;
    int64_t *piv;
} uf__nplinalg_scratch;
int uf__nplinalg_take(uf__nplinalg_scratch *s, int64_t n, int64_t r,
                      size_t isz);
void uf__nplinalg_give(uf__nplinalg_scratch *s);

/* common/nplinalg_complex.c: slogdet, inv, solve, cholesky and qr of
 * complex64 / complex128 matrices (eigh: nplinalg_heev.c) (the entries above call them for a complex dt),
 * their contracts the real ones'. */
int uf__nplinalg_c_slogdet(const char *a, const int64_t *shape,
                           const int64_t *strides, int32_t dt, double *out);
int uf__nplinalg_c_inv(const char *a, const int64_t *shape,
                       const int64_t *strides, int32_t dt, char *out);
int uf__nplinalg_c_solve(const char *a, const int64_t *shape,
                         const int64_t *strides, const char *b, int64_t bnd,
                         const int64_t *bshape, const int64_t *bstrides,
                         int32_t dt, char *out);
/* cholesky of a complex a (L L^H = a; a_ii's imaginary part not read). */
int uf__nplinalg_c_cholesky(const char *a, const int64_t *shape,
                            const int64_t *strides, int32_t dt, char *out);

/* qr of a complex a: zgeqrf / zungqr's q and r (r's diagonal real). */
int uf__nplinalg_c_qr(const char *a, const int64_t *shape,
                      const int64_t *strides, int32_t dt, char *q, char *r);

/* common/nplinalg_heev.c: eigh / eigvalsh of a complex (Hermitian) a,
 * as zheev (Householder tridiagonalisation, QL, back-transform): w of
 * a's float dtype (ascending), v complex (column k the unit
 * eigenvector of w[k]). */
int uf__nplinalg_c_eigh(const char *a, const int64_t *shape,
                        const int64_t *strides, int32_t dt, char *w,
                        char *v);

/* common/nplinalg_csvd.c: svd (s of the parts' float dtype), the
 * singular values behind cond, matrix_rank and norm's ord 2 / -2, pinv
 * and lstsq (residuals and s of the parts' float dtype) of a complex a,
 * by complex one-sided Jacobi; their contracts the real ones'. */
int uf__nplinalg_c_svd(const char *a, const int64_t *shape,
                       const int64_t *strides, int32_t dt, int32_t full,
                       char *u, char *s, char *vh);
int uf__nplinalg_c_singular(const char *a, const int64_t *shape,
                            const int64_t *strides, int32_t dt, double *s);
int uf__nplinalg_c_pinv(const char *a, const int64_t *shape,
                        const int64_t *strides, int32_t dt, double rcond,
                        char *out);
int uf__nplinalg_c_lstsq(const char *a, const int64_t *shape,
                         const int64_t *strides, const char *b, int64_t bnd,
                         const int64_t *bshape, const int64_t *bstrides,
                         int32_t dt, double rcond, char *x, char *res,
                         int64_t *nres, int32_t *rank, char *s);

/* common/nplinalg_ceig.c: eig / eigvals of a complex a: w and v (column
 * k the unit eigenvector of w[k], its largest component real) complex,
 * in the order of the diagonal of a's complex Schur form; SQUARE,
 * NONFINITE, CONVERGE. */
int uf__nplinalg_c_eig(const char *a, const int64_t *shape,
                       const int64_t *strides, int32_t dt, char *w, char *v);

/* The JIT's names of them: uf__rt_*, which the CUDA targets refuse. */
#define UF__NP_LINALG_NORM "uf__rt_np_linalg_norm"
#define UF__NP_LINALG_SLOGDET "uf__rt_np_linalg_slogdet"
#define UF__NP_LINALG_INV "uf__rt_np_linalg_inv"
#define UF__NP_LINALG_SOLVE "uf__rt_np_linalg_solve"
#define UF__NP_LINALG_CHOLESKY "uf__rt_np_linalg_cholesky"
#define UF__NP_LINALG_QR "uf__rt_np_linalg_qr"
#define UF__NP_LINALG_MATRIX_POWER "uf__rt_np_linalg_matrix_power"
#define UF__NP_LINALG_SVD "uf__rt_np_linalg_svd"
#define UF__NP_LINALG_COND "uf__rt_np_linalg_cond"
#define UF__NP_LINALG_MATRIX_RANK "uf__rt_np_linalg_matrix_rank"
#define UF__NP_LINALG_PINV "uf__rt_np_linalg_pinv"
#define UF__NP_LINALG_LSTSQ "uf__rt_np_linalg_lstsq"
#define UF__NP_LINALG_EIGH "uf__rt_np_linalg_eigh"
#define UF__NP_LINALG_EIG "uf__rt_np_linalg_eig"

#endif
