/* The compilations of vectorize loops (jit.h): a kernel and its loop
 * lowered into one module (lower_loop.c), the whole strided loop or the
 * contiguous loops of several signatures at once, compiled by the host
 * JIT (jit.c). */
#include <stdio.h>
#include <string.h>

#include "common/alloc.h"
#include "common/error_internal.h"
#include "compiler/host/jit.h"
#include "compiler/host/jit_passes.h"
#include "compiler/lower/lower_loop.h"

/* Lowers `tf` and its loop into L (lower_loop.h): the contiguous loop
 * only (external `name`), the fused strided loop only, or the whole
 * uf__strided_loop `name`. */
int uf__lower_ufunc_loop(uf__lower *L, const uf__typed_func *tf,
                         const uf_dtype *out_types, const char *name,
                         uf__loop_part part, uf_error *err)
{
    const uf__type *ret = tf->ret;
    uf_dtype in[UF__LOOP_MAXARGS], res[UF__LOOP_MAXARGS];
    int nin = tf->nargs, nout;
    bool tuple_ret = ret->kind == UF__T_TUPLE;
    if (nin > UF__LOOP_MAXARGS)
        goto unsupported;
    for (int i = 0; i < nin; i++) {
        if (tf->args[i]->kind != UF__T_SCALAR)
            goto unsupported;
        in[i] = tf->args[i]->dtype;
    }
    if (tuple_ret) {
        nout = ret->n;
        if (nout < 1 || nin + nout > UF__LOOP_MAXARGS)
            goto unsupported;
        for (int k = 0; k < nout; k++) {
            if (ret->elts[k]->kind != UF__T_SCALAR)
                goto unsupported;
            res[k] = ret->elts[k]->dtype;
        }
    } else {
        if (ret->kind != UF__T_SCALAR)
            goto unsupported;
        nout = 1;
        res[0] = ret->dtype;
    }

    bool fallible;
    LLVMValueRef kernel = uf__lower_func(L, tf, &fallible, err);
    if (!kernel)
        return err->code;
    LLVMValueRef fn =
        part == UF__LOOP_PART_CONTIG
            ? uf__lower_loop_contig(L, kernel, fallible, in, nin, res, nout,
                                    tuple_ret, out_types, name, err)
        : part == UF__LOOP_PART_STRIDED
            ? uf__lower_loop_strided(L, kernel, fallible, in, nin, res, nout,
                                     tuple_ret, out_types, name, err)
            : uf__lower_loop(L, kernel, fallible, in, nin, res, nout,
                             tuple_ret, out_types, name, err);
    return fn ? 0 : err->code;

unsupported:
    return uf__error_set(err, UF_ERR_UNSUPPORTED,
                         "kernel '%s': a ufunc loop needs scalar arguments "
                         "and a scalar or tuple-of-scalars result",
                         tf->decl ? tf->decl->name : "?");
}

int uf__jit_ufunc_loop(uf__jit *jit, const uf__typed_func *tf,
                       const uf_dtype *out_types, uf__strided_loop *fn,
                       uf__jit_listing *listing, uf_error *err)
{
    uf_error local;
    if (!err)
        err = &local;
    if (listing)
        listing->llvm_ir = listing->asm_text = NULL;
    uf__lower L;
    if (uf__jit_begin(jit, &L, err) != 0)
        return err->code;
    char name[64];
    snprintf(name, sizeof name, "%s_loop", L.prefix);
    if (uf__lower_ufunc_loop(&L, tf, out_types, name, UF__LOOP_PART_WHOLE,
                             err) != 0) {
        uf__jit_abort(&L);
        return err->code;
    }
    const char *names[1] = {name};
    void *addr = NULL;
    L.passes = uf__passes_elementwise(L.mod);
    if (uf__jit_finish(jit, &L, names, &addr, 1, listing, err) != 0)
        return err->code;
    *fn = (uf__strided_loop)(uintptr_t)addr;
    return 0;
}

/* A contig lowered as `sym` may be a blocked loop named sym + "_blk"
 * (lower.h): `sym` becomes its name. */
static void blocked_name(uf__lower *L, char sym[UF__JIT_SYMBOL_MAX])
{
    if (LLVMGetNamedFunction(L->mod, sym))
        return;
    size_t len = strlen(sym);
    if (len + 4 < UF__JIT_SYMBOL_MAX)
        memcpy(sym + len, "_blk", 5);
}

int uf__jit_ufunc_contigs(uf__jit *jit, int n,
                          const uf__typed_func *const *tfs,
                          const uf_dtype *const *out_types, void **contigs,
                          char (*symbols)[UF__JIT_SYMBOL_MAX], char **ir,
                          uf_error *err)
{
    return uf__jit_ufunc_contigs_obj(jit, n, tfs, out_types, contigs, symbols,
                                     ir, NULL, NULL, NULL, err);
}

int uf__jit_ufunc_contigs_obj(uf__jit *jit, int n,
                              const uf__typed_func *const *tfs,
                              const uf_dtype *const *out_types, void **contigs,
                              char (*symbols)[UF__JIT_SYMBOL_MAX], char **ir,
                              const char *stem, char **obj, size_t *objlen,
                              uf_error *err)
{
    uf_error local;
    if (!err)
        err = &local;
    if (ir)
        *ir = NULL;
    if (obj)
        *obj = NULL;
    uf__lower L;
    if (uf__jit_begin(jit, &L, err) != 0)
        return err->code;
    /* symbols an object file on disk defines: named by the content
     * (another process loads them beside its own "uf<seq>" ones) */
    if (obj)
        uf__jit_disk_prefix(jit, &L, stem);
    const char **np = uf__calloc((size_t)n, sizeof *np, err);
    if (!np) {
        uf__jit_abort(&L);
        return UF_ERR_NOMEM;
    }
    int rc = 0;
    for (int i = 0; i < n && rc == 0; i++) {
        snprintf(symbols[i], UF__JIT_SYMBOL_MAX, "%s_contig%d", L.prefix, i);
        np[i] = symbols[i];
        rc = uf__lower_ufunc_loop(&L, tfs[i], out_types[i], symbols[i],
                                  UF__LOOP_PART_CONTIG, err);
        if (rc == 0)
            blocked_name(&L, symbols[i]);
    }
    if (rc != 0)
        uf__jit_abort(&L);
    else {
        L.passes = uf__passes_elementwise(L.mod);
        rc = uf__jit_finish_all(jit, &L, np, contigs, n, NULL, ir, obj, objlen,
                                err);
    }
    uf__free(np);
    return rc;
}

int uf__jit_ufunc_contig_ir(uf__jit *jit, const uf__typed_func *tf,
                            const uf_dtype *out_types,
                            char symbol[UF__JIT_SYMBOL_MAX], char **ir,
                            uf_error *err)
{
    *ir = NULL;
    uf__lower L;
    if (uf__jit_begin(jit, &L, err) != 0)
        return err->code;
    snprintf(symbol, UF__JIT_SYMBOL_MAX, "%s_contig0", L.prefix);
    if (uf__lower_ufunc_loop(&L, tf, out_types, symbol, UF__LOOP_PART_CONTIG,
                             err) != 0) {
        uf__jit_abort(&L);
        return err->code;
    }
    blocked_name(&L, symbol);
    L.passes = uf__passes_elementwise(L.mod);
    return uf__jit_finish_all(jit, &L, NULL, NULL, 0, NULL, ir, NULL, NULL,
                              err);
}
