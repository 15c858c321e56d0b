/* The ufunc call path when things go wrong: loop failures, argument
 * errors, the first-match rule and compile hook seen through whole calls,
 * and out-of-memory paths. */
#include "ufunc_call_test_util.h"

/* ---- errors, dispatch through calls, out of memory --------------------- */

static void test_loop_errors(void **state)
{
    (void)state;
    uf__ufunc *u = new_ufunc("checked", 1, 1);
    int64_t n = 6000;
    long live;
    uf_error err;

    add_loop(u, UF_FLOAT64, checked_f8, NULL);
    static const struct {
        const char *file;
        int line;
        uf_dtype dt; /* int16 goes through the buffers */
        double bad;
        int code;
        const char *msg;
    } rows[] = {
        {LOC, UF_FLOAT64, -1.5, UF_ERR_VALUE,
         "ufunc 'checked': negative input -1.5"},
        {LOC, UF_FLOAT64, NAN, UF_ERR_VALUE,
         "ufunc 'checked': the inner loop failed (status 7)"},
        {LOC, UF_INT16, -3, UF_ERR_VALUE,
         "ufunc 'checked': negative input -3"},
        {LOC, UF_FLOAT32, NAN, UF_ERR_VALUE,
         "ufunc 'checked': the inner loop failed (status 7)"},
    };
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        uf_array *x = new_array(rows[r].dt, 1, &n, UF_ORDER_C);
        uf_array *in[1] = {x}, *out[1] = {NULL};

        for (int64_t k = 0; k < n; k++)
            set_f8(x, k, k == 5000 ? rows[r].bad : 1.0);
        live = uf__alloc_live();
        int rc = call(u, in, out, NULL, &err);
        if (rc != rows[r].code || strcmp(err.message, rows[r].msg) != 0)
            uf_fail_at(rows[r].file, rows[r].line, "got %s: %s",
                       uf_err_name(rc), err.message);
        /* the allocated output is gone and not handed back */
        if (out[0] != NULL || uf__alloc_live() != live)
            uf_fail_at(rows[r].file, rows[r].line, "leaked the output");
        uf_array_release(x);
    }
    uf__ufunc_free(u);
}

static void test_argument_errors(void **state)
{
    (void)state;
    uf__ufunc *u = new_ufunc("add", 2, 1);
    int64_t n = 3;
    uf_array *a = filled(UF_FLOAT64, 1, &n, UF_ORDER_C, 1);
    uf_array *in[2] = {a, a}, *bad_in[2] = {a, NULL}, *out[1] = {NULL};
    uf_call_options opts = {.size = sizeof opts};
    uf_error err;

    add_loop(u, UF_FLOAT64, add_f8, NULL);
    assert_int_equal(uf__ufunc_call(u, in, 1, out, 1, NULL, &err),
                     UF_ERR_INVALID);
    assert_string_equal(err.message, "ufunc 'add' takes 2 inputs and 1 "
                                     "output (got 1 and 1)");
    assert_int_equal(uf__ufunc_call(u, in, 2, out, 2, NULL, &err),
                     UF_ERR_INVALID);
    assert_int_equal(uf__ufunc_call(u, NULL, 2, out, 1, NULL, &err),
                     UF_ERR_INVALID);
    assert_int_equal(uf__ufunc_call(u, in, 2, NULL, 1, NULL, &err),
                     UF_ERR_INVALID);
    assert_int_equal(uf__ufunc_call(u, bad_in, 2, out, 1, NULL, &err),
                     UF_ERR_INVALID);
    assert_string_equal(err.message, "ufunc 'add': input 1 is NULL");
    assert_int_equal(uf__ufunc_call(NULL, in, 2, out, 1, NULL, &err),
                     UF_ERR_INVALID);
    opts.size = 0;
    assert_int_equal(call(u, in, out, &opts, &err), UF_ERR_INVALID);
    opts.size = sizeof opts;
    opts.casting_set = true;
    opts.casting = (uf_casting)9;
    assert_int_equal(call(u, in, out, &opts, &err), UF_ERR_INVALID);
    /* a NULL err is allowed */
    assert_int_equal(call(u, bad_in, out, NULL, NULL), UF_ERR_INVALID);
    assert_null(out[0]);
    uf_array_release(a);
    uf__ufunc_free(u);
}

/* The first-match rule and the compile hook seen through whole calls. */
static int hook_calls;
static int hook(void *cctx, const uf_dtype *in, uf__ufunc_loop *out,
                uf_error *err)
{
    (void)cctx;
    hook_calls++;
    for (int i = 0; i < 3; i++)
        out->types[i] = UF_INT32;
    out->fn = add_i4;
    if (in[0] != UF_INT32 && in[0] != UF_INT16)
        return uf__error_set(err, UF_ERR_TYPING, "no int32 loop for %s",
                             uf_dtype_name(in[0]));
    return 0;
}

