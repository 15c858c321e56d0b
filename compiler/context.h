/* The uf_context internals shared by the module and call code. */
#ifndef UF_COMPILER_CONTEXT_H
#define UF_COMPILER_CONTEXT_H

#include <pthread.h>
#include <ufjit/kernel.h>

#include "compiler/cache/cache.h"
#include "compiler/host/jit.h"

struct uf_context {
    /* Serialises compilation (the JIT, the typed-function caches, the
     * loop cache, and the loop lists of lazily compiled ufuncs). */
    pthread_mutex_t lock;
    uf__jit *jit; /* made on first compile: `npy` tools never pay for it */
    /* compiled vectorize loops by (kernel, signature, target, options),
     * made with the JIT; lives as long as the context (loops point into
     * it) */
    uf__loop_cache *loops;
    /* the host runtime's helpers the JIT defines (uf__jit_new), handed
     * over by the layer that makes contexts (api/context.c) */
    const uf__runtime_symbol *host_rt;
    int nhost_rt;
};

/* The compiler's part of a new context (zeroed by the caller) and of its
 * end. */
int uf__context_init(uf_context *ctx, const uf__runtime_symbol *host_rt,
                     int nhost_rt, uf_error *err);
void uf__context_fini(uf_context *ctx);

/* The context's JIT, created on first use. Call with ctx->lock held. */
uf__jit *uf__context_jit(uf_context *ctx, uf_error *err);
/* The context's loop cache, created on first use; ctx->lock held. */
uf__loop_cache *uf__context_loops(uf_context *ctx, uf_error *err);

#endif
