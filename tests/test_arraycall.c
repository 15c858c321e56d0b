/* np.array of a list filled by one loop (compiler/lower/lower_arraycall.c,
 * Numba's _inline_arraycall) and lists of arrays appended in a loop,
 * through uf_call, for what the Numba oracle (tests/e2e/
 * run_arraycall_oracle.py) does not see: the rewritten kernels make no
 * list at all (their LLVM IR calls no uf__list_new), those that must
 * keep it still do; values; no leak across 10^5 calls (uf__nrt_live and
 * uf__alloc_live back where they started), the rewritten arrays kept by
 * the sweeps of loops that allocate; out of memory at every allocation
 * reaching the caller as UF_ERR_NOMEM with nothing left. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "nrt_test_util.h"

static const char src[] =
    "from numba import njit\n"
    "import numpy as np\n"
    "@njit\n"
    "def fill(n):\n"
    "    l = []\n"
    "    for i in range(n):\n"
    "        l.append(i * 0.5)\n"
    "    return np.array(l)\n"
    "@njit\n"
    "def comp(a):\n"
    "    return np.array([x * 2.0 + 1.0 for x in a])\n"
    "@njit\n"
    "def kept(a):\n"
    "    return np.array([x for x in a if x > 0])\n"
    "@njit\n"
    "def churn(n):\n"
    "    s = 0.0\n"
    "    for k in range(n):\n"
    "        b = np.array([np.zeros(2).sum() + k * j for j in range(k)])\n"
    "        s += b.sum()\n"
    "    return s\n"
    "@njit\n"
    "def two_loops(n):\n"
    "    l = []\n"
    "    for i in range(n):\n"
    "        l.append(i * 1.0)\n"
    "    for i in range(n):\n"
    "        l.append(-i * 1.0)\n"
    "    return np.array(l)\n"
    "@njit\n"
    "def arrays(n):\n"
    "    l = []\n"
    "    for i in range(n):\n"
    "        l.append(np.zeros(3) + i)\n"
    "    s = 0.0\n"
    "    for x in l:\n"
    "        s += x[0] + x[2]\n"
    "    return s\n"
    "@njit\n"
    "def temps(n):\n"
    "    l = []\n"
    "    for i in range(n):\n"
    "        l.append(np.sqrt(np.ones(3) * (i + 1.0)) + np.zeros(3))\n"
    "    s = 0.0\n"
    "    for x in l:\n"
    "        s += x[0] + np.sum(np.ones(2) + x[:2])\n"
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
    mod = uf_module_from_string(ctx, "arraycall_c.py", src, &err);
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

static int call1(const char *name, uf_array *x, uf_array **out,
                 uf_error *err)
{
    uf_func *f = uf_module_get(mod, name, err);
    uf_assert_ok(f != NULL, err);
    return uf_call(f, &x, 1, out, 1, NULL, err);
}

static uf_array *scalar(int64_t v)
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
    if (n > 0)
        memcpy(uf_array_data(a), v, (size_t)n * sizeof *v);
    return a;
}

/* How many times kernel fn's LLVM IR for sig names `what`. */
static int ir_count(const char *fn, const char *sig, const char *what)
{
    uf_error err;
    uf_func *f = uf_module_get(mod, fn, &err);
    uf_assert_ok(f != NULL, &err);
    char *text = uf_func_inspect(f, sig, UF_INSPECT_LLVM, &err);
    uf_assert_ok(text != NULL, &err);
    int n = 0;
    for (const char *p = text; (p = strstr(p, what)) != NULL; p++)
        n++;
    uf_free(text);
    return n;
}

/* Whether kernel fn, compiled for sig, makes a list. */
static bool makes_list(const char *fn, const char *sig)
{
    return ir_count(fn, sig, "@uf__list_new(") > 0;
}

static void test_rewritten(void **state)
{
    (void)state;
    assert_false(makes_list("fill", "(int64,)"));
    assert_false(makes_list("comp", "(float64[:],)"));
    assert_false(makes_list("churn", "(int64,)"));
    /* a condition: the list's length is not the loop's */
    assert_true(makes_list("kept", "(float64[:],)"));
    assert_true(makes_list("two_loops", "(int64,)"));
    /* np.zeros(3) + i: the zeros are a stack buffer (lower_scratch.c),
     * only the sum is a heap block; in temps np.ones and np.zeros too,
     * the appended sum and np.ones(2) + x[:2] are on the heap */
    assert_int_equal(ir_count("arrays", "(int64,)",
                              "call i8* @uf__nrt_alloc("), 1);
    assert_int_equal(ir_count("temps", "(int64,)",
                              "call i8* @uf__nrt_alloc("), 2);
}

