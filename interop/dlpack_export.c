/* uf_array -> DLPack 1.1 (ufjit/interop.h): __dlpack__ in C. One
 * allocation holds the tensor, the reference to the array it describes
 * (or to the copy) and its shape and strides; the deleter gives both
 * back, from whichever thread calls it. */
#include <string.h>

#include "common/alloc.h"
#include "common/error_internal.h"
#include "interop/dlpack_dtype.h"
#include "interop/interop_stream.h"
#include "ndarray/array_internal.h"
#include "targets/cuda/cuda_memory.h"
#include <ufjit/interop.h>

typedef struct holder {
    DLManagedTensorVersioned versioned;
    DLManagedTensor legacy;
    uf_array *array;
    int64_t dims[]; /* shape, then strides (elements) */
} holder;

static void delete_versioned(DLManagedTensorVersioned *self)
{
    holder *h = self->manager_ctx;
    uf_array_release(h->array);
    uf__free(h);
}

static void delete_legacy(DLManagedTensor *self)
{
    holder *h = self->manager_ctx;
    uf_array_release(h->array);
    uf__free(h);
}

/* Where the array's memory is, as DLPack says it. */
typedef enum place { PLACE_HOST, PLACE_PINNED, PLACE_DEVICE } place;

/* The export being made: the request read, what it needs. */
typedef struct job {
    const char *fn;
    uf_array *src;
    place from, to;
    int device_id;
    intptr_t stream; /* -1: no handshake */
    int copy;        /* -1, 0, 1 */
    bool readonly;
} job;

static const uf_dlpack_request default_request = {.copy = -1};

/* The default stream of a's memory while it lives, else NULL (legacy). */
static uf_stream *pending_stream(const uf_array *a)
{
    uf__cuda_buffer *b = uf__cuda_buffer_of(a);
    return b && uf__cuda_stream_alive(b->stream, b->stream_serial) ? b->stream
                                                                   : NULL;
}

/* Every stride a multiple of the itemsize, where it matters (axes of
 * more than one element of non-empty arrays): DLPack counts elements. */
static bool strides_in_elements(const uf_array *a)
{
    int64_t isz = (int64_t)uf_array_itemsize(a);
    if (uf_array_size(a) == 0)
        return true;
    for (int i = 0; i < uf_array_ndim(a); i++)
        if (uf_array_shape(a)[i] > 1 && uf_array_strides(a)[i] % isz != 0)
            return false;
    return true;
}

static const char *place_name(place p)
{
    return p == PLACE_HOST ? "kDLCPU" : p == PLACE_PINNED ? "kDLCUDAHost"
                                                          : "kDLCUDA";
}

/* Reads the request into j: where the result goes, which stream. */
static int plan(job *j, const uf_dlpack_request *rq, uf_error *err)
{
    uf_array *a = j->src;
    uf__cuda_buffer *b = uf__cuda_buffer_of(a);
    j->device_id = 0;
    if (uf_array_device(a).type == UF_DEVICE_CUDA) {
        j->from = PLACE_DEVICE;
        j->device_id = uf_array_device(a).id;
    } else if (b && (b->kind == UF__CUDA_MEM_PINNED ||
                     b->kind == UF__CUDA_MEM_MAPPED))
        j->from = PLACE_PINNED;
    else
        j->from = PLACE_HOST;
    j->to = j->from;
    if (rq->copy < -1 || rq->copy > 1)
        return uf__error_set(err, UF_ERR_INVALID,
                             "%s: copy must be -1 (None), 0 or 1, not %d",
                             j->fn, rq->copy);
    j->copy = rq->copy;
    if (rq->has_device) {
        char n1[32];
        int t = (int)rq->device.device_type;
        bool same = (t == kDLCPU && j->from == PLACE_HOST) ||
                    (t == kDLCUDAHost && j->from == PLACE_PINNED) ||
                    (t == kDLCUDA && j->from == PLACE_DEVICE &&
                     rq->device.device_id == j->device_id);
        if (t == kDLCPU && j->from != PLACE_HOST)
            j->to = PLACE_HOST; /* a device array is copied to the host */
        else if (!same)
            return uf__error_set(
                err, UF_ERR_UNSUPPORTED,
                "%s: cannot export a %s array (device %d) to dl_device "
                "(%s, %d): only to its own device or to kDLCPU", j->fn,
                place_name(j->from), j->device_id,
                uf__dlpack_device_name(t, n1), (int)rq->device.device_id);
    }
    /* None is the legacy default stream for device memory, no
     * synchronising for host memory */
    j->stream = rq->has_stream ? rq->stream
                               : j->to == PLACE_DEVICE ? UF_INTEROP_STREAM_LEGACY
                                                       : -1;
    if (j->to == PLACE_HOST && j->stream != -1)
        return uf__error_set(err, UF_ERR_INVALID,
                             "%s: stream %lld for a host (kDLCPU) export: "
                             "only None or -1 are accepted", j->fn,
                             (long long)j->stream);
    return 0;
}

