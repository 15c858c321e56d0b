/* The real driver table: libcuda.so.1 loaded with dlopen, never linked
 * (linking -lcuda makes a program fail to start where no driver is), each
 * entry the dlsym'd Driver API function. Loaded once per process; a
 * failure is remembered with its reason and reported again without
 * retrying, as every CUDA call asks.
 *
 * The order of the steps makes the reason the useful one: cuInit runs
 * before all but the five symbols it needs, so the toolkit's stub library
 * (which answers 34 to everything) or a driver too old for the table is
 * reported as such rather than as "lacks cuIpcOpenMemHandle_v2". */
#include <dlfcn.h>
#include <limits.h>
#include <link.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error_internal.h"
#include "targets/cuda/cu_driver_internal.h"

/* cuOccupancyMaxPotentialBlockSize as libcuda exports it: the table's
 * entry is a wrapper passing NULL for the block-size callback. */
typedef uf__cu_result (*cu_occupancy_fn)(int *min_grid, int *block,
                                         uf__cu_func f,
                                         size_t (*dyn_shared)(int block),
                                         size_t shared_bytes,
                                         int block_limit);

typedef struct real_driver {
    uf__cu_driver table;
    cu_occupancy_fn occupancy;
    void *lib;            /* dlopen handle, kept once cuInit has run */
    char path[PATH_MAX];  /* where the loader found it */
    uf_error failure;     /* the remembered reason */
} real_driver;

/* A Driver API symbol and the slot (a function pointer in real_driver)
 * it fills. `older`: the name to fall back to on drivers that predate the
 * _v2 cuda.h maps to (cuEventElapsedTime_v2 came with CUDA 12.8). */
typedef struct cu_symbol {
    const char *name;
    size_t slot;
    const char *older;
} cu_symbol;

#define SLOT(field) offsetof(real_driver, table.field)

/* What cuInit and reporting its failure need: resolved first. */
static const cu_symbol start_symbols[] = {
    {"cuInit", SLOT(init), NULL},
    {"cuDriverGetVersion", SLOT(driver_version), NULL},
    {"cuGetErrorName", SLOT(get_error_name), NULL},
    {"cuGetErrorString", SLOT(get_error_string), NULL},
    {"cuDeviceGetCount", SLOT(device_count), NULL},
};

/* The rest, with the names cuda.h (CUDA 13) maps each call to. */
static const cu_symbol symbols[] = {
    {"cuDeviceGet", SLOT(device_get), NULL},
    {"cuDeviceGetName", SLOT(device_name), NULL},
    {"cuDeviceGetAttribute", SLOT(device_attribute), NULL},
    {"cuDeviceTotalMem_v2", SLOT(device_total_mem), NULL},
    {"cuDevicePrimaryCtxRetain", SLOT(primary_ctx_retain), NULL},
    {"cuDevicePrimaryCtxRelease_v2", SLOT(primary_ctx_release), NULL},
    {"cuCtxSetCurrent", SLOT(ctx_set_current), NULL},
    {"cuCtxGetCurrent", SLOT(ctx_get_current), NULL},
    {"cuCtxSynchronize", SLOT(ctx_synchronize), NULL},
    {"cuModuleLoadData", SLOT(module_load_data), NULL},
    {"cuModuleUnload", SLOT(module_unload), NULL},
    {"cuModuleGetFunction", SLOT(module_get_function), NULL},
    {"cuFuncGetAttribute", SLOT(func_get_attribute), NULL},
    {"cuLaunchKernel", SLOT(launch_kernel), NULL},
    {"cuOccupancyMaxPotentialBlockSize", offsetof(real_driver, occupancy),
     NULL},
    {"cuMemAlloc_v2", SLOT(mem_alloc), NULL},
    {"cuMemFree_v2", SLOT(mem_free), NULL},
    {"cuMemGetInfo_v2", SLOT(mem_get_info), NULL},
    {"cuMemsetD8_v2", SLOT(memset_d8), NULL},
    {"cuMemsetD8Async", SLOT(memset_d8_async), NULL},
    {"cuMemcpyHtoD_v2", SLOT(memcpy_htod), NULL},
    {"cuMemcpyDtoH_v2", SLOT(memcpy_dtoh), NULL},
    {"cuMemcpyDtoD_v2", SLOT(memcpy_dtod), NULL},
    {"cuMemcpyHtoDAsync_v2", SLOT(memcpy_htod_async), NULL},
    {"cuMemcpyDtoHAsync_v2", SLOT(memcpy_dtoh_async), NULL},
    {"cuMemcpyDtoDAsync_v2", SLOT(memcpy_dtod_async), NULL},
    {"cuPointerGetAttribute", SLOT(pointer_get_attribute), NULL},
    {"cuMemHostAlloc", SLOT(mem_host_alloc), NULL},
    {"cuMemFreeHost", SLOT(mem_free_host), NULL},
    {"cuMemHostGetDevicePointer_v2", SLOT(mem_host_get_device_pointer),
     NULL},
    {"cuMemHostRegister_v2", SLOT(mem_host_register), NULL},
    {"cuMemHostUnregister", SLOT(mem_host_unregister), NULL},
    {"cuStreamCreate", SLOT(stream_create), NULL},
    {"cuStreamDestroy_v2", SLOT(stream_destroy), NULL},
    {"cuStreamSynchronize", SLOT(stream_synchronize), NULL},
    {"cuStreamQuery", SLOT(stream_query), NULL},
    {"cuStreamWaitEvent", SLOT(stream_wait_event), NULL},
    {"cuEventCreate", SLOT(event_create), NULL},
    {"cuEventDestroy_v2", SLOT(event_destroy), NULL},
    {"cuEventRecord", SLOT(event_record), NULL},
    {"cuEventQuery", SLOT(event_query), NULL},
    {"cuEventSynchronize", SLOT(event_synchronize), NULL},
    {"cuEventElapsedTime_v2", SLOT(event_elapsed_time), "cuEventElapsedTime"},
    {"cuIpcGetMemHandle", SLOT(ipc_get_mem_handle), NULL},
    {"cuIpcOpenMemHandle_v2", SLOT(ipc_open_mem_handle), NULL},
    {"cuIpcCloseMemHandle", SLOT(ipc_close_mem_handle), NULL},
};

