/* The CUDA Array Interface v3 (ufjit/interop.h) on cudasim, or the GPU
 * under UFJIT_TEST_CUDA_TARGET=cuda: device arrays exported and imported
 * again (views, negative and zero strides, every dtype, 0-d and empty),
 * kernels run on imported memory, the keep-alive called once, read-only
 * descriptions enforced, every bad description refused by name, the
 * protocol's streams (external streams, the event handshake), stream
 * ordering between a producer and a consumer stream, and the import
 * returning while the producer's kernel still runs. */
#include <time.h>

#include "cuda_kernel_file.h"
#include "targets/cuda/cuda_memory.h"

static int setup(void **s)
{
    (void)s;
    return kernel_file_load("interop.py");
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* keep-alive callbacks count their calls here */
typedef struct keepalive_count {
    int calls;
    void *data;
} keepalive_count;

static void count_release(void *counter, void *data)
{
    keepalive_count *k = counter;
    k->calls++;
    k->data = data;
}

/* host array of dtype dt with distinct values in each element */
static uf_array *host_values(uf_dtype dt, int nd, const int64_t *shape)
{
    uf_error err;
    uf_array *a = uf_empty(dt, nd, shape, UF_ORDER_C, &err);
    uf_assert_ok(a != NULL, &err);
    unsigned char *p = uf_array_data(a);
    size_t item = uf_dtype_itemsize(dt);
    for (int64_t i = 0; i < uf_array_size(a); i++)
        for (size_t b = 0; b < item; b++)
            p[(size_t)i * item + b] =
                dt == UF_BOOL ? (unsigned char)(i % 3 == 0)
                              : (unsigned char)(i * 7 + (int64_t)b * 3 + 1);
    return a;
}

static uf_array *device_of(const uf_array *h)
{
    uf_error err;
    uf_array *d = uf_to_device(h, SIM, NULL, &err);
    uf_assert_ok(d != NULL, &err);
    return d;
}

static uf_array *to_host(const uf_array *d)
{
    uf_error err;
    uf_array *h = uf_copy_to_host(d, NULL, NULL, &err);
    uf_assert_ok(h != NULL, &err);
    return h;
}

static uf_cai export_ok(const uf_array *a)
{
    uf_error err;
    uf_cai c;
    memset(&c, 0xa5, sizeof c); /* everything must be written */
    uf_assert_ok(uf_array_to_cai(a, &c, &err) == 0, &err);
    return c;
}

static uf_array *import_ok(const uf_cai *c, uf_stream *consumer,
                           keepalive_count *k)
{
    uf_error err;
    uf_array *a = uf_array_from_cai(c, SIM, consumer, count_release, k, &err);
    uf_assert_ok(a != NULL, &err);
    return a;
}

/* ---- export -------------------------------------------------------------- */

static void export_fields(void **state)
{
    (void)state;
    uf_error err;
    const int64_t shape[2] = {3, 4};
    uf_array *h = host_values(UF_FLOAT64, 2, shape);
    uf_array *d = device_of(h);
    uf_cai c = export_ok(d);
    assert_int_equal(c.version, 3);
    assert_string_equal(c.typestr, "<f8");
    assert_int_equal(c.ndim, 2);
    assert_int_equal(c.shape[0], 3);
    assert_int_equal(c.shape[1], 4);
    assert_false(c.has_strides); /* C-contiguous: strides None */
    assert_true(c.data == (uintptr_t)uf_array_data(d));
    assert_false(c.readonly);
    assert_false(c.has_mask);
    assert_false(c.has_stream); /* no default stream: the legacy one */

    /* transposed: strides in bytes */
    uf_array *t = uf_array_transpose(d, NULL, &err);
    c = export_ok(t);
    assert_true(c.has_strides);
    assert_int_equal(c.shape[0], 4);
    assert_int_equal(c.strides[0], 8);
    assert_int_equal(c.strides[1], 32);
    /* a reversed, stepped view: negative strides, data at its first */
    uf_array *v = uf_array_slice(d, "::-1, 1::2", &err);
    uf_assert_ok(v != NULL, &err);
    c = export_ok(v);
    assert_true(c.has_strides);
    assert_int_equal(c.strides[0], -32);
    assert_int_equal(c.strides[1], 16);
    assert_true(c.data == (uintptr_t)uf_array_data(d) + 2 * 32 + 8);
    /* broadcast: zero strides and read-only (NumPy's broadcast_to) */
    const int64_t bshape[3] = {5, 3, 4};
    uf_array *b = uf_array_broadcast_to(d, 3, bshape, &err);
    uf_assert_ok(b != NULL, &err);
    c = export_ok(b);
    assert_true(c.has_strides);
    assert_int_equal(c.strides[0], 0);
    assert_true(c.readonly);
    /* a length-1 axis with any stride is still C-contiguous */
    uf_array *row = uf_array_slice(d, "1:2, :", &err);
    c = export_ok(row);
    assert_false(c.has_strides);
    /* WRITEABLE cleared: readonly */
    uf_assert_ok(uf_array_set_writeable(row, false, &err) == 0, &err);
    assert_true(export_ok(row).readonly);

    /* the default stream: its handle */
    uf_stream *s = uf_stream_create(SIM, &err);
    uf_assert_ok(s != NULL, &err);
    uf_assert_ok(uf_array_set_stream(d, s, &err) == 0, &err);
    c = export_ok(d);
    assert_true(c.has_stream);
    assert_true(c.stream == uf_stream_handle(s));
    assert_true(c.stream > 2);
    /* a destroyed default stream is no longer named */
    uf_stream_destroy(s);
    assert_false(export_ok(d).has_stream);

    uf_array_release(row);
    uf_array_release(b);
    uf_array_release(v);
    uf_array_release(t);
    uf_array_release(d);
    uf_array_release(h);
}

static void export_0d_empty_and_host(void **state)
{
    (void)state;
    uf_error err;
    uf_array *h0 = host_values(UF_INT32, 0, NULL);
    uf_array *d0 = device_of(h0);
    uf_cai c = export_ok(d0);
    assert_int_equal(c.ndim, 0);
    assert_false(c.has_strides);
    assert_string_equal(c.typestr, "<i4");
    const int64_t eshape[2] = {0, 3};
    uf_array *he = host_values(UF_COMPLEX128, 2, eshape);
    uf_array *de = device_of(he);
    c = export_ok(de);
    assert_int_equal(c.shape[0], 0);
    assert_false(c.has_strides); /* empty arrays are C-contiguous */
    assert_string_equal(c.typestr, "<c16");

    /* host memory has no device address: refused, naming what to do */
    assert_int_equal(uf_array_to_cai(h0, &c, &err), UF_ERR_INVALID);
    assert_non_null(strstr(err.message, "host array"));
    assert_non_null(strstr(err.message, "uf_to_device"));
    const int64_t n = 6;
    uf_array *pinned = uf_pinned_array(UF_FLOAT64, 1, &n, UF_ORDER_C, SIM,
                                       &err);
    uf_assert_ok(pinned != NULL, &err);
    assert_int_equal(uf_array_to_cai(pinned, &c, &err), UF_ERR_INVALID);
    assert_non_null(strstr(err.message, "pinned host array"));
    /* mapped memory: the device's address of it, as numba exports it */
    uf_array *mapped = uf_mapped_array(UF_FLOAT64, 1, &n, UF_ORDER_C, SIM,
                                       &err);
    uf_assert_ok(mapped != NULL, &err);
    for (int i = 0; i < n; i++)
        ((double *)uf_array_data(mapped))[i] = 1.5 * i;
    uf_array *mv = uf_array_slice(mapped, "1::2", &err);
    c = export_ok(mv);
    const uf__cuda_buffer *mb = uf__cuda_buffer_of(mapped);
    assert_true(c.data == (uintptr_t)mb->dptr + 8);
    keepalive_count k = {0};
    uf_array *im = import_ok(&c, NULL, &k);
    uf_array *back = to_host(im);
    assert_same_elements(back, mv);
    uf_array_release(back);
    uf_array_release(im);
    assert_int_equal(k.calls, 1);

    assert_int_equal(uf_array_to_cai(NULL, &c, &err), UF_ERR_INVALID);
    assert_int_equal(uf_array_to_cai(d0, NULL, &err), UF_ERR_INVALID);
    uf_array_release(mv);
    uf_array_release(mapped);
    uf_array_release(pinned);
    uf_array_release(de);
    uf_array_release(he);
    uf_array_release(d0);
    uf_array_release(h0);
}

/* ---- round trips -------------------------------------------------------- */

/* C -> CAI -> C for view `v` of device array `d` (host twin `hv`): the
 * import describes itself as the original did and holds its values. */
static void round_trip(uf_array *v, const uf_array *hv)
{
    uf_cai c = export_ok(v);
    keepalive_count k = {0};
    uf_array *im = import_ok(&c, NULL, &k);
    assert_int_equal(uf_array_device(im).type, UF_DEVICE_CUDA);
    assert_int_equal(uf_array_dtype(im), uf_array_dtype(v));
    assert_ptr_equal(uf_array_data(im), uf_array_data(v));
    /* the import's runtime is the target's (cudasim's, not `cuda`'s) */
    uf_error err;
    assert_ptr_equal(uf__cuda_array_rt(im, &err), uf__cuda_rt_get(SIM, &err));
    uf_cai again = export_ok(im);
    assert_int_equal(again.ndim, c.ndim);
    assert_string_equal(again.typestr, c.typestr);
    assert_true(again.has_strides == c.has_strides);
    assert_true(again.data == c.data);
    assert_true(again.readonly == c.readonly);
    for (int i = 0; i < c.ndim; i++) {
        assert_int_equal(again.shape[i], c.shape[i]);
        if (c.has_strides)
            assert_int_equal(again.strides[i], c.strides[i]);
    }
    uf_array *back = to_host(im);
    assert_same_elements(back, hv);
    uf_array_release(back);
    assert_int_equal(k.calls, 0);
    uf_array_release(im);
    assert_int_equal(k.calls, 1);
    assert_true(k.data == (void *)c.data);
}

static void round_trips_every_dtype(void **state)
{
    (void)state;
    uf_error err;
    static const char *const exprs[] = {
        ":, :, :", "::-1, :, ::2", "1:, ::-2, 2", "..., ::-1", "0, 0, 0",
        "2:2, :, :", "None, ::-1, 1:3, :"};
    const int64_t shape[3] = {3, 4, 5};
    for (int dt = 0; dt < UF_NTYPES; dt++) {
        uf_array *h = host_values((uf_dtype)dt, 3, shape);
        uf_array *d = device_of(h);
        for (size_t i = 0; i < sizeof exprs / sizeof exprs[0]; i++) {
            uf_array *v = uf_array_slice(d, exprs[i], &err);
            uf_array *hv = uf_array_slice(h, exprs[i], &err);
            uf_assert_ok(v != NULL && hv != NULL, &err);
            round_trip(v, hv);
            uf_array_release(hv);
            uf_array_release(v);
        }
        /* F order and zero strides */
        uf_array *t = uf_array_transpose(d, NULL, &err);
        uf_array *ht = uf_array_transpose(h, NULL, &err);
        round_trip(t, ht);
        const int64_t bshape[4] = {2, 3, 4, 5};
        uf_array *b = uf_array_broadcast_to(d, 4, bshape, &err);
        uf_array *hb = uf_array_broadcast_to(h, 4, bshape, &err);
        uf_assert_ok(b != NULL && hb != NULL, &err);
        round_trip(b, hb);
        uf_array_release(hb);
        uf_array_release(b);
        uf_array_release(ht);
        uf_array_release(t);
        uf_array_release(d);
        uf_array_release(h);
    }
}

/* ---- kernels on imported memory ------------------------------------------ */

static void kernels_on_imports(void **state)
{
    (void)state;
    uf_error err;
    const int64_t shape[2] = {6, 8};
    uf_array *h = uf_empty(UF_FLOAT64, 2, shape, UF_ORDER_C, &err);
    for (int i = 0; i < 48; i++)
        ((double *)uf_array_data(h))[i] = 0.25 * i - 3;
    uf_array *src = device_of(h);
    uf_array *dst = uf_device_array(UF_FLOAT64, 2, shape, UF_ORDER_C, SIM,
                                    &err);
    uf_assert_ok(dst != NULL, &err);
    /* a strided, reversed input and a strided output, both imported */
    uf_array *sv = uf_array_slice(src, "::-2, 1::3", &err);
    uf_array *dv = uf_array_slice(dst, "1::2, ::3", &err);
    uf_cai ci = export_ok(sv), co = export_ok(dv);
    ci.readonly = true; /* reading needs no write access */
    keepalive_count ki = {0}, ko = {0};
    uf_array *in = import_ok(&ci, NULL, &ki);
    uf_array *out = import_ok(&co, NULL, &ko);
    uf_call_options o = {.size = sizeof o, .target = SIM};
    uf_array *outs[1] = {out};
    uf_assert_ok(uf_call(get("affine"), &in, 1, outs, 1, &o, &err) == 0,
                 &err);
    assert_ptr_equal(outs[0], out);
    uf_array *hd = to_host(dst);
    const double *got = uf_array_data(hd), *x = uf_array_data(h);
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 8; j++) {
            bool written = i % 2 == 1 && j % 3 == 0;
            /* dst[1::2, ::3][a, b] = 3 * src[::-2, 1::3][a, b] + 1 */
            int a = i / 2, b = j / 3;
            double want = written ? 3 * x[(5 - 2 * a) * 8 + 1 + 3 * b] + 1
                                  : 0;
            if (written)
                assert_true(got[i * 8 + j] == want);
        }
    uf_array_release(hd);

    /* a raw kernel reads a read-only import through a declared signature */
    const int64_t n = 8;
    uf_array *row = uf_array_slice(src, "2, :", &err);
    uf_cai cr = export_ok(row);
    cr.readonly = true;
    uf_array *ro = import_ok(&cr, NULL, &ki);
    uf_array *res = uf_device_array(UF_FLOAT64, 1, &n, UF_ORDER_C, SIM, &err);
    uf_array *args[2] = {ro, res};
    run("copy_into", 1, 32, args, 2);
    uf_array *hr = to_host(res);
    assert_memory_equal(uf_array_data(hr), x + 16, 8 * sizeof(double));
    uf_array_release(hr);
    uf_array_release(res);
    uf_array_release(ro);
    uf_array_release(row);

    uf_array_release(out);
    uf_array_release(in);
    assert_int_equal(ki.calls, 2);
    assert_int_equal(ko.calls, 1);
    uf_array_release(dv);
    uf_array_release(sv);
    uf_array_release(dst);
    uf_array_release(src);
    uf_array_release(h);
}

