/* The lazily compiled fused strided loop of a vectorize signature
 * (jit_strided.h); the slot that compiles it once, on the first strided
 * call, is the runtime's (targets/cpu/strided_slot.c). */
#include <stdio.h>
#include <string.h>

#include "common/alloc.h"
#include "common/error_internal.h"
#include "compiler/host/jit_strided.h"
#include "compiler/lower/lower_loop.h"

/* Whether lowering declared a libmvec vector variant (lower_math.c
 * declares _ZGV* functions for the calls it tags). */
static bool uses_mvec(const uf__lower *L)
{
    for (LLVMValueRef f = LLVMGetFirstFunction(L->mod); f;
         f = LLVMGetNextFunction(f))
        if (strncmp(LLVMGetValueName(f), "_ZGV", 4) == 0)
            return true;
    return false;
}

/* What an element of the kernel costs beyond loads, stores and simple
 * arithmetic: divisions, square roots and calls (libm, runtime helpers)
 * count 1-2 each, a loop in the kernel 4, summed over the functions
 * lowered into L but `loop`. The vectorised contiguous loop runs such
 * work several elements per instruction, so past a little of it gathering
 * into buffers for it beats a scalar fused loop, memory-bound or not
 * (bench/bench_strided.c: hypot on x[::2], two divisions/roots, float32
 * x1.4 slower fused). */
static int kernel_cost(const uf__lower *L, LLVMValueRef loop)
{
    int cost = 0;
    for (LLVMValueRef f = LLVMGetFirstFunction(L->mod); f;
         f = LLVMGetNextFunction(f)) {
        if (f == loop || LLVMIsDeclaration(f))
            continue;
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb;
             bb = LLVMGetNextBasicBlock(bb)) {
            for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i;
                 i = LLVMGetNextInstruction(i)) {
                switch (LLVMGetInstructionOpcode(i)) {
                case LLVMFDiv: case LLVMFRem: case LLVMSDiv: case LLVMUDiv:
                case LLVMSRem: case LLVMURem:
                    cost += 1;
                    break;
                case LLVMCall: {
                    LLVMValueRef callee = LLVMGetCalledValue(i);
                    const char *nm = callee ? LLVMGetValueName(callee) : "";
                    if (strncmp(nm, "llvm.sqrt.", 10) == 0)
                        cost += 1;
                    else if (strncmp(nm, "llvm.", 5) != 0 &&
                             (!callee || LLVMIsDeclaration(callee)))
                        cost += 2; /* libm, runtime helpers */
                    break;
                }
                case LLVMBr:
                    /* a branch back to an earlier block: a loop */
                    for (unsigned k = 0; k < LLVMGetNumSuccessors(i); k++)
                        for (LLVMBasicBlockRef p = LLVMGetFirstBasicBlock(f);
                             p != bb; p = LLVMGetNextBasicBlock(p))
                            if (p == LLVMGetSuccessor(i, k))
                                cost += 4;
                    break;
                default:
                    break;
                }
            }
        }
    }
    return cost;
}

int uf__jit_ufunc_strided(uf__jit *jit, const uf__typed_func *tf,
                          const uf_dtype *out_types, uf__loop_strided_fn *fn,
                          uf_error *err)
{
    uf_error local;
    if (!err)
        err = &local;
    *fn = NULL;
    if (tf->decl && tf->decl->fastmath)
        return uf__error_set(err, UF_ERR_UNSUPPORTED,
                             "kernel '%s': no strided loop with fastmath",
                             tf->decl->name);
    uf__lower L;
    if (uf__jit_begin(jit, &L, err) != 0)
        return err->code;
    char name[64];
    snprintf(name, sizeof name, "%s_strided", L.prefix);
    if (uf__lower_ufunc_loop(&L, tf, out_types, name, UF__LOOP_PART_STRIDED,
                             err) != 0) {
        uf__jit_abort(&L);
        return err->code;
    }
    int cost = kernel_cost(&L, LLVMGetNamedFunction(L.mod, name));
    if (cost > 1) {
        uf__jit_abort(&L);
        return uf__error_set(err, UF_ERR_UNSUPPORTED,
                             "kernel '%s': buffered (cost %d)",
                             tf->decl ? tf->decl->name : "?", cost);
    }
    if (uses_mvec(&L)) {
        uf__jit_abort(&L);
        return uf__error_set(err, UF_ERR_UNSUPPORTED,
                             "kernel '%s': no strided loop with libmvec "
                             "calls", tf->decl ? tf->decl->name : "?");
    }
    const char *names[1] = {name};
    void *addr = NULL;
    if (uf__jit_finish(jit, &L, names, &addr, 1, NULL, err) != 0)
        return err->code;
    *fn = (uf__loop_strided_fn)(uintptr_t)addr;
    return 0;
}
