/* Arrays allocated inside kernels (np.empty ... np.linspace, typed by
 * infer_alloc.c) and the frames that own them (common/nrt.h).
 *
 * A function that allocates, or calls a kernel returning arrays, gets a
 * frame: an i8* slot in its entry block heading the list of blocks it
 * owns. Every `ret` of the finished function first calls
 * uf__nrt_frame_return with the data pointers of the arrays it returns
 * (none on an error status), which frees the rest; after a call of a
 * kernel returning arrays the caller adopts what the callee kept. So
 * each block is freed once, at the end of the outermost frame that sees
 * it, whatever path leaves the function. Allocation is a fallible
 * operation (lower_fallible.c): out of memory returns UF__JIT_NOMEM,
 * negative dimensions and sizes past int64 their ValueErrors. A fill
 * call whose array no reference can outlive (lower_scratch.c) takes a
 * buffer of the frame instead when it fits there. */
#include <string.h>

#include "common/alloc.h"
#include "common/error_internal.h"
#include "common/nrt.h"
#include "compiler/lower/lower.h"
#include "compiler/lower/lower_array.h"
#include "compiler/lower/lower_scratch.h"

#define B (F->L->b)

static LLVMTypeRef i64_t(uf__fn *F)
{
    return LLVMInt64TypeInContext(F->L->ctx);
}

static LLVMTypeRef i8p_t(uf__fn *F)
{
    return LLVMPointerType(LLVMInt8TypeInContext(F->L->ctx), 0);
}

static LLVMValueRef c64(uf__fn *F, int64_t v)
{
    return LLVMConstInt(i64_t(F), (unsigned long long)v, 1);
}

/* The frame slot, made on first use with NULL stored at function entry. */
static LLVMValueRef frame_slot(uf__fn *F)
{
    F->nrt_sites++;
    if (F->nrt_frame)
        return F->nrt_frame;
    LLVMValueRef slot = uf__fn_alloca(F, i8p_t(F), "nrt.frame");
    LLVMBuilderRef eb = LLVMCreateBuilderInContext(F->L->ctx);
    LLVMValueRef next = LLVMGetNextInstruction(slot);
    if (next)
        LLVMPositionBuilderBefore(eb, next);
    else
        LLVMPositionBuilderAtEnd(eb, F->entry);
    LLVMBuildStore(eb, LLVMConstNull(i8p_t(F)), slot);
    LLVMDisposeBuilder(eb);
    F->nrt_frame = slot;
    return slot;
}

LLVMValueRef uf__lower_frame_slot(uf__fn *F)
{
    return frame_slot(F);
}

static LLVMValueRef call_helper(uf__fn *F, const char *name, LLVMTypeRef ret,
                                LLVMValueRef *args, unsigned n)
{
    LLVMTypeRef pt[4];
    for (unsigned i = 0; i < n; i++)
        pt[i] = LLVMTypeOf(args[i]);
    LLVMTypeRef fty = LLVMFunctionType(ret, pt, n, 0);
    LLVMValueRef fn = F->L->cg->helper(F->L, name, fty);
    F->L->uses_runtime = true;
    return LLVMBuildCall2(B, fty, fn, args, n, "");
}

bool uf__type_holds_array(const uf__type *t)
{
    if (t == NULL)
        return false;
    if (t->kind == UF__T_ARRAY || t->kind == UF__T_LIST ||
        t->kind == UF__T_DICT || t->kind == UF__T_SET || /* a list, a
                                  dict, a set: its header block */
        t->kind == UF__T_USTR)   /* a string's block (lower_ustr.c) */
        return true;
    if (t->kind == UF__T_TUPLE)
        for (int i = 0; i < t->n; i++)
            if (uf__type_holds_array(t->elts[i]))
                return true;
    return false;
}

void uf__lower_alloc_adopt(uf__fn *F)
{
    if (F->L->cg->sreg != NULL)
        return; /* CUDA code never allocates: nothing to adopt */
    LLVMValueRef a[1] = {frame_slot(F)};
    call_helper(F, UF__NRT_ADOPT, LLVMVoidTypeInContext(F->L->ctx), a, 1);
}

/* ---- a counted loop: for (i = 0; i < n; i++) ------------------------- */

typedef struct count_loop {
    LLVMBasicBlockRef head, body, done;
    LLVMValueRef i, slot;
} count_loop;