/* ---- keep-alive and read-only ------------------------------------------- */

static void keepalive_after_last_view(void **state)
{
    (void)state;
    uf_error err;
    const int64_t n = 10;
    uf_array *h = host_values(UF_INT64, 1, &n);
    uf_array *d = device_of(h);
    uf_cai c = export_ok(d);
    keepalive_count k = {0};
    uf_array *im = import_ok(&c, NULL, &k);
    uf_array *v1 = uf_array_slice(im, "::-3", &err);
    uf_array *v2 = uf_array_slice(v1, "1:", &err);
    uf_assert_ok(v1 != NULL && v2 != NULL, &err);
    uf_array_release(im);
    uf_array_release(v1);
    assert_int_equal(k.calls, 0);
    uf_array *back = to_host(v2); /* still readable */
    assert_int_equal(((int64_t *)uf_array_data(back))[0],
                     ((int64_t *)uf_array_data(h))[6]);
    uf_array_release(back);
    uf_array_release(v2);
    assert_int_equal(k.calls, 1);
    /* NULL keep-alive: nothing to call */
    uf_array *im2 = uf_array_from_cai(&c, SIM, NULL, NULL, NULL, &err);
    uf_assert_ok(im2 != NULL, &err);
    uf_array_release(im2);
    /* a failed import does not call it: the caller still owns the
     * producer */
    c.version = 7;
    assert_null(uf_array_from_cai(&c, SIM, NULL, count_release, &k, &err));
    assert_int_equal(k.calls, 1);
    uf_array_release(d);
    uf_array_release(h);
}

