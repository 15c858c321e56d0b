/* np.isclose, np.allclose, np.array_equal, np.nan_to_num, np.sinc,
 * np.angle, np.shape ..., np.divmod of arrays inside kernels (compiler/types/infer_nppred.c,
 * compiler/lower/lower_nppred.c) through uf_call, for what the Numba
 * oracle (tests/e2e/run_nppred_oracle.py) cannot see: reversed and
 * Fortran-order views against values computed here, NaN and infinities,
 * empty arrays, np.array_equal of other shapes (False, nothing compared),
 * np.allclose of arrays that do not broadcast (ValueError), no leak across
 * 10^5 calls (uf__nrt_live and uf__alloc_live back where they started),
 * out of memory at every allocation reaching the caller as UF_ERR_NOMEM,
 * the refusals at file:line:col. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nrt_test_util.h"

static const char src[] =
    "from numba import njit\n"
    "import numpy as np\n"
    "@njit\n"
    "def isclose(a, b):\n"
    "    return np.isclose(a, b, equal_nan=True)\n"
    "@njit\n"
    "def allclose(a, b):\n"
    "    return np.allclose(a, b)\n"
    "@njit\n"
    "def array_equal(a, b):\n"
    "    return np.array_equal(a, b)\n"
    "@njit\n"
    "def n2n(a):\n"
    "    return np.nan_to_num(a, posinf=9.0)\n"
    "@njit\n"
    "def sinc(a):\n"
    "    return np.sinc(a)\n"
    "@njit\n"
    "def shape_size(a):\n"
    "    s = np.shape(a)\n"
    "    return s[0] * 100 + s[1] * 10 + np.size(a) * (np.isscalar(a) + "
    "np.isrealobj(a))\n"
    "@njit\n"
    "def chk(a):\n"
    "    return np.asarray_chkfinite(a)\n"
    "@njit\n"
    "def mix(a):\n"
    "    s = 0\n"
    "    for i in range(3):\n"
    "        s += np.allclose(a, a) + np.array_equal(a, a[::-1])\n"
    "        s += np.isclose(a, 1.0).sum() + np.isneginf(a).sum()\n"
    "        s += np.nan_to_num(a)[0] + np.angle(a)[0]\n"
    "        q, r = np.divmod(a, 2.0)\n"
    "        s += q[0] + r[0]\n"
    "    return s\n";

static uf_context *ctx;
static uf_module *mod;

static int setup(void **state)
{
    (void)state;
    uf_error err;
    ctx = uf_context_new(&err);
    if (!ctx)
        return -1;
    mod = uf_module_from_string(ctx, "nppred_c.py", src, &err);
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

/* A rows x cols float64 array in `order`: element k (C order) is
 * (k * 37 mod 101) / 8 - 6, a NaN at k % 7 == 3, +inf at k % 11 == 5,
 * -inf at k % 13 == 6. */
static uf_array *grid(int64_t rows, int64_t cols, uf_order order)
{
    uf_error err;
    int64_t shape[2] = {rows, cols};
    uf_array *a = uf_empty(UF_FLOAT64, 2, shape, order, &err);
    uf_assert_ok(a != NULL, &err);
    const int64_t *st = uf_array_strides(a);
    for (int64_t i = 0; i < rows; i++)
        for (int64_t j = 0; j < cols; j++) {
            int64_t k = i * cols + j;
            double v = (double)((k * 37) % 101) / 8.0 - 6.0;
            if (k % 7 == 3)
                v = NAN;
            else if (k % 11 == 5)
                v = INFINITY;
            else if (k % 13 == 6)
                v = -INFINITY;
            *(double *)((char *)uf_array_data(a) + i * st[0] + j * st[1]) = v;
        }
    return a;
}

static double at2(const uf_array *a, int64_t i, int64_t j)
{
    const int64_t *st = uf_array_strides(a);
    return *(const double *)((const char *)uf_array_data(a) + i * st[0] +
                             j * st[1]);
}

