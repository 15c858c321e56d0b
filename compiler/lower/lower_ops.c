/* Operators and conversions with Python/Numba semantics on LLVM values
 * (the typed expressions that use them are in lower_expr.c).
 *
 * Integer arithmetic wraps (no nsw/nuw: overflow must not become undefined
 * behaviour the optimiser exploits). // and % floor towards minus infinity
 * with the sign of the divisor (CPython's and Numba's algorithms, for ints
 * and floats). Division by zero: NumPy's error model gives 0 for ints and
 * inf/nan for floats; Python's raises through the function's status. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/error_internal.h"
#include "compiler/lower/lower.h"

#define B (F->L->b)

LLVMValueRef uf__emit_const_int(uf__fn *F, uf_dtype dt, int64_t v)
{
    return LLVMConstInt(uf__lower_dtype(F->L, dt), (unsigned long long)v,
                        uf__dtype_is_signed(dt));
}

LLVMValueRef uf__emit_const_float(uf__fn *F, uf_dtype dt, double v)
{
    return LLVMConstReal(uf__lower_dtype(F->L, uf__dtype_part(dt)), v);
}

LLVMValueRef uf__emit_complex(uf__fn *F, uf_dtype cdt, LLVMValueRef re,
                              LLVMValueRef im)
{
    LLVMValueRef z = LLVMGetUndef(uf__lower_dtype(F->L, cdt));
    z = LLVMBuildInsertValue(B, z, re, 0, "");
    return LLVMBuildInsertValue(B, z, im, 1, "");
}

LLVMValueRef uf__emit_real(uf__fn *F, LLVMValueRef z)
{
    return LLVMBuildExtractValue(B, z, 0, "re");
}

LLVMValueRef uf__emit_imag(uf__fn *F, LLVMValueRef z)
{
    return LLVMBuildExtractValue(B, z, 1, "im");
}

static unsigned dtype_bits(uf_dtype dt)
{
    return dt == UF_BOOL ? 1 : (unsigned)uf_dtype_itemsize(dt) * 8;
}

LLVMValueRef uf__emit_truth(uf__fn *F, LLVMValueRef v, uf_dtype dt)
{
    if (dt == UF_BOOL)
        return v;
    if (uf__dtype_is_int(dt))
        return LLVMBuildICmp(B, LLVMIntNE, v, LLVMConstNull(LLVMTypeOf(v)),
                             "");
    if (uf__dtype_is_float(dt)) /* une: NaN is true, as in Python */
        return LLVMBuildFCmp(B, LLVMRealUNE, v, LLVMConstNull(LLVMTypeOf(v)),
                             "");
    LLVMValueRef re = uf__emit_real(F, v), im = uf__emit_imag(F, v);
    LLVMValueRef zero = LLVMConstNull(LLVMTypeOf(re));
    return LLVMBuildOr(B, LLVMBuildFCmp(B, LLVMRealUNE, re, zero, ""),
                       LLVMBuildFCmp(B, LLVMRealUNE, im, zero, ""), "");
}

