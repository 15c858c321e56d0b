/* Sorting complex arrays inside kernels (common/npsort.c's complex
 * paths, lower_arrsort.c) through uf_call, for what the Numba oracle
 * cannot see: 20000 complex128 numbers with every NaN class and many
 * ties (the radix path, runs of equal real parts longer than the
 * insertion cutoff) sorted as a qsort with NumPy's comparison sorts
 * them, argsort stable on them, and out of memory at every allocation
 * of a sort reaching the caller as UF_ERR_NOMEM with nothing left. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "common/nrt.h"
#include "test_util.h"

static const char src[] =
    "from numba import njit\n"
    "import numpy as np\n"
    "@njit\n"
    "def sort_np(a):\n"
    "    return np.sort(a)\n"
    "@njit\n"
    "def sort_in_place(a):\n"
    "    a.sort()\n"
    "    return a[0]\n"
    "@njit\n"
    "def argsort_np(a):\n"
    "    return np.argsort(a)\n";

#define N 20000

static uf_context *ctx;
static uf_module *mod;

static int setup(void **state)
{
    (void)state;
    uf_error err;
    ctx = uf_context_new(&err);
    if (!ctx)
        return -1;
    mod = uf_module_from_string(ctx, "complex_sort.py", src, &err);
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

static uf_array *call1(const char *name, uf_array *x, uf_error *err)
{
    uf_func *f = uf_module_get(mod, name, err);
    uf_assert_ok(f != NULL, err);
    uf_array *out = NULL;
    int rc = uf_call(f, &x, 1, &out, 1, NULL, err);
    return rc == 0 ? out : NULL;
}

/* NumPy's complex order (npysort's CLT): a < b. */
static int clt(const double *a, const double *b)
{
    if (a[0] < b[0])
        return a[1] == a[1] || b[1] != b[1];
    if (a[0] > b[0])
        return b[1] != b[1] && a[1] == a[1];
    if (a[0] == b[0] || (a[0] != a[0] && b[0] != b[0]))
        return a[1] < b[1] || (b[1] != b[1] && a[1] == a[1]);
    return b[0] != b[0];
}

static int cmp(const void *x, const void *y)
{
    return clt(x, y) ? -1 : clt(y, x) ? 1 : 0;
}

/* Parts from a few values: NaN, +-inf, +-0.0 and ties everywhere. */
static uf_array *numbers(int64_t n)
{
    static const double few[] = {NAN, INFINITY, -INFINITY, 0.0, -0.0, 1.0,
                                 -1.0, 2.5, -2.5, 7.0, 3.0, -3.0};
    uf_error err;
    uf_array *a = uf_empty(UF_COMPLEX128, 1, &n, UF_ORDER_C, &err);
    uf_assert_ok(a != NULL, &err);
    double *d = uf_array_data(a);
    unsigned seed = 777;
    for (int64_t i = 0; i < n; i++) {
        seed = seed * 1103515245u + 12345u;
        d[2 * i] = few[(seed >> 8) % 12];
        seed = seed * 1103515245u + 12345u;
        d[2 * i + 1] = (seed >> 8) % 4 == 0 ? (double)((seed >> 12) % 1000)
                                             : few[(seed >> 8) % 12];
    }
    return a;
}

static int same(const double *x, const double *y)
{
    for (int p = 0; p < 2; p++)
        if (!(x[p] == y[p] || (isnan(x[p]) && isnan(y[p]))))
            return 0;
    return 1;
}

static void test_order_and_stability(void **state)
{
    (void)state;
    uf_error err;
    uf_array *x = numbers(N);
    const double *xd = uf_array_data(x);
    double *want = malloc(sizeof(double) * 2 * N);
    assert_non_null(want);
    memcpy(want, xd, sizeof(double) * 2 * N);
    qsort(want, N, 2 * sizeof(double), cmp);
    uf_array *s = call1("sort_np", x, &err);
    uf_assert_ok(s != NULL, &err);
    const double *sd = uf_array_data(s);
    for (int i = 0; i < N; i++)
        if (!same(sd + 2 * i, want + 2 * i))
            uf_fail_at(__FILE__, __LINE__, "sorted[%d] = %g%+gj, want "
                       "%g%+gj", i, sd[2 * i], sd[2 * i + 1], want[2 * i],
                       want[2 * i + 1]);
    uf_array_release(s);
    uf_array *o = call1("argsort_np", x, &err);
    uf_assert_ok(o != NULL, &err);
    const int64_t *od = uf_array_data(o);
    for (int i = 0; i < N; i++) {
        assert_true(same(xd + 2 * od[i], want + 2 * i));
        /* stable: equal keys keep their order */
        if (i > 0 && cmp(xd + 2 * od[i - 1], xd + 2 * od[i]) == 0)
            assert_true(od[i] > od[i - 1]);
    }
    uf_array_release(o);
    free(want);
    uf_array_release(x);
}

/* Allocation number k of a call fails, for every k until the call
 * succeeds: UF_ERR_NOMEM each time, nothing left behind. */
static void test_out_of_memory(void **state)
{
    (void)state;
    static const char *const kernels[] = {"sort_np", "sort_in_place",
                                          "argsort_np"};
    uf_error err;
    for (size_t c = 0; c < 3; c++) {
        uf_array *x = numbers(600);
        uf_array *out = call1(kernels[c], x, &err); /* compiled */
        uf_assert_ok(out != NULL, &err);
        uf_array_release(out);
        long nrt = uf__nrt_live(), live = uf__alloc_live();
        int failures = 0;
        for (long k = 1; k < 100; k++) {
            uf__alloc_fail_at(k);
            out = call1(kernels[c], x, &err);
            bool failed = uf__alloc_failed();
            uf__alloc_fail_at(0);
            if (out != NULL) {
                uf_array_release(out);
                if (!failed)
                    break;
                continue;
            }
            failures++;
            assert_int_equal(err.code, UF_ERR_NOMEM);
            assert_int_equal(uf__nrt_live(), nrt);
            assert_int_equal(uf__alloc_live(), live);
        }
        if (failures == 0)
            uf_fail_at(__FILE__, __LINE__, "%s: no allocation failed",
                       kernels[c]);
        uf_array_release(x);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_order_and_stability),
        cmocka_unit_test(test_out_of_memory),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
