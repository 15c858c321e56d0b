/* Buffers of the CUDA targets' arrays (cuda_memory.h). */
#include <string.h>

#include "common/alloc.h"
#include "common/error_internal.h"
#include "ndarray/array_internal.h"
#include "targets/cuda/cuda_memory.h"
#include "targets/cuda/cuda_mm.h"

/* The stream a buffer is freed on: its arrays' default stream while that
 * lives (a pool may then reuse the memory in that stream's order), else
 * the legacy one (a destroyed stream was synchronised first). */
static uf__cu_stream free_stream(const uf__cuda_buffer *b)
{
    return uf__cuda_stream_alive(b->stream, b->stream_serial)
               ? b->stream->s
               : NULL;
}

static unsigned host_flags(uf__cuda_mem_kind kind)
{
    return UF_CUDA_MM_HOST_PORTABLE |
           (kind == UF__CUDA_MEM_MAPPED ? UF_CUDA_MM_HOST_MAPPED : 0);
}

/* The owner's release function: gives the buffer back to the memory
 * manager (which may free it later). Nothing can report an error from
 * here: a failed free is the runtime's sticky error
 * (uf_cuda_memory_take_error). */
static void release_buffer(void *ctx, void *data)
{
    uf__cuda_buffer *b = ctx;
    uf_error err;
    size_t n = b->bytes > 0 ? b->bytes : 1;
    if (b->kind == UF__CUDA_MEM_BORROWED) {
        /* the owner may free or reuse the memory at once: let the work
         * queued on it finish first, as cuMemFree does */
        if (uf__cuda_rt_enter(b->rt, &err) == 0)
            (void)b->rt->drv->ctx_synchronize();
        if (b->drop != NULL)
            b->drop(b->drop_ctx, data);
    } else if (uf__cuda_rt_enter(b->rt, &err) == 0) {
        if (b->kind == UF__CUDA_MEM_DEVICE)
            uf__cuda_mm_free(b->rt, b->dptr, n, free_stream(b));
        else
            uf__cuda_mm_host_free(b->rt, b->host, n, host_flags(b->kind),
                                  free_stream(b));
    }
    uf__free(b);
}

static int alloc_memory(uf__cuda_buffer *b, uf_error *err)
{
    /* the driver refuses zero bytes; an empty array still owns a buffer */
    size_t n = b->bytes > 0 ? b->bytes : 1;
    uf__cu_stream s = free_stream(b);
    if (b->kind == UF__CUDA_MEM_DEVICE)
        return uf__cuda_mm_alloc(b->rt, n, s, &b->dptr, err);
    return uf__cuda_mm_host_alloc(b->rt, n, host_flags(b->kind), s, &b->host,
                                  &b->dptr, err);
}

void uf__cuda_buffer_set_stream(uf__cuda_buffer *b, uf_stream *s)
{
    b->stream = s;
    b->stream_serial = s ? s->serial : 0;
}

uf_array *uf__cuda_array_new(const uf__cuda_rt *rt, uf__cuda_mem_kind kind,
                             uf_dtype dtype, int ndim, const int64_t *shape,
                             uf_order order, uf_error *err)
{
    return uf__cuda_array_new_on(rt, kind, dtype, ndim, shape, order, NULL,
                                 err);
}

uf_array *uf__cuda_array_new_on(const uf__cuda_rt *rt,
                                uf__cuda_mem_kind kind, uf_dtype dtype,
                                int ndim, const int64_t *shape,
                                uf_order order, uf_stream *stream,
                                uf_error *err)
{
    if (!uf_dtype_valid((int)dtype) || ndim < 0 || ndim > UF_MAXDIMS ||
        (ndim > 0 && shape == NULL) ||
        (order != UF_ORDER_C && order != UF_ORDER_F)) {
        uf__error_set(err, UF_ERR_INVALID,
                      "a CUDA array needs a valid dtype, 0 to %d dimensions "
                      "with a shape, and order C or F", UF_MAXDIMS);
        return NULL;
    }
    int64_t size = uf__shape_size(ndim, shape, err);
    size_t itemsize = uf_dtype_itemsize(dtype);
    if (size < 0)
        return NULL;
    if (size > 0 && (uint64_t)size > (uint64_t)INT64_MAX / itemsize) {
        uf__error_set(err, UF_ERR_OVERFLOW,
                      "array is too big: %lld elements of %zu bytes",
                      (long long)size, itemsize);
        return NULL;
    }
    int64_t strides[UF_MAXDIMS];
    uf__contiguous_strides(itemsize, ndim, shape, order, strides);
    uf__cuda_buffer *b = uf__malloc(1, sizeof *b, err);
    if (b == NULL)
        return NULL;
    *b = (uf__cuda_buffer){.rt = rt, .kind = kind,
                           .bytes = (size_t)size * itemsize};
    uf__cuda_buffer_set_stream(b, stream);
    if (alloc_memory(b, err) != 0) {
        uf__free(b);
        return NULL;
    }
    void *data = kind == UF__CUDA_MEM_DEVICE ? (void *)(uintptr_t)b->dptr
                                             : b->host;
    uf_array *a = uf_array_wrap(dtype, ndim, shape, strides, data, true,
                                release_buffer, b, err);
    if (a == NULL) {
        release_buffer(b, data);
        return NULL;
    }
    if (kind == UF__CUDA_MEM_DEVICE)
        uf__array_set_device(a, (uf_device){UF_DEVICE_CUDA, (int)rt->dev});
    return a;
}

uf_array *uf__cuda_array_borrow(const uf__cuda_rt *rt, bool device,
                                uf_dtype dtype, int ndim,
                                const int64_t *shape, const int64_t *strides,
                                void *data, bool writeable,
                                uf_release_fn drop, void *ctx,
                                uf_error *err)
{
    uf__cuda_buffer *b = uf__malloc(1, sizeof *b, err);
    if (b == NULL)
        return NULL;
    *b = (uf__cuda_buffer){.rt = rt, .kind = UF__CUDA_MEM_BORROWED,
                           .dptr = device ? (uf__cu_dptr)(uintptr_t)data : 0,
                           .host = device ? NULL : data, .drop = drop,
                           .drop_ctx = ctx};
    uf_array *a = uf_array_wrap(dtype, ndim, shape, strides, data, writeable,
                                release_buffer, b, err);
    if (a == NULL) {
        uf__free(b);
        return NULL;
    }
    if (device)
        uf__array_set_device(a, (uf_device){UF_DEVICE_CUDA, (int)rt->dev});
    return a;
}

uf_array *uf__cuda_array_wrap_foreign(const uf__cuda_rt *rt, uf_dtype dtype,
                                      int ndim, const int64_t *shape,
                                      const int64_t *strides, void *data,
                                      bool writeable, uf_stream *stream,
                                      uf_release_fn keepalive, void *ctx,
                                      uf_error *err)
{
    uf_array *a = uf__cuda_array_borrow(rt, true, dtype, ndim, shape, strides,
                                        data, writeable, keepalive, ctx, err);
    if (a != NULL)
        uf__cuda_buffer_set_stream(uf__cuda_buffer_of(a), stream);
    return a;
}

uf__cuda_buffer *uf__cuda_buffer_of(const uf_array *a)
{
    return uf__array_owner_ctx(a, release_buffer);
}

const uf__cuda_rt *uf__cuda_array_rt(const uf_array *a, uf_error *err)
{
    uf__cuda_buffer *b = uf__cuda_buffer_of(a);
    return b != NULL ? b->rt : uf__cuda_rt_get("cuda", err);
}
