/* np.flip, np.fliplr, np.flipud, np.rot90, np.expand_dims, np.swapaxes,
 * np.moveaxis, np.permute_dims, np.transpose(a, axes) / a.transpose(axes),
 * np.atleast_1d/2d/3d, np.ascontiguousarray, np.asfortranarray,
 * np.asarray, np.roll and np.take / a.take (builtins.h: UF__NPVIEW_MAP):
 * typed by infer_npview.c, lowered by lower_npview.c, which bind the
 * call's arguments through the same function, so they cannot disagree. */
#ifndef UF_COMPILER_INFER_NPVIEW_H
#define UF_COMPILER_INFER_NPVIEW_H

#include <stdbool.h>

#include "compiler/front/ast.h"
#include "compiler/types/builtins.h"

/* The most arrays np.atleast_Nd takes in one call. */
#define UF__NPVIEW_MAXARGS 16

/* The operands of call e of b in NumPy's parameter order into x[] (NULL
 * where absent): the array first (a method's receiver when `method`),
 * then the parameters; np.atleast_Nd's arrays and a.transpose(i, j, ...)'s
 * integers as they come. Returns their count, or -1 on more positionals
 * than parameters or a keyword unknown or repeated (*bad: that keyword,
 * else NULL). */
int uf__npview_bind(const uf__expr *e, uf__builtin b, bool method,
                    const uf__expr **x, const uf__keyword **bad);

/* Whether call e of b (np.transpose, a.transpose) passes axes: it is then
 * typed and lowered as UF__BI_NP_TRANSPOSE_AXES. */
bool uf__npview_transpose_has_axes(const uf__expr *e, bool method);

#endif
