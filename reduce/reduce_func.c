/* PLACEHOLDER until the reduce call path lands (session 2 helper D). */
#include "common/error_internal.h"
#include "compiler/module.h"

int uf__reduce_func_call(uf_func *f, uf_array *const *inputs, int n_in,
                         uf_array **outputs, int n_out,
                         const uf_call_options *opts, uf_error *err)
{
    return uf__error_set(err, UF_ERR_UNSUPPORTED,
                         "'%s': calling reduce kernels is not supported yet",
                         f->decl->name);
}

void uf__reduce_func_release(uf_func *f) { (void)f; }

int uf_reduce(uf_func *f, uf_array *in, uf_array **out,
              const uf_call_options *opts, uf_error *err)
{
    return uf__error_set(err, UF_ERR_UNSUPPORTED, "uf_reduce: not yet");
}

int uf_accumulate(uf_func *f, uf_array *in, uf_array **out,
                  const uf_call_options *opts, uf_error *err)
{
    return uf__error_set(err, UF_ERR_UNSUPPORTED, "uf_accumulate: not yet");
}

int uf_outer(uf_func *f, uf_array *a, uf_array *b, uf_array **out,
             const uf_call_options *opts, uf_error *err)
{
    return uf__error_set(err, UF_ERR_UNSUPPORTED, "uf_outer: not yet");
}
