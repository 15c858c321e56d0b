/* DLPack 1.1 (ufjit/interop.h): host arrays of every dtype out and back
 * in, 0-d, empty, negative-stride and strided views, read-only arrays,
 * strides that are not whole elements, the request (stream, copy,
 * dl_device), the legacy DLManagedTensor both ways, and the deleter run
 * exactly once: on release, from another thread, and on every failure
 * of an import (version mismatch, bad dtype, device, shape, no memory).
 * Then device arrays on the CUDA target under test (cudasim here; a GPU
 * in the *_gpu run): round trips, an imported tensor used by copies and
 * a kernel call, copies to the host, pinned memory as kDLCUDAHost, and
 * the stream handshake: a producer writing on stream A, the consumer
 * reading on stream B handed to __dlpack__(stream=) sees the writes
 * (on cudasim A is held by a kernel waiting on a host flag, so a
 * missing wait shows as B finishing early with the old values). NumPy's
 * side is tests/interop/dlpack_numpy.py. */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>

#include "test_util.h"

#include "common/alloc.h"
#include "common/sim_abi.h"
#include "cuda_test_target.h"
#include "targets/cuda/cuda_memory.h"
#include "targets/cudasim/sim.h"

static const char *SIM;

/* ---- a tensor whose deleter is counted --------------------------------- */

/* A proxy in front of a tensor: the consumer sees the proxy, whose
 * deleter counts its calls and then runs the real one. */
typedef struct spy {
    DLManagedTensorVersioned proxy;
    DLManagedTensorVersioned *real;
    atomic_int calls;
} spy;

static void spy_delete(DLManagedTensorVersioned *self)
{
    spy *s = self->manager_ctx;
    atomic_fetch_add(&s->calls, 1);
    if (s->real != NULL)
        s->real->deleter(s->real);
}

static spy *spy_on(DLManagedTensorVersioned *t)
{
    spy *s = calloc(1, sizeof *s);
    assert_non_null(s);
    s->proxy = *t;
    s->proxy.manager_ctx = s;
    s->proxy.deleter = spy_delete;
    s->real = t;
    return s;
}

/* The same for a tensor made here: memory, shape and strides inside. */
typedef struct fake {
    spy s;
    int64_t shape[4], strides[4];
    double data[64];
} fake;

static fake *fake_tensor(int ndim, const int64_t *shape,
                         const int64_t *strides)
{
    fake *f = calloc(1, sizeof *f);
    assert_non_null(f);
    for (int i = 0; i < 64; i++)
        f->data[i] = i;
    DLTensor *t = &f->s.proxy.dl_tensor;
    f->s.proxy.version = (DLPackVersion){1, 1};
    f->s.proxy.manager_ctx = &f->s;
    f->s.proxy.deleter = spy_delete;
    t->data = f->data;
    t->device = (DLDevice){kDLCPU, 0};
    t->ndim = ndim;
    t->dtype = (DLDataType){kDLFloat, 64, 1};
    memcpy(f->shape, shape, (size_t)ndim * sizeof *shape);
    t->shape = f->shape;
    if (strides) {
        memcpy(f->strides, strides, (size_t)ndim * sizeof *strides);
        t->strides = f->strides;
    }
    return f;
}

/* ---- helpers ------------------------------------------------------------ */

/* A C-ordered array of `dtype` whose bytes count 1, 2, 3... */
static uf_array *byte_iota(uf_dtype dtype, int ndim, const int64_t *shape)
{
    uf_error err;
    uf_array *a = uf_empty(dtype, ndim, shape, UF_ORDER_C, &err);
    uf_assert_ok(a != NULL, &err);
    unsigned char *p = uf_array_data(a);
    for (int64_t i = 0; i < uf_array_nbytes(a); i++)
        p[i] = dtype == UF_BOOL ? (unsigned char)(i % 2)
                                : (unsigned char)(i + 1);
    return a;
}

static uf_array *f64_iota(int ndim, const int64_t *shape)
{
    uf_error err;
    uf_array *a = uf_empty(UF_FLOAT64, ndim, shape, UF_ORDER_C, &err);
    uf_assert_ok(a != NULL, &err);
    double *p = uf_array_data(a);
    for (int64_t i = 0; i < uf_array_size(a); i++)
        p[i] = (double)i * 0.5 - 3.0;
    return a;
}

/* The tensor describes `a` exactly: shape, strides in elements, dtype. */
static void assert_describes(const DLTensor *t, const uf_array *a)
{
    int64_t isz = (int64_t)uf_array_itemsize(a);
    assert_int_equal(t->ndim, uf_array_ndim(a));
    assert_int_equal(t->byte_offset, 0);
    assert_non_null(t->strides);
    for (int i = 0; i < t->ndim; i++) {
        assert_int_equal(t->shape[i], uf_array_shape(a)[i]);
        assert_int_equal(t->strides[i] * isz, uf_array_strides(a)[i]);
    }
    assert_int_equal(t->dtype.lanes, 1);
    assert_int_equal(t->dtype.bits, isz * 8);
}

static void count_release(void *ctx, void *data)
{
    (void)data;
    atomic_fetch_add((atomic_int *)ctx, 1);
}

/* A host array over `buf` whose release is counted in *n. */
static uf_array *counted_array(double *buf, int64_t len, atomic_int *n)
{
    uf_error err;
    uf_array *a = uf_array_wrap(UF_FLOAT64, 1, &len, NULL, buf, true,
                                count_release, n, &err);
    uf_assert_ok(a != NULL, &err);
    return a;
}

/* ---- host export and import ---------------------------------------------- */

