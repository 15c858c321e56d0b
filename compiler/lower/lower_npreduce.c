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
#include "compiler/lower/lower_array.h"
#include "compiler/types/infer_npreduce.h"

#define B (F->L->b)
#define MAXND 64
#define UNROLL 4       /* vector accumulators of the main loop */
#define VBYTES 64      /* bytes of one vector accumulator */

static LLVMTypeRef i64t(uf__fn *F)
{
    return LLVMInt64TypeInContext(F->L->ctx);
}

static LLVMValueRef c64(uf__fn *F, long long v)
{
    return LLVMConstInt(i64t(F), (unsigned long long)v, 1);
}

static LLVMValueRef fail(uf__fn *F, const uf__expr *e, int code,
                         const char *what)
{
    uf__source_error(F->err, code, F->tf->km->src, e->pos, "%s", what);
    return NULL;
}

static bool is_cplx(uf_dtype d)
{
    return uf_dtype_kind(d) == 'c';
}

static bool is_flt(uf_dtype d)
{
    return uf_dtype_kind(d) == 'f';
}

/* ---- arrays and loops ------------------------------------------------ */

typedef struct arr {
    LLVMValueRef data;
    LLVMValueRef shape[MAXND], strides[MAXND];
    int nd;
    uf_dtype dt;
} arr;

static int load_arr(uf__fn *F, const uf__expr *x, arr *A)
{
    const uf__type *t = uf__lower_info(F, x)->type;
    if (!t || t->kind != UF__T_ARRAY || t->ndim > MAXND)
        return fail(F, x, UF_ERR_UNSUPPORTED, "this reduction's operand "
                    "is not an array"), -1;
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

static LLVMValueRef arr_size(uf__fn *F, const arr *A)
{
    LLVMValueRef n = c64(F, 1);
    for (int k = 0; k < A->nd; k++)
        n = LLVMBuildMul(B, n, A->shape[k], "size");
    return n;
}

static LLVMValueRef gep(uf__fn *F, LLVMValueRef p, LLVMValueRef off)
{
    return LLVMBuildGEP2(B, LLVMInt8TypeInContext(F->L->ctx), p, &off, 1,
                         "");
}

/* for (i = start; i < end; i += step): open leaves the builder in the
 * body, close after it at the exit (where l->i is the first i that
 * failed the test). */
typedef struct loop {
    LLVMBasicBlockRef head, done;
    LLVMValueRef i;
} loop;

static void loop_open(uf__fn *F, loop *l, LLVMValueRef start,
                      LLVMValueRef end)
{
    LLVMBasicBlockRef pre = LLVMGetInsertBlock(B);
    l->head = uf__fn_block(F, "npr.head");
    LLVMBasicBlockRef body = uf__fn_block(F, "npr.body");
    l->done = uf__fn_block(F, "npr.done");
    LLVMBuildBr(B, l->head);
    LLVMPositionBuilderAtEnd(B, l->head);
    l->i = LLVMBuildPhi(B, i64t(F), "i");
    LLVMAddIncoming(l->i, &start, &pre, 1);
    LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntSLT, l->i, end, ""), body,
                    l->done);
    LLVMPositionBuilderAtEnd(B, body);
}

static void loop_close(uf__fn *F, loop *l, long long step)
{
    LLVMBasicBlockRef latch = LLVMGetInsertBlock(B);
    LLVMValueRef next = LLVMBuildNSWAdd(B, l->i, c64(F, step), "");
    LLVMBuildBr(B, l->head);
    LLVMAddIncoming(l->i, &next, &latch, 1);
    LLVMPositionBuilderAtEnd(B, l->done);
}

/* What is done to one row: n elements from p, `stride` bytes apart. */
typedef void (*row_fn)(uf__fn *F, void *ctx, LLVMValueRef p, LLVMValueRef n,
                       LLVMValueRef stride);

static void nest(uf__fn *F, const arr *A, int d, LLVMValueRef p, row_fn fn,
                 void *ctx)
{
    if (d == A->nd - 1) {
        fn(F, ctx, p, A->shape[d], A->strides[d]);
        return;
    }
    loop l;
    loop_open(F, &l, c64(F, 0), A->shape[d]);
    nest(F, A, d + 1, gep(F, p, LLVMBuildMul(B, l.i, A->strides[d], "")), fn,
         ctx);
    loop_close(F, &l, 1);
}

