/* External memory managers (ufjit/cuda_memory.h) on cudasim, or a GPU
 * under UFJIT_TEST_CUDA_TARGET=cuda: the two example plug-ins of
 * examples/emm/ (loaded from their shared objects) through the full path
 * (vectorize on device arrays, uf_reduce, a uf_launch kernel), the pool's
 * stream-ordered reuse, the limiting one failing on demand, and
 * misbehaving tables (another version, missing methods, NULL without an
 * error, an error without a message, an address handed out twice, a
 * double free) reported as errors. tests/cmake/emm.cmake runs it again
 * with each plug-in named by UFJIT_CUDA_MEMORY_MANAGER, and a bad name.
 * Every test ends with the manager reset, which fails while memory is
 * still allocated. */
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

#include "cuda_test_target.h"
#include "emm_limit.h"
#include "emm_pool.h"

static const char *SIM;
static uf_context *ctx;
static uf_module *mod;

static void *sym(const char *so, const char *name)
{
    void *dl = dlopen(so, RTLD_NOW | RTLD_LOCAL);
    if (dl == NULL)
        fail_msg("%s", dlerror());
    void *s = dlsym(dl, name);
    assert_non_null(s);
    return s;
}

/* a new manager from plug-in `so`'s factory, installed; its user */
/* The plug-ins' paths: from the environment where CTest (and the GPU
 * kit's runner, which moves the build tree) sets them, else where this
 * build made them. */
static const char *plugin_path(const char *env, const char *built)
{
    const char *p = getenv(env);
    return p && *p ? p : built;
}
#define POOL_SO plugin_path("UF_EMM_POOL_SO", UF_EMM_POOL_SO)
#define LIMIT_SO plugin_path("UF_EMM_LIMIT_SO", UF_EMM_LIMIT_SO)

static void *install(const char *so, const char *factory)
{
    uf_error err;
    uf_cuda_mm_factory f;
    void *s = sym(so, factory);
    memcpy(&f, &s, sizeof f);
    uf_cuda_memory_manager mm;
    uf_assert_ok(f(UF_CUDA_MM_INTERFACE_VERSION, &mm, &err) == 0, &err);
    uf_assert_ok(uf_cuda_set_memory_manager(SIM, &mm, &err) == 0, &err);
    return mm.user;
}

static uf_cuda_memory_stats stats(void)
{
    uf_error err;
    uf_cuda_memory_stats s;
    uf_assert_ok(uf_cuda_memory_stats_get(SIM, &s, &err) == 0, &err);
    return s;
}

static int teardown(void **state)
{
    (void)state;
    uf_error err;
    if (uf_cuda_memory_flush(SIM, &err) != 0 ||
        uf_cuda_memory_reset(SIM, &err) != 0 ||
        uf_cuda_set_memory_manager(SIM, NULL, &err) != 0) {
        fprintf(stderr, "teardown: %s\n", err.message);
        return -1;
    }
    if (stats().live_allocations != 0)
        return -1;
    return 0;
}

static uf_array *host_f64(int64_t n, double k)
{
    uf_error err;
    uf_array *a = uf_empty(UF_FLOAT64, 1, &n, UF_ORDER_C, &err);
    uf_assert_ok(a != NULL, &err);
    for (int64_t i = 0; i < n; i++)
        ((double *)uf_array_data(a))[i] = k * (double)i;
    return a;
}

static uf_func *get(const char *name)
{
    uf_error err;
    uf_func *f = uf_module_get(mod, name, &err);
    uf_assert_ok(f != NULL, &err);
    return f;
}

/* vectorize on device arrays, a reduction and a kernel launch, twice (so
 * a pool serves the second round from what the first gave back), each
 * result checked exactly */
