/* Copies, casts, copyto and fill: strides and values against NumPy
 * (tests/data/copy_layout.txt, or the file named by argv[1]) and
 * hand-computed cases for broadcasting, overlap, errors and 0-d/empty. */
#include <complex.h>

#include "test_util.h"

#include "common/alloc.h"

static const char *data_path = UF_TEST_DATA_DIR "/copy_layout.txt";

/* Element access by dtype, as double (real part for complex). */
static double load(uf_dtype t, const char *p)
{
    switch (t) {
#define LOAD(e, name, kind, size, ctype)                                    \
    case UF_##e: {                                                          \
        ctype v;                                                            \
        memcpy(&v, p, sizeof v);                                            \
        return (double)creal((double _Complex)v);                          \
    }
        UF_DTYPE_MAP(LOAD)
#undef LOAD
    default:
        fail_msg("bad dtype %d", (int)t);
    }
    return 0;
}

static void store(uf_dtype t, char *p, double x)
{
    switch (t) {
#define STORE(e, name, kind, size, ctype)                                   \
    case UF_##e: {                                                          \
        ctype v = (ctype)x;                                                 \
        memcpy(p, &v, sizeof v);                                            \
        return;                                                             \
    }
        UF_DTYPE_MAP(STORE)
#undef STORE
    default:
        fail_msg("bad dtype %d", (int)t);
    }
}

/* Offset in bytes of the element with C-order index `flat`. */
static int64_t elem_offset(const uf_array *a, int64_t flat)
{
    int64_t off = 0;

    for (int i = uf_array_ndim(a) - 1; i >= 0; i--) {
        int64_t n = uf_array_shape(a)[i];
        off += (flat % n) * uf_array_strides(a)[i];
        flat /= n;
    }
    return off;
}

static double at(const uf_array *a, int64_t flat)
{
    return load(uf_array_dtype(a),
                (const char *)uf_array_data(a) + elem_offset(a, flat));
}

/* Asserts a's elements in C order equal `want`. */
static void check_values(const char *file, int line, const uf_array *a,
                         const double *want, int64_t n)
{
    if (uf_array_size(a) != n)
        uf_fail_at(file, line, "size %lld, want %lld",
                   (long long)uf_array_size(a), (long long)n);
    for (int64_t i = 0; i < n; i++)
        if (at(a, i) != want[i])
            uf_fail_at(file, line, "element %lld is %g, want %g",
                       (long long)i, at(a, i), want[i]);
}

/* A C-contiguous array holding `vals` (or 0, 1, 2, ... when NULL). */
static uf_array *make(uf_dtype t, int ndim, const int64_t *shape,
                      const double *vals)
{
    uf_error err;
    uf_array *a = uf_empty(t, ndim, shape, UF_ORDER_C, &err);

    uf_assert_ok(a != NULL, &err);
    for (int64_t i = 0; i < uf_array_size(a); i++)
        store(t, (char *)uf_array_data(a) + i * (int64_t)uf_array_itemsize(a),
              vals ? vals[i] : (double)i);
    return a;
}

/* A view of a's memory (not keeping a alive) at a byte offset. */
static uf_array *view(uf_array *a, uf_dtype t, int64_t offset, int ndim,
                      const int64_t *shape, const int64_t *strides,
                      bool writeable)
{
    uf_error err;
    uf_array *v = uf_array_wrap(t, ndim, shape, strides,
                                (char *)uf_array_data(a) + offset, writeable,
                                NULL, NULL, &err);

    uf_assert_ok(v != NULL, &err);
    return v;
}

/* ---- uf_array_copy / uf_array_astype */

