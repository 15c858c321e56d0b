/* IPC handles of device arrays (ufjit/cuda.h): Numba's
 * DeviceNDArray.get_ipc_handle and IpcArrayHandle.open, through the
 * memory manager's get_ipc_handle / open_ipc_handle / close_ipc_handle.
 * The handle is a plain struct (no pointers) so that it can cross a pipe;
 * what it says is checked on opening (a damaged handle is an error, not a
 * wild pointer). An opened mapping is the release context of the array
 * over it and is closed exactly once, by the last release of a view. */
#include <string.h>
#include <unistd.h>

#include "common/alloc.h"
#include "common/error_internal.h"
#include "targets/cuda/cuda_memory.h"
#include "targets/cuda/cuda_mm.h"
#include "targets/cuda/cuda_pin_ipc.h"

_Static_assert(sizeof(((uf_cuda_ipc_array_handle *)0)->handle) ==
                   sizeof(uf_cuda_ipc_handle),
               "the handle holds a CUipcMemHandle");

static bool simulated(const uf__cuda_rt *rt)
{
    return rt->drv == uf__cu_driver_sim();
}

int uf_cuda_ipc_get(const uf_array *a, uf_cuda_ipc_array_handle *out,
                    uf_error *err)
{
    if (a == NULL || out == NULL)
        return uf__error_set(err, UF_ERR_INVALID, "uf_cuda_ipc_get: NULL");
    if (uf_array_device(a).type != UF_DEVICE_CUDA)
        return uf__error_set(err, UF_ERR_INVALID,
                             "uf_cuda_ipc_get: needs a device array");
    uf__cuda_buffer *b = uf__cuda_buffer_of(a);
    if (b == NULL || b->kind != UF__CUDA_MEM_DEVICE) /* also opened ones */
        return uf__error_set(err, UF_ERR_UNSUPPORTED,
                             "uf_cuda_ipc_get: the array's memory was not "
                             "allocated by ufjit's memory manager (an IPC "
                             "handle names an allocation)");
    if (uf__cuda_rt_enter(b->rt, err) != 0)
        return err->code;
    uf_cuda_ipc_handle h;
    size_t mm_off = 0;
    size_t n = b->bytes > 0 ? b->bytes : 1;
    if (uf__cuda_mm_ipc_get(b->rt, b->dptr, n, uf__cuda_stream(b->stream),
                            &h, &mm_off, err) != 0)
        return err->code;
    int ndim = uf_array_ndim(a);
    memset(out, 0, sizeof *out);
    *out = (uf_cuda_ipc_array_handle){
        .magic = UF_CUDA_IPC_ARRAY_MAGIC,
        .dtype = (int32_t)uf_array_dtype(a),
        .ndim = ndim,
        .simulated = simulated(b->rt),
        .pid = (int64_t)getpid(),
        /* the view's first element inside the allocation, which starts
         * mm_off bytes into what the handle maps */
        .offset = mm_off + ((uintptr_t)uf_array_data(a) - b->dptr),
        .size = mm_off + n};
    memcpy(out->shape, uf_array_shape(a), (size_t)ndim * sizeof(int64_t));
    memcpy(out->strides, uf_array_strides(a),
           (size_t)ndim * sizeof(int64_t));
    memcpy(out->handle, h.reserved, sizeof h.reserved);
    return 0;
}

/* An opened mapping: closed by the last release. */
typedef struct opened {
    const uf__cuda_rt *rt;
    uf__cu_dptr base;
} opened;

static void close_mapping(void *ctx, void *data)
{
    (void)data;
    opened *o = ctx;
    uf_error err;
    if (uf__cuda_rt_enter(o->rt, &err) != 0 ||
        uf__cuda_mm_ipc_close(o->rt, o->base, NULL, &err) != 0)
        uf__cuda_mm_keep_error(o->rt, &err);
    uf__free(o);
}

/* h describes an array inside its mapping. */
static int check_handle(const uf_cuda_ipc_array_handle *h, uf_error *err)
{
    if (h->magic != UF_CUDA_IPC_ARRAY_MAGIC)
        return uf__error_set(err, UF_ERR_INVALID,
                             "uf_cuda_ipc_open: not an IPC array handle "
                             "(wrong magic number)");
    if (!uf_dtype_valid(h->dtype) || h->ndim < 0 || h->ndim > UF_MAXDIMS)
        return uf__error_set(err, UF_ERR_INVALID,
                             "uf_cuda_ipc_open: damaged handle (dtype %d, "
                             "%d dimensions)", (int)h->dtype, (int)h->ndim);
    for (int i = 0; i < h->ndim; i++)
        if (h->shape[i] < 0)
            return uf__error_set(err, UF_ERR_INVALID,
                                 "uf_cuda_ipc_open: damaged handle "
                                 "(negative extent)");
    int64_t lo, hi;
    if (!uf__cuda_extent(h->ndim, h->shape, h->strides,
                         uf_dtype_itemsize((uf_dtype)h->dtype), &lo, &hi) ||
        h->offset > (uint64_t)INT64_MAX || h->size > (uint64_t)INT64_MAX ||
        (hi > lo && ((int64_t)h->offset + lo < 0 ||
                     (int64_t)h->offset + hi > (int64_t)h->size)))
        return uf__error_set(err, UF_ERR_INVALID,
                             "uf_cuda_ipc_open: damaged handle (the array "
                             "reaches outside the %llu bytes it maps)",
                             (unsigned long long)h->size);
    return 0;
}

uf_array *uf_cuda_ipc_open(const uf_cuda_ipc_array_handle *h,
                           const char *target, uf_error *err)
{
    if (h == NULL) {
        uf__error_set(err, UF_ERR_INVALID, "uf_cuda_ipc_open: NULL");
        return NULL;
    }
    if (check_handle(h, err) != 0)
        return NULL;
    const uf__cuda_rt *rt = uf__cuda_rt_get(target, err);
    if (rt == NULL || uf__cuda_rt_enter(rt, err) != 0)
        return NULL;
    if ((h->simulated != 0) != simulated(rt)) {
        uf__error_set(err, UF_ERR_INVALID,
                      "uf_cuda_ipc_open: the handle was made by %s, the "
                      "target runs on %s", h->simulated ? "cudasim" : "a GPU",
                      simulated(rt) ? "cudasim" : "a GPU");
        return NULL;
    }
    if (!simulated(rt) && h->pid == (int64_t)getpid()) {
        uf__error_set(err, UF_ERR_INVALID,
                      "uf_cuda_ipc_open: the handle was made by this "
                      "process, where the driver does not open it (use the "
                      "array itself)");
        return NULL;
    }
    opened *o = uf__malloc(1, sizeof *o, err);
    if (o == NULL)
        return NULL;
    uf_cuda_ipc_handle ch;
    memcpy(ch.reserved, h->handle, sizeof ch.reserved);
    *o = (opened){.rt = rt};
    if (uf__cuda_mm_ipc_open(rt, &ch, NULL, &o->base, err) != 0) {
        uf__free(o);
        return NULL;
    }
    void *data = (void *)(uintptr_t)(o->base + h->offset);
    uf_array *a = uf__cuda_array_borrow(rt, true, (uf_dtype)h->dtype,
                                        h->ndim, h->shape, h->strides, data,
                                        true, close_mapping, o, err);
    if (a == NULL)
        close_mapping(o, NULL);
    return a;
}
