/* NumPy's whole-array reductions, dot products, a.T and a.itemsize /
 * a.nbytes in generated code (typed by infer_npreduce.c). Every one reads
 * the array where it lies, so none allocates and all lower the same way
 * on every target.
 *
 * The array is walked in C order, one row (the last axis) at a time; an
 * array whose bytes are C-contiguous (checked at run time) is one row.
 * Sums, products, dot products and the squared deviations of var/std
 * ("folds") take a vector path on a contiguous row on the host targets:
 * four vector accumulators of 64 bytes each (32 float64 lanes), then one
 * vector, then a scalar tail, the lanes added pairwise at the end. The
 * order of the additions is therefore not Numba's (a plain loop) nor
 * NumPy's (pairwise blocks of 128): for float data the result lies within
 * a few ulps of NumPy's pairwise sum, closer to it than Numba's plain loop
 * is. Integer folds wrap as NumPy's int64 accumulator does. On the CUDA
 * targets a fold is a plain loop (one thread's work; no vectors there).
 *
 * The rest (min, max, argmin, argmax, all, any, the nan* functions) are
 * scalar loops with Numba's rules: min/max propagate NaN, argmin/argmax
 * give the first NaN's flat C index, nanmin/nanmax skip NaN (all NaN:
 * NaN). An empty array raises the ValueError Numba raises, through the
 * function's status (jit.h: UF__JIT_EMPTY_*), as a bounds check raises
 * IndexError; lower_fallible.c makes such functions fallible. */
#include <math.h>
#include <string.h>

#include "common/error_internal.h"
#include "compiler/lower/lower_npreduce.h"
#include "compiler/types/infer_npextra.h"
#include "compiler/types/infer_npreduce.h"

#define B (F->L->b)

static LLVMValueRef fail(uf__fn *F, const uf__expr *e, int code,
                         const char *what)
{
    uf__source_error(F->err, code, F->tf->km->src, e->pos, "%s", what);
    return NULL;
}

/* ---- arrays and loops ------------------------------------------------ */

int uf__npr_load(uf__fn *F, const uf__expr *x, uf__npr_arr *A)
{
    const uf__type *t = uf__lower_info(F, x)->type;
    if (!t || t->kind != UF__T_ARRAY || t->ndim > UF__NPR_MAXND) {
        fail(F, x, UF_ERR_UNSUPPORTED, "this reduction's operand is not an "
                                       "array");
        return -1;
    }
    LLVMValueRef a = uf__lower_expr(F, x);
    if (!a)
        return -1;
    A->data = uf__emit_array_data(F, a);
    A->nd = t->ndim;
    A->dt = t->dtype;
    for (int k = 0; k < t->ndim; k++) {
        A->shape[k] = uf__emit_array_dim(F, a, k);
        A->strides[k] = uf__emit_array_stride(F, a, t, k);
    }
    return 0;
}

LLVMValueRef uf__npr_size(uf__fn *F, const uf__npr_arr *A)
{
    LLVMValueRef n = uf__npr_c64(F, 1);
    for (int k = 0; k < A->nd; k++)
        n = LLVMBuildMul(B, n, A->shape[k], "size");
    return n;
}

void uf__npr_loop_open(uf__fn *F, uf__npr_loop *l, LLVMValueRef start,
                       LLVMValueRef end)
{
    LLVMBasicBlockRef pre = LLVMGetInsertBlock(B);
    l->head = uf__fn_block(F, "npr.head");
    LLVMBasicBlockRef body = uf__fn_block(F, "npr.body");
    l->done = uf__fn_block(F, "npr.done");
    LLVMBuildBr(B, l->head);
    LLVMPositionBuilderAtEnd(B, l->head);
    l->i = LLVMBuildPhi(B, uf__npr_i64(F), "i");
    LLVMAddIncoming(l->i, &start, &pre, 1);
    LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntSLT, l->i, end, ""), body,
                    l->done);
    LLVMPositionBuilderAtEnd(B, body);
}

