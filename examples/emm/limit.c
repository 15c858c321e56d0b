/* A counting and limiting memory manager plug-in for ufjit
 * (ufjit/cuda_memory.h), as a worked example and a test tool: every call
 * goes straight to the driver (no deferral, no caching), counted; an
 * allocation fails with UF_ERR_NOMEM when it would take the live device
 * bytes over a limit, or when it is the one chosen to fail. Load it with
 *     UFJIT_CUDA_MEMORY_MANAGER=/path/libuf_emm_limit.so:uf_emm_limit_factory
 * (UFJIT_EMM_LIMIT_BYTES sets the limit; unset: none). It manages pinned
 * and mapped host memory too, so that those are counted. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ufjit/cuda_memory.h>

#include "emm_limit.h"

typedef struct limit {
    const uf_cuda_mm_driver *drv;
    pthread_mutex_t lock;
    size_t limit_bytes; /* 0: none */
    size_t fail_at;     /* the fail_at-th allocation from now fails; 0 */
    size_t calls_since;
    uf_emm_limit_counts counts;
} limit;

static int driver_error(uf_error *err, const limit *l, const char *what,
                        int rc)
{
    err->code = rc == 2 ? -1 : -17; /* UF_ERR_NOMEM or UF_ERR_INTERNAL */
    snprintf(err->message, sizeof err->message, "limit: %s: %s", what,
             l->drv->error_name(l->drv, rc));
    return err->code;
}

static int initialize(void *user, const uf_cuda_mm_driver *drv,
                      uf_error *err)
{
    limit *l = user;
    pthread_mutex_lock(&l->lock);
    l->drv = drv;
    l->counts.initializes++;
    pthread_mutex_unlock(&l->lock);
    return 0;
}

static int reset(void *user, uf_error *err)
{
    limit *l = user;
    pthread_mutex_lock(&l->lock);
    l->counts.resets++;
    pthread_mutex_unlock(&l->lock);
    return 0;
}

static void destroy(void *user)
{
    limit *l = user;
    pthread_mutex_destroy(&l->lock);
    free(l);
}

/* Whether this allocation of `bytes` is refused (lock held). */
static const char *refuse(limit *l, size_t bytes)
{
    l->calls_since++;
    if (l->fail_at && l->calls_since == l->fail_at) {
        l->fail_at = 0;
        return "failing on demand";
    }
    if (l->limit_bytes && l->counts.live_bytes + bytes > l->limit_bytes)
        return "over the limit";
    return NULL;
}

static int memalloc(void *user, size_t bytes, uf_cuda_mm_stream s,
                    uint64_t *p, uf_error *err)
{
    limit *l = user;
    pthread_mutex_lock(&l->lock);
    const char *why = refuse(l, bytes);
    int rc = why ? 0 : l->drv->mem_alloc(l->drv, p, bytes);
    if (why)
        l->counts.refused++;
    else if (rc == 0) {
        l->counts.allocs++;
        l->counts.live++;
        l->counts.live_bytes += bytes;
    }
    size_t live = l->counts.live_bytes, lim = l->limit_bytes;
    pthread_mutex_unlock(&l->lock);
    if (why) {
        err->code = -1; /* UF_ERR_NOMEM */
        snprintf(err->message, sizeof err->message,
                 "limit: %zu bytes refused, %s (%zu live, limit %zu)", bytes,
                 why, live, lim);
        return err->code;
    }
    return rc ? driver_error(err, l, "cuMemAlloc", rc) : 0;
}

static int memfree(void *user, uint64_t p, size_t bytes, uf_cuda_mm_stream s,
                   uf_error *err)
{
    limit *l = user;
    int rc = l->drv->mem_free(l->drv, p);
    pthread_mutex_lock(&l->lock);
    l->counts.frees++;
    if (rc == 0) {
        l->counts.live--;
        l->counts.live_bytes -= bytes;
    }
    pthread_mutex_unlock(&l->lock);
    return rc ? driver_error(err, l, "cuMemFree", rc) : 0;
}

static int memhostalloc(void *user, size_t bytes, unsigned flags,
                        uf_cuda_mm_stream s, void **p, uf_error *err)
{
    limit *l = user;
    int rc = l->drv->mem_host_alloc(l->drv, p, bytes, flags);
    pthread_mutex_lock(&l->lock);
    if (rc == 0) {
        l->counts.host_allocs++;
        l->counts.host_live++;
    }
    pthread_mutex_unlock(&l->lock);
    return rc ? driver_error(err, l, "cuMemHostAlloc", rc) : 0;
}

static int memhostfree(void *user, void *p, size_t bytes, unsigned flags,
                       uf_cuda_mm_stream s, uf_error *err)
{
    limit *l = user;
    int rc = l->drv->mem_free_host(l->drv, p);
    pthread_mutex_lock(&l->lock);
    if (rc == 0)
        l->counts.host_live--;
    pthread_mutex_unlock(&l->lock);
    return rc ? driver_error(err, l, "cuMemFreeHost", rc) : 0;
}

static int get_memory_info(void *user, size_t *f, size_t *t,
                           uf_cuda_mm_stream s, uf_error *err)
{
    limit *l = user;
    pthread_mutex_lock(&l->lock);
    size_t lim = l->limit_bytes, live = l->counts.live_bytes;
    pthread_mutex_unlock(&l->lock);
    if (lim == 0) {
        int rc = l->drv->mem_get_info(l->drv, f, t);
        return rc ? driver_error(err, l, "cuMemGetInfo", rc) : 0;
    }
    *t = lim;
    *f = live < lim ? lim - live : 0;
    return 0;
}

EMM_EXPORT int uf_emm_limit_factory(int interface_version,
                                    uf_cuda_memory_manager *out,
                                    uf_error *err)
{
    limit *l = calloc(1, sizeof *l);
    if (l == NULL) {
        err->code = -1;
        snprintf(err->message, sizeof err->message, "limit: out of memory");
        return err->code;
    }
    pthread_mutex_init(&l->lock, NULL);
    const char *s = getenv("UFJIT_EMM_LIMIT_BYTES");
    if (s != NULL)
        l->limit_bytes = (size_t)strtoull(s, NULL, 10);
    *out = (uf_cuda_memory_manager){
        .interface_version = UF_CUDA_MM_INTERFACE_VERSION, .name = "limit",
        .user = l, .initialize = initialize, .reset = reset,
        .destroy = destroy, .memalloc = memalloc, .memfree = memfree,
        .memhostalloc = memhostalloc, .memhostfree = memhostfree,
        .get_memory_info = get_memory_info};
    return 0;
}

EMM_EXPORT void uf_emm_limit_configure(void *user, size_t limit_bytes,
                                       size_t fail_at)
{
    limit *l = user;
    pthread_mutex_lock(&l->lock);
    l->limit_bytes = limit_bytes;
    l->fail_at = fail_at;
    l->calls_since = 0;
    pthread_mutex_unlock(&l->lock);
}

EMM_EXPORT void uf_emm_limit_get_counts(void *user, uf_emm_limit_counts *out)
{
    limit *l = user;
    pthread_mutex_lock(&l->lock);
    *out = l->counts;
    pthread_mutex_unlock(&l->lock);
}
