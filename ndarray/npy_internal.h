/* The .npy header: the prefix (magic, version, length) and the Python dict
 * literal after it. Split from npy.c so the parser can be tested alone. */
#ifndef UF_NDARRAY_NPY_INTERNAL_H
#define UF_NDARRAY_NPY_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <ufjit/array.h>

/* "\x93NUMPY", major, minor. */
#define UF__NPY_MAGIC_LEN 8
/* Data starts at a multiple of this, as NumPy writes it. */
#define UF__NPY_ALIGN 64
/* NumPy warns about headers past 10000 characters; a header we accept holds
 * at most a short descr and 64 dimensions, so anything near this size is
 * padding or an attack. Refused before anything is allocated for it. */
#define UF__NPY_MAX_HEADER ((size_t)1 << 20)

typedef struct uf__npy_header {
    uf_dtype dtype;
    bool swapped;       /* data is in the non-native byte order */
    bool fortran_order;
    int ndim;
    int64_t shape[UF_MAXDIMS];
} uf__npy_header;

/* Reads the fixed prefix: `buf` holds the first `len` bytes of the file.
 * On success *major is 1, 2 or 3 and *header_len / *prefix_len are the dict
 * length and where it starts. `name` prefixes every message: the quoted
 * path, or a label for a buffer. */
int uf__npy_parse_prefix(const unsigned char *buf, size_t len,
                         const char *name, int *major, size_t *prefix_len,
                         size_t *header_len, uf_error *err);

/* Parses the dict literal {'descr': ..., 'fortran_order': ..., 'shape': ...}
 * of a file of format version `major`, and resolves the dtype. Never
 * allocates. */
int uf__npy_parse_header(const char *text, size_t len, int major,
                         const char *name, uf__npy_header *out,
                         uf_error *err);

/* Wraps a dict literal the way NumPy's _wrap_header does: magic, version
 * 1.0 (2.0 when the length does not fit 16 bits), length, the dict, spaces
 * and '\n' up to a multiple of UF__NPY_ALIGN. Returns a buffer to free with
 * uf__free and its length in *out_len. */
char *uf__npy_wrap_header(const char *dict, size_t dict_len, size_t *out_len,
                          uf_error *err);

/* The whole header np.save writes for an array of this dtype and shape. */
char *uf__npy_format_header(uf_dtype dtype, bool fortran_order, int ndim,
                            const int64_t *shape, size_t *out_len,
                            uf_error *err);

#endif