/* Whether A's bytes are C-contiguous (axes of length 1 any stride). */
static LLVMValueRef c_contiguous(uf__fn *F, const arr *A)
{
    LLVMValueRef ok = LLVMConstInt(LLVMInt1TypeInContext(F->L->ctx), 1, 0);
    LLVMValueRef want = c64(F, uf_dtype_itemsize(A->dt));
    for (int k = A->nd - 1; k >= 0; k--) {
        LLVMValueRef good = LLVMBuildOr(
            B, LLVMBuildICmp(B, LLVMIntEQ, A->strides[k], want, ""),
            LLVMBuildICmp(B, LLVMIntSLE, A->shape[k], c64(F, 1), ""), "");
        ok = LLVMBuildAnd(B, ok, good, "");
        want = LLVMBuildMul(B, want, A->shape[k], "");
    }
    return ok;
}

/* Every row of A in C order; a C-contiguous array of several axes as one
 * row of all its elements (same order: a flat index stays C's). */
static void each_row(uf__fn *F, const arr *A, row_fn fn, void *ctx)
{
    LLVMValueRef isz = c64(F, uf_dtype_itemsize(A->dt));
    if (A->nd == 0) {
        fn(F, ctx, A->data, c64(F, 1), isz);
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
    fn(F, ctx, A->data, arr_size(F, A), isz);
    LLVMBuildBr(B, join);
    LLVMPositionBuilderAtEnd(B, rows);
    nest(F, A, 0, A->data, fn, ctx);
    LLVMBuildBr(B, join);
    LLVMPositionBuilderAtEnd(B, join);
}

/* ---- values that may be scalars or vectors ----------------------------- */

static LLVMTypeRef vtype(uf__fn *F, uf_dtype d, unsigned vl, bool mem)
{
    LLVMTypeRef t = mem ? uf__lower_mem_dtype(F->L, d)
                        : uf__lower_dtype(F->L, d);
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
        return LLVMBuildShuffleVector(
            B, v, LLVMGetUndef(LLVMTypeOf(v)),
            LLVMConstNull(LLVMVectorType(i32, vl)), "splat");
    }
    LLVMValueRef v[64];
    for (unsigned k = 0; k < vl; k++)
        v[k] = c;
    return LLVMConstVector(v, vl);
}

/* A real (not complex) conversion of a scalar or a vector of vl lanes;
 * to bool not needed here. */
