/* uf_context: owns the JIT and the compile cache, and serialises
 * compilation. */
#include "common/alloc.h"
#include "common/error_internal.h"
#include "compiler/context.h"

uf_context *uf_context_new(uf_error *err)
{
    uf_context *ctx = uf__calloc(1, sizeof *ctx, err);
    if (ctx == NULL)
        return NULL;
    if (pthread_mutex_init(&ctx->lock, NULL) != 0) {
        uf__free(ctx);
        uf__error_set(err, UF_ERR_INTERNAL, "cannot create a mutex");
        return NULL;
    }
    return ctx;
}

void uf_context_free(uf_context *ctx)
{
    if (ctx == NULL)
        return;
    /* the cache's loops live in the JIT's memory: cache first */
    uf__loop_cache_free(ctx->loops);
    uf__jit_free(ctx->jit);
    pthread_mutex_destroy(&ctx->lock);
    uf__free(ctx);
}

uf__jit *uf__context_jit(uf_context *ctx, uf_error *err)
{
    if (ctx->jit == NULL)
        ctx->jit = uf__jit_new(err);
    return ctx->jit;
}

uf__loop_cache *uf__context_loops(uf_context *ctx, uf_error *err)
{
    if (ctx->loops == NULL)
        ctx->loops = uf__loop_cache_new(err);
    return ctx->loops;
}