static void test_dispatch_in_calls(void **state)
{
    (void)state;
    int64_t n = 4;
    uf_error err;
    uf__ufunc *u = uf__ufunc_new("f", 2, 1, hook, NULL, &err);
    uf_array *i16 = filled(UF_INT16, 1, &n, UF_ORDER_C, 1);
    uf_array *i32 = filled(UF_INT32, 1, &n, UF_ORDER_C, 2);
    uf_array *f4 = filled(UF_FLOAT32, 1, &n, UF_ORDER_C, 3);
    uf_array *out[1] = {NULL};

    add_loop(u, UF_FLOAT32, add_f4, NULL);
    static const struct {
        const char *file;
        int line;
        int a, b; /* 0 int16, 1 int32, 2 float32 */
        uf_dtype result;
        int compiles;
    } rows[] = {
        {LOC, 0, 0, UF_FLOAT32, 0}, /* int16 fits float32 */
        {LOC, 2, 0, UF_FLOAT32, 0},
        {LOC, 1, 1, UF_INT32, 1},   /* int32 does not: compiled */
        {LOC, 1, 1, UF_INT32, 1},   /* and kept */
        {LOC, 1, 0, UF_INT32, 1},   /* int16 casts to the new int32 loop */
        {LOC, 0, 0, UF_FLOAT32, 1}, /* the declared loop still comes first */
    };
    uf_array *arr[3] = {i16, i32, f4};
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        uf_array *in[2] = {arr[rows[r].a], arr[rows[r].b]};

        out[0] = NULL;
        if (call(u, in, out, NULL, &err) != 0)
            uf_fail_at(rows[r].file, rows[r].line, "%s", err.message);
        if (uf_array_dtype(out[0]) != rows[r].result ||
            hook_calls != rows[r].compiles)
            uf_fail_at(rows[r].file, rows[r].line, "%s after %d compiles",
                       uf_dtype_name(uf_array_dtype(out[0])), hook_calls);
        for (int64_t k = 0; k < n; k++)
            if (get_f8(out[0], k) != get_f8(in[0], k) + get_f8(in[1], k))
                uf_fail_at(rows[r].file, rows[r].line, "element %lld",
                           (long long)k);
        uf_array_release(out[0]);
    }
    /* the hook's error is the call's */
    uf_array *in[2] = {f4, i32};
    out[0] = NULL;
    assert_int_equal(call(u, in, out, NULL, &err), UF_ERR_TYPING);
    assert_null(out[0]);
    uf_array_release(i16);
    uf_array_release(i32);
    uf_array_release(f4);
    uf__ufunc_free(u);
}

/* Every allocation of a call with an overlap copy, cast buffers, a mask
 * and an allocated output fails in turn: UF_ERR_NOMEM, nothing leaked,
 * outputs untouched. */
static void test_out_of_memory(void **state)
{
    (void)state;
    int64_t n = 5000, shape[2] = {50, 100};
    uf__ufunc *u = new_ufunc("divmod", 2, 2);
    uf_array *base = filled(UF_INT16, 1, &n, UF_ORDER_C, 1);
    uf_array *b = filled(UF_FLOAT64, 2, shape, UF_ORDER_F, 2);
    uf_array *m = new_array(UF_BOOL, 1, &shape[1], UF_ORDER_C);
    uf_array *a2 = NULL, *o1 = NULL;
    uf_call_options opts = {.size = sizeof opts, .where = m,
                            .casting = UF_CASTING_UNSAFE,
                            .casting_set = true};
    long live;
    int k;

    add_loop(u, UF_FLOAT64, divmod_f8, NULL);
    for (int64_t i = 0; i < shape[1]; i++)
        ((bool *)uf_array_data(m))[i] = i % 3 != 0;
    {
        uf_error err;
        uf_array *v = uf_array_reshape(base, 2, shape, UF_ORDER_C, false,
                                       &err);
        uf_assert_ok(v != NULL, &err);
        a2 = v;
        /* out1 overlaps input 0 reversed: input 0 must be copied */
        o1 = uf_array_slice(a2, "::-1", &err);
        uf_assert_ok(o1 != NULL, &err);
    }
    live = uf__alloc_live();
    for (k = 1; k < 100; k++) {
        uf_array *in[2] = {a2, b}, *out[2] = {NULL, o1};
        uf_error err;

        uf__alloc_fail_at(k);
        int rc = call(u, in, out, &opts, &err);
        bool failed = uf__alloc_failed();
        uf__alloc_fail_at(0);
        if (!failed) {
            uf_assert_ok(rc == 0, &err);
            uf_array_release(out[0]);
            break;
        }
        if (rc != UF_ERR_NOMEM || out[0] != NULL || out[1] != o1)
            fail_msg("allocation %d: %s: %s", k, uf_err_name(rc),
                     err.message);
        assert_int_equal(uf__alloc_live(), live);
    }
    assert_true(k >= 4 && k < 100);
    assert_int_equal(uf__alloc_live(), live);
    uf_array_release(o1);
    uf_array_release(a2);
    uf_array_release(base);
    uf_array_release(b);
    uf_array_release(m);
    uf__ufunc_free(u);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_loop_errors),
        cmocka_unit_test(test_argument_errors),
        cmocka_unit_test(test_dispatch_in_calls),
        cmocka_unit_test(test_out_of_memory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
