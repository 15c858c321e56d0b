/* np.reshape: a view whenever the strides allow one, else a copy. */
#include <stdio.h>
#include <string.h>

#include "common/alloc.h"
#include "common/error_internal.h"
#include "ndarray/array_internal.h"
#include "ndarray/views.h"

const char *uf__np_shape_str(int n, const int64_t *vals, char *buf,
                             size_t size)
{
    int i = 0;
    while (i < n && vals[i] < 0)
        i++;
    if (i == n) {
        snprintf(buf, size, "()");
        return buf;
    }
    size_t len = (size_t)snprintf(buf, size, "(%lld", (long long)vals[i++]);
    for (; i < n && len < size; i++) {
        if (vals[i] < 0)
            len += (size_t)snprintf(buf + len, size - len, ",newaxis");
        else
            len += (size_t)snprintf(buf + len, size - len, ",%lld",
                                    (long long)vals[i]);
    }
    if (len < size)
        snprintf(buf + len, size - len, n == 1 ? ",)" : ")");
    return buf;
}

static void size_mismatch(int64_t size, int ndim, const int64_t *shape,
                          uf_error *err)
{
    char s[1536];
    uf__error_set(err, UF_ERR_SHAPE,
                  "cannot reshape array of size %lld into shape %s",
                  (long long)size, uf__np_shape_str(ndim, shape, s, sizeof s));
}

/* Replaces the one negative entry (NumPy treats any negative one as
 * unknown) by what makes the sizes match. Errors come in NumPy's order:
 * left to right, a second unknown or an overflowing product first. */
static int fix_unknown(int64_t size, int ndim, const int64_t *shape,
                       int64_t *dims, uf_error *err)
{
    int unknown = -1;
    int64_t known = 1;
    for (int i = 0; i < ndim; i++) {
        dims[i] = shape[i];
        if (shape[i] < 0) {
            if (unknown >= 0)
                return uf__error_set(err, UF_ERR_VALUE,
                                     "can only specify one unknown "
                                     "dimension");
            unknown = i;
        } else if (!uf__mul_i64(known, shape[i], &known)) {
            size_mismatch(size, ndim, shape, err);
            return -1;
        }
    }
    if (unknown >= 0) {
        if (known == 0 || size % known != 0) {
            size_mismatch(size, ndim, shape, err);
            return -1;
        }
        dims[unknown] = size / known;
    } else if (known != size) {
        size_mismatch(size, ndim, shape, err);
        return -1;
    }
    return 0;
}

/* Strides that show a's elements, read in C (or F) order, with shape
 * `dims`, without moving data; false when no such strides exist.
 *
 * Length-1 axes of `a` are dropped first: their strides mean nothing. Then
 * old and new axes are walked together, in the smallest groups whose
 * lengths multiply to the same number. Within a group the old axes must
 * step through memory as one block (each axis' stride equal to the next
 * inner axis' stride times its length, inner meaning last in C order,
 * first in F order); the new axes of the group then split that block,
 * starting from the stride of its innermost old axis. New length-1 axes
 * left at the end get the stride just past the last group. Needs a
 * non-empty array (a zero length would stall the walk). */
static bool nocopy_strides(const uf_array *a, int ndim, const int64_t *dims,
                           bool fortran, int64_t *out)
{
    int64_t od[UF_MAXDIMS], os[UF_MAXDIMS];
    int on = 0;
    for (int i = 0; i < a->ndim; i++) {
        if (a->shape[i] != 1) {
            od[on] = a->shape[i];
            os[on++] = a->strides[i];
        }
    }
    int oi = 0, ni = 0;
    while (oi < on && ni < ndim) {
        /* Both sides multiply to the array size, so whichever partial
         * product is smaller always has an axis left to take. */
        int oj = oi + 1, nj = ni + 1;
        int64_t op = od[oi], np = dims[ni];
        while (op != np) {
            if (np < op)
                np *= dims[nj++];
            else
                op *= od[oj++];
        }
        for (int k = oi; k < oj - 1; k++) {
            int64_t want;
            bool ok = fortran ? uf__mul_i64(od[k], os[k], &want) &&
                                    os[k + 1] == want
                              : uf__mul_i64(od[k + 1], os[k + 1], &want) &&
                                    os[k] == want;
            if (!ok)
                return false;
        }
        if (fortran) {
            out[ni] = os[oi];
            for (int k = ni + 1; k < nj; k++)
                if (!uf__mul_i64(out[k - 1], dims[k - 1], &out[k]))
                    return false;
        } else {
            out[nj - 1] = os[oj - 1];
            for (int k = nj - 1; k > ni; k--)
                if (!uf__mul_i64(out[k], dims[k], &out[k - 1]))
                    return false;
        }
        oi = oj;
        ni = nj;
    }
    int64_t last = (int64_t)uf_dtype_itemsize(a->dtype);
    if (ni > 0) {
        last = out[ni - 1];
        if (fortran && !uf__mul_i64(last, dims[ni - 1], &last))
            return false;
    }
    for (int k = ni; k < ndim; k++)
        out[k] = last;
    return true;
}

