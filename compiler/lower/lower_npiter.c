/* for loops over np.ndindex, np.ndenumerate and np.nditer (typed by
 * infer_npiter.c): one counted loop per dimension, nested, the body
 * lowered once inside the innermost, so that
 *     for idx in np.ndindex(a.shape): s += a[idx]
 * is the loop nest `for i in range(n): for j in range(m): s += a[i, j]`
 * once LLVM has promoted the index tuple (Numba keeps an index array in
 * memory and steps it as an odometer). What Numba's iterators do
 * (numba/np/arrayobj.py: make_ndindex_cls, _make_flattening_iter_cls,
 * make_nditer_cls), kept:
 *   - a 0 anywhere in the shape runs no iteration, a negative dimension
 *     of np.ndindex runs as 1 (Numba's odometer only tests == 0 up
 *     front, then steps each index while it is below its dimension);
 *   - no dimensions (np.ndindex(), a 0-d array): one iteration, idx ();
 *   - C order (the last index fastest), np.nditer's 'F' iteration (most
 *     of its operands F arrays) in reverse: the first index fastest;
 *   - np.nditer's operands: each array's shape must equal the trailing
 *     dimensions of the first operand of the most dimensions (no
 *     stretching of 1s: Numba's check_shape), else ValueError; a number
 *     is a 0-d array over its own slot, written back to nothing.
 * break leaves the whole nest, continue steps the innermost index, the
 * else block runs when the nest ends without break.
 * Also a.item() (what np.nditer's views are read with): the first element,
 * after Numba's ValueError unless a has exactly one (none to check for a
 * 0-d array). */
#include <string.h>

#include "compiler/lower/lower.h"
#include "compiler/lower/lower_rtcall.h"
#include "compiler/lower/lower_array.h"

#define B (F->L->b)

#define MAXD 64 /* uf__lower_type's largest tuple */

typedef struct nest {
    int n;                    /* dimensions */
    LLVMValueRef cnt[MAXD];   /* iterations of each (i64) */
    LLVMValueRef empty;       /* i1: no iteration at all */
    bool reversed;            /* nditer's 'F': the outer loop is the last */
    LLVMValueRef k[MAXD];     /* in the body: the index of each dimension */
} nest;

/* The operands: arrays (their values and types) over the nest. */
typedef struct operands {
    int n;
    LLVMValueRef v[MAXD];
    const uf__type *t[MAXD];
} operands;

static int fail(uf__fn *F, uf__pos pos, const char *what)
{
    return uf__source_error(F->err, UF_ERR_UNSUPPORTED, F->tf->km->src, pos,
                            "%s", what);
}

static int find_var(uf__fn *F, const char *name)
{
    for (int i = 0; i < F->tf->nvars; i++)
        if (strcmp(F->tf->vars[i].name, name) == 0)
            return F->vars[i] ? i : -1;
    return -1;
}

/* The i64 dimensions of np.ndindex(...)'s call e into N->cnt. */
static int ndindex_shape(uf__fn *F, const uf__expr *e, nest *N)
{
    LLVMValueRef v[MAXD];
    const uf__type *t[MAXD];
    int n = e->u.call.nargs;
    if (n > MAXD)
        return fail(F, e->pos, "np.ndindex() of this many dimensions");
    for (int i = 0; i < n; i++) {
        t[i] = uf__lower_info(F, e->u.call.args[i])->type;
        if (!(v[i] = uf__lower_expr(F, e->u.call.args[i])))
            return F->err->code;
    }
    /* np.ndindex(*t) or np.ndindex(t): the tuple's elements */
    if (n == 1 && t[0]->kind == UF__T_TUPLE) {
        const uf__type *tup = t[0];
        LLVMValueRef tv = v[0];
        n = tup->n;
        if (n > MAXD)
            return fail(F, e->pos, "np.ndindex() of this many dimensions");
        for (int i = 0; i < n; i++) {
            v[i] = LLVMBuildExtractValue(B, tv, (unsigned)i, "");
            t[i] = tup->elts[i];
        }
    }
    N->n = n;
    N->empty = LLVMConstInt(LLVMInt1TypeInContext(F->L->ctx), 0, 0);
    for (int i = 0; i < n; i++) {
        LLVMValueRef d = uf__emit_cast(F, v[i], t[i]->dtype, UF_INT64);
        N->empty = LLVMBuildOr(B, N->empty,
                               LLVMBuildICmp(B, LLVMIntEQ, d, uf__c_i64(F, 0), ""),
                               "");
        LLVMValueRef neg = LLVMBuildICmp(B, LLVMIntSLT, d, uf__c_i64(F, 1), "");
        N->cnt[i] = LLVMBuildSelect(B, neg, uf__c_i64(F, 1), d, "");
    }
    return 0;
}

