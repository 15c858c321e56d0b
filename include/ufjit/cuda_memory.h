/* CUDA memory managers: who allocates and frees the memory behind device,
 * pinned and mapped arrays (and ufjit's own scratch buffers), per target
 * (`cuda`, `cudasim`; NULL means "cuda").
 *
 * The default manager is Numba's: memory is allocated at once and freed
 * later, in batches. A freed buffer goes to a pending queue, flushed (each
 * entry given to cuMemFree / cuMemFreeHost) when it holds more than
 * UFJIT_CUDA_MAX_PENDING_DEALLOCS_COUNT entries (default 10) or more than
 * UFJIT_CUDA_MAX_PENDING_DEALLOCS_RATIO (default 0.2) x the device's total
 * memory in bytes (pinned, unmapped host memory counts as 0 bytes, as in
 * Numba). An allocation that fails for lack of memory flushes the queue
 * and tries once more. Between uf_cuda_defer_cleanup_begin and _end (they
 * nest) nothing is freed: a run of asynchronous work is never broken by
 * cuMemFree, which waits for the whole device.
 *
 * An external memory manager (EMM) replaces it: a table of functions,
 * versioned, given before the target's first allocation
 * (uf_cuda_set_memory_manager) or named by the environment as
 * UFJIT_CUDA_MEMORY_MANAGER=/path/plugin.so:symbol, the symbol being a
 * uf_cuda_mm_factory. The default manager is itself such a table. Unlike
 * Numba's EMM interface, every call is given the stream the memory is
 * used on, so that a pool can reuse memory in stream order.
 * examples/emm/ has two plug-ins: a pool and a counting/limiting one. */
#ifndef UFJIT_CUDA_MEMORY_H
#define UFJIT_CUDA_MEMORY_H

#include <stddef.h>
#include <stdint.h>
#include <ufjit/error.h>

UF_BEGIN_DECLS

/* The interface version this ufjit speaks; a table of another version is
 * refused. */
#define UF_CUDA_MM_INTERFACE_VERSION 1

/* A driver stream (CUstream; NULL: the legacy default stream) and event
 * (CUevent) as the plug-in's driver services take them. */
typedef void *uf_cuda_mm_stream;
typedef void *uf_cuda_mm_event;

/* CUipcMemHandle */
typedef struct uf_cuda_ipc_handle {
    char reserved[64];
} uf_cuda_ipc_handle;

/* memhostalloc flags (cuMemHostAlloc's values) and mempin's */
enum {
    UF_CUDA_MM_HOST_PORTABLE = 0x01,
    UF_CUDA_MM_HOST_MAPPED = 0x02,
    UF_CUDA_MM_HOST_WRITECOMBINED = 0x04
};

/* The driver a manager runs on, lent to it by ufjit (the real driver or
 * cudasim, so that one plug-in serves both). Each entry returns the
 * CUresult of the Driver API call named in its comment (0: success, 2:
 * out of memory) and takes the table itself first. */
typedef struct uf_cuda_mm_driver uf_cuda_mm_driver;
struct uf_cuda_mm_driver {
    const char *target; /* "cuda" or "cudasim" */
    size_t total_mem;   /* the device's, in bytes */
    int (*mem_alloc)(const uf_cuda_mm_driver *d, uint64_t *p, size_t bytes);
    int (*mem_free)(const uf_cuda_mm_driver *d, uint64_t p);
    int (*mem_get_info)(const uf_cuda_mm_driver *d, size_t *free_bytes,
                        size_t *total_bytes);
    int (*mem_host_alloc)(const uf_cuda_mm_driver *d, void **p, size_t bytes,
                          unsigned flags);
    int (*mem_free_host)(const uf_cuda_mm_driver *d, void *p);
    int (*mem_host_register)(const uf_cuda_mm_driver *d, void *p,
                             size_t bytes, unsigned flags);
    int (*mem_host_unregister)(const uf_cuda_mm_driver *d, void *p);
    int (*event_create)(const uf_cuda_mm_driver *d, uf_cuda_mm_event *e);
    int (*event_record)(const uf_cuda_mm_driver *d, uf_cuda_mm_event e,
                        uf_cuda_mm_stream s);
    int (*event_query)(const uf_cuda_mm_driver *d, uf_cuda_mm_event e);
    int (*event_destroy)(const uf_cuda_mm_driver *d, uf_cuda_mm_event e);
    int (*stream_wait_event)(const uf_cuda_mm_driver *d, uf_cuda_mm_stream s,
                             uf_cuda_mm_event e);
    int (*ipc_get_mem_handle)(const uf_cuda_mm_driver *d,
                              uf_cuda_ipc_handle *h, uint64_t p);
    int (*ipc_open_mem_handle)(const uf_cuda_mm_driver *d, uint64_t *p,
                               const uf_cuda_ipc_handle *h);
    int (*ipc_close_mem_handle)(const uf_cuda_mm_driver *d, uint64_t p);
    /* the driver's name of a CUresult ("CUDA_ERROR_OUT_OF_MEMORY") */
    const char *(*error_name)(const uf_cuda_mm_driver *d, int rc);
    void *impl; /* ufjit's */
};

