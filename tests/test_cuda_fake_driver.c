/* The `cuda` target's vectorize path through the REAL driver table
 * (targets/cuda/cu_driver_real.c), loaded from the fake libcuda the suite
 * builds (tests/cuda/fake_libcuda.c): no driver at all, a driver with no
 * device, a call that goes all the way (PTX compiled by libnvvm or the
 * NVPTX fallback, loaded by the fake, the kernel launched: the fake does
 * not run PTX, so its launch counter says it happened, not the values),
 * and scripted failures mid-call (out of memory on the 2nd allocation, a
 * failing launch) coming back as clean errors with no device memory left
 * behind (the fake counts it) and no host leak (the ASan build).
 *
 * The runtime is made once per process and the real table remembers its
 * first failure, so each scenario is its own process: the executable
 * takes the scenario's name (tests/cmake/cuda_call.cmake registers one
 * CTest entry per scenario); run without one it runs "nodriver". */
#include <dlfcn.h>

#include "test_util.h"

static const char kernels[] =
    "from numba import vectorize\n"
    "\n"
    "@vectorize(['float64(float64, float64)'])\n"
    "def rel(x, y):\n"
    "    return abs(x - y) / (abs(x) + abs(y) + 1.0)\n"
    "\n"
    "@vectorize(['float64(float64, int64)'], boundscheck=True)\n"
    "def pick(x, k):\n"
    "    t = (x, 2.0 * x, 3.0 * x)\n"
    "    return t[k]\n"
    "\n"
    "@vectorize(['boolean(boolean, boolean)'])\n"
    "def both(a, b):\n"
    "    return a and b\n";

static uf_context *ctx;
static uf_module *mod;
static uf_func *rel, *pick, *both;

/* The fake's driver file for UFJIT_CUDA_DRIVER, with `script`. */
static void use_fake(const char *script)
{
    setenv("UFJIT_CUDA_DRIVER", UF_FAKE_CUDA, 1);
    /* the default memory manager defers frees (as Numba); a count limit
     * of 0 frees each at once, so the fake's live count is the arrays' */
    setenv("UFJIT_CUDA_MAX_PENDING_DEALLOCS_COUNT", "0", 1);
    if (script != NULL)
        setenv("UFJIT_FAKE_CUDA", script, 1);
    else
        unsetenv("UFJIT_FAKE_CUDA");
}

/* A fake_cuda_* counter of the loaded fake. */
static long fake_counter(const char *fn)
{
    void *lib = dlopen(UF_FAKE_CUDA, RTLD_NOW | RTLD_NOLOAD);
    assert_non_null(lib);
    long (*get)(void) = NULL;
    void *sym = dlsym(lib, fn);
    assert_non_null(sym);
    memcpy(&get, &sym, sizeof sym);
    long v = get();
    dlclose(lib);
    return v;
}

static int setup(void **state)
{
    (void)state;
    unsetenv("UFJIT_ENABLE_CUDASIM");
    uf_error err;
    if ((ctx = uf_context_new(&err)) == NULL ||
        (mod = uf_module_from_string(ctx, "fake.py", kernels, &err)) ==
            NULL ||
        (rel = uf_module_get(mod, "rel", &err)) == NULL ||
        (pick = uf_module_get(mod, "pick", &err)) == NULL ||
        (both = uf_module_get(mod, "both", &err)) == NULL) {
        fprintf(stderr, "setup: %s\n", err.message);
        return -1;
    }
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    uf_module_free(mod);
    uf_context_free(ctx);
    return 0;
}

static uf_array *host(int64_t n, double v)
{
    uf_error err;
    uf_array *a = uf_full(UF_FLOAT64, 1, &n, &v, UF_FLOAT64, UF_ORDER_C,
                          &err);
    uf_assert_ok(a != NULL, &err);
    return a;
}

static const uf_call_options cuda = {.size = sizeof cuda, .target = "cuda"};

#define assert_contains(text, part)                                         \
    do {                                                                    \
        if (strstr((text), (part)) == NULL)                                 \
            fail_msg("'%s' lacks '%s'", (text), (part));                    \
    } while (0)

/* ---- no driver, no device ---------------------------------------------------- */

