/* Buffers of the CUDA targets' arrays (cuda_memory.h). */
#include <string.h>

#include "common/alloc.h"
#include "common/error_internal.h"
#include "ndarray/array_internal.h"
#include "targets/cuda/cuda_memory.h"

/* The owner's release function: frees the buffer through its driver.
 * Nothing can report an error from here; a failed free leaks the memory
 * rather than the process (the memory manager of issue 16 reports). */
static void release_buffer(void *ctx, void *data)
{
    (void)data;
    uf__cuda_buffer *b = ctx;
    uf_error err;
    if (uf__cuda_rt_enter(b->rt, &err) == 0) {
        if (b->kind == UF__CUDA_MEM_DEVICE)
            (void)b->rt->drv->mem_free(b->dptr);
        else
            (void)b->rt->drv->mem_free_host(b->host);
    }
    uf__free(b);
}

static int alloc_memory(uf__cuda_buffer *b, uf_error *err)
{
    const uf__cu_driver *d = b->rt->drv;
    /* the driver refuses zero bytes; an empty array still owns a buffer */
    size_t n = b->bytes > 0 ? b->bytes : 1;
    if (b->kind == UF__CUDA_MEM_DEVICE)
        return uf__cuda_check(b->rt, d->mem_alloc(&b->dptr, n), "cuMemAlloc",
                              err);
    unsigned flags = UF__CU_MEMHOSTALLOC_PORTABLE;
    if (b->kind == UF__CUDA_MEM_MAPPED)
        flags |= UF__CU_MEMHOSTALLOC_DEVICEMAP;
    if (uf__cuda_check(b->rt, d->mem_host_alloc(&b->host, n, flags),
                       "cuMemHostAlloc", err) != 0)
        return err->code;
    if (b->kind == UF__CUDA_MEM_MAPPED &&
        uf__cuda_check(b->rt,
                       d->mem_host_get_device_pointer(&b->dptr, b->host, 0),
                       "cuMemHostGetDevicePointer", err) != 0) {
        (void)d->mem_free_host(b->host);
        return err->code;
    }
    return 0;
}

uf_array *uf__cuda_array_new(const uf__cuda_rt *rt, uf__cuda_mem_kind kind,
                             uf_dtype dtype, int ndim, const int64_t *shape,
                             uf_order order, uf_error *err)
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

uf__cuda_buffer *uf__cuda_buffer_of(const uf_array *a)
{
    return uf__array_owner_ctx(a, release_buffer);
}

const uf__cuda_rt *uf__cuda_array_rt(const uf_array *a, uf_error *err)
{
    uf__cuda_buffer *b = uf__cuda_buffer_of(a);
    return b != NULL ? b->rt : uf__cuda_rt_get("cuda", err);
}
