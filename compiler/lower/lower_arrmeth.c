/* Copies, reshapes, fills, accumulations and rounding of arrays, typed by
 * infer_arrmeth.c (builtins.h: UF__ARRMETH_MAP); sorting and searching
 * are lower_arrsort.c's.
 *
 * New arrays come from uf__lower_new_array (lower_alloc.c: owned by the
 * function's frame), laid out C or F as the type says. Elements are
 * visited in C order by one loop nest over the source's own strides; a
 * copy between arrays of one layout and dtype is a memcpy, and a C
 * source into a C result one flat loop, which vectorises. Views
 * (a.reshape of a C or F array, a.ravel() of a C one) share the source's
 * data and allocate nothing. */
#include <string.h>

#include "common/alloc.h"
#include "compiler/lower/lower.h"
#include "compiler/lower/lower_array.h"
#include "compiler/lower/lower_arrmeth.h"
#include "compiler/lower/lower_npreduce.h"
#include "compiler/types/infer_npreduce.h"

#define B (F->L->b)

static LLVMTypeRef i64t(uf__fn *F)
{
    return LLVMInt64TypeInContext(F->L->ctx);
}

static LLVMValueRef c64(uf__fn *F, int64_t v)
{
    return LLVMConstInt(i64t(F), (unsigned long long)v, 1);
}

static LLVMTypeRef i8p(uf__fn *F)
{
    return LLVMPointerType(LLVMInt8TypeInContext(F->L->ctx), 0);
}

/* Whether call e is a method call a.m(...) (else np.f(a, ...)). */
static bool is_method(uf__fn *F, const uf__expr *e)
{
    const uf__expr *f = e->u.call.func;
    if (f->kind != UF__EX_ATTR)
        return false;
    const uf__type *t = uf__lower_info(F, f->u.attr.value)->type;
    return t && t->kind == UF__T_ARRAY;
}

const uf__expr *uf__arrmeth_recv(uf__fn *F, const uf__expr *e)
{
    return is_method(F, e) ? e->u.call.func->u.attr.value
                           : e->u.call.args[0];
}

const uf__expr *uf__arrmeth_arg(uf__fn *F, const uf__expr *e, int pos,
                                const char *name)
{
    int skip = is_method(F, e) ? 0 : 1;
    if (pos + skip < e->u.call.nargs)
        return e->u.call.args[pos + skip];
    for (int i = 0; i < e->u.call.nkw; i++)
        if (strcmp(e->u.call.kw[i].name, name) == 0)
            return e->u.call.kw[i].value;
    return NULL;
}

LLVMValueRef uf__arrmeth_new(uf__fn *F, uf_dtype dt, int nd,
                             LLVMValueRef *shape, char layout,
                             LLVMValueRef *nitems)
{
    LLVMValueRef a = uf__lower_new_array(F, dt, nd, shape, nitems);
    if (layout != 'F' || nd < 2)
        return a;
    LLVMValueRef strides[UF_MAXDIMS];
    LLVMValueRef s = c64(F, (int64_t)uf_dtype_itemsize(dt));
    for (int k = 0; k < nd; k++) {
        strides[k] = s;
        s = LLVMBuildMul(B, s, shape[k], "");
    }
    return uf__build_array(F->L, uf__emit_array_data(F, a), shape, strides,
                           nd);
}

/* ---- the loop nest ----------------------------------------------------- */

typedef void (*elem_fn)(uf__fn *F, LLVMValueRef sp, LLVMValueRef dp,
                        void *ud);

/* Visits the elements of shape[0..nd) in C order: sp steps by sstr[k]
 * and dp (when not NULL) by dstr[k] on axis k. */
