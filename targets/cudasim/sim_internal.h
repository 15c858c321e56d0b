/* What the pieces of cudasim share: the simulated device's limits, the
 * context check, the memory registry, stream operations and the grid
 * runner. One file per concern implements each part (sim_*.c). */
#ifndef UF_TARGETS_CUDASIM_SIM_INTERNAL_H
#define UF_TARGETS_CUDASIM_SIM_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/sim_abi.h"
#include "targets/cuda/cu_driver.h"

/* ---- the simulated device (an sm_80 with no register limit) ---------- */
#define UF__SIM_DEVICE_NAME "ufjit cudasim"
#define UF__SIM_DRIVER_VERSION 13000
#define UF__SIM_CC_MAJOR 8
#define UF__SIM_CC_MINOR 0
#define UF__SIM_WARP 32
#define UF__SIM_MAX_THREADS 1024      /* per block */
#define UF__SIM_MAX_BLOCK_Z 64
#define UF__SIM_MAX_GRID_X 2147483647u
#define UF__SIM_MAX_GRID_YZ 65535u
#define UF__SIM_SHARED_LIMIT 49152u   /* static + dynamic, per block */
#define UF__SIM_THREADS_PER_SM 2048
#define UF__SIM_BLOCKS_PER_SM 32
#define UF__SIM_SHARED_PER_SM (164u * 1024u)
#define UF__SIM_ALLOC_ALIGN 256       /* as cuMemAlloc's */

/* The multiprocessor count: the threads the block pool runs on (the cores
 * this process may use, UFJIT_NUM_THREADS where set). */
int uf__sim_sm_count(void);

/* ---- init and context (sim_context.c) -------------------------------- */
/* SUCCESS when init was called and this thread's current context is the
 * live primary context; NOT_INITIALIZED or INVALID_CONTEXT otherwise. */
uf__cu_result uf__sim_need_ctx(void);
bool uf__sim_initialized(void);

/* ---- memory registry (sim_memory.c) ---------------------------------- */
typedef enum uf__sim_mem_kind {
    UF__SIM_MEM_DEVICE = 1, /* mem_alloc */
    UF__SIM_MEM_PINNED = 2, /* mem_host_alloc: the simulator owns it */
    UF__SIM_MEM_REGISTERED = 3 /* mem_host_register: the caller owns it */
} uf__sim_mem_kind;

/* SUCCESS when [p, p + n) lies inside one live allocation the device may
 * access (device memory, or pinned host memory: unified addressing); n 0
 * checks nothing. INVALID_VALUE otherwise. */
uf__cu_result uf__sim_mem_check(uf__cu_dptr p, size_t n);
/* The kind of the allocation holding p, 0 when none. */
int uf__sim_mem_kind_of(uf__cu_dptr p);
/* Adds [base, base + size) of `kind` to the registry; `charged` bytes
 * count against the device's memory. OUT_OF_MEMORY when they do not fit
 * or the registry cannot grow, HOST_MEMORY_ALREADY_REGISTERED on
 * overlap. */
uf__cu_result uf__sim_mem_insert(uintptr_t base, size_t size, size_t charged,
                                 uf__sim_mem_kind kind);
/* Removes the allocation starting at base of `kind`; its storage is the
 * caller's to free (*storage: the pointer to free, NULL when it stays
 * alive for an open IPC mapping). `err` is what an unknown base gives. */
uf__cu_result uf__sim_mem_remove(uintptr_t base, uf__sim_mem_kind kind,
                                 uf__cu_result err, void **storage);
/* The device's memory: total (UFJIT_CUDASIM_MEMORY bytes, else physical
 * RAM) and what allocations hold now. */
size_t uf__sim_mem_total(void);
size_t uf__sim_mem_used(void);
/* IPC: the live device allocation holding p (base, serial), a mapping
 * opened from (base, serial) and one closed (sim_memory.c keeps the
 * counts so that a freed allocation lives on while mapped). */
uf__cu_result uf__sim_mem_ipc_find(uf__cu_dptr p, uintptr_t *base,
                                   size_t *size, uint64_t *serial);
uf__cu_result uf__sim_mem_ipc_open(uintptr_t base, uint64_t serial);
/* Closes a mapping: one opened in this process from its own allocation
 * (*storage: the allocation to free when it was freed while mapped), or
 * one imported from another process (*unmap, *unmap_len: the mapping to
 * unmap once its last open is closed). */
