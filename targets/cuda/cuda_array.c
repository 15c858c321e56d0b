/* Device, pinned and mapped arrays and the copies between host and device
 * (ufjit/cuda.h). */
#include <string.h>

#include "common/alloc.h"
#include "common/error_internal.h"
#include "ndarray/array_internal.h"
#include "targets/cuda/cuda_memory.h"

#define SHAPE_STR (UF_MAXDIMS * 22 + 4)

static bool is_device(const uf_array *a)
{
    return uf_array_device(a).type == UF_DEVICE_CUDA;
}

static bool is_c(const uf_array *a)
{
    return (uf_array_flags(a) & UF_ARRAY_C_CONTIGUOUS) != 0;
}

static bool is_f(const uf_array *a)
{
    return (uf_array_flags(a) & UF_ARRAY_F_CONTIGUOUS) != 0;
}

/* a and b are laid out alike: same shape and the same contiguous order
 * (so their bytes correspond one to one). */
static bool same_layout(const uf_array *a, const uf_array *b)
{
    if (uf_array_ndim(a) != uf_array_ndim(b) ||
        memcmp(uf_array_shape(a), uf_array_shape(b),
               (size_t)uf_array_ndim(a) * sizeof(int64_t)) != 0)
        return false;
    return (is_c(a) && is_c(b)) || (is_f(a) && is_f(b));
}

static int check_pair(const char *what, const uf_array *dev,
                      const uf_array *host, uf_error *err)
{
    char s1[SHAPE_STR], s2[SHAPE_STR];
    if (!is_device(dev) || is_device(host))
        return uf__error_set(err, UF_ERR_INVALID,
                             "%s: needs a device array and a host array",
                             what);
    if (uf_array_dtype(dev) != uf_array_dtype(host) ||
        uf_array_ndim(dev) != uf_array_ndim(host) ||
        memcmp(uf_array_shape(dev), uf_array_shape(host),
               (size_t)uf_array_ndim(dev) * sizeof(int64_t)) != 0)
        return uf__error_set(
            err, UF_ERR_SHAPE,
            "%s: the device array (%s %s) and the host array (%s %s) "
            "differ", what, uf_dtype_name(uf_array_dtype(dev)),
            uf__shape_str(uf_array_ndim(dev), uf_array_shape(dev), s1,
                          sizeof s1),
            uf_dtype_name(uf_array_dtype(host)),
            uf__shape_str(uf_array_ndim(host), uf_array_shape(host), s2,
                          sizeof s2));
    return 0;
}

static uf__cu_dptr dptr(const uf_array *a)
{
    return (uf__cu_dptr)(uintptr_t)uf_array_data(a);
}

uf_array *uf_device_array(uf_dtype dtype, int ndim, const int64_t *shape,
                          uf_order order, const char *target, uf_error *err)
{
    const uf__cuda_rt *rt = uf__cuda_rt_get(target, err);
    return rt ? uf__cuda_array_new(rt, UF__CUDA_MEM_DEVICE, dtype, ndim,
                                   shape, order, err)
              : NULL;
}

uf_array *uf_device_array_like(const uf_array *a, uf_error *err)
{
    if (a == NULL) {
        uf__error_set(err, UF_ERR_INVALID, "uf_device_array_like: NULL");
        return NULL;
    }
    const uf__cuda_rt *rt = is_device(a) ? uf__cuda_array_rt(a, err)
                                         : uf__cuda_rt_get("cuda", err);
    if (rt == NULL || uf__cuda_rt_enter(rt, err) != 0)
        return NULL;
    uf_order order = is_f(a) && !is_c(a) ? UF_ORDER_F : UF_ORDER_C;
    return uf__cuda_array_new(rt, UF__CUDA_MEM_DEVICE, uf_array_dtype(a),
                              uf_array_ndim(a), uf_array_shape(a), order,
                              err);
}

/* htod of contiguous `src`'s bytes into contiguous `dst`. */
static int upload(const uf__cuda_rt *rt, uf_array *dst, const uf_array *src,
                  uf_stream *stream, uf_error *err)
{
    size_t n = (size_t)uf_array_nbytes(src);
    if (n == 0)
        return 0;
    const void *p = uf_array_data(src);
    uf__cu_result rc =
        stream ? rt->drv->memcpy_htod_async(dptr(dst), p, n,
                                            uf__cuda_stream(stream))
               : rt->drv->memcpy_htod(dptr(dst), p, n);
    return uf__cuda_check(rt, rc, "cuMemcpyHtoD", err);
}

