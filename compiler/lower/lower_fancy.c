/* Advanced indexing in generated code (typed by infer_fancy.c), as
 * Numba's FancyIndexer: integer arrays (broadcast together) or one
 * boolean array among integers, slices, None and an ellipsis.
 *
 * The subscript becomes a plan: a fixed byte offset (the integers, the
 * slices' starts) and the result's axes, each either an axis of the base
 * stepped by its stride (a slice, a whole axis), the positions of a 1-D
 * mask (the loop runs over the mask and skips its false elements), an
 * axis of the integer arrays' broadcast shape (each array stepped by its
 * own stride, 0 where it broadcasts), or a new axis of length 1. As
 * Numba, the integer arrays' axes go where their group of integer and
 * array indices starts, or first when there are several groups (NumPy's
 * rule: a[i, :, j] puts them first, a[:, i, j] in place),
 * and None's axes are then inserted where they were written.
 *
 * a[...] reads: a new C array (NRT, freed with the frame) of the plan's
 * shape, a mask's axis being its true count (a first pass), filled by one
 * loop nest in C order; an innermost mask is read without a branch (each
 * element written, the result's pointer moved by the mask's 0 or 1: the
 * array has room for one element more), as a number stored through it
 * (the element itself stored back where it is false). a[...] = v writes v (a number, or an array
 * broadcast to the plan's shape as Numba's fancy_setslice: copied first
 * when its bytes may overlap the base's) through the same nest.
 *
 * Where Numba reads out of bounds, we raise as NumPy: an integer index
 * out of range is an IndexError (reported as the bounds checker's), a
 * mask whose length is not its axis's raises "IndexError: boolean index
 * did not match indexed array". */
#include "compiler/lower/lower_array.h"
#include "compiler/lower/codegen.h"
#include "compiler/types/index_kinds.h"

#include "common/error_internal.h"
#include "common/loop.h"

#define B (F->L->b)
#define MAXIDX 64
#define MAXARR 16 /* integer arrays in one subscript */

static LLVMTypeRef i64t(uf__fn *F)
{
    return LLVMInt64TypeInContext(F->L->ctx);
}

static LLVMValueRef c64(uf__fn *F, long long v)
{
    return LLVMConstInt(i64t(F), (unsigned long long)v, 1);
}

static LLVMTypeRef i8t(uf__fn *F)
{
    return LLVMInt8TypeInContext(F->L->ctx);
}

static LLVMValueRef gep(uf__fn *F, LLVMValueRef p, LLVMValueRef off)
{
    return LLVMBuildGEP2(B, i8t(F), p, &off, 1, "");
}

static int fail_at(uf__fn *F, uf__pos pos, int code, const char *what)
{
    return uf__source_error(F->err, code, F->tf->km->src, pos, "%s", what);
}

/* ---- loops ---------------------------------------------------------------- */

typedef struct loop {
    LLVMValueRef i;
    LLVMBasicBlockRef latch, done;
} loop;

/* for i in range(n): the builder left in the body. */
static void loop_open(uf__fn *F, LLVMValueRef n, loop *l)
{
    LLVMBasicBlockRef pre = LLVMGetInsertBlock(B);
    LLVMBasicBlockRef head = uf__fn_block(F, "fancy.head");
    LLVMBasicBlockRef body = uf__fn_block(F, "fancy.body");
    l->latch = uf__fn_block(F, "fancy.latch");
    l->done = uf__fn_block(F, "fancy.done");
    LLVMBuildBr(B, head);
    LLVMPositionBuilderAtEnd(B, head);
    l->i = LLVMBuildPhi(B, i64t(F), "i");
    LLVMValueRef zero = c64(F, 0);
    LLVMAddIncoming(l->i, &zero, &pre, 1);
    LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntSLT, l->i, n, ""), body,
                    l->done);
    LLVMPositionBuilderAtEnd(B, body);
}

static void loop_close(uf__fn *F, loop *l)
{
    LLVMBuildBr(B, l->latch);
    LLVMPositionBuilderAtEnd(B, l->latch);
    LLVMValueRef next = LLVMBuildNSWAdd(B, l->i, c64(F, 1), "");
    LLVMBasicBlockRef head = LLVMGetInstructionParent(l->i);
    LLVMBuildBr(B, head);
    LLVMAddIncoming(l->i, &next, &l->latch, 1);
    LLVMPositionBuilderAtEnd(B, l->done);
}

/* Continues with the next iteration of l unless cond. */
static void skip_unless(uf__fn *F, LLVMValueRef cond, loop *l)
{
    LLVMBasicBlockRef go = uf__fn_block(F, "fancy.take");
    LLVMBuildCondBr(B, cond, go, l->latch);
    LLVMPositionBuilderAtEnd(B, go);
}

