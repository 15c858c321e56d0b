/* Whole-array expressions (infer_arrexpr.c): what the typer decided, as
 * the lowering (lower_arrexpr.c) asks it. */
#ifndef UF_COMPILER_INFER_ARREXPR_H
#define UF_COMPILER_INFER_ARREXPR_H

#include <stdbool.h>

#include "compiler/types/builtins.h"
#include "compiler/types/infer.h"

/* The NumPy ufunc an operator stands for on arrays (+ is np.add, unary -
 * np.negative, < np.less); UF__BI_NONE for the others (@, not). */
uf__builtin uf__arrexpr_binop_ufunc(int op);
uf__builtin uf__arrexpr_unop_ufunc(int op);
uf__builtin uf__arrexpr_cmp_ufunc(int op);

/* Whether e is an array expression (an operator or a NumPy function with
 * an array result), as opposed to an array value (a name, a view). */
bool uf__is_arrexpr(const uf__typed_func *tf, const uf__expr *e);
/* Whether e is a NumPy ufunc called with its output arrays after the
 * inputs (np.add(x, y, out)): a store into them, whose value they are. */
bool uf__is_ufunc_out(const uf__typed_func *tf, const uf__expr *e);
/* Whether e is `a op v` standing for `a op= v` on an array a held in a
 * variable (compiler/types/ssa_versions.c rewrites a += v so): an update
 * of a in place, whose value is a. */
bool uf__is_inplace_array_op(const uf__typed_func *tf, const uf__expr *e);

#endif
