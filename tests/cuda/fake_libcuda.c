/* A fake libcuda for tests: a shared object exporting the Driver API
 * symbols the real table (targets/cuda/cu_driver_real.c) resolves, so
 * that loader and every path above it run here, where no GPU is. Loaded
 * through UFJIT_CUDA_DRIVER=.../libfake_cuda.so, as SQLite tests its pager
 * through a VFS shim behind the production table.
 *
 * Device memory is malloc'd host memory the fake keeps a list of, copies
 * are memcpy, so round trips are real; a pointer the fake did not hand out
 * is refused with CUDA_ERROR_INVALID_VALUE, as a GPU refuses a host
 * address. Calls before cuInit give CUDA_ERROR_NOT_INITIALIZED and memory,
 * module and launch calls without a current context
 * CUDA_ERROR_INVALID_CONTEXT, as the driver does. Kernels are not run:
 * cuModuleLoadData takes PTX text and cuModuleGetFunction finds its
 * `.entry` names; cuLaunchKernel checks its arguments and counts.
 *
 * The script, read by every cuInit from UFJIT_FAKE_CUDA, comma-separated:
 *   init=N           cuInit returns N (34 stub library, 100 no device, ...)
 *   count=N          devices (default 1, at most 8)
 *   version=N        cuDriverGetVersion (default 13000)
 *   oom_after=N      cuMemAlloc_v2 succeeds N times, then gives 2
 *   mem=BYTES        total memory per device (default 80 GiB)
 *   name=TEXT        device name (default "Fake NVIDIA H100")
 *   cc=MAJOR.MINOR   compute capability (default 9.0)
 *   fail=SYMBOL:N    SYMBOL returns N (may repeat)
 * Built twice: libfake_cuda.so, and libfake_cuda_nomalloc.so without
 * cuMemAlloc_v2 (FAKE_CUDA_OMIT_MEM_ALLOC) for the missing-symbol path.
 * fake_cuda_* functions let tests look inside. */
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "targets/cuda/cu_driver.h"

#define API __attribute__((visibility("default")))
#define MAX_DEVICES 8
#define MAX_FAILS 8

typedef uf__cu_result CUresult;

typedef struct fake_script {
    int init_rc;
    int count;
    int version;
    long oom_after; /* -1: never */
    size_t mem;
    char name[128];
    int cc_major, cc_minor;
    int nfail;
    struct {
        char symbol[64];
        int rc;
    } fail[MAX_FAILS];
} fake_script;

typedef enum { MEM_DEVICE, MEM_HOST, MEM_REGISTERED } mem_kind;

typedef struct fake_block {
    struct fake_block *next;
    char *base;
    size_t size;
    mem_kind kind;
    unsigned flags; /* cuMemHostAlloc's */
} fake_block;

struct uf__cu_ctx_s {
    int device;
    int refs;
};

struct uf__cu_module_s {
    char *ptx;
    struct uf__cu_func_s *funcs;
};

struct uf__cu_func_s {
    struct uf__cu_func_s *next;
    char name[128];
};

struct uf__cu_stream_s {
    unsigned flags;
};

