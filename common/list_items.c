/* Lists whose items are arrays, as the frames see them (list_items.h). */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "common/alloc.h"
#include "common/dict.h"
#include "common/list.h"
#include "common/list_items.h"
#include "common/set.h"

/* The ndim of the list whose header follows keep[k] (UF__LIST_ITEM_MAXDIM
 * + what for a dict's), or -1 when keep[k] is a plain pointer. */
static int mark_of(const char *p)
{
    uintptr_t v = UINTPTR_MAX - (uintptr_t)p;
    return v <= UF__LIST_ITEM_MAXDIM + UF__SET_ROOT_KEYS ? (int)v : -1;
}

#define DESC (UF__LIST_ITEM_MAXDIM + 4) /* mark_of a described list */

static int64_t described(const void *c, const int64_t *d, char **out);

/* The pointers kept for what a slot at p holds (kind d[0], then what
 * follows it: an inner container's descriptor, or n, off[0..n)): the
 * inner container's (recursively) or the pointers at p + off[k]. */
static int64_t slot(const char *p, const int64_t *d, char **out)
{
    if (d[0] == UF__LIST_DESC_LIST || d[0] == UF__LIST_DESC_DICT) {
        const void *in;
        memcpy(&in, p, sizeof in);
        return described(in, d + 1, out);
    }
    for (int64_t k = 0; k < d[1]; k++)
        if (out != NULL)
            memcpy(&out[k], p + d[2 + k], sizeof *out);
    return d[1];
}

/* The same for described dict h: its header, then per live entry its
 * key's string (when d[1]) and what its value holds. */
static int64_t described_dict(const uf__dict *h, const int64_t *d,
                              char **out)
{
    int64_t n = 0;
    if (out != NULL)
        out[n] = (char *)(uintptr_t)h;
    n++;
    for (int64_t p = 0; h != NULL && p < h->used; p++) {
        const char *e = h->entries + p * h->esize;
        uint64_t hash;
        memcpy(&hash, e + UF__DICT_HASH_OFF, sizeof hash);
        if (hash == UF__DICT_DEAD)
            continue;
        if (d[1]) {
            if (out != NULL)
                memcpy(&out[n], e + UF__DICT_KEY_OFF, sizeof *out);
            n++;
        }
        n += slot(e + UF__DICT_VALUE_OFF, d + 2, out != NULL ? out + n : NULL);
    }
    return n;
}

/* The pointers kept for described container c (descriptor d, a list's or
 * a dict's): its header, then per item its inner container's
 * (recursively) or the pointers it holds, written to out unless NULL; how
 * many. The depth is the type's. */
static int64_t described(const void *c, const int64_t *d, char **out)
{
    if (d[0] == UF__DICT_DESC_HEAD)
        return described_dict(c, d, out);
    const uf__list *l = c;
    int64_t n = 0;
    if (out != NULL)
        out[n] = (char *)(uintptr_t)l;
    n++;
    for (int64_t i = 0; l != NULL && i < l->size; i++)
        n += slot(l->items + i * d[0], d + 1, out != NULL ? out + n : NULL);
    return n;
}

/* The strings of set s's live slots (a set of strings) into out (NULL:
 * only counted); how many. */
static int64_t set_strings(const uf__set *s, char **out)
{
    int64_t n = 0;
    for (int64_t p = uf__set_next((void *)s, 0); p >= 0;
         p = uf__set_next((void *)s, p + 1), n++)
        if (out != NULL)
            memcpy(&out[n], s->slots + p * uf__set_stride(s), sizeof *out);
    return n;
}

/* The strings of dict d's live entries (its keys when bit 0 of what, its
 * values when bit 1; a set's when what is UF__SET_ROOT_KEYS) into out
 * (NULL: only counted); how many. */
static int64_t dict_strings(const uf__dict *d, int what, char **out)
{
    if (what == UF__SET_ROOT_KEYS)
        return set_strings((const uf__set *)(const void *)d, out);
    int64_t n = 0;
    for (int64_t p = 0; p < d->used; p++) {
        const char *e = d->entries + p * d->esize;
        uint64_t h;
        memcpy(&h, e + UF__DICT_HASH_OFF, sizeof h);
        if (h == UF__DICT_DEAD)
            continue;
        for (int k = 0; k < 2; k++) {
            if (!(what & (1 << k)))
                continue;
            if (out != NULL)
                memcpy(&out[n], e + (k ? UF__DICT_VALUE_OFF : UF__DICT_KEY_OFF),
                       sizeof *out);
            n++;
        }
    }
    return n;
}

int64_t uf__list_roots_count(char *const *keep, int64_t nkeep)
{
    int64_t n = nkeep;
    bool marked = false;
    for (int64_t k = 0; k + 1 < nkeep; k++) {
        int nd = mark_of(keep[k]);
        if (nd < 0)
            continue;
        marked = true;
        if (nd == DESC) { /* the descriptor, then the header */
            if (k + 2 < nkeep)
                n += described(keep[k + 2],
                               (const int64_t *)(const void *)keep[k + 1],
                               NULL) - 2;
            k += 2;
            continue;
        }
        const void *c = keep[++k];
        if (c == NULL) /* a variable not yet bound */
            continue;
        n += nd > UF__LIST_ITEM_MAXDIM
                 ? dict_strings(c, nd - UF__LIST_ITEM_MAXDIM, NULL)
                 : ((const uf__list *)c)->size;
    }
    return marked ? n : -1;
}

int64_t uf__list_roots_expand(char *const *keep, int64_t nkeep, char **out)
{
    int64_t n = 0;
    for (int64_t k = 0; k < nkeep; k++) {
        int nd = mark_of(keep[k]);
        if (nd < 0 || k + 1 == nkeep) {
            out[n++] = keep[k];
            continue;
        }
        if (nd == DESC) {
            if (k + 2 < nkeep)
                n += described(keep[k + 2],
                               (const int64_t *)(const void *)keep[k + 1],
                               out + n);
            k += 2;
            continue;
        }
        const uf__list *l = (const uf__list *)(const void *)keep[++k];
        out[n++] = keep[k];
        if (l == NULL)
            continue;
        if (nd > UF__LIST_ITEM_MAXDIM) {
            n += dict_strings((const uf__dict *)(const void *)l,
                              nd - UF__LIST_ITEM_MAXDIM, out + n);
            continue;
        }
        int64_t step = uf__list_item_bytes(nd);
        for (int64_t i = 0; i < l->size; i++) {
            char *data;
            memcpy(&data, l->items + i * step, sizeof data);
            out[n++] = data;
        }
    }
    return n;
}