static void loop_open(uf__fn *F, count_loop *l, LLVMValueRef n)
{
    l->slot = uf__fn_alloca(F, i64_t(F), "i");
    LLVMBuildStore(B, c64(F, 0), l->slot);
    l->head = uf__fn_block(F, "fill.head");
    l->body = uf__fn_block(F, "fill.body");
    l->done = uf__fn_block(F, "fill.done");
    LLVMBuildBr(B, l->head);
    LLVMPositionBuilderAtEnd(B, l->head);
    l->i = LLVMBuildLoad2(B, i64_t(F), l->slot, "i");
    LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntSLT, l->i, n, ""), l->body,
                    l->done);
    LLVMPositionBuilderAtEnd(B, l->body);
}

static void loop_close(uf__fn *F, count_loop *l)
{
    LLVMBuildStore(B, LLVMBuildAdd(B, l->i, c64(F, 1), ""), l->slot);
    LLVMBuildBr(B, l->head);
    LLVMPositionBuilderAtEnd(B, l->done);
}

/* ---- allocation ------------------------------------------------------ */

/* The data of a new block of nbytes (not NULL: out of memory raises). */
static LLVMValueRef heap_data(uf__fn *F, LLVMValueRef nbytes)
{
    LLVMValueRef args[2] = {
        LLVMBuildPointerCast(B, frame_slot(F), LLVMPointerType(i8p_t(F), 0),
                             ""),
        nbytes};
    LLVMValueRef data = call_helper(F, UF__NRT_ALLOC, i8p_t(F), args, 2);
    uf__fn_raise_if(F, LLVMBuildIsNull(B, data, ""), UF__JIT_NOMEM);
    return data;
}

/* A scratch site's data (lower_scratch.c): its buffer in the frame when
 * nbytes fit there, else a heap block as any array's. */
static LLVMValueRef scratch_data(uf__fn *F, LLVMValueRef nbytes)
{
    LLVMContextRef ctx = F->L->ctx;
    LLVMValueRef buf = uf__fn_alloca(
        F, LLVMArrayType(LLVMInt8TypeInContext(ctx), UF__SCRATCH_BYTES),
        "scratch");
    LLVMSetAlignment(buf, UF__DATA_ALIGN);
    F->scratch_bytes += UF__SCRATCH_BYTES;
    LLVMBasicBlockRef stack = uf__fn_block(F, "scratch.stack");
    LLVMBasicBlockRef heap = uf__fn_block(F, "scratch.heap");
    LLVMBasicBlockRef join = uf__fn_block(F, "scratch.join");
    LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntULE, nbytes,
                                     c64(F, UF__SCRATCH_BYTES), ""),
                    stack, heap);
    LLVMPositionBuilderAtEnd(B, stack);
    LLVMValueRef on_stack = LLVMBuildPointerCast(B, buf, i8p_t(F), "");
    LLVMBuildBr(B, join);
    LLVMPositionBuilderAtEnd(B, heap);
    LLVMValueRef on_heap = heap_data(F, nbytes);
    LLVMBasicBlockRef heap_end = LLVMGetInsertBlock(B);
    LLVMBuildBr(B, join);
    LLVMPositionBuilderAtEnd(B, join);
    LLVMValueRef data = LLVMBuildPhi(B, i8p_t(F), "data");
    LLVMValueRef in[2] = {on_stack, on_heap};
    LLVMBasicBlockRef from[2] = {stack, heap_end};
    LLVMAddIncoming(data, in, from, 2);
    return data;
}