/* The memory of a copy, in address order, for each order. */
static void test_copy_memory_order(void **state)
{
    (void)state;
    static const struct {
        const char *file;
        int line;
        int64_t offset;
        int64_t strides[2]; /* a (2, 3) int32 view of 0..5 in C order */
        uf_order order;
        int64_t want_strides[2];
        double memory[6];
    } rows[] = {
        {LOC, 0, {12, 4}, UF_ORDER_C, {12, 4}, {0, 1, 2, 3, 4, 5}},
        {LOC, 0, {12, 4}, UF_ORDER_F, {4, 8}, {0, 3, 1, 4, 2, 5}},
        {LOC, 0, {12, 4}, UF_ORDER_A, {12, 4}, {0, 1, 2, 3, 4, 5}},
        {LOC, 0, {12, 4}, UF_ORDER_K, {12, 4}, {0, 1, 2, 3, 4, 5}},
        /* the same memory read as an F-ordered (2, 3) array */
        {LOC, 0, {4, 8}, UF_ORDER_C, {12, 4}, {0, 2, 4, 1, 3, 5}},
        {LOC, 0, {4, 8}, UF_ORDER_A, {4, 8}, {0, 1, 2, 3, 4, 5}},
        {LOC, 0, {4, 8}, UF_ORDER_K, {4, 8}, {0, 1, 2, 3, 4, 5}},
        /* a[::-1, ::-1]: K keeps the axis order with positive strides */
        {LOC, 20, {-12, -4}, UF_ORDER_K, {12, 4}, {5, 4, 3, 2, 1, 0}},
        {LOC, 20, {-12, -4}, UF_ORDER_A, {12, 4}, {5, 4, 3, 2, 1, 0}},
        /* F memory reversed on the first axis only: not contiguous, K
         * keeps "axis 0 fastest" */
        {LOC, 4, {-4, 8}, UF_ORDER_K, {4, 8}, {1, 0, 3, 2, 5, 4}},
        {LOC, 4, {-4, 8}, UF_ORDER_A, {12, 4}, {1, 3, 5, 0, 2, 4}},
    };
    int64_t six = 6, shape[2] = {2, 3};
    uf_array *base = make(UF_INT32, 1, &six, NULL);

    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        uf_array *v = view(base, UF_INT32, rows[r].offset, 2, shape,
                           rows[r].strides, true);
        uf_error err;
        uf_array *c = uf_array_copy(v, rows[r].order, &err);

        if (c == NULL)
            uf_fail_at(rows[r].file, rows[r].line, "%s", err.message);
        for (int i = 0; i < 2; i++)
            if (uf_array_strides(c)[i] != rows[r].want_strides[i])
                uf_fail_at(rows[r].file, rows[r].line, "stride %d is %lld",
                           i, (long long)uf_array_strides(c)[i]);
        for (int i = 0; i < 6; i++)
            if (((int32_t *)uf_array_data(c))[i] != rows[r].memory[i])
                uf_fail_at(rows[r].file, rows[r].line, "memory[%d] is %d", i,
                           ((int32_t *)uf_array_data(c))[i]);
        if (!(uf_array_flags(c) & UF_ARRAY_OWNDATA) ||
            !(uf_array_flags(c) & UF_ARRAY_WRITEABLE) ||
            uf_array_base(c) != NULL)
            uf_fail_at(rows[r].file, rows[r].line, "flags %#x",
                       uf_array_flags(c));
        uf_array_release(c);
        uf_array_release(v);
    }
    uf_array_release(base);
}

static void test_copy_0d_and_empty(void **state)
{
    (void)state;
    double seven = 7;
    int64_t eshape[3] = {2, 0, 3};
    uf_array *s = make(UF_FLOAT32, 0, eshape, &seven);
    uf_array *e = make(UF_INT16, 3, eshape, NULL);
    uf_error err;

    for (uf_order o = UF_ORDER_C; o <= UF_ORDER_K; o++) {
        uf_array *c = uf_array_copy(s, o, &err);
        uf_assert_ok(c != NULL, &err);
        assert_int_equal(uf_array_ndim(c), 0);
        check_values(LOC, c, &seven, 1);
        uf_array_release(c);

        c = uf_array_astype(s, UF_COMPLEX128, UF_CASTING_SAFE, o, &err);
        uf_assert_ok(c != NULL, &err);
        assert_int_equal(uf_array_dtype(c), UF_COMPLEX128);
        check_values(LOC, c, &seven, 1);
        uf_array_release(c);

        c = uf_array_copy(e, o, &err);
        uf_assert_ok(c != NULL, &err);
        assert_int_equal(uf_array_ndim(c), 3);
        assert_memory_equal(uf_array_shape(c), eshape, sizeof eshape);
        assert_int_equal(uf_array_size(c), 0);
        uf_array_release(c);
    }
    uf_array_release(s);
    uf_array_release(e);
}

