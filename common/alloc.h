/* The one allocation layer. Every allocation in the library goes through
 * here so that size arithmetic is overflow-checked in one place and tests
 * can make allocation number N fail (tests/alloc_fail.h). */
#ifndef UF_COMMON_ALLOC_H
#define UF_COMMON_ALLOC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <ufjit/error.h>

/* Alignment of array data buffers: a full AVX-512 vector / cache line. */
#define UF__DATA_ALIGN 64

/* nmemb * size bytes, uninitialised; NULL with UF_ERR_NOMEM (or
 * UF_ERR_OVERFLOW when the product overflows) in err. size 0 gives a valid
 * unique pointer. */
void *uf__malloc(size_t nmemb, size_t size, uf_error *err);
void *uf__calloc(size_t nmemb, size_t size, uf_error *err);
/* On failure the old block is untouched and still owned by the caller. */
void *uf__realloc(void *p, size_t nmemb, size_t size, uf_error *err);
/* UF__DATA_ALIGN-aligned block for array data; free with uf__free. */
void *uf__malloc_aligned(size_t nbytes, uf_error *err);
void uf__free(void *p);
char *uf__strdup(const char *s, uf_error *err);

/* Overflow-checked arithmetic: false when the result does not fit. */
static inline bool uf__mul_size(size_t a, size_t b, size_t *out)
{
    return !__builtin_mul_overflow(a, b, out);
}
static inline bool uf__add_size(size_t a, size_t b, size_t *out)
{
    return !__builtin_add_overflow(a, b, out);
}
static inline bool uf__mul_i64(int64_t a, int64_t b, int64_t *out)
{
    return !__builtin_mul_overflow(a, b, out);
}

/* ---- test hooks --------------------------------------------------------
 * Process-wide on purpose: a test sets them around one call on one thread.
 * uf__alloc_fail_at(n): the n-th allocation from now fails (n >= 1);
 * 0 turns failure off. uf__alloc_live(): allocations not yet freed. */
void uf__alloc_fail_at(long n);
/* One allocation's turn of that hook, for an allocator that calls malloc
 * itself (the kernels' blocks, common/nrt.c, counted by uf__nrt_live
 * instead of uf__alloc_live): true when it must fail. */
bool uf__alloc_fail_now(void);
bool uf__alloc_failed(void);
long uf__alloc_live(void);

#endif
