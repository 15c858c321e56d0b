/* len(range(start, stop, step)): the number of values the range gives,
 * as Python computes it; a zero step raises ValueError (range() arg 3
 * must not be zero). front/desugar_for.c counts a stepped range inside
 * zip()/enumerate() with it. The arithmetic is that of lower.c's range
 * loop: the span and the step's magnitude in unsigned i64, so no
 * overflow near the ends of the type; signed unless every argument is
 * unsigned (Numba's range_state64 / unsigned_range_state64). */
#include "compiler/lower/lower.h"

#define B (F->L->b)

LLVMValueRef uf__lower_range_len(uf__fn *F, const uf__expr *range)
{
    const uf__type *ot = uf__lower_info(F, range)->optype;
    uf_dtype rt = ot && ot->dtype == UF_UINT64 ? UF_UINT64 : UF_INT64;
    LLVMTypeRef i64 = LLVMInt64TypeInContext(F->L->ctx);
    LLVMValueRef zero = LLVMConstNull(i64), one = LLVMConstInt(i64, 1, 0);
    LLVMValueRef v[3] = {zero, NULL, one};
    int n = range->u.call.nargs;
    for (int i = 0; i < n; i++) {
        const uf__expr *x = range->u.call.args[i];
        LLVMValueRef a = uf__lower_expr(F, x);
        if (!a)
            return NULL;
        a = uf__emit_cast(F, a, uf__lower_info(F, x)->type->dtype, rt);
        v[n == 1 ? 1 : i] = a;
    }
    LLVMValueRef start = v[0], stop = v[1], step = v[2];
    LLVMValueRef step0 = LLVMBuildICmp(B, LLVMIntEQ, step, zero, "");
    uf__fn_raise_if(F, step0, UF__JIT_RANGE_STEP);
    bool up_only = rt == UF_UINT64;
    LLVMValueRef up = up_only ? LLVMConstInt(LLVMInt1TypeInContext(F->L->ctx),
                                             1, 0)
                              : LLVMBuildICmp(B, LLVMIntSGT, step, zero, "");
    LLVMValueRef lo = LLVMBuildSelect(B, up, start, stop, "");
    LLVMValueRef hi = LLVMBuildSelect(B, up, stop, start, "");
    LLVMValueRef mag = LLVMBuildSelect(B, up, step,
                                       LLVMBuildSub(B, zero, step, ""), "");
    mag = LLVMBuildSelect(B, step0, one, mag, "");
    LLVMValueRef span = LLVMBuildSub(B, hi, lo, "");
    LLVMValueRef cnt = LLVMBuildAdd(
        B, LLVMBuildUDiv(B, LLVMBuildSub(B, span, one, ""), mag, ""), one, "");
    LLVMValueRef nonempty = LLVMBuildICmp(B, up_only ? LLVMIntUGT
                                                     : LLVMIntSGT,
                                          hi, lo, "");
    nonempty = LLVMBuildAnd(B, nonempty, LLVMBuildNot(B, step0, ""), "");
    return LLVMBuildSelect(B, nonempty, cnt, zero, "range.len");
}
