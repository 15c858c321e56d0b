/* cudasim's memory (targets/cudasim/): device memory is host memory
 * tagged as device memory, so a host pointer given where device memory
 * is required is refused, as are ranges past an allocation's end and
 * frees of interior pointers; pinned, registered and IPC-mapped memory;
 * memory accounting with UFJIT_CUDASIM_MEMORY set small (1 MiB, set in
 * main before the simulator reads it) so out-of-memory happens; the
 * driver's init and context rules. */
#include "cudasim_test_util.h"

#define SIM_TOTAL (1u << 20)

static void test_not_initialized_first(void **state)
{
    (void)state;
    /* runs before any setup: the driver wants cuInit first */
    drv = uf__cu_driver_sim();
    int n = -1;
    uf__cu_ctx c;
    CU_EXPECT(UF__CU_ERROR_NOT_INITIALIZED, drv->device_count(&n));
    CU_EXPECT(UF__CU_ERROR_NOT_INITIALIZED, drv->primary_ctx_retain(&c, 0));
    uf__cu_dptr p;
    CU_EXPECT(UF__CU_ERROR_NOT_INITIALIZED, drv->mem_alloc(&p, 16));
    CU_EXPECT(UF__CU_ERROR_INVALID_VALUE, drv->init(1));
    CU_OK(drv->init(0));
    /* initialised, but no context is current on this thread */
    CU_EXPECT(UF__CU_ERROR_INVALID_CONTEXT, drv->mem_alloc(&p, 16));
    CU_OK(drv->device_count(&n));
    assert_int_equal(n, 1);
}

static void test_device_queries(void **state)
{
    (void)state;
    char name[64];
    int v;
    uf__cu_device d;
    assert_string_equal(drv->name, "cudasim");
    assert_int_equal(drv->image_kind, UF__CU_IMAGE_SIM);
    CU_OK(drv->device_get(&d, 0));
    CU_EXPECT(UF__CU_ERROR_INVALID_DEVICE, drv->device_get(&d, 1));
    CU_OK(drv->device_name(name, sizeof name, d));
    assert_string_equal(name, "ufjit cudasim");
    CU_OK(drv->device_attribute(&v, UF__CU_DEV_ATTR_COMPUTE_CAPABILITY_MAJOR, d));
    assert_int_equal(v, 8);
    CU_OK(drv->device_attribute(&v, UF__CU_DEV_ATTR_COMPUTE_CAPABILITY_MINOR, d));
    assert_int_equal(v, 0);
    CU_OK(drv->device_attribute(&v, UF__CU_DEV_ATTR_WARP_SIZE, d));
    assert_int_equal(v, 32);
    CU_OK(drv->device_attribute(&v, UF__CU_DEV_ATTR_MAX_THREADS_PER_BLOCK, d));
    assert_int_equal(v, 1024);
    CU_OK(drv->device_attribute(&v, UF__CU_DEV_ATTR_MAX_SHARED_MEMORY_PER_BLOCK, d));
    assert_int_equal(v, 48 * 1024);
    CU_OK(drv->device_attribute(&v, UF__CU_DEV_ATTR_MULTIPROCESSOR_COUNT, d));
    assert_true(v >= 1);
    CU_EXPECT(UF__CU_ERROR_INVALID_VALUE, drv->device_attribute(&v, 12345, d));
    size_t total;
    CU_OK(drv->device_total_mem(&total, d));
    assert_int_equal(total, SIM_TOTAL);
    int version;
    CU_OK(drv->driver_version(&version));
    assert_true(version >= 12000);
    const char *s;
    CU_OK(drv->get_error_name(UF__CU_ERROR_OUT_OF_MEMORY, &s));
    assert_string_equal(s, "CUDA_ERROR_OUT_OF_MEMORY");
    CU_OK(drv->get_error_string(UF__CU_ERROR_INVALID_VALUE, &s));
    assert_string_equal(s, "invalid argument");
    CU_EXPECT(UF__CU_ERROR_INVALID_VALUE, drv->get_error_name(12345, &s));
    uf__cu_ctx c;
    CU_OK(drv->ctx_get_current(&c));
    assert_non_null(c);
}

