/* np.cross, np.unwrap and np.select in kernels (compiler/lower/
 * lower_npcross.c) through the C API, for what the Numba oracle does not
 * reach cheaply: a reversed (negative-stride) operand broadcast against
 * a 2-D one with hand-computed products, int8 wrapping, inf * 0 in a
 * missing third component; unwrap of a 2-D array whose rows are
 * independent, NaN carried forward; select's first-true-wins order and
 * broadcast default; Numba's ValueErrors; refusals at file:line:col; and
 * out of memory at every allocation reaching the caller as UF_ERR_NOMEM
 * with nothing left behind. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "common/nrt.h"
#include "test_util.h"

static uf_module *module(uf_context *ctx, uf_error *err)
{
    static const char src[] =
        "from numba import njit\n"
        "import numpy as np\n"
        "@njit\n"
        "def cross(a, b):\n"
        "    return np.cross(a, b)\n"
        "@njit\n"
        "def unwrap(p):\n"
        "    return np.unwrap(p)\n"
        "@njit\n"
        "def select(a, b):\n"
        "    return np.select([a > 2, a > 0], [a * 10, b], -1.0)\n"
        "@njit\n"
        "def bad_cross(a, b):\n"
        "    return np.cross(a, b.sum())\n"
        "@njit\n"
        "def bad_select(a, b):\n"
        "    return np.select([a], [b])\n";
    return uf_module_from_string(ctx, "npcross.py", src, err);
}

static uf_array *arr(uf_dtype dt, int nd, const int64_t *shape,
                     const void *x, uf_error *err)
{
    uf_array *a = uf_empty(dt, nd, shape, UF_ORDER_C, err);
    if (a != NULL && uf_array_nbytes(a) > 0)
        memcpy(uf_array_data(a), x, (size_t)uf_array_nbytes(a));
    return a;
}

static uf_array *call2(uf_module *mod, const char *name, uf_array *a,
                       uf_array *b, uf_error *err)
{
    uf_func *f = uf_module_get(mod, name, err);
    if (f == NULL)
        return NULL;
    uf_array *args[2] = {a, b}, *out = NULL;
    if (uf_call(f, args, b ? 2 : 1, &out, 1, NULL, err) != 0)
        return NULL;
    return out;
}

static void test_cross(void **state)
{
    (void)state;
    uf_error err;
    uf_context *ctx = uf_context_new(&err);
    uf_assert_ok(ctx != NULL, &err);
    uf_module *mod = module(ctx, &err);
    uf_assert_ok(mod != NULL, &err);
    /* a[::-1] of [3, 2, 1] is [1, 2, 3]; b rows [4, 5, 6], [0, 1, 0] */
    static const double xa[3] = {3, 2, 1}, xb[6] = {4, 5, 6, 0, 1, 0};
    int64_t n3 = 3, s23[2] = {2, 3};
    uf_array *a0 = arr(UF_FLOAT64, 1, &n3, xa, &err);
    uf_array *b = arr(UF_FLOAT64, 2, s23, xb, &err);
    uf_assert_ok(a0 != NULL && b != NULL, &err);
    uf_array *a = uf_array_slice(a0, "::-1", &err);
    uf_assert_ok(a != NULL, &err);
    uf_array *out = call2(mod, "cross", a, b, &err);
    uf_assert_ok(out != NULL, &err);
    assert_int_equal(uf_array_ndim(out), 2);
    assert_int_equal(uf_array_shape(out)[0], 2);
    assert_int_equal(uf_array_shape(out)[1], 3);
    const double *o = uf_array_data(out);
    static const double want[6] = {-3, 6, -3, -3, 0, 1};
    for (int i = 0; i < 6; i++)
        if (o[i] != want[i])
            uf_fail_at(__FILE__, __LINE__, "cross[%d] = %g, want %g", i,
                       o[i], want[i]);
    uf_array_release(out);
    /* a 2-vector [inf, 1] x [1, 2, 3]: x2 = 0 * inf = NaN, as Numba */
    static const double xi[2] = {INFINITY, 1};
    int64_t n2 = 2;
    uf_array *inf2 = arr(UF_FLOAT64, 1, &n2, xi, &err);
    uf_assert_ok(inf2 != NULL, &err);
    uf_array *a3 = uf_array_slice(b, "0", &err);
    uf_assert_ok(a3 != NULL, &err);
    out = call2(mod, "cross", inf2, a3, &err);
    uf_assert_ok(out != NULL, &err);
    o = uf_array_data(out);
    assert_true(isnan(o[0]) && isnan(o[1]) && o[2] == INFINITY);
    uf_array_release(out);
    /* int8 products wrap: [100, 0, 0] x [0, 100, 0] = [0, 0, 16] */
    static const int8_t p8[3] = {100, 0, 0}, q8[3] = {0, 100, 0};
    uf_array *p = arr(UF_INT8, 1, &n3, p8, &err);
    uf_array *q = arr(UF_INT8, 1, &n3, q8, &err);
    uf_assert_ok(p != NULL && q != NULL, &err);
    out = call2(mod, "cross", p, q, &err);
    uf_assert_ok(out != NULL, &err);
    assert_int_equal(uf_array_dtype(out), UF_INT8);
    assert_int_equal(((const int8_t *)uf_array_data(out))[2], 16);
    uf_array_release(out);
    /* errors: both 2-vectors, a 4-vector, leading axes 2 and 3 */
    assert_null(call2(mod, "cross", inf2, inf2, &err));
    assert_non_null(strstr(err.message, "Dimensions for both inputs is 2"));
    int64_t s32[2] = {3, 2};
    uf_array *c = arr(UF_FLOAT64, 2, s32, xb, &err);
    uf_assert_ok(c != NULL, &err);
    assert_null(call2(mod, "cross", c, b, &err));
    assert_non_null(strstr(err.message, "ValueError: unable to broadcast"));
    uf_array *c4 = uf_array_reshape(c, 1, (int64_t[]){6}, UF_ORDER_C, false,
                                    &err);
    uf_assert_ok(c4 != NULL, &err);
    assert_null(call2(mod, "cross", c4, a, &err));
    assert_non_null(strstr(err.message, "ValueError: Incompatible "
                                        "dimensions for cross product"));
    /* a number is refused where it is written */
    assert_null(call2(mod, "bad_cross", a, b, &err));
    assert_int_equal(err.line, 14);
    assert_int_equal(err.column, 24);
    assert_non_null(strstr(err.message, "at least one dimension"));
    uf_array *all[] = {c4, c, q, p, a3, inf2, a, b, a0};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        uf_array_release(all[i]);
    uf_module_free(mod);
    uf_context_free(ctx);
}

