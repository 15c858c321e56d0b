/* Small forms Numba compiles that ufjit added late, through the C API:
 * a 0-d integer array as an index (compiler/types/infer_slice.c takes it
 * as the integer it holds, compiler/lower/lower_index.c loads it): reads
 * through a reversed view, negative and unsigned indices, a 2-D base
 * giving a row view, stores and +=, the IndexError of boundscheck=True,
 * a 0-d boolean refused at file:line:col, out of memory at the 0-d
 * array's allocation; and numba.np.extensions.cross2d (lower_npcross.c):
 * broadcasting, NaN, its ValueErrors and refusals. */
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
        "def take(a, k):\n"
        "    return a[np.array(k)]\n"
        "@njit(boundscheck=True)\n"
        "def checked(a, k):\n"
        "    return a[np.array(k)]\n"
        "@njit\n"
        "def store(a, k, v):\n"
        "    kk = np.array(k)\n"
        "    a[kk] = v\n"
        "    a[kk] += v\n"
        "    return a[kk]\n"
        "@njit\n"
        "def bad(a):\n"
        "    return a[np.array(True)]\n"
        "from numba.np.extensions import cross2d\n"
        "@njit\n"
        "def c2d(a, b):\n"
        "    return cross2d(a, b)\n"
        "@njit\n"
        "def c2d_number(a):\n"
        "    return cross2d(a, 1.0)\n";
    return uf_module_from_string(ctx, "npgaps.py", src, err);
}

static uf_array *arr(uf_dtype dt, int nd, const int64_t *shape,
                     const void *x, uf_error *err)
{
    uf_array *a = uf_empty(dt, nd, shape, UF_ORDER_C, err);
    if (a != NULL && uf_array_nbytes(a) > 0)
        memcpy(uf_array_data(a), x, (size_t)uf_array_nbytes(a));
    return a;
}

static uf_array *scalar(uf_dtype dt, const void *x, uf_error *err)
{
    return arr(dt, 0, NULL, x, err);
}

static uf_array *call(uf_module *mod, const char *name, uf_array **args,
                      int nargs, uf_error *err)
{
    uf_func *f = uf_module_get(mod, name, err);
    if (f == NULL)
        return NULL;
    uf_array *out = NULL;
    if (uf_call(f, args, nargs, &out, 1, NULL, err) != 0)
        return NULL;
    return out;
}

static double f64_of(uf_array *a)
{
    return *(const double *)uf_array_data(a);
}

