/* How kernels bind and prune, through the C API: isinstance on locals
 * (compiler/types/infer_prune.c's last round over infer.c's partial
 * typing) for what the Numba oracle (run_npiterbind_oracle.py) cannot
 * see: the branch not taken is neither typed nor lowered (`inspect
 * --types` marks it pruned) for int, float, complex, array and tuple
 * locals in both branch orders, the values over empty, 0-d, reversed and
 * NaN arrays, no leak from the array local across calls, and the
 * refusals at file:line:col; iterators kept in a variable
 * (compiler/front/iterbind.c) over 0-d, empty, 3-d and reversed shapes,
 * with no leak, and their other uses refused at the use. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nrt_test_util.h"

static const char src[] =
    "from numba import njit\n"
    "import numpy as np\n"
    "@njit\n"
    "def flt(a):\n"                       /* 4 */
    "    x = a.sum()\n"
    "    if isinstance(x, float):\n"
    "        return x\n"
    "    return x.foo\n"
    "@njit\n"
    "def flt_else(a):\n"                  /* 10 */
    "    x = a.sum()\n"
    "    if isinstance(x, int):\n"
    "        return x.foo\n"
    "    return x * 2.0\n"
    "@njit\n"
    "def cpx(a):\n"                       /* 16 */
    "    x = a[0] * 1j\n"
    "    return x.imag if isinstance(x, complex) else x.nope\n"
    "@njit\n"
    "def arr(a):\n"                       /* 20 */
    "    x = a + 1\n"
    "    if not isinstance(x, (int, float, complex)):\n"
    "        return x.sum()\n"
    "    return x.foo\n"
    "@njit\n"
    "def tup(a):\n"                       /* 26 */
    "    x = (a.size, 2)\n"
    "    if isinstance(x, float):\n"
    "        return x.foo\n"
    "    elif isinstance(x, tuple):\n"
    "        return x[0] + x[1]\n"
    "    return x.bar\n"
    "@njit\n"
    "def num(n):\n"                       /* 34 */
    "    x = n * 3\n"
    "    b = isinstance(x, int)\n"
    "    if b and True:\n"
    "        return x + 1\n"
    "    return x.bar()\n"
    "@njit\n"
    "def join(a, c):\n"                   /* 41 */
    "    if c > 0:\n"
    "        x = a[0]\n"
    "    else:\n"
    "        x = a[1]\n"
    "    return isinstance(x, float)\n"
    "@njit\n"
    "def loopjoin(a):\n"                  /* 48 */
    "    x = a[0]\n"
    "    for i in range(3):\n"
    "        x = x + 1\n"
    "    if isinstance(x, float):\n"
    "        return x\n"
    "    return 0.0\n"
    "@njit\n"
    "def live(a, c):\n"                   /* 56 */
    "    x = a.sum()\n"
    "    if isinstance(x, float) and c > 0:\n"
    "        return x\n"
    "    return x.foo\n"
    "@njit\n"
    "def walk(a):\n"                     /* 62 */
    "    it = np.ndenumerate(a)\n"
    "    s = 0.0\n"
    "    k = 1\n"
    "    for idx, v in it:\n"
    "        s += v * k\n"
    "        k += 1\n"
    "    return s\n"
    "@njit\n"
    "def count(a):\n"                    /* 71 */
    "    it = np.ndindex(a.shape)\n"
    "    c = 0\n"
    "    for k, idx in enumerate(it):\n"
    "        c += len(idx) + k\n"
    "    return c\n"
    "@njit\n"
    "def alloc(n):\n"                    /* 78 */
    "    it = zip(np.arange(n), np.ones(n))\n"
    "    s = 0.0\n"
    "    for x, y in it:\n"
    "        s += x * y\n"
    "    return s\n"
    "@njit\n"
    "def twice(a):\n"                    /* 85 */
    "    it = np.ndindex(a.shape)\n"
    "    for idx in it:\n"
    "        pass\n"
    "    for idx in it:\n"
    "        pass\n"
    "    return 0\n"
    "@njit\n"
    "def stored(a):\n"                   /* 93 */
    "    it = np.nditer(a)\n"
    "    jt = it\n"
    "    return 0\n"
    "@njit\n"
    "def rebound(a):\n"                  /* 98 */
    "    it = enumerate(a)\n"
    "    it = enumerate(a)\n"
    "    for i, v in it:\n"
    "        pass\n"
    "    return 0\n";

