/* What common/nprandom.c (the generator, the real-valued draws) shares
 * with common/nprandom_int.c (the integer-valued draws, multinomial,
 * dirichlet): the per-thread MT19937 state and its hot steps, inline so
 * that the draw loops of both files keep them in registers. Internal to
 * those two files, and to compiler/lower/lower_nprandom_inline.c, which
 * reads `index` and `mt` at their offsets in the code it emits. */
#ifndef UFJIT_COMMON_NPRANDOM_STATE_H
#define UFJIT_COMMON_NPRANDOM_STATE_H

#include <stdbool.h>
#include <stdint.h>

#define MT_N 624
#define MT_M 397

typedef struct mt_state {
    int index;
    uint32_t mt[MT_N];
    bool has_gauss;
    double gauss;
    bool seeded;
} mt_state;

/* One per thread, zero (unseeded) at thread start. */
extern _Thread_local mt_state uf__mt_tls;

void uf__mt_seed_from_os(mt_state *s);
void uf__mt_regenerate(mt_state *s);
/* The polar Box-Muller value (np.random.standard_normal's). */
double uf__mt_gauss(mt_state *s);
/* gamma(alpha, beta) into *r; false for a parameter <= 0. */
bool uf__mt_gamma(mt_state *s, double alpha, double beta, double *r);

static inline mt_state *uf__mt_state(void)
{
    mt_state *s = &uf__mt_tls;
    if (!s->seeded)
        uf__mt_seed_from_os(s);
    return s;
}

static inline uint32_t uf__mt_next32(mt_state *s)
{
    if (s->index >= MT_N)
        uf__mt_regenerate(s);
    uint32_t y = s->mt[s->index++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    y ^= y >> 18;
    return y;
}

static inline double uf__mt_double(mt_state *s)
{
    uint32_t a = uf__mt_next32(s) >> 5, b = uf__mt_next32(s) >> 6;
    return ((double)a * 67108864.0 + (double)b) / 9007199254740992.0;
}

#endif
