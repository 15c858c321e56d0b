/* Python language features of njit kernels through the C API, where the
 * Numba oracle (run_closure_oracle.py) cannot reach: an augmented
 * assignment's subscript evaluated exactly once (its calls counted in an
 * array the caller passes) on views with negative and non-unit strides,
 * empty and repeated indices; the IndexError of an index out of range
 * raised after one evaluation; nested defs and lambdas (a lambda calling
 * a sibling def that writes a captured array, a view with a negative
 * stride, an empty one); out of memory at each allocation of a call;
 * refusals at the kernel's file:line:col. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "common/nrt.h"
#include "test_util.h"

static const char src[] =
    "from numba import njit\n"                          /* 1 */
    "import numpy as np\n"                              /* 2 */
    "@njit\n"                                           /* 3 */
    "def counted(c, idx):\n"                            /* 4 */
    "    c[0] += 1\n"                                   /* 5 */
    "    return idx\n"                                  /* 6 */
    "@njit\n"                                           /* 7 */
    "def aug(a, c, idx):\n"                             /* 8 */
    "    a[counted(c, idx)] += 1.0\n"                   /* 9 */
    "    return a.sum()\n"                              /* 10 */
    "@njit\n"                                           /* 11 */
    "def aug_new(c, n):\n"                              /* 12 */
    "    a = np.zeros(4)\n"                             /* 13 */
    "    a[counted(c, np.arange(n) % 3)] += 2.5\n"     /* 14 */
    "    return a\n"                                    /* 15 */
    "@njit\n"                                           /* 16 */
    "def aug_basic(a, c, i):\n"                         /* 17 */
    "    a[counted(c, i)] *= 3.0\n"                     /* 18 */
    "    return a.sum()\n"                              /* 19 */
    "@njit\n"                                           /* 20 */
    "def two(a, i, j):\n"                               /* 21 */
    "    a[i, j] += 1.0\n"                              /* 22 */
    "    return a.sum()\n"                              /* 23 */
    "@njit\n"                                           /* 24 */
    "def clo(a, k):\n"                                  /* 25 */
    "    s = k * 2.0\n"                                 /* 26 */
    "    def f(i):\n"                                   /* 27 */
    "        a[i] += s\n"                               /* 28 */
    "        return a[i]\n"                             /* 29 */
    "    g = lambda i: f(i) * 2.0\n"                    /* 30 */
    "    t = 0.0\n"                                     /* 31 */
    "    for i in range(a.shape[0]):\n"                 /* 32 */
    "        t += g(i)\n"                               /* 33 */
    "    return t\n"                                    /* 34 */
    "@njit\n"                                           /* 35 */
    "def clo_alloc(n):\n"                               /* 36 */
    "    mk = lambda m: np.arange(m) * 2.0\n"           /* 37 */
    "    return mk(n) + mk(n)\n"                        /* 38 */
    "@njit\n"                                           /* 39 */
    "def clo_escape(x):\n"                              /* 40 */
    "    f = lambda y: y + x\n"                         /* 41 */
    "    return f\n";                                   /* 42 */

typedef struct fixture {
    uf_error err;
    uf_context *ctx;
    uf_module *mod;
} fixture;

static void open_module(fixture *x)
{
    x->ctx = uf_context_new(&x->err);
    uf_assert_ok(x->ctx != NULL, &x->err);
    x->mod = uf_module_from_string(x->ctx, "closure.py", src, &x->err);
    uf_assert_ok(x->mod != NULL, &x->err);
}

static void close_module(fixture *x)
{
    uf_module_free(x->mod);
    uf_context_free(x->ctx);
}

static uf_array *i64_array(int64_t n, const int64_t *v, uf_error *err)
{
    uf_array *a = uf_empty(UF_INT64, 1, &n, UF_ORDER_C, err);
    uf_assert_ok(a != NULL, err);
    if (n)
        memcpy(uf_array_data(a), v, sizeof(int64_t) * (size_t)n);
    return a;
}

static uf_array *scalar_i64(int64_t v, uf_error *err)
{
    uf_array *a = uf_empty(UF_INT64, 0, NULL, UF_ORDER_C, err);
    uf_assert_ok(a != NULL, err);
    *(int64_t *)uf_array_data(a) = v;
    return a;
}

/* a[counted(c, idx)] += 1 over a view of buf[8] reversed with step -2
 * (elements buf[7], buf[5], buf[3], buf[1]): each distinct index added to
 * once, the counter once. */