static void test_zero_d_index(void **state)
{
    (void)state;
    uf_error err;
    uf_context *ctx = uf_context_new(&err);
    uf_assert_ok(ctx != NULL, &err);
    uf_module *mod = module(ctx, &err);
    uf_assert_ok(mod != NULL, &err);
    long nrt = uf__nrt_live();
    /* v = [0, 10, 20, 30, 40, 50][::-1] = [50, 40, 30, 20, 10, 0] */
    static const double x[6] = {0, 10, 20, 30, 40, 50};
    int64_t n6 = 6;
    uf_array *base = arr(UF_FLOAT64, 1, &n6, x, &err);
    uf_assert_ok(base != NULL, &err);
    uf_array *v = uf_array_slice(base, "::-1", &err);
    uf_assert_ok(v != NULL, &err);
    static const int64_t ks[4] = {1, -1, -6, 5};
    static const double want[4] = {40, 0, 50, 0};
    for (int i = 0; i < 4; i++) {
        uf_array *k = scalar(UF_INT64, &ks[i], &err);
        uf_assert_ok(k != NULL, &err);
        uf_array *args[2] = {v, k};
        uf_array *out = call(mod, "take", args, 2, &err);
        uf_assert_ok(out != NULL, &err);
        assert_int_equal(uf_array_ndim(out), 0);
        assert_int_equal(uf_array_dtype(out), UF_FLOAT64);
        if (f64_of(out) != want[i])
            uf_fail_at(__FILE__, __LINE__, "v[np.array(%lld)] = %g, want %g",
                       (long long)ks[i], f64_of(out), want[i]);
        uf_array_release(out);
        uf_array_release(k);
    }
    /* uint8 255 does not wrap: checked, it is out of range */
    uint8_t u = 255;
    uf_array *ku = scalar(UF_UINT8, &u, &err);
    uf_assert_ok(ku != NULL, &err);
    uf_array *args[2] = {v, ku};
    assert_null(call(mod, "checked", args, 2, &err));
    assert_int_equal(err.code, UF_ERR_INDEX);
    assert_non_null(strstr(err.message, "IndexError: index 255 is out of "
                                        "bounds for axis 0 with size 6"));
    int64_t m7 = -7;
    uf_array *kn = scalar(UF_INT64, &m7, &err);
    uf_assert_ok(kn != NULL, &err);
    args[1] = kn;
    assert_null(call(mod, "checked", args, 2, &err));
    assert_int_equal(err.code, UF_ERR_INDEX);
    assert_non_null(strstr(err.message, "IndexError: index -7 is out of "
                                        "bounds for axis 0 with size 6"));
    /* a 2-D base: a[np.array(-1)] is the last row, a view */
    int64_t s23[2] = {2, 3};
    uf_array *m = arr(UF_FLOAT64, 2, s23, x, &err);
    uf_assert_ok(m != NULL, &err);
    int64_t one = -1;
    uf_array *k1 = scalar(UF_INT64, &one, &err);
    uf_assert_ok(k1 != NULL, &err);
    args[0] = m;
    args[1] = k1;
    uf_array *row = call(mod, "take", args, 2, &err);
    uf_assert_ok(row != NULL, &err);
    assert_int_equal(uf_array_ndim(row), 1);
    assert_int_equal(uf_array_shape(row)[0], 3);
    const double *r = uf_array_data(row);
    assert_true(r[0] == 30 && r[1] == 40 && r[2] == 50);
    uf_array_release(row);
    /* a[kk] = v; a[kk] += v through the reversed view: v[-2] is x[1] */
    int64_t m2 = -2;
    double val = 2.5;
    uf_array *k2 = scalar(UF_INT64, &m2, &err);
    uf_array *vv = scalar(UF_FLOAT64, &val, &err);
    uf_assert_ok(k2 != NULL && vv != NULL, &err);
    uf_array *sargs[3] = {v, k2, vv};
    uf_array *out = call(mod, "store", sargs, 3, &err);
    uf_assert_ok(out != NULL, &err);
    assert_true(f64_of(out) == 5.0);
    const double *bx = uf_array_data(base);
    assert_true(bx[1] == 5.0 && bx[0] == 0 && bx[2] == 20);
    uf_array_release(out);
    /* a 0-d boolean index: refused where it is written */
    args[0] = v;
    assert_null(call(mod, "bad", args, 1, &err));
    assert_int_equal(err.code, UF_ERR_UNSUPPORTED);
    assert_int_equal(err.line, 17);
    assert_int_equal(err.column, 14);
    assert_non_null(strstr(err.message, "0-d boolean array"));
    uf_array *all[] = {vv, k2, k1, m, kn, ku, v, base};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        uf_array_release(all[i]);
    assert_int_equal(uf__nrt_live(), nrt);
    uf_module_free(mod);
    uf_context_free(ctx);
}