struct uf__cu_event_s {
    unsigned flags;
    bool recorded;
    double ms; /* CLOCK_MONOTONIC at the record */
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static fake_script script;
static bool initialised;
static long init_calls;
static long allocs_done;
static long launches;
static fake_block *blocks;
static size_t device_bytes;
static struct uf__cu_ctx_s contexts[MAX_DEVICES];
static _Thread_local struct uf__cu_ctx_s *current;

/* ---- the script ----------------------------------------------------------- */

static void script_defaults(void)
{
    memset(&script, 0, sizeof script);
    script.count = 1;
    script.version = 13000;
    script.oom_after = -1;
    script.mem = (size_t)80 << 30;
    snprintf(script.name, sizeof script.name, "Fake NVIDIA H100");
    script.cc_major = 9;
    script.cc_minor = 0;
}

static void script_item(const char *item)
{
    char key[32];
    const char *eq = strchr(item, '=');
    if (eq == NULL || (size_t)(eq - item) >= sizeof key)
        return;
    snprintf(key, sizeof key, "%.*s", (int)(eq - item), item);
    const char *v = eq + 1;
    if (strcmp(key, "init") == 0)
        script.init_rc = atoi(v);
    else if (strcmp(key, "count") == 0)
        script.count = atoi(v) > MAX_DEVICES ? MAX_DEVICES : atoi(v);
    else if (strcmp(key, "version") == 0)
        script.version = atoi(v);
    else if (strcmp(key, "oom_after") == 0)
        script.oom_after = atol(v);
    else if (strcmp(key, "mem") == 0)
        script.mem = (size_t)strtoull(v, NULL, 10);
    else if (strcmp(key, "name") == 0)
        snprintf(script.name, sizeof script.name, "%s", v);
    else if (strcmp(key, "cc") == 0)
        sscanf(v, "%d.%d", &script.cc_major, &script.cc_minor);
    else if (strcmp(key, "fail") == 0 && script.nfail < MAX_FAILS) {
        const char *colon = strchr(v, ':');
        if (colon == NULL)
            return;
        snprintf(script.fail[script.nfail].symbol,
                 sizeof script.fail[0].symbol, "%.*s", (int)(colon - v), v);
        script.fail[script.nfail].rc = atoi(colon + 1);
        script.nfail++;
    }
}

static void script_read(void)
{
    script_defaults();
    const char *env = getenv("UFJIT_FAKE_CUDA");
    if (env == NULL)
        return;
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", env);
    char *save = NULL;
    for (char *item = strtok_r(buf, ",", &save); item != NULL;
         item = strtok_r(NULL, ",", &save))
        script_item(item);
}

/* The code the script makes `symbol` fail with, or 0. */
static CUresult scripted(const char *symbol)
{
    for (int i = 0; i < script.nfail; i++)
        if (strcmp(script.fail[i].symbol, symbol) == 0)
            return script.fail[i].rc;
    return 0;
}

/* Every entry point starts so: not initialised, or a scripted failure. */
#define ENTER(symbol)                                    \
    do {                                                 \
        if (!initialised)                                \
            return UF__CU_ERROR_NOT_INITIALIZED;         \
        CUresult scripted_rc_ = scripted(symbol);        \
        if (scripted_rc_ != 0)                           \
            return scripted_rc_;                         \
    } while (0)

/* ... and those that need a current context go on so. */
#define NEED_CTX()                                       \
    do {                                                 \
        if (current == NULL)                             \
            return UF__CU_ERROR_INVALID_CONTEXT;         \
    } while (0)

/* ---- memory bookkeeping --------------------------------------------------- */

/* The block holding [p, p + n), if any; device memory and mapped host
 * memory count as device addresses. Caller holds the lock. */
static fake_block *find_device(uint64_t p, size_t n)
{
    for (fake_block *b = blocks; b != NULL; b = b->next) {
        if (b->kind == MEM_REGISTERED)
            continue;
        if (b->kind == MEM_HOST && !(b->flags & UF__CU_MEMHOSTALLOC_DEVICEMAP))
            continue;
        uintptr_t lo = (uintptr_t)b->base;
        if (p >= lo && p - lo <= b->size && n <= b->size - (p - lo))
            return b;
    }
    return NULL;
}

static fake_block *find_base(void *base, mem_kind kind)
{
    for (fake_block *b = blocks; b != NULL; b = b->next)
        if (b->base == base && b->kind == kind)
            return b;
    return NULL;
}

static void unlink_block(fake_block *gone)
{
    for (fake_block **b = &blocks; *b != NULL; b = &(*b)->next)
        if (*b == gone) {
            *b = gone->next;
            return;
        }
}

static bool valid_device_range(uint64_t p, size_t n)
{
    pthread_mutex_lock(&lock);
    bool ok = find_device(p, n) != NULL;
    pthread_mutex_unlock(&lock);
    return ok;
}

static bool valid_stream(uf__cu_stream s)
{
    (void)s; /* NULL is the legacy default; others are ours */
    return true;
}

/* ---- init, errors, devices ------------------------------------------------ */

API CUresult cuInit(unsigned flags)
{
    pthread_mutex_lock(&lock);
    init_calls++;
    script_read();
    allocs_done = 0;
    initialised = script.init_rc == 0 && flags == 0;
    pthread_mutex_unlock(&lock);
    if (flags != 0)
        return UF__CU_ERROR_INVALID_VALUE;
    return script.init_rc;
}

API CUresult cuDriverGetVersion(int *v)
{
    if (v == NULL)
        return UF__CU_ERROR_INVALID_VALUE;
    if (scripted("cuDriverGetVersion"))
        return scripted("cuDriverGetVersion");
    *v = script.version != 0 ? script.version : 13000;
    return 0;
}

typedef struct fake_error {
    int rc;
    const char *name, *text;
} fake_error;

/* Worded as the driver words them, with " (fake)" so tests can tell the
 * driver's text from ufjit's own table. */
static const fake_error fake_errors[] = {
    {0, "CUDA_SUCCESS", "no error (fake)"},
    {1, "CUDA_ERROR_INVALID_VALUE", "invalid argument (fake)"},
    {2, "CUDA_ERROR_OUT_OF_MEMORY", "out of memory (fake)"},
    {3, "CUDA_ERROR_NOT_INITIALIZED", "initialization error (fake)"},
    {100, "CUDA_ERROR_NO_DEVICE", "no CUDA-capable device is detected (fake)"},
    {101, "CUDA_ERROR_INVALID_DEVICE", "invalid device ordinal (fake)"},
    {200, "CUDA_ERROR_INVALID_IMAGE", "device kernel image is invalid (fake)"},
    {201, "CUDA_ERROR_INVALID_CONTEXT", "invalid device context (fake)"},
    {400, "CUDA_ERROR_INVALID_HANDLE", "invalid resource handle (fake)"},
    {500, "CUDA_ERROR_NOT_FOUND", "named symbol not found (fake)"},
    {700, "CUDA_ERROR_ILLEGAL_ADDRESS",
     "an illegal memory access was encountered (fake)"},
    {719, "CUDA_ERROR_LAUNCH_FAILED", "unspecified launch failure (fake)"},
};

static const fake_error *fake_error_of(int rc)
{
    for (size_t i = 0; i < sizeof fake_errors / sizeof fake_errors[0]; i++)
        if (fake_errors[i].rc == rc)
            return &fake_errors[i];
    return NULL;
}

/* Like the driver: no cuInit needed; an unknown code is an error with
 * *s set to NULL. */
API CUresult cuGetErrorName(CUresult rc, const char **s)
{
    if (s == NULL)
        return UF__CU_ERROR_INVALID_VALUE;
    const fake_error *e = fake_error_of(rc);
    *s = e != NULL ? e->name : NULL;
    return e != NULL ? 0 : UF__CU_ERROR_INVALID_VALUE;
}

API CUresult cuGetErrorString(CUresult rc, const char **s)
{
    if (s == NULL)
        return UF__CU_ERROR_INVALID_VALUE;
    const fake_error *e = fake_error_of(rc);
    *s = e != NULL ? e->text : NULL;
    return e != NULL ? 0 : UF__CU_ERROR_INVALID_VALUE;
}

API CUresult cuDeviceGetCount(int *n)
{
    ENTER("cuDeviceGetCount");
    if (n == NULL)
        return UF__CU_ERROR_INVALID_VALUE;
    *n = script.count;
    return 0;
}

static bool valid_device(uf__cu_device d)
{
    return d >= 0 && d < script.count;
}

API CUresult cuDeviceGet(uf__cu_device *d, int ordinal)
{
    ENTER("cuDeviceGet");
    if (d == NULL)
        return UF__CU_ERROR_INVALID_VALUE;
    if (!valid_device(ordinal))
        return UF__CU_ERROR_INVALID_DEVICE;
    *d = ordinal;
    return 0;
}

API CUresult cuDeviceGetName(char *name, int len, uf__cu_device d)
{
    ENTER("cuDeviceGetName");
    if (name == NULL || len <= 0)
        return UF__CU_ERROR_INVALID_VALUE;
    if (!valid_device(d))
        return UF__CU_ERROR_INVALID_DEVICE;
    snprintf(name, (size_t)len, "%s", script.name);
    return 0;
}

API CUresult cuDeviceGetAttribute(int *v, int attr, uf__cu_device d)
{
    ENTER("cuDeviceGetAttribute");
    if (v == NULL)
        return UF__CU_ERROR_INVALID_VALUE;
    if (!valid_device(d))
        return UF__CU_ERROR_INVALID_DEVICE;
    switch (attr) {
    case UF__CU_DEV_ATTR_MAX_THREADS_PER_BLOCK: *v = 1024; break;
    case UF__CU_DEV_ATTR_MAX_BLOCK_DIM_X: *v = 1024; break;
    case UF__CU_DEV_ATTR_MAX_GRID_DIM_X: *v = 2147483647; break;
    case UF__CU_DEV_ATTR_MAX_SHARED_MEMORY_PER_BLOCK: *v = 49152; break;
    case UF__CU_DEV_ATTR_WARP_SIZE: *v = 32; break;
    case UF__CU_DEV_ATTR_MULTIPROCESSOR_COUNT: *v = 132; break;
    case UF__CU_DEV_ATTR_COMPUTE_CAPABILITY_MAJOR: *v = script.cc_major; break;
    case UF__CU_DEV_ATTR_COMPUTE_CAPABILITY_MINOR: *v = script.cc_minor; break;
    case UF__CU_DEV_ATTR_MAX_THREADS_PER_MULTIPROCESSOR: *v = 2048; break;
    case UF__CU_DEV_ATTR_UNIFIED_ADDRESSING: *v = 1; break;
    default: return UF__CU_ERROR_INVALID_VALUE;
    }
    return 0;
}

API CUresult cuDeviceTotalMem_v2(size_t *bytes, uf__cu_device d)
{
    ENTER("cuDeviceTotalMem_v2");
    if (bytes == NULL)
        return UF__CU_ERROR_INVALID_VALUE;
    if (!valid_device(d))
        return UF__CU_ERROR_INVALID_DEVICE;
    *bytes = script.mem;
    return 0;
}

/* ---- contexts ------------------------------------------------------------- */

API CUresult cuDevicePrimaryCtxRetain(uf__cu_ctx *c, uf__cu_device d)
{
    ENTER("cuDevicePrimaryCtxRetain");
    if (c == NULL)
        return UF__CU_ERROR_INVALID_VALUE;
    if (!valid_device(d))
        return UF__CU_ERROR_INVALID_DEVICE;
    pthread_mutex_lock(&lock);
    contexts[d].device = d;
    contexts[d].refs++;
    pthread_mutex_unlock(&lock);
    *c = &contexts[d];
    return 0;
}

API CUresult cuDevicePrimaryCtxRelease_v2(uf__cu_device d)
{
    ENTER("cuDevicePrimaryCtxRelease_v2");
    if (!valid_device(d))
        return UF__CU_ERROR_INVALID_DEVICE;
    pthread_mutex_lock(&lock);
    CUresult rc = contexts[d].refs > 0 ? 0 : UF__CU_ERROR_INVALID_CONTEXT;
    if (rc == 0)
        contexts[d].refs--;
    pthread_mutex_unlock(&lock);
    return rc;
}

API CUresult cuCtxSetCurrent(uf__cu_ctx c)
{
    ENTER("cuCtxSetCurrent");
    if (c != NULL && (c < &contexts[0] || c >= &contexts[MAX_DEVICES] ||
                      c->refs == 0))
        return UF__CU_ERROR_INVALID_CONTEXT;
    current = c;
    return 0;
}

API CUresult cuCtxGetCurrent(uf__cu_ctx *c)
{
    ENTER("cuCtxGetCurrent");
    if (c == NULL)
        return UF__CU_ERROR_INVALID_VALUE;
    *c = current;
    return 0;
}

API CUresult cuCtxSynchronize(void)
{
    ENTER("cuCtxSynchronize");
    NEED_CTX();
    return 0;
}

/* ---- modules, functions, launches ----------------------------------------- */

API CUresult cuModuleLoadData(uf__cu_module *m, const void *image)
{
    ENTER("cuModuleLoadData");
    NEED_CTX();
    if (m == NULL || image == NULL)
        return UF__CU_ERROR_INVALID_VALUE;
    if (strstr(image, ".version") == NULL || strstr(image, ".target") == NULL)
        return UF__CU_ERROR_INVALID_IMAGE;
    struct uf__cu_module_s *mod = calloc(1, sizeof *mod);
    if (mod == NULL || (mod->ptx = strdup(image)) == NULL) {
        free(mod);
        return UF__CU_ERROR_OUT_OF_MEMORY;
    }
    *m = mod;
    return 0;
}

API CUresult cuModuleUnload(uf__cu_module m)
{
    ENTER("cuModuleUnload");
    if (m == NULL)
        return UF__CU_ERROR_INVALID_HANDLE;
    while (m->funcs != NULL) {
        struct uf__cu_func_s *next = m->funcs->next;
        free(m->funcs);
        m->funcs = next;
    }
    free(m->ptx);
    free(m);
    return 0;
}

/* Whether the PTX declares `.entry name(` (or with spaces before it). */
static bool has_entry(const char *ptx, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = strstr(ptx, ".entry"); p != NULL;
         p = strstr(p + 6, ".entry")) {
        const char *q = p + 6;
        while (*q == ' ' || *q == '\t')
            q++;
        if (strncmp(q, name, n) == 0 &&
            (q[n] == '(' || q[n] == ' ' || q[n] == '\n'))
            return true;
    }
    return false;
}

