/* Strings as dict keys and values and lists of strings inside kernels
 * (common/dict.c's UF__DICT_USTR kind, common/list_ustr.c, the dict roots
 * of common/list_items.c), for what the Numba oracle (tests/e2e/
 * run_strdict_oracle.py) cannot see: the table against distinct pointers
 * to equal strings, 10^4 keys with deletions and re-insertions, the
 * strings a dict root keeps, the list helpers, no leak across 10^5 calls
 * of a word count (uf__nrt_live and uf__alloc_live back where they
 * started), out of memory at every allocation reaching the caller as
 * UF_ERR_NOMEM, and hash() refused at file:line:col. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/dict.h"
#include "common/list.h"
#include "common/list_items.h"
#include "common/list_ustr.h"
#include "common/ustr.h"
#include "module_test_util.h"

static const char src[] =
    "from numba import njit\n"
    "TEXT = 'b a c a \\u00e9 b a \\u65e5 x' \n"
    "@njit\n"
    "def wc(n):\n"
    "    d = {}\n"
    "    for w in TEXT.split():\n"
    "        if w in d:\n"
    "            d[w] += 1\n"
    "        else:\n"
    "            d[w] = 1\n"
    "    e = {}\n"
    "    for i in range(n):\n"
    "        e[str(i % 7)] = 'v' + str(i)\n"
    "    ks = sorted(d)\n"
    "    return d['a'], len(d), len(e), len(','.join(ks)), ks.index('x')\n"
    "@njit\n"
    "def h(n):\n"
    "    return hash('a' + str(n))\n";

static int setup(void **state)
{
    (void)state;
    return uf_t_module_setup("strdict_c.py", src);
}

/* A string of the ASCII text s, malloc'd (not in a block). */
static uf__ustr *mk(const char *s)
{
    size_t n = strlen(s);
    uf__ustr *u = malloc(sizeof *u + n * sizeof(uint32_t));
    assert_non_null(u);
    u->len = (int64_t)n;
    u->hash = -1;
    for (size_t i = 0; i < n; i++)
        u->cp[i] = (unsigned char)s[i];
    return u;
}

static uint64_t key(const uf__ustr *s)
{
    return (uint64_t)(uintptr_t)s;
}

/* Keys found by content, not by pointer; 10^4 keys grown through
 * rehashes, every third deleted then re-inserted (at the end of the
 * order); a root of the dict names every live key and value. */
static void test_table(void **state)
{
    (void)state;
    enum { N = 10000 };
    uf__nrt_meminfo *frame = NULL;
    void *d = uf__dict_new(&frame, 24, UF__DICT_USTR);
    assert_non_null(d);
    static uf__ustr *k[N], *v[N], *probe[N];
    char buf[32];
    for (int i = 0; i < N; i++) {
        snprintf(buf, sizeof buf, "k%d", i);
        k[i] = mk(buf);
        probe[i] = mk(buf);
        v[i] = mk(buf + 1);
        char *p = uf__dict_insert(d, key(k[i]));
        assert_non_null(p);
        memcpy(p, &v[i], sizeof v[i]);
    }
    assert_int_equal(((uf__dict *)d)->size, N);
    for (int i = 0; i < N; i++) { /* another pointer, the same text */
        char *p = uf__dict_find(d, key(probe[i]));
        assert_non_null(p);
        uf__ustr *got;
        memcpy(&got, p, sizeof got);
        assert_ptr_equal(got, v[i]);
    }
    uf__ustr *none = mk("k10000"), *empty = mk("");
    assert_null(uf__dict_find(d, key(none)));
    assert_null(uf__dict_find(d, key(empty)));
    for (int i = 0; i < N; i += 3)
        assert_int_equal(uf__dict_delete(d, key(probe[i]), NULL), 1);
    assert_int_equal(uf__dict_delete(d, key(probe[0]), NULL), 0);
    for (int i = 0; i < N; i += 3)
        assert_non_null(uf__dict_insert(d, key(k[i])));
    /* insertion order: the survivors, then the re-inserted */
    int64_t p = uf__dict_next(d, 0);
    uint64_t first;
    memcpy(&first, ((uf__dict *)d)->entries + p * 24, sizeof first);
    assert_ptr_equal((void *)(uintptr_t)first, k[1]);
    /* the root of a dict of string keys and values: header, then each
     * live entry's key and value */
    char *keep[2] = {(char *)(uintptr_t)UF__DICT_ROOT_MARK(
                         UF__DICT_ROOT_KEYS | UF__DICT_ROOT_VALUES),
                     d};
    int64_t n = uf__list_roots_count(keep, 2);
    assert_int_equal(n, 2 + 2 * (int64_t)N);
    char **out = malloc((size_t)n * sizeof *out);
    assert_non_null(out);
    assert_int_equal(uf__list_roots_expand(keep, 2, out), 1 + 2 * N);
    assert_ptr_equal(out[0], d);
    assert_ptr_equal(out[1], k[1]);
    assert_ptr_equal(out[2], v[1]);
    free(out);
    uf__nrt_frame_return(&frame, NULL, 0);
    for (int i = 0; i < N; i++) {
        free(k[i]);
        free(v[i]);
        free(probe[i]);
    }
    free(none);
    free(empty);
}

