/* polyutils.as_series's trimming inside kernels
 * (compiler/lower/lower_npseries.c calls it by name). */
#ifndef UF_COMMON_NPSERIES_H
#define UF_COMMON_NPSERIES_H

#include <stdint.h>

/* polyutils.trimseq's length of the n contiguous float64s (cplx 0) or
 * complex128s (cplx 1) at data: 1 + the index of the last nonzero one
 * (a NaN is nonzero), 1 when all are zero, 0 when n is 0. */
int64_t uf__np_series_trim(const char *data, int64_t n, int32_t cplx);

/* The JIT's name of it: uf__rt_*, which the CUDA targets refuse. */
#define UF__NP_SERIES_TRIM "uf__rt_np_series_trim"

#endif
