/* Advanced indexing inside kernels (compiler/types/infer_fancy.c,
 * compiler/lower/lower_fancy.c) through uf_call, for what the Numba
 * oracle (tests/e2e/run_fancy_oracle.py) cannot see: views built here
 * (reversed, every other column) gathered and masked against values read
 * here, the result's C strides, NaN and inf against a mask, int8 and
 * uint64 indices at their extremes, the errors' codes and messages
 * (IndexError out of range or for a mask of another length, a store's
 * ValueError), a store whose source overlaps its target, no leak across
 * 10^5 calls, out of memory at every allocation reaching the caller as
 * UF_ERR_NOMEM, the refusals at file:line:col; several index arrays
 * (a[i, j]) broadcast together over views and strided index arrays, their
 * errors, stores and repeats. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nrt_test_util.h"

static const char src[] =
    "from numba import njit\n"
    "import numpy as np\n"
    "@njit\n"
    "def cols(a, idx):\n"
    "    return a[:, idx]\n"
    "@njit\n"
    "def take(a, idx):\n"
    "    return a[idx]\n"
    "@njit\n"
    "def positive(a):\n"
    "    return a[a > 0]\n"
    "@njit\n"
    "def masked(a, m):\n"
    "    return a[m]\n"
    "@njit\n"
    "def put(a, idx, v):\n"
    "    a[idx] = v\n"
    "    return a\n"
    "@njit\n"
    "def put_self(a, idx):\n"
    "    a[idx] = a[::-1][:idx.shape[0]]\n"
    "    return a\n"
    "@njit\n"
    "def mix(a, idx):\n"
    "    s = 0.0\n"
    "    for i in range(3):\n"
    "        b = a[idx]\n"
    "        c = b[b > 0]\n"
    "        b[idx % b.shape[0]] += 1.0\n"
    "        b[b < 0] = np.array([0.5])\n"
    "        s += c.sum() + b.sum() + np.array([1.0, 2.0])[1] + i\n"
    "    return s\n"
    "@njit\n"
    "def two(a, i, j):\n"
    "    return a[i, j]\n"
    "@njit\n"
    "def put_two(a, i, j, v):\n"
    "    a[i, j] = v\n"
    "    return a\n"
    "@njit\n"
    "def add_two(a, i, j):\n"
    "    a[i, j] += 1.0\n"
    "    return a\n"
    "@njit\n"
    "def mix2(a, i, j):\n"
    "    s = 0.0\n"
    "    for k in range(3):\n"
    "        b = a[i[:, None], j]\n"
    "        b[i % b.shape[0], j % b.shape[1]] += 1.0\n"
    "        a[i, j] = b[0, 0]\n"
    "        s += b.sum() + a[i[::-1], j].sum()\n"
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
    mod = uf_module_from_string(ctx, "fancy_c.py", src, &err);
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

/* A 2-D float64 array whose element (i, j) is ((i * cols + j) * 37 mod
 * 101) - 50. */
static uf_array *grid(int64_t rows, int64_t cols)
{
    uf_error err;
    int64_t shape[2] = {rows, cols};
    uf_array *a = uf_empty(UF_FLOAT64, 2, shape, UF_ORDER_C, &err);
    uf_assert_ok(a != NULL, &err);
    double *d = uf_array_data(a);
    for (int64_t k = 0; k < rows * cols; k++)
        d[k] = (double)((k * 37) % 101) - 50.0;
    return a;
}

/* A 1-D array of n elements of dt from v[] (as int64). */
static uf_array *ints(uf_dtype dt, const int64_t *v, int64_t n)
{
    uf_error err;
    uf_array *a = uf_empty(dt, 1, &n, UF_ORDER_C, &err);
    uf_assert_ok(a != NULL, &err);
    for (int64_t k = 0; k < n; k++) {
        char *p = (char *)uf_array_data(a) + k * uf_dtype_itemsize(dt);
        switch (dt) {
        case UF_INT8:
            *(int8_t *)p = (int8_t)v[k];
            break;
        case UF_INT32:
            *(int32_t *)p = (int32_t)v[k];
            break;
        case UF_UINT64:
            *(uint64_t *)p = (uint64_t)v[k];
            break;
        case UF_BOOL:
            *(uint8_t *)p = v[k] != 0;
            break;
        default:
            *(int64_t *)p = v[k];
        }
    }
    return a;
}

static double at2(const uf_array *a, int64_t i, int64_t j)
{
    const int64_t *st = uf_array_strides(a);
    return *(const double *)((const char *)uf_array_data(a) + i * st[0] +
                             j * st[1]);
}