void uf__npr_loop_close(uf__fn *F, uf__npr_loop *l, long long step)
{
    LLVMBasicBlockRef latch = LLVMGetInsertBlock(B);
    LLVMValueRef next = LLVMBuildNSWAdd(B, l->i, uf__npr_c64(F, step), "");
    LLVMBuildBr(B, l->head);
    LLVMAddIncoming(l->i, &next, &latch, 1);
    LLVMPositionBuilderAtEnd(B, l->done);
}

static void nest(uf__fn *F, const uf__npr_arr *A, int d, LLVMValueRef p,
                 uf__npr_row_fn fn, void *ctx)
{
    if (d == A->nd - 1) {
        fn(F, ctx, p, A->shape[d], A->strides[d]);
        return;
    }
    uf__npr_loop l;
    uf__npr_loop_open(F, &l, uf__npr_c64(F, 0), A->shape[d]);
    nest(F, A, d + 1,
         uf__npr_gep(F, p, LLVMBuildMul(B, l.i, A->strides[d], "")), fn, ctx);
    uf__npr_loop_close(F, &l, 1);
}

/* Whether A's bytes are C-contiguous (axes of length 1 any stride). */
static LLVMValueRef c_contiguous(uf__fn *F, const uf__npr_arr *A)
{
    LLVMValueRef ok = LLVMConstInt(LLVMInt1TypeInContext(F->L->ctx), 1, 0);
    LLVMValueRef want = uf__npr_c64(F, uf_dtype_itemsize(A->dt));
    for (int k = A->nd - 1; k >= 0; k--) {
        LLVMValueRef good = LLVMBuildOr(
            B, LLVMBuildICmp(B, LLVMIntEQ, A->strides[k], want, ""),
            LLVMBuildICmp(B, LLVMIntSLE, A->shape[k], uf__npr_c64(F, 1), ""),
            "");
        ok = LLVMBuildAnd(B, ok, good, "");
        want = LLVMBuildMul(B, want, A->shape[k], "");
    }
    return ok;
}

/* Every row of A in C order; a C-contiguous array of several axes as one
 * row of all its elements (same order: a flat index stays C's). */
void uf__npr_each_row(uf__fn *F, const uf__npr_arr *A, uf__npr_row_fn fn,
                      void *ctx)
{
    LLVMValueRef isz = uf__npr_c64(F, uf_dtype_itemsize(A->dt));
    if (A->nd == 0) {
        fn(F, ctx, A->data, uf__npr_c64(F, 1), isz);
        return;
    }
    if (A->nd == 1) {
        fn(F, ctx, A->data, A->shape[0], A->strides[0]);
        return;
    }
    LLVMBasicBlockRef flat = uf__fn_block(F, "npr.flat");
    LLVMBasicBlockRef rows = uf__fn_block(F, "npr.rows");
    LLVMBasicBlockRef join = uf__fn_block(F, "npr.join");
    LLVMBuildCondBr(B, c_contiguous(F, A), flat, rows);
    LLVMPositionBuilderAtEnd(B, flat);
    fn(F, ctx, A->data, uf__npr_size(F, A), isz);
    LLVMBuildBr(B, join);
    LLVMPositionBuilderAtEnd(B, rows);
    nest(F, A, 0, A->data, fn, ctx);
    LLVMBuildBr(B, join);
    LLVMPositionBuilderAtEnd(B, join);
}

/* ---- scans: min, max, arg*, all, any, nanmean, nanvar ---------------- */

typedef struct scan {
    uf__builtin b;
    uf_dtype dt;
    LLVMValueRef m, mi, first; /* allocas: value, its flat index, none yet */
    LLVMValueRef base;         /* alloca: flat index of the row's start */
    LLVMValueRef cnt, c;       /* nan*: count and sum (nanvar: of squares) */
    uf_dtype cdt;              /* of c */
    LLVMValueRef mean;         /* nanvar: the nanmean */
    LLVMValueRef found;        /* nanargmin/max of floats: a number seen */
} scan;

