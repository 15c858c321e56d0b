/* The real CUDA driver table (targets/cuda/cu_driver_real.c) and its
 * errors (cu_errors.c), against the fake libcuda the test suite builds
 * (tests/cuda/fake_libcuda.c, scripted through UFJIT_FAKE_CUDA) and
 * against what this machine has: no libcuda.so.1, perhaps the toolkit's
 * stub. One process tries every scripted fake in turn through
 * uf__cu_driver_real_reset_for_tests: the once-per-process rule is itself
 * tested here (a failure is remembered, cuInit runs once under eight
 * racing threads), which separate processes could not show. */
#include <dlfcn.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include <ufjit/system.h>

#include "targets/cuda/cu_driver.h"
#include "targets/cuda/cu_driver_internal.h"

#define STUB "/usr/local/cuda/lib64/stubs/libcuda.so"

/* The driver the table loads with `script` (NULL: none set); lib NULL
 * leaves UFJIT_CUDA_DRIVER unset, as a user's process has it. */
static const uf__cu_driver *load(const char *lib, const char *script,
                                 uf_error *err)
{
    uf__cu_driver_real_reset_for_tests();
    if (lib != NULL)
        setenv("UFJIT_CUDA_DRIVER", lib, 1);
    else
        unsetenv("UFJIT_CUDA_DRIVER");
    if (script != NULL)
        setenv("UFJIT_FAKE_CUDA", script, 1);
    else
        unsetenv("UFJIT_FAKE_CUDA");
    uf_error_clear(err);
    return uf__cu_driver_real(err);
}

/* A fake_cuda_* counter of the loaded fake, without keeping it loaded. */
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


#define assert_contains(text, part) \
    assert_contains_at(text, part, __FILE__, __LINE__)

static void assert_contains_at(const char *text, const char *part,
                               const char *file, int line)
{
    if (strstr(text, part) == NULL)
        fail_msg("%s:%d: '%s' lacks '%s'", file, line, text, part);
}

/* ---- every reason a driver cannot be used ---------------------------------- */

typedef struct failure_case {
    int line;
    const char *lib; /* NULL: the fake */
    const char *script;
    const char *want[3]; /* parts of the message */
} failure_case;

static const failure_case failures[] = {
    {__LINE__, "/nonexistent/libcuda.so.1", NULL,
     {"no CUDA driver: /nonexistent/libcuda.so.1", "cannot open shared",
      "UFJIT_CUDA_DRIVER"}},
    {__LINE__, "libm.so.6", NULL, {"lacks cuInit", "not a CUDA driver"}},
    {__LINE__, NULL, "init=34",
     {"stub library", "cuInit: CUDA_ERROR_STUB_LIBRARY",
      "install the NVIDIA driver"}},
    {__LINE__, NULL, "init=35", {"too old for ufjit",
                                 "CUDA_ERROR_INSUFFICIENT_DRIVER"}},
    {__LINE__, NULL, "init=36", {"too old for ufjit",
                                 "CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER"}},
    /* the fake's own words: the driver's text is preferred */
    {__LINE__, NULL, "init=100",
     {"no CUDA device", "CUDA_ERROR_NO_DEVICE",
      "no CUDA-capable device is detected (fake)"}},
    {__LINE__, NULL, "init=999",
     {"failed to initialise", "CUDA_ERROR_UNKNOWN (unknown error)"}},
    {__LINE__, NULL, "init=4242", {"failed to initialise",
                                   "CUDA error 4242"}},
    {__LINE__, NULL, "count=0", {"no CUDA device", "reports 0 devices"}},
    {__LINE__, NULL, "version=10020",
     {"too old: CUDA 10.2, ufjit needs 11.0 or newer"}},
    {__LINE__, NULL, "fail=cuDriverGetVersion:999",
     {"cannot tell its version", "cuDriverGetVersion"}},
    {__LINE__, NULL, "fail=cuDeviceGetCount:3",
     {"cannot count them", "cuDeviceGetCount: CUDA_ERROR_NOT_INITIALIZED"}},
    {__LINE__, UF_FAKE_CUDA_NOMALLOC, NULL,
     {"lacks cuMemAlloc_v2", "libfake_cuda_nomalloc.so"}},
};