LLVMValueRef uf__emit_cast(uf__fn *F, LLVMValueRef v, uf_dtype from,
                           uf_dtype to)
{
    if (from == to)
        return v;
    LLVMTypeRef tt = uf__lower_dtype(F->L, to);
    if (uf__dtype_is_complex(from)) {
        if (to == UF_BOOL)
            return uf__emit_truth(F, v, from);
        uf_dtype pf = uf__dtype_part(from);
        if (uf__dtype_is_complex(to)) {
            uf_dtype pt = uf__dtype_part(to);
            return uf__emit_complex(
                F, to, uf__emit_cast(F, uf__emit_real(F, v), pf, pt),
                uf__emit_cast(F, uf__emit_imag(F, v), pf, pt));
        }
        /* NumPy's complex -> real cast keeps the real part */
        return uf__emit_cast(F, uf__emit_real(F, v), pf, to);
    }
    if (uf__dtype_is_complex(to)) {
        uf_dtype pt = uf__dtype_part(to);
        return uf__emit_complex(F, to, uf__emit_cast(F, v, from, pt),
                                uf__emit_const_float(F, pt, 0.0));
    }
    if (to == UF_BOOL)
        return uf__emit_truth(F, v, from);
    if (from == UF_BOOL)
        return uf__dtype_is_float(to) ? LLVMBuildUIToFP(B, v, tt, "")
                                      : LLVMBuildZExt(B, v, tt, "");
    if (uf__dtype_is_int(from)) {
        bool sgn = uf__dtype_is_signed(from);
        if (uf__dtype_is_float(to))
            return sgn ? LLVMBuildSIToFP(B, v, tt, "")
                       : LLVMBuildUIToFP(B, v, tt, "");
        unsigned fb = dtype_bits(from), tb = dtype_bits(to);
        if (fb == tb)
            return v;
        if (fb > tb)
            return LLVMBuildTrunc(B, v, tt, "");
        return sgn ? LLVMBuildSExt(B, v, tt, "") : LLVMBuildZExt(B, v, tt, "");
    }
    /* from a float */
    if (uf__dtype_is_float(to))
        return dtype_bits(to) > dtype_bits(from)
                   ? LLVMBuildFPExt(B, v, tt, "")
                   : LLVMBuildFPTrunc(B, v, tt, "");
    /* Numba's fptosi/fptoui: NaN and out-of-range values are poison in
     * LLVM; freezing makes them an unspecified value (on x86-64 the
     * hardware's INT_MIN pattern) instead of undefined behaviour */
    LLVMValueRef r = uf__dtype_is_signed(to) ? LLVMBuildFPToSI(B, v, tt, "")
                                             : LLVMBuildFPToUI(B, v, tt, "");
    return LLVMBuildFreeze(B, r, "");
}

LLVMValueRef uf__emit_convert(uf__fn *F, LLVMValueRef v, const uf__type *from,
                              const uf__type *to)
{
    if (from == to || !from || !to)
        return v;
    if (from->kind == UF__T_SCALAR && to->kind == UF__T_SCALAR)
        return uf__emit_cast(F, v, from->dtype, to->dtype);
    if (from->kind == UF__T_STR && to->kind == UF__T_USTR) /* lower_ustr.c */
        return uf__lower_ustr_literal(F, from->name, (size_t)from->n);
    if (from->kind == UF__T_TUPLE && to->kind == UF__T_TUPLE &&
        from->n == to->n) {
        LLVMTypeRef tt = uf__lower_type(F->L, to, F->err);
        if (!tt)
            return NULL;
        LLVMValueRef r = LLVMGetUndef(tt);
        for (int i = 0; i < to->n; i++) {
            LLVMValueRef e = LLVMBuildExtractValue(B, v, (unsigned)i, "");
            e = uf__emit_convert(F, e, from->elts[i], to->elts[i]);
            if (!e)
                return NULL;
            r = LLVMBuildInsertValue(B, r, e, (unsigned)i, "");
        }
        return r;
    }
    if (from->kind == to->kind && from->kind == UF__T_NONE)
        return v;
    if (from->kind == UF__T_LIST && to->kind == UF__T_LIST) /* lower_list.c */
        return uf__lower_list_convert(F, v, from, to);
    if (from->kind == UF__T_SET && to->kind == UF__T_SET) /* lower_set.c */
        return uf__lower_set_convert(F, v, from, to);
    if (from->kind == UF__T_DICT && to->kind == UF__T_DICT) /* lower_dict.c */
        return uf__lower_dict_convert(F, v, from, to);
    /* an array seen with a weaker layout ('C' as 'A'): the same struct */
    if (from->kind == UF__T_ARRAY && to->kind == UF__T_ARRAY &&
        from->ndim == to->ndim && from->dtype == to->dtype)
        return v;
    uf__error_set(F->err, UF_ERR_INTERNAL,
                  "lowering: cannot convert a value of kind %d to kind %d",
                  (int)from->kind, (int)to->kind);
    return NULL;
}

/* ---- integer and float division --------------------------------------- */

/* CPython's floor division and modulo for ints (Numba's int_divmod):
 * b == 0 gives 0 (NumPy model; the caller raised already otherwise) and
 * INT_MIN // -1 gives 0 as in Numba (x86 would trap). */
