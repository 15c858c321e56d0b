/* Lowering of NumPy's predicates and small functions (UF__NPPRED_MAP,
 * typed by infer_nppred.c). np.shape, np.size and the type predicates
 * are constants or array attributes. The others are one scalar function
 * of the elements (uf__emit_nppred_elem, written after Numba's scalar
 * code: _isclose_item, _allclose_scalars, np_sinc, np_angle,
 * nan_to_num_impl): on numbers it is the call's value; on arrays
 * lower_arrexpr.c fuses it into the array-expression loop (a new array,
 * or a store into one); np.allclose and np.array_equal run the same loop
 * into a temporary bool array (the frame's, freed with it) and reduce it.
 * np.array_equal of arrays whose shapes differ is False, nothing
 * compared. */
#include <math.h>
#include <float.h>

#include "common/error_internal.h"
#include "compiler/lower/lower.h"
#include "compiler/host/jit.h"
#include "compiler/lower/lower_array.h"
#include "compiler/types/infer_nppred.h"

#define B (F->L->b)

static LLVMValueRef fail(uf__fn *F, const uf__expr *e, int code,
                         const char *what)
{
    uf__source_error(F->err, code, F->tf->km->src, e->pos, "%s", what);
    return NULL;
}

static LLVMTypeRef i1t(uf__fn *F)
{
    return LLVMInt1TypeInContext(F->L->ctx);
}

static LLVMValueRef cbool(uf__fn *F, bool v)
{
    return LLVMConstInt(i1t(F), v, 0);
}

/* ---- scalar helpers, Numba's scalar typing ------------------------------ */

static uf__typectx *tcx(uf__fn *F)
{
    return F->tf->km->tc;
}

/* a op b with Python's scalar typing (int64 - int64 in int64 ...). */
static LLVMValueRef arith(uf__fn *F, uf__binop op, uf_dtype ad,
                          LLVMValueRef a, uf_dtype bd, LLVMValueRef b,
                          uf_dtype *rd)
{
    const uf__type *opt = NULL;
    const uf__type *rt = uf__type_binop(tcx(F), op, uf__type_scalar(tcx(F), ad),
                                        uf__type_scalar(tcx(F), bd), &opt);
    if (rt == NULL || rt->kind != UF__T_SCALAR)
        return NULL;
    *rd = rt->dtype;
    return uf__emit_binop_values(F, op, ad, a, bd, b,
                                 opt ? opt->dtype : rt->dtype, rt->dtype);
}

static LLVMValueRef cmp(uf__fn *F, uf__cmpop op, uf_dtype ad, LLVMValueRef a,
                        uf_dtype bd, LLVMValueRef b)
{
    const uf__type *opt = NULL;
    if (!uf__type_compare(tcx(F), op, uf__type_scalar(tcx(F), ad),
                          uf__type_scalar(tcx(F), bd), &opt) ||
        opt == NULL)
        return NULL;
    return uf__emit_cmp(F, op, opt->dtype, uf__emit_cast(F, a, ad, opt->dtype),
                        uf__emit_cast(F, b, bd, opt->dtype));
}

/* abs(v): bools count as int64, unsigned values are their own. */
static LLVMValueRef absval(uf__fn *F, uf_dtype dt, LLVMValueRef v,
                           uf_dtype *rd)
{
    *rd = dt;
    if (dt == UF_BOOL) {
        *rd = UF_INT64;
        return uf__emit_cast(F, v, dt, UF_INT64);
    }
    if (uf__dtype_is_float(dt))
        return uf__emit_math(F, UF__BI_FABS, dt, &v, 1);
    if (uf_dtype_kind(dt) == 'u')
        return v;
    return LLVMBuildSelect(
        B, LLVMBuildICmp(B, LLVMIntSLT, v, LLVMConstNull(LLVMTypeOf(v)), ""),
        LLVMBuildNeg(B, v, ""), v, "");
}

static LLVMValueRef isnan_v(uf__fn *F, uf_dtype dt, LLVMValueRef v)
{
    if (!uf__dtype_is_float(dt))
        return cbool(F, false);
    return LLVMBuildFCmp(B, LLVMRealUNO, v, v, "");
}

