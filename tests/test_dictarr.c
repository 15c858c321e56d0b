/* Dicts whose values are arrays (compiler/types/infer_dict.c, compiler/
 * lower/lower_dict.c, the dict roots of common/list_items.c) through
 * uf_call, for what the Numba oracle (tests/e2e/run_dictarr_oracle.py)
 * cannot see: the root of such a dict names each value's data pointer;
 * values outliving every variable that held them (in loops, whose sweeps
 * must keep them, and through callees that store into the caller's dict,
 * return a dict, or raise after storing); overwritten values freed by the
 * next sweep, so memory stays bounded; a view of a value returned after
 * the dict died; no leak across 10^5 calls (uf__nrt_live and
 * uf__alloc_live back where they started); out of memory at every
 * allocation (each array, the header, each growth of the table) reaching
 * the caller as UF_ERR_NOMEM with nothing left behind; the refusals at
 * file:line:col. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/dict.h"
#include "common/list_items.h"
#include "module_test_util.h"

static const char src[] =
    "from numba import njit\n"
    "import numpy as np\n"
    "@njit\n"
    "def group(n):\n"
    "    d = {}\n"
    "    for i in range(n):\n"
    "        k = i % 5\n"
    "        if k not in d:\n"
    "            d[k] = np.zeros(4)\n"
    "        acc = d[k]\n"
    "        acc += i\n"
    "        tmp = np.ones(50)\n"
    "    e = d.copy()\n"
    "    e[9] = np.full(4, 0.5)\n"
    "    x = e.pop(0)\n"
    "    k, y = e.popitem()\n"
    "    del d[1]\n"
    "    d.update(e)\n"
    "    s = 0.0\n"
    "    for k, v in d.items():\n"
    "        s += v.sum() * k\n"
    "    return s + x[0] + y[0], len(d), len(e)\n"
    "@njit\n"
    "def churn(n):\n"
    "    d = {}\n"
    "    for i in range(n):\n"
    "        d[i % 3] = np.full(100, float(i))\n"
    "        if i % 7 == 0:\n"
    "            d.pop(i % 3)\n"
    "    return d[(n - 1) % 3][0]\n"
    "@njit\n"
    "def view(n):\n"
    "    d = {}\n"
    "    d[1] = np.arange(float(n))\n"
    "    v = d[1][1:]\n"
    "    d.clear()\n"
    "    return v\n"
    "@njit\n"
    "def store(d, n):\n"
    "    d[n] = np.full(3, float(n))\n"
    "    if n > 3:\n"
    "        raise ValueError('too big')\n"
    "@njit\n"
    "def caught(n):\n"
    "    d = {}\n"
    "    d[0] = np.ones(3)\n"
    "    try:\n"
    "        store(d, n)\n"
    "    except Exception:\n"
    "        pass\n"
    "    for i in range(5):\n"
    "        tmp = np.empty(1000)\n"
    "        tmp[0] = 1.0\n"
    "    return len(d), d.get(n, np.zeros(3)).sum()\n"
    "@njit\n"
    "def made(n):\n"
    "    d = {}\n"
    "    for i in range(n):\n"
    "        d[i] = np.full(2, float(i))\n"
    "    return d\n"
    "@njit\n"
    "def across(n):\n"
    "    d = made(n)\n"
    "    store(d, 2)\n"
    "    for i in range(10):\n"
    "        tmp = np.empty(1000)\n"
    "        tmp[0] = 1.0\n"
    "    return d[n - 1].sum() + d[2].sum(), len(d)\n";

static int setup(void **state)
{
    (void)state;
    return uf_t_module_setup("dictarr_c.py", src);
}

/* The root of a dict of 1-d array values: the header, then the data
 * pointer of each live entry's array (its first word), in order. */
