/* uf_cuda_random_states (include/ufjit/cuda_random.h): numba-cuda's
 * init_xoroshiro128p_states_cpu on the host, then one copy to the device.
 * The generator's steps are the ones compiler/lower/lower_cuda_random.c
 * emits for kernels; SplitMix64 and the jump polynomial are xoroshiro's
 * reference (xoroshiro.di.unimi.it), as numba-cuda uses them. */
#include <stdint.h>

#include <ufjit/array.h>
#include <ufjit/cuda_random.h>

#include "common/error_internal.h"

typedef struct xoro {
    uint64_t s0, s1;
} xoro;

static uint64_t rotl(uint64_t x, unsigned k)
{
    return (x << k) | (x >> (64 - k));
}

static void next(xoro *s)
{
    uint64_t s1 = s->s1 ^ s->s0;
    s->s0 = rotl(s->s0, 55) ^ s1 ^ (s1 << 14);
    s->s1 = rotl(s1, 36);
}

/* 2**64 draws ahead */
static void jump(xoro *s)
{
    static const uint64_t poly[2] = {0xBEAC0467EBA5FACBu,
                                     0xD86B048B86AA9922u};
    xoro j = {0, 0};
    for (int i = 0; i < 2; i++)
        for (int b = 0; b < 64; b++) {
            if (poly[i] & (UINT64_C(1) << b)) {
                j.s0 ^= s->s0;
                j.s1 ^= s->s1;
            }
            next(s);
        }
    *s = j;
}

/* SplitMix64 of the seed, in both words */
static xoro seeded(uint64_t seed)
{
    uint64_t z = seed + 0x9E3779B97F4A7C15u;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    z ^= z >> 31;
    return (xoro){z, z};
}

uf_array *uf_cuda_random_states(int64_t n, uint64_t seed,
                                uint64_t subsequence_start,
                                const char *target, uf_stream *stream,
                                uf_error *err)
{
    if (n < 0) {
        uf__error_set(err, UF_ERR_INVALID, "uf_cuda_random_states: n is "
                      "negative (%lld)", (long long)n);
        return NULL;
    }
    const int64_t shape[2] = {n, 2};
    uf_array *host = uf_empty(UF_UINT64, 2, shape, UF_ORDER_C, err);
    if (host == NULL)
        return NULL;
    uint64_t *p = uf_array_data(host);
    if (n > 0) {
        xoro s = seeded(seed);
        for (uint64_t k = 0; k < subsequence_start; k++)
            jump(&s);
        for (int64_t i = 0; i < n; i++) {
            if (i > 0)
                jump(&s);
            p[2 * i] = s.s0;
            p[2 * i + 1] = s.s1;
        }
    }
    uf_array *dev = uf_to_device(host, target, stream, err);
    /* the host copy must live until an asynchronous copy is done */
    if (dev != NULL && stream != NULL &&
        uf_stream_synchronize(stream, err) != 0) {
        uf_array_release(dev);
        dev = NULL;
    }
    uf_array_release(host);
    return dev;
}
