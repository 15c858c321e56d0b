/* np.eye, np.diag, np.trace, np.fill_diagonal, np.tril, np.outer, np.kron,
 * np.vander ... inside kernels (compiler/types/infer_npmatrix.c,
 * compiler/lower/lower_npmatrix.c) through uf_call, for what the Numba
 * oracle (tests/e2e/run_npmatrix_oracle.py) cannot see: views built here
 * (reversed, every other column) against values computed here,
 * np.fill_diagonal writing through a view into the caller's array, NaN
 * and inf in products, int64 powers wrapping, 0-d and empty operands, the
 * errors' codes and messages, no leak across 10^5 calls, out of memory at
 * every allocation reaching the caller as UF_ERR_NOMEM, the refusals at
 * file:line:col. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nrt_test_util.h"

static const char src[] =
    "from numba import njit\n"
    "import numpy as np\n"
    "@njit\n"
    "def diag_k(v, k):\n"
    "    return np.diag(v, k)\n"
    "@njit\n"
    "def trace_k(a, k):\n"
    "    return np.trace(a, k)\n"
    "@njit\n"
    "def fill_in(a, v):\n"
    "    np.fill_diagonal(a, v, wrap=True)\n"
    "@njit\n"
    "def tril_k(m, k):\n"
    "    return np.tril(m, k)\n"
    "@njit\n"
    "def outer(a, b):\n"
    "    return np.outer(a, b)\n"
    "@njit\n"
    "def kron(a, b):\n"
    "    return np.kron(a, b)\n"
    "@njit\n"
    "def vander_n(x, n):\n"
    "    return np.vander(x, n, True)\n"
    "@njit\n"
    "def eye_n(n):\n"
    "    return np.eye(n, n + 1, 1)\n"
    "@njit\n"
    "def diagflat(v):\n"
    "    return np.diagflat(v, -1)\n"
    "@njit\n"
    "def mix(a):\n"
    "    s = 0.0\n"
    "    for i in range(3):\n"
    "        e = np.eye(a.shape[0], a.shape[1], i - 1)\n"
    "        t = np.triu(a + e, -1)\n"
    "        o = np.outer(np.diag(t), a[0])\n"
    "        k = np.kron(e, a[:, 0].copy())\n"
    "        v = np.vander(a[0], 3)\n"
    "        np.fill_diagonal(t, 2.0)\n"
    "        s += np.trace(t) + o.sum() + k.sum() + v.sum()\n"
    "        s += np.diagflat(a[1]).sum() + np.identity(i).sum()\n"
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
    mod = uf_module_from_string(ctx, "npmatrix_c.py", src, &err);
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

/* f(x[0..n)) -> its one result (NULL with err filled on failure). */
static uf_array *calln(const char *name, uf_array **x, int n, uf_error *err)
{
    uf_array *out = NULL;
    int rc = uf_call(fn(name), x, n, &out, 1, NULL, err);
    return rc == 0 ? out : NULL;
}

/* A float64 array of shape[0..nd) whose k-th element in C order is
 * ((k * 37) mod 101) - 50. */
static uf_array *grid(int nd, const int64_t *shape)
{
    uf_error err;
    uf_array *a = uf_empty(UF_FLOAT64, nd, shape, UF_ORDER_C, &err);
    uf_assert_ok(a != NULL, &err);
    double *d = uf_array_data(a);
    int64_t n = 1;
    for (int k = 0; k < nd; k++)
        n *= shape[k];
    for (int64_t k = 0; k < n; k++)
        d[k] = (double)((k * 37) % 101) - 50.0;
    return a;
}

static uf_array *grid2(int64_t rows, int64_t cols)
{
    int64_t shape[2] = {rows, cols};
    return grid(2, shape);
}

/* A 0-d array of dtype dt holding v: a scalar argument. */
static uf_array *num(uf_dtype dt, double v)
{
    uf_error err;
    uf_array *a = uf_empty(dt, 0, NULL, UF_ORDER_C, &err);
    uf_assert_ok(a != NULL, &err);
    if (dt == UF_INT64)
        *(int64_t *)uf_array_data(a) = (int64_t)v;
    else
        *(double *)uf_array_data(a) = v;
    return a;
}

static double at2(const uf_array *a, int64_t i, int64_t j)
{
    const int64_t *st = uf_array_strides(a);
    return *(const double *)((const char *)uf_array_data(a) + i * st[0] +
                             j * st[1]);
}

static uf_array *view(uf_array *a, const char *index)
{
    uf_error err;
    uf_array *v = uf_array_slice(a, index, &err);
    uf_assert_ok(v != NULL, &err);
    return v;
}

/* np.diag and np.trace of a reversed every-other-column view, np.tril of
 * a reversed 3-D view: the elements of the view, as indexed here. */
