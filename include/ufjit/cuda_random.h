/* numba.cuda.random's xoroshiro128+ states, made on the host for kernels
 * that draw with xoroshiro128p_uniform_float32 and friends. Numba-cuda's
 * states are a 1-D array of (s0, s1) uint64 records; here they are an
 * (n, 2) C-contiguous uint64 array (column 0: s0, column 1: s1) holding
 * the same values, so a seed gives the same streams as numba-cuda. */
#ifndef UFJIT_CUDA_RANDOM_H
#define UFJIT_CUDA_RANDOM_H

#include <stdint.h>
#include <ufjit/cuda.h>

UF_BEGIN_DECLS

/* numba.cuda.random.create_xoroshiro128p_states(n, seed,
 * subsequence_start, stream): a new (n, 2) uint64 device array on
 * `target` ("cuda" or NULL, or "cudasim") holding n generators, the
 * first seeded by SplitMix64 of `seed` and advanced by subsequence_start
 * jumps of 2**64 draws, each next one jump of 2**64 after the previous
 * (so that n threads draw independent streams). Computed on the host
 * (time grows with n + subsequence_start) and copied on `stream` (NULL:
 * the legacy default stream; the copy is complete when this returns).
 * UF_ERR_INVALID for n < 0; the device's errors otherwise. */
UF_EXPORT uf_array *uf_cuda_random_states(int64_t n, uint64_t seed,
                                          uint64_t subsequence_start,
                                          const char *target,
                                          uf_stream *stream, uf_error *err);

UF_END_DECLS

#endif
