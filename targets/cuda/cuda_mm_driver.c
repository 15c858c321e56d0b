/* The driver services a memory manager is lent (uf_cuda_mm_driver of
 * ufjit/cuda_memory.h): thin wrappers over one runtime's driver table,
 * each making the runtime's context current first, since a plug-in may
 * call them from its own threads or its destroy. */
#include <string.h>

#include "common/error_internal.h"
#include "targets/cuda/cuda_mm.h"

static const uf__cuda_rt *rt_of(const uf_cuda_mm_driver *d)
{
    return d->impl;
}

static const uf__cu_driver *enter(const uf_cuda_mm_driver *d,
                                  uf__cu_result *rc)
{
    uf_error err;
    *rc = uf__cuda_rt_enter(rt_of(d), &err) == 0
              ? UF__CU_SUCCESS
              : UF__CU_ERROR_INVALID_CONTEXT;
    return rt_of(d)->drv;
}

/* ENTER: the driver of d with its context current, else return the code */
#define ENTER(d)                                                            \
    uf__cu_result rc_;                                                      \
    const uf__cu_driver *drv = enter(d, &rc_);                              \
    if (rc_ != UF__CU_SUCCESS)                                              \
        return rc_

static int mem_alloc(const uf_cuda_mm_driver *d, uint64_t *p, size_t bytes)
{
    ENTER(d);
    return drv->mem_alloc(p, bytes);
}

static int mem_free(const uf_cuda_mm_driver *d, uint64_t p)
{
    ENTER(d);
    return drv->mem_free(p);
}

static int mem_get_info(const uf_cuda_mm_driver *d, size_t *f, size_t *t)
{
    ENTER(d);
    return drv->mem_get_info(f, t);
}

static int mem_host_alloc(const uf_cuda_mm_driver *d, void **p, size_t bytes,
                          unsigned flags)
{
    ENTER(d);
    return drv->mem_host_alloc(p, bytes, flags);
}

static int mem_free_host(const uf_cuda_mm_driver *d, void *p)
{
    ENTER(d);
    return drv->mem_free_host(p);
}

static int mem_host_register(const uf_cuda_mm_driver *d, void *p,
                             size_t bytes, unsigned flags)
{
    ENTER(d);
    return drv->mem_host_register(p, bytes, flags);
}

static int mem_host_unregister(const uf_cuda_mm_driver *d, void *p)
{
    ENTER(d);
    return drv->mem_host_unregister(p);
}

static int event_create(const uf_cuda_mm_driver *d, uf_cuda_mm_event *e)
{
    ENTER(d);
    uf__cu_event ev = NULL;
    uf__cu_result rc = drv->event_create(&ev, UF__CU_EVENT_DISABLE_TIMING);
    *e = ev;
    return rc;
}

static int event_record(const uf_cuda_mm_driver *d, uf_cuda_mm_event e,
                        uf_cuda_mm_stream s)
{
    ENTER(d);
    return drv->event_record(e, s);
}

static int event_query(const uf_cuda_mm_driver *d, uf_cuda_mm_event e)
{
    ENTER(d);
    return drv->event_query(e);
}

static int event_destroy(const uf_cuda_mm_driver *d, uf_cuda_mm_event e)
{
    ENTER(d);
    return drv->event_destroy(e);
}

static int stream_wait_event(const uf_cuda_mm_driver *d, uf_cuda_mm_stream s,
                             uf_cuda_mm_event e)
{
    ENTER(d);
    return drv->stream_wait_event(s, e, 0);
}

static int ipc_get(const uf_cuda_mm_driver *d, uf_cuda_ipc_handle *h,
                   uint64_t p)
{
    ENTER(d);
    uf__cu_ipc_handle ch;
    uf__cu_result rc = drv->ipc_get_mem_handle(&ch, p);
    if (rc == UF__CU_SUCCESS)
        memcpy(h->reserved, ch.reserved, sizeof h->reserved);
    return rc;
}

static int ipc_open(const uf_cuda_mm_driver *d, uint64_t *p,
                    const uf_cuda_ipc_handle *h)
{
    ENTER(d);
    uf__cu_ipc_handle ch;
    memcpy(ch.reserved, h->reserved, sizeof ch.reserved);
    return drv->ipc_open_mem_handle(p, ch,
                                    UF__CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS);
}

static int ipc_close(const uf_cuda_mm_driver *d, uint64_t p)
{
    ENTER(d);
    return drv->ipc_close_mem_handle(p);
}

static const char *error_name(const uf_cuda_mm_driver *d, int rc)
{
    const char *s = NULL;
    if (rt_of(d)->drv->get_error_name(rc, &s) != UF__CU_SUCCESS || !s)
        s = uf__cu_error_name(rc);
    return s ? s : "CUDA_ERROR_UNKNOWN";
}

void uf__cuda_mm_driver_init(uf_cuda_mm_driver *d, const uf__cuda_rt *rt)
{
    *d = (uf_cuda_mm_driver){
        .target = rt->target, .total_mem = rt->total_mem,
        .mem_alloc = mem_alloc, .mem_free = mem_free,
        .mem_get_info = mem_get_info, .mem_host_alloc = mem_host_alloc,
        .mem_free_host = mem_free_host,
        .mem_host_register = mem_host_register,
        .mem_host_unregister = mem_host_unregister,
        .event_create = event_create, .event_record = event_record,
        .event_query = event_query, .event_destroy = event_destroy,
        .stream_wait_event = stream_wait_event,
        .ipc_get_mem_handle = ipc_get, .ipc_open_mem_handle = ipc_open,
        .ipc_close_mem_handle = ipc_close, .error_name = error_name,
        .impl = (void *)rt};
}

int uf__cuda_mm_driver_check(const uf_cuda_mm_driver *d, int rc,
                             const char *what, uf_error *err)
{
    return uf__cuda_check(rt_of(d), rc, what, err);
}
