/* The memory manager of each CUDA runtime (ufjit/cuda_memory.h): every
 * allocation and free of device, pinned and mapped memory made for ufjit
 * goes through here, to the manager's table (the default one, or a
 * plug-in), checked on the way back: a plug-in returning NULL without an
 * error, handing out an address still in use or failing without saying
 * why gets a clear error, never a crash.
 *
 * Frees report nothing to their caller (they run from array releases):
 * a failure is kept as the runtime's sticky error
 * (uf_cuda_memory_take_error). A free may be given memory that queued
 * work on its stream still uses: the default manager frees it through
 * cuMemFree, which waits for the device (cudasim's drains every stream),
 * a plug-in in stream order. */
#ifndef UF_TARGETS_CUDA_CUDA_MM_H
#define UF_TARGETS_CUDA_CUDA_MM_H

#include <ufjit/cuda_memory.h>

#include "targets/cuda/cuda_runtime.h"

/* Device memory of `bytes` (> 0) for work on stream s. */
int uf__cuda_mm_alloc(const uf__cuda_rt *rt, size_t bytes, uf__cu_stream s,
                      uf__cu_dptr *p, uf_error *err);
void uf__cuda_mm_free(const uf__cuda_rt *rt, uf__cu_dptr p, size_t bytes,
                      uf__cu_stream s);

/* Page-locked host memory (UF_CUDA_MM_HOST_* flags); mapped memory's
 * device address in *dptr (else 0). */
int uf__cuda_mm_host_alloc(const uf__cuda_rt *rt, size_t bytes,
                           unsigned flags, uf__cu_stream s, void **p,
                           uf__cu_dptr *dptr, uf_error *err);
void uf__cuda_mm_host_free(const uf__cuda_rt *rt, void *p, size_t bytes,
                           unsigned flags, uf__cu_stream s);

/* Page-locks (and with UF_CUDA_MM_HOST_MAPPED maps: *dptr) memory the
 * caller owns; unpin undoes it at once. */
int uf__cuda_mm_pin(const uf__cuda_rt *rt, void *p, size_t bytes,
                    unsigned flags, uf__cu_stream s, uf__cu_dptr *dptr,
                    uf_error *err);
int uf__cuda_mm_unpin(const uf__cuda_rt *rt, void *p, size_t bytes,
                      uf__cu_stream s, uf_error *err);

/* IPC through the manager: a handle of device memory p it handed out
 * (*offset into its allocation), opening and closing a handle. */
int uf__cuda_mm_ipc_get(const uf__cuda_rt *rt, uf__cu_dptr p, size_t bytes,
                        uf__cu_stream s, uf_cuda_ipc_handle *h,
                        size_t *offset, uf_error *err);
int uf__cuda_mm_ipc_open(const uf__cuda_rt *rt, const uf_cuda_ipc_handle *h,
                         uf__cu_stream s, uf__cu_dptr *p, uf_error *err);
int uf__cuda_mm_ipc_close(const uf__cuda_rt *rt, uf__cu_dptr p,
                          uf__cu_stream s, uf_error *err);

/* Keeps a failure no caller can be told of (an unpin or an IPC close
 * when an array is released) as rt's sticky error
 * (uf_cuda_memory_take_error). */
void uf__cuda_mm_keep_error(const uf__cuda_rt *rt, const uf_error *err);

/* The driver services lent to rt's managers (cuda_mm_driver.c), and a
 * failed call's error as uf__cuda_check sets it. */
void uf__cuda_mm_driver_init(uf_cuda_mm_driver *d, const uf__cuda_rt *rt);
int uf__cuda_mm_driver_check(const uf_cuda_mm_driver *d, int rc,
                             const char *what, uf_error *err);

/* The default manager (cuda_mm_default.c): a new instance's table for
 * driver d's runtime, and what its queue holds. */
int uf__cuda_mm_default_new(uf_cuda_memory_manager *out, uf_error *err);
void uf__cuda_mm_default_queue(void *user, size_t *count, size_t *bytes,
                               size_t *flushes);

/* Keeps a free that failed where nobody could be told (the default
 * manager's flushes) as d's runtime's sticky error. */
void uf__cuda_mm_note_failure(const uf_cuda_mm_driver *d,
                              const uf_error *err);

#endif
