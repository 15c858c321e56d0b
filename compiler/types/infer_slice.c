/* Typing of array subscripts as Numba's get_array_index_type: integers,
 * basic slices (a[1:-1], a[::2]), None / np.newaxis and one ellipsis give
 * a view whose layout follows Numba's contiguity rules (a C array keeps
 * 'C' only while every index left of the innermost real one is an
 * integer, that innermost one being an integer or a slice without a
 * step; 'F' mirrored), and a scalar when no dimension is left. A 0-d
 * integer array is taken as the integer it holds (the view's layout is
 * then 'A', as Numba's contiguity rule does not count it). A
 * subscript with an array among its indices (fancy indexing, boolean
 * masks) is typed by infer_fancy.c. */
#include <string.h>

#include "compiler/types/index_kinds.h"
#include "compiler/types/infer_internal.h"

#define MAXIDX 64

#define OPERAND(var, expr)                                                  \
    do {                                                                    \
        (var) = uf__infer_expr(C, (expr));                                  \
        if ((var) == NULL || (var) == UF__UNKNOWN)                          \
            return (var);                                                   \
    } while (0)

bool uf__is_newaxis_expr(const uf__expr *x)
{
    /* np.newaxis (or numpy.newaxis): an attribute read of the module,
     * whose base's type says it is numpy */
    return x->kind == UF__EX_ATTR && strcmp(x->u.attr.attr, "newaxis") == 0;
}

bool uf__is_0d_int_index(const uf__type *t)
{
    return t != NULL && t->kind == UF__T_ARRAY && t->ndim == 0 &&
           (uf_dtype_kind(t->dtype) == 'i' || uf_dtype_kind(t->dtype) == 'u');
}

uf__ix_kind uf__index_kind(const uf__typed_func *tf, const uf__expr *x)
{
    if (x->kind == UF__EX_SLICE)
        return UF__IX_SLICE;
    if (x->kind == UF__EX_ELLIPSIS)
        return UF__IX_ELLIPSIS;
    const uf__type *t = uf__tf_info(tf, x)->type;
    if (t && t->kind == UF__T_NONE)
        return UF__IX_NEWAXIS;
    if (t && t->kind == UF__T_ARRAY && !uf__is_0d_int_index(t))
        return UF__IX_ARRAY;
    return UF__IX_INT;
}

bool uf__subscript_is_fancy(const uf__typed_func *tf, const uf__expr *e)
{
    const uf__type *bt = uf__tf_info(tf, e->u.subscript.value)->type;
    if (!bt || bt->kind != UF__T_ARRAY)
        return false;
    for (int i = 0; i < e->u.subscript.nindex; i++)
        if (uf__index_kind(tf, e->u.subscript.index[i]) == UF__IX_ARRAY)
            return true;
    return false;
}

bool uf__subscript_is_slicing(const uf__typed_func *tf, const uf__expr *e)
{
    for (int i = 0; i < e->u.subscript.nindex; i++)
        if (uf__index_kind(tf, e->u.subscript.index[i]) != UF__IX_INT)
            return true;
    return false;
}

/* Numba's keeps_contiguity: whether index `x` (innermost or not) can keep
 * a contiguous array contiguous. UF__IX_ARRAY here stands for a 0-d
 * integer array, which Numba's rule does not count as an integer. */
static bool keeps(uf__ix_kind k, bool has_step, bool innermost)
{
    if (k == UF__IX_ARRAY)
        return false;
    return k != UF__IX_SLICE || (innermost && !has_step);
}

/* Numba's check_contiguity over indices from outer to inner. */
static bool contiguous(const uf__ix_kind *k, const bool *step, int n)
{
    for (int i = 0; i < n; i++) {
        bool innermost = true;
        for (int j = i + 1; j < n; j++)
            innermost = innermost && k[j] == UF__IX_NEWAXIS;
        if (!keeps(k[i], step[i], innermost))
            return false;
    }
    return true;
}

static char view_layout(const uf__type *arr, const uf__ix_kind *k,
                        const bool *step, int n, int ell, int nreal)
{
    /* left: before the ellipsis, right: after it (Numba drops the
     * ellipsis itself); all real indices present: its place is moot */
    int nl = ell < 0 ? n : ell;
    int r0 = ell < 0 ? n : ell + 1;
    uf__ix_kind rk[MAXIDX];
    bool rs[MAXIDX];
    if (arr->layout == 'C') {
        if (nreal == arr->ndim) {
            int m = 0;
            for (int i = 0; i < n; i++)
                if (i != ell) {
                    rk[m] = k[i];
                    rs[m++] = step[i];
                }
            return contiguous(rk, rs, m) ? 'C' : 'A';
        }
        if (r0 < n)
            return 'A';
        return contiguous(k, step, nl) ? 'C' : 'A';
    }
    if (arr->layout == 'F') {
        if (nreal != arr->ndim && nl > 0)
            return 'A';
        int m = 0; /* the indices right to left */
        for (int i = n - 1; i >= (nreal == arr->ndim ? 0 : r0); i--)
            if (i != ell) {
                rk[m] = k[i];
                rs[m++] = step[i];
            }
        return contiguous(rk, rs, m) ? 'F' : 'A';
    }
    return 'A';
}