static LLVMValueRef new_array(uf__fn *F, uf_dtype dt, int nd,
                              LLVMValueRef *shape, LLVMValueRef *nitems,
                              bool scratch)
{
    LLVMTypeRef i128 = LLVMIntTypeInContext(F->L->ctx, 128);
    LLVMValueRef cap = LLVMConstInt(i128, 1ULL << 63, 0);
    int64_t isz = (int64_t)uf_dtype_itemsize(dt);
    LLVMValueRef neg = LLVMConstInt(LLVMInt1TypeInContext(F->L->ctx), 0, 0);
    LLVMValueRef n = c64(F, 1);
    /* bytes saturate at 2**63 (i128 products cannot wrap), so a zero
     * dimension still gives an empty array as NumPy's */
    LLVMValueRef bytes = LLVMConstInt(i128, (unsigned long long)isz, 0);
    for (int k = 0; k < nd; k++) {
        neg = LLVMBuildOr(B, neg, LLVMBuildICmp(B, LLVMIntSLT, shape[k],
                                                c64(F, 0), ""), "");
        n = LLVMBuildMul(B, n, shape[k], "");
        LLVMValueRef p = LLVMBuildMul(
            B, bytes, LLVMBuildZExt(B, shape[k], i128, ""), "");
        bytes = LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntUGT, p, cap, ""),
                                cap, p, "");
    }
    uf__fn_raise_if(F, neg, UF__JIT_NEGATIVE_DIMS);
    uf__fn_raise_if(F, LLVMBuildICmp(B, LLVMIntEQ, bytes, cap, ""),
                    UF__JIT_ARRAY_TOO_BIG);
    LLVMValueRef nbytes = LLVMBuildTrunc(B, bytes, i64_t(F), "nbytes");
    LLVMValueRef data = scratch ? scratch_data(F, nbytes)
                                : heap_data(F, nbytes);
    LLVMValueRef strides[UF_MAXDIMS];
    LLVMValueRef s = c64(F, isz);
    for (int k = nd - 1; k >= 0; k--) {
        strides[k] = s;
        s = LLVMBuildMul(B, s, shape[k], "");
    }
    *nitems = n;
    return uf__build_array(F->L, data, shape, strides, nd);
}

LLVMValueRef uf__lower_new_array(uf__fn *F, uf_dtype dt, int nd,
                                 LLVMValueRef *shape, LLVMValueRef *nitems)
{
    return new_array(F, dt, nd, shape, nitems, false);
}

/* Element i (i64) of a new C array's data. */
static LLVMValueRef elem_at(uf__fn *F, LLVMValueRef data, uf_dtype dt,
                            LLVMValueRef i)
{
    LLVMValueRef off = LLVMBuildMul(
        B, i, c64(F, (int64_t)uf_dtype_itemsize(dt)), "");
    return LLVMBuildInBoundsGEP2(B, LLVMInt8TypeInContext(F->L->ctx), data,
                                 &off, 1, "");
}

/* Stores v (dtype dt) into every element. */
static void fill(uf__fn *F, LLVMValueRef arr, uf_dtype dt, LLVMValueRef n,
                 LLVMValueRef v)
{
    LLVMValueRef data = uf__emit_array_data(F, arr);
    count_loop l;
    loop_open(F, &l, n);
    uf__emit_elem_store(F, elem_at(F, data, dt, l.i), dt, v);
    loop_close(F, &l);
}

/* The argument at position pos or keyword `name`, or NULL. */
static const uf__expr *arg_of(const uf__expr *e, int pos, const char *name)
{
    if (pos < e->u.call.nargs)
        return e->u.call.args[pos];
    for (int i = 0; i < e->u.call.nkw; i++)
        if (strcmp(e->u.call.kw[i].name, name) == 0)
            return e->u.call.kw[i].value;
    return NULL;
}

/* The value of argument x (of type t) converted to dtype dt. */
static LLVMValueRef scalar_arg(uf__fn *F, const uf__expr *x, uf_dtype dt)
{
    LLVMValueRef v = uf__lower_expr(F, x);
    const uf__type *t = uf__lower_info(F, x)->type;
    return v ? uf__emit_cast(F, v, t->dtype, dt) : NULL;
}

/* The shape of np.empty(shape) / np.empty_like(a) as i64 values. */
static int shape_of(uf__fn *F, const uf__expr *x, bool like,
                    LLVMValueRef *shape, int nd)
{
    LLVMValueRef v = uf__lower_expr(F, x);
    if (!v)
        return -1;
    const uf__type *t = uf__lower_info(F, x)->type;
    for (int k = 0; k < nd; k++) {
        if (like)
            shape[k] = uf__emit_array_dim(F, v, k);
        else if (t->kind == UF__T_TUPLE)
            shape[k] = uf__emit_cast(
                F, LLVMBuildExtractValue(B, v, (unsigned)k, ""),
                t->elts[k]->dtype, UF_INT64);
        else
            shape[k] = uf__emit_cast(F, v, t->dtype, UF_INT64);
    }
    return 0;
}

