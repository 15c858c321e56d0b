/* cuda.jit kernels through uf_launch (launch/launch.c) on cudasim, or the
 * GPU under UFJIT_TEST_CUDA_TARGET=cuda: tests/kernels/cuda/basics.py's
 * kernels against the values NumPy would compute, host and device
 * arguments, scalars, declared signatures, 1-3 dimensional grids, and
 * the launch's errors. */
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
    if (ctx == NULL)
        return -1;
    basics = uf_module_load(ctx, KERNELS "/basics.py", &err);
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

static uf_array *vector(uf_dtype dt, int64_t n, double scale)
{
    uf_error err;
    uf_array *a = uf_empty(dt, 1, &n, UF_ORDER_C, &err);
    uf_assert_ok(a != NULL, &err);
    for (int64_t i = 0; i < n; i++) {
        double v = ((double)i - 3.5) * scale;
        if (dt == UF_FLOAT32)
            ((float *)uf_array_data(a))[i] = (float)v;
        else
            ((double *)uf_array_data(a))[i] = v;
    }
    return a;
}

static uf_array *scalar_f8(double v)
{
    uf_error err;
    uf_array *a = uf_empty(UF_FLOAT64, 0, NULL, UF_ORDER_C, &err);
    uf_assert_ok(a != NULL, &err);
    *(double *)uf_array_data(a) = v;
    return a;
}

static uf_launch_options on_target(void)
{
    uf_launch_options o = {.size = sizeof o, .target = SIM};
    return o;
}

/* hypot over host arrays: out copied back; 1000 elements on a grid of
 * 4 x 256 threads (24 past the end do nothing); float32 and float64
 * compile one kernel each. */
static void test_hypot_host(void **state)
{
    (void)state;
    uf_error err;
    uf_func *f = kernel("hypot_kernel");
    assert_int_equal(uf_func_get_kind(f), UF_FUNC_KERNEL);
    uf_launch_options o = on_target();
    for (int t = 0; t < 2; t++) {
        uf_dtype dt = t ? UF_FLOAT32 : UF_FLOAT64;
        uf_array *x = vector(dt, 1000, 0.5), *y = vector(dt, 1000, -0.25),
                 *out = vector(dt, 1000, 0.0);
        uf_array *args[3] = {x, y, out};
        uf_assert_ok(uf_launch(f, (uf_dim3){4, 1, 1}, (uf_dim3){256, 1, 1}, args, 3, &o,
                               &err) == 0,
                     &err);
        for (int64_t i = 0; i < 1000; i++) {
            double a = ((double)i - 3.5) * 0.5, b = ((double)i - 3.5) * -0.25;
            if (dt == UF_FLOAT32) {
                float want = hypotf((float)a, (float)b);
                float got = ((float *)uf_array_data(out))[i];
                if (cuda_test_on_gpu)
                    assert_float_equal(got, want, fabsf(want) * 1e-6f);
                else
                    assert_true(got == want);
            } else {
                double want = hypot(a, b);
                double got = ((double *)uf_array_data(out))[i];
                if (cuda_test_on_gpu)
                    assert_float_equal(got, want, fabs(want) * 1e-15);
                else
                    assert_true(got == want);
            }
        }
        uf_array_release(x);
        uf_array_release(y);
        uf_array_release(out);
    }
}

/* Device arguments stay on the device; a declared signature takes a
 * float64 scalar given as an int64 (a safe cast); a 2-D grid. */
