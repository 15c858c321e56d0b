/* for-loops over numba.literal_unroll() rewritten into a counted loop with
 * one copy of the body per item (unroll.c), between iterator forwarding
 * (iterbind.c) and desugar_for.c. */
#ifndef UF_COMPILER_UNROLL_H
#define UF_COMPILER_UNROLL_H

#include "compiler/front/ast.h"

/* The most items of a tuple whose length is known only when typing (an
 * argument, a variable) that a loop unrolls: the body is copied this many
 * times. A longer tuple whose items all have one type loops plainly, as
 * Numba does; a longer one with items of several types is refused. */
#define UF__UNROLL_MAX 32

/* In every function of m: `for v in literal_unroll(t)` (literal_unroll
 * imported from numba by name) becomes a loop over the item indices with
 * one copy of the body per item, each typed on its own, and other calls
 * of it (numba.literal_unroll(t) too) become their argument, as Numba
 * treats them. Loops Numba refuses (nesting, a return in the body, a
 * tuple target) are marked refused: typing reports them. New nodes come
 * from arena and take ids from m->nexprs. Out of memory: UF_ERR_NOMEM. */
int uf__unroll_literal(uf__ast_module *m, uf__arena *arena, uf_error *err);

#endif
