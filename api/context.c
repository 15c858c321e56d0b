/* uf_context: the compiler's state wired to the host runtime, whose
 * helpers the compiler's generated code calls by name. */
#include "common/alloc.h"
#include "compiler/context.h"
#include "targets/cpu/cpu.h"

uf_context *uf_context_new(uf_error *err)
{
    uf_context *ctx = uf__calloc(1, sizeof *ctx, err);
    if (ctx == NULL)
        return NULL;
    int nrt;
    const uf__runtime_symbol *rt = uf__cpu_runtime_symbols(&nrt);
    if (uf__context_init(ctx, rt, nrt, err) != 0) {
        uf__free(ctx);
        return NULL;
    }
    return ctx;
}

void uf_context_free(uf_context *ctx)
{
    if (ctx == NULL)
        return;
    uf__context_fini(ctx);
    uf__free(ctx);
}