/* A memory manager. Every method takes the table's `user` pointer first
 * and `err` last, returns 0 or a UF_ERR_* code with err filled in
 * (message and code; UF_ERR_NOMEM for lack of memory, UF_ERR_UNSUPPORTED
 * for "not implemented"), and is given the stream the memory is (or was)
 * used on (NULL: the legacy default stream, or none in particular).
 * Methods may be NULL where marked optional. ufjit serialises no calls:
 * a manager used from several host threads locks what it shares. */
typedef struct uf_cuda_memory_manager {
    int interface_version; /* UF_CUDA_MM_INTERFACE_VERSION */
    const char *name;      /* for messages */
    void *user;

    /* Called before first use on a context, and possibly again (must be
     * idempotent); `drv` lives as long as the process. */
    int (*initialize)(void *user, const uf_cuda_mm_driver *drv,
                      uf_error *err);
    /* Frees everything it holds (pending frees, pooled memory); may be
     * called before initialize (optional). */
    int (*reset)(void *user, uf_error *err);
    /* Called once when ufjit stops using the table (optional). */
    void (*destroy)(void *user);

    /* Device memory: `bytes` > 0; *p a device address. */
    int (*memalloc)(void *user, size_t bytes, uf_cuda_mm_stream s,
                    uint64_t *p, uf_error *err);
    /* Gives back memory memalloc returned (it may be reused for work on
     * `s` at once, on other streams only once `s` has reached this
     * point). */
    int (*memfree)(void *user, uint64_t p, size_t bytes, uf_cuda_mm_stream s,
                   uf_error *err);

    /* Page-locked host memory (UF_CUDA_MM_HOST_* flags) and its release
     * (optional, both or neither: without them ufjit's driver services
     * serve it directly). Mapped memory's device address is the driver's
     * cuMemHostGetDevicePointer. */
    int (*memhostalloc)(void *user, size_t bytes, unsigned flags,
                        uf_cuda_mm_stream s, void **p, uf_error *err);
    int (*memhostfree)(void *user, void *p, size_t bytes, unsigned flags,
                       uf_cuda_mm_stream s, uf_error *err);
    /* Page-locks memory someone else owns (flags: UF_CUDA_MM_HOST_MAPPED,
     * _PORTABLE), and unlocks it; unpinning is immediate (optional, both
     * or neither, as above). */
    int (*mempin)(void *user, void *p, size_t bytes, unsigned flags,
                  uf_cuda_mm_stream s, uf_error *err);
    int (*memunpin)(void *user, void *p, size_t bytes, uf_cuda_mm_stream s,
                    uf_error *err);

    /* IPC (optional): a handle of the allocation holding p (*offset: p's
     * offset into it), opening one in another process, closing it. */
    int (*get_ipc_handle)(void *user, uint64_t p, size_t bytes,
                          uf_cuda_mm_stream s, uf_cuda_ipc_handle *h,
                          size_t *offset, uf_error *err);
    int (*open_ipc_handle)(void *user, const uf_cuda_ipc_handle *h,
                           uf_cuda_mm_stream s, uint64_t *p, uf_error *err);
    int (*close_ipc_handle)(void *user, uint64_t p, uf_cuda_mm_stream s,
                            uf_error *err);

    /* Free and total bytes; UF_ERR_UNSUPPORTED where that means nothing
     * (a pool) (optional: NULL says the same). */
    int (*get_memory_info)(void *user, size_t *free_bytes,
                           size_t *total_bytes, uf_cuda_mm_stream s,
                           uf_error *err);
    /* Nested: between begin and the matching end, no call may free memory
     * or otherwise wait for the device (optional). */
    int (*defer_cleanup_begin)(void *user, uf_cuda_mm_stream s,
                               uf_error *err);
    int (*defer_cleanup_end)(void *user, uf_cuda_mm_stream s, uf_error *err);
} uf_cuda_memory_manager;

