/* Allocation inside kernels (compiler/types/infer_alloc.c,
 * compiler/lower/lower_alloc.c, common/nrt.c) through uf_call: values and
 * dtypes against NumPy's rules computed here, arrays returned from njit
 * functions and released exactly once (the uf_array outlives the module
 * and context that made it), no leak across 10^5 allocating calls
 * (uf__nrt_live and uf__alloc_live back to where they started), out of
 * memory at every allocation of a call reaching the caller as
 * UF_ERR_NOMEM, and the ValueErrors of bad sizes. The Numba oracle of the
 * same constructs is tests/e2e/run_alloc_oracle.py. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "nrt_test_util.h"

static const char src[] =
    "from numba import njit, guvectorize, vectorize\n"
    "import numpy as np\n"
    "@njit\n"
    "def ramp(n):\n"
    "    a = np.empty(n)\n"
    "    for i in range(n):\n"
    "        a[i] = i * 0.5\n"
    "    return a\n"
    "@njit\n"
    "def grid(m, n):\n"
    "    a = np.full((m, n), 2, dtype=np.int16)\n"
    "    a[m - 1, n - 1] = 9\n"
    "    return a\n"
    "@njit\n"
    "def scalar0d():\n"
    "    return np.ones(())\n"
    "@njit\n"
    "def scratch_sum(n):\n"
    "    t = np.zeros(n)\n"
    "    u = np.arange(n)\n"
    "    for i in range(n):\n"
    "        t[i] = u[i] * 2\n"
    "    s = 0.0\n"
    "    for i in range(n):\n"
    "        s += t[i]\n"
    "    return s\n"
    "@njit\n"
    "def nested(n):\n"
    "    a = ramp(n)\n"
    "    return a[::-1]\n"
    "@njit\n"
    "def early(n, k):\n"
    "    a = np.ones(n)\n"
    "    for i in range(n):\n"
    "        b = np.zeros(n)\n"
    "        if i == k:\n"
    "            return a[i] + b[i]\n"
    "    return -1.0\n"
    "@njit\n"
    "def spaced(a, b, n):\n"
    "    return np.linspace(a, b, n)\n"
    "@njit\n"
    "def steps(a, b, c):\n"
    "    return np.arange(a, b, c)\n"
    "@vectorize(['float64(float64)'])\n"
    "def vec_alloc(x):\n"
    "    t = np.arange(3.0)\n"
    "    return x * t[2]\n"
    "@guvectorize(['void(float64[:], float64[:])'], '(n)->(n)')\n"
    "def rev2(x, out):\n"
    "    n = x.shape[0]\n"
    "    tmp = np.empty(n)\n"
    "    for i in range(n):\n"
    "        tmp[i] = x[i] * 2.0\n"
    "    for i in range(n):\n"
    "        out[i] = tmp[n - 1 - i]\n";

static uf_context *ctx;
static uf_module *mod;

static int setup(void **state)
{
    (void)state;
    uf_error err;
    ctx = uf_context_new(&err);
    if (!ctx)
        return -1;
    mod = uf_module_from_string(ctx, "alloc_c.py", src, &err);
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

static uf_array *scalar(uf_dtype dt, double v)
{
    uf_error err;
    uf_array *a = uf_full(dt, 0, NULL, &v, UF_FLOAT64, UF_ORDER_C, &err);
    uf_assert_ok(a != NULL, &err);
    return a;
}

static uf_func *fn(const char *name)
{
    uf_error err;
    uf_func *f = uf_module_get(mod, name, &err);
    uf_assert_ok(f != NULL, &err);
    return f;
}

/* f(args) -> its one result (NULL with err filled on failure). */
static uf_array *call(const char *name, uf_array **in, int nin,
                      const char *target, uf_error *err)
{
    uf_call_options o = {.size = sizeof o, .target = target};
    uf_array *out = NULL;
    int rc = uf_call(fn(name), in, nin, &out, 1, target ? &o : NULL, err);
    for (int i = 0; i < nin; i++)
        uf_array_release(in[i]);
    return rc == 0 ? out : NULL;
}

