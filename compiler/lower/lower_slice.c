/* Basic slicing in generated code: a[1:-1], a[::-1], a[i, :], a[None],
 * a[..., j] build a view (the array struct of lower_array.h, on the
 * stack: nothing is allocated) from the base's data, shape and strides;
 * slice bounds are clipped as Python's PySlice_AdjustIndices does, and a
 * step of zero raises "ValueError: slice step cannot be zero".
 *
 * view[...] = v stores a number into every element of the view, or an
 * array broadcast to its shape as NumPy's setitem (leading axes of
 * length 1 of the source dropped). When the source's bytes and the
 * destination's may overlap (checked at run time from their extents), the
 * source is first copied to a temporary (malloc), so that the result is
 * as if the right side had been read in full before any write: NumPy's
 * rule, which Numba follows the same way. */
#include "compiler/lower/lower_array.h"
#include "compiler/types/index_kinds.h"

#include "common/error_internal.h"
#include "common/loop.h"

#define B (F->L->b)
#define MAXIDX 64

static LLVMTypeRef i64t(uf__fn *F)
{
    return LLVMInt64TypeInContext(F->L->ctx);
}

static LLVMValueRef c64(uf__fn *F, long long v)
{
    return LLVMConstInt(i64t(F), (unsigned long long)v, 1);
}

static int fail_at(uf__fn *F, uf__pos pos, int code, const char *what)
{
    return uf__source_error(F->err, code, F->tf->km->src, pos, "%s", what);
}

/* A slice bound as i64, or NULL when absent or None. */
static int bound_value(uf__fn *F, const uf__expr *b, LLVMValueRef *out)
{
    *out = NULL;
    if (b == NULL)
        return 0;
    const uf__type *t = uf__lower_info(F, b)->type;
    if (!t || t->kind == UF__T_NONE)
        return 0;
    LLVMValueRef v = uf__lower_expr(F, b);
    if (!v)
        return -1;
    *out = uf__emit_cast(F, v, t->dtype, UF_INT64);
    return 0;
}

/* A bound adjusted as CPython's PySlice_AdjustIndices: negative values
 * count from the end, then clipped to [0, len] (to [-1, len-1] for a
 * negative step). */
static LLVMValueRef adjust(uf__fn *F, LLVMValueRef v, LLVMValueRef len,
                           LLVMValueRef neg)
{
    LLVMValueRef zero = c64(F, 0), m1 = c64(F, -1);
    LLVMValueRef lenm1 = LLVMBuildSub(B, len, c64(F, 1), "");
    LLVMValueRef isneg = LLVMBuildICmp(B, LLVMIntSLT, v, zero, "");
    LLVMValueRef w = LLVMBuildAdd(B, v, len, "");
    LLVMValueRef low = LLVMBuildSelect(B, neg, m1, zero, "");
    LLVMValueRef wn = LLVMBuildSelect(
        B, LLVMBuildICmp(B, LLVMIntSLT, w, zero, ""), low, w, "");
    LLVMValueRef high = LLVMBuildSelect(B, neg, lenm1, len, "");
    LLVMValueRef vp = LLVMBuildSelect(
        B, LLVMBuildICmp(B, LLVMIntSGE, v, len, ""), high, v, "");
    return LLVMBuildSelect(B, isneg, wn, vp, "");
}

/* A step that is a nonzero literal (or a constant the builder folded)
 * needs no check. */
static bool step_is_safe(const uf__typed_func *tf, const uf__expr *x)
{
    const uf__expr *s = x->u.slice.step;
    if (s == NULL)
        return true;
    const uf__type *t = uf__tf_info(tf, s)->type;
    if (t && t->kind == UF__T_NONE)
        return true;
    if (s->kind == UF__EX_UNARY && s->u.unary.op == UF__OP_NEG)
        s = s->u.unary.operand;
    if (s->kind == UF__EX_INT)
        return s->u.i.value != 0;
    const uf__constant *k = uf__tf_info(tf, s)->constant;
    return k && k->type->kind == UF__T_SCALAR &&
           uf_dtype_kind(k->type->dtype) == 'i' && k->v.i != 0;
}

/* lower:upper:step on an axis of length len: *start and the view's
 * *length and *step. */