static LLVMValueRef lower_fill(uf__fn *F, const uf__expr *e, uf__builtin b,
                               const uf__type *rt)
{
    bool like = b >= UF__BI_NP_EMPTY_LIKE;
    bool full = b == UF__BI_NP_FULL || b == UF__BI_NP_FULL_LIKE;
    LLVMValueRef shape[UF_MAXDIMS], n;
    const uf__expr *fx = full ? arg_of(e, 1, "fill_value") : NULL;
    LLVMValueRef fv = NULL;
    if (shape_of(F, arg_of(e, 0, like ? "a" : "shape"), like, shape,
                 rt->ndim) != 0)
        return NULL;
    if (fx && !(fv = scalar_arg(F, fx, rt->dtype))) /* evaluated in order */
        return NULL;
    LLVMValueRef arr = new_array(F, rt->dtype, rt->ndim, shape, &n,
                                 uf__scratch_site(F, e));
    switch (b) {
    case UF__BI_NP_ZEROS:
    case UF__BI_NP_ZEROS_LIKE: {
        LLVMValueRef bytes = LLVMBuildMul(
            B, n, c64(F, (int64_t)uf_dtype_itemsize(rt->dtype)), "");
        LLVMBuildMemSet(B, uf__emit_array_data(F, arr),
                        LLVMConstNull(LLVMInt8TypeInContext(F->L->ctx)),
                        bytes, UF__DATA_ALIGN);
        break;
    }
    case UF__BI_NP_ONES:
    case UF__BI_NP_ONES_LIKE:
        fill(F, arr, rt->dtype, n,
             uf__emit_cast(F, c64(F, 1), UF_INT64, rt->dtype));
        break;
    case UF__BI_NP_FULL:
    case UF__BI_NP_FULL_LIKE:
        fill(F, arr, rt->dtype, n, fv);
        break;
    default:
        break;
    }
    return arr;
}

/* np.arange as Numba: n = max(ceil((stop - start) / step), 0), element i
 * is start + i * step in the bounds' type (int64 or float64), then cast
 * to the result's dtype; a zero step raises ValueError. */
static LLVMValueRef lower_arange(uf__fn *F, const uf__expr *e,
                                 const uf__type *rt)
{
    static const char *const names[] = {"start", "stop", "step"};
    const uf__expr *x[3];
    bool fl = false;
    for (int i = 0; i < 3; i++) {
        x[i] = arg_of(e, i, names[i]);
        const uf__type *t = x[i] ? uf__lower_info(F, x[i])->type : NULL;
        if (t && t->kind != UF__T_SCALAR)
            x[i] = NULL; /* None */
        fl = fl || (t && t->kind == UF__T_SCALAR && uf__type_is_float(t));
    }
    uf_dtype cd = fl ? UF_FLOAT64 : UF_INT64;
    LLVMValueRef v[3];
    for (int i = 0; i < 3; i++)
        if (x[i] && !(v[i] = scalar_arg(F, x[i], cd)))
            return NULL;
    LLVMValueRef start, stop, step;
    if (!x[1]) {
        start = uf__emit_cast(F, c64(F, 0), UF_INT64, cd);
        stop = v[0];
    } else {
        start = v[0];
        stop = v[1];
    }
    step = x[2] ? v[2] : uf__emit_cast(F, c64(F, 1), UF_INT64, cd);
    LLVMValueRef zero = uf__emit_cast(F, c64(F, 0), UF_INT64, cd);
    uf__fn_raise_if(F, uf__emit_cmp(F, UF__CMP_EQ, cd, step, zero),
                    UF__JIT_ARANGE_STEP);
    /* (stop - start) / step in float64, as Python's true division */
    LLVMTypeRef f64 = LLVMDoubleTypeInContext(F->L->ctx);
    LLVMValueRef span = uf__emit_binop(F, UF__OP_SUB, cd, stop, start);
    LLVMValueRef q = LLVMBuildFDiv(B, uf__emit_cast(F, span, cd, UF_FLOAT64),
                                   uf__emit_cast(F, step, cd, UF_FLOAT64),
                                   "");
    LLVMValueRef args[1] = {q};
    LLVMValueRef c = uf__emit_intrinsic(F, "llvm.ceil", args, 1);
    /* NaN or below zero: empty; beyond int64: refused below */
    LLVMValueRef pos = LLVMBuildFCmp(B, LLVMRealOGT, c,
                                     LLVMConstReal(f64, 0.0), "");
    LLVMValueRef big = LLVMBuildFCmp(B, LLVMRealOGE, c,
                                     LLVMConstReal(f64, 9.2233720368547758e18),
                                     "");
    uf__fn_raise_if(F, big, UF__JIT_ARRAY_TOO_BIG);
    LLVMValueRef safe = LLVMBuildSelect(B, big, LLVMConstReal(f64, 0), c, "");
    LLVMValueRef n = LLVMBuildSelect(
        B, pos, LLVMBuildFPToSI(B, safe, i64_t(F), ""), c64(F, 0), "n");
    LLVMValueRef cnt;
    LLVMValueRef arr = uf__lower_new_array(F, rt->dtype, 1, &n, &cnt);
    LLVMValueRef data = uf__emit_array_data(F, arr);
    count_loop l;
    loop_open(F, &l, n);
    LLVMValueRef iv = uf__emit_cast(F, l.i, UF_INT64, cd);
    LLVMValueRef val = uf__emit_binop(
        F, UF__OP_ADD, cd, start, uf__emit_binop(F, UF__OP_MUL, cd, iv, step));
    uf__emit_elem_store(F, elem_at(F, data, rt->dtype, l.i), rt->dtype,
                        uf__emit_cast(F, val, cd, rt->dtype));
    loop_close(F, &l);
    return arr;
}

