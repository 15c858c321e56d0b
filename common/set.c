/* The sets kernels make (set.h): open addressing, linear probing. */
#include <stddef.h>
#include <string.h>

#include "common/alloc.h"
#include "common/dict.h"
#include "common/set.h"
#include "common/ustr_key.h"

_Static_assert(offsetof(uf__set, size) == 0 &&
                   offsetof(uf__set, nslots) == 8 &&
                   offsetof(uf__set, slots) == 16 &&
                   offsetof(uf__set, nfields) == 44 &&
                   offsetof(uf__set, fmask) == 48 &&
                   offsetof(uf__set, kind) == 56,
               "lower_set.c reads these header fields inline");

static void set_free(void *data)
{
    uf__free(((uf__set *)data)->slots);
}

static int64_t stride_of(const uf__set *s)
{
    return ((int64_t)s->nfields + 1) * 8;
}

int64_t uf__set_stride(const void *s)
{
    return stride_of(s);
}

static uint64_t field(const void *key, int i)
{
    uint64_t f;
    memcpy(&f, (const char *)key + 8 * i, sizeof f);
    return f;
}

/* The key's bits mixed into one word: a double's -0.0 as 0.0 (they are
 * equal), a string's code points. */
static uint64_t bits_of(const uf__set *s, const void *key)
{
    uint64_t k = field(key, 0);
    switch (s->kind) {
    case UF__SET_BITS:
        return k;
    case UF__SET_FLOAT:
        return k == UINT64_C(1) << 63 ? 0 : k;
    case UF__SET_USTR:
        return uf__ustr_key_bits((const uf__ustr *)(uintptr_t)k);
    default: {
        uint64_t h = UINT64_C(0xcbf29ce484222325);
        for (int i = 0; i < s->nfields; i++) {
            uint64_t f = field(key, i);
            if ((s->fmask >> i & 1) && f == UINT64_C(1) << 63)
                f = 0;
            h = (h ^ f) * UINT64_C(0x100000001b3);
            h ^= h >> 29;
        }
        return h;
    }
    }
}

/* The key's tag: its bits multiplied by 2^64 / phi (Fibonacci hashing:
 * the top bits pick the slot, runs of keys spread); never EMPTY or DEAD. */
static uint64_t tag_of(const uf__set *s, const void *key)
{
    uint64_t h = bits_of(s, key) * UINT64_C(0x9e3779b97f4a7c15);
    return h < 2 ? h + 2 : h;
}

static int dbl_eq(uint64_t a, uint64_t b)
{
    double x, y;
    memcpy(&x, &a, sizeof x);
    memcpy(&y, &b, sizeof y);
    return x == y;
}

/* a and b equal as Numba's == finds them (a NaN never). */
static int same(const uf__set *s, const void *a, const void *b)
{
    switch (s->kind) {
    case UF__SET_BITS:
        return field(a, 0) == field(b, 0);
    case UF__SET_FLOAT:
        return dbl_eq(field(a, 0), field(b, 0));
    case UF__SET_USTR:
        return uf__ustr_key_same(
            (const uf__ustr *)(uintptr_t)field(a, 0),
            (const uf__ustr *)(uintptr_t)field(b, 0));
    default:
        for (int i = 0; i < s->nfields; i++)
            if ((s->fmask >> i & 1) ? !dbl_eq(field(a, i), field(b, i))
                                    : field(a, i) != field(b, i))
                return 0;
        return 1;
    }
}

static char *key_at(const uf__set *s, int64_t i)
{
    return s->slots + i * stride_of(s);
}

static uint64_t tag_get(const uf__set *s, int64_t i)
{
    uint64_t t;
    memcpy(&t, key_at(s, i) + 8 * s->nfields, sizeof t);
    return t;
}

static void tag_put(const uf__set *s, int64_t i, uint64_t t)
{
    memcpy(key_at(s, i) + 8 * s->nfields, &t, sizeof t);
}

static void put(const uf__set *s, int64_t i, const void *key, uint64_t tag)
{
    memcpy(key_at(s, i), key, (size_t)s->nfields * 8);
    tag_put(s, i, tag);
}

/* The slot holding key (*found 1), or the slot an add of it takes: the
 * first dead slot of its run, else the empty slot ending it. */
static int64_t probe(const uf__set *s, const void *key, uint64_t tag,
                     int *found)
{
    int64_t mask = s->nslots - 1, i = (int64_t)(tag >> s->shift), dead = -1;
    for (;;) {
        uint64_t t = tag_get(s, i);
        if (t == UF__SET_EMPTY) {
            *found = 0;
            return dead >= 0 ? dead : i;
        }
        if (t == tag && same(s, key_at(s, i), key)) {
            *found = 1;
            return i;
        }
        if (t == UF__SET_DEAD && dead < 0)
            dead = i;
        i = (i + 1) & mask;
    }
}

/* New slots for s, at least 3 per live key (8 at least), the live keys
 * moved over; -1 when out of memory (s unchanged). */
