/* The host runtime of numpy.polynomial.polynomial's functions inside
 * kernels (compiler/lower/lower_nppoly.c calls them by name): polyadd,
 * polysub, polymul, polydiv, polyval, polyint and polyutils.trimseq, as
 * Numba 0.68 computes them (numba/np/polynomial/polynomial_functions.py).
 * Operands are uf__np_operand (common/npfunc.h): arrays of any layout,
 * numbers and tuples of numbers stored by the generated code as 0-d and
 * 1-D arrays. Results are float64, or complex128 as (re, im) pairs where
 * cplx, C-contiguous, into buffers the generated code allocated at their
 * largest size; the functions return the length left after trimming
 * (trailing zeros removed, at least one element) or a negative status. */
#ifndef UF_COMMON_NPPOLY_H
#define UF_COMMON_NPPOLY_H

#include <stdint.h>

#include "common/npfunc.h"

/* Statuses (the lowering raises the matching exception). */
enum {
    UF__NPPOLY_EMPTY = -1, /* ValueError: Coefficient array is empty */
    UF__NPPOLY_ZERODIV = -2, /* ZeroDivisionError: polydiv by 0 */
    UF__NPPOLY_INDEX = -3, /* IndexError: an empty c (polyval, polyint) */
    UF__NPPOLY_BCAST = -4, /* ValueError: shapes do not broadcast */
    UF__NPPOLY_NOMEM = -5, /* out of memory */
    UF__NPPOLY_DOMAIN = -6, /* np.roots: ValueError, complex roots */
    UF__NPPOLY_NONFINITE = -7, /* np.roots: LinAlgError, inf or NaN */
    UF__NPPOLY_CONVERGE = -8 /* np.roots: the eigensolver failed */
};

/* polyadd (sub 0) / polysub (sub 1): out[0..max(a.size, b.size)) = the
 * series of a and b (as_series: converted, trimmed) padded with zeros
 * and added (subtracted), then trimmed. */
int64_t uf__np_polyaddsub(const uf__np_operand *a, const uf__np_operand *b,
                          int32_t sub, int32_t cplx, double *out);
/* polymul: out[0..a.size + b.size - 1) = np.convolve of the two series
 * (common/npsignal.h, Numba's order of sums), trimmed. */
int64_t uf__np_polymul(const uf__np_operand *a, const uf__np_operand *b,
                       int32_t cplx, double *out);
/* polydiv: quo[0..max(a.size, 1)) and rem[0..max(a.size, 1)): the
 * quotient's length is returned, the remainder's in *nrem. */
int64_t uf__np_polydiv(const uf__np_operand *a, const uf__np_operand *b,
                       int32_t cplx, double *quo, double *rem,
                       int64_t *nrem);
/* polyint(c, m): out (of c's shape with m > 0 more rows) = c integrated
 * m times with zero constants, row j divided by j + 1 as Numba's
 * complex and float divisions do; the rows trimmed where trim (a 1-D c),
 * else all of them. */
int64_t uf__np_polyint(const uf__np_operand *c, int64_t m, int32_t cplx,
                       int32_t trim, double *out);
/* polyval(x, c, tensor): the result's shape into shape[0..nd) (nd its
 * rank: c.nd - 1 + x.nd with tensor, else the larger of the two): 0, or
 * UF__NPPOLY_INDEX for an empty c, UF__NPPOLY_BCAST where c.shape[1:]
 * and x.shape do not broadcast (tensor false). */
int64_t uf__np_polyval_shape(const uf__np_operand *c, const uf__np_operand *x,
                             int32_t tensor, int64_t nd, int64_t *shape);
/* out (of that shape, C order) = Horner's rule as Numba's: y = c[-1] +
 * x * 0, then y = c[i - 1] + y * x down to i = 1. Returns 0. */
int64_t uf__np_polyval(const uf__np_operand *c, const uf__np_operand *x,
                       int32_t tensor, int32_t cplx, int64_t nd,
                       const int64_t *shape, double *out);
/* polyutils.trimseq(seq), seq 1-D: the length of seq[:i + 1], i the last
 * nonzero (0 when all are zero); 0 for an empty seq. */
int64_t uf__np_trimlen(const uf__np_operand *seq);

/* np.roots(p), p 1-D: out (dt, float32 or float64 for real p, p's
 * complex64 / complex128 for complex p, whose roots come from
 * common/nplinalg_ceig.c's complex eigensolver,
 * at most p.size - 1 elements) = the eigenvalues of the companion matrix
 * of p less its leading and trailing zeros (common/nplinalg.h's eig, in
 * dt; its order, not LAPACK's), then one 0 per trailing zero; their
 * count, or DOMAIN where a root is complex (Numba's eigvals
 * ValueError), NONFINITE, CONVERGE, NOMEM. */
int64_t uf__np_roots(const uf__np_operand *p, int32_t dt, char *out);

/* The JIT's names of them: uf__rt_*, which the CUDA targets refuse. */
#define UF__NP_POLYADDSUB "uf__rt_np_polyaddsub"
#define UF__NP_POLYMUL "uf__rt_np_polymul"
#define UF__NP_POLYDIV "uf__rt_np_polydiv"
#define UF__NP_POLYINT "uf__rt_np_polyint"
#define UF__NP_POLYVAL_SHAPE "uf__rt_np_polyval_shape"
#define UF__NP_POLYVAL "uf__rt_np_polyval"
#define UF__NP_TRIMLEN "uf__rt_np_trimlen"
#define UF__NP_ROOTS "uf__rt_np_roots"

#endif