static bool is_min(uf__builtin b)
{
    return b == UF__BI_NP_MIN || b == UF__BI_NP_AMIN || b == UF__BI_NP_NANMIN ||
           b == UF__BI_NP_ARGMIN || b == UF__BI_NP_NANARGMIN;
}

/* x before m in the ordering of min (max: after); complex
 * lexicographically as Numba's comparators. */
static LLVMValueRef better(uf__fn *F, bool min, uf_dtype d, LLVMValueRef x,
                           LLVMValueRef m)
{
    uf__cmpop op = min ? UF__CMP_LT : UF__CMP_GT;
    if (!uf__npr_is_cplx(d))
        return uf__emit_cmp(F, op, d, x, m);
    uf_dtype p = uf__dtype_part(d);
    LLVMValueRef xr = uf__emit_real(F, x), mr = uf__emit_real(F, m);
    LLVMValueRef r = uf__emit_cmp(F, op, p, xr, mr);
    LLVMValueRef eq = uf__emit_cmp(F, UF__CMP_EQ, p, xr, mr);
    LLVMValueRef i =
        uf__emit_cmp(F, op, p, uf__emit_imag(F, x), uf__emit_imag(F, m));
    return LLVMBuildOr(B, r, LLVMBuildAnd(B, eq, i, ""), "");
}

/* Whether element x replaces the current m (scan's rules, Numba's). */
static LLVMValueRef takes(uf__fn *F, scan *S, LLVMValueRef x, LLVMValueRef m,
                          LLVMValueRef first)
{
    bool min = is_min(S->b);
    LLVMValueRef t;
    switch (S->b) {
    case UF__BI_NP_NANMIN:
    case UF__BI_NP_NANMAX:
        if (uf__npr_is_cplx(S->dt)) {
            /* complex_nanmin: a NaN real part gives way to any other */
            LLVMValueRef mr = uf__emit_real(F, m), xr = uf__emit_real(F, x);
            LLVMValueRef mnan = LLVMBuildFCmp(B, LLVMRealUNO, mr, mr, "");
            LLVMValueRef xnum = LLVMBuildFCmp(B, LLVMRealORD, xr, xr, "");
            t = LLVMBuildOr(B, LLVMBuildAnd(B, mnan, xnum, ""),
                            better(F, min, S->dt, x, m), "");
        } else if (uf__npr_is_flt(S->dt)) {
            /* real_nanmin: not NaN and not (m < x) */
            LLVMValueRef xnum = LLVMBuildFCmp(B, LLVMRealORD, x, x, "");
            t = LLVMBuildAnd(
                B, xnum, LLVMBuildNot(B, better(F, !min, S->dt, x, m), ""), "");
            /* m < x is x > m; for the first element m is NaN: taken */
        } else {
            t = better(F, min, S->dt, x, m);
        }
        break;
    case UF__BI_NP_NANARGMIN:
    case UF__BI_NP_NANARGMAX:
        /* NumPy's NaN-as-(+/-)inf then argmin: a NaN x compares false,
         * and m starts at that infinity, so index 0 stays unless some
         * number beats it */
        t = better(F, min, S->dt, x, m);
        break;
    case UF__BI_NP_ARGMIN:
    case UF__BI_NP_ARGMAX:
        t = better(F, min, S->dt, x, m);
        if (uf__npr_is_flt(S->dt)) /* the first NaN, then nothing */
            t = LLVMBuildOr(
                B, t,
                LLVMBuildAnd(B, LLVMBuildFCmp(B, LLVMRealUNO, x, x, ""),
                             LLVMBuildFCmp(B, LLVMRealORD, m, m, ""), ""),
                "");
        break;
    default: /* min, max: NaN propagates (then stays: nothing is < NaN) */
        t = better(F, min, S->dt, x, m);
        if (uf__npr_is_flt(S->dt))
            t = LLVMBuildOr(B, t, LLVMBuildFCmp(B, LLVMRealUNO, x, x, ""), "");
        break;
    }
    return first ? LLVMBuildOr(B, t, first, "") : t;
}