static void readonly_enforced(void **state)
{
    (void)state;
    uf_error err;
    const int64_t n = 16;
    uf_array *h = host_values(UF_FLOAT64, 1, &n);
    for (int i = 0; i < n; i++)
        ((double *)uf_array_data(h))[i] = i;
    uf_array *d = device_of(h);
    uf_cai c = export_ok(d);
    c.readonly = true;
    keepalive_count k = {0};
    uf_array *ro = import_ok(&c, NULL, &k);
    assert_false(uf_array_flags(ro) & UF_ARRAY_WRITEABLE);
    /* cannot be made writeable, nor can its views */
    assert_int_equal(uf_array_set_writeable(ro, true, &err), UF_ERR_READONLY);
    uf_array *v = uf_array_slice(ro, "::2", &err);
    assert_false(uf_array_flags(v) & UF_ARRAY_WRITEABLE);
    assert_int_equal(uf_array_set_writeable(v, true, &err), UF_ERR_READONLY);
    /* a ufunc's output */
    uf_call_options o = {.size = sizeof o, .target = SIM};
    uf_array *outs[1] = {ro};
    assert_int_equal(uf_call(get("affine"), &d, 1, outs, 1, &o, &err),
                     UF_ERR_READONLY);
    assert_non_null(strstr(err.message, "read-only"));
    /* a copy from the host */
    assert_int_equal(uf_copy_to_device(ro, h, NULL, &err), UF_ERR_READONLY);
    /* a raw kernel that stores into it: a typing error */
    uf_launch_options lo = {.size = sizeof lo, .target = SIM};
    assert_int_equal(uf_launch(get("bump"), (uf_dim3){1, 1, 1},
                               (uf_dim3){32, 1, 1}, &ro, 1, &lo, &err),
                     UF_ERR_TYPING);
    assert_non_null(strstr(err.message, "readonly"));
    /* nothing was written */
    uf_array *back = to_host(d);
    assert_same_elements(back, h);
    uf_array_release(back);
    /* the writeable import of the same memory is written by bump */
    c.readonly = false;
    uf_array *rw = import_ok(&c, NULL, &k);
    uf_assert_ok(uf_launch(get("bump"), (uf_dim3){1, 1, 1},
                           (uf_dim3){32, 1, 1}, &rw, 1, &lo, &err) == 0,
                 &err);
    back = to_host(d);
    for (int i = 0; i < n; i++)
        assert_true(((double *)uf_array_data(back))[i] == i + 1.0);
    uf_array_release(back);
    uf_array_release(rw);
    uf_array_release(v);
    uf_array_release(ro);
    assert_int_equal(k.calls, 2);
    uf_array_release(d);
    uf_array_release(h);
}

