/* The lifetime of arrays allocated inside loops (common/nrt.c's sweep,
 * compiler/lower/lower_nrt_loop.c): every pattern gives the value Python
 * would, frees what it allocated (uf__nrt_live back where it started) and
 * keeps the blocks alive at once bounded by what the variables hold
 * (uf__nrt_peak), not by the trip count. Under ASan (UFJIT_SANITIZE) the
 * same runs check that no block is used after its free or freed twice.
 * Rebinding in a loop, a view outliving its variable's rebinding, a view
 * of a loop's block returned, conditional allocation, break / continue /
 * early return, nested loops, a variable of an enclosing loop assigned
 * after the inner one, arrays in tuple variables, iterating over a new
 * array, while loops, callees returning arrays, an error raised mid-loop,
 * and 10^6 iterations of 1 KiB each. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/alloc.h"
#include "common/nrt.h"
#include "test_util.h"

static const char src[] =
    "from numba import njit, guvectorize\n"
    "import numpy as np\n"
    "@njit\n"
    "def rebind(n, m):\n"
    "    s = 0.0\n"
    "    for i in range(n):\n"
    "        t = np.empty(m)\n"
    "        t[m - 1] = i\n"
    "        s += t[m - 1]\n"
    "    return s\n"
    "@njit\n"
    "def view_outlives(n, m):\n"
    "    v = np.zeros(2)\n"
    "    for i in range(n):\n"
    "        t = np.full(m, i * 1.0)\n"
    "        if i == 2:\n"
    "            v = t[1:3]\n"
    "    return v.sum()\n"
    "@njit\n"
    "def view_of_loop_block(n, m):\n"
    "    v = np.arange(1)[::-1]\n"
    "    for i in range(n):\n"
    "        t = np.arange(m) + i\n"
    "        v = t[::-1]\n"
    "    return v\n"
    "@njit\n"
    "def cond_alloc(n):\n"
    "    s = 0.0\n"
    "    t = np.zeros(1)\n"
    "    for i in range(n):\n"
    "        if i % 3 == 0:\n"
    "            t = np.ones(4)\n"
    "        s += t.sum()\n"
    "    return s\n"
    "@njit\n"
    "def brk_cont(n):\n"
    "    s = 0.0\n"
    "    for i in range(n):\n"
    "        t = np.full(3, i * 1.0)\n"
    "        if i % 2 == 0:\n"
    "            continue\n"
    "        if i > n - 3:\n"
    "            break\n"
    "        s += t[1]\n"
    "    return s\n"
    "@njit\n"
    "def early_ret(n, k):\n"
    "    for i in range(n):\n"
    "        t = np.full(2, i * 1.0)\n"
    "        if i == k:\n"
    "            return t\n"
    "    return np.zeros(1)\n"
    "@njit\n"
    "def nested(n, m):\n"
    "    s = 0.0\n"
    "    for i in range(n):\n"
    "        a = np.full(m, 1.0)\n"
    "        for j in range(m):\n"
    "            b = a[j:] + 1.0\n"
    "            s += b[0]\n"
    "    return s\n"
    "@njit\n"
    "def outer_after_inner(n, m):\n"
    "    s = 0.0\n"
    "    y = np.zeros(m)\n"
    "    for j in range(n):\n"
    "        for i in range(m):\n"
    "            t = np.empty(1)\n"
    "            t[0] = y[i]\n"
    "            s += t[0]\n"
    "        y = np.full(m, j + 1.0)\n"
    "    return s\n"
    "@njit\n"
    "def tuple_keep(n):\n"
    "    p = (np.zeros(2), np.zeros(2))\n"
    "    for i in range(n):\n"
    "        p = (np.full(2, i * 1.0), p[0])\n"
    "    return p[1].sum()\n"
    "@njit\n"
    "def iter_new(n):\n"
    "    s = 0.0\n"
    "    for row in np.ones((n, 3)) * 2.0:\n"
    "        t = row + 1.0\n"
    "        s += t.sum()\n"
    "    return s\n"
    "@njit\n"
    "def while_alloc(n):\n"
    "    s = 0.0\n"
    "    i = 0\n"
    "    while i < n:\n"
    "        t = np.arange(4.0)\n"
    "        i += 1\n"
    "        if i % 2 == 0:\n"
    "            continue\n"
    "        s += t[3]\n"
    "    return s\n"
    "@njit\n"
    "def make(m):\n"
    "    return np.full(m, 2.0)\n"
    "@njit\n"
    "def callee_loop(n, m):\n"
    "    s = 0.0\n"
    "    for i in range(n):\n"
    "        a = make(m)\n"
    "        s += a[0] + np.sum(make(m))\n"
    "    return s\n"
    "@njit\n"
    "def dead_base(n):\n"
    "    a = np.arange(6) * 1.0\n"
    "    b = a[1:4]\n"
    "    w = np.ones(2)\n"
    "    s = 0.0\n"
    "    for j in range(n):\n"
    "        s += w[0]\n"
    "        for row in np.ones((3, 2)) * j:\n"
    "            t = row + 1.0\n"
    "            s += t[0]\n"
    "    k = 0\n"
    "    while k < b.shape[0]:\n"
    "        u = np.full(1, b[k])\n"
    "        s += u[0]\n"
    "        k += 1\n"
    "    else:\n"
    "        s += w[1]\n"
    "    return s + b.sum()\n"
    "@njit\n"
    "def tail(a):\n"
    "    return a[1:]\n"
    "@njit\n"
    "def total(a):\n"
    "    return a.sum()\n"
    "@njit\n"
    "def through_callees(n):\n"
    "    u = np.zeros(2)\n"
    "    s = 0.0\n"
    "    for i in range(n):\n"
    "        t = np.full(3, i * 1.0)\n"
    "        s += total(t)\n"
    "        if i == 1:\n"
    "            u = tail(t)\n"
    "    return s + u.sum()\n"
    "@guvectorize(['void(float64[:, :], float64[:])'], '(m,n)->(m)')\n"
    "def gu_rows(x, out):\n"
    "    for r in range(x.shape[0]):\n"
    "        t = x[r, :] * 2.0\n"
    "        out[r] = t.sum()\n"
    "@njit\n"
    "def raise_mid(n, k):\n"
    "    s = 0.0\n"
    "    for i in range(n):\n"
    "        t = np.ones(4)\n"
    "        u = t[1:] * (k - i)\n"
    "        s += t[0] + 0 * (10 // (k - i)) + 0 * u[0]\n"
    "    return s\n"
    "@njit\n"
    "def pair(n):\n"
    "    a = np.arange(n) * 1.0\n"
    "    b = np.ones((2, n))\n"
    "    return a, b\n"
    "@njit\n"
    "def pair_views(n):\n"
    "    a = np.zeros(1)\n"
    "    for i in range(n):\n"
    "        a = np.full(n, i * 1.0)\n"
    "    return a, n * 2, a[::-1]\n"
    "@njit\n"
    "def pair_arg(x, n):\n"
    "    return x[1:], np.zeros(n)\n"
    "@njit\n"
    "def pair_swapped(n):\n"
    "    a, b = pair(n)\n"
    "    return b[1], a\n"
    "@njit\n"
    "def churn(n):\n"
    "    s = 0.0\n"
    "    for i in range(n):\n"
    "        t = np.empty(128)\n"
    "        t[0] = 1.0\n"
    "        s += t[0]\n"
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
    mod = uf_module_from_string(ctx, "nrt_lifetime.py", src, &err);
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

/* name(a, b...) with int64 arguments: its result, or NULL with err. */
static uf_array *call(const char *name, const int64_t *args, int n,
                      uf_error *err)
{
    uf_func *f = uf_module_get(mod, name, err);
    if (!f)
        return NULL;
    uf_array *in[4];
    for (int i = 0; i < n; i++) {
        double v = (double)args[i];
        in[i] = uf_full(UF_INT64, 0, NULL, &v, UF_FLOAT64, UF_ORDER_C, err);
        if (!in[i])
            return NULL;
    }
    uf_array *out = NULL;
    int rc = uf_call(f, in, n, &out, 1, NULL, err);
    for (int i = 0; i < n; i++)
        uf_array_release(in[i]);
    return rc == 0 ? out : NULL;
}

