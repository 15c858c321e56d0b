/* The uf_array layout and helpers shared by the ndarray files. */
#ifndef UF_NDARRAY_ARRAY_INTERNAL_H
#define UF_NDARRAY_ARRAY_INTERNAL_H

#include <stdatomic.h>
#include <ufjit/array.h>

struct uf_array {
    atomic_long refcount;
    uf_dtype dtype;
    int ndim;
    int flags;
    uf_device device;
    char *data;
    /* The array owning the memory (never itself a view), or NULL when this
     * array owns it. A view holds one reference on it. */
    uf_array *base;
    /* For an owner: how to free `data` (uf__free for our own buffers). */
    uf_release_fn release;
    void *release_ctx;
    int64_t *shape;   /* ndim entries, inside dims[] */
    int64_t *strides; /* ndim entries, inside dims[] */
    int64_t dims[];
};

/* Product of the shape; -1 with UF_ERR_OVERFLOW (or UF_ERR_VALUE for a
 * negative dimension) in err. */
int64_t uf__shape_size(int ndim, const int64_t *shape, uf_error *err);

/* Contiguous strides for `shape` in order C or F. */
void uf__contiguous_strides(size_t itemsize, int ndim, const int64_t *shape,
                            uf_order order, int64_t *strides);

/* A new array header over `data` sharing the memory of `of` (takes a
 * reference on the owner of `of`'s memory). Flags are computed from the
 * strides; WRITEABLE is inherited from `of`. */
uf_array *uf__array_view(const uf_array *of, uf_dtype dtype, int ndim,
                         const int64_t *shape, const int64_t *strides,
                         char *data, uf_error *err);

/* Marks an array made by uf_array_wrap over device memory as living on
 * `dev` (targets/cuda/: device arrays); views inherit it. */
void uf__array_set_device(uf_array *a, uf_device dev);

/* The release context of the array owning a's memory when that owner was
 * made with release function `fn` (uf_array_wrap), else NULL: how the
 * owner of some memory (targets/cuda/'s device buffers) finds its record
 * from any view. */
void *uf__array_owner_ctx(const uf_array *a, uf_release_fn fn);

/* Flags a 1-D uint32 array of code points as a string (UF_ARRAY_STRING:
 * a string njit returned, ndarray/array_str.c). */
void uf__array_mark_string(uf_array *a);

/* Recomputes C/F contiguity and alignment from shape, strides and data
 * (NumPy's rules: length-0/1 axes do not break contiguity). */
void uf__array_update_flags(uf_array *a);

/* True when the bytes two arrays touch intersect (by their extents, so
 * interleaved views count as overlapping); empty arrays overlap nothing. */
bool uf__arrays_overlap(const uf_array *a, const uf_array *b);

/* Formats "(2, 3)" / "(4,)" / "()" into buf. Returns buf. */
const char *uf__shape_str(int ndim, const int64_t *shape, char *buf,
                          size_t size);

#endif
