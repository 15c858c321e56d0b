/* Control-flow graphs of LLVM functions, for the passes ufjit runs over
 * its own IR through LLVM-C (which has no loop analysis): the unroll-and-jam
 * marking of gufunc kernels (lower_gufunc_loop.c) and the software
 * prefetches of specialised gufunc loops (jit_gufunc_spec_prefetch.c). */
#ifndef UF_COMPILER_LLVM_CFG_H
#define UF_COMPILER_LLVM_CFG_H

#include <stdbool.h>

#include <llvm-c/Core.h>
#include <ufjit/error.h>

/* The blocks of a function in layout order (bb[0] the entry) and, for
 * each, its predecessors (indices, CSR: preds[pstart[b] .. pstart[b + 1])). */
typedef struct uf__cfg {
    int n;
    LLVMBasicBlockRef *bb;
    int *pstart, *preds;
} uf__cfg;

/* Fills g for fn; false when out of memory (free with uf__cfg_free). */
bool uf__cfg_build(uf__cfg *g, LLVMValueRef fn, uf_error *err);
void uf__cfg_free(uf__cfg *g);
/* The index of block b, or -1. */
int uf__cfg_block(const uf__cfg *g, LLVMBasicBlockRef b);
/* The natural loop of the edge latch -> head: in[b] for the blocks that
 * reach the latch without passing the head (stack: g->n entries of
 * scratch). False when the entry reaches the latch so (the head does not
 * dominate the latch: a branch such as `continue`, not a loop). */
bool uf__cfg_natural_loop(const uf__cfg *g, int head, int latch, bool *in,
                          int *stack);

#endif