typedef struct scalar_case {
    const char *file;
    int line;
    const char *name;
    int64_t args[2];
    int nargs;
    double want;
    /* blocks alive at once beyond those before the call: those the
     * variables that may still be read point into, one being made */
    long peak;
} scalar_case;

/* Each kernel once to compile it, then measured: its value, nothing left
 * behind, and the high-water mark of live blocks. */
static void test_scalar_patterns(void **state)
{
    (void)state;
    static const scalar_case cases[] = {
        {LOC, "rebind", {1000, 8}, 2, 999.0 * 1000 / 2, 2},
        {LOC, "rebind", {0, 8}, 2, 0.0, 0},
        {LOC, "view_outlives", {50, 4}, 2, 4.0, 3},
        {LOC, "view_outlives", {2, 4}, 2, 0.0, 3},
        {LOC, "cond_alloc", {100, 0}, 1, 400.0, 2},
        {LOC, "brk_cont", {100, 0}, 1, 2401.0, 2},
        {LOC, "nested", {50, 20}, 2, 50 * 20 * 2.0, 4},
        {LOC, "outer_after_inner", {30, 5}, 2, 5.0 * 30 * 29 / 2, 3},
        {LOC, "tuple_keep", {100, 0}, 1, 98 * 2.0, 3},
        {LOC, "tuple_keep", {1, 0}, 1, 0.0, 3},
        {LOC, "iter_new", {100, 0}, 1, 100 * 9.0, 3},
        {LOC, "while_alloc", {1000, 0}, 1, 500 * 3.0, 2},
        {LOC, "callee_loop", {300, 6}, 2, 300 * 14.0, 3},
        /* a dead base under a live view, a variable read only before an
         * inner loop, one read only in a while's else: n + 3 * sum(j + 1)
         * + (1 + 2 + 3) + 1 + (1 + 2 + 3); alive at once: a, w, a temporary
         * of each of the two array expressions not yet swept, the iterated
         * product, t and the t before it */
        {LOC, "dead_base", {20, 0}, 1, 20 + 3 * 210.0 + 6 + 1 + 6, 7},
        {LOC, "dead_base", {200, 0}, 1, 200 + 3 * 20100.0 + 6 + 1 + 6, 7},
        /* sum over i of 3i, plus the view of i == 1's block: 2 * 1.0 */
        {LOC, "through_callees", {100, 0}, 1, 3.0 * 99 * 100 / 2 + 2.0, 3},
    };
    uf_error err;
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const scalar_case *k = &cases[c];
        uf_array *w = call(k->name, k->args, k->nargs, &err); /* compiled */
        uf_array_release(w);
        long live = uf__nrt_live(), heap = uf__alloc_live();
        uf__nrt_peak_reset();
        uf_array *r = call(k->name, k->args, k->nargs, &err);
        long peak = uf__nrt_peak() - live;
        if (!r)
            uf_fail_at(k->file, k->line, "%s: %s", k->name, err.message);
        double got = *(double *)uf_array_data(r);
        if (got != k->want)
            uf_fail_at(k->file, k->line, "%s: %.17g, want %.17g", k->name,
                       got, k->want);
        uf_array_release(r);
        if (uf__nrt_live() != live || uf__alloc_live() != heap)
            uf_fail_at(k->file, k->line, "%s left %ld blocks", k->name,
                       uf__nrt_live() - live);
        printf("%s(%lld, %lld): %ld blocks alive at most\n", k->name,
               (long long)k->args[0], (long long)k->args[1], peak);
        if (peak > k->peak)
            uf_fail_at(k->file, k->line, "%s: %ld blocks alive at once, "
                       "want at most %ld", k->name, peak, k->peak);
    }
}

