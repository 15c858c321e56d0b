/* np.nancumsum, np.nancumprod, np.diff and np.average, typed by
 * infer_npcum.c (builtins.h: UF__NPCUM_MAP), computed as Numba's
 * arraymath.py computes them:
 *   nancumsum / nancumprod: one pass over a in C order into a new 1-D C
 *     array, a NaN (either part of a complex) counting as 0 / 1; ints and
 *     bools as np.cumsum / np.cumprod (int64 or uint64 accumulators);
 *   diff: each row along the last axis differenced n times in a's dtype
 *     (ints wrap, bools xor as Numba's store of a - b into a bool), into a
 *     new C array whose last axis is max(size - n, 0); n == 0 a copy;
 *     n < 0 Numba's ValueError. n == 1 writes the result directly (a
 *     unit-stride loop on a C array, which vectorises); n >= 2 works in
 *     one scratch row, as Numba's `work`;
 *   average: np.mean without weights; with weights Numba's checks in its
 *     order (shapes differ and weights not 1-D: TypeError; np.sum(w) == 0:
 *     ZeroDivisionError), then np.sum(np.multiply(a, w)) / np.sum(w),
 *     the product broadcast as np.multiply broadcasts it (a ValueError
 *     when it does not) and summed in one fused loop, no temporary.
 * Arrays come from uf__lower_new_array (the frame owns them); where
 * nothing may raise, a failed check computes over nothing instead. */
#include "compiler/lower/lower.h"
#include "compiler/lower/lower_arrmeth.h"
#include "compiler/lower/lower_npreduce.h"
#include "compiler/types/infer_npcum.h"
#include "compiler/types/infer_npreduce.h"

#define B (F->L->b)

static LLVMValueRef c64(uf__fn *F, long long v)
{
    return uf__npr_c64(F, v);
}

static LLVMValueRef i1(uf__fn *F, int v)
{
    return LLVMConstInt(LLVMInt1TypeInContext(F->L->ctx), (unsigned)v, 0);
}

static LLVMValueRef fail(uf__fn *F, const uf__expr *e, const char *what)
{
    uf__source_error(F->err, UF_ERR_INTERNAL, F->tf->km->src, e->pos, "%s",
                     what);
    return NULL;
}

/* p[i * stride] of dtype dt. */
static LLVMValueRef load_at(uf__fn *F, LLVMValueRef p, LLVMValueRef i,
                            LLVMValueRef stride, uf_dtype dt)
{
    return uf__emit_elem_load(
        F, uf__npr_gep(F, p, LLVMBuildMul(B, i, stride, "")), dt);
}

static void store_at(uf__fn *F, LLVMValueRef p, LLVMValueRef i,
                     LLVMValueRef stride, uf_dtype dt, LLVMValueRef v)
{
    uf__emit_elem_store(
        F, uf__npr_gep(F, p, LLVMBuildMul(B, i, stride, "")), dt, v);
}

/* ---- nancumsum, nancumprod ---------------------------------------------- */

typedef struct nancum {
    uf_dtype in, acc, res;
    bool mul, skip_nan;
    LLVMValueRef slot; /* the running value, in acc */
} nancum;

static void nancum_op(uf__fn *F, LLVMValueRef sp, LLVMValueRef dp, void *ud)
{
    const nancum *c = ud;
    LLVMTypeRef at = uf__lower_dtype(F->L, c->acc);
    LLVMValueRef v = uf__emit_elem_load(F, sp, c->in);
    LLVMValueRef x = uf__emit_cast(F, v, c->in, c->acc);
    LLVMValueRef y = LLVMBuildLoad2(B, at, c->slot, "");
    LLVMValueRef r = uf__emit_binop(F, c->mul ? UF__OP_MUL : UF__OP_ADD,
                                    c->acc, y, x);
    if (c->skip_nan) /* Numba's `if ~is_nan(v): c += v` */
        r = LLVMBuildSelect(B, uf__npr_isnan(F, v, c->in), y, r, "");
    LLVMBuildStore(B, r, c->slot);
    uf__emit_elem_store(F, dp, c->res, uf__emit_cast(F, r, c->acc, c->res));
}