static void nest(uf__fn *F, int d, int nd, const LLVMValueRef *shape,
                 const LLVMValueRef *sstr, const LLVMValueRef *dstr,
                 LLVMValueRef sp, LLVMValueRef dp, elem_fn fn, void *ud)
{
    if (d == nd) {
        fn(F, sp, dp, ud);
        return;
    }
    LLVMTypeRef i8 = LLVMInt8TypeInContext(F->L->ctx);
    LLVMBasicBlockRef pre = LLVMGetInsertBlock(B);
    LLVMBasicBlockRef head = uf__fn_block(F, "am.head");
    LLVMBasicBlockRef body = uf__fn_block(F, "am.body");
    LLVMBasicBlockRef done = uf__fn_block(F, "am.done");
    LLVMBuildBr(B, head);
    LLVMPositionBuilderAtEnd(B, head);
    LLVMValueRef i = LLVMBuildPhi(B, i64t(F), "i");
    LLVMValueRef ps = LLVMBuildPhi(B, i8p(F), "ps");
    LLVMValueRef pd = dp ? LLVMBuildPhi(B, i8p(F), "pd") : NULL;
    LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntSLT, i, shape[d], ""), body,
                    done);
    LLVMPositionBuilderAtEnd(B, body);
    nest(F, d + 1, nd, shape, sstr, dstr, ps, pd, fn, ud);
    LLVMBasicBlockRef latch = LLVMGetInsertBlock(B);
    LLVMValueRef in = LLVMBuildNSWAdd(B, i, c64(F, 1), "");
    LLVMValueRef s = sstr[d];
    LLVMValueRef psn = LLVMBuildGEP2(B, i8, ps, &s, 1, "");
    LLVMValueRef pdn = NULL;
    if (dp) {
        LLVMValueRef t = dstr[d];
        pdn = LLVMBuildGEP2(B, i8, pd, &t, 1, "");
    }
    LLVMBuildBr(B, head);
    LLVMBasicBlockRef from[2] = {pre, latch};
    LLVMAddIncoming(i, (LLVMValueRef[]){c64(F, 0), in}, from, 2);
    LLVMAddIncoming(ps, (LLVMValueRef[]){sp, psn}, from, 2);
    if (dp)
        LLVMAddIncoming(pd, (LLVMValueRef[]){dp, pdn}, from, 2);
    LLVMPositionBuilderAtEnd(B, done);
}

/* nest() with the source's innermost stride tested at run time when the
 * type does not fix it: +-isz (a contiguous or reversed row, the common
 * views) get loops with that stride constant, which vectorise; any other
 * the generic one. */
static void nest_fast(uf__fn *F, int nd, const LLVMValueRef *shape,
                      const LLVMValueRef *sstr, const LLVMValueRef *dstr,
                      LLVMValueRef sp, LLVMValueRef dp, elem_fn fn, void *ud,
                      int64_t isz)
{
    if (nd == 0 || LLVMIsAConstantInt(sstr[nd - 1])) {
        nest(F, 0, nd, shape, sstr, dstr, sp, dp, fn, ud);
        return;
    }
    LLVMValueRef ss[UF_MAXDIMS];
    memcpy(ss, sstr, sizeof(LLVMValueRef) * (size_t)nd);
    LLVMBasicBlockRef join = uf__fn_block(F, "am.join");
    for (int v = 0; v < 2; v++) {
        LLVMValueRef k = c64(F, v == 0 ? isz : -isz);
        LLVMBasicBlockRef yes = uf__fn_block(F, "am.unit");
        LLVMBasicBlockRef no = uf__fn_block(F, "am.other");
        LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntEQ, sstr[nd - 1], k, ""),
                        yes, no);
        LLVMPositionBuilderAtEnd(B, yes);
        ss[nd - 1] = k;
        nest(F, 0, nd, shape, ss, dstr, sp, dp, fn, ud);
        LLVMBuildBr(B, join);
        LLVMPositionBuilderAtEnd(B, no);
    }
    nest(F, 0, nd, shape, sstr, dstr, sp, dp, fn, ud);
    LLVMBuildBr(B, join);
    LLVMPositionBuilderAtEnd(B, join);
}

void uf__arrmeth_visit(uf__fn *F, LLVMValueRef src, const uf__type *st,
                       LLVMValueRef dp, LLVMValueRef dstep,
                       void (*fn)(uf__fn *, LLVMValueRef, LLVMValueRef,
                                  void *),
                       void *ud)
{
    LLVMValueRef shape[UF_MAXDIMS], sstr[UF_MAXDIMS], dstr[UF_MAXDIMS];
    for (int k = 0; k < st->ndim; k++) {
        shape[k] = uf__emit_array_dim(F, src, k);
        sstr[k] = uf__emit_array_stride(F, src, st, k);
    }
    /* the destination runs in C order through dstep-sized elements */
    LLVMValueRef s = dstep;
    for (int k = st->ndim - 1; dp && k >= 0; k--) {
        dstr[k] = s;
        s = LLVMBuildMul(B, s, shape[k], "");
    }
    nest_fast(F, st->ndim, shape, sstr, dp ? dstr : NULL,
              uf__emit_array_data(F, src), dp, fn, ud,
              (int64_t)uf_dtype_itemsize(st->dtype));
}

