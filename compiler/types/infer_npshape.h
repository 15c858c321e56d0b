/* np.repeat / a.repeat, np.resize, np.broadcast_to, np.broadcast_arrays,
 * np.broadcast_shapes and np.trim_zeros (builtins.h: UF__NPSHAPE_MAP):
 * typed by infer_npshape.c, lowered by
 * lower_npshape.c, which bind the call's arguments through the same
 * function, so they cannot disagree. */
#ifndef UF_COMPILER_INFER_NPSHAPE_H
#define UF_COMPILER_INFER_NPSHAPE_H

#include <stdbool.h>

#include "compiler/front/ast.h"
#include "compiler/types/builtins.h"

/* The most arrays np.broadcast_arrays (shapes np.broadcast_shapes) takes
 * in one call. */
#define UF__NPSHAPE_MAXARGS 16

/* The operands of call e of b in NumPy's parameter order into x[] (NULL
 * where absent): the array first (a.repeat's receiver when `method`),
 * then the other parameter; np.broadcast_arrays's and
 * np.broadcast_shapes's arguments as they come.
 * Returns their count, or -1 on more positionals than parameters or a
 * keyword unknown or repeated (*bad: that keyword, else NULL). */
int uf__npshape_bind(const uf__expr *e, uf__builtin b, bool method,
                     const uf__expr **x, const uf__keyword **bad);

/* Which ends np.trim_zeros trims for its `trim` string (NULL for the
 * default 'fb'). */
void uf__npshape_trim_ends(const char *trim, bool *front, bool *back);

#endif
