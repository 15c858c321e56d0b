/* CUDA kernels' PTX in the disk cache (compiler/cache/disk_cache.h), next
 * to the host code: a process that finds a kernel's file loads its PTX
 * into the driver without lowering it or running libnvvm. The key is the
 * host cache's (the kernel's text and callees, its flags, UFJIT_DEBUG,
 * ufjit's build) plus the signature, the kernel variant (for guvectorize
 * also its layout and operand kinds) and what decides
 * the PTX (arch, backend, libnvvm and NVVM IR versions, fastmath:
 * uf__nvvm_cache_tag). Kernels with a status word are not kept (their
 * bounds-check sites would have to be too): they compile every time. */
#ifndef UF_UFUNC_CUDA_PTX_CACHE_H
#define UF_UFUNC_CUDA_PTX_CACHE_H

#include "ufunc/cuda_kernels.h"

/* The PTX of k (types, variant and tag set) for `opts`: from the disk
 * cache, else compiled from spec (vectorize or guvectorize, whose layout,
 * operand kinds and core_c join the key) and stored. *ptx receives the
 * NUL-terminated text (free with uf__free); k->k and k->sites are
 * filled. */
int uf__cuda_ptx_get(uf_func *f, uf__cuda_kernel *k,
                     const uf__nvvm_spec *spec, const uf__nvvm_options *opts,
                     char **ptx, uf_error *err);

#endif
