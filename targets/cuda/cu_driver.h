/* The CUDA driver table: the Driver API calls ufjit needs, as one C
 * struct of function pointers with the Driver API's own signatures and
 * result codes. Two implementations fill it:
 *   - cu_driver_real.c: libcuda.so.1 loaded with dlopen (never linked),
 *     every entry the dlsym'd symbol;
 *   - targets/cudasim/: the same calls in-process (device memory is
 *     tagged host memory, modules are host-compiled kernel images,
 *     streams are ordered queues).
 * Everything above the table (memory manager, device arrays, dispatch,
 * launches) is the same code on both: it calls through the table only.
 *
 * The types are declared here, not taken from cuda.h: ufjit builds where
 * no toolkit is installed. Values are the Driver API's (cuda.h, CUDA 12/13),
 * so the real table passes them through unchanged. */
#ifndef UF_TARGETS_CUDA_CU_DRIVER_H
#define UF_TARGETS_CUDA_CU_DRIVER_H

#include <stddef.h>
#include <stdint.h>

#include <ufjit/error.h>

typedef int uf__cu_result;         /* CUresult */
typedef int uf__cu_device;         /* CUdevice: an ordinal */
typedef uint64_t uf__cu_dptr;      /* CUdeviceptr */
typedef struct uf__cu_ctx_s *uf__cu_ctx;       /* CUcontext */
typedef struct uf__cu_module_s *uf__cu_module; /* CUmodule */
typedef struct uf__cu_func_s *uf__cu_func;     /* CUfunction */
typedef struct uf__cu_stream_s *uf__cu_stream; /* CUstream; NULL: legacy default */
typedef struct uf__cu_event_s *uf__cu_event;   /* CUevent */
typedef struct uf__cu_link_s *uf__cu_link;     /* CUlinkState */

/* CUjitInputType and the CUjit_option values the linker is given */
typedef enum uf__cu_jit_input {
    UF__CU_JIT_INPUT_CUBIN = 0,
    UF__CU_JIT_INPUT_PTX = 1,
    UF__CU_JIT_INPUT_FATBINARY = 2,
    UF__CU_JIT_INPUT_OBJECT = 3,
    UF__CU_JIT_INPUT_LIBRARY = 4
} uf__cu_jit_input;
enum {
    UF__CU_JIT_MAX_REGISTERS = 0,
    UF__CU_JIT_INFO_LOG_BUFFER = 3,
    UF__CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4,
    UF__CU_JIT_ERROR_LOG_BUFFER = 5,
    UF__CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6
};

/* CUipcMemHandle: 64 opaque bytes */
typedef struct uf__cu_ipc_handle {
    char reserved[64];
} uf__cu_ipc_handle;

/* CUresult values ufjit names (cuda.h) */
enum {
    UF__CU_SUCCESS = 0,
    UF__CU_ERROR_INVALID_VALUE = 1,
    UF__CU_ERROR_OUT_OF_MEMORY = 2,
    UF__CU_ERROR_NOT_INITIALIZED = 3,
    UF__CU_ERROR_DEINITIALIZED = 4,
    UF__CU_ERROR_STUB_LIBRARY = 34,
    UF__CU_ERROR_INSUFFICIENT_DRIVER = 35, /* the runtime API's value */
    UF__CU_ERROR_CALL_REQUIRES_NEWER_DRIVER = 36, /* the driver's own */
    UF__CU_ERROR_NO_DEVICE = 100,
    UF__CU_ERROR_INVALID_DEVICE = 101,
    UF__CU_ERROR_INVALID_IMAGE = 200,
    UF__CU_ERROR_INVALID_CONTEXT = 201,
    UF__CU_ERROR_INVALID_PTX = 218,
    UF__CU_ERROR_UNSUPPORTED_PTX_VERSION = 222,
    UF__CU_ERROR_INVALID_HANDLE = 400,
    UF__CU_ERROR_NOT_FOUND = 500,
    UF__CU_ERROR_NOT_READY = 600,
    UF__CU_ERROR_ILLEGAL_ADDRESS = 700,
    UF__CU_ERROR_LAUNCH_OUT_OF_RESOURCES = 701,
    UF__CU_ERROR_HOST_MEMORY_ALREADY_REGISTERED = 712,
    UF__CU_ERROR_HOST_MEMORY_NOT_REGISTERED = 713,
    UF__CU_ERROR_LAUNCH_FAILED = 719,
    UF__CU_ERROR_NOT_SUPPORTED = 801,
    UF__CU_ERROR_UNKNOWN = 999
};