static void test_astype_casting(void **state)
{
    (void)state;
    static const struct {
        const char *file;
        int line;
        uf_dtype from, to;
        uf_casting casting;
        const char *message; /* NULL: allowed */
    } rows[] = {
        {LOC, UF_FLOAT64, UF_INT32, UF_CASTING_SAFE,
         "Cannot cast array data from dtype('float64') to dtype('int32') "
         "according to the rule 'safe'"},
        {LOC, UF_FLOAT64, UF_INT64, UF_CASTING_SAME_KIND,
         "Cannot cast array data from dtype('float64') to dtype('int64') "
         "according to the rule 'same_kind'"},
        {LOC, UF_FLOAT32, UF_FLOAT64, UF_CASTING_NO,
         "Cannot cast array data from dtype('float32') to dtype('float64') "
         "according to the rule 'no'"},
        {LOC, UF_COMPLEX64, UF_BOOL, UF_CASTING_EQUIV,
         "Cannot cast array data from dtype('complex64') to dtype('bool') "
         "according to the rule 'equiv'"},
        {LOC, UF_INT32, UF_FLOAT64, UF_CASTING_SAFE, NULL},
        {LOC, UF_INT64, UF_INT8, UF_CASTING_SAME_KIND, NULL},
        {LOC, UF_FLOAT32, UF_FLOAT32, UF_CASTING_NO, NULL},
        {LOC, UF_COMPLEX128, UF_UINT8, UF_CASTING_UNSAFE, NULL},
    };
    int64_t shape[2] = {2, 2};
    const double vals[4] = {0, 1, 2, 100};

    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        uf_array *a = make(rows[r].from, 2, shape, vals);
        uf_error err;
        uf_array *b = uf_array_astype(a, rows[r].to, rows[r].casting,
                                      UF_ORDER_K, &err);

        if (rows[r].message == NULL) {
            if (b == NULL)
                uf_fail_at(rows[r].file, rows[r].line, "%s", err.message);
            assert_int_equal(uf_array_dtype(b), rows[r].to);
            check_values(rows[r].file, rows[r].line, b, vals, 4);
        } else {
            if (b != NULL || err.code != UF_ERR_CAST)
                uf_fail_at(rows[r].file, rows[r].line, "not refused");
            if (strcmp(err.message, rows[r].message) != 0)
                uf_fail_at(rows[r].file, rows[r].line, "message: %s",
                           err.message);
        }
        uf_array_release(b);
        uf_array_release(a);
    }
}

static void test_copy_bad_arguments(void **state)
{
    (void)state;
    int64_t shape[1] = {3};
    uf_array *a = make(UF_INT8, 1, shape, NULL);
    uf_error err;

    assert_null(uf_array_copy(a, (uf_order)9, &err));
    assert_int_equal(err.code, UF_ERR_INVALID);
    assert_null(uf_array_copy(NULL, UF_ORDER_C, &err));
    assert_int_equal(err.code, UF_ERR_INVALID);
    assert_null(uf_array_astype(a, (uf_dtype)99, UF_CASTING_UNSAFE,
                                UF_ORDER_C, &err));
    assert_int_equal(err.code, UF_ERR_INVALID);
    assert_null(uf_array_astype(a, UF_INT16, (uf_casting)17, UF_ORDER_C,
                                &err));
    assert_int_equal(err.code, UF_ERR_INVALID);
    /* a NULL error object is allowed */
    assert_null(uf_array_astype(a, UF_BOOL, UF_CASTING_SAFE, UF_ORDER_C,
                                NULL));
    uf_array_release(a);
}

/* ---- uf_array_copyto */

static void test_copyto_broadcast(void **state)
{
    (void)state;
    static const struct {
        const char *file;
        int line;
        int ndim;
        int64_t shape[3];
        double vals[6];
        double want[6]; /* the (2, 3) float64 destination afterwards */
    } rows[] = {
        {LOC, 1, {3}, {7, 8, 9}, {7, 8, 9, 7, 8, 9}},
        {LOC, 2, {2, 1}, {7, 8}, {7, 7, 7, 8, 8, 8}},
        {LOC, 2, {1, 3}, {4, 5, 6}, {4, 5, 6, 4, 5, 6}},
        {LOC, 0, {0}, {-2}, {-2, -2, -2, -2, -2, -2}},
        {LOC, 2, {2, 3}, {1, 2, 3, 4, 5, 6}, {1, 2, 3, 4, 5, 6}},
        /* more dimensions than dst: leading 1s are dropped */
        {LOC, 3, {1, 1, 3}, {1, 2, 3}, {1, 2, 3, 1, 2, 3}},
        {LOC, 3, {1, 2, 3}, {6, 5, 4, 3, 2, 1}, {6, 5, 4, 3, 2, 1}},
    };
    int64_t shape[2] = {2, 3};

    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        uf_array *dst = make(UF_FLOAT64, 2, shape, NULL);
        uf_array *src = make(UF_INT16, rows[r].ndim, rows[r].shape,
                             rows[r].vals);
        uf_error err;

        if (uf_array_copyto(dst, src, UF_CASTING_SAFE, &err) != 0)
            uf_fail_at(rows[r].file, rows[r].line, "%s", err.message);
        check_values(rows[r].file, rows[r].line, dst, rows[r].want, 6);
        uf_array_release(dst);
        uf_array_release(src);
    }
}

