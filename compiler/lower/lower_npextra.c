/* np.nanargmin / np.nanargmax, np.count_nonzero and np.ptp in generated
 * code (typed by infer_npextra.c), one pass over the array where it lies:
 *   nanarg*: the argmin/argmax scan of lower_npreduce.c with NumPy's rule
 *     (NaN counts as +inf for argmin, -inf for argmax, so index 0 stays
 *     when nothing beats that infinity); empty: Numba's argmin ValueError,
 *     NaN only: "All-NaN slice encountered"; with an axis, the argmin axis
 *     walk of lower_npaxis.c;
 *   count_nonzero: the truth of each element (NaN is nonzero) summed in
 *     int64; with an axis, np.sum's walk (lower_npaxis.c) over the truth;
 *   ptp: max - min with Numba's early return on NaN (a float NaN gives
 *     NaN; the first complex with a NaN real part gives nan+0j, or
 *     nan+nanj when its imaginary part is NaN too), complex ordered
 *     lexicographically; empty raises ValueError (NumPy's; Numba's own
 *     checks len(a) only and reads past the end of a (3, 0) array).
 * The count and the real ptp are plain loops LLVM's loop vectoriser turns
 * into vector loops on a unit-stride row (the float min/max compare
 * values with NaN already replaced by an infinity, so they carry `nnan`,
 * which LLVM asks for before it vectorises a float min/max). */
#include <math.h>

#include "common/error_internal.h"
#include "compiler/host/llvm_fastmath.h"
#include "compiler/lower/lower_npreduce.h"
#include "compiler/types/infer_npextra.h"
#include "compiler/types/infer_npreduce.h"

#define B (F->L->b)

static LLVMValueRef fail(uf__fn *F, const uf__expr *e, const char *what)
{
    uf__source_error(F->err, UF_ERR_INTERNAL, F->tf->km->src, e->pos, "%s",
                     what);
    return NULL;
}

/* ---- one loop per row, a unit-stride copy where the stride allows --- */

typedef void (*elem_fn)(uf__fn *F, void *ctx, LLVMValueRef x);

typedef struct row_walk {
    uf_dtype dt;
    elem_fn fn;
    void *ctx;
} row_walk;

static void elems(uf__fn *F, const row_walk *W, LLVMValueRef p, LLVMValueRef n,
                  LLVMValueRef stride)
{
    uf__npr_loop l;
    uf__npr_loop_open(F, &l, uf__npr_c64(F, 0), n);
    W->fn(F, W->ctx,
          uf__emit_elem_load(
              F, uf__npr_gep(F, p, LLVMBuildMul(B, l.i, stride, "")), W->dt));
    uf__npr_loop_close(F, &l, 1);
}

static void walk_row(uf__fn *F, void *ctx, LLVMValueRef p, LLVMValueRef n,
                     LLVMValueRef stride)
{
    const row_walk *W = ctx;
    LLVMValueRef isz = uf__npr_c64(F, uf_dtype_itemsize(W->dt));
    if (LLVMIsConstant(stride) || F->L->cg->sreg != NULL) {
        elems(F, W, p, n, stride);
        return;
    }
    LLVMBasicBlockRef unit = uf__fn_block(F, "npx.unit");
    LLVMBasicBlockRef any = uf__fn_block(F, "npx.strided");
    LLVMBasicBlockRef done = uf__fn_block(F, "npx.row");
    LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntEQ, stride, isz, ""), unit,
                    any);
    LLVMPositionBuilderAtEnd(B, unit);
    elems(F, W, p, n, isz);
    LLVMBuildBr(B, done);
    LLVMPositionBuilderAtEnd(B, any);
    elems(F, W, p, n, stride);
    LLVMBuildBr(B, done);
    LLVMPositionBuilderAtEnd(B, done);
}

static void walk(uf__fn *F, const uf__npr_arr *A, elem_fn fn, void *ctx)
{
    row_walk W = {.dt = A->dt, .fn = fn, .ctx = ctx};
    uf__npr_each_row(F, A, walk_row, &W);
}

