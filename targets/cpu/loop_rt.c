/* The run-time side of the JIT's ufunc loops (compiler/lower/lower_loop.c): the
 * generated `loop` hands its descriptor and arguments to uf__rt_loop,
 * which picks the path from the strides it is given, so that only the
 * contiguous loop has to be compiled (and vectorised) per signature.
 * Vectorize loops come with a strided slot (strided_slot.h,
 * uf__rt_slot_loop): the first strip with strided operands compiles a
 * fused strided loop (compiler/host/jit_strided.h), which later ones take
 * instead of the buffers (see want_fused), and a streaming loop
 * (compiler/host/jit_nontemporal.h): calls writing more than the caches hold
 * compile a contig with non-temporal stores, which their aligned strips
 * run. */
#include <stdbool.h>
#include <string.h>

#include "targets/cpu/cpu.h"
#include "targets/cpu/strided_slot.h"
#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* Buffers of the buffered path: at most RT_MAXBUF operands need one (more
 * take the element-by-element path), each RT_BUFBYTES long and 64-byte
 * aligned (AVX-512 loads in contig never split a line): 8 KiB of stack at
 * most, fine for the threading layers' workers. Unit-stride operands are
 * used in place; stride-0 inputs are replicated once per call into a
 * buffer every chunk reuses. A chunk is RT_BUFBYTES of the widest
 * buffered operand: measured (bench/bench_strided.c, a[::2] + b[::2] in
 * float64/float32, hypot, a[::-1] * 2) over 512..4096 bytes, 512 and 1024
 * alike, 2048 and 4096 1.05-1.15x slower: the gathered lines are still in
 * L1 when contig reads them, and the output's lines when they are
 * scattered. With only stride-0 inputs buffered, 1024 bytes beat 4096 too
 * ((1000,1)+(1,10000) float32, one thread: best of 200 calls 1.08-1.09 ms
 * against 1.11-1.15): a smaller fill per strip. */
#define RT_MAXBUF 8
#define RT_BUFBYTES 1024

/* `fn` over any n >= 1: the descriptor's contig or its streaming variant
 * (compiler/host/jit_nontemporal.h), a blocked one through uf__rt_blocked. A streaming
 * loop takes the whole blocks only: the padded rest goes through a block
 * on the stack, which contig's stores keep in cache. */
static int run_contig_fn(const uf__loop_desc *d, uf__loop_contig_fn fn,
                         int64_t n, char **ptrs)
{
    if (d->block <= 0)
        return fn(n, ptrs);
    int64_t whole = fn == d->contig ? 0 : n - n % d->block;
    if (whole > 0) {
        int rc = fn(whole, ptrs);
        if (rc != 0 || whole == n)
            return rc;
    }
    char *rest[UF__LOOP_MAXARGS];
    for (int64_t k = 0; k < d->nargs; k++)
        rest[k] = ptrs[k] + whole * d->itemsize[k];
    return uf__rt_blocked(d->contig, n - whole, rest, d->block, d->nin,
                          d->nargs, d->itemsize);
}

/* contig over any n >= 1 (a blocked one through uf__rt_blocked). */
static int run_contig(const uf__loop_desc *d, int64_t n, char **ptrs)
{
    return run_contig_fn(d, d->contig, n, ptrs);
}

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
    uintptr_t lo[UF__LOOP_MAXARGS], hi[UF__LOOP_MAXARGS];
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

/* Element copies of sz bytes as integers (bit patterns, NaN payloads and
 * all), through memcpy: operands need not be aligned. */
typedef struct rt_b16 {
    uint64_t lo, hi;
} rt_b16;
#define RT_T1 uint8_t
#define RT_T2 uint16_t
#define RT_T4 uint32_t
#define RT_T8 uint64_t
#define RT_T16 rt_b16

/* gather: dst[i] = src[i * stride], i < n. The stride is a variable of the
 * loop; stride 2 * sz (x[::2], the common case) and -sz (x[::-1]) get
 * loops of their own with constant offsets, which GCC unrolls and, at -O3
 * or with AVX, vectorises with shuffles. scatter: the same backwards. */
/* The start of a gather of 4- or 8-byte elements at stride 2 * sz (x[::2])
 * or -sz (x[::-1]) with SSE2 shuffles, which GCC's -O2 does not vectorise:
 * four floats from two loads and one store (a quarter of the stores of a
 * scalar copy), two doubles per store. Returns how many elements were
 * done; the caller finishes the tail. Bits move unchanged (shuffles). */
