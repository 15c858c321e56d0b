/* Array creation, wrapping, reference counting, flags, arange/linspace. */
#include <math.h>

#include "test_util.h"

#include "common/alloc.h"
#include "ndarray/array_internal.h"

static void test_empty_shapes_and_strides(void **state)
{
    (void)state;
    static const struct {
        const char *file;
        int line;
        uf_dtype dtype;
        int ndim;
        int64_t shape[4];
        uf_order order;
        int64_t strides[4];
        int flags;
    } rows[] = {
        {LOC, UF_FLOAT64, 2, {2, 3}, UF_ORDER_C, {24, 8},
         UF_ARRAY_C_CONTIGUOUS},
        {LOC, UF_FLOAT64, 2, {2, 3}, UF_ORDER_F, {8, 16},
         UF_ARRAY_F_CONTIGUOUS},
        {LOC, UF_INT16, 3, {4, 1, 5}, UF_ORDER_C, {10, 10, 2},
         UF_ARRAY_C_CONTIGUOUS},
        {LOC, UF_COMPLEX128, 1, {7}, UF_ORDER_F, {16},
         UF_ARRAY_C_CONTIGUOUS | UF_ARRAY_F_CONTIGUOUS},
        {LOC, UF_UINT8, 0, {0}, UF_ORDER_C, {0},
         UF_ARRAY_C_CONTIGUOUS | UF_ARRAY_F_CONTIGUOUS},
        {LOC, UF_FLOAT32, 3, {2, 0, 3}, UF_ORDER_C, {0, 12, 4},
         UF_ARRAY_C_CONTIGUOUS | UF_ARRAY_F_CONTIGUOUS},
        {LOC, UF_BOOL, 2, {1, 1}, UF_ORDER_C, {1, 1},
         UF_ARRAY_C_CONTIGUOUS | UF_ARRAY_F_CONTIGUOUS},
    };
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        uf_error err;
        uf_array *a = uf_empty(rows[r].dtype, rows[r].ndim, rows[r].shape,
                               rows[r].order, &err);
        if (a == NULL)
            uf_fail_at(rows[r].file, rows[r].line, "%s", err.message);
        assert_int_equal(uf_array_ndim(a), rows[r].ndim);
        for (int i = 0; i < rows[r].ndim; i++) {
            assert_int_equal(uf_array_shape(a)[i], rows[r].shape[i]);
            /* a zero-length array's strides are not meaningful (NumPy's
             * differ by order); only check non-empty ones */
            if (uf_array_size(a) > 0 &&
                uf_array_strides(a)[i] != rows[r].strides[i])
                uf_fail_at(rows[r].file, rows[r].line, "stride %d is %lld",
                           i, (long long)uf_array_strides(a)[i]);
        }
        int want = rows[r].flags | UF_ARRAY_WRITEABLE | UF_ARRAY_ALIGNED |
                   UF_ARRAY_OWNDATA;
        if (uf_array_flags(a) != want)
            uf_fail_at(rows[r].file, rows[r].line, "flags %#x, want %#x",
                       uf_array_flags(a), want);
        assert_int_equal((uintptr_t)uf_array_data(a) % 64, 0);
        assert_null(uf_array_base(a));
        assert_int_equal(uf_array_device(a).type, UF_DEVICE_HOST);
        uf_array_release(a);
    }
}

static void test_creation_errors(void **state)
{
    (void)state;
    uf_error err;
    int64_t neg[] = {3, -1};
    assert_null(uf_empty(UF_FLOAT64, 2, neg, UF_ORDER_C, &err));
    assert_int_equal(err.code, UF_ERR_VALUE);
    assert_non_null(strstr(err.message, "negative dimensions"));

    int64_t huge[] = {INT64_C(1) << 40, INT64_C(1) << 40};
    assert_null(uf_zeros(UF_FLOAT64, 2, huge, UF_ORDER_C, &err));
    assert_int_equal(err.code, UF_ERR_OVERFLOW);
    int64_t big[] = {INT64_C(1) << 61};
    assert_null(uf_empty(UF_FLOAT64, 1, big, UF_ORDER_C, &err));
    assert_int_equal(err.code, UF_ERR_OVERFLOW);

    int64_t ok[] = {2};
    assert_null(uf_empty((uf_dtype)99, 1, ok, UF_ORDER_C, &err));
    assert_int_equal(err.code, UF_ERR_TYPE);
    assert_null(uf_empty(UF_FLOAT64, 1, ok, UF_ORDER_K, &err));
    assert_int_equal(err.code, UF_ERR_VALUE);
    assert_null(uf_empty(UF_FLOAT64, UF_MAXDIMS + 1, ok, UF_ORDER_C, &err));
    assert_int_equal(err.code, UF_ERR_VALUE);
    assert_null(uf_empty(UF_FLOAT64, 1, NULL, UF_ORDER_C, &err));
    assert_int_equal(err.code, UF_ERR_INVALID);
}

