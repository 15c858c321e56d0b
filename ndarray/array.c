/* uf_array headers: allocation, wrapping external memory, reference
 * counting, views' bookkeeping and flags. */
#include <stdio.h>
#include <string.h>

#include "common/alloc.h"
#include "common/error_internal.h"
#include "ndarray/array_internal.h"

int64_t uf__shape_size(int ndim, const int64_t *shape, uf_error *err)
{
    int64_t size = 1;
    bool overflow = false;
    for (int i = 0; i < ndim; i++) {
        if (shape[i] < 0) {
            uf__error_set(err, UF_ERR_VALUE,
                          "negative dimensions are not allowed (axis %d has "
                          "length %lld)", i, (long long)shape[i]);
            return -1;
        }
        if (!uf__mul_i64(size, shape[i], &size))
            overflow = true;
    }
    /* A zero anywhere makes the product 0 even if a partial one overflowed,
     * but NumPy still refuses shapes whose nonzero product overflows. */
    if (overflow) {
        uf__error_set(err, UF_ERR_OVERFLOW,
                      "array is too big: the product of the shape overflows");
        return -1;
    }
    return size;
}

void uf__contiguous_strides(size_t itemsize, int ndim, const int64_t *shape,
                            uf_order order, int64_t *strides)
{
    int64_t s = (int64_t)itemsize;
    if (order == UF_ORDER_F) {
        for (int i = 0; i < ndim; i++) {
            strides[i] = s;
            s *= shape[i] > 0 ? shape[i] : 1;
        }
    } else {
        for (int i = ndim - 1; i >= 0; i--) {
            strides[i] = s;
            s *= shape[i] > 0 ? shape[i] : 1;
        }
    }
}

const char *uf__shape_str(int ndim, const int64_t *shape, char *buf,
                          size_t size)
{
    size_t n = 0;
    n += (size_t)snprintf(buf, size, "(");
    for (int i = 0; i < ndim && n < size; i++)
        n += (size_t)snprintf(buf + n, size - n, "%s%lld", i ? ", " : "",
                              (long long)shape[i]);
    if (n < size)
        snprintf(buf + n, size - n, ndim == 1 ? ",)" : ")");
    return buf;
}

static bool is_contiguous(const uf_array *a, bool fortran)
{
    int64_t expect = (int64_t)uf_dtype_itemsize(a->dtype);
    for (int k = 0; k < a->ndim; k++) {
        if (a->shape[k] == 0)
            return true;
    }
    for (int k = 0; k < a->ndim; k++) {
        int i = fortran ? k : a->ndim - 1 - k;
        if (a->shape[i] != 1) {
            if (a->strides[i] != expect)
                return false;
            expect *= a->shape[i];
        }
    }
    return true;
}

static bool is_aligned(const uf_array *a)
{
    uint64_t align = uf_dtype_alignment(a->dtype);
    uint64_t bits = (uint64_t)(uintptr_t)a->data;
    for (int i = 0; i < a->ndim; i++) {
        if (a->shape[i] == 0)
            return true;
        if (a->shape[i] > 1)
            bits |= (uint64_t)a->strides[i];
    }
    return bits % align == 0;
}

void uf__array_update_flags(uf_array *a)
{
    a->flags &= ~(UF_ARRAY_C_CONTIGUOUS | UF_ARRAY_F_CONTIGUOUS |
                  UF_ARRAY_ALIGNED);
    if (is_contiguous(a, false))
        a->flags |= UF_ARRAY_C_CONTIGUOUS;
    if (is_contiguous(a, true))
        a->flags |= UF_ARRAY_F_CONTIGUOUS;
    if (is_aligned(a))
        a->flags |= UF_ARRAY_ALIGNED;
}

