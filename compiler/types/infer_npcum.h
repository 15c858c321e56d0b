/* np.nancumsum, np.nancumprod, np.diff and np.average (builtins.h:
 * UF__NPCUM_MAP): typed by infer_npcum.c, lowered by lower_npcum.c, which
 * read the call's arguments and Numba's dtypes through the same
 * functions, so they cannot disagree. */
#ifndef UF_COMPILER_INFER_NPCUM_H
#define UF_COMPILER_INFER_NPCUM_H

#include <stdbool.h>

#include <ufjit/dtype.h>

#include "compiler/front/ast.h"
#include "compiler/types/builtins.h"
#include "compiler/types/types.h"

/* The most dimensions these functions take (the lowering's arrays). */
#define UF__NPCUM_MAXND 64 /* UF_MAXDIMS */

/* Function b's parameters in NumPy's order: their count, names[]. */
int uf__npcum_params(uf__builtin b, const char *const **names);

/* The arguments of call e of b bound to its parameters into x[] (NULL
 * when absent); -1 on more positionals than parameters or a keyword
 * that is unknown or repeated (*bad: that keyword, else NULL). */
int uf__npcum_bind(const uf__expr *e, uf__builtin b, const uf__expr **x,
                   const uf__keyword **bad);

/* np.average(a, weights=w) of dtypes a and w as Numba computes it:
 * np.multiply's loop (a and w converted to *op_a, *op_w, the product
 * *prod), then np.sum(product) / np.sum(w), a true division in *div_op
 * giving *res. False when np.multiply has no loop for them. */
bool uf__npcum_average_dtypes(uf__typectx *tc, uf_dtype a, uf_dtype w,
                              uf_dtype *op_a, uf_dtype *op_w, uf_dtype *prod,
                              uf_dtype *div_op, uf_dtype *res);

#endif
