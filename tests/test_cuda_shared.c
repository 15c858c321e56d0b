/* Shared and local memory in cuda.jit kernels (tests/kernels/cuda/
 * shared.py) on cudasim, or the GPU under UFJIT_TEST_CUDA_TARGET=cuda:
 * the seed's tiled transpose and a tiled matmul against the values NumPy
 * gives, dynamic shared memory sized by the launch, local arrays, and
 * cudasim's barrier being real: the neighbour exchange that forgets
 * cuda.syncthreads reads a slot not written yet. */
#include <math.h>

#include "cuda_kernel_file.h"

static int setup(void **state)
{
    (void)state;
    return kernel_file_load("shared.py");
}

/* seed 002: a 64 x 96 int32 matrix through 32 x 33 tiles */
static void test_tile_transpose(void **state)
{
    (void)state;
    const int64_t in_shape[2] = {64, 96}, out_shape[2] = {96, 64};
    uf_array *a = zeroed(UF_INT32, 2, in_shape),
             *b = zeroed(UF_INT32, 2, out_shape);
    int32_t *p = uf_array_data(a);
    for (int i = 0; i < 64 * 96; i++)
        p[i] = i * 7 - 1000;
    uf_array *args[2] = {a, b};
    launch_ok("tile_transpose", (uf_dim3){96 / 32, 64 / 32, 1},
              (uf_dim3){32, 8, 1}, args, 2, 0);
    const int32_t *q = uf_array_data(b);
    for (int i = 0; i < 64; i++)
        for (int j = 0; j < 96; j++)
            assert_int_equal(q[j * 64 + i], p[i * 96 + j]);
    uf_array_release(a);
    uf_array_release(b);
}

/* (37 x 50) @ (50 x 23) in float32 tiles of 16: each element is the
 * float32 sum in the kernel's order, so compare with a tolerance */
static void test_fast_matmul(void **state)
{
    (void)state;
    const int64_t sa[2] = {37, 50}, sb[2] = {50, 23}, sc[2] = {37, 23};
    uf_array *A = zeroed(UF_FLOAT32, 2, sa), *Bm = zeroed(UF_FLOAT32, 2, sb),
             *C = zeroed(UF_FLOAT32, 2, sc);
    float *a = uf_array_data(A), *b = uf_array_data(Bm);
    for (int i = 0; i < 37 * 50; i++)
        a[i] = (float)((i % 17) - 8) * 0.25f;
    for (int i = 0; i < 50 * 23; i++)
        b[i] = (float)((i % 13) - 6) * 0.5f;
    uf_array *args[3] = {A, Bm, C};
    /* the grid covers the whole of A's columns: gridDim.x tiles of 16 */
    launch_ok("fast_matmul", (uf_dim3){4, 3, 1}, (uf_dim3){16, 16, 1}, args, 3,
              0);
    const float *c = uf_array_data(C);
    for (int i = 0; i < 37; i++)
        for (int j = 0; j < 23; j++) {
            double want = 0;
            for (int k = 0; k < 50; k++)
                want += (double)a[i * 50 + k] * b[k * 23 + j];
            assert_float_equal(c[i * 23 + j], want, 1e-3);
        }
    uf_array_release(A);
    uf_array_release(Bm);
    uf_array_release(C);
}

/* dynamic shared memory: blocks of 64 reverse their slice; the array's
 * length is the launch's bytes / itemsize */
static void test_dynamic_shared(void **state)
{
    (void)state;
    int64_t n = 256;
    uf_array *a = zeroed(UF_FLOAT64, 1, &n);
    double *p = uf_array_data(a);
    for (int i = 0; i < 256; i++)
        p[i] = i + 0.5;
    uf_array *args[1] = {a};
    launch_ok("reverse_blocks", (uf_dim3){4, 1, 1}, (uf_dim3){64, 1, 1}, args,
              1, 64 * sizeof(double));
    for (int i = 0; i < 256; i++)
        assert_true(p[i] == (i / 64) * 64 + (63 - i % 64) + 0.5);
    int64_t two = 2;
    uf_array *out = zeroed(UF_INT64, 1, &two);
    args[0] = out;
    launch_ok("dynamic_size", (uf_dim3){1, 1, 1}, (uf_dim3){32, 1, 1}, args, 1,
              1000);
    assert_int_equal(((int64_t *)uf_array_data(out))[0], 250);
    assert_int_equal(((int64_t *)uf_array_data(out))[1], 250);
    uf_array_release(out);
    uf_array_release(a);
}

