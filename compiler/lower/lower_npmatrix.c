/* NumPy's matrix constructors and diagonals, typed by infer_npmatrix.c
 * (builtins.h: UF__NPMATRIX_MAP), computed as Numba's arrayobj.py,
 * arraymath.py and linalg.py compute them:
 *   eye / identity: a zeroed (N, M) array (np.zeros' negative-dimension
 *     ValueError), ones stored along diagonal k;
 *   diag: 1-D v into a zeroed square of len(v) + |k|, or the diagonal k of
 *     2-D v copied out (empty when k is past either edge);
 *   diagflat: v flattened in C order along diagonal k of a zeroed square;
 *   trace: the sum along diagonal `offset` in float64 / complex128, in
 *     Numba's order;
 *   fill_diagonal: Numba's checks (equal dimensions for N-d a; val finite
 *     and within an int a's range, within a float a's), then every
 *     (n + 1)-th element of a's C order (2-D, wrap) or a[i, i, ..., i],
 *     an array val flattened and cycled (an empty one: ZeroDivisionError
 *     as Numba's `ctr % len(val)`, when a has a diagonal);
 *   tril / triu: one pass writing m's element or zero into a new array
 *     (1-D m read as every row of a square);
 *   outer, kron: one np.multiply per element, in its loop's dtype (kron
 *     then converts to a's dtype, as Numba's store into np.empty(dt));
 *   vander: each row's powers by repeated np.multiply from 1, as Numba.
 * New arrays come from uf__lower_new_array (the frame owns them). */
#include "compiler/lower/lower.h"
#include "compiler/lower/lower_arrmeth.h"
#include "compiler/lower/lower_npreduce.h"
#include "compiler/types/infer_npmatrix.h"

#define B (F->L->b)

static LLVMValueRef c64(uf__fn *F, long long v)
{
    return uf__npr_c64(F, v);
}

static LLVMValueRef fail(uf__fn *F, const uf__expr *e, const char *what)
{
    uf__source_error(F->err, UF_ERR_INTERNAL, F->tf->km->src, e->pos, "%s",
                     what);
    return NULL;
}

static LLVMValueRef isz_of(uf__fn *F, uf_dtype dt)
{
    return c64(F, (long long)uf_dtype_itemsize(dt));
}

static LLVMValueRef smax(uf__fn *F, LLVMValueRef a, LLVMValueRef b)
{
    return LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntSGT, a, b, ""), a, b,
                           "");
}

static LLVMValueRef smin(uf__fn *F, LLVMValueRef a, LLVMValueRef b)
{
    return LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntSLT, a, b, ""), a, b,
                           "");
}

/* p + (i * step) bytes. */
static LLVMValueRef at(uf__fn *F, LLVMValueRef p, LLVMValueRef i,
                       LLVMValueRef step)
{
    return uf__npr_gep(F, p, LLVMBuildMul(B, i, step, ""));
}

/* An integer argument as i64 (*out left as it is when absent or None). */
static int int_arg(uf__fn *F, const uf__expr *x, LLVMValueRef *out)
{
    if (x == NULL || uf__lower_info(F, x)->type->kind == UF__T_NONE)
        return 0;
    const uf__type *t = uf__lower_info(F, x)->type;
    LLVMValueRef v = uf__lower_expr(F, x);
    if (!v)
        return -1;
    *out = uf__emit_cast(F, v, t->dtype, UF_INT64);
    return 0;
}

/* A new C array of rt's dtype, shape (n0, n1), zeroed. */
static LLVMValueRef zeros2(uf__fn *F, uf_dtype dt, LLVMValueRef n0,
                           LLVMValueRef n1)
{
    LLVMValueRef shape[2] = {n0, n1}, n;
    LLVMValueRef a = uf__lower_new_array(F, dt, 2, shape, &n);
    LLVMBuildMemSet(B, uf__emit_array_data(F, a),
                    LLVMConstNull(LLVMInt8TypeInContext(F->L->ctx)),
                    LLVMBuildMul(B, n, isz_of(F, dt), ""), 16);
    return a;
}

/* The diagonal k of a rows x cols matrix: its length (>= 0) and first
 * row and column (Numba's `if k >= 0: ... else: ...`). */
static LLVMValueRef diag_span(uf__fn *F, LLVMValueRef rows, LLVMValueRef cols,
                              LLVMValueRef k, LLVMValueRef *r0,
                              LLVMValueRef *c0)
{
    LLVMValueRef neg = LLVMBuildICmp(B, LLVMIntSLT, k, c64(F, 0), "");
    *r0 = LLVMBuildSelect(B, neg, LLVMBuildNeg(B, k, ""), c64(F, 0), "");
    *c0 = LLVMBuildSelect(B, neg, c64(F, 0), k, "");
    LLVMValueRef n = smin(F, LLVMBuildSub(B, rows, *r0, ""),
                          LLVMBuildSub(B, cols, *c0, ""));
    return smax(F, n, c64(F, 0));
}

/* ---- eye, identity ---------------------------------------------------- */

