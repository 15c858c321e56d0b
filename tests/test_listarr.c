/* Lists whose items are arrays (compiler/types/infer_list.c, compiler/
 * lower/lower_list_items.c, common/list_items.c) through uf_call, for
 * what the Numba oracle (tests/e2e/run_listarr_oracle.py) cannot see:
 * items outliving every variable that held them (in loops, whose sweeps
 * must keep them, and through callees that append to the caller's list,
 * return a list, or raise after appending), aliasing, 0-d, empty,
 * reversed and NaN items, memory bounded when lists are dropped in a
 * loop, no leak across 10^5 calls (uf__nrt_live and uf__alloc_live back
 * where they started), out of memory at every allocation (each array, the
 * header, each growth of the items) reaching the caller as UF_ERR_NOMEM
 * with nothing left behind, and the refusals at file:line:col. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "module_test_util.h"

static const char src[] =
    "from numba import njit\n"
    "import numpy as np\n"
    "@njit\n"
    "def keep_tmp(n):\n"
    "    l = []\n"
    "    for i in range(n):\n"
    "        l.append(np.zeros(3) + i)\n"
    "    return l[n - 1][0], len(l)\n"
    "@njit\n"
    "def keep(n):\n"
    "    l = []\n"
    "    for i in range(n):\n"
    "        t = np.full(100, float(i))\n"
    "        l.append(t)\n"
    "        t = np.zeros(100)\n"
    "        u = np.ones(100)\n"
    "    s = 0.0\n"
    "    for x in l:\n"
    "        s += x.sum()\n"
    "    return s, len(l)\n"
    "@njit\n"
    "def add(l, n):\n"
    "    l.append(np.full(n, 2.0))\n"
    "    if n > 3:\n"
    "        raise ValueError('too big')\n"
    "    r = [np.arange(float(n))]\n"
    "    return r\n"
    "@njit\n"
    "def shared(n):\n"
    "    a = [np.ones(n)]\n"
    "    b = a\n"
    "    r = add(b, n)\n"
    "    s = 0.0\n"
    "    for i in range(10):\n"
    "        tmp = np.empty(1000)\n"
    "        s += tmp.shape[0] * 0.0\n"
    "    return len(a), a[-1].sum() + s, r[0].sum()\n"
    "@njit\n"
    "def caught(n):\n"
    "    l = [np.ones(n)]\n"
    "    try:\n"
    "        add(l, n)\n"
    "    except Exception:\n"
    "        pass\n"
    "    for i in range(5):\n"
    "        tmp = np.empty(1000)\n"
    "        tmp[0] = 1.0\n"
    "    return len(l), l[-1].sum()\n"
    "@njit\n"
    "def special(a, s):\n"
    "    l = [a, a[::-1], np.zeros(0), a[::-1][1:]]\n"
    "    z = [s]\n"
    "    z.append(s + 1.0)\n"
    "    return l[1][0], l[2].shape[0], l[3][0], z[1] + 0.0, len(l)\n"
    "@njit\n"
    "def churn(n):\n"
    "    t = 0.0\n"
    "    for i in range(n):\n"
    "        l = [np.full(40, float(k)) for k in range(i % 5)]\n"
    "        l.insert(0, np.arange(40.0))\n"
    "        m = l.copy()\n"
    "        m.reverse()\n"
    "        t += m[-1][3] + len(m)\n"
    "    return t\n"
    "@njit\n"
    "def splits(a, n):\n"
    "    t = 0.0\n"
    "    for i in range(3):\n"
    "        b = a * float(i)\n"
    "        parts = np.array_split(b, n)\n"
    "        t += parts[-1].sum() + len(parts)\n"
    "    return t, parts[0][0]\n"
    "@njit\n"
    "def pts(n):\n"
    "    p = []\n"
    "    for i in range(n):\n"
    "        p.append((i, i * 0.5))\n"
    "    s = 0.0\n"
    "    for x, y in p:\n"
    "        s += x * y\n"
    "    return np.array(p)[n - 1, 1] + s\n";

static int setup(void **state)
{
    (void)state;
    return uf_t_module_setup("listarr_c.py", src);
}

static uf_array *f64(const double *v, int nd, int64_t n)
{
    uf_error err;
    uf_array *a = uf_empty(UF_FLOAT64, nd, &n, UF_ORDER_C, &err);
    uf_assert_ok(a != NULL, &err);
    memcpy(uf_array_data(a), v, (size_t)(nd ? n : 1) * sizeof *v);
    return a;
}

/* Arrays appended in a loop whose variable is rebound each iteration,
 * and others made there and dropped: the sweeps keep the list's, free
 * the rest (the peak stays near the list's size). */
