/* np.ediff1d and np.trapezoid (typed by infer_npfunc.c): the result's
 * size or shape worked out first, the result made in the frame
 * (uf__lower_new_array: out of memory raises), then one call of the host
 * runtime (common/npfunc.h) fills it. Operands go to the runtime as a
 * uf__np_operand on the stack: an array as it is, a number or a tuple of
 * numbers stored first into a stack slot, a 0-d or 1-D array of its own. */
#include <stdint.h>
#include <string.h>

#include "common/npfunc.h"
#include "compiler/host/jit.h"
#include "compiler/lower/lower.h"
#include "compiler/lower/lower_array.h"

#define B (F->L->b)

static LLVMTypeRef i64t(uf__fn *F)
{
    return LLVMInt64TypeInContext(F->L->ctx);
}

static LLVMTypeRef i32t(uf__fn *F)
{
    return LLVMInt32TypeInContext(F->L->ctx);
}

static LLVMTypeRef i8p(uf__fn *F)
{
    return LLVMPointerType(LLVMInt8TypeInContext(F->L->ctx), 0);
}

static LLVMValueRef c64(uf__fn *F, int64_t v)
{
    return LLVMConstInt(i64t(F), (unsigned long long)v, 1);
}

/* uf__np_operand's LLVM type. */
static LLVMTypeRef operand_type(uf__fn *F)
{
    LLVMTypeRef p64 = LLVMPointerType(i64t(F), 0);
    LLVMTypeRef el[5] = {i8p(F), i64t(F), p64, p64, i32t(F)};
    return LLVMStructTypeInContext(F->L->ctx, el, 5, 0);
}

/* The argument at position pos or keyword name (infer_npfunc.c bound
 * them); NULL when absent or None. */
static const uf__expr *arg(uf__fn *F, const uf__expr *e, int pos,
                           const char *name)
{
    const uf__expr *x = NULL;
    if (pos < e->u.call.nargs)
        x = e->u.call.args[pos];
    for (int k = 0; k < e->u.call.nkw; k++)
        if (strcmp(e->u.call.kw[k].name, name) == 0)
            x = e->u.call.kw[k].value;
    if (x != NULL && uf__lower_info(F, x)->type->kind == UF__T_NONE)
        return NULL;
    return x;
}

static LLVMValueRef i64_slots(uf__fn *F, int n, const char *name)
{
    LLVMValueRef s = uf__fn_alloca(F, LLVMArrayType(i64t(F),
                                                    (unsigned)(n ? n : 1)),
                                   name);
    return LLVMBuildPointerCast(B, s, LLVMPointerType(i64t(F), 0), "");
}

static void put(uf__fn *F, LLVMValueRef p, int k, LLVMValueRef v)
{
    LLVMValueRef ix = c64(F, k);
    LLVMBuildStore(B, v, LLVMBuildGEP2(B, LLVMTypeOf(v), p, &ix, 1, ""));
}

/* An operand: its uf__np_operand's address and element count. */
typedef struct operand {
    LLVMValueRef ptr, size;
    int ndim;
} operand;

/* The operand of expression x, an array, a number or a tuple of numbers
 * of one type (infer_npfunc.c). False on error. */
