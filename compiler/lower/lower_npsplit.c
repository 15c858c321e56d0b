/* np.split, np.array_split, np.hsplit, np.vsplit, np.dsplit, typed by
 * infer_npsplit.c as a UniTuple of P views (P known at compile time), or
 * a list of them (a section count known at run time: split_list).
 * Each part is the argument's array struct with the data pointer moved
 * to its first element along the axis and that axis's length set: no
 * copy, no allocation (the views keep the base's block alive as slices
 * do, lower_nrt_loop.c). The axis may be a run-time value: its length
 * and stride are picked by selects over the array's axes.
 *   sections N: Numba's divmod(shape[axis], N) (ZeroDivisionError for 0,
 *     and for np.split ValueError unless the remainder is 0); with P > 1
 *     parts N is P and part i starts at i*l + min(i, rem) (the first rem
 *     parts one longer), with P == 1 (N 1 or negative) the whole array;
 *   indices (c0, c1, ...): parts slice(0, c0), slice(c0, c1), ...,
 *     slice(c_last, None), each bound clipped as Python's slices clip
 *     (a negative one counts from the end; a stop before its start gives
 *     an empty part).
 * Errors in Numba's order: an axis out of range (IndexError from
 * shape[axis] with sections, ValueError from normalize_axis with
 * indices), then 0 sections, then the unequal division. */
#include "compiler/lower/lower.h"
#include "compiler/lower/lower_array.h"
#include "compiler/lower/lower_npreduce.h"
#include "compiler/types/infer_npsplit.h"

#define B (F->L->b)

static LLVMValueRef c64(uf__fn *F, long long v)
{
    return uf__npr_c64(F, v);
}

static LLVMValueRef smin(uf__fn *F, LLVMValueRef a, LLVMValueRef b)
{
    return LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntSLT, a, b, ""), a, b,
                           "");
}

static LLVMValueRef smax(uf__fn *F, LLVMValueRef a, LLVMValueRef b)
{
    return LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntSGT, a, b, ""), a, b,
                           "");
}

/* A slice bound s on an axis of length n, clipped as slice.indices. */
static LLVMValueRef clip_bound(uf__fn *F, LLVMValueRef s, LLVMValueRef n)
{
    LLVMValueRef neg = LLVMBuildICmp(B, LLVMIntSLT, s, c64(F, 0), "");
    return LLVMBuildSelect(B, neg,
                           smax(F, LLVMBuildAdd(B, s, n, ""), c64(F, 0)),
                           smin(F, s, n), "");
}

/* The integer operand x as i64. */
static LLVMValueRef int64(uf__fn *F, const uf__expr *x)
{
    LLVMValueRef v = uf__lower_expr(F, x);
    if (!v)
        return NULL;
    return uf__emit_cast(F, v, uf__lower_info(F, x)->type->dtype, UF_INT64);
}

typedef struct parts {
    int nd;
    LLVMValueRef data, ax, len, step; /* the axis, its length and stride */
    LLVMValueRef shape[UF_MAXDIMS], stride[UF_MAXDIMS];
    LLVMValueRef tuple;
    int n;
} parts;

/* The view of elements [lo, hi) along the axis (0 <= lo <= hi <= len). */
static LLVMValueRef part_view(uf__fn *F, const parts *p, LLVMValueRef lo,
                              LLVMValueRef hi)
{
    LLVMValueRef shape[UF_MAXDIMS];
    LLVMValueRef n = LLVMBuildSub(B, hi, lo, "");
    for (int k = 0; k < p->nd; k++)
        shape[k] = LLVMBuildSelect(
            B, LLVMBuildICmp(B, LLVMIntEQ, p->ax, c64(F, k), ""), n,
            p->shape[k], "");
    LLVMValueRef d = uf__npr_gep(F, p->data, LLVMBuildMul(B, lo, p->step,
                                                          ""));
    return uf__build_array(F->L, d, shape, p->stride, p->nd);
}

