/* The runtime behind numpy.polynomial.polynomial's functions in kernels
 * (common/nppoly.c) and its lowering, for what the Numba oracle cannot
 * reach cheaply: negative-stride and 0-d operands, trailing zeros trimmed
 * to one, the empty series, division by a zero series, the shapes of
 * polyval with and without tensor, NaN/inf; through uf_call a result
 * trimmed, Numba's exceptions, a refusal at file:line:col and out of
 * memory at every allocation reaching the caller as UF_ERR_NOMEM with
 * nothing left behind. */
#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "common/nppoly.h"
#include "common/nrt.h"
#include "test_util.h"

static uf__np_operand op(const void *data, int64_t nd, const int64_t *shape,
                         const int64_t *strides, uf_dtype dt)
{
    uf__np_operand o = {(const char *)data, nd, shape, strides, (int32_t)dt};
    return o;
}

/* polyadd / polysub: an int8 series read backwards (trailing zeros
 * trimmed before padding), a 0-d operand, a sum that cancels to [0],
 * an empty series. */
static void test_addsub(void **state)
{
    (void)state;
    static const int8_t a[5] = {0, 0, 3, -128, 1}; /* backwards: 1 -128 3 */
    int64_t n5 = 5, sm1 = -1;
    uf__np_operand ao = op(&a[4], 1, &n5, &sm1, UF_INT8);
    static const double two = 2.0;
    uf__np_operand so = op(&two, 0, NULL, NULL, UF_FLOAT64);
    double out[8];
    assert_int_equal(uf__np_polyaddsub(&ao, &so, 0, 0, out), 3);
    assert_true(out[0] == 3.0 && out[1] == -128.0 && out[2] == 3.0);
    assert_int_equal(uf__np_polyaddsub(&so, &ao, 1, 0, out), 3);
    assert_true(out[0] == 1.0 && out[1] == 128.0 && out[2] == -3.0);
    static const double b[3] = {1.0, -128.0, 3.0};
    int64_t n3 = 3, s8 = 8;
    uf__np_operand bo = op(b, 1, &n3, &s8, UF_FLOAT64);
    assert_int_equal(uf__np_polyaddsub(&ao, &bo, 1, 0, out), 1);
    assert_true(out[0] == 0.0 && !signbit(out[0]));
    int64_t n0 = 0;
    uf__np_operand eo = op(b, 1, &n0, &s8, UF_FLOAT64);
    assert_int_equal(uf__np_polyaddsub(&eo, &bo, 0, 0, out),
                     UF__NPPOLY_EMPTY);
    /* complex: (1 + 1j) + inf keeps its NaN-free parts; NaN stays */
    static const double c[4] = {1.0, 1.0, NAN, 0.0};
    int64_t n2 = 2, s16 = 16;
    uf__np_operand co = op(c, 1, &n2, &s16, UF_COMPLEX128);
    assert_int_equal(uf__np_polyaddsub(&co, &bo, 0, 1, out), 3);
    assert_true(out[0] == 2.0 && out[1] == 1.0 && isnan(out[2]));
    assert_true(out[4] == 3.0 && out[5] == 0.0);
}

/* polymul of (1 + 2x)(1 - 2x) = 1 - 4x^2, of a zero series, of an empty
 * one. */
static void test_mul(void **state)
{
    (void)state;
    static const double a[3] = {1.0, 2.0, 0.0}, b[2] = {1.0, -2.0};
    int64_t n3 = 3, n2 = 2, s8 = 8, n0 = 0;
    uf__np_operand ao = op(a, 1, &n3, &s8, UF_FLOAT64);
    uf__np_operand bo = op(b, 1, &n2, &s8, UF_FLOAT64);
    double out[8];
    assert_int_equal(uf__np_polymul(&ao, &bo, 0, out), 3);
    assert_true(out[0] == 1.0 && out[1] == 0.0 && out[2] == -4.0);
    static const double z[2] = {0.0, 0.0};
    uf__np_operand zo = op(z, 1, &n2, &s8, UF_FLOAT64);
    assert_int_equal(uf__np_polymul(&ao, &zo, 0, out), 1);
    assert_true(out[0] == 0.0);
    uf__np_operand eo = op(a, 1, &n0, &s8, UF_FLOAT64);
    assert_int_equal(uf__np_polymul(&ao, &eo, 0, out), UF__NPPOLY_EMPTY);
    uf__alloc_fail_at(1);
    assert_int_equal(uf__np_polymul(&ao, &bo, 0, out), UF__NPPOLY_NOMEM);
    uf__alloc_fail_at(2);
    assert_int_equal(uf__np_polymul(&ao, &bo, 0, out), UF__NPPOLY_NOMEM);
    uf__alloc_fail_at(0);
}

