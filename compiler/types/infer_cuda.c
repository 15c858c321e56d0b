/* Typing of what numba.cuda gives kernels (numba-cuda's cudadecl.py):
 * cuda.threadIdx/blockIdx/blockDim/gridDim and their .x/.y/.z, laneid
 * and warpsize are int32 values; cuda.grid(ndim) and cuda.gridsize(ndim)
 * take a literal 1, 2 or 3 and give an int64 or a UniTuple(int64, ndim);
 * cuda.syncthreads() gives None. Whether the target can run them is the
 * lowering's business (a host kernel is refused there). */
#include <stdio.h>
#include <string.h>

#include "compiler/types/infer_internal.h"

/* The submodules of numba.cuda a kernel names: cuda.threadIdx.x is an
 * attribute of the pseudo-module "numba.cuda.threadIdx". */
static const char *const submodules[] = {
    "numba.cuda.threadIdx", "numba.cuda.blockIdx", "numba.cuda.blockDim",
    "numba.cuda.gridDim",
};

const uf__type *uf__infer_cuda_attr(uf__ictx *C, const uf__expr *e,
                                    const char *mod, uf__expr_info *in,
                                    bool *handled)
{
    const char *a = e->u.attr.attr;
    *handled = false;
    if (strcmp(mod, "numba.cuda") == 0)
        for (size_t i = 0; i < sizeof submodules / sizeof submodules[0];
             i++)
            if (strcmp(submodules[i] + strlen("numba.cuda."), a) == 0) {
                *handled = true;
                const uf__type *t = uf__type_module(C->tc, submodules[i],
                                                    C->err);
                return t ? uf__iset(C, e, t) : NULL;
            }
    char q[128];
    snprintf(q, sizeof q, "%s.%s", mod, a);
    uf__builtin b = uf__builtin_lookup(q);
    if (!uf__builtin_is_cuda_value(b))
        return NULL;
    *handled = true;
    in->builtin = b;
    return uf__iset(C, e, uf__type_scalar(C->tc, UF_INT32));
}

const uf__type *uf__infer_cuda_call(uf__ictx *C, const uf__expr *e,
                                    uf__builtin b, const uf__type *const *args,
                                    int n)
{
    const char *name = uf__builtin_name(b);
    if (b == UF__BI_CUDA_SYNCTHREADS) {
        if (n != 0)
            return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "%s() takes no "
                              "arguments (%d given)", name, n);
        return uf__type_none(C->tc);
    }
    /* grid / gridsize: Numba requires the dimension count as a literal */
    const uf__expr *x = n == 1 ? e->u.call.args[0] : NULL;
    if (n != 1 || x->kind != UF__EX_INT || x->u.i.too_big ||
        x->u.i.value < 1 || x->u.i.value > 3)
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "%s() takes the number "
                          "of dimensions as a literal 1, 2 or 3", name);
    (void)args;
    const uf__type *i64 = uf__type_scalar(C->tc, UF_INT64);
    int nd = (int)x->u.i.value;
    if (nd == 1)
        return i64;
    const uf__type *elts[3] = {i64, i64, i64};
    return uf__type_tuple(C->tc, nd, elts, C->err);
}
