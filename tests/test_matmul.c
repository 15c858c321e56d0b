/* 2-D np.dot / `@` (compiler/lower/lower_matmul.c, common/matmul.c) and
 * reductions over an axis (compiler/lower/lower_npaxis.c) through
 * uf_call, against products and sums computed here: operands in C and F
 * order, strided and reversed views and transposes, through the small,
 * the blocked (edge tiles, several k and m blocks) and the matrix-vector
 * paths; empty dimensions (0 x n, n x 0, an inner size 0 gives zeros);
 * NaN and inf propagated; the sizes' ValueError and the axis errors; no
 * leak across many calls (uf__nrt_live, uf__alloc_live); the complex
 * products' two paths called directly. The Numba
 * oracle of the same constructs is tests/e2e/run_npaxis_oracle.py. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/alloc.h"
#include "common/matmul.h"
#include "common/nrt.h"
#include "test_util.h"

static const char src[] =
    "from numba import njit\n"
    "import numpy as np\n"
    "@njit\n"
    "def mm(a, b):\n"
    "    return a @ b\n"
    "@njit\n"
    "def sum_ax(a, k):\n"
    "    return np.sum(a, axis=k)\n"
    "@njit\n"
    "def argmax_ax(a, k):\n"
    "    return a.argmax(axis=k)\n";

static uf_context *ctx;
static uf_module *mod;

static int setup(void **state)
{
    (void)state;
    uf_error err;
    ctx = uf_context_new(&err);
    if (!ctx)
        return -1;
    mod = uf_module_from_string(ctx, "matmul_c.py", src, &err);
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

static uf_func *fn(const char *name)
{
    uf_error err;
    uf_func *f = uf_module_get(mod, name, &err);
    uf_assert_ok(f != NULL, &err);
    return f;
}

static uf_array *call2(const char *name, uf_array *x, uf_array *y,
                       uf_error *err)
{
    uf_array *in[2] = {x, y}, *out = NULL;
    int rc = uf_call(fn(name), in, 2, &out, 1, NULL, err);
    return rc == 0 ? out : NULL;
}

static uf_array *axis(int64_t k)
{
    uf_error err;
    double v = (double)k;
    uf_array *a = uf_full(UF_INT64, 0, NULL, &v, UF_FLOAT64, UF_ORDER_C, &err);
    uf_assert_ok(a != NULL, &err);
    return a;
}

/* An m x n float64 array of small integers and halves (exact products),
 * C-contiguous. */
static uf_array *matrix(int64_t m, int64_t n, int seed)
{
    uf_error err;
    int64_t shape[2] = {m, n};
    uf_array *a = uf_empty(UF_FLOAT64, 2, shape, UF_ORDER_C, &err);
    uf_assert_ok(a != NULL, &err);
    double *d = uf_array_data(a);
    for (int64_t i = 0; i < m * n; i++)
        d[i] = (double)((i * 7 + seed * 13) % 17 - 8) * 0.5;
    return a;
}

static double at(const uf_array *a, int64_t i, int64_t j)
{
    int64_t ix[2] = {i, j};
    uf_error err;
    if (uf_array_ndim(a) == 1)
        ix[0] = uf_array_shape(a)[0] == 1 ? 0 : i + j;
    return *(double *)uf_array_getptr(a, ix, &err);
}

/* c == x @ y (2-D operands), computed here in order; exact for the
 * operands of matrix() when every partial sum is representable. */
static void check_product(const uf_array *c, const uf_array *x,
                          const uf_array *y, const char *what)
{
    int64_t m = uf_array_shape(x)[0], k = uf_array_shape(x)[1];
    int64_t n = uf_array_shape(y)[1];
    assert_int_equal(uf_array_ndim(c), 2);
    assert_int_equal(uf_array_shape(c)[0], m);
    assert_int_equal(uf_array_shape(c)[1], n);
    assert_true(uf_array_flags(c) & UF_ARRAY_C_CONTIGUOUS);
    const double *cd = uf_array_data(c);
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++) {
            double s = 0;
            for (int64_t p = 0; p < k; p++)
                s += at(x, i, p) * at(y, p, j);
            if (cd[i * n + j] != s)
                uf_fail_at(__FILE__, __LINE__, "%s [%lld, %lld]: %.17g, "
                           "want %.17g", what, (long long)i, (long long)j,
                           cd[i * n + j], s);
        }
}