static void test_no_driver(void **state)
{
    (void)state;
    setenv("UFJIT_CUDA_DRIVER", "/nonexistent/libcuda.so.1", 1);
    uf_error err;
    uf_array *in[2] = {host(4, 1.0), host(4, 2.0)}, *out = NULL;
    assert_int_equal(uf_call(rel, in, 2, &out, 1, &cuda, &err),
                     UF_ERR_NO_DEVICE);
    assert_null(out);
    assert_contains(err.message, "no CUDA driver");
    assert_contains(err.message, "/nonexistent/libcuda.so.1");
    /* again: the same answer, not a crash or a half-made runtime */
    assert_int_equal(uf_call(rel, in, 2, &out, 1, &cuda, &err),
                     UF_ERR_NO_DEVICE);
    assert_null(uf_to_device(in[0], "cuda", NULL, &err));
    assert_int_equal(err.code, UF_ERR_NO_DEVICE);
    assert_null(uf_stream_create("cuda", &err));
    assert_int_equal(err.code, UF_ERR_NO_DEVICE);
    /* cudasim is not affected */
    uf_call_options sim = {.size = sizeof sim, .target = "cudasim"};
    uf_assert_ok(uf_call(rel, in, 2, &out, 1, &sim, &err) == 0, &err);
    assert_true(((double *)uf_array_data(out))[0] == 1.0 / 4.0);
    uf_array_release(out);
    uf_array_release(in[0]);
    uf_array_release(in[1]);
}

static void test_no_device(void **state)
{
    (void)state;
    use_fake("init=100");
    uf_error err;
    uf_array *in[2] = {host(4, 1.0), host(4, 2.0)}, *out = NULL;
    assert_int_equal(uf_call(rel, in, 2, &out, 1, &cuda, &err),
                     UF_ERR_NO_DEVICE);
    assert_null(out);
    assert_contains(err.message, "no CUDA device");
    assert_contains(err.message, "CUDA_ERROR_NO_DEVICE");
    uf_array_release(in[0]);
    uf_array_release(in[1]);
}

/* ---- all the way to a launch --------------------------------------------- */

static void test_launch(void **state)
{
    (void)state;
    use_fake(NULL);
    uf_error err;
    uf_array *in[2] = {host(1000, 1.0), host(1000, 2.0)}, *out = NULL;
    long launches = 0; /* a fresh process: the fake is not loaded yet */
    uf_assert_ok(uf_call(rel, in, 2, &out, 1, &cuda, &err) == 0, &err);
    assert_int_equal(fake_counter("fake_cuda_launches"), launches + 1);
    /* host inputs: the result came back to the host (values: whatever
     * the fake's memory held; the fake runs no PTX) */
    assert_int_equal(uf_array_device(out).type, UF_DEVICE_HOST);
    assert_int_equal(uf_array_dtype(out), UF_FLOAT64);
    assert_int_equal(uf_array_shape(out)[0], 1000);
    assert_int_equal(fake_counter("fake_cuda_live_allocations"), 0);
    uf_array_release(out);
    out = NULL;

    /* device inputs: the result stays there; a second call reuses the
     * loaded kernel */
    uf_array *d[2];
    for (int k = 0; k < 2; k++) {
        d[k] = uf_to_device(in[k], "cuda", NULL, &err);
        uf_assert_ok(d[k] != NULL, &err);
    }
    uf_assert_ok(uf_call(rel, d, 2, &out, 1, &cuda, &err) == 0, &err);
    assert_int_equal(uf_array_device(out).type, UF_DEVICE_CUDA);
    assert_int_equal(fake_counter("fake_cuda_launches"), launches + 2);
    assert_int_equal(fake_counter("fake_cuda_live_allocations"), 3);
    uf_array_release(out);
    out = NULL;

    /* a kernel with a status word (boundscheck): it is allocated for the
     * launch from the memory manager, zeroed, read back (zero: no error)
     * and given back */
    uf_array *k64 = uf_zeros(UF_INT64, 1, (int64_t[]){1000}, UF_ORDER_C, &err);
    uf_array *pin[2] = {in[0], k64};
    uf_assert_ok(uf_call(pick, pin, 2, &out, 1, &cuda, &err) == 0, &err);
    assert_int_equal(fake_counter("fake_cuda_launches"), launches + 3);
    uf_array_release(out);
    out = NULL;

    /* a stream of the other CUDA target is refused */
    uf_stream *s = uf_stream_create("cudasim", &err);
    uf_assert_ok(s != NULL, &err);
    uf_call_options on_s = cuda;
    on_s.stream = s;
    assert_int_equal(uf_call(rel, d, 2, &out, 1, &on_s, &err),
                     UF_ERR_INVALID);
    assert_contains(err.message, "the stream belongs to target 'cudasim', "
                                 "the call runs on 'cuda'");
    uf_stream_destroy(s);
    /* and a cudasim device array given to the cuda target */
    uf_array *simd = uf_to_device(in[0], "cudasim", NULL, &err);
    uf_assert_ok(simd != NULL, &err);
    uf_array *mixed[2] = {simd, d[1]};
    assert_int_equal(uf_call(rel, mixed, 2, &out, 1, &cuda, &err),
                     UF_ERR_INVALID);
    assert_contains(err.message, "input 1 is device memory of target "
                                 "'cudasim', not 'cuda'");
    assert_null(out);
    uf_array_release(simd);

    uf_array_release(k64);
    uf_array_release(d[0]);
    uf_array_release(d[1]);
    uf_array_release(in[0]);
    uf_array_release(in[1]);
    /* only the legacy stream's status word is left (kept with its
     * scratch; the other stream's went with it) */
    uf_assert_ok(uf_cuda_memory_flush("cuda", &err) == 0, &err);
    assert_int_equal(fake_counter("fake_cuda_live_allocations"), 1);
}

