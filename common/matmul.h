/* Matrix products for np.dot / `@` of 2-D arrays inside kernels: the
 * runtime that generated code calls (compiler/lower/lower_matmul.c), by
 * the names below (compiler/host/jit.c binds them).
 *
 * c (m x n, C-contiguous, written, never read) = a (m x k) times b
 * (k x n), a and b of any strides (in bytes; 0 for a broadcast axis, so
 * a vector is a matrix of one row or one column). k == 0 gives zeros.
 * Returns 0, or -1 when the packing buffers could not be allocated. */
#ifndef UF_COMMON_MATMUL_H
#define UF_COMMON_MATMUL_H

#include <stdint.h>

#define UF__RT_MATMUL_F32 "uf__rt_matmul_f32"
#define UF__RT_MATMUL_F64 "uf__rt_matmul_f64"
#define UF__RT_MATMUL_C64 "uf__rt_matmul_c64"
#define UF__RT_MATMUL_C128 "uf__rt_matmul_c128"

#define UF__MATMUL_PARAMS                                                     \
    int64_t m, int64_t n, int64_t k, const void *a, int64_t a_rs,            \
        int64_t a_cs, const void *b, int64_t b_rs, int64_t b_cs, void *c

int32_t uf__rt_matmul_f32(UF__MATMUL_PARAMS);
int32_t uf__rt_matmul_f64(UF__MATMUL_PARAMS);
int32_t uf__rt_matmul_c64(UF__MATMUL_PARAMS);
int32_t uf__rt_matmul_c128(UF__MATMUL_PARAMS);

#endif
