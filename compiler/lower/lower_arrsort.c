/* np.sort(a) (a C copy, then sorted), a.sort() (in place), np.argsort(a)
 * and np.searchsorted(a, v, side=), typed by infer_arrmeth.c.
 *
 * Sorting calls the host runtime (common/npsort.h: a radix sort, an
 * introsort for short rows, NaNs last, complex numbers in NumPy's order;
 * a stable radix sort of indices for argsort) along
 * the last axis, row by row as Numba's quicksort does. Searching is a
 * binary search generated here, as Numba's: side='left' finds the first
 * element not less than v, 'right' the first greater, in the dtype NumPy
 * promotes the two to, with NaN above every number. */
#include <string.h>

#include "common/npsort.h"
#include "compiler/lower/lower.h"
#include "compiler/lower/lower_array.h"
#include "compiler/lower/lower_arrmeth.h"

#define B (F->L->b)

static LLVMTypeRef i64t(uf__fn *F)
{
    return LLVMInt64TypeInContext(F->L->ctx);
}

static LLVMValueRef c64(uf__fn *F, int64_t v)
{
    return LLVMConstInt(i64t(F), (unsigned long long)v, 1);
}

static LLVMValueRef call_helper(uf__fn *F, const char *name, LLVMTypeRef ret,
                                LLVMValueRef *args, unsigned n)
{
    LLVMTypeRef pt[6];
    for (unsigned i = 0; i < n; i++)
        pt[i] = LLVMTypeOf(args[i]);
    LLVMTypeRef fty = LLVMFunctionType(ret, pt, n, 0);
    LLVMValueRef fn = F->L->cg->helper(F->L, name, fty);
    F->L->uses_runtime = true;
    return LLVMBuildCall2(B, fty, fn, args, n, "");
}

/* The i32 status of a runtime sort: nonzero is out of memory. */
static void raise_nomem(uf__fn *F, LLVMValueRef status)
{
    uf__fn_raise_if(F, LLVMBuildICmp(B, LLVMIntNE, status,
                                     LLVMConstInt(LLVMTypeOf(status), 0, 0),
                                     ""),
                    UF__JIT_NOMEM);
}

/* Sorts array a (type t) along its last axis, in place. */
static void sort_rows(uf__fn *F, LLVMValueRef a, const uf__type *t)
{
    LLVMTypeRef arr = LLVMArrayType(i64t(F), (unsigned)t->ndim);
    LLVMValueRef shape = uf__fn_alloca(F, arr, "sort.shape");
    LLVMValueRef strides = uf__fn_alloca(F, arr, "sort.strides");
    LLVMTypeRef i64p = LLVMPointerType(i64t(F), 0);
    LLVMValueRef sp = LLVMBuildPointerCast(B, shape, i64p, "");
    LLVMValueRef tp = LLVMBuildPointerCast(B, strides, i64p, "");
    for (int k = 0; k < t->ndim; k++) {
        LLVMValueRef ix = c64(F, k);
        LLVMBuildStore(B, uf__emit_array_dim(F, a, k),
                       LLVMBuildGEP2(B, i64t(F), sp, &ix, 1, ""));
        LLVMBuildStore(B, uf__emit_array_stride(F, a, t, k),
                       LLVMBuildGEP2(B, i64t(F), tp, &ix, 1, ""));
    }
    LLVMTypeRef i32 = LLVMInt32TypeInContext(F->L->ctx);
    LLVMValueRef args[5] = {uf__emit_array_data(F, a), c64(F, t->ndim), sp,
                            tp, LLVMConstInt(i32, (unsigned)t->dtype, 0)};
    raise_nomem(F, call_helper(F, UF__NP_SORT_ROWS, i32, args, 5));
}

/* x < y for complex x, y in NumPy's order (npysort's CLT): by real
 * part, then imaginary part; numbers with a NaN imaginary part after the
 * others, then those with a NaN real part, then both NaN. */