static void test_scale2d_device(void **state)
{
    (void)state;
    uf_error err;
    uf_func *f = kernel("scale2d");
    const int64_t shape[2] = {37, 19};
    uf_array *h = uf_empty(UF_FLOAT64, 2, shape, UF_ORDER_C, &err);
    double *p = uf_array_data(h);
    for (int i = 0; i < 37 * 19; i++)
        p[i] = i * 0.5;
    uf_array *d = uf_to_device(h, SIM, NULL, &err);
    uf_assert_ok(d != NULL, &err);
    uf_array *k = uf_empty(UF_INT64, 0, NULL, UF_ORDER_C, &err);
    *(int64_t *)uf_array_data(k) = 3;
    uf_array *args[2] = {d, k};
    uf_launch_options o = on_target();
    /* 3 x 2 blocks of 16 x 16 threads cover 48 x 32 >= 37 x 19 */
    uf_assert_ok(uf_launch(f, (uf_dim3){3, 2, 1}, (uf_dim3){16, 16, 1}, args, 2, &o,
                           &err) == 0,
                 &err);
    uf_array *back = uf_copy_to_host(d, NULL, NULL, &err);
    uf_assert_ok(back != NULL, &err);
    const double *q = uf_array_data(back);
    for (int i = 0; i < 37 * 19; i++)
        assert_true(q[i] == i * 1.5);
    /* the host array was not touched */
    assert_true(p[5] == 2.5);
    /* an array the signature does not take */
    uf_array *f32 = uf_empty(UF_FLOAT32, 2, shape, UF_ORDER_C, &err);
    args[0] = f32;
    assert_int_equal(uf_launch(f, (uf_dim3){1, 1, 1}, (uf_dim3){1, 1, 1}, args, 2, &o,
                               &err),
                     UF_ERR_TYPE);
    assert_string_equal(err.message, "kernel 'scale2d': no declared signature "
                                     "takes arguments of types "
                                     "(array(float32, 2d, C), int64)");
    uf_array_release(f32);
    uf_array_release(back);
    uf_array_release(k);
    uf_array_release(d);
    uf_array_release(h);
}

/* A 3-D grid: every element gets the indices of the thread that wrote
 * it, as numba-cuda's cuda.grid(3) maps them (x fastest). */
static void test_coordinates_3d(void **state)
{
    (void)state;
    uf_error err;
    uf_func *f = kernel("coordinates");
    const int64_t shape[3] = {3, 5, 7}; /* z, y, x */
    uf_array *out = uf_empty(UF_INT64, 3, shape, UF_ORDER_C, &err);
    memset(uf_array_data(out), 0xff, 3 * 5 * 7 * sizeof(int64_t));
    uf_array *args[1] = {out};
    uf_launch_options o = on_target();
    uf_dim3 grid = {2, 3, 2}, block = {4, 2, 2};
    uf_assert_ok(uf_launch(f, grid, block, args, 1, &o, &err) == 0, &err);
    const int64_t *v = uf_array_data(out);
    for (int z = 0; z < 3; z++)
        for (int y = 0; y < 5; y++)
            for (int x = 0; x < 7; x++) {
                int64_t want = (x / 4) * 1000000 + (x % 4) * 10000 +
                               (y / 2) * 1000 + (y % 2) * 100 +
                               (z / 2) * 10 + (z % 2);
                assert_int_equal(v[(z * 5 + y) * 7 + x], want);
            }
    uf_array_release(out);
}

static void test_sizes(void **state)
{
    (void)state;
    uf_error err;
    uf_func *f = kernel("sizes");
    int64_t n = 7;
    uf_array *out = uf_empty(UF_INT32, 1, &n, UF_ORDER_C, &err);
    memset(uf_array_data(out), 0, 7 * sizeof(int32_t));
    uf_array *args[1] = {out};
    uf_launch_options o = on_target();
    uf_assert_ok(uf_launch(f, (uf_dim3){5, 2, 1}, (uf_dim3){32, 3, 1}, args, 1, &o,
                           &err) == 0,
                 &err);
    const int32_t *v = uf_array_data(out);
    const int32_t want[7] = {32, 3, 5, 2, 160, 6, 32};
    for (int i = 0; i < 7; i++)
        assert_int_equal(v[i], want[i]);
    uf_array_release(out);
}

/* debug=True: the thread one past the end reports an IndexError as the
 * CPU words it. */
static void test_bounds_check(void **state)
{
    (void)state;
    uf_error err;
    uf_func *f = kernel("off_by_one");
    uf_array *a = vector(UF_FLOAT64, 10, 0.0);
    uf_array *args[1] = {a};
    uf_launch_options o = on_target();
    assert_int_equal(uf_launch(f, (uf_dim3){1, 1, 1}, (uf_dim3){64, 1, 1}, args, 1, &o,
                               &err),
                     UF_ERR_INDEX);
    assert_non_null(strstr(err.message, "kernel 'off_by_one': IndexError: "
                                        "index 10 is out of bounds for axis "
                                        "0 with size 10"));
    uf_array_release(a);
}