static void test_aug_fancy_view(void **state)
{
    (void)state;
    fixture x;
    open_module(&x);
    uf_func *f = uf_module_get(x.mod, "aug", &x.err);
    uf_assert_ok(f != NULL, &x.err);
    static const struct {
        int n;
        int64_t idx[6];
        double want[8]; /* buf afterwards */
    } t[] = {
        {0, {0}, {0, 1, 2, 3, 4, 5, 6, 7}},
        {3, {0, 0, 0}, {0, 1, 2, 3, 4, 5, 6, 8}},
        {4, {1, -1, 1, 2}, {0, 2, 2, 4, 4, 6, 6, 7}},
        {6, {3, 2, 1, 0, -4, -3}, {0, 2, 2, 4, 4, 6, 6, 8}},
    };
    for (size_t k = 0; k < sizeof t / sizeof *t; k++) {
        double buf[8];
        for (int i = 0; i < 8; i++)
            buf[i] = i;
        int64_t shape = 4, stride = -16;
        uf_array *args[3];
        args[0] = uf_array_wrap(UF_FLOAT64, 1, &shape, &stride, buf + 7,
                                true, NULL, NULL, &x.err);
        uf_assert_ok(args[0] != NULL, &x.err);
        int64_t one = 0;
        args[1] = i64_array(1, &one, &x.err);
        args[2] = i64_array(t[k].n, t[k].idx, &x.err);
        long nrt = uf__nrt_live();
        uf_array *out = NULL;
        uf_assert_ok(uf_call(f, args, 3, &out, 1, NULL, &x.err) == 0, &x.err);
        if (memcmp(buf, t[k].want, sizeof buf) != 0)
            uf_fail_at(__FILE__, __LINE__, "case %zu: buf differs", k);
        if (*(int64_t *)uf_array_data(args[1]) != 1)
            uf_fail_at(__FILE__, __LINE__, "case %zu: index evaluated %lld times", k,
                       (long long)*(int64_t *)uf_array_data(args[1]));
        double sum = 0;
        for (int i = 7; i >= 1; i -= 2)
            sum += t[k].want[i];
        assert_true(*(double *)uf_array_data(out) == sum);
        assert_int_equal(uf__nrt_live(), nrt);
        uf_array_release(out);
        for (int i = 0; i < 3; i++)
            uf_array_release(args[i]);
    }
    close_module(&x);
}

/* An index out of range: IndexError after the index was evaluated once,
 * nothing written, nothing leaked. */
static void test_aug_fancy_index_error(void **state)
{
    (void)state;
    fixture x;
    open_module(&x);
    uf_func *f = uf_module_get(x.mod, "aug", &x.err);
    uf_assert_ok(f != NULL, &x.err);
    int64_t n = 3, zero = 0, idx[] = {0, 3};
    uf_array *args[3] = {uf_zeros(UF_FLOAT64, 1, &n, UF_ORDER_C, &x.err),
                         i64_array(1, &zero, &x.err),
                         i64_array(2, idx, &x.err)};
    uf_assert_ok(args[0] != NULL, &x.err);
    long nrt = uf__nrt_live();
    uf_array *out = NULL;
    assert_int_not_equal(uf_call(f, args, 3, &out, 1, NULL, &x.err), 0);
    assert_int_equal(x.err.code, UF_ERR_INDEX);
    assert_non_null(strstr(x.err.message, "IndexError: index 3 is out of "
                                          "bounds for axis 0 with size 3"));
    assert_true(out == NULL);
    assert_int_equal(*(int64_t *)uf_array_data(args[1]), 1);
    const double *a = uf_array_data(args[0]);
    assert_true(a[0] == 0.0 && a[1] == 0.0 && a[2] == 0.0);
    assert_int_equal(uf__nrt_live(), nrt);
    for (int i = 0; i < 3; i++)
        uf_array_release(args[i]);
    close_module(&x);
}

/* a[counted(c, i)] *= 3 with an integer: once, negative indices wrap. */
static void test_aug_basic(void **state)
{
    (void)state;
    fixture x;
    open_module(&x);
    uf_func *f = uf_module_get(x.mod, "aug_basic", &x.err);
    uf_assert_ok(f != NULL, &x.err);
    static const int64_t is[] = {0, 2, -1, -4};
    for (size_t k = 0; k < sizeof is / sizeof *is; k++) {
        int64_t n = 4, zero = 0;
        uf_array *args[3] = {uf_ones(UF_FLOAT64, 1, &n, UF_ORDER_C, &x.err),
                             i64_array(1, &zero, &x.err),
                             scalar_i64(is[k], &x.err)};
        uf_assert_ok(args[0] != NULL, &x.err);
        uf_array *out = NULL;
        uf_assert_ok(uf_call(f, args, 3, &out, 1, NULL, &x.err) == 0, &x.err);
        const double *a = uf_array_data(args[0]);
        for (int i = 0; i < 4; i++)
            assert_true(a[i] == (i == (is[k] + 4) % 4 ? 3.0 : 1.0));
        assert_int_equal(*(int64_t *)uf_array_data(args[1]), 1);
        assert_true(*(double *)uf_array_data(out) == 6.0);
        uf_array_release(out);
        for (int i = 0; i < 3; i++)
            uf_array_release(args[i]);
    }
    close_module(&x);
}