static void every_dtype(void **state)
{
    (void)state;
    /* DLPack's (code, bits) of each dtype, from the spec's examples */
    static const struct {
        uf_dtype dt;
        int code, bits;
    } want[] = {
        {UF_BOOL, kDLBool, 8},         {UF_INT8, kDLInt, 8},
        {UF_UINT8, kDLUInt, 8},        {UF_INT16, kDLInt, 16},
        {UF_UINT16, kDLUInt, 16},      {UF_INT32, kDLInt, 32},
        {UF_UINT32, kDLUInt, 32},      {UF_INT64, kDLInt, 64},
        {UF_UINT64, kDLUInt, 64},      {UF_FLOAT32, kDLFloat, 32},
        {UF_FLOAT64, kDLFloat, 64},    {UF_COMPLEX64, kDLComplex, 64},
        {UF_COMPLEX128, kDLComplex, 128}};
    assert_int_equal(sizeof want / sizeof want[0], UF_NTYPES);
    const int64_t shape[2] = {2, 3};
    for (size_t k = 0; k < sizeof want / sizeof want[0]; k++) {
        uf_error err;
        long live = uf__alloc_live();
        uf_array *a = byte_iota(want[k].dt, 2, shape);
        DLManagedTensorVersioned *t = NULL;
        uf_assert_ok(uf_array_to_dlpack(a, &t, &err) == 0, &err);
        assert_int_equal(t->version.major, 1);
        assert_int_equal(t->version.minor, 1);
        assert_int_equal(t->flags, 0);
        assert_int_equal(t->dl_tensor.device.device_type, kDLCPU);
        assert_int_equal(t->dl_tensor.device.device_id, 0);
        assert_int_equal(t->dl_tensor.dtype.code, want[k].code);
        assert_int_equal(t->dl_tensor.dtype.bits, want[k].bits);
        assert_ptr_equal(t->dl_tensor.data, uf_array_data(a));
        assert_describes(&t->dl_tensor, a);
        uf_array *b = uf_array_from_dlpack(t, &err);
        uf_assert_ok(b != NULL, &err);
        assert_ptr_equal(uf_array_data(b), uf_array_data(a));
        assert_true(uf_array_flags(b) & UF_ARRAY_WRITEABLE);
        assert_same_elements(a, b);
        uf_array_release(a); /* b keeps the memory through the deleter */
        assert_int_equal(((unsigned char *)uf_array_data(b))[1],
                         want[k].dt == UF_BOOL ? 1 : 2);
        uf_array_release(b);
        assert_int_equal(uf__alloc_live(), live);
    }
}

static void zero_d_and_empty(void **state)
{
    (void)state;
    uf_error err;
    uf_array *z = byte_iota(UF_INT32, 0, NULL);
    DLManagedTensorVersioned *t;
    uf_assert_ok(uf_array_to_dlpack(z, &t, &err) == 0, &err);
    assert_int_equal(t->dl_tensor.ndim, 0);
    uf_array *b = uf_array_from_dlpack(t, &err);
    uf_assert_ok(b != NULL, &err);
    assert_int_equal(uf_array_ndim(b), 0);
    assert_int_equal(*(int32_t *)uf_array_data(b), 0x04030201);
    uf_array_release(b);
    uf_array_release(z);

    const int64_t shape[3] = {2, 0, 3};
    uf_array *e = byte_iota(UF_FLOAT32, 3, shape);
    uf_assert_ok(uf_array_to_dlpack(e, &t, &err) == 0, &err);
    assert_null(t->dl_tensor.data); /* the spec: no elements, NULL data */
    assert_int_equal(t->dl_tensor.shape[1], 0);
    b = uf_array_from_dlpack(t, &err);
    uf_assert_ok(b != NULL, &err);
    assert_int_equal(uf_array_size(b), 0);
    assert_memory_equal(uf_array_shape(b), shape, sizeof shape);
    uf_array_release(b);
    uf_array_release(e);
}

static void views_and_negative_strides(void **state)
{
    (void)state;
    uf_error err;
    const int64_t shape[2] = {4, 6};
    uf_array *a = f64_iota(2, shape);
    const char *exprs[] = {"::-1, 1::2", "1:3, ::-3", "..., 2", "::2, None",
                           ":, ::-1"};
    for (size_t k = 0; k < sizeof exprs / sizeof exprs[0]; k++) {
        uf_array *v = uf_array_slice(a, exprs[k], &err);
        uf_assert_ok(v != NULL, &err);
        DLManagedTensorVersioned *t;
        uf_assert_ok(uf_array_to_dlpack(v, &t, &err) == 0, &err);
        assert_ptr_equal(t->dl_tensor.data, uf_array_data(v));
        assert_int_equal(t->flags, 0); /* no copy */
        assert_describes(&t->dl_tensor, v);
        uf_array *b = uf_array_from_dlpack(t, &err);
        uf_assert_ok(b != NULL, &err);
        assert_memory_equal(uf_array_strides(b), uf_array_strides(v),
                            (size_t)uf_array_ndim(v) * sizeof(int64_t));
        assert_same_elements(v, b);
        uf_array_release(b);
        uf_array_release(v);
    }
    /* also the transpose: F order */
    uf_array *tr = uf_array_transpose(a, NULL, &err);
    DLManagedTensorVersioned *t;
    uf_assert_ok(uf_array_to_dlpack(tr, &t, &err) == 0, &err);
    assert_int_equal(t->dl_tensor.strides[0], 1);
    assert_int_equal(t->dl_tensor.strides[1], 6);
    t->deleter(t);
    uf_array_release(tr);
    uf_array_release(a);
}

