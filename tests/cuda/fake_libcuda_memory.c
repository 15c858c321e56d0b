/* The fake libcuda's memory (fake_libcuda.c says what the fake is): device
 * memory as malloc'd blocks the fake keeps a list of, so that an address
 * it did not hand out is refused as a GPU refuses one; pinned, mapped and
 * registered host memory; streams and events, all done at once; IPC
 * handles carrying the address. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fake_libcuda.h"

typedef enum { MEM_DEVICE, MEM_HOST, MEM_REGISTERED } mem_kind;

typedef struct fake_block {
    struct fake_block *next;
    char *base;
    size_t size;
    mem_kind kind;
    unsigned flags; /* cuMemHostAlloc's */
} fake_block;

long allocs_done;
static fake_block *blocks;
static size_t device_bytes;

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
    if (p == NULL || memcmp(h.reserved, "fakeipc", 8) != 0 ||
        flags != UF__CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS) /* as the driver */
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

/* ---- for tests ---------------------------------------------------------------- */

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
