/* PLACEHOLDER until the guvectorize call path lands (session 2 helper C):
 * calling a guvectorize kernel is refused clearly. */
#include "common/error_internal.h"
#include "compiler/module.h"

int uf__guvectorize_func_call(uf_func *f, uf_array *const *inputs, int n_in,
                              uf_array **outputs, int n_out,
                              const uf_call_options *opts, uf_error *err)
{
    return uf__error_set(err, UF_ERR_UNSUPPORTED,
                         "'%s': calling guvectorize kernels is not "
                         "supported yet", f->decl->name);
}

void uf__guvectorize_func_release(uf_func *f) { (void)f; }