static LLVMValueRef lower_eye(uf__fn *F, uf__builtin b, const uf__expr **x,
                              const uf__type *rt)
{
    LLVMValueRef n = c64(F, 0), m, k = c64(F, 0);
    if (int_arg(F, x[0], &n) < 0)
        return NULL;
    m = n;
    if (b == UF__BI_NP_EYE &&
        (int_arg(F, x[1], &m) < 0 || int_arg(F, x[2], &k) < 0))
        return NULL;
    LLVMValueRef a = zeros2(F, rt->dtype, n, m);
    LLVMValueRef r0, c0;
    LLVMValueRef d = diag_span(F, n, m, k, &r0, &c0);
    LLVMValueRef isz = isz_of(F, rt->dtype);
    LLVMValueRef p = at(F, uf__emit_array_data(F, a),
                        LLVMBuildAdd(B, LLVMBuildMul(B, r0, m, ""), c0, ""),
                        isz);
    LLVMValueRef step = LLVMBuildMul(
        B, LLVMBuildAdd(B, m, c64(F, 1), ""), isz, "");
    LLVMValueRef one = uf__emit_cast(F, c64(F, 1), UF_INT64, rt->dtype);
    uf__npr_loop l;
    uf__npr_loop_open(F, &l, c64(F, 0), d);
    uf__emit_elem_store(F, at(F, p, l.i, step), rt->dtype, one);
    uf__npr_loop_close(F, &l, 1);
    return a;
}

/* np.tri(N, M, k): ones on and below diagonal k of a max(N, 0) x
 * max(M, 0) float64 matrix (Numba's _tri_impl), zeros elsewhere. */
static LLVMValueRef lower_np_tri(uf__fn *F, const uf__expr **x,
                                 const uf__type *rt)
{
    LLVMValueRef n = c64(F, 0), m, k = c64(F, 0);
    if (int_arg(F, x[0], &n) < 0)
        return NULL;
    m = n;
    if (int_arg(F, x[1], &m) < 0 || int_arg(F, x[2], &k) < 0)
        return NULL;
    n = smax(F, n, c64(F, 0));
    m = smax(F, m, c64(F, 0));
    LLVMValueRef a = zeros2(F, rt->dtype, n, m);
    LLVMValueRef base = uf__emit_array_data(F, a);
    LLVMValueRef isz = isz_of(F, rt->dtype);
    LLVMValueRef one = uf__emit_cast(F, c64(F, 1), UF_INT64, rt->dtype);
    uf__npr_loop rows, cols;
    uf__npr_loop_open(F, &rows, c64(F, 0), n);
    LLVMValueRef upto = smin(
        F, smax(F, LLVMBuildAdd(B, LLVMBuildAdd(B, rows.i, k, ""), c64(F, 1),
                                ""),
                c64(F, 0)),
        m);
    LLVMValueRef row = at(F, base, LLVMBuildMul(B, rows.i, m, ""), isz);
    uf__npr_loop_open(F, &cols, c64(F, 0), upto);
    uf__emit_elem_store(F, at(F, row, cols.i, isz), rt->dtype, one);
    uf__npr_loop_close(F, &cols, 1);
    uf__npr_loop_close(F, &rows, 1);
    return a;
}

/* ---- diag, diagflat, trace -------------------------------------------- */

typedef struct flat_copy {
    uf_dtype dt;
} flat_copy;

static void copy_elem(uf__fn *F, LLVMValueRef sp, LLVMValueRef dp, void *ud)
{
    const flat_copy *c = ud;
    uf__emit_elem_store(F, dp, c->dt, uf__emit_elem_load(F, sp, c->dt));
}

/* np.diagflat(v, k) and np.diag of 1-D v: v's elements in C order along
 * diagonal k of a zeroed square of size(v) + |k|. */
static LLVMValueRef diag_square(uf__fn *F, const uf__expr *vx,
                                const uf__expr *kx, const uf__type *rt)
{
    const uf__type *vt = uf__lower_info(F, vx)->type;
    LLVMValueRef v = uf__lower_expr(F, vx), k = c64(F, 0);
    if (!v || int_arg(F, kx, &k) < 0)
        return NULL;
    LLVMValueRef s = c64(F, 1);
    for (int d = 0; vt->kind == UF__T_ARRAY && d < vt->ndim; d++)
        s = LLVMBuildMul(B, s, uf__emit_array_dim(F, v, d), "");
    LLVMValueRef neg = LLVMBuildICmp(B, LLVMIntSLT, k, c64(F, 0), "");
    LLVMValueRef ak = LLVMBuildSelect(B, neg, LLVMBuildNeg(B, k, ""), k, "");
    LLVMValueRef n = LLVMBuildAdd(B, s, ak, "");
    LLVMValueRef a = zeros2(F, rt->dtype, n, n);
    LLVMValueRef r0, c0;
    (void)diag_span(F, n, n, k, &r0, &c0);
    LLVMValueRef isz = isz_of(F, rt->dtype);
    LLVMValueRef p = at(F, uf__emit_array_data(F, a),
                        LLVMBuildAdd(B, LLVMBuildMul(B, r0, n, ""), c0, ""),
                        isz);
    LLVMValueRef step = LLVMBuildMul(
        B, LLVMBuildAdd(B, n, c64(F, 1), ""), isz, "");
    if (vt->kind != UF__T_ARRAY) { /* np.diagflat of a number */
        uf__emit_elem_store(F, p, rt->dtype,
                            uf__emit_cast(F, v, vt->dtype, rt->dtype));
        return a;
    }
    flat_copy c = {.dt = rt->dtype};
    uf__arrmeth_visit(F, v, vt, p, step, copy_elem, &c);
    return a;
}

