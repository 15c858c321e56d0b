/* uf_module and uf_func internals. */
#ifndef UF_COMPILER_MODULE_H
#define UF_COMPILER_MODULE_H

#include <ufjit/kernel.h>

#include "compiler/context.h"
#include "compiler/kmodule.h"
#include "ufunc/ufunc.h"

struct uf_func {
    uf_module *module;
    const uf__kernel_decl *decl;
    int nin;
    int nout;          /* -1 until known */
    /* vectorize: built on first use under the context lock, then only
     * read (kernels with signatures) or grown under the lock (lazy). */
    uf__ufunc *ufunc;
};

struct uf_module {
    uf_context *ctx;
    char *name;
    char *text;
    uf__source src;
    uf__kmodule *km;
    uf_func *funcs;
    int nfuncs;
};

#endif