/* ---- count_nonzero ---------------------------------------------------- */

static void count_elem(uf__fn *F, void *ctx, LLVMValueRef x)
{
    const uf__npr_arr *A = ((void **)ctx)[0];
    LLVMValueRef slot = ((void **)ctx)[1];
    LLVMValueRef t = LLVMBuildZExt(B, uf__emit_truth(F, x, A->dt),
                                   uf__npr_i64(F), "");
    LLVMBuildStore(
        B, LLVMBuildAdd(B, LLVMBuildLoad2(B, uf__npr_i64(F), slot, ""), t, ""),
        slot);
}

LLVMValueRef uf__npr_count(uf__fn *F, const uf__npr_arr *A)
{
    LLVMValueRef slot = uf__fn_alloca(F, uf__npr_i64(F), "nonzero");
    LLVMBuildStore(B, uf__npr_c64(F, 0), slot);
    void *ctx[2] = {(void *)A, slot};
    walk(F, A, count_elem, ctx);
    return LLVMBuildLoad2(B, uf__npr_i64(F), slot, "");
}

/* ---- ptp ------------------------------------------------------------ */

typedef struct ptp {
    uf_dtype dt;
    LLVMValueRef mn, mx; /* allocas of dt */
    LLVMValueRef nan;    /* i1: a float NaN, or a complex NaN real part */
    LLVMValueRef cval;   /* complex: the early return of the first such */
    LLVMValueRef first;  /* complex: no element yet */
} ptp;

static LLVMValueRef i1c(uf__fn *F, int v)
{
    return LLVMConstInt(LLVMInt1TypeInContext(F->L->ctx), (unsigned)v, 0);
}

/* The smallest (hi: largest) value of the int or bool dtype d. */
static LLVMValueRef int_extreme(uf__fn *F, uf_dtype d, bool hi)
{
    LLVMTypeRef t = uf__lower_dtype(F->L, d);
    if (d == UF_BOOL || uf_dtype_kind(d) == 'u')
        return hi ? LLVMConstAllOnes(t) : LLVMConstNull(t);
    unsigned bits = (unsigned)uf_dtype_itemsize(d) * 8;
    unsigned long long top = 1ULL << (bits - 1);
    return LLVMConstInt(t, hi ? top - 1 : top, 0);
}

/* x before m in the order of min (gt: of max); complex as Numba's
 * _compute_current_val_impl_gen: real parts, then imaginary on a tie. */
static LLVMValueRef before(uf__fn *F, uf_dtype d, bool gt, LLVMValueRef x,
                           LLVMValueRef m)
{
    uf__cmpop op = gt ? UF__CMP_GT : UF__CMP_LT;
    if (!uf__npr_is_cplx(d))
        return uf__emit_cmp(F, op, d, x, m);
    uf_dtype p = uf__dtype_part(d);
    LLVMValueRef xr = uf__emit_real(F, x), mr = uf__emit_real(F, m);
    LLVMValueRef tie = LLVMBuildAnd(
        B, uf__emit_cmp(F, UF__CMP_EQ, p, xr, mr),
        uf__emit_cmp(F, op, p, uf__emit_imag(F, x), uf__emit_imag(F, m)), "");
    return LLVMBuildOr(B, uf__emit_cmp(F, op, p, xr, mr), tie, "");
}

/* m = x where x comes before it (a float x never NaN here: nnan). */
static void keep(uf__fn *F, ptp *P, LLVMValueRef slot, bool gt, LLVMValueRef x,
                 LLVMValueRef first)
{
    LLVMTypeRef t = uf__lower_dtype(F->L, P->dt);
    LLVMValueRef m = LLVMBuildLoad2(B, t, slot, "");
    LLVMValueRef c = before(F, P->dt, gt, x, m);
    if (uf__npr_is_flt(P->dt))
        uf__llvm_set_fmf(c, UF__FMF_NNAN | UF__FMF_NSZ);
    if (first)
        c = LLVMBuildOr(B, c, first, "");
    LLVMValueRef s = LLVMBuildSelect(B, c, x, m, "");
    if (uf__npr_is_flt(P->dt))
        uf__llvm_set_fmf(s, UF__FMF_NNAN | UF__FMF_NSZ);
    LLVMBuildStore(B, s, slot);
}

