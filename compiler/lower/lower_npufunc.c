/* The NumPy ufuncs of UF__NPUFUNC_MAP (and np.power of ints) on scalars, as Numba lowers them
 * (numba/np/npyfuncs.py, ufunc_db.py). The operands are converted to the
 * loop infer_npufunc.c selects (the typer asked the same question), then
 * computed with the operators of lower_ops.c wherever NumPy's semantics
 * are Python's, always under NumPy's error model: a ufunc never raises
 * (x // 0 is 0, 0 ** -1 is INT_MIN, 1.0 / 0 is inf) even in an njit
 * function. Where NumPy differs from Python (floor division and remainder
 * of floats, true division of ints, booleans) the difference is here. */
#include <math.h>
#include <string.h>

#include "common/error_internal.h"
#include "compiler/lower/lower.h"
#include "compiler/lower/lower_arrexpr_internal.h"
#include "compiler/types/infer_npufunc.h"

#define B (F->L->b)

static LLVMValueRef refuse(uf__fn *F, const uf__expr *e, uf__builtin bi,
                           uf_dtype dt)
{
    uf__source_error(F->err, UF_ERR_UNSUPPORTED, F->tf->km->src, e->pos,
                     "%s is not supported on %s in kernels",
                     uf__builtin_name(bi), uf_dtype_name(dt));
    return NULL;
}

static LLVMValueRef fconst(uf__fn *F, uf_dtype dt, double v)
{
    return uf__emit_const_float(F, dt, v);
}

static LLVMValueRef math1(uf__fn *F, const char *name, LLVMValueRef x)
{
    return uf__emit_mathfn(F, name, &x, 1);
}

/* np.floor_divide of floats: floor(a / b) (Numba's
 * np_real_floor_div_impl; NumPy's own loop gives 9.0 for 1.0 // 0.1). */
static LLVMValueRef float_floordiv(uf__fn *F, LLVMValueRef a, LLVMValueRef b)
{
    return math1(F, "floor", LLVMBuildFDiv(B, a, b, ""));
}

/* np.remainder of floats: fmod moved to the divisor's sign by adding it
 * (Numba's np_real_mod_impl: a zero remainder is +0.0 + 0.0). */
static LLVMValueRef float_remainder(uf__fn *F, uf_dtype dt, LLVMValueRef a,
                                    LLVMValueRef b)
{
    LLVMValueRef zero = fconst(F, dt, 0.0);
    LLVMValueRef r = uf__emit_fmod(F, a, b);
    LLVMValueRef fix = LLVMBuildAnd(
        B, LLVMBuildFCmp(B, LLVMRealONE, r, zero, ""),
        LLVMBuildXor(B, LLVMBuildFCmp(B, LLVMRealOLT, b, zero, ""),
                     LLVMBuildFCmp(B, LLVMRealOLT, r, zero, ""), ""),
        "");
    return LLVMBuildFAdd(B, r, LLVMBuildSelect(B, fix, b, zero, ""), "");
}

/* NumPy's complex division (Smith's method with a reciprocal; a zero
 * divisor divides the parts by it), Numba's np_complex_div_impl. */