/* One bound of a slice: absent, None, or an integer. */
static const uf__type *slice_bound(uf__ictx *C, const uf__expr *b)
{
    if (b == NULL)
        return uf__type_none(C->tc);
    const uf__type *t;
    OPERAND(t, b);
    if (t->kind == UF__T_NONE || uf__type_is_int(t))
        return t;
    return uf__ierr_t(C, UF_ERR_TYPING, b->pos, "slice indices must be "
                      "integers or None, not %s", uf__tname(t));
}

const uf__type *uf__infer_array_index(uf__ictx *C, const uf__expr *e,
                                      const uf__type *arr)
{
    uf__expr *const *idx = e->u.subscript.index;
    int n = e->u.subscript.nindex;
    if (n > MAXIDX)
        return uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->pos, "%s", "too many "
                          "indices");
    uf__ix_kind k[MAXIDX];
    bool step[MAXIDX];
    int ell = -1, nint = 0, nreal = 0, nnew = 0, nadv = 0;
    for (int i = 0; i < n; i++) {
        const uf__expr *x = idx[i];
        step[i] = false;
        if (x->kind == UF__EX_ELLIPSIS) {
            if (ell >= 0)
                return uf__ierr_t(C, UF_ERR_TYPING, x->pos, "%s", "an index "
                                  "can only have a single ellipsis ('...')");
            ell = i;
            k[i] = UF__IX_ELLIPSIS;
            continue;
        }
        if (x->kind == UF__EX_SLICE) {
            const uf__expr *b[3] = {x->u.slice.lower, x->u.slice.upper,
                                    x->u.slice.step};
            for (int j = 0; j < 3; j++) {
                const uf__type *bt = slice_bound(C, b[j]);
                if (bt == NULL || bt == UF__UNKNOWN)
                    return bt;
            }
            /* Numba's slice3 type: a step written, even None or 1 */
            step[i] = x->u.slice.step != NULL;
            k[i] = UF__IX_SLICE;
            nreal++;
            continue;
        }
        const uf__type *t;
        if (uf__is_newaxis_expr(x)) {
            OPERAND(t, x->u.attr.value);
            if (t->kind == UF__T_MODULE && strcmp(t->name, "numpy") == 0) {
                uf__iset(C, x, uf__type_none(C->tc));
                k[i] = UF__IX_NEWAXIS;
                nnew++;
                continue;
            }
        }
        OPERAND(t, x);
        if (t->kind == UF__T_NONE) {
            k[i] = UF__IX_NEWAXIS;
            nnew++;
            continue;
        }
        if (t->kind == UF__T_TUPLE && n == 1) { /* a[(i, j)] */
            for (int j = 0; j < t->n; j++)
                if (!uf__type_is_int(t->elts[j]))
                    return uf__ierr_t(C, UF_ERR_TYPING, x->pos, "array "
                                      "indices must be integers, not %s",
                                      uf__tname(t->elts[j]));
            k[i] = UF__IX_INT;
            nint = nreal = t->n;
            break;
        }
        if (uf__is_0d_int_index(t)) { /* Numba: the integer it holds */
            k[i] = UF__IX_ARRAY; /* for view_layout only: see keeps() */
            nint++;
            nreal++;
            continue;
        }
        if (t->kind == UF__T_ARRAY) { /* infer_fancy.c checks it */
            k[i] = UF__IX_ARRAY;
            nadv++;
            continue;
        }
        if (!uf__type_is_int(t))
            return uf__ierr_t(C, UF_ERR_TYPING, x->pos, "array indices must "
                              "be integers, not %s", uf__tname(t));
        k[i] = UF__IX_INT;
        nint++;
        nreal++;
    }
    if (nadv > 0)
        return uf__infer_fancy_index(C, e, arr);
    if (nreal > arr->ndim)
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "too many indices for "
                          "%s: %d", uf__tname(arr), nreal);
    int nd = arr->ndim - nint + nnew;
    if (nd == 0) /* Numba: a 0-d result is the element itself */
        return uf__iset(C, e, uf__type_scalar(C->tc, arr->dtype));
    char layout = view_layout(arr, k, step, n, ell, nreal);
    return uf__iset(C, e, uf__type_array_ro(C->tc, arr->dtype, nd, layout,
                                            arr->readonly, C->err));
}

int uf__infer_slice_store(uf__ictx *C, const uf__expr *t,
                          const uf__type *view, const uf__type *vt)
{
    const uf__type *et = uf__type_scalar(C->tc, view->dtype);
    if (vt->kind == UF__T_SCALAR &&
        uf__type_conversion(vt, et) != UF__CONV_NONE)
        return 0;
    if (vt->kind == UF__T_ARRAY &&
        uf__type_conversion(uf__type_scalar(C->tc, vt->dtype), et) !=
            UF__CONV_NONE)
        return 0;
    return uf__ierr(C, UF_ERR_TYPING, t->pos, "cannot assign %s to a slice "
                    "of type %s", uf__tname(vt), uf__tname(view));
}