static void test_values_and_dtypes(void **state)
{
    (void)state;
    uf_error err;
    uf_array *a = call("ramp", (uf_array *[]){scalar(UF_INT64, 5)}, 1, NULL,
                       &err);
    uf_assert_ok(a != NULL, &err);
    assert_int_equal(uf_array_dtype(a), UF_FLOAT64);
    assert_int_equal(uf_array_ndim(a), 1);
    assert_int_equal(uf_array_shape(a)[0], 5);
    assert_true(uf_array_flags(a) & UF_ARRAY_C_CONTIGUOUS);
    for (int i = 0; i < 5; i++)
        assert_true(((double *)uf_array_data(a))[i] == i * 0.5);
    uf_array_release(a);

    a = call("grid", (uf_array *[]){scalar(UF_INT64, 3), scalar(UF_INT32, 4)},
             2, NULL, &err);
    uf_assert_ok(a != NULL, &err);
    assert_int_equal(uf_array_dtype(a), UF_INT16);
    assert_int_equal(uf_array_ndim(a), 2);
    assert_int_equal(uf_array_shape(a)[0], 3);
    assert_int_equal(uf_array_shape(a)[1], 4);
    assert_int_equal(uf_array_strides(a)[0], 8);
    const int16_t *g = uf_array_data(a);
    for (int i = 0; i < 12; i++)
        assert_int_equal(g[i], i == 11 ? 9 : 2);
    uf_array_release(a);

    a = call("scalar0d", NULL, 0, NULL, &err);
    uf_assert_ok(a != NULL, &err);
    assert_int_equal(uf_array_ndim(a), 0);
    assert_true(*(double *)uf_array_data(a) == 1.0);
    uf_array_release(a);

    /* 0-length, and a view of a callee's array, reversed */
    a = call("ramp", (uf_array *[]){scalar(UF_INT64, 0)}, 1, NULL, &err);
    uf_assert_ok(a != NULL, &err);
    assert_int_equal(uf_array_shape(a)[0], 0);
    uf_array_release(a);
    a = call("nested", (uf_array *[]){scalar(UF_INT64, 4)}, 1, NULL, &err);
    uf_assert_ok(a != NULL, &err);
    assert_int_equal(uf_array_strides(a)[0], -8);
    for (int i = 0; i < 4; i++) /* element i is i strides away */
        assert_true(((double *)uf_array_data(a))[-i] == (3 - i) * 0.5);
    uf_array_release(a);
}

/* np.linspace and np.arange against NumPy's formulas, computed here. */
static void test_ranges(void **state)
{
    (void)state;
    static const double lin[][3] = {{0, 1, 5}, {1, 0, 7}, {2, 3, 1},
                                    {2, 3, 0}, {-1e300, 1e300, 3},
                                    {0.1, 0.7, 50}};
    uf_error err;
    for (size_t c = 0; c < sizeof lin / sizeof lin[0]; c++) {
        uf_array *a = call("spaced",
                           (uf_array *[]){scalar(UF_FLOAT64, lin[c][0]),
                                          scalar(UF_FLOAT64, lin[c][1]),
                                          scalar(UF_INT64, lin[c][2])},
                           3, NULL, &err);
        uf_assert_ok(a != NULL, &err);
        int64_t n = (int64_t)lin[c][2];
        assert_int_equal(uf_array_shape(a)[0], n);
        const double *v = uf_array_data(a);
        double step = (lin[c][1] - lin[c][0]) / (double)(n - 1);
        for (int64_t i = 0; i < n; i++) {
            double want = n == 1 ? lin[c][0]
                          : i == n - 1 ? lin[c][1]
                                       : lin[c][0] + (double)i * step;
            if (v[i] != want)
                uf_fail_at(__FILE__, __LINE__, "linspace case %zu [%lld]: "
                           "%.17g, want %.17g", c, (long long)i, v[i], want);
        }
        uf_array_release(a);
    }
    static const double ar[][3] = {{1, 10, 3}, {10, 1, -3}, {10, 1, 3},
                                   {0, 1, 0.1}, {1, -1, -0.25},
                                   {0.5, 0.5, 1}};
    for (size_t c = 0; c < sizeof ar / sizeof ar[0]; c++) {
        uf_array *a = call("steps",
                           (uf_array *[]){scalar(UF_FLOAT64, ar[c][0]),
                                          scalar(UF_FLOAT64, ar[c][1]),
                                          scalar(UF_FLOAT64, ar[c][2])},
                           3, NULL, &err);
        uf_assert_ok(a != NULL, &err);
        double q = ceil((ar[c][1] - ar[c][0]) / ar[c][2]);
        int64_t n = q > 0 ? (int64_t)q : 0;
        assert_int_equal(uf_array_shape(a)[0], n);
        for (int64_t i = 0; i < n; i++)
            assert_true(((double *)uf_array_data(a))[i] ==
                        ar[c][0] + (double)i * ar[c][2]);
        uf_array_release(a);
    }
}

