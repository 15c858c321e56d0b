/* Views beyond the oracle: lifetime (a view outlives its released base),
 * writeable propagation, argument errors, slices at the int64 limits and
 * out-of-memory paths. */
#include "views_test_util.h"

/* ---- lifetime, writeable, errors, out of memory ------------------------ */

static int released;
static void count_release(void *ctx, void *data)
{
    (void)data;
    (*(int *)ctx)++;
}

static void test_view_outlives_base(void **state)
{
    (void)state;
    uf_error err;
    int64_t shape[2] = {4, 5};
    uf_array *a = arange_array(UF_INT32, 2, shape, UF_ORDER_C, &err);
    uf_assert_ok(a != NULL, &err);
    uf_array *v = uf_array_slice(a, "::-1, 1::2", &err);
    uf_assert_ok(v != NULL, &err);
    uf_array *w = uf_array_transpose(v, NULL, &err);
    uf_assert_ok(w != NULL, &err);
    uf_array_release(a);
    uf_array_release(v);
    /* w alone keeps the memory: reading and writing it is fine (ASan
     * would see a use after free otherwise) */
    assert_non_null(uf_array_base(w));
    int64_t idx[2] = {1, 3};
    assert_int_equal(read_int(elem_ptr(w, idx), UF_INT32), 3);  /* a[0, 3] */
    write_int(elem_ptr(w, idx), UF_INT32, -7);
    const char *b0 = uf_array_data(uf_array_base(w));
    assert_int_equal(read_int(b0 + 3 * 4, UF_INT32), -7); /* a[0, 3] */
    uf_array_release(w);

    /* external memory: released once, after the last view */
    static int32_t buf[6] = {0, 1, 2, 3, 4, 5};
    released = 0;
    uf_array *x = uf_array_wrap(UF_INT32, 1, (int64_t[]){6}, NULL, buf, true,
                                count_release, &released, &err);
    uf_assert_ok(x != NULL, &err);
    uf_array *b = uf_array_broadcast_to(x, 2, (int64_t[]){3, 6}, &err);
    uf_assert_ok(b != NULL, &err);
    uf_array *e = uf_array_expand_dims(b, 0, &err);
    uf_assert_ok(e != NULL, &err);
    uf_array_release(x);
    uf_array_release(b);
    assert_int_equal(released, 0);
    assert_int_equal(read_int(elem_ptr(e, (int64_t[]){0, 2, 4}), UF_INT32),
                     4);
    uf_array_release(e);
    assert_int_equal(released, 1);
}

static void test_writeable_propagation(void **state)
{
    (void)state;
    uf_error err;
    int64_t shape[2] = {3, 4};
    uf_array *a = arange_array(UF_FLOAT64, 2, shape, UF_ORDER_C, &err);
    uf_assert_ok(a != NULL, &err);

    uf_array *v = uf_array_slice(a, "1:, ::-2", &err);
    uf_assert_ok(v != NULL, &err);
    assert_true(uf_array_flags(v) & UF_ARRAY_WRITEABLE);
    assert_false(uf_array_flags(v) & UF_ARRAY_OWNDATA);

    /* broadcast_to is read-only, and stays so (elements overlap) */
    uf_array *b = uf_array_broadcast_to(v, 3, (int64_t[]){2, 2, 2}, &err);
    uf_assert_ok(b != NULL, &err);
    assert_false(uf_array_flags(b) & UF_ARRAY_WRITEABLE);
    assert_int_equal(uf_array_set_writeable(b, true, &err), UF_ERR_READONLY);
    uf_array *bt = uf_array_transpose(b, NULL, &err);
    uf_assert_ok(bt != NULL, &err);
    assert_false(uf_array_flags(bt) & UF_ARRAY_WRITEABLE);

    /* making the base read-only leaves existing views alone, as NumPy,
     * but new views inherit it */
    assert_int_equal(uf_array_set_writeable(a, false, &err), 0);
    assert_true(uf_array_flags(v) & UF_ARRAY_WRITEABLE);
    uf_array *v2 = uf_array_slice(a, "0", &err);
    uf_assert_ok(v2 != NULL, &err);
    assert_false(uf_array_flags(v2) & UF_ARRAY_WRITEABLE);
    uf_array *v3 = uf_array_squeeze(v2, NULL, 0, &err);
    uf_assert_ok(v3 != NULL, &err);
    assert_false(uf_array_flags(v3) & UF_ARRAY_WRITEABLE);
    assert_int_equal(uf_array_set_writeable(v3, true, &err), UF_ERR_READONLY);

    /* read-only wrapped memory */
    static const double ro[4] = {1, 2, 3, 4};
    uf_array *w = uf_array_wrap(UF_FLOAT64, 1, (int64_t[]){4}, NULL,
                                (void *)ro, false, NULL, NULL, &err);
    uf_assert_ok(w != NULL, &err);
    uf_array *wv = uf_array_slice(w, "None, ::3", &err);
    uf_assert_ok(wv != NULL, &err);
    assert_false(uf_array_flags(wv) & UF_ARRAY_WRITEABLE);

    uf_array *all[] = {v, b, bt, v2, v3, wv, w, a};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        uf_array_release(all[i]);
}

