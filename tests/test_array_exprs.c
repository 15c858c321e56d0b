/* Whole-array expressions inside kernels (compiler/types/infer_arrexpr.c,
 * compiler/lower/lower_arrexpr.c) through uf_call, with NumPy's answers
 * computed here: the fused store on cpu, parallel and the CUDA target
 * (cudasim here; tests/cmake/array_exprs.cmake's _gpu run on a GPU), the
 * CUDA kernel's PTX through ptxas, empty and non-contiguous and reversed
 * operands, NaN and inf, int32 wrap-around, integer division by zero
 * (0, NumPy's and Numba's), int32 + float32 (float32, as Numba), an
 * overlapping augmented assignment (NumPy's copy of the operand), shapes
 * that do not broadcast, and the refusal of an expression that would
 * need allocation. tests/e2e/run_arrexpr_oracle.py holds the Numba
 * oracle of the kernel corpus. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cuda_test_target.h"
#include "nvvm_util.h"
#include "test_util.h"

#include "common/nrt.h"

static const char src[] =
    "from numba import njit, guvectorize\n"
    "import numpy as np\n"
    "@guvectorize(['void(float64[:], float64[:], float64, float64[:])'],\n"
    "             '(n),(n),()->(n)')\n"
    "def axpb(x, w, b, out):\n"
    "    out[:] = np.where(x != x, x, x * w + b)\n"
    "@guvectorize(['void(float32[:], int32[:], float32[:])'], '(n),(n)->(n)')\n"
    "def mix(x, y, out):\n"
    "    out[:] = x + y\n"
    "@njit\n"
    "def wrap(a, b, out):\n"
    "    out[:] = a + b\n"
    "@njit\n"
    "def idiv(a, b, q, r):\n"
    "    q[:] = a // b\n"
    "    r[:] = a % b\n"
    "@njit\n"
    "def aug_shift(a):\n"
    "    a[1:] += a[:-1]\n"
    "@njit\n"
    "def add_into(out, x, y):\n"
    "    out[...] = x + y\n"
    "@njit\n"
    "def bound(a):\n"
    "    c = a * 2.0\n"
    "    return c[0]\n";

static uf_context *ctx;
static uf_module *mod;

static int setup(void **state)
{
    (void)state;
    uf_error err;
    ctx = uf_context_new(&err);
    if (!ctx)
        return -1;
    mod = uf_module_from_string(ctx, "arrexpr_c.py", src, &err);
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

static uf_array *wrap1(uf_dtype dt, int64_t n, void *data)
{
    uf_error err;
    uf_array *a = uf_array_wrap(dt, 1, &n, NULL, data, true, NULL, NULL,
                                &err);
    uf_assert_ok(a != NULL, &err);
    return a;
}

static uf_array *view(uf_array *a, const char *expr)
{
    uf_error err;
    uf_array *v = uf_array_slice(a, expr, &err);
    uf_assert_ok(v != NULL, &err);
    return v;
}

static double at(const uf_array *a, int64_t i)
{
    return *(const double *)((const char *)uf_array_data(a) +
                             i * uf_array_strides(a)[0]);
}

/* out = where(isnan(x), x, x * w + b) for n elements of x viewed by
 * `xv` (a slice of 2n elements, NaN and inf among them). */
static void check_axpb(const char *target, const char *xv, int64_t n)
{
    uf_error err;
    double xs[41], ws[41];
    for (int i = 0; i < 41; i++) {
        xs[i] = i % 7 == 3 ? NAN : i % 11 == 5 ? -INFINITY : i * 0.25 - 3;
        ws[i] = i % 5 == 1 ? INFINITY : 1.5 - i * 0.125;
    }
    uf_array *xb = wrap1(UF_FLOAT64, 2 * n, xs);
    uf_array *wb = wrap1(UF_FLOAT64, 2 * n, ws);
    uf_array *x = view(xb, xv), *w = view(wb, "1::2");
    double b = -0.5;
    uf_array *bs = uf_full(UF_FLOAT64, 0, NULL, &b, UF_FLOAT64, UF_ORDER_C,
                           &err);
    uf_assert_ok(bs != NULL, &err);
    assert_int_equal(uf_array_shape(x)[0], n);
    uf_array *in[3] = {x, w, bs}, *out = NULL;
    uf_call_options o = {.size = sizeof o, .target = target};
    uf_assert_ok(uf_call(fn("axpb"), in, 3, &out, 1, &o, &err) == 0, &err);
    assert_int_equal(uf_array_shape(out)[0], n);
    for (int64_t i = 0; i < n; i++) {
        double xi = at(x, i), want = isnan(xi) ? xi : xi * at(w, i) + b;
        double got = at(out, i);
        if (!(got == want || (isnan(got) && isnan(want))))
            fail_msg("%s %s i=%lld: got %g, want %g", target, xv,
                     (long long)i, got, want);
    }
    uf_array_release(out);
    uf_array_release(bs);
    uf_array_release(x);
    uf_array_release(w);
    uf_array_release(xb);
    uf_array_release(wb);
}

