/* Per-compilation arena: AST and IR nodes are allocated freely and freed all
 * at once. Allocation goes through common/alloc.h, so out-of-memory tests
 * reach it too. */
#ifndef UF_COMPILER_ARENA_H
#define UF_COMPILER_ARENA_H

#include <stddef.h>
#include <ufjit/error.h>

typedef struct uf__arena uf__arena;

uf__arena *uf__arena_new(uf_error *err);
/* Frees every block of the arena and the arena. NULL is ignored. */
void uf__arena_free(uf__arena *a);
/* nmemb * size zeroed bytes aligned for any type; NULL with err set. */
void *uf__arena_alloc(uf__arena *a, size_t nmemb, size_t size, uf_error *err);
/* Copy of s[0..len) with a terminating NUL. */
char *uf__arena_strndup(uf__arena *a, const char *s, size_t len,
                        uf_error *err);

#endif
