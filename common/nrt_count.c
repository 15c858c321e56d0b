/* Per-thread counts of live kernel blocks (nrt_count.h). Measured before
 * them: a gufunc making a 16-element scratch array per row (1e6 rows) took
 * 18 ms on 1 thread and 37 on 2, the two threads' updates of one global
 * counter bouncing its cache line between the cores. */
#include <pthread.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "common/nrt_count.h"

typedef struct shard {
    /* written by the owning thread only; read by the totals */
    alignas(64) atomic_long live;
    atomic_long peak;
    struct shard *next, *prev;
} shard;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static shard *shards;
/* counts of ended threads, and of any thread that could get no shard */
static atomic_long retired_live, shared_live, shared_peak;
static pthread_key_t key;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static _Thread_local shard *mine;
static _Thread_local int no_shard; /* the shard's malloc failed once */

/* Runs on the ending thread: what it frees later (another key's
 * destructor) counts in the shared total. */
static void retire(void *p)
{
    shard *s = p;
    mine = NULL;
    no_shard = 1;
    pthread_mutex_lock(&lock);
    atomic_fetch_add(&retired_live, atomic_load(&s->live));
    if (s->prev)
        s->prev->next = s->next;
    else
        shards = s->next;
    if (s->next)
        s->next->prev = s->prev;
    pthread_mutex_unlock(&lock);
    free(s);
}

static void make_key(void)
{
    if (pthread_key_create(&key, retire) != 0)
        key = 0;
}

static shard *my_shard(void)
{
    if (mine != NULL || no_shard)
        return mine;
    pthread_once(&once, make_key);
    /* not uf__malloc: no test's failure hook; a cache line of its own */
    shard *s = aligned_alloc(alignof(shard), sizeof *s);
    if (s != NULL)
        memset(s, 0, sizeof *s);
    if (s == NULL || pthread_setspecific(key, s) != 0) {
        free(s);
        no_shard = 1;
        return NULL;
    }
    pthread_mutex_lock(&lock);
    s->next = shards;
    if (shards)
        shards->prev = s;
    shards = s;
    pthread_mutex_unlock(&lock);
    return mine = s;
}

static void bump(shard *s, long d)
{
    if (s == NULL) { /* shared, atomically */
        long now = atomic_fetch_add(&shared_live, d) + d;
        long hi = atomic_load(&shared_peak);
        while (now > hi && !atomic_compare_exchange_weak(&shared_peak, &hi,
                                                         now))
            ;
        return;
    }
    long now = atomic_load_explicit(&s->live, memory_order_relaxed) + d;
    atomic_store_explicit(&s->live, now, memory_order_relaxed);
    if (now > atomic_load_explicit(&s->peak, memory_order_relaxed))
        atomic_store_explicit(&s->peak, now, memory_order_relaxed);
}

void uf__nrt_count_up(void)
{
    bump(my_shard(), 1);
}

void uf__nrt_count_down(void)
{
    bump(my_shard(), -1);
}

long uf__nrt_count_live(void)
{
    pthread_mutex_lock(&lock);
    long n = atomic_load(&retired_live) + atomic_load(&shared_live);
    for (shard *s = shards; s; s = s->next)
        n += atomic_load(&s->live);
    pthread_mutex_unlock(&lock);
    return n;
}

long uf__nrt_count_peak(void)
{
    pthread_mutex_lock(&lock);
    long n = atomic_load(&retired_live) + atomic_load(&shared_peak);
    for (shard *s = shards; s; s = s->next)
        n += atomic_load(&s->peak);
    pthread_mutex_unlock(&lock);
    return n;
}

void uf__nrt_count_peak_reset(void)
{
    pthread_mutex_lock(&lock);
    atomic_store(&shared_peak, atomic_load(&shared_live));
    for (shard *s = shards; s; s = s->next)
        atomic_store(&s->peak, atomic_load(&s->live));
    pthread_mutex_unlock(&lock);
}