static LLVMValueRef isinf_v(uf__fn *F, uf_dtype dt, LLVMValueRef v)
{
    if (!uf__dtype_is_float(dt))
        return cbool(F, false);
    LLVMValueRef m = uf__emit_math(F, UF__BI_FABS, dt, &v, 1);
    return LLVMBuildFCmp(B, LLVMRealOEQ, m,
                         LLVMConstReal(LLVMTypeOf(v), INFINITY), "");
}

static LLVMValueRef signbit_v(uf__fn *F, uf_dtype dt, LLVMValueRef v)
{
    LLVMTypeRef it = LLVMIntTypeInContext(F->L->ctx,
                                          dt == UF_FLOAT32 ? 32 : 64);
    return LLVMBuildICmp(B, LLVMIntSLT, LLVMBuildBitCast(B, v, it, ""),
                         LLVMConstNull(it), "");
}

static LLVMValueRef f64(uf__fn *F, double v)
{
    return uf__emit_const_float(F, UF_FLOAT64, v);
}

/* The value of optional parameter i cast to dt, else `dflt`. */
static LLVMValueRef param(uf__fn *F, const uf_dtype *ad, LLVMValueRef *a,
                          int i, uf_dtype dt, LLVMValueRef dflt)
{
    return a[i] ? uf__emit_cast(F, a[i], ad[i], dt) : dflt;
}

/* ---- the element functions ------------------------------------------------ */

/* np.isclose's _isclose_item(x, y, rtol, atol, equal_nan). */
static LLVMValueRef isclose_elem(uf__fn *F, const uf_dtype *ad,
                                 LLVMValueRef *a)
{
    uf_dtype xd = ad[0], yd = ad[1], dd, ed, yad, td, sd;
    LLVMValueRef x = a[0], y = a[1];
    LLVMValueRef rtol = a[2] ? a[2] : f64(F, 1e-05);
    uf_dtype rtd = a[2] ? ad[2] : UF_FLOAT64;
    LLVMValueRef atol = a[3] ? a[3] : f64(F, 1e-08);
    uf_dtype atd = a[3] ? ad[3] : UF_FLOAT64;
    LLVMValueRef eqnan = a[4] ? uf__emit_truth(F, a[4], ad[4])
                              : cbool(F, false);
    LLVMValueRef d = arith(F, UF__OP_SUB, xd, x, yd, y, &dd);
    if (!d)
        return NULL;
    LLVMValueRef e = absval(F, dd, d, &ed);
    LLVMValueRef ya = absval(F, yd, y, &yad);
    LLVMValueRef t = arith(F, UF__OP_MUL, rtd, rtol, yad, ya, &td);
    LLVMValueRef s = t ? arith(F, UF__OP_ADD, atd, atol, td, t, &sd) : NULL;
    LLVMValueRef close = s ? cmp(F, UF__CMP_LE, ed, e, sd, s) : NULL;
    LLVMValueRef zero = uf__emit_const_int(F, UF_INT64, 0);
    LLVMValueRef xp = cmp(F, UF__CMP_GT, xd, x, UF_INT64, zero);
    LLVMValueRef yp = cmp(F, UF__CMP_GT, yd, y, UF_INT64, zero);
    if (!close || !xp || !yp)
        return NULL;
    LLVMValueRef xi = isinf_v(F, xd, x), yi = isinf_v(F, yd, y);
    LLVMValueRef r = LLVMBuildSelect(B, LLVMBuildOr(B, xi, yi, ""),
                                     cbool(F, false), close, "");
    r = LLVMBuildSelect(B, LLVMBuildAnd(B, xi, yi, ""),
                        LLVMBuildICmp(B, LLVMIntEQ, xp, yp, ""), r, "");
    return LLVMBuildSelect(B, LLVMBuildAnd(B, isnan_v(F, xd, x),
                                           isnan_v(F, yd, y), ""),
                           eqnan, r, "");
}

