/* Typing of cuda.atomic.*, the fences and the counting barriers
 * (numba-cuda's cudadecl.py):
 *   add, sub, max, min, nanmax, nanmin (ary, idx, val) on arrays of
 *   float64, float32, int32, uint32, int64, uint64; and_, or_, xor, exch
 *   on the four integer dtypes; inc, dec on uint32 and uint64;
 *   cas(ary, idx, old, val) on the integers; compare_and_swap(ary, old,
 *   val) on ary[0] of a 1-d integer array.
 * idx is an integer for a 1-d array, a tuple of ndim integers otherwise;
 * the values convert to the array's dtype; the result is the element's
 * old value, of that dtype. threadfence(), threadfence_block(),
 * threadfence_system() give None; syncthreads_count/and/or(pred) take a
 * number (converted to int32, as numba-cuda's i4 signature) and give an
 * int32. */
#include <string.h>

#include "compiler/types/infer_internal.h"

/* "cuda.atomic.add" for messages */
static const char *short_name(uf__builtin b)
{
    const char *s = uf__builtin_name(b);
    return strncmp(s, "numba.", 6) == 0 ? s + 6 : s;
}

typedef enum allowed { ALL, INTS, UINTS } allowed;

static allowed allowed_of(uf__builtin b)
{
    switch (b) {
    case UF__BI_CUDA_ATOMIC_ADD: case UF__BI_CUDA_ATOMIC_SUB:
    case UF__BI_CUDA_ATOMIC_MAX: case UF__BI_CUDA_ATOMIC_MIN:
    case UF__BI_CUDA_ATOMIC_NANMAX: case UF__BI_CUDA_ATOMIC_NANMIN:
        return ALL;
    case UF__BI_CUDA_ATOMIC_INC: case UF__BI_CUDA_ATOMIC_DEC:
        return UINTS;
    default:
        return INTS;
    }
}

static bool dtype_ok(allowed a, uf_dtype dt)
{
    bool uint = dt == UF_UINT32 || dt == UF_UINT64;
    bool sint = dt == UF_INT32 || dt == UF_INT64;
    bool flt = dt == UF_FLOAT32 || dt == UF_FLOAT64;
    return a == UINTS ? uint : a == INTS ? uint || sint : uint || sint || flt;
}

static bool is_int(const uf__type *t)
{
    char k = t->kind == UF__T_SCALAR ? uf_dtype_kind(t->dtype) : 0;
    return k == 'i' || k == 'u' || k == 'b';
}

static bool is_real(const uf__type *t)
{
    return t->kind == UF__T_SCALAR && uf_dtype_kind(t->dtype) != 'c';
}

static const uf__type *atomic_call(uf__ictx *C, const uf__expr *e,
                                   uf__builtin b, const uf__type *const *args,
                                   int n)
{
    const char *name = short_name(b);
    bool cas0 = b == UF__BI_CUDA_ATOMIC_COMPARE_AND_SWAP;
    int want = b == UF__BI_CUDA_ATOMIC_CAS ? 4 : 3;
    if (n != want)
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "%s() takes %d arguments "
                          "(%d given)", name, want, n);
    const uf__type *a = args[0];
    if (a->kind != UF__T_ARRAY)
        return uf__ierr_t(C, UF_ERR_TYPING, e->u.call.args[0]->pos, "%s(): "
                          "the first argument must be an array, not %s",
                          name, uf__tname(a));
    if (a->readonly)
        return uf__ierr_t(C, UF_ERR_TYPING, e->u.call.args[0]->pos, "%s(): "
                          "cannot modify readonly array of type: %s (a "
                          "read-only global array)", name, uf__tname(a));
    allowed al = allowed_of(b);
    if (!dtype_ok(al, a->dtype))
        return uf__ierr_t(
            C, UF_ERR_TYPING, e->u.call.args[0]->pos,
            "%s() supports arrays of %s, not %s", name,
            al == UINTS  ? "uint32 and uint64"
            : al == INTS ? "int32, uint32, int64 and uint64"
                         : "int32, uint32, int64, uint64, float32 and "
                           "float64",
            uf_dtype_name(a->dtype));
    if (cas0) {
        if (a->ndim != 1)
            return uf__ierr_t(C, UF_ERR_TYPING, e->u.call.args[0]->pos,
                              "%s() works on the first element of a 1-d "
                              "array, not a %d-d one", name, a->ndim);
    } else {
        const uf__type *ix = args[1];
        const uf__expr *ixe = e->u.call.args[1];
        int nix = ix->kind == UF__T_TUPLE ? ix->n : 1;
        bool ints = ix->kind == UF__T_TUPLE ? true : is_int(ix);
        for (int i = 0; ix->kind == UF__T_TUPLE && i < ix->n; i++)
            ints &= is_int(ix->elts[i]);
        if (!ints)
            return uf__ierr_t(C, UF_ERR_TYPING, ixe->pos, "%s(): the index "
                              "must be an integer or a tuple of integers, "
                              "not %s", name, uf__tname(ix));
        if (nix != a->ndim)
            return uf__ierr_t(C, UF_ERR_TYPING, ixe->pos, "%s(): a %d-d "
                              "array needs %d %s, got %d", name, a->ndim,
                              a->ndim, a->ndim == 1 ? "index" : "indices",
                              nix);
    }
    for (int i = cas0 ? 1 : 2; i < n; i++)
        if (!is_real(args[i]))
            return uf__ierr_t(C, UF_ERR_TYPING, e->u.call.args[i]->pos,
                              "%s(): the value must be a real number, not "
                              "%s", name, uf__tname(args[i]));
    return uf__type_scalar(C->tc, a->dtype);
}

const uf__type *uf__infer_cuda_atomic(uf__ictx *C, const uf__expr *e,
                                      uf__builtin b,
                                      const uf__type *const *args, int n)
{
    if (uf__builtin_is_cuda_atomic(b))
        return atomic_call(C, e, b, args, n);
    const char *name = short_name(b);
    if (b == UF__BI_CUDA_THREADFENCE || b == UF__BI_CUDA_THREADFENCE_BLOCK ||
        b == UF__BI_CUDA_THREADFENCE_SYSTEM) {
        if (n != 0)
            return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "%s() takes no "
                              "arguments (%d given)", name, n);
        return uf__type_none(C->tc);
    }
    if (n != 1)
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "%s() takes 1 argument "
                          "(%d given)", name, n);
    if (!is_real(args[0]))
        return uf__ierr_t(C, UF_ERR_TYPING, e->u.call.args[0]->pos,
                          "%s(): the predicate must be a number or a bool, "
                          "not %s", name, uf__tname(args[0]));
    return uf__type_scalar(C->tc, UF_INT32);
}
