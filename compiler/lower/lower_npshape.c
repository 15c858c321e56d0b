/* NumPy's repeats, resizes and broadcasts, typed by infer_npshape.c
 * (builtins.h: UF__NPSHAPE_MAP), after Numba's checks in its order:
 *   repeat(a, r): a new 1-D C array, each element of a (C order) r times;
 *     an array of repeats of length 1 is its element (Numba's shortcut),
 *     else each element its own count, after the negative check and the
 *     size check; the copies are one store loop per element;
 *   resize(a, new_shape): a new C array of new_shape, a's flattened
 *     elements over and over (memcpy of whole copies and the rest from a
 *     C array, else from a C copy of a), zeros where a is empty;
 *   broadcast_to(array, shape): a view of array (no copy): the shape
 *     given, stride 0 on the added axes and where array's length 1 meets
 *     another length (Numba's _bc_adjust_shape_strides); the data pointer
 *     is array's, so the base's block stays alive as for a slice
 *     (lower_nrt_loop.c); a number first becomes a 0-d array;
 *   broadcast_arrays(*args): the shape all broadcast to (Numba's
 *     numpy_broadcast_shapes_list), then each broadcast_to it, as a
 *     tuple;
 *   broadcast_shapes(*args): numpy_broadcast_shapes_list over each shape
 *     in turn, its checks in its order (a negative length, then a
 *     mismatch), the result a tuple of int64;
 *   trim_zeros(filt, trim): a view of filt from the first element that is
 *     not zero (Python's truth: NaN is not zero) to after the last, each
 *     end scanned only where trim asks (Numba scans both ends whole, so
 *     an all-zero filt gives an empty view, its data pointer unmoved). */
#include <string.h>

#include "compiler/lower/lower.h"
#include "compiler/lower/lower_array.h"
#include "compiler/lower/lower_arrmeth.h"
#include "compiler/lower/lower_npreduce.h"
#include "compiler/types/infer_npshape.h"

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

/* An array operand, or a number put into a new 0-d array (np.asarray):
 * its value and type (*at; a number's is a 0-d C array type). */
static LLVMValueRef operand(uf__fn *F, const uf__expr *x,
                            const uf__type **at)
{
    const uf__type *t = uf__lower_info(F, x)->type;
    LLVMValueRef v = uf__lower_expr(F, x);
    if (!v)
        return NULL;
    if (t->kind == UF__T_ARRAY) {
        *at = t;
        return v;
    }
    if (!(*at = uf__type_array(F->tf->km->tc, t->dtype, 0, 'C', F->err)))
        return NULL;
    LLVMValueRef n;
    LLVMValueRef a = uf__arrmeth_new(F, t->dtype, 0, NULL, 'C', &n);
    if (a)
        uf__emit_elem_store(F, uf__emit_array_data(F, a), t->dtype, v);
    return a;
}

static LLVMValueRef size_of(uf__fn *F, LLVMValueRef a, const uf__type *at)
{
    LLVMValueRef n = c64(F, 1);
    for (int k = 0; k < at->ndim; k++)
        n = LLVMBuildMul(B, n, uf__emit_array_dim(F, a, k), "");
    return n;
}

/* for (i = 0; i < n; i++): loop_open returns i, the body follows;
 * loop_close ends it and leaves the builder after the loop. */
typedef struct loop {
    LLVMBasicBlockRef pre, head, done;
    LLVMValueRef i;
} loop;

static LLVMValueRef loop_open(uf__fn *F, loop *l, LLVMValueRef n,
                              const char *name)
{
    l->pre = LLVMGetInsertBlock(B);
    l->head = uf__fn_block(F, name);
    LLVMBasicBlockRef body = uf__fn_block(F, name);
    l->done = uf__fn_block(F, name);
    LLVMBuildBr(B, l->head);
    LLVMPositionBuilderAtEnd(B, l->head);
    l->i = LLVMBuildPhi(B, LLVMInt64TypeInContext(F->L->ctx), "i");
    LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntSLT, l->i, n, ""), body,
                    l->done);
    LLVMPositionBuilderAtEnd(B, body);
    return l->i;
}

