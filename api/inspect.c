/* uf_func_inspect: the listings of each of a kernel's signatures (or the
 * one given), made by the kernel's kind (uf__kind_ops.inspect) under the
 * context lock. */
#include "common/alloc.h"
#include "common/error_internal.h"
#include "compiler/module.h"

char *uf_func_inspect(uf_func *f, const char *signature, unsigned what,
                      uf_error *err)
{
    if (f == NULL) {
        uf__error_set(err, UF_ERR_INVALID, "uf_func_inspect: NULL function");
        return NULL;
    }
    if (f->ops->inspect == NULL) {
        uf__error_set(err, UF_ERR_UNSUPPORTED,
                      "'%s' is a device function: inspect the kernel that "
                      "calls it (it is inlined there)", f->decl->name);
        return NULL;
    }
    if ((what & UF_INSPECT_PTX) && f->decl->kind != UF__K_VECTORIZE &&
        f->decl->kind != UF__K_GUVECTORIZE &&
        f->decl->kind != UF__K_CUDA_KERNEL) {
        uf__error_set(err, UF_ERR_UNSUPPORTED,
                      "'%s': PTX listings are made for vectorize and "
                      "guvectorize kernels and for cuda.jit kernels (the "
                      "cuda target compiles no other kind yet)",
                      f->decl->name);
        return NULL;
    }
    if (signature == NULL && f->decl->nsignatures == 0) {
        uf__error_set(err, UF_ERR_INVALID,
                      "'%s' declares no signatures: give one, e.g. %s",
                      f->decl->name, f->ops->example_signature);
        return NULL;
    }
    if (what == 0)
        what = UF_INSPECT_TYPES;
    uf__strbuf out = uf__strbuf_init(err);
    uf_context *ctx = f->module->ctx;
    pthread_mutex_lock(&ctx->lock);
    int rc = 0;
    if (signature != NULL)
        rc = f->ops->inspect(f, signature, what, &out, err);
    for (int i = 0; signature == NULL && rc == 0 &&
                    i < f->decl->nsignatures; i++)
        rc = f->ops->inspect(f, f->decl->signatures[i], what, &out, err);
    pthread_mutex_unlock(&ctx->lock);
    if (rc < 0) {
        uf__free(uf__strbuf_take(&out));
        return NULL;
    }
    return uf__strbuf_take(&out);
}
