/* Python statements inside kernels through uf_call, for what the Numba
 * oracle (tests/e2e/run_lang_oracle.py) cannot see: `raise`
 * (compiler/types/infer_raise.c, compiler/lower/lower_raise.c,
 * compiler/host/jit_status.c's uf__rt_raise): the error's code and exact
 * message (str() of the exception as Python formats it: floats' repr,
 * strings' quotes), raised from a strided view's loop, a nested njit call
 * and a prange body, no leak when it raises after allocating (10^4
 * failing calls), out of memory at every allocation, and the refused
 * forms at file:line:col. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nrt_test_util.h"

static const char src[] =
    "from numba import njit, prange\n"
    "import numpy as np\n"
    "@njit\n"
    "def first_negative(a):\n"
    "    s = 0.0\n"
    "    for i in range(a.shape[0]):\n"
    "        if a[i] < 0:\n"
    "            raise ValueError('negative at', i, a[i])\n"
    "        s += a[i]\n"
    "    return s\n"
    "@njit\n"
    "def index(x):\n"
    "    if x > 0:\n"
    "        raise IndexError\n"
    "    return x\n"
    "@njit\n"
    "def floats(x):\n"
    "    if x != 1.0:\n"
    "        raise RuntimeError(x, np.float32(0.1), -0.0, 1e16, 1e-5, 0.0001,"
    " x * 0.0, True, np.uint8(200), 'q\\'s')\n"
    "    return x\n"
    "@njit\n"
    "def inner(x):\n"
    "    if x > 5:\n"
    "        raise KeyError('deep')\n"
    "    return x\n"
    "@njit\n"
    "def outer(x):\n"
    "    return inner(inner(x) + 3)\n"
    "@njit(parallel=True)\n"
    "def par(n):\n"
    "    s = 0\n"
    "    for i in prange(n):\n"
    "        if i == n - 3:\n"
    "            raise ZeroDivisionError('in prange', i)\n"
    "        s += i\n"
    "    return s\n"
    "@njit\n"
    "def alloc_then_raise(n):\n"
    "    a = np.empty(n)\n"
    "    b = np.zeros((n, 2))\n"
    "    for i in range(n):\n"
    "        a[i] = i\n"
    "        b[i, 1] = a[i] * 2\n"
    "    if n > 3:\n"
    "        raise ValueError('n too big', b[n - 1, 1])\n"
    "    return a.sum() + b.sum()\n"
    "@njit\n"
    "def contains(x, a):\n"
    "    return x in a\n";

static uf_context *ctx;
static uf_module *mod;

static int setup(void **state)
{
    (void)state;
    uf_error err;
    ctx = uf_context_new(&err);
    if (!ctx)
        return -1;
    mod = uf_module_from_string(ctx, "lang_c.py", src, &err);
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

static uf_func *fn(const char *name)
{
    uf_error err;
    uf_func *f = uf_module_get(mod, name, &err);
    uf_assert_ok(f != NULL, &err);
    return f;
}

static uf_array *calln(const char *name, uf_array **x, int n, uf_error *err)
{
    uf_array *out = NULL;
    int rc = uf_call(fn(name), x, n, &out, 1, NULL, err);
    return rc == 0 ? out : NULL;
}

static uf_array *scalar(uf_dtype dt, double v)
{
    uf_error err;
    uf_array *a = uf_empty(dt, 0, NULL, UF_ORDER_C, &err);
    uf_assert_ok(a != NULL, &err);
    if (dt == UF_FLOAT64)
        *(double *)uf_array_data(a) = v;
    else
        *(int64_t *)uf_array_data(a) = (int64_t)v;
    return a;
}

/* f(x) fails with `code` and exactly `msg`. */
static void expect_raise(const char *name, uf_array *x, int code,
                         const char *msg)
{
    uf_error err;
    uf_array *r = calln(name, &x, 1, &err);
    if (r != NULL)
        fail_msg("%s did not raise", name);
    assert_int_equal(err.code, code);
    char want[512];
    snprintf(want, sizeof want, "%s (in '%s')", msg, name);
    assert_string_equal(err.message, want);
}

/* A raise in a loop over a reversed view names the index and the element
 * (floats as Python's repr); a raise without arguments is its class. */
