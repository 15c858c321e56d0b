/* Iterators kept in a variable and consumed by one for loop, forwarded
 * to the loop (iterbind.c), between closure lifting and desugar_for.c. */
#ifndef UF_COMPILER_ITERBIND_H
#define UF_COMPILER_ITERBIND_H

#include "compiler/front/ast.h"

/* In every function of m: `it = np.ndindex(...)` (np.ndenumerate,
 * np.nditer, enumerate, zip) read only as the iterable of one later for
 * loop becomes that loop's iterable. Other uses mark the function
 * refused (reported when it is typed). Only out of memory fails
 * (UF_ERR_NOMEM). */
int uf__iterbind(uf__ast_module *m, uf__arena *arena, uf_error *err);

#endif
