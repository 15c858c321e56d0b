/* DLPack -> uf_array (ufjit/interop.h): from_dlpack in C. The tensor is
 * wrapped without copying; the array's release callback is the tensor's
 * deleter, so it runs once, when the last view goes, and any failure
 * calls it before returning. */
#include <string.h>

#include "common/alloc.h"
#include "common/error_internal.h"
#include "interop/dlpack_dtype.h"
#include "ndarray/array_internal.h"
#include "targets/cuda/cuda_memory.h"
#include <ufjit/interop.h>

static void release_versioned(void *ctx, void *data)
{
    (void)data;
    DLManagedTensorVersioned *t = ctx;
    if (t->deleter != NULL)
        t->deleter(t);
}

static void release_legacy(void *ctx, void *data)
{
    (void)data;
    DLManagedTensor *t = ctx;
    if (t->deleter != NULL)
        t->deleter(t);
}

/* Shape checked and strides in bytes (C-contiguous when NULL). */
static int read_layout(const DLTensor *t, size_t itemsize, int64_t *strides,
                       uf_error *err)
{
    if (t->ndim < 0 || t->ndim > UF_MAXDIMS)
        return uf__error_set(err, UF_ERR_LIMIT,
                             "DLPack: ndim %d is outside 0..%d",
                             (int)t->ndim, UF_MAXDIMS);
    if (t->ndim > 0 && t->shape == NULL)
        return uf__error_set(err, UF_ERR_INVALID,
                             "DLPack: ndim %d but no shape", (int)t->ndim);
    for (int i = 0; i < t->ndim; i++)
        if (t->shape[i] < 0)
            return uf__error_set(err, UF_ERR_VALUE,
                                 "DLPack: negative dimension %lld (axis %d)",
                                 (long long)t->shape[i], i);
    if (t->strides == NULL) {
        uf__contiguous_strides(itemsize, t->ndim, t->shape, UF_ORDER_C,
                               strides);
        return 0;
    }
    for (int i = 0; i < t->ndim; i++)
        if (!uf__mul_i64(t->strides[i], (int64_t)itemsize, &strides[i]))
            return uf__error_set(err, UF_ERR_OVERFLOW,
                                 "DLPack: stride %lld (axis %d) overflows "
                                 "in bytes (a producer that divides a "
                                 "negative byte stride as unsigned gives "
                                 "such values, as CuPy up to 14.2 does for "
                                 "reversed views: cupy/cupy#10172; its "
                                 "__cuda_array_interface__ is right)",
                                 (long long)t->strides[i], i);
    return 0;
}

/* rt's driver knows p as device memory. */
static bool knows(const uf__cuda_rt *rt, void *p)
{
    unsigned type = 0;
    return rt != NULL && p != NULL &&
           rt->drv->pointer_get_attribute(
               &type, UF__CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
               (uf__cu_dptr)(uintptr_t)p) == UF__CU_SUCCESS &&
           type == UF__CU_MEMORYTYPE_DEVICE;
}

/* The runtime owning device pointer p: `cuda`'s (the simulator when
 * UFJIT_ENABLE_CUDASIM=1) for memory its driver knows, else cudasim's
 * for memory the simulator made (asked only then, so that a GPU's
 * imports never start the simulator), else `cuda`'s. No elements (p
 * NULL): `cuda`'s, or cudasim's without a GPU. */
static const uf__cuda_rt *device_rt(void *p, uf_error *err)
{
    uf_error cuda_err;
    const uf__cuda_rt *cuda = uf__cuda_rt_get("cuda", &cuda_err);
    if (cuda != NULL &&
        (cuda->drv == uf__cu_driver_sim() || p == NULL || knows(cuda, p)))
        return cuda;
    const uf__cuda_rt *sim = uf__cuda_rt_get("cudasim", err);
    if (knows(sim, p) || (cuda == NULL && p == NULL))
        return sim;
    if (cuda == NULL)
        *err = cuda_err;
    return cuda;
}

/* The array over t's memory; release(owner) frees it. NULL on failure,
 * release not called. */
static uf_array *wrap(const DLTensor *t, bool readonly, uf_release_fn release,
                      void *owner, uf_error *err)
{
    char n[32];
    uf_dtype dtype;
    int64_t strides[UF_MAXDIMS];
    if (uf__dtype_from_dlpack(t->dtype, &dtype, err) != 0 ||
        read_layout(t, uf_dtype_itemsize(dtype), strides, err) != 0)
        return NULL;
    void *data = t->data != NULL ? (char *)t->data + t->byte_offset : NULL;
    int dev = (int)t->device.device_type;
    if (dev == kDLCPU || dev == kDLCUDAHost)
        return uf_array_wrap(dtype, t->ndim, t->shape, strides, data,
                             !readonly, release, owner, err);
    if (dev != kDLCUDA) {
        uf__error_set(err, UF_ERR_UNSUPPORTED,
                      "DLPack: unsupported device %s (ufjit takes kDLCPU, "
                      "kDLCUDA and kDLCUDAHost)",
                      uf__dlpack_device_name(dev, n));
        return NULL;
    }
    const uf__cuda_rt *rt = device_rt(data, err);
    if (rt == NULL || uf__cuda_rt_enter(rt, err) != 0)
        return NULL;
    if (t->device.device_id != (int32_t)rt->dev) {
        uf__error_set(err, UF_ERR_UNSUPPORTED,
                      "DLPack: the tensor is on CUDA device %d; target '%s' "
                      "uses device %d", (int)t->device.device_id,
                      rt->target, (int)rt->dev);
        return NULL;
    }
    return uf__cuda_array_wrap_foreign(rt, dtype, t->ndim, t->shape,
                                       strides, data, !readonly, NULL,
                                       release, owner, err);
}

uf_array *uf_array_from_dlpack(DLManagedTensorVersioned *t, uf_error *err)
{
    if (t == NULL) {
        uf__error_set(err, UF_ERR_INVALID, "uf_array_from_dlpack: NULL");
        return NULL;
    }
    if (t->version.major != DLPACK_MAJOR_VERSION) {
        /* nothing past the deleter may be read */
        uint32_t major = t->version.major, minor = t->version.minor;
        release_versioned(t, NULL);
        uf__error_set(err, UF_ERR_UNSUPPORTED,
                      "uf_array_from_dlpack: the tensor is DLPack %u.%u; "
                      "ufjit reads DLPack %d.x (its %d.%d)", (unsigned)major,
                      (unsigned)minor, DLPACK_MAJOR_VERSION,
                      DLPACK_MAJOR_VERSION, DLPACK_MINOR_VERSION);
        return NULL;
    }
    bool readonly = (t->flags & DLPACK_FLAG_BITMASK_READ_ONLY) != 0;
    uf_array *a = wrap(&t->dl_tensor, readonly, release_versioned, t, err);
    if (a == NULL)
        release_versioned(t, NULL);
    return a;
}

uf_array *uf_array_from_dlpack_legacy(DLManagedTensor *t, uf_error *err)
{
    if (t == NULL) {
        uf__error_set(err, UF_ERR_INVALID,
                      "uf_array_from_dlpack_legacy: NULL");
        return NULL;
    }
    uf_array *a = wrap(&t->dl_tensor, false, release_legacy, t, err);
    if (a == NULL)
        release_legacy(t, NULL);
    return a;
}