static LLVMValueRef int_divmod(uf__fn *F, uf_dtype dt, LLVMValueRef a,
                               LLVMValueRef b, bool want_mod)
{
    LLVMTypeRef ty = LLVMTypeOf(a);
    LLVMValueRef zero = LLVMConstNull(ty), one = LLVMConstInt(ty, 1, 0);
    LLVMValueRef bad = LLVMBuildICmp(B, LLVMIntEQ, b, zero, "");
    if (uf__dtype_is_signed(dt)) {
        unsigned bits = dtype_bits(dt);
        LLVMValueRef minv = LLVMConstShl(one, LLVMConstInt(ty, bits - 1, 0));
        LLVMValueRef ovf = LLVMBuildAnd(
            B, LLVMBuildICmp(B, LLVMIntEQ, a, minv, ""),
            LLVMBuildICmp(B, LLVMIntEQ, b, LLVMConstAllOnes(ty), ""), "");
        bad = LLVMBuildOr(B, bad, ovf, "");
    }
    LLVMValueRef sb = LLVMBuildSelect(B, bad, one, b, "");
    LLVMValueRef r;
    if (!uf__dtype_is_signed(dt)) {
        r = want_mod ? LLVMBuildURem(B, a, sb, "") : LLVMBuildUDiv(B, a, sb, "");
    } else {
        LLVMValueRef q = LLVMBuildSDiv(B, a, sb, "");
        LLVMValueRef m = LLVMBuildSRem(B, a, sb, "");
        /* the remainder takes the divisor's sign */
        LLVMValueRef fix = LLVMBuildAnd(
            B, LLVMBuildICmp(B, LLVMIntNE, m, zero, ""),
            LLVMBuildICmp(B, LLVMIntSLT, LLVMBuildXor(B, m, sb, ""), zero, ""),
            "");
        r = want_mod ? LLVMBuildSelect(B, fix, LLVMBuildAdd(B, m, sb, ""), m, "")
                     : LLVMBuildSelect(B, fix, LLVMBuildSub(B, q, one, ""), q,
                                       "");
    }
    return LLVMBuildSelect(B, bad, zero, r, "");
}

/* CPython's float_divmod (Numba's real_divmod): mod = fmod(a, b) moved to
 * the divisor's sign; the quotient snapped to an integer, zero quotients
 * signed as a/b. For b == 0 NumPy's model gives a/b and fmod(a, b). */
static LLVMValueRef float_divmod(uf__fn *F, LLVMValueRef a, LLVMValueRef b,
                                 bool want_mod)
{
    LLVMTypeRef ty = LLVMTypeOf(a);
    LLVMValueRef zero = LLVMConstReal(ty, 0.0), nzero = LLVMConstReal(ty, -0.0);
    LLVMValueRef one = LLVMConstReal(ty, 1.0), half = LLVMConstReal(ty, 0.5);
    LLVMValueRef mod = uf__emit_fmod(F, a, b);
    LLVMValueRef div = LLVMBuildFDiv(B, LLVMBuildFSub(B, a, mod, ""), b, "");
    LLVMValueRef mod_nz = LLVMBuildFCmp(B, LLVMRealUNE, mod, zero, "");
    LLVMValueRef signs = LLVMBuildXor(
        B, LLVMBuildFCmp(B, LLVMRealOLT, b, zero, ""),
        LLVMBuildFCmp(B, LLVMRealOLT, mod, zero, ""), "");
    LLVMValueRef fix = LLVMBuildAnd(B, mod_nz, signs, "");
    LLVMValueRef mod1 = LLVMBuildSelect(B, fix, LLVMBuildFAdd(B, mod, b, ""),
                                        mod, "");
    /* a zero remainder gets the divisor's sign (+0 unless b < 0) */
    LLVMValueRef mod0 = LLVMBuildSelect(
        B, LLVMBuildFCmp(B, LLVMRealOLT, b, zero, ""), nzero, zero, "");
    mod1 = LLVMBuildSelect(B, mod_nz, mod1, mod0, "");
    LLVMValueRef bzero = LLVMBuildFCmp(B, LLVMRealOEQ, b, zero, "");
    if (want_mod)
        return LLVMBuildSelect(B, bzero, mod, mod1, "");

    LLVMValueRef div1 = LLVMBuildSelect(B, fix, LLVMBuildFSub(B, div, one, ""),
                                        div, "");
    LLVMValueRef fl = uf__emit_mathfn(F, "floor", &div1, 1);
    LLVMValueRef up = LLVMBuildFCmp(
        B, LLVMRealOGT, LLVMBuildFSub(B, div1, fl, ""), half, "");
    fl = LLVMBuildSelect(B, up, LLVMBuildFAdd(B, fl, one, ""), fl, "");
    /* div == 0: div*div*a/b is a zero with the sign of the quotient */
    LLVMValueRef z = LLVMBuildFDiv(
        B, LLVMBuildFMul(B, LLVMBuildFMul(B, div1, div1, ""), a, ""), b, "");
    LLVMValueRef div_nz = LLVMBuildFCmp(B, LLVMRealUNE, div1, zero, "");
    LLVMValueRef q = LLVMBuildSelect(B, div_nz, fl, z, "");
    return LLVMBuildSelect(B, bzero, LLVMBuildFDiv(B, a, b, ""), q, "");
}

