/* np.partition and np.argpartition inside kernels (common/nppart.c,
 * compiler/types/infer_nppart.c, compiler/lower/lower_nppart.c), for what
 * the Numba oracle (tests/e2e/run_nppart_oracle.py) cannot reach
 * cheaply: random rows of every size from 1 to 4096 with duplicates and
 * NaN checked against a full sort (the kth elements in place, nothing on
 * the wrong side, the same multiset), argpartition's indices gathering
 * exactly partition's values (the same swaps), orders that defeat naive
 * pivots at 10^5 elements, the statuses in Numba's order (an empty array
 * before kth is looked at), negative and unsigned kths; and through
 * uf_call: reversed strided N-d views, the ValueErrors' codes and words,
 * no leak across 10^4 calls, out of memory at every allocation, the
 * refusals at file:line:col (a 0-d array, CUDA kernels); a.item() of
 * size-1 views and 0-d arrays, and its ValueError. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/nppart.h"
#include "nrt_test_util.h"

static unsigned seed = 4242;
static unsigned next_rand(void)
{
    seed = seed * 1103515245u + 12345u;
    return seed >> 8;
}

/* NumPy's order: NaN after every number. */
static int cmp_f64(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    if (isnan(a) || isnan(b))
        return isnan(a) - isnan(b);
    return a < b ? -1 : a > b ? 1 : 0;
}

static bool before(double a, double b) /* a < b, NaN last */
{
    return !isnan(a) && (isnan(b) || a < b);
}

static bool same_value(double a, double b)
{
    return a == b || (isnan(a) && isnan(b));
}

/* np.partition(a[0..n), k[0..nk)) and np.argpartition of the same, each
 * checked: the kth elements are the sorted ones, nothing before a kth
 * sorts after it nor after one before it, the values are a's, and the
 * indices pick exactly the partitioned values. */
static void check_partition(const double *a, int64_t n, const int64_t *k,
                            int64_t nk, const char *what)
{
    double *p = malloc(sizeof(double) * (size_t)n);
    double *s = malloc(sizeof(double) * (size_t)n);
    double *q = malloc(sizeof(double) * (size_t)n);
    int64_t *ix = malloc(sizeof(int64_t) * (size_t)n);
    assert_true(p && s && q && ix);
    int64_t st = 8;
    assert_int_equal(uf__np_partition((const char *)a, 1, &n, &st,
                                      UF_FLOAT64, (const char *)k, nk, 8,
                                      UF_INT64, 0, 0, (char *)p),
                     0);
    assert_int_equal(uf__np_partition((const char *)a, 1, &n, &st,
                                      UF_FLOAT64, (const char *)k, nk, 8,
                                      UF_INT64, 0, 1, (char *)ix),
                     0);
    memcpy(s, a, sizeof(double) * (size_t)n);
    qsort(s, (size_t)n, sizeof *s, cmp_f64);
    for (int64_t j = 0; j < nk; j++) {
        int64_t kk = k[j] < 0 ? k[j] + n : k[j];
        if (!same_value(p[kk], s[kk]))
            uf_fail_at(__FILE__, __LINE__, "%s n=%lld kth=%lld: %g, sorted "
                       "%g", what, (long long)n, (long long)kk, p[kk],
                       s[kk]);
        for (int64_t i = 0; i < n; i++)
            if ((i < kk && before(p[kk], p[i])) ||
                (i > kk && before(p[i], p[kk])))
                uf_fail_at(__FILE__, __LINE__, "%s n=%lld kth=%lld: [%lld] "
                           "= %g on the wrong side of %g", what,
                           (long long)n, (long long)kk, (long long)i, p[i],
                           p[kk]);
    }
    for (int64_t i = 0; i < n; i++) {
        if (ix[i] < 0 || ix[i] >= n || !same_value(a[ix[i]], p[i]))
            uf_fail_at(__FILE__, __LINE__, "%s n=%lld: index [%lld] = %lld "
                       "does not pick %g", what, (long long)n, (long long)i,
                       (long long)ix[i], p[i]);
        s[i] = 0; /* reused: the indices seen */
    }
    for (int64_t i = 0; i < n; i++) {
        if (s[ix[i]] != 0)
            uf_fail_at(__FILE__, __LINE__, "%s: index %lld twice", what,
                       (long long)ix[i]);
        s[ix[i]] = 1;
    }
    memcpy(q, p, sizeof(double) * (size_t)n); /* the same multiset */
    qsort(q, (size_t)n, sizeof *q, cmp_f64);
    memcpy(s, a, sizeof(double) * (size_t)n);
    qsort(s, (size_t)n, sizeof *s, cmp_f64);
    for (int64_t i = 0; i < n; i++)
        if (!same_value(q[i], s[i]) || signbit(q[i]) != signbit(s[i]))
            if (!(q[i] == 0 && s[i] == 0)) /* -0.0 and 0.0 tie */
                uf_fail_at(__FILE__, __LINE__, "%s: values changed", what);
    free(ix);
    free(q);
    free(s);
    free(p);
}