static int resize(uf__set *s, int64_t live)
{
    int64_t n = 8;
    int32_t bits = 3;
    while (n < live * 3) {
        if (!uf__mul_i64(n, 2, &n))
            return -1;
        bits++;
    }
    int64_t bytes;
    if (!uf__mul_i64(n, stride_of(s), &bytes))
        return -1;
    char *slots = uf__malloc((size_t)bytes, 1, NULL);
    if (slots == NULL)
        return -1;
    memset(slots, 0, (size_t)bytes);
    uf__set old = *s;
    s->slots = slots;
    s->nslots = n;
    s->shift = 64 - bits;
    s->fill = s->size;
    s->finger = 0;
    for (int64_t j = 0; j < old.nslots; j++) {
        uint64_t t = tag_get(&old, j);
        if (t < 2)
            continue;
        int64_t i = (int64_t)(t >> s->shift);
        while (tag_get(s, i) != UF__SET_EMPTY)
            i = (i + 1) & (n - 1);
        put(s, i, key_at(&old, j), t);
    }
    uf__free(old.slots);
    return 0;
}

void *uf__set_new_keyed(uf__nrt_meminfo **frame, int32_t kind,
                        int32_t nfields, uint64_t fmask)
{
    uf__set *s = uf__nrt_alloc_dtor(frame, (int64_t)sizeof *s, set_free);
    if (s == NULL)
        return NULL;
    memset(s, 0, sizeof *s);
    s->kind = kind;
    s->nfields = nfields;
    s->fmask = fmask;
    return s;
}

void *uf__set_new(uf__nrt_meminfo **frame, int32_t kind)
{
    return uf__set_new_keyed(frame, kind, 1, kind == UF__SET_FLOAT);
}

int32_t uf__set_add_key(void *set, const void *key)
{
    uf__set *s = set;
    uint64_t tag = tag_of(s, key);
    int found;
    if (s->nslots != 0) {
        int64_t i = probe(s, key, tag, &found);
        if (found)
            return 0;
        if (tag_get(s, i) == UF__SET_DEAD) { /* reused: fill unchanged */
            put(s, i, key, tag);
            s->size++;
            return 0;
        }
    }
    if ((s->fill + 1) * 2 > s->nslots && resize(s, s->size + 1) != 0)
        return -1;
    int64_t i = probe(s, key, tag, &found);
    put(s, i, key, tag);
    s->size++;
    s->fill++;
    return 0;
}

int32_t uf__set_add(void *set, uint64_t key)
{
    return uf__set_add_key(set, &key);
}

int32_t uf__set_contains_key(void *set, const void *key)
{
    const uf__set *s = set;
    int found;
    if (s->size == 0)
        return 0;
    probe(s, key, tag_of(s, key), &found);
    return found;
}

int32_t uf__set_contains(void *set, uint64_t key)
{
    return uf__set_contains_key(set, &key);
}

int32_t uf__set_discard_key(void *set, const void *key)
{
    uf__set *s = set;
    int found;
    if (s->size == 0)
        return 0;
    int64_t i = probe(s, key, tag_of(s, key), &found);
    if (!found)
        return 0;
    tag_put(s, i, UF__SET_DEAD);
    s->size--;
    return 1;
}

int32_t uf__set_discard(void *set, uint64_t key)
{
    return uf__set_discard_key(set, &key);
}

int32_t uf__set_pop_key(void *set, void *key)
{
    uf__set *s = set;
    if (s->size == 0)
        return 0;
    int64_t i = s->finger & (s->nslots - 1);
    while (tag_get(s, i) < 2)
        i = (i + 1) & (s->nslots - 1);
    memcpy(key, key_at(s, i), (size_t)s->nfields * 8);
    tag_put(s, i, UF__SET_DEAD);
    s->size--;
    s->finger = i + 1;
    return 1;
}

int32_t uf__set_pop(void *set, uint64_t *key)
{
    return uf__set_pop_key(set, key);
}

int64_t uf__set_next(void *set, int64_t pos)
{
    const uf__set *s = set;
    for (; pos < s->nslots; pos++)
        if (tag_get(s, pos) >= 2)
            return pos;
    return -1;
}

void uf__set_clear(void *set)
{
    uf__set *s = set;
    if (s->slots != NULL)
        memset(s->slots, 0, (size_t)(s->nslots * stride_of(s)));
    s->size = 0;
    s->fill = 0;
    s->finger = 0;
}

void *uf__set_copy(uf__nrt_meminfo **frame, void *set)
{
    const uf__set *s = set;
    uf__set *c = uf__set_new_keyed(frame, s->kind, s->nfields, s->fmask);
    if (c == NULL || s->size == 0)
        return c;
    /* out of memory: the empty copy stays in the frame, freed with it */
    if (resize(c, s->size) != 0 || uf__set_update(c, set) != 0)
        return NULL;
    return c;
}

int32_t uf__set_update(void *dst, void *src)
{
    const uf__set *b = src;
    if (dst == src)
        return 0;
    for (int64_t p = uf__set_next(src, 0); p >= 0;
         p = uf__set_next(src, p + 1))
        if (uf__set_add_key(dst, key_at(b, p)) != 0)
            return -1;
    return 0;
}