/* ---- copies ------------------------------------------------------------ */

typedef struct cast_elem {
    uf_dtype from, to;
} cast_elem;

static void cast_op(uf__fn *F, LLVMValueRef sp, LLVMValueRef dp, void *ud)
{
    const cast_elem *c = ud;
    uf__emit_elem_store(F, dp, c->to,
                        uf__emit_cast(F, uf__emit_elem_load(F, sp, c->from),
                                      c->from, c->to));
}

/* dst (a new array of type dt, n elements) = src converted. */
static void copy_into(uf__fn *F, LLVMValueRef src, const uf__type *st,
                      LLVMValueRef dst, const uf__type *dt, LLVMValueRef n)
{
    LLVMValueRef sd = uf__emit_array_data(F, src);
    LLVMValueRef dd = uf__emit_array_data(F, dst);
    int64_t isz = (int64_t)uf_dtype_itemsize(dt->dtype);
    bool same_order = st->layout == dt->layout ||
                      (st->ndim <= 1 && st->layout != 'A');
    if (same_order && st->layout != 'A' && st->dtype == dt->dtype) {
        LLVMBuildMemCpy(B, dd, UF__DATA_ALIGN, sd, 1,
                        LLVMBuildMul(B, n, c64(F, isz), ""));
        return;
    }
    cast_elem c = {st->dtype, dt->dtype};
    if (same_order && st->layout != 'A') { /* one flat loop */
        LLVMValueRef shape[1] = {n};
        LLVMValueRef ss[1] = {c64(F, (int64_t)uf_dtype_itemsize(st->dtype))};
        LLVMValueRef ds[1] = {c64(F, isz)};
        nest(F, 0, 1, shape, ss, ds, sd, dd, cast_op, &c);
        return;
    }
    if (dt->layout == 'F' && dt->ndim > 1) { /* C order over both */
        LLVMValueRef shape[UF_MAXDIMS], ss[UF_MAXDIMS], ds[UF_MAXDIMS];
        for (int k = 0; k < st->ndim; k++) {
            shape[k] = uf__emit_array_dim(F, src, k);
            ss[k] = uf__emit_array_stride(F, src, st, k);
            ds[k] = uf__emit_array_stride(F, dst, dt, k);
        }
        nest_fast(F, st->ndim, shape, ss, ds, sd, dd, cast_op, &c,
                  (int64_t)uf_dtype_itemsize(st->dtype));
        return;
    }
    uf__arrmeth_visit(F, src, st, dd, c64(F, isz), cast_op, &c);
}

LLVMValueRef uf__arrmeth_copy(uf__fn *F, LLVMValueRef src,
                              const uf__type *st, const uf__type *rt)
{
    LLVMValueRef shape[UF_MAXDIMS], n;
    if (rt->ndim == 1 && st->ndim != 1) { /* flatten: the size */
        LLVMValueRef size = c64(F, 1);
        for (int k = 0; k < st->ndim; k++)
            size = LLVMBuildMul(B, size, uf__emit_array_dim(F, src, k), "");
        shape[0] = size;
    } else {
        for (int k = 0; k < rt->ndim; k++)
            shape[k] = uf__emit_array_dim(F, src, k);
    }
    LLVMValueRef dst = uf__arrmeth_new(F, rt->dtype, rt->ndim, shape,
                                       rt->layout, &n);
    if (rt->ndim == 1 && st->ndim != 1) {
        cast_elem c = {st->dtype, rt->dtype};
        if (st->layout == 'C' && st->dtype == rt->dtype) {
            LLVMBuildMemCpy(
                B, uf__emit_array_data(F, dst), UF__DATA_ALIGN,
                uf__emit_array_data(F, src), 1,
                LLVMBuildMul(B, n,
                             c64(F, (int64_t)uf_dtype_itemsize(rt->dtype)),
                             ""));
        } else {
            uf__arrmeth_visit(F, src, st, uf__emit_array_data(F, dst),
                              c64(F, (int64_t)uf_dtype_itemsize(rt->dtype)),
                              cast_op, &c);
        }
        return dst;
    }
    copy_into(F, src, st, dst, rt, n);
    return dst;
}

/* ---- reshape and ravel ------------------------------------------------- */

