/* Foreign device code in cuda.jit kernels (tests/kernels/cuda/link.py:
 * cuda.declare_device, link= of link_functions.cu and link_addi.ptx). On
 * a GPU (UFJIT_TEST_CUDA_TARGET=cuda: the test_cuda_link_gpu run) each
 * kernel is linked by the driver and its values checked; the .cu kernels
 * need nvcc and are skipped with the reason printed where it is missing.
 * On cudasim every such kernel is refused with a clear error. */
#include <math.h>

#include "cuda_kernel_file.h"

static int setup(void **state)
{
    (void)state;
    return kernel_file_load("link.py");
}

enum { N = 1000, BLOCK = 128 };

/* Launches `name` over N elements; 0, or the error (in *err) */
static int launch(const char *name, uf_array **args, int n, uf_error *err)
{
    uf_func *f = uf_module_get(mod, name, err);
    uf_assert_ok(f != NULL, err);
    uf_launch_options o = {.size = sizeof o, .target = SIM};
    return uf_launch(f, (uf_dim3){(N + BLOCK - 1) / BLOCK, 1, 1},
                     (uf_dim3){BLOCK, 1, 1}, args, n, &o, err);
}

/* On cudasim: the refusal names the function and the target. On the
 * GPU: true when the kernel ran; false (with SKIP printed) when the
 * toolkit's nvcc is missing for its .cu file. */
static bool ran(const char *name, const char *symbol, uf_array **args, int n)
{
    uf_error err;
    int rc = launch(name, args, n, &err);
    if (!cuda_test_on_gpu) {
        assert_int_equal(rc, UF_ERR_UNSUPPORTED);
        assert_non_null(strstr(err.message, symbol));
        assert_non_null(strstr(err.message, "external device code"));
        assert_non_null(strstr(err.message, "cudasim"));
        return false;
    }
    if (rc == UF_ERR_UNSUPPORTED && strstr(err.message, "nvcc")) {
        printf("SKIP %s: %s\n", name, err.message);
        return false;
    }
    uf_assert_ok(rc == 0, &err);
    return true;
}

static uf_array *filled_f32(float (*value)(int))
{
    const int64_t shape[1] = {N};
    uf_array *a = zeroed(UF_FLOAT32, 1, shape);
    float *p = uf_array_data(a);
    for (int i = 0; i < N; i++)
        p[i] = value(i);
    return a;
}

static float xs(int i) { return (float)(i % 37) * 0.75f - 9.0f; }
static float ys(int i) { return (float)(i % 11) * 1.25f + 0.5f; }

/* int mul(float *ret, float x, float y) from link_functions.cu */
static void test_mul(void **state)
{
    (void)state;
    uf_array *r = filled_f32(ys), *x = filled_f32(xs), *y = filled_f32(ys);
    memset(uf_array_data(r), 0, N * sizeof(float));
    uf_array *args[3] = {r, x, y};
    if (ran("mul_kernel", "mul", args, 3)) {
        const float *q = uf_array_data(r);
        for (int i = 0; i < N; i++)
            assert_true(q[i] == xs(i) * ys(i));
    }
    uf_array_release(r);
    uf_array_release(x);
    uf_array_release(y);
}

/* a device function calling the foreign one: mul(a, b) + 1 is float64
 * (float32 + int64 literal), stored to float32 */
static void test_device_function(void **state)
{
    (void)state;
    uf_array *r = filled_f32(ys), *x = filled_f32(xs), *y = filled_f32(ys);
    memset(uf_array_data(r), 0, N * sizeof(float));
    uf_array *args[3] = {r, x, y};
    if (ran("device_kernel", "mul", args, 3)) {
        const float *q = uf_array_data(r);
        for (int i = 0; i < N; i++)
            assert_true(q[i] == (float)((double)(xs(i) * ys(i)) + 1.0));
    }
    uf_array_release(r);
    uf_array_release(x);
    uf_array_release(y);
}

/* abi='c': double fma3(double, double, double); the operands keep
 * a * b + c exact, so a fused multiply-add gives the same */
static void test_c_abi(void **state)
{
    (void)state;
    const int64_t shape[1] = {N};
    uf_array *a[4];
    for (int k = 0; k < 4; k++)
        a[k] = zeroed(UF_FLOAT64, 1, shape);
    double *x = uf_array_data(a[1]), *y = uf_array_data(a[2]),
           *z = uf_array_data(a[3]);
    for (int i = 0; i < N; i++) {
        x[i] = (i % 29) * 0.5 - 7;
        y[i] = (i % 13) * 0.25 + 1;
        z[i] = i - 500;
    }
    if (ran("fma_kernel", "fma3", a, 4)) {
        const double *r = uf_array_data(a[0]);
        for (int i = 0; i < N; i++)
            assert_true(r[i] == x[i] * y[i] + z[i]);
    }
    for (int k = 0; k < 4; k++)
        uf_array_release(a[k]);
}

/* int addi(int *ret, int a, int b) from link_addi.ptx, named by the
 * declaration's own link= (the kernel names none) */
static void test_ptx(void **state)
{
    (void)state;
    const int64_t shape[1] = {N};
    uf_array *a[3];
    for (int k = 0; k < 3; k++)
        a[k] = zeroed(UF_INT32, 1, shape);
    int32_t *x = uf_array_data(a[1]), *y = uf_array_data(a[2]);
    for (int i = 0; i < N; i++) {
        x[i] = i * 3 - 1000;
        y[i] = 2000000000 - i * 7;
    }
    if (ran("addi_kernel", "addi", a, 3)) {
        const int32_t *r = uf_array_data(a[0]);
        for (int i = 0; i < N; i++)
            assert_int_equal(r[i], x[i] + y[i]);
    }
    for (int k = 0; k < 3; k++)
        uf_array_release(a[k]);
}

int main(void)
{
    SIM = cuda_test_target();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mul),
        cmocka_unit_test(test_device_function),
        cmocka_unit_test(test_c_abi),
        cmocka_unit_test(test_ptx),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