static void full_path(void)
{
    uf_error err;
    const int64_t n = 3000;
    for (int round = 0; round < 2; round++) {
        uf_array *hx = host_f64(n, 0.5), *hy = host_f64(n, -2.0);
        uf_array *x = uf_to_device(hx, SIM, NULL, &err);
        uf_array *y = uf_to_device(hy, SIM, NULL, &err);
        uf_assert_ok(x != NULL && y != NULL, &err);
        uf_call_options o = {.size = sizeof o, .target = SIM};
        uf_array *in[2] = {x, y}, *out[1] = {NULL};
        uf_assert_ok(uf_call(get("vadd"), in, 2, out, 1, &o, &err) == 0,
                     &err);
        assert_int_equal(uf_array_device(out[0]).type, UF_DEVICE_CUDA);
        uf_array *h = uf_copy_to_host(out[0], NULL, NULL, &err);
        uf_assert_ok(h != NULL, &err);
        for (int64_t i = 0; i < n; i++)
            assert_true(((double *)uf_array_data(h))[i] == -1.5 * (double)i);
        uf_array_release(h);

        uf_array *r = NULL;
        o.axes_mode = UF_AXES_ALL;
        uf_assert_ok(uf_reduce(get("vadd"), x, &r, &o, &err) == 0, &err);
        uf_array *hr = uf_array_device(r).type == UF_DEVICE_CUDA
                           ? uf_copy_to_host(r, NULL, NULL, &err)
                           : uf_array_retain(r);
        /* 0.5 * n(n-1)/2, exact in float64 */
        assert_true(*(double *)uf_array_data(hr) ==
                    0.25 * (double)n * (double)(n - 1));
        uf_array_release(hr);
        uf_array_release(r);

        uf_array *k = uf_empty(UF_FLOAT64, 0, NULL, UF_ORDER_C, &err);
        *(double *)uf_array_data(k) = 4.0;
        uf_array *d = uf_device_array(UF_FLOAT64, 1, &n, UF_ORDER_C, SIM,
                                      &err);
        uf_assert_ok(d != NULL, &err);
        uf_array *args[4] = {k, x, y, d};
        uf_launch_options lo = {.size = sizeof lo, .target = SIM};
        uf_assert_ok(uf_launch(get("axpy"), (uf_dim3){(n + 127) / 128, 1, 1},
                               (uf_dim3){128, 1, 1}, args, 4, &lo, &err) == 0,
                     &err);
        h = uf_copy_to_host(d, NULL, NULL, &err);
        uf_assert_ok(h != NULL, &err);
        for (int64_t i = 0; i < n; i++)
            assert_true(((double *)uf_array_data(h))[i] == 0.0);
        uf_array_release(h);
        uf_array_release(k);
        uf_array_release(d);
        uf_array_release(out[0]);
        uf_array_release(x);
        uf_array_release(y);
        uf_array_release(hx);
        uf_array_release(hy);
    }
}

/* UFJIT_CUDA_MEMORY_MANAGER (tests/cmake/emm.cmake sets it, and
 * UF_EXPECT_MANAGER to the plug-in's name or "error"); first, before any
 * test installs a manager of its own. */
static void env_manager(void **state)
{
    (void)state;
    const char *want = getenv("UF_EXPECT_MANAGER");
    if (want == NULL || *want == '\0') {
        printf("SKIP part: UFJIT_CUDA_MEMORY_MANAGER is not set (the _env "
               "runs set it)\n");
        return;
    }
    uf_error err;
    int64_t n = 16;
    uf_array *a = uf_device_array(UF_FLOAT64, 1, &n, UF_ORDER_C, SIM, &err);
    if (strcmp(want, "error") == 0) {
        assert_null(a);
        assert_int_equal(err.code, UF_ERR_NOT_FOUND);
        assert_non_null(strstr(err.message, "UFJIT_CUDA_MEMORY_MANAGER: "
                                            "cannot load"));
        return;
    }
    uf_assert_ok(a != NULL, &err);
    uf_array_release(a);
    assert_string_equal(stats().manager, want);
    full_path();
}

static void pool_full_path(void **state)
{
    (void)state;
    void *user = install(POOL_SO, "uf_emm_pool_factory");
    void (*get_stats)(void *, uf_emm_pool_stats *);
    void *s = sym(POOL_SO, "uf_emm_pool_get_stats");
    memcpy(&get_stats, &s, sizeof get_stats);
    full_path();
    uf_emm_pool_stats ps;
    get_stats(user, &ps);
    assert_string_equal(stats().manager, "pool");
    /* the second round is served from the first one's blocks */
    assert_true(ps.hits >= 5);
    assert_true(ps.cached > 0);
    assert_int_equal(stats().pending_count, 0); /* no deferral in a pool */
    /* a pool's free memory is not one number */
    uf_error err;
    size_t f, t;
    assert_int_equal(uf_cuda_memory_info(SIM, &f, &t, &err),
                     UF_ERR_UNSUPPORTED);
    assert_non_null(strstr(err.message, "not implemented"));
}

/* A block given back on stream A is reused on A at once, and on B only
 * after A's event (completed, or waited for by B); the values B writes
 * are what B reads back. */
