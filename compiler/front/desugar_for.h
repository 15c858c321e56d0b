/* for-loops over enumerate() and zip() rewritten into counted loops, and
 * tuple targets of np.ndindex() ... into a name unpacked in the body
 * (desugar_for.c), between parsing and SSA. */
#ifndef UF_COMPILER_DESUGAR_FOR_H
#define UF_COMPILER_DESUGAR_FOR_H

#include "compiler/front/ast.h"

/* Rewrites every `for T in enumerate(...)` / `zip(...)` of m (unless the
 * file binds those names itself); new nodes come from arena and take ids
 * from m->nexprs. Malformed calls or targets: UF_ERR_UNSUPPORTED or
 * UF_ERR_TYPING at file:line:col; out of memory UF_ERR_NOMEM. */
int uf__desugar_for(uf__ast_module *m, uf__arena *arena, uf_error *err);

#endif
