/* Compiling a binary kernel into reduction loops (jit_reduce.h): one LLVM
 * module per (kernel, accumulator dtype) holding combine, seq, the
 * optional pairwise tree and the elementwise ufunc loop, all with the
 * kernel inlined. */
#include <stdio.h>

#include <llvm-c/Core.h>

#include "common/error_internal.h"
#include "compiler/jit_reduce.h"

/* The lanes loop asks for vectorisation; when the kernel cannot be
 * vectorised (a fallible kernel, complex runtime calls) LLVM says so on
 * stderr. The loop is then scalar and still right: stay quiet. */
static void quiet(LLVMDiagnosticInfoRef info, void *ctx)
{
    (void)ctx;
    if (LLVMGetDiagInfoSeverity(info) == LLVMDSError) {
        char *msg = LLVMGetDiagInfoDescription(info);
        fprintf(stderr, "LLVM: %s\n", msg);
        LLVMDisposeMessage(msg);
    }
}

int uf__jit_reduce(uf__jit *jit, const uf__typed_func *tf, uf_dtype acc,
                   bool tree, uf__jit_reduce_fns *fns,
                   uf__jit_listing *listing, uf_error *err)
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
    LLVMContextSetDiagnosticHandler(L.ctx, quiet, NULL);
    char prefix[64], binary[80];
    snprintf(prefix, sizeof prefix, "%s_red", L.prefix);
    snprintf(binary, sizeof binary, "%s_binary", prefix);
    bool fallible;
    uf_dtype ret = tf->ret->dtype;
    uf_dtype in[2] = {acc, acc};
    LLVMValueRef kernel = uf__lower_func(&L, tf, &fallible, err);
    if (!kernel ||
        uf__lower_reduce_loops(&L, kernel, fallible, acc, ret, tree, prefix,
                               err) != 0 ||
        !uf__lower_loop(&L, kernel, fallible, in, 2, &ret, 1, false, &acc,
                        binary, err)) {
        uf__jit_abort(&L);
        return err->code;
    }
    char names[4][96];
    snprintf(names[0], sizeof names[0], "%s_combine", prefix);
    snprintf(names[1], sizeof names[1], "%s_seq", prefix);
    snprintf(names[2], sizeof names[2], "%s", binary);
    snprintf(names[3], sizeof names[3], "%s_tree", prefix);
    const char *list[4] = {names[0], names[1], names[2], names[3]};
    void *addr[4] = {NULL, NULL, NULL, NULL};
    if (uf__jit_finish(jit, &L, list, addr, tree ? 4 : 3, listing, err) != 0)
        return err->code;
    fns->combine = (uf__reduce_combine_fn)(uintptr_t)addr[0];
    fns->seq = (uf__reduce_seq_fn)(uintptr_t)addr[1];
    fns->binary = (uf__strided_loop)(uintptr_t)addr[2];
    fns->tree = tree ? (uf__reduce_tree_fn)(uintptr_t)addr[3] : NULL;
    return 0;
}