static void pool_stream_order(void **state)
{
    (void)state;
    uf_error err;
    void *user = install(POOL_SO, "uf_emm_pool_factory");
    void (*get_stats)(void *, uf_emm_pool_stats *);
    void *s = sym(POOL_SO, "uf_emm_pool_get_stats");
    memcpy(&get_stats, &s, sizeof get_stats);
    uf_stream *a = uf_stream_create(SIM, &err), *b = uf_stream_create(SIM,
                                                                      &err);
    uf_assert_ok(a != NULL && b != NULL, &err);
    const int64_t n = 100000; /* 800000 bytes: the 1 MiB class */
    uf_array *h1 = host_f64(n, 1.0), *h2 = host_f64(n, -3.0);

    uf_array *x = uf_to_device(h1, SIM, a, &err);
    uf_assert_ok(x != NULL, &err);
    void *px = uf_array_data(x);
    uf_array_release(x); /* given back on A, A's copy maybe still queued */
    uf_emm_pool_stats p0;
    get_stats(user, &p0);

    x = uf_to_device(h1, SIM, a, &err); /* same stream: at once */
    uf_assert_ok(x != NULL, &err);
    assert_ptr_equal(uf_array_data(x), px);
    uf_emm_pool_stats p1;
    get_stats(user, &p1);
    assert_int_equal(p1.hits, p0.hits + 1);
    assert_int_equal(p1.cross_stream_reuses + p1.stream_waits,
                     p0.cross_stream_reuses + p0.stream_waits);
    uf_array_release(x);

    uf_array *y = uf_to_device(h2, SIM, b, &err); /* B: after A's event */
    uf_assert_ok(y != NULL, &err);
    assert_ptr_equal(uf_array_data(y), px);
    uf_emm_pool_stats p2;
    get_stats(user, &p2);
    assert_int_equal(p2.cross_stream_reuses + p2.stream_waits,
                     p1.cross_stream_reuses + p1.stream_waits + 1);
    uf_array *back = uf_copy_to_host(y, NULL, b, &err);
    uf_assert_ok(back != NULL, &err);
    uf_assert_ok(uf_stream_synchronize(b, &err) == 0, &err);
    assert_memory_equal(uf_array_data(back), uf_array_data(h2),
                        (size_t)n * 8);
    uf_array_release(back);
    uf_array_release(y);
    uf_stream_destroy(a);
    uf_stream_destroy(b);
    uf_array_release(h1);
    uf_array_release(h2);
}

static void limit_full_path(void **state)
{
    (void)state;
    uf_error err;
    void *user = install(LIMIT_SO, "uf_emm_limit_factory");
    void (*counts)(void *, uf_emm_limit_counts *);
    void *s = sym(LIMIT_SO, "uf_emm_limit_get_counts");
    memcpy(&counts, &s, sizeof counts);
    full_path();
    int64_t n = 64;
    uf_array *p = uf_pinned_array(UF_INT32, 1, &n, UF_ORDER_C, SIM, &err);
    uf_assert_ok(p != NULL, &err);
    uf_array *m = uf_mapped_array(UF_INT32, 1, &n, UF_ORDER_C, SIM, &err);
    uf_assert_ok(m != NULL, &err);
    uf_emm_limit_counts c;
    counts(user, &c);
    assert_int_equal(c.host_allocs, 2);
    assert_int_equal(c.host_live, 2);
    uf_array_release(p);
    uf_array_release(m);
    counts(user, &c);
    assert_int_equal(c.host_live, 0); /* no deferral: freed at once */
    assert_int_equal(c.initializes, 1);
    /* everything but the legacy stream's reduction scratch is back */
    assert_int_equal(c.live, stats().live_allocations);
    assert_true(c.allocs >= 12);
}

