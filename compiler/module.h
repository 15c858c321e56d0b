/* uf_module and uf_func internals. */
#ifndef UF_COMPILER_MODULE_H
#define UF_COMPILER_MODULE_H

#include <stdatomic.h>

#include <ufjit/kernel.h>

#include "common/strbuf.h"
#include "compiler/context.h"
#include "compiler/front/kmodule.h"

/* What a kind of kernel (vectorize, guvectorize, reduce, njit, device)
 * does with a uf_func: filled by the folder of that kind (ufunc/,
 * gufunc/, reduce/, njit/) and handed to the module loader by the layer
 * above (api/kinds.c), so that compiler/ names none of them. */
typedef struct uf__kind_ops {
    /* f->nin and f->nout from the declaration (NULL: the def's parameters
     * are the inputs, the outputs are known later) */
    void (*arity)(uf_func *f);
    /* uf_call (operand lists checked non-NULL by the caller); called
     * without the context lock: it takes f->module->ctx->lock while it
     * compiles or grows its caches */
    int (*call)(uf_func *f, uf_array *const *inputs, int n_in,
                uf_array **outputs, int n_out, const uf_call_options *opts,
                uf_error *err);
    /* uf_func_inspect for one signature text, the context lock held; NULL:
     * the kind cannot be inspected (`what`: UF_INSPECT_*) */
    int (*inspect)(uf_func *f, const char *sig, unsigned what,
                   uf__strbuf *out, uf_error *err);
    /* the elementwise loop the kernel runs for input dtypes in[0..nin),
     * built and compiled as a call would (ufunc methods such as reduce
     * combine with it); NULL: the kind has none. Takes the context
     * lock. */
    int (*loop)(uf_func *f, const uf_dtype *in, uf__ufunc_loop *loop,
                uf_error *err);
    /* a signature to suggest when none is given, e.g. "'f8(f8)'" */
    const char *example_signature;
    /* what the kind built for f, freed by uf_module_free (NULL-safe) */
    void (*release)(uf_func *f);
} uf__kind_ops;

struct uf_func {
    uf_module *module;
    const uf__kernel_decl *decl;
    const uf__kind_ops *ops;
    int nin;
    int nout;          /* -1 until known */
    /* njit: how the last call's results nest (uf_func_result_tree) */
    const char *result_tree;
    /* What the kinds build, on first use under the context lock, then
     * only read (kernels with signatures) or grown under the lock (lazy);
     * each is the kind's own type. */
    struct uf__ufunc *ufunc;     /* vectorize */
    /* ufunc once built, published with release: calls read it without
     * the lock (ufunc/vectorize_func.c) */
    _Atomic(struct uf__ufunc *) ufunc_ready;
    struct uf__gufunc *gufunc;   /* guvectorize */
    struct uf__reducer *reducer; /* reduce kernels, and the reduction
                                    loops of a vectorize kernel */
    struct uf__plain *plain;     /* njit: compiled entry points */
    /* vectorize and guvectorize on the CUDA targets */
    struct uf__cuda_kernels *cuda;
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

/* The module of kernel file `name` with source `text` (taken over, also
 * when it fails), its functions given the ops of their kinds:
 * kinds[UF__K_*]. */
uf_module *uf__module_new(uf_context *ctx, const char *name, char *text,
                          size_t len, const uf__kind_ops *const *kinds,
                          uf_error *err);
/* The largest kernel source accepted (a file or a string): a kernel file
 * is small; a bound keeps a mistaken path (a log, a device) from eating
 * memory. */
#define UF__MAX_SOURCE_BYTES (16 << 20)

/* Reads a kernel file into a NUL-terminated buffer (free with uf__free):
 * regular files only, UF__MAX_SOURCE_BYTES at most. */
char *uf__module_read_file(const char *path, size_t *len, uf_error *err);
/* Frees what the module itself holds, after its kinds released theirs. */
void uf__module_free(uf_module *m);

#endif
