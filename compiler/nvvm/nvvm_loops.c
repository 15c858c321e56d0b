/* Loop hints for the CUDA targets only. libnvvm runtime-unrolls a
 * guvectorize core's reduction loop (matvec's `acc += M[i, j] * v[j]`)
 * 4x and strength-reduces each copy's strides into 64-bit counters:
 * matvec's contiguous kernel needed 48 registers, 27 without the unroll.
 * A thread runs a core loop over a few elements, so the copies buy
 * nothing; loops that accumulate into a float local get
 * `llvm.loop.unroll.disable`, and so do loops doing an atomic (seed
 * 002's grid-stride histogram: 61 registers unrolled, numba-cuda 33):
 * the atomics serialise, and the copies' 64-bit index arithmetic costs
 * registers. Loops without one keep their unrolling:
 * disabling it on matmul's store loops cost 4-6 registers. The CPU keeps
 * its unrolling: the hint is added here, after the shared lowering. */
#include <stdlib.h>
#include <string.h>

#include <llvm-c/DebugInfo.h>

#include "common/alloc.h"
#include "compiler/nvvm/nvvm_internal.h"

/* A distinct loop ID: !0 = !{!0, !{!"llvm.loop.unroll.disable"}}; the
 * self reference is made through a temporary node. */
LLVMValueRef uf__nvvm_no_unroll_id(LLVMContextRef ctx)
{
    static const char hint[] = "llvm.loop.unroll.disable";
    LLVMMetadataRef tmp = LLVMTemporaryMDNode(ctx, NULL, 0);
    LLVMMetadataRef s = LLVMMDStringInContext2(ctx, hint, sizeof hint - 1);
    LLVMMetadataRef ops[2] = {tmp, LLVMMDNodeInContext2(ctx, &s, 1)};
    LLVMMetadataRef id = LLVMMDNodeInContext2(ctx, ops, 2);
    LLVMMetadataReplaceAllUsesWith(tmp, id); /* frees tmp */
    return LLVMMetadataAsValue(ctx, id);
}

typedef struct {
    unsigned n;       /* blocks, in layout order; 0 the entry */
    unsigned *succ;   /* the successors of block b: succ[off[b]..off[b+1]) */
    unsigned *off;
    unsigned *stack;
    bool *seen;
    bool *in_loop;
} cfg;

/* Whether a path from `from` reaches `to` without passing `avoid`
 * (g->n: none). */
static bool reaches(const cfg *g, unsigned from, unsigned to, unsigned avoid)
{
    memset(g->seen, 0, g->n * sizeof *g->seen);
    unsigned top = 0;
    g->stack[top++] = from;
    g->seen[from] = true;
    while (top) {
        unsigned b = g->stack[--top];
        if (b == to)
            return true;
        for (unsigned s = g->off[b]; s < g->off[b + 1]; s++) {
            unsigned t = g->succ[s];
            if (t != avoid && !g->seen[t]) {
                g->seen[t] = true;
                g->stack[top++] = t;
            }
        }
    }
    return false;
}

static bool dominates(const cfg *g, unsigned head, unsigned b)
{
    return head == 0 || head == b || !reaches(g, 0, b, head);
}

static LLVMValueRef float_local(LLVMValueRef inst)
{
    LLVMValueRef ptr;
    if (LLVMIsALoadInst(inst))
        ptr = LLVMGetOperand(inst, 0);
    else if (LLVMIsAStoreInst(inst))
        ptr = LLVMGetOperand(inst, 1);
    else
        return NULL;
    if (!LLVMIsAAllocaInst(ptr))
        return NULL;
    LLVMTypeKind k = LLVMGetTypeKind(LLVMGetAllocatedType(ptr));
    return k == LLVMHalfTypeKind || k == LLVMFloatTypeKind ||
                   k == LLVMDoubleTypeKind
               ? ptr
               : NULL;
}

/* Whether the loop `head`..`latch` loads a float local it also stores:
 * a reduction (the lowering keeps locals in allocas until the backend's
 * mem2reg). */
static bool accumulates(const cfg *g, LLVMBasicBlockRef *order,
                        unsigned head, unsigned latch)
{
    for (unsigned b = 0; b < g->n; b++)
        g->in_loop[b] = b == head || (dominates(g, head, b) &&
                                      reaches(g, b, latch, head));
    for (unsigned b = 0; b < g->n; b++) {
        if (!g->in_loop[b])
            continue;
        for (LLVMValueRef i = LLVMGetFirstInstruction(order[b]); i;
             i = LLVMGetNextInstruction(i)) {
            LLVMValueRef local = float_local(i);
            if (!local || !LLVMIsALoadInst(i))
                continue;
            for (unsigned c = 0; c < g->n; c++) {
                if (!g->in_loop[c])
                    continue;
                for (LLVMValueRef j = LLVMGetFirstInstruction(order[c]); j;
                     j = LLVMGetNextInstruction(j))
                    if (LLVMIsAStoreInst(j) && float_local(j) == local)
                        return true;
            }
        }
    }
    return false;
}