/* Part `i` of p's tuple. */
static void put_part(uf__fn *F, parts *p, int i, LLVMValueRef lo,
                     LLVMValueRef hi)
{
    p->tuple = LLVMBuildInsertValue(B, p->tuple, part_view(F, p, lo, hi),
                                    (unsigned)i, "");
}

/* The axis the call splits along, in [-nd, nd) unless raised on, as i64;
 * NULL after an error. */
static LLVMValueRef split_axis(uf__fn *F, uf__builtin b, const uf__expr *ax,
                               int nd, bool sections)
{
    switch (b) { /* their ndim checked by typing */
    case UF__BI_NP_HSPLIT:
        return c64(F, nd > 1 ? 1 : 0);
    case UF__BI_NP_VSPLIT:
        return c64(F, 0);
    case UF__BI_NP_DSPLIT:
        return c64(F, 2);
    default:
        break;
    }
    LLVMValueRef a = ax ? int64(F, ax) : c64(F, 0);
    if (!a)
        return NULL;
    LLVMValueRef bad = LLVMBuildOr(
        B, LLVMBuildICmp(B, LLVMIntSLT, a, c64(F, -nd), ""),
        LLVMBuildICmp(B, LLVMIntSGE, a, c64(F, nd), ""), "");
    uf__fn_raise_if(F, bad, sections ? UF__JIT_SPLIT_SHAPE
                                     : UF__JIT_SPLIT_AXIS);
    return a;
}

/* The parts as a new list (a run-time count n, not 0): P = n parts when
 * n > 0, else one, the whole array; part i starts at i*l + min(i, rem). */
static LLVMValueRef split_list(uf__fn *F, parts *p, const uf__type *lt,
                               LLVMValueRef n)
{
    LLVMValueRef pos = LLVMBuildICmp(B, LLVMIntSGT, n, c64(F, 0), "");
    LLVMValueRef P = LLVMBuildSelect(B, pos, n, c64(F, 1), "parts");
    LLVMValueRef l = LLVMBuildUDiv(B, p->len, P, "");
    LLVMValueRef rem = LLVMBuildURem(B, p->len, P, "");
    LLVMValueRef list = uf__lower_list_new(F, lt, P);
    LLVMTypeRef i64 = LLVMInt64TypeInContext(F->L->ctx);
    LLVMValueRef slot = uf__fn_alloca(F, i64, "split.i");
    LLVMBuildStore(B, c64(F, 0), slot);
    LLVMBasicBlockRef head = uf__fn_block(F, "split.head");
    LLVMBasicBlockRef body = uf__fn_block(F, "split.body");
    LLVMBasicBlockRef done = uf__fn_block(F, "split.done");
    LLVMBuildBr(B, head);
    LLVMPositionBuilderAtEnd(B, head);
    LLVMValueRef i = LLVMBuildLoad2(B, i64, slot, "");
    LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntSLT, i, P, ""), body, done);
    LLVMPositionBuilderAtEnd(B, body);
    LLVMValueRef j = LLVMBuildAdd(B, i, c64(F, 1), "");
    LLVMValueRef lo = LLVMBuildAdd(B, LLVMBuildMul(B, i, l, ""),
                                   smin(F, i, rem), "");
    LLVMValueRef hi = LLVMBuildAdd(B, LLVMBuildMul(B, j, l, ""),
                                   smin(F, j, rem), "");
    uf__lower_list_set(F, list, lt, i, part_view(F, p, lo, hi));
    LLVMBuildStore(B, j, slot);
    LLVMBuildBr(B, head);
    LLVMPositionBuilderAtEnd(B, done);
    return list;
}

