/* Typing of what numba.cuda gives kernels (numba-cuda's cudadecl.py):
 * cuda.threadIdx/blockIdx/blockDim/gridDim and their .x/.y/.z, laneid
 * and warpsize are int32 values; cuda.grid(ndim) and cuda.gridsize(ndim)
 * take a literal 1, 2 or 3 and give an int64 or a UniTuple(int64, ndim);
 * cuda.syncthreads() gives None; cuda.shared.array / cuda.local.array
 * (shape, dtype) give a C-contiguous array whose shape is known at compile
 * time (literal ints or module constants, as Numba requires; shared shape
 * 0: the launch's dynamic shared memory). Whether the target can run them
 * is the lowering's business (a host kernel is refused there). */
#include <stdio.h>
#include <string.h>

#include <ufjit/array.h>

#include "compiler/types/infer_internal.h"

/* The submodules of numba.cuda a kernel names: cuda.threadIdx.x is an
 * attribute of the pseudo-module "numba.cuda.threadIdx". */
static const char *const submodules[] = {
    "numba.cuda.threadIdx", "numba.cuda.blockIdx", "numba.cuda.blockDim",
    "numba.cuda.gridDim",   "numba.cuda.shared",   "numba.cuda.local",
    "numba.cuda.atomic",
    "numba.cuda.random",    "numba.cuda.const",
};

/* An integer known at compile time: a literal or a module constant. */
static bool const_int(const uf__kmodule *km, const uf__expr *x, int64_t *v)
{
    if (x->kind == UF__EX_INT && !x->u.i.too_big &&
        x->u.i.value <= (uint64_t)INT64_MAX) {
        *v = (int64_t)x->u.i.value;
        return true;
    }
    if (x->kind != UF__EX_NAME)
        return false;
    const uf__global *g = uf__kmodule_global(km, x->u.name.id);
    if (g == NULL || g->kind != UF__G_CONSTANT ||
        g->constant.type->kind != UF__T_SCALAR)
        return false;
    switch (g->constant.type->dtype) {
    case UF_INT8: case UF_INT16: case UF_INT32: case UF_INT64:
        *v = g->constant.v.i;
        return true;
    case UF_UINT8: case UF_UINT16: case UF_UINT32: case UF_UINT64:
        *v = (int64_t)g->constant.v.u;
        return g->constant.v.u <= (uint64_t)INT64_MAX;
    default:
        return false;
    }
}

/* The argument `name` (position pos) of a call, or NULL. */
static const uf__expr *call_arg(const uf__expr *e, int pos, const char *name)
{
    if (pos < e->u.call.nargs)
        return e->u.call.args[pos];
    for (int i = 0; i < e->u.call.nkw; i++)
        if (strcmp(e->u.call.kw[i].name, name) == 0)
            return e->u.call.kw[i].value;
    return NULL;
}

int uf__cuda_array_shape(const uf__kmodule *km, const uf__expr *e,
                         int64_t *shape, int *ndim, uf__pos *where)
{
    const uf__expr *s = call_arg(e, 0, "shape");
    *where = s ? s->pos : e->pos;
    if (s == NULL)
        return -1;
    if (s->kind == UF__EX_TUPLE) {
        if (s->u.seq.n < 1 || s->u.seq.n > UF_MAXDIMS)
            return -1;
        for (int i = 0; i < s->u.seq.n; i++)
            if (!const_int(km, s->u.seq.elts[i], &shape[i]) || shape[i] < 0)
                return -1;
        *ndim = s->u.seq.n;
        return 0;
    }
    *ndim = 1;
    return const_int(km, s, &shape[0]) && shape[0] >= 0 ? 0 : -1;
}

/* cuda.shared.array / cuda.local.array: a C-contiguous array. */
static const uf__type *array_decl(uf__ictx *C, const uf__expr *e,
                                  uf__builtin b)
{
    const char *name = uf__builtin_name(b);
    for (int i = 0; i < e->u.call.nkw; i++)
        if (strcmp(e->u.call.kw[i].name, "shape") != 0 &&
            strcmp(e->u.call.kw[i].name, "dtype") != 0)
            return uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->u.call.kw[i].pos,
                              "%s() takes shape and dtype, not '%s'", name,
                              e->u.call.kw[i].name);
    int64_t shape[UF_MAXDIMS];
    int nd;
    uf__pos at;
    if (uf__cuda_array_shape(C->km, e, shape, &nd, &at) != 0)
        return uf__ierr_t(C, UF_ERR_TYPING, at, "%s(): the shape must be an "
                          "integer or a tuple of integers known at compile "
                          "time (literals or module constants)", name);
    const uf__expr *dx = call_arg(e, 1, "dtype");
    if (dx == NULL)
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "%s() needs a dtype",
                          name);
    const uf__type *dt = uf__infer_expr(C, dx);
    if (dt == NULL || dt == UF__UNKNOWN)
        return dt;
    if (dt->kind != UF__T_DTYPE)
        return uf__ierr_t(C, UF_ERR_TYPING, dx->pos, "%s(): dtype must be a "
                          "type such as float32 or numba.types.int32, not %s",
                          name, uf__tname(dt));
    bool zero = false;
    for (int i = 0; i < nd; i++)
        zero |= shape[i] == 0;
    if (zero && (b != UF__BI_CUDA_SHARED_ARRAY || nd != 1))
        return uf__ierr_t(C, UF_ERR_TYPING, at, "%s(): a zero length is only "
                          "for the dynamic shared array, "
                          "cuda.shared.array(0, dtype)", name);
    return uf__type_array(C->tc, dt->dtype, nd, 'C', C->err);
}

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
    if (uf__builtin_is_cuda_atomic(b) || uf__builtin_is_cuda_sync(b))
        return uf__infer_cuda_atomic(C, e, b, args, n);
    if (uf__builtin_is_cuda_random(b))
        return uf__infer_cuda_random_call(C, e, b, args, n);
    if (b == UF__BI_CUDA_SHARED_ARRAY || b == UF__BI_CUDA_LOCAL_ARRAY)
        return array_decl(C, e, b);
    if (b == UF__BI_CUDA_CONST_ARRAY_LIKE)
        return uf__infer_cuda_const(C, e, args, n);
    if (b >= UF__BI_CUDA_SHFL_SYNC && b <= UF__BI_CUDA_LANEMASK_LT)
        return uf__infer_cuda_warp(C, e, b, args, n);
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
