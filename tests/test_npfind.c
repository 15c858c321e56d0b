/* The runtime behind np.nonzero, np.flatnonzero, np.argwhere, np.extract
 * and np.unique in kernels (common/npfind.c), for what the Numba oracle
 * cannot reach cheaply: the truth of every dtype (-0.0 false, NaN true,
 * either part of a complex number), N-d arrays with negative and
 * non-unit strides against a brute-force walk, 0-d and empty arrays,
 * extract's limit and its walk of two differently shaped arrays, unique
 * against qsort of random data with NaN and duplicates; and through
 * uf_call: a reversed 2-D view, an empty array, a refused 0-d np.nonzero
 * at file:line:col, and out of memory at every allocation of a call
 * reaching the caller as UF_ERR_NOMEM with nothing left behind. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "common/npfind.h"
#include "common/nrt.h"
#include "test_util.h"

static unsigned seed = 4242;
static unsigned next_rand(void)
{
    seed = seed * 1103515245u + 12345u;
    return seed >> 8;
}

/* The truth of one element of each dtype. */
static void test_truth(void **state)
{
    (void)state;
    double f8[] = {0.0, -0.0, NAN, 1e-310, -INFINITY};
    float f4[] = {-0.0f, 0.0f, NAN, 1e-40f};
    double c16[] = {0.0, -0.0, -0.0, 1.0, NAN, 0.0, 0.0, 0.0};
    uint8_t b[] = {0, 1, 0, 2};
    int64_t i8[] = {0, INT64_MIN, 0, -1};
    uint16_t u2[] = {0x8000, 0, 0, 1};
    int64_t n5 = 5, n4 = 4, s8 = 8, s4 = 4, s16 = 16, s1 = 1, s2 = 2;
    assert_int_equal(uf__np_count_true((const char *)f8, 1, &n5, &s8,
                                       UF_FLOAT64, INT64_MAX), 3);
    assert_int_equal(uf__np_count_true((const char *)f4, 1, &n4, &s4,
                                       UF_FLOAT32, INT64_MAX), 2);
    assert_int_equal(uf__np_count_true((const char *)c16, 1, &n4, &s16,
                                       UF_COMPLEX128, INT64_MAX), 2);
    assert_int_equal(uf__np_count_true((const char *)b, 1, &n4, &s1,
                                       UF_BOOL, INT64_MAX), 2);
    assert_int_equal(uf__np_count_true((const char *)i8, 1, &n4, &s8,
                                       UF_INT64, INT64_MAX), 2);
    assert_int_equal(uf__np_count_true((const char *)u2, 1, &n4, &s2,
                                       UF_UINT16, INT64_MAX), 2);
    /* limit: only the first elements in C order */
    assert_int_equal(uf__np_count_true((const char *)f8, 1, &n5, &s8,
                                       UF_FLOAT64, 3), 1);
    assert_int_equal(uf__np_count_true((const char *)f8, 1, &n5, &s8,
                                       UF_FLOAT64, 0), 0);
    /* a 0-d array is one element */
    int64_t one = 1;
    assert_int_equal(uf__np_count_true((const char *)&f8[2], 0, &one, &s8,
                                       UF_FLOAT64, INT64_MAX), 1);
    int64_t *outs[1] = {&one};
    one = 7;
    uf__np_find((const char *)&f8[2], 0, NULL, NULL, UF_FLOAT64,
                UF__NPFIND_NONZERO, outs);
    assert_int_equal(one, 0);
}

/* A 3-D int32 array of 4 x 5 x 6 seen through a view of negative and
 * stepped strides: nonzero, flat and argwhere against a plain walk. */
