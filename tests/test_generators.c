/* Generators inside kernels (compiler/front/generators.c) for what the
 * Numba oracle (tests/e2e/run_generators_oracle.py) cannot see: arrays a
 * generator makes or views while it is suspended, kept by the consuming
 * loop's sweeps and by a list collecting them; no leak across 10^4 calls
 * (uf__nrt_live and uf__alloc_live back where they started); out of
 * memory at every allocation of a call reaching the caller as
 * UF_ERR_NOMEM, and at every allocation of loading the module (the
 * inlining pass) as a clean UF_ERR_NOMEM. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "module_test_util.h"

static const char src[] =
    "import numpy as np\n"
    "from numba import njit\n"
    "@njit\n"
    "def made(n):\n"
    "    for i in range(n):\n"
    "        b = np.arange(i + 1) * 1.5\n"
    "        yield b\n"
    "        b[0] = -1.0\n"
    "@njit\n"
    "def windows(a, k):\n"
    "    i = 0\n"
    "    while i + k <= a.shape[0]:\n"
    "        yield a[i:i + k]\n"
    "        i += 1\n"
    "@njit\n"
    "def sum_made(n):\n"
    "    s = 0.0\n"
    "    for b in made(n):\n"
    "        s += b.sum()\n"
    "        if s > 1e9:\n"
    "            break\n"
    "    return s\n"
    "@njit\n"
    "def kept_arrays(n):\n"
    "    l = list(made(n))\n"
    "    s = 0.0\n"
    "    for b in l:\n"
    "        s += b.sum()\n"
    "    return s, len(l)\n"
    "@njit\n"
    "def best_window(a, k):\n"
    "    best = -1e300\n"
    "    at = -1\n"
    "    for i, w in enumerate(windows(a, k)):\n"
    "        t = w.sum()\n"
    "        if t > best:\n"
    "            best = t\n"
    "            at = i\n"
    "    return at, best\n";

static int setup(void **state)
{
    (void)state;
    return uf_t_module_setup("generators_c.py", src);
}

static uf_array *f64s(const double *v, int64_t n)
{
    uf_error err;
    uf_array *a = uf_empty(UF_FLOAT64, 1, &n, UF_ORDER_C, &err);
    uf_assert_ok(a != NULL, &err);
    memcpy(uf_array_data(a), v, (size_t)n * sizeof *v);
    return a;
}

/* sum over i < n of 1.5 * (0 + ... + i) */
static double made_total(int64_t n)
{
    double s = 0;
    for (int64_t i = 0; i < n; i++)
        s += 1.5 * (double)(i * (i + 1) / 2);
    return s;
}

/* The arrays the generator makes: summed by the loop as each is yielded;
 * kept in a list (the generator writes b[0] after each yield: the list
 * holds those writes, as Numba's would). */
static void test_values(void **state)
{
    (void)state;
    uf_error err;
    uf_array *x = uf_t_i64(9), *out[2] = {0};
    uf_assert_ok(uf_t_call("sum_made", &x, 1, out, 1, &err) == 0, &err);
    assert_true(uf_t_f64_of(out[0]) == made_total(9));
    uf_t_release(out, 1);
    uf_assert_ok(uf_t_call("kept_arrays", &x, 1, out, 2, &err) == 0,
                 &err);
    assert_true(uf_t_f64_of(out[0]) == made_total(9) - 9.0);
    assert_int_equal(uf_t_i64_of(out[1]), 9);
    uf_t_release(out, 2);
    uf_array_release(x);
    const double v[] = {1, 5, -2, 7, 7, 0, 3};
    uf_array *a[2] = {f64s(v, 7), uf_t_i64(3)};
    uf_assert_ok(uf_t_call("best_window", a, 2, out, 2, &err) == 0, &err);
    assert_int_equal(uf_t_i64_of(out[0]), 3);
    assert_true(uf_t_f64_of(out[1]) == 14.0);
    uf_t_release(out, 2);
    uf_t_release(a, 2);
}

/* 10^4 calls making arrays in the generator leave no block behind. */
static void test_no_leak(void **state)
{
    (void)state;
    uf_error err;
    uf_array *x = uf_t_i64(20), *out[2] = {0};
    uf_assert_ok(uf_t_call("kept_arrays", &x, 1, out, 2, &err) == 0,
                 &err);
    uf_t_release(out, 2);
    long nrt = uf__nrt_live(), live = uf__alloc_live();
    for (int i = 0; i < 10000; i++) {
        uf_assert_ok(uf_t_call(i % 2 ? "kept_arrays" : "sum_made", &x, 1,
                               out, i % 2 ? 2 : 1, &err) == 0,
                     &err);
        uf_t_release(out, 2);
    }
    assert_int_equal(uf__nrt_live(), nrt);
    assert_int_equal(uf__alloc_live(), live);
    uf_array_release(x);
}

static void test_out_of_memory(void **state)
{
    (void)state;
    uf_array *x = uf_t_i64(6);
    uf_t_check_oom("sum_made", x, 1);
    uf_t_check_oom("kept_arrays", x, 2);
    uf_array_release(x);
}

/* Loading the module (parsing, the generators' inlining) out of memory
 * at each allocation: UF_ERR_NOMEM and nothing left allocated. */
static void test_load_out_of_memory(void **state)
{
    (void)state;
    uf_error err;
    long live = uf__alloc_live();
    bool done = false;
    for (long n = 1; n < 20000 && !done; n++) {
        uf__alloc_fail_at(n);
        uf_module *m = uf_module_from_string(uf_t_ctx, "k.py", src, &err);
        uf__alloc_fail_at(0);
        if (m == NULL) {
            assert_int_equal(err.code, UF_ERR_NOMEM);
            assert_int_equal(uf__alloc_live(), live);
        }
        done = m != NULL;
        uf_module_free(m);
    }
    assert_true(done);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_values),
        cmocka_unit_test(test_no_leak),
        cmocka_unit_test(test_out_of_memory),
        cmocka_unit_test(test_load_out_of_memory),
    };
    return cmocka_run_group_tests(tests, setup, uf_t_module_teardown);
}
