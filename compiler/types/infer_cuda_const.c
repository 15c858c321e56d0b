/* cuda.const.array_like(ARR) (numba-cuda's cudadecl.py types it as its
 * argument; cudaimpl.py lowers it to that argument, since the CUDA target
 * already puts every global array in constant memory). ufjit takes only a
 * module-level array, the one thing numba-cuda copies there, and refuses
 * one that does not fit the 64 KiB of constant memory. The lowering is
 * lower_cuda.c's (the array's constant global, lower_garray.c). */
#include "compiler/front/kmodule.h"
#include "compiler/types/infer_internal.h"

const uf__type *uf__infer_cuda_const(uf__ictx *C, const uf__expr *e,
                                     const uf__type *const *args, int n)
{
    if (n != 1)
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "cuda.const.array_like() "
                          "takes one argument (%d given)", n);
    const uf__expr *x = e->u.call.args[0];
    const uf__garray *ga = uf__iinfo(C, x)->garray;
    if (ga == NULL)
        return uf__ierr_t(C, UF_ERR_TYPING, x->pos, "cuda.const.array_like() "
                          "copies a module-level array into constant memory:"
                          " its argument must name one (A = np.array([...]) "
                          "at module level), not %s", uf__tname(args[0]));
    if (ga->nbytes > UF__CUDA_CONST_MAX)
        return uf__ierr_t(C, UF_ERR_UNSUPPORTED, x->pos, "cuda.const."
                          "array_like(%s): the array has %zu bytes, more than"
                          " the %u of CUDA's constant memory", ga->name,
                          ga->nbytes, UF__CUDA_CONST_MAX);
    return args[0];
}
