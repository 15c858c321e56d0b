/* Math and builtins: each math function computed as the codegen target
 * says (codegen.h; the host: LLVM intrinsics or libm), complex arithmetic
 * with CPython's/Numba's algorithms, and calls of the runtime helpers for
 * the cmath functions worth not open-coding. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/alloc.h"
#include "common/error_internal.h"
#include "compiler/lower/lower.h"
#include "compiler/lower/lower_stmt.h"
#include "compiler/lower/lower_arrattr.h"

#define B (F->L->b)

/* ---- calls ------------------------------------------------------------- */

LLVMValueRef uf__emit_intrinsic(uf__fn *F, const char *name,
                                LLVMValueRef *args, int nargs)
{
    unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
    LLVMTypeRef ty = LLVMTypeOf(args[0]);
    LLVMValueRef fn = LLVMGetIntrinsicDeclaration(F->L->mod, id, &ty, 1);
    LLVMTypeRef fty = LLVMIntrinsicGetType(F->L->ctx, id, &ty, 1);
    return LLVMBuildCall2(B, fty, fn, args, (unsigned)nargs, "");
}

LLVMValueRef uf__emit_mathfn(uf__fn *F, const char *name, LLVMValueRef *args,
                             int nargs)
{
    uf_dtype dt = LLVMGetTypeKind(LLVMTypeOf(args[0])) == LLVMFloatTypeKind
                      ? UF_FLOAT32
                      : UF_FLOAT64;
    return F->L->cg->math(F, name, dt, args, nargs);
}

LLVMValueRef uf__emit_fmod(uf__fn *F, LLVMValueRef a, LLVMValueRef b)
{
    if (F->L->cg->inexact_frem) {
        LLVMValueRef args[2] = {a, b};
        return uf__emit_mathfn(F, "fmod", args, 2);
    }
    return LLVMBuildFRem(B, a, b, "");
}

/* Calls a runtime helper on complex128 values spilled to memory: `z` in
 * and out, `w` (may be NULL) in. */
static LLVMValueRef call_rt(uf__fn *F, const char *name, LLVMValueRef z,
                            LLVMValueRef w)
{
    LLVMTypeRef cty = uf__lower_dtype(F->L, UF_COMPLEX128);
    LLVMTypeRef dp = LLVMPointerType(LLVMDoubleTypeInContext(F->L->ctx), 0);
    LLVMTypeRef params[2] = {dp, dp};
    LLVMTypeRef fty = LLVMFunctionType(LLVMVoidTypeInContext(F->L->ctx),
                                       params, w ? 2 : 1, 0);
    LLVMValueRef fn = F->L->cg->helper(F->L, name, fty);
    LLVMValueRef pz = uf__fn_alloca(F, cty, "cz");
    LLVMBuildStore(B, z, pz);
    LLVMValueRef args[2] = {LLVMBuildBitCast(B, pz, dp, ""), NULL};
    if (w) {
        LLVMValueRef pw = uf__fn_alloca(F, cty, "cw");
        LLVMBuildStore(B, w, pw);
        args[1] = LLVMBuildBitCast(B, pw, dp, "");
    }
    LLVMBuildCall2(B, fty, fn, args, w ? 2 : 1, "");
    F->L->uses_runtime = true;
    return LLVMBuildLoad2(B, cty, pz, "");
}

/* A runtime helper on a complex of dtype dt (complex64 goes through
 * complex128). */
static LLVMValueRef complex_rt(uf__fn *F, const char *name, uf_dtype dt,
                               LLVMValueRef z, LLVMValueRef w)
{
    z = uf__emit_cast(F, z, dt, UF_COMPLEX128);
    if (w)
        w = uf__emit_cast(F, w, dt, UF_COMPLEX128);
    return uf__emit_cast(F, call_rt(F, name, z, w), UF_COMPLEX128, dt);
}

/* ---- complex arithmetic ---------------------------------------------- */

/* (a+bi)(c+di) = (ac-bd) + (ad+bc)i, CPython's _Py_c_prod. */
LLVMValueRef uf__emit_cmul(uf__fn *F, uf_dtype dt, LLVMValueRef x,
                           LLVMValueRef y)
{
    LLVMValueRef a = uf__emit_real(F, x), b = uf__emit_imag(F, x);
    LLVMValueRef c = uf__emit_real(F, y), d = uf__emit_imag(F, y);
    LLVMValueRef re = LLVMBuildFSub(B, LLVMBuildFMul(B, a, c, ""),
                                    LLVMBuildFMul(B, b, d, ""), "");
    LLVMValueRef im = LLVMBuildFAdd(B, LLVMBuildFMul(B, a, d, ""),
                                    LLVMBuildFMul(B, b, c, ""), "");
    return uf__emit_complex(F, dt, re, im);
}

/* CPython's _Py_c_quot (Smith's method) as Numba lowers it. Division by
 * zero raises in Python's model; NumPy's gives (a.re/0, a.im/0). */
