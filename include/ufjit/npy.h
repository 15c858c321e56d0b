/* NumPy .npy files: versions 1.0, 2.0 and 3.0, C and Fortran order, either
 * byte order on read. Object arrays and structured dtypes are refused. */
#ifndef UFJIT_NPY_H
#define UFJIT_NPY_H

#include <stddef.h>
#include <ufjit/array.h>

UF_BEGIN_DECLS

/* Reads a whole .npy file. Data in the other byte order is swapped to
 * native; a Fortran-order file gives an F-contiguous array. */
UF_EXPORT uf_array *uf_npy_load(const char *path, uf_error *err);
/* The same from a buffer holding a whole file; the data is copied. */
UF_EXPORT uf_array *uf_npy_load_buffer(const void *buf, size_t len,
                                       uf_error *err);
/* Writes `a` (any strides) as version 1.0 (2.0 if the header needs it),
 * C order unless `a` is F- and not C-contiguous. The file appears whole or
 * not at all: it is written next to `path` and renamed into place. */
UF_EXPORT int uf_npy_save(const char *path, const uf_array *a, uf_error *err);

UF_END_DECLS

#endif