static LLVMValueRef xcast(uf__fn *F, LLVMValueRef v, uf_dtype from,
                          uf_dtype to, unsigned vl)
{
    if (from == to)
        return v;
    if (!vl)
        return uf__emit_cast(F, v, from, to);
    LLVMTypeRef tt = vtype(F, to, vl, false);
    if (from == UF_BOOL)
        return is_flt(to) ? LLVMBuildUIToFP(B, v, tt, "")
                          : LLVMBuildZExt(B, v, tt, "");
    bool sgn = uf_dtype_kind(from) == 'i';
    if (!is_flt(from)) {
        if (is_flt(to))
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

static LLVMValueRef isnan_of(uf__fn *F, LLVMValueRef v, uf_dtype d)
{
    if (is_cplx(d)) {
        LLVMValueRef re = uf__emit_real(F, v), im = uf__emit_imag(F, v);
        return LLVMBuildOr(B, LLVMBuildFCmp(B, LLVMRealUNO, re, re, ""),
                           LLVMBuildFCmp(B, LLVMRealUNO, im, im, ""), "");
    }
    if (!is_flt(d))
        return LLVMConstInt(LLVMInt1TypeInContext(F->L->ctx), 0, 0);
    return LLVMBuildFCmp(B, LLVMRealUNO, v, v, "isnan");
}

/* ---- folds: sums, products, dot products, squared deviations ---------- */

typedef enum fold_kind {
    FOLD_PLAIN,   /* the element, converted */
    FOLD_NANZERO, /* NaN counts as the identity (nansum, nanprod) */
    FOLD_SQDEV,   /* real((x - m) * conj(x - m)) with x, m in mdt */
    FOLD_DOT      /* x * y (conj(x) * y for vdot) */
} fold_kind;

typedef struct fold {
    fold_kind kind;
    bool mul;        /* a product, else a sum */
    uf_dtype in, acc;
    uf_dtype mdt;    /* FOLD_SQDEV: the deviations' dtype */
    LLVMValueRef m;  /* FOLD_SQDEV: the mean, of mdt */
    bool conj;       /* FOLD_DOT: vdot */
    LLVMValueRef sum; /* alloca of acc: the running total */
    /* FOLD_DOT: the second operand's row */
    LLVMValueRef q, qstride;
} fold;

static LLVMValueRef identity(uf__fn *F, const fold *S, unsigned vl)
{
    uf_dtype a = S->acc;
    if (is_cplx(a))
        return uf__emit_complex(F, a, uf__emit_const_float(F, uf__dtype_part(a),
                                                           S->mul ? 1 : 0),
                                uf__emit_const_float(F, uf__dtype_part(a), 0));
    LLVMValueRef c = is_flt(a) ? uf__emit_const_float(F, a, S->mul ? 1 : 0)
                               : uf__emit_const_int(F, a, S->mul ? 1 : 0);
    return splat(F, c, vl);
}

static LLVMValueRef combine(uf__fn *F, const fold *S, LLVMValueRef a,
                            LLVMValueRef b)
{
    uf_dtype d = S->acc;
    if (is_cplx(d))
        return uf__emit_binop(F, S->mul ? UF__OP_MUL : UF__OP_ADD, d, a, b);
    if (is_flt(d))
        return S->mul ? LLVMBuildFMul(B, a, b, "") : LLVMBuildFAdd(B, a, b, "");
    return S->mul ? LLVMBuildMul(B, a, b, "") : LLVMBuildAdd(B, a, b, "");
}

/* The term one element (or vl of them) adds to the fold. */
static LLVMValueRef term(uf__fn *F, const fold *S, LLVMValueRef p,
                         LLVMValueRef q, unsigned vl)
{
    LLVMValueRef x = xload(F, p, S->in, vl);
    switch (S->kind) {
    case FOLD_PLAIN:
        return xcast(F, x, S->in, S->acc, vl);
    case FOLD_NANZERO: {
        if (!is_flt(S->in) && !is_cplx(S->in))
            return xcast(F, x, S->in, S->acc, vl);
        LLVMValueRef nan = isnan_of(F, x, S->in);
        return LLVMBuildSelect(B, nan, identity(F, S, vl),
                               xcast(F, x, S->in, S->acc, vl), "");
    }
    case FOLD_SQDEV: {
        LLVMValueRef v = is_cplx(S->mdt) ? uf__emit_cast(F, x, S->in, S->mdt)
                                         : xcast(F, x, S->in, S->mdt, vl);
        if (is_cplx(S->mdt)) {
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
    case FOLD_DOT: {
        LLVMValueRef y = xload(F, q, S->in, vl);
        if (is_cplx(S->in)) {
            if (S->conj)
                x = uf__emit_complex(F, S->in, uf__emit_real(F, x),
                                     LLVMBuildFNeg(B, uf__emit_imag(F, x),
                                                   ""));
            return uf__emit_cmul(F, S->in, x, y);
        }
        return LLVMBuildFMul(B, x, y, "");
    }
    }
    return NULL;
}

/* Adds lanes pairwise down to one. */
static LLVMValueRef hreduce(uf__fn *F, const fold *S, LLVMValueRef v,
                            unsigned vl)
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
        LLVMValueRef a = LLVMBuildShuffleVector(B, v, u,
                                                LLVMConstVector(lo, h), "");
        LLVMValueRef b = LLVMBuildShuffleVector(B, v, u,
                                                LLVMConstVector(hi, h), "");
        v = combine(F, S, a, b);
        vl = h;
    }
    return LLVMBuildExtractElement(B, v, LLVMConstInt(i32, 0, 0), "");
}

/* Whether a fold takes the vector path: real data, and a target whose
 * code runs one kernel per core (not a CUDA thread). */
static bool fold_vectorises(uf__fn *F, const fold *S)
{
    return F->L->cg->sreg == NULL && !is_cplx(S->in) && !is_cplx(S->acc) &&
           !is_cplx(S->mdt);
}

static void fold_scalar(uf__fn *F, fold *S, LLVMValueRef p, LLVMValueRef n,
                        LLVMValueRef stride, LLVMValueRef start)
{
    LLVMTypeRef at = uf__lower_dtype(F->L, S->acc);
    loop l;
    loop_open(F, &l, start, n);
    LLVMValueRef x = gep(F, p, LLVMBuildMul(B, l.i, stride, ""));
    LLVMValueRef y = S->q ? gep(F, S->q, LLVMBuildMul(B, l.i, S->qstride, ""))
                          : NULL;
    LLVMValueRef t = term(F, S, x, y, 0);
    LLVMBuildStore(B, combine(F, S, LLVMBuildLoad2(B, at, S->sum, ""), t),
                   S->sum);
    loop_close(F, &l, 1);
}

/* The contiguous row: UNROLL vectors of vl lanes per step, then single
 * vectors, then the scalar tail. */
static void fold_vector(uf__fn *F, fold *S, LLVMValueRef p, LLVMValueRef n)
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
    loop l;
    loop_open(F, &l, c64(F, 0), LLVMBuildSub(B, n, c64(F, wide - 1), ""));
    for (int u = 0; u < UNROLL; u++) {
        LLVMValueRef k = LLVMBuildNSWAdd(B, l.i, c64(F, (long long)vl * u),
                                         "");
        LLVMValueRef off = LLVMBuildMul(B, k, c64(F, isz), "");
        LLVMValueRef y = S->q ? gep(F, S->q, off) : NULL;
        LLVMValueRef t = term(F, S, gep(F, p, off), y, vl);
        LLVMBuildStore(B, combine(F, S, LLVMBuildLoad2(B, vt, acc[u], ""), t),
                       acc[u]);
    }
    loop_close(F, &l, wide);
    loop l2;
    loop_open(F, &l2, l.i, LLVMBuildSub(B, n, c64(F, (long long)vl - 1), ""));
    LLVMValueRef off = LLVMBuildMul(B, l2.i, c64(F, isz), "");
    LLVMValueRef t = term(F, S, gep(F, p, off),
                          S->q ? gep(F, S->q, off) : NULL, vl);
    LLVMBuildStore(B, combine(F, S, LLVMBuildLoad2(B, vt, acc[0], ""), t),
                   acc[0]);
    loop_close(F, &l2, vl);
    LLVMValueRef v[UNROLL];
    for (int u = 0; u < UNROLL; u++)
        v[u] = LLVMBuildLoad2(B, vt, acc[u], "");
    LLVMValueRef all = combine(F, S, combine(F, S, v[0], v[1]),
                               combine(F, S, v[2], v[3]));
    LLVMTypeRef at = uf__lower_dtype(F->L, S->acc);
    LLVMBuildStore(B, combine(F, S, LLVMBuildLoad2(B, at, S->sum, ""),
                              hreduce(F, S, all, vl)),
                   S->sum);
    LLVMValueRef isz_v = c64(F, isz);
    LLVMValueRef qs = S->qstride;
    S->qstride = isz_v;
    fold_scalar(F, S, p, n, isz_v, l2.i);
    S->qstride = qs;
}

static void fold_row(uf__fn *F, void *ctx, LLVMValueRef p, LLVMValueRef n,
                     LLVMValueRef stride)
{
    fold *S = ctx;
    if (!fold_vectorises(F, S)) {
        fold_scalar(F, S, p, n, stride, c64(F, 0));
        return;
    }
    LLVMValueRef isz = c64(F, uf_dtype_itemsize(S->in));
    LLVMValueRef contig = LLVMBuildICmp(B, LLVMIntEQ, stride, isz, "");
    if (S->q)
        contig = LLVMBuildAnd(B, contig,
                              LLVMBuildICmp(B, LLVMIntEQ, S->qstride, isz, ""),
                              "");
    LLVMBasicBlockRef vec = uf__fn_block(F, "npr.vec");
    LLVMBasicBlockRef one = uf__fn_block(F, "npr.scalar");
    LLVMBasicBlockRef join = uf__fn_block(F, "npr.fjoin");
    LLVMBuildCondBr(B, contig, vec, one);
    LLVMPositionBuilderAtEnd(B, vec);
    fold_vector(F, S, p, n);
    LLVMBuildBr(B, join);
    LLVMPositionBuilderAtEnd(B, one);
    fold_scalar(F, S, p, n, stride, c64(F, 0));
    LLVMBuildBr(B, join);
    LLVMPositionBuilderAtEnd(B, join);
}

/* The fold of every element of A, as a value of S->acc. */
static LLVMValueRef run_fold(uf__fn *F, fold *S, const arr *A)
{
    S->sum = uf__fn_alloca(F, uf__lower_dtype(F->L, S->acc), "acc");
    LLVMBuildStore(B, identity(F, S, 0), S->sum);
    each_row(F, A, fold_row, S);
    return LLVMBuildLoad2(B, uf__lower_dtype(F->L, S->acc), S->sum, "");
}

/* x / n for a float or complex x and an i64 count n, in x's dtype d; a
 * complex x through complex division by n + 0j, as Numba divides (a NaN
 * part spreads to both). n == 0 gives NaN (0 / 0) and never raises. */
static LLVMValueRef div_count(uf__fn *F, LLVMValueRef x, uf_dtype d,
                              LLVMValueRef n)
{
    if (is_cplx(d)) {
        uf_dtype p = uf__dtype_part(d);
        LLVMValueRef zero = LLVMBuildICmp(B, LLVMIntEQ, n, c64(F, 0), "");
        LLVMValueRef safe = LLVMBuildSelect(B, zero, c64(F, 1), n, "");
        LLVMValueRef c = uf__emit_complex(F, d, uf__emit_cast(F, safe,
                                                              UF_INT64, p),
                                          uf__emit_const_float(F, p, 0));
        LLVMValueRef q = uf__emit_binop(F, UF__OP_DIV, d, x, c);
        LLVMValueRef nan = uf__emit_const_float(F, p, NAN);
        return LLVMBuildSelect(B, zero, uf__emit_complex(F, d, nan, nan), q,
                               "");
    }
    return LLVMBuildFDiv(B, x, uf__emit_cast(F, n, UF_INT64, d), "");
}

static LLVMValueRef nan_of(uf__fn *F, uf_dtype d)
{
    if (is_cplx(d)) {
        LLVMValueRef n = uf__emit_const_float(F, uf__dtype_part(d), NAN);
        return uf__emit_complex(F, d, n, n);
    }
    return uf__emit_const_float(F, d, NAN);
}

/* array_mean: the sum in acc (float64 for ints) over the size, computed
 * in double precision and cast to the result; NaN when empty. */
static LLVMValueRef mean_of(uf__fn *F, const arr *A, uf_dtype acc)
{
    fold S = {.kind = FOLD_PLAIN, .in = A->dt, .acc = acc, .mdt = acc};
    LLVMValueRef s = run_fold(F, &S, A);
    LLVMValueRef n = arr_size(F, A);
    uf_dtype wide = is_cplx(acc) ? UF_COMPLEX128 : UF_FLOAT64;
    LLVMValueRef q = div_count(F, uf__emit_cast(F, s, acc, wide), wide, n);
    q = uf__emit_cast(F, q, wide, acc);
    return LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntEQ, n, c64(F, 0), ""),
                           nan_of(F, acc), q, "mean");
}

