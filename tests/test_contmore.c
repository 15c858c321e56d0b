/* More of lists and dicts (compiler/types/infer_list_ops.c,
 * compiler/lower/lower_list_ops.c, common/list_ops.c) through uf_call,
 * for what the Numba oracle (tests/e2e/run_contmore_oracle.py) does not
 * see: slice assignment l[a:b:c] = m converting m's items (Numba 0.68
 * fails compiling those), a list assigned to a slice of itself (copied
 * first, as Python), lists of tuples and of arrays, no leak across 10^4
 * calls, out of memory at every allocation reaching the caller as
 * UF_ERR_NOMEM, common/list_ops.c's uf__list_setslice leaving the list
 * unchanged when it fails, and the refusals at file:line:col; sorts of
 * lists of tuples and with key= of 10^5 items checked against qsort,
 * their leaks and out of memory; d.update(e) and d == e in a loop (no
 * leak, out of memory), their refusals. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/list.h"
#include "common/list_ops.h"
#include "nrt_test_util.h"

static const char src[] =
    "from numba import njit\n"
    "import numpy as np\n"
    "@njit\n"
    "def to_int(a, b, lo, hi, st):\n"
    "    l = [int(x) for x in a]\n"
    "    l[lo:hi:st] = list(b)\n"
    "    return np.array(l)\n"
    "@njit\n"
    "def to_i8(a, b):\n"
    "    l = list(a.astype(np.int8))\n"
    "    l[1:2] = list(b)\n"
    "    return np.array(l)\n"
    "@njit\n"
    "def to_cplx(a, b):\n"
    "    l = list(a + 0j)\n"
    "    l[:1] = list(b)\n"
    "    return np.array(l)\n"
    "@njit\n"
    "def selfie(a, lo, hi, st):\n"
    "    l = list(a)\n"
    "    l[lo:hi:st] = l\n"
    "    return np.array(l)\n"
    "@njit\n"
    "def tuples(n):\n"
    "    pts = [(1.5, 2)]\n"
    "    q = [(0.0, 0)]\n"
    "    for i in range(n):\n"
    "        q.append((i, i * 2))\n"
    "    pts[1:] = q\n"
    "    pts[:1] = [(7, 8)]\n"
    "    pts[::-2] = [(-1.0, -1), (-2.0, -2), (-3.0, -3)]\n"
    "    s = 0.0\n"
    "    for x, y in pts:\n"
    "        s = s * 10 + x + y\n"
    "    return s, len(pts)\n"
    "@njit\n"
    "def churn(n):\n"
    "    t = 0.0\n"
    "    for i in range(n):\n"
    "        parts = [np.zeros(2) + j for j in range(i % 5)]\n"
    "        parts[1:] = [np.ones(3)[:2] * i, np.zeros(2)]\n"
    "        l = [1.0, 2.0, 3.0]\n"
    "        l[::2] = [float(i), 0.5]\n"
    "        l[1:] = l\n"
    "        t += len(parts) + parts[len(parts) - 2][0] + l[0] + len(l)\n"
    "    return t\n"
    "@njit\n"
    "def sort_pairs(a, b, r):\n"
    "    l = [(a[0], b[0])]\n"
    "    for i in range(1, len(a)):\n"
    "        l.append((a[i], b[i]))\n"
    "    l.sort(reverse=r)\n"
    "    out = np.empty((len(l), 2))\n"
    "    for i in range(len(l)):\n"
    "        out[i, 0] = l[i][0]\n"
    "        out[i, 1] = l[i][1]\n"
    "    return out\n"
    "@njit\n"
    "def by_key(a, r):\n"
    "    return np.array(sorted(a, key=lambda x: (x % 7, -x), reverse=r))\n"
    "@njit\n"
    "def key_churn(n):\n"
    "    t = 0.0\n"
    "    for i in range(n):\n"
    "        l = [float((i * 7 + j) % 5) for j in range(i % 9)]\n"
    "        l.sort(key=lambda x: -x)\n"
    "        p = [(1.0, i)]\n"
    "        p.append((0.5, -i))\n"
    "        s = sorted(p)\n"
    "        t += s[0][1] + len(l)\n"
    "        if len(l) > 0:\n"
    "            t += l[0]\n"
    "    return t\n"
    "@njit\n"
    "def dict_churn(n):\n"
    "    t = 0.0\n"
    "    for i in range(n):\n"
    "        d = {j: j * 0.5 for j in range(i % 13)}\n"
    "        e = {j + 5: float(j) for j in range(i % 7)}\n"
    "        d.update(e)\n"
    "        t += len(d) + (d == e) + (e == e)\n"
    "    return t\n"
    "@njit\n"
    "def dict_tup(x):\n"
    "    d = {1: (x, 2)}\n"
    "    g = d.get(5, (1, 7))\n"
    "    h = d.get(1, (1, 7))\n"
    "    p = d.pop(9, (2.5, np.int8(3)))\n"
    "    q = d.pop(1)\n"
    "    return g[0] + g[1], h[0] * h[1], p[0] + p[1], q[0], len(d)\n";

static uf_context *ctx;
static uf_module *mod;

static int setup(void **state)
{
    (void)state;
    uf_error err;
    ctx = uf_context_new(&err);
    if (!ctx)
        return -1;
    mod = uf_module_from_string(ctx, "contmore_c.py", src, &err);
    if (!mod)
        fprintf(stderr, "%s\n", err.message);
    return mod ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    uf_module_free(mod);
    uf_context_free(ctx);
    return 0;
}

static int calln(const char *name, uf_array **x, int n, uf_array **out,
                 int nout, uf_error *err)
{
    uf_func *f = uf_module_get(mod, name, err);
    uf_assert_ok(f != NULL, err);
    return uf_call(f, x, n, out, nout, NULL, err);
}

static uf_array *scalar(int64_t v)
{
    uf_error err;
    uf_array *a = uf_empty(UF_INT64, 0, NULL, UF_ORDER_C, &err);
    uf_assert_ok(a != NULL, &err);
    *(int64_t *)uf_array_data(a) = v;
    return a;
}

static uf_array *vec(uf_dtype dt, const void *v, int64_t n)
{
    uf_error err;
    uf_array *a = uf_empty(dt, 1, &n, UF_ORDER_C, &err);
    uf_assert_ok(a != NULL, &err);
    if (n > 0)
        memcpy(uf_array_data(a), v, (size_t)n * uf_dtype_itemsize(dt));
    return a;
}

/* r is a 1-D array of dtype dt holding want[0..n) (bytes compared). */
static void check_vec(uf_array *r, uf_dtype dt, const void *want, int64_t n,
                      int line)
{
    if (uf_array_ndim(r) != 1 || uf_array_shape(r)[0] != n ||
        uf_array_dtype(r) != dt ||
        (n > 0 && memcmp(uf_array_data(r), want,
                         (size_t)n * uf_dtype_itemsize(dt)) != 0))
        uf_fail_at(__FILE__, line, "items differ");
}

