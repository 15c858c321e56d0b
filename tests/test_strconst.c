/* Strings known at compile time in kernels (compiler/types/infer_str.c,
 * compiler/lower/lower_str.c) through the C API, for what the Numba
 * oracle does not reach: a callee specialised per string value on empty,
 * negatively strided and NaN inputs; a string message reaching uf_error;
 * a kernel returning a string (its code points, test_ustr.c has more),
 * a string chosen at run time, and a declared unicode_type argument
 * refusing an array; nothing left allocated. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/alloc.h"
#include "common/nrt.h"
#include "test_util.h"

static const char src[] =
    "import numpy as np\n"                              /* 1 */
    "from numba import njit\n"                          /* 2 */
    "MODE = 'max'\n"                                    /* 3 */
    "@njit\n"                                           /* 4 */
    "def red(x, how):\n"                                /* 5 */
    "    if how == 'sum':\n"                            /* 6 */
    "        return x.sum()\n"                          /* 7 */
    "    elif how in ('max', 'top'):\n"                 /* 8 */
    "        return x.max()\n"                          /* 9 */
    "    raise ValueError('bad reduction', how)\n"      /* 10 */
    "@njit\n"                                           /* 11 */
    "def both(x):\n"                                    /* 12 */
    "    s = 'sum'\n"                                   /* 13 */
    "    return red(x, s) + 1000.0 * red(x, MODE)\n"   /* 14 */
    "@njit\n"                                           /* 15 */
    "def sums(x):\n"                                    /* 16 */
    "    return red(x, 'sum') + len('h\\u00e9') * (MODE == 'max')\n" /* 17 */
    "@njit\n"                                           /* 18 */
    "def bad(x):\n"                                     /* 19 */
    "    return red(x, 'mean')\n";                      /* 20 */

static const char refused[] =
    "from numba import njit\n"                          /* 1 */
    "@njit\n"                                           /* 2 */
    "def give(x):\n"                                    /* 3 */
    "    return 'abc'\n"                                /* 4 */
    "@njit('int64(unicode_type)')\n"                    /* 5 */
    "def take(s):\n"                                    /* 6 */
    "    return len(s)\n"                               /* 7 */
    "@njit\n"                                           /* 8 */
    "def join(c):\n"                                    /* 9 */
    "    s = 'a' if c[0] > 0 else 'b'\n"                /* 10 */
    "    return 1.0 if s == 'a' else 2.0\n";            /* 11 */

static uf_array *f64s(int64_t n, const double *v)
{
    uf_error err;
    uf_array *a = uf_empty(UF_FLOAT64, 1, &n, UF_ORDER_C, &err);
    uf_assert_ok(a != NULL, &err);
    memcpy(uf_array_data(a), v, sizeof(double) * (size_t)n);
    return a;
}

static double call1(uf_module *mod, const char *name, uf_array *x,
                    uf_error *err)
{
    uf_func *f = uf_module_get(mod, name, err);
    uf_assert_ok(f != NULL, err);
    uf_array *out = NULL;
    if (uf_call(f, &x, 1, &out, 1, NULL, err) != 0)
        return NAN;
    assert_int_equal(uf_array_ndim(out), 0);
    double v = *(double *)uf_array_data(out);
    uf_array_release(out);
    return v;
}

static void test_per_value(void **state)
{
    (void)state;
    uf_error err;
    long live = uf__alloc_live(), nrt = uf__nrt_live();
    uf_context *ctx = uf_context_new(&err);
    uf_assert_ok(ctx != NULL, &err);
    uf_module *mod = uf_module_from_string(ctx, "strconst_c.py", src, &err);
    uf_assert_ok(mod != NULL, &err);
    static const double v[] = {1.5, -2.0, 4.0, 0.25, 3.0, 8.0};
    uf_array *x = f64s(6, v);
    /* red specialised twice: sum 14.75, max 8 */
    assert_true(call1(mod, "both", x, &err) == 14.75 + 8000.0);
    /* len('hé') is 2 code points, MODE == 'max' folds to True */
    assert_true(call1(mod, "sums", x, &err) == 14.75 + 2.0);
    /* a view backwards over every other element: 8, 0.25, -2 */
    uf_array *rev = uf_array_slice(x, "::-2", &err);
    uf_assert_ok(rev != NULL, &err);
    assert_true(call1(mod, "sums", rev, &err) == 6.25 + 2.0);
    assert_true(call1(mod, "both", rev, &err) == 6.25 + 8000.0);
    uf_array_release(rev);
    /* NaN propagates through the specialised sum and max */
    static const double w[] = {1.0, NAN, 2.0};
    uf_array *xn = f64s(3, w);
    assert_true(isnan(call1(mod, "both", xn, &err)));
    uf_array_release(xn);
    /* empty: sum 0, max raises Numba's ValueError */
    uf_array *e = f64s(0, v);
    assert_true(call1(mod, "sums", e, &err) == 2.0);
    assert_true(isnan(call1(mod, "both", e, &err)));
    assert_int_equal(err.code, UF_ERR_VALUE);
    uf_array_release(e);
    /* the string argument reaches the message */
    assert_true(isnan(call1(mod, "bad", x, &err)));
    assert_int_equal(err.code, UF_ERR_VALUE);
    assert_non_null(strstr(err.message, "ValueError: ('bad reduction', "
                                        "'mean')"));
    uf_array_release(x);
    uf_module_free(mod);
    uf_context_free(ctx);
    assert_int_equal(uf__nrt_live(), nrt);
    assert_int_equal(uf__alloc_live(), live);
}

static void test_refusals(void **state)
{
    (void)state;
    uf_error err;
    long live = uf__alloc_live();
    uf_context *ctx = uf_context_new(&err);
    uf_assert_ok(ctx != NULL, &err);
    uf_module *mod = uf_module_from_string(ctx, "strconst_r.py", refused,
                                           &err);
    uf_assert_ok(mod != NULL, &err);
    static const double v[] = {1.0};
    uf_array *x = f64s(1, v);
    /* a string comes back to C as its code points (test_ustr.c) */
    uf_func *g = uf_module_get(mod, "give", &err);
    uf_assert_ok(g != NULL, &err);
    uf_array *s = NULL;
    uf_assert_ok(uf_call(g, &x, 1, &s, 1, NULL, &err) == 0, &err);
    assert_int_equal(uf_array_dtype(s), UF_UINT32);
    assert_int_equal(uf_array_shape(s)[0], 3);
    assert_int_equal(((const uint32_t *)uf_array_data(s))[2], 'c');
    uf_array_release(s);
    /* a declared unicode_type takes a string (test_strarg.c), not an
     * array of numbers */
    uf_func *f = uf_module_get(mod, "take", &err);
    uf_assert_ok(f != NULL, &err);
    uf_array *out = NULL;
    assert_int_equal(uf_call(f, &x, 1, &out, 1, NULL, &err), UF_ERR_TYPE);
    assert_null(out);
    assert_non_null(strstr(err.message, "'take' has no signature matching "
                                        "the argument types (array("));
    /* a string chosen at run time: Numba's unicode_type (test_ustr.c) */
    assert_true(call1(mod, "join", x, &err) == 1.0);
    uf_array_release(x);
    uf_module_free(mod);
    uf_context_free(ctx);
    assert_int_equal(uf__alloc_live(), live);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_per_value),
        cmocka_unit_test(test_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
