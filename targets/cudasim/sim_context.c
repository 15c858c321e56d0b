/* cudasim's driver state: cuInit, the one device and its primary context.
 * The context is current per host thread (thread-local) as the driver's;
 * releasing its last reference destroys it as the driver does: every
 * stream, event, module and allocation of it is freed and the block pool
 * stops. */
#include <pthread.h>
#include <stdatomic.h>

#include "targets/cudasim/sim_internal.h"

struct uf__cu_ctx_s {
    int unused;
};

static atomic_bool initialized;
static pthread_mutex_t ctx_mutex = PTHREAD_MUTEX_INITIALIZER;
static struct uf__cu_ctx_s primary;
static atomic_int primary_refs;
static _Thread_local uf__cu_ctx current;

bool uf__sim_initialized(void)
{
    return atomic_load(&initialized);
}

uf__cu_result uf__sim_need_ctx(void)
{
    if (!atomic_load(&initialized))
        return UF__CU_ERROR_NOT_INITIALIZED;
    if (current != &primary || atomic_load(&primary_refs) == 0)
        return UF__CU_ERROR_INVALID_CONTEXT;
    return UF__CU_SUCCESS;
}

uf__cu_result uf__sim_primary_ctx_retain(uf__cu_ctx *c, uf__cu_device d)
{
    if (!atomic_load(&initialized))
        return UF__CU_ERROR_NOT_INITIALIZED;
    if (c == NULL)
        return UF__CU_ERROR_INVALID_VALUE;
    if (d != 0)
        return UF__CU_ERROR_INVALID_DEVICE;
    pthread_mutex_lock(&ctx_mutex);
    atomic_fetch_add(&primary_refs, 1);
    pthread_mutex_unlock(&ctx_mutex);
    *c = &primary;
    return UF__CU_SUCCESS;
}

uf__cu_result uf__sim_primary_ctx_release(uf__cu_device d)
{
    if (!atomic_load(&initialized))
        return UF__CU_ERROR_NOT_INITIALIZED;
    if (d != 0)
        return UF__CU_ERROR_INVALID_DEVICE;
    pthread_mutex_lock(&ctx_mutex);
    if (atomic_load(&primary_refs) == 0) {
        pthread_mutex_unlock(&ctx_mutex);
        return UF__CU_ERROR_INVALID_CONTEXT;
    }
    if (atomic_load(&primary_refs) == 1) {
        /* the last reference: the context's resources go with it, in the
         * order that lets queued work finish first */
        uf__sim_streams_teardown();
        uf__sim_events_teardown();
        uf__sim_pool_teardown();
        uf__sim_modules_teardown();
        uf__sim_mem_teardown();
    }
    atomic_fetch_sub(&primary_refs, 1);
    pthread_mutex_unlock(&ctx_mutex);
    return UF__CU_SUCCESS;
}

uf__cu_result uf__sim_ctx_set_current(uf__cu_ctx c)
{
    if (!atomic_load(&initialized))
        return UF__CU_ERROR_NOT_INITIALIZED;
    if (c != NULL && (c != &primary || atomic_load(&primary_refs) == 0))
        return UF__CU_ERROR_INVALID_CONTEXT;
    current = c;
    return UF__CU_SUCCESS;
}

uf__cu_result uf__sim_ctx_get_current(uf__cu_ctx *c)
{
    if (!atomic_load(&initialized))
        return UF__CU_ERROR_NOT_INITIALIZED;
    if (c == NULL)
        return UF__CU_ERROR_INVALID_VALUE;
    *c = atomic_load(&primary_refs) > 0 ? current : NULL;
    return UF__CU_SUCCESS;
}

uf__cu_result uf__sim_init(unsigned flags)
{
    if (flags != 0)
        return UF__CU_ERROR_INVALID_VALUE;
    atomic_store(&initialized, true);
    return UF__CU_SUCCESS;
}
