/* numba.cuda's warp-level functions (typed in infer_cuda_warp.c) through
 * the codegen target's warp hook: 64-bit values are shuffled as two
 * 32-bit halves and floats as their bits, as numba-cuda does;
 * lanemask_lt is computed from the lane id. */
#include "compiler/lower/lower.h"

#define B (F->L->b)

static LLVMValueRef arg_as(uf__fn *F, const uf__expr *x, uf_dtype to)
{
    LLVMValueRef v = uf__lower_expr(F, x);
    const uf__type *t = uf__lower_info(F, x)->type;
    return v ? uf__emit_cast(F, v, t->dtype, to) : NULL;
}

static uf__warp_op op_of(uf__builtin b)
{
    switch (b) {
    case UF__BI_CUDA_SHFL_SYNC: return UF__WARP_SHFL_IDX;
    case UF__BI_CUDA_SHFL_UP_SYNC: return UF__WARP_SHFL_UP;
    case UF__BI_CUDA_SHFL_DOWN_SYNC: return UF__WARP_SHFL_DOWN;
    case UF__BI_CUDA_SHFL_XOR_SYNC: return UF__WARP_SHFL_XOR;
    case UF__BI_CUDA_ALL_SYNC: return UF__WARP_ALL;
    case UF__BI_CUDA_ANY_SYNC: return UF__WARP_ANY;
    case UF__BI_CUDA_EQ_SYNC: return UF__WARP_EQ;
    case UF__BI_CUDA_BALLOT_SYNC: return UF__WARP_BALLOT;
    case UF__BI_CUDA_MATCH_ANY_SYNC: return UF__WARP_MATCH_ANY;
    case UF__BI_CUDA_MATCH_ALL_SYNC: return UF__WARP_MATCH_ALL;
    case UF__BI_CUDA_SYNCWARP: return UF__WARP_SYNC;
    default: return UF__WARP_ACTIVEMASK;
    }
}

/* value (an int32/int64/float32/float64 of dtype dt) as an integer of
 * its width */
static LLVMValueRef bits_of(uf__fn *F, LLVMValueRef v, uf_dtype dt)
{
    if (dt == UF_FLOAT32)
        return LLVMBuildBitCast(B, v, LLVMInt32TypeInContext(F->L->ctx), "");
    if (dt == UF_FLOAT64)
        return LLVMBuildBitCast(B, v, LLVMInt64TypeInContext(F->L->ctx), "");
    return v;
}

static LLVMValueRef shuffle(uf__fn *F, uf__warp_op op, LLVMValueRef mask,
                            const uf__expr *vx, LLVMValueRef lane)
{
    const uf__codegen_target *cg = F->L->cg;
    uf_dtype dt = uf__lower_info(F, vx)->type->dtype;
    LLVMValueRef v = uf__lower_expr(F, vx);
    if (!v)
        return NULL;
    v = bits_of(F, v, dt);
    LLVMTypeRef i32 = LLVMInt32TypeInContext(F->L->ctx);
    LLVMTypeRef i64 = LLVMInt64TypeInContext(F->L->ctx);
    LLVMValueRef r;
    if (LLVMGetIntTypeWidth(LLVMTypeOf(v)) == 32) {
        r = cg->warp(F->L, op, mask, v, lane, NULL);
    } else {
        LLVMValueRef lo = LLVMBuildTrunc(B, v, i32, "");
        LLVMValueRef hi = LLVMBuildTrunc(
            B, LLVMBuildLShr(B, v, LLVMConstInt(i64, 32, 0), ""), i32, "");
        lo = LLVMBuildZExt(B, cg->warp(F->L, op, mask, lo, lane, NULL), i64,
                           "");
        hi = LLVMBuildZExt(B, cg->warp(F->L, op, mask, hi, lane, NULL), i64,
                           "");
        r = LLVMBuildOr(B, LLVMBuildShl(B, hi, LLVMConstInt(i64, 32, 0), ""),
                        lo, "");
    }
    if (dt == UF_FLOAT32 || dt == UF_FLOAT64)
        r = LLVMBuildBitCast(B, r, uf__lower_dtype(F->L, dt), "");
    return r;
}

LLVMValueRef uf__lower_cuda_warp(uf__fn *F, const uf__expr *e, uf__builtin b)
{
    uf__lower *L = F->L;
    const uf__codegen_target *cg = L->cg;
    const uf__expr *const *a = (const uf__expr *const *)e->u.call.args;
    int n = e->u.call.nargs;
    LLVMTypeRef i32 = LLVMInt32TypeInContext(L->ctx);
    if (b == UF__BI_CUDA_LANEMASK_LT) /* (1 << laneid) - 1 */
        return LLVMBuildSub(
            B, LLVMBuildShl(B, LLVMConstInt(i32, 1, 0),
                            cg->sreg(L, UF__SREG_LANEID), ""),
            LLVMConstInt(i32, 1, 0), "");
    uf__warp_op op = op_of(b);
    if (op == UF__WARP_ACTIVEMASK)
        return cg->warp(L, op, LLVMConstAllOnes(i32), NULL, NULL, NULL);
    LLVMValueRef mask = n > 0 ? arg_as(F, a[0], UF_UINT32)
                              : LLVMConstAllOnes(i32);
    if (!mask)
        return NULL;
    switch (op) {
    case UF__WARP_SYNC:
        cg->warp(L, op, mask, NULL, NULL, NULL);
        return LLVMGetUndef(LLVMInt1TypeInContext(L->ctx));
    case UF__WARP_SHFL_IDX:
    case UF__WARP_SHFL_UP:
    case UF__WARP_SHFL_DOWN:
    case UF__WARP_SHFL_XOR: {
        LLVMValueRef lane = arg_as(F, a[2], UF_INT32);
        return lane ? shuffle(F, op, mask, a[1], lane) : NULL;
    }
    case UF__WARP_ALL:
    case UF__WARP_ANY:
    case UF__WARP_EQ:
    case UF__WARP_BALLOT: {
        LLVMValueRef p = arg_as(F, a[1], UF_BOOL);
        if (!p)
            return NULL;
        LLVMValueRef pred = NULL;
        LLVMValueRef r = cg->warp(L, op, mask, p, NULL, &pred);
        return op == UF__WARP_BALLOT ? r : pred;
    }
    default: { /* match_any, match_all */
        uf_dtype dt = uf__lower_info(F, a[1])->type->dtype;
        LLVMValueRef v = uf__lower_expr(F, a[1]);
        if (!v)
            return NULL;
        LLVMValueRef pred = NULL;
        LLVMValueRef r = cg->warp(L, op, mask, bits_of(F, v, dt), NULL,
                                  &pred);
        if (op == UF__WARP_MATCH_ANY)
            return r;
        LLVMTypeRef ty = uf__lower_type(L, uf__lower_info(F, e)->type,
                                        F->err);
        if (!ty)
            return NULL;
        LLVMValueRef t = LLVMBuildInsertValue(B, LLVMGetUndef(ty), r, 0, "");
        return LLVMBuildInsertValue(B, t, pred, 1, "");
    }
    }
}
