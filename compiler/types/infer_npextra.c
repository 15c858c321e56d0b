/* Typing of np.nanargmin / np.nanargmax(a, axis=None),
 * np.count_nonzero(a, axis=None) and np.ptp(a) as Numba 0.68 types them
 * (numba/np/arraymath.py: np_nanargmin, np_count_nonzero, np_ptp):
 *   nanarg*: an array of ints, bools or floats (complex: no
 *     implementation); int64, or with an integer axis the argmin/argmax
 *     axis form (a number for 1-D, else a new C array of int64);
 *   count_nonzero: any array; int64, or with an axis np.sum(a.astype(bool),
 *     axis): an integer or a tuple of them, int64 a number when every
 *     axis goes, else a new C array (complex: Numba cannot cast it to
 *     bool; axis=() refused: Numba returns the bool copy);
 *   ptp: an array or a number, not bool arrays, not 0-d arrays (Numba
 *     fails on len() of them); the result int64 for signed ints and bools,
 *     float64 for unsigned ints and floats, complex128 for complex.
 * Lowered by lower_npextra.c. */
#include <string.h>

#include "compiler/types/infer_internal.h"
#include "compiler/types/infer_npextra.h"
#include "compiler/types/infer_npreduce.h"

const char *uf__npextra_bind(const uf__expr *e, uf__builtin b,
                             const uf__expr **a, const uf__expr **axis,
                             uf__pos *where)
{
    static const char *const names[] = {"a", "axis"};
    const uf__expr *x[2] = {NULL, NULL};
    int np = b == UF__BI_NP_PTP ? 1 : 2;
    *where = e->pos;
    if (e->u.call.nargs > np) {
        *where = e->u.call.args[np]->pos;
        return "too many positional arguments";
    }
    for (int i = 0; i < e->u.call.nargs; i++)
        x[i] = e->u.call.args[i];
    for (int k = 0; k < e->u.call.nkw; k++) {
        const uf__keyword *kw = &e->u.call.kw[k];
        int i = 0;
        while (i < np && strcmp(names[i], kw->name) != 0)
            i++;
        *where = kw->pos;
        if (i == np)
            return "got an unexpected keyword argument";
        if (x[i] != NULL)
            return "got multiple values for an argument";
        x[i] = kw->value;
    }
    if (x[0] == NULL)
        return "missing a required argument: 'a'";
    *a = x[0];
    *axis = x[1];
    return NULL;
}

static bool is_none(const uf__type *t)
{
    return t == NULL || t->kind == UF__T_NONE;
}

/* True, with the refusal set, where the kernel cannot allocate. */
static bool refuse_cuda_alloc(uf__ictx *C, const uf__expr *e,
                              const char *name)
{
    uf__kernel_kind k = C->tf->decl->kind;
    if (k != UF__K_CUDA_KERNEL && k != UF__K_DEVICE)
        return false;
    uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->pos, "%s with an axis allocates "
               "an array, which CUDA kernels cannot do", name);
    return true;
}

static const uf__type *type_nanarg(uf__ictx *C, const uf__expr *e,
                                   const char *name, const uf__type *a,
                                   const uf__expr *ax, const uf__type *at)
{
    if (a->kind != UF__T_ARRAY || uf_dtype_kind(a->dtype) == 'c')
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "No implementation of "
                          "%s for (%s,): arrays of integers, bools or "
                          "floats only", name, uf__tname(a));
    if (is_none(at))
        return uf__type_scalar(C->tc, UF_INT64);
    if (!uf__type_is_int(at))
        return uf__ierr_t(C, UF_ERR_TYPING, ax->pos, "%s",
                          "axis must be an integer");
    if (a->ndim == 0)
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "No implementation of "
                          "%s for (%s, axis): a 0-d array has no axis",
                          name, uf__tname(a));
    if (a->ndim == 1)
        return uf__type_scalar(C->tc, UF_INT64);
    if (refuse_cuda_alloc(C, e, name))
        return NULL;
    return uf__type_array(C->tc, UF_INT64, a->ndim - 1, 'C', C->err);
}

