/* The stream values of the interop protocols (CAI's "stream",
 * __dlpack__(stream=)) as a driver's streams, and the event handshake that
 * makes one stream's work visible to another without a host synchronise.
 * Shared by the CAI and DLPack halves of interop/. */
#ifndef UF_INTEROP_INTEROP_STREAM_H
#define UF_INTEROP_INTEROP_STREAM_H

#include <stdint.h>

#include "targets/cuda/cuda_runtime.h"

/* The driver stream of protocol value v on rt: 1 (legacy default) is the
 * NULL stream; 2 (per-thread default) is CU_STREAM_PER_THREAD on the real
 * driver and the legacy stream on cudasim, which has only that one; other
 * values are CUstream handles. 0 is refused with UF_ERR_INVALID naming
 * `what` (it is ambiguous in both protocols). */
int uf__interop_driver_stream(const uf__cuda_rt *rt, intptr_t v,
                              const char *what, uf__cu_stream *out,
                              uf_error *err);

/* Makes `consumer` wait for the work queued so far on `producer`: an event
 * recorded on the producer, waited for by the consumer, then destroyed
 * (the driver keeps it until the wait is done). Nothing when they are the
 * same stream. rt's context must be current. */
int uf__interop_stream_wait(const uf__cuda_rt *rt, uf__cu_stream producer,
                            uf__cu_stream consumer, uf_error *err);

#endif
