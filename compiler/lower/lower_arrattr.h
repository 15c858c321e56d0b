/* The lowering of dtype values, array parts (.real, .imag, .conj()) and
 * the builtins min/max/sum over arrays and tuples (lower_arrattr.c),
 * typed by infer_arrattr.c (builtins.h: UF__ARRATTR_MAP). */
#ifndef UF_COMPILER_LOWER_ARRATTR_H
#define UF_COMPILER_LOWER_ARRATTR_H

#include "compiler/lower/lower.h"

/* Whether e's value is a dtype (or a == of two dtypes): known at compile
 * time, lowered by uf__lower_dtype_value without its operands. */
bool uf__lower_is_dtype_value(uf__fn *F, const uf__expr *e);
/* A dtype is an i8 that nothing reads; dtype == dtype a bool constant. A
 * call of a kernel returning a dtype is lowered as any call. */
LLVMValueRef uf__lower_dtype_value(uf__fn *F, const uf__expr *e);
/* A call or attribute whose builtin is one of UF__ARRATTR_MAP's. */
LLVMValueRef uf__lower_arrattr(uf__fn *F, const uf__expr *e);
/* Whether e is one of them that may raise or allocate (lower_fallible.c):
 * a new array (a.conj(), a.imag of real numbers), the StopIteration of
 * min()/max() of an empty array. */
bool uf__arrattr_fallible(const uf__typed_func *tf, const uf__expr *e);

#endif
