/* The default memory manager, expressed as a uf_cuda_memory_manager
 * table: Numba's NumbaCUDAMemoryManager (numba-cuda's cudadrv/driver.py,
 * _PendingDeallocs and HostOnlyCUDAMemoryManager) in C.
 *   - Allocation is immediate; on out-of-memory the pending queue is
 *     flushed and the allocation tried once more (device and mapped
 *     memory, as Numba: pinned unmapped memory is not retried).
 *   - A free is queued (device memory with its size, mapped host memory
 *     with its size, pinned unmapped host memory as 0 bytes); the queue
 *     is flushed, oldest first, when it holds more than the count limit
 *     or more bytes than ratio x the device's total memory. Unpinning is
 *     immediate (a pinned range can be pinned again at once).
 *   - defer_cleanup begin/end nest through a counter; while it is
 *     above 0 a flush does nothing (the queue grows past its limits and
 *     is flushed by the first free or failed allocation after the end).
 *   - A free that fails is noted as the runtime's sticky error and the
 *     flush goes on with the others. */
#include <pthread.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#include "common/alloc.h"
#include "common/error_internal.h"
#include "targets/cuda/cuda_mm.h"

#define DEFAULT_COUNT 10
#define DEFAULT_RATIO 0.2

typedef struct pending {
    bool host;
    uint64_t dptr;
    void *hptr;
    size_t bytes; /* what it counts for against the ratio */
} pending;

typedef struct default_mm {
    const uf_cuda_mm_driver *drv;
    pthread_mutex_t lock;
    pending *q;
    size_t n, cap, bytes;
    int disabled;
    size_t capacity; /* device memory in bytes, read at initialize */
    long max_count;
    size_t max_bytes; /* Numba's int(capacity * ratio) */
    size_t flushes;
} default_mm;

static long env_count(void)
{
    const char *s = getenv("UFJIT_CUDA_MAX_PENDING_DEALLOCS_COUNT");
    char *end;
    long v = s && *s ? strtol(s, &end, 10) : -1;
    return s && *s && *end == '\0' && v >= 0 ? v : DEFAULT_COUNT;
}

static double env_ratio(void)
{
    const char *s = getenv("UFJIT_CUDA_MAX_PENDING_DEALLOCS_RATIO");
    char *end;
    double v = s && *s ? strtod(s, &end) : -1;
    return s && *s && *end == '\0' && v >= 0 ? v : DEFAULT_RATIO;
}

static void free_one(default_mm *m, const pending *p)
{
    uf_error err;
    int rc = p->host ? m->drv->mem_free_host(m->drv, p->hptr)
                     : m->drv->mem_free(m->drv, p->dptr);
    if (rc != 0) {
        uf__cuda_mm_driver_check(m->drv, rc,
                                 p->host ? "cuMemFreeHost" : "cuMemFree",
                                 &err);
        uf__cuda_mm_note_failure(m->drv, &err);
    }
}

/* Numba's _PendingDeallocs.clear: everything queued, oldest first, unless
 * cleanup is deferred (or `force`: the manager is going away). The frees
 * run outside the lock: each may wait for the device. */
static void flush(default_mm *m, bool force)
{
    pthread_mutex_lock(&m->lock);
    if (m->disabled > 0 && !force) {
        pthread_mutex_unlock(&m->lock);
        return;
    }
    pending *q = m->q;
    size_t n = m->n;
    m->q = NULL;
    m->n = m->cap = m->bytes = 0;
    if (n > 0)
        m->flushes++;
    pthread_mutex_unlock(&m->lock);
    for (size_t i = 0; i < n; i++)
        free_one(m, &q[i]);
    uf__free(q);
}

