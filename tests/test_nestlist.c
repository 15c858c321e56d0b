/* Lists of lists and lists of tuples holding strings inside kernels
 * (compiler/lower/lower_list_nest.c, the described roots of common/
 * list_items.c, common/list_nest.c), for what the Numba oracle (tests/e2e/
 * run_nestlist_oracle.py) cannot see: the pointers a described root
 * keeps, the shape and fill of np.array of a nested list, no leak across
 * 10^5 calls of a kernel that builds, mutates and sweeps nested lists in
 * loops and through callees (uf__nrt_live and uf__alloc_live back where
 * they started), and out of memory at every allocation reaching the
 * caller as UF_ERR_NOMEM. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/list.h"
#include "common/list_items.h"
#include "common/list_nest.h"
#include "module_test_util.h"

static const char src[] =
    "import numpy as np\n"
    "from numba import njit\n"
    "@njit\n"
    "def rows(n):\n"
    "    return [[float(i + j) for j in range(i + 1)] for i in range(n)]\n"
    "@njit\n"
    "def grow(l, v):\n"
    "    l.append([v])\n"
    "@njit\n"
    "def work(n):\n"
    "    total = 0.0\n"
    "    keep = []\n"
    "    for k in range(n):\n"
    "        l = rows(k % 5 + 1)\n"
    "        grow(l, 1.0)\n"
    "        l[0].append(2.0)\n"
    "        keep.append(l[k % len(l)])\n"
    "        for r in l:\n"
    "            total += sum(r)\n"
    "    t = [('a' + 'b' * i, i) for i in range(n)]\n"
    "    s = 0\n"
    "    for w, i in t:\n"
    "        s += len(w) + i\n"
    "    a = np.array([[i * j for j in range(3)] for i in range(n)])\n"
    "    kept = 0\n"
    "    for r in keep:\n"
    "        kept += len(r)\n"
    "    return total, kept, s, a.sum()\n";

static int setup(void **state)
{
    (void)state;
    return uf_t_module_setup("nestlist_c.py", src);
}

/* A list of n lists of 8-byte items in frame, inner i holding i + 1
 * items valued 10 * i + j. */
static uf__list *nested(uf__nrt_meminfo **frame, int n)
{
    uf__list *l = uf__list_new(frame, n, 8);
    assert_non_null(l);
    for (int i = 0; i < n; i++) {
        uf__list *in = uf__list_new(frame, i + 1, 8);
        assert_non_null(in);
        for (int j = 0; j <= i; j++) {
            int64_t v = 10 * i + j;
            memcpy(in->items + 8 * j, &v, 8);
        }
        memcpy(l->items + 8 * i, &in, 8);
    }
    return l;
}

/* A described root keeps the outer header and every inner header (their
 * numbers hold no pointers); a list of tuples (str, int64) keeps each
 * string; nested descriptors recurse. */
static void test_roots(void **state)
{
    (void)state;
    uf__nrt_meminfo *frame = NULL;
    uf__list *l = nested(&frame, 3);
    static const int64_t d2[] = {8, UF__LIST_DESC_LIST, 8, UF__LIST_DESC_PTRS,
                                 0};
    char *keep[4] = {(char *)(uintptr_t)UF__LIST_DESC_MARK, (char *)d2,
                     (char *)l, (char *)l};
    int64_t n = uf__list_roots_count(keep, 4);
    assert_true(n >= 5);
    char **out = malloc((size_t)n * sizeof *out);
    assert_non_null(out);
    assert_int_equal(uf__list_roots_expand(keep, 4, out), 5);
    assert_ptr_equal(out[0], l);
    for (int i = 0; i < 3; i++) {
        char *in;
        memcpy(&in, l->items + 8 * i, 8);
        assert_ptr_equal(out[1 + i], in);
    }
    assert_ptr_equal(out[4], l); /* the plain pointer after it */
    free(out);
    /* tuples (int64, str): the string at offset 8 */
    uf__list *t = uf__list_new(&frame, 2, 16);
    assert_non_null(t);
    char *s0 = (char *)0x1000, *s1 = (char *)0x2000;
    memcpy(t->items + 8, &s0, 8);
    memcpy(t->items + 24, &s1, 8);
    static const int64_t dt[] = {16, UF__LIST_DESC_PTRS, 1, 8};
    char *kt[3] = {(char *)(uintptr_t)UF__LIST_DESC_MARK, (char *)dt,
                   (char *)t};
    char *ot[8];
    assert_true(uf__list_roots_count(kt, 3) <= 8);
    assert_int_equal(uf__list_roots_expand(kt, 3, ot), 3);
    assert_ptr_equal(ot[0], t);
    assert_ptr_equal(ot[1], s0);
    assert_ptr_equal(ot[2], s1);
    /* an unbound variable (NULL header) keeps nothing else */
    char *kn[3] = {(char *)(uintptr_t)UF__LIST_DESC_MARK, (char *)d2, NULL};
    assert_int_equal(uf__list_roots_expand(kn, 3, ot), 1);
    assert_null(ot[0]);
    uf__nrt_frame_return(&frame, NULL, 0);
}

