/* Protocol stream values and the event handshake (interop_stream.h). */
#include "interop/interop_stream.h"

#include "common/error_internal.h"

/* cuda.h's CU_STREAM_PER_THREAD */
#define CU_STREAM_PER_THREAD ((uf__cu_stream)(uintptr_t)0x2)

int uf__interop_driver_stream(const uf__cuda_rt *rt, intptr_t v,
                              const char *what, uf__cu_stream *out,
                              uf_error *err)
{
    if (v == 0)
        return uf__error_set(err, UF_ERR_INVALID,
                             "%s: stream 0 is ambiguous (the protocol "
                             "names the legacy default stream 1 and the "
                             "per-thread default stream 2)", what);
    if (v == 1)
        *out = NULL;
    else if (v == 2)
        *out = rt->drv->image_kind == UF__CU_IMAGE_SIM ? NULL
                                                       : CU_STREAM_PER_THREAD;
    else
        *out = (uf__cu_stream)(uintptr_t)v;
    return 0;
}

int uf__interop_stream_wait(const uf__cuda_rt *rt, uf__cu_stream producer,
                            uf__cu_stream consumer, uf_error *err)
{
    if (producer == consumer)
        return 0;
    uf__cu_event e;
    if (uf__cuda_check(rt,
                       rt->drv->event_create(&e, UF__CU_EVENT_DISABLE_TIMING),
                       "cuEventCreate", err) != 0)
        return err->code;
    int rc = uf__cuda_check(rt, rt->drv->event_record(e, producer),
                            "cuEventRecord", err);
    if (rc == 0)
        rc = uf__cuda_check(rt, rt->drv->stream_wait_event(consumer, e, 0),
                            "cuStreamWaitEvent", err);
    (void)rt->drv->event_destroy(e);
    return rc;
}
