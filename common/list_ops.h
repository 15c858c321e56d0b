/* Runtime of the list operations beyond list.h (compiler/lower/
 * lower_list_ops.c): l.sort() and sorted(x), l * k and l *= k,
 * l[a:b:c] = m.
 *
 * Numba 0.68 sorts a list with its own quicksort (numba/misc/
 * quicksort.py: median of three, Hoare-style partition, insertion sort
 * below 16 items) comparing with plain `<` (`>` when reversed), so NaNs
 * land where that algorithm leaves them and -0.0/0.0 keep the order it
 * gives. The same scheme is written here so every list comes out as
 * Numba's does, NaNs included. */
#ifndef UF_COMMON_LIST_OPS_H
#define UF_COMMON_LIST_OPS_H

#include <stdint.h>

#include "common/nrt.h"

/* Sorts the items of list (list.h) of dtype dt (a real uf_dtype or bool)
 * ascending, or descending when reverse != 0, in place. */
void uf__list_sort(void *list, int32_t dt, int32_t reverse);

/* Sorts the items of list (itemsize bytes each) by keys, in place, with
 * Numba's quicksort as an argsort (its list sort with key=, and the
 * same order its value sort gives): keys is a list (list.h) of one key
 * per item, or NULL for the items themselves. desc describes a key: desc[0] its size
 * in bytes, desc[1] its number of fields n, then n pairs (byte offset,
 * uf_dtype) of real numbers or bools (or UF__LIST_FIELD_USTR); keys compare as Numba's tuples (the
 * first field where they are != decides with `<`, or `>` when reverse
 * != 0; a NaN there orders neither way). 0, or -1 when out of memory
 * (the list unchanged). */
int32_t uf__list_sort_by(void *list, void *keys, const int64_t *desc,
                         int32_t reverse, int64_t itemsize);
/* The "dtype" of a desc field that is a string's pointer (a tuple's
 * string: by code point, as Python's str `<`). */
#define UF__LIST_FIELD_USTR 1000

/* l * k: a new list in *frame of l's items repeated k times (none when
 * k <= 0); NULL when out of memory or past int64 (list.h's uf__list_new). */
void *uf__list_repeat(uf__nrt_meminfo **frame, void *list, int64_t k,
                      int64_t itemsize);
/* l *= k in place; 0, or -1 when out of memory or past int64 (the list
 * is unchanged). */
int32_t uf__list_irepeat(void *list, int64_t k, int64_t itemsize);

/* l[start:...:step] = src, the slice of n items already clipped to the
 * list (lower_slice_axis): with step 1 the list grows or shrinks to take
 * all of src's items (the tail moved), else src must have n items, which
 * overwrite start, start + step, ... (1: Numba's ValueError "cannot
 * resize extended list slice with step != 1", the list unchanged). src
 * has list's item type and may be list itself (its items are copied
 * first, as Python's list does). 0, or -1 when out of memory or past
 * int64 (the list unchanged). */
int32_t uf__list_setslice(void *list, int64_t start, int64_t n,
                          int64_t step, void *src, int64_t itemsize);

/* del l[start:...:step], the slice of n items already clipped to the
 * list (lower_slice_axis; step may be negative): the items left keep
 * their order, moved down. */
void uf__list_delslice(void *list, int64_t start, int64_t n, int64_t step,
                       int64_t itemsize);

#define UF__LIST_SORT "uf__list_sort"
#define UF__LIST_REPEAT "uf__list_repeat"
#define UF__LIST_IREPEAT "uf__list_irepeat"
#define UF__LIST_SETSLICE "uf__list_setslice"
#define UF__LIST_SORT_BY "uf__list_sort_by"
#define UF__LIST_DELSLICE "uf__list_delslice"

#endif
