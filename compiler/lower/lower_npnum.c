/* np.interp, np.digitize, np.bincount (typed by infer_npnum.c): one call
 * of the host runtime (common/npnum.h) per call (np.bincount: one for the
 * result's length, one to fill it). Arrays go to it as they are (data, shape,
 * strides, dtype); a number or a tuple of numbers is first stored as
 * float64 (int64 when all are integers) into a stack slot, a 0-d or 1-D
 * array of its own. An array
 * result is a new C-order array owned by the frame, which the runtime
 * fills; a number result comes back through a stack slot. The runtime's
 * statuses become Numba's exceptions. */
#include "common/npnum.h"
#include "compiler/host/jit.h"
#include "compiler/lower/lower.h"
#include "compiler/lower/lower_rtcall.h"
#include "compiler/lower/lower_array.h"

#define B (F->L->b)

/* An operand as the runtime reads it. */
typedef struct operand {
    LLVMValueRef data, nd, shape, strides, dt; /* i8*, i64, i64*, i64*, i32 */
    LLVMValueRef dim[UF_MAXDIMS];              /* i64: its shape */
    LLVMValueRef len, step; /* i64: the first dimension and its stride */
    int ndim;
} operand;

/* The operand of an expression of type t and value v: an array as it
 * is, a number or a tuple of numbers in a stack slot (float64, or int64
 * when they are all integers). */
static void take(uf__fn *F, const uf__type *t, LLVMValueRef v, operand *o)
{
    LLVMTypeRef f64 = LLVMDoubleTypeInContext(F->L->ctx);
    if (t->kind == UF__T_ARRAY) {
        o->ndim = t->ndim;
        o->shape = uf__emit_i64_slots(F, t->ndim, "num.shape");
        o->strides = uf__emit_i64_slots(F, t->ndim, "num.strides");
        for (int k = 0; k < t->ndim; k++) {
            o->dim[k] = uf__emit_array_dim(F, v, k);
            uf__emit_put(F, o->shape, k, o->dim[k]);
            uf__emit_put(F, o->strides, k,
                             uf__emit_array_stride(F, v, t, k));
        }
        o->len = t->ndim ? o->dim[0] : uf__c_i64(F, 1);
        o->step = t->ndim ? uf__emit_array_stride(F, v, t, 0)
                          : uf__c_i64(F, 0);
        o->data = uf__emit_rt_data(F, v);
        o->nd = uf__c_i64(F, t->ndim);
        o->dt = uf__c_i32(F, (int)t->dtype);
        return;
    }
    int n = t->kind == UF__T_TUPLE ? t->n : 1;
    /* integers (bool too) stay integers, as int64 (all uint64: uint64),
     * for np.digitize's and np.bincount's comparisons */
    bool ints = true, u64 = true;
    for (int i = 0; i < n; i++) {
        uf_dtype d = t->kind == UF__T_TUPLE ? t->elts[i]->dtype : t->dtype;
        ints &= uf_dtype_kind(d) != 'f' && uf_dtype_kind(d) != 'c';
        u64 &= d == UF_UINT64;
    }
    uf_dtype st = !ints ? UF_FLOAT64 : u64 ? UF_UINT64 : UF_INT64;
    LLVMTypeRef et8 = ints ? uf__ty_i64(F) : f64;
    LLVMValueRef slot = uf__fn_alloca(F, LLVMArrayType(et8, (unsigned)(n ? n
                                                                       : 1)),
                                      "num.values");
    LLVMValueRef ep = LLVMBuildPointerCast(B, slot, LLVMPointerType(et8, 0),
                                           "");
    for (int i = 0; i < n; i++) {
        const uf__type *et = t->kind == UF__T_TUPLE ? t->elts[i] : t;
        LLVMValueRef x = t->kind == UF__T_TUPLE
                             ? LLVMBuildExtractValue(B, v, (unsigned)i, "")
                             : v;
        LLVMValueRef ix = uf__c_i64(F, i);
        LLVMBuildStore(B, uf__emit_cast(F, x, et->dtype, st),
                       LLVMBuildGEP2(B, et8, ep, &ix, 1, ""));
    }
    o->ndim = t->kind == UF__T_TUPLE ? 1 : 0;
    o->data = LLVMBuildPointerCast(B, ep, uf__ty_i8p(F), "");
    o->shape = uf__emit_i64_slots(F, 1, "num.shape");
    o->strides = uf__emit_i64_slots(F, 1, "num.strides");
    o->dim[0] = o->len = uf__c_i64(F, n);
    o->step = uf__c_i64(F, 8);
    uf__emit_put(F, o->shape, 0, o->len);
    uf__emit_put(F, o->strides, 0, o->step);
    o->nd = uf__c_i64(F, o->ndim);
    o->dt = uf__c_i32(F, (int)st);
}

