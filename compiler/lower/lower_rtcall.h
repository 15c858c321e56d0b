/* What the lowerings that call the host runtime (common/np*.c) share:
 * LLVM's i64/i32/i8* types and constants, a call of a runtime helper by
 * name, an array operand as the helpers read it (data, ndim, shape,
 * strides, dtype) and a helper's statuses raised as Numba's exceptions
 * (lower_rtcall.c). A call's argument by position or keyword is
 * uf__call_arg (compiler/front/ast_visit.h). */
#ifndef UF_COMPILER_LOWER_RTCALL_H
#define UF_COMPILER_LOWER_RTCALL_H

#include <stddef.h>

#include "compiler/front/ast_visit.h"
#include "compiler/lower/lower.h"

LLVMTypeRef uf__ty_i64(uf__fn *F);
LLVMTypeRef uf__ty_i32(uf__fn *F);
LLVMTypeRef uf__ty_f64(uf__fn *F);
LLVMTypeRef uf__ty_i8p(uf__fn *F);
LLVMValueRef uf__c_i64(uf__fn *F, int64_t v);
LLVMValueRef uf__c_i32(uf__fn *F, int v);

/* ret name(args...) of at most UF__RT_MAX_ARGS arguments, the helper
 * declared once per module by the codegen target (its parameter types
 * are the arguments' types); marks the module as using the runtime. */
#define UF__RT_MAX_ARGS 24
LLVMValueRef uf__emit_rt_call(uf__fn *F, const char *name, LLVMTypeRef ret,
                              LLVMValueRef *args, unsigned n);

/* A stack array of n i64 (at least one) in the entry block, as an i64*;
 * the store of v into element k of an array p of v's type. */
LLVMValueRef uf__emit_i64_slots(uf__fn *F, int n, const char *name);
void uf__emit_put(uf__fn *F, LLVMValueRef p, int k, LLVMValueRef v);

/* The data pointer of array value v as an i8*; pointer p as an elem*. */
LLVMValueRef uf__emit_rt_data(uf__fn *F, LLVMValueRef v);
LLVMValueRef uf__emit_rt_ptr(uf__fn *F, LLVMValueRef p, LLVMTypeRef elem);

/* An array as the runtime reads it. */
typedef struct uf__rt_array {
    LLVMValueRef data, nd, shape, strides, dt; /* i8*, i64, i64*, i64*, i32 */
} uf__rt_array;

/* Array value v of array type t as above (shape and strides copied into
 * stack slots named name). */
void uf__emit_rt_array(uf__fn *F, const uf__type *t, LLVMValueRef v,
                       const char *name, uf__rt_array *o);

/* A helper's status and the exception (UF__JIT_*) it stands for. */
typedef struct uf__rt_status {
    int status, jit;
} uf__rt_status;

/* Raises map[i].jit where st (an i32) is map[i].status. */
void uf__emit_rt_statuses(uf__fn *F, LLVMValueRef st,
                          const uf__rt_status *map, size_t n);

#endif