API CUresult cuModuleGetFunction(uf__cu_func *f, uf__cu_module m,
                                 const char *name)
{
    ENTER("cuModuleGetFunction");
    if (f == NULL || name == NULL)
        return UF__CU_ERROR_INVALID_VALUE;
    if (m == NULL)
        return UF__CU_ERROR_INVALID_HANDLE;
    if (!has_entry(m->ptx, name))
        return UF__CU_ERROR_NOT_FOUND;
    struct uf__cu_func_s *fn = calloc(1, sizeof *fn);
    if (fn == NULL)
        return UF__CU_ERROR_OUT_OF_MEMORY;
    snprintf(fn->name, sizeof fn->name, "%s", name);
    fn->next = m->funcs;
    m->funcs = fn;
    *f = fn;
    return 0;
}

API CUresult cuFuncGetAttribute(int *v, int attr, uf__cu_func f)
{
    ENTER("cuFuncGetAttribute");
    if (v == NULL)
        return UF__CU_ERROR_INVALID_VALUE;
    if (f == NULL)
        return UF__CU_ERROR_INVALID_HANDLE;
    switch (attr) {
    case UF__CU_FUNC_ATTR_MAX_THREADS_PER_BLOCK: *v = 1024; break;
    case UF__CU_FUNC_ATTR_SHARED_SIZE_BYTES: *v = 0; break;
    case UF__CU_FUNC_ATTR_LOCAL_SIZE_BYTES: *v = 0; break;
    case UF__CU_FUNC_ATTR_NUM_REGS: *v = 32; break;
    default: return UF__CU_ERROR_INVALID_VALUE;
    }
    return 0;
}