/* Numba's add_item: queued, then flushed when over either limit. */
static void add_item(default_mm *m, pending p)
{
    pthread_mutex_lock(&m->lock);
    if (m->n == m->cap) {
        uf_error err;
        size_t cap = m->cap ? m->cap * 2 : 16;
        pending *q = uf__realloc(m->q, cap, sizeof *q, &err);
        if (q == NULL) { /* no host memory for the queue: free it now */
            pthread_mutex_unlock(&m->lock);
            free_one(m, &p);
            return;
        }
        m->q = q;
        m->cap = cap;
    }
    m->q[m->n++] = p;
    m->bytes += p.bytes;
    bool over = m->n > (size_t)m->max_count || m->bytes > m->max_bytes;
    pthread_mutex_unlock(&m->lock);
    if (over)
        flush(m, false);
}

static int initialize(void *user, const uf_cuda_mm_driver *drv,
                      uf_error *err)
{
    default_mm *m = user;
    pthread_mutex_lock(&m->lock);
    if (m->drv == NULL) {
        size_t f = 0, t = 0;
        m->drv = drv;
        /* Numba sets the capacity once, from get_memory_info().total */
        m->capacity = drv->mem_get_info(drv, &f, &t) == 0 ? t
                                                          : drv->total_mem;
        m->max_count = env_count();
        double lim = (double)m->capacity * env_ratio();
        m->max_bytes = lim >= (double)SIZE_MAX ? SIZE_MAX : (size_t)lim;
    }
    pthread_mutex_unlock(&m->lock);
    return 0;
}

static int reset(void *user, uf_error *err)
{
    default_mm *m = user;
    if (m->drv != NULL)
        flush(m, false);
    return 0;
}

static void destroy(void *user)
{
    default_mm *m = user;
    if (m->drv != NULL)
        flush(m, true);
    pthread_mutex_destroy(&m->lock);
    uf__free(m);
}

/* One allocation, flushing and trying again once on out-of-memory. */
#define ATTEMPT(m, rc, call)                                                \
    do {                                                                    \
        rc = (call);                                                        \
        if (rc == UF__CU_ERROR_OUT_OF_MEMORY) {                             \
            flush(m, false);                                                \
            rc = (call);                                                    \
        }                                                                   \
    } while (0)

static int memalloc(void *user, size_t bytes, uf_cuda_mm_stream s,
                    uint64_t *p, uf_error *err)
{
    default_mm *m = user;
    int rc;
    ATTEMPT(m, rc, m->drv->mem_alloc(m->drv, p, bytes));
    return uf__cuda_mm_driver_check(m->drv, rc, "cuMemAlloc", err);
}

static int memfree(void *user, uint64_t p, size_t bytes, uf_cuda_mm_stream s,
                   uf_error *err)
{
    add_item(user, (pending){.dptr = p, .bytes = bytes});
    return 0;
}

static int memhostalloc(void *user, size_t bytes, unsigned flags,
                        uf_cuda_mm_stream s, void **p, uf_error *err)
{
    default_mm *m = user;
    int rc;
    if (flags & UF_CUDA_MM_HOST_MAPPED)
        ATTEMPT(m, rc, m->drv->mem_host_alloc(m->drv, p, bytes, flags));
    else
        rc = m->drv->mem_host_alloc(m->drv, p, bytes, flags);
    return uf__cuda_mm_driver_check(m->drv, rc, "cuMemHostAlloc", err);
}

static int memhostfree(void *user, void *p, size_t bytes, unsigned flags,
                       uf_cuda_mm_stream s, uf_error *err)
{
    bool mapped = (flags & UF_CUDA_MM_HOST_MAPPED) != 0;
    add_item(user, (pending){.host = true, .hptr = p,
                             .bytes = mapped ? bytes : 0});
    return 0;
}

static int mempin(void *user, void *p, size_t bytes, unsigned flags,
                  uf_cuda_mm_stream s, uf_error *err)
{
    default_mm *m = user;
    int rc;
    /* the register flags have the same values as memhostalloc's */
    unsigned f = flags & (UF_CUDA_MM_HOST_PORTABLE | UF_CUDA_MM_HOST_MAPPED);
    if (flags & UF_CUDA_MM_HOST_MAPPED)
        ATTEMPT(m, rc, m->drv->mem_host_register(m->drv, p, bytes, f));
    else
        rc = m->drv->mem_host_register(m->drv, p, bytes, f);
    return uf__cuda_mm_driver_check(m->drv, rc, "cuMemHostRegister", err);
}