/* What UFJIT_CUDA_MEMORY_MANAGER's symbol is: fills *out with a new
 * manager for one target (`drv->target`) of a ufjit speaking
 * `interface_version`. The table is copied; out->user is the manager's
 * state, released by out->destroy. */
typedef int (*uf_cuda_mm_factory)(int interface_version,
                                  uf_cuda_memory_manager *out,
                                  uf_error *err);

/* A C plug-in's table from "path/to/plugin.so:factory" as
 * UFJIT_CUDA_MEMORY_MANAGER names one: the library loaded (and kept
 * loaded), the factory called, the table validated. UF_ERR_NOT_FOUND for
 * a library or symbol that is not there. Install it with
 * uf_cuda_set_memory_manager (which owns it then; on failure call its
 * destroy). */
UF_EXPORT int uf_cuda_memory_manager_load(const char *spec,
                                          uf_cuda_memory_manager *out,
                                          uf_error *err);

/* Installs `mm` (copied; mm->user must outlive its use) as target's
 * memory manager; NULL goes back to the default one. UF_ERR_INVALID once
 * the target has allocated memory (until uf_cuda_memory_reset), for a
 * version other than UF_CUDA_MM_INTERFACE_VERSION, or a table without
 * memalloc/memfree. The table's initialize runs here. */
UF_EXPORT int uf_cuda_set_memory_manager(const char *target,
                                         const uf_cuda_memory_manager *mm,
                                         uf_error *err);

/* Numba's cuda.defer_cleanup() as a begin/end pair: nested, counted per
 * target; nothing is freed until the outermost end. An end without a
 * begin is UF_ERR_INVALID. */
UF_EXPORT int uf_cuda_defer_cleanup_begin(const char *target, uf_error *err);
UF_EXPORT int uf_cuda_defer_cleanup_end(const char *target, uf_error *err);

/* Frees what the default manager's queue holds (nothing while cleanup is
 * deferred). Reports, as uf_cuda_memory_take_error does, the first free
 * that failed since the last report. */
UF_EXPORT int uf_cuda_memory_flush(const char *target, uf_error *err);

/* A failed free (cuMemFree's error, a plug-in's memfree error) happens
 * where nothing can report it: the release of an array, a flush started
 * by another free. It cancels none of the other frees; the first one is
 * kept (sticky) and reported here, then forgotten: 0 when none failed,
 * else its code and message in err. */
UF_EXPORT int uf_cuda_memory_take_error(const char *target, uf_error *err);

/* Numba's Context.reset for memory: flushes the queue, calls the
 * manager's reset, and lets uf_cuda_set_memory_manager choose again.
 * UF_ERR_INVALID while memory the manager handed out is still in use
 * (the count in uf_cuda_memory_stats; ufjit's own scratch buffers of the
 * legacy stream are released here). */
UF_EXPORT int uf_cuda_memory_reset(const char *target, uf_error *err);

/* Counters of target's memory manager. */
typedef struct uf_cuda_memory_stats {
    const char *manager;     /* its name: "default" or the plug-in's */
    size_t live_allocations; /* handed out, not given back */
    size_t live_bytes;
    size_t pending_count;    /* the default manager's queue */
    size_t pending_bytes;
    size_t flushes;          /* queue flushes that freed something */
    size_t failed_frees;
    int defer_depth;
} uf_cuda_memory_stats;
UF_EXPORT int uf_cuda_memory_stats_get(const char *target,
                                       uf_cuda_memory_stats *out,
                                       uf_error *err);

/* Free and total device memory as the manager reports it (Numba's
 * get_memory_info): UF_ERR_UNSUPPORTED where it cannot say. */
UF_EXPORT int uf_cuda_memory_info(const char *target, size_t *free_bytes,
                                  size_t *total_bytes, uf_error *err);

UF_END_DECLS

#endif