/* m's items converted to l's type as l += m converts them: float into
 * int truncates, int64 into int8 wraps, real into complex. */
static void test_convert(void **state)
{
    (void)state;
    uf_error err;
    double a[5] = {1, 2, 3, 4, 5}, b[3] = {-2.7, 9.9, 1e3};
    uf_array *in[5] = {vec(UF_FLOAT64, a, 5), vec(UF_FLOAT64, b, 3),
                       scalar(0), scalar(5), scalar(2)},
             *r = NULL;
    uf_assert_ok(calln("to_int", in, 5, &r, 1, &err) == 0, &err);
    static const int64_t w1[5] = {-2, 2, 9, 4, 1000};
    check_vec(r, UF_INT64, w1, 5, __LINE__);
    uf_array_release(r);
    r = NULL;
    int64_t big[2] = {300, -129};
    uf_array *i2[2] = {in[0], vec(UF_INT64, big, 2)};
    uf_assert_ok(calln("to_i8", i2, 2, &r, 1, &err) == 0, &err);
    static const int8_t w2[6] = {1, 44, 127, 3, 4, 5};
    check_vec(r, UF_INT8, w2, 6, __LINE__);
    uf_array_release(r);
    r = NULL;
    uf_assert_ok(calln("to_cplx", i2, 2, &r, 1, &err) == 0, &err);
    static const double w3[12] = {300, 0, -129, 0, 2, 0, 3, 0, 4, 0, 5, 0};
    check_vec(r, UF_COMPLEX128, w3, 6, __LINE__);
    uf_array_release(r);
    r = NULL;
    /* step 2 over 5 items takes 3: a source of 2 is Numba's ValueError */
    uf_array *two = vec(UF_FLOAT64, b, 2);
    uf_array_release(in[1]);
    in[1] = two;
    assert_int_equal(calln("to_int", in, 5, &r, 1, &err), UF_ERR_VALUE);
    assert_non_null(strstr(err.message, "ValueError: cannot resize "
                                        "extended list slice with step != "
                                        "1"));
    assert_null(r);
    uf_array_release(two);
    uf_array_release(i2[1]);
    for (int k = 0; k < 5; k++)
        if (k != 1)
            uf_array_release(in[k]);
}

