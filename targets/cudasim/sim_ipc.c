/* cudasim's IPC handles. The simulated device lives in one process, so a
 * handle can only be opened there: unlike the driver (which refuses to
 * open a handle in the process that made it), cudasim opens it in the
 * same process and gives the allocation's own base address, so code that
 * passes handles between its parts runs here. The handle names the
 * allocation (process id, base, size, a serial number that tells reuses
 * of one address apart); a mapping keeps the allocation alive after its
 * cuMemFree until cuIpcCloseMemHandle, as another process's mapping
 * would. */
#include <stdlib.h>
#include <string.h>
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
    sim_ipc_payload pl = {.pid = (int64_t)getpid(), .base = base,
                          .size = size, .serial = serial};
    memcpy(pl.tag, UF__SIM_IPC_TAG, sizeof pl.tag);
    memset(h, 0, sizeof *h);
    memcpy(h->reserved, &pl, sizeof pl);
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
    if (memcmp(pl.tag, UF__SIM_IPC_TAG, sizeof pl.tag) != 0 ||
        pl.pid != (int64_t)getpid())
        return UF__CU_ERROR_INVALID_VALUE;
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
    void *storage;
    rc = uf__sim_mem_ipc_close((uintptr_t)p, &storage);
    free(storage);
    return rc;
}