/* A host pointer is not device memory, wherever it is passed. */
static void test_host_pointer_refused(void **state)
{
    (void)state;
    static char host[256];
    char back[256];
    uf__cu_dptr as_dev = (uf__cu_dptr)(uintptr_t)host;
    uf__cu_dptr d;
    CU_OK(drv->mem_alloc(&d, 256));
    CU_EXPECT(UF__CU_ERROR_INVALID_VALUE, drv->memcpy_htod(as_dev, back, 16));
    CU_EXPECT(UF__CU_ERROR_INVALID_VALUE, drv->memcpy_dtoh(back, as_dev, 16));
    CU_EXPECT(UF__CU_ERROR_INVALID_VALUE, drv->memcpy_dtod(d, as_dev, 16));
    CU_EXPECT(UF__CU_ERROR_INVALID_VALUE, drv->memcpy_dtod(as_dev, d, 16));
    CU_EXPECT(UF__CU_ERROR_INVALID_VALUE, drv->memset_d8(as_dev, 0, 16));
    CU_EXPECT(UF__CU_ERROR_INVALID_VALUE,
              drv->memcpy_htod_async(as_dev, back, 16, NULL));
    CU_EXPECT(UF__CU_ERROR_INVALID_VALUE,
              drv->memset_d8_async(as_dev, 0, 16, NULL));
    CU_EXPECT(UF__CU_ERROR_INVALID_VALUE, drv->mem_free(as_dev));
    CU_EXPECT(UF__CU_ERROR_INVALID_VALUE, drv->memset_d8(0, 0, 16));
    unsigned type = 0;
    CU_EXPECT(UF__CU_ERROR_INVALID_VALUE,
              drv->pointer_get_attribute(&type, UF__CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
                                         as_dev));
    CU_OK(drv->pointer_get_attribute(&type, UF__CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
                                     d + 100));
    assert_int_equal(type, UF__CU_MEMORYTYPE_DEVICE);
    CU_OK(drv->mem_free(d));
}

static void test_ranges_and_interior(void **state)
{
    (void)state;
    unsigned char src[1000], back[1000];
    for (int i = 0; i < 1000; i++)
        src[i] = (unsigned char)(i * 7);
    uf__cu_dptr d;
    CU_OK(drv->mem_alloc(&d, 1000));
    assert_int_equal(d % 256, 0);
    CU_OK(drv->memcpy_htod(d, src, 1000));
    /* interior pointers are device memory, as on a GPU */
    CU_OK(drv->memset_d8(d + 10, 0xee, 5));
    CU_OK(drv->memcpy_dtoh(back, d, 1000));
    for (int i = 0; i < 1000; i++)
        assert_int_equal(back[i], i >= 10 && i < 15 ? 0xee : src[i]);
    CU_OK(drv->memcpy_dtoh(back, d + 999, 1));
    assert_int_equal(back[0], src[999]);
    /* past the end, from the start or from inside */
    CU_EXPECT(UF__CU_ERROR_INVALID_VALUE, drv->memcpy_htod(d, src, 1001));
    CU_EXPECT(UF__CU_ERROR_INVALID_VALUE, drv->memcpy_dtoh(back, d + 1, 1000));
    CU_EXPECT(UF__CU_ERROR_INVALID_VALUE, drv->memset_d8(d + 999, 0, 2));
    CU_EXPECT(UF__CU_ERROR_INVALID_VALUE, drv->memset_d8(d + 1000, 0, 1));
    CU_EXPECT(UF__CU_ERROR_INVALID_VALUE,
              drv->memcpy_dtod(d, d + 500, SIZE_MAX));
    /* dtod within one allocation, overlapping */
    CU_OK(drv->memcpy_dtod(d + 1, d, 100));
    CU_OK(drv->memcpy_dtoh(back, d, 101));
    assert_int_equal(back[1], src[0]);
    /* frees: interior and twice are errors, not crashes */
    CU_EXPECT(UF__CU_ERROR_INVALID_VALUE, drv->mem_free(d + 8));
    CU_OK(drv->mem_free(d));
    CU_EXPECT(UF__CU_ERROR_INVALID_VALUE, drv->mem_free(d));
    CU_EXPECT(UF__CU_ERROR_INVALID_VALUE, drv->memset_d8(d, 0, 1));
    CU_EXPECT(UF__CU_ERROR_INVALID_VALUE, drv->mem_alloc(&d, 0));
}