/* Out of memory at each allocation of aug_new (np.arange, the index, the
 * copy, the result): UF_ERR_NOMEM, the counter at most 1, nothing left. */
static void test_aug_out_of_memory(void **state)
{
    (void)state;
    fixture x;
    open_module(&x);
    uf_func *f = uf_module_get(x.mod, "aug_new", &x.err);
    uf_assert_ok(f != NULL, &x.err);
    int64_t zero = 0;
    uf_array *args[2] = {i64_array(1, &zero, &x.err), scalar_i64(7, &x.err)};
    uf_array *out = NULL;
    uf_assert_ok(uf_call(f, args, 2, &out, 1, NULL, &x.err) == 0, &x.err);
    const double *r = uf_array_data(out);
    assert_true(r[0] == 2.5 && r[1] == 2.5 && r[2] == 2.5 && r[3] == 0.0);
    assert_int_equal(*(int64_t *)uf_array_data(args[0]), 1);
    uf_array_release(out);
    long nrt = uf__nrt_live(), live = uf__alloc_live();
    int failures = 0;
    for (long k = 1; k < 100; k++) {
        *(int64_t *)uf_array_data(args[0]) = 0;
        out = NULL;
        uf__alloc_fail_at(k);
        int rc = uf_call(f, args, 2, &out, 1, NULL, &x.err);
        bool failed = uf__alloc_failed();
        uf__alloc_fail_at(0);
        assert_true(*(int64_t *)uf_array_data(args[0]) <= 1);
        if (rc == 0) {
            uf_array_release(out);
            if (!failed)
                break;
            continue;
        }
        failures++;
        assert_int_equal(x.err.code, UF_ERR_NOMEM);
        assert_int_equal(uf__nrt_live(), nrt);
        assert_int_equal(uf__alloc_live(), live);
    }
    if (failures < 2)
        uf_fail_at(__FILE__, __LINE__, "%d allocations failed", failures);
    for (int i = 0; i < 2; i++)
        uf_array_release(args[i]);
    close_module(&x);
}

/* a[i_arr, j_arr] += 1: several array indices (lower_fancy.c), as
 * Numba; the pairs (0, 0) and (1, 1) of a 3x3 zero array, sum 2. */
static void test_two_array_indices(void **state)
{
    (void)state;
    fixture x;
    open_module(&x);
    uf_func *f = uf_module_get(x.mod, "two", &x.err);
    uf_assert_ok(f != NULL, &x.err);
    int64_t shape[2] = {3, 3}, n = 2, idx[] = {0, 1};
    uf_array *args[3] = {uf_zeros(UF_FLOAT64, 2, shape, UF_ORDER_C, &x.err),
                         i64_array(n, idx, &x.err), i64_array(n, idx, &x.err)};
    uf_array *out = NULL;
    uf_assert_ok(uf_call(f, args, 3, &out, 1, NULL, &x.err) == 0, &x.err);
    assert_true(*(double *)uf_array_data(out) == 2.0);
    const double *d = uf_array_data(args[0]);
    assert_true(d[0] == 1.0 && d[4] == 1.0 && d[1] == 0.0 && d[8] == 0.0);
    uf_array_release(out);
    for (int i = 0; i < 3; i++)
        uf_array_release(args[i]);
    close_module(&x);
}

/* clo(a, k): each element gets 2k added, t sums twice the new values;
 * over a reversed strided view and an empty array. */
