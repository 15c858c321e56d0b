/* Shared memory for the CUDA codegen targets (codegen.h's shared_*
 * hooks). NVVM: each static array is a module global in address space 3
 * (one per block, laid out by ptxas), the dynamic part an external
 * [0 x i8] in address space 3 (CUDA C's `extern __shared__`), all used
 * through generic pointers. cudasim: the block's shared memory is
 * uf__sim_thread.shared (common/sim_abi.h): the static arrays at offsets
 * fixed here as they are made (their total becomes the kernel's
 * shared_bytes), the dynamic part after them, at an offset known only
 * once the module is lowered: kept in a module global set then
 * (uf__nvvm_shared_finish). */
#include <string.h>

#include "compiler/nvvm/nvvm_internal.h"

#define SHARED_AS 3
#define DYN_ALIGN 16

static uf__codegen_nvvm *nvvm_of(uf__lower *L)
{
    return (uf__codegen_nvvm *)(uintptr_t)L->cg;
}

static LLVMTypeRef i8p_of(uf__lower *L)
{
    return LLVMPointerType(LLVMInt8TypeInContext(L->ctx), 0);
}

/* ---- NVVM ---------------------------------------------------------------- */

static LLVMValueRef generic(uf__lower *L, LLVMValueRef gv)
{
    LLVMTypeRef i8 = LLVMInt8TypeInContext(L->ctx);
    LLVMValueRef p = LLVMConstBitCast(gv, LLVMPointerType(i8, SHARED_AS));
    return LLVMConstAddrSpaceCast(p, i8p_of(L));
}

static LLVMValueRef nvvm_static(uf__lower *L, uint64_t bytes, unsigned align)
{
    LLVMTypeRef ty = LLVMArrayType(LLVMInt8TypeInContext(L->ctx),
                                   (unsigned)bytes);
    LLVMValueRef gv = LLVMAddGlobalInAddressSpace(L->mod, ty, "uf_shared",
                                                  SHARED_AS);
    LLVMSetInitializer(gv, LLVMGetUndef(ty));
    LLVMSetLinkage(gv, LLVMInternalLinkage);
    LLVMSetAlignment(gv, align);
    return generic(L, gv);
}

static LLVMValueRef nvvm_dynamic(uf__lower *L)
{
    static const char name[] = "uf_dynamic_shared";
    LLVMValueRef gv = LLVMGetNamedGlobal(L->mod, name);
    if (!gv) {
        LLVMTypeRef ty = LLVMArrayType(LLVMInt8TypeInContext(L->ctx), 0);
        gv = LLVMAddGlobalInAddressSpace(L->mod, ty, name, SHARED_AS);
        LLVMSetLinkage(gv, LLVMExternalLinkage);
        LLVMSetAlignment(gv, DYN_ALIGN);
    }
    return generic(L, gv);
}

static LLVMValueRef nvvm_dynamic_size(uf__lower *L)
{
    uf__codegen_nvvm *g = nvvm_of(L);
    if (!g->dyn_size_global) {
        LLVMTypeRef i64 = LLVMInt64TypeInContext(L->ctx);
        g->dyn_size_global = LLVMAddGlobalInAddressSpace(
            L->mod, i64, "uf_dynamic_shared_bytes", SHARED_AS);
        LLVMSetInitializer(g->dyn_size_global, LLVMGetUndef(i64));
        LLVMSetLinkage(g->dyn_size_global, LLVMInternalLinkage);
        LLVMSetAlignment(g->dyn_size_global, 8);
    }
    g->dyn_used = true;
    return LLVMConstAddrSpaceCast(
        g->dyn_size_global,
        LLVMPointerType(LLVMInt64TypeInContext(L->ctx), 0));
}

/* ---- cudasim -------------------------------------------------------------- */

