/* dtype values, array parts and the builtins min/max/sum over arrays and
 * tuples, typed by infer_arrattr.c.
 *
 * A dtype is known at compile time: its value is an i8 nothing reads
 * (variables, tuples and arguments holding one keep their layout), and
 * dtype == dtype a constant. a.real / a.imag of a complex array are views
 * of the same memory (data moved by the float part's size for .imag, the
 * strides kept), as Numba's array_complex_attr; a.imag of real numbers
 * and a.conj() are new arrays owned by the frame (lower_alloc.c), so host
 * targets only. min/max/sum walk the array once in its own order through
 * uf__arrmeth_visit, the accumulator in a slot mem2reg promotes; their
 * arithmetic is the scalar operators', so results are Numba's to the bit
 * (sums in order, not reassociated: Numba's loop). */
#include <string.h>

#include "common/alloc.h"
#include "common/error_internal.h"
#include "common/list_ustr.h"
#include "compiler/lower/lower_array.h"
#include "compiler/lower/lower_arrattr.h"
#include "compiler/lower/lower_arrmeth.h"
#include "compiler/lower/lower_set_key.h"

#define B (F->L->b)

static LLVMValueRef c64(uf__fn *F, int64_t v)
{
    return LLVMConstInt(LLVMInt64TypeInContext(F->L->ctx),
                        (unsigned long long)v, 1);
}

static LLVMValueRef refuse(uf__fn *F, const uf__expr *e, const char *what)
{
    uf__source_error(F->err, UF_ERR_UNSUPPORTED, F->tf->km->src, e->pos,
                     "%s", what);
    return NULL;
}

/* ---- dtype values ------------------------------------------------------ */

bool uf__lower_is_dtype_value(uf__fn *F, const uf__expr *e)
{
    const uf__expr_info *in = uf__lower_info(F, e);
    if (in->callee != NULL || in->ext != NULL)
        return false; /* a kernel's call: its effects happen */
    return in->builtin == UF__BI_DTYPE_EQ ||
           (in->type != NULL && (in->type->kind == UF__T_DTYPE ||
                                 uf__type_is_pyclass(in->type)));
}

LLVMValueRef uf__lower_dtype_value(uf__fn *F, const uf__expr *e)
{
    const uf__expr_info *in = uf__lower_info(F, e);
    if (in->builtin == UF__BI_DTYPE_EQ)
        return LLVMConstInt(uf__lower_dtype(F->L, UF_BOOL),
                            in->constant && in->constant->v.b, 0);
    /* f(x).dtype: the call still runs (it may raise or allocate) */
    if (e->kind == UF__EX_ATTR && e->u.attr.value->kind == UF__EX_CALL &&
        !uf__lower_expr(F, e->u.attr.value))
        return NULL;
    return LLVMConstInt(LLVMInt8TypeInContext(F->L->ctx), 0, 0);
}

/* ---- .real, .imag, .conj() ---------------------------------------------- */

/* The array a part or method reads: a in a.real, np.real(a), a.conj(). */
static const uf__expr *receiver(const uf__expr *e)
{
    if (e->kind == UF__EX_ATTR)
        return e->u.attr.value;
    if (e->u.call.func->kind == UF__EX_ATTR && e->u.call.nargs == 0)
        return e->u.call.func->u.attr.value; /* a.conj() */
    return e->u.call.args[0];                 /* np.real(a) */
}

static LLVMValueRef complex_part(uf__fn *F, LLVMValueRef a,
                                 const uf__type *at, bool imag)
{
    LLVMValueRef shape[UF_MAXDIMS], strides[UF_MAXDIMS];
    for (int k = 0; k < at->ndim; k++) {
        shape[k] = uf__emit_array_dim(F, a, k);
        strides[k] = uf__emit_array_stride(F, a, at, k);
    }
    LLVMValueRef data = uf__emit_array_data(F, a);
    if (imag) {
        LLVMValueRef off = c64(F, (int64_t)uf_dtype_itemsize(at->dtype) / 2);
        data = LLVMBuildGEP2(B, LLVMInt8TypeInContext(F->L->ctx), data, &off,
                             1, "imag");
    }
    return uf__build_array(F->L, data, shape, strides, at->ndim);
}

