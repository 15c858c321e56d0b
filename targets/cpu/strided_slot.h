/* The lazily compiled loops of a vectorize signature, on the runtime's
 * side: only the contiguous loop is compiled with a signature, and the
 * dispatcher (loop_rt.c) runs other strides through buffers. The first
 * call whose strips have strided operands asks the slot for a fused
 * strided loop, and calls writing more than the caches hold for a
 * streaming one; the slot calls the compile hook the call machinery
 * installed (ufunc/vectorize_func.c), once, and publishes the loop. */
#ifndef UF_TARGETS_CPU_STRIDED_SLOT_H
#define UF_TARGETS_CPU_STRIDED_SLOT_H

#include <stdatomic.h>

#include "common/loop.h"
#include "common/stream_pick.h"

/* What compiles a slot's loop: 0 and *fn; UF__STRIDED_RETRY when it
 * cannot now (a lock is busy: the call takes the buffered path and a later
 * one tries again); negative when it never will. Called by one thread at
 * a time per slot, without any of the slot's locks. */
#define UF__STRIDED_RETRY 1
typedef int (*uf__strided_compile_fn)(void *cctx, int tag,
                                      const uf_dtype *types,
                                      uf__loop_strided_fn *fn);

/* The contiguous loop with non-temporal stores (compiler/
 * jit_nontemporal.h), the slot's other lazy loops (unit strides, `strides`
 * NULL, or the element strides given): the same contract as the compile
 * hook's, and *blocked whether it is a blocked loop (common/loop.h). */
typedef int (*uf__stream_compile_fn)(void *cctx, int tag,
                                     const uf_dtype *types,
                                     const int64_t *strides,
                                     uf__loop_contig_fn *fn, bool *blocked);

/* A vectorize loop (loop.fn uf__rt_ufunc_loop, loop.aux its descriptor)
 * with a strided loop, and a streaming one, to come. Use it as a loop
 * {.fn = uf__rt_slot_loop, .aux = slot}. */
typedef struct uf__strided_slot {
    const uf__loop_desc *desc;
    _Atomic(uf__loop_strided_fn) fn; /* published with release */
    atomic_int state;                /* see strided_slot.c */
    uf__strided_compile_fn compile;
    void *cctx;
    int tag; /* the compile hook's own */
    /* the streaming loops: compile_nt NULL (none), else as fn/state; one
     * for unit strides, one for the element strides nts_strides (those of
     * the first strided strip that asked) */
    uf__stream_compile_fn compile_nt;
    _Atomic(uf__loop_contig_fn) nt, nts;
    atomic_int nt_state, nts_state;
    int64_t nts_strides[UF__LOOP_MAXARGS];
    int ntypes;
    uf_dtype types[UF__LOOP_MAXARGS];
    uf__stream_pick pick[2]; /* the loop's (uf__ufunc_loop.pick) */
} uf__strided_slot;

/* A slot for `loop` (of nargs operands) compiled with compile(cctx, tag,
 * loop->types, ...); NULL when out of memory. */
uf__strided_slot *uf__strided_slot_new(const uf__ufunc_loop *loop, int nargs,
                                       uf__strided_compile_fn compile,
                                       void *cctx, int tag, uf_error *err);
void uf__strided_slot_free(uf__strided_slot *s);

/* The slot's strided loop, compiling it on the first request (one thread
 * compiles; others get NULL meanwhile); NULL when there is none (yet). */
uf__loop_strided_fn uf__strided_slot_get(uf__strided_slot *s);

/* The slot's streaming loop, compiled on the first request as the
 * strided one; NULL when there is none (yet) or when it is not blocked as
 * the descriptor's contig is (it would not run the same way). */
uf__loop_contig_fn uf__strided_slot_stream(uf__strided_slot *s);

/* The slot's streaming loop for these element strides (ntypes entries,
 * outputs 1), compiled for the first strides asked for: NULL for others,
 * before it is compiled, or when the kernel has none (blocked ones). */
uf__loop_contig_fn uf__strided_slot_stream_strided(uf__strided_slot *s,
                                                   const int64_t *strides);

/* The uf__strided_loop of a slot (aux): uf__rt_loop with the slot's
 * strided loop for strided strips (loop_rt.c). */
int uf__rt_slot_loop(void *ctx, char *const *data, const int64_t *dims,
                     const int64_t *strides, void *aux);

#endif
