/* np.logspace and np.geomspace (typed by infer_npspace.c) as Numba 0.68
 * computes them (numba/np/arrayobj.py numpy_logspace, numpy_geomspace),
 * operation by operation in its types so that the results are its bits:
 * np.logspace is np.power(10.0, np.linspace(start, stop, num)) (float64,
 * or complex128 through the complex linspace and power); np.geomspace
 * raises Numba's ValueError for a zero bound, takes the logarithms of the
 * bounds (of real ones negated when both are negative, of complex ones
 * divided by np.sign(start)), spaces them with np.logspace, puts the
 * bounds back at the ends and multiplies by the sign. One loop writes
 * the new array: element i is computed from i alone. */
#include <math.h>
#include <string.h>

#include "compiler/host/jit.h"
#include "compiler/lower/lower.h"
#include "compiler/lower/lower_array.h"

#define B (F->L->b)

/* NumPy's log10(e) (npy_math.h NPY_LOG10E), Numba's _NPY_LOG10E */
#define LOG10E 0.434294481903251827651128918916605082

static LLVMTypeRef i64t(uf__fn *F)
{
    return LLVMInt64TypeInContext(F->L->ctx);
}

static LLVMValueRef c64(uf__fn *F, int64_t v)
{
    return LLVMConstInt(i64t(F), (unsigned long long)v, 1);
}

static LLVMValueRef fc(uf__fn *F, uf_dtype dt, double v)
{
    return uf__emit_const_float(F, dt, v);
}

static LLVMValueRef cc(uf__fn *F, uf_dtype dt, double re, double im)
{
    uf_dtype p = uf__dtype_part(dt);
    return uf__emit_complex(F, dt, fc(F, p, re), fc(F, p, im));
}

static const uf__expr *arg(const uf__expr *e, int pos, const char *name)
{
    if (pos < e->u.call.nargs)
        return e->u.call.args[pos];
    for (int k = 0; k < e->u.call.nkw; k++)
        if (strcmp(e->u.call.kw[k].name, name) == 0)
            return e->u.call.kw[k].value;
    return NULL;
}

/* A bound of linspace: Numba's `start * 1.0`, a real one in float64, a
 * complex one in complex128 by the complex product with 1.0 + 0j (an
 * infinite part gives a NaN beside it, as in Numba); then as the
 * element type `et`. */
static LLVMValueRef times_one(uf__fn *F, LLVMValueRef v, uf_dtype dt,
                              uf_dtype et)
{
    if (uf__dtype_is_complex(dt)) {
        v = uf__emit_cast(F, v, dt, UF_COMPLEX128);
        v = uf__emit_cmul(F, UF_COMPLEX128, v,
                          cc(F, UF_COMPLEX128, 1.0, 0.0));
        return v;
    }
    return uf__emit_cast(F, uf__emit_cast(F, v, dt, UF_FLOAT64), UF_FLOAT64,
                         et);
}

/* The log10 of a geomspace bound: real ones through the math function in
 * their float type (ints in float64, after Numba unifies `start` with
 * `-start`), complex ones as Numba's np_complex_log10_impl: log(|z|),
 * atan2(im, re), each times log10(e). */
static LLVMValueRef log10_of(uf__fn *F, LLVMValueRef v, uf_dtype dt)
{
    if (uf__dtype_is_complex(dt)) {
        uf_dtype p = uf__dtype_part(dt);
        LLVMValueRef h = uf__emit_cabs(F, dt, v);
        LLVMValueRef yx[2] = {uf__emit_imag(F, v), uf__emit_real(F, v)};
        LLVMValueRef re = uf__emit_mathfn(F, "log", &h, 1);
        LLVMValueRef im = uf__emit_mathfn(F, "atan2", yx, 2);
        LLVMValueRef k = fc(F, p, LOG10E);
        return uf__emit_complex(F, dt, LLVMBuildFMul(B, k, re, ""),
                                LLVMBuildFMul(B, k, im, ""));
    }
    return F->L->cg->math(F, "log10", dt, &v, 1);
}

/* The working type of a real geomspace bound: floats their own, ints
 * int64 (uint64 its own), as Numba types `start = -start`. */
static uf_dtype real_work(uf_dtype dt)
{
    if (uf__dtype_is_float(dt) || dt == UF_UINT64)
        return dt;
    return UF_INT64;
}

/* The float type of the logarithm of a real bound of working type wt. */
static uf_dtype log_type(uf_dtype wt)
{
    return uf__dtype_is_float(wt) ? wt : UF_FLOAT64;
}

typedef struct space {
    uf_dtype et;            /* the element type: float64 or complex128 */
    LLVMValueRef lo, hi;    /* the linspace's bounds (after * 1.0), et */
    LLVMValueRef first, last; /* geomspace's ends in et, or NULL */
    LLVMValueRef sign;      /* geomspace's factor in et, or NULL */
} space;

/* np.geomspace's checks and transforms: sets s's linspace bounds, ends
 * and sign from the bounds a (dtype da) and b (db). */