static void test_each_failure_reason(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof failures / sizeof failures[0]; i++) {
        const failure_case *c = &failures[i];
        uf_error err;
        const uf__cu_driver *d =
            load(c->lib != NULL ? c->lib : UF_FAKE_CUDA, c->script, &err);
        if (d != NULL)
            fail_msg("%s:%d: the driver loaded", __FILE__, c->line);
        if (err.code != UF_ERR_NO_DEVICE)
            fail_msg("%s:%d: code %s, message %s", __FILE__, c->line,
                     uf_err_name(err.code), err.message);
        print_message("%s%s%s: %s\n", c->lib != NULL ? c->lib : "fake",
                      c->script != NULL ? " " : "",
                      c->script != NULL ? c->script : "", err.message);
        for (int k = 0; k < 3 && c->want[k] != NULL; k++)
            assert_contains_at(err.message, c->want[k], __FILE__, c->line);
        assert_null(uf__cu_driver_real_path());
    }
    uf__cu_driver_real_reset_for_tests();
}

/* This machine as a user's process sees it: no UFJIT_CUDA_DRIVER. Here
 * there is no libcuda.so.1; on a GPU machine the real driver loads. */
static void test_default_library(void **state)
{
    (void)state;
    uf_error err;
    const uf__cu_driver *d = load(NULL, NULL, &err);
    if (d != NULL) {
        int n = 0;
        assert_int_equal(d->device_count(&n), 0);
        assert_true(n >= 1);
        print_message("libcuda.so.1 loaded from %s: %d device(s)\n",
                      uf__cu_driver_real_path(), n);
    } else {
        assert_int_equal(err.code, UF_ERR_NO_DEVICE);
        assert_contains(err.message, "libcuda.so.1");
        print_message("as expected here: %s\n", err.message);
    }
    uf__cu_driver_real_reset_for_tests();
}

static void test_toolkit_stub(void **state)
{
    (void)state;
    if (access(STUB, R_OK) != 0) {
        print_message("SKIP: no CUDA toolkit stub at %s\n", STUB);
        skip();
    }
    uf_error err;
    assert_null(load(STUB, NULL, &err));
    assert_int_equal(err.code, UF_ERR_NO_DEVICE);
    assert_contains(err.message, "stub library");
    assert_contains(err.message, "CUDA_ERROR_STUB_LIBRARY");
    assert_contains(err.message, STUB);
    print_message("%s\n", err.message);
    uf__cu_driver_real_reset_for_tests();
}

/* A failure is remembered: a later call neither retries nor changes its
 * answer when the environment does; only the test reset forgets it. */
static void test_failure_remembered(void **state)
{
    (void)state;
    uf_error err, again;
    void *pin = dlopen(UF_FAKE_CUDA, RTLD_NOW); /* the counter outlives resets */
    assert_non_null(pin);
    long inits = fake_counter("fake_cuda_init_calls");
    assert_null(load(UF_FAKE_CUDA, "init=100", &err));
    setenv("UFJIT_FAKE_CUDA", "count=1", 1);
    uf_error_clear(&again);
    assert_null(uf__cu_driver_real(&again));
    assert_int_equal(again.code, UF_ERR_NO_DEVICE);
    assert_string_equal(again.message, err.message);
    assert_null(uf__cu_driver_real(NULL)); /* err may be NULL */
    assert_int_equal(fake_counter("fake_cuda_init_calls") - inits, 1);
    assert_non_null(load(UF_FAKE_CUDA, "count=1", &err));
    assert_int_equal(fake_counter("fake_cuda_init_calls") - inits, 2);
    uf__cu_driver_real_reset_for_tests();
    dlclose(pin);
}