static void test_random_rows(void **state)
{
    (void)state;
    static const int64_t sizes[] = {1, 2, 3, 4, 5, 7, 8, 16, 17, 31, 100,
                                    1001, 4096};
    double *a = malloc(sizeof(double) * 4096);
    assert_non_null(a);
    for (size_t z = 0; z < sizeof sizes / sizeof *sizes; z++) {
        int64_t n = sizes[z];
        for (int kind = 0; kind < 4; kind++) {
            /* distinct, few values, two values, with NaN and infinities */
            unsigned span = kind == 0 ? 1u << 20 : kind == 1 ? 7 : 2;
            for (int64_t i = 0; i < n; i++) {
                a[i] = (double)(next_rand() % span) - span / 2.0;
                if (kind == 3 && next_rand() % 5 == 0)
                    a[i] = next_rand() % 3 == 0 ? NAN
                           : next_rand() % 2    ? INFINITY
                                                : -INFINITY;
            }
            int64_t one[] = {(int64_t)(next_rand() % (unsigned)n)};
            int64_t last[] = {n > 1 ? -1 : 0}; /* Numba refuses -n */
            int64_t many[] = {n - 1, 0, n / 2, -(n / 3) - 1 + (n == 1),
                              n / 2};
            check_partition(a, n, one, 1, "one kth");
            check_partition(a, n, last, 1, "kth -1");
            check_partition(a, n, many, 5, "five kths");
            check_partition(a, n, NULL, 0, "no kth");
        }
    }
    free(a);
}

static void test_orders(void **state)
{
    (void)state;
    enum { N = 100000 };
    double *a = malloc(sizeof(double) * N);
    assert_non_null(a);
    static const char *const names[] = {"sorted", "reversed", "organ pipe",
                                         "all equal", "sawtooth"};
    for (int o = 0; o < 5; o++) {
        for (int64_t i = 0; i < N; i++) {
            switch (o) {
            case 0: a[i] = (double)i; break;
            case 1: a[i] = (double)(N - i); break;
            case 2: a[i] = (double)(i < N / 2 ? i : N - i); break;
            case 3: a[i] = 1.5; break;
            default: a[i] = (double)(i % 97); break;
            }
        }
        int64_t k[] = {N / 2, 3, N - 2};
        check_partition(a, N, k, 3, names[o]);
    }
    free(a);
}

