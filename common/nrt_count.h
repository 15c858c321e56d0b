/* The count of live kernel blocks (common/nrt.c), kept per thread so that
 * blocks made and freed on different threads of a parallel loop never
 * share a cache line: a thread's shard is written by that thread alone,
 * and the totals are summed when asked (tests, never the hot path). */
#ifndef UF_COMMON_NRT_COUNT_H
#define UF_COMMON_NRT_COUNT_H

/* One block made / freed on this thread. */
void uf__nrt_count_up(void);
void uf__nrt_count_down(void);

/* Blocks alive now, over every thread (including ended ones). */
long uf__nrt_count_live(void);
/* An upper bound of the most alive at once since the last reset: the sum
 * of each thread's own high-water mark (exact when one thread allocates).
 * The reset is meant for moments when no kernel runs. */
long uf__nrt_count_peak(void);
void uf__nrt_count_peak_reset(void);

#endif