/* The dimensions of array a (type at) into N. */
static void array_shape(uf__fn *F, LLVMValueRef a, const uf__type *at,
                        nest *N)
{
    N->n = at->ndim;
    N->empty = LLVMConstInt(LLVMInt1TypeInContext(F->L->ctx), 0, 0);
    for (int i = 0; i < at->ndim; i++) {
        N->cnt[i] = uf__emit_array_dim(F, a, i);
        N->empty = LLVMBuildOr(B, N->empty,
                               LLVMBuildICmp(B, LLVMIntEQ, N->cnt[i],
                                             uf__c_i64(F, 0), ""),
                               "");
    }
}

/* The byte address of a[k[off..off+ndim)] (in range: no wrapping). */
static LLVMValueRef element(uf__fn *F, LLVMValueRef a, const uf__type *at,
                            const LLVMValueRef *k)
{
    LLVMValueRef off = uf__c_i64(F, 0);
    for (int i = 0; i < at->ndim; i++)
        off = LLVMBuildAdd(B, off,
                           LLVMBuildMul(B, k[i],
                                        uf__emit_array_stride(F, a, at, i),
                                        ""),
                           "");
    LLVMTypeRef i8 = LLVMInt8TypeInContext(F->L->ctx);
    return LLVMBuildInBoundsGEP2(B, i8, uf__emit_array_data(F, a), &off, 1,
                                 "");
}

static LLVMValueRef index_tuple(uf__fn *F, const nest *N)
{
    LLVMTypeRef *ts = NULL;
    LLVMTypeRef tys[MAXD];
    for (int i = 0; i < N->n; i++)
        tys[i] = uf__ty_i64(F);
    ts = tys;
    LLVMTypeRef st = LLVMStructTypeInContext(F->L->ctx, ts, (unsigned)N->n, 0);
    LLVMValueRef v = LLVMGetUndef(st);
    for (int i = 0; i < N->n; i++)
        v = LLVMBuildInsertValue(B, v, N->k[i], (unsigned)i, "");
    return v;
}

/* What an iteration yields, of type `item`, at indices N->k. */
static LLVMValueRef yielded(uf__fn *F, uf__builtin bi, const nest *N,
                            const operands *O, const uf__type *item)
{
    if (bi == UF__BI_NP_NDINDEX)
        return index_tuple(F, N);
    if (bi == UF__BI_NP_NDENUMERATE) {
        LLVMValueRef p = element(F, O->v[0], O->t[0], N->k);
        LLVMValueRef x = uf__emit_elem_load(F, p, O->t[0]->dtype);
        LLVMTypeRef st = uf__lower_type(F->L, item, F->err);
        if (!st)
            return NULL;
        LLVMValueRef v = LLVMBuildInsertValue(B, LLVMGetUndef(st),
                                              index_tuple(F, N), 0, "");
        return LLVMBuildInsertValue(B, v, x, 1, "");
    }
    /* np.nditer: 0-d views; an operand of m dimensions takes the last m
     * indices */
    LLVMValueRef views[MAXD];
    for (int i = 0; i < O->n; i++) {
        const uf__type *t = O->t[i];
        LLVMValueRef p = element(F, O->v[i], t, N->k + (N->n - t->ndim));
        views[i] = uf__build_array(F->L, p, NULL, NULL, 0);
    }
    if (item->kind != UF__T_TUPLE)
        return views[0];
    LLVMTypeRef st = uf__lower_type(F->L, item, F->err);
    if (!st)
        return NULL;
    LLVMValueRef v = LLVMGetUndef(st);
    for (int i = 0; i < O->n; i++)
        v = LLVMBuildInsertValue(B, v, views[i], (unsigned)i, "");
    return v;
}

/* np.nditer's operands: arrays as they are, numbers as 0-d arrays over
 * a slot of their own; N gets the main shape, checked against the
 * others (UF__JIT_NDITER_SHAPES). */
