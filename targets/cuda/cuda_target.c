/* The CUDA targets' descriptors (cuda_target.h). */
#include "targets/cuda/cuda_target.h"

const uf__target uf__target_cuda = {
    .name = "cuda",
    .summary = "CUDA kernels on a GPU (NVVM -> PTX -> CUDA driver)",
    .caps = UF__TCAP_DEVICE | UF__TCAP_VECTORIZE | UF__TCAP_GUVECTORIZE |
            UF__TCAP_REDUCE,
};

const uf__target uf__target_cudasim = {
    .name = "cudasim",
    .summary = "the CUDA kernels compiled for the host, run by the "
               "in-process CUDA simulator",
    .caps = UF__TCAP_DEVICE | UF__TCAP_VECTORIZE | UF__TCAP_GUVECTORIZE |
            UF__TCAP_REDUCE,
};
