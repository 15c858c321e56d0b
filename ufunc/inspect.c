/* uf_func_inspect: typed source, optimised LLVM IR and host assembly of a
 * kernel's specialisations. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "common/alloc.h"
#include "common/error_internal.h"
#include "compiler/module.h"
#include "ufunc/vectorize.h"

/* A growing string. */
typedef struct text {
    char *s;
    size_t len, cap;
} text;

static int append(text *t, uf_error *err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int append(text *t, uf_error *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (t->len + (size_t)n + 1 > t->cap) {
        size_t cap = t->cap ? t->cap : 256;
        while (cap < t->len + (size_t)n + 1)
            cap *= 2;
        char *s = uf__realloc(t->s, cap, 1, err);
        if (s == NULL)
            return err->code;
        t->s = s;
        t->cap = cap;
    }
    va_start(ap, fmt);
    vsnprintf(t->s + t->len, t->cap - t->len, fmt, ap);
    va_end(ap);
    t->len += (size_t)n;
    return 0;
}

/* Compiles one signature with listings and appends what was asked for. */
static int inspect_one(uf_func *f, const char *sigtext, unsigned what,
                       text *out, uf_error *err)
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
    if ((rc = append(out, err, "== %s %s ==\n", f->decl->name, sigtext)))
        goto done;
    if (what & UF_INSPECT_TYPES) {
        char *dump = uf__typed_func_dump(tf, err);
        if (dump == NULL) {
            rc = err->code;
            goto done;
        }
        rc = append(out, err, "%s\n", dump);
        uf__free(dump);
        if (rc)
            goto done;
    }
    if ((what & UF_INSPECT_LLVM) && listing.llvm_ir &&
        (rc = append(out, err, "%s\n", listing.llvm_ir)))
        goto done;
    if ((what & UF_INSPECT_ASM) && listing.asm_text)
        rc = append(out, err, "%s\n", listing.asm_text);
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
    text out = {NULL, 0, 0};
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
        uf__free(out.s);
        return NULL;
    }
    return out.s;
}
