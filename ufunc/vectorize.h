/* vectorize kernels as ufuncs: one JIT-compiled loop per signature, or
 * loops compiled on first use for exact input types. */
#ifndef UF_UFUNC_VECTORIZE_H
#define UF_UFUNC_VECTORIZE_H

#include "compiler/jit.h"
#include "compiler/kmodule.h"
#include "ufunc/ufunc.h"

/* Compiles one vectorize specialisation: `sig` a parsed signature (ret may
 * be NULL: inferred). Fills `loop` (types and function); `listing` may be
 * NULL. `tf_out` (may be NULL) receives the typed function. */
int uf__vectorize_compile(uf__kmodule *km, const uf__kernel_decl *decl,
                          uf__jit *jit, const uf__signature *sig,
                          uf__ufunc_loop *loop, int *nout,
                          uf__jit_listing *listing, uf__typed_func **tf_out,
                          uf_error *err);

#endif
