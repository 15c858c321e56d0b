/* uf_module_load / uf_module_from_string / uf_module_free: the compiler's
 * module (compiler/module.c) with its functions' kinds from api/kinds.c.
 * Freeing releases what each kind built, and the reduction loops any
 * kernel's ufunc methods built (reduce/). */
#include <string.h>

#include "api/kinds.h"
#include "common/alloc.h"
#include "common/error_internal.h"
#include "reduce/reduce.h"

uf_module *uf_module_load(uf_context *ctx, const char *path, uf_error *err)
{
    if (ctx == NULL || path == NULL) {
        uf__error_set(err, UF_ERR_INVALID, "context or path is NULL");
        return NULL;
    }
    size_t len = 0;
    char *text = uf__module_read_file(path, &len, err);
    if (text == NULL)
        return NULL;
    return uf__module_new(ctx, path, text, len, uf__kinds, err);
}

uf_module *uf_module_from_string(uf_context *ctx, const char *name,
                                 const char *source, uf_error *err)
{
    if (ctx == NULL || source == NULL) {
        uf__error_set(err, UF_ERR_INVALID, "context or source is NULL");
        return NULL;
    }
    if (strnlen(source, UF__MAX_SOURCE_BYTES + 1) > UF__MAX_SOURCE_BYTES) {
        uf__error_set(err, UF_ERR_LIMIT, "%s: the source is larger "
                      "than the %d MiB kernel sources may have",
                      name ? name : "<string>", UF__MAX_SOURCE_BYTES >> 20);
        return NULL;
    }
    char *text = uf__strdup(source, err);
    if (text == NULL)
        return NULL;
    return uf__module_new(ctx, name ? name : "<string>", text, strlen(text),
                          uf__kinds, err);
}

void uf_module_free(uf_module *m)
{
    if (m == NULL)
        return;
    for (int i = 0; i < m->nfuncs; i++) {
        uf_func *f = &m->funcs[i];
        if (f->ops->release != NULL)
            f->ops->release(f);
        uf__reduce_func_release(f);
    }
    uf__module_free(m);
}
