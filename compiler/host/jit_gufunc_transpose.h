/* Row accumulators in vector lanes (jit_gufunc_transpose.c): a jammed
 * matvec-like inner loop, K rows summed side by side one column at a time,
 * becomes a loop over blocks of W columns that loads W values of each row
 * as one vector, transposes each W rows in registers, and adds column by
 * column into vectors whose lane k is row k's sum: every row's adds in
 * the scalar loop's order, the same bits, W times fewer adds. */
#ifndef UF_COMPILER_JIT_GUFUNC_TRANSPOSE_H
#define UF_COMPILER_JIT_GUFUNC_TRANSPOSE_H

#include <stdint.h>

#include <llvm-c/Core.h>

/* Rewrites every single-block loop of `fn` that is exactly
 *
 *   j = phi [j0, pre], [j + 1, loop]            (exit: j + 1 == n)
 *   acc_k = phi [a_k, pre], [acc_k + row_k[j] * x[j], loop]   k < K
 *
 * with row_k[j] loads of one element type T whose addresses step by
 * sizeof(T) with j, x[j] one load shared by all K rows, nothing else
 * but address arithmetic, and K a multiple of W = vector_bytes /
 * sizeof(T) (operand orders of the adds and products kept as written).
 * The columns left over (n - j0 not a multiple of W) run in the original
 * loop. Returns how many loops were rewritten. */
int uf__gufunc_transpose(LLVMModuleRef mod, LLVMValueRef fn,
                         int vector_bytes, int64_t prefetch);

#endif