static void loop_close(uf__fn *F, loop *l)
{
    LLVMBasicBlockRef latch = LLVMGetInsertBlock(B);
    LLVMValueRef next = LLVMBuildNSWAdd(B, l->i, c64(F, 1), "");
    LLVMBuildBr(B, l->head);
    LLVMBasicBlockRef from[2] = {l->pre, latch};
    LLVMAddIncoming(l->i, (LLVMValueRef[]){c64(F, 0), next}, from, 2);
    LLVMPositionBuilderAtEnd(B, l->done);
}

/* ---- repeat ------------------------------------------------------------ */

/* Stores v (dtype dt) at p, p + isz, ... count times. */
static void fill(uf__fn *F, LLVMValueRef p, uf_dtype dt, LLVMValueRef v,
                 LLVMValueRef count)
{
    loop l;
    LLVMValueRef j = loop_open(F, &l, count, "repeat.fill");
    LLVMValueRef off =
        LLVMBuildMul(B, j, c64(F, (long long)uf_dtype_itemsize(dt)), "");
    uf__emit_elem_store(F, uf__npr_gep(F, p, off), dt, v);
    loop_close(F, &l);
}

typedef struct rep_elem {
    uf_dtype dt;
    LLVMValueRef count;     /* one count for all (NULL: the array's) */
    LLVMValueRef rdata;     /* the repeats' data, stride, dtype */
    LLVMValueRef rstride;
    uf_dtype rdt;
    LLVMValueRef idx, pos;  /* i64 allocas: the element, the bytes out */
    LLVMValueRef out;       /* the result's data */
} rep_elem;

static void rep_op(uf__fn *F, LLVMValueRef sp, LLVMValueRef dp, void *ud)
{
    const rep_elem *r = ud;
    LLVMValueRef v = uf__emit_elem_load(F, sp, r->dt);
    if (r->count) {
        fill(F, dp, r->dt, v, r->count);
        return;
    }
    LLVMTypeRef i64 = LLVMInt64TypeInContext(F->L->ctx);
    LLVMValueRef i = LLVMBuildLoad2(B, i64, r->idx, "");
    LLVMValueRef c = uf__emit_cast(
        F,
        uf__emit_elem_load(F, uf__npr_gep(F, r->rdata,
                                          LLVMBuildMul(B, i, r->rstride, "")),
                           r->rdt),
        r->rdt, UF_INT64);
    LLVMValueRef pos = LLVMBuildLoad2(B, i64, r->pos, "");
    fill(F, uf__npr_gep(F, r->out, pos), r->dt, v, c);
    LLVMBuildStore(B, LLVMBuildAdd(B, i, c64(F, 1), ""), r->idx);
    LLVMBuildStore(
        B,
        LLVMBuildAdd(B, pos,
                     LLVMBuildMul(B, c, c64(F, (long long)uf_dtype_itemsize(
                                                    r->dt)),
                                  ""),
                     ""),
        r->pos);
}

/* np.repeat(a, r) with one count r (i64). */
static LLVMValueRef repeat_one(uf__fn *F, LLVMValueRef a, const uf__type *at,
                               LLVMValueRef r)
{
    uf__fn_raise_if(F, LLVMBuildICmp(B, LLVMIntSLT, r, c64(F, 0), ""),
                    UF__JIT_REPEAT_NEG);
    LLVMValueRef total = LLVMBuildMul(B, size_of(F, a, at), r, ""), n;
    LLVMValueRef out = uf__arrmeth_new(F, at->dtype, 1, &total, 'C', &n);
    if (!out)
        return NULL;
    LLVMValueRef isz = c64(F, (long long)uf_dtype_itemsize(at->dtype));
    rep_elem re = {.dt = at->dtype, .count = r};
    uf__arrmeth_visit(F, a, at, uf__emit_array_data(F, out),
                      LLVMBuildMul(B, r, isz, ""), rep_op, &re);
    return out;
}

