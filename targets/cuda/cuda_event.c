/* uf_event (ufjit/cuda.h): a driver event of one runtime, numba.cuda's
 * Event: recorded on a stream, waited for by the host or by another
 * stream, and timed. */
#include "common/alloc.h"
#include "common/error_internal.h"
#include "targets/cuda/cuda_memory.h"

struct uf_event {
    const uf__cuda_rt *rt;
    uf__cu_event e;
    bool timing;
};

uf_event *uf_event_create(const char *target, bool timing, uf_error *err)
{
    const uf__cuda_rt *rt = uf__cuda_rt_get(target, err);
    if (rt == NULL)
        return NULL;
    uf_event *ev = uf__calloc(1, sizeof *ev, err);
    if (ev == NULL)
        return NULL;
    ev->rt = rt;
    ev->timing = timing;
    if (uf__cuda_check(rt, rt->drv->event_create(
                               &ev->e, timing ? 0
                                              : UF__CU_EVENT_DISABLE_TIMING),
                       "cuEventCreate", err) != 0) {
        uf__free(ev);
        return NULL;
    }
    return ev;
}

/* e and s (NULL: the legacy default stream) of one runtime, entered. */
static int enter(uf_event *e, const uf_stream *s, const char *fn,
                 uf_error *err)
{
    if (e == NULL)
        return uf__error_set(err, UF_ERR_INVALID, "%s: NULL event", fn);
    if (s != NULL && s->rt != e->rt)
        return uf__error_set(err, UF_ERR_INVALID,
                             "%s: the event and the stream belong to "
                             "different targets (cuda and cudasim)", fn);
    return uf__cuda_rt_enter(e->rt, err);
}

int uf_event_record(uf_event *e, uf_stream *s, uf_error *err)
{
    if (enter(e, s, "uf_event_record", err) != 0)
        return err->code;
    return uf__cuda_check(e->rt, e->rt->drv->event_record(
                                     e->e, uf__cuda_stream(s)),
                          "cuEventRecord", err);
}

int uf_event_query(uf_event *e, uf_error *err)
{
    if (enter(e, NULL, "uf_event_query", err) != 0)
        return err->code;
    uf__cu_result rc = e->rt->drv->event_query(e->e);
    if (rc == UF__CU_ERROR_NOT_READY)
        return 0;
    return uf__cuda_check(e->rt, rc, "cuEventQuery", err) == 0 ? 1
                                                              : err->code;
}

int uf_event_synchronize(uf_event *e, uf_error *err)
{
    if (enter(e, NULL, "uf_event_synchronize", err) != 0)
        return err->code;
    return uf__cuda_check(e->rt, e->rt->drv->event_synchronize(e->e),
                          "cuEventSynchronize", err);
}

int uf_stream_wait_event(uf_stream *s, uf_event *e, uf_error *err)
{
    if (enter(e, s, "uf_stream_wait_event", err) != 0)
        return err->code;
    return uf__cuda_check(e->rt, e->rt->drv->stream_wait_event(
                                     uf__cuda_stream(s), e->e, 0),
                          "cuStreamWaitEvent", err);
}

int uf_event_elapsed_ms(uf_event *start, uf_event *end, float *ms,
                        uf_error *err)
{
    if (ms == NULL)
        return uf__error_set(err, UF_ERR_INVALID,
                             "uf_event_elapsed_ms: NULL result");
    if (start == NULL || end == NULL)
        return uf__error_set(err, UF_ERR_INVALID,
                             "uf_event_elapsed_ms: NULL event");
    if (start->rt != end->rt)
        return uf__error_set(err, UF_ERR_INVALID,
                             "uf_event_elapsed_ms: events of different "
                             "targets");
    if (!start->timing || !end->timing)
        return uf__error_set(err, UF_ERR_INVALID,
                             "uf_event_elapsed_ms: an event made without "
                             "timing has no time (create both with timing)");
    if (enter(start, NULL, "uf_event_elapsed_ms", err) != 0)
        return err->code;
    return uf__cuda_check(start->rt, start->rt->drv->event_elapsed_time(
                                         ms, start->e, end->e),
                          "cuEventElapsedTime", err);
}

void uf_event_destroy(uf_event *e)
{
    if (e == NULL)
        return;
    uf_error err;
    if (uf__cuda_rt_enter(e->rt, &err) == 0)
        (void)e->rt->drv->event_destroy(e->e);
    uf__free(e);
}