static double at1(const uf_array *a, int64_t i)
{
    return *(const double *)((const char *)uf_array_data(a) +
                             i * uf_array_strides(a)[0]);
}

/* a[:, idx] of a reversed view taking every other column, int32 indices
 * negative and repeated: a new C array of the values read here. */
static void test_gather_views(void **state)
{
    (void)state;
    uf_error err;
    uf_array *g = grid(6, 9);
    uf_array *v = uf_array_slice(g, "::-1, 1::2", &err);
    uf_assert_ok(v != NULL, &err);
    int64_t iv[5] = {3, -1, 0, 0, -4};
    uf_array *idx = ints(UF_INT32, iv, 5);
    uf_array *args[2] = {v, idx};
    uf_array *r = calln("cols", args, 2, &err);
    uf_assert_ok(r != NULL, &err);
    assert_int_equal(uf_array_ndim(r), 2);
    assert_int_equal(uf_array_shape(r)[0], 6);
    assert_int_equal(uf_array_shape(r)[1], 5);
    assert_int_equal(uf_array_strides(r)[1], 8);
    assert_int_equal(uf_array_strides(r)[0], 40);
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 5; j++)
            assert_true(at2(r, i, j) == at2(v, i, (iv[j] + 4) % 4));
    uf_array_release(r);
    uf_array_release(idx);
    /* int8 -128 wraps on an axis of 200; uint64 2**63 is out of range */
    uf_array *g2 = grid(1, 200);
    uf_array *row = uf_array_slice(g2, "0", &err);
    uf_assert_ok(row != NULL, &err);
    int64_t lo[1] = {-128};
    args[0] = row;
    args[1] = idx = ints(UF_INT8, lo, 1);
    r = calln("take", args, 2, &err);
    uf_assert_ok(r != NULL, &err);
    assert_true(at1(r, 0) == at1(row, 72));
    uf_array_release(r);
    uf_array_release(idx);
    int64_t hi[1] = {INT64_MIN};
    args[1] = idx = ints(UF_UINT64, hi, 1);
    assert_null(calln("take", args, 2, &err));
    assert_int_equal(err.code, UF_ERR_INDEX);
    assert_non_null(strstr(err.message, "index 9223372036854775808 is out "
                                        "of bounds for axis 0 with size "
                                        "200"));
    uf_array_release(idx);
    uf_array_release(row);
    uf_array_release(g2);
    uf_array_release(v);
    uf_array_release(g);
}

/* a[a > 0] with NaN and infinities: NaN is not selected, +inf is; an
 * empty array gives an empty result; a mask of another length and an
 * index out of range raise IndexError. */
static void test_masks(void **state)
{
    (void)state;
    uf_error err;
    int64_t n = 6;
    uf_array *a = uf_empty(UF_FLOAT64, 1, &n, UF_ORDER_C, &err);
    uf_assert_ok(a != NULL, &err);
    double vals[6] = {NAN, INFINITY, -INFINITY, 0.0, 2.5, -0.0};
    memcpy(uf_array_data(a), vals, sizeof vals);
    uf_array *r = calln("positive", &a, 1, &err);
    uf_assert_ok(r != NULL, &err);
    assert_int_equal(uf_array_shape(r)[0], 2);
    assert_true(isinf(at1(r, 0)) && at1(r, 0) > 0);
    assert_true(at1(r, 1) == 2.5);
    uf_array_release(r);
    int64_t zero = 0;
    uf_array *e = uf_empty(UF_FLOAT64, 1, &zero, UF_ORDER_C, &err);
    r = calln("positive", &e, 1, &err);
    uf_assert_ok(r != NULL, &err);
    assert_int_equal(uf_array_shape(r)[0], 0);
    uf_array_release(r);
    uf_array_release(e);
    /* a 2-D mask of the array's shape, on a reversed view: C order */
    uf_array *g = grid(3, 4);
    uf_array *v = uf_array_slice(g, "::-1, ::-1", &err);
    r = calln("positive", &v, 1, &err);
    uf_assert_ok(r != NULL, &err);
    int64_t k = 0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 4; j++)
            if (at2(v, i, j) > 0)
                assert_true(at1(r, k++) == at2(v, i, j));
    assert_int_equal(uf_array_shape(r)[0], k);
    uf_array_release(r);
    /* mask length 5 against 6 elements */
    int64_t mv[5] = {1, 0, 1, 0, 1};
    uf_array *m = ints(UF_BOOL, mv, 5);
    uf_array *args[2] = {a, m};
    assert_null(calln("masked", args, 2, &err));
    assert_int_equal(err.code, UF_ERR_INDEX);
    assert_non_null(strstr(err.message, "IndexError: boolean index did not "
                                        "match indexed array"));
    uf_array_release(m);
    int64_t iv[2] = {1, 6};
    uf_array *idx = ints(UF_INT64, iv, 2);
    args[1] = idx;
    assert_null(calln("take", args, 2, &err));
    assert_int_equal(err.code, UF_ERR_INDEX);
    assert_non_null(strstr(err.message, "index 6 is out of bounds for "
                                        "axis 0 with size 6"));
    uf_array_release(idx);
    uf_array_release(v);
    uf_array_release(g);
    uf_array_release(a);
}