static void test_copyto_errors(void **state)
{
    (void)state;
    static const struct {
        const char *file;
        int line;
        int dst_ndim;
        int64_t dst_shape[2];
        uf_dtype dst_dtype;
        bool writeable;
        int src_ndim;
        int64_t src_shape[3];
        uf_dtype src_dtype;
        uf_casting casting;
        int code;
        const char *message;
    } rows[] = {
        {LOC, 1, {2}, UF_FLOAT64, true, 1, {3}, UF_FLOAT64,
         UF_CASTING_SAME_KIND, UF_ERR_SHAPE,
         "could not broadcast input array from shape (3,) into shape (2,)"},
        {LOC, 2, {2, 2}, UF_FLOAT64, true, 3, {1, 1, 3}, UF_FLOAT64,
         UF_CASTING_SAME_KIND, UF_ERR_SHAPE,
         "could not broadcast input array from shape (1,3) into shape "
         "(2,2)"},
        {LOC, 1, {3}, UF_FLOAT64, true, 2, {2, 3}, UF_FLOAT64,
         UF_CASTING_SAME_KIND, UF_ERR_SHAPE,
         "could not broadcast input array from shape (2,3) into shape (3,)"},
        {LOC, 0, {0}, UF_FLOAT64, true, 1, {2}, UF_FLOAT64,
         UF_CASTING_SAME_KIND, UF_ERR_SHAPE,
         "could not broadcast input array from shape (2,) into shape ()"},
        {LOC, 1, {3}, UF_INT32, true, 1, {3}, UF_FLOAT64,
         UF_CASTING_SAME_KIND, UF_ERR_CAST,
         "Cannot cast array data from dtype('float64') to dtype('int32') "
         "according to the rule 'same_kind'"},
        {LOC, 1, {3}, UF_INT32, true, 0, {0}, UF_FLOAT64,
         UF_CASTING_SAME_KIND, UF_ERR_CAST,
         "Cannot cast scalar from dtype('float64') to dtype('int32') "
         "according to the rule 'same_kind'"},
        /* read-only is reported before casting and shapes */
        {LOC, 1, {3}, UF_INT32, false, 1, {4}, UF_FLOAT64,
         UF_CASTING_SAFE, UF_ERR_READONLY,
         "assignment destination is read-only"},
        /* casting before shapes */
        {LOC, 1, {3}, UF_INT32, true, 1, {4}, UF_FLOAT64,
         UF_CASTING_SAFE, UF_ERR_CAST, NULL},
        {LOC, 1, {3}, UF_INT32, true, 1, {3}, UF_INT32, (uf_casting)-1,
         UF_ERR_INVALID, NULL},
    };

    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        uf_array *d = make(rows[r].dst_dtype, rows[r].dst_ndim,
                           rows[r].dst_shape, NULL);
        uf_array *dst = view(d, rows[r].dst_dtype, 0, rows[r].dst_ndim,
                             rows[r].dst_shape, NULL, rows[r].writeable);
        uf_array *src = make(rows[r].src_dtype, rows[r].src_ndim,
                             rows[r].src_shape, NULL);
        uf_error err;
        int rc = uf_array_copyto(dst, src, rows[r].casting, &err);

        if (rc != rows[r].code || err.code != rows[r].code)
            uf_fail_at(rows[r].file, rows[r].line, "returned %d: %s", rc,
                       err.message);
        if (rows[r].message != NULL &&
            strcmp(err.message, rows[r].message) != 0)
            uf_fail_at(rows[r].file, rows[r].line, "message: %s",
                       err.message);
        uf_array_release(src);
        uf_array_release(dst);
        uf_array_release(d);
    }
}

/* np.copyto(a, a) is a no-op even when a is read-only (as NumPy); a 0-d
 * one goes NumPy's scalar path, which checks first. */