/* Numba's order of checks and its kth rules, other dtypes, strides. */
static void test_statuses(void **state)
{
    (void)state;
    int32_t a[] = {5, -3, 8, 8, 1, 0, 2}, out[7];
    int64_t n = 7, st = 4, zero = 0;
    int64_t k[] = {3};
    /* an empty array: nothing looked at, not even a bad kth */
    int64_t bad[] = {99};
    assert_int_equal(uf__np_partition((const char *)a, 1, &zero, &st,
                                      UF_INT32, (const char *)bad, 1, 8,
                                      UF_INT64, 1, 0, (char *)out),
                     0);
    int64_t shp0[] = {3, 0}, st0[] = {0, 4};
    assert_int_equal(uf__np_partition((const char *)a, 2, shp0, st0,
                                      UF_INT32, (const char *)bad, 1, 8,
                                      UF_INT64, 0, 1, (char *)out),
                     0);
    assert_int_equal(uf__np_partition((const char *)a, 1, &n, &st, UF_INT32,
                                      (const char *)k, 1, 8, UF_INT64, 1, 0,
                                      (char *)out),
                     UF__NPPART_KTH_DIMS);
    /* |kth| >= n, -n included (NumPy takes -n, Numba does not) */
    static const int64_t outside[] = {7, -7, 100, INT64_MIN, INT64_MAX};
    for (size_t i = 0; i < sizeof outside / sizeof *outside; i++)
        assert_int_equal(uf__np_partition((const char *)a, 1, &n, &st,
                                          UF_INT32,
                                          (const char *)&outside[i], 1, 8,
                                          UF_INT64, 0, 0, (char *)out),
                         UF__NPPART_KTH_BOUNDS);
    /* kth -4 is 3; uint8 kths read through a negative stride */
    int64_t m4 = -4;
    assert_int_equal(uf__np_partition((const char *)a, 1, &n, &st, UF_INT32,
                                      (const char *)&m4, 1, 8, UF_INT64, 0,
                                      0, (char *)out),
                     0);
    assert_int_equal(out[3], 2);
    uint8_t uk[] = {6, 200, 0};
    assert_int_equal(uf__np_partition((const char *)a, 1, &n, &st, UF_INT32,
                                      (const char *)(uk + 2), 2, -2,
                                      UF_UINT8, 0, 0, (char *)out),
                     0);
    assert_int_equal(out[0], -3);
    assert_int_equal(out[6], 8);
    assert_int_equal(uf__np_partition((const char *)a, 1, &n, &st, UF_INT32,
                                      (const char *)uk, 2, 1, UF_UINT8, 0,
                                      0, (char *)out),
                     UF__NPPART_KTH_BOUNDS);
    /* a 2-D array read through strides (-12, 4): rows reversed */
    int64_t shp[] = {2, 3}, strd[] = {-12, 4};
    int64_t k1[] = {1};
    int64_t ix[6];
    assert_int_equal(uf__np_partition((const char *)(a + 3), 2, shp, strd,
                                      UF_INT32, (const char *)k1, 1, 8,
                                      UF_INT64, 0, 1, (char *)ix),
                     0);
    /* row 0 is {8, 1, 0}: index 2 (0), then 1 (1), then 0 (8) */
    int64_t want[] = {2, 1, 0, 1, 0, 2};
    for (int i = 0; i < 6; i++)
        assert_int_equal(ix[i], want[i]);
    /* uint64 above int64's range and bool */
    uint64_t u[] = {UINT64_MAX, 1, (uint64_t)1 << 63, 0}, uo[4];
    int64_t n4 = 4, s8 = 8, k2[] = {2};
    assert_int_equal(uf__np_partition((const char *)u, 1, &n4, &s8,
                                      UF_UINT64, (const char *)k2, 1, 8,
                                      UF_INT64, 0, 0, (char *)uo),
                     0);
    assert_true(uo[2] == (uint64_t)1 << 63 && uo[3] == UINT64_MAX);
    bool b[] = {true, false, true, false}, bo[4];
    int64_t s1 = 1;
    assert_int_equal(uf__np_partition((const char *)b, 1, &n4, &s1, UF_BOOL,
                                      (const char *)k2, 1, 8, UF_INT64, 0, 0,
                                      (char *)bo),
                     0);
    assert_true(!bo[0] && !bo[1] && bo[2] && bo[3]);
}

static const char src[] =
    "from numba import njit\n"
    "import numpy as np\n"
    "@njit\n"
    "def part(a, k):\n"
    "    return np.partition(a, k)\n"
    "@njit\n"
    "def argpart(a, k):\n"
    "    return np.argpartition(a, k)\n"
    "@njit\n"
    "def mix(a):\n"
    "    s = 0.0\n"
    "    for i in range(3):\n"
    "        p = np.partition(a, (1, -1))\n"
    "        q = np.argpartition(a[0], i)\n"
    "        s += p[0, 1] + p[-1, -1] + q[i] + a[i:i + 1, 2:3].item()\n"
    "    return s\n"
    "@njit\n"
    "def item(a):\n"
    "    return np.array(a.item() * 2).item()\n";

static uf_context *ctx;
static uf_module *mod;

