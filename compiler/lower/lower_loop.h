/* The ufunc loop's generated part (lower_loop.c) on its own: the
 * contiguous loop, for callers that pair it with uf__rt_loop themselves
 * (a uf__loop_desc in C memory passed as the loop's aux), so that nothing
 * but that loop is compiled per signature. */
#ifndef UF_COMPILER_LOWER_LOOP_H
#define UF_COMPILER_LOWER_LOOP_H

#include "compiler/lower/lower.h"

/* Emits the external function `int name(int64_t n, char **ptrs)` running
 * `kernel` over n elements of unit stride at ptrs[0..nin+nout) (see
 * uf__lower_loop for the operands), its iterations declared independent
 * (uf__rt_loop checks that before calling it); for kernels calling vector
 * math a blocked loop named `name` + "_blk" instead (lower.h). NULL with
 * err set. */
LLVMValueRef uf__lower_loop_contig(uf__lower *L, LLVMValueRef kernel,
                                   bool fallible, const uf_dtype *in,
                                   int nin, const uf_dtype *res, int nout,
                                   bool tuple_ret, const uf_dtype *out,
                                   const char *name, uf_error *err);

/* Emits the external function
 *   int name(int64_t n, char **ptrs, const int64_t *strides)
 * running `kernel` over n elements at ptrs[k] + i * strides[k] in order,
 * one element at a time, scalar (the fused strided loop uf__rt_loop takes
 * instead of gathering into buffers, or instead of contig element by
 * element when iterations depend on each other). NULL with err set. */
LLVMValueRef uf__lower_loop_strided(uf__lower *L, LLVMValueRef kernel,
                                    bool fallible, const uf_dtype *in,
                                    int nin, const uf_dtype *res, int nout,
                                    bool tuple_ret, const uf_dtype *out,
                                    const char *name, uf_error *err);

/* Which loop uf__lower_ufunc_loop (jit.c) emits around a vectorize
 * kernel: the whole uf__strided_loop (contig, strided, descriptor and the
 * `loop` wrapper), the contiguous loop alone, or the fused strided loop
 * alone. */
typedef enum uf__loop_part {
    UF__LOOP_PART_WHOLE = 0,
    UF__LOOP_PART_CONTIG = 1,
    UF__LOOP_PART_STRIDED = 2
} uf__loop_part;

/* Lowers the typed kernel `tf` (scalar arguments, a scalar or tuple of
 * scalars result) with `part` of its loop named `name` into L, outputs
 * converted to out_types. Returns 0 or err's code. */
int uf__lower_ufunc_loop(uf__lower *L, const uf__typed_func *tf,
                         const uf_dtype *out_types, const char *name,
                         uf__loop_part part, uf_error *err);

#endif
