/* A gufunc: a layout, a list of typed inner loops and NumPy's gufunc call
 * machinery (type resolution, core-dimension binding through core_dims.c,
 * loop-dimension broadcasting, output allocation, casting). Like
 * ufunc/ufunc.h it knows nothing about compilation: guvectorize kernels
 * fill its loops or compile one on demand through the `compile` hook.
 *
 * Inner-loop convention (NumPy's gufunc loops, PyUFuncGenericFunction
 * with int64 steps), with the uf__strided_loop type of ufunc/loop.h:
 *   data[k]          operand k's first core element of the strip
 *                    (k < nargs = nin + nout);
 *   dims[0]          the strip length N (loop iterations);
 *   dims[1 + d]      the size of layout dimension d (d < layout->ndims, in
 *                    the layout's order of first appearance); a missing
 *                    flexible dimension has size 1;
 *   steps[k]         operand k's stride between iterations (bytes, 0 when
 *                    broadcast);
 *   steps[nargs + layout->core_offset[k] + c]
 *                    operand k's stride along its c-th core dimension
 *                    (layout order; 0 for a missing flexible one).
 * The loop runs the kernel N times and returns 0 or a nonzero status. */
#ifndef UF_GUFUNC_GUFUNC_H
#define UF_GUFUNC_GUFUNC_H

#include "compiler/front/layout.h"
#include "ufunc/ufunc.h"

typedef struct uf__gufunc uf__gufunc;

/* Compiles a loop for the operand dtypes `types` (nin inputs, then nout
 * outputs, an output being -1 when the caller gave none: the hook decides
 * its dtype). Fills `out` including every output type. */
typedef int (*uf__gufunc_compile_fn)(void *compile_ctx, const int *types,
                                     uf__ufunc_loop *out, uf_error *err);

/* A gufunc with no loops. `layout` is borrowed and must outlive it.
 * `compile` may be NULL (only added loops are used). */
uf__gufunc *uf__gufunc_new(const char *name, const uf__gufunc_layout *layout,
                           uf__gufunc_compile_fn compile, void *compile_ctx,
                           uf_error *err);
void uf__gufunc_free(uf__gufunc *g);

/* guvectorize writable_args=: bit i marks input i as read-write, as
 * NumPy's READWRITE operands: it must be writeable, a converted copy is
 * written back after the loop (an unsafe cast, as NumPy's write-back),
 * and no copy is made for overlapping an output. */
void uf__gufunc_set_writable_inputs(uf__gufunc *g, uint64_t mask);

/* Appends a loop (types: nin then nout dtypes); dispatch tries loops in
 * the order they were added, as Numba: the first whose input types every
 * input can be cast to safely (outputs given must accept the loop's
 * output types under the call's casting rule). */
int uf__gufunc_add_loop(uf__gufunc *g, const uf__ufunc_loop *loop,
                        uf_error *err);
int uf__gufunc_nloops(const uf__gufunc *g);
const uf__ufunc_loop *uf__gufunc_get_loop(const uf__gufunc *g, int i);

/* The whole call, see uf_call in include/ufjit/kernel.h: resolves the loop
 * (compiling through the hook when none fits), casts inputs to the loop's
 * types, resolves core and loop dimensions (opts->gufunc_axes, axes for
 * axis=, keepdims), allocates absent outputs (as NumPy: core dims
 * innermost and C-contiguous, loop dims outside them in the K order of
 * the other operands' strides), checks given ones, and runs the loop
 * over every strip of the loop dimensions. A zero-size loop space runs
 * nothing; outputs are still allocated. Errors name the gufunc, the
 * operands and the shapes. */
int uf__gufunc_call(uf__gufunc *g, uf_array *const *inputs, int n_in,
                    uf_array **outputs, int n_out,
                    const uf_call_options *opts, uf_error *err);

#endif
