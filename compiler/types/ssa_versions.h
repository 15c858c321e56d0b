/* Giving each definition of a local name its own variable ("x.1", ...)
 * and each join of definitions one more, before type inference, as
 * Numba's SSA reconstruction does (compiler/types/ssa_versions.c). */
#ifndef UF_COMPILER_SSA_VERSIONS_H
#define UF_COMPILER_SSA_VERSIONS_H

#include "compiler/front/ast.h"

/* Renames, in place, the Name nodes of every function of m and adds the
 * joins' assignments (statements marked join_feed). Fails only when out
 * of memory. */
int uf__ssa_versions(uf__ast_module *m, uf__arena *arena, uf_error *err);

#endif