/* An IndexError whatever the bounds checking: idx (i64, wrapped) below
 * size, `orig` as written. */
static void check_index(uf__fn *F, uf__pos pos, LLVMValueRef orig, bool uns,
                        LLVMValueRef idx, LLVMValueRef size, int axis)
{
    LLVMValueRef bad = LLVMBuildICmp(B, LLVMIntUGE, idx, size, "oob");
    LLVMBasicBlockRef raise = uf__fn_block(F, "fancy.index_error");
    LLVMBasicBlockRef ok = uf__fn_block(F, "fancy.index_ok");
    LLVMBuildCondBr(B, bad, raise, ok);
    LLVMPositionBuilderAtEnd(B, raise);
    uf__index_report r = {
        .kernel = F->tf->decl->name, .file = F->tf->km->src->name,
        .line = pos.line, .index = orig, .is_unsigned = uns, .axis = axis,
        .size = size};
    F->L->cg->index_error(F, &r);
    LLVMBuildRet(B, LLVMConstInt(LLVMInt32TypeInContext(F->L->ctx),
                                 UF__JIT_INDEX, 0));
    LLVMPositionBuilderAtEnd(B, ok);
}

/* ---- the plan ------------------------------------------------------------- */

enum od_kind { OD_AXIS, OD_MASK, OD_IDX, OD_NEW };

/* One axis of the result. */
typedef struct outdim {
    enum od_kind kind;
    LLVMValueRef len;    /* the result's length (a mask: its true count) */
    LLVMValueRef trip;   /* the loop's length (a mask: its own length) */
    LLVMValueRef stride; /* bytes: of the base (AXIS, MASK), of the
                            integer array (IDX) */
} outdim;

/* One integer array index. */
typedef struct idxarr {
    const uf__type *t;
    LLVMValueRef data;
    int ax;                    /* the axis of the base it indexes */
    LLVMValueRef len, stride;  /* that axis's length and stride */
    uf__pos pos;
    LLVMValueRef str[MAXIDX];  /* its strides over the broadcast axes (0
                                  where it broadcasts) */
} idxarr;

typedef struct plan {
    const uf__type *at; /* the base's type */
    LLVMValueRef arr, data, off; /* the base, its data, the fixed offset */
    LLVMValueRef mdata;          /* the mask's data */
    idxarr ix[MAXARR];           /* the integer arrays */
    int nix;
    outdim od[MAXIDX];
    int nd;
    int nmask; /* an N-d mask as the only index: its dimensions, else 0 */
    LLVMValueRef mstr[MAXIDX];
    LLVMValueRef rshape[MAXIDX]; /* the result's shape (result_shape) */
    int rnd;
} plan;

/* The true elements of a 1-D mask (data, length, stride). */
static LLVMValueRef count_true(uf__fn *F, LLVMValueRef data, LLVMValueRef n,
                               LLVMValueRef stride)
{
    LLVMValueRef acc = uf__fn_alloca(F, i64t(F), "fancy.count");
    LLVMBuildStore(B, c64(F, 0), acc);
    loop l;
    loop_open(F, n, &l);
    LLVMValueRef m = uf__emit_elem_load(
        F, gep(F, data, LLVMBuildMul(B, l.i, stride, "")), UF_BOOL);
    LLVMBuildStore(B, LLVMBuildAdd(B, LLVMBuildLoad2(B, i64t(F), acc, ""),
                                   LLVMBuildZExt(B, m, i64t(F), ""), ""),
                   acc);
    loop_close(F, &l);
    return LLVMBuildLoad2(B, i64t(F), acc, "count");
}

static void mask_mismatch(uf__fn *F, LLVMValueRef mlen, LLVMValueRef alen)
{
    uf__fn_raise_if(F, LLVMBuildICmp(B, LLVMIntNE, mlen, alen, ""),
                    UF__JIT_FANCY_MASK);
}

/* a[mask] with an N-d mask of a's shape: the result is 1-D, its loop nest
 * runs over a's axes. */
static int plan_nd_mask(uf__fn *F, LLVMValueRef a, LLVMValueRef m,
                        const uf__type *mt, plan *p)
{
    p->nmask = mt->ndim;
    p->mdata = uf__emit_array_data(F, m);
    for (int k = 0; k < mt->ndim; k++) {
        LLVMValueRef n = uf__emit_array_dim(F, a, k);
        mask_mismatch(F, uf__emit_array_dim(F, m, k), n);
        p->od[k] = (outdim){OD_AXIS, n, n,
                            uf__emit_array_stride(F, a, p->at, k)};
        p->mstr[k] = uf__emit_array_stride(F, m, mt, k);
    }
    p->nd = mt->ndim;
    return 0;
}

