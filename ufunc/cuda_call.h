/* vectorize calls on the CUDA targets (`cuda`, `cudasim`): the kernels
 * compiled by compiler/nvvm/, launched through the driver table of
 * targets/cuda/. Everything here is the same code on a GPU and on
 * cudasim. */
#ifndef UF_UFUNC_CUDA_CALL_H
#define UF_UFUNC_CUDA_CALL_H

#include <ufjit/kernel.h>

#include "compiler/module.h"

/* uf_call of vectorize kernel f on `target` ("cuda" or "cudasim").
 * Results live on the device when any operand is a device array, else
 * they are copied back to new host arrays. */
int uf__cuda_vectorize_call(uf_func *f, const char *target,
                            uf_array *const *inputs, int n_in,
                            uf_array **outputs, int n_out,
                            const uf_call_options *opts, uf_error *err);

#endif
