/* Splitting each function's local names into independent webs (renamed
 * "x.1", "x.2", ...) before type inference, as Numba's SSA versions let
 * a name be rebound to an unrelated type (compiler/rename_webs.c). */
#ifndef UF_COMPILER_RENAME_WEBS_H
#define UF_COMPILER_RENAME_WEBS_H

#include "compiler/ast.h"

/* Renames, in place, the Name nodes of every function of m. Fails only
 * when out of memory. */
int uf__rename_webs(uf__ast_module *m, uf__arena *arena, uf_error *err);

#endif