static LLVMValueRef complex_less(uf__fn *F, LLVMValueRef x, LLVMValueRef y)
{
    LLVMValueRef xr = LLVMBuildExtractValue(B, x, 0, "");
    LLVMValueRef xi = LLVMBuildExtractValue(B, x, 1, "");
    LLVMValueRef yr = LLVMBuildExtractValue(B, y, 0, "");
    LLVMValueRef yi = LLVMBuildExtractValue(B, y, 1, "");
    LLVMValueRef xi_num = LLVMBuildFCmp(B, LLVMRealORD, xi, xi, "");
    LLVMValueRef yi_nan = LLVMBuildFCmp(B, LLVMRealUNO, yi, yi, "");
    LLVMValueRef yr_nan = LLVMBuildFCmp(B, LLVMRealUNO, yr, yr, "");
    LLVMValueRef lt = LLVMBuildFCmp(B, LLVMRealOLT, xr, yr, "");
    LLVMValueRef gt = LLVMBuildFCmp(B, LLVMRealOGT, xr, yr, "");
    LLVMValueRef same = LLVMBuildOr(
        B, LLVMBuildFCmp(B, LLVMRealOEQ, xr, yr, ""),
        LLVMBuildAnd(B, LLVMBuildFCmp(B, LLVMRealUNO, xr, xr, ""), yr_nan,
                     ""),
        "");
    LLVMValueRef nan_after = LLVMBuildAnd(B, yi_nan, xi_num, "");
    LLVMValueRef r_lt = LLVMBuildOr(B, xi_num, yi_nan, "");
    LLVMValueRef r_same = LLVMBuildOr(
        B, LLVMBuildFCmp(B, LLVMRealOLT, xi, yi, ""), nan_after, "");
    LLVMValueRef r = LLVMBuildSelect(B, same, r_same, yr_nan, "");
    r = LLVMBuildSelect(B, gt, nan_after, r, "");
    return LLVMBuildSelect(B, lt, r_lt, r, "");
}

/* x < y (left) or x <= y (right) in dtype cd, NaN above every number. */
static LLVMValueRef before(uf__fn *F, uf_dtype cd, LLVMValueRef x,
                           LLVMValueRef y, bool right)
{
    if (uf_dtype_kind(cd) == 'c')
        return right ? LLVMBuildNot(B, complex_less(F, y, x), "")
                     : complex_less(F, x, y);
    if (uf_dtype_kind(cd) != 'f')
        return uf__emit_cmp(F, right ? UF__CMP_LE : UF__CMP_LT, cd, x, y);
    LLVMValueRef ynan = LLVMBuildFCmp(B, LLVMRealUNO, y, y, "");
    if (right)
        return LLVMBuildOr(B, ynan, LLVMBuildFCmp(B, LLVMRealOLE, x, y, ""),
                           "");
    LLVMValueRef xnum = LLVMBuildFCmp(B, LLVMRealORD, x, x, "");
    return LLVMBuildOr(B, LLVMBuildFCmp(B, LLVMRealOLT, x, y, ""),
                       LLVMBuildAnd(B, ynan, xnum, ""), "");
}

typedef struct search {
    LLVMValueRef data, stride, n; /* the sorted 1-D array */
    uf_dtype adt, vdt, cd;
    bool right;
    LLVMValueRef lo, hi; /* i64 slots */
} search;

/* The index where key (dtype s->vdt) goes. */
static LLVMValueRef bsearch_key(uf__fn *F, const search *s, LLVMValueRef key)
{
    key = uf__emit_cast(F, key, s->vdt, s->cd);
    LLVMBuildStore(B, c64(F, 0), s->lo);
    LLVMBuildStore(B, s->n, s->hi);
    LLVMBasicBlockRef head = uf__fn_block(F, "ss.head");
    LLVMBasicBlockRef body = uf__fn_block(F, "ss.body");
    LLVMBasicBlockRef done = uf__fn_block(F, "ss.done");
    LLVMBuildBr(B, head);
    LLVMPositionBuilderAtEnd(B, head);
    LLVMValueRef lo = LLVMBuildLoad2(B, i64t(F), s->lo, "lo");
    LLVMValueRef hi = LLVMBuildLoad2(B, i64t(F), s->hi, "hi");
    LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntSLT, lo, hi, ""), body, done);
    LLVMPositionBuilderAtEnd(B, body);
    LLVMValueRef mid = LLVMBuildAdd(
        B, lo, LLVMBuildLShr(B, LLVMBuildSub(B, hi, lo, ""), c64(F, 1), ""),
        "mid");
    LLVMValueRef off = LLVMBuildMul(B, mid, s->stride, "");
    LLVMValueRef p = LLVMBuildGEP2(B, LLVMInt8TypeInContext(F->L->ctx),
                                   s->data, &off, 1, "");
    LLVMValueRef x = uf__emit_cast(F, uf__emit_elem_load(F, p, s->adt),
                                   s->adt, s->cd);
    LLVMValueRef go = before(F, s->cd, x, key, s->right);
    LLVMBuildStore(B, LLVMBuildSelect(B, go, LLVMBuildAdd(B, mid, c64(F, 1),
                                                          ""),
                                      lo, ""),
                   s->lo);
    LLVMBuildStore(B, LLVMBuildSelect(B, go, hi, mid, ""), s->hi);
    LLVMBuildBr(B, head);
    LLVMPositionBuilderAtEnd(B, done);
    return lo;
}