static int slice_axis(uf__fn *F, const uf__expr *x, LLVMValueRef len,
                      LLVMValueRef *start, LLVMValueRef *length,
                      LLVMValueRef *step)
{
    LLVMValueRef lo, hi, st;
    if (bound_value(F, x->u.slice.lower, &lo) < 0 ||
        bound_value(F, x->u.slice.upper, &hi) < 0 ||
        bound_value(F, x->u.slice.step, &st) < 0)
        return -1;
    if (st == NULL)
        st = c64(F, 1);
    if (!step_is_safe(F->tf, x)) {
        LLVMValueRef z = LLVMBuildICmp(B, LLVMIntEQ, st, c64(F, 0), "");
        uf__fn_raise_if(F, z, UF__JIT_SLICE_STEP);
        /* where nothing may raise, a zero step gives an empty view */
        st = LLVMBuildSelect(B, z, c64(F, 1), st, "");
        len = LLVMBuildSelect(B, z, c64(F, 0), len, "");
    }
    LLVMValueRef neg = LLVMBuildICmp(B, LLVMIntSLT, st, c64(F, 0), "neg");
    LLVMValueRef s = lo ? adjust(F, lo, len, neg)
                        : LLVMBuildSelect(B, neg,
                                          LLVMBuildSub(B, len, c64(F, 1), ""),
                                          c64(F, 0), "");
    LLVMValueRef e = hi ? adjust(F, hi, len, neg)
                        : LLVMBuildSelect(B, neg, c64(F, -1), len, "");
    /* length: ceil((stop - start) / step) when positive, else 0 */
    LLVMValueRef span = LLVMBuildSelect(B, neg, LLVMBuildSub(B, s, e, ""),
                                        LLVMBuildSub(B, e, s, ""), "");
    LLVMValueRef mag = LLVMBuildSelect(B, neg, LLVMBuildNeg(B, st, ""), st,
                                       "");
    LLVMValueRef n = LLVMBuildAdd(
        B, LLVMBuildUDiv(B, LLVMBuildSub(B, span, c64(F, 1), ""), mag, ""),
        c64(F, 1), "");
    *length = LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntSGT, span,
                                               c64(F, 0), ""),
                              n, c64(F, 0), "len");
    *start = s;
    *step = st;
    return 0;
}

int uf__lower_slice_axis(uf__fn *F, const uf__expr *x, LLVMValueRef len,
                         LLVMValueRef *start, LLVMValueRef *length,
                         LLVMValueRef *step)
{
    return slice_axis(F, x, len, start, length, step);
}

/* The view a[...] of subscript e as shape/strides/data: *nd axes. */
typedef struct view {
    LLVMValueRef data;
    LLVMValueRef shape[MAXIDX], strides[MAXIDX];
    int nd;
} view;

static int build_view(uf__fn *F, const uf__expr *e, view *v)
{
    const uf__expr *base = e->u.subscript.value;
    const uf__type *t = uf__lower_info(F, base)->type;
    if (!t || t->kind != UF__T_ARRAY)
        return fail_at(F, e->pos, UF_ERR_UNSUPPORTED, "slicing this value "
                       "is not supported");
    LLVMValueRef a = uf__lower_expr(F, base);
    if (!a)
        return -1;
    uf__expr *const *idx = e->u.subscript.index;
    int n = e->u.subscript.nindex, nreal = 0;
    for (int i = 0; i < n; i++) {
        uf__ix_kind k = uf__index_kind(F->tf, idx[i]);
        nreal += k == UF__IX_INT || k == UF__IX_SLICE;
    }
    LLVMValueRef off = c64(F, 0);
    int ax = 0;
    v->nd = 0;
    for (int i = 0; i < n; i++) {
        const uf__expr *x = idx[i];
        switch (uf__index_kind(F->tf, x)) {
        case UF__IX_ELLIPSIS:
            for (int r = 0; r < t->ndim - nreal; r++, ax++) {
                v->shape[v->nd] = uf__emit_array_dim(F, a, ax);
                v->strides[v->nd++] = uf__emit_array_stride(F, a, t, ax);
            }
            break;
        case UF__IX_NEWAXIS:
            v->shape[v->nd] = c64(F, 1);
            v->strides[v->nd++] = c64(F, 0);
            break;
        case UF__IX_ARRAY: /* lower_fancy.c's */
            return fail_at(F, x->pos, UF_ERR_INTERNAL, "an array index in "
                           "a view");
        case UF__IX_INT: {
            uf_dtype idt;
            LLVMValueRef iv = uf__lower_int_index(F, x, &idt);
            if (!iv)
                return -1;
            LLVMValueRef k = uf__emit_axis_index(F, x->pos, a, ax, iv, idt);
            off = LLVMBuildAdd(
                B, off,
                LLVMBuildMul(B, k, uf__emit_array_stride(F, a, t, ax), ""),
                "");
            ax++;
            break;
        }
        case UF__IX_SLICE: {
            LLVMValueRef start, len, step;
            if (slice_axis(F, x, uf__emit_array_dim(F, a, ax), &start, &len,
                           &step) < 0)
                return -1;
            LLVMValueRef st = uf__emit_array_stride(F, a, t, ax);
            off = LLVMBuildAdd(B, off, LLVMBuildMul(B, start, st, ""), "");
            v->shape[v->nd] = len;
            v->strides[v->nd++] = LLVMBuildMul(B, st, step, "");
            ax++;
            break;
        }
        }
    }
    /* the axes after the last index */
    for (; ax < t->ndim; ax++) {
        v->shape[v->nd] = uf__emit_array_dim(F, a, ax);
        v->strides[v->nd++] = uf__emit_array_stride(F, a, t, ax);
    }
    /* not inbounds: an empty reversed view starts one element before */
    v->data = LLVMBuildGEP2(B, LLVMInt8TypeInContext(F->L->ctx),
                            uf__emit_array_data(F, a), &off, 1, "view");
    return 0;
}

