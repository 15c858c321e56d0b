/* a.view(dtype), np.frombuffer and isinstance inside kernels
 * (compiler/types/infer_arrview.c, compiler/lower/lower_arrview.c)
 * through uf_call, for what the Numba oracle (run_arrview_oracle.py)
 * cannot see: the view's shape and strides for every itemsize pair over
 * C, reversed, strided and F arrays, its data pointer the argument's (no
 * copy), writes through it reaching the argument, views of kernel-local
 * arrays returned (their block freed once, with the last uf_array), views
 * made in loops leaving nothing behind, the run-time errors' codes and
 * Numba's words, and the refusals at file:line:col. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nrt_test_util.h"

static const char src[] =
    "from numba import njit\n"
    "import numpy as np\n"
    "@njit\n"
    "def v_u1(a):\n"
    "    return a.view(np.uint8)\n"
    "@njit\n"
    "def v_i2(a):\n"
    "    return a.view(np.int16)\n"
    "@njit\n"
    "def v_f4(a):\n"
    "    return a.view(np.float32)\n"
    "@njit\n"
    "def v_f8(a):\n"
    "    return a.view(np.float64)\n"
    "@njit\n"
    "def v_c16(a):\n"
    "    return a.view(np.complex128)\n"
    "@njit\n"
    "def zero_d(x, same):\n"
    "    a = np.asarray(x)\n"
    "    return a.view(np.int32)[()] if same else a.view(np.uint8)[()]\n"
    "@njit\n"
    "def write(a):\n"
    "    v = a.view(np.int16)\n"
    "    v[..., 0] = -1\n"
    "    return v.sum()\n"
    "@njit\n"
    "def local(n):\n"
    "    a = np.arange(n) * 1.0\n"
    "    return a.view(np.int32), np.frombuffer(a, np.uint8)\n"
    "@njit\n"
    "def loop(n):\n"
    "    s = 0\n"
    "    for i in range(n):\n"
    "        a = np.ones(i + 1)\n"
    "        b = np.frombuffer(a.view(np.uint8), np.int16)\n"
    "        s += b[-1]\n"
    "    return s\n"
    "@njit\n"
    "def fb(a, n, k):\n"
    "    return np.frombuffer(a, np.int64, n, k)\n"
    "@njit\n"
    "def inst(x):\n"
    "    if isinstance(x, (float, np.int32)):\n"
    "        return 1\n"
    "    elif not isinstance(x, int):\n"
    "        return x.size\n"
    "    return x\n";

static uf_context *ctx;
static uf_module *mod;

static int setup(void **state)
{
    (void)state;
    uf_error err;
    ctx = uf_context_new(&err);
    if (!ctx)
        return -1;
    mod = uf_module_from_string(ctx, "arrview_c.py", src, &err);
    if (!mod)
        fprintf(stderr, "%s\n", err.message);
    return mod ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    uf_module_free(mod);
    uf_context_free(ctx);
    return 0;
}

static int calln(const char *name, uf_array **x, int n, uf_array **out,
                 int nout, uf_error *err)
{
    uf_error e;
    uf_func *f = uf_module_get(mod, name, &e);
    uf_assert_ok(f != NULL, &e);
    for (int i = 0; i < nout; i++)
        out[i] = NULL;
    return uf_call(f, x, n, out, nout, NULL, err);
}

static uf_array *i64(int64_t v)
{
    uf_error err;
    uf_array *a = uf_empty(UF_INT64, 0, NULL, UF_ORDER_C, &err);
    uf_assert_ok(a != NULL, &err);
    *(int64_t *)uf_array_data(a) = v;
    return a;
}

/* A C array of dt, `rows` rows of 32 bytes, byte k of the block = k. */
static uf_array *bytes(uf_dtype dt, int64_t rows, uf_order order)
{
    uf_error err;
    int64_t shape[2] = {rows, 32 / (int64_t)uf_dtype_itemsize(dt)};
    uf_array *a = uf_empty(dt, 2, shape, order, &err);
    uf_assert_ok(a != NULL, &err);
    for (int64_t k = 0; k < rows * 32; k++)
        ((unsigned char *)uf_array_data(a))[k] = (unsigned char)k;
    return a;
}