/* np.linspace as Numba (NumPy's formula): step = (stop - start) / (num -
 * 1), element i is start + i * step, the last is stop; num 1 gives
 * [start]. */
static LLVMValueRef lower_linspace(uf__fn *F, const uf__expr *e)
{
    const uf__expr *nx = arg_of(e, 2, "num");
    LLVMValueRef start = scalar_arg(F, arg_of(e, 0, "start"), UF_FLOAT64);
    LLVMValueRef stop = start ? scalar_arg(F, arg_of(e, 1, "stop"), UF_FLOAT64)
                              : NULL;
    LLVMValueRef num = !stop ? NULL
                       : nx  ? scalar_arg(F, nx, UF_INT64)
                             : c64(F, 50);
    if (!num)
        return NULL;
    LLVMValueRef cnt;
    LLVMValueRef arr = uf__lower_new_array(F, UF_FLOAT64, 1, &num, &cnt);
    LLVMValueRef data = uf__emit_array_data(F, arr);
    LLVMTypeRef f64 = LLVMDoubleTypeInContext(F->L->ctx);
    LLVMValueRef div = LLVMBuildSub(B, num, c64(F, 1), "");
    LLVMValueRef step = LLVMBuildFDiv(
        B, LLVMBuildFSub(B, stop, start, ""), LLVMBuildSIToFP(B, div, f64, ""),
        "step");
    LLVMValueRef one = LLVMBuildICmp(B, LLVMIntSGT, div, c64(F, 0), "");
    count_loop l;
    loop_open(F, &l, num);
    LLVMValueRef val = LLVMBuildFAdd(
        B, start, LLVMBuildFMul(B, LLVMBuildSIToFP(B, l.i, f64, ""), step, ""),
        "");
    /* num == 1: [start] (step is a division by zero there) */
    val = LLVMBuildSelect(B, one, val, start, "");
    uf__emit_elem_store(F, elem_at(F, data, UF_FLOAT64, l.i), UF_FLOAT64, val);
    loop_close(F, &l);
    LLVMBasicBlockRef last = uf__fn_block(F, "linspace.last");
    LLVMBasicBlockRef done = uf__fn_block(F, "linspace.done");
    LLVMBuildCondBr(B, one, last, done);
    LLVMPositionBuilderAtEnd(B, last);
    uf__emit_elem_store(F, elem_at(F, data, UF_FLOAT64, div), UF_FLOAT64,
                        stop);
    LLVMBuildBr(B, done);
    LLVMPositionBuilderAtEnd(B, done);
    return arr;
}

LLVMValueRef uf__lower_alloc(uf__fn *F, const uf__expr *e)
{
    const uf__expr_info *in = uf__lower_info(F, e);
    if (F->L->cg->sreg != NULL) {
        uf__source_error(F->err, UF_ERR_UNSUPPORTED, F->tf->km->src, e->pos,
                         "%s() allocates an array, which CUDA kernels "
                         "cannot do: use cuda.local.array(shape, dtype) "
                         "with a shape known at compile time",
                         uf__builtin_name(in->builtin));
        return NULL;
    }
    const uf__type *rt = in->type;
    switch (in->builtin) {
    case UF__BI_NP_ARANGE:
        return lower_arange(F, e, rt);
    case UF__BI_NP_LINSPACE:
        return lower_linspace(F, e);
    default:
        return lower_fill(F, e, in->builtin, rt);
    }
}

