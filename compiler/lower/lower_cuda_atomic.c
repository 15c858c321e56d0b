/* cuda.atomic.*, the fences and syncthreads_count/and/or (typed in
 * compiler/types/infer_cuda_atomic.c) with numba-cuda's semantics
 * (cudaimpl.py):
 *   - the element is addressed as a[i, j] is: negative indices wrap,
 *     checked under boundscheck / UFJIT_DEBUG;
 *   - add, sub, and_, or_, xor, exch, integer max / min are one
 *     read-modify-write of the codegen target (relaxed); float sub is a
 *     float add of -val (exactly x - val in IEEE arithmetic);
 *   - inc / dec wrap as CUDA's atomicInc / atomicDec: ((old >= val) ? 0 :
 *     old + 1), ((old == 0) | (old > val)) ? val : old - 1;
 *   - float max / min leave the element alone when it or val is NaN;
 *     nanmax / nanmin ignore a NaN val and replace a NaN element;
 *   - what the target has no single operation for loops on
 *     compare-and-swap; every form gives the element's old value. */
#include <ufjit/array.h>

#include "common/error_internal.h"
#include "compiler/lower/lower.h"
#include "compiler/lower/lower_array.h"
#include "compiler/types/infer_internal.h"

#define B (F->L->b)

/* The pointer to the element cuda.atomic.X(ary, idx, ...) names, typed
 * as a pointer to its dtype; ary[0] for compare_and_swap. */
static LLVMValueRef element(uf__fn *F, const uf__expr *e, bool first)
{
    const uf__expr *ae = e->u.call.args[0];
    const uf__type *at = uf__lower_info(F, ae)->type;
    LLVMValueRef arr = uf__lower_expr(F, ae);
    if (!arr)
        return NULL;
    LLVMValueRef idx[UF_MAXDIMS];
    uf_dtype dt[UF_MAXDIMS];
    if (first) {
        idx[0] = LLVMConstNull(LLVMInt64TypeInContext(F->L->ctx));
        dt[0] = UF_INT64;
    } else {
        const uf__expr *ie = e->u.call.args[1];
        const uf__type *it = uf__lower_info(F, ie)->type;
        LLVMValueRef iv = uf__lower_expr(F, ie);
        if (!iv)
            return NULL;
        if (it->kind == UF__T_TUPLE) {
            for (int k = 0; k < it->n; k++) {
                idx[k] = LLVMBuildExtractValue(B, iv, (unsigned)k, "");
                dt[k] = it->elts[k]->dtype;
            }
        } else {
            idx[0] = iv;
            dt[0] = it->dtype;
        }
        for (int k = 0; k < at->ndim; k++)
            if (dt[k] == UF_BOOL) {
                idx[k] = uf__emit_cast(F, idx[k], UF_BOOL, UF_INT64);
                dt[k] = UF_INT64;
            }
    }
    LLVMValueRef p = uf__lower_element_address(F, e->pos, arr, at, idx, dt);
    LLVMTypeRef et = uf__lower_mem_dtype(F->L, at->dtype);
    return LLVMBuildBitCast(B, p, LLVMPointerType(et, 0), "");
}

/* argument k converted to the array's dtype */
static LLVMValueRef value_arg(uf__fn *F, const uf__expr *e, int k,
                              uf_dtype to)
{
    const uf__expr *x = e->u.call.args[k];
    LLVMValueRef v = uf__lower_expr(F, x);
    return v ? uf__emit_cast(F, v, uf__lower_info(F, x)->type->dtype, to)
             : NULL;
}

static LLVMValueRef to_int(uf__fn *F, LLVMValueRef v)
{
    LLVMTypeRef t = LLVMTypeOf(v);
    if (LLVMGetTypeKind(t) == LLVMIntegerTypeKind)
        return v;
    bool dbl = LLVMGetTypeKind(t) == LLVMDoubleTypeKind;
    LLVMContextRef c = F->L->ctx;
    return LLVMBuildBitCast(B, v, dbl ? LLVMInt64TypeInContext(c)
                                      : LLVMInt32TypeInContext(c), "");
}

/* Whether `cur` is to be replaced by the loop's operation (max / min
 * families: numba-cuda's NaN rules); NULL: always. */