/* ---- a working driver ------------------------------------------------------- */

static void *load_in_thread(void *out)
{
    *(const uf__cu_driver **)out = uf__cu_driver_real(NULL);
    return NULL;
}

static void test_once_under_threads(void **state)
{
    (void)state;
    uf_error err;
    void *pin = dlopen(UF_FAKE_CUDA, RTLD_NOW); /* the counter outlives resets */
    assert_non_null(pin);
    assert_non_null(load(UF_FAKE_CUDA, NULL, &err));
    uf__cu_driver_real_reset_for_tests(); /* environment set, nothing loaded */
    long inits = fake_counter("fake_cuda_init_calls");
    enum { N = 8 };
    pthread_t t[N];
    const uf__cu_driver *got[N];
    for (int i = 0; i < N; i++)
        assert_int_equal(pthread_create(&t[i], NULL, load_in_thread, &got[i]),
                         0);
    for (int i = 0; i < N; i++)
        assert_int_equal(pthread_join(t[i], NULL), 0);
    for (int i = 0; i < N; i++) {
        assert_non_null(got[i]);
        assert_ptr_equal(got[i], got[0]);
    }
    assert_int_equal(fake_counter("fake_cuda_init_calls") - inits, 1);
    uf__cu_driver_real_reset_for_tests();
    dlclose(pin);
}

static void test_devices(void **state)
{
    (void)state;
    uf_error err;
    const uf__cu_driver *d =
        load(UF_FAKE_CUDA, "count=2,name=Fake A100,cc=8.0,mem=42949672960",
             &err);
    assert_non_null(d);
    assert_string_equal(d->name, "cuda");
    assert_int_equal(d->image_kind, UF__CU_IMAGE_PTX);
    assert_contains(uf__cu_driver_real_path(), "libfake_cuda.so");

    int v = 0, n = 0;
    assert_int_equal(d->driver_version(&v), 0);
    assert_int_equal(v, 13000);
    assert_int_equal(d->device_count(&n), 0);
    assert_int_equal(n, 2);
    for (int i = 0; i < n; i++) {
        uf__cu_device dev = -1;
        char name[256];
        int major = 0, minor = -1, warp = 0;
        size_t total = 0;
        assert_int_equal(d->device_get(&dev, i), 0);
        assert_int_equal(dev, i);
        assert_int_equal(d->device_name(name, sizeof name, dev), 0);
        assert_string_equal(name, "Fake A100");
        assert_int_equal(d->device_attribute(
            &major, UF__CU_DEV_ATTR_COMPUTE_CAPABILITY_MAJOR, dev), 0);
        assert_int_equal(d->device_attribute(
            &minor, UF__CU_DEV_ATTR_COMPUTE_CAPABILITY_MINOR, dev), 0);
        assert_int_equal(d->device_attribute(
            &warp, UF__CU_DEV_ATTR_WARP_SIZE, dev), 0);
        assert_int_equal(major * 10 + minor, 80);
        assert_int_equal(warp, 32);
        assert_int_equal(d->device_total_mem(&total, dev), 0);
        assert_int_equal(total, (size_t)40 << 30);
    }
    /* a bad ordinal is the driver's error, reported, not a crash */
    uf__cu_device dev;
    assert_int_equal(uf__cu_check(d, d->device_get(&dev, 2), "cuDeviceGet",
                                  &err),
                     UF_ERR_NO_DEVICE);
    assert_contains(err.message, "cuDeviceGet failed on cuda");
    assert_contains(err.message, "CUDA_ERROR_INVALID_DEVICE");
    uf__cu_driver_real_reset_for_tests();
}

