/* np.nonzero, a.nonzero(), np.where(cond), np.flatnonzero, np.argwhere,
 * np.extract, np.delete, np.unique, np.union1d, np.intersect1d, np.setxor1d,
 * np.setdiff1d, np.isin (typed by infer_npfind.c): results whose length
 * depends on the data. The host runtime (common/npfind.h) counts the true
 * elements, the result arrays are made in the frame (uf__lower_new_array:
 * out of memory raises), then the runtime fills them, as Numba's two
 * passes do. np.unique fills a new array of the input's size and the
 * result is its first part, whatever the sort and the runs left. Arrays
 * go to the runtime as they are (data, shape, strides, dtype); a number or
 * a tuple of numbers is first stored, in np.asarray's dtype, into a stack
 * slot: a 0-d or 1-D array of its own. */
#include <stdint.h>
#include "common/npfind.h"
#include "compiler/host/jit.h"
#include "compiler/lower/lower.h"
#include "compiler/lower/lower_rtcall.h"
#include "compiler/lower/lower_array.h"

#define B (F->L->b)

/* An operand as the runtime reads it. */
typedef struct operand {
    LLVMValueRef data, nd, shape, strides, dt; /* i8*, i64, i64*, i64*, i32 */
    LLVMValueRef size;                         /* i64: its element count */
    int ndim;
    uf_dtype dtype;
} operand;

/* The dtype np.asarray gives a tuple of numbers. */
static uf_dtype tuple_dtype(const uf__type *t)
{
    uf_dtype d = t->elts[0]->dtype;
    for (int i = 1; i < t->n; i++)
        d = uf_promote_types(d, t->elts[i]->dtype);
    return d;
}

/* The operand of expression x: an array as it is, a number or a tuple of
 * numbers stored in np.asarray's dtype into a stack slot. NULL on error. */
static bool take(uf__fn *F, const uf__expr *x, operand *o)
{
    const uf__type *t = uf__lower_info(F, x)->type;
    LLVMValueRef v = uf__lower_expr(F, x);
    if (!v)
        return false;
    if (t->kind == UF__T_ARRAY) {
        o->shape = uf__emit_i64_slots(F, t->ndim, "find.shape");
        o->strides = uf__emit_i64_slots(F, t->ndim, "find.strides");
        o->size = uf__c_i64(F, 1);
        for (int k = 0; k < t->ndim; k++) {
            LLVMValueRef d = uf__emit_array_dim(F, v, k);
            uf__emit_put(F, o->shape, k, d);
            uf__emit_put(F, o->strides, k,
                             uf__emit_array_stride(F, v, t, k));
            o->size = LLVMBuildMul(B, o->size, d, "");
        }
        o->data = uf__emit_rt_data(F, v);
        o->ndim = t->ndim;
        o->dtype = t->dtype;
    } else {
        bool tup = t->kind == UF__T_TUPLE;
        int n = tup ? t->n : 1;
        o->dtype = tup ? tuple_dtype(t) : t->dtype;
        LLVMTypeRef et = uf__lower_mem_dtype(F->L, o->dtype);
        LLVMValueRef slot = uf__fn_alloca(F, LLVMArrayType(et, (unsigned)n),
                                          "find.values");
        LLVMValueRef p = LLVMBuildPointerCast(B, slot, LLVMPointerType(et, 0),
                                              "");
        for (int i = 0; i < n; i++) {
            const uf__type *xt = tup ? t->elts[i] : t;
            LLVMValueRef xi = tup ? LLVMBuildExtractValue(B, v, (unsigned)i,
                                                          "")
                                  : v;
            xi = uf__emit_cast(F, xi, xt->dtype, o->dtype);
            if (o->dtype == UF_BOOL) /* an i1 stored as a byte */
                xi = LLVMBuildZExt(B, xi, et, "");
            LLVMValueRef ix = uf__c_i64(F, i);
            LLVMBuildStore(B, xi, LLVMBuildGEP2(B, et, p, &ix, 1, ""));
        }
        o->data = LLVMBuildPointerCast(B, p, uf__ty_i8p(F), "");
        o->ndim = tup ? 1 : 0;
        o->shape = uf__emit_i64_slots(F, 1, "find.shape");
        o->strides = uf__emit_i64_slots(F, 1, "find.strides");
        uf__emit_put(F, o->shape, 0, uf__c_i64(F, n));
        uf__emit_put(F, o->strides, 0,
            uf__c_i64(F, (int64_t)uf_dtype_itemsize(o->dtype)));
        o->size = uf__c_i64(F, n);
    }
    o->nd = uf__c_i64(F, o->ndim);
    o->dt = LLVMConstInt(uf__ty_i32(F), (unsigned)o->dtype, 0);
    return true;
}

