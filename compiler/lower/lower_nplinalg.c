/* np.linalg.norm, det, slogdet, inv, solve, cholesky, qr, matrix_power,
 * svd, cond, matrix_rank, pinv, lstsq, eigh, eigvalsh, eig and eigvals
 * (typed by infer_nplinalg.c): one call of the host runtime (common/nplinalg.h),
 * which copies and factorises the matrix and frees its scratch before it
 * returns. Arrays go to it as they are (data, shape, strides); inv and
 * solve first allocate their result (a new C-order array owned by the
 * frame) and the runtime writes into it. det is sign * exp(log|det|) of
 * slogdet, as Numba computes it (a complex sign: complex128 times the
 * float64, Numba's arithmetic). cholesky, qr and matrix_power
 * allocate their results (a's shape; qr's (m, k) and (k, n)) the same
 * way. The runtime's statuses become Numba's
 * exceptions (LinAlgError, ValueError). */
#include <string.h>

#include "common/nplinalg.h"
#include "compiler/host/jit.h"
#include "compiler/lower/lower.h"
#include "compiler/lower/lower_array.h"

#define B (F->L->b)

/* A complex dtype's parts' float dtype (svd's s, lstsq's residuals and
 * s, eigh's w); a real dtype itself. */
static uf_dtype real_of(uf_dtype dt)
{
    if (dt == UF_COMPLEX64)
        return UF_FLOAT32;
    return dt == UF_COMPLEX128 ? UF_FLOAT64 : dt;
}

static LLVMTypeRef i64t(uf__fn *F)
{
    return LLVMInt64TypeInContext(F->L->ctx);
}

static LLVMTypeRef i32t(uf__fn *F)
{
    return LLVMInt32TypeInContext(F->L->ctx);
}

static LLVMValueRef c64(uf__fn *F, int64_t v)
{
    return LLVMConstInt(i64t(F), (unsigned long long)v, 1);
}

static LLVMValueRef c32(uf__fn *F, int v)
{
    return LLVMConstInt(i32t(F), (unsigned long long)v, 1);
}

/* An array as the runtime reads it. */
typedef struct operand {
    LLVMValueRef data, shape, strides; /* i8*, i64*, i64* */
    LLVMValueRef dim[2];
} operand;

static LLVMValueRef i64_slots(uf__fn *F, int n, const char *name)
{
    LLVMValueRef s = uf__fn_alloca(F, LLVMArrayType(i64t(F), (unsigned)n),
                                   name);
    return LLVMBuildPointerCast(B, s, LLVMPointerType(i64t(F), 0), "");
}

static void put(uf__fn *F, LLVMValueRef p, int k, LLVMValueRef v)
{
    LLVMValueRef ix = c64(F, k);
    LLVMBuildStore(B, v, LLVMBuildGEP2(B, i64t(F), p, &ix, 1, ""));
}

static void take(uf__fn *F, const uf__type *t, LLVMValueRef v, operand *o)
{
    LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(F->L->ctx), 0);
    o->shape = i64_slots(F, 2, "la.shape");
    o->strides = i64_slots(F, 2, "la.strides");
    for (int k = 0; k < t->ndim; k++) {
        o->dim[k] = uf__emit_array_dim(F, v, k);
        put(F, o->shape, k, o->dim[k]);
        put(F, o->strides, k, uf__emit_array_stride(F, v, t, k));
    }
    o->data = LLVMBuildPointerCast(B, uf__emit_array_data(F, v), i8p, "");
}

static LLVMValueRef call_helper(uf__fn *F, const char *name,
                                LLVMValueRef *args, unsigned n)
{
    LLVMTypeRef pt[12];
    for (unsigned i = 0; i < n; i++)
        pt[i] = LLVMTypeOf(args[i]);
    LLVMTypeRef fty = LLVMFunctionType(i32t(F), pt, n, 0);
    LLVMValueRef fn = F->L->cg->helper(F->L, name, fty);
    F->L->uses_runtime = true;
    return LLVMBuildCall2(B, fty, fn, args, n, "");
}