/* ---- bad descriptions --------------------------------------------------- */

typedef struct bad_case {
    const char *what;
    void (*spoil)(uf_cai *c);
    int code;
    const char *message; /* a part of the error message */
} bad_case;

static void v_neg(uf_cai *c) { c->version = -1; }
static void v_four(uf_cai *c) { c->version = 4; }
static void masked(uf_cai *c) { c->has_mask = true; }
static void nd_neg(uf_cai *c) { c->ndim = -1; }
static void nd_big(uf_cai *c) { c->ndim = UF_MAXDIMS + 1; }
static void ts_swapped(uf_cai *c) { strcpy(c->typestr, ">f8"); }
static void ts_kind(uf_cai *c) { strcpy(c->typestr, "<M8"); }
static void ts_size(uf_cai *c) { strcpy(c->typestr, "<f3"); }
static void ts_garbage(uf_cai *c) { strcpy(c->typestr, "hello"); }
static void ts_empty(uf_cai *c) { c->typestr[0] = '\0'; }
static void ts_unterminated(uf_cai *c) { memset(c->typestr, 'f', 8); }
static void shape_neg(uf_cai *c) { c->shape[1] = -2; }
static void shape_overflow(uf_cai *c)
{
    c->shape[0] = INT64_MAX / 2;
    c->shape[1] = 4;
}
static void data_null(uf_cai *c) { c->data = 0; }
static void data_unaligned(uf_cai *c) { c->data += 4; }
static void stride_unaligned(uf_cai *c)
{
    c->has_strides = true;
    c->strides[0] = 36;
    c->strides[1] = 8;
}
static void stride_reach(uf_cai *c)
{
    c->has_strides = true;
    c->strides[0] = INT64_MAX / 2 - 7;
    c->strides[1] = 8;
}
static void stride_below_zero(uf_cai *c)
{
    /* two steps of it reach just below address 0 */
    c->has_strides = true;
    c->strides[0] = -(int64_t)(c->data / 16 + 1) * 8;
    c->strides[1] = 8;
}
static void stream_zero(uf_cai *c)
{
    c->has_stream = true;
    c->stream = 0;
}
static void stream_bogus(uf_cai *c)
{
    c->has_stream = true;
    c->stream = 0x1230;
}

