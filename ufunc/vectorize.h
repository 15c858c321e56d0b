/* vectorize kernels as ufuncs: one JIT-compiled loop per signature, or
 * loops compiled on first use for exact input types. */
#ifndef UF_UFUNC_VECTORIZE_H
#define UF_UFUNC_VECTORIZE_H

#include <ufjit/kernel.h>

#include "compiler/cache/cache.h"
#include "compiler/host/jit.h"
#include "compiler/front/kmodule.h"
#include "compiler/module.h"
#include "ufunc/ufunc.h"

/* The loops of kernel `decl` (of module `km`, source text `text`) for the
 * parsed signatures sigs[0..n) (a NULL ret: inferred): each one from the
 * context's loop cache, the others compiled together in ONE module and
 * cached. Fills loops[i] and nouts[i], and entries[i] when `entries` is not
 * NULL (listings). On an error, *bad (may be NULL) is the index of the
 * signature at fault, else -1. Call with ctx->lock held. */
int uf__vectorize_loops(uf_context *ctx, uf__kmodule *km, const char *text,
                        size_t len, const uf__kernel_decl *decl, int n,
                        const uf__signature *sigs, uf__ufunc_loop *loops,
                        int *nouts, const uf__cached_loop **entries,
                        int *bad, uf_error *err);

/* The vectorize kind (compiler/module.h), and the loop its ufunc runs for
 * input dtypes `in` (f->nin entries): builds the ufunc and compiles as a
 * call would, and copies the loop (for ufunc methods such as reduce).
 * Takes the context lock. */
extern const uf__kind_ops uf__vectorize_kind;
int uf__vectorize_func_loop(uf_func *f, const uf_dtype *in,
                            uf__ufunc_loop *loop, uf_error *err);

#endif