static void test_copyto_self(void **state)
{
    (void)state;
    int64_t shape[1] = {4};
    uf_array *a = make(UF_INT64, 1, shape, NULL);
    uf_array *ro = view(a, UF_INT64, 0, 1, shape, NULL, false);
    uf_array *ro0 = view(a, UF_INT64, 8, 0, shape, NULL, false);
    uf_array *b = make(UF_INT64, 1, shape, (double[]){5, 6, 7, 8});
    uf_error err;

    assert_int_equal(uf_array_copyto(ro, ro, UF_CASTING_NO, &err), 0);
    /* a writeable array and a read-only view of the same memory, same
     * layout: still the same view */
    assert_int_equal(uf_array_copyto(ro, a, UF_CASTING_NO, &err), 0);
    assert_int_equal(uf_array_copyto(a, ro, UF_CASTING_NO, &err), 0);
    assert_int_equal(uf_array_copyto(ro0, ro0, UF_CASTING_NO, &err),
                     UF_ERR_READONLY);
    assert_int_equal(uf_array_copyto(ro, b, UF_CASTING_NO, NULL),
                     UF_ERR_READONLY);
    check_values(LOC, a, (double[]){0, 1, 2, 3}, 4);
    assert_int_equal(uf_array_copyto(a, b, UF_CASTING_NO, &err), 0);
    check_values(LOC, ro, (double[]){5, 6, 7, 8}, 4);
    uf_array_release(b);
    uf_array_release(ro0);
    uf_array_release(ro);
    uf_array_release(a);
}

/* Overlapping source and destination behave as if src were read first. */
static void test_copyto_overlap(void **state)
{
    (void)state;
    static const struct {
        const char *file;
        int line;
        int64_t dst_off, src_off; /* in elements of a 10-element array */
        int ndim;
        int64_t shape[2];
        int64_t dst_strides[2], src_strides[2]; /* in elements */
        double want[10];
    } rows[] = {
        /* a[1:] = a[:-1] and a[:-1] = a[1:] */
        {LOC, 1, 0, 1, {9}, {1}, {1}, {0, 0, 1, 2, 3, 4, 5, 6, 7, 8}},
        {LOC, 0, 1, 1, {9}, {1}, {1}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 9}},
        /* a[:] = a[::-1] */
        {LOC, 0, 9, 1, {10}, {1}, {-1}, {9, 8, 7, 6, 5, 4, 3, 2, 1, 0}},
        /* a[::-1] = a */
        {LOC, 9, 0, 1, {10}, {-1}, {1}, {9, 8, 7, 6, 5, 4, 3, 2, 1, 0}},
        /* m[:] = m.T for the 3x3 m = a[:9].reshape(3, 3) */
        {LOC, 0, 0, 2, {3, 3}, {3, 1}, {1, 3},
         {0, 3, 6, 1, 4, 7, 2, 5, 8, 9}},
        /* a[2:8:2] = a[1:4]: a stride-2 destination inside the source */
        {LOC, 2, 1, 1, {3}, {2}, {1}, {0, 1, 1, 3, 2, 5, 3, 7, 8, 9}},
        /* a[0:5] = a[5:]: extents touch but do not overlap */
        {LOC, 0, 5, 1, {5}, {1}, {1}, {5, 6, 7, 8, 9, 5, 6, 7, 8, 9}},
    };
    int64_t ten = 10;

    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        uf_array *a = make(UF_FLOAT64, 1, &ten, NULL);
        int64_t ds[2], ss[2];
        uf_array *dst, *src;
        uf_error err;

        for (int i = 0; i < rows[r].ndim; i++) {
            ds[i] = rows[r].dst_strides[i] * 8;
            ss[i] = rows[r].src_strides[i] * 8;
        }
        dst = view(a, UF_FLOAT64, rows[r].dst_off * 8, rows[r].ndim,
                   rows[r].shape, ds, true);
        src = view(a, UF_FLOAT64, rows[r].src_off * 8, rows[r].ndim,
                   rows[r].shape, ss, true);
        if (uf_array_copyto(dst, src, UF_CASTING_NO, &err) != 0)
            uf_fail_at(rows[r].file, rows[r].line, "%s", err.message);
        check_values(rows[r].file, rows[r].line, a, rows[r].want, 10);
        uf_array_release(src);
        uf_array_release(dst);
        uf_array_release(a);
    }
}