static void check_fill(int64_t n)
{
    uf_error err;
    uf_array *x = scalar(n), *r = NULL;
    uf_assert_ok(call1("fill", x, &r, &err) == 0, &err);
    assert_int_equal(uf_array_dtype(r), UF_FLOAT64);
    assert_int_equal(uf_array_ndim(r), 1);
    assert_int_equal(uf_array_shape(r)[0], n);
    const double *d = uf_array_data(r);
    for (int64_t i = 0; i < n; i++)
        if (d[i] != (double)i * 0.5)
            uf_fail_at(__FILE__, __LINE__, "fill(%d)[%d] = %g", (int)n,
                       (int)i, d[i]);
    uf_array_release(r);
    uf_array_release(x);
}

static void test_values(void **state)
{
    (void)state;
    check_fill(0);
    check_fill(1);
    check_fill(100000);
    uf_error err;
    double v[5] = {-1.0, 2.0, 0.0, 3.5, -0.5};
    uf_array *a = vec(v, 5), *r = NULL;
    uf_assert_ok(call1("comp", a, &r, &err) == 0, &err);
    assert_int_equal(uf_array_shape(r)[0], 5);
    for (int i = 0; i < 5; i++)
        assert_true(((const double *)uf_array_data(r))[i] == v[i] * 2 + 1);
    uf_array_release(r);
    r = NULL;
    uf_assert_ok(call1("kept", a, &r, &err) == 0, &err);
    assert_int_equal(uf_array_shape(r)[0], 2);
    assert_true(((const double *)uf_array_data(r))[1] == 3.5);
    uf_array_release(r);
    uf_array_release(a);
    /* Python's answer, all six items (Numba 0.68 rewrites the second
     * loop alone and returns 0, -1, -2) */
    uf_array *x = scalar(3);
    r = NULL;
    uf_assert_ok(call1("two_loops", x, &r, &err) == 0, &err);
    static const double six[6] = {0, 1, 2, 0, -1, -2};
    assert_int_equal(uf_array_shape(r)[0], 6);
    assert_memory_equal(uf_array_data(r), six, sizeof six);
    uf_array_release(r);
    uf_array_release(x);
}

static double scalar_result(const char *fn, int64_t n)
{
    uf_error err;
    uf_array *x = scalar(n), *r = NULL;
    uf_assert_ok(call1(fn, x, &r, &err) == 0, &err);
    double v = *(const double *)uf_array_data(r);
    uf_array_release(r);
    uf_array_release(x);
    return v;
}

/* The loop's sweeps (its body allocates) keep the rewritten array. */
static void test_sweeps(void **state)
{
    (void)state;
    double want = 0; /* sum over k of k * (0 + 1 + ... + k-1) */
    for (int k = 0; k < 40; k++)
        want += k * (k * (k - 1) / 2.0);
    assert_true(scalar_result("churn", 40) == want);
    double w2 = 0;
    for (int i = 0; i < 1000; i++)
        w2 += 2.0 * i;
    assert_true(scalar_result("arrays", 1000) == w2);
    double w3 = 0;
    for (int i = 0; i < 500; i++)
        w3 += 3 * sqrt(i + 1.0) + 2;
    assert_true(fabs(scalar_result("temps", 500) - w3) < 1e-9 * w3);
}

typedef struct leak_case {
    const char *fn;
    uf_array *x;
} leak_case;

static int leak_call(void *ud, uf_error *err)
{
    const leak_case *c = ud;
    uf_array *r = NULL;
    int rc = call1(c->fn, c->x, &r, err);
    uf_array_release(r);
    return rc;
}

/* 10^5 calls of each pattern leave no block and no buffer; out of memory
 * at each allocation is UF_ERR_NOMEM with nothing left. */
static void test_leak_and_oom(void **state)
{
    (void)state;
    uf_error err;
    double v[7] = {1, -2, 3, -4, 5, 6, -7};
    leak_case cases[] = {{"fill", scalar(9)},   {"comp", vec(v, 7)},
                         {"kept", vec(v, 7)},   {"churn", scalar(6)},
                         {"arrays", scalar(5)}, {"temps", scalar(4)}};
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        uf_assert_ok(leak_call(&cases[c], &err) == 0, &err); /* compiled */
        long nrt = uf__nrt_live(), live = uf__alloc_live();
        for (int i = 0; i < 100000; i++)
            uf_assert_ok(leak_call(&cases[c], &err) == 0, &err);
        assert_int_equal(uf__nrt_live(), nrt);
        assert_int_equal(uf__alloc_live(), live);
        uf_check_oom_each_alloc(cases[c].fn, leak_call, &cases[c]);
        uf_array_release(cases[c].x);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rewritten),
        cmocka_unit_test(test_values),
        cmocka_unit_test(test_sweeps),
        cmocka_unit_test(test_leak_and_oom),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