/* A view of the last iteration's block, returned: the caller's array
 * owns that block, every other iteration's is gone. */
static void test_returned_views(void **state)
{
    (void)state;
    uf_error err;
    uf_array *w = call("view_of_loop_block", (int64_t[]){3, 4}, 2, &err);
    uf_array_release(w);
    long live = uf__nrt_live();
    uf__nrt_peak_reset();
    uf_array *r = call("view_of_loop_block", (int64_t[]){500, 5}, 2, &err);
    uf_assert_ok(r != NULL, &err);
    assert_true(uf__nrt_peak() - live <= 3);
    assert_int_equal(uf__nrt_live(), live + 1);
    assert_int_equal(uf_array_dtype(r), UF_INT64);
    assert_int_equal(uf_array_shape(r)[0], 5);
    assert_int_equal(uf_array_strides(r)[0], -8);
    for (int i = 0; i < 5; i++) /* element i is i strides away */
        assert_int_equal(((int64_t *)uf_array_data(r))[-i], 499 + 4 - i);
    uf_array_release(r);
    assert_int_equal(uf__nrt_live(), live);

    /* an early return from inside the loop: that iteration's block */
    for (int64_t k = 0; k < 3; k++) {
        r = call("early_ret", (int64_t[]){10, k == 2 ? 20 : k * 4}, 2, &err);
        uf_assert_ok(r != NULL, &err);
        int64_t n = uf_array_shape(r)[0];
        assert_int_equal(n, k == 2 ? 1 : 2);
        for (int64_t i = 0; i < n; i++)
            assert_true(((double *)uf_array_data(r))[i] ==
                        (k == 2 ? 0.0 : (double)(k * 4)));
        uf_array_release(r);
        assert_int_equal(uf__nrt_live(), live);
    }
}

