/* NumPy's predicates and small functions of numbers or arrays (builtins.h:
 * UF__NPPRED_MAP): typed by infer_nppred.c, lowered by lower_nppred.c and,
 * element by element inside fused array expressions, lower_arrexpr.c;
 * all read the call's arguments through uf__nppred_bind. */
#ifndef UF_COMPILER_INFER_NPPRED_H
#define UF_COMPILER_INFER_NPPRED_H

#include <stdbool.h>

#include "compiler/front/ast.h"
#include "compiler/types/builtins.h"
#include "compiler/types/infer.h"

/* The most parameters of any of them (np.isclose, np.nan_to_num). */
#define UF__NPPRED_MAXARGS 5

/* Function b's parameters in NumPy's order: their count, names[]. */
int uf__nppred_params(uf__builtin b, const char *const **names);

/* The arguments of call e of b bound to its parameters into x[] (NULL
 * when absent); the parameter count, or -1 on more positionals than
 * parameters or a keyword that is unknown or repeated (*bad: that
 * keyword, else NULL). */
int uf__nppred_bind(const uf__expr *e, uf__builtin b, const uf__expr **x,
                    const uf__keyword **bad);

/* Whether call e (typed) is an elementwise function of UF__NPPRED_MAP
 * whose result is a new array computed by the fused array-expression
 * loop: not np.nan_to_num of an integer array, which returns the array
 * itself, as Numba does. */
bool uf__nppred_is_arrexpr(const uf__typed_func *tf, const uf__expr *e);

/* np.isscalar(x) / np.iscomplexobj(x) / np.isrealobj(x) of a value of
 * type t, known at compile time (Numba's type_is_scalar and
 * determine_dtype). */
bool uf__nppred_const(uf__builtin b, const uf__type *t);

#endif