static void test_axpb_on_each_target(void **state)
{
    (void)state;
    const char *targets[] = {"cpu", "parallel", cuda_test_target()};
    static const char *views[] = {"::2", "-1::-2", "1::2", ":0"};
    for (int t = 0; t < 3; t++)
        for (int v = 0; v < 4; v++)
            for (int64_t n = 1; n <= 20; n += 19)
                check_axpb(targets[t], views[v], v == 3 ? 0 : n);
}

/* The CUDA kernel of the fused loop goes through ptxas (the listing has
 * its register counts only when ptxas accepted it). */
static void test_ptx_passes_ptxas(void **state)
{
    (void)state;
    if (!nvvm_have_libnvvm() || !nvvm_have_ptxas())
        return;
    uf_error err;
    char *s = uf_func_inspect(fn("axpb"), NULL, UF_INSPECT_PTX, &err);
    uf_assert_ok(s != NULL, &err);
    assert_non_null(strstr(s, ".entry"));
    assert_non_null(strstr(s, "ptxas info    : Used"));
    assert_null(strstr(s, "error"));
    uf_free(s);
}

static void test_int32_plus_float32(void **state)
{
    (void)state;
    uf_error err;
    float xs[5] = {0.1f, -2.5f, 3e38f, NAN, 16777216.0f};
    int32_t ys[5] = {7, -3, 2147483647, 1, 1};
    uf_array *in[2] = {wrap1(UF_FLOAT32, 5, xs), wrap1(UF_INT32, 5, ys)};
    uf_array *out = NULL;
    uf_assert_ok(uf_call(fn("mix"), in, 2, &out, 1, NULL, &err) == 0, &err);
    assert_int_equal(uf_array_dtype(out), UF_FLOAT32);
    const float *r = uf_array_data(out);
    for (int i = 0; i < 5; i++) {
        /* Numba: the scalar x + y in float64, then float32 */
        float want = (float)((double)xs[i] + (double)ys[i]);
        if (!(r[i] == want || (isnan(r[i]) && isnan(want))))
            fail_msg("i=%d: got %.9g want %.9g", i, r[i], want);
    }
    uf_array_release(out);
    uf_array_release(in[0]);
    uf_array_release(in[1]);
}

static void test_int_wrap_and_division_by_zero(void **state)
{
    (void)state;
    uf_error err;
    int32_t a[4] = {INT32_MAX, INT32_MIN, -7, 5}, b[4] = {1, -1, 2, 0};
    int32_t o[4];
    uf_array *in[3] = {wrap1(UF_INT32, 4, a), wrap1(UF_INT32, 4, b),
                       wrap1(UF_INT32, 4, o)};
    uf_array *ret = NULL;
    uf_assert_ok(uf_call(fn("wrap"), in, 3, &ret, 0, NULL, &err) == 0, &err);
    assert_int_equal(o[0], INT32_MIN);
    assert_int_equal(o[1], INT32_MAX);
    assert_int_equal(o[2], -5);
    assert_int_equal(o[3], 5);
    int64_t x[5] = {7, -7, 5, 0, INT64_MIN}, y[5] = {2, 2, 0, 0, -1};
    int64_t q[5], r[5];
    uf_array *in2[4] = {wrap1(UF_INT64, 5, x), wrap1(UF_INT64, 5, y),
                        wrap1(UF_INT64, 5, q), wrap1(UF_INT64, 5, r)};
    uf_assert_ok(uf_call(fn("idiv"), in2, 4, &ret, 0, NULL, &err) == 0,
                 &err);
    /* Numba's scalar // in NumPy's error model: x // 0 and x % 0 are 0,
     * and so is INT64_MIN // -1 (NumPy's own ufunc gives INT64_MIN) */
    int64_t wq[5] = {3, -4, 0, 0, 0}, wr[5] = {1, 1, 0, 0, 0};
    for (int i = 0; i < 5; i++) {
        assert_int_equal(q[i], wq[i]);
        assert_int_equal(r[i], wr[i]);
    }
    for (int i = 0; i < 3; i++)
        uf_array_release(in[i]);
    for (int i = 0; i < 4; i++)
        uf_array_release(in2[i]);
}

/* a[1:] += a[:-1] as NumPy: the overlapping operand read before any
 * write, on the array and on a reversed view of it. */