LLVMValueRef uf__emit_cdiv(uf__fn *F, uf_dtype dt, LLVMValueRef x,
                           LLVMValueRef y)
{
    LLVMValueRef ar = uf__emit_real(F, x), ai = uf__emit_imag(F, x);
    LLVMValueRef br = uf__emit_real(F, y), bi = uf__emit_imag(F, y);
    LLVMTypeRef ft = LLVMTypeOf(ar);
    LLVMValueRef zero = LLVMConstReal(ft, 0.0);
    LLVMValueRef nan = LLVMConstReal(ft, NAN);
    LLVMValueRef is0 = LLVMBuildAnd(B,
                                    LLVMBuildFCmp(B, LLVMRealOEQ, br, zero, ""),
                                    LLVMBuildFCmp(B, LLVMRealOEQ, bi, zero, ""),
                                    "");
    uf__fn_raise_if(F, is0, UF__JIT_ZERODIV_COMPLEX);
    LLVMValueRef abr = uf__emit_mathfn(F, "fabs", &br, 1);
    LLVMValueRef abi = uf__emit_mathfn(F, "fabs", &bi, 1);
    /* |b.real| >= |b.imag| */
    LLVMValueRef ratio1 = LLVMBuildFDiv(B, bi, br, "");
    LLVMValueRef den1 = LLVMBuildFAdd(B, br, LLVMBuildFMul(B, bi, ratio1, ""),
                                      "");
    LLVMValueRef re1 = LLVMBuildFDiv(
        B, LLVMBuildFAdd(B, ar, LLVMBuildFMul(B, ai, ratio1, ""), ""), den1,
        "");
    LLVMValueRef im1 = LLVMBuildFDiv(
        B, LLVMBuildFSub(B, ai, LLVMBuildFMul(B, ar, ratio1, ""), ""), den1,
        "");
    /* |b.imag| >= |b.real| */
    LLVMValueRef ratio2 = LLVMBuildFDiv(B, br, bi, "");
    LLVMValueRef den2 = LLVMBuildFAdd(B, LLVMBuildFMul(B, br, ratio2, ""), bi,
                                      "");
    LLVMValueRef re2 = LLVMBuildFDiv(
        B, LLVMBuildFAdd(B, LLVMBuildFMul(B, ar, ratio2, ""), ai, ""), den2,
        "");
    LLVMValueRef im2 = LLVMBuildFDiv(
        B, LLVMBuildFSub(B, LLVMBuildFMul(B, ai, ratio2, ""), ar, ""), den2,
        "");
    LLVMValueRef c1 = LLVMBuildFCmp(B, LLVMRealOGE, abr, abi, "");
    LLVMValueRef c2 = LLVMBuildFCmp(B, LLVMRealOGE, abi, abr, "");
    /* neither: a NaN in b */
    LLVMValueRef re = LLVMBuildSelect(B, c1, re1,
                                      LLVMBuildSelect(B, c2, re2, nan, ""), "");
    LLVMValueRef im = LLVMBuildSelect(B, c1, im1,
                                      LLVMBuildSelect(B, c2, im2, nan, ""), "");
    /* NumPy's division by zero: the parts divided by |b.real| (+0) */
    re = LLVMBuildSelect(B, is0, LLVMBuildFDiv(B, ar, abr, ""), re, "");
    im = LLVMBuildSelect(B, is0, LLVMBuildFDiv(B, ai, abr, ""), im, "");
    return uf__emit_complex(F, dt, re, im);
}

/* Numba: z ** 2 as a product (cpow loses precision), else numba_cpow. */
LLVMValueRef uf__emit_cpow(uf__fn *F, uf_dtype dt, LLVMValueRef a,
                           LLVMValueRef b)
{
    uf_dtype p = uf__dtype_part(dt);
    LLVMValueRef two = LLVMBuildAnd(
        B,
        LLVMBuildFCmp(B, LLVMRealOEQ, uf__emit_real(F, b),
                      uf__emit_const_float(F, p, 2.0), ""),
        LLVMBuildFCmp(B, LLVMRealOEQ, uf__emit_imag(F, b),
                      uf__emit_const_float(F, p, 0.0), ""),
        "");
    LLVMValueRef sq = uf__emit_cmul(F, dt, a, a);
    LLVMValueRef gen = complex_rt(F, UF__RT_CPOW, dt, a, b);
    return LLVMBuildSelect(B, two, sq, gen, "");
}

LLVMValueRef uf__emit_cabs(uf__fn *F, uf_dtype dt, LLVMValueRef z)
{
    LLVMValueRef args[2] = {uf__emit_real(F, z), uf__emit_imag(F, z)};
    return uf__emit_mathfn(F, "hypot", args, 2);
}

static LLVMValueRef emit_clog(uf__fn *F, uf_dtype dt, LLVMValueRef z)
{
    LLVMValueRef x = uf__emit_real(F, z), y = uf__emit_imag(F, z);
    LLVMValueRef h = uf__emit_cabs(F, dt, z);
    LLVMValueRef yx[2] = {y, x};
    return uf__emit_complex(F, dt, uf__emit_mathfn(F, "log", &h, 1),
                            uf__emit_mathfn(F, "atan2", yx, 2));
}

#define UF__BUILTIN_NAME(e, name) name,
static const char *const builtin_names[] = {UF__BUILTIN_MAP(UF__BUILTIN_NAME)};
#undef UF__BUILTIN_NAME

/* ---- real math ---------------------------------------------------------- */

static LLVMValueRef fconst(uf__fn *F, uf_dtype dt, double v)
{
    return uf__emit_const_float(F, dt, v);
}

static LLVMValueRef isnan_(uf__fn *F, LLVMValueRef x)
{
    return LLVMBuildFCmp(B, LLVMRealUNO, x, x, "");
}