/* The starting value of m: the identity where one exists, so that the
 * loop needs no first-element flag; NaN for real nanmin/nanmax. */
static LLVMValueRef scan_init(uf__fn *F, scan *S, bool *needs_first)
{
    uf_dtype d = S->dt;
    bool min = is_min(S->b);
    *needs_first = false;
    if (uf__npr_is_cplx(d)) {
        *needs_first = true;
        return LLVMGetUndef(uf__lower_dtype(F->L, d));
    }
    if (uf__npr_is_flt(d)) {
        if (S->b == UF__BI_NP_NANMIN || S->b == UF__BI_NP_NANMAX)
            return uf__emit_const_float(F, d, NAN);
        return uf__emit_const_float(F, d, min ? INFINITY : -INFINITY);
    }
    if (d == UF_BOOL)
        return LLVMConstInt(LLVMInt1TypeInContext(F->L->ctx), min, 0);
    int bits = uf_dtype_itemsize(d) * 8;
    LLVMTypeRef t = uf__lower_dtype(F->L, d);
    unsigned long long all = bits == 64 ? ~0ULL : (1ULL << bits) - 1;
    if (uf_dtype_kind(d) == 'u')
        return LLVMConstInt(t, min ? all : 0, 0);
    unsigned long long top = 1ULL << (bits - 1);
    return LLVMConstInt(t, min ? top - 1 : top, 0);
}

static void scan_row(uf__fn *F, void *ctx, LLVMValueRef p, LLVMValueRef n,
                     LLVMValueRef stride)
{
    scan *S = ctx;
    LLVMTypeRef dt = uf__lower_dtype(F->L, S->dt);
    LLVMTypeRef i1 = LLVMInt1TypeInContext(F->L->ctx);
    LLVMValueRef base = LLVMBuildLoad2(B, uf__npr_i64(F), S->base, "");
    LLVMValueRef from = uf__npr_c64(F, 0);
    if (S->mi && uf__npr_argvec_applies(F, S->b, S->dt)) /* lower_npextra.c */
        from = uf__npr_argvec(F, is_min(S->b), S->dt, p, n, stride, base, S->m,
                              S->mi, S->found);
    uf__npr_loop l;
    uf__npr_loop_open(F, &l, from, n);
    LLVMValueRef x = uf__emit_elem_load(
        F, uf__npr_gep(F, p, LLVMBuildMul(B, l.i, stride, "")), S->dt);
    switch (S->b) {
    case UF__BI_NP_ALL:
    case UF__BI_NP_ANY: {
        LLVMValueRef m = LLVMBuildLoad2(B, i1, S->m, "");
        LLVMValueRef t = uf__emit_truth(F, x, S->dt);
        LLVMBuildStore(B,
                       S->b == UF__BI_NP_ALL ? LLVMBuildAnd(B, m, t, "")
                                             : LLVMBuildOr(B, m, t, ""),
                       S->m);
        break;
    }
    case UF__BI_NP_NANMEAN:
    case UF__BI_NP_NANVAR:
    case UF__BI_NP_NANSTD: {
        LLVMValueRef nan = uf__npr_isnan(F, x, S->dt);
        LLVMValueRef v = uf__emit_cast(F, x, S->dt, S->cdt);
        if (S->b != UF__BI_NP_NANMEAN) {
            /* real(val * conj(val)), val = x - mean in mean's dtype */
            LLVMValueRef d = uf__emit_binop(F, UF__OP_SUB, S->cdt, v, S->mean);
            if (uf__npr_is_cplx(S->cdt)) {
                LLVMValueRef re = uf__emit_real(F, d), im = uf__emit_imag(F, d);
                v = LLVMBuildFAdd(B, LLVMBuildFMul(B, re, re, ""),
                                  LLVMBuildFMul(B, im, im, ""), "");
            } else {
                v = LLVMBuildFMul(B, d, d, "");
            }
        }
        uf_dtype sd = S->b == UF__BI_NP_NANMEAN ? S->cdt : UF_FLOAT64;
        LLVMTypeRef st = uf__lower_dtype(F->L, sd);
        LLVMValueRef c = LLVMBuildLoad2(B, st, S->c, "");
        LLVMBuildStore(B,
                       LLVMBuildSelect(B, nan, c,
                                       uf__emit_binop(F, UF__OP_ADD, sd, c, v),
                                       ""),
                       S->c);
        LLVMValueRef k = LLVMBuildLoad2(B, uf__npr_i64(F), S->cnt, "");
        LLVMBuildStore(B,
                       LLVMBuildAdd(B, k,
                                    LLVMBuildZExt(B, LLVMBuildNot(B, nan, ""),
                                                  uf__npr_i64(F), ""),
                                    ""),
                       S->cnt);
        break;
    }
    default: {
        LLVMValueRef m = LLVMBuildLoad2(B, dt, S->m, "");
        LLVMValueRef first =
            S->first ? LLVMBuildLoad2(B, i1, S->first, "") : NULL;
        LLVMValueRef t = takes(F, S, x, m, first);
        LLVMBuildStore(B, LLVMBuildSelect(B, t, x, m, ""), S->m);
        if (S->mi) {
            LLVMValueRef mi = LLVMBuildLoad2(B, uf__npr_i64(F), S->mi, "");
            LLVMBuildStore(
                B,
                LLVMBuildSelect(B, t, LLVMBuildAdd(B, base, l.i, ""), mi, ""),
                S->mi);
        }
        if (S->first)
            LLVMBuildStore(B, LLVMConstInt(i1, 0, 0), S->first);
        if (S->found)
            LLVMBuildStore(B,
                           LLVMBuildOr(B, LLVMBuildLoad2(B, i1, S->found, ""),
                                       LLVMBuildFCmp(B, LLVMRealORD, x, x, ""),
                                       ""),
                           S->found);
        break;
    }
    }
    uf__npr_loop_close(F, &l, 1);
    LLVMBuildStore(B, LLVMBuildAdd(B, base, n, ""), S->base);
}

