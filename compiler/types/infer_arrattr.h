/* Typing of dtypes as values, of the parts of arrays (.real, .imag,
 * .conj()) and of the builtins min/max/sum over an array or a tuple
 * (infer_arrattr.c; builtins.h: UF__ARRATTR_MAP). Hooks for infer_expr.c
 * and infer_call.c. */
#ifndef UF_COMPILER_INFER_ARRATTR_H
#define UF_COMPILER_INFER_ARRATTR_H

#include "compiler/types/infer_internal.h"

/* a.dtype, a.real, a.imag, a.conj, a.conjugate of array type `base`;
 * *handled false (and NULL) for any other attribute. */
const uf__type *uf__infer_arrattr_attr(uf__ictx *C, const uf__expr *e,
                                       const uf__type *base,
                                       uf__expr_info *in, bool *handled);
/* An attribute of a dtype value (`base` of kind UF__T_DTYPE): d.type of
 * a dtype(X) is class(X); the rest are refused at the attribute. */
const uf__type *uf__infer_dtype_attr(uf__ictx *C, const uf__expr *e,
                                     const uf__type *base,
                                     uf__expr_info *in);
/* `a op b` where a or b is a dtype value: Numba has dtype(X) ==
 * dtype(Y) only (a bool known at compile time); the rest are refused. */
const uf__type *uf__infer_dtype_compare(uf__ictx *C, const uf__expr *e,
                                        uf__expr_info *in, int op,
                                        const uf__type *a,
                                        const uf__type *b);
/* A call whose callee is one of UF__ARRATTR_MAP's (np.dtype(...),
 * a.conj(), sum(...)), its arguments not typed yet. */
const uf__type *uf__infer_arrattr_call(uf__ictx *C, const uf__expr *e,
                                       uf__builtin b);
/* min(a) / max(a) (b: UF__BI_MIN / MAX) of an array `a`. */
const uf__type *uf__infer_iter_minmax(uf__ictx *C, const uf__expr *e,
                                      uf__builtin b, const uf__type *a);
/* np.real(a) / np.imag(a) (b: UF__BI_NP_REAL / IMAG) of an array: as
 * a.real / a.imag. */
const uf__type *uf__infer_np_part(uf__ictx *C, const uf__expr *e,
                                  uf__builtin b, const uf__type *a);
#endif