/* The true elements among the first `limit` of o. */
static LLVMValueRef count_true(uf__fn *F, const operand *o,
                               LLVMValueRef limit)
{
    LLVMValueRef args[6] = {o->data, o->nd, o->shape, o->strides, o->dt,
                            limit};
    return uf__emit_rt_call(F, UF__NP_COUNT_TRUE, uf__ty_i64(F), args, 6);
}

/* uf__np_find into the n arrays outs[] (their data pointers). */
static void find(uf__fn *F, const operand *o, int how, LLVMValueRef *outs,
                 int n)
{
    LLVMValueRef slot = uf__fn_alloca(
        F, LLVMArrayType(uf__ty_i8p(F), (unsigned)n), "find.outs");
    LLVMValueRef p = uf__emit_rt_ptr(F, slot, uf__ty_i8p(F));
    for (int i = 0; i < n; i++)
        uf__emit_put(F, p, i, uf__emit_rt_data(F, outs[i]));
    LLVMValueRef args[7] = {o->data, o->nd, o->shape, o->strides, o->dt,
                            LLVMConstInt(uf__ty_i32(F), (unsigned)how, 0), p};
    uf__emit_rt_call(F, UF__NP_FIND, LLVMVoidTypeInContext(F->L->ctx), args,
                     7);
}

/* A new C int64 array of shape (n, cols) (1-D when cols < 0) made with
 * room for one more row, which uf__np_find's branchless loops write into
 * (npfind.h); the result is the view without it. */
static LLVMValueRef new_index_array(uf__fn *F, LLVMValueRef n, int cols)
{
    int nd = cols < 0 ? 1 : 2;
    LLVMValueRef shape[2] = {LLVMBuildAdd(B, n, uf__c_i64(F, 1), ""),
                             uf__c_i64(F, cols)};
    LLVMValueRef items;
    LLVMValueRef r = uf__lower_new_array(F, UF_INT64, nd, shape, &items);
    if (!r)
        return NULL;
    shape[0] = n;
    LLVMValueRef strides[2] = {uf__c_i64(F, 8 * (cols < 0 ? 1 : cols)),
                               uf__c_i64(F, 8)};
    return uf__build_array(F->L, uf__emit_array_data(F, r), shape, strides,
                           nd);
}

static LLVMValueRef lower_nonzero(uf__fn *F, const uf__expr *e,
                                  const operand *a)
{
    const uf__type *rt = uf__lower_info(F, e)->type;
    LLVMValueRef n = count_true(F, a, uf__c_i64(F, INT64_MAX));
    LLVMValueRef outs[UF_MAXDIMS];
    LLVMValueRef tup = LLVMGetUndef(uf__lower_type(F->L, rt, F->err));
    for (int i = 0; i < rt->n; i++) {
        outs[i] = new_index_array(F, n, -1);
        if (!outs[i])
            return NULL;
        tup = LLVMBuildInsertValue(B, tup, outs[i], (unsigned)i, "");
    }
    find(F, a, UF__NPFIND_NONZERO, outs, rt->n);
    return tup;
}

static LLVMValueRef lower_argwhere(uf__fn *F, const operand *a)
{
    LLVMValueRef n = count_true(F, a, uf__c_i64(F, INT64_MAX));
    LLVMValueRef r = new_index_array(F, n, a->ndim);
    if (r && a->ndim > 0) /* a number: (1, 0) or (0, 0), nothing to fill */
        find(F, a, UF__NPFIND_ARGWHERE, &r, 1);
    return r;
}

/* np.extract: Numba's checks in its order, then the true ones of
 * condition's first min(cond.size, arr.size) elements. */
