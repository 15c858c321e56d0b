/* Compiling vectorize kernels into ufunc loops. */
#include <string.h>

#include "common/error_internal.h"
#include "ufunc/vectorize.h"

/* The output dtypes of a kernel returning `ret`: one per tuple element. */
static int output_types(const uf__kernel_decl *decl, const uf__type *ret,
                        uf_dtype *out, int *nout, uf_error *err)
{
    if (ret->kind == UF__T_SCALAR) {
        out[0] = ret->dtype;
        *nout = 1;
        return 0;
    }
    if (ret->kind == UF__T_TUPLE && ret->n >= 1 &&
        ret->n <= UF__UFUNC_MAXARGS) {
        for (int i = 0; i < ret->n; i++) {
            if (ret->elts[i]->kind != UF__T_SCALAR)
                goto bad;
            out[i] = ret->elts[i]->dtype;
        }
        *nout = ret->n;
        return 0;
    }
bad:;
    char buf[128];
    uf__type_str(ret, buf, sizeof buf);
    return uf__error_set(err, UF_ERR_TYPING,
                         "vectorize kernel '%s' returns %s: a ufunc kernel "
                         "must return a number or a tuple of numbers",
                         decl->name, buf);
}

int uf__vectorize_compile(uf__kmodule *km, const uf__kernel_decl *decl,
                          uf__jit *jit, const uf__signature *sig,
                          uf__ufunc_loop *loop, int *nout,
                          uf__jit_listing *listing, uf__typed_func **tf_out,
                          uf_error *err)
{
    int nin = decl->def->u.funcdef.nparams;
    if (sig->nargs != nin)
        return uf__error_set(err, UF_ERR_TYPING,
                             "signature of '%s' has %d argument(s) but the "
                             "kernel takes %d", decl->name, sig->nargs, nin);
    if (nin + 1 > UF__UFUNC_MAXARGS)
        return uf__error_set(err, UF_ERR_UNSUPPORTED,
                             "'%s' takes %d arguments: at most %d are "
                             "supported", decl->name, nin,
                             UF__UFUNC_MAXARGS - 1);
    for (int i = 0; i < nin; i++) {
        if (sig->args[i]->kind != UF__T_SCALAR) {
            char buf[128];
            uf__type_str(sig->args[i], buf, sizeof buf);
            return uf__error_set(err, UF_ERR_TYPING,
                                 "vectorize kernel '%s': argument %d has "
                                 "type %s, ufunc arguments must be scalars",
                                 decl->name, i + 1, buf);
        }
        loop->types[i] = sig->args[i]->dtype;
    }
    uf__typed_func *tf = uf__infer(km, decl, sig->args, nin, sig->ret, err);
    if (tf == NULL)
        return err->code;
    int n = 0;
    if (output_types(decl, tf->ret, loop->types + nin, &n, err) < 0)
        return err->code;
    if (nin + n > UF__UFUNC_MAXARGS)
        return uf__error_set(err, UF_ERR_UNSUPPORTED,
                             "'%s' has too many operands", decl->name);
    loop->aux = NULL;
    loop->status_error = uf__jit_status_error;
    if (uf__jit_ufunc_loop(jit, tf, loop->types + nin, &loop->fn, listing,
                           err) < 0)
        return err->code;
    *nout = n;
    if (tf_out != NULL)
        *tf_out = tf;
    return 0;
}
