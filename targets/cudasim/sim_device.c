/* cudasim's one device, "ufjit cudasim" (ordinal 0): what cuDeviceGet*
 * and cuDriverGetVersion report, and the error names. Every query needs
 * cuInit first, as the driver's. */
#include <stdio.h>
#include <string.h>

#include "targets/cudasim/sim_entries.h"
#include "targets/cudasim/sim_internal.h"
#include "targets/parallel/parallel.h"

int uf__sim_sm_count(void)
{
    int n = uf__parallel_default_threads();
    return n > 0 ? n : 1;
}

uf__cu_result uf__sim_driver_version(int *version)
{
    if (version == NULL)
        return UF__CU_ERROR_INVALID_VALUE;
    *version = UF__SIM_DRIVER_VERSION;
    return UF__CU_SUCCESS;
}

uf__cu_result uf__sim_get_error_name(uf__cu_result rc, const char **s)
{
    if (s == NULL)
        return UF__CU_ERROR_INVALID_VALUE;
    *s = uf__cu_error_name(rc);
    return *s ? UF__CU_SUCCESS : UF__CU_ERROR_INVALID_VALUE;
}

uf__cu_result uf__sim_get_error_string(uf__cu_result rc, const char **s)
{
    if (s == NULL)
        return UF__CU_ERROR_INVALID_VALUE;
    *s = uf__cu_error_string(rc);
    return *s ? UF__CU_SUCCESS : UF__CU_ERROR_INVALID_VALUE;
}

uf__cu_result uf__sim_device_count(int *n)
{
    if (!uf__sim_initialized())
        return UF__CU_ERROR_NOT_INITIALIZED;
    if (n == NULL)
        return UF__CU_ERROR_INVALID_VALUE;
    *n = 1;
    return UF__CU_SUCCESS;
}

uf__cu_result uf__sim_device_get(uf__cu_device *d, int ordinal)
{
    if (!uf__sim_initialized())
        return UF__CU_ERROR_NOT_INITIALIZED;
    if (d == NULL)
        return UF__CU_ERROR_INVALID_VALUE;
    if (ordinal != 0)
        return UF__CU_ERROR_INVALID_DEVICE;
    *d = 0;
    return UF__CU_SUCCESS;
}

uf__cu_result uf__sim_device_name(char *name, int len, uf__cu_device d)
{
    if (!uf__sim_initialized())
        return UF__CU_ERROR_NOT_INITIALIZED;
    if (name == NULL || len <= 0)
        return UF__CU_ERROR_INVALID_VALUE;
    if (d != 0)
        return UF__CU_ERROR_INVALID_DEVICE;
    snprintf(name, (size_t)len, "%s", UF__SIM_DEVICE_NAME);
    return UF__CU_SUCCESS;
}

uf__cu_result uf__sim_device_attribute(int *v, int attr, uf__cu_device d)
{
    if (!uf__sim_initialized())
        return UF__CU_ERROR_NOT_INITIALIZED;
    if (v == NULL)
        return UF__CU_ERROR_INVALID_VALUE;
    if (d != 0)
        return UF__CU_ERROR_INVALID_DEVICE;
    switch (attr) {
    case UF__CU_DEV_ATTR_MAX_THREADS_PER_BLOCK:
    case UF__CU_DEV_ATTR_MAX_BLOCK_DIM_X:
    case UF__CU_DEV_ATTR_MAX_BLOCK_DIM_X + 1: /* y */
        *v = UF__SIM_MAX_THREADS;
        return UF__CU_SUCCESS;
    case UF__CU_DEV_ATTR_MAX_BLOCK_DIM_X + 2: /* z */
        *v = UF__SIM_MAX_BLOCK_Z;
        return UF__CU_SUCCESS;
    case UF__CU_DEV_ATTR_MAX_GRID_DIM_X:
        *v = (int)UF__SIM_MAX_GRID_X;
        return UF__CU_SUCCESS;
    case UF__CU_DEV_ATTR_MAX_GRID_DIM_X + 1: /* y */
    case UF__CU_DEV_ATTR_MAX_GRID_DIM_X + 2: /* z */
        *v = (int)UF__SIM_MAX_GRID_YZ;
        return UF__CU_SUCCESS;
    case UF__CU_DEV_ATTR_MAX_SHARED_MEMORY_PER_BLOCK:
        *v = (int)UF__SIM_SHARED_LIMIT;
        return UF__CU_SUCCESS;
    case UF__CU_DEV_ATTR_WARP_SIZE:
        *v = UF__SIM_WARP;
        return UF__CU_SUCCESS;
    case UF__CU_DEV_ATTR_MULTIPROCESSOR_COUNT:
        *v = uf__sim_sm_count();
        return UF__CU_SUCCESS;
    case UF__CU_DEV_ATTR_COMPUTE_CAPABILITY_MAJOR:
        *v = UF__SIM_CC_MAJOR;
        return UF__CU_SUCCESS;
    case UF__CU_DEV_ATTR_COMPUTE_CAPABILITY_MINOR:
        *v = UF__SIM_CC_MINOR;
        return UF__CU_SUCCESS;
    case UF__CU_DEV_ATTR_MAX_THREADS_PER_MULTIPROCESSOR:
        *v = UF__SIM_THREADS_PER_SM;
        return UF__CU_SUCCESS;
    case UF__CU_DEV_ATTR_UNIFIED_ADDRESSING:
        *v = 1;
        return UF__CU_SUCCESS;
    default:
        return UF__CU_ERROR_INVALID_VALUE;
    }
}

uf__cu_result uf__sim_device_total_mem(size_t *bytes, uf__cu_device d)
{
    if (!uf__sim_initialized())
        return UF__CU_ERROR_NOT_INITIALIZED;
    if (bytes == NULL)
        return UF__CU_ERROR_INVALID_VALUE;
    if (d != 0)
        return UF__CU_ERROR_INVALID_DEVICE;
    *bytes = uf__sim_mem_total();
    return UF__CU_SUCCESS;
}