/* Memory shared by a single byte still counts: a[4:9] = a[0:5] with a
 * cast (a plain same-type copy could hide the overlap in a memmove). */
static void test_copyto_overlap_one_byte(void **state)
{
    (void)state;
    int64_t ten = 10, five = 5;
    uf_array *a = make(UF_INT8, 1, &ten, NULL);
    uf_array *dst = view(a, UF_UINT8, 4, 1, &five, NULL, true);
    uf_array *src = view(a, UF_INT8, 0, 1, &five, NULL, true);
    uf_error err;

    uf_assert_ok(uf_array_copyto(dst, src, UF_CASTING_UNSAFE, &err) == 0,
                 &err);
    check_values(LOC, a, (double[]){0, 1, 2, 3, 0, 1, 2, 3, 4, 9}, 10);
    uf_array_release(src);
    uf_array_release(dst);
    uf_array_release(a);
}

/* Overlap with a cast: an int64 destination over bytes an int32 source
 * reads. The result is the source's old values, widened. */
static void test_copyto_overlap_cast(void **state)
{
    (void)state;
    int64_t n = 8, four = 4;
    uf_array *a = make(UF_INT32, 1, &n, (double[]){10, 11, 12, 13, 14, 15,
                                                    16, 17});
    uf_array *dst = view(a, UF_INT64, 0, 1, &four, NULL, true);
    uf_array *src = view(a, UF_INT32, 8, 1, &four, NULL, true);
    uf_error err;

    uf_assert_ok(uf_array_copyto(dst, src, UF_CASTING_SAFE, &err) == 0,
                 &err);
    check_values(LOC, dst, (double[]){12, 13, 14, 15}, 4);
    uf_array_release(src);
    uf_array_release(dst);
    uf_array_release(a);
}

/* The temporary of an overlapping copy: every failing allocation gives a
 * clean UF_ERR_NOMEM, leaks nothing and leaves dst untouched. */
static void test_copyto_out_of_memory(void **state)
{
    (void)state;
    int64_t ten = 10, nine = 9;
    bool done = false;

    for (long k = 1; k < 50 && !done; k++) {
        uf_array *a = make(UF_FLOAT64, 1, &ten, NULL);
        uf_array *dst = view(a, UF_FLOAT64, 8, 1, &nine, NULL, true);
        uf_array *src = view(a, UF_FLOAT64, 0, 1, &nine, NULL, true);
        long live = uf__alloc_live();
        uf_error err;
        int rc;

        uf__alloc_fail_at(k);
        rc = uf_array_copyto(dst, src, UF_CASTING_NO, &err);
        done = !uf__alloc_failed();
        uf__alloc_fail_at(0);
        assert_int_equal(uf__alloc_live(), live);
        if (done) {
            assert_int_equal(rc, 0);
            check_values(LOC, a, (double[]){0, 0, 1, 2, 3, 4, 5, 6, 7, 8},
                         10);
        } else {
            assert_int_equal(rc, UF_ERR_NOMEM);
            assert_int_equal(err.code, UF_ERR_NOMEM);
            check_values(LOC, a, (double[]){0, 1, 2, 3, 4, 5, 6, 7, 8, 9},
                         10);
        }
        uf_array_release(src);
        uf_array_release(dst);
        uf_array_release(a);
    }
    assert_true(done);
}

/* ---- uf_array_fill */

