/* A JIT for the host with the host runtime's helpers, as a uf_context
 * makes it (api/context.c), for tests that drive the compiler directly. */
#ifndef UF_TESTS_HOST_JIT_H
#define UF_TESTS_HOST_JIT_H

#include "compiler/host/jit.h"
#include "targets/cpu/cpu.h"

static inline uf__jit *test_host_jit(uf_error *err)
{
    int n;
    const uf__runtime_symbol *rt = uf__cpu_runtime_symbols(&n);
    return uf__jit_new(rt, n, err);
}

#endif
