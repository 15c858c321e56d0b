/* Lists inside kernels (compiler/types/infer_list.c, compiler/lower/
 * lower_list.c, common/list.c) through uf_call, for what the Numba oracle
 * (tests/e2e/run_lists_oracle.py) cannot see: values checked here over
 * reversed and strided views, negative indices, empty lists, the
 * IndexErrors' codes and messages, aliasing through a helper, a list
 * grown to 10^6 items, no leak across 10^5 calls (uf__nrt_live and
 * uf__alloc_live back where they started: the items buffers are counted
 * by the latter), out of memory at every allocation (the header, each
 * growth, np.array's copy) reaching the caller as UF_ERR_NOMEM, and the
 * refusals at file:line:col. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nrt_test_util.h"

static const char src[] =
    "from numba import njit, prange\n"
    "import numpy as np\n"
    "@njit\n"
    "def collect(a):\n"
    "    l = []\n"
    "    for v in a:\n"
    "        l.append(v)\n"
    "    return np.array(l)\n"
    "@njit\n"
    "def pick(a, i):\n"
    "    l = [a[0], a[1], a[2]]\n"
    "    l[i] = -l[i]\n"
    "    return l[i] + l[-1] * 1000\n"
    "@njit\n"
    "def fill(l, n):\n"
    "    for i in range(n):\n"
    "        l.append(i)\n"
    "@njit\n"
    "def shared(n):\n"
    "    a = [100]\n"
    "    b = a\n"
    "    fill(b, n)\n"
    "    return len(a), sum(a), a[-1]\n"
    "@njit\n"
    "def grow(n):\n"
    "    l = []\n"
    "    for i in range(n):\n"
    "        l.append(i * 0.5)\n"
    "    s = 0.0\n"
    "    for v in l:\n"
    "        s += v\n"
    "    return s, len(l), l[n // 2]\n"
    "@njit\n"
    "def stats(a):\n"
    "    l = []\n"
    "    for v in a:\n"
    "        if v == v:\n"
    "            l.append(v)\n"
    "    if not l:\n"
    "        return -1.0, 0.0, False\n"
    "    return min(l), sum(l), np.inf in l\n"
    "@njit\n"
    "def empty_min(n):\n"
    "    l = [1.0]\n"
    "    l[0] = 2.0\n"
    "    m = [0.5]\n"
    "    if n > 0:\n"
    "        m = [l[0]]\n"
    "    l2 = []\n"
    "    for i in range(n):\n"
    "        l2.append(i)\n"
    "    return min(l2)\n"
    "@njit\n"
    "def churn(n):\n"
    "    t = 0.0\n"
    "    for i in range(n):\n"
    "        l = [float(i)]\n"
    "        for k in range(i % 7):\n"
    "            l.append(k * 1.5)\n"
    "        t += np.array(l).sum()\n"
    "    return t\n";

static uf_context *ctx;
static uf_module *mod;

static int setup(void **state)
{
    (void)state;
    uf_error err;
    ctx = uf_context_new(&err);
    if (!ctx)
        return -1;
    mod = uf_module_from_string(ctx, "lists_c.py", src, &err);
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

static int calln(const char *name, uf_array **x, int n, uf_array **out,
                 int nout, uf_error *err)
{
    return uf_call(fn(name), x, n, out, nout, NULL, err);
}

static uf_array *i64(int64_t v)
{
    uf_error err;
    uf_array *a = uf_empty(UF_INT64, 0, NULL, UF_ORDER_C, &err);
    uf_assert_ok(a != NULL, &err);
    *(int64_t *)uf_array_data(a) = v;
    return a;
}

static uf_array *vec(const double *v, int64_t n)
{
    uf_error err;
    uf_array *a = uf_empty(UF_FLOAT64, 1, &n, UF_ORDER_C, &err);
    uf_assert_ok(a != NULL, &err);
    memcpy(uf_array_data(a), v, (size_t)n * sizeof *v);
    return a;
}

static double f64_of(const uf_array *a)
{
    return *(const double *)uf_array_data(a);
}

static int64_t i64_of(const uf_array *a)
{
    return *(const int64_t *)uf_array_data(a);
}

/* np.array(l) of a list filled from a reversed strided view, and of an
 * empty one. */
static void test_collect_views(void **state)
{
    (void)state;
    uf_error err;
    double v[9] = {0, 1, 2, 3, 4, 5, 6, 7, 8};
    uf_array *a = vec(v, 9);
    uf_array *s = uf_array_slice(a, "::-3", &err);
    uf_assert_ok(s != NULL, &err);
    uf_array *r = NULL;
    uf_assert_ok(calln("collect", &s, 1, &r, 1, &err) == 0, &err);
    assert_int_equal(uf_array_ndim(r), 1);
    assert_int_equal(uf_array_shape(r)[0], 3);
    assert_int_equal(uf_array_dtype(r), UF_FLOAT64);
    const double *d = uf_array_data(r);
    assert_true(d[0] == 8 && d[1] == 5 && d[2] == 2);
    uf_array_release(r);
    r = NULL; /* a non-NULL out is written into */
    uf_array *e = uf_array_slice(a, "5:2", &err);
    uf_assert_ok(e != NULL, &err);
    uf_assert_ok(calln("collect", &e, 1, &r, 1, &err) == 0, &err);
    assert_int_equal(uf_array_shape(r)[0], 0);
    uf_array_release(r);
    uf_array_release(e);
    uf_array_release(s);
    uf_array_release(a);
}