/* l[a:b:c] = l reads a copy of l's items, as Python's list does (Numba
 * 0.68 reads items it has already moved: [0, 0, 0, 0, 0, 0, 0, 2 ...]). */
static void test_self(void **state)
{
    (void)state;
    uf_error err;
    double a[4] = {0, 1, 2, 3};
    static const struct {
        int64_t lo, hi, st, n;
        double want[8];
    } cases[] = {
        {1, 2, 1, 7, {0, 0, 1, 2, 3, 2, 3}},
        {3, -100, -1, 4, {3, 2, 1, 0}},
        {0, 4, 1, 4, {0, 1, 2, 3}},
        {4, 4, 1, 8, {0, 1, 2, 3, 0, 1, 2, 3}},
    };
    for (size_t i = 0; i < 4; i++) {
        uf_array *in[4] = {vec(UF_FLOAT64, a, 4), scalar(cases[i].lo),
                           scalar(cases[i].hi), scalar(cases[i].st)},
                 *r = NULL;
        uf_assert_ok(calln("selfie", in, 4, &r, 1, &err) == 0, &err);
        check_vec(r, UF_FLOAT64, cases[i].want, cases[i].n, __LINE__);
        uf_array_release(r);
        for (int k = 0; k < 4; k++)
            uf_array_release(in[k]);
    }
    /* l[-1:0:-1] = l: 3 places, 4 items */
    uf_array *in[4] = {vec(UF_FLOAT64, a, 4), scalar(-1), scalar(0),
                       scalar(-1)},
             *r = NULL;
    assert_int_equal(calln("selfie", in, 4, &r, 1, &err), UF_ERR_VALUE);
    assert_null(r);
    for (int k = 0; k < 4; k++)
        uf_array_release(in[k]);
}

/* Tuples converted field by field ([(7, 8)] into (float64, int64)
 * items), a negative step over them. */
static void test_tuples(void **state)
{
    (void)state;
    uf_error err;
    uf_array *n = scalar(3), *out[2] = {0};
    uf_assert_ok(calln("tuples", &n, 1, out, 2, &err) == 0, &err);
    /* [(-3, -3), (0, 0), (-2, -2), (1, 2), (-1, -1)] */
    assert_true(*(const double *)uf_array_data(out[0]) == -60372.0);
    assert_int_equal(*(const int64_t *)uf_array_data(out[1]), 5);
    uf_array_release(out[0]);
    uf_array_release(out[1]);
    uf_array_release(n);
}

static int churn_call(void *ud, uf_error *err)
{
    uf_array *x = ud, *r = NULL;
    int rc = calln("churn", &x, 1, &r, 1, err);
    uf_array_release(r);
    return rc;
}

/* Lists of arrays and of numbers given new slices in a loop: the arrays
 * dropped from a list are freed (10^4 calls leave no block and no
 * buffer); out of memory at each allocation is UF_ERR_NOMEM with nothing
 * left. */
static void test_leak_and_oom(void **state)
{
    (void)state;
    uf_error err;
    uf_array *x = scalar(40), *r = NULL;
    uf_assert_ok(calln("churn", &x, 1, &r, 1, &err) == 0, &err);
    double want = 0;
    for (int i = 0; i < 40; i++)
        want += (i % 5 == 0 ? 2 : 3) + 2.0 * i + 4;
    double first = *(const double *)uf_array_data(r);
    assert_true(first == want);
    uf_array_release(r);
    r = NULL;
    long nrt = uf__nrt_live(), live = uf__alloc_live();
    for (int i = 0; i < 10000; i++) {
        uf_assert_ok(calln("churn", &x, 1, &r, 1, &err) == 0, &err);
        assert_true(*(const double *)uf_array_data(r) == first);
        uf_array_release(r);
        r = NULL;
    }
    assert_int_equal(uf__nrt_live(), nrt);
    assert_int_equal(uf__alloc_live(), live);
    uf_array_release(x);
    x = scalar(4);
    uf_check_oom_each_alloc("churn", churn_call, x);
    uf_array_release(x);
}