static LLVMValueRef lower_nancum(uf__fn *F, LLVMValueRef a,
                                 const uf__type *at, const uf__type *rt,
                                 bool mul)
{
    nancum c = {.in = at->dtype, .res = rt->dtype, .mul = mul};
    char k = uf_dtype_kind(at->dtype);
    c.skip_nan = k == 'f' || k == 'c';
    uf_dtype res;
    if (c.skip_nan)
        c.acc = at->dtype; /* Numba's retty */
    else /* np.cumsum / np.cumprod's accumulator (ints, bools) */
        uf__npreduce_dtypes(mul ? UF__BI_NP_PROD : UF__BI_NP_SUM, at->dtype,
                            &c.acc, &res);
    LLVMValueRef size = c64(F, 1), n;
    for (int d = 0; d < at->ndim; d++)
        size = LLVMBuildMul(B, size, uf__emit_array_dim(F, a, d), "");
    LLVMValueRef dst = uf__arrmeth_new(F, rt->dtype, 1, &size, 'C', &n);
    c.slot = uf__fn_alloca(F, uf__lower_dtype(F->L, c.acc), "nancum");
    LLVMBuildStore(B, uf__emit_cast(F, c64(F, mul ? 1 : 0), UF_INT64, c.acc),
                   c.slot);
    uf__arrmeth_visit(F, a, at, uf__emit_array_data(F, dst),
                      c64(F, (long long)uf_dtype_itemsize(rt->dtype)),
                      nancum_op, &c);
    return dst;
}

/* ---- diff ------------------------------------------------------------- */

/* x - y in dtype dt as Numba's diff stores it: a bool difference is
 * nonzero when they differ. */
static LLVMValueRef sub(uf__fn *F, uf_dtype dt, LLVMValueRef x,
                        LLVMValueRef y)
{
    if (dt == UF_BOOL)
        return LLVMBuildXor(B, x, y, "");
    return uf__emit_binop(F, UF__OP_SUB, dt, x, y);
}

typedef enum diff_mode { DIFF_COPY, DIFF_ONE, DIFF_MANY } diff_mode;

typedef struct diff_walk {
    uf__npr_arr A;
    diff_mode mode;
    LLVMValueRef n;    /* the order (DIFF_MANY) */
    LLVMValueRef m;    /* the result's last axis */
    LLVMValueRef isz;  /* the element's bytes */
    LLVMValueRef work; /* DIFF_MANY's scratch row */
    LLVMValueRef orow; /* the result's bytes per row */
} diff_walk;

/* One row: `in` along a's last axis, `out` the result's row. */
static void diff_row(uf__fn *F, diff_walk *W, LLVMValueRef in,
                     LLVMValueRef out, LLVMValueRef st)
{
    uf_dtype dt = W->A.dt;
    LLVMValueRef size = W->A.shape[W->A.nd - 1];
    uf__npr_loop l;
    if (W->mode == DIFF_COPY) {
        uf__npr_loop_open(F, &l, c64(F, 0), size);
        store_at(F, out, l.i, W->isz, dt, load_at(F, in, l.i, st, dt));
        uf__npr_loop_close(F, &l, 1);
        return;
    }
    if (W->mode == DIFF_ONE) {
        uf__npr_loop_open(F, &l, c64(F, 0), W->m);
        LLVMValueRef i1_ = LLVMBuildNSWAdd(B, l.i, c64(F, 1), "");
        store_at(F, out, l.i, W->isz, dt,
                 sub(F, dt, load_at(F, in, i1_, st, dt),
                     load_at(F, in, l.i, st, dt)));
        uf__npr_loop_close(F, &l, 1);
        return;
    }
    /* work[i] = a[i + 1] - a[i], then n - 1 passes in place */
    uf__npr_loop_open(F, &l, c64(F, 0),
                      LLVMBuildSub(B, size, c64(F, 1), ""));
    store_at(F, W->work, l.i, W->isz, dt,
             sub(F, dt, load_at(F, in, LLVMBuildNSWAdd(B, l.i, c64(F, 1), ""),
                                st, dt),
                 load_at(F, in, l.i, st, dt)));
    uf__npr_loop_close(F, &l, 1);
    uf__npr_loop pass;
    uf__npr_loop_open(F, &pass, c64(F, 1), W->n);
    uf__npr_loop_open(F, &l, c64(F, 0),
                      LLVMBuildSub(B, LLVMBuildSub(B, size, pass.i, ""),
                                   c64(F, 1), ""));
    LLVMValueRef nx = LLVMBuildNSWAdd(B, l.i, c64(F, 1), "");
    store_at(F, W->work, l.i, W->isz, dt,
             sub(F, dt, load_at(F, W->work, nx, W->isz, dt),
                 load_at(F, W->work, l.i, W->isz, dt)));
    uf__npr_loop_close(F, &l, 1);
    uf__npr_loop_close(F, &pass, 1);
    uf__npr_loop_open(F, &l, c64(F, 0), W->m);
    store_at(F, out, l.i, W->isz, dt, load_at(F, W->work, l.i, W->isz, dt));
    uf__npr_loop_close(F, &l, 1);
}

