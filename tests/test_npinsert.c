/* np.insert and polyutils.as_series (compiler/lower/lower_npinsert.c,
 * lower_npseries.c, common/npinsert.c, npseries.c) for what the Numba
 * oracles (tests/e2e/run_npinsert_oracle.py, run_npseries_oracle.py)
 * cannot see: the runtime's stable placement of many repeated indices
 * against a reference, no leak across many calls (also calls that raise
 * after their arrays were made), and out of memory at every allocation
 * reaching the caller as UF_ERR_NOMEM. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/npinsert.h"
#include "module_test_util.h"

static const char src[] =
    "import numpy as np\n"
    "from numba import njit\n"
    "from numpy.polynomial import polyutils as pu\n"
    "@njit\n"
    "def ins(n):\n"
    "    a = np.arange(n) * 1.0\n"
    "    b = np.insert(a, np.array([n, 0, 1, 1, -1]), np.arange(5) * 10.0)\n"
    "    c = np.insert(b.reshape(-1, 1), 2, (7.0, 8.0))\n"
    "    return c.size, c.sum(), c[2] + c[3]\n"
    "@njit\n"
    "def ins_bad(n):\n"
    "    a = np.arange(n) * 1.0\n"
    "    return np.insert(a, np.array([0, n + 1]), 1.0).sum()\n"
    "@njit\n"
    "def series(n):\n"
    "    s = pu.as_series(np.arange(n * 3).reshape(n, 3) % 2)\n"
    "    t = 0.0\n"
    "    for x in s:\n"
    "        t += x.size * 100 + x.sum()\n"
    "    u = pu.as_series((np.arange(n), 2.5), False)\n"
    "    return t, len(u), u[0].size + u[1][0]\n";

static int setup(void **state)
{
    (void)state;
    return uf_t_module_setup("npinsert_c.py", src);
}

/* uf__np_insert against a reference: m indices drawn from [-n, n] with
 * many repeats, each value placed as NumPy's stable argsort places it. */
static void test_runtime_placement(void **state)
{
    (void)state;
    enum { N = 37, M = 300 };
    srand(7);
    int64_t arr[N], idx[M], norm[M], vals[M], order[2 * M], out[N + M];
    int64_t want[N + M];
    for (int i = 0; i < N; i++)
        arr[i] = 1000 + i;
    for (int i = 0; i < M; i++) {
        idx[i] = rand() % (2 * N + 1) - N;
        norm[i] = idx[i] < 0 ? idx[i] + N : idx[i];
        vals[i] = -i;
    }
    assert_int_equal(uf__np_insert((char *)out, (const char *)arr, N, idx, M,
                                   0, (const char *)vals, M, 8, order),
                     0);
    /* the reference: before arr[p], the values of index p in input order */
    int k = 0;
    for (int p = 0; p <= N; p++) {
        for (int i = 0; i < M; i++)
            if (norm[i] == p)
                want[k++] = vals[i];
        if (p < N)
            want[k++] = arr[p];
    }
    assert_int_equal(k, N + M);
    assert_memory_equal(out, want, sizeof want);
    /* the statuses: a bad index, values of another count */
    int64_t bad[2] = {0, N + 1};
    assert_int_equal(uf__np_insert((char *)out, (const char *)arr, N, bad, 2,
                                   0, (const char *)vals, 1, 8, order),
                     UF__NPINSERT_INDEX);
    int64_t two[2] = {0, 1};
    assert_int_equal(uf__np_insert((char *)out, (const char *)arr, N, two, 2,
                                   0, (const char *)vals, 3, 8, order),
                     UF__NPINSERT_VALUES);
}

static void test_values(void **state)
{
    (void)state;
    uf_error err;
    uf_array *x = uf_t_i64(6), *out[3] = {0};
    uf_assert_ok(uf_t_call("ins", &x, 1, out, 3, &err) == 0, &err);
    /* 6 + 5 + 2 elements: 0..5, 0, 10, ..., 40, 7, 8 */
    assert_int_equal(uf_t_i64_of(out[0]), 13);
    assert_true(uf_t_f64_of(out[1]) == 15.0 + 100.0 + 15.0);
    assert_true(uf_t_f64_of(out[2]) == 15.0); /* c[2], c[3]: 7, 8 */
    uf_t_release(out, 3);
    uf_assert_ok(uf_t_call("series", &x, 1, out, 3, &err) == 0, &err);
    /* rows of arange(18) % 2: [0 1 0] -> [0 1], [1 0 1] -> [1 0 1], ... */
    assert_true(uf_t_f64_of(out[0]) == 3 * (200 + 1) + 3 * (300 + 2));
    assert_int_equal(uf_t_i64_of(out[1]), 2);
    assert_true(uf_t_f64_of(out[2]) == 6 + 2.5);
    uf_t_release(out, 3);
    uf_array_release(x);
}

/* Many calls leave nothing behind, those that raise IndexError too. */
static void test_no_leak(void **state)
{
    (void)state;
    uf_array *x = uf_t_i64(20);
    uf_t_check_no_leak("ins", x, 3, 20000);
    uf_t_check_no_leak("series", x, 3, 20000);
    uf_error err;
    uf_array *out = NULL;
    assert_int_equal(uf_t_call("ins_bad", &x, 1, &out, 1, &err),
                     UF_ERR_INDEX);
    long nrt = uf__nrt_live(), live = uf__alloc_live();
    for (int i = 0; i < 20000; i++)
        assert_int_equal(uf_t_call("ins_bad", &x, 1, &out, 1, &err),
                         UF_ERR_INDEX);
    static const char msg[] = "IndexError: index is out of bounds for "
                              "the given array size";
    assert_int_equal(strncmp(err.message, msg, sizeof msg - 1), 0);
    assert_int_equal(uf__nrt_live(), nrt);
    assert_int_equal(uf__alloc_live(), live);
    uf_array_release(x);
}

/* Out of memory at each allocation: UF_ERR_NOMEM, nothing left behind. */
static void test_out_of_memory(void **state)
{
    (void)state;
    uf_array *x = uf_t_i64(9);
    uf_t_check_oom("ins", x, 3);
    uf_t_check_oom("series", x, 3);
    uf_array_release(x);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_runtime_placement),
        cmocka_unit_test(test_values),
        cmocka_unit_test(test_no_leak),
        cmocka_unit_test(test_out_of_memory),
    };
    return cmocka_run_group_tests(tests, setup, uf_t_module_teardown);
}