/* polydiv: (1 + 2x + 3x^2) / (1 + 2x) = 0.25 + 1.5x rem 0.75; a shorter
 * dividend; a divisor of one term; a zero divisor. */
static void test_div(void **state)
{
    (void)state;
    static const double a[3] = {1.0, 2.0, 3.0}, b[3] = {1.0, 2.0, 0.0};
    int64_t n3 = 3, n1 = 1, s8 = 8;
    uf__np_operand ao = op(a, 1, &n3, &s8, UF_FLOAT64);
    uf__np_operand bo = op(b, 1, &n3, &s8, UF_FLOAT64);
    double q[4], r[4];
    int64_t nr = -7;
    assert_int_equal(uf__np_polydiv(&ao, &bo, 0, q, r, &nr), 2);
    assert_true(q[0] == 0.25 && q[1] == 1.5);
    assert_int_equal(nr, 1);
    assert_true(r[0] == 0.75);
    assert_int_equal(uf__np_polydiv(&bo, &ao, 0, q, r, &nr), 1);
    assert_true(q[0] == 0.0);
    assert_int_equal(nr, 2);
    assert_true(r[0] == 1.0 && r[1] == 2.0);
    static const int64_t four = -4;
    uf__np_operand fo = op(&four, 0, NULL, NULL, UF_INT64);
    assert_int_equal(uf__np_polydiv(&ao, &fo, 0, q, r, &nr), 3);
    assert_true(q[0] == -0.25 && q[1] == -0.5 && q[2] == -0.75);
    assert_int_equal(nr, 1);
    assert_true(r[0] == 0.0);
    static const double z[3] = {0.0, 0.0, 0.0};
    uf__np_operand zo = op(z, 1, &n3, &s8, UF_FLOAT64);
    assert_int_equal(uf__np_polydiv(&ao, &zo, 0, q, r, &nr),
                     UF__NPPOLY_ZERODIV);
    uf__np_operand e = op(z, 1, &n1, &s8, UF_FLOAT64);
    assert_int_equal(uf__np_polydiv(&e, &ao, 0, q, r, &nr), 1);
    assert_int_equal(nr, 1);
}

/* polyint of [1, 2, 3] twice, of a (2, 2) c down its rows, of an empty
 * c; inf * 0 is NaN in the constant term. */
static void test_int(void **state)
{
    (void)state;
    static const double c[3] = {1.0, 2.0, 3.0};
    int64_t n3 = 3, s8 = 8, n0 = 0;
    uf__np_operand co = op(c, 1, &n3, &s8, UF_FLOAT64);
    double out[16];
    assert_int_equal(uf__np_polyint(&co, 2, 0, 1, out), 5);
    assert_true(out[0] == 0.0 && out[1] == 0.0 && out[2] == 0.5);
    assert_true(out[3] == 1.0 / 3.0 && out[4] == 0.25);
    static const int32_t m[4] = {1, 2, 3, 4};
    int64_t sh[2] = {2, 2}, st[2] = {4, 8}; /* read as its transpose */
    uf__np_operand mo = op(m, 2, sh, st, UF_INT32);
    assert_int_equal(uf__np_polyint(&mo, 1, 0, 0, out), 3);
    assert_true(out[0] == 0.0 && out[1] == 0.0 && out[2] == 1.0 &&
                out[3] == 3.0 && out[4] == 1.0 && out[5] == 2.0);
    uf__np_operand eo = op(c, 1, &n0, &s8, UF_FLOAT64);
    assert_int_equal(uf__np_polyint(&eo, 1, 0, 1, out), UF__NPPOLY_INDEX);
    assert_int_equal(uf__np_polyint(&eo, 0, 0, 1, out), 0);
    static const double inf[1] = {INFINITY};
    int64_t n1 = 1;
    uf__np_operand io = op(inf, 1, &n1, &s8, UF_FLOAT64);
    assert_int_equal(uf__np_polyint(&io, 1, 0, 1, out), 2);
    assert_true(isnan(out[0]) && out[1] == INFINITY);
}

