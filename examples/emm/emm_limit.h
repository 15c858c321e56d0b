/* The limiting plug-in's extra entry points (limit.c), for tests. */
#ifndef UF_EXAMPLES_EMM_LIMIT_H
#define UF_EXAMPLES_EMM_LIMIT_H

#include <stddef.h>

#include <ufjit/cuda_memory.h>

#define EMM_EXPORT __attribute__((visibility("default")))

typedef struct uf_emm_limit_counts {
    size_t allocs, frees, refused; /* device memory calls */
    size_t live, live_bytes;       /* device memory handed out now */
    size_t host_allocs, host_live; /* pinned and mapped */
    size_t initializes, resets;
} uf_emm_limit_counts;

EMM_EXPORT int uf_emm_limit_factory(int interface_version,
                                    uf_cuda_memory_manager *out,
                                    uf_error *err);
/* `user`: the table's user pointer. A limit on live device bytes (0:
 * none), and the fail_at-th allocation from now to fail (0: none). */
EMM_EXPORT void uf_emm_limit_configure(void *user, size_t limit_bytes,
                                       size_t fail_at);
EMM_EXPORT void uf_emm_limit_get_counts(void *user,
                                        uf_emm_limit_counts *out);

#endif
