/* numpy.polynomial.polynomial's functions and polyutils.trimseq (typed by
 * infer_nppoly.c): the result made in the frame at its largest size
 * (uf__lower_new_array: out of memory raises), one call of the host
 * runtime (common/nppoly.h) fills it and returns the length left after
 * trimming, which becomes the result's first dimension; the runtime's
 * negative statuses raise Numba's exceptions. Operands go to the runtime
 * as a uf__np_operand on the stack (common/npfunc.h): an array as it
 * is, a number or a tuple of numbers stored into a stack slot as a 0-d
 * or 1-D array. */
#include <stdint.h>

#include "common/nppoly.h"
#include "compiler/host/jit.h"
#include "compiler/lower/lower.h"
#include "compiler/lower/lower_array.h"
#include "compiler/lower/lower_rtcall.h"

#define B (F->L->b)

/* uf__np_operand's LLVM type. */
static LLVMTypeRef operand_type(uf__fn *F)
{
    LLVMTypeRef p64 = LLVMPointerType(uf__ty_i64(F), 0);
    LLVMTypeRef el[5] = {uf__ty_i8p(F), uf__ty_i64(F), p64, p64,
                         uf__ty_i32(F)};
    return LLVMStructTypeInContext(F->L->ctx, el, 5, 0);
}

/* An operand: its uf__np_operand's address, its dimensions, element
 * count and value. */
typedef struct operand {
    LLVMValueRef ptr, size, value, dims[UF_MAXDIMS];
    int ndim;
} operand;

/* The operand of expression x, an array, a number or a tuple of numbers
 * (infer_nppoly.c). False on error. */
static bool take(uf__fn *F, const uf__expr *x, operand *o)
{
    const uf__type *t = uf__lower_info(F, x)->type;
    LLVMValueRef v = uf__lower_expr(F, x);
    if (!v)
        return false;
    o->value = v;
    LLVMValueRef data, shape, strides;
    uf_dtype dt;
    if (t->kind == UF__T_ARRAY) {
        shape = uf__emit_i64_slots(F, t->ndim, "poly.shape");
        strides = uf__emit_i64_slots(F, t->ndim, "poly.strides");
        o->size = uf__c_i64(F, 1);
        for (int k = 0; k < t->ndim; k++) {
            LLVMValueRef d = uf__emit_array_dim(F, v, k);
            o->dims[k] = d;
            uf__emit_put(F, shape, k, d);
            uf__emit_put(F, strides, k, uf__emit_array_stride(F, v, t, k));
            o->size = LLVMBuildMul(B, o->size, d, "");
        }
        data = LLVMBuildPointerCast(B, uf__emit_array_data(F, v),
                                    uf__ty_i8p(F), "");
        o->ndim = t->ndim;
        dt = t->dtype;
    } else {
        /* a number, or a tuple of numbers converted to their common
         * dtype (np.asarray's) */
        bool tup = t->kind == UF__T_TUPLE;
        int n = tup ? t->n : 1;
        dt = t->kind == UF__T_SCALAR ? t->dtype : t->elts[0]->dtype;
        for (int i = 1; i < n; i++)
            dt = uf_promote_types(dt, t->elts[i]->dtype);
        LLVMTypeRef et = uf__lower_mem_dtype(F->L, dt);
        LLVMValueRef slot =
            uf__fn_alloca(F, LLVMArrayType(et, (unsigned)n), "poly.values");
        LLVMValueRef p =
            LLVMBuildPointerCast(B, slot, LLVMPointerType(et, 0), "");
        for (int i = 0; i < n; i++) {
            LLVMValueRef xi = v;
            if (tup) {
                xi = LLVMBuildExtractValue(B, v, (unsigned)i, "");
                xi = uf__emit_cast(F, xi, t->elts[i]->dtype, dt);
            }
            if (dt == UF_BOOL) /* an i1 stored as a byte */
                xi = LLVMBuildZExt(B, xi, et, "");
            uf__emit_put(F, p, i, xi);
        }
        data = LLVMBuildPointerCast(B, p, uf__ty_i8p(F), "");
        o->ndim = tup ? 1 : 0;
        shape = uf__emit_i64_slots(F, 1, "poly.shape");
        strides = uf__emit_i64_slots(F, 1, "poly.strides");
        uf__emit_put(F, shape, 0, uf__c_i64(F, n));
        uf__emit_put(F, strides, 0,
                     uf__c_i64(F, (int64_t)uf_dtype_itemsize(dt)));
        o->size = uf__c_i64(F, n);
        o->dims[0] = o->size;
    }
    LLVMTypeRef ot = operand_type(F);
    o->ptr = uf__fn_alloca(F, ot, "poly.operand");
    LLVMValueRef fields[5] = {data, uf__c_i64(F, o->ndim), shape, strides,
                              uf__c_i32(F, (int)dt)};
    for (unsigned i = 0; i < 5; i++)
        LLVMBuildStore(B, fields[i],
                       LLVMBuildStructGEP2(B, ot, o->ptr, i, ""));
    return true;
}

