/* The fused strided loop of a vectorize signature, compiled lazily: only
 * the contiguous loop is compiled with a signature (lower_loop.h), and the
 * runtime (targets/cpu/loop_rt.c) runs other strides through buffers. The
 * first call whose strips have strided operands compiles, once, a loop
 * reading and writing them in place, which memory-bound kernels run
 * faster than gathers and scatters around the contiguous loop. */
#ifndef UF_COMPILER_JIT_STRIDED_H
#define UF_COMPILER_JIT_STRIDED_H

#include "common/loop.h"
#include "compiler/types/infer.h"
#include "compiler/host/jit.h"

/* Compiles the fused strided loop of `tf` (one module: one more
 * optimiser run in uf__jit_ncompiles), operand dtypes as
 * uf__jit_ufunc_contigs's. UF_ERR_UNSUPPORTED when the kernel must keep
 * the buffered path: fastmath=True or calls of libmvec's vector variants,
 * whose results depend on where an element falls in the vectorised loop
 * (the strided loop would not give the contiguous loop's bits). */
int uf__jit_ufunc_strided(uf__jit *jit, const uf__typed_func *tf,
                          const uf_dtype *out_types, uf__loop_strided_fn *fn,
                          uf_error *err);

#endif