/* A C-contiguous row gets its stride as a constant, which vectorises. */
static void diff_row_fast(uf__fn *F, diff_walk *W, LLVMValueRef in,
                          LLVMValueRef out)
{
    LLVMValueRef st = W->A.strides[W->A.nd - 1];
    if (LLVMIsAConstantInt(st)) {
        diff_row(F, W, in, out, st);
        return;
    }
    LLVMBasicBlockRef unit = uf__fn_block(F, "diff.unit");
    LLVMBasicBlockRef any = uf__fn_block(F, "diff.strided");
    LLVMBasicBlockRef done = uf__fn_block(F, "diff.rowdone");
    LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntEQ, st, W->isz, ""), unit,
                    any);
    LLVMPositionBuilderAtEnd(B, unit);
    diff_row(F, W, in, out, W->isz);
    LLVMBuildBr(B, done);
    LLVMPositionBuilderAtEnd(B, any);
    diff_row(F, W, in, out, st);
    LLVMBuildBr(B, done);
    LLVMPositionBuilderAtEnd(B, done);
}

/* The rows of a in C order; the result's rows follow one another. */
static void diff_nest(uf__fn *F, diff_walk *W, int d, LLVMValueRef in,
                      LLVMValueRef row, LLVMValueRef out)
{
    if (d == W->A.nd - 1) {
        diff_row_fast(F, W, in,
                      uf__npr_gep(F, out, LLVMBuildMul(B, row, W->orow, "")));
        return;
    }
    uf__npr_loop l;
    uf__npr_loop_open(F, &l, c64(F, 0), W->A.shape[d]);
    LLVMValueRef r = LLVMBuildAdd(
        B, LLVMBuildMul(B, row, W->A.shape[d], ""), l.i, "");
    diff_nest(F, W, d + 1,
              uf__npr_gep(F, in, LLVMBuildMul(B, l.i, W->A.strides[d], "")),
              r, out);
    uf__npr_loop_close(F, &l, 1);
}

static void diff_mode_run(uf__fn *F, diff_walk *W, diff_mode mode,
                          LLVMValueRef out)
{
    W->mode = mode;
    diff_nest(F, W, 0, W->A.data, c64(F, 0), out);
}