/* polyval's shapes: c (3, 2) with x (4,): (2, 4) with tensor, a
 * ValueError without; Horner's values; inf x gives NaN (x * 0). */
static void test_val(void **state)
{
    (void)state;
    static const double c[6] = {1, 10, 2, 20, 3, 30};
    int64_t csh[2] = {3, 2}, cst[2] = {16, 8};
    uf__np_operand co = op(c, 2, csh, cst, UF_FLOAT64);
    static const double x[4] = {0.0, 1.0, -1.0, INFINITY};
    int64_t xn = 4, xs = 8;
    uf__np_operand xo = op(x, 1, &xn, &xs, UF_FLOAT64);
    int64_t shape[2];
    assert_int_equal(uf__np_polyval_shape(&co, &xo, 1, 2, shape), 0);
    assert_true(shape[0] == 2 && shape[1] == 4);
    assert_int_equal(uf__np_polyval_shape(&co, &xo, 0, 1, shape),
                     UF__NPPOLY_BCAST);
    double out[8];
    assert_int_equal(uf__np_polyval_shape(&co, &xo, 1, 2, shape), 0);
    uf__np_polyval(&co, &xo, 1, 0, 2, shape, out);
    assert_true(out[0] == 1 && out[1] == 6 && out[2] == 2 && isnan(out[3]));
    assert_true(out[4] == 10 && out[5] == 60 && out[6] == 20);
    int64_t c0[2] = {0, 2};
    uf__np_operand eo = op(c, 2, c0, cst, UF_FLOAT64);
    assert_int_equal(uf__np_polyval_shape(&eo, &xo, 1, 2, shape),
                     UF__NPPOLY_INDEX);
    /* c (3,) int64 read backwards at a 0-d complex x = 1j */
    static const int64_t ci[3] = {3, 2, 1}; /* backwards: 1 2 3 */
    int64_t n3 = 3, sm8 = -8;
    uf__np_operand cio = op(&ci[2], 1, &n3, &sm8, UF_INT64);
    static const double j[2] = {0.0, 1.0};
    uf__np_operand jo = op(j, 0, NULL, NULL, UF_COMPLEX128);
    uf__np_polyval(&cio, &jo, 1, 1, 0, NULL, out);
    assert_true(out[0] == 1.0 - 3.0 && out[1] == 2.0); /* 1 + 2j - 3 */
}

/* trimseq's length: negative strides, all zeros (one left), empty. */
static void test_trim(void **state)
{
    (void)state;
    static const int16_t a[4] = {0, 0, 5, 7}; /* backwards: 7 5 0 0 */
    int64_t n4 = 4, sm2 = -2, s2 = 2, n0 = 0;
    uf__np_operand ao = op(&a[3], 1, &n4, &sm2, UF_INT16);
    assert_int_equal(uf__np_trimlen(&ao), 2);
    uf__np_operand fo = op(a, 1, &n4, &s2, UF_INT16);
    assert_int_equal(uf__np_trimlen(&fo), 4);
    static const double z[2] = {0.0, -0.0};
    int64_t n2 = 2, s8 = 8;
    uf__np_operand zo = op(z, 1, &n2, &s8, UF_FLOAT64);
    assert_int_equal(uf__np_trimlen(&zo), 1);
    uf__np_operand eo = op(z, 1, &n0, &s8, UF_FLOAT64);
    assert_int_equal(uf__np_trimlen(&eo), 0);
}

/* np.roots: (x - 1)(x - 2) x^2 with a leading zero, read backwards as
 * int64; complex roots; a NaN; no nonzero; the companion matrix's
 * allocation failing. */