static LLVMValueRef lower_extract(uf__fn *F, const operand *c,
                                  const operand *a)
{
    LLVMValueRef zero = uf__c_i64(F, 0);
    uf__fn_raise_if(F, LLVMBuildICmp(B, LLVMIntEQ, a->size, zero, ""),
                    UF__JIT_EXTRACT_EMPTY);
    LLVMValueRef longer = LLVMBuildICmp(B, LLVMIntSGT, c->size, a->size, "");
    LLVMValueRef limit = LLVMBuildSelect(B, longer, a->size, c->size, "");
    LLVMValueRef n = count_true(F, c, limit);
    /* a true element past arr's end (counted only when there is one) */
    LLVMBasicBlockRef here = LLVMGetInsertBlock(B);
    LLVMValueRef fn = LLVMGetBasicBlockParent(here);
    LLVMBasicBlockRef tail = LLVMAppendBasicBlockInContext(F->L->ctx, fn,
                                                           "extract.tail");
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(F->L->ctx, fn,
                                                           "extract.ok");
    LLVMBuildCondBr(B, longer, tail, done);
    LLVMPositionBuilderAtEnd(B, tail);
    LLVMValueRef all = count_true(F, c, uf__c_i64(F, INT64_MAX));
    LLVMBasicBlockRef tail_end = LLVMGetInsertBlock(B);
    LLVMBuildBr(B, done);
    LLVMPositionBuilderAtEnd(B, done);
    LLVMValueRef total = LLVMBuildPhi(B, uf__ty_i64(F), "");
    LLVMValueRef vals[2] = {n, all};
    LLVMBasicBlockRef from[2] = {here, tail_end};
    LLVMAddIncoming(total, vals, from, 2);
    uf__fn_raise_if(F, LLVMBuildICmp(B, LLVMIntSGT, total, n, ""),
                    UF__JIT_EXTRACT_SHAPE);
    LLVMValueRef items;
    LLVMValueRef r = uf__lower_new_array(F, a->dtype, 1, &n, &items);
    if (!r)
        return NULL;
    LLVMValueRef args[12] = {
        c->data, c->nd, c->shape, c->strides, c->dt, limit,
        a->data, a->nd, a->shape, a->strides, a->dt,
        uf__emit_rt_data(F, r)};
    uf__emit_rt_call(F, UF__NP_EXTRACT, LLVMVoidTypeInContext(F->L->ctx), args,
                12);
    return r;
}

/* np.delete(arr, obj): a mask of arr's size cleared at obj's indices
 * (the runtime), then np.extract's copy of the elements it keeps. An
 * integer obj past arr is Numba's IndexError; an index of an array or a
 * tuple past it is NumPy's (Numba 0.68 writes out of bounds there). */
static LLVMValueRef lower_delete(uf__fn *F, const uf__expr *e,
                                 const operand *a, const operand *ix)
{
    LLVMValueRef n = a->size;
    bool uns = uf_dtype_kind(ix->dtype) == 'u';
    if (ix->ndim == 0 && uf__lower_info(F, uf__call_arg(e, 1, "obj"))
                                 ->type->kind == UF__T_SCALAR) {
        LLVMValueRef v = uf__emit_cast(F, uf__emit_elem_load(F, ix->data,
                                                             ix->dtype),
                                       ix->dtype, UF_INT64);
        LLVMValueRef lo = LLVMBuildICmp(B, LLVMIntSLT, v,
                                        LLVMBuildNeg(B, n, ""), "");
        LLVMValueRef hi = LLVMBuildICmp(B, uns ? LLVMIntUGE : LLVMIntSGE, v,
                                        n, "");
        uf__fn_raise_if(F, uns ? hi : LLVMBuildOr(B, lo, hi, ""),
                        UF__JIT_DELETE_OBJ);
    }
    LLVMValueRef items;
    LLVMValueRef keep = uf__lower_new_array(F, UF_BOOL, 1, &n, &items);
    if (!keep)
        return NULL;
    LLVMValueRef bad = uf__fn_alloca(F, uf__ty_i64(F), "delete.bad");
    LLVMValueRef margs[8] = {uf__emit_rt_data(F, keep), n, ix->data, ix->nd,
                             ix->shape, ix->strides, ix->dt, bad};
    LLVMValueRef kept = uf__emit_rt_call(F, UF__NP_DELETE_MASK, uf__ty_i64(F),
                                         margs, 8);
    LLVMValueRef failed = LLVMBuildICmp(B, LLVMIntSLT, kept, uf__c_i64(F, 0),
                                        "");
    LLVMBasicBlockRef report = uf__fn_block(F, "delete.index_error");
    LLVMBasicBlockRef go = uf__fn_block(F, "delete.checked");
    LLVMBuildCondBr(B, failed, report, go);
    LLVMPositionBuilderAtEnd(B, report);
    uf__index_report r = {
        .kernel = F->tf->decl->name, .file = F->tf->km->src->name,
        .line = e->pos.line, .index = LLVMBuildLoad2(B, uf__ty_i64(F), bad,
                                                     ""),
        .is_unsigned = uns, .axis = 0, .size = n};
    F->L->cg->index_error(F, &r);
    LLVMBuildBr(B, go);
    LLVMPositionBuilderAtEnd(B, go);
    uf__fn_raise_if(F, failed, UF__JIT_INDEX);
    LLVMValueRef r_items;
    LLVMValueRef out = uf__lower_new_array(F, a->dtype, 1, &kept, &r_items);
    if (!out)
        return NULL;
    /* the mask as np.extract's condition: 1-D, contiguous bools */
    LLVMValueRef cshape = uf__emit_i64_slots(F, 1, "delete.shape");
    LLVMValueRef cstrides = uf__emit_i64_slots(F, 1, "delete.strides");
    uf__emit_put(F, cshape, 0, n);
    uf__emit_put(F, cstrides, 0, uf__c_i64(F, 1));
    LLVMValueRef args[12] = {
        uf__emit_rt_data(F, keep), uf__c_i64(F, 1), cshape, cstrides,
        LLVMConstInt(uf__ty_i32(F), UF_BOOL, 0), n,
        a->data, a->nd, a->shape, a->strides, a->dt,
        uf__emit_rt_data(F, out)};
    uf__emit_rt_call(F, UF__NP_EXTRACT, LLVMVoidTypeInContext(F->L->ctx), args,
                12);
    return out;
}

