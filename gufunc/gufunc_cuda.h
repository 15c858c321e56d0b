/* guvectorize calls on the CUDA targets (`cuda`, `cudasim`): one thread
 * per element of the loop space, the core dimensions as the kernel's own
 * loops (compiler/nvvm/nvvm.h, "The guvectorize kernel ABI"). Layout
 * parsing, core-dimension resolution (fixed and '?' dimensions, axes=,
 * axis=, keepdims=) are gufunc/'s host code; staging and launching are
 * ufunc/cuda_stage.h's, shared with vectorize. */
#ifndef UF_GUFUNC_GUFUNC_CUDA_H
#define UF_GUFUNC_GUFUNC_CUDA_H

#include <ufjit/kernel.h>

#include "compiler/module.h"
#include "ufunc/cuda_kernels.h"

/* uf_call of guvectorize kernel f on `target` ("cuda" or "cudasim").
 * Results stay on the device when any operand is a device array, else
 * they are copied back to new host arrays; out= may be on either side. */
int uf__gufunc_cuda_call(uf_func *f, const char *target,
                         uf_array *const *inputs, int n_in,
                         uf_array **outputs, int n_out,
                         const uf_call_options *opts, uf_error *err);

/* ---- private to gufunc_cuda*.c: the kernels (gufunc_cuda_kernels.c) --- */

/* f's layout, parsed once (context lock held); NULL with err. */
const uf__gufunc_layout *uf__gufunc_cuda_layout(uf_func *f, uf_error *err);

/* The operands of the call with operand dtypes `types` (nin inputs, then
 * nout outputs, -1 for an output not given), by the CPU's rule: the
 * first declared signature taking the inputs exactly, else safely; for a
 * kernel without signatures the first loop compiled so far that does,
 * else the operands the CPU target would compile. Inputs in `dev` (bit
 * k: a device array, never cast) must match exactly; when no signature
 * takes them so, the host rule's choice is returned and staging refuses
 * it. Context lock held. UF_ERR_TYPE as the CPU words it when no
 * signature fits. */
int uf__gufunc_cuda_resolve(uf_func *f, const int *types, uint64_t dev,
                            uf__guvec_arg *args, uf_error *err);

/* The kernel of `args` and variant v on rt, compiled and loaded on first
 * use (v->core_c: the kernel typed with 'C' arrays, else 'A'). Context
 * lock held; it lives as long as f. */
const uf__cuda_kernel *uf__gufunc_cuda_kernel(uf_func *f,
                                              const uf__cuda_rt *rt,
                                              const uf__guvec_arg *args,
                                              const uf__nvvm_variant *v,
                                              uf_error *err);

#endif