/* What the launch refuses, with its message. */
static void test_launch_errors(void **state)
{
    (void)state;
    uf_error err;
    uf_func *f = kernel("hypot_kernel");
    uf_array *x = vector(UF_FLOAT64, 4, 1.0);
    uf_array *args[3] = {x, x, x};
    uf_launch_options o = on_target();
    assert_int_equal(uf_launch(f, (uf_dim3){0, 1, 1}, (uf_dim3){32, 1, 1}, args, 3, &o,
                               &err),
                     UF_ERR_INVALID);
    assert_string_equal(err.message, "kernel 'hypot_kernel': grid (0, 1, 1) "
                                     "and block (32, 1, 1) must be at least "
                                     "1 on every axis");
    assert_int_equal(uf_launch(f, (uf_dim3){1, 1, 1}, (uf_dim3){2048, 1, 1}, args, 3, &o,
                               &err),
                     UF_ERR_INVALID);
    assert_string_equal(err.message, "kernel 'hypot_kernel': block x of 2048 "
                                     "is over CUDA's limit of 1024");
    assert_int_equal(uf_launch(f, (uf_dim3){1, 1, 1}, (uf_dim3){64, 32, 1}, args, 3,
                               &o, &err),
                     UF_ERR_INVALID);
    assert_string_equal(err.message, "kernel 'hypot_kernel': a block of (64, "
                                     "32, 1) is 2048 threads, the device "
                                     "runs at most 1024 per block");
    assert_int_equal(uf_launch(f, (uf_dim3){1, 1, 1}, (uf_dim3){1, 1, 1}, args, 2, &o,
                               &err),
                     UF_ERR_INVALID);
    assert_string_equal(err.message,
                        "kernel 'hypot_kernel' takes 3 arguments, 2 given");
    /* a kernel called like a function */
    uf_array *outs[1] = {NULL};
    uf_call_options co = {.size = sizeof co, .target = SIM};
    assert_int_equal(uf_call(f, args, 3, outs, 0, &co, &err), UF_ERR_INVALID);
    assert_string_equal(err.message, "'hypot_kernel' is a CUDA kernel "
                                     "(@cuda.jit): launch it over a grid "
                                     "with uf_launch (numba-cuda: "
                                     "hypot_kernel[grid, block](...))");
    /* a scalar where an array is indexed: the CPU's typing error */
    uf_array *s = scalar_f8(1.0);
    uf_array *bad[3] = {s, x, x};
    assert_int_equal(uf_launch(f, (uf_dim3){1, 1, 1}, (uf_dim3){1, 1, 1}, bad, 3, &o,
                               &err),
                     UF_ERR_TYPING);
    uf_array_release(s);
    uf_array_release(x);
}