void *uf__set_widen(uf__nrt_meminfo **frame, void *set, int32_t is_unsigned)
{
    const uf__set *s = set;
    void *w = uf__set_new(frame, UF__SET_FLOAT);
    if (w == NULL)
        return NULL;
    for (int64_t p = uf__set_next(set, 0); p >= 0;
         p = uf__set_next(set, p + 1)) {
        uint64_t k = field(key_at(s, p), 0), bits;
        double x = is_unsigned ? (double)k : (double)(int64_t)k;
        memcpy(&bits, &x, sizeof bits);
        if (uf__set_add(w, bits) != 0)
            return NULL; /* w stays in the frame, freed with it */
    }
    return w;
}

int32_t uf__set_add_dict_keys(void *set, void *dict)
{
    uint64_t key[UF__SET_MAXFIELDS];
    for (int64_t p = uf__dict_next(dict, 0); p >= 0;
         p = uf__dict_next(dict, p + 1)) {
        uf__dict_key_at(dict, p, key);
        if (uf__set_add_key(set, key) != 0)
            return -1;
    }
    return 0;
}

/* Removes from a the keys that are (keep 0) or are not (keep 1) in b. */
static void filter(void *a, void *b, int keep)
{
    const uf__set *s = a;
    for (int64_t p = uf__set_next(a, 0); p >= 0;
         p = uf__set_next(a, p + 1))
        if (uf__set_contains_key(b, key_at(s, p)) != keep)
            uf__set_discard_key(a, key_at(s, p));
}

int32_t uf__set_iop(void *a, void *b, int32_t op)
{
    if (a == b) { /* s |= s, s &= s: s; s -= s, s ^= s: empty */
        if (op == UF__SET_SUB || op == UF__SET_XOR)
            uf__set_clear(a);
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
        const uf__set *s = b;
        for (int64_t p = uf__set_next(b, 0); p >= 0;
             p = uf__set_next(b, p + 1)) {
            const char *k = key_at(s, p);
            if (uf__set_discard_key(a, k) == 0 && uf__set_add_key(a, k) != 0)
                return -1;
        }
        return 0;
    }
    }
}

void *uf__set_op(uf__nrt_meminfo **frame, void *a, void *b, int32_t op)
{
    /* out of memory: the copy stays in the frame, freed with it */
    void *r = uf__set_copy(frame, a);
    if (r == NULL || uf__set_iop(r, a == b ? r : b, op) != 0)
        return NULL;
    return r;
}

/* 1 when every key of a is in b. */
static int32_t subset(void *a, void *b)
{
    const uf__set *s = a;
    if (s->size > ((const uf__set *)b)->size)
        return 0;
    for (int64_t p = uf__set_next(a, 0); p >= 0;
         p = uf__set_next(a, p + 1))
        if (!uf__set_contains_key(b, key_at(s, p)))
            return 0;
    return 1;
}

int32_t uf__set_cmp(void *a, void *b, int32_t op)
{
    int64_t na = ((const uf__set *)a)->size;
    int64_t nb = ((const uf__set *)b)->size;
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
        const uf__set *d = s;
        for (int64_t p = uf__set_next(s, 0); p >= 0;
             p = uf__set_next(s, p + 1))
            if (uf__set_contains_key(l, key_at(d, p)))
                return 0;
        return 1;
    }
    }
}

/* Whether a < b (gt: a > b) as Numba compares tuples: at the first
 * field where a != b (a NaN differs from everything) that field's
 * comparison decides; fields are doubles (fmask), uint64 (umask) or
 * int64; a string by its code points. */
static int key_cmp(const uf__set *s, const char *a, const char *b,
                   uint64_t umask, int gt)
{
    if (s->kind == UF__SET_USTR) {
        int c = uf__ustr_cmp((const uf__ustr *)(uintptr_t)field(a, 0),
                             (const uf__ustr *)(uintptr_t)field(b, 0));
        return gt ? c > 0 : c < 0;
    }
    for (int i = 0; i < s->nfields; i++) {
        uint64_t x = field(a, i), y = field(b, i);
        if (i < 64 && (s->fmask >> i & 1)) {
            double u, v;
            memcpy(&u, &x, sizeof u);
            memcpy(&v, &y, sizeof v);
            if (u != v)
                return gt ? u > v : u < v;
        } else if (x != y) {
            if (i < 64 && (umask >> i & 1))
                return gt ? x > y : x < y;
            return gt ? (int64_t)x > (int64_t)y : (int64_t)x < (int64_t)y;
        }
    }
    return 0;
}

int64_t uf__set_minmax(void *set, int32_t is_max, uint64_t umask)
{
    const uf__set *s = set;
    int64_t best = uf__set_next(set, 0);
    if (best < 0)
        return -1;
    for (int64_t p = uf__set_next(set, best + 1); p >= 0;
         p = uf__set_next(set, p + 1))
        if (key_cmp(s, key_at(s, p), key_at(s, best), umask, is_max))
            best = p;
    return best;
}
