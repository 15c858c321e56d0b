/* The CUDA targets' sink of ValueErrors that name shapes (codegen.h:
 * shape_error; the host calls UF__RT_BROADCAST_ERROR instead): the
 * launch's first failing thread writes the status code and the shapes
 * into the status word (nvvm.h), which the launcher reads back and hands
 * to the host's formatter (ufunc/cuda_stage.c), so cuda and cudasim name
 * the shapes as the CPU does. Plain i32/i64 stores through the generic
 * status pointer: nothing libnvvm's reader refuses. */
#include <stddef.h>

#include "compiler/nvvm/codegen_nvvm.h"
#include "compiler/nvvm/nvvm_internal.h"

#define B (L->b)

/* Stores v (of type ty) at byte `off` of the status word. */
static void put(uf__lower *L, LLVMValueRef status, size_t off,
                LLVMTypeRef ty, LLVMValueRef v)
{
    LLVMTypeRef i8 = LLVMInt8TypeInContext(L->ctx);
    LLVMValueRef o = LLVMConstInt(LLVMInt64TypeInContext(L->ctx), off, 0);
    LLVMValueRef p = LLVMBuildGEP2(B, i8, status, &o, 1, "");
    LLVMBuildStore(B, v, LLVMBuildBitCast(B, p, LLVMPointerType(ty, 0), ""));
}

static void nvvm_shape_error(uf__fn *F, int code, int kind, int nshapes,
                             const int *ndims, const LLVMValueRef *dims)
{
    uf__lower *L = F->L;
    LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(L->ctx), 0);
    LLVMTypeRef i32 = LLVMInt32TypeInContext(L->ctx);
    LLVMTypeRef i64 = LLVMInt64TypeInContext(L->ctx);
    int total = 0;
    for (int s = 0; s < nshapes; s++)
        total += ndims[s];
    if (nshapes > UF__NVVM_STATUS_SHAPES || total > UF__NVVM_STATUS_DIMS)
        nshapes = total = 0; /* the message without them */
    LLVMValueRef status = LLVMBuildLoad2(B, i8p, uf__nvvm_status_slot(L),
                                         "status");
    LLVMValueRef won = uf__nvvm_claim_status(L, status);
    LLVMBasicBlockRef write = uf__fn_block(F, "shapes.report");
    LLVMBasicBlockRef done = uf__fn_block(F, "shapes.reported");
    LLVMBuildCondBr(B, won, write, done);
    LLVMPositionBuilderAtEnd(B, write);
    uf__nvvm_store_code(L, status, LLVMConstInt(i32, (unsigned)code, 0));
    put(L, status, offsetof(uf__nvvm_status, shape_kind), i32,
        LLVMConstInt(i32, (unsigned)kind, 0));
    put(L, status, offsetof(uf__nvvm_status, nshapes), i32,
        LLVMConstInt(i32, (unsigned)nshapes, 0));
    for (int s = 0; s < nshapes; s++)
        put(L, status,
            offsetof(uf__nvvm_status, shape_ndim) + (size_t)s * 4, i32,
            LLVMConstInt(i32, (unsigned)ndims[s], 0));
    for (int k = 0; k < total; k++)
        put(L, status,
            offsetof(uf__nvvm_status, shape_dims) + (size_t)k * 8, i64,
            dims[k]);
    LLVMBuildBr(B, done);
    LLVMPositionBuilderAtEnd(B, done);
}

void uf__nvvm_shape_error_init(uf__codegen_nvvm *g)
{
    g->base.shape_error = nvvm_shape_error;
}
