/* uf_launch_forall (numba-cuda's kernel.forall(n)) on cudasim, or the
 * GPU under UFJIT_TEST_CUDA_TARGET=cuda: the occupancy-sized 1-D launch
 * covers n threads with one block short of n at most, n == 0 launches
 * nothing; and cuda.jit's max_registers= (front end limits, .maxnreg in
 * the kernel's PTX listing). */
#include <math.h>

#include "test_util.h"
#include "cuda_test_target.h"

#define KERNELS UF_TEST_DATA_DIR "/../kernels/cuda"

static const char *SIM;
static uf_context *ctx;
static uf_module *basics;

static int setup(void **state)
{
    (void)state;
    uf_error err;
    ctx = uf_context_new(&err);
    basics = ctx ? uf_module_load(ctx, KERNELS "/basics.py", &err) : NULL;
    if (basics == NULL) {
        fprintf(stderr, "%s\n", err.message);
        return -1;
    }
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    uf_module_free(basics);
    uf_context_free(ctx);
    return 0;
}

static uf_func *kernel(const char *name)
{
    uf_error err;
    uf_func *f = uf_module_get(basics, name, &err);
    uf_assert_ok(f != NULL, &err);
    return f;
}

static uf_array *int64_zeros(int64_t n)
{
    uf_error err;
    uf_array *a = uf_zeros(UF_INT64, 1, &n, UF_ORDER_C, &err);
    uf_assert_ok(a != NULL, &err);
    return a;
}

/* The launch's shape as the kernel sees it: blockDim.x * gridDim.x
 * covers n, and one block fewer would not. */
static void test_forall_shape(void **state)
{
    (void)state;
    uf_error err;
    uf_launch_options o = {.size = sizeof o, .target = SIM};
    const uint64_t ns[] = {1, 31, 1000, 2500, 100000};
    for (size_t t = 0; t < sizeof ns / sizeof ns[0]; t++) {
        uf_array *out = int64_zeros(8);
        uf_array *args[1] = {out};
        uf_assert_ok(uf_launch_forall(kernel("sizes"), ns[t], args, 1, &o,
                                      &err) == 0,
                     &err);
        const int64_t *v = uf_array_data(out);
        int64_t block = v[0], grid = v[2];
        assert_true(block >= 1 && block <= 1024);
        assert_int_equal(v[1], 1); /* 1-D */
        assert_int_equal(v[3], 1);
        assert_true((uint64_t)(block * grid) >= ns[t]);
        assert_true((uint64_t)(block * (grid - 1)) < ns[t]);
        assert_int_equal(v[4], block * grid); /* cuda.gridsize */
        uf_array_release(out);
    }
}

/* hypot over n elements: every one computed, exactly on cudasim */
static void test_forall_hypot(void **state)
{
    (void)state;
    uf_error err;
    int64_t n = 3001;
    uf_array *x = uf_empty(UF_FLOAT64, 1, &n, UF_ORDER_C, &err),
             *y = uf_empty(UF_FLOAT64, 1, &n, UF_ORDER_C, &err),
             *out = uf_zeros(UF_FLOAT64, 1, &n, UF_ORDER_C, &err);
    uf_assert_ok(x && y && out, &err);
    double *px = uf_array_data(x), *py = uf_array_data(y);
    for (int64_t i = 0; i < n; i++) {
        px[i] = (double)i * 0.5 - 7;
        py[i] = (double)i * -0.25 + 3;
    }
    uf_array *args[3] = {x, y, out};
    uf_launch_options o = {.size = sizeof o, .target = SIM};
    uf_assert_ok(uf_launch_forall(kernel("hypot_kernel"), (uint64_t)n, args,
                                  3, &o, &err) == 0,
                 &err);
    const double *po = uf_array_data(out);
    for (int64_t i = 0; i < n; i++) {
        double want = hypot(px[i], py[i]);
        if (cuda_test_on_gpu)
            assert_float_equal(po[i], want, fabs(want) * 1e-15);
        else
            assert_true(po[i] == want);
    }
    uf_array_release(x);
    uf_array_release(y);
    uf_array_release(out);
}

/* n == 0 runs nothing; a wrong kernel or argument count is still an
 * error; a device function is refused */
static void test_forall_zero_and_errors(void **state)
{
    (void)state;
    uf_error err;
    uf_launch_options o = {.size = sizeof o, .target = SIM};
    uf_array *out = int64_zeros(8);
    uf_array *args[1] = {out};
    assert_int_equal(uf_launch_forall(kernel("sizes"), 0, args, 1, &o, &err),
                     0);
    for (int i = 0; i < 8; i++)
        assert_int_equal(((int64_t *)uf_array_data(out))[i], 0);
    assert_int_equal(uf_launch_forall(kernel("sizes"), 0, args, 0, &o, &err),
                     UF_ERR_INVALID);
    assert_non_null(strstr(err.message, "takes 1 argument"));
    assert_int_equal(uf_launch_forall(kernel("sizes"), 10, args, 2, &o, &err),
                     UF_ERR_INVALID);
    assert_int_equal(uf_launch_forall(NULL, 10, args, 1, &o, &err),
                     UF_ERR_INVALID);
    uf_array_release(out);
}

static uf_module *from_text(const char *text, uf_error *err)
{
    return uf_module_from_string(ctx, "maxreg.py", text, err);
}

/* max_registers=: 1..255 or None on cuda.jit kernels only; the PTX
 * listing carries .maxnreg N */
static void test_max_registers(void **state)
{
    (void)state;
    uf_error err;
    static const char *const bad[] = {
        "from numba import cuda\n@cuda.jit(max_registers=0)\n"
        "def k(a):\n    a[0] = 1\n",
        "from numba import cuda\n@cuda.jit(max_registers=256)\n"
        "def k(a):\n    a[0] = 1\n",
        "from numba import cuda\n@cuda.jit(max_registers='24')\n"
        "def k(a):\n    a[0] = 1\n",
        "from numba import vectorize\n"
        "@vectorize(['f8(f8)'], max_registers=24)\n"
        "def k(a):\n    return a\n",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        uf_module *m = from_text(bad[i], &err);
        assert_null(m);
        assert_true(strstr(err.message, "max_registers") != NULL);
    }
    uf_module *m = from_text("from numba import cuda\n"
                             "@cuda.jit('void(float64[:])', "
                             "max_registers=32)\n"
                             "def k(a):\n    a[0] = 1.0\n",
                             &err);
    uf_assert_ok(m != NULL, &err);
    uf_func *f = uf_module_get(m, "k", &err);
    uf_assert_ok(f != NULL, &err);
    char *text = uf_func_inspect(f, NULL, UF_INSPECT_PTX, &err);
    uf_assert_ok(text != NULL, &err);
    assert_non_null(strstr(text, "\n.maxnreg 32\n"));
    uf_free(text);
    /* and it launches (the cap is ptxas's on a GPU; cudasim ignores it) */
    int64_t n = 4;
    uf_array *a = uf_zeros(UF_FLOAT64, 1, &n, UF_ORDER_C, &err);
    uf_array *args[1] = {a};
    uf_launch_options o = {.size = sizeof o, .target = SIM};
    uf_assert_ok(uf_launch_forall(f, 1, args, 1, &o, &err) == 0, &err);
    assert_true(((double *)uf_array_data(a))[0] == 1.0);
    uf_array_release(a);
    uf_module_free(m);
}

int main(void)
{
    SIM = cuda_test_target();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_forall_shape),
        cmocka_unit_test(test_forall_hypot),
        cmocka_unit_test(test_forall_zero_and_errors),
        cmocka_unit_test(test_max_registers),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
