/* Between the dispatcher (parallel.c) and the threading layers
 * (parallel_omp.c, parallel_tbb.cpp): a layer only runs numbered chunks;
 * splitting, errors and the choice of layer stay in the dispatcher. */
#ifndef UF_TARGETS_PARALLEL_INTERNAL_H
#define UF_TARGETS_PARALLEL_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Runs chunk number `chunk` of `job`; never fails (the dispatcher keeps
 * the chunk's error in the job). */
typedef void (*uf__parallel_chunk_fn)(void *job, int64_t chunk);

/* Each runs fn(job, i) once for every i in [0, nchunks) on up to
 * `nthreads` threads (the caller's included) and returns when all are
 * done: 0, or a negative uf_errcode with a reason in why[0..size) when the
 * layer itself failed (TBB: an exception). */
int uf__parallel_omp_run(int64_t nchunks, int nthreads,
                         uf__parallel_chunk_fn fn, void *job, char *why,
                         size_t size);
int uf__parallel_tbb_run(int64_t nchunks, int nthreads,
                         uf__parallel_chunk_fn fn, void *job, char *why,
                         size_t size);

/* Upper bound of any thread count (UFJIT_NUM_THREADS, num_threads). */
#define UF__PARALLEL_MAX_THREADS 1024

#ifdef __cplusplus
}
#endif

#endif