/* Raises the exception of the runtime's status rc where it is one. */
static void raise_status(uf__fn *F, LLVMValueRef rc)
{
    static const struct {
        int rc, status;
    } map[] = {
        {UF__NPPOLY_EMPTY, UF__JIT_POLY_EMPTY},
        {UF__NPPOLY_ZERODIV, UF__JIT_POLY_ZERODIV},
        {UF__NPPOLY_INDEX, UF__JIT_POLY_INDEX},
        {UF__NPPOLY_BCAST, UF__JIT_POLY_BCAST},
        {UF__NPPOLY_NOMEM, UF__JIT_NOMEM},
        {UF__NPPOLY_DOMAIN, UF__JIT_EIGVALS_DOMAIN},
        {UF__NPPOLY_NONFINITE, UF__JIT_LINALG_NONFINITE},
        {UF__NPPOLY_CONVERGE, UF__JIT_LINALG_CONVERGE},
    };
    for (size_t i = 0; i < sizeof map / sizeof *map; i++)
        uf__fn_raise_if(
            F, LLVMBuildICmp(B, LLVMIntEQ, rc, uf__c_i64(F, map[i].rc), ""),
            map[i].status);
}

static LLVMValueRef max64(uf__fn *F, LLVMValueRef a, LLVMValueRef b)
{
    return LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntSGT, a, b, ""), a, b,
                           "");
}

static LLVMValueRef data_of(uf__fn *F, LLVMValueRef arr)
{
    return LLVMBuildPointerCast(
        B, uf__emit_array_data(F, arr),
        LLVMPointerType(LLVMDoubleTypeInContext(F->L->ctx), 0), "");
}

/* Array value a with its first dimension n (a view of its first n). */
static LLVMValueRef with_len(uf__fn *F, LLVMValueRef a, LLVMValueRef n)
{
    LLVMValueRef shape = LLVMBuildExtractValue(B, a, 1, "");
    shape = LLVMBuildInsertValue(B, shape, n, 0, "");
    return LLVMBuildInsertValue(B, a, shape, 1, "");
}

