/* Nested tuples returned through uf_call (compiler/host/jit_plain.c,
 * jit_plain_results.c, njit/njit_call.c): `return (a, (b, c))` fills
 * outputs 0, 1 and 2, the leaves depth first, as the C API's one flat
 * list of outputs; numbers come back as 0-d arrays, arrays with a
 * reference to their block each (two views of one block share it, a view
 * of an argument is copied), outputs given by the caller are filled, and
 * every block is freed once the results are released. */
#include <stdio.h>
#include <string.h>

#include "common/alloc.h"
#include "common/nrt.h"
#include "test_util.h"

static const char src[] =
    "from numba import njit\n"
    "import numpy as np\n"
    "@njit\n"
    "def nest(n):\n"
    "    a = np.arange(n) * 1.0\n"
    "    return (n + 1, (a, (a[1:], n * 0.5)))\n"
    "@njit\n"
    "def numbers(x):\n"
    "    return (x, (x + 1, x * 2.0)), x - 1\n"
    "@njit\n"
    "def inner(n):\n"
    "    return (np.ones(n), (n, np.zeros(2, dtype=np.int32)))\n"
    "@njit\n"
    "def outer(n):\n"
    "    t = inner(n)\n"
    "    return t[1], (t[0], 3)\n"
    "@njit\n"
    "def deep(x):\n"
    "    return ((((x,),),),)\n"
    "@njit\n"
    "def of_arg(a):\n"
    "    return (a.sum(), (a[::2], a[1:2]))\n"
    "@njit\n"
    "def loop_made(n):\n"
    "    r = (np.zeros(1), (np.zeros(1), 0))\n"
    "    for i in range(n):\n"
    "        t = np.full(3, i * 1.0)\n"
    "        r = (t, (t[1:], i))\n"
    "    return r\n"
    "@njit\n"
    "def with_none(x):\n"
    "    return (x, (None, x))\n"
    "@njit\n"
    "def with_empty(x):\n"
    "    return (x, ((), x + 1))\n";

static uf_context *ctx;
static uf_module *mod;

