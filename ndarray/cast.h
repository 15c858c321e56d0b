/* Strided element conversion loops between every pair of dtypes. */
#ifndef UF_NDARRAY_CAST_H
#define UF_NDARRAY_CAST_H

#include <stdint.h>
#include <ufjit/dtype.h>

/* Converts n elements as NumPy's unsafe astype does: complex to real takes
 * the real part, to bool is `!= 0`, float to int truncates towards zero
 * (NaN and out-of-range values give what x86's conversion gives). Strides
 * in bytes, may be 0 or negative; src and dst may be unaligned. */
typedef void (*uf__cast_fn)(const char *src, int64_t src_stride, char *dst,
                            int64_t dst_stride, int64_t n);

/* Never NULL for valid dtypes; from == to gives a plain strided copy. */
uf__cast_fn uf__get_cast(uf_dtype from, uf_dtype to);

#endif
