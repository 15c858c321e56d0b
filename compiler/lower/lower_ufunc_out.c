/* A ufunc given its outputs (np.add(x, y, out), np.sqrt(x, x),
 * np.divmod(x, y, q, r)) and np.divmod of arrays: the fused loop of
 * lower_arrexpr.c run once per output, over inputs lowered once. */
#include "compiler/lower/lower_arrexpr_internal.h"
#include "compiler/lower/lower_arrmeth.h"
#include "compiler/types/infer_npufunc.h"

#define B (F->L->b)

LLVMValueRef uf__lower_ufunc_out(uf__fn *F, const uf__expr *e)
{
    const uf__ufunc_loops *row =
        uf__npufunc_loops(uf__lower_info(F, e)->builtin);
    if (row == NULL || e->kind != UF__EX_CALL || row->nin > 3 ||
        e->u.call.nargs != row->nin + row->nout) {
        uf__source_error(F->err, UF_ERR_INTERNAL, F->tf->km->src, e->pos,
                         "%s", "a ufunc's outputs lowered as they were not "
                         "typed");
        return NULL;
    }
    int nin = row->nin, nout = row->nout;
    const uf__expr *const *x = (const uf__expr *const *)e->u.call.args;
    LLVMValueRef in[3], out[2];
    for (int i = 0; i < nin; i++) /* once, whatever the outputs */
        if (!(in[i] = uf__lower_expr(F, x[i])))
            return NULL;
    for (int k = 0; k < nout; k++)
        if (!(out[k] = uf__lower_expr(F, x[nin + k])))
            return NULL;
    /* np.divmod(x, y, x, r): the second pass must still read the x the
     * first one overwrites, as NumPy's single pass does; copy the array
     * inputs first (the one store's own overlap is store_into's) */
    for (int i = 0; nout > 1 && i < nin; i++) {
        const uf__type *t = uf__lower_info(F, x[i])->type;
        const uf__type *ct =
            t->kind == UF__T_ARRAY
                ? uf__type_array(F->tf->km->tc, t->dtype, t->ndim,
                                 t->layout == 'F' ? 'F' : 'C', F->err)
                : NULL;
        if (t->kind == UF__T_ARRAY &&
            (!ct || !(in[i] = uf__arrmeth_copy(F, in[i], t, ct))))
            return NULL;
    }
    for (int k = 0; k < nout; k++)
        if (uf__arrexpr_store_into(F, e->pos, out[k],
                                   uf__lower_info(F, x[nin + k])->type, e,
                                   UF__AUG_OUTPUT, e, x, in, nin, k) != 0)
            return NULL;
    if (nout == 1)
        return out[0];
    const uf__type *rt = uf__lower_info(F, e)->type;
    LLVMTypeRef ty = uf__lower_type(F->L, rt, F->err);
    if (!ty)
        return NULL;
    LLVMValueRef tup = LLVMBuildInsertValue(B, LLVMGetUndef(ty), out[0], 0, "");
    return LLVMBuildInsertValue(B, tup, out[1], 1, "");
}

LLVMValueRef uf__lower_arrexpr_divmod(uf__fn *F, const uf__expr *e)
{
    const uf__type *rt = uf__lower_info(F, e)->type;
    if (rt == NULL || rt->kind != UF__T_TUPLE || rt->n != 2 ||
        e->kind != UF__EX_CALL || e->u.call.nargs != 2) {
        uf__source_error(F->err, UF_ERR_INTERNAL, F->tf->km->src, e->pos,
                         "%s", "np.divmod() of arrays called as it was not "
                         "typed");
        return NULL;
    }
    const uf__expr *x[2] = {e->u.call.args[0], e->u.call.args[1]};
    LLVMValueRef v[2], r[2], n;
    for (int i = 0; i < 2; i++)
        if (!(v[i] = uf__lower_expr(F, x[i])))
            return NULL;
    for (int k = 0; k < 2; k++)
        if (!(r[k] = uf__arrexpr_new_value(F, e, rt->elts[k], true, x, v, 2,
                                           &n, k)))
            return NULL;
    LLVMTypeRef ty = uf__lower_type(F->L, rt, F->err);
    if (!ty)
        return NULL;
    LLVMValueRef tup = LLVMBuildInsertValue(B, LLVMGetUndef(ty), r[0], 0, "");
    return LLVMBuildInsertValue(B, tup, r[1], 1, "");
}