/* array_var: mean, then the squared deviations summed in float64 over
 * the size; an empty array divides 0 by 0 (ZeroDivisionError in
 * Python's error model, NaN in NumPy's). */
static LLVMValueRef var_of(uf__fn *F, const arr *A)
{
    uf_dtype mdt, res;
    uf__npreduce_dtypes(UF__BI_NP_MEAN, A->dt, &mdt, &res);
    LLVMValueRef m = mean_of(F, A, mdt);
    fold S = {.kind = FOLD_SQDEV, .in = A->dt, .acc = UF_FLOAT64, .mdt = mdt,
              .m = m};
    LLVMValueRef ssd = run_fold(F, &S, A);
    LLVMValueRef n = arr_size(F, A);
    uf__fn_raise_if(F, LLVMBuildICmp(B, LLVMIntEQ, n, c64(F, 0), ""),
                    UF__JIT_ZERODIV);
    return div_count(F, ssd, UF_FLOAT64, n);
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
} scan;

static bool is_min(uf__builtin b)
{
    return b == UF__BI_NP_MIN || b == UF__BI_NP_AMIN || b == UF__BI_NP_NANMIN ||
           b == UF__BI_NP_ARGMIN;
}

/* x before m in the ordering of min (max: after); complex
 * lexicographically as Numba's comparators. */
