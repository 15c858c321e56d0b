/* The sets kernels make (set.h), on common/dict.c's table. */
#include <string.h>

#include "common/set.h"

static uint64_t key_at(const uf__dict *d, int64_t pos)
{
    uint64_t k;
    memcpy(&k, d->entries + pos * d->esize + UF__DICT_KEY_OFF, sizeof k);
    return k;
}

void *uf__set_new(uf__nrt_meminfo **frame, int32_t kind)
{
    return uf__dict_new(frame, UF__DICT_VALUE_OFF, kind);
}

int32_t uf__set_add(void *s, uint64_t key)
{
    return uf__dict_insert(s, key) != NULL ? 0 : -1;
}

int32_t uf__set_contains(void *s, uint64_t key)
{
    return uf__dict_find(s, key) != NULL;
}

int32_t uf__set_discard(void *s, uint64_t key)
{
    return uf__dict_delete(s, key, NULL);
}

int32_t uf__set_pop(void *s, uint64_t *key)
{
    return uf__dict_popitem(s, key, NULL);
}

int32_t uf__set_update(void *dst, void *src)
{
    const uf__dict *b = src;
    if (dst == src)
        return 0;
    for (int64_t p = uf__dict_next(src, 0); p >= 0;
         p = uf__dict_next(src, p + 1))
        if (uf__dict_insert(dst, key_at(b, p)) == NULL)
            return -1;
    return 0;
}

void *uf__set_widen(uf__nrt_meminfo **frame, void *s, int32_t is_unsigned)
{
    const uf__dict *d = s;
    void *w = uf__set_new(frame, UF__DICT_FLOAT_EQ);
    if (w == NULL)
        return NULL;
    for (int64_t p = uf__dict_next(s, 0); p >= 0;
         p = uf__dict_next(s, p + 1)) {
        uint64_t k = key_at(d, p), bits;
        double x = is_unsigned ? (double)k : (double)(int64_t)k;
        memcpy(&bits, &x, sizeof bits);
        if (uf__dict_insert(w, bits) == NULL)
            return NULL; /* w stays in the frame, freed with it */
    }
    return w;
}

/* Removes from a the keys that are (keep 0) or are not (keep 1) in b. */
static void filter(void *a, void *b, int keep)
{
    const uf__dict *d = a;
    for (int64_t p = uf__dict_next(a, 0); p >= 0;
         p = uf__dict_next(a, p + 1)) {
        uint64_t k = key_at(d, p);
        if ((uf__dict_find(b, k) != NULL) != keep)
            uf__dict_delete(a, k, NULL);
    }
}

int32_t uf__set_iop(void *a, void *b, int32_t op)
{
    if (a == b) { /* s |= s, s &= s: s; s -= s, s ^= s: empty */
        if (op == UF__SET_SUB || op == UF__SET_XOR)
            uf__dict_clear(a);
        return 0;
    }
    switch (op) {
    case UF__SET_OR:
        return uf__set_update(a, b);
    case UF__SET_AND:
        filter(a, b, 1);
        return 0;
    case UF__SET_SUB:
        filter(a, b, 0);
        return 0;
    default: {
        const uf__dict *d = b;
        for (int64_t p = uf__dict_next(b, 0); p >= 0;
             p = uf__dict_next(b, p + 1)) {
            uint64_t k = key_at(d, p);
            if (uf__dict_delete(a, k, NULL) == 0 &&
                uf__dict_insert(a, k) == NULL)
                return -1;
        }
        return 0;
    }
    }
}

void *uf__set_op(uf__nrt_meminfo **frame, void *a, void *b, int32_t op)
{
    /* out of memory: the copy stays in the frame, freed with it */
    void *r = uf__dict_copy(frame, a);
    if (r == NULL || uf__set_iop(r, a == b ? r : b, op) != 0)
        return NULL;
    return r;
}

/* 1 when every key of a is in b. */
static int32_t subset(void *a, void *b)
{
    const uf__dict *d = a;
    if (d->size > ((const uf__dict *)b)->size)
        return 0;
    for (int64_t p = uf__dict_next(a, 0); p >= 0;
         p = uf__dict_next(a, p + 1))
        if (uf__dict_find(b, key_at(d, p)) == NULL)
            return 0;
    return 1;
}

int32_t uf__set_cmp(void *a, void *b, int32_t op)
{
    int64_t na = ((const uf__dict *)a)->size;
    int64_t nb = ((const uf__dict *)b)->size;
    switch (op) {
    case UF__SET_EQ:
        return na == nb && subset(a, b);
    case UF__SET_NE:
        return !(na == nb && subset(a, b));
    case UF__SET_LE:
        return subset(a, b);
    case UF__SET_LT:
        return na < nb && subset(a, b);
    case UF__SET_GE:
        return subset(b, a);
    case UF__SET_GT:
        return nb < na && subset(b, a);
    default: { /* isdisjoint: the smaller walked */
        void *s = na <= nb ? a : b, *l = na <= nb ? b : a;
        const uf__dict *d = s;
        for (int64_t p = uf__dict_next(s, 0); p >= 0;
             p = uf__dict_next(s, p + 1))
            if (uf__dict_find(l, key_at(d, p)) != NULL)
                return 0;
        return 1;
    }
    }
}
