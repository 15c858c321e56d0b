/* The kernels' allocation runtime (nrt.h). */
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "common/alloc.h"
#include "common/hugepage.h"
#include "common/nrt.h"
#include "common/nrt_cache.h"
#include "common/nrt_count.h"
#include "common/nrt_keep.h"

struct uf__nrt_meminfo {
    uf__nrt_meminfo *next; /* in a frame's or the returned list */
    atomic_long refcnt;
    int64_t size;
    char *data; /* in the same block, UF__DATA_ALIGN-aligned */
    int cls;    /* its nrt_cache.h size class, -1 for a large block */
    void (*dtor)(void *data); /* run before the block is freed (a list's
                                 items buffer: common/list.c), or NULL */
};

/* One malloc'd block holds the header and the data, aligned by hand:
 * malloc's small-block caches make this several times faster than
 * aligned_alloc for the scratch arrays kernels make per call, and small
 * blocks (up to 4 KiB with the header) are kept in a per-thread cache
 * when freed (nrt_cache.h) and handed out again before malloc. Blocks are
 * counted here only (uf__nrt_live, per thread: nrt_count.c), not by
 * uf__alloc_live as well, so that no global atomic is touched per block
 * (the failure hook still applies). */
#define SLACK (sizeof(uf__nrt_meminfo) + UF__DATA_ALIGN - 1)

/* Per thread: a returned block travels from the callee's return to the
 * caller's next instruction on the same thread. */
static _Thread_local uf__nrt_meminfo *returned;

/* Blocks this thread has made, ever: the age of a sweep (below). */
static _Thread_local int64_t made;

void *uf__nrt_data(const uf__nrt_meminfo *mi)
{
    return mi->data;
}

void *uf__nrt_alloc(uf__nrt_meminfo **frame, int64_t nbytes)
{
    size_t n;
    if (nbytes < 0 || !uf__add_size((size_t)nbytes, SLACK, &n))
        return NULL;
    if (uf__alloc_fail_now())
        return NULL;
    int cls = uf__nrt_cache_class(n);
    uf__nrt_meminfo *mi = cls < 0 ? NULL : uf__nrt_cache_take(cls);
    if (mi == NULL)
        mi = malloc(cls < 0 ? n : uf__nrt_cache_class_size(cls));
    if (mi == NULL)
        return NULL;
    if (cls < 0) /* a large array a kernel makes (hugepage.h) */
        uf__hugepage_advise(mi, n);
    mi->cls = cls;
    uintptr_t d = (uintptr_t)(mi + 1);
    d = (d + UF__DATA_ALIGN - 1) & ~(uintptr_t)(UF__DATA_ALIGN - 1);
    mi->data = (char *)d;
    mi->next = *frame;
    atomic_init(&mi->refcnt, 1);
    mi->size = nbytes;
    mi->dtor = NULL;
    *frame = mi;
    made++;
    uf__nrt_count_up();
    return mi->data;
}

void *uf__nrt_alloc_dtor(uf__nrt_meminfo **frame, int64_t nbytes,
                         void (*dtor)(void *data))
{
    void *data = uf__nrt_alloc(frame, nbytes);
    if (data != NULL)
        (*frame)->dtor = dtor;
    return data;
}

void uf__nrt_incref(uf__nrt_meminfo *mi)
{
    if (mi != NULL)
        atomic_fetch_add(&mi->refcnt, 1);
}

void uf__nrt_decref(uf__nrt_meminfo *mi)
{
    if (mi == NULL)
        return;
    /* the sole owner needs no read-modify-write: nobody else can take a
     * reference to a block only its owner sees */
    if (atomic_load_explicit(&mi->refcnt, memory_order_acquire) != 1 &&
        atomic_fetch_sub_explicit(&mi->refcnt, 1, memory_order_acq_rel) != 1)
        return;
    uf__nrt_count_down();
    if (mi->dtor != NULL)
        mi->dtor(mi->data);
    if (!uf__nrt_cache_put(mi->cls, mi))
        free(mi);
}

void uf__nrt_release_cb(void *ctx, void *data)
{
    (void)data;
    uf__nrt_decref(ctx);
}

static bool holds(const uf__nrt_meminfo *mi, const char *p)
{
    return p >= mi->data && p <= mi->data + mi->size;
}

/* Sorts *frame's blocks by keep[] (nrt_keep.h): those kept are passed to
 * on_keep, the others decref'd; *frame is left empty. Returns how many
 * were kept. */
static int64_t sift(uf__nrt_meminfo **frame, char *const *keep,
                    int64_t nkeep, void (*on_keep)(uf__nrt_meminfo *mi,
                                                   void *ud),
                    void *ud)
{
    uf__nrt_keep K;
    uf__nrt_keep_init(&K, keep, nkeep);
    uf__nrt_meminfo *mi = *frame, *maybe = NULL, **maybe_end = &maybe;
    *frame = NULL;
    int64_t kept = 0;
    while (mi != NULL) {
        uf__nrt_meminfo *next = mi->next;
        if (next != NULL) /* a long frame is a chain of cache misses */
            __builtin_prefetch(next);
        switch (uf__nrt_keep_first(&K, mi->data, mi->size)) {
        case UF__NRT_KEEP:
            on_keep(mi, ud);
            kept++;
            break;
        case UF__NRT_DROP:
            uf__nrt_decref(mi);
            break;
        case UF__NRT_MAYBE: /* settled once every block has been seen */
            mi->next = NULL;
            *maybe_end = mi;
            maybe_end = &mi->next;
            break;
        }
        mi = next;
    }
    bool some = maybe != NULL && uf__nrt_keep_settle(&K);
    for (mi = maybe; mi != NULL;) {
        uf__nrt_meminfo *next = mi->next;
        if (some && uf__nrt_keep_holds(&K, mi->data, mi->size)) {
            on_keep(mi, ud);
            kept++;
        } else {
            uf__nrt_decref(mi);
        }
        mi = next;
    }
    uf__nrt_keep_free(&K);
    return kept;
}

