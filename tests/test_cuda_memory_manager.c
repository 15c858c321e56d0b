/* The default CUDA memory manager (targets/cuda/cuda_mm_default.c) on
 * cudasim with a 1 MiB device (or a GPU under UFJIT_TEST_CUDA_TARGET=cuda):
 * Numba's deferred deallocation, its count and ratio thresholds (from the
 * environment: tests/cmake/emm.cmake runs this again with others),
 * flush-and-retry on out-of-memory, nested defer_cleanup, a failed free
 * reported without cancelling the others, pinned and mapped arrays, and
 * choosing a manager only before the first allocation. Every test ends
 * with the manager reset, which fails while anything is still allocated,
 * and, on cudasim, with the whole device free again. */
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

#include "cuda_test_target.h"
#include "targets/cuda/cu_driver.h"
#include "targets/cuda/cuda_mm.h"

static const char *SIM;
static size_t total;  /* the device's memory */
static long max_count = 10;
static double ratio = 0.2;

static uf_cuda_memory_stats stats(void)
{
    uf_error err;
    uf_cuda_memory_stats s;
    uf_assert_ok(uf_cuda_memory_stats_get(SIM, &s, &err) == 0, &err);
    return s;
}

static size_t device_free(void)
{
    uf_error err;
    size_t f, t;
    uf_assert_ok(uf_cuda_memory_info(SIM, &f, &t, &err) == 0, &err);
    return f;
}

static uf_array *dev(int64_t bytes)
{
    uf_error err;
    uf_array *a = uf_device_array(UF_UINT8, 1, &bytes, UF_ORDER_C, SIM, &err);
    uf_assert_ok(a != NULL, &err);
    return a;
}

/* nothing allocated, nothing pending, no error left over */
static int teardown(void **state)
{
    (void)state;
    uf_error err;
    if (uf_cuda_memory_flush(SIM, &err) != 0 ||
        uf_cuda_memory_reset(SIM, &err) != 0) {
        fprintf(stderr, "teardown: %s\n", err.message);
        return -1;
    }
    uf_cuda_memory_stats s;
    if (uf_cuda_memory_stats_get(SIM, &s, &err) != 0 ||
        s.live_allocations != 0 || s.pending_count != 0 ||
        s.defer_depth != 0) {
        fprintf(stderr, "teardown: %zu live, %zu pending, depth %d\n",
                s.live_allocations, s.pending_count, s.defer_depth);
        return -1;
    }
    if (!cuda_test_on_gpu && device_free() != total) {
        fprintf(stderr, "teardown: %zu of %zu bytes free\n", device_free(),
                total);
        return -1;
    }
    return 0;
}

/* More than COUNT queued frees flush the queue, oldest first. */
static void count_threshold(void **state)
{
    (void)state;
    uf_array *a[64];
    assert_true(max_count < 60);
    size_t free0 = device_free();
    for (long i = 0; i <= max_count; i++)
        a[i] = dev(256);
    uf_cuda_memory_stats s0 = stats();
    assert_int_equal(s0.live_allocations, (size_t)max_count + 1);
    for (long i = 0; i < max_count; i++) {
        uf_array_release(a[i]);
        assert_int_equal(stats().pending_count, (size_t)i + 1);
    }
    /* queued, not freed: the device still holds them */
    if (!cuda_test_on_gpu)
        assert_int_equal(device_free(), free0 - 256 * ((size_t)max_count + 1));
    uf_array_release(a[max_count]); /* one more than the limit */
    uf_cuda_memory_stats s = stats();
    assert_int_equal(s.pending_count, 0);
    assert_int_equal(s.pending_bytes, 0);
    assert_int_equal(s.flushes, s0.flushes + 1);
    assert_int_equal(s.live_allocations, 0);
    if (!cuda_test_on_gpu)
        assert_int_equal(device_free(), free0);
}

/* More than RATIO x total bytes queued flush it too. */
static void ratio_threshold(void **state)
{
    (void)state;
    size_t limit = (size_t)((double)total * ratio);
    /* three thirds of just over half the limit each: two stay under */
    int64_t part = (int64_t)(limit / 2 / 256 * 256);
    assert_true(part > 0);
    uf_array *a = dev(part), *b = dev(part), *c = dev(part);
    size_t flushes = stats().flushes;
    uf_array_release(a);
    uf_array_release(b);
    uf_cuda_memory_stats s = stats();
    assert_int_equal(s.pending_count, 2);
    assert_int_equal(s.pending_bytes, 2 * (size_t)part);
    assert_int_equal(s.flushes, flushes);
    uf_array_release(c);
    s = stats();
    assert_int_equal(s.pending_count, 0);
    assert_int_equal(s.flushes, flushes + 1);
}

