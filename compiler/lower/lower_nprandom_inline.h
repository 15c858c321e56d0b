/* Single draws of np.random emitted inline (lower_nprandom_inline.c). */
#ifndef UF_COMPILER_LOWER_NPRANDOM_INLINE_H
#define UF_COMPILER_LOWER_NPRANDOM_INLINE_H

#include "compiler/lower/lower.h"

/* np.random.random(): a float64 in [0, 1) from two words. */
LLVMValueRef uf__emit_random_double(uf__fn *F);

/* np.random.randint(lo, hi) of i64 bounds in width bits (Numba's widest
 * of the two types): lo + a draw below the width-bit difference, as an
 * i64 (the caller truncates). *status gets an i32, 0 or
 * UF__NPRANDOM_EMPTY_RANGE, for the caller to raise. */
LLVMValueRef uf__emit_randint_one(uf__fn *F, LLVMValueRef lo, LLVMValueRef hi,
                                  int width, LLVMValueRef *status);

#endif
