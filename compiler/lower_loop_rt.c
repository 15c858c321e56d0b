/* The run-time side of the JIT's ufunc loops (lower_loop.c): the generated
 * `loop` hands its descriptor and arguments to uf__rt_loop, which picks
 * the path from the strides it is given, so that only the contiguous loop
 * has to be compiled (and vectorised) per signature. */
#include <stdbool.h>
#include <string.h>

#include "compiler/jit.h"

/* Buffers of the buffered path: at most RT_MAXBUF operands need one (more
 * take the element-by-element path), each RT_BUFBYTES long: 32 KiB of
 * stack at most, fine for the threading layers' workers. A chunk fills
 * the buffers when only stride-0 inputs are buffered (filled once), and
 * RT_GATHER_BYTES of the widest buffered operand when elements are
 * gathered or scattered: short chunks measured faster there (a[::2] in
 * float64: 1.4x the time of a fused strided loop with 512-element chunks,
 * 1.2x with 128). */
#define RT_MAXBUF 8
#define RT_BUFBYTES 4096
#define RT_GATHER_BYTES 1024

/* [lo, hi): the bytes an operand of n >= 1 elements touches. */
static void span(const char *p, int64_t stride, int64_t n, int64_t isz,
                 uintptr_t *lo, uintptr_t *hi)
{
    int64_t ext = (n - 1) * stride;
    uintptr_t a = (uintptr_t)p;
    *lo = ext < 0 ? a - (uintptr_t)(-ext) : a;
    *hi = (ext > 0 ? a + (uintptr_t)ext : a) + (uintptr_t)isz;
}

/* No iteration reads or writes what another one writes: every output is
 * either the very same sequence of elements as another operand (element i
 * read before it is written, within iteration i) or disjoint from it. */
static bool independent(const uf__loop_desc *d, char *const *data,
                        const int64_t *strides, int64_t n)
{
    uintptr_t lo[UF__LOOP_DESC_MAXARGS], hi[UF__LOOP_DESC_MAXARGS];
    for (int64_t k = 0; k < d->nargs; k++)
        span(data[k], strides[k], n, d->itemsize[k], &lo[k], &hi[k]);
    for (int64_t k = d->nin; k < d->nargs; k++) {
        /* an output of stride 0 is written by every iteration */
        if (strides[k] == 0)
            for (int64_t j = 0; j < d->nargs; j++)
                if (j != k && lo[j] < hi[k] && lo[k] < hi[j])
                    return false;
        for (int64_t j = 0; j < d->nargs; j++) {
            if (j == k)
                continue;
            bool same = data[j] == data[k] && strides[j] == strides[k] &&
                        d->itemsize[j] == d->itemsize[k];
            bool apart = hi[k] <= lo[j] || hi[j] <= lo[k];
            if (!same && !apart)
                return false;
        }
    }
    return true;
}

/* dst[i] = src[i * stride] for i < n, elements of isz bytes; and back. */
static void gather(char *dst, const char *src, int64_t stride, int64_t n,
                   int64_t isz)
{
    switch (isz) {
#define CASE(sz)                                                           \
    case sz:                                                               \
        for (int64_t i = 0; i < n; i++)                                    \
            memcpy(dst + i * sz, src + i * stride, sz);                    \
        break;
        CASE(1) CASE(2) CASE(4) CASE(8) CASE(16)
#undef CASE
    default:
        for (int64_t i = 0; i < n; i++)
            memcpy(dst + i * isz, src + i * stride, (size_t)isz);
    }
}

/* Two inputs of the same itemsize (4 or 8) at once: one pass keeps both
 * streams in flight, as a fused strided loop would. */
static bool gather2(char *d0, const char *s0, int64_t st0, char *d1,
                    const char *s1, int64_t st1, int64_t n, int64_t isz)
{
    if (isz == 8) {
        for (int64_t i = 0; i < n; i++) {
            memcpy(d0 + i * 8, s0 + i * st0, 8);
            memcpy(d1 + i * 8, s1 + i * st1, 8);
        }
        return true;
    }
    if (isz == 4) {
        for (int64_t i = 0; i < n; i++) {
            memcpy(d0 + i * 4, s0 + i * st0, 4);
            memcpy(d1 + i * 4, s1 + i * st1, 4);
        }
        return true;
    }
    return false;
}

static void scatter(char *dst, int64_t stride, const char *src, int64_t n,
                    int64_t isz)
{
    switch (isz) {
#define CASE(sz)                                                           \
    case sz:                                                               \
        for (int64_t i = 0; i < n; i++)                                    \
            memcpy(dst + i * stride, src + i * sz, sz);                    \
        break;
        CASE(1) CASE(2) CASE(4) CASE(8) CASE(16)
#undef CASE
    default:
        for (int64_t i = 0; i < n; i++)
            memcpy(dst + i * stride, src + i * isz, (size_t)isz);
    }
}