/* The runtime's statuses as Numba's exceptions. */
static void raise_status(uf__fn *F, LLVMValueRef st)
{
    static const struct {
        int status, jit;
    } map[] = {
        {UF__NPLINALG_NOMEM, UF__JIT_NOMEM},
        {UF__NPLINALG_SQUARE, UF__JIT_LINALG_SQUARE},
        {UF__NPLINALG_NONFINITE, UF__JIT_LINALG_NONFINITE},
        {UF__NPLINALG_SINGULAR, UF__JIT_LINALG_SINGULAR},
        {UF__NPLINALG_SYSTEM, UF__JIT_LINALG_SYSTEM},
        {UF__NPLINALG_NORM_ORD, UF__JIT_NORM_ORD},
        {UF__NPLINALG_NORM_SVD, UF__JIT_NORM_SVD},
        {UF__NPLINALG_NOT_PD, UF__JIT_LINALG_NOT_PD},
        {UF__NPLINALG_EMPTY, UF__JIT_LINALG_EMPTY},
        {UF__NPLINALG_POWER_SQUARE, UF__JIT_POWER_SQUARE},
        {UF__NPLINALG_CONVERGE, UF__JIT_LINALG_CONVERGE},
    };
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        uf__fn_raise_if(F, LLVMBuildICmp(B, LLVMIntEQ, st,
                                         c32(F, map[i].status), ""),
                        map[i].jit);
}

/* The argument at position pos or keyword name (infer_nplinalg.c bound
 * them); NULL when omitted. */
static const uf__expr *arg(const uf__expr *e, int pos, const char *name)
{
    if (pos < e->u.call.nargs)
        return e->u.call.args[pos];
    for (int k = 0; k < e->u.call.nkw; k++)
        if (strcmp(e->u.call.kw[k].name, name) == 0)
            return e->u.call.kw[k].value;
    return NULL;
}

/* An array argument lowered and taken apart; NULL on error. */
static const uf__type *operand_of(uf__fn *F, const uf__expr *x, operand *o)
{
    LLVMValueRef v = uf__lower_expr(F, x);
    if (!v)
        return NULL;
    const uf__type *t = uf__lower_info(F, x)->type;
    take(F, t, v, o);
    return t;
}

/* norm(x, ord), cond(x, p), matrix_rank(A, tol): the runtime with the
 * number or None (has 0). */
static LLVMValueRef norm(uf__fn *F, const uf__expr *e, const uf__type *rt,
                         uf__builtin b)
{
    operand x;
    bool cond = b == UF__BI_NP_LINALG_COND;
    bool rank = b == UF__BI_NP_LINALG_MATRIX_RANK;
    const uf__type *xt = operand_of(F, arg(e, 0, rank ? "A" : "x"), &x);
    if (!xt)
        return NULL;
    const uf__expr *ox = arg(e, 1, cond ? "p" : rank ? "tol" : "ord");
    LLVMTypeRef f64 = LLVMDoubleTypeInContext(F->L->ctx);
    LLVMValueRef has = c32(F, 0), ord = LLVMConstReal(f64, 0);
    if (ox != NULL && uf__lower_info(F, ox)->type->kind == UF__T_SCALAR) {
        LLVMValueRef ov = uf__lower_expr(F, ox); /* None is not a value */
        if (!ov)
            return NULL;
        has = c32(F, 1);
        ord = uf__emit_cast(F, ov, uf__lower_info(F, ox)->type->dtype,
                            UF_FLOAT64);
    }
    LLVMValueRef dt = c32(F, (int)xt->dtype);
    if (rank) {
        LLVMValueRef out = uf__fn_alloca(F, i64t(F), "rank");
        LLVMValueRef args[8] = {x.data, c64(F, xt->ndim), x.shape,
                                x.strides, dt, has, ord, out};
        raise_status(F, call_helper(F, UF__NP_LINALG_MATRIX_RANK, args, 8));
        return LLVMBuildLoad2(B, i64t(F), out, "");
    }
    LLVMValueRef out = uf__fn_alloca(F, f64, "norm");
    if (cond) {
        LLVMValueRef args[7] = {x.data, x.shape, x.strides, dt, has, ord,
                                out};
        raise_status(F, call_helper(F, UF__NP_LINALG_COND, args, 7));
    } else {
        LLVMValueRef args[8] = {x.data, c64(F, xt->ndim), x.shape,
                                x.strides, dt, has, ord, out};
        raise_status(F, call_helper(F, UF__NP_LINALG_NORM, args, 8));
    }
    LLVMValueRef r = LLVMBuildLoad2(B, f64, out, "");
    return rt->dtype == UF_FLOAT64 ? r
                                   : uf__emit_cast(F, r, UF_FLOAT64,
                                                   rt->dtype);
}

/* np.linalg.qr: q (m, k) and r (k, n), k = min(m, n), then the runtime
 * (which raises on an empty a before it writes). */
