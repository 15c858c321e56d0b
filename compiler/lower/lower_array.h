/* Arrays in generated code (compiler/lower/lower_array.c).
 *
 * An array value of type array(dtype, ndim, layout) is the LLVM literal
 * struct
 *     { i8* data, [ndim x i64] shape, [ndim x i64] strides }
 * with strides in bytes, passed by value between kernel functions (they
 * are inlined, so SROA turns it into scalars). Writes go through `data`:
 * an array argument is a view of the caller's memory.
 *
 * The layout in the type is a promise the caller keeps: for 'C' the last
 * axis's stride is the itemsize, for 'F' the first's, and element
 * addresses may be computed from that constant (what makes inner loops
 * vectorise); for 'A' every stride is read from the struct. Whoever passes
 * an array typed 'C' or 'F' (the gufunc loop, the njit entry) must have
 * checked the real strides first. */
#ifndef UF_COMPILER_LOWER_ARRAY_H
#define UF_COMPILER_LOWER_ARRAY_H

#include "compiler/lower/lower.h"

/* The struct type above (ndim 0: { i8*, [0 x i64], [0 x i64] }). */
LLVMTypeRef uf__lower_array_type(uf__lower *L, int ndim);

/* Builds an array value at L->b's position from a data pointer (any
 * pointer type) and ndim i64 values each of shape and strides. */
LLVMValueRef uf__build_array(uf__lower *L, LLVMValueRef data,
                             const LLVMValueRef *shape,
                             const LLVMValueRef *strides, int ndim);

/* A module-level array (compiler/front/kmodule.h) read at `at`: a
 * C-contiguous array over a constant global of the module, in the codegen
 * target's const_as (lower_garray.c). NVVM refuses one past CUDA's 64 KiB
 * of constant memory. */
struct uf__garray;
LLVMValueRef uf__lower_garray(uf__fn *F, const struct uf__garray *ga,
                              const uf__expr *at);

#endif