static void *list_of(uf__nrt_meminfo **frame, const double *v, int64_t n)
{
    uf__list *l = uf__list_new(frame, n, 8);
    assert_non_null(l);
    if (n > 0)
        memcpy(l->items, v, (size_t)n * 8);
    return l;
}

/* uf__list_setslice failing (the buffer's growth, the copy of a list
 * assigned to its own slice, a size past int64) leaves the list as it
 * was. */
static void test_setslice_fails(void **state)
{
    (void)state;
    long nrt = uf__nrt_live(), live = uf__alloc_live();
    uf__nrt_meminfo *frame = NULL;
    static const double a[3] = {1, 2, 3}, b[5] = {4, 5, 6, 7, 8};
    uf__list *l = list_of(&frame, a, 3), *s = list_of(&frame, b, 5);
    for (int k = 0; k < 2; k++) {
        uf__alloc_fail_at(1);
        int32_t rc = uf__list_setslice(l, 1, k ? 2 : 1, 1, k ? (void *)l : s,
                                       8);
        uf__alloc_fail_at(0);
        assert_int_equal(rc, -1);
        assert_int_equal(l->size, 3);
        assert_memory_equal(l->items, a, sizeof a);
    }
    uf__list huge = {INT64_MAX - 1, 0, NULL};
    assert_int_equal(uf__list_setslice(l, 0, 1, 1, &huge, 8), -1);
    assert_int_equal(l->size, 3);
    assert_int_equal(uf__list_setslice(l, 0, 2, 2, s, 8), 1);
    assert_memory_equal(l->items, a, sizeof a);
    /* then it works: [1, 4, 5, 6, 7, 8, 3] */
    assert_int_equal(uf__list_setslice(l, 1, 1, 1, s, 8), 0);
    static const double w[7] = {1, 4, 5, 6, 7, 8, 3};
    assert_int_equal(l->size, 7);
    assert_memory_equal(l->items, w, sizeof w);
    uf__nrt_frame_return(&frame, NULL, 0);
    assert_int_equal(uf__nrt_live(), nrt);
    assert_int_equal(uf__alloc_live(), live);
}

/* uf__list_delslice (`del l[a:b:c]`): the slice's items removed for
 * every step sign, the others kept in order, nothing allocated. */
static void test_delslice(void **state)
{
    (void)state;
    long nrt = uf__nrt_live(), live = uf__alloc_live();
    uf__nrt_meminfo *frame = NULL;
    static const double a[7] = {0, 1, 2, 3, 4, 5, 6};
    /* start, n, step (as lower_slice_axis gives them), then what stays */
    static const struct {
        int64_t start, n, step;
        double left[7];
        int64_t nleft;
    } c[] = {
        {1, 3, 1, {0, 4, 5, 6}, 4},          /* [1:4] */
        {0, 4, 2, {1, 3, 5}, 3},             /* [::2] */
        {6, 4, -2, {1, 3, 5}, 3},            /* [::-2] */
        {5, 2, -3, {0, 1, 3, 4, 6}, 5},      /* [5:0:-3] */
        {0, 7, 1, {0}, 0},                   /* [:] */
        {3, 0, 1, {0, 1, 2, 3, 4, 5, 6}, 7}, /* [3:3] */
        {6, 1, 5, {0, 1, 2, 3, 4, 5}, 6},    /* [6::5] */
    };
    for (size_t k = 0; k < sizeof c / sizeof c[0]; k++) {
        uf__list *l = list_of(&frame, a, 7);
        long allocs = uf__alloc_live();
        uf__list_delslice(l, c[k].start, c[k].n, c[k].step, 8);
        assert_int_equal(uf__alloc_live(), allocs);
        assert_int_equal(l->size, c[k].nleft);
        if (c[k].nleft > 0)
            assert_memory_equal(l->items, c[k].left,
                                (size_t)c[k].nleft * sizeof(double));
    }
    uf__nrt_frame_return(&frame, NULL, 0);
    assert_int_equal(uf__nrt_live(), nrt);
    assert_int_equal(uf__alloc_live(), live);
}

/* Refused at FILE:LINE:COL: the sources Numba 0.68 does not take (it
 * fails lowering an array, a tuple, range or a number, and cannot type
 * an empty literal), items that do not convert (complex into a real
 * list: Numba compiles it and corrupts its heap), bounds that are not
 * numbers. */