static void test_zeros_ones_full(void **state)
{
    (void)state;
    uf_error err;
    int64_t shape[] = {3, 2};
    for (int dt = 0; dt < UF_NTYPES; dt++) {
        uf_array *z = uf_zeros((uf_dtype)dt, 2, shape, UF_ORDER_F, &err);
        uf_array *o = uf_ones((uf_dtype)dt, 2, shape, UF_ORDER_C, &err);
        assert_non_null(z);
        assert_non_null(o);
        size_t isz = uf_dtype_itemsize((uf_dtype)dt);
        const unsigned char *zb = uf_array_data(z);
        for (size_t i = 0; i < 6 * isz; i++)
            assert_int_equal(zb[i], 0);
        for (int i = 0; i < 6; i++) {
            const char *p = (const char *)uf_array_data(o) + (size_t)i * isz;
            double v;
            switch ((uf_dtype)dt) {
            case UF_BOOL: v = *(const bool *)p; break;
            case UF_INT8: v = *(const int8_t *)p; break;
            case UF_UINT8: v = *(const uint8_t *)p; break;
            case UF_INT16: v = *(const int16_t *)p; break;
            case UF_UINT16: v = *(const uint16_t *)p; break;
            case UF_INT32: v = *(const int32_t *)p; break;
            case UF_UINT32: v = *(const uint32_t *)p; break;
            case UF_INT64: v = (double)*(const int64_t *)p; break;
            case UF_UINT64: v = (double)*(const uint64_t *)p; break;
            case UF_FLOAT32: v = *(const float *)p; break;
            case UF_COMPLEX64:
                v = ((const float *)p)[0];
                assert_true(((const float *)p)[1] == 0.0f);
                break;
            case UF_COMPLEX128:
                v = ((const double *)p)[0];
                assert_true(((const double *)p)[1] == 0.0);
                break;
            default: v = *(const double *)p; break;
            }
            if (v != 1.0)
                fail_msg("ones(%s)[%d] = %g", uf_dtype_name((uf_dtype)dt), i,
                         v);
        }
        uf_array_release(z);
        uf_array_release(o);
    }

    /* full casts unsafely, as np.full(..., 300.7, dtype=uint8) gives 44 */
    double v = 300.7;
    uf_array *f = uf_full(UF_UINT8, 1, shape, &v, UF_FLOAT64, UF_ORDER_C,
                          &err);
    assert_non_null(f);
    assert_int_equal(((uint8_t *)uf_array_data(f))[2], 44);
    uf_array_release(f);

    uf_array *zero_d = uf_full(UF_FLOAT32, 0, NULL, &v, UF_FLOAT64,
                               UF_ORDER_C, &err);
    assert_non_null(zero_d);
    assert_int_equal(uf_array_size(zero_d), 1);
    assert_true(*(float *)uf_array_data(zero_d) == 300.7f);
    uf_array_release(zero_d);

    assert_null(uf_full(UF_UINT8, 1, shape, NULL, UF_FLOAT64, UF_ORDER_C,
                        &err));
    assert_int_equal(err.code, UF_ERR_INVALID);
}

static int released;
static void count_release(void *ctx, void *data)
{
    assert_ptr_equal(ctx, &released);
    (void)data; /* NULL for an empty wrapped array */
    released++;
}

