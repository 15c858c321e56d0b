/* A pooling memory manager plug-in for ufjit (ufjit/cuda_memory.h), as a
 * worked example: load it with
 *     UFJIT_CUDA_MEMORY_MANAGER=/path/libuf_emm_pool.so:uf_emm_pool_factory
 * or install the table uf_emm_pool_factory fills with
 * uf_cuda_set_memory_manager.
 *
 * Device memory comes in power-of-two size classes (256 bytes up to
 * 1 GiB; larger requests go straight to the driver). A freed block goes
 * to its class's free list with the stream it was freed on and an event
 * recorded there. It is reused
 *   - on the same stream at once (the stream runs its work in order);
 *   - on another stream once the event has completed, or after that
 *     stream was made to wait for the event (cuStreamWaitEvent): never
 *     before the work queued on the first stream is done with it.
 * Cached blocks go back to the driver on reset, on destroy, and when the
 * driver runs out of memory (then the allocation is tried once more),
 * except while cleanup is deferred. Pinned and mapped host memory is left
 * to ufjit's default manager (no memhostalloc here), and get_memory_info
 * says "not implemented": a pool's free memory is not one number. */
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ufjit/cuda_memory.h>

#include "emm_pool.h"

#define MIN_SHIFT 8  /* 256 bytes */
#define MAX_SHIFT 30 /* 1 GiB */
#define NCLASSES (MAX_SHIFT - MIN_SHIFT + 1)
#define CU_OUT_OF_MEMORY 2
#define CU_NOT_READY 600

typedef struct block {
    uint64_t ptr;
    uf_cuda_mm_stream stream; /* freed on */
    uf_cuda_mm_event event;   /* recorded there when freed */
} block;

typedef struct free_list {
    block *b;
    size_t n, cap;
} free_list;

typedef struct pool {
    const uf_cuda_mm_driver *drv;
    pthread_mutex_t lock;
    free_list cls[NCLASSES];
    uf_cuda_mm_event *events; /* spare events, reused */
    size_t nevents, capevents;
    int deferred;
    uf_emm_pool_stats stats;
} pool;

static int fail(uf_error *err, int code, const char *fmt, const char *what,
                int rc)
{
    err->code = code;
    snprintf(err->message, sizeof err->message, fmt, what, rc);
    return code;
}

/* the class of `bytes`, or -1 when it is above the largest */
static int class_of(size_t bytes)
{
    int c = 0;
    while (c < NCLASSES && ((size_t)1 << (c + MIN_SHIFT)) < bytes)
        c++;
    return c < NCLASSES ? c : -1;
}

static bool grow(void **p, size_t *cap, size_t n, size_t elem)
{
    if (n < *cap)
        return true;
    size_t c = *cap ? *cap * 2 : 16;
    void *q = realloc(*p, c * elem);
    if (q == NULL)
        return false;
    *p = q;
    *cap = c;
    return true;
}

/* Every cached block back to the driver (cuMemFree waits for the device,
 * so queued work still using a block is done first); lock held. */
static int trim(pool *pl)
{
    int first = 0;
    for (int c = 0; c < NCLASSES; c++) {
        free_list *l = &pl->cls[c];
        for (size_t i = 0; i < l->n; i++) {
            int rc = pl->drv->mem_free(pl->drv, l->b[i].ptr);
            if (rc && !first)
                first = rc;
            pl->drv->event_destroy(pl->drv, l->b[i].event);
            pl->stats.driver_frees++;
        }
        l->n = 0;
    }
    return first;
}

static int initialize(void *user, const uf_cuda_mm_driver *drv,
                      uf_error *err)
{
    pool *pl = user;
    pthread_mutex_lock(&pl->lock);
    if (pl->drv == NULL)
        pl->drv = drv;
    pthread_mutex_unlock(&pl->lock);
    return 0;
}

static int reset(void *user, uf_error *err)
{
    pool *pl = user;
    if (pl->drv == NULL) /* reset may come before initialize */
        return 0;
    pthread_mutex_lock(&pl->lock);
    int rc = trim(pl);
    pthread_mutex_unlock(&pl->lock);
    return rc ? fail(err, -17, "pool: %s failed (CUresult %d)", "cuMemFree",
                     rc)
              : 0;
}

