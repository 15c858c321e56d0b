/* Optimisation pipelines per kind of compilation (uf__lower.passes): the
 * full default<O3> costs more than code generation needs for the simple
 * loops vectorize kernels make, so those get a shorter list that gives the
 * same vector loops (tests/test_jit_passes.c checks both). */
#ifndef UF_COMPILER_JIT_PASSES_H
#define UF_COMPILER_JIT_PASSES_H

#include <llvm-c/Core.h>

/* The pipeline for a module of vectorize loops (uf__jit_ufunc_contigs,
 * uf__jit_ufunc_loop), chosen from its contents: a short list when the
 * kernels have no loops of their own (a loop inside a kernel can need
 * O3's loop passes -- full unrolling, rotation -- before the outer loop
 * vectorises), else NULL (default<O3>). The environment variable
 * UFJIT_OPT_PIPELINE=default forces default<O3> (for comparisons). */
const char *uf__passes_elementwise(LLVMModuleRef mod);

/* The loops of `fn`: edges to a block on the depth-first search's path
 * from the entry (retreating edges); -1 when out of memory. */
int uf__fn_back_edges(LLVMValueRef fn);

/* The short list itself, as text for LLVMRunPasses; uf__passes_blocked,
 * the one uf__passes_elementwise gives when every loop is blocked
 * (lower.h): no indvars, and code generation without machine LICM (its
 * loops call vector math, which clobbers every vector register: a hoisted
 * constant is only spilled and reloaded, and the pass was a fifth of code
 * generation there). */
extern const char uf__passes_short[];
extern const char uf__passes_blocked[];

#endif
