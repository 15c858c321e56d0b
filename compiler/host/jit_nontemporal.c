/* The streaming variant of the contiguous loop (jit_nontemporal.h): its
 * compilation, and the pass over the optimised module that makes the
 * vectorised loop's output stores non-temporal. */
#include <stdio.h>
#include <string.h>

#include "common/error_internal.h"
#include "compiler/host/jit_nontemporal.h"
#include "compiler/host/jit_passes.h"
#include "compiler/lower/lower_loop.h"

static LLVMValueRef strip_casts(LLVMValueRef v)
{
    while (LLVMIsABitCastInst(v) || LLVMIsAAddrSpaceCastInst(v))
        v = LLVMGetOperand(v, 0);
    return v;
}

/* Whether `v` is the vectoriser's induction variable counting from 0 in
 * steps of a multiple of `mult` (elements): phi [0, preheader],
 * [phi + step, latch]. */
static bool whole_vector_index(LLVMValueRef v, long long mult)
{
    if (!LLVMIsAPHINode(v) || LLVMCountIncoming(v) != 2)
        return false;
    bool start = false, step = false;
    for (unsigned k = 0; k < 2; k++) {
        LLVMValueRef in = LLVMGetIncomingValue(v, k);
        if (LLVMIsAConstantInt(in)) {
            start = LLVMConstIntGetSExtValue(in) == 0;
            continue;
        }
        if (!LLVMIsAInstruction(in) ||
            LLVMGetInstructionOpcode(in) != LLVMAdd)
            return false;
        LLVMValueRef a = LLVMGetOperand(in, 0), b = LLVMGetOperand(in, 1);
        LLVMValueRef c = a == v ? b : b == v ? a : NULL;
        step = c && LLVMIsAConstantInt(c) &&
               LLVMConstIntGetSExtValue(c) % mult == 0;
    }
    return start && step;
}

/* Whether the address `ptr` of a store of `size` bytes is a multiple of
 * `align` once the pointer it indexes is: a chain of one-index GEPs over a
 * loaded pointer whose indices are constants and one whole-vector
 * induction variable, every one of them a multiple of `align` in bytes. */
static bool aligned_address(LLVMTargetDataRef td, LLVMValueRef ptr,
                            unsigned long long size, unsigned long long align)
{
    int nphi = 0;
    LLVMValueRef p = strip_casts(ptr);
    while (LLVMIsAGetElementPtrInst(p)) {
        if (LLVMGetNumIndices(p) != 1)
            return false;
        LLVMTypeRef ety = LLVMGetGEPSourceElementType(p);
        unsigned long long esz = LLVMABISizeOfType(td, ety);
        LLVMValueRef idx = LLVMGetOperand(p, 1);
        if (esz == 0 || size % esz != 0)
            return false;
        if (LLVMIsAConstantInt(idx)) {
            long long bytes = LLVMConstIntGetSExtValue(idx) * (long long)esz;
            if (bytes % (long long)align != 0)
                return false;
        } else if (!whole_vector_index(idx, (long long)(size / esz)) ||
                   ++nphi > 1) {
            return false;
        }
        p = strip_casts(LLVMGetOperand(p, 0));
    }
    /* the operand's pointer, loaded from the loop's ptrs[] (never an
     * alloca of the kernel: stack stores stay cached) */
    return nphi == 1 && LLVMIsALoadInst(p);
}

int uf__jit_mark_nontemporal(LLVMModuleRef mod)
{
    LLVMContextRef ctx = LLVMGetModuleContext(mod);
    LLVMTargetDataRef td = LLVMGetModuleDataLayout(mod);
    unsigned kind = LLVMGetMDKindIDInContext(ctx, "nontemporal", 11);
    LLVMMetadataRef one = LLVMValueAsMetadata(
        LLVMConstInt(LLVMInt32TypeInContext(ctx), 1, 0));
    LLVMValueRef node = LLVMMetadataAsValue(ctx,
                                            LLVMMDNodeInContext2(ctx, &one, 1));
    int marked = 0;
    for (LLVMValueRef f = LLVMGetFirstFunction(mod); f;
         f = LLVMGetNextFunction(f))
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb;
             bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i;
                 i = LLVMGetNextInstruction(i)) {
                if (!LLVMIsAStoreInst(i))
                    continue;
                LLVMTypeRef vty = LLVMTypeOf(LLVMGetOperand(i, 0));
                if (LLVMGetTypeKind(vty) != LLVMVectorTypeKind)
                    continue;
                unsigned long long size = LLVMStoreSizeOfType(td, vty);
                unsigned long long align =
                    size < UF__NT_ALIGN ? size : UF__NT_ALIGN;
                /* x86 streams 16 bytes and more (4 and 8 only as
                 * integers) */
                if (size < 16 || (size & (size - 1)) != 0 ||
                    !aligned_address(td, LLVMGetOperand(i, 1), size, align))
                    continue;
                LLVMSetAlignment(i, (unsigned)align);
                LLVMSetMetadata(i, kind, node);
                marked++;
            }
    return marked;
}

int uf__jit_ufunc_stream(uf__jit *jit, const uf__typed_func *tf,
                         const uf_dtype *out_types, const int64_t *strides,
                         uf__loop_contig_fn *fn, bool *blocked,
                         uf_error *err)
{
    uf_error local;
    if (!err)
        err = &local;
    *fn = NULL;
    *blocked = false;
    uf__lower L;
    if (uf__jit_begin(jit, &L, err) != 0)
        return err->code;
    char name[64];
    snprintf(name, sizeof name, "%s_nt", L.prefix);
    L.contig_strides = strides;
    if (uf__lower_ufunc_loop(&L, tf, out_types, name, UF__LOOP_PART_CONTIG,
                             err) != 0) {
        uf__jit_abort(&L);
        return err->code;
    }
    if (!LLVMGetNamedFunction(L.mod, name)) { /* blocked: name + "_blk" */
        size_t len = strlen(name);
        memcpy(name + len, "_blk", 5);
        *blocked = true;
    }
    if (*blocked && strides) {
        /* vector math: the padded last block (uf__rt_blocked) takes unit
         * strides only, and a remainder through scalar libm would give
         * other bits than the contiguous loop */
        uf__jit_abort(&L);
        return uf__error_set(err, UF_ERR_UNSUPPORTED,
                             "kernel '%s': no strided streaming loop with "
                             "vector math", tf->decl ? tf->decl->name : "?");
    }
    L.passes = uf__passes_elementwise(L.mod);
    L.nontemporal = true;
    const char *names[1] = {name};
    void *addr = NULL;
    if (uf__jit_finish(jit, &L, names, &addr, 1, NULL, err) != 0)
        return err->code;
    if (L.nontemporal_stores == 0)
        return uf__error_set(err, UF_ERR_UNSUPPORTED,
                             "kernel '%s': no store to stream",
                             tf->decl ? tf->decl->name : "?");
    *fn = (uf__loop_contig_fn)(uintptr_t)addr;
    return 0;
}
