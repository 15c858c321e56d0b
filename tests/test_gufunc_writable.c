/* guvectorize(writable_args=...): inputs whose writes reach the caller's
 * array even when the call converts them (Numba's tests/npyufunc/
 * test_update_inplace.py, whose expectations NumPy's READWRITE operands
 * give), and the errors for bad indices, names, targets and read-only
 * arrays. */
#include "test_util.h"

static const char src[] =
    "from numba import guvectorize\n"
    "@guvectorize(['void(f8[:], f8[:])'], '(t),()', writable_args=(0,))\n"
    "def replace_2nd(x_t, y_1):\n"
    "    for t in range(0, x_t.shape[0], 2):\n"
    "        x_t[t] = y_1[0]\n"
    "@guvectorize(['void(f8[:], f8[:])'], '(t),()')\n"
    "def replace_plain(x_t, y_1):\n"
    "    for t in range(0, x_t.shape[0], 2):\n"
    "        x_t[t] = y_1[0]\n"
    "@guvectorize(['void(f8[:], f8[:], f8[:], f8[:])'], '(t),(t),(t),()',\n"
    "             writable_args=('x0_t', 'x1_t', 2), target='parallel')\n"
    "def update_3(x0_t, x1_t, x2_t, y_1):\n"
    "    for t in range(x0_t.shape[0]):\n"
    "        x0_t[t] = y_1[0]\n"
    "        x1_t[t] = 2 * y_1[0]\n"
    "        x2_t[t] = 3 * y_1[0]\n"
    "@guvectorize(['void(f8[:], f8[:])'], '(n)->(n)', writable_args=(0,))\n"
    "def swap_in_out(x, out):\n"
    "    for i in range(x.shape[0]):\n"
    "        out[i] = x[i]\n"
    "        x[i] = -1.0\n";

static uf_context *ctx;
static uf_module *mod;

static int setup(void **state)
{
    (void)state;
    uf_error err;
    ctx = uf_context_new(&err);
    mod = ctx ? uf_module_from_string(ctx, "writable.py", src, &err) : NULL;
    if (mod == NULL)
        fprintf(stderr, "setup: %s\n", err.message);
    return mod == NULL;
}

static int teardown(void **state)
{
    (void)state;
    uf_module_free(mod);
    uf_context_free(ctx);
    return 0;
}

static uf_func *get(const char *name)
{
    uf_error err;
    uf_func *f = uf_module_get(mod, name, &err);
    uf_assert_ok(f != NULL, &err);
    return f;
}

static uf_array *zeros(uf_dtype dt, int64_t n)
{
    uf_error err;
    uf_array *a = uf_zeros(dt, 1, &n, UF_ORDER_C, &err);
    uf_assert_ok(a != NULL, &err);
    return a;
}

static uf_array *scalar(double v)
{
    uf_error err;
    uf_array *a = uf_empty(UF_FLOAT64, 0, NULL, UF_ORDER_C, &err);
    uf_assert_ok(a != NULL, &err);
    *(double *)uf_array_data(a) = v;
    return a;
}

static double at(const uf_array *a, int64_t i)
{
    const char *p = (const char *)uf_array_data(a) +
                    i * uf_array_strides(a)[0];
    switch (uf_array_dtype(a)) {
    case UF_FLOAT32: return *(const float *)p;
    case UF_FLOAT64: return *(const double *)p;
    case UF_INT32: return *(const int32_t *)p;
    default: fail_msg("dtype %d", (int)uf_array_dtype(a)); return 0;
    }
}

/* Every second element set to 2: in place for float64, through a
 * converted copy written back for float32 and int32 (NumPy writes back
 * with an unsafe cast); without writable_args the copy's writes are lost,
 * as in Numba. */
static void test_replace_every_second(void **state)
{
    (void)state;
    static const uf_dtype dts[] = {UF_FLOAT64, UF_FLOAT32, UF_INT32};
    for (size_t k = 0; k < sizeof dts / sizeof *dts; k++) {
        for (int writable = 0; writable < 2; writable++) {
            uf_error err;
            uf_array *in[2] = {zeros(dts[k], 10), scalar(2.0)};
            uf_func *f = get(writable ? "replace_2nd" : "replace_plain");
            uf_assert_ok(uf_call(f, in, 2, NULL, 0, NULL, &err) == 0, &err);
            bool reaches = writable || dts[k] == UF_FLOAT64;
            for (int i = 0; i < 10; i++)
                assert_true(at(in[0], i) == (i % 2 == 0 && reaches ? 2 : 0));
            uf_array_release(in[0]);
            uf_array_release(in[1]);
        }
    }
}

/* Three writable inputs named by name and index, float32 (copies), on the
 * parallel target; a non-contiguous view as one of them. */