static void test_roots(void **state)
{
    (void)state;
    static const int64_t p[6] = {0, 0, 2, -3, 1, 0}; /* backwards */
    int64_t n6 = 6, sm8 = -8, s8 = 8, n3 = 3;
    uf__np_operand po = op(&p[5], 1, &n6, &sm8, UF_INT64);
    double out[8];
    assert_int_equal(uf__np_roots(&po, UF_FLOAT64, (char *)out), 4);
    double lo = out[0] < out[1] ? out[0] : out[1];
    double hi = out[0] < out[1] ? out[1] : out[0];
    assert_true(fabs(lo - 1.0) < 1e-12 && fabs(hi - 2.0) < 1e-12);
    assert_true(out[2] == 0.0 && out[3] == 0.0);
    static const double c[3] = {1.0, 0.0, 1.0}, nan[3] = {1.0, NAN, 1.0};
    uf__np_operand co = op(c, 1, &n3, &s8, UF_FLOAT64);
    assert_int_equal(uf__np_roots(&co, UF_FLOAT64, (char *)out),
                     UF__NPPOLY_DOMAIN);
    uf__np_operand no = op(nan, 1, &n3, &s8, UF_FLOAT64);
    assert_int_equal(uf__np_roots(&no, UF_FLOAT64, (char *)out),
                     UF__NPPOLY_NONFINITE);
    static const double z[3] = {0.0, 0.0, 0.0};
    uf__np_operand zo = op(z, 1, &n3, &s8, UF_FLOAT64);
    assert_int_equal(uf__np_roots(&zo, UF_FLOAT64, (char *)out), 0);
    uf__alloc_fail_at(1);
    assert_int_equal(uf__np_roots(&po, UF_FLOAT64, (char *)out),
                     UF__NPPOLY_NOMEM);
    uf__alloc_fail_at(0);
    /* complex: x^2 + 1 = (x - i)(x + i) read backwards with a trailing
     * zero (one root 0), x^2 - 2i x - 1 = (x - i)^2; inf; out of memory
     * at each of the solver's allocations */
    static const double complex cp[4] = {0, 1, 0, 1}, dp[3] = {1, -2 * I, -1};
    double complex cout[4];
    int64_t n4 = 4, sm16 = -16, s16 = 16;
    uf__np_operand cpo = op(&cp[3], 1, &n4, &sm16, UF_COMPLEX128);
    assert_int_equal(uf__np_roots(&cpo, UF_COMPLEX128, (char *)cout), 3);
    double complex r0 = cimag(cout[0]) < cimag(cout[1]) ? cout[0] : cout[1];
    double complex r1 = cimag(cout[0]) < cimag(cout[1]) ? cout[1] : cout[0];
    assert_true(cabs(r0 + I) < 1e-12 && cabs(r1 - I) < 1e-12);
    assert_true(cout[2] == 0);
    uf__np_operand dpo = op(dp, 1, &n3, &s16, UF_COMPLEX128);
    assert_int_equal(uf__np_roots(&dpo, UF_COMPLEX128, (char *)cout), 2);
    assert_true(cabs(cout[0] - I) < 1e-7 && cabs(cout[1] - I) < 1e-7);
    static const double complex ip[3] = {1, INFINITY, 1};
    uf__np_operand ipo = op(ip, 1, &n3, &s16, UF_COMPLEX128);
    assert_int_equal(uf__np_roots(&ipo, UF_COMPLEX128, (char *)cout),
                     UF__NPPOLY_NONFINITE);
    int nomem = 0;
    for (long k = 1; k < 10; k++) {
        uf__alloc_fail_at(k);
        int64_t rc = uf__np_roots(&cpo, UF_COMPLEX128, (char *)cout);
        bool failed = uf__alloc_failed();
        uf__alloc_fail_at(0);
        if (!failed) {
            assert_int_equal(rc, 3);
            break;
        }
        assert_int_equal(rc, UF__NPPOLY_NOMEM);
        nomem++;
    }
    assert_true(nomem >= 2);
    assert_int_equal(uf__alloc_live(), 0);
}

static uf_module *module(uf_context *ctx, uf_error *err)
{
    static const char src[] =
        "from numba import njit\n"
        "from numpy.polynomial import polynomial as P\n"
        "from numpy.polynomial import polyutils as pu\n"
        "\n"
        "@njit\n"
        "def mul(a, b):\n"
        "    return P.polymul(a, b)\n"
        "\n"
        "@njit\n"
        "def div(a, b):\n"
        "    q, r = P.polydiv(a, b)\n"
        "    return r\n"
        "\n"
        "@njit\n"
        "def bad(a, b):\n"
        "    return pu.trimseq((1.0, 2.0))\n";
    return uf_module_from_string(ctx, "nppoly.py", src, err);
}