/* np.repeat(a, rs) with a 1-D array of counts rs (type rt). */
static LLVMValueRef repeat_each(uf__fn *F, LLVMValueRef a, const uf__type *at,
                                LLVMValueRef rs, const uf__type *rt)
{
    LLVMTypeRef i64 = LLVMInt64TypeInContext(F->L->ctx);
    LLVMValueRef len = uf__emit_array_dim(F, rs, 0);
    LLVMValueRef rdata = uf__emit_array_data(F, rs);
    LLVMValueRef rstride = uf__emit_array_stride(F, rs, rt, 0);
    LLVMBasicBlockRef one = uf__fn_block(F, "repeat.one");
    LLVMBasicBlockRef each = uf__fn_block(F, "repeat.each");
    LLVMBasicBlockRef done = uf__fn_block(F, "repeat.done");
    LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntEQ, len, c64(F, 1), ""), one,
                    each);
    /* Numba: a single count is repeats_array[0] for all */
    LLVMPositionBuilderAtEnd(B, one);
    LLVMValueRef r0 = uf__emit_cast(F, uf__emit_elem_load(F, rdata, rt->dtype),
                                    rt->dtype, UF_INT64);
    LLVMValueRef v1 = repeat_one(F, a, at, r0);
    if (!v1)
        return NULL;
    LLVMBasicBlockRef from1 = LLVMGetInsertBlock(B);
    LLVMBuildBr(B, done);
    /* the negative check, the size check, then the sum */
    LLVMPositionBuilderAtEnd(B, each);
    LLVMValueRef sum = uf__fn_alloca(F, i64, "repeat.sum");
    LLVMValueRef neg = uf__fn_alloca(F, LLVMInt1TypeInContext(F->L->ctx),
                                     "repeat.neg");
    LLVMBuildStore(B, c64(F, 0), sum);
    LLVMBuildStore(B, LLVMConstInt(LLVMInt1TypeInContext(F->L->ctx), 0, 0),
                   neg);
    loop l;
    LLVMValueRef i = loop_open(F, &l, len, "repeat.sum");
    LLVMValueRef c = uf__emit_cast(
        F,
        uf__emit_elem_load(F, uf__npr_gep(F, rdata,
                                          LLVMBuildMul(B, i, rstride, "")),
                           rt->dtype),
        rt->dtype, UF_INT64);
    LLVMBuildStore(B, LLVMBuildAdd(B, LLVMBuildLoad2(B, i64, sum, ""), c, ""),
                   sum);
    LLVMBuildStore(
        B,
        LLVMBuildOr(B,
                    LLVMBuildLoad2(B, LLVMInt1TypeInContext(F->L->ctx), neg,
                                   ""),
                    LLVMBuildICmp(B, LLVMIntSLT, c, c64(F, 0), ""), ""),
        neg);
    loop_close(F, &l);
    uf__fn_raise_if(F, LLVMBuildLoad2(B, LLVMInt1TypeInContext(F->L->ctx),
                                      neg, ""),
                    UF__JIT_REPEAT_NEG);
    uf__fn_raise_if(F, LLVMBuildICmp(B, LLVMIntNE, size_of(F, a, at), len, ""),
                    UF__JIT_REPEAT_SHAPE);
    LLVMValueRef total = LLVMBuildLoad2(B, i64, sum, ""), n;
    LLVMValueRef out = uf__arrmeth_new(F, at->dtype, 1, &total, 'C', &n);
    if (!out)
        return NULL;
    rep_elem re = {.dt = at->dtype,
                   .rdata = rdata,
                   .rstride = rstride,
                   .rdt = rt->dtype,
                   .idx = uf__fn_alloca(F, i64, "repeat.i"),
                   .pos = uf__fn_alloca(F, i64, "repeat.pos"),
                   .out = uf__emit_array_data(F, out)};
    LLVMBuildStore(B, c64(F, 0), re.idx);
    LLVMBuildStore(B, c64(F, 0), re.pos);
    uf__arrmeth_visit(F, a, at, NULL, NULL, rep_op, &re);
    LLVMBasicBlockRef from2 = LLVMGetInsertBlock(B);
    LLVMBuildBr(B, done);
    LLVMPositionBuilderAtEnd(B, done);
    LLVMValueRef phi = LLVMBuildPhi(B, LLVMTypeOf(out), "repeat");
    LLVMAddIncoming(phi, (LLVMValueRef[]){v1, out},
                    (LLVMBasicBlockRef[]){from1, from2}, 2);
    return phi;
}