/* NumPy's shifts: counts outside [0, bits) give 0 (or -1 for right shifts
 * of negative numbers) instead of LLVM's poison. */
static LLVMValueRef shift(uf__fn *F, uf_dtype dt, LLVMValueRef a,
                          LLVMValueRef b, bool left)
{
    LLVMTypeRef ty = LLVMTypeOf(a);
    unsigned bits = dtype_bits(dt);
    LLVMValueRef inrange = LLVMBuildICmp(B, LLVMIntULT, b,
                                         LLVMConstInt(ty, bits, 0), "");
    LLVMValueRef cnt = LLVMBuildAnd(B, b, LLVMConstInt(ty, bits - 1, 0), "");
    if (left)
        return LLVMBuildSelect(B, inrange, LLVMBuildShl(B, a, cnt, ""),
                               LLVMConstNull(ty), "");
    if (!uf__dtype_is_signed(dt))
        return LLVMBuildSelect(B, inrange, LLVMBuildLShr(B, a, cnt, ""),
                               LLVMConstNull(ty), "");
    LLVMValueRef fill = LLVMBuildAShr(B, a, LLVMConstInt(ty, bits - 1, 0), "");
    return LLVMBuildSelect(B, inrange, LLVMBuildAShr(B, a, cnt, ""), fill, "");
}

/* ---- powers ------------------------------------------------------------ */

/* Numba's inversion for a negative exponent of an integer power: r is
 * base ** |n|; base 0 -> INT_MIN (NumPy model; Python's raised before),
 * +-1 -> r, else 0. */
static LLVMValueRef int_invert(uf__fn *F, uf_dtype dt, LLVMValueRef base,
                               LLVMValueRef r)
{
    LLVMTypeRef ty = LLVMTypeOf(r);
    LLVMValueRef zero = LLVMConstNull(ty);
    LLVMValueRef is0 = LLVMBuildICmp(B, LLVMIntEQ, base, zero, "");
    LLVMValueRef unit = LLVMBuildOr(
        B, LLVMBuildICmp(B, LLVMIntEQ, base, LLVMConstInt(ty, 1, 0), ""),
        LLVMBuildICmp(B, LLVMIntEQ, base, LLVMConstAllOnes(ty), ""), "");
    LLVMValueRef minv = LLVMConstShl(LLVMConstInt(ty, 1, 0),
                                     LLVMConstInt(ty, dtype_bits(dt) - 1, 0));
    LLVMValueRef v = LLVMBuildSelect(B, unit, r, zero, "");
    return LLVMBuildSelect(B, is0, minv, v, "");
}

static LLVMValueRef mul(uf__fn *F, uf_dtype dt, LLVMValueRef a, LLVMValueRef b)
{
    if (uf__dtype_is_float(dt))
        return LLVMBuildFMul(B, a, b, "");
    if (uf__dtype_is_complex(dt))
        return uf__emit_cmul(F, dt, a, b);
    return LLVMBuildMul(B, a, b, "");
}

