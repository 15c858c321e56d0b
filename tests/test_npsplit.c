/* np.split / np.array_split / np.hsplit and loops over homogeneous tuples
 * in kernels (compiler/types/infer_npsplit.c, compiler/lower/
 * lower_npsplit.c, lower.c's lower_for_tuple) through the C API, for what
 * the Numba oracle does not reach: the parts returned are views into the
 * argument's memory (data pointers and strides checked), of a
 * negative-stride and a non-contiguous argument; a write through a part
 * reaches the parent; Numba's run-time errors; refusals at
 * file:line:col; 10^4 calls and 10^4 loop iterations that split freshly
 * allocated arrays leave no NRT block behind; out of memory in a kernel
 * that splits a temporary. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "common/nrt.h"
#include "test_util.h"

static const char src[] =
    "from numba import njit\n"                                   /* 1 */
    "import numpy as np\n"                                       /* 2 */
    "@njit\n"                                                    /* 3 */
    "def parts(a, ax):\n"                                        /* 4 */
    "    return np.array_split(a, 3, axis=ax)\n"                 /* 5 */
    "@njit\n"                                                    /* 6 */
    "def idx(a):\n"                                              /* 7 */
    "    return np.split(a, (-1, 1, 100))\n"                     /* 8 */
    "@njit\n"                                                    /* 9 */
    "def write(a):\n"                                            /* 10 */
    "    p = np.hsplit(a, 2)\n"                                  /* 11 */
    "    p[1][0, 0] = -1.0\n"                                    /* 12 */
    "    for q in p:\n"                                          /* 13 */
    "        q[1, 0] = 5.0\n"                                    /* 14 */
    "    return 0\n"                                             /* 15 */
    "@njit\n"                                                    /* 16 */
    "def even(a):\n"                                             /* 17 */
    "    return np.split(a, 4)[0]\n"                             /* 18 */
    "@njit\n"                                                    /* 19 */
    "def zero(a):\n"                                             /* 20 */
    "    return np.array_split(a, 0)[0]\n"                       /* 21 */
    "@njit\n"                                                    /* 22 */
    "def churn(n):\n"                                            /* 23 */
    "    s = 0.0\n"                                              /* 24 */
    "    for i in range(n):\n"                                   /* 25 */
    "        b = np.arange(7.0) * i\n"                           /* 26 */
    "        for p in np.array_split(b, 3):\n"                   /* 27 */
    "            s += p[-1]\n"                                   /* 28 */
    "    return s\n"                                             /* 29 */
    "@njit\n"                                                    /* 30 */
    "def fresh(n):\n"                                            /* 31 */
    "    return np.split(np.arange(n * 2.0), 2)\n"               /* 32 */
    "@njit\n"                                                    /* 33 */
    "def rt_sections(a, n):\n"                                   /* 34 */
    "    return np.split(a, n)[0]\n"                             /* 35 */
    "@njit\n"                                                    /* 36 */
    "def mixed(a):\n"                                            /* 37 */
    "    s = 0.0\n"                                              /* 38 */
    "    for v in (a, 1.0):\n"                                   /* 39 */
    "        s += 1.0\n"                                         /* 40 */
    "    return s\n"                                             /* 41 */
    "@njit\n"                                                    /* 42 */
    "def ints(k):\n"                                             /* 43 */
    "    s = 0\n"                                                /* 44 */
    "    for v in (k, 2 * k, -k):\n"                             /* 45 */
    "        s = s * 100 + v\n"                                  /* 46 */
    "    return s\n";                                            /* 47 */

static uf_array *scalar_i64(int64_t v, uf_error *err)
{
    uf_array *a = uf_empty(UF_INT64, 0, NULL, UF_ORDER_C, err);
    if (a != NULL)
        *(int64_t *)uf_array_data(a) = v;
    return a;
}

static uf_array *ramp(int nd, const int64_t *shape, uf_error *err)
{
    uf_array *a = uf_empty(UF_FLOAT64, nd, shape, UF_ORDER_C, err);
    if (a == NULL)
        return NULL;
    double *d = uf_array_data(a);
    for (int64_t i = 0; i < uf_array_size(a); i++)
        d[i] = (double)i;
    return a;
}

static int call(uf_module *m, const char *name, uf_array **in, int nin,
                uf_array **out, int nout, uf_error *err)
{
    uf_func *f = uf_module_get(m, name, err);
    if (f == NULL)
        return err->code;
    return uf_call(f, in, nin, out, nout, NULL, err);
}

static void release_all(uf_array **a, int n)
{
    for (int i = 0; i < n; i++) {
        uf_array_release(a[i]);
        a[i] = NULL;
    }
}

/* The parts are views: their data pointers step through the parent's
 * memory by the axis's stride, with the parent's other strides. */
