/* Array reductions in prange loops, as Numba's parfors take them:
 *
 *     s = np.zeros(m)
 *     for i in prange(n):
 *         s += a[i, :]        (or -=, *=, /=, s = s + a[i] ...)
 *
 * Each block of iterations reduces into its own partial array of s's
 * shape, filled with the operator's identity (0 for + and -, 1 for * and
 * /); the caller then combines the partials into s element by element in
 * block order (+ for + and -, * for * and /: Numba's rule), so the result
 * does not depend on the threads. `s += e` updates s in place as Numba
 * does (an s that is an argument is the caller's array); `s = s + e`
 * gives a new array, as a serial loop would (Numba 0.68 returns s's value
 * from before the loop there).
 *
 * The partials live in one buffer of nblocks * s.size items made and
 * freed by the runtime (njit/njit_prange_array.c); out of memory is the
 * caller's UF_ERR_NOMEM. So that the buffer stays bounded, loops with
 * array reductions take fewer blocks when s is large: at most
 * max(16, 2^21 / s.size) (a function of the sizes alone, never of the
 * threads). */
#include <string.h>

#include "common/loop.h"
#include "compiler/lower/lower_array.h"
#include "compiler/lower/lower_prange.h"

#define B (F->L->b)

/* Partials of at most this many items in all, unless it leaves under
 * ARR_MIN_BLOCKS blocks. */
#define ARR_ITEMS_BUDGET (1LL << 21)
#define ARR_MIN_BLOCKS 16

static LLVMTypeRef i64_t(uf__fn *F)
{
    return LLVMInt64TypeInContext(F->L->ctx);
}

static LLVMTypeRef i32_t(uf__fn *F)
{
    return LLVMInt32TypeInContext(F->L->ctx);
}

static LLVMTypeRef i8p_t(uf__fn *F)
{
    return LLVMPointerType(LLVMInt8TypeInContext(F->L->ctx), 0);
}

static LLVMValueRef c64(uf__fn *F, long long v)
{
    return LLVMConstInt(i64_t(F), (unsigned long long)v, 1);
}

static LLVMValueRef c32(uf__fn *F, int v)
{
    return LLVMConstInt(i32_t(F), (unsigned long long)v, 1);
}

static LLVMValueRef call(uf__fn *F, const char *name, LLVMTypeRef ret,
                         LLVMValueRef *args, int n)
{
    LLVMTypeRef pt[12];
    for (int k = 0; k < n; k++)
        pt[k] = LLVMTypeOf(args[k]);
    LLVMTypeRef fty = LLVMFunctionType(ret, pt, (unsigned)n, 0);
    LLVMValueRef fn = F->L->cg->helper(F->L, name, fty);
    F->L->uses_runtime = true;
    return LLVMBuildCall2(B, fty, fn, args, (unsigned)n, "");
}

int uf__prange_array_check(uf__fn *F, uf__pos pos, const char *name,
                           size_t n, red_op op, const uf__type *t,
                           bool rebinds)
{
    char ts[64];
    if (op != RED_ADD && op != RED_MUL && op != RED_DIV)
        return uf__source_error(F->err, UF_ERR_VALUE, F->tf->km->src, pos,
                                "Use of reduction variable '%.*s' in an "
                                "unsupported reduction function (ValueError, "
                                "as Numba: an array reduction is +=, -=, *= "
                                "or /=)",
                                (int)n, name);
    uf__type_str(t, ts, sizeof ts);
    if (t->dtype == UF_BOOL || t->ndim > UF__PRANGE_MAX_NDIM ||
        (op == RED_DIV && !uf__dtype_is_float(t->dtype) &&
         !uf__dtype_is_complex(t->dtype)) ||
        (rebinds && t->layout == 'F'))
        return uf__source_error(F->err, UF_ERR_UNSUPPORTED, F->tf->km->src, pos,
                                "a prange reduction with %s on '%.*s' of "
                                "type %s is not supported",
                                op == RED_DIV ? "/" : op == RED_MUL ? "*"
                                                                     : "+",
                                (int)n, name, ts);
    return 0;
}

/* The i64 elements [field][0..nd) of array value v. */
static void dims(uf__fn *F, LLVMValueRef v, unsigned field, int nd,
                 LLVMValueRef *out)
{
    LLVMValueRef a = LLVMBuildExtractValue(B, v, field, "");
    for (int k = 0; k < nd; k++)
        out[k] = LLVMBuildExtractValue(B, a, (unsigned)k, "");
}

