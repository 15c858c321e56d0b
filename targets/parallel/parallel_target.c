/* The `parallel` target's descriptor (parallel_target.h). */
#include "targets/cpu/cpu_target.h"
#include "targets/parallel/parallel.h"
#include "targets/parallel/parallel_internal.h" /* UF__PARALLEL_MAX_THREADS */
#include "targets/parallel/parallel_target.h"

/* The serial layer (UFJIT_THREADING_LAYER=serial) runs every call on the
 * caller's thread: callers need not cut the work up for it. */
static int threads(int nthreads)
{
    if (nthreads <= UF__PARALLEL_MAX_THREADS && uf__parallel_is_serial())
        return 1;
    return nthreads > 0 ? nthreads : uf__parallel_default_threads();
}

const uf__target uf__target_parallel = {
    .name = "parallel",
    .summary = "loops shared out between threads (OpenMP or oneTBB)",
    /* njit functions run whole on one thread: not here (Numba's
     * parallel=True is a different thing) */
    .caps = UF__TCAP_HOST_MEMORY | UF__TCAP_THREADS | UF__TCAP_VECTORIZE |
            UF__TCAP_GUVECTORIZE | UF__TCAP_REDUCE,
    .run = uf__parallel_for,
    .threads = threads,
    .max_threads = UF__PARALLEL_MAX_THREADS,
    .config_error = uf__parallel_config_error,
    .alloc = uf__host_alloc,
    .free = uf__host_free,
    .copy = uf__host_copy,
};
