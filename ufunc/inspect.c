/* uf_func_inspect: typed source, optimised LLVM IR and host assembly of a
 * kernel's specialisations (from the context's loop cache: inspecting
 * after a call compiles nothing). */
#include <stdio.h>
#include <string.h>

#include "common/alloc.h"
#include "common/error_internal.h"
#include "common/strbuf.h"
#include "compiler/context.h"
#include "compiler/module.h"
#include "ufunc/inspect.h"
#include "ufunc/vectorize.h"

/* The part of a listing from the line holding `start` to the end of the
 * line holding `end` (searched after start), appended to out; false when
 * `start` is not there. */
static bool append_between(uf__strbuf *out, const char *text,
                           const char *start, const char *end)
{
    const char *a = strstr(text, start);
    if (a == NULL)
        return false;
    while (a > text && a[-1] != '\n')
        a--;
    const char *b = strstr(a, end);
    b = b ? strchr(b, '\n') : NULL;
    size_t n = b ? (size_t)(b - a) + 1 : strlen(a);
    uf__strbuf_printf(out, "%.*s\n", (int)n, a);
    return true;
}

/* One signature's listings: the typed source (typing is cached by the
 * module), and the signature's loop in the optimised IR and the assembly
 * of the module it was compiled in -- taken from the context's loop
 * cache, compiling only what is not there yet. */
static int inspect_one(uf_func *f, const char *sigtext, unsigned what,
                       uf__strbuf *out, uf_error *err)
{
    uf__kmodule *km = f->module->km;
    uf__signature sig;
    if (uf__parse_signature(km->tc, km->arena, sigtext, &sig, err) < 0)
        return err->code;
    uf__ufunc_loop loop;
    const uf__cached_loop *entry = NULL;
    char *asm_text = NULL;
    int nout = 0, rc = 0;
    if ((what & (UF_INSPECT_LLVM | UF_INSPECT_ASM)) &&
        uf__vectorize_loops(f->module->ctx, km, f->module->text,
                            f->module->src.len, f->decl, 1, &sig, &loop,
                            &nout, &entry, NULL, err) < 0)
        return err->code;
    uf__strbuf_printf(out, "== %s %s ==\n", f->decl->name, sigtext);
    if (what & UF_INSPECT_TYPES) {
        uf__typed_func *tf = uf__infer(km, f->decl, sig.args, sig.nargs,
                                       sig.ret, err);
        char *dump = tf ? uf__typed_func_dump(tf, err) : NULL;
        if (dump == NULL)
            return err->code;
        uf__strbuf_printf(out, "%s\n", dump);
        uf__free(dump);
    }
    if ((what & (UF_INSPECT_LLVM | UF_INSPECT_ASM)) && !entry->module_ir)
        uf__strbuf_printf(out, "(loaded from the disk cache: no listing; "
                               "UFJIT_CACHE_DIR= to compile afresh)\n");
    else if (what & (UF_INSPECT_LLVM | UF_INSPECT_ASM)) {
        char start[UF__JIT_SYMBOL_MAX + 8];
        snprintf(start, sizeof start, "@%s(", entry->symbol);
        if (what & UF_INSPECT_LLVM)
            append_between(out, entry->module_ir, start, "\n}");
        if (what & UF_INSPECT_ASM) {
            asm_text = uf__jit_asm_from_ir(uf__context_jit(f->module->ctx,
                                                           err),
                                           entry->module_ir, err);
            if (asm_text == NULL)
                return err->code;
            snprintf(start, sizeof start, "\n%s:", entry->symbol);
            char end[UF__JIT_SYMBOL_MAX + 16];
            snprintf(end, sizeof end, ".size\t%s,", entry->symbol);
            append_between(out, asm_text, start + 1, end);
            uf__free(asm_text);
        }
    }
    if (out->failed)
        rc = err->code;
    return rc;
}

static const char *example_signature(uf__kernel_kind kind)
{
    switch (kind) {
    case UF__K_GUVECTORIZE:
        return "'void(float64[:], float64[:])'";
    case UF__K_NJIT:
        return "'float64(float64[:, :])'";
    default:
        return "'float64(float64, float64)'";
    }
}

char *uf_func_inspect(uf_func *f, const char *signature, unsigned what,
                      uf_error *err)
{
    if (f == NULL) {
        uf__error_set(err, UF_ERR_INVALID, "uf_func_inspect: NULL function");
        return NULL;
    }
    if (f->decl->kind == UF__K_DEVICE) {
        uf__error_set(err, UF_ERR_UNSUPPORTED,
                      "'%s' is a device function: inspect the kernel that "
                      "calls it (it is inlined there)", f->decl->name);
        return NULL;
    }
    if (signature == NULL && f->decl->nsignatures == 0) {
        uf__error_set(err, UF_ERR_INVALID,
                      "'%s' declares no signatures: give one, e.g. %s",
                      f->decl->name, example_signature(f->decl->kind));
        return NULL;
    }
    int (*one)(uf_func *, const char *, unsigned, uf__strbuf *,
               uf_error *) =
        f->decl->kind == UF__K_VECTORIZE ? inspect_one : uf__inspect_other;
    if (what == 0)
        what = UF_INSPECT_TYPES;
    uf__strbuf out = uf__strbuf_init(err);
    uf_context *ctx = f->module->ctx;
    pthread_mutex_lock(&ctx->lock);
    int rc = 0;
    if (signature != NULL)
        rc = one(f, signature, what, &out, err);
    for (int i = 0; signature == NULL && rc == 0 &&
                    i < f->decl->nsignatures; i++)
        rc = one(f, f->decl->signatures[i], what, &out, err);
    pthread_mutex_unlock(&ctx->lock);
    if (rc < 0) {
        uf__free(uf__strbuf_take(&out));
        return NULL;
    }
    return uf__strbuf_take(&out);
}