static bool bat2(const uf_array *a, int64_t i, int64_t j)
{
    const int64_t *st = uf_array_strides(a);
    return *((const char *)uf_array_data(a) + i * st[0] + j * st[1]) != 0;
}

static bool boolean(const uf_array *a)
{
    return *(const char *)uf_array_data(a) != 0;
}

static bool close_item(double x, double y)
{
    if (isnan(x) && isnan(y))
        return true; /* equal_nan=True */
    if (isinf(x) && isinf(y))
        return (x > 0) == (y > 0);
    if (isinf(x) || isinf(y))
        return false;
    return fabs(x - y) <= 1e-08 + 1e-05 * fabs(y);
}

/* np.isclose of a reversed view and a Fortran array (and the view
 * against itself): every element as computed here. */
static void test_isclose_views(void **state)
{
    (void)state;
    uf_error err;
    uf_array *g = grid(6, 8, UF_ORDER_C);
    uf_array *f = grid(6, 8, UF_ORDER_F);
    uf_array *v = uf_array_slice(g, "::-1, ::-1", &err);
    uf_assert_ok(v != NULL, &err);
    uf_array *args[2] = {v, f};
    uf_array *r = calln("isclose", args, 2, &err);
    uf_assert_ok(r != NULL, &err);
    assert_int_equal(uf_array_dtype(r), UF_BOOL);
    assert_int_equal(uf_array_shape(r)[0], 6);
    assert_int_equal(uf_array_shape(r)[1], 8);
    int agree = 0;
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 8; j++) {
            assert_true(bat2(r, i, j) == close_item(at2(v, i, j),
                                                    at2(f, i, j)));
            agree += bat2(r, i, j);
        }
    assert_true(agree < 48); /* not all equal: the view is reversed */
    uf_array_release(r);
    args[1] = v;
    r = calln("isclose", args, 2, &err); /* NaN == NaN, inf == inf */
    uf_assert_ok(r != NULL, &err);
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 8; j++)
            assert_true(bat2(r, i, j));
    uf_array_release(r);
    uf_array_release(v);
    uf_array_release(f);
    uf_array_release(g);
}

/* np.allclose and np.array_equal: NaN, shapes that differ, broadcasting,
 * empty arrays; allclose of shapes that do not broadcast raises. */