/* a[idx] = v: broadcast, a shape that does not broadcast is a
 * ValueError, a source overlapping the target is read in full first. */
static void test_stores(void **state)
{
    (void)state;
    uf_error err;
    uf_array *g = grid(1, 6);
    uf_array *a = uf_array_slice(g, "0", &err);
    double before[6];
    for (int i = 0; i < 6; i++)
        before[i] = at1(a, i);
    int64_t iv[3] = {0, 1, 2};
    uf_array *idx = ints(UF_INT64, iv, 3);
    uf_array *args[3] = {a, idx, NULL};
    uf_array *r = calln("put_self", args, 2, &err);
    uf_assert_ok(r != NULL, &err);
    for (int i = 0; i < 3; i++)
        assert_true(at1(a, i) == before[5 - i]);
    for (int i = 3; i < 6; i++)
        assert_true(at1(a, i) == before[i]);
    uf_array_release(r);
    int64_t two = 2;
    args[2] = uf_zeros(UF_FLOAT64, 1, &two, UF_ORDER_C, &err);
    assert_null(calln("put", args, 3, &err));
    assert_int_equal(err.code, UF_ERR_VALUE);
    assert_non_null(strstr(err.message, "ValueError"));
    uf_array_release(args[2]);
    uf_array_release(idx);
    uf_array_release(a);
    uf_array_release(g);
}

/* A 1-D int64 view idx[::-1] of n values: a negative stride. */
static uf_array *reversed_ints(const int64_t *v, int64_t n, uf_array **base)
{
    uf_error err;
    int64_t r[16];
    for (int64_t k = 0; k < n; k++)
        r[k] = v[n - 1 - k];
    *base = ints(UF_INT64, r, n);
    uf_array *x = uf_array_slice(*base, "::-1", &err);
    uf_assert_ok(x != NULL, &err);
    return x;
}

/* a[i, j] of a reversed view, i of shape (2, 1) (int8, negative), j a
 * reversed int64 view of 3: the (2, 3) C array of a[i[r], j[c]]; 0-length
 * index arrays give an empty result; arrays that do not broadcast raise
 * Numba's ValueError; an index out of range its axis's IndexError. */
static void test_two_arrays(void **state)
{
    (void)state;
    uf_error err;
    uf_array *g = grid(4, 5);
    uf_array *v = uf_array_slice(g, "::-1, :", &err);
    uf_assert_ok(v != NULL, &err);
    int64_t iv[2] = {-1, 2}, jv[3] = {4, 0, -2}, shape[2] = {2, 1};
    uf_array *i = uf_empty(UF_INT8, 2, shape, UF_ORDER_C, &err);
    uf_assert_ok(i != NULL, &err);
    ((int8_t *)uf_array_data(i))[0] = (int8_t)iv[0];
    ((int8_t *)uf_array_data(i))[1] = (int8_t)iv[1];
    uf_array *jb;
    uf_array *j = reversed_ints(jv, 3, &jb);
    uf_array *args[3] = {v, i, j};
    uf_array *r = calln("two", args, 3, &err);
    uf_assert_ok(r != NULL, &err);
    assert_int_equal(uf_array_ndim(r), 2);
    assert_int_equal(uf_array_shape(r)[0], 2);
    assert_int_equal(uf_array_shape(r)[1], 3);
    assert_int_equal(uf_array_strides(r)[0], 24);
    for (int a = 0; a < 2; a++)
        for (int b = 0; b < 3; b++)
            assert_true(at2(r, a, b) ==
                        at2(v, (iv[a] + 4) % 4, (jv[b] + 5) % 5));
    uf_array_release(r);
    /* 0-length against 1: empty */
    int64_t one[1] = {1};
    uf_array *e = ints(UF_INT64, one, 0), *o = ints(UF_INT64, one, 1);
    args[1] = e;
    args[2] = o;
    r = calln("two", args, 3, &err);
    uf_assert_ok(r != NULL, &err);
    assert_int_equal(uf_array_ndim(r), 1);
    assert_int_equal(uf_array_shape(r)[0], 0);
    uf_array_release(r);
    /* (0,) against (3,): ValueError */
    args[2] = j;
    assert_null(calln("two", args, 3, &err));
    assert_int_equal(err.code, UF_ERR_VALUE);
    assert_non_null(strstr(err.message, "ValueError: shape mismatch: "
                                        "objects cannot be broadcast to a "
                                        "single shape"));
    /* j = 5 on an axis of 5 */
    int64_t bad[2] = {0, 5};
    uf_array *jj = ints(UF_INT64, bad, 2);
    args[1] = o;
    args[2] = jj;
    assert_null(calln("two", args, 3, &err));
    assert_int_equal(err.code, UF_ERR_INDEX);
    assert_non_null(strstr(err.message, "index 5 is out of bounds for "
                                        "axis 1 with size 5"));
    uf_array_release(jj);
    uf_array_release(o);
    uf_array_release(e);
    uf_array_release(j);
    uf_array_release(jb);
    uf_array_release(i);
    uf_array_release(v);
    uf_array_release(g);
}