static LLVMValueRef qr(uf__fn *F, const operand *a, const uf__type *at,
                       const uf__type *rt)
{
    LLVMValueRef k = LLVMBuildSelect(
        B, LLVMBuildICmp(B, LLVMIntSLT, a->dim[0], a->dim[1], ""), a->dim[0],
        a->dim[1], "k");
    LLVMValueRef qs[2] = {a->dim[0], k}, rs[2] = {k, a->dim[1]}, n;
    LLVMValueRef q = uf__lower_new_array(F, at->dtype, 2, qs, &n);
    if (!q)
        return NULL;
    LLVMValueRef r = uf__lower_new_array(F, at->dtype, 2, rs, &n);
    if (!r)
        return NULL;
    LLVMTypeRef i8p = LLVMTypeOf(a->data);
    LLVMValueRef args[6] = {
        a->data, a->shape, a->strides, c32(F, (int)at->dtype),
        LLVMBuildPointerCast(B, uf__emit_array_data(F, q), i8p, ""),
        LLVMBuildPointerCast(B, uf__emit_array_data(F, r), i8p, "")};
    raise_status(F, call_helper(F, UF__NP_LINALG_QR, args, 6));
    LLVMTypeRef tt = uf__lower_type(F->L, rt, F->err);
    if (!tt)
        return NULL;
    LLVMValueRef t = LLVMBuildInsertValue(B, LLVMGetUndef(tt), q, 0, "");
    return LLVMBuildInsertValue(B, t, r, 1, "");
}

/* np.linalg.svd: u (m, m or k), s (k), vh (n or k, n) by full_matrices
 * (omitted: true), then the runtime. */
static LLVMValueRef svd(uf__fn *F, const uf__expr *e, const operand *a,
                        const uf__type *at, const uf__type *rt)
{
    LLVMValueRef full = c32(F, 1);
    const uf__expr *fx = arg(e, 1, "full_matrices");
    if (fx != NULL) {
        LLVMValueRef fv = uf__lower_expr(F, fx);
        if (!fv)
            return NULL;
        fv = uf__emit_cast(F, fv, uf__lower_info(F, fx)->type->dtype,
                           UF_BOOL);
        full = LLVMBuildZExt(B, fv, i32t(F), "full");
    }
    LLVMValueRef isfull = LLVMBuildICmp(B, LLVMIntNE, full, c32(F, 0), "");
    LLVMValueRef k = LLVMBuildSelect(
        B, LLVMBuildICmp(B, LLVMIntSLT, a->dim[0], a->dim[1], ""), a->dim[0],
        a->dim[1], "k");
    LLVMValueRef us[2] = {a->dim[0],
                          LLVMBuildSelect(B, isfull, a->dim[0], k, "")};
    LLVMValueRef vs[2] = {LLVMBuildSelect(B, isfull, a->dim[1], k, ""),
                          a->dim[1]};
    LLVMValueRef n, u, s, vh;
    if (!(u = uf__lower_new_array(F, at->dtype, 2, us, &n)) ||
        !(s = uf__lower_new_array(F, real_of(at->dtype), 1, &k, &n)) ||
        !(vh = uf__lower_new_array(F, at->dtype, 2, vs, &n)))
        return NULL;
    LLVMTypeRef i8p = LLVMTypeOf(a->data);
    LLVMValueRef args[8] = {
        a->data, a->shape, a->strides, c32(F, (int)at->dtype), full,
        LLVMBuildPointerCast(B, uf__emit_array_data(F, u), i8p, ""),
        LLVMBuildPointerCast(B, uf__emit_array_data(F, s), i8p, ""),
        LLVMBuildPointerCast(B, uf__emit_array_data(F, vh), i8p, "")};
    raise_status(F, call_helper(F, UF__NP_LINALG_SVD, args, 8));
    LLVMTypeRef tt = uf__lower_type(F->L, rt, F->err);
    if (!tt)
        return NULL;
    LLVMValueRef t = LLVMBuildInsertValue(B, LLVMGetUndef(tt), u, 0, "");
    t = LLVMBuildInsertValue(B, t, s, 1, "");
    return LLVMBuildInsertValue(B, t, vh, 2, "");
}

static LLVMValueRef data_of(uf__fn *F, LLVMValueRef arr, LLVMTypeRef i8p)
{
    return LLVMBuildPointerCast(B, uf__emit_array_data(F, arr), i8p, "");
}

