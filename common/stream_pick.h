/* Whether a loop's large calls write their outputs with non-temporal
 * stores, decided per loop by timing it on this machine.
 *
 * Streaming spares the write-allocate reads of output lines no cache will
 * hold, but it also evicts what a cache would have held: on a host whose
 * last-level cache keeps a call's operands between calls (measured on a
 * Xeon with a 480 MiB L3, 10^7 float32 elements), plain stores made
 * hypot 1.6x faster while triad stayed 1.3x faster streamed. No size rule
 * picks both, so a loop's first large calls alternate between the two
 * (streamed, plain, streamed, plain: the first of each may pay a compile
 * or first-touch page faults) and later calls take the faster per element
 * (plain only when clearly faster: streaming is the default).
 * UFJIT_STREAM_STORES=always or never skips the timing. */
#ifndef UF_COMMON_STREAM_PICK_H
#define UF_COMMON_STREAM_PICK_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#define UF__STREAM_TRIALS 4

/* One loop's timings and choice; zero-initialised by
 * uf__stream_pick_init. */
typedef struct uf__stream_pick {
    atomic_int next;  /* trials handed out */
    atomic_int done;  /* trials reported */
    atomic_int pick;  /* -1 undecided, 0 plain stores, 1 streaming */
    _Atomic int64_t best_ps[2]; /* per element, picoseconds: plain, streamed */
} uf__stream_pick;

void uf__stream_pick_init(uf__stream_pick *p);

/* Whether a call that may stream (an output of UF__STREAM_BYTES or more)
 * should. *trial is -1, or a trial to time and report with
 * uf__stream_pick_done. p may be NULL (a loop that is never timed:
 * streaming, unless UFJIT_STREAM_STORES=never). */
bool uf__stream_pick_begin(uf__stream_pick *p, int *trial);

/* Reports trial `trial` (of uf__stream_pick_begin): a call of n elements
 * that took ns nanoseconds. */
void uf__stream_pick_done(uf__stream_pick *p, int trial, int64_t ns,
                          int64_t n);

#endif