static void test_unwrap_select(void **state)
{
    (void)state;
    uf_error err;
    uf_context *ctx = uf_context_new(&err);
    uf_assert_ok(ctx != NULL, &err);
    uf_module *mod = module(ctx, &err);
    uf_assert_ok(mod != NULL, &err);
    /* rows [0, 6, NaN, 1] and [3, -3, 0, 7]: each row on its own */
    const double pi2 = 6.283185307179586;
    static const double xp[8] = {0, 6, NAN, 1, 3, -3, 0, 7};
    int64_t s24[2] = {2, 4};
    uf_array *p = arr(UF_FLOAT64, 2, s24, xp, &err);
    uf_assert_ok(p != NULL, &err);
    uf_array *out = call2(mod, "unwrap", p, NULL, &err);
    uf_assert_ok(out != NULL, &err);
    const double *o = uf_array_data(out);
    assert_true(o[0] == 0.0 && o[1] == 6.0 - pi2);
    assert_true(isnan(o[2]) && isnan(o[3]));
    assert_true(o[4] == 3.0 && o[5] == -3.0 + pi2 && o[6] == 0.0 + pi2);
    assert_true(o[7] == 7.0);
    uf_array_release(out);
    /* an empty last axis: Numba's size // 0 */
    uf_array *e = uf_empty(UF_FLOAT64, 2, (int64_t[]){3, 0}, UF_ORDER_C,
                           &err);
    uf_assert_ok(e != NULL, &err);
    assert_null(call2(mod, "unwrap", e, NULL, &err));
    assert_non_null(strstr(err.message, "ZeroDivisionError"));
    /* select: a > 2 first, then a > 0 (b's row broadcast), else -1 */
    static const double xa[4] = {5, 1, -2, 3}, xb[4] = {7, 8, 9, 10};
    int64_t n4 = 4;
    uf_array *a = arr(UF_FLOAT64, 1, &n4, xa, &err);
    uf_array *b = arr(UF_FLOAT64, 1, &n4, xb, &err);
    uf_assert_ok(a != NULL && b != NULL, &err);
    out = call2(mod, "select", a, b, &err);
    uf_assert_ok(out != NULL, &err);
    o = uf_array_data(out);
    assert_true(o[0] == 50 && o[1] == 8 && o[2] == -1 && o[3] == 30);
    uf_array_release(out);
    uf_array *b3 = uf_array_slice(b, ":3", &err);
    uf_assert_ok(b3 != NULL, &err);
    assert_null(call2(mod, "select", a, b3, &err));
    assert_non_null(strstr(err.message, "ValueError: shape mismatch"));
    assert_null(call2(mod, "bad_select", a, b, &err));
    assert_int_equal(err.line, 17);
    assert_non_null(strstr(err.message, "booleans"));
    uf_array_release(b3);
    uf_array_release(b);
    uf_array_release(a);
    uf_array_release(e);
    uf_array_release(p);
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
    double x[301];
    for (int i = 0; i < 301; i++)
        x[i] = (double)(i % 7) - 3;
    int64_t s[2] = {100, 3};
    uf_array *args[2] = {arr(UF_FLOAT64, 2, s, x, &err),
                         arr(UF_FLOAT64, 2, s, x + 1, &err)};
    uf_assert_ok(args[0] != NULL && args[1] != NULL, &err);
    static const char *const kernels[] = {"cross", "unwrap", "select"};
    for (int c = 0; c < 3; c++) {
        uf_func *f = uf_module_get(mod, kernels[c], &err);
        uf_assert_ok(f != NULL, &err);
        int nargs = c == 1 ? 1 : 2;
        uf_array *out = NULL;
        uf_assert_ok(uf_call(f, args, nargs, &out, 1, NULL, &err) == 0,
                     &err);
        uf_array_release(out);
        long nrt = uf__nrt_live(), live = uf__alloc_live();
        int failures = 0;
        for (long k = 1; k < 100; k++) {
            out = NULL;
            uf__alloc_fail_at(k);
            int rc = uf_call(f, args, nargs, &out, 1, NULL, &err);
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
            uf_fail_at(__FILE__, __LINE__,
                       "%s: no allocation failed", kernels[c]);
    }
    uf_array_release(args[0]);
    uf_array_release(args[1]);
    uf_module_free(mod);
    uf_context_free(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cross),
        cmocka_unit_test(test_unwrap_select),
        cmocka_unit_test(test_out_of_memory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