/* The result's length: the mask's count over its axes. */
static LLVMValueRef nd_mask_count(uf__fn *F, const plan *p)
{
    LLVMValueRef acc = uf__fn_alloca(F, i64t(F), "fancy.count");
    LLVMBuildStore(B, c64(F, 0), acc);
    loop l[MAXIDX];
    LLVMValueRef off = c64(F, 0);
    for (int d = 0; d < p->nmask; d++) {
        loop_open(F, p->od[d].trip, &l[d]);
        off = LLVMBuildAdd(B, off, LLVMBuildMul(B, l[d].i, p->mstr[d], ""),
                           "");
    }
    LLVMValueRef m = uf__emit_elem_load(F, gep(F, p->mdata, off), UF_BOOL);
    LLVMBuildStore(B, LLVMBuildAdd(B, LLVMBuildLoad2(B, i64t(F), acc, ""),
                                   LLVMBuildZExt(B, m, i64t(F), ""), ""),
                   acc);
    for (int d = p->nmask - 1; d >= 0; d--)
        loop_close(F, &l[d]);
    return LLVMBuildLoad2(B, i64t(F), acc, "count");
}

/* The integer arrays' axes in the result (idxd; their count returned):
 * one array's own, or the shape they broadcast to (right-aligned, a
 * length of 1 stretched), a ValueError as Numba's when they do not;
 * each array's strides over those axes (0 where it broadcasts). */
static int broadcast_indices(uf__fn *F, plan *p, const LLVMValueRef *v,
                             outdim *idxd)
{
    int nd = 0;
    for (int q = 0; q < p->nix; q++)
        if (p->ix[q].t->ndim > nd)
            nd = p->ix[q].t->ndim;
    LLVMValueRef bad = LLVMConstInt(LLVMInt1TypeInContext(F->L->ctx), 0, 0);
    LLVMValueRef one = c64(F, 1), zero = c64(F, 0);
    for (int d = 0; d < nd; d++) {
        LLVMValueRef len = one;
        for (int q = 0; q < p->nix; q++) {
            idxarr *x = &p->ix[q];
            int k = d - (nd - x->t->ndim);
            if (k < 0) {
                x->str[d] = zero;
                continue;
            }
            LLVMValueRef n = uf__emit_array_dim(F, v[q], k);
            x->str[d] = uf__emit_array_stride(F, v[q], x->t, k);
            if (p->nix == 1) {
                len = n;
                continue;
            }
            x->str[d] = LLVMBuildSelect(
                B, LLVMBuildICmp(B, LLVMIntEQ, n, one, ""), zero, x->str[d],
                "");
            len = LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntEQ, len, one, ""),
                                  n, len, "");
            bad = LLVMBuildOr(
                B, bad,
                LLVMBuildAnd(B, LLVMBuildICmp(B, LLVMIntNE, n, one, ""),
                             LLVMBuildICmp(B, LLVMIntNE, n, len, ""), ""),
                "");
        }
        idxd[d] = (outdim){OD_IDX, len, len, NULL};
    }
    if (p->nix > 1)
        uf__fn_raise_if(F, bad, UF__JIT_BCAST_ARRAYS);
    return nd;
}