/* A header with room for ndim shape and stride entries. */
static uf_array *alloc_header(uf_dtype dtype, int ndim, uf_error *err)
{
    if (!uf_dtype_valid((int)dtype)) {
        uf__error_set(err, UF_ERR_TYPE, "invalid dtype %d", (int)dtype);
        return NULL;
    }
    if (ndim < 0 || ndim > UF_MAXDIMS) {
        uf__error_set(err, UF_ERR_VALUE,
                      "number of dimensions must be within [0, %d], got %d",
                      UF_MAXDIMS, ndim);
        return NULL;
    }
    size_t extra = 2 * (size_t)ndim * sizeof(int64_t);
    uf_array *a = uf__malloc(1, sizeof(uf_array) + extra, err);
    if (a == NULL)
        return NULL;
    atomic_init(&a->refcount, 1);
    a->dtype = dtype;
    a->ndim = ndim;
    a->flags = 0;
    a->device = (uf_device){UF_DEVICE_HOST, 0};
    a->data = NULL;
    a->base = NULL;
    a->release = NULL;
    a->release_ctx = NULL;
    a->shape = a->dims;
    a->strides = a->dims + ndim;
    return a;
}

/* Checks the shape and returns nbytes, or -1 with err set. */
static int64_t checked_nbytes(uf_dtype dtype, int ndim, const int64_t *shape,
                              uf_error *err)
{
    if (ndim < 0 || ndim > UF_MAXDIMS) {
        uf__error_set(err, UF_ERR_VALUE,
                      "number of dimensions must be within [0, %d], got %d",
                      UF_MAXDIMS, ndim);
        return -1;
    }
    if (ndim > 0 && shape == NULL) {
        uf__error_set(err, UF_ERR_INVALID, "shape is NULL");
        return -1;
    }
    int64_t size = uf__shape_size(ndim, shape, err);
    if (size < 0)
        return -1;
    int64_t nbytes;
    if (!uf__mul_i64(size, (int64_t)uf_dtype_itemsize(dtype), &nbytes)) {
        uf__error_set(err, UF_ERR_OVERFLOW,
                      "array is too big: size * itemsize overflows");
        return -1;
    }
    return nbytes;
}

static void free_owned(void *ctx, void *data)
{
    (void)ctx;
    uf__free(data);
}

uf_array *uf_empty(uf_dtype dtype, int ndim, const int64_t *shape,
                   uf_order order, uf_error *err)
{
    if (order != UF_ORDER_C && order != UF_ORDER_F) {
        uf__error_set(err, UF_ERR_VALUE, "order must be 'C' or 'F'");
        return NULL;
    }
    if (!uf_dtype_valid((int)dtype)) {
        uf__error_set(err, UF_ERR_TYPE, "invalid dtype %d", (int)dtype);
        return NULL;
    }
    int64_t nbytes = checked_nbytes(dtype, ndim, shape, err);
    if (nbytes < 0)
        return NULL;
    uf_array *a = alloc_header(dtype, ndim, err);
    if (a == NULL)
        return NULL;
    a->data = uf__malloc_aligned((size_t)nbytes, err);
    if (a->data == NULL)
        goto fail_data;
    a->release = free_owned;
    if (ndim > 0)
        memcpy(a->shape, shape, (size_t)ndim * sizeof(int64_t));
    uf__contiguous_strides(uf_dtype_itemsize(dtype), ndim, shape, order,
                           a->strides);
    a->flags = UF_ARRAY_WRITEABLE | UF_ARRAY_OWNDATA;
    uf__array_update_flags(a);
    return a;

fail_data:
    uf__free(a);
    return NULL;
}

uf_array *uf_zeros(uf_dtype dtype, int ndim, const int64_t *shape,
                   uf_order order, uf_error *err)
{
    uf_array *a = uf_empty(dtype, ndim, shape, order, err);
    if (a != NULL)
        memset(a->data, 0, (size_t)uf_array_nbytes(a));
    return a;
}