static void test_views(void **state)
{
    (void)state;
    uf_error err;
    uf_context *ctx = uf_context_new(&err);
    uf_assert_ok(ctx != NULL, &err);
    uf_module *m = uf_module_from_string(ctx, "npsplit.py", src, &err);
    uf_assert_ok(m != NULL, &err);
    int64_t s[2] = {4, 7};
    uf_array *a0 = ramp(2, s, &err);
    uf_assert_ok(a0 != NULL, &err);
    uf_array *a = uf_array_slice(a0, "::-1, ::2", &err); /* (4, 4) */
    uf_assert_ok(a != NULL, &err);
    char *base = uf_array_data(a);
    /* axis 1 (as -1): 4 columns into 2, 1, 1 */
    uf_array *out[3] = {0}, *in[2] = {a, scalar_i64(-1, &err)};
    uf_assert_ok(call(m, "parts", in, 2, out, 3, &err) == 0, &err);
    static const int64_t cols[3] = {2, 1, 1}, col0[3] = {0, 2, 3};
    for (int i = 0; i < 3; i++) {
        assert_int_equal(uf_array_ndim(out[i]), 2);
        assert_int_equal(uf_array_shape(out[i])[0], 4);
        assert_int_equal(uf_array_shape(out[i])[1], cols[i]);
        assert_int_equal(uf_array_strides(out[i])[0], -56);
        assert_int_equal(uf_array_strides(out[i])[1], 16);
        assert_ptr_equal(uf_array_data(out[i]), base + 16 * col0[i]);
    }
    /* a[0, 2] is row 3, column 4 of the ramp: 25 */
    assert_true(((double *)uf_array_data(out[1]))[0] == 25.0);
    release_all(out, 3);
    uf_array_release(in[1]);
    /* axis 0: 4 rows into 2, 1, 1, the last row the ramp's first */
    in[1] = scalar_i64(0, &err);
    uf_assert_ok(call(m, "parts", in, 2, out, 3, &err) == 0, &err);
    assert_int_equal(uf_array_shape(out[0])[0], 2);
    assert_int_equal(uf_array_shape(out[2])[1], 4);
    assert_ptr_equal(uf_array_data(out[2]), base - 56 * 3);
    assert_true(((double *)uf_array_data(out[2]))[0] == 0.0);
    release_all(out, 3);
    uf_array_release(in[1]);
    /* indices (-1, 1, 100) of 4 rows: [0, 3), [3, 1) empty, [1, 4), [4, 4) */
    uf_array *ov[4] = {0};
    uf_assert_ok(call(m, "idx", &a, 1, ov, 4, &err) == 0, &err);
    static const int64_t rows[4] = {3, 0, 3, 0};
    for (int i = 0; i < 4; i++)
        assert_int_equal(uf_array_shape(ov[i])[0], rows[i]);
    assert_ptr_equal(uf_array_data(ov[2]), base - 56);
    release_all(ov, 4);
    uf_array_release(a);
    uf_array_release(a0);
    uf_module_free(m);
    uf_context_free(ctx);
}

/* Writes through the parts (by index and by the loop over the tuple)
 * reach the parent; Numba's run-time errors. */
static void test_write_and_errors(void **state)
{
    (void)state;
    uf_error err;
    uf_context *ctx = uf_context_new(&err);
    uf_assert_ok(ctx != NULL, &err);
    uf_module *m = uf_module_from_string(ctx, "npsplit.py", src, &err);
    uf_assert_ok(m != NULL, &err);
    int64_t s[2] = {3, 4};
    uf_array *a = ramp(2, s, &err), *o = NULL;
    uf_assert_ok(a != NULL, &err);
    uf_assert_ok(call(m, "write", &a, 1, &o, 1, &err) == 0, &err);
    uf_array_release(o);
    const double *d = uf_array_data(a);
    assert_true(d[2] == -1.0);                  /* a[0, 2] */
    assert_true(d[4] == 5.0 && d[6] == 5.0);    /* a[1, 0], a[1, 2] */
    assert_true(d[5] == 5.0 && d[7] == 7.0);
    /* 3 rows into 4 sections */
    o = NULL;
    assert_int_equal(call(m, "even", &a, 1, &o, 1, &err), UF_ERR_VALUE);
    assert_non_null(strstr(err.message, "ValueError: array split does not "
                                        "result in an equal division"));
    assert_int_equal(call(m, "zero", &a, 1, &o, 1, &err), UF_ERR_VALUE);
    assert_non_null(strstr(err.message, "ZeroDivisionError"));
    uf_array *out[3] = {0}, *in[2] = {a, scalar_i64(2, &err)};
    assert_int_equal(call(m, "parts", in, 2, out, 3, &err), UF_ERR_VALUE);
    assert_non_null(strstr(err.message, "IndexError: tuple index out of "
                                        "range"));
    assert_null(out[0]);
    uf_array_release(in[1]);
    /* an empty array splits into empty views */
    int64_t e0[2] = {0, 4};
    uf_array *em = ramp(2, e0, &err);
    in[0] = em;
    in[1] = scalar_i64(0, &err);
    uf_assert_ok(call(m, "parts", in, 2, out, 3, &err) == 0, &err);
    for (int i = 0; i < 3; i++) {
        assert_int_equal(uf_array_shape(out[i])[0], 0);
        assert_int_equal(uf_array_shape(out[i])[1], 4);
    }
    release_all(out, 3);
    uf_array_release(in[1]);
    uf_array_release(em);
    int64_t k = 3;
    uf_array *kk = scalar_i64(k, &err);
    uf_assert_ok(call(m, "ints", &kk, 1, &o, 1, &err) == 0, &err);
    assert_int_equal(*(int64_t *)uf_array_data(o), 30600 - 3);
    uf_array_release(o);
    uf_array_release(kk);
    uf_array_release(a);
    uf_module_free(m);
    uf_context_free(ctx);
}