/* np.diag of 2-D v (a new 1-D array) or np.trace of a (the sum). */
static LLVMValueRef diag_of(uf__fn *F, const uf__expr *vx,
                            const uf__expr *kx, const uf__type *rt,
                            bool trace)
{
    uf__npr_arr A;
    LLVMValueRef k = c64(F, 0);
    if (uf__npr_load(F, vx, &A) < 0 || int_arg(F, kx, &k) < 0)
        return NULL;
    LLVMValueRef r0, c0;
    LLVMValueRef n = diag_span(F, A.shape[0], A.shape[1], k, &r0, &c0);
    LLVMValueRef p = uf__npr_gep(
        F, A.data,
        LLVMBuildAdd(B, LLVMBuildMul(B, r0, A.strides[0], ""),
                     LLVMBuildMul(B, c0, A.strides[1], ""), ""));
    LLVMValueRef step = LLVMBuildAdd(B, A.strides[0], A.strides[1], "");
    uf__npr_loop l;
    if (trace) {
        uf_dtype acc = rt->dtype;
        LLVMValueRef slot = uf__fn_alloca(F, uf__lower_dtype(F->L, acc),
                                          "trace");
        LLVMBuildStore(B, uf__emit_cast(F, c64(F, 0), UF_INT64, acc), slot);
        uf__npr_loop_open(F, &l, c64(F, 0), n);
        LLVMValueRef v = uf__emit_cast(
            F, uf__emit_elem_load(F, at(F, p, l.i, step), A.dt), A.dt, acc);
        LLVMBuildStore(
            B,
            uf__emit_binop(F, UF__OP_ADD, acc,
                           LLVMBuildLoad2(B, uf__lower_dtype(F->L, acc), slot,
                                          ""),
                           v),
            slot);
        uf__npr_loop_close(F, &l, 1);
        return LLVMBuildLoad2(B, uf__lower_dtype(F->L, acc), slot, "");
    }
    LLVMValueRef cnt;
    LLVMValueRef r = uf__lower_new_array(F, rt->dtype, 1, &n, &cnt);
    LLVMValueRef out = uf__emit_array_data(F, r);
    uf__npr_loop_open(F, &l, c64(F, 0), n);
    uf__emit_elem_store(F, at(F, out, l.i, isz_of(F, rt->dtype)), rt->dtype,
                        uf__emit_elem_load(F, at(F, p, l.i, step), A.dt));
    uf__npr_loop_close(F, &l, 1);
    return r;
}

/* ---- fill_diagonal ------------------------------------------------------ */

/* Numba's _check_val_int / _check_val_float of one value v (dtype vd) for
 * an array of dtype ad: i1 true when it raises. */
static LLVMValueRef val_bad(uf__fn *F, LLVMValueRef v, uf_dtype vd,
                            uf_dtype ad)
{
    char ak = uf_dtype_kind(ad), vk = uf_dtype_kind(vd);
    LLVMTypeRef f64 = LLVMDoubleTypeInContext(F->L->ctx);
    if (ak == 'f') { /* finite values within finfo's range, in float64 */
        double mx = ad == UF_FLOAT32 ? 3.4028234663852886e38
                                     : 1.7976931348623157e308;
        LLVMValueRef d = uf__emit_cast(F, v, vd, UF_FLOAT64);
        LLVMValueRef lo = LLVMBuildFCmp(B, LLVMRealOLT, d,
                                        LLVMConstReal(f64, -mx), "");
        LLVMValueRef hi = LLVMBuildFCmp(B, LLVMRealOGT, d,
                                        LLVMConstReal(f64, mx), "");
        LLVMValueRef fin = LLVMBuildFCmp( /* d - d is 0 unless NaN, inf */
            B, LLVMRealOEQ, LLVMBuildFSub(B, d, d, ""), LLVMConstReal(f64, 0),
            "");
        return LLVMBuildAnd(B, fin, LLVMBuildOr(B, lo, hi, ""), "");
    }
    if (ak != 'i' && ak != 'u')
        return LLVMConstInt(LLVMInt1TypeInContext(F->L->ctx), 0, 0);
    /* iinfo's bounds as Numba types them: int64, uint64's max a uint64 */
    int bits = (int)uf_dtype_itemsize(ad) * 8;
    unsigned long long mx = ak == 'u' ? (bits == 64 ? ~0ULL
                                                    : (1ULL << bits) - 1)
                                      : (1ULL << (bits - 1)) - 1;
    long long mn = ak == 'u' ? 0 : -(long long)mx - 1;
    bool max_unsigned = ak == 'u' && bits == 64;
    if (vk == 'f') { /* np.isfinite, then the 'dd' comparisons */
        LLVMValueRef d = uf__emit_cast(F, v, vd, UF_FLOAT64);
        LLVMValueRef fin = LLVMBuildFCmp( /* d - d is 0 unless NaN, inf */
            B, LLVMRealOEQ, LLVMBuildFSub(B, d, d, ""), LLVMConstReal(f64, 0),
            "");
        LLVMValueRef lo = LLVMBuildFCmp(B, LLVMRealOLT, d,
                                        LLVMConstReal(f64, (double)mn), "");
        LLVMValueRef hi = LLVMBuildFCmp(B, LLVMRealOGT, d,
                                        LLVMConstReal(f64, (double)mx), "");
        return LLVMBuildOr(B, LLVMBuildNot(B, fin, ""),
                           LLVMBuildOr(B, lo, hi, ""), "");
    }
    /* ints and bools: int64 comparisons, in float64 where one side is a
     * uint64 (np.less's 'dd' loop for mixed signedness) */
    LLVMValueRef lo, hi;
    if (vd == UF_UINT64) {
        LLVMValueRef d = uf__emit_cast(F, v, vd, UF_FLOAT64);
        lo = LLVMBuildFCmp(B, LLVMRealOLT, d, LLVMConstReal(f64, (double)mn),
                           "");
        hi = max_unsigned
                 ? LLVMConstInt(LLVMInt1TypeInContext(F->L->ctx), 0, 0)
                 : LLVMBuildFCmp(B, LLVMRealOGT, d,
                                 LLVMConstReal(f64, (double)mx), "");
        return LLVMBuildOr(B, lo, hi, "");
    }
    LLVMValueRef w = uf__emit_cast(F, v, vd, UF_INT64);
    lo = LLVMBuildICmp(B, LLVMIntSLT, w, c64(F, mn), "");
    if (max_unsigned) /* int64 against uint64's max in float64: never */
        hi = LLVMConstInt(LLVMInt1TypeInContext(F->L->ctx), 0, 0);
    else
        hi = LLVMBuildICmp(B, LLVMIntSGT, w, c64(F, (long long)mx), "");
    return LLVMBuildOr(B, lo, hi, "");
}

