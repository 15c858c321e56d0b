/* Broadcasting of shapes with NumPy's rules. */
#include "common/error_internal.h"
#include "ndarray/array_internal.h"

/* Room for "(d, d, ...)" of UF_MAXDIMS 20-digit dimensions. */
#define SHAPE_STR_SIZE (UF_MAXDIMS * 22 + 4)

static int mismatch(const int *ndims, const int64_t *const *shapes,
                    int a, int b, uf_error *err)
{
    char sa[SHAPE_STR_SIZE], sb[SHAPE_STR_SIZE];

    uf__shape_str(ndims[a], shapes[a], sa, sizeof sa);
    uf__shape_str(ndims[b], shapes[b], sb, sizeof sb);
    return uf__error_set(err, UF_ERR_SHAPE,
                         "shape mismatch: objects cannot be broadcast to a "
                         "single shape.  Mismatch is between arg %d with "
                         "shape %s and arg %d with shape %s.",
                         a, sa, b, sb);
}

/* Shapes are aligned to the right. Like NumPy's PyArray_Broadcast, each
 * result dimension remembers which operand first set it (to something
 * other than 1), so the message names that operand and the first one
 * that disagrees with it. */
int uf_broadcast_shapes(int n, const int *ndims,
                        const int64_t *const *shapes, int *out_ndim,
                        int64_t *out_shape, uf_error *err)
{
    int setter[UF_MAXDIMS];
    int nd = 0;

    if (n < 0 || (n > 0 && (ndims == NULL || shapes == NULL)) ||
        out_ndim == NULL || out_shape == NULL)
        return uf__error_set(err, UF_ERR_INVALID,
                             "uf_broadcast_shapes: invalid arguments");
    for (int j = 0; j < n; j++) {
        if (ndims[j] < 0 || (ndims[j] > 0 && shapes[j] == NULL))
            return uf__error_set(err, UF_ERR_INVALID,
                                 "uf_broadcast_shapes: invalid shape for "
                                 "arg %d", j);
        if (ndims[j] > UF_MAXDIMS)
            return uf__error_set(err, UF_ERR_SHAPE,
                                 "broadcast result would have %d "
                                 "dimensions, more than the maximum of %d",
                                 ndims[j], UF_MAXDIMS);
        for (int k = 0; k < ndims[j]; k++)
            if (shapes[j][k] < 0)
                return uf__error_set(err, UF_ERR_VALUE,
                                     "negative dimensions are not allowed "
                                     "(arg %d)", j);
        if (ndims[j] > nd)
            nd = ndims[j];
    }

    for (int i = 0; i < nd; i++) {
        int64_t dim = 1;

        setter[i] = -1;
        for (int j = 0; j < n; j++) {
            int k = i + ndims[j] - nd;
            int64_t d;

            if (k < 0)
                continue;
            d = shapes[j][k];
            if (d == 1)
                continue;
            if (dim == 1) {
                dim = d;
                setter[i] = j;
            } else if (dim != d) {
                return mismatch(ndims, shapes, setter[i], j, err);
            }
        }
        out_shape[i] = dim;
    }
    *out_ndim = nd;
    return 0;
}