/* a.imag of real numbers: zeros laid out as the type says (F stays F). */
static LLVMValueRef zeros_like(uf__fn *F, LLVMValueRef a, const uf__type *rt)
{
    LLVMValueRef shape[UF_MAXDIMS], n;
    for (int k = 0; k < rt->ndim; k++)
        shape[k] = uf__emit_array_dim(F, a, k);
    LLVMValueRef z = uf__arrmeth_new(F, rt->dtype, rt->ndim, shape,
                                     rt->layout, &n);
    LLVMBuildMemSet(B, uf__emit_array_data(F, z),
                    LLVMConstInt(LLVMInt8TypeInContext(F->L->ctx), 0, 0),
                    LLVMBuildMul(B, n,
                                 c64(F, (int64_t)uf_dtype_itemsize(rt->dtype)),
                                 ""),
                    UF__DATA_ALIGN);
    return z;
}

/* conj of the complex element at p (dtype *ud) into dp (p itself when
 * dp is NULL): whole elements, so contiguous loops vectorise as a sign
 * flip of every other lane (a store of the imaginary part alone became
 * gathers and scatters) */
static void conj_elem(uf__fn *F, LLVMValueRef p, LLVMValueRef dp, void *ud)
{
    uf_dtype dt = *(const uf_dtype *)ud;
    LLVMValueRef z = uf__emit_elem_load(F, p, dt);
    LLVMValueRef im = LLVMBuildExtractValue(B, z, 1, "");
    z = LLVMBuildInsertValue(B, z, LLVMBuildFNeg(B, im, ""), 1, "");
    uf__emit_elem_store(F, dp ? dp : p, dt, z);
}

/* a.conj() of a complex array: one pass into a new C array; an F result
 * (F source) is copied first and flipped in place. */
static LLVMValueRef conj_array(uf__fn *F, LLVMValueRef a, const uf__type *at,
                               const uf__type *rt)
{
    uf_dtype dt = rt->dtype;
    if (rt->layout == 'F') {
        LLVMValueRef r = uf__arrmeth_copy(F, a, at, rt);
        uf__arrmeth_visit(F, r, rt, NULL, NULL, conj_elem, &dt);
        return r;
    }
    LLVMValueRef shape[UF_MAXDIMS], n;
    for (int k = 0; k < rt->ndim; k++)
        shape[k] = uf__emit_array_dim(F, a, k);
    LLVMValueRef r = uf__arrmeth_new(F, dt, rt->ndim, shape, 'C', &n);
    uf__arrmeth_visit(F, a, at, uf__emit_array_data(F, r),
                      c64(F, (int64_t)uf_dtype_itemsize(dt)), conj_elem, &dt);
    return r;
}

static LLVMValueRef lower_part(uf__fn *F, const uf__expr *e, uf__builtin b)
{
    const uf__expr *rx = receiver(e);
    const uf__type *at = uf__lower_info(F, rx)->type;
    const uf__type *rt = uf__lower_info(F, e)->type;
    bool complex = uf__dtype_is_complex(at->dtype);
    bool allocates = b == UF__BI_ARR_CONJ || (b == UF__BI_ARR_IMAG &&
                                              !complex);
    if (allocates && F->L->cg->sreg != NULL)
        return refuse(F, e, b == UF__BI_ARR_CONJ
                                ? "conj() of an array allocates a new "
                                  "array, which CUDA kernels cannot do"
                                : ".imag of an array of real numbers "
                                  "allocates an array of zeros, which CUDA "
                                  "kernels cannot do");
    LLVMValueRef a = uf__lower_expr(F, rx);
    if (!a)
        return NULL;
    if (b == UF__BI_ARR_CONJ)
        return complex ? conj_array(F, a, at, rt)
                       : uf__arrmeth_copy(F, a, at, rt);
    if (complex)
        return complex_part(F, a, at, b == UF__BI_ARR_IMAG);
    return b == UF__BI_ARR_REAL ? a : zeros_like(F, a, rt);
}

