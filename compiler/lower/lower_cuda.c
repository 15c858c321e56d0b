/* The numba.cuda builtins a kernel body uses (typed in
 * compiler/types/infer_cuda.c): the thread's indices and sizes through
 * the codegen target's special registers, cuda.grid/gridsize computed
 * from them as numba-cuda does (64-bit: blockIdx * blockDim + threadIdx
 * per axis), cuda.syncthreads through its barrier, cuda.shared.array
 * through its shared-memory hooks and cuda.local.array as a per-thread
 * stack array. A target without a CUDA thread model (the host) refuses
 * them at their position. */
#include <stdio.h>
#include <string.h>

#include <ufjit/array.h>

#include "common/error_internal.h"
#include "compiler/lower/lower.h"
#include "compiler/lower/lower_array.h"
#include "compiler/types/infer_internal.h"

/* CUDA's static shared memory per block; cudasim's threads run on 64 KiB
 * stacks, so a local array there is kept well under that. */
#define SHARED_STATIC_MAX (48u << 10)
#define SIM_LOCAL_MAX (16u << 10)
/* CUDA's local memory per thread */
#define LOCAL_MAX (512u << 10)

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

static LLVMValueRef too_big(uf__fn *F, const uf__expr *e, const char *what,
                            uint64_t bytes, uint64_t max)
{
    char size[48];
    if (bytes == UINT64_MAX) /* array_site's "past 32 bits" */
        snprintf(size, sizeof size, "more than %u", UINT32_MAX);
    else
        snprintf(size, sizeof size, "%llu", (unsigned long long)bytes);
    uf__source_error(F->err, UF_ERR_UNSUPPORTED, F->tf->km->src, e->pos,
                     "%s of %s bytes: at most %llu", what, size,
                     (unsigned long long)max);
    return NULL;
}

/* cuda.shared.array / cuda.local.array: a C-contiguous array over memory
 * of the block (shared) or of the thread (local). */
static LLVMValueRef array_site(uf__fn *F, const uf__expr *e, uf__builtin b,
                               const uf__type *t)
{
    uf__lower *L = F->L;
    LLVMTypeRef i64 = LLVMInt64TypeInContext(L->ctx);
    int64_t shape[UF_MAXDIMS];
    int nd;
    uf__pos at;
    if (uf__cuda_array_shape(F->tf->km, e, shape, &nd, &at) != 0 ||
        nd != t->ndim) {
        uf__source_error(F->err, UF_ERR_INTERNAL, F->tf->km->src, at,
                         "%s", "array shape not known when lowering");
        return NULL;
    }
    uint64_t isz = uf_dtype_itemsize(t->dtype), bytes = isz;
    for (int d = 0; d < nd; d++)
        bytes = shape[d] && bytes > UINT32_MAX / (uint64_t)shape[d]
                    ? UINT64_MAX
                    : bytes * (uint64_t)shape[d];
    LLVMValueRef shp[UF_MAXDIMS], str[UF_MAXDIMS], data;
    int64_t stride = (int64_t)isz;
    for (int d = nd - 1; d >= 0; d--) {
        shp[d] = LLVMConstInt(i64, (unsigned long long)shape[d], 0);
        str[d] = LLVMConstInt(i64, (unsigned long long)stride, 0);
        stride *= shape[d] ? shape[d] : 1;
    }
    const uf__codegen_target *cg = L->cg;
    if (b == UF__BI_CUDA_SHARED_ARRAY && shape[0] == 0) {
        /* the dynamic shared memory: its length from the launch */
        data = cg->shared_dynamic(L);
        LLVMValueRef n = LLVMBuildLoad2(B, i64, cg->shared_dynamic_size(L),
                                        "dynbytes");
        shp[0] = LLVMBuildUDiv(B, n, LLVMConstInt(i64, isz, 0), "");
    } else if (b == UF__BI_CUDA_SHARED_ARRAY) {
        if (bytes > SHARED_STATIC_MAX)
            return too_big(F, e, "a static shared array", bytes,
                           SHARED_STATIC_MAX);
        data = cg->shared_static(L, bytes, isz > 16 ? (unsigned)isz : 16);
    } else {
        if (strcmp(cg->name, "cudasim") == 0 && bytes > SIM_LOCAL_MAX)
            return too_big(F, e, "on cudasim, a local array", bytes,
                           SIM_LOCAL_MAX);
        if (bytes > LOCAL_MAX)
            return too_big(F, e, "a local array", bytes, LOCAL_MAX);
        LLVMTypeRef et = uf__lower_mem_dtype(L, t->dtype);
        data = uf__fn_alloca(F, LLVMArrayType(et, (unsigned)(bytes / isz)),
                             "local");
    }
    return uf__build_array(L, data, shp, str, nd);
}

LLVMValueRef uf__lower_cuda(uf__fn *F, const uf__expr *e)
{
    const uf__expr_info *in = uf__lower_info(F, e);
    uf__builtin b = in->builtin;
    const uf__codegen_target *cg = F->L->cg;
    if (cg->sreg == NULL || cg->syncthreads == NULL || cg->warp == NULL) {
        uf__source_error(F->err, UF_ERR_UNSUPPORTED, F->tf->km->src, e->pos,
                         "%s is only available on the CUDA targets (cuda, "
                         "cudasim), in kernels and the functions they "
                         "call", uf__builtin_name(b));
        return NULL;
    }
    if (uf__builtin_is_cuda_random(b))
        return uf__lower_cuda_random(F, e);
    if (uf__builtin_is_cuda_value(b))
        return cg->sreg(F->L, (uf__sreg)(b - UF__BI_CUDA_FIRST_VALUE));
    if (uf__builtin_is_cuda_atomic(b) || uf__builtin_is_cuda_sync(b))
        return uf__lower_cuda_atomic(F, e);
    if (b == UF__BI_CUDA_SYNCTHREADS) {
        cg->syncthreads(F->L);
        return LLVMGetUndef(LLVMInt1TypeInContext(F->L->ctx));
    }
    if (b == UF__BI_CUDA_SHARED_ARRAY || b == UF__BI_CUDA_LOCAL_ARRAY)
        return array_site(F, e, b, in->type);
    if (b >= UF__BI_CUDA_SHFL_SYNC && b <= UF__BI_CUDA_LANEMASK_LT)
        return uf__lower_cuda_warp(F, e, b);
    if (b == UF__BI_CUDA_CONST_ARRAY_LIKE) /* the global is already there */
        return uf__lower_expr(F, e->u.call.args[0]);
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