/* Numba's FancyIndexer over subscript e: the plan of its result. */
static int build_plan(uf__fn *F, const uf__expr *e, plan *p)
{
    const uf__expr *base = e->u.subscript.value;
    const uf__type *t = uf__lower_info(F, base)->type;
    LLVMValueRef a = uf__lower_expr(F, base);
    if (!a)
        return -1;
    p->at = t;
    p->arr = a;
    p->data = uf__emit_array_data(F, a);
    p->off = c64(F, 0);
    p->nmask = 0;
    p->nix = 0;
    p->mdata = NULL;
    uf__expr *const *idx = e->u.subscript.index;
    int n = e->u.subscript.nindex;
    if (n > MAXIDX)
        return fail_at(F, e->pos, UF_ERR_UNSUPPORTED, "too many indices");
    int nreal = 0;
    for (int i = 0; i < n; i++) {
        uf__ix_kind k = uf__index_kind(F->tf, idx[i]);
        nreal += k == UF__IX_INT || k == UF__IX_SLICE || k == UF__IX_ARRAY;
    }
    /* per axis of the base: its result axes (od_of / nod_of), whether it
     * is in the integer array's group (an integer or the array) */
    outdim per[MAXIDX];
    bool has[MAXIDX], group[MAXIDX];
    int newat[MAXIDX], nnewat = 0, newax = 0, ax = 0, sub = -1;
    bool intarr = false;
    LLVMValueRef ixv[MAXARR];
    for (int i = 0; i < n; i++) {
        const uf__expr *x = idx[i];
        uf__ix_kind kind = uf__index_kind(F->tf, x);
        if (kind == UF__IX_ELLIPSIS) {
            for (int r = 0; r < t->ndim - nreal; r++, ax++, newax++) {
                LLVMValueRef len = uf__emit_array_dim(F, a, ax);
                per[ax] = (outdim){OD_AXIS, len, len,
                                   uf__emit_array_stride(F, a, t, ax)};
                has[ax] = true;
                group[ax] = false;
            }
            continue;
        }
        if (kind == UF__IX_NEWAXIS) {
            newat[nnewat++] = newax++;
            continue;
        }
        const uf__type *xt = uf__lower_info(F, x)->type;
        if (kind == UF__IX_ARRAY && xt->dtype == UF_BOOL && xt->ndim > 1) {
            LLVMValueRef m = uf__lower_expr(F, x);
            return m ? plan_nd_mask(F, a, m, xt, p) : -1;
        }
        LLVMValueRef len = uf__emit_array_dim(F, a, ax);
        LLVMValueRef st = uf__emit_array_stride(F, a, t, ax);
        has[ax] = true;
        group[ax] = false;
        switch (kind) {
        case UF__IX_INT: {
            uf_dtype idt;
            LLVMValueRef v = uf__lower_int_index(F, x, &idt);
            if (!v)
                return -1;
            LLVMValueRef k = uf__emit_axis_index(F, x->pos, a, ax, v, idt);
            p->off = LLVMBuildAdd(B, p->off, LLVMBuildMul(B, k, st, ""), "");
            has[ax] = false;
            group[ax] = true;
            newax--; /* as Numba's new_ax: an integer takes no place */
            break;
        }
        case UF__IX_SLICE: {
            LLVMValueRef start, slen, step;
            if (uf__lower_slice_axis(F, x, len, &start, &slen, &step) < 0)
                return -1;
            p->off = LLVMBuildAdd(B, p->off, LLVMBuildMul(B, start, st, ""),
                                  "");
            per[ax] = (outdim){OD_AXIS, slen, slen,
                               LLVMBuildMul(B, st, step, "")};
            break;
        }
        case UF__IX_ARRAY: {
            LLVMValueRef v = uf__lower_expr(F, x);
            if (!v)
                return -1;
            LLVMValueRef vd = uf__emit_array_data(F, v);
            if (xt->dtype == UF_BOOL) {
                LLVMValueRef mlen = uf__emit_array_dim(F, v, 0);
                LLVMValueRef mst = uf__emit_array_stride(F, v, xt, 0);
                mask_mismatch(F, mlen, len);
                p->mdata = vd;
                per[ax] = (outdim){OD_MASK, count_true(F, vd, mlen, mst),
                                   len, st};
                p->mstr[0] = mst;
                break;
            }
            if (p->nix == MAXARR)
                return fail_at(F, x->pos, UF_ERR_UNSUPPORTED, "too many "
                               "array indices in one subscript");
            intarr = true;
            idxarr *q = &p->ix[p->nix++];
            q->t = xt;
            q->data = vd;
            q->ax = ax;
            q->len = len;
            q->stride = st;
            q->pos = x->pos;
            ixv[p->nix - 1] = v;
            has[ax] = false;
            group[ax] = true;
            break;
        }
        default:
            break;
        }
        ax++;
        newax++;
    }
    for (; ax < t->ndim; ax++) {
        LLVMValueRef len = uf__emit_array_dim(F, a, ax);
        per[ax] = (outdim){OD_AXIS, len, len,
                           uf__emit_array_stride(F, a, t, ax)};
        has[ax] = true;
        group[ax] = false;
    }
    /* where the integer array's axes go: the first of its group, or 0
     * when the integers and it are in several groups */
    if (intarr) {
        int groups = 0;
        for (int k = 0; k < t->ndim; k++)
            if (group[k] && (k == 0 || !group[k - 1])) {
                groups++;
                if (sub < 0)
                    sub = k;
            }
        if (groups > 1)
            sub = 0;
    }
    outdim idxd[MAXIDX];
    int ni = broadcast_indices(F, p, ixv, idxd);
    outdim res[MAXIDX];
    int m = 0;
    for (int k = 0; k < t->ndim; k++) {
        if (k == sub)
            for (int j = 0; j < ni; j++)
                res[m++] = idxd[j];
        if (has[k])
            res[m++] = per[k];
    }
    /* None's axes where they were written, one after another */
    for (int q = 0; q < nnewat; q++) {
        int at = newat[q] < m ? newat[q] : m;
        for (int j = m; j > at; j--)
            res[j] = res[j - 1];
        res[at] = (outdim){OD_NEW, c64(F, 1), c64(F, 1), c64(F, 0)};
        m++;
    }
    p->nmask = 0;
    p->nd = m;
    for (int d = 0; d < m; d++)
        p->od[d] = res[d];
    return 0;
}

