/* Compiling a binary kernel into reduction loops (jit_reduce.h): one LLVM
 * module per (kernel, accumulator dtype) holding combine, seq, the
 * optional pairwise tree and the elementwise ufunc loop, all with the
 * kernel inlined. */
#include <stdio.h>

#include <llvm-c/Core.h>

#include "common/error_internal.h"
#include "compiler/host/jit_reduce.h"

/* The lanes loop asks for vectorisation; when the kernel cannot be
 * vectorised (a fallible kernel, complex runtime calls) LLVM says so on
 * stderr. The loop is then scalar and still right: stay quiet. */
void uf__jit_diag_errors_only(LLVMDiagnosticInfoRef info, void *ctx)
{
    (void)ctx;
    if (LLVMGetDiagInfoSeverity(info) == LLVMDSError) {
        char *msg = LLVMGetDiagInfoDescription(info);
        fprintf(stderr, "LLVM: %s\n", msg);
        LLVMDisposeMessage(msg);
    }
}

/* The compilation behind uf__jit_reduce and uf__jit_reduce_obj: with
 * `stem`, the symbols are named by it and the object file returned. The
 * symbol names go to names[0..4 or 5) in the order uf__jit_reduce_set
 * reads addresses. */
static int compile(uf__jit *jit, const uf__typed_func *tf, uf_dtype acc,
                   bool tree, const char *stem, void **addr,
                   char (*names)[UF__JIT_SYMBOL_MAX],
                   uf__jit_listing *listing, char **obj, size_t *objlen,
                   uf_error *err)
{
    if (listing)
        listing->llvm_ir = listing->asm_text = NULL;
    if (tf->nargs != 2 || tf->args[0]->kind != UF__T_SCALAR ||
        tf->args[1]->kind != UF__T_SCALAR || tf->args[0]->dtype != acc ||
        tf->args[1]->dtype != acc || tf->ret->kind != UF__T_SCALAR) {
        char buf[128] = "?";
        uf__type_str(tf->ret, buf, sizeof buf);
        return uf__error_set(err, UF_ERR_TYPING,
                             "'%s' cannot be used as a reduction over %s: "
                             "it must take two %s values and return one "
                             "number (it returns %s)",
                             tf->decl ? tf->decl->name : "?",
                             uf_dtype_name(acc), uf_dtype_name(acc), buf);
    }
    uf__lower L;
    if (uf__jit_begin(jit, &L, err) != 0)
        return err->code;
    if (stem)
        uf__jit_disk_prefix(jit, &L, stem);
    LLVMContextSetDiagnosticHandler(L.ctx, uf__jit_diag_errors_only, NULL);
    char prefix[sizeof L.prefix + 8];
    snprintf(prefix, sizeof prefix, "%s_red", L.prefix);
    snprintf(names[0], UF__JIT_SYMBOL_MAX, "%s_combine", prefix);
    snprintf(names[1], UF__JIT_SYMBOL_MAX, "%s_seq", prefix);
    snprintf(names[2], UF__JIT_SYMBOL_MAX, "%s_binary", prefix);
    snprintf(names[3], UF__JIT_SYMBOL_MAX, "%s_rows", prefix);
    snprintf(names[4], UF__JIT_SYMBOL_MAX, "%s_tree", prefix);
    bool fallible;
    uf_dtype ret = tf->ret->dtype;
    uf_dtype in[2] = {acc, acc};
    LLVMValueRef kernel = uf__lower_func(&L, tf, &fallible, err);
    if (!kernel ||
        uf__lower_reduce_loops(&L, kernel, fallible, acc, ret, tree, prefix,
                               err) != 0 ||
        !uf__lower_loop(&L, kernel, fallible, in, 2, &ret, 1, false, &acc,
                        names[2], err)) {
        uf__jit_abort(&L);
        return err->code;
    }
    const char *list[UF__JIT_REDUCE_MAXSYMS] = {names[0], names[1], names[2],
                                                names[3], names[4]};
    int n = tree ? 5 : 4;
    if (stem)
        return uf__jit_finish_obj(jit, &L, list, addr, n, obj, objlen, err);
    return uf__jit_finish(jit, &L, list, addr, n, listing, err);
}

void uf__jit_reduce_set(uf__jit_reduce_fns *fns, void *const *addr,
                        bool tree)
{
    fns->combine = (uf__reduce_combine_fn)(uintptr_t)addr[0];
    fns->seq = (uf__reduce_seq_fn)(uintptr_t)addr[1];
    fns->binary = (uf__strided_loop)(uintptr_t)addr[2];
    fns->rows = (uf__reduce_rows_fn)(uintptr_t)addr[3];
    fns->tree = tree ? (uf__reduce_tree_fn)(uintptr_t)addr[4] : NULL;
}

int uf__jit_reduce(uf__jit *jit, const uf__typed_func *tf, uf_dtype acc,
                   bool tree, uf__jit_reduce_fns *fns,
                   uf__jit_listing *listing, uf_error *err)
{
    char names[UF__JIT_REDUCE_MAXSYMS][UF__JIT_SYMBOL_MAX];
    void *addr[UF__JIT_REDUCE_MAXSYMS] = {NULL};
    if (compile(jit, tf, acc, tree, NULL, addr, names, listing, NULL, NULL,
                err) != 0)
        return err->code;
    uf__jit_reduce_set(fns, addr, tree);
    return 0;
}

int uf__jit_reduce_obj(uf__jit *jit, const uf__typed_func *tf, uf_dtype acc,
                       bool tree, const char *stem, uf__jit_reduce_fns *fns,
                       char (*names)[UF__JIT_SYMBOL_MAX], char **obj,
                       size_t *objlen, uf_error *err)
{
    void *addr[UF__JIT_REDUCE_MAXSYMS] = {NULL};
    *obj = NULL;
    if (compile(jit, tf, acc, tree, stem, addr, names, NULL, obj, objlen,
                err) != 0)
        return err->code;
    uf__jit_reduce_set(fns, addr, tree);
    return 0;
}
