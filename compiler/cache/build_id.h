/* Identity of this build of ufjit (compiler/cache/build_id.c). */
#ifndef UF_COMPILER_BUILD_ID_H
#define UF_COMPILER_BUILD_ID_H

/* Hex of the GNU build ID of the binary holding ufjit, or "none". */
const char *uf__build_id(void);
/* The LLVM version the compiler is built against ("14.0.6"). */
const char *uf__llvm_version(void);

#endif
