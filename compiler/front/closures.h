/* Nested defs and `f = lambda ...` inside kernels, lifted to module-level
 * njit functions with their captured variables as extra parameters
 * (closures.c), between parsing and SSA. */
#ifndef UF_COMPILER_CLOSURES_H
#define UF_COMPILER_CLOSURES_H

#include "compiler/front/ast.h"

/* Lifts every def nested in a module-level def of m: each becomes a
 * module-level def named outer.<locals>.f (funcdef.closure_of the
 * module-level def it came from), each call of it passes the captured
 * variables by keyword, and where it was written a `pass` remains. New
 * nodes come from arena and take ids from m->nexprs. A nested def used
 * other than called, recursive, defined twice or decorated:
 * UF_ERR_TYPING / UF_ERR_UNSUPPORTED at file:line:col; out of memory
 * UF_ERR_NOMEM. */
int uf__lift_closures(uf__ast_module *m, uf__arena *arena, uf_error *err);

#endif