/* The linker (cuda_link.c), needed only by kernels that link foreign
 * code: an entry left NULL where the library lacks it (a test's fake
 * driver), and the link reports which. */
static const cu_symbol link_symbols[] = {
    {"cuLinkCreate_v2", SLOT(link_create), NULL},
    {"cuLinkAddData_v2", SLOT(link_add_data), NULL},
    {"cuLinkAddFile_v2", SLOT(link_add_file), NULL},
    {"cuLinkComplete", SLOT(link_complete), NULL},
    {"cuLinkDestroy", SLOT(link_destroy), NULL},
};

/* dlsym's object pointer is stored into a function pointer slot as bytes,
 * which POSIX makes well defined by requiring the sizes to agree. */
_Static_assert(sizeof(void *) == sizeof(void (*)(void)),
               "function and object pointers differ in size");

enum { UNTRIED, LOADED, FAILED };

static real_driver real;
static atomic_int real_state = UNTRIED;
static pthread_mutex_t real_lock = PTHREAD_MUTEX_INITIALIZER;

static uf__cu_result occupancy_max_block(int *min_grid, int *block,
                                         uf__cu_func f, size_t shared_bytes,
                                         int block_limit)
{
    return real.occupancy(min_grid, block, f, NULL, shared_bytes,
                          block_limit);
}

/* The name of the missing symbol, or NULL when all of them resolved. */
static const char *resolve(const cu_symbol *list, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        void *sym = dlsym(real.lib, list[i].name);
        if (sym == NULL && list[i].older != NULL)
            sym = dlsym(real.lib, list[i].older);
        if (sym == NULL)
            return list[i].name;
        memcpy((char *)&real + list[i].slot, &sym, sizeof sym);
    }
    return NULL;
}

/* Remembers the reason; every one is "no usable CUDA device here". */
static int fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(real.failure.message, sizeof real.failure.message, fmt, ap);
    va_end(ap);
    real.failure.code = UF_ERR_NO_DEVICE;
    return UF_ERR_NO_DEVICE;
}

/* cuInit's failure as the reason: each code a driver gives for "no GPU
 * here" worded for the person reading it. */
static int fail_init(uf__cu_result rc)
{
    char text[512], call[600];
    uf__cu_error_text(&real.table, rc, text, sizeof text);
    snprintf(call, sizeof call, "cuInit: %s", text);
    switch (rc) {
    case UF__CU_ERROR_STUB_LIBRARY:
        return fail("the CUDA driver %s is the CUDA toolkit's stub library, "
                    "not a driver (%s): install the NVIDIA driver",
                    real.path, call);
    case UF__CU_ERROR_INSUFFICIENT_DRIVER:
    case UF__CU_ERROR_CALL_REQUIRES_NEWER_DRIVER:
        return fail("the CUDA driver %s is too old for ufjit (%s)", real.path,
                    call);
    case UF__CU_ERROR_NO_DEVICE:
        return fail("no CUDA device: the driver %s found none (%s)",
                    real.path, call);
    default:
        return fail("the CUDA driver %s failed to initialise (%s)",
                    real.path, call);
    }
}