static int empty_status(uf__builtin b)
{
    switch (b) {
    case UF__BI_NP_MIN:
    case UF__BI_NP_AMIN:
        return UF__JIT_EMPTY_MIN;
    case UF__BI_NP_MAX:
    case UF__BI_NP_AMAX:
        return UF__JIT_EMPTY_MAX;
    case UF__BI_NP_NANMIN:
    case UF__BI_NP_NANMAX:
        return UF__JIT_EMPTY_NANMINMAX;
    case UF__BI_NP_ARGMIN:
    case UF__BI_NP_NANARGMIN:
        return UF__JIT_EMPTY_ARGMIN;
    case UF__BI_NP_ARGMAX:
    case UF__BI_NP_NANARGMAX:
        return UF__JIT_EMPTY_ARGMAX;
    default:
        return 0;
    }
}

LLVMValueRef uf__npr_scan(uf__fn *F, uf__builtin b, const uf__npr_arr *A)
{
    scan S = {.b = b, .dt = A->dt};
    LLVMTypeRef i1 = LLVMInt1TypeInContext(F->L->ctx);
    LLVMValueRef n = uf__npr_size(F, A);
    int st = empty_status(b);
    if (st)
        uf__fn_raise_if(
            F, LLVMBuildICmp(B, LLVMIntEQ, n, uf__npr_c64(F, 0), ""), st);
    S.base = uf__fn_alloca(F, uf__npr_i64(F), "flat");
    LLVMBuildStore(B, uf__npr_c64(F, 0), S.base);
    switch (b) {
    case UF__BI_NP_ALL:
    case UF__BI_NP_ANY:
        S.m = uf__fn_alloca(F, i1, "all");
        LLVMBuildStore(B, LLVMConstInt(i1, b == UF__BI_NP_ALL, 0), S.m);
        uf__npr_each_row(F, A, scan_row, &S);
        return LLVMBuildLoad2(B, i1, S.m, "");
    case UF__BI_NP_NANMEAN:
    case UF__BI_NP_NANVAR:
    case UF__BI_NP_NANSTD: {
        S.cdt = uf__npr_is_cplx(A->dt) ? UF_COMPLEX128 : UF_FLOAT64;
        S.cnt = uf__fn_alloca(F, uf__npr_i64(F), "count");
        uf_dtype sd = UF_FLOAT64;
        if (b != UF__BI_NP_NANMEAN) {
            /* np.nanmean first, then the squares in float64 */
            S.mean = uf__npr_scan(F, UF__BI_NP_NANMEAN, A);
            if (!S.mean)
                return NULL;
            LLVMBuildStore(B, uf__npr_c64(F, 0), S.base);
        } else {
            sd = S.cdt;
        }
        S.c = uf__fn_alloca(F, uf__lower_dtype(F->L, sd), "c");
        LLVMBuildStore(B, LLVMConstNull(uf__lower_dtype(F->L, sd)), S.c);
        LLVMBuildStore(B, uf__npr_c64(F, 0), S.cnt);
        uf__npr_each_row(F, A, scan_row, &S);
        LLVMValueRef c = LLVMBuildLoad2(B, uf__lower_dtype(F->L, sd), S.c, "");
        LLVMValueRef k = LLVMBuildLoad2(B, uf__npr_i64(F), S.cnt, "");
        /* np.divide: 0 / 0 is NaN, never an error */
        LLVMValueRef r = uf__npr_div_count(F, c, sd, k);
        if (b == UF__BI_NP_NANSTD)
            r = uf__emit_mathfn(F, "sqrt", &r, 1);
        return r;
    }
    default:
        break;
    }
    bool needs_first;
    LLVMTypeRef dt = uf__lower_dtype(F->L, A->dt);
    LLVMValueRef init = scan_init(F, &S, &needs_first);
    S.m = uf__fn_alloca(F, dt, "m");
    LLVMBuildStore(B, init, S.m);
    if (needs_first) {
        S.first = uf__fn_alloca(F, i1, "first");
        LLVMBuildStore(B, LLVMConstInt(i1, 1, 0), S.first);
    }
    bool nanarg = b == UF__BI_NP_NANARGMIN || b == UF__BI_NP_NANARGMAX;
    if (b == UF__BI_NP_ARGMIN || b == UF__BI_NP_ARGMAX || nanarg) {
        S.mi = uf__fn_alloca(F, uf__npr_i64(F), "mi");
        LLVMBuildStore(B, uf__npr_c64(F, 0), S.mi);
    }
    if (nanarg && uf__npr_is_flt(A->dt)) {
        S.found = uf__fn_alloca(F, i1, "found");
        LLVMBuildStore(B, LLVMConstInt(i1, 0, 0), S.found);
    }
    uf__npr_each_row(F, A, scan_row, &S);
    if (S.found) /* Numba's "All-NaN slice encountered" */
        uf__fn_raise_if(F, LLVMBuildNot(B, LLVMBuildLoad2(B, i1, S.found, ""),
                                        ""),
                        UF__JIT_ALL_NAN);
    return LLVMBuildLoad2(B, S.mi ? uf__npr_i64(F) : dt, S.mi ? S.mi : S.m, "");
}