static void destroy(void *user)
{
    pool *pl = user;
    uf_error err;
    reset(pl, &err);
    for (size_t i = 0; pl->drv && i < pl->nevents; i++)
        pl->drv->event_destroy(pl->drv, pl->events[i]);
    for (int c = 0; c < NCLASSES; c++)
        free(pl->cls[c].b);
    free(pl->events);
    pthread_mutex_destroy(&pl->lock);
    free(pl);
}

/* A cached block of class c usable on stream s, or false; lock held.
 * Same stream first (newest first: likeliest still in cache), then one
 * whose event completed, then the newest, after s waits for its event. */
static bool take(pool *pl, int c, uf_cuda_mm_stream s, uint64_t *p)
{
    free_list *l = &pl->cls[c];
    if (l->n == 0)
        return false;
    size_t pick = l->n;
    for (size_t i = l->n; i-- > 0 && pick == l->n;)
        if (l->b[i].stream == s)
            pick = i;
    if (pick == l->n) {
        for (size_t i = l->n; i-- > 0 && pick == l->n;)
            if (pl->drv->event_query(pl->drv, l->b[i].event) == 0)
                pick = i;
        if (pick == l->n) {
            pick = l->n - 1;
            if (pl->drv->stream_wait_event(pl->drv, s, l->b[pick].event))
                return false;
            pl->stats.stream_waits++;
        } else
            pl->stats.cross_stream_reuses++;
    }
    block b = l->b[pick];
    l->b[pick] = l->b[--l->n];
    /* the event goes back to the spares (there is room: it came from
     * there or was made with room reserved) */
    if (grow((void **)&pl->events, &pl->capevents, pl->nevents,
             sizeof *pl->events))
        pl->events[pl->nevents++] = b.event;
    else
        pl->drv->event_destroy(pl->drv, b.event);
    *p = b.ptr;
    pl->stats.hits++;
    return true;
}

static int memalloc(void *user, size_t bytes, uf_cuda_mm_stream s,
                    uint64_t *p, uf_error *err)
{
    pool *pl = user;
    int c = class_of(bytes);
    size_t size = c >= 0 ? (size_t)1 << (c + MIN_SHIFT) : bytes;
    pthread_mutex_lock(&pl->lock);
    if (c >= 0 && take(pl, c, s, p)) {
        pthread_mutex_unlock(&pl->lock);
        return 0;
    }
    int rc = pl->drv->mem_alloc(pl->drv, p, size);
    if (rc == CU_OUT_OF_MEMORY && pl->deferred == 0) {
        trim(pl);
        rc = pl->drv->mem_alloc(pl->drv, p, size);
    }
    if (rc == 0)
        pl->stats.driver_allocs++;
    pthread_mutex_unlock(&pl->lock);
    if (rc == CU_OUT_OF_MEMORY)
        return fail(err, -1, "pool: %s: out of device memory (CUresult %d)",
                    "cuMemAlloc", rc);
    return rc ? fail(err, -17, "pool: %s failed (CUresult %d)", "cuMemAlloc",
                     rc)
              : 0;
}

static int memfree(void *user, uint64_t p, size_t bytes, uf_cuda_mm_stream s,
                   uf_error *err)
{
    pool *pl = user;
    int c = class_of(bytes);
    if (c < 0) { /* never pooled: the driver waits for the device */
        int rc = pl->drv->mem_free(pl->drv, p);
        return rc ? fail(err, -17, "pool: %s failed (CUresult %d)",
                         "cuMemFree", rc)
                  : 0;
    }
    pthread_mutex_lock(&pl->lock);
    int rc = 0;
    uf_cuda_mm_event ev = NULL;
    if (pl->nevents > 0)
        ev = pl->events[--pl->nevents];
    else
        rc = pl->drv->event_create(pl->drv, &ev);
    if (rc == 0 && (rc = pl->drv->event_record(pl->drv, ev, s)) == 0) {
        free_list *l = &pl->cls[c];
        if (grow((void **)&l->b, &l->cap, l->n, sizeof *l->b))
            l->b[l->n++] = (block){p, s, ev};
        else { /* no room to cache it: give it back */
            pl->drv->event_destroy(pl->drv, ev);
            rc = pl->drv->mem_free(pl->drv, p);
        }
    }
    pthread_mutex_unlock(&pl->lock);
    return rc ? fail(err, -17, "pool: %s failed (CUresult %d)",
                     "freeing a block", rc)
              : 0;
}