/* np.allclose's _allclose_scalars(a, b, rtol, atol, equal_nan). */
static LLVMValueRef allclose_elem(uf__fn *F, const uf_dtype *ad,
                                  LLVMValueRef *a)
{
    uf_dtype xd = ad[0], yd = ad[1], dd, ed, bd, bad, td, sd;
    LLVMValueRef x = a[0], y = a[1];
    LLVMValueRef rtol = a[2] ? a[2] : f64(F, 1e-05);
    uf_dtype rtd = a[2] ? ad[2] : UF_FLOAT64;
    LLVMValueRef atol = a[3] ? a[3] : f64(F, 1e-08);
    uf_dtype atd = a[3] ? ad[3] : UF_FLOAT64;
    LLVMValueRef eqnan = a[4] ? uf__emit_truth(F, a[4], ad[4])
                              : cbool(F, false);
    LLVMValueRef d = arith(F, UF__OP_SUB, xd, x, yd, y, &dd);
    LLVMValueRef yf = arith(F, UF__OP_MUL, yd, y, UF_FLOAT64, f64(F, 1.0),
                            &bd); /* b_v * 1.0 */
    if (!d || !yf)
        return NULL;
    LLVMValueRef e = absval(F, dd, d, &ed);
    LLVMValueRef ya = absval(F, bd, yf, &bad);
    LLVMValueRef t = arith(F, UF__OP_MUL, rtd, rtol, bad, ya, &td);
    LLVMValueRef s = t ? arith(F, UF__OP_ADD, atd, atol, td, t, &sd) : NULL;
    LLVMValueRef far = s ? cmp(F, UF__CMP_GT, ed, e, sd, s) : NULL;
    LLVMValueRef eq = cmp(F, UF__CMP_EQ, xd, x, yd, y);
    if (!far || !eq)
        return NULL;
    LLVMValueRef xn = isnan_v(F, xd, x), yn = isnan_v(F, yd, y);
    LLVMValueRef r = LLVMBuildSelect(
        B, LLVMBuildOr(B, isinf_v(F, xd, x), isinf_v(F, yd, y), ""), eq,
        LLVMBuildNot(B, far, ""), "");
    r = LLVMBuildSelect(B, LLVMBuildAnd(B, xn, yn, ""), eqnan, r, "");
    return LLVMBuildSelect(B, LLVMBuildXor(B, xn, yn, ""), cbool(F, false), r,
                           "");
}

/* One part (a float of dtype p) of np.nan_to_num, in float64. */
static LLVMValueRef n2n_part(uf__fn *F, uf_dtype p, LLVMValueRef v,
                             const uf_dtype *ad, LLVMValueRef *a)
{
    double big = p == UF_FLOAT32 ? (double)FLT_MAX : DBL_MAX;
    LLVMValueRef w = uf__emit_cast(F, v, p, UF_FLOAT64);
    LLVMValueRef nanv = param(F, ad, a, 2, UF_FLOAT64, f64(F, 0.0));
    LLVMValueRef pos = param(F, ad, a, 3, UF_FLOAT64, f64(F, big));
    LLVMValueRef neg = param(F, ad, a, 4, UF_FLOAT64, f64(F, -big));
    LLVMValueRef r = LLVMBuildSelect(
        B, LLVMBuildFCmp(B, LLVMRealOEQ, w, f64(F, INFINITY), ""), pos, w, "");
    r = LLVMBuildSelect(
        B, LLVMBuildFCmp(B, LLVMRealOEQ, w, f64(F, -INFINITY), ""), neg, r, "");
    return LLVMBuildSelect(B, LLVMBuildFCmp(B, LLVMRealUNO, w, w, ""), nanv, r,
                           "");
}

static LLVMValueRef complex_sin(uf__fn *F, LLVMValueRef z)
{
    LLVMValueRef re = uf__emit_real(F, z), im = uf__emit_imag(F, z);
    LLVMValueRef sr = uf__emit_mathfn(F, "sin", &re, 1);
    LLVMValueRef cr = uf__emit_mathfn(F, "cos", &re, 1);
    LLVMValueRef ch = uf__emit_mathfn(F, "cosh", &im, 1);
    LLVMValueRef sh = uf__emit_mathfn(F, "sinh", &im, 1);
    return uf__emit_complex(F, UF_COMPLEX128, LLVMBuildFMul(B, sr, ch, ""),
                            LLVMBuildFMul(B, cr, sh, ""));
}

