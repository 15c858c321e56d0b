/* cudasim's events: a record is an operation on a stream that marks the
 * event's generation complete (with the time, CLOCK_MONOTONIC) when the
 * stream reaches it; cuStreamWaitEvent enqueues an operation that waits
 * for the generation recorded at the time of the call, as the driver's
 * (an event never recorded is complete). Operations hold a reference, so
 * an event destroyed with work pending lives until that work is done.
 * State is under the streams' lock (sim_stream.c). */
#include <time.h>

#include "common/alloc.h"
#include "targets/cudasim/sim_entries.h"
#include "targets/cudasim/sim_internal.h"

#define UF__SIM_EVENT_BLOCKING_SYNC 0x1
#define UF__SIM_EVENT_INTERPROCESS 0x4

struct uf__cu_event_s {
    unsigned flags;
    uint64_t recorded;  /* generations recorded ... */
    uint64_t completed; /* ... and reached by their stream */
    struct timespec when; /* when `completed` was reached */
    int refs;            /* pending operations */
    bool destroyed;
    struct uf__cu_event_s *next;
};

typedef struct event_op {
    uf__sim_op op;
    struct uf__cu_event_s *e;
    uint64_t gen;
    struct timespec when; /* when the record ran */
    bool ran;
} event_op;

static struct uf__cu_event_s *events; /* live (not destroyed) ones */

static bool valid(uf__cu_event e)
{
    for (struct uf__cu_event_s *t = events; t; t = t->next)
        if (t == e)
            return true;
    return false;
}

/* Drops one reference (lock held). */
static void unref(struct uf__cu_event_s *e)
{
    if (--e->refs == 0 && e->destroyed)
        uf__free(e);
}

static uf__cu_result run_record(uf__sim_op *op)
{
    event_op *eo = (event_op *)op;
    clock_gettime(CLOCK_MONOTONIC, &eo->when);
    return UF__CU_SUCCESS;
}

/* The record's generation is complete once its stream moves past it
 * (lock held). */
static void complete_record(uf__sim_op *op)
{
    event_op *eo = (event_op *)op;
    eo->ran = true;
    if (eo->gen > eo->e->completed) {
        eo->e->completed = eo->gen;
        eo->e->when = eo->when;
    }
    uf__sim_broadcast();
}

static void release_event_op(uf__sim_op *op)
{
    event_op *eo = (event_op *)op;
    uf__sim_lock();
    /* a record whose stream went away before it ran still completes, so
     * that nobody waits for it forever */
    if (eo->op.run == run_record && !eo->ran && eo->gen > eo->e->completed) {
        eo->e->completed = eo->gen;
        uf__sim_broadcast();
    }
    unref(eo->e);
    uf__sim_unlock();
    uf__free(eo);
}

static uf__cu_result run_wait(uf__sim_op *op)
{
    event_op *eo = (event_op *)op;
    uf__sim_lock();
    while (eo->e->completed < eo->gen)
        uf__sim_wait();
    uf__sim_unlock();
    return UF__CU_SUCCESS;
}

uf__cu_result uf__sim_event_create(uf__cu_event *out, unsigned flags)
{
    uf__cu_result rc = uf__sim_need_ctx();
    if (rc)
        return rc;
    unsigned known = UF__SIM_EVENT_BLOCKING_SYNC |
                     UF__CU_EVENT_DISABLE_TIMING | UF__SIM_EVENT_INTERPROCESS;
    if (out == NULL || (flags & ~known))
        return UF__CU_ERROR_INVALID_VALUE;
    struct uf__cu_event_s *e = uf__calloc(1, sizeof *e, NULL);
    if (e == NULL)
        return UF__CU_ERROR_OUT_OF_MEMORY;
    e->flags = flags;
    uf__sim_lock();
    e->next = events;
    events = e;
    uf__sim_unlock();
    *out = e;
    return UF__CU_SUCCESS;
}

uf__cu_result uf__sim_event_destroy(uf__cu_event e)
{
    uf__cu_result rc = uf__sim_need_ctx();
    if (rc)
        return rc;
    uf__sim_lock();
    if (!valid(e)) {
        uf__sim_unlock();
        return UF__CU_ERROR_INVALID_HANDLE;
    }
    for (struct uf__cu_event_s **p = &events; *p; p = &(*p)->next)
        if (*p == e) {
            *p = e->next;
            break;
        }
    e->destroyed = true;
    e->refs++;
    unref(e);
    uf__sim_unlock();
    return UF__CU_SUCCESS;
}

/* An event operation on e for generation gen (lock held; takes a
 * reference), NULL when out of memory. */