static int64_t rt_gather_vec(char *restrict dst, const char *restrict src,
                             int64_t stride, int64_t n, int64_t sz)
{
    int64_t i = 0;
#ifdef __SSE2__
    if (sz == 4 && stride == 8) {
        for (; i + 4 < n; i += 4) { /* the last load ends in bounds */
            __m128 a = _mm_loadu_ps((const float *)(src + 8 * i));
            __m128 b = _mm_loadu_ps((const float *)(src + 8 * i + 16));
            _mm_storeu_ps((float *)(dst + 4 * i),
                          _mm_shuffle_ps(a, b, _MM_SHUFFLE(2, 0, 2, 0)));
        }
    } else if (sz == 8 && stride == 16) {
        for (; i + 2 < n; i += 2) {
            __m128d a = _mm_loadu_pd((const double *)(src + 16 * i));
            __m128d b = _mm_loadu_pd((const double *)(src + 16 * i + 16));
            _mm_storeu_pd((double *)(dst + 8 * i), _mm_unpacklo_pd(a, b));
        }
    } else if (sz == 4 && stride == -4) {
        for (; i + 4 <= n; i += 4) { /* elements i+3 .. i */
            __m128i a = _mm_loadu_si128((const __m128i *)(src - 4 * i - 12));
            _mm_storeu_si128((__m128i *)(dst + 4 * i),
                             _mm_shuffle_epi32(a, _MM_SHUFFLE(0, 1, 2, 3)));
        }
    } else if (sz == 8 && stride == -8) {
        for (; i + 2 <= n; i += 2) {
            __m128i a = _mm_loadu_si128((const __m128i *)(src - 8 * i - 8));
            _mm_storeu_si128((__m128i *)(dst + 8 * i),
                             _mm_shuffle_epi32(a, _MM_SHUFFLE(1, 0, 3, 2)));
        }
    }
#else
    (void)dst, (void)src, (void)stride, (void)n, (void)sz;
#endif
    return i;
}

#define RT_COPIES(sz)                                                      \
    static void gather##sz(char *restrict dst, const char *restrict src,   \
                           int64_t stride, int64_t n)                      \
    {                                                                      \
        RT_T##sz v;                                                        \
        int64_t i = rt_gather_vec(dst, src, stride, n, sz);                \
        if (stride == 2 * sz) {                                            \
            for (; i < n; i++) {                                           \
                memcpy(&v, src + 2 * sz * i, sz);                          \
                memcpy(dst + sz * i, &v, sz);                              \
            }                                                              \
        } else if (stride == -sz) {                                        \
            for (; i < n; i++) {                                           \
                memcpy(&v, src - sz * i, sz);                              \
                memcpy(dst + sz * i, &v, sz);                              \
            }                                                              \
        } else {                                                           \
            for (; i < n; i++) {                                           \
                memcpy(&v, src + stride * i, sz);                          \
                memcpy(dst + sz * i, &v, sz);                              \
            }                                                              \
        }                                                                  \
    }                                                                      \
    static void scatter##sz(char *restrict dst, int64_t stride,            \
                            const char *restrict src, int64_t n)           \
    {                                                                      \
        RT_T##sz v;                                                        \
        if (stride == 2 * sz) {                                            \
            for (int64_t i = 0; i < n; i++) {                              \
                memcpy(&v, src + sz * i, sz);                              \
                memcpy(dst + 2 * sz * i, &v, sz);                          \
            }                                                              \
        } else if (stride == -sz) {                                        \
            for (int64_t i = 0; i < n; i++) {                              \
                memcpy(&v, src + sz * i, sz);                              \
                memcpy(dst - sz * i, &v, sz);                              \
            }                                                              \
        } else {                                                           \
            for (int64_t i = 0; i < n; i++) {                              \
                memcpy(&v, src + sz * i, sz);                              \
                memcpy(dst + stride * i, &v, sz);                          \
            }                                                              \
        }                                                                  \
    }                                                                      \
    /* two inputs at once: both streams stay in flight, as in a fused     \
     * strided loop (one after the other measured slower, a[::2] + b[::2] \
     * in float32 up to 1.5x) */                                           \
    static void gather2x##sz(char *restrict d0, const char *restrict s0,   \
                             int64_t st0, char *restrict d1,               \
                             const char *restrict s1, int64_t st1,         \
                             int64_t n)                                    \
    {                                                                      \
        RT_T##sz v, w;                                                     \
        for (int64_t i = 0; i < n; i++) {                                  \
            memcpy(&v, s0 + st0 * i, sz);                                  \
            memcpy(&w, s1 + st1 * i, sz);                                  \
            memcpy(d0 + sz * i, &v, sz);                                   \
            memcpy(d1 + sz * i, &w, sz);                                   \
        }                                                                  \
    }