API CUresult cuLaunchKernel(uf__cu_func f, unsigned gx, unsigned gy,
                            unsigned gz, unsigned bx, unsigned by,
                            unsigned bz, unsigned shared_bytes,
                            uf__cu_stream s, void **params, void **extra)
{
    ENTER("cuLaunchKernel");
    NEED_CTX();
    if (f == NULL)
        return UF__CU_ERROR_INVALID_HANDLE;
    if (gx == 0 || gy == 0 || gz == 0 || bx == 0 || by == 0 || bz == 0 ||
        (unsigned long long)bx * by * bz > 1024 || shared_bytes > 49152 ||
        !valid_stream(s))
        return UF__CU_ERROR_INVALID_VALUE;
    (void)params;
    (void)extra;
    pthread_mutex_lock(&lock);
    launches++;
    pthread_mutex_unlock(&lock);
    return 0;
}

/* 132 SMs of 2048 threads: the block size is the largest allowed (a
 * multiple of the warp), the grid the blocks that fill every SM. */
API CUresult cuOccupancyMaxPotentialBlockSize(int *min_grid, int *block,
                                              uf__cu_func f,
                                              size_t (*dyn)(int),
                                              size_t shared_bytes,
                                              int limit)
{
    ENTER("cuOccupancyMaxPotentialBlockSize");
    if (min_grid == NULL || block == NULL)
        return UF__CU_ERROR_INVALID_VALUE;
    if (f == NULL)
        return UF__CU_ERROR_INVALID_HANDLE;
    if (dyn != NULL || shared_bytes > 49152)
        return UF__CU_ERROR_INVALID_VALUE; /* ufjit passes no callback */
    int b = limit > 0 && limit < 1024 ? limit : 1024;
    b = b >= 32 ? b / 32 * 32 : b;
    *block = b;
    *min_grid = 132 * (2048 / b);
    return 0;
}