/* Error cases NumPy's oracle cannot produce: C-level misuse and limits. */
static void test_errors(void **state)
{
    (void)state;
    uf_error err;
    int64_t shape[3] = {2, 3, 1};
    uf_array *a = arange_array(UF_INT16, 3, shape, UF_ORDER_C, &err);
    uf_assert_ok(a != NULL, &err);
    long live = uf__alloc_live();

    static const struct {
        const char *file;
        int line;
        int which;
        int code;
        const char *message; /* a prefix */
    } rows[] = {
        {LOC, 0, UF_ERR_INVALID, "uf_array_index: array is NULL"},
        {LOC, 1, UF_ERR_INVALID, "uf_array_index"},
        {LOC, 2, UF_ERR_INVALID, "index entry 1 has an invalid kind 9"},
        {LOC, 3, UF_ERR_INDEX, "number of dimensions must be within [0, 64],"
                               " indexing result would have 65"},
        {LOC, 4, UF_ERR_SYNTAX, "invalid index \"1:2:3:4\": expected ',' or "
                                "end of expression at position 5"},
        {LOC, 5, UF_ERR_INVALID, "uf_array_slice: array is NULL"},
        {LOC, 6, UF_ERR_INVALID, "uf_index_parse"},
        {LOC, 7, UF_ERR_INDEX, "axis 3 is out of bounds for array of "
                               "dimension 3"},
        {LOC, 8, UF_ERR_INVALID, "uf_array_squeeze"},
        {LOC, 9, UF_ERR_INVALID, "uf_array_squeeze"},
        {LOC, 10, UF_ERR_VALUE, "maximum supported dimension for an ndarray "
                                "is currently 64, found 65"},
        {LOC, 11, UF_ERR_INDEX, "axis 66 is out of bounds for array of "
                                "dimension 65"},
        {LOC, 12, UF_ERR_VALUE, "maximum supported dimension for an ndarray "
                                "is currently 64, found 65"},
        {LOC, 13, UF_ERR_INVALID, "uf_array_broadcast_to"},
        {LOC, 14, UF_ERR_OVERFLOW, "array is too big"},
        {LOC, 15, UF_ERR_INVALID, "uf_array_transpose: array is NULL"},
        {LOC, 16, UF_ERR_VALUE, "slice step cannot be zero"},
        {LOC, 17, UF_ERR_INDEX, "index -9223372036854775808 is out of "
                                "bounds for axis 0 with size 2"},
        {LOC, 18, UF_ERR_INVALID, "uf_array_expand_dims"},
    };
    int64_t ones[UF_MAXDIMS + 1];
    for (int i = 0; i <= UF_MAXDIMS; i++)
        ones[i] = 1;
    uf_array *deep = uf_empty(UF_INT8, UF_MAXDIMS, ones, UF_ORDER_C, &err);
    uf_assert_ok(deep != NULL, &err);
    live = uf__alloc_live();
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        uf_array *out = NULL;
        uf_index idx[70];
        memset(idx, 0, sizeof idx);
        uf_error_clear(&err);
        switch (rows[r].which) {
        case 0: out = uf_array_index(NULL, idx, 0, &err); break;
        case 1: out = uf_array_index(a, NULL, 1, &err); break;
        case 2:
            idx[1].kind = (uf_index_kind)9;
            out = uf_array_index(a, idx, 2, &err);
            break;
        case 3:
            /* 3 axes + 61 new ones is the limit; one more is too many */
            for (int i = 0; i < 62; i++)
                idx[i].kind = UF_INDEX_NEWAXIS;
            out = uf_array_index(a, idx, 61, &err);
            uf_assert_ok(out != NULL, &err);
            assert_int_equal(uf_array_ndim(out), UF_MAXDIMS);
            uf_array_release(out);
            out = uf_array_index(a, idx, 62, &err);
            break;
        case 4: out = uf_array_slice(a, "1:2:3:4", &err); break;
        case 5: out = uf_array_slice(NULL, "0", &err); break;
        case 6: out = uf_array_slice(a, NULL, &err); break;
        case 7: out = uf_array_squeeze(a, (int[]){3}, 1, &err); break;
        case 8: out = uf_array_squeeze(a, NULL, 1, &err); break;
        case 9: out = uf_array_squeeze(a, (int[]){0}, -1, &err); break;
        case 10: out = uf_array_expand_dims(deep, 0, &err); break;
        case 11: out = uf_array_expand_dims(deep, 66, &err); break;
        case 12:
            out = uf_array_broadcast_to(a, UF_MAXDIMS + 1, ones, &err);
            break;
        case 13: out = uf_array_broadcast_to(a, 2, NULL, &err); break;
        case 14:
            out = uf_array_broadcast_to(
                a, 5, (int64_t[]){INT64_C(1) << 40, INT64_C(1) << 40, 2, 3, 1},
                &err);
            break;
        case 15: out = uf_array_transpose(NULL, NULL, &err); break;
        case 16:
            idx[0] = (uf_index){.kind = UF_INDEX_SLICE, .has_step = true};
            out = uf_array_index(a, idx, 1, &err);
            break;
        case 17:
            idx[0] = (uf_index){.kind = UF_INDEX_INTEGER, .has_start = true,
                                .start = INT64_MIN};
            out = uf_array_index(a, idx, 1, &err);
            break;
        case 18: out = uf_array_expand_dims(NULL, 0, &err); break;
        }
        if (out != NULL)
            uf_fail_at(rows[r].file, rows[r].line, "succeeded");
        if (err.code != rows[r].code ||
            strncmp(err.message, rows[r].message, strlen(rows[r].message)))
            uf_fail_at(rows[r].file, rows[r].line, "%s: %s", 
                       uf_err_name(err.code), err.message);
        if (uf__alloc_live() != live)
            uf_fail_at(rows[r].file, rows[r].line, "leaked");
    }
    uf_array_release(deep);
    uf_array_release(a);
}

