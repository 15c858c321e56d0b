/* The lists kernels make (list.h). */
#include <string.h>

#include "common/alloc.h"
#include "common/list.h"

static void list_free(void *data)
{
    uf__free(((uf__list *)data)->items);
}

int32_t uf__list_reserve(void *list, int64_t need, int64_t itemsize)
{
    uf__list *l = list;
    if (need <= l->cap)
        return 0;
    int64_t cap = l->cap < 4 ? 4 : l->cap;
    while (cap < need)
        if (!uf__mul_i64(cap, 2, &cap))
            return -1;
    int64_t bytes;
    if (!uf__mul_i64(cap, itemsize, &bytes))
        return -1;
    /* counted by uf__alloc_live, failed by uf__alloc_fail_at */
    char *items = uf__realloc(l->items, (size_t)cap, (size_t)itemsize, NULL);
    if (items == NULL)
        return -1;
    l->items = items;
    l->cap = cap;
    return 0;
}

void *uf__list_new(uf__nrt_meminfo **frame, int64_t n, int64_t itemsize)
{
    if (n < 0)
        return NULL;
    uf__list *l = uf__nrt_alloc_dtor(frame, (int64_t)sizeof *l, list_free);
    if (l == NULL)
        return NULL;
    l->size = 0;
    l->cap = 0;
    l->items = NULL;
    /* out of memory for the items: the empty header stays in the frame,
     * which frees it with the rest when the error returns */
    if (n > 0 && uf__list_reserve(l, n, itemsize) != 0)
        return NULL;
    l->size = n;
    return l;
}

void uf__list_move(void *list, int64_t dst, int64_t src, int64_t n,
                   int64_t itemsize)
{
    uf__list *l = list;
    if (n > 0)
        memmove(l->items + dst * itemsize, l->items + src * itemsize,
                (size_t)(n * itemsize));
}

void uf__list_reverse(void *list, int64_t itemsize)
{
    uf__list *l = list;
    char tmp[64]; /* items are swapped 64 bytes at a time (an array item
                     is 8 + 16 * ndim bytes: common/list_items.h) */
    for (int64_t a = 0, b = l->size - 1; a < b; a++, b--) {
        char *x = l->items + a * itemsize, *y = l->items + b * itemsize;
        for (int64_t o = 0; o < itemsize; o += (int64_t)sizeof tmp) {
            size_t n = (size_t)(itemsize - o < (int64_t)sizeof tmp
                                    ? itemsize - o
                                    : (int64_t)sizeof tmp);
            memcpy(tmp, x + o, n);
            memcpy(x + o, y + o, n);
            memcpy(y + o, tmp, n);
        }
    }
}
