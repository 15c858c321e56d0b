/* Expression ids numbered function by function (see the funcdef's
 * first_id and nids in ast.h). */
#ifndef UF_COMPILER_AST_IDS_H
#define UF_COMPILER_AST_IDS_H

#include "compiler/front/ast.h"

/* Gives the expressions of each top-level def consecutive ids, after
 * every id in use (m->nexprs grows by their number); the module's other
 * expressions keep theirs. Run once the tree is final (after
 * compiler/types/ssa_versions.c). Recursive: within the nesting limits
 * (ast_limits.h). */
void uf__ast_number_functions(uf__ast_module *m);

#endif