static const uf__type *type_count(uf__ictx *C, const uf__expr *e,
                                  const char *name, const uf__type *a,
                                  const uf__expr *ax, const uf__type *at)
{
    if (a->kind != UF__T_ARRAY)
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "No implementation of "
                          "%s for (%s,): kernels count the elements of "
                          "arrays", name, uf__tname(a));
    if (is_none(at))
        return uf__type_scalar(C->tc, UF_INT64);
    if (uf_dtype_kind(a->dtype) == 'c')
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "No implementation of "
                          "%s for (%s,) with an axis: Numba cannot cast "
                          "complex numbers to bool", name, uf__tname(a));
    uf__npsum_axes kind = uf__npsum_axes_of(at);
    if (kind == UF__NPSUM_BAD)
        return uf__ierr_t(C, UF_ERR_TYPING, ax->pos, "%s", "NumPy sum only "
                          "supports integer axis value or tuple of integers");
    if (kind == UF__NPSUM_COPY)
        return uf__ierr_t(C, UF_ERR_UNSUPPORTED, ax->pos, "%s(a, axis=()) "
                          "is not supported in kernels (Numba returns a "
                          "bool copy of a)", name);
    int n = kind == UF__NPSUM_ONE ? 1 : at->n;
    if (a->ndim <= n)
        return uf__type_scalar(C->tc, UF_INT64);
    if (refuse_cuda_alloc(C, e, name))
        return NULL;
    return uf__type_array(C->tc, UF_INT64, a->ndim - n, 'C', C->err);
}

static const uf__type *type_ptp(uf__ictx *C, const uf__expr *e,
                                const char *name, const uf__type *a)
{
    if (a->kind != UF__T_ARRAY && a->kind != UF__T_SCALAR)
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "No implementation of "
                          "%s for (%s,): arrays and numbers only", name,
                          uf__tname(a));
    if (a->kind == UF__T_ARRAY && a->dtype == UF_BOOL)
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "%s",
                          "Boolean dtype is unsupported (as per NumPy)");
    if (a->kind == UF__T_ARRAY && a->ndim == 0)
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "No implementation of "
                          "%s for (%s,): len() of a 0-d array", name,
                          uf__tname(a));
    uf_dtype acc, res;
    uf__npreduce_dtypes(UF__BI_NP_PTP, a->dtype, &acc, &res);
    return uf__type_scalar(C->tc, res);
}

const uf__type *uf__infer_npextra(uf__ictx *C, const uf__expr *e,
                                  uf__builtin b, const char *name)
{
    const uf__expr *ax = NULL, *x = NULL;
    uf__pos where;
    const char *bad = uf__npextra_bind(e, b, &x, &ax, &where);
    if (bad)
        return uf__ierr_t(C, UF_ERR_TYPING, where, "%s(): %s", name, bad);
    const uf__type *a = uf__infer_expr(C, x);
    if (a == NULL || a == UF__UNKNOWN)
        return a;
    const uf__type *at = NULL;
    if (ax != NULL) {
        at = uf__infer_expr(C, ax);
        if (at == NULL || at == UF__UNKNOWN)
            return at;
    }
    uf_dtype acc, res;
    if (a->kind == UF__T_ARRAY || a->kind == UF__T_SCALAR) {
        uf__npreduce_dtypes(b, a->dtype, &acc, &res);
        uf__iinfo(C, e)->optype = uf__type_scalar(C->tc, acc);
    }
    switch (b) {
    case UF__BI_NP_NANARGMIN:
    case UF__BI_NP_NANARGMAX:
        return type_nanarg(C, e, name, a, ax, at);
    case UF__BI_NP_COUNT_NONZERO:
        return type_count(C, e, name, a, ax, at);
    default:
        return type_ptp(C, e, name, a);
    }
}
