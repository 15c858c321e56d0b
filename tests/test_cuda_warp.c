/* Warp-level functions in cuda.jit kernels (tests/kernels/cuda/warp.py)
 * on cudasim, or the GPU under UFJIT_TEST_CUDA_TARGET=cuda: shuffles of
 * every mode and width against the lane arithmetic PTX's shfl.sync
 * defines, votes, ballots and matches, a warp-shuffle sum, lanes that
 * exit before a collective (cudasim only: undefined on a GPU), and a
 * collective no lane can complete failing the launch instead of
 * hanging. */
#include "cuda_kernel_file.h"

static int setup(void **state)
{
    (void)state;
    return kernel_file_load("warp.py");
}

static void test_warp_sum(void **state)
{
    (void)state;
    int64_t n = 256, w = 8;
    uf_array *a = zeroed(UF_INT64, 1, &n), *out = zeroed(UF_INT64, 1, &w);
    int64_t *p = uf_array_data(a);
    for (int i = 0; i < 256; i++)
        p[i] = (int64_t)i * i - 1000;
    uf_array *args[2] = {a, out};
    run("warp_sum", 2, 128, args, 2);
    const int64_t *q = uf_array_data(out);
    for (int k = 0; k < 8; k++) {
        int64_t want = 0;
        for (int i = 32 * k; i < 32 * k + 32; i++)
            want += p[i];
        assert_int_equal(q[k], want);
    }
    uf_array_release(a);
    uf_array_release(out);
}

/* The source lane of mode m (0 idx, 1 up, 2 down, 3 xor) with operand b
 * for lane l of a full warp, or -1: the caller's own value. */
static int source(int m, int l, int b)
{
    int s = m == 0 ? (b & 31) : m == 1 ? l - b : m == 2 ? l + b : l ^ b;
    return s >= 0 && s < 32 ? s : -1;
}

static void test_shuffles(void **state)
{
    (void)state;
    int64_t n = 64;
    const int64_t shape[2] = {4, 64};
    uf_array *ai = zeroed(UF_INT32, 1, &n), *al = zeroed(UF_INT64, 1, &n),
             *af = zeroed(UF_FLOAT32, 1, &n), *ad = zeroed(UF_FLOAT64, 1, &n);
    uf_array *oi = zeroed(UF_INT32, 2, shape),
             *ol = zeroed(UF_INT64, 2, shape),
             *of = zeroed(UF_FLOAT32, 2, shape),
             *od = zeroed(UF_FLOAT64, 2, shape);
    int32_t *pi = uf_array_data(ai);
    int64_t *pl = uf_array_data(al);
    float *pf = uf_array_data(af);
    double *pd = uf_array_data(ad);
    for (int i = 0; i < 64; i++) {
        pi[i] = i * 3 - 100;
        pl[i] = ((int64_t)i << 40) - i; /* both halves differ per lane */
        pf[i] = (float)i * 0.25f - 3.0f;
        pd[i] = (double)i * -1e300 + 0.5;
    }
    uf_array *args[8] = {ai, al, af, ad, oi, ol, of, od};
    run("shuffles", 2, 32, args, 8);
    static const int b[4][4] = {{3, 2, 5, 7}, /* int32: idx, up, down, xor */
                                {35, 1, 1, 16},
                                {0, 31, 31, 1},
                                {31, 4, 4, 31}};
    const int32_t *qi = uf_array_data(oi);
    const int64_t *ql = uf_array_data(ol);
    const float *qf = uf_array_data(of);
    const double *qd = uf_array_data(od);
    for (int m = 0; m < 4; m++)
        for (int i = 0; i < 64; i++) {
            int l = i % 32, base = i - l;
#define SRC(t) (source(m, l, b[t][m]) < 0 ? i : base + source(m, l, b[t][m]))
            assert_int_equal(qi[m * 64 + i], pi[SRC(0)]);
            assert_int_equal(ql[m * 64 + i], pl[SRC(1)]);
            assert_true(qf[m * 64 + i] == pf[SRC(2)]);
            assert_true(qd[m * 64 + i] == pd[SRC(3)]);
#undef SRC
        }
    uf_array *all[8] = {ai, al, af, ad, oi, ol, of, od};
    for (int k = 0; k < 8; k++)
        uf_array_release(all[k]);
}

static void test_votes(void **state)
{
    (void)state;
    int64_t n = 96;
    const int64_t shape[2] = {8, 96};
    uf_array *pred = zeroed(UF_INT32, 1, &n),
             *out = zeroed(UF_INT64, 2, shape);
    int32_t *p = uf_array_data(pred);
    /* warp 0: every lane 1; warp 1: none; warp 2: lanes 3k are 2 */
    for (int i = 0; i < 96; i++)
        p[i] = i < 32 ? 1 : i < 64 ? 0 : (i % 3 == 0 ? 2 : 0);
    uf_array *args[2] = {pred, out};
    run("votes", 1, 96, args, 2);
    const int64_t *q = uf_array_data(out);
    for (int i = 0; i < 96; i++) {
        int w = i / 32, l = i % 32;
        uint32_t ballot = 0, same = 0;
        for (int k = 0; k < 32; k++) {
            ballot |= (uint32_t)(p[32 * w + k] != 0) << k;
            same |= (uint32_t)(p[32 * w + k] == p[i]) << k;
        }
        bool all = ballot == 0xffffffffu, any = ballot != 0;
        assert_int_equal(q[0 * 96 + i], all);
        assert_int_equal(q[1 * 96 + i], any);
        assert_int_equal(q[2 * 96 + i], all || !any);
        assert_int_equal((uint32_t)q[3 * 96 + i], ballot);
        assert_int_equal((uint32_t)q[4 * 96 + i], same);
        /* match_all's mask is an int32 (numba-cuda's type): -1 */
        assert_int_equal(q[5 * 96 + i], same == 0xffffffffu ? -1 + 1000000
                                                             : 0);
        assert_int_equal(q[6 * 96 + i], (int64_t)((1u << l) - 1));
        assert_int_equal(q[7 * 96 + i], 0xffffffffLL);
    }
    uf_array_release(pred);
    uf_array_release(out);
}