static LLVMValueRef repeat(uf__fn *F, const uf__expr **x)
{
    const uf__type *at, *rt = uf__lower_info(F, x[1])->type;
    LLVMValueRef a = operand(F, x[0], &at);
    LLVMValueRef r = a ? uf__lower_expr(F, x[1]) : NULL;
    if (!r)
        return NULL;
    if (rt->kind == UF__T_ARRAY)
        return repeat_each(F, a, at, r, rt);
    return repeat_one(F, a, at, uf__emit_cast(F, r, rt->dtype, UF_INT64));
}

/* ---- resize ------------------------------------------------------------ */

/* The i64 values of a shape operand (an integer or a tuple) into
 * dims[]; returns their count, -1 on failure. */
static int dims_of(uf__fn *F, const uf__expr *x, LLVMValueRef *dims)
{
    const uf__type *t = uf__lower_info(F, x)->type;
    LLVMValueRef v = uf__lower_expr(F, x);
    if (!v)
        return -1;
    if (t->kind != UF__T_TUPLE) {
        dims[0] = uf__emit_cast(F, v, t->dtype, UF_INT64);
        return 1;
    }
    for (int k = 0; k < t->n; k++)
        dims[k] = uf__emit_cast(F, LLVMBuildExtractValue(B, v, (unsigned)k, ""),
                                t->elts[k]->dtype, UF_INT64);
    return t->n;
}

static LLVMValueRef any_negative(uf__fn *F, LLVMValueRef const *dims, int nd)
{
    LLVMValueRef neg = LLVMConstInt(LLVMInt1TypeInContext(F->L->ctx), 0, 0);
    for (int k = 0; k < nd; k++)
        neg = LLVMBuildOr(B, neg,
                          LLVMBuildICmp(B, LLVMIntSLT, dims[k], c64(F, 0), ""),
                          "");
    return neg;
}