static void limit_fails_on_demand(void **state)
{
    (void)state;
    uf_error err;
    void *user = install(LIMIT_SO, "uf_emm_limit_factory");
    void (*configure)(void *, size_t, size_t);
    void *s = sym(LIMIT_SO, "uf_emm_limit_configure");
    memcpy(&configure, &s, sizeof configure);

    configure(user, 0, 1);
    int64_t n = 1000;
    uf_array *a = uf_device_array(UF_FLOAT64, 1, &n, UF_ORDER_C, SIM, &err);
    assert_null(a);
    assert_int_equal(err.code, UF_ERR_NOMEM);
    assert_string_equal(err.message,
                        "memory manager 'limit': memalloc: limit: 8000 bytes "
                        "refused, failing on demand (0 live, limit 0)");

    /* the ufunc's output allocation fails: an error, nothing leaked */
    uf_array *hx = host_f64(n, 1.0);
    uf_array *x = uf_to_device(hx, SIM, NULL, &err);
    uf_assert_ok(x != NULL, &err);
    configure(user, 0, 1);
    uf_call_options o = {.size = sizeof o, .target = SIM};
    uf_array *in[2] = {x, x}, *out[1] = {NULL};
    assert_int_equal(uf_call(get("vadd"), in, 2, out, 1, &o, &err),
                     UF_ERR_NOMEM);
    assert_non_null(strstr(err.message, "failing on demand"));
    assert_null(out[0]);
    assert_int_equal(stats().live_allocations, 1);
    uf_array_release(x);
    uf_array_release(hx);

    /* a limit on live bytes, which get_memory_info reports */
    configure(user, 10000, 0);
    size_t f, t;
    uf_assert_ok(uf_cuda_memory_info(SIM, &f, &t, &err) == 0, &err);
    assert_int_equal(t, 10000);
    assert_int_equal(f, 10000);
    a = uf_device_array(UF_FLOAT64, 1, &n, UF_ORDER_C, SIM, &err);
    uf_assert_ok(a != NULL, &err);
    uf_array *b = uf_device_array(UF_FLOAT64, 1, &n, UF_ORDER_C, SIM, &err);
    assert_null(b);
    assert_non_null(strstr(err.message, "over the limit (8000 live, limit "
                                        "10000)"));
    uf_array_release(a);
}

/* ---- misbehaving managers ---- */

static const uf_cuda_mm_driver *bad_drv;
static uint64_t handed;

static int bad_init(void *u, const uf_cuda_mm_driver *d, uf_error *e)
{
    bad_drv = d;
    return 0;
}

static int ok_alloc(void *u, size_t n, uf_cuda_mm_stream s, uint64_t *p,
                    uf_error *e)
{
    return bad_drv->mem_alloc(bad_drv, p, n);
}

static int ok_free(void *u, uint64_t p, size_t n, uf_cuda_mm_stream s,
                   uf_error *e)
{
    return bad_drv->mem_free(bad_drv, p);
}

static int null_alloc(void *u, size_t n, uf_cuda_mm_stream s, uint64_t *p,
                      uf_error *e)
{
    *p = 0;
    return 0;
}

static int mute_alloc(void *u, size_t n, uf_cuda_mm_stream s, uint64_t *p,
                      uf_error *e)
{
    return 5; /* an error, and not a word */
}

/* hands out the same block every time */
static int twice_alloc(void *u, size_t n, uf_cuda_mm_stream s, uint64_t *p,
                       uf_error *e)
{
    if (handed == 0 && bad_drv->mem_alloc(bad_drv, &handed, 4096) != 0)
        return -1;
    *p = handed;
    return 0;
}

static int twice_free(void *u, uint64_t p, size_t n, uf_cuda_mm_stream s,
                      uf_error *e)
{
    handed = 0;
    return bad_drv->mem_free(bad_drv, p);
}

/* frees twice, reporting the second free's failure */
static int double_free(void *u, uint64_t p, size_t n, uf_cuda_mm_stream s,
                       uf_error *e)
{
    (void)bad_drv->mem_free(bad_drv, p);
    int rc = bad_drv->mem_free(bad_drv, p);
    if (rc != 0) {
        e->code = UF_ERR_INVALID;
        snprintf(e->message, sizeof e->message, "second cuMemFree: %s",
                 bad_drv->error_name(bad_drv, rc));
    }
    return rc ? e->code : 0;
}

static int host_alloc(void *u, size_t n, unsigned flags, uf_cuda_mm_stream s,
                      void **p, uf_error *e)
{
    return -1;
}

static uf_cuda_memory_manager bad(void)
{
    return (uf_cuda_memory_manager){
        .interface_version = UF_CUDA_MM_INTERFACE_VERSION, .name = "bad",
        .initialize = bad_init, .memalloc = ok_alloc, .memfree = ok_free};
}