static void bad_descriptions(void **state)
{
    (void)state;
    uf_error err;
    const int64_t shape[2] = {3, 4};
    uf_array *h = host_values(UF_FLOAT64, 2, shape);
    uf_array *d = device_of(h);
    const uf_cai good = export_ok(d);
    static const bad_case cases[] = {
        {"version -1", v_neg, UF_ERR_VALUE, "version -1"},
        {"version 4", v_four, UF_ERR_VALUE, "version 4"},
        {"mask", masked, UF_ERR_UNSUPPORTED, "mask"},
        {"ndim -1", nd_neg, UF_ERR_VALUE, "-1 dimensions"},
        {"ndim 65", nd_big, UF_ERR_VALUE, "65 dimensions"},
        {"byte order", ts_swapped, UF_ERR_TYPE, "'>f8' is in the non-native"},
        {"datetime", ts_kind, UF_ERR_TYPE, "'<M8'"},
        {"float3", ts_size, UF_ERR_TYPE, "'<f3'"},
        {"garbage", ts_garbage, UF_ERR_TYPE, "'hello'"},
        {"empty typestr", ts_empty, UF_ERR_TYPE, "typestring"},
        {"unterminated", ts_unterminated, UF_ERR_VALUE, "not terminated"},
        {"negative shape", shape_neg, UF_ERR_VALUE, "shape[1] is negative"},
        {"shape overflow", shape_overflow, UF_ERR_OVERFLOW, "overflows"},
        {"data 0", data_null, UF_ERR_VALUE, "data is 0 for 12 elements"},
        {"unaligned data", data_unaligned, UF_ERR_VALUE, "not aligned"},
        {"unaligned stride", stride_unaligned, UF_ERR_VALUE,
         "strides[0] = 36"},
        {"stride reach", stride_reach, UF_ERR_OVERFLOW, "64-bit"},
        {"below 0", stride_below_zero, UF_ERR_VALUE, "address space"},
        {"stream 0", stream_zero, UF_ERR_VALUE, "stream 0"},
        {"bogus stream", stream_bogus, UF_ERR_INVALID,
         "0x1230 is not a stream"},
    };
    keepalive_count k = {0};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const bad_case *b = &cases[i];
        if (b->spoil == stream_bogus && cuda_test_on_gpu)
            continue; /* the real driver trusts a handle (and may crash) */
        uf_cai c = good;
        b->spoil(&c);
        uf_error_clear(&err);
        uf_array *a = uf_array_from_cai(&c, SIM, NULL, count_release, &k,
                                        &err);
        if (a != NULL || err.code != b->code ||
            strstr(err.message, b->message) == NULL)
            fail_msg("%s: gave %p, %s: %s (wanted %s with \"%s\")", b->what,
                     (void *)a, uf_err_name(err.code), err.message,
                     uf_err_name(b->code), b->message);
        if (strstr(err.message, "uf_array_from_cai") == NULL)
            fail_msg("%s: the message does not name the call: %s", b->what,
                     err.message);
    }
    assert_int_equal(k.calls, 0);
    /* what is not wrong: data 0 with no elements, odd strides on length-1
     * and empty axes, any version 0..3 */
    uf_cai c = good;
    c.shape[0] = 0;
    c.data = 0;
    c.has_strides = true;
    c.strides[0] = 3;
    c.strides[1] = -5;
    c.version = 0;
    uf_array *a = uf_array_from_cai(&c, SIM, NULL, count_release, &k, &err);
    uf_assert_ok(a != NULL, &err);
    assert_int_equal(uf_array_size(a), 0);
    uf_array_release(a);
    c = good;
    c.shape[0] = 1;
    c.has_strides = true;
    c.strides[0] = 12345;
    c.strides[1] = 8;
    a = uf_array_from_cai(&c, SIM, NULL, count_release, &k, &err);
    uf_assert_ok(a != NULL, &err);
    uf_array_release(a);
    assert_int_equal(k.calls, 2);
    /* NULL description; a target that is not CUDA */
    assert_null(uf_array_from_cai(NULL, SIM, NULL, NULL, NULL, &err));
    assert_int_equal(err.code, UF_ERR_INVALID);
    assert_null(uf_array_from_cai(&good, "cpu", NULL, NULL, NULL, &err));
    assert_int_not_equal(err.code, UF_ERR_OK);
    uf_array_release(d);
    uf_array_release(h);
}

