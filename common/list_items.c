/* Lists whose items are arrays, as the frames see them (list_items.h). */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "common/alloc.h"
#include "common/list.h"
#include "common/list_items.h"

/* The ndim of the list whose header follows keep[k], or -1 when keep[k]
 * is a plain pointer. */
static int mark_of(const char *p)
{
    uintptr_t v = UINTPTR_MAX - (uintptr_t)p;
    return v <= UF__LIST_ITEM_MAXDIM ? (int)v : -1;
}

int64_t uf__list_roots_count(char *const *keep, int64_t nkeep)
{
    int64_t n = nkeep;
    bool marked = false;
    for (int64_t k = 0; k + 1 < nkeep; k++)
        if (mark_of(keep[k]) >= 0) {
            marked = true;
            const uf__list *l = (const uf__list *)(const void *)keep[++k];
            if (l != NULL) /* a variable not yet bound */
                n += l->size;
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
        const uf__list *l = (const uf__list *)(const void *)keep[++k];
        out[n++] = keep[k];
        if (l == NULL)
            continue;
        int64_t step = uf__list_item_bytes(nd);
        for (int64_t i = 0; i < l->size; i++) {
            char *data;
            memcpy(&data, l->items + i * step, sizeof data);
            out[n++] = data;
        }
    }
    return n;
}