/* Slices at the int64 limits: clamping must not overflow. */
static void test_extreme_slices(void **state)
{
    (void)state;
    static const struct {
        const char *file;
        int line;
        const char *expr;
        int64_t len;
        int64_t first; /* element index of the first selected, if len */
        int64_t stride_items;
    } rows[] = {
        {LOC, "-9223372036854775808:9223372036854775807", 5, 0, 1},
        {LOC, "9223372036854775807:-9223372036854775808:-1", 5, 4, -1},
        {LOC, "::9223372036854775807", 1, 0, 0},
        {LOC, "::-9223372036854775808", 1, 4, 0},
        {LOC, "::-9223372036854775807", 1, 4, 0},
        {LOC, "-9223372036854775808::-1", 0, 0, 1},
        {LOC, "3:-9223372036854775808:-2", 2, 3, -2},
        {LOC, "None:None:None", 5, 0, 1},
        {LOC, "-100:100:2", 3, 0, 2},
        {LOC, "100:-100:-2", 3, 4, -2},
    };
    uf_error err;
    uf_array *a = arange_array(UF_INT64, 1, (int64_t[]){5}, UF_ORDER_C, &err);
    uf_assert_ok(a != NULL, &err);
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        uf_array *v = uf_array_slice(a, rows[r].expr, &err);
        if (v == NULL)
            uf_fail_at(rows[r].file, rows[r].line, "%s", err.message);
        if (uf_array_shape(v)[0] != rows[r].len)
            uf_fail_at(rows[r].file, rows[r].line, "length %" PRId64,
                       uf_array_shape(v)[0]);
        if (rows[r].len > 0 &&
            read_int(uf_array_data(v), UF_INT64) != rows[r].first)
            uf_fail_at(rows[r].file, rows[r].line, "wrong first element");
        if (rows[r].len > 1 &&
            uf_array_strides(v)[0] != 8 * rows[r].stride_items)
            uf_fail_at(rows[r].file, rows[r].line, "stride %" PRId64,
                       uf_array_strides(v)[0]);
        uf_array_release(v);
    }
    uf_array_release(a);
}