static void test_wrap_and_refcount(void **state)
{
    (void)state;
    uf_error err;
    double buf[12];
    for (int i = 0; i < 12; i++)
        buf[i] = i;
    int64_t shape[] = {3, 4};
    released = 0;
    uf_array *a = uf_array_wrap(UF_FLOAT64, 2, shape, NULL, buf, true,
                                count_release, &released, &err);
    assert_non_null(a);
    assert_int_equal(uf_array_strides(a)[0], 32);
    assert_int_equal(uf_array_flags(a) & UF_ARRAY_OWNDATA, 0);
    assert_true(uf_array_flags(a) & UF_ARRAY_C_CONTIGUOUS);

    /* A strided, reversed view over column 1: keeps the memory alive. */
    int64_t vshape[] = {3}, vstrides[] = {-32};
    uf_array *v = uf__array_view(a, UF_FLOAT64, 1, vshape, vstrides,
                                 (char *)&buf[9], &err);
    assert_non_null(v);
    assert_ptr_equal(uf_array_base(v), a);
    uf_array *vv = uf__array_view(v, UF_FLOAT64, 1, vshape, vstrides,
                                  (char *)&buf[9], &err);
    assert_ptr_equal(uf_array_base(vv), a); /* base chains collapse */
    uf_array_release(a);
    assert_int_equal(released, 0);
    int64_t idx = -1;
    assert_true(*(double *)uf_array_getptr(v, &idx, &err) == 1.0);
    idx = 3;
    assert_null(uf_array_getptr(v, &idx, &err));
    assert_int_equal(err.code, UF_ERR_INDEX);
    assert_string_equal(err.message,
                        "index 3 is out of bounds for axis 0 with size 3");
    assert_false(uf_array_flags(v) & UF_ARRAY_C_CONTIGUOUS);
    uf_array_release(v);
    assert_int_equal(released, 0);
    uf_array_release(vv);
    assert_int_equal(released, 1);

    /* Wrapping NULL data is fine only when empty; failure does not call
     * the release callback. */
    int64_t empty[] = {0};
    a = uf_array_wrap(UF_INT8, 1, empty, NULL, NULL, false, count_release,
                      &released, &err);
    assert_non_null(a);
    uf_array_release(a);
    assert_int_equal(released, 2);
    assert_null(uf_array_wrap(UF_INT8, 1, shape, NULL, NULL, true,
                              count_release, &released, &err));
    assert_int_equal(err.code, UF_ERR_INVALID);
    assert_int_equal(released, 2);
}

static void test_flags_and_writeable(void **state)
{
    (void)state;
    static const struct {
        const char *file;
        int line;
        int ndim;
        int64_t shape[3], strides[3];
        size_t offset;
        int flags;
    } rows[] = {
        {LOC, 2, {3, 1}, {8, 100}, 0,
         UF_ARRAY_C_CONTIGUOUS | UF_ARRAY_F_CONTIGUOUS | UF_ARRAY_ALIGNED},
        {LOC, 2, {3, 2}, {8, 24}, 0, UF_ARRAY_F_CONTIGUOUS | UF_ARRAY_ALIGNED},
        {LOC, 2, {3, 2}, {32, 8}, 0, UF_ARRAY_ALIGNED},
        {LOC, 1, {3}, {-8}, 16, UF_ARRAY_ALIGNED},
        {LOC, 1, {3}, {8}, 4, UF_ARRAY_C_CONTIGUOUS | UF_ARRAY_F_CONTIGUOUS},
        {LOC, 1, {1}, {3}, 0,
         UF_ARRAY_C_CONTIGUOUS | UF_ARRAY_F_CONTIGUOUS | UF_ARRAY_ALIGNED},
        {LOC, 2, {2, 2}, {4, 8}, 0, 0},
        {LOC, 3, {2, 0, 2}, {3, 5, 7}, 1,
         UF_ARRAY_C_CONTIGUOUS | UF_ARRAY_F_CONTIGUOUS | UF_ARRAY_ALIGNED},
    };
    static _Alignas(64) char mem[256];
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        uf_error err;
        uf_array *a = uf_array_wrap(UF_FLOAT64, rows[r].ndim, rows[r].shape,
                                    rows[r].strides, mem + rows[r].offset,
                                    false, NULL, NULL, &err);
        assert_non_null(a);
        if (uf_array_flags(a) != rows[r].flags)
            uf_fail_at(rows[r].file, rows[r].line, "flags %#x, want %#x",
                       uf_array_flags(a), rows[r].flags);
        /* memory given read-only stays read-only */
        assert_int_equal(uf_array_set_writeable(a, true, &err),
                         UF_ERR_READONLY);
        uf_array_release(a);
    }

    uf_error err;
    int64_t shape[] = {4};
    uf_array *a = uf_zeros(UF_INT32, 1, shape, UF_ORDER_C, &err);
    int64_t bshape[] = {2, 4}, bstrides[] = {0, 4};
    uf_array *b = uf__array_view(a, UF_INT32, 2, bshape, bstrides,
                                 uf_array_data(a), &err);
    assert_int_equal(uf_array_set_writeable(b, false, &err), 0);
    assert_false(uf_array_flags(b) & UF_ARRAY_WRITEABLE);
    assert_int_equal(uf_array_set_writeable(b, true, &err), UF_ERR_READONLY);
    assert_non_null(strstr(err.message, "overlap"));
    uf_array *c = uf__array_view(a, UF_INT32, 1, shape, bstrides + 1,
                                 uf_array_data(a), &err);
    assert_int_equal(uf_array_set_writeable(c, false, &err), 0);
    assert_int_equal(uf_array_set_writeable(c, true, &err), 0);
    assert_true(uf_array_flags(c) & UF_ARRAY_WRITEABLE);
    uf_array_release(a);
    uf_array_release(b);
    uf_array_release(c);
}