static void test_refused(void **state)
{
    (void)state;
    static const char bsrc[] =
        "import numpy as np\n"
        "from numba import njit\n"
        "@njit\n"
        "def arr(a):\n"
        "    l = list(a)\n"
        "    l[0:1] = a\n"
        "    return len(l)\n"
        "@njit\n"
        "def tup(a):\n"
        "    l = list(a)\n"
        "    l[:] = (1.0, 2.0)\n"
        "    return len(l)\n"
        "@njit\n"
        "def rng(a):\n"
        "    l = list(a)\n"
        "    l[1:] = range(3)\n"
        "    return len(l)\n"
        "@njit\n"
        "def empty(a):\n"
        "    l = list(a)\n"
        "    l[1:] = []\n"
        "    return len(l)\n"
        "@njit\n"
        "def cplx(a):\n"
        "    l = list(a)\n"
        "    l[1:] = [1j]\n"
        "    return len(l)\n"
        "@njit\n"
        "def width(a):\n"
        "    l = [(1.0, 2.0)]\n"
        "    l[1:] = [(1.0, 2.0, 3.0)]\n"
        "    return len(l)\n"
        "@njit\n"
        "def arrs(a):\n"
        "    l = [a]\n"
        "    l[1:] = [a.astype(np.float32)]\n"
        "    return len(l)\n"
        "@njit\n"
        "def bound(a):\n"
        "    l = list(a)\n"
        "    l[1j:] = l\n"
        "    return len(l)\n"
        "@njit\n"
        "def upd(a):\n"
        "    d = {1: a[0]}\n"
        "    d.update(a)\n"
        "    return len(d)\n"
        "@njit\n"
        "def updv(a):\n"
        "    d = {1: 2}\n"
        "    d.update({2: a[0]})\n"
        "    return len(d)\n"
        "@njit\n"
        "def dlt(a):\n"
        "    return {1: a[0]} <= {1: a[0]}\n"
        "@njit\n"
        "def dtup(a):\n"
        "    d = {1: (a[0], 1)}\n"
        "    d[2] = (1.5, 2.5)\n"
        "    return len(d)\n";
    static const struct {
        const char *fn, *want;
        int line, col;
    } cases[] = {
        {"arr", "cannot assign array(float64, 1d", 6, 5},
        {"tup", "cannot assign UniTuple(float64 x 2) to a slice", 11, 5},
        {"rng", "cannot assign range", 16, 5},
        {"empty", "its items have no known type", 21, 5},
        {"cplx", "its items do not convert", 26, 5},
        {"width", "its items do not convert", 31, 5},
        {"arrs", "its items do not convert", 36, 5},
        {"bound", "slice indices must be integers or None", 41, 7},
        {"upd", "updates a dict from another dict only", 46, 14},
        {"updv", "a value of type float64 does not convert", 51, 14},
        {"dlt", "dicts take == and != only", 55, 12},
        {"dtup", "does not convert to the value type", 59, 5},
    };
    uf_error err;
    uf_module *m = uf_module_from_string(ctx, "contmore_bad.py", bsrc, &err);
    uf_assert_ok(m != NULL, &err);
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        uf_func *f = uf_module_get(m, cases[i].fn, &err);
        uf_assert_ok(f != NULL, &err);
        char *text = uf_func_inspect(f, "(float64[:],)", UF_INSPECT_LLVM,
                                     &err);
        if (text != NULL)
            uf_fail_at(__FILE__, __LINE__, "%s compiled", cases[i].fn);
        if (strstr(err.message, cases[i].want) == NULL ||
            err.line != cases[i].line || err.column != cases[i].col ||
            strstr(err.file, "contmore_bad.py") == NULL)
            uf_fail_at(__FILE__, __LINE__, "%s: %s:%d:%d: %s", cases[i].fn,
                       err.file, err.line, err.column, err.message);
    }
    uf_module_free(m);
}

static int lex_up(const void *x, const void *y)
{
    const double *a = x, *b = y;
    if (a[0] != b[0])
        return (a[0] > b[0]) - (a[0] < b[0]);
    return (a[1] > b[1]) - (a[1] < b[1]);
}

/* 10^5 pairs, many ties in the first field and none in both (so the
 * order is unique): sort of tuples ascending and reversed, and
 * sorted(key=lambda x: (x % 7, -x)), against qsort. */
