/* Memory manager tables from outside ufjit (cuda_mm_plugin.c). */
#ifndef UF_TARGETS_CUDA_CUDA_MM_PLUGIN_H
#define UF_TARGETS_CUDA_CUDA_MM_PLUGIN_H

#include <ufjit/cuda_memory.h>

/* UF_ERR_INVALID naming what is wrong: another interface version, no
 * memalloc or memfree, half of a method pair. `where` starts the
 * message. */
int uf__cuda_mm_validate(const uf_cuda_memory_manager *mm, const char *where,
                         uf_error *err);

/* Loads "path.so:symbol" (UFJIT_CUDA_MEMORY_MANAGER's, or
 * uf_cuda_memory_manager_load's: `where` starts the messages), calls the
 * symbol as a uf_cuda_mm_factory and validates the table it fills. */
int uf__cuda_mm_load_plugin(const char *spec, const char *where,
                            uf_cuda_memory_manager *out, uf_error *err);

#endif
