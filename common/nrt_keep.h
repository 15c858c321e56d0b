/* The pointers a sweep or a frame's return keeps blocks for (common/
 * nrt.c): a block is kept when one of them lies in its data, from its
 * start to one past its end.
 *
 * A few pointers are searched one by one. Many (a list of arrays hands
 * every item's data pointer: common/list_items.h) go into a hash set, so
 * that the usual case, a pointer to the very start of a block's data, is
 * settled in O(1) per block: no other block of the frame can hold that
 * address (blocks do not overlap, and each one's header lies before its
 * data). Pointers that start no block of the frame (views, arguments,
 * other frames' blocks) are then sorted and the blocks not kept yet are
 * searched among them by bisection. Out of memory keeps every block. */
#ifndef UF_COMMON_NRT_KEEP_H
#define UF_COMMON_NRT_KEEP_H

#include <stdbool.h>
#include <stdint.h>

typedef struct uf__nrt_keep {
    char *const *p; /* the pointers searched one by one, or the sorted
                       ones left after uf__nrt_keep_settle */
    int64_t n;
    char **own;    /* malloc'd: the list items' pointers, then p */
    char **table;  /* the hash set (NULL: none), 2^bits slots */
    int bits;
    bool all;      /* out of memory: everything is kept */
} uf__nrt_keep;

typedef enum uf__nrt_verdict {
    UF__NRT_DROP,
    UF__NRT_KEEP,
    UF__NRT_MAYBE /* ask uf__nrt_keep_holds after uf__nrt_keep_settle */
} uf__nrt_verdict;

void uf__nrt_keep_init(uf__nrt_keep *K, char *const *keep, int64_t nkeep);
/* The first look at a block (its data and size): DROP and KEEP are
 * final; MAYBE only from the hash set, for a block no pointer starts. A
 * block may be asked once (a hit takes its pointer out of the set). */
uf__nrt_verdict uf__nrt_keep_first(uf__nrt_keep *K, const char *data,
                                   int64_t size);
/* After every block's first look: gathers the pointers no block started
 * and sorts them; false when there are none (every MAYBE is a DROP). */
bool uf__nrt_keep_settle(uf__nrt_keep *K);
/* For a MAYBE block, after uf__nrt_keep_settle. */
bool uf__nrt_keep_holds(const uf__nrt_keep *K, const char *data,
                        int64_t size);
void uf__nrt_keep_free(uf__nrt_keep *K);

#endif