static LLVMValueRef should_write(uf__fn *F, uf__builtin b, bool flt,
                                 bool uns, LLVMValueRef cur, LLVMValueRef val)
{
    bool max = b == UF__BI_CUDA_ATOMIC_MAX || b == UF__BI_CUDA_ATOMIC_NANMAX;
    bool nan = b == UF__BI_CUDA_ATOMIC_NANMAX ||
               b == UF__BI_CUDA_ATOMIC_NANMIN;
    if (!max && b != UF__BI_CUDA_ATOMIC_MIN && !nan)
        return NULL;
    LLVMValueRef lo = max ? cur : val, hi = max ? val : cur;
    if (!flt)
        return LLVMBuildICmp(B, uns ? LLVMIntULT : LLVMIntSLT, lo, hi, "");
    if (!nan) /* false when either is NaN */
        return LLVMBuildFCmp(B, LLVMRealOLT, lo, hi, "");
    /* a NaN val is ignored; a NaN element is replaced */
    LLVMValueRef ord = LLVMBuildFCmp(B, LLVMRealORD, val, val, "");
    LLVMValueRef less = LLVMBuildFCmp(B, max ? LLVMRealULT : LLVMRealUGT,
                                      cur, val, "");
    return LLVMBuildAnd(B, ord, less, "");
}

/* The new value the loop writes over `cur` (inc, dec, sub, float ops) */
static LLVMValueRef loop_value(uf__fn *F, uf__builtin b, bool flt,
                               LLVMValueRef cur, LLVMValueRef val)
{
    LLVMTypeRef t = LLVMTypeOf(cur);
    LLVMValueRef one = flt ? NULL : LLVMConstInt(t, 1, 0);
    switch (b) {
    case UF__BI_CUDA_ATOMIC_INC: {
        LLVMValueRef wrap = LLVMBuildICmp(B, LLVMIntUGE, cur, val, "");
        return LLVMBuildSelect(B, wrap, LLVMConstNull(t),
                               LLVMBuildAdd(B, cur, one, ""), "");
    }
    case UF__BI_CUDA_ATOMIC_DEC: {
        LLVMValueRef wrap = LLVMBuildOr(
            B, LLVMBuildICmp(B, LLVMIntEQ, cur, LLVMConstNull(t), ""),
            LLVMBuildICmp(B, LLVMIntUGT, cur, val, ""), "");
        return LLVMBuildSelect(B, wrap, val, LLVMBuildSub(B, cur, one, ""),
                               "");
    }
    case UF__BI_CUDA_ATOMIC_ADD:
        return LLVMBuildFAdd(B, cur, val, "");
    case UF__BI_CUDA_ATOMIC_SUB:
        return flt ? LLVMBuildFSub(B, cur, val, "")
                   : LLVMBuildSub(B, cur, val, "");
    default: /* max / min families: val when should_write says so */
        return val;
    }
}

/* *p = f(*p, val) by compare-and-swap until no other thread came in
 * between; the old value. */
static LLVMValueRef cas_loop(uf__fn *F, uf__builtin b, bool flt, bool uns,
                             LLVMValueRef p, LLVMValueRef val)
{
    uf__lower *L = F->L;
    LLVMTypeRef t = LLVMTypeOf(val);
    LLVMTypeRef it = flt ? LLVMTypeOf(to_int(F, val)) : t;
    LLVMValueRef ip = LLVMBuildBitCast(B, p, LLVMPointerType(it, 0), "");
    LLVMValueRef first = LLVMBuildLoad2(B, t, p, "");
    LLVMSetVolatile(first, 1); /* a guess the swap checks */
    LLVMBasicBlockRef entry = LLVMGetInsertBlock(B);
    LLVMBasicBlockRef check = uf__fn_block(F, "atomic.check");
    LLVMBasicBlockRef swap = uf__fn_block(F, "atomic.swap");
    LLVMBasicBlockRef done = uf__fn_block(F, "atomic.done");
    LLVMBuildBr(B, check);
    LLVMPositionBuilderAtEnd(B, check);
    LLVMValueRef cur = LLVMBuildPhi(B, t, "cur");
    LLVMValueRef want = should_write(F, b, flt, uns, cur, val);
    LLVMBuildCondBr(B, want ? want : LLVMConstInt(LLVMInt1TypeInContext(
                                                      L->ctx), 1, 0),
                    swap, done);
    LLVMPositionBuilderAtEnd(B, swap);
    LLVMValueRef icur = to_int(F, cur);
    LLVMValueRef seen = L->cg->atomic_cas(
        L, ip, icur, to_int(F, loop_value(F, b, flt, cur, val)));
    LLVMValueRef again = LLVMBuildICmp(B, LLVMIntNE, seen, icur, "");
    LLVMValueRef seen_t = flt ? LLVMBuildBitCast(B, seen, t, "") : seen;
    LLVMBasicBlockRef swap_end = LLVMGetInsertBlock(B);
    LLVMBuildCondBr(B, again, check, done);
    LLVMValueRef in_v[2] = {first, seen_t};
    LLVMBasicBlockRef in_b[2] = {entry, swap_end};
    LLVMAddIncoming(cur, in_v, in_b, 2);
    LLVMPositionBuilderAtEnd(B, done);
    return cur; /* the element as it was when written (or left) */
}

