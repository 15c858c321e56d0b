/* The compiler's own runtime helpers, by the names generated code calls
 * (jit_runtime_symbols.c). */
#ifndef UF_COMPILER_HOST_JIT_RUNTIME_SYMBOLS_H
#define UF_COMPILER_HOST_JIT_RUNTIME_SYMBOLS_H

#include "common/loop.h"

const uf__runtime_symbol *uf__jit_own_symbols(int *n);

#endif
