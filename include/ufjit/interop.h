/* Sharing arrays with other libraries without copies: the CUDA Array
 * Interface v3 (CuPy, Numba, RMM, PyTorch's __cuda_array_interface__) and
 * DLPack 1.1 (every array library's __dlpack__), produced and consumed.
 *
 * Streams. Both protocols name a CUDA stream as an integer: 1 is the
 * legacy default stream, 2 the per-thread default stream (on cudasim,
 * which has one default stream, both are the legacy one), 0 is refused as
 * ambiguous, any other value is a CUstream handle of the same target.
 * Making another stream's work visible never synchronises the host: an
 * event is recorded on the producer's stream and the consumer's stream
 * waits for it (cuStreamWaitEvent), so these calls return while the work
 * still runs.
 *
 * The JSON/dict and PyCapsule shapes are the Python package's; the C
 * structs here carry everything those hold. */
#ifndef UFJIT_INTEROP_H
#define UFJIT_INTEROP_H

#include <stdbool.h>
#include <stdint.h>
#include <ufjit/array.h>
#include <ufjit/cuda.h>
#include <ufjit/dlpack.h>

/* The reference dlpack.h declares the versioned tensor as a struct tag
 * only; repeating the typedef is valid C11 and C++ whichever came first. */
typedef struct DLManagedTensorVersioned DLManagedTensorVersioned;

UF_BEGIN_DECLS

enum {
    UF_INTEROP_STREAM_LEGACY = 1,
    UF_INTEROP_STREAM_PER_THREAD = 2
};

/* ---- streams ------------------------------------------------------------ */

/* The driver's handle of s (a CUstream as an integer), as CAI's "stream"
 * and __dlpack__(stream=) name it; UF_INTEROP_STREAM_LEGACY for NULL. */
UF_EXPORT intptr_t uf_stream_handle(const uf_stream *s);

/* numba.cuda.external_stream: a uf_stream over a CUstream someone else
 * created (or 1 / 2, the default streams) on `target`. uf_stream_destroy
 * frees the wrapper only; the stream must outlive it. */
UF_EXPORT uf_stream *uf_stream_external(const char *target, intptr_t handle,
                                        uf_error *err);

/* Makes `consumer` (NULL: the legacy default stream) wait, without a host
 * synchronise, for the work queued so far on stream value `producer` of
 * `target` (1, 2 or a CUstream; 0 refused). Equal streams need nothing. */
UF_EXPORT int uf_stream_wait_foreign(const char *target, intptr_t producer,
                                     uf_stream *consumer, uf_error *err);

/* ---- CUDA Array Interface v3 -------------------------------------------- */

typedef struct uf_cai {
    int version;      /* 3 on export; 0 to 3 accepted on import */
    char typestr[8];  /* NumPy's array-interface typestring: "<f8", "|b1" */
    int ndim;
    int64_t shape[UF_MAXDIMS];
    bool has_strides; /* false: "strides" absent or None (C-contiguous) */
    int64_t strides[UF_MAXDIMS]; /* bytes */
    uintptr_t data;   /* the device pointer (may be 0 for no elements) */
    bool readonly;
    bool has_mask;    /* a "mask" was given (never on export) */
    bool has_stream;  /* false: "stream" absent or None: no synchronising */
    intptr_t stream;  /* 1, 2, or a CUstream; 0 is refused on import */
} uf_cai;

/* a.__cuda_array_interface__ for device array `a` (views, negative and
 * zero strides included): "stream" is the array's default stream
 * (uf_array_stream), absent when it has none, as work on the legacy stream
 * through ufjit is synchronous. A mapped array gives the device's address
 * of its memory (as numba's MappedNDArray); other host arrays, pinned
 * ones included, are refused. The description is valid while `a` is. */
UF_EXPORT int uf_array_to_cai(const uf_array *a, uf_cai *out, uf_error *err);