LLVMValueRef uf__emit_math(uf__fn *F, uf__builtin bi, uf_dtype dt,
                           LLVMValueRef *a, int nargs)
{
    const char *fn = NULL; /* C's name of the function computing it */
    switch (bi) {
    case UF__BI_SIN: case UF__BI_NP_SIN: fn = "sin"; break;
    case UF__BI_COS: case UF__BI_NP_COS: fn = "cos"; break;
    case UF__BI_EXP: case UF__BI_NP_EXP: fn = "exp"; break;
    case UF__BI_LOG2: case UF__BI_NP_LOG2: fn = "log2"; break;
    case UF__BI_LOG10: case UF__BI_NP_LOG10: fn = "log10"; break;
    case UF__BI_SQRT: case UF__BI_NP_SQRT: fn = "sqrt"; break;
    case UF__BI_MPOW: case UF__BI_NP_POWER: fn = "pow"; break;
    case UF__BI_FABS: case UF__BI_NP_FABS: case UF__BI_ABS:
    case UF__BI_NP_ABS: case UF__BI_NP_ABSOLUTE: fn = "fabs"; break;
    case UF__BI_FLOOR: case UF__BI_NP_FLOOR: fn = "floor"; break;
    case UF__BI_CEIL: case UF__BI_NP_CEIL: fn = "ceil"; break;
    case UF__BI_TRUNC: case UF__BI_NP_TRUNC: fn = "trunc"; break;
    case UF__BI_COPYSIGN: case UF__BI_NP_COPYSIGN:
        fn = "copysign"; break;
    /* Python's round() and np.rint: half to even (Numba: llvm.rint) */
    case UF__BI_ROUND: case UF__BI_NP_RINT: fn = "rint"; break;
    case UF__BI_TAN: case UF__BI_NP_TAN: fn = "tan"; break;
    case UF__BI_ASIN: case UF__BI_NP_ARCSIN: fn = "asin"; break;
    case UF__BI_ACOS: case UF__BI_NP_ARCCOS: fn = "acos"; break;
    case UF__BI_ATAN: case UF__BI_NP_ARCTAN: fn = "atan"; break;
    case UF__BI_ATAN2: case UF__BI_NP_ARCTAN2: fn = "atan2"; break;
    case UF__BI_SINH: case UF__BI_NP_SINH: fn = "sinh"; break;
    case UF__BI_COSH: case UF__BI_NP_COSH: fn = "cosh"; break;
    case UF__BI_TANH: case UF__BI_NP_TANH: fn = "tanh"; break;
    case UF__BI_ASINH: fn = "asinh"; break;
    case UF__BI_ACOSH: fn = "acosh"; break;
    case UF__BI_ATANH: fn = "atanh"; break;
    case UF__BI_EXPM1: case UF__BI_NP_EXPM1: fn = "expm1"; break;
    case UF__BI_LOG1P: case UF__BI_NP_LOG1P: fn = "log1p"; break;
    case UF__BI_HYPOT: case UF__BI_NP_HYPOT: fn = "hypot"; break;
    case UF__BI_ERF: fn = "erf"; break;
    case UF__BI_ERFC: fn = "erfc"; break;
    case UF__BI_GAMMA: fn = "tgamma"; break;
    case UF__BI_LGAMMA: fn = "lgamma"; break;
    case UF__BI_FMOD: case UF__BI_NP_FMOD:
        return uf__emit_fmod(F, a[0], a[1]);
    case UF__BI_LOG: case UF__BI_NP_LOG: {
        LLVMValueRef l = uf__emit_mathfn(F, "log", a, 1);
        if (nargs == 2) /* math.log(x, base) */
            l = LLVMBuildFDiv(B, l, uf__emit_mathfn(F, "log", a + 1, 1),
                              "");
        return l;
    }
    case UF__BI_ISNAN: case UF__BI_NP_ISNAN:
        return isnan_(F, a[0]);
    case UF__BI_ISINF: case UF__BI_NP_ISINF:
        return LLVMBuildFCmp(B, LLVMRealOEQ,
                             uf__emit_mathfn(F, "fabs", a, 1),
                             fconst(F, dt, INFINITY), "");
    case UF__BI_ISFINITE: case UF__BI_NP_ISFINITE:
        return LLVMBuildFCmp(B, LLVMRealOLT,
                             uf__emit_mathfn(F, "fabs", a, 1),
                             fconst(F, dt, INFINITY), "");
    case UF__BI_DEGREES: case UF__BI_NP_RAD2DEG:
        return LLVMBuildFMul(B, a[0], fconst(F, dt, 180.0 / M_PI), "");
    case UF__BI_RADIANS: case UF__BI_NP_DEG2RAD:
        return LLVMBuildFMul(B, a[0], fconst(F, dt, M_PI / 180.0), "");
    case UF__BI_NP_SQUARE:
        return LLVMBuildFMul(B, a[0], a[0], "");
    case UF__BI_NP_SIGN: {
        /* Numba's np_real_sign_impl: zeros and NaNs are returned as they
         * are (-0.0 stays -0.0, where NumPy's ufunc gives +0.0) */
        LLVMValueRef x = a[0], zero = fconst(F, dt, 0.0);
        LLVMValueRef r = LLVMBuildSelect(
            B, LLVMBuildFCmp(B, LLVMRealOLT, x, zero, ""),
            fconst(F, dt, -1.0), x, "");
        return LLVMBuildSelect(B, LLVMBuildFCmp(B, LLVMRealOGT, x, zero, ""),
                               fconst(F, dt, 1.0), r, "");
    }
    case UF__BI_NP_MAXIMUM: case UF__BI_NP_MINIMUM:
    case UF__BI_NP_FMAX: case UF__BI_NP_FMIN: {
        /* Numba's np_real_{maximum,minimum,fmax,fmin}_impl */
        bool is_max = bi == UF__BI_NP_MAXIMUM || bi == UF__BI_NP_FMAX;
        bool prefer_nan = bi == UF__BI_NP_MAXIMUM || bi == UF__BI_NP_MINIMUM;
        LLVMValueRef x = a[0], y = a[1];
        LLVMValueRef any_nan = LLVMBuildFCmp(B, LLVMRealUNO, x, y, "");
        LLVMValueRef nan_res =
            prefer_nan ? LLVMBuildSelect(B, isnan_(F, x), x, y, "")
                       : (is_max ? LLVMBuildSelect(B, isnan_(F, y), x, y, "")
                                 : LLVMBuildSelect(B, isnan_(F, x), y, x, ""));
        LLVMValueRef pick = LLVMBuildFCmp(B, is_max ? LLVMRealOGE : LLVMRealOLE,
                                          x, y, "");
        return LLVMBuildSelect(B, any_nan, nan_res,
                               LLVMBuildSelect(B, pick, x, y, ""), "");
    }
    default:
        break;
    }
    if (fn)
        return F->L->cg->math(F, fn, dt, a, nargs);
    uf__error_set(F->err, UF_ERR_UNSUPPORTED,
                  "lowering: %s is not supported on %s", builtin_names[bi],
                  uf_dtype_name(dt));
    return NULL;
}

/* ---- builtin calls ------------------------------------------------------ */

static LLVMValueRef bad_builtin(uf__fn *F, const uf__expr *e, const char *why)
{
    uf__source_error(F->err, UF_ERR_UNSUPPORTED, F->tf->km->src, e->pos,
                     "%s: %s is not supported by the CPU lowering",
                     builtin_names[uf__lower_info(F, e)->builtin], why);
    return NULL;
}

/* round(x, ndigits) as Numba: scaled by powers of ten (10.0 ** n by
 * squaring), rounded half to even in x's precision. */
