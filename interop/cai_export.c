/* uf_array_to_cai: a device array's __cuda_array_interface__ (v3). */
#include <string.h>

#include <ufjit/interop.h>

#include "common/error_internal.h"
#include "targets/cuda/cuda_memory.h"

/* The device address of a's first element: a device array's own, or the
 * device's view of a mapped array (numba's MappedNDArray exports it so);
 * an error for other host memory, pinned included, which the device
 * cannot address through a pointer of its own. */
static int device_address(const uf_array *a, uintptr_t *out, uf_error *err)
{
    const uf__cuda_buffer *b = uf__cuda_buffer_of(a);
    if (uf_array_device(a).type == UF_DEVICE_CUDA) {
        *out = (uintptr_t)uf_array_data(a);
        return 0;
    }
    if (b != NULL && b->kind == UF__CUDA_MEM_MAPPED) {
        *out = (uintptr_t)b->dptr +
               (uintptr_t)((char *)uf_array_data(a) - (char *)b->host);
        return 0;
    }
    return uf__error_set(err, UF_ERR_INVALID,
                  "uf_array_to_cai: a %s array has no CUDA Array Interface "
                  "(the device cannot address it): copy it to the device "
                  "(uf_to_device) or allocate it mapped (uf_mapped_array)",
                  b != NULL && b->kind == UF__CUDA_MEM_PINNED ? "pinned host"
                                                             : "host");
}

int uf_array_to_cai(const uf_array *a, uf_cai *out, uf_error *err)
{
    uf_error local;
    if (err == NULL)
        err = &local;
    if (a == NULL || out == NULL)
        return uf__error_set(err, UF_ERR_INVALID,
                             "uf_array_to_cai: NULL argument");
    uintptr_t data = 0;
    if (device_address(a, &data, err) != 0)
        return err->code;
    memset(out, 0, sizeof *out);
    out->version = 3;
    uf_dtype_typestr(uf_array_dtype(a), out->typestr);
    int nd = uf_array_ndim(a), flags = uf_array_flags(a);
    out->ndim = nd;
    if (nd > 0)
        memcpy(out->shape, uf_array_shape(a), (size_t)nd * sizeof(int64_t));
    /* v3: "strides" may be None only for a C-contiguous layout */
    out->has_strides = !(flags & UF_ARRAY_C_CONTIGUOUS);
    if (out->has_strides)
        memcpy(out->strides, uf_array_strides(a),
               (size_t)nd * sizeof(int64_t));
    out->data = data;
    out->readonly = !(flags & UF_ARRAY_WRITEABLE);
    const uf__cuda_buffer *b = uf__cuda_buffer_of(a);
    if (b != NULL && uf__cuda_stream_alive(b->stream, b->stream_serial)) {
        out->has_stream = true;
        out->stream = uf_stream_handle(b->stream);
    }
    return 0;
}