/* The primary context made current, as every memory call needs. */
static uf__cu_ctx enter_device(const uf__cu_driver *d)
{
    uf__cu_ctx ctx = NULL;
    assert_int_equal(d->primary_ctx_retain(&ctx, 0), 0);
    assert_non_null(ctx);
    assert_int_equal(d->ctx_set_current(ctx), 0);
    uf__cu_ctx now = NULL;
    assert_int_equal(d->ctx_get_current(&now), 0);
    assert_ptr_equal(now, ctx);
    return ctx;
}

static void leave_device(const uf__cu_driver *d)
{
    assert_int_equal(d->ctx_synchronize(), 0);
    assert_int_equal(d->ctx_set_current(NULL), 0);
    assert_int_equal(d->primary_ctx_release(0), 0);
}

static void test_memory_round_trip(void **state)
{
    (void)state;
    uf_error err;
    const uf__cu_driver *d = load(UF_FAKE_CUDA, NULL, &err);
    assert_non_null(d);
    enter_device(d);

    enum { N = 1 << 16 };
    static double host[N], back[N];
    for (int i = 0; i < N; i++)
        host[i] = i * 0.5 - 7.0;
    size_t free0 = 0, total = 0, free1 = 0;
    assert_int_equal(d->mem_get_info(&free0, &total), 0);
    uf__cu_dptr a = 0, b = 0;
    assert_int_equal(d->mem_alloc(&a, sizeof host), 0);
    assert_int_equal(d->mem_alloc(&b, sizeof host), 0);
    assert_int_equal(d->mem_get_info(&free1, &total), 0);
    assert_int_equal(free0 - free1, 2 * sizeof host);

    assert_int_equal(d->memcpy_htod(a, host, sizeof host), 0);
    assert_int_equal(d->memcpy_dtod(b, a, sizeof host), 0);
    assert_int_equal(d->memset_d8(b, 0, 8 * sizeof(double)), 0);
    assert_int_equal(d->memcpy_dtoh(back, b, sizeof back), 0);
    for (int i = 0; i < 8; i++)
        assert_true(back[i] == 0.0);
    for (int i = 8; i < N; i++)
        assert_true(back[i] == host[i]);

    /* the async copies on a stream, timed by events */
    uf__cu_stream s = NULL;
    uf__cu_event e0 = NULL, e1 = NULL;
    assert_int_equal(d->stream_create(&s, UF__CU_STREAM_NON_BLOCKING), 0);
    assert_int_equal(d->event_create(&e0, 0), 0);
    assert_int_equal(d->event_create(&e1, 0), 0);
    assert_int_equal(d->event_record(e0, s), 0);
    assert_int_equal(d->memset_d8_async(b, 0xff, sizeof host, s), 0);
    assert_int_equal(d->memcpy_dtod_async(b, a, sizeof host / 2, s), 0);
    memset(back, 0, sizeof back);
    assert_int_equal(d->memcpy_dtoh_async(back, b, sizeof back, s), 0);
    assert_int_equal(d->memcpy_htod_async(a, back, sizeof back, s), 0);
    assert_int_equal(d->event_record(e1, s), 0);
    assert_int_equal(d->stream_wait_event(NULL, e1, 0), 0);
    assert_int_equal(d->stream_synchronize(s), 0);
    assert_int_equal(d->stream_query(s), 0);
    assert_int_equal(d->event_synchronize(e1), 0);
    assert_int_equal(d->event_query(e1), 0);
    float ms = -1;
    assert_int_equal(d->event_elapsed_time(&ms, e0, e1), 0);
    assert_true(ms >= 0);
    for (int i = 0; i < N / 2; i++)
        assert_true(back[i] == host[i]);
    unsigned char ones[8];
    memset(ones, 0xff, sizeof ones);
    assert_memory_equal(&back[N / 2], ones, sizeof ones);
    assert_int_equal(d->event_destroy(e0), 0);
    assert_int_equal(d->event_destroy(e1), 0);
    assert_int_equal(d->stream_destroy(s), 0);

    /* what the memory is, and IPC's handle there and back */
    unsigned type = 0;
    assert_int_equal(d->pointer_get_attribute(
        &type, UF__CU_POINTER_ATTRIBUTE_MEMORY_TYPE, a + 8), 0);
    assert_int_equal(type, UF__CU_MEMORYTYPE_DEVICE);
    uf__cu_ipc_handle h;
    uf__cu_dptr opened = 0;
    assert_int_equal(d->ipc_get_mem_handle(&h, a), 0);
    assert_int_equal(d->ipc_open_mem_handle(
        &opened, h, UF__CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS), 0);
    assert_int_equal(opened, a);
    assert_int_equal(d->ipc_close_mem_handle(opened), 0);

    assert_int_equal(d->mem_free(a), 0);
    assert_int_equal(d->mem_free(b), 0);
    assert_int_equal(fake_counter("fake_cuda_live_allocations"), 0);
    leave_device(d);
    uf__cu_driver_real_reset_for_tests();
}