/* Kernels that are not launchable, and a kernel returning a value. */
static void test_not_kernels(void **state)
{
    (void)state;
    uf_error err;
    static const char src[] =
        "from numba import cuda, vectorize\n"
        "@cuda.jit(device=True)\n"
        "def dev(x):\n"
        "    return x + 1\n"
        "@vectorize(['f8(f8)'])\n"
        "def vec(x):\n"
        "    return x\n"
        "@cuda.jit\n"
        "def returns(a):\n"
        "    return a[0]\n"
        "@cuda.jit\n"
        "def const_copy(a):\n"
        "    c = cuda.const.array_like(a)\n"
        "    a[0] = c[0]\n";
    uf_module *m = uf_module_from_string(ctx, "nk.py", src, &err);
    uf_assert_ok(m != NULL, &err);
    int64_t n = 1;
    uf_array *a = uf_empty(UF_FLOAT64, 1, &n, UF_ORDER_C, &err);
    uf_array *args[1] = {a};
    uf_launch_options o = on_target();
    uf_func *dev = uf_module_get(m, "dev", &err);
    assert_int_equal(uf_launch(dev, (uf_dim3){1, 1, 1}, (uf_dim3){1, 1, 1}, args, 1, &o,
                               &err),
                     UF_ERR_INVALID);
    assert_string_equal(err.message, "'dev' is a CUDA device function "
                                     "(@cuda.jit(device=True)): it cannot be "
                                     "launched, only called from kernels");
    uf_func *vec = uf_module_get(m, "vec", &err);
    assert_int_equal(uf_launch(vec, (uf_dim3){1, 1, 1}, (uf_dim3){1, 1, 1}, args, 1, &o,
                               &err),
                     UF_ERR_INVALID);
    assert_string_equal(err.message, "'vec' is not a CUDA kernel "
                                     "(@cuda.jit): run it with uf_call");
    uf_func *ret = uf_module_get(m, "returns", &err);
    assert_int_equal(uf_launch(ret, (uf_dim3){1, 1, 1}, (uf_dim3){1, 1, 1}, args, 1, &o,
                               &err),
                     UF_ERR_TYPING);
    assert_non_null(strstr(err.message, "Kernel must have void return type "
                                        "but got float64"));
    assert_int_equal(err.line, 10);
    uf_func *cc = uf_module_get(m, "const_copy", &err);
    assert_int_equal(uf_launch(cc, (uf_dim3){1, 1, 1}, (uf_dim3){1, 1, 1}, args,
                               1, &o, &err),
                     UF_ERR_TYPING);
    assert_non_null(strstr(err.message, "cuda.const.array_like() copies a "
                                        "module-level array"));
    assert_int_equal(err.line, 13);
    uf_array_release(a);
    uf_module_free(m);
}

/* The driver's figures for a compiled kernel: on cudasim no registers
 * or local memory (host code), the static shared memory the kernel
 * declares, 1024 threads per block, and the occupancy calculator's
 * block and grid. */
static void test_attributes(void **state)
{
    (void)state;
    uf_error err;
    static const char src[] =
        "from numba import cuda, float64\n"
        "@cuda.jit\n"
        "def tile(a):\n"
        "    s = cuda.shared.array((16, 17), dtype=float64)\n"
        "    i = cuda.grid(1)\n"
        "    s[0, 0] = 1.0\n"
        "    cuda.syncthreads()\n"
        "    if i < a.size:\n"
        "        a[i] = s[0, 0]\n";
    uf_module *m = uf_module_from_string(ctx, "attrs.py", src, &err);
    uf_assert_ok(m != NULL, &err);
    uf_func *f = uf_module_get(m, "tile", &err);
    uf_array *a = vector(UF_FLOAT64, 10, 1.0);
    uf_array *args[1] = {a};
    uf_launch_options o = on_target();
    uf_kernel_attributes at;
    uf_assert_ok(uf_kernel_attributes_get(f, args, 1, &o, &at, &err) == 0,
                 &err);
    assert_true(at.max_threads_per_block >= 1024 || cuda_test_on_gpu);
    assert_true(at.occupancy_block >= 32 && at.occupancy_block <= 1024);
    assert_true(at.occupancy_grid >= 1);
    if (!cuda_test_on_gpu) {
        assert_int_equal(at.registers, 0);
        assert_int_equal(at.local_bytes, 0);
        assert_int_equal(at.shared_bytes, 16 * 17 * 8);
    } else {
        assert_true(at.registers > 0);
        assert_true(at.shared_bytes >= 16 * 17 * 8);
    }
    /* nothing ran: a is unchanged */
    assert_true(((double *)uf_array_data(a))[9] == 5.5);
    assert_int_equal(uf_kernel_attributes_get(f, args, 1, &o, NULL, &err),
                     UF_ERR_INVALID);
    uf_array_release(a);
    uf_module_free(m);
}

int main(void)
{
    SIM = cuda_test_target();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hypot_host),
        cmocka_unit_test(test_scale2d_device),
        cmocka_unit_test(test_coordinates_3d),
        cmocka_unit_test(test_sizes),
        cmocka_unit_test(test_bounds_check),
        cmocka_unit_test(test_launch_errors),
        cmocka_unit_test(test_not_kernels),
        cmocka_unit_test(test_attributes),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