static const struct {
    const char *fn;
    uf_dtype dt;
} kinds[] = {{"v_u1", UF_UINT8}, {"v_i2", UF_INT16}, {"v_f4", UF_FLOAT32},
             {"v_f8", UF_FLOAT64}, {"v_c16", UF_COMPLEX128}};

/* Every itemsize pair over a C array and a rows-reversed view: the last
 * axis rescaled, the rows' stride kept, the same data pointer, the same
 * bytes read through the result. */
static void test_every_pair(void **state)
{
    (void)state;
    uf_error err;
    for (size_t s = 0; s < 5; s++)
        for (size_t d = 0; d < 5; d++)
            for (int rev = 0; rev < 2; rev++) {
                uf_array *base = bytes(kinds[s].dt, 3, UF_ORDER_C);
                uf_array *a = rev ? uf_array_slice(base, "::-1, :", &err)
                                  : base;
                uf_assert_ok(a != NULL, &err);
                uf_array *r;
                uf_assert_ok(calln(kinds[d].fn, &a, 1, &r, 1, &err) == 0,
                             &err);
                int64_t isz = (int64_t)uf_dtype_itemsize(kinds[d].dt);
                assert_int_equal(uf_array_dtype(r), kinds[d].dt);
                assert_int_equal(uf_array_ndim(r), 2);
                assert_int_equal(uf_array_shape(r)[0], 3);
                assert_int_equal(uf_array_shape(r)[1], 32 / isz);
                assert_int_equal(uf_array_strides(r)[0], rev ? -32 : 32);
                assert_int_equal(uf_array_strides(r)[1], isz);
                assert_ptr_equal(uf_array_data(r), uf_array_data(a));
                /* row 0 of a reversed view is the block's row 2 */
                assert_int_equal(((unsigned char *)uf_array_data(r))[5],
                                 (rev ? 64 : 0) + 5);
                uf_array_release(r);
                if (rev)
                    uf_array_release(a);
                uf_array_release(base);
            }
}

/* An F array of one column: Numba rescales its first axis; a 1-D
 * strided array: the same itemsize keeps the stride, another raises. */
static void test_layouts(void **state)
{
    (void)state;
    uf_error err;
    int64_t shape[3] = {2, 3, 1};
    uf_array *f = uf_empty(UF_INT16, 3, shape, UF_ORDER_F, &err), *r;
    uf_assert_ok(f != NULL, &err);
    uf_assert_ok(calln("v_u1", &f, 1, &r, 1, &err) == 0, &err);
    assert_int_equal(uf_array_shape(r)[0], 4);
    assert_int_equal(uf_array_shape(r)[1], 3);
    assert_int_equal(uf_array_shape(r)[2], 1);
    assert_int_equal(uf_array_strides(r)[0], 1);
    assert_int_equal(uf_array_strides(r)[1], 4);
    uf_array_release(r);
    uf_array_release(f);
    uf_array *b = bytes(UF_FLOAT64, 2, UF_ORDER_C);
    uf_array *v = uf_array_slice(b, "1, ::-2", &err);
    uf_assert_ok(v != NULL, &err);
    uf_assert_ok(calln("v_f8", &v, 1, &r, 1, &err) == 0, &err);
    assert_int_equal(uf_array_shape(r)[0], 2);
    assert_int_equal(uf_array_strides(r)[0], -16);
    assert_ptr_equal(uf_array_data(r), uf_array_data(v));
    uf_array_release(r);
    uf_array_release(v);
    uf_array_release(b);
}

