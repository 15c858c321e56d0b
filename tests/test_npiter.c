/* np.ndindex, np.ndenumerate and np.nditer as for-loop iterables
 * (compiler/types/infer_npiter.c, compiler/lower/lower_npiter.c) through
 * uf_call, for what the Numba oracle (tests/e2e/run_npiter_oracle.py)
 * cannot see: views built here (reversed, every other column) walked in
 * the order computed here, writes through np.nditer's 0-d views landing
 * in the caller's memory (F order walked in memory order), nditer's
 * ValueError code and message, a 0 in the shape running nothing (and the
 * else block), a NaN passing through, the optimised loop of
 * `for idx in np.ndindex(a.shape)` keeping no index array in memory, no
 * leak across 10^5 calls that allocate in the nest, out of memory at
 * every allocation reaching the caller as UF_ERR_NOMEM, and the
 * refusals at file:line:col. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nrt_test_util.h"

static const char src[] =
    "from numba import njit\n"
    "import numpy as np\n"
    "@njit\n"
    "def order(a):\n"
    "    s = 0.0\n"
    "    k = 0\n"
    "    for idx in np.ndindex(a.shape):\n"
    "        k += 1\n"
    "        s += a[idx] * k\n"
    "    return s\n"
    "@njit\n"
    "def enum_write(a):\n"
    "    for (i, j), v in np.ndenumerate(a):\n"
    "        a[i, j] = v * 100 + i * 10 + j\n"
    "@njit\n"
    "def iter_write(a):\n"
    "    k = 0\n"
    "    for x in np.nditer(a):\n"
    "        k += 1\n"
    "        x[()] = k\n"
    "@njit\n"
    "def pair(a, b):\n"
    "    s = 0.0\n"
    "    for x, y in np.nditer((a, b)):\n"
    "        s += x[()] * y[()]\n"
    "    return s\n"
    "@njit\n"
    "def count(a):\n"
    "    n = 0\n"
    "    for idx, v in np.ndenumerate(a):\n"
    "        n += 1\n"
    "    else:\n"
    "        n += 1000\n"
    "    return n\n"
    "@njit\n"
    "def total(a):\n"
    "    s = 0.0\n"
    "    for idx, v in np.ndenumerate(a):\n"
    "        s += v\n"
    "    return s\n"
    "@njit\n"
    "def nd_sum(a):\n"
    "    s = 0.0\n"
    "    for idx in np.ndindex(a.shape):\n"
    "        s += a[idx]\n"
    "    return s\n"
    "@njit\n"
    "def item(a):\n"
    "    return a.item()\n"
    "@njit\n"
    "def mix(a):\n"
    "    s = 0.0\n"
    "    for i, j in np.ndindex(a.shape):\n"
    "        t = np.ones(i + j + 300)\n" /* past the 2 KiB stack buffer */
    "        s += t.sum() * a[i, j]\n"
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
    mod = uf_module_from_string(ctx, "npiter_c.py", src, &err);
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

/* f(x[0..n)) -> its one result, or none (nout 0); -1 on failure. */
static int calln(const char *name, uf_array **x, int n, uf_array **out,
                 int nout, uf_error *err)
{
    return uf_call(fn(name), x, n, out, nout, NULL, err);
}

static double scalar(const char *name, uf_array **x, int n)
{
    uf_error err;
    uf_array *r = NULL;
    uf_assert_ok(calln(name, x, n, &r, 1, &err) == 0, &err);
    double v = uf_array_dtype(r) == UF_INT64 ? (double)*(int64_t *)
                                                  uf_array_data(r)
                                            : *(double *)uf_array_data(r);
    uf_array_release(r);
    return v;
}

/* A float64 array of `shape` and order whose element at flat position k
 * (in memory) is k + 1. */
static uf_array *ramp(int nd, const int64_t *shape, uf_order order)
{
    uf_error err;
    uf_array *a = uf_empty(UF_FLOAT64, nd, shape, order, &err);
    uf_assert_ok(a != NULL, &err);
    double *d = uf_array_data(a);
    int64_t n = 1;
    for (int i = 0; i < nd; i++)
        n *= shape[i];
    for (int64_t k = 0; k < n; k++)
        d[k] = (double)(k + 1);
    return a;
}

static double *at(const uf_array *a, const int64_t *idx)
{
    const int64_t *st = uf_array_strides(a);
    char *p = (char *)uf_array_data(a);
    for (int i = 0; i < uf_array_ndim(a); i++)
        p += idx[i] * st[i];
    return (double *)p;
}

/* np.ndindex over a reversed, every-other-column 3-D view: C order of
 * the view's logical shape, weighted by the iteration count. */