static event_op *event_op_new(struct uf__cu_event_s *e, uint64_t gen,
                              uf__cu_result (*run)(uf__sim_op *))
{
    event_op *eo = uf__calloc(1, sizeof *eo, NULL);
    if (eo == NULL)
        return NULL;
    eo->op.run = run;
    eo->op.complete = run == run_record ? complete_record : NULL;
    eo->op.release = release_event_op;
    eo->e = e;
    eo->gen = gen;
    e->refs++;
    return eo;
}

uf__cu_result uf__sim_event_record(uf__cu_event e, uf__cu_stream s)
{
    uf__cu_result rc = uf__sim_need_ctx();
    if (rc)
        return rc;
    uf__sim_lock();
    if (!valid(e) || (s != NULL && !uf__sim_stream_valid(s))) {
        uf__sim_unlock();
        return UF__CU_ERROR_INVALID_HANDLE;
    }
    event_op *eo = event_op_new(e, e->recorded + 1, run_record);
    if (eo == NULL) {
        uf__sim_unlock();
        return UF__CU_ERROR_OUT_OF_MEMORY;
    }
    e->recorded++;
    uf__sim_unlock();
    return uf__sim_submit(s, &eo->op);
}

uf__cu_result uf__sim_stream_wait_event(uf__cu_stream s, uf__cu_event e,
                                        unsigned flags)
{
    uf__cu_result rc = uf__sim_need_ctx();
    if (rc)
        return rc;
    if (flags != 0)
        return UF__CU_ERROR_INVALID_VALUE;
    uf__sim_lock();
    if (!valid(e) || (s != NULL && !uf__sim_stream_valid(s))) {
        uf__sim_unlock();
        return UF__CU_ERROR_INVALID_HANDLE;
    }
    if (e->completed >= e->recorded) { /* nothing left to wait for */
        uf__sim_unlock();
        return UF__CU_SUCCESS;
    }
    event_op *eo = event_op_new(e, e->recorded, run_wait);
    uf__sim_unlock();
    if (eo == NULL)
        return UF__CU_ERROR_OUT_OF_MEMORY;
    return uf__sim_submit(s, &eo->op);
}

uf__cu_result uf__sim_event_query(uf__cu_event e)
{
    uf__cu_result rc = uf__sim_need_ctx();
    if (rc)
        return rc;
    uf__sim_lock();
    if (!valid(e))
        rc = UF__CU_ERROR_INVALID_HANDLE;
    else if (e->completed < e->recorded)
        rc = UF__CU_ERROR_NOT_READY;
    uf__sim_unlock();
    return rc;
}

uf__cu_result uf__sim_event_synchronize(uf__cu_event e)
{
    uf__cu_result rc = uf__sim_need_ctx();
    if (rc)
        return rc;
    uf__sim_lock();
    if (!valid(e)) {
        uf__sim_unlock();
        return UF__CU_ERROR_INVALID_HANDLE;
    }
    uint64_t gen = e->recorded;
    e->refs++; /* a destroy from another thread must not free it now */
    while (e->completed < gen)
        uf__sim_wait();
    unref(e);
    uf__sim_unlock();
    return UF__CU_SUCCESS;
}

/* As the driver: INVALID_HANDLE when either event has timing disabled or
 * was never recorded, NOT_READY while either is pending. */
uf__cu_result uf__sim_event_elapsed_time(float *ms, uf__cu_event start,
                                         uf__cu_event end)
{
    uf__cu_result rc = uf__sim_need_ctx();
    if (rc)
        return rc;
    if (ms == NULL)
        return UF__CU_ERROR_INVALID_VALUE;
    uf__sim_lock();
    if (!valid(start) || !valid(end) ||
        ((start->flags | end->flags) & UF__CU_EVENT_DISABLE_TIMING) ||
        start->recorded == 0 || end->recorded == 0) {
        rc = UF__CU_ERROR_INVALID_HANDLE;
    } else if (start->completed < start->recorded ||
               end->completed < end->recorded) {
        rc = UF__CU_ERROR_NOT_READY;
    } else {
        double d = (double)(end->when.tv_sec - start->when.tv_sec) * 1e3 +
                   (double)(end->when.tv_nsec - start->when.tv_nsec) * 1e-6;
        *ms = (float)d;
    }
    uf__sim_unlock();
    return rc;
}

void uf__sim_events_teardown(void)
{
    uf__sim_lock();
    while (events) {
        struct uf__cu_event_s *e = events;
        events = e->next;
        uf__free(e); /* no operation is pending: the streams are gone */
    }
    uf__sim_unlock();
}