/* a bool predicate from a comparison; a partial last warp (40 threads:
 * lanes 8..31 of warp 1 do not exist) */
static void test_partial_warp(void **state)
{
    (void)state;
    int64_t n = 40;
    uf_array *x = zeroed(UF_FLOAT32, 1, &n), *out = zeroed(UF_INT32, 1, &n);
    float *p = uf_array_data(x);
    for (int i = 0; i < 40; i++)
        p[i] = (i % 4) * 0.3f;
    uf_array *args[2] = {x, out};
    run("float_ballot", 1, 40, args, 2);
    const int32_t *q = uf_array_data(out);
    for (int i = 0; i < 40; i++) {
        int w = i / 32;
        uint32_t want = 0;
        for (int k = 32 * w; k < 40 && k < 32 * w + 32; k++)
            want |= (uint32_t)(p[k] > 0.5f) << (k - 32 * w);
        assert_int_equal((uint32_t)q[i], want);
    }
    uf_array_release(x);
    uf_array_release(out);
}

static void test_exited_lanes(void **state)
{
    (void)state;
    if (cuda_test_on_gpu) {
        printf("SKIP part: collectives with exited lanes in the mask are "
               "undefined on a GPU\n");
        return;
    }
    const int64_t shape[2] = {4, 32};
    uf_array *out = zeroed(UF_INT64, 2, shape);
    uf_array *args[1] = {out};
    run("early_exit", 1, 32, args, 1);
    const int64_t *q = uf_array_data(out);
    for (int l = 0; l < 32; l += 2) {
        assert_int_equal(q[l], l + 2 < 32 ? (l + 2) * 10 : l * 10);
        assert_int_equal(q[32 + l], l * 10); /* an odd source: gone */
        assert_int_equal((uint32_t)q[64 + l], 0x55555555u);
        assert_int_equal((uint32_t)q[96 + l], 0x55555555u);
    }
    uf_array_release(out);
}

/* What the warp functions refuse; a collective waiting for a lane that
 * waits at the block's barrier fails the launch on cudasim. */
static void test_warp_errors(void **state)
{
    (void)state;
    uf_error err;
    static const char src[] =
        "from numba import cuda, complex128\n"
        "@cuda.jit\n"
        "def bad_value(a):\n"
        "    a[0] = cuda.shfl_sync(0xffffffff, complex128(1), 0)\n"
        "@cuda.jit\n"
        "def deadlock(a):\n"
        "    if cuda.threadIdx.x == 0:\n"
        "        cuda.syncthreads()\n"
        "    else:\n"
        "        a[cuda.threadIdx.x] = cuda.shfl_sync(0xffffffff, 1, 0)\n"
        "@cuda.jit\n"
        "def on_cpu(a):\n"
        "    a[0] = 1\n";
    uf_module *m = uf_module_from_string(ctx, "w.py", src, &err);
    uf_assert_ok(m != NULL, &err);
    int64_t n = 32;
    uf_array *a = zeroed(UF_INT64, 1, &n);
    uf_array *args[1] = {a};
    uf_launch_options o = {.size = sizeof o, .target = SIM};
    uf_func *f = uf_module_get(m, "bad_value", &err);
    assert_int_equal(uf_launch(f, (uf_dim3){1, 1, 1}, (uf_dim3){32, 1, 1},
                               args, 1, &o, &err),
                     UF_ERR_TYPING);
    assert_non_null(strstr(err.message, "numba.cuda.shfl_sync() takes (mask, "
                                        "value, lane)"));
    assert_int_equal(err.line, 4);
    if (!cuda_test_on_gpu) {
        f = uf_module_get(m, "deadlock", &err);
        assert_int_not_equal(uf_launch(f, (uf_dim3){1, 1, 1},
                                       (uf_dim3){32, 1, 1}, args, 1, &o,
                                       &err),
                             0);
        assert_non_null(strstr(err.message, "CUDA_ERROR_LAUNCH_FAILED"));
    }
    uf_array_release(a);
    uf_module_free(m);
}

int main(void)
{
    SIM = cuda_test_target();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_warp_sum),
        cmocka_unit_test(test_shuffles),
        cmocka_unit_test(test_votes),
        cmocka_unit_test(test_partial_warp),
        cmocka_unit_test(test_exited_lanes),
        cmocka_unit_test(test_warp_errors),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
