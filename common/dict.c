/* The dicts and sets kernels make (dict.h). */
#include <string.h>

#include "common/alloc.h"
#include "common/dict.h"
#include "common/ustr_key.h"

static void dict_free(void *data)
{
    uf__dict *d = data;
    uf__free(d->entries);
    uf__free(d->index);
}

static uint64_t word(const void *p)
{
    uint64_t w;
    memcpy(&w, p, sizeof w);
    return w;
}

/* Field i of the key of entry e: field 0 at UF__DICT_KEY_OFF, a WIDE
 * key's others at the entry's end, after the value. */
static char *kfield(const uf__dict *d, const char *e, int i)
{
    return (char *)(uintptr_t)(i == 0 ? e + UF__DICT_KEY_OFF
                                      : e + d->esize - 8 * (d->nfields - i));
}

/* The key's bits (a string's: its code points'; a WIDE key's fields)
 * mixed (splitmix64's finaliser) so that keys in
 * a run spread over the index. Never DEAD. key: the caller's fields, in
 * a row. */
static uint64_t hash_of(const uf__dict *d, const char *key)
{
    uint64_t k = word(key);
    if (d->kind == UF__DICT_USTR) {
        k = uf__ustr_key_bits((const uf__ustr *)(uintptr_t)k);
    } else if (d->kind == UF__DICT_WIDE) {
        k = UINT64_C(0xcbf29ce484222325);
        for (int i = 0; i < d->nfields; i++) {
            uint64_t f = word(key + 8 * i);
            k = (k ^ f) * UINT64_C(0x100000001b3);
            k ^= k >> 29;
        }
    }
    k ^= k >> 30;
    k *= UINT64_C(0xbf58476d1ce4e5b9);
    k ^= k >> 27;
    k *= UINT64_C(0x94d049bb133111eb);
    k ^= k >> 31;
    return k == UF__DICT_DEAD ? 0 : k;
}

/* Two doubles' bits equal and not a NaN's. */
static int dbl_same(uint64_t a, uint64_t b)
{
    double x;
    memcpy(&x, &a, sizeof x);
    return a == b && x == x;
}

/* Whether entry e holds key. Float keys as Numba's typed dict finds
 * them: by their bits, except that a NaN finds nothing (each NaN stored
 * is a new key); so -0.0 and 0.0 are two keys. A WIDE key's (complex
 * numbers, tuples) double fields the same way (Numba's dict tells
 * complex(-0.0, 0) from 0j too; a NaN field is never found). */
static int same(const uf__dict *d, const char *e, const char *key)
{
    uint64_t a = word(e + UF__DICT_KEY_OFF), b = word(key);
    if (d->kind == UF__DICT_USTR)
        return uf__ustr_key_same((const uf__ustr *)(uintptr_t)a,
                                 (const uf__ustr *)(uintptr_t)b);
    if (d->kind == UF__DICT_WIDE) {
        for (int i = 0; i < d->nfields; i++) {
            uint64_t x = word(kfield(d, e, i)), y = word(key + 8 * i);
            if ((d->fmask >> i & 1) ? !dbl_same(x, y) : x != y)
                return 0;
        }
        return 1;
    }
    if (a != b)
        return 0;
    if (d->kind == UF__DICT_FLOAT) {
        double x;
        memcpy(&x, &a, sizeof x);
        return x == x;
    }
    return 1;
}

static char *entry(const uf__dict *d, int64_t pos)
{
    return d->entries + pos * d->esize;
}

/* The index slot holding key's position, or the empty slot that ends its
 * probe; *pos the position found or -1. */
static int64_t probe(const uf__dict *d, const char *key, uint64_t h,
                     int64_t *pos)
{
    int64_t i = (int64_t)(h & (uint64_t)d->mask);
    for (;;) {
        int64_t p = d->index[i];
        if (p < 0) {
            *pos = -1;
            return i;
        }
        const char *e = entry(d, p);
        uint64_t eh;
        memcpy(&eh, e + UF__DICT_HASH_OFF, sizeof eh);
        if (eh == h && same(d, e, key)) {
            *pos = p;
            return i;
        }
        i = (i + 1) & d->mask;
    }
}