/* An allocation that finds no memory flushes the queue and tries once
 * more; with cleanup deferred it cannot, and reports out-of-memory. */
static void oom_flush_and_retry(void **state)
{
    (void)state;
    if (cuda_test_on_gpu) {
        printf("SKIP part: filling a GPU's memory is left to cudasim\n");
        return;
    }
    uf_error err;
    size_t limit = (size_t)((double)total * ratio);
    int64_t pend = (int64_t)(limit / 256 * 256); /* stays queued */
    if (pend == 0 || (size_t)pend >= total / 2) {
        printf("SKIP: ratio %g leaves no room for this test\n", ratio);
        return;
    }
    uf_array *queued = dev(pend);
    /* the rest of the device, less what a third allocation needs */
    int64_t need = 4096;
    int64_t fill = (int64_t)device_free() - need / 2;
    fill = fill / 256 * 256;
    uf_array *big = dev(fill);
    uf_array_release(queued);
    assert_int_equal(stats().pending_count, 1);

    assert_int_equal(uf_cuda_defer_cleanup_begin(SIM, &err), 0);
    int64_t n = need;
    uf_array *x = uf_device_array(UF_UINT8, 1, &n, UF_ORDER_C, SIM, &err);
    assert_null(x);
    assert_int_equal(err.code, UF_ERR_NOMEM);
    assert_non_null(strstr(err.message, "cuMemAlloc"));
    assert_int_equal(stats().pending_count, 1); /* deferred: kept */
    assert_int_equal(uf_cuda_defer_cleanup_end(SIM, &err), 0);

    size_t flushes = stats().flushes;
    x = dev(need); /* fails, flushes, succeeds */
    uf_cuda_memory_stats s = stats();
    assert_int_equal(s.pending_count, 0);
    assert_int_equal(s.flushes, flushes + 1);
    uf_array_release(x);
    uf_array_release(big);
}

/* defer_cleanup nests; nothing is freed until the outermost end, and the
 * end itself frees nothing (Numba's rule: the next free does). */
static void nested_defer(void **state)
{
    (void)state;
    uf_error err;
    uf_array *a[64];
    long n = max_count + 5;
    for (long i = 0; i < n; i++)
        a[i] = dev(512);
    size_t flushes = stats().flushes;
    assert_int_equal(uf_cuda_defer_cleanup_begin(SIM, &err), 0);
    assert_int_equal(uf_cuda_defer_cleanup_begin(SIM, &err), 0);
    assert_int_equal(stats().defer_depth, 2);
    for (long i = 0; i < n - 1; i++)
        uf_array_release(a[i]);
    assert_int_equal(stats().pending_count, (size_t)n - 1);
    /* an explicit flush does nothing either */
    assert_int_equal(uf_cuda_memory_flush(SIM, &err), 0);
    assert_int_equal(stats().pending_count, (size_t)n - 1);
    /* nor does a reset (refused), nor may the manager change */
    assert_int_equal(uf_cuda_memory_reset(SIM, &err), UF_ERR_INVALID);
    assert_int_equal(uf_cuda_defer_cleanup_end(SIM, &err), 0);
    assert_int_equal(stats().pending_count, (size_t)n - 1);
    assert_int_equal(uf_cuda_defer_cleanup_end(SIM, &err), 0);
    assert_int_equal(stats().defer_depth, 0);
    assert_int_equal(stats().pending_count, (size_t)n - 1);
    assert_int_equal(stats().flushes, flushes);
    uf_array_release(a[n - 1]);
    assert_int_equal(stats().pending_count, 0);
    assert_int_equal(stats().flushes, flushes + 1);
    /* an end without a begin */
    assert_int_equal(uf_cuda_defer_cleanup_end(SIM, &err), UF_ERR_INVALID);
    assert_non_null(strstr(err.message, "without a matching"));
}

/* A free that fails (here: the memory was freed behind the manager's
 * back) is reported once, and the other queued frees still happen. */
