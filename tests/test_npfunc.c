/* The runtime behind np.ediff1d / np.trapezoid in kernels
 * (common/npfunc.c) and its lowering, for what the Numba oracle cannot
 * reach cheaply: raveling of negative-stride and 0-d operands, integer
 * wrapping and safe casts, broadcasting of x against y, the empty last
 * axis, NaN/inf and the complex NaN of an infinite part; through uf_call
 * the ValueError of shapes that do not broadcast, a refusal at
 * file:line:col and out of memory at every allocation reaching the caller
 * as UF_ERR_NOMEM with nothing left behind. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "common/npfunc.h"
#include "common/nrt.h"
#include "test_util.h"

static uf__np_operand op(const void *data, int64_t nd, const int64_t *shape,
                         const int64_t *strides, uf_dtype dt)
{
    uf__np_operand o = {(const char *)data, nd, shape, strides, (int32_t)dt};
    return o;
}

/* a 2x3 int8 array read with negative strides, raveled and differenced
 * with wrapping; to_begin a 0-d uint8, to_end an int16 pair (safe casts
 * into int32 and int8 results). */
static void test_ediff1d(void **state)
{
    (void)state;
    static const int8_t a[6] = {1, 2, 3, 127, -128, 0};
    /* a[::-1, ::-1]: 0 -128 127 3 2 1 */
    int64_t sh[2] = {2, 3}, st[2] = {-3, -1};
    uf__np_operand ary = op(&a[5], 2, sh, st, UF_INT8);
    static const uint8_t b0 = 200;
    uf__np_operand begin = op(&b0, 0, NULL, NULL, UF_UINT8);
    static const int16_t e[2] = {-7, 300};
    int64_t esh = 2, est = 2;
    uf__np_operand end = op(e, 1, &esh, &est, UF_INT16);
    int8_t out8[5];
    uf__np_ediff1d(&ary, NULL, NULL, (char *)out8, UF_INT8);
    static const int8_t want8[5] = {-128, -1, -124, -1, -1}; /* 255 wraps */
    assert_memory_equal(out8, want8, sizeof want8);
    int32_t out32[8];
    static const int32_t a32[3] = {5, -2147483647 - 1, 2147483647};
    int64_t n3 = 3, s4 = 4;
    uf__np_operand ary32 = op(a32, 1, &n3, &s4, UF_INT32);
    uf__np_ediff1d(&ary32, &end, &begin, (char *)out32, UF_INT32);
    assert_int_equal(out32[0], 200);
    assert_int_equal(out32[1], 2147483643); /* INT_MIN - 5 wraps */
    assert_int_equal(out32[2], -1);
    assert_int_equal(out32[3], -7);
    assert_int_equal(out32[4], 300);
    /* an empty ary: only to_begin; float64 NaN/inf differences */
    int64_t zero = 0;
    uf__np_operand none = op(a32, 1, &zero, &s4, UF_INT32);
    out32[1] = 99;
    uf__np_ediff1d(&none, NULL, &begin, (char *)out32, UF_INT32);
    assert_int_equal(out32[0], 200);
    assert_int_equal(out32[1], 99); /* nothing past the one element */
    static const double f[4] = {1.0, INFINITY, INFINITY, NAN};
    int64_t n4 = 4, s8 = 8;
    uf__np_operand fo = op(f, 1, &n4, &s8, UF_FLOAT64);
    double fout[3];
    uf__np_ediff1d(&fo, NULL, NULL, (char *)fout, UF_FLOAT64);
    assert_true(fout[0] == INFINITY && isnan(fout[1]) && isnan(fout[2]));
}

/* y (2, 3) against x (3,) and against x (2, 1) (a difference of length 0
 * broadcast to y's 2); shapes that do not broadcast; the sums. */
