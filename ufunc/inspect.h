/* Listings of kernels (uf_func_inspect, api/inspect.c): vectorize
 * kernels from the context's loop cache (inspect.c); the other kinds
 * compiled afresh (inspect_kinds.c), each kind saying how. */
#ifndef UF_UFUNC_INSPECT_H
#define UF_UFUNC_INSPECT_H

#include "common/strbuf.h"
#include "compiler/host/jit.h"
#include "compiler/module.h"
#include "compiler/nvvm/nvvm.h"
#include "compiler/types/types.h"

/* How a kind (gufunc/, reduce/, njit/) compiles one signature for its
 * listing. */
typedef struct uf__inspect_kind {
    /* 0, or the signature does not suit the kind (err set); may be NULL */
    int (*check)(const uf_func *f, const uf__signature *sig, uf_error *err);
    /* the typing takes no declared result (guvectorize kernels return
     * nothing whatever their signature says) */
    bool no_result;
    int (*compile)(uf_func *f, const uf__typed_func *tf, uf__jit *jit,
                   const uf__signature *sig, uf__jit_listing *listing,
                   uf_error *err);
    /* appends the PTX listing of the signature (--ptx); NULL: the kind
     * has no CUDA kernels */
    int (*ptx)(uf_func *f, const uf__signature *sig, uf__strbuf *out,
               uf_error *err);
} uf__inspect_kind;

/* Appends the listings `what` (UF_INSPECT_*) of f for one signature to
 * out: the typed source, then what k compiles. Called with the context
 * lock held. */
int uf__inspect_compiled(uf_func *f, const char *sigtext, unsigned what,
                         const uf__inspect_kind *k, uf__strbuf *out,
                         uf_error *err);

/* Compiles specs[0..n) as one PTX module and appends it, headed by the
 * backend and architecture, then ptxas -v's report for that architecture
 * (registers per kernel) or why there is none. */
int uf__inspect_append_ptx(uf__strbuf *out, const uf__nvvm_spec *specs,
                           int n, uf_error *err);
/* The same, compiled with `opts` (may be NULL). */
int uf__inspect_append_ptx_opts(uf__strbuf *out, const uf__nvvm_spec *specs,
                                int n, const uf__nvvm_options *opts,
                                uf_error *err);

/* The vectorize kind's inspect op (uf__kind_ops.inspect). */
int uf__vectorize_inspect(uf_func *f, const char *sigtext, unsigned what,
                          uf__strbuf *out, uf_error *err);

#endif