int uf_copy_to_device(uf_array *dst, const uf_array *src, uf_stream *stream,
                      uf_error *err)
{
    if (dst == NULL || src == NULL)
        return uf__error_set(err, UF_ERR_INVALID,
                             "uf_copy_to_device: NULL array");
    if (check_pair("uf_copy_to_device", dst, src, err) != 0)
        return err->code;
    if (!(uf_array_flags(dst) & UF_ARRAY_WRITEABLE))
        return uf__error_set(err, UF_ERR_READONLY,
                             "uf_copy_to_device: the device array is "
                             "read-only");
    if (!is_c(dst) && !is_f(dst))
        return uf__error_set(err, UF_ERR_UNSUPPORTED,
                             "uf_copy_to_device: the device array is not "
                             "contiguous (copy into a contiguous one and "
                             "use a view of it)");
    const uf__cuda_rt *rt = uf__cuda_array_rt(dst, err);
    if (rt == NULL || uf__cuda_rt_enter(rt, err) != 0)
        return err->code;
    if (same_layout(dst, src))
        return upload(rt, dst, src, stream, err);
    /* gather src into dst's layout on the host, then copy synchronously
     * (the staging copy dies here) */
    uf_array *tmp = uf_array_copy(src, is_c(dst) ? UF_ORDER_C : UF_ORDER_F,
                                  err);
    if (tmp == NULL)
        return err->code;
    int rc = upload(rt, dst, tmp, NULL, err);
    uf_array_release(tmp);
    return rc;
}

uf_array *uf_to_device(const uf_array *a, const char *target,
                       uf_stream *stream, uf_error *err)
{
    if (a == NULL) {
        uf__error_set(err, UF_ERR_INVALID, "uf_to_device: NULL array");
        return NULL;
    }
    if (is_device(a)) {
        uf__error_set(err, UF_ERR_INVALID,
                      "uf_to_device: the array is already on a CUDA device");
        return NULL;
    }
    const uf__cuda_rt *rt = uf__cuda_rt_get(target, err);
    if (rt == NULL)
        return NULL;
    if (stream != NULL && stream->rt != rt) {
        uf__error_set(err, UF_ERR_INVALID,
                      "uf_to_device: the stream belongs to target '%s', "
                      "not '%s'", stream->rt->target, rt->target);
        return NULL;
    }
    uf_order order = is_f(a) && !is_c(a) ? UF_ORDER_F : UF_ORDER_C;
    uf_array *d = uf__cuda_array_new_on(rt, UF__CUDA_MEM_DEVICE,
                                        uf_array_dtype(a), uf_array_ndim(a),
                                        uf_array_shape(a), order, stream,
                                        err);
    if (d == NULL)
        return NULL;
    if (uf_copy_to_device(d, a, stream, err) != 0) {
        uf_array_release(d);
        return NULL;
    }
    return d;
}

/* The byte range [lo, hi) relative to a's data pointer that a's elements
 * cover (negative strides reach below it). */
static void byte_span(const uf_array *a, int64_t *lo, int64_t *hi)
{
    const int64_t *shape = uf_array_shape(a), *strides = uf_array_strides(a);
    *lo = 0;
    *hi = (int64_t)uf_array_itemsize(a);
    for (int k = 0; k < uf_array_ndim(a); k++) {
        int64_t reach = (shape[k] - 1) * strides[k];
        if (reach < 0)
            *lo += reach;
        else
            *hi += reach;
    }
}

/* A strided device view: its whole byte span copied to the host, viewed
 * there with the same strides, and that view copied into `out`. */
