/* uf_accumulate and uf_outer on the CUDA targets (reduce/accumulate_cuda.c,
 * reduce/outer.c through the vectorize CUDA call path) on cudasim, or the
 * GPU under UFJIT_TEST_CUDA_TARGET=cuda: values against NumPy's
 * np.add.accumulate / np.multiply.outer / np.maximum.accumulate computed
 * here (exact: the accumulations are evaluated in the same order and
 * dtype), bit for bit the cpu target's, for lengths 0, 1 and beyond a
 * block, axes of 2-D and 3-D arrays, negative-stride and non-contiguous
 * views, host and device operands, out= on either side (a device out= of
 * the wrong shape or dtype refused), streams and dtype casts. */
#include <math.h>
#include <stdint.h>

#include "cuda_kernel_file.h"

static int setup(void **state)
{
    (void)state;
    return kernel_file_load("methods.py");
}

/* Deterministic values: small ints, or floats of many magnitudes (the
 * order of a float sum shows in its bits). */
static uf_array *make(uf_dtype dt, int nd, const int64_t *shape, int salt)
{
    uf_error err;
    uf_array *a = uf_empty(dt, nd, shape, UF_ORDER_C, &err);
    uf_assert_ok(a != NULL, &err);
    int64_t n = uf_array_size(a);
    uint64_t s = 0x9e3779b97f4a7c15ull * (uint64_t)(salt + 1);
    for (int64_t i = 0; i < n; i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        int64_t v = (int64_t)(s >> 33) % 19 - 9;
        double x = (double)((int64_t)(s >> 33) % 2001 - 1000) / 7.0 *
                   pow(10.0, (double)((s >> 20) % 7) - 3);
        switch (dt) {
        case UF_INT32: ((int32_t *)uf_array_data(a))[i] = (int32_t)v; break;
        case UF_INT64: ((int64_t *)uf_array_data(a))[i] = v; break;
        case UF_FLOAT32: ((float *)uf_array_data(a))[i] = (float)x; break;
        case UF_FLOAT64: ((double *)uf_array_data(a))[i] = x; break;
        default: fail();
        }
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

/* a C-contiguous host copy of any array (device or host, any strides) */
static uf_array *host_c(const uf_array *a)
{
    uf_error err;
    uf_array *h = uf_array_device(a).type == UF_DEVICE_CUDA
                      ? uf_copy_to_host(a, NULL, NULL, &err)
                      : uf_array_copy(a, UF_ORDER_C, &err);
    uf_assert_ok(h != NULL, &err);
    uf_array *c = uf_array_copy(h, UF_ORDER_C, &err);
    uf_assert_ok(c != NULL, &err);
    uf_array_release(h);
    return c;
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
        fail_msg("%s: the %s result differs from the expected bits", what,
                 SIM);
    uf_array_release(g);
    uf_array_release(w);
}

static uf_call_options axis_opts(const char *target, const int *axis)
{
    uf_call_options o = {.size = sizeof o, .target = target};
    if (axis != NULL) {
        o.axes_mode = UF_AXES_LIST;
        o.naxes = 1;
        o.axes = axis;
    }
    return o;
}

/* ---- the expectation: NumPy's accumulate, in order, in dtype ------- */

typedef enum { ADD, MUL, MAX, SUB } opk;

static double f64(opk k, double a, double b)
{
    switch (k) {
    case ADD: return a + b;
    case MUL: return a * b;
    case SUB: return a - b;
    case MAX: return isnan(a) || isnan(b) ? NAN : a > b ? a : b;
    }
    return 0;
}

static float f32(opk k, float a, float b)
{
    switch (k) {
    case ADD: return a + b;
    case MUL: return a * b;
    case SUB: return a - b;
    case MAX: return isnan(a) || isnan(b) ? NAN : a > b ? a : b;
    }
    return 0;
}

static int64_t i64(opk k, int64_t a, int64_t b)
{
    switch (k) {
    case ADD: return (int64_t)((uint64_t)a + (uint64_t)b);
    case MUL: return (int64_t)((uint64_t)a * (uint64_t)b);
    case SUB: return (int64_t)((uint64_t)a - (uint64_t)b);
    case MAX: return a > b ? a : b;
    }
    return 0;
}

/* np.<op>.accumulate(x, axis) of a C-contiguous host array x into a new
 * C array of dtype `res` (x's elements converted to it first, as the
 * ufunc's loop sees them) */
static uf_array *expect_acc(opk k, const uf_array *x, int axis, uf_dtype res)
{
    uf_error err;
    uf_array *in = uf_array_astype(x, res, UF_CASTING_UNSAFE, UF_ORDER_C,
                                   &err);
    uf_assert_ok(in != NULL, &err);
    uf_array *out = uf_array_copy(in, UF_ORDER_C, &err);
    uf_assert_ok(out != NULL, &err);
    int nd = uf_array_ndim(in);
    if (axis < 0)
        axis += nd;
    const int64_t *sh = uf_array_shape(in);
    int64_t outer = 1, inner = 1, n = sh[axis];
    for (int i = 0; i < axis; i++)
        outer *= sh[i];
    for (int i = axis + 1; i < nd; i++)
        inner *= sh[i];
    for (int64_t o = 0; o < outer; o++)
        for (int64_t q = 1; q < n; q++)
            for (int64_t i = 0; i < inner; i++) {
                int64_t cur = (o * n + q) * inner + i, prev = cur - inner;
                switch (res) {
                case UF_FLOAT64: {
                    double *p = uf_array_data(out);
                    p[cur] = f64(k, p[prev], p[cur]);
                    break;
                }
                case UF_FLOAT32: {
                    float *p = uf_array_data(out);
                    p[cur] = f32(k, p[prev], p[cur]);
                    break;
                }
                case UF_INT64: {
                    int64_t *p = uf_array_data(out);
                    p[cur] = i64(k, p[prev], p[cur]);
                    break;
                }
                case UF_INT32: {
                    int32_t *p = uf_array_data(out);
                    p[cur] = (int32_t)i64(k, p[prev], p[cur]);
                    break;
                }
                default: fail();
                }
            }
    uf_array_release(in);
    return out;
}

static const char *opname(opk k)
{
    return k == ADD ? "vadd" : k == MUL ? "vmul" : k == MAX ? "vmax"
                                                             : "vsub";
}

/* accumulate of x (any array, host or device) along axis on SIM: equal
 * to the expectation and to the cpu target's bits; the result returned
 * (where uf_accumulate put it) */
static uf_array *check_acc(opk k, uf_array *x, const int *axis,
                           uf_dtype res)
{
    uf_error err;
    uf_call_options o = axis_opts(SIM, axis);
    uf_array *got = NULL;
    uf_assert_ok(uf_accumulate(get(opname(k)), x, &got, &o, &err) == 0,
                 &err);
    uf_array *hx = host_c(x);
    uf_array *want = expect_acc(k, hx, axis ? *axis : 0, res);
    char what[96];
    snprintf(what, sizeof what, "%s.accumulate %s ndim %d axis %d",
             opname(k), uf_dtype_name(uf_array_dtype(x)), uf_array_ndim(x),
             axis ? *axis : 0);
    assert_same(got, want, what);
    uf_call_options oc = axis_opts("cpu", axis);
    uf_array *cpu = NULL;
    uf_array *hv = uf_array_device(x).type == UF_DEVICE_CUDA ? hx : x;
    uf_assert_ok(uf_accumulate(get(opname(k)), hv, &cpu, &oc, &err) == 0,
                 &err);
    assert_same(got, cpu, what);
    uf_array_release(cpu);
    uf_array_release(want);
    uf_array_release(hx);
    return got;
}

static void test_accumulate_1d(void **state)
{
    (void)state;
    static const int64_t lengths[] = {0, 1, 2, 31, 257, 5000};
    static const uf_dtype dts[] = {UF_INT32, UF_INT64, UF_FLOAT32,
                                   UF_FLOAT64};
    for (size_t l = 0; l < sizeof lengths / sizeof *lengths; l++)
        for (size_t d = 0; d < sizeof dts / sizeof *dts; d++) {
            uf_array *x = make(dts[d], 1, &lengths[l], (int)(l + d));
            uf_array *r = check_acc(ADD, x, NULL, dts[d]);
            /* a host input gives a host result, as on cpu */
            assert_int_equal(uf_array_device(r).type, UF_DEVICE_HOST);
            assert_int_equal(uf_array_shape(r)[0], lengths[l]);
            uf_array_release(r);
            /* a device input keeps it there */
            uf_array *dx = dev(x);
            r = check_acc(ADD, dx, NULL, dts[d]);
            assert_int_equal(uf_array_device(r).type, UF_DEVICE_CUDA);
            uf_array_release(r);
            if (dts[d] == UF_INT64 || dts[d] == UF_FLOAT64) {
                uf_array_release(check_acc(SUB, dx, NULL, dts[d]));
                uf_array_release(check_acc(MUL, x, NULL, dts[d]));
                uf_array_release(check_acc(MAX, dx, NULL, dts[d]));
            }
            uf_array_release(dx);
            uf_array_release(x);
        }
}

static void test_accumulate_axes(void **state)
{
    (void)state;
    uf_error err;
    const int64_t s2[2] = {37, 300}, s3[3] = {5, 6, 70};
    uf_array *a = make(UF_FLOAT64, 2, s2, 1), *b = make(UF_FLOAT64, 3, s3, 2);
    uf_array *ai = make(UF_INT64, 3, s3, 3);
    uf_array *da = dev(a), *db = dev(b);
    static const int ax[] = {0, 1, 2, -1, -2};
    for (int i = 0; i < 2; i++) {
        uf_array_release(check_acc(ADD, a, &ax[i], UF_FLOAT64));
        uf_array_release(check_acc(SUB, da, &ax[i], UF_FLOAT64));
    }
    for (int i = 0; i < 5; i++) {
        uf_array_release(check_acc(ADD, db, &ax[i], UF_FLOAT64));
        uf_array_release(check_acc(SUB, b, &ax[i], UF_FLOAT64));
        uf_array_release(check_acc(MUL, ai, &ax[i], UF_INT64));
    }
    /* views: negative strides, every other column, a transpose, on the
     * host and on the device */
    const char *views[] = {"::-1, ::2", "3:20, ::-3", "::-1, :"};
    for (size_t v = 0; v < sizeof views / sizeof *views; v++)
        for (int d = 0; d < 2; d++) {
            uf_array *x = uf_array_slice(d ? da : a, views[v], &err);
            uf_assert_ok(x != NULL, &err);
            uf_array_release(check_acc(ADD, x, &ax[0], UF_FLOAT64));
            uf_array_release(check_acc(SUB, x, &ax[1], UF_FLOAT64));
            uf_array_release(x);
        }
    uf_array *t = uf_array_transpose(db, NULL, &err);
    uf_assert_ok(t != NULL, &err);
    for (int i = 0; i < 3; i++)
        uf_array_release(check_acc(SUB, t, &ax[i], UF_FLOAT64));
    uf_array_release(t);
    /* empty along the axis, and empty along another one */
    const int64_t e1[2] = {0, 4}, e2[2] = {3, 0};
    uf_array *x1 = make(UF_FLOAT64, 2, e1, 0), *x2 = make(UF_FLOAT64, 2, e2, 0);
    uf_array_release(check_acc(ADD, x1, &ax[0], UF_FLOAT64));
    uf_array_release(check_acc(ADD, x1, &ax[1], UF_FLOAT64));
    uf_array_release(check_acc(SUB, x2, &ax[0], UF_FLOAT64));
    uf_array_release(check_acc(SUB, x2, &ax[1], UF_FLOAT64));
    uf_array_release(x1);
    uf_array_release(x2);
    uf_array_release(da);
    uf_array_release(db);
    uf_array_release(ai);
    uf_array_release(a);
    uf_array_release(b);
}

/* np.maximum.accumulate propagates a NaN from where it appears */
static void test_maximum_nan(void **state)
{
    (void)state;
    const double x[] = {1.0, 0.5, 3.0, NAN, 7.0, -2.0};
    const int64_t n = 6, s2[2] = {3, 2};
    uf_error err;
    uf_array *h = uf_empty(UF_FLOAT64, 1, &n, UF_ORDER_C, &err);
    memcpy(uf_array_data(h), x, sizeof x);
    uf_array *d = dev(h);
    uf_array *r = check_acc(MAX, d, NULL, UF_FLOAT64);
    uf_array *hr = host_c(r);
    const double *v = uf_array_data(hr);
    assert_true(v[0] == 1.0 && v[1] == 1.0 && v[2] == 3.0);
    assert_true(isnan(v[3]) && isnan(v[4]) && isnan(v[5]));
    uf_array_release(hr);
    uf_array_release(r);
    /* as float32, and down the columns of a (3, 2) view of it */
    uf_array *h32 = uf_array_astype(h, UF_FLOAT32, UF_CASTING_UNSAFE,
                                    UF_ORDER_C, &err);
    uf_array_release(check_acc(MAX, h32, NULL, UF_FLOAT32));
    uf_array *m = uf_array_reshape(h, 2, s2, UF_ORDER_C, false, &err);
    uf_assert_ok(m != NULL, &err);
    const int ax0 = 0, ax1 = 1;
    uf_array_release(check_acc(MAX, m, &ax0, UF_FLOAT64));
    uf_array_release(check_acc(MAX, m, &ax1, UF_FLOAT64));
    uf_array_release(m);
    uf_array_release(h32);
    uf_array_release(d);
    uf_array_release(h);
}

/* out=: a device one written in place (also from a host input, and in
 * place over the input itself), a host one from a device input, on a
 * stream; dtype casts and refusals */
static void test_accumulate_out(void **state)
{
    (void)state;
    uf_error err;
    const int64_t s2[2] = {40, 33};
    const int ax1 = 1, ax0 = 0;
    uf_array *x = make(UF_FLOAT64, 2, s2, 5);
    uf_array *want = expect_acc(ADD, x, 1, UF_FLOAT64);
    uf_stream *st = uf_stream_create(SIM, &err);
    uf_assert_ok(st != NULL, &err);
    uf_call_options o = axis_opts(SIM, &ax1);
    o.stream = st;
    for (int din = 0; din < 2; din++) {
        uf_array *in = din ? dev(x) : uf_array_retain(x);
        uf_array *out = uf_device_array(UF_FLOAT64, 2, s2, UF_ORDER_C, SIM,
                                        &err);
        uf_assert_ok(out != NULL, &err);
        uf_array *res = out;
        uf_assert_ok(uf_accumulate(get("vadd"), in, &res, &o, &err) == 0,
                     &err);
        assert_ptr_equal(res, out);
        uf_assert_ok(uf_stream_synchronize(st, &err) == 0, &err);
        assert_same(out, want, "device out=");
        /* a host out= from a device input */
        uf_array *hout = uf_zeros(UF_FLOAT64, 2, s2, UF_ORDER_C, &err);
        res = hout;
        uf_assert_ok(uf_accumulate(get("vadd"), in, &res, &o, &err) == 0,
                     &err);
        assert_same(hout, want, "host out=");
        uf_array_release(hout);
        uf_array_release(out);
        uf_array_release(in);
    }
    /* in place on the device: out= is the input */
    uf_array *d = dev(x);
    uf_array *res = d;
    uf_assert_ok(uf_accumulate(get("vadd"), d, &res, &o, &err) == 0, &err);
    uf_assert_ok(uf_stream_synchronize(st, &err) == 0, &err);
    assert_same(d, want, "in place");
    /* a device out= that is a strided view (every other row reversed) */
    const int64_t big[2] = {80, 33};
    uf_array *dbig = uf_device_array(UF_FLOAT64, 2, big, UF_ORDER_C, SIM,
                                     &err);
    uf_array *view = uf_array_slice(dbig, "::-2", &err);
    uf_assert_ok(view != NULL, &err);
    res = view;
    uf_assert_ok(uf_accumulate(get("vadd"), x, &res, &o, &err) == 0, &err);
    uf_assert_ok(uf_stream_synchronize(st, &err) == 0, &err);
    assert_same(view, want, "strided device out=");
    /* refused: a device out= of the wrong shape, of the wrong dtype, one
     * overlapping the input otherwise than as itself */
    const int64_t bad[2] = {33, 40};
    uf_array *wrong = uf_device_array(UF_FLOAT64, 2, bad, UF_ORDER_C, SIM,
                                      &err);
    res = wrong;
    assert_int_equal(uf_accumulate(get("vadd"), d, &res, &o, &err),
                     UF_ERR_SHAPE);
    printf("wrong shape: %s\n", err.message);
    assert_non_null(strstr(err.message, "(40, 33)"));
    assert_non_null(strstr(err.message, "(33, 40)"));
    uf_array *f32 = uf_device_array(UF_FLOAT32, 2, s2, UF_ORDER_C, SIM,
                                    &err);
    res = f32;
    assert_int_equal(uf_accumulate(get("vadd"), d, &res, &o, &err),
                     UF_ERR_CAST);
    printf("wrong dtype: %s\n", err.message);
    assert_non_null(strstr(err.message, "float32"));
    assert_non_null(strstr(err.message, "float64"));
    uf_array *shifted = uf_array_slice(dbig, "1:41", &err);
    uf_array *src = uf_array_slice(dbig, "0:40", &err);
    res = shifted;
    assert_int_equal(uf_accumulate(get("vadd"), src, &res, &o, &err),
                     UF_ERR_VALUE);
    assert_non_null(strstr(err.message, "overlaps"));
    /* casts: an int32 host input into vmul's int64 loop, a float64 host
     * out= of that int64 result; an int32 device input is not cast */
    uf_array *xi = make(UF_INT32, 2, s2, 6);
    uf_array_release(check_acc(MUL, xi, &ax0, UF_INT64));
    uf_array *hf = uf_zeros(UF_FLOAT64, 2, s2, UF_ORDER_C, &err);
    uf_call_options o0 = axis_opts(SIM, &ax0);
    res = hf;
    uf_assert_ok(uf_accumulate(get("vmul"), xi, &res, &o0, &err) == 0, &err);
    uf_array *wi = expect_acc(MUL, xi, 0, UF_INT64);
    uf_array *wf = uf_array_astype(wi, UF_FLOAT64, UF_CASTING_UNSAFE,
                                   UF_ORDER_C, &err);
    assert_same(hf, wf, "int64 into a float64 host out=");
    uf_array *dxi = dev(xi);
    res = NULL;
    assert_int_equal(uf_accumulate(get("vmul"), dxi, &res, &o0, &err),
                     UF_ERR_CAST);
    printf("device int32 into int64: %s\n", err.message);
    assert_null(res);
    /* NumPy's refusals: a 0-d input, initial=, several axes */
    uf_array *z = uf_zeros(UF_FLOAT64, 0, NULL, UF_ORDER_C, &err);
    uf_array *dz = dev(z);
    assert_int_equal(uf_accumulate(get("vadd"), dz, &res, &o0, &err),
                     UF_ERR_TYPE);
    assert_non_null(strstr(err.message, "cannot accumulate on a scalar"));
    uf_array_release(dz);
    uf_array_release(z);
    uf_array_release(dxi);
    uf_array_release(wf);
    uf_array_release(wi);
    uf_array_release(hf);
    uf_array_release(xi);
    uf_array_release(src);
    uf_array_release(shifted);
    uf_array_release(f32);
    uf_array_release(wrong);
    uf_array_release(view);
    uf_array_release(dbig);
    uf_array_release(d);
    uf_stream_destroy(st);
    uf_array_release(want);
    uf_array_release(x);
}

/* ---- outer --------------------------------------------------------- */

/* np.multiply.outer(a, b) of C-contiguous float64 host arrays */
static uf_array *expect_outer(const uf_array *a, const uf_array *b)
{
    uf_error err;
    int nd = uf_array_ndim(a) + uf_array_ndim(b);
    int64_t shape[UF_MAXDIMS];
    memcpy(shape, uf_array_shape(a), sizeof(int64_t) * (size_t)uf_array_ndim(a));
    memcpy(shape + uf_array_ndim(a), uf_array_shape(b),
           sizeof(int64_t) * (size_t)uf_array_ndim(b));
    uf_array *r = uf_empty(UF_FLOAT64, nd, shape, UF_ORDER_C, &err);
    uf_assert_ok(r != NULL, &err);
    const double *x = uf_array_data(a), *y = uf_array_data(b);
    double *o = uf_array_data(r);
    int64_t na = uf_array_size(a), nb = uf_array_size(b);
    for (int64_t i = 0; i < na; i++)
        for (int64_t j = 0; j < nb; j++)
            o[i * nb + j] = x[i] * y[j];
    return r;
}

static uf_array *check_outer(uf_array *a, uf_array *b, uf_array *out)
{
    uf_error err;
    uf_call_options o = {.size = sizeof o, .target = SIM};
    uf_array *got = out;
    uf_assert_ok(uf_outer(get("vmul"), a, b, &got, &o, &err) == 0, &err);
    uf_array *ha = host_c(a), *hb = host_c(b);
    uf_array *want = expect_outer(ha, hb);
    assert_same(got, want, "multiply.outer");
    uf_call_options oc = {.size = sizeof o, .target = "cpu"};
    uf_array *cpu = NULL;
    uf_assert_ok(uf_outer(get("vmul"), ha, hb, &cpu, &oc, &err) == 0, &err);
    assert_same(got, cpu, "multiply.outer against cpu");
    uf_array_release(cpu);
    uf_array_release(want);
    uf_array_release(ha);
    uf_array_release(hb);
    return got;
}

static void test_outer(void **state)
{
    (void)state;
    uf_error err;
    const int64_t na = 7, sb[2] = {5, 3}, zero = 0;
    uf_array *a = make(UF_FLOAT64, 1, &na, 1), *b = make(UF_FLOAT64, 2, sb, 2);
    uf_array *da = dev(a), *db = dev(b);
    /* host operands: a host result; a device one: a device result */
    uf_array *r = check_outer(a, b, NULL);
    assert_int_equal(uf_array_device(r).type, UF_DEVICE_HOST);
    assert_int_equal(uf_array_ndim(r), 3);
    uf_array_release(r);
    r = check_outer(da, b, NULL);
    assert_int_equal(uf_array_device(r).type, UF_DEVICE_CUDA);
    uf_array_release(r);
    uf_array_release(check_outer(a, db, NULL));
    uf_array_release(check_outer(db, da, NULL));
    /* views: reversed, strided, transposed, on both sides */
    uf_array *ra = uf_array_slice(da, "::-2", &err);
    uf_array *tb = uf_array_transpose(db, NULL, &err);
    uf_array *vb = uf_array_slice(b, "::-1, 1:", &err);
    uf_assert_ok(ra && tb && vb, &err);
    uf_array_release(check_outer(ra, tb, NULL));
    uf_array_release(check_outer(vb, ra, NULL));
    /* 0-d operands (NumPy allows them: shape b.shape), length 1, empty */
    uf_array *s = make(UF_FLOAT64, 0, NULL, 3);
    uf_array *ds = dev(s);
    r = check_outer(s, db, NULL);
    assert_int_equal(uf_array_ndim(r), 2);
    uf_array_release(r);
    uf_array_release(check_outer(ds, s, NULL));
    uf_array_release(check_outer(da, ds, NULL));
    const int64_t one = 1;
    uf_array *a1 = make(UF_FLOAT64, 1, &one, 4), *e = make(UF_FLOAT64, 1,
                                                             &zero, 0);
    uf_array_release(check_outer(a1, db, NULL));
    r = check_outer(da, e, NULL);
    assert_int_equal(uf_array_shape(r)[0], 7);
    assert_int_equal(uf_array_shape(r)[1], 0);
    uf_array_release(r);
    /* out=: a device one of the right shape in place; the wrong shape or
     * dtype refused */
    const int64_t so[3] = {7, 5, 3}, bad[3] = {7, 3, 5};
    uf_array *out = uf_device_array(UF_FLOAT64, 3, so, UF_ORDER_C, SIM, &err);
    r = check_outer(a, db, out);
    assert_ptr_equal(r, out);
    uf_array *wrong = uf_device_array(UF_FLOAT64, 3, bad, UF_ORDER_C, SIM,
                                      &err);
    uf_call_options o = {.size = sizeof o, .target = SIM};
    r = wrong;
    assert_int_equal(uf_outer(get("vmul"), da, db, &r, &o, &err),
                     UF_ERR_SHAPE);
    printf("outer, wrong shape: %s\n", err.message);
    assert_non_null(strstr(err.message, "(7, 3, 5)"));
    assert_non_null(strstr(err.message, "(7, 5, 3)"));
    uf_array *w32 = uf_device_array(UF_FLOAT32, 3, so, UF_ORDER_C, SIM, &err);
    r = w32;
    assert_int_equal(uf_outer(get("vmul"), da, db, &r, &o, &err),
                     UF_ERR_CAST);
    printf("outer, wrong dtype: %s\n", err.message);
    assert_non_null(strstr(err.message, "float32"));
    uf_array_release(w32);
    uf_array_release(wrong);
    uf_array_release(out);
    uf_array_release(e);
    uf_array_release(a1);
    uf_array_release(ds);
    uf_array_release(s);
    uf_array_release(vb);
    uf_array_release(tb);
    uf_array_release(ra);
    uf_array_release(da);
    uf_array_release(db);
    uf_array_release(a);
    uf_array_release(b);
}

int main(void)
{
    SIM = cuda_test_target();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_accumulate_1d),
        cmocka_unit_test(test_accumulate_axes),
        cmocka_unit_test(test_maximum_nan),
        cmocka_unit_test(test_accumulate_out),
        cmocka_unit_test(test_outer),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