typedef struct val_scan {
    uf_dtype vd, ad;
    LLVMValueRef bad; /* i1 slot */
} val_scan;

static void scan_elem(uf__fn *F, LLVMValueRef sp, LLVMValueRef dp, void *ud)
{
    (void)dp;
    const val_scan *s = ud;
    LLVMTypeRef i1 = LLVMInt1TypeInContext(F->L->ctx);
    LLVMValueRef b = val_bad(F, uf__emit_elem_load(F, sp, s->vd), s->vd,
                             s->ad);
    LLVMBuildStore(B, LLVMBuildOr(B, LLVMBuildLoad2(B, i1, s->bad, ""), b, ""),
                   s->bad);
}

static LLVMValueRef lower_fill(uf__fn *F, const uf__expr **x)
{
    uf__npr_arr A;
    if (uf__npr_load(F, x[0], &A) < 0)
        return NULL;
    const uf__type *vt = uf__lower_info(F, x[1])->type;
    LLVMValueRef v = uf__lower_expr(F, x[1]);
    if (!v)
        return NULL;
    LLVMValueRef wrap = LLVMConstInt(LLVMInt1TypeInContext(F->L->ctx), 0, 0);
    if (x[2]) {
        LLVMValueRef w = uf__lower_expr(F, x[2]);
        if (!w)
            return NULL;
        wrap = uf__emit_truth(F, w, uf__lower_info(F, x[2])->type->dtype);
    }
    /* the diagonal: count elements from a's first, `step` apart in C
     * order; 2-D: flat index i * (n + 1) at row i*(n+1)/n */
    LLVMValueRef count;
    bool two = A.nd == 2;
    if (two) {
        LLVMValueRef m = A.shape[0], n = A.shape[1];
        LLVMValueRef end = LLVMBuildSelect(B, wrap, LLVMBuildMul(B, n, m, ""),
                                           LLVMBuildMul(B, n, smin(F, m, n),
                                                        ""),
                                           "");
        LLVMValueRef step = LLVMBuildAdd(B, n, c64(F, 1), "");
        /* ceil(end / step), end >= 0 */
        count = LLVMBuildSDiv(
            B, LLVMBuildSub(B, LLVMBuildAdd(B, end, step, ""), c64(F, 1), ""),
            step, "");
    } else {
        LLVMValueRef differ = LLVMConstInt(LLVMInt1TypeInContext(F->L->ctx),
                                           0, 0);
        for (int d = 1; d < A.nd; d++)
            differ = LLVMBuildOr(
                B, differ,
                LLVMBuildICmp(B, LLVMIntNE, A.shape[d], A.shape[d - 1], ""),
                "");
        uf__fn_raise_if(F, differ, UF__JIT_FILL_DIAG_DIMS);
        count = LLVMBuildSelect(B, differ, c64(F, 0), A.shape[0], "");
    }
    /* val checked, then (an array) flattened in C order */
    LLVMTypeRef i1 = LLVMInt1TypeInContext(F->L->ctx);
    LLVMValueRef tmp = NULL, vlen = NULL;
    uf_dtype vd = vt->dtype;
    if (vt->kind == UF__T_ARRAY) {
        const uf__type *ft = uf__type_array(F->tf->km->tc, vd, 1, 'C',
                                            F->err);
        if (!ft)
            return NULL;
        LLVMValueRef t = uf__arrmeth_copy(F, v, vt, ft);
        tmp = uf__emit_array_data(F, t);
        vlen = uf__emit_array_dim(F, t, 0);
        val_scan s = {.vd = vd, .ad = A.dt,
                      .bad = uf__fn_alloca(F, i1, "fdbad")};
        LLVMBuildStore(B, LLVMConstInt(i1, 0, 0), s.bad);
        uf__arrmeth_visit(F, t, ft, NULL, NULL, scan_elem, &s);
        LLVMValueRef bad = LLVMBuildLoad2(B, i1, s.bad, "");
        uf__fn_raise_if(F, bad, UF__JIT_FILL_DIAG_VAL);
        count = LLVMBuildSelect(B, bad, c64(F, 0), count, "");
        LLVMValueRef none = LLVMBuildAnd(
            B, LLVMBuildICmp(B, LLVMIntEQ, vlen, c64(F, 0), ""),
            LLVMBuildICmp(B, LLVMIntSGT, count, c64(F, 0), ""), "");
        uf__fn_raise_if(F, none, UF__JIT_ZEROMOD_INT);
        count = LLVMBuildSelect(B, none, c64(F, 0), count, "");
    } else {
        LLVMValueRef bad = val_bad(F, v, vd, A.dt);
        uf__fn_raise_if(F, bad, UF__JIT_FILL_DIAG_VAL);
        count = LLVMBuildSelect(B, bad, c64(F, 0), count, "");
    }
    uf__npr_loop l;
    uf__npr_loop_open(F, &l, c64(F, 0), count);
    LLVMValueRef off;
    if (two) {
        LLVMValueRef n = A.shape[1];
        LLVMValueRef f = LLVMBuildMul(B, l.i, LLVMBuildAdd(B, n, c64(F, 1), ""),
                                      "");
        LLVMValueRef r = LLVMBuildSDiv(B, f, n, "");
        LLVMValueRef c = LLVMBuildSub(B, f, LLVMBuildMul(B, r, n, ""), "");
        off = LLVMBuildAdd(B, LLVMBuildMul(B, r, A.strides[0], ""),
                           LLVMBuildMul(B, c, A.strides[1], ""), "");
    } else {
        LLVMValueRef st = c64(F, 0);
        for (int d = 0; d < A.nd; d++)
            st = LLVMBuildAdd(B, st, A.strides[d], "");
        off = LLVMBuildMul(B, l.i, st, "");
    }
    LLVMValueRef val = v;
    if (tmp) {
        LLVMValueRef j = LLVMBuildSRem(B, l.i, vlen, "");
        val = uf__emit_elem_load(F, at(F, tmp, j, isz_of(F, vd)), vd);
    }
    uf__emit_elem_store(F, uf__npr_gep(F, A.data, off), A.dt,
                        uf__emit_cast(F, val, vd, A.dt));
    uf__npr_loop_close(F, &l, 1);
    return LLVMGetUndef(i1);
}

