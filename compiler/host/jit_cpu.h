/* The CPU a host JIT generates code for: the host's, as LLVM names it,
 * unless UFJIT_CPU_NAME / UFJIT_CPU_FEATURES (Numba's NUMBA_CPU_NAME and
 * NUMBA_CPU_FEATURES) override it, so that the narrower code paths of a
 * wider CPU can be run and tested on it: UFJIT_CPU_FEATURES=-avx512f
 * compiles for AVX2 (libmvec's _ZGVdN4v_* calls, 256-bit loops) on an
 * AVX-512 machine. */
#ifndef UF_COMPILER_JIT_CPU_H
#define UF_COMPILER_JIT_CPU_H

#include <stdbool.h>

#include "ufjit/ufjit.h"

/* *cpu and *features (the host's, from LLVM, in our allocator) with the
 * overrides applied: UFJIT_CPU_NAME replaces the name; UFJIT_CPU_FEATURES
 * ("-avx512f,+fma": LLVM feature edits) is appended to the features, so
 * that its entries win. A feature the host CPU lacks cannot be turned on
 * (the code would not run): UF_ERR_VALUE, as for a malformed list. */
int uf__jit_cpu_override(char **cpu, char **features, uf_error *err);

/* Whether LLVM feature string `features` ends up enabling `name` ("avx2"):
 * its last mention wins. Features turned off also turn off those built on
 * them for the cases ufjit asks about: avx512f needs avx2, avx2 avx. */
bool uf__jit_cpu_has(const char *features, const char *name);

#endif