static LLVMValueRef round_ndigits(uf__fn *F, uf_dtype xd, LLVMValueRef x,
                                  LLVMValueRef nd)
{
    LLVMTypeRef i64 = LLVMInt64TypeInContext(F->L->ctx);
    LLVMValueRef x64 = uf__emit_cast(F, x, xd, UF_FLOAT64);
    LLVMValueRef zero = LLVMConstNull(i64);
    LLVMValueRef pos = LLVMBuildICmp(B, LLVMIntSGE, nd, zero, "");
    LLVMValueRef big = LLVMBuildICmp(B, LLVMIntSGT, nd,
                                     LLVMConstInt(i64, 22, 0), "");
    LLVMValueRef e = LLVMBuildSelect(
        B, pos,
        LLVMBuildSelect(B, big,
                        LLVMBuildSub(B, nd, LLVMConstInt(i64, 22, 0), ""), nd,
                        ""),
        LLVMBuildSub(B, zero, nd, ""), "");
    LLVMValueRef pow1 = uf__emit_pow_int(
        F, UF_FLOAT64, fconst(F, UF_FLOAT64, 10.0), UF_INT64, e);
    LLVMValueRef pow2 = LLVMBuildSelect(B, big, fconst(F, UF_FLOAT64, 1e22),
                                        fconst(F, UF_FLOAT64, 1.0), "");
    LLVMValueRef y1 = LLVMBuildFMul(B, LLVMBuildFMul(B, x64, pow1, ""), pow2,
                                    "");
    LLVMValueRef r1 = uf__emit_cast(F, y1, UF_FLOAT64, xd);
    r1 = uf__emit_cast(F, uf__emit_mathfn(F, "rint", &r1, 1), xd,
                       UF_FLOAT64);
    r1 = LLVMBuildFDiv(B, LLVMBuildFDiv(B, r1, pow2, ""), pow1, "");
    LLVMValueRef y1inf = LLVMBuildFCmp(
        B, LLVMRealOEQ, uf__emit_mathfn(F, "fabs", &y1, 1),
        fconst(F, UF_FLOAT64, INFINITY), "");
    r1 = LLVMBuildSelect(B, y1inf, x64, r1, "");
    LLVMValueRef y2 = LLVMBuildFDiv(B, x64, pow1, "");
    LLVMValueRef r2 = uf__emit_cast(F, y2, UF_FLOAT64, xd);
    r2 = uf__emit_cast(F, uf__emit_mathfn(F, "rint", &r2, 1), xd,
                       UF_FLOAT64);
    r2 = LLVMBuildFMul(B, r2, pow1, "");
    LLVMValueRef r = LLVMBuildSelect(B, pos, r1, r2, "");
    LLVMValueRef finite = LLVMBuildFCmp(
        B, LLVMRealOLT, uf__emit_mathfn(F, "fabs", &x64, 1),
        fconst(F, UF_FLOAT64, INFINITY), "");
    return LLVMBuildSelect(B, finite, r, x64, "");
}

/* Python's max/min: acc = v if v > acc (v < acc) else acc, left to right
 * (so a NaN first argument sticks and later NaNs are skipped). */
static LLVMValueRef minmax(uf__fn *F, bool is_max, uf_dtype rd,
                           LLVMValueRef *v, int n)
{
    LLVMValueRef acc = v[0];
    for (int i = 1; i < n; i++) {
        LLVMValueRef p = uf__emit_cmp(F, is_max ? UF__CMP_GT : UF__CMP_LT, rd,
                                      v[i], acc);
        if (!p)
            return NULL;
        acc = LLVMBuildSelect(B, p, v[i], acc, "");
    }
    return acc;
}

static LLVMValueRef int_abs(uf__fn *F, uf_dtype dt, LLVMValueRef x)
{
    if (!uf__dtype_is_signed(dt))
        return x;
    LLVMValueRef zero = LLVMConstNull(LLVMTypeOf(x));
    return LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntSLT, x, zero, ""),
                           LLVMBuildSub(B, zero, x, ""), x, "");
}

/* Complex-argument forms of cmath and NumPy functions. */
static LLVMValueRef complex_math(uf__fn *F, const uf__expr *e, uf__builtin bi,
                                 uf_dtype cd, LLVMValueRef *z, int n,
                                 const uf__type *rt)
{
    uf_dtype p = uf__dtype_part(cd);
    LLVMValueRef r;
    uf_dtype got = cd;
    switch (bi) {
    case UF__BI_C_SQRT: case UF__BI_NP_SQRT:
        r = complex_rt(F, UF__RT_CSQRT, cd, z[0], NULL);
        break;
    case UF__BI_C_EXP: case UF__BI_NP_EXP:
        r = complex_rt(F, UF__RT_CEXP, cd, z[0], NULL);
        break;
    case UF__BI_C_LOG: case UF__BI_NP_LOG:
        r = emit_clog(F, cd, z[0]);
        if (n == 2)
            r = uf__emit_cdiv(F, cd, r, emit_clog(F, cd, z[1]));
        break;
    case UF__BI_NP_SQUARE:
        r = uf__emit_cmul(F, cd, z[0], z[0]);
        break;
    case UF__BI_C_PHASE: {
        LLVMValueRef yx[2] = {uf__emit_imag(F, z[0]), uf__emit_real(F, z[0])};
        r = uf__emit_mathfn(F, "atan2", yx, 2);
        got = p;
        break;
    }
    case UF__BI_C_POLAR: {
        LLVMValueRef yx[2] = {uf__emit_imag(F, z[0]), uf__emit_real(F, z[0])};
        if (!rt || rt->kind != UF__T_TUPLE || rt->n != 2)
            return bad_builtin(F, e, "this result type");
        LLVMValueRef t = LLVMGetUndef(uf__lower_type(F->L, rt, F->err));
        LLVMValueRef a = uf__emit_cabs(F, cd, z[0]);
        LLVMValueRef b = uf__emit_mathfn(F, "atan2", yx, 2);
        t = LLVMBuildInsertValue(B, t, uf__emit_cast(F, a, p, rt->elts[0]->dtype),
                                 0, "");
        return LLVMBuildInsertValue(
            B, t, uf__emit_cast(F, b, p, rt->elts[1]->dtype), 1, "");
    }
    case UF__BI_C_ISNAN: case UF__BI_NP_ISNAN:
    case UF__BI_C_ISINF: case UF__BI_NP_ISINF:
    case UF__BI_C_ISFINITE: case UF__BI_NP_ISFINITE: {
        uf__builtin rb = (bi == UF__BI_C_ISNAN || bi == UF__BI_NP_ISNAN)
                             ? UF__BI_ISNAN
                         : (bi == UF__BI_C_ISINF || bi == UF__BI_NP_ISINF)
                             ? UF__BI_ISINF
                             : UF__BI_ISFINITE;
        LLVMValueRef re = uf__emit_real(F, z[0]), im = uf__emit_imag(F, z[0]);
        LLVMValueRef a = uf__emit_math(F, rb, p, &re, 1);
        LLVMValueRef b = uf__emit_math(F, rb, p, &im, 1);
        r = rb == UF__BI_ISFINITE ? LLVMBuildAnd(B, a, b, "")
                                  : LLVMBuildOr(B, a, b, "");
        got = UF_BOOL;
        break;
    }
    default:
        return bad_builtin(F, e, "a complex argument");
    }
    if (!rt || rt->kind != UF__T_SCALAR)
        return bad_builtin(F, e, "this result type");
    return uf__emit_cast(F, r, got, rt->dtype);
}

