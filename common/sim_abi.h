/* The cudasim kernel ABI: what kernels the NVVM lowering compiles for the
 * host (compiler/nvvm/) expect of the simulator's runtime
 * (targets/cudasim/), and what the simulator's cuModuleLoadData takes. It
 * sits in common/ because both sides must agree on it and neither may
 * include the other.
 *
 * A simulated kernel is the very IR of the CUDA kernel, compiled for the
 * host, except that special registers (threadIdx, blockIdx, blockDim,
 * gridDim) are read from the running simulated thread's state, and each
 * kernel gets a host entry taking its parameters as cuLaunchKernel does:
 * params[i] points at the i-th parameter's value. */
#ifndef UF_COMMON_SIM_ABI_H
#define UF_COMMON_SIM_ABI_H

#include <stdint.h>

/* The state of one simulated CUDA thread, valid while it runs: x, y, z
 * in [0], [1], [2]. */
typedef struct uf__sim_thread {
    uint32_t tid[3];    /* threadIdx */
    uint32_t ntid[3];   /* blockDim */
    uint32_t ctaid[3];  /* blockIdx */
    uint32_t nctaid[3]; /* gridDim */
    uint32_t laneid;    /* tid's linear index % warpsize */
    uint32_t warpsize;  /* 32 */
    void *shared;       /* the block's shared memory: the kernel's static
                           shared_bytes, then the launch's dynamic bytes
                           (64-byte aligned; not zeroed, as on a GPU) */
    void *block;        /* the simulator's own per-block state */
} uf__sim_thread;

/* The runtime functions simulated kernels call, by these names (the host
 * JIT defines them as absolute symbols from uf__sim_runtime_symbols, as
 * the CPU runtime's helpers: targets/cudasim/sim.h):
 *   const uf__sim_thread *uf__sim_self(void)
 *       the running simulated thread; the same pointer for the whole
 *       life of that thread (so calls may be merged: readnone);
 *   void uf__sim_syncthreads(void)
 *       __syncthreads(): returns when every thread of the block called it
 *       (or has exited);
 *   int32_t uf__sim_syncthreads_reduce(int32_t op, int32_t pred)
 *       __syncthreads_count / _and / _or (op 0, 1, 2: codegen.h's
 *       uf__sync_reduce): the same barrier, giving how many of the
 *       threads that met there had pred nonzero / whether all / any. */
#define UF__SIM_SELF "uf__sim_self"
#define UF__SIM_SYNCTHREADS "uf__sim_syncthreads"
#define UF__SIM_SYNCTHREADS_REDUCE "uf__sim_syncthreads_reduce"

/*   uint64_t uf__sim_warp(uint32_t op, uint32_t mask, uint64_t value,
 *                         uint32_t arg)
 *       the warp collective `op` (below) of the calling thread's warp:
 *       returns once every lane of `mask` in that warp that exists and has
 *       not exited has called it (an exited lane no longer counts), with
 *       the i32 result in the low half and the predicate (votes,
 *       match_all) in bit 32. Shuffles read the lane as PTX's shfl.sync
 *       with the whole warp as one segment: a source outside the warp or
 *       not in the mask gives the caller's own value. ACTIVEMASK gathers
 *       every lane still running and gives their mask. */
#define UF__SIM_WARP_FN "uf__sim_warp"
typedef enum uf__sim_warp_op {
    UF__SIM_SHFL_IDX, UF__SIM_SHFL_UP, UF__SIM_SHFL_DOWN, UF__SIM_SHFL_XOR,
    UF__SIM_VOTE_ALL, UF__SIM_VOTE_ANY, UF__SIM_VOTE_EQ, UF__SIM_BALLOT,
    UF__SIM_MATCH_ANY, UF__SIM_MATCH_ALL, UF__SIM_SYNCWARP,
    UF__SIM_ACTIVEMASK
} uf__sim_warp_op;

/* A kernel's host entry. */
typedef void (*uf__sim_kernel_fn)(void **params);

typedef struct uf__sim_kernel {
    const char *name; /* as cuModuleGetFunction looks it up */
    uf__sim_kernel_fn fn;
    int nparams;
    /* static shared memory the kernel needs per block, in bytes */
    uint32_t shared_bytes;
    /* the size in bytes of each parameter's value (nparams entries): an
     * asynchronous launch copies the values at launch time, as
     * cuLaunchKernel does. NULL: sizes unknown, so a launch waits until
     * the kernel has run (the host blocks; the order is the same). */
    const uint32_t *param_sizes;
} uf__sim_kernel;

/* What cudasim's module_load_data takes as its image (the real driver
 * takes PTX text). The simulator copies what it keeps: the image may be
 * freed after loading; the code it points at must outlive the module. */
#define UF__SIM_IMAGE_MAGIC 0x4d534655u /* "UFSM" */
typedef struct uf__sim_image {
    uint32_t magic;
    uint32_t nkernels;
    const uf__sim_kernel *kernels;
} uf__sim_image;

#endif
