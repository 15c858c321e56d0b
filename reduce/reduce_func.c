/* The call path of @reduce / @cuda.reduce kernels (uf_call): one input
 * reduced over every axis by default, as Numba's cuda.reduce reduces a 1-D
 * array to a scalar, with opts' axes, keepdims and initial (Numba's
 * init=); the result is a 0-d or reduced array. */
#include "common/error_internal.h"
#include "compiler/module.h"
#include "reduce/reduce.h"
#include "ufunc/cuda_kernels.h"
#include "ufunc/inspect.h"

static int reduce_call(uf_func *f, uf_array *const *inputs, int n_in,
                       uf_array **outputs, int n_out,
                       const uf_call_options *opts, uf_error *err)
{
    uf_error local;
    if (err == NULL)
        err = &local;
    if (n_in != 1)
        return uf__error_set(err, UF_ERR_INVALID,
                             "reduce kernel '%s' takes one input array (got "
                             "%d)", f->decl->name, n_in);
    if (n_out > 1)
        return uf__error_set(err, UF_ERR_INVALID,
                             "reduce kernel '%s' has one output (got %d)",
                             f->decl->name, n_out);
    uf_array *res = n_out == 1 ? outputs[0] : NULL;
    if (uf__reduce_impl(f, inputs[0], &res, opts, true, err) != 0)
        return err->code;
    if (n_out == 1)
        outputs[0] = res;
    else
        uf_array_release(res);
    return 0;
}

/* f(a, b) reduces one array into one. */
static void reduce_arity(uf_func *f)
{
    f->nin = 1;
    f->nout = 1;
}

/* A reduce kernel's loops as uf_reduce builds them for one accumulator
 * type: the signature must be T(T, T). */
static int check_listing(const uf_func *f, const uf__signature *sig,
                         uf_error *err)
{
    if (sig->nargs == 2 && sig->args[0]->kind == UF__T_SCALAR &&
        sig->args[1] == sig->args[0])
        return 0;
    return uf__error_set(err, UF_ERR_TYPE,
                         "'%s': a reduce kernel is inspected for one "
                         "accumulator type, e.g. 'float64(float64, float64)'",
                         f->decl->name);
}

static int compile_listing(uf_func *f, const uf__typed_func *tf,
                           uf__jit *jit, const uf__signature *sig,
                           uf__jit_listing *listing, uf_error *err)
{
    uf_dtype t = sig->args[0]->dtype;
    uf__reduce_kind kind = uf__reduce_classify(f->decl, tf);
    bool integral = t == UF_BOOL || uf__dtype_is_int(t);
    bool tree = kind == UF__RK_ADD || (integral && kind != UF__RK_OTHER);
    uf__jit_reduce_fns fns;
    return uf__jit_reduce(jit, tf, t, tree, &fns, listing, err);
}

static const uf__inspect_kind inspect_kind = {.check = check_listing,
                                              .compile = compile_listing};

static int reduce_inspect(uf_func *f, const char *sig, unsigned what,
                          uf__strbuf *out, uf_error *err)
{
    return uf__inspect_compiled(f, sig, what, &inspect_kind, out, err);
}

/* (f->reducer is released for every kind by uf_module_free) */
const uf__kind_ops uf__reduce_kernel_kind = {
    .arity = reduce_arity,
    .call = reduce_call,
    .inspect = reduce_inspect,
    .example_signature = "'float64(float64, float64)'",
    .release = uf__cuda_kernels_free, /* its CUDA reduction kernels */
};
