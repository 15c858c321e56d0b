/* Open addressing with linear probing, at most half full. Grown tables are
 * abandoned to the arena: the waste is below the final table's size. */
#include "compiler/front/name_map.h"

#include <stdint.h>
#include <string.h>

static uint32_t hash_name(const char *s)
{
    uint32_t h = 2166136261u; /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

static uf__name_slot *find_slot(uf__name_slot *slots, int cap,
                                const char *name)
{
    uint32_t mask = (uint32_t)cap - 1;
    for (uint32_t i = hash_name(name) & mask;; i = (i + 1) & mask)
        if (slots[i].name == NULL || strcmp(slots[i].name, name) == 0)
            return &slots[i];
}

int uf__name_map_get(const uf__name_map *m, const char *name)
{
    if (m->cap == 0)
        return -1;
    const uf__name_slot *s = find_slot(m->slots, m->cap, name);
    return s->name != NULL ? s->value : -1;
}

static int grow(uf__name_map *m, uf__arena *a, uf_error *err)
{
    int ncap = m->cap ? 2 * m->cap : 16;
    uf__name_slot *fresh = uf__arena_alloc(a, (size_t)ncap, sizeof *fresh,
                                           err);
    if (fresh == NULL)
        return -1;
    for (int i = 0; i < m->cap; i++)
        if (m->slots[i].name != NULL)
            *find_slot(fresh, ncap, m->slots[i].name) = m->slots[i];
    m->slots = fresh;
    m->cap = ncap;
    return 0;
}

int uf__name_map_put(uf__name_map *m, uf__arena *a, const char *name,
                     int value, uf_error *err)
{
    if (2 * (m->n + 1) > m->cap && grow(m, a, err) != 0)
        return -1;
    uf__name_slot *s = find_slot(m->slots, m->cap, name);
    if (s->name == NULL) {
        s->name = name;
        m->n++;
    }
    s->value = value;
    return 0;
}
