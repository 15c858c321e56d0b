/* a.view(dtype), np.frombuffer and isinstance, typed by infer_arrview.c
 * (builtins.h: UF__ARRVIEW_MAP). The views are the argument's array
 * struct with a new shape and strides over the same bytes: no copy, no
 * allocation, and the data pointer stays inside the base's block, so the
 * frame's sweep and the return keep that block alive as for a slice
 * (lower_nrt_loop.c). Loads through the view assume the new dtype's
 * alignment, as Numba's aligned arrays do.
 *   a.view(dtype) (numba/np/arrayobj.py: array_view, _compatible_view,
 *     _change_dtype): the same itemsize keeps shape and strides (any
 *     layout, 0-d too); another itemsize raises Numba's ValueErrors in
 *     its order (a 0-d array; the last axis longer than 1, not empty and
 *     not at the itemsize's stride; a larger item not dividing the last
 *     axis's bytes), then scales one axis: the last of a C array, the
 *     first of an F one, and for an 'A' array the last where its stride
 *     is the itemsize, else the first where that one's is, else "new type
 *     not compatible with array". Itemsizes are powers of two, so a
 *     smaller one always divides the old;
 *   np.frombuffer(buf, dtype, count, offset): buf's bytes (a C array) as
 *     a 1-D C array: offset items skipped (the itemsizes are equal where
 *     it is not 0: infer_arrview.c), the rest a multiple of the item, count
 *     at most what remains (-1 or any negative: all of it). A negative
 *     offset is Numba's "offset must be non-negative" ValueError (Numba
 *     itself does not check it and reads before the buffer);
 *   isinstance: the constant typing found. */
#include "compiler/lower/lower.h"
#include "compiler/lower/lower_array.h"
#include "compiler/lower/lower_npreduce.h"

#define B (F->L->b)

static LLVMValueRef c64(uf__fn *F, long long v)
{
    return uf__npr_c64(F, v);
}

static LLVMValueRef ieq(uf__fn *F, LLVMValueRef a, LLVMValueRef b)
{
    return LLVMBuildICmp(B, LLVMIntEQ, a, b, "");
}

static LLVMValueRef ine(uf__fn *F, LLVMValueRef a, LLVMValueRef b)
{
    return LLVMBuildICmp(B, LLVMIntNE, a, b, "");
}

/* Axis i of the view rescaled from `old` to `new` bytes an item. */
static void rescale(uf__fn *F, LLVMValueRef *shape, LLVMValueRef *stride,
                    int i, long long old, long long new)
{
    shape[i] = new < old ? LLVMBuildMul(B, shape[i], c64(F, old / new), "")
                         : LLVMBuildSDiv(B, LLVMBuildMul(B, shape[i],
                                                         c64(F, old), ""),
                                         c64(F, new), "");
    stride[i] = c64(F, new);
}

static LLVMValueRef lower_view(uf__fn *F, const uf__expr *e)
{
    const uf__expr *x = e->u.call.func->u.attr.value;
    const uf__type *at = uf__lower_info(F, x)->type;
    const uf__type *rt = uf__lower_info(F, e)->type;
    LLVMValueRef a = uf__lower_expr(F, x);
    if (!a)
        return NULL;
    int nd = at->ndim;
    LLVMValueRef data = uf__emit_array_data(F, a);
    LLVMValueRef shape[UF_MAXDIMS + 1], stride[UF_MAXDIMS + 1];
    for (int k = 0; k < nd; k++) {
        shape[k] = uf__emit_array_dim(F, a, k);
        stride[k] = uf__emit_array_stride(F, a, at, k);
    }
    long long old = (long long)uf_dtype_itemsize(at->dtype);
    long long new = (long long)uf_dtype_itemsize(rt->dtype);
    if (old == new)
        return uf__build_array(F->L, data, shape, stride, nd);
    if (nd == 0) {
        uf__fn_raise_if(F, LLVMConstInt(LLVMInt1TypeInContext(F->L->ctx), 1,
                                        0),
                        UF__JIT_VIEW_0D);
        return uf__build_array(F->L, data, shape, stride, nd);
    }
    int last = nd - 1;
    LLVMValueRef size = c64(F, 1);
    for (int k = 0; k < nd; k++)
        size = LLVMBuildMul(B, size, shape[k], "");
    LLVMValueRef strided = LLVMBuildAnd(
        B, LLVMBuildAnd(B, ine(F, shape[last], c64(F, 1)),
                        ine(F, size, c64(F, 0)), ""),
        ine(F, stride[last], c64(F, old)), "");
    uf__fn_raise_if(F, strided, UF__JIT_VIEW_LAST_AXIS);
    if (new > old) {
        LLVMValueRef bytes = LLVMBuildMul(B, shape[last], c64(F, old), "");
        uf__fn_raise_if(F, ine(F, LLVMBuildSRem(B, bytes, c64(F, new), ""),
                               c64(F, 0)),
                        UF__JIT_VIEW_LARGER);
    }
    /* the axis that changes: the last (C), the first (F), or for 'A'
     * whichever is at the itemsize's stride, the last first */
    LLVMValueRef first = NULL; /* i1: axis 0 changes (nd > 1 only) */
    if (nd > 1 && at->layout == 'F') {
        first = LLVMConstInt(LLVMInt1TypeInContext(F->L->ctx), 1, 0);
    } else if (nd > 1 && at->layout == 'A') {
        LLVMValueRef c = ieq(F, stride[last], c64(F, old));
        LLVMValueRef f = ieq(F, stride[0], c64(F, old));
        uf__fn_raise_if(F, LLVMBuildNot(B, LLVMBuildOr(B, c, f, ""), ""),
                        UF__JIT_VIEW_LAYOUT);
        first = LLVMBuildNot(B, c, "");
    } else if (nd == 1 && at->layout == 'A') {
        uf__fn_raise_if(F, ine(F, stride[0], c64(F, old)),
                        UF__JIT_VIEW_LAYOUT);
    }
    if (first == NULL) {
        rescale(F, shape, stride, last, old, new);
        return uf__build_array(F->L, data, shape, stride, nd);
    }
    /* Numba checks a larger item against the axis it changes too */
    if (new > old) {
        LLVMValueRef bytes = LLVMBuildMul(B, shape[0], c64(F, old), "");
        uf__fn_raise_if(F, LLVMBuildAnd(B, first,
                                        ine(F, LLVMBuildSRem(B, bytes,
                                                             c64(F, new), ""),
                                            c64(F, 0)),
                                        ""),
                        UF__JIT_VIEW_LAYOUT);
    }
    LLVMValueRef s0[UF_MAXDIMS + 1], t0[UF_MAXDIMS + 1];
    LLVMValueRef sl[UF_MAXDIMS + 1], tl[UF_MAXDIMS + 1];
    for (int k = 0; k < nd; k++) {
        s0[k] = sl[k] = shape[k];
        t0[k] = tl[k] = stride[k];
    }
    rescale(F, s0, t0, 0, old, new);
    rescale(F, sl, tl, last, old, new);
    for (int k = 0; k < nd; k++) {
        shape[k] = LLVMBuildSelect(B, first, s0[k], sl[k], "");
        stride[k] = LLVMBuildSelect(B, first, t0[k], tl[k], "");
    }
    return uf__build_array(F->L, data, shape, stride, nd);
}