static void test_views(void **state)
{
    (void)state;
    uf_error err;
    uf_array *g = grid2(7, 10);
    uf_array *v = view(g, "::-1, 1::2"); /* 7 x 5, negative row stride */
    for (int k = -8; k <= 6; k++) {
        uf_array *kk = num(UF_INT64, k);
        uf_array *args[2] = {v, kk};
        uf_array *d = calln("diag_k", args, 2, &err);
        uf_assert_ok(d != NULL, &err);
        uf_array *t = calln("trace_k", args, 2, &err);
        uf_assert_ok(t != NULL, &err);
        int64_t r0 = k < 0 ? -k : 0, c0 = k > 0 ? k : 0, n = 0;
        while (r0 + n < 7 && c0 + n < 5)
            n++;
        assert_int_equal(uf_array_ndim(d), 1);
        assert_int_equal(uf_array_shape(d)[0], n);
        double sum = 0;
        for (int64_t i = 0; i < n; i++) {
            assert_true(((double *)uf_array_data(d))[i] ==
                        at2(v, r0 + i, c0 + i));
            sum += at2(v, r0 + i, c0 + i);
        }
        assert_true(*(double *)uf_array_data(t) == sum);
        uf_array_release(t);
        uf_array_release(d);
        uf_array_release(kk);
    }
    uf_array_release(v);
    int64_t shape[3] = {3, 4, 5};
    uf_array *c = grid(3, shape);
    uf_array *w = view(c, "::-1, ::-1, ::2"); /* 3 x 4 x 3 */
    uf_array *k = num(UF_INT64, -1);
    uf_array *args[2] = {w, k};
    uf_array *r = calln("tril_k", args, 2, &err);
    uf_assert_ok(r != NULL, &err);
    assert_int_equal(uf_array_ndim(r), 3);
    const int64_t *ws = uf_array_strides(w), *rs = uf_array_strides(r);
    for (int a = 0; a < 3; a++)
        for (int i = 0; i < 4; i++)
            for (int j = 0; j < 3; j++) {
                double x = *(double *)((char *)uf_array_data(w) +
                                       a * ws[0] + i * ws[1] + j * ws[2]);
                double y = *(double *)((char *)uf_array_data(r) +
                                       a * rs[0] + i * rs[1] + j * rs[2]);
                assert_true(y == (j <= i - 1 ? x : 0.0));
            }
    uf_array_release(r);
    uf_array_release(k);
    uf_array_release(w);
    uf_array_release(c);
    uf_array_release(g);
}

/* np.fill_diagonal(view, val, wrap=True) writes into the caller's array
 * through the view's strides, the array val cycled; nothing else moves. */
static void test_fill_through_view(void **state)
{
    (void)state;
    uf_error err;
    uf_array *g = grid2(12, 6);
    uf_array *before = grid2(12, 6);
    uf_array *v = view(g, "::2, ::-2"); /* 6 x 3 */
    int64_t three = 3;
    uf_array *val = uf_empty(UF_INT32, 1, &three, UF_ORDER_C, &err);
    uf_assert_ok(val != NULL, &err);
    int32_t *vd = uf_array_data(val);
    vd[0] = 100;
    vd[1] = 200;
    vd[2] = 300;
    uf_array *args[2] = {v, val};
    assert_int_equal(uf_call(fn("fill_in"), args, 2, NULL, 0, NULL, &err), 0);
    /* 6 x 3 with wrap: flat indices 0, 4, 8, 12, 16 of the view */
    int ctr = 0;
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 3; j++) {
            int f = i * 3 + j;
            double want = f % 4 == 0 ? (double)vd[ctr++ % 3]
                                     : at2(before, 2 * i, 5 - 2 * j);
            assert_true(at2(v, i, j) == want);
        }
    for (int i = 0; i < 12; i++) /* the columns the view skips */
        for (int j = 0; j < 6; j += 2)
            assert_true(at2(g, i, j) == at2(before, i, j));
    uf_array_release(val);
    uf_array_release(v);
    uf_array_release(before);
    uf_array_release(g);
}

/* Products once per element: inf * 0 is NaN in np.outer, NaN spreads
 * through np.kron; 0-d and empty operands; int64 powers wrap in
 * np.vander as NumPy's. */