static void test_pinned_and_mapped(void **state)
{
    (void)state;
    uf_error err;
    const uf__cu_driver *d = load(UF_FAKE_CUDA, NULL, &err);
    assert_non_null(d);
    enter_device(d);
    void *pinned = NULL;
    uf__cu_dptr mapped = 0;
    assert_int_equal(d->mem_host_alloc(&pinned, 4096,
                                       UF__CU_MEMHOSTALLOC_DEVICEMAP), 0);
    assert_int_equal(d->mem_host_get_device_pointer(&mapped, pinned, 0), 0);
    assert_int_equal(d->memset_d8(mapped, 7, 4096), 0);
    assert_int_equal(((unsigned char *)pinned)[4095], 7);
    unsigned type = 0;
    assert_int_equal(d->pointer_get_attribute(
        &type, UF__CU_POINTER_ATTRIBUTE_MEMORY_TYPE, mapped), 0);
    assert_int_equal(type, UF__CU_MEMORYTYPE_HOST);
    assert_int_equal(d->mem_free_host(pinned), 0);

    static char user[1024];
    assert_int_equal(d->mem_host_register(user, sizeof user, 0), 0);
    assert_int_equal(uf__cu_check(d, d->mem_host_register(user, 16, 0),
                                  "cuMemHostRegister", &err),
                     UF_ERR_INTERNAL);
    assert_contains(err.message, "CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED");
    assert_int_equal(d->mem_host_unregister(user), 0);
    leave_device(d);
    uf__cu_driver_real_reset_for_tests();
}