/* ---- failures mid-call ------------------------------------------------------ */

/* oom_after=1: the first input's copy gets memory, the second's not. */
static void test_out_of_memory(void **state)
{
    (void)state;
    use_fake("oom_after=1");
    uf_error err;
    uf_array *in[2] = {host(100, 1.0), host(100, 2.0)}, *out = NULL;
    long launches = 0; /* a fresh process: the fake is not loaded yet */
    assert_int_equal(uf_call(rel, in, 2, &out, 1, &cuda, &err),
                     UF_ERR_NOMEM);
    assert_null(out);
    assert_contains(err.message, "CUDA_ERROR_OUT_OF_MEMORY");
    assert_int_equal(fake_counter("fake_cuda_launches"), launches);
    assert_int_equal(fake_counter("fake_cuda_live_allocations"), 0);
    uf_array_release(in[0]);
    uf_array_release(in[1]);
}

static void test_launch_fails(void **state)
{
    (void)state;
    use_fake("fail=cuLaunchKernel:719");
    uf_error err;
    uf_array *in[2] = {host(100, 1.0), host(100, 2.0)}, *out = NULL;
    assert_int_equal(uf_call(rel, in, 2, &out, 1, &cuda, &err),
                     UF_ERR_INTERNAL);
    assert_null(out);
    assert_contains(err.message, "cuLaunchKernel");
    assert_contains(err.message, "CUDA_ERROR_LAUNCH_FAILED");
    assert_int_equal(fake_counter("fake_cuda_live_allocations"), 0);
    /* device operands and a device out=: nothing of theirs freed */
    uf_array *d = uf_to_device(in[0], "cuda", NULL, &err);
    uf_assert_ok(d != NULL, &err);
    uf_array *o = uf_device_array_like(d, &err), *dd[2] = {d, d};
    uf_assert_ok(o != NULL, &err);
    out = o;
    assert_int_equal(uf_call(rel, dd, 2, &out, 1, &cuda, &err),
                     UF_ERR_INTERNAL);
    assert_ptr_equal(out, o);
    assert_int_equal(fake_counter("fake_cuda_live_allocations"), 2);
    uf_array_release(o);
    uf_array_release(d);
    assert_int_equal(fake_counter("fake_cuda_live_allocations"), 0);
    uf_array_release(in[0]);
    uf_array_release(in[1]);
}

/* ---- the 32-bit index choice ------------------------------------------------ */

/* The kernel name of the last launch ("ufk0_both_c_i32 264 1024"). */
static void last_launch(char *name, size_t size, long *grid, long *block)
{
    void *lib = dlopen(UF_FAKE_CUDA, RTLD_NOW | RTLD_NOLOAD);
    assert_non_null(lib);
    const char *(*get)(void) = NULL;
    void *sym = dlsym(lib, "fake_cuda_last_launch");
    assert_non_null(sym);
    memcpy(&get, &sym, sizeof sym);
    char fmt[32];
    snprintf(fmt, sizeof fmt, "%%%zus %%ld %%ld", size - 1);
    assert_int_equal(sscanf(get(), fmt, name, grid, block), 3);
    dlclose(lib);
}

/* both(True, True) into out, a view of `buf` (EXPR): the variant's
 * layout suffix ("c", "s_i32", ...) of the launch, with the threads. */
