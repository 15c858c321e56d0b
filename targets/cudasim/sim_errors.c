/* cudasim's error names and descriptions: CUDA's own (cuGetErrorName,
 * cuGetErrorString), from one table as libuv's UV_ERRNO_MAP, for the
 * codes the simulator can return and the common others. */
#include "targets/cudasim/sim_internal.h"

#define UF__SIM_ERRORS(X)                                                    \
    X(0, "CUDA_SUCCESS", "no error")                                         \
    X(1, "CUDA_ERROR_INVALID_VALUE", "invalid argument")                     \
    X(2, "CUDA_ERROR_OUT_OF_MEMORY", "out of memory")                        \
    X(3, "CUDA_ERROR_NOT_INITIALIZED", "initialization error")               \
    X(4, "CUDA_ERROR_DEINITIALIZED", "driver shutting down")                 \
    X(34, "CUDA_ERROR_STUB_LIBRARY",                                         \
      "CUDA driver is a stub library")                                       \
    X(35, "CUDA_ERROR_INSUFFICIENT_DRIVER",                                  \
      "CUDA driver version is insufficient for CUDA runtime version")        \
    X(100, "CUDA_ERROR_NO_DEVICE", "no CUDA-capable device is detected")     \
    X(101, "CUDA_ERROR_INVALID_DEVICE", "invalid device ordinal")            \
    X(200, "CUDA_ERROR_INVALID_IMAGE", "device kernel image is invalid")     \
    X(201, "CUDA_ERROR_INVALID_CONTEXT", "invalid device context")           \
    X(218, "CUDA_ERROR_INVALID_PTX",                                         \
      "a PTX JIT compilation failed")                                        \
    X(222, "CUDA_ERROR_UNSUPPORTED_PTX_VERSION",                             \
      "the provided PTX was compiled with an unsupported toolchain.")        \
    X(400, "CUDA_ERROR_INVALID_HANDLE", "invalid resource handle")           \
    X(500, "CUDA_ERROR_NOT_FOUND", "named symbol not found")                 \
    X(600, "CUDA_ERROR_NOT_READY", "device not ready")                       \
    X(700, "CUDA_ERROR_ILLEGAL_ADDRESS",                                     \
      "an illegal memory access was encountered")                            \
    X(701, "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES",                             \
      "too many resources requested for launch")                            \
    X(712, "CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED",                      \
      "part or all of the requested memory range is already mapped")        \
    X(713, "CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED",                          \
      "pointer does not correspond to a registered memory region")          \
    X(719, "CUDA_ERROR_LAUNCH_FAILED", "unspecified launch failure")         \
    X(801, "CUDA_ERROR_NOT_SUPPORTED", "operation not supported")            \
    X(999, "CUDA_ERROR_UNKNOWN", "unknown error")

const char *uf__sim_error_name(uf__cu_result rc)
{
    switch (rc) {
#define X(code, name, text) \
    case code:              \
        return name;
        UF__SIM_ERRORS(X)
#undef X
    default:
        return NULL;
    }
}

const char *uf__sim_error_string(uf__cu_result rc)
{
    switch (rc) {
#define X(code, name, text) \
    case code:              \
        return text;
        UF__SIM_ERRORS(X)
#undef X
    default:
        return NULL;
    }
}
