/* LLVM 14's IR made readable by libnvvm's LLVM 7 reader (TOOLCHAIN.md,
 * "NVVM / PTX"): the instructions it does not know rewritten, the
 * attributes it refuses ("Unknown attribute kind (62)") removed, right
 * before the bitcode is written. The shared lowering stays unaware. */
#include <string.h>

#include "compiler/nvvm/codegen_nvvm.h"
#include "compiler/nvvm/nvvm_internal.h"

/* Attributes LLVM 14 puts on functions, intrinsic declarations and calls
 * that LLVM 7 cannot read. */
static const char *const refused_attrs[] = {
    "nofree",  "nosync",    "willreturn", "mustprogress", "noundef",
    "immarg",  "byval",     "nocallback", "noprofile",    "hot",
    "nosanitize_coverage", "elementtype",
};

static void strip_fn_attrs(LLVMValueRef fn)
{
    unsigned np = LLVMCountParams(fn);
    for (size_t a = 0; a < sizeof refused_attrs / sizeof refused_attrs[0];
         a++) {
        unsigned kind = LLVMGetEnumAttributeKindForName(
            refused_attrs[a], strlen(refused_attrs[a]));
        if (!kind)
            continue;
        LLVMRemoveEnumAttributeAtIndex(fn, LLVMAttributeFunctionIndex, kind);
        LLVMRemoveEnumAttributeAtIndex(fn, LLVMAttributeReturnIndex, kind);
        for (unsigned p = 1; p <= np; p++)
            LLVMRemoveEnumAttributeAtIndex(fn, p, kind);
    }
}

static void strip_call_attrs(LLVMValueRef call)
{
    unsigned np = LLVMGetNumArgOperands(call);
    for (size_t a = 0; a < sizeof refused_attrs / sizeof refused_attrs[0];
         a++) {
        unsigned kind = LLVMGetEnumAttributeKindForName(
            refused_attrs[a], strlen(refused_attrs[a]));
        if (!kind)
            continue;
        LLVMRemoveCallSiteEnumAttribute(call, LLVMAttributeFunctionIndex,
                                        kind);
        LLVMRemoveCallSiteEnumAttribute(call, LLVMAttributeReturnIndex, kind);
        for (unsigned p = 1; p <= np; p++)
            LLVMRemoveCallSiteEnumAttribute(call, p, kind);
    }
}

/* fneg x -> fsub -0.0, x; freeze x -> x (NVVM has no poison to freeze:
 * its out-of-range fptosi gives the hardware's saturated value) */
static void rewrite(LLVMBuilderRef b, LLVMValueRef inst)
{
    LLVMOpcode op = LLVMGetInstructionOpcode(inst);
    LLVMValueRef x = LLVMGetOperand(inst, 0), r;
    if (op == LLVMFNeg) {
        LLVMPositionBuilderBefore(b, inst);
        r = LLVMBuildFSub(b, LLVMConstReal(LLVMTypeOf(x), -0.0), x, "");
    } else if (op == LLVMFreeze) {
        r = x;
    } else {
        return;
    }
    LLVMReplaceAllUsesWith(inst, r);
    LLVMInstructionEraseFromParent(inst);
}

void uf__nvvm_strip(LLVMModuleRef mod)
{
    LLVMContextRef ctx = LLVMGetModuleContext(mod);
    LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
    for (LLVMValueRef fn = LLVMGetFirstFunction(mod); fn;
         fn = LLVMGetNextFunction(fn)) {
        strip_fn_attrs(fn);
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb;
             bb = LLVMGetNextBasicBlock(bb)) {
            LLVMValueRef inst = LLVMGetFirstInstruction(bb);
            while (inst) {
                LLVMValueRef next = LLVMGetNextInstruction(inst);
                if (LLVMIsACallInst(inst))
                    strip_call_attrs(inst);
                else
                    rewrite(b, inst);
                inst = next;
            }
        }
    }
    LLVMDisposeBuilder(b);
}

/* True when every use of v (through constant casts) is a store to it. */
static bool only_stored_to(LLVMValueRef v)
{
    for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        if (LLVMIsAConstantExpr(user)) {
            if (!only_stored_to(user))
                return false;
        } else if (!LLVMIsAStoreInst(user) || LLVMGetOperand(user, 1) != v) {
            return false;
        }
    }
    return true;
}

static void erase_stores(LLVMValueRef v)
{
    LLVMUseRef u = LLVMGetFirstUse(v);
    while (u) {
        LLVMValueRef user = LLVMGetUser(u);
        u = LLVMGetNextUse(u);
        if (LLVMIsAConstantExpr(user))
            erase_stores(user);
        else
            LLVMInstructionEraseFromParent(user);
    }
}

/* The status slot (codegen_nvvm.h) of a kernel whose failure paths the
 * optimiser removed is only stored to: each thread of the launch would
 * still write the status pointer to the one address at its entry, a
 * store every warp makes to a single L2 line (the seed's tile transpose
 * ran at 37% of a device copy with it). Drop it. */
static void prune_status_slot(LLVMModuleRef mod)
{
    LLVMValueRef gv = LLVMGetNamedGlobal(mod, UF__NVVM_STATUS_GLOBAL);
    if (!gv || !only_stored_to(gv))
        return;
    erase_stores(gv);
    if (!LLVMGetFirstUse(gv))
        LLVMDeleteGlobal(gv);
}

void uf__nvvm_cleanup(LLVMModuleRef mod, int ir_major, int ir_minor)
{
    uf__nvvm_strip(mod);
    prune_status_slot(mod);
    uf__nvvm_trig_settle(mod);
    uf__nvvm_loop_hints(mod);
    LLVMContextRef ctx = LLVMGetModuleContext(mod);
    LLVMTypeRef i32 = LLVMInt32TypeInContext(ctx);
    LLVMValueRef v[2] = {LLVMConstInt(i32, (unsigned)ir_major, 0),
                         LLVMConstInt(i32, (unsigned)ir_minor, 0)};
    LLVMAddNamedMetadataOperand(mod, "nvvmir.version",
                                LLVMMDNodeInContext(ctx, v, 2));
}

bool uf__nvvm_uses_libdevice(LLVMModuleRef mod)
{
    for (LLVMValueRef fn = LLVMGetFirstFunction(mod); fn;
         fn = LLVMGetNextFunction(fn)) {
        size_t len;
        const char *name = LLVMGetValueName2(fn, &len);
        if (len > 5 && strncmp(name, "__nv_", 5) == 0 &&
            LLVMIsDeclaration(fn))
            return true;
    }
    return false;
}