/* A kept block goes back to the end of the frame (ud: where its end is),
 * in the order it had. */
static void keep_in_frame(uf__nrt_meminfo *mi, void *ud)
{
    uf__nrt_meminfo ***end = ud;
    mi->next = NULL;
    **end = mi;
    *end = &mi->next;
}

static void keep_returned(uf__nrt_meminfo *mi, void *ud)
{
    (void)ud;
    mi->next = returned;
    returned = mi;
}

/* Sweeps of a frame that keeps many blocks (a list of arrays grown in a
 * loop) are amortised: walking the frame and sorting the lists' items at
 * every iteration made n appends cost O(n^2) (16,000: 7.7 s). A sweep is
 * skipped while the blocks this thread made since the frame's last full
 * sweep (a count, so that the check is O(1); blocks made for other frames
 * count too, which only sweeps sooner) are fewer than the blocks it kept,
 * so memory stays within twice what is live. Skipping a sweep is always
 * safe (the frame's return frees what is left); small frames are swept
 * every time, as before. Per thread, a few frames at once. */
#define SWEEP_AMORTISE_MIN 64
#define SWEEP_MARKS 8

typedef struct sweep_mark {
    uf__nrt_meminfo **frame; /* NULL: a free slot */
    int64_t made;            /* the thread's count at the last full sweep */
    int64_t kept;
} sweep_mark;

static _Thread_local sweep_mark marks[SWEEP_MARKS];
static _Thread_local unsigned next_mark;

static sweep_mark *mark_of(uf__nrt_meminfo **frame)
{
    for (int i = 0; i < SWEEP_MARKS; i++)
        if (marks[i].frame == frame)
            return &marks[i];
    return NULL;
}

static bool sweep_can_wait(uf__nrt_meminfo **frame)
{
    const sweep_mark *m = mark_of(frame);
    return m != NULL && made - m->made < m->kept;
}

static void sweep_remember(uf__nrt_meminfo **frame, int64_t kept)
{
    sweep_mark *m = mark_of(frame);
    if (kept < SWEEP_AMORTISE_MIN) {
        if (m != NULL)
            m->frame = NULL;
        return;
    }
    if (m == NULL)
        m = &marks[next_mark++ % SWEEP_MARKS];
    *m = (sweep_mark){frame, made, kept};
}

void uf__nrt_frame_return(uf__nrt_meminfo **frame, char *const *keep,
                          int64_t nkeep)
{
    sweep_mark *m = mark_of(frame);
    if (m != NULL)
        m->frame = NULL; /* a later frame may live at this address */
    if (*frame != NULL)
        sift(frame, keep, nkeep, keep_returned, NULL);
}

void uf__nrt_sweep(uf__nrt_meminfo **frame, char *const *keep,
                   int64_t nkeep)
{
    if (*frame == NULL || sweep_can_wait(frame))
        return;
    uf__nrt_meminfo **end = frame;
    int64_t kept = sift(frame, keep, nkeep, keep_in_frame, &end);
    sweep_remember(frame, kept);
}

void uf__nrt_adopt(uf__nrt_meminfo **frame)
{
    while (returned != NULL) {
        uf__nrt_meminfo *mi = returned;
        returned = mi->next;
        mi->next = *frame;
        *frame = mi;
    }
}

uf__nrt_meminfo *uf__nrt_take_returned(void)
{
    uf__nrt_meminfo *first = returned;
    returned = NULL;
    if (first == NULL)
        return NULL;
    uf__nrt_meminfo *rest = first->next;
    first->next = NULL;
    while (rest != NULL) { /* a returned array points into one block */
        uf__nrt_meminfo *next = rest->next;
        uf__nrt_decref(rest);
        rest = next;
    }
    return first;
}

uf__nrt_meminfo *uf__nrt_take_holding(const char *data)
{
    for (uf__nrt_meminfo *mi = returned; mi != NULL; mi = mi->next)
        if (holds(mi, data)) {
            uf__nrt_incref(mi);
            return mi;
        }
    return NULL;
}

void uf__nrt_drop_returned(void)
{
    while (returned != NULL) {
        uf__nrt_meminfo *mi = returned;
        returned = mi->next;
        mi->next = NULL;
        uf__nrt_decref(mi);
    }
}

long uf__nrt_live(void)
{
    return uf__nrt_count_live();
}

long uf__nrt_peak(void)
{
    return uf__nrt_count_peak();
}

void uf__nrt_peak_reset(void)
{
    uf__nrt_count_peak_reset();
}
