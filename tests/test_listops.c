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
    "    return t\n"
    "@njit\n"
    "def ops(a, k):\n"
    "    l = list(a)\n"
    "    m = l[::-2] + l * k\n"
    "    m += l[1:]\n"
    "    m *= 2\n"
    "    m += m\n"
    "    return np.array(m), m == l * k, l < m\n"
    "@njit\n"
    "def rep(a, k):\n"
    "    return len(list(a) * k)\n"
    "@njit\n"
    "def irep(a, k):\n"
    "    l = list(a)\n"
    "    l *= k\n"
    "    return len(l)\n";

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

/* l[::-2] + l * k, then += a slice, *= 2, += itself; == and < */
static void check_ops(int64_t n, int64_t k, int line)
{
    uf_error err;
    double v[8];
    for (int64_t i = 0; i < n; i++)
        v[i] = (double)(i * 3 % 5) - 0.5;
    double want[200];
    int64_t m = 0;
    for (int64_t i = n - 1; i >= 0; i -= 2)
        want[m++] = v[i];
    for (int64_t r = 0; r < k; r++)
        for (int64_t i = 0; i < n; i++)
            want[m++] = v[i];
    for (int64_t i = 1; i < n; i++)
        want[m++] = v[i];
    memcpy(want + m, want, (size_t)m * sizeof *want); /* *= 2 */
    m *= 2;
    memcpy(want + m, want, (size_t)m * sizeof *want); /* += itself */
    m *= 2;
    uf_array *in[2] = {vec(v, n), scalar(UF_INT64, k)}, *out[3] = {0};
    uf_assert_ok(calln("ops", in, 2, out, 3, &err) == 0, &err);
    if (uf_array_shape(out[0])[0] != m ||
        (m > 0 && memcmp(uf_array_data(out[0]), want,
                         (size_t)m * sizeof *want) != 0))
        uf_fail_at(__FILE__, line, "ops(%d, %d) items differ", (int)n,
                   (int)k);
    /* m == l * k only when both are empty; l < m: l is a prefix-free
     * comparison decided by the first items, or the lengths */
    bool eq = m == 0 && (n == 0 || k <= 0);
    if (*(const bool *)uf_array_data(out[1]) != eq)
        uf_fail_at(__FILE__, line, "ops(%d, %d): ==", (int)n, (int)k);
    bool lt = false;
    int64_t i = 0;
    for (; i < n && i < m && v[i] == want[i]; i++)
        ;
    lt = i < n && i < m ? v[i] < want[i] : n < m;
    if (*(const bool *)uf_array_data(out[2]) != lt)
        uf_fail_at(__FILE__, line, "ops(%d, %d): <", (int)n, (int)k);
    for (int j = 0; j < 3; j++)
        uf_array_release(out[j]);
    uf_array_release(in[0]);
    uf_array_release(in[1]);
}

static void test_ops(void **state)
{
    (void)state;
    check_ops(5, 2, __LINE__);
    check_ops(4, 0, __LINE__);
    check_ops(3, -7, __LINE__);
    check_ops(0, 3, __LINE__);
    check_ops(1, 1, __LINE__);
}

static int ops_call(void *ud, uf_error *err)
{
    uf_array **in = ud, *out[3] = {0};
    int rc = calln("ops", in, 2, out, 3, err);
    for (int j = 0; j < 3; j++)
        uf_array_release(out[j]);
    return rc;
}

/* Out of memory at every allocation of the slice, +, *, += and *=; a
 * repeat count past int64 items is UF_ERR_NOMEM too, nothing left. */
static void test_ops_oom(void **state)
{
    (void)state;
    uf_error err;
    double v[6] = {1, 2, 3, 4, 5, 6};
    uf_array *in[2] = {vec(v, 6), scalar(UF_INT64, 3)};
    uf_assert_ok(ops_call(in, &err) == 0, &err);
    uf_check_oom_each_alloc("ops", ops_call, in);
    for (int k = 0; k < 2; k++) { /* compiled first */
        uf_array *r = NULL;
        uf_assert_ok(calln(k ? "irep" : "rep", in, 2, &r, 1, &err) == 0,
                     &err);
        assert_int_equal(*(const int64_t *)uf_array_data(r), 18);
        uf_array_release(r);
    }
    uf_array_release(in[1]);
    in[1] = scalar(UF_INT64, INT64_MAX / 3);
    long nrt = uf__nrt_live(), live = uf__alloc_live();
    for (int k = 0; k < 2; k++) {
        uf_array *r = NULL;
        assert_int_equal(calln(k ? "irep" : "rep", in, 2, &r, 1, &err),
                         UF_ERR_NOMEM);
        assert_null(r);
    }
    assert_int_equal(uf__nrt_live(), nrt);
    assert_int_equal(uf__alloc_live(), live);
    uf_array_release(in[0]);
    uf_array_release(in[1]);
}

/* Refused at FILE:LINE:COL as Numba's typing refuses them. */
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
        "    return len(sorted(a, key=3))\n"
        "@njit\n"
        "def revf(a):\n"
        "    return len(sorted(a, reverse=0.5))\n"
        "@njit\n"
        "def zerod(a):\n"
        "    return len(sorted(a))\n"
        "@cuda.jit\n"
        "def k(out):\n"
        "    out[0] = len(sorted(out))\n"
        "@njit\n"
        "def chain(a):\n"
        "    l = list(a)\n"
        "    return l < l <= l\n"
        "@njit\n"
        "def boolrep(a):\n"
        "    return len(list(a) * True)\n"
        "@njit\n"
        "def cplus(a, b):\n"
        "    l = list(a)\n"
        "    l += list(b)\n"
        "    return len(l)\n";
    static const struct {
        const char *fn, *sig, *want;
        int line, col;
    } cases[] = {
        {"cplx", "(complex128[:],)", "which complex128 does not have", 9, 5},
        {"keyf", "(float64[:],)", "Key must be None or a Numba JIT", 13,
         30},
        {"revf", "(float64[:],)", "an integer is required for 'reverse'", 16,
         34},
        {"zerod", "(float64[:, :],)", "No implementation of function "
                                      "sorted()", 19, 23},
        {"zerod", "(float64,)", "No implementation of function sorted()", 19,
         23},
        {"k", "void(float64[:])", "not supported in CUDA kernels", 22, 18},
        {"chain", "(float64[:],)", "chain of comparisons", 26, 12},
        {"boolrep", "(float64[:],)", "unsupported operand types for *", 29,
         16},
        {"cplus", "(float64[:], complex128[:])", "unsupported operand types "
                                                 "for +=", 33, 5},
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
        cmocka_unit_test(test_ops),
        cmocka_unit_test(test_ops_oom),
        cmocka_unit_test(test_refused),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