/* ---- entry points --------------------------------------------------- */

static LLVMValueRef reduce(uf__fn *F, const uf__expr *e, uf__builtin b,
                           const uf__expr *x)
{
    const uf__type *t = uf__lower_info(F, x)->type;
    const uf__type *rt = uf__lower_info(F, e)->type;
    if (t && t->kind == UF__T_SCALAR) { /* np.min(3.0), np.all(x) */
        LLVMValueRef v = uf__lower_expr(F, x);
        if (!v)
            return NULL;
        return b == UF__BI_NP_ALL || b == UF__BI_NP_ANY
                   ? uf__emit_truth(F, v, t->dtype)
                   : v;
    }
    uf__npr_arr A;
    if (uf__npr_load(F, x, &A) < 0)
        return NULL;
    uf_dtype acc, res;
    if (!uf__npreduce_dtypes(b, A.dt, &acc, &res) || !rt ||
        rt->kind != UF__T_SCALAR)
        return fail(F, e, UF_ERR_INTERNAL, "an untyped reduction");
    LLVMValueRef r;
    switch (b) {
    case UF__BI_NP_SUM:
    case UF__BI_NP_PROD:
    case UF__BI_NP_NANSUM:
    case UF__BI_NP_NANPROD:
        r = uf__npr_sum(F, &A, acc,
                        b == UF__BI_NP_PROD || b == UF__BI_NP_NANPROD,
                        b == UF__BI_NP_NANSUM || b == UF__BI_NP_NANPROD);
        break;
    case UF__BI_NP_MEAN:
        r = uf__npr_mean(F, &A, acc);
        break;
    case UF__BI_NP_VAR:
    case UF__BI_NP_STD:
        r = uf__npr_var(F, &A);
        if (b == UF__BI_NP_STD)
            r = uf__emit_mathfn(F, "sqrt", &r, 1);
        break;
    default:
        r = uf__npr_scan(F, b, &A);
        break;
    }
    return r ? uf__emit_cast(F, r, res, rt->dtype) : NULL;
}