static LLVMValueRef one_of(uf__fn *F, uf_dtype dt)
{
    if (uf__dtype_is_float(dt))
        return uf__emit_const_float(F, dt, 1.0);
    if (uf__dtype_is_complex(dt))
        return uf__emit_complex(F, dt, uf__emit_const_float(F, dt, 1.0),
                                uf__emit_const_float(F, dt, 0.0));
    return uf__emit_const_int(F, dt, 1);
}

LLVMValueRef uf__emit_pow_const(uf__fn *F, uf_dtype dt, LLVMValueRef base,
                                int64_t k)
{
    uint64_t e = k < 0 ? 0 - (uint64_t)k : (uint64_t)k;
    LLVMValueRef res = NULL, val = base;
    while (e != 0) {
        if (e & 1)
            res = res ? mul(F, dt, res, val) : val;
        e >>= 1;
        if (e)
            val = mul(F, dt, val, val);
    }
    if (!res)
        res = one_of(F, dt);
    if (k >= 0)
        return res;
    if (uf__dtype_is_float(dt))
        return LLVMBuildFDiv(B, one_of(F, dt), res, "");
    if (uf__dtype_is_complex(dt))
        return uf__emit_cdiv(F, dt, one_of(F, dt), res);
    uf__fn_raise_if(F, LLVMBuildICmp(B, LLVMIntEQ, base,
                                     LLVMConstNull(LLVMTypeOf(base)), ""),
                    UF__JIT_ZEROPOW);
    return int_invert(F, dt, base, res);
}

LLVMValueRef uf__emit_pow_int(uf__fn *F, uf_dtype dt, LLVMValueRef base,
                              uf_dtype ndt, LLVMValueRef n)
{
    LLVMTypeRef i64 = LLVMInt64TypeInContext(F->L->ctx);
    LLVMValueRef n64 = uf__emit_cast(F, n, ndt, uf__dtype_is_signed(ndt)
                                                    ? UF_INT64 : UF_UINT64);
    LLVMValueRef zero64 = LLVMConstNull(i64);
    LLVMValueRef neg = uf__dtype_is_signed(ndt)
                           ? LLVMBuildICmp(B, LLVMIntSLT, n64, zero64, "")
                           : LLVMConstInt(LLVMInt1TypeInContext(F->L->ctx), 0,
                                          0);
    LLVMValueRef e0 = LLVMBuildSelect(B, neg, LLVMBuildSub(B, zero64, n64, ""),
                                      n64, "");
    bool is_int = uf__dtype_is_int(dt);
    if (is_int && uf__dtype_is_signed(ndt)) {
        /* 0 ** -n raises before anything is computed in Python's model */
        LLVMValueRef is0 = LLVMBuildICmp(
            B, LLVMIntEQ, base, LLVMConstNull(LLVMTypeOf(base)), "");
        uf__fn_raise_if(F, LLVMBuildAnd(B, neg, is0, ""), UF__JIT_ZEROPOW);
    }
    /* past 2**16 Numba falls back on math.pow */
    LLVMValueRef big = LLVMBuildICmp(B, LLVMIntUGT, e0,
                                     LLVMConstInt(i64, 0x10000, 0), "");
    LLVMBasicBlockRef pre = LLVMGetInsertBlock(B);
    LLVMBasicBlockRef hdr = uf__fn_block(F, "pow.hdr");
    LLVMBasicBlockRef body = uf__fn_block(F, "pow.body");
    LLVMBasicBlockRef bigbb = uf__fn_block(F, "pow.big");
    LLVMBasicBlockRef done = uf__fn_block(F, "pow.done");
    LLVMBuildCondBr(B, big, bigbb, hdr);

    LLVMTypeRef ty = LLVMTypeOf(base);
    LLVMPositionBuilderAtEnd(B, hdr);
    LLVMValueRef r = LLVMBuildPhi(B, ty, "r");
    LLVMValueRef x = LLVMBuildPhi(B, ty, "x");
    LLVMValueRef e = LLVMBuildPhi(B, i64, "e");
    LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntNE, e, zero64, ""), body, done);

    LLVMPositionBuilderAtEnd(B, body);
    LLVMValueRef odd = LLVMBuildTrunc(B, e, LLVMInt1TypeInContext(F->L->ctx),
                                      "");
    LLVMValueRef r2 = LLVMBuildSelect(B, odd, mul(F, dt, r, x), r, "");
    LLVMValueRef x2 = mul(F, dt, x, x);
    LLVMValueRef e2 = LLVMBuildLShr(B, e, LLVMConstInt(i64, 1, 0), "");
    LLVMBuildBr(B, hdr);
    LLVMValueRef one = one_of(F, dt);
    LLVMValueRef rin[2] = {one, r2}, xin[2] = {base, x2}, ein[2] = {e0, e2};
    LLVMBasicBlockRef from[2] = {pre, body};
    LLVMAddIncoming(r, rin, from, 2);
    LLVMAddIncoming(x, xin, from, 2);
    LLVMAddIncoming(e, ein, from, 2);

    LLVMPositionBuilderAtEnd(B, bigbb);
    LLVMValueRef pa[2] = {uf__emit_cast(F, base, dt, UF_FLOAT64),
                          uf__emit_cast(F, n, ndt, UF_FLOAT64)};
    LLVMValueRef pw = uf__emit_mathfn(F, "pow", pa, 2);
    pw = uf__emit_cast(F, pw, UF_FLOAT64, dt);
    LLVMBasicBlockRef bigend = LLVMGetInsertBlock(B);
    LLVMBuildBr(B, done);

    LLVMPositionBuilderAtEnd(B, done);
    LLVMValueRef res = LLVMBuildPhi(B, ty, "pow");
    LLVMValueRef vin[2] = {r, pw};
    LLVMBasicBlockRef vfrom[2] = {hdr, bigend};
    LLVMAddIncoming(res, vin, vfrom, 2);
    if (!uf__dtype_is_signed(ndt))
        return res;
    if (is_int) /* +-1 ** -big comes exactly from math.pow */
        return LLVMBuildSelect(B, neg, int_invert(F, dt, base, res), res, "");
    LLVMValueRef inv = LLVMBuildFDiv(B, one_of(F, dt), res, "");
    return LLVMBuildSelect(
        B, LLVMBuildAnd(B, neg, LLVMBuildNot(B, big, ""), ""), inv, res, "");
}

