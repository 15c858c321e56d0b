/* One compilation of a guvectorize signature: the kernel typed for 'C' and
 * for 'A' arrays lowered into one module, the gufunc loop around both
 * (lower_gufunc_loop.c), optimised and added to the JIT as the model
 * uf__jit_ufunc_loop does for vectorize kernels. */
#include <stdio.h>

#include "common/error_internal.h"
#include "compiler/jit_gufunc.h"

int uf__jit_gufunc_loop(uf__jit *jit, const uf__typed_func *tf_c,
                        const uf__typed_func *tf_a,
                        const uf__gufunc_layout *layout,
                        const uf__guvec_arg *args, uf__strided_loop *fn,
                        uf__jit_listing *listing, uf_error *err)
{
    uf_error local;
    if (!err)
        err = &local;
    if (listing)
        listing->llvm_ir = listing->asm_text = NULL;
    if (tf_a->nargs != layout->nargs)
        return uf__error_set(err, UF_ERR_INTERNAL,
                             "kernel '%s' has %d arguments, its layout %d",
                             tf_a->decl->name, tf_a->nargs, layout->nargs);
    uf__lower L;
    if (uf__jit_begin(jit, &L, err) != 0)
        return err->code;
    char name[64];
    snprintf(name, sizeof name, "%s_guloop", L.prefix);
    bool fa = false, fc = false;
    LLVMValueRef kc = NULL;
    LLVMValueRef ka = uf__lower_func(&L, tf_a, &fa, err);
    if (!ka)
        goto fail;
    if (tf_c && tf_c != tf_a && !(kc = uf__lower_func(&L, tf_c, &fc, err)))
        goto fail;
    if (!uf__lower_gufunc_loop(&L, kc, fc, ka, fa, layout, args, name, err))
        goto fail;
    const char *names[1] = {name};
    void *addr = NULL;
    if (uf__jit_finish(jit, &L, names, &addr, 1, listing, err) != 0)
        return err->code;
    *fn = (uf__strided_loop)(uintptr_t)addr;
    return 0;

fail:
    uf__jit_abort(&L);
    return err->code;
}