static int nditer_operands(uf__fn *F, const uf__expr *x, nest *N,
                           operands *O)
{
    const uf__type *xt = uf__lower_info(F, x)->type;
    LLVMValueRef xv = uf__lower_expr(F, x);
    if (!xv)
        return F->err->code;
    O->n = xt->kind == UF__T_TUPLE ? xt->n : 1;
    if (O->n > MAXD)
        return fail(F, x->pos, "np.nditer() of this many operands");
    int main = -1, ncf[2] = {0, 0};
    for (int i = 0; i < O->n; i++) {
        const uf__type *t = xt->kind == UF__T_TUPLE ? xt->elts[i] : xt;
        LLVMValueRef v = xt->kind == UF__T_TUPLE
                             ? LLVMBuildExtractValue(B, xv, (unsigned)i, "")
                             : xv;
        if (t->kind == UF__T_SCALAR) {
            LLVMValueRef slot = uf__fn_alloca(
                F, uf__lower_mem_dtype(F->L, t->dtype), "nditer.scalar");
            LLVMTypeRef i8p = LLVMPointerType(
                LLVMInt8TypeInContext(F->L->ctx), 0);
            LLVMValueRef p = LLVMBuildBitCast(B, slot, i8p, "");
            uf__emit_elem_store(F, p, t->dtype, v);
            v = uf__build_array(F->L, p, NULL, NULL, 0);
            t = uf__type_array(F->tf->km->tc, t->dtype, 0, 'C', F->err);
            if (!t)
                return F->err->code;
        } else if (t->ndim >= 1) {
            ncf[0] += t->layout == 'C' || (t->layout == 'F' && t->ndim == 1);
            ncf[1] += t->layout == 'F' || (t->layout == 'C' && t->ndim == 1);
        }
        O->v[i] = v;
        O->t[i] = t;
        if (main < 0 || t->ndim > O->t[main]->ndim)
            main = i;
    }
    array_shape(F, O->v[main], O->t[main], N);
    N->reversed = ncf[1] > ncf[0];
    LLVMValueRef bad = LLVMConstInt(LLVMInt1TypeInContext(F->L->ctx), 0, 0);
    for (int i = 0; i < O->n; i++)
        for (int d = 0; d < O->t[i]->ndim; d++) {
            LLVMValueRef want = N->cnt[N->n - O->t[i]->ndim + d];
            LLVMValueRef got = uf__emit_array_dim(F, O->v[i], d);
            bad = LLVMBuildOr(B, bad,
                              LLVMBuildICmp(B, LLVMIntNE, got, want, ""), "");
        }
    if (!LLVMIsConstant(bad))
        uf__fn_raise_if(F, bad, UF__JIT_NDITER_SHAPES);
    return 0;
}