static int setup(void **state)
{
    (void)state;
    uf_error err;
    ctx = uf_context_new(&err);
    if (!ctx)
        return -1;
    mod = uf_module_from_string(ctx, "nppart_c.py", src, &err);
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

static uf_array *call2(const char *name, uf_array *a, uf_array *b,
                       uf_error *err)
{
    uf_func *f = uf_module_get(mod, name, err);
    uf_assert_ok(f != NULL, err);
    uf_array *args[2] = {a, b}, *out = NULL;
    int rc = uf_call(f, args, b ? 2 : 1, &out, 1, NULL, err);
    return rc == 0 ? out : NULL;
}

static uf_array *i64(int64_t v)
{
    uf_error err;
    uf_array *a = uf_empty(UF_INT64, 0, NULL, UF_ORDER_C, &err);
    uf_assert_ok(a != NULL, &err);
    *(int64_t *)uf_array_data(a) = v;
    return a;
}

/* A (rows, cols) float64 array of (k * 37) % 101 - 50, NaN at k % 7 == 3. */
static uf_array *grid(int64_t rows, int64_t cols)
{
    uf_error err;
    int64_t shape[2] = {rows, cols};
    uf_array *a = uf_empty(UF_FLOAT64, 2, shape, UF_ORDER_C, &err);
    uf_assert_ok(a != NULL, &err);
    double *d = uf_array_data(a);
    for (int64_t k = 0; k < rows * cols; k++)
        d[k] = k % 7 == 3 ? NAN : (double)((k * 37) % 101) - 50.0;
    return a;
}

static double at2(const uf_array *a, int64_t i, int64_t j)
{
    const int64_t *st = uf_array_strides(a);
    return *(const double *)((const char *)uf_array_data(a) + i * st[0] +
                             j * st[1]);
}

/* A reversed view of every other column: each row of the result is that
 * row's values partitioned, argpartition's indices point into the view. */
static void test_views(void **state)
{
    (void)state;
    uf_error err;
    uf_array *g = grid(5, 12);
    uf_array *v = uf_array_slice(g, "::-1, ::-2", &err);
    uf_assert_ok(v != NULL, &err);
    uf_array *k = i64(-2);
    uf_array *p = call2("part", v, k, &err);
    uf_assert_ok(p != NULL, &err);
    uf_array *ix = call2("argpart", v, k, &err);
    uf_assert_ok(ix != NULL, &err);
    assert_int_equal(uf_array_dtype(ix), UF_INT64);
    assert_int_equal(uf_array_shape(p)[0], 5);
    assert_int_equal(uf_array_shape(p)[1], 6);
    const int64_t *id = uf_array_data(ix);
    for (int64_t i = 0; i < 5; i++) {
        double row[6];
        for (int64_t j = 0; j < 6; j++)
            row[j] = at2(v, i, j);
        qsort(row, 6, sizeof *row, cmp_f64);
        assert_true(same_value(at2(p, i, 4), row[4]));
        for (int64_t j = 0; j < 6; j++) {
            assert_true(same_value(at2(v, i, id[i * 6 + j]), at2(p, i, j)));
            if (j < 4)
                assert_false(before(row[4], at2(p, i, j)));
        }
    }
    uf_array_release(ix);
    uf_array_release(p);
    uf_array_release(k);
    /* Numba's ValueErrors */
    k = i64(6);
    assert_null(call2("part", v, k, &err));
    assert_int_equal(err.code, UF_ERR_VALUE);
    assert_non_null(strstr(err.message, "ValueError: kth out of bounds"));
    uf_array_release(k);
    int64_t shp[2] = {1, 1};
    k = uf_zeros(UF_INT32, 2, shp, UF_ORDER_C, &err);
    uf_assert_ok(k != NULL, &err);
    assert_null(call2("argpart", v, k, &err));
    assert_int_equal(err.code, UF_ERR_VALUE);
    assert_non_null(strstr(err.message, "kth must be scalar or 1-D"));
    uf_array_release(k);
    uf_array_release(v);
    uf_array_release(g);
}

/* a.item() of a size-1 view of a reversed 2-D view; of a 0-d array made
 * in the kernel; Numba's ValueError for other sizes. */
static void test_item(void **state)
{
    (void)state;
    uf_error err;
    uf_array *g = grid(4, 9);
    uf_array *v = uf_array_slice(g, "2:3, ::-4", &err); /* (1, 3) */
    uf_assert_ok(v != NULL, &err);
    assert_null(call2("item", v, NULL, &err));
    assert_int_equal(err.code, UF_ERR_VALUE);
    assert_non_null(strstr(err.message, "ValueError: item(): can only "
                                        "convert an array of size 1"));
    uf_array *w = uf_array_slice(v, ":, 1:2", &err); /* g[2, 4] */
    uf_assert_ok(w != NULL, &err);
    uf_array *r = call2("item", w, NULL, &err);
    uf_assert_ok(r != NULL, &err);
    assert_int_equal(uf_array_ndim(r), 0);
    assert_true(*(double *)uf_array_data(r) == 2.0 * at2(g, 2, 4));
    uf_array_release(r);
    uf_array *e = uf_array_slice(g, "1:1, :", &err); /* empty */
    uf_assert_ok(e != NULL, &err);
    assert_null(call2("item", e, NULL, &err));
    assert_int_equal(err.code, UF_ERR_VALUE);
    uf_array_release(e);
    uf_array_release(w);
    uf_array_release(v);
    uf_array_release(g);
}

static void test_no_leak(void **state)
{
    (void)state;
    uf_error err;
    uf_array *g = grid(4, 9);
    uf_array *r = call2("mix", g, NULL, &err); /* compiled */
    uf_assert_ok(r != NULL, &err);
    double first = *(double *)uf_array_data(r);
    uf_array_release(r);
    long nrt = uf__nrt_live(), live = uf__alloc_live();
    for (int i = 0; i < 10000; i++) {
        r = call2("mix", g, NULL, &err);
        uf_assert_ok(r != NULL, &err);
        assert_true(same_value(*(double *)uf_array_data(r), first));
        uf_array_release(r);
    }
    assert_int_equal(uf__nrt_live(), nrt);
    assert_int_equal(uf__alloc_live(), live);
    uf_array_release(g);
}

static int oom_call(void *ud, uf_error *err)
{
    uf_array *out = call2("mix", ud, NULL, err);
    if (out == NULL)
        return err->code;
    uf_array_release(out);
    return 0;
}

static void test_out_of_memory(void **state)
{
    (void)state;
    uf_error err;
    uf_array *g = grid(5, 8);
    uf_assert_ok(oom_call(g, &err) == 0, &err); /* compiled */
    uf_check_oom_each_alloc("mix", oom_call, g);
    uf_array_release(g);
}

/* Refused at FILE:LINE:COL: a 0-d array, a complex one, any in a CUDA
 * kernel. */
static void test_refused(void **state)
{
    (void)state;
    static const char csrc[] =
        "import numpy as np\n"
        "from numba import cuda, njit\n"
        "@cuda.jit\n"
        "def k(out):\n"
        "    out[0] = np.partition(out, 1)[0]\n"
        "@njit\n"
        "def zero_d(x):\n"
        "    return np.argpartition(np.array(x), 0)\n"
        "@njit\n"
        "def cplx(a):\n"
        "    return np.partition(a, 0)\n"
        "@njit\n"
        "def item_i(a):\n"
        "    return a.item(0)\n";
    uf_error err;
    uf_module *m = uf_module_from_string(ctx, "nppart_bad.py", csrc, &err);
    uf_assert_ok(m != NULL, &err);
    static const struct {
        const char *kernel, *sig, *words;
        int line, col;
    } t[] = {
        {"k", "void(float64[:])", "CUDA kernels cannot", 5, 14},
        {"zero_d", "int64[:](float64)", "at least 1-D (found 0-D)", 8, 28},
        {"cplx", "complex128[:](complex128[:])", "not supported for", 11,
         25},
        {"item_i", "float64(float64[:])", "takes no arguments", 14, 12},
    };
    for (size_t i = 0; i < sizeof t / sizeof *t; i++) {
        uf_func *f = uf_module_get(m, t[i].kernel, &err);
        uf_assert_ok(f != NULL, &err);
        char *text = uf_func_inspect(f, t[i].sig, UF_INSPECT_TYPES, &err);
        assert_null(text);
        assert_non_null(strstr(err.file, "nppart_bad.py"));
        assert_int_equal(err.line, t[i].line);
        assert_int_equal(err.column, t[i].col);
        assert_non_null(strstr(err.message, t[i].words));
    }
    uf_module_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_rows),
        cmocka_unit_test(test_orders),
        cmocka_unit_test(test_statuses),
        cmocka_unit_test(test_views),
        cmocka_unit_test(test_item),
        cmocka_unit_test(test_no_leak),
        cmocka_unit_test(test_out_of_memory),
        cmocka_unit_test(test_refused),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
