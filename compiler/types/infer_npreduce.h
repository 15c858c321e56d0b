/* NumPy's whole-array reductions, dot products and the array attributes
 * that need no allocation (builtins.h: UF__NPREDUCE_MAP), typed as Numba
 * types them (numba/np/arraymath.py, linalg.py). The typer
 * (infer_npreduce.c) and the lowering (lower_npreduce.c) ask the same
 * table for the accumulator and the result, so they cannot disagree. */
#ifndef UF_COMPILER_INFER_NPREDUCE_H
#define UF_COMPILER_INFER_NPREDUCE_H

#include <stdbool.h>

#include <ufjit/dtype.h>

#include "compiler/types/builtins.h"

/* The reduction b of an array of dtype `in`: the dtype it accumulates in
 * and the dtype it returns; false when Numba has no such reduction (an
 * unknown builtin). */
bool uf__npreduce_dtypes(uf__builtin b, uf_dtype in, uf_dtype *acc,
                         uf_dtype *res);

/* The i-th function or method of the table with its kind ("function",
 * "method", "attribute") for listings (README); false past the end. */
bool uf__npreduce_listing_at(int i, const char **name, const char **kind);

/* The method `name` of arrays that is one of ours (a.sum -> NP_SUM);
 * UF__BI_NONE otherwise. */
uf__builtin uf__npreduce_method(const char *name);

#endif