/* A device array of `target` over the memory a CAI description names,
 * without copying. `keepalive(ctx, data)` runs once, when the last view of
 * the result is released, after the context's queued work (not when the
 * import fails: the caller still owns the producer). A "readonly"
 * description gives an array whose writes are refused, by kernels and
 * copies alike, and that cannot be made writeable; a mask is refused, and
 * so (unlike NumPy) are a pointer or strides not aligned for the item.
 * With a "stream", `consumer` (NULL: the legacy default stream) is made to
 * wait for it as uf_stream_wait_foreign does; `consumer` becomes the
 * array's default stream. */
UF_EXPORT uf_array *uf_array_from_cai(const uf_cai *cai, const char *target,
                                      uf_stream *consumer,
                                      uf_release_fn keepalive, void *ctx,
                                      uf_error *err);

/* ---- DLPack 1.1 ---------------------------------------------------------- */

/* What a consumer asks of __dlpack__. A zero-initialised request is
 * stream None, copy 0 (never), the array's own device; a NULL one (and
 * uf_array_to_dlpack) is __dlpack__() with no arguments: copy -1. */
typedef struct uf_dlpack_request {
    /* __dlpack__(stream=): has_stream false is None (for a device array:
     * the legacy default stream; for pinned memory (kDLCUDAHost): no
     * synchronising); -1 asks for no synchronising; 0 is refused; 1, 2 or
     * a CUstream wait for the array's default stream; host (kDLCPU)
     * exports accept only None / -1 */
    bool has_stream;
    intptr_t stream;
    /* copy=: -1 (None) only when needed, 0 never (an error if needed), 1
     * always; a copy sets DLPACK_FLAG_BITMASK_IS_COPIED */
    int copy;
    /* dl_device=: the array's own device, or kDLCPU: a copy for a device
     * array (waited for), the same memory for a pinned one; others are
     * refused */
    bool has_device;
    DLDevice device;
} uf_dlpack_request;

/* a as a DLPack 1.1 tensor for host (kDLCPU), pinned or mapped
 * (kDLCUDAHost) and device (kDLCUDA) arrays, strides in elements;
 * read-only arrays set DLPACK_FLAG_BITMASK_READ_ONLY. `a` (or the copy)
 * stays alive until the tensor's deleter runs, which may be from any
 * thread. */
UF_EXPORT int uf_array_to_dlpack(uf_array *a, DLManagedTensorVersioned **out,
                                 uf_error *err);
/* The same with the consumer's request: its stream is made to wait for
 * a's pending work (the stream handshake), a copy is made where asked or
 * needed. */
UF_EXPORT int uf_array_to_dlpack_ex(uf_array *a,
                                    const uf_dlpack_request *request,
                                    DLManagedTensorVersioned **out,
                                    uf_error *err);
/* For consumers that give no max_version: the unversioned tensor, which
 * has no flags: a read-only array is refused (as NumPy does) unless the
 * request asks for a copy. */
UF_EXPORT int uf_array_to_dlpack_legacy(uf_array *a,
                                        const uf_dlpack_request *request,
                                        DLManagedTensor **out, uf_error *err);

/* An array over a DLPack tensor's memory, without copying. Takes
 * ownership of t: its deleter runs exactly once, when the last view of
 * the result is released, or before returning when the import fails (a
 * major version other than DLPACK_MAJOR_VERSION: only the deleter is
 * called). READ_ONLY gives an array that cannot be made writeable. A
 * CUDA tensor becomes an array of `cuda` (or cudasim, for memory cudasim
 * owns). */
UF_EXPORT uf_array *uf_array_from_dlpack(DLManagedTensorVersioned *t,
                                         uf_error *err);
/* The unversioned DLManagedTensor of DLPack before 1.0. */
UF_EXPORT uf_array *uf_array_from_dlpack_legacy(DLManagedTensor *t,
                                                uf_error *err);

UF_END_DECLS

#endif
