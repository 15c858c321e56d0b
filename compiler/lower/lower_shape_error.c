/* ValueErrors that name the shapes (operands that do not broadcast, a
 * slice store from a source of another shape): on host targets the
 * raising block first records the shapes through the JIT's
 * UF__RT_BROADCAST_ERROR (compiler/host/jit_status.c formats the message
 * for uf__jit_status_error on this thread); CUDA and cudasim code, which
 * cannot call the host, hands them to the target's shape_error sink
 * (the launch's status word: compiler/nvvm/nvvm_shape_error.c). Then the
 * status returns as uf__fn_raise_if returns it. */
#include "common/loop.h"
#include "compiler/lower/lower.h"

#define B (F->L->b)

/* At most this many dimensions are handed to a device sink (it keeps
 * what its status word holds; past this the message goes without). */
enum { DEVICE_DIMS = 256 };

static void device_shapes(uf__fn *F, LLVMValueRef cond, int status,
                          int kind, int nshapes, const int *ndims,
                          uf__shape_dims_fn dims, void *ud)
{
    LLVMBasicBlockRef raise = uf__fn_block(F, "raise.shapes");
    LLVMBasicBlockRef cont = uf__fn_block(F, "ok");
    LLVMBuildCondBr(B, cond, raise, cont);
    LLVMPositionBuilderAtEnd(B, raise);
    LLVMValueRef v[DEVICE_DIMS];
    int total = 0;
    for (int s = 0; s < nshapes; s++)
        total += ndims[s];
    if (total > DEVICE_DIMS)
        nshapes = total = 0;
    for (int s = 0, at = 0; s < nshapes; s++)
        for (int k = 0; k < ndims[s]; k++)
            v[at++] = dims(F, s, k, ud);
    F->L->cg->shape_error(F, status, kind, nshapes, ndims, v);
    uf__fn_raise_if(F, LLVMConstInt(LLVMInt1TypeInContext(F->L->ctx), 1, 0),
                    status);
    LLVMBuildBr(B, cont);
    LLVMPositionBuilderAtEnd(B, cont);
}

void uf__fn_raise_shapes_if(uf__fn *F, LLVMValueRef cond, int status,
                            int kind, int nshapes, const int *ndims,
                            uf__shape_dims_fn dims, void *ud)
{
    const uf__codegen_target *cg = F->L->cg;
    bool device = cg->sreg != NULL; /* no host helpers: the sink */
    if (F->fallible && device && cg->shape_error) {
        /* the sink claims the status word, even with no shapes */
        device_shapes(F, cond, status, kind, nshapes > 0 ? nshapes : 0,
                      ndims, dims, ud);
        return;
    }
    if (!F->fallible || nshapes <= 0 || device) {
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
