/* Warp collectives for the CUDA codegen targets (codegen.h's `warp`
 * hook). NVVM: the NVPTX intrinsics LLVM and libnvvm share
 * (llvm.nvvm.shfl.sync.*, vote.*.sync, match.*.sync, bar.warp.sync,
 * activemask), each one PTX instruction. cudasim: one call of the
 * simulator's uf__sim_warp (common/sim_abi.h), where the lanes of the
 * warp meet: every lane of the mask that has not exited arrives, then
 * each gets its result. */
#include <stdio.h>

#include "compiler/nvvm/nvvm_internal.h"

/* the simulator numbers the collectives as the codegen hook does */
_Static_assert((int)UF__WARP_SHFL_IDX == UF__SIM_SHFL_IDX &&
                   (int)UF__WARP_ALL == UF__SIM_VOTE_ALL &&
                   (int)UF__WARP_BALLOT == UF__SIM_BALLOT &&
                   (int)UF__WARP_MATCH_ALL == UF__SIM_MATCH_ALL &&
                   (int)UF__WARP_SYNC == UF__SIM_SYNCWARP &&
                   (int)UF__WARP_ACTIVEMASK == UF__SIM_ACTIVEMASK,
               "warp op numbering");

/* activemask: neither libnvvm (LLVM 7) nor LLVM 14 has an intrinsic for
 * it, and libnvvm reads inline asm in our LLVM 14 bitcode as undef
 * (TOOLCHAIN.md), so the kernel calls a helper defined at compile time in
 * text IR as inline PTX (nvvm_atomic.c's helper modules). */
#define ACTIVEMASK_FN "uf__nvvm_atom_activemask_i32"

static LLVMValueRef intrinsic(uf__lower *L, const char *name, LLVMTypeRef ret,
                              LLVMValueRef *args, unsigned n)
{
    LLVMTypeRef types[4];
    for (unsigned i = 0; i < n; i++)
        types[i] = LLVMTypeOf(args[i]);
    LLVMTypeRef fty = LLVMFunctionType(ret, types, n, 0);
    LLVMValueRef fn = LLVMGetNamedFunction(L->mod, name);
    if (!fn)
        fn = LLVMAddFunction(L->mod, name, fty);
    return LLVMBuildCall2(L->b, fty, fn, args, n, "");
}

