/* uf_func: properties, and uf_call, which checks the operand lists and
 * hands the call to the kernel's kind (uf__kind_ops.call). */
#include <stdio.h>
#include <string.h>

#include "common/alloc.h"
#include "common/error_internal.h"
#include "compiler/module.h"

uf_func_kind uf_func_get_kind(const uf_func *f)
{
    switch (f->decl->kind) {
    case UF__K_VECTORIZE: return UF_FUNC_UFUNC;
    case UF__K_GUVECTORIZE: return UF_FUNC_GUFUNC;
    case UF__K_REDUCE: return UF_FUNC_REDUCE;
    case UF__K_DEVICE: return UF_FUNC_DEVICE;
    case UF__K_NJIT: break;
    }
    return UF_FUNC_PLAIN;
}

const char *uf_func_name(const uf_func *f) { return f->decl->name; }
int uf_func_nin(const uf_func *f) { return f->nin; }
int uf_func_nout(const uf_func *f) { return f->nout; }
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
