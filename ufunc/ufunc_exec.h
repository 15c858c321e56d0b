/* Private to ufunc_call.c, ufunc_buffer.c and ufunc_split.c: a call whose
 * types, shapes and outputs are settled, ready to run over the iterator's
 * strips, and the cut of those strips into pieces that threads share
 * out. */
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
    uf_dtype dtypes[UF__LOOP_MAXARGS];
    bool buffered[UF__LOOP_MAXARGS];
    bool stream; /* uf__loop_ctx.stream for the loop calls */
} uf__ufunc_exec;

/* The iteration space as "units": each strip of `it` is cut into `pieces`
 * parts (1 unless there are too few strips for the threads), unit
 * strip * pieces + part. Parts start at multiples of UF__UFUNC_BUFSIZE
 * elements from the strip's start, so whichever way units are grouped,
 * every loop call (and every cast-buffer block) sees the same element
 * ranges' alignment as one serial run: the vector body and remainder of
 * the compiled loop cover the same elements, and results are identical. */
typedef struct uf__ufunc_split {
    const uf__iter *it;
    int64_t pieces;
    int64_t nblocks; /* UF__UFUNC_BUFSIZE blocks per strip, rounded up */
} uf__ufunc_split;

/* Visits the strips of a range of units, each with the element range the
 * units cover in it (consecutive units of one strip come as one range). */
typedef struct uf__ufunc_walk {
    const uf__ufunc_split *sp;
    uf__iter_cursor cur;
    int64_t unit, end;
} uf__ufunc_walk;

void uf__ufunc_split_init(uf__ufunc_split *sp, const uf__iter *it,
                          int64_t pieces);
int64_t uf__ufunc_split_units(const uf__ufunc_split *sp);
void uf__ufunc_walk_start(uf__ufunc_walk *w, const uf__ufunc_split *sp,
                          int64_t begin, int64_t end);
/* The next strip's pointers (nop of the iterator) in ptrs and its element
 * range [*first, *first + *n); false when the range is done. */
bool uf__ufunc_walk_next(uf__ufunc_walk *w, char **ptrs, int64_t *first,
                         int64_t *n);

/* Runs the loop on units [begin, end) of `sp` (operands: inputs, outputs,
 * then the mask if x->masked) through cast buffers of its own, so several
 * threads may run disjoint ranges at once. Returns 0 or a negative code
 * with err set; a loop's nonzero return stops the run and is stored in
 * *status (0 otherwise), the loop's own description in lctx->err. */
int uf__ufunc_run_buffered(const uf__ufunc_exec *x, uf__loop_ctx *lctx,
                           const uf__ufunc_split *sp, int64_t begin,
                           int64_t end, int *status, uf_error *err);

#endif