/* ---- tril, triu ----------------------------------------------------- */

typedef struct tri_walk {
    uf_dtype dt;
    bool lower;
    int nd; /* of the result */
    LLVMValueRef k;
    LLVMValueRef shape[UF_MAXDIMS], sin[UF_MAXDIMS], sout[UF_MAXDIMS];
} tri_walk;

static void tri_nest(uf__fn *F, const tri_walk *W, int d, LLVMValueRef in,
                     LLVMValueRef out)
{
    if (d == W->nd - 2) {
        uf__npr_loop r, c;
        uf__npr_loop_open(F, &r, c64(F, 0), W->shape[d]);
        LLVMValueRef ri = at(F, in, r.i, W->sin[d]);
        LLVMValueRef ro = at(F, out, r.i, W->sout[d]);
        /* tril keeps j <= i + k, triu j >= i + k */
        LLVMValueRef lim = LLVMBuildAdd(B, r.i, W->k, "");
        uf__npr_loop_open(F, &c, c64(F, 0), W->shape[d + 1]);
        LLVMValueRef keep = LLVMBuildICmp(B, W->lower ? LLVMIntSLE
                                                      : LLVMIntSGE,
                                          c.i, lim, "");
        LLVMValueRef v = uf__emit_elem_load(F, at(F, ri, c.i, W->sin[d + 1]),
                                            W->dt);
        LLVMValueRef z = LLVMConstNull(LLVMTypeOf(v));
        uf__emit_elem_store(F, at(F, ro, c.i, W->sout[d + 1]), W->dt,
                            LLVMBuildSelect(B, keep, v, z, ""));
        uf__npr_loop_close(F, &c, 1);
        uf__npr_loop_close(F, &r, 1);
        return;
    }
    uf__npr_loop l;
    uf__npr_loop_open(F, &l, c64(F, 0), W->shape[d]);
    tri_nest(F, W, d + 1, at(F, in, l.i, W->sin[d]),
             at(F, out, l.i, W->sout[d]));
    uf__npr_loop_close(F, &l, 1);
}

static LLVMValueRef lower_tri(uf__fn *F, uf__builtin b, const uf__expr **x,
                              const uf__type *rt)
{
    uf__npr_arr A;
    tri_walk W = {.dt = rt->dtype, .lower = b == UF__BI_NP_TRIL,
                  .nd = rt->ndim, .k = c64(F, 0)};
    if (uf__npr_load(F, x[0], &A) < 0 || int_arg(F, x[1], &W.k) < 0)
        return NULL;
    if (A.nd == 1) { /* every row of the square is m */
        W.shape[0] = W.shape[1] = A.shape[0];
        W.sin[0] = c64(F, 0);
        W.sin[1] = A.strides[0];
    } else {
        for (int d = 0; d < A.nd; d++) {
            W.shape[d] = A.shape[d];
            W.sin[d] = A.strides[d];
        }
    }
    LLVMValueRef n;
    LLVMValueRef r = uf__arrmeth_new(F, rt->dtype, rt->ndim, W.shape,
                                     rt->layout, &n);
    for (int d = 0; d < rt->ndim; d++)
        W.sout[d] = uf__emit_array_stride(F, r, rt, d);
    tri_nest(F, &W, 0, A.data, uf__emit_array_data(F, r));
    return r;
}

/* ---- outer, kron ------------------------------------------------------ */

/* An operand of np.outer / np.kron seen as a matrix (rows, cols): a
 * number or 0-d array 1 x 1, a 1-D array 1 x n, a 2-D one as it is. */