/* The i64 dimensions of a.reshape(...) / np.reshape(a, shape). */
static int new_dims(uf__fn *F, const uf__expr *e, LLVMValueRef *dims)
{
    int skip = is_method(F, e) ? 0 : 1;
    int nd = 0;
    for (int i = skip; i < e->u.call.nargs; i++) {
        const uf__expr *x = e->u.call.args[i];
        LLVMValueRef v = uf__lower_expr(F, x);
        if (!v)
            return -1;
        const uf__type *t = uf__lower_info(F, x)->type;
        if (t->kind == UF__T_TUPLE) {
            for (int k = 0; k < t->n; k++)
                dims[nd++] = uf__emit_cast(
                    F, LLVMBuildExtractValue(B, v, (unsigned)k, ""),
                    t->elts[k]->dtype, UF_INT64);
        } else {
            dims[nd++] = uf__emit_cast(F, v, t->dtype, UF_INT64);
        }
    }
    return nd;
}

/* Numba's reshape: one negative dimension is inferred (0 when the others
 * multiply to 0), two are a ValueError, and so is a size that changes. */
static LLVMValueRef reshape(uf__fn *F, const uf__expr *e, LLVMValueRef a,
                            const uf__type *at, const uf__type *rt)
{
    LLVMValueRef dims[UF_MAXDIMS];
    int nd = new_dims(F, e, dims);
    if (nd < 0)
        return NULL;
    LLVMValueRef size = c64(F, 1);
    for (int k = 0; k < at->ndim; k++)
        size = LLVMBuildMul(B, size, uf__emit_array_dim(F, a, k), "");
    LLVMValueRef known = c64(F, 1), negs = c64(F, 0);
    LLVMValueRef zero = c64(F, 0);
    for (int k = 0; k < nd; k++) {
        LLVMValueRef neg = LLVMBuildICmp(B, LLVMIntSLT, dims[k], zero, "");
        negs = LLVMBuildAdd(B, negs, LLVMBuildZExt(B, neg, i64t(F), ""), "");
        known = LLVMBuildMul(B, known,
                             LLVMBuildSelect(B, neg, c64(F, 1), dims[k], ""),
                             "");
    }
    uf__fn_raise_if(F, LLVMBuildICmp(B, LLVMIntSGT, negs, c64(F, 1), ""),
                    UF__JIT_RESHAPE_NEGATIVE);
    LLVMValueRef kz = LLVMBuildICmp(B, LLVMIntEQ, known, zero, "");
    LLVMValueRef safe = LLVMBuildSelect(B, kz, c64(F, 1), known, "");
    LLVMValueRef inferred = LLVMBuildSelect(
        B, kz, zero, LLVMBuildSDiv(B, size, safe, ""), "");
    LLVMValueRef total = known;
    for (int k = 0; k < nd; k++) {
        LLVMValueRef neg = LLVMBuildICmp(B, LLVMIntSLT, dims[k], zero, "");
        dims[k] = LLVMBuildSelect(B, neg, inferred, dims[k], "");
        total = LLVMBuildSelect(B, neg, LLVMBuildMul(B, known, inferred, ""),
                                total, "");
    }
    uf__fn_raise_if(F, LLVMBuildICmp(B, LLVMIntNE, total, size, ""),
                    UF__JIT_RESHAPE_SIZE);
    if (at->layout == 'F' && at->ndim > 1) {
        /* Numba reshapes in C order without copying: an F array whose
         * elements are not also in C order cannot be */
        LLVMValueRef bad = LLVMConstInt(LLVMInt1TypeInContext(F->L->ctx), 0,
                                        0);
        LLVMValueRef s = c64(F, (int64_t)uf_dtype_itemsize(at->dtype));
        for (int k = at->ndim - 1; k >= 0; k--) {
            LLVMValueRef n = uf__emit_array_dim(F, a, k);
            LLVMValueRef st = uf__emit_array_stride(F, a, at, k);
            bad = LLVMBuildOr(
                B, bad,
                LLVMBuildAnd(B, LLVMBuildICmp(B, LLVMIntSGT, n, c64(F, 1), ""),
                             LLVMBuildICmp(B, LLVMIntNE, st, s, ""), ""),
                "");
            s = LLVMBuildMul(B, s, n, "");
        }
        uf__fn_raise_if(F, LLVMBuildAnd(B, bad,
                                        LLVMBuildICmp(B, LLVMIntSGT, size,
                                                      c64(F, 0), ""),
                                        ""),
                        UF__JIT_RESHAPE_COPY);
    }
    LLVMValueRef strides[UF_MAXDIMS];
    LLVMValueRef s = c64(F, (int64_t)uf_dtype_itemsize(rt->dtype));
    for (int k = nd - 1; k >= 0; k--) {
        strides[k] = s;
        s = LLVMBuildMul(B, s, dims[k], "");
    }
    return uf__build_array(F->L, uf__emit_array_data(F, a), dims, strides,
                           nd);
}

