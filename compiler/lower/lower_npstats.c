/* np.histogram, np.cov, np.corrcoef (typed by infer_npstats.c): calls of
 * the host runtime
 * (common/npstats.h). With a number of bins: one call checks bins and
 * the range (the data's minimum and maximum when there is none), the
 * counts and edges are allocated, a second call fills them. With an
 * array of edges: one call checks them, the counts are allocated, a
 * second call counts by bisection; the edges array is the result's
 * second element as it is, as in Numba. Arrays go to the runtime as they
 * are (data, shape, strides, dtype); a number a in a stack slot of its
 * own dtype, a 0-d array. The statuses become Numba's ValueErrors. */
#include "common/npstats.h"
#include "compiler/host/jit.h"
#include "compiler/lower/lower.h"
#include "compiler/lower/lower_array.h"
#include "compiler/lower/lower_rtcall.h"

#define B (F->L->b)

/* The operand of value v of type t: an array as it is, a number in a
 * stack slot of its dtype (a 0-d array). */
static void take(uf__fn *F, const uf__type *t, LLVMValueRef v,
                 uf__rt_array *o)
{
    if (t->kind == UF__T_ARRAY) {
        uf__emit_rt_array(F, t, v, "stats.dims", o);
        return;
    }
    LLVMValueRef slot = uf__fn_alloca(F, LLVMTypeOf(v), "stats.value");
    LLVMBuildStore(B, v, slot);
    o->dt = uf__c_i32(F, (int)t->dtype);
    o->data = LLVMBuildPointerCast(B, slot, uf__ty_i8p(F), "");
    o->shape = uf__emit_i64_slots(F, 1, "stats.dims");
    o->strides = o->shape;
    o->nd = uf__c_i64(F, 0);
}

/* The runtime's histogram statuses as Numba's exceptions. */
static void raise_status(uf__fn *F, LLVMValueRef st)
{
    static const uf__rt_status map[] = {
        {UF__NPSTATS_HIST_BINS, UF__JIT_HIST_BINS},
        {UF__NPSTATS_HIST_RANGE, UF__JIT_HIST_RANGE},
        {UF__NPSTATS_HIST_EDGES, UF__JIT_HIST_EDGES},
        {UF__NPSTATS_HIST_NOEDGES, UF__JIT_NEGATIVE_DIMS},
    };
    uf__emit_rt_statuses(F, st, map, sizeof map / sizeof map[0]);
}

/* uf__hist_end as LLVM lays it out: {double, i64, i32}. */
static LLVMTypeRef end_type(uf__fn *F)
{
    LLVMTypeRef f[3] = {LLVMDoubleTypeInContext(F->L->ctx), uf__ty_i64(F),
                        uf__ty_i32(F)};
    return LLVMStructTypeInContext(F->L->ctx, f, 3, 0);
}

/* range[k] of a tuple of two numbers (value v, type t). */
static void put_end(uf__fn *F, LLVMValueRef range, const uf__type *t,
                    LLVMValueRef v, int k)
{
    const uf__type *et = t->elts[k];
    LLVMValueRef x = LLVMBuildExtractValue(B, v, (unsigned)k, "");
    bool fl = uf_dtype_kind(et->dtype) == 'f';
    LLVMValueRef idx[2] = {uf__c_i32(F, 0), uf__c_i32(F, k)};
    LLVMTypeRef st = end_type(F);
    LLVMValueRef at = LLVMBuildGEP2(B, LLVMArrayType(st, 2), range, idx, 2,
                                    "");
    LLVMValueRef f = fl ? uf__emit_cast(F, x, et->dtype, UF_FLOAT64)
                        : LLVMConstReal(LLVMDoubleTypeInContext(F->L->ctx),
                                        0.0);
    LLVMValueRef i = fl ? uf__c_i64(F, 0)
                        : uf__emit_cast(F, x, et->dtype,
                                        et->dtype == UF_UINT64 ? UF_UINT64
                                                               : UF_INT64);
    LLVMBuildStore(B, f, LLVMBuildStructGEP2(B, st, at, 0, ""));
    LLVMBuildStore(B, i, LLVMBuildStructGEP2(B, st, at, 1, ""));
    LLVMBuildStore(B, uf__c_i32(F, (int)et->dtype),
                   LLVMBuildStructGEP2(B, st, at, 2, ""));
}

