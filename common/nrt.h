/* The kernels' allocation runtime, a small version of Numba's NRT: arrays
 * made inside kernels (np.empty, np.zeros, np.arange ...) live in one
 * block each, a meminfo header (reference count, size) followed by the
 * data, from malloc (uf__alloc_fail_at applies to them; uf__nrt_live
 * counts them, uf__alloc_live does not: fewer atomics per block).
 *
 * Ownership is by frame (compiler/lower/lower_alloc.c): each generated
 * function that allocates keeps a list of the blocks it made; at every
 * return it frees them (uf__nrt_frame_return) except the ones a returned
 * array points into, which go to this thread's returned list, and the
 * caller takes them into its own frame right after the call
 * (uf__nrt_adopt). The njit entry hands the returned block to uf_call's
 * caller (uf__nrt_take_returned), whose uf_array owns one reference and
 * drops it when released. Arrays never go into containers that outlive a
 * frame, so a block is freed exactly once: when the last owner lets go.
 * Inside a loop the frame is swept at the end of each iteration
 * (uf__nrt_sweep): blocks no variable points into any more are freed
 * then, so memory stays bounded however many iterations allocate.
 * Generated code calls these by name (the UF__NRT_* symbols). */
#ifndef UF_COMMON_NRT_H
#define UF_COMMON_NRT_H

#include <stdint.h>

typedef struct uf__nrt_meminfo uf__nrt_meminfo;

/* A block of nbytes for an array's data (UF__DATA_ALIGN-aligned), linked
 * into *frame; NULL when out of memory (or nbytes < 0). */
void *uf__nrt_alloc(uf__nrt_meminfo **frame, int64_t nbytes);
/* The same with dtor(data) run when the block is freed (a list's header
 * frees the items buffer it owns: common/list.c). */
void *uf__nrt_alloc_dtor(uf__nrt_meminfo **frame, int64_t nbytes,
                         void (*dtor)(void *data));
/* The end of a frame: frees every block of *frame except those whose data
 * holds one of keep[0..nkeep) (from its start to one past its end), which
 * move to this thread's returned list. */
void uf__nrt_frame_return(uf__nrt_meminfo **frame, char *const *keep,
                          int64_t nkeep);
/* Moves this thread's returned list into *frame (after a call of a kernel
 * returning arrays). */
void uf__nrt_adopt(uf__nrt_meminfo **frame);
/* Takes this thread's returned list (the njit entry): the block, or NULL
 * when the returned array was not made by a kernel; blocks beyond the
 * first are freed. */
uf__nrt_meminfo *uf__nrt_take_returned(void);

/* For a returned tuple of arrays (the njit entry, one call per array):
 * the block of this thread's returned list that data points into, with
 * one more reference for the caller, or NULL (a view of an argument);
 * then uf__nrt_drop_returned lets the list's references go. */
uf__nrt_meminfo *uf__nrt_take_holding(const char *data);
void uf__nrt_drop_returned(void);

void uf__nrt_incref(uf__nrt_meminfo *mi);
/* Frees the block when the count reaches zero. NULL is ignored. */
void uf__nrt_decref(uf__nrt_meminfo *mi);
/* The same with uf_release_fn's signature (ctx the meminfo), for
 * uf_array_wrap. */
void uf__nrt_release_cb(void *ctx, void *data);
void *uf__nrt_data(const uf__nrt_meminfo *mi);

/* The sweep at the end of a loop iteration (compiler/lower/
 * lower_nrt_loop.c): frees every block of *frame that none of keep[0..
 * nkeep) points into (the data pointers of the function's array variables
 * and of the arrays its enclosing loops iterate over), so a block made in
 * a loop body lives until the iteration after the last variable pointing
 * into it is rebound. */
void uf__nrt_sweep(uf__nrt_meminfo **frame, char *const *keep,
                   int64_t nkeep);

/* Blocks not yet freed, for leak tests. */
long uf__nrt_live(void);
/* The most blocks alive at once since the last uf__nrt_peak_reset (which
 * sets it to the blocks alive now), for the tests of loops that allocate;
 * counted per thread (nrt_count.h), so with several threads allocating it
 * is an upper bound: the sum of each thread's own high-water mark. */
long uf__nrt_peak(void);
void uf__nrt_peak_reset(void);

/* The names generated code calls (compiler/host/jit.c defines them). */
#define UF__NRT_ALLOC "uf__nrt_alloc"
#define UF__NRT_FRAME_RETURN "uf__nrt_frame_return"
#define UF__NRT_ADOPT "uf__nrt_adopt"
#define UF__NRT_TAKE_RETURNED "uf__nrt_take_returned"
#define UF__NRT_SWEEP "uf__nrt_sweep"
#define UF__NRT_TAKE_HOLDING "uf__nrt_take_holding"
#define UF__NRT_DROP_RETURNED "uf__nrt_drop_returned"

#endif
