/* The CUDA codegen targets (codegen.h), internal to compiler/nvvm/: the
 * NVVM instance (nvptx64-nvidia-cuda, libdevice math, special registers
 * through NVVM intrinsics) and the cudasim instance (the host's triple,
 * host libm, special registers from uf__sim_self()). Both report failed
 * checks into the launch's status word (nvvm.h) and refuse the complex
 * runtime helpers the GPU cannot call (uf__nvvm_refused). */
#ifndef UF_COMPILER_NVVM_CODEGEN_NVVM_H
#define UF_COMPILER_NVVM_CODEGEN_NVVM_H

#include "compiler/lower/lower.h"
#include "compiler/nvvm/nvvm.h"

/* NVVM IR's data layout (libnvvm's documented 64-bit layout) */
#define UF__NVVM_TRIPLE "nvptx64-nvidia-cuda"
#define UF__NVVM_DATA_LAYOUT                                                 \
    "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-"             \
    "i128:128:128-f32:32:32-f64:64:64-v16:16:16-v32:32:32-v64:64:64-"       \
    "v128:128:128-n16:32:64"

/* The module global holding the launch's status pointer (nvvm.h) */
#define UF__NVVM_STATUS_GLOBAL "uf_status_ptr"

typedef struct uf__codegen_nvvm {
    uf__codegen_target base;
    bool sim;
    unsigned global_as; /* address space of module globals: 1 / 0 */
    /* the bounds-check sites reported so far (kernel, file) */
    uf__nvvm_sites sites;
    int capsites;
    bool nomem;
    /* shared memory (nvvm_shared.c): cudasim's static bytes so far (the
     * offset of the next array in the block's memory); the dynamic size
     * slot once made (NVVM: its global; cudasim: its offset + 1) */
    uint64_t shared_static;
    LLVMValueRef dyn_size_global;
    uint64_t dyn_size_off;
    bool dyn_used;
} uf__codegen_nvvm;

/* Installs the shared-memory hooks of g (NVVM or cudasim). */
void uf__nvvm_shared_init(uf__codegen_nvvm *g);
/* Installs the atomic, fence and counting-barrier hooks of g
 * (nvvm_atomic.c). */
void uf__nvvm_atomic_init(uf__codegen_nvvm *g);
/* Installs the warp hook of g (nvvm_warp.c). */
void uf__nvvm_warp_init(uf__codegen_nvvm *g);
/* Installs the shape-error sink of g (nvvm_shape_error.c). */
void uf__nvvm_shape_error_init(uf__codegen_nvvm *g);
/* cudasim: the running thread's uf__sim_thread as an i8* (codegen_nvvm.c) */
LLVMValueRef uf__nvvm_sim_self(uf__lower *L);

void uf__codegen_nvvm_init(uf__codegen_nvvm *g);
/* cudasim: the host JIT's triple and data layout */
void uf__codegen_sim_init(uf__codegen_nvvm *g, const char *triple,
                          const char *data_layout);
/* Frees the sites (unless moved out: zero g->sites first). */
void uf__codegen_nvvm_clear(uf__codegen_nvvm *g);

/* A generic i8** pointer to the status global (created on first use). */
LLVMValueRef uf__nvvm_status_slot(uf__lower *L);
/* At the builder: claims the status word at `status` (generic i8*): i1
 * "won" for the launch's first failing thread, which then writes it. */
LLVMValueRef uf__nvvm_claim_status(uf__lower *L, LLVMValueRef status);
/* Stores `code` (i32) as the status word's code. */
void uf__nvvm_store_code(uf__lower *L, LLVMValueRef status, LLVMValueRef code);

/* UF_ERR_UNSUPPORTED when the module calls a runtime helper the CUDA
 * target cannot (the complex cmath helpers), naming the kernel and the
 * Python function; else 0. */
int uf__nvvm_refused(uf__lower *L, const char *kernel, uf_error *err);

#endif