static void geo_bounds(uf__fn *F, space *s, LLVMValueRef a, uf_dtype da,
                       LLVMValueRef b, uf_dtype db)
{
    LLVMValueRef za = uf__emit_cmp(F, UF__CMP_EQ, da, a,
                                   LLVMConstNull(LLVMTypeOf(a)));
    LLVMValueRef zb = uf__emit_cmp(F, UF__CMP_EQ, db, b,
                                   LLVMConstNull(LLVMTypeOf(b)));
    uf__fn_raise_if(F, LLVMBuildOr(B, za, zb, ""), UF__JIT_GEOMSPACE_ZERO);
    if (s->et == UF_COMPLEX128) {
        /* result_dtype = np.result_type(start, stop, None): complex128
         * always (None counts as float64); out_sign = np.sign(start)
         * (NumPy 2: z / |z|, 0 for 0); start /= out_sign */
        uf_dtype rd = UF_COMPLEX128, p = UF_FLOAT64;
        a = uf__emit_cast(F, a, da, rd);
        b = uf__emit_cast(F, b, db, rd);
        LLVMValueRef h = uf__emit_cabs(F, rd, a);
        LLVMValueRef h0 = LLVMBuildFCmp(B, LLVMRealOEQ, h, fc(F, p, 0.0), "");
        /* |z| == 0 cannot divide: 1 stands in, the select keeps 0 */
        LLVMValueRef hs = LLVMBuildSelect(B, h0, fc(F, p, 1.0), h, "");
        LLVMValueRef sg = uf__emit_cdiv(
            F, rd, a, uf__emit_complex(F, rd, hs, fc(F, p, 0.0)));
        sg = LLVMBuildSelect(B, h0, cc(F, rd, 0.0, 0.0), sg, "");
        a = uf__emit_cdiv(F, rd, a, sg);
        b = uf__emit_cdiv(F, rd, b, sg);
        s->lo = times_one(F, log10_of(F, a, rd), rd, s->et);
        s->hi = times_one(F, log10_of(F, b, rd), rd, s->et);
        s->first = uf__emit_cast(F, a, rd, s->et);
        s->last = uf__emit_cast(F, b, rd, s->et);
        s->sign = uf__emit_cast(F, sg, rd, s->et);
        return;
    }
    /* both negative: negated, out_sign -1 */
    LLVMValueRef na = uf__emit_cmp(F, UF__CMP_LT, da, a,
                                   LLVMConstNull(LLVMTypeOf(a)));
    LLVMValueRef nb = uf__emit_cmp(F, UF__CMP_LT, db, b,
                                   LLVMConstNull(LLVMTypeOf(b)));
    LLVMValueRef neg = LLVMBuildAnd(B, na, nb, "");
    uf_dtype wa = real_work(da), wb = real_work(db);
    a = uf__emit_cast(F, a, da, wa);
    b = uf__emit_cast(F, b, db, wb);
    a = LLVMBuildSelect(B, neg, uf__emit_unop(F, UF__OP_NEG, wa, a), a, "");
    b = LLVMBuildSelect(B, neg, uf__emit_unop(F, UF__OP_NEG, wb, b), b, "");
    uf_dtype la = log_type(wa), lb = log_type(wb);
    s->lo = times_one(F, log10_of(F, uf__emit_cast(F, a, wa, la), la), la,
                      s->et);
    s->hi = times_one(F, log10_of(F, uf__emit_cast(F, b, wb, lb), lb), lb,
                      s->et);
    s->first = uf__emit_cast(F, a, wa, s->et);
    s->last = uf__emit_cast(F, b, wb, s->et);
    s->sign = LLVMBuildSelect(B, neg, fc(F, UF_FLOAT64, -1.0),
                              fc(F, UF_FLOAT64, 1.0), "");
}

/* Element i of the linspace (Numba's: start + i * step, the last stop;
 * num 1 gives start). */
static LLVMValueRef lin_at(uf__fn *F, const space *s, LLVMValueRef i,
                           LLVMValueRef many, LLVMValueRef is_last,
                           LLVMValueRef step)
{
    LLVMValueRef v;
    if (s->et == UF_COMPLEX128) {
        LLVMValueRef iv = uf__emit_cast(F, i, UF_INT64, UF_COMPLEX128);
        LLVMValueRef t = uf__emit_cmul(F, UF_COMPLEX128, iv, step);
        v = uf__emit_binop(F, UF__OP_ADD, UF_COMPLEX128, s->lo, t);
    } else {
        LLVMValueRef iv = uf__emit_cast(F, i, UF_INT64, UF_FLOAT64);
        v = LLVMBuildFAdd(B, s->lo, LLVMBuildFMul(B, iv, step, ""), "");
    }
    v = LLVMBuildSelect(B, many, v, s->lo, "");
    return LLVMBuildSelect(B, LLVMBuildAnd(B, many, is_last, ""), s->hi, v,
                           "");
}

static LLVMValueRef bound(uf__fn *F, const uf__expr *x, uf_dtype *dt)
{
    LLVMValueRef v = uf__lower_expr(F, x);
    *dt = uf__lower_info(F, x)->type->dtype;
    return v;
}