uf__cu_result uf__sim_mem_ipc_close(uintptr_t base, void **storage,
                                    void **unmap, size_t *unmap_len);
/* Another process's allocation (pid, serial) mapped here: its address
 * when already open (counted once more), else 0. */
uintptr_t uf__sim_mem_import_find(int64_t pid, uint64_t serial);
/* Registers [base, base + size), mapped at [map, map + map_len), as
 * device memory imported from (pid, serial), opened once; when another
 * thread registered it first, that one is counted and returned, and the
 * caller unmaps its own. 0 when the registry cannot grow. */
uintptr_t uf__sim_mem_import_add(uintptr_t base, size_t size, void *map,
                                 size_t map_len, int64_t pid,
                                 uint64_t serial);

/* ---- device memory's storage (sim_devmem.c) -------------------------- */
/* `bytes` (> 0) of shared memory, 256-byte aligned, or NULL; given back
 * by uf__sim_devmem_free. */
void *uf__sim_devmem_alloc(size_t bytes);
void uf__sim_devmem_free(void *p);
/* The memfd and file offset holding p (an address of a live block). */
bool uf__sim_devmem_locate(uintptr_t p, int *fd, uint64_t *file_off);
void uf__sim_devmem_teardown(void);
/* Frees everything still registered (the context's teardown). */
void uf__sim_mem_teardown(void);

/* ---- stream operations (sim_stream.c) -------------------------------- */
typedef struct uf__sim_op uf__sim_op;
struct uf__sim_op {
    /* does the work; an error becomes the stream's sticky error */
    uf__cu_result (*run)(uf__sim_op *op);
    /* NULL, or what becomes visible as the op leaves its queue (called
     * under the streams' lock, so that a finished event and an idle
     * stream are seen together) */
    void (*complete)(uf__sim_op *op);
    void (*release)(uf__sim_op *op); /* frees op */
    uf__sim_op *next;
    uint64_t ticket; /* enqueue order, for the legacy stream's ordering */
};
/* Runs op on stream s in order: queued for s's worker (SUCCESS at once),
 * or on NULL, the legacy default stream, now on the caller's thread after
 * all earlier work of the blocking streams, returning its result. op is
 * released either way (also when s is not a stream: INVALID_HANDLE). */
uf__cu_result uf__sim_submit(uf__cu_stream s, uf__sim_op *op);
/* Waits until every stream is idle without taking their errors (what
 * frees of memory the queued work may use wait for, as cuMemFree
 * synchronizes). */
void uf__sim_streams_drain(void);
/* The global lock and condition of streams and events. */
void uf__sim_lock(void);
void uf__sim_unlock(void);
void uf__sim_wait(void);
void uf__sim_broadcast(void);
/* Destroys every stream and event (the context's teardown). */
void uf__sim_streams_teardown(void);
void uf__sim_events_teardown(void);
/* The event op's parts (sim_event.c) the stream code runs. */
bool uf__sim_stream_valid(uf__cu_stream s); /* under the lock */

/* ---- modules (sim_module.c) ------------------------------------------ */
/* The kernel behind a function handle, NULL when f is not one. */
const uf__sim_kernel *uf__sim_func_kernel(uf__cu_func f);
void uf__sim_modules_teardown(void);

/* ---- grids (sim_pool.c) and blocks (sim_block.c) --------------------- */
typedef struct uf__sim_grid {
    uf__sim_kernel_fn fn;
    void **params;
    uint32_t grid[3], block[3];
    size_t shared_bytes; /* static + dynamic */
    uint64_t nblocks;
    /* the pool's bookkeeping */
    uint64_t next, done;
    uf__cu_result error;
    struct uf__sim_grid *queue_next;
} uf__sim_grid;

/* Runs every block of g on the block pool; returns when all ran. */
uf__cu_result uf__sim_run_grid(uf__sim_grid *g);
void uf__sim_pool_teardown(void);

/* One pool worker's block runner: its fibers, thread states and shared
 * memory, reused from block to block. */
typedef struct uf__sim_runner uf__sim_runner;
uf__sim_runner *uf__sim_runner_new(void);
void uf__sim_runner_free(uf__sim_runner *r);
/* Runs block `linear` of g (x fastest) to completion on this thread. */
uf__cu_result uf__sim_runner_block(uf__sim_runner *r, const uf__sim_grid *g,
                                   uint64_t linear);

#endif