static LLVMValueRef complex_div(uf__fn *F, uf_dtype dt, LLVMValueRef x,
                                LLVMValueRef y)
{
    uf_dtype p = uf__dtype_part(dt);
    LLVMValueRef ar = uf__emit_real(F, x), ai = uf__emit_imag(F, x);
    LLVMValueRef br = uf__emit_real(F, y), bi = uf__emit_imag(F, y);
    LLVMValueRef zero = fconst(F, p, 0.0), one = fconst(F, p, 1.0);
    LLVMValueRef abr = math1(F, "fabs", br), abi = math1(F, "fabs", bi);
    LLVMValueRef real_big = LLVMBuildFCmp(B, LLVMRealOGE, abr, abi, "");
    LLVMValueRef is0 = LLVMBuildAnd(
        B, LLVMBuildFCmp(B, LLVMRealOEQ, abr, zero, ""),
        LLVMBuildFCmp(B, LLVMRealOEQ, abi, zero, ""), "");
    /* |b.real| >= |b.imag| */
    LLVMValueRef rat1 = LLVMBuildFDiv(B, bi, br, "");
    LLVMValueRef scl1 = LLVMBuildFDiv(
        B, one, LLVMBuildFAdd(B, br, LLVMBuildFMul(B, bi, rat1, ""), ""), "");
    LLVMValueRef re1 = LLVMBuildFMul(
        B, LLVMBuildFAdd(B, ar, LLVMBuildFMul(B, ai, rat1, ""), ""), scl1, "");
    LLVMValueRef im1 = LLVMBuildFMul(
        B, LLVMBuildFSub(B, ai, LLVMBuildFMul(B, ar, rat1, ""), ""), scl1, "");
    /* otherwise (a NaN in b too) */
    LLVMValueRef rat2 = LLVMBuildFDiv(B, br, bi, "");
    LLVMValueRef scl2 = LLVMBuildFDiv(
        B, one, LLVMBuildFAdd(B, bi, LLVMBuildFMul(B, br, rat2, ""), ""), "");
    LLVMValueRef re2 = LLVMBuildFMul(
        B, LLVMBuildFAdd(B, LLVMBuildFMul(B, ar, rat2, ""), ai, ""), scl2, "");
    LLVMValueRef im2 = LLVMBuildFMul(
        B, LLVMBuildFSub(B, LLVMBuildFMul(B, ai, rat2, ""), ar, ""), scl2, "");
    /* Numba's _fabs keeps the sign of a zero: a / (+-0) */
    re1 = LLVMBuildSelect(B, is0, LLVMBuildFDiv(B, ar, br, ""), re1, "");
    im1 = LLVMBuildSelect(B, is0, LLVMBuildFDiv(B, ai, bi, ""), im1, "");
    return uf__emit_complex(F, dt, LLVMBuildSelect(B, real_big, re1, re2, ""),
                            LLVMBuildSelect(B, real_big, im1, im2, ""));
}

/* logaddexp (base e) and logaddexp2 as NumPy's npy_logaddexp: equal
 * arguments (infinities of one sign) give x + log(2), a NaN difference
 * gives it back. */
static LLVMValueRef logaddexp(uf__fn *F, uf_dtype dt, LLVMValueRef x,
                              LLVMValueRef y, bool base2)
{
    LLVMValueRef zero = fconst(F, dt, 0.0);
    LLVMValueRef tmp = LLVMBuildFSub(B, x, y, "");
    LLVMValueRef pos = LLVMBuildFCmp(B, LLVMRealOGT, tmp, zero, "");
    LLVMValueRef le = LLVMBuildFCmp(B, LLVMRealOLE, tmp, zero, "");
    /* exp(-|tmp|) of whichever branch runs */
    LLVMValueRef arg = LLVMBuildSelect(B, pos, LLVMBuildFSub(B, zero, tmp, ""),
                                       tmp, "");
    LLVMValueRef ex = math1(F, base2 ? "exp2" : "exp", arg);
    LLVMValueRef l1p = math1(F, "log1p", ex);
    if (base2) /* npy_log2_1p: log1p(x) * LOG2E */
        l1p = LLVMBuildFMul(B, fconst(F, dt, 1.442695040888963407359924681),
                            l1p, "");
    LLVMValueRef big = LLVMBuildSelect(B, pos, x, y, "");
    LLVMValueRef r = LLVMBuildFAdd(B, big, l1p, "");
    r = LLVMBuildSelect(B, LLVMBuildOr(B, pos, le, ""), r, tmp, "");
    LLVMValueRef same = LLVMBuildFAdd(
        B, x, fconst(F, dt, base2 ? 1.0 : 0.693147180559945309417232121458),
        "");
    return LLVMBuildSelect(B, LLVMBuildFCmp(B, LLVMRealOEQ, x, y, ""), same,
                           r, "");
}