static LLVMValueRef lower_diff(uf__fn *F, const uf__expr *ax,
                               const uf__expr *nx, const uf__type *rt)
{
    diff_walk W = {0};
    if (uf__npr_load(F, ax, &W.A) < 0)
        return NULL;
    LLVMValueRef n = c64(F, 1);
    if (nx) {
        LLVMValueRef v = uf__lower_expr(F, nx);
        if (!v)
            return NULL;
        n = uf__emit_cast(F, v, uf__lower_info(F, nx)->type->dtype,
                          UF_INT64);
    }
    LLVMValueRef neg = LLVMBuildICmp(B, LLVMIntSLT, n, c64(F, 0), "");
    uf__fn_raise_if(F, neg, UF__JIT_DIFF_ORDER);
    n = LLVMBuildSelect(B, neg, c64(F, 0), n, "");
    int last = W.A.nd - 1;
    LLVMValueRef size = W.A.shape[last];
    LLVMValueRef left = LLVMBuildSub(B, size, n, "");
    left = LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntSLT, left, c64(F, 0),
                                            ""),
                           c64(F, 0), left, "");
    LLVMValueRef zero = LLVMBuildICmp(B, LLVMIntEQ, n, c64(F, 0), "");
    W.m = LLVMBuildSelect(B, zero, size, left, "m");
    LLVMValueRef shape[UF__NPCUM_MAXND], count;
    for (int d = 0; d < last; d++)
        shape[d] = W.A.shape[d];
    shape[last] = W.m;
    LLVMValueRef res = uf__lower_new_array(F, rt->dtype, W.A.nd, shape,
                                           &count);
    LLVMValueRef out = uf__emit_array_data(F, res);
    W.n = n;
    W.isz = c64(F, (long long)uf_dtype_itemsize(W.A.dt));
    W.orow = LLVMBuildMul(B, W.m, W.isz, "");
    /* Numba returns the empty result before any work (n == 0 copies) */
    LLVMBasicBlockRef bcopy = uf__fn_block(F, "diff.copy");
    LLVMBasicBlockRef bnz = uf__fn_block(F, "diff.nonzero");
    LLVMBasicBlockRef bone = uf__fn_block(F, "diff.one");
    LLVMBasicBlockRef bmany = uf__fn_block(F, "diff.many");
    LLVMBasicBlockRef done = uf__fn_block(F, "diff.done");
    LLVMBuildCondBr(B, zero, bcopy, bnz);
    LLVMPositionBuilderAtEnd(B, bcopy);
    diff_mode_run(F, &W, DIFF_COPY, out);
    LLVMBuildBr(B, done);
    LLVMPositionBuilderAtEnd(B, bnz);
    LLVMValueRef empty = LLVMBuildICmp(B, LLVMIntEQ, count, c64(F, 0), "");
    LLVMBasicBlockRef bwork = uf__fn_block(F, "diff.work");
    LLVMBuildCondBr(B, empty, done, bwork);
    LLVMPositionBuilderAtEnd(B, bwork);
    LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntEQ, n, c64(F, 1), ""), bone,
                    bmany);
    LLVMPositionBuilderAtEnd(B, bone);
    diff_mode_run(F, &W, DIFF_ONE, out);
    LLVMBuildBr(B, done);
    LLVMPositionBuilderAtEnd(B, bmany);
    LLVMValueRef wn;
    LLVMValueRef work = uf__lower_new_array(F, W.A.dt, 1, &size, &wn);
    W.work = uf__emit_array_data(F, work);
    diff_mode_run(F, &W, DIFF_MANY, out);
    LLVMBuildBr(B, done);
    LLVMPositionBuilderAtEnd(B, done);
    return res;
}

/* ---- average --------------------------------------------------------- */

/* `scl == 0.0` of the weights' sum s (dtype dt): not its truth. */
static LLVMValueRef is_zero(uf__fn *F, LLVMValueRef s, uf_dtype dt)
{
    return LLVMBuildNot(B, uf__emit_truth(F, s, dt), "");
}

typedef struct avg_walk {
    int nd;
    LLVMValueRef shape[UF__NPCUM_MAXND];
    LLVMValueRef sa[UF__NPCUM_MAXND], sw[UF__NPCUM_MAXND];
    uf_dtype a, w, oa, ow, prod, acc;
    LLVMValueRef slot;
} avg_walk;