static void ptp_elem(uf__fn *F, void *ctx, LLVMValueRef x)
{
    ptp *P = ctx;
    LLVMTypeRef i1 = LLVMInt1TypeInContext(F->L->ctx);
    if (uf__npr_is_flt(P->dt)) {
        LLVMValueRef isnan = LLVMBuildFCmp(B, LLVMRealUNO, x, x, "");
        keep(F, P, P->mn, false,
             LLVMBuildSelect(B, isnan,
                             uf__emit_const_float(F, P->dt, INFINITY), x, ""),
             NULL);
        keep(F, P, P->mx, true,
             LLVMBuildSelect(B, isnan,
                             uf__emit_const_float(F, P->dt, -INFINITY), x,
                             ""),
             NULL);
        LLVMBuildStore(
            B, LLVMBuildOr(B, LLVMBuildLoad2(B, i1, P->nan, ""), isnan, ""),
            P->nan);
        return;
    }
    if (!uf__npr_is_cplx(P->dt)) {
        keep(F, P, P->mn, false, x, NULL);
        keep(F, P, P->mx, true, x, NULL);
        return;
    }
    /* complex: the first NaN real part decides the result */
    LLVMValueRef re = uf__emit_real(F, x), im = uf__emit_imag(F, x);
    LLVMValueRef seen = LLVMBuildLoad2(B, i1, P->nan, "");
    LLVMValueRef now = LLVMBuildAnd(B, LLVMBuildNot(B, seen, ""),
                                    LLVMBuildFCmp(B, LLVMRealUNO, re, re, ""),
                                    "");
    LLVMValueRef nan = uf__emit_const_float(F, UF_FLOAT64, NAN);
    LLVMValueRef early = uf__emit_complex(
        F, UF_COMPLEX128, nan,
        LLVMBuildSelect(B, LLVMBuildFCmp(B, LLVMRealUNO, im, im, ""), nan,
                        uf__emit_const_float(F, UF_FLOAT64, 0), ""));
    LLVMTypeRef ct = uf__lower_dtype(F->L, UF_COMPLEX128);
    LLVMBuildStore(B,
                   LLVMBuildSelect(B, now, early,
                                   LLVMBuildLoad2(B, ct, P->cval, ""), ""),
                   P->cval);
    LLVMBuildStore(B, LLVMBuildOr(B, seen, now, ""), P->nan);
    LLVMValueRef first = LLVMBuildLoad2(B, i1, P->first, "");
    keep(F, P, P->mn, false, x, first);
    keep(F, P, P->mx, true, x, first);
    LLVMBuildStore(B, i1c(F, 0), P->first);
}

/* max - min in acc, converted to res; the early return where it applies. */
static LLVMValueRef ptp_result(uf__fn *F, const ptp *P, LLVMValueRef mn,
                               LLVMValueRef mx, LLVMValueRef nan,
                               LLVMValueRef cval, uf_dtype res)
{
    uf_dtype acc, r;
    uf__npreduce_dtypes(UF__BI_NP_PTP, P->dt, &acc, &r);
    LLVMValueRef d = uf__emit_binop(F, UF__OP_SUB, acc,
                                    uf__emit_cast(F, mx, P->dt, acc),
                                    uf__emit_cast(F, mn, P->dt, acc));
    d = uf__emit_cast(F, d, acc, r);
    if (uf__npr_is_flt(P->dt))
        d = LLVMBuildSelect(B, nan, uf__emit_const_float(F, r, NAN), d, "");
    else if (uf__npr_is_cplx(P->dt))
        d = LLVMBuildSelect(B, nan, cval, d, "");
    return uf__emit_cast(F, d, r, res);
}

