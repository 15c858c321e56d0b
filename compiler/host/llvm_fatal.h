/* What ufjit says when LLVM cannot go on (compiler/host/llvm_fatal.cpp).
 * LLVM leaves no way back to the caller from its fatal errors or from
 * running out of memory (report_fatal_error exits, report_bad_alloc_error
 * and a failing operator new abort), so the process still ends, but with
 * one line naming the cause instead of "Allocation failed" or
 * "terminate called after throwing an instance of 'std::bad_alloc'". */
#ifndef UF_COMPILER_LLVM_FATAL_H
#define UF_COMPILER_LLVM_FATAL_H

#ifdef __cplusplus
extern "C" {
#endif

/* Installs LLVM's fatal-error and bad-alloc handlers and a terminate
 * handler that names std::bad_alloc, chaining to the one before it. Call
 * once per process, before the first compilation. */
void uf__llvm_install_fatal_handlers(void);

#ifdef __cplusplus
}
#endif

#endif
