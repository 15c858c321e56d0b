/* Lists of lists made into arrays (list_nest.h). */
#include <stdbool.h>
#include <string.h>

#include "common/list.h"
#include "common/list_nest.h"

static const uf__list *inner(const uf__list *l, int64_t i)
{
    const uf__list *in;
    memcpy(&in, l->items + i * (int64_t)sizeof in, sizeof in);
    return in;
}

int32_t uf__list_nest_shape(const void *list, int32_t ndim, int64_t *shape)
{
    const uf__list *l = list;
    for (int32_t d = 0; d < ndim; d++) {
        shape[d] = l->size;
        if (d + 1 == ndim)
            break;
        if (l->size == 0)
            return -1;
        l = inner(l, 0);
    }
    return 0;
}

typedef struct fill {
    const int64_t *shape;
    int32_t ndim;
    int64_t isz; /* the bytes of one number */
} fill;

/* l at level d into *dst (advanced); false when ragged. */
static bool fill_level(const fill *f, const uf__list *l, int32_t d,
                       char **dst)
{
    if (l->size != f->shape[d])
        return false;
    if (d + 1 == f->ndim) {
        if (l->size > 0)
            memcpy(*dst, l->items, (size_t)(l->size * f->isz));
        *dst += l->size * f->isz;
        return true;
    }
    for (int64_t i = 0; i < l->size; i++)
        if (!fill_level(f, inner(l, i), d + 1, dst))
            return false;
    return true;
}

int32_t uf__list_nest_fill(const void *list, int32_t ndim,
                           const int64_t *shape, int64_t itemsize,
                           char *dst)
{
    fill f = {shape, ndim, itemsize};
    return fill_level(&f, list, 0, &dst) ? 0 : -1;
}