static void test_find_views(void **state)
{
    (void)state;
    int32_t base[4 * 5 * 6];
    for (int i = 0; i < 120; i++)
        base[i] = (int32_t)(next_rand() % 3) - 1;
    /* view [::-1, 1::2, ::-3]: shape (4, 2, 2) */
    int64_t shape[3] = {4, 2, 2};
    int64_t strides[3] = {-30 * 4, 2 * 6 * 4, -3 * 4};
    const char *data = (const char *)&base[3 * 30 + 1 * 6 + 5];
    int64_t want = 0, idx[16][3], flat[16];
    for (int64_t i = 0; i < 4; i++)
        for (int64_t j = 0; j < 2; j++)
            for (int64_t k = 0; k < 2; k++) {
                int32_t v;
                memcpy(&v, data + i * strides[0] + j * strides[1] +
                               k * strides[2], 4);
                if (v) {
                    idx[want][0] = i, idx[want][1] = j, idx[want][2] = k;
                    flat[want++] = i * 4 + j * 2 + k;
                }
            }
    assert_int_equal(uf__np_count_true(data, 3, shape, strides, UF_INT32,
                                       INT64_MAX), want);
    int64_t a0[17], a1[17], a2[17], f[17], aw[51]; /* one more: npfind.h */
    int64_t *outs[3] = {a0, a1, a2};
    uf__np_find(data, 3, shape, strides, UF_INT32, UF__NPFIND_NONZERO, outs);
    int64_t *fo[1] = {f}, *ao[1] = {aw};
    uf__np_find(data, 3, shape, strides, UF_INT32, UF__NPFIND_FLAT, fo);
    uf__np_find(data, 3, shape, strides, UF_INT32, UF__NPFIND_ARGWHERE, ao);
    for (int64_t c = 0; c < want; c++) {
        assert_int_equal(a0[c], idx[c][0]);
        assert_int_equal(a1[c], idx[c][1]);
        assert_int_equal(a2[c], idx[c][2]);
        assert_int_equal(f[c], flat[c]);
        for (int k = 0; k < 3; k++)
            assert_int_equal(aw[c * 3 + k], idx[c][k]);
    }
    /* an empty axis anywhere: nothing found, nothing written */
    int64_t eshape[3] = {4, 0, 2};
    assert_int_equal(uf__np_count_true(data, 3, eshape, strides, UF_INT32,
                                       INT64_MAX), 0);
    a0[0] = -5;
    uf__np_find(data, 3, eshape, strides, UF_INT32, UF__NPFIND_NONZERO,
                outs);
    assert_int_equal(a0[0], -5);
}

/* np.extract: a (2, 3) condition over a (3, 2) F-ordered float array,
 * element k of one matching element k of the other in C order. */
static void test_extract(void **state)
{
    (void)state;
    uint8_t cond[6] = {1, 0, 1, 1, 0, 1};
    int64_t cshape[2] = {2, 3}, cstrides[2] = {3, 1};
    double a[6] = {0, 1, 2, 3, 4, 5}; /* F order: a[i, j] = a[i + 3 j] */
    int64_t ashape[2] = {3, 2}, astrides[2] = {8, 24};
    double out[6] = {-1, -1, -1, -1, -1, -1};
    uf__np_extract((const char *)cond, 2, cshape, cstrides, UF_BOOL, 6,
                   (const char *)a, 2, ashape, astrides, UF_FLOAT64,
                   (char *)out);
    /* C order of a: 0 3 1 4 2 5; cond picks elements 0, 2, 3, 5 */
    assert_true(out[0] == 0 && out[1] == 1 && out[2] == 4 && out[3] == 5);
    assert_true(out[4] == -1);
    /* a limit of 3: element 0 and 2 only */
    memset(out, 0, sizeof out);
    uf__np_extract((const char *)cond, 2, cshape, cstrides, UF_BOOL, 3,
                   (const char *)a, 2, ashape, astrides, UF_FLOAT64,
                   (char *)out);
    assert_true(out[0] == 0 && out[1] == 1 && out[2] == 0);
}

static int cmp_i64(const void *x, const void *y)
{
    int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
    return a < b ? -1 : a > b;
}

/* np.unique of random int64 (radix and introsort sizes, strided) against
 * qsort and a dedup; floats with NaN runs and signed zeros. */