/* l[i] and l[i] = v with negative i; one past either end: Numba's
 * IndexError (its words: "getitem out of range"). */
static void test_index(void **state)
{
    (void)state;
    uf_error err;
    double v[3] = {1.5, 2.5, 3.5};
    uf_array *in[2] = {vec(v, 3), NULL};
    static const struct {
        int64_t i;
        double want;
    } ok[] = {{0, -1.5 + 3500}, {2, -3.5 - 3500}, {-1, -3.5 - 3500},
              {-3, -1.5 + 3500}, {1, -2.5 + 3500}};
    for (size_t k = 0; k < sizeof ok / sizeof *ok; k++) {
        in[1] = i64(ok[k].i);
        uf_array *r = NULL;
        uf_assert_ok(calln("pick", in, 2, &r, 1, &err) == 0, &err);
        assert_true(f64_of(r) == ok[k].want);
        uf_array_release(r);
        uf_array_release(in[1]);
    }
    static const int64_t bad[] = {3, -4, INT64_MAX, INT64_MIN};
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        in[1] = i64(bad[k]);
        uf_array *r = NULL;
        assert_int_not_equal(calln("pick", in, 2, &r, 1, &err), 0);
        assert_null(r);
        assert_non_null(strstr(err.message, "IndexError: getitem out of "
                                            "range"));
        uf_array_release(in[1]);
    }
    uf_array_release(in[0]);
}

/* b = a shares the list; a helper appending to it changes both. */
static void test_aliasing(void **state)
{
    (void)state;
    uf_error err;
    for (int64_t n = 0; n < 40; n += 13) {
        uf_array *x = i64(n), *out[3] = {0};
        uf_assert_ok(calln("shared", &x, 1, out, 3, &err) == 0, &err);
        assert_int_equal(i64_of(out[0]), n + 1);
        assert_int_equal(i64_of(out[1]), 100 + n * (n - 1) / 2);
        assert_int_equal(i64_of(out[2]), n ? n - 1 : 100);
        for (int k = 0; k < 3; k++)
            uf_array_release(out[k]);
        uf_array_release(x);
    }
}

/* 10^6 appends (the buffer doubles some 20 times), then a loop over it. */
static void test_million(void **state)
{
    (void)state;
    uf_error err;
    const int64_t n = 1000000;
    uf_array *x = i64(n), *out[3] = {0};
    uf_assert_ok(calln("grow", &x, 1, out, 3, &err) == 0, &err);
    assert_true(f64_of(out[0]) == 0.5 * (double)(n * (n - 1) / 2));
    assert_int_equal(i64_of(out[1]), n);
    assert_true(f64_of(out[2]) == 0.5 * (double)(n / 2));
    for (int k = 0; k < 3; k++)
        uf_array_release(out[k]);
    uf_array_release(x);
}

/* NaN left out, inf found by `in`, an empty list false; min of an empty
 * list raises StopIteration as Numba's. */
static void test_special(void **state)
{
    (void)state;
    uf_error err;
    double v[5] = {NAN, 4.0, INFINITY, -2.0, NAN};
    uf_array *a = vec(v, 5), *out[3] = {0};
    uf_assert_ok(calln("stats", &a, 1, out, 3, &err) == 0, &err);
    assert_true(f64_of(out[0]) == -2.0);
    assert_true(isinf(f64_of(out[1])));
    assert_true(*(const bool *)uf_array_data(out[2]));
    for (int k = 0; k < 3; k++) {
        uf_array_release(out[k]);
        out[k] = NULL;
    }
    uf_array_release(a);
    double w[2] = {NAN, NAN};
    a = vec(w, 2);
    uf_assert_ok(calln("stats", &a, 1, out, 3, &err) == 0, &err);
    assert_true(f64_of(out[0]) == -1.0);
    for (int k = 0; k < 3; k++)
        uf_array_release(out[k]);
    uf_array_release(a);
    uf_array *x = i64(0), *r = NULL;
    assert_int_not_equal(calln("empty_min", &x, 1, &r, 1, &err), 0);
    assert_non_null(strstr(err.message, "StopIteration"));
    uf_array_release(x);
    r = NULL;
    x = i64(5);
    uf_assert_ok(calln("empty_min", &x, 1, &r, 1, &err) == 0, &err);
    assert_int_equal(i64_of(r), 0);
    uf_array_release(r);
    uf_array_release(x);
}