/* In order, one element at a time: what a sequential loop would do. */
static int one_by_one(const uf__loop_desc *d, char *const *data,
                      const int64_t *strides, int64_t n)
{
    if (d->strided)
        return d->strided(n, (char **)data, strides);
    char *ptrs[UF__LOOP_DESC_MAXARGS];
    for (int64_t k = 0; k < d->nargs; k++)
        ptrs[k] = data[k];
    for (int64_t i = 0; i < n; i++) {
        int rc = d->contig(1, ptrs);
        if (rc != 0)
            return rc;
        for (int64_t k = 0; k < d->nargs; k++)
            ptrs[k] += strides[k];
    }
    return 0;
}

/* Chunks of contig over buffers: stride-0 inputs replicated once, other
 * non-contiguous inputs gathered, non-contiguous outputs scattered after
 * each chunk. Only for independent iterations (see `independent`). */
static int buffered(const uf__loop_desc *d, char *const *data,
                    const int64_t *strides, int64_t n)
{
    _Alignas(64) unsigned char buf[RT_MAXBUF][RT_BUFBYTES];
    signed char slot[UF__LOOP_DESC_MAXARGS];
    char *ptrs[UF__LOOP_DESC_MAXARGS];
    int nbuf = 0;
    int64_t widest = 1;
    for (int64_t k = 0; k < d->nargs; k++) {
        slot[k] = -1;
        if (strides[k] == d->itemsize[k])
            continue;
        if (nbuf == RT_MAXBUF || d->itemsize[k] > RT_BUFBYTES)
            return one_by_one(d, data, strides, n);
        slot[k] = (signed char)nbuf++;
        if (d->itemsize[k] > widest)
            widest = d->itemsize[k];
    }
    bool moving = false; /* some operand is gathered or scattered */
    int gathered[2], ng = 0;
    for (int64_t k = 0; k < d->nargs; k++)
        if (slot[k] >= 0 && (k >= d->nin || strides[k] != 0)) {
            moving = true;
            if (k < d->nin && ng < 2)
                gathered[ng++] = (int)k;
        }
    int64_t chunk = (moving ? RT_GATHER_BYTES : RT_BUFBYTES) / widest;
    for (int64_t k = 0; k < d->nin; k++)
        if (slot[k] >= 0 && strides[k] == 0)
            for (int64_t i = 0, m = n < chunk ? n : chunk; i < m; i++)
                memcpy(buf[slot[k]] + i * d->itemsize[k], data[k],
                       (size_t)d->itemsize[k]);
    for (int64_t off = 0; off < n; off += chunk) {
        int64_t len = n - off < chunk ? n - off : chunk;
        for (int64_t k = 0; k < d->nargs; k++) {
            if (slot[k] < 0) {
                ptrs[k] = data[k] + off * strides[k];
                continue;
            }
            ptrs[k] = (char *)buf[slot[k]];
        }
        int64_t a = ng == 2 ? gathered[0] : 0, b = ng == 2 ? gathered[1] : 0;
        bool paired = ng == 2 && d->itemsize[a] == d->itemsize[b] &&
                      gather2(ptrs[a], data[a] + off * strides[a], strides[a],
                              ptrs[b], data[b] + off * strides[b], strides[b],
                              len, d->itemsize[a]);
        for (int64_t k = 0; k < d->nin; k++)
            if (slot[k] >= 0 && strides[k] != 0 &&
                !(paired && (k == a || k == b)))
                gather(ptrs[k], data[k] + off * strides[k], strides[k], len,
                       d->itemsize[k]);
        int rc = d->contig(len, ptrs);
        if (rc != 0)
            return rc;
        for (int64_t k = d->nin; k < d->nargs; k++)
            if (slot[k] >= 0)
                scatter(data[k] + off * strides[k], strides[k], ptrs[k], len,
                        d->itemsize[k]);
    }
    return 0;
}

int uf__rt_loop(const uf__loop_desc *d, void *ctx, char *const *data,
                const int64_t *dims, const int64_t *strides)
{
    (void)ctx;
    int64_t n = dims[0];
    if (n <= 1)
        return n == 1 ? d->contig(1, (char **)data) : 0;
    if (!independent(d, data, strides, n))
        return one_by_one(d, data, strides, n);
    bool contiguous = true;
    for (int64_t k = 0; k < d->nargs && contiguous; k++)
        contiguous = strides[k] == d->itemsize[k];
    if (contiguous)
        return d->contig(n, (char **)data);
    /* a generated strided loop beats gathering for memory-bound kernels
     * (stride-0 inputs excepted: contig then runs vectorised on them) */
    if (d->strided) {
        bool broadcast = true;
        for (int64_t k = 0; k < d->nargs && broadcast; k++)
            broadcast = strides[k] == d->itemsize[k] ||
                        (k < d->nin && strides[k] == 0);
        if (!broadcast)
            return d->strided(n, (char **)data, strides);
    }
    return buffered(d, data, strides, n);
}

int uf__rt_ufunc_loop(void *ctx, char *const *data, const int64_t *dims,
                      const int64_t *strides, void *aux)
{
    return uf__rt_loop(aux, ctx, data, dims, strides);
}