/* Expected values computed with NumPy 2 (np.arange / np.linspace). */
static const double arange_f64_a[] = {
    0x0.0p+0, 0x1.999999999999ap-4, 0x1.999999999999ap-3,
    0x1.3333333333334p-2, 0x1.999999999999ap-2, 0x1.0000000000000p-1,
    0x1.3333333333334p-1, 0x1.6666666666667p-1, 0x1.999999999999ap-1,
    0x1.ccccccccccccdp-1};
static const double arange_f64_b[] = {
    0x1.0000000000000p+0, 0x1.6666666666666p-1, 0x1.9999999999998p-2,
    0x1.9999999999990p-4, -0x1.99999999999a0p-3, -0x1.0000000000002p-1,
    -0x1.999999999999cp-1, -0x1.199999999999cp+0, -0x1.6666666666668p+0,
    -0x1.b333333333334p+0};
static const double arange_f32[] = {
    0x0.0p+0, 0x1.99999ap-4, 0x1.99999ap-3, 0x1.333334p-2, 0x1.99999ap-2,
    0x1.000000p-1, 0x1.333334p-1, 0x1.666666p-1, 0x1.99999ap-1,
    0x1.cccccep-1};
static const double arange_i64[] = {-3, -1, 1, 3};
static const double arange_i32[] = {0, 2, 4};
static const double arange_u8[] = {0, 100, 200};
static const double lin_a[] = {0x0.0p+0, 0x1.5555555555555p-3,
                               0x1.5555555555555p-2, 0x1.0000000000000p-1,
                               0x1.5555555555555p-1, 0x1.aaaaaaaaaaaaap-1,
                               0x1.0000000000000p+0};
static const double lin_b[] = {0x1.0000000000000p+1, 0x1.199999999999ap+1,
                               0x1.3333333333333p+1, 0x1.4cccccccccccdp+1,
                               0x1.6666666666666p+1};
static const double lin_i64[] = {-1, -1, -1, -1, 0, 0, 0, 0, 1};
static const double lin_one[] = {0};
static const double lin_tiny[] = {0x0.0p+0, 0x0.00000000001fap-1022,
                                  0x0.00000000003f4p-1022,
                                  0x0.00000000005eep-1022,
                                  0x0.00000000007e8p-1022};

static double element(const uf_array *a, int64_t i)
{
    double v = 0;
    uf_error err;
    const char *p = uf_array_getptr(a, &i, &err);
    switch (uf_array_dtype(a)) {
    case UF_FLOAT64: v = *(const double *)p; break;
    case UF_FLOAT32: v = *(const float *)p; break;
    case UF_INT64: v = (double)*(const int64_t *)p; break;
    case UF_INT32: v = *(const int32_t *)p; break;
    case UF_UINT8: v = *(const uint8_t *)p; break;
    default: fail_msg("unexpected dtype");
    }
    return v;
}

