/* The kinds of kernel and the folder that implements each: the one table
 * the module loader gets (kinds.h). A new kind is a line here and its
 * uf__kind_ops in its folder. */
#include "api/kinds.h"
#include "common/error_internal.h"
#include "gufunc/guvectorize.h"
#include "launch/launch.h"
#include "njit/njit.h"
#include "reduce/reduce.h"
#include "ufunc/vectorize.h"

/* @cuda.jit(device=True): callable from other kernels only (inlined). */
static int device_call(uf_func *f, uf_array *const *inputs, int n_in,
                       uf_array **outputs, int n_out,
                       const uf_call_options *opts, uf_error *err)
{
    return uf__error_set(err, UF_ERR_UNSUPPORTED,
                         "'%s' is a CUDA device function: it can only be "
                         "called from other kernels", f->decl->name);
}

static const uf__kind_ops device_kind = {.call = device_call};

const uf__kind_ops *const uf__kinds[UF__K_COUNT] = {
    [UF__K_VECTORIZE] = &uf__vectorize_kind,
    [UF__K_GUVECTORIZE] = &uf__guvectorize_kind,
    [UF__K_REDUCE] = &uf__reduce_kernel_kind,
    [UF__K_NJIT] = &uf__njit_kind,
    [UF__K_DEVICE] = &device_kind,
    [UF__K_CUDA_KERNEL] = &uf__cuda_kernel_kind,
};
