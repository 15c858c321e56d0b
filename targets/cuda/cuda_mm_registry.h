/* The addresses a memory manager handed out and ufjit has not given back,
 * with their sizes: what catches a plug-in handing out an address twice
 * and a free of an address never handed out, and counts live memory. An
 * open-addressing hash table (linear probing, deletion by backward
 * shift); the caller locks. */
#ifndef UF_TARGETS_CUDA_CUDA_MM_REGISTRY_H
#define UF_TARGETS_CUDA_CUDA_MM_REGISTRY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <ufjit/error.h>

typedef struct uf__mm_slot {
    uint64_t key; /* 0: empty */
    size_t bytes;
} uf__mm_slot;

typedef struct uf__mm_registry {
    uf__mm_slot *slots;
    size_t cap; /* a power of two, or 0 */
    size_t count;
    size_t bytes;
} uf__mm_registry;

/* 0, UF_ERR_INVALID when key is already there, or UF_ERR_NOMEM. */
int uf__mm_registry_add(uf__mm_registry *r, uint64_t key, size_t bytes,
                        uf_error *err);
/* Removes key; false when it is not there. */
bool uf__mm_registry_remove(uf__mm_registry *r, uint64_t key);
void uf__mm_registry_clear(uf__mm_registry *r);

#endif