static void test_arange_linspace(void **state)
{
    (void)state;
    static const struct {
        const char *file;
        int line;
        bool lin;
        double start, stop, step_or_num;
        bool endpoint;
        uf_dtype dtype;
        const double *want;
        int64_t n;
    } rows[] = {
#define N(x) x, (int64_t)(sizeof x / sizeof x[0])
        {LOC, false, 0.0, 1.0, 0.1, 0, UF_FLOAT64, N(arange_f64_a)},
        {LOC, false, 1.0, -2.0, -0.3, 0, UF_FLOAT64, N(arange_f64_b)},
        {LOC, false, 0.0, 1.0, 0.1, 0, UF_FLOAT32, N(arange_f32)},
        {LOC, false, -3.0, 4.0, 2.0, 0, UF_INT64, N(arange_i64)},
        {LOC, false, 0.5, 5.0, 1.5, 0, UF_INT32, N(arange_i32)},
        {LOC, false, 0.0, 300.0, 100.0, 0, UF_UINT8, N(arange_u8)},
        {LOC, false, 5.0, 1.0, 1.0, 0, UF_FLOAT64, NULL, 0},
        {LOC, true, 0.0, 1.0, 7, true, UF_FLOAT64, N(lin_a)},
        {LOC, true, 2.0, 3.0, 5, false, UF_FLOAT64, N(lin_b)},
        {LOC, true, -1.0, 1.0, 9, true, UF_INT64, N(lin_i64)},
        {LOC, true, 0.0, 1.0, 1, true, UF_FLOAT32, N(lin_one)},
        {LOC, true, 0.0, 1e-320, 5, true, UF_FLOAT64, N(lin_tiny)},
        {LOC, true, 0.0, 1.0, 0, true, UF_FLOAT64, NULL, 0},
#undef N
    };
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        uf_error err;
        uf_array *a =
            rows[r].lin ? uf_linspace(rows[r].start, rows[r].stop,
                                      (int64_t)rows[r].step_or_num,
                                      rows[r].endpoint, rows[r].dtype, &err)
                        : uf_arange(rows[r].start, rows[r].stop,
                                    rows[r].step_or_num, rows[r].dtype, &err);
        if (a == NULL)
            uf_fail_at(rows[r].file, rows[r].line, "%s", err.message);
        if (uf_array_size(a) != rows[r].n)
            uf_fail_at(rows[r].file, rows[r].line, "size %lld, want %lld",
                       (long long)uf_array_size(a), (long long)rows[r].n);
        for (int64_t i = 0; i < rows[r].n; i++) {
            double got = element(a, i);
            if (memcmp(&got, &rows[r].want[i], sizeof got) != 0)
                uf_fail_at(rows[r].file, rows[r].line,
                           "element %lld is %a, want %a", (long long)i, got,
                           rows[r].want[i]);
        }
        uf_array_release(a);
    }

    uf_error err;
    assert_null(uf_arange(0, 1, 0, UF_FLOAT64, &err));
    assert_int_equal(err.code, UF_ERR_VALUE);
    assert_null(uf_arange(0, NAN, 1, UF_FLOAT64, &err));
    assert_int_equal(err.code, UF_ERR_VALUE);
    assert_null(uf_arange(0, 1e300, 1, UF_FLOAT64, &err));
    assert_int_equal(err.code, UF_ERR_OVERFLOW);
    assert_null(uf_arange(0, 3, 1, UF_BOOL, &err));
    assert_int_equal(err.code, UF_ERR_TYPE);
    assert_null(uf_linspace(0, 1, -1, true, UF_FLOAT64, &err));
    assert_int_equal(err.code, UF_ERR_VALUE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_empty_shapes_and_strides),
        cmocka_unit_test(test_creation_errors),
        cmocka_unit_test(test_zeros_ones_full),
        cmocka_unit_test(test_wrap_and_refcount),
        cmocka_unit_test(test_flags_and_writeable),
        cmocka_unit_test(test_arange_linspace),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