typedef uf_array *(*view_op)(uf_array *a, uf_error *err);

static uf_array *op_index(uf_array *a, uf_error *err)
{
    return uf_array_slice(a, "::-1, None, ..., 1", err);
}
static uf_array *op_transpose(uf_array *a, uf_error *err)
{
    return uf_array_transpose(a, (int[]){1, -1, 0}, err);
}
static uf_array *op_broadcast(uf_array *a, uf_error *err)
{
    return uf_array_broadcast_to(a, 4, (int64_t[]){2, 3, 4, 2}, err);
}
static uf_array *op_squeeze(uf_array *a, uf_error *err)
{
    uf_array *t = uf_array_expand_dims(a, 1, err);
    if (t == NULL)
        return NULL;
    uf_array *s = uf_array_squeeze(t, (int[]){-3}, 1, err);
    uf_array_release(t);
    return s;
}

static void test_out_of_memory(void **state)
{
    (void)state;
    static const struct {
        const char *name;
        view_op fn;
    } ops[] = {
        {"index", op_index},
        {"transpose", op_transpose},
        {"broadcast_to", op_broadcast},
        {"expand_dims + squeeze", op_squeeze},
    };
    uf_error err;
    uf_array *a = arange_array(UF_FLOAT32, 3, (int64_t[]){3, 4, 2},
                               UF_ORDER_C, &err);
    uf_assert_ok(a != NULL, &err);
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        long live = uf__alloc_live();
        for (long n = 1;; n++) {
            uf__alloc_fail_at(n);
            uf_array *r = ops[i].fn(a, &err);
            bool failed = uf__alloc_failed();
            uf__alloc_fail_at(0);
            if (r != NULL) {
                uf_array_release(r);
                if (failed)
                    fail_msg("%s: allocation %ld failed unnoticed",
                             ops[i].name, n);
                break;
            }
            if (err.code != UF_ERR_NOMEM)
                fail_msg("%s, allocation %ld failing: %s", ops[i].name, n,
                         err.message);
            if (uf__alloc_live() != live)
                fail_msg("%s, allocation %ld failing: leak", ops[i].name, n);
        }
    }
    uf_array_release(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_view_outlives_base),
        cmocka_unit_test(test_writeable_propagation),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_extreme_slices),
        cmocka_unit_test(test_out_of_memory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
