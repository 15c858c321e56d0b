/* uf_reduce on the CUDA targets with out= on the device
 * (reduce/reduce_cuda.c) on cudasim, or the GPU under
 * UFJIT_TEST_CUDA_TARGET=cuda: a device out= is written in place (from a
 * device or a host input, on the call's stream, strided views too) with
 * axis=, keepdims and initial= (a host or a 0-d device one); values
 * exact for integers and the cpu target's bits for floats; out= of the
 * wrong shape, rank or dtype, overlapping the input, or on the cpu
 * target refused with messages naming them. */
#include <stdint.h>

#include "cuda_kernel_file.h"

static int setup(void **state)
{
    (void)state;
    return kernel_file_load("methods.py");
}

static uf_array *make(uf_dtype dt, int nd, const int64_t *shape, int salt)
{
    uf_error err;
    uf_array *a = uf_empty(dt, nd, shape, UF_ORDER_C, &err);
    uf_assert_ok(a != NULL, &err);
    uint64_t s = 0x9e3779b97f4a7c15ull * (uint64_t)(salt + 1);
    for (int64_t i = 0; i < uf_array_size(a); i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        int64_t v = (int64_t)(s >> 33) % 2001 - 1000;
        if (dt == UF_INT64)
            ((int64_t *)uf_array_data(a))[i] = v;
        else
            ((double *)uf_array_data(a))[i] = (double)v / 7.0 *
                                              (double)(1 + (s >> 20) % 1000);
    }
    return a;
}

static uf_array *dev(const uf_array *h)
{
    uf_error err;
    uf_array *d = uf_to_device(h, SIM, NULL, &err);
    uf_assert_ok(d != NULL, &err);
    return d;
}

static uf_array *host_c(const uf_array *a)
{
    uf_error err;
    uf_array *h = uf_array_device(a).type == UF_DEVICE_CUDA
                      ? uf_copy_to_host(a, NULL, NULL, &err)
                      : uf_array_copy(a, UF_ORDER_C, &err);
    uf_assert_ok(h != NULL, &err);
    return h;
}

static void assert_same(const uf_array *got, const uf_array *want,
                        const char *what)
{
    uf_array *g = host_c(got), *w = host_c(want);
    assert_int_equal(uf_array_dtype(g), uf_array_dtype(w));
    assert_int_equal(uf_array_ndim(g), uf_array_ndim(w));
    assert_memory_equal(uf_array_shape(g), uf_array_shape(w),
                        (size_t)uf_array_ndim(g) * sizeof(int64_t));
    if (memcmp(uf_array_data(g), uf_array_data(w),
               (size_t)uf_array_nbytes(w)) != 0)
        fail_msg("%s: the %s result differs", what, SIM);
    uf_array_release(g);
    uf_array_release(w);
}

typedef struct red {
    int naxes; /* -1: every axis */
    int axes[3];
    bool keepdims;
    uf_array *initial;
} red;

static uf_call_options opts_of(const char *target, const red *r,
                               uf_stream *st)
{
    uf_call_options o = {.size = sizeof o, .target = target,
                         .keepdims = r->keepdims, .initial = r->initial,
                         .stream = st};
    if (r->naxes < 0) {
        o.axes_mode = UF_AXES_ALL;
    } else {
        o.axes_mode = UF_AXES_LIST;
        o.naxes = r->naxes;
        o.axes = r->axes;
    }
    return o;
}

/* f.reduce(in, out=<a new device array of the cpu result's shape>) on SIM
 * on a stream: written in place, the cpu's bits */