/* Numba's ValueErrors, each in its order: codes and words. */
static void test_errors(void **state)
{
    (void)state;
    uf_error err;
    uf_array *b = bytes(UF_FLOAT32, 3, UF_ORDER_C), *r;
    static const struct {
        const char *index, *fn, *msg;
    } cases[] = {
        {":, ::2", "v_u1", "the last axis must be contiguous"},
        {":, 1:4", "v_f8", "a divisor of the total size in bytes"},
        {"0:0, 1:4", "v_f8", "a divisor of the total size in bytes"},
        {":, 3:5:2", "v_u1", "new type not compatible with array"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        uf_array *v = uf_array_slice(b, cases[c].index, &err);
        uf_assert_ok(v != NULL, &err);
        int rc = calln(cases[c].fn, &v, 1, &r, 1, &err);
        if (rc != UF_ERR_VALUE || !strstr(err.message, "ValueError: ") ||
            !strstr(err.message, cases[c].msg))
            uf_fail_at(__FILE__, __LINE__, "case %zu gave %d (%s)", c, rc,
                       rc ? err.message : "");
        uf_array_release(v);
    }
    /* 0-d: the same itemsize only */
    uf_array *z[2] = {uf_empty(UF_FLOAT32, 0, NULL, UF_ORDER_C, &err),
                      uf_empty(UF_BOOL, 0, NULL, UF_ORDER_C, &err)};
    uf_assert_ok(z[0] != NULL && z[1] != NULL, &err);
    *(float *)uf_array_data(z[0]) = 1.0f;
    *(bool *)uf_array_data(z[1]) = false;
    int rc = calln("zero_d", z, 2, &r, 1, &err);
    if (rc != UF_ERR_VALUE ||
        !strstr(err.message, "ValueError: Changing the dtype of a 0d array "
                             "is only supported if the itemsize is "
                             "unchanged"))
        uf_fail_at(__FILE__, __LINE__, "0-d gave %d (%s)", rc,
                   rc ? err.message : "");
    *(bool *)uf_array_data(z[1]) = true;
    uf_assert_ok(calln("zero_d", z, 2, &r, 1, &err) == 0, &err);
    assert_int_equal(*(int32_t *)uf_array_data(r), 0x3f800000);
    uf_array_release(r);
    uf_array_release(z[0]);
    uf_array_release(z[1]);
    uf_array *v;
    /* empty: (0, 8) and (3, 0) */
    v = uf_array_slice(b, "1:1, :", &err);
    uf_assert_ok(v != NULL, &err);
    uf_assert_ok(calln("v_u1", &v, 1, &r, 1, &err) == 0, &err);
    assert_int_equal(uf_array_shape(r)[0], 0);
    assert_int_equal(uf_array_shape(r)[1], 32);
    uf_array_release(r);
    uf_array_release(v);
    v = uf_array_slice(b, ":, 0:0", &err);
    uf_assert_ok(v != NULL, &err);
    uf_assert_ok(calln("v_c16", &v, 1, &r, 1, &err) == 0, &err);
    assert_int_equal(uf_array_shape(r)[0], 3);
    assert_int_equal(uf_array_shape(r)[1], 0);
    uf_array_release(r);
    uf_array_release(v);
    uf_array_release(b);
}

/* Writes through the view reach the argument, a strided one too. */
static void test_write_through(void **state)
{
    (void)state;
    uf_error err;
    uf_array *b = bytes(UF_FLOAT64, 4, UF_ORDER_C), *r;
    uf_array *v = uf_array_slice(b, "::-2, :", &err);
    uf_assert_ok(v != NULL, &err);
    uf_assert_ok(calln("write", &v, 1, &r, 1, &err) == 0, &err);
    const unsigned char *p = uf_array_data(b);
    for (int row = 0; row < 4; row++) {
        bool hit = row == 3 || row == 1;
        assert_int_equal(p[row * 32], hit ? 0xff : row * 32);
        assert_int_equal(p[row * 32 + 1], hit ? 0xff : row * 32 + 1);
        assert_int_equal(p[row * 32 + 2], row * 32 + 2);
    }
    uf_array_release(r);
    uf_array_release(v);
    uf_array_release(b);
}

/* Views of a kernel-local array returned: both point into its block,
 * which outlives the call and is freed once, with the last release. */
static void test_local_returned(void **state)
{
    (void)state;
    uf_error err;
    uf_array *n = i64(4), *out[2];
    uf_assert_ok(calln("local", &n, 1, out, 2, &err) == 0, &err);
    uf_array_release(out[0]);
    uf_array_release(out[1]);
    long nrt = uf__nrt_live(), live = uf__alloc_live();
    uf_assert_ok(calln("local", &n, 1, out, 2, &err) == 0, &err);
    assert_int_equal(uf_array_shape(out[0])[0], 8);
    assert_int_equal(uf_array_shape(out[1])[0], 32);
    assert_ptr_equal(uf_array_data(out[0]), uf_array_data(out[1]));
    /* 3.0 is 0x4008000000000000: its high int32 word, little-endian */
    assert_int_equal(((int32_t *)uf_array_data(out[0]))[7], 0x40080000);
    assert_true(uf__nrt_live() > nrt);
    uf_array_release(out[0]);
    assert_int_equal(((unsigned char *)uf_array_data(out[1]))[31], 0x40);
    uf_array_release(out[1]);
    assert_int_equal(uf__nrt_live(), nrt);
    assert_int_equal(uf__alloc_live(), live);
    uf_array_release(n);
}

/* 10^4 calls viewing arrays made in a loop: nothing left behind. */
static void test_no_leak(void **state)
{
    (void)state;
    uf_error err;
    uf_array *n = i64(7), *r;
    uf_assert_ok(calln("loop", &n, 1, &r, 1, &err) == 0, &err);
    /* 1.0's last int16 is 0x3ff0 */
    assert_int_equal(*(int64_t *)uf_array_data(r), 7 * 0x3ff0);
    uf_array_release(r);
    long nrt = uf__nrt_live(), live = uf__alloc_live();
    for (int i = 0; i < 10000; i++) {
        uf_assert_ok(calln("loop", &n, 1, &r, 1, &err) == 0, &err);
        assert_int_equal(*(int64_t *)uf_array_data(r), 7 * 0x3ff0);
        uf_array_release(r);
    }
    assert_int_equal(uf__nrt_live(), nrt);
    assert_int_equal(uf__alloc_live(), live);
    uf_array_release(n);
}

/* np.frombuffer: the data pointer offset by whole items, count and
 * offset checked in Numba's order. */
static void test_frombuffer(void **state)
{
    (void)state;
    uf_error err;
    uf_array *b = bytes(UF_INT64, 2, UF_ORDER_C), *r; /* 8 int64 */
    static const struct {
        int64_t n, k, len;
        const char *msg;
    } cases[] = {
        {-1, 0, 8, NULL}, {-1, 3, 5, NULL}, {2, 3, 2, NULL},
        {0, 8, 0, NULL}, {-5, 8, 0, NULL},
        {-1, 9, 0, "offset must be non-negative and no greater than buffer "
                   "length"},
        {-1, -1, 0, "offset must be non-negative"},
        {6, 3, 0, "buffer is smaller than requested size"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        uf_array *args[3] = {b, i64(cases[c].n), i64(cases[c].k)};
        int rc = calln("fb", args, 3, &r, 1, &err);
        if (cases[c].msg) {
            if (rc != UF_ERR_VALUE || !strstr(err.message, cases[c].msg))
                uf_fail_at(__FILE__, __LINE__, "case %zu gave %d (%s)", c,
                           rc, rc ? err.message : "");
        } else {
            uf_assert_ok(rc == 0, &err);
            assert_int_equal(uf_array_shape(r)[0], cases[c].len);
            assert_int_equal(uf_array_strides(r)[0], 8);
            if (cases[c].len > 0)
                assert_ptr_equal(uf_array_data(r),
                                 (char *)uf_array_data(b) + 8 * cases[c].k);
            uf_array_release(r);
        }
        uf_array_release(args[1]);
        uf_array_release(args[2]);
    }
    uf_array_release(b);
}

/* isinstance decided per signature: the other branches never typed. */
static void test_isinstance(void **state)
{
    (void)state;
    uf_error err;
    uf_func *f = uf_module_get(mod, "inst", &err);
    uf_assert_ok(f != NULL, &err);
    static const struct {
        const char *sig, *has, *lacks;
    } cases[] = {
        {"int64(float64)", "return 1", "x.size"},
        {"int64(int32)", "return 1", "x.size"},
        {"int64(int64)", "return x", "x.size"},
        {"int64(int64[:])", "x.size", NULL},
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        char *text = uf_func_inspect(f, cases[c].sig, UF_INSPECT_TYPES, &err);
        uf_assert_ok(text != NULL, &err);
        if (!strstr(text, "pruned"))
            uf_fail_at(__FILE__, __LINE__, "%s: nothing pruned:\n%s",
                       cases[c].sig, text);
        free(text);
    }
    uf_array *x = i64(5), *r;
    uf_assert_ok(calln("inst", &x, 1, &r, 1, &err) == 0, &err);
    assert_int_equal(*(int64_t *)uf_array_data(r), 5);
    uf_array_release(r);
    uf_array_release(x);
}

/* Refused at the call's FILE:LINE:COL as Numba refuses them while
 * typing, and CUDA kernels. */
static void test_refused(void **state)
{
    (void)state;
    static const char bad[] =
        "import numpy as np\n"
        "from numba import cuda, njit\n"
        "@njit\n"
        "def s(a):\n"
        "    return a.view('i8')\n"
        "@njit\n"
        "def f(a):\n"
        "    return np.frombuffer(a[::2])\n"
        "@njit\n"
        "def o(a):\n"
        "    return np.frombuffer(a, np.uint8, -1, 2)\n"
        "@njit\n"
        "def n(x):\n"
        "    return isinstance(x, np.ndarray)\n"
        "@njit\n"
        "def t(x):\n"
        "    return isinstance(x, (int, (float, complex)))\n"
        "@njit\n"
        "def c(x):\n"
        "    return isinstance(x, 3)\n"
        "@cuda.jit\n"
        "def k(out):\n"
        "    out[0] = out.view(np.int64)[0]\n";
    static const struct {
        const char *fn, *sig;
        int line, col;
        const char *msg;
    } cases[] = {
        {"s", "int64[:](float64[:])", 5, 19, "not a string"},
        {"f", "float64[:](float64[:])", 8, 26, "must be buffer-like"},
        {"o", "uint8[:](float64[::1])", 11, 43, "reading past the buffer"},
        {"n", "boolean(int64[:])", 14, 26, "numpy.ndarray"},
        {"t", "boolean(complex128)", 17, 32, "a nested tuple"},
        {"c", "boolean(int64)", 20, 26, "arg 2 must be a type"},
        {"k", "void(float64[:])", 23, 14, "CUDA kernels"},
    };
    uf_error err;
    uf_module *m = uf_module_from_string(ctx, "arrview_bad.py", bad, &err);
    uf_assert_ok(m != NULL, &err);
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        uf_func *fn = uf_module_get(m, cases[c].fn, &err);
        uf_assert_ok(fn != NULL, &err);
        char *text = uf_func_inspect(fn, cases[c].sig, UF_INSPECT_TYPES, &err);
        if (text != NULL || err.line != cases[c].line ||
            err.column != cases[c].col ||
            !strstr(err.file, "arrview_bad.py") ||
            !strstr(err.message, cases[c].msg))
            uf_fail_at(__FILE__, __LINE__, "case %s: %s:%d:%d %s",
                       cases[c].fn, err.file, err.line, err.column,
                       text ? "compiled" : err.message);
    }
    uf_module_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_pair),
        cmocka_unit_test(test_layouts),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_write_through),
        cmocka_unit_test(test_local_returned),
        cmocka_unit_test(test_no_leak),
        cmocka_unit_test(test_frombuffer),
        cmocka_unit_test(test_isinstance),
        cmocka_unit_test(test_refused),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
