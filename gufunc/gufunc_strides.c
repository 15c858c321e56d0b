/* Where an operand's loop and core dimensions are in its array, once a
 * call is resolved (gufunc_internal.h): shared by the host call path and
 * the CUDA one, which pass the same steps in different places. */
#include "gufunc/gufunc_internal.h"
#include "ndarray/array_internal.h"

int64_t uf__gufunc_loop_stride(const uf__gufunc_resolution *res, int k,
                               const uf_array *a, int ax)
{
    const uf__gufunc_operand *ro = &res->ops[k];
    int j = ax - (res->loop_ndim - (ro->ndim - ro->core_ndim));

    return j < 0 || a->shape[ro->perm[j]] == 1 ? 0 : a->strides[ro->perm[j]];
}

void uf__gufunc_core_strides(const uf__gufunc_layout *L,
                             const uf__gufunc_resolution *res, int k,
                             const uf_array *a, int64_t *out)
{
    const uf__gufunc_operand *ro = &res->ops[k];
    int ax = ro->ndim - ro->core_ndim;

    for (int j = 0; j < L->core_ndim[k]; j++) {
        int ix = L->dim_ix[L->core_offset[k] + j];

        out[j] = res->dim_missing[ix] ? 0 : a->strides[ro->perm[ax++]];
    }
}