/* A contiguous device copy of device array a, made on `s` (the copy's
 * default stream too); strided views go through the host. */
static uf_array *device_copy(uf_array *a, uf_stream *s, uf_error *err)
{
    const uf__cuda_rt *rt = uf__cuda_array_rt(a, err);
    if (rt == NULL || uf__cuda_rt_enter(rt, err) != 0)
        return NULL;
    int f = uf_array_flags(a);
    if (!(f & (UF_ARRAY_C_CONTIGUOUS | UF_ARRAY_F_CONTIGUOUS))) {
        uf_array *h = uf_copy_to_host(a, NULL, NULL, err);
        uf_array *d = h ? uf_to_device(h, rt->target, NULL, err) : NULL;
        uf_array_release(h);
        return d;
    }
    uf_array *d = uf_device_array_like(a, err);
    if (d == NULL)
        return NULL;
    size_t n = (size_t)uf_array_nbytes(a);
    if ((s && uf_array_set_stream(d, s, err) != 0) ||
        (n > 0 &&
         uf__cuda_check(rt,
                        rt->drv->memcpy_dtod_async(
                            (uf__cu_dptr)(uintptr_t)uf_array_data(d),
                            (uf__cu_dptr)(uintptr_t)uf_array_data(a), n,
                            uf__cuda_stream(s)),
                        "cuMemcpyDtoDAsync", err) != 0)) {
        uf_array_release(d);
        return NULL;
    }
    return d;
}

/* The copy j asks for, in memory of the kind it goes to. */
static uf_array *make_copy(const job *j, uf_error *err)
{
    uf_array *a = j->src;
    uf_stream *s = pending_stream(a);
    if (j->from == PLACE_DEVICE && j->to == PLACE_HOST) {
        /* the host reads it at once: wait for it */
        uf_array *h = uf_copy_to_host(a, NULL, s, err);
        if (h != NULL && s != NULL && uf_stream_synchronize(s, err) != 0) {
            uf_array_release(h);
            return NULL;
        }
        return h;
    }
    if (j->from == PLACE_DEVICE)
        return device_copy(a, s, err);
    if (j->to == PLACE_PINNED) {
        uf__cuda_buffer *b = uf__cuda_buffer_of(a);
        uf_array *p = uf_pinned_array(uf_array_dtype(a), uf_array_ndim(a),
                                      uf_array_shape(a), UF_ORDER_C,
                                      b->rt->target, err);
        if (p != NULL && uf_array_copyto(p, a, UF_CASTING_NO, err) != 0) {
            uf_array_release(p);
            return NULL;
        }
        return p;
    }
    return uf_array_copy(a, UF_ORDER_K, err);
}

/* The consumer's stream waits for the pending work on x's (the stream
 * handshake of __dlpack__(stream=)). */
static int handshake(const job *j, const uf_array *x, uf_error *err)
{
    if (j->stream == -1)
        return 0;
    const uf__cuda_rt *rt;
    if (j->to == PLACE_DEVICE)
        rt = uf__cuda_array_rt(x, err);
    else
        rt = uf__cuda_buffer_of(x)->rt;
    uf__cu_stream consumer;
    if (rt == NULL || uf__cuda_rt_enter(rt, err) != 0 ||
        uf__interop_driver_stream(rt, j->stream, "__dlpack__(stream=)",
                                  &consumer, err) != 0)
        return err->code;
    return uf__interop_stream_wait(rt, uf__cuda_stream(pending_stream(x)),
                                   consumer, err);
}