/* Every layout of both operands, at sizes that take each path. */
static void test_layouts(void **state)
{
    (void)state;
    static const int64_t sizes[][3] = {{3, 4, 5},    {8, 8, 8},
                                       {1, 7, 1},    {50, 70, 33},
                                       {130, 300, 21}, {7, 260, 130}};
    uf_error err;
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        int64_t m = sizes[s][0], k = sizes[s][1], n = sizes[s][2];
        uf_array *xc = matrix(m, k, 1), *yc = matrix(k, n, 2);
        uf_array *xs[4], *ys[4];
        xs[0] = uf_array_retain(xc);
        ys[0] = uf_array_retain(yc);
        xs[1] = uf_array_copy(xc, UF_ORDER_F, &err);
        ys[1] = uf_array_copy(yc, UF_ORDER_F, &err);
        /* a transpose of an F copy of the transpose: C data, F strides */
        uf_array *xt = matrix(k, m, 1), *yt = matrix(n, k, 2);
        xs[2] = uf_array_transpose(xt, NULL, &err);
        ys[2] = uf_array_transpose(yt, NULL, &err);
        /* reversed and strided views of larger arrays */
        uf_array *xb = matrix(m, 2 * k, 3), *yb = matrix(2 * k, n, 4);
        xs[3] = uf_array_slice(xb, "::-1, ::2", &err);
        ys[3] = uf_array_slice(yb, "1::2, ::-1", &err);
        for (int i = 0; i < 4; i++)
            for (int j = 0; j < 4; j++) {
                assert_non_null(xs[i]);
                assert_non_null(ys[j]);
                uf_array *c = call2("mm", xs[i], ys[j], &err);
                uf_assert_ok(c != NULL, &err);
                char what[64];
                snprintf(what, sizeof what, "%lldx%lldx%lld layouts %d,%d",
                         (long long)m, (long long)k, (long long)n, i, j);
                check_product(c, xs[i], ys[j], what);
                uf_array_release(c);
            }
        /* matrix * vector and vector * matrix, strided vectors */
        uf_array *v = uf_array_slice(yb, "::2, 0", &err); /* k, strided */
        uf_array *mv = call2("mm", xs[3], v, &err);
        uf_assert_ok(mv != NULL, &err);
        assert_int_equal(uf_array_ndim(mv), 1);
        for (int64_t i = 0; i < m; i++) {
            double want = 0;
            for (int64_t p = 0; p < k; p++)
                want += at(xs[3], i, p) * at(v, p, 0);
            assert_true(((double *)uf_array_data(mv))[i] == want);
        }
        uf_array *u = uf_array_slice(xb, "0, ::-2", &err); /* k */
        uf_array *vm = call2("mm", u, ys[1], &err);
        uf_assert_ok(vm != NULL, &err);
        for (int64_t j = 0; j < n; j++) {
            double want = 0;
            for (int64_t p = 0; p < k; p++)
                want += at(u, 0, p) * at(ys[1], p, j);
            assert_true(((double *)uf_array_data(vm))[j] == want);
        }
        uf_array_release(mv);
        uf_array_release(vm);
        uf_array_release(v);
        uf_array_release(u);
        for (int i = 0; i < 4; i++) {
            uf_array_release(xs[i]);
            uf_array_release(ys[i]);
        }
        uf_array_release(xc);
        uf_array_release(yc);
        uf_array_release(xt);
        uf_array_release(yt);
        uf_array_release(xb);
        uf_array_release(yb);
    }
}

/* 0 x n and n x 0 results are empty; an inner size of 0 gives zeros. */
static void test_empty(void **state)
{
    (void)state;
    static const int64_t sizes[][3] = {{0, 3, 4}, {3, 0, 4}, {3, 4, 0},
                                       {0, 0, 0}, {40, 0, 50}};
    uf_error err;
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        int64_t m = sizes[s][0], k = sizes[s][1], n = sizes[s][2];
        uf_array *x = matrix(m, k, 1), *y = matrix(k, n, 2);
        uf_array *c = call2("mm", x, y, &err);
        uf_assert_ok(c != NULL, &err);
        assert_int_equal(uf_array_shape(c)[0], m);
        assert_int_equal(uf_array_shape(c)[1], n);
        for (int64_t i = 0; i < m * n; i++)
            assert_true(((double *)uf_array_data(c))[i] == 0.0);
        uf_array_release(c);
        uf_array_release(x);
        uf_array_release(y);
    }
}

/* NaN in a row of a poisons that row; inf * 0 is NaN; inf stays inf. */
static void test_nan(void **state)
{
    (void)state;
    uf_error err;
    for (int64_t sz = 4; sz <= 64; sz *= 4) {
        uf_array *x = matrix(sz, sz, 1), *y = matrix(sz, sz, 2);
        double *xd = uf_array_data(x), *yd = uf_array_data(y);
        xd[1 * sz + 2] = NAN;   /* row 1 of the result */
        yd[3 * sz + 0] = 0.0;   /* column 0 meets inf ... */
        xd[2 * sz + 3] = INFINITY; /* ... in row 2: NaN */
        for (int64_t p = 0; p < sz; p++)
            yd[p * sz + 1] = 1.0; /* column 1: row 2 is +inf */
        uf_array *c = call2("mm", x, y, &err);
        uf_assert_ok(c != NULL, &err);
        const double *cd = uf_array_data(c);
        for (int64_t j = 0; j < sz; j++)
            assert_true(isnan(cd[1 * sz + j]));
        assert_true(isnan(cd[2 * sz + 0]));
        assert_true(isinf(cd[2 * sz + 1]) && cd[2 * sz + 1] > 0);
        assert_false(isnan(cd[0]));
        uf_array_release(c);
        uf_array_release(x);
        uf_array_release(y);
    }
}

