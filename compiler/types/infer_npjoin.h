/* np.concatenate, np.stack, np.hstack, np.vstack (np.row_stack),
 * np.dstack, np.column_stack and np.append (builtins.h: UF__NPJOIN_MAP):
 * typed by infer_npjoin.c, lowered by lower_npjoin.c, which bind the
 * call's arguments through the same function, so they cannot disagree. */
#ifndef UF_COMPILER_INFER_NPJOIN_H
#define UF_COMPILER_INFER_NPJOIN_H

#include <stdbool.h>
#include <stdint.h>

#include <ufjit/dtype.h>

#include "compiler/front/ast.h"
#include "compiler/types/builtins.h"
#include "compiler/types/types.h"

/* The most dimensions a joined array has (the lowering's arrays). */
#define UF__NPJOIN_MAXND 64 /* UF_MAXDIMS */

/* The arguments of call e of b bound to its parameters in NumPy's order
 * into x[0..3) (NULL when absent): (arrays, axis) for concatenate and
 * stack, (tup) for the others, (arr, values, axis) for append. -1 on
 * more positionals than parameters or a keyword that is unknown or
 * repeated (*bad: that keyword, else NULL). */
int uf__npjoin_bind(const uf__expr *e, uf__builtin b, const uf__expr **x,
                    const uf__keyword **bad);

/* The dtype of Numba's np.asarray(t) for what np.append takes: an
 * array's, a number's, a tuple of numbers' elements unified. */
uf_dtype uf__npjoin_asarray_dtype(const uf__type *t);

/* The shape of Numba's np.array(t) of a number (0-d) or of tuples of
 * numbers nested to one shape: *nd axes into shape[], the leaves' dtypes
 * promoted into *dt; false when t is none of these (ragged, empty). */
bool uf__npjoin_nested(const uf__type *t, int *nd, int64_t *shape,
                       uf_dtype *dt);

#endif
