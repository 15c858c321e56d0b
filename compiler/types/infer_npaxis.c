/* Typing of np.sum(a, axis=None, dtype=None) / a.sum(axis=None,
 * dtype=None) as Numba's array_sum types it (numba/np/arraymath.py):
 *   axis None or absent: the whole array, a number;
 *   an integer: a number for 0-d and 1-D arrays (0-d: AxisError at run
 *     time), else a new C array of the other N-1 axes;
 *   a tuple of n integers of one dtype: a number when a.ndim <= n (the
 *     bounds and duplicates checked at run time), else a new C array of
 *     the N-n other axes;
 *   (): a copy, np.copy(a) or a.astype(dtype) (F stays F).
 * The sum accumulates in dtype= when given (a NumPy type or dtype:
 * Numba reads its .dtype, which a string or Python's float lack), else
 * in Numba's accumulator (int64 for small ints and bool, uint64 for
 * unsigned). A number gives itself converted, whatever the axis.
 * Lowered by lower_npaxis.c. */
#include <string.h>

#include "compiler/types/infer_internal.h"
#include "compiler/types/infer_npreduce.h"

const uf__type *uf__infer_np_dtype_param(uf__ictx *C, const char *name,
                                         const uf__expr *x, uf_dtype *dt)
{
    *dt = UF_NTYPES;
    if (x == NULL)
        return uf__type_none(C->tc);
    const uf__type *t = NULL;
    if (x->kind == UF__EX_NAME) { /* float? */
        t = uf__infer_expr(C, x);
        if (t == NULL || t == UF__UNKNOWN)
            return t;
    }
    /* Numba's get_ret_dtype_if_any reads dtype.dtype: an AttributeError
     * at compile time for these */
    if (x->kind == UF__EX_STR ||
        (t && t->kind == UF__T_FUNCTION && strcmp(t->name, "float") == 0))
        return uf__ierr_t(C, UF_ERR_TYPING, x->pos, "%s(): dtype must be a "
                          "NumPy type such as np.float32 or a dtype such as "
                          "a.dtype (Numba reads its .dtype; a string or "
                          "float has none)", name);
    return uf__infer_dtype_arg(C, name, x, dt);
}

/* The parameters after the array: axis, dtype (NULL when absent). */
static int bind(uf__ictx *C, const uf__expr *e, const char *name,
                bool method, const uf__expr **axis, const uf__expr **dtype)
{
    static const char *const names[] = {"axis", "dtype"};
    const uf__expr *x[2] = {NULL, NULL};
    int skip = method ? 0 : 1;
    int npos = e->u.call.nargs - skip;
    if (npos > 2)
        return uf__ierr(C, UF_ERR_TYPING, e->u.call.args[skip + 2]->pos,
                        "%s() takes at most %d positional arguments", name,
                        2 + skip);
    for (int i = 0; i < npos; i++)
        x[i] = e->u.call.args[skip + i];
    for (int k = 0; k < e->u.call.nkw; k++) {
        const uf__keyword *kw = &e->u.call.kw[k];
        int i = 0;
        while (i < 2 && strcmp(names[i], kw->name) != 0)
            i++;
        if (i == 2 || x[i] != NULL)
            return uf__ierr(C, UF_ERR_TYPING, kw->pos, "%s() got %s keyword "
                            "argument '%s'%s", name,
                            i == 2 ? "an unexpected" : "a repeated",
                            kw->name,
                            i == 2 ? " (Numba's takes axis and dtype)" : "");
        x[i] = kw->value;
    }
    *axis = x[0];
    *dtype = x[1];
    return 0;
}

uf__npsum_axes uf__npsum_axes_of(const uf__type *t)
{
    if (t == NULL || t->kind == UF__T_NONE)
        return UF__NPSUM_WHOLE;
    if (uf__type_is_int(t))
        return UF__NPSUM_ONE;
    if (t->kind != UF__T_TUPLE)
        return UF__NPSUM_BAD;
    if (t->n == 0)
        return UF__NPSUM_COPY;
    /* Numba's UniTuple of integers: one integer dtype */
    for (int i = 0; i < t->n; i++)
        if (!uf__type_is_int(t->elts[i]) ||
            t->elts[i]->dtype != t->elts[0]->dtype)
            return UF__NPSUM_BAD;
    return UF__NPSUM_TUPLE;
}

const uf__type *uf__infer_npsum(uf__ictx *C, const uf__expr *e,
                                const char *name, bool method,
                                const uf__type *a)
{
    const uf__expr *ax = NULL, *dx = NULL;
    if (bind(C, e, name, method, &ax, &dx) != 0)
        return NULL;
    const uf__type *at = NULL;
    if (ax != NULL) {
        at = uf__infer_expr(C, ax);
        if (at == NULL || at == UF__UNKNOWN)
            return at;
    }
    uf__npsum_axes kind = uf__npsum_axes_of(at);
    if (kind == UF__NPSUM_BAD)
        return uf__ierr_t(C, UF_ERR_TYPING, ax->pos, "%s", "NumPy sum only "
                          "supports integer axis value or tuple of integers");
    uf_dtype want;
    const uf__type *r = uf__infer_np_dtype_param(C, name, dx, &want);
    if (r == NULL || r == UF__UNKNOWN)
        return r;
    bool arr = a->kind == UF__T_ARRAY;
    if (!arr && a->kind != UF__T_SCALAR)
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "No implementation of "
                          "%s for (%s,): kernels sum arrays and numbers",
                          name, uf__tname(a));
    if (want != UF_NTYPES && uf_dtype_kind(a->dtype) == 'c' &&
        uf_dtype_kind(want) != 'c')
        return uf__ierr_t(C, UF_ERR_TYPING, dx->pos, "%s() of %s with "
                          "dtype=%s: Numba cannot convert complex numbers "
                          "to it", name, uf__tname(a), uf_dtype_name(want));
    uf_dtype acc, res;
    uf__npreduce_dtypes(UF__BI_NP_SUM, a->dtype, &acc, &res);
    if (want != UF_NTYPES)
        acc = want;
    uf__iinfo(C, e)->optype = uf__type_scalar(C->tc, acc);
    int n = kind == UF__NPSUM_ONE ? 1 : kind == UF__NPSUM_TUPLE ? at->n : 0;
    if (!arr || kind == UF__NPSUM_WHOLE ||
        (kind != UF__NPSUM_COPY && a->ndim <= n))
        return uf__type_scalar(C->tc, acc);
    uf__kernel_kind k = C->tf->decl->kind;
    if (k == UF__K_CUDA_KERNEL || k == UF__K_DEVICE)
        return uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->pos, "%s allocates an "
                          "array, which CUDA kernels cannot do", name);
    if (kind == UF__NPSUM_COPY)
        return uf__type_array(C->tc, want != UF_NTYPES ? want : a->dtype,
                              a->ndim, a->layout == 'F' ? 'F' : 'C', C->err);
    return uf__type_array(C->tc, acc, a->ndim - n, 'C', C->err);
}