/* What is refused compiling, at its place (and a run-time section count,
 * refused before lists of arrays). */
static void test_refused(void **state)
{
    (void)state;
    uf_error err;
    uf_context *ctx = uf_context_new(&err);
    uf_assert_ok(ctx != NULL, &err);
    uf_module *m = uf_module_from_string(ctx, "npsplit.py", src, &err);
    uf_assert_ok(m != NULL, &err);
    int64_t n = 6;
    uf_array *a = ramp(1, &n, &err), *o = NULL;
    uf_array *in[2] = {a, scalar_i64(2, &err)};
    /* a run-time count: Numba's list of views (tests/test_listarr.c) */
    uf_assert_ok(call(m, "rt_sections", in, 2, &o, 1, &err) == 0, &err);
    assert_int_equal(uf_array_shape(o)[0], 3);
    assert_true(((const double *)uf_array_data(o))[2] == 2.0);
    uf_array_release(o);
    o = NULL;
    assert_int_equal(call(m, "mixed", &a, 1, &o, 1, &err), UF_ERR_TYPING);
    assert_int_equal(err.line, 39);
    assert_int_equal(err.column, 14);
    assert_non_null(strstr(err.message, "literal_unroll"));
    assert_non_null(strstr(err.message, "Invalid use of getiter"));
    uf_array_release(in[1]);
    uf_array_release(a);
    uf_module_free(m);
    uf_context_free(ctx);
}

/* 10^4 calls, and 10^4 iterations of a loop, splitting fresh arrays:
 * no NRT block left behind. */
static void test_no_leak(void **state)
{
    (void)state;
    uf_error err;
    uf_context *ctx = uf_context_new(&err);
    uf_assert_ok(ctx != NULL, &err);
    uf_module *m = uf_module_from_string(ctx, "npsplit.py", src, &err);
    uf_assert_ok(m != NULL, &err);
    uf_array *n = scalar_i64(10000, &err), *o = NULL;
    long live = uf__nrt_live();
    uf_assert_ok(call(m, "churn", &n, 1, &o, 1, &err) == 0, &err);
    /* sum over i of i * (2 + 4 + 6) */
    assert_true(*(double *)uf_array_data(o) == 12.0 * 9999.0 * 10000.0 / 2);
    uf_array_release(o);
    assert_int_equal(uf__nrt_live(), live);
    uf_array *three = scalar_i64(3, &err);
    for (int i = 0; i < 10000; i++) {
        uf_array *out[2] = {0};
        uf_assert_ok(call(m, "fresh", &three, 1, out, 2, &err) == 0, &err);
        if (i == 0) {
            assert_true(((double *)uf_array_data(out[1]))[2] == 5.0);
            assert_int_equal(uf_array_shape(out[1])[0], 3);
        }
        release_all(out, 2);
    }
    assert_int_equal(uf__nrt_live(), live);
    uf_array_release(three);
    uf_array_release(n);
    uf_module_free(m);
    uf_context_free(ctx);
}

/* Out of memory at each allocation of a call that splits a temporary:
 * UF_ERR_NOMEM, nothing left. */
static void test_out_of_memory(void **state)
{
    (void)state;
    uf_error err;
    uf_context *ctx = uf_context_new(&err);
    uf_assert_ok(ctx != NULL, &err);
    uf_module *m = uf_module_from_string(ctx, "npsplit.py", src, &err);
    uf_assert_ok(m != NULL, &err);
    uf_func *f = uf_module_get(m, "fresh", &err);
    uf_assert_ok(f != NULL, &err);
    uf_array *three = scalar_i64(3, &err), *out[2] = {0};
    uf_assert_ok(uf_call(f, &three, 1, out, 2, NULL, &err) == 0, &err);
    release_all(out, 2);
    long nrt = uf__nrt_live(), live = uf__alloc_live();
    int failures = 0;
    for (long k = 1; k < 100; k++) {
        uf__alloc_fail_at(k);
        int rc = uf_call(f, &three, 1, out, 2, NULL, &err);
        bool failed = uf__alloc_failed();
        uf__alloc_fail_at(0);
        if (rc == 0) {
            release_all(out, 2);
            if (!failed)
                break;
            continue;
        }
        failures++;
        assert_int_equal(err.code, UF_ERR_NOMEM);
        assert_int_equal(uf__nrt_live(), nrt);
        assert_int_equal(uf__alloc_live(), live);
    }
    assert_true(failures > 0);
    uf_array_release(three);
    uf_module_free(m);
    uf_context_free(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_views),
        cmocka_unit_test(test_write_and_errors),
        cmocka_unit_test(test_refused),
        cmocka_unit_test(test_no_leak),
        cmocka_unit_test(test_out_of_memory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
