/* Reductions on the CUDA targets (reduce_cuda.c). */
#ifndef UF_REDUCE_REDUCE_CUDA_H
#define UF_REDUCE_REDUCE_CUDA_H

#include "reduce/reduce.h"

/* uf_reduce's work on target `target` (cuda or cudasim), after
 * reduce_method.c's checks: `in` (host or device, of any dtype that casts
 * to op->type; a device array must be of op->type) reduced along red[]
 * into an array of shape rshape[0..rnd) (keepdims as given), from `start`
 * when have_start, else from each reduction's first element (the caller
 * refused empty reductions without one). The result: into *out when
 * given (host or device), else a new device array when `in` is one, a new
 * host array otherwise. Same bits as the cpu target. */
int uf__cuda_reduce(uf_func *f, const uf__reduce_op *op,
                    const uf__target *target, uf_array *in, const bool *red,
                    bool keepdims, int rnd, const int64_t *rshape,
                    const void *start, bool have_start, uf_array **out,
                    const uf_call_options *opts, uf_error *err);

#endif