/* self->shared + off (off an i64 value) */
static LLVMValueRef sim_at(uf__lower *L, LLVMValueRef off)
{
    LLVMTypeRef i8 = LLVMInt8TypeInContext(L->ctx);
    LLVMTypeRef i8p = i8p_of(L);
    LLVMValueRef o = LLVMConstInt(LLVMInt64TypeInContext(L->ctx),
                                  offsetof(uf__sim_thread, shared), 0);
    LLVMValueRef slot = LLVMBuildGEP2(L->b, i8, uf__nvvm_sim_self(L), &o, 1,
                                      "");
    slot = LLVMBuildBitCast(L->b, slot, LLVMPointerType(i8p, 0), "");
    LLVMValueRef base = LLVMBuildLoad2(L->b, i8p, slot, "shared");
    return LLVMBuildGEP2(L->b, i8, base, &off, 1, "");
}

static uint64_t round_up(uint64_t x, uint64_t a)
{
    return (x + a - 1) / a * a;
}

static LLVMValueRef sim_static(uf__lower *L, uint64_t bytes, unsigned align)
{
    uf__codegen_nvvm *g = nvvm_of(L);
    uint64_t off = round_up(g->shared_static, align ? align : 1);
    g->shared_static = off + bytes;
    return sim_at(L, LLVMConstInt(LLVMInt64TypeInContext(L->ctx), off, 0));
}

/* The global holding the dynamic part's offset (set at the end). */
static LLVMValueRef sim_dyn_offset_global(uf__lower *L)
{
    static const char name[] = "uf_sim_dynamic_offset";
    LLVMValueRef gv = LLVMGetNamedGlobal(L->mod, name);
    if (!gv) {
        LLVMTypeRef i64 = LLVMInt64TypeInContext(L->ctx);
        gv = LLVMAddGlobal(L->mod, i64, name);
        LLVMSetInitializer(gv, LLVMConstNull(i64));
        LLVMSetLinkage(gv, LLVMInternalLinkage);
        LLVMSetGlobalConstant(gv, true);
    }
    return gv;
}

static LLVMValueRef sim_dynamic(uf__lower *L)
{
    LLVMTypeRef i64 = LLVMInt64TypeInContext(L->ctx);
    LLVMValueRef off = LLVMBuildLoad2(L->b, i64, sim_dyn_offset_global(L),
                                      "");
    return sim_at(L, off);
}

static LLVMValueRef sim_dynamic_size(uf__lower *L)
{
    uf__codegen_nvvm *g = nvvm_of(L);
    if (!g->dyn_size_off) /* offset + 1: 0 is "not made" */
        g->dyn_size_off = 1 + round_up(g->shared_static, 8),
        g->shared_static = g->dyn_size_off - 1 + 8;
    g->dyn_used = true;
    LLVMValueRef p = sim_at(L, LLVMConstInt(LLVMInt64TypeInContext(L->ctx),
                                            g->dyn_size_off - 1, 0));
    return LLVMBuildBitCast(
        L->b, p, LLVMPointerType(LLVMInt64TypeInContext(L->ctx), 0), "");
}

void uf__nvvm_shared_init(uf__codegen_nvvm *g)
{
    g->base.shared_static = g->sim ? sim_static : nvvm_static;
    g->base.shared_dynamic = g->sim ? sim_dynamic : nvvm_dynamic;
    g->base.shared_dynamic_size = g->sim ? sim_dynamic_size
                                         : nvvm_dynamic_size;
}

uint32_t uf__nvvm_shared_finish(uf__lower *L)
{
    uf__codegen_nvvm *g = nvvm_of(L);
    if (!g->sim)
        return 0; /* ptxas lays static shared memory out */
    uint64_t total = round_up(g->shared_static, DYN_ALIGN);
    LLVMValueRef gv = LLVMGetNamedGlobal(L->mod, "uf_sim_dynamic_offset");
    if (gv)
        LLVMSetInitializer(gv, LLVMConstInt(LLVMInt64TypeInContext(L->ctx),
                                            total, 0));
    return (uint32_t)total;
}
