/* Timing a loop's streamed and plain large calls (stream_pick.h). */
#include "common/stream_pick.h"

#include <stdlib.h>
#include <string.h>

/* UFJIT_STREAM_STORES, read once: -1 auto (timed), 0 never, 1 always. */
static int mode(void)
{
    static atomic_int m = 2; /* not read yet */
    int v = atomic_load_explicit(&m, memory_order_relaxed);
    if (v != 2)
        return v;
    const char *e = getenv("UFJIT_STREAM_STORES");
    v = e && strcmp(e, "always") == 0 ? 1
        : e && strcmp(e, "never") == 0 ? 0
                                        : -1;
    atomic_store_explicit(&m, v, memory_order_relaxed);
    return v;
}

void uf__stream_pick_init(uf__stream_pick *p)
{
    atomic_init(&p->next, 0);
    atomic_init(&p->done, 0);
    atomic_init(&p->pick, -1);
    atomic_init(&p->best_ps[0], INT64_MAX);
    atomic_init(&p->best_ps[1], INT64_MAX);
}

bool uf__stream_pick_begin(uf__stream_pick *p, int *trial)
{
    *trial = -1;
    int m = mode();
    if (m >= 0 || p == NULL)
        return m != 0;
    int pick = atomic_load_explicit(&p->pick, memory_order_relaxed);
    if (pick >= 0)
        return pick == 1;
    int k = atomic_fetch_add_explicit(&p->next, 1, memory_order_relaxed);
    if (k >= UF__STREAM_TRIALS)
        return true; /* the last trials are still running */
    *trial = k;
    return k % 2 == 0;
}

void uf__stream_pick_done(uf__stream_pick *p, int trial, int64_t ns,
                          int64_t n)
{
    if (p == NULL || trial < 0 || n <= 0)
        return;
    int v = trial % 2 == 0;
    int64_t ps = ns > INT64_MAX / 1000 ? INT64_MAX / n : ns * 1000 / n;
    int64_t best = atomic_load(&p->best_ps[v]);
    while (ps < best &&
           !atomic_compare_exchange_weak(&p->best_ps[v], &best, ps))
        ;
    if (atomic_fetch_add(&p->done, 1) + 1 != UF__STREAM_TRIALS)
        return;
    int64_t plain = atomic_load(&p->best_ps[0]);
    int64_t streamed = atomic_load(&p->best_ps[1]);
    /* plain stores only when at least 3% faster: streaming is the
     * default, and two timings each cannot tell closer ones apart */
    bool faster = (double)plain < 0.97 * (double)streamed;
    atomic_store(&p->pick, faster ? 0 : 1);
}