/* ---- binary operators --------------------------------------------------- */

static const char *const binop_names[] = {
    [UF__OP_ADD] = "+", [UF__OP_SUB] = "-", [UF__OP_MUL] = "*",
    [UF__OP_DIV] = "/", [UF__OP_FLOORDIV] = "//", [UF__OP_MOD] = "%",
    [UF__OP_POW] = "**", [UF__OP_LSHIFT] = "<<", [UF__OP_RSHIFT] = ">>",
    [UF__OP_BITAND] = "&", [UF__OP_BITOR] = "|", [UF__OP_BITXOR] = "^",
    [UF__OP_MATMUL] = "@"};
static const char *const cmpop_names[] = {
    [UF__CMP_EQ] = "==", [UF__CMP_NE] = "!=", [UF__CMP_LT] = "<",
    [UF__CMP_LE] = "<=", [UF__CMP_GT] = ">", [UF__CMP_GE] = ">=",
    [UF__CMP_IS] = "is", [UF__CMP_ISNOT] = "is not", [UF__CMP_IN] = "in",
    [UF__CMP_NOTIN] = "not in"};

static LLVMValueRef bad_operand(uf__fn *F, const char *op, uf_dtype dt)
{
    uf__error_set(F->err, UF_ERR_UNSUPPORTED,
                  "lowering: operator %s is not defined for %s", op,
                  uf_dtype_name(dt));
    return NULL;
}

static LLVMValueRef complex_binop(uf__fn *F, uf__binop op, uf_dtype dt,
                                  LLVMValueRef a, LLVMValueRef b)
{
    switch (op) {
    case UF__OP_ADD:
    case UF__OP_SUB: {
        LLVMValueRef re, im;
        if (op == UF__OP_ADD) {
            re = LLVMBuildFAdd(B, uf__emit_real(F, a), uf__emit_real(F, b), "");
            im = LLVMBuildFAdd(B, uf__emit_imag(F, a), uf__emit_imag(F, b), "");
        } else {
            re = LLVMBuildFSub(B, uf__emit_real(F, a), uf__emit_real(F, b), "");
            im = LLVMBuildFSub(B, uf__emit_imag(F, a), uf__emit_imag(F, b), "");
        }
        return uf__emit_complex(F, dt, re, im);
    }
    case UF__OP_MUL:
        return uf__emit_cmul(F, dt, a, b);
    case UF__OP_DIV:
        return uf__emit_cdiv(F, dt, a, b);
    case UF__OP_POW:
        return uf__emit_cpow(F, dt, a, b);
    default:
        return bad_operand(F, binop_names[op], dt);
    }
}

