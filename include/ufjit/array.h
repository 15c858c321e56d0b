/* uf_array: a reference-counted, strided, NumPy-like n-dimensional array.
 *
 * Strides are in bytes and may be zero or negative. A view holds a reference
 * to the array it was made from, so the memory stays alive as long as any
 * view does. Memory from elsewhere is wrapped without copying; its release
 * callback runs when the last reference goes. */
#ifndef UFJIT_ARRAY_H
#define UFJIT_ARRAY_H

#include <stdbool.h>
#include <stdint.h>
#include <ufjit/dtype.h>

UF_BEGIN_DECLS

/* NumPy's NPY_MAXDIMS of NumPy 2. */
#define UF_MAXDIMS 64

typedef struct uf_array uf_array;

enum uf_array_flags {
    UF_ARRAY_C_CONTIGUOUS = 1 << 0,
    UF_ARRAY_F_CONTIGUOUS = 1 << 1,
    UF_ARRAY_WRITEABLE = 1 << 2,
    UF_ARRAY_ALIGNED = 1 << 3,
    UF_ARRAY_OWNDATA = 1 << 4,
    /* A string (Numba's unicode_type): a 1-D uint32 array of its code
     * points, made by uf_array_from_utf8 or returned by uf_call */
    UF_ARRAY_STRING = 1 << 5
};

/* Memory order for creation and copies, as NumPy's order= argument.
 * K keeps the source's stride order as closely as possible; A is F when the
 * source is F-contiguous and not C-contiguous, else C. */
typedef enum uf_order {
    UF_ORDER_C,
    UF_ORDER_F,
    UF_ORDER_A,
    UF_ORDER_K
} uf_order;

typedef enum uf_device_type {
    UF_DEVICE_HOST = 1,
    UF_DEVICE_CUDA = 2
} uf_device_type;

typedef struct uf_device {
    uf_device_type type;
    int id;
} uf_device;

/* Called once when the last reference to a wrapped array is dropped. */
typedef void (*uf_release_fn)(void *ctx, void *data);

/* ---- creation ---------------------------------------------------------- */

/* Uninitialised array. `order` must be C or F. ndim 0 makes a 0-d array. */
UF_EXPORT uf_array *uf_empty(uf_dtype dtype, int ndim, const int64_t *shape,
                             uf_order order, uf_error *err);
UF_EXPORT uf_array *uf_zeros(uf_dtype dtype, int ndim, const int64_t *shape,
                             uf_order order, uf_error *err);
UF_EXPORT uf_array *uf_ones(uf_dtype dtype, int ndim, const int64_t *shape,
                            uf_order order, uf_error *err);
/* Filled with *value (of type value_dtype), cast unsafely as np.full does. */
UF_EXPORT uf_array *uf_full(uf_dtype dtype, int ndim, const int64_t *shape,
                            const void *value, uf_dtype value_dtype,
                            uf_order order, uf_error *err);
/* np.arange(start, stop, step, dtype): length ceil((stop - start) / step),
 * element i is start + i * step computed in the result type. */
UF_EXPORT uf_array *uf_arange(double start, double stop, double step,
                              uf_dtype dtype, uf_error *err);
/* np.linspace(start, stop, num, endpoint, dtype). */
UF_EXPORT uf_array *uf_linspace(double start, double stop, int64_t num,
                                bool endpoint, uf_dtype dtype, uf_error *err);

/* A string argument for njit functions (Numba's unicode_type): the
 * n bytes of UTF-8 at utf8 decoded into a 1-D uint32 array of code points
 * flagged UF_ARRAY_STRING (its views and copies are plain arrays; the
 * call reads the code points when it starts). UF_ERR_VALUE names the byte offset of invalid UTF-8. */
UF_EXPORT uf_array *uf_array_from_utf8(const char *utf8, size_t n,
                                       uf_error *err);
/* The same from n code points (any of 0..0x10FFFF, lone surrogates too,
 * as a Python str may hold them). */
UF_EXPORT uf_array *uf_array_from_ucs4(const uint32_t *cp, size_t n,
                                       uf_error *err);
/* The UTF-8 text of a 1-D uint32 array of code points (a string uf_call
 * returned, or any such array): a NUL-terminated copy to free with
 * uf_free, its length in bytes (without the NUL) in *n when n is not
 * NULL. UF_ERR_VALUE for a code point that is no character (a surrogate
 * or past U+10FFFF); UF_ERR_TYPE for another dtype or shape. */
UF_EXPORT char *uf_array_utf8(const uf_array *a, size_t *n, uf_error *err);

/* Wraps memory owned elsewhere without copying. `strides` in bytes, or NULL
 * for C-contiguous. `release` (may be NULL) is called with (ctx, data) when
 * the array is freed. On failure `release` is NOT called: the caller still
 * owns the memory. */
UF_EXPORT uf_array *uf_array_wrap(uf_dtype dtype, int ndim,
                                  const int64_t *shape,
                                  const int64_t *strides, void *data,
                                  bool writeable, uf_release_fn release,
                                  void *ctx, uf_error *err);

/* ---- reference counting and properties --------------------------------- */

UF_EXPORT uf_array *uf_array_retain(uf_array *a);
/* NULL is accepted and ignored. */
UF_EXPORT void uf_array_release(uf_array *a);