static LLVMValueRef nvvm_warp(uf__lower *L, uf__warp_op op, LLVMValueRef mask,
                              LLVMValueRef value, LLVMValueRef arg,
                              LLVMValueRef *pred)
{
    static const char *const shfl[] = {
        "llvm.nvvm.shfl.sync.idx.i32", "llvm.nvvm.shfl.sync.up.i32",
        "llvm.nvvm.shfl.sync.down.i32", "llvm.nvvm.shfl.sync.bfly.i32"};
    static const char *const vote[] = {
        "llvm.nvvm.vote.all.sync", "llvm.nvvm.vote.any.sync",
        "llvm.nvvm.vote.uni.sync"};
    LLVMContextRef ctx = L->ctx;
    LLVMTypeRef i32 = LLVMInt32TypeInContext(ctx);
    LLVMTypeRef i1 = LLVMInt1TypeInContext(ctx);
    switch (op) {
    case UF__WARP_SHFL_IDX:
    case UF__WARP_SHFL_UP:
    case UF__WARP_SHFL_DOWN:
    case UF__WARP_SHFL_XOR: {
        /* c: the whole warp as one segment; up clamps at lane 0 */
        LLVMValueRef c = LLVMConstInt(i32, op == UF__WARP_SHFL_UP ? 0 : 0x1f,
                                      0);
        LLVMValueRef a[4] = {mask, value, arg, c};
        return intrinsic(L, shfl[op - UF__WARP_SHFL_IDX], i32, a, 4);
    }
    case UF__WARP_ALL:
    case UF__WARP_ANY:
    case UF__WARP_EQ: {
        LLVMValueRef a[2] = {mask, value};
        LLVMValueRef p = intrinsic(L, vote[op - UF__WARP_ALL], i1, a, 2);
        if (pred)
            *pred = p;
        return LLVMBuildZExt(L->b, p, i32, "");
    }
    case UF__WARP_BALLOT: {
        LLVMValueRef a[2] = {mask, value};
        return intrinsic(L, "llvm.nvvm.vote.ballot.sync", i32, a, 2);
    }
    case UF__WARP_MATCH_ANY: {
        LLVMValueRef a[2] = {mask, value};
        bool wide = LLVMGetIntTypeWidth(LLVMTypeOf(value)) == 64;
        return intrinsic(L, wide ? "llvm.nvvm.match.any.sync.i64"
                                 : "llvm.nvvm.match.any.sync.i32",
                         i32, a, 2);
    }
    case UF__WARP_MATCH_ALL: {
        LLVMValueRef a[2] = {mask, value};
        bool wide = LLVMGetIntTypeWidth(LLVMTypeOf(value)) == 64;
        LLVMTypeRef rt[2] = {i32, i1};
        LLVMValueRef r = intrinsic(L, wide ? "llvm.nvvm.match.all.sync.i64p"
                                           : "llvm.nvvm.match.all.sync.i32p",
                                   LLVMStructTypeInContext(ctx, rt, 2, 0), a,
                                   2);
        if (pred)
            *pred = LLVMBuildExtractValue(L->b, r, 1, "");
        return LLVMBuildExtractValue(L->b, r, 0, "");
    }
    case UF__WARP_SYNC:
        intrinsic(L, "llvm.nvvm.bar.warp.sync", LLVMVoidTypeInContext(ctx),
                  &mask, 1);
        return LLVMConstNull(i32);
    case UF__WARP_ACTIVEMASK: /* defined at compile time (see below) */
        return intrinsic(L, ACTIVEMASK_FN, i32, NULL, 0);
    }
    return LLVMConstNull(i32);
}

/* cudasim: i64 uf__sim_warp(i32 op, i32 mask, i64 value, i32 arg): the
 * i32 result in the low half, the predicate in bit 32. */
static LLVMValueRef sim_warp(uf__lower *L, uf__warp_op op, LLVMValueRef mask,
                             LLVMValueRef value, LLVMValueRef arg,
                             LLVMValueRef *pred)
{
    LLVMContextRef ctx = L->ctx;
    LLVMTypeRef i32 = LLVMInt32TypeInContext(ctx);
    LLVMTypeRef i64 = LLVMInt64TypeInContext(ctx);
    LLVMTypeRef params[4] = {i32, i32, i64, i32};
    LLVMTypeRef fty = LLVMFunctionType(i64, params, 4, 0);
    LLVMValueRef fn = LLVMGetNamedFunction(L->mod, UF__SIM_WARP_FN);
    if (!fn) {
        fn = LLVMAddFunction(L->mod, UF__SIM_WARP_FN, fty);
        uf__lower_add_attr(L, fn, (int)LLVMAttributeFunctionIndex,
                           "nounwind");
    }
    LLVMValueRef v = value ? LLVMBuildZExt(L->b, value, i64, "")
                           : LLVMConstNull(i64);
    if (value && LLVMGetIntTypeWidth(LLVMTypeOf(value)) == 64)
        v = value;
    LLVMValueRef a[4] = {LLVMConstInt(i32, (unsigned)op, 0), mask, v,
                         arg ? arg : LLVMConstNull(i32)};
    LLVMValueRef r = LLVMBuildCall2(L->b, fty, fn, a, 4, "");
    if (pred)
        *pred = LLVMBuildTrunc(
            L->b, LLVMBuildLShr(L->b, r, LLVMConstInt(i64, 32, 0), ""),
            LLVMInt1TypeInContext(ctx), "");
    return LLVMBuildTrunc(L->b, r, i32, "");
}

void uf__nvvm_warp_init(uf__codegen_nvvm *g)
{
    g->base.warp = g->sim ? sim_warp : nvvm_warp;
}