static LLVMValueRef ravel_view(uf__fn *F, LLVMValueRef a, const uf__type *at)
{
    LLVMValueRef size = c64(F, 1);
    for (int k = 0; k < at->ndim; k++)
        size = LLVMBuildMul(B, size, uf__emit_array_dim(F, a, k), "");
    LLVMValueRef st = c64(F, (int64_t)uf_dtype_itemsize(at->dtype));
    return uf__build_array(F->L, uf__emit_array_data(F, a), &size, &st, 1);
}

/* ---- fill and the accumulations ---------------------------------------- */

typedef struct fill_elem {
    uf_dtype dt;
    LLVMValueRef v; /* of dt */
} fill_elem;

static void fill_op(uf__fn *F, LLVMValueRef sp, LLVMValueRef dp, void *ud)
{
    (void)dp;
    const fill_elem *f = ud;
    uf__emit_elem_store(F, sp, f->dt, f->v);
}

typedef struct accum {
    uf_dtype in, acc, res;
    uf__binop op;
    LLVMValueRef slot;
} accum;

static void accum_op(uf__fn *F, LLVMValueRef sp, LLVMValueRef dp, void *ud)
{
    const accum *c = ud;
    LLVMTypeRef at = uf__lower_dtype(F->L, c->acc);
    LLVMValueRef x = uf__emit_cast(F, uf__emit_elem_load(F, sp, c->in),
                                   c->in, c->acc);
    LLVMValueRef y = LLVMBuildLoad2(B, at, c->slot, "");
    /* a bool accumulator ors, as Numba's cumsum(dtype=np.bool_) */
    LLVMValueRef r = c->acc == UF_BOOL && c->op == UF__OP_ADD
                         ? LLVMBuildOr(B, y, x, "")
                         : uf__emit_binop(F, c->op, c->acc, y, x);
    LLVMBuildStore(B, r, c->slot);
    uf__emit_elem_store(F, dp, c->res, uf__emit_cast(F, r, c->acc, c->res));
}

/* np.cumsum / np.cumprod: one pass over the flattened array. */
static LLVMValueRef accumulate(uf__fn *F, LLVMValueRef a, const uf__type *at,
                               const uf__type *rt, uf__builtin b)
{
    accum c = {.in = at->dtype, .res = rt->dtype,
               .op = b == UF__BI_NP_CUMSUM ? UF__OP_ADD : UF__OP_MUL};
    uf_dtype res;
    uf__npreduce_dtypes(b == UF__BI_NP_CUMSUM ? UF__BI_NP_SUM : UF__BI_NP_PROD,
                        at->dtype, &c.acc, &res);
    if (rt->dtype != res) /* cumsum(dtype=): accumulates in it */
        c.acc = rt->dtype;
    LLVMValueRef size = c64(F, 1), n;
    for (int k = 0; k < at->ndim; k++)
        size = LLVMBuildMul(B, size, uf__emit_array_dim(F, a, k), "");
    LLVMValueRef dst = uf__arrmeth_new(F, rt->dtype, 1, &size, 'C', &n);
    c.slot = uf__fn_alloca(F, uf__lower_dtype(F->L, c.acc), "acc");
    LLVMBuildStore(B, uf__emit_cast(F, c64(F, b == UF__BI_NP_CUMSUM ? 0 : 1),
                                    UF_INT64, c.acc),
                   c.slot);
    uf__arrmeth_visit(F, a, at, uf__emit_array_data(F, dst),
                      c64(F, (int64_t)uf_dtype_itemsize(rt->dtype)),
                      accum_op, &c);
    return dst;
}

/* ---- rounding ------------------------------------------------------------ */

static LLVMValueRef emit_rint(uf__fn *F, LLVMValueRef x)
{
    return uf__emit_intrinsic(F, "llvm.rint", &x, 1);
}

/* Numba's round_ndigits (CPython's algorithm over NumPy's rint) of the
 * float64 x to `dec` (i64) decimals; dec 0 is rint(x). */
