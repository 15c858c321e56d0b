/* Generator functions (`yield` inside an njit def) inlined into the loops
 * that consume them (generators.c), between closure lifting and
 * iterbind.c / desugar_for.c. */
#ifndef UF_COMPILER_GENERATORS_H
#define UF_COMPILER_GENERATORS_H

#include "compiler/front/ast.h"

/* `yield v` parses as the expression statement UF__YIELD_NAME(v) (no
 * argument for a bare yield): a name no Python source can spell. */
#define UF__YIELD_NAME "yield$"

/* In every module-level def of m that is not a generator itself:
 *     for T in g(args): body [else: orelse]
 * (also as enumerate(g(...)) or zip(..., g(...), ...)) becomes g's body
 * with its locals renamed, each `yield e` replaced by `T = e; body`, and
 * list(g(...)), sorted(...), min(...), max(...) a loop of appends before
 * the statement; `it = g(args)` used with next(it), and zip() of several
 * generators, become a state machine stepped in place (generators_step.c).
 * Every other use of a generator function (a generator object passed or
 * returned) refuses the def using it;
 * the generator def itself is refused when compiled on its own (no
 * generator object crosses uf_call). Only out of memory fails
 * (UF_ERR_NOMEM). */
int uf__inline_generators(uf__ast_module *m, uf__arena *arena, uf_error *err);

#endif
