/* The partial arrays of array reductions in prange loops (`s += a[i, :]`
 * with s an array; lowered by compiler/lower/lower_prange_array.c, names
 * and signatures in common/loop.h). The caller makes one buffer of
 * nblocks partials filled with the operator's identity; each block
 * reduces into its own partial (a C- or F-ordered array of s's shape) and
 * stores it there when it rebound s (`s = s + e`); the caller then
 * combines the partials into s in block order, element by element, so
 * the result does not depend on the threads. */
#include <stdbool.h>
#include <string.h>

#include "common/alloc.h"
#include "common/loop.h"
#include "compiler/host/jit.h"
#include "njit/njit_prange.h"

void *uf__rt_prange_partials(int64_t nblocks, int64_t items, int32_t dtype,
                             int32_t one)
{
    size_t isz = uf_dtype_itemsize((uf_dtype)dtype), n, bytes;
    if (nblocks < 0 || items < 0 ||
        !uf__mul_size((size_t)nblocks, (size_t)items, &n) ||
        !uf__mul_size(n, isz, &bytes))
        return NULL;
    void *p = uf__malloc_aligned(bytes ? bytes : 1, NULL);
    if (!p || !one) {
        if (p)
            memset(p, 0, bytes);
        return p;
    }
    switch ((uf_dtype)dtype) {
#define FILL_ONE(e, name, kind, size, ctype)                                  \
    case UF_##e:                                                              \
        for (size_t k = 0; k < n; k++)                                        \
            ((ctype *)p)[k] = (ctype)1;                                       \
        break;
        UF_DTYPE_MAP(FILL_ONE)
#undef FILL_ONE
    default:
        break;
    }
    return p;
}

void uf__rt_prange_partials_free(void *p)
{
    uf__free(p);
}

/* BODY for every element of an nd array of shape, with dp_ and sp_ at
 * the element in dst and src (each walked with its own strides). */
#define ND_WALK(nd, shape, dstr, sstr, dst, src, BODY)                        \
    do {                                                                      \
        int64_t idx_[UF__PRANGE_MAX_NDIM] = {0};                              \
        bool more_ = true;                                                    \
        for (int d_ = 0; d_ < (nd); d_++)                                     \
            more_ = more_ && (shape)[d_] > 0;                                 \
        while (more_) {                                                       \
            char *dp_ = (dst);                                                \
            const char *sp_ = (src);                                          \
            for (int d_ = 0; d_ + 1 < (nd); d_++) {                           \
                dp_ += idx_[d_] * (dstr)[d_];                                 \
                sp_ += idx_[d_] * (sstr)[d_];                                 \
            }                                                                 \
            int64_t len_ = (nd) ? (shape)[(nd)-1] : 1;                        \
            int64_t ds_ = (nd) ? (dstr)[(nd)-1] : 0;                          \
            int64_t ss_ = (nd) ? (sstr)[(nd)-1] : 0;                          \
            for (int64_t j_ = 0; j_ < len_; j_++, dp_ += ds_, sp_ += ss_) {   \
                BODY                                                          \
            }                                                                 \
            int d_ = (nd)-2;                                                  \
            while (d_ >= 0 && ++idx_[d_] == (shape)[d_])                      \
                idx_[d_--] = 0;                                               \
            more_ = d_ >= 0;                                                  \
        }                                                                     \
    } while (0)

int32_t uf__rt_prange_store(int32_t dtype, int32_t nd, const int64_t *want,
                            const int64_t *dstr, char *dst,
                            const int64_t *shape, const int64_t *sstr,
                            const char *src)
{
    if (nd > UF__PRANGE_MAX_NDIM)
        return UF__JIT_SLICE_SHAPE;
    for (int d = 0; d < nd; d++)
        if (shape[d] != want[d])
            return UF__JIT_SLICE_SHAPE; /* s = s + e broadcast s */
    if (src == dst)
        return 0;
    size_t isz = uf_dtype_itemsize((uf_dtype)dtype);
    ND_WALK(nd, shape, dstr, sstr, dst, src, memcpy(dp_, sp_, isz););
    return 0;
}

/* acc = acc op p for one dtype; integers wrap (as NumPy), through
 * their unsigned type. */
#define COMBINE(E, ctype, utype)                                              \
    case UF_##E:                                                              \
        for (int64_t b = 0; b < nblocks; b++) {                               \
            const char *part = buf + b * block_bytes;                         \
            if (mul)                                                          \
                ND_WALK(nd, shape, strides, pstrides, data, part,             \
                        *(ctype *)dp_ = (ctype)((utype) * (ctype *)dp_ *      \
                                                (utype) *                     \
                                                    (const ctype *)sp_););    \
            else                                                              \
                ND_WALK(nd, shape, strides, pstrides, data, part,             \
                        *(ctype *)dp_ = (ctype)((utype) * (ctype *)dp_ +      \
                                                (utype) *                     \
                                                    (const ctype *)sp_););    \
        }                                                                     \
        break;

void uf__rt_prange_combine(int32_t mul, int32_t dtype, int32_t nd,
                           const int64_t *shape, const int64_t *strides,
                           char *data, const int64_t *pstrides,
                           const char *buf, int64_t nblocks,
                           int64_t block_bytes)
{
    if (nd > UF__PRANGE_MAX_NDIM)
        return;
    switch ((uf_dtype)dtype) {
        COMBINE(INT8, int8_t, uint32_t)
        COMBINE(UINT8, uint8_t, uint32_t)
        COMBINE(INT16, int16_t, uint32_t)
        COMBINE(UINT16, uint16_t, uint32_t)
        COMBINE(INT32, int32_t, uint32_t)
        COMBINE(UINT32, uint32_t, uint32_t)
        COMBINE(INT64, int64_t, uint64_t)
        COMBINE(UINT64, uint64_t, uint64_t)
        COMBINE(FLOAT32, float, float)
        COMBINE(FLOAT64, double, double)
        COMBINE(COMPLEX64, float _Complex, float _Complex)
        COMBINE(COMPLEX128, double _Complex, double _Complex)
    default: /* bool: refused by the compiler */
        break;
    }
}