/* ---- min, max, sum over an array or a tuple ----------------------------- */

typedef struct fold {
    LLVMValueRef acc;   /* slot of the accumulator */
    uf_dtype at, xt;    /* its dtype, the elements' */
    uf__binop op;       /* UF__OP_ADD for sum */
    uf_dtype od;        /* sum: the operands' dtype (Numba's signature) */
    int cmp;            /* min/max: UF__CMP_LT / GT, else -1 */
} fold;

static void fold_value(uf__fn *F, fold *f, LLVMValueRef x)
{
    LLVMTypeRef ty = uf__lower_dtype(F->L, f->at);
    LLVMValueRef acc = LLVMBuildLoad2(B, ty, f->acc, "acc");
    LLVMValueRef r;
    if (f->cmp >= 0) /* Python's min/max: the first of equals stays */
        r = LLVMBuildSelect(B, uf__emit_cmp(F, (uf__cmpop)f->cmp, f->at, x,
                                            acc),
                            x, acc, "");
    else
        r = uf__emit_binop_values(F, f->op, f->at, acc, f->xt, x, f->od,
                                  f->at);
    LLVMBuildStore(B, r, f->acc);
}

static void fold_elem(uf__fn *F, LLVMValueRef p, LLVMValueRef unused,
                      void *ud)
{
    (void)unused;
    fold *f = ud;
    fold_value(F, f, uf__emit_elem_load(F, p, f->xt));
}

/* The operand dtype Numba's `acc + x` computes in. */
static uf_dtype add_optype(uf__fn *F, uf_dtype acc, uf_dtype x)
{
    uf__typectx *tc = F->tf->km->tc;
    const uf__type *opt = NULL;
    const uf__type *r = uf__type_binop(tc, UF__OP_ADD, uf__type_scalar(tc, acc),
                                       uf__type_scalar(tc, x), &opt);
    return opt ? opt->dtype : r ? r->dtype : acc;
}

static void fold_range_value(uf__fn *F, LLVMValueRef x, void *ud)
{
    fold_value(F, ud, x);
}

/* min/max/sum of range(...): its values in order (lower_range_len.c).
 * min/max start from the dtype's far end, which any value replaces or
 * equals, once an empty range has raised StopIteration. */
static LLVMValueRef fold_range(uf__fn *F, fold *f, const uf__expr *range,
                               LLVMValueRef init)
{
    LLVMTypeRef ty = uf__lower_dtype(F->L, f->at);
    f->xt = uf__lower_info(F, range)->optype->dtype;
    if (f->cmp >= 0) {
        int bits = (int)uf_dtype_itemsize(f->at) * 8;
        bool sgn = f->at != UF_UINT64;
        unsigned long long top = sgn ? (1ULL << (bits - 1)) - 1 : ~0ULL;
        unsigned long long bottom = sgn ? 1ULL << (bits - 1) : 0;
        init = LLVMConstInt(ty, f->cmp == UF__CMP_LT ? top : bottom, 0);
    } else {
        f->od = add_optype(F, f->at, f->xt);
    }
    LLVMBuildStore(B, init, f->acc);
    if (uf__lower_range_visit(F, range, fold_range_value, f,
                              f->cmp >= 0 ? UF__JIT_STOP_ITERATION : 0) != 0)
        return NULL;
    return LLVMBuildLoad2(B, ty, f->acc, "");
}

