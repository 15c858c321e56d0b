/* The frame every lowered function shares: dtype predicates, LLVM function
 * attributes, and a function body's begin/end, entry-block allocas and the
 * status returns that raise an exception to the caller. */
#include <string.h>

#include "common/alloc.h"
#include "compiler/lower/lower_array.h"
#include "compiler/lower/lower_arraycall.h"

#define B (F->L->b)

/* ---- dtypes ------------------------------------------------------------ */

bool uf__dtype_is_int(uf_dtype dt)
{
    char k = uf_dtype_kind(dt);
    return k == 'i' || k == 'u';
}

bool uf__dtype_is_signed(uf_dtype dt)
{
    return uf_dtype_kind(dt) == 'i';
}

bool uf__dtype_is_float(uf_dtype dt)
{
    return uf_dtype_kind(dt) == 'f';
}

bool uf__dtype_is_complex(uf_dtype dt)
{
    return uf_dtype_kind(dt) == 'c';
}

uf_dtype uf__dtype_part(uf_dtype dt)
{
    return (dt == UF_FLOAT32 || dt == UF_COMPLEX64) ? UF_FLOAT32 : UF_FLOAT64;
}

/* ---- attributes ------------------------------------------------------- */

void uf__lower_add_attr(uf__lower *L, LLVMValueRef fn, int idx,
                        const char *name)
{
    unsigned kind = LLVMGetEnumAttributeKindForName(name, strlen(name));
    LLVMAddAttributeAtIndex(fn, (LLVMAttributeIndex)idx,
                            LLVMCreateEnumAttribute(L->ctx, kind, 0));
}

LLVMValueRef uf__lower_declare(uf__lower *L, const char *name,
                               LLVMTypeRef fty, bool pure)
{
    LLVMValueRef fn = LLVMGetNamedFunction(L->mod, name);
    if (fn)
        return fn;
    fn = LLVMAddFunction(L->mod, name, fty);
    uf__lower_add_attr(L, fn, (int)LLVMAttributeFunctionIndex, "nounwind");
    uf__lower_add_attr(L, fn, (int)LLVMAttributeFunctionIndex, "willreturn");
    if (pure)
        uf__lower_add_attr(L, fn, (int)LLVMAttributeFunctionIndex,
                           "readnone");
    return fn;
}

void uf__lower_target_attrs(uf__lower *L, LLVMValueRef fn)
{
    L->cg->function_attrs(L, fn);
}

void uf__lower_kernel_attrs(uf__lower *L, LLVMValueRef fn)
{
    LLVMSetLinkage(fn, LLVMInternalLinkage);
    uf__lower_add_attr(L, fn, (int)LLVMAttributeFunctionIndex,
                       "alwaysinline");
    uf__lower_target_attrs(L, fn);
}

/* ---- function bodies --------------------------------------------------- */

int uf__fn_begin(uf__fn *F, uf__lower *L, LLVMValueRef fn, bool fallible,
                 bool numpy_model, uf_error *err)
{
    memset(F, 0, sizeof *F);
    F->L = L;
    F->fn = fn;
    F->fallible = fallible;
    F->numpy_model = numpy_model;
    F->err = err;
    F->entry = LLVMAppendBasicBlockInContext(L->ctx, fn, "entry");
    LLVMPositionBuilderAtEnd(L->b, F->entry);
    return 0;
}

void uf__fn_end(uf__fn *F)
{
    uf__free(F->vars);
    uf__free(F->loops);
    uf__nrt_loops_free(F);
    uf__arraycall_free(F);
    uf__free(F->scratch_calls);
    F->scratch_calls = NULL;
    F->vars = NULL;
    F->loops = NULL;
}

LLVMValueRef uf__fn_alloca(uf__fn *F, LLVMTypeRef ty, const char *name)
{
    /* at the top of the entry block, wherever the builder is */
    LLVMBuilderRef eb = LLVMCreateBuilderInContext(F->L->ctx);
    LLVMValueRef first = LLVMGetFirstInstruction(F->entry);
    if (first)
        LLVMPositionBuilderBefore(eb, first);
    else
        LLVMPositionBuilderAtEnd(eb, F->entry);
    LLVMValueRef a = LLVMBuildAlloca(eb, ty, name);
    LLVMDisposeBuilder(eb);
    return a;
}

LLVMBasicBlockRef uf__fn_block(uf__fn *F, const char *name)
{
    return LLVMAppendBasicBlockInContext(F->L->ctx, F->fn, name);
}

static void ret_status(uf__fn *F, LLVMValueRef status)
{
    LLVMBuildRet(B, status);
}

void uf__fn_raise_if(uf__fn *F, LLVMValueRef cond, int status)
{
    if (!F->fallible || (F->numpy_model && status < UF__JIT_RANGE_STEP))
        return;
    LLVMBasicBlockRef raise = uf__fn_block(F, "raise");
    LLVMBasicBlockRef cont = uf__fn_block(F, "ok");
    LLVMBuildCondBr(B, cond, raise, cont);
    LLVMPositionBuilderAtEnd(B, raise);
    ret_status(F, LLVMConstInt(LLVMInt32TypeInContext(F->L->ctx),
                               (unsigned long long)status, 0));
    LLVMPositionBuilderAtEnd(B, cont);
}

void uf__fn_raise_status(uf__fn *F, LLVMValueRef status)
{
    LLVMBasicBlockRef raise = uf__fn_block(F, "reraise");
    LLVMBasicBlockRef cont = uf__fn_block(F, "ok");
    LLVMBuildCondBr(B,
                    LLVMBuildICmp(B, LLVMIntNE, status,
                                  LLVMConstNull(LLVMTypeOf(status)), ""),
                    raise, cont);
    LLVMPositionBuilderAtEnd(B, raise);
    ret_status(F, status);
    LLVMPositionBuilderAtEnd(B, cont);
}
