/* Lists of strings (Numba's list(unicode_type)): the operations that
 * compare items, called by compiler/lower/lower_list_ops.c,
 * lower_list.c and lower_contains.c. A list of strings is common/list.h's
 * list whose items are `const uf__ustr *` (8 bytes each); items compare
 * by code point as Python's str does (uf__ustr_cmp). */
#ifndef UF_COMMON_LIST_USTR_H
#define UF_COMMON_LIST_USTR_H

#include <stdint.h>

#include "common/ustr.h"

/* Sorts the items ascending (descending when reverse != 0), in place;
 * equal strings are indistinguishable, so any stable order is Python's. */
void uf__list_ustr_sort(void *list, int32_t reverse);
/* The first index >= start whose item equals s, or -1 (`s in l`,
 * l.index(s), l.remove(s)). */
int64_t uf__list_ustr_find(const void *list, const uf__ustr *s,
                           int64_t start);
/* How many items equal s (l.count(s)). */
int64_t uf__list_ustr_count(const void *list, const uf__ustr *s);
/* The least item (the greatest when want_max != 0), the first of equal
 * ones as Python's min/max; NULL when the list is empty. */
const uf__ustr *uf__list_ustr_minmax(const void *list, int32_t want_max);

#define UF__LIST_USTR_SORT "uf__list_ustr_sort"
#define UF__LIST_USTR_FIND "uf__list_ustr_find"
#define UF__LIST_USTR_COUNT "uf__list_ustr_count"
#define UF__LIST_USTR_MINMAX "uf__list_ustr_minmax"

#endif
