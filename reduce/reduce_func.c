/* The call path of @reduce / @cuda.reduce kernels (uf_call): one input
 * reduced over every axis by default, as Numba's cuda.reduce reduces a 1-D
 * array to a scalar, with opts' axes, keepdims and initial (Numba's
 * init=); the result is a 0-d or reduced array. */
#include "common/error_internal.h"
#include "compiler/module.h"
#include "reduce/reduce.h"

int uf__reduce_func_call(uf_func *f, uf_array *const *inputs, int n_in,
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