static void test_modules_and_launch(void **state)
{
    (void)state;
    uf_error err;
    const uf__cu_driver *d = load(UF_FAKE_CUDA, NULL, &err);
    assert_non_null(d);
    enter_device(d);
    static const char ptx[] =
        ".version 8.0\n.target sm_80\n.address_size 64\n"
        ".visible .entry triad(\n.param .u64 a\n)\n{\nret;\n}\n";
    uf__cu_module m = NULL;
    uf__cu_func f = NULL;
    assert_int_equal(d->module_load_data(&m, ptx), 0);
    assert_int_equal(d->module_get_function(&f, m, "triad"), 0);
    int regs = 0, min_grid = 0, block = 0;
    assert_int_equal(d->func_get_attribute(&regs, UF__CU_FUNC_ATTR_NUM_REGS,
                                           f), 0);
    assert_int_equal(regs, 32);
    /* occupancy through the wrapper: no callback reaches libcuda */
    assert_int_equal(d->occupancy_max_block(&min_grid, &block, f, 0, 0), 0);
    assert_int_equal(block, 1024);
    assert_int_equal(min_grid, 264);
    assert_int_equal(d->occupancy_max_block(&min_grid, &block, f, 0, 200),
                     0);
    assert_int_equal(block, 192);
    uf__cu_dptr p = 0;
    assert_int_equal(d->mem_alloc(&p, 64), 0);
    void *params[] = {&p};
    long launches = fake_counter("fake_cuda_launches");
    assert_int_equal(d->launch_kernel(f, 4, 1, 1, 256, 1, 1, 0, NULL, params,
                                      NULL), 0);
    assert_int_equal(fake_counter("fake_cuda_launches") - launches, 1);

    /* refused by the driver: each a clean error */
    uf__cu_func g = NULL;
    assert_int_equal(uf__cu_check(d, d->module_get_function(&g, m, "tria"),
                                  "cuModuleGetFunction", &err),
                     UF_ERR_INTERNAL);
    assert_contains(err.message, "CUDA_ERROR_NOT_FOUND");
    assert_int_equal(uf__cu_check(d, d->launch_kernel(f, 1, 1, 1, 2048, 1, 1,
                                                      0, NULL, params, NULL),
                                  "cuLaunchKernel", &err),
                     UF_ERR_INVALID);
    assert_contains(err.message, "cuLaunchKernel failed on cuda: "
                                 "CUDA_ERROR_INVALID_VALUE");
    uf__cu_module junk = NULL;
    assert_int_equal(uf__cu_check(d, d->module_load_data(&junk, "nonsense"),
                                  "cuModuleLoadData", &err),
                     UF_ERR_INTERNAL);
    assert_contains(err.message, "CUDA_ERROR_INVALID_IMAGE");
    assert_int_equal(d->mem_free(p), 0);
    assert_int_equal(d->module_unload(m), 0);
    leave_device(d);
    uf__cu_driver_real_reset_for_tests();
}

/* Out of memory in the middle of a sequence: the two allocations before
 * it stand, the third is UF_ERR_NOMEM naming the call and the code. */
static void test_out_of_memory_mid_sequence(void **state)
{
    (void)state;
    uf_error err;
    const uf__cu_driver *d = load(UF_FAKE_CUDA, "oom_after=2", &err);
    assert_non_null(d);
    enter_device(d);
    uf__cu_dptr p[3] = {0, 0, 0};
    assert_int_equal(uf__cu_check(d, d->mem_alloc(&p[0], 256), "cuMemAlloc",
                                  &err), 0);
    assert_int_equal(uf__cu_check(d, d->mem_alloc(&p[1], 256), "cuMemAlloc",
                                  &err), 0);
    uf__cu_result rc = d->mem_alloc(&p[2], 256);
    assert_int_equal(rc, UF__CU_ERROR_OUT_OF_MEMORY);
    assert_int_equal(uf__cu_check(d, rc, "cuMemAlloc", &err), UF_ERR_NOMEM);
    assert_int_equal(err.code, UF_ERR_NOMEM);
    assert_string_equal(err.message,
                        "cuMemAlloc failed on cuda: CUDA_ERROR_OUT_OF_MEMORY "
                        "(out of memory (fake))");
    assert_int_equal(p[2], 0);
    assert_int_equal(d->memcpy_htod(p[1], "still here", 11), 0);
    char back[11];
    assert_int_equal(d->memcpy_dtoh(back, p[1], 11), 0);
    assert_string_equal(back, "still here");
    assert_int_equal(d->mem_free(p[0]), 0);
    assert_int_equal(d->mem_free(p[1]), 0);
    leave_device(d);
    uf__cu_driver_real_reset_for_tests();
}

