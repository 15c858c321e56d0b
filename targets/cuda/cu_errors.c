/* CUresult codes as ufjit errors: the UF_ERR_* code of a failed driver
 * call and a message naming the call, the driver's error name and its
 * description. Names come from the driver (cuGetErrorName/String) when it
 * knows the code; ufjit's own table below covers the codes a driver that
 * failed to load reports, so a message is never a bare number, and it is
 * cudasim's cuGetErrorName/String. */
#include <stdio.h>

#include "common/error_internal.h"
#include "targets/cuda/cu_driver_internal.h"

typedef struct cu_error_info {
    uf__cu_result rc;
    const char *name;
    const char *text; /* as cuGetErrorString words it */
} cu_error_info;

/* The common CUresult values (cuda.h, CUDA 13). 35 is not a CUresult: it
 * is the runtime API's cudaErrorInsufficientDriver, which cu_driver.h
 * names because driver wrappers pass it on; the driver's own "too old" is
 * 36. */
static const cu_error_info cu_errors[] = {
    {0, "CUDA_SUCCESS", "no error"},
    {1, "CUDA_ERROR_INVALID_VALUE", "invalid argument"},
    {2, "CUDA_ERROR_OUT_OF_MEMORY", "out of memory"},
    {3, "CUDA_ERROR_NOT_INITIALIZED", "initialization error"},
    {4, "CUDA_ERROR_DEINITIALIZED", "driver shutting down"},
    {34, "CUDA_ERROR_STUB_LIBRARY", "CUDA driver is a stub library"},
    {35, "CUDA_ERROR_INSUFFICIENT_DRIVER",
     "CUDA driver version is insufficient for CUDA runtime version"},
    {36, "CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER",
     "API call is not supported in the installed CUDA driver"},
    {46, "CUDA_ERROR_DEVICE_UNAVAILABLE",
     "CUDA-capable device(s) is/are busy or unavailable"},
    {100, "CUDA_ERROR_NO_DEVICE", "no CUDA-capable device is detected"},
    {101, "CUDA_ERROR_INVALID_DEVICE", "invalid device ordinal"},
    {200, "CUDA_ERROR_INVALID_IMAGE", "device kernel image is invalid"},
    {201, "CUDA_ERROR_INVALID_CONTEXT", "invalid device context"},
    {209, "CUDA_ERROR_NO_BINARY_FOR_GPU",
     "no kernel image is available for execution on the device"},
    {218, "CUDA_ERROR_INVALID_PTX", "a PTX JIT compilation failed"},
    {221, "CUDA_ERROR_JIT_COMPILER_NOT_FOUND",
     "PTX JIT compiler library not found"},
    {222, "CUDA_ERROR_UNSUPPORTED_PTX_VERSION",
     "the provided PTX was compiled with an unsupported toolchain"},
    {400, "CUDA_ERROR_INVALID_HANDLE", "invalid resource handle"},
    {401, "CUDA_ERROR_ILLEGAL_STATE", "the operation is not permitted in "
                                      "the current state"},
    {500, "CUDA_ERROR_NOT_FOUND", "named symbol not found"},
    {600, "CUDA_ERROR_NOT_READY", "device not ready"},
    {700, "CUDA_ERROR_ILLEGAL_ADDRESS",
     "an illegal memory access was encountered"},
    {701, "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES",
     "too many resources requested for launch"},
    {702, "CUDA_ERROR_LAUNCH_TIMEOUT",
     "the launch timed out and was terminated"},
    {709, "CUDA_ERROR_CONTEXT_IS_DESTROYED", "context is destroyed"},
    {710, "CUDA_ERROR_ASSERT", "device-side assert triggered"},
    {712, "CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED",
     "part or all of the requested memory range is already mapped"},
    {713, "CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED",
     "pointer does not correspond to a registered memory region"},
    {715, "CUDA_ERROR_ILLEGAL_INSTRUCTION",
     "an illegal instruction was encountered"},
    {716, "CUDA_ERROR_MISALIGNED_ADDRESS", "misaligned address"},
    {719, "CUDA_ERROR_LAUNCH_FAILED", "unspecified launch failure"},
    {800, "CUDA_ERROR_NOT_PERMITTED", "operation not permitted"},
    {801, "CUDA_ERROR_NOT_SUPPORTED", "operation not supported"},
    {802, "CUDA_ERROR_SYSTEM_NOT_READY", "system not yet initialized"},
    {803, "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH",
     "system has unsupported display driver / cuda driver combination"},
    {999, "CUDA_ERROR_UNKNOWN", "unknown error"},
};

static const cu_error_info *builtin_error(uf__cu_result rc)
{
    for (size_t i = 0; i < sizeof cu_errors / sizeof cu_errors[0]; i++)
        if (cu_errors[i].rc == rc)
            return &cu_errors[i];
    return NULL;
}

const char *uf__cu_error_name(uf__cu_result rc)
{
    const cu_error_info *e = builtin_error(rc);
    return e != NULL ? e->name : NULL;
}

const char *uf__cu_error_string(uf__cu_result rc)
{
    const cu_error_info *e = builtin_error(rc);
    return e != NULL ? e->text : NULL;
}

const char *uf__cu_error_text(const uf__cu_driver *d, uf__cu_result rc,
                              char *buf, size_t size)
{
    const char *name = NULL, *text = NULL;
    /* The driver's own words first: a newer driver knows codes we do not.
     * A driver that does not know rc answers with an error and NULL. */
    if (d != NULL && d->get_error_name != NULL &&
        d->get_error_name(rc, &name) != UF__CU_SUCCESS)
        name = NULL;
    if (d != NULL && d->get_error_string != NULL &&
        d->get_error_string(rc, &text) != UF__CU_SUCCESS)
        text = NULL;
    const cu_error_info *own = builtin_error(rc);
    if (name == NULL && own != NULL)
        name = own->name;
    if (text == NULL && own != NULL)
        text = own->text;
    if (name == NULL)
        snprintf(buf, size, "CUDA error %d (%s)", (int)rc,
                 text != NULL ? text : "a code unknown to ufjit and the driver");
    else
        snprintf(buf, size, "%s (%s)", name,
                 text != NULL ? text : "no description");
    return buf;
}

int uf__cu_error_code(uf__cu_result rc)
{
    switch (rc) {
    case UF__CU_SUCCESS:
        return UF_ERR_OK;
    case UF__CU_ERROR_OUT_OF_MEMORY:
        return UF_ERR_NOMEM;
    case UF__CU_ERROR_STUB_LIBRARY:
    case UF__CU_ERROR_INSUFFICIENT_DRIVER:
    case UF__CU_ERROR_CALL_REQUIRES_NEWER_DRIVER:
    case UF__CU_ERROR_NO_DEVICE:
    case UF__CU_ERROR_INVALID_DEVICE:
        return UF_ERR_NO_DEVICE;
    case UF__CU_ERROR_INVALID_VALUE:
    case UF__CU_ERROR_INVALID_HANDLE:
        return UF_ERR_INVALID;
    default:
        return UF_ERR_INTERNAL;
    }
}

int uf__cu_check(const uf__cu_driver *d, uf__cu_result rc, const char *what,
                 uf_error *err)
{
    if (rc == UF__CU_SUCCESS)
        return 0;
    char text[512];
    uf__cu_error_text(d, rc, text, sizeof text);
    return uf__error_set(err, uf__cu_error_code(rc), "%s failed on %s: %s",
                         what != NULL ? what : "a CUDA driver call",
                         d != NULL && d->name != NULL ? d->name : "cuda",
                         text);
}