/* A copy of `a` in `order`, seen with shape `dims`. As NumPy, the result
 * is a view of the fresh copy. */
static uf_array *reshape_copy(uf_array *a, int ndim, const int64_t *dims,
                              uf_order order, uf_error *err)
{
    uf_array *c = uf_array_copy(a, order, err);
    if (c == NULL)
        return NULL;
    int64_t strides[UF_MAXDIMS];
    uf__contiguous_strides(uf_dtype_itemsize(a->dtype), ndim, dims, order,
                           strides);
    uf_array *v = uf__array_view(c, a->dtype, ndim, dims, strides, c->data,
                                 err);
    uf_array_release(c);
    return v;
}

uf_array *uf_array_reshape(uf_array *a, int ndim, const int64_t *shape,
                           uf_order order, bool allow_copy, uf_error *err)
{
    if (a == NULL || ndim < 0 || (ndim > 0 && shape == NULL)) {
        uf__error_set(err, UF_ERR_INVALID,
                      "uf_array_reshape: array is NULL or shape invalid");
        return NULL;
    }
    if (ndim > UF_MAXDIMS) {
        uf__error_set(err, UF_ERR_VALUE,
                      "maximum supported dimension for an ndarray is "
                      "currently %d, found %d", UF_MAXDIMS, ndim);
        return NULL;
    }
    bool c_contig = a->flags & UF_ARRAY_C_CONTIGUOUS;
    bool f_contig = a->flags & UF_ARRAY_F_CONTIGUOUS;
    if (order == UF_ORDER_A) {
        order = f_contig && !c_contig ? UF_ORDER_F : UF_ORDER_C;
    } else if (order == UF_ORDER_K) {
        uf__error_set(err, UF_ERR_VALUE, "order 'K' is not permitted for "
                                         "reshaping");
        return NULL;
    } else if (order != UF_ORDER_C && order != UF_ORDER_F) {
        uf__error_set(err, UF_ERR_INVALID, "invalid order %d", (int)order);
        return NULL;
    }

    /* The same shape is a plain view with the same strides, as NumPy. */
    if (ndim == a->ndim &&
        (ndim == 0 ||
         memcmp(shape, a->shape, (size_t)ndim * sizeof *shape) == 0))
        return uf__array_view(a, a->dtype, ndim, a->shape, a->strides,
                              a->data, err);

    int64_t size = uf_array_size(a);
    int64_t dims[UF_MAXDIMS], strides[UF_MAXDIMS];
    if (fix_unknown(size, ndim, shape, dims, err) < 0)
        return NULL;

    bool fortran = order == UF_ORDER_F;
    if (size == 0 || (fortran ? f_contig : c_contig)) {
        uf__contiguous_strides(uf_dtype_itemsize(a->dtype), ndim, dims, order,
                               strides);
    } else if (!nocopy_strides(a, ndim, dims, fortran, strides)) {
        if (allow_copy)
            return reshape_copy(a, ndim, dims, order, err);
        char from[1536], to[1536];
        uf__error_set(err, UF_ERR_SHAPE,
                      "cannot reshape array of shape %s into shape %s "
                      "without a copy (unable to avoid creating a copy "
                      "while reshaping in %s order)",
                      uf__shape_str(a->ndim, a->shape, from, sizeof from),
                      uf__shape_str(ndim, dims, to, sizeof to),
                      fortran ? "F" : "C");
        return NULL;
    }
    return uf__array_view(a, a->dtype, ndim, dims, strides, a->data, err);
}