/* CUdevice_attribute values ufjit reads */
enum {
    UF__CU_DEV_ATTR_MAX_THREADS_PER_BLOCK = 1,
    UF__CU_DEV_ATTR_MAX_BLOCK_DIM_X = 2,
    UF__CU_DEV_ATTR_MAX_GRID_DIM_X = 5,
    UF__CU_DEV_ATTR_MAX_SHARED_MEMORY_PER_BLOCK = 8,
    UF__CU_DEV_ATTR_WARP_SIZE = 10,
    UF__CU_DEV_ATTR_MULTIPROCESSOR_COUNT = 16,
    UF__CU_DEV_ATTR_COMPUTE_CAPABILITY_MAJOR = 75,
    UF__CU_DEV_ATTR_COMPUTE_CAPABILITY_MINOR = 76,
    UF__CU_DEV_ATTR_MAX_THREADS_PER_MULTIPROCESSOR = 39,
    UF__CU_DEV_ATTR_UNIFIED_ADDRESSING = 41
};

/* CUfunction_attribute values ufjit reads */
enum {
    UF__CU_FUNC_ATTR_MAX_THREADS_PER_BLOCK = 0,
    UF__CU_FUNC_ATTR_SHARED_SIZE_BYTES = 1,
    UF__CU_FUNC_ATTR_LOCAL_SIZE_BYTES = 3,
    UF__CU_FUNC_ATTR_NUM_REGS = 4
};

/* cuMemHostAlloc flags, cuPointerGetAttribute attributes and memory types */
enum {
    UF__CU_MEMHOSTALLOC_PORTABLE = 0x01,
    UF__CU_MEMHOSTALLOC_DEVICEMAP = 0x02,
    UF__CU_MEMHOSTALLOC_WRITECOMBINED = 0x04,
    UF__CU_MEMHOSTREGISTER_PORTABLE = 0x01,
    UF__CU_MEMHOSTREGISTER_DEVICEMAP = 0x02,
    UF__CU_MEMHOSTREGISTER_IOMEMORY = 0x04,
    UF__CU_MEMHOSTREGISTER_READ_ONLY = 0x08,
    UF__CU_POINTER_ATTRIBUTE_MEMORY_TYPE = 2,
    UF__CU_MEMORYTYPE_HOST = 1,
    UF__CU_MEMORYTYPE_DEVICE = 2,
    UF__CU_STREAM_NON_BLOCKING = 0x1,
    UF__CU_EVENT_DISABLE_TIMING = 0x2,
    UF__CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS = 0x1
};

/* What a module image is: the real driver loads PTX text (NUL-terminated);
 * cudasim loads a uf__sim_image (targets/cudasim/sim_abi.h), kernels the
 * NVVM lowering compiled for the host. The layer above asks the driver
 * which one to build. */
typedef enum uf__cu_image_kind {
    UF__CU_IMAGE_PTX = 1,
    UF__CU_IMAGE_SIM = 2
} uf__cu_image_kind;

/* The table. Every entry returns a CUresult and has the signature of the
 * Driver API function in its comment (the _v2 variants where cuda.h maps
 * the name to one). */
