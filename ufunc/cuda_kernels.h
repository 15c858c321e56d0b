/* The CUDA kernels of one vectorize function: per runtime (cuda or
 * cudasim), signature and variant (compiler/nvvm/nvvm.h), compiled on
 * first use (PTX for a GPU, host code for cudasim), loaded into the
 * driver and kept for the function's life. Private to ufunc/cuda_*.c. */
#ifndef UF_UFUNC_CUDA_KERNELS_H
#define UF_UFUNC_CUDA_KERNELS_H

#include "compiler/module.h"
#include "compiler/nvvm/nvvm.h"
#include "targets/cuda/cuda_runtime.h"

/* One loaded kernel. */
typedef struct uf__cuda_kernel {
    const uf__cuda_rt *rt;
    int nin, nout;
    uf_dtype types[UF__LOOP_MAXARGS]; /* the signature's inputs, outputs */
    uf__nvvm_variant v;
    uint64_t tag;          /* what else the kind keys kernels by (0) */
    uf__nvvm_kernel k;     /* name, parameter sizes, status word */
    uf__nvvm_sites sites;  /* bounds-check sites for IndexErrors */
    uf__sim_kernel sim;    /* cudasim: the host entry (points into k) */
    uf__cu_module mod;
    uf__cu_func fn;
    int block, grid_cap;   /* launch configuration (occupancy) */
    struct uf__cuda_kernel *next;
} uf__cuda_kernel;

/* A function's kernels, and its declared signatures' dtypes parsed once
 * (vectorize), or what another kind resolved once (guvectorize). */
typedef struct uf__cuda_kernels {
    uf__cuda_kernel *list;
    int nsigs; /* -1 until parsed; 0: lazy */
    uf_dtype (*sig_types)[UF__LOOP_MAXARGS]; /* inputs then outputs */
    int *sig_nout; /* 0: the result type is inferred */
    /* a lazy kernel's signatures, in the order first called */
    uf_dtype (*lazy_types)[UF__LOOP_MAXARGS];
    int *lazy_nout;
    int nlazy;
    void *kind; /* the kind's own state (freed by kind_free) */
    void (*kind_free)(void *kind);
} uf__cuda_kernels;

/* f's kernel state, made empty on first use (context lock held). */
uf__cuda_kernels *uf__cuda_kernels_of(uf_func *f, uf_error *err);

/* The loaded kernel of this key, or NULL. */
const uf__cuda_kernel *uf__cuda_kernel_find(const uf__cuda_kernels *ck,
                                            const uf__cuda_rt *rt,
                                            const uf_dtype *types, int nin,
                                            int nout,
                                            const uf__nvvm_variant *v,
                                            uint64_t tag);

/* Compiles spec for rt (PTX for a GPU, host code for cudasim), loads it
 * and keeps it under the key (types, nin, nout, spec->v, tag). Context lock
 * held; the result lives as long as f. */
const uf__cuda_kernel *uf__cuda_kernel_add(uf_func *f,
                                           const uf__cuda_rt *rt,
                                           const uf__nvvm_spec *spec,
                                           const uf_dtype *types, int nin,
                                           int nout, uint64_t tag,
                                           uf_error *err);

/* The signature a call with input dtypes in[0..f->nin) runs: the first
 * declared one every input casts to safely (a lazy kernel: the first
 * resolved so far that does, else the inputs' own), its types into
 * types[] (inputs, then outputs) and *nout. Inputs in `on_device` (bit
 * k: input k is a device array, which is never cast) must match a
 * signature exactly; when no signature takes them so, the first taking
 * them safely is returned and the caller refuses it. Call with the
 * context lock held. UF_ERR_TYPE as the CPU target words it when none
 * fits. */
int uf__cuda_resolve(uf_func *f, const uf_dtype *in, uint64_t on_device,
                     uf_dtype *types, int *nout, uf_error *err);

/* UF_ERR_TYPE: no declared signature of f takes inputs of dtypes
 * in[0..nin) (the message names them and the signatures). */
int uf__cuda_no_signature(uf_func *f, int nin, const uf_dtype *in,
                          uf_error *err);

/* The kernel of `types` (nin + nout) and variant v on rt, compiled and
 * loaded on first use. Call with the context lock held; the result lives
 * as long as f. */
const uf__cuda_kernel *uf__cuda_kernel_get(uf_func *f, const uf__cuda_rt *rt,
                                           const uf_dtype *types, int nout,
                                           const uf__nvvm_variant *v,
                                           uf_error *err);

/* Frees f's kernels (unloading their modules). */
void uf__cuda_kernels_free(uf_func *f);

#endif
