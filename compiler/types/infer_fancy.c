/* Typing of advanced indexing as Numba's get_array_index_type: integer
 * arrays or one boolean array among a subscript's indices, the others
 * integers, slices, None and one ellipsis (infer_slice.c typed them).
 * The result is a new C array (a copy, writable) of the base's dtype:
 * integer arrays take one axis each and give together the dimensions of
 * the largest of them (they broadcast together), a 1-D boolean mask
 * takes one axis and gives one (its true count).
 *
 * Beyond Numba: a boolean mask of the array's own shape as the only
 * index (a[a > 0] of an N-d a) gives the 1-D array of the selected
 * elements, as NumPy; Numba 0.68 fails on it with an internal
 * AssertionError. Refused: a boolean array beside another array index
 * (Numba 0.68 fails on it with an internal TypeError), a 0-d boolean
 * array as an index (Numba 0.68: an internal AssertionError; a 0-d
 * integer array is an integer index, infer_slice.c), an N-d mask with other indices; any of it in CUDA kernels and
 * device functions. */
#include "compiler/types/index_kinds.h"
#include "compiler/types/infer_internal.h"

const uf__type *uf__infer_fancy_index(uf__ictx *C, const uf__expr *e,
                                      const uf__type *arr)
{
    uf__expr *const *idx = e->u.subscript.index;
    int n = e->u.subscript.nindex;
    uf__kernel_kind kk = C->tf->decl->kind;
    if (kk == UF__K_CUDA_KERNEL || kk == UF__K_DEVICE)
        return uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->pos, "%s", "advanced "
                          "indexing (an array as an index) makes an array "
                          "on the host, which CUDA kernels cannot do: "
                          "index with integers and slices");
    const uf__expr *adv = NULL;
    const uf__type *at = NULL;
    int nint = 0, nnew = 0, nslice = 0, narr = 0, maxnd = 0;
    for (int i = 0; i < n; i++) {
        const uf__expr *x = idx[i];
        switch (uf__index_kind(C->tf, x)) {
        case UF__IX_ARRAY: {
            const uf__type *t = uf__iinfo(C, x)->type;
            if (uf_dtype_kind(t->dtype) != 'i' &&
                uf_dtype_kind(t->dtype) != 'u' && t->dtype != UF_BOOL)
                return uf__ierr_t(C, UF_ERR_TYPING, x->pos, "Unsupported "
                                  "array index type %s (arrays used as "
                                  "indices hold integers or booleans)",
                                  uf__tname(t));
            if (t->ndim == 0) /* of booleans: integers are UF__IX_INT */
                return uf__ierr_t(C, UF_ERR_UNSUPPORTED, x->pos, "a 0-d "
                                  "boolean array (%s) as an index is not "
                                  "supported (Numba 0.68 fails on it): "
                                  "test m[()] with an if",
                                  uf__tname(t));
            if (adv != NULL && (t->dtype == UF_BOOL || at->dtype == UF_BOOL))
                return uf__ierr_t(C, UF_ERR_UNSUPPORTED,
                                  t->dtype == UF_BOOL ? x->pos : adv->pos,
                                  "%s",
                                  "a boolean array beside another array "
                                  "index is not supported (Numba 0.68 "
                                  "fails on it): index with np.nonzero(m)"
                                  "[0] in place of the mask");
            if (adv == NULL || t->dtype == UF_BOOL) {
                adv = x;
                at = t;
            }
            narr++;
            if (t->ndim > maxnd)
                maxnd = t->ndim;
            break;
        }
        case UF__IX_INT:
            nint++;
            break;
        case UF__IX_SLICE:
            nslice++;
            break;
        case UF__IX_NEWAXIS:
            nnew++;
            break;
        case UF__IX_ELLIPSIS:
            break;
        }
    }
    bool mask = at->dtype == UF_BOOL;
    if (mask && at->ndim > 1) {
        if (n != 1 || at->ndim != arr->ndim)
            return uf__ierr_t(C, UF_ERR_UNSUPPORTED, adv->pos, "a boolean "
                              "mask of %d dimensions (%s) must be the only "
                              "index and have the array's dimensions (%s) "
                              "in kernels", at->ndim, uf__tname(at),
                              uf__tname(arr));
        return uf__iset(C, e, uf__type_array_ro(C->tc, arr->dtype, 1, 'C',
                                                false, C->err));
    }
    int nreal = nint + nslice + narr;
    if (nreal > arr->ndim)
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "cannot index %s with "
                          "%d indices", uf__tname(arr), nreal);
    int nd = arr->ndim - nint - narr + nnew + (mask ? 1 : maxnd);
    if (nd > UF_MAXDIMS)
        return uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->pos, "%s", "too many "
                          "dimensions in the result of this subscript");
    return uf__iset(C, e, uf__type_array_ro(C->tc, arr->dtype, nd, 'C',
                                            false, C->err));
}
