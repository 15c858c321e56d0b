/* Dicts of wide keys (common/dict.c's WIDE kind: complex numbers and
 * tuples of numbers, compiler/lower/lower_dict.c) and the containers3
 * kernels' run-time paths, for what the Numba oracle
 * (tests/e2e/run_containers3_oracle.py) cannot see: the runtime's table
 * of two-field keys against a reference under random inserts, deletes
 * and lookups (-0.0 and 0.0 two keys as Numba's dict has them, a NaN
 * field never found, the value
 * next to its key's split fields intact), popitem, copy and set(d) of
 * such a dict, no leak across 10^5 calls (uf__nrt_live and
 * uf__alloc_live back where they started), and out of memory at every
 * allocation of set(range(n)), set(d.items()), min() of a set of tuples
 * and a complex-keyed dict reaching the caller as UF_ERR_NOMEM. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/dict.h"
#include "common/set.h"
#include "module_test_util.h"

static const char src[] =
    "from numba import njit\n"
    "@njit\n"
    "def cx(n):\n"
    "    d = {}\n"
    "    for i in range(n):\n"
    "        d[complex(i % 17, i % 3)] = (i, 0.5 * i)\n"
    "    for i in range(0, n, 3):\n"
    "        d.pop(complex(i % 17, i % 3), (0, 0.0))\n"
    "    t = 0.0\n"
    "    for k, v in d.items():\n"
    "        t += k.real + 10.0 * k.imag + v[1]\n"
    "    e = d.copy()\n"
    "    e[99j] = (1, 1.0)\n"
    "    return len(d), t, len(e)\n"
    "@njit\n"
    "def fill(n):\n"
    "    s = set(range(n))\n"
    "    d = {}\n"
    "    for i in range(n):\n"
    "        d[i] = i % 4\n"
    "    v = set(d.values())\n"
    "    it = set(d.items())\n"
    "    m = max(it)\n"
    "    w = set(it)\n"
    "    return len(s), len(v), len(it), m[0], len(w)\n";

static int setup(void **state)
{
    (void)state;
    return uf_t_module_setup("containers3_c.py", src);
}

/* A complex key: two doubles. */
typedef struct key2 {
    double re, im;
} key2;

static key2 key_of(int k)
{
    key2 r = {(double)(k % 8), (double)(k / 8) - 2.0};
    return r;
}

/* An entry: 8 bytes of key field 0, the hash, an int64 value, then key
 * field 1 (common/dict.h's split layout). */
enum { ESIZE = 32 };

static void *new_dict(uf__nrt_meminfo **frame)
{
    return uf__dict_new_keyed(frame, ESIZE, UF__DICT_WIDE, 2, 3);
}

/* WIDE keys (complex128) against a table of 64 keys under 5000 random
 * inserts, deletes and lookups, each value checked; -0.0 does not find
 * 0.0, a NaN key is never found and each NaN stored is a new entry. */
static void test_wide_table(void **state)
{
    (void)state;
    uf__nrt_meminfo *frame = NULL;
    long nrt = uf__nrt_live(), live = uf__alloc_live();
    void *d = new_dict(&frame);
    assert_non_null(d);
    bool in[64] = {0};
    int64_t val[64] = {0};
    int n = 0;
    srand(11);
    for (int step = 0; step < 5000; step++) {
        int k = rand() % 64, op = rand() % 3;
        key2 key = key_of(k);
        char *p = uf__dict_find_key(d, &key);
        assert_int_equal(p != NULL, in[k]);
        if (p != NULL)
            assert_int_equal(*(int64_t *)(void *)p, val[k]);
        if (op < 2) {
            p = uf__dict_insert_key(d, &key);
            assert_non_null(p);
            n += !in[k];
            in[k] = true;
            val[k] = step;
            memcpy(p, &val[k], sizeof val[k]);
        } else {
            int64_t out = -1;
            assert_int_equal(uf__dict_delete_key(d, &key, &out), in[k]);
            if (in[k])
                assert_int_equal(out, val[k]);
            n -= in[k];
            in[k] = false;
        }
        assert_int_equal(((uf__dict *)d)->size, n);
    }
    /* each live key read back from its entry */
    int seen = 0;
    for (int64_t p = uf__dict_next(d, 0); p >= 0; p = uf__dict_next(d, p + 1)) {
        key2 k;
        uf__dict_key_at(d, p, &k);
        int g = (int)k.re + 8 * (int)(k.im + 2.0);
        assert_true(g >= 0 && g < 64 && in[g]);
        seen++;
    }
    assert_int_equal(seen, n);
    /* a copy finds every key; set(d) holds them */
    void *c = uf__dict_copy(&frame, d);
    assert_non_null(c);
    void *s = uf__set_new_keyed(&frame, UF__SET_WIDE, 2, 3);
    assert_non_null(s);
    assert_int_equal(uf__set_add_dict_keys(s, d), 0);
    assert_int_equal(((uf__set *)s)->size, n);
    for (int k = 0; k < 64; k++) {
        key2 key = key_of(k);
        assert_int_equal(uf__dict_find_key(c, &key) != NULL, in[k]);
        assert_int_equal(uf__set_contains_key(s, &key), in[k]);
    }
    /* popitem: the last entry's key and value */
    if (n > 0) {
        key2 k;
        int64_t out;
        assert_int_equal(uf__dict_popitem_key(c, &k, &out), 1);
        int g = (int)k.re + 8 * (int)(k.im + 2.0);
        assert_int_equal(out, val[g]);
        assert_null(uf__dict_find_key(c, &k));
    }
    /* -0.0 and 0.0 two keys (Numba's dict); NaN never found */
    void *t = new_dict(&frame);
    assert_non_null(t);
    key2 z = {0.0, 1.0}, nz = {-0.0, 1.0}, nan = {NAN, 0.0};
    assert_non_null(uf__dict_insert_key(t, &nz));
    assert_non_null(uf__dict_insert_key(t, &z));
    assert_int_equal(((uf__dict *)t)->size, 2);
    assert_non_null(uf__dict_find_key(t, &z));
    assert_non_null(uf__dict_find_key(t, &nz));
    assert_non_null(uf__dict_insert_key(t, &nan));
    assert_non_null(uf__dict_insert_key(t, &nan));
    assert_int_equal(((uf__dict *)t)->size, 4);
    assert_null(uf__dict_find_key(t, &nan));
    assert_int_equal(uf__dict_delete_key(t, &nan, NULL), 0);
    uf__nrt_frame_return(&frame, NULL, 0);
    assert_int_equal(uf__nrt_live(), nrt);
    assert_int_equal(uf__alloc_live(), live);
}