int uf__lower_for_npiter(uf__fn *F, const uf__stmt *s)
{
    const uf__expr *it = s->u.for_.iter;
    const uf__expr_info *in = uf__lower_info(F, it);
    uf__builtin bi = in->builtin;
    const uf__type *item = in->optype;
    int vi = find_var(F, s->u.for_.target->u.name.id);
    if (vi < 0 || !item)
        return fail(F, s->u.for_.target->pos, "this loop variable");
    nest N;
    operands O;
    memset(&N, 0, sizeof N);
    memset(&O, 0, sizeof O);
    int rc = 0;
    if (bi == UF__BI_NP_NDINDEX) {
        rc = ndindex_shape(F, it, &N);
    } else if (bi == UF__BI_NP_NDENUMERATE) {
        O.n = 1;
        O.t[0] = uf__lower_info(F, it->u.call.args[0])->type;
        if (!(O.v[0] = uf__lower_expr(F, it->u.call.args[0])))
            return F->err->code;
        if (O.t[0]->ndim > MAXD)
            return fail(F, it->pos, "np.ndenumerate() of this many "
                                    "dimensions");
        array_shape(F, O.v[0], O.t[0], &N);
    } else {
        rc = nditer_operands(F, it->u.call.args[0], &N, &O);
    }
    if (rc != 0)
        return rc;
    LLVMValueRef kp[MAXD];
    LLVMBasicBlockRef hdr[MAXD], latch[MAXD];
    LLVMBasicBlockRef start = uf__fn_block(F, "nd.start");
    LLVMBasicBlockRef cont = N.n ? NULL : uf__fn_block(F, "nd.next");
    LLVMBasicBlockRef els = uf__fn_block(F, "nd.else");
    LLVMBasicBlockRef end = uf__fn_block(F, "nd.end");
    for (int d = 0; d < N.n; d++) {
        kp[d] = uf__fn_alloca(F, uf__ty_i64(F), "nd.k");
        hdr[d] = uf__fn_block(F, "nd.cond");
        latch[d] = uf__fn_block(F, "nd.step");
    }
    if ((rc = uf__nrt_loop_enter(F, s, O.n ? O.v[0] : NULL,
                                 O.n ? O.t[0] : NULL)) != 0)
        return rc;
    LLVMBuildCondBr(B, N.empty, els, start);
    LLVMPositionBuilderAtEnd(B, start);
    /* loop d of the nest runs over axis ax(d) */
#define AX(d) (N.reversed ? N.n - 1 - (d) : (d))
    for (int d = 0; d < N.n; d++) {
        LLVMBuildStore(B, uf__c_i64(F, 0), kp[d]);
        LLVMBuildBr(B, hdr[d]);
        LLVMPositionBuilderAtEnd(B, hdr[d]);
        LLVMValueRef k = LLVMBuildLoad2(B, uf__ty_i64(F), kp[d], "");
        LLVMBasicBlockRef body = uf__fn_block(F, "nd.body");
        LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntSLT, k, N.cnt[AX(d)], ""),
                        body, d == 0 ? els : latch[d - 1]);
        LLVMPositionBuilderAtEnd(B, body);
    }
    for (int d = 0; d < N.n; d++)
        N.k[AX(d)] = LLVMBuildLoad2(B, uf__ty_i64(F), kp[d], "");
#undef AX
    if (N.n)
        cont = latch[N.n - 1];
    LLVMValueRef v = yielded(F, bi, &N, &O, item);
    if (!v || !(v = uf__emit_convert(F, v, item, F->tf->vars[vi].type)))
        return F->err->code;
    LLVMBuildStore(B, v, F->vars[vi]);
    if ((rc = uf__lower_push_loop(F, end, cont)) != 0)
        return rc;
    rc = uf__lower_block(F, &s->u.for_.body);
    F->nloops--;
    if (rc != 0)
        return rc;
    if (!LLVMGetBasicBlockTerminator(LLVMGetInsertBlock(B)))
        LLVMBuildBr(B, cont);
    uf__nrt_loop_latch(F, cont);
    uf__nrt_loop_leave(F);
    if (N.n == 0) {
        LLVMPositionBuilderAtEnd(B, cont);
        LLVMBuildBr(B, els);
    }
    for (int d = N.n - 1; d >= 0; d--) {
        LLVMPositionBuilderAtEnd(B, latch[d]);
        LLVMValueRef k = LLVMBuildLoad2(B, uf__ty_i64(F), kp[d], "");
        LLVMBuildStore(B, LLVMBuildAdd(B, k, uf__c_i64(F, 1), ""), kp[d]);
        LLVMBuildBr(B, hdr[d]);
    }
    LLVMPositionBuilderAtEnd(B, els);
    if ((rc = uf__lower_block(F, &s->u.for_.orelse)) != 0)
        return rc;
    if (!LLVMGetBasicBlockTerminator(LLVMGetInsertBlock(B)))
        LLVMBuildBr(B, end);
    LLVMPositionBuilderAtEnd(B, end);
    return 0;
}

LLVMValueRef uf__lower_array_item(uf__fn *F, const uf__expr *e)
{
    const uf__expr *ax = e->u.call.func->u.attr.value;
    const uf__type *at = uf__lower_info(F, ax)->type;
    LLVMValueRef a = uf__lower_expr(F, ax);
    if (!a)
        return NULL;
    if (at->ndim > 0) {
        LLVMValueRef n = uf__c_i64(F, 1);
        for (int i = 0; i < at->ndim; i++)
            n = LLVMBuildMul(B, n, uf__emit_array_dim(F, a, i), "");
        uf__fn_raise_if(F, LLVMBuildICmp(B, LLVMIntNE, n, uf__c_i64(F, 1), ""),
                        UF__JIT_ITEM_SIZE);
    }
    return uf__emit_elem_load(F, uf__emit_array_data(F, a), at->dtype);
}