/* Misuse the driver refuses, as a GPU does: errors, never a crash. */
static void test_errors_do_not_crash(void **state)
{
    (void)state;
    uf_error err;
    const uf__cu_driver *d =
        load(UF_FAKE_CUDA, "fail=cuMemcpyDtoH_v2:700", &err);
    assert_non_null(d);
    uf__cu_dptr p = 0;
    /* no current context */
    assert_int_equal(uf__cu_check(d, d->mem_alloc(&p, 16), "cuMemAlloc",
                                  &err), UF_ERR_INTERNAL);
    assert_contains(err.message, "CUDA_ERROR_INVALID_CONTEXT");
    enter_device(d);
    assert_int_equal(d->mem_alloc(&p, 16), 0);
    /* a host address where device memory is required */
    static char host[16];
    assert_int_equal(uf__cu_check(d, d->memcpy_htod((uintptr_t)host, host, 16),
                                  "cuMemcpyHtoD", &err), UF_ERR_INVALID);
    assert_int_equal(uf__cu_check(d, d->memcpy_htod(p, host, 17),
                                  "cuMemcpyHtoD", &err), UF_ERR_INVALID);
    assert_int_equal(uf__cu_check(d, d->mem_free(p + 1), "cuMemFree", &err),
                     UF_ERR_INVALID);
    assert_int_equal(uf__cu_check(d, d->memcpy_dtoh(host, p, 16),
                                  "cuMemcpyDtoH", &err), UF_ERR_INTERNAL);
    assert_contains(err.message, "cuMemcpyDtoH failed on cuda: "
                                 "CUDA_ERROR_ILLEGAL_ADDRESS");
    unsigned type;
    assert_int_equal(d->pointer_get_attribute(
                         &type, UF__CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
                         (uintptr_t)host),
                     UF__CU_ERROR_INVALID_VALUE);
    assert_int_equal(d->mem_free(p), 0);
    leave_device(d);
    uf__cu_driver_real_reset_for_tests();
}

/* The public view sysinfo prints (ufjit/system.h). */
static void test_public_driver_info(void **state)
{
    (void)state;
    uf_error err;
    load(UF_FAKE_CUDA, "count=2,version=12080,name=Fake H200,mem=1048576",
         &err);
    char version[8], path[4096], name[64];
    assert_int_equal(uf_cuda_driver(version, sizeof version, path,
                                    sizeof path, &err), 2);
    assert_string_equal(version, "12.8");
    assert_contains(path, "libfake_cuda.so");
    assert_int_equal(uf_cuda_driver(NULL, 0, NULL, 0, NULL), 2);
    int major = 0, minor = -1;
    size_t total = 0;
    assert_int_equal(uf_cuda_device(1, name, sizeof name, &major, &minor,
                                    &total, &err), 0);
    assert_string_equal(name, "Fake H200");
    assert_int_equal(major, 9);
    assert_int_equal(minor, 0);
    assert_int_equal(total, 1048576);
    char tiny[5];
    assert_int_equal(uf_cuda_device(0, tiny, sizeof tiny, NULL, NULL, NULL,
                                    &err), 0);
    assert_string_equal(tiny, "Fake");
    assert_int_equal(uf_cuda_device(2, name, sizeof name, NULL, NULL, NULL,
                                    &err), UF_ERR_NO_DEVICE);
    assert_contains(err.message, "CUDA_ERROR_INVALID_DEVICE");
    assert_int_equal(uf_cuda_device(-1, NULL, 0, NULL, NULL, NULL, NULL),
                     UF_ERR_NO_DEVICE);

    load(UF_FAKE_CUDA, "init=100", &err);
    assert_int_equal(uf_cuda_driver(version, sizeof version, NULL, 0, &err),
                     UF_ERR_NO_DEVICE);
    assert_contains(err.message, "CUDA_ERROR_NO_DEVICE");
    assert_int_equal(uf_cuda_device(0, name, sizeof name, NULL, NULL, NULL,
                                    &err), UF_ERR_NO_DEVICE);
    assert_contains(err.message, "no CUDA device");
    uf__cu_driver_real_reset_for_tests();
}

/* ---- uf__cu_check without a driver: ufjit's own names --------------------- */

typedef struct check_case {
    uf__cu_result rc;
    int code;
    const char *text;
} check_case;