static LLVMValueRef histogram(uf__fn *F, const uf__expr *e)
{
    const uf__type *rt = uf__lower_info(F, e)->type;
    const uf__expr *ax = uf__call_arg(e, 0, "a"),
                   *bx = uf__call_arg(e, 1, "bins"),
                   *rx = uf__call_arg(e, 2, "range");
    LLVMValueRef av = uf__lower_expr(F, ax);
    if (!av)
        return NULL;
    LLVMValueRef bv = bx ? uf__lower_expr(F, bx) : uf__c_i64(F, 10);
    if (!bv)
        return NULL;
    const uf__type *rgt = rx ? uf__lower_info(F, rx)->type : NULL;
    bool has = rgt != NULL && rgt->kind == UF__T_TUPLE;
    LLVMValueRef rv = has ? uf__lower_expr(F, rx) : NULL;
    if (has && !rv)
        return NULL;
    uf__rt_array a;
    take(F, uf__lower_info(F, ax)->type, av, &a);
    const uf__type *bt = bx ? uf__lower_info(F, bx)->type : NULL;
    LLVMValueRef tup = LLVMGetUndef(uf__lower_type(F->L, rt, F->err));
    LLVMValueRef items, hist;
    if (bt != NULL && bt->kind == UF__T_ARRAY) { /* edges */
        LLVMValueRef n = uf__emit_array_dim(F, bv, 0);
        LLVMValueRef edata = uf__emit_rt_data(F, bv);
        LLVMValueRef estride = uf__emit_array_stride(F, bv, bt, 0);
        LLVMValueRef edt = uf__c_i32(F, (int)bt->dtype);
        LLVMValueRef cargs[4] = {edata, n, estride, edt};
        raise_status(F, uf__emit_rt_call(F, UF__NP_HIST_CHECK, uf__ty_i32(F),
                                         cargs, 4));
        LLVMValueRef nb = LLVMBuildSub(B, n, uf__c_i64(F, 1), "");
        hist = uf__lower_new_array(F, UF_INT64, 1, &nb, &items);
        if (!hist)
            return NULL;
        LLVMValueRef args[10] = {a.data, a.nd, a.shape, a.strides, a.dt,
                                 edata, n, estride, edt,
                                 uf__emit_rt_data(F, hist)};
        uf__emit_rt_call(F, UF__NP_HIST_EDGES,
                         LLVMVoidTypeInContext(F->L->ctx), args, 10);
        tup = LLVMBuildInsertValue(B, tup, hist, 0, "");
        return LLVMBuildInsertValue(B, tup, bv, 1, "");
    }
    LLVMValueRef bins = bt ? uf__emit_cast(F, bv, bt->dtype, UF_INT64) : bv;
    LLVMValueRef range = uf__fn_alloca(F, LLVMArrayType(end_type(F), 2),
                                       "hist.range");
    if (has) {
        put_end(F, range, rgt, rv, 0);
        put_end(F, range, rgt, rv, 1);
    }
    LLVMValueRef rp = LLVMBuildPointerCast(B, range, uf__ty_i8p(F), "");
    LLVMValueRef cargs[8] = {a.data, a.nd, a.shape, a.strides, a.dt, bins,
                             uf__c_i32(F, has), rp};
    raise_status(
        F, uf__emit_rt_call(F, UF__NP_HIST_RANGE, uf__ty_i32(F), cargs, 8));
    LLVMValueRef ne = LLVMBuildAdd(B, bins, uf__c_i64(F, 1), "");
    hist = uf__lower_new_array(F, UF_INT64, 1, &bins, &items);
    LLVMValueRef edges = hist ? uf__lower_new_array(F, UF_FLOAT64, 1, &ne,
                                                    &items)
                              : NULL;
    if (!edges)
        return NULL;
    LLVMValueRef args[9] = {a.data, a.nd, a.shape, a.strides, a.dt, bins,
                            rp, uf__emit_rt_data(F, hist),
                            uf__emit_rt_data(F, edges)};
    uf__emit_rt_call(F, UF__NP_HIST_FILL, LLVMVoidTypeInContext(F->L->ctx),
                     args, 9);
    tup = LLVMBuildInsertValue(B, tup, hist, 0, "");
    return LLVMBuildInsertValue(B, tup, edges, 1, "");
}