static void read_only(void **state)
{
    (void)state;
    uf_error err;
    const int64_t three = 3, shape[2] = {2, 3};
    uf_array *a = f64_iota(1, &three);
    uf_array *ro = uf_array_broadcast_to(a, 2, shape, &err);
    uf_assert_ok(ro != NULL, &err);
    assert_false(uf_array_flags(ro) & UF_ARRAY_WRITEABLE);
    DLManagedTensorVersioned *t;
    uf_assert_ok(uf_array_to_dlpack(ro, &t, &err) == 0, &err);
    assert_int_equal(t->flags, DLPACK_FLAG_BITMASK_READ_ONLY);
    assert_int_equal(t->dl_tensor.strides[0], 0);
    uf_array *b = uf_array_from_dlpack(t, &err);
    uf_assert_ok(b != NULL, &err);
    assert_false(uf_array_flags(b) & UF_ARRAY_WRITEABLE);
    assert_int_equal(uf_array_set_writeable(b, true, &err), UF_ERR_READONLY);
    /* a view of it cannot be made writeable either */
    uf_array *v = uf_array_slice(b, "1:", &err);
    assert_int_equal(uf_array_set_writeable(v, true, &err), UF_ERR_READONLY);
    double one = 1.0;
    assert_int_not_equal(uf_array_fill(v, &one, UF_FLOAT64, &err), 0);
    uf_array_release(v);
    uf_array_release(b);

    /* a copy is the consumer's: writeable, IS_COPIED, not READ_ONLY */
    uf_dlpack_request rq = {.copy = 1};
    uf_assert_ok(uf_array_to_dlpack_ex(ro, &rq, &t, &err) == 0, &err);
    assert_int_equal(t->flags, DLPACK_FLAG_BITMASK_IS_COPIED);
    assert_ptr_not_equal(t->dl_tensor.data, uf_array_data(ro));
    b = uf_array_from_dlpack(t, &err);
    uf_assert_ok(b != NULL, &err);
    assert_true(uf_array_flags(b) & UF_ARRAY_WRITEABLE);
    assert_same_elements(ro, b);
    uf_array_release(b);
    uf_array_release(ro);
    uf_array_release(a);
}

/* int16 every 3 bytes: DLPack cannot count that in elements. */
static void strides_not_whole_elements(void **state)
{
    (void)state;
    uf_error err;
    static unsigned char buf[32];
    for (int i = 0; i < 32; i++)
        buf[i] = (unsigned char)i;
    const int64_t shape = 5, stride = 3;
    uf_array *a = uf_array_wrap(UF_INT16, 1, &shape, &stride, buf, true,
                                NULL, NULL, &err);
    uf_assert_ok(a != NULL, &err);
    DLManagedTensorVersioned *t;
    uf_dlpack_request never = {.copy = 0}, maybe = {.copy = -1};
    assert_int_equal(uf_array_to_dlpack_ex(a, &never, &t, &err),
                     UF_ERR_UNSUPPORTED);
    assert_non_null(strstr(err.message, "multiples of the itemsize"));
    assert_null(t);
    uf_assert_ok(uf_array_to_dlpack_ex(a, &maybe, &t, &err) == 0, &err);
    assert_int_equal(t->flags, DLPACK_FLAG_BITMASK_IS_COPIED);
    assert_int_equal(t->dl_tensor.strides[0], 1);
    const int16_t *p = t->dl_tensor.data;
    for (int i = 0; i < 5; i++) {
        int16_t w;
        memcpy(&w, buf + 3 * i, 2);
        assert_int_equal(p[i], w);
    }
    t->deleter(t);
    /* an axis of length 1 does not count */
    const int64_t shape1[2] = {1, 4}, strides1[2] = {3, 2};
    uf_array *b = uf_array_wrap(UF_INT16, 2, shape1, strides1, buf, true,
                                NULL, NULL, &err);
    uf_assert_ok(uf_array_to_dlpack_ex(b, &never, &t, &err) == 0, &err);
    assert_int_equal(t->dl_tensor.strides[1], 1);
    t->deleter(t);
    uf_array_release(b);
    uf_array_release(a);
}

static void host_requests(void **state)
{
    (void)state;
    uf_error err;
    const int64_t n = 4;
    uf_array *a = f64_iota(1, &n);
    DLManagedTensorVersioned *t;
    /* streams: a host array takes None and -1 only */
    uf_dlpack_request none = {.copy = -1}, minus1 = {true, -1, -1, false, {0}};
    uf_assert_ok(uf_array_to_dlpack_ex(a, &none, &t, &err) == 0, &err);
    t->deleter(t);
    uf_assert_ok(uf_array_to_dlpack_ex(a, &minus1, &t, &err) == 0, &err);
    t->deleter(t);
    const intptr_t bad[] = {0, 1, 2, 12345};
    for (size_t k = 0; k < 4; k++) {
        uf_dlpack_request rq = {true, bad[k], -1, false, {0}};
        assert_int_equal(uf_array_to_dlpack_ex(a, &rq, &t, &err),
                         UF_ERR_INVALID);
        assert_non_null(strstr(err.message, "None or -1"));
    }
    /* dl_device: the CPU, or refused */
    uf_dlpack_request cpu = {.copy = 0, .has_device = true,
                             .device = {kDLCPU, 0}};
    uf_assert_ok(uf_array_to_dlpack_ex(a, &cpu, &t, &err) == 0, &err);
    assert_ptr_equal(t->dl_tensor.data, uf_array_data(a));
    t->deleter(t);
    uf_dlpack_request cuda = {.copy = -1, .has_device = true,
                              .device = {kDLCUDA, 0}};
    assert_int_equal(uf_array_to_dlpack_ex(a, &cuda, &t, &err),
                     UF_ERR_UNSUPPORTED);
    assert_non_null(strstr(err.message, "kDLCUDA"));
    /* copy: 1 always, anything but -1/0/1 refused */
    uf_dlpack_request always = {.copy = 1};
    uf_assert_ok(uf_array_to_dlpack_ex(a, &always, &t, &err) == 0, &err);
    assert_ptr_not_equal(t->dl_tensor.data, uf_array_data(a));
    assert_int_equal(t->flags, DLPACK_FLAG_BITMASK_IS_COPIED);
    assert_memory_equal(t->dl_tensor.data, uf_array_data(a), 32);
    t->deleter(t);
    uf_dlpack_request two = {.copy = 2};
    assert_int_equal(uf_array_to_dlpack_ex(a, &two, &t, &err),
                     UF_ERR_INVALID);
    assert_int_equal(uf_array_to_dlpack(NULL, &t, &err), UF_ERR_INVALID);
    assert_int_equal(uf_array_to_dlpack(a, NULL, &err), UF_ERR_INVALID);
    uf_array_release(a);
}

