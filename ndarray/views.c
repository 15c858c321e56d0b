/* NumPy's basic indexing: a[i, j:k:s, None, ...] as a view of a. */
#include <string.h>

#include "common/error_internal.h"
#include "ndarray/array_internal.h"

/* Python's slice.indices(len) for step != 0, plus the number of elements.
 * Omitted bounds default to the first/last element in step's direction;
 * negative ones count from the end; both are then clamped to [0, len] for a
 * positive step and to [-1, len - 1] for a negative one. */
static void slice_indices(const uf_index *ix, int64_t len, int64_t *start,
                          int64_t *count)
{
    int64_t step = ix->has_step ? ix->step : 1;
    int64_t lo = step > 0 ? 0 : -1;
    int64_t hi = step > 0 ? len : len - 1;
    int64_t b = step > 0 ? lo : hi;
    int64_t e = step > 0 ? hi : lo;
    if (ix->has_start) {
        b = ix->start < 0 ? ix->start + len : ix->start;
        b = b < lo ? lo : b > hi ? hi : b;
    }
    if (ix->has_stop) {
        e = ix->stop < 0 ? ix->stop + len : ix->stop;
        e = e < lo ? lo : e > hi ? hi : e;
    }
    *start = b;
    /* Unsigned so that |INT64_MIN| is representable. */
    if (step > 0)
        *count = e > b ? (int64_t)((uint64_t)(e - b - 1) / (uint64_t)step) + 1
                       : 0;
    else
        *count = b > e ? (int64_t)((uint64_t)(b - e - 1) /
                                   (0 - (uint64_t)step)) + 1
                       : 0;
}

/* Checks the index list as NumPy does before touching any axis: kinds, at
 * most one ellipsis, not more indices than axes, result rank in range. */
static int check_index(const uf_array *a, const uf_index *idx, int nidx,
                       int *consumed, int *out_ndim, uf_error *err)
{
    int n_used = 0, n_int = 0, n_new = 0;
    bool ellipsis = false;
    for (int i = 0; i < nidx; i++) {
        switch (idx[i].kind) {
        case UF_INDEX_INTEGER:
            n_int++;
            n_used++;
            break;
        case UF_INDEX_SLICE:
            n_used++;
            break;
        case UF_INDEX_NEWAXIS:
            n_new++;
            break;
        case UF_INDEX_ELLIPSIS:
            if (ellipsis)
                return uf__error_set(err, UF_ERR_INDEX,
                                     "an index can only have a single "
                                     "ellipsis ('...')");
            ellipsis = true;
            break;
        default:
            return uf__error_set(err, UF_ERR_INVALID,
                                 "index entry %d has an invalid kind %d", i,
                                 (int)idx[i].kind);
        }
    }
    if (n_used > a->ndim)
        return uf__error_set(err, UF_ERR_INDEX,
                             "too many indices for array: array is "
                             "%d-dimensional, but %d were indexed", a->ndim,
                             n_used);
    int nd = a->ndim - n_int + n_new;
    if (nd > UF_MAXDIMS)
        return uf__error_set(err, UF_ERR_INDEX,
                             "number of dimensions must be within [0, %d], "
                             "indexing result would have %d", UF_MAXDIMS, nd);
    *consumed = n_used;
    *out_ndim = nd;
    return 0;
}

uf_array *uf_array_index(uf_array *a, const uf_index *idx, int nidx,
                         uf_error *err)
{
    if (a == NULL || nidx < 0 || (nidx > 0 && idx == NULL)) {
        uf__error_set(err, UF_ERR_INVALID,
                      "uf_array_index: array is NULL or index list invalid");
        return NULL;
    }
    int consumed = 0, nd = 0;
    if (check_index(a, idx, nidx, &consumed, &nd, err) < 0)
        return NULL;

    int64_t shape[UF_MAXDIMS], strides[UF_MAXDIMS];
    int64_t offset = 0; /* bytes from a->data */
    int in = 0, out = 0;
    for (int i = 0; i < nidx; i++) {
        const uf_index *ix = &idx[i];
        if (ix->kind == UF_INDEX_INTEGER) {
            int64_t len = a->shape[in], k = ix->start;
            if (k < -len || k >= len) {
                uf__error_set(err, UF_ERR_INDEX,
                              "index %lld is out of bounds for axis %d with "
                              "size %lld", (long long)k, in, (long long)len);
                return NULL;
            }
            offset += (k < 0 ? k + len : k) * a->strides[in];
            in++;
        } else if (ix->kind == UF_INDEX_SLICE) {
            if (ix->has_step && ix->step == 0) {
                uf__error_set(err, UF_ERR_VALUE, "slice step cannot be zero");
                return NULL;
            }
            int64_t start, count, step = ix->has_step ? ix->step : 1;
            slice_indices(ix, a->shape[in], &start, &count);
            /* NumPy points an empty slice at the axis start, stride kept. */
            if (count == 0) {
                start = 0;
                step = 1;
            }
            int64_t stride;
            if (__builtin_mul_overflow(a->strides[in], step, &stride)) {
                /* Only one element is reachable, so the stride is moot. */
                if (count > 1) {
                    uf__error_set(err, UF_ERR_OVERFLOW,
                                  "slice stride overflows on axis %d", in);
                    return NULL;
                }
                stride = 0;
            }
            offset += start * a->strides[in];
            shape[out] = count;
            strides[out] = stride;
            in++;
            out++;
        } else if (ix->kind == UF_INDEX_NEWAXIS) {
            shape[out] = 1;
            strides[out] = 0;
            out++;
        } else { /* ellipsis: the axes no other entry uses */
            for (int k = 0; k < a->ndim - consumed; k++, in++, out++) {
                shape[out] = a->shape[in];
                strides[out] = a->strides[in];
            }
        }
    }
    for (; in < a->ndim; in++, out++) {
        shape[out] = a->shape[in];
        strides[out] = a->strides[in];
    }
    /* No arithmetic on a NULL pointer (empty wrapped arrays). */
    char *data = offset != 0 ? a->data + offset : a->data;
    return uf__array_view(a, a->dtype, nd, shape, strides, data, err);
}

uf_array *uf_array_slice(uf_array *a, const char *expr, uf_error *err)
{
    /* Enough for any valid index: each entry uses an axis (at most
     * UF_MAXDIMS) or adds one (at most UF_MAXDIMS), plus one ellipsis. */
    uf_index idx[2 * UF_MAXDIMS + 1];
    int n;
    if (a == NULL) {
        uf__error_set(err, UF_ERR_INVALID, "uf_array_slice: array is NULL");
        return NULL;
    }
    if (uf_index_parse(expr, idx, 2 * UF_MAXDIMS + 1, &n, err) < 0)
        return NULL;
    return uf_array_index(a, idx, n, err);
}