/* ---- device memory -------------------------------------------------------- */

#ifndef FAKE_CUDA_OMIT_MEM_ALLOC
API CUresult cuMemAlloc_v2(uf__cu_dptr *p, size_t bytes)
{
    ENTER("cuMemAlloc_v2");
    NEED_CTX();
    if (p == NULL || bytes == 0)
        return UF__CU_ERROR_INVALID_VALUE;
    pthread_mutex_lock(&lock);
    CUresult rc = 0;
    fake_block *b = NULL;
    if ((script.oom_after >= 0 && allocs_done >= script.oom_after) ||
        bytes > script.mem - device_bytes)
        rc = UF__CU_ERROR_OUT_OF_MEMORY;
    else if ((b = calloc(1, sizeof *b)) == NULL ||
             (b->base = malloc(bytes)) == NULL)
        rc = UF__CU_ERROR_OUT_OF_MEMORY;
    if (rc != 0) {
        free(b);
        pthread_mutex_unlock(&lock);
        return rc;
    }
    b->size = bytes;
    b->kind = MEM_DEVICE;
    b->next = blocks;
    blocks = b;
    device_bytes += bytes;
    allocs_done++;
    pthread_mutex_unlock(&lock);
    *p = (uf__cu_dptr)(uintptr_t)b->base;
    return 0;
}
#endif

API CUresult cuMemFree_v2(uf__cu_dptr p)
{
    ENTER("cuMemFree_v2");
    NEED_CTX();
    if (p == 0)
        return 0;
    pthread_mutex_lock(&lock);
    fake_block *b = find_base((void *)(uintptr_t)p, MEM_DEVICE);
    if (b != NULL) {
        unlink_block(b);
        device_bytes -= b->size;
    }
    pthread_mutex_unlock(&lock);
    if (b == NULL)
        return UF__CU_ERROR_INVALID_VALUE;
    free(b->base);
    free(b);
    return 0;
}