/* np.sinc of a number: sin(pi x) / (pi x), x = 0 taken as 1e-20. */
static LLVMValueRef sinc_elem(uf__fn *F, uf_dtype xd, LLVMValueRef x,
                              uf_dtype *rd)
{
    const double pi = 3.141592653589793;
    if (uf__dtype_is_complex(xd)) {
        *rd = UF_COMPLEX128;
        LLVMValueRef z = uf__emit_cast(F, x, xd, UF_COMPLEX128);
        LLVMValueRef zero = LLVMBuildAnd(
            B,
            LLVMBuildFCmp(B, LLVMRealOEQ, uf__emit_real(F, z), f64(F, 0), ""),
            LLVMBuildFCmp(B, LLVMRealOEQ, uf__emit_imag(F, z), f64(F, 0), ""),
            "");
        z = LLVMBuildSelect(
            B, zero, uf__emit_complex(F, UF_COMPLEX128, f64(F, 1e-20), f64(F, 0)),
            z, "");
        z = uf__emit_cmul(F, UF_COMPLEX128, z,
                          uf__emit_complex(F, UF_COMPLEX128, f64(F, pi),
                                           f64(F, 0)));
        return uf__emit_cdiv(F, UF_COMPLEX128, complex_sin(F, z), z);
    }
    *rd = UF_FLOAT64;
    LLVMValueRef v = uf__emit_cast(F, x, xd, UF_FLOAT64);
    v = LLVMBuildSelect(B, LLVMBuildFCmp(B, LLVMRealOEQ, v, f64(F, 0), ""),
                        f64(F, 1e-20), v, "");
    v = LLVMBuildFMul(B, v, f64(F, pi), "");
    return LLVMBuildFDiv(B, uf__emit_mathfn(F, "sin", &v, 1), v, "");
}

/* np.angle(z, deg): arctan2(z.imag, z.real) in the part's precision, then
 * float64 (Numba unifies the deg branch's float64 with it). */
static LLVMValueRef angle_elem(uf__fn *F, const uf_dtype *ad, LLVMValueRef *a)
{
    uf_dtype zd = ad[0];
    uf_dtype p = uf__dtype_is_complex(zd) || uf__dtype_is_float(zd)
                     ? uf__dtype_part(zd)
                     : UF_FLOAT64;
    LLVMValueRef xy[2];
    if (uf__dtype_is_complex(zd)) {
        xy[0] = uf__emit_imag(F, a[0]);
        xy[1] = uf__emit_real(F, a[0]);
    } else {
        xy[0] = uf__emit_const_float(F, p, 0.0);
        xy[1] = uf__emit_cast(F, a[0], zd, p);
    }
    LLVMValueRef r = uf__emit_cast(F, uf__emit_math(F, UF__BI_ATAN2, p, xy, 2),
                                   p, UF_FLOAT64);
    if (a[1] == NULL)
        return r;
    return LLVMBuildSelect(B, uf__emit_truth(F, a[1], ad[1]),
                           LLVMBuildFMul(B, r, f64(F, 57.29577951308232), ""),
                           r, "");
}

