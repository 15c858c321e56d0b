/* Private to ufunc_call.c and ufunc_buffer.c: a call whose types, shapes
 * and outputs are settled, ready to run over the iterator's strips. */
#ifndef UF_UFUNC_UFUNC_EXEC_H
#define UF_UFUNC_UFUNC_EXEC_H

#include <stdbool.h>

#include "ndarray/iter.h"
#include "ufunc/ufunc.h"

/* Elements per cast buffer, so at most this many per loop call on the
 * buffered path (NumPy's default buffer is 8192 elements). */
#define UF__UFUNC_BUFSIZE 4096

typedef struct uf__ufunc_exec {
    const uf__ufunc_loop *loop;
    int nin, nout;
    /* The iterator has one more operand after the outputs: the where
     * mask (bool); the loop runs only on its runs of True. */
    bool masked;
    /* Per loop operand: the array's own dtype, and whether it goes through
     * a cast buffer (dtype differs from the loop's, or unaligned). */
    uf_dtype dtypes[UF__UFUNC_MAXARGS];
    bool buffered[UF__UFUNC_MAXARGS];
    uf__loop_ctx *ctx;
} uf__ufunc_exec;

/* Runs the loop over every strip of `it` (operands: inputs, outputs, then
 * the mask if x->masked) through cast buffers. Returns 0 or a negative
 * code with err set; a loop's nonzero return stops the run and is stored
 * in *status (0 otherwise). */
int uf__ufunc_run_buffered(const uf__ufunc_exec *x, const uf__iter *it,
                           int *status, uf_error *err);

#endif