static void test_sort_large(void **state)
{
    (void)state;
    enum { N = 100000 };
    uf_error err;
    double *a = malloc(N * sizeof *a), *b = malloc(N * sizeof *b);
    double *want = malloc(2 * N * sizeof *want);
    assert_true(a && b && want);
    uint64_t x = 99;
    for (int i = 0; i < N; i++) {
        x = x * 6364136223846793005u + 1442695040888963407u;
        a[i] = (double)((x >> 33) % 50);
        b[i] = (double)i;
        want[2 * i] = a[i];
        want[2 * i + 1] = b[i];
    }
    qsort(want, N, 2 * sizeof *want, lex_up);
    uf_array *in[3] = {vec(UF_FLOAT64, a, N), vec(UF_FLOAT64, b, N),
                       scalar(0)},
             *r = NULL;
    uf_assert_ok(calln("sort_pairs", in, 3, &r, 1, &err) == 0, &err);
    assert_int_equal(uf_array_shape(r)[0], N);
    assert_memory_equal(uf_array_data(r), want, 2 * N * sizeof *want);
    uf_array_release(r);
    r = NULL;
    uf_array_release(in[2]);
    in[2] = scalar(1);
    uf_assert_ok(calln("sort_pairs", in, 3, &r, 1, &err) == 0, &err);
    const double *got = uf_array_data(r);
    for (int i = 0; i < N; i++)
        if (got[2 * i] != want[2 * (N - 1 - i)] ||
            got[2 * i + 1] != want[2 * (N - 1 - i) + 1])
            uf_fail_at(__FILE__, __LINE__, "reversed pair %d differs", i);
    uf_array_release(r);
    r = NULL;
    /* key (x % 7, -x) of distinct x: want[i] = (x % 7, -x) sorted */
    for (int i = 0; i < N; i++) {
        want[2 * i] = fmod(b[i], 7.0);
        want[2 * i + 1] = -b[i];
    }
    qsort(want, N, 2 * sizeof *want, lex_up);
    uf_array *k[2] = {in[1], in[2]}; /* reverse=1 */
    uf_assert_ok(calln("by_key", k, 2, &r, 1, &err) == 0, &err);
    got = uf_array_data(r);
    for (int i = 0; i < N; i++)
        if (got[i] != -want[2 * (N - 1 - i) + 1])
            uf_fail_at(__FILE__, __LINE__, "by_key item %d differs", i);
    uf_array_release(r);
    for (int j = 0; j < 3; j++)
        uf_array_release(in[j]);
    free(a);
    free(b);
    free(want);
}

static int key_churn_call(void *ud, uf_error *err)
{
    uf_array *x = ud, *r = NULL;
    int rc = calln("key_churn", &x, 1, &r, 1, err);
    uf_array_release(r);
    return rc;
}

/* Sorts with keys and of tuples in a loop: 10^4 calls leave nothing,
 * out of memory at each allocation (the keys, the argsort's buffers) is
 * UF_ERR_NOMEM with nothing left; uf__list_sort_by failing leaves the
 * list unchanged. */
static void test_sort_leak_and_oom(void **state)
{
    (void)state;
    uf_error err;
    uf_array *x = scalar(30), *r = NULL;
    uf_assert_ok(calln("key_churn", &x, 1, &r, 1, &err) == 0, &err);
    double want = 0;
    for (int i = 0; i < 30; i++) {
        int n = i % 9;
        double top = -1;
        for (int j = 0; j < n; j++)
            top = fmax(top, (double)((i * 7 + j) % 5));
        want += -i + n + (n > 0 ? top : 0);
    }
    double first = *(const double *)uf_array_data(r);
    assert_true(first == want);
    uf_array_release(r);
    r = NULL;
    long nrt = uf__nrt_live(), live = uf__alloc_live();
    for (int i = 0; i < 10000; i++) {
        uf_assert_ok(calln("key_churn", &x, 1, &r, 1, &err) == 0, &err);
        assert_true(*(const double *)uf_array_data(r) == first);
        uf_array_release(r);
        r = NULL;
    }
    assert_int_equal(uf__nrt_live(), nrt);
    assert_int_equal(uf__alloc_live(), live);
    uf_array_release(x);
    x = scalar(5);
    uf_check_oom_each_alloc("key_churn", key_churn_call, x);
    uf_array_release(x);
    nrt = uf__nrt_live(); /* the sweep above may free a cache */
    live = uf__alloc_live();
    uf__nrt_meminfo *frame = NULL;
    static const double v[4] = {3, 1, 2, 0};
    uf__list *l = list_of(&frame, v, 4);
    static const int64_t desc[4] = {8, 1, 0, UF_FLOAT64};
    for (long k = 1; k <= 2; k++) {
        uf__alloc_fail_at(k);
        int32_t rc = uf__list_sort_by(l, NULL, desc, 0, 8);
        uf__alloc_fail_at(0);
        assert_int_equal(rc, -1);
        assert_memory_equal(l->items, v, sizeof v);
    }
    assert_int_equal(uf__list_sort_by(l, NULL, desc, 1, 8), 0);
    static const double down[4] = {3, 2, 1, 0};
    assert_memory_equal(l->items, down, sizeof down);
    uf__nrt_frame_return(&frame, NULL, 0);
    assert_int_equal(uf__nrt_live(), nrt);
    assert_int_equal(uf__alloc_live(), live);
}

