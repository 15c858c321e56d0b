/* Fast-math flags on LLVM instructions: LLVM-C 14 has no setter, so
 * compiler/host/llvm_fastmath.cpp (C++, LLVM's own API) provides one. Used for
 * kernels declared fastmath=True, as Numba: the flags go on every float
 * operation, comparison and float-valued call of that kernel's function
 * (callees keep their own decorator's setting). */
#ifndef UF_COMPILER_LLVM_FASTMATH_H
#define UF_COMPILER_LLVM_FASTMATH_H

#include <llvm-c/Core.h>

#ifdef __cplusplus
extern "C" {
#endif

/* LLVM's FastMathFlags, by Numba's names for them. */
enum {
    UF__FMF_REASSOC = 1u << 0,
    UF__FMF_NNAN = 1u << 1,
    UF__FMF_NINF = 1u << 2,
    UF__FMF_NSZ = 1u << 3,
    UF__FMF_ARCP = 1u << 4,
    UF__FMF_CONTRACT = 1u << 5,
    UF__FMF_AFN = 1u << 6,
    UF__FMF_FAST = (1u << 7) - 1 /* all of them: LLVM's `fast` */
};

/* Adds `flags` to every floating-point operation of `fn` (fneg, fadd,
 * fsub, fmul, fdiv, frem, fcmp, and phi/select/call of float type). */
void uf__llvm_fastmath_function(LLVMValueRef fn, unsigned flags);

/* The flags an instruction carries (0 for one that cannot carry any). */
unsigned uf__llvm_get_fmf(LLVMValueRef inst);
/* Sets them (nothing on an instruction that cannot carry any): a prange
 * reduction's float operations get reassoc (lower_prange.c). */
void uf__llvm_set_fmf(LLVMValueRef inst, unsigned flags);

#ifdef __cplusplus
}
#endif

#endif