/* min(a) / max(a) of an N-d array, as Numba's loop `m = next(it); for x
 * in it: if x < m: m = x` runs on its rows: the truth of `x < m` is
 * NumPy's, so with two rows or more each must hold exactly one element
 * (else ValueError before any comparison, where Numba raises at the
 * first); the result is a view of the row picked. */
static LLVMValueRef minmax_rows(uf__fn *F, const fold *f, LLVMValueRef a,
                                const uf__type *at)
{
    LLVMTypeRef i64 = LLVMInt64TypeInContext(F->L->ctx);
    LLVMValueRef n = uf__emit_array_dim(F, a, 0), zero = c64(F, 0);
    uf__fn_raise_if(F, LLVMBuildICmp(B, LLVMIntEQ, n, zero, "empty"),
                    UF__JIT_STOP_ITERATION);
    LLVMValueRef m = c64(F, 1);
    for (int k = 1; k < at->ndim; k++)
        m = LLVMBuildMul(B, m, uf__emit_array_dim(F, a, k), "");
    LLVMValueRef rows = LLVMBuildICmp(B, LLVMIntSGT, n, c64(F, 1), "");
    uf__fn_raise_if(F, LLVMBuildAnd(B, rows, LLVMBuildICmp(B, LLVMIntEQ, m,
                                                             zero, ""), ""),
                    UF__JIT_TRUTH_EMPTY);
    uf__fn_raise_if(F, LLVMBuildAnd(B, rows, LLVMBuildICmp(B, LLVMIntSGT, m,
                                                             c64(F, 1), ""),
                                    ""),
                    UF__JIT_TRUTH_AMBIGUOUS);
    /* from here every row holds one element: compare those */
    LLVMValueRef data = uf__emit_array_data(F, a);
    LLVMValueRef s0 = uf__emit_array_stride(F, a, at, 0);
    LLVMTypeRef i8 = LLVMInt8TypeInContext(F->L->ctx);
    LLVMValueRef best = uf__fn_alloca(F, i64, "row.best");
    LLVMValueRef iv = uf__fn_alloca(F, i64, "row.i");
    LLVMBuildStore(B, zero, best);
    LLVMBuildStore(B, c64(F, 1), iv);
    LLVMBasicBlockRef head = uf__fn_block(F, "rows.head");
    LLVMBasicBlockRef body = uf__fn_block(F, "rows.body");
    LLVMBasicBlockRef done = uf__fn_block(F, "rows.done");
    LLVMBuildBr(B, head);
    LLVMPositionBuilderAtEnd(B, head);
    LLVMValueRef i = LLVMBuildLoad2(B, i64, iv, "");
    LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntSLT, i, n, ""), body, done);
    LLVMPositionBuilderAtEnd(B, body);
    LLVMValueRef bi = LLVMBuildLoad2(B, i64, best, "");
    LLVMValueRef ox = LLVMBuildMul(B, i, s0, ""), ob = LLVMBuildMul(B, bi, s0,
                                                                   "");
    LLVMValueRef x = uf__emit_elem_load(F, LLVMBuildGEP2(B, i8, data, &ox, 1,
                                                         ""),
                                        f->xt);
    LLVMValueRef cur = uf__emit_elem_load(F, LLVMBuildGEP2(B, i8, data, &ob,
                                                           1, ""),
                                          f->xt);
    LLVMValueRef take = uf__emit_cmp(F, (uf__cmpop)f->cmp, f->xt, x, cur);
    LLVMBuildStore(B, LLVMBuildSelect(B, take, i, bi, ""), best);
    LLVMBuildStore(B, LLVMBuildAdd(B, i, c64(F, 1), ""), iv);
    LLVMBuildBr(B, head);
    LLVMPositionBuilderAtEnd(B, done);
    return uf__emit_array_item(F, a, at, LLVMBuildLoad2(B, i64, best, ""));
}