/* The kernels' ValueErrors: negative dimensions, a zero step. */
static void test_bad_sizes(void **state)
{
    (void)state;
    uf_error err;
    long live = uf__nrt_live();
    assert_null(call("ramp", (uf_array *[]){scalar(UF_INT64, -1)}, 1, NULL,
                     &err));
    assert_int_equal(err.code, UF_ERR_VALUE);
    assert_non_null(strstr(err.message, "negative dimensions"));
    assert_null(call("grid", (uf_array *[]){scalar(UF_INT64, 1LL << 40),
                                            scalar(UF_INT64, 1LL << 40)},
                     2, NULL, &err));
    assert_int_equal(err.code, UF_ERR_VALUE);
    assert_non_null(strstr(err.message, "array is too big"));
    assert_null(call("steps", (uf_array *[]){scalar(UF_FLOAT64, 0),
                                             scalar(UF_FLOAT64, 1),
                                             scalar(UF_FLOAT64, 0)},
                     3, NULL, &err));
    assert_int_equal(err.code, UF_ERR_VALUE);
    assert_int_equal(uf__nrt_live(), live);
}

/* 10^5 calls that allocate (scratch arrays freed at the return, one
 * freed on an early return from inside a loop, arrays returned to the
 * caller and released) leave nothing behind. */
static void test_no_leak(void **state)
{
    (void)state;
    uf_error err;
    /* compile first: compilation allocates and keeps what it caches */
    uf_array *w = call("scratch_sum", (uf_array *[]){scalar(UF_INT64, 8)}, 1,
                       NULL, &err);
    uf_assert_ok(w != NULL, &err);
    assert_true(*(double *)uf_array_data(w) == 56.0);
    uf_array_release(w);
    w = call("early", (uf_array *[]){scalar(UF_INT64, 8),
                                     scalar(UF_INT64, 3)}, 2, NULL, &err);
    uf_assert_ok(w != NULL, &err);
    assert_true(*(double *)uf_array_data(w) == 1.0);
    uf_array_release(w);
    w = call("nested", (uf_array *[]){scalar(UF_INT64, 3)}, 1, NULL, &err);
    uf_assert_ok(w != NULL, &err);
    uf_array_release(w);
    long nrt = uf__nrt_live(), live = uf__alloc_live();
    uf_array *n8 = scalar(UF_INT64, 8), *k3 = scalar(UF_INT64, 3);
    uf_func *f = fn("scratch_sum"), *g = fn("early"), *h = fn("nested");
    for (int i = 0; i < 100000; i++) {
        uf_array *in[2] = {n8, k3};
        uf_array *out = NULL;
        uf_func *which = i % 3 == 0 ? f : i % 3 == 1 ? g : h;
        int rc = uf_call(which, in, which == g ? 2 : 1, &out, 1, NULL, &err);
        uf_assert_ok(rc == 0, &err);
        uf_array_release(out);
    }
    uf_array_release(n8);
    uf_array_release(k3);
    assert_int_equal(uf__nrt_live(), nrt);
    assert_int_equal(uf__alloc_live(), live);
}

/* A returned array owns its block: it outlives the module and context,
 * and releasing it frees the block once (ASan checks the once). */
static void test_returned_lifetime(void **state)
{
    (void)state;
    uf_error err;
    long nrt = uf__nrt_live();
    uf_context *c = uf_context_new(&err);
    uf_assert_ok(c != NULL, &err);
    uf_module *m = uf_module_from_string(c, "alloc_life.py", src, &err);
    uf_assert_ok(m != NULL, &err);
    uf_func *f = uf_module_get(m, "ramp", &err);
    uf_assert_ok(f != NULL, &err);
    uf_array *n = scalar(UF_INT64, 1000);
    uf_array *out = NULL;
    uf_assert_ok(uf_call(f, &n, 1, &out, 1, NULL, &err) == 0, &err);
    uf_array_release(n);
    assert_int_equal(uf__nrt_live(), nrt + 1);
    uf_array *view = uf_array_slice(out, "10:20", &err);
    uf_assert_ok(view != NULL, &err);
    uf_array_release(out);
    uf_module_free(m);
    uf_context_free(c);
    assert_int_equal(uf__nrt_live(), nrt + 1); /* the view holds it */
    assert_true(((double *)uf_array_data(view))[9] == 9.5);
    uf_array_release(view);
    assert_int_equal(uf__nrt_live(), nrt);
}

/* Allocation number k of a call fails, for every k until the call
 * succeeds: each failure is UF_ERR_NOMEM (the kernel's own among them),
 * never a crash, and leaves no block behind. */
typedef struct oom_case {
    uf_func *f;
    uf_array *x;
} oom_case;

static int oom_call(void *ud, uf_error *err)
{
    const oom_case *c = ud;
    uf_array *x = c->x, *out = NULL;
    int rc = uf_call(c->f, &x, 1, &out, 1, NULL, err);
    if (rc == 0)
        uf_array_release(out);
    return rc;
}