/* ldexp(x, n) with n an i32, rounded once as C's: x scaled by at most
 * three normal powers of two (musl's scalbn, as selects: no branches and
 * no libm call, the same on every target). */
static LLVMValueRef ldexp_(uf__fn *F, uf_dtype dt, LLVMValueRef x,
                           LLVMValueRef n)
{
    bool f32 = dt == UF_FLOAT32;
    int emax = f32 ? 127 : 1023, emin = f32 ? -126 : -1022;
    int mant = f32 ? 24 : 53;
    LLVMTypeRef i32 = LLVMInt32TypeInContext(F->L->ctx);
    LLVMTypeRef it = f32 ? i32 : LLVMInt64TypeInContext(F->L->ctx);
    LLVMValueRef up = fconst(F, dt, ldexp(1.0, emax));
    LLVMValueRef down = fconst(F, dt, ldexp(1.0, emin + mant));
    LLVMValueRef cmax = LLVMConstInt(i32, (unsigned)emax, 1);
    LLVMValueRef cmin = LLVMConstInt(i32, (unsigned long long)emin, 1);
    LLVMValueRef dstep = LLVMConstInt(i32, (unsigned)(-emin - mant), 1);
    LLVMValueRef y = x;
    for (int step = 0; step < 2; step++) {
        LLVMValueRef hi = LLVMBuildICmp(B, LLVMIntSGT, n, cmax, "");
        LLVMValueRef lo = LLVMBuildICmp(B, LLVMIntSLT, n, cmin, "");
        y = LLVMBuildSelect(B, hi, LLVMBuildFMul(B, y, up, ""),
                            LLVMBuildSelect(B, lo,
                                            LLVMBuildFMul(B, y, down, ""), y,
                                            ""),
                            "");
        n = LLVMBuildSelect(B, hi, LLVMBuildSub(B, n, cmax, ""),
                            LLVMBuildSelect(B, lo,
                                            LLVMBuildAdd(B, n, dstep, ""), n,
                                            ""),
                            "");
    }
    n = LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntSGT, n, cmax, ""), cmax, n,
                        "");
    n = LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntSLT, n, cmin, ""), cmin, n,
                        "");
    LLVMValueRef biased = LLVMBuildAdd(B, n, cmax, "");
    if (!f32)
        biased = LLVMBuildZExt(B, biased, it, "");
    LLVMValueRef bits = LLVMBuildShl(
        B, biased, LLVMConstInt(it, (unsigned)(mant - 1), 0), "");
    return LLVMBuildFMul(B, y,
                         LLVMBuildBitCast(B, bits, LLVMTypeOf(x), ""), "");
}

/* gcd of two values of int dtype dt: Euclid's on the magnitudes (as
 * unsigned numbers, so |INT_MIN| is right), which gives what Numba's
 * Stein's algorithm gives: gcd(0, b) = |b| wrapped to the type. */