static void failed_free_reported(void **state)
{
    (void)state;
    uf_error err;
    uf_array *a = dev(256), *b = dev(256), *c = dev(256);
    uf__cu_dptr pb = (uf__cu_dptr)(uintptr_t)uf_array_data(b);
    size_t failed = stats().failed_frees;
    uf_array_release(a);
    uf_array_release(b);
    uf_array_release(c);
    /* all three queued (the count limit is above 3, or they flushed) */
    if (stats().pending_count < 3) {
        printf("SKIP part: the count limit flushed them\n");
        return;
    }
    const uf__cu_driver *drv =
        cuda_test_on_gpu ? uf__cu_driver_real(&err) : uf__cu_driver_sim();
    assert_int_equal(drv->mem_free(pb), 0);
    assert_int_equal(uf_cuda_memory_take_error(SIM, &err), 0);
    assert_int_equal(uf_cuda_memory_flush(SIM, &err), UF_ERR_INVALID);
    assert_non_null(strstr(err.message, "cuMemFree"));
    assert_non_null(strstr(err.message, "CUDA_ERROR_INVALID_VALUE"));
    uf_cuda_memory_stats s = stats();
    assert_int_equal(s.failed_frees, failed + 1);
    assert_int_equal(s.pending_count, 0);
    /* reported once */
    assert_int_equal(uf_cuda_memory_take_error(SIM, &err), 0);
}

/* Pinned and mapped arrays come from the manager too: unmapped pinned
 * memory counts 0 bytes against the ratio, mapped its size. */
static void pinned_and_mapped(void **state)
{
    (void)state;
    uf_error err;
    int64_t n = 1000;
    uf_array *p = uf_pinned_array(UF_FLOAT64, 1, &n, UF_ORDER_C, SIM, &err);
    uf_assert_ok(p != NULL, &err);
    uf_array *m = uf_mapped_array(UF_FLOAT64, 1, &n, UF_ORDER_C, SIM, &err);
    uf_assert_ok(m != NULL, &err);
    assert_int_equal(stats().live_allocations, 2);
    assert_int_equal(stats().live_bytes, 16000);
    ((double *)uf_array_data(p))[999] = 1.5; /* host memory */
    ((double *)uf_array_data(m))[999] = 2.5;
    uf_array_release(p);
    uf_cuda_memory_stats s = stats();
    assert_int_equal(s.pending_count, 1);
    assert_int_equal(s.pending_bytes, 0);
    uf_array_release(m);
    s = stats();
    if (max_count >= 2 && 8000 <= (size_t)((double)total * ratio)) {
        assert_int_equal(s.pending_count, 2);
        assert_int_equal(s.pending_bytes, 8000);
    }
    assert_int_equal(s.live_allocations, 0);
}

/* A manager is chosen before the first allocation (or after a reset). */
static void set_after_first_allocation(void **state)
{
    (void)state;
    uf_error err;
    uf_array *a = dev(256);
    assert_int_equal(uf_cuda_set_memory_manager(SIM, NULL, &err),
                     UF_ERR_INVALID);
    assert_non_null(strstr(err.message, "before the first allocation"));
    /* a reset is refused while memory is in use */
    assert_int_equal(uf_cuda_memory_reset(SIM, &err), UF_ERR_INVALID);
    assert_non_null(strstr(err.message, "1 allocations (256 bytes)"));
    uf_array_release(a);
    uf_assert_ok(uf_cuda_memory_reset(SIM, &err) == 0, &err);
    uf_assert_ok(uf_cuda_set_memory_manager(SIM, NULL, &err) == 0, &err);
    assert_string_equal(stats().manager, "default");
}

/* A reduction's scratch buffers are the manager's too, and a reset gives
 * the legacy stream's back. */