/* The exported array lives until the deleter runs, on whatever thread. */
static void *call_deleter(void *arg)
{
    DLManagedTensorVersioned *t = arg;
    t->deleter(t);
    return NULL;
}

static void deleter_on_another_thread(void **state)
{
    (void)state;
    uf_error err;
    static double buf[8];
    atomic_int released = 0;
    for (int round = 0; round < 50; round++) {
        uf_array *a = counted_array(buf, 8, &released);
        uf_array *v = uf_array_slice(a, "::-2", &err);
        DLManagedTensorVersioned *t;
        uf_assert_ok(uf_array_to_dlpack(v, &t, &err) == 0, &err);
        uf_array_release(v);
        uf_array_release(a);
        assert_int_equal(atomic_load(&released), round);
        pthread_t th;
        assert_int_equal(pthread_create(&th, NULL, call_deleter, t), 0);
        assert_int_equal(pthread_join(th, NULL), 0);
        assert_int_equal(atomic_load(&released), round + 1);
    }
}

/* An import's deleter runs when the last view of the array goes. */
static void import_deleter_once(void **state)
{
    (void)state;
    uf_error err;
    const int64_t shape[2] = {2, 3};
    fake *f = fake_tensor(2, shape, NULL);
    f->s.proxy.dl_tensor.byte_offset = 16; /* starts at data[2] */
    uf_array *a = uf_array_from_dlpack(&f->s.proxy, &err);
    uf_assert_ok(a != NULL, &err);
    assert_ptr_equal(uf_array_data(a), &f->data[2]);
    const int64_t cstrides[2] = {24, 8};
    assert_memory_equal(uf_array_strides(a), cstrides, sizeof cstrides);
    uf_array *v = uf_array_slice(a, "1, ::-1", &err);
    uf_assert_ok(v != NULL, &err);
    assert_int_equal(*(double *)uf_array_data(v), 7.0); /* data[2 + 5] */
    uf_array_release(a);
    assert_int_equal(atomic_load(&f->s.calls), 0);
    uf_array_release(v);
    assert_int_equal(atomic_load(&f->s.calls), 1);
    free(f);

    /* explicit strides in elements, and a NULL deleter is allowed */
    const int64_t st[2] = {1, 2};
    f = fake_tensor(2, shape, st);
    f->s.proxy.deleter = NULL;
    a = uf_array_from_dlpack(&f->s.proxy, &err);
    uf_assert_ok(a != NULL, &err);
    const int64_t bst[2] = {8, 16};
    assert_memory_equal(uf_array_strides(a), bst, sizeof bst);
    assert_true(uf_array_flags(a) & UF_ARRAY_F_CONTIGUOUS);
    uf_array_release(a);
    free(f);
}