static void avg_nest(uf__fn *F, avg_walk *V, int d, LLVMValueRef pa,
                     LLVMValueRef pw)
{
    if (d == V->nd) {
        LLVMValueRef x = uf__emit_cast(F, uf__emit_elem_load(F, pa, V->a),
                                       V->a, V->oa);
        LLVMValueRef y = uf__emit_cast(F, uf__emit_elem_load(F, pw, V->w),
                                       V->w, V->ow);
        LLVMValueRef p =
            V->prod == UF_BOOL
                ? LLVMBuildAnd(B, x, y, "")
                : uf__emit_binop_values(F, UF__OP_MUL, V->oa, x, V->ow, y,
                                        V->prod, V->prod);
        LLVMTypeRef at = uf__lower_dtype(F->L, V->acc);
        LLVMValueRef s = uf__emit_binop(
            F, UF__OP_ADD, V->acc, LLVMBuildLoad2(B, at, V->slot, ""),
            uf__emit_cast(F, p, V->prod, V->acc));
        LLVMBuildStore(B, s, V->slot);
        return;
    }
    uf__npr_loop l;
    uf__npr_loop_open(F, &l, c64(F, 0), V->shape[d]);
    avg_nest(F, V, d + 1,
             uf__npr_gep(F, pa, LLVMBuildMul(B, l.i, V->sa[d], "")),
             uf__npr_gep(F, pw, LLVMBuildMul(B, l.i, V->sw[d], "")));
    uf__npr_loop_close(F, &l, 1);
}

/* A and W broadcast together into V (strides 0 along stretched axes);
 * returns the i1 "they do not broadcast" (V's shape then empty). */
static LLVMValueRef broadcast(uf__fn *F, const uf__npr_arr *A,
                              const uf__npr_arr *W, avg_walk *V)
{
    V->nd = A->nd > W->nd ? A->nd : W->nd;
    LLVMValueRef bad = i1(F, 0), one = c64(F, 1);
    for (int d = 0; d < V->nd; d++) {
        int ka = d - (V->nd - A->nd), kw = d - (V->nd - W->nd);
        LLVMValueRef da = ka >= 0 ? A->shape[ka] : one;
        LLVMValueRef dw = kw >= 0 ? W->shape[kw] : one;
        LLVMValueRef a1 = LLVMBuildICmp(B, LLVMIntEQ, da, one, "");
        LLVMValueRef w1 = LLVMBuildICmp(B, LLVMIntEQ, dw, one, "");
        bad = LLVMBuildOr(
            B, bad,
            LLVMBuildAnd(B, LLVMBuildICmp(B, LLVMIntNE, da, dw, ""),
                         LLVMBuildNot(B, LLVMBuildOr(B, a1, w1, ""), ""),
                         ""),
            "");
        V->shape[d] = LLVMBuildSelect(B, a1, dw, da, "");
        V->sa[d] = ka >= 0 ? LLVMBuildSelect(B, a1, c64(F, 0), A->strides[ka],
                                             "")
                           : c64(F, 0);
        V->sw[d] = kw >= 0 ? LLVMBuildSelect(B, w1, c64(F, 0), W->strides[kw],
                                             "")
                           : c64(F, 0);
    }
    if (V->nd > 0)
        V->shape[0] = LLVMBuildSelect(B, bad, c64(F, 0), V->shape[0], "");
    return bad;
}