static LLVMValueRef lower_ptp(uf__fn *F, const uf__expr *e, const uf__expr *x)
{
    const uf__type *xt = uf__lower_info(F, x)->type;
    const uf__type *rt = uf__lower_info(F, e)->type;
    if (!xt || !rt)
        return fail(F, e, "an untyped np.ptp");
    ptp P = {.dt = xt->dtype};
    if (xt->kind == UF__T_SCALAR) { /* max and min are the number */
        LLVMValueRef v = uf__lower_expr(F, x);
        if (!v)
            return NULL;
        LLVMValueRef nan = i1c(F, 0), cval = NULL;
        if (uf__npr_is_flt(P.dt)) {
            nan = LLVMBuildFCmp(B, LLVMRealUNO, v, v, "");
        } else if (uf__npr_is_cplx(P.dt)) {
            LLVMValueRef re = uf__emit_real(F, v), im = uf__emit_imag(F, v);
            LLVMValueRef fnan = uf__emit_const_float(F, UF_FLOAT64, NAN);
            nan = LLVMBuildFCmp(B, LLVMRealUNO, re, re, "");
            cval = uf__emit_complex(
                F, UF_COMPLEX128, fnan,
                LLVMBuildSelect(B, LLVMBuildFCmp(B, LLVMRealUNO, im, im, ""),
                                fnan, uf__emit_const_float(F, UF_FLOAT64, 0),
                                ""));
        }
        return ptp_result(F, &P, v, v, nan, cval, rt->dtype);
    }
    uf__npr_arr A;
    if (uf__npr_load(F, x, &A) < 0)
        return NULL;
    uf__fn_raise_if(
        F, LLVMBuildICmp(B, LLVMIntEQ, uf__npr_size(F, &A), uf__npr_c64(F, 0), ""),
        UF__JIT_EMPTY_PTP);
    LLVMTypeRef t = uf__lower_dtype(F->L, P.dt);
    LLVMTypeRef i1 = LLVMInt1TypeInContext(F->L->ctx);
    P.mn = uf__fn_alloca(F, t, "ptp.min");
    P.mx = uf__fn_alloca(F, t, "ptp.max");
    P.nan = uf__fn_alloca(F, i1, "ptp.nan");
    LLVMBuildStore(B, i1c(F, 0), P.nan);
    if (uf__npr_is_flt(P.dt)) {
        LLVMBuildStore(B, uf__emit_const_float(F, P.dt, INFINITY), P.mn);
        LLVMBuildStore(B, uf__emit_const_float(F, P.dt, -INFINITY), P.mx);
    } else if (uf__npr_is_cplx(P.dt)) {
        LLVMTypeRef ct = uf__lower_dtype(F->L, UF_COMPLEX128);
        P.first = uf__fn_alloca(F, i1, "ptp.first");
        P.cval = uf__fn_alloca(F, ct, "ptp.early");
        LLVMBuildStore(B, i1c(F, 1), P.first);
        LLVMBuildStore(B, LLVMConstNull(ct), P.cval);
        LLVMBuildStore(B, LLVMConstNull(t), P.mn);
        LLVMBuildStore(B, LLVMConstNull(t), P.mx);
    } else {
        LLVMBuildStore(B, int_extreme(F, P.dt, true), P.mn);
        LLVMBuildStore(B, int_extreme(F, P.dt, false), P.mx);
    }
    walk(F, &A, ptp_elem, &P);
    LLVMValueRef cval = NULL;
    if (P.cval)
        cval = LLVMBuildLoad2(B, uf__lower_dtype(F->L, UF_COMPLEX128), P.cval,
                              "");
    return ptp_result(F, &P, LLVMBuildLoad2(B, t, P.mn, ""),
                      LLVMBuildLoad2(B, t, P.mx, ""),
                      LLVMBuildLoad2(B, i1, P.nan, ""), cval, rt->dtype);
}

/* ---- entry points ------------------------------------------------------ */

static bool has_axis(const uf__type *at)
{
    return at != NULL && at->kind != UF__T_NONE;
}