static void test_unique(void **state)
{
    (void)state;
    static const int64_t sizes[] = {0, 1, 2, 17, 255, 256, 1000, 5000};
    int64_t *a = malloc(sizeof(int64_t) * 10000);
    int64_t *s = malloc(sizeof(int64_t) * 5000);
    int64_t *out = malloc(sizeof(int64_t) * 5000);
    assert_true(a && s && out);
    for (size_t z = 0; z < sizeof sizes / sizeof *sizes; z++) {
        int64_t n = sizes[z], st = 16;
        for (int64_t i = 0; i < 2 * n; i++)
            a[i] = (int64_t)(next_rand() % 200) - 100 +
                   (i % 7 == 0 ? INT64_MIN / 2 : 0);
        for (int64_t i = 0; i < n; i++)
            s[i] = a[2 * i];
        qsort(s, (size_t)n, sizeof *s, cmp_i64);
        int64_t m = n ? 1 : 0;
        for (int64_t i = 1; i < n; i++)
            if (s[i] != s[m - 1])
                s[m++] = s[i];
        int64_t got = uf__np_unique((const char *)a, 1, &n, &st, UF_INT64,
                                    (char *)out);
        assert_int_equal(got, m);
        assert_memory_equal(out, s, (size_t)m * sizeof *s);
    }
    free(a);
    free(s);
    free(out);
    double f[] = {NAN, 1.0, -NAN, 0.0, 1.0, -INFINITY, NAN, -0.0}, fo[8];
    int64_t n = 8, st = 8;
    int64_t m = uf__np_unique((const char *)f, 1, &n, &st, UF_FLOAT64,
                              (char *)fo);
    assert_int_equal(m, 4); /* -inf, a zero, 1, one NaN */
    assert_true(fo[0] == -INFINITY && fo[1] == 0.0 && fo[2] == 1.0 &&
                isnan(fo[3]));
    /* complex numbers with a NaN part are one run */
    double c[] = {1, 1, NAN, 0, 0, NAN, 1, 1, 2, 0}, co[10];
    int64_t n5 = 5, s16 = 16;
    m = uf__np_unique((const char *)c, 1, &n5, &s16, UF_COMPLEX128,
                      (char *)co);
    assert_int_equal(m, 3);
    assert_true(co[0] == 1 && co[1] == 1 && co[2] == 2 && co[3] == 0);
    assert_true(isnan(co[4]) || isnan(co[5]));
}

/* The set routines through uf__np_setop: promotion (int32 with float64),
 * NaN equal to nothing, setdiff1d in ar1's dtype, isin on both of Numba's
 * paths (a short test list scanned, a long one sorted) agreeing. */
static void test_setops(void **state)
{
    (void)state;
    int32_t a[] = {3, 1, 2, 3, 5};
    double b[] = {2.0, 3.0, 7.0, NAN};
    int64_t na = 5, nb = 4, s4 = 4, s8 = 8;
    double out[16];
    int64_t m = uf__np_setop(UF__NPSET_UNION, 0, (const char *)a, 1, &na,
                             &s4, UF_INT32, (const char *)b, 1, &nb, &s8,
                             UF_FLOAT64, UF_FLOAT64, (char *)out);
    assert_int_equal(m, 6); /* 1 2 3 5 7 nan */
    assert_true(out[0] == 1 && out[3] == 5 && out[4] == 7 && isnan(out[5]));
    m = uf__np_setop(UF__NPSET_INTERSECT, 0, (const char *)a, 1, &na, &s4,
                     UF_INT32, (const char *)b, 1, &nb, &s8, UF_FLOAT64,
                     UF_FLOAT64, (char *)out);
    assert_int_equal(m, 2);
    assert_true(out[0] == 2 && out[1] == 3);
    m = uf__np_setop(UF__NPSET_SETXOR, 0, (const char *)b, 1, &nb, &s8,
                     UF_FLOAT64, (const char *)b, 1, &nb, &s8, UF_FLOAT64,
                     UF_FLOAT64, (char *)out);
    assert_int_equal(m, 2); /* the two NaNs: never equal */
    assert_true(isnan(out[0]) && isnan(out[1]));
    int32_t d[8];
    m = uf__np_setop(UF__NPSET_SETDIFF, 0, (const char *)a, 1, &na, &s4,
                     UF_INT32, (const char *)b, 1, &nb, &s8, UF_FLOAT64,
                     UF_FLOAT64, (char *)d);
    assert_int_equal(m, 2);
    assert_true(d[0] == 1 && d[1] == 5);
    /* isin of 200 ints against 3 (scanned) and 150 (sorted) values */
    int64_t x[200], y[150], nx = 200, ny3 = 3, ny = 150;
    for (int i = 0; i < 200; i++)
        x[i] = (int64_t)(i * 37 % 400); /* distinct: assume_unique holds */
    for (int i = 0; i < 150; i++)
        y[i] = (int64_t)((i * 53 + 11) % 400);
    uint8_t m1[200], m2[200];
    for (int inv = 0; inv < 2; inv++)
        for (int au = 0; au < 2; au++) {
            int64_t *nys[2] = {&ny3, &ny};
            for (int w = 0; w < 2; w++) {
                uint8_t *mk = w ? m2 : m1;
                int fl = (au ? UF__NPSET_ASSUME_UNIQUE : 0) |
                         (inv ? UF__NPSET_INVERT : 0);
                assert_int_equal(uf__np_setop(UF__NPSET_ISIN, fl,
                                              (const char *)x, 1, &nx, &s8,
                                              UF_INT64, (const char *)y, 1,
                                              nys[w], &s8, UF_INT64,
                                              UF_INT64, (char *)mk),
                                 200);
                for (int i = 0; i < 200; i++) {
                    bool in = false;
                    for (int j = 0; j < *nys[w]; j++)
                        in |= x[i] == y[j];
                    if (mk[i] != (uint8_t)(in != (bool)inv))
                        uf_fail_at(__FILE__, __LINE__, "isin %d of %lld: "
                                   "%d, want %d", i, (long long)*nys[w],
                                   mk[i], in != (bool)inv);
                }
            }
        }
}

