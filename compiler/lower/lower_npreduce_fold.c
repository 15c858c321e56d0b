/* Folds of NumPy's reductions (lower_npreduce.h): sums, products, the
 * mean, the squared deviations of var/std and dot products. On a
 * contiguous row of real data, on the host targets, they take a vector
 * path: UNROLL accumulators of VBYTES bytes each, then one vector, then a
 * scalar tail, the lanes added pairwise at the end (lower_npreduce.c's
 * header says what that does to the order of additions). */
#include <math.h>

#include "compiler/lower/lower_npreduce.h"
#include "compiler/types/infer_npreduce.h"

#define B (F->L->b)
#define UNROLL 4  /* vector accumulators of the main loop */
#define VBYTES 64 /* bytes of one vector accumulator */

/* ---- values that may be scalars or vectors ----------------------------- */

static LLVMTypeRef vtype(uf__fn *F, uf_dtype d, unsigned vl, bool mem)
{
    LLVMTypeRef t =
        mem ? uf__lower_mem_dtype(F->L, d) : uf__lower_dtype(F->L, d);
    return vl ? LLVMVectorType(t, vl) : t;
}

static LLVMValueRef splat(uf__fn *F, LLVMValueRef c, unsigned vl)
{
    if (!vl)
        return c;
    if (!LLVMIsConstant(c)) { /* a value: broadcast from lane 0 */
        LLVMTypeRef i32 = LLVMInt32TypeInContext(F->L->ctx);
        LLVMValueRef v = LLVMBuildInsertElement(
            B, LLVMGetUndef(LLVMVectorType(LLVMTypeOf(c), vl)), c,
            LLVMConstInt(i32, 0, 0), "");
        return LLVMBuildShuffleVector(B, v, LLVMGetUndef(LLVMTypeOf(v)),
                                      LLVMConstNull(LLVMVectorType(i32, vl)),
                                      "splat");
    }
    LLVMValueRef v[64];
    for (unsigned k = 0; k < vl; k++)
        v[k] = c;
    return LLVMConstVector(v, vl);
}

/* A real (not complex) conversion of a scalar or a vector of vl lanes;
 * to bool not needed here. */
static LLVMValueRef xcast(uf__fn *F, LLVMValueRef v, uf_dtype from, uf_dtype to,
                          unsigned vl)
{
    if (from == to)
        return v;
    if (!vl)
        return uf__emit_cast(F, v, from, to);
    LLVMTypeRef tt = vtype(F, to, vl, false);
    if (from == UF_BOOL)
        return uf__npr_is_flt(to) ? LLVMBuildUIToFP(B, v, tt, "")
                                  : LLVMBuildZExt(B, v, tt, "");
    bool sgn = uf_dtype_kind(from) == 'i';
    if (!uf__npr_is_flt(from)) {
        if (uf__npr_is_flt(to))
            return sgn ? LLVMBuildSIToFP(B, v, tt, "")
                       : LLVMBuildUIToFP(B, v, tt, "");
        if (uf_dtype_itemsize(from) == uf_dtype_itemsize(to))
            return v;
        return sgn ? LLVMBuildSExt(B, v, tt, "") : LLVMBuildZExt(B, v, tt, "");
    }
    return uf_dtype_itemsize(to) > uf_dtype_itemsize(from)
               ? LLVMBuildFPExt(B, v, tt, "")
               : LLVMBuildFPTrunc(B, v, tt, "");
}

/* Whether xcast converts vectors from `from` to `to` (np.sum's dtype=
 * may ask for a float to int or a narrowing int conversion: those take
 * the scalar loop). */
static bool xcast_vectorises(uf_dtype from, uf_dtype to)
{
    if (from == to || from == UF_BOOL)
        return true;
    if (to == UF_BOOL || uf__npr_is_flt(from))
        return uf__npr_is_flt(to);
    return uf__npr_is_flt(to) ||
           uf_dtype_itemsize(to) >= uf_dtype_itemsize(from);
}

/* vl elements of dtype d from p (contiguous), or one (vl 0). */
static LLVMValueRef xload(uf__fn *F, LLVMValueRef p, uf_dtype d, unsigned vl)
{
    if (!vl)
        return uf__emit_elem_load(F, p, d);
    LLVMTypeRef vt = vtype(F, d, vl, true);
    LLVMValueRef q = LLVMBuildPointerCast(B, p, LLVMPointerType(vt, 0), "");
    LLVMValueRef v = LLVMBuildLoad2(B, vt, q, "vload");
    LLVMSetAlignment(v, (unsigned)uf_dtype_alignment(d));
    if (d == UF_BOOL)
        v = LLVMBuildICmp(B, LLVMIntNE, v, LLVMConstNull(vt), "");
    return v;
}

