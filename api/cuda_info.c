/* ufjit/system.h's view of the CUDA driver, for sysinfo and tools: the
 * real driver table's state and each device, read without a context. */
#include <stdio.h>

#include <ufjit/system.h>

#include "common/error_internal.h"
#include "targets/cuda/cu_driver.h"
#include "targets/cuda/cu_driver_internal.h"

int uf_cuda_driver(char *version, size_t version_size, char *path,
                   size_t path_size, uf_error *err)
{
    const uf__cu_driver *d = uf__cu_driver_real(err);
    if (d == NULL)
        return UF_ERR_NO_DEVICE;
    int v = 0, n = 0;
    int rc = uf__cu_check(d, d->driver_version(&v), "cuDriverGetVersion",
                          err);
    if (rc == 0)
        rc = uf__cu_check(d, d->device_count(&n), "cuDeviceGetCount", err);
    if (rc != 0)
        return rc;
    if (version != NULL && version_size > 0)
        snprintf(version, version_size, "%d.%d", v / 1000, v % 1000 / 10);
    if (path != NULL && path_size > 0)
        snprintf(path, path_size, "%s", uf__cu_driver_real_path());
    return n;
}

int uf_cuda_device(int i, char *name, size_t name_size, int *cc_major,
                   int *cc_minor, size_t *total_bytes, uf_error *err)
{
    const uf__cu_driver *d = uf__cu_driver_real(err);
    if (d == NULL)
        return UF_ERR_NO_DEVICE;
    uf__cu_device dev;
    char buf[256];
    int major = 0, minor = 0;
    size_t total = 0;
    int rc = uf__cu_check(d, d->device_get(&dev, i), "cuDeviceGet", err);
    if (rc == 0)
        rc = uf__cu_check(d, d->device_name(buf, (int)sizeof buf, dev),
                          "cuDeviceGetName", err);
    if (rc == 0)
        rc = uf__cu_check(d, d->device_attribute(
                                 &major,
                                 UF__CU_DEV_ATTR_COMPUTE_CAPABILITY_MAJOR,
                                 dev),
                          "cuDeviceGetAttribute", err);
    if (rc == 0)
        rc = uf__cu_check(d, d->device_attribute(
                                 &minor,
                                 UF__CU_DEV_ATTR_COMPUTE_CAPABILITY_MINOR,
                                 dev),
                          "cuDeviceGetAttribute", err);
    if (rc == 0)
        rc = uf__cu_check(d, d->device_total_mem(&total, dev),
                          "cuDeviceTotalMem", err);
    if (rc != 0)
        return rc;
    if (name != NULL && name_size > 0)
        snprintf(name, name_size, "%s", buf);
    if (cc_major != NULL)
        *cc_major = major;
    if (cc_minor != NULL)
        *cc_minor = minor;
    if (total_bytes != NULL)
        *total_bytes = total;
    return 0;
}