/* New buffers for d with room for `want` live entries, filled from the
 * `used` entries at src (dead ones dropped, the rest compacted in order);
 * the old buffers are the caller's to free. -1 when out of memory (d
 * unchanged). */
static int rebuild(uf__dict *d, const char *src, int64_t used, int64_t want)
{
    int64_t cap = 8;
    while (cap < want)
        if (!uf__mul_i64(cap, 2, &cap))
            return -1;
    int64_t slots;
    if (!uf__mul_i64(cap, 2, &slots)) /* load at most 1/2 */
        return -1;
    int64_t *index = uf__malloc((size_t)slots, sizeof *index, NULL);
    char *entries = index ? uf__malloc((size_t)cap, (size_t)d->esize, NULL)
                          : NULL;
    if (entries == NULL) {
        uf__free(index);
        return -1;
    }
    memset(index, 0xff, (size_t)slots * sizeof *index);
    int64_t n = 0;
    for (int64_t p = 0; p < used; p++) {
        const char *e = src + p * d->esize;
        uint64_t h;
        memcpy(&h, e + UF__DICT_HASH_OFF, sizeof h);
        if (h == UF__DICT_DEAD)
            continue;
        memcpy(entries + n * d->esize, e, (size_t)d->esize);
        int64_t i = (int64_t)(h & (uint64_t)(slots - 1));
        while (index[i] >= 0)
            i = (i + 1) & (slots - 1);
        index[i] = n++;
    }
    d->entries = entries;
    d->index = index;
    d->cap = cap;
    d->mask = slots - 1;
    d->used = n;
    return 0;
}

static int resize(uf__dict *d, int64_t want)
{
    char *entries = d->entries;
    int64_t *index = d->index;
    if (rebuild(d, entries, d->used, want) != 0)
        return -1;
    uf__free(entries);
    uf__free(index);
    return 0;
}

void *uf__dict_new_keyed(uf__nrt_meminfo **frame, int64_t esize,
                         int32_t kind, int32_t nfields, uint64_t fmask)
{
    uf__dict *d = uf__nrt_alloc_dtor(frame, (int64_t)sizeof *d, dict_free);
    if (d == NULL)
        return NULL;
    memset(d, 0, sizeof *d);
    d->esize = esize;
    d->kind = kind;
    d->nfields = nfields;
    d->fmask = fmask;
    return d;
}

void *uf__dict_new(uf__nrt_meminfo **frame, int64_t esize, int32_t kind)
{
    return uf__dict_new_keyed(frame, esize, kind, 1, 0);
}

char *uf__dict_find_key(void *dict, const void *key)
{
    uf__dict *d = dict;
    if (d->size == 0)
        return NULL;
    int64_t pos;
    probe(d, key, hash_of(d, key), &pos);
    return pos < 0 ? NULL : entry(d, pos) + UF__DICT_VALUE_OFF;
}

char *uf__dict_find(void *dict, uint64_t key)
{
    return uf__dict_find_key(dict, &key);
}

char *uf__dict_insert_key(void *dict, const void *key)
{
    uf__dict *d = dict;
    uint64_t h = hash_of(d, key);
    int64_t pos, slot;
    if (d->index != NULL) {
        slot = probe(d, key, h, &pos);
        if (pos >= 0)
            return entry(d, pos) + UF__DICT_VALUE_OFF;
    }
    if (d->used == d->cap) { /* full of live or dead entries */
        int64_t want;
        if (!uf__mul_i64(d->size + 1, 2, &want) || resize(d, want) != 0)
            return NULL;
    }
    slot = probe(d, key, h, &pos);
    char *e = entry(d, d->used);
    for (int i = 0; i < d->nfields; i++)
        memcpy(kfield(d, e, i), (const char *)key + 8 * i, 8);
    memcpy(e + UF__DICT_HASH_OFF, &h, sizeof h);
    d->index[slot] = d->used++;
    d->size++;
    return e + UF__DICT_VALUE_OFF;
}