static bool take(uf__fn *F, const uf__expr *x, operand *o)
{
    const uf__type *t = uf__lower_info(F, x)->type;
    LLVMValueRef v = uf__lower_expr(F, x);
    if (!v)
        return false;
    LLVMValueRef data, shape, strides;
    uf_dtype dt;
    if (t->kind == UF__T_ARRAY) {
        shape = i64_slots(F, t->ndim, "npf.shape");
        strides = i64_slots(F, t->ndim, "npf.strides");
        o->size = c64(F, 1);
        for (int k = 0; k < t->ndim; k++) {
            LLVMValueRef d = uf__emit_array_dim(F, v, k);
            put(F, shape, k, d);
            put(F, strides, k, uf__emit_array_stride(F, v, t, k));
            o->size = LLVMBuildMul(B, o->size, d, "");
        }
        data = LLVMBuildPointerCast(B, uf__emit_array_data(F, v), i8p(F),
                                    "");
        o->ndim = t->ndim;
        dt = t->dtype;
    } else {
        bool tup = t->kind == UF__T_TUPLE;
        int n = tup ? t->n : 1;
        dt = !tup ? t->dtype : n ? t->elts[0]->dtype : UF_FLOAT64;
        LLVMTypeRef et = uf__lower_mem_dtype(F->L, dt);
        LLVMValueRef slot = uf__fn_alloca(
            F, LLVMArrayType(et, (unsigned)(n ? n : 1)), "npf.values");
        LLVMValueRef p = LLVMBuildPointerCast(B, slot, LLVMPointerType(et, 0),
                                              "");
        for (int i = 0; i < n; i++) {
            LLVMValueRef xi = tup ? LLVMBuildExtractValue(B, v, (unsigned)i,
                                                          "")
                                  : v;
            if (dt == UF_BOOL) /* an i1 stored as a byte */
                xi = LLVMBuildZExt(B, xi, et, "");
            put(F, p, i, xi);
        }
        data = LLVMBuildPointerCast(B, p, i8p(F), "");
        o->ndim = tup ? 1 : 0;
        shape = i64_slots(F, 1, "npf.shape");
        strides = i64_slots(F, 1, "npf.strides");
        put(F, shape, 0, c64(F, n));
        put(F, strides, 0, c64(F, (int64_t)uf_dtype_itemsize(dt)));
        o->size = c64(F, n);
    }
    LLVMTypeRef ot = operand_type(F);
    o->ptr = uf__fn_alloca(F, ot, "npf.operand");
    LLVMValueRef fields[5] = {data, c64(F, o->ndim), shape, strides,
                              LLVMConstInt(i32t(F), (unsigned)dt, 0)};
    for (unsigned i = 0; i < 5; i++)
        LLVMBuildStore(B, fields[i], LLVMBuildStructGEP2(B, ot, o->ptr, i,
                                                         ""));
    return true;
}

static LLVMValueRef call_helper(uf__fn *F, const char *name, LLVMTypeRef rt,
                                LLVMValueRef *args, unsigned n)
{
    LLVMTypeRef pt[16];
    for (unsigned i = 0; i < n; i++)
        pt[i] = LLVMTypeOf(args[i]);
    LLVMTypeRef fty = LLVMFunctionType(rt, pt, n, 0);
    LLVMValueRef fn = F->L->cg->helper(F->L, name, fty);
    F->L->uses_runtime = true;
    return LLVMBuildCall2(B, fty, fn, args, n, "");
}

static LLVMValueRef null_operand(uf__fn *F)
{
    return LLVMConstNull(LLVMPointerType(operand_type(F), 0));
}

/* np.ediff1d(ary, to_end, to_begin): len(to_begin) + max(ary.size - 1,
 * 0) + len(to_end) elements of ary's dtype. */
static LLVMValueRef ediff1d(uf__fn *F, const uf__expr *e, uf_dtype dt)
{
    const uf__expr *xs[3] = {arg(F, e, 0, "ary"), arg(F, e, 1, "to_end"),
                             arg(F, e, 2, "to_begin")};
    operand o[3];
    LLVMValueRef ptr[3], len = c64(F, 0);
    for (int i = 0; i < 3; i++) {
        if (xs[i] == NULL) {
            ptr[i] = null_operand(F);
            continue;
        }
        if (!take(F, xs[i], &o[i]))
            return NULL;
        ptr[i] = o[i].ptr;
        LLVMValueRef n = o[i].size;
        if (i == 0) {
            LLVMValueRef pos = LLVMBuildICmp(B, LLVMIntSGT, n, c64(F, 0), "");
            n = LLVMBuildSelect(B, pos, LLVMBuildSub(B, n, c64(F, 1), ""),
                                c64(F, 0), "");
        }
        len = LLVMBuildAdd(B, len, n, "");
    }
    LLVMValueRef items;
    LLVMValueRef res = uf__lower_new_array(F, dt, 1, &len, &items);
    if (!res)
        return NULL;
    LLVMValueRef args[5] = {
        ptr[0], ptr[1], ptr[2],
        LLVMBuildPointerCast(B, uf__emit_array_data(F, res), i8p(F), ""),
        LLVMConstInt(i32t(F), (unsigned)dt, 0)};
    call_helper(F, UF__NP_EDIFF1D, LLVMVoidTypeInContext(F->L->ctx), args,
                5);
    return res;
}

/* np.trapezoid(y, x, dx): the shape (a ValueError where d and y_ave do
 * not broadcast), then the sums; a number where y and x are 1-D. */
