/* The CUDA runtime state of one driver (the real one, or cudasim): the
 * device ufjit uses, its primary context, and what was read of it once.
 * Everything above the driver table (device arrays, streams, dispatch,
 * launches) reaches the driver through this, so that `cuda` and
 * `cudasim` run the same code. */
#ifndef UF_TARGETS_CUDA_CUDA_RUNTIME_H
#define UF_TARGETS_CUDA_CUDA_RUNTIME_H

#include <stdbool.h>
#include <stddef.h>

#include "targets/cuda/cu_driver.h"

typedef struct uf__cuda_rt {
    const uf__cu_driver *drv;
    const char *target; /* "cuda" or "cudasim": the target it serves */
    uf__cu_device dev;  /* device 0 (one device per process for now) */
    uf__cu_ctx ctx;     /* its primary context */
    char name[128];
    int cc_major, cc_minor;
    int sm_count, warp_size, max_threads_per_block;
    size_t total_mem;
} uf__cuda_rt;

/* The runtime of target `target` (NULL or "cuda": the real driver, or the
 * simulator when UFJIT_ENABLE_CUDASIM=1; "cudasim": the simulator),
 * initialised once per process, its context made current on the calling
 * thread. NULL with err set (UF_ERR_NO_DEVICE and the reason) when the
 * target cannot run here. */
const uf__cuda_rt *uf__cuda_rt_get(const char *target, uf_error *err);

/* Makes rt's context current on the calling thread. 0 or err's code. */
int uf__cuda_rt_enter(const uf__cuda_rt *rt, uf_error *err);

/* uf__cu_check with rt's driver. */
static inline int uf__cuda_check(const uf__cuda_rt *rt, uf__cu_result rc,
                                 const char *what, uf_error *err)
{
    return rc == UF__CU_SUCCESS ? 0 : uf__cu_check(rt->drv, rc, what, err);
}

#endif