LLVMValueRef uf__lower_slice(uf__fn *F, const uf__expr *e)
{
    if (uf__subscript_is_fancy(F->tf, e)) /* a copy: lower_fancy.c */
        return uf__lower_fancy(F, e);
    view v;
    if (build_view(F, e, &v) < 0)
        return NULL;
    const uf__type *rt = uf__lower_info(F, e)->type;
    if (rt->kind == UF__T_SCALAR) /* every axis indexed: the element */
        return uf__emit_elem_load(F, v.data, rt->dtype);
    return uf__build_array(F->L, v.data, v.shape, v.strides, v.nd);
}

/* ---- view[...] = value ----------------------------------------------------- */

/* What one element of the store does: dst[.] = src[.] (converted) or the
 * scalar. */
typedef struct store_elem {
    uf_dtype ddt, sdt;
    LLVMValueRef scalar; /* already of ddt, or NULL */
} store_elem;

static void elem_op(uf__fn *F, LLVMValueRef dp, LLVMValueRef sp,
                    const store_elem *s)
{
    LLVMValueRef x = s->scalar;
    if (!x)
        x = uf__emit_cast(F, uf__emit_elem_load(F, sp, s->sdt), s->sdt,
                          s->ddt);
    uf__emit_elem_store(F, dp, s->ddt, x);
}

/* Loops over axes d..nd of shape, the destination pointer stepping by
 * dstr[d] and the source's by sstr[d] (sp NULL for a scalar). */
static void loop_nest(uf__fn *F, int d, int nd, const LLVMValueRef *shape,
                      const LLVMValueRef *dstr, const LLVMValueRef *sstr,
                      LLVMValueRef dp, LLVMValueRef sp, const store_elem *s)
{
    if (d == nd) {
        elem_op(F, dp, sp, s);
        return;
    }
    LLVMTypeRef i8 = LLVMInt8TypeInContext(F->L->ctx);
    LLVMTypeRef i8p = LLVMPointerType(i8, 0);
    LLVMBasicBlockRef pre = LLVMGetInsertBlock(B);
    LLVMBasicBlockRef head = uf__fn_block(F, "slice.head");
    LLVMBasicBlockRef body = uf__fn_block(F, "slice.body");
    LLVMBasicBlockRef done = uf__fn_block(F, "slice.done");
    LLVMBuildBr(B, head);
    LLVMPositionBuilderAtEnd(B, head);
    LLVMValueRef i = LLVMBuildPhi(B, i64t(F), "i");
    LLVMValueRef pd = LLVMBuildPhi(B, i8p, "pd");
    LLVMValueRef ps = sp ? LLVMBuildPhi(B, i8p, "ps") : NULL;
    LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntSLT, i, shape[d], ""), body,
                    done);
    LLVMPositionBuilderAtEnd(B, body);
    loop_nest(F, d + 1, nd, shape, dstr, sstr, pd, ps, s);
    LLVMBasicBlockRef latch = LLVMGetInsertBlock(B);
    LLVMValueRef in = LLVMBuildNSWAdd(B, i, c64(F, 1), "");
    LLVMValueRef dstep = dstr[d];
    LLVMValueRef pdn = LLVMBuildGEP2(B, i8, pd, &dstep, 1, "");
    LLVMValueRef psn = NULL;
    if (sp) {
        LLVMValueRef sstep = sstr[d];
        psn = LLVMBuildGEP2(B, i8, ps, &sstep, 1, "");
    }
    LLVMBuildBr(B, head);
    LLVMValueRef zero = c64(F, 0);
    LLVMBasicBlockRef from[2] = {pre, latch};
    LLVMValueRef iv[2] = {zero, in}, dv[2] = {dp, pdn};
    LLVMAddIncoming(i, iv, from, 2);
    LLVMAddIncoming(pd, dv, from, 2);
    if (sp) {
        LLVMValueRef sv[2] = {sp, psn};
        LLVMAddIncoming(ps, sv, from, 2);
    }
    LLVMPositionBuilderAtEnd(B, done);
}

