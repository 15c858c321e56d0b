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

/* The pointers kept for described list l (descriptor d): its header,
 * then per item its inner list's (recursively) or the pointers it holds,
 * written to out unless NULL; how many. The depth is the type's. */
static int64_t described(const uf__list *l, const int64_t *d, char **out)
{
    int64_t n = 0;
    if (out != NULL)
        out[n] = (char *)(uintptr_t)l;
    n++;
    if (l == NULL)
        return n;
    for (int64_t i = 0; i < l->size; i++) {
        const char *item = l->items + i * d[0];
        if (d[1] == UF__LIST_DESC_LIST) {
            const uf__list *in;
            memcpy(&in, item, sizeof in);
            n += described(in, d + 2, out != NULL ? out + n : NULL);
            continue;
        }
        for (int64_t k = 0; k < d[2]; k++, n++)
            if (out != NULL)
                memcpy(&out[n], item + d[3 + k], sizeof *out);
    }
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
                n += described((const uf__list *)(const void *)keep[k + 2],
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
                n += described((const uf__list *)(const void *)keep[k + 2],
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
