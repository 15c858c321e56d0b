/* np.nanargmin, np.nanargmax, np.count_nonzero and np.ptp
 * (builtins.h: UF__NPREDUCE_EXTRA_MAP): their parameters, bound the same
 * way by the typer (infer_npextra.c) and the lowering (lower_npextra.c). */
#ifndef UF_COMPILER_INFER_NPEXTRA_H
#define UF_COMPILER_INFER_NPEXTRA_H

#include <stdbool.h>

#include "compiler/front/ast.h"
#include "compiler/types/builtins.h"

static inline bool uf__builtin_is_npextra(uf__builtin b)
{
    return b >= UF__BI_NP_NANARGMIN && b <= UF__BI_NP_PTP;
}

/* The call e of b bound to Numba's parameters (a, axis=None; np.ptp: a
 * only), positional or by keyword: *a the array, *axis NULL when absent.
 * NULL when they bind, else what is wrong (Numba's wording) with *where
 * pointing at it. */
const char *uf__npextra_bind(const uf__expr *e, uf__builtin b,
                             const uf__expr **a, const uf__expr **axis,
                             uf__pos *where);

#endif
