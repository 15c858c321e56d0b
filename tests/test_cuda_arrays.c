/* Device, pinned and mapped arrays (ufjit/cuda.h) on cudasim: round trips
 * in C and F order, 0-d and empty arrays, strided and negative-stride
 * views copied back, copies into given outputs, streams, and host access
 * to device memory refused. cudasim runs the same code above the driver
 * table as a GPU, so these are the device arrays' tests for both. */
#include "test_util.h"

#include "cuda_test_target.h"

static const char *SIM;

static uf_array *host_iota(int ndim, const int64_t *shape, uf_order order)
{
    uf_error err;
    uf_array *a = uf_empty(UF_FLOAT64, ndim, shape, order, &err);
    assert_non_null(a);
    double *p = uf_array_data(a);
    for (int64_t i = 0; i < uf_array_size(a); i++)
        p[i] = (double)i * 0.5 - 3.0;
    return a;
}

static void round_trip_orders(void **state)
{
    (void)state;
    uf_error err;
    const int64_t shape[3] = {3, 4, 5};
    for (int o = 0; o < 2; o++) {
        uf_order order = o ? UF_ORDER_F : UF_ORDER_C;
        uf_array *h = host_iota(3, shape, order);
        uf_array *d = uf_to_device(h, SIM, NULL, &err);
        uf_assert_ok(d != NULL, &err);
        assert_int_equal(uf_array_device(d).type, UF_DEVICE_CUDA);
        assert_true(uf_array_flags(d) &
                    (o ? UF_ARRAY_F_CONTIGUOUS : UF_ARRAY_C_CONTIGUOUS));
        /* the device pointer is not the host copy's */
        assert_ptr_not_equal(uf_array_data(d), uf_array_data(h));
        uf_array *back = uf_copy_to_host(d, NULL, NULL, &err);
        uf_assert_ok(back != NULL, &err);
        assert_int_equal(uf_array_device(back).type, UF_DEVICE_HOST);
        assert_same_elements(h, back);
        uf_array_release(back);
        uf_array_release(d);
        uf_array_release(h);
    }
}

static void zero_d_and_empty(void **state)
{
    (void)state;
    uf_error err;
    uf_array *h = host_iota(0, NULL, UF_ORDER_C);
    uf_array *d = uf_to_device(h, SIM, NULL, &err);
    uf_assert_ok(d != NULL, &err);
    assert_int_equal(uf_array_ndim(d), 0);
    uf_array *back = uf_copy_to_host(d, NULL, NULL, &err);
    uf_assert_ok(back != NULL, &err);
    assert_true(*(double *)uf_array_data(back) == -3.0);
    uf_array_release(back);
    uf_array_release(d);
    uf_array_release(h);

    const int64_t shape[2] = {0, 7};
    h = host_iota(2, shape, UF_ORDER_C);
    d = uf_to_device(h, SIM, NULL, &err);
    uf_assert_ok(d != NULL, &err);
    back = uf_copy_to_host(d, NULL, NULL, &err);
    uf_assert_ok(back != NULL, &err);
    assert_int_equal(uf_array_size(back), 0);
    assert_int_equal(uf_array_shape(back)[1], 7);
    uf_array_release(back);
    uf_array_release(d);
    uf_array_release(h);
}

/* A non-contiguous host array goes over as a contiguous copy. */
static void strided_host_input(void **state)
{
    (void)state;
    uf_error err;
    const int64_t shape[2] = {6, 8};
    uf_array *h = host_iota(2, shape, UF_ORDER_C);
    uf_array *v = uf_array_slice(h, "1::2, ::-3", &err);
    uf_assert_ok(v != NULL, &err);
    uf_array *d = uf_to_device(v, SIM, NULL, &err);
    uf_assert_ok(d != NULL, &err);
    assert_true(uf_array_flags(d) & UF_ARRAY_C_CONTIGUOUS);
    uf_array *back = uf_copy_to_host(d, NULL, NULL, &err);
    uf_assert_ok(back != NULL, &err);
    assert_same_elements(v, back);
    uf_array_release(back);
    uf_array_release(d);
    uf_array_release(v);
    uf_array_release(h);
}

/* Views of device arrays are made without copies and copied back with
 * their strides, negative ones included. */
