/* Memory of the CUDA targets that backs uf_arrays: device buffers, pinned
 * and mapped host buffers. Each is the release context of the uf_array
 * owning it, so that any view finds its buffer (uf__cuda_buffer_of).
 * Allocation and release go through the runtime's memory manager
 * (cuda_mm.h): the default one with deferred deallocation, or a
 * plug-in. */
#ifndef UF_TARGETS_CUDA_CUDA_MEMORY_H
#define UF_TARGETS_CUDA_CUDA_MEMORY_H

#include <ufjit/cuda.h>

#include "targets/cuda/cuda_runtime.h"

typedef enum uf__cuda_mem_kind {
    UF__CUDA_MEM_DEVICE = 1,
    UF__CUDA_MEM_PINNED, /* page-locked host memory */
    UF__CUDA_MEM_MAPPED, /* page-locked and mapped: `dptr` is its address
                            on the device */
    UF__CUDA_MEM_BORROWED /* memory the buffer did not allocate (another
                             library's through CAI or DLPack, a pinned host
                             array, an opened IPC mapping): given back by
                             `drop` */
} uf__cuda_mem_kind;

typedef struct uf__cuda_buffer {
    const uf__cuda_rt *rt;
    uf__cuda_mem_kind kind;
    uf__cu_dptr dptr; /* device memory, or the device's view of mapped */
    void *host;       /* pinned and mapped memory */
    size_t bytes;
    uf_stream *stream; /* the arrays' default stream (borrowed), or NULL */
    uint64_t stream_serial; /* stream's, to tell it from a later one at
                               the same address (uf__cuda_stream_alive) */
    /* BORROWED: undoes the borrowing, once, called (drop_ctx, data) */
    uf_release_fn drop;
    void *drop_ctx;
} uf__cuda_buffer;

struct uf_stream {
    const uf__cuda_rt *rt;
    uf__cu_stream s;
    struct uf__cuda_scratch *scratch; /* cuda_scratch.h */
    uint64_t serial; /* unique per process, never 0 */
    bool external; /* wraps a driver stream someone else made (or the
                      legacy one): uf_stream_destroy leaves it alone */
};

/* A uf_stream over driver stream s of rt that ufjit did not create
 * (interop/'s uf_stream_external); destroying it frees the wrapper. */
uf_stream *uf__cuda_stream_wrap(const uf__cuda_rt *rt, uf__cu_stream s,
                                uf_error *err);

/* s (made with `serial`) is still alive: not destroyed. NULL is not. */
bool uf__cuda_stream_alive(const uf_stream *s, uint64_t serial);

/* Sets b's default stream. */
void uf__cuda_buffer_set_stream(uf__cuda_buffer *b, uf_stream *s);

/* An array over a new buffer of `kind` holding `dtype` and `shape` in
 * `order` (C or F); device arrays get device {CUDA, 0}. */
uf_array *uf__cuda_array_new(const uf__cuda_rt *rt, uf__cuda_mem_kind kind,
                             uf_dtype dtype, int ndim, const int64_t *shape,
                             uf_order order, uf_error *err);

/* The same, its memory allocated for work on `stream` (which becomes its
 * default stream). */
uf_array *uf__cuda_array_new_on(const uf__cuda_rt *rt,
                                uf__cuda_mem_kind kind, uf_dtype dtype,
                                int ndim, const int64_t *shape,
                                uf_order order, uf_stream *stream,
                                uf_error *err);

/* An array over memory someone else owns (`data`, device memory when
 * `device`; byte `strides`, NULL: C-contiguous), whose buffer calls
 * drop(ctx, data) once, when the last view is released (it unpins, closes
 * a mapping, hands an import back), after the context's queued work, as
 * cuMemFree waits: the owner may free or reuse the memory at once. On
 * failure drop is not called: the caller still owns what it borrowed. */
uf_array *uf__cuda_array_borrow(const uf__cuda_rt *rt, bool device,
                                uf_dtype dtype, int ndim,
                                const int64_t *shape, const int64_t *strides,
                                void *data, bool writeable,
                                uf_release_fn drop, void *ctx,
                                uf_error *err);

/* A device array of rt over another library's device memory (a CAI or
 * DLPack import), `stream` its default stream (may be NULL): a borrowed
 * array whose drop is keepalive(ctx, data). */
uf_array *uf__cuda_array_wrap_foreign(const uf__cuda_rt *rt, uf_dtype dtype,
                                      int ndim, const int64_t *shape,
                                      const int64_t *strides, void *data,
                                      bool writeable, uf_stream *stream,
                                      uf_release_fn keepalive, void *ctx,
                                      uf_error *err);

/* The buffer holding a's memory when it was made here, else NULL (host
 * arrays, device memory wrapped from elsewhere). */
uf__cuda_buffer *uf__cuda_buffer_of(const uf_array *a);

/* The runtime of a device array: its buffer's, else (memory made
 * elsewhere) the `cuda` target's. */
const uf__cuda_rt *uf__cuda_array_rt(const uf_array *a, uf_error *err);

/* The driver's stream of a uf_stream (NULL: the legacy default). */
static inline uf__cu_stream uf__cuda_stream(const uf_stream *s)
{
    return s != NULL ? s->s : NULL;
}

#endif