/* Every way an import fails calls the deleter once, before returning. */
static void import_failures(void **state)
{
    (void)state;
    const int64_t shape[2] = {2, 3}, neg[2] = {2, -1};
    enum { VERSION, MINOR_OK, DTYPE_BF16, DTYPE_LANES, DTYPE_F16, DTYPE_BOOL1,
           DEV_ROCM, DEV_MANAGED, DEV_CUDA_ID, NDIM_NEG, NDIM_BIG, NO_SHAPE,
           NEG_SHAPE, NO_DATA, STRIDE_OVERFLOW, NOMEM, NCASES };
    static const struct {
        int code;
        const char *text;
    } want[NCASES] = {
        [VERSION] = {UF_ERR_UNSUPPORTED, "DLPack 2.7"},
        [MINOR_OK] = {0, NULL},
        [DTYPE_BF16] = {UF_ERR_TYPE, "kDLBfloat"},
        [DTYPE_LANES] = {UF_ERR_TYPE, "4 lanes"},
        [DTYPE_F16] = {UF_ERR_TYPE, "16 bits"},
        [DTYPE_BOOL1] = {UF_ERR_TYPE, "kDLBool"},
        [DEV_ROCM] = {UF_ERR_UNSUPPORTED, "kDLROCM"},
        [DEV_MANAGED] = {UF_ERR_UNSUPPORTED, "kDLCUDAManaged"},
        [DEV_CUDA_ID] = {0, NULL}, /* checked below: needs a runtime */
        [NDIM_NEG] = {UF_ERR_LIMIT, "ndim -1"},
        [NDIM_BIG] = {UF_ERR_LIMIT, "ndim 65"},
        [NO_SHAPE] = {UF_ERR_INVALID, "no shape"},
        [NEG_SHAPE] = {UF_ERR_VALUE, "negative dimension -1"},
        [NO_DATA] = {UF_ERR_INVALID, "NULL"},
        [STRIDE_OVERFLOW] = {UF_ERR_OVERFLOW, "overflows"},
        [NOMEM] = {UF_ERR_NOMEM, NULL},
    };
    for (int c = 0; c < NCASES; c++) {
        if (c == DEV_CUDA_ID)
            continue;
        uf_error err;
        const int64_t big_strides[2] = {INT64_MAX / 2, 1};
        fake *f = fake_tensor(2, c == NEG_SHAPE ? neg : shape,
                              c == STRIDE_OVERFLOW ? big_strides : NULL);
        DLManagedTensorVersioned *t = &f->s.proxy;
        DLTensor *d = &t->dl_tensor;
        switch (c) {
        case VERSION: t->version = (DLPackVersion){2, 7}; break;
        case MINOR_OK: t->version = (DLPackVersion){1, 9}; break;
        case DTYPE_BF16: d->dtype = (DLDataType){kDLBfloat, 16, 1}; break;
        case DTYPE_LANES: d->dtype = (DLDataType){kDLFloat, 32, 4}; break;
        case DTYPE_F16: d->dtype = (DLDataType){kDLFloat, 16, 1}; break;
        case DTYPE_BOOL1: d->dtype = (DLDataType){kDLBool, 1, 1}; break;
        case DEV_ROCM: d->device = (DLDevice){kDLROCM, 0}; break;
        case DEV_MANAGED: d->device = (DLDevice){kDLCUDAManaged, 0}; break;
        case NDIM_NEG: d->ndim = -1; break;
        case NDIM_BIG: d->ndim = 65; break;
        case NO_SHAPE: d->shape = NULL; break;
        case NO_DATA: d->data = NULL; break;
        case NOMEM: uf__alloc_fail_at(1); break;
        default: break;
        }
        long live = uf__alloc_live();
        uf_array *a = uf_array_from_dlpack(t, &err);
        uf__alloc_fail_at(0);
        if (want[c].code == 0) {
            uf_assert_ok(a != NULL, &err);
            assert_int_equal(atomic_load(&f->s.calls), 0);
            uf_array_release(a);
        } else {
            if (a != NULL)
                uf_fail_at(__FILE__, __LINE__, "case %d imported", c);
            assert_int_equal(err.code, want[c].code);
            if (want[c].text && !strstr(err.message, want[c].text))
                uf_fail_at(__FILE__, __LINE__, "case %d: '%s' lacks '%s'",
                           c, err.message, want[c].text);
        }
        if (atomic_load(&f->s.calls) != 1)
            uf_fail_at(__FILE__, __LINE__, "case %d: deleter ran %d times",
                       c, atomic_load(&f->s.calls));
        assert_int_equal(uf__alloc_live(), live);
        free(f);
    }
    uf_error err;
    assert_null(uf_array_from_dlpack(NULL, &err));
    assert_int_equal(err.code, UF_ERR_INVALID);
    assert_null(uf_array_from_dlpack_legacy(NULL, &err));
    assert_int_equal(err.code, UF_ERR_INVALID);
}

static int legacy_calls;
static void legacy_delete(DLManagedTensor *self)
{
    (void)self;
    legacy_calls++;
}

static void legacy_both_ways(void **state)
{
    (void)state;
    uf_error err;
    const int64_t shape[2] = {3, 4};
    uf_array *a = byte_iota(UF_INT64, 2, shape);
    uf_array *v = uf_array_slice(a, "::-1, 1:", &err);
    DLManagedTensor *t;
    uf_assert_ok(uf_array_to_dlpack_legacy(v, NULL, &t, &err) == 0, &err);
    assert_ptr_equal(t->dl_tensor.data, uf_array_data(v));
    assert_describes(&t->dl_tensor, v);
    assert_int_equal(t->dl_tensor.dtype.code, kDLInt);
    uf_array *b = uf_array_from_dlpack_legacy(t, &err);
    uf_assert_ok(b != NULL, &err);
    assert_same_elements(v, b);
    uf_array_release(b);

    /* read-only: the unversioned tensor cannot say so (NumPy refuses
     * too), unless a copy is asked for */
    uf_array_set_writeable(v, false, &err);
    assert_int_equal(uf_array_to_dlpack_legacy(v, NULL, &t, &err),
                     UF_ERR_READONLY);
    assert_null(t);
    uf_dlpack_request copy = {.copy = 1};
    uf_assert_ok(uf_array_to_dlpack_legacy(v, &copy, &t, &err) == 0, &err);
    b = uf_array_from_dlpack_legacy(t, &err);
    uf_assert_ok(b != NULL, &err);
    assert_true(uf_array_flags(b) & UF_ARRAY_WRITEABLE);
    assert_same_elements(v, b);
    uf_array_release(b);
    uf_array_release(v);
    uf_array_release(a);

    /* a foreign legacy tensor: deleter once, on failure too */
    double data[4] = {1, 2, 3, 4};
    int64_t n = 3;
    DLManagedTensor m = {{data, {kDLCPU, 0}, 1, {kDLFloat, 64, 1}, &n, NULL,
                          8},
                         NULL, legacy_delete};
    legacy_calls = 0;
    b = uf_array_from_dlpack_legacy(&m, &err);
    uf_assert_ok(b != NULL, &err);
    assert_int_equal(uf_array_size(b), 3); /* byte_offset: from data[1] */
    assert_ptr_equal(uf_array_data(b), &data[1]);
    assert_int_equal(legacy_calls, 0);
    uf_array_release(b);
    assert_int_equal(legacy_calls, 1);
    m.dl_tensor.dtype.lanes = 2;
    assert_null(uf_array_from_dlpack_legacy(&m, &err));
    assert_int_equal(legacy_calls, 2);
}