RT_COPIES(1)
RT_COPIES(2)
RT_COPIES(4)
RT_COPIES(8)
RT_COPIES(16)
#undef RT_COPIES

static void gather(char *dst, const char *src, int64_t stride, int64_t n,
                   int64_t isz)
{
    switch (isz) {
    case 1: gather1(dst, src, stride, n); return;
    case 2: gather2(dst, src, stride, n); return;
    case 4: gather4(dst, src, stride, n); return;
    case 8: gather8(dst, src, stride, n); return;
    case 16: gather16(dst, src, stride, n); return;
    }
    for (int64_t i = 0; i < n; i++)
        memcpy(dst + i * isz, src + i * stride, (size_t)isz);
}

/* gather of two inputs of the same itemsize; false: not specialised */
static bool gather_pair(char *d0, const char *s0, int64_t st0, char *d1,
                        const char *s1, int64_t st1, int64_t n, int64_t isz)
{
    /* floats: both with rt_gather_vec's shuffles, alternating blocks of
     * 64 (a[::2] + b[::2] in float32: 1.27x -> 1.08x the time of a fused
     * strided loop; no gain measured for doubles, copied in one pass) */
    if (isz == 4 && (st0 == 8 || st0 == -4) && (st1 == 8 || st1 == -4)) {
        for (int64_t i = 0; i < n; i += 64) {
            int64_t m = n - i < 64 ? n - i : 64;
            gather(d0 + i * isz, s0 + i * st0, st0, m, isz);
            gather(d1 + i * isz, s1 + i * st1, st1, m, isz);
        }
        return true;
    }
    switch (isz) {
    case 1: gather2x1(d0, s0, st0, d1, s1, st1, n); return true;
    case 2: gather2x2(d0, s0, st0, d1, s1, st1, n); return true;
    case 4: gather2x4(d0, s0, st0, d1, s1, st1, n); return true;
    case 8: gather2x8(d0, s0, st0, d1, s1, st1, n); return true;
    case 16: gather2x16(d0, s0, st0, d1, s1, st1, n); return true;
    }
    return false;
}

static void scatter(char *dst, int64_t stride, const char *src, int64_t n,
                    int64_t isz)
{
    switch (isz) {
    case 1: scatter1(dst, stride, src, n); return;
    case 2: scatter2(dst, stride, src, n); return;
    case 4: scatter4(dst, stride, src, n); return;
    case 8: scatter8(dst, stride, src, n); return;
    case 16: scatter16(dst, stride, src, n); return;
    }
    for (int64_t i = 0; i < n; i++)
        memcpy(dst + i * stride, src + i * isz, (size_t)isz);
}

/* The same value n times: a stride-0 input's buffer. One 16-byte
 * pattern made in a register and stored whole: an element loop (GCC -O2
 * keeps it scalar) was 40% of the time of (1000,1)+(1,10000) in float32,
 * and a pattern assembled in memory then loaded back stalls: the load
 * cannot be forwarded from the narrower stores, so it waits for the store
 * buffer, full of the previous chunk's non-temporal stores, to drain. */
static void fill(char *dst, const char *src, int64_t n, int64_t isz)
{
    int64_t bytes = n * isz, i = 0;
#ifdef __SSE2__
    __m128i pat;
    uint64_t v8 = 0;
    if (isz <= 8)
        memcpy(&v8, src, (size_t)isz);
    switch (isz) {
    case 1: pat = _mm_set1_epi8((char)v8); break;
    case 2: pat = _mm_set1_epi16((short)v8); break;
    case 4: pat = _mm_set1_epi32((int)v8); break;
    case 8: pat = _mm_set1_epi64x((long long)v8); break;
    case 16: pat = _mm_loadu_si128((const __m128i *)(const void *)src); break;
    default: bytes = 0; break;
    }
    for (; i + 16 <= bytes; i += 16)
        _mm_storeu_si128((__m128i *)(void *)(dst + i), pat);
    bytes = n * isz;
#endif
    for (; i < bytes; i += isz)
        memcpy(dst + i, src, (size_t)isz);
}