/* The result's shape into p->rshape: a mask's count is a first pass. */
static void result_shape(uf__fn *F, plan *p)
{
    if (p->nmask) {
        p->rshape[0] = nd_mask_count(F, p);
        p->rnd = 1;
        return;
    }
    for (int d = 0; d < p->nd; d++)
        p->rshape[d] = p->od[d].len;
    p->rnd = p->nd;
}

/* ---- the loop nest ---------------------------------------------------------- */

/* What the nest does with each selected element at byte address src of
 * the base: copy it to out (read), or store a number or a source array's
 * element into it (write). */
typedef struct action {
    bool write;
    uf_dtype dt;              /* the base's dtype */
    LLVMValueRef out;         /* read: the next element of the result (i8**) */
    LLVMValueRef scalar;      /* write a number: of dt */
    LLVMValueRef sdata;       /* write an array: its data */
    uf_dtype sdt;
    LLVMValueRef sstr[MAXIDX]; /* its strides over the result's axes */
    LLVMValueRef seen;         /* an N-d mask's: the elements stored */
} action;

static void act(uf__fn *F, const action *ac, LLVMValueRef src,
                const LLVMValueRef *pos, int nd, LLVMValueRef pred)
{
    LLVMTypeRef i8p = LLVMPointerType(i8t(F), 0);
    if (!ac->write) {
        LLVMValueRef o = LLVMBuildLoad2(B, i8p, ac->out, "");
        uf__emit_elem_store(F, o, ac->dt, uf__emit_elem_load(F, src, ac->dt));
        LLVMValueRef step = c64(F, uf_dtype_itemsize(ac->dt));
        if (pred) /* branchless: the result has room for one more */
            step = LLVMBuildMul(B, step, LLVMBuildZExt(B, pred, i64t(F), ""),
                                "");
        LLVMBuildStore(B, gep(F, o, step), ac->out);
        return;
    }
    LLVMValueRef v = ac->scalar;
    if (!v) {
        LLVMValueRef off = c64(F, 0);
        for (int d = 0; d < nd; d++)
            off = LLVMBuildAdd(B, off,
                               LLVMBuildMul(B, pos[d], ac->sstr[d], ""), "");
        v = uf__emit_cast(F,
                          uf__emit_elem_load(F, gep(F, ac->sdata, off),
                                             ac->sdt),
                          ac->sdt, ac->dt);
    }
    if (pred) /* a number through the innermost mask: branchless */
        v = LLVMBuildSelect(B, pred, v, uf__emit_elem_load(F, src, ac->dt),
                            "");
    uf__emit_elem_store(F, src, ac->dt, v);
}

/* Runs the plan's nest: for every selected element, act(). pos[d]: the
 * element's index along the result's axis d (a mask's: the true elements
 * before it). */