/* ---- device arrays ----------------------------------------------------- */

static void device_round_trip(void **state)
{
    (void)state;
    uf_error err;
    const int64_t shape[2] = {5, 6};
    uf_array *h = f64_iota(2, shape);
    uf_array *d = uf_to_device(h, SIM, NULL, &err);
    uf_assert_ok(d != NULL, &err);
    const char *exprs[] = {":", "::-1, 1::2", "2, ::-1", "::2, None"};
    for (size_t k = 0; k < 4; k++) {
        uf_array *v = uf_array_slice(d, exprs[k], &err);
        uf_array *hv = uf_array_slice(h, exprs[k], &err);
        DLManagedTensorVersioned *t;
        uf_assert_ok(uf_array_to_dlpack(v, &t, &err) == 0, &err);
        assert_int_equal(t->dl_tensor.device.device_type, kDLCUDA);
        assert_int_equal(t->dl_tensor.device.device_id, 0);
        assert_ptr_equal(t->dl_tensor.data, uf_array_data(v));
        assert_int_equal(t->flags, 0);
        assert_describes(&t->dl_tensor, v);
        spy *s = spy_on(t);
        uf_array *b = uf_array_from_dlpack(&s->proxy, &err);
        uf_assert_ok(b != NULL, &err);
        assert_int_equal(uf_array_device(b).type, UF_DEVICE_CUDA);
        uf_array *back = uf_copy_to_host(b, NULL, NULL, &err);
        uf_assert_ok(back != NULL, &err);
        assert_same_elements(hv, back);
        uf_array_release(back);
        uf_array_release(b);
        assert_int_equal(atomic_load(&s->calls), 1);
        free(s);
        uf_array_release(hv);
        uf_array_release(v);
    }
    uf_array_release(d);
    uf_array_release(h);
}

/* A kernel call on an imported tensor: the import is the target's array. */
static void device_import_used_by_a_kernel(void **state)
{
    (void)state;
    uf_error err;
    static const char src[] =
        "from numba import vectorize\n"
        "@vectorize(['float64(float64)'])\n"
        "def twice_plus_one(x):\n"
        "    return 2.0 * x + 1.0\n";
    uf_context *ctx = uf_context_new(&err);
    uf_module *m = uf_module_from_string(ctx, "dl.py", src, &err);
    uf_assert_ok(m != NULL, &err);
    uf_func *f = uf_module_get(m, "twice_plus_one", &err);
    const int64_t n = 1000;
    uf_array *h = f64_iota(1, &n);
    uf_array *d = uf_to_device(h, SIM, NULL, &err);
    DLManagedTensorVersioned *t;
    uf_assert_ok(uf_array_to_dlpack(d, &t, &err) == 0, &err);
    uf_array_release(d); /* the tensor keeps it */
    uf_array *in = uf_array_from_dlpack(t, &err);
    uf_assert_ok(in != NULL, &err);
    uf_array *out = NULL;
    uf_call_options o = {.size = sizeof o, .target = SIM};
    uf_assert_ok(uf_call(f, &in, 1, &out, 1, &o, &err) == 0, &err);
    uf_array *back = uf_copy_to_host(out, NULL, NULL, &err);
    uf_assert_ok(back != NULL, &err);
    const double *x = uf_array_data(h), *y = uf_array_data(back);
    for (int64_t i = 0; i < n; i++)
        if (y[i] != 2.0 * x[i] + 1.0)
            uf_fail_at(__FILE__, __LINE__, "y[%lld] = %g", (long long)i,
                       y[i]);
    uf_array_release(back);
    uf_array_release(out);
    uf_array_release(in);
    uf_array_release(h);
    uf_module_free(m);
    uf_context_free(ctx);
}

static void device_copies(void **state)
{
    (void)state;
    uf_error err;
    const int64_t shape[2] = {4, 5};
    uf_array *h = f64_iota(2, shape);
    uf_array *d = uf_to_device(h, SIM, NULL, &err);
    uf_array *v = uf_array_slice(d, "::-1, ::2", &err);
    uf_array *hv = uf_array_slice(h, "::-1, ::2", &err);
    DLManagedTensorVersioned *t;
    /* to the host: a copy, which copy=0 refuses */
    uf_dlpack_request cpu = {.copy = -1, .has_device = true,
                             .device = {kDLCPU, 0}};
    uf_assert_ok(uf_array_to_dlpack_ex(v, &cpu, &t, &err) == 0, &err);
    assert_int_equal(t->dl_tensor.device.device_type, kDLCPU);
    assert_int_equal(t->flags, DLPACK_FLAG_BITMASK_IS_COPIED);
    uf_array *b = uf_array_from_dlpack(t, &err);
    uf_assert_ok(b != NULL, &err);
    assert_int_equal(uf_array_device(b).type, UF_DEVICE_HOST);
    assert_same_elements(hv, b);
    uf_array_release(b);
    cpu.copy = 0;
    assert_int_equal(uf_array_to_dlpack_ex(v, &cpu, &t, &err),
                     UF_ERR_UNSUPPORTED);
    cpu.copy = -1;
    cpu.has_stream = true;
    cpu.stream = 1;
    assert_int_equal(uf_array_to_dlpack_ex(v, &cpu, &t, &err),
                     UF_ERR_INVALID);
    /* another CUDA device: refused */
    uf_dlpack_request dev1 = {.copy = -1, .has_device = true,
                              .device = {kDLCUDA, 1}};
    assert_int_equal(uf_array_to_dlpack_ex(v, &dev1, &t, &err),
                     UF_ERR_UNSUPPORTED);
    /* copy=1 on the device: strided views and contiguous arrays */
    uf_array *srcs[2] = {v, d}, *hs[2] = {hv, h};
    for (int k = 0; k < 2; k++) {
        uf_dlpack_request always = {.copy = 1};
        uf_assert_ok(uf_array_to_dlpack_ex(srcs[k], &always, &t, &err) == 0,
                     &err);
        assert_int_equal(t->dl_tensor.device.device_type, kDLCUDA);
        assert_int_equal(t->flags, DLPACK_FLAG_BITMASK_IS_COPIED);
        assert_ptr_not_equal(t->dl_tensor.data, uf_array_data(srcs[k]));
        b = uf_array_from_dlpack(t, &err);
        uf_assert_ok(b != NULL, &err);
        uf_array *back = uf_copy_to_host(b, NULL, NULL, &err);
        uf_assert_ok(back != NULL, &err);
        assert_same_elements(hs[k], back);
        uf_array_release(back);
        uf_array_release(b);
    }
    /* stream 0 is refused, and nothing is kept */
    uf_dlpack_request zero = {true, 0, -1, false, {0}};
    assert_int_equal(uf_array_to_dlpack_ex(d, &zero, &t, &err),
                     UF_ERR_INVALID);
    assert_non_null(strstr(err.message, "ambiguous"));
    uf_array_release(hv);
    uf_array_release(v);
    uf_array_release(d);
    uf_array_release(h);
}