static LLVMValueRef better(uf__fn *F, bool min, uf_dtype d, LLVMValueRef x,
                           LLVMValueRef m)
{
    uf__cmpop op = min ? UF__CMP_LT : UF__CMP_GT;
    if (!is_cplx(d))
        return uf__emit_cmp(F, op, d, x, m);
    uf_dtype p = uf__dtype_part(d);
    LLVMValueRef xr = uf__emit_real(F, x), mr = uf__emit_real(F, m);
    LLVMValueRef r = uf__emit_cmp(F, op, p, xr, mr);
    LLVMValueRef eq = uf__emit_cmp(F, UF__CMP_EQ, p, xr, mr);
    LLVMValueRef i = uf__emit_cmp(F, op, p, uf__emit_imag(F, x),
                                  uf__emit_imag(F, m));
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
        if (is_cplx(S->dt)) {
            /* complex_nanmin: a NaN real part gives way to any other */
            LLVMValueRef mr = uf__emit_real(F, m), xr = uf__emit_real(F, x);
            LLVMValueRef mnan = LLVMBuildFCmp(B, LLVMRealUNO, mr, mr, "");
            LLVMValueRef xnum = LLVMBuildFCmp(B, LLVMRealORD, xr, xr, "");
            t = LLVMBuildOr(B, LLVMBuildAnd(B, mnan, xnum, ""),
                            better(F, min, S->dt, x, m), "");
        } else if (is_flt(S->dt)) {
            /* real_nanmin: not NaN and not (m < x) */
            LLVMValueRef xnum = LLVMBuildFCmp(B, LLVMRealORD, x, x, "");
            t = LLVMBuildAnd(B, xnum,
                             LLVMBuildNot(B, better(F, !min, S->dt, x, m),
                                          ""),
                             "");
            /* m < x is x > m; for the first element m is NaN: taken */
        } else {
            t = better(F, min, S->dt, x, m);
        }
        break;
    case UF__BI_NP_ARGMIN:
    case UF__BI_NP_ARGMAX:
        t = better(F, min, S->dt, x, m);
        if (is_flt(S->dt)) /* the first NaN, then nothing */
            t = LLVMBuildOr(B, t,
                            LLVMBuildAnd(B,
                                         LLVMBuildFCmp(B, LLVMRealUNO, x, x,
                                                       ""),
                                         LLVMBuildFCmp(B, LLVMRealORD, m, m,
                                                       ""),
                                         ""),
                            "");
        break;
    default: /* min, max: NaN propagates (then stays: nothing is < NaN) */
        t = better(F, min, S->dt, x, m);
        if (is_flt(S->dt))
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
    if (is_cplx(d)) {
        *needs_first = true;
        return LLVMGetUndef(uf__lower_dtype(F->L, d));
    }
    if (is_flt(d)) {
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
    LLVMValueRef base = LLVMBuildLoad2(B, i64t(F), S->base, "");
    loop l;
    loop_open(F, &l, c64(F, 0), n);
    LLVMValueRef x = uf__emit_elem_load(
        F, gep(F, p, LLVMBuildMul(B, l.i, stride, "")), S->dt);
    switch (S->b) {
    case UF__BI_NP_ALL:
    case UF__BI_NP_ANY: {
        LLVMValueRef m = LLVMBuildLoad2(B, i1, S->m, "");
        LLVMValueRef t = uf__emit_truth(F, x, S->dt);
        LLVMBuildStore(B, S->b == UF__BI_NP_ALL ? LLVMBuildAnd(B, m, t, "")
                                                : LLVMBuildOr(B, m, t, ""),
                       S->m);
        break;
    }
    case UF__BI_NP_NANMEAN:
    case UF__BI_NP_NANVAR:
    case UF__BI_NP_NANSTD: {
        LLVMValueRef nan = isnan_of(F, x, S->dt);
        LLVMValueRef v = uf__emit_cast(F, x, S->dt, S->cdt);
        if (S->b != UF__BI_NP_NANMEAN) {
            /* real(val * conj(val)), val = x - mean in mean's dtype */
            LLVMValueRef d = uf__emit_binop(F, UF__OP_SUB, S->cdt, v, S->mean);
            if (is_cplx(S->cdt)) {
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
        LLVMBuildStore(B, LLVMBuildSelect(B, nan, c,
                                          uf__emit_binop(F, UF__OP_ADD, sd, c,
                                                         v),
                                          ""),
                       S->c);
        LLVMValueRef k = LLVMBuildLoad2(B, i64t(F), S->cnt, "");
        LLVMBuildStore(B, LLVMBuildAdd(B, k,
                                       LLVMBuildZExt(B, LLVMBuildNot(B, nan,
                                                                     ""),
                                                     i64t(F), ""),
                                       ""),
                       S->cnt);
        break;
    }
    default: {
        LLVMValueRef m = LLVMBuildLoad2(B, dt, S->m, "");
        LLVMValueRef first = S->first ? LLVMBuildLoad2(B, i1, S->first, "")
                                      : NULL;
        LLVMValueRef t = takes(F, S, x, m, first);
        LLVMBuildStore(B, LLVMBuildSelect(B, t, x, m, ""), S->m);
        if (S->mi) {
            LLVMValueRef mi = LLVMBuildLoad2(B, i64t(F), S->mi, "");
            LLVMBuildStore(B, LLVMBuildSelect(B, t,
                                              LLVMBuildAdd(B, base, l.i, ""),
                                              mi, ""),
                           S->mi);
        }
        if (S->first)
            LLVMBuildStore(B, LLVMConstInt(i1, 0, 0), S->first);
        break;
    }
    }
    loop_close(F, &l, 1);
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
        return UF__JIT_EMPTY_ARGMIN;
    case UF__BI_NP_ARGMAX:
        return UF__JIT_EMPTY_ARGMAX;
    default:
        return 0;
    }
}

static LLVMValueRef run_scan(uf__fn *F, uf__builtin b, const arr *A)
{
    scan S = {.b = b, .dt = A->dt};
    LLVMTypeRef i1 = LLVMInt1TypeInContext(F->L->ctx);
    LLVMValueRef n = arr_size(F, A);
    int st = empty_status(b);
    if (st)
        uf__fn_raise_if(F, LLVMBuildICmp(B, LLVMIntEQ, n, c64(F, 0), ""), st);
    S.base = uf__fn_alloca(F, i64t(F), "flat");
    LLVMBuildStore(B, c64(F, 0), S.base);
    switch (b) {
    case UF__BI_NP_ALL:
    case UF__BI_NP_ANY:
        S.m = uf__fn_alloca(F, i1, "all");
        LLVMBuildStore(B, LLVMConstInt(i1, b == UF__BI_NP_ALL, 0), S.m);
        each_row(F, A, scan_row, &S);
        return LLVMBuildLoad2(B, i1, S.m, "");
    case UF__BI_NP_NANMEAN:
    case UF__BI_NP_NANVAR:
    case UF__BI_NP_NANSTD: {
        S.cdt = is_cplx(A->dt) ? UF_COMPLEX128 : UF_FLOAT64;
        S.cnt = uf__fn_alloca(F, i64t(F), "count");
        uf_dtype sd = UF_FLOAT64;
        if (b != UF__BI_NP_NANMEAN) {
            /* np.nanmean first, then the squares in float64 */
            S.mean = run_scan(F, UF__BI_NP_NANMEAN, A);
            if (!S.mean)
                return NULL;
            LLVMBuildStore(B, c64(F, 0), S.base);
        } else {
            sd = S.cdt;
        }
        S.c = uf__fn_alloca(F, uf__lower_dtype(F->L, sd), "c");
        LLVMBuildStore(B, LLVMConstNull(uf__lower_dtype(F->L, sd)), S.c);
        LLVMBuildStore(B, c64(F, 0), S.cnt);
        each_row(F, A, scan_row, &S);
        LLVMValueRef c = LLVMBuildLoad2(B, uf__lower_dtype(F->L, sd), S.c, "");
        LLVMValueRef k = LLVMBuildLoad2(B, i64t(F), S.cnt, "");
        /* np.divide: 0 / 0 is NaN, never an error */
        LLVMValueRef r = div_count(F, c, sd, k);
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
    if (b == UF__BI_NP_ARGMIN || b == UF__BI_NP_ARGMAX) {
        S.mi = uf__fn_alloca(F, i64t(F), "mi");
        LLVMBuildStore(B, c64(F, 0), S.mi);
    }
    each_row(F, A, scan_row, &S);
    return LLVMBuildLoad2(B, S.mi ? i64t(F) : dt, S.mi ? S.mi : S.m, "");
}

/* ---- entry points ---------------------------------------------------------- */

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
    arr A;
    if (load_arr(F, x, &A) < 0)
        return NULL;
    uf_dtype acc, res;
    if (!uf__npreduce_dtypes(b, A.dt, &acc, &res) || !rt ||
        rt->kind != UF__T_SCALAR)
        return fail(F, e, UF_ERR_INTERNAL, "an untyped reduction");
    fold S = {.in = A.dt, .acc = acc, .mdt = acc};
    LLVMValueRef r;
    switch (b) {
    case UF__BI_NP_SUM:
    case UF__BI_NP_PROD:
    case UF__BI_NP_NANSUM:
    case UF__BI_NP_NANPROD:
        S.kind = b == UF__BI_NP_SUM || b == UF__BI_NP_PROD ? FOLD_PLAIN
                                                           : FOLD_NANZERO;
        S.mul = b == UF__BI_NP_PROD || b == UF__BI_NP_NANPROD;
        r = run_fold(F, &S, &A);
        break;
    case UF__BI_NP_MEAN:
        r = mean_of(F, &A, acc);
        break;
    case UF__BI_NP_VAR:
    case UF__BI_NP_STD:
        r = var_of(F, &A);
        if (b == UF__BI_NP_STD)
            r = uf__emit_mathfn(F, "sqrt", &r, 1);
        break;
    default:
        r = run_scan(F, b, &A);
        break;
    }
    return r ? uf__emit_cast(F, r, res, rt->dtype) : NULL;
}

static LLVMValueRef dot(uf__fn *F, const uf__expr *e, const uf__expr *x,
                        const uf__expr *y, bool conj)
{
    arr X, Y;
    if (load_arr(F, x, &X) < 0 || load_arr(F, y, &Y) < 0)
        return NULL;
    if (X.nd != 1 || Y.nd != 1 || X.dt != Y.dt)
        return fail(F, e, UF_ERR_INTERNAL, "np.dot of these arrays");
    uf__fn_raise_if(F, LLVMBuildICmp(B, LLVMIntNE, X.shape[0], Y.shape[0],
                                     ""),
                    UF__JIT_DOT_SHAPE);
    fold S = {.kind = FOLD_DOT, .in = X.dt, .acc = X.dt, .mdt = X.dt,
              .conj = conj, .q = Y.data, .qstride = Y.strides[0]};
    S.sum = uf__fn_alloca(F, uf__lower_dtype(F->L, S.acc), "dot");
    LLVMBuildStore(B, identity(F, &S, 0), S.sum);
    /* where nothing may raise, the shorter length */
    LLVMValueRef n = LLVMBuildSelect(
        B, LLVMBuildICmp(B, LLVMIntSLT, X.shape[0], Y.shape[0], ""),
        X.shape[0], Y.shape[0], "");
    fold_row(F, &S, X.data, n, X.strides[0]);
    return LLVMBuildLoad2(B, uf__lower_dtype(F->L, S.acc), S.sum, "");
}

static LLVMValueRef transpose(uf__fn *F, const uf__expr *x)
{
    const uf__type *t = uf__lower_info(F, x)->type;
    LLVMValueRef a = uf__lower_expr(F, x);
    if (!a || t->ndim <= 1)
        return a;
    LLVMValueRef shape[MAXND], strides[MAXND];
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
    arr A;
    if (load_arr(F, x, &A) < 0)
        return NULL;
    LLVMValueRef isz = c64(F, uf_dtype_itemsize(A.dt));
    if (b == UF__BI_NP_ATTR_ITEMSIZE)
        return isz;
    return LLVMBuildMul(B, arr_size(F, &A), isz, "nbytes");
}

LLVMValueRef uf__lower_npreduce(uf__fn *F, const uf__expr *e)
{
    uf__builtin b = uf__lower_info(F, e)->builtin;
    if (e->kind == UF__EX_ATTR)
        return attribute(F, e, b);
    if (e->kind == UF__EX_BINARY) /* x @ y */
        return dot(F, e, e->u.binary.left, e->u.binary.right, false);
    if (e->kind != UF__EX_CALL)
        return fail(F, e, UF_ERR_INTERNAL, "not a NumPy reduction");
    const uf__expr *ops[2];
    int n = 0;
    const uf__expr *f = e->u.call.func;
    if (f->kind == UF__EX_ATTR) {
        const uf__type *rt = uf__lower_info(F, f->u.attr.value)->type;
        if (rt && rt->kind == UF__T_ARRAY) /* a method: the receiver */
            ops[n++] = f->u.attr.value;
    }
    for (int i = 0; i < e->u.call.nargs && n < 2; i++)
        ops[n++] = e->u.call.args[i];
    if (b == UF__BI_NP_DOT || b == UF__BI_NP_VDOT)
        return n == 2 ? dot(F, e, ops[0], ops[1], b == UF__BI_NP_VDOT)
                      : fail(F, e, UF_ERR_INTERNAL, "np.dot's operands");
    if (n != 1)
        return fail(F, e, UF_ERR_INTERNAL, "a reduction's operand");
    if (b == UF__BI_NP_TRANSPOSE)
        return transpose(F, ops[0]);
    return reduce(F, e, b, ops[0]);
}

/* ---- which expressions may raise (lower_fallible.c) ------------------------ */

bool uf__npreduce_fallible(const uf__typed_func *tf, const uf__expr *e)
{
    const uf__expr_info *in = uf__tf_info(tf, e);
    if (!uf__builtin_is_npreduce(in->builtin))
        return false;
    if (e->kind == UF__EX_BINARY)
        return true; /* x @ y: lengths checked */
    if (e->kind != UF__EX_CALL)
        return false;
    /* var/std of nothing divide by zero: ZeroDivisionError only in
     * Python's error model, where functions are fallible anyway */
    if (in->builtin == UF__BI_NP_DOT || in->builtin == UF__BI_NP_VDOT)
        return true;
    if (!empty_status(in->builtin))
        return false;
    /* np.min(3.0) of a scalar cannot raise */
    const uf__expr *f = e->u.call.func;
    const uf__expr *x = e->u.call.nargs > 0 ? e->u.call.args[0]
                        : f->kind == UF__EX_ATTR ? f->u.attr.value
                                                 : NULL;
    const uf__type *xt = x ? uf__tf_info(tf, x)->type : NULL;
    return xt && xt->kind == UF__T_ARRAY;
}