static void test_fill(void **state)
{
    (void)state;
    int64_t shape[2] = {2, 3}, six = 6, three = 3;
    double v = 2.7;
    int64_t big = -5;
    double _Complex z = 3.0 + 4.0 * I;
    uf_error err;

    uf_array *a = make(UF_INT32, 2, shape, NULL);
    uf_assert_ok(uf_array_fill(a, &v, UF_FLOAT64, &err) == 0, &err);
    check_values(LOC, a, (double[]){2, 2, 2, 2, 2, 2}, 6);
    uf_array_release(a);

    a = make(UF_BOOL, 2, shape, NULL);
    v = 0.5;
    uf_assert_ok(uf_array_fill(a, &v, UF_FLOAT64, &err) == 0, &err);
    check_values(LOC, a, (double[]){1, 1, 1, 1, 1, 1}, 6);
    uf_array_release(a);

    a = make(UF_FLOAT32, 2, shape, NULL);
    uf_assert_ok(uf_array_fill(a, &z, UF_COMPLEX128, &err) == 0, &err);
    check_values(LOC, a, (double[]){3, 3, 3, 3, 3, 3}, 6);
    uf_array_release(a);

    /* only the elements of a strided view change: a[::2] = -5 */
    a = make(UF_INT16, 1, &six, NULL);
    uf_array *every_other = view(a, UF_INT16, 0, 1, &three,
                                 (int64_t[]){4}, true);
    uf_assert_ok(uf_array_fill(every_other, &big, UF_INT64, &err) == 0,
                 &err);
    check_values(LOC, a, (double[]){-5, 1, -5, 3, -5, 5}, 6);
    uf_array_release(every_other);

    /* reversed complex view */
    uf_array *c = make(UF_COMPLEX128, 1, &three, NULL);
    uf_array *rev = view(c, UF_COMPLEX128, 32, 1, &three, (int64_t[]){-16},
                         true);
    uf_assert_ok(uf_array_fill(rev, &z, UF_COMPLEX128, &err) == 0, &err);
    for (int i = 0; i < 3; i++)
        assert_true(((double _Complex *)uf_array_data(c))[i] == z);
    uf_array_release(rev);
    uf_array_release(c);

    /* read-only */
    uf_array *ro = view(a, UF_INT16, 0, 1, &six, NULL, false);
    assert_int_equal(uf_array_fill(ro, &big, UF_INT64, &err),
                     UF_ERR_READONLY);
    assert_string_equal(err.message, "assignment destination is read-only");
    check_values(LOC, a, (double[]){-5, 1, -5, 3, -5, 5}, 6);
    uf_array_release(ro);

    /* bad arguments */
    assert_int_equal(uf_array_fill(a, NULL, UF_INT64, &err), UF_ERR_INVALID);
    assert_int_equal(uf_array_fill(a, &big, (uf_dtype)-3, &err),
                     UF_ERR_INVALID);
    assert_int_equal(uf_array_fill(NULL, &big, UF_INT64, NULL),
                     UF_ERR_INVALID);
    uf_array_release(a);

    /* 0-d and empty */
    a = make(UF_UINT8, 0, shape, (double[]){1});
    big = 257;
    uf_assert_ok(uf_array_fill(a, &big, UF_INT64, &err) == 0, &err);
    check_values(LOC, a, (double[]){1}, 1);
    uf_array_release(a);
    a = make(UF_FLOAT64, 2, (int64_t[]){0, 4}, NULL);
    uf_assert_ok(uf_array_fill(a, &big, UF_INT64, &err) == 0, &err);
    uf_array_release(a);
}

/* ---- NumPy's answers for random views */

static int parse_ints(const char *s, int64_t *out, int max)
{
    int n = 0;

    while (*s != '\0') {
        char *end;
        assert_true(n < max);
        out[n++] = strtoll(s, &end, 10);
        assert_true(end != s);
        s = *end == ',' ? end + 1 : end;
    }
    return n;
}

/* Splits `line` at '|' into at most `max` fields (empty ones kept). */
static int split(char *line, char **fields, int max)
{
    int n = 0;

    fields[n++] = line;
    for (char *p = line; *p != '\0'; p++) {
        if (*p == '|') {
            *p = '\0';
            assert_true(n < max);
            fields[n++] = p + 1;
        }
    }
    return n;
}

static uf_order order_from(const char *s)
{
    switch (s[0]) {
    case 'C':
        return UF_ORDER_C;
    case 'F':
        return UF_ORDER_F;
    case 'A':
        return UF_ORDER_A;
    default:
        return UF_ORDER_K;
    }
}