/* polyadd, polysub, polymul, polydiv (c1, c2). */
static LLVMValueRef binary(uf__fn *F, const uf__expr *e, uf__builtin b,
                           const uf__type *rt)
{
    operand o1, o2;
    if (!take(F, uf__call_arg(e, 0, "c1"), &o1) ||
        !take(F, uf__call_arg(e, 1, "c2"), &o2))
        return NULL;
    const uf__type *at = b == UF__BI_NP_POLYDIV ? rt->elts[0] : rt;
    int cplx = at->dtype == UF_COMPLEX128;
    LLVMValueRef len, items, res;
    if (b == UF__BI_NP_POLYMUL) {
        LLVMValueRef both = LLVMBuildAnd(
            B, LLVMBuildICmp(B, LLVMIntSGT, o1.size, uf__c_i64(F, 0), ""),
            LLVMBuildICmp(B, LLVMIntSGT, o2.size, uf__c_i64(F, 0), ""), "");
        len = LLVMBuildSelect(
            B, both,
            LLVMBuildSub(B, LLVMBuildAdd(B, o1.size, o2.size, ""),
                         uf__c_i64(F, 1), ""),
            uf__c_i64(F, 0), "");
    } else if (b == UF__BI_NP_POLYDIV) {
        len = max64(F, o1.size, uf__c_i64(F, 1));
    } else {
        len = max64(F, o1.size, o2.size);
    }
    res = uf__lower_new_array(F, at->dtype, 1, &len, &items);
    if (!res)
        return NULL;
    if (b == UF__BI_NP_POLYDIV) {
        LLVMValueRef rem = uf__lower_new_array(F, at->dtype, 1, &len, &items);
        if (!rem)
            return NULL;
        LLVMValueRef nrem = uf__fn_alloca(F, uf__ty_i64(F), "poly.nrem");
        LLVMValueRef args[6] = {
            o1.ptr,          o2.ptr,          uf__c_i32(F, cplx),
            data_of(F, res), data_of(F, rem), nrem};
        LLVMValueRef rc =
            uf__emit_rt_call(F, UF__NP_POLYDIV, uf__ty_i64(F), args, 6);
        raise_status(F, rc);
        LLVMTypeRef tt = uf__lower_type(F->L, rt, F->err);
        if (!tt)
            return NULL;
        LLVMValueRef t = LLVMGetUndef(tt);
        t = LLVMBuildInsertValue(B, t, with_len(F, res, rc), 0, "");
        return LLVMBuildInsertValue(
            B, t, with_len(F, rem, LLVMBuildLoad2(B, uf__ty_i64(F), nrem, "")),
            1, "");
    }
    LLVMValueRef rc;
    if (b == UF__BI_NP_POLYMUL) {
        LLVMValueRef args[4] = {o1.ptr, o2.ptr, uf__c_i32(F, cplx),
                                data_of(F, res)};
        rc = uf__emit_rt_call(F, UF__NP_POLYMUL, uf__ty_i64(F), args, 4);
    } else {
        LLVMValueRef args[5] = {o1.ptr, o2.ptr,
                                uf__c_i32(F, b == UF__BI_NP_POLYSUB),
                                uf__c_i32(F, cplx), data_of(F, res)};
        rc = uf__emit_rt_call(F, UF__NP_POLYADDSUB, uf__ty_i64(F), args, 5);
    }
    raise_status(F, rc);
    return with_len(F, res, rc);
}

static LLVMValueRef polyval(uf__fn *F, const uf__expr *e, const uf__type *rt)
{
    operand x, c;
    if (!take(F, uf__call_arg(e, 0, "x"), &x) ||
        !take(F, uf__call_arg(e, 1, "c"), &c))
        return NULL;
    const uf__expr *te = uf__call_arg(e, 2, "tensor");
    int tensor = te == NULL || te->u.b;
    int cplx = rt->dtype == UF_COMPLEX128;
    int nd = rt->kind == UF__T_ARRAY ? rt->ndim : 0;
    LLVMValueRef shape = uf__emit_i64_slots(F, nd, "polyval.shape");
    LLVMValueRef sargs[5] = {c.ptr, x.ptr, uf__c_i32(F, tensor),
                             uf__c_i64(F, nd), shape};
    raise_status(
        F, uf__emit_rt_call(F, UF__NP_POLYVAL_SHAPE, uf__ty_i64(F), sargs, 5));
    LLVMTypeRef f64 = LLVMDoubleTypeInContext(F->L->ctx);
    LLVMValueRef res = NULL, out;
    if (nd > 0) {
        LLVMValueRef dims[UF_MAXDIMS], items;
        for (int k = 0; k < nd; k++) {
            LLVMValueRef ix = uf__c_i64(F, k);
            dims[k] = LLVMBuildLoad2(
                B, uf__ty_i64(F),
                LLVMBuildGEP2(B, uf__ty_i64(F), shape, &ix, 1, ""), "");
        }
        res = uf__lower_new_array(F, rt->dtype, nd, dims, &items);
        if (!res)
            return NULL;
        out = data_of(F, res);
    } else {
        out = LLVMBuildPointerCast(
            B, uf__fn_alloca(F, LLVMArrayType(f64, 2), "polyval.y"),
            LLVMPointerType(f64, 0), "");
    }
    LLVMValueRef args[7] = {c.ptr,
                            x.ptr,
                            uf__c_i32(F, tensor),
                            uf__c_i32(F, cplx),
                            uf__c_i64(F, nd),
                            shape,
                            out};
    uf__emit_rt_call(F, UF__NP_POLYVAL, uf__ty_i64(F), args, 7);
    if (nd > 0)
        return res;
    LLVMValueRef re = LLVMBuildLoad2(B, f64, out, "");
    if (!cplx)
        return re;
    LLVMValueRef one = uf__c_i64(F, 1);
    LLVMValueRef im =
        LLVMBuildLoad2(B, f64, LLVMBuildGEP2(B, f64, out, &one, 1, ""), "");
    return uf__emit_complex(F, UF_COMPLEX128, re, im);
}