/* Whether the loop's blocks (g->in_loop, set by accumulates) do an
 * atomic: a call of nvvm_atomic.c's helpers, or an atomicrmw/cmpxchg. */
static bool has_atomic(const cfg *g, LLVMBasicBlockRef *order)
{
    static const char prefix[] = "uf__nvvm_atom_";
    for (unsigned b = 0; b < g->n; b++) {
        if (!g->in_loop[b])
            continue;
        for (LLVMValueRef i = LLVMGetFirstInstruction(order[b]); i;
             i = LLVMGetNextInstruction(i)) {
            if (LLVMIsAAtomicRMWInst(i) || LLVMIsAAtomicCmpXchgInst(i))
                return true;
            if (!LLVMIsACallInst(i))
                continue;
            LLVMValueRef callee = LLVMGetCalledValue(i);
            size_t len = 0;
            const char *name = callee ? LLVMGetValueName2(callee, &len) : "";
            if (len >= sizeof prefix - 1 &&
                strncmp(name, prefix, sizeof prefix - 1) == 0)
                return true;
        }
    }
    return false;
}

static unsigned index_of(LLVMBasicBlockRef *order, unsigned n,
                         LLVMBasicBlockRef bb)
{
    for (unsigned i = 0; i < n; i++)
        if (order[i] == bb)
            return i;
    return n;
}

/* The successor lists as block numbers; false when out of memory. */
static bool build_cfg(cfg *g, LLVMBasicBlockRef *order)
{
    unsigned ne = 0;
    for (unsigned b = 0; b < g->n; b++) {
        LLVMValueRef term = LLVMGetBasicBlockTerminator(order[b]);
        ne += term ? LLVMGetNumSuccessors(term) : 0;
    }
    g->succ = uf__malloc(ne + 1, sizeof *g->succ, NULL);
    g->off = uf__malloc(g->n + 1, sizeof *g->off, NULL);
    g->stack = uf__malloc(g->n, sizeof *g->stack, NULL);
    g->seen = uf__malloc(g->n, sizeof *g->seen, NULL);
    g->in_loop = uf__malloc(g->n, sizeof *g->in_loop, NULL);
    if (!g->succ || !g->off || !g->stack || !g->seen || !g->in_loop)
        return false;
    ne = 0;
    for (unsigned b = 0; b < g->n; b++) {
        g->off[b] = ne;
        LLVMValueRef term = LLVMGetBasicBlockTerminator(order[b]);
        unsigned ns = term ? LLVMGetNumSuccessors(term) : 0;
        for (unsigned s = 0; s < ns; s++) {
            unsigned t = index_of(order, g->n, LLVMGetSuccessor(term, s));
            if (t < g->n)
                g->succ[ne++] = t;
        }
    }
    g->off[g->n] = ne;
    return true;
}

/* A branch to a block that dominates it is a loop's back edge, its
 * terminator the latch the loop ID belongs on. */
static void mark_fn(LLVMContextRef ctx, LLVMValueRef fn, unsigned kind)
{
    cfg g = {.n = LLVMCountBasicBlocks(fn)};
    if (g.n < 2)
        return;
    LLVMBasicBlockRef *order = uf__malloc(g.n, sizeof *order, NULL);
    if (!order)
        return; /* a hint only: the kernel stays right without it */
    LLVMGetBasicBlocks(fn, order);
    if (!build_cfg(&g, order))
        goto done;
    for (unsigned p = 0; p < g.n; p++) {
        LLVMValueRef term = LLVMGetBasicBlockTerminator(order[p]);
        if (!term || !LLVMIsABranchInst(term) || LLVMGetMetadata(term, kind))
            continue;
        for (unsigned s = g.off[p]; s < g.off[p + 1]; s++) {
            unsigned t = g.succ[s];
            if (dominates(&g, t, p)) {
                if (accumulates(&g, order, t, p) || has_atomic(&g, order))
                    LLVMSetMetadata(term, kind, uf__nvvm_no_unroll_id(ctx));
                break;
            }
        }
    }
done:
    uf__free(g.in_loop);
    uf__free(g.seen);
    uf__free(g.stack);
    uf__free(g.off);
    uf__free(g.succ);
    uf__free(order);
}

void uf__nvvm_loop_hints(LLVMModuleRef mod)
{
    LLVMContextRef ctx = LLVMGetModuleContext(mod);
    unsigned kind = LLVMGetMDKindIDInContext(ctx, "llvm.loop", 9);
    for (LLVMValueRef fn = LLVMGetFirstFunction(mod); fn;
         fn = LLVMGetNextFunction(fn)) {
        size_t len;
        const char *name = LLVMGetValueName2(fn, &len);
        /* libdevice's own loops keep their tuning */
        if (LLVMIsDeclaration(fn) || (len > 5 && !strncmp(name, "__nv_", 5)))
            continue;
        mark_fn(ctx, fn, kind);
    }
}
