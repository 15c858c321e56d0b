/* The runtime state of each driver (cuda_runtime.h): made once, under a
 * lock, on first use; a failure is not remembered here (the real driver
 * remembers its own), so a later call reports it again. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "common/error_internal.h"
#include "targets/cuda/cuda_runtime.h"

/* one per driver: the real one and the simulator */
static uf__cuda_rt runtimes[2];
static bool ready[2];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static int attr(const uf__cuda_rt *rt, int which, int *v, uf_error *err)
{
    return uf__cuda_check(rt, rt->drv->device_attribute(v, which, rt->dev),
                          "cuDeviceGetAttribute", err);
}

/* Initialises the driver and reads device 0. */
static int open_runtime(uf__cuda_rt *rt, const uf__cu_driver *drv,
                        const char *target, uf_error *err)
{
    memset(rt, 0, sizeof *rt);
    rt->drv = drv;
    rt->target = target;
    int n = 0;
    if (uf__cuda_check(rt, drv->init(0), "cuInit", err) != 0 ||
        uf__cuda_check(rt, drv->device_count(&n), "cuDeviceGetCount",
                       err) != 0)
        return err->code;
    if (n < 1)
        return uf__error_set(err, UF_ERR_NO_DEVICE,
                             "no CUDA device: the %s driver reports none",
                             drv->name);
    if (uf__cuda_check(rt, drv->device_get(&rt->dev, 0), "cuDeviceGet",
                       err) != 0 ||
        uf__cuda_check(rt, drv->device_name(rt->name, sizeof rt->name,
                                            rt->dev),
                       "cuDeviceGetName", err) != 0 ||
        uf__cuda_check(rt, drv->device_total_mem(&rt->total_mem, rt->dev),
                       "cuDeviceTotalMem", err) != 0 ||
        attr(rt, UF__CU_DEV_ATTR_COMPUTE_CAPABILITY_MAJOR, &rt->cc_major,
             err) != 0 ||
        attr(rt, UF__CU_DEV_ATTR_COMPUTE_CAPABILITY_MINOR, &rt->cc_minor,
             err) != 0 ||
        attr(rt, UF__CU_DEV_ATTR_MULTIPROCESSOR_COUNT, &rt->sm_count,
             err) != 0 ||
        attr(rt, UF__CU_DEV_ATTR_WARP_SIZE, &rt->warp_size, err) != 0 ||
        attr(rt, UF__CU_DEV_ATTR_MAX_THREADS_PER_BLOCK,
             &rt->max_threads_per_block, err) != 0)
        return err->code;
    return uf__cuda_check(rt, drv->primary_ctx_retain(&rt->ctx, rt->dev),
                          "cuDevicePrimaryCtxRetain", err);
}

const uf__cuda_rt *uf__cuda_rt_get(const char *target, uf_error *err)
{
    if (target != NULL && strcmp(target, "cuda") != 0 &&
        strcmp(target, "cudasim") != 0) {
        uf__error_set(err, UF_ERR_INVALID,
                      "'%s' is not a CUDA target (\"cuda\" or \"cudasim\")",
                      target);
        return NULL;
    }
    bool sim = target != NULL && strcmp(target, "cudasim") == 0;
    const uf__cu_driver *drv =
        sim ? uf__cu_driver_sim() : uf__cu_driver_for_cuda(err);
    if (drv == NULL)
        return NULL;
    int slot = drv == uf__cu_driver_sim() ? 1 : 0;
    uf__cuda_rt *rt = &runtimes[slot];
    pthread_mutex_lock(&lock);
    int rc = ready[slot] ? 0
                         : open_runtime(rt, drv, sim ? "cudasim" : "cuda",
                                        err);
    if (rc == 0)
        ready[slot] = true;
    pthread_mutex_unlock(&lock);
    if (rc != 0 || uf__cuda_rt_enter(rt, err) != 0)
        return NULL;
    return rt;
}

/* Asks the driver rather than remembering: another library in the
 * process (CuPy, a user's own driver calls) may change the thread's
 * current context between two of ours. */
int uf__cuda_rt_enter(const uf__cuda_rt *rt, uf_error *err)
{
    uf__cu_ctx cur = NULL;
    if (rt->drv->ctx_get_current(&cur) == UF__CU_SUCCESS && cur == rt->ctx)
        return 0;
    return uf__cuda_check(rt, rt->drv->ctx_set_current(rt->ctx),
                          "cuCtxSetCurrent", err);
}
