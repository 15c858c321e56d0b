/* Shared by lower_arrmeth.c and lower_arrsort.c: the calls of
 * UF__ARRMETH_MAP (builtins.h), typed by infer_arrmeth.c. */
#ifndef UF_COMPILER_LOWER_ARRMETH_H
#define UF_COMPILER_LOWER_ARRMETH_H

#include "compiler/lower/lower.h"

/* The array a call works on (a in a.sort() or np.sort(a)), and the
 * argument `pos` places after it or keyword `name` (NULL when absent). */
const uf__expr *uf__arrmeth_recv(uf__fn *F, const uf__expr *e);
const uf__expr *uf__arrmeth_arg(uf__fn *F, const uf__expr *e, int pos,
                                const char *name);
/* A new array of dtype dt and shape[0..nd), laid out 'C' or 'F', owned by
 * F's frame (uf__lower_new_array); *nitems its element count. */
LLVMValueRef uf__arrmeth_new(uf__fn *F, uf_dtype dt, int nd,
                             LLVMValueRef *shape, char layout,
                             LLVMValueRef *nitems);
/* A new array of type rt holding the elements of src (type st)
 * converted to rt's dtype (1-D rt: src flattened in C order). */
LLVMValueRef uf__arrmeth_copy(uf__fn *F, LLVMValueRef src,
                              const uf__type *st, const uf__type *rt);
/* Calls fn(F, element address, destination address, ud) on every
 * element of src (type st) in C order; the destination (when dp is not
 * NULL) advances by dstep bytes per element. */
void uf__arrmeth_visit(uf__fn *F, LLVMValueRef src, const uf__type *st,
                       LLVMValueRef dp, LLVMValueRef dstep,
                       void (*fn)(uf__fn *, LLVMValueRef, LLVMValueRef,
                                  void *),
                       void *ud);
/* np.sort, a.sort(), np.argsort, np.searchsorted (lower_arrsort.c). */
LLVMValueRef uf__lower_arrsort(uf__fn *F, const uf__expr *e);

#endif
