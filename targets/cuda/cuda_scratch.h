/* Scratch device memory of a stream: buffers that one call's launches
 * pass between them (a reduction's partial results), kept from call to
 * call so that a call neither allocates nor frees (cuMemFree waits for
 * the whole device, which would serialise back-to-back calls).
 *
 * Reuse is safe because a stream runs its work in order: the next call
 * on the same stream enqueues its launches after this one's and they run
 * after them. The lock keeps one call's launches together when host
 * threads share a stream (the legacy default stream included). */
#ifndef UF_TARGETS_CUDA_CUDA_SCRATCH_H
#define UF_TARGETS_CUDA_CUDA_SCRATCH_H

#include <ufjit/cuda.h>

#include "targets/cuda/cuda_runtime.h"

/* reductions: two for partials, one for dims words, one for the start */
#define UF__CUDA_SCRATCH_SLOTS 4

typedef struct uf__cuda_scratch uf__cuda_scratch;

/* Stream s's scratch (NULL: the legacy default stream's, one per
 * runtime), locked until uf__cuda_scratch_end. */
uf__cuda_scratch *uf__cuda_scratch_begin(const uf__cuda_rt *rt,
                                         uf_stream *s);

/* Slot `slot`'s buffer, of at least `bytes` (grown as needed: a larger
 * one replaces it, the old one freed once the device is done with it). */
int uf__cuda_scratch_slot(uf__cuda_scratch *sc, int slot, size_t bytes,
                          uf__cu_dptr *out, uf_error *err);

/* `bytes` of host memory copied into slot `slot` on the scratch's stream
 * (cuMemcpyHtoDAsync: ordered before the launches that follow and after
 * those that read the slot before; the host buffer may be reused at
 * once); its device address in *out. */
int uf__cuda_scratch_put(uf__cuda_scratch *sc, int slot, const void *data,
                         size_t bytes, uf__cu_dptr *out, uf_error *err);

void uf__cuda_scratch_end(uf__cuda_scratch *sc);

/* The status word (`bytes`) of checked kernels launched on stream s
 * (NULL: the legacy default stream), made once through the memory
 * manager and kept with the stream's scratch, locked until
 * uf__cuda_status_end: the launch that uses it waits for its kernel and
 * reads it back. A per-launch allocation would cost a cuMemAlloc per
 * launch and, freed, a cuMemFree that waits for the whole device. Its
 * lock is its own: a reduction holding the scratch launches checked
 * kernels. *sc receives the scratch to end. */
int uf__cuda_status_begin(const uf__cuda_rt *rt, uf_stream *s, size_t bytes,
                          uf__cuda_scratch **sc, uf__cu_dptr *out,
                          uf_error *err);
void uf__cuda_status_end(uf__cuda_scratch *sc);

/* A stream's scratch, made with it and released when it is destroyed. */
uf__cuda_scratch *uf__cuda_scratch_new(const uf__cuda_rt *rt, uf_error *err);
void uf__cuda_scratch_free(uf__cuda_scratch *sc);

/* The legacy stream's scratch given back to the memory manager
 * (uf_cuda_memory_reset); it is made again when next needed. */
void uf__cuda_scratch_release_legacy(const uf__cuda_rt *rt);

#endif