static LLVMValueRef weighted(uf__fn *F, const uf__expr *e,
                             const uf__expr *ax, const uf__expr *wx,
                             const uf__type *rt)
{
    uf__npr_arr A, W;
    if (uf__npr_load(F, ax, &A) < 0 || uf__npr_load(F, wx, &W) < 0)
        return NULL;
    avg_walk V = {.a = A.dt, .w = W.dt};
    uf_dtype div_op, res, acc, sp, accw, sw;
    if (!uf__npcum_average_dtypes(F->tf->km->tc, A.dt, W.dt, &V.oa, &V.ow,
                                  &V.prod, &div_op, &res))
        return fail(F, e, "an untyped np.average");
    uf__npreduce_dtypes(UF__BI_NP_SUM, V.prod, &acc, &sp);
    uf__npreduce_dtypes(UF__BI_NP_SUM, W.dt, &accw, &sw);
    V.acc = acc;
    /* arr.shape != weights.shape and weights.ndim != 1: TypeError */
    LLVMValueRef differ = i1(F, A.nd != W.nd);
    for (int d = 0; A.nd == W.nd && d < A.nd; d++)
        differ = LLVMBuildOr(
            B, differ, LLVMBuildICmp(B, LLVMIntNE, A.shape[d], W.shape[d], ""),
            "");
    LLVMValueRef bad1d = LLVMBuildAnd(B, differ, i1(F, W.nd != 1), "");
    uf__fn_raise_if(F, bad1d, UF__JIT_AVG_WEIGHTS_1D);
    LLVMValueRef scl = uf__emit_cast(
        F, uf__npr_sum(F, &W, accw, false, false), accw, sw);
    uf__fn_raise_if(F, is_zero(F, scl, sw), UF__JIT_AVG_WEIGHTS_SUM);
    LLVMValueRef nobc = broadcast(F, &A, &W, &V);
    uf__fn_raise_if(F, nobc, UF__JIT_AVG_BCAST);
    if (W.nd != 1 && V.nd > 0) /* only reached where nothing raises */
        V.shape[0] = LLVMBuildSelect(B, bad1d, c64(F, 0), V.shape[0], "");
    V.slot = uf__fn_alloca(F, uf__lower_dtype(F->L, acc), "avg");
    LLVMBuildStore(B, uf__emit_cast(F, c64(F, 0), UF_INT64, acc), V.slot);
    avg_nest(F, &V, 0, A.data, W.data);
    LLVMValueRef total = uf__emit_cast(
        F, LLVMBuildLoad2(B, uf__lower_dtype(F->L, acc), V.slot, ""), acc,
        sp);
    LLVMValueRef r = uf__emit_binop_values(F, UF__OP_DIV, sp, total, sw, scl,
                                           div_op, res);
    return uf__emit_cast(F, r, res, rt->dtype);
}

static LLVMValueRef lower_average(uf__fn *F, const uf__expr *e,
                                  const uf__expr **x, const uf__type *rt)
{
    const uf__expr *wx = x[2];
    if (wx && uf__lower_info(F, wx)->type->kind != UF__T_ARRAY)
        wx = NULL; /* weights=None */
    if (wx)
        return weighted(F, e, x[0], wx, rt);
    const uf__type *at = uf__lower_info(F, x[0])->type;
    uf_dtype acc, res;
    uf__npreduce_dtypes(UF__BI_NP_MEAN, at->dtype, &acc, &res);
    if (at->kind == UF__T_SCALAR) { /* the mean of np.asarray(x) */
        LLVMValueRef v = uf__lower_expr(F, x[0]);
        return v ? uf__emit_cast(F, v, at->dtype, rt->dtype) : NULL;
    }
    uf__npr_arr A;
    if (uf__npr_load(F, x[0], &A) < 0)
        return NULL;
    return uf__emit_cast(F, uf__npr_mean(F, &A, acc), res, rt->dtype);
}

LLVMValueRef uf__lower_npcum(uf__fn *F, const uf__expr *e)
{
    const uf__expr_info *in = uf__lower_info(F, e);
    const uf__type *rt = in->type;
    const uf__expr *x[3];
    const uf__keyword *kw;
    if (e->kind != UF__EX_CALL || uf__npcum_bind(e, in->builtin, x, &kw) != 0 ||
        x[0] == NULL || rt == NULL)
        return fail(F, e, "an untyped NumPy call");
    if (F->L->cg->sreg != NULL) {
        uf__source_error(F->err, UF_ERR_UNSUPPORTED, F->tf->km->src, e->pos,
                         "%s() allocates an array or loops over one on the "
                         "host, which CUDA kernels cannot do",
                         uf__builtin_name(in->builtin));
        return NULL;
    }
    switch (in->builtin) {
    case UF__BI_NP_AVERAGE:
        return lower_average(F, e, x, rt);
    case UF__BI_NP_DIFF:
        return lower_diff(F, x[0], x[1], rt);
    default: {
        const uf__type *at = uf__lower_info(F, x[0])->type;
        LLVMValueRef a = uf__lower_expr(F, x[0]);
        return a ? lower_nancum(F, a, at, rt,
                                in->builtin == UF__BI_NP_NANCUMPROD)
                 : NULL;
    }
    }
}
