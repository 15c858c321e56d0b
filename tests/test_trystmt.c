/* try/except inside kernels (compiler/front/parser_stmt.c,
 * compiler/lower/lower_try.c) through uf_call, for what the Numba oracle
 * (tests/e2e/run_trystmt_oracle.py) cannot see: views built here
 * (reversed, every other element, empty, with a NaN) whose NumPy errors the
 * handler catches, arrays made in the try block freed exactly once when
 * it raises (uf__nrt_live and uf__alloc_live back where they started
 * after 10^4 calls), out of memory at every allocation either caught by
 * the handler (Python's MemoryError is an Exception) or reaching the
 * caller as UF_ERR_NOMEM, without leaks, and the forms refused at
 * file:line:col with Numba's reasons when the function is compiled. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nrt_test_util.h"

static const char src[] =
    "from numba import njit, vectorize\n"
    "import numpy as np\n"
    "@njit\n"
    "def max_or(a, d):\n"
    "    try:\n"
    "        r = a.max()\n"
    "    except Exception:\n"
    "        r = d\n"
    "    return r\n"
    "@njit\n"
    "def div_or(n, d):\n"
    "    try:\n"
    "        r = n // d\n"
    "    except:\n"
    "        r = -1\n"
    "    return r\n"
    "@njit\n"
    "def catch_alloc(n):\n"
    "    base = np.arange(n) * 1.0\n"
    "    t = 0.0\n"
    "    for i in range(n):\n"
    "        try:\n"
    "            a = np.ones(i + 1) + base[i]\n"
    "            b = np.empty(2)\n"
    "            if i % 2 == 1:\n"
    "                raise ValueError('odd', i)\n"
    "            t += a.sum() + b.size\n"
    "        except Exception:\n"
    "            t -= 1.0\n"
    "    return t + base.sum()\n"
    "@vectorize(['float64(float64, int64)'])\n"
    "def vec_div(x, n):\n"
    "    try:\n"
    "        if n == 0:\n"
    "            raise ValueError('zero')\n"
    "        r = x / n\n"
    "    except Exception:\n"
    "        r = -1.0\n"
    "    return r\n";

static uf_context *ctx;
static uf_module *mod;

static int setup(void **state)
{
    (void)state;
    uf_error err;
    ctx = uf_context_new(&err);
    if (!ctx)
        return -1;
    mod = uf_module_from_string(ctx, "trystmt_c.py", src, &err);
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

/* 0-d arrays: the scalar arguments of uf_call */
static uf_array *scalar(uf_dtype dt, double v)
{
    uf_error err;
    uf_array *a = uf_empty(dt, 0, NULL, UF_ORDER_C, &err);
    uf_assert_ok(a != NULL, &err);
    *(double *)uf_array_data(a) = v;
    return a;
}

static uf_array *i64(int64_t v)
{
    uf_error err;
    uf_array *a = uf_empty(UF_INT64, 0, NULL, UF_ORDER_C, &err);
    uf_assert_ok(a != NULL, &err);
    *(int64_t *)uf_array_data(a) = v;
    return a;
}

/* 1-d float64 0, 1, ..., n - 1 with a NaN at `nan` (-1: none). */
static uf_array *ramp(int64_t n, int64_t nan)
{
    uf_error err;
    uf_array *a = uf_empty(UF_FLOAT64, 1, &n, UF_ORDER_C, &err);
    uf_assert_ok(a != NULL, &err);
    double *d = uf_array_data(a);
    for (int64_t i = 0; i < n; i++)
        d[i] = i == nan ? NAN : (double)i;
    return a;
}

static double max_or(uf_array *a, double d)
{
    uf_error err;
    uf_array *x[2] = {a, scalar(UF_FLOAT64, d)};
    uf_array *r = calln("max_or", x, 2, &err);
    uf_assert_ok(r != NULL, &err);
    double v = *(double *)uf_array_data(r);
    uf_array_release(r);
    uf_array_release(x[1]);
    return v;
}

