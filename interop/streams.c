/* The streams section of ufjit/interop.h: a uf_stream as a protocol
 * value, a protocol value as a uf_stream (numba.cuda.external_stream),
 * and one stream waiting for another's work without a host synchronise. */
#include <ufjit/interop.h>

#include "common/error_internal.h"
#include "interop/interop_stream.h"
#include "targets/cuda/cuda_memory.h"

intptr_t uf_stream_handle(const uf_stream *s)
{
    uf__cu_stream cs = uf__cuda_stream(s);
    return cs != NULL ? (intptr_t)(uintptr_t)cs : UF_INTEROP_STREAM_LEGACY;
}

/* The driver stream of protocol value v on target's runtime, its context
 * current: the shared first steps of the functions below. */
static const uf__cuda_rt *foreign_stream(const char *target, intptr_t v,
                                         const char *what, uf__cu_stream *out,
                                         uf_error *err)
{
    const uf__cuda_rt *rt = uf__cuda_rt_get(target, err);
    if (rt == NULL || uf__cuda_rt_enter(rt, err) != 0 ||
        uf__interop_driver_stream(rt, v, what, out, err) != 0)
        return NULL;
    if (*out == NULL || v == UF_INTEROP_STREAM_PER_THREAD)
        return rt;
    /* cudasim looks the handle up (anything else is INVALID_HANDLE); the
     * real driver trusts it, as numba's external_stream does */
    uf__cu_result q = rt->drv->stream_query(*out);
    if (q != UF__CU_SUCCESS && q != UF__CU_ERROR_NOT_READY) {
        uf_error why;
        uf__cuda_check(rt, q, "cuStreamQuery", &why);
        uf__error_set(err, UF_ERR_INVALID,
                      "%s: %#llx is not a stream of target '%s' (%s)", what,
                      (unsigned long long)(uintptr_t)v, rt->target,
                      why.message);
        return NULL;
    }
    return rt;
}

uf_stream *uf_stream_external(const char *target, intptr_t handle,
                              uf_error *err)
{
    uf__cu_stream cs;
    const uf__cuda_rt *rt = foreign_stream(target, handle,
                                           "uf_stream_external", &cs, err);
    return rt != NULL ? uf__cuda_stream_wrap(rt, cs, err) : NULL;
}

int uf_stream_wait_foreign(const char *target, intptr_t producer,
                           uf_stream *consumer, uf_error *err)
{
    uf__cu_stream p;
    const uf__cuda_rt *rt = foreign_stream(target, producer,
                                           "uf_stream_wait_foreign", &p, err);
    if (rt == NULL)
        return err->code;
    if (consumer != NULL && consumer->rt != rt)
        return uf__error_set(err, UF_ERR_INVALID,
                             "uf_stream_wait_foreign: the consumer stream "
                             "belongs to target '%s', not '%s'",
                             consumer->rt->target, rt->target);
    return uf__interop_stream_wait(rt, p, uf__cuda_stream(consumer), err);
}