static void into_device(const char *name, uf_array *in, const red *r)
{
    uf_error err;
    uf_array *hin = host_c(in), *want = NULL;
    uf_call_options oc = opts_of("cpu", r, NULL);
    if (r->initial && uf_array_device(r->initial).type == UF_DEVICE_CUDA)
        oc.initial = host_c(r->initial);
    uf_assert_ok(uf_reduce(get(name), hin, &want, &oc, &err) == 0, &err);
    uf_array *out = uf_device_array(uf_array_dtype(want), uf_array_ndim(want),
                                    uf_array_shape(want), UF_ORDER_C, SIM,
                                    &err);
    uf_assert_ok(out != NULL, &err);
    uf_stream *st = uf_stream_create(SIM, &err);
    uf_assert_ok(st != NULL, &err);
    uf_call_options o = opts_of(SIM, r, st);
    uf_array *res = out;
    uf_assert_ok(uf_reduce(get(name), in, &res, &o, &err) == 0, &err);
    assert_ptr_equal(res, out);
    uf_assert_ok(uf_stream_synchronize(st, &err) == 0, &err);
    char what[80];
    snprintf(what, sizeof what, "%s naxes %d keepdims %d initial %d", name,
             r->naxes, r->keepdims, r->initial != NULL);
    assert_same(out, want, what);
    uf_stream_destroy(st);
    if (oc.initial != r->initial)
        uf_array_release(oc.initial);
    uf_array_release(out);
    uf_array_release(want);
    uf_array_release(hin);
}

static void test_device_out(void **state)
{
    (void)state;
    uf_error err;
    const int64_t s2[2] = {37, 1025}, s3[3] = {5, 6, 70};
    uf_array *a = make(UF_FLOAT64, 2, s2, 1), *b = make(UF_FLOAT64, 3, s3, 2);
    uf_array *bi = make(UF_INT64, 3, s3, 3);
    uf_array *da = dev(a), *db = dev(b), *dbi = dev(bi);
    double hv = 0.25;
    uf_array *init = uf_full(UF_FLOAT64, 0, NULL, &hv, UF_FLOAT64, UF_ORDER_C,
                             &err);
    uf_array *dinit = dev(init);
    const red cases[] = {
        {-1, {0}, false, NULL}, {-1, {0}, true, NULL},
        {1, {0}, false, NULL},  {1, {1}, true, NULL},
        {1, {-1}, false, NULL}, {2, {0, 2}, true, NULL},
        {2, {0, 2}, false, NULL}, {1, {1}, false, NULL},
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        red r = cases[c];
        if (r.naxes < 2 || r.axes[1] < 2) {
            into_device("vadd", da, &r);
            into_device("vadd", a, &r); /* a host input, a device out= */
        }
        into_device("vadd", db, &r);
        into_device("vmul", dbi, &r);
        if (r.naxes == 1) { /* one axis at most without an identity */
            into_device("vsub", db, &r);
            into_device("vsub", b, &r);
        }
        r.initial = c % 2 ? dinit : init;
        into_device("vadd", db, &r);
        if (r.naxes == 1)
            into_device("vmax", db, &r);
    }
    /* a device out= that is a strided view */
    const int64_t wide[1] = {2 * 37};
    uf_array *buf = uf_device_array(UF_FLOAT64, 1, wide, UF_ORDER_C, SIM,
                                    &err);
    uf_array *view = uf_array_slice(buf, "::-2", &err);
    uf_assert_ok(view != NULL, &err);
    uf_call_options o = opts_of(SIM, &(red){1, {1}, false, NULL}, NULL);
    uf_array *res = view;
    uf_assert_ok(uf_reduce(get("vadd"), da, &res, &o, &err) == 0, &err);
    uf_array *want = NULL;
    o.target = "cpu";
    uf_assert_ok(uf_reduce(get("vadd"), a, &want, &o, &err) == 0, &err);
    assert_same(view, want, "strided device out=");
    /* an exact check: int64 sums of bi over axes (0, 2) into (1, 6, 1) */
    const int64_t ks[3] = {1, 6, 1};
    uf_array *kout = uf_device_array(UF_INT64, 3, ks, UF_ORDER_C, SIM, &err);
    o = opts_of(SIM, &(red){2, {0, 2}, true, NULL}, NULL);
    res = kout;
    uf_assert_ok(uf_reduce(get("vadd"), dbi, &res, &o, &err) == 0, &err);
    uf_array *hk = host_c(kout);
    const int64_t *x = uf_array_data(bi);
    for (int j = 0; j < 6; j++) {
        int64_t s = 0;
        for (int i = 0; i < 5; i++)
            for (int k = 0; k < 70; k++)
                s += x[(i * 6 + j) * 70 + k];
        assert_int_equal(((int64_t *)uf_array_data(hk))[j], s);
    }
    uf_array_release(hk);
    uf_array_release(kout);
    uf_array_release(want);
    uf_array_release(view);
    uf_array_release(buf);
    uf_array_release(dinit);
    uf_array_release(init);
    uf_array_release(dbi);
    uf_array_release(db);
    uf_array_release(da);
    uf_array_release(bi);
    uf_array_release(b);
    uf_array_release(a);
}