UF_EXPORT uf_dtype uf_array_dtype(const uf_array *a);
UF_EXPORT int uf_array_ndim(const uf_array *a);
UF_EXPORT const int64_t *uf_array_shape(const uf_array *a);
UF_EXPORT const int64_t *uf_array_strides(const uf_array *a);
UF_EXPORT void *uf_array_data(const uf_array *a);
UF_EXPORT int uf_array_flags(const uf_array *a);
UF_EXPORT size_t uf_array_itemsize(const uf_array *a);
/* Number of elements (product of the shape; 1 for 0-d). */
UF_EXPORT int64_t uf_array_size(const uf_array *a);
UF_EXPORT int64_t uf_array_nbytes(const uf_array *a);
UF_EXPORT uf_device uf_array_device(const uf_array *a);
/* The array this one is a view of, or NULL. */
UF_EXPORT uf_array *uf_array_base(const uf_array *a);
/* Clears UF_ARRAY_WRITEABLE. Making a read-only array writeable again is
 * allowed only when its base (if any) is writeable. */
UF_EXPORT int uf_array_set_writeable(uf_array *a, bool writeable,
                                     uf_error *err);
/* Pointer to the element at `index` (ndim entries, negative wraps). */
UF_EXPORT void *uf_array_getptr(const uf_array *a, const int64_t *index,
                                uf_error *err);

/* ---- copies and casts (copy.c) ------------------------------------------ */

/* New array with the same data in the given order (C, F, A or K). */
UF_EXPORT uf_array *uf_array_copy(const uf_array *a, uf_order order,
                                  uf_error *err);
/* a.astype(dtype, order, casting): always a new array. */
UF_EXPORT uf_array *uf_array_astype(const uf_array *a, uf_dtype dtype,
                                    uf_casting casting, uf_order order,
                                    uf_error *err);
/* np.copyto(dst, src, casting): src is broadcast to dst's shape. */
UF_EXPORT int uf_array_copyto(uf_array *dst, const uf_array *src,
                              uf_casting casting, uf_error *err);
/* a.fill(value): *value of type value_dtype is cast unsafely. */
UF_EXPORT int uf_array_fill(uf_array *a, const void *value,
                            uf_dtype value_dtype, uf_error *err);

/* ---- views (views.c) ---------------------------------------------------- */

typedef enum uf_index_kind {
    UF_INDEX_SLICE,   /* start:stop:step, each part optional */
    UF_INDEX_INTEGER, /* drops the axis; negative counts from the end */
    UF_INDEX_NEWAXIS, /* inserts an axis of length 1 (None / np.newaxis) */
    UF_INDEX_ELLIPSIS /* as many full slices as needed */
} uf_index_kind;

typedef struct uf_index {
    uf_index_kind kind;
    bool has_start, has_stop, has_step;
    int64_t start, stop, step; /* for INTEGER, `start` is the index */
} uf_index;

/* a[idx[0], idx[1], ...] with NumPy's basic indexing: always a view. */
UF_EXPORT uf_array *uf_array_index(uf_array *a, const uf_index *idx, int nidx,
                                   uf_error *err);
/* Parses NumPy's basic-indexing syntax ("::2, 1:-1", "0, ..., None").
 * Stores at most `max` entries in `out` and the count in *n. */
UF_EXPORT int uf_index_parse(const char *expr, uf_index *out, int max, int *n,
                             uf_error *err);
/* Convenience: uf_index_parse then uf_array_index. */
UF_EXPORT uf_array *uf_array_slice(uf_array *a, const char *expr,
                                   uf_error *err);

/* np.reshape with one -1 allowed and order C or F. A view when the strides
 * allow; otherwise a copy if `allow_copy`, else a UF_ERR_SHAPE error that
 * says a copy is needed. */
UF_EXPORT uf_array *uf_array_reshape(uf_array *a, int ndim,
                                     const int64_t *shape, uf_order order,
                                     bool allow_copy, uf_error *err);
/* Axis permutation; `axes` NULL reverses the axes (a.T). Negative axes
 * count from the end. */
UF_EXPORT uf_array *uf_array_transpose(uf_array *a, const int *axes,
                                       uf_error *err);
/* np.broadcast_to: a read-only view. */
UF_EXPORT uf_array *uf_array_broadcast_to(uf_array *a, int ndim,
                                          const int64_t *shape, uf_error *err);
/* np.squeeze: `naxes` 0 removes every length-1 axis; a listed axis whose
 * length is not 1 is an error. */
UF_EXPORT uf_array *uf_array_squeeze(uf_array *a, const int *axes, int naxes,
                                     uf_error *err);
/* np.expand_dims with one axis in [-ndim-1, ndim]. */
UF_EXPORT uf_array *uf_array_expand_dims(uf_array *a, int axis,
                                         uf_error *err);
/* np.ravel(a, order): a view when possible, else a copy. */
UF_EXPORT uf_array *uf_array_ravel(uf_array *a, uf_order order,
                                   uf_error *err);

/* ---- broadcasting (broadcast.c) ----------------------------------------- */

/* Broadcasts n shapes with NumPy's rules into out_shape (UF_MAXDIMS room).
 * A failure is UF_ERR_SHAPE naming the first two operands that disagree and
 * their shapes. */
UF_EXPORT int uf_broadcast_shapes(int n, const int *ndims,
                                  const int64_t *const *shapes, int *out_ndim,
                                  int64_t *out_shape, uf_error *err);

/* ---- printing (print.c) ------------------------------------------------- */

/* NumPy's repr(a), "array([1., 2.])", summarised with "..." past 1000
 * elements. Returns a string to free with uf_free. */
UF_EXPORT char *uf_array_repr(const uf_array *a, uf_error *err);
/* NumPy's str(a), "[1. 2.]". */
UF_EXPORT char *uf_array_str(const uf_array *a, uf_error *err);

/* Frees memory that ufjit handed to the caller (strings). */
UF_EXPORT void uf_free(void *p);

UF_END_DECLS

#endif
