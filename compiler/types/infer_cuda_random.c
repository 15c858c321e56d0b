/* Typing of numba.cuda.random in kernels (numba-cuda's random.py): the
 * xoroshiro128+ draws take the states and an index (any integer) and give
 * a uint64 (xoroshiro128p_next), a float32 or a float64;
 * xoroshiro128p_jump(states, index) advances one state by 2**64 draws and
 * init_xoroshiro128p_state(states, index, seed) seeds one (both None).
 * Numba-cuda's
 * states are a 1-D array of (s0, s1) records; ufjit has no records, so
 * here they are the (n, 2) uint64 array uf_cuda_random_states makes
 * (column 0: s0, column 1: s1). Creating the states is the host's job:
 * create_xoroshiro128p_states and init_xoroshiro128p_states are refused
 * in kernels. */
#include <stdio.h>

#include "compiler/types/infer_internal.h"

const uf__type *uf__infer_cuda_random_call(uf__ictx *C, const uf__expr *e,
                                           uf__builtin b,
                                           const uf__type *const *args,
                                           int n)
{
    /* "numba.cuda.random.xoroshiro128p_next" -> "xoroshiro128p_next" */
    const char *name = uf__builtin_name(b) + sizeof "numba.cuda.random";
    if (b == UF__BI_CUDA_RANDOM_CREATE || b == UF__BI_CUDA_RANDOM_INIT)
        return uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->pos, "%s() is a host "
                          "function: make the states before the launch "
                          "(uf_cuda_random_states) and pass them to the "
                          "kernel", name);
    bool seeded = b == UF__BI_CUDA_RANDOM_INIT_STATE;
    if (n != 2 + seeded)
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "%s() takes the states%s"
                          " (%d arguments given)", name,
                          seeded ? ", an index and a seed" : " and an index",
                          n);
    const uf__type *s = args[0];
    if (s->kind != UF__T_ARRAY || s->dtype != UF_UINT64 || s->ndim != 2 ||
        s->readonly)
        return uf__ierr_t(C, UF_ERR_TYPING, e->u.call.args[0]->pos, "%s(): "
                          "the states must be the (n, 2) uint64 array of "
                          "uf_cuda_random_states, not %s", name,
                          uf__tname(s));
    for (int k = 1; k < n; k++)
        if (args[k]->kind != UF__T_SCALAR ||
            (uf_dtype_kind(args[k]->dtype) != 'i' &&
             uf_dtype_kind(args[k]->dtype) != 'u'))
            return uf__ierr_t(C, UF_ERR_TYPING, e->u.call.args[k]->pos,
                              "%s(): the %s must be an integer, not %s", name,
                              k == 1 ? "index" : "seed",
                              uf__tname(args[k]));
    if (b == UF__BI_CUDA_RANDOM_JUMP || seeded)
        return uf__type_none(C->tc);
    uf_dtype r = b == UF__BI_CUDA_RANDOM_NEXT        ? UF_UINT64
                 : b == UF__BI_CUDA_RANDOM_UNIFORM_F32 ||
                           b == UF__BI_CUDA_RANDOM_NORMAL_F32
                     ? UF_FLOAT32
                     : UF_FLOAT64;
    return uf__type_scalar(C->tc, r);
}