static uf_context *ctx;
static uf_module *mod;

static int setup(void **state)
{
    (void)state;
    uf_error err;
    ctx = uf_context_new(&err);
    if (!ctx)
        return -1;
    mod = uf_module_from_string(ctx, "iterbind_c.py", src, &err);
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

/* 1-D float64 [0, 1, ..., n-1] * step */
static uf_array *ramp(int64_t n, double step)
{
    uf_error err;
    uf_array *a = uf_empty(UF_FLOAT64, 1, &n, UF_ORDER_C, &err);
    uf_assert_ok(a != NULL, &err);
    for (int64_t i = 0; i < n; i++)
        ((double *)uf_array_data(a))[i] = (double)i * step;
    return a;
}

static double call_f64(const char *fn, uf_array *a)
{
    uf_error err;
    uf_array *r;
    uf_assert_ok(calln(fn, &a, 1, &r, 1, &err) == 0, &err);
    assert_int_equal(uf_array_dtype(r), UF_FLOAT64);
    double v = *(double *)uf_array_data(r);
    uf_array_release(r);
    return v;
}

/* The branch not taken is marked pruned, and what it holds (x.foo of a
 * number, x.sum() of a tuple ...) never reaches the typing. */
static void test_pruned(void **state)
{
    (void)state;
    static const struct {
        const char *fn, *sig, *kept;
    } cases[] = {
        {"flt", "float64(float64[:])", "return x"},
        {"flt", "float64(float64[:, ::-1])", "return x"},
        {"flt_else", "float64(float64[:])", "x * 2.0"},
        {"flt_else", "complex128(complex128[:])", "x * 2.0"},
        {"cpx", "float64(float64[:])", "x.imag"},
        {"cpx", "float64(int32[::1])", "x.imag"},
        {"arr", "float64(float64[:, :])", "x.sum()"},
        {"arr", "int64(int64[:])", "x.sum()"},
        {"tup", "int64(float64[:])", "x[0] + x[1]"},
        {"num", "int64(int64)", "x + 1"},
        {"num", "int64(int8)", "x + 1"},
        {"num", "int64(boolean)", "x + 1"},
    };
    uf_error err;
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        uf_func *f = uf_module_get(mod, cases[c].fn, &err);
        uf_assert_ok(f != NULL, &err);
        char *text = uf_func_inspect(f, cases[c].sig, UF_INSPECT_TYPES, &err);
        if (text == NULL)
            uf_fail_at(__FILE__, __LINE__, "%s %s: %s:%d:%d %s", cases[c].fn,
                       cases[c].sig, err.file, err.line, err.column,
                       err.message);
        /* a conditional expression compiles: the dump marks statements */
        bool ifexp = strcmp(cases[c].fn, "cpx") == 0;
        if ((!ifexp && !strstr(text, "pruned")) ||
            !strstr(text, cases[c].kept))
            uf_fail_at(__FILE__, __LINE__, "%s %s: nothing pruned:\n%s",
                       cases[c].fn, cases[c].sig, text);
        free(text);
    }
}

