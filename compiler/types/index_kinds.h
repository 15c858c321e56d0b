/* What each index of an array subscript is, for the typing
 * (infer_slice.c) and the lowering (compiler/lower/lower_slice.c) of
 * basic slicing. */
#ifndef UF_COMPILER_INDEX_KINDS_H
#define UF_COMPILER_INDEX_KINDS_H

#include <stdbool.h>

#include "compiler/types/infer.h"

typedef enum uf__ix_kind {
    UF__IX_INT,     /* an integer, or a 0-d integer array (Numba takes it
                       as the integer it holds): removes its axis */
    UF__IX_SLICE,   /* lower:upper:step */
    UF__IX_NEWAXIS, /* None or np.newaxis: a new axis of length 1 */
    UF__IX_ELLIPSIS, /* ...: as many full slices as the axes left over */
    UF__IX_ARRAY     /* an integer or boolean array of 1+ dimensions: an
                        advanced index (infer_fancy.c, lower_fancy.c) */
} uf__ix_kind;

/* Whether t is a 0-d array of integers, which Numba's
 * get_array_index_type takes as an integer index. */
bool uf__is_0d_int_index(const uf__type *t);
/* The kind of index `x` in a typed function (newaxis known by its type). */
uf__ix_kind uf__index_kind(const uf__typed_func *tf, const uf__expr *x);
/* Whether subscript `e` has an index other than an integer. */
bool uf__subscript_is_slicing(const uf__typed_func *tf, const uf__expr *e);
/* Whether `x` reads an attribute named newaxis (of numpy, typing checks). */
bool uf__is_newaxis_expr(const uf__expr *x);
/* Whether subscript `e` of an array has an advanced (array) index. */
bool uf__subscript_is_fancy(const uf__typed_func *tf, const uf__expr *e);

#endif