/* A pointer to nd i64 values (an alloca of at least one). */
static LLVMValueRef spill(uf__fn *F, const LLVMValueRef *v, int nd)
{
    LLVMTypeRef at = LLVMArrayType(i64_t(F), (unsigned)(nd ? nd : 1));
    LLVMValueRef p = uf__fn_alloca(F, at, "prange.dims");
    LLVMValueRef base = LLVMBuildPointerCast(
        B, p, LLVMPointerType(i64_t(F), 0), "");
    for (int k = 0; k < nd; k++) {
        LLVMValueRef ix = c64(F, k);
        LLVMBuildStore(B, v[k],
                       LLVMBuildInBoundsGEP2(B, i64_t(F), base, &ix, 1, ""));
    }
    return base;
}

/* The contiguous strides of a partial of t's layout (F: first axis
 * fastest, else C). */
static void partial_strides(uf__fn *F, const uf__type *t,
                            const LLVMValueRef *shape, LLVMValueRef *out)
{
    int nd = t->ndim;
    LLVMValueRef st = c64(F, (long long)uf_dtype_itemsize(t->dtype));
    for (int j = 0; j < nd; j++) {
        int k = t->layout == 'F' ? j : nd - 1 - j;
        out[k] = st;
        st = LLVMBuildMul(B, st, shape[k], "");
    }
}

LLVMValueRef uf__prange_array_prepare(uf__fn *F, reduction *R, int nred)
{
    LLVMValueRef total = c64(F, 0);
    for (int r = 0; r < nred; r++) {
        if (!R[r].type)
            continue;
        const uf__type *t = R[r].type;
        int nd = t->ndim;
        LLVMTypeRef ty = LLVMGetAllocatedType(F->vars[R[r].var]);
        LLVMValueRef s = LLVMBuildLoad2(B, ty, F->vars[R[r].var], "");
        LLVMValueRef shape[UF__PRANGE_MAX_NDIM], items = c64(F, 1);
        dims(F, s, 1, nd, shape);
        for (int k = 0; k < nd; k++)
            items = LLVMBuildMul(B, items, shape[k], "");
        R[r].items = items;
        total = LLVMBuildAdd(B, total, items, "");
        R[r].buf = uf__fn_alloca(F, i8p_t(F), "prange.partials");
        LLVMBuildStore(B, LLVMConstNull(i8p_t(F)), R[r].buf);
        R[r].result = s;
        if (!R[r].rebinds)
            continue;
        /* s = s + e: a new array (C: 'F' was refused), s copied in */
        LLVMValueRef nitems;
        LLVMValueRef res = uf__lower_new_array(F, t->dtype, nd, shape,
                                               &nitems);
        if (!res)
            return NULL;
        LLVMValueRef rst[UF__PRANGE_MAX_NDIM], sst[UF__PRANGE_MAX_NDIM];
        dims(F, res, 2, nd, rst);
        dims(F, s, 2, nd, sst);
        LLVMValueRef pshape = spill(F, shape, nd);
        LLVMValueRef args[8] = {
            c32(F, (int)t->dtype), c32(F, nd), pshape, spill(F, rst, nd),
            LLVMBuildExtractValue(B, res, 0, ""), pshape, spill(F, sst, nd),
            LLVMBuildExtractValue(B, s, 0, "")};
        call(F, UF__RT_PRANGE_STORE, i32_t(F), args, 8);
        R[r].result = res;
    }
    /* cap = max(MIN, BUDGET / max(total, 1)) */
    LLVMValueRef one = c64(F, 1);
    LLVMValueRef t1 = LLVMBuildSelect(
        B, LLVMBuildICmp(B, LLVMIntSLT, total, one, ""), one, total, "");
    LLVMValueRef cap = LLVMBuildSDiv(B, c64(F, ARR_ITEMS_BUDGET), t1, "");
    LLVMValueRef lo = c64(F, ARR_MIN_BLOCKS);
    return LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntSLT, cap, lo, ""), lo,
                           cap, "prange.maxblocks");
}

LLVMValueRef uf__prange_array_alloc(uf__fn *F, reduction *R, int nred,
                                    LLVMValueRef nb)
{
    LLVMValueRef ok = LLVMConstInt(LLVMInt1TypeInContext(F->L->ctx), 1, 0);
    for (int r = 0; r < nred; r++) {
        if (!R[r].type)
            continue;
        LLVMValueRef args[4] = {
            nb, R[r].items, c32(F, (int)R[r].type->dtype),
            c32(F, R[r].op == RED_MUL || R[r].op == RED_DIV)};
        LLVMValueRef p = call(F, UF__RT_PRANGE_PARTIALS, i8p_t(F), args, 4);
        LLVMBuildStore(B, p, R[r].buf);
        ok = LLVMBuildAnd(B, ok, LLVMBuildIsNotNull(B, p, ""), "");
    }
    return ok;
}

