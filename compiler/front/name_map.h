/* Names to small integers in a compilation's arena: the locals of a
 * function, the names SSA renaming tracks. A linear search over the names
 * made typing quadratic in the number of variables (each `if` of a long
 * chain adds SSA versions), so lookups hash instead. */
#ifndef UF_COMPILER_NAME_MAP_H
#define UF_COMPILER_NAME_MAP_H

#include "compiler/front/arena.h"

typedef struct uf__name_slot {
    const char *name; /* NULL: empty */
    int value;
} uf__name_slot;

/* Zero-initialised is an empty map. Names are not copied: they must live as
 * long as the map (arena strings do). */
typedef struct uf__name_map {
    uf__name_slot *slots;
    int cap; /* a power of two, or 0 */
    int n;
} uf__name_map;

/* The value stored for name, or -1. */
int uf__name_map_get(const uf__name_map *m, const char *name);
/* Stores name -> value (replacing an earlier value). 0, or -1 with err set
 * when the arena is out of memory. */
int uf__name_map_put(uf__name_map *m, uf__arena *a, const char *name,
                     int value, uf_error *err);

#endif
