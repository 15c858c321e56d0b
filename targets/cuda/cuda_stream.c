/* uf_stream (ufjit/cuda.h): a driver stream of one runtime. Live streams
 * are listed, so that a buffer freed after its default stream was
 * destroyed is freed on the legacy stream instead. */
#include <pthread.h>

#include "common/alloc.h"
#include "common/error_internal.h"
#include "targets/cuda/cuda_memory.h"
#include "targets/cuda/cuda_scratch.h"

static pthread_mutex_t live_lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t next_serial = 1;
static const uf_stream **live;
static size_t nlive, cap;

static int add_live(uf_stream *s, uf_error *err)
{
    pthread_mutex_lock(&live_lock);
    int rc = 0;
    if (nlive == cap) {
        size_t c = cap ? cap * 2 : 16;
        const uf_stream **l = uf__realloc(live, c, sizeof *l, err);
        if (l == NULL)
            rc = err->code;
        else {
            live = l;
            cap = c;
        }
    }
    if (rc == 0) {
        s->serial = next_serial++;
        live[nlive++] = s;
    }
    pthread_mutex_unlock(&live_lock);
    return rc;
}

static void remove_live(const uf_stream *s)
{
    pthread_mutex_lock(&live_lock);
    for (size_t i = 0; i < nlive; i++)
        if (live[i] == s) {
            live[i] = live[--nlive];
            break;
        }
    pthread_mutex_unlock(&live_lock);
}

bool uf__cuda_stream_alive(const uf_stream *s, uint64_t serial)
{
    if (s == NULL)
        return false;
    bool alive = false;
    pthread_mutex_lock(&live_lock);
    for (size_t i = 0; i < nlive && !alive; i++)
        alive = live[i] == s && s->serial == serial;
    pthread_mutex_unlock(&live_lock);
    return alive;
}

uf_stream *uf_stream_create(const char *target, uf_error *err)
{
    const uf__cuda_rt *rt = uf__cuda_rt_get(target, err);
    if (rt == NULL)
        return NULL;
    uf_stream *s = uf__calloc(1, sizeof *s, err);
    if (s == NULL)
        return NULL;
    s->rt = rt;
    if (!(s->scratch = uf__cuda_scratch_new(rt, err))) {
        uf__free(s);
        return NULL;
    }
    if (uf__cuda_check(rt, rt->drv->stream_create(&s->s, 0),
                       "cuStreamCreate", err) != 0) {
        uf__cuda_scratch_free(s->scratch);
        uf__free(s);
        return NULL;
    }
    if (add_live(s, err) != 0) {
        uf_stream_destroy(s);
        return NULL;
    }
    return s;
}

uf_stream *uf__cuda_stream_wrap(const uf__cuda_rt *rt, uf__cu_stream cs,
                                uf_error *err)
{
    uf_stream *s = uf__calloc(1, sizeof *s, err);
    if (s == NULL)
        return NULL;
    s->rt = rt;
    s->s = cs;
    s->external = true;
    if (!(s->scratch = uf__cuda_scratch_new(rt, err))) {
        uf__free(s);
        return NULL;
    }
    if (add_live(s, err) != 0) {
        uf_stream_destroy(s);
        return NULL;
    }
    return s;
}

int uf_stream_synchronize(uf_stream *s, uf_error *err)
{
    if (s == NULL)
        return uf__error_set(err, UF_ERR_INVALID,
                             "uf_stream_synchronize: NULL stream");
    if (uf__cuda_rt_enter(s->rt, err) != 0)
        return err->code;
    return uf__cuda_check(s->rt, s->rt->drv->stream_synchronize(s->s),
                          "cuStreamSynchronize", err);
}

void uf_stream_destroy(uf_stream *s)
{
    if (s == NULL)
        return;
    remove_live(s);
    uf_error err;
    /* cuStreamDestroy returns at once and lets queued work finish; the
     * arrays whose copies are queued may be freed right after (on the
     * legacy stream, as this one is gone), so wait; a stream someone
     * else made is theirs to destroy */
    if (uf__cuda_rt_enter(s->rt, &err) == 0) {
        (void)s->rt->drv->stream_synchronize(s->s);
        if (!s->external)
            (void)s->rt->drv->stream_destroy(s->s);
    }
    uf__cuda_scratch_free(s->scratch);
    uf__free(s);
}