static LLVMValueRef resize(uf__fn *F, const uf__expr *e, const uf__expr **x)
{
    const uf__type *rt = uf__lower_info(F, e)->type, *at;
    LLVMValueRef a = operand(F, x[0], &at), dims[UF_MAXDIMS], n;
    if (!a || dims_of(F, x[1], dims) != rt->ndim)
        return a ? fail(F, x[1], "np.resize's shape") : NULL;
    uf__fn_raise_if(F, any_negative(F, dims, rt->ndim), UF__JIT_RESIZE_NEG);
    LLVMValueRef out = uf__arrmeth_new(F, rt->dtype, rt->ndim, dims, 'C', &n);
    if (!out)
        return NULL;
    /* a C source: a itself, else its elements copied in C order */
    LLVMValueRef src = a;
    if (at->ndim > 1 && at->layout != 'C') {
        const uf__type *ft = uf__type_array(F->tf->km->tc, at->dtype, 1, 'C',
                                            F->err);
        if (!ft || !(src = uf__arrmeth_copy(F, a, at, ft)))
            return NULL;
    } else if (at->ndim == 1 && at->layout == 'A') {
        LLVMValueRef st = uf__emit_array_stride(F, a, at, 0);
        LLVMValueRef isz = c64(F, (long long)uf_dtype_itemsize(at->dtype));
        LLVMBasicBlockRef keep = LLVMGetInsertBlock(B);
        LLVMBasicBlockRef copy = uf__fn_block(F, "resize.copy");
        LLVMBasicBlockRef join = uf__fn_block(F, "resize.src");
        LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntEQ, st, isz, ""), join,
                        copy);
        LLVMPositionBuilderAtEnd(B, copy);
        const uf__type *ft = uf__type_array(F->tf->km->tc, at->dtype, 1, 'C',
                                            F->err);
        LLVMValueRef c = ft ? uf__arrmeth_copy(F, a, at, ft) : NULL;
        if (!c)
            return NULL;
        LLVMBasicBlockRef from = LLVMGetInsertBlock(B);
        LLVMBuildBr(B, join);
        LLVMPositionBuilderAtEnd(B, join);
        /* both are {data, shape, strides} of one dimension */
        src = LLVMBuildPhi(B, LLVMTypeOf(a), "resize.src");
        LLVMAddIncoming(src, (LLVMValueRef[]){a, c},
                        (LLVMBasicBlockRef[]){keep, from}, 2);
    }
    LLVMValueRef isz = c64(F, (long long)uf_dtype_itemsize(rt->dtype));
    LLVMValueRef od = uf__emit_array_data(F, out);
    LLVMValueRef obytes = LLVMBuildMul(B, n, isz, "");
    LLVMValueRef sbytes = LLVMBuildMul(B, size_of(F, a, at), isz, "");
    LLVMValueRef sd = uf__emit_array_data(F, src);
    LLVMBasicBlockRef zero = uf__fn_block(F, "resize.zero");
    LLVMBasicBlockRef copies = uf__fn_block(F, "resize.copies");
    LLVMBasicBlockRef done = uf__fn_block(F, "resize.done");
    LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntEQ, sbytes, c64(F, 0), ""),
                    zero, copies);
    LLVMPositionBuilderAtEnd(B, zero); /* np.zeros(new_shape) */
    LLVMBuildMemSet(B, od, LLVMConstInt(LLVMInt8TypeInContext(F->L->ctx), 0, 0),
                    obytes, 1);
    LLVMBuildBr(B, done);
    /* for (off = 0; off < obytes; off += sbytes) memcpy(the rest) */
    LLVMPositionBuilderAtEnd(B, copies);
    loop l;
    LLVMValueRef nchunks = LLVMBuildSDiv(
        B, LLVMBuildAdd(B, obytes, LLVMBuildSub(B, sbytes, c64(F, 1), ""), ""),
        sbytes, "");
    LLVMValueRef i = loop_open(F, &l, nchunks, "resize.chunk");
    LLVMValueRef off = LLVMBuildMul(B, i, sbytes, "");
    LLVMValueRef rest = LLVMBuildSub(B, obytes, off, "");
    LLVMValueRef len = LLVMBuildSelect(
        B, LLVMBuildICmp(B, LLVMIntSLT, rest, sbytes, ""), rest, sbytes, "");
    LLVMBuildMemCpy(B, uf__npr_gep(F, od, off), 1, sd, 1, len);
    loop_close(F, &l);
    LLVMBuildBr(B, done);
    LLVMPositionBuilderAtEnd(B, done);
    return out;
}

/* ---- broadcasts -------------------------------------------------------- */

/* array (type at) viewed with shape dims[0..nd) after Numba's checks
 * (_can_broadcast): more dimensions than nd, a negative length, a length
 * that neither matches nor is 1. */
