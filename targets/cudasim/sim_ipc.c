/* cudasim's IPC handles. The handle names the allocation (process id,
 * base, size, a serial number that tells reuses of one address apart)
 * and where its shared memory lives (sim_devmem.c: a memfd and an
 * offset). Another process maps that memfd, through /proc/<pid>/fd/<fd>,
 * at an address of its own, and registers the mapping as device memory
 * until cuIpcCloseMemHandle, as the driver does; opening a handle there
 * again gives the same address, counted. Unlike the driver (which
 * refuses to open a handle in the process that made it), cudasim also
 * opens it in the same process, giving the allocation's own base
 * address, so code that passes handles between its parts runs here; such
 * a mapping keeps the allocation alive after its cuMemFree until it is
 * closed. Another process's mapping keeps the pages alive by itself (the
 * memfd's), but a handle opened after the allocation was freed and its
 * block reused maps the new contents: cudasim cannot ask the other
 * process whether the allocation still lives. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "targets/cudasim/sim_entries.h"
#include "targets/cudasim/sim_internal.h"

#define UF__SIM_IPC_TAG "ufsimipc"

typedef struct sim_ipc_payload {
    char tag[8];
    int64_t pid;
    uint64_t base;
    uint64_t size;
    uint64_t serial;
    uint64_t file_off; /* of base in the memfd */
    int32_t fd;        /* the memfd, in process pid */
} sim_ipc_payload;

_Static_assert(sizeof(sim_ipc_payload) <= sizeof(uf__cu_ipc_handle),
               "the payload fits CUipcMemHandle's 64 bytes");

uf__cu_result uf__sim_ipc_get_mem_handle(uf__cu_ipc_handle *h, uf__cu_dptr p)
{
    uf__cu_result rc = uf__sim_need_ctx();
    if (rc)
        return rc;
    if (h == NULL)
        return UF__CU_ERROR_INVALID_VALUE;
    uintptr_t base;
    size_t size;
    uint64_t serial;
    rc = uf__sim_mem_ipc_find(p, &base, &size, &serial);
    if (rc)
        return rc;
    int fd;
    uint64_t off;
    if (!uf__sim_devmem_locate(base, &fd, &off))
        return UF__CU_ERROR_INVALID_VALUE;
    sim_ipc_payload pl = {.pid = (int64_t)getpid(), .base = base,
                          .size = size, .serial = serial, .file_off = off,
                          .fd = fd};
    memcpy(pl.tag, UF__SIM_IPC_TAG, sizeof pl.tag);
    memset(h, 0, sizeof *h);
    memcpy(h->reserved, &pl, sizeof pl);
    return UF__CU_SUCCESS;
}

/* The memfd of another process's allocation, mapped here and registered
 * (or, when already open here, counted once more). */
static uf__cu_result open_foreign(uf__cu_dptr *p, const sim_ipc_payload *pl)
{
    uintptr_t got = uf__sim_mem_import_find(pl->pid, pl->serial);
    if (got != 0) {
        *p = got;
        return UF__CU_SUCCESS;
    }
    char path[64];
    snprintf(path, sizeof path, "/proc/%lld/fd/%d", (long long)pl->pid,
             (int)pl->fd);
    /* only cudasim's memfds (a process gone, a closed or reused fd: an
     * invalid handle) */
    char target[128];
    ssize_t n = readlink(path, target, sizeof target - 1);
    if (n <= 0)
        return UF__CU_ERROR_INVALID_HANDLE;
    target[n] = '\0';
    if (strncmp(target, "/memfd:ufjit-cudasim", 20) != 0)
        return UF__CU_ERROR_INVALID_HANDLE;
    int fd = open(path, O_RDWR | O_CLOEXEC);
    if (fd < 0)
        return UF__CU_ERROR_INVALID_HANDLE;
    struct stat st;
    uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
    uint64_t start = pl->file_off & ~(page - 1);
    uint64_t delta = pl->file_off - start;
    uint64_t len = (delta + pl->size + page - 1) & ~(page - 1);
    void *m = MAP_FAILED;
    if (fstat(fd, &st) == 0 && pl->file_off <= (uint64_t)st.st_size &&
        pl->size <= (uint64_t)st.st_size - pl->file_off)
        m = mmap(NULL, (size_t)len, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
                 (off_t)start);
    close(fd); /* the mapping keeps the memory */
    if (m == MAP_FAILED)
        return UF__CU_ERROR_INVALID_HANDLE;
    uintptr_t base = (uintptr_t)m + (uintptr_t)delta;
    got = uf__sim_mem_import_add(base, (size_t)pl->size, m, (size_t)len,
                                 pl->pid, pl->serial);
    if (got != base)
        munmap(m, (size_t)len);
    if (got == 0)
        return UF__CU_ERROR_OUT_OF_MEMORY;
    *p = got;
    return UF__CU_SUCCESS;
}

uf__cu_result uf__sim_ipc_open_mem_handle(uf__cu_dptr *p, uf__cu_ipc_handle h,
                                          unsigned flags)
{
    uf__cu_result rc = uf__sim_need_ctx();
    if (rc)
        return rc;
    if (p == NULL || (flags & ~(unsigned)UF__CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS))
        return UF__CU_ERROR_INVALID_VALUE;
    sim_ipc_payload pl;
    memcpy(&pl, h.reserved, sizeof pl);
    if (memcmp(pl.tag, UF__SIM_IPC_TAG, sizeof pl.tag) != 0 || pl.pid <= 0 ||
        pl.size == 0)
        return UF__CU_ERROR_INVALID_VALUE;
    if (pl.pid != (int64_t)getpid())
        return open_foreign(p, &pl);
    rc = uf__sim_mem_ipc_open((uintptr_t)pl.base, pl.serial);
    if (rc)
        return rc;
    *p = pl.base;
    return UF__CU_SUCCESS;
}

uf__cu_result uf__sim_ipc_close_mem_handle(uf__cu_dptr p)
{
    uf__cu_result rc = uf__sim_need_ctx();
    if (rc)
        return rc;
    uf__sim_streams_drain();
    void *storage, *unmap;
    size_t unmap_len;
    rc = uf__sim_mem_ipc_close((uintptr_t)p, &storage, &unmap, &unmap_len);
    uf__sim_devmem_free(storage);
    if (unmap != NULL)
        munmap(unmap, unmap_len);
    return rc;
}