static bool is_cmath(uf__builtin bi)
{
    return bi >= UF__BI_C_SQRT && bi <= UF__BI_C_ISFINITE;
}

LLVMValueRef uf__lower_builtin(uf__fn *F, const uf__expr *e)
{
    const uf__expr_info *in = uf__lower_info(F, e);
    uf__builtin bi = in->builtin;
    if (uf__builtin_is_cuda(bi))
        return uf__lower_cuda(F, e);
    if (uf__builtin_is_npufunc(bi))
        return uf__lower_npufunc(F, e);
    if (uf__builtin_is_npreduce(bi))
        return uf__lower_npreduce(F, e);
    if (uf__builtin_is_alloc(bi))
        return uf__lower_alloc(F, e);
    if (uf__builtin_is_list(bi)) /* lower_list.c */
        return uf__lower_list_call(F, e);
    if (uf__builtin_is_dict(bi)) /* lower_dict.c */
        return uf__lower_dict_call(F, e);
    if (uf__builtin_is_set(bi)) /* lower_set.c */
        return uf__lower_set_call(F, e);
    if (uf__builtin_is_npselect(bi)) /* lower_npselect.c */
        return uf__lower_npselect(F, e);
    if (uf__builtin_is_nppart(bi)) /* lower_nppart.c */
        return uf__lower_nppart(F, e);
    if (uf__builtin_is_npstats(bi)) /* lower_npstats.c */
        return uf__lower_npstats(F, e);
    if (bi == UF__BI_NP_INSERT) /* lower_npinsert.c */
        return uf__lower_npinsert(F, e);
    if (uf__builtin_is_npfind(bi)) /* lower_npfind.c */
        return uf__lower_npfind(F, e);
    if (uf__builtin_is_nprandom(bi)) /* lower_nprandom.c */
        return uf__lower_nprandom(F, e);
    if (uf__builtin_is_npnum(bi)) /* lower_npnum.c */
        return uf__lower_npnum(F, e);
    if (uf__builtin_is_nplinalg(bi)) /* lower_nplinalg.c */
        return uf__lower_nplinalg(F, e);
    if (uf__builtin_is_arrmeth(bi))
        return uf__lower_arrmeth(F, e);
    if (uf__builtin_is_nppred(bi)) /* lower_nppred.c */
        return uf__lower_nppred(F, e);
    if (uf__builtin_is_npcum(bi)) /* lower_npcum.c */
        return uf__lower_npcum(F, e);
    if (uf__builtin_is_npjoin(bi)) /* lower_npjoin.c */
        return uf__lower_npjoin(F, e);
    if (uf__builtin_is_npsignal(bi)) /* lower_npsignal.c */
        return uf__lower_npsignal(F, e);
    if (uf__builtin_is_npspace(bi)) /* lower_npspace.c */
        return uf__lower_npspace(F, e);
    if (uf__builtin_is_npfunc(bi)) /* lower_npfunc.c */
        return uf__lower_npfunc(F, e);
    if (uf__builtin_is_npcross(bi)) /* lower_npcross.c */
        return uf__lower_npcross(F, e);
    if (uf__builtin_is_nppoly(bi)) /* lower_nppoly.c */
        return uf__lower_nppoly(F, e);
    if (uf__builtin_is_npsplit(bi)) /* lower_npsplit.c */
        return uf__lower_npsplit(F, e);
    if (uf__builtin_is_npmatrix(bi)) /* lower_npmatrix.c */
        return uf__lower_npmatrix(F, e);
    if (bi == UF__BI_METH_ITEM) /* lower_npiter.c */
        return uf__lower_array_item(F, e);
    if (uf__builtin_is_npview(bi)) /* lower_npview.c */
        return uf__lower_npview(F, e);
    if (uf__builtin_is_arrview(bi) || bi == UF__BI_ISINSTANCE)
        return uf__lower_arrview(F, e); /* lower_arrview.c */
    if (uf__builtin_is_npshape(bi)) /* lower_npshape.c */
        return uf__lower_npshape(F, e);
    if (uf__builtin_is_arrattr(bi)) /* lower_arrattr.c */
        return uf__lower_arrattr(F, e);
    if (bi == UF__BI_PRINT) /* lower_raise.c */
        return uf__lower_print(F, e);
    const uf__expr *argx[8];
    int n = 0;
    if (e->kind == UF__EX_ATTR) {
        argx[n++] = e->u.attr.value;
    } else {
        if (e->u.call.nkw)
            return bad_builtin(F, e, "keyword arguments");
        if (e->u.call.nargs > 6)
            return bad_builtin(F, e, "this many arguments");
        const uf__expr *fx = e->u.call.func;
        if (bi == UF__BI_METH_CONJUGATE && fx->kind == UF__EX_ATTR)
            argx[n++] = fx->u.attr.value;
        for (int i = 0; i < e->u.call.nargs; i++)
            argx[n++] = e->u.call.args[i];
    }
    const uf__type *rt = in->type;
    const uf__type *at[8];
    uf_dtype ad[8];
    for (int i = 0; i < n; i++) {
        at[i] = uf__lower_info(F, argx[i])->type;
        if (!at[i])
            return bad_builtin(F, argx[i], "an untyped argument");
        ad[i] = at[i]->kind == UF__T_SCALAR ? at[i]->dtype : UF_NTYPES;
    }
    bool rs = rt && rt->kind == UF__T_SCALAR;
    uf_dtype rd = rs ? rt->dtype : UF_NTYPES;

    /* builtins that do not evaluate their arguments as scalars */
    switch (bi) {
    case UF__BI_BOOL:
        if (n == 1 && at[0]->kind == UF__T_SET) /* not empty (lower.c) */
            return uf__lower_truth_of(F, argx[0]);
        break;
    case UF__BI_LEN:
        if (n == 1 && at[0]->kind == UF__T_TUPLE && rs)
            return uf__emit_cast(F, uf__emit_const_int(F, UF_INT64, at[0]->n),
                                 UF_INT64, rd);
        if (n == 1 && at[0]->kind == UF__T_ARRAY)
            return uf__lower_array_attr(F, e, bi, argx[0]);
        if (n == 1 && (at[0]->kind == UF__T_LIST ||
                       at[0]->kind == UF__T_DICT ||
                       at[0]->kind == UF__T_SET) && rs) { /* lower_list.c,
                                                lower_dict.c: the size */
            LLVMValueRef l = uf__lower_expr(F, argx[0]);
            return l ? uf__emit_cast(F, uf__emit_list_len(F, l), UF_INT64, rd)
                     : NULL;
        }
        if (n == 1 && at[0]->kind == UF__T_FLATITER && rs) {
            LLVMValueRef len = uf__lower_flat_len(F, argx[0]);
            return len ? uf__emit_cast(F, len, UF_INT64, rd) : NULL;
        }
        if (n == 1 && at[0]->kind == UF__T_RANGE && rs) {
            LLVMValueRef len = uf__lower_range_len(F, argx[0]);
            return len ? uf__emit_cast(F, len, UF_INT64, rd) : NULL;
        }
        return bad_builtin(F, e, "len() of this value");
    case UF__BI_RANGE:
    case UF__BI_PRANGE:
        return bad_builtin(F, e, "range() outside a for loop");
    case UF__BI_ATTR_SHAPE: case UF__BI_ATTR_SIZE: case UF__BI_ATTR_NDIM:
    case UF__BI_ATTR_STRIDES:
        if (n == 1 && at[0]->kind == UF__T_ARRAY)
            return uf__lower_array_attr(F, e, bi, argx[0]);
        return bad_builtin(F, e, "this attribute");
    case UF__BI_ATTR_CTYPES_DATA:
        /* a.ctypes.data: argx[0] is a.ctypes, whose value is a */
        if (n == 1 && at[0]->kind == UF__T_ARRAY &&
            argx[0]->kind == UF__EX_ATTR) {
            LLVMValueRef a = uf__lower_expr(F, argx[0]->u.attr.value);
            if (!a)
                return NULL;
            return LLVMBuildPtrToInt(F->L->b, uf__emit_array_data(F, a),
                                     LLVMInt64TypeInContext(F->L->ctx),
                                     "ctypes.data");
        }
        return bad_builtin(F, e, "this attribute");
    case UF__BI_ATTR_C_CONTIGUOUS: case UF__BI_ATTR_F_CONTIGUOUS:
        /* a.flags.c_contiguous: argx[0] is a.flags, whose value is a */
        if (n == 1 && at[0]->kind == UF__T_ARRAY &&
            argx[0]->kind == UF__EX_ATTR)
            return uf__lower_array_attr(F, e, bi, argx[0]->u.attr.value);
        return bad_builtin(F, e, "this attribute");
    case UF__BI_POW: case UF__BI_NP_POWER: {
        if (bi == UF__BI_NP_POWER && rs && uf__dtype_is_int(rd))
            return uf__lower_npufunc(F, e); /* in the loop's dtype */
        const uf__type *opt = NULL;
        if (n != 2 || !rs ||
            !uf__type_binop(F->tf->km->tc, UF__OP_POW, at[0], at[1], &opt) ||
            !opt)
            break; /* NP_POWER on floats: the generic path */
        return uf__lower_binop(F, UF__OP_POW, argx[0], argx[1], opt->dtype,
                               rd);
    }
    case UF__BI_DIVMOD: {
        const uf__type *opt = NULL;
        if (n != 2 || !rt || rt->kind != UF__T_TUPLE || rt->n != 2 ||
            !uf__type_binop(F->tf->km->tc, UF__OP_FLOORDIV, at[0], at[1],
                            &opt) ||
            !opt)
            return bad_builtin(F, e, "these arguments");
        LLVMValueRef a = uf__lower_expr(F, argx[0]);
        LLVMValueRef b = a ? uf__lower_expr(F, argx[1]) : NULL;
        if (!b)
            return NULL;
        uf_dtype od = opt->dtype;
        a = uf__emit_cast(F, a, ad[0], od);
        b = uf__emit_cast(F, b, ad[1], od);
        LLVMValueRef q = uf__emit_binop(F, UF__OP_FLOORDIV, od, a, b);
        LLVMValueRef m = q ? uf__emit_binop(F, UF__OP_MOD, od, a, b) : NULL;
        if (!m)
            return NULL;
        uf_dtype qd = od == UF_BOOL ? UF_INT64 : od;
        LLVMValueRef t = LLVMGetUndef(uf__lower_type(F->L, rt, F->err));
        t = LLVMBuildInsertValue(
            B, t, uf__emit_cast(F, q, qd, rt->elts[0]->dtype), 0, "");
        return LLVMBuildInsertValue(
            B, t, uf__emit_cast(F, m, qd, rt->elts[1]->dtype), 1, "");
    }
    case UF__BI_MIN: case UF__BI_MAX: {
        if (!rs || uf__dtype_is_complex(rd))
            return bad_builtin(F, e, "these arguments");
        LLVMValueRef v[64];
        int nv = 0;
        if (n == 1 && at[0]->kind == UF__T_TUPLE && at[0]->n >= 1 &&
            at[0]->n <= 64) {
            LLVMValueRef t = uf__lower_expr(F, argx[0]);
            if (!t)
                return NULL;
            for (int i = 0; i < at[0]->n; i++) {
                if (at[0]->elts[i]->kind != UF__T_SCALAR)
                    return bad_builtin(F, e, "these arguments");
                v[nv++] = uf__emit_cast(
                    F, LLVMBuildExtractValue(B, t, (unsigned)i, ""),
                    at[0]->elts[i]->dtype, rd);
            }
        } else {
            if (n < 2)
                return bad_builtin(F, e, "these arguments");
            for (int i = 0; i < n; i++) {
                if (ad[i] == UF_NTYPES)
                    return bad_builtin(F, e, "these arguments");
                LLVMValueRef x = uf__lower_expr(F, argx[i]);
                if (!x)
                    return NULL;
                v[nv++] = uf__emit_cast(F, x, ad[i], rd);
            }
        }
        return minmax(F, bi == UF__BI_MAX, rd, v, nv);
    }
    default:
        break;
    }

    if (!rt)
        return bad_builtin(F, e, "an untyped result");
    LLVMValueRef a[8];
    for (int i = 0; i < n; i++) {
        if (ad[i] == UF_NTYPES)
            return bad_builtin(F, e, "a non-scalar argument");
        if (!(a[i] = uf__lower_expr(F, argx[i])))
            return NULL;
    }
    return uf__emit_builtin(F, e, n, ad, a, rt);
}

