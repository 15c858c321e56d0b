/* The host runtime of NumPy functions of their own inside kernels
 * (compiler/lower/lower_npfunc.c calls them by name): np.ediff1d,
 * np.trapezoid. Operands are arrays of any layout, walked in C order, or
 * numbers and tuples the generated code stored into a stack slot as a 0-d
 * or 1-D array. */
#ifndef UF_COMMON_NPFUNC_H
#define UF_COMMON_NPFUNC_H

#include <stdint.h>

/* An operand as the generated code describes it: nd dimensions of
 * shape[] and strides[] (bytes), dtype dt (a uf_dtype). */
typedef struct uf__np_operand {
    const char *data;
    int64_t nd;
    const int64_t *shape;
    const int64_t *strides;
    int32_t dt;
} uf__np_operand;

/* np.ediff1d: out (C order, dtype odt, ary's) = to_begin raveled, then
 * the differences of consecutive elements of ary raveled (in odt:
 * integers wrap), then to_end raveled; begin and end NULL where None.
 * Their dtypes cast safely to odt (np.can_cast), as Numba's typing
 * demands: the values are converted exactly or rounded once. */
void uf__np_ediff1d(const uf__np_operand *ary, const uf__np_operand *end,
                    const uf__np_operand *begin, char *out, int32_t odt);

/* np.trapezoid(y, x, dx): the shape of y_ave = (y[..., 1:] + y[..., :-1])
 * / 2.0 and of d (x's np.diff along the last axis; without x a 0-d dx)
 * broadcast together, less its last axis, into out_shape[0..nd) (nd is
 * that rank: max(y.nd, x.nd) - 1). 0, or -1 when they do not broadcast
 * (Numba's ValueError). */
int uf__np_trapz_shape(const uf__np_operand *y, const uf__np_operand *x,
                       int64_t nd, int64_t *out_shape);
/* out (C order, float64, or complex128 pairs where cplx; of out_shape
 * from uf__np_trapz_shape) = the sums along the last axis of d * y_ave,
 * as Numba computes them: y's neighbours added as Numba's scalars add
 * (bools and integers in 64 bits, wrapping; floats in y's precision),
 * divided by 2.0 in float64 (complex: NumPy's complex
 * division by 2 + 0j), d x's difference in x's dtype (dx = dxr + dxi j
 * without x) converted to the result's, the products in it (complex:
 * (ac - bd, ad + bc)), added one by one from 0. */
void uf__np_trapz(const uf__np_operand *y, const uf__np_operand *x,
                  double dxr, double dxi, int32_t cplx, int64_t nd,
                  const int64_t *out_shape, double *out);

/* The JIT's names of them: uf__rt_*, which the CUDA targets refuse. */
#define UF__NP_EDIFF1D "uf__rt_np_ediff1d"
#define UF__NP_TRAPZ_SHAPE "uf__rt_np_trapz_shape"
#define UF__NP_TRAPZ "uf__rt_np_trapz"

#endif
