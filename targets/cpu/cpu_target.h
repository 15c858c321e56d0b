/* The `cpu` target: calls run serially on the caller's thread, on host
 * memory. Its memory hooks are the host's, which `parallel` shares. */
#ifndef UF_TARGETS_CPU_CPU_TARGET_H
#define UF_TARGETS_CPU_CPU_TARGET_H

#include "targets/target.h"

extern const uf__target uf__target_cpu;

/* Host memory (array data alignment, common/alloc.h). */
void *uf__host_alloc(size_t bytes, uf_error *err);
void uf__host_free(void *p);
int uf__host_copy(void *dst, const void *src, size_t n, uf_error *err);

#endif