static LLVMValueRef broadcast(uf__fn *F, LLVMValueRef a, const uf__type *at,
                              LLVMValueRef const *dims, int nd)
{
    if (at->ndim > nd) {
        uf__fn_raise_if(F, LLVMConstInt(LLVMInt1TypeInContext(F->L->ctx), 1,
                                        0),
                        UF__JIT_BCAST_TO_NDIM);
        /* never reached: an array of the result's type */
        return uf__build_array(F->L, uf__emit_array_data(F, a), dims, dims,
                               nd);
    }
    uf__fn_raise_if(F, any_negative(F, dims, nd), UF__JIT_BCAST_TO_NEG);
    LLVMValueRef bad = LLVMConstInt(LLVMInt1TypeInContext(F->L->ctx), 0, 0);
    LLVMValueRef st[UF_MAXDIMS];
    for (int j = 0; j < nd; j++) {
        int k = j - (nd - at->ndim);
        if (k < 0) {
            st[j] = c64(F, 0);
            continue;
        }
        LLVMValueRef s = uf__emit_array_dim(F, a, k);
        LLVMValueRef one = LLVMBuildICmp(B, LLVMIntEQ, s, c64(F, 1), "");
        LLVMValueRef same = LLVMBuildICmp(B, LLVMIntEQ, s, dims[j], "");
        bad = LLVMBuildOr(B, bad,
                          LLVMBuildNot(B, LLVMBuildOr(B, one, same, ""), ""),
                          "");
        st[j] = LLVMBuildSelect(B, same, uf__emit_array_stride(F, a, at, k),
                                c64(F, 0), "");
    }
    uf__fn_raise_if(F, bad, UF__JIT_BCAST_TO_SHAPE);
    return uf__build_array(F->L, uf__emit_array_data(F, a), dims, st, nd);
}

static LLVMValueRef broadcast_to(uf__fn *F, const uf__expr *e,
                                 const uf__expr **x)
{
    const uf__type *rt = uf__lower_info(F, e)->type, *at;
    LLVMValueRef a = operand(F, x[0], &at), dims[UF_MAXDIMS];
    if (!a)
        return NULL;
    if (rt->ndim == 0) /* broadcast_to(x, ()): x as a 0-d array */
        return a;
    if (dims_of(F, x[1], dims) != rt->ndim)
        return fail(F, x[1], "np.broadcast_to's shape");
    return broadcast(F, a, at, dims, rt->ndim);
}

static LLVMValueRef broadcast_arrays(uf__fn *F, const uf__expr *e,
                                     const uf__expr **x, int n)
{
    const uf__type *rt = uf__lower_info(F, e)->type;
    int m = rt->elts[0]->ndim;
    LLVMValueRef a[UF__NPSHAPE_MAXARGS], r[UF_MAXDIMS];
    const uf__type *at[UF__NPSHAPE_MAXARGS];
    LLVMValueRef bad = LLVMConstInt(LLVMInt1TypeInContext(F->L->ctx), 0, 0);
    for (int k = 0; k < m; k++)
        r[k] = c64(F, 1);
    for (int i = 0; i < n; i++) {
        if (!(a[i] = operand(F, x[i], &at[i])))
            return NULL;
        /* numpy_broadcast_shapes_list: 1 gives way; two others differ */
        for (int d = 0; d < at[i]->ndim; d++) {
            int k = m - at[i]->ndim + d;
            LLVMValueRef s = uf__emit_array_dim(F, a[i], d);
            LLVMValueRef s1 = LLVMBuildICmp(B, LLVMIntEQ, s, c64(F, 1), "");
            LLVMValueRef r1 = LLVMBuildICmp(B, LLVMIntEQ, r[k], c64(F, 1), "");
            LLVMValueRef ne = LLVMBuildICmp(B, LLVMIntNE, r[k], s, "");
            bad = LLVMBuildOr(
                B, bad,
                LLVMBuildAnd(B, LLVMBuildNot(B, LLVMBuildOr(B, s1, r1, ""), ""),
                             ne, ""),
                "");
            r[k] = LLVMBuildSelect(B, LLVMBuildAnd(B, LLVMBuildNot(B, s1, ""),
                                                   r1, ""),
                                   s, r[k], "");
        }
    }
    uf__fn_raise_if(F, bad, UF__JIT_BCAST_ARRAYS);
    LLVMTypeRef ty = uf__lower_type(F->L, rt, F->err);
    if (!ty)
        return NULL;
    LLVMValueRef out = LLVMGetUndef(ty);
    for (int i = 0; i < n; i++) {
        LLVMValueRef v = broadcast(F, a[i], at[i], r, m);
        out = LLVMBuildInsertValue(B, out, v, (unsigned)i, "");
    }
    return out;
}