static int dict_churn_call(void *ud, uf_error *err)
{
    uf_array *x = ud, *r = NULL;
    int rc = calln("dict_churn", &x, 1, &r, 1, err);
    uf_array_release(r);
    return rc;
}

/* d.update(e) growing d, d == e after it: values, no leak over 10^4
 * calls, out of memory at each allocation. */
static void test_dict_update(void **state)
{
    (void)state;
    uf_error err;
    uf_array *x = scalar(50), *r = NULL;
    uf_assert_ok(calln("dict_churn", &x, 1, &r, 1, &err) == 0, &err);
    double want = 0;
    for (int i = 0; i < 50; i++) {
        int a = i % 13, b = i % 7;
        int hi = a < b + 5 ? a : b + 5, overlap = hi > 5 ? hi - 5 : 0;
        want += a + b - overlap + (a == 0) + 1;
    }
    double first = *(const double *)uf_array_data(r);
    assert_true(first == want);
    uf_array_release(r);
    r = NULL;
    long nrt = uf__nrt_live(), live = uf__alloc_live();
    for (int i = 0; i < 10000; i++) {
        uf_assert_ok(calln("dict_churn", &x, 1, &r, 1, &err) == 0, &err);
        assert_true(*(const double *)uf_array_data(r) == first);
        uf_array_release(r);
        r = NULL;
    }
    assert_int_equal(uf__nrt_live(), nrt);
    assert_int_equal(uf__alloc_live(), live);
    uf_array_release(x);
    x = scalar(12);
    uf_check_oom_each_alloc("dict_churn", dict_churn_call, x);
    uf_array_release(x);
}

/* Tuple values: get and pop with a default (ufjit's result is the value
 * and the default unified; Numba's Optional of a tuple cannot be
 * indexed), pop of a present key. */
static void test_dict_tuples(void **state)
{
    (void)state;
    uf_error err;
    double x = 2.5;
    int64_t one = 1;
    uf_array *in = uf_empty(UF_FLOAT64, 0, NULL, UF_ORDER_C, &err),
             *out[5] = {0};
    uf_assert_ok(in != NULL, &err);
    memcpy(uf_array_data(in), &x, sizeof x);
    uf_assert_ok(calln("dict_tup", &in, 1, out, 5, &err) == 0, &err);
    static const double want[4] = {8.0, 5.0, 5.5, 2.5};
    for (int i = 0; i < 4; i++)
        if (*(const double *)uf_array_data(out[i]) != want[i])
            uf_fail_at(__FILE__, __LINE__, "output %d: %g, want %g", i,
                       *(const double *)uf_array_data(out[i]), want[i]);
    assert_int_equal(*(const int64_t *)uf_array_data(out[4]), one - 1);
    for (int i = 0; i < 5; i++)
        uf_array_release(out[i]);
    uf_array_release(in);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_convert),
        cmocka_unit_test(test_self),
        cmocka_unit_test(test_tuples),
        cmocka_unit_test(test_leak_and_oom),
        cmocka_unit_test(test_setslice_fails),
        cmocka_unit_test(test_delslice),
        cmocka_unit_test(test_refused),
        cmocka_unit_test(test_sort_large),
        cmocka_unit_test(test_sort_leak_and_oom),
        cmocka_unit_test(test_dict_update),
        cmocka_unit_test(test_dict_tuples),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