static void run_nest(uf__fn *F, const plan *p, const action *ac)
{
    loop l[MAXIDX];
    LLVMValueRef pos[MAXIDX], off = p->off, ioff[MAXARR];
    LLVMValueRef moff = c64(F, 0);
    int sd = 0; /* the broadcast axes met */
    for (int q = 0; q < p->nix; q++)
        ioff[q] = c64(F, 0);
    LLVMValueRef mcount = NULL, pred = NULL;
    for (int d = 0; d < p->nd; d++) {
        const outdim *o = &p->od[d];
        if (o->kind == OD_MASK && ac->write && !ac->scalar) {
            mcount = uf__fn_alloca(F, i64t(F), "fancy.seen");
            LLVMBuildStore(B, c64(F, 0), mcount);
        }
        loop_open(F, o->trip, &l[d]);
        pos[d] = l[d].i;
        switch (o->kind) {
        case OD_AXIS:
            off = LLVMBuildAdd(B, off, LLVMBuildMul(B, l[d].i, o->stride, ""),
                               "");
            if (p->nmask)
                moff = LLVMBuildAdd(
                    B, moff, LLVMBuildMul(B, l[d].i, p->mstr[d], ""), "");
            break;
        case OD_MASK: {
            LLVMValueRef m = uf__emit_elem_load(
                F, gep(F, p->mdata, LLVMBuildMul(B, l[d].i, p->mstr[0], "")),
                UF_BOOL);
            if ((!ac->write || ac->scalar) && d == p->nd - 1 && !p->nix)
                pred = m; /* stores back where false, or writes the
                             result's next element without moving on */
            else
                skip_unless(F, m, &l[d]);
            off = LLVMBuildAdd(B, off, LLVMBuildMul(B, l[d].i, o->stride, ""),
                               "");
            if (mcount) {
                pos[d] = LLVMBuildLoad2(B, i64t(F), mcount, "");
                LLVMBuildStore(B, LLVMBuildAdd(B, pos[d], c64(F, 1), ""),
                               mcount);
            }
            break;
        }
        case OD_IDX:
            for (int q = 0; q < p->nix; q++)
                ioff[q] = LLVMBuildAdd(
                    B, ioff[q], LLVMBuildMul(B, l[d].i, p->ix[q].str[sd], ""),
                    "");
            sd++;
            break;
        case OD_NEW:
            break;
        }
    }
    int nd = p->nd;
    if (p->nmask) {
        LLVMValueRef m = uf__emit_elem_load(F, gep(F, p->mdata, moff),
                                            UF_BOOL);
        if (!ac->write || ac->scalar)
            pred = m;
        else
            skip_unless(F, m, &l[p->nd - 1]);
        if (ac->seen) { /* the one axis of the result */
            pos[0] = LLVMBuildLoad2(B, i64t(F), ac->seen, "");
            LLVMBuildStore(B, LLVMBuildAdd(B, pos[0], c64(F, 1), ""),
                           ac->seen);
            nd = 1;
        }
    }
    for (int q = 0; q < p->nix; q++) {
        const idxarr *x = &p->ix[q];
        uf_dtype dt = x->t->dtype;
        bool sgn = uf__dtype_is_signed(dt);
        LLVMValueRef v = uf__emit_cast(
            F, uf__emit_elem_load(F, gep(F, x->data, ioff[q]), dt), dt,
            sgn ? UF_INT64 : UF_UINT64);
        LLVMValueRef k = v;
        if (sgn)
            k = LLVMBuildSelect(B,
                                LLVMBuildICmp(B, LLVMIntSLT, v, c64(F, 0), ""),
                                LLVMBuildAdd(B, v, x->len, ""), v, "");
        check_index(F, x->pos, v, !sgn, k, x->len, x->ax);
        off = LLVMBuildAdd(B, off, LLVMBuildMul(B, k, x->stride, ""), "");
    }
    act(F, ac, gep(F, p->data, off), pos, nd, pred);
    for (int d = p->nd - 1; d >= 0; d--)
        loop_close(F, &l[d]);
}

/* The new array of plan p's elements (e the subscript). */
static LLVMValueRef read_plan(uf__fn *F, const uf__expr *e, plan *pp)
{
    plan p = *pp;
    const uf__type *rt = uf__lower_info(F, e)->type;
    LLVMValueRef items;
    result_shape(F, &p);
    /* one element more than the result, which the branchless loop of a
     * mask writes (and never keeps) */
    LLVMValueRef n = c64(F, 1);
    for (int d = 0; d < p.rnd; d++)
        n = LLVMBuildMul(B, n, p.rshape[d], "");
    n = LLVMBuildAdd(B, n, c64(F, 1), "");
    LLVMValueRef flat = uf__lower_new_array(F, rt->dtype, 1, &n, &items);
    if (!flat)
        return NULL;
    LLVMValueRef str[MAXIDX], s = c64(F, uf_dtype_itemsize(rt->dtype));
    for (int d = p.rnd - 1; d >= 0; d--) {
        str[d] = s;
        s = LLVMBuildMul(B, s, p.rshape[d], "");
    }
    LLVMValueRef r = uf__build_array(F->L, uf__emit_array_data(F, flat),
                                     p.rshape, str, p.rnd);
    action ac = {.write = false, .dt = p.at->dtype};
    ac.out = uf__fn_alloca(F, LLVMPointerType(i8t(F), 0), "fancy.out");
    LLVMBuildStore(B, uf__emit_array_data(F, r), ac.out);
    run_nest(F, &p, &ac);
    return r;
}

LLVMValueRef uf__lower_fancy(uf__fn *F, const uf__expr *e)
{
    plan p;
    if (build_plan(F, e, &p) < 0)
        return NULL;
    return read_plan(F, e, &p);
}

/* ---- a[...] = v ----------------------------------------------------------- */

typedef struct store_shapes {
    const plan *p;
    LLVMValueRef src;
} store_shapes;

static LLVMValueRef store_dim(uf__fn *F, int s, int k, void *ud)
{
    const store_shapes *u = ud;
    return s == 0 ? u->p->rshape[k] : uf__emit_array_dim(F, u->src, k);
}

