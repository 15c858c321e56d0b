/* ufjit/system.h: the target registry, the threading layer and the JIT's
 * host, for sysinfo and tools that must not reach into internals. */
#include <ufjit/system.h>

#include "common/error_internal.h"
#include "compiler/cache/build_id.h"
#include "compiler/context.h"
#include "compiler/nvvm/nvvm.h"
#include "targets/parallel/parallel.h"
#include "targets/target.h"

int uf_target_count(void)
{
    return uf__target_count();
}

const char *uf_target_name(int i)
{
    const uf__target *t = uf__target_at(i);
    return t != NULL ? t->name : NULL;
}

const char *uf_target_summary(int i)
{
    const uf__target *t = uf__target_at(i);
    return t != NULL ? t->summary : NULL;
}

bool uf_target_defined(const char *name)
{
    return name != NULL && uf__target_defined(name);
}

const char *uf_target_names(char *buf, size_t size)
{
    if (buf == NULL || size == 0)
        return buf;
    return uf__target_names(buf, size);
}

const char *uf_threading_layers_available(void)
{
    return uf__parallel_layers_available();
}

const char *uf_threading_layer(uf_error *err)
{
    if (uf__parallel_config_error(err) != 0)
        return NULL;
    return uf__parallel_layer();
}

int uf_threading_default_threads(void)
{
    return uf__parallel_default_threads();
}

const char *uf_llvm_version(void)
{
    return uf__llvm_version();
}

int uf_jit_host(uf_context *ctx, const char **cpu, const char **features,
                bool *libmvec, uf_error *err)
{
    uf_error local;
    if (err == NULL)
        err = &local;
    if (ctx == NULL)
        return uf__error_set(err, UF_ERR_INVALID, "uf_jit_host: NULL context");
    pthread_mutex_lock(&ctx->lock);
    uf__jit *jit = uf__context_jit(ctx, err);
    pthread_mutex_unlock(&ctx->lock);
    if (jit == NULL)
        return err->code;
    if (cpu != NULL)
        *cpu = uf__jit_host_cpu(jit);
    if (features != NULL)
        *features = uf__jit_host_features(jit);
    if (libmvec != NULL)
        *libmvec = uf__jit_have_mvec(jit);
    return 0;
}

const char *uf_jit_vector_math(uf_context *ctx, uf_error *err)
{
    uf_error local;
    if (err == NULL)
        err = &local;
    if (ctx == NULL) {
        uf__error_set(err, UF_ERR_INVALID, "uf_jit_vector_math: NULL context");
        return NULL;
    }
    pthread_mutex_lock(&ctx->lock);
    uf__jit *jit = uf__context_jit(ctx, err);
    pthread_mutex_unlock(&ctx->lock);
    return jit ? uf__jit_vector_math(jit) : NULL;
}

void uf_cuda_toolkit_info(uf_cuda_toolkit *out)
{
    const uf__nvvm_toolkit *t = uf__nvvm_toolkit_get();
    *out = (uf_cuda_toolkit){
        .libnvvm_path = t->libnvvm_path,
        .libnvvm_missing = t->libnvvm_why,
        .nvvm_version = {t->nvvm_major, t->nvvm_minor},
        .nvvm_ir_version = {t->nvvm_ir_major, t->nvvm_ir_minor},
        .libdevice_path = t->libdevice_path,
        .libdevice_missing = t->libdevice_why,
        .ptxas_path = t->ptxas_path,
        .ptxas_version = t->ptxas_version,
        .ptxas_missing = t->ptxas_why,
    };
}