LLVMValueRef uf__lower_npsplit(uf__fn *F, const uf__expr *e)
{
    uf__builtin b = uf__lower_info(F, e)->builtin;
    const uf__type *rt = uf__lower_info(F, e)->type;
    const uf__expr *x[3];
    const uf__keyword *kw;
    if (uf__npsplit_bind(e, b, x, &kw) != 0 || !x[0] || !x[1] || !rt ||
        (rt->kind != UF__T_TUPLE && rt->kind != UF__T_LIST) || rt->n < 1) {
        uf__source_error(F->err, UF_ERR_INTERNAL, F->tf->km->src, e->pos,
                         "%s", "np.split: a call typing did not accept");
        return NULL;
    }
    const uf__type *at = uf__lower_info(F, x[0])->type;
    const uf__type *st = uf__lower_info(F, x[1])->type;
    bool list = rt->kind == UF__T_LIST;
    LLVMTypeRef ty = uf__lower_type(F->L, list ? rt->elts[0] : rt, F->err);
    if (!ty)
        return NULL;
    LLVMValueRef a = uf__lower_expr(F, x[0]);
    if (!a)
        return NULL;
    parts p = {.nd = at->ndim, .n = rt->n, .tuple = LLVMGetUndef(ty)};
    bool sections = st->kind == UF__T_SCALAR;
    LLVMValueRef ax = split_axis(F, b, x[2], p.nd, sections);
    if (!ax)
        return NULL;
    p.ax = LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntSLT, ax, c64(F, 0), ""),
                           LLVMBuildAdd(B, ax, c64(F, p.nd), ""), ax, "");
    p.data = uf__emit_array_data(F, a);
    p.len = c64(F, 0);
    p.step = c64(F, 0);
    for (int k = 0; k < p.nd; k++) {
        p.shape[k] = uf__emit_array_dim(F, a, k);
        p.stride[k] = uf__emit_array_stride(F, a, at, k);
        LLVMValueRef here = LLVMBuildICmp(B, LLVMIntEQ, p.ax, c64(F, k), "");
        p.len = LLVMBuildSelect(B, here, p.shape[k], p.len, "");
        p.step = LLVMBuildSelect(B, here, p.stride[k], p.step, "");
    }
    if (sections) {
        LLVMValueRef n = int64(F, x[1]);
        if (!n)
            return NULL;
        LLVMValueRef zero = LLVMBuildICmp(B, LLVMIntEQ, n, c64(F, 0), "");
        uf__fn_raise_if(F, zero, UF__JIT_SPLIT_DIVMOD);
        if (b != UF__BI_NP_ARRAY_SPLIT) {
            /* Python's remainder of len by n: 0 exactly when srem is 0 */
            LLVMValueRef d = LLVMBuildSelect(B, zero, c64(F, 1), n, "");
            LLVMValueRef r = LLVMBuildSRem(B, p.len, d, "");
            uf__fn_raise_if(F, LLVMBuildICmp(B, LLVMIntNE, r, c64(F, 0), ""),
                            UF__JIT_SPLIT_EQUAL);
        }
        if (list)
            return split_list(F, &p, rt, n);
        /* with P > 1 parts n is P (typing); P == 1 is the whole array */
        LLVMValueRef P = c64(F, p.n);
        LLVMValueRef l = LLVMBuildUDiv(B, p.len, P, "");
        LLVMValueRef rem = LLVMBuildURem(B, p.len, P, "");
        LLVMValueRef lo = c64(F, 0);
        for (int i = 0; i < p.n; i++) {
            LLVMValueRef hi = p.len;
            if (i + 1 < p.n)
                hi = LLVMBuildAdd(B, LLVMBuildMul(B, c64(F, i + 1), l, ""),
                                  smin(F, c64(F, i + 1), rem), "");
            put_part(F, &p, i, lo, hi);
            lo = hi;
        }
        return p.tuple;
    }
    LLVMValueRef iv = uf__lower_expr(F, x[1]);
    if (!iv)
        return NULL;
    LLVMValueRef prev = c64(F, 0);
    for (int i = 0; i < p.n; i++) {
        LLVMValueRef lo = clip_bound(F, prev, p.len), hi = p.len;
        if (i < st->n) {
            LLVMValueRef c = LLVMBuildExtractValue(B, iv, (unsigned)i, "");
            prev = uf__emit_cast(F, c, st->elts[i]->dtype, UF_INT64);
            hi = smax(F, clip_bound(F, prev, p.len), lo);
        }
        put_part(F, &p, i, lo, hi);
    }
    return p.tuple;
}