static void test_allclose_array_equal(void **state)
{
    (void)state;
    uf_error err;
    uf_array *g = grid(4, 5, UF_ORDER_C);
    uf_array *f = grid(4, 5, UF_ORDER_F);
    uf_array *args[2] = {g, f};
    uf_array *r = calln("allclose", args, 2, &err); /* NaNs: False */
    uf_assert_ok(r != NULL, &err);
    assert_false(boolean(r));
    uf_array_release(r);
    r = calln("array_equal", args, 2, &err); /* NaN != NaN */
    uf_assert_ok(r != NULL, &err);
    assert_false(boolean(r));
    uf_array_release(r);
    /* rows 0..0 hold no NaN: k = 0..4 has k % 7 == 3 -> NaN at 3 */
    uf_array *row = uf_array_slice(g, "1:2, 4:", &err); /* k = 9 */
    uf_assert_ok(row != NULL, &err);
    uf_array *rowf = uf_array_slice(f, "1:2, 4:", &err);
    uf_assert_ok(rowf != NULL, &err);
    args[0] = row;
    args[1] = rowf;
    r = calln("allclose", args, 2, &err);
    uf_assert_ok(r != NULL, &err);
    assert_true(boolean(r));
    uf_array_release(r);
    r = calln("array_equal", args, 2, &err);
    uf_assert_ok(r != NULL, &err);
    assert_true(boolean(r));
    uf_array_release(r);
    /* np.asarray_chkfinite: the finite view itself, else ValueError */
    uf_array *same = calln("chk", &row, 1, &err);
    uf_assert_ok(same != NULL, &err);
    /* (the kernel returns row itself: the oracle's chkfinite_same sees
     * it; uf_call hands back its own result) */
    assert_int_equal(uf_array_shape(same)[1], 1);
    assert_true(at2(same, 0, 0) == at2(row, 0, 0));
    uf_array_release(same);
    assert_null(calln("chk", &f, 1, &err));
    assert_int_equal(err.code, UF_ERR_VALUE);
    assert_non_null(strstr(err.message, "ValueError: array must not "
                                        "contain infs or NaNs"));
    /* (1, 1) against (4, 5): array_equal False, allclose broadcasts */
    args[1] = g;
    r = calln("array_equal", args, 2, &err);
    uf_assert_ok(r != NULL, &err);
    assert_false(boolean(r));
    uf_array_release(r);
    /* (4, 5) against (5, 4): array_equal False, allclose ValueError */
    uf_array *t = uf_array_slice(g, ":, :4", &err);
    uf_assert_ok(t != NULL, &err);
    args[0] = g;
    args[1] = t;
    r = calln("array_equal", args, 2, &err);
    uf_assert_ok(r != NULL, &err);
    assert_false(boolean(r));
    uf_array_release(r);
    assert_null(calln("allclose", args, 2, &err));
    assert_int_equal(err.code, UF_ERR_VALUE);
    assert_non_null(strstr(err.message, "ValueError"));
    /* empty against empty: True */
    uf_array *e1 = uf_array_slice(g, "2:2, :", &err);
    uf_array *e2 = uf_array_slice(f, "3:3, :", &err);
    uf_assert_ok(e1 && e2, &err);
    args[0] = e1;
    args[1] = e2;
    r = calln("allclose", args, 2, &err);
    uf_assert_ok(r != NULL, &err);
    assert_true(boolean(r));
    uf_array_release(r);
    r = calln("array_equal", args, 2, &err);
    uf_assert_ok(r != NULL, &err);
    assert_true(boolean(r));
    uf_array_release(r);
    uf_array_release(e1);
    uf_array_release(e2);
    uf_array_release(t);
    uf_array_release(row);
    uf_array_release(rowf);
    uf_array_release(f);
    uf_array_release(g);
}

/* np.nan_to_num of a strided view: NaN 0, +inf the posinf given, -inf
 * the float64 minimum, the rest unchanged; np.sinc elementwise; np.shape
 * and np.size of a view. */
static void test_nan_to_num_sinc(void **state)
{
    (void)state;
    uf_error err;
    uf_array *g = grid(5, 9, UF_ORDER_C);
    uf_array *v = uf_array_slice(g, "::-2, 1::3", &err);
    uf_assert_ok(v != NULL, &err);
    uf_array *r = calln("n2n", &v, 1, &err);
    uf_assert_ok(r != NULL, &err);
    assert_int_equal(uf_array_shape(r)[0], 3);
    assert_int_equal(uf_array_shape(r)[1], 3);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            double x = at2(v, i, j), y = at2(r, i, j);
            double want = isnan(x) ? 0.0 : x == INFINITY ? 9.0
                          : x == -INFINITY ? -DBL_MAX : x;
            assert_true(y == want);
        }
    uf_array_release(r);
    r = calln("sinc", &v, 1, &err);
    uf_assert_ok(r != NULL, &err);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            double x = at2(v, i, j), y = at2(r, i, j);
            double px = (x == 0 ? 1e-20 : x) * 3.141592653589793;
            double want = sin(px) / px;
            assert_true((isnan(want) && isnan(y)) || y == want);
        }
    uf_array_release(r);
    r = calln("shape_size", &v, 1, &err);
    uf_assert_ok(r != NULL, &err);
    assert_int_equal(*(int64_t *)uf_array_data(r), 300 + 30 + 9);
    uf_array_release(r);
    uf_array_release(v);
    uf_array_release(g);
}

