/* uf_func_inspect: typed source, optimised LLVM IR and host assembly of a
 * kernel's specialisations. */
#include <stdio.h>
#include <string.h>

#include "common/alloc.h"
#include "common/error_internal.h"
#include "common/strbuf.h"
#include "compiler/module.h"
#include "ufunc/vectorize.h"

/* Compiles one signature with listings and appends what was asked for. */
static int inspect_one(uf_func *f, const char *sigtext, unsigned what,
                       uf__strbuf *out, uf_error *err)
{
    uf__kmodule *km = f->module->km;
    uf__signature sig;
    if (uf__parse_signature(km->tc, km->arena, sigtext, &sig, err) < 0)
        return err->code;
    uf__jit *jit = uf__context_jit(f->module->ctx, err);
    if (jit == NULL)
        return err->code;
    uf__jit_listing listing = {NULL, NULL};
    uf__ufunc_loop loop;
    uf__typed_func *tf = NULL;
    int nout = 0, rc;
    rc = uf__vectorize_compile(km, f->decl, jit, &sig, &loop, &nout,
                               (what & (UF_INSPECT_LLVM | UF_INSPECT_ASM))
                                   ? &listing : NULL,
                               &tf, err);
    if (rc < 0)
        goto done;
    uf__strbuf_printf(out, "== %s %s ==\n", f->decl->name, sigtext);
    if (what & UF_INSPECT_TYPES) {
        char *dump = uf__typed_func_dump(tf, err);
        if (dump == NULL) {
            rc = err->code;
            goto done;
        }
        uf__strbuf_printf(out, "%s\n", dump);
        uf__free(dump);
    }
    if ((what & UF_INSPECT_LLVM) && listing.llvm_ir)
        uf__strbuf_printf(out, "%s\n", listing.llvm_ir);
    if ((what & UF_INSPECT_ASM) && listing.asm_text)
        uf__strbuf_printf(out, "%s\n", listing.asm_text);
    if (out->failed)
        rc = err->code;
done:
    uf__free(listing.llvm_ir);
    uf__free(listing.asm_text);
    return rc;
}

char *uf_func_inspect(uf_func *f, const char *signature, unsigned what,
                      uf_error *err)
{
    if (f == NULL) {
        uf__error_set(err, UF_ERR_INVALID, "uf_func_inspect: NULL function");
        return NULL;
    }
    if (f->decl->kind != UF__K_VECTORIZE) {
        uf__error_set(err, UF_ERR_UNSUPPORTED,
                      "'%s': only vectorize kernels can be inspected in "
                      "this version", f->decl->name);
        return NULL;
    }
    if (signature == NULL && f->decl->nsignatures == 0) {
        uf__error_set(err, UF_ERR_INVALID,
                      "'%s' declares no signatures: give one, e.g. "
                      "'float64(float64, float64)'", f->decl->name);
        return NULL;
    }
    if (what == 0)
        what = UF_INSPECT_TYPES;
    uf__strbuf out = uf__strbuf_init(err);
    uf_context *ctx = f->module->ctx;
    pthread_mutex_lock(&ctx->lock);
    int rc = 0;
    if (signature != NULL)
        rc = inspect_one(f, signature, what, &out, err);
    for (int i = 0; signature == NULL && rc == 0 &&
                    i < f->decl->nsignatures; i++)
        rc = inspect_one(f, f->decl->signatures[i], what, &out, err);
    pthread_mutex_unlock(&ctx->lock);
    if (rc < 0) {
        uf__free(uf__strbuf_take(&out));
        return NULL;
    }
    return uf__strbuf_take(&out);
}
