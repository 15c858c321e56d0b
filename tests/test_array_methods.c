/* Array methods inside kernels (compiler/types/infer_arrmeth.c,
 * compiler/lower/lower_arrmeth.c, lower_arrsort.c, common/npsort.c)
 * through uf_call, for what the Numba oracle
 * (tests/e2e/run_array_methods_oracle.py) cannot see: the layouts of the
 * results (np.copy of an F array is F, a.copy() C), non-contiguous views
 * built here, np.sort of 10^5 doubles with NaNs against qsort, no leak
 * across 10^5 calls (uf__nrt_live and uf__alloc_live back where they
 * started), and out of memory at every allocation of a call (the
 * runtime's temporaries included) reaching the caller as UF_ERR_NOMEM. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nrt_test_util.h"

static const char src[] =
    "from numba import njit\n"
    "import numpy as np\n"
    "@njit\n"
    "def copy_np(a):\n"
    "    return np.copy(a)\n"
    "@njit\n"
    "def copy_m(a):\n"
    "    return a.copy()\n"
    "@njit\n"
    "def astype_f4(a):\n"
    "    return a.astype(np.float32)\n"
    "@njit\n"
    "def sort_np(a):\n"
    "    return np.sort(a)\n"
    "@njit\n"
    "def sort_in_place(a):\n"
    "    a.sort()\n"
    "    return a.sum()\n"
    "@njit\n"
    "def argsort_np(a):\n"
    "    return np.argsort(a)\n"
    "@njit\n"
    "def cumsum_np(a):\n"
    "    return np.cumsum(a)\n"
    "@njit\n"
    "def mix(a):\n"
    "    b = a.reshape(a.size).copy()\n"
    "    b.sort()\n"
    "    c = np.searchsorted(b, a.ravel())\n"
    "    d = np.round(a, 1).flatten().cumsum()\n"
    "    return c.sum() + d[-1] + np.argsort(b)[0]\n";

static uf_context *ctx;
static uf_module *mod;

static int setup(void **state)
{
    (void)state;
    uf_error err;
    ctx = uf_context_new(&err);
    if (!ctx)
        return -1;
    mod = uf_module_from_string(ctx, "arrmeth_c.py", src, &err);
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

/* f(x) -> its one result, x kept (NULL with err filled on failure). */
static uf_array *call1(const char *name, uf_array *x, uf_error *err)
{
    uf_array *out = NULL;
    int rc = uf_call(fn(name), &x, 1, &out, 1, NULL, err);
    return rc == 0 ? out : NULL;
}

/* A 2-D float64 array of rows x cols holding (i * cols + j) * k mod m. */
static uf_array *grid(int64_t rows, int64_t cols, uf_order order)
{
    uf_error err;
    int64_t shape[2] = {rows, cols};
    uf_array *a = uf_empty(UF_FLOAT64, 2, shape, order, &err);
    uf_assert_ok(a != NULL, &err);
    const int64_t *st = uf_array_strides(a);
    char *d = uf_array_data(a);
    for (int64_t i = 0; i < rows; i++)
        for (int64_t j = 0; j < cols; j++)
            *(double *)(d + i * st[0] + j * st[1]) =
                (double)(((i * cols + j) * 37) % 101) - 50.0;
    return a;
}

static double at2(const uf_array *a, int64_t i, int64_t j)
{
    const int64_t *st = uf_array_strides(a);
    return *(const double *)((const char *)uf_array_data(a) + i * st[0] +
                             j * st[1]);
}

/* Layouts as Numba's types: np.copy keeps F, a.copy() is C, astype
 * keeps F; values equal to the source's. */
