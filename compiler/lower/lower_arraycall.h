/* np.array(l) of a list filled by one counted loop, lowered without the
 * list (lower_arraycall.c, Numba's _inline_arraycall). */
#ifndef UF_COMPILER_LOWER_ARRAYCALL_H
#define UF_COMPILER_LOWER_ARRAYCALL_H

#include "compiler/lower/lower.h"

/* Finds the patterns whose `l = []` is a statement of b (lower.c, before
 * lowering b); 0 or UF_ERR_NOMEM. */
int uf__arraycall_scan(uf__fn *F, const uf__block *b);
/* s is a rewritten `l = []`: true once lowered (nothing made). */
bool uf__arraycall_init(uf__fn *F, const uf__stmt *s);
/* Before a rewritten loop of cnt iterations counted in slot k: the array
 * (lower_stmt_loop.c's counted_loop); 0 or the error code. */
int uf__arraycall_open(uf__fn *F, const uf__stmt *loop, LLVMValueRef cnt,
                       LLVMValueRef k);
/* l.append(x) of a rewritten loop: *done set and x stored at the loop's
 * counter (NULL on error); *done false: not rewritten. */
LLVMValueRef uf__arraycall_append(uf__fn *F, const uf__expr *e,
                                  const uf__type *lt, bool *done);
/* np.array(l) of a rewritten l (object is l): the array, else NULL. */
LLVMValueRef uf__arraycall_result(uf__fn *F, const uf__expr *object);
void uf__arraycall_free(uf__fn *F);

#endif