LLVMValueRef uf__npr_isnan(uf__fn *F, LLVMValueRef v, uf_dtype d)
{
    if (uf__npr_is_cplx(d)) {
        LLVMValueRef re = uf__emit_real(F, v), im = uf__emit_imag(F, v);
        return LLVMBuildOr(B, LLVMBuildFCmp(B, LLVMRealUNO, re, re, ""),
                           LLVMBuildFCmp(B, LLVMRealUNO, im, im, ""), "");
    }
    if (!uf__npr_is_flt(d))
        return LLVMConstInt(LLVMInt1TypeInContext(F->L->ctx), 0, 0);
    return LLVMBuildFCmp(B, LLVMRealUNO, v, v, "isnan");
}

/* ---- folds: sums, products, dot products, squared deviations ---------- */

typedef enum uf__npr_fold_kind {
    UF__NPR_FOLD_PLAIN,   /* the element, converted */
    UF__NPR_FOLD_NANZERO, /* NaN counts as the identity (nansum, nanprod) */
    UF__NPR_FOLD_SQDEV,   /* real((x - m) * conj(x - m)) with x, m in mdt */
    UF__NPR_FOLD_DOT      /* x * y (conj(x) * y for vdot) */
} uf__npr_fold_kind;

typedef struct uf__npr_fold_spec {
    uf__npr_fold_kind kind;
    bool mul; /* a product, else a sum */
    uf_dtype in, acc;
    uf_dtype mdt;     /* UF__NPR_FOLD_SQDEV: the deviations' dtype */
    LLVMValueRef m;   /* UF__NPR_FOLD_SQDEV: the mean, of mdt */
    bool conj;        /* UF__NPR_FOLD_DOT: vdot */
    LLVMValueRef sum; /* alloca of acc: the running total */
    /* UF__NPR_FOLD_DOT: the second operand's row */
    LLVMValueRef q, qstride;
} uf__npr_fold_spec;

static LLVMValueRef identity(uf__fn *F, const uf__npr_fold_spec *S, unsigned vl)
{
    uf_dtype a = S->acc;
    if (uf__npr_is_cplx(a))
        return uf__emit_complex(
            F, a, uf__emit_const_float(F, uf__dtype_part(a), S->mul ? 1 : 0),
            uf__emit_const_float(F, uf__dtype_part(a), 0));
    LLVMValueRef c = uf__npr_is_flt(a)
                         ? uf__emit_const_float(F, a, S->mul ? 1 : 0)
                         : uf__emit_const_int(F, a, S->mul ? 1 : 0);
    return splat(F, c, vl);
}

static LLVMValueRef combine(uf__fn *F, const uf__npr_fold_spec *S,
                            LLVMValueRef a, LLVMValueRef b)
{
    uf_dtype d = S->acc;
    if (uf__npr_is_cplx(d))
        return uf__emit_binop(F, S->mul ? UF__OP_MUL : UF__OP_ADD, d, a, b);
    if (uf__npr_is_flt(d))
        return S->mul ? LLVMBuildFMul(B, a, b, "") : LLVMBuildFAdd(B, a, b, "");
    return S->mul ? LLVMBuildMul(B, a, b, "") : LLVMBuildAdd(B, a, b, "");
}

/* The term one element (or vl of them) adds to the fold. */
static LLVMValueRef term(uf__fn *F, const uf__npr_fold_spec *S, LLVMValueRef p,
                         LLVMValueRef q, unsigned vl)
{
    LLVMValueRef x = xload(F, p, S->in, vl);
    switch (S->kind) {
    case UF__NPR_FOLD_PLAIN:
        return xcast(F, x, S->in, S->acc, vl);
    case UF__NPR_FOLD_NANZERO: {
        if (!uf__npr_is_flt(S->in) && !uf__npr_is_cplx(S->in))
            return xcast(F, x, S->in, S->acc, vl);
        LLVMValueRef nan = uf__npr_isnan(F, x, S->in);
        return LLVMBuildSelect(B, nan, identity(F, S, vl),
                               xcast(F, x, S->in, S->acc, vl), "");
    }
    case UF__NPR_FOLD_SQDEV: {
        LLVMValueRef v = uf__npr_is_cplx(S->mdt)
                             ? uf__emit_cast(F, x, S->in, S->mdt)
                             : xcast(F, x, S->in, S->mdt, vl);
        if (uf__npr_is_cplx(S->mdt)) {
            uf_dtype p2 = uf__dtype_part(S->mdt);
            LLVMValueRef d = uf__emit_binop(F, UF__OP_SUB, S->mdt, v, S->m);
            LLVMValueRef re = uf__emit_real(F, d), im = uf__emit_imag(F, d);
            LLVMValueRef s = LLVMBuildFAdd(B, LLVMBuildFMul(B, re, re, ""),
                                           LLVMBuildFMul(B, im, im, ""), "");
            return uf__emit_cast(F, s, p2, S->acc);
        }
        LLVMValueRef d = LLVMBuildFSub(B, v, splat(F, S->m, vl), "");
        return xcast(F, LLVMBuildFMul(B, d, d, ""), S->mdt, S->acc, vl);
    }
    case UF__NPR_FOLD_DOT: {
        LLVMValueRef y = xload(F, q, S->in, vl);
        if (uf__npr_is_cplx(S->in)) {
            if (S->conj)
                x = uf__emit_complex(F, S->in, uf__emit_real(F, x),
                                     LLVMBuildFNeg(B, uf__emit_imag(F, x), ""));
            return uf__emit_cmul(F, S->in, x, y);
        }
        return LLVMBuildFMul(B, x, y, "");
    }
    }
    return NULL;
}

