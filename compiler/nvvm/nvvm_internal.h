/* What compiler/nvvm/'s files share: the kernel entry (nvvm_kernel.c),
 * the NVVM IR clean-up and bitcode (nvvm_ir.c), libnvvm (nvvm_lib.c) and
 * the NVPTX fallback (nvvm_fallback.c). */
#ifndef UF_COMPILER_NVVM_INTERNAL_H
#define UF_COMPILER_NVVM_INTERNAL_H

#include "compiler/nvvm/codegen_nvvm.h"

/* Lowers `tf` and its CUDA entry named k->name into L (whose cg is a
 * uf__codegen_nvvm), filling k's parameters; for cudasim also the host
 * entry k->name + "__sim". 0 or err's code. */
int uf__nvvm_lower_kernel(uf__lower *L, const uf__typed_func *tf,
                          const uf_dtype *out_types,
                          const uf__nvvm_variant *v, uf__nvvm_kernel *k,
                          uf_error *err);

/* Rewrites what libnvvm's LLVM 7 reader refuses (TOOLCHAIN.md): fneg as
 * fsub -0.0, freeze dropped, the attributes it does not know removed
 * from functions and calls; adds !nvvmir.version {major, minor}. */
void uf__nvvm_cleanup(LLVMModuleRef mod, int ir_major, int ir_minor);
/* Whether the module calls libdevice (declares an __nv_ function). */
bool uf__nvvm_uses_libdevice(LLVMModuleRef mod);

/* ---- libnvvm (nvvm_lib.c) ---- */

/* Loads libnvvm once; 0, or UF_ERR_NOT_FOUND naming what was searched. */
int uf__nvvm_lib_load(uf_error *err);
/* nvvmIRVersion's major/minor (2, 0 when unknown) */
void uf__nvvm_lib_ir_version(int *major, int *minor);
/* Compiles `bc` (LLVM bitcode) with libdevice added lazily when
 * `libdevice`, options from `arch` and `opts`; *ptx (free with uf__free).
 * UF_ERR_INTERNAL with the program log on failure. */
int uf__nvvm_lib_compile(const void *bc, size_t len, bool libdevice,
                         const char *arch, const uf__nvvm_options *opts,
                         char **ptx, size_t *ptxlen, uf_error *err);
/* libdevice.10.bc's bytes, read once (NULL with err: UF_ERR_NOT_FOUND). */
const void *uf__nvvm_libdevice(size_t *len, uf_error *err);

/* ---- the NVPTX fallback (nvvm_fallback.c) ---- */

/* Compiles `mod` (consumed; in its own context `ctx`) keeping only
 * the kernels external: libdevice linked when used, internalised, globaldce
 * and O3, PTX for `arch` (compute_XY / sm_XY, clamped to sm_86). */
int uf__nvvm_fallback_compile(LLVMContextRef ctx, LLVMModuleRef mod,
                              const uf__nvvm_kernel *kernels, int nkernels,
                              const char *arch,
                              bool fastmath, char **ptx, size_t *ptxlen,
                              uf_error *err);

#endif