static LLVMValueRef round_f64(uf__fn *F, LLVMValueRef x, LLVMValueRef dec)
{
    LLVMTypeRef f64 = LLVMDoubleTypeInContext(F->L->ctx);
    LLVMValueRef zero = c64(F, 0);
    LLVMValueRef nonneg = LLVMBuildICmp(B, LLVMIntSGE, dec, zero, "");
    LLVMValueRef big = LLVMBuildAnd(
        B, nonneg, LLVMBuildICmp(B, LLVMIntSGT, dec, c64(F, 22), ""), "");
    LLVMValueRef ex = LLVMBuildSelect(
        B, nonneg,
        LLVMBuildSelect(B, big, LLVMBuildSub(B, dec, c64(F, 22), ""), dec, ""),
        LLVMBuildNeg(B, dec, ""), "");
    LLVMValueRef pow1 = uf__emit_pow_int(F, UF_FLOAT64, LLVMConstReal(f64, 10),
                                         UF_INT64, ex);
    LLVMValueRef pow2 = LLVMBuildSelect(B, big, LLVMConstReal(f64, 1e22),
                                        LLVMConstReal(f64, 1.0), "");
    LLVMValueRef inf = LLVMConstReal(f64, __builtin_inf());
    LLVMValueRef ax = uf__emit_intrinsic(F, "llvm.fabs", &x, 1);
    /* |x| == inf or x is NaN: x itself */
    LLVMValueRef special = LLVMBuildFCmp(B, LLVMRealUEQ, ax, inf, "");
    LLVMValueRef y = LLVMBuildFMul(B, LLVMBuildFMul(B, x, pow1, ""), pow2, "");
    LLVMValueRef ay = uf__emit_intrinsic(F, "llvm.fabs", &y, 1);
    LLVMValueRef rp = LLVMBuildFDiv(
        B, LLVMBuildFDiv(B, emit_rint(F, y), pow2, ""), pow1, "");
    rp = LLVMBuildSelect(B, LLVMBuildFCmp(B, LLVMRealOEQ, ay, inf, ""), x, rp,
                         "");
    LLVMValueRef rn = LLVMBuildFMul(
        B, emit_rint(F, LLVMBuildFDiv(B, x, pow1, "")), pow1, "");
    LLVMValueRef r = LLVMBuildSelect(B, nonneg, rp, rn, "");
    r = LLVMBuildSelect(B, special, x, r, "");
    return LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntEQ, dec, zero, ""),
                           emit_rint(F, x), r, "");
}

/* np.round of one number v of dtype dt as Numba's scalar version, the
 * result converted to rd. */
static LLVMValueRef round_value(uf__fn *F, LLVMValueRef v, uf_dtype dt,
                                LLVMValueRef dec, uf_dtype rd)
{
    switch (uf_dtype_kind(dt)) {
    case 'f':
        return uf__emit_cast(
            F, round_f64(F, uf__emit_cast(F, v, dt, UF_FLOAT64), dec),
            UF_FLOAT64, rd);
    case 'c': {
        uf_dtype p = uf__dtype_part(dt);
        LLVMValueRef re = uf__emit_cast(F, uf__emit_real(F, v), p,
                                        UF_FLOAT64);
        LLVMValueRef im = uf__emit_cast(F, uf__emit_imag(F, v), p,
                                        UF_FLOAT64);
        LLVMValueRef z = uf__emit_complex(F, UF_COMPLEX128,
                                          round_f64(F, re, dec),
                                          round_f64(F, im, dec));
        return uf__emit_cast(F, z, UF_COMPLEX128, rd);
    }
    default: {
        /* decimals 0: the integer itself; else int(round_ndigits(x)) */
        LLVMValueRef r = round_f64(F, uf__emit_cast(F, v, dt, UF_FLOAT64),
                                   dec);
        LLVMValueRef ri = uf__emit_cast(F, r, UF_FLOAT64, UF_INT64);
        LLVMValueRef same = uf__emit_cast(F, v, dt, rd);
        LLVMValueRef other = uf__emit_cast(F, ri, UF_INT64, rd);
        return LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntEQ, dec, c64(F, 0),
                                                ""),
                               same, other, "");
    }
    }
}

typedef struct round_elem {
    uf_dtype dt, scalar_rd;
    LLVMValueRef dec;
    uf_dtype od; /* the destination's dtype */
} round_elem;

