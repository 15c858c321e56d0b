/* uf_func_inspect for the kernels that are not vectorize ufuncs:
 * guvectorize, njit and reduce. Their compiled code is not kept as module
 * text by the context's caches, so the listing compiles the signature
 * afresh (into the context's JIT, as a call would) and prints the whole
 * module: the kernel and the loop or entry around it; --ptx, the CUDA
 * kernels of the kinds that have them. How each kind compiles is its own
 * (inspect.h: uf__inspect_kind). */
#include "common/alloc.h"
#include "common/error_internal.h"
#include "compiler/context.h"
#include "ufunc/inspect.h"

/* The module k compiles for the signature: its IR and/or assembly. */
static int append_compiled(uf_func *f, const uf__typed_func *tf,
                           const uf__signature *sig, unsigned what,
                           const uf__inspect_kind *k, uf__strbuf *out,
                           uf_error *err)
{
    uf__jit *jit = uf__context_jit(f->module->ctx, err);
    if (jit == NULL)
        return err->code;
    uf__jit_listing listing = {0};
    int rc = k->compile(f, tf, jit, sig, &listing, err);
    if (rc == 0) {
        if ((what & UF_INSPECT_LLVM) && listing.llvm_ir)
            uf__strbuf_printf(out, "%s\n", listing.llvm_ir);
        if ((what & UF_INSPECT_ASM) && listing.asm_text)
            uf__strbuf_printf(out, "%s\n", listing.asm_text);
    }
    uf__free(listing.llvm_ir);
    uf__free(listing.asm_text);
    return rc;
}

int uf__inspect_compiled(uf_func *f, const char *sigtext, unsigned what,
                         const uf__inspect_kind *k, uf__strbuf *out,
                         uf_error *err)
{
    uf__kmodule *km = f->module->km;
    uf__signature sig;
    if (uf__parse_signature(km->tc, km->arena, sigtext, &sig, err) < 0)
        return err->code;
    if (k->check != NULL && k->check(f, &sig, err) != 0)
        return err->code;
    uf__typed_func *tf = uf__infer(km, f->decl, sig.args, sig.nargs,
                                   k->no_result ? NULL : sig.ret, err);
    if (tf == NULL)
        return err->code;
    uf__strbuf_printf(out, "== %s %s ==\n", f->decl->name, sigtext);
    if (what & UF_INSPECT_TYPES) {
        char *dump = uf__typed_func_dump(tf, err);
        if (dump == NULL)
            return err->code;
        uf__strbuf_printf(out, "%s\n", dump);
        uf__free(dump);
    }
    int rc = 0;
    if (what & (UF_INSPECT_LLVM | UF_INSPECT_ASM))
        rc = append_compiled(f, tf, &sig, what, k, out, err);
    if (rc == 0 && (what & UF_INSPECT_PTX))
        rc = k->ptx ? k->ptx(f, &sig, out, err)
                    : uf__error_set(err, UF_ERR_UNSUPPORTED,
                                    "'%s': the cuda target compiles no "
                                    "kernel of this kind", f->decl->name);
    if (rc == 0 && out->failed)
        rc = err->code;
    return rc;
}