API CUresult cuMemGetInfo_v2(size_t *free_bytes, size_t *total_bytes)
{
    ENTER("cuMemGetInfo_v2");
    NEED_CTX();
    if (free_bytes == NULL || total_bytes == NULL)
        return UF__CU_ERROR_INVALID_VALUE;
    pthread_mutex_lock(&lock);
    *free_bytes = script.mem - device_bytes;
    *total_bytes = script.mem;
    pthread_mutex_unlock(&lock);
    return 0;
}

API CUresult cuMemsetD8_v2(uf__cu_dptr p, unsigned char v, size_t n)
{
    ENTER("cuMemsetD8_v2");
    NEED_CTX();
    if (!valid_device_range(p, n))
        return UF__CU_ERROR_INVALID_VALUE;
    memset((void *)(uintptr_t)p, v, n);
    return 0;
}

API CUresult cuMemsetD8Async(uf__cu_dptr p, unsigned char v, size_t n,
                             uf__cu_stream s)
{
    ENTER("cuMemsetD8Async");
    if (!valid_stream(s))
        return UF__CU_ERROR_INVALID_HANDLE;
    return cuMemsetD8_v2(p, v, n);
}

API CUresult cuMemcpyHtoD_v2(uf__cu_dptr dst, const void *src, size_t n)
{
    ENTER("cuMemcpyHtoD_v2");
    NEED_CTX();
    if ((src == NULL && n > 0) || !valid_device_range(dst, n))
        return UF__CU_ERROR_INVALID_VALUE;
    if (n > 0)
        memcpy((void *)(uintptr_t)dst, src, n);
    return 0;
}

API CUresult cuMemcpyDtoH_v2(void *dst, uf__cu_dptr src, size_t n)
{
    ENTER("cuMemcpyDtoH_v2");
    NEED_CTX();
    if ((dst == NULL && n > 0) || !valid_device_range(src, n))
        return UF__CU_ERROR_INVALID_VALUE;
    if (n > 0)
        memcpy(dst, (const void *)(uintptr_t)src, n);
    return 0;
}

API CUresult cuMemcpyDtoD_v2(uf__cu_dptr dst, uf__cu_dptr src, size_t n)
{
    ENTER("cuMemcpyDtoD_v2");
    NEED_CTX();
    if (!valid_device_range(dst, n) || !valid_device_range(src, n))
        return UF__CU_ERROR_INVALID_VALUE;
    if (n > 0)
        memmove((void *)(uintptr_t)dst, (const void *)(uintptr_t)src, n);
    return 0;
}

/* The async copies are done at once: every stream is always idle. */
API CUresult cuMemcpyHtoDAsync_v2(uf__cu_dptr dst, const void *src, size_t n,
                                  uf__cu_stream s)
{
    ENTER("cuMemcpyHtoDAsync_v2");
    return valid_stream(s) ? cuMemcpyHtoD_v2(dst, src, n)
                           : UF__CU_ERROR_INVALID_HANDLE;
}

API CUresult cuMemcpyDtoHAsync_v2(void *dst, uf__cu_dptr src, size_t n,
                                  uf__cu_stream s)
{
    ENTER("cuMemcpyDtoHAsync_v2");
    return valid_stream(s) ? cuMemcpyDtoH_v2(dst, src, n)
                           : UF__CU_ERROR_INVALID_HANDLE;
}

API CUresult cuMemcpyDtoDAsync_v2(uf__cu_dptr dst, uf__cu_dptr src, size_t n,
                                  uf__cu_stream s)
{
    ENTER("cuMemcpyDtoDAsync_v2");
    return valid_stream(s) ? cuMemcpyDtoD_v2(dst, src, n)
                           : UF__CU_ERROR_INVALID_HANDLE;
}

API CUresult cuPointerGetAttribute(void *data, int attr, uf__cu_dptr p)
{
    ENTER("cuPointerGetAttribute");
    if (data == NULL || attr != UF__CU_POINTER_ATTRIBUTE_MEMORY_TYPE)
        return UF__CU_ERROR_INVALID_VALUE;
    pthread_mutex_lock(&lock);
    unsigned type = 0;
    for (fake_block *b = blocks; b != NULL; b = b->next) {
        uintptr_t lo = (uintptr_t)b->base;
        if (p >= lo && p - lo < b->size) {
            type = b->kind == MEM_DEVICE ? UF__CU_MEMORYTYPE_DEVICE
                                         : UF__CU_MEMORYTYPE_HOST;
            break;
        }
    }
    pthread_mutex_unlock(&lock);
    if (type == 0)
        return UF__CU_ERROR_INVALID_VALUE;
    memcpy(data, &type, sizeof type);
    return 0;
}