/* 10^5 calls making lists in a loop leave no block and no buffer. */
static void test_no_leak(void **state)
{
    (void)state;
    uf_error err;
    uf_array *x = i64(20), *r = NULL;
    uf_assert_ok(calln("churn", &x, 1, &r, 1, &err) == 0, &err);
    double first = f64_of(r);
    uf_array_release(r);
    r = NULL;
    long nrt = uf__nrt_live(), live = uf__alloc_live();
    for (int i = 0; i < 100000; i++) {
        uf_assert_ok(calln("churn", &x, 1, &r, 1, &err) == 0, &err);
        assert_true(f64_of(r) == first);
        uf_array_release(r);
        r = NULL;
    }
    assert_int_equal(uf__nrt_live(), nrt);
    assert_int_equal(uf__alloc_live(), live);
    uf_array_release(x);
}

static int oom_call(void *ud, uf_error *err)
{
    uf_array *x = ud, *r = NULL;
    int rc = calln("churn", &x, 1, &r, 1, err);
    uf_array_release(r);
    return rc;
}

static int oom_grow(void *ud, uf_error *err)
{
    uf_array *x = ud, *out[3] = {0};
    int rc = calln("grow", &x, 1, out, 3, err);
    for (int k = 0; k < 3; k++)
        uf_array_release(out[k]);
    return rc;
}

static void test_out_of_memory(void **state)
{
    (void)state;
    uf_error err;
    uf_array *x = i64(9);
    uf_assert_ok(oom_call(x, &err) == 0, &err); /* compiled */
    uf_check_oom_each_alloc("churn", oom_call, x);
    uf_array_release(x);
    x = i64(100); /* 4, 8, ... 128 items: six growths */
    uf_assert_ok(oom_grow(x, &err) == 0, &err);
    uf_check_oom_each_alloc("grow", oom_grow, x);
    uf_array_release(x);
}

/* Refused at FILE:LINE:COL: a list never appended to, a list returned to
 * the API, a list in a CUDA kernel, an append in a parallel prange. */
static void test_refused(void **state)
{
    (void)state;
    static const char bsrc[] =
        "import numpy as np\n"
        "from numba import cuda, njit, prange\n"
        "@njit\n"
        "def never(n):\n"
        "    l = []\n"
        "    return len(l)\n"
        "@njit\n"
        "def back(n):\n"
        "    l = [n]\n"
        "    return l\n"
        "@cuda.jit\n"
        "def k(out):\n"
        "    l = [1.0]\n"
        "    out[0] = l[0]\n"
        "@njit(parallel=True)\n"
        "def par(n):\n"
        "    l = [0]\n"
        "    for i in prange(n):\n"
        "        l.append(i)\n"
        "    return len(l)\n";
    static const struct {
        const char *fn, *sig, *want;
        int line, col;
    } cases[] = {
        {"never", "(int64,)", "Cannot infer the type of variable 'l'", 5, 5},
        {"back", "(int64,)", "return np.array(l) or a tuple", 10, 5},
        {"k", "void(float64[:])", "not supported in CUDA kernels", 13, 9},
        {"par", "(int64,)", "prange body run in parallel", 19, 9},
    };
    uf_error err;
    uf_module *m = uf_module_from_string(ctx, "lists_bad.py", bsrc, &err);
    uf_assert_ok(m != NULL, &err);
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        uf_func *f = uf_module_get(m, cases[i].fn, &err);
        uf_assert_ok(f != NULL, &err);
        char *text = uf_func_inspect(f, cases[i].sig, UF_INSPECT_LLVM, &err);
        if (text != NULL)
            uf_fail_at(__FILE__, __LINE__, "%s compiled", cases[i].fn);
        if (strstr(err.message, cases[i].want) == NULL ||
            err.line != cases[i].line || err.column != cases[i].col ||
            strstr(err.file, "lists_bad.py") == NULL)
            uf_fail_at(__FILE__, __LINE__, "%s: %s:%d:%d: %s", cases[i].fn,
                       err.file, err.line, err.column, err.message);
    }
    uf_module_free(m);
    /* a comprehension in a while condition would be hoisted out of the
     * loop: refused when the file is read */
    static const char wsrc[] =
        "from numba import njit\n"
        "@njit\n"
        "def w(a):\n"
        "    k = 0\n"
        "    while len([v for v in a if v > k]) > 0:\n"
        "        k += 1\n"
        "    return k\n";
    assert_null(uf_module_from_string(ctx, "lists_while.py", wsrc, &err));
    assert_int_equal(err.line, 5);
    assert_int_equal(err.column, 15);
    assert_non_null(strstr(err.message, "list comprehension here"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_collect_views),
        cmocka_unit_test(test_index),
        cmocka_unit_test(test_aliasing),
        cmocka_unit_test(test_million),
        cmocka_unit_test(test_special),
        cmocka_unit_test(test_no_leak),
        cmocka_unit_test(test_out_of_memory),
        cmocka_unit_test(test_refused),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