/* a[i, j] = v through a reversed view: a repeated pair keeps its last
 * value; a[i, j] += 1 adds once to a repeated pair; a value that does not
 * broadcast to the selection is a ValueError. */
static void test_two_stores(void **state)
{
    (void)state;
    uf_error err;
    uf_array *g = grid(3, 4);
    uf_array *a = uf_array_slice(g, "::-1, ::-1", &err);
    uf_assert_ok(a != NULL, &err);
    double before[3][4];
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 4; c++)
            before[r][c] = at2(a, r, c);
    int64_t iv[3] = {0, 0, 2}, jv[3] = {1, 1, -1};
    uf_array *i = ints(UF_INT64, iv, 3), *j = ints(UF_INT64, jv, 3);
    int64_t three = 3;
    uf_array *val = uf_empty(UF_FLOAT64, 1, &three, UF_ORDER_C, &err);
    double vv[3] = {100.0, 200.0, 300.0};
    memcpy(uf_array_data(val), vv, sizeof vv);
    uf_array *args[4] = {a, i, j, val};
    uf_array *r = calln("put_two", args, 4, &err);
    uf_assert_ok(r != NULL, &err);
    uf_array_release(r);
    for (int rr = 0; rr < 3; rr++)
        for (int c = 0; c < 4; c++) {
            double want = before[rr][c];
            if (rr == 0 && c == 1)
                want = 200.0;
            else if (rr == 2 && c == 3)
                want = 300.0;
            assert_true(at2(a, rr, c) == want);
        }
    r = calln("add_two", args, 3, &err);
    uf_assert_ok(r != NULL, &err);
    uf_array_release(r);
    assert_true(at2(a, 0, 1) == 201.0);
    assert_true(at2(a, 2, 3) == 301.0);
    assert_true(at2(a, 1, 1) == before[1][1]);
    int64_t two = 2;
    args[3] = uf_zeros(UF_FLOAT64, 1, &two, UF_ORDER_C, &err);
    assert_null(calln("put_two", args, 4, &err));
    assert_int_equal(err.code, UF_ERR_VALUE);
    assert_non_null(strstr(err.message, "ValueError: cannot assign slice "
                                        "of shape (3,) from input of shape "
                                        "(2,)"));
    uf_array_release(args[3]);
    uf_array_release(val);
    uf_array_release(j);
    uf_array_release(i);
    uf_array_release(a);
    uf_array_release(g);
}

/* 10^5 calls of a kernel that gathers, masks and stores in a loop leave
 * no block and no allocation behind. */
static void test_no_leak(void **state)
{
    (void)state;
    uf_error err;
    uf_array *g = grid(1, 40);
    uf_array *a = uf_array_slice(g, "0", &err);
    int64_t iv[6] = {0, 39, -1, 5, 5, 17};
    uf_array *idx = ints(UF_INT64, iv, 6);
    uf_array *args[2] = {a, idx};
    uf_array *r = calln("mix", args, 2, &err); /* compiled */
    uf_assert_ok(r != NULL, &err);
    double first = *(double *)uf_array_data(r);
    uf_array_release(r);
    long nrt = uf__nrt_live(), live = uf__alloc_live();
    for (int i = 0; i < 100000; i++) {
        r = calln("mix", args, 2, &err);
        uf_assert_ok(r != NULL, &err);
        assert_true(*(double *)uf_array_data(r) == first);
        uf_array_release(r);
    }
    assert_int_equal(uf__nrt_live(), nrt);
    assert_int_equal(uf__alloc_live(), live);
    uf_array_release(idx);
    uf_array_release(a);
    uf_array_release(g);
}

