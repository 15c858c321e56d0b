/* uf_pin_array (ufjit/cuda.h): Numba's cuda.pinned / cuda.mapped for one
 * array. The pin is the release context of a new array over the same
 * memory, so that it lasts as long as any view of that array and is
 * undone exactly once, by the last release. */
#include <string.h>

#include "common/alloc.h"
#include "common/error_internal.h"
#include "targets/cuda/cuda_memory.h"
#include "targets/cuda/cuda_mm.h"
#include "targets/cuda/cuda_pin_ipc.h"

typedef struct pin {
    const uf__cuda_rt *rt;
    uf_array *host; /* kept alive while pinned */
    void *lo;       /* the pinned range */
    size_t bytes;
} pin;

bool uf__cuda_extent(int ndim, const int64_t *shape, const int64_t *strides,
                     size_t itemsize, int64_t *lo, int64_t *hi)
{
    *lo = 0;
    *hi = (int64_t)itemsize;
    for (int i = 0; i < ndim; i++) {
        if (shape[i] == 0) {
            *hi = 0;
            return true;
        }
        int64_t step;
        if (__builtin_mul_overflow(shape[i] - 1, strides[i], &step))
            return false;
        if (step < 0 ? __builtin_add_overflow(*lo, step, lo)
                     : __builtin_add_overflow(*hi, step, hi))
            return false;
    }
    return true;
}

static void unpin(void *ctx, void *data)
{
    (void)data;
    pin *p = ctx;
    if (p->bytes > 0) {
        uf_error err;
        if (uf__cuda_rt_enter(p->rt, &err) != 0 ||
            uf__cuda_mm_unpin(p->rt, p->lo, p->bytes, NULL, &err) != 0)
            uf__cuda_mm_keep_error(p->rt, &err);
    }
    uf_array_release(p->host);
    uf__free(p);
}

uf_array *uf_pin_array(uf_array *a, bool mapped, const char *target,
                       uf_error *err)
{
    if (a == NULL) {
        uf__error_set(err, UF_ERR_INVALID, "uf_pin_array: NULL array");
        return NULL;
    }
    if (uf_array_device(a).type != UF_DEVICE_HOST) {
        uf__error_set(err, UF_ERR_INVALID,
                      "uf_pin_array: pins host memory; the array is on a "
                      "device");
        return NULL;
    }
    const uf__cuda_rt *rt = uf__cuda_rt_get(target, err);
    if (rt == NULL || uf__cuda_rt_enter(rt, err) != 0)
        return NULL;
    int ndim = uf_array_ndim(a);
    int64_t lo, hi;
    if (!uf__cuda_extent(ndim, uf_array_shape(a), uf_array_strides(a),
                         uf_array_itemsize(a), &lo, &hi)) {
        uf__error_set(err, UF_ERR_OVERFLOW, "uf_pin_array: the array's "
                      "extent overflows");
        return NULL;
    }
    pin *p = uf__malloc(1, sizeof *p, err);
    if (p == NULL)
        return NULL;
    char *data = uf_array_data(a);
    *p = (pin){.rt = rt, .host = a, .lo = data + lo,
               .bytes = (size_t)(hi - lo)};
    uf__cu_dptr dev = 0;
    if (p->bytes > 0 &&
        uf__cuda_mm_pin(rt, p->lo, p->bytes,
                        mapped ? UF_CUDA_MM_HOST_MAPPED : 0, NULL, &dev,
                        err) != 0) {
        uf__free(p);
        return NULL;
    }
    /* the device's address of the first element (mapped) */
    void *at = mapped && p->bytes > 0 ? (void *)(uintptr_t)(dev - lo) : data;
    bool writeable = (uf_array_flags(a) & UF_ARRAY_WRITEABLE) != 0;
    uf_array_retain(a);
    uf_array *v = uf__cuda_array_borrow(rt, mapped, uf_array_dtype(a), ndim,
                                        uf_array_shape(a),
                                        uf_array_strides(a), at, writeable,
                                        unpin, p, err);
    if (v == NULL)
        unpin(p, NULL);
    return v;
}