static const char src[] =
    "from numba import njit\n"
    "import numpy as np\n"
    "@njit\n"
    "def nz(a):\n"
    "    i, j = np.nonzero(a)\n"
    "    return i * 10 + j\n"
    "@njit\n"
    "def all_of(a):\n"
    "    return (np.flatnonzero(a), np.argwhere(a), np.unique(a),\n"
    "            np.extract(a, np.ones(3)), np.where(a)[1])\n"
    "@njit\n"
    "def nz0(a):\n"
    "    return np.nonzero(a)\n";

/* Through uf_call: a reversed 2-D view, an empty one, the 0-d refusal. */
static void test_kernels(void **state)
{
    (void)state;
    uf_error err;
    uf_context *ctx = uf_context_new(&err);
    uf_assert_ok(ctx != NULL, &err);
    uf_module *mod = uf_module_from_string(ctx, "npfind.py", src, &err);
    uf_assert_ok(mod != NULL, &err);
    double d[12] = {0, 1, 0, 2, NAN, 0, -0.0, 3, 0, 0, 0, 4};
    /* d viewed (3, 4) reversed along both axes */
    int64_t shape[2] = {3, 4}, strides[2] = {-32, -8};
    uf_array *x = uf_array_wrap(UF_FLOAT64, 2, shape, strides, &d[11],
                                false, NULL, NULL, &err);
    uf_assert_ok(x != NULL, &err);
    uf_func *f = uf_module_get(mod, "nz", &err);
    uf_assert_ok(f != NULL, &err);
    uf_array *out = NULL;
    uf_assert_ok(uf_call(f, &x, 1, &out, 1, NULL, &err) == 0, &err);
    /* reversed: row 0 = 4 0 0 0, row 1 = 3 -0 0 nan, row 2 = 2 0 1 0 */
    static const int64_t want[] = {0, 10, 13, 20, 22};
    assert_int_equal(uf_array_size(out), 5);
    assert_memory_equal(uf_array_data(out), want, sizeof want);
    uf_array_release(out);
    /* empty: (0, 4) */
    int64_t eshape[2] = {0, 4};
    uf_array *e = uf_empty(UF_FLOAT64, 2, eshape, UF_ORDER_C, &err);
    uf_assert_ok(e != NULL, &err);
    uf_func *g = uf_module_get(mod, "all_of", &err);
    uf_assert_ok(g != NULL, &err);
    uf_array *outs[5] = {NULL};
    uf_assert_ok(uf_call(g, &e, 1, outs, 5, NULL, &err) == 0, &err);
    assert_int_equal(uf_array_size(outs[0]), 0);
    assert_int_equal(uf_array_ndim(outs[1]), 2);
    assert_int_equal(uf_array_shape(outs[1])[1], 2);
    assert_int_equal(uf_array_size(outs[2]), 0);
    assert_int_equal(uf_array_dtype(outs[3]), UF_FLOAT64);
    for (int i = 0; i < 5; i++)
        uf_array_release(outs[i]);
    uf_array_release(e);
    uf_array_release(x);
    /* np.nonzero of a 0-d array: refused where it is written */
    uf_array *z = uf_empty(UF_FLOAT64, 0, NULL, UF_ORDER_C, &err);
    uf_assert_ok(z != NULL, &err);
    uf_func *h = uf_module_get(mod, "nz0", &err);
    int rc = h ? uf_call(h, &z, 1, &out, 1, NULL, &err) : -1;
    assert_int_not_equal(rc, 0);
    assert_int_equal(err.code, UF_ERR_TYPING);
    assert_int_equal(err.line, 13);
    assert_int_equal(err.column, 23);
    uf_array_release(z);
    uf_module_free(mod);
    uf_context_free(ctx);
}