/* Adds lanes pairwise down to one. */
static LLVMValueRef hreduce(uf__fn *F, const uf__npr_fold_spec *S,
                            LLVMValueRef v, unsigned vl)
{
    LLVMTypeRef i32 = LLVMInt32TypeInContext(F->L->ctx);
    while (vl > 1) {
        unsigned h = vl / 2;
        LLVMValueRef lo[32], hi[32];
        for (unsigned k = 0; k < h; k++) {
            lo[k] = LLVMConstInt(i32, k, 0);
            hi[k] = LLVMConstInt(i32, h + k, 0);
        }
        LLVMValueRef u = LLVMGetUndef(LLVMTypeOf(v));
        LLVMValueRef a =
            LLVMBuildShuffleVector(B, v, u, LLVMConstVector(lo, h), "");
        LLVMValueRef b =
            LLVMBuildShuffleVector(B, v, u, LLVMConstVector(hi, h), "");
        v = combine(F, S, a, b);
        vl = h;
    }
    return LLVMBuildExtractElement(B, v, LLVMConstInt(i32, 0, 0), "");
}

/* Whether a fold takes the vector path: real data, and a target whose
 * code runs one kernel per core (not a CUDA thread). */
static bool fold_vectorises(uf__fn *F, const uf__npr_fold_spec *S)
{
    return F->L->cg->sreg == NULL && !uf__npr_is_cplx(S->in) &&
           !uf__npr_is_cplx(S->acc) && !uf__npr_is_cplx(S->mdt) &&
           xcast_vectorises(S->in, S->acc);
}

static void fold_scalar(uf__fn *F, uf__npr_fold_spec *S, LLVMValueRef p,
                        LLVMValueRef n, LLVMValueRef stride, LLVMValueRef start)
{
    LLVMTypeRef at = uf__lower_dtype(F->L, S->acc);
    uf__npr_loop l;
    uf__npr_loop_open(F, &l, start, n);
    LLVMValueRef x = uf__npr_gep(F, p, LLVMBuildMul(B, l.i, stride, ""));
    LLVMValueRef y =
        S->q ? uf__npr_gep(F, S->q, LLVMBuildMul(B, l.i, S->qstride, ""))
             : NULL;
    LLVMValueRef t = term(F, S, x, y, 0);
    LLVMBuildStore(B, combine(F, S, LLVMBuildLoad2(B, at, S->sum, ""), t),
                   S->sum);
    uf__npr_loop_close(F, &l, 1);
}

/* The contiguous row: UNROLL vectors of vl lanes per step, then single
 * vectors, then the scalar tail. */