uf_array *uf_ones(uf_dtype dtype, int ndim, const int64_t *shape,
                  uf_order order, uf_error *err)
{
    const int64_t one = 1;
    return uf_full(dtype, ndim, shape, &one, UF_INT64, order, err);
}

uf_array *uf_full(uf_dtype dtype, int ndim, const int64_t *shape,
                  const void *value, uf_dtype value_dtype, uf_order order,
                  uf_error *err)
{
    if (value == NULL || !uf_dtype_valid((int)value_dtype)) {
        uf__error_set(err, UF_ERR_INVALID, "fill value is NULL or has an "
                                           "invalid dtype");
        return NULL;
    }
    uf_array *a = uf_empty(dtype, ndim, shape, order, err);
    if (a == NULL)
        return NULL;
    if (uf_array_fill(a, value, value_dtype, err) < 0) {
        uf_array_release(a);
        return NULL;
    }
    return a;
}

uf_array *uf_array_wrap(uf_dtype dtype, int ndim, const int64_t *shape,
                        const int64_t *strides, void *data, bool writeable,
                        uf_release_fn release, void *ctx, uf_error *err)
{
    int64_t nbytes = checked_nbytes(dtype, ndim, shape, err);
    if (nbytes < 0)
        return NULL;
    if (data == NULL && nbytes > 0) {
        uf__error_set(err, UF_ERR_INVALID, "data is NULL for a non-empty "
                                           "array");
        return NULL;
    }
    uf_array *a = alloc_header(dtype, ndim, err);
    if (a == NULL)
        return NULL;
    a->data = data;
    a->release = release;
    a->release_ctx = ctx;
    if (ndim > 0)
        memcpy(a->shape, shape, (size_t)ndim * sizeof(int64_t));
    if (strides != NULL && ndim > 0)
        memcpy(a->strides, strides, (size_t)ndim * sizeof(int64_t));
    else
        uf__contiguous_strides(uf_dtype_itemsize(dtype), ndim, shape,
                               UF_ORDER_C, a->strides);
    a->flags = writeable ? UF_ARRAY_WRITEABLE : 0;
    uf__array_update_flags(a);
    return a;
}

uf_array *uf__array_view(const uf_array *of, uf_dtype dtype, int ndim,
                         const int64_t *shape, const int64_t *strides,
                         char *data, uf_error *err)
{
    uf_array *a = alloc_header(dtype, ndim, err);
    if (a == NULL)
        return NULL;
    uf_array *owner = of->base != NULL ? of->base : (uf_array *)of;
    a->base = uf_array_retain(owner);
    a->device = of->device;
    a->data = data;
    if (ndim > 0) {
        memcpy(a->shape, shape, (size_t)ndim * sizeof(int64_t));
        memcpy(a->strides, strides, (size_t)ndim * sizeof(int64_t));
    }
    a->flags = of->flags & UF_ARRAY_WRITEABLE;
    uf__array_update_flags(a);
    return a;
}

void uf__array_set_device(uf_array *a, uf_device dev)
{
    a->device = dev;
}

void *uf__array_owner_ctx(const uf_array *a, uf_release_fn fn)
{
    const uf_array *owner = a->base != NULL ? a->base : a;
    return owner->release == fn ? owner->release_ctx : NULL;
}

uf_array *uf_array_retain(uf_array *a)
{
    if (a != NULL)
        atomic_fetch_add_explicit(&a->refcount, 1, memory_order_relaxed);
    return a;
}

void uf_array_release(uf_array *a)
{
    if (a == NULL)
        return;
    if (atomic_fetch_sub_explicit(&a->refcount, 1, memory_order_acq_rel) != 1)
        return;
    if (a->base != NULL)
        uf_array_release(a->base);
    else if (a->release != NULL)
        a->release(a->release_ctx, a->data);
    uf__free(a);
}

