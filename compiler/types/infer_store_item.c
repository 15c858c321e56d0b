/* Typing of item assignment, `x[i] = v` (infer_internal.h): into dicts,
 * lists (a numba.typed.List keeps its item type), arrays and flat
 * iterators, with the refusals for tuples and read-only arrays. */
#include "compiler/front/typed_containers.h"
#include "compiler/types/infer_internal.h"

/* The name a store into a readonly array goes through (a in a[i][j]). */
static const char *readonly_root(const uf__expr *t)
{
    while (t->kind == UF__EX_SUBSCRIPT)
        t = t->u.subscript.value;
    return t->kind == UF__EX_NAME ? t->u.name.id : "?";
}

int uf__infer_store_item(uf__ictx *C, const uf__expr *t, const uf__type *vt)
{
    const uf__type *base = uf__infer_expr(C, t->u.subscript.value);
    if (base == NULL)
        return -1;
    if (base == UF__UNKNOWN)
        return 0;
    if (base->kind == UF__T_TUPLE)
        return uf__ierr(C, UF_ERR_TYPING, t->pos, "%s does not support item "
                        "assignment (tuples are immutable)",
                        uf__tname(base));
    if (base->kind == UF__T_DICT && base->layout == 0) /* infer_dict.c */
        return uf__infer_dict_store(C, t, base, vt);
    if (base->kind == UF__T_LIST && t->u.subscript.nindex == 1 &&
        t->u.subscript.index[0]->kind == UF__EX_SLICE) /* infer_list_ops.c */
        return uf__infer_list_slice_store(C, t, base, vt);
    if (base->kind == UF__T_LIST) { /* l[i] = v: infer_list.c */
        const uf__type *et = uf__infer_expr(C, t);
        if (et == NULL || et == UF__UNKNOWN)
            return et == NULL ? -1 : 0;
        bool ok = vt->kind == UF__T_ARRAY /* C into A: the same */
                      ? uf__type_unify(C->tc, vt, et) == et
                  : vt->kind == UF__T_LIST || vt->kind == UF__T_DICT
                      ? vt == et /* a list of lists or dicts: the same */
                      : (vt->kind == UF__T_SCALAR || vt->kind == UF__T_TUPLE ||
                         uf__is_string(vt)) && /* infer_ustr.c */
                            uf__type_conversion(vt, et) != UF__CONV_NONE;
        const uf__expr *lv = t->u.subscript.value; /* a numba.typed.List */
        if (ok && vt->kind == UF__T_SCALAR && lv->kind == UF__EX_NAME &&
            uf__typed_list_var(C->km, C->tf->decl->def, lv->u.name.id) &&
            !uf__typed_casts(vt, et))
            return uf__ierr(C, UF_ERR_TYPING, t->pos, "cannot safely cast %s "
                            "to %s. Please cast explicitly.", uf__tname(vt),
                            uf__tname(et));
        if (!ok)
            return uf__ierr(C, UF_ERR_TYPING, t->pos, "cannot store %s into "
                            "an item of %s", uf__tname(vt), uf__tname(base));
        return 0;
    }
    if (base->kind != UF__T_ARRAY && base->kind != UF__T_FLATITER)
        return uf__ierr(C, UF_ERR_TYPING, t->pos, "%s does not support item "
                        "assignment", uf__tname(base));
    if (base->readonly) {
        const char *root = readonly_root(t);
        const uf__global *g = uf__typed_var(C->tf, root) < 0
                                  ? uf__kmodule_global(C->km, root)
                                  : NULL;
        if (g == NULL || g->kind != UF__G_ARRAY)
            return uf__ierr(C, UF_ERR_TYPING, t->pos, "Cannot modify "
                            "readonly array of type: %s (a view of a "
                            "read-only global array, or the zeros .imag "
                            "gives of real numbers)", uf__tname(base));
        return uf__ierr(C, UF_ERR_TYPING, t->pos, "Cannot modify readonly "
                        "array of type: %s ('%s' is a read-only global "
                        "array)", uf__tname(base), root);
    }
    const uf__type *et = uf__infer_expr(C, t);
    if (et == NULL)
        return -1;
    if (et == UF__UNKNOWN)
        return 0;
    if (et->kind == UF__T_ARRAY) /* a[1:] = v: infer_slice.c */
        return uf__infer_slice_store(C, t, et, vt);
    if (vt->kind != UF__T_SCALAR ||
        uf__type_conversion(vt, et) == UF__CONV_NONE)
        return uf__ierr(C, UF_ERR_TYPING, t->pos, "cannot store %s into an "
                        "element of %s", uf__tname(vt), uf__tname(base));
    return 0;
}