/* A guvectorize kernel allocating in a loop, on both host targets: each
 * call's blocks freed per iteration, however many rows the threads run. */
static void test_gufunc_loop(void **state)
{
    (void)state;
    static const char *const targets[] = {"cpu", "parallel"};
    uf_error err;
    uf_func *f = uf_module_get(mod, "gu_rows", &err);
    uf_assert_ok(f != NULL, &err);
    int64_t shape[3] = {64, 500, 7};
    uf_array *x = uf_empty(UF_FLOAT64, 3, shape, UF_ORDER_C, &err);
    uf_assert_ok(x != NULL, &err);
    double *xd = uf_array_data(x);
    for (int i = 0; i < 64 * 500 * 7; i++)
        xd[i] = i % 11;
    for (int t = 0; t < 2; t++) {
        uf_call_options o = {.size = sizeof o, .target = targets[t]};
        uf_array *out = NULL;
        uf_assert_ok(uf_call(f, &x, 1, &out, 1, &o, &err) == 0, &err);
        uf_array_release(out);
        long live = uf__nrt_live();
        uf__nrt_peak_reset();
        out = NULL;
        uf_assert_ok(uf_call(f, &x, 1, &out, 1, &o, &err) == 0, &err);
        const double *od = uf_array_data(out);
        for (int r = 0; r < 64 * 500; r++) {
            double want = 0;
            for (int j = 0; j < 7; j++)
                want += 2.0 * ((r * 7 + j) % 11);
            if (od[r] != want)
                uf_fail_at(__FILE__, __LINE__, "%s row %d: %g, want %g",
                           targets[t], r, od[r], want);
        }
        uf_array_release(out);
        assert_int_equal(uf__nrt_live(), live);
        /* two per call running at once, a call per thread */
        long peak = uf__nrt_peak() - live;
        printf("gu_rows on %s: %ld blocks alive at most\n", targets[t], peak);
        assert_true(peak <= 2 * 64);
    }
    uf_array_release(x);
}