/* [lo, hi) of the bytes array v of type t spans (meaningful when it has
 * elements). */
static void extent(uf__fn *F, LLVMValueRef v, const uf__type *t,
                   LLVMValueRef *lo, LLVMValueRef *hi)
{
    LLVMValueRef l = LLVMBuildPtrToInt(B, uf__emit_array_data(F, v), i64t(F),
                                       "");
    LLVMValueRef h = l;
    for (int k = 0; k < t->ndim; k++) {
        LLVMValueRef span = LLVMBuildMul(
            B, LLVMBuildSub(B, uf__emit_array_dim(F, v, k), c64(F, 1), ""),
            uf__emit_array_stride(F, v, t, k), "");
        LLVMValueRef neg = LLVMBuildICmp(B, LLVMIntSLT, span, c64(F, 0), "");
        l = LLVMBuildAdd(B, l, LLVMBuildSelect(B, neg, span, c64(F, 0), ""),
                         "");
        h = LLVMBuildAdd(B, h, LLVMBuildSelect(B, neg, c64(F, 0), span, ""),
                         "");
    }
    *lo = l;
    *hi = LLVMBuildAdd(B, h, c64(F, uf_dtype_itemsize(t->dtype)), "");
}

/* The source of an array store: broadcast to the plan's shape (leading
 * axes of either padded with 1s, each of the source's 1 or the same), and
 * copied to a new C array when its bytes may overlap the base's. */
static int store_source(uf__fn *F, const uf__expr *target, const plan *p,
                        LLVMValueRef v, const uf__type *vt, action *ac)
{
    LLVMValueRef bad = LLVMConstInt(LLVMInt1TypeInContext(F->L->ctx), 0, 0);
    int nd = p->rnd;
    for (int k = 0; k < vt->ndim; k++) {
        int d = k - (vt->ndim - nd);
        LLVMValueRef dim = d < 0 ? c64(F, 1) : p->rshape[d];
        LLVMValueRef n = uf__emit_array_dim(F, v, k);
        bad = LLVMBuildOr(
            B, bad,
            LLVMBuildAnd(B, LLVMBuildICmp(B, LLVMIntNE, n, dim, ""),
                         LLVMBuildICmp(B, LLVMIntNE, n, c64(F, 1), ""), ""),
            "");
    }
    if (!F->fallible)
        return fail_at(F, target->pos, UF_ERR_INTERNAL, "a fancy store in a "
                       "function that cannot raise");
    store_shapes u = {p, v};
    int nds[2] = {nd, vt->ndim};
    uf__fn_raise_shapes_if(F, bad, UF__JIT_SLICE_SHAPE, UF__SHAPES_SLICE, 2,
                           nds, store_dim, &u);
    /* a copy where the source may share the base's bytes */
    LLVMValueRef base = p->arr;
    LLVMValueRef slo, shi, dlo, dhi;
    extent(F, v, vt, &slo, &shi);
    extent(F, base, p->at, &dlo, &dhi);
    LLVMValueRef overlap = LLVMBuildAnd(
        B, LLVMBuildICmp(B, LLVMIntULT, slo, dhi, ""),
        LLVMBuildICmp(B, LLVMIntULT, dlo, shi, ""), "overlap");
    LLVMValueRef shape[MAXIDX], items;
    for (int k = 0; k < vt->ndim; k++)
        shape[k] = uf__emit_array_dim(F, v, k);
    LLVMTypeRef i8p = LLVMPointerType(i8t(F), 0);
    LLVMValueRef sdata = uf__fn_alloca(F, i8p, "fancy.src");
    LLVMValueRef sstr = uf__fn_alloca(F, LLVMArrayType(i64t(F),
                                                       (unsigned)vt->ndim + 1),
                                      "fancy.sstr");
    LLVMValueRef z[2] = {c64(F, 0), NULL};
    LLVMBuildStore(B, uf__emit_array_data(F, v), sdata);
    for (int k = 0; k < vt->ndim; k++) {
        z[1] = c64(F, k);
        LLVMBuildStore(B, uf__emit_array_stride(F, v, vt, k),
                       LLVMBuildGEP2(B, LLVMArrayType(i64t(F),
                                                      (unsigned)vt->ndim + 1),
                                     sstr, z, 2, ""));
    }
    LLVMBasicBlockRef copy = uf__fn_block(F, "fancy.copy");
    LLVMBasicBlockRef join = uf__fn_block(F, "fancy.join");
    LLVMBuildCondBr(B, overlap, copy, join);
    LLVMPositionBuilderAtEnd(B, copy);
    LLVMValueRef c = uf__lower_new_array(F, vt->dtype, vt->ndim, shape,
                                         &items);
    if (!c)
        return -1;
    {
        loop l[MAXIDX];
        LLVMValueRef from = c64(F, 0), to = c64(F, 0);
        for (int k = 0; k < vt->ndim; k++) {
            loop_open(F, shape[k], &l[k]);
            from = LLVMBuildAdd(
                B, from,
                LLVMBuildMul(B, l[k].i, uf__emit_array_stride(F, v, vt, k),
                             ""),
                "");
            to = LLVMBuildAdd(
                B, to,
                LLVMBuildMul(B, l[k].i, uf__emit_array_stride(F, c, vt, k),
                             ""),
                "");
        }
        uf__emit_elem_store(
            F, gep(F, uf__emit_array_data(F, c), to), vt->dtype,
            uf__emit_elem_load(F, gep(F, uf__emit_array_data(F, v), from),
                               vt->dtype));
        for (int k = vt->ndim - 1; k >= 0; k--)
            loop_close(F, &l[k]);
    }
    LLVMBuildStore(B, uf__emit_array_data(F, c), sdata);
    for (int k = 0; k < vt->ndim; k++) {
        z[1] = c64(F, k);
        LLVMBuildStore(B, uf__emit_array_stride(F, c, vt, k),
                       LLVMBuildGEP2(B, LLVMArrayType(i64t(F),
                                                      (unsigned)vt->ndim + 1),
                                     sstr, z, 2, ""));
    }
    LLVMBuildBr(B, join);
    LLVMPositionBuilderAtEnd(B, join);
    ac->sdata = LLVMBuildLoad2(B, i8p, sdata, "");
    ac->sdt = vt->dtype;
    /* strides over the result's axes: 0 where broadcast or absent */
    for (int d = 0; d < nd; d++) {
        int k = d - (nd - vt->ndim);
        if (k < 0) {
            ac->sstr[d] = c64(F, 0);
            continue;
        }
        z[1] = c64(F, k);
        LLVMValueRef s = LLVMBuildLoad2(
            B, i64t(F),
            LLVMBuildGEP2(B, LLVMArrayType(i64t(F), (unsigned)vt->ndim + 1),
                          sstr, z, 2, ""),
            "");
        LLVMValueRef one = LLVMBuildICmp(B, LLVMIntEQ,
                                         uf__emit_array_dim(F, v, k),
                                         c64(F, 1), "");
        ac->sstr[d] = LLVMBuildSelect(B, one, c64(F, 0), s, "");
    }
    return 0;
}

