/* cudasim's cuLaunchKernel: the launch is checked as the driver checks it
 * (CUDA_ERROR_INVALID_VALUE for a block of more than 1024 threads or a
 * dimension past CUDA's limits, for a zero dimension, for shared memory
 * past 48 KiB per block; CUDA_ERROR_INVALID_HANDLE for an unknown
 * function), then becomes an operation on its stream that runs the grid
 * on the block pool. The parameter values are copied at launch time, as
 * the driver copies them, from the kernel's param_sizes; a kernel without
 * them cannot be copied, so its launch waits until the grid has run. */
#include <string.h>

#include "common/alloc.h"
#include "targets/cudasim/sim_entries.h"
#include "targets/cudasim/sim_internal.h"

#define UF__SIM_PARAM_ALIGN 16

typedef struct launch_op {
    uf__sim_op op;
    uf__sim_grid grid;
    void **params;   /* nparams pointers, into values when copied */
    char *values;
} launch_op;

static uf__cu_result run_launch(uf__sim_op *op)
{
    return uf__sim_run_grid(&((launch_op *)op)->grid);
}

static void release_launch(uf__sim_op *op)
{
    launch_op *l = (launch_op *)op;
    uf__free(l->params);
    uf__free(l->values);
    uf__free(l);
}

static uf__cu_result check_dims(unsigned gx, unsigned gy, unsigned gz,
                                unsigned bx, unsigned by, unsigned bz)
{
    if (gx == 0 || gy == 0 || gz == 0 || bx == 0 || by == 0 || bz == 0)
        return UF__CU_ERROR_INVALID_VALUE;
    if (gx > UF__SIM_MAX_GRID_X || gy > UF__SIM_MAX_GRID_YZ ||
        gz > UF__SIM_MAX_GRID_YZ)
        return UF__CU_ERROR_INVALID_VALUE;
    if (bx > UF__SIM_MAX_THREADS || by > UF__SIM_MAX_THREADS ||
        bz > UF__SIM_MAX_BLOCK_Z ||
        (uint64_t)bx * by * bz > UF__SIM_MAX_THREADS)
        return UF__CU_ERROR_INVALID_VALUE;
    return UF__CU_SUCCESS;
}

/* Copies the parameter pointers, and the values when their sizes are
 * known, into l. */
static uf__cu_result copy_params(launch_op *l, const uf__sim_kernel *k,
                                 void **params)
{
    size_t n = (size_t)k->nparams;
    l->params = uf__calloc(n ? n : 1, sizeof *l->params, NULL);
    if (l->params == NULL)
        return UF__CU_ERROR_OUT_OF_MEMORY;
    if (k->param_sizes == NULL) {
        memcpy(l->params, params, n * sizeof *params);
        return UF__CU_SUCCESS;
    }
    size_t total = 0;
    for (size_t i = 0; i < n; i++)
        total += (k->param_sizes[i] + UF__SIM_PARAM_ALIGN - 1) /
                 UF__SIM_PARAM_ALIGN * UF__SIM_PARAM_ALIGN;
    l->values = uf__malloc_aligned(total ? total : 1, NULL);
    if (l->values == NULL)
        return UF__CU_ERROR_OUT_OF_MEMORY;
    size_t at = 0;
    for (size_t i = 0; i < n; i++) {
        l->params[i] = l->values + at;
        memcpy(l->values + at, params[i], k->param_sizes[i]);
        at += (k->param_sizes[i] + UF__SIM_PARAM_ALIGN - 1) /
              UF__SIM_PARAM_ALIGN * UF__SIM_PARAM_ALIGN;
    }
    return UF__CU_SUCCESS;
}

uf__cu_result uf__sim_launch_kernel(uf__cu_func f, unsigned gx, unsigned gy,
                                    unsigned gz, unsigned bx, unsigned by,
                                    unsigned bz, unsigned shared_bytes,
                                    uf__cu_stream s, void **params,
                                    void **extra)
{
    uf__cu_result rc = uf__sim_need_ctx();
    if (rc)
        return rc;
    const uf__sim_kernel *k = uf__sim_func_kernel(f);
    if (k == NULL)
        return UF__CU_ERROR_INVALID_HANDLE;
    if (extra != NULL)
        return UF__CU_ERROR_NOT_SUPPORTED; /* only kernelParams */
    rc = check_dims(gx, gy, gz, bx, by, bz);
    if (rc)
        return rc;
    if ((uint64_t)k->shared_bytes + shared_bytes > UF__SIM_SHARED_LIMIT)
        return UF__CU_ERROR_INVALID_VALUE;
    if (k->nparams > 0 && params == NULL)
        return UF__CU_ERROR_INVALID_VALUE;
    for (int i = 0; i < k->nparams; i++)
        if (params[i] == NULL)
            return UF__CU_ERROR_INVALID_VALUE;

    launch_op *l = uf__calloc(1, sizeof *l, NULL);
    if (l == NULL)
        return UF__CU_ERROR_OUT_OF_MEMORY;
    rc = copy_params(l, k, params);
    if (rc) {
        release_launch(&l->op);
        return rc;
    }
    bool copied = k->param_sizes != NULL || k->nparams == 0;
    l->op.run = run_launch;
    l->op.release = release_launch;
    l->grid = (uf__sim_grid){
        .fn = k->fn,
        .params = l->params,
        .grid = {gx, gy, gz},
        .block = {bx, by, bz},
        .shared_bytes = (size_t)k->shared_bytes + shared_bytes,
        .nblocks = (uint64_t)gx * gy * gz,
    };
    rc = uf__sim_submit(s, &l->op);
    if (rc == UF__CU_SUCCESS && s != NULL && !copied)
        rc = uf__sim_stream_synchronize(s); /* the values are the caller's */
    return rc;
}