static void fold_vector(uf__fn *F, uf__npr_fold_spec *S, LLVMValueRef p,
                        LLVMValueRef n)
{
    unsigned vl = VBYTES / (unsigned)uf_dtype_itemsize(S->acc);
    long long isz = uf_dtype_itemsize(S->in);
    LLVMTypeRef vt = vtype(F, S->acc, vl, false);
    LLVMValueRef acc[UNROLL];
    for (int u = 0; u < UNROLL; u++) {
        acc[u] = uf__fn_alloca(F, vt, "vacc");
        LLVMBuildStore(B, identity(F, S, vl), acc[u]);
    }
    long long wide = (long long)vl * UNROLL;
    uf__npr_loop l;
    uf__npr_loop_open(F, &l, uf__npr_c64(F, 0),
                      LLVMBuildSub(B, n, uf__npr_c64(F, wide - 1), ""));
    for (int u = 0; u < UNROLL; u++) {
        LLVMValueRef k =
            LLVMBuildNSWAdd(B, l.i, uf__npr_c64(F, (long long)vl * u), "");
        LLVMValueRef off = LLVMBuildMul(B, k, uf__npr_c64(F, isz), "");
        LLVMValueRef y = S->q ? uf__npr_gep(F, S->q, off) : NULL;
        LLVMValueRef t = term(F, S, uf__npr_gep(F, p, off), y, vl);
        LLVMBuildStore(B, combine(F, S, LLVMBuildLoad2(B, vt, acc[u], ""), t),
                       acc[u]);
    }
    uf__npr_loop_close(F, &l, wide);
    uf__npr_loop l2;
    uf__npr_loop_open(
        F, &l2, l.i, LLVMBuildSub(B, n, uf__npr_c64(F, (long long)vl - 1), ""));
    LLVMValueRef off = LLVMBuildMul(B, l2.i, uf__npr_c64(F, isz), "");
    LLVMValueRef t = term(F, S, uf__npr_gep(F, p, off),
                          S->q ? uf__npr_gep(F, S->q, off) : NULL, vl);
    LLVMBuildStore(B, combine(F, S, LLVMBuildLoad2(B, vt, acc[0], ""), t),
                   acc[0]);
    uf__npr_loop_close(F, &l2, vl);
    LLVMValueRef v[UNROLL];
    for (int u = 0; u < UNROLL; u++)
        v[u] = LLVMBuildLoad2(B, vt, acc[u], "");
    LLVMValueRef all =
        combine(F, S, combine(F, S, v[0], v[1]), combine(F, S, v[2], v[3]));
    LLVMTypeRef at = uf__lower_dtype(F->L, S->acc);
    LLVMBuildStore(B,
                   combine(F, S, LLVMBuildLoad2(B, at, S->sum, ""),
                           hreduce(F, S, all, vl)),
                   S->sum);
    LLVMValueRef isz_v = uf__npr_c64(F, isz);
    LLVMValueRef qs = S->qstride;
    S->qstride = isz_v;
    fold_scalar(F, S, p, n, isz_v, l2.i);
    S->qstride = qs;
}

static void fold_row(uf__fn *F, void *ctx, LLVMValueRef p, LLVMValueRef n,
                     LLVMValueRef stride)
{
    uf__npr_fold_spec *S = ctx;
    if (!fold_vectorises(F, S)) {
        fold_scalar(F, S, p, n, stride, uf__npr_c64(F, 0));
        return;
    }
    LLVMValueRef isz = uf__npr_c64(F, uf_dtype_itemsize(S->in));
    LLVMValueRef contig = LLVMBuildICmp(B, LLVMIntEQ, stride, isz, "");
    if (S->q)
        contig = LLVMBuildAnd(
            B, contig, LLVMBuildICmp(B, LLVMIntEQ, S->qstride, isz, ""), "");
    LLVMBasicBlockRef vec = uf__fn_block(F, "npr.vec");
    LLVMBasicBlockRef one = uf__fn_block(F, "npr.scalar");
    LLVMBasicBlockRef join = uf__fn_block(F, "npr.fjoin");
    LLVMBuildCondBr(B, contig, vec, one);
    LLVMPositionBuilderAtEnd(B, vec);
    fold_vector(F, S, p, n);
    LLVMBuildBr(B, join);
    LLVMPositionBuilderAtEnd(B, one);
    fold_scalar(F, S, p, n, stride, uf__npr_c64(F, 0));
    LLVMBuildBr(B, join);
    LLVMPositionBuilderAtEnd(B, join);
}

/* The fold of every element of A, as a value of S->acc. */
static LLVMValueRef run_fold(uf__fn *F, uf__npr_fold_spec *S,
                             const uf__npr_arr *A)
{
    S->sum = uf__fn_alloca(F, uf__lower_dtype(F->L, S->acc), "acc");
    LLVMBuildStore(B, identity(F, S, 0), S->sum);
    uf__npr_each_row(F, A, fold_row, S);
    return LLVMBuildLoad2(B, uf__lower_dtype(F->L, S->acc), S->sum, "");
}

/* x / n for a float or complex x and an i64 count n, in x's dtype d; a
 * complex x through complex division by n + 0j, as Numba divides (a NaN
 * part spreads to both). n == 0 gives NaN (0 / 0) and never raises. */
