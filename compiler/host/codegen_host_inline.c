/* Vector math in ufjit's own IR (codegen_host.h): exp computed by a small
 * branch-free function of the module, always inlined, so that the loop
 * vectoriser widens it with the rest of the kernel (no call, no spills
 * around one, float32 in float32 lanes) instead of calling libmvec. Used
 * per function, dtype and ISA where it was measured faster than the
 * library call (bench/VECMATH.md, "Inline polynomial"), within the same
 * 4-ulp bound of glibc's scalar libm (tests/test_mvec_ulp.c,
 * tests/test_inline_vecmath.c); UFJIT_INLINE_VECMATH=0 turns it off.
 *
 * exp(x) = 2^k exp(r): k = round(x / ln2) by the shifter trick (adding
 * 1.5 * 2^52 leaves k in the low bits), r = x - k ln2 with ln2 in two
 * parts (Cody-Waite, fdlibm's split), exp(r) = 1 + r + r^2 q(r) with
 * q a minimax polynomial (|r| <= ln2/2: exp of degree 11 for float64, 6
 * for float32, below 0.1 ulp), and 2^k applied in two factors
 * 2^k1 2^k2 built into exponent bits by integer adds, so that results
 * near overflow and in the subnormal range come out of the same code.
 * The input is clamped first (to just past overflow and far below the
 * subnormals), so that inf and 0 come out of the same arithmetic; NaN
 * propagates.
 * Every step is an fma, a multiply, an integer add or shift, or a
 * select: what AVX2 and AVX-512 have for every lane width. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/host/codegen_host.h"

/* Measured (bench/bench_inline_vecmath.c, bench/VECMATH.md, "Inline
 * polynomial"; Intel Xeon, AVX-512): the function, dtype and ISA where the
 * inline code beat the call the JIT would make otherwise. expf on AVX-512:
 * 0.25-0.28 ns/elem against libmvec's 0.27-0.29 and SLEEF's (the pick
 * before) 0.33-0.34. Not picked: exp float64 (AVX-512 0.66-0.67 against
 * libmvec's 0.63-0.65, AVX2 1.06-1.11 against 0.90-0.91) and expf on
 * AVX2 (0.38-0.46 against 0.40-0.42: no clear gain); the code is
 * throughput-bound on the vector ports (25 operations a vector for
 * float64), where libmvec's uses a gathered table and 6 fmas. */
static const struct {
    const char *func;
    unsigned char kinds; /* UF__MVEC_* */
} inline_choices[] = {
    {"exp", UF__MVEC_E32},
};
enum { NCHOICES = sizeof inline_choices / sizeof inline_choices[0] };

int uf__host_inline_probe(bool avx2, bool avx512, bool fma,
                          uf__host_vmath *vm)
{
    memset(vm->inl, 0, sizeof vm->inl);
    const char *env = getenv("UFJIT_INLINE_VECMATH");
    bool all = env && strcmp(env, "1") == 0;
    if (env && strcmp(env, "0") == 0) {
        snprintf(vm->inline_why, sizeof vm->inline_why,
                 "off (UFJIT_INLINE_VECMATH=0)");
        return 0;
    }
    /* the code is fmas: without the instruction each is a libm call */
    if (!avx2 || !fma) {
        snprintf(vm->inline_why, sizeof vm->inline_why,
                 "not used (no AVX2 and FMA)");
        return 0;
    }
    unsigned char usable = UF__MVEC_D64 | UF__MVEC_D32;
    if (avx512)
        usable |= UF__MVEC_E64 | UF__MVEC_E32;
    int n = 0;
    for (int c = 0; c < NCHOICES; c++) {
        int f = uf__host_mvec_index(inline_choices[c].func);
        if (f < 0)
            continue;
        vm->inl[f] = (all ? 0xf : inline_choices[c].kinds) & usable;
        n += vm->inl[f] != 0;
        /* no SLEEF entry point where the inline code stands for it
         * (sleef[f]'s columns are the kinds' bits in order) */
        for (int k = 0; k < 4; k++)
            if (vm->inl[f] & (1u << k))
                vm->sleef[f][k] = NULL;
    }
    snprintf(vm->inline_why, sizeof vm->inline_why, "%s",
             n ? "" : "not faster than the library here (measured)");
    return n;
}

/* The kind the loop vectoriser will use for dt on this target: AVX-512's
 * where the JIT prefers 512-bit vectors, else AVX2's. */
static unsigned char active_kind(const uf__codegen_host *h, uf_dtype dt)
{
    if (dt == UF_FLOAT32)
        return h->prefer512 ? UF__MVEC_E32 : UF__MVEC_D32;
    return h->prefer512 ? UF__MVEC_E64 : UF__MVEC_D64;
}