/* np.linalg.lstsq: x (n or (n, nrhs)), residuals (nrhs slots), s (k),
 * rank, then the runtime; residuals become an array of the *nres it
 * wrote (0 or nrhs; the memory stays the frame's). */
static LLVMValueRef lstsq(uf__fn *F, const uf__expr *e, const operand *a,
                          const uf__type *at, const uf__type *rt)
{
    operand bo;
    const uf__type *bt = operand_of(F, arg(e, 1, "b"), &bo);
    if (!bt)
        return NULL;
    LLVMTypeRef f64 = LLVMDoubleTypeInContext(F->L->ctx);
    LLVMValueRef rc = LLVMConstReal(f64, -1.0);
    const uf__expr *rx = arg(e, 2, "rcond");
    if (rx != NULL) {
        if (!(rc = uf__lower_expr(F, rx)))
            return NULL;
        rc = uf__emit_cast(F, rc, uf__lower_info(F, rx)->type->dtype,
                           UF_FLOAT64);
    }
    LLVMValueRef k = LLVMBuildSelect(
        B, LLVMBuildICmp(B, LLVMIntSLT, a->dim[0], a->dim[1], ""), a->dim[0],
        a->dim[1], "k");
    LLVMValueRef nrhs = bt->ndim == 1 ? c64(F, 1) : bo.dim[1];
    LLVMValueRef xs[2] = {a->dim[1], nrhs}, n, x, res, s;
    if (!(x = uf__lower_new_array(F, at->dtype, bt->ndim, xs, &n)) ||
        !(res = uf__lower_new_array(F, real_of(at->dtype), 1, &nrhs, &n)) ||
        !(s = uf__lower_new_array(F, real_of(at->dtype), 1, &k, &n)))
        return NULL;
    LLVMValueRef nres = uf__fn_alloca(F, i64t(F), "lstsq.nres");
    LLVMValueRef rank = uf__fn_alloca(F, i32t(F), "lstsq.rank");
    LLVMTypeRef i8p = LLVMTypeOf(a->data);
    LLVMValueRef args[14] = {
        a->data, a->shape, a->strides, bo.data, c64(F, bt->ndim), bo.shape,
        bo.strides, c32(F, (int)at->dtype), rc, data_of(F, x, i8p),
        data_of(F, res, i8p), nres, rank, data_of(F, s, i8p)};
    LLVMTypeRef pt[14];
    for (unsigned i = 0; i < 14; i++)
        pt[i] = LLVMTypeOf(args[i]);
    LLVMTypeRef fty = LLVMFunctionType(i32t(F), pt, 14, 0);
    LLVMValueRef fn = F->L->cg->helper(F->L, UF__NP_LINALG_LSTSQ, fty);
    F->L->uses_runtime = true;
    raise_status(F, LLVMBuildCall2(B, fty, fn, args, 14, ""));
    LLVMValueRef len = LLVMBuildLoad2(B, i64t(F), nres, "");
    LLVMValueRef isz = c64(F, (int64_t)uf_dtype_itemsize(real_of(at->dtype)));
    res = uf__build_array(F->L, uf__emit_array_data(F, res), &len, &isz, 1);
    LLVMTypeRef tt = uf__lower_type(F->L, rt, F->err);
    if (!tt)
        return NULL;
    LLVMValueRef t = LLVMBuildInsertValue(B, LLVMGetUndef(tt), x, 0, "");
    t = LLVMBuildInsertValue(B, t, res, 1, "");
    t = LLVMBuildInsertValue(B, t, LLVMBuildLoad2(B, i32t(F), rank, ""), 2,
                             "");
    return LLVMBuildInsertValue(B, t, s, 3, "");
}

/* eigh, eigvalsh, eig, eigvals: w (n) and v (n, n) for the first two
 * (n a's last dimension: the runtime refuses a non-square a before it
 * writes), then the runtime; eig's complex eigenvalues raise eig's or
 * eigvals' ValueError. */
