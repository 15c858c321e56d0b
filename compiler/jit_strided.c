/* The lazily compiled fused strided loop of a vectorize signature
 * (jit_strided.h): its compilation, and the slot that compiles it once, on
 * the first strided call, and publishes it to every thread. */
#include <stdio.h>
#include <string.h>

#include "common/alloc.h"
#include "common/error_internal.h"
#include "compiler/jit_strided.h"
#include "compiler/lower_loop.h"

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

/* A slot's state: IDLE (nothing tried, or a retry due), BUSY (one thread
 * compiling), READY (fn published), NEVER (the buffered path for good). */
enum { SLOT_IDLE, SLOT_BUSY, SLOT_READY, SLOT_NEVER };

uf__strided_slot *uf__strided_slot_new(const uf__ufunc_loop *loop, int nargs,
                                       uf__strided_compile_fn compile,
                                       void *cctx, int tag, uf_error *err)
{
    if (nargs < 1 || nargs > UF__UFUNC_MAXARGS) {
        uf__error_set(err, UF_ERR_INTERNAL, "strided slot: %d operands",
                      nargs);
        return NULL;
    }
    uf__strided_slot *s = uf__calloc(1, sizeof *s, err);
    if (!s)
        return NULL;
    s->desc = loop->aux;
    atomic_init(&s->fn, NULL);
    atomic_init(&s->state, SLOT_IDLE);
    atomic_init(&s->nt, NULL);
    atomic_init(&s->nt_state, SLOT_IDLE);
    atomic_init(&s->nts, NULL);
    atomic_init(&s->nts_state, SLOT_IDLE);
    s->compile = compile;
    s->cctx = cctx;
    s->tag = tag;
    s->ntypes = nargs;
    memcpy(s->types, loop->types, (size_t)nargs * sizeof s->types[0]);
    return s;
}

void uf__strided_slot_free(uf__strided_slot *s)
{
    uf__free(s);
}

/* Whether this thread moved *state from IDLE to BUSY: the one thread that
 * compiles the loop (the others go on without it meanwhile). */
static bool claim(atomic_int *state)
{
    int idle = SLOT_IDLE;
    return atomic_load_explicit(state, memory_order_relaxed) == SLOT_IDLE &&
           atomic_compare_exchange_strong(state, &idle, SLOT_BUSY);
}

/* After the compile: READY, IDLE again for a retry, or NEVER. */
static void settle(atomic_int *state, int rc, bool made)
{
    atomic_store(state, rc == 0 && made ? SLOT_READY
                        : rc == UF__STRIDED_RETRY ? SLOT_IDLE
                                                  : SLOT_NEVER);
}

uf__loop_strided_fn uf__strided_slot_get(uf__strided_slot *s)
{
    uf__loop_strided_fn fn = atomic_load_explicit(&s->fn,
                                                  memory_order_acquire);
    if (fn || !claim(&s->state))
        return fn; /* compiled elsewhere, or never */
    int rc = s->compile(s->cctx, s->tag, s->types, &fn);
    if (rc == 0 && fn)
        atomic_store_explicit(&s->fn, fn, memory_order_release);
    settle(&s->state, rc, fn != NULL);
    return rc == 0 ? fn : NULL;
}

uf__loop_contig_fn uf__strided_slot_stream(uf__strided_slot *s)
{
    uf__loop_contig_fn fn = atomic_load_explicit(&s->nt,
                                                 memory_order_acquire);
    if (fn || !s->compile_nt || !claim(&s->nt_state))
        return fn;
    bool blocked = false;
    int rc = s->compile_nt(s->cctx, s->tag, s->types, NULL, &fn, &blocked);
    /* run as the descriptor's contig is, or not at all */
    if (rc == 0 &&
        (blocked ? uf__loop_block(s->types, s->ntypes) : 0) != s->desc->block)
        rc = -1;
    if (rc == 0 && fn)
        atomic_store_explicit(&s->nt, fn, memory_order_release);
    settle(&s->nt_state, rc, fn != NULL);
    return rc == 0 ? fn : NULL;
}

uf__loop_contig_fn uf__strided_slot_stream_strided(uf__strided_slot *s,
                                                   const int64_t *strides)
{
    size_t bytes = (size_t)s->ntypes * sizeof strides[0];
    uf__loop_contig_fn fn = atomic_load_explicit(&s->nts,
                                                 memory_order_acquire);
    if (fn)
        return memcmp(strides, s->nts_strides, bytes) == 0 ? fn : NULL;
    if (!s->compile_nt || !claim(&s->nts_state))
        return NULL;
    memcpy(s->nts_strides, strides, bytes); /* read after nts's release */
    bool blocked = false;
    int rc = s->compile_nt(s->cctx, s->tag, s->types, s->nts_strides, &fn,
                           &blocked);
    if (rc == 0 && blocked)
        rc = -1;
    if (rc == 0 && fn)
        atomic_store_explicit(&s->nts, fn, memory_order_release);
    settle(&s->nts_state, rc, fn != NULL);
    return rc == 0 ? fn : NULL;
}