/* ---- pinned and mapped host memory ---------------------------------------- */

static CUresult add_host_block(void *base, size_t bytes, mem_kind kind,
                               unsigned flags)
{
    fake_block *b = calloc(1, sizeof *b);
    if (b == NULL)
        return UF__CU_ERROR_OUT_OF_MEMORY;
    b->base = base;
    b->size = bytes;
    b->kind = kind;
    b->flags = flags;
    pthread_mutex_lock(&lock);
    b->next = blocks;
    blocks = b;
    pthread_mutex_unlock(&lock);
    return 0;
}

API CUresult cuMemHostAlloc(void **p, size_t bytes, unsigned flags)
{
    ENTER("cuMemHostAlloc");
    NEED_CTX();
    if (p == NULL || bytes == 0 || flags > 0x7)
        return UF__CU_ERROR_INVALID_VALUE;
    void *base = malloc(bytes);
    if (base == NULL)
        return UF__CU_ERROR_OUT_OF_MEMORY;
    CUresult rc = add_host_block(base, bytes, MEM_HOST, flags);
    if (rc != 0) {
        free(base);
        return rc;
    }
    *p = base;
    return 0;
}

API CUresult cuMemFreeHost(void *p)
{
    ENTER("cuMemFreeHost");
    NEED_CTX();
    pthread_mutex_lock(&lock);
    fake_block *b = find_base(p, MEM_HOST);
    if (b != NULL)
        unlink_block(b);
    pthread_mutex_unlock(&lock);
    if (b == NULL)
        return UF__CU_ERROR_INVALID_VALUE;
    free(b->base);
    free(b);
    return 0;
}

API CUresult cuMemHostGetDevicePointer_v2(uf__cu_dptr *d, void *p,
                                          unsigned flags)
{
    ENTER("cuMemHostGetDevicePointer_v2");
    NEED_CTX();
    if (d == NULL || flags != 0)
        return UF__CU_ERROR_INVALID_VALUE;
    pthread_mutex_lock(&lock);
    fake_block *b = find_base(p, MEM_HOST);
    bool mapped = b != NULL && (b->flags & UF__CU_MEMHOSTALLOC_DEVICEMAP);
    pthread_mutex_unlock(&lock);
    if (!mapped)
        return UF__CU_ERROR_INVALID_VALUE;
    *d = (uf__cu_dptr)(uintptr_t)p;
    return 0;
}

API CUresult cuMemHostRegister_v2(void *p, size_t bytes, unsigned flags)
{
    ENTER("cuMemHostRegister_v2");
    NEED_CTX();
    if (p == NULL || bytes == 0)
        return UF__CU_ERROR_INVALID_VALUE;
    pthread_mutex_lock(&lock);
    bool twice = find_base(p, MEM_REGISTERED) != NULL;
    pthread_mutex_unlock(&lock);
    if (twice)
        return 712; /* CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED */
    return add_host_block(p, bytes, MEM_REGISTERED, flags);
}

API CUresult cuMemHostUnregister(void *p)
{
    ENTER("cuMemHostUnregister");
    NEED_CTX();
    pthread_mutex_lock(&lock);
    fake_block *b = find_base(p, MEM_REGISTERED);
    if (b != NULL)
        unlink_block(b);
    pthread_mutex_unlock(&lock);
    if (b == NULL)
        return 713; /* CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED */
    free(b);
    return 0;
}

/* ---- streams and events --------------------------------------------------- */

API CUresult cuStreamCreate(uf__cu_stream *s, unsigned flags)
{
    ENTER("cuStreamCreate");
    NEED_CTX();
    if (s == NULL || flags > UF__CU_STREAM_NON_BLOCKING)
        return UF__CU_ERROR_INVALID_VALUE;
    struct uf__cu_stream_s *st = calloc(1, sizeof *st);
    if (st == NULL)
        return UF__CU_ERROR_OUT_OF_MEMORY;
    st->flags = flags;
    *s = st;
    return 0;
}

API CUresult cuStreamDestroy_v2(uf__cu_stream s)
{
    ENTER("cuStreamDestroy_v2");
    if (s == NULL)
        return UF__CU_ERROR_INVALID_HANDLE;
    free(s);
    return 0;
}

API CUresult cuStreamSynchronize(uf__cu_stream s)
{
    ENTER("cuStreamSynchronize");
    return valid_stream(s) ? 0 : UF__CU_ERROR_INVALID_HANDLE;
}

API CUresult cuStreamQuery(uf__cu_stream s)
{
    ENTER("cuStreamQuery");
    return valid_stream(s) ? 0 : UF__CU_ERROR_INVALID_HANDLE;
}