static LLVMValueRef lower_fold(uf__fn *F, const uf__expr *e, uf__builtin b)
{
    const uf__expr_info *in = uf__lower_info(F, e);
    const uf__expr *ix = e->u.call.nargs > 0 ? e->u.call.args[0] : NULL;
    for (int i = 0; i < e->u.call.nkw; i++)
        if (strcmp(e->u.call.kw[i].name, "iterable") == 0)
            ix = e->u.call.kw[i].value;
    const uf__type *it = uf__lower_info(F, ix)->type;
    fold f = {.at = in->type->dtype, .op = UF__OP_ADD, .cmp = -1};
    bool rows = it->kind == UF__T_ARRAY && it->ndim >= 2; /* min/max */
    if (b == UF__BI_ITER_MIN || b == UF__BI_ITER_MAX)
        f.cmp = b == UF__BI_ITER_MIN ? UF__CMP_LT : UF__CMP_GT;
    /* a range's arguments are read by fold_range, once */
    LLVMValueRef v = it->kind == UF__T_RANGE ? NULL : uf__lower_expr(F, ix);
    if (!v && it->kind != UF__T_RANGE)
        return NULL;
    if (it->kind == UF__T_SET && !uf__set_key_narrow(it->elts[0]) &&
        f.cmp >= 0) /* tuples, strings: lower_set_from.c */
        return uf__lower_set_minmax(F, v, it, b == UF__BI_ITER_MAX);
    if (in->type->kind == UF__T_USTR) { /* a list of strings: list_ustr.c */
        LLVMTypeRef i32 = LLVMInt32TypeInContext(F->L->ctx);
        LLVMValueRef a[2] = {v, LLVMConstInt(i32, b == UF__BI_ITER_MAX, 0)};
        LLVMTypeRef pt[2] = {LLVMTypeOf(v), i32};
        LLVMTypeRef fty = LLVMFunctionType(LLVMTypeOf(v), pt, 2, 0);
        LLVMValueRef fn = F->L->cg->helper(F->L, UF__LIST_USTR_MINMAX, fty);
        F->L->uses_runtime = true;
        LLVMValueRef r = LLVMBuildCall2(B, fty, fn, a, 2, "");
        uf__fn_raise_if(F, LLVMBuildIsNull(B, r, ""),
                        UF__JIT_STOP_ITERATION); /* Numba's, empty */
        return r;
    }
    if (it->kind == UF__T_SET) { /* its items copied to a new array */
        uf_dtype kd = it->elts[0]->dtype;
        LLVMValueRef n = uf__emit_list_len(F, v), nitems;
        LLVMValueRef arr = uf__lower_new_array(F, kd, 1, &n, &nitems);
        if (!arr)
            return NULL;
        uf__lower_set_items(F, v, it, uf__emit_array_data(F, arr),
                            (int64_t)uf_dtype_itemsize(kd), kd);
        v = arr;
        if (!(it = uf__type_array(F->tf->km->tc, kd, 1, 'C', F->err)))
            return NULL;
    }
    if (it->kind == UF__T_LIST) { /* its items, as a 1-D array */
        v = uf__lower_list_as_array(F, v, it);
        it = uf__type_array(F->tf->km->tc, it->elts[0]->dtype, 1, 'C',
                            F->err);
        if (!it)
            return NULL;
    }
    if (rows) {
        f.xt = it->dtype;
        return minmax_rows(F, &f, v, it);
    }
    LLVMTypeRef ty = uf__lower_dtype(F->L, f.at);
    f.acc = uf__fn_alloca(F, ty, "fold");
    LLVMValueRef init = LLVMConstNull(ty); /* sum() without start: 0 */
    if (b == UF__BI_SUM) {
        const uf__expr *sx = NULL;
        for (int i = 0; i < e->u.call.nkw; i++)
            if (strcmp(e->u.call.kw[i].name, "start") == 0)
                sx = e->u.call.kw[i].value;
        if (e->u.call.nargs > 1)
            sx = e->u.call.args[1];
        if (sx) {
            LLVMValueRef s = uf__lower_expr(F, sx);
            if (!s)
                return NULL;
            init = uf__emit_cast(F, s, uf__lower_info(F, sx)->type->dtype,
                                 f.at);
        }
    }
    if (it->kind == UF__T_RANGE)
        return fold_range(F, &f, ix, init);
    if (it->kind == UF__T_TUPLE) { /* unrolled, each element its type */
        LLVMBuildStore(B, init, f.acc);
        for (int i = 0; i < it->n; i++) {
            f.xt = it->elts[i]->dtype;
            LLVMValueRef x = LLVMBuildExtractValue(B, v, (unsigned)i, "");
            if (f.cmp >= 0 && i == 0) {
                LLVMBuildStore(B, uf__emit_cast(F, x, f.xt, f.at), f.acc);
                continue;
            }
            if (f.cmp >= 0)
                x = uf__emit_cast(F, x, f.xt, f.at);
            else
                f.od = add_optype(F, f.at, f.xt);
            fold_value(F, &f, x);
        }
        return LLVMBuildLoad2(B, ty, f.acc, "");
    }
    f.xt = it->dtype;
    if (f.cmp >= 0) {
        /* Numba's next() of an empty iterator: StopIteration; the first
         * element is read only when there is one */
        LLVMValueRef empty = LLVMBuildICmp(B, LLVMIntEQ,
                                           uf__emit_array_dim(F, v, 0),
                                           c64(F, 0), "empty");
        uf__fn_raise_if(F, empty, UF__JIT_STOP_ITERATION);
        LLVMBuildStore(B, init, f.acc);
        LLVMBasicBlockRef first = uf__fn_block(F, "fold.first");
        LLVMBasicBlockRef go = uf__fn_block(F, "fold.go");
        LLVMBuildCondBr(B, empty, go, first);
        LLVMPositionBuilderAtEnd(B, first);
        LLVMBuildStore(B, uf__emit_elem_load(F, uf__emit_array_data(F, v),
                                             f.xt),
                       f.acc);
        LLVMBuildBr(B, go);
        LLVMPositionBuilderAtEnd(B, go);
    } else {
        LLVMBuildStore(B, init, f.acc);
        f.od = add_optype(F, f.at, f.xt);
    }
    uf__arrmeth_visit(F, v, it, NULL, NULL, fold_elem, &f);
    return LLVMBuildLoad2(B, ty, f.acc, "");
}

