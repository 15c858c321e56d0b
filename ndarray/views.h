/* Helpers shared by the view files (views.c, view_axes.c, reshape.c). */
#ifndef UF_NDARRAY_VIEWS_H
#define UF_NDARRAY_VIEWS_H

#include <stddef.h>
#include <stdint.h>

/* Formats a shape the way NumPy's error messages do: "(2,3)", "(4,)", "()",
 * no spaces; a negative entry prints as "newaxis" except that leading
 * negative entries are left out ("(4,newaxis)" for (4, -1), "(4)" for
 * (-1, 4)). Returns buf. */
const char *uf__np_shape_str(int n, const int64_t *vals, char *buf,
                             size_t size);

#endif
