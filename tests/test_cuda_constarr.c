/* Module-level arrays in cuda.jit kernels (tests/kernels/cuda/
 * constarr.py): cuda.const.array_like in a kernel and in a device
 * function, and a global array read directly, launched on the test's
 * CUDA target (cudasim; the GPU in the *_gpu run), against what NumPy
 * computes from the same arrays (the expected bytes below). */
#include "cuda_kernel_file.h"

static int setup(void **state)
{
    (void)state;
    return kernel_file_load("constarr.py");
}

static void expect_hex(const void *data, const char *hex)
{
    size_t n = strlen(hex) / 2;
    for (size_t b = 0; b < n; b++) {
        unsigned v;
        sscanf(hex + 2 * b, "%2x", &v);
        if (((const unsigned char *)data)[b] != v)
            fail_msg("byte %zu is %02x, NumPy's %02x", b,
                     ((const unsigned char *)data)[b], v);
    }
}

/* a 5-tap filter from constant memory, through a device function; the
 * values are exact in float32, so a GPU's fused multiply-adds agree */
static void test_smooth(void **state)
{
    (void)state;
    const int64_t n = 40;
    uf_array *x = zeroed(UF_FLOAT32, 1, &n), *out = zeroed(UF_FLOAT32, 1, &n);
    float *p = uf_array_data(x);
    for (int i = 0; i < n; i++)
        p[i] = (float)(i % 7 - 3) * 0.5f;
    uf_array *args[2] = {x, out};
    run("smooth", 2, 32, args, 2);
    expect_hex(uf_array_data(out),
               "0000a8bf000078bf000000bf000000000000003f0000483f0000d03e0000"
               "d0be000048bf000000bf000000000000003f0000483f0000d03e0000d0be"
               "000048bf000000bf000000000000003f0000483f0000d03e0000d0be0000"
               "48bf000000bf000000000000003f0000483f0000d03e0000d0be000048bf"
               "000000bf000000000000003f0000483f0000d03e0000d0be000048bf0000"
               "00bf000000bd0000a03e");
    uf_array_release(x);
    uf_array_release(out);
}

/* two constant tables in one kernel, 2-D indexing, .size/.ndim/len */
static void test_lookup(void **state)
{
    (void)state;
    const int64_t shape[2] = {5, 6}, one = 1;
    uf_array *out = zeroed(UF_FLOAT64, 2, shape),
             *idx = zeroed(UF_INT64, 1, &one);
    uf_array *args[2] = {out, idx};
    launch_ok("lookup", (uf_dim3){2, 2, 1}, (uf_dim3){4, 4, 1}, args, 2, 0);
    expect_hex(uf_array_data(out),
               "00000000000006c00000000000000bc000000000008011c0000000000080"
               "11c00000000000402ec00000000000402dc0000000000000f2bf00000000"
               "0000e4bf000000000000ec3f000000000080104000000000008013c00000"
               "0000000001c0000000000000094000000000008018400000000000c02840"
               "0000000000e0314000000000004025400000000000a0304000000000004023"
               "c00000000000c028c00000000000c026c000000000004025c00000000000"
               "203ac000000000000002c000000000008010c0000000000000fabf000000"
               "00000001400000000000801c40000000000000e8bf000000000000d8bf");
    assert_int_equal(*(const int64_t *)uf_array_data(idx), 12 + 1);
    uf_array_release(out);
    uf_array_release(idx);
}

/* a global array read without cuda.const (numba-cuda puts it in
 * constant memory all the same) */
static void test_plain_global(void **state)
{
    (void)state;
    static const int32_t primes[8] = {2, 3, 5, 7, 11, 13, 17, 19};
    const int64_t n = 20;
    uf_array *out = zeroed(UF_INT32, 1, &n);
    uf_array *args[1] = {out};
    run("plain_global", 1, 32, args, 1);
    const int32_t *o = uf_array_data(out);
    for (int i = 0; i < n; i++)
        assert_int_equal(o[i], primes[i % 8] * 2);
    uf_array_release(out);
}

/* refusals at typing: an array past 64 KiB, an argument that is not a
 * module-level array, a write into the constant array */
static void test_errors(void **state)
{
    (void)state;
    static const struct {
        const char *src, *msg;
        int line, col;
    } cases[] = {
        {"import numpy as np\nfrom numba import cuda\n"
         "BIG = np.zeros(8193)\n"
         "@cuda.jit('void(float64[::1])')\ndef k(o):\n"
         "    o[0] = cuda.const.array_like(BIG)[0]\n",
         "cuda.const.array_like(BIG): the array has 65544 bytes, more than "
         "the 65536 of CUDA's constant memory", 6, 34},
        {"import numpy as np\nfrom numba import cuda\n"
         "@cuda.jit('void(float64[::1])')\ndef k(o):\n"
         "    o[0] = cuda.const.array_like(o)[0]\n",
         "its argument must name one", 5, 34},
        {"import numpy as np\nfrom numba import cuda\n"
         "T = np.ones(4)\n"
         "@cuda.jit('void(float64[::1])')\ndef k(o):\n"
         "    c = cuda.const.array_like(T)\n    c[0] = 1.0\n",
         "Cannot modify readonly array", 7, 5},
        {"import numpy as np\nfrom numba import cuda\n"
         "T = np.ones(4)\n"
         "@cuda.jit('void(float64[::1])')\ndef k(o):\n"
         "    cuda.atomic.add(T, 0, 1.0)\n",
         "cannot modify readonly array", 6, 21},
    };
    uf_error err;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        uf_module *m = uf_module_from_string(ctx, "k.py", cases[i].src, &err);
        uf_assert_ok(m != NULL, &err);
        uf_func *f = uf_module_get(m, "k", &err);
        int rc = f == NULL ? err.code : 0;
        if (f != NULL) {
            const int64_t n = 4;
            uf_array *o = zeroed(UF_FLOAT64, 1, &n);
            uf_launch_options opt = {.size = sizeof opt, .target = SIM};
            rc = uf_launch(f, (uf_dim3){1, 1, 1}, (uf_dim3){1, 1, 1}, &o, 1,
                           &opt, &err);
            uf_array_release(o);
        }
        if (rc == 0 || strstr(err.message, cases[i].msg) == NULL ||
            err.line != cases[i].line || err.column != cases[i].col)
            fail_msg("case %zu: expected '%s' at %d:%d, got rc %d '%s' at "
                     "%d:%d", i, cases[i].msg, cases[i].line, cases[i].col,
                     rc, err.message, err.line, err.column);
        uf_module_free(m);
    }
}

int main(void)
{
    SIM = cuda_test_target();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_smooth),
        cmocka_unit_test(test_lookup),
        cmocka_unit_test(test_plain_global),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