static void test_accounting_and_oom(void **state)
{
    (void)state;
    size_t free0, total;
    CU_OK(drv->mem_get_info(&free0, &total));
    assert_int_equal(total, SIM_TOTAL);
    assert_int_equal(free0, SIM_TOTAL);
    uf__cu_dptr a, b, c;
    CU_OK(drv->mem_alloc(&a, 1000)); /* counted as 1024: 256-byte units */
    size_t f;
    CU_OK(drv->mem_get_info(&f, &total));
    assert_int_equal(f, SIM_TOTAL - 1024);
    CU_EXPECT(UF__CU_ERROR_OUT_OF_MEMORY, drv->mem_alloc(&b, 2u << 20));
    CU_OK(drv->mem_alloc(&b, 512u << 10));
    CU_EXPECT(UF__CU_ERROR_OUT_OF_MEMORY, drv->mem_alloc(&c, 600u << 10));
    CU_EXPECT(UF__CU_ERROR_OUT_OF_MEMORY, drv->mem_alloc(&c, SIZE_MAX));
    CU_OK(drv->mem_free(b));
    CU_OK(drv->mem_alloc(&c, 600u << 10));
    CU_OK(drv->mem_get_info(&f, &total));
    assert_int_equal(f, SIM_TOTAL - 1024 - (600u << 10));
    CU_OK(drv->mem_free(c));
    CU_OK(drv->mem_free(a));
    CU_OK(drv->mem_get_info(&f, &total));
    assert_int_equal(f, SIM_TOTAL);
    /* what the test leaves is freed by the context's release */
    CU_OK(drv->mem_alloc(&a, 4096));
}

static void test_pinned_and_registered(void **state)
{
    (void)state;
    void *h = NULL;
    CU_EXPECT(UF__CU_ERROR_INVALID_VALUE, drv->mem_host_alloc(&h, 64, 0x80));
    CU_OK(drv->mem_host_alloc(&h, 4096, UF__CU_MEMHOSTALLOC_DEVICEMAP));
    unsigned type = 0;
    CU_OK(drv->pointer_get_attribute(&type, UF__CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
                                     (uf__cu_dptr)(uintptr_t)h + 5));
    assert_int_equal(type, UF__CU_MEMORYTYPE_HOST);
    uf__cu_dptr dh;
    CU_OK(drv->mem_host_get_device_pointer(&dh, h, 0));
    /* mapped: the device may use it, within its extent */
    CU_OK(drv->memset_d8(dh, 0x5a, 4096));
    assert_int_equal(((unsigned char *)h)[4095], 0x5a);
    CU_EXPECT(UF__CU_ERROR_INVALID_VALUE, drv->memset_d8(dh, 0, 4097));
    /* pinned memory is not device memory to free, nor the reverse */
    CU_EXPECT(UF__CU_ERROR_INVALID_VALUE, drv->mem_free(dh));
    CU_OK(drv->mem_free_host(h));
    CU_EXPECT(UF__CU_ERROR_INVALID_VALUE, drv->mem_free_host(h));

    static char buf[8192];
    CU_OK(drv->mem_host_register(buf, 4096, UF__CU_MEMHOSTREGISTER_DEVICEMAP));
    CU_EXPECT(UF__CU_ERROR_HOST_MEMORY_ALREADY_REGISTERED,
              drv->mem_host_register(buf + 100, 10, 0));
    CU_OK(drv->mem_host_get_device_pointer(&dh, buf + 8, 0));
    assert_int_equal(dh, (uf__cu_dptr)(uintptr_t)(buf + 8));
    CU_OK(drv->pointer_get_attribute(&type, UF__CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
                                     dh));
    assert_int_equal(type, UF__CU_MEMORYTYPE_HOST);
    uf__cu_dptr d;
    CU_OK(drv->mem_alloc(&d, 64));
    CU_EXPECT(UF__CU_ERROR_INVALID_VALUE,
              drv->mem_host_get_device_pointer(&dh, (void *)(uintptr_t)d, 0));
    CU_EXPECT(UF__CU_ERROR_HOST_MEMORY_NOT_REGISTERED,
              drv->mem_host_unregister(buf + 8));
    CU_OK(drv->mem_host_unregister(buf));
    CU_EXPECT(UF__CU_ERROR_HOST_MEMORY_NOT_REGISTERED,
              drv->mem_host_unregister(buf));
    CU_EXPECT(UF__CU_ERROR_INVALID_VALUE,
              drv->memset_d8((uf__cu_dptr)(uintptr_t)buf, 0, 1));
    CU_OK(drv->mem_free(d));
    /* left allocated: the context's release frees it */
    CU_OK(drv->mem_host_alloc(&h, 100, 0));
}

