/* A string as a hash table's key (common/dict.c, common/set.c): its code
 * points hashed and compared. */
#ifndef UF_COMMON_USTR_KEY_H
#define UF_COMMON_USTR_KEY_H

#include <stdint.h>

#include "common/ustr.h"

/* The string's code points, FNV-1a (not Python's hash, which is salted
 * per process; only the table sees it). */
static inline uint64_t uf__ustr_key_bits(const uf__ustr *s)
{
    uint64_t h = UINT64_C(0xcbf29ce484222325) ^ (uint64_t)s->len;
    for (int64_t i = 0; i < s->len; i++) {
        h ^= s->cp[i];
        h *= UINT64_C(0x100000001b3);
    }
    return h;
}

/* 1 when a and b hold the same code points. */
static inline int uf__ustr_key_same(const uf__ustr *a, const uf__ustr *b)
{
    return a == b || uf__ustr_cmp(a, b) == 0;
}

#endif