static void test_three_inputs(void **state)
{
    (void)state;
    uf_error err;
    uf_array *big = zeros(UF_FLOAT32, 20);
    uf_array *view = uf_array_slice(big, "1::2", &err);
    uf_assert_ok(view != NULL, &err);
    uf_array *in[4] = {zeros(UF_FLOAT32, 10), view, zeros(UF_FLOAT64, 10),
                       scalar(1.5)};
    uf_assert_ok(uf_call(get("update_3"), in, 4, NULL, 0, NULL, &err) == 0,
                 &err);
    for (int i = 0; i < 10; i++) {
        assert_true(at(in[0], i) == 1.5);
        assert_true(at(in[1], i) == 3.0);
        assert_true(at(in[2], i) == 4.5);
        assert_true(at(big, 2 * i) == 0.0);     /* untouched between */
        assert_true(at(big, 2 * i + 1) == 3.0); /* the view's writes */
    }
    for (int i = 0; i < 4; i++)
        uf_array_release(in[i]);
    uf_array_release(big);
}

/* A writable input is written in place even when it is also the output
 * (no overlap copy): x[i] = -1 after out[i] = x[i], element by element. */
static void test_writable_input_is_the_output(void **state)
{
    (void)state;
    uf_error err;
    uf_array *x = zeros(UF_FLOAT64, 4);
    for (int i = 0; i < 4; i++)
        ((double *)uf_array_data(x))[i] = i + 1;
    uf_array *out = x;
    uf_assert_ok(uf_call(get("swap_in_out"), &x, 1, &out, 1, NULL, &err) == 0,
                 &err);
    for (int i = 0; i < 4; i++)
        assert_true(at(x, i) == -1.0);
    uf_array_release(x);
}

static void test_read_only_input(void **state)
{
    (void)state;
    uf_error err;
    double data[4] = {0};
    int64_t n = 4, s = 8;
    uf_array *ro = uf_array_wrap(UF_FLOAT64, 1, &n, &s, data, false, NULL,
                                 NULL, &err);
    uf_assert_ok(ro != NULL, &err);
    uf_array *in[2] = {ro, scalar(2.0)};
    assert_int_not_equal(uf_call(get("replace_2nd"), in, 2, NULL, 0, NULL,
                                 &err), 0);
    assert_int_equal(err.code, UF_ERR_READONLY);
    assert_non_null(strstr(err.message, "input 0 is in writable_args"));
    assert_true(data[0] == 0.0);
    uf_array_release(ro);
    uf_array_release(in[1]);
}

/* Errors at the keyword's position, as Numba refuses them (ValueError for
 * indices, its RuntimeError for unknown names, TypeError on CUDA). */
static void test_errors(void **state)
{
    (void)state;
    static const struct {
        const char *deco; /* the decorator's extra arguments */
        int code;
        const char *msg;
        int line, col; /* 0: reported at the first call (layout needed) */
    } rows[] = {
        {"writable_args=('z_t',)", UF_ERR_VALUE, "has no argument 'z_t'", 2,
         65},
        {"writable_args=(-1,)", UF_ERR_VALUE, "index -1 is not an argument",
         2, 65},
        {"writable_args=(5,)", UF_ERR_VALUE, "index 5 is not an argument", 2,
         65},
        {"writable_args=(1,)", UF_ERR_VALUE, "only inputs can be made "
         "writable", 0, 0},
        {"writable_args=0", UF_ERR_UNSUPPORTED, "must be a tuple", 2, 64},
        {"writable_args=(1.5,)", UF_ERR_UNSUPPORTED, "indices (ints) or "
         "names", 2, 65},
        {"writable_args=(0,), target='cuda'", UF_ERR_TYPE,
         "not supported for target='cuda'", 2, 64},
    };
    for (size_t r = 0; r < sizeof rows / sizeof *rows; r++) {
        char text[512];
        snprintf(text, sizeof text,
                 "from numba import guvectorize\n"
                 "@guvectorize(['void(f8[:], f8[:])'], '(n)->(n)', %s)\n"
                 "def f(x_t, out):\n"
                 "    out[0] = x_t[0]\n", rows[r].deco);
        uf_error err;
        uf_module *m = uf_module_from_string(ctx, "bad.py", text, &err);
        if (m != NULL) {
            assert_int_equal(rows[r].line, 0);
            uf_func *f = uf_module_get(m, "f", &err);
            uf_assert_ok(f != NULL, &err);
            uf_array *x = zeros(UF_FLOAT64, 3), *out = NULL;
            assert_int_not_equal(uf_call(f, &x, 1, &out, 1, NULL, &err), 0);
            uf_array_release(x);
            uf_module_free(m);
        }
        if (err.code != rows[r].code || !strstr(err.message, rows[r].msg))
            fail_msg("row %zu: code %d, message: %s", r, err.code,
                     err.message);
        if (rows[r].line != 0 &&
            (err.line != rows[r].line || err.column != rows[r].col))
            fail_msg("row %zu: at %d:%d, expected %d:%d", r, err.line,
                     err.column, rows[r].line, rows[r].col);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_replace_every_second),
        cmocka_unit_test(test_three_inputs),
        cmocka_unit_test(test_writable_input_is_the_output),
        cmocka_unit_test(test_read_only_input),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