static double cx_sum(int64_t n)
{
    /* the reference of cx(n): the last store of each key, less those
     * popped at a multiple of 3 after it */
    bool live[17][3] = {{0}};
    int64_t last[17][3] = {{0}};
    for (int64_t i = 0; i < n; i++) {
        live[i % 17][i % 3] = true;
        last[i % 17][i % 3] = i;
    }
    for (int64_t i = 0; i < n; i += 3)
        live[i % 17][i % 3] = false;
    double t = 0.0;
    for (int a = 0; a < 17; a++)
        for (int b = 0; b < 3; b++)
            if (live[a][b])
                t += a + 10.0 * b + 0.5 * (double)last[a][b];
    return t;
}

static int64_t cx_len(int64_t n)
{
    bool live[17][3] = {{0}};
    for (int64_t i = 0; i < n; i++)
        live[i % 17][i % 3] = true;
    for (int64_t i = 0; i < n; i += 3)
        live[i % 17][i % 3] = false;
    int64_t c = 0;
    for (int a = 0; a < 17; a++)
        for (int b = 0; b < 3; b++)
            c += live[a][b];
    return c;
}

/* A complex-keyed dict of tuple values through a kernel. */
static void test_complex_kernel(void **state)
{
    (void)state;
    uf_error err;
    int64_t ns[] = {0, 5, 200};
    for (int i = 0; i < 3; i++) {
        uf_array *x = uf_t_i64(ns[i]), *out[3] = {0};
        uf_assert_ok(uf_t_call("cx", &x, 1, out, 3, &err) == 0, &err);
        assert_int_equal(uf_t_i64_of(out[0]), cx_len(ns[i]));
        assert_true(uf_t_f64_of(out[1]) == cx_sum(ns[i]));
        assert_int_equal(uf_t_i64_of(out[2]), cx_len(ns[i]) + 1);
        uf_t_release(out, 3);
        uf_array_release(x);
    }
}

/* set(range(n)), set(d.values()), set(d.items()), max() of it. */
static void test_fill_kernel(void **state)
{
    (void)state;
    uf_error err;
    uf_array *x = uf_t_i64(50), *out[5] = {0};
    uf_assert_ok(uf_t_call("fill", &x, 1, out, 5, &err) == 0, &err);
    assert_int_equal(uf_t_i64_of(out[0]), 50);
    assert_int_equal(uf_t_i64_of(out[1]), 4);
    assert_int_equal(uf_t_i64_of(out[2]), 50);
    assert_int_equal(uf_t_i64_of(out[3]), 49);
    assert_int_equal(uf_t_i64_of(out[4]), 50);
    uf_t_release(out, 5);
    uf_array_release(x);
}

/* 10^5 calls leave no block and no table. */
static void test_no_leak(void **state)
{
    (void)state;
    uf_array *x = uf_t_i64(20);
    uf_t_check_no_leak("cx", x, 3, 50000);
    uf_t_check_no_leak("fill", x, 5, 50000);
    uf_array_release(x);
}

/* Out of memory at each allocation: UF_ERR_NOMEM, nothing left behind. */
static void test_out_of_memory(void **state)
{
    (void)state;
    uf_array *x = uf_t_i64(40);
    uf_t_check_oom("cx", x, 3);
    uf_t_check_oom("fill", x, 5);
    uf_array_release(x);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wide_table),
        cmocka_unit_test(test_complex_kernel),
        cmocka_unit_test(test_fill_kernel),
        cmocka_unit_test(test_no_leak),
        cmocka_unit_test(test_out_of_memory),
    };
    return cmocka_run_group_tests(tests, setup, uf_t_module_teardown);
}