static int get_ipc_handle(void *user, uint64_t p, size_t bytes,
                          uf_cuda_mm_stream s, uf_cuda_ipc_handle *h,
                          size_t *offset, uf_error *err)
{
    pool *pl = user;
    *offset = 0; /* every block is an allocation of its own */
    int rc = pl->drv->ipc_get_mem_handle(pl->drv, h, p);
    return rc ? fail(err, -17, "pool: %s failed (CUresult %d)",
                     "cuIpcGetMemHandle", rc)
              : 0;
}

static int open_ipc_handle(void *user, const uf_cuda_ipc_handle *h,
                           uf_cuda_mm_stream s, uint64_t *p, uf_error *err)
{
    pool *pl = user;
    int rc = pl->drv->ipc_open_mem_handle(pl->drv, p, h);
    return rc ? fail(err, -17, "pool: %s failed (CUresult %d)",
                     "cuIpcOpenMemHandle", rc)
              : 0;
}

static int close_ipc_handle(void *user, uint64_t p, uf_cuda_mm_stream s,
                            uf_error *err)
{
    pool *pl = user;
    int rc = pl->drv->ipc_close_mem_handle(pl->drv, p);
    return rc ? fail(err, -17, "pool: %s failed (CUresult %d)",
                     "cuIpcCloseMemHandle", rc)
              : 0;
}

static int get_memory_info(void *user, size_t *f, size_t *t,
                           uf_cuda_mm_stream s, uf_error *err)
{
    err->code = -13; /* UF_ERR_UNSUPPORTED */
    snprintf(err->message, sizeof err->message,
             "pool: get_memory_info is not implemented");
    return err->code;
}

static int defer_begin(void *user, uf_cuda_mm_stream s, uf_error *err)
{
    pool *pl = user;
    pthread_mutex_lock(&pl->lock);
    pl->deferred++;
    pthread_mutex_unlock(&pl->lock);
    return 0;
}

static int defer_end(void *user, uf_cuda_mm_stream s, uf_error *err)
{
    pool *pl = user;
    pthread_mutex_lock(&pl->lock);
    if (pl->deferred > 0)
        pl->deferred--;
    pthread_mutex_unlock(&pl->lock);
    return 0;
}

EMM_EXPORT int uf_emm_pool_factory(int interface_version,
                                   uf_cuda_memory_manager *out,
                                   uf_error *err)
{
    pool *pl = calloc(1, sizeof *pl);
    if (pl == NULL) {
        err->code = -1;
        snprintf(err->message, sizeof err->message, "pool: out of memory");
        return err->code;
    }
    pthread_mutex_init(&pl->lock, NULL);
    *out = (uf_cuda_memory_manager){
        .interface_version = UF_CUDA_MM_INTERFACE_VERSION, .name = "pool",
        .user = pl, .initialize = initialize, .reset = reset,
        .destroy = destroy, .memalloc = memalloc, .memfree = memfree,
        .get_ipc_handle = get_ipc_handle, .open_ipc_handle = open_ipc_handle,
        .close_ipc_handle = close_ipc_handle,
        .get_memory_info = get_memory_info,
        .defer_cleanup_begin = defer_begin, .defer_cleanup_end = defer_end};
    return 0;
}

EMM_EXPORT void uf_emm_pool_get_stats(void *user, uf_emm_pool_stats *out)
{
    pool *pl = user;
    pthread_mutex_lock(&pl->lock);
    *out = pl->stats;
    out->cached = 0;
    for (int c = 0; c < NCLASSES; c++)
        out->cached += pl->cls[c].n;
    pthread_mutex_unlock(&pl->lock);
}