/* [lo, hi) of the bytes a view touches, as i64 addresses; meaningful
 * when it has elements. */
static void extent(uf__fn *F, LLVMValueRef data, const LLVMValueRef *shape,
                   const LLVMValueRef *strides, int nd, uf_dtype dt,
                   LLVMValueRef *lo, LLVMValueRef *hi)
{
    LLVMValueRef base = LLVMBuildPtrToInt(B, data, i64t(F), "");
    LLVMValueRef l = base, h = base;
    for (int d = 0; d < nd; d++) {
        LLVMValueRef span = LLVMBuildMul(
            B, LLVMBuildSub(B, shape[d], c64(F, 1), ""), strides[d], "");
        LLVMValueRef neg = LLVMBuildICmp(B, LLVMIntSLT, span, c64(F, 0), "");
        l = LLVMBuildAdd(B, l, LLVMBuildSelect(B, neg, span, c64(F, 0), ""),
                         "");
        h = LLVMBuildAdd(B, h, LLVMBuildSelect(B, neg, c64(F, 0), span, ""),
                         "");
    }
    *lo = l;
    *hi = LLVMBuildAdd(B, h, c64(F, uf_dtype_itemsize(dt)), "");
}

static LLVMValueRef declare_fn(uf__fn *F, const char *name, LLVMTypeRef ret,
                               LLVMTypeRef arg)
{
    return uf__lower_declare(F->L, name, LLVMFunctionType(ret, &arg, 1, 0),
                             false);
}

/* The source of an array store, broadcast to the destination's nd axes:
 * its data and strides (0 on broadcast axes); a shape that does not
 * broadcast raises. */
/* The shapes "cannot assign slice of shape (3,) from input of shape (4,)"
 * names: the view's, then the source's. */
typedef struct store_shapes {
    const view *dst;
    LLVMValueRef src;
} store_shapes;

static LLVMValueRef store_dim(uf__fn *F, int s, int k, void *ud)
{
    const store_shapes *u = ud;
    return s == 0 ? u->dst->shape[k] : uf__emit_array_dim(F, u->src, k);
}

static int broadcast_source(uf__fn *F, uf__pos pos, LLVMValueRef src,
                            const uf__type *st, const view *dst, LLVMValueRef *sshape,
                            LLVMValueRef *sstr)
{
    LLVMValueRef bad = LLVMConstInt(LLVMInt1TypeInContext(F->L->ctx), 0, 0);
    int lead = st->ndim - dst->nd;
    for (int k = 0; k < lead; k++) /* NumPy drops leading 1s */
        bad = LLVMBuildOr(B, bad,
                          LLVMBuildICmp(B, LLVMIntNE,
                                        uf__emit_array_dim(F, src, k),
                                        c64(F, 1), ""),
                          "");
    for (int d = 0; d < dst->nd; d++) {
        int k = d - (dst->nd - st->ndim);
        if (k < 0) {
            sshape[d] = c64(F, 1);
            sstr[d] = c64(F, 0);
            continue;
        }
        LLVMValueRef n = uf__emit_array_dim(F, src, k);
        LLVMValueRef one = LLVMBuildICmp(B, LLVMIntEQ, n, c64(F, 1), "");
        LLVMValueRef same = LLVMBuildICmp(B, LLVMIntEQ, n, dst->shape[d], "");
        bad = LLVMBuildOr(B, bad,
                          LLVMBuildAnd(B, LLVMBuildNot(B, one, ""),
                                       LLVMBuildNot(B, same, ""), ""),
                          "");
        sshape[d] = n;
        sstr[d] = LLVMBuildSelect(B, LLVMBuildAnd(B, one,
                                                  LLVMBuildNot(B, same, ""),
                                                  ""),
                                  c64(F, 0),
                                  uf__emit_array_stride(F, src, st, k), "");
    }
    if (!F->fallible) /* uf__slice_store_fallible makes it fallible */
        return fail_at(F, pos, UF_ERR_INTERNAL, "a slice store from an "
                       "array in a function that cannot raise");
    store_shapes u = {dst, src};
    int nd[2] = {dst->nd, st->ndim};
    uf__fn_raise_shapes_if(F, bad, UF__JIT_SLICE_SHAPE, UF__SHAPES_SLICE, 2,
                           nd, store_dim, &u);
    return 0;
}