static uf_array *vec(const double *x, int64_t n, uf_error *err)
{
    uf_array *a = uf_empty(UF_FLOAT64, 1, &n, UF_ORDER_C, err);
    if (a != NULL && n > 0)
        memcpy(uf_array_data(a), x, sizeof(double) * (size_t)n);
    return a;
}

/* A kernel's trimmed result, ZeroDivisionError, a tuple refused where it
 * is written. */
static void test_kernel(void **state)
{
    (void)state;
    uf_error err;
    uf_context *ctx = uf_context_new(&err);
    uf_assert_ok(ctx != NULL, &err);
    uf_module *mod = module(ctx, &err);
    uf_assert_ok(mod != NULL, &err);
    static const double xa[3] = {1.0, 2.0, 0.0}, xb[2] = {1.0, -2.0};
    uf_array *args[2] = {vec(xa, 3, &err), vec(xb, 2, &err)};
    uf_assert_ok(args[0] != NULL && args[1] != NULL, &err);
    uf_func *mul = uf_module_get(mod, "mul", &err);
    uf_assert_ok(mul != NULL, &err);
    uf_array *out = NULL;
    uf_assert_ok(uf_call(mul, args, 2, &out, 1, NULL, &err) == 0, &err);
    assert_int_equal(uf_array_shape(out)[0], 3);
    static const double want[3] = {1.0, 0.0, -4.0};
    assert_memory_equal(uf_array_data(out), want, sizeof want);
    uf_array_release(out);
    static const double zz[2] = {0.0, 0.0};
    uf_array *zero = vec(zz, 2, &err);
    uf_assert_ok(zero != NULL, &err);
    uf_array *dz[2] = {args[0], zero};
    uf_func *div = uf_module_get(mod, "div", &err);
    uf_assert_ok(div != NULL, &err);
    out = NULL;
    assert_int_not_equal(uf_call(div, dz, 2, &out, 1, NULL, &err), 0);
    assert_non_null(strstr(err.message, "ZeroDivisionError"));
    uf_array *ez[2] = {args[0], NULL};
    ez[1] = uf_empty(UF_FLOAT64, 1, (int64_t[]){0}, UF_ORDER_C, &err);
    uf_assert_ok(ez[1] != NULL, &err);
    out = NULL;
    assert_int_not_equal(uf_call(div, ez, 2, &out, 1, NULL, &err), 0);
    assert_non_null(strstr(err.message, "ValueError: Coefficient array is "
                                        "empty"));
    uf_array_release(ez[1]);
    uf_array_release(zero);
    uf_func *bad = uf_module_get(mod, "bad", &err);
    uf_assert_ok(bad != NULL, &err);
    out = NULL;
    assert_int_not_equal(uf_call(bad, args, 2, &out, 1, NULL, &err), 0);
    assert_int_equal(err.line, 16);
    assert_int_equal(err.column, 23);
    assert_non_null(strstr(err.message, "must be a 1-d array"));
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
        x[i] = (double)(i % 17) + 1.0;
    uf_array *args[2] = {vec(x, 300, &err), vec(x, 17, &err)};
    uf_assert_ok(args[0] != NULL && args[1] != NULL, &err);
    uf_func *f = uf_module_get(mod, "mul", &err);
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
    if (failures < 3) /* the result and the runtime's two copies */
        uf_fail_at(__FILE__, __LINE__, "mul: fewer than 3 failures");
    uf_array_release(args[0]);
    uf_array_release(args[1]);
    uf_module_free(mod);
    uf_context_free(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_addsub), cmocka_unit_test(test_mul),
        cmocka_unit_test(test_div),    cmocka_unit_test(test_int),
        cmocka_unit_test(test_val),    cmocka_unit_test(test_trim),
        cmocka_unit_test(test_roots),  cmocka_unit_test(test_kernel),
        cmocka_unit_test(test_out_of_memory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