/* In order, one element at a time: what a sequential loop would do (a
 * generated strided loop, the slot's included, runs in order too). */
static int one_by_one(const uf__loop_desc *d, uf__strided_slot *slot,
                      char *const *data, const int64_t *strides, int64_t n)
{
    if (d->strided)
        return d->strided(n, (char **)data, strides);
    uf__loop_strided_fn fn = slot ? uf__strided_slot_get(slot) : NULL;
    if (fn)
        return fn(n, (char **)data, strides);
    char *ptrs[UF__LOOP_MAXARGS];
    for (int64_t k = 0; k < d->nargs; k++)
        ptrs[k] = data[k];
    for (int64_t i = 0; i < n; i++) {
        int rc = run_contig(d, 1, ptrs);
        if (rc != 0)
            return rc;
        for (int64_t k = 0; k < d->nargs; k++)
            ptrs[k] += strides[k];
    }
    return 0;
}

/* memcpy with non-temporal stores (whole 16-byte blocks of dst; the
 * bytes before and after them stored normally): the destination's lines
 * are not read first. Callers end with stream_end. */
static void stream_out(char *dst, const char *src, int64_t bytes)
{
#ifdef __SSE2__
    int64_t i = (int64_t)((16 - ((uintptr_t)dst & 15)) & 15);
    if (i > bytes)
        i = bytes;
    memcpy(dst, src, (size_t)i);
    for (; i + 16 <= bytes; i += 16)
        _mm_stream_si128((__m128i *)(void *)(dst + i),
                         _mm_loadu_si128((const __m128i *)(const void *)
                                             (src + i)));
    memcpy(dst + i, src + i, (size_t)(bytes - i));
#else
    memcpy(dst, src, (size_t)bytes);
#endif
}

/* Non-temporal stores are weakly ordered: fenced before anyone (another
 * thread, after the parallel join) may read them. */
static void stream_end(void)
{
#ifdef __SSE2__
    _mm_sfence();
#endif
}

/* Chunks of `fn` (contig or the streaming loop) over buffers: unit-stride
 * operands in place, stride-0 inputs replicated once per call, other
 * inputs gathered before each chunk and other outputs scattered after it.
 * Only for independent iterations (see `independent`). With `stream` (a
 * large output, uf__loop_ctx, and no streaming loop compiled), unit-stride
 * outputs are buffered too and copied out with non-temporal stores: on
 * (1000,1)+(1,10000) float64 a C loop took 12.0 -> 5.9 ms on one thread,
 * the write-allocate reads gone (the streaming loop does better still:
 * its stores overlap the loads). */
static int buffered(const uf__loop_desc *d, uf__loop_contig_fn fn,
                    char *const *data, const int64_t *strides, int64_t n,
                    bool stream)
{
    _Alignas(64) unsigned char buf[RT_MAXBUF][RT_BUFBYTES];
    char *ptrs[UF__LOOP_MAXARGS];
    int unit[UF__LOOP_MAXARGS], gath[RT_MAXBUF], scat[RT_MAXBUF];
    int strm[RT_MAXBUF];
    int nunit = 0, ngath = 0, nscat = 0, nbuf = 0, nstrm = 0;
    int64_t widest = 1;
    for (int k = 0; k < d->nargs; k++) {
        /* a streamed output takes a buffer only when the operands after
         * it still have theirs */
        if (strides[k] == d->itemsize[k] &&
            !(stream && k >= d->nin && d->itemsize[k] <= RT_BUFBYTES &&
              nbuf + (d->nargs - k) <= RT_MAXBUF)) {
            unit[nunit++] = k;
            continue;
        }
        if (nbuf == RT_MAXBUF || d->itemsize[k] > RT_BUFBYTES)
            return one_by_one(d, NULL, data, strides, n);
        ptrs[k] = (char *)buf[nbuf++];
        if (d->itemsize[k] > widest)
            widest = d->itemsize[k];
        if (k >= d->nin && strides[k] == d->itemsize[k])
            strm[nstrm++] = k;
        else if (k >= d->nin)
            scat[nscat++] = k;
        else if (strides[k] != 0)
            gath[ngath++] = k;
    }
    int64_t chunk = RT_BUFBYTES / widest;
    if (chunk < 1)
        chunk = 1;
    for (int k = 0; k < d->nin; k++)
        if (strides[k] == 0)
            fill(ptrs[k], data[k], n < chunk ? n : chunk, d->itemsize[k]);
    for (int64_t off = 0; off < n; off += chunk) {
        int64_t len = n - off < chunk ? n - off : chunk;
        for (int u = 0; u < nunit; u++)
            ptrs[unit[u]] = data[unit[u]] + off * strides[unit[u]];
        for (int g = 0; g < ngath; g++) {
            int k = gath[g], j = g + 1 < ngath ? gath[g + 1] : -1;
            if (j >= 0 && d->itemsize[j] == d->itemsize[k] &&
                gather_pair(ptrs[k], data[k] + off * strides[k], strides[k],
                            ptrs[j], data[j] + off * strides[j], strides[j],
                            len, d->itemsize[k])) {
                g++;
                continue;
            }
            gather(ptrs[k], data[k] + off * strides[k], strides[k], len,
                   d->itemsize[k]);
        }
        int rc = run_contig_fn(d, fn, len, ptrs);
        if (rc != 0) {
            if (nstrm)
                stream_end();
            return rc;
        }
        for (int s = 0; s < nscat; s++) {
            int k = scat[s];
            scatter(data[k] + off * strides[k], strides[k], ptrs[k], len,
                    d->itemsize[k]);
        }
        for (int s = 0; s < nstrm; s++) {
            int k = strm[s];
            stream_out(data[k] + off * strides[k], ptrs[k],
                       len * d->itemsize[k]);
        }
    }
    if (nstrm)
        stream_end();
    return 0;
}

