/* The numba.cuda builtins a kernel body uses (typed in
 * compiler/types/infer_cuda.c): the thread's indices and sizes through
 * the codegen target's special registers, cuda.grid/gridsize computed
 * from them as numba-cuda does (64-bit: blockIdx * blockDim + threadIdx
 * per axis), cuda.syncthreads through its barrier. A target without a
 * CUDA thread model (the host) refuses them at their position. */
#include "common/error_internal.h"
#include "compiler/lower/lower.h"

#define B (F->L->b)

static LLVMValueRef sreg64(uf__fn *F, uf__sreg r)
{
    return LLVMBuildZExt(B, F->L->cg->sreg(F->L, r),
                         LLVMInt64TypeInContext(F->L->ctx), "");
}

/* axis d (0: x) of cuda.grid (global index) or cuda.gridsize */
static LLVMValueRef grid_axis(uf__fn *F, bool size, int d)
{
    LLVMValueRef ntid = sreg64(F, (uf__sreg)(UF__SREG_NTID_X + d));
    if (size)
        return LLVMBuildNUWMul(
            B, ntid, sreg64(F, (uf__sreg)(UF__SREG_NCTAID_X + d)), "");
    LLVMValueRef ctaid = sreg64(F, (uf__sreg)(UF__SREG_CTAID_X + d));
    return LLVMBuildNUWAdd(B, LLVMBuildNUWMul(B, ctaid, ntid, ""),
                           sreg64(F, (uf__sreg)(UF__SREG_TID_X + d)), "");
}

LLVMValueRef uf__lower_cuda(uf__fn *F, const uf__expr *e)
{
    const uf__expr_info *in = uf__lower_info(F, e);
    uf__builtin b = in->builtin;
    const uf__codegen_target *cg = F->L->cg;
    if (cg->sreg == NULL || cg->syncthreads == NULL) {
        uf__source_error(F->err, UF_ERR_UNSUPPORTED, F->tf->km->src, e->pos,
                         "%s is only available on the CUDA targets (cuda, "
                         "cudasim), in kernels and the functions they "
                         "call", uf__builtin_name(b));
        return NULL;
    }
    if (uf__builtin_is_cuda_value(b))
        return cg->sreg(F->L, (uf__sreg)(b - UF__BI_CUDA_FIRST_VALUE));
    if (b == UF__BI_CUDA_SYNCTHREADS) {
        cg->syncthreads(F->L);
        return LLVMGetUndef(LLVMInt1TypeInContext(F->L->ctx));
    }
    /* grid / gridsize: the type says how many axes */
    bool size = b == UF__BI_CUDA_GRIDSIZE;
    const uf__type *t = in->type;
    if (t->kind != UF__T_TUPLE)
        return grid_axis(F, size, 0);
    LLVMTypeRef ty = uf__lower_type(F->L, t, F->err);
    if (!ty)
        return NULL;
    LLVMValueRef v = LLVMGetUndef(ty);
    for (int d = 0; d < t->n; d++)
        v = LLVMBuildInsertValue(B, v, grid_axis(F, size, d), (unsigned)d,
                                 "");
    return v;
}