LLVMValueRef uf__emit_builtin(uf__fn *F, const uf__expr *e, int n,
                              uf_dtype *ad, LLVMValueRef *a,
                              const uf__type *rt)
{
    const uf__expr_info *in = uf__lower_info(F, e);
    uf__builtin bi = in->builtin;
    bool rs = rt && rt->kind == UF__T_SCALAR;
    uf_dtype rd = rs ? rt->dtype : UF_NTYPES;
    switch (bi) {
    case UF__BI_CAST: case UF__BI_INT: case UF__BI_FLOAT: case UF__BI_BOOL:
        if (!rs)
            return bad_builtin(F, e, "this result type");
        if (n == 0)
            return LLVMConstNull(uf__lower_dtype(F->L, rd));
        if (bi == UF__BI_CAST && in->cast_to != rd)
            a[0] = uf__emit_cast(F, a[0], ad[0], in->cast_to),
            ad[0] = in->cast_to;
        return uf__emit_cast(F, a[0], ad[0], rd);
    case UF__BI_COMPLEX: {
        if (!rs || !uf__dtype_is_complex(rd))
            return bad_builtin(F, e, "this result type");
        if (n == 0)
            return LLVMConstNull(uf__lower_dtype(F->L, rd));
        if (n == 1)
            return uf__emit_cast(F, a[0], ad[0], rd);
        if (uf__dtype_is_complex(ad[0]) || uf__dtype_is_complex(ad[1]))
            return bad_builtin(F, e, "complex(z, w) of complex numbers");
        uf_dtype p = uf__dtype_part(rd);
        return uf__emit_complex(F, rd, uf__emit_cast(F, a[0], ad[0], p),
                                uf__emit_cast(F, a[1], ad[1], p));
    }
    case UF__BI_ATTR_REAL: case UF__BI_NP_REAL:
        if (!rs)
            break;
        if (uf__dtype_is_complex(ad[0]))
            return uf__emit_cast(F, uf__emit_real(F, a[0]),
                                 uf__dtype_part(ad[0]), rd);
        return uf__emit_cast(F, a[0], ad[0], rd);
    case UF__BI_ATTR_IMAG: case UF__BI_NP_IMAG:
        if (!rs)
            break;
        if (uf__dtype_is_complex(ad[0]))
            return uf__emit_cast(F, uf__emit_imag(F, a[0]),
                                 uf__dtype_part(ad[0]), rd);
        return LLVMConstNull(uf__lower_dtype(F->L, rd));
    case UF__BI_METH_CONJUGATE: case UF__BI_NP_CONJ:
        if (!rs)
            break;
        if (uf__dtype_is_complex(ad[0])) {
            LLVMValueRef z = uf__emit_complex(
                F, ad[0], uf__emit_real(F, a[0]),
                LLVMBuildFNeg(B, uf__emit_imag(F, a[0]), ""));
            return uf__emit_cast(F, z, ad[0], rd);
        }
        return uf__emit_cast(F, a[0], ad[0], rd);
    case UF__BI_ABS: case UF__BI_NP_ABS: case UF__BI_NP_ABSOLUTE:
    case UF__BI_FABS: case UF__BI_NP_FABS:
        if (!rs || n != 1)
            break;
        if (uf__dtype_is_complex(ad[0]))
            return uf__emit_cast(F, uf__emit_cabs(F, ad[0], a[0]),
                                 uf__dtype_part(ad[0]), rd);
        if (uf__dtype_is_int(ad[0]) && uf__dtype_is_int(rd))
            return int_abs(F, rd, uf__emit_cast(F, a[0], ad[0], rd));
        if (ad[0] == UF_BOOL && !uf__dtype_is_float(rd))
            return uf__emit_cast(F, a[0], ad[0], rd);
        break; /* floats: the generic path (llvm.fabs) */
    case UF__BI_ROUND:
        if (!rs)
            break;
        if (n == 1 && (uf__dtype_is_int(ad[0]) || ad[0] == UF_BOOL))
            return uf__emit_cast(F, a[0], ad[0], rd);
        if (n == 2 && !uf__dtype_is_float(ad[0]) && !uf__dtype_is_complex(ad[0])) {
            /* round(int, n): Numba rounds the int as a float64 */
            a[0] = uf__emit_cast(F, a[0], ad[0], UF_FLOAT64);
            ad[0] = UF_FLOAT64;
        }
        if (n == 2 && uf__dtype_is_float(ad[0]) &&
            (uf__dtype_is_int(ad[1]) || ad[1] == UF_BOOL)) {
            uf_dtype nd = uf__dtype_is_signed(ad[1]) ? UF_INT64 : UF_UINT64;
            return uf__emit_cast(
                F,
                round_ndigits(F, ad[0], a[0], uf__emit_cast(F, a[1], ad[1], nd)),
                UF_FLOAT64, rd);
        }
        if (n != 1 || !uf__dtype_is_float(ad[0]))
            return bad_builtin(F, e, "these arguments");
        break;
    case UF__BI_FLOOR: case UF__BI_CEIL: case UF__BI_TRUNC:
        /* math.floor of an int is the int */
        if (rs && n == 1 && (uf__dtype_is_int(ad[0]) || ad[0] == UF_BOOL))
            return uf__emit_cast(F, a[0], ad[0], rd);
        break;
    case UF__BI_ISNAN: case UF__BI_NP_ISNAN: case UF__BI_ISINF:
    case UF__BI_NP_ISINF:
        if (rs && n == 1 && (uf__dtype_is_int(ad[0]) || ad[0] == UF_BOOL))
            return LLVMConstNull(uf__lower_dtype(F->L, rd));
        break;
    case UF__BI_ISFINITE: case UF__BI_NP_ISFINITE:
        if (rs && n == 1 && (uf__dtype_is_int(ad[0]) || ad[0] == UF_BOOL))
            return uf__emit_cast(
                F, LLVMConstInt(LLVMInt1TypeInContext(F->L->ctx), 1, 0),
                UF_BOOL, rd);
        break;
    case UF__BI_NP_MAXIMUM: case UF__BI_NP_MINIMUM: case UF__BI_NP_FMAX:
    case UF__BI_NP_FMIN:
        if (rs && n == 2 && (uf__dtype_is_int(rd) || rd == UF_BOOL)) {
            bool is_max = bi == UF__BI_NP_MAXIMUM || bi == UF__BI_NP_FMAX;
            LLVMValueRef x = uf__emit_cast(F, a[0], ad[0], rd);
            LLVMValueRef y = uf__emit_cast(F, a[1], ad[1], rd);
            LLVMValueRef p = uf__emit_cmp(F, is_max ? UF__CMP_GE : UF__CMP_LE,
                                          rd, x, y);
            return LLVMBuildSelect(B, p, x, y, "");
        }
        break;
    case UF__BI_NP_SIGN:
        if (rs && n == 1 && uf__dtype_is_int(rd)) {
            LLVMValueRef x = uf__emit_cast(F, a[0], ad[0], rd);
            LLVMValueRef zero = LLVMConstNull(LLVMTypeOf(x));
            LLVMValueRef gt = uf__emit_cmp(F, UF__CMP_GT, rd, x, zero);
            LLVMValueRef lt = uf__emit_cmp(F, UF__CMP_LT, rd, x, zero);
            return LLVMBuildSub(B, LLVMBuildZExt(B, gt, LLVMTypeOf(x), ""),
                                LLVMBuildZExt(B, lt, LLVMTypeOf(x), ""), "");
        }
        break;
    case UF__BI_NP_SQUARE:
        if (rs && n == 1 && (uf__dtype_is_int(rd))) {
            LLVMValueRef x = uf__emit_cast(F, a[0], ad[0], rd);
            return LLVMBuildMul(B, x, x, "");
        }
        break;
    case UF__BI_NP_FMOD:
        if (rs && n == 2 && uf__dtype_is_int(rd)) {
            /* C's truncated remainder; x % 0 and INT_MIN % -1 give 0 */
            LLVMValueRef x = uf__emit_cast(F, a[0], ad[0], rd);
            LLVMValueRef y = uf__emit_cast(F, a[1], ad[1], rd);
            LLVMTypeRef ty = LLVMTypeOf(x);
            LLVMValueRef zero = LLVMConstNull(ty);
            LLVMValueRef bad = LLVMBuildICmp(B, LLVMIntEQ, y, zero, "");
            if (uf__dtype_is_signed(rd))
                bad = LLVMBuildOr(
                    B, bad,
                    LLVMBuildICmp(B, LLVMIntEQ, y, LLVMConstAllOnes(ty), ""),
                    "");
            LLVMValueRef sy = LLVMBuildSelect(B, bad, LLVMConstInt(ty, 1, 0),
                                              y, "");
            LLVMValueRef r = uf__dtype_is_signed(rd)
                                 ? LLVMBuildSRem(B, x, sy, "")
                                 : LLVMBuildURem(B, x, sy, "");
            return LLVMBuildSelect(B, bad, zero, r, "");
        }
        break;
    default:
        break;
    }

    /* complex arguments: cmath, and NumPy functions defined on complex */
    bool any_complex = false;
    for (int i = 0; i < n; i++)
        any_complex |= uf__dtype_is_complex(ad[i]);
    if (is_cmath(bi) || any_complex) {
        if (bi == UF__BI_C_RECT) {
            if (n != 2 || any_complex || !rs)
                return bad_builtin(F, e, "these arguments");
            LLVMValueRef z = uf__emit_complex(
                F, UF_COMPLEX128, uf__emit_cast(F, a[0], ad[0], UF_FLOAT64),
                uf__emit_cast(F, a[1], ad[1], UF_FLOAT64));
            return uf__emit_cast(F, call_rt(F, UF__RT_CRECT, z, NULL),
                                 UF_COMPLEX128, rd);
        }
        uf_dtype cd = UF_COMPLEX64;
        for (int i = 0; i < n; i++)
            if (ad[i] == UF_COMPLEX128 || ad[i] == UF_FLOAT64 ||
                uf__dtype_is_int(ad[i]))
                cd = UF_COMPLEX128;
        if (n < 1 || n > 2)
            return bad_builtin(F, e, "these arguments");
        for (int i = 0; i < n; i++)
            a[i] = uf__emit_cast(F, a[i], ad[i], cd);
        return complex_math(F, e, bi, cd, a, n, rt);
    }

    /* real math: arguments converted to the float type of the operation */
    if (!rs)
        return bad_builtin(F, e, "this result type");
    uf_dtype fd;
    if (uf__dtype_is_float(rd)) {
        fd = rd;
    } else {
        fd = UF_FLOAT32;
        for (int i = 0; i < n; i++)
            if (ad[i] != UF_FLOAT32)
                fd = UF_FLOAT64;
    }
    if (n < 1)
        return bad_builtin(F, e, "these arguments");
    for (int i = 0; i < n; i++)
        a[i] = uf__emit_cast(F, a[i], ad[i], fd);
    LLVMValueRef r = uf__emit_math(F, bi, fd, a, n);
    if (!r)
        return NULL;
    bool pred = bi == UF__BI_ISNAN || bi == UF__BI_NP_ISNAN ||
                bi == UF__BI_ISINF || bi == UF__BI_NP_ISINF ||
                bi == UF__BI_ISFINITE || bi == UF__BI_NP_ISFINITE;
    return uf__emit_cast(F, r, pred ? UF_BOOL : fd, rd);
}