static void round_op(uf__fn *F, LLVMValueRef sp, LLVMValueRef dp, void *ud)
{
    const round_elem *r = ud;
    LLVMValueRef v = uf__emit_elem_load(F, sp, r->dt);
    /* out[i] = np.round(a[i], decimals): the number's result, stored */
    LLVMValueRef x = round_value(F, v, r->dt, r->dec, r->scalar_rd);
    uf__emit_elem_store(F, dp, r->od, uf__emit_cast(F, x, r->scalar_rd,
                                                    r->od));
}

static uf_dtype scalar_round_dtype(uf_dtype dt)
{
    switch (uf_dtype_kind(dt)) {
    case 'c':
        return UF_COMPLEX128;
    case 'f':
        return UF_FLOAT64;
    default:
        return dt == UF_UINT64 ? UF_FLOAT64 : UF_INT64;
    }
}

/* np.round(x, decimals, out) of a number: Numba's out[0] = v (a whole
 * row of an N-d out); nothing is written into an empty out, which
 * Numba writes past. */
static void round_into_first(uf__fn *F, LLVMValueRef v, LLVMValueRef out,
                             const uf__type *ot)
{
    fill_elem fe = {ot->dtype, v};
    LLVMValueRef shape[UF_MAXDIMS], ss[UF_MAXDIMS];
    for (int k = 1; k < ot->ndim; k++) {
        shape[k - 1] = uf__emit_array_dim(F, out, k);
        ss[k - 1] = uf__emit_array_stride(F, out, ot, k);
    }
    LLVMBasicBlockRef put = uf__fn_block(F, "round.first");
    LLVMBasicBlockRef done = uf__fn_block(F, "round.done");
    LLVMBuildCondBr(B,
                    LLVMBuildICmp(B, LLVMIntSGT, uf__emit_array_dim(F, out, 0),
                                  c64(F, 0), ""),
                    put, done);
    LLVMPositionBuilderAtEnd(B, put);
    nest(F, 0, ot->ndim - 1, shape, ss, NULL, uf__emit_array_data(F, out),
         NULL, fill_op, &fe);
    LLVMBuildBr(B, done);
    LLVMPositionBuilderAtEnd(B, done);
}

static LLVMValueRef lower_round(uf__fn *F, const uf__expr *e,
                                LLVMValueRef a, const uf__type *at,
                                const uf__type *rt)
{
    const uf__expr *dx = uf__arrmeth_arg(F, e, 0, "decimals");
    LLVMValueRef dec = c64(F, 0);
    if (dx) {
        LLVMValueRef d = uf__lower_expr(F, dx);
        if (!d)
            return NULL;
        dec = uf__emit_cast(F, d, uf__lower_info(F, dx)->type->dtype,
                            UF_INT64);
    }
    const uf__expr *ox = uf__arrmeth_arg(F, e, 1, "out");
    if (ox && uf__lower_info(F, ox)->type->kind != UF__T_ARRAY)
        ox = NULL; /* out=None */
    if (at->kind == UF__T_SCALAR && !ox)
        return round_value(F, a, at->dtype, dec, rt->dtype);
    LLVMValueRef shape[UF_MAXDIMS], n, dst;
    for (int k = 0; k < at->ndim; k++)
        shape[k] = uf__emit_array_dim(F, a, k);
    if (ox) {
        dst = uf__lower_expr(F, ox);
        if (!dst)
            return NULL;
        if (at->kind == UF__T_SCALAR) {
            round_into_first(F, round_value(F, a, at->dtype, dec, rt->dtype),
                             dst, rt);
            return dst;
        }
        /* Numba's `a.shape != out.shape`; where nothing may raise, no
         * element is written */
        LLVMValueRef bad = LLVMConstInt(LLVMInt1TypeInContext(F->L->ctx), 0,
                                        0);
        for (int k = 0; k < at->ndim; k++)
            bad = LLVMBuildOr(
                B, bad,
                LLVMBuildICmp(B, LLVMIntNE, shape[k],
                              uf__emit_array_dim(F, dst, k), ""),
                "");
        uf__fn_raise_if(F, bad, UF__JIT_ROUND_SHAPE);
        if (at->ndim > 0)
            shape[0] = LLVMBuildSelect(B, bad, c64(F, 0), shape[0], "");
    } else {
        dst = uf__arrmeth_new(F, rt->dtype, rt->ndim, shape, rt->layout, &n);
    }
    round_elem r = {at->dtype, scalar_round_dtype(at->dtype), dec,
                    rt->dtype};
    LLVMValueRef ss[UF_MAXDIMS], ds[UF_MAXDIMS];
    for (int k = 0; k < at->ndim; k++) {
        ss[k] = uf__emit_array_stride(F, a, at, k);
        ds[k] = uf__emit_array_stride(F, dst, rt, k);
    }
    nest_fast(F, at->ndim, shape, ss, ds, uf__emit_array_data(F, a),
              uf__emit_array_data(F, dst), round_op, &r,
              (int64_t)uf_dtype_itemsize(at->dtype));
    return dst;
}