bool uf__host_inline_picked(const uf__codegen_host *h, const char *name,
                            uf_dtype dt)
{
    if (!h->mvec || (dt != UF_FLOAT32 && dt != UF_FLOAT64))
        return false;
    int f = uf__host_mvec_index(name);
    return f >= 0 && (h->mvec->inl[f] & active_kind(h, dt));
}

/* ---- exp --------------------------------------------------------------- */

typedef struct emit {
    LLVMBuilderRef b;
    LLVMModuleRef mod;
    LLVMTypeRef t, it; /* double/i64 or float/i32 */
    LLVMValueRef fma;
} emit;

static LLVMValueRef cf(emit *e, double v)
{
    return LLVMConstReal(e->t, v);
}

static LLVMValueRef ci(emit *e, long long v)
{
    return LLVMConstInt(e->it, (unsigned long long)v, 1);
}

static LLVMValueRef fma3(emit *e, LLVMValueRef a, LLVMValueRef b,
                         LLVMValueRef c)
{
    LLVMValueRef args[3] = {a, b, c};
    LLVMTypeRef fty = LLVMGlobalGetValueType(e->fma);
    return LLVMBuildCall2(e->b, fty, e->fma, args, 3, "");
}

/* 2^k as a float, from the integer k (in range of normal numbers):
 * (k + bias) << mantissa bits. */
static LLVMValueRef pow2(emit *e, LLVMValueRef k, bool f32)
{
    LLVMValueRef bits = LLVMBuildShl(
        e->b, LLVMBuildAdd(e->b, k, ci(e, f32 ? 127 : 1023), ""),
        ci(e, f32 ? 23 : 52), "");
    return LLVMBuildBitCast(e->b, bits, e->t, "");
}

static void build_exp(emit *e, LLVMValueRef fn, bool f32)
{
    LLVMValueRef x;
    /* constants: fdlibm's splits of ln2 (the high part with trailing
     * zeros, so k * hi is exact), the shifter 1.5 * 2^mantissa bits */
    double shift = f32 ? 0x1.8p23 : 0x1.8p52;
    double ln2hi = f32 ? 0x1.62e4p-1 : 0x1.62e42feep-1;
    double ln2lo = f32 ? 0x1.7f7d1cp-20 : 0x1.a39ef35793c76p-33;
    /* x clamped to [low, high]: exp(high) overflows to inf and exp(low)
     * underflows to 0 by the same arithmetic, 2^k1 and 2^k2 stay normal,
     * and the shifter trick holds (|k| < 2^22); a NaN compares false and
     * passes through (one min and one max instruction, not selects) */
    double high = f32 ? 89.0 : 710.0;
    double low = f32 ? -150.0 : -1000.0;
    LLVMValueRef x0 = LLVMGetParam(fn, 0);
    LLVMValueRef over = LLVMBuildFCmp(e->b, LLVMRealOGT, x0, cf(e, high), "");
    x = LLVMBuildSelect(e->b, over, cf(e, high), x0, "");
    LLVMValueRef under = LLVMBuildFCmp(e->b, LLVMRealOLT, x, cf(e, low), "");
    x = LLVMBuildSelect(e->b, under, cf(e, low), x, "");
    LLVMValueRef z = fma3(e, x, cf(e, f32 ? (double)(float)0x1.715476p0
                                          : 0x1.71547652b82fep0),
                          cf(e, shift));
    LLVMValueRef kd = LLVMBuildFSub(e->b, z, cf(e, shift), "k");
    LLVMValueRef r = fma3(e, kd, cf(e, -ln2hi), x);
    r = fma3(e, kd, cf(e, -ln2lo), r);
    /* k1 = round(k / 2) and k2 = k - k1, both from the shifter's bits */
    LLVMValueRef w = fma3(e, kd, cf(e, 0.5), cf(e, shift));
    LLVMValueRef zi = LLVMBuildBitCast(e->b, z, e->it, "");
    LLVMValueRef wi = LLVMBuildBitCast(e->b, w, e->it, "");
    LLVMValueRef shift_bits = LLVMBuildBitCast(e->b, cf(e, shift), e->it, "");
    LLVMValueRef k1 = LLVMBuildSub(e->b, wi, shift_bits, "k1");
    LLVMValueRef k2 = LLVMBuildSub(e->b, zi, wi, "k2");
    /* q(r) ~ (exp(r) - 1 - r) / r^2 by Horner: minimax for the relative
     * error of exp on |r| <= ln2/2 (Lawson's weighted least squares, 40
     * digits, coefficients rounded to the dtype): exp of degree 11 for
     * float64 (0.1 ulp), 6 for float32 (0.05 ulp); Taylor's would need
     * 13 and 7 */
    static const double q64[] = {
        0x1.000000000000ap-1,  0x1.55555555554fap-3, 0x1.5555555550888p-5,
        0x1.1111111127b9dp-7,  0x1.6c16c184273e5p-10, 0x1.a01a012a6b99bp-13,
        0x1.a0199a14db5dbp-16, 0x1.71df2531fc56dp-19, 0x1.28ad6a5e99cc0p-22,
        0x1.ad7f8c9f83b49p-26};
    static const double q32[] = {0x1.fffffcp-2, 0x1.555492p-3,
                                 0x1.5558f2p-5, 0x1.1239d6p-7,
                                 0x1.6a243ep-10};
    const double *qc = f32 ? q32 : q64;
    int nq = f32 ? (int)(sizeof q32 / sizeof q32[0])
                 : (int)(sizeof q64 / sizeof q64[0]);
    LLVMValueRef q = cf(e, qc[nq - 1]);
    for (int j = nq - 2; j >= 0; j--)
        q = fma3(e, q, r, cf(e, qc[j]));
    /* expm1(r) = r + r^2 q; 2^k1 (1 + expm1(r)) in one rounding */
    LLVMValueRef em1 = fma3(e, q, LLVMBuildFMul(e->b, r, r, ""), r);
    LLVMValueRef s1 = pow2(e, k1, f32);
    LLVMValueRef y = fma3(e, em1, s1, s1);
    y = LLVMBuildFMul(e->b, y, pow2(e, k2, f32), "");
    LLVMBuildRet(e->b, y);
}