/* ---- streams ------------------------------------------------------------ */

static void protocol_streams(void **state)
{
    (void)state;
    uf_error err;
    assert_int_equal(uf_stream_handle(NULL), UF_INTEROP_STREAM_LEGACY);
    uf_stream *a = uf_stream_create(SIM, &err);
    uf_assert_ok(a != NULL, &err);
    intptr_t ha = uf_stream_handle(a);
    assert_true(ha > 2);
    /* an external wrapper names the same stream; destroying it leaves the
     * stream alive */
    uf_stream *ext = uf_stream_external(SIM, ha, &err);
    uf_assert_ok(ext != NULL, &err);
    assert_true(uf_stream_handle(ext) == ha);
    uf_stream_destroy(ext);
    const int64_t n = 4;
    uf_array *h = host_values(UF_FLOAT64, 1, &n);
    uf_array *d = uf_to_device(h, SIM, a, &err); /* queued on a */
    uf_assert_ok(d != NULL, &err);
    uf_assert_ok(uf_stream_synchronize(a, &err) == 0, &err);
    /* the default streams */
    uf_stream *legacy = uf_stream_external(SIM, UF_INTEROP_STREAM_LEGACY,
                                           &err);
    uf_assert_ok(legacy != NULL, &err);
    assert_true(uf_stream_handle(legacy) == UF_INTEROP_STREAM_LEGACY);
    uf_stream *per_thread =
        uf_stream_external(SIM, UF_INTEROP_STREAM_PER_THREAD, &err);
    uf_assert_ok(per_thread != NULL, &err);
    /* cudasim has one default stream */
    assert_true(uf_stream_handle(per_thread) ==
                (cuda_test_on_gpu ? UF_INTEROP_STREAM_PER_THREAD
                                  : UF_INTEROP_STREAM_LEGACY));
    uf_assert_ok(uf_stream_synchronize(per_thread, &err) == 0, &err);
    uf_stream_destroy(per_thread);
    uf_stream_destroy(legacy);
    /* refused: 0, and (cudasim) a handle that is not a stream */
    assert_null(uf_stream_external(SIM, 0, &err));
    assert_non_null(strstr(err.message, "stream 0 is ambiguous"));
    if (!cuda_test_on_gpu) {
        assert_null(uf_stream_external(SIM, 0x4560, &err));
        assert_non_null(strstr(err.message, "0x4560 is not a stream"));
        assert_int_equal(uf_stream_wait_foreign(SIM, 0x4560, a, &err),
                         UF_ERR_INVALID);
    }
    /* waits: on another stream, on itself, on the legacy one */
    uf_stream *b = uf_stream_create(SIM, &err);
    uf_assert_ok(b != NULL, &err);
    uf_assert_ok(uf_stream_wait_foreign(SIM, ha, b, &err) == 0, &err);
    uf_assert_ok(uf_stream_wait_foreign(SIM, ha, a, &err) == 0, &err);
    uf_assert_ok(uf_stream_wait_foreign(SIM, 1, b, &err) == 0, &err);
    uf_assert_ok(uf_stream_wait_foreign(SIM, 2, NULL, &err) == 0, &err);
    uf_assert_ok(uf_stream_wait_foreign(SIM, ha, NULL, &err) == 0, &err);
    assert_int_equal(uf_stream_wait_foreign(SIM, 0, b, &err), UF_ERR_INVALID);
    assert_int_not_equal(uf_stream_wait_foreign("cpu", ha, b, &err), 0);
    uf_assert_ok(uf_stream_synchronize(b, &err) == 0, &err);
    uf_stream_destroy(b);
    uf_array_release(d);
    uf_array_release(h);
    uf_stream_destroy(a);
}

