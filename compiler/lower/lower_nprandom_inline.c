/* One draw at a time, inline: np.random.randint(lo, hi) and
 * np.random.random() as numbers (lower_nprandom.c), so a loop that draws
 * once an iteration does not pay a call per draw. The generator is the
 * runtime's per-thread MT19937 (common/nprandom_state.h): its address
 * comes from one call the optimiser may hoist (it has no effect a kernel
 * can see but seeding an unseeded generator, which the first draw would
 * do anyway), then the word is read, the index advanced and the state
 * refilled every 624 words through the runtime, as Numba inlines its own
 * draws. The values are those of the runtime's loops (Numba's stream). */
#include <stddef.h>
#include <string.h>

#include "common/nprandom.h"
#include "common/nprandom_state.h"
#include "compiler/lower/lower.h"
#include "compiler/lower/lower_nprandom_inline.h"
#include "compiler/lower/lower_rtcall.h"

#define B (F->L->b)

static LLVMValueRef c32(uf__fn *F, uint32_t v)
{
    return LLVMConstInt(uf__ty_i32(F), v, 0);
}

static void add_fn_attr(uf__fn *F, LLVMValueRef call, const char *name)
{
    unsigned kind = LLVMGetEnumAttributeKindForName(name, strlen(name));
    LLVMAddCallSiteAttribute(
        call, LLVMAttributeFunctionIndex,
        LLVMCreateEnumAttribute(F->L->ctx, kind, 0));
}

/* The calling thread's generator, seeded. */
static LLVMValueRef state(uf__fn *F)
{
    LLVMValueRef s =
        uf__emit_rt_call(F, UF__NP_RANDOM_STATE, uf__ty_i8p(F), NULL, 0);
    add_fn_attr(F, s, "readnone");
    add_fn_attr(F, s, "nounwind");
    add_fn_attr(F, s, "willreturn");
    return s;
}

static LLVMValueRef field(uf__fn *F, LLVMValueRef s, size_t off)
{
    LLVMValueRef ix = uf__c_i64(F, (int64_t)off);
    LLVMValueRef p =
        LLVMBuildGEP2(B, LLVMInt8TypeInContext(F->L->ctx), s, &ix, 1, "");
    return LLVMBuildPointerCast(B, p, LLVMPointerType(uf__ty_i32(F), 0), "");
}

static LLVMValueRef shr(uf__fn *F, LLVMValueRef y, unsigned n)
{
    return LLVMBuildLShr(B, y, c32(F, n), "");
}

static LLVMValueRef shl_and(uf__fn *F, LLVMValueRef y, unsigned n,
                            uint32_t mask)
{
    return LLVMBuildAnd(B, LLVMBuildShl(B, y, c32(F, n), ""), c32(F, mask),
                        "");
}

/* uf__mt_next32: the next tempered word of the generator at s. */
static LLVMValueRef next32(uf__fn *F, LLVMValueRef s)
{
    LLVMValueRef idxp = field(F, s, offsetof(mt_state, index));
    LLVMValueRef idx = LLVMBuildLoad2(B, uf__ty_i32(F), idxp, "mt.index");
    LLVMBasicBlockRef here = LLVMGetInsertBlock(B),
                      refill = uf__fn_block(F, "mt.refill"),
                      draw = uf__fn_block(F, "mt.draw");
    LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntSGE, idx, c32(F, MT_N), ""),
                    refill, draw);
    LLVMPositionBuilderAtEnd(B, refill);
    LLVMValueRef arg = s;
    uf__emit_rt_call(F, UF__NP_RANDOM_REGENERATE,
                     LLVMVoidTypeInContext(F->L->ctx), &arg, 1);
    LLVMBuildBr(B, draw); /* the refill sets the index to 0 */
    LLVMPositionBuilderAtEnd(B, draw);
    LLVMValueRef at = LLVMBuildPhi(B, uf__ty_i32(F), "");
    LLVMValueRef vals[2] = {idx, c32(F, 0)};
    LLVMBasicBlockRef from[2] = {here, refill};
    LLVMAddIncoming(at, vals, from, 2);
    LLVMValueRef ix = LLVMBuildZExt(B, at, uf__ty_i64(F), "");
    LLVMValueRef wp = LLVMBuildGEP2(B, uf__ty_i32(F),
                                    field(F, s, offsetof(mt_state, mt)), &ix,
                                    1, "");
    LLVMValueRef y = LLVMBuildLoad2(B, uf__ty_i32(F), wp, "mt.word");
    LLVMBuildStore(B, LLVMBuildAdd(B, at, c32(F, 1), ""), idxp);
    y = LLVMBuildXor(B, y, shr(F, y, 11), "");
    y = LLVMBuildXor(B, y, shl_and(F, y, 7, 0x9d2c5680u), "");
    y = LLVMBuildXor(B, y, shl_and(F, y, 15, 0xefc60000u), "");
    return LLVMBuildXor(B, y, shr(F, y, 18), "");
}

LLVMValueRef uf__emit_random_double(uf__fn *F)
{
    LLVMValueRef s = state(F);
    LLVMTypeRef f64 = uf__ty_f64(F);
    LLVMValueRef a = LLVMBuildUIToFP(B, shr(F, next32(F, s), 5), f64, "");
    LLVMValueRef b = LLVMBuildUIToFP(B, shr(F, next32(F, s), 6), f64, "");
    LLVMValueRef v = LLVMBuildFAdd(
        B, LLVMBuildFMul(B, a, LLVMConstReal(f64, 67108864.0), ""), b, "");
    return LLVMBuildFDiv(B, v, LLVMConstReal(f64, 9007199254740992.0), "");
}

