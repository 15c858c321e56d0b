/* The OpenMP threading layer (libgomp). Compiled with -fopenmp when CMake
 * found OpenMP; empty otherwise (parallel.c then leaves the layer out). */
#include "targets/parallel/parallel_internal.h"

#ifdef _OPENMP
int uf__parallel_omp_run(int64_t nchunks, int nthreads,
                         uf__parallel_chunk_fn fn, void *job, char *why,
                         size_t size)
{
    (void)why, (void)size;
    if (nthreads > nchunks)
        nthreads = (int)nchunks;
    /* Dynamic: on a shared machine a descheduled thread should not hold
     * up the chunks it has not started. There are only a few chunks per
     * thread, so the shared counter costs nothing measurable. */
#pragma omp parallel for num_threads(nthreads) schedule(dynamic, 1)
    for (int64_t i = 0; i < nchunks; i++)
        fn(job, i);
    return 0;
}
#else
typedef int uf__parallel_omp_not_built;
#endif