static void test_ipc(void **state)
{
    (void)state;
    uf__cu_dptr d, m;
    CU_OK(drv->mem_alloc(&d, 512));
    CU_OK(drv->memset_d8(d, 7, 512));
    uf__cu_ipc_handle h;
    CU_OK(drv->ipc_get_mem_handle(&h, d + 16));
    CU_OK(drv->ipc_open_mem_handle(&m, h, UF__CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS));
    assert_int_equal(m, d);
    /* freed, the mapping keeps it alive until closed */
    CU_OK(drv->mem_free(d));
    CU_EXPECT(UF__CU_ERROR_INVALID_VALUE, drv->mem_free(d));
    unsigned char b = 0;
    CU_OK(drv->memcpy_dtoh(&b, m + 3, 1));
    assert_int_equal(b, 7);
    uf__cu_dptr again;
    CU_EXPECT(UF__CU_ERROR_INVALID_HANDLE, drv->ipc_open_mem_handle(&again, h, 0));
    CU_OK(drv->ipc_close_mem_handle(m));
    CU_EXPECT(UF__CU_ERROR_INVALID_VALUE, drv->ipc_close_mem_handle(m));
    CU_EXPECT(UF__CU_ERROR_INVALID_VALUE, drv->memcpy_dtoh(&b, m, 1));
    /* a handle that is not one */
    uf__cu_ipc_handle junk;
    memset(&junk, 0x41, sizeof junk);
    CU_EXPECT(UF__CU_ERROR_INVALID_VALUE, drv->ipc_open_mem_handle(&again, junk, 0));
    static char host[16];
    CU_EXPECT(UF__CU_ERROR_INVALID_VALUE,
              drv->ipc_get_mem_handle(&h, (uf__cu_dptr)(uintptr_t)host));
}

static void test_contexts(void **state)
{
    (void)state;
    uf__cu_ctx c, c2;
    CU_OK(drv->ctx_get_current(&c));
    CU_OK(drv->primary_ctx_retain(&c2, 0));
    assert_ptr_equal(c, c2);
    CU_EXPECT(UF__CU_ERROR_INVALID_DEVICE, drv->primary_ctx_retain(&c2, 1));
    CU_OK(drv->primary_ctx_release(0));
    CU_OK(drv->ctx_set_current(NULL));
    uf__cu_dptr d;
    CU_EXPECT(UF__CU_ERROR_INVALID_CONTEXT, drv->mem_alloc(&d, 8));
    CU_EXPECT(UF__CU_ERROR_INVALID_CONTEXT, drv->ctx_synchronize());
    CU_EXPECT(UF__CU_ERROR_INVALID_CONTEXT,
              drv->ctx_set_current((uf__cu_ctx)(uintptr_t)0x1234));
    CU_OK(drv->ctx_set_current(c));
    CU_OK(drv->mem_alloc(&d, 8));
    CU_OK(drv->mem_free(d));
    CU_OK(drv->ctx_synchronize());
}

int main(void)
{
    setenv("UFJIT_CUDASIM_MEMORY", "1M", 1);
    const struct CMUnitTest first[] = {
        cmocka_unit_test(test_not_initialized_first),
    };
    const struct CMUnitTest tests[] = {
        SIM_TEST(test_device_queries),     SIM_TEST(test_host_pointer_refused),
        SIM_TEST(test_ranges_and_interior), SIM_TEST(test_accounting_and_oom),
        SIM_TEST(test_pinned_and_registered), SIM_TEST(test_ipc),
        SIM_TEST(test_contexts),
    };
    int failed = cmocka_run_group_tests_name("cudasim_init", first, NULL, NULL);
    return failed + cmocka_run_group_tests_name("cudasim_memory", tests, NULL,
                                                NULL);
}
