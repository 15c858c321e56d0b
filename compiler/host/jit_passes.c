/* Optimisation pipelines per kind of compilation (see jit_passes.h).
 *
 * default<O3> runs about eighty passes; a vectorize loop over an inlined
 * kernel without loops of its own needs few of them: inline the kernel,
 * promote its variables, fold and simplify (instcombine makes the same
 * library-call simplifications as O3, e.g. pow(x, 0.5) -> sqrt, and
 * nothing here reassociates, so results stay bit-identical), canonical
 * induction variables (indvars: the remainder loop's exit test as O3
 * leaves it), vectorise, clean up. Measured (instructions per signature
 * in the optimiser, sapphirerapids): 6.0M -> 2.2M (rel_diff f64),
 * 7.4M -> 2.9M (hypot f64, gaussian_pdf f32), 12.4M -> ~6M
 * (polar_distance f32); the bench kernels' machine code is unchanged, the
 * test corpus's vectorises to the same width (operand order and register
 * choice may differ). The kernels' variables are promoted before they are
 * inlined (function(sroa) first): inlining their allocas made lifetime
 * markers, each an intrinsic declaration looked up by name (~4K
 * instructions); polar_distance float32 15.0M -> 14.1M per signature, the
 * same machine code. */
#include "compiler/host/jit_passes.h"

#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"

const char uf__passes_short[] =
    "function(sroa),always-inline,"
    "function(sroa,early-cse,instcombine,simplifycfg,loop-mssa(licm),"
    "loop(indvars),"
    "loop-vectorize,instcombine,simplifycfg)";

/* The short list without indvars, which was there for the remainder
 * loop's exit test: blocked loops (lower.h) have no remainder. */
const char uf__passes_blocked[] =
    "function(sroa),always-inline,"
    "function(sroa,early-cse,instcombine,simplifycfg,loop-mssa(licm),"
    "loop-vectorize,instcombine,simplifycfg)";

static int block_index(LLVMBasicBlockRef *blocks, int n, LLVMBasicBlockRef b)
{
    for (int i = 0; i < n; i++)
        if (blocks[i] == b)
            return i;
    return -1;
}

int uf__fn_back_edges(LLVMValueRef fn)
{
    int nblocks = (int)LLVMCountBasicBlocks(fn);
    if (nblocks == 0)
        return 0;
    LLVMBasicBlockRef *blocks = uf__malloc((size_t)nblocks, sizeof *blocks,
                                           NULL);
    /* per block: 0 unseen, 1 on the path, 2 done; the path's blocks and
     * the next successor of each to look at */
    int *state = uf__calloc((size_t)nblocks, 3 * sizeof(int), NULL);
    if (!blocks || !state) {
        uf__free(blocks);
        uf__free(state);
        return -1;
    }
    int *path = state + nblocks, *next = path + nblocks;
    LLVMGetBasicBlocks(fn, blocks);
    int n = 0, depth = 1;
    path[0] = 0; /* the entry block */
    next[0] = 0;
    state[0] = 1;
    while (depth > 0) {
        int b = path[depth - 1];
        LLVMValueRef term = LLVMGetBasicBlockTerminator(blocks[b]);
        unsigned ns = term ? LLVMGetNumSuccessors(term) : 0;
        if ((unsigned)next[depth - 1] >= ns) {
            state[b] = 2;
            depth--;
            continue;
        }
        int to = block_index(blocks, nblocks,
                             LLVMGetSuccessor(term, (unsigned)next[depth - 1]++));
        if (to < 0 || state[to] == 2)
            continue;
        if (state[to] == 1) {
            n++;
            continue;
        }
        state[to] = 1;
        path[depth] = to;
        next[depth] = 0;
        depth++;
    }
    uf__free(blocks);
    uf__free(state);
    return n;
}

const char *uf__passes_elementwise(LLVMModuleRef mod)
{
    const char *force = getenv("UFJIT_OPT_PIPELINE");
    if (force && strcmp(force, "default") == 0)
        return NULL;
    /* kernels (internal) without loops; each loop function (external)
     * one loop, the contiguous one; blocked ones are named "..._blk"
     * (lower_loop.c) */
    bool all_blocked = true;
    for (LLVMValueRef fn = LLVMGetFirstFunction(mod); fn;
         fn = LLVMGetNextFunction(fn)) {
        if (LLVMIsDeclaration(fn))
            continue;
        int n = uf__fn_back_edges(fn);
        int allowed = LLVMGetLinkage(fn) == LLVMInternalLinkage ? 0 : 1;
        if (n < 0 || n > allowed)
            return NULL;
        if (n == 1) {
            size_t len;
            const char *name = LLVMGetValueName2(fn, &len);
            all_blocked &= len > 4 && strcmp(name + len - 4, "_blk") == 0;
        }
    }
    return all_blocked ? uf__passes_blocked : uf__passes_short;
}
