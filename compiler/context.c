/* uf_context's compilation state: the JIT and the compile cache, and the
 * lock that serialises compilation. */
#include "common/alloc.h"
#include "common/error_internal.h"
#include "compiler/context.h"

int uf__context_init(uf_context *ctx, const uf__runtime_symbol *host_rt,
                     int nhost_rt, uf_error *err)
{
    if (pthread_mutex_init(&ctx->lock, NULL) != 0)
        return uf__error_set(err, UF_ERR_INTERNAL, "cannot create a mutex");
    ctx->host_rt = host_rt;
    ctx->nhost_rt = nhost_rt;
    return 0;
}

void uf__context_fini(uf_context *ctx)
{
    /* the cache's loops live in the JIT's memory: cache first */
    uf__loop_cache_free(ctx->loops);
    uf__jit_free(ctx->jit);
    pthread_mutex_destroy(&ctx->lock);
}

uf__jit *uf__context_jit(uf_context *ctx, uf_error *err)
{
    if (ctx->jit == NULL)
        ctx->jit = uf__jit_new(ctx->host_rt, ctx->nhost_rt, err);
    return ctx->jit;
}

uf__loop_cache *uf__context_loops(uf_context *ctx, uf_error *err)
{
    if (ctx->loops == NULL)
        ctx->loops = uf__loop_cache_new(err);
    return ctx->loops;
}