char *uf__dict_insert(void *dict, uint64_t key)
{
    return uf__dict_insert_key(dict, &key);
}

void uf__dict_key_at(const void *dict, int64_t pos, void *key)
{
    const uf__dict *d = dict;
    for (int i = 0; i < d->nfields; i++)
        memcpy((char *)key + 8 * i, kfield(d, entry(d, pos), i), 8);
}

/* Deletes the entry at index slot `slot` (position pos): its slot is
 * emptied and the probe run after it re-seated (linear probing's
 * deletion, so no tombstones in the index). */
static void remove_at(uf__dict *d, int64_t slot, int64_t pos)
{
    uint64_t dead = UF__DICT_DEAD;
    memcpy(entry(d, pos) + UF__DICT_HASH_OFF, &dead, sizeof dead);
    d->size--;
    int64_t i = slot;
    for (int64_t j = (i + 1) & d->mask; d->index[j] >= 0;
         j = (j + 1) & d->mask) {
        uint64_t h;
        memcpy(&h, entry(d, d->index[j]) + UF__DICT_HASH_OFF, sizeof h);
        int64_t home = (int64_t)(h & (uint64_t)d->mask);
        /* j's entry may move to i when its home is not in (i, j] */
        if (i <= j ? (home <= i || home > j) : (home <= i && home > j)) {
            d->index[i] = d->index[j];
            i = j;
        }
    }
    d->index[i] = -1;
    while (d->used > 0) { /* trailing dead entries are reused */
        uint64_t h;
        memcpy(&h, entry(d, d->used - 1) + UF__DICT_HASH_OFF, sizeof h);
        if (h != UF__DICT_DEAD)
            break;
        d->used--;
    }
}

int32_t uf__dict_delete_key(void *dict, const void *key, void *out)
{
    uf__dict *d = dict;
    if (d->size == 0)
        return 0;
    int64_t pos, slot = probe(d, key, hash_of(d, key), &pos);
    if (pos < 0)
        return 0;
    if (out != NULL) /* the value, without a WIDE key's tail */
        memcpy(out, entry(d, pos) + UF__DICT_VALUE_OFF,
               (size_t)(d->esize - UF__DICT_VALUE_OFF -
                        8 * (d->nfields - 1)));
    remove_at(d, slot, pos);
    return 1;
}

int32_t uf__dict_delete(void *dict, uint64_t key, void *out)
{
    return uf__dict_delete_key(dict, &key, out);
}

int32_t uf__dict_popitem_key(void *dict, void *key, void *out)
{
    uf__dict *d = dict;
    if (d->size == 0)
        return 0;
    uf__dict_key_at(d, d->used - 1, key);
    return uf__dict_delete_key(d, key, out);
}

int32_t uf__dict_popitem(void *dict, uint64_t *key, void *out)
{
    return uf__dict_popitem_key(dict, key, out);
}

int64_t uf__dict_next(void *dict, int64_t pos)
{
    const uf__dict *d = dict;
    for (; pos < d->used; pos++) {
        uint64_t h;
        memcpy(&h, entry(d, pos) + UF__DICT_HASH_OFF, sizeof h);
        if (h != UF__DICT_DEAD)
            return pos;
    }
    return -1;
}

void uf__dict_clear(void *dict)
{
    uf__dict *d = dict;
    if (d->index != NULL)
        memset(d->index, 0xff, (size_t)(d->mask + 1) * sizeof *d->index);
    d->size = 0;
    d->used = 0;
}

void *uf__dict_copy(uf__nrt_meminfo **frame, void *dict)
{
    const uf__dict *d = dict;
    uf__dict *c = uf__dict_new_keyed(frame, d->esize, d->kind, d->nfields,
                                     d->fmask);
    if (c == NULL || d->size == 0)
        return c;
    /* out of memory: the empty copy stays in the frame, freed with it */
    if (rebuild(c, d->entries, d->used, d->size) != 0)
        return NULL;
    c->size = d->size;
    return c;
}