/* "13.0" from cuDriverGetVersion's 13000. */
static void version_text(int v, char *buf, size_t size)
{
    snprintf(buf, size, "%d.%d", v / 1000, v % 1000 / 10);
}

static int load(void)
{
    const char *name = getenv("UFJIT_CUDA_DRIVER");
    bool from_env = name != NULL && name[0] != '\0';
    if (!from_env)
        name = "libcuda.so.1";
    real.lib = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (real.lib == NULL) {
        const char *why = dlerror();
        return fail("no CUDA driver: %s%s", why != NULL ? why : name,
                    from_env ? " (the library UFJIT_CUDA_DRIVER names)" : "");
    }
    struct link_map *map = NULL;
    const char *found = name;
    if (dlinfo(real.lib, RTLD_DI_LINKMAP, &map) == 0 && map != NULL &&
        map->l_name != NULL && map->l_name[0] != '\0')
        found = map->l_name;
    snprintf(real.path, sizeof real.path, "%s", found);

    const char *missing = resolve(start_symbols, sizeof start_symbols /
                                                 sizeof start_symbols[0]);
    if (missing != NULL) {
        fail("the CUDA driver %s lacks %s: not a CUDA driver", real.path,
             missing);
        dlclose(real.lib);
        real.lib = NULL;
        return -1;
    }
    /* From here the library stays loaded even when it fails: a driver that
     * has run cuInit may have started threads, which must not outlive its
     * code. */
    uf__cu_result rc = real.table.init(0);
    if (rc != UF__CU_SUCCESS)
        return fail_init(rc);

    int version = 0;
    char have[32], need[32], text[512];
    rc = real.table.driver_version(&version);
    if (rc != UF__CU_SUCCESS)
        return fail("the CUDA driver %s cannot tell its version "
                    "(cuDriverGetVersion: %s)", real.path,
                    uf__cu_error_text(&real.table, rc, text, sizeof text));
    if (version < UF__CU_MIN_DRIVER_VERSION) {
        version_text(version, have, sizeof have);
        version_text(UF__CU_MIN_DRIVER_VERSION, need, sizeof need);
        return fail("the CUDA driver %s is too old: CUDA %s, ufjit needs %s "
                    "or newer", real.path, have, need);
    }

    missing = resolve(symbols, sizeof symbols / sizeof symbols[0]);
    if (missing != NULL)
        return fail("the CUDA driver %s lacks %s (too old, or not NVIDIA's "
                    "libcuda)", real.path, missing);

    for (size_t i = 0; i < sizeof link_symbols / sizeof link_symbols[0]; i++)
        (void)resolve(&link_symbols[i], 1);

    int count = 0;
    rc = real.table.device_count(&count);
    if (rc != UF__CU_SUCCESS)
        return fail("no CUDA device: the driver %s cannot count them "
                    "(cuDeviceGetCount: %s)", real.path,
                    uf__cu_error_text(&real.table, rc, text, sizeof text));
    if (count <= 0)
        return fail("no CUDA device: the driver %s reports %d devices",
                    real.path, count);

    real.table.name = "cuda";
    real.table.image_kind = UF__CU_IMAGE_PTX;
    real.table.occupancy_max_block = occupancy_max_block;
    return 0;
}

const uf__cu_driver *uf__cu_driver_real(uf_error *err)
{
    int state = atomic_load_explicit(&real_state, memory_order_acquire);
    if (state == UNTRIED) {
        pthread_mutex_lock(&real_lock);
        state = atomic_load_explicit(&real_state, memory_order_relaxed);
        if (state == UNTRIED) {
            state = load() == 0 ? LOADED : FAILED;
            atomic_store_explicit(&real_state, state, memory_order_release);
        }
        pthread_mutex_unlock(&real_lock);
    }
    if (state == LOADED)
        return &real.table;
    uf__error_set(err, real.failure.code, "%s", real.failure.message);
    return NULL;
}

const char *uf__cu_driver_real_path(void)
{
    if (atomic_load_explicit(&real_state, memory_order_acquire) != LOADED)
        return NULL;
    return real.path;
}

void uf__cu_driver_real_reset_for_tests(void)
{
    pthread_mutex_lock(&real_lock);
    if (real.lib != NULL)
        dlclose(real.lib);
    memset(&real, 0, sizeof real);
    atomic_store_explicit(&real_state, UNTRIED, memory_order_release);
    pthread_mutex_unlock(&real_lock);
}
