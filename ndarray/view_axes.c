/* Views that only rearrange axes: transpose, squeeze, expand_dims and
 * broadcast_to. The data pointer never moves; shapes and strides do. Error
 * messages are NumPy's. */
#include <string.h>

#include "common/error_internal.h"
#include "ndarray/array_internal.h"
#include "ndarray/views.h"

/* NumPy's normalize_axis_index: [-ndim, ndim) -> [0, ndim). */
static int normalize_axis(int axis, int ndim, int *out, uf_error *err)
{
    if (axis < -ndim || axis >= ndim)
        return uf__error_set(err, UF_ERR_INDEX,
                             "axis %d is out of bounds for array of "
                             "dimension %d", axis, ndim);
    *out = axis < 0 ? axis + ndim : axis;
    return 0;
}

uf_array *uf_array_transpose(uf_array *a, const int *axes, uf_error *err)
{
    if (a == NULL) {
        uf__error_set(err, UF_ERR_INVALID, "uf_array_transpose: array is "
                                           "NULL");
        return NULL;
    }
    int n = a->ndim;
    int64_t shape[UF_MAXDIMS], strides[UF_MAXDIMS];
    bool seen[UF_MAXDIMS] = {false};
    for (int i = 0; i < n; i++) {
        int ax = n - 1 - i;
        if (axes != NULL) {
            if (normalize_axis(axes[i], n, &ax, err) < 0)
                return NULL;
            if (seen[ax]) {
                uf__error_set(err, UF_ERR_VALUE, "repeated axis in "
                                                 "transpose");
                return NULL;
            }
            seen[ax] = true;
        }
        shape[i] = a->shape[ax];
        strides[i] = a->strides[ax];
    }
    return uf__array_view(a, a->dtype, n, shape, strides, a->data, err);
}

uf_array *uf_array_squeeze(uf_array *a, const int *axes, int naxes,
                           uf_error *err)
{
    if (a == NULL || naxes < 0 || (naxes > 0 && axes == NULL)) {
        uf__error_set(err, UF_ERR_INVALID,
                      "uf_array_squeeze: array is NULL or axis list invalid");
        return NULL;
    }
    bool drop[UF_MAXDIMS] = {false};
    /* As NumPy: every axis is validated before any length is looked at. */
    for (int i = 0; i < naxes; i++) {
        int ax = 0;
        if (normalize_axis(axes[i], a->ndim, &ax, err) < 0)
            return NULL;
        if (drop[ax]) {
            uf__error_set(err, UF_ERR_VALUE, "duplicate value in 'axis'");
            return NULL;
        }
        drop[ax] = true;
    }
    for (int i = 0; i < a->ndim; i++) {
        if (naxes == 0)
            drop[i] = a->shape[i] == 1;
        else if (drop[i] && a->shape[i] != 1) {
            uf__error_set(err, UF_ERR_VALUE,
                          "cannot select an axis to squeeze out which has "
                          "size not equal to one");
            return NULL;
        }
    }
    int64_t shape[UF_MAXDIMS], strides[UF_MAXDIMS];
    int nd = 0;
    for (int i = 0; i < a->ndim; i++) {
        if (!drop[i]) {
            shape[nd] = a->shape[i];
            strides[nd++] = a->strides[i];
        }
    }
    return uf__array_view(a, a->dtype, nd, shape, strides, a->data, err);
}

uf_array *uf_array_expand_dims(uf_array *a, int axis, uf_error *err)
{
    if (a == NULL) {
        uf__error_set(err, UF_ERR_INVALID, "uf_array_expand_dims: array is "
                                           "NULL");
        return NULL;
    }
    int nd = a->ndim + 1, at = 0;
    if (normalize_axis(axis, nd, &at, err) < 0)
        return NULL;
    if (nd > UF_MAXDIMS) {
        uf__error_set(err, UF_ERR_VALUE,
                      "maximum supported dimension for an ndarray is "
                      "currently %d, found %d", UF_MAXDIMS, nd);
        return NULL;
    }
    int64_t shape[UF_MAXDIMS], strides[UF_MAXDIMS];
    for (int i = 0, j = 0; i < nd; i++) {
        if (i == at) {
            shape[i] = 1;
            strides[i] = 0; /* a length-1 axis: the stride is never used */
        } else {
            shape[i] = a->shape[j];
            strides[i] = a->strides[j++];
        }
    }
    return uf__array_view(a, a->dtype, nd, shape, strides, a->data, err);
}

uf_array *uf_array_broadcast_to(uf_array *a, int ndim, const int64_t *shape,
                                uf_error *err)
{
    if (a == NULL || ndim < 0 || (ndim > 0 && shape == NULL)) {
        uf__error_set(err, UF_ERR_INVALID,
                      "uf_array_broadcast_to: array is NULL or shape "
                      "invalid");
        return NULL;
    }
    if (ndim > UF_MAXDIMS) {
        uf__error_set(err, UF_ERR_VALUE,
                      "maximum supported dimension for an ndarray is "
                      "currently %d, found %d", UF_MAXDIMS, ndim);
        return NULL;
    }
    for (int i = 0; i < ndim; i++) {
        if (shape[i] < 0) {
            uf__error_set(err, UF_ERR_VALUE, "all elements of broadcast "
                                             "shape must be non-negative");
            return NULL;
        }
    }
    if (ndim == 0 && a->ndim > 0) {
        uf__error_set(err, UF_ERR_SHAPE, "cannot broadcast a non-scalar to "
                                         "a scalar array");
        return NULL;
    }
    if (a->ndim > ndim) {
        uf__error_set(err, UF_ERR_SHAPE,
                      "input operand has more dimensions than allowed by "
                      "the axis remapping");
        return NULL;
    }
    if (uf__shape_size(ndim, shape, err) < 0)
        return NULL;
    int64_t strides[UF_MAXDIMS];
    int lead = ndim - a->ndim;
    for (int i = 0; i < ndim; i++) {
        int64_t len = i < lead ? 1 : a->shape[i - lead];
        if (len == shape[i] && len != 1) {
            strides[i] = a->strides[i - lead];
        } else if (len == 1) {
            strides[i] = 0; /* NumPy zeroes length-1 source axes too */
        } else {
            char from[1536], to[1536];
            uf__error_set(err, UF_ERR_SHAPE,
                          "operands could not be broadcast together with "
                          "remapped shapes [original->remapped]: %s  and "
                          "requested shape %s",
                          uf__np_shape_str(a->ndim, a->shape, from,
                                           sizeof from),
                          uf__np_shape_str(ndim, shape, to, sizeof to));
            return NULL;
        }
    }
    uf_array *v = uf__array_view(a, a->dtype, ndim, shape, strides, a->data,
                                 err);
    if (v != NULL)
        v->flags &= ~UF_ARRAY_WRITEABLE;
    return v;
}