LLVMValueRef uf__prange_array_partial(uf__fn *G, reduction *r,
                                      LLVMValueRef init, LLVMValueRef buf,
                                      LLVMValueRef block)
{
    uf__fn *F = G;
    const uf__type *t = r->type;
    int nd = t->ndim;
    LLVMValueRef shape[UF__PRANGE_MAX_NDIM], st[UF__PRANGE_MAX_NDIM];
    LLVMValueRef bytes = c64(F, (long long)uf_dtype_itemsize(t->dtype));
    dims(F, init, 1, nd, shape);
    for (int k = 0; k < nd; k++)
        bytes = LLVMBuildMul(B, bytes, shape[k], "");
    partial_strides(F, t, shape, st);
    LLVMValueRef off = LLVMBuildMul(B, block, bytes, "");
    LLVMValueRef data = LLVMBuildGEP2(B, LLVMInt8TypeInContext(F->L->ctx),
                                      buf, &off, 1, "prange.partial");
    LLVMValueRef v = uf__build_array(F->L, data, shape, st, nd);
    r->row = uf__fn_alloca(F, LLVMTypeOf(v), "prange.row");
    LLVMBuildStore(B, v, r->row);
    return v;
}

LLVMValueRef uf__prange_array_store(uf__fn *G, const reduction *r,
                                    LLVMValueRef s)
{
    uf__fn *F = G;
    int nd = r->type->ndim;
    if (!r->rebinds) /* s += e wrote the partial in place */
        return c32(F, 0);
    LLVMValueRef row = LLVMBuildLoad2(B, LLVMTypeOf(s), r->row, "");
    LLVMValueRef want[UF__PRANGE_MAX_NDIM], wst[UF__PRANGE_MAX_NDIM];
    LLVMValueRef shape[UF__PRANGE_MAX_NDIM], sst[UF__PRANGE_MAX_NDIM];
    dims(F, row, 1, nd, want);
    dims(F, row, 2, nd, wst);
    dims(F, s, 1, nd, shape);
    dims(F, s, 2, nd, sst);
    LLVMValueRef args[8] = {
        c32(F, (int)r->type->dtype), c32(F, nd), spill(F, want, nd),
        spill(F, wst, nd), LLVMBuildExtractValue(B, row, 0, ""),
        spill(F, shape, nd), spill(F, sst, nd),
        LLVMBuildExtractValue(B, s, 0, "")};
    return call(F, UF__RT_PRANGE_STORE, i32_t(F), args, 8);
}

void uf__prange_array_finish(uf__fn *F, reduction *R, int nred,
                             LLVMValueRef nb, LLVMValueRef status)
{
    LLVMBasicBlockRef comb = uf__fn_block(F, "prange.arrcombine");
    LLVMBasicBlockRef freeb = uf__fn_block(F, "prange.arrfree");
    LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntEQ, status, c32(F, 0), ""),
                    comb, freeb);
    LLVMPositionBuilderAtEnd(B, comb);
    for (int r = 0; r < nred; r++) {
        if (!R[r].type)
            continue;
        const uf__type *t = R[r].type;
        int nd = t->ndim;
        LLVMValueRef res = R[r].result;
        LLVMValueRef shape[UF__PRANGE_MAX_NDIM], st[UF__PRANGE_MAX_NDIM];
        LLVMValueRef pst[UF__PRANGE_MAX_NDIM];
        dims(F, res, 1, nd, shape);
        dims(F, res, 2, nd, st);
        partial_strides(F, t, shape, pst);
        LLVMValueRef bytes = LLVMBuildMul(
            B, R[r].items, c64(F, (long long)uf_dtype_itemsize(t->dtype)),
            "");
        LLVMValueRef args[10] = {
            c32(F, R[r].op != RED_ADD), c32(F, (int)t->dtype), c32(F, nd),
            spill(F, shape, nd), spill(F, st, nd),
            LLVMBuildExtractValue(B, res, 0, ""), spill(F, pst, nd),
            LLVMBuildLoad2(B, i8p_t(F), R[r].buf, ""), nb, bytes};
        call(F, UF__RT_PRANGE_COMBINE, LLVMVoidTypeInContext(F->L->ctx),
             args, 10);
        LLVMBuildStore(B, res, F->vars[R[r].var]);
    }
    LLVMBuildBr(B, freeb);
    LLVMPositionBuilderAtEnd(B, freeb);
    for (int r = 0; r < nred; r++) {
        if (!R[r].type)
            continue;
        LLVMValueRef p = LLVMBuildLoad2(B, i8p_t(F), R[r].buf, "");
        call(F, UF__RT_PRANGE_PARTIALS_FREE,
             LLVMVoidTypeInContext(F->L->ctx), &p, 1);
    }
}
