/* Reductions on the CUDA targets (reduce_cuda.c). */
#ifndef UF_REDUCE_REDUCE_CUDA_H
#define UF_REDUCE_REDUCE_CUDA_H

#include "reduce/reduce.h"
#include "ufunc/cuda_kernels.h"

/* uf_reduce's work on target `target` (cuda or cudasim), after
 * reduce_method.c's checks: `in` (host or device, of any dtype that casts
 * to op->type; a device array must be of op->type) reduced along red[]
 * into an array of shape rshape[0..rnd) (keepdims as given), from `start`
 * when have_start, else from each reduction's first element (the caller
 * refused empty reductions without one). The result: into *out when
 * given (a device out= of op->type written in place on the call's
 * stream, never through the host; a host one copied back into), else a
 * new device array when `in` is one, a new host array otherwise. Same
 * bits as the cpu target. */
int uf__cuda_reduce(uf_func *f, const uf__reduce_op *op,
                    const uf__target *target, uf_array *in, const bool *red,
                    bool keepdims, int rnd, const int64_t *rshape,
                    const void *start, bool have_start, uf_array **out,
                    const uf_call_options *opts, uf_error *err);

/* The reduction kernel of f (compiler/nvvm/nvvm.h's reduction ABI: TREE,
 * FOLD and SCAN) for accumulator type t on rt, compiled and loaded on
 * first use and kept for f's life: the general one, or (contig) the TREE
 * kernel for contiguous rows. */
const uf__cuda_kernel *uf__cuda_reduce_kernel(uf_func *f,
                                              const uf__cuda_rt *rt,
                                              uf_dtype t, bool contig,
                                              uf_error *err);

/* uf_accumulate on target `target` (cuda or cudasim), after
 * accumulate.c's checks (out= of in's shape, if given): `in` (host, cast
 * to op->type and copied in, or a device array of op->type) accumulated
 * along `axis` by the SCAN mode, one thread per line in order (the cpu
 * target's bits). The result: into *out when given (a device one in
 * place, a host one copied back into), else on the device when `in` is
 * there, else a new host array. */
int uf__cuda_accumulate(uf_func *f, const uf__reduce_op *op,
                        const uf__target *target, uf_array *in, int axis,
                        uf_array **out, const uf_call_options *opts,
                        uf_error *err);

#endif