static void variant_of(uf_array *buf, const char *expr, const char *want)
{
    uf_error err;
    uint8_t t = 1;
    uf_array *a = uf_full(UF_BOOL, 0, NULL, &t, UF_BOOL, UF_ORDER_C, &err);
    uf_array *in[2] = {a, a};
    uf_array *out = uf_array_slice(buf, expr, &err);
    uf_assert_ok(out != NULL, &err);
    uf_array *o = out;
    uf_assert_ok(uf_call(both, in, 2, &o, 1, &cuda, &err) == 0, &err);
    char name[128];
    long grid, block;
    last_launch(name, sizeof name, &grid, &block);
    const char *suffix = strstr(name, "_both_");
    assert_non_null(suffix);
    if (strcmp(suffix + 6, want) != 0)
        fail_msg("out=buf[%s]: launched %s, expected the %s variant", expr,
                 name, want);
    int64_t n = uf_array_size(out);
    /* every thread's index and stride fit when 32-bit */
    if (strstr(want, "i32"))
        assert_true(n + grid * block <= INT32_MAX);
    uf_array_release(out);
    uf_array_release(a);
}

/* ufunc/cuda_call.c picks 32-bit index arithmetic when n plus the
 * launch's threads (132 SMs x 2048 on the fake: 270336) fit in int32 and
 * every byte offset an operand reaches does (nvvm.h). A device array of
 * 2^31 + 16 bytes, never touched (the fake's memory is malloc'd, its
 * launches run nothing), gives outputs on either side of each bound. */
static void test_index32_choice(void **state)
{
    (void)state;
    use_fake(NULL);
    uf_error err;
    int64_t size = ((int64_t)1 << 31) + 16;
    uf_array *buf = uf_device_array(UF_BOOL, 1, &size, UF_ORDER_C, "cuda",
                                    &err);
    uf_assert_ok(buf != NULL, &err);
    char expr[64];
    variant_of(buf, ":1000", "c_i32");
    /* n + 270336 threads against INT32_MAX */
    snprintf(expr, sizeof expr, ":%ld", (long)INT32_MAX - 270336);
    variant_of(buf, expr, "c_i32");
    snprintf(expr, sizeof expr, ":%ld", (long)INT32_MAX - 270335);
    variant_of(buf, expr, "c");
    variant_of(buf, ":", "c");
    /* 3 elements, strided: the reach 1 + 2 * stride against INT32_MAX */
    snprintf(expr, sizeof expr, "::%ld", (long)(1 << 30) - 1);
    variant_of(buf, expr, "s_i32");
    snprintf(expr, sizeof expr, "::%ld", (long)(1 << 30));
    variant_of(buf, expr, "s");
    snprintf(expr, sizeof expr, "::-%ld", (long)(1 << 30));
    variant_of(buf, expr, "s");
    snprintf(expr, sizeof expr, "-1::-%ld", (long)(1 << 30) - 1);
    variant_of(buf, expr, "s_i32");
    /* 2-D, not collapsible: the ND variant, the reach summed over axes
     * (1 + 1073741832 + |column stride|) */
    int64_t shape2[2] = {2, 1073741832};
    uf_array *m = uf_array_reshape(buf, 2, shape2, UF_ORDER_C, false, &err);
    uf_assert_ok(m != NULL, &err);
    variant_of(m, ":, :4", "nd2_i32");
    variant_of(m, ":, ::-1073741814", "nd2_i32"); /* reach INT32_MAX */
    variant_of(m, ":, ::-1073741815", "nd2");
    uf_array_release(m);
    uf_array_release(buf);
}

int main(int argc, char **argv)
{
    const char *scenario = argc > 1 ? argv[1] : "nodriver";
    const struct CMUnitTest all[] = {
        cmocka_unit_test(test_no_driver),   cmocka_unit_test(test_no_device),
        cmocka_unit_test(test_launch),      cmocka_unit_test(test_out_of_memory),
        cmocka_unit_test(test_launch_fails),
        cmocka_unit_test(test_index32_choice),
    };
    static const char *const names[] = {"nodriver", "nodevice", "launch",
                                        "oom",      "launchfail", "index32"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(scenario, names[i]) == 0)
            return _cmocka_run_group_tests(names[i], &all[i], 1, setup,
                                           teardown);
    fprintf(stderr, "unknown scenario '%s'\n", scenario);
    return 2;
}