/* Copies the source (already broadcast: nd axes of sshape, strides sstr)
 * to a fresh C-contiguous buffer when its bytes may overlap the
 * destination's, and points *sp / sstr at whichever is read. *tmp: the
 * buffer to free, or null. */
static void copy_if_overlap(uf__fn *F, const view *dst, uf_dtype ddt,
                            LLVMValueRef src, const uf__type *st,
                            LLVMValueRef *sp, LLVMValueRef *sstr,
                            LLVMValueRef *tmp)
{
    LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(F->L->ctx), 0);
    LLVMValueRef sdata = uf__emit_array_data(F, src);
    LLVMValueRef sshape[MAXIDX], sstrides[MAXIDX];
    LLVMValueRef nonempty = LLVMConstInt(LLVMInt1TypeInContext(F->L->ctx),
                                         1, 0);
    for (int k = 0; k < st->ndim; k++) {
        sshape[k] = uf__emit_array_dim(F, src, k);
        sstrides[k] = uf__emit_array_stride(F, src, st, k);
        nonempty = LLVMBuildAnd(B, nonempty,
                                LLVMBuildICmp(B, LLVMIntSGT, sshape[k],
                                              c64(F, 0), ""), "");
    }
    for (int d = 0; d < dst->nd; d++)
        nonempty = LLVMBuildAnd(B, nonempty,
                                LLVMBuildICmp(B, LLVMIntSGT, dst->shape[d],
                                              c64(F, 0), ""), "");
    LLVMValueRef slo, shi, dlo, dhi;
    extent(F, sdata, sshape, sstrides, st->ndim, st->dtype, &slo, &shi);
    extent(F, dst->data, dst->shape, dst->strides, dst->nd, ddt, &dlo, &dhi);
    LLVMValueRef overlap = LLVMBuildAnd(
        B, nonempty,
        LLVMBuildAnd(B, LLVMBuildICmp(B, LLVMIntULT, slo, dhi, ""),
                     LLVMBuildICmp(B, LLVMIntULT, dlo, shi, ""), ""),
        "overlap");
    LLVMBasicBlockRef pre = LLVMGetInsertBlock(B);
    LLVMBasicBlockRef copy = uf__fn_block(F, "slice.copy");
    LLVMBasicBlockRef join = uf__fn_block(F, "slice.join");
    LLVMBuildCondBr(B, overlap, copy, join);

    LLVMPositionBuilderAtEnd(B, copy);
    /* C strides of the source's own shape, in its dtype */
    LLVMValueRef cstr[MAXIDX], bytes = c64(F, uf_dtype_itemsize(st->dtype));
    for (int k = st->ndim - 1; k >= 0; k--) {
        cstr[k] = bytes;
        bytes = LLVMBuildMul(B, bytes, sshape[k], "");
    }
    LLVMValueRef buf = LLVMBuildCall2(
        B, LLVMFunctionType(i8p, (LLVMTypeRef[]){i64t(F)}, 1, 0),
        declare_fn(F, "malloc", i8p, i64t(F)), &bytes, 1, "tmp");
    uf__fn_raise_if(F, LLVMBuildIsNull(B, buf, ""), UF__JIT_NOMEM);
    store_elem same = {st->dtype, st->dtype, NULL};
    loop_nest(F, 0, st->ndim, sshape, cstr, sstrides, buf, sdata, &same);
    /* the broadcast strides over the copy */
    LLVMValueRef tstr[MAXIDX];
    for (int d = 0; d < dst->nd; d++) {
        int k = d - (dst->nd - st->ndim);
        tstr[d] = k < 0 ? c64(F, 0)
                        : LLVMBuildSelect(
                              B, LLVMBuildICmp(B, LLVMIntEQ, sstr[d],
                                               c64(F, 0), ""),
                              c64(F, 0), cstr[k], "");
    }
    LLVMBasicBlockRef copied = LLVMGetInsertBlock(B);
    LLVMBuildBr(B, join);

    LLVMPositionBuilderAtEnd(B, join);
    LLVMBasicBlockRef from[2] = {pre, copied};
    LLVMValueRef p = LLVMBuildPhi(B, i8p, "src");
    LLVMAddIncoming(p, (LLVMValueRef[]){sdata, buf}, from, 2);
    LLVMValueRef t = LLVMBuildPhi(B, i8p, "tmp");
    LLVMAddIncoming(t, (LLVMValueRef[]){LLVMConstNull(i8p), buf}, from, 2);
    for (int d = 0; d < dst->nd; d++) {
        LLVMValueRef s = LLVMBuildPhi(B, i64t(F), "sstr");
        LLVMAddIncoming(s, (LLVMValueRef[]){sstr[d], tstr[d]}, from, 2);
        sstr[d] = s;
    }
    *sp = p;
    *tmp = t;
}