API CUresult cuStreamWaitEvent(uf__cu_stream s, uf__cu_event e,
                               unsigned flags)
{
    ENTER("cuStreamWaitEvent");
    if (e == NULL)
        return UF__CU_ERROR_INVALID_HANDLE;
    return valid_stream(s) && flags == 0 ? 0 : UF__CU_ERROR_INVALID_VALUE;
}

API CUresult cuEventCreate(uf__cu_event *e, unsigned flags)
{
    ENTER("cuEventCreate");
    NEED_CTX();
    if (e == NULL)
        return UF__CU_ERROR_INVALID_VALUE;
    struct uf__cu_event_s *ev = calloc(1, sizeof *ev);
    if (ev == NULL)
        return UF__CU_ERROR_OUT_OF_MEMORY;
    ev->flags = flags;
    *e = ev;
    return 0;
}

API CUresult cuEventDestroy_v2(uf__cu_event e)
{
    ENTER("cuEventDestroy_v2");
    if (e == NULL)
        return UF__CU_ERROR_INVALID_HANDLE;
    free(e);
    return 0;
}

API CUresult cuEventRecord(uf__cu_event e, uf__cu_stream s)
{
    ENTER("cuEventRecord");
    if (e == NULL || !valid_stream(s))
        return UF__CU_ERROR_INVALID_HANDLE;
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    e->ms = (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
    e->recorded = true;
    return 0;
}

API CUresult cuEventQuery(uf__cu_event e)
{
    ENTER("cuEventQuery");
    return e != NULL ? 0 : UF__CU_ERROR_INVALID_HANDLE;
}

API CUresult cuEventSynchronize(uf__cu_event e)
{
    ENTER("cuEventSynchronize");
    return e != NULL ? 0 : UF__CU_ERROR_INVALID_HANDLE;
}

/* Exported under the _v2 name only, as CUDA 12.8+ drivers have both and
 * the table prefers it. */
API CUresult cuEventElapsedTime_v2(float *ms, uf__cu_event a, uf__cu_event b)
{
    ENTER("cuEventElapsedTime_v2");
    if (ms == NULL)
        return UF__CU_ERROR_INVALID_VALUE;
    if (a == NULL || b == NULL || !a->recorded || !b->recorded ||
        (a->flags & UF__CU_EVENT_DISABLE_TIMING) ||
        (b->flags & UF__CU_EVENT_DISABLE_TIMING))
        return UF__CU_ERROR_INVALID_HANDLE;
    *ms = (float)(b->ms - a->ms);
    return 0;
}

/* ---- IPC: the handle carries the address; one process plays both ends --- */

API CUresult cuIpcGetMemHandle(uf__cu_ipc_handle *h, uf__cu_dptr p)
{
    ENTER("cuIpcGetMemHandle");
    NEED_CTX();
    if (h == NULL)
        return UF__CU_ERROR_INVALID_VALUE;
    pthread_mutex_lock(&lock);
    bool known = find_base((void *)(uintptr_t)p, MEM_DEVICE) != NULL;
    pthread_mutex_unlock(&lock);
    if (!known)
        return UF__CU_ERROR_INVALID_VALUE;
    memset(h, 0, sizeof *h);
    memcpy(h->reserved, "fakeipc", 8);
    memcpy(h->reserved + 8, &p, sizeof p);
    return 0;
}

API CUresult cuIpcOpenMemHandle_v2(uf__cu_dptr *p, uf__cu_ipc_handle h,
                                   unsigned flags)
{
    ENTER("cuIpcOpenMemHandle_v2");
    NEED_CTX();
    if (p == NULL || memcmp(h.reserved, "fakeipc", 8) != 0)
        return UF__CU_ERROR_INVALID_VALUE;
    memcpy(p, h.reserved + 8, sizeof *p);
    return 0;
}

API CUresult cuIpcCloseMemHandle(uf__cu_dptr p)
{
    ENTER("cuIpcCloseMemHandle");
    NEED_CTX();
    return p != 0 ? 0 : UF__CU_ERROR_INVALID_VALUE;
}

/* ---- for tests: what happened inside ---------------------------------------- */

API long fake_cuda_init_calls(void)
{
    return init_calls;
}

API long fake_cuda_launches(void)
{
    return launches;
}

/* Device allocations not freed yet (host ones are counted by ASan). */
API long fake_cuda_live_allocations(void)
{
    pthread_mutex_lock(&lock);
    long n = 0;
    for (fake_block *b = blocks; b != NULL; b = b->next)
        n += b->kind == MEM_DEVICE;
    pthread_mutex_unlock(&lock);
    return n;
}