static int download_strided(const uf__cuda_rt *rt, const uf_array *a,
                            uf_array *out, uf_error *err)
{
    int64_t lo, hi;
    byte_span(a, &lo, &hi);
    char *stage = uf__malloc_aligned((size_t)(hi - lo), err);
    if (stage == NULL)
        return err->code;
    int rc = uf__cuda_check(
        rt, rt->drv->memcpy_dtoh(stage, dptr(a) + (uf__cu_dptr)lo,
                                 (size_t)(hi - lo)),
        "cuMemcpyDtoH", err);
    uf_array *view = NULL;
    if (rc == 0)
        view = uf_array_wrap(uf_array_dtype(a), uf_array_ndim(a),
                             uf_array_shape(a), uf_array_strides(a),
                             stage - lo, false, NULL, NULL, err);
    if (rc == 0)
        rc = view ? uf_array_copyto(out, view, UF_CASTING_NO, err)
                  : err->code;
    uf_array_release(view);
    uf__free(stage);
    return rc;
}

uf_array *uf_copy_to_host(const uf_array *a, uf_array *out, uf_stream *stream,
                          uf_error *err)
{
    if (a == NULL || !is_device(a)) {
        uf__error_set(err, UF_ERR_INVALID,
                      "uf_copy_to_host: needs a device array");
        return NULL;
    }
    const uf__cuda_rt *rt = uf__cuda_array_rt(a, err);
    if (rt == NULL || uf__cuda_rt_enter(rt, err) != 0)
        return NULL;
    if (out != NULL) {
        if (check_pair("uf_copy_to_host", a, out, err) != 0)
            return NULL;
        if (!(uf_array_flags(out) & UF_ARRAY_WRITEABLE)) {
            uf__error_set(err, UF_ERR_READONLY,
                          "uf_copy_to_host: the host array is read-only");
            return NULL;
        }
        uf_array_retain(out);
    } else {
        out = uf_empty(uf_array_dtype(a), uf_array_ndim(a), uf_array_shape(a),
                       is_f(a) && !is_c(a) ? UF_ORDER_F : UF_ORDER_C, err);
        if (out == NULL)
            return NULL;
    }
    size_t n = (size_t)uf_array_nbytes(a);
    int rc = 0;
    if (n == 0)
        rc = 0;
    else if (same_layout(a, out))
        rc = uf__cuda_check(
            rt,
            stream ? rt->drv->memcpy_dtoh_async(uf_array_data(out), dptr(a),
                                                n, uf__cuda_stream(stream))
                   : rt->drv->memcpy_dtoh(uf_array_data(out), dptr(a), n),
            "cuMemcpyDtoH", err);
    else if (stream == NULL ||
             (rc = uf_stream_synchronize(stream, err)) == 0)
        rc = download_strided(rt, a, out, err);
    if (rc != 0) {
        uf_array_release(out);
        return NULL;
    }
    return out;
}

uf_array *uf_pinned_array(uf_dtype dtype, int ndim, const int64_t *shape,
                          uf_order order, const char *target, uf_error *err)
{
    const uf__cuda_rt *rt = uf__cuda_rt_get(target, err);
    return rt ? uf__cuda_array_new(rt, UF__CUDA_MEM_PINNED, dtype, ndim,
                                   shape, order, err)
              : NULL;
}

uf_array *uf_mapped_array(uf_dtype dtype, int ndim, const int64_t *shape,
                          uf_order order, const char *target, uf_error *err)
{
    const uf__cuda_rt *rt = uf__cuda_rt_get(target, err);
    return rt ? uf__cuda_array_new(rt, UF__CUDA_MEM_MAPPED, dtype, ndim,
                                   shape, order, err)
              : NULL;
}

uf_stream *uf_array_stream(const uf_array *a)
{
    uf__cuda_buffer *b = a ? uf__cuda_buffer_of(a) : NULL;
    return b ? b->stream : NULL;
}

int uf_array_set_stream(uf_array *a, uf_stream *s, uf_error *err)
{
    uf__cuda_buffer *b = a ? uf__cuda_buffer_of(a) : NULL;
    if (b == NULL)
        return uf__error_set(err, UF_ERR_INVALID,
                             "uf_array_set_stream: not an array made by "
                             "ufjit's CUDA functions");
    if (s != NULL && s->rt != b->rt)
        return uf__error_set(err, UF_ERR_INVALID,
                             "uf_array_set_stream: the stream belongs to "
                             "target '%s', the array to '%s'",
                             s->rt->target, b->rt->target);
    uf__cuda_buffer_set_stream(b, s);
    return 0;
}