/* f(args) with nout results into res[]; 0 or the error code. */
static int call_n(const char *name, uf_array **in, int nin, uf_array **res,
                  int nout, uf_error *err)
{
    uf_func *f = uf_module_get(mod, name, err);
    if (!f)
        return err->code;
    for (int k = 0; k < nout; k++)
        res[k] = NULL;
    return uf_call(f, in, nin, res, nout, NULL, err);
}

static uf_array *i64(int64_t v)
{
    uf_error err;
    double d = (double)v;
    uf_array *a = uf_full(UF_INT64, 0, NULL, &d, UF_FLOAT64, UF_ORDER_C,
                          &err);
    uf_assert_ok(a != NULL, &err);
    return a;
}

/* Tuples holding arrays through uf_call: each array owns a reference to
 * its block (two views of one block share it), a view of an argument
 * comes back as a view of it, numbers beside them as 0-d arrays. */
static void test_returned_tuples(void **state)
{
    (void)state;
    uf_error err;
    uf_array *n = i64(4), *res[3];
    uf_assert_ok(call_n("pair", &n, 1, res, 2, &err) == 0, &err); /* jit */
    uf_array_release(res[0]);
    uf_array_release(res[1]);
    long live = uf__nrt_live();
    uf_assert_ok(call_n("pair", &n, 1, res, 2, &err) == 0, &err);
    assert_int_equal(uf__nrt_live(), live + 2);
    assert_int_equal(uf_array_ndim(res[0]), 1);
    assert_int_equal(uf_array_ndim(res[1]), 2);
    assert_int_equal(uf_array_shape(res[1])[0], 2);
    assert_int_equal(uf_array_shape(res[1])[1], 4);
    for (int i = 0; i < 4; i++) {
        assert_true(((double *)uf_array_data(res[0]))[i] == i);
        assert_true(((double *)uf_array_data(res[1]))[4 + i] == 1.0);
    }
    uf_array_release(res[0]);
    assert_int_equal(uf__nrt_live(), live + 1);
    uf_array_release(res[1]);
    assert_int_equal(uf__nrt_live(), live);

    /* one block behind two results; the loop's other blocks freed */
    uf_assert_ok(call_n("pair_views", &n, 1, res, 3, &err) == 0, &err);
    uf_array_release(res[0]);
    uf_array_release(res[1]);
    uf_array_release(res[2]);
    uf__nrt_peak_reset();
    uf_assert_ok(call_n("pair_views", &n, 1, res, 3, &err) == 0, &err);
    assert_int_equal(uf__nrt_live(), live + 1);
    assert_true(uf__nrt_peak() - live <= 3);
    assert_int_equal(uf_array_ndim(res[1]), 0);
    assert_int_equal(*(int64_t *)uf_array_data(res[1]), 8);
    assert_int_equal(uf_array_strides(res[2])[0], -8);
    uf_array_release(res[0]);
    assert_int_equal(uf__nrt_live(), live + 1); /* the view holds it */
    for (int i = 0; i < 4; i++)
        assert_true(((double *)uf_array_data(res[2]))[-i] == 3.0);
    uf_array_release(res[1]);
    uf_array_release(res[2]);
    assert_int_equal(uf__nrt_live(), live);

    /* a view of an argument (a view, as in Numba) beside a new array */
    uf_array *x = uf_arange(0, 5, 1, UF_FLOAT64, &err);
    uf_assert_ok(x != NULL, &err);
    uf_array *in[2] = {x, n};
    uf_assert_ok(call_n("pair_arg", in, 2, res, 2, &err) == 0, &err);
    assert_int_equal(uf_array_shape(res[0])[0], 4);
    assert_true(uf_array_data(res[0]) == (char *)uf_array_data(x) + 8);
    ((double *)uf_array_data(x))[1] = -1.0; /* the view sees it */
    assert_true(((double *)uf_array_data(res[0]))[0] == -1.0);
    assert_int_equal(uf__nrt_live(), live + 1);
    uf_array_release(res[0]);
    uf_array_release(res[1]);
    assert_int_equal(uf__nrt_live(), live);

    /* njit calling njit: the callee's tuple, taken apart and returned */
    uf_assert_ok(call_n("pair_swapped", &n, 1, res, 2, &err) == 0, &err);
    assert_int_equal(uf__nrt_live(), live + 2);
    assert_int_equal(uf_array_ndim(res[0]), 1);
    assert_true(((double *)uf_array_data(res[1]))[3] == 3.0);
    uf_array_release(res[0]);
    uf_array_release(res[1]);
    assert_int_equal(uf__nrt_live(), live);

    /* results given by the caller: copied into, the blocks freed */
    int64_t s24[2] = {2, 4};
    uf_array *o0 = uf_zeros(UF_FLOAT64, 1, s24 + 1, UF_ORDER_C, &err);
    uf_array *o1 = uf_zeros(UF_FLOAT32, 2, s24, UF_ORDER_C, &err);
    res[0] = o0;
    res[1] = o1;
    uf_func *f = uf_module_get(mod, "pair", &err);
    uf_assert_ok(uf_call(f, &n, 1, res, 2, NULL, &err) == 0, &err);
    assert_true(((float *)uf_array_data(o1))[7] == 1.0f);
    assert_true(((double *)uf_array_data(o0))[3] == 3.0);
    assert_int_equal(uf__nrt_live(), live);
    uf_array_release(o0);
    uf_array_release(o1);
    uf_array_release(x);
    uf_array_release(n);
}

