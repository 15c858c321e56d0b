/* The lists kernels make (Numba's list(T), compiler/lower/lower_list.c).
 *
 * A list's value is the data pointer of one NRT block (common/nrt.h)
 * holding its header: so `b = a` shares it as Python does, the frame that
 * made it (or adopted it from a callee returning it) frees it once, and a
 * loop's sweep keeps it while a list variable points at it. The items live
 * in a buffer of their own, grown by doubling, that the header owns and
 * its block's destructor frees. Generated code reads and writes size and
 * items inline; only making a list and growing one call here. */
#ifndef UF_COMMON_LIST_H
#define UF_COMMON_LIST_H

#include <stdint.h>

#include "common/nrt.h"

typedef struct uf__list {
    int64_t size; /* items in use */
    int64_t cap;  /* items the buffer holds */
    char *items;  /* cap * itemsize bytes (NULL while cap is 0) */
} uf__list;

/* A new list of n items (uninitialised) of itemsize bytes in *frame, room
 * for at least n; NULL when out of memory (an empty header may be left
 * in *frame, freed with it). */
void *uf__list_new(uf__nrt_meminfo **frame, int64_t n, int64_t itemsize);
/* Room for `need` items (need > cap: the buffer doubles, at least to
 * need); 0, or -1 when out of memory or past int64 (the list is
 * unchanged). */
int32_t uf__list_reserve(void *list, int64_t need, int64_t itemsize);

/* Moves n items from index src to index dst (ranges may overlap). */
void uf__list_move(void *list, int64_t dst, int64_t src, int64_t n,
                   int64_t itemsize);
/* Reverses the items in place. */
void uf__list_reverse(void *list, int64_t itemsize);

#define UF__LIST_NEW "uf__list_new"
#define UF__LIST_RESERVE "uf__list_reserve"
#define UF__LIST_MOVE "uf__list_move"
#define UF__LIST_REVERSE "uf__list_reverse"

#endif