/* The runtime's statuses as Numba's exceptions. */
static void raise_status(uf__fn *F, LLVMValueRef st)
{
    static const uf__rt_status map[] = {
        {UF__NPNUM_NOMEM, UF__JIT_NOMEM},
        {UF__NPNUM_INTERP_EMPTY, UF__JIT_INTERP_EMPTY},
        {UF__NPNUM_INTERP_SIZE, UF__JIT_INTERP_SIZE},
        {UF__NPNUM_DIGITIZE_MONO, UF__JIT_DIGITIZE_MONO},
        {UF__NPNUM_BINCOUNT_WLEN, UF__JIT_BINCOUNT_WLEN},
        {UF__NPNUM_BINCOUNT_MINLEN, UF__JIT_BINCOUNT_MINLEN},
        {UF__NPNUM_BINCOUNT_NEG, UF__JIT_BINCOUNT_NEG},
    };
    uf__emit_rt_statuses(F, st, map, sizeof map / sizeof map[0]);
}

static bool operand_of(uf__fn *F, const uf__expr *x, operand *o)
{
    LLVMValueRef v = uf__lower_expr(F, x);
    if (!v)
        return false;
    take(F, uf__lower_info(F, x)->type, v, o);
    return true;
}

/* The result: a new array of shape dims (data into *out), or a stack
 * slot for a number. */
static LLVMValueRef result(uf__fn *F, const uf__type *rt, LLVMValueRef *dims,
                           LLVMValueRef *out)
{
    if (rt->kind == UF__T_ARRAY) {
        LLVMValueRef n;
        LLVMValueRef res = uf__lower_new_array(F, rt->dtype, rt->ndim, dims,
                                               &n);
        *out = uf__emit_rt_data(F, res);
        return res;
    }
    LLVMValueRef slot = uf__fn_alloca(F, uf__lower_dtype(F->L, rt->dtype),
                                      "num.out");
    *out = LLVMBuildPointerCast(B, slot, uf__ty_i8p(F), "");
    return slot;
}

static LLVMValueRef lower_interp(uf__fn *F, const uf__expr *e,
                                 const uf__type *rt)
{
    const uf__expr *xe = uf__call_arg(e, 0, "x");
    operand x, xp, fp;
    if (!operand_of(F, xe, &x) || !operand_of(F, uf__call_arg(e, 1, "xp"), &xp)
        || !operand_of(F, uf__call_arg(e, 2, "fp"), &fp))
        return NULL;
    const uf__type *xt = uf__lower_info(F, xe)->type;
    LLVMValueRef out;
    LLVMValueRef res = result(F, rt, x.dim, &out);
    uf_dtype xty = xt->kind == UF__T_TUPLE ? UF_FLOAT64 : xt->dtype;
    LLVMValueRef args[15] = {x.data, x.nd, x.shape, x.strides, x.dt,
                             uf__c_i32(F, (int)xty), xp.data, xp.len, xp.step,
                             xp.dt, fp.data, fp.len, fp.step, fp.dt, out};
    raise_status(F,
                 uf__emit_rt_call(F, UF__NP_INTERP, uf__ty_i32(F), args, 15));
    if (rt->kind == UF__T_ARRAY)
        return res;
    return LLVMBuildLoad2(B, uf__lower_dtype(F->L, rt->dtype), res, "");
}

/* A number argument (NULL: absent) as dtype dt, else dflt. */
static LLVMValueRef scalar_arg(uf__fn *F, const uf__expr *x, uf_dtype dt,
                               LLVMValueRef dflt)
{
    if (!x)
        return dflt;
    LLVMValueRef v = uf__lower_expr(F, x);
    if (!v)
        return NULL;
    return uf__emit_cast(F, v, uf__lower_info(F, x)->type->dtype, dt);
}

