/* A ufunc: a list of typed inner loops plus NumPy's call machinery
 * (type resolution, broadcasting, output allocation, casting, where=).
 * It knows nothing about compilation: a kernel module fills its loops, or
 * compiles one on demand through the `compile` hook. */
#ifndef UF_UFUNC_UFUNC_H
#define UF_UFUNC_UFUNC_H

#include <stdbool.h>
#include <ufjit/kernel.h>

#include "common/loop.h"

/* Compiles a loop for the exact input types `in` (nin entries), filling
 * `out` (including output types). Returns 0 or a negative code with err. */
typedef int (*uf__ufunc_compile_fn)(void *compile_ctx, const uf_dtype *in,
                                    uf__ufunc_loop *out, uf_error *err);

typedef struct uf__ufunc uf__ufunc;

/* A ufunc with no loops yet. `compile` may be NULL (then only added loops
 * are used, as Numba's vectorize with signatures). */
uf__ufunc *uf__ufunc_new(const char *name, int nin, int nout,
                         uf__ufunc_compile_fn compile, void *compile_ctx,
                         uf_error *err);
void uf__ufunc_free(uf__ufunc *u);

/* Appends a loop; dispatch tries loops in the order they were added. */
int uf__ufunc_add_loop(uf__ufunc *u, const uf__ufunc_loop *loop,
                       uf_error *err);
int uf__ufunc_nloops(const uf__ufunc *u);
const uf__ufunc_loop *uf__ufunc_get_loop(const uf__ufunc *u, int i);
int uf__ufunc_nin(const uf__ufunc *u);
int uf__ufunc_nout(const uf__ufunc *u);
const char *uf__ufunc_name(const uf__ufunc *u);

/* Chooses the loop for these input dtypes as Numba does: the first loop
 * whose input types every input can be cast to safely; with none and a
 * compile hook, compiles (and appends) one for the exact input types.
 * Failure: UF_ERR_TYPE listing the input types and the loops available,
 * as NumPy's "ufunc 'f' not supported for the input types" message. */
int uf__ufunc_resolve(uf__ufunc *u, const uf_dtype *in,
                      const uf__ufunc_loop **loop, uf_error *err);
/* The loop an earlier uf__ufunc_resolve chose for exactly these input
 * dtypes, or NULL (not resolved yet, or not memoized: resolutions are
 * memoized for up to 8 inputs and the first 8 type combinations). Never
 * compiles, never blocks: a caller holding a lock only for a lazy ufunc's
 * compiles can call without it when this finds the loop. */
const uf__ufunc_loop *uf__ufunc_resolved(uf__ufunc *u, const uf_dtype *in);

/* The whole call; see uf_call in include/ufjit/kernel.h. */
int uf__ufunc_call(uf__ufunc *u, uf_array *const *inputs, int n_in,
                   uf_array **outputs, int n_out,
                   const uf_call_options *opts, uf_error *err);
/* The same with the kernel's declared target ("cpu", "parallel"; NULL:
 * cpu), used when opts->target is NULL. */
int uf__ufunc_call_target(uf__ufunc *u, const char *target,
                          uf_array *const *inputs, int n_in,
                          uf_array **outputs, int n_out,
                          const uf_call_options *opts, uf_error *err);

#endif