static int memunpin(void *user, void *p, size_t bytes, uf_cuda_mm_stream s,
                    uf_error *err)
{
    default_mm *m = user;
    return uf__cuda_mm_driver_check(
        m->drv, m->drv->mem_host_unregister(m->drv, p),
        "cuMemHostUnregister", err);
}

static int get_ipc_handle(void *user, uint64_t p, size_t bytes,
                          uf_cuda_mm_stream s, uf_cuda_ipc_handle *h,
                          size_t *offset, uf_error *err)
{
    default_mm *m = user;
    *offset = 0; /* ufjit passes allocations' own addresses */
    return uf__cuda_mm_driver_check(m->drv,
                                    m->drv->ipc_get_mem_handle(m->drv, h, p),
                                    "cuIpcGetMemHandle", err);
}

static int open_ipc_handle(void *user, const uf_cuda_ipc_handle *h,
                           uf_cuda_mm_stream s, uint64_t *p, uf_error *err)
{
    default_mm *m = user;
    return uf__cuda_mm_driver_check(
        m->drv, m->drv->ipc_open_mem_handle(m->drv, p, h),
        "cuIpcOpenMemHandle", err);
}

static int close_ipc_handle(void *user, uint64_t p, uf_cuda_mm_stream s,
                            uf_error *err)
{
    default_mm *m = user;
    return uf__cuda_mm_driver_check(
        m->drv, m->drv->ipc_close_mem_handle(m->drv, p),
        "cuIpcCloseMemHandle", err);
}

static int get_memory_info(void *user, size_t *f, size_t *t,
                           uf_cuda_mm_stream s, uf_error *err)
{
    default_mm *m = user;
    return uf__cuda_mm_driver_check(m->drv,
                                    m->drv->mem_get_info(m->drv, f, t),
                                    "cuMemGetInfo", err);
}

static int defer_begin(void *user, uf_cuda_mm_stream s, uf_error *err)
{
    default_mm *m = user;
    pthread_mutex_lock(&m->lock);
    m->disabled++;
    pthread_mutex_unlock(&m->lock);
    return 0;
}

static int defer_end(void *user, uf_cuda_mm_stream s, uf_error *err)
{
    default_mm *m = user;
    pthread_mutex_lock(&m->lock);
    int rc = m->disabled > 0 ? 0 : UF_ERR_INVALID;
    if (rc == 0)
        m->disabled--;
    pthread_mutex_unlock(&m->lock);
    return rc ? uf__error_set(err, rc, "defer_cleanup_end without a begin")
              : 0;
}

int uf__cuda_mm_default_new(uf_cuda_memory_manager *out, uf_error *err)
{
    default_mm *m = uf__calloc(1, sizeof *m, err);
    if (m == NULL)
        return err->code;
    pthread_mutex_init(&m->lock, NULL);
    *out = (uf_cuda_memory_manager){
        .interface_version = UF_CUDA_MM_INTERFACE_VERSION,
        .name = "default", .user = m, .initialize = initialize,
        .reset = reset, .destroy = destroy, .memalloc = memalloc,
        .memfree = memfree, .memhostalloc = memhostalloc,
        .memhostfree = memhostfree, .mempin = mempin, .memunpin = memunpin,
        .get_ipc_handle = get_ipc_handle, .open_ipc_handle = open_ipc_handle,
        .close_ipc_handle = close_ipc_handle,
        .get_memory_info = get_memory_info,
        .defer_cleanup_begin = defer_begin, .defer_cleanup_end = defer_end};
    return 0;
}

void uf__cuda_mm_default_queue(void *user, size_t *count, size_t *bytes,
                               size_t *flushes)
{
    default_mm *m = user;
    pthread_mutex_lock(&m->lock);
    *count = m->n;
    *bytes = m->bytes;
    *flushes = m->flushes;
    pthread_mutex_unlock(&m->lock);
}