static void fill_tensor(const job *j, holder *h, uf_array *x, DLTensor *t)
{
    int nd = uf_array_ndim(x);
    int64_t isz = (int64_t)uf_array_itemsize(x);
    const int64_t *shape = uf_array_shape(x), *strides = uf_array_strides(x);
    int64_t *s = h->dims, *st = h->dims + nd;
    for (int i = 0; i < nd; i++) {
        s[i] = shape[i];
        /* axes where it matters are whole multiples (strides_in_elements) */
        st[i] = strides[i] / isz;
    }
    t->data = uf_array_size(x) > 0 ? uf_array_data(x) : NULL;
    t->device = (DLDevice){j->to == PLACE_HOST     ? kDLCPU
                           : j->to == PLACE_PINNED ? kDLCUDAHost
                                                   : kDLCUDA,
                           j->to == PLACE_DEVICE ? j->device_id : 0};
    t->ndim = nd;
    t->dtype = uf__dlpack_dtype(uf_array_dtype(x));
    t->shape = s;
    t->strides = st;
    t->byte_offset = 0;
}

/* What both exports share: the request checked, the copy made if needed,
 * the handshake done, the holder filled. */
static holder *export_array(uf_array *a, const uf_dlpack_request *rq,
                            bool legacy, const char *fn, uf_error *err)
{
    if (a == NULL) {
        uf__error_set(err, UF_ERR_INVALID, "%s: NULL array", fn);
        return NULL;
    }
    job j = {.fn = fn, .src = a};
    if (plan(&j, rq ? rq : &default_request, err) != 0)
        return NULL;
    const char *why = j.copy == 1              ? NULL
                      : j.from == PLACE_DEVICE && j.to == PLACE_HOST
                          ? "to another device"
                      : !strides_in_elements(a) ? "strides that are not "
                                                  "multiples of the itemsize"
                                                : NULL;
    bool copying = j.copy == 1 || why != NULL;
    if (why != NULL && j.copy == 0) {
        uf__error_set(err, UF_ERR_UNSUPPORTED,
                      "%s: exporting needs a copy (%s), but copy is 0 "
                      "(False)", fn, why);
        return NULL;
    }
    bool readonly = !(uf_array_flags(a) & UF_ARRAY_WRITEABLE) && !copying;
    if (legacy && readonly) {
        uf__error_set(err, UF_ERR_READONLY,
                      "%s: cannot export a read-only array as an "
                      "unversioned DLManagedTensor, which cannot say so "
                      "(ask for DLPack 1.x, or for a copy)", fn);
        return NULL;
    }
    uf_array *x = copying ? make_copy(&j, err) : uf_array_retain(a);
    if (x == NULL)
        return NULL;
    int nd = uf_array_ndim(x);
    holder *h = NULL;
    if (handshake(&j, x, err) != 0 ||
        (h = uf__malloc(1, sizeof *h + 2 * (size_t)nd * sizeof(int64_t),
                        err)) == NULL) {
        uf_array_release(x);
        return NULL;
    }
    h->array = x;
    DLTensor *t = legacy ? &h->legacy.dl_tensor : &h->versioned.dl_tensor;
    fill_tensor(&j, h, x, t);
    if (legacy) {
        h->legacy.manager_ctx = h;
        h->legacy.deleter = delete_legacy;
    } else {
        h->versioned.version =
            (DLPackVersion){DLPACK_MAJOR_VERSION, DLPACK_MINOR_VERSION};
        h->versioned.manager_ctx = h;
        h->versioned.deleter = delete_versioned;
        h->versioned.flags = (readonly ? DLPACK_FLAG_BITMASK_READ_ONLY : 0) |
                             (copying ? DLPACK_FLAG_BITMASK_IS_COPIED : 0);
    }
    return h;
}

int uf_array_to_dlpack(uf_array *a, DLManagedTensorVersioned **out,
                       uf_error *err)
{
    return uf_array_to_dlpack_ex(a, NULL, out, err);
}

int uf_array_to_dlpack_ex(uf_array *a, const uf_dlpack_request *request,
                          DLManagedTensorVersioned **out, uf_error *err)
{
    if (out == NULL)
        return uf__error_set(err, UF_ERR_INVALID,
                             "uf_array_to_dlpack: NULL out");
    *out = NULL;
    holder *h = export_array(a, request, false, "uf_array_to_dlpack", err);
    if (h == NULL)
        return err->code;
    *out = &h->versioned;
    return 0;
}

int uf_array_to_dlpack_legacy(uf_array *a, const uf_dlpack_request *request,
                              DLManagedTensor **out, uf_error *err)
{
    if (out == NULL)
        return uf__error_set(err, UF_ERR_INVALID,
                             "uf_array_to_dlpack_legacy: NULL out");
    *out = NULL;
    holder *h = export_array(a, request, true, "uf_array_to_dlpack_legacy",
                             err);
    if (h == NULL)
        return err->code;
    *out = &h->legacy;
    return 0;
}