/* common/list_ustr.c: sort by code point both ways, find/count by
 * content, min/max (the first of equal ones), NULL when empty. */
static void test_list_helpers(void **state)
{
    (void)state;
    const char *words[] = {"pear", "app", "Zoo", "", "apple", "app"};
    enum { N = 6 };
    uf__ustr *w[N];
    uf__nrt_meminfo *frame = NULL;
    uf__list *l = uf__list_new(&frame, N, 8);
    assert_non_null(l);
    for (int i = 0; i < N; i++) {
        w[i] = mk(words[i]);
        memcpy(l->items + 8 * i, &w[i], 8);
    }
    uf__ustr *app = mk("app");
    assert_int_equal(uf__list_ustr_find(l, app, 0), 1);
    assert_int_equal(uf__list_ustr_find(l, app, 2), 5);
    assert_int_equal(uf__list_ustr_count(l, app), 2);
    assert_ptr_equal(uf__list_ustr_minmax(l, 0), w[3]);
    assert_ptr_equal(uf__list_ustr_minmax(l, 1), w[0]);
    uf__list_ustr_sort(l, 0);
    const char *want[] = {"", "Zoo", "app", "app", "apple", "pear"};
    for (int i = 0; i < N; i++) {
        uf__ustr *s;
        memcpy(&s, l->items + 8 * i, 8);
        uf__ustr *t = mk(want[i]);
        assert_int_equal(uf__ustr_cmp(s, t), 0);
        free(t);
    }
    uf__list_ustr_sort(l, 1);
    uf__ustr *s;
    memcpy(&s, l->items, 8);
    assert_ptr_equal(s, w[0]);
    l->size = 0;
    assert_null(uf__list_ustr_minmax(l, 0));
    assert_int_equal(uf__list_ustr_find(l, app, 0), -1);
    uf__nrt_frame_return(&frame, NULL, 0);
    for (int i = 0; i < N; i++)
        free(w[i]);
    free(app);
}

static void test_values(void **state)
{
    (void)state;
    uf_error err;
    uf_array *x = uf_t_i64(20), *out[5] = {0};
    uf_assert_ok(uf_t_call("wc", &x, 1, out, 5, &err) == 0, &err);
    assert_int_equal(uf_t_i64_of(out[0]), 3);
    assert_int_equal(uf_t_i64_of(out[1]), 6);
    assert_int_equal(uf_t_i64_of(out[2]), 7);
    assert_int_equal(uf_t_i64_of(out[3]), 11); /* a,b,c,x,é,日 */
    assert_int_equal(uf_t_i64_of(out[4]), 3);
    uf_t_release(out, 5);
    uf_array_release(x);
}

/* 10^5 calls filling dicts of strings in loops leave no block. */
static void test_no_leak(void **state)
{
    (void)state;
    uf_array *x = uf_t_i64(30);
    uf_t_check_no_leak("wc", x, 5, 100000);
    uf_array_release(x);
}

static void test_out_of_memory(void **state)
{
    (void)state;
    uf_array *x = uf_t_i64(9);
    uf_t_check_oom("wc", x, 5);
    uf_array_release(x);
}

static void test_hash_refused(void **state)
{
    (void)state;
    uf_error err;
    uf_func *f = uf_module_get(uf_t_mod, "h", &err);
    uf_array *x = uf_t_i64(1), *r = NULL;
    int rc = f ? uf_call(f, &x, 1, &r, 1, NULL, &err) : err.code;
    assert_int_equal(rc, UF_ERR_UNSUPPORTED);
    assert_non_null(strstr(err.message, "PYTHONHASHSEED"));
    assert_int_equal(err.line, 18);
    assert_int_equal(err.column, 12);
    uf_array_release(x);
    uf_array_release(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table),
        cmocka_unit_test(test_list_helpers),
        cmocka_unit_test(test_values),
        cmocka_unit_test(test_no_leak),
        cmocka_unit_test(test_out_of_memory),
        cmocka_unit_test(test_hash_refused),
    };
    return cmocka_run_group_tests(tests, setup, uf_t_module_teardown);
}