typedef struct mat {
    bool scalar;
    LLVMValueRef value; /* the number */
    LLVMValueRef data, rows, cols, srow, scol;
    uf_dtype dt;
} mat;

static int mat_load(uf__fn *F, const uf__expr *x, mat *M)
{
    const uf__type *t = uf__lower_info(F, x)->type;
    M->dt = t->dtype;
    M->rows = M->cols = c64(F, 1);
    M->srow = M->scol = c64(F, 0);
    if (t->kind != UF__T_ARRAY) {
        M->scalar = true;
        M->value = uf__lower_expr(F, x);
        return M->value ? 0 : -1;
    }
    uf__npr_arr A;
    if (uf__npr_load(F, x, &A) < 0)
        return -1;
    M->scalar = false;
    M->data = A.data;
    if (A.nd == 1) {
        M->cols = A.shape[0];
        M->scol = A.strides[0];
    } else if (A.nd == 2) {
        M->rows = A.shape[0];
        M->cols = A.shape[1];
        M->srow = A.strides[0];
        M->scol = A.strides[1];
    }
    return 0;
}

/* M[r, c] (M->dt). */
static LLVMValueRef mat_get(uf__fn *F, const mat *M, LLVMValueRef r,
                            LLVMValueRef c)
{
    if (M->scalar)
        return M->value;
    return uf__emit_elem_load(
        F,
        uf__npr_gep(F, M->data,
                    LLVMBuildAdd(B, LLVMBuildMul(B, r, M->srow, ""),
                                 LLVMBuildMul(B, c, M->scol, ""), "")),
        M->dt);
}

typedef struct mul_op {
    uf_dtype oa, ob, prod, res;
} mul_op;

/* x * y as np.multiply's loop computes it, converted to the result. */
static LLVMValueRef mul(uf__fn *F, const mul_op *o, LLVMValueRef x,
                        uf_dtype xd, LLVMValueRef y, uf_dtype yd)
{
    LLVMValueRef a = uf__emit_cast(F, x, xd, o->oa);
    LLVMValueRef b = uf__emit_cast(F, y, yd, o->ob);
    LLVMValueRef p = o->prod == UF_BOOL
                         ? LLVMBuildAnd(B, a, b, "")
                         : uf__emit_binop_values(F, UF__OP_MUL, o->oa, a,
                                                 o->ob, b, o->prod, o->prod);
    return uf__emit_cast(F, p, o->prod, o->res);
}

/* out[(i * bm + k), (j * bn + l)] = a[i, j] * b[k, l] (kron), or
 * out[i * an + j, k * bn + l] (outer): the same four loops, the output
 * written in order either way for a C result. */
static LLVMValueRef lower_outer_kron(uf__fn *F, const uf__expr *e,
                                     uf__builtin b, const uf__expr **x,
                                     const uf__type *rt)
{
    mat A, Bm;
    if (mat_load(F, x[0], &A) < 0 || mat_load(F, x[1], &Bm) < 0)
        return NULL;
    mul_op o = {.res = rt->dtype};
    if (!uf__npmatrix_mul(A.dt, Bm.dt, &o.oa, &o.ob, &o.prod))
        return fail(F, e, "an untyped np.outer / np.kron");
    bool kron = b == UF__BI_NP_KRON;
    LLVMValueRef rows, cols;
    if (kron) {
        rows = LLVMBuildMul(B, A.rows, Bm.rows, "");
        cols = LLVMBuildMul(B, A.cols, Bm.cols, "");
    } else {
        rows = LLVMBuildMul(B, A.rows, A.cols, "");
        cols = LLVMBuildMul(B, Bm.rows, Bm.cols, "");
    }
    LLVMValueRef shape[2] = {rows, cols}, n;
    LLVMValueRef res;
    if (rt->ndim == 2) {
        res = uf__lower_new_array(F, rt->dtype, 2, shape, &n);
    } else { /* kron's 1-D result: the same (1, cols) data */
        LLVMValueRef total = LLVMBuildMul(B, rows, cols, "");
        res = uf__lower_new_array(F, rt->dtype, 1, &total, &n);
    }
    LLVMValueRef out = uf__emit_array_data(F, res);
    LLVMValueRef isz = isz_of(F, rt->dtype);
    uf__npr_loop i, j, k, l;
    uf__npr_loop_open(F, &i, c64(F, 0), A.rows);
    uf__npr_loop_open(F, &j, c64(F, 0), kron ? Bm.rows : A.cols);
    LLVMValueRef ra = kron ? i.i : i.i, ca = kron ? NULL : j.i;
    uf__npr_loop_open(F, &k, c64(F, 0), kron ? A.cols : Bm.rows);
    if (kron)
        ca = k.i;
    LLVMValueRef av = mat_get(F, &A, ra, ca);
    LLVMValueRef rb = kron ? j.i : k.i;
    /* the output row and the first column of this run */
    LLVMValueRef orow, ocol;
    if (kron) {
        orow = LLVMBuildAdd(B, LLVMBuildMul(B, i.i, Bm.rows, ""), j.i, "");
        ocol = LLVMBuildMul(B, k.i, Bm.cols, "");
    } else {
        orow = LLVMBuildAdd(B, LLVMBuildMul(B, i.i, A.cols, ""), j.i, "");
        ocol = LLVMBuildMul(B, k.i, Bm.cols, "");
    }
    LLVMValueRef po = at(
        F, out, LLVMBuildAdd(B, LLVMBuildMul(B, orow, cols, ""), ocol, ""),
        isz);
    uf__npr_loop_open(F, &l, c64(F, 0), Bm.cols);
    LLVMValueRef bv = mat_get(F, &Bm, rb, l.i);
    uf__emit_elem_store(F, at(F, po, l.i, isz), rt->dtype,
                        mul(F, &o, av, A.dt, bv, Bm.dt));
    uf__npr_loop_close(F, &l, 1);
    uf__npr_loop_close(F, &k, 1);
    uf__npr_loop_close(F, &j, 1);
    uf__npr_loop_close(F, &i, 1);
    return res;
}