/* np.broadcast_shapes: r[] starts all 1 (m of them), each argument's
 * lengths right-aligned against it, element by element as Numba. */
static LLVMValueRef broadcast_shapes(uf__fn *F, const uf__expr *e,
                                     const uf__expr **x, int n)
{
    const uf__type *rt = uf__lower_info(F, e)->type;
    int m = rt->n;
    LLVMValueRef r[UF_MAXDIMS], dims[UF_MAXDIMS];
    for (int k = 0; k < m; k++)
        r[k] = c64(F, 1);
    for (int i = 0; i < n; i++) {
        int nd = dims_of(F, x[i], dims);
        if (nd < 0)
            return NULL;
        for (int d = 0; d < nd; d++) {
            int k = m - nd + d;
            LLVMValueRef s = dims[d];
            uf__fn_raise_if(F, LLVMBuildICmp(B, LLVMIntSLT, s, c64(F, 0), ""),
                            UF__JIT_NEGATIVE_DIMS);
            LLVMValueRef s1 = LLVMBuildICmp(B, LLVMIntEQ, s, c64(F, 1), "");
            LLVMValueRef r1 = LLVMBuildICmp(B, LLVMIntEQ, r[k], c64(F, 1), "");
            LLVMValueRef ne = LLVMBuildICmp(B, LLVMIntNE, r[k], s, "");
            LLVMValueRef clash = LLVMBuildAnd(
                B, LLVMBuildNot(B, LLVMBuildOr(B, s1, r1, ""), ""), ne, "");
            uf__fn_raise_if(F, clash, UF__JIT_BCAST_ARRAYS);
            r[k] = LLVMBuildSelect(B, s1, r[k], s, "");
        }
    }
    LLVMTypeRef ty = uf__lower_type(F->L, rt, F->err);
    if (!ty)
        return NULL;
    LLVMValueRef out = LLVMGetUndef(ty);
    for (int k = 0; k < m; k++)
        out = LLVMBuildInsertValue(B, out, r[k], (unsigned)k, "");
    return out;
}

/* ---- trim_zeros -------------------------------------------------------- */

/* The index where a scan of v's elements stops at the first non-zero:
 * from i = 0 up (dir 1) or from i = n down, testing element i - 1 (dir
 * -1); n or 0 when all are zero. */
