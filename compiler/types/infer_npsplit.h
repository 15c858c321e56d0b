/* np.split, np.array_split, np.hsplit, np.vsplit, np.dsplit (builtins.h:
 * UF__NPSPLIT_MAP): typed by infer_npsplit.c, lowered by lower_npsplit.c,
 * which bind the call's arguments through the same function. */
#ifndef UF_COMPILER_INFER_NPSPLIT_H
#define UF_COMPILER_INFER_NPSPLIT_H

#include <stdbool.h>
#include <stdint.h>

#include "compiler/front/ast.h"
#include "compiler/front/kmodule.h"
#include "compiler/types/builtins.h"

/* The arguments of call e of b bound to (ary, indices_or_sections, axis)
 * into x[3] (NULL when absent; np.hsplit ... have no axis); -1 on more
 * positionals than parameters or a keyword unknown or repeated (*bad:
 * that keyword, else NULL). */
int uf__npsplit_bind(const uf__expr *e, uf__builtin b, const uf__expr **x,
                     const uf__keyword **bad);

/* An integer known at compile time: a literal, its negation or a module
 * constant, into *v. */
bool uf__npsplit_const_int(const uf__kmodule *km, const uf__expr *x,
                           int64_t *v);

#endif