static LLVMValueRef dot(uf__fn *F, const uf__expr *e, const uf__expr *x,
                        const uf__expr *y, bool conj)
{
    uf__npr_arr X, Y;
    if (uf__npr_load(F, x, &X) < 0 || uf__npr_load(F, y, &Y) < 0)
        return NULL;
    if (X.nd == 2 || Y.nd == 2)
        return uf__npr_matmul(F, e, &X, &Y);
    if (X.nd != 1 || Y.nd != 1 || X.dt != Y.dt)
        return fail(F, e, UF_ERR_INTERNAL, "np.dot of these arrays");
    uf__fn_raise_if(F, LLVMBuildICmp(B, LLVMIntNE, X.shape[0], Y.shape[0], ""),
                    UF__JIT_DOT_SHAPE);
    /* where nothing may raise, the shorter length */
    LLVMValueRef n = LLVMBuildSelect(
        B, LLVMBuildICmp(B, LLVMIntSLT, X.shape[0], Y.shape[0], ""), X.shape[0],
        Y.shape[0], "");
    return uf__npr_dot(F, &X, &Y, n, conj);
}

static LLVMValueRef transpose(uf__fn *F, const uf__expr *x)
{
    const uf__type *t = uf__lower_info(F, x)->type;
    LLVMValueRef a = uf__lower_expr(F, x);
    if (!a || t->ndim <= 1)
        return a;
    LLVMValueRef shape[UF__NPR_MAXND], strides[UF__NPR_MAXND];
    for (int k = 0; k < t->ndim; k++) {
        shape[t->ndim - 1 - k] = uf__emit_array_dim(F, a, k);
        strides[t->ndim - 1 - k] = LLVMBuildExtractValue(
            B, LLVMBuildExtractValue(B, a, 2, ""), (unsigned)k, "stride");
    }
    return uf__build_array(F->L, uf__emit_array_data(F, a), shape, strides,
                           t->ndim);
}

static LLVMValueRef attribute(uf__fn *F, const uf__expr *e, uf__builtin b)
{
    const uf__expr *x = e->u.attr.value;
    if (b == UF__BI_NP_ATTR_T)
        return transpose(F, x);
    uf__npr_arr A;
    if (uf__npr_load(F, x, &A) < 0)
        return NULL;
    LLVMValueRef isz = uf__npr_c64(F, uf_dtype_itemsize(A.dt));
    if (b == UF__BI_NP_ATTR_ITEMSIZE)
        return isz;
    return LLVMBuildMul(B, uf__npr_size(F, &A), isz, "nbytes");
}