static LLVMValueRef atomic(uf__fn *F, const uf__expr *e, uf__builtin b)
{
    uf__lower *L = F->L;
    const uf__type *at = uf__lower_info(F, e->u.call.args[0])->type;
    uf_dtype dt = at->dtype;
    bool flt = dt == UF_FLOAT32 || dt == UF_FLOAT64;
    bool uns = dt == UF_UINT32 || dt == UF_UINT64;
    bool cas0 = b == UF__BI_CUDA_ATOMIC_COMPARE_AND_SWAP;
    LLVMValueRef p = element(F, e, cas0);
    if (!p)
        return NULL;
    int first_val = cas0 ? 1 : 2;
    LLVMValueRef v0 = value_arg(F, e, first_val, dt);
    if (!v0)
        return NULL;
    if (cas0 || b == UF__BI_CUDA_ATOMIC_CAS) {
        LLVMValueRef v1 = value_arg(F, e, first_val + 1, dt);
        return v1 ? L->cg->atomic_cas(L, p, v0, v1) : NULL;
    }
    uf__atomic_op op = UF__ATOMIC_OP_COUNT;
    switch (b) {
    case UF__BI_CUDA_ATOMIC_ADD:
        op = flt ? UF__ATOMIC_FADD : UF__ATOMIC_ADD;
        break;
    case UF__BI_CUDA_ATOMIC_SUB:
        if (flt) { /* x - v is x + (-v), rounding included */
            op = UF__ATOMIC_FADD;
            v0 = LLVMBuildFSub(B, LLVMConstReal(LLVMTypeOf(v0), -0.0), v0,
                               "");
        } else {
            op = UF__ATOMIC_SUB;
        }
        break;
    case UF__BI_CUDA_ATOMIC_AND: op = UF__ATOMIC_AND; break;
    case UF__BI_CUDA_ATOMIC_OR: op = UF__ATOMIC_OR; break;
    case UF__BI_CUDA_ATOMIC_XOR: op = UF__ATOMIC_XOR; break;
    case UF__BI_CUDA_ATOMIC_EXCH: op = UF__ATOMIC_XCHG; break;
    case UF__BI_CUDA_ATOMIC_INC: op = UF__ATOMIC_INC; break;
    case UF__BI_CUDA_ATOMIC_DEC: op = UF__ATOMIC_DEC; break;
    case UF__BI_CUDA_ATOMIC_MAX: case UF__BI_CUDA_ATOMIC_NANMAX:
        if (!flt)
            op = uns ? UF__ATOMIC_UMAX : UF__ATOMIC_MAX;
        break;
    case UF__BI_CUDA_ATOMIC_MIN: case UF__BI_CUDA_ATOMIC_NANMIN:
        if (!flt)
            op = uns ? UF__ATOMIC_UMIN : UF__ATOMIC_MIN;
        break;
    default:
        break;
    }
    LLVMValueRef r = op == UF__ATOMIC_OP_COUNT
                         ? NULL
                         : L->cg->atomic_rmw(L, op, p, v0);
    if (r)
        return r;
    if (b == UF__BI_CUDA_ATOMIC_SUB && flt) /* undo the negation */
        b = UF__BI_CUDA_ATOMIC_ADD;
    return cas_loop(F, b, flt, uns, p, v0);
}

LLVMValueRef uf__lower_cuda_atomic(uf__fn *F, const uf__expr *e)
{
    uf__lower *L = F->L;
    uf__builtin b = uf__lower_info(F, e)->builtin;
    if (uf__builtin_is_cuda_atomic(b))
        return atomic(F, e, b);
    switch (b) {
    case UF__BI_CUDA_THREADFENCE_BLOCK:
        L->cg->threadfence(L, UF__FENCE_BLOCK);
        break;
    case UF__BI_CUDA_THREADFENCE:
        L->cg->threadfence(L, UF__FENCE_DEVICE);
        break;
    case UF__BI_CUDA_THREADFENCE_SYSTEM:
        L->cg->threadfence(L, UF__FENCE_SYSTEM);
        break;
    default: { /* syncthreads_count / _and / _or */
        LLVMValueRef pred = value_arg(F, e, 0, UF_INT32);
        if (!pred)
            return NULL;
        uf__sync_reduce op = b == UF__BI_CUDA_SYNCTHREADS_COUNT ? UF__SYNC_COUNT
                             : b == UF__BI_CUDA_SYNCTHREADS_AND
                                 ? UF__SYNC_AND
                                 : UF__SYNC_OR;
        return L->cg->syncthreads_reduce(L, op, pred);
    }
    }
    return LLVMGetUndef(LLVMInt1TypeInContext(L->ctx));
}