/* More shared memory than a block has: refused before the launch. */
static void test_shared_over_limit(void **state)
{
    (void)state;
    uf_error err;
    int64_t n = 256;
    uf_array *a = zeroed(UF_FLOAT64, 1, &n);
    uf_array *args[1] = {a};
    uf_func *f = uf_module_get(mod, "reverse_blocks", &err);
    uf_launch_options o = {.size = sizeof o, .target = SIM,
                           .shared_bytes = 60000};
    assert_int_equal(uf_launch(f, (uf_dim3){4, 1, 1}, (uf_dim3){64, 1, 1},
                               args, 1, &o, &err),
                     UF_ERR_INVALID);
    assert_non_null(strstr(err.message, "kernel 'reverse_blocks': "));
    assert_non_null(strstr(err.message, "and 60000 of dynamic shared memory "
                                        "per block, over the 49152 a block "
                                        "has"));
    uf_array_release(a);
}

static void test_local_arrays(void **state)
{
    (void)state;
    const int64_t shape[2] = {100, 3};
    uf_array *a = zeroed(UF_FLOAT64, 2, shape),
             *out = zeroed(UF_FLOAT64, 2, shape);
    double *p = uf_array_data(a);
    for (int i = 0; i < 300; i++)
        p[i] = (double)((i * 37) % 11) - 5.0;
    uf_array *args[2] = {a, out};
    launch_ok("local_sort3", (uf_dim3){2, 1, 1}, (uf_dim3){64, 1, 1}, args, 2,
              0);
    const double *q = uf_array_data(out);
    for (int i = 0; i < 100; i++) {
        double s[3] = {p[3 * i], p[3 * i + 1], p[3 * i + 2]};
        for (int x = 0; x < 3; x++)
            for (int y = 0; y < 2 - x; y++)
                if (s[y] > s[y + 1]) {
                    double t = s[y];
                    s[y] = s[y + 1];
                    s[y + 1] = t;
                }
        for (int k = 0; k < 3; k++)
            assert_true(q[3 * i + k] == s[k]);
    }
    uf_array_release(a);
    uf_array_release(out);
}

/* With the barrier every thread reads its neighbour's value; without it,
 * on cudasim (threads of a block run one after another between
 * barriers) thread t reads slot t + 1 before thread t + 1 wrote it: the
 * racy kernel can give the wrong answer, and does here. */
static void test_barrier_is_real(void **state)
{
    (void)state;
    int64_t n = 128;
    uf_array *a = zeroed(UF_FLOAT64, 1, &n), *out = zeroed(UF_FLOAT64, 1, &n);
    double *p = uf_array_data(a), *q = uf_array_data(out);
    for (int i = 0; i < 128; i++)
        p[i] = i * 2.0;
    uf_array *args[2] = {a, out};
    launch_ok("shift_synced", (uf_dim3){1, 1, 1}, (uf_dim3){128, 1, 1}, args,
              2, 0);
    for (int i = 0; i < 128; i++)
        assert_true(q[i] == ((i + 1) % 128) * 2.0);
    if (cuda_test_on_gpu) { /* a GPU may or may not show the race */
        uf_array_release(a);
        uf_array_release(out);
        return;
    }
    launch_ok("shift_racy", (uf_dim3){1, 1, 1}, (uf_dim3){128, 1, 1}, args, 2,
              0);
    int wrong = 0;
    for (int i = 0; i < 128; i++)
        wrong += q[i] != ((i + 1) % 128) * 2.0;
    /* every thread but the last read a slot its neighbour had not
     * written (the last one's neighbour, thread 0, ran first) */
    assert_int_equal(wrong, 127);
    uf_array_release(a);
    uf_array_release(out);
}