static int store_plan(uf__fn *F, const uf__expr *target, plan *pp,
                      LLVMValueRef v, const uf__type *vt)
{
    plan p = *pp;
    action ac = {.write = true, .dt = p.at->dtype};
    if (vt->kind == UF__T_SCALAR) {
        ac.scalar = uf__emit_cast(F, v, vt->dtype, ac.dt);
    } else {
        if (vt->kind != UF__T_ARRAY || vt->ndim > MAXIDX)
            return fail_at(F, target->pos, UF_ERR_TYPING, "only numbers and "
                           "arrays can be stored through an array index");
        result_shape(F, &p);
        if (p.nmask) {
            ac.seen = uf__fn_alloca(F, i64t(F), "fancy.seen");
            LLVMBuildStore(B, c64(F, 0), ac.seen);
        }
        if (store_source(F, target, &p, v, vt, &ac) < 0)
            return F->err->code;
    }
    run_nest(F, &p, &ac);
    return 0;
}

int uf__lower_fancy_store(uf__fn *F, const uf__expr *target, LLVMValueRef v,
                          const uf__type *vt)
{
    plan p;
    if (build_plan(F, target, &p) < 0)
        return F->err->code;
    return store_plan(F, target, &p, v, vt);
}

/* a[idx] op= v as Numba: getitem (a copy), the in-place operation on it,
 * setitem of the copy (a repeated index is added to once). The base and
 * the index are evaluated once, as Python does: one plan for both. */
int uf__lower_fancy_augassign(uf__fn *F, const uf__stmt *s,
                              const uf__type *at)
{
    const uf__expr *t = s->u.augassign.target;
    plan p;
    if (build_plan(F, t, &p) < 0)
        return F->err->code;
    LLVMValueRef dst = read_plan(F, t, &p);
    if (!dst)
        return F->err->code;
    int rc = uf__lower_arrexpr_into(F, s->pos, dst, at, s->u.augassign.value,
                                    (int)s->u.augassign.op);
    return rc != 0 ? rc : store_plan(F, t, &p, dst, at);
}
