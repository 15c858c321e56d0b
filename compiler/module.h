/* uf_module and uf_func internals. */
#ifndef UF_COMPILER_MODULE_H
#define UF_COMPILER_MODULE_H

#include <stdatomic.h>

#include <ufjit/kernel.h>

#include "compiler/context.h"
#include "compiler/kmodule.h"
#include "ufunc/ufunc.h"

struct uf_func {
    uf_module *module;
    const uf__kernel_decl *decl;
    int nin;
    int nout;          /* -1 until known */
    /* Built on first use under the context lock, then only read
     * (kernels with signatures) or grown under the lock (lazy). */
    uf__ufunc *ufunc;            /* vectorize */
    /* ufunc once built, published with release: calls read it without
     * the lock (ufunc/vectorize_func.c) */
    _Atomic(uf__ufunc *) ufunc_ready;
    struct uf__gufunc *gufunc;   /* guvectorize */
    struct uf__reducer *reducer; /* reduce kernels, and the reduction
                                    loops of a vectorize kernel */
    struct uf__plain *plain;     /* njit: compiled entry points */
};

/* Each kind's call path lives with its area; uf_call checks the operand
 * lists and dispatches. Called without the context lock: each takes
 * f->module->ctx->lock while it compiles or grows its caches. */
int uf__vectorize_func_call(uf_func *f, uf_array *const *inputs, int n_in,
                            uf_array **outputs, int n_out,
                            const uf_call_options *opts, uf_error *err);
int uf__guvectorize_func_call(uf_func *f, uf_array *const *inputs, int n_in,
                              uf_array **outputs, int n_out,
                              const uf_call_options *opts, uf_error *err);
int uf__reduce_func_call(uf_func *f, uf_array *const *inputs, int n_in,
                         uf_array **outputs, int n_out,
                         const uf_call_options *opts, uf_error *err);
int uf__plain_func_call(uf_func *f, uf_array *const *inputs, int n_in,
                        uf_array **outputs, int n_out,
                        const uf_call_options *opts, uf_error *err);

/* The loop a vectorize kernel's ufunc runs for input dtypes `in` (f->nin
 * entries): builds the ufunc and compiles as a call would, and copies the
 * loop (for ufunc methods such as reduce). Takes the context lock. */
int uf__vectorize_func_loop(uf_func *f, const uf_dtype *in,
                            uf__ufunc_loop *loop, uf_error *err);

/* What each kind built for f, freed by uf_module_free (NULL-safe). */
void uf__vectorize_func_release(uf_func *f);
void uf__guvectorize_func_release(uf_func *f);
void uf__reduce_func_release(uf_func *f);
void uf__plain_func_release(uf_func *f);

/* The target a call runs on: opts->target, else the kernel's declared
 * one, else "cpu". */
const char *uf__func_target(const uf_func *f, const uf_call_options *opts);

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
