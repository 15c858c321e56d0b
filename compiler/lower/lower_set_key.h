/* A set's key as common/set.c sees it (lower_set_key.c): bools, integers
 * and floats as one 64-bit word passed by value (narrow keys, probed
 * inline by lower_set.c), complex numbers, tuples of numbers and strings
 * flattened into 8-byte fields passed by address. */
#ifndef UF_COMPILER_LOWER_SET_KEY_H
#define UF_COMPILER_LOWER_SET_KEY_H

#include <stdbool.h>
#include <stdint.h>

#include "compiler/lower/lower.h"

/* Whether keys of type kt are one 64-bit word compared inline. */
bool uf__set_key_narrow(const uf__type *kt);
/* kt's common/set.h kind, its fields and which of them are doubles. */
int32_t uf__set_key_kind(const uf__type *kt, int32_t *nfields,
                         uint64_t *fmask);
/* v (of key type kt) flattened into a new stack buffer: its address as
 * an i8*. */
LLVMValueRef uf__set_key_store(uf__fn *F, LLVMValueRef v, const uf__type *kt);
/* The key of type kt whose fields are at p (an i8*). */
LLVMValueRef uf__set_key_load(uf__fn *F, LLVMValueRef p, const uf__type *kt);

/* v (of type vt) added to set s of type st as its key type; out of
 * memory raises (lower_set.c). 0, or -1 with F->err set. */
int uf__lower_set_add_value(uf__fn *F, LLVMValueRef s, const uf__type *st,
                            LLVMValueRef v, const uf__type *vt);
/* set(x) and s.update(x) of a range() call or of a dict's values() or
 * items() view x (typed xt): its values added to s (lower_set_from.c); 0
 * or F->err's code. */
int uf__lower_set_add_from(uf__fn *F, LLVMValueRef s, const uf__type *st,
                           const uf__expr *x, const uf__type *xt);
/* min(s) / max(s) of a set of tuples or strings (lower_set_from.c): the
 * key of the least (greatest) item, as Numba's loop `if v < m` finds it;
 * an empty set raises Numba's exception. */
LLVMValueRef uf__lower_set_minmax(uf__fn *F, LLVMValueRef s,
                                  const uf__type *st, bool is_max);

#endif
