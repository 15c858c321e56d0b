/* uf_func: properties, and uf_call, which checks the operand lists and
 * hands the call to the kernel's kind (uf__kind_ops.call). */
#include <stdio.h>
#include <string.h>

#include "common/alloc.h"
#include "common/error_internal.h"
#include "compiler/context.h"
#include "compiler/module.h"

uf_func_kind uf_func_get_kind(const uf_func *f)
{
    switch (f->decl->kind) {
    case UF__K_VECTORIZE: return UF_FUNC_UFUNC;
    case UF__K_GUVECTORIZE: return UF_FUNC_GUFUNC;
    case UF__K_REDUCE: return UF_FUNC_REDUCE;
    case UF__K_DEVICE: return UF_FUNC_DEVICE;
    case UF__K_CUDA_KERNEL: return UF_FUNC_KERNEL;
    case UF__K_NJIT: break;
    }
    return UF_FUNC_PLAIN;
}

const char *uf_func_name(const uf_func *f) { return f->decl->name; }

/* A first call writes f->nin and f->nout under the context lock (the
 * kind's build sets them again; an njit function's output count is -1
 * until its first typing), while other threads may ask for them: read
 * them under that lock too (ThreadSanitizer, tests/test_stress_threads.c).
 * No caller holds the lock here: these are the public getters only. */
static int locked_read(const uf_func *f, const int *field)
{
    pthread_mutex_t *lock = &f->module->ctx->lock;
    pthread_mutex_lock(lock);
    int n = *field;
    pthread_mutex_unlock(lock);
    return n;
}

int uf_func_nin(const uf_func *f) { return locked_read(f, &f->nin); }
int uf_func_nout(const uf_func *f) { return locked_read(f, &f->nout); }
const char *uf_func_result_tree(const uf_func *f)
{
    pthread_mutex_t *lock = &f->module->ctx->lock;
    pthread_mutex_lock(lock);
    const char *t = f->result_tree;
    pthread_mutex_unlock(lock);
    return t;
}
int uf_func_nsignatures(const uf_func *f) { return f->decl->nsignatures; }

const char *uf_func_signature(const uf_func *f, int i)
{
    return i >= 0 && i < f->decl->nsignatures ? f->decl->signatures[i]
                                               : NULL;
}

int uf_call(uf_func *f, uf_array *const *inputs, int n_in,
            uf_array **outputs, int n_out, const uf_call_options *opts,
            uf_error *err)
{
    if (f == NULL || (n_in > 0 && inputs == NULL) ||
        (n_out > 0 && outputs == NULL) || n_in < 0 || n_out < 0)
        return uf__error_set(err, UF_ERR_INVALID,
                             "uf_call: NULL function or operand list");
    for (int i = 0; i < n_in; i++)
        if (inputs[i] == NULL)
            return uf__error_set(err, UF_ERR_INVALID,
                                 "uf_call: input %d is NULL", i);
    return f->ops->call(f, inputs, n_in, outputs, n_out, opts, err);
}