/* a.max() in a try: views, 0-d, NaN; an empty array's ValueError caught. */
static void test_views_and_errors(void **state)
{
    (void)state;
    uf_error err;
    uf_array *a = ramp(9, -1);
    assert_true(max_or(a, -5.0) == 8.0);
    uf_array *rev = uf_array_slice(a, "7::-2", &err); /* 7 5 3 1 */
    uf_assert_ok(rev != NULL, &err);
    assert_int_equal(uf_array_shape(rev)[0], 4);
    assert_true(max_or(rev, -5.0) == 7.0);
    uf_array_release(rev);
    uf_array *odd = uf_array_slice(a, "::2", &err); /* 0 2 4 6 8 */
    uf_assert_ok(odd != NULL, &err);
    assert_true(max_or(odd, -5.0) == 8.0);
    uf_array_release(odd);
    int64_t zero = 0;
    uf_array *empty = uf_empty(UF_FLOAT64, 1, &zero, UF_ORDER_C, &err);
    uf_assert_ok(empty != NULL, &err);
    assert_true(max_or(empty, -5.0) == -5.0); /* ValueError caught */
    uf_array_release(empty);
    uf_array *n = ramp(6, 2);
    assert_true(isnan(max_or(n, -5.0)));
    uf_array_release(n);
    uf_array_release(a);
}

static int64_t div_or(int64_t n, int64_t d)
{
    uf_error err;
    uf_array *x[2] = {i64(n), i64(d)};
    uf_array *r = calln("div_or", x, 2, &err);
    uf_assert_ok(r != NULL, &err);
    int64_t v = *(int64_t *)uf_array_data(r);
    uf_array_release(r);
    uf_array_release(x[0]);
    uf_array_release(x[1]);
    return v;
}

/* ZeroDivisionError caught; Python's floor division otherwise. */
static void test_int_division(void **state)
{
    (void)state;
    assert_int_equal(div_or(7, 0), -1);
    assert_int_equal(div_or(-7, 2), -4);
    assert_int_equal(div_or(7, -2), -4);
    assert_int_equal(div_or(0, 0), -1);
    assert_int_equal(div_or(INT64_MAX, 1), INT64_MAX);
}

/* A vectorize kernel (fallible through its raise): the handler per
 * element, over a reversed view. */
static void test_vectorize(void **state)
{
    (void)state;
    uf_error err;
    uf_array *x = ramp(6, -1);
    int64_t six = 6;
    uf_array *n = uf_empty(UF_INT64, 1, &six, UF_ORDER_C, &err);
    uf_assert_ok(n != NULL, &err);
    int64_t *nd = uf_array_data(n);
    for (int i = 0; i < 6; i++)
        nd[i] = i % 3; /* 0 1 2 0 1 2 */
    uf_array *rx = uf_array_slice(x, "::-1", &err); /* 5 4 3 2 1 0 */
    uf_assert_ok(rx != NULL, &err);
    uf_array *in[2] = {rx, n};
    uf_array *out = calln("vec_div", in, 2, &err);
    uf_assert_ok(out != NULL, &err);
    const double want[6] = {-1.0, 4.0, 1.5, -1.0, 1.0, 0.0};
    for (int i = 0; i < 6; i++)
        assert_true(((double *)uf_array_data(out))[i] == want[i]);
    uf_array_release(out);
    uf_array_release(rx);
    uf_array_release(n);
    uf_array_release(x);
}

/* What catch_alloc(n) returns, computed here. */
static double catch_alloc_want(int64_t n)
{
    double t = 0.0, base = 0.0;
    for (int64_t i = 0; i < n; i++) {
        base += (double)i;
        t += i % 2 == 1 ? -1.0 : (double)(i + 1) * (1.0 + (double)i) + 2.0;
    }
    return t + base;
}

static int alloc_call(void *ud, uf_error *err)
{
    uf_array *x = ud;
    uf_array *out = calln("catch_alloc", &x, 1, err);
    if (out == NULL)
        return err->code;
    uf_array_release(out);
    return 0;
}

/* Arrays made in the try block, the handler taken every other
 * iteration: the right sum, and nothing left alive after 10^4 calls. */
static void test_no_leak(void **state)
{
    (void)state;
    uf_error err;
    uf_array *n = i64(9);
    uf_array *r = calln("catch_alloc", &n, 1, &err);
    uf_assert_ok(r != NULL, &err);
    assert_true(*(double *)uf_array_data(r) == catch_alloc_want(9));
    uf_array_release(r);
    long nrt = uf__nrt_live(), live = uf__alloc_live();
    for (int i = 0; i < 10000; i++)
        uf_assert_ok(alloc_call(n, &err) == 0, &err);
    assert_int_equal(uf__nrt_live(), nrt);
    assert_int_equal(uf__alloc_live(), live);
    uf_array_release(n);
}

