/* Per-stream scratch buffers (cuda_scratch.h). */
#include <pthread.h>

#include "common/alloc.h"
#include "common/error_internal.h"
#include "targets/cuda/cuda_memory.h"
#include "targets/cuda/cuda_mm.h"
#include "targets/cuda/cuda_scratch.h"

struct uf__cuda_scratch {
    const uf__cuda_rt *rt;
    uf__cu_stream stream; /* the one it serves (NULL: the legacy one) */
    pthread_mutex_t lock;
    uf__cu_dptr ptr[UF__CUDA_SCRATCH_SLOTS];
    size_t bytes[UF__CUDA_SCRATCH_SLOTS];
    /* a checked kernel's status word: its own lock, as a reduction holding
     * the scratch launches checked kernels */
    pthread_mutex_t status_lock;
    uf__cu_dptr status;
    size_t status_bytes;
};

/* The legacy default stream's, one per runtime (the cuda and cudasim
 * ones), kept for the process's life. */
#define NLEGACY 2
static uf__cuda_scratch legacy[NLEGACY] = {
    {.lock = PTHREAD_MUTEX_INITIALIZER,
     .status_lock = PTHREAD_MUTEX_INITIALIZER},
    {.lock = PTHREAD_MUTEX_INITIALIZER,
     .status_lock = PTHREAD_MUTEX_INITIALIZER}};
static pthread_mutex_t legacy_lock = PTHREAD_MUTEX_INITIALIZER;

static uf__cuda_scratch *legacy_of(const uf__cuda_rt *rt)
{
    uf__cuda_scratch *sc = NULL;
    pthread_mutex_lock(&legacy_lock);
    for (int i = 0; i < NLEGACY && !sc; i++) {
        if (legacy[i].rt == NULL)
            legacy[i].rt = rt;
        if (legacy[i].rt == rt)
            sc = &legacy[i];
    }
    pthread_mutex_unlock(&legacy_lock);
    return sc;
}

uf__cuda_scratch *uf__cuda_scratch_begin(const uf__cuda_rt *rt,
                                         uf_stream *s)
{
    uf__cuda_scratch *sc = s ? s->scratch : legacy_of(rt);
    if (sc) {
        pthread_mutex_lock(&sc->lock);
        sc->stream = s ? s->s : NULL;
    }
    return sc;
}

void uf__cuda_scratch_end(uf__cuda_scratch *sc)
{
    if (sc)
        pthread_mutex_unlock(&sc->lock);
}

int uf__cuda_scratch_slot(uf__cuda_scratch *sc, int slot, size_t bytes,
                          uf__cu_dptr *out, uf_error *err)
{
    if (sc == NULL || slot < 0 || slot >= UF__CUDA_SCRATCH_SLOTS)
        return uf__error_set(err, UF_ERR_INTERNAL, "no scratch slot %d",
                             slot);
    if (bytes == 0)
        bytes = 1;
    if (sc->bytes[slot] < bytes) {
        if (uf__cuda_rt_enter(sc->rt, err) != 0)
            return err->code;
        /* freed in the stream's order: its queued work may still use it
         * (the memory manager's contract, cuda_mm.h) */
        if (sc->ptr[slot])
            uf__cuda_mm_free(sc->rt, sc->ptr[slot], sc->bytes[slot],
                             sc->stream);
        sc->ptr[slot] = 0;
        sc->bytes[slot] = 0;
        /* grown by half again, so a slowly growing size reallocates
         * rarely */
        size_t want = bytes + bytes / 2;
        if (uf__cuda_mm_alloc(sc->rt, want, sc->stream, &sc->ptr[slot],
                              err) != 0) {
            sc->ptr[slot] = 0;
            return err->code;
        }
        sc->bytes[slot] = want;
    }
    *out = sc->ptr[slot];
    return 0;
}

int uf__cuda_scratch_put(uf__cuda_scratch *sc, int slot, const void *data,
                         size_t bytes, uf__cu_dptr *out, uf_error *err)
{
    if (uf__cuda_scratch_slot(sc, slot, bytes, out, err) != 0)
        return err->code;
    return uf__cuda_check(sc->rt,
                          sc->rt->drv->memcpy_htod_async(*out, data, bytes,
                                                         sc->stream),
                          "cuMemcpyHtoDAsync", err);
}

int uf__cuda_status_begin(const uf__cuda_rt *rt, uf_stream *s, size_t bytes,
                          uf__cuda_scratch **out_sc, uf__cu_dptr *out,
                          uf_error *err)
{
    uf__cuda_scratch *sc = s ? s->scratch : legacy_of(rt);
    if (sc == NULL)
        return uf__error_set(err, UF_ERR_INTERNAL, "no status word");
    pthread_mutex_lock(&sc->status_lock);
    if (sc->status_bytes < bytes) {
        uf__cu_stream st = s ? s->s : NULL;
        if (sc->status)
            uf__cuda_mm_free(rt, sc->status, sc->status_bytes, st);
        sc->status = 0;
        sc->status_bytes = 0;
        if (uf__cuda_mm_alloc(rt, bytes, st, &sc->status, err) != 0) {
            sc->status = 0;
            pthread_mutex_unlock(&sc->status_lock);
            return err->code;
        }
        sc->status_bytes = bytes;
    }
    *out_sc = sc;
    *out = sc->status;
    return 0;
}

void uf__cuda_status_end(uf__cuda_scratch *sc)
{
    pthread_mutex_unlock(&sc->status_lock);
}

uf__cuda_scratch *uf__cuda_scratch_new(const uf__cuda_rt *rt, uf_error *err)
{
    uf__cuda_scratch *sc = uf__calloc(1, sizeof *sc, err);
    if (sc == NULL)
        return NULL;
    sc->rt = rt;
    pthread_mutex_init(&sc->lock, NULL);
    pthread_mutex_init(&sc->status_lock, NULL);
    return sc;
}

/* Gives sc's buffers back to the memory manager; sc stays usable. */
static void release_slots(uf__cuda_scratch *sc)
{
    uf_error err;
    if (uf__cuda_rt_enter(sc->rt, &err) != 0)
        return;
    for (int i = 0; i < UF__CUDA_SCRATCH_SLOTS; i++) {
        if (sc->ptr[i])
            uf__cuda_mm_free(sc->rt, sc->ptr[i], sc->bytes[i], sc->stream);
        sc->ptr[i] = 0;
        sc->bytes[i] = 0;
    }
    pthread_mutex_lock(&sc->status_lock);
    if (sc->status)
        uf__cuda_mm_free(sc->rt, sc->status, sc->status_bytes, sc->stream);
    sc->status = 0;
    sc->status_bytes = 0;
    pthread_mutex_unlock(&sc->status_lock);
}

void uf__cuda_scratch_free(uf__cuda_scratch *sc)
{
    if (sc == NULL)
        return;
    /* the stream was synchronised and is gone: free in the legacy one */
    sc->stream = NULL;
    release_slots(sc);
    pthread_mutex_destroy(&sc->lock);
    pthread_mutex_destroy(&sc->status_lock);
    uf__free(sc);
}

void uf__cuda_scratch_release_legacy(const uf__cuda_rt *rt)
{
    uf__cuda_scratch *sc = uf__cuda_scratch_begin(rt, NULL);
    if (sc) {
        release_slots(sc);
        uf__cuda_scratch_end(sc);
    }
}
