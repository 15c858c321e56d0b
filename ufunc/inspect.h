/* Listings of kernels (uf_func_inspect, ufunc/inspect.c): vectorize
 * kernels from the context's loop cache; the other kinds here. */
#ifndef UF_UFUNC_INSPECT_H
#define UF_UFUNC_INSPECT_H

#include "common/strbuf.h"
#include "compiler/module.h"

/* Appends the listings `what` (UF_INSPECT_*) of a guvectorize, njit or
 * reduce kernel for one signature to out, compiling it afresh. Called
 * with the context lock held. */
int uf__inspect_other(uf_func *f, const char *sigtext, unsigned what,
                      uf__strbuf *out, uf_error *err);

#endif