LLVMValueRef uf__emit_binop(uf__fn *F, uf__binop op, uf_dtype dt,
                            LLVMValueRef a, LLVMValueRef b)
{
    if (uf__dtype_is_complex(dt))
        return complex_binop(F, op, dt, a, b);
    if (dt == UF_BOOL) {
        switch (op) {
        case UF__OP_BITAND:
            return LLVMBuildAnd(B, a, b, "");
        case UF__OP_BITOR:
            return LLVMBuildOr(B, a, b, "");
        case UF__OP_BITXOR:
            return LLVMBuildXor(B, a, b, "");
        default: /* arithmetic on bools is arithmetic on int64 */
            return uf__emit_binop(F, op, UF_INT64,
                                  uf__emit_cast(F, a, UF_BOOL, UF_INT64),
                                  uf__emit_cast(F, b, UF_BOOL, UF_INT64));
        }
    }
    if (uf__dtype_is_float(dt)) {
        LLVMValueRef zero = LLVMConstNull(LLVMTypeOf(b));
        switch (op) {
        case UF__OP_ADD:
            return LLVMBuildFAdd(B, a, b, "");
        case UF__OP_SUB:
            return LLVMBuildFSub(B, a, b, "");
        case UF__OP_MUL:
            return LLVMBuildFMul(B, a, b, "");
        case UF__OP_DIV:
            uf__fn_raise_if(F, LLVMBuildFCmp(B, LLVMRealOEQ, b, zero, ""),
                            UF__JIT_ZERODIV);
            return LLVMBuildFDiv(B, a, b, "");
        case UF__OP_FLOORDIV:
            uf__fn_raise_if(F, LLVMBuildFCmp(B, LLVMRealOEQ, b, zero, ""),
                            UF__JIT_ZERODIV);
            return float_divmod(F, a, b, false);
        case UF__OP_MOD:
            uf__fn_raise_if(F, LLVMBuildFCmp(B, LLVMRealOEQ, b, zero, ""),
                            UF__JIT_ZEROMOD);
            return float_divmod(F, a, b, true);
        case UF__OP_POW: {
            LLVMValueRef args[2] = {a, b};
            return uf__emit_mathfn(F, "pow", args, 2);
        }
        default:
            return bad_operand(F, binop_names[op], dt);
        }
    }
    /* integers */
    LLVMValueRef zero = LLVMConstNull(LLVMTypeOf(b));
    switch (op) {
    case UF__OP_ADD:
        return LLVMBuildAdd(B, a, b, "");
    case UF__OP_SUB:
        return LLVMBuildSub(B, a, b, "");
    case UF__OP_MUL:
        return LLVMBuildMul(B, a, b, "");
    case UF__OP_DIV: /* true division of ints is float64 */
        uf__fn_raise_if(F, LLVMBuildICmp(B, LLVMIntEQ, b, zero, ""),
                        UF__JIT_ZERODIV);
        return LLVMBuildFDiv(B, uf__emit_cast(F, a, dt, UF_FLOAT64),
                             uf__emit_cast(F, b, dt, UF_FLOAT64), "");
    case UF__OP_FLOORDIV:
        uf__fn_raise_if(F, LLVMBuildICmp(B, LLVMIntEQ, b, zero, ""),
                        UF__JIT_ZERODIV_INT);
        return int_divmod(F, dt, a, b, false);
    case UF__OP_MOD:
        uf__fn_raise_if(F, LLVMBuildICmp(B, LLVMIntEQ, b, zero, ""),
                        UF__JIT_ZEROMOD_INT);
        return int_divmod(F, dt, a, b, true);
    case UF__OP_POW:
        return uf__emit_pow_int(F, dt, a, dt, b);
    case UF__OP_LSHIFT:
        return shift(F, dt, a, b, true);
    case UF__OP_RSHIFT:
        return shift(F, dt, a, b, false);
    case UF__OP_BITAND:
        return LLVMBuildAnd(B, a, b, "");
    case UF__OP_BITOR:
        return LLVMBuildOr(B, a, b, "");
    case UF__OP_BITXOR:
        return LLVMBuildXor(B, a, b, "");
    default:
        return bad_operand(F, binop_names[op], dt);
    }
}