/* np.unique: an array of a's size, filled, sorted and shortened to the
 * runs the runtime kept. */
static LLVMValueRef lower_unique(uf__fn *F, const operand *a)
{
    LLVMValueRef items, n = a->size;
    LLVMValueRef r = uf__lower_new_array(F, a->dtype, 1, &n, &items);
    if (!r)
        return NULL;
    LLVMValueRef data = uf__emit_array_data(F, r);
    LLVMValueRef args[6] = {a->data, a->nd, a->shape, a->strides, a->dt,
                            LLVMBuildPointerCast(B, data, uf__ty_i8p(F), "")};
    LLVMValueRef m = uf__emit_rt_call(F, UF__NP_UNIQUE, uf__ty_i64(F), args,
                                      6);
    uf__fn_raise_if(F, LLVMBuildICmp(B, LLVMIntSLT, m, uf__c_i64(F, 0), ""),
                    UF__JIT_NOMEM);
    LLVMValueRef stride = uf__c_i64(F, (int64_t)uf_dtype_itemsize(a->dtype));
    return uf__build_array(F->L, data, &m, &stride, 1);
}

/* A bool flag argument (absent: false) as an i32 0 or `bit`. */
static bool flag(uf__fn *F, const uf__expr *x, unsigned bit,
                 LLVMValueRef *acc)
{
    if (x == NULL)
        return true;
    LLVMValueRef v = uf__lower_expr(F, x);
    if (!v)
        return false;
    v = LLVMBuildZExt(B, v, uf__ty_i32(F), "");
    *acc = LLVMBuildOr(
        B, *acc, LLVMBuildMul(B, v, LLVMConstInt(uf__ty_i32(F), bit, 0), ""),
        "");
    return true;
}

/* np.union1d, np.intersect1d, np.setxor1d, np.setdiff1d, np.isin: one
 * call of uf__np_setop into a new array (the set routines: room for
 * every element, the result its first part; isin: element's shape). */