static LLVMValueRef gcd(uf__fn *F, uf_dtype dt, LLVMValueRef a,
                        LLVMValueRef b)
{
    LLVMTypeRef ty = LLVMTypeOf(a);
    LLVMValueRef zero = LLVMConstNull(ty);
    if (uf__dtype_is_signed(dt)) {
        a = LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntSLT, a, zero, ""),
                            LLVMBuildSub(B, zero, a, ""), a, "");
        b = LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntSLT, b, zero, ""),
                            LLVMBuildSub(B, zero, b, ""), b, "");
    }
    LLVMBasicBlockRef pre = LLVMGetInsertBlock(B);
    LLVMBasicBlockRef head = uf__fn_block(F, "gcd.head");
    LLVMBasicBlockRef body = uf__fn_block(F, "gcd.body");
    LLVMBasicBlockRef done = uf__fn_block(F, "gcd.done");
    LLVMBuildBr(B, head);
    LLVMPositionBuilderAtEnd(B, head);
    LLVMValueRef u = LLVMBuildPhi(B, ty, "u");
    LLVMValueRef v = LLVMBuildPhi(B, ty, "v");
    LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntEQ, v, zero, ""), done, body);
    LLVMPositionBuilderAtEnd(B, body);
    /* v != 0 here: urem cannot trap */
    LLVMValueRef r = LLVMBuildURem(B, u, v, "");
    LLVMBuildBr(B, head);
    LLVMValueRef uin[2] = {a, v}, vin[2] = {b, r};
    LLVMBasicBlockRef from[2] = {pre, body};
    LLVMAddIncoming(u, uin, from, 2);
    LLVMAddIncoming(v, vin, from, 2);
    LLVMPositionBuilderAtEnd(B, done);
    return u;
}

/* lcm as Numba: 0 if a == 0 else abs(a * (b // gcd(b, a))), computed in
 * 64 bits (Numba's typing widens the small ints) and wrapped to dt. */
static LLVMValueRef lcm(uf__fn *F, uf_dtype dt, LLVMValueRef a,
                        LLVMValueRef b)
{
    uf_dtype w = uf__dtype_is_signed(dt) ? UF_INT64 : UF_UINT64;
    LLVMValueRef a64 = uf__emit_cast(F, a, dt, w);
    LLVMValueRef b64 = uf__emit_cast(F, b, dt, w);
    LLVMValueRef g = gcd(F, w, b64, a64);
    LLVMValueRef q = uf__emit_binop(F, UF__OP_FLOORDIV, w, b64, g);
    LLVMValueRef m = LLVMBuildMul(B, a64, q, "");
    LLVMValueRef zero = LLVMConstNull(LLVMTypeOf(m));
    if (w == UF_INT64)
        m = LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntSLT, m, zero, ""),
                            LLVMBuildSub(B, zero, m, ""), m, "");
    m = LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntEQ, a64, zero, ""), zero,
                        m, "");
    return uf__emit_cast(F, m, w, dt);
}

/* The sign bit of a float (NaNs included). */
static LLVMValueRef sign_bit(uf__fn *F, uf_dtype dt, LLVMValueRef x)
{
    LLVMTypeRef it = LLVMIntTypeInContext(F->L->ctx,
                                          dt == UF_FLOAT32 ? 32 : 64);
    LLVMValueRef bits = LLVMBuildBitCast(B, x, it, "");
    return LLVMBuildICmp(B, LLVMIntSLT, bits, LLVMConstNull(it), "");
}

static uf__cmpop cmp_of(uf__builtin bi)
{
    switch (bi) {
    case UF__BI_NP_GREATER: return UF__CMP_GT;
    case UF__BI_NP_GREATER_EQUAL: return UF__CMP_GE;
    case UF__BI_NP_LESS: return UF__CMP_LT;
    case UF__BI_NP_LESS_EQUAL: return UF__CMP_LE;
    case UF__BI_NP_EQUAL: return UF__CMP_EQ;
    default: return UF__CMP_NE;
    }
}

/* int64 against uint64 (NumPy 2's 'lL' and 'Ll' loops): a negative signed
 * value is below every unsigned one, else both compare as unsigned. */