/* Out of memory at each allocation of a call: UF_ERR_NOMEM, nothing left
 * (the result arrays of nonzero, extract, unique and the sort's buffer). */
static void test_out_of_memory(void **state)
{
    (void)state;
    static const char oom[] =
        "from numba import njit\n"
        "import numpy as np\n"
        "@njit\n"
        "def k(a):\n"
        "    i, j = np.nonzero(a)\n"
        "    return (np.unique(a) + np.extract(a, a).sum() + i.sum() + "
        "np.argwhere(a).sum() + j.size + np.isin(a, a.T).sum() +\n"
        "        np.setdiff1d(a, a[0]).sum() + np.intersect1d(a, a[1]).sum())\n";
    uf_error err;
    uf_context *ctx = uf_context_new(&err);
    uf_assert_ok(ctx != NULL, &err);
    uf_module *mod = uf_module_from_string(ctx, "npfind.py", oom, &err);
    uf_assert_ok(mod != NULL, &err);
    int64_t shape[2] = {40, 25};
    uf_array *x = uf_empty(UF_FLOAT64, 2, shape, UF_ORDER_C, &err);
    uf_assert_ok(x != NULL, &err);
    double *d = uf_array_data(x);
    for (int64_t i = 0; i < 1000; i++)
        d[i] = (double)(next_rand() % 5);
    uf_func *f = uf_module_get(mod, "k", &err);
    uf_assert_ok(f != NULL, &err);
    uf_array *out = NULL;
    uf_assert_ok(uf_call(f, &x, 1, &out, 1, NULL, &err) == 0, &err);
    assert_int_equal(uf_array_size(out), 5); /* 0 1 2 3 4 */
    uf_array_release(out);
    long nrt = uf__nrt_live(), live = uf__alloc_live();
    int failures = 0;
    for (long k = 1; k < 100; k++) {
        out = NULL;
        uf__alloc_fail_at(k);
        int rc = uf_call(f, &x, 1, &out, 1, NULL, &err);
        bool failed = uf__alloc_failed();
        uf__alloc_fail_at(0);
        if (rc == 0) {
            uf_array_release(out);
            if (!failed)
                break;
            continue;
        }
        failures++;
        assert_int_equal(err.code, UF_ERR_NOMEM);
        assert_int_equal(uf__nrt_live(), nrt);
        assert_int_equal(uf__alloc_live(), live);
    }
    assert_true(failures >= 5);
    uf_array_release(x);
    uf_module_free(mod);
    uf_context_free(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_truth),
        cmocka_unit_test(test_find_views),
        cmocka_unit_test(test_extract),
        cmocka_unit_test(test_unique),
        cmocka_unit_test(test_setops),
        cmocka_unit_test(test_kernels),
        cmocka_unit_test(test_out_of_memory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