static void test_products(void **state)
{
    (void)state;
    uf_error err;
    int64_t n3 = 3, n0 = 0;
    uf_array *a = uf_empty(UF_FLOAT64, 1, &n3, UF_ORDER_C, &err);
    uf_array *b = uf_empty(UF_FLOAT64, 1, &n3, UF_ORDER_C, &err);
    uf_assert_ok(a && b, &err);
    double *ad = uf_array_data(a), *bd = uf_array_data(b);
    ad[0] = INFINITY, ad[1] = NAN, ad[2] = -2.0;
    bd[0] = 0.0, bd[1] = 3.0, bd[2] = -INFINITY;
    uf_array *args[2] = {a, b};
    uf_array *o = calln("outer", args, 2, &err);
    uf_assert_ok(o != NULL, &err);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            double want = ad[i] * bd[j], got = at2(o, i, j);
            assert_true(isnan(want) ? isnan(got) : got == want);
        }
    uf_array_release(o);
    uf_array *kr = calln("kron", args, 2, &err);
    uf_assert_ok(kr != NULL, &err);
    assert_int_equal(uf_array_ndim(kr), 1);
    assert_int_equal(uf_array_shape(kr)[0], 9);
    for (int k = 0; k < 9; k++) {
        double want = ad[k / 3] * bd[k % 3];
        double got = ((double *)uf_array_data(kr))[k];
        assert_true(isnan(want) ? isnan(got) : got == want);
    }
    uf_array_release(kr);
    /* a 0-d array times an empty one: (1, 0) */
    uf_array *z = num(UF_FLOAT64, 2.0);
    uf_array *e = uf_empty(UF_FLOAT64, 1, &n0, UF_ORDER_C, &err);
    uf_assert_ok(e != NULL, &err);
    args[0] = z;
    args[1] = e;
    o = calln("outer", args, 2, &err);
    uf_assert_ok(o != NULL, &err);
    assert_int_equal(uf_array_shape(o)[0], 1);
    assert_int_equal(uf_array_shape(o)[1], 0);
    uf_array_release(o);
    /* np.diagflat of a 0-d array: [[0, 0], [2, 0]] */
    uf_array *df = calln("diagflat", &z, 1, &err);
    uf_assert_ok(df != NULL, &err);
    assert_true(at2(df, 1, 0) == 2.0 && at2(df, 0, 0) == 0.0 &&
                at2(df, 0, 1) == 0.0 && at2(df, 1, 1) == 0.0);
    uf_array_release(df);
    /* 3 ** 0 .. 3 ** 69 in int64, wrapping past 3 ** 39 */
    uf_array *x = uf_empty(UF_INT64, 1, &n3, UF_ORDER_C, &err);
    uf_assert_ok(x != NULL, &err);
    int64_t *xd = uf_array_data(x);
    xd[0] = 3, xd[1] = -1, xd[2] = 0;
    uf_array *n70 = num(UF_INT64, 70);
    args[0] = x;
    args[1] = n70;
    uf_array *v = calln("vander_n", args, 2, &err);
    uf_assert_ok(v != NULL, &err);
    assert_int_equal(uf_array_dtype(v), UF_INT64);
    const int64_t *vd = uf_array_data(v);
    for (int i = 0; i < 3; i++) {
        uint64_t p = 1;
        for (int j = 0; j < 70; j++) {
            assert_true(vd[i * 70 + j] == (int64_t)p);
            p *= (uint64_t)xd[i];
        }
    }
    uf_array_release(v);
    uf_array_release(n70);
    uf_array_release(x);
    uf_array_release(e);
    uf_array_release(z);
    uf_array_release(b);
    uf_array_release(a);
}

