/* CUDA device arrays and streams, on the `cuda` target (a GPU through the
 * driver, or the simulator when UFJIT_ENABLE_CUDASIM=1) and the `cudasim`
 * target (always the simulator). `target` arguments name one of the two;
 * NULL means "cuda". Without a driver or a device every call fails with
 * UF_ERR_NO_DEVICE and the reason; nothing else in ufjit is affected.
 *
 * A device array is a uf_array whose uf_array_device() is
 * {UF_DEVICE_CUDA, n}: uf_array_data() gives the device pointer, views and
 * slicing work without copies, and functions that read elements on the
 * host (printing, saving, copies, host kernels) refuse it with an error. */
#ifndef UFJIT_CUDA_H
#define UFJIT_CUDA_H

#include <stdbool.h>
#include <stdint.h>
#include <ufjit/array.h>

UF_BEGIN_DECLS

/* A CUDA stream: operations on one run in order; operations given no
 * stream (NULL) run on the legacy default stream and are synchronous. */
typedef struct uf_stream uf_stream;

UF_EXPORT uf_stream *uf_stream_create(const char *target, uf_error *err);
/* Waits for everything queued on s. */
UF_EXPORT int uf_stream_synchronize(uf_stream *s, uf_error *err);
/* Waits for s, then frees it; NULL is ignored. */
UF_EXPORT void uf_stream_destroy(uf_stream *s);

/* A CUDA event (numba.cuda.event): recorded on a stream, it completes once
 * the work queued there before it has run. `timing` events can be timed
 * against each other. */
typedef struct uf_event uf_event;

UF_EXPORT uf_event *uf_event_create(const char *target, bool timing,
                                    uf_error *err);
/* Records e on s (NULL: the legacy default stream). */
UF_EXPORT int uf_event_record(uf_event *e, uf_stream *s, uf_error *err);
/* 1 when the work before e's last record has run (or e was never
 * recorded), 0 when not yet, a negative code on error. */
UF_EXPORT int uf_event_query(uf_event *e, uf_error *err);
/* Waits on the host for e. */
UF_EXPORT int uf_event_synchronize(uf_event *e, uf_error *err);
/* Work queued on s (NULL: legacy) from now on waits for e, on the device:
 * the host does not wait. */
UF_EXPORT int uf_stream_wait_event(uf_stream *s, uf_event *e, uf_error *err);
/* Milliseconds from start to end, both timing events recorded and done
 * (UF_ERR_... from the driver otherwise). */
UF_EXPORT int uf_event_elapsed_ms(uf_event *start, uf_event *end, float *ms,
                                  uf_error *err);
/* NULL is ignored. */
UF_EXPORT void uf_event_destroy(uf_event *e);

/* An uninitialised device array (order C or F). */
UF_EXPORT uf_array *uf_device_array(uf_dtype dtype, int ndim,
                                    const int64_t *shape, uf_order order,
                                    const char *target, uf_error *err);
/* One of a's dtype and shape on a's device (or, for a host array, on
 * `cuda`), F-ordered when a is F- and not C-contiguous. */
UF_EXPORT uf_array *uf_device_array_like(const uf_array *a, uf_error *err);

/* numba.cuda.to_device: a new device array holding a copy of host array
 * `a` (a non-contiguous `a` is made C-contiguous first). With a stream
 * the copy is asynchronous on it and becomes the array's default stream:
 * `a` must stay alive and unchanged until the stream is synchronised. */
UF_EXPORT uf_array *uf_to_device(const uf_array *a, const char *target,
                                 uf_stream *stream, uf_error *err);
/* Copies host array `src` into device array `dst` (same dtype and shape;
 * dst contiguous). Asynchronous on `stream` when given. */
UF_EXPORT int uf_copy_to_device(uf_array *dst, const uf_array *src,
                                uf_stream *stream, uf_error *err);
/* DeviceNDArray.copy_to_host: device array `a` copied into host array
 * `out` (same dtype and shape) or, when out is NULL, into a new
 * C-contiguous host array, which is returned (out is returned with a
 * reference added). Views of any strides are copied. Waits for the copy
 * unless `stream` is given and both a and the result are contiguous in
 * the same order: then the result is complete once the stream is
 * synchronised. */