/* The module's internal always-inline function for `name` on dt, made on
 * first use. */
static LLVMValueRef inline_fn(uf__lower *L, const char *name, uf_dtype dt)
{
    bool f32 = dt == UF_FLOAT32;
    char fname[48];
    snprintf(fname, sizeof fname, "uf.inline.%s.%s", name, f32 ? "f32" : "f64");
    LLVMValueRef fn = LLVMGetNamedFunction(L->mod, fname);
    if (fn)
        return fn;
    LLVMTypeRef t = uf__lower_dtype(L, dt);
    LLVMTypeRef fty = LLVMFunctionType(t, &t, 1, 0);
    fn = LLVMAddFunction(L->mod, fname, fty);
    LLVMSetLinkage(fn, LLVMInternalLinkage);
    /* the kernel's CPU and features: the inliner wants them to match */
    L->cg->function_attrs(L, fn);
    static const char *const attrs[] = {"alwaysinline", "readnone",
                                        "willreturn", "nosync", "nofree"};
    for (size_t i = 0; i < sizeof attrs / sizeof attrs[0]; i++)
        uf__lower_add_attr(L, fn, (int)LLVMAttributeFunctionIndex, attrs[i]);
    emit e = {.mod = L->mod, .t = t};
    e.it = LLVMIntTypeInContext(L->ctx, f32 ? 32 : 64);
    unsigned id = LLVMLookupIntrinsicID("llvm.fma", 8);
    e.fma = LLVMGetIntrinsicDeclaration(L->mod, id, &t, 1);
    e.b = LLVMCreateBuilderInContext(L->ctx);
    LLVMPositionBuilderAtEnd(e.b,
                             LLVMAppendBasicBlockInContext(L->ctx, fn, "entry"));
    build_exp(&e, fn, f32);
    LLVMDisposeBuilder(e.b);
    return fn;
}

LLVMValueRef uf__host_inline_math(uf__fn *F, const char *name, uf_dtype dt,
                                  LLVMValueRef *args, int n)
{
    const uf__codegen_host *h = (const uf__codegen_host *)F->L->cg;
    if (n != 1 || strcmp(name, "exp") != 0 ||
        !uf__host_inline_picked(h, name, dt))
        return NULL;
    LLVMValueRef fn = inline_fn(F->L, name, dt);
    return LLVMBuildCall2(F->L->b, LLVMGlobalGetValueType(fn), fn, args, 1,
                          "");
}

size_t uf__host_inline_describe(const uf__host_vmath *vm, char *buf,
                                size_t size)
{
    if (vm->inline_why[0])
        return (size_t)snprintf(buf, size, "; inline: %s", vm->inline_why);
    size_t n = 0;
    for (int wide = 1; wide >= 0; wide--) {
        bool any = false;
        for (int f = 0; f < UF__MVEC_NFUNCS && uf__host_mvec_func(f); f++)
            for (int f32 = 0; f32 < 2; f32++) {
                unsigned char k = f32 ? (wide ? UF__MVEC_E32 : UF__MVEC_D32)
                                      : (wide ? UF__MVEC_E64 : UF__MVEC_D64);
                if (!(vm->inl[f] & k) || n >= size)
                    continue;
                n += (size_t)snprintf(buf + n, size - n, "%s%s%s",
                                      n == 0  ? "; inline (ufjit's IR) for "
                                      : !any ? ", "
                                             : " ",
                                      uf__host_mvec_func(f), f32 ? "f" : "");
                any = true;
            }
        if (any && n < size)
            n += (size_t)snprintf(buf + n, size - n, " on %s",
                                  wide ? "AVX-512" : "AVX2");
    }
    return n;
}