/* Values over empty, 0-d, reversed, NaN and inf arrays. */
static void test_values(void **state)
{
    (void)state;
    uf_error err;
    uf_array *a = ramp(6, 0.5);
    assert_true(call_f64("flt", a) == 7.5);
    assert_true(call_f64("flt_else", a) == 15.0);
    assert_true(call_f64("cpx", a) == 0.0);
    assert_true(call_f64("arr", a) == 13.5);
    uf_array *rev = uf_array_slice(a, "::-2", &err);
    uf_assert_ok(rev != NULL, &err);
    assert_true(call_f64("flt", rev) == 2.5 + 1.5 + 0.5);
    assert_true(call_f64("cpx", rev) == 2.5);
    uf_array *e = uf_array_slice(a, "3:3", &err);
    uf_assert_ok(e != NULL, &err);
    assert_true(call_f64("flt", e) == 0.0);
    assert_true(call_f64("arr", e) == 0.0);
    uf_array *r;
    uf_assert_ok(calln("tup", &e, 1, &r, 1, &err) == 0, &err);
    assert_int_equal(*(int64_t *)uf_array_data(r), 2);
    uf_array_release(r);
    /* a 0-d argument is a number: x = n * 3 an int64 */
    uf_array *z = uf_empty(UF_INT64, 0, NULL, UF_ORDER_C, &err);
    uf_assert_ok(z != NULL, &err);
    *(int64_t *)uf_array_data(z) = -5;
    uf_assert_ok(calln("num", &z, 1, &r, 1, &err) == 0, &err);
    assert_int_equal(*(int64_t *)uf_array_data(r), -14);
    uf_array_release(r);
    ((double *)uf_array_data(a))[1] = NAN;
    assert_true(isnan(call_f64("flt", a)));
    ((double *)uf_array_data(a))[1] = -INFINITY;
    assert_true(isinf(call_f64("flt_else", a)));
    uf_array_release(z);
    uf_array_release(e);
    uf_array_release(rev);
    uf_array_release(a);
}

/* The array local made in each call is freed: nothing left behind. */
static void test_no_leak(void **state)
{
    (void)state;
    uf_array *a = ramp(100, 1.0);
    assert_true(call_f64("arr", a) == 5050.0);
    long nrt = uf__nrt_live(), live = uf__alloc_live();
    for (int i = 0; i < 2000; i++)
        assert_true(call_f64("arr", a) == 5050.0);
    assert_int_equal(uf__nrt_live(), nrt);
    assert_int_equal(uf__alloc_live(), live);
    uf_array_release(a);
}

/* Numba's refusals at file:line:col: isinstance of a join (a phi), the
 * branch kept by a test known only at run time. */
static void test_refused(void **state)
{
    (void)state;
    static const struct {
        const char *fn, *sig;
        int line, col;
        const char *msg;
    } cases[] = {
        {"join", "boolean(float64[:], int64)", 46, 12, "due to a branch"},
        {"loopjoin", "float64(float64[:])", 52, 8, "\"x\" due to a branch"},
        {"live", "float64(float64[:], int64)", 60, 14, "'foo' of float64"},
        {"flt", "int64(int64[:])", 8, 14, "'foo' of int64"},
        {"tup", "int64(int64[:])", -1, 0, "compiled"},
    };
    uf_error err;
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        uf_func *fn = uf_module_get(mod, cases[c].fn, &err);
        uf_assert_ok(fn != NULL, &err);
        char *text = uf_func_inspect(fn, cases[c].sig, UF_INSPECT_TYPES, &err);
        if (cases[c].line < 0) { /* the control: it compiles */
            uf_assert_ok(text != NULL, &err);
            free(text);
            continue;
        }
        if (text != NULL || err.line != cases[c].line ||
            err.column != cases[c].col ||
            !strstr(err.file, "iterbind_c.py") ||
            !strstr(err.message, cases[c].msg))
            uf_fail_at(__FILE__, __LINE__, "case %s: %s:%d:%d %s",
                       cases[c].fn, err.file, err.line, err.column,
                       text ? "compiled" : err.message);
    }
}

/* 3-d of (2, 3, 4) [k] = k: sum over C order of k * (k + 1). */
static uf_array *cube(void)
{
    uf_error err;
    int64_t shape[3] = {2, 3, 4};
    uf_array *a = uf_empty(UF_FLOAT64, 3, shape, UF_ORDER_C, &err);
    uf_assert_ok(a != NULL, &err);
    for (int k = 0; k < 24; k++)
        ((double *)uf_array_data(a))[k] = k;
    return a;
}