/* ---- tril_indices, triu_indices (and _from) ---------------------------- */

/* How many j in [0, m) row i keeps: tril j <= i + k, triu j >= i + k. */
static LLVMValueRef kept(uf__fn *F, bool lower, LLVMValueRef i,
                         LLVMValueRef k, LLVMValueRef m)
{
    LLVMValueRef ik = LLVMBuildAdd(B, i, k, "");
    LLVMValueRef lo = smin(F, smax(F, ik, c64(F, 0)), m); /* first triu j */
    if (!lower)
        return LLVMBuildSub(B, m, lo, "");
    return smin(F, smax(F, LLVMBuildAdd(B, ik, c64(F, 1), ""), c64(F, 0)),
                m);
}

/* np.nonzero(np.tri(n, m, k)) (tril) or of 1 - np.tri(n, m, k - 1)
 * (triu), without the matrix: count, then write (i, j) in C order. */
static LLVMValueRef lower_indices(uf__fn *F, uf__builtin b,
                                  const uf__expr **x, const uf__type *rt)
{
    bool from = b == UF__BI_NP_TRIL_INDICES_FROM ||
                b == UF__BI_NP_TRIU_INDICES_FROM;
    bool lower = b == UF__BI_NP_TRIL_INDICES ||
                 b == UF__BI_NP_TRIL_INDICES_FROM;
    LLVMValueRef n = c64(F, 0), k = c64(F, 0), m;
    if (from) {
        uf__npr_arr A;
        if (uf__npr_load(F, x[0], &A) < 0 || int_arg(F, x[1], &k) < 0)
            return NULL;
        n = A.shape[0];
        m = A.shape[1];
    } else {
        if (int_arg(F, x[0], &n) < 0 || int_arg(F, x[1], &k) < 0)
            return NULL;
        m = n;
        if (int_arg(F, x[2], &m) < 0)
            return NULL;
    }
    n = smax(F, n, c64(F, 0)); /* np.tri floors each dimension at 0 */
    m = smax(F, m, c64(F, 0));
    LLVMValueRef slot = uf__fn_alloca(F, uf__npr_i64(F), "nidx");
    LLVMBuildStore(B, c64(F, 0), slot);
    uf__npr_loop l;
    uf__npr_loop_open(F, &l, c64(F, 0), n);
    LLVMBuildStore(B,
                   LLVMBuildAdd(B, LLVMBuildLoad2(B, uf__npr_i64(F), slot, ""),
                                kept(F, lower, l.i, k, m), ""),
                   slot);
    uf__npr_loop_close(F, &l, 1);
    LLVMValueRef total = LLVMBuildLoad2(B, uf__npr_i64(F), slot, ""), cnt;
    LLVMValueRef rows = uf__lower_new_array(F, UF_INT64, 1, &total, &cnt);
    LLVMValueRef cols = uf__lower_new_array(F, UF_INT64, 1, &total, &cnt);
    LLVMValueRef pr = uf__emit_array_data(F, rows);
    LLVMValueRef pc = uf__emit_array_data(F, cols);
    LLVMBuildStore(B, c64(F, 0), slot);
    uf__npr_loop i, j;
    uf__npr_loop_open(F, &i, c64(F, 0), n);
    LLVMValueRef cnt_i = kept(F, lower, i.i, k, m);
    LLVMValueRef j0 = lower ? c64(F, 0) : LLVMBuildSub(B, m, cnt_i, "");
    LLVMValueRef base = LLVMBuildLoad2(B, uf__npr_i64(F), slot, "");
    uf__npr_loop_open(F, &j, c64(F, 0), cnt_i);
    LLVMValueRef pos = LLVMBuildAdd(B, base, j.i, "");
    uf__emit_elem_store(F, at(F, pr, pos, c64(F, 8)), UF_INT64, i.i);
    uf__emit_elem_store(F, at(F, pc, pos, c64(F, 8)), UF_INT64,
                        LLVMBuildAdd(B, j0, j.i, ""));
    uf__npr_loop_close(F, &j, 1);
    LLVMBuildStore(B, LLVMBuildAdd(B, base, cnt_i, ""), slot);
    uf__npr_loop_close(F, &i, 1);
    LLVMTypeRef ty = uf__lower_type(F->L, rt, F->err);
    if (!ty)
        return NULL;
    LLVMValueRef r = LLVMGetUndef(ty);
    r = LLVMBuildInsertValue(B, r, rows, 0, "");
    return LLVMBuildInsertValue(B, r, cols, 1, "");
}

/* ---- vander ----------------------------------------------------------- */