/* The sums over each axis of C, F and strided operands; argmax too. */
static void test_axis(void **state)
{
    (void)state;
    uf_error err;
    uf_array *c = matrix(37, 45, 5);
    uf_array *f = uf_array_copy(c, UF_ORDER_F, &err);
    uf_array *v = uf_array_slice(c, "::-3, 1::2", &err);
    uf_array *ops[3] = {c, f, v};
    for (int o = 0; o < 3; o++) {
        uf_array *a = ops[o];
        int64_t m = uf_array_shape(a)[0], n = uf_array_shape(a)[1];
        for (int k = -2; k < 2; k++) {
            int ax = k < 0 ? k + 2 : k;
            uf_array *ka = axis(k);
            uf_array *s = call2("sum_ax", a, ka, &err);
            uf_assert_ok(s != NULL, &err);
            int64_t len = ax == 0 ? n : m;
            assert_int_equal(uf_array_ndim(s), 1);
            assert_int_equal(uf_array_shape(s)[0], len);
            for (int64_t r = 0; r < len; r++) {
                double want = 0;
                for (int64_t i = 0; i < (ax == 0 ? m : n); i++)
                    want += ax == 0 ? at(a, i, r) : at(a, r, i);
                assert_true(((double *)uf_array_data(s))[r] == want);
            }
            uf_array_release(s);
            uf_array *g = call2("argmax_ax", a, ka, &err);
            uf_array_release(ka);
            uf_assert_ok(g != NULL, &err);
            assert_int_equal(uf_array_dtype(g), UF_INT64);
            for (int64_t r = 0; r < len; r++) {
                int64_t best = 0;
                for (int64_t i = 1; i < (ax == 0 ? m : n); i++)
                    if ((ax == 0 ? at(a, i, r) : at(a, r, i)) >
                        (ax == 0 ? at(a, best, r) : at(a, r, best)))
                        best = i;
                assert_int_equal(((int64_t *)uf_array_data(g))[r], best);
            }
            uf_array_release(g);
        }
    }
    /* a 3-D sum over its middle axis */
    int64_t shape[3] = {3, 4, 5};
    uf_array *t = uf_arange(0, 60, 1, UF_FLOAT64, &err);
    uf_array *t3 = uf_array_reshape(t, 3, shape, UF_ORDER_C, false, &err);
    uf_array *k1 = axis(1);
    uf_array *s = call2("sum_ax", t3, k1, &err);
    uf_array_release(k1);
    uf_assert_ok(s != NULL, &err);
    assert_int_equal(uf_array_shape(s)[0], 3);
    assert_int_equal(uf_array_shape(s)[1], 5);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 5; j++)
            assert_true(((double *)uf_array_data(s))[i * 5 + j] ==
                        4 * (i * 20 + j) + 30);
    uf_array_release(s);
    uf_array_release(t3);
    uf_array_release(t);
    uf_array_release(c);
    uf_array_release(f);
    uf_array_release(v);
}

static void test_errors(void **state)
{
    (void)state;
    uf_error err;
    long nrt = uf__nrt_live();
    uf_array *x = matrix(3, 4, 1), *y = matrix(3, 4, 2);
    assert_null(call2("mm", x, y, &err));
    assert_int_equal(err.code, UF_ERR_VALUE);
    assert_non_null(strstr(err.message, "incompatible array sizes for "
                                        "np.dot(a, b) (matrix * matrix)"));
    uf_array *k = axis(2);
    assert_null(call2("sum_ax", x, k, &err));
    assert_non_null(strstr(err.message, "AxisError: axis 2 is out of "
                                        "bounds for array of dimension 2"));
    assert_null(call2("argmax_ax", x, k, &err));
    assert_non_null(strstr(err.message, "ValueError: axis is out of "
                                        "bounds"));
    uf_array_release(k);
    uf_array_release(x);
    uf_array_release(y);
    assert_int_equal(uf__nrt_live(), nrt);
}

/* 10^4 products and sums leave no block and no packing buffer behind. */
/* The complex products of common/matmul.c called directly: small (the
 * plain loop) and past MM_CSMALL (four real blocked products of the
 * parts), a transposed and a row-reversed operand, complex128 and
 * complex64 against sums made here; out of memory for the parts'
 * scratch gives -1 and leaks nothing. */