LLVMValueRef uf__emit_nppred_elem(uf__fn *F, const uf__expr *e,
                                  uf__builtin bi, const uf_dtype *ad,
                                  LLVMValueRef *a, uf_dtype *rd)
{
    uf_dtype xd = ad[0];
    LLVMValueRef x = a[0], r;
    *rd = UF_BOOL;
    switch (bi) {
    case UF__BI_NP_ISCLOSE:
        r = isclose_elem(F, ad, a);
        break;
    case UF__BI_NP_ALLCLOSE:
        r = allclose_elem(F, ad, a);
        break;
    case UF__BI_NP_ARRAY_EQUAL:
        r = cmp(F, UF__CMP_EQ, ad[0], a[0], ad[1], a[1]);
        break;
    case UF__BI_NP_ASARRAY_CHKFINITE: /* np.isfinite */
        if (uf__dtype_is_complex(xd)) {
            LLVMValueRef re = uf__emit_real(F, x), im = uf__emit_imag(F, x);
            uf_dtype p = uf__dtype_part(xd);
            return LLVMBuildNot(
                B,
                LLVMBuildOr(B, LLVMBuildOr(B, isnan_v(F, p, re),
                                           isinf_v(F, p, re), ""),
                            LLVMBuildOr(B, isnan_v(F, p, im),
                                        isinf_v(F, p, im), ""),
                            ""),
                "");
        }
        return LLVMBuildNot(B, LLVMBuildOr(B, isnan_v(F, xd, x),
                                           isinf_v(F, xd, x), ""),
                            "");
    case UF__BI_NP_ISNEGINF:
    case UF__BI_NP_ISPOSINF:
        if (!uf__dtype_is_float(xd))
            return cbool(F, false);
        r = signbit_v(F, xd, x);
        if (bi == UF__BI_NP_ISPOSINF)
            r = LLVMBuildNot(B, r, "");
        return LLVMBuildAnd(B, isinf_v(F, xd, x), r, "");
    case UF__BI_NP_ISCOMPLEX:
    case UF__BI_NP_ISREAL: {
        bool c = bi == UF__BI_NP_ISCOMPLEX;
        if (!uf__dtype_is_complex(xd))
            return cbool(F, !c);
        LLVMValueRef im = uf__emit_imag(F, x);
        return LLVMBuildFCmp(B, c ? LLVMRealUNE : LLVMRealOEQ, im,
                             LLVMConstNull(LLVMTypeOf(im)), "");
    }
    case UF__BI_NP_NAN_TO_NUM:
        if (uf__dtype_is_complex(xd)) {
            *rd = UF_COMPLEX128;
            uf_dtype p = uf__dtype_part(xd);
            return uf__emit_complex(F, UF_COMPLEX128,
                                    n2n_part(F, p, uf__emit_real(F, x), ad, a),
                                    n2n_part(F, p, uf__emit_imag(F, x), ad, a));
        }
        if (!uf__dtype_is_float(xd)) {
            *rd = xd;
            return x;
        }
        *rd = UF_FLOAT64;
        return n2n_part(F, xd, x, ad, a);
    case UF__BI_NP_SINC:
        return sinc_elem(F, xd, x, rd);
    case UF__BI_NP_ANGLE:
        *rd = UF_FLOAT64;
        return angle_elem(F, ad, a);
    default:
        r = NULL;
        break;
    }
    if (r == NULL)
        fail(F, e, UF_ERR_TYPING, "this function is not supported on these "
             "element types");
    return r;
}

/* ---- calls -------------------------------------------------------------- */

/* All of np.allclose's / np.array_equal's bools computed into a temporary
 * array of nd dimensions, reduced with `and`. */
static LLVMValueRef all_of(uf__fn *F, const uf__expr *e, int nd,
                           const uf__expr *const *pre_e,
                           const LLVMValueRef *pre_v, int npre)
{
    LLVMValueRef n;
    LLVMValueRef arr = uf__lower_arrexpr_elems(F, e, UF_BOOL, nd, pre_e,
                                               pre_v, npre, &n);
    if (!arr)
        return NULL;
    LLVMTypeRef i64 = LLVMInt64TypeInContext(F->L->ctx);
    LLVMTypeRef i8 = LLVMInt8TypeInContext(F->L->ctx);
    LLVMValueRef data = LLVMBuildBitCast(B, uf__emit_array_data(F, arr),
                                         LLVMPointerType(i8, 0), "");
    LLVMValueRef fn = LLVMGetBasicBlockParent(LLVMGetInsertBlock(B));
    LLVMBasicBlockRef entry = LLVMGetInsertBlock(B);
    LLVMBasicBlockRef head = LLVMAppendBasicBlockInContext(F->L->ctx, fn,
                                                           "all.head");
    LLVMBasicBlockRef body = LLVMAppendBasicBlockInContext(F->L->ctx, fn,
                                                           "all.body");
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(F->L->ctx, fn,
                                                           "all.done");
    LLVMBuildBr(B, head);
    LLVMPositionBuilderAtEnd(B, head);
    LLVMValueRef i = LLVMBuildPhi(B, i64, "i");
    LLVMValueRef more = LLVMBuildICmp(B, LLVMIntSLT, i, n, "");
    LLVMBuildCondBr(B, more, body, done);
    LLVMPositionBuilderAtEnd(B, body);
    LLVMValueRef p = LLVMBuildInBoundsGEP2(B, i8, data, &i, 1, "");
    LLVMValueRef v = uf__emit_elem_load(F, p, UF_BOOL);
    LLVMValueRef next = LLVMBuildAdd(B, i, LLVMConstInt(i64, 1, 0), "");
    /* stop at the first False: i jumps to n */
    next = LLVMBuildSelect(B, v, next, LLVMConstInt(i64, INT64_MAX, 0), "");
    LLVMBuildBr(B, head);
    LLVMValueRef inc[2] = {LLVMConstInt(i64, 0, 0), next};
    LLVMBasicBlockRef from[2] = {entry, body};
    LLVMAddIncoming(i, inc, from, 2);
    LLVMPositionBuilderAtEnd(B, done);
    return LLVMBuildICmp(B, LLVMIntEQ, i, n, ""); /* not INT64_MAX */
}

