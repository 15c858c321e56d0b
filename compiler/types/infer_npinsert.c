/* Typing of np.insert(arr, obj, values, axis=None) as Numba 0.68's
 * np_insert (numba/np/arraymath.py), which works on the flattened arr:
 *   arr: an array of any dimensions and layout, or a tuple of numbers of
 *   one type (Numba's UniTuple is a Sequence); the result is a new 1-D C
 *   array of its dtype.
 *   obj: an integer (not a bool), an array of integers or a tuple of
 *   integers of one type.
 *   values: a number, a bool, an array or a tuple of numbers of one
 *   type, stored into the result's dtype as Numba's setitem casts
 *   (complex values into a real arr are its TypingError).
 *   axis: absent or None; anything else is Numba's TypingError.
 * Numba's messages; lists are refused where they are written
 * (infer_expr.c: use a tuple). Host runtime: CUDA kernels refuse it. */
#include <stdio.h>
#include <string.h>

#include "compiler/types/infer_internal.h"

/* A tuple whose elements are numbers of one dtype (Numba's UniTuple of a
 * number type): that dtype, else UF_NTYPES. */
static uf_dtype unituple_dtype(const uf__type *t)
{
    if (t->kind != UF__T_TUPLE || t->n == 0)
        return UF_NTYPES;
    for (int i = 0; i < t->n; i++)
        if (t->elts[i]->kind != UF__T_SCALAR ||
            t->elts[i]->dtype != t->elts[0]->dtype)
            return UF_NTYPES;
    return t->elts[0]->dtype;
}

static bool is_int(uf_dtype d)
{
    return uf_dtype_kind(d) == 'i' || uf_dtype_kind(d) == 'u';
}

const uf__type *uf__infer_npinsert(uf__ictx *C, const uf__expr *e)
{
    static const char *const names[] = {"arr", "obj", "values", "axis"};
    const char *fn = "np.insert";
    uf__iinfo(C, e)->builtin = UF__BI_NP_INSERT;
    uf__kernel_kind k = C->tf->decl->kind;
    if (k == UF__K_CUDA_KERNEL || k == UF__K_DEVICE)
        return uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->pos, "%s() allocates "
                          "its result in the host runtime, which CUDA "
                          "kernels cannot do", fn);
    const uf__expr *x[4];
    if (!uf__infer_bind(C, e, fn, names, 4, 3, x))
        return NULL;
    const uf__type *t[4] = {NULL, NULL, NULL, NULL};
    for (int i = 0; i < 4; i++) {
        if (x[i] == NULL)
            continue;
        t[i] = uf__infer_expr(C, x[i]);
        if (t[i] == NULL || t[i] == UF__UNKNOWN)
            return t[i];
    }
    uf_dtype ad = t[0]->kind == UF__T_ARRAY ? t[0]->dtype
                                            : unituple_dtype(t[0]);
    if (ad == UF_NTYPES)
        return uf__ierr_t(C, UF_ERR_TYPING, x[0]->pos, "%s(): arr must be "
                          "either an Array or a Sequence, not %s", fn,
                          uf__tname(t[0]));
    const uf__type *v = t[2];
    uf_dtype vd = v->kind == UF__T_ARRAY || v->kind == UF__T_SCALAR
                      ? v->dtype
                      : unituple_dtype(v);
    if (vd == UF_NTYPES)
        return uf__ierr_t(C, UF_ERR_TYPING, x[2]->pos, "%s(): values must "
                          "be a scalar, an Array or a Sequence, not %s", fn,
                          uf__tname(v));
    if (t[3] != NULL && t[3]->kind != UF__T_NONE)
        return uf__ierr_t(C, UF_ERR_TYPING, x[3]->pos, "%s(): The 'axis' "
                          "argument is not supported", fn);
    const uf__type *o = t[1];
    if (o->kind == UF__T_SCALAR) {
        if (!is_int(o->dtype))
            return uf__ierr_t(C, UF_ERR_TYPING, x[1]->pos, "%s(): obj "
                              "should be an Integer, an Array or a "
                              "Sequence, not %s", fn, uf__tname(o));
    } else {
        uf_dtype od = o->kind == UF__T_ARRAY ? o->dtype : unituple_dtype(o);
        if (od == UF_NTYPES)
            return uf__ierr_t(C, UF_ERR_TYPING, x[1]->pos, "%s(): obj "
                              "should be an Integer, an Array or a "
                              "Sequence, not %s", fn, uf__tname(o));
        if (!is_int(od))
            return uf__ierr_t(C, UF_ERR_TYPING, x[1]->pos, "%s(): obj "
                              "should be of Integer dtype, not %s", fn,
                              uf__tname(o));
    }
    if (uf_dtype_kind(vd) == 'c' && uf_dtype_kind(ad) != 'c')
        return uf__ierr_t(C, UF_ERR_TYPING, x[2]->pos, "%s(): cannot store "
                          "%s values into an array of %s (Numba's setitem "
                          "refuses the cast)", fn, uf__tname(v),
                          uf_dtype_name(ad));
    const uf__type *r = uf__type_array(C->tc, ad, 1, 'C', C->err);
    return r ? uf__iset(C, e, r) : uf__ioom(C);
}
