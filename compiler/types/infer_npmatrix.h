/* NumPy's matrix constructors and diagonals (builtins.h:
 * UF__NPMATRIX_MAP): typed by infer_npmatrix.c, lowered by
 * lower_npmatrix.c, which bind the call's arguments and pick np.multiply's
 * loop through the same functions, so they cannot disagree. */
#ifndef UF_COMPILER_INFER_NPMATRIX_H
#define UF_COMPILER_INFER_NPMATRIX_H

#include <stdbool.h>

#include <ufjit/dtype.h>

#include "compiler/front/ast.h"
#include "compiler/types/builtins.h"

/* The most parameters one of these functions has. */
#define UF__NPMATRIX_MAXARGS 4

/* Function b's parameters in NumPy's order: their count, names[]. */
int uf__npmatrix_params(uf__builtin b, const char *const **names);

/* The arguments of call e of b bound to its parameters into x[] (NULL
 * when absent); -1 on more positionals than parameters or a keyword
 * that is unknown or repeated (*bad: that keyword, else NULL). */
int uf__npmatrix_bind(const uf__expr *e, uf__builtin b, const uf__expr **x,
                      const uf__keyword **bad);

/* np.multiply's loop for dtypes a and b as Numba selects it: the operands
 * converted to *op_a, *op_b, the product *prod. False when none. */
bool uf__npmatrix_mul(uf_dtype a, uf_dtype b, uf_dtype *op_a,
                      uf_dtype *op_b, uf_dtype *prod);

/* np.vander's result dtype for x's: np.promote_types(x, int64). */
uf_dtype uf__npmatrix_vander_dtype(uf_dtype x);

#endif