static void test_root(void **state)
{
    (void)state;
    enum { N = 100, ESIZE = 16 + 24 };
    uf__nrt_meminfo *frame = NULL;
    void *d = uf__dict_new(&frame, ESIZE, UF__DICT_BITS);
    assert_non_null(d);
    static double data[N];
    for (int i = 0; i < N; i++) {
        char *p = uf__dict_insert(d, (uint64_t)i);
        assert_non_null(p);
        double *at = &data[i];
        int64_t shape = 1, stride = 8;
        memcpy(p, &at, sizeof at);
        memcpy(p + 8, &shape, 8);
        memcpy(p + 16, &stride, 8);
    }
    for (int i = 0; i < N; i += 2)
        assert_int_equal(uf__dict_delete(d, (uint64_t)i, NULL), 1);
    char *keep[2] = {(char *)(uintptr_t)UF__DICT_ROOT_MARK(
                         UF__DICT_ROOT_VALUES),
                     d};
    int64_t n = uf__list_roots_count(keep, 2);
    assert_int_equal(n, 2 + N / 2);
    char **out = malloc((size_t)n * sizeof *out);
    assert_non_null(out);
    assert_int_equal(uf__list_roots_expand(keep, 2, out), 1 + N / 2);
    assert_ptr_equal(out[0], d);
    for (int i = 0; i < N / 2; i++)
        assert_ptr_equal(out[1 + i], (char *)&data[2 * i + 1]);
    free(out);
    uf__nrt_frame_return(&frame, NULL, 0);
}

static void test_values(void **state)
{
    (void)state;
    uf_error err;
    uf_array *x = uf_t_i64(20), *out[3] = {0};
    uf_assert_ok(uf_t_call("group", &x, 1, out, 3, &err) == 0, &err);
    /* d[k] holds 4 copies of the sum of the i = k mod 5 below 20 (30,
     * 34, 38, 42, 46); e popped 0 (x[0] = 30) and its last, 9 (y[0] =
     * 0.5); d lost 1, then took it back from e (the same array) */
    double sum = 4 * (34.0 * 1 + 38.0 * 2 + 42.0 * 3 + 46.0 * 4);
    assert_true(uf_t_f64_of(out[0]) == sum + 30.0 + 0.5);
    assert_int_equal(uf_t_i64_of(out[1]), 5);
    assert_int_equal(uf_t_i64_of(out[2]), 4);
    uf_t_release(out, 3);
    uf_array_release(x);
}

/* Overwritten and popped values are freed by the next sweep: the peak
 * stays near the dict's three values however many iterations run. */
static void test_bounded(void **state)
{
    (void)state;
    uf_error err;
    for (int64_t n = 10; n <= 1000; n *= 10) {
        uf_array *x = uf_t_i64(n), *r = NULL;
        uf__nrt_peak_reset();
        long base = uf__nrt_live();
        uf_assert_ok(uf_t_call("churn", &x, 1, &r, 1, &err) == 0, &err);
        assert_true(uf_t_f64_of(r) == (double)(n - 1));
        assert_true(uf__nrt_peak() - base <= 12);
        uf_array_release(r);
        uf_array_release(x);
        assert_int_equal(uf__nrt_live(), base);
    }
}

/* A view of a value returned after the dict was cleared and died. */
static void test_view_outlives(void **state)
{
    (void)state;
    uf_error err;
    long nrt = uf__nrt_live();
    uf_array *x = uf_t_i64(6), *r = NULL;
    uf_assert_ok(uf_t_call("view", &x, 1, &r, 1, &err) == 0, &err);
    assert_int_equal(uf_array_shape(r)[0], 5);
    const double *v = uf_array_data(r);
    for (int i = 0; i < 5; i++)
        assert_true(v[i] == (double)(i + 1));
    uf_array_release(r);
    assert_int_equal(uf__nrt_live(), nrt);
    uf_array_release(x);
}

/* A callee stores into the caller's dict, then raises (caught) or
 * returns; a dict returned by a callee keeps its arrays in the caller. */
