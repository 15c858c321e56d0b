/* uf_func_inspect for the kernels that are not vectorize ufuncs:
 * guvectorize, njit and reduce. Their compiled code is not kept as module
 * text by the context's caches, so the listing compiles the signature
 * afresh (into the context's JIT, as a call would) and prints the whole
 * module: the kernel and the loop or entry around it. */
#include <string.h>

#include "common/alloc.h"
#include "common/error_internal.h"
#include "compiler/context.h"
#include "compiler/jit_plain.h"
#include "compiler/jit_reduce.h"
#include "compiler/module.h"
#include "gufunc/guvectorize.h"
#include "reduce/reduce.h"
#include "ufunc/inspect.h"

static int compile_gufunc(uf_func *f, uf__jit *jit, const uf__signature *sig,
                          uf__jit_listing *listing, uf_error *err)
{
    uf__kmodule *km = f->module->km;
    uf__gufunc_layout *lay = uf__guvectorize_layout(km, f->decl, err);
    if (lay == NULL)
        return err->code;
    uf__ufunc_loop loop;
    int rc = uf__guvectorize_compile(km, f->decl, lay, jit, sig, &loop,
                                     listing, err);
    uf__gufunc_layout_free(lay);
    return rc;
}

static int compile_njit(const uf__typed_func *tf, uf__jit *jit,
                        const uf__signature *sig, uf__jit_listing *listing,
                        uf_error *err)
{
    uf_dtype in[UF__LOOP_MAXARGS] = {0};
    for (int i = 0; i < sig->nargs && i < UF__LOOP_MAXARGS; i++)
        if (sig->args[i]->kind == UF__T_SCALAR)
            in[i] = sig->args[i]->dtype;
    uf__plain_entry entry;
    return uf__jit_plain(jit, tf, in, &entry, listing, err);
}

/* A reduce kernel's loops as uf_reduce builds them for accumulator type
 * args[0]: with the pairwise tree when the combination may be
 * reassociated (reduce/reduce_op.c decides the same way). */
static int check_reduce(const uf_func *f, const uf__signature *sig,
                        uf_error *err)
{
    if (sig->nargs == 2 && sig->args[0]->kind == UF__T_SCALAR &&
        sig->args[1] == sig->args[0])
        return 0;
    return uf__error_set(err, UF_ERR_TYPE,
                         "'%s': a reduce kernel is inspected for one "
                         "accumulator type, e.g. 'float64(float64, float64)'",
                         f->decl->name);
}

static int compile_reduce(uf_func *f, const uf__typed_func *tf, uf__jit *jit,
                          const uf__signature *sig, uf__jit_listing *listing,
                          uf_error *err)
{
    uf_dtype t = sig->args[0]->dtype;
    uf__reduce_kind kind = uf__reduce_classify(f->decl, tf);
    bool integral = t == UF_BOOL || uf__dtype_is_int(t);
    bool tree = kind == UF__RK_ADD || (integral && kind != UF__RK_OTHER);
    uf__jit_reduce_fns fns;
    return uf__jit_reduce(jit, tf, t, tree, &fns, listing, err);
}

int uf__inspect_other(uf_func *f, const char *sigtext, unsigned what,
                      uf__strbuf *out, uf_error *err)
{
    uf__kmodule *km = f->module->km;
    uf__signature sig;
    if (uf__parse_signature(km->tc, km->arena, sigtext, &sig, err) < 0)
        return err->code;
    bool gufunc = f->decl->kind == UF__K_GUVECTORIZE;
    if (f->decl->kind == UF__K_REDUCE && check_reduce(f, &sig, err) != 0)
        return err->code;
    /* a guvectorize kernel returns nothing whatever its signature says
     * (void or none): its typing takes no declared result */
    uf__typed_func *tf = uf__infer(km, f->decl, sig.args, sig.nargs,
                                   gufunc ? NULL : sig.ret, err);
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
    if (!(what & (UF_INSPECT_LLVM | UF_INSPECT_ASM)))
        return out->failed ? err->code : 0;
    uf__jit *jit = uf__context_jit(f->module->ctx, err);
    if (jit == NULL)
        return err->code;
    uf__jit_listing listing = {0};
    int rc;
    if (gufunc)
        rc = compile_gufunc(f, jit, &sig, &listing, err);
    else if (f->decl->kind == UF__K_REDUCE)
        rc = compile_reduce(f, tf, jit, &sig, &listing, err);
    else
        rc = compile_njit(tf, jit, &sig, &listing, err);
    if (rc == 0) {
        if ((what & UF_INSPECT_LLVM) && listing.llvm_ir)
            uf__strbuf_printf(out, "%s\n", listing.llvm_ir);
        if ((what & UF_INSPECT_ASM) && listing.asm_text)
            uf__strbuf_printf(out, "%s\n", listing.asm_text);
        if (out->failed)
            rc = err->code;
    }
    uf__free(listing.llvm_ir);
    uf__free(listing.asm_text);
    return rc;
}