static const char *const fb_names[] = {"buffer", "dtype", "count",
                                       "offset"};

/* np.frombuffer's argument i (by position or keyword), or NULL. */
static const uf__expr *fb_arg(const uf__expr *e, int i)
{
    if (i < e->u.call.nargs)
        return e->u.call.args[i];
    for (int k = 0; k < e->u.call.nkw; k++)
        if (strcmp(e->u.call.kw[k].name, fb_names[i]) == 0)
            return e->u.call.kw[k].value;
    return NULL;
}

/* An integer argument as i64, `dflt` when absent. */
static LLVMValueRef fb_int(uf__fn *F, const uf__expr *x, long long dflt)
{
    if (x == NULL)
        return c64(F, dflt);
    LLVMValueRef v = uf__lower_expr(F, x);
    if (!v)
        return NULL;
    return uf__emit_cast(F, v, uf__lower_info(F, x)->type->dtype, UF_INT64);
}

static LLVMValueRef lower_frombuffer(uf__fn *F, const uf__expr *e)
{
    const uf__expr *bx = fb_arg(e, 0);
    const uf__type *bt = uf__lower_info(F, bx)->type;
    const uf__type *rt = uf__lower_info(F, e)->type;
    LLVMValueRef buf = uf__lower_expr(F, bx);
    if (!buf)
        return NULL;
    /* the dtype is the result type's: nothing to evaluate */
    LLVMValueRef count = fb_int(F, fb_arg(e, 2), -1);
    LLVMValueRef offset = fb_int(F, fb_arg(e, 3), 0);
    if (!count || !offset)
        return NULL;
    long long isz = (long long)uf_dtype_itemsize(rt->dtype);
    LLVMValueRef nbytes = c64(F, (long long)uf_dtype_itemsize(bt->dtype));
    for (int k = 0; k < bt->ndim; k++)
        nbytes = LLVMBuildMul(B, nbytes, uf__emit_array_dim(F, buf, k), "");
    LLVMValueRef skip = LLVMBuildMul(B, offset, c64(F, isz), "");
    LLVMValueRef rest = LLVMBuildSub(B, nbytes, skip, "");
    uf__fn_raise_if(F, LLVMBuildOr(B,
                                   LLVMBuildICmp(B, LLVMIntSLT, rest,
                                                 c64(F, 0), ""),
                                   LLVMBuildICmp(B, LLVMIntSLT, offset,
                                                 c64(F, 0), ""),
                                   ""),
                    UF__JIT_FROMBUFFER_OFFSET);
    uf__fn_raise_if(F, ine(F, LLVMBuildSRem(B, rest, c64(F, isz), ""),
                           c64(F, 0)),
                    UF__JIT_FROMBUFFER_SIZE);
    LLVMValueRef all = LLVMBuildSDiv(B, rest, c64(F, isz), "");
    LLVMValueRef neg = LLVMBuildICmp(B, LLVMIntSLT, count, c64(F, 0), "");
    LLVMValueRef n = LLVMBuildSelect(B, neg, all, count, "n");
    uf__fn_raise_if(F, LLVMBuildICmp(B, LLVMIntSGT, n, all, ""),
                    UF__JIT_FROMBUFFER_COUNT);
    LLVMValueRef data = uf__npr_gep(F, uf__emit_array_data(F, buf), skip);
    LLVMValueRef st = c64(F, isz);
    return uf__build_array(F->L, data, &n, &st, 1);
}

LLVMValueRef uf__lower_arrview(uf__fn *F, const uf__expr *e)
{
    const uf__expr_info *in = uf__lower_info(F, e);
    switch (in->builtin) {
    case UF__BI_METH_VIEW:
        return lower_view(F, e);
    case UF__BI_NP_FROMBUFFER:
        return lower_frombuffer(F, e);
    case UF__BI_ISINSTANCE:
        if (in->constant)
            return uf__lower_constant(F, in->constant);
        /* fall through */
    default:
        uf__source_error(F->err, UF_ERR_INTERNAL, F->tf->km->src, e->pos,
                         "%s", "an untyped view or isinstance");
        return NULL;
    }
}
