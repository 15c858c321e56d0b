/* NumPy's whole-array reductions, dot products and the array attributes
 * that need no allocation (builtins.h: UF__NPREDUCE_MAP), typed as Numba
 * types them (numba/np/arraymath.py, linalg.py). The typer
 * (infer_npreduce.c) and the lowering (lower_npreduce.c) ask the same
 * table for the accumulator and the result, so they cannot disagree. */
#ifndef UF_COMPILER_INFER_NPREDUCE_H
#define UF_COMPILER_INFER_NPREDUCE_H

#include <stdbool.h>

#include <ufjit/dtype.h>

#include "compiler/front/ast.h"
#include "compiler/types/builtins.h"

/* The reduction b of an array of dtype `in`: the dtype it accumulates in
 * and the dtype it returns; false when Numba has no such reduction (an
 * unknown builtin). */
bool uf__npreduce_dtypes(uf__builtin b, uf_dtype in, uf_dtype *acc,
                         uf_dtype *res);

/* The i-th function or method of the table with its kind ("function",
 * "method", "attribute") for listings (README); false past the end. */
bool uf__npreduce_listing_at(int i, const char **name, const char **kind);

/* The axis argument of the reduction call e (a.sum(k), np.sum(a, k),
 * axis=k; method: a.sum form) or NULL; *other gets a keyword other than
 * axis (refused), NULL if none. */
const uf__expr *uf__npreduce_axis_arg(const uf__expr *e, bool method,
                                      const uf__keyword **other);

/* What np.sum's axis argument of type t (NULL: absent) asks for
 * (infer_npaxis.c): the whole array (absent, None), one integer axis,
 * a tuple of integers of one dtype, the empty tuple (a copy), or
 * something Numba refuses. */
typedef enum uf__npsum_axes {
    UF__NPSUM_WHOLE,
    UF__NPSUM_ONE,
    UF__NPSUM_TUPLE,
    UF__NPSUM_COPY,
    UF__NPSUM_BAD
} uf__npsum_axes;
struct uf__type;
uf__npsum_axes uf__npsum_axes_of(const struct uf__type *t);

#endif