static LLVMValueRef eig(uf__fn *F, const operand *a, const uf__type *at,
                        const uf__type *rt, uf__builtin b)
{
    bool vec = b == UF__BI_NP_LINALG_EIGH || b == UF__BI_NP_LINALG_EIG;
    bool sym = b == UF__BI_NP_LINALG_EIGH || b == UF__BI_NP_LINALG_EIGVALSH;
    LLVMValueRef vs[2] = {a->dim[1], a->dim[1]}, n, w, v = NULL;
    uf_dtype wd = sym ? real_of(at->dtype) : at->dtype; /* eigh's w */
    if (!(w = uf__lower_new_array(F, wd, 1, vs, &n)) ||
        (vec && !(v = uf__lower_new_array(F, at->dtype, 2, vs, &n))))
        return NULL;
    LLVMTypeRef i8p = LLVMTypeOf(a->data);
    LLVMValueRef args[6] = {a->data, a->shape, a->strides,
                            c32(F, (int)at->dtype), data_of(F, w, i8p),
                            vec ? data_of(F, v, i8p)
                                : LLVMConstPointerNull(i8p)};
    LLVMValueRef st = call_helper(F, sym ? UF__NP_LINALG_EIGH
                                         : UF__NP_LINALG_EIG,
                                  args, 6);
    if (!sym)
        uf__fn_raise_if(F, LLVMBuildICmp(B, LLVMIntEQ, st,
                                         c32(F, UF__NPLINALG_DOMAIN), ""),
                        vec ? UF__JIT_EIG_DOMAIN : UF__JIT_EIGVALS_DOMAIN);
    raise_status(F, st);
    if (!vec)
        return w;
    LLVMTypeRef tt = uf__lower_type(F->L, rt, F->err);
    if (!tt)
        return NULL;
    LLVMValueRef t = LLVMBuildInsertValue(B, LLVMGetUndef(tt), w, 0, "");
    return LLVMBuildInsertValue(B, t, v, 1, "");
}

