/* What compiler/nvvm/'s files share: the kernel entry (nvvm_kernel.c),
 * the NVVM IR clean-up and bitcode (nvvm_ir.c), libnvvm (nvvm_lib.c) and
 * the NVPTX fallback (nvvm_fallback.c). */
#ifndef UF_COMPILER_NVVM_INTERNAL_H
#define UF_COMPILER_NVVM_INTERNAL_H

#include "compiler/nvvm/codegen_nvvm.h"

/* Lowers spec's kernel and its CUDA entry named k->name into L (whose cg
 * is a uf__codegen_nvvm), filling k's parameters; for cudasim also the
 * host entry k->name + "__sim". 0 or err's code. */
int uf__nvvm_lower_kernel(uf__lower *L, const uf__nvvm_spec *spec,
                          uf__nvvm_kernel *k, uf_error *err);
/* The same for a guvectorize spec (nvvm_gukernel.c). */
int uf__nvvm_lower_gukernel(uf__lower *L, const uf__nvvm_spec *spec,
                            uf__nvvm_kernel *k, uf_error *err);
/* The same for a cuda.jit kernel (nvvm_cukernel.c). */
int uf__nvvm_lower_cukernel(uf__lower *L, const uf__nvvm_spec *spec,
                            uf__nvvm_kernel *k, uf_error *err);
/* The same for a reduction (nvvm_reduce.c). */
int uf__nvvm_lower_reduce(uf__lower *L, const uf__nvvm_spec *spec,
                          uf__nvvm_kernel *k, uf_error *err);

/* ---- pieces of a kernel entry both kinds share (nvvm_kernel.c) ---- */

/* Appends a parameter of LLVM type t, `size` bytes as the launcher
 * passes it, to k (types[] collects the LLVM types). */
void uf__nvvm_param(uf__nvvm_kernel *k, LLVMTypeRef *types, LLVMTypeRef t,
                    uint32_t size);
/* The parameters both entries start with (nvvm.h, 1.-3.): n, the ND
 * shape, and per operand (dtypes dt[0..nops)) its value when bit op of
 * v->scalar_in is set, else its pointer and nd strides of type idx. */
void uf__nvvm_loop_params(uf__lower *L, uf__nvvm_kernel *k,
                          LLVMTypeRef *types, const uf__nvvm_variant *v,
                          int nd, LLVMTypeRef idx, const uf_dtype *dt,
                          int nops);
/* Those parameters of entry fn by role; returns the next parameter's
 * index. */
unsigned uf__nvvm_loop_args(LLVMValueRef fn, const uf__nvvm_variant *v,
                            int nd, int nops, LLVMValueRef *n,
                            LLVMValueRef *shape, LLVMValueRef *ptr,
                            LLVMValueRef (*stride)[UF__NVVM_MAXDIM]);
/* Checks the variant's layout, ndim and scalar_in (nin inputs). */
int uf__nvvm_check_variant(const uf__nvvm_variant *v, int nin,
                           uf_error *err);
/* The byte offset of C-order element i of `shape` (ndim axes) in each of
 * nops operands (strides[op][d]; an operand with strides[op] NULL gets
 * no offset) into off[op]. */
void uf__nvvm_nd_offsets(uf__lower *L, LLVMValueRef i, int ndim,
                         const LLVMValueRef *shape,
                         LLVMValueRef (*strides)[UF__NVVM_MAXDIM],
                         const bool *skip, int nops, LLVMValueRef *off);
/* After a fallible kernel's call returning status r (i32): a nonzero one
 * is reported into the status word (an IndexError was written where it
 * was detected, others claim it here) and ends the thread; the builder
 * continues on the zero path. */
void uf__nvvm_fail_on_status(uf__lower *L, uf__fn *F, LLVMValueRef r,
                             LLVMValueRef status);
/* The grid-stride loop over i in [0, n) of index type idx in entry fn
 * (begun with F): calls each(ctx, i) with the builder in the body. A
 * non-NULL `status` is kept in the status global first. */
