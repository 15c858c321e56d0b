/* Sets of wide keys and strings (common/set.c's WIDE and USTR kinds,
 * compiler/lower/lower_set.c, lower_set_key.c) for what the Numba oracle
 * (tests/e2e/run_sets2_oracle.py) cannot see: the runtime's table of
 * two-field keys against a reference under random operations (-0.0 equal
 * to 0.0, a NaN field never found), strings made in loops kept by the
 * sweeps while a set holds them, no leak across 10^5 calls
 * (uf__nrt_live and uf__alloc_live back where they started), and out of
 * memory at every allocation reaching the caller as UF_ERR_NOMEM. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/set.h"
#include "module_test_util.h"

static const char src[] =
    "from numba import njit\n"
    "@njit\n"
    "def strs(n):\n"
    "    s = set()\n"
    "    for i in range(n):\n"
    "        w = chr(0x4e00 + i % 50) + chr(97 + i % 7)\n"
    "        s.add(w + w)\n"
    "    t = 0\n"
    "    for w in s:\n"
    "        t += ord(w[0]) - 0x4e00 + ord(w[3]) - 97\n"
    "    return len(s), t, 'za' in s\n"
    "@njit\n"
    "def tups(n):\n"
    "    s = set()\n"
    "    for i in range(n):\n"
    "        s.add((i % 13, complex(i % 5, 1.0)))\n"
    "    u = s | {(1, 1j)}\n"
    "    u -= {(0, 1j)}\n"
    "    t = 0.0\n"
    "    for k in u:\n"
    "        t += k[0] + k[1].real\n"
    "    return len(s), len(u), t\n"
    "@njit\n"
    "def churn(n):\n"
    "    t = 0\n"
    "    for i in range(n):\n"
    "        s = {chr(97 + i % 26), 'x'}\n"
    "        for k in range(i % 9):\n"
    "            s.add(chr(97 + k) + 'y')\n"
    "        u = s ^ {'x', 'q'}\n"
    "        t += len(s) + len(u) + ('q' in u)\n"
    "    return t\n";

static int setup(void **state)
{
    (void)state;
    return uf_t_module_setup("sets2_c.py", src);
}

/* A key of two fields: an integer, then a double. */
typedef struct key2 {
    int64_t i;
    double x;
} key2;

static key2 key_of(int k)
{
    key2 r = {k % 8, (double)(k / 8) - 2.0};
    return r;
}

/* WIDE keys (int64, float64) against a membership array of 64 keys under
 * 5000 random adds, discards, pops and lookups; -0.0 finds 0.0, a NaN
 * field is never found and each NaN added is a new key. */
static void test_wide_table(void **state)
{
    (void)state;
    uf__nrt_meminfo *frame = NULL;
    long nrt = uf__nrt_live(), live = uf__alloc_live();
    void *s = uf__set_new_keyed(&frame, UF__SET_WIDE, 2, 2);
    void *t = uf__set_new_keyed(&frame, UF__SET_WIDE, 2, 2);
    assert_non_null(s);
    assert_non_null(t);
    assert_int_equal(uf__set_stride(s), 24);
    bool in[64] = {0};
    int n = 0;
    srand(7);
    for (int step = 0; step < 5000; step++) {
        int k = rand() % 64, op = rand() % 4;
        key2 key = key_of(k);
        assert_int_equal(uf__set_contains_key(s, &key), in[k]);
        if (op < 2) {
            assert_int_equal(uf__set_add_key(s, &key), 0);
            n += !in[k];
            in[k] = true;
        } else if (op == 2) {
            assert_int_equal(uf__set_discard_key(s, &key), in[k]);
            n -= in[k];
            in[k] = false;
        } else {
            key2 got;
            assert_int_equal(uf__set_pop_key(s, &got), n > 0);
            if (n > 0) {
                int g = (int)got.i + 8 * (int)(got.x + 2.0);
                assert_true(in[g]);
                in[g] = false;
                n--;
            }
        }
        assert_int_equal(((uf__set *)s)->size, n);
    }
    /* the copy equals s; s ^ s's copy is empty */
    void *c = uf__set_copy(&frame, s);
    assert_non_null(c);
    assert_int_equal(uf__set_cmp(s, c, UF__SET_EQ), 1);
    void *x = uf__set_op(&frame, s, c, UF__SET_XOR);
    assert_non_null(x);
    assert_int_equal(((uf__set *)x)->size, 0);
    /* -0.0 and 0.0 one key; NaN never found */
    key2 z = {1, 0.0}, nz = {1, -0.0}, nan = {1, NAN};
    assert_int_equal(uf__set_add_key(t, &nz), 0);
    assert_int_equal(uf__set_add_key(t, &z), 0);
    assert_int_equal(((uf__set *)t)->size, 1);
    assert_int_equal(uf__set_contains_key(t, &z), 1);
    assert_int_equal(uf__set_add_key(t, &nan), 0);
    assert_int_equal(uf__set_add_key(t, &nan), 0);
    assert_int_equal(((uf__set *)t)->size, 3);
    assert_int_equal(uf__set_contains_key(t, &nan), 0);
    assert_int_equal(uf__set_discard_key(t, &nan), 0);
    uf__nrt_frame_return(&frame, NULL, 0);
    assert_int_equal(uf__nrt_live(), nrt);
    assert_int_equal(uf__alloc_live(), live);
}

