/* len(range(start, stop, step)): the number of values the range gives,
 * as Python computes it; a zero step raises ValueError (range() arg 3
 * must not be zero). front/desugar_for.c counts a stepped range inside
 * zip()/enumerate() with it. The arithmetic is that of lower.c's range
 * loop: the span and the step's magnitude in unsigned i64, so no
 * overflow near the ends of the type; signed for unsigned ranges too
 * (Numba's unsigned_range_state64 counts so: range(uint64(2**63)) is
 * empty).
 * uf__lower_range_visit walks the values of a range in order, for
 * sum/min/max(range(...)) (lower_arrattr.c). */
#include "compiler/lower/lower.h"

#define B (F->L->b)

/* The range's arguments lowered once, as start, stop, step in i64 (rt:
 * int64 or uint64), and its count; a zero step raises. */
static LLVMValueRef range_count(uf__fn *F, const uf__expr *range,
                                uf_dtype rt, LLVMValueRef v[3])
{
    LLVMTypeRef i64 = LLVMInt64TypeInContext(F->L->ctx);
    LLVMValueRef zero = LLVMConstNull(i64), one = LLVMConstInt(i64, 1, 0);
    v[0] = zero;
    v[2] = one;
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
    /* signed whatever the dtype, as Numba's range iterator counts */
    LLVMValueRef up = LLVMBuildICmp(B, LLVMIntSGT, step, zero, "");
    LLVMValueRef lo = LLVMBuildSelect(B, up, start, stop, "");
    LLVMValueRef hi = LLVMBuildSelect(B, up, stop, start, "");
    LLVMValueRef mag = LLVMBuildSelect(B, up, step,
                                       LLVMBuildSub(B, zero, step, ""), "");
    mag = LLVMBuildSelect(B, step0, one, mag, "");
    LLVMValueRef span = LLVMBuildSub(B, hi, lo, "");
    LLVMValueRef cnt = LLVMBuildAdd(
        B, LLVMBuildUDiv(B, LLVMBuildSub(B, span, one, ""), mag, ""), one, "");
    LLVMValueRef nonempty = LLVMBuildICmp(B, LLVMIntSGT, hi, lo, "");
    nonempty = LLVMBuildAnd(B, nonempty, LLVMBuildNot(B, step0, ""), "");
    return LLVMBuildSelect(B, nonempty, cnt, zero, "range.len");
}

static uf_dtype count_dtype(uf__fn *F, const uf__expr *range)
{
    const uf__type *ot = uf__lower_info(F, range)->optype;
    return ot && ot->dtype == UF_UINT64 ? UF_UINT64 : UF_INT64;
}

LLVMValueRef uf__lower_range_len(uf__fn *F, const uf__expr *range)
{
    LLVMValueRef v[3];
    return range_count(F, range, count_dtype(F, range), v);
}

int uf__lower_range_visit(uf__fn *F, const uf__expr *range,
                          void (*fn)(uf__fn *F, LLVMValueRef x, void *ud),
                          void *ud, int empty_status)
{
    const uf__type *ot = uf__lower_info(F, range)->optype;
    uf_dtype rt = count_dtype(F, range), xt = ot ? ot->dtype : UF_INT64;
    LLVMValueRef v[3];
    LLVMValueRef n = range_count(F, range, rt, v);
    if (!n)
        return -1;
    LLVMTypeRef i64 = LLVMInt64TypeInContext(F->L->ctx);
    if (empty_status != 0)
        uf__fn_raise_if(F, LLVMBuildICmp(B, LLVMIntEQ, n, LLVMConstNull(i64),
                                         "range.empty"),
                        empty_status);
    LLVMValueRef k = uf__fn_alloca(F, i64, "range.k");
    LLVMBuildStore(B, LLVMConstNull(i64), k);
    LLVMBasicBlockRef head = uf__fn_block(F, "range.head");
    LLVMBasicBlockRef body = uf__fn_block(F, "range.body");
    LLVMBasicBlockRef done = uf__fn_block(F, "range.done");
    LLVMBuildBr(B, head);
    LLVMPositionBuilderAtEnd(B, head);
    LLVMValueRef i = LLVMBuildLoad2(B, i64, k, "");
    LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntULT, i, n, ""), body, done);
    LLVMPositionBuilderAtEnd(B, body);
    /* start + k*step wraps as the range's own arithmetic does */
    LLVMValueRef x = LLVMBuildAdd(B, v[0], LLVMBuildMul(B, i, v[2], ""), "");
    fn(F, uf__emit_cast(F, x, rt, xt), ud);
    LLVMBuildStore(B, LLVMBuildAdd(B, i, LLVMConstInt(i64, 1, 0), ""), k);
    LLVMBuildBr(B, head);
    LLVMPositionBuilderAtEnd(B, done);
    return 0;
}