static LLVMValueRef mixed_cmp(uf__fn *F, uf__cmpop op, bool first_signed,
                              LLVMValueRef a, LLVMValueRef b)
{
    LLVMValueRef zero = LLVMConstNull(LLVMTypeOf(a));
    LLVMValueRef neg = LLVMBuildICmp(B, LLVMIntSLT, first_signed ? a : b,
                                     zero, "");
    LLVMValueRef u = uf__emit_cmp(F, op, UF_UINT64, a, b);
    /* with the signed one negative: a < b when a is the signed one */
    bool lt = first_signed;
    LLVMValueRef t = LLVMConstInt(LLVMInt1TypeInContext(F->L->ctx), 1, 0);
    LLVMValueRef f = LLVMConstNull(LLVMInt1TypeInContext(F->L->ctx));
    LLVMValueRef when_neg;
    switch (op) {
    case UF__CMP_LT: case UF__CMP_LE: when_neg = lt ? t : f; break;
    case UF__CMP_GT: case UF__CMP_GE: when_neg = lt ? f : t; break;
    case UF__CMP_EQ: when_neg = f; break;
    default: when_neg = t; break;
    }
    return LLVMBuildSelect(B, neg, when_neg, u, "");
}

/* The ufunc on operands converted to the loop's dtypes t[0..nin); the
 * result in the loop's output dtype t[nin] (the first for divmod, whose
 * second goes to *second). */