static LLVMValueRef trapezoid(uf__fn *F, const uf__expr *e,
                              const uf__type *rt)
{
    const uf__expr *ye = arg(F, e, 0, "y"), *xe = arg(F, e, 1, "x");
    const uf__expr *dxe = xe == NULL ? arg(F, e, 2, "dx") : NULL;
    operand y, x;
    if (!take(F, ye, &y))
        return NULL;
    LLVMValueRef xp = null_operand(F);
    if (xe != NULL) {
        if (!take(F, xe, &x))
            return NULL;
        xp = x.ptr;
    }
    LLVMTypeRef f64 = LLVMDoubleTypeInContext(F->L->ctx);
    LLVMValueRef dxr = LLVMConstReal(f64, 1.0), dxi = LLVMConstReal(f64, 0);
    if (dxe != NULL) {
        LLVMValueRef v = uf__lower_expr(F, dxe);
        if (!v)
            return NULL;
        uf_dtype dd = uf__lower_info(F, dxe)->type->dtype;
        if (uf_dtype_kind(dd) == 'c') {
            v = uf__emit_cast(F, v, dd, UF_COMPLEX128);
            dxr = uf__emit_real(F, v);
            dxi = uf__emit_imag(F, v);
        } else {
            dxr = uf__emit_cast(F, v, dd, UF_FLOAT64);
        }
    }
    bool cplx = rt->dtype == UF_COMPLEX128;
    int nd = rt->kind == UF__T_ARRAY ? rt->ndim : 0;
    LLVMValueRef shape = i64_slots(F, nd, "trapz.shape");
    LLVMValueRef sargs[4] = {y.ptr, xp, c64(F, nd), shape};
    LLVMValueRef rc = call_helper(F, UF__NP_TRAPZ_SHAPE, i32t(F), sargs, 4);
    uf__fn_raise_if(F, LLVMBuildICmp(B, LLVMIntNE, rc,
                                     LLVMConstInt(i32t(F), 0, 0), ""),
                    UF__JIT_AVG_BCAST);
    LLVMValueRef res = NULL, out;
    LLVMTypeRef f64p = LLVMPointerType(f64, 0);
    if (nd > 0) {
        LLVMValueRef dims[UF_MAXDIMS], items;
        for (int k = 0; k < nd; k++) {
            LLVMValueRef ix = c64(F, k);
            dims[k] = LLVMBuildLoad2(B, i64t(F),
                                     LLVMBuildGEP2(B, i64t(F), shape, &ix, 1,
                                                   ""),
                                     "");
        }
        res = uf__lower_new_array(F, rt->dtype, nd, dims, &items);
        if (!res)
            return NULL;
        out = LLVMBuildPointerCast(B, uf__emit_array_data(F, res), f64p, "");
    } else {
        out = LLVMBuildPointerCast(
            B, uf__fn_alloca(F, LLVMArrayType(f64, 2), "trapz.sum"), f64p,
            "");
    }
    LLVMValueRef args[8] = {y.ptr, xp, dxr, dxi,
                            LLVMConstInt(i32t(F), cplx, 0), c64(F, nd),
                            shape, out};
    call_helper(F, UF__NP_TRAPZ, LLVMVoidTypeInContext(F->L->ctx), args, 8);
    if (nd > 0)
        return res;
    LLVMValueRef re = LLVMBuildLoad2(B, f64, out, "");
    if (!cplx)
        return re;
    LLVMValueRef one = c64(F, 1);
    LLVMValueRef im = LLVMBuildLoad2(B, f64,
                                     LLVMBuildGEP2(B, f64, out, &one, 1, ""),
                                     "");
    return uf__emit_complex(F, UF_COMPLEX128, re, im);
}

LLVMValueRef uf__lower_npfunc(uf__fn *F, const uf__expr *e)
{
    const uf__expr_info *in = uf__lower_info(F, e);
    if (F->L->cg->sreg != NULL) { /* a CUDA ufunc or gufunc */
        uf__source_error(F->err, UF_ERR_UNSUPPORTED, F->tf->km->src, e->pos,
                         "np.%s() runs in the host runtime, which CUDA "
                         "kernels cannot call",
                         uf__builtin_name(in->builtin) + 6);
        return NULL;
    }
    switch (in->builtin) {
    case UF__BI_NP_EDIFF1D:
        return ediff1d(F, e, in->type->dtype);
    default:
        return trapezoid(F, e, in->type);
    }
}
