/* Calls of foreign device functions (cuda.declare_device): the declared
 * signature is the only overload, and arguments convert to it as Numba
 * resolves a concrete template's single case, unsafe conversions
 * included (a float64 passed to a float32 parameter is rounded). */
#include "compiler/types/infer_internal.h"

const uf__type *uf__infer_extern_call(uf__ictx *C, const uf__expr *e,
                                      const uf__extern_decl *x,
                                      const uf__type *const *args, int n)
{
    if (n != x->nargs)
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "'%s' (cuda.declare_"
                          "device '%s') takes %d argument%s, %d given",
                          x->symbol, x->signature, x->nargs,
                          x->nargs == 1 ? "" : "s", n);
    for (int i = 0; i < n; i++)
        if (args[i]->kind != UF__T_SCALAR ||
            uf__type_conversion(args[i], x->args[i]) == UF__CONV_NONE)
            return uf__ierr_t(C, UF_ERR_TYPING, e->u.call.args[i]->pos,
                              "argument %d of '%s' is %s, which does not "
                              "convert to the declared %s ('%s')", i + 1,
                              x->symbol, uf__tname(args[i]),
                              uf__tname(x->args[i]), x->signature);
    uf__iinfo(C, e)->ext = x;
    return uf__iset(C, e, x->ret);
}