static void test_complex(void **state)
{
    (void)state;
    static const int64_t dims[][3] = {{3, 4, 5}, {40, 37, 33}, {70, 65, 20}};
    for (size_t d = 0; d < sizeof dims / sizeof *dims; d++) {
        int64_t m = dims[d][0], n = dims[d][1], k = dims[d][2];
        double *a = malloc((size_t)(2 * m * k) * sizeof *a); /* k x m: a^T */
        double *b = malloc((size_t)(2 * k * n) * sizeof *b);
        double *c = malloc((size_t)(2 * m * n) * sizeof *c);
        float *af = malloc((size_t)(2 * m * k) * sizeof *af);
        float *bf = malloc((size_t)(2 * k * n) * sizeof *bf);
        float *cf = malloc((size_t)(2 * m * n) * sizeof *cf);
        for (int64_t i = 0; i < 2 * m * k; i++)
            af[i] = (float)(a[i] = sin((double)i * 0.37) * 2);
        for (int64_t i = 0; i < 2 * k * n; i++)
            bf[i] = (float)(b[i] = cos((double)i * 0.91) - 0.25);
        /* a read transposed (a_rs one element, a_cs a row of k x m); b's
         * rows reversed (b_rs negative) */
        const char *b_last = (const char *)(b + 2 * (k - 1) * n);
        assert_int_equal(uf__rt_matmul_c128(m, n, k, a, 16, 16 * m, b_last,
                                            -16 * n, 16, c), 0);
        const char *bf_last = (const char *)(bf + 2 * (k - 1) * n);
        assert_int_equal(uf__rt_matmul_c64(m, n, k, af, 8, 8 * m, bf_last,
                                           -8 * n, 8, cf), 0);
        for (int64_t i = 0; i < m; i++)
            for (int64_t j = 0; j < n; j++) {
                double re = 0, im = 0;
                for (int64_t p = 0; p < k; p++) {
                    const double *x = a + 2 * (p * m + i);
                    const double *y = b + 2 * ((k - 1 - p) * n + j);
                    re += x[0] * y[0] - x[1] * y[1];
                    im += x[0] * y[1] + x[1] * y[0];
                }
                const double *g = c + 2 * (i * n + j);
                const float *h = cf + 2 * (i * n + j);
                if (!(fabs(g[0] - re) <= 1e-13 * (double)k &&
                      fabs(g[1] - im) <= 1e-13 * (double)k &&
                      fabs(h[0] - re) <= 1e-5 * (double)k &&
                      fabs(h[1] - im) <= 1e-5 * (double)k))
                    uf_fail_at(__FILE__, __LINE__, "%ldx%ldx%ld [%ld,%ld]",
                               (long)m, (long)n, (long)k, (long)i, (long)j);
            }
        if (m * n * k > 32768) { /* the parts' scratch refused */
            long live = uf__alloc_live();
            uf__alloc_fail_at(1);
            int32_t st = uf__rt_matmul_c128(m, n, k, a, 16, 16 * m, b_last,
                                            -16 * n, 16, c);
            uf__alloc_fail_at(0);
            assert_int_equal(st, -1);
            assert_int_equal(uf__alloc_live(), live);
        }
        free(a), free(b), free(c), free(af), free(bf), free(cf);
    }
}

static void test_no_leak(void **state)
{
    (void)state;
    uf_error err;
    uf_array *x = matrix(9, 7, 1), *y = matrix(7, 5, 2);
    uf_array *big = matrix(150, 150, 3), *k0 = axis(0);
    uf_array *w = call2("mm", big, big, &err); /* compiled */
    uf_assert_ok(w != NULL, &err);
    uf_array_release(w);
    w = call2("sum_ax", big, k0, &err);
    uf_assert_ok(w != NULL, &err);
    uf_array_release(w);
    long nrt = uf__nrt_live(), live = uf__alloc_live();
    for (int i = 0; i < 10000; i++) {
        uf_array *c = i % 100 == 0   ? call2("mm", big, big, &err)
                      : i % 2 == 0 ? call2("mm", x, y, &err)
                                   : call2("sum_ax", x, k0, &err);
        uf_assert_ok(c != NULL, &err);
        uf_array_release(c);
    }
    assert_int_equal(uf__nrt_live(), nrt);
    assert_int_equal(uf__alloc_live(), live);
    uf_array_release(x);
    uf_array_release(y);
    uf_array_release(big);
    uf_array_release(k0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_layouts), cmocka_unit_test(test_empty),
        cmocka_unit_test(test_nan),     cmocka_unit_test(test_axis),
        cmocka_unit_test(test_errors),  cmocka_unit_test(test_no_leak),
        cmocka_unit_test(test_complex),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
