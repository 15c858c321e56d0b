/* Typing `x in c` / `x not in c` (Numba's operator.contains): c an array
 * of any dimensions and layout (each element compared with == in the
 * type Numba compares the two in: the optype) or a homogeneous tuple of
 * numbers (Numba has no contains for a heterogeneous tuple: TypingError);
 * x a number. Lowered by compiler/lower/lower_contains.c. */
#include "compiler/types/infer_internal.h"

const uf__type *uf__infer_contains(uf__ictx *C, const uf__expr *e,
                                   uf__expr_info *in, const uf__type *x,
                                   const uf__type *c)
{
    const uf__type *elt = NULL;
    if (c->kind == UF__T_SET) /* infer_set.c */
        return uf__infer_set_contains(C, e, in, x, c);
    if (c->kind == UF__T_DICT) /* infer_dict.c */
        return uf__infer_dict_contains(C, e, in, x, c);
    if (c->kind == UF__T_ARRAY) {
        elt = uf__type_scalar(C->tc, c->dtype);
    } else if (c->kind == UF__T_LIST && c->n == 1) { /* lower_contains.c */
        elt = c->elts[0];
    } else if (c->kind == UF__T_TUPLE && c->n > 0) {
        elt = c->elts[0];
        for (int i = 1; i < c->n; i++)
            if (c->elts[i] != elt)
                elt = NULL;
    }
    const uf__type *optype = NULL;
    if (elt != NULL && elt->kind == UF__T_SCALAR && x->kind == UF__T_SCALAR)
        uf__type_compare(C->tc, UF__CMP_EQ, x, elt, &optype);
    if (c->kind == UF__T_LIST && elt != NULL && elt->kind == UF__T_USTR &&
        uf__is_string(x))
        optype = elt; /* s in l: common/list_ustr.c */
    if (optype == NULL) {
        if (uf__typectx_oom(C->tc))
            return uf__ioom(C);
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "No implementation of "
                          "function contains for (%s, %s): 'in' takes a "
                          "number and an array or a tuple of one type",
                          uf__tname(c), uf__tname(x));
    }
    if (e->u.compare.nops != 1)
        return uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->pos, "%s", "'in' in a "
                          "comparison chain is not supported in kernels");
    in->optype = optype;
    return uf__iset(C, e, uf__type_scalar(C->tc, UF_BOOL));
}