static LLVMValueRef lower_vander(uf__fn *F, const uf__expr *e,
                                 const uf__expr **x, const uf__type *rt)
{
    uf__npr_arr X;
    if (uf__npr_load(F, x[0], &X) < 0)
        return NULL;
    LLVMValueRef len = X.shape[0], N = len;
    if (int_arg(F, x[1], &N) < 0)
        return NULL;
    LLVMValueRef inc = LLVMConstInt(LLVMInt1TypeInContext(F->L->ctx), 0, 0);
    if (x[2]) {
        LLVMValueRef v = uf__lower_expr(F, x[2]);
        if (!v)
            return NULL;
        inc = uf__emit_truth(F, v, uf__lower_info(F, x[2])->type->dtype);
    }
    if (X.nd > 1) {
        uf__fn_raise_if(F, LLVMConstInt(LLVMInt1TypeInContext(F->L->ctx), 1,
                                        0),
                        UF__JIT_VANDER_NDIM);
        len = c64(F, 0);
    }
    LLVMValueRef neg = LLVMBuildICmp(B, LLVMIntSLT, N, c64(F, 0), "");
    uf__fn_raise_if(F, neg, UF__JIT_VANDER_NEG);
    N = LLVMBuildSelect(B, neg, c64(F, 0), N, "");
    mul_op o = {.res = rt->dtype};
    if (!uf__npmatrix_mul(X.dt, rt->dtype, &o.oa, &o.ob, &o.prod))
        return fail(F, e, "an untyped np.vander");
    LLVMValueRef shape[2] = {len, N}, n;
    LLVMValueRef res = uf__lower_new_array(F, rt->dtype, 2, shape, &n);
    LLVMValueRef out = uf__emit_array_data(F, res);
    LLVMValueRef isz = isz_of(F, rt->dtype);
    /* increasing: columns 0, 1, ..., N - 1; else N - 1 down to 0 */
    LLVMValueRef first = LLVMBuildSelect(B, inc, c64(F, 0),
                                         LLVMBuildSub(B, N, c64(F, 1), ""),
                                         "");
    LLVMValueRef dir = LLVMBuildSelect(B, inc, c64(F, 1), c64(F, -1), "");
    LLVMTypeRef vt = uf__lower_dtype(F->L, rt->dtype);
    LLVMValueRef slot = uf__fn_alloca(F, vt, "vander");
    uf__npr_loop r, c;
    uf__npr_loop_open(F, &r, c64(F, 0), len);
    LLVMValueRef xv = uf__emit_elem_load(F, at(F, X.data, r.i, X.strides[0]),
                                         X.dt);
    LLVMValueRef row = at(F, out, LLVMBuildMul(B, r.i, N, ""), isz);
    LLVMBuildStore(B, uf__emit_cast(F, c64(F, 1), UF_INT64, rt->dtype), slot);
    uf__npr_loop_open(F, &c, c64(F, 0), N);
    LLVMValueRef col = LLVMBuildAdd(B, first, LLVMBuildMul(B, c.i, dir, ""),
                                    "");
    LLVMValueRef v = LLVMBuildLoad2(B, vt, slot, "");
    uf__emit_elem_store(F, at(F, row, col, isz), rt->dtype, v);
    LLVMBuildStore(B, mul(F, &o, xv, X.dt, v, rt->dtype), slot);
    uf__npr_loop_close(F, &c, 1);
    uf__npr_loop_close(F, &r, 1);
    return res;
}

LLVMValueRef uf__lower_npmatrix(uf__fn *F, const uf__expr *e)
{
    const uf__expr_info *in = uf__lower_info(F, e);
    const uf__type *rt = in->type;
    const uf__expr *x[UF__NPMATRIX_MAXARGS];
    const uf__keyword *kw;
    if (e->kind != UF__EX_CALL ||
        uf__npmatrix_bind(e, in->builtin, x, &kw) != 0 || x[0] == NULL ||
        rt == NULL)
        return fail(F, e, "an untyped NumPy call");
    if (F->L->cg->sreg != NULL) {
        uf__source_error(F->err, UF_ERR_UNSUPPORTED, F->tf->km->src, e->pos,
                         "%s() allocates an array or loops over one on the "
                         "host, which CUDA kernels cannot do",
                         uf__builtin_name(in->builtin));
        return NULL;
    }
    switch (in->builtin) {
    case UF__BI_NP_EYE:
    case UF__BI_NP_IDENTITY:
        return lower_eye(F, in->builtin, x, rt);
    case UF__BI_NP_TRI:
        return lower_np_tri(F, x, rt);
    case UF__BI_NP_DIAG:
        if (uf__lower_info(F, x[0])->type->ndim == 2)
            return diag_of(F, x[0], x[1], rt, false);
        return diag_square(F, x[0], x[1], rt);
    case UF__BI_NP_DIAGFLAT:
        return diag_square(F, x[0], x[1], rt);
    case UF__BI_NP_TRACE:
        return diag_of(F, x[0], x[1], rt, true);
    case UF__BI_NP_FILL_DIAGONAL:
        return lower_fill(F, x);
    case UF__BI_NP_TRIL:
    case UF__BI_NP_TRIU:
        return lower_tri(F, in->builtin, x, rt);
    case UF__BI_NP_OUTER:
    case UF__BI_NP_KRON:
        return lower_outer_kron(F, e, in->builtin, x, rt);
    case UF__BI_NP_VANDER:
        return lower_vander(F, e, x, rt);
    case UF__BI_NP_TRIL_INDICES:
    case UF__BI_NP_TRIU_INDICES:
    case UF__BI_NP_TRIL_INDICES_FROM:
    case UF__BI_NP_TRIU_INDICES_FROM:
        return lower_indices(F, in->builtin, x, rt);
    default:
        return fail(F, e, "an unknown NumPy matrix function");
    }
}
