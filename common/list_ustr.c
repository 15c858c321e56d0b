/* Lists of strings: sorting, search and min/max (list_ustr.h). */
#include <stdbool.h>
#include <stdlib.h>

#include "common/list.h"
#include "common/list_ustr.h"

static const uf__ustr *item(const uf__list *l, int64_t i)
{
    return ((const uf__ustr *const *)(const void *)l->items)[i];
}

static int up(const void *a, const void *b)
{
    return uf__ustr_cmp(*(const uf__ustr *const *)a,
                        *(const uf__ustr *const *)b);
}

static int down(const void *a, const void *b)
{
    return up(b, a);
}

void uf__list_ustr_sort(void *list, int32_t reverse)
{
    uf__list *l = list;
    if (l->size > 1)
        qsort(l->items, (size_t)l->size, sizeof(const uf__ustr *),
              reverse ? down : up);
}

static bool same(const uf__ustr *a, const uf__ustr *b)
{
    return a == b || (a->len == b->len && uf__ustr_cmp(a, b) == 0);
}

int64_t uf__list_ustr_find(const void *list, const uf__ustr *s,
                           int64_t start)
{
    const uf__list *l = list;
    for (int64_t i = start < 0 ? 0 : start; i < l->size; i++)
        if (same(item(l, i), s))
            return i;
    return -1;
}

int64_t uf__list_ustr_count(const void *list, const uf__ustr *s)
{
    const uf__list *l = list;
    int64_t n = 0;
    for (int64_t i = 0; i < l->size; i++)
        n += same(item(l, i), s);
    return n;
}

const uf__ustr *uf__list_ustr_minmax(const void *list, int32_t want_max)
{
    const uf__list *l = list;
    if (l->size == 0)
        return NULL;
    const uf__ustr *best = item(l, 0);
    for (int64_t i = 1; i < l->size; i++) {
        int c = uf__ustr_cmp(item(l, i), best);
        if (want_max ? c > 0 : c < 0)
            best = item(l, i);
    }
    return best;
}
