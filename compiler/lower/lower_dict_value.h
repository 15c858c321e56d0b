/* How dict values sit in an entry (common/dict.h), for lower_dict.c:
 * a number as its dtype's bytes, a tuple field by field as a list's tuple
 * items, an array whole ({data, shape, strides}), a string, a typed list
 * or a dict as its pointer (lower_list_nest.c keeps what it points at
 * alive). */
#ifndef UF_COMPILER_LOWER_DICT_VALUE_H
#define UF_COMPILER_LOWER_DICT_VALUE_H

#include "compiler/lower/lower.h"

/* The bytes of a value of type vt. */
int64_t uf__dict_vsize(const uf__type *vt);
/* The value of type vt at p; stored at p. */
LLVMValueRef uf__dict_vload(uf__fn *F, LLVMValueRef p, const uf__type *vt);
void uf__dict_vstore(uf__fn *F, LLVMValueRef p, const uf__type *vt,
                     LLVMValueRef v);
/* A buffer for one value of dict type dt (d.pop, d.popitem). */
LLVMValueRef uf__dict_value_buf(uf__fn *F, const uf__type *dt);

#endif