static void test_device_out_errors(void **state)
{
    (void)state;
    uf_error err;
    const int64_t s2[2] = {30, 20}, n20 = 20, n30 = 30, keep[2] = {1, 20};
    uf_array *a = make(UF_FLOAT64, 2, s2, 4), *da = dev(a);
    uf_call_options o = opts_of(SIM, &(red){1, {0}, false, NULL}, NULL);
    /* wrong shape: names the reduction and both shapes */
    uf_array *o30 = uf_device_array(UF_FLOAT64, 1, &n30, UF_ORDER_C, SIM,
                                    &err);
    uf_array *r = o30;
    assert_int_equal(uf_reduce(get("vadd"), da, &r, &o, &err), UF_ERR_SHAPE);
    printf("%s\n", err.message);
    assert_non_null(strstr(err.message, "vadd"));
    assert_non_null(strstr(err.message, "(30,)"));
    assert_non_null(strstr(err.message, "(20,)"));
    /* keepdims: the rank must be the operand's */
    uf_call_options ok = opts_of(SIM, &(red){1, {0}, true, NULL}, NULL);
    uf_array *o20 = uf_device_array(UF_FLOAT64, 1, &n20, UF_ORDER_C, SIM,
                                    &err);
    r = o20;
    assert_int_equal(uf_reduce(get("vadd"), da, &r, &ok, &err), UF_ERR_SHAPE);
    printf("%s\n", err.message);
    assert_non_null(strstr(err.message, "keepdims"));
    uf_array *ok2 = uf_device_array(UF_FLOAT64, 2, keep, UF_ORDER_C, SIM,
                                    &err);
    r = ok2;
    uf_assert_ok(uf_reduce(get("vadd"), da, &r, &ok, &err) == 0, &err);
    /* wrong dtype: device outputs are not cast */
    uf_array *o32 = uf_device_array(UF_FLOAT32, 1, &n20, UF_ORDER_C, SIM,
                                    &err);
    r = o32;
    assert_int_equal(uf_reduce(get("vadd"), da, &r, &o, &err), UF_ERR_CAST);
    printf("%s\n", err.message);
    assert_non_null(strstr(err.message, "float32"));
    assert_non_null(strstr(err.message, "float64"));
    /* overlapping the input: a row of it */
    uf_array *row = uf_array_slice(da, "0", &err);
    uf_assert_ok(row != NULL, &err);
    r = row;
    assert_int_equal(uf_reduce(get("vadd"), da, &r, &o, &err), UF_ERR_VALUE);
    assert_non_null(strstr(err.message, "overlaps"));
    /* a device out= on the cpu target */
    uf_call_options oc = opts_of("cpu", &(red){1, {0}, false, NULL}, NULL);
    r = o20;
    assert_int_equal(uf_reduce(get("vadd"), a, &r, &oc, &err),
                     UF_ERR_UNSUPPORTED);
    assert_non_null(strstr(err.message, "not in host memory"));
    uf_array_release(row);
    uf_array_release(o32);
    uf_array_release(ok2);
    uf_array_release(o20);
    uf_array_release(o30);
    uf_array_release(da);
    uf_array_release(a);
}

int main(void)
{
    SIM = cuda_test_target();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_device_out),
        cmocka_unit_test(test_device_out_errors),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