UF_EXPORT uf_array *uf_copy_to_host(const uf_array *a, uf_array *out,
                                    uf_stream *stream, uf_error *err);

/* A host array in page-locked memory (faster, asynchronous copies). */
UF_EXPORT uf_array *uf_pinned_array(uf_dtype dtype, int ndim,
                                    const int64_t *shape, uf_order order,
                                    const char *target, uf_error *err);
/* A host array in page-locked memory mapped into the device's address
 * space: kernels on `target` read and write it in place, without
 * copies. */
UF_EXPORT uf_array *uf_mapped_array(uf_dtype dtype, int ndim,
                                    const int64_t *shape, uf_order order,
                                    const char *target, uf_error *err);

/* numba.cuda.pinned / cuda.mapped for one array: page-locks the memory
 * host array `a` spans (any strides) until the returned array is
 * released. Not mapped: a host view of `a` (same data, shape, strides and
 * flags) holding the pin, a source or destination of fast, asynchronous
 * copies. Mapped: a device array over the same memory as the device
 * addresses it, which kernels on `target` read and write in place. Either
 * keeps `a` alive; the memory is unpinned (the memory manager's
 * memunpin) exactly once, when the last view of the result is released,
 * which must come after the work using it is done. An empty `a` pins
 * nothing. UF_ERR_INVALID for a device array or memory already pinned. */
UF_EXPORT uf_array *uf_pin_array(uf_array *a, bool mapped,
                                 const char *target, uf_error *err);

/* Numba's IpcArrayHandle: what another process needs to open a device
 * array made by ufjit, a plain struct to send through a pipe or a file.
 * `handle` is the driver's (cuIpcGetMemHandle's, through the memory
 * manager's get_ipc_handle) and `offset` the array's first element from
 * the start of the memory it maps; the array's elements lie inside
 * [0, size) of it. */
#define UF_CUDA_IPC_ARRAY_MAGIC 0x75664970u /* "ufIp" */
typedef struct uf_cuda_ipc_array_handle {
    uint32_t magic;    /* UF_CUDA_IPC_ARRAY_MAGIC */
    int32_t dtype;     /* a uf_dtype */
    int32_t ndim;
    int32_t simulated; /* 1: made by cudasim (opened only there) */
    int64_t pid;       /* the process that made it */
    uint64_t offset;
    uint64_t size;
    int64_t shape[UF_MAXDIMS];
    int64_t strides[UF_MAXDIMS]; /* in bytes */
    char handle[64];             /* CUipcMemHandle */
} uf_cuda_ipc_array_handle;

/* DeviceNDArray.get_ipc_handle: a handle of device array `a` (any view of
 * an array made by this header's functions). `a` must stay alive until
 * the other process has closed it. UF_ERR_UNSUPPORTED for a memory
 * manager without IPC or memory ufjit did not allocate. */
UF_EXPORT int uf_cuda_ipc_get(const uf_array *a,
                              uf_cuda_ipc_array_handle *out, uf_error *err);
/* IpcArrayHandle.open: the array behind `h` as a device array of this
 * process on `target`; the mapping is closed (the manager's
 * close_ipc_handle) exactly once, when the last view of it is released.
 * A GPU's driver refuses to open a handle in the process that made it
 * (UF_ERR_INVALID); cudasim opens it there too. A damaged handle is
 * UF_ERR_INVALID. */
UF_EXPORT uf_array *uf_cuda_ipc_open(const uf_cuda_ipc_array_handle *h,
                                     const char *target, uf_error *err);

/* The default stream of an array made by this header's functions (views
 * share their base's), or NULL. */
UF_EXPORT uf_stream *uf_array_stream(const uf_array *a);
/* Sets it (NULL: the legacy default stream). UF_ERR_INVALID for arrays
 * not made by this header's functions. The stream must outlive the
 * array's use of it. */
UF_EXPORT int uf_array_set_stream(uf_array *a, uf_stream *s, uf_error *err);

UF_END_DECLS

#endif