static void test_closure_captures(void **state)
{
    (void)state;
    fixture x;
    open_module(&x);
    uf_func *f = uf_module_get(x.mod, "clo", &x.err);
    uf_assert_ok(f != NULL, &x.err);
    double buf[7] = {0, 1, 2, 3, 4, 5, 6};
    int64_t shape = 3, stride = -24, zero = 0;
    uf_array *args[2];
    args[0] = uf_array_wrap(UF_FLOAT64, 1, &shape, &stride, buf + 6, true,
                            NULL, NULL, &x.err);
    uf_assert_ok(args[0] != NULL, &x.err);
    args[1] = uf_empty(UF_FLOAT64, 0, NULL, UF_ORDER_C, &x.err);
    uf_assert_ok(args[1] != NULL, &x.err);
    *(double *)uf_array_data(args[1]) = 0.25;
    uf_array *out = NULL;
    uf_assert_ok(uf_call(f, args, 2, &out, 1, NULL, &x.err) == 0, &x.err);
    static const double want[7] = {0.5, 1, 2, 3.5, 4, 5, 6.5};
    assert_memory_equal(buf, want, sizeof buf);
    assert_true(*(double *)uf_array_data(out) == 2 * (6.5 + 3.5 + 0.5));
    uf_array_release(out);
    uf_array_release(args[0]);
    args[0] = uf_empty(UF_FLOAT64, 1, &zero, UF_ORDER_C, &x.err);
    uf_assert_ok(args[0] != NULL, &x.err);
    out = NULL;
    uf_assert_ok(uf_call(f, args, 2, &out, 1, NULL, &x.err) == 0, &x.err);
    assert_true(*(double *)uf_array_data(out) == 0.0);
    uf_array_release(out);
    for (int i = 0; i < 2; i++)
        uf_array_release(args[i]);
    close_module(&x);
}

/* A lambda allocating: out of memory at each allocation, nothing left. */
static void test_closure_out_of_memory(void **state)
{
    (void)state;
    fixture x;
    open_module(&x);
    uf_func *f = uf_module_get(x.mod, "clo_alloc", &x.err);
    uf_assert_ok(f != NULL, &x.err);
    uf_array *n = scalar_i64(5, &x.err);
    uf_array *out = NULL;
    uf_assert_ok(uf_call(f, &n, 1, &out, 1, NULL, &x.err) == 0, &x.err);
    const double *r = uf_array_data(out);
    for (int i = 0; i < 5; i++)
        assert_true(r[i] == 4.0 * i);
    uf_array_release(out);
    long nrt = uf__nrt_live(), live = uf__alloc_live();
    int failures = 0;
    for (long k = 1; k < 100; k++) {
        out = NULL;
        uf__alloc_fail_at(k);
        int rc = uf_call(f, &n, 1, &out, 1, NULL, &x.err);
        bool failed = uf__alloc_failed();
        uf__alloc_fail_at(0);
        if (rc == 0) {
            uf_array_release(out);
            if (!failed)
                break;
            continue;
        }
        failures++;
        assert_int_equal(x.err.code, UF_ERR_NOMEM);
        assert_int_equal(uf__nrt_live(), nrt);
        assert_int_equal(uf__alloc_live(), live);
    }
    if (failures < 2)
        uf_fail_at(__FILE__, __LINE__, "%d allocations failed", failures);
    uf_array_release(n);
    close_module(&x);
}

/* A lambda returned: Numba's TypingError where it escapes; the file's
 * other kernels still compile. */
static void test_closure_escape_refused(void **state)
{
    (void)state;
    fixture x;
    open_module(&x);
    uf_func *f = uf_module_get(x.mod, "clo_escape", &x.err);
    uf_assert_ok(f != NULL, &x.err);
    uf_array *a = uf_empty(UF_FLOAT64, 0, NULL, UF_ORDER_C, &x.err);
    uf_assert_ok(a != NULL, &x.err);
    *(double *)uf_array_data(a) = 1.0;
    uf_array *out = NULL;
    assert_int_not_equal(uf_call(f, &a, 1, &out, 1, NULL, &x.err), 0);
    assert_int_equal(x.err.code, UF_ERR_TYPING);
    assert_non_null(strstr(x.err.file, "closure.py"));
    assert_int_equal(x.err.line, 42);
    assert_int_equal(x.err.column, 12);
    assert_non_null(strstr(x.err.message, "Cannot capture the non-constant "
                                          "value associated with variable "
                                          "'x' in a function that may "
                                          "escape"));
    uf_array_release(a);
    close_module(&x);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_aug_fancy_view),
        cmocka_unit_test(test_aug_fancy_index_error),
        cmocka_unit_test(test_aug_basic),
        cmocka_unit_test(test_aug_out_of_memory),
        cmocka_unit_test(test_two_array_indices),
        cmocka_unit_test(test_closure_captures),
        cmocka_unit_test(test_closure_out_of_memory),
        cmocka_unit_test(test_closure_escape_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
