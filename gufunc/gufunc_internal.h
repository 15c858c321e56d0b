/* Private to the gufunc files: loop dispatch with the outputs in view
 * (gufunc.c) and the run over the loop space (gufunc_exec.c), used by the
 * call path (gufunc_call.c). The run is a function of a range of the loop
 * space so that a parallel runtime can share it out between threads. */
#ifndef UF_GUFUNC_GUFUNC_INTERNAL_H
#define UF_GUFUNC_GUFUNC_INTERNAL_H

#include "gufunc/gufunc.h"
#include "ndarray/iter.h"

const char *uf__gufunc_name(const uf__gufunc *g);
const uf__gufunc_layout *uf__gufunc_layout_of(const uf__gufunc *g);
uint64_t uf__gufunc_writable_inputs(const uf__gufunc *g);

/* Chooses the loop for a call: the first loop whose input types every
 * input casts to safely and whose output types the given outputs accept
 * under `casting` (out[o] is a given output's dtype, -1 when absent);
 * else, with a compile hook, one compiled for these types; else the first
 * loop the inputs alone accept (the caller's cast check then reports the
 * output); else UF_ERR_TYPE with NumPy's "not supported for the input
 * types" message. Loop pointers stay valid for the gufunc's life. */
int uf__gufunc_resolve_loop(uf__gufunc *g, const uf_dtype *in,
                            const int *out, uf_casting casting,
                            const uf__ufunc_loop **loop, uf_error *err);

/* axes=, axis= and keepdims= of opts (NULL: none) into *ax, checked;
 * `name` is the gufunc's, for messages. Fields past `where` are read
 * only as far as the caller's `size` says they exist. */
int uf__gufunc_read_axes(const char *name, const uf_call_options *opts,
                         uf__gufunc_axes *ax, uf_error *err);

/* Operand k's byte stride along loop axis `ax` of res->loop_shape (0
 * where it is broadcast, absent or of length 1), `a` being the array as
 * given (res->ops[k] maps its axes). */
int64_t uf__gufunc_loop_stride(const uf__gufunc_resolution *res, int k,
                               const uf_array *a, int ax);
/* Operand k's byte strides along its core dimensions into
 * out[0..L->core_ndim[k]), layout order (0 for a missing '?' one). */
void uf__gufunc_core_strides(const uf__gufunc_layout *L,
                             const uf__gufunc_resolution *res, int k,
                             const uf_array *a, int64_t *out);

/* A call ready to run: the iterator walks the loop dimensions only (each
 * operand's permuted loop axes, broadcast ones with stride 0); `dims` and
 * `steps` are the loop's arguments of gufunc.h with dims[0] left for the
 * strip length and steps[0..nargs) the iterator's strip strides. Nothing
 * in it changes while it runs, so threads may share it. */
typedef struct uf__gufunc_exec {
    const uf__ufunc_loop *loop;
    int nargs;
    const uf__iter *it;
    int ndims;             /* entries of dims: 1 + layout dimensions */
    const int64_t *dims;
    const int64_t *steps;
    int64_t size;          /* iterations of the loop space */
} uf__gufunc_exec;

/* Runs the loop over iterations [begin, end) of the loop space, in the
 * iterator's visiting order (a range may start and end inside a strip).
 * `dims` is scratch of x->ndims entries owned by the caller (one per
 * thread); `ctx` goes to the loop. Returns 0 or the loop's first nonzero
 * status (the run stops there). */
int uf__gufunc_run_range(const uf__gufunc_exec *x, int64_t begin,
                         int64_t end, int64_t *dims, uf__loop_ctx *ctx);

/* The loop space cut into "units" for threads: whole strips, or when
 * there are fewer strips than the threads want, `parts` pieces of each
 * strip that start at multiples of `blk` iterations (so that a loop
 * vectorised over iterations keeps the vector/remainder split of a serial
 * run). Consecutive units are one contiguous range of iterations. */
typedef struct uf__gufunc_split {
    int64_t len;     /* iterations per strip */
    int64_t nstrips;
    int64_t blk;     /* part boundaries are multiples of it */
    int64_t nblocks; /* blk-blocks per strip, rounded up */
    int64_t parts;   /* units per strip */
} uf__gufunc_split;

/* Aims at `pieces` units per strip (at most one per block). */
void uf__gufunc_split_init(uf__gufunc_split *sp, const uf__gufunc_exec *x,
                           int64_t pieces, int64_t blk);
int64_t uf__gufunc_split_units(const uf__gufunc_split *sp);
/* The iterations [*begin, *end) of units [ubegin, uend). */
void uf__gufunc_split_range(const uf__gufunc_split *sp, int64_t ubegin,
                            int64_t uend, int64_t *begin, int64_t *end);

/* The call path with the kernel's declared target (used when opts names
 * none): guvectorize kernels declared target='parallel'. */
int uf__gufunc_call_target(uf__gufunc *g, const char *target,
                           uf_array *const *inputs, int n_in,
                           uf_array **outputs, int n_out,
                           const uf_call_options *opts, uf_error *err);

/* Another function for `loop` given the call's loop arguments (dims[0]
 * unset), its number of iterations and the arrays the loop runs on (nin
 * + nout), on the caller's thread before the loop runs; NULL keeps
 * loop->fn (gufunc_specialise.h's core-shape variants). */
typedef uf__strided_loop (*uf__gufunc_pick_fn)(void *pick_ctx,
                                               const uf__ufunc_loop *loop,
                                               const int64_t *dims,
                                               const int64_t *steps,
                                               int64_t iterations,
                                               uf_array *const *ops);

/* uf__gufunc_call_target with a `pick` hook (may be NULL). */
int uf__gufunc_call_pick(uf__gufunc *g, const char *target,
                         uf__gufunc_pick_fn pick, void *pick_ctx,
                         uf_array *const *inputs, int n_in,
                         uf_array **outputs, int n_out,
                         const uf_call_options *opts, uf_error *err);

#endif