static void test_layouts(void **state)
{
    (void)state;
    uf_error err;
    uf_array *f = grid(3, 4, UF_ORDER_F);
    uf_array *r = call1("copy_np", f, &err);
    uf_assert_ok(r != NULL, &err);
    assert_true(uf_array_flags(r) & UF_ARRAY_F_CONTIGUOUS);
    assert_int_equal(uf_array_strides(r)[0], 8);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 4; j++)
            assert_true(at2(r, i, j) == at2(f, i, j));
    uf_array_release(r);
    r = call1("copy_m", f, &err);
    uf_assert_ok(r != NULL, &err);
    assert_int_equal(uf_array_strides(r)[1], 8);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 4; j++)
            assert_true(at2(r, i, j) == at2(f, i, j));
    uf_array_release(r);
    r = call1("astype_f4", f, &err);
    uf_assert_ok(r != NULL, &err);
    assert_int_equal(uf_array_dtype(r), UF_FLOAT32);
    assert_int_equal(uf_array_strides(r)[0], 4);
    assert_true(((float *)uf_array_data(r))[1] == (float)at2(f, 1, 0));
    uf_array_release(r);
    uf_array_release(f);
}

static int cmp_nan_last(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    if (isnan(a) || isnan(b))
        return isnan(a) - isnan(b);
    return (a > b) - (a < b);
}

/* Views built here (reversed, every other column) sorted along their
 * last axis, in a copy and in place; 10^5 doubles with NaNs against
 * qsort; argsort's order; cumsum of a strided view. */
static void test_views_and_sorts(void **state)
{
    (void)state;
    uf_error err;
    uf_array *g = grid(7, 10, UF_ORDER_C);
    uf_array *v = uf_array_slice(g, "::-1, 1::2", &err);
    uf_assert_ok(v != NULL, &err);
    uf_array *s = call1("sort_np", v, &err);
    uf_assert_ok(s != NULL, &err);
    for (int i = 0; i < 7; i++) {
        double row[5];
        for (int j = 0; j < 5; j++)
            row[j] = at2(v, i, j);
        qsort(row, 5, sizeof row[0], cmp_nan_last);
        for (int j = 0; j < 5; j++)
            assert_true(at2(s, i, j) == row[j]);
    }
    uf_array_release(s);
    uf_array *c = call1("cumsum_np", v, &err);
    uf_assert_ok(c != NULL, &err);
    double acc = 0;
    for (int i = 0; i < 7; i++)
        for (int j = 0; j < 5; j++) {
            acc += at2(v, i, j);
            assert_true(((double *)uf_array_data(c))[i * 5 + j] == acc);
        }
    uf_array_release(c);
    c = call1("sort_in_place", v, &err); /* sorts g's elements */
    uf_assert_ok(c != NULL, &err);
    for (int i = 0; i < 7; i++)
        for (int j = 1; j < 5; j++)
            assert_true(at2(v, i, j - 1) <= at2(v, i, j));
    uf_array_release(c);
    uf_array_release(v);
    uf_array_release(g);

    enum { N = 100000 };
    int64_t n = N;
    uf_array *x = uf_empty(UF_FLOAT64, 1, &n, UF_ORDER_C, &err);
    uf_assert_ok(x != NULL, &err);
    double *xd = uf_array_data(x);
    unsigned seed = 12345;
    for (int i = 0; i < N; i++) {
        seed = seed * 1103515245u + 12345u;
        xd[i] = i % 97 == 0 ? NAN : (double)(seed >> 8) / 65536.0 - 100.0;
    }
    s = call1("sort_np", x, &err);
    uf_assert_ok(s != NULL, &err);
    double *want = malloc(sizeof(double) * N);
    assert_non_null(want);
    memcpy(want, xd, sizeof(double) * N);
    qsort(want, N, sizeof want[0], cmp_nan_last);
    const double *sd = uf_array_data(s);
    for (int i = 0; i < N; i++)
        if (!(sd[i] == want[i] || (isnan(sd[i]) && isnan(want[i]))))
            uf_fail_at(__FILE__, __LINE__, "sorted[%d] = %g, want %g", i,
                       sd[i], want[i]);
    uf_array_release(s);
    uf_array *o = call1("argsort_np", x, &err);
    uf_assert_ok(o != NULL, &err);
    const int64_t *od = uf_array_data(o);
    for (int i = 0; i < N; i++) {
        double got = xd[od[i]];
        assert_true(got == want[i] || (isnan(got) && isnan(want[i])));
        /* stable: equal keys (the NaNs) keep their order */
        if (i > 0 && isnan(got) && isnan(xd[od[i - 1]]))
            assert_true(od[i] > od[i - 1]);
    }
    uf_array_release(o);
    free(want);
    uf_array_release(x);
}