typedef struct oom_args {
    const char *fn;
    uf_array **x;
    int n;
} oom_args;

static int oom_call(void *ud, uf_error *err)
{
    const oom_args *u = ud;
    uf_array *out = calln(u->fn, u->x, u->n, err);
    if (out == NULL)
        return err->code;
    uf_array_release(out);
    return 0;
}

static void test_out_of_memory(void **state)
{
    (void)state;
    uf_error err;
    uf_array *g = grid(1, 40);
    uf_array *a = uf_array_slice(g, "0", &err);
    int64_t iv[4] = {3, 2, 1, -1};
    uf_array *idx = ints(UF_INT64, iv, 4);
    uf_array *args[2] = {a, idx};
    oom_args u = {"mix", args, 2};
    uf_assert_ok(oom_call(&u, &err) == 0, &err); /* compiled */
    uf_check_oom_each_alloc("mix", oom_call, &u);
    uf_array_release(idx);
    uf_array_release(a);
    uf_array_release(g);
    /* several index arrays: a read, an augmented store, a store */
    g = grid(4, 5);
    int64_t jv[3] = {4, 0, -1};
    uf_array *i = ints(UF_INT64, iv, 3), *j = ints(UF_INT64, jv, 3);
    uf_array *args3[3] = {g, i, j};
    u = (oom_args){"mix2", args3, 3};
    uf_assert_ok(oom_call(&u, &err) == 0, &err);
    uf_check_oom_each_alloc("mix2", oom_call, &u);
    uf_array_release(j);
    uf_array_release(i);
    uf_array_release(g);
}

/* Refused at FILE:LINE:COL: a mask beside an integer array, a float array
 * as an index,
 * a list as an index (Numba's too), any array index in a CUDA kernel. */
static void test_refused(void **state)
{
    (void)state;
    static const char bsrc[] =
        "from numba import njit\n"
        "@njit\n"
        "def f(a, i, j):\n"
        "    return a[i, j]\n"
        "@njit\n"
        "def g(a, x):\n"
        "    return a[x]\n"
        "@njit\n"
        "def h(a):\n"
        "    return a[[1, 2]]\n"
        "from numba import cuda\n"
        "@cuda.jit\n"
        "def k(a, i):\n"
        "    a[i] = 0.0\n";
    static const struct {
        const char *fn, *sig, *want;
        int line, col;
    } cases[] = {
        {"f", "(float64[:, :], int64[:], boolean[:])",
         "a boolean array beside another array index", 4, 17},
        {"g", "(float64[:], float64[:])", "Unsupported array index type "
         "array(float64, 1d, A)", 7, 14},
        {"h", "(float64[:],)", "indices must be integers, not list(int64)",
         10, 14},
        {"k", "void(float64[:], int64[:])", "which CUDA kernels cannot do",
         14, 5},
    };
    uf_error err;
    uf_module *m = uf_module_from_string(ctx, "fancy_bad.py", bsrc, &err);
    uf_assert_ok(m != NULL, &err);
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        uf_func *f = uf_module_get(m, cases[k].fn, &err);
        uf_assert_ok(f != NULL, &err);
        char *text = uf_func_inspect(f, cases[k].sig, UF_INSPECT_TYPES, &err);
        if (text != NULL || !strstr(err.message, cases[k].want) ||
            strcmp(err.file, "fancy_bad.py") != 0 ||
            err.line != cases[k].line || err.column != cases[k].col)
            fail_msg("case %zu: %s:%d:%d: '%s', want %d:%d: '%s'", k,
                     err.file, err.line, err.column, err.message,
                     cases[k].line, cases[k].col, cases[k].want);
    }
    uf_module_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gather_views),
        cmocka_unit_test(test_masks),
        cmocka_unit_test(test_stores),
        cmocka_unit_test(test_two_arrays),
        cmocka_unit_test(test_two_stores),
        cmocka_unit_test(test_no_leak),
        cmocka_unit_test(test_out_of_memory),
        cmocka_unit_test(test_refused),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
