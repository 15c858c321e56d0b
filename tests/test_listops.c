/* List operations beyond tests/test_lists.c (compiler/types/
 * infer_list_ops.c, compiler/lower/lower_list_ops.c, common/list_ops.c)
 * through uf_call, for what the Numba oracle (tests/e2e/
 * run_listops_oracle.py) does not see: l.sort() / sorted(x) of reversed
 * strided views and of 10^5 items (checked against qsort), NaNs and
 * -0.0 where Numba's quicksort leaves them, empty lists, no leak across
 * 10^4 calls (uf__nrt_live and uf__alloc_live back where they started),
 * out of memory at every allocation reaching the caller as UF_ERR_NOMEM,
 * and the refusals at file:line:col. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nrt_test_util.h"

static const char src[] =
    "from numba import njit\n"
    "import numpy as np\n"
    "@njit\n"
    "def sort_it(a, r):\n"
    "    l = list(a)\n"
    "    l.sort(reverse=r)\n"
    "    return np.array(l)\n"
    "@njit\n"
    "def sorted_it(a, r):\n"
    "    return np.array(sorted(a, reverse=r))\n"
    "@njit\n"
    "def churn(n):\n"
    "    t = 0.0\n"
    "    for i in range(n):\n"
    "        s = sorted(range(i % 9, 0, -1))\n"
    "        l = [float(i), -1.0, 2.5]\n"
    "        l.sort(reverse=i % 2)\n"
    "        t += len(s) + l[0]\n"
    "        if len(s) > 0:\n"
    "            t += s[0]\n"
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
    mod = uf_module_from_string(ctx, "listops_c.py", src, &err);
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

static int calln(const char *name, uf_array **x, int n, uf_array **out,
                 int nout, uf_error *err)
{
    uf_func *f = uf_module_get(mod, name, err);
    uf_assert_ok(f != NULL, err);
    return uf_call(f, x, n, out, nout, NULL, err);
}

static uf_array *scalar(uf_dtype dt, int64_t v)
{
    uf_error err;
    uf_array *a = uf_empty(dt, 0, NULL, UF_ORDER_C, &err);
    uf_assert_ok(a != NULL, &err);
    if (dt == UF_BOOL)
        *(bool *)uf_array_data(a) = v != 0;
    else
        *(int64_t *)uf_array_data(a) = v;
    return a;
}

static uf_array *vec(const double *v, int64_t n)
{
    uf_error err;
    uf_array *a = uf_empty(UF_FLOAT64, 1, &n, UF_ORDER_C, &err);
    uf_assert_ok(a != NULL, &err);
    if (n > 0)
        memcpy(uf_array_data(a), v, (size_t)n * sizeof *v);
    return a;
}

/* fn(a, reverse) as a new float64 vector of n items, bits compared with
 * want[] (NaN places and signed zeros included). */
static void check_sort(const char *fn, uf_array *a, int64_t rev,
                       const double *want, int64_t n, int line)
{
    uf_error err;
    uf_array *in[2] = {a, scalar(UF_BOOL, rev)}, *r = NULL;
    uf_assert_ok(calln(fn, in, 2, &r, 1, &err) == 0, &err);
    if (uf_array_ndim(r) != 1 || uf_array_shape(r)[0] != n ||
        uf_array_dtype(r) != UF_FLOAT64 ||
        (n > 0 && memcmp(uf_array_data(r), want, (size_t)n * 8) != 0))
        uf_fail_at(__FILE__, line, "%s(reverse=%d) differs", fn, (int)rev);
    uf_array_release(r);
    uf_array_release(in[1]);
}

/* A reversed strided view; Numba's order with NaNs and -0.0 (its
 * quicksort compares with `<` only); an empty list. */
static void test_values(void **state)
{
    (void)state;
    uf_error err;
    double v[9] = {0, 1, 2, 3, 4, 5, 6, 7, 8};
    uf_array *a = vec(v, 9);
    uf_array *s = uf_array_slice(a, "::-3", &err); /* 8, 5, 2 */
    uf_assert_ok(s != NULL, &err);
    static const double up[3] = {2, 5, 8}, down[3] = {8, 5, 2};
    for (int k = 0; k < 2; k++) {
        const char *fn = k ? "sorted_it" : "sort_it";
        check_sort(fn, s, 0, up, 3, __LINE__);
        check_sort(fn, s, 1, down, 3, __LINE__);
    }
    uf_array_release(s);
    s = uf_array_slice(a, "5:2", &err);
    uf_assert_ok(s != NULL, &err);
    check_sort("sorted_it", s, 1, NULL, 0, __LINE__);
    check_sort("sort_it", s, 0, NULL, 0, __LINE__);
    uf_array_release(s);
    uf_array_release(a);
    /* Numba 0.68: [3, nan, -0, 0, 1, nan, -1, 2] and unchanged reversed */
    double w[8] = {3.0, NAN, 1.0, -0.0, 0.0, NAN, 2.0, -1.0};
    double asc[8] = {3.0, NAN, -0.0, 0.0, 1.0, NAN, -1.0, 2.0};
    a = vec(w, 8);
    check_sort("sort_it", a, 0, asc, 8, __LINE__);
    check_sort("sorted_it", a, 1, w, 8, __LINE__);
    uf_array_release(a);
}

