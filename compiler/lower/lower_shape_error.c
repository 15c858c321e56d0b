/* ValueErrors that name the shapes (operands that do not broadcast, a
 * slice store from a source of another shape): on host targets the
 * raising block first records the shapes through the JIT's
 * UF__RT_BROADCAST_ERROR (compiler/host/jit_status.c formats the message
 * for uf__jit_status_error on this thread), then returns the status as
 * uf__fn_raise_if does. CUDA and cudasim code has no such sink: there the
 * status alone raises, with its fixed message. */
#include "common/loop.h"
#include "compiler/lower/lower.h"

#define B (F->L->b)

void uf__fn_raise_shapes_if(uf__fn *F, LLVMValueRef cond, int status,
                            int kind, int nshapes, const int *ndims,
                            uf__shape_dims_fn dims, void *ud)
{
    if (!F->fallible || F->L->cg->sreg != NULL || nshapes <= 0) {
        uf__fn_raise_if(F, cond, status);
        return;
    }
    LLVMContextRef ctx = F->L->ctx;
    LLVMTypeRef i32 = LLVMInt32TypeInContext(ctx);
    LLVMTypeRef i64 = LLVMInt64TypeInContext(ctx);
    int total = 0;
    for (int s = 0; s < nshapes; s++)
        total += ndims[s];
    LLVMValueRef nd_arr = uf__fn_alloca(
        F, LLVMArrayType(i32, (unsigned)nshapes), "shape.nd");
    LLVMValueRef dim_arr = uf__fn_alloca(
        F, LLVMArrayType(i64, (unsigned)(total > 0 ? total : 1)), "shape.dims");
    LLVMBasicBlockRef raise = uf__fn_block(F, "raise.shapes");
    LLVMBasicBlockRef cont = uf__fn_block(F, "ok");
    LLVMBuildCondBr(B, cond, raise, cont);
    LLVMPositionBuilderAtEnd(B, raise);
    LLVMValueRef ndp = LLVMBuildPointerCast(B, nd_arr,
                                            LLVMPointerType(i32, 0), "");
    LLVMValueRef dp = LLVMBuildPointerCast(B, dim_arr,
                                           LLVMPointerType(i64, 0), "");
    int at = 0;
    for (int s = 0; s < nshapes; s++) {
        LLVMValueRef ix = LLVMConstInt(i64, (unsigned long long)s, 0);
        LLVMBuildStore(B, LLVMConstInt(i32, (unsigned long long)ndims[s], 0),
                       LLVMBuildInBoundsGEP2(B, i32, ndp, &ix, 1, ""));
        for (int k = 0; k < ndims[s]; k++, at++) {
            LLVMValueRef jx = LLVMConstInt(i64, (unsigned long long)at, 0);
            LLVMBuildStore(B, dims(F, s, k, ud),
                           LLVMBuildInBoundsGEP2(B, i64, dp, &jx, 1, ""));
        }
    }
    LLVMValueRef args[4] = {LLVMConstInt(i32, (unsigned long long)kind, 0),
                            LLVMConstInt(i32, (unsigned long long)nshapes, 0),
                            ndp, dp};
    LLVMTypeRef pt[4] = {i32, i32, LLVMTypeOf(ndp), LLVMTypeOf(dp)};
    LLVMTypeRef fty = LLVMFunctionType(LLVMVoidTypeInContext(ctx), pt, 4, 0);
    LLVMValueRef fn = F->L->cg->helper(F->L, UF__RT_BROADCAST_ERROR, fty);
    LLVMBuildCall2(B, fty, fn, args, 4, "");
    /* the status: through uf__fn_raise_if, always taken here */
    uf__fn_raise_if(F, LLVMConstInt(LLVMInt1TypeInContext(ctx), 1, 0),
                    status);
    LLVMBuildBr(B, cont);
    LLVMPositionBuilderAtEnd(B, cont);
}