static LLVMValueRef compute(uf__fn *F, const uf__expr *e, uf__builtin bi,
                            const uf_dtype *t, LLVMValueRef *a,
                            LLVMValueRef *second)
{
    uf_dtype dt = t[0];
    bool is_bool = dt == UF_BOOL, is_int = uf__dtype_is_int(dt);
    bool is_float = uf__dtype_is_float(dt);
    bool is_complex = uf__dtype_is_complex(dt);
    switch (bi) {
    case UF__BI_NP_ADD:
        if (is_bool)
            return LLVMBuildOr(B, a[0], a[1], "");
        return uf__emit_binop(F, UF__OP_ADD, dt, a[0], a[1]);
    case UF__BI_NP_SUBTRACT:
        return uf__emit_binop(F, UF__OP_SUB, dt, a[0], a[1]);
    case UF__BI_NP_MULTIPLY:
        if (is_bool)
            return LLVMBuildAnd(B, a[0], a[1], "");
        return uf__emit_binop(F, UF__OP_MUL, dt, a[0], a[1]);
    case UF__BI_NP_TRUE_DIVIDE:
        if (is_complex)
            return complex_div(F, dt, a[0], a[1]);
        return LLVMBuildFDiv(B, a[0], a[1], "");
    case UF__BI_NP_FLOOR_DIVIDE:
        if (is_float)
            return float_floordiv(F, a[0], a[1]);
        return uf__emit_binop(F, UF__OP_FLOORDIV, dt, a[0], a[1]);
    case UF__BI_NP_REMAINDER:
        if (is_float)
            return float_remainder(F, dt, a[0], a[1]);
        return uf__emit_binop(F, UF__OP_MOD, dt, a[0], a[1]);
    case UF__BI_NP_DIVMOD:
        if (is_float) {
            *second = float_remainder(F, dt, a[0], a[1]);
            return float_floordiv(F, a[0], a[1]);
        }
        *second = uf__emit_binop(F, UF__OP_MOD, dt, a[0], a[1]);
        return uf__emit_binop(F, UF__OP_FLOORDIV, dt, a[0], a[1]);
    case UF__BI_NP_NEGATIVE:
        return uf__emit_unop(F, UF__OP_NEG, dt, a[0]);
    case UF__BI_NP_POSITIVE:
        return a[0];
    case UF__BI_NP_POWER: /* ints: in the loop's dtype, 0 ** -1 INT_MIN */
    case UF__BI_NP_FLOAT_POWER:
        return uf__emit_binop(F, UF__OP_POW, dt, a[0], a[1]);
    case UF__BI_NP_RECIPROCAL:
        if (is_float)
            return LLVMBuildFDiv(B, fconst(F, dt, 1.0), a[0], "");
        if (is_int) /* through float64, as NumPy's loop */
            return uf__emit_cast(
                F,
                LLVMBuildFDiv(B, fconst(F, UF_FLOAT64, 1.0),
                              uf__emit_cast(F, a[0], dt, UF_FLOAT64), ""),
                UF_FLOAT64, dt);
        break;
    case UF__BI_NP_LOGADDEXP:
    case UF__BI_NP_LOGADDEXP2:
        if (is_float)
            return logaddexp(F, dt, a[0], a[1], bi == UF__BI_NP_LOGADDEXP2);
        break;
    case UF__BI_NP_EXP2:
        if (is_float)
            return math1(F, "exp2", a[0]);
        break;
    case UF__BI_NP_CBRT:
        return math1(F, "cbrt", a[0]);
    case UF__BI_NP_ARCSINH:
        if (is_float)
            return math1(F, "asinh", a[0]);
        break;
    case UF__BI_NP_ARCCOSH:
        if (is_float)
            return math1(F, "acosh", a[0]);
        break;
    case UF__BI_NP_ARCTANH:
        if (is_float)
            return math1(F, "atanh", a[0]);
        break;
    case UF__BI_NP_GCD:
        return gcd(F, dt, a[0], a[1]);
    case UF__BI_NP_LCM:
        return lcm(F, dt, a[0], a[1]);
    case UF__BI_NP_BITWISE_AND:
        return uf__emit_binop(F, UF__OP_BITAND, dt, a[0], a[1]);
    case UF__BI_NP_BITWISE_OR:
        return uf__emit_binop(F, UF__OP_BITOR, dt, a[0], a[1]);
    case UF__BI_NP_BITWISE_XOR:
        return uf__emit_binop(F, UF__OP_BITXOR, dt, a[0], a[1]);
    case UF__BI_NP_INVERT:
        return uf__emit_unop(F, UF__OP_INVERT, dt, a[0]);
    case UF__BI_NP_LEFT_SHIFT:
        return uf__emit_binop(F, UF__OP_LSHIFT, dt, a[0], a[1]);
    case UF__BI_NP_RIGHT_SHIFT:
        return uf__emit_binop(F, UF__OP_RSHIFT, dt, a[0], a[1]);
    case UF__BI_NP_GREATER: case UF__BI_NP_GREATER_EQUAL:
    case UF__BI_NP_LESS: case UF__BI_NP_LESS_EQUAL:
    case UF__BI_NP_EQUAL: case UF__BI_NP_NOT_EQUAL: {
        uf__cmpop op = cmp_of(bi);
        if (t[0] != t[1]) /* 'lL' or 'Ll' */
            return mixed_cmp(F, op, t[0] == UF_INT64, a[0], a[1]);
        if (is_complex && op != UF__CMP_EQ && op != UF__CMP_NE)
            break;
        return uf__emit_cmp(F, op, dt, a[0], a[1]);
    }
    case UF__BI_NP_LOGICAL_AND:
        return LLVMBuildAnd(B, uf__emit_truth(F, a[0], dt),
                            uf__emit_truth(F, a[1], dt), "");
    case UF__BI_NP_LOGICAL_OR:
        return LLVMBuildOr(B, uf__emit_truth(F, a[0], dt),
                           uf__emit_truth(F, a[1], dt), "");
    case UF__BI_NP_LOGICAL_XOR:
        return LLVMBuildXor(B, uf__emit_truth(F, a[0], dt),
                            uf__emit_truth(F, a[1], dt), "");
    case UF__BI_NP_LOGICAL_NOT:
        return LLVMBuildNot(B, uf__emit_truth(F, a[0], dt), "");
    case UF__BI_NP_SIGNBIT:
        return sign_bit(F, dt, a[0]);
    case UF__BI_NP_NEXTAFTER:
        return uf__emit_mathfn(F, "nextafter", a, 2);
    case UF__BI_NP_SPACING: {
        /* Numba: nextafter(x, copysign(inf, x)) - x */
        LLVMValueRef to[2] = {fconst(F, dt, INFINITY), a[0]};
        LLVMValueRef away[2] = {a[0], uf__emit_mathfn(F, "copysign", to, 2)};
        return LLVMBuildFSub(B, uf__emit_mathfn(F, "nextafter", away, 2),
                             a[0], "");
    }
    case UF__BI_NP_LDEXP:
        return ldexp_(F, dt, a[0], uf__emit_cast(F, a[1], t[1], UF_INT32));
    default:
        break;
    }
    return refuse(F, e, bi, dt);
}