/* bit if the number v (type t) is true, else 0, as an i32. */
static LLVMValueRef truth_bit(uf__fn *F, LLVMValueRef v, const uf__type *t,
                              int bit)
{
    LLVMValueRef b = uf__emit_cast(F, v, t->dtype, UF_BOOL);
    return LLVMBuildSelect(B, b, uf__c_i32(F, bit), uf__c_i32(F, 0), "");
}

/* np.cov(m, y, rowvar, bias, ddof), np.corrcoef(x, y, rowvar): one call
 * checks and sizes the result, which is allocated (a 2-D (n, n) array,
 * a 0-d one, or for np.corrcoef of one variable a stack slot), a second
 * computes it. */
static LLVMValueRef cov(uf__fn *F, const uf__expr *e, bool corr)
{
    static const char *const cnames[] = {"m", "y", "rowvar", "bias", "ddof"};
    const uf__type *rt = uf__lower_info(F, e)->type;
    const uf__expr *x[5];
    const uf__type *t[5];
    LLVMValueRef v[5];
    for (int i = 0; i < 5; i++) {
        x[i] = i < 3 || !corr ? uf__call_arg(e, i, i == 0 && corr ? "x"
                                                        : cnames[i])
                              : NULL;
        t[i] = x[i] ? uf__lower_info(F, x[i])->type : NULL;
        if (t[i] != NULL && t[i]->kind == UF__T_NONE)
            t[i] = NULL, x[i] = NULL;
        v[i] = x[i] ? uf__lower_expr(F, x[i]) : NULL;
        if (x[i] && !v[i])
            return NULL;
    }
    uf__rt_array m, y;
    take(F, t[0], v[0], &m);
    if (t[1] != NULL) {
        take(F, t[1], v[1], &y);
    } else {
        y.data = LLVMConstNull(uf__ty_i8p(F));
        y.nd = uf__c_i64(F, 0);
        y.shape = y.strides = LLVMConstNull(LLVMPointerType(uf__ty_i64(F), 0));
        y.dt = uf__c_i32(F, UF_FLOAT64);
    }
    bool cx = rt->dtype == UF_COMPLEX128;
    LLVMValueRef flags = uf__c_i32(F, cx ? UF__COV_COMPLEX : 0);
    flags = LLVMBuildOr(B, flags, t[2] ? truth_bit(F, v[2], t[2],
                                                   UF__COV_ROWVAR)
                                       : uf__c_i32(F, UF__COV_ROWVAR), "");
    if (t[3])
        flags = LLVMBuildOr(B, flags, truth_bit(F, v[3], t[3], UF__COV_BIAS),
                            "");
    LLVMValueRef ddof_i = uf__c_i64(F, 0);
    LLVMValueRef ddof_f = LLVMConstReal(LLVMDoubleTypeInContext(F->L->ctx),
                                        0.0);
    if (t[4] && uf_dtype_kind(t[4]->dtype) == 'f') {
        ddof_f = uf__emit_cast(F, v[4], t[4]->dtype, UF_FLOAT64);
        flags = LLVMBuildOr(B, flags, uf__c_i32(F, UF__COV_DDOF_REAL), "");
    } else if (t[4]) {
        ddof_i = uf__emit_cast(F, v[4], t[4]->dtype, UF_INT64);
        flags = LLVMBuildOr(B, flags, uf__c_i32(F, UF__COV_DDOF_INT), "");
    }
    LLVMValueRef nv = uf__fn_alloca(F, uf__ty_i64(F), "cov.nvars");
    LLVMValueRef cargs[13] = {m.data, m.nd, m.shape, m.strides, m.dt,
                              y.data, y.nd, y.shape, y.strides, y.dt,
                              flags, ddof_f, nv};
    LLVMValueRef st =
        uf__emit_rt_call(F, UF__NP_COV_CHECK, uf__ty_i32(F), cargs, 13);
    static const uf__rt_status map[] = {
        {UF__NPSTATS_COV_ONE_ROW, UF__JIT_COV_ONE_ROW},
        {UF__NPSTATS_COV_DDOF_INF, UF__JIT_COV_DDOF_INF},
        {UF__NPSTATS_COV_DDOF_FRAC, UF__JIT_COV_DDOF_FRAC},
        {UF__NPSTATS_COV_DIMS, UF__JIT_COV_DIMS},
    };
    uf__emit_rt_statuses(F, st, map, sizeof map / sizeof map[0]);
    LLVMValueRef res = NULL, out, items;
    bool scalar = rt->kind != UF__T_ARRAY || rt->ndim == 0;
    if (rt->kind == UF__T_SCALAR) {
        LLVMTypeRef lt = uf__lower_type(F->L, rt, F->err);
        out = uf__fn_alloca(F, lt, "corrcoef");
        out = LLVMBuildPointerCast(B, out, uf__ty_i8p(F), "");
        res = NULL;
    } else {
        LLVMValueRef n = LLVMBuildLoad2(B, uf__ty_i64(F), nv, "");
        LLVMValueRef shape[2] = {n, n};
        res = uf__lower_new_array(F, rt->dtype, rt->ndim, shape, &items);
        if (!res)
            return NULL;
        out = uf__emit_rt_data(F, res);
    }
    LLVMValueRef args[16] = {m.data, m.nd, m.shape, m.strides, m.dt,
                             y.data, y.nd, y.shape, y.strides, y.dt,
                             flags, ddof_i, ddof_f, uf__c_i32(F, corr),
                             uf__c_i32(F, scalar), out};
    LLVMValueRef st2 =
        uf__emit_rt_call(F, UF__NP_COV, uf__ty_i32(F), args, 16);
    uf__fn_raise_if(F, LLVMBuildICmp(B, LLVMIntEQ, st2,
                                     uf__c_i32(F, UF__NPSTATS_NOMEM), ""),
                    UF__JIT_NOMEM);
    if (res)
        return res;
    LLVMTypeRef lt = uf__lower_type(F->L, rt, F->err);
    return LLVMBuildLoad2(B, lt, LLVMBuildPointerCast(B, out,
                                                      LLVMPointerType(lt, 0),
                                                      ""),
                          "");
}

LLVMValueRef uf__lower_npstats(uf__fn *F, const uf__expr *e)
{
    uf__builtin b = uf__lower_info(F, e)->builtin;
    if (F->L->cg->sreg != NULL) { /* a CUDA ufunc or gufunc */
        uf__source_error(F->err, UF_ERR_UNSUPPORTED, F->tf->km->src, e->pos,
                         "np.%s() runs in the host runtime, which CUDA "
                         "kernels cannot call", uf__builtin_name(b) + 6);
        return NULL;
    }
    if (b == UF__BI_NP_HISTOGRAM)
        return histogram(F, e);
    return cov(F, e, b == UF__BI_NP_CORRCOEF);
}
