/* The runtime of prange loops in njit(parallel=True) functions: the one
 * helper generated code calls (common/loop.h: UF__RT_PRANGE), over the
 * parallel target's threading layer (targets/parallel/parallel.h). */
#ifndef UF_NJIT_PRANGE_H
#define UF_NJIT_PRANGE_H

#include <stdint.h>

#include "common/loop.h"

/* Below this many iterations a prange loop runs on the calling thread
 * (the same blocks, the same bits: only the threads differ). */
#define UF__PRANGE_SERIAL_TRIPS 64

int32_t uf__rt_prange(int64_t n, int64_t nblocks, int64_t block,
                      uf__prange_body body, void *ctx);

/* Array reductions' partials (njit_prange_array.c; common/loop.h). */
void *uf__rt_prange_partials(int64_t nblocks, int64_t items, int32_t dtype,
                             int32_t one);
void uf__rt_prange_partials_free(void *p);
int32_t uf__rt_prange_store(int32_t dtype, int32_t nd, const int64_t *want,
                            const int64_t *dstr, char *dst,
                            const int64_t *shape, const int64_t *sstr,
                            const char *src);
void uf__rt_prange_combine(int32_t mul, int32_t dtype, int32_t nd,
                           const int64_t *shape, const int64_t *strides,
                           char *data, const int64_t *pstrides,
                           const char *buf, int64_t nblocks,
                           int64_t block_bytes);

/* The runtime's symbols for the JIT (api/context.c joins them to the
 * other runtimes'). */
const uf__runtime_symbol *uf__njit_runtime_symbols(int *n);

/* The threads prange loops run on from this thread (uf_call_options'
 * num_threads of the njit call; 0: the parallel target's default), set
 * around a call; returns the previous setting. */
int uf__prange_threads(int n);

#endif