static void test_ndindex_view_order(void **state)
{
    (void)state;
    uf_error err;
    int64_t shape[3] = {3, 4, 6};
    uf_array *g = ramp(3, shape, UF_ORDER_C);
    uf_array *v = uf_array_slice(g, "::-1, 1:, ::2", &err);
    uf_assert_ok(v != NULL, &err);
    double want = 0;
    int64_t k = 0, idx[3];
    for (idx[0] = 0; idx[0] < 3; idx[0]++)
        for (idx[1] = 0; idx[1] < 3; idx[1]++)
            for (idx[2] = 0; idx[2] < 3; idx[2]++)
                want += *at(v, idx) * (double)++k;
    assert_true(scalar("order", &v, 1) == want);
    uf_array_release(v);
    uf_array_release(g);
}

/* Writes through np.ndenumerate's indices into a strided view, and
 * through np.nditer's views into an F array (its memory order). */
static void test_writes(void **state)
{
    (void)state;
    uf_error err;
    int64_t shape[2] = {5, 6};
    uf_array *g = ramp(2, shape, UF_ORDER_C);
    uf_array *v = uf_array_slice(g, "::-2, 1::2", &err);
    uf_assert_ok(v != NULL, &err);
    double before[3][3];
    int64_t idx[2];
    for (idx[0] = 0; idx[0] < 3; idx[0]++)
        for (idx[1] = 0; idx[1] < 3; idx[1]++)
            before[idx[0]][idx[1]] = *at(v, idx);
    assert_int_equal(calln("enum_write", &v, 1, NULL, 0, &err), 0);
    for (idx[0] = 0; idx[0] < 3; idx[0]++)
        for (idx[1] = 0; idx[1] < 3; idx[1]++)
            assert_true(*at(v, idx) == before[idx[0]][idx[1]] * 100 +
                                           (double)(idx[0] * 10 + idx[1]));
    /* the rows the view skips are untouched */
    assert_true(((double *)uf_array_data(g))[6] == 7.0);
    uf_array_release(v);
    uf_array_release(g);
    uf_array *f = ramp(2, shape, UF_ORDER_F);
    assert_int_equal(calln("iter_write", &f, 1, NULL, 0, &err), 0);
    const double *d = uf_array_data(f);
    for (int k = 0; k < 30; k++) /* F layout: the first index fastest */
        assert_true(d[k] == (double)(k + 1));
    uf_array_release(f);
    f = ramp(2, shape, UF_ORDER_C);
    v = uf_array_slice(f, ":, ::-1", &err); /* 'A': C order, logically */
    uf_assert_ok(v != NULL, &err);
    assert_int_equal(calln("iter_write", &v, 1, NULL, 0, &err), 0);
    for (idx[0] = 0; idx[0] < 5; idx[0]++)
        for (idx[1] = 0; idx[1] < 6; idx[1]++)
            assert_true(*at(v, idx) == (double)(idx[0] * 6 + idx[1] + 1));
    uf_array_release(v);
    uf_array_release(f);
}

/* np.nditer((a, b)): b's shape must be a's trailing dimensions, no
 * stretching of 1s: ValueError otherwise. */
static void test_nditer_shapes(void **state)
{
    (void)state;
    uf_error err;
    int64_t s23[2] = {2, 3}, s3 = 3, s13[2] = {1, 3};
    uf_array *a = ramp(2, s23, UF_ORDER_C);
    uf_array *b = ramp(1, &s3, UF_ORDER_C);
    uf_array *c = ramp(2, s13, UF_ORDER_C);
    uf_array *args[2] = {a, b};
    /* sum over (i, j) of (3i + j + 1) * (j + 1) */
    assert_true(scalar("pair", args, 2) == 14.0 + 32.0);
    args[1] = c;
    uf_array *r = NULL;
    assert_int_not_equal(calln("pair", args, 2, &r, 1, &err), 0);
    assert_null(r);
    assert_int_equal(err.code, UF_ERR_VALUE);
    assert_non_null(strstr(err.message, "ValueError: nditer(): operands "
                                        "could not be broadcast together"));
    uf_array_release(c);
    uf_array_release(b);
    uf_array_release(a);
}

/* A 0 anywhere in the shape: no iteration, the else block runs; a NaN
 * and an inf reach the sum. */
static void test_empty_and_nan(void **state)
{
    (void)state;
    int64_t s[3] = {4, 0, 3};
    uf_array *e = ramp(3, s, UF_ORDER_C);
    assert_true(scalar("count", &e, 1) == 1000.0);
    assert_true(scalar("nd_sum", &e, 1) == 0.0);
    uf_array_release(e);
    int64_t s2[2] = {2, 2};
    uf_array *g = ramp(2, s2, UF_ORDER_C);
    ((double *)uf_array_data(g))[3] = NAN;
    assert_true(isnan(scalar("total", &g, 1)));
    ((double *)uf_array_data(g))[3] = INFINITY;
    assert_true(isinf(scalar("total", &g, 1)));
    uf_array_release(g);
}

/* a.item(): the one element of a strided view; Numba's ValueError for
 * any other size. */