LLVMValueRef uf__npr_div_count(uf__fn *F, LLVMValueRef x, uf_dtype d,
                               LLVMValueRef n)
{
    if (uf__npr_is_cplx(d)) {
        uf_dtype p = uf__dtype_part(d);
        LLVMValueRef zero =
            LLVMBuildICmp(B, LLVMIntEQ, n, uf__npr_c64(F, 0), "");
        LLVMValueRef safe = LLVMBuildSelect(B, zero, uf__npr_c64(F, 1), n, "");
        LLVMValueRef c =
            uf__emit_complex(F, d, uf__emit_cast(F, safe, UF_INT64, p),
                             uf__emit_const_float(F, p, 0));
        LLVMValueRef q = uf__emit_binop(F, UF__OP_DIV, d, x, c);
        LLVMValueRef nan = uf__emit_const_float(F, p, NAN);
        return LLVMBuildSelect(B, zero, uf__emit_complex(F, d, nan, nan), q,
                               "");
    }
    return LLVMBuildFDiv(B, x, uf__emit_cast(F, n, UF_INT64, d), "");
}

LLVMValueRef uf__npr_nan(uf__fn *F, uf_dtype d)
{
    if (uf__npr_is_cplx(d)) {
        LLVMValueRef n = uf__emit_const_float(F, uf__dtype_part(d), NAN);
        return uf__emit_complex(F, d, n, n);
    }
    return uf__emit_const_float(F, d, NAN);
}

/* array_mean: the sum in acc (float64 for ints) over the size, computed
 * in double precision and cast to the result; NaN when empty. */
LLVMValueRef uf__npr_mean(uf__fn *F, const uf__npr_arr *A, uf_dtype acc)
{
    uf__npr_fold_spec S = {
        .kind = UF__NPR_FOLD_PLAIN, .in = A->dt, .acc = acc, .mdt = acc};
    LLVMValueRef s = run_fold(F, &S, A);
    LLVMValueRef n = uf__npr_size(F, A);
    uf_dtype wide = uf__npr_is_cplx(acc) ? UF_COMPLEX128 : UF_FLOAT64;
    LLVMValueRef q =
        uf__npr_div_count(F, uf__emit_cast(F, s, acc, wide), wide, n);
    q = uf__emit_cast(F, q, wide, acc);
    return LLVMBuildSelect(
        B, LLVMBuildICmp(B, LLVMIntEQ, n, uf__npr_c64(F, 0), ""),
        uf__npr_nan(F, acc), q, "mean");
}

/* array_var: mean, then the squared deviations summed in float64 over
 * the size; an empty array divides 0 by 0 (ZeroDivisionError in
 * Python's error model, NaN in NumPy's). */
LLVMValueRef uf__npr_var(uf__fn *F, const uf__npr_arr *A)
{
    uf_dtype mdt, res;
    uf__npreduce_dtypes(UF__BI_NP_MEAN, A->dt, &mdt, &res);
    LLVMValueRef m = uf__npr_mean(F, A, mdt);
    uf__npr_fold_spec S = {.kind = UF__NPR_FOLD_SQDEV,
                           .in = A->dt,
                           .acc = UF_FLOAT64,
                           .mdt = mdt,
                           .m = m};
    LLVMValueRef ssd = run_fold(F, &S, A);
    LLVMValueRef n = uf__npr_size(F, A);
    uf__fn_raise_if(F, LLVMBuildICmp(B, LLVMIntEQ, n, uf__npr_c64(F, 0), ""),
                    UF__JIT_ZERODIV);
    return uf__npr_div_count(F, ssd, UF_FLOAT64, n);
}

LLVMValueRef uf__npr_sum(uf__fn *F, const uf__npr_arr *A, uf_dtype acc,
                         bool mul, bool nan_skip)
{
    uf__npr_fold_spec S = {.kind = nan_skip ? UF__NPR_FOLD_NANZERO
                                            : UF__NPR_FOLD_PLAIN,
                           .mul = mul,
                           .in = A->dt,
                           .acc = acc,
                           .mdt = acc};
    return run_fold(F, &S, A);
}

LLVMValueRef uf__npr_dot(uf__fn *F, const uf__npr_arr *X, const uf__npr_arr *Y,
                         LLVMValueRef n, bool conj)
{
    uf__npr_fold_spec S = {.kind = UF__NPR_FOLD_DOT,
                           .in = X->dt,
                           .acc = X->dt,
                           .mdt = X->dt,
                           .conj = conj,
                           .q = Y->data,
                           .qstride = Y->strides[0]};
    S.sum = uf__fn_alloca(F, uf__lower_dtype(F->L, S.acc), "dot");
    LLVMBuildStore(B, identity(F, &S, 0), S.sum);
    fold_row(F, &S, X->data, n, X->strides[0]);
    return LLVMBuildLoad2(B, uf__lower_dtype(F->L, S.acc), S.sum, "");
}