static void test_trapz(void **state)
{
    (void)state;
    static const double y[6] = {1, 2, 4, 0, -1, 1};
    static const double x[3] = {0, 0.5, 2};
    int64_t ysh[2] = {2, 3}, yst[2] = {24, 8}, xsh = 3, xst = 8;
    uf__np_operand yo = op(y, 2, ysh, yst, UF_FLOAT64);
    uf__np_operand xo = op(x, 1, &xsh, &xst, UF_FLOAT64);
    int64_t osh[1];
    assert_int_equal(uf__np_trapz_shape(&yo, &xo, 1, osh), 0);
    assert_int_equal(osh[0], 2);
    double out[4];
    uf__np_trapz(&yo, &xo, 1.0, 0.0, 0, 1, osh, out);
    assert_true(out[0] == 0.5 * 1.5 + 1.5 * 3.0);
    assert_true(out[1] == 0.5 * -0.5 + 1.5 * 0.0);
    /* x of 4: 3 differences against y's 2 averages */
    int64_t x4 = 4;
    uf__np_operand bad = op(x, 1, &x4, &xst, UF_FLOAT64);
    assert_int_equal(uf__np_trapz_shape(&yo, &bad, 1, osh), -1);
    /* y (2, 1): an empty last axis sums to 0 */
    int64_t y1[2] = {2, 1};
    uf__np_operand ye = op(y, 2, y1, yst, UF_FLOAT64);
    out[0] = out[1] = 7;
    assert_int_equal(uf__np_trapz_shape(&ye, NULL, 1, osh), 0);
    uf__np_trapz(&ye, NULL, 2.0, 0.0, 0, 1, osh, out);
    assert_true(out[0] == 0.0 && out[1] == 0.0 && !signbit(out[0]));
    /* int8 y adds in 64 bits: (127 + 127) / 2, no wrap; int64 wraps */
    static const int8_t i8[2] = {127, 127};
    int64_t n2 = 2, s1 = 1, s8 = 8;
    uf__np_operand io = op(i8, 1, &n2, &s1, UF_INT8);
    uf__np_trapz(&io, NULL, 1.0, 0.0, 0, 0, NULL, out);
    assert_true(out[0] == 127.0);
    static const int64_t big[2] = {INT64_MAX, 1};
    uf__np_operand bo = op(big, 1, &n2, &s8, UF_INT64);
    uf__np_trapz(&bo, NULL, 1.0, 0.0, 0, 0, NULL, out);
    assert_true(out[0] == -4611686018427387904.0);
    /* NaN and inf; complex (inf + 1j) / 2 has a NaN imaginary part, and
     * its product with 1 + 0j is NaN in both parts (inf - 0 * NaN) */
    static const double nf[3] = {1.0, INFINITY, NAN};
    int64_t n3 = 3;
    uf__np_operand no = op(nf, 1, &n3, &s8, UF_FLOAT64);
    uf__np_trapz(&no, NULL, 1.0, 0.0, 0, 0, NULL, out);
    assert_true(isnan(out[0]));
    static const double c[4] = {INFINITY, 1.0, 0.0, 0.0};
    int64_t s16 = 16;
    uf__np_operand co = op(c, 1, &n2, &s16, UF_COMPLEX128);
    uf__np_trapz(&co, NULL, 1.0, 0.0, 1, 0, NULL, out);
    assert_true(isnan(out[0]) && isnan(out[1]));
}

static uf_module *module(uf_context *ctx, uf_error *err)
{
    static const char src[] =
        "import numpy as np\n"
        "from numba import njit\n"
        "\n"
        "@njit\n"
        "def trap(y, x):\n"
        "    return np.trapezoid(y, x)\n"
        "\n"
        "@njit\n"
        "def ed(a, b):\n"
        "    return np.ediff1d(a, b, a)\n"
        "\n"
        "@njit\n"
        "def bad(a, b):\n"
        "    return np.ediff1d(a > 0)\n";
    return uf_module_from_string(ctx, "npfunc.py", src, err);
}

static uf_array *vec(const double *x, int64_t n, uf_error *err)
{
    uf_array *a = uf_empty(UF_FLOAT64, 1, &n, UF_ORDER_C, err);
    if (a != NULL && n > 0)
        memcpy(uf_array_data(a), x, sizeof(double) * (size_t)n);
    return a;
}

/* A kernel's results, the ValueError of x and y that do not broadcast,
 * the bool array refused where it is written. */