static void test_messages(void **state)
{
    (void)state;
    uf_error err;
    int64_t shape[1] = {6};
    uf_array *a = uf_empty(UF_FLOAT64, 1, shape, UF_ORDER_C, &err);
    uf_assert_ok(a != NULL, &err);
    double *d = uf_array_data(a);
    for (int k = 0; k < 6; k++)
        d[k] = k == 1 ? -2.5 : k;
    /* a[::-2]: 5, 3, 1 -> the third element is -2.5 */
    int64_t vshape[1] = {3}, vstrides[1] = {-16};
    uf_array *v = uf_array_wrap(UF_FLOAT64, 1, vshape, vstrides, d + 5, true,
                                NULL, NULL, &err);
    uf_assert_ok(v != NULL, &err);
    expect_raise("first_negative", v, UF_ERR_VALUE,
                 "ValueError: ('negative at', 2, -2.5)");
    uf_array *r = calln("first_negative", &a, 1, &err);
    assert_null(r);
    assert_string_equal(err.message, "ValueError: ('negative at', 1, -2.5) "
                                     "(in 'first_negative')");
    d[1] = 2.0;
    r = calln("first_negative", &a, 1, &err);
    uf_assert_ok(r != NULL, &err);
    assert_true(*(double *)uf_array_data(r) == 16.0);
    uf_array_release(r);
    uf_array_release(v);
    uf_array_release(a);

    uf_array *x = scalar(UF_INT64, 1);
    expect_raise("index", x, UF_ERR_INDEX, "IndexError");
    uf_array_release(x);
}

/* Python's repr of floats (shortest round trip, exponent past 1e16 and
 * below 1e-4, nan, -0.0), of strings (quotes) and bools. */
static void test_formatting(void **state)
{
    (void)state;
    uf_array *x = scalar(UF_FLOAT64, 7.0);
    expect_raise("floats", x, UF_ERR_VALUE,
                 "RuntimeError: (7.0, 0.10000000149011612, -0.0, 1e+16, "
                 "1e-05, 0.0001, 0.0, True, 200, \"q's\")");
    uf_array_release(x);
    x = scalar(UF_FLOAT64, NAN);
    expect_raise("floats", x, UF_ERR_VALUE,
                 "RuntimeError: (nan, 0.10000000149011612, -0.0, 1e+16, "
                 "1e-05, 0.0001, nan, True, 200, \"q's\")");
    uf_array_release(x);
    x = scalar(UF_FLOAT64, -1.25e-300);
    expect_raise("floats", x, UF_ERR_VALUE,
                 "RuntimeError: (-1.25e-300, 0.10000000149011612, -0.0, "
                 "1e+16, 1e-05, 0.0001, -0.0, True, 200, \"q's\")");
    uf_array_release(x);
}

/* From a callee (KeyError: its repr) and from a prange body's worker. */
static void test_depth(void **state)
{
    (void)state;
    uf_error err;
    uf_array *x = scalar(UF_INT64, 1);
    uf_array *r = calln("outer", &x, 1, &err);
    uf_assert_ok(r != NULL, &err);
    assert_int_equal(*(int64_t *)uf_array_data(r), 4);
    uf_array_release(r);
    uf_array_release(x);
    x = scalar(UF_INT64, 3);
    expect_raise("outer", x, UF_ERR_VALUE, "KeyError: 'deep'");
    uf_array_release(x);
    x = scalar(UF_INT64, 100000);
    expect_raise("par", x, UF_ERR_VALUE,
                 "ZeroDivisionError: ('in prange', 99997)");
    uf_array_release(x);
}

/* Raising after np.empty/np.zeros frees them: 10^4 failing calls leave
 * the allocator's live counts where they were. */
static void test_no_leak(void **state)
{
    (void)state;
    uf_error err;
    uf_array *x = scalar(UF_INT64, 50);
    expect_raise("alloc_then_raise", x, UF_ERR_VALUE,
                 "ValueError: ('n too big', 98.0)");
    long nrt = uf__nrt_live(), live = uf__alloc_live();
    for (int i = 0; i < 10000; i++) {
        uf_array *r = calln("alloc_then_raise", &x, 1, &err);
        assert_null(r);
        assert_int_equal(err.code, UF_ERR_VALUE);
    }
    assert_int_equal(uf__nrt_live(), nrt);
    assert_int_equal(uf__alloc_live(), live);
    uf_array_release(x);
}

static int oom_call(void *ud, uf_error *err)
{
    uf_array *x = ud;
    uf_array *out = calln("alloc_then_raise", &x, 1, err);
    if (out == NULL)
        return err->code == UF_ERR_VALUE ? 0 : err->code;
    uf_array_release(out);
    return 0;
}

static void test_out_of_memory(void **state)
{
    (void)state;
    uf_error err;
    /* 300 elements: past the 2 KiB stack buffer of a scratch array
     * (lower_scratch.c), so both arrays come from the NRT heap */
    uf_array *x = scalar(UF_INT64, 300);
    uf_assert_ok(oom_call(x, &err) == 0, &err); /* compiled */
    uf_check_oom_each_alloc("alloc_then_raise", oom_call, x);
    uf_array_release(x);
}