LLVMValueRef uf__npr_extra(uf__fn *F, const uf__expr *e, uf__builtin b)
{
    const uf__expr *x, *ax = NULL;
    uf__pos where;
    if (uf__npextra_bind(e, b, &x, &ax, &where) != NULL)
        return fail(F, e, "an unbound NumPy reduction");
    const uf__type *rt = uf__lower_info(F, e)->type;
    const uf__type *at = ax ? uf__lower_info(F, ax)->type : NULL;
    if (!rt)
        return fail(F, e, "an untyped NumPy reduction");
    if (b == UF__BI_NP_PTP)
        return lower_ptp(F, e, x);
    if (has_axis(at))
        return b == UF__BI_NP_COUNT_NONZERO ? uf__npr_count_call(F, e, x, ax)
                                            : uf__npr_axis(F, e, b, x, ax);
    uf__npr_arr A;
    if (uf__npr_load(F, x, &A) < 0)
        return NULL;
    LLVMValueRef r = b == UF__BI_NP_COUNT_NONZERO ? uf__npr_count(F, &A)
                                                  : uf__npr_scan(F, b, &A);
    return r ? uf__emit_cast(F, r, UF_INT64, rt->dtype) : NULL;
}

bool uf__npr_extra_fallible(const uf__typed_func *tf, const uf__expr *e)
{
    const uf__expr_info *in = uf__tf_info(tf, e);
    const uf__expr *x, *ax = NULL;
    uf__pos where;
    if (e->kind != UF__EX_CALL ||
        uf__npextra_bind(e, in->builtin, &x, &ax, &where) != NULL)
        return false;
    const uf__type *xt = uf__tf_info(tf, x)->type;
    switch (in->builtin) {
    case UF__BI_NP_NANARGMIN:
    case UF__BI_NP_NANARGMAX:
        return true; /* empty, all NaN, the axis */
    case UF__BI_NP_COUNT_NONZERO: /* the axis */
        return ax && has_axis(uf__tf_info(tf, ax)->type);
    default: /* np.ptp of an empty array */
        return xt && xt->kind == UF__T_ARRAY;
    }
}

/* ---- argmin / argmax of a unit-stride row in vectors ----------------- */

#define ARGV_LANES 8

bool uf__npr_argvec_applies(uf__fn *F, uf__builtin b, uf_dtype d)
{
    char k = uf_dtype_kind(d);
    if (F->L->cg->sreg != NULL)
        return false; /* a CUDA thread: the plain loop */
    if (b == UF__BI_NP_NANARGMIN || b == UF__BI_NP_NANARGMAX)
        return k == 'i' || k == 'u' || k == 'f';
    if (b == UF__BI_NP_ARGMIN || b == UF__BI_NP_ARGMAX)
        return k == 'i' || k == 'u'; /* float argmin's first NaN: scalar */
    return false;
}

/* x strictly before m in min's order (max's: after), scalars or vectors;
 * never NaN here (nanarg* replaced them). */
static LLVMValueRef lane_before(uf__fn *F, uf_dtype d, bool min,
                                LLVMValueRef x, LLVMValueRef m)
{
    char k = uf_dtype_kind(d);
    if (k == 'f')
        return LLVMBuildFCmp(B, min ? LLVMRealOLT : LLVMRealOGT, x, m, "");
    if (k == 'u')
        return LLVMBuildICmp(B, min ? LLVMIntULT : LLVMIntUGT, x, m, "");
    return LLVMBuildICmp(B, min ? LLVMIntSLT : LLVMIntSGT, x, m, "");
}

static LLVMValueRef vsplat(uf__fn *F, LLVMValueRef c)
{
    LLVMValueRef v[ARGV_LANES];
    for (int k = 0; k < ARGV_LANES; k++)
        v[k] = c;
    return LLVMConstVector(v, ARGV_LANES);
}