/* spin's chain of n steps queued on stream s */
static void spin(uf_array *scratch, int64_t n, uf_stream *s)
{
    uf_error err;
    uf_array *steps = uf_empty(UF_INT64, 0, NULL, UF_ORDER_C, &err);
    *(int64_t *)uf_array_data(steps) = n;
    uf_array *args[2] = {scratch, steps};
    uf_launch_options o = {.size = sizeof o, .target = SIM, .stream = s};
    uf_assert_ok(uf_launch(get("spin"), (uf_dim3){1, 1, 1},
                           (uf_dim3){1, 1, 1}, args, 2, &o, &err) == 0,
                 &err);
    uf_array_release(steps);
}

/* spin's steps for about `seconds` here (measured: cudasim runs it on the
 * host, a GPU at its own clock), timed on stream s to its end */
static int64_t spin_steps(uf_array *scratch, double seconds, uf_stream *s)
{
    uf_error err;
    int64_t n = 1 << 20;
    for (;;) {
        double t0 = now_s();
        spin(scratch, n, s);
        uf_assert_ok(uf_stream_synchronize(s, &err) == 0, &err);
        double t = now_s() - t0;
        if (t > 0.02 || n >= ((int64_t)1 << 36))
            return (int64_t)((double)n * seconds / (t > 0.02 ? t : 0.02));
        n *= 8;
    }
}

/* x read on stream s into a new host array, s synchronised */
static uf_array *read_on(const uf_array *x, uf_stream *s)
{
    uf_error err;
    uf_array *h = uf_copy_to_host(x, NULL, s, &err);
    uf_assert_ok(h != NULL, &err);
    uf_assert_ok(uf_stream_synchronize(s, &err) == 0, &err);
    return h;
}

