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
 * fake_cuda_* functions let tests look inside (counters, the last
 * launch). This file: the script, init, errors, devices, contexts,
 * modules and launches; memory, streams, events and IPC are in
 * fake_libcuda_memory.c. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fake_libcuda.h"

pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
fake_script script;
bool initialised;
_Thread_local struct uf__cu_ctx_s *current;
static long init_calls;
static long launches;
static char last_launch[192]; /* "NAME GRID BLOCK" of the last launch */
static struct uf__cu_ctx_s contexts[MAX_DEVICES];

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

CUresult scripted(const char *symbol)
{
    for (int i = 0; i < script.nfail; i++)
        if (strcmp(script.fail[i].symbol, symbol) == 0)
            return script.fail[i].rc;
    return 0;
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
    snprintf(last_launch, sizeof last_launch, "%s %u %u", f->name, gx, bx);
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

/* ---- for tests: what happened inside ---------------------------------------- */

API long fake_cuda_init_calls(void)
{
    return init_calls;
}

API long fake_cuda_launches(void)
{
    return launches;
}

/* "NAME GRID BLOCK" of the last cuLaunchKernel ("" before any): which
 * kernel variant the launcher chose, and its configuration. */
API const char *fake_cuda_last_launch(void)
{
    return last_launch;
}
