/* cudasim's allocation calls: device memory (cuMemAlloc, cuMemFree,
 * cuMemGetInfo), pinned and registered host memory, and what
 * cuPointerGetAttribute says of an address. Device allocations are
 * 256-byte aligned shared host memory (sim_devmem.c: another process can
 * map it through an IPC handle), counted against the device's total
 * (sim_memory.c) and, in debug builds, filled with a poison pattern (the
 * driver does not zero them either). The simulator has unified addressing:
 * all pinned host memory is device-accessible at its own address. Frees
 * wait for the queued work of every stream, as cuMemFree synchronizes. */
#include <stdlib.h>
#include <string.h>

#include "targets/cudasim/sim_entries.h"
#include "targets/cudasim/sim_internal.h"

#define UF__SIM_POISON 0xcd
#define UF__SIM_PAGE 4096

uf__cu_result uf__sim_mem_alloc(uf__cu_dptr *p, size_t bytes)
{
    uf__cu_result rc = uf__sim_need_ctx();
    if (rc)
        return rc;
    if (p == NULL || bytes == 0)
        return UF__CU_ERROR_INVALID_VALUE;
    size_t charged = (bytes + (UF__SIM_ALLOC_ALIGN - 1)) &
                     ~(size_t)(UF__SIM_ALLOC_ALIGN - 1);
    if (charged < bytes || charged > uf__sim_mem_total())
        return UF__CU_ERROR_OUT_OF_MEMORY;
    void *mem = uf__sim_devmem_alloc(charged);
    if (mem == NULL)
        return UF__CU_ERROR_OUT_OF_MEMORY;
    /* the registry counts it against the device: OUT_OF_MEMORY there */
    rc = uf__sim_mem_insert((uintptr_t)mem, bytes, charged,
                            UF__SIM_MEM_DEVICE);
    if (rc) {
        uf__sim_devmem_free(mem);
        return UF__CU_ERROR_OUT_OF_MEMORY;
    }
#ifndef NDEBUG
    memset(mem, UF__SIM_POISON, charged);
#endif
    *p = (uf__cu_dptr)(uintptr_t)mem;
    return UF__CU_SUCCESS;
}

uf__cu_result uf__sim_mem_free(uf__cu_dptr p)
{
    uf__cu_result rc = uf__sim_need_ctx();
    if (rc)
        return rc;
    uf__sim_streams_drain();
    void *storage;
    rc = uf__sim_mem_remove((uintptr_t)p, UF__SIM_MEM_DEVICE,
                            UF__CU_ERROR_INVALID_VALUE, &storage);
    uf__sim_devmem_free(storage);
    return rc;
}

uf__cu_result uf__sim_mem_get_info(size_t *free_bytes, size_t *total_bytes)
{
    uf__cu_result rc = uf__sim_need_ctx();
    if (rc)
        return rc;
    if (free_bytes == NULL || total_bytes == NULL)
        return UF__CU_ERROR_INVALID_VALUE;
    size_t t = uf__sim_mem_total(), u = uf__sim_mem_used();
    *total_bytes = t;
    *free_bytes = u < t ? t - u : 0;
    return UF__CU_SUCCESS;
}

uf__cu_result uf__sim_pointer_get_attribute(void *data, int attr,
                                            uf__cu_dptr p)
{
    uf__cu_result rc = uf__sim_need_ctx();
    if (rc)
        return rc;
    if (data == NULL || attr != UF__CU_POINTER_ATTRIBUTE_MEMORY_TYPE)
        return UF__CU_ERROR_INVALID_VALUE;
    int kind = uf__sim_mem_kind_of(p);
    if (kind == 0)
        return UF__CU_ERROR_INVALID_VALUE;
    *(unsigned *)data = kind == UF__SIM_MEM_DEVICE ? UF__CU_MEMORYTYPE_DEVICE
                                                   : UF__CU_MEMORYTYPE_HOST;
    return UF__CU_SUCCESS;
}

uf__cu_result uf__sim_mem_host_alloc(void **p, size_t bytes, unsigned flags)
{
    uf__cu_result rc = uf__sim_need_ctx();
    if (rc)
        return rc;
    unsigned known = UF__CU_MEMHOSTALLOC_PORTABLE |
                     UF__CU_MEMHOSTALLOC_DEVICEMAP |
                     UF__CU_MEMHOSTALLOC_WRITECOMBINED;
    if (p == NULL || bytes == 0 || (flags & ~known))
        return UF__CU_ERROR_INVALID_VALUE;
    void *mem = NULL;
    if (posix_memalign(&mem, UF__SIM_PAGE, bytes) != 0)
        return UF__CU_ERROR_OUT_OF_MEMORY;
    rc = uf__sim_mem_insert((uintptr_t)mem, bytes, 0, UF__SIM_MEM_PINNED);
    if (rc) {
        free(mem);
        return UF__CU_ERROR_OUT_OF_MEMORY;
    }
    *p = mem;
    return UF__CU_SUCCESS;
}

uf__cu_result uf__sim_mem_free_host(void *p)
{
    uf__cu_result rc = uf__sim_need_ctx();
    if (rc)
        return rc;
    uf__sim_streams_drain();
    void *storage;
    rc = uf__sim_mem_remove((uintptr_t)p, UF__SIM_MEM_PINNED,
                            UF__CU_ERROR_INVALID_VALUE, &storage);
    free(storage);
    return rc;
}

uf__cu_result uf__sim_mem_host_get_device_pointer(uf__cu_dptr *d, void *p,
                                                  unsigned flags)
{
    uf__cu_result rc = uf__sim_need_ctx();
    if (rc)
        return rc;
    if (d == NULL || flags != 0)
        return UF__CU_ERROR_INVALID_VALUE;
    int kind = uf__sim_mem_kind_of((uf__cu_dptr)(uintptr_t)p);
    if (kind != UF__SIM_MEM_PINNED && kind != UF__SIM_MEM_REGISTERED)
        return UF__CU_ERROR_INVALID_VALUE;
    *d = (uf__cu_dptr)(uintptr_t)p; /* unified addressing */
    return UF__CU_SUCCESS;
}

uf__cu_result uf__sim_mem_host_register(void *p, size_t bytes, unsigned flags)
{
    uf__cu_result rc = uf__sim_need_ctx();
    if (rc)
        return rc;
    unsigned known = UF__CU_MEMHOSTREGISTER_PORTABLE |
                     UF__CU_MEMHOSTREGISTER_DEVICEMAP |
                     UF__CU_MEMHOSTREGISTER_IOMEMORY |
                     UF__CU_MEMHOSTREGISTER_READ_ONLY;
    if (p == NULL || bytes == 0 || (flags & ~known) ||
        (uintptr_t)p + bytes < (uintptr_t)p)
        return UF__CU_ERROR_INVALID_VALUE;
    return uf__sim_mem_insert((uintptr_t)p, bytes, 0,
                              UF__SIM_MEM_REGISTERED);
}

uf__cu_result uf__sim_mem_host_unregister(void *p)
{
    uf__cu_result rc = uf__sim_need_ctx();
    if (rc)
        return rc;
    uf__sim_streams_drain();
    void *storage; /* the caller's memory: never freed here */
    return uf__sim_mem_remove((uintptr_t)p, UF__SIM_MEM_REGISTERED,
                              UF__CU_ERROR_HOST_MEMORY_NOT_REGISTERED,
                              &storage);
}