static void test_items_outlive(void **state)
{
    (void)state;
    uf_error err;
    for (int64_t n = 0; n <= 50; n += 25) {
        uf_array *x = uf_t_i64(n), *out[2] = {0};
        uf__nrt_peak_reset();
        long base = uf__nrt_live();
        uf_assert_ok(uf_t_call("keep", &x, 1, out, 2, &err) == 0, &err);
        assert_true(uf_t_f64_of(out[0]) == 100.0 * (double)(n * (n - 1) / 2));
        assert_int_equal(uf_t_i64_of(out[1]), n);
        assert_true(uf__nrt_peak() - base <= n + 6);
        uf_t_release(out, 2);
        uf_array_release(x);
    }
}

/* 2000 arrays appended, each made from a temporary that only a sweep
 * frees: past 64 kept blocks a frame's sweeps are amortised (common/nrt.c:
 * skipped while the blocks made since the last full sweep are fewer than
 * those it kept; sweeping every iteration made n appends cost O(n^2)), so
 * the temporaries may wait, but the peak stays within twice what is live
 * and everything is freed at the end. */
static void test_items_outlive_many(void **state)
{
    (void)state;
    uf_error err;
    int64_t n = 2000;
    uf_array *x = uf_t_i64(n), *out[2] = {0};
    uf__nrt_peak_reset();
    long base = uf__nrt_live();
    uf_assert_ok(uf_t_call("keep_tmp", &x, 1, out, 2, &err) == 0, &err);
    assert_true(uf_t_f64_of(out[0]) == (double)(n - 1));
    assert_int_equal(uf_t_i64_of(out[1]), n);
    long peak = uf__nrt_peak() - base;
    assert_true(peak >= n);
    assert_true(peak <= 2 * n + 8);
    uf_t_release(out, 2);
    uf_array_release(x);
    assert_int_equal(uf__nrt_live(), base);
}

/* b = a shares the list; a callee appends a new array to it and returns
 * a list of its own: both survive its frame, freed once by ours. */
static void test_through_callee(void **state)
{
    (void)state;
    uf_error err;
    long nrt = uf__nrt_live();
    uf_array *x = uf_t_i64(3), *out[3] = {0};
    uf_assert_ok(uf_t_call("shared", &x, 1, out, 3, &err) == 0, &err);
    assert_int_equal(uf_t_i64_of(out[0]), 2);
    assert_true(uf_t_f64_of(out[1]) == 6.0);
    assert_true(uf_t_f64_of(out[2]) == 3.0);
    uf_t_release(out, 3);
    assert_int_equal(uf__nrt_live(), nrt);
    uf_array_release(x);
}

/* The callee raises after appending; the caller catches and reads the
 * array it appended. Uncaught, the ValueError reaches uf_call. */
static void test_raise_after_append(void **state)
{
    (void)state;
    uf_error err;
    long nrt = uf__nrt_live();
    uf_array *x = uf_t_i64(5), *out[3] = {0};
    uf_assert_ok(uf_t_call("caught", &x, 1, out, 2, &err) == 0, &err);
    assert_int_equal(uf_t_i64_of(out[0]), 2);
    assert_true(uf_t_f64_of(out[1]) == 10.0);
    uf_t_release(out, 2);
    assert_int_not_equal(uf_t_call("shared", &x, 1, out, 3, &err), 0);
    assert_non_null(strstr(err.message, "ValueError"));
    assert_int_equal(uf__nrt_live(), nrt);
    uf_array_release(x);
}