static void pinned_memory(void **state)
{
    (void)state;
    uf_error err;
    const int64_t shape[2] = {3, 4};
    for (int mapped = 0; mapped < 2; mapped++) {
        uf_array *p = mapped ? uf_mapped_array(UF_FLOAT32, 2, shape,
                                               UF_ORDER_C, SIM, &err)
                             : uf_pinned_array(UF_FLOAT32, 2, shape,
                                               UF_ORDER_C, SIM, &err);
        uf_assert_ok(p != NULL, &err);
        float *x = uf_array_data(p);
        for (int i = 0; i < 12; i++)
            x[i] = (float)i * 1.5f;
        DLManagedTensorVersioned *t;
        uf_assert_ok(uf_array_to_dlpack(p, &t, &err) == 0, &err);
        assert_int_equal(t->dl_tensor.device.device_type, kDLCUDAHost);
        assert_int_equal(t->dl_tensor.device.device_id, 0);
        assert_ptr_equal(t->dl_tensor.data, x);
        uf_array *b = uf_array_from_dlpack(t, &err);
        uf_assert_ok(b != NULL, &err);
        assert_int_equal(uf_array_device(b).type, UF_DEVICE_HOST);
        assert_same_elements(p, b); /* readable on the host */
        uf_array_release(b);
        /* as kDLCPU: the same memory, no copy */
        uf_dlpack_request cpu = {.copy = 0, .has_device = true,
                                 .device = {kDLCPU, 0}};
        uf_assert_ok(uf_array_to_dlpack_ex(p, &cpu, &t, &err) == 0, &err);
        assert_int_equal(t->dl_tensor.device.device_type, kDLCPU);
        assert_ptr_equal(t->dl_tensor.data, x);
        t->deleter(t);
        /* a copy stays pinned */
        uf_dlpack_request copy = {.copy = 1};
        uf_assert_ok(uf_array_to_dlpack_ex(p, &copy, &t, &err) == 0, &err);
        assert_int_equal(t->dl_tensor.device.device_type, kDLCUDAHost);
        assert_ptr_not_equal(t->dl_tensor.data, x);
        assert_memory_equal(t->dl_tensor.data, x, 48);
        t->deleter(t);
        uf_array_release(p);
    }
}

/* Spins until *flag is set: holds its stream (cudasim only). */
static void k_gate(void **params)
{
    atomic_int *flag = *(atomic_int **)params[0];
    while (!atomic_load(flag))
        sched_yield();
}
static const uint32_t gate_sizes[] = {8};
static const uf__sim_kernel gate = {"gate", k_gate, 1, 0, gate_sizes};