LLVMValueRef uf__lower_npreduce(uf__fn *F, const uf__expr *e)
{
    uf__builtin b = uf__lower_info(F, e)->builtin;
    if (uf__builtin_is_npextra(b) && e->kind == UF__EX_CALL)
        return uf__npr_extra(F, e, b); /* lower_npextra.c */
    if (e->kind == UF__EX_ATTR)
        return attribute(F, e, b);
    if (e->kind == UF__EX_BINARY) /* x @ y */
        return dot(F, e, e->u.binary.left, e->u.binary.right, false);
    if (e->kind != UF__EX_CALL)
        return fail(F, e, UF_ERR_INTERNAL, "not a NumPy reduction");
    const uf__expr *ops[2];
    int n = 0;
    const uf__expr *f = e->u.call.func;
    bool method = false;
    if (f->kind == UF__EX_ATTR) {
        const uf__type *rt = uf__lower_info(F, f->u.attr.value)->type;
        method = rt && rt->kind == UF__T_ARRAY;
        if (method) /* the receiver */
            ops[n++] = f->u.attr.value;
    }
    for (int i = 0; i < e->u.call.nargs && n < 2; i++)
        ops[n++] = e->u.call.args[i];
    if (b == UF__BI_NP_DOT || b == UF__BI_NP_VDOT)
        return n == 2 ? dot(F, e, ops[0], ops[1], b == UF__BI_NP_VDOT)
                      : fail(F, e, UF_ERR_INTERNAL, "np.dot's operands");
    const uf__keyword *other;
    const uf__expr *ax = uf__npreduce_axis_arg(e, method, &other);
    if (b == UF__BI_NP_SUM && n >= 1) /* axis=, dtype= */
        return uf__npr_sum_call(F, e, ops[0], ax);
    if (ax && b != UF__BI_NP_TRANSPOSE)
        return uf__npr_axis(F, e, b, ops[0], ax);
    if (n != 1)
        return fail(F, e, UF_ERR_INTERNAL, "a reduction's operand");
    if (b == UF__BI_NP_TRANSPOSE)
        return transpose(F, ops[0]);
    return reduce(F, e, b, ops[0]);
}

/* ---- which expressions may raise (lower_fallible.c) ----------------- */

bool uf__npreduce_fallible(const uf__typed_func *tf, const uf__expr *e)
{
    const uf__expr_info *in = uf__tf_info(tf, e);
    if (!uf__builtin_is_npreduce(in->builtin))
        return false;
    if (uf__builtin_is_npextra(in->builtin))
        return uf__npr_extra_fallible(tf, e);
    if (e->kind == UF__EX_BINARY)
        return true; /* x @ y: lengths checked */
    if (e->kind != UF__EX_CALL)
        return false;
    /* var/std of nothing divide by zero: ZeroDivisionError only in
     * Python's error model, where functions are fallible anyway */
    if (in->builtin == UF__BI_NP_DOT || in->builtin == UF__BI_NP_VDOT)
        return true;
    const uf__expr *f = e->u.call.func;
    const uf__type *recv =
        f->kind == UF__EX_ATTR ? uf__tf_info(tf, f->u.attr.value)->type : NULL;
    const uf__keyword *other;
    if (uf__npreduce_axis_arg(e, recv && recv->kind == UF__T_ARRAY, &other))
        return true; /* the axis's bounds; a new array */
    if (!empty_status(in->builtin))
        return false;
    /* np.min(3.0) of a scalar cannot raise */
    const uf__expr *x = e->u.call.nargs > 0      ? e->u.call.args[0]
                        : f->kind == UF__EX_ATTR ? f->u.attr.value
                                                 : NULL;
    const uf__type *xt = x ? uf__tf_info(tf, x)->type : NULL;
    return xt && xt->kind == UF__T_ARRAY;
}