static int cmp_up(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/* 10^5 items with many repeats: partitions, the stack, both ways. */
static void test_large(void **state)
{
    (void)state;
    enum { N = 100000 };
    double *v = malloc(N * sizeof *v), *want = malloc(N * sizeof *v);
    assert_non_null(v);
    assert_non_null(want);
    uint64_t x = 12345;
    for (int i = 0; i < N; i++) {
        x = x * 6364136223846793005u + 1442695040888963407u;
        v[i] = (double)((x >> 33) % 5000) - 2500.0;
    }
    memcpy(want, v, N * sizeof *v);
    qsort(want, N, sizeof *want, cmp_up);
    uf_array *a = vec(v, N);
    check_sort("sort_it", a, 0, want, N, __LINE__);
    for (int i = 0; i < N / 2; i++) {
        double t = want[i];
        want[i] = want[N - 1 - i];
        want[N - 1 - i] = t;
    }
    check_sort("sorted_it", a, 1, want, N, __LINE__);
    uf_array_release(a);
    free(v);
    free(want);
}

static int churn_call(void *ud, uf_error *err)
{
    uf_array *x = ud, *r = NULL;
    int rc = calln("churn", &x, 1, &r, 1, err);
    uf_array_release(r);
    return rc;
}

/* 10^4 calls sorting in a loop leave no block and no buffer; out of
 * memory at each allocation is UF_ERR_NOMEM with nothing left. */
static void test_leak_and_oom(void **state)
{
    (void)state;
    uf_error err;
    uf_array *x = scalar(UF_INT64, 30), *r = NULL;
    uf_assert_ok(calln("churn", &x, 1, &r, 1, &err) == 0, &err);
    double first = *(const double *)uf_array_data(r);
    /* sum over i of len(s) + s[0] (1 when not empty) + l[0] (the
     * largest when reversed, else -1) */
    double want = 0;
    for (int i = 0; i < 30; i++) {
        int n = i % 9;
        want += n + (n ? 1 : 0) + (i % 2 ? (i > 2.5 ? i : 2.5) : -1.0);
    }
    assert_true(first == want);
    uf_array_release(r);
    r = NULL;
    long nrt = uf__nrt_live(), live = uf__alloc_live();
    for (int i = 0; i < 10000; i++) {
        uf_assert_ok(calln("churn", &x, 1, &r, 1, &err) == 0, &err);
        assert_true(*(const double *)uf_array_data(r) == first);
        uf_array_release(r);
        r = NULL;
    }
    assert_int_equal(uf__nrt_live(), nrt);
    assert_int_equal(uf__alloc_live(), live);
    uf_array_release(x);
    x = scalar(UF_INT64, 4);
    uf_check_oom_each_alloc("churn", churn_call, x);
    uf_array_release(x);
}

/* Refused at FILE:LINE:COL as Numba's typing refuses them (and key=
 * functions, which Numba takes). */
static void test_refused(void **state)
{
    (void)state;
    static const char bsrc[] =
        "import numpy as np\n"
        "from numba import cuda, njit\n"
        "@njit\n"
        "def neg(x):\n"
        "    return -x\n"
        "@njit\n"
        "def cplx(a):\n"
        "    l = list(a)\n"
        "    l.sort()\n"
        "    return len(l)\n"
        "@njit\n"
        "def keyf(a):\n"
        "    return len(sorted(a, key=neg))\n"
        "@njit\n"
        "def revf(a):\n"
        "    return len(sorted(a, reverse=0.5))\n"
        "@njit\n"
        "def zerod(a):\n"
        "    return len(sorted(a))\n"
        "@cuda.jit\n"
        "def k(out):\n"
        "    out[0] = len(sorted(out))\n";
    static const struct {
        const char *fn, *sig, *want;
        int line, col;
    } cases[] = {
        {"cplx", "(complex128[:],)", "which complex128 does not have", 9, 5},
        {"keyf", "(float64[:],)", "key= functions are not supported", 13,
         30},
        {"revf", "(float64[:],)", "an integer is required for 'reverse'", 16,
         34},
        {"zerod", "(float64[:, :],)", "No implementation of function "
                                      "sorted()", 19, 23},
        {"zerod", "(float64,)", "No implementation of function sorted()", 19,
         23},
        {"k", "void(float64[:])", "not supported in CUDA kernels", 22, 18},
    };
    uf_error err;
    uf_module *m = uf_module_from_string(ctx, "listops_bad.py", bsrc, &err);
    uf_assert_ok(m != NULL, &err);
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        uf_func *f = uf_module_get(m, cases[i].fn, &err);
        uf_assert_ok(f != NULL, &err);
        char *text = uf_func_inspect(f, cases[i].sig, UF_INSPECT_LLVM, &err);
        if (text != NULL)
            uf_fail_at(__FILE__, __LINE__, "%s compiled", cases[i].fn);
        if (strstr(err.message, cases[i].want) == NULL ||
            err.line != cases[i].line || err.column != cases[i].col ||
            strstr(err.file, "listops_bad.py") == NULL)
            uf_fail_at(__FILE__, __LINE__, "%s: %s:%d:%d: %s", cases[i].fn,
                       err.file, err.line, err.column, err.message);
    }
    uf_module_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_values),
        cmocka_unit_test(test_large),
        cmocka_unit_test(test_leak_and_oom),
        cmocka_unit_test(test_refused),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