static void device_views(void **state)
{
    (void)state;
    uf_error err;
    const int64_t shape[3] = {4, 5, 6};
    uf_array *h = host_iota(3, shape, UF_ORDER_C);
    uf_array *d = uf_to_device(h, SIM, NULL, &err);
    uf_assert_ok(d != NULL, &err);
    static const char *const exprs[] = {"::2", "1:, ::-1", "..., 3",
                                        "::-2, 1:4, ::-5", "2, None, :, 1"};
    for (size_t i = 0; i < sizeof exprs / sizeof exprs[0]; i++) {
        uf_array *dv = uf_array_slice(d, exprs[i], &err);
        uf_assert_ok(dv != NULL, &err);
        assert_int_equal(uf_array_device(dv).type, UF_DEVICE_CUDA);
        uf_array *hv = uf_array_slice(h, exprs[i], &err);
        uf_array *back = uf_copy_to_host(dv, NULL, NULL, &err);
        uf_assert_ok(back != NULL, &err);
        assert_same_elements(hv, back);
        uf_array_release(back);
        uf_array_release(hv);
        uf_array_release(dv);
    }
    /* a transposed view copied into a given F-ordered output */
    uf_array *t = uf_array_transpose(d, NULL, &err);
    const int64_t tshape[3] = {6, 5, 4};
    uf_array *out = uf_empty(UF_FLOAT64, 3, tshape, UF_ORDER_F, &err);
    uf_array *got = uf_copy_to_host(t, out, NULL, &err);
    uf_assert_ok(got == out, &err);
    uf_array *ht = uf_array_transpose(h, NULL, &err);
    assert_same_elements(ht, out);
    uf_array_release(got);
    uf_array_release(ht);
    uf_array_release(out);
    uf_array_release(t);
    uf_array_release(d);
    uf_array_release(h);
}

static void copy_errors(void **state)
{
    (void)state;
    uf_error err;
    const int64_t shape[1] = {5}, other[1] = {4};
    uf_array *h = host_iota(1, shape, UF_ORDER_C);
    uf_array *d = uf_to_device(h, SIM, NULL, &err);
    uf_assert_ok(d != NULL, &err);

    uf_array *wrong = uf_empty(UF_FLOAT64, 1, other, UF_ORDER_C, &err);
    assert_null(uf_copy_to_host(d, wrong, NULL, &err));
    assert_int_equal(err.code, UF_ERR_SHAPE);
    assert_non_null(strstr(err.message, "(5,)"));
    assert_non_null(strstr(err.message, "(4,)"));
    assert_int_equal(uf_copy_to_device(d, wrong, NULL, &err), UF_ERR_SHAPE);

    uf_array *ro = uf_empty(UF_FLOAT64, 1, shape, UF_ORDER_C, &err);
    uf_array_set_writeable(ro, false, &err);
    assert_null(uf_copy_to_host(d, ro, NULL, &err));
    assert_int_equal(err.code, UF_ERR_READONLY);

    /* the wrong sides */
    assert_null(uf_to_device(d, SIM, NULL, &err));
    assert_int_equal(err.code, UF_ERR_INVALID);
    assert_null(uf_copy_to_host(h, NULL, NULL, &err));
    assert_int_equal(err.code, UF_ERR_INVALID);
    assert_null(uf_to_device(NULL, SIM, NULL, &err));
    assert_int_equal(err.code, UF_ERR_INVALID);

    /* into a non-contiguous device view: refused, said why */
    uf_array *dv = uf_array_slice(d, "::2", &err);
    uf_array *h3 = uf_array_slice(h, "::2", &err);
    assert_int_equal(uf_copy_to_device(dv, h3, NULL, &err),
                     UF_ERR_UNSUPPORTED);
    assert_non_null(strstr(err.message, "not contiguous"));

    uf_array_release(h3);
    uf_array_release(dv);
    uf_array_release(ro);
    uf_array_release(wrong);
    uf_array_release(d);
    uf_array_release(h);
}

/* Reading device memory on the host is an error, never a crash. */
static void host_access_refused(void **state)
{
    (void)state;
    uf_error err;
    const int64_t shape[1] = {3};
    uf_array *d = uf_device_array(UF_FLOAT64, 1, shape, UF_ORDER_C, SIM, &err);
    uf_assert_ok(d != NULL, &err);
    assert_null(uf_array_repr(d, &err));
    assert_int_not_equal(err.code, 0);
    assert_null(uf_array_copy(d, UF_ORDER_C, &err));
    assert_int_equal(err.code, UF_ERR_UNSUPPORTED);
    double one = 1.0;
    assert_int_not_equal(uf_array_fill(d, &one, UF_FLOAT64, &err), 0);
    char path[] = "/tmp/uf_cuda_arrays_XXXXXX.npy";
    assert_int_not_equal(uf_npy_save(path, d, &err), 0);
    assert_non_null(strstr(err.message, "CUDA"));
    uf_array_release(d);
}