/* 10^5 calls of a kernel using them in a loop leave nothing behind. */
static void test_no_leak(void **state)
{
    (void)state;
    uf_error err;
    int64_t n = 7;
    uf_array *a = uf_empty(UF_FLOAT64, 1, &n, UF_ORDER_C, &err);
    uf_assert_ok(a != NULL, &err);
    double vals[7] = {1.0, -INFINITY, 1.0, NAN, 2.0, 1.0, 0.5};
    memcpy(uf_array_data(a), vals, sizeof vals);
    uf_array *r = calln("mix", &a, 1, &err);
    uf_assert_ok(r != NULL, &err);
    /* per round: allclose False (NaN), array_equal False, 3 ones, one
     * -inf, nan_to_num(a)[0] 1, angle(1.0) 0, divmod(1.0, 2.0) (0, 1) */
    assert_true(*(double *)uf_array_data(r) == 3 * (0 + 0 + 3 + 1 + 1.0 + 1));
    uf_array_release(r);
    long nrt = uf__nrt_live(), live = uf__alloc_live();
    for (int i = 0; i < 100000; i++) {
        r = calln("mix", &a, 1, &err);
        uf_assert_ok(r != NULL, &err);
        uf_array_release(r);
    }
    assert_int_equal(uf__nrt_live(), nrt);
    assert_int_equal(uf__alloc_live(), live);
    uf_array_release(a);
}

static int oom_call(void *ud, uf_error *err)
{
    uf_array *x = ud;
    uf_array *out = calln("mix", &x, 1, err);
    if (out == NULL)
        return err->code;
    uf_array_release(out);
    return 0;
}

static void test_out_of_memory(void **state)
{
    (void)state;
    uf_error err;
    int64_t n = 5;
    uf_array *a = uf_zeros(UF_FLOAT64, 1, &n, UF_ORDER_C, &err);
    uf_assert_ok(a != NULL, &err);
    uf_assert_ok(oom_call(a, &err) == 0, &err); /* compiled */
    uf_check_oom_each_alloc("mix", oom_call, a);
    uf_array_release(a);
}

/* Refused at the call's FILE:LINE:COL. */
static void test_refused(void **state)
{
    (void)state;
    static const char csrc[] =
        "import numpy as np\n"
        "from numba import cuda, njit\n"
        "@cuda.jit\n"
        "def k(out):\n"
        "    out[0] = np.isclose(out, 1.0)[0]\n"
        "@njit\n"
        "def rtol(a):\n"
        "    return np.isclose(a, a, 1)\n"
        "@njit\n"
        "def copy(a):\n"
        "    return np.nan_to_num(a, copy=False)\n";
    uf_error err;
    uf_module *m = uf_module_from_string(ctx, "nppred_bad.py", csrc, &err);
    uf_assert_ok(m != NULL, &err);
    uf_func *k = uf_module_get(m, "k", &err);
    uf_assert_ok(k != NULL, &err);
    char *text = uf_func_inspect(k, "void(float64[:])", UF_INSPECT_TYPES,
                                 &err);
    assert_null(text);
    assert_non_null(strstr(err.file, "nppred_bad.py"));
    assert_int_equal(err.line, 5);
    assert_non_null(strstr(err.message, "CUDA kernels cannot"));
    uf_func *r = uf_module_get(m, "rtol", &err);
    uf_assert_ok(r != NULL, &err);
    text = uf_func_inspect(r, "bool(float64[:])", UF_INSPECT_TYPES, &err);
    assert_null(text);
    assert_int_equal(err.code, UF_ERR_TYPING);
    assert_int_equal(err.line, 8);
    assert_int_equal(err.column, 29);
    assert_non_null(strstr(err.message, "\"rtol\" must be a floating"));
    uf_func *c = uf_module_get(m, "copy", &err);
    uf_assert_ok(c != NULL, &err);
    text = uf_func_inspect(c, "float64[:](float64[:])", UF_INSPECT_TYPES,
                           &err);
    assert_null(text);
    assert_int_equal(err.line, 11);
    assert_int_equal(err.column, 34);
    assert_non_null(strstr(err.message, "copy="));
    uf_module_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_isclose_views),
        cmocka_unit_test(test_allclose_array_equal),
        cmocka_unit_test(test_nan_to_num_sinc),
        cmocka_unit_test(test_no_leak),
        cmocka_unit_test(test_out_of_memory),
        cmocka_unit_test(test_refused),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