static int64_t call_i64(const char *fn, uf_array *a)
{
    uf_error err;
    uf_array *r;
    uf_assert_ok(calln(fn, &a, 1, &r, 1, &err) == 0, &err);
    assert_int_equal(uf_array_dtype(r), UF_INT64);
    int64_t v = *(int64_t *)uf_array_data(r);
    uf_array_release(r);
    return v;
}

/* Iterators in a variable: C order over a 3-d array and its reversed
 * view, empty shapes none, a 0-d array (a number: np.ndenumerate of it
 * is refused, as Numba) ... */
static void test_iterators(void **state)
{
    (void)state;
    uf_error err;
    uf_array *a = cube();
    double want = 0;
    for (int k = 0; k < 24; k++)
        want += (double)k * (k + 1);
    assert_true(call_f64("walk", a) == want);
    /* enumerate(it): k counts 0..23, each idx of length 3 */
    assert_int_equal(call_i64("count", a), 24 * 3 + 23 * 24 / 2);
    uf_array *rev = uf_array_slice(a, "::-1, :, ::-1", &err);
    uf_assert_ok(rev != NULL, &err);
    /* element k of the view in C order is 23 - k, weighted k + 1 */
    want = 0;
    for (int k = 0; k < 24; k++)
        want += (double)(12 * (k >= 12 ? 0 : 1) + (k / 4 % 3) * 4 +
                         (3 - k % 4)) * (k + 1);
    assert_true(call_f64("walk", rev) == want);
    uf_array *e = uf_array_slice(a, ":, 1:1, :", &err);
    uf_assert_ok(e != NULL, &err);
    assert_true(call_f64("walk", e) == 0.0);
    assert_int_equal(call_i64("count", e), 0);
    uf_array *n = uf_empty(UF_INT64, 0, NULL, UF_ORDER_C, &err);
    uf_assert_ok(n != NULL, &err);
    *(int64_t *)uf_array_data(n) = 10;
    assert_true(call_f64("alloc", n) == 45.0);
    *(int64_t *)uf_array_data(n) = 0;
    assert_true(call_f64("alloc", n) == 0.0);
    /* the arrays zip() walks are freed with each call */
    *(int64_t *)uf_array_data(n) = 50;
    assert_true(call_f64("alloc", n) == 1225.0);
    long nrt = uf__nrt_live(), live = uf__alloc_live();
    for (int i = 0; i < 2000; i++)
        assert_true(call_f64("alloc", n) == 1225.0);
    assert_int_equal(uf__nrt_live(), nrt);
    assert_int_equal(uf__alloc_live(), live);
    uf_array_release(n);
    uf_array_release(e);
    uf_array_release(rev);
    uf_array_release(a);
}

/* Other uses of the variable refused at the use, naming what works. */
static void test_iterators_refused(void **state)
{
    (void)state;
    static const struct {
        const char *fn, *sig;
        int line, col;
        const char *msg;
    } cases[] = {
        {"twice", "int64(float64[:, :])", 89, 16, "'it' holds np.ndindex"},
        {"stored", "int64(float64[:])", 95, 10, "'it' holds np.nditer"},
        {"rebound", "int64(float64[:])", 99, 5, "'it' holds enumerate"},
    };
    uf_error err;
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        uf_func *fn = uf_module_get(mod, cases[c].fn, &err);
        uf_assert_ok(fn != NULL, &err);
        char *text = uf_func_inspect(fn, cases[c].sig, UF_INSPECT_TYPES, &err);
        if (text != NULL || err.line != cases[c].line ||
            err.column != cases[c].col || err.code != UF_ERR_UNSUPPORTED ||
            !strstr(err.message, cases[c].msg) ||
            !strstr(err.message, "one for loop after it"))
            uf_fail_at(__FILE__, __LINE__, "case %s: %s:%d:%d %s",
                       cases[c].fn, err.file, err.line, err.column,
                       text ? "compiled" : err.message);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pruned),
        cmocka_unit_test(test_values),
        cmocka_unit_test(test_no_leak),
        cmocka_unit_test(test_refused),
        cmocka_unit_test(test_iterators),
        cmocka_unit_test(test_iterators_refused),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
