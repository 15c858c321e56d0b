/* The pool plug-in's extra entry points (pool.c), for its tests and
 * benchmark: they find them with dlsym, or link pool.c in. */
#ifndef UF_EXAMPLES_EMM_POOL_H
#define UF_EXAMPLES_EMM_POOL_H

#include <stddef.h>

#include <ufjit/cuda_memory.h>

#define EMM_EXPORT __attribute__((visibility("default")))

typedef struct uf_emm_pool_stats {
    size_t driver_allocs, driver_frees; /* cuMemAlloc/cuMemFree calls */
    size_t hits;                /* allocations served from the cache */
    size_t cross_stream_reuses; /* of those, from another stream whose
                                   event had completed */
    size_t stream_waits;        /* ... or after a cuStreamWaitEvent */
    size_t cached;              /* blocks in the free lists now */
} uf_emm_pool_stats;

EMM_EXPORT int uf_emm_pool_factory(int interface_version,
                                   uf_cuda_memory_manager *out,
                                   uf_error *err);
/* `user`: the table's user pointer */
EMM_EXPORT void uf_emm_pool_get_stats(void *user, uf_emm_pool_stats *out);

#endif
