/* LLVM's code-generation options that LLVM-C cannot set per compilation:
 * compiler/host/llvm_options.cpp changes the registered command-line option
 * itself (a cl::opt: one global of the LLVM library for the whole
 * process, whichever uf_context compiles), so callers hold one
 * process-wide lock around setting it and the code generation that reads
 * it (jit.c: codegen_begin/codegen_end). */
#ifndef UF_COMPILER_LLVM_OPTIONS_H
#define UF_COMPILER_LLVM_OPTIONS_H

#ifdef __cplusplus
extern "C" {
#endif

/* Sets LLVM's -disable-lsr (loop strength reduction off in the code
 * generator's IR passes) to `on`; returns the previous value, or -1 when
 * this LLVM has no such option (nothing changed). */
int uf__llvm_disable_lsr(int on);

/* The same for -disable-machine-licm (the code generator's loop-invariant
 * code motion before register allocation). */
int uf__llvm_disable_machine_licm(int on);

#ifdef __cplusplus
}
#endif

#endif