static void scratch_through_manager(void **state)
{
    (void)state;
    uf_error err;
    uf_context *c = uf_context_new(&err);
    uf_module *m = uf_module_load(c, UF_TEST_DATA_DIR "/../kernels/cuda/emm.py",
                                  &err);
    uf_assert_ok(m != NULL, &err);
    uf_func *f = uf_module_get(m, "vadd", &err);
    uf_assert_ok(f != NULL, &err);
    int64_t n = 5000;
    uf_array *h = uf_empty(UF_FLOAT64, 1, &n, UF_ORDER_C, &err);
    for (int64_t i = 0; i < n; i++)
        ((double *)uf_array_data(h))[i] = (double)i;
    uf_array *d = uf_to_device(h, SIM, NULL, &err);
    uf_assert_ok(d != NULL, &err);
    uf_call_options o = {.size = sizeof o, .target = SIM,
                         .axes_mode = UF_AXES_ALL};
    uf_array *r = NULL;
    uf_assert_ok(uf_reduce(f, d, &r, &o, &err) == 0, &err);
    if (uf_array_device(r).type == UF_DEVICE_CUDA) {
        uf_array *hr = uf_copy_to_host(r, NULL, NULL, &err);
        assert_true(*(double *)uf_array_data(hr) == (double)(n * (n - 1) / 2));
        uf_array_release(hr);
    } else
        assert_true(*(double *)uf_array_data(r) == (double)(n * (n - 1) / 2));
    uf_array_release(r);
    uf_array_release(d);
    uf_array_release(h);
    /* the legacy stream's scratch is live until the reset (teardown) */
    assert_true(stats().live_allocations > 0);
    uf_module_free(m);
    uf_context_free(c);
}

/* mempin/memunpin and the IPC methods through the manager */
static void pin_and_ipc(void **state)
{
    (void)state;
    uf_error err;
    const uf__cuda_rt *rt = uf__cuda_rt_get(SIM, &err);
    uf_assert_ok(rt != NULL, &err);
    size_t n = 8192;
    void *host = aligned_alloc(4096, n);
    uf__cu_dptr d = 0;
    uf_assert_ok(uf__cuda_mm_pin(rt, host, n, UF_CUDA_MM_HOST_MAPPED, NULL,
                                 &d, &err) == 0, &err);
    assert_true(d != 0);
    assert_int_equal(stats().live_allocations, 1);
    /* pinning it twice is the driver's error */
    uf__cu_dptr d2;
    assert_int_not_equal(uf__cuda_mm_pin(rt, host, n, 0, NULL, &d2, &err), 0);
    assert_non_null(strstr(err.message, "cuMemHostRegister"));
    uf_assert_ok(uf__cuda_mm_unpin(rt, host, n, NULL, &err) == 0, &err);
    assert_int_equal(stats().live_allocations, 0);
    assert_int_equal(uf__cuda_mm_unpin(rt, host, n, NULL, &err),
                     UF_ERR_INVALID);
    assert_non_null(strstr(err.message, "was not pinned"));
    free(host);

    uf_array *a = dev(256);
    uf__cu_dptr p = (uf__cu_dptr)(uintptr_t)uf_array_data(a);
    uf_cuda_ipc_handle h;
    size_t off = 99;
    uf_assert_ok(uf__cuda_mm_ipc_get(rt, p, 256, NULL, &h, &off, &err) == 0,
                 &err);
    assert_int_equal(off, 0);
    if (!cuda_test_on_gpu) { /* cudasim opens its handles in-process */
        uf__cu_dptr m = 0;
        uf_assert_ok(uf__cuda_mm_ipc_open(rt, &h, NULL, &m, &err) == 0,
                     &err);
        assert_true(m == p);
        uf_assert_ok(uf__cuda_mm_ipc_close(rt, m, NULL, &err) == 0, &err);
    }
    uf_array_release(a);
}

#define T(f) cmocka_unit_test_teardown(f, teardown)

int main(void)
{
    const char *t = getenv("UFJIT_TEST_CUDA_TARGET");
    if (t == NULL || strcmp(t, "cuda") != 0)
        setenv("UFJIT_CUDASIM_MEMORY", "1M", 1);
    SIM = cuda_test_target();
    const char *c = getenv("UFJIT_CUDA_MAX_PENDING_DEALLOCS_COUNT");
    const char *r = getenv("UFJIT_CUDA_MAX_PENDING_DEALLOCS_RATIO");
    if (c && *c)
        max_count = atol(c);
    if (r && *r)
        ratio = atof(r);
    uf_error err;
    size_t f;
    if (uf_cuda_memory_info(SIM, &f, &total, &err) != 0) {
        printf("SKIP: %s\n", err.message);
        return 77;
    }
    const struct CMUnitTest tests[] = {
        T(count_threshold),     T(ratio_threshold),
        T(oom_flush_and_retry), T(nested_defer),
        T(failed_free_reported), T(pinned_and_mapped),
        T(set_after_first_allocation), T(scratch_through_manager),
        T(pin_and_ipc),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