/* 10^5 calls of a kernel that copies, reshapes, sorts, searches, rounds
 * and accumulates leave no block and no allocation behind. */
static void test_no_leak(void **state)
{
    (void)state;
    uf_error err;
    uf_array *g = grid(4, 6, UF_ORDER_C);
    uf_array *r = call1("mix", g, &err); /* compiled */
    uf_assert_ok(r != NULL, &err);
    double first = *(double *)uf_array_data(r);
    uf_array_release(r);
    long nrt = uf__nrt_live(), live = uf__alloc_live();
    for (int i = 0; i < 100000; i++) {
        r = call1("mix", g, &err);
        uf_assert_ok(r != NULL, &err);
        assert_true(*(double *)uf_array_data(r) == first);
        uf_array_release(r);
    }
    assert_int_equal(uf__nrt_live(), nrt);
    assert_int_equal(uf__alloc_live(), live);
    uf_array_release(g);
}

/* Allocation number k of a call fails, for every k until the call
 * succeeds: UF_ERR_NOMEM each time (the kernel's own and the sort
 * runtime's temporaries among them), nothing left behind. */
typedef struct oom_case {
    const char *kernel;
    uf_array *x;
} oom_case;

static int oom_call(void *ud, uf_error *err)
{
    const oom_case *c = ud;
    uf_array *out = call1(c->kernel, c->x, err);
    if (out == NULL)
        return err->code;
    uf_array_release(out);
    return 0;
}

static void test_out_of_memory(void **state)
{
    (void)state;
    uf_error err;
    static const char *const kernels[] = {"mix", "sort_in_place",
                                          "argsort_np"};
    for (size_t c = 0; c < 3; c++) {
        uf_array *g = grid(5, 8, UF_ORDER_C);
        uf_array *x = c == 1   ? uf_array_slice(g, ":, ::-2", &err)
                      : c == 2 ? uf_array_slice(g, "1", &err)
                               : (uf_array_retain(g), g);
        uf_assert_ok(x != NULL, &err);
        oom_case oc = {kernels[c], x};
        uf_assert_ok(oom_call(&oc, &err) == 0, &err); /* compiled */
        uf_check_oom_each_alloc(kernels[c], oom_call, &oc);
        uf_array_release(x);
        uf_array_release(g);
    }
}

/* In a CUDA kernel: refused at the call's FILE:LINE:COL. */
static void test_cuda_refused(void **state)
{
    (void)state;
    static const char csrc[] =
        "import numpy as np\n"
        "from numba import cuda\n"
        "@cuda.jit\n"
        "def k(out):\n"
        "    out.sort()\n";
    uf_error err;
    uf_module *m = uf_module_from_string(ctx, "arrmeth_cuda.py", csrc, &err);
    uf_assert_ok(m != NULL, &err);
    uf_func *k = uf_module_get(m, "k", &err);
    uf_assert_ok(k != NULL, &err);
    char *text = uf_func_inspect(k, "void(float64[:])", UF_INSPECT_TYPES,
                                 &err);
    assert_null(text);
    assert_non_null(strstr(err.file, "arrmeth_cuda.py"));
    assert_int_equal(err.line, 5);
    assert_int_equal(err.column, 5);
    assert_non_null(strstr(err.message, "host runtime"));
    uf_module_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_layouts),
        cmocka_unit_test(test_views_and_sorts),
        cmocka_unit_test(test_no_leak),
        cmocka_unit_test(test_out_of_memory),
        cmocka_unit_test(test_cuda_refused),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
