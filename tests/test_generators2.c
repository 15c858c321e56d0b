/* Generator objects in kernels (compiler/front/generators_step.c: the
 * state machine behind next() and zip() of several generators) for what
 * the Numba oracle (tests/e2e/run_generators2_oracle.py) cannot see:
 * arrays a suspended generator holds, written after they were handed
 * out (as Numba's), and dropped half-consumed when the function returns
 * (also in the copy of a function a generator is passed to);
 * no leak across 10^4 calls; out of memory at every allocation of a call
 * reaching the caller as UF_ERR_NOMEM, and at every allocation of
 * loading the module (the stepping pass) as a clean UF_ERR_NOMEM. */
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
    "def half(n):\n"
    "    it = made(n)\n"
    "    a = next(it)\n"
    "    b = next(it)\n"
    "    return a.sum() + b.sum()\n"
    "@njit\n"
    "def zip_made(n):\n"
    "    s = 0.0\n"
    "    for a, b in zip(made(n), made(n + 1)):\n"
    "        s += a.sum() + b.sum()\n"
    "    return s\n"
    "@njit\n"
    "def kept(n):\n"
    "    it = made(n)\n"
    "    l = [next(it)]\n"
    "    for b in it:\n"
    "        l.append(b)\n"
    "        if len(l) == 3:\n"
    "            break\n"
    "    s = 0.0\n"
    "    for b in l:\n"
    "        s += b.sum()\n"
    "    return s, len(l)\n"
    "@njit\n"
    "def first_two(it):\n"
    "    a = next(it)\n"
    "    return a.sum() + next(it).sum()\n"
    "@njit\n"
    "def passed(n):\n"
    "    return first_two(made(n)) + first_two(made(n + 1))\n";

static int setup(void **state)
{
    (void)state;
    return uf_t_module_setup("generators2_c.py", src);
}

/* sum over i < n of 1.5 * (0 + ... + i) */
static double made_total(int64_t n)
{
    double s = 0;
    for (int64_t i = 0; i < n; i++)
        s += 1.5 * (double)(i * (i + 1) / 2);
    return s;
}

static void test_values(void **state)
{
    (void)state;
    uf_error err;
    uf_array *x = uf_t_i64(9), *out[2] = {0};
    /* resuming the generator writes -1 into the array `a` holds */
    uf_assert_ok(uf_t_call("half", &x, 1, out, 1, &err) == 0, &err);
    assert_true(uf_t_f64_of(out[0]) == -1.0 + 1.5);
    uf_t_release(out, 1);
    /* each pair summed before the next step writes into it */
    uf_assert_ok(uf_t_call("zip_made", &x, 1, out, 1, &err) == 0, &err);
    assert_true(uf_t_f64_of(out[0]) == 2 * made_total(9));
    uf_t_release(out, 1);
    /* a list keeps three arrays, the first two written after their yield;
     * the generator is dropped suspended */
    uf_assert_ok(uf_t_call("kept", &x, 1, out, 2, &err) == 0, &err);
    assert_true(uf_t_f64_of(out[0]) == made_total(3) - 2.0);
    assert_int_equal(uf_t_i64_of(out[1]), 3);
    uf_t_release(out, 2);
    /* made in the call passing it: first_two's copy steps it */
    uf_assert_ok(uf_t_call("passed", &x, 1, out, 1, &err) == 0, &err);
    assert_true(uf_t_f64_of(out[0]) == 2 * (-1.0 + 1.5));
    uf_t_release(out, 1);
    uf_array_release(x);
}

static void test_past_the_end(void **state)
{
    (void)state;
    uf_error err;
    uf_array *x = uf_t_i64(1), *out[1] = {0};
    long nrt = uf__nrt_live(), live = uf__alloc_live();
    assert_int_not_equal(uf_t_call("half", &x, 1, out, 1, &err), 0);
    assert_non_null(strstr(err.message, "StopIteration: next() of exhausted "
                                        "generator made()"));
    assert_int_equal(uf__nrt_live(), nrt);
    assert_int_equal(uf__alloc_live(), live);
    uf_array_release(x);
}

static void test_no_leak(void **state)
{
    (void)state;
    uf_array *x = uf_t_i64(20);
    uf_t_check_no_leak("half", x, 1, 10000);
    uf_t_check_no_leak("zip_made", x, 1, 10000);
    uf_t_check_no_leak("kept", x, 2, 10000);
    uf_t_check_no_leak("passed", x, 1, 10000);
    uf_array_release(x);
}

static void test_out_of_memory(void **state)
{
    (void)state;
    uf_array *x = uf_t_i64(6);
    uf_t_check_oom("half", x, 1);
    uf_t_check_oom("zip_made", x, 1);
    uf_t_check_oom("kept", x, 2);
    uf_t_check_oom("passed", x, 1);
    uf_array_release(x);
}

/* Loading the module (parsing, the state machines) out of memory at each
 * allocation: UF_ERR_NOMEM and nothing left allocated. */
static void test_load_out_of_memory(void **state)
{
    (void)state;
    uf_error err;
    long live = uf__alloc_live();
    bool done = false;
    for (long n = 1; n < 40000 && !done; n++) {
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
        cmocka_unit_test(test_past_the_end),
        cmocka_unit_test(test_no_leak),
        cmocka_unit_test(test_out_of_memory),
        cmocka_unit_test(test_load_out_of_memory),
    };
    return cmocka_run_group_tests(tests, setup, uf_t_module_teardown);
}