static void search_op(uf__fn *F, LLVMValueRef sp, LLVMValueRef dp, void *ud)
{
    const search *s = ud;
    LLVMValueRef r = bsearch_key(F, s, uf__emit_elem_load(F, sp, s->vdt));
    uf__emit_elem_store(F, dp, UF_INT64, r);
}

static LLVMValueRef searchsorted(uf__fn *F, const uf__expr *e,
                                 LLVMValueRef a, const uf__type *at)
{
    const uf__expr *vx = uf__arrmeth_arg(F, e, 0, "v");
    const uf__expr *sx = uf__arrmeth_arg(F, e, 1, "side");
    LLVMValueRef v = uf__lower_expr(F, vx);
    if (!v)
        return NULL;
    const uf__type *vt = uf__lower_info(F, vx)->type;
    search s = {
        .data = uf__emit_array_data(F, a),
        .stride = uf__emit_array_stride(F, a, at, 0),
        .n = uf__emit_array_dim(F, a, 0),
        .adt = at->dtype,
        .vdt = vt->dtype,
        .cd = uf_promote_types(at->dtype, vt->dtype),
        .right = sx && strcmp(uf__lower_strlit(F, sx, NULL), "right") == 0,
        .lo = uf__fn_alloca(F, i64t(F), "ss.lo"),
        .hi = uf__fn_alloca(F, i64t(F), "ss.hi"),
    };
    if (vt->kind == UF__T_SCALAR)
        return bsearch_key(F, &s, v);
    LLVMValueRef shape[UF_MAXDIMS], n;
    for (int k = 0; k < vt->ndim; k++)
        shape[k] = uf__emit_array_dim(F, v, k);
    LLVMValueRef dst = uf__arrmeth_new(F, UF_INT64, vt->ndim, shape, 'C', &n);
    uf__arrmeth_visit(F, v, vt, uf__emit_array_data(F, dst), c64(F, 8),
                      search_op, &s);
    return dst;
}

LLVMValueRef uf__lower_arrsort(uf__fn *F, const uf__expr *e)
{
    const uf__expr_info *in = uf__lower_info(F, e);
    const uf__type *rt = in->type;
    const uf__expr *rx = uf__arrmeth_recv(F, e);
    const uf__type *at = uf__lower_info(F, rx)->type;
    LLVMValueRef a = uf__lower_expr(F, rx);
    if (!a)
        return NULL;
    switch (in->builtin) {
    case UF__BI_NP_SORT: {
        LLVMValueRef c = uf__arrmeth_copy(F, a, at, rt);
        sort_rows(F, c, rt);
        return c;
    }
    case UF__BI_METH_SORT:
        sort_rows(F, a, at);
        return LLVMGetUndef(LLVMInt1TypeInContext(F->L->ctx));
    case UF__BI_NP_ARGSORT: {
        LLVMValueRef len = uf__emit_array_dim(F, a, 0), n;
        LLVMValueRef dst = uf__arrmeth_new(F, UF_INT64, 1, &len, 'C', &n);
        LLVMTypeRef i32 = LLVMInt32TypeInContext(F->L->ctx);
        LLVMValueRef args[5] = {
            uf__emit_array_data(F, a), len,
            uf__emit_array_stride(F, a, at, 0),
            LLVMConstInt(i32, (unsigned)at->dtype, 0),
            LLVMBuildPointerCast(B, uf__emit_array_data(F, dst),
                                 LLVMPointerType(i64t(F), 0), "")};
        raise_nomem(F, call_helper(F, UF__NP_ARGSORT, i32, args, 5));
        return dst;
    }
    default:
        return searchsorted(F, e, a, at);
    }
}
