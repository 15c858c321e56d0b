/* The pointers a sweep or a frame's return keeps blocks for (nrt_keep.h). */
#include <stdint.h>
#include <stdlib.h>

#include "common/list_items.h"
#include "common/nrt_keep.h"

/* Up to this many pointers are searched one by one. */
#define HASH_MIN 32
/* A slot whose pointer started a block: still taken, so that probing
 * goes on past it. No data pointer is the top of the address space. */
#define GONE ((char *)UINTPTR_MAX)

static size_t slot_of(const char *p, int bits)
{
    return (size_t)(((uint64_t)(uintptr_t)p * 0x9E3779B97F4A7C15u) >>
                    (64 - bits));
}

static bool in_block(const char *data, int64_t size, const char *p)
{
    return p >= data && p <= data + size;
}

static void make_table(uf__nrt_keep *K)
{
    int bits = 4;
    while (((int64_t)1 << bits) < 2 * K->n)
        bits++;
    char **table = calloc((size_t)1 << bits, sizeof *table);
    if (table == NULL) {
        K->all = true;
        return;
    }
    size_t mask = ((size_t)1 << bits) - 1;
    for (int64_t i = 0; i < K->n; i++) {
        char *p = K->p[i];
        if (p == NULL || p == GONE) /* unbound variables hold nothing */
            continue;
        size_t s = slot_of(p, bits);
        while (table[s] != NULL && table[s] != p)
            s = (s + 1) & mask;
        table[s] = p;
    }
    K->table = table;
    K->bits = bits;
}

void uf__nrt_keep_init(uf__nrt_keep *K, char *const *keep, int64_t nkeep)
{
    *K = (uf__nrt_keep){keep, nkeep, NULL, NULL, 0, false};
    int64_t n = uf__list_roots_count(keep, nkeep);
    if (n >= 0) { /* lists of arrays: their items' pointers too */
        char **own = malloc((size_t)(n > 0 ? n : 1) * sizeof *own);
        if (own == NULL) {
            K->all = true;
            return;
        }
        K->n = uf__list_roots_expand(keep, nkeep, own);
        K->p = own;
        K->own = own;
    }
    if (K->n > HASH_MIN)
        make_table(K);
}

uf__nrt_verdict uf__nrt_keep_first(uf__nrt_keep *K, const char *data,
                                   int64_t size)
{
    if (K->all)
        return UF__NRT_KEEP;
    if (K->table == NULL) {
        for (int64_t k = 0; k < K->n; k++)
            if (in_block(data, size, K->p[k]))
                return UF__NRT_KEEP;
        return UF__NRT_DROP;
    }
    size_t mask = ((size_t)1 << K->bits) - 1;
    for (size_t s = slot_of(data, K->bits); K->table[s] != NULL;
         s = (s + 1) & mask)
        if (K->table[s] == data) {
            K->table[s] = GONE;
            return UF__NRT_KEEP;
        }
    return UF__NRT_MAYBE;
}

static int cmp_ptr(const void *a, const void *b)
{
    uintptr_t x = (uintptr_t)*(char *const *)a;
    uintptr_t y = (uintptr_t)*(char *const *)b;
    return x < y ? -1 : x > y;
}

bool uf__nrt_keep_settle(uf__nrt_keep *K)
{
    if (K->all || K->table == NULL)
        return K->all;
    if (K->own == NULL) { /* room for the pointers left */
        K->own = malloc((size_t)K->n * sizeof *K->own);
        if (K->own == NULL) {
            K->all = true;
            return true;
        }
    }
    int64_t m = 0;
    for (size_t s = 0; s < (size_t)1 << K->bits; s++)
        if (K->table[s] != NULL && K->table[s] != GONE)
            K->own[m++] = K->table[s];
    free(K->table);
    K->table = NULL;
    qsort(K->own, (size_t)m, sizeof *K->own, cmp_ptr);
    K->p = K->own;
    K->n = m;
    return m > 0;
}

bool uf__nrt_keep_holds(const uf__nrt_keep *K, const char *data,
                        int64_t size)
{
    if (K->all)
        return true;
    int64_t lo = 0, hi = K->n; /* the first pointer at or after data */
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if ((uintptr_t)K->p[mid] < (uintptr_t)data)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < K->n && in_block(data, size, K->p[lo]);
}

void uf__nrt_keep_free(uf__nrt_keep *K)
{
    free(K->table);
    free(K->own);
    K->table = NULL;
    K->own = NULL;
}