LLVMValueRef uf__lower_npspace(uf__fn *F, const uf__expr *e)
{
    const uf__expr_info *in = uf__lower_info(F, e);
    bool geo = in->builtin == UF__BI_NP_GEOMSPACE;
    if (F->L->cg->sreg != NULL) { /* a CUDA ufunc or gufunc */
        uf__source_error(F->err, UF_ERR_UNSUPPORTED, F->tf->km->src, e->pos,
                         "np.%s() allocates an array, which CUDA kernels "
                         "cannot do", geo ? "geomspace" : "logspace");
        return NULL;
    }
    space s = {.et = in->type->dtype};
    uf_dtype da, db;
    LLVMValueRef a = bound(F, arg(e, 0, "start"), &da);
    LLVMValueRef b = a ? bound(F, arg(e, 1, "stop"), &db) : NULL;
    if (!b)
        return NULL;
    const uf__expr *nx = arg(e, 2, "num");
    LLVMValueRef num = c64(F, 50);
    if (nx) {
        if (!(num = uf__lower_expr(F, nx)))
            return NULL;
        num = uf__emit_cast(F, num, uf__lower_info(F, nx)->type->dtype,
                            UF_INT64);
    }
    if (geo) {
        geo_bounds(F, &s, a, da, b, db);
    } else {
        s.lo = times_one(F, a, da, s.et);
        s.hi = times_one(F, b, db, s.et);
    }
    LLVMValueRef items;
    LLVMValueRef arr = uf__lower_new_array(F, s.et, 1, &num, &items);
    LLVMValueRef data = uf__emit_array_data(F, arr);
    /* step = np.divide(stop - start, num - 1), used where num > 1 */
    LLVMValueRef div = LLVMBuildSub(B, num, c64(F, 1), "");
    LLVMValueRef many = LLVMBuildICmp(B, LLVMIntSGT, div, c64(F, 0), "");
    LLVMValueRef step;
    if (s.et == UF_COMPLEX128) {
        uf_dtype ad[2] = {UF_COMPLEX128, UF_COMPLEX128};
        LLVMValueRef x[2] = {
            uf__emit_binop(F, UF__OP_SUB, UF_COMPLEX128, s.hi, s.lo),
            uf__emit_cast(F, div, UF_INT64, UF_COMPLEX128)};
        step = uf__emit_npufunc(F, e, UF__BI_NP_TRUE_DIVIDE, ad, x,
                                UF_COMPLEX128);
        if (!step)
            return NULL;
    } else {
        step = LLVMBuildFDiv(B, LLVMBuildFSub(B, s.hi, s.lo, ""),
                             uf__emit_cast(F, div, UF_INT64, UF_FLOAT64), "");
    }
    LLVMValueRef ten = s.et == UF_COMPLEX128 ? cc(F, s.et, 10.0, 0.0)
                                             : fc(F, s.et, 10.0);
    LLVMValueRef slot = uf__fn_alloca(F, i64t(F), "i");
    LLVMBuildStore(B, c64(F, 0), slot);
    LLVMBasicBlockRef head = uf__fn_block(F, "space.head");
    LLVMBasicBlockRef body = uf__fn_block(F, "space.body");
    LLVMBasicBlockRef done = uf__fn_block(F, "space.done");
    LLVMBuildBr(B, head);
    LLVMPositionBuilderAtEnd(B, head);
    LLVMValueRef i = LLVMBuildLoad2(B, i64t(F), slot, "i");
    LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntSLT, i, num, ""), body, done);
    LLVMPositionBuilderAtEnd(B, body);
    LLVMValueRef is_last = LLVMBuildICmp(B, LLVMIntEQ, i, div, "");
    LLVMValueRef y = lin_at(F, &s, i, many, is_last, step);
    LLVMValueRef v;
    if (s.et == UF_COMPLEX128) {
        v = uf__emit_cpow(F, s.et, ten, y);
    } else {
        LLVMValueRef pa[2] = {ten, y};
        v = F->L->cg->math(F, "pow", s.et, pa, 2);
    }
    if (geo) { /* result[0] = start, result[-1] = stop, out_sign * */
        v = LLVMBuildSelect(B, LLVMBuildAnd(B, many, is_last, ""), s.last, v,
                            "");
        v = LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntEQ, i, c64(F, 0), ""),
                            s.first, v, "");
        v = s.et == UF_COMPLEX128 ? uf__emit_cmul(F, s.et, s.sign, v)
                                  : LLVMBuildFMul(B, s.sign, v, "");
    }
    LLVMValueRef off = LLVMBuildMul(
        B, i, c64(F, (int64_t)uf_dtype_itemsize(s.et)), "");
    uf__emit_elem_store(F,
                        LLVMBuildInBoundsGEP2(B,
                                              LLVMInt8TypeInContext(F->L->ctx),
                                              data, &off, 1, ""),
                        s.et, v);
    LLVMBuildStore(B, LLVMBuildAdd(B, i, c64(F, 1), ""), slot);
    LLVMBuildBr(B, head);
    LLVMPositionBuilderAtEnd(B, done);
    return arr;
}