static LLVMValueRef polyint(uf__fn *F, const uf__expr *e, const uf__type *rt)
{
    operand c;
    if (!take(F, uf__call_arg(e, 0, "c"), &c))
        return NULL;
    LLVMValueRef m = uf__c_i64(F, 1);
    const uf__expr *me = uf__call_arg(e, 1, "m");
    if (me != NULL) {
        m = uf__lower_expr(F, me);
        if (!m)
            return NULL;
        m = uf__emit_cast(F, m, uf__lower_info(F, me)->type->dtype, UF_INT64);
    }
    LLVMValueRef dims[UF_MAXDIMS], items;
    for (int k = 0; k < c.ndim; k++)
        dims[k] = c.dims[k];
    dims[0] = LLVMBuildAdd(B, dims[0], max64(F, m, uf__c_i64(F, 0)), "");
    LLVMValueRef res =
        uf__lower_new_array(F, rt->dtype, rt->ndim, dims, &items);
    if (!res)
        return NULL;
    LLVMValueRef args[5] = {c.ptr, m, uf__c_i32(F, rt->dtype == UF_COMPLEX128),
                            uf__c_i32(F, rt->ndim == 1), data_of(F, res)};
    LLVMValueRef rc =
        uf__emit_rt_call(F, UF__NP_POLYINT, uf__ty_i64(F), args, 5);
    raise_status(F, rc);
    return rt->ndim == 1 ? with_len(F, res, rc) : res;
}

static LLVMValueRef trimseq(uf__fn *F, const uf__expr *e)
{
    operand s;
    if (!take(F, uf__call_arg(e, 0, "seq"), &s))
        return NULL;
    LLVMValueRef args[1] = {s.ptr};
    return with_len(
        F, s.value,
        uf__emit_rt_call(F, UF__NP_TRIMLEN, uf__ty_i64(F), args, 1));
}

/* np.roots(p): at most p.size - 1 roots, the count from the runtime. */
static LLVMValueRef roots(uf__fn *F, const uf__expr *e, const uf__type *rt)
{
    operand p;
    if (!take(F, uf__call_arg(e, 0, "p"), &p))
        return NULL;
    LLVMValueRef len = max64(F, LLVMBuildSub(B, p.size, uf__c_i64(F, 1), ""),
                             uf__c_i64(F, 0)),
                 items;
    LLVMValueRef res = uf__lower_new_array(F, rt->dtype, 1, &len, &items);
    if (!res)
        return NULL;
    LLVMValueRef args[3] = {p.ptr, uf__c_i32(F, (int)rt->dtype),
                            LLVMBuildPointerCast(B,
                                                 uf__emit_array_data(F, res),
                                                 uf__ty_i8p(F), "")};
    LLVMValueRef rc =
        uf__emit_rt_call(F, UF__NP_ROOTS, uf__ty_i64(F), args, 3);
    raise_status(F, rc);
    return with_len(F, res, rc);
}

LLVMValueRef uf__lower_nppoly(uf__fn *F, const uf__expr *e)
{
    const uf__expr_info *in = uf__lower_info(F, e);
    if (F->L->cg->sreg != NULL) { /* a CUDA ufunc or gufunc */
        uf__source_error(F->err, UF_ERR_UNSUPPORTED, F->tf->km->src, e->pos,
                         "%s() runs in the host runtime, which CUDA "
                         "kernels cannot call",
                         uf__builtin_name(in->builtin));
        return NULL;
    }
    switch (in->builtin) {
    case UF__BI_NP_POLYVAL:
        return polyval(F, e, in->type);
    case UF__BI_NP_POLYINT:
        return polyint(F, e, in->type);
    case UF__BI_NP_TRIMSEQ:
        return trimseq(F, e);
    case UF__BI_NP_ROOTS:
        return roots(F, e, in->type);
    case UF__BI_NP_AS_SERIES: /* lower_npseries.c */
        return uf__lower_as_series(F, e);
    default:
        return binary(F, e, in->builtin, in->type);
    }
}
