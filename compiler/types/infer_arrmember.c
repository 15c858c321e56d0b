/* Attributes and methods of arrays, a.shape ... a.sum: the name is looked
 * up in the table of array_members.c (what is not there is refused) and
 * typed by the entry's builtin; the attributes of the reductions and the
 * copies (a.T, a.flat ...) by their typers. */
#include <stdio.h>

#include "compiler/types/array_members.h"
#include "compiler/types/infer_arrattr.h"
#include "compiler/types/infer_internal.h"

/* .shape .strides: tuples of int64; .size .ndim: int64. */
static const uf__type *plain_attr(uf__ictx *C, const uf__expr *e,
                                  const uf__type *base, uf__builtin b)
{
    if (b == UF__BI_ATTR_SIZE || b == UF__BI_ATTR_NDIM)
        return uf__iset(C, e, uf__type_scalar(C->tc, UF_INT64));
    if (b != UF__BI_ATTR_SHAPE && b != UF__BI_ATTR_STRIDES)
        return uf__ierr_t(C, UF_ERR_INTERNAL, e->pos, "array attribute "
                          "'%s' is in array_members.c's table but has no "
                          "typer", e->u.attr.attr);
    const uf__type *i64 = uf__type_scalar(C->tc, UF_INT64);
    const uf__type *elts[64];
    if (base->ndim > 64)
        return uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->pos, "%s",
                          "too many dimensions");
    for (int i = 0; i < base->ndim; i++)
        elts[i] = i64;
    return uf__iset(C, e, uf__type_tuple(C->tc, base->ndim, elts, C->err));
}

const uf__type *uf__infer_array_attr(uf__ictx *C, const uf__expr *e,
                                     const uf__type *base, uf__expr_info *in,
                                     bool *handled)
{
    const char *a = e->u.attr.attr;
    const uf__array_member *m = uf__array_member_find(a);
    *handled = m != NULL;
    if (m == NULL)
        return NULL;
    if (m->builtin == UF__BI_NONE)
        return uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->u.attr.attr_pos, "'%s' "
                          "of %s is not supported in kernels%s", a,
                          uf__tname(base), m->why ? m->why : "");
    if (uf__builtin_is_arrattr(m->builtin)) /* dtype, real, imag, conj */
        return uf__infer_arrattr_attr(C, e, base, in, handled);
    if (m->method) { /* the call is typed by the builtin (infer_call.c) */
        char q[64];
        in->builtin = m->builtin;
        snprintf(q, sizeof q, "array.%s", a);
        return uf__iset(C, e, uf__type_function(C->tc, q, C->err));
    }
    if (uf__builtin_is_npreduce(m->builtin))
        return uf__infer_npreduce_attr(C, e, base, in, m->builtin);
    if (uf__builtin_is_arrmeth(m->builtin))
        return uf__infer_arrmeth_attr(C, e, base, in, m->builtin);
    in->builtin = m->builtin;
    return plain_attr(C, e, base, m->builtin);
}