static LLVMValueRef scan(uf__fn *F, LLVMValueRef data, LLVMValueRef stride,
                         LLVMValueRef n, uf_dtype dt, int dir)
{
    LLVMBasicBlockRef pre = LLVMGetInsertBlock(B);
    LLVMBasicBlockRef head = uf__fn_block(F, "trim.head");
    LLVMBasicBlockRef test = uf__fn_block(F, "trim.test");
    LLVMBasicBlockRef next = uf__fn_block(F, "trim.next");
    LLVMBasicBlockRef done = uf__fn_block(F, "trim.done");
    LLVMBuildBr(B, head);
    LLVMPositionBuilderAtEnd(B, head);
    LLVMValueRef i = LLVMBuildPhi(B, LLVMInt64TypeInContext(F->L->ctx), "i");
    LLVMValueRef more = dir > 0 ? LLVMBuildICmp(B, LLVMIntSLT, i, n, "")
                                : LLVMBuildICmp(B, LLVMIntSGT, i, c64(F, 0), "");
    LLVMBuildCondBr(B, more, test, done);
    LLVMPositionBuilderAtEnd(B, test);
    LLVMValueRef k = dir > 0 ? i : LLVMBuildSub(B, i, c64(F, 1), "");
    LLVMValueRef v = uf__emit_elem_load(
        F, uf__npr_gep(F, data, LLVMBuildMul(B, k, stride, "")), dt);
    LLVMBuildCondBr(B, uf__emit_truth(F, v, dt), done, next);
    LLVMPositionBuilderAtEnd(B, next);
    LLVMValueRef in = LLVMBuildAdd(B, i, c64(F, dir), "");
    LLVMBuildBr(B, head);
    LLVMAddIncoming(i, (LLVMValueRef[]){dir > 0 ? c64(F, 0) : n, in},
                    (LLVMBasicBlockRef[]){pre, next}, 2);
    LLVMPositionBuilderAtEnd(B, done);
    return i;
}

static LLVMValueRef trim_zeros(uf__fn *F, const uf__expr **x)
{
    const uf__type *at = uf__lower_info(F, x[0])->type;
    LLVMValueRef a = uf__lower_expr(F, x[0]);
    if (!a)
        return NULL;
    bool front, back;
    uf__npshape_trim_ends(x[1] ? uf__lower_strlit(F, x[1], NULL) : NULL,
                          &front, &back); /* lower_str.c */
    LLVMValueRef data = uf__emit_array_data(F, a);
    LLVMValueRef n = uf__emit_array_dim(F, a, 0);
    LLVMValueRef st = uf__emit_array_stride(F, a, at, 0);
    LLVMValueRef first = front ? scan(F, data, st, n, at->dtype, 1) : c64(F, 0);
    LLVMValueRef last = back ? scan(F, data, st, n, at->dtype, -1) : n;
    LLVMValueRef len = LLVMBuildSub(B, last, first, "");
    LLVMValueRef empty = LLVMBuildICmp(B, LLVMIntSLE, len, c64(F, 0), "");
    len = LLVMBuildSelect(B, empty, c64(F, 0), len, "");
    LLVMValueRef off = LLVMBuildSelect(B, empty, c64(F, 0),
                                       LLVMBuildMul(B, first, st, ""), "");
    return uf__build_array(F->L, uf__npr_gep(F, data, off), &len, &st, 1);
}

LLVMValueRef uf__lower_npshape(uf__fn *F, const uf__expr *e)
{
    uf__builtin b = uf__lower_info(F, e)->builtin;
    const uf__expr *f = e->u.call.func;
    bool method = false;
    if (f->kind == UF__EX_ATTR) {
        const uf__type *rt = uf__lower_info(F, f->u.attr.value)->type;
        method = rt && rt->kind == UF__T_ARRAY;
    }
    const uf__expr *x[UF__NPSHAPE_MAXARGS];
    const uf__keyword *kw;
    int n = uf__npshape_bind(e, b, method, x, &kw);
    if (n < 0)
        return fail(F, e, "np.repeat's arguments");
    switch (b) {
    case UF__BI_NP_REPEAT:
        return repeat(F, x);
    case UF__BI_NP_RESIZE:
        return resize(F, e, x);
    case UF__BI_NP_BROADCAST_TO:
        return broadcast_to(F, e, x);
    case UF__BI_NP_BROADCAST_ARRAYS:
        return broadcast_arrays(F, e, x, n);
    case UF__BI_NP_BROADCAST_SHAPES:
        return broadcast_shapes(F, e, x, n);
    case UF__BI_NP_TRIM_ZEROS:
        return trim_zeros(F, x);
    default:
        return fail(F, e, "not a NumPy shape function");
    }
}