uf_dtype uf_array_dtype(const uf_array *a) { return a->dtype; }
int uf_array_ndim(const uf_array *a) { return a->ndim; }
const int64_t *uf_array_shape(const uf_array *a) { return a->shape; }
const int64_t *uf_array_strides(const uf_array *a) { return a->strides; }
void *uf_array_data(const uf_array *a) { return a->data; }
int uf_array_flags(const uf_array *a) { return a->flags; }
size_t uf_array_itemsize(const uf_array *a)
{
    return uf_dtype_itemsize(a->dtype);
}
uf_device uf_array_device(const uf_array *a) { return a->device; }
uf_array *uf_array_base(const uf_array *a) { return a->base; }

int64_t uf_array_size(const uf_array *a)
{
    int64_t n = 1;
    for (int i = 0; i < a->ndim; i++)
        n *= a->shape[i]; /* checked when the array was made */
    return n;
}

int64_t uf_array_nbytes(const uf_array *a)
{
    return uf_array_size(a) * (int64_t)uf_dtype_itemsize(a->dtype);
}

/* True when two elements of `a` share memory (a zero stride on an axis of
 * length > 1, as broadcast_to makes): writing through it would be racy. */
static bool has_self_overlap(const uf_array *a)
{
    for (int i = 0; i < a->ndim; i++)
        if (a->strides[i] == 0 && a->shape[i] > 1)
            return true;
    return false;
}

int uf_array_set_writeable(uf_array *a, bool writeable, uf_error *err)
{
    if (!writeable) {
        a->flags &= ~UF_ARRAY_WRITEABLE;
        return 0;
    }
    if (a->flags & UF_ARRAY_WRITEABLE)
        return 0;
    if (a->base == NULL)
        return uf__error_set(err, UF_ERR_READONLY,
                             "cannot make a read-only array writeable: its "
                             "memory was given as read-only");
    if (!(a->base->flags & UF_ARRAY_WRITEABLE))
        return uf__error_set(err, UF_ERR_READONLY,
                             "cannot set WRITEABLE flag to True of this "
                             "array: its base is read-only");
    if (has_self_overlap(a))
        return uf__error_set(err, UF_ERR_READONLY,
                             "cannot set WRITEABLE flag to True of this "
                             "array: elements overlap in memory");
    a->flags |= UF_ARRAY_WRITEABLE;
    return 0;
}

void *uf_array_getptr(const uf_array *a, const int64_t *index, uf_error *err)
{
    char *p = a->data;
    for (int i = 0; i < a->ndim; i++) {
        int64_t k = index[i];
        if (k < -a->shape[i] || k >= a->shape[i]) {
            uf__error_set(err, UF_ERR_INDEX,
                          "index %lld is out of bounds for axis %d with "
                          "size %lld", (long long)k, i,
                          (long long)a->shape[i]);
            return NULL;
        }
        if (k < 0)
            k += a->shape[i];
        p += k * a->strides[i];
    }
    return p;
}

/* First and one-past-last byte an array touches; false when empty. */
static bool extent(const uf_array *a, uintptr_t *lo, uintptr_t *hi)
{
    intptr_t low = 0, high = (intptr_t)uf_dtype_itemsize(a->dtype);
    for (int i = 0; i < a->ndim; i++) {
        if (a->shape[i] == 0)
            return false;
        intptr_t span = (intptr_t)(a->shape[i] - 1) * (intptr_t)a->strides[i];
        if (span < 0)
            low += span;
        else
            high += span;
    }
    *lo = (uintptr_t)a->data + (uintptr_t)low;
    *hi = (uintptr_t)a->data + (uintptr_t)high;
    return true;
}

bool uf__arrays_overlap(const uf_array *a, const uf_array *b)
{
    uintptr_t alo, ahi, blo, bhi;
    if (!extent(a, &alo, &ahi) || !extent(b, &blo, &bhi))
        return false;
    return alo < bhi && blo < ahi;
}

void uf_free(void *p)
{
    uf__free(p);
}
