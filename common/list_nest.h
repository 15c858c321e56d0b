/* Lists whose items are lists (Numba's list(list(T))) made into arrays:
 * np.array(l) of a list nested ndim - 1 times around numbers
 * (compiler/lower/lower_list_nest_array.c). Each item of an outer list
 * is the inner list's header pointer (common/list.h). */
#ifndef UF_COMMON_LIST_NEST_H
#define UF_COMMON_LIST_NEST_H

#include <stdint.h>

/* The shape np.array gives the list nested ndim - 1 times: at each
 * level the length of the first list there, as Numba reads it (l[0],
 * l[0][0] ...); 0, or -1 when a list above the last level is empty
 * (Numba's IndexError from that read). */
int32_t uf__list_nest_shape(const void *list, int32_t ndim, int64_t *shape);
/* The numbers of the list (itemsize bytes each) into dst in C order; 0,
 * or -1 when a list's length differs from shape (ragged: Numba's
 * "incompatible sequence shape"). */
int32_t uf__list_nest_fill(const void *list, int32_t ndim,
                           const int64_t *shape, int64_t itemsize,
                           char *dst);

#define UF__LIST_NEST_SHAPE "uf__list_nest_shape"
#define UF__LIST_NEST_FILL "uf__list_nest_fill"

#endif
