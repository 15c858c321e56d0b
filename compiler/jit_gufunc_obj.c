/* One guvectorize loop compiled into object code for the disk cache
 * (jit_gufunc_obj.h): the module uf__jit_gufunc_loop builds (the kernel
 * typed 'A', and 'C' when there is such a variant, the generic loop
 * around them), named by content. Kept apart from jit_gufunc.c, whose
 * compilation it must mirror. */
#include <stdio.h>

#include "common/error_internal.h"
#include "compiler/jit_gufunc_obj.h"

int uf__jit_gufunc_loop_obj(uf__jit *jit, const uf__typed_func *tf_c,
                            const uf__typed_func *tf_a,
                            const uf__gufunc_layout *layout,
                            const uf__guvec_arg *args, const char *stem,
                            uf__strided_loop *fn, char *symbol,
                            size_t symcap, char **obj, size_t *objlen,
                            uf_error *err)
{
    *obj = NULL;
    if (tf_a->nargs != layout->nargs)
        return uf__error_set(err, UF_ERR_INTERNAL,
                             "kernel '%s' has %d arguments, its layout %d",
                             tf_a->decl->name, tf_a->nargs, layout->nargs);
    uf__lower L;
    if (uf__jit_begin(jit, &L, err) != 0)
        return err->code;
    uf__jit_disk_prefix(jit, &L, stem);
    snprintf(symbol, symcap, "%s_guloop", L.prefix);
    bool fa = false, fc = false;
    LLVMValueRef kc = NULL;
    LLVMValueRef ka = uf__lower_func(&L, tf_a, &fa, err);
    if (!ka)
        goto fail;
    if (tf_c && tf_c != tf_a && !(kc = uf__lower_func(&L, tf_c, &fc, err)))
        goto fail;
    if (!uf__lower_gufunc_loop(&L, kc, fc, ka, fa, layout, args, symbol,
                               err))
        goto fail;
    const char *names[1] = {symbol};
    void *addr = NULL;
    if (uf__jit_finish_obj(jit, &L, names, &addr, 1, obj, objlen, err) != 0)
        return err->code;
    *fn = (uf__strided_loop)(uintptr_t)addr;
    return 0;

fail:
    uf__jit_abort(&L);
    return err->code;
}
