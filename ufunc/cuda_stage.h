/* What every call on the CUDA targets does around its kernel, whatever
 * the kind (vectorize: ufunc/cuda_call.c, guvectorize:
 * gufunc/gufunc_cuda.c): operands staged on the device (device arrays as
 * they are, host arrays cast and copied in, mapped host arrays in place),
 * the launch's parameters packed as nvvm.h's ABI says, the launch over a
 * grid-stride loop with its status word turned into the CPU target's
 * error, and results copied back or handed out. */
#ifndef UF_UFUNC_CUDA_STAGE_H
#define UF_UFUNC_CUDA_STAGE_H

#include <ufjit/cuda.h>
#include <ufjit/kernel.h>

#include "ufunc/cuda_kernels.h"

/* One operand as the kernel sees it. */
typedef struct uf__cuda_operand {
    uf_array *dev;   /* the device array the kernel reads or writes (ref) */
    uf__cu_dptr ptr; /* its element 0 on the device */
    bool scalar;     /* an input passed by value */
    unsigned char value[16];
    uf_array *host_out; /* an output to copy back into (ref), or NULL */
} uf__cuda_operand;

/* A call's runtime and stream (both checked by uf__cuda_call_begin). */
typedef struct uf__cuda_site {
    const uf__cuda_rt *rt;
    uf_stream *stream;
    const char *kind; /* "ufunc" or "gufunc": how the CPU's errors start */
    const char *name; /* the kernel's */
    bool host_side;   /* a host operand: synchronise before returning */
    bool any_device;  /* an input or out= on the device: new results stay
                       * there (set by the caller before staging) */
} uf__cuda_site;

static inline bool uf__cuda_on_device(const uf_array *a)
{
    return uf_array_device(a).type == UF_DEVICE_CUDA;
}

/* The runtime of `target` and the call's stream (opts->stream, which must
 * belong to it); `kind` ("ufunc", "gufunc") and `name`, the kernel's, for
 * messages. */
int uf__cuda_call_begin(uf__cuda_site *s, const char *target,
                        const char *kind, const char *name,
                        const uf_call_options *opts, uf_error *err);

/* Whether any input or given out= is a device array: where new results
 * go (numba-cuda's rule). */
bool uf__cuda_any_device(uf_array *const *inputs, int n_in,
                         uf_array *const *outputs, int n_out);

/* Input k (0-based) as dtype dt on the device: a device array of exactly
 * dt as it is, a host array (by value when `by_value` and 0-d) cast and
 * copied in, a mapped host array in place. */
int uf__cuda_stage_input(uf__cuda_site *s, int k, const uf_array *a,
                         uf_dtype dt, bool by_value, uf__cuda_operand *op,
                         uf_error *err);

/* Given output k (0-based, shape checked by the caller) for results of
 * dtype dt: a writeable device array of dt used as it is (op->dev), a
 * host array that dt casts to under same_kind kept for the copy back
 * (op->host_out; the caller allocates op->dev). */
int uf__cuda_stage_output(uf__cuda_site *s, int k, uf_array *o, uf_dtype dt,
                          uf__cuda_operand *op, uf_error *err);

/* A new device array for an output without one: op->dev, op->ptr. */
int uf__cuda_alloc_output(uf__cuda_site *s, uf__cuda_operand *op,
                          uf_dtype dt, int ndim, const int64_t *shape,
                          uf_error *err);

/* Merges adjacent axes of (*ndim, shape) that every operand not passed
 * by value walks as one (strides[i][d] == strides[i][d+1] * shape[d+1])
 * and drops length-1 axes: the fewer axes, the simpler the variant. */
void uf__cuda_collapse(int *ndim, int64_t *shape, int nops,
                       int64_t (*strides)[UF_MAXDIMS],
                       const uf__cuda_operand *ops);

/* The bytes past its pointer an operand walking `shape` with `strides`
 * reaches: itemsize + sum |stride| * (extent - 1) (index32's bound). */
int64_t uf__cuda_reach(int ndim, const int64_t *shape,
                       const int64_t *strides, int64_t itemsize);

/* The launch's parameter values, in the order of nvvm.h's ABI, and
 * pointers to them as cuLaunchKernel takes them. */
typedef struct uf__cuda_params {
    int64_t words[sizeof(((uf__nvvm_kernel *)0)->param_sizes) /
                      sizeof(uint32_t) * 2];
    void *p[sizeof(((uf__nvvm_kernel *)0)->param_sizes) / sizeof(uint32_t)];
    int n, nw;
} uf__cuda_params;

/* Adds one parameter of `size` bytes (the kernel's param_sizes say). */
void uf__cuda_put(uf__cuda_params *pp, const void *v, size_t size);
/* An index parameter: 32 bits for an index32 variant, else 64. */
void uf__cuda_put_index(uf__cuda_params *pp, const uf__nvvm_variant *v,
                        int64_t x);
/* An operand's pointer, or its value when passed by value (dt's size). */
void uf__cuda_put_operand(uf__cuda_params *pp, const uf__cuda_operand *op,
                          uf_dtype dt);

/* Launches k over n elements (n > 0) with parameters pp (the status word
 * appended here when the kernel has one), on the call's stream; a
 * fallible kernel is waited for and its status word read back, an error
 * worded as the CPU's loop words it ("ufunc 'pick': IndexError: ...").
 * An index32 variant was chosen for at most `threads` threads: the grid
 * never launches more (the grid-stride index would wrap). */
int uf__cuda_launch(const uf__cuda_site *s, const uf__cuda_kernel *k,
                    int64_t n, int64_t threads, uf__cuda_params *pp,
                    uf_error *err);

/* Launches k over an explicit grid and block (x, y, z) with
 * shared_bytes of dynamic shared memory, parameters pp (the status word
 * appended here when the kernel has one); the status checked as
 * uf__cuda_launch does. */
int uf__cuda_launch_dims(const uf__cuda_site *s, const uf__cuda_kernel *k,
                         const unsigned grid[3], const unsigned block[3],
                         unsigned shared_bytes, uf__cuda_params *pp,
                         uf_error *err);

/* After the launch, before any uf__cuda_finish_output: waits for the
 * call's stream when results are read on the host (a host out= filled
 * from a copy still in flight on the stream would read garbage). */
int uf__cuda_call_wait(const uf__cuda_site *s, uf_error *err);

/* Output op's result: copied into its host out= (cast as out= asks), or
 * for an output nobody gave, handed out into *result: the device array
 * when any operand was on the device (s->any_device), else copied to a
 * new host array. */
int uf__cuda_finish_output(const uf__cuda_site *s, uf__cuda_operand *op,
                           uf_array **result, uf_error *err);

void uf__cuda_operand_release(uf__cuda_operand *op);

#endif