LLVMValueRef uf__lower_arrattr(uf__fn *F, const uf__expr *e)
{
    uf__builtin b = uf__lower_info(F, e)->builtin;
    switch (b) {
    case UF__BI_ARR_REAL:
    case UF__BI_ARR_IMAG:
        return lower_part(F, e, b);
    case UF__BI_ARR_CONJ:
        if (e->kind != UF__EX_CALL)
            return refuse(F, e, "conj is a method: call it, a.conj()");
        return lower_part(F, e, b);
    case UF__BI_SUM:
    case UF__BI_ITER_MIN:
    case UF__BI_ITER_MAX:
        return lower_fold(F, e, b);
    default: /* the dtype values: uf__lower_dtype_value */
        return uf__lower_dtype_value(F, e);
    }
}

bool uf__arrattr_fallible(const uf__typed_func *tf, const uf__expr *e)
{
    const uf__expr_info *in = uf__tf_info(tf, e);
    switch (in->builtin) {
    case UF__BI_ARR_CONJ:
    case UF__BI_ITER_MIN:
    case UF__BI_ITER_MAX:
        return e->kind == UF__EX_CALL;
    case UF__BI_ARR_IMAG: /* of real numbers: a new array */
        return in->type && in->type->kind == UF__T_ARRAY &&
               in->type->readonly;
    default:
        return false;
    }
}
