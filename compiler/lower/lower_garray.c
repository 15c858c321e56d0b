/* Module-level arrays in generated code (kmodule_array.c builds them):
 * as Numba's make_constant_array, the bytes become a constant global of
 * the module and the value a C-contiguous array over it, typed readonly.
 * The host and cudasim keep it in read-only data (address space 0); NVVM
 * in constant memory (address space 4, numba-cuda's CUDATargetContext
 * does the same for every global array), read through a generic pointer. */
#include <stdio.h>

#include "common/error_internal.h"
#include "compiler/front/kmodule.h"
#include "compiler/lower/lower_array.h"

LLVMValueRef uf__lower_garray(uf__fn *F, const uf__garray *ga,
                              const uf__expr *at)
{
    uf__lower *L = F->L;
    unsigned as = L->cg->const_as;
    if (as != 0 && ga->nbytes > UF__CUDA_CONST_MAX) {
        uf__source_error(F->err, UF_ERR_UNSUPPORTED, F->tf->km->src, at->pos,
                         "the module-level array '%s' has %zu bytes: CUDA's "
                         "constant memory holds at most %u (pass it as a "
                         "kernel argument)", ga->name, ga->nbytes,
                         UF__CUDA_CONST_MAX);
        return NULL;
    }
    LLVMTypeRef i8 = LLVMInt8TypeInContext(L->ctx);
    LLVMTypeRef i64 = LLVMInt64TypeInContext(L->ctx);
    /* one global per array and module; its line tells rebindings apart */
    char name[200];
    snprintf(name, sizeof name, "uf_garray.%s.%d", ga->name, ga->pos.line);
    LLVMValueRef gv = LLVMGetNamedGlobal(L->mod, name);
    if (gv == NULL) {
        LLVMValueRef init = LLVMConstStringInContext(
            L->ctx, (const char *)ga->data, (unsigned)ga->nbytes, 1);
        gv = LLVMAddGlobalInAddressSpace(L->mod, LLVMTypeOf(init), name, as);
        LLVMSetInitializer(gv, init);
        LLVMSetGlobalConstant(gv, 1);
        LLVMSetLinkage(gv, as ? LLVMInternalLinkage : LLVMPrivateLinkage);
        size_t isz = uf_dtype_itemsize(ga->dtype);
        LLVMSetAlignment(gv, isz > 16 ? (unsigned)isz : 16);
    }
    LLVMValueRef data = LLVMConstBitCast(gv, LLVMPointerType(i8, as));
    if (as != 0)
        data = LLVMConstAddrSpaceCast(data, LLVMPointerType(i8, 0));
    LLVMValueRef shape[UF_MAXDIMS], strides[UF_MAXDIMS];
    int64_t stride = (int64_t)uf_dtype_itemsize(ga->dtype);
    for (int d = ga->ndim - 1; d >= 0; d--) {
        shape[d] = LLVMConstInt(i64, (unsigned long long)ga->shape[d], 0);
        strides[d] = LLVMConstInt(i64, (unsigned long long)stride, 0);
        stride *= ga->shape[d] ? ga->shape[d] : 1;
    }
    return uf__build_array(L, data, shape, strides, ga->ndim);
}