/* Out of memory at each allocation: inside the try block the handler
 * catches it (the call succeeds), outside it the caller gets
 * UF_ERR_NOMEM; never a leak (uf_check_oom_each_alloc). */
static void test_out_of_memory(void **state)
{
    (void)state;
    uf_error err;
    uf_array *n = i64(5);
    uf_assert_ok(alloc_call(n, &err) == 0, &err); /* compiled */
    uf_check_oom_each_alloc("catch_alloc", alloc_call, n);
    uf_array_release(n);
}

/* Refusals of the function f(x) of `text` (an @njit and its import put
 * before it: two lines) when it is compiled, as Numba's TypingError; the
 * file still loads. */
static void refused(const char *text, int line, int col, const char *msg)
{
    uf_error err;
    char full[1024];
    snprintf(full, sizeof full, "from numba import njit\n@njit\n%s", text);
    line += 2;
    uf_module *m = uf_module_from_string(ctx, "trystmt_bad.py", full, &err);
    uf_assert_ok(m != NULL, &err);
    uf_func *f = uf_module_get(m, "f", &err);
    uf_assert_ok(f != NULL, &err);
    char *types = uf_func_inspect(f, "int64(int64)", UF_INSPECT_TYPES, &err);
    if (types != NULL) {
        uf_free(types);
        fail_msg("accepted: %s", text);
    }
    assert_int_equal(err.code, UF_ERR_UNSUPPORTED);
    assert_non_null(strstr(err.file, "trystmt_bad.py"));
    assert_int_equal(err.line, line);
    assert_int_equal(err.column, col);
    if (strstr(err.message, msg) == NULL)
        fail_msg("message '%s' lacks '%s'", err.message, msg);
    uf_module_free(m);
}

static void test_refused(void **state)
{
    (void)state;
    refused("def f(x):\n    try:\n        x = 1\n    except ValueError:\n"
            "        x = 2\n    return x\n",
            4, 12, "Exception matching is limited to <class 'Exception'>");
    refused("def f(x):\n    try:\n        x = 1\n"
            "    except (ValueError, IndexError):\n        x = 2\n"
            "    return x\n",
            4, 12, "Exception matching is limited");
    refused("def f(x):\n    try:\n        x = 1\n    except Exception as e:\n"
            "        x = 2\n    return x\n",
            4, 22, "cannot be stored into variable");
    refused("def f(x):\n    try:\n        x = 1\n    except Exception:\n"
            "        raise\n    return x\n",
            5, 9, "The re-raising of an exception is not yet supported.");
    /* the first refusal of a function is the one reported */
    refused("def f(x):\n    try:\n        x = 1\n    except Exception as e:\n"
            "        raise\n    return x\n",
            4, 22, "cannot be stored into variable");
    refused("def f(x):\n    for i in range(3):\n        try:\n"
            "            break\n        finally:\n            x += 1\n"
            "    return x\n",
            4, 13, "leaving a try that has a finally block");
    /* a CUDA kernel: typing refuses it at the try */
    static const char csrc[] =
        "from numba import cuda\n"
        "@cuda.jit\n"
        "def k(out):\n"
        "    try:\n"
        "        out[0] = 1.0\n"
        "    except Exception:\n"
        "        out[0] = 2.0\n";
    uf_error err;
    uf_module *m = uf_module_from_string(ctx, "trystmt_cuda.py", csrc, &err);
    uf_assert_ok(m != NULL, &err);
    uf_func *k = uf_module_get(m, "k", &err);
    uf_assert_ok(k != NULL, &err);
    char *text = uf_func_inspect(k, "void(float64[:])", UF_INSPECT_TYPES,
                                 &err);
    assert_null(text);
    assert_int_equal(err.line, 4);
    assert_int_equal(err.column, 5);
    assert_non_null(strstr(err.message, "not supported in CUDA kernels"));
    uf_module_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_views_and_errors),
        cmocka_unit_test(test_int_division),
        cmocka_unit_test(test_vectorize),
        cmocka_unit_test(test_no_leak),
        cmocka_unit_test(test_out_of_memory),
        cmocka_unit_test(test_refused),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
