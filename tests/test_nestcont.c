/* Nested typed containers (dicts of typed lists and of dicts, lists of
 * dicts: compiler/lower/lower_list_nest.c's descriptors, common/
 * list_items.c) for what the Numba oracle (tests/e2e/
 * run_nestcont_oracle.py) cannot see: the runtime's walk of a described
 * dict, inner lists made in a loop kept by the sweeps while the dict
 * holds them and freed once replaced (the peak stays bounded), no leak
 * across 10^5 calls of a grouping kernel (uf__nrt_live and uf__alloc_live
 * back where they started), and out of memory at every allocation
 * reaching the caller as UF_ERR_NOMEM. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/dict.h"
#include "common/list.h"
#include "common/list_items.h"
#include "module_test_util.h"

static const char src[] =
    "from numba import njit, types\n"
    "from numba.typed import Dict, List\n"
    "LT = types.ListType(types.float64)\n"
    "DT = types.DictType(types.int64, types.float64)\n"
    "@njit\n"
    "def group(n):\n"
    "    d = Dict.empty(types.int64, LT)\n"
    "    for i in range(n):\n"
    "        k = i % 5\n"
    "        if k not in d:\n"
    "            d[k] = List.empty_list(types.float64)\n"
    "        d[k].append(i * 1.0)\n"
    "    return d\n"
    "@njit\n"
    "def grouped(n):\n"
    "    d = group(n)\n"
    "    s = 0.0\n"
    "    m = 0\n"
    "    for k, l in d.items():\n"
    "        s += k * sum(l)\n"
    "        m += len(l)\n"
    "    return len(d), m, s\n"
    "@njit\n"
    "def words(n):\n"
    "    d = Dict.empty(types.unicode_type, DT)\n"
    "    for i in range(n):\n"
    "        w = 'w' + str(i % 4)\n"
    "        if w not in d:\n"
    "            d[w] = Dict.empty(types.int64, types.float64)\n"
    "        d[w][i] = i * 0.5\n"
    "    l = List()\n"
    "    for v in d.values():\n"
    "        l.append(v)\n"
    "    s = 0.0\n"
    "    for v in l:\n"
    "        for x in v.values():\n"
    "            s += x\n"
    "    return len(l), s\n"
    "@njit\n"
    "def churn(n):\n"
    "    d = Dict.empty(types.int64, LT)\n"
    "    for i in range(n):\n"
    "        k = i % 7\n"
    "        if k not in d or len(d[k]) > 5:\n"
    "            d[k] = List.empty_list(types.float64)\n"
    "        d[k].append(i * 1.0)\n"
    "    s = 0.0\n"
    "    for l in d.values():\n"
    "        s += sum(l)\n"
    "    return s\n";

static int setup(void **state)
{
    (void)state;
    return uf_t_module_setup("nestcont_c.py", src);
}

/* A dict of 3 lists (the second one holding 2 items) and a list of 2
 * dicts, described as lower_list_nest.c describes them: the walk keeps
 * every header, and the strings of a dict whose keys are strings. */
static void test_described_walk(void **state)
{
    (void)state;
    uf__nrt_meminfo *frame = NULL;
    long nrt = uf__nrt_live(), live = uf__alloc_live();
    void *d = uf__dict_new(&frame, 24, UF__DICT_BITS);
    assert_non_null(d);
    void *inner[3];
    for (int k = 0; k < 3; k++) {
        inner[k] = uf__list_new(&frame, k == 1 ? 2 : 0, 8);
        assert_non_null(inner[k]);
        char *v = uf__dict_insert(d, (uint64_t)k);
        assert_non_null(v);
        memcpy(v, &inner[k], sizeof inner[k]);
    }
    assert_int_equal(uf__dict_delete(d, 2, NULL), 1);
    /* {DICT_HEAD, keys not strings, LIST, {8, PTRS, 0}} */
    static const int64_t dd[] = {UF__DICT_DESC_HEAD, 0, UF__LIST_DESC_LIST,
                                 8, UF__LIST_DESC_PTRS, 0};
    char *keep[3] = {(char *)(uintptr_t)UF__LIST_DESC_MARK, (char *)dd, d};
    assert_true(uf__list_roots_count(keep, 3) >= 3); /* an upper bound */
    char *out[3];
    assert_int_equal(uf__list_roots_expand(keep, 3, out), 3);
    assert_ptr_equal(out[0], d);
    assert_ptr_equal(out[1], inner[0]);
    assert_ptr_equal(out[2], inner[1]);
    /* a list of two dicts of lists: d and an empty one */
    void *l = uf__list_new(&frame, 2, 8);
    assert_non_null(l);
    void *e = uf__dict_new(&frame, 24, UF__DICT_BITS);
    assert_non_null(e);
    memcpy(((uf__list *)l)->items, &d, sizeof d);
    memcpy(((uf__list *)l)->items + 8, &e, sizeof e);
    static const int64_t ld[] = {8, UF__LIST_DESC_DICT, UF__DICT_DESC_HEAD,
                                 0, UF__LIST_DESC_LIST, 8,
                                 UF__LIST_DESC_PTRS, 0};
    char *keep2[3] = {(char *)(uintptr_t)UF__LIST_DESC_MARK, (char *)ld, l};
    assert_true(uf__list_roots_count(keep2, 3) >= 5);
    char *out2[5];
    assert_int_equal(uf__list_roots_expand(keep2, 3, out2), 5);
    assert_ptr_equal(out2[0], l);
    assert_ptr_equal(out2[1], d);
    assert_ptr_equal(out2[2], inner[0]);
    assert_ptr_equal(out2[3], inner[1]);
    assert_ptr_equal(out2[4], e);
    uf__nrt_frame_return(&frame, NULL, 0);
    assert_int_equal(uf__nrt_live(), nrt);
    assert_int_equal(uf__alloc_live(), live);
}