/* ---- the end of a frame ----------------------------------------------- */

void uf__lower_array_pointers(uf__fn *F, LLVMValueRef v, const uf__type *t,
                              LLVMValueRef *out, int *n, int cap)
{
    if (t->kind == UF__T_ARRAY && *n < cap) {
        out[(*n)++] = uf__emit_array_data(F, v);
    } else if (t->kind == UF__T_LIST) { /* the header's block
                                           (lower_list.c), and its items'
                                           when they are arrays */
        uf__list_push_root(F, v, t, out, n, cap);
    } else if (t->kind == UF__T_DICT) { /* the dict's block (lower_dict.c),
                                           and its strings' */
        uf__list_push_root(F, v, t, out, n, cap);
    } else if (t->kind == UF__T_SET) { /* the set's block (lower_set.c),
                                          and its strings' */
        uf__list_push_root(F, v, t, out, n, cap);
    } else if (t->kind == UF__T_USTR && *n < cap) {
        out[(*n)++] = v; /* the string's block, if any (lower_ustr.c) */
    } else if (t->kind == UF__T_TUPLE) {
        for (int i = 0; i < t->n; i++)
            uf__lower_array_pointers(F, LLVMBuildExtractValue(
                                             B, v, (unsigned)i, ""),
                                     t->elts[i], out, n, cap);
    }
}

/* The arrays a `ret` returns: from its operand, or from *out when a
 * fallible function returns status 0. */
static int kept_pointers(uf__fn *F, LLVMValueRef ret, LLVMValueRef *out,
                         int cap)
{
    const uf__type *t = F->tf ? F->tf->ret : NULL;
    int n = 0;
    if (!uf__type_holds_array(t) || LLVMGetNumOperands(ret) == 0)
        return 0;
    LLVMValueRef v = LLVMGetOperand(ret, 0);
    if (F->fallible) {
        if (!LLVMIsAConstantInt(v) || LLVMConstIntGetZExtValue(v) != 0 ||
            !F->out)
            return 0;
        LLVMTypeRef ty = uf__lower_type(F->L, t, F->err);
        if (!ty)
            return -1;
        v = LLVMBuildLoad2(B, ty, F->out, "");
    }
    uf__lower_array_pointers(F, v, t, out, &n, cap);
    return n;
}

int uf__lower_alloc_finish(uf__fn *F)
{
    if (!F->nrt_frame)
        return 0;
    int rc = uf__nrt_loops_finish(F);
    if (rc != 0)
        return rc;
    enum { CAP = 256 };
    LLVMValueRef keep = uf__fn_alloca(F, LLVMArrayType(i8p_t(F), CAP),
                                      "nrt.keep");
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(F->fn); bb;
         bb = LLVMGetNextBasicBlock(bb)) {
        LLVMValueRef term = LLVMGetBasicBlockTerminator(bb);
        if (!term || LLVMGetInstructionOpcode(term) != LLVMRet)
            continue;
        LLVMPositionBuilderBefore(B, term);
        LLVMValueRef ptrs[CAP];
        int n = kept_pointers(F, term, ptrs, CAP);
        if (n < 0)
            return F->err->code;
        /* what the function appended to a list of arrays it was given
         * goes back to the caller with it, on every path */
        uf__list_arg_roots(F, ptrs, &n, CAP);
        LLVMValueRef base = LLVMBuildPointerCast(
            B, keep, LLVMPointerType(i8p_t(F), 0), "");
        for (int k = 0; k < n; k++) {
            LLVMValueRef ix = c64(F, k);
            LLVMBuildStore(B, ptrs[k],
                           LLVMBuildInBoundsGEP2(B, i8p_t(F), base, &ix, 1,
                                                 ""));
        }
        LLVMValueRef args[3] = {
            LLVMBuildPointerCast(B, F->nrt_frame,
                                 LLVMPointerType(i8p_t(F), 0), ""),
            base, c64(F, n)};
        call_helper(F, UF__NRT_FRAME_RETURN,
                    LLVMVoidTypeInContext(F->L->ctx), args, 3);
    }
    return 0;
}