void uf__nvvm_grid_loop(uf__lower *L, uf__fn *F, LLVMTypeRef idx,
                        bool index32, LLVMValueRef n, LLVMValueRef status,
                        void (*each)(void *ctx, LLVMValueRef i),
                        void *ctx);
/* Ends entry fn: a kernel annotation (NVVM) or an internal function and
 * its host entry (cudasim); then the codegen target's module finish. */
int uf__nvvm_finish_entry(uf__lower *L, LLVMValueRef fn, uf__nvvm_kernel *k,
                          uf_error *err);
/* The module's shared memory settled (nvvm_shared.c): cudasim's static
 * bytes per block (the dynamic part's offset fixed), 0 for NVVM. */
uint32_t uf__nvvm_shared_finish(uf__lower *L);

/* Rewrites what libnvvm's LLVM 7 reader refuses (TOOLCHAIN.md): fneg as
 * fsub -0.0, freeze dropped, the attributes it does not know removed
 * from functions and calls; adds !nvvmir.version {major, minor}. */
void uf__nvvm_cleanup(LLVMModuleRef mod, int ir_major, int ir_minor);
/* The reduction loops of the module's own functions marked not to be
 * unrolled (nvvm_loops.c); part of uf__nvvm_cleanup. */
void uf__nvvm_loop_hints(LLVMModuleRef mod);
/* A fresh loop ID asking for no unrolling (a back edge's `llvm.loop`). */
LLVMValueRef uf__nvvm_no_unroll_id(LLVMContextRef ctx);
/* uf__nvvm_cleanup without the version (a module that has one). */
void uf__nvvm_strip(LLVMModuleRef mod);
/* Whether the module calls libdevice (declares an __nv_ function). */
bool uf__nvvm_uses_libdevice(LLVMModuleRef mod);

/* ---- float32 trigonometry (nvvm_trig.c) ---- */

/* Whether math function `name` (sin, cos, tan) has its float32 slow
 * argument reduction kept out of line. */
bool uf__nvvm_trig_split(const char *name);
/* The float32 wrapper of `name` in L's module (made once): libdevice's
 * fast path inline, its Payne-Hanek reduction in a noinline function. */
LLVMValueRef uf__nvvm_trig_f32(uf__lower *L, const char *name);
/* Before compiling: with more than one wrapper call in the module, the
 * slow paths are inlined after all (part of uf__nvvm_cleanup). */
void uf__nvvm_trig_settle(LLVMModuleRef mod);

/* ---- the cmath runtime helpers as IR (nvvm_cmath.c) ---- */

/* The module's definition of runtime helper `name` of type fty when it is
 * one of the cmath helpers (common/loop.h: UF__RT_CSQRT, _CEXP, _CRECT,
 * _CPOW), made on first use; NULL for any other helper. */
LLVMValueRef uf__nvvm_cmath_helper(uf__lower *L, const char *name,
                                   LLVMTypeRef fty);

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
                         size_t ldlen, bool ld_text, const char *atomics,
                         const char *arch, const uf__nvvm_options *opts,
                         char **ptx, size_t *ptxlen, uf_error *err);
/* The definitions of the atomic helpers the module declares
 * (nvvm_atomic.c) as text IR: for libnvvm (LLVM 7 text, with the IR
 * version) or LLVM 14. *out NULL when it declares none. */
int uf__nvvm_atomics_text(LLVMModuleRef mod, bool libnvvm, int ir_major,
                          int ir_minor, char **out, uf_error *err);
/* The same, parsed and linked into mod (the NVPTX backend). */
int uf__nvvm_atomics_link(LLVMModuleRef mod, uf_error *err);
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

/* Caps the registers of kernels k[0..n) in `mod` at maxreg: the
 * "maxnreg" annotation, .maxnreg in the PTX of both backends
 * (nvvm_maxreg.c). */
void uf__nvvm_annotate_maxnreg(LLVMModuleRef mod, const uf__nvvm_kernel *k,
                               int n, int maxreg);

#endif
