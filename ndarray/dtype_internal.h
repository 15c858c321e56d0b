/* Dtype helpers shared inside the library (ndarray/casting.c, the
 * compiler's constant folder), below the public <ufjit/dtype.h>. */
#ifndef UF_NDARRAY_DTYPE_INTERNAL_H
#define UF_NDARRAY_DTYPE_INTERNAL_H

#include <ufjit/dtype.h>

/* Kinds in the order same_kind casting may go: bool to anything, unsigned
 * to signed (of any size), integers to floats, floats to complex. */
static inline int uf__kind_rank(uf_dtype t)
{
    switch (uf_dtype_kind(t)) {
    case 'b': return 0;
    case 'u': return 1;
    case 'i': return 2;
    case 'f': return 3;
    default: return 4; /* 'c' */
    }
}

/* Kinds as NEP 50 orders them when a Python scalar meets a dtype: bool <
 * integer (signed or not) < float < complex. */
static inline int uf__kind_class(uf_dtype t)
{
    int r = uf__kind_rank(t);
    return r >= 2 ? r - 1 : r; /* signed integers join unsigned ones */
}

#endif