/* Each refused form at its file:line:col, with the words saying why. */
static void test_refused(void **state)
{
    (void)state;
    static const struct {
        const char *src, *sig, *words;
        int code, line, column;
    } cases[] = {
        {"from numba import njit\n@njit\ndef f(a):\n    raise ValueError(a)"
         "\n", "int64(float64[:])", "only string literals, integers",
         UF_ERR_UNSUPPORTED, 4, 22},
        {"from numba import njit\n@njit\ndef f(x):\n    raise Warning('w')\n",
         "int64(int64)", "only Python's built-in exception classes",
         UF_ERR_UNSUPPORTED, 4, 11},
        {"from numba import njit\n@njit\ndef f(x):\n    raise\n",
         "int64(int64)", "a bare 'raise' (re-raise) is not supported",
         UF_ERR_UNSUPPORTED, 4, 5},
        {"from numba import njit\n@njit\ndef f(x):\n    raise ValueError "
         "from x\n", "int64(int64)", "'raise ... from' is not supported",
         UF_ERR_UNSUPPORTED, 4, 22},
        {"from numba import njit\n@njit\ndef f(x):\n    raise ValueError(x="
         "1)\n", "int64(int64)", "keyword arguments of an exception",
         UF_ERR_UNSUPPORTED, 4, 22},
        {"from numba import cuda\n@cuda.jit\ndef k(out):\n    if out[0] > 0:"
         "\n        raise ValueError('no')\n", "void(float64[:])",
         "'raise' is not supported in CUDA kernels", UF_ERR_UNSUPPORTED, 5,
         9},
        {"from numba import njit\n@njit\ndef f(x):\n    print(x, sep='')\n"
         "    return x\n", "int64(int64)", "keyword arguments of print()",
         UF_ERR_UNSUPPORTED, 4, 14},
        {"import numpy as np\nfrom numba import njit\n@njit\ndef f(x):\n"
         "    print(np.zeros(2))\n    return x\n", "int64(int64)",
         "an argument of print() of type array", UF_ERR_UNSUPPORTED, 5, 11},
        {"from numba import njit\n@njit\ndef f(x):\n    return x in (1, 2.5)"
         "\n", "bool(int64)", "No implementation of function contains",
         UF_ERR_TYPING, 4, 12},
        {"from numba import njit\n@njit\ndef f(x):\n    return 1 < x in (1,"
         " 2)\n", "bool(int64)", "'in' in a comparison chain",
         UF_ERR_UNSUPPORTED, 4, 12},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uf_error err;
        uf_module *m = uf_module_from_string(ctx, "lang_bad.py", cases[i].src,
                                             &err);
        char *text = NULL;
        if (m != NULL) {
            uf_func *f = uf_module_get(m, strstr(cases[i].src, "def k")
                                              ? "k" : "f", &err);
            uf_assert_ok(f != NULL, &err);
            text = uf_func_inspect(f, cases[i].sig, UF_INSPECT_TYPES, &err);
        }
        if (text != NULL || err.code != cases[i].code ||
            err.line != cases[i].line || err.column != cases[i].column ||
            strstr(err.message, cases[i].words) == NULL ||
            strstr(err.file, "lang_bad.py") == NULL)
            fail_msg("case %zu: code %d at %d:%d: %s", i, err.code, err.line,
                     err.column, err.message);
        uf_module_free(m);
    }
}

/* x in a one-element array (a 0-d one is a scalar to uf_call), an empty
 * one, a non-contiguous N-d view (stopping
 * at the first match), NaN never found. */
static void test_contains(void **state)
{
    (void)state;
    uf_error err;
    double buf[12];
    for (int k = 0; k < 12; k++)
        buf[k] = k;
    buf[7] = NAN;
    static const struct {
        int nd;
        int64_t shape[2], strides[2], offset;
        double key;
        bool want;
    } cases[] = {
        {1, {1}, {8}, 3, 3.0, true},
        {1, {1}, {0}, 3, 4.0, false},
        {1, {0}, {8}, 0, 0.0, false},
        /* rows 2, 0 of a (3, 4) array, every other column from the end */
        {2, {2, 2}, {-64, -16}, 11, 9.0, true},
        {2, {2, 2}, {-64, -16}, 11, 10.0, false},
        {2, {2, 2}, {-64, -16}, 11, 1.0, true},
        {1, {12}, {8}, 0, NAN, false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uf_array *args[2];
        args[0] = scalar(UF_FLOAT64, cases[i].key);
        args[1] = uf_array_wrap(UF_FLOAT64, cases[i].nd, cases[i].shape,
                                cases[i].strides, buf + cases[i].offset, true,
                                NULL, NULL, &err);
        uf_assert_ok(args[1] != NULL, &err);
        uf_array *r = calln("contains", args, 2, &err);
        uf_assert_ok(r != NULL, &err);
        if (*(bool *)uf_array_data(r) != cases[i].want)
            fail_msg("contains case %zu", i);
        uf_array_release(r);
        uf_array_release(args[0]);
        uf_array_release(args[1]);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_messages),
        cmocka_unit_test(test_formatting),
        cmocka_unit_test(test_depth),
        cmocka_unit_test(test_no_leak),
        cmocka_unit_test(test_out_of_memory),
        cmocka_unit_test(test_refused),
        cmocka_unit_test(test_contains),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
