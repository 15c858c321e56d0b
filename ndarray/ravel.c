/* np.ravel: the elements as a 1-D array; a view when memory already holds
 * them contiguously in the requested order, else a fresh copy. */
#include <string.h>

#include "common/error_internal.h"
#include "ndarray/array_internal.h"

static uint64_t magnitude(int64_t s)
{
    return s < 0 ? 0 - (uint64_t)s : (uint64_t)s;
}

/* The axis order (outermost first) in which NumPy's order='K' reads `a`.
 * Its iterator insertion-sorts the axes, innermost first, by |stride|; a
 * zero stride (length-1 axes count as zero) tells nothing, so such an axis
 * neither stops nor moves another one, and ties keep C order. Strides are
 * never negated, so reversed axes are read backwards. */
static void k_order(const uf_array *a, int *perm)
{
    int n = a->ndim, inner[UF_MAXDIMS];
    uint64_t s[UF_MAXDIMS];
    for (int i = 0; i < n; i++) {
        inner[i] = n - 1 - i;
        s[i] = a->shape[i] == 1 ? 0 : magnitude(a->strides[i]);
    }
    for (int i0 = 1; i0 < n; i0++) {
        int x = inner[i0], at = i0;
        for (int i1 = i0 - 1; i1 >= 0; i1--) {
            uint64_t sy = s[inner[i1]];
            if (s[x] == 0 || sy == 0)
                continue;
            if (sy <= s[x])
                break;
            at = i1;
        }
        memmove(&inner[at + 1], &inner[at], (size_t)(i0 - at) * sizeof *inner);
        inner[at] = x;
    }
    for (int i = 0; i < n; i++)
        perm[i] = inner[n - 1 - i];
}

/* True when reading `a` in `perm` order walks memory one item at a time
 * (length-1 axes aside): then the flat array is a view. */
static bool flat_in_memory(const uf_array *a, const int *perm)
{
    int64_t expect = (int64_t)uf_dtype_itemsize(a->dtype);
    for (int k = a->ndim - 1; k >= 0; k--) {
        int ax = perm[k];
        if (a->shape[ax] == 1)
            continue;
        if (a->strides[ax] != expect)
            return false;
        expect *= a->shape[ax];
    }
    return true;
}

/* A new 1-D array holding a's elements read in `perm` order: a's shape is
 * laid over the fresh buffer with strides that place each element at its
 * position in that reading order, and the elements are copied across. */
static uf_array *ravel_copy(uf_array *a, const int *perm, uf_error *err)
{
    int64_t size = uf_array_size(a);
    uf_array *out = uf_empty(a->dtype, 1, &size, UF_ORDER_C, err);
    if (out == NULL)
        return NULL;
    int64_t strides[UF_MAXDIMS];
    int64_t s = (int64_t)uf_dtype_itemsize(a->dtype);
    for (int k = a->ndim - 1; k >= 0; k--) {
        strides[perm[k]] = s;
        s *= a->shape[perm[k]];
    }
    uf_array *dst = uf__array_view(out, a->dtype, a->ndim, a->shape, strides,
                                   out->data, err);
    if (dst == NULL)
        goto fail_view;
    if (uf_array_copyto(dst, a, UF_CASTING_NO, err) < 0)
        goto fail_copy;
    uf_array_release(dst);
    return out;

fail_copy:
    uf_array_release(dst);
fail_view:
    uf_array_release(out);
    return NULL;
}

uf_array *uf_array_ravel(uf_array *a, uf_order order, uf_error *err)
{
    if (a == NULL) {
        uf__error_set(err, UF_ERR_INVALID, "uf_array_ravel: array is NULL");
        return NULL;
    }
    bool c_contig = a->flags & UF_ARRAY_C_CONTIGUOUS;
    bool f_contig = a->flags & UF_ARRAY_F_CONTIGUOUS;
    if (order == UF_ORDER_K) {
        if (c_contig)
            order = UF_ORDER_C;
        else if (f_contig)
            order = UF_ORDER_F;
    } else if (order == UF_ORDER_A) {
        order = f_contig && !c_contig ? UF_ORDER_F : UF_ORDER_C;
    } else if (order != UF_ORDER_C && order != UF_ORDER_F) {
        uf__error_set(err, UF_ERR_INVALID, "invalid order %d", (int)order);
        return NULL;
    }
    int64_t size = uf_array_size(a);
    if ((order == UF_ORDER_C && c_contig) || (order == UF_ORDER_F && f_contig))
        return uf_array_reshape(a, 1, &size, order, false, err);

    int perm[UF_MAXDIMS];
    for (int i = 0; i < a->ndim; i++)
        perm[i] = order == UF_ORDER_F ? a->ndim - 1 - i : i;
    if (order == UF_ORDER_K) {
        k_order(a, perm);
        if (flat_in_memory(a, perm)) {
            int64_t stride = (int64_t)uf_dtype_itemsize(a->dtype);
            return uf__array_view(a, a->dtype, 1, &size, &stride, a->data,
                                  err);
        }
    }
    return ravel_copy(a, perm, err);
}