static void test_item(void **state)
{
    (void)state;
    uf_error err;
    int64_t s[2] = {4, 5};
    uf_array *g = ramp(2, s, UF_ORDER_F);
    uf_array *v = uf_array_slice(g, "2:3, ::-4", &err);
    uf_assert_ok(v != NULL, &err);
    uf_array *one = uf_array_slice(v, ":, 1:", &err); /* (1, 1) */
    uf_assert_ok(one != NULL, &err);
    int64_t idx[2] = {0, 0};
    assert_true(scalar("item", &one, 1) == *at(one, idx));
    assert_true(*at(one, idx) == 3.0); /* g[2, 0] in F order */
    uf_array *r = NULL;
    assert_int_not_equal(calln("item", &v, 1, &r, 1, &err), 0);
    assert_null(r);
    assert_int_equal(err.code, UF_ERR_VALUE);
    assert_non_null(strstr(err.message, "ValueError: item(): can only "
                                        "convert an array of size 1 to a "
                                        "Python scalar"));
    uf_array_release(one);
    uf_array_release(v);
    uf_array_release(g);
}

/* The optimised IR of the ndindex sum keeps no index array: no alloca,
 * and the loads of a go straight to memory, as the double loop's. */
static void test_ndindex_promoted(void **state)
{
    (void)state;
    uf_error err;
    char *ir = uf_func_inspect(fn("nd_sum"), "float64(float64[:, ::1])",
                               UF_INSPECT_LLVM, &err);
    uf_assert_ok(ir != NULL, &err);
    assert_null(strstr(ir, "alloca"));
    assert_non_null(strstr(ir, "fadd"));
    free(ir);
}

/* 10^5 calls of a kernel allocating in every iteration of the nest leave
 * no block and no allocation behind. */
static void test_no_leak(void **state)
{
    (void)state;
    int64_t s[2] = {3, 4};
    uf_array *g = ramp(2, s, UF_ORDER_C);
    double first = scalar("mix", &g, 1);
    long nrt = uf__nrt_live(), live = uf__alloc_live();
    for (int i = 0; i < 100000; i++)
        assert_true(scalar("mix", &g, 1) == first);
    assert_int_equal(uf__nrt_live(), nrt);
    assert_int_equal(uf__alloc_live(), live);
    uf_array_release(g);
}

static int oom_call(void *ud, uf_error *err)
{
    uf_array *x = ud, *out = NULL;
    if (calln("mix", &x, 1, &out, 1, err) != 0)
        return err->code;
    uf_array_release(out);
    return 0;
}

static void test_out_of_memory(void **state)
{
    (void)state;
    uf_error err;
    int64_t s[2] = {2, 3};
    uf_array *g = ramp(2, s, UF_ORDER_C);
    uf_assert_ok(oom_call(g, &err) == 0, &err); /* compiled */
    uf_check_oom_each_alloc("mix", oom_call, g);
    uf_array_release(g);
}

/* Refused at FILE:LINE:COL: an iterator kept in a variable, a float
 * dimension, np.ndenumerate of a number. */
static void test_refused(void **state)
{
    (void)state;
    static const char bsrc[] =
        "import numpy as np\n"
        "from numba import njit\n"
        "@njit\n"
        "def kept(n):\n"
        "    it = np.ndindex(n)\n"
        "    return 0\n"
        "@njit\n"
        "def flt(n, x):\n"
        "    for idx in np.ndindex(n, x):\n"
        "        pass\n"
        "@njit\n"
        "def num(x):\n"
        "    for idx, v in np.ndenumerate(x):\n"
        "        pass\n";
    static const struct {
        const char *name, *sig;
        int line, col;
        const char *msg;
    } cases[] = {
        {"kept", "int64(int64)", 5, 10, "iterable of a for loop only"},
        {"flt", "void(int64, float64)", 9, 30, "takes integers"},
        {"num", "void(float64)", 13, 34, "takes an array, not float64"},
    };
    uf_error err;
    uf_module *m = uf_module_from_string(ctx, "npiter_bad.py", bsrc, &err);
    uf_assert_ok(m != NULL, &err);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uf_func *f = uf_module_get(m, cases[i].name, &err);
        uf_assert_ok(f != NULL, &err);
        char *text = uf_func_inspect(f, cases[i].sig, UF_INSPECT_TYPES, &err);
        assert_null(text);
        assert_non_null(strstr(err.file, "npiter_bad.py"));
        assert_int_equal(err.line, cases[i].line);
        assert_int_equal(err.column, cases[i].col);
        assert_non_null(strstr(err.message, cases[i].msg));
    }
    uf_module_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ndindex_view_order),
        cmocka_unit_test(test_writes),
        cmocka_unit_test(test_nditer_shapes),
        cmocka_unit_test(test_empty_and_nan),
        cmocka_unit_test(test_item),
        cmocka_unit_test(test_ndindex_promoted),
        cmocka_unit_test(test_no_leak),
        cmocka_unit_test(test_out_of_memory),
        cmocka_unit_test(test_refused),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
