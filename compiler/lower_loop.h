/* The ufunc loop's generated part (lower_loop.c) on its own: the
 * contiguous loop, for callers that pair it with uf__rt_loop themselves
 * (a uf__loop_desc in C memory passed as the loop's aux), so that nothing
 * but that loop is compiled per signature. */
#ifndef UF_COMPILER_LOWER_LOOP_H
#define UF_COMPILER_LOWER_LOOP_H

#include "compiler/lower.h"

/* Emits the external function `int name(int64_t n, char **ptrs)` running
 * `kernel` over n elements of unit stride at ptrs[0..nin+nout) (see
 * uf__lower_loop for the operands), its iterations declared independent
 * (uf__rt_loop checks that before calling it). NULL with err set. */
LLVMValueRef uf__lower_loop_contig(uf__lower *L, LLVMValueRef kernel,
                                   bool fallible, const uf_dtype *in,
                                   int nin, const uf_dtype *res, int nout,
                                   bool tuple_ret, const uf_dtype *out,
                                   const char *name, uf_error *err);

#endif