/* An exception mid-loop frees every block of the frame once. */
static void test_raise_mid_loop(void **state)
{
    (void)state;
    uf_error err;
    uf_array *r = call("raise_mid", (int64_t[]){10, 99}, 2, &err);
    uf_assert_ok(r != NULL, &err); /* compiled: caches allocate once */
    assert_true(*(double *)uf_array_data(r) == 10.0);
    uf_array_release(r);
    long live = uf__nrt_live(), heap = uf__alloc_live();
    for (int64_t k = 0; k < 40; k += 13) {
        assert_null(call("raise_mid", (int64_t[]){100, k}, 2, &err));
        assert_non_null(strstr(err.message, "ZeroDivisionError"));
        assert_int_equal(uf__nrt_live(), live);
        assert_int_equal(uf__alloc_live(), heap);
    }
}

/* 10^6 iterations allocating 1 KiB each keep at most two blocks alive. */
static void test_million_iterations(void **state)
{
    (void)state;
    uf_error err;
    uf_array *w = call("churn", (int64_t[]){3}, 1, &err);
    uf_assert_ok(w != NULL, &err);
    uf_array_release(w);
    long live = uf__nrt_live();
    uf__nrt_peak_reset();
    uf_array *r = call("churn", (int64_t[]){1000000}, 1, &err);
    uf_assert_ok(r != NULL, &err);
    assert_true(*(double *)uf_array_data(r) == 1e6);
    uf_array_release(r);
    assert_int_equal(uf__nrt_live(), live);
    long peak = uf__nrt_peak() - live;
    printf("churn(10^6): %ld blocks alive at most\n", peak);
    assert_true(peak <= 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scalar_patterns),
        cmocka_unit_test(test_returned_views),
        cmocka_unit_test(test_returned_tuples),
        cmocka_unit_test(test_gufunc_loop),
        cmocka_unit_test(test_raise_mid_loop),
        cmocka_unit_test(test_million_iterations),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