LLVMValueRef uf__emit_unop(uf__fn *F, uf__unop op, uf_dtype dt,
                           LLVMValueRef v)
{
    switch (op) {
    case UF__OP_POS:
        return v;
    case UF__OP_NOT:
        return LLVMBuildNot(B, uf__emit_truth(F, v, dt), "");
    case UF__OP_NEG:
        if (dt == UF_BOOL)
            return uf__emit_unop(F, op, UF_INT64,
                                 uf__emit_cast(F, v, UF_BOOL, UF_INT64));
        if (uf__dtype_is_float(dt))
            return LLVMBuildFNeg(B, v, "");
        if (uf__dtype_is_complex(dt))
            return uf__emit_complex(F, dt,
                                    LLVMBuildFNeg(B, uf__emit_real(F, v), ""),
                                    LLVMBuildFNeg(B, uf__emit_imag(F, v), ""));
        return LLVMBuildSub(B, LLVMConstNull(LLVMTypeOf(v)), v, "");
    case UF__OP_INVERT:
        /* ~ on bool is `not` in Numba (bool result) */
        if (dt == UF_BOOL || uf__dtype_is_int(dt))
            return LLVMBuildNot(B, v, "");
        return bad_operand(F, "~", dt);
    }
    return bad_operand(F, "unary operator", dt);
}

LLVMValueRef uf__emit_cmp(uf__fn *F, uf__cmpop op, uf_dtype dt,
                          LLVMValueRef a, LLVMValueRef b)
{
    if (uf__dtype_is_complex(dt)) {
        if (op != UF__CMP_EQ && op != UF__CMP_NE)
            return bad_operand(F, cmpop_names[op], dt);
        uf_dtype p = uf__dtype_part(dt);
        LLVMValueRef re = uf__emit_cmp(F, op, p, uf__emit_real(F, a),
                                       uf__emit_real(F, b));
        LLVMValueRef im = uf__emit_cmp(F, op, p, uf__emit_imag(F, a),
                                       uf__emit_imag(F, b));
        return op == UF__CMP_EQ ? LLVMBuildAnd(B, re, im, "")
                                : LLVMBuildOr(B, re, im, "");
    }
    if (uf__dtype_is_float(dt)) {
        LLVMRealPredicate p;
        switch (op) {
        case UF__CMP_EQ: p = LLVMRealOEQ; break;
        case UF__CMP_NE: p = LLVMRealUNE; break; /* NaN != NaN */
        case UF__CMP_LT: p = LLVMRealOLT; break;
        case UF__CMP_LE: p = LLVMRealOLE; break;
        case UF__CMP_GT: p = LLVMRealOGT; break;
        case UF__CMP_GE: p = LLVMRealOGE; break;
        default: return bad_operand(F, cmpop_names[op], dt);
        }
        return LLVMBuildFCmp(B, p, a, b, "");
    }
    bool sgn = uf__dtype_is_signed(dt);
    LLVMIntPredicate p;
    switch (op) {
    case UF__CMP_EQ: p = LLVMIntEQ; break;
    case UF__CMP_NE: p = LLVMIntNE; break;
    case UF__CMP_LT: p = sgn ? LLVMIntSLT : LLVMIntULT; break;
    case UF__CMP_LE: p = sgn ? LLVMIntSLE : LLVMIntULE; break;
    case UF__CMP_GT: p = sgn ? LLVMIntSGT : LLVMIntUGT; break;
    case UF__CMP_GE: p = sgn ? LLVMIntSGE : LLVMIntUGE; break;
    default: return bad_operand(F, cmpop_names[op], dt);
    }
    return LLVMBuildICmp(B, p, a, b, "");
}