/* Reversed views, an empty array, a view of a view, 0-d items, NaN. */
static void test_special(void **state)
{
    (void)state;
    uf_error err;
    double v[3] = {1.0, NAN, 3.0}, s = NAN;
    uf_array *in[2] = {f64(v, 1, 3), f64(&s, 0, 0)}, *out[5] = {0};
    uf_assert_ok(uf_t_call("special", in, 2, out, 5, &err) == 0, &err);
    assert_true(uf_t_f64_of(out[0]) == 3.0);
    assert_int_equal(uf_t_i64_of(out[1]), 0);
    assert_true(isnan(uf_t_f64_of(out[2])));
    assert_true(isnan(uf_t_f64_of(out[3])));
    assert_int_equal(uf_t_i64_of(out[4]), 4);
    uf_t_release(out, 5);
    uf_t_release(in, 2);
}

/* 10^5 calls making, copying and dropping lists of arrays in a loop
 * leave no block and no buffer. */
static void test_no_leak(void **state)
{
    (void)state;
    uf_array *x = uf_t_i64(12);
    uf_t_check_no_leak("churn", x, 1, 100000);
    uf_array_release(x);
}

/* np.array_split of a temporary with a run-time count: the parts view
 * it, so the list keeps it until the next sweep; reversed input, counts
 * past the length (empty parts) and negative ones (one part). */
static void test_split_list(void **state)
{
    (void)state;
    uf_error err;
    double v[5] = {1, 2, 3, 4, 5};
    uf_array *base = f64(v, 1, 5);
    uf_array *rev = uf_array_slice(base, "::-1", &err);
    uf_assert_ok(rev != NULL, &err);
    static const struct {
        int64_t n;
        double t, first;
    } cases[] = {{2, 3.0 * 3 + 3 * 2, 10.0}, /* [5 4 3] [2 1] (times i) */
                 {7, 0.0 + 3 * 7, 10.0},      /* 5 of 1 item, 2 empty */
                 {-3, 15.0 * 3 + 3 * 1, 10.0}}; /* the whole */
    long nrt = uf__nrt_live();
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        uf_array *in[2] = {rev, uf_t_i64(cases[k].n)}, *out[2] = {0};
        uf_assert_ok(uf_t_call("splits", in, 2, out, 2, &err) == 0, &err);
        if (uf_t_f64_of(out[0]) != cases[k].t ||
            uf_t_f64_of(out[1]) != cases[k].first)
            uf_fail_at(__FILE__, __LINE__, "n=%lld: %g %g", (long long)
                       cases[k].n, uf_t_f64_of(out[0]), uf_t_f64_of(out[1]));
        uf_t_release(out, 2);
        uf_array_release(in[1]);
    }
    assert_int_equal(uf__nrt_live(), nrt);
    uf_array_release(rev);
    uf_array_release(base);
}

static int oom_split(void *ud, uf_error *err)
{
    uf_array **in = ud, *out[2] = {0};
    int rc = uf_t_call("splits", in, 2, out, 2, err);
    uf_t_release(out, 2);
    return rc;
}

/* A list of (int64, float64) tuples grown past several doublings,
 * unpacked in a loop, copied by np.array into an (n, 2) float64 array. */
static int oom_pts(void *ud, uf_error *err)
{
    uf_array *x = ud, *r = NULL;
    int rc = uf_t_call("pts", &x, 1, &r, 1, err);
    if (rc == 0 && uf_t_f64_of(r) != 49.5 + 0.5 * (99.0 * 100 * 199 / 6))
        uf_fail_at(__FILE__, __LINE__, "pts: %g", uf_t_f64_of(r));
    uf_array_release(r);
    return rc;
}

