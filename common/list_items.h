/* Lists whose items are arrays (Numba's list(array(...)), compiler/lower/
 * lower_list_items.c), as the frames of common/nrt.h see them.
 *
 * Such a list holds each item as the array's value ({data, shape,
 * strides}: 8 + 16 * ndim bytes, the data pointer first) and owns no
 * reference of its own: the blocks its items point into stay in the frame
 * that made them, as every array's do. So that a sweep or a frame's return
 * keeps them while the list is reachable, the generated code hands the
 * list to uf__nrt_sweep / uf__nrt_frame_return as two pointers: the mark
 * UF__LIST_ROOT_MARK(ndim) (the top of the address space, which no block
 * holds), then its header (items of more than UF__LIST_ITEM_MAXDIM
 * dimensions are refused when typed). nrt.c then keeps the header's block
 * and every block an item points into.
 *
 * Dicts whose keys or values are strings (common/dict.h) are handed over
 * the same way, marked UF__DICT_ROOT_MARK(what): bit 0 of `what` says the
 * keys are strings, bit 1 the values; nrt.c then keeps the blocks of the
 * strings of every live entry. A set of strings (common/set.h) is marked
 * UF__DICT_ROOT_MARK(UF__SET_ROOT_KEYS): the strings of its live slots. */
#ifndef UF_COMMON_LIST_ITEMS_H
#define UF_COMMON_LIST_ITEMS_H

#include <stdint.h>

#define UF__LIST_ITEM_MAXDIM 32
#define UF__LIST_ROOT_MARK(ndim) (UINTPTR_MAX - (uintptr_t)(ndim))
#define UF__DICT_ROOT_KEYS 1
#define UF__DICT_ROOT_VALUES 2
#define UF__SET_ROOT_KEYS 5 /* past UF__LIST_DESC_MARK's 4 */
#define UF__DICT_ROOT_MARK(what)                                            \
    (UINTPTR_MAX - (uintptr_t)(UF__LIST_ITEM_MAXDIM + (what)))

/* Lists whose items are lists (any depth) or tuples holding strings are
 * handed over as three pointers: UF__LIST_DESC_MARK, a constant int64_t
 * descriptor of the items (made by compiler/lower/lower_list_nest.c),
 * then the header. A descriptor is
 *     {itemsize, UF__LIST_DESC_LIST, <the inner list's descriptor>}
 * for items that are lists (each item the inner header's pointer), or
 *     {itemsize, UF__LIST_DESC_PTRS, n, off[0], ..., off[n-1]}
 * for items holding n pointers into blocks (a string field of a tuple,
 * an array's data) at those byte offsets (n may be 0: numbers). nrt.c
 * then keeps every inner header and every block an item points into. */
#define UF__LIST_NEST_MAX 32 /* lists of lists nest at most this deep */
#define UF__LIST_DESC_MARK (UINTPTR_MAX - (uintptr_t)(UF__LIST_ITEM_MAXDIM + 4))
#define UF__LIST_DESC_LIST 1
#define UF__LIST_DESC_PTRS 0
/* Dicts whose values are lists or dicts, and lists whose items are dicts
 * (Numba's DictType[K, ListType[T]], ListType[DictType[K, V]]), are
 * described the same way. Items that are dicts are
 *     {itemsize, UF__LIST_DESC_DICT, <the inner dict's descriptor>}
 * and a dict's descriptor (the third pointer may be a dict's header) is
 *     {UF__DICT_DESC_HEAD, keys, what, ...}
 * keys 1 when its keys are strings, then what its values are, as a
 * list's items: UF__LIST_DESC_LIST or UF__LIST_DESC_DICT followed by the
 * inner container's descriptor, or UF__LIST_DESC_PTRS, n, off[0..n) with
 * the offsets within the value. */
#define UF__LIST_DESC_DICT 2
#define UF__DICT_DESC_HEAD (-1)

/* The bytes of one array item of ndim dimensions. */
static inline int64_t uf__list_item_bytes(int ndim)
{
    return 8 + 16 * (int64_t)ndim;
}

/* How many pointers uf__list_roots_expand writes for keep[0..nkeep):
 * nkeep plus the items of each marked list (the strings of each marked
 * dict, the inner headers and items of a described list), or -1 when
 * none is marked
 * (keep[] can then be used as it is). */
int64_t uf__list_roots_count(char *const *keep, int64_t nkeep);
/* Writes keep[] into out[], each marked list's header followed by the
 * data pointer of each of its items; returns how many. */
int64_t uf__list_roots_expand(char *const *keep, int64_t nkeep, char **out);

#endif
