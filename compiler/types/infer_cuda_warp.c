/* Typing of numba.cuda's warp-level functions, as numba-cuda's
 * intrinsics.py and cudadecl.py type them: shfl_sync, shfl_up_sync,
 * shfl_down_sync, shfl_xor_sync(mask, value, lane) move an int32, int64,
 * float32 or float64 between lanes and give the value's type;
 * all_sync/any_sync/eq_sync(mask, predicate) give a bool and
 * ballot_sync an int32; match_any_sync(mask, value) an int32 and
 * match_all_sync a (int32, bool) tuple; syncwarp([mask]) None;
 * activemask() and lanemask_lt() a uint32. */
#include "compiler/types/infer_internal.h"

static bool is_int(const uf__type *t)
{
    return t->kind == UF__T_SCALAR && t->dtype != UF_BOOL &&
           t->dtype <= UF_UINT64;
}

static bool shuffled(const uf__type *t)
{
    return t->kind == UF__T_SCALAR &&
           (t->dtype == UF_INT32 || t->dtype == UF_INT64 ||
            t->dtype == UF_FLOAT32 || t->dtype == UF_FLOAT64);
}

static const uf__type *bad(uf__ictx *C, const uf__expr *e, const char *name,
                           const char *want)
{
    return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "%s() takes %s", name, want);
}

const uf__type *uf__infer_cuda_warp(uf__ictx *C, const uf__expr *e,
                                    uf__builtin b, const uf__type *const *args,
                                    int n)
{
    const char *name = uf__builtin_name(b);
    uf__typectx *tc = C->tc;
    switch (b) {
    case UF__BI_CUDA_SHFL_SYNC:
    case UF__BI_CUDA_SHFL_UP_SYNC:
    case UF__BI_CUDA_SHFL_DOWN_SYNC:
    case UF__BI_CUDA_SHFL_XOR_SYNC:
        if (n != 3 || !is_int(args[0]) || !shuffled(args[1]) ||
            !is_int(args[2]))
            return bad(C, e, name, "(mask, value, lane) with an integer "
                       "mask and lane and an int32, int64, float32 or "
                       "float64 value");
        return args[1];
    case UF__BI_CUDA_ALL_SYNC:
    case UF__BI_CUDA_ANY_SYNC:
    case UF__BI_CUDA_EQ_SYNC:
    case UF__BI_CUDA_BALLOT_SYNC:
        if (n != 2 || !is_int(args[0]) || args[1]->kind != UF__T_SCALAR ||
            args[1]->dtype > UF_UINT64)
            return bad(C, e, name, "(mask, predicate) with an integer mask "
                       "and an integer or bool predicate");
        return uf__type_scalar(tc, b == UF__BI_CUDA_BALLOT_SYNC ? UF_INT32
                                                                : UF_BOOL);
    case UF__BI_CUDA_MATCH_ANY_SYNC:
    case UF__BI_CUDA_MATCH_ALL_SYNC: {
        if (n != 2 || !is_int(args[0]) || !shuffled(args[1]))
            return bad(C, e, name, "(mask, value) with an int32, int64, "
                       "float32 or float64 value");
        const uf__type *i32 = uf__type_scalar(tc, UF_INT32);
        if (b == UF__BI_CUDA_MATCH_ANY_SYNC)
            return i32;
        const uf__type *elts[2] = {i32, uf__type_scalar(tc, UF_BOOL)};
        return uf__type_tuple(tc, 2, elts, C->err);
    }
    case UF__BI_CUDA_SYNCWARP:
        if (n > 1 || (n == 1 && !is_int(args[0])))
            return bad(C, e, name, "an optional integer mask");
        return uf__type_none(tc);
    default: /* activemask, lanemask_lt */
        if (n != 0)
            return bad(C, e, name, "no arguments");
        return uf__type_scalar(tc, UF_UINT32);
    }
}