static void test_cross2d(void **state)
{
    (void)state;
    uf_error err;
    uf_context *ctx = uf_context_new(&err);
    uf_assert_ok(ctx != NULL, &err);
    uf_module *mod = module(ctx, &err);
    uf_assert_ok(mod != NULL, &err);
    long nrt = uf__nrt_live();
    /* rows [1, 2], [3, 4], [NaN, 1] of m against v = [5, 7][::-1] = [7, 5]:
     * a0 * 5 - a1 * 7 */
    static const double xm[6] = {1, 2, 3, 4, NAN, 1}, xv[2] = {5, 7};
    int64_t s32[2] = {3, 2}, n2 = 2;
    uf_array *m = arr(UF_FLOAT64, 2, s32, xm, &err);
    uf_array *v0 = arr(UF_FLOAT64, 1, &n2, xv, &err);
    uf_assert_ok(m != NULL && v0 != NULL, &err);
    uf_array *v = uf_array_slice(v0, "::-1", &err);
    uf_assert_ok(v != NULL, &err);
    uf_array *args[2] = {m, v};
    uf_array *out = call(mod, "c2d", args, 2, &err);
    uf_assert_ok(out != NULL, &err);
    assert_int_equal(uf_array_ndim(out), 1);
    assert_int_equal(uf_array_shape(out)[0], 3);
    const double *o = uf_array_data(out);
    assert_true(o[0] == -9 && o[1] == -13 && isnan(o[2]));
    uf_array_release(out);
    /* m[:, ::-1] (negative strides) of shape (3, 1, 2) against m[:2]:
     * broadcast to (3, 2) */
    uf_array *mr = uf_array_slice(m, ":, ::-1", &err);
    uf_assert_ok(mr != NULL, &err);
    uf_array *m3 = uf_array_reshape(mr, 3, (int64_t[]){3, 1, 2},
                                    UF_ORDER_C, false, &err);
    uf_array *m2 = uf_array_slice(m, ":2", &err);
    uf_assert_ok(m3 != NULL && m2 != NULL, &err);
    args[0] = m3;
    args[1] = m2;
    out = call(mod, "c2d", args, 2, &err);
    uf_assert_ok(out != NULL, &err);
    assert_int_equal(uf_array_ndim(out), 2);
    assert_int_equal(uf_array_shape(out)[0], 3);
    assert_int_equal(uf_array_shape(out)[1], 2);
    o = uf_array_data(out);
    /* [2, 1] x [1, 2] = 3, [2, 1] x [3, 4] = 5; [4, 3]: 5, 7 */
    assert_true(o[0] == 3 && o[1] == 5 && o[2] == 5 && o[3] == 7);
    assert_true(isnan(o[4]) && isnan(o[5]));
    uf_array_release(out);
    /* two vectors: a 0-d array; int8 products do not wrap (Numba) */
    static const int8_t p8[2] = {100, 3}, q8[2] = {2, 100};
    uf_array *p = arr(UF_INT8, 1, &n2, p8, &err);
    uf_array *q = arr(UF_INT8, 1, &n2, q8, &err);
    uf_assert_ok(p != NULL && q != NULL, &err);
    args[0] = p;
    args[1] = q;
    out = call(mod, "c2d", args, 2, &err);
    uf_assert_ok(out != NULL, &err);
    assert_int_equal(uf_array_ndim(out), 0);
    assert_int_equal(uf_array_dtype(out), UF_INT64);
    assert_int_equal(*(const int64_t *)uf_array_data(out), 9994);
    uf_array_release(out);
    /* errors: a 3-vector, leading axes 3 and 2 */
    int64_t n3 = 3;
    uf_array *w = arr(UF_FLOAT64, 1, &n3, xm, &err);
    uf_assert_ok(w != NULL, &err);
    args[0] = w;
    args[1] = v;
    assert_null(call(mod, "c2d", args, 2, &err));
    assert_non_null(strstr(err.message, "ValueError: Incompatible "
                                        "dimensions for 2D cross product"));
    args[0] = m;
    args[1] = m2;
    assert_null(call(mod, "c2d", args, 2, &err));
    assert_non_null(strstr(err.message, "ValueError: unable to broadcast "
                                        "argument 2 to output array"));
    /* a number: refused where it is written */
    assert_null(call(mod, "c2d_number", args, 1, &err));
    assert_int_equal(err.code, UF_ERR_TYPING);
    assert_int_equal(err.line, 24);
    assert_int_equal(err.column, 23);
    uf_array *all[] = {w, q, p, m2, m3, mr, v, v0, m};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        uf_array_release(all[i]);
    assert_int_equal(uf__nrt_live(), nrt);
    uf_module_free(mod);
    uf_context_free(ctx);
}

/* Out of memory at the 0-d array's allocation and at cross2d's result:
 * UF_ERR_NOMEM, nothing left. */
static void test_out_of_memory(void **state)
{
    (void)state;
    uf_error err;
    uf_context *ctx = uf_context_new(&err);
    uf_assert_ok(ctx != NULL, &err);
    uf_module *mod = module(ctx, &err);
    uf_assert_ok(mod != NULL, &err);
    static const double x[3] = {1, 2, 3};
    int64_t n3 = 3, k = 2;
    uf_array *args[2] = {arr(UF_FLOAT64, 1, &n3, x, &err),
                         scalar(UF_INT64, &k, &err)};
    uf_assert_ok(args[0] != NULL && args[1] != NULL, &err);
    int64_t s42[2] = {4, 2};
    static const double y[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    uf_array *m = arr(UF_FLOAT64, 2, s42, y, &err);
    uf_assert_ok(m != NULL, &err);
    static const char *const kernels[] = {"take", "c2d"};
    for (int c = 0; c < 2; c++) {
        uf_array *cargs[2] = {c == 0 ? args[0] : m, c == 0 ? args[1] : m};
        uf_func *f = uf_module_get(mod, kernels[c], &err);
        uf_assert_ok(f != NULL, &err);
        uf_array *out = NULL;
        uf_assert_ok(uf_call(f, cargs, 2, &out, 1, NULL, &err) == 0, &err);
        assert_true(c == 1 || f64_of(out) == 3.0);
        uf_array_release(out);
        long nrt = uf__nrt_live(), live = uf__alloc_live();
        int failures = 0;
        for (long i = 1; i < 100; i++) {
            out = NULL;
            uf__alloc_fail_at(i);
            int rc = uf_call(f, cargs, 2, &out, 1, NULL, &err);
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
            uf_fail_at(__FILE__, __LINE__, "%s: no allocation failed",
                       kernels[c]);
    }
    uf_array_release(m);
    uf_array_release(args[0]);
    uf_array_release(args[1]);
    uf_module_free(mod);
    uf_context_free(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_zero_d_index),
        cmocka_unit_test(test_cross2d),
        cmocka_unit_test(test_out_of_memory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
