/* The sorts behind np.sort, a.sort() and np.argsort inside kernels
 * (compiler/lower/lower_arrsort.c calls them by name). NaNs go to the
 * end first, as NumPy orders them; from 256 elements on, an LSD radix
 * sort by bytes of order-preserving unsigned keys (digits every key
 * shares are skipped), below that (or when its buffer cannot be had) an
 * introsort per dtype (median-of-three quicksort, heapsort past 2 log2 n
 * levels, insertion sort below 16). argsort is the same radix sort
 * carrying indices, so stable (-0.0 and 0.0 equal, NaNs equal). Complex
 * numbers sort by three stable radix passes (imaginary, real, NaN class)
 * carrying indices, then are gathered. */
#ifndef UF_COMMON_NPSORT_H
#define UF_COMMON_NPSORT_H

#include <stdint.h>

/* Sorts every row along the last of nd >= 1 axes of shape[]/strides[]
 * (bytes) of the array at data, dtype dt (a uf_dtype; complex in NumPy's
 * order: by real part, then imaginary part, NaNs last as NumPy puts them), in
 * place. 0, or -1 when the copy of a strided row cannot be allocated. */
int uf__np_sort_rows(char *data, int64_t nd, const int64_t *shape,
                     const int64_t *strides, int32_t dt);

/* out[0..n) = the indices that sort the n elements at data (stride in
 * bytes, dtype dt), equal elements in their order (NaNs last). 0, or -1
 * out of memory. */
int uf__np_argsort(const char *data, int64_t n, int64_t stride, int32_t dt,
                   int64_t *out);

#define UF__NP_SORT_ROWS "uf__np_sort_rows"
#define UF__NP_ARGSORT "uf__np_argsort"

#endif