/* Whether a strip of independent iterations takes the slot's fused
 * strided loop: when some operand is strided (neither unit nor 0 stride),
 * negative strides included. Measured against the buffered path (bench/
 * bench_strided.c, one thread, C fused loop = 1): a[::2] + b[::2] float64
 * 1.18-1.21 -> 0.94-1.00, float32 1.16-1.20 -> 1.00-1.08, a[::-1] * 2
 * 1.21-1.26 -> 1.06-1.14. Kernels doing more per element (hypot) keep
 * the buffered path: their slots never get a loop (compiler/host/jit_strided.c).
 * Broadcasting alone (unit and 0 strides) stays buffered: contig then
 * runs vectorised. */
static bool want_fused(const uf__loop_desc *d, const int64_t *strides)
{
    for (int64_t k = 0; k < d->nargs; k++)
        if (strides[k] != d->itemsize[k] && strides[k] != 0)
            return true;
    return false;
}

/* A strip of independent iterations with `fn` as its contiguous loop
 * (d->contig, or the streaming loop when every output is in place and
 * aligned), the fused strided loop of `slot` (may be NULL) or buffers.
 * `stream`: buffered outputs go out with non-temporal stores. */
static int run_strip(const uf__loop_desc *d, uf__strided_slot *slot,
                     uf__loop_contig_fn fn, bool stream, char *const *data,
                     const int64_t *strides, int64_t n)
{
    bool contiguous = true;
    for (int64_t k = 0; k < d->nargs && contiguous; k++)
        contiguous = strides[k] == d->itemsize[k];
    if (contiguous)
        return run_contig_fn(d, fn, n, (char **)data);
    /* a generated strided loop beats gathering for memory-bound kernels
     * (stride-0 inputs excepted: contig then runs vectorised on them) */
    if (d->strided) {
        bool broadcast = true;
        for (int64_t k = 0; k < d->nargs && broadcast; k++)
            broadcast = strides[k] == d->itemsize[k] ||
                        (k < d->nin && strides[k] == 0);
        if (!broadcast)
            return d->strided(n, (char **)data, strides);
    } else if (slot && want_fused(d, strides)) {
        uf__loop_strided_fn sfn = uf__strided_slot_get(slot);
        if (sfn)
            return sfn(n, (char **)data, strides);
    }
    return buffered(d, fn, data, strides, n, stream && fn == d->contig);
}

/* Strips shorter than this never stream: the streaming loop's vector
 * stores start after the head that aligns the outputs. */
#define RT_STREAM_MIN 256

/* How many elements of the strip come before every output is
 * UF__NT_ALIGN-aligned: -1 when that never happens (an output not of unit
 * stride, or outputs out of phase with each other). */