static int setup(void **state)
{
    (void)state;
    uf_error err;
    ctx = uf_context_new(&err);
    if (!ctx)
        return -1;
    mod = uf_module_from_string(ctx, "nested_tuples.py", src, &err);
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

static uf_array *i64(int64_t v)
{
    uf_error err;
    uf_array *a = uf_full(UF_INT64, 0, NULL, &v, UF_INT64, UF_ORDER_C, &err);
    uf_assert_ok(a != NULL, &err);
    return a;
}

/* name(in...) into nout fresh results; 0 or the error code. */
static int call_n(const char *name, uf_array **in, int nin, uf_array **res,
                  int nout, uf_error *err)
{
    uf_func *f = uf_module_get(mod, name, err);
    if (!f)
        return err->code;
    for (int k = 0; k < nout; k++)
        res[k] = NULL;
    return uf_call(f, in, nin, res, nout, NULL, err);
}

static void release(uf_array **res, int n)
{
    for (int k = 0; k < n; k++) {
        uf_array_release(res[k]);
        res[k] = NULL;
    }
}

static double f64_at(const uf_array *a, int64_t i)
{
    return *(const double *)((const char *)uf_array_data(a) +
                             i * uf_array_strides(a)[0]);
}

/* (n + 1, (a, (a[1:], n * 0.5))): four outputs, one block behind two */
static void test_arrays_and_numbers(void **state)
{
    (void)state;
    uf_error err;
    uf_array *n = i64(5), *res[4];
    uf_assert_ok(call_n("nest", &n, 1, res, 4, &err) == 0, &err); /* jit */
    release(res, 4);
    long live = uf__nrt_live();
    uf_assert_ok(call_n("nest", &n, 1, res, 4, &err) == 0, &err);
    uf_func *nest = uf_module_get(mod, "nest", &err);
    assert_int_equal(uf_func_nout(nest), 4);
    assert_string_equal(uf_func_result_tree(nest), "(0, (1, (2, 3)))");
    assert_int_equal(uf_array_ndim(res[0]), 0);
    assert_int_equal(uf_array_dtype(res[0]), UF_INT64);
    assert_int_equal(*(int64_t *)uf_array_data(res[0]), 6);
    assert_int_equal(uf_array_ndim(res[1]), 1);
    assert_int_equal(uf_array_shape(res[1])[0], 5);
    assert_int_equal(uf_array_shape(res[2])[0], 4);
    for (int i = 0; i < 5; i++)
        assert_true(f64_at(res[1], i) == i);
    for (int i = 0; i < 4; i++)
        assert_true(f64_at(res[2], i) == i + 1);
    assert_int_equal(uf_array_dtype(res[3]), UF_FLOAT64);
    assert_true(*(double *)uf_array_data(res[3]) == 2.5);
    assert_int_equal(uf__nrt_live(), live + 1); /* a and a[1:] share it */
    uf_array_release(res[1]);
    res[1] = NULL;
    assert_int_equal(uf__nrt_live(), live + 1); /* the view holds it */
    assert_true(f64_at(res[2], 3) == 4.0);
    release(res, 4);
    assert_int_equal(uf__nrt_live(), live);

    /* an empty array: n = 0 gives a of 0 and a[1:] of 0 elements */
    uf_array *z = i64(0);
    uf_assert_ok(call_n("nest", &z, 1, res, 4, &err) == 0, &err);
    assert_int_equal(uf_array_shape(res[1])[0], 0);
    assert_int_equal(uf_array_shape(res[2])[0], 0);
    assert_true(*(double *)uf_array_data(res[3]) == 0.0);
    release(res, 4);
    assert_int_equal(uf__nrt_live(), live);
    uf_array_release(z);

    /* too few or too many outputs: the count of the flattened leaves */
    uf_assert_ok(call_n("nest", &n, 1, res, 2, &err) != 0, &err);
    assert_non_null(strstr(err.message, "returns 4 values"));
    uf_assert_ok(call_n("nest", &n, 1, res, 4, &err) == 0, &err);
    release(res, 4);
    assert_int_equal(uf__nrt_live(), live);
    uf_array_release(n);
}

/* ((x, (x + 1, x * 2.0)), x - 1) of numbers; a tuple one deep in four */
static void test_numbers_and_depth(void **state)
{
    (void)state;
    uf_error err;
    uf_array *x = i64(INT64_MAX), *res[4];
    uf_assert_ok(call_n("numbers", &x, 1, res, 4, &err) == 0, &err);
    assert_int_equal(*(int64_t *)uf_array_data(res[0]), INT64_MAX);
    assert_int_equal(*(int64_t *)uf_array_data(res[1]), INT64_MIN); /* wraps */
    assert_int_equal(uf_array_dtype(res[2]), UF_FLOAT64);
    assert_true(*(double *)uf_array_data(res[2]) == 2.0 * (double)INT64_MAX);
    assert_int_equal(*(int64_t *)uf_array_data(res[3]), INT64_MAX - 1);
    release(res, 4);

    assert_string_equal(uf_func_result_tree(uf_module_get(mod, "numbers",
                                                          &err)),
                        "((0, (1, 2)), 3)");
    uf_func *deep = uf_module_get(mod, "deep", &err);
    assert_null(uf_func_result_tree(deep)); /* not called yet */
    uf_assert_ok(call_n("deep", &x, 1, res, 1, &err) == 0, &err);
    assert_int_equal(*(int64_t *)uf_array_data(res[0]), INT64_MAX);
    assert_string_equal(uf_func_result_tree(deep), "((((0,),),),)");
    release(res, 1);

    /* outputs the caller gives: filled with the same-kind cast */
    uf_array *o[4];
    for (int k = 0; k < 4; k++)
        o[k] = uf_zeros(k == 2 ? UF_FLOAT32 : UF_INT64, 0, NULL, UF_ORDER_C,
                        &err);
    uf_array *seven = i64(7);
    uf_func *f = uf_module_get(mod, "numbers", &err);
    uf_assert_ok(uf_call(f, &seven, 1, o, 4, NULL, &err) == 0, &err);
    assert_int_equal(*(int64_t *)uf_array_data(o[1]), 8);
    assert_true(*(float *)uf_array_data(o[2]) == 14.0f);
    assert_int_equal(*(int64_t *)uf_array_data(o[3]), 6);
    release(o, 4);
    uf_array_release(seven);
    uf_array_release(x);
}

/* njit calling njit: the callee's nested tuple taken apart and nested
 * again; views of an argument copied; blocks made in a loop. */
static void test_callee_args_loops(void **state)
{
    (void)state;
    uf_error err;
    uf_array *n = i64(3), *res[4];
    uf_assert_ok(call_n("outer", &n, 1, res, 4, &err) == 0, &err);
    release(res, 4);
    long live = uf__nrt_live();
    uf_assert_ok(call_n("outer", &n, 1, res, 4, &err) == 0, &err);
    /* ((n, zeros(2, int32)), (ones(n), 3)) */
    assert_int_equal(*(int64_t *)uf_array_data(res[0]), 3);
    assert_int_equal(uf_array_dtype(res[1]), UF_INT32);
    assert_int_equal(uf_array_shape(res[1])[0], 2);
    assert_int_equal(uf_array_shape(res[2])[0], 3);
    assert_true(f64_at(res[2], 2) == 1.0);
    assert_int_equal(*(int64_t *)uf_array_data(res[3]), 3);
    assert_int_equal(uf__nrt_live(), live + 2);
    release(res, 4);
    assert_int_equal(uf__nrt_live(), live);

    uf_array *a = uf_arange(0, 6, 1, UF_FLOAT64, &err);
    uf_assert_ok(a != NULL, &err);
    uf_assert_ok(call_n("of_arg", &a, 1, res, 3, &err) == 0, &err);
    assert_true(*(double *)uf_array_data(res[0]) == 15.0);
    assert_int_equal(uf_array_shape(res[1])[0], 3);
    /* a view of the argument, as in Numba: it sees a's writes */
    assert_true(uf_array_data(res[1]) == uf_array_data(a));
    ((double *)uf_array_data(a))[2] = -1.0;
    assert_true(f64_at(res[1], 1) == -1.0);
    assert_true(f64_at(res[2], 0) == 1.0);
    release(res, 3);
    assert_int_equal(uf__nrt_live(), live);
    uf_array_release(a);

    uf_array *m = i64(50);
    uf_assert_ok(call_n("loop_made", &m, 1, res, 3, &err) == 0, &err);
    assert_int_equal(uf_array_shape(res[0])[0], 3);
    assert_true(f64_at(res[0], 0) == 49.0);
    assert_int_equal(uf_array_shape(res[1])[0], 2);
    assert_int_equal(*(int64_t *)uf_array_data(res[2]), 49);
    assert_int_equal(uf__nrt_live(), live + 1);
    release(res, 3);
    assert_int_equal(uf__nrt_live(), live);
    uf_array_release(m);
    uf_array_release(n);
}

/* None inside a returned tuple: refused where it is written; an empty
 * tuple inside one holds no output. */
static void test_none_and_empty(void **state)
{
    (void)state;
    uf_error err;
    uf_array *x = i64(1), *res[3];
    assert_int_not_equal(call_n("with_none", &x, 1, res, 3, &err), 0);
    printf("with_none: %s\n", err.message);
    assert_non_null(strstr(err.message, "cannot be a tuple element"));
    assert_int_equal(err.line, 32);
    int rc = call_n("with_empty", &x, 1, res, 2, &err);
    printf("with_empty: %s\n", rc ? err.message : "ok");
    uf_assert_ok(rc == 0, &err);
    assert_int_equal(*(int64_t *)uf_array_data(res[1]), 2);
    assert_string_equal(uf_func_result_tree(uf_module_get(mod, "with_empty",
                                                          &err)),
                        "(0, ((), 1))");
    release(res, 2);
    uf_array_release(x);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_arrays_and_numbers),
        cmocka_unit_test(test_numbers_and_depth),
        cmocka_unit_test(test_callee_args_loops),
        cmocka_unit_test(test_none_and_empty),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
