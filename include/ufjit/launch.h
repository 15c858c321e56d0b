/* CUDA kernels (@cuda.jit): launched over a grid of blocks of threads, on
 * the `cuda` target (a GPU, or the simulator with UFJIT_ENABLE_CUDASIM=1)
 * or on `cudasim`, as numba-cuda's kernel[grid, block](args...). */
#ifndef UFJIT_LAUNCH_H
#define UFJIT_LAUNCH_H

#include <stddef.h>
#include <ufjit/cuda.h>
#include <ufjit/kernel.h>

UF_BEGIN_DECLS

/* A grid or block extent. y and z of 0 mean 1, so {n} is a 1-D one. */
typedef struct uf_dim3 {
    unsigned x, y, z;
} uf_dim3;

/* Options of uf_launch. Zero-initialise, then set what you need; fields
 * may be added at the end, so always set `size = sizeof(uf_launch_options)`. */
typedef struct uf_launch_options {
    size_t size;
    /* "cuda" (NULL) or "cudasim" */
    const char *target;
    /* The stream the launch runs on (NULL: the legacy default stream). A
     * launch whose arrays are all on the device returns once queued; one
     * with host arrays waits for the kernel and copies them back. */
    uf_stream *stream;
    /* Dynamic shared memory per block, in bytes (cuda.shared.array with
     * shape 0 reads it). */
    size_t shared_bytes;
} uf_launch_options;

/* Runs kernel `f` once per thread of `grid` blocks of `block` threads.
 * args[0..n_args) are its arguments, in order: arrays (device arrays as
 * they are; host arrays copied to the device before the launch and back
 * after it, as numba-cuda does: two copies of each per launch) and 0-d
 * arrays for scalars, passed by value. The kernel is compiled on first
 * use for the arguments' types (dtype, dimensions, layout: 'C' when
 * C-contiguous, else 'A'), or for the first declared signature they fit.
 * Errors: UF_ERR_INVALID for an empty or too large grid or block, or a
 * kernel that is not a CUDA kernel (uf_call runs those); UF_ERR_TYPE when
 * no signature takes the arguments; the kernel's own errors under
 * UFJIT_DEBUG=1 / debug=True (IndexError) as the CPU words them. */
UF_EXPORT int uf_launch(uf_func *f, uf_dim3 grid, uf_dim3 block,
                        uf_array *const *args, int n_args,
                        const uf_launch_options *opts, uf_error *err);

/* numba-cuda's kernel.forall(n)(args...): launches f over at least n
 * threads in a 1-D grid, the block the size the driver's occupancy
 * calculator picks for the kernel (cuOccupancyMaxPotentialBlockSize with
 * opts->shared_bytes) and ceil(n / block) blocks; the kernel bounds its
 * index by n itself (if i < n). n == 0 launches nothing (the kernel and
 * argument count are still checked). Otherwise as uf_launch. */
UF_EXPORT int uf_launch_forall(uf_func *f, uint64_t n, uf_array *const *args,
                               int n_args, const uf_launch_options *opts,
                               uf_error *err);

/* What the driver says of a kernel compiled for some arguments, as
 * numba-cuda's kernel.get_regs_per_thread() and friends: registers and
 * local memory per thread, static shared memory per block, the most
 * threads a block may have, and the occupancy calculator's launch (the
 * block forall uses, and the fewest blocks that fill the device with it:
 * numba-cuda's max_blocks-style figure). On cudasim registers and local
 * memory are 0 (host code). */
typedef struct uf_kernel_attributes {
    int registers;
    int local_bytes;
    int shared_bytes;
    int max_threads_per_block;
    int occupancy_block;
    int occupancy_grid;
} uf_kernel_attributes;

/* Compiles f for args (as uf_launch would, on opts' target, with opts'
 * dynamic shared bytes for the occupancy figures) and fills *out;
 * nothing is launched (host arrays are still staged to type them). */
UF_EXPORT int uf_kernel_attributes_get(uf_func *f, uf_array *const *args,
                                       int n_args,
                                       const uf_launch_options *opts,
                                       uf_kernel_attributes *out,
                                       uf_error *err);

UF_END_DECLS

#endif