static void test_out_of_memory(void **state)
{
    (void)state;
    uf_error err;
    static const char *const kernels[] = {"scratch_sum", "nested", "rev2"};
    for (size_t c = 0; c < 3; c++) {
        bool gu = c == 2;
        /* rev2's scratch past its stack buffer (lower_scratch.h): each
         * call makes a block */
        int64_t shape[1] = {300};
        uf_array *x = gu ? uf_zeros(UF_FLOAT64, 1, shape, UF_ORDER_C, &err)
                         : scalar(UF_INT64, 16);
        uf_assert_ok(x != NULL, &err);
        oom_case oc = {fn(kernels[c]), x};
        uf_assert_ok(oom_call(&oc, &err) == 0, &err); /* compiled */
        uf_check_oom_each_alloc(kernels[c], oom_call, &oc);
        uf_array_release(x);
    }
}

/* A guvectorize kernel's scratch array on the cpu and parallel targets. */
static void test_gufunc_scratch(void **state)
{
    (void)state;
    uf_error err;
    static const char *const targets[] = {"cpu", "parallel"};
    for (int t = 0; t < 2; t++) {
        long nrt = uf__nrt_live();
        int64_t shape[2] = {300, 7};
        uf_array *x = uf_empty(UF_FLOAT64, 2, shape, UF_ORDER_C, &err);
        uf_assert_ok(x != NULL, &err);
        double *xd = uf_array_data(x);
        for (int i = 0; i < 2100; i++)
            xd[i] = i;
        uf_array *out = call("rev2", (uf_array *[]){x}, 1, targets[t], &err);
        uf_assert_ok(out != NULL, &err);
        const double *o = uf_array_data(out);
        for (int r = 0; r < 300; r++)
            for (int j = 0; j < 7; j++)
                assert_true(o[r * 7 + j] == 2.0 * (r * 7 + 6 - j));
        uf_array_release(out);
        assert_int_equal(uf__nrt_live(), nrt);
    }
}

/* A vectorize kernel allocating per element, on both host targets; on
 * cudasim it is refused at the call's FILE:LINE:COL. */
static void test_vectorize(void **state)
{
    (void)state;
    uf_error err;
    static const char *const targets[] = {"cpu", "parallel", "cudasim"};
    for (int t = 0; t < 3; t++) {
        long nrt = uf__nrt_live();
        int64_t shape[1] = {10000};
        uf_array *x = uf_empty(UF_FLOAT64, 1, shape, UF_ORDER_C, &err);
        uf_assert_ok(x != NULL, &err);
        for (int i = 0; i < 10000; i++)
            ((double *)uf_array_data(x))[i] = i;
        uf_array *out = call("vec_alloc", (uf_array *[]){x}, 1, targets[t],
                             &err);
        if (t == 2) {
            assert_null(out);
            assert_int_equal(err.code, UF_ERR_UNSUPPORTED);
            assert_int_equal(err.line, 47);
            assert_int_equal(err.column, 9);
            continue;
        }
        uf_assert_ok(out != NULL, &err);
        for (int i = 0; i < 10000; i++)
            assert_true(((double *)uf_array_data(out))[i] == 2.0 * i);
        uf_array_release(out);
        assert_int_equal(uf__nrt_live(), nrt);
    }
}

/* The same constructs on a CUDA target are refused at FILE:LINE:COL. */
static void test_cuda_refused(void **state)
{
    (void)state;
    static const char csrc[] =
        "import numpy as np\n"
        "from numba import cuda\n"
        "@cuda.jit\n"
        "def k(out):\n"
        "    t = np.zeros(4)\n"
        "    out[0] = t[0]\n";
    uf_error err;
    uf_module *m = uf_module_from_string(ctx, "alloc_cuda.py", csrc, &err);
    uf_assert_ok(m != NULL, &err);
    uf_func *k = uf_module_get(m, "k", &err);
    uf_assert_ok(k != NULL, &err);
    char *text = uf_func_inspect(k, "void(float64[:])", UF_INSPECT_TYPES,
                                 &err);
    assert_null(text);
    assert_non_null(strstr(err.file, "alloc_cuda.py"));
    assert_int_equal(err.line, 5);
    assert_int_equal(err.column, 9);
    assert_non_null(strstr(err.message, "cuda.local.array"));
    uf_module_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_values_and_dtypes),
        cmocka_unit_test(test_ranges),
        cmocka_unit_test(test_bad_sizes),
        cmocka_unit_test(test_no_leak),
        cmocka_unit_test(test_returned_lifetime),
        cmocka_unit_test(test_out_of_memory),
        cmocka_unit_test(test_gufunc_scratch),
        cmocka_unit_test(test_vectorize),
        cmocka_unit_test(test_cuda_refused),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