/* Every lane keeps its own best value and the first index of it (strict
 * comparisons, starting from the scan's start value with index 0); the
 * lanes then meet: the best value, on a tie the smallest index, which is
 * the first index of the row's best value in C order. Where the row is
 * unit-stride and holds ARGV_LANES elements or more, the whole vectors
 * of it are scanned here and the result merged into the scan's slots
 * (m, mi: the flat index is base + the row's index; found: a number was
 * seen, for nanarg* of floats); returns the index the scalar loop goes
 * on from (0 where this did nothing). */
LLVMValueRef uf__npr_argvec(uf__fn *F, bool min, uf_dtype d, LLVMValueRef p,
                            LLVMValueRef n, LLVMValueRef stride,
                            LLVMValueRef base, LLVMValueRef mslot,
                            LLVMValueRef mislot, LLVMValueRef found)
{
    LLVMContextRef cx = F->L->ctx;
    LLVMTypeRef et = uf__lower_dtype(F->L, d), i64 = uf__npr_i64(F);
    LLVMTypeRef i1 = LLVMInt1TypeInContext(cx), i32 = LLVMInt32TypeInContext(cx);
    LLVMTypeRef vt = LLVMVectorType(et, ARGV_LANES);
    LLVMTypeRef vi = LLVMVectorType(i64, ARGV_LANES);
    LLVMTypeRef vb = LLVMVectorType(i1, ARGV_LANES);
    bool flt = uf_dtype_kind(d) == 'f';
    long long isz = uf_dtype_itemsize(d);
    LLVMValueRef zero = uf__npr_c64(F, 0);
    LLVMValueRef ok = LLVMBuildAnd(
        B, LLVMBuildICmp(B, LLVMIntEQ, stride, uf__npr_c64(F, isz), ""),
        LLVMBuildICmp(B, LLVMIntSGE, n, uf__npr_c64(F, ARGV_LANES), ""), "");
    LLVMBasicBlockRef pre = LLVMGetInsertBlock(B);
    LLVMBasicBlockRef vec = uf__fn_block(F, "argv.vec");
    LLVMBasicBlockRef join = uf__fn_block(F, "argv.join");
    LLVMBuildCondBr(B, ok, vec, join);
    LLVMPositionBuilderAtEnd(B, vec);
    LLVMValueRef start = flt ? uf__emit_const_float(F, d, min ? INFINITY
                                                              : -INFINITY)
                             : int_extreme(F, d, min);
    LLVMValueRef mv = uf__fn_alloca(F, vt, "argv.m");
    LLVMValueRef iv = uf__fn_alloca(F, vi, "argv.i");
    LLVMValueRef fv = uf__fn_alloca(F, vb, "argv.found");
    LLVMBuildStore(B, vsplat(F, start), mv);
    LLVMBuildStore(B, LLVMConstNull(vi), iv);
    LLVMBuildStore(B, LLVMConstNull(vb), fv);
    LLVMValueRef lanes[ARGV_LANES];
    for (int k = 0; k < ARGV_LANES; k++)
        lanes[k] = uf__npr_c64(F, k);
    LLVMValueRef step = LLVMConstVector(lanes, ARGV_LANES);
    LLVMValueRef end = LLVMBuildAnd(B, n, uf__npr_c64(F, -ARGV_LANES), "");
    uf__npr_loop l;
    uf__npr_loop_open(F, &l, zero, end);
    LLVMValueRef q = LLVMBuildPointerCast(
        B, uf__npr_gep(F, p, LLVMBuildMul(B, l.i, uf__npr_c64(F, isz), "")),
        LLVMPointerType(vt, 0), "");
    LLVMValueRef x = LLVMBuildLoad2(B, vt, q, "argv.x");
    LLVMSetAlignment(x, (unsigned)uf_dtype_alignment(d));
    if (flt) {
        LLVMValueRef nan = LLVMBuildFCmp(B, LLVMRealUNO, x, x, "");
        x = LLVMBuildSelect(B, nan, vsplat(F, start), x, "");
        LLVMBuildStore(B,
                       LLVMBuildOr(B, LLVMBuildLoad2(B, vb, fv, ""),
                                   LLVMBuildNot(B, nan, ""), ""),
                       fv);
    }
    LLVMValueRef m = LLVMBuildLoad2(B, vt, mv, "");
    LLVMValueRef c = lane_before(F, d, min, x, m);
    LLVMBuildStore(B, LLVMBuildSelect(B, c, x, m, ""), mv);
    LLVMValueRef at = LLVMBuildInsertElement(B, LLVMGetUndef(vi), l.i,
                                             LLVMConstInt(i32, 0, 0), "");
    at = LLVMBuildShuffleVector(B, at, LLVMGetUndef(vi),
                                LLVMConstNull(LLVMVectorType(i32, ARGV_LANES)),
                                "");
    at = LLVMBuildAdd(B, at, step, "");
    LLVMBuildStore(B,
                   LLVMBuildSelect(B, c, at, LLVMBuildLoad2(B, vi, iv, ""), ""),
                   iv);
    uf__npr_loop_close(F, &l, ARGV_LANES);
    /* the lanes meet, then the slots */
    LLVMValueRef mvv = LLVMBuildLoad2(B, vt, mv, "");
    LLVMValueRef ivv = LLVMBuildLoad2(B, vi, iv, "");
    LLVMValueRef bm = LLVMBuildExtractElement(B, mvv, LLVMConstInt(i32, 0, 0),
                                              "");
    LLVMValueRef bi = LLVMBuildExtractElement(B, ivv, LLVMConstInt(i32, 0, 0),
                                              "");
    for (unsigned k = 1; k < ARGV_LANES; k++) {
        LLVMValueRef v =
            LLVMBuildExtractElement(B, mvv, LLVMConstInt(i32, k, 0), "");
        LLVMValueRef j =
            LLVMBuildExtractElement(B, ivv, LLVMConstInt(i32, k, 0), "");
        LLVMValueRef eq = flt ? LLVMBuildFCmp(B, LLVMRealOEQ, v, bm, "")
                              : LLVMBuildICmp(B, LLVMIntEQ, v, bm, "");
        LLVMValueRef t = LLVMBuildOr(
            B, lane_before(F, d, min, v, bm),
            LLVMBuildAnd(B, eq, LLVMBuildICmp(B, LLVMIntSLT, j, bi, ""), ""),
            "");
        bm = LLVMBuildSelect(B, t, v, bm, "");
        bi = LLVMBuildSelect(B, t, j, bi, "");
    }
    LLVMValueRef cur = LLVMBuildLoad2(B, et, mslot, "");
    LLVMValueRef t = lane_before(F, d, min, bm, cur);
    LLVMBuildStore(B, LLVMBuildSelect(B, t, bm, cur, ""), mslot);
    LLVMBuildStore(B,
                   LLVMBuildSelect(B, t, LLVMBuildAdd(B, base, bi, ""),
                                   LLVMBuildLoad2(B, i64, mislot, ""), ""),
                   mislot);
    if (found) {
        LLVMValueRef any = LLVMBuildICmp(
            B, LLVMIntNE,
            LLVMBuildBitCast(B, LLVMBuildLoad2(B, vb, fv, ""),
                             LLVMIntTypeInContext(cx, ARGV_LANES), ""),
            LLVMConstNull(LLVMIntTypeInContext(cx, ARGV_LANES)), "");
        LLVMBuildStore(
            B, LLVMBuildOr(B, LLVMBuildLoad2(B, i1, found, ""), any, ""),
            found);
    }
    LLVMBasicBlockRef vec_end = LLVMGetInsertBlock(B);
    LLVMBuildBr(B, join);
    LLVMPositionBuilderAtEnd(B, join);
    LLVMValueRef from = LLVMBuildPhi(B, i64, "argv.from");
    LLVMValueRef vals[2] = {zero, end};
    LLVMBasicBlockRef bbs[2] = {pre, vec_end};
    LLVMAddIncoming(from, vals, bbs, 2);
    return from;
}
