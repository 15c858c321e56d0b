/* The NumPy ufuncs of the kernel language: NumPy's loops of each, the
 * loop NumPy (and Numba) picks for given scalar types, and NumPy's other
 * names for a ufunc. The typer (infer_call.c) and the lowering
 * (lower_npufunc.c) ask the same selection, so they cannot disagree. */
#ifndef UF_COMPILER_INFER_NPUFUNC_H
#define UF_COMPILER_INFER_NPUFUNC_H

#include <stdbool.h>

#include <ufjit/dtype.h>

#include "compiler/types/builtins.h"

/* A ufunc's loops as NumPy lists them (ufunc.types, restricted to the
 * kernel dtypes, in NumPy's order): "ff->f dd->d", type characters as
 * numpy.dtype.char. */
typedef struct uf__ufunc_loops {
    uf__builtin b;
    int nin, nout;
    const char *loops;
} uf__ufunc_loops;

/* The loops of the NumPy ufunc b (UF__NPUFUNC_MAP's and the numpy.*
 * ufuncs before them); NULL for other builtins. */
const uf__ufunc_loops *uf__npufunc_loops(uf__builtin b);

/* The first loop of `loops` every input casts to safely (NumPy's order;
 * with mixed integer and inexact inputs, any integer may go to any float:
 * Numba's ufunc_can_cast). Fills types[0..nin + nout) with the loop's
 * dtypes and gives true; false when none fits. */
bool uf__ufunc_select_loop(const char *loops, int nin, int nout,
                           const uf_dtype *in, uf_dtype *types);

/* "numpy.mod" -> "numpy.remainder": NumPy's other names of a ufunc of the
 * kernel language; NULL for any other name. */
const char *uf__npufunc_alias(const char *qualified_name);
/* The i-th alias and its ufunc's name (for listings); false past the end. */
bool uf__npufunc_alias_at(int i, const char **alias, const char **canonical);

#endif