static void check_strs(int64_t n, uf_error *err)
{
    uf_array *x = uf_t_i64(n), *out[3] = {0};
    uf_assert_ok(uf_t_call("strs", &x, 1, out, 3, err) == 0, err);
    int64_t len = n < 350 ? n : 350, t = 0;
    for (int64_t i = 0; i < len; i++)
        t += i % 50 + i % 7;
    assert_int_equal(uf_t_i64_of(out[0]), len);
    assert_int_equal(uf_t_i64_of(out[1]), t);
    assert_false(*(const bool *)uf_array_data(out[2]));
    uf_t_release(out, 3);
    uf_array_release(x);
}

/* Strings made in a loop (swept at each iteration) stay while the set
 * holds them: their code points read back after the loop. */
static void test_string_roots(void **state)
{
    (void)state;
    uf_error err;
    check_strs(7, &err);
    check_strs(2000, &err);
}

/* Tuple keys with a complex field, an operator and an in-place one. */
static void test_tuple_keys(void **state)
{
    (void)state;
    uf_error err;
    uf_array *x = uf_t_i64(200), *out[3] = {0};
    uf_assert_ok(uf_t_call("tups", &x, 1, out, 3, &err) == 0, &err);
    /* (i % 13, i % 5): 65 keys; (1, 1j) is one of them; (0, 1j) removed */
    assert_int_equal(uf_t_i64_of(out[0]), 65);
    assert_int_equal(uf_t_i64_of(out[1]), 64);
    double t = 0;
    for (int a = 0; a < 13; a++)
        for (int b = 0; b < 5; b++)
            if (a != 0 || b != 0)
                t += a + b;
    assert_true(*(const double *)uf_array_data(out[2]) == t);
    uf_t_release(out, 3);
    uf_array_release(x);
}

/* 10^5 calls making string sets in a loop leave no block and no table. */
static void test_no_leak(void **state)
{
    (void)state;
    uf_array *x = uf_t_i64(30);
    uf_t_check_no_leak("churn", x, 1, 100000);
    uf_array_release(x);
}

/* Out of memory at each allocation: UF_ERR_NOMEM, nothing left behind. */
static void test_out_of_memory(void **state)
{
    (void)state;
    uf_array *x = uf_t_i64(40);
    uf_t_check_oom("strs", x, 3);
    uf_t_check_oom("tups", x, 3);
    uf_array_release(x);
    x = uf_t_i64(12);
    uf_t_check_oom("churn", x, 1);
    uf_array_release(x);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wide_table),
        cmocka_unit_test(test_string_roots),
        cmocka_unit_test(test_tuple_keys),
        cmocka_unit_test(test_no_leak),
        cmocka_unit_test(test_out_of_memory),
    };
    return cmocka_run_group_tests(tests, setup, uf_t_module_teardown);
}