static void test_through_callee(void **state)
{
    (void)state;
    uf_error err;
    long nrt = uf__nrt_live();
    uf_array *x = uf_t_i64(5), *out[2] = {0};
    uf_assert_ok(uf_t_call("caught", &x, 1, out, 2, &err) == 0, &err);
    assert_int_equal(uf_t_i64_of(out[0]), 2);
    assert_true(uf_t_f64_of(out[1]) == 15.0);
    uf_t_release(out, 2);
    uf_assert_ok(uf_t_call("across", &x, 1, out, 2, &err) == 0, &err);
    assert_true(uf_t_f64_of(out[0]) == 8.0 + 6.0);
    assert_int_equal(uf_t_i64_of(out[1]), 5);
    uf_t_release(out, 2);
    assert_int_equal(uf__nrt_live(), nrt);
    uf_array_release(x);
}

/* 10^5 calls grouping, copying, popping and updating dicts of arrays
 * leave no block and no buffer. */
static void test_no_leak(void **state)
{
    (void)state;
    uf_array *x = uf_t_i64(12);
    uf_t_check_no_leak("group", x, 3, 100000);
    uf_array_release(x);
}

/* Out of memory in every allocation of each function (in "across", 12
 * keys: the table's growths; in "caught", out of memory in the callee is
 * a MemoryError that `except Exception` catches, as Python's: d then
 * lacks n, hence d.get). */
static void test_out_of_memory(void **state)
{
    (void)state;
    uf_array *x = uf_t_i64(12);
    uf_t_check_oom("group", x, 3);
    uf_t_check_oom("across", x, 2);
    uf_array_release(x);
    x = uf_t_i64(5);
    uf_t_check_oom("caught", x, 2);
    uf_array_release(x);
}

/* Refused at FILE:LINE:COL: a strided view into a dict of C arrays,
 * == of dicts of arrays, a list as a value. */
static void test_refused(void **state)
{
    (void)state;
    static const char bsrc[] =
        "import numpy as np\n"
        "from numba import njit\n"
        "@njit\n"
        "def layout(a):\n"
        "    d = {}\n"
        "    d[1] = np.zeros(3)\n"
        "    d[2] = a[::2]\n"
        "    return len(d)\n"
        "@njit\n"
        "def eq(a):\n"
        "    d = {}\n"
        "    d[1] = a\n"
        "    return d == d\n"
        "@njit\n"
        "def lst(a):\n"
        "    d = {}\n"
        "    d[1] = [1.0]\n"
        "    return len(d)\n";
    static const struct {
        const char *fn, *text;
        int line, col, code;
    } want[] = {
        {"layout", "does not convert to the value type", 7, 5,
         UF_ERR_TYPING},
        {"eq", "values are arrays", 13, 12, UF_ERR_UNSUPPORTED},
        {"lst", "as value is forbidden", 17, 5, UF_ERR_TYPING},
    };
    uf_error err;
    uf_module *m = uf_module_from_string(uf_t_ctx, "dictarr_bad.py", bsrc,
                                         &err);
    uf_assert_ok(m != NULL, &err);
    double v[4] = {1, 2, 3, 4};
    int64_t n = 4;
    uf_array *a = uf_empty(UF_FLOAT64, 1, &n, UF_ORDER_C, &err);
    uf_assert_ok(a != NULL, &err);
    memcpy(uf_array_data(a), v, sizeof v);
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        uf_func *f = uf_module_get(m, want[i].fn, &err);
        uf_array *r = NULL;
        int rc = f ? uf_call(f, &a, 1, &r, 1, NULL, &err) : err.code;
        if (rc != want[i].code || !strstr(err.message, want[i].text) ||
            err.line != want[i].line || err.column != want[i].col)
            uf_fail_at(__FILE__, __LINE__, "%s: %s (%s) at %d:%d",
                       want[i].fn, uf_err_name(rc), err.message, err.line,
                       err.column);
        uf_array_release(r);
    }
    uf_array_release(a);
    uf_module_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_root),
        cmocka_unit_test(test_values),
        cmocka_unit_test(test_bounded),
        cmocka_unit_test(test_view_outlives),
        cmocka_unit_test(test_through_callee),
        cmocka_unit_test(test_no_leak),
        cmocka_unit_test(test_out_of_memory),
        cmocka_unit_test(test_refused),
    };
    return cmocka_run_group_tests(tests, setup, uf_t_module_teardown);
}