static void run_numpy_case(const char *file, int line, char **f)
{
    uf_dtype dt, out_dt;
    int64_t offset = strtoll(f[1], NULL, 10), shape[8], strides[8];
    int64_t want_strides[8], lo = 0, hi, size = 1;
    int ndim = parse_ints(f[2], shape, 8);
    int flags = 0;
    uf_error err;
    size_t itemsize;
    char *buf;

    assert_int_equal(parse_ints(f[3], strides, 8), ndim);
    assert_int_equal(parse_ints(f[6], want_strides, 8), ndim);
    if (uf_dtype_from_name(f[0], &dt, &err) < 0 ||
        uf_dtype_from_name(f[5], &out_dt, &err) < 0)
        uf_fail_at(file, line, "%s", err.message);
    itemsize = uf_dtype_itemsize(dt);

    /* The flat buffer the view looks into: element m holds m % 100. */
    hi = (int64_t)itemsize;
    for (int i = 0; i < ndim; i++) {
        int64_t span = (shape[i] - 1) * strides[i];
        size *= shape[i];
        if (shape[i] > 0 && span < 0)
            lo += span;
        else if (shape[i] > 0)
            hi += span;
    }
    hi += offset;
    assert_true(offset >= 0 && (size == 0 || offset + lo >= 0));
    buf = calloc((size_t)(hi > offset ? hi : offset) + itemsize, 1);
    assert_non_null(buf);
    for (int64_t m = 0; m * (int64_t)itemsize < hi; m++)
        store(dt, buf + m * (int64_t)itemsize, (double)(m % 100));

    uf_array *v = uf_array_wrap(dt, ndim, shape, strides, buf + offset,
                                true, NULL, NULL, &err);
    if (v == NULL)
        uf_fail_at(file, line, "wrap: %s", err.message);
    uf_array *r = dt == out_dt
                      ? uf_array_copy(v, order_from(f[4]), &err)
                      : uf_array_astype(v, out_dt, UF_CASTING_UNSAFE,
                                        order_from(f[4]), &err);
    if (r == NULL)
        uf_fail_at(file, line, "%s", err.message);
    assert_int_equal(uf_array_dtype(r), out_dt);
    assert_int_equal(uf_array_ndim(r), ndim);
    for (int i = 0; i < ndim; i++) {
        if (uf_array_shape(r)[i] != shape[i])
            uf_fail_at(file, line, "shape %d", i);
        /* NumPy 2's empty arrays have all-zero strides: not meaningful */
        if (size > 0 && uf_array_strides(r)[i] != want_strides[i])
            uf_fail_at(file, line, "stride %d is %lld, want %lld", i,
                       (long long)uf_array_strides(r)[i],
                       (long long)want_strides[i]);
    }
    if (strchr(f[7], 'C'))
        flags |= UF_ARRAY_C_CONTIGUOUS;
    if (strchr(f[7], 'F'))
        flags |= UF_ARRAY_F_CONTIGUOUS;
    if ((uf_array_flags(r) &
         (UF_ARRAY_C_CONTIGUOUS | UF_ARRAY_F_CONTIGUOUS)) != flags)
        uf_fail_at(file, line, "flags %#x", uf_array_flags(r));

    {
        const char *s = f[8];
        for (int64_t i = 0; i < size; i++) {
            char *end;
            double w = strtod(s, &end);
            if (end == s)
                uf_fail_at(file, line, "missing value %lld", (long long)i);
            if (at(r, i) != w)
                uf_fail_at(file, line, "element %lld is %g, want %g",
                           (long long)i, at(r, i), w);
            s = end;
        }
    }
    uf_array_release(r);
    uf_array_release(v);
    free(buf);
}

static void test_numpy_cases(void **state)
{
    (void)state;
    FILE *f = fopen(data_path, "r");
    static char line[1 << 16];
    int lineno = 0, ncases = 0;

    if (f == NULL)
        fail_msg("cannot open %s", data_path);
    while (fgets(line, sizeof line, f) != NULL) {
        char *fields[9];

        lineno++;
        line[strcspn(line, "\n")] = '\0';
        if (line[0] == '#' || line[0] == '\0')
            continue;
        if (split(line, fields, 9) != 9)
            uf_fail_at(data_path, lineno, "malformed line");
        run_numpy_case(data_path, lineno, fields);
        ncases++;
    }
    fclose(f);
    if (ncases < 100)
        fail_msg("%s: only %d cases", data_path, ncases);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_copy_memory_order),
        cmocka_unit_test(test_copy_0d_and_empty),
        cmocka_unit_test(test_astype_casting),
        cmocka_unit_test(test_copy_bad_arguments),
        cmocka_unit_test(test_copyto_broadcast),
        cmocka_unit_test(test_copyto_errors),
        cmocka_unit_test(test_copyto_self),
        cmocka_unit_test(test_copyto_overlap),
        cmocka_unit_test(test_copyto_overlap_one_byte),
        cmocka_unit_test(test_copyto_overlap_cast),
        cmocka_unit_test(test_copyto_out_of_memory),
        cmocka_unit_test(test_fill),
        cmocka_unit_test(test_numpy_cases),
    };
    if (argc > 1)
        data_path = argv[1];
    return cmocka_run_group_tests(tests, NULL, NULL);
}
