/* A per-thread cache of small freed NRT blocks (nrt_cache.c), so that a
 * kernel making a scratch array per row or per loop iteration reuses the
 * block it freed a moment ago instead of going through malloc and free
 * each time (measured before it: malloc, free and their bookkeeping were
 * a third of a 16-element np.empty per iteration loop). */
#ifndef UF_COMMON_NRT_CACHE_H
#define UF_COMMON_NRT_CACHE_H

#include <stdbool.h>
#include <stddef.h>

/* The size class of a block of n bytes: blocks of a class are all
 * uf__nrt_cache_class_size(c) bytes long; -1 when n is too large to be
 * cached (the block is then malloc'd and freed as it is). */
int uf__nrt_cache_class(size_t n);
size_t uf__nrt_cache_class_size(int c);

/* A block of class c from this thread's cache, or NULL when it holds
 * none (then malloc one of uf__nrt_cache_class_size(c) bytes). */
void *uf__nrt_cache_take(int c);
/* Keeps a free block of class c (poisoned under AddressSanitizer but for
 * the list's link, so that a use after free or a second release is still
 * caught); false when the class is full or the thread cannot hold a
 * cache: then free it. */
bool uf__nrt_cache_put(int c, void *block);

#endif