static const check_case checks[] = {
    {UF__CU_ERROR_OUT_OF_MEMORY, UF_ERR_NOMEM,
     "CUDA_ERROR_OUT_OF_MEMORY (out of memory)"},
    {UF__CU_ERROR_STUB_LIBRARY, UF_ERR_NO_DEVICE,
     "CUDA_ERROR_STUB_LIBRARY (CUDA driver is a stub library)"},
    {UF__CU_ERROR_INSUFFICIENT_DRIVER, UF_ERR_NO_DEVICE,
     "CUDA_ERROR_INSUFFICIENT_DRIVER"},
    {UF__CU_ERROR_CALL_REQUIRES_NEWER_DRIVER, UF_ERR_NO_DEVICE,
     "CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER"},
    {UF__CU_ERROR_NO_DEVICE, UF_ERR_NO_DEVICE, "CUDA_ERROR_NO_DEVICE"},
    {UF__CU_ERROR_INVALID_DEVICE, UF_ERR_NO_DEVICE,
     "CUDA_ERROR_INVALID_DEVICE (invalid device ordinal)"},
    {UF__CU_ERROR_INVALID_VALUE, UF_ERR_INVALID,
     "CUDA_ERROR_INVALID_VALUE (invalid argument)"},
    {UF__CU_ERROR_INVALID_HANDLE, UF_ERR_INVALID,
     "CUDA_ERROR_INVALID_HANDLE (invalid resource handle)"},
    {UF__CU_ERROR_ILLEGAL_ADDRESS, UF_ERR_INTERNAL,
     "CUDA_ERROR_ILLEGAL_ADDRESS (an illegal memory access was encountered)"},
    {UF__CU_ERROR_LAUNCH_FAILED, UF_ERR_INTERNAL,
     "CUDA_ERROR_LAUNCH_FAILED (unspecified launch failure)"},
    {UF__CU_ERROR_UNSUPPORTED_PTX_VERSION, UF_ERR_INTERNAL,
     "CUDA_ERROR_UNSUPPORTED_PTX_VERSION"},
    {4242, UF_ERR_INTERNAL,
     "CUDA error 4242 (a code unknown to ufjit and the driver)"},
};

static void test_check_builtin_names(void **state)
{
    (void)state;
    uf__cu_driver bare;
    memset(&bare, 0, sizeof bare);
    bare.name = "cudasim";
    for (size_t i = 0; i < sizeof checks / sizeof checks[0]; i++) {
        uf_error err;
        uf_error_clear(&err);
        int code = uf__cu_check(&bare, checks[i].rc, "cuThing", &err);
        if (code != checks[i].code || err.code != code)
            fail_msg("rc %d: %s, expected %s", checks[i].rc,
                     uf_err_name(code), uf_err_name(checks[i].code));
        assert_contains(err.message, "cuThing failed on cudasim: ");
        assert_contains(err.message, checks[i].text);
        /* no table at all still gives the name */
        uf__cu_check(NULL, checks[i].rc, NULL, &err);
        assert_contains(err.message, checks[i].text);
    }
    uf_error err;
    uf_error_clear(&err);
    assert_int_equal(uf__cu_check(&bare, 0, "cuThing", &err), 0);
    assert_int_equal(err.code, UF_ERR_OK);
    assert_string_equal(err.message, "");
    assert_int_equal(uf__cu_check(&bare, 2, "cuThing", NULL), UF_ERR_NOMEM);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_each_failure_reason),
        cmocka_unit_test(test_default_library),
        cmocka_unit_test(test_toolkit_stub),
        cmocka_unit_test(test_failure_remembered),
        cmocka_unit_test(test_once_under_threads),
        cmocka_unit_test(test_devices),
        cmocka_unit_test(test_memory_round_trip),
        cmocka_unit_test(test_pinned_and_mapped),
        cmocka_unit_test(test_modules_and_launch),
        cmocka_unit_test(test_out_of_memory_mid_sequence),
        cmocka_unit_test(test_errors_do_not_crash),
        cmocka_unit_test(test_public_driver_info),
        cmocka_unit_test(test_check_builtin_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