typedef struct uf__cu_driver {
    const char *name;             /* "cuda" or "cudasim" */
    uf__cu_image_kind image_kind; /* what module_load takes */

    uf__cu_result (*init)(unsigned flags);              /* cuInit */
    uf__cu_result (*driver_version)(int *version);      /* cuDriverGetVersion */
    uf__cu_result (*get_error_name)(uf__cu_result rc, const char **s);
    uf__cu_result (*get_error_string)(uf__cu_result rc, const char **s);

    /* devices */
    uf__cu_result (*device_count)(int *n);              /* cuDeviceGetCount */
    uf__cu_result (*device_get)(uf__cu_device *d, int ordinal);
    uf__cu_result (*device_name)(char *name, int len, uf__cu_device d);
    uf__cu_result (*device_attribute)(int *v, int attr, uf__cu_device d);
    uf__cu_result (*device_total_mem)(size_t *bytes, uf__cu_device d); /* _v2 */

    /* contexts: the device's primary context, made current per thread */
    uf__cu_result (*primary_ctx_retain)(uf__cu_ctx *c, uf__cu_device d);
    uf__cu_result (*primary_ctx_release)(uf__cu_device d); /* _v2 */
    uf__cu_result (*ctx_set_current)(uf__cu_ctx c);
    uf__cu_result (*ctx_get_current)(uf__cu_ctx *c);
    uf__cu_result (*ctx_synchronize)(void);

    /* modules and functions */
    uf__cu_result (*module_load_data)(uf__cu_module *m, const void *image);
    uf__cu_result (*module_unload)(uf__cu_module m);
    uf__cu_result (*module_get_function)(uf__cu_func *f, uf__cu_module m,
                                         const char *name);
    uf__cu_result (*func_get_attribute)(int *v, int attr, uf__cu_func f);
    /* the linker (cuLinkCreate_v2 ...; NULL on cudasim, and where the
     * library lacks them): options as cuda.h's CUjit_option, inputs as
     * its CUjitInputType (uf__cu_jit_input); the cubin lives until
     * link_destroy */
    uf__cu_result (*link_create)(unsigned nopts, int *opts, void **values,
                                 uf__cu_link *state);
    uf__cu_result (*link_add_data)(uf__cu_link state, int type, void *data,
                                   size_t size, const char *name,
                                   unsigned nopts, int *opts, void **values);
    uf__cu_result (*link_add_file)(uf__cu_link state, int type,
                                   const char *path, unsigned nopts,
                                   int *opts, void **values);
    uf__cu_result (*link_complete)(uf__cu_link state, void **cubin,
                                   size_t *size);
    uf__cu_result (*link_destroy)(uf__cu_link state);
    /* cuLaunchKernel: params[i] points at the i-th parameter's value */
    uf__cu_result (*launch_kernel)(uf__cu_func f, unsigned gx, unsigned gy,
                                   unsigned gz, unsigned bx, unsigned by,
                                   unsigned bz, unsigned shared_bytes,
                                   uf__cu_stream s, void **params,
                                   void **extra);
    /* cuOccupancyMaxPotentialBlockSize without the size callback: the
     * dynamic shared memory is the same for every block size */
    uf__cu_result (*occupancy_max_block)(int *min_grid, int *block,
                                         uf__cu_func f, size_t shared_bytes,
                                         int block_limit);

    /* device memory (all _v2) */
    uf__cu_result (*mem_alloc)(uf__cu_dptr *p, size_t bytes);
    uf__cu_result (*mem_free)(uf__cu_dptr p);
    uf__cu_result (*mem_get_info)(size_t *free_bytes, size_t *total_bytes);
    uf__cu_result (*memset_d8)(uf__cu_dptr p, unsigned char v, size_t n);
    uf__cu_result (*memset_d8_async)(uf__cu_dptr p, unsigned char v,
                                     size_t n, uf__cu_stream s);
    uf__cu_result (*memcpy_htod)(uf__cu_dptr dst, const void *src, size_t n);
    uf__cu_result (*memcpy_dtoh)(void *dst, uf__cu_dptr src, size_t n);
    uf__cu_result (*memcpy_dtod)(uf__cu_dptr dst, uf__cu_dptr src, size_t n);
    uf__cu_result (*memcpy_htod_async)(uf__cu_dptr dst, const void *src,
                                       size_t n, uf__cu_stream s);
    uf__cu_result (*memcpy_dtoh_async)(void *dst, uf__cu_dptr src, size_t n,
                                       uf__cu_stream s);
    uf__cu_result (*memcpy_dtod_async)(uf__cu_dptr dst, uf__cu_dptr src,
                                       size_t n, uf__cu_stream s);
    /* cuPointerGetAttribute: *data receives the attribute's value (an
     * unsigned int memory type for UF__CU_POINTER_ATTRIBUTE_MEMORY_TYPE);
     * an address the driver does not know is UF__CU_ERROR_INVALID_VALUE */
    uf__cu_result (*pointer_get_attribute)(void *data, int attr,
                                           uf__cu_dptr p);

    /* pinned and mapped host memory */
    uf__cu_result (*mem_host_alloc)(void **p, size_t bytes, unsigned flags);
    uf__cu_result (*mem_free_host)(void *p);
    uf__cu_result (*mem_host_get_device_pointer)(uf__cu_dptr *d, void *p,
                                                 unsigned flags); /* _v2 */
    uf__cu_result (*mem_host_register)(void *p, size_t bytes,
                                       unsigned flags); /* _v2 */
    uf__cu_result (*mem_host_unregister)(void *p);

    /* streams and events */
    uf__cu_result (*stream_create)(uf__cu_stream *s, unsigned flags);
    uf__cu_result (*stream_destroy)(uf__cu_stream s); /* _v2 */
    uf__cu_result (*stream_synchronize)(uf__cu_stream s);
    uf__cu_result (*stream_query)(uf__cu_stream s);
    uf__cu_result (*stream_wait_event)(uf__cu_stream s, uf__cu_event e,
                                       unsigned flags);
    uf__cu_result (*event_create)(uf__cu_event *e, unsigned flags);
    uf__cu_result (*event_destroy)(uf__cu_event e); /* _v2 */
    uf__cu_result (*event_record)(uf__cu_event e, uf__cu_stream s);
    uf__cu_result (*event_query)(uf__cu_event e);
    uf__cu_result (*event_synchronize)(uf__cu_event e);
    uf__cu_result (*event_elapsed_time)(float *ms, uf__cu_event start,
                                        uf__cu_event end);

    /* IPC */
    uf__cu_result (*ipc_get_mem_handle)(uf__cu_ipc_handle *h, uf__cu_dptr p);
    uf__cu_result (*ipc_open_mem_handle)(uf__cu_dptr *p, uf__cu_ipc_handle h,
                                         unsigned flags); /* _v2 */
    uf__cu_result (*ipc_close_mem_handle)(uf__cu_dptr p);
} uf__cu_driver;