static LLVMValueRef array_equal(uf__fn *F, const uf__expr *e,
                                const uf__expr **x, const uf__type **t)
{
    LLVMValueRef v[2];
    for (int i = 0; i < 2; i++)
        if (!(v[i] = uf__lower_expr(F, x[i])))
            return NULL;
    int nd[2] = {t[0]->kind == UF__T_ARRAY ? t[0]->ndim : 0,
                 t[1]->kind == UF__T_ARRAY ? t[1]->ndim : 0};
    if (nd[0] != nd[1])
        return cbool(F, false);
    LLVMValueRef same = cbool(F, true);
    for (int d = 0; d < nd[0]; d++)
        same = LLVMBuildAnd(B, same,
                            LLVMBuildICmp(B, LLVMIntEQ,
                                          uf__emit_array_dim(F, v[0], d),
                                          uf__emit_array_dim(F, v[1], d), ""),
                            "");
    LLVMValueRef fn = LLVMGetBasicBlockParent(LLVMGetInsertBlock(B));
    LLVMBasicBlockRef entry = LLVMGetInsertBlock(B);
    LLVMBasicBlockRef cmpb = LLVMAppendBasicBlockInContext(F->L->ctx, fn,
                                                           "equal.cmp");
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(F->L->ctx, fn,
                                                           "equal.done");
    LLVMBuildCondBr(B, same, cmpb, done);
    LLVMPositionBuilderAtEnd(B, cmpb);
    LLVMValueRef r = all_of(F, e, nd[0], x, v, 2);
    if (!r)
        return NULL;
    LLVMBasicBlockRef end = LLVMGetInsertBlock(B);
    LLVMBuildBr(B, done);
    LLVMPositionBuilderAtEnd(B, done);
    LLVMValueRef phi = LLVMBuildPhi(B, i1t(F), "equal");
    LLVMValueRef inc[2] = {cbool(F, false), r};
    LLVMBasicBlockRef from[2] = {entry, end};
    LLVMAddIncoming(phi, inc, from, 2);
    return phi;
}

/* np.shape(x) / np.size(x) of a number or a tuple of numbers. */
static LLVMValueRef shape_of(uf__fn *F, const uf__expr *e, uf__builtin bi,
                             const uf__type *t, const uf__type *rt)
{
    int n = t->kind == UF__T_TUPLE ? t->n : 1;
    if (bi == UF__BI_NP_SIZE)
        return uf__emit_const_int(F, UF_INT64, n);
    LLVMTypeRef ty = uf__lower_type(F->L, rt, F->err);
    if (!ty)
        return NULL;
    LLVMValueRef r = LLVMGetUndef(ty);
    if (t->kind == UF__T_TUPLE)
        r = LLVMBuildInsertValue(B, r, uf__emit_const_int(F, UF_INT64, n), 0,
                                 "");
    (void)e;
    return r;
}