static LLVMValueRef lower_digitize(uf__fn *F, const uf__expr *e,
                                   const uf__type *rt)
{
    const uf__expr *xe = uf__call_arg(e, 0, "x");
    operand x, bins;
    if (!operand_of(F, xe, &x)
        || !operand_of(F, uf__call_arg(e, 1, "bins"), &bins))
        return NULL;
    LLVMValueRef right = scalar_arg(F, uf__call_arg(e, 2, "right"), UF_BOOL,
                                    LLVMConstInt(LLVMInt1TypeInContext(
                                                     F->L->ctx),
                                                 0, 0));
    if (!right)
        return NULL;
    right = LLVMBuildZExt(B, LLVMBuildIsNotNull(B, right, ""), uf__ty_i32(F),
                          "");
    LLVMValueRef out;
    LLVMValueRef res = result(F, rt, x.dim, &out);
    out = uf__emit_rt_ptr(F, out, uf__ty_i64(F));
    bool scalar = uf__lower_info(F, xe)->type->kind == UF__T_SCALAR;
    LLVMValueRef args[12] = {
        x.data,    x.nd,     x.shape,   x.strides, x.dt,  uf__c_i32(F, scalar),
        bins.data, bins.len, bins.step, bins.dt,   right, out};
    raise_status(
        F, uf__emit_rt_call(F, UF__NP_DIGITIZE, uf__ty_i32(F), args, 12));
    if (rt->kind == UF__T_ARRAY)
        return res;
    return LLVMBuildLoad2(B, uf__ty_i64(F), res, "");
}

static LLVMValueRef lower_bincount(uf__fn *F, const uf__expr *e,
                                   const uf__type *rt)
{
    operand a, w;
    if (!operand_of(F, uf__call_arg(e, 0, "a"), &a))
        return NULL;
    const uf__expr *we = uf__call_arg(e, 1, "weights");
    bool weighted = rt->dtype == UF_FLOAT64;
    if (weighted && !operand_of(F, we, &w)) /* not for None */
        return NULL;
    LLVMValueRef minlength = scalar_arg(F, uf__call_arg(e, 2, "minlength"),
                                        UF_INT64, uf__c_i64(F, 0));
    if (!minlength)
        return NULL;
    LLVMValueRef len = uf__fn_alloca(F, uf__ty_i64(F), "bincount.len");
    LLVMValueRef largs[7] = {
        a.data,    a.len, a.step, a.dt, weighted ? w.len : uf__c_i64(F, -1),
        minlength, len};
    raise_status(
        F, uf__emit_rt_call(F, UF__NP_BINCOUNT_LEN, uf__ty_i32(F), largs, 7));
    LLVMValueRef n = LLVMBuildLoad2(B, uf__ty_i64(F), len, "");
    LLVMValueRef out;
    LLVMValueRef res = result(F, rt, &n, &out);
    LLVMValueRef null = LLVMConstNull(uf__ty_i8p(F));
    LLVMValueRef fargs[9] = {a.data, a.len, a.step, a.dt,
                             weighted ? w.data : null,
                             weighted ? w.step : uf__c_i64(F, 0),
                             weighted ? w.dt : uf__c_i32(F, UF_FLOAT64), n,
                             out};
    uf__emit_rt_call(F, UF__NP_BINCOUNT_FILL,
                     LLVMVoidTypeInContext(F->L->ctx), fargs, 9);
    return res;
}

LLVMValueRef uf__lower_npnum(uf__fn *F, const uf__expr *e)
{
    const uf__expr_info *in = uf__lower_info(F, e);
    uf__builtin b = in->builtin;
    if (F->L->cg->sreg != NULL) { /* a CUDA ufunc or gufunc */
        uf__source_error(F->err, UF_ERR_UNSUPPORTED, F->tf->km->src, e->pos,
                         "np.%s() runs in the host runtime, which CUDA "
                         "kernels cannot call", uf__builtin_name(b) + 6);
        return NULL;
    }
    switch (b) {
    case UF__BI_NP_INTERP:
        return lower_interp(F, e, in->type);
    case UF__BI_NP_DIGITIZE:
        return lower_digitize(F, e, in->type);
    case UF__BI_NP_BINCOUNT:
        return lower_bincount(F, e, in->type);
    default:
        uf__source_error(F->err, UF_ERR_UNSUPPORTED, F->tf->km->src, e->pos,
                         "np.%s() is not supported",
                         uf__builtin_name(b) + 6);
        return NULL;
    }
}