static void test_out_of_memory(void **state)
{
    (void)state;
    uf_error err;
    uf_array *x = uf_t_i64(7);
    uf_t_check_oom("churn", x, 1);
    uf_t_check_oom("keep", x, 2); /* 7 items: 2 growths */
    uf_t_check_oom("caught", x, 2);
    uf_array_release(x);
    double v[4] = {1, 2, 3, 4};
    uf_array *in[2] = {f64(v, 1, 4), uf_t_i64(3)};
    uf_assert_ok(oom_split(in, &err) == 0, &err);
    uf_check_oom_each_alloc("splits", oom_split, in);
    uf_t_release(in, 2);
    x = uf_t_i64(100);
    uf_assert_ok(oom_pts(x, &err) == 0, &err);
    uf_check_oom_each_alloc("pts", oom_pts, x);
    uf_array_release(x);
}

/* Refused at FILE:LINE:COL: items of two dtypes or two ndims, a list of
 * arrays returned to the API, one in a CUDA kernel. */
static void test_refused(void **state)
{
    (void)state;
    static const char bsrc[] =
        "import numpy as np\n"
        "from numba import cuda, njit\n"
        "@njit\n"
        "def dtypes(a):\n"
        "    l = [a]\n"
        "    l.append(a.astype(np.float32))\n"
        "    return len(l)\n"
        "@njit\n"
        "def ndims(a):\n"
        "    l = [a, np.zeros((2, 2))]\n"
        "    return len(l)\n"
        "@njit\n"
        "def back(a):\n"
        "    return [a]\n"
        "@cuda.jit\n"
        "def k(out):\n"
        "    l = [out]\n"
        "    out[0] = len(l)\n"
        "@njit\n"
        "def in_list(a):\n"
        "    l = [a]\n"
        "    return a in l\n";
    static const struct {
        const char *fn, *sig, *want;
        int line, col;
    } cases[] = {
        {"dtypes", "(float64[:],)", "Cannot unify array(float64, 1d, A) "
         "and array(float32, 1d, C)", 6, 14},
        {"ndims", "(float64[:],)", "Cannot unify array(float64, 1d, A) "
         "and array(float64, 2d, C)", 10, 13},
        {"back", "(float64[:],)", "a list cannot leave the kernel", 14, 5},
        {"k", "void(float64[:])", "not supported in CUDA kernels", 17, 9},
        {"in_list", "(float64[:],)", "list(array(float64, 1d, A))", 22,
         12},
    };
    uf_error err;
    uf_module *m = uf_module_from_string(uf_t_ctx, "listarr_bad.py", bsrc,
                                         &err);
    uf_assert_ok(m != NULL, &err);
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        uf_func *f = uf_module_get(m, cases[i].fn, &err);
        uf_assert_ok(f != NULL, &err);
        char *text = uf_func_inspect(f, cases[i].sig, UF_INSPECT_LLVM, &err);
        if (text != NULL)
            uf_fail_at(__FILE__, __LINE__, "%s compiled", cases[i].fn);
        if (strstr(err.message, cases[i].want) == NULL ||
            err.line != cases[i].line || err.column != cases[i].col ||
            strstr(err.file, "listarr_bad.py") == NULL)
            uf_fail_at(__FILE__, __LINE__, "%s: %s:%d:%d: %s", cases[i].fn,
                       err.file, err.line, err.column, err.message);
    }
    uf_module_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_items_outlive),
        cmocka_unit_test(test_items_outlive_many),
        cmocka_unit_test(test_through_callee),
        cmocka_unit_test(test_raise_after_append),
        cmocka_unit_test(test_special),
        cmocka_unit_test(test_split_list),
        cmocka_unit_test(test_no_leak),
        cmocka_unit_test(test_out_of_memory),
        cmocka_unit_test(test_refused),
    };
    return cmocka_run_group_tests(tests, setup, uf_t_module_teardown);
}