static void refused_tables(void **state)
{
    (void)state;
    uf_error err;
    uf_cuda_memory_manager m = bad();
    m.interface_version = 2;
    assert_int_equal(uf_cuda_set_memory_manager(SIM, &m, &err),
                     UF_ERR_INVALID);
    assert_string_equal(err.message,
                        "uf_cuda_set_memory_manager: memory manager 'bad' "
                        "implements interface version 2; ufjit speaks "
                        "version 1");
    m = bad();
    m.memfree = NULL;
    assert_int_equal(uf_cuda_set_memory_manager(SIM, &m, &err),
                     UF_ERR_INVALID);
    assert_non_null(strstr(err.message, "lacks memfree"));
    m = bad();
    m.memhostalloc = host_alloc; /* without memhostfree */
    assert_int_equal(uf_cuda_set_memory_manager(SIM, &m, &err),
                     UF_ERR_INVALID);
    assert_non_null(strstr(err.message, "lacks memhostalloc/memhostfree"));
    m = bad();
    assert_int_equal(uf_cuda_set_memory_manager(SIM, &m, &err), 0);
    assert_string_equal(stats().manager, "bad");
}

static void null_without_error(void **state)
{
    (void)state;
    uf_error err;
    uf_cuda_memory_manager m = bad();
    m.memalloc = null_alloc;
    uf_assert_ok(uf_cuda_set_memory_manager(SIM, &m, &err) == 0, &err);
    int64_t n = 10;
    assert_null(uf_device_array(UF_FLOAT64, 1, &n, UF_ORDER_C, SIM, &err));
    assert_int_equal(err.code, UF_ERR_INTERNAL);
    assert_string_equal(err.message, "memory manager 'bad': memalloc of 80 "
                                     "bytes returned NULL without an error");
    m.memalloc = mute_alloc;
    uf_assert_ok(uf_cuda_memory_reset(SIM, &err) == 0, &err);
    uf_assert_ok(uf_cuda_set_memory_manager(SIM, &m, &err) == 0, &err);
    assert_null(uf_device_array(UF_FLOAT64, 1, &n, UF_ORDER_C, SIM, &err));
    assert_int_equal(err.code, UF_ERR_INTERNAL);
    assert_string_equal(err.message, "memory manager 'bad': memalloc failed "
                                     "(5) without saying why");
}

static void handed_out_twice(void **state)
{
    (void)state;
    uf_error err;
    uf_cuda_memory_manager m = bad();
    m.memalloc = twice_alloc;
    m.memfree = twice_free;
    uf_assert_ok(uf_cuda_set_memory_manager(SIM, &m, &err) == 0, &err);
    int64_t n = 10;
    uf_array *a = uf_device_array(UF_FLOAT64, 1, &n, UF_ORDER_C, SIM, &err);
    uf_assert_ok(a != NULL, &err);
    assert_null(uf_device_array(UF_FLOAT64, 1, &n, UF_ORDER_C, SIM, &err));
    assert_int_equal(err.code, UF_ERR_INTERNAL);
    assert_non_null(strstr(err.message, "which it handed out before and is "
                                        "still in use"));
    uf_array_release(a); /* freed once, by its owner */
    assert_int_equal(uf_cuda_memory_take_error(SIM, &err), 0);
}

static void double_free_reported(void **state)
{
    (void)state;
    uf_error err;
    uf_cuda_memory_manager m = bad();
    m.memfree = double_free;
    uf_assert_ok(uf_cuda_set_memory_manager(SIM, &m, &err) == 0, &err);
    int64_t n = 10;
    uf_array *a = uf_device_array(UF_FLOAT64, 1, &n, UF_ORDER_C, SIM, &err);
    uf_assert_ok(a != NULL, &err);
    size_t failed = stats().failed_frees;
    uf_array_release(a);
    assert_int_equal(stats().failed_frees, failed + 1);
    assert_int_equal(uf_cuda_memory_take_error(SIM, &err), UF_ERR_INVALID);
    assert_string_equal(err.message, "memory manager 'bad': memfree: second "
                                     "cuMemFree: CUDA_ERROR_INVALID_VALUE");
    assert_int_equal(uf_cuda_memory_take_error(SIM, &err), 0);
}

#define T(f) cmocka_unit_test_teardown(f, teardown)

int main(void)
{
    SIM = cuda_test_target();
    uf_error err;
    if ((ctx = uf_context_new(&err)) == NULL ||
        (mod = uf_module_load(ctx, UF_TEST_DATA_DIR "/../kernels/cuda/emm.py",
                              &err)) == NULL) {
        fprintf(stderr, "%s\n", err.message);
        return 1;
    }
    const struct CMUnitTest tests[] = {
        T(env_manager),        T(pool_full_path),
        T(pool_stream_order),  T(limit_full_path),
        T(limit_fails_on_demand), T(refused_tables),
        T(null_without_error), T(handed_out_twice),
        T(double_free_reported),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    uf_module_free(mod);
    uf_context_free(ctx);
    return rc;
}
