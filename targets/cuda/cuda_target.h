/* The CUDA targets' descriptors: `cuda` (a GPU through the driver, or the
 * simulator under UFJIT_ENABLE_CUDASIM=1) and `cudasim` (always the
 * simulator). Both are device targets (UF__TCAP_DEVICE): their calls go
 * through ufunc/cuda_call.h, not through a host loop runner. */
#ifndef UF_TARGETS_CUDA_CUDA_TARGET_H
#define UF_TARGETS_CUDA_CUDA_TARGET_H

#include "targets/target.h"

extern const uf__target uf__target_cuda;
extern const uf__target uf__target_cudasim;

#endif