/* Out-of-bounds on a shared array under debug=True: an IndexError. */
static void test_shared_bounds(void **state)
{
    (void)state;
    uf_error err;
    int64_t n = 16;
    uf_array *out = zeroed(UF_FLOAT64, 1, &n);
    uf_array *args[1] = {out};
    uf_func *f = uf_module_get(mod, "shared_overrun", &err);
    uf_launch_options o = {.size = sizeof o, .target = SIM};
    assert_int_equal(uf_launch(f, (uf_dim3){1, 1, 1}, (uf_dim3){16, 1, 1},
                               args, 1, &o, &err),
                     UF_ERR_INDEX);
    assert_non_null(strstr(err.message, "index 8 is out of bounds for axis 0 "
                                        "with size 8"));
    uf_array_release(out);
}

/* What the shared and local arrays refuse. */
static void test_array_errors(void **state)
{
    (void)state;
    uf_error err;
    static const struct {
        const char *body, *message;
        bool sim_only; /* a GPU runs it */
    } cases[] = {
        {"    s = cuda.shared.array(n, float64)\n",
         "the shape must be an integer or a tuple of integers known at "
         "compile time", false},
        {"    s = cuda.shared.array((4, 0), float64)\n",
         "a zero length is only for the dynamic shared array", false},
        {"    s = cuda.local.array(0, float64)\n",
         "a zero length is only for the dynamic shared array", false},
        {"    s = cuda.shared.array(10000, float64)\n",
         "a static shared array of 80000 bytes: at most 49152", false},
        {"    s = cuda.shared.array(4, 3)\n",
         "dtype must be a type such as float32", false},
        {"    s = cuda.shared.array(4, dtype=float64, align=8)\n",
         "takes shape and dtype, not 'align'", false},
        {"    s = cuda.local.array(10000000000, float64)\n",
         "a local array of more than 4294967295 bytes: at most", false},
        {"    s = cuda.local.array(4096, float64)\n",
         "on cudasim, a local array of 32768 bytes: at most 16384", true},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        if (cases[i].sim_only && cuda_test_on_gpu)
            continue;
        char src[512];
        snprintf(src, sizeof src,
                 "from numba import cuda, float64\n@cuda.jit\n"
                 "def k(a, n):\n%s    a[0] = s[0]\n",
                 cases[i].body);
        uf_module *m = uf_module_from_string(ctx, "bad.py", src, &err);
        uf_assert_ok(m != NULL, &err);
        uf_func *f = uf_module_get(m, "k", &err);
        int64_t one = 1;
        uf_array *a = zeroed(UF_FLOAT64, 1, &one);
        uf_array *nn = zeroed(UF_INT64, 0, NULL);
        uf_array *args[2] = {a, nn};
        uf_launch_options o = {.size = sizeof o, .target = SIM};
        assert_true(uf_launch(f, (uf_dim3){1, 1, 1}, (uf_dim3){1, 1, 1}, args,
                              2, &o, &err) != 0);
        if (!strstr(err.message, cases[i].message))
            fail_msg("case %zu: '%s' lacks '%s'", i, err.message,
                     cases[i].message);
        assert_int_equal(err.line, 4);
        uf_array_release(a);
        uf_array_release(nn);
        uf_module_free(m);
    }
}

int main(void)
{
    SIM = cuda_test_target();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tile_transpose),
        cmocka_unit_test(test_fast_matmul),
        cmocka_unit_test(test_dynamic_shared),
        cmocka_unit_test(test_shared_over_limit),
        cmocka_unit_test(test_local_arrays),
        cmocka_unit_test(test_barrier_is_real),
        cmocka_unit_test(test_shared_bounds),
        cmocka_unit_test(test_array_errors),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