LLVMValueRef uf__lower_nppred(uf__fn *F, const uf__expr *e)
{
    const uf__expr_info *in = uf__lower_info(F, e);
    uf__builtin bi = in->builtin;
    const uf__type *rt = in->type;
    const uf__expr *x[UF__NPPRED_MAXARGS];
    const uf__keyword *bad;
    int np = uf__nppred_bind(e, bi, x, &bad);
    if (np < 0 || x[0] == NULL || rt == NULL)
        return fail(F, e, UF_ERR_INTERNAL, "an untyped NumPy call");
    const uf__type *t[UF__NPPRED_MAXARGS];
    for (int i = 0; i < np; i++)
        t[i] = x[i] ? uf__lower_info(F, x[i])->type : NULL;
    switch (bi) {
    case UF__BI_NP_SHAPE:
    case UF__BI_NP_SIZE:
        if (t[0]->kind == UF__T_ARRAY)
            return uf__lower_array_attr(F, e,
                                        bi == UF__BI_NP_SHAPE
                                            ? UF__BI_ATTR_SHAPE
                                            : UF__BI_ATTR_SIZE,
                                        x[0]);
        if (!uf__lower_expr(F, x[0]))
            return NULL;
        return shape_of(F, e, bi, t[0], rt);
    case UF__BI_NP_ISSCALAR:
    case UF__BI_NP_ISCOMPLEXOBJ:
    case UF__BI_NP_ISREALOBJ:
        if (t[0]->kind != UF__T_MODULE && t[0]->kind != UF__T_FUNCTION &&
            t[0]->kind != UF__T_DTYPE && !uf__lower_expr(F, x[0]))
            return NULL;
        return cbool(F, uf__nppred_const(bi, t[0]));
    case UF__BI_NP_ARRAY_EQUAL:
        if (t[0]->kind == UF__T_ARRAY || t[1]->kind == UF__T_ARRAY)
            return array_equal(F, e, x, t);
        break;
    case UF__BI_NP_ALLCLOSE: {
        int nd = -1;
        for (int i = 0; i < 2; i++)
            if (t[i]->kind == UF__T_ARRAY && t[i]->ndim > nd)
                nd = t[i]->ndim;
        if (nd >= 0)
            return all_of(F, e, nd, NULL, NULL, 0);
        break;
    }
    case UF__BI_NP_NAN_TO_NUM:
        if (t[0]->kind == UF__T_ARRAY) /* of integers: x itself */
            return uf__lower_expr(F, x[0]);
        break;
    case UF__BI_NP_ASARRAY_CHKFINITE: {
        LLVMValueRef v = uf__lower_expr(F, x[0]);
        if (!v)
            return NULL;
        if (!uf__dtype_is_float(t[0]->dtype) &&
            !uf__dtype_is_complex(t[0]->dtype))
            return v; /* ints and bools are finite */
        LLVMValueRef ok = all_of(F, e, t[0]->ndim, x, &v, 1);
        if (!ok)
            return NULL;
        uf__fn_raise_if(F, LLVMBuildNot(B, ok, ""), UF__JIT_NOT_FINITE);
        return v;
    }
    default:
        break;
    }
    if (rt->kind != UF__T_SCALAR)
        return fail(F, e, UF_ERR_INTERNAL, "an array-valued NumPy call "
                    "outside an array expression");
    /* numbers: the element function once */
    uf_dtype ad[UF__NPPRED_MAXARGS], rd;
    LLVMValueRef a[UF__NPPRED_MAXARGS];
    for (int i = 0; i < np; i++) {
        a[i] = NULL;
        ad[i] = UF_NTYPES;
        if (x[i] == NULL)
            continue;
        LLVMValueRef v = uf__lower_expr(F, x[i]);
        if (!v)
            return NULL;
        if (t[i]->kind != UF__T_SCALAR)
            continue; /* None */
        a[i] = v;
        ad[i] = t[i]->dtype;
    }
    LLVMValueRef r = uf__emit_nppred_elem(F, e, bi, ad, a, &rd);
    return r ? uf__emit_cast(F, r, rd, rt->dtype) : NULL;
}
