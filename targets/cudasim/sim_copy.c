/* cudasim's copies and memsets. Each is checked when called (a device
 * side must lie inside one live device-accessible allocation: a host
 * pointer given as device memory is CUDA_ERROR_INVALID_VALUE, as on a
 * GPU) and again when it runs on its stream, since the memory may have
 * gone in between (then the stream's sticky error). The synchronous forms
 * are operations on the legacy stream. */
#include <string.h>

#include "common/alloc.h"
#include "targets/cudasim/sim_entries.h"
#include "targets/cudasim/sim_internal.h"

typedef struct copy_op {
    uf__sim_op op;
    void *dst;
    const void *src;
    size_t n;
    bool dst_device, src_device; /* which sides must be device memory */
    int value;                   /* memset's byte; -1 for a copy */
} copy_op;

static uf__cu_result check(const copy_op *c)
{
    if (c->dst == NULL || c->src == NULL)
        return c->n ? UF__CU_ERROR_INVALID_VALUE : UF__CU_SUCCESS;
    if (c->dst_device && uf__sim_mem_check((uintptr_t)c->dst, c->n))
        return UF__CU_ERROR_INVALID_VALUE;
    if (c->src_device && uf__sim_mem_check((uintptr_t)c->src, c->n))
        return UF__CU_ERROR_INVALID_VALUE;
    return UF__CU_SUCCESS;
}

static uf__cu_result run_copy(uf__sim_op *op)
{
    copy_op *c = (copy_op *)op;
    uf__cu_result rc = check(c);
    if (rc || c->n == 0)
        return rc;
    if (c->value >= 0)
        memset(c->dst, c->value, c->n);
    else
        memmove(c->dst, c->src, c->n);
    return UF__CU_SUCCESS;
}

static void release_copy(uf__sim_op *op)
{
    uf__free(op);
}

/* Checks and submits one copy (value -1) or memset on stream s. */
static uf__cu_result submit(uf__cu_stream s, void *dst, const void *src,
                            size_t n, bool dst_device, bool src_device,
                            int value)
{
    uf__cu_result rc = uf__sim_need_ctx();
    if (rc)
        return rc;
    copy_op probe = {.dst = dst, .src = src, .n = n, .dst_device = dst_device,
                     .src_device = src_device, .value = value};
    rc = check(&probe);
    if (rc)
        return rc;
    copy_op *c = uf__malloc(1, sizeof *c, NULL);
    if (c == NULL)
        return UF__CU_ERROR_OUT_OF_MEMORY;
    *c = probe;
    c->op.run = run_copy;
    c->op.release = release_copy;
    return uf__sim_submit(s, &c->op);
}

static void *dev(uf__cu_dptr p)
{
    return (void *)(uintptr_t)p;
}

uf__cu_result uf__sim_memset_d8(uf__cu_dptr p, unsigned char v, size_t n)
{
    return submit(NULL, dev(p), dev(p), n, true, false, v);
}

uf__cu_result uf__sim_memset_d8_async(uf__cu_dptr p, unsigned char v,
                                      size_t n, uf__cu_stream s)
{
    return submit(s, dev(p), dev(p), n, true, false, v);
}

uf__cu_result uf__sim_memcpy_htod(uf__cu_dptr dst, const void *src, size_t n)
{
    return submit(NULL, dev(dst), src, n, true, false, -1);
}

uf__cu_result uf__sim_memcpy_dtoh(void *dst, uf__cu_dptr src, size_t n)
{
    return submit(NULL, dst, dev(src), n, false, true, -1);
}

uf__cu_result uf__sim_memcpy_dtod(uf__cu_dptr dst, uf__cu_dptr src, size_t n)
{
    return submit(NULL, dev(dst), dev(src), n, true, true, -1);
}

/* From pageable memory the driver stages the bytes before it returns,
 * so the caller may reuse its buffer at once (the CUDA runtime's "API
 * synchronization behavior"); from pinned or registered memory the copy
 * reads them when it runs. The op keeps a snapshot for the first. */
typedef struct staged_op {
    copy_op c;
    unsigned char bytes[];
} staged_op;

uf__cu_result uf__sim_memcpy_htod_async(uf__cu_dptr dst, const void *src,
                                        size_t n, uf__cu_stream s)
{
    if (src == NULL || n == 0 || uf__sim_mem_kind_of((uintptr_t)src) != 0)
        return submit(s, dev(dst), src, n, true, false, -1);
    uf__cu_result rc = uf__sim_need_ctx();
    if (rc)
        return rc;
    copy_op probe = {.dst = dev(dst), .src = src, .n = n, .dst_device = true,
                     .value = -1};
    if ((rc = check(&probe)) != 0) /* before reading n bytes of src */
        return rc;
    staged_op *o = uf__malloc(1, sizeof *o + n, NULL);
    if (o == NULL)
        return UF__CU_ERROR_OUT_OF_MEMORY;
    memcpy(o->bytes, src, n);
    o->c = probe;
    o->c.src = o->bytes;
    o->c.op.run = run_copy;
    o->c.op.release = release_copy;
    return uf__sim_submit(s, &o->c.op);
}

uf__cu_result uf__sim_memcpy_dtoh_async(void *dst, uf__cu_dptr src, size_t n,
                                        uf__cu_stream s)
{
    return submit(s, dst, dev(src), n, false, true, -1);
}

uf__cu_result uf__sim_memcpy_dtod_async(uf__cu_dptr dst, uf__cu_dptr src,
                                        size_t n, uf__cu_stream s)
{
    return submit(s, dev(dst), dev(src), n, true, true, -1);
}