/* A producer queues a long kernel and then writes x on stream A; a
 * consumer reads x on stream B. Without the handshake B reads before the
 * write (shown while the producer still runs: the test can fail); with
 * the import's handshake it sees the write, and the import returned while
 * the producer still ran (no host synchronise). */
static void stream_ordering(void **state)
{
    (void)state;
    uf_error err;
    const uf__cuda_rt *rt = uf__cuda_rt_get(SIM, &err);
    uf_assert_ok(rt != NULL, &err);
    const int64_t n = 4096, one = 1;
    uf_array *scratch = uf_device_array(UF_FLOAT64, 1, &one, UF_ORDER_C, SIM,
                                        &err);
    uf_array *x = uf_device_array(UF_FLOAT64, 1, &n, UF_ORDER_C, SIM, &err);
    uf_array *zeros = uf_zeros(UF_FLOAT64, 1, &n, UF_ORDER_C, &err);
    uf_array *values = uf_empty(UF_FLOAT64, 1, &n, UF_ORDER_C, &err);
    for (int64_t i = 0; i < n; i++)
        ((double *)uf_array_data(values))[i] = (double)i + 0.5;
    uf_stream *a = uf_stream_create(SIM, &err);
    uf_stream *b = uf_stream_create(SIM, &err);
    uf_assert_ok(a && b && x && scratch, &err);
    int64_t steps = spin_steps(scratch, 0.3, a);

    uf_assert_ok(uf_copy_to_device(x, zeros, NULL, &err) == 0, &err);
    uf__cu_event spun;
    uf_assert_ok(rt->drv->event_create(&spun, 0) == UF__CU_SUCCESS, &err);
    spin(scratch, steps, a);
    assert_int_equal(rt->drv->event_record(spun, a->s), UF__CU_SUCCESS);
    uf_assert_ok(uf_copy_to_device(x, values, a, &err) == 0, &err);
    uf_cai c = export_ok(x);
    c.has_stream = true;
    c.stream = uf_stream_handle(a);

    /* without the handshake: read at once on B */
    uf_cai nosync = c;
    nosync.has_stream = false;
    keepalive_count k = {0};
    uf_array *early = import_ok(&nosync, b, &k);
    uf_array *seen = read_on(early, b);
    if (rt->drv->event_query(spun) == UF__CU_ERROR_NOT_READY)
        assert_memory_equal(uf_array_data(seen), uf_array_data(zeros),
                            (size_t)n * sizeof(double));
    else
        printf("NOTE: the producer finished before the unsynchronised "
               "read: its staleness was not observed\n");

    /* with it: the import returns while A still runs */
    double t0 = now_s();
    uf_array *im = import_ok(&c, b, &k);
    double t_import = now_s() - t0;
    uf__cu_result still = rt->drv->event_query(spun);
    assert_int_equal(still, UF__CU_ERROR_NOT_READY);
    assert_ptr_equal(uf_array_stream(im), b);
    uf_array_release(seen);
    seen = read_on(im, b);
    assert_memory_equal(uf_array_data(seen), uf_array_data(values),
                        (size_t)n * sizeof(double));
    printf("import with a stream: %.1f us while the producer's %.0f ms "
           "kernel ran\n", t_import * 1e6, 300.0);

    /* uf_stream_wait_foreign alone: the same handshake */
    spin(scratch, steps / 4, a);
    uf_assert_ok(uf_copy_to_device(x, zeros, a, &err) == 0, &err);
    uf_assert_ok(uf_stream_wait_foreign(SIM, c.stream, b, &err) == 0, &err);
    uf_array_release(seen);
    seen = read_on(im, b);
    assert_memory_equal(uf_array_data(seen), uf_array_data(zeros),
                        (size_t)n * sizeof(double));

    uf_array_release(seen);
    uf_array_release(im);
    uf_array_release(early);
    assert_int_equal(k.calls, 2);
    rt->drv->event_destroy(spun);
    uf_stream_destroy(b);
    uf_stream_destroy(a);
    uf_array_release(values);
    uf_array_release(zeros);
    uf_array_release(x);
    uf_array_release(scratch);
}

int main(void)
{
    SIM = cuda_test_target();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(export_fields),
        cmocka_unit_test(export_0d_empty_and_host),
        cmocka_unit_test(round_trips_every_dtype),
        cmocka_unit_test(kernels_on_imports),
        cmocka_unit_test(keepalive_after_last_view),
        cmocka_unit_test(readonly_enforced),
        cmocka_unit_test(bad_descriptions),
        cmocka_unit_test(protocol_streams),
        cmocka_unit_test(stream_ordering),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
