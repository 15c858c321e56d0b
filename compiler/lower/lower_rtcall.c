/* The shared pieces of the runtime-calling lowerings (lower_rtcall.h). */
#include "compiler/lower/lower_rtcall.h"

#define B (F->L->b)

LLVMTypeRef uf__ty_i64(uf__fn *F)
{
    return LLVMInt64TypeInContext(F->L->ctx);
}

LLVMTypeRef uf__ty_i32(uf__fn *F)
{
    return LLVMInt32TypeInContext(F->L->ctx);
}

LLVMTypeRef uf__ty_f64(uf__fn *F)
{
    return LLVMDoubleTypeInContext(F->L->ctx);
}

LLVMTypeRef uf__ty_i8p(uf__fn *F)
{
    return LLVMPointerType(LLVMInt8TypeInContext(F->L->ctx), 0);
}

LLVMValueRef uf__c_i64(uf__fn *F, int64_t v)
{
    return LLVMConstInt(uf__ty_i64(F), (unsigned long long)v, 1);
}

LLVMValueRef uf__c_i32(uf__fn *F, int v)
{
    return LLVMConstInt(uf__ty_i32(F), (unsigned long long)v, 1);
}

LLVMValueRef uf__emit_rt_call(uf__fn *F, const char *name, LLVMTypeRef ret,
                              LLVMValueRef *args, unsigned n)
{
    LLVMTypeRef pt[UF__RT_MAX_ARGS];
    for (unsigned i = 0; i < n; i++)
        pt[i] = LLVMTypeOf(args[i]);
    LLVMTypeRef fty = LLVMFunctionType(ret, pt, n, 0);
    LLVMValueRef fn = F->L->cg->helper(F->L, name, fty);
    F->L->uses_runtime = true;
    return LLVMBuildCall2(B, fty, fn, args, n, "");
}

LLVMValueRef uf__emit_i64_slots(uf__fn *F, int n, const char *name)
{
    LLVMValueRef s = uf__fn_alloca(
        F, LLVMArrayType(uf__ty_i64(F), (unsigned)(n > 0 ? n : 1)), name);
    return LLVMBuildPointerCast(B, s, LLVMPointerType(uf__ty_i64(F), 0), "");
}

void uf__emit_put(uf__fn *F, LLVMValueRef p, int k, LLVMValueRef v)
{
    LLVMValueRef ix = uf__c_i64(F, k);
    LLVMBuildStore(B, v, LLVMBuildGEP2(B, LLVMTypeOf(v), p, &ix, 1, ""));
}

LLVMValueRef uf__emit_rt_data(uf__fn *F, LLVMValueRef v)
{
    return LLVMBuildPointerCast(B, uf__emit_array_data(F, v), uf__ty_i8p(F),
                                "");
}

LLVMValueRef uf__emit_rt_ptr(uf__fn *F, LLVMValueRef p, LLVMTypeRef elem)
{
    return LLVMBuildPointerCast(B, p, LLVMPointerType(elem, 0), "");
}

void uf__emit_rt_array(uf__fn *F, const uf__type *t, LLVMValueRef v,
                       const char *name, uf__rt_array *o)
{
    o->dt = uf__c_i32(F, (int)t->dtype);
    o->nd = uf__c_i64(F, t->ndim);
    o->shape = uf__emit_i64_slots(F, t->ndim, name);
    o->strides = uf__emit_i64_slots(F, t->ndim, name);
    for (int k = 0; k < t->ndim; k++) {
        uf__emit_put(F, o->shape, k, uf__emit_array_dim(F, v, k));
        uf__emit_put(F, o->strides, k,
                         uf__emit_array_stride(F, v, t, k));
    }
    o->data = uf__emit_rt_data(F, v);
}

void uf__emit_rt_statuses(uf__fn *F, LLVMValueRef st,
                          const uf__rt_status *map, size_t n)
{
    for (size_t i = 0; i < n; i++)
        uf__fn_raise_if(F, LLVMBuildICmp(B, LLVMIntEQ, st,
                                         uf__c_i32(F, map[i].status), ""),
                        map[i].jit);
}
