/* Helpers shared by the view tests (test_views*.c): integer elements read
 * and written by dtype, C-order multi-indices, and arrays holding 0, 1,
 * 2, ... Functions are static inline: each test uses a subset. */
#ifndef UF_TESTS_VIEWS_TEST_UTIL_H
#define UF_TESTS_VIEWS_TEST_UTIL_H

#include <inttypes.h>

#include "test_util.h"

#include "common/alloc.h"

static inline int64_t read_int(const char *p, uf_dtype dt)
{
    switch (dt) {
    case UF_INT8: return *(const int8_t *)p;
    case UF_INT16: { int16_t v; memcpy(&v, p, 2); return v; }
    case UF_INT32: { int32_t v; memcpy(&v, p, 4); return v; }
    case UF_INT64: { int64_t v; memcpy(&v, p, 8); return v; }
    case UF_FLOAT64: { double v; memcpy(&v, p, 8); return (int64_t)v; }
    default: return INT64_MIN;
    }
}

static inline void write_int(char *p, uf_dtype dt, int64_t x)
{
    switch (dt) {
    case UF_INT8: *(int8_t *)p = (int8_t)x; break;
    case UF_INT16: { int16_t v = (int16_t)x; memcpy(p, &v, 2); break; }
    case UF_INT32: { int32_t v = (int32_t)x; memcpy(p, &v, 4); break; }
    case UF_INT64: memcpy(p, &x, 8); break;
    case UF_FLOAT64: { double v = (double)x; memcpy(p, &v, 8); break; }
    default: break;
    }
}

/* Advances a C-order multi-index; false after the last one. */
static inline bool next_index(int nd, const int64_t *shape, int64_t *idx)
{
    for (int k = nd - 1; k >= 0; k--) {
        if (++idx[k] < shape[k])
            return true;
        idx[k] = 0;
    }
    return false;
}

static inline char *elem_ptr(const uf_array *a, const int64_t *idx)
{
    char *p = uf_array_data(a);
    for (int k = 0; k < uf_array_ndim(a); k++)
        p += idx[k] * uf_array_strides(a)[k];
    return p;
}

/* A new array of `shape` in `order` holding 0, 1, 2, ... in C order. */
static inline uf_array *arange_array(uf_dtype dt, int nd, const int64_t *shape,
                                     uf_order order, uf_error *err)
{
    uf_array *a = uf_empty(dt, nd, shape, order, err);
    if (a == NULL || uf_array_size(a) == 0)
        return a;
    int64_t idx[UF_MAXDIMS] = {0}, i = 0;
    do
        write_int(elem_ptr(a, idx), dt, i++);
    while (next_index(nd, shape, idx));
    return a;
}

#endif
