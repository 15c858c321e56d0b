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
/* uf__nvvm_cleanup without the version (a module that has one). */
void uf__nvvm_strip(LLVMModuleRef mod);
/* Whether the module calls libdevice (declares an __nv_ function). */
bool uf__nvvm_uses_libdevice(LLVMModuleRef mod);

/* ---- libdevice's subsets (nvvm_libdevice.c) ---- */

/* The NVPTX path: links into `mod` the libdevice functions it declares
 * and what they reach, as internal functions (a subset cut once per set
 * of functions and cached for the process); nothing when it calls none. */
int uf__nvvm_link_libdevice(LLVMModuleRef mod, uf_error *err);
/* The libnvvm path: the same subset for the functions `mod` declares as
 * NVVM IR text for libnvvm to add (*text NULL when it calls none;
 * free with uf__free). Text, not bitcode: LLVM 14 writes inline asm (in
 * libdevice's trig reductions) in a record LLVM 7 reads as undef. */
int uf__nvvm_libdevice_text(LLVMModuleRef mod, char **text, uf_error *err);
/* UFJIT_CUDA_LIBDEVICE=full: the whole libdevice as before (libnvvm adds
 * it lazily, NVPTX links it), for comparisons. */
bool uf__nvvm_libdevice_full(void);

/* ---- libnvvm (nvvm_lib.c) ---- */

/* Loads libnvvm once; 0, or UF_ERR_NOT_FOUND naming what was searched. */
int uf__nvvm_lib_load(uf_error *err);
/* nvvmIRVersion's major/minor (2, 0 when unknown) */
void uf__nvvm_lib_ir_version(int *major, int *minor);
/* Compiles `bc` (LLVM bitcode) with `ld` (NULL: none): libdevice's
 * bitcode, added lazily, or `ld_text`: a part of it as text
 * (uf__nvvm_libdevice_text), added as is; options from `arch` and
 * `opts`; *ptx (free with uf__free). UF_ERR_INTERNAL with the program
 * log on failure. */
int uf__nvvm_lib_compile(const void *bc, size_t len, const void *ld,
                         size_t ldlen, bool ld_text,
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