/* The real driver, loaded once per process (thread-safe). NULL with err
 * set to UF_ERR_NO_DEVICE and the reason: no libcuda.so.1 (dlerror's
 * text), a missing symbol (named), the toolkit's stub library (34), a
 * driver older than ufjit needs (35/36 from cuInit, or cuDriverGetVersion
 * below UF__CU_MIN_DRIVER_VERSION), no device (100), a
 * zero device count, or another cuInit failure with its name. A failure
 * is remembered: later calls report it again without retrying. The
 * library is found as UFJIT_CUDA_DRIVER names it (a path; for tests), else
 * as "libcuda.so.1" by the dynamic loader's search. */
const uf__cu_driver *uf__cu_driver_real(uf_error *err);

/* The in-process simulator's table (targets/cudasim/); never fails. */
const uf__cu_driver *uf__cu_driver_sim(void);

/* The driver the `cuda` target runs on: the simulator when
 * UFJIT_ENABLE_CUDASIM=1, else uf__cu_driver_real. */
const uf__cu_driver *uf__cu_driver_for_cuda(uf_error *err);

/* CUDA's name ("CUDA_ERROR_OUT_OF_MEMORY") and description of a CUresult
 * from ufjit's own table (cu_errors.c), or NULL for a code it lacks: what
 * messages fall back on, and cudasim's cuGetErrorName/String. */
const char *uf__cu_error_name(uf__cu_result rc);
const char *uf__cu_error_string(uf__cu_result rc);

/* Sets err from a failed driver call: UF_ERR_NOMEM for out of memory,
 * UF_ERR_NO_DEVICE for 34/35/36/100/101, UF_ERR_INVALID for invalid values
 * and handles, else UF_ERR_INTERNAL; the message names the call (`what`,
 * e.g. "cuMemAlloc"), the driver's error name and description and the
 * driver ("cuda"/"cudasim"). Returns the code; 0 when rc is success. */
int uf__cu_check(const uf__cu_driver *d, uf__cu_result rc, const char *what,
                 uf_error *err);

#endif