static void test_overlapping_augmented_assignment(void **state)
{
    (void)state;
    uf_error err;
    double a[6] = {0, 1, 2, 3, 4, 5};
    uf_array *base = wrap1(UF_FLOAT64, 6, a), *ret = NULL;
    uf_assert_ok(uf_call(fn("aug_shift"), &base, 1, &ret, 0, NULL, &err) ==
                     0,
                 &err);
    double w1[6] = {0, 1, 3, 5, 7, 9};
    for (int i = 0; i < 6; i++)
        assert_true(a[i] == w1[i]);
    double b[6] = {0, 1, 2, 3, 4, 5};
    uf_array *bb = wrap1(UF_FLOAT64, 6, b), *rv = view(bb, "::-1");
    uf_assert_ok(uf_call(fn("aug_shift"), &rv, 1, &ret, 0, NULL, &err) == 0,
                 &err);
    /* the view [5 4 3 2 1 0] becomes [5 9 7 5 3 1] */
    double w2[6] = {1, 3, 5, 7, 9, 5};
    for (int i = 0; i < 6; i++)
        assert_true(b[i] == w2[i]);
    uf_array_release(rv);
    uf_array_release(bb);
    uf_array_release(base);
}

static void test_broadcasting(void **state)
{
    (void)state;
    uf_error err;
    int64_t s23[2] = {2, 3}, s21[2] = {2, 1};
    uf_array *out = uf_zeros(UF_FLOAT64, 2, s23, UF_ORDER_C, &err);
    uf_array *x = uf_arange(0, 3, 1, UF_FLOAT64, &err);
    uf_array *y = uf_arange(10, 30, 10, UF_FLOAT64, &err);
    uf_array *y21 = uf_array_reshape(y, 2, s21, UF_ORDER_C, false, &err);
    uf_assert_ok(y21 != NULL, &err);
    uf_array *in[3] = {out, x, y21}, *ret = NULL;
    uf_assert_ok(uf_call(fn("add_into"), in, 3, &ret, 0, NULL, &err) == 0,
                 &err);
    const double *o = uf_array_data(out);
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 3; j++)
            assert_true(o[i * 3 + j] == 10.0 * (i + 1) + j);
    /* (3,) + (2,): the operands do not broadcast together */
    uf_array *x2 = uf_arange(0, 2, 1, UF_FLOAT64, &err);
    uf_array *o3 = uf_zeros(UF_FLOAT64, 1, (int64_t[]){3}, UF_ORDER_C, &err);
    uf_array *bad[3] = {o3, x, x2};
    assert_int_equal(uf_call(fn("add_into"), bad, 3, &ret, 0, NULL, &err),
                     UF_ERR_VALUE);
    assert_non_null(strstr(err.message, "operands could not be broadcast "
                                        "together with shapes (3,) (2,)"));
    /* (3,) + (3,) into (2, 3) broadcasts; into (4,) it does not */
    uf_array *o4 = uf_zeros(UF_FLOAT64, 1, (int64_t[]){4}, UF_ORDER_C, &err);
    uf_array *bad2[3] = {o4, x, x};
    assert_int_equal(uf_call(fn("add_into"), bad2, 3, &ret, 0, NULL, &err),
                     UF_ERR_VALUE);
    assert_non_null(strstr(err.message, "cannot assign slice of shape (4,) "
                                        "from input of shape (3,)"));
    /* empty: nothing written, nothing raised */
    uf_array *e0 = uf_zeros(UF_FLOAT64, 1, (int64_t[]){0}, UF_ORDER_C, &err);
    uf_array *empty[3] = {e0, e0, e0};
    uf_assert_ok(uf_call(fn("add_into"), empty, 3, &ret, 0, NULL, &err) == 0,
                 &err);
    uf_array *rel[] = {out, x, y, y21, x2, o3, o4, e0};
    for (size_t i = 0; i < sizeof rel / sizeof *rel; i++)
        uf_array_release(rel[i]);
}

/* An array expression bound to a variable is a new array (allocated in
 * the kernel, released when it returns). */
static void test_bound_to_a_variable(void **state)
{
    (void)state;
    uf_error err;
    double a[3] = {1, 2, 3};
    uf_array *x = wrap1(UF_FLOAT64, 3, a), *ret = NULL;
    long live = uf__nrt_live();
    uf_assert_ok(uf_call(fn("bound"), &x, 1, &ret, 1, NULL, &err) == 0,
                 &err);
    assert_true(*(const double *)uf_array_data(ret) == 2.0);
    assert_int_equal(uf__nrt_live(), live);
    uf_array_release(ret);
    uf_array_release(x);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_axpb_on_each_target),
        cmocka_unit_test(test_ptx_passes_ptxas),
        cmocka_unit_test(test_int32_plus_float32),
        cmocka_unit_test(test_int_wrap_and_division_by_zero),
        cmocka_unit_test(test_overlapping_augmented_assignment),
        cmocka_unit_test(test_broadcasting),
        cmocka_unit_test(test_bound_to_a_variable),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