LLVMValueRef uf__lower_nplinalg(uf__fn *F, const uf__expr *e)
{
    const uf__expr_info *in = uf__lower_info(F, e);
    uf__builtin b = in->builtin;
    if (F->L->cg->sreg != NULL) { /* a CUDA ufunc or gufunc */
        uf__source_error(F->err, UF_ERR_UNSUPPORTED, F->tf->km->src, e->pos,
                         "np.linalg.%s() factorises a copy in the host "
                         "runtime, which CUDA kernels cannot do",
                         uf__builtin_name(b) + 13);
        return NULL;
    }
    if (b == UF__BI_NP_LINALG_NORM || b == UF__BI_NP_LINALG_COND ||
        b == UF__BI_NP_LINALG_MATRIX_RANK)
        return norm(F, e, in->type, b);
    operand a;
    const uf__type *at = operand_of(F, arg(e, 0, "a"), &a);
    if (!at)
        return NULL;
    LLVMValueRef dt = c32(F, (int)at->dtype);
    LLVMTypeRef f64 = LLVMDoubleTypeInContext(F->L->ctx);
    if (b == UF__BI_NP_LINALG_DET || b == UF__BI_NP_LINALG_SLOGDET) {
        /* a complex a: the sign's two parts, then log|det| */
        bool cx = uf_dtype_kind(at->dtype) == 'c';
        LLVMValueRef out = uf__fn_alloca(F, LLVMArrayType(f64, 3), "slogdet");
        LLVMValueRef p = LLVMBuildPointerCast(B, out,
                                              LLVMPointerType(f64, 0), "");
        LLVMValueRef args[5] = {a.data, a.shape, a.strides, dt, p};
        raise_status(F, call_helper(F, UF__NP_LINALG_SLOGDET, args, 5));
        LLVMValueRef one = c64(F, 1), two = c64(F, cx ? 2 : 1);
        LLVMValueRef sgn = LLVMBuildLoad2(B, f64, p, "sign");
        LLVMValueRef lg = LLVMBuildLoad2(
            B, f64, LLVMBuildGEP2(B, f64, p, &two, 1, ""), "logdet");
        LLVMValueRef si = NULL;
        if (cx) {
            si = LLVMBuildLoad2(
                B, f64, LLVMBuildGEP2(B, f64, p, &one, 1, ""), "sign.im");
        }
        if (b == UF__BI_NP_LINALG_DET) {
            LLVMValueRef ex = uf__emit_intrinsic(F, "llvm.exp", &lg, 1);
            if (!cx)
                return LLVMBuildFMul(B, sgn, ex, "det");
            /* Numba's complex128 * float64: (sr, si) * (e, 0) */
            LLVMValueRef z = LLVMConstReal(f64, 0.0);
            LLVMValueRef re = LLVMBuildFSub(B, LLVMBuildFMul(B, sgn, ex, ""),
                                            LLVMBuildFMul(B, si, z, ""), "");
            LLVMValueRef im = LLVMBuildFAdd(B, LLVMBuildFMul(B, sgn, z, ""),
                                            LLVMBuildFMul(B, si, ex, ""), "");
            return uf__emit_complex(F, UF_COMPLEX128, re, im);
        }
        if (cx)
            sgn = uf__emit_complex(F, UF_COMPLEX128, sgn, si);
        LLVMTypeRef tt = uf__lower_type(F->L, in->type, F->err);
        if (!tt)
            return NULL;
        LLVMValueRef t = LLVMGetUndef(tt);
        t = LLVMBuildInsertValue(B, t, sgn, 0, "");
        return LLVMBuildInsertValue(B, t, lg, 1, "");
    }
    LLVMValueRef n;
    if (b == UF__BI_NP_LINALG_QR)
        return qr(F, &a, at, in->type);
    if (b == UF__BI_NP_LINALG_LSTSQ)
        return lstsq(F, e, &a, at, in->type);
    if (b >= UF__BI_NP_LINALG_EIGH && b <= UF__BI_NP_LINALG_EIGVALS)
        return eig(F, &a, at, in->type, b);
    if (b == UF__BI_NP_LINALG_SVD)
        return svd(F, e, &a, at, in->type);
    if (b == UF__BI_NP_LINALG_PINV) { /* (n, m): a's transposed shape */
        LLVMValueRef rc = LLVMConstReal(f64, 1e-15);
        const uf__expr *rx = arg(e, 1, "rcond");
        if (rx != NULL) {
            if (!(rc = uf__lower_expr(F, rx)))
                return NULL;
            rc = uf__emit_cast(F, rc, uf__lower_info(F, rx)->type->dtype,
                               UF_FLOAT64);
        }
        LLVMValueRef shape[2] = {a.dim[1], a.dim[0]};
        LLVMValueRef res = uf__lower_new_array(F, at->dtype, 2, shape, &n);
        if (!res)
            return NULL;
        LLVMValueRef args[6] = {a.data, a.shape, a.strides, dt, rc,
                                LLVMBuildPointerCast(
                                    B, uf__emit_array_data(F, res),
                                    LLVMTypeOf(a.data), "")};
        raise_status(F, call_helper(F, UF__NP_LINALG_PINV, args, 6));
        return res;
    }
    if (b == UF__BI_NP_LINALG_MATRIX_POWER) {
        const uf__expr *px = arg(e, 1, "n");
        LLVMValueRef pv = uf__lower_expr(F, px);
        if (!pv)
            return NULL;
        pv = uf__emit_cast(F, pv, uf__lower_info(F, px)->type->dtype,
                           UF_INT64);
        LLVMValueRef res = uf__lower_new_array(F, at->dtype, 2, a.dim, &n);
        if (!res)
            return NULL;
        LLVMValueRef args[6] = {a.data, a.shape, a.strides, dt, pv,
                                LLVMBuildPointerCast(
                                    B, uf__emit_array_data(F, res),
                                    LLVMTypeOf(a.data), "")};
        raise_status(F, call_helper(F, UF__NP_LINALG_MATRIX_POWER, args, 6));
        return res;
    }
    if (b == UF__BI_NP_LINALG_INV || b == UF__BI_NP_LINALG_CHOLESKY) {
        /* a square result even when a is not: the runtime refuses it
         * before it writes */
        LLVMValueRef shape[2] = {a.dim[1], a.dim[1]};
        LLVMValueRef res = uf__lower_new_array(F, at->dtype, 2, shape, &n);
        if (!res)
            return NULL;
        LLVMValueRef args[5] = {a.data, a.shape, a.strides, dt,
                                LLVMBuildPointerCast(
                                    B, uf__emit_array_data(F, res),
                                    LLVMTypeOf(a.data), "")};
        raise_status(F, call_helper(F, b == UF__BI_NP_LINALG_INV
                                           ? UF__NP_LINALG_INV
                                           : UF__NP_LINALG_CHOLESKY,
                                    args, 5));
        return res;
    }
    operand bo;
    const uf__type *bt = operand_of(F, arg(e, 1, "b"), &bo);
    if (!bt)
        return NULL;
    LLVMValueRef res = uf__lower_new_array(F, at->dtype, bt->ndim, bo.dim,
                                           &n);
    if (!res)
        return NULL;
    LLVMValueRef args[9] = {a.data, a.shape, a.strides, bo.data,
                            c64(F, bt->ndim), bo.shape, bo.strides, dt,
                            LLVMBuildPointerCast(
                                B, uf__emit_array_data(F, res),
                                LLVMTypeOf(a.data), "")};
    raise_status(F, call_helper(F, UF__NP_LINALG_SOLVE, args, 9));
    return res;
}