static LLVMValueRef lower_setop(uf__fn *F, const uf__expr *e, uf__builtin b)
{
    bool is = b == UF__BI_NP_ISIN;
    operand a, c;
    if (!take(F, uf__call_arg(e, 0, is ? "element" : "ar1"), &a) ||
        !take(F, uf__call_arg(e, 1, is ? "test_elements" : "ar2"), &c))
        return NULL;
    LLVMValueRef flags = LLVMConstInt(uf__ty_i32(F), 0, 0);
    if (!flag(F, uf__call_arg(e, 2, "assume_unique"), UF__NPSET_ASSUME_UNIQUE,
              &flags)
        || !flag(F, is ? uf__call_arg(e, 3, "invert") : NULL, UF__NPSET_INVERT,
                 &flags))
        return NULL;
    const uf__type *rt = uf__lower_info(F, e)->type;
    int op = b == UF__BI_NP_UNION1D       ? UF__NPSET_UNION
             : b == UF__BI_NP_INTERSECT1D ? UF__NPSET_INTERSECT
             : b == UF__BI_NP_SETXOR1D    ? UF__NPSET_SETXOR
             : b == UF__BI_NP_SETDIFF1D   ? UF__NPSET_SETDIFF
                                          : UF__NPSET_ISIN;
    uf_dtype dt = op == UF__NPSET_ISIN || op == UF__NPSET_SETDIFF
                      ? uf_promote_types(a.dtype, c.dtype)
                      : rt->dtype;
    LLVMValueRef shape[UF_MAXDIMS], items, r;
    if (is) {
        for (int k = 0; k < rt->ndim; k++) {
            LLVMValueRef ix = uf__c_i64(F, k);
            shape[k] = LLVMBuildLoad2(
                B, uf__ty_i64(F),
                LLVMBuildGEP2(B, uf__ty_i64(F), a.shape, &ix, 1, ""), "");
        }
        r = uf__lower_new_array(F, UF_BOOL, rt->ndim, shape, &items);
    } else {
        shape[0] = op == UF__NPSET_SETDIFF ? a.size
                                           : LLVMBuildAdd(B, a.size, c.size,
                                                          "");
        r = uf__lower_new_array(F, rt->dtype, 1, shape, &items);
    }
    if (!r)
        return NULL;
    LLVMValueRef data = uf__emit_array_data(F, r);
    LLVMValueRef args[14] = {
        LLVMConstInt(uf__ty_i32(F), (unsigned)op, 0), flags,
        a.data, a.nd, a.shape, a.strides, a.dt,
        c.data, c.nd, c.shape, c.strides, c.dt,
        LLVMConstInt(uf__ty_i32(F), (unsigned)dt, 0),
        LLVMBuildPointerCast(B, data, uf__ty_i8p(F), "")};
    LLVMValueRef m = uf__emit_rt_call(F, UF__NP_SETOP, uf__ty_i64(F), args,
                                      14);
    uf__fn_raise_if(F, LLVMBuildICmp(B, LLVMIntSLT, m, uf__c_i64(F, 0), ""),
                    UF__JIT_NOMEM);
    if (is)
        return r;
    LLVMValueRef stride = uf__c_i64(F, (int64_t)uf_dtype_itemsize(rt->dtype));
    return uf__build_array(F->L, data, &m, &stride, 1);
}

LLVMValueRef uf__lower_npfind(uf__fn *F, const uf__expr *e)
{
    uf__builtin b = uf__lower_info(F, e)->builtin;
    const uf__expr *f = e->u.call.func;
    const char *fname = uf__builtin_name(uf__lower_info(F, f)->builtin);
    if (F->L->cg->sreg != NULL) { /* a CUDA ufunc or gufunc */
        uf__source_error(F->err, UF_ERR_UNSUPPORTED, F->tf->km->src, e->pos,
                         "%s() allocates its result in the host runtime, "
                         "which CUDA kernels cannot do",
                         fname ? fname : "np.nonzero");
        return NULL;
    }
    operand a, c;
    switch (b) {
    case UF__BI_NP_NONZERO: { /* also a.nonzero() and np.where(cond) */
        bool method = f->kind == UF__EX_ATTR &&
                      uf__lower_info(F, f->u.attr.value)->type->kind ==
                          UF__T_ARRAY &&
                      e->u.call.nargs + e->u.call.nkw == 0;
        const uf__expr *x = method ? f->u.attr.value
                                   : e->u.call.nargs ? e->u.call.args[0]
                                                     : e->u.call.kw[0].value;
        return take(F, x, &a) ? lower_nonzero(F, e, &a) : NULL;
    }
    case UF__BI_NP_FLATNONZERO: {
        if (!take(F, uf__call_arg(e, 0, "a"), &a))
            return NULL;
        LLVMValueRef n = count_true(F, &a, uf__c_i64(F, INT64_MAX));
        LLVMValueRef r = new_index_array(F, n, -1);
        if (r)
            find(F, &a, UF__NPFIND_FLAT, &r, 1);
        return r;
    }
    case UF__BI_NP_ARGWHERE:
        return take(F, uf__call_arg(e, 0, "a"), &a) ? lower_argwhere(F, &a)
                                                    : NULL;
    case UF__BI_NP_EXTRACT:
        if (!take(F, uf__call_arg(e, 0, "condition"), &c) ||
            !take(F, uf__call_arg(e, 1, "arr"), &a))
            return NULL;
        return lower_extract(F, &c, &a);
    case UF__BI_NP_DELETE:
        if (!take(F, uf__call_arg(e, 0, "arr"), &a) ||
            !take(F, uf__call_arg(e, 1, "obj"), &c))
            return NULL;
        return lower_delete(F, e, &a, &c);
    case UF__BI_NP_UNIQUE:
        return take(F, uf__call_arg(e, 0, "ar"), &a) ? lower_unique(F, &a)
                                                     : NULL;
    default: /* the set routines */
        return lower_setop(F, e, b);
    }
}