/* Numba's run-time errors, with their codes and messages. */
static void test_errors(void **state)
{
    (void)state;
    uf_error err;
    uf_array *m = num(UF_INT64, -3);
    assert_null(calln("eye_n", &m, 1, &err));
    assert_int_equal(err.code, UF_ERR_VALUE);
    assert_non_null(strstr(err.message, "ValueError: negative dimensions"));
    uf_array *g = grid2(2, 3);
    uf_array *n = num(UF_INT64, 2);
    uf_array *args[2] = {g, n};
    assert_null(calln("vander_n", args, 2, &err));
    assert_int_equal(err.code, UF_ERR_VALUE);
    assert_non_null(strstr(err.message, "ValueError: x must be a "
                                        "one-dimensional array"));
    uf_array *row = view(g, "0");
    args[0] = row;
    args[1] = m;
    assert_null(calln("vander_n", args, 2, &err));
    assert_non_null(strstr(err.message, "ValueError: Negative dimensions "
                                        "are not allowed"));
    /* np.fill_diagonal: unequal N-d dimensions, NaN into ints, an empty
     * val; a left as it was */
    int64_t shape[3] = {2, 2, 3};
    uf_array *c = grid(3, shape);
    uf_array *one = num(UF_FLOAT64, 1.0);
    args[0] = c;
    args[1] = one;
    assert_int_equal(uf_call(fn("fill_in"), args, 2, NULL, 0, NULL, &err),
                     UF_ERR_VALUE);
    assert_non_null(strstr(err.message, "ValueError: All dimensions of input "
                                        "must be of equal length"));
    int64_t sq[2] = {3, 3}, n0 = 0;
    uf_array *ia = uf_zeros(UF_INT8, 2, sq, UF_ORDER_C, &err);
    uf_assert_ok(ia != NULL, &err);
    uf_array *nan = num(UF_FLOAT64, NAN);
    args[0] = ia;
    args[1] = nan;
    assert_int_equal(uf_call(fn("fill_in"), args, 2, NULL, 0, NULL, &err),
                     UF_ERR_VALUE);
    assert_non_null(strstr(err.message, "ValueError: Unable to safely "
                                        "conform val to a.dtype"));
    uf_array *empty = uf_empty(UF_FLOAT64, 1, &n0, UF_ORDER_C, &err);
    uf_assert_ok(empty != NULL, &err);
    args[1] = empty;
    assert_int_equal(uf_call(fn("fill_in"), args, 2, NULL, 0, NULL, &err),
                     UF_ERR_VALUE);
    assert_non_null(strstr(err.message, "ZeroDivisionError"));
    for (int k = 0; k < 9; k++)
        assert_int_equal(((int8_t *)uf_array_data(ia))[k], 0);
    uf_array_release(empty);
    uf_array_release(nan);
    uf_array_release(ia);
    uf_array_release(one);
    uf_array_release(c);
    uf_array_release(row);
    uf_array_release(n);
    uf_array_release(g);
    uf_array_release(m);
}

/* 10^5 calls of a kernel that builds, slices and multiplies matrices in a
 * loop leave no block and no allocation behind. */
static void test_no_leak(void **state)
{
    (void)state;
    uf_error err;
    uf_array *g = grid2(4, 5);
    uf_array *r = calln("mix", &g, 1, &err); /* compiled */
    uf_assert_ok(r != NULL, &err);
    double first = *(double *)uf_array_data(r);
    uf_array_release(r);
    long nrt = uf__nrt_live(), live = uf__alloc_live();
    for (int i = 0; i < 100000; i++) {
        r = calln("mix", &g, 1, &err);
        uf_assert_ok(r != NULL, &err);
        assert_true(*(double *)uf_array_data(r) == first);
        uf_array_release(r);
    }
    assert_int_equal(uf__nrt_live(), nrt);
    assert_int_equal(uf__alloc_live(), live);
    uf_array_release(g);
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
    uf_array *g = grid2(5, 4);
    uf_assert_ok(oom_call(g, &err) == 0, &err); /* compiled */
    uf_check_oom_each_alloc("mix", oom_call, g);
    uf_array_release(g);
}

/* Refused at the call's FILE:LINE:COL: np.eye's Python class dtype, a
 * float k, np.outer's out=, and any of them in a CUDA kernel. */
static void test_refused(void **state)
{
    (void)state;
    static const char csrc[] =
        "import numpy as np\n"
        "from numba import cuda, njit\n"
        "@cuda.jit\n"
        "def k(out):\n"
        "    out[0] = np.trace(np.eye(3))\n"
        "@njit\n"
        "def e(n):\n"
        "    return np.eye(n, dtype=float)\n"
        "@njit\n"
        "def t(a):\n"
        "    return np.tril(a, 1.0)\n"
        "@njit\n"
        "def o(a):\n"
        "    return np.outer(a, a, a)\n";
    static const struct {
        const char *name, *sig, *text;
        int line, col;
    } want[] = {
        {"k", "void(float64[:])", "CUDA kernels cannot", 5, 14},
        {"e", "float64[:, :](int64)", "Python's classes", 8, 28},
        {"t", "float64[:, :](float64[:, :])", "k must be an integer", 11, 23},
        {"o", "float64[:, :](float64[:])", "np.outer(a, b, out)", 14, 27},
    };
    uf_error err;
    uf_module *m = uf_module_from_string(ctx, "npmatrix_bad.py", csrc, &err);
    uf_assert_ok(m != NULL, &err);
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        uf_func *f = uf_module_get(m, want[i].name, &err);
        uf_assert_ok(f != NULL, &err);
        char *text = uf_func_inspect(f, want[i].sig, UF_INSPECT_TYPES, &err);
        assert_null(text);
        assert_non_null(strstr(err.file, "npmatrix_bad.py"));
        assert_non_null(strstr(err.message, want[i].text));
        assert_int_equal(err.line, want[i].line);
        assert_int_equal(err.column, want[i].col);
    }
    uf_module_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_views),
        cmocka_unit_test(test_fill_through_view),
        cmocka_unit_test(test_products),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_no_leak),
        cmocka_unit_test(test_out_of_memory),
        cmocka_unit_test(test_refused),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