static void stream_handshake(void **state)
{
    (void)state;
    uf_error err;
    const uf__cuda_rt *rt = uf__cuda_rt_get(SIM, &err);
    uf_assert_ok(rt != NULL, &err);
    bool sim = rt->drv->image_kind == UF__CU_IMAGE_SIM;
    const int64_t n = 1 << 20;
    uf_array *h = f64_iota(1, &n);
    uf_array *zeros = uf_zeros(UF_FLOAT64, 1, &n, UF_ORDER_C, &err);
    for (int round = 0; round < 3; round++) {
        uf_stream *A = uf_stream_create(SIM, &err);
        uf_stream *B = uf_stream_create(SIM, &err);
        uf_assert_ok(A && B, &err);
        uf_array *d = uf_to_device(zeros, SIM, NULL, &err);
        uf_assert_ok(d != NULL, &err);
        uf_assert_ok(uf_array_set_stream(d, A, &err) == 0, &err);
        atomic_int open = 0;
        uf__cu_module mod = NULL;
        if (sim) {
            uf__sim_image img = {UF__SIM_IMAGE_MAGIC, 1, &gate};
            uf__cu_func fn;
            void *flag = &open, *params[] = {&flag};
            assert_int_equal(rt->drv->module_load_data(&mod, &img), 0);
            assert_int_equal(rt->drv->module_get_function(&fn, mod, "gate"),
                             0);
            assert_int_equal(rt->drv->launch_kernel(fn, 1, 1, 1, 1, 1, 1, 0,
                                                    A->s, params, NULL),
                             0);
        }
        /* the producer's write, queued on A (behind the gate) */
        uf_assert_ok(uf_copy_to_device(d, h, A, &err) == 0, &err);
        uf_dlpack_request rq = {true, (intptr_t)(uintptr_t)B->s, -1, false,
                                {0}};
        DLManagedTensorVersioned *t;
        uf_assert_ok(uf_array_to_dlpack_ex(d, &rq, &t, &err) == 0, &err);
        uf_array *in = uf_array_from_dlpack(t, &err);
        uf_assert_ok(in != NULL, &err);
        /* the consumer reads on B */
        uf_array *out = uf_copy_to_host(in, NULL, B, &err);
        uf_assert_ok(out != NULL, &err);
        if (sim) {
            /* B waits for A, which the gate holds: not done yet */
            assert_int_equal(rt->drv->stream_query(B->s),
                             UF__CU_ERROR_NOT_READY);
            atomic_store(&open, 1);
        }
        uf_assert_ok(uf_stream_synchronize(B, &err) == 0, &err);
        const double *x = uf_array_data(h), *y = uf_array_data(out);
        for (int64_t i = 0; i < n; i++)
            if (y[i] != x[i])
                uf_fail_at(__FILE__, __LINE__,
                           "round %d: y[%lld] = %g, want %g: B did not "
                           "wait for A", round, (long long)i, y[i], x[i]);
        uf_array_release(out);
        uf_array_release(in);
        uf_array_release(d);
        uf_stream_destroy(A);
        uf_stream_destroy(B);
        if (mod)
            rt->drv->module_unload(mod);
    }
    uf_array_release(zeros);
    uf_array_release(h);
}

/* Legacy and per-thread default streams and -1; the device legacy tensor;
 * a device tensor's deleter on another thread. */
static void device_streams_and_legacy(void **state)
{
    (void)state;
    uf_error err;
    const int64_t n = 4096;
    uf_array *h = f64_iota(1, &n);
    uf_stream *A = uf_stream_create(SIM, &err);
    const intptr_t values[] = {1, 2, -1};
    for (int k = 0; k < 4; k++) {
        uf_array *d = uf_to_device(h, SIM, A, &err);
        uf_assert_ok(d != NULL, &err);
        uf_dlpack_request rq = {k < 3, k < 3 ? values[k] : 0, -1, false,
                                {0}};
        DLManagedTensorVersioned *t;
        uf_assert_ok(uf_array_to_dlpack_ex(d, &rq, &t, &err) == 0, &err);
        uf_array_release(d);
        if (k == 2) /* -1: no handshake, the consumer synchronises */
            uf_assert_ok(uf_stream_synchronize(A, &err) == 0, &err);
        uf_array *in = uf_array_from_dlpack(t, &err);
        uf_array *back = uf_copy_to_host(in, NULL, NULL, &err);
        uf_assert_ok(back != NULL, &err);
        assert_same_elements(h, back);
        uf_array_release(back);
        uf_array_release(in);
    }
    uf_array *d = uf_to_device(h, SIM, NULL, &err);
    DLManagedTensor *l;
    uf_assert_ok(uf_array_to_dlpack_legacy(d, NULL, &l, &err) == 0, &err);
    assert_int_equal(l->dl_tensor.device.device_type, kDLCUDA);
    uf_array *in = uf_array_from_dlpack_legacy(l, &err);
    uf_assert_ok(in != NULL, &err);
    uf_array *back = uf_copy_to_host(in, NULL, NULL, &err);
    assert_same_elements(h, back);
    uf_array_release(back);
    uf_array_release(in);
    DLManagedTensorVersioned *t;
    uf_assert_ok(uf_array_to_dlpack(d, &t, &err) == 0, &err);
    uf_array_release(d);
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, call_deleter, t), 0);
    assert_int_equal(pthread_join(th, NULL), 0);
    uf_stream_destroy(A);
    uf_array_release(h);
}

/* A CUDA tensor on a device other than the runtime's: refused, deleted. */
static void device_id_refused(void **state)
{
    (void)state;
    uf_error err;
    const int64_t n = 4;
    uf_array *d = uf_device_array(UF_FLOAT64, 1, &n, UF_ORDER_C, SIM, &err);
    uf_assert_ok(d != NULL, &err);
    DLManagedTensorVersioned *t;
    uf_assert_ok(uf_array_to_dlpack(d, &t, &err) == 0, &err);
    spy *s = spy_on(t);
    s->proxy.dl_tensor.device.device_id = 3;
    assert_null(uf_array_from_dlpack(&s->proxy, &err));
    assert_int_equal(err.code, UF_ERR_UNSUPPORTED);
    assert_non_null(strstr(err.message, "device 3"));
    assert_int_equal(atomic_load(&s->calls), 1);
    free(s);
    uf_array_release(d);
}

int main(void)
{
    SIM = cuda_test_target();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_dtype),
        cmocka_unit_test(zero_d_and_empty),
        cmocka_unit_test(views_and_negative_strides),
        cmocka_unit_test(read_only),
        cmocka_unit_test(strides_not_whole_elements),
        cmocka_unit_test(host_requests),
        cmocka_unit_test(deleter_on_another_thread),
        cmocka_unit_test(import_deleter_once),
        cmocka_unit_test(import_failures),
        cmocka_unit_test(legacy_both_ways),
        cmocka_unit_test(device_round_trip),
        cmocka_unit_test(device_import_used_by_a_kernel),
        cmocka_unit_test(device_copies),
        cmocka_unit_test(pinned_memory),
        cmocka_unit_test(stream_handshake),
        cmocka_unit_test(device_streams_and_legacy),
        cmocka_unit_test(device_id_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