static void check_grouped(int64_t n)
{
    uf_error err;
    uf_array *x = uf_t_i64(n), *out[3] = {0};
    uf_assert_ok(uf_t_call("grouped", &x, 1, out, 3, &err) == 0, &err);
    double s = 0;
    for (int64_t i = 0; i < n; i++)
        s += (double)(i % 5) * (double)i;
    assert_int_equal(uf_t_i64_of(out[0]), n < 5 ? n : 5);
    assert_int_equal(uf_t_i64_of(out[1]), n);
    assert_true(uf_t_f64_of(out[2]) == s);
    uf_t_release(out, 3);
    uf_array_release(x);
}

/* A dict of lists made by a callee and read by its caller. */
static void test_grouped(void **state)
{
    (void)state;
    check_grouped(0);
    check_grouped(3);
    check_grouped(5000);
}

/* A dict of dicts keyed by strings made in the loop, its values gathered
 * into a list of dicts. */
static void test_words(void **state)
{
    (void)state;
    uf_error err;
    uf_array *x = uf_t_i64(1000), *out[2] = {0};
    uf_assert_ok(uf_t_call("words", &x, 1, out, 2, &err) == 0, &err);
    assert_int_equal(uf_t_i64_of(out[0]), 4);
    assert_true(uf_t_f64_of(out[1]) == 999.0 * 1000.0 / 4.0);
    uf_t_release(out, 2);
    uf_array_release(x);
}

/* Lists replaced in a loop are freed by its sweeps: the peak of live
 * blocks stays small however many lists the loop makes, and the lists
 * the dict still holds read back right. */
static void test_churn_peak(void **state)
{
    (void)state;
    uf_error err;
    int64_t n = 20000;
    uf_array *x = uf_t_i64(n), *out[1] = {0};
    uf__nrt_peak_reset();
    long base = uf__nrt_live();
    uf_assert_ok(uf_t_call("churn", &x, 1, out, 1, &err) == 0, &err);
    assert_true(uf__nrt_peak() - base < 64);
    /* per key, the last run of 6 (or fewer) appends */
    double s = 0;
    for (int k = 0; k < 7; k++) {
        int64_t cnt = 0, last = -1;
        for (int64_t i = k; i < n; i += 7) {
            cnt = cnt == 6 ? 1 : cnt + 1;
            last = i;
        }
        for (int64_t j = 0; j < cnt; j++)
            s += (double)(last - 7 * j);
    }
    assert_true(uf_t_f64_of(out[0]) == s);
    uf_t_release(out, 1);
    uf_array_release(x);
}

/* 10^5 calls of the grouping kernel leave no block and no table. */
static void test_no_leak(void **state)
{
    (void)state;
    uf_array *x = uf_t_i64(23);
    uf_t_check_no_leak("grouped", x, 3, 100000);
    uf_array_release(x);
}

/* Out of memory at each allocation: UF_ERR_NOMEM, nothing left behind. */
static void test_out_of_memory(void **state)
{
    (void)state;
    uf_array *x = uf_t_i64(17);
    uf_t_check_oom("grouped", x, 3);
    uf_t_check_oom("words", x, 2);
    uf_t_check_oom("churn", x, 1);
    uf_array_release(x);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_described_walk),
        cmocka_unit_test(test_grouped),
        cmocka_unit_test(test_words),
        cmocka_unit_test(test_churn_peak),
        cmocka_unit_test(test_no_leak),
        cmocka_unit_test(test_out_of_memory),
    };
    return cmocka_run_group_tests(tests, setup, uf_t_module_teardown);
}