static void streams(void **state)
{
    (void)state;
    uf_error err;
    uf_stream *s = uf_stream_create(SIM, &err);
    uf_assert_ok(s != NULL, &err);
    const int64_t shape[1] = {100000};
    uf_array *h = host_iota(1, shape, UF_ORDER_C);
    uf_array *d = uf_to_device(h, SIM, s, &err);
    uf_assert_ok(d != NULL, &err);
    assert_ptr_equal(uf_array_stream(d), s);
    uf_array *dv = uf_array_slice(d, "10:", &err);
    assert_ptr_equal(uf_array_stream(dv), s); /* views share it */
    uf_array *back = uf_copy_to_host(d, NULL, s, &err);
    uf_assert_ok(back != NULL, &err);
    uf_assert_ok(uf_stream_synchronize(s, &err) == 0, &err);
    assert_same_elements(h, back);
    /* a strided view on a stream: waits for the stream first */
    uf_array *sv = uf_array_slice(d, "::-7", &err);
    uf_array *sback = uf_copy_to_host(sv, NULL, s, &err);
    uf_assert_ok(sback != NULL, &err);
    uf_array *hv = uf_array_slice(h, "::-7", &err);
    assert_same_elements(hv, sback);
    assert_int_equal(uf_array_set_stream(h, s, &err), UF_ERR_INVALID);
    uf_assert_ok(uf_array_set_stream(d, NULL, &err) == 0, &err);
    assert_null(uf_array_stream(d));
    uf_array_release(hv);
    uf_array_release(sback);
    uf_array_release(sv);
    uf_array_release(back);
    uf_array_release(dv);
    uf_array_release(d);
    uf_array_release(h);
    uf_stream_destroy(s);
    uf_stream_destroy(NULL);
}

static void pinned_and_mapped(void **state)
{
    (void)state;
    uf_error err;
    const int64_t shape[2] = {3, 3};
    uf_array *p = uf_pinned_array(UF_INT32, 2, shape, UF_ORDER_F, SIM, &err);
    uf_assert_ok(p != NULL, &err);
    assert_int_equal(uf_array_device(p).type, UF_DEVICE_HOST);
    int32_t seven = 7;
    uf_assert_ok(uf_array_fill(p, &seven, UF_INT32, &err) == 0, &err);
    uf_array *d = uf_to_device(p, SIM, NULL, &err);
    uf_assert_ok(d != NULL, &err);
    assert_true(uf_array_flags(d) & UF_ARRAY_F_CONTIGUOUS);
    uf_array *back = uf_copy_to_host(d, NULL, NULL, &err);
    uf_assert_ok(back != NULL, &err);
    for (int i = 0; i < 9; i++)
        assert_int_equal(((int32_t *)uf_array_data(back))[i], 7);
    uf_array_release(back);
    uf_array_release(d);
    uf_array_release(p);

    uf_array *m = uf_mapped_array(UF_FLOAT32, 2, shape, UF_ORDER_C, SIM, &err);
    uf_assert_ok(m != NULL, &err);
    assert_int_equal(uf_array_device(m).type, UF_DEVICE_HOST);
    float half = 0.5f;
    uf_assert_ok(uf_array_fill(m, &half, UF_FLOAT32, &err) == 0, &err);
    uf_array_release(m);
}

static void device_array_like(void **state)
{
    (void)state;
    uf_error err;
    const int64_t shape[2] = {2, 9};
    uf_array *h = host_iota(2, shape, UF_ORDER_F);
    uf_array *d = uf_to_device(h, SIM, NULL, &err);
    uf_assert_ok(d != NULL, &err);
    uf_array *l = uf_device_array_like(d, &err);
    uf_assert_ok(l != NULL, &err);
    assert_int_equal(uf_array_device(l).type, UF_DEVICE_CUDA);
    assert_true(uf_array_flags(l) & UF_ARRAY_F_CONTIGUOUS);
    assert_int_equal(uf_array_shape(l)[1], 9);
    uf_assert_ok(uf_copy_to_device(l, h, NULL, &err) == 0, &err);
    uf_array *back = uf_copy_to_host(l, NULL, NULL, &err);
    assert_same_elements(h, back);
    uf_array_release(back);
    uf_array_release(l);
    uf_array_release(d);
    uf_array_release(h);

    assert_null(uf_device_array(UF_FLOAT64, 1, shape, UF_ORDER_A, SIM, &err));
    assert_int_equal(err.code, UF_ERR_INVALID);
}

int main(void)
{
    SIM = cuda_test_target();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(round_trip_orders),
        cmocka_unit_test(zero_d_and_empty),
        cmocka_unit_test(strided_host_input),
        cmocka_unit_test(device_views),
        cmocka_unit_test(copy_errors),
        cmocka_unit_test(host_access_refused),
        cmocka_unit_test(streams),
        cmocka_unit_test(pinned_and_mapped),
        cmocka_unit_test(device_array_like),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
