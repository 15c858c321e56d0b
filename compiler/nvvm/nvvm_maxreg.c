/* A register cap (cuda.jit max_registers=): the NVVM IR annotation
 * !{fn, !"maxnreg", i32 N}, which libnvvm and LLVM's NVPTX printer both
 * turn into .maxnreg N on the .entry, for ptxas and the driver's JIT
 * (numba-cuda passes the cap to its linker instead: the same limit). */
#include "compiler/nvvm/nvvm_internal.h"

void uf__nvvm_annotate_maxnreg(LLVMModuleRef mod, const uf__nvvm_kernel *k,
                               int n, int maxreg)
{
    LLVMContextRef ctx = LLVMGetModuleContext(mod);
    for (int i = 0; i < n; i++) {
        LLVMValueRef fn = LLVMGetNamedFunction(mod, k[i].name);
        if (fn == NULL)
            continue;
        LLVMValueRef ops[3] = {
            fn, LLVMMDStringInContext(ctx, "maxnreg", 7),
            LLVMConstInt(LLVMInt32TypeInContext(ctx), (unsigned)maxreg, 0)};
        LLVMAddNamedMetadataOperand(mod, "nvvm.annotations",
                                    LLVMMDNodeInContext(ctx, ops, 3));
    }
}