static void test_kernel(void **state)
{
    (void)state;
    uf_error err;
    uf_context *ctx = uf_context_new(&err);
    uf_assert_ok(ctx != NULL, &err);
    uf_module *mod = module(ctx, &err);
    uf_assert_ok(mod != NULL, &err);
    static const double xa[3] = {1.0, 2.0, 4.0}, xb[2] = {0.5, -1.0};
    uf_array *args[2] = {vec(xa, 3, &err), vec(xb, 2, &err)};
    uf_assert_ok(args[0] != NULL && args[1] != NULL, &err);
    uf_func *ed = uf_module_get(mod, "ed", &err);
    uf_assert_ok(ed != NULL, &err);
    uf_array *out = NULL;
    uf_assert_ok(uf_call(ed, args, 2, &out, 1, NULL, &err) == 0, &err);
    assert_int_equal(uf_array_shape(out)[0], 7);
    static const double want[7] = {1, 2, 4, 1, 2, 0.5, -1};
    assert_memory_equal(uf_array_data(out), want, sizeof want);
    uf_array_release(out);
    uf_func *trap = uf_module_get(mod, "trap", &err);
    uf_assert_ok(trap != NULL, &err);
    out = NULL;
    uf_array *same[2] = {args[0], args[0]};
    uf_assert_ok(uf_call(trap, same, 2, &out, 1, NULL, &err) == 0, &err);
    assert_true(*(const double *)uf_array_data(out) == 1.5 + 6.0);
    uf_array_release(out);
    static const double x4[4] = {0, 1, 2, 3};
    uf_array *four = vec(x4, 4, &err);
    uf_assert_ok(four != NULL, &err);
    uf_array *mis[2] = {args[0], four};
    out = NULL;
    assert_int_not_equal(uf_call(trap, mis, 2, &out, 1, NULL, &err), 0);
    uf_array_release(four);
    assert_non_null(strstr(err.message, "ValueError: unable to broadcast"));
    uf_func *bad = uf_module_get(mod, "bad", &err);
    uf_assert_ok(bad != NULL, &err);
    out = NULL;
    assert_int_not_equal(uf_call(bad, args, 2, &out, 1, NULL, &err), 0);
    assert_int_equal(err.line, 14);
    assert_int_equal(err.column, 23);
    assert_non_null(strstr(err.message, "Boolean dtype is unsupported"));
    uf_array_release(args[0]);
    uf_array_release(args[1]);
    uf_module_free(mod);
    uf_context_free(ctx);
}

/* Out of memory at each allocation of a call: UF_ERR_NOMEM, nothing
 * left. */
static void test_out_of_memory(void **state)
{
    (void)state;
    uf_error err;
    uf_context *ctx = uf_context_new(&err);
    uf_assert_ok(ctx != NULL, &err);
    uf_module *mod = module(ctx, &err);
    uf_assert_ok(mod != NULL, &err);
    double x[300];
    for (int i = 0; i < 300; i++)
        x[i] = (double)(i % 17);
    uf_array *args[2] = {vec(x, 300, &err), vec(x, 17, &err)};
    uf_assert_ok(args[0] != NULL && args[1] != NULL, &err);
    uf_func *f = uf_module_get(mod, "ed", &err);
    uf_assert_ok(f != NULL, &err);
    uf_array *out = NULL;
    uf_assert_ok(uf_call(f, args, 2, &out, 1, NULL, &err) == 0, &err);
    uf_array_release(out);
    long nrt = uf__nrt_live(), live = uf__alloc_live();
    int failures = 0;
    for (long k = 1; k < 100; k++) {
        out = NULL;
        uf__alloc_fail_at(k);
        int rc = uf_call(f, args, 2, &out, 1, NULL, &err);
        bool failed = uf__alloc_failed();
        uf__alloc_fail_at(0);
        if (rc == 0) {
            uf_array_release(out);
            if (!failed)
                break;
            continue;
        }
        failures++;
        assert_int_equal(err.code, UF_ERR_NOMEM);
        assert_int_equal(uf__nrt_live(), nrt);
        assert_int_equal(uf__alloc_live(), live);
    }
    if (failures == 0)
        uf_fail_at(__FILE__, __LINE__, "ed: no allocation failed");
    uf_array_release(args[0]);
    uf_array_release(args[1]);
    uf_module_free(mod);
    uf_context_free(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ediff1d),
        cmocka_unit_test(test_trapz),
        cmocka_unit_test(test_kernel),
        cmocka_unit_test(test_out_of_memory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