LLVMValueRef uf__emit_npufunc(uf__fn *F, const uf__expr *e, uf__builtin bi,
                              const uf_dtype *ad, LLVMValueRef *a,
                              uf_dtype rd)
{
    const uf__ufunc_loops *row = uf__npufunc_loops(bi);
    uf_dtype t[4];
    LLVMValueRef x[2];
    if (row == NULL || row->nout != 1 || row->nin > 2 ||
        !uf__ufunc_select_loop(row->loops, row->nin, row->nout, ad, t))
        return refuse(F, e, bi, ad[0]);
    for (int i = 0; i < row->nin; i++)
        x[i] = uf__emit_cast(F, a[i], ad[i], t[i]);
    bool model = F->numpy_model;
    F->numpy_model = true;
    LLVMValueRef second = NULL;
    LLVMValueRef r = compute(F, e, bi, t, x, &second);
    F->numpy_model = model;
    return r ? uf__emit_cast(F, r, t[row->nin], rd) : NULL;
}

LLVMValueRef uf__lower_npufunc(uf__fn *F, const uf__expr *e)
{
    const uf__expr_info *in = uf__lower_info(F, e);
    uf__builtin bi = in->builtin;
    const uf__ufunc_loops *row = uf__npufunc_loops(bi);
    const uf__type *rt = in->type;
    if (bi == UF__BI_NP_DIVMOD && rt && rt->kind == UF__T_TUPLE &&
        rt->n == 2 && rt->elts[0]->kind == UF__T_ARRAY)
        return uf__lower_arrexpr_divmod(F, e); /* two new arrays */
    if (row == NULL || e->kind != UF__EX_CALL || e->u.call.nargs != row->nin ||
        rt == NULL) {
        uf__source_error(F->err, UF_ERR_INTERNAL, F->tf->km->src, e->pos,
                         "lowering: %s called as it was not typed",
                         uf__builtin_name(bi));
        return NULL;
    }
    uf_dtype ad[2], t[4];
    LLVMValueRef a[2];
    for (int i = 0; i < row->nin; i++) {
        const uf__type *at = uf__lower_info(F, e->u.call.args[i])->type;
        if (at == NULL || at->kind != UF__T_SCALAR)
            return refuse(F, e, bi, UF_NTYPES);
        ad[i] = at->dtype;
    }
    if (!uf__ufunc_select_loop(row->loops, row->nin, row->nout, ad, t))
        return refuse(F, e, bi, ad[0]);
    for (int i = 0; i < row->nin; i++) {
        if (!(a[i] = uf__lower_expr(F, e->u.call.args[i])))
            return NULL;
        a[i] = uf__emit_cast(F, a[i], ad[i], t[i]);
    }
    /* a ufunc never raises: NumPy's error model whatever the function's */
    bool model = F->numpy_model;
    F->numpy_model = true;
    LLVMValueRef second = NULL;
    LLVMValueRef r = compute(F, e, bi, t, a, &second);
    F->numpy_model = model;
    if (r == NULL)
        return NULL;
    if (row->nout == 1)
        return uf__emit_cast(F, r, t[row->nin], rt->dtype);
    LLVMValueRef tup = LLVMGetUndef(uf__lower_type(F->L, rt, F->err));
    tup = LLVMBuildInsertValue(
        B, tup, uf__emit_cast(F, r, t[row->nin], rt->elts[0]->dtype), 0, "");
    return LLVMBuildInsertValue(
        B, tup, uf__emit_cast(F, second, t[row->nin + 1], rt->elts[1]->dtype),
        1, "");
}