/* x's low w bits as a signed i64. */
static LLVMValueRef sext_low(uf__fn *F, LLVMValueRef x, int w)
{
    if (w >= 64)
        return x;
    LLVMTypeRef t = LLVMIntTypeInContext(F->L->ctx, (unsigned)w);
    return LLVMBuildSExt(B, LLVMBuildTrunc(B, x, t, ""), uf__ty_i64(F), "");
}

LLVMValueRef uf__emit_randint_one(uf__fn *F, LLVMValueRef lo, LLVMValueRef hi,
                                  int width, LLVMValueRef *status)
{
    LLVMTypeRef i64 = uf__ty_i64(F);
    LLVMValueRef range = sext_low(F, LLVMBuildSub(B, hi, lo, ""), width);
    *status = LLVMBuildSelect(
        B, LLVMBuildICmp(B, LLVMIntSLE, range, uf__c_i64(F, 0), ""),
        uf__c_i32(F, UF__NPRANDOM_EMPTY_RANGE), uf__c_i32(F, 0), "");
    LLVMBasicBlockRef entry = LLVMGetInsertBlock(B),
                      draw = uf__fn_block(F, "randint.draw"),
                      small = uf__fn_block(F, "randint.small"),
                      wide = uf__fn_block(F, "randint.wide"),
                      done = uf__fn_block(F, "randint.done");
    /* an empty range's status is raised after this; nothing is drawn
     * for it, nor for a range of one value */
    LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntSGT, range, uf__c_i64(F, 1),
                                     ""),
                    draw, done);
    LLVMPositionBuilderAtEnd(B, draw);
    LLVMValueRef s = state(F);
    LLVMValueRef top = LLVMBuildSub(B, range, uf__c_i64(F, 1), "");
    LLVMTypeRef cty = LLVMFunctionType(i64, (LLVMTypeRef[]){i64,
                                       LLVMInt1TypeInContext(F->L->ctx)},
                                       2, 0);
    LLVMValueRef ctlz = LLVMGetNamedFunction(F->L->mod, "llvm.ctlz.i64");
    if (!ctlz)
        ctlz = LLVMAddFunction(F->L->mod, "llvm.ctlz.i64", cty);
    LLVMValueRef cargs[2] = {top, LLVMConstInt(
                                      LLVMInt1TypeInContext(F->L->ctx), 1, 0)};
    LLVMValueRef nbits = LLVMBuildSub(
        B, uf__c_i64(F, 64), LLVMBuildCall2(B, cty, ctlz, cargs, 2, ""), "");
    LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntSLE, nbits, uf__c_i64(F, 32),
                                     ""),
                    small, wide);

    /* nbits <= 32, the usual case: one masked word until below range */
    LLVMPositionBuilderAtEnd(B, small);
    LLVMValueRef sh32 = LLVMBuildTrunc(
        B, LLVMBuildSub(B, uf__c_i64(F, 32), nbits, ""), uf__ty_i32(F), "");
    LLVMValueRef mask = LLVMBuildLShr(B, c32(F, 0xffffffffu), sh32, "");
    LLVMBasicBlockRef sloop = uf__fn_block(F, "randint.small.loop");
    LLVMBuildBr(B, sloop);
    LLVMPositionBuilderAtEnd(B, sloop);
    LLVMValueRef ks =
        LLVMBuildZExt(B, LLVMBuildAnd(B, next32(F, s), mask, ""), i64, "");
    LLVMBasicBlockRef sdone = LLVMGetInsertBlock(B);
    LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntUGE, ks, range, ""), sloop,
                    done);

    /* wider: a masked high word then a low word, until below range */
    LLVMPositionBuilderAtEnd(B, wide);
    LLVMValueRef shw = LLVMBuildTrunc(
        B, LLVMBuildSub(B, uf__c_i64(F, 64), nbits, ""), uf__ty_i32(F), "");
    LLVMValueRef maskw = LLVMBuildLShr(B, c32(F, 0xffffffffu), shw, "");
    LLVMBasicBlockRef wloop = uf__fn_block(F, "randint.wide.loop");
    LLVMBuildBr(B, wloop);
    LLVMPositionBuilderAtEnd(B, wloop);
    LLVMValueRef high =
        LLVMBuildZExt(B, LLVMBuildAnd(B, next32(F, s), maskw, ""), i64, "");
    LLVMValueRef low = LLVMBuildZExt(B, next32(F, s), i64, "");
    LLVMValueRef kw = LLVMBuildAdd(
        B, low, LLVMBuildShl(B, high, uf__c_i64(F, 32), ""), "");
    LLVMBasicBlockRef wdone = LLVMGetInsertBlock(B);
    LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntSGE, kw, range, ""), wloop,
                    done);

    LLVMPositionBuilderAtEnd(B, done);
    LLVMValueRef k = LLVMBuildPhi(B, i64, "randint.k");
    LLVMValueRef vals[3] = {uf__c_i64(F, 0), ks, kw};
    LLVMBasicBlockRef from[3] = {entry, sdone, wdone};
    LLVMAddIncoming(k, vals, from, 3);
    return LLVMBuildAdd(B, lo, k, "randint");
}