/* np.array's shape is read from the first list at each level; a ragged
 * list fails the fill. */
static void test_shape_fill(void **state)
{
    (void)state;
    uf__nrt_meminfo *frame = NULL;
    uf__list *l = uf__list_new(&frame, 2, 8);
    assert_non_null(l);
    for (int i = 0; i < 2; i++) {
        uf__list *in = uf__list_new(&frame, 3, 8);
        assert_non_null(in);
        for (int j = 0; j < 3; j++) {
            int64_t v = 3 * i + j;
            memcpy(in->items + 8 * j, &v, 8);
        }
        memcpy(l->items + 8 * i, &in, 8);
    }
    int64_t shape[3], got[6];
    assert_int_equal(uf__list_nest_shape(l, 2, shape), 0);
    assert_int_equal(shape[0], 2);
    assert_int_equal(shape[1], 3);
    assert_int_equal(uf__list_nest_fill(l, 2, shape, 8, (char *)got), 0);
    for (int k = 0; k < 6; k++)
        assert_int_equal(got[k], k);
    uf__list *r = nested(&frame, 2); /* lengths 1 and 2 */
    assert_int_equal(uf__list_nest_shape(r, 2, shape), 0);
    assert_int_equal(shape[1], 1);
    assert_int_equal(uf__list_nest_fill(r, 2, shape, 8, (char *)got), -1);
    /* an empty outer list has no l[0] to read (Numba's IndexError); an
     * empty last level is a dimension of 0 */
    uf__list *e = uf__list_new(&frame, 0, 8);
    assert_non_null(e);
    assert_int_equal(uf__list_nest_shape(e, 3, shape), -1);
    assert_int_equal(uf__list_nest_shape(e, 1, shape), 0);
    assert_int_equal(shape[0], 0);
    uf__list *one = uf__list_new(&frame, 1, 8);
    assert_non_null(one);
    memcpy(one->items, &e, 8);
    assert_int_equal(uf__list_nest_shape(one, 2, shape), 0);
    assert_int_equal(shape[0], 1);
    assert_int_equal(shape[1], 0);
    assert_int_equal(uf__list_nest_fill(one, 2, shape, 8, (char *)got), 0);
    uf__nrt_frame_return(&frame, NULL, 0);
}

static void test_values(void **state)
{
    (void)state;
    uf_error err;
    uf_array *x = uf_t_i64(7), *out[4] = {0};
    uf_assert_ok(uf_t_call("work", &x, 1, out, 4, &err) == 0, &err);
    /* rows(m) sums to m(m-1)(m+1)/2... counted the plain way instead */
    double total = 0;
    for (int k = 0; k < 7; k++) {
        int m = k % 5 + 1;
        for (int i = 0; i < m; i++)
            for (int j = 0; j <= i; j++)
                total += i + j;
        total += 1.0 + 2.0;
    }
    assert_true(*(double *)uf_array_data(out[0]) == total);
    /* the inner lists kept outlive the lists and calls that made them */
    int64_t kept = 0;
    for (int k = 0; k < 7; k++) {
        int m = k % 5 + 1, idx = k % (m + 1);
        kept += idx == m ? 1 : idx == 0 ? 2 : idx + 1;
    }
    assert_int_equal(*(int64_t *)uf_array_data(out[1]), kept);
    int64_t s = 0;
    for (int i = 0; i < 7; i++)
        s += 1 + i + i;
    assert_int_equal(*(int64_t *)uf_array_data(out[2]), s);
    assert_int_equal(*(int64_t *)uf_array_data(out[3]), 21 * 3);
    uf_t_release(out, 4);
    uf_array_release(x);
}

/* 10^5 calls building nested lists in loops and callees leave no block. */
static void test_no_leak(void **state)
{
    (void)state;
    uf_array *x = uf_t_i64(6);
    uf_t_check_no_leak("work", x, 4, 100000);
    uf_array_release(x);
}

static void test_out_of_memory(void **state)
{
    (void)state;
    uf_array *x = uf_t_i64(3);
    uf_t_check_oom("work", x, 4);
    uf_array_release(x);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_roots),
        cmocka_unit_test(test_shape_fill),
        cmocka_unit_test(test_values),
        cmocka_unit_test(test_no_leak),
        cmocka_unit_test(test_out_of_memory),
    };
    return cmocka_run_group_tests(tests, setup, uf_t_module_teardown);
}