static int64_t stream_head(const uf__loop_desc *d, char *const *data,
                           const int64_t *strides)
{
    int64_t head = -1;
    for (int64_t k = d->nin; k < d->nargs; k++) {
        int64_t isz = d->itemsize[k];
        uintptr_t mis = (uintptr_t)data[k] % UF__NT_ALIGN;
        if (strides[k] != isz || mis % (uintptr_t)isz != 0)
            return -1;
        if (head < 0)
            head = (int64_t)((UF__NT_ALIGN - mis) % UF__NT_ALIGN) / isz;
        else if (((uintptr_t)data[k] + (uintptr_t)(head * isz)) %
                     UF__NT_ALIGN != 0)
            return -1;
    }
    return head;
}

/* Strided inputs a streaming loop of their own takes (compiler/host/jit_nontemporal.h:
 * forced to vectorise, their loads become shuffles): every input stride a
 * multiple of its itemsize, at most RT_STREAM_MAXMULT elements apart, one
 * neither 0 nor 1 element (else the unit-stride streaming loop serves,
 * through buffers for stride-0 inputs). *mult: the element strides. */
#define RT_STREAM_MAXMULT 4
static bool stream_mults(const uf__loop_desc *d, const int64_t *strides,
                         int64_t *mult)
{
    bool strided = false;
    for (int64_t k = 0; k < d->nargs; k++) {
        int64_t isz = d->itemsize[k], m = strides[k] / isz;
        if (strides[k] % isz != 0 || m > RT_STREAM_MAXMULT ||
            m < -RT_STREAM_MAXMULT)
            return false;
        mult[k] = m;
        strided = strided || (m != 0 && m != 1);
    }
    return strided;
}

/* A strip through the streaming loop `nt` (for element strides when
 * `direct`, else run as contig is): its head as without streaming, the
 * rest streamed; fenced (stream_end) before it returns. */
static int streamed(const uf__loop_desc *d, uf__strided_slot *slot,
                    uf__loop_contig_fn nt, bool direct, char *const *data,
                    const int64_t *strides, int64_t n, int64_t head)
{
    int rc = head > 0 ? run_strip(d, slot, d->contig, false, data, strides,
                                  head)
                      : 0;
    if (rc == 0) {
        char *rest[UF__LOOP_MAXARGS];
        for (int64_t k = 0; k < d->nargs; k++)
            rest[k] = data[k] + head * strides[k];
        rc = direct ? nt(n - head, rest)
                    : run_strip(d, slot, nt, false, rest, strides, n - head);
    }
    stream_end();
    return rc;
}

/* uf__rt_loop with the fused strided and streaming loops of `slot` (may
 * be NULL); ctx is the caller's uf__loop_ctx or NULL. */
static int rt_loop(const uf__loop_desc *d, uf__strided_slot *slot,
                   const void *ctx, char *const *data, const int64_t *dims,
                   const int64_t *strides)
{
    int64_t n = dims[0];
    if (n <= 1)
        return n == 1 ? run_contig(d, 1, (char **)data) : 0;
    const uf__loop_ctx *lc = ctx;
    if (!(lc != NULL && lc->independent) &&
        !independent(d, data, strides, n))
        return one_by_one(d, slot, data, strides, n);
    bool stream = lc != NULL && lc->stream;
    if (stream && slot && n >= RT_STREAM_MIN) {
        int64_t head = stream_head(d, data, strides);
        int64_t mult[UF__LOOP_MAXARGS];
        bool direct = head >= 0 && stream_mults(d, strides, mult);
        uf__loop_contig_fn nt =
            head < 0 || head >= n ? NULL
            : direct              ? uf__strided_slot_stream_strided(slot, mult)
                                  : uf__strided_slot_stream(slot);
        if (nt)
            return streamed(d, slot, nt, direct, data, strides, n, head);
    }
    return run_strip(d, slot, d->contig, stream, data, strides, n);
}

int uf__rt_loop(const uf__loop_desc *d, void *ctx, char *const *data,
                const int64_t *dims, const int64_t *strides)
{
    return rt_loop(d, NULL, ctx, data, dims, strides);
}

int uf__rt_ufunc_loop(void *ctx, char *const *data, const int64_t *dims,
                      const int64_t *strides, void *aux)
{
    return rt_loop(aux, NULL, ctx, data, dims, strides);
}

int uf__rt_slot_loop(void *ctx, char *const *data, const int64_t *dims,
                     const int64_t *strides, void *aux)
{
    uf__strided_slot *slot = aux;
    return rt_loop(slot->desc, slot, ctx, data, dims, strides);
}