int uf__lower_slice_store(uf__fn *F, const uf__expr *target, LLVMValueRef v,
                          const uf__type *vt)
{
    if (uf__subscript_is_fancy(F->tf, target))
        return uf__lower_fancy_store(F, target, v, vt);
    const uf__type *dt = uf__lower_info(F, target)->type;
    view dst;
    if (build_view(F, target, &dst) < 0)
        return F->err->code;
    store_elem s = {dt->dtype, dt->dtype, NULL};
    if (vt->kind == UF__T_SCALAR) {
        s.scalar = uf__emit_cast(F, v, vt->dtype, dt->dtype);
        loop_nest(F, 0, dst.nd, dst.shape, dst.strides, NULL, dst.data, NULL,
                  &s);
        return 0;
    }
    if (vt->kind != UF__T_ARRAY || vt->ndim > MAXIDX)
        return fail_at(F, target->pos, UF_ERR_TYPING, "only numbers and "
                       "arrays can be stored into a slice");
    LLVMValueRef sshape[MAXIDX], sstr[MAXIDX], sp, tmp;
    if (broadcast_source(F, target->pos, v, vt, &dst, sshape, sstr) < 0)
        return F->err->code;
    copy_if_overlap(F, &dst, dt->dtype, v, vt, &sp, sstr, &tmp);
    s.sdt = vt->dtype;
    loop_nest(F, 0, dst.nd, dst.shape, dst.strides, sstr, dst.data, sp, &s);
    LLVMTypeRef vd = LLVMVoidTypeInContext(F->L->ctx);
    LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(F->L->ctx), 0);
    LLVMBasicBlockRef rel = uf__fn_block(F, "slice.free");
    LLVMBasicBlockRef end = uf__fn_block(F, "slice.end");
    LLVMBuildCondBr(B, LLVMBuildIsNull(B, tmp, ""), end, rel);
    LLVMPositionBuilderAtEnd(B, rel);
    LLVMBuildCall2(B, LLVMFunctionType(vd, &i8p, 1, 0),
                   declare_fn(F, "free", vd, i8p), &tmp, 1, "");
    LLVMBuildBr(B, end);
    LLVMPositionBuilderAtEnd(B, end);
    return 0;
}

/* ---- which statements may raise (lower_fallible.c) ------------------------ */

bool uf__slice_expr_fallible(const uf__typed_func *tf, const uf__expr *e)
{
    const uf__type *bt = uf__tf_info(tf, e->u.subscript.value)->type;
    if (!bt || bt->kind != UF__T_ARRAY)
        return false;
    for (int i = 0; i < e->u.subscript.nindex; i++) {
        const uf__expr *x = e->u.subscript.index[i];
        if (x->kind == UF__EX_SLICE && !step_is_safe(tf, x))
            return true;
    }
    return false;
}

bool uf__slice_store_fallible(const uf__typed_func *tf, const uf__expr *t,
                              const uf__expr *value)
{
    if (t->kind != UF__EX_SUBSCRIPT)
        return false;
    const uf__type *tt = uf__tf_info(tf, t)->type;
    const uf__type *vt = uf__tf_info(tf, value)->type;
    return tt && tt->kind == UF__T_ARRAY && vt && vt->kind == UF__T_ARRAY;
}