LLVMValueRef uf__lower_arrmeth(uf__fn *F, const uf__expr *e)
{
    const uf__expr_info *in = uf__lower_info(F, e);
    const uf__type *rt = in->type;
    uf__builtin b = in->builtin;
    if (e->kind == UF__EX_ATTR && b == UF__BI_ATTR_FLAT) {
        const uf__type *bt = uf__lower_info(F, e->u.attr.value)->type;
        LLVMValueRef a = uf__lower_expr(F, e->u.attr.value);
        if (!a || bt->ndim == 1 || rt->kind == UF__T_FLATITER)
            return a; /* a 1-D array is its own flat view; an iterator
                         of another order is the array (lower_flat.c) */
        return ravel_view(F, a, bt);
    }
    if (e->kind != UF__EX_CALL) {
        uf__source_error(F->err, UF_ERR_UNSUPPORTED, F->tf->km->src, e->pos,
                         "%s is a method: call it",
                         uf__builtin_name(b));
        return NULL;
    }
    const uf__expr *rx = uf__arrmeth_recv(F, e);
    const uf__type *at = uf__lower_info(F, rx)->type;
    bool of_number = at->kind == UF__T_SCALAR; /* np.round, np.cumsum */
    if (F->L->cg->sreg != NULL && !of_number) {
        uf__source_error(F->err, UF_ERR_UNSUPPORTED, F->tf->km->src, e->pos,
                         "%s() allocates an array or calls the host "
                         "runtime, which CUDA kernels cannot do",
                         uf__builtin_name(b));
        return NULL;
    }
    if (b == UF__BI_NP_SORT || b == UF__BI_METH_SORT ||
        b == UF__BI_NP_ARGSORT || b == UF__BI_NP_SEARCHSORTED)
        return uf__lower_arrsort(F, e);
    LLVMValueRef a = uf__lower_expr(F, rx);
    if (!a)
        return NULL;
    switch (b) {
    case UF__BI_NP_COPY:
    case UF__BI_METH_COPY:
    case UF__BI_METH_FLATTEN:
    case UF__BI_METH_ASTYPE:
        return uf__arrmeth_copy(F, a, at, rt);
    case UF__BI_NP_RAVEL:
        return at->layout == 'C' ? ravel_view(F, a, at)
                                 : uf__arrmeth_copy(F, a, at, rt);
    case UF__BI_NP_RESHAPE:
        return reshape(F, e, a, at, rt);
    case UF__BI_NP_CUMSUM:
    case UF__BI_NP_CUMPROD: {
        if (of_number) /* Numba's: the number, in the accumulator's dtype */
            return uf__emit_cast(F, a, at->dtype, rt->dtype);
        /* cumsum(axis=k): the shape kept (lower_npcumsum.c) */
        const uf__expr *kx =
            b == UF__BI_NP_CUMSUM ? uf__arrmeth_arg(F, e, 0, "axis") : NULL;
        const uf__type *kt = kx ? uf__lower_info(F, kx)->type : NULL;
        if (!kt || !uf__type_is_int(kt))
            return accumulate(F, a, at, rt, b);
        LLVMValueRef k = uf__lower_expr(F, kx);
        return k ? uf__npr_cumsum_axis(
                       F, a, at, uf__emit_cast(F, k, kt->dtype, UF_INT64),
                       rt->dtype)
                 : NULL;
    }
    case UF__BI_METH_FILL: {
        const uf__expr *vx = uf__arrmeth_arg(F, e, 0, "value");
        LLVMValueRef v = uf__lower_expr(F, vx);
        if (!v)
            return NULL;
        fill_elem fe = {at->dtype,
                        uf__emit_cast(F, v, uf__lower_info(F, vx)->type->dtype,
                                      at->dtype)};
        uf__arrmeth_visit(F, a, at, NULL, NULL, fill_op, &fe);
        return LLVMGetUndef(LLVMInt1TypeInContext(F->L->ctx));
    }
    default:
        return lower_round(F, e, a, at, rt);
    }
}
