/* Lowering of the list operations typed by types/infer_list_ops.c:
 * l.sort() and sorted(x) (a new list made as list(x) is, then sorted in
 * place by common/list_ops.c's quicksort, the scheme Numba's list sort
 * uses, so NaNs and -0.0/0.0 end where Numba's leave them); l[a:b:c],
 * l + m and l += m as item loops converting each item; l * n and
 * l *= n in common/list_ops.c (memcpy of doubling spans); l[a:b:c] = m
 * there too (m converted first when its items differ); l == m, l < m
 * ... as Numba's loops. Out of memory raises UF__JIT_NOMEM. */
#include <string.h>

#include "common/list.h"
#include "common/list_ops.h"
#include "common/list_ustr.h"
#include "common/ustr.h"
#include "compiler/lower/lower.h"

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

static LLVMValueRef items_of(uf__fn *F, LLVMValueRef l)
{
    return uf__emit_list_items(F, l); /* lower_list.c */
}

/* A string item is copied as its pointer's bits. */
static uf_dtype dt_of(const uf__type *lt)
{
    return lt->elts[0]->kind == UF__T_USTR ? UF_INT64 : lt->elts[0]->dtype;
}

static int64_t isz(const uf__type *lt)
{
    return (int64_t)uf_dtype_itemsize(dt_of(lt));
}

/* Item i of the buffer items of list type lt, read as dtype `to`. */
static LLVMValueRef get(uf__fn *F, LLVMValueRef items, const uf__type *lt,
                        LLVMValueRef i, uf_dtype to)
{
    LLVMValueRef off = LLVMBuildMul(B, i, c64(F, isz(lt)), "");
    LLVMValueRef p = LLVMBuildInBoundsGEP2(
        B, LLVMInt8TypeInContext(F->L->ctx), items, &off, 1, "");
    return uf__emit_cast(F, uf__emit_elem_load(F, p, dt_of(lt)), dt_of(lt),
                         to);
}

static void put(uf__fn *F, LLVMValueRef items, const uf__type *lt,
                LLVMValueRef i, LLVMValueRef v)
{
    LLVMValueRef off = LLVMBuildMul(B, i, c64(F, isz(lt)), "");
    uf__emit_elem_store(F,
                        LLVMBuildInBoundsGEP2(B,
                                              LLVMInt8TypeInContext(F->L->ctx),
                                              items, &off, 1, ""),
                        dt_of(lt), v);
}

static LLVMValueRef helper(uf__fn *F, const char *name, LLVMTypeRef ret,
                           LLVMValueRef *args, unsigned n)
{
    LLVMTypeRef pt[6]; /* n <= 6 */
    for (unsigned i = 0; i < n; i++)
        pt[i] = LLVMTypeOf(args[i]);
    LLVMTypeRef fty = LLVMFunctionType(ret, pt, n, 0);
    LLVMValueRef fn = F->L->cg->helper(F->L, name, fty);
    F->L->uses_runtime = true;
    return LLVMBuildCall2(B, fty, fn, args, n, "");
}

static LLVMValueRef frame_arg(uf__fn *F)
{
    return LLVMBuildPointerCast(B, uf__lower_frame_slot(F),
                                LLVMPointerType(i8p_t(F), 0), "");
}

/* A new list of type lt and n items (uninitialised); out of memory
 * raises. */
static LLVMValueRef new_list(uf__fn *F, const uf__type *lt, LLVMValueRef n)
{
    LLVMValueRef a[3] = {frame_arg(F), n, c64(F, isz(lt))};
    LLVMValueRef l = helper(F, UF__LIST_NEW, i8p_t(F), a, 3);
    uf__fn_raise_if(F, LLVMBuildIsNull(B, l, ""), UF__JIT_NOMEM);
    return l;
}

/* dst[dat + i] = src[sat + i * sstep] as dst's item type, i < n. */
typedef struct span {
    LLVMValueRef src, dst, sat, sstep, dat; /* items buffers, i64s */
    const uf__type *st, *dt;
} span;

static void copy_span(uf__fn *F, const span *c, LLVMValueRef n)
{
    LLVMValueRef slot = uf__fn_alloca(F, i64_t(F), "list.i");
    LLVMBuildStore(B, c64(F, 0), slot);
    LLVMBasicBlockRef head = uf__fn_block(F, "list.head");
    LLVMBasicBlockRef body = uf__fn_block(F, "list.body");
    LLVMBasicBlockRef done = uf__fn_block(F, "list.done");
    LLVMBuildBr(B, head);
    LLVMPositionBuilderAtEnd(B, head);
    LLVMValueRef i = LLVMBuildLoad2(B, i64_t(F), slot, "");
    LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntSLT, i, n, ""), body, done);
    LLVMPositionBuilderAtEnd(B, body);
    LLVMValueRef si = LLVMBuildAdd(B, c->sat, LLVMBuildMul(B, i, c->sstep, ""),
                                   "");
    put(F, c->dst, c->dt, LLVMBuildAdd(B, c->dat, i, ""),
        get(F, c->src, c->st, si, dt_of(c->dt)));
    LLVMBuildStore(B, LLVMBuildAdd(B, i, c64(F, 1), ""), slot);
    LLVMBuildBr(B, head);
    LLVMPositionBuilderAtEnd(B, done);
}

/* The argument of call e at position pos or keyword name; NULL absent. */
static const uf__expr *arg(const uf__expr *e, int pos, const char *name)
{
    if (pos < e->u.call.nargs)
        return e->u.call.args[pos];
    for (int i = 0; i < e->u.call.nkw; i++)
        if (strcmp(e->u.call.kw[i].name, name) == 0)
            return e->u.call.kw[i].value;
    return NULL;
}

/* l sorted by keys (a list of one key of type kt per item; NULL: the
 * items, tuples) with common/list_ops.c's argsort; out of memory
 * raises. */
static void sort_by(uf__fn *F, LLVMValueRef l, const uf__type *lt,
                    LLVMValueRef keys, const uf__type *kt, LLVMValueRef rev)
{
    int nf = kt->kind == UF__T_TUPLE ? kt->n : 1;
    LLVMTypeRef dty = LLVMArrayType(i64_t(F), (unsigned)(2 + 2 * nf));
    LLVMValueRef desc = uf__fn_alloca(F, dty, "sort.desc");
    LLVMValueRef d0 = LLVMBuildPointerCast(B, desc,
                                           LLVMPointerType(i64_t(F), 0), "");
    int64_t v[2 + 2 * UF__TUPLE_MAX];
    v[0] = kt->kind == UF__T_TUPLE ? uf__list_field_offset(kt, kt->n)
           : kt->kind == UF__T_USTR ? 8 /* a string key: its pointer */
                                    : (int64_t)uf_dtype_itemsize(kt->dtype);
    v[1] = nf;
    for (int k = 0; k < nf; k++) {
        v[2 + 2 * k] = kt->kind == UF__T_TUPLE ? uf__list_field_offset(kt, k)
                                               : 0;
        v[3 + 2 * k] = kt->kind == UF__T_USTR ? UF__LIST_FIELD_USTR
                       : kt->kind != UF__T_TUPLE ? kt->dtype
                       : kt->elts[k]->kind == UF__T_USTR
                           ? UF__LIST_FIELD_USTR /* common/list_ops.c */
                           : kt->elts[k]->dtype;
    }
    for (int k = 0; k < 2 + 2 * nf; k++) {
        LLVMValueRef off = c64(F, k);
        LLVMBuildStore(B, c64(F, v[k]),
                       LLVMBuildInBoundsGEP2(B, i64_t(F), d0, &off, 1, ""));
    }
    LLVMValueRef a[5] = {l, keys ? keys : LLVMConstNull(i8p_t(F)), d0, rev,
                         c64(F, uf__list_itemsize(lt))};
    LLVMValueRef rc = helper(F, UF__LIST_SORT_BY,
                             LLVMInt32TypeInContext(F->L->ctx), a, 5);
    uf__fn_raise_if(F, LLVMBuildIsNotNull(B, rc, ""), UF__JIT_NOMEM);
}

LLVMValueRef uf__lower_list_sort(uf__fn *F, const uf__expr *e)
{
    LLVMContextRef ctx = F->L->ctx;
    LLVMTypeRef i32 = LLVMInt32TypeInContext(ctx);
    bool method = uf__lower_info(F, e)->builtin == UF__BI_LIST_SORT;
    const uf__type *lt;
    LLVMValueRef l;
    if (method) {
        const uf__expr *recv = e->u.call.func->u.attr.value;
        lt = uf__lower_info(F, recv)->type;
        l = uf__lower_expr(F, recv);
    } else {
        lt = uf__lower_info(F, e)->type;
        l = uf__lower_list_of(F, e); /* list(x) */
    }
    if (!l)
        return NULL;
    const uf__expr *rx = arg(e, method ? 1 : 2, "reverse");
    LLVMValueRef rev = LLVMConstInt(i32, 0, 0);
    if (rx != NULL) { /* Numba: `reverse is False or reverse == 0` */
        LLVMValueRef v = uf__lower_expr(F, rx);
        if (!v)
            return NULL;
        v = uf__emit_cast(F, v, uf__lower_info(F, rx)->type->dtype,
                          UF_INT64);
        rev = LLVMBuildZExt(
            B, LLVMBuildICmp(B, LLVMIntNE, v,
                             LLVMConstInt(LLVMTypeOf(v), 0, 0), ""),
            i32, "");
    }
    const uf__expr *kx = arg(e, method ? 0 : 1, "key");
    const uf__type *kt = kx ? uf__lower_info(F, kx)->type : NULL;
    if (kt != NULL && kt->kind == UF__T_LIST) { /* keys made by the parser */
        LLVMValueRef keys = uf__lower_expr(F, kx);
        if (!keys)
            return NULL;
        sort_by(F, l, lt, keys, kt->elts[0], rev);
        return method ? LLVMGetUndef(LLVMInt1TypeInContext(ctx)) : l;
    }
    if (lt->elts[0]->kind == UF__T_TUPLE) {
        sort_by(F, l, lt, NULL, lt->elts[0], rev);
        return method ? LLVMGetUndef(LLVMInt1TypeInContext(ctx)) : l;
    }
    if (lt->elts[0]->kind == UF__T_USTR) { /* common/list_ustr.c */
        LLVMValueRef a[2] = {l, rev};
        helper(F, UF__LIST_USTR_SORT, LLVMVoidTypeInContext(ctx), a, 2);
        return method ? LLVMGetUndef(LLVMInt1TypeInContext(ctx)) : l;
    }
    LLVMValueRef a[3] = {l, LLVMConstInt(i32, lt->elts[0]->dtype, 0), rev};
    LLVMTypeRef pt[3] = {LLVMTypeOf(l), i32, i32};
    LLVMTypeRef fty = LLVMFunctionType(LLVMVoidTypeInContext(ctx), pt, 3, 0);
    LLVMValueRef fn = F->L->cg->helper(F->L, UF__LIST_SORT, fty);
    F->L->uses_runtime = true;
    LLVMBuildCall2(B, fty, fn, a, 3, "");
    return method ? LLVMGetUndef(LLVMInt1TypeInContext(ctx)) : l;
}

LLVMValueRef uf__lower_list_slice(uf__fn *F, const uf__expr *e)
{
    const uf__expr *base = e->u.subscript.value;
    const uf__type *lt = uf__lower_info(F, base)->type;
    LLVMValueRef l = uf__lower_expr(F, base);
    if (!l)
        return NULL;
    LLVMValueRef start, n, step;
    if (uf__lower_slice_axis(F, e->u.subscript.index[0],
                             uf__emit_list_len(F, l), &start, &n, &step) < 0)
        return NULL;
    LLVMValueRef r = new_list(F, lt, n);
    span c = {items_of(F, l), items_of(F, r), start, step, c64(F, 0), lt, lt};
    copy_span(F, &c, n);
    return r;
}

/* l[a:b:c] = v (v a list, typed by infer_list_ops.c): v's items
 * converted to a new list of l's type when they differ, then
 * common/list_ops.c resizes (step 1) or overwrites (ValueError when the
 * lengths differ). */
int uf__lower_list_slice_store(uf__fn *F, const uf__expr *t, LLVMValueRef v,
                               const uf__type *vt)
{
    const uf__expr *base = t->u.subscript.value;
    const uf__type *lt = uf__lower_info(F, base)->type;
    LLVMValueRef l = uf__lower_expr(F, base);
    if (!l)
        return F->err->code;
    LLVMValueRef start, n, step;
    if (uf__lower_slice_axis(F, t->u.subscript.index[0],
                             uf__emit_list_len(F, l), &start, &n, &step) < 0)
        return F->err->code;
    v = uf__lower_list_convert(F, v, vt, lt);
    LLVMValueRef a[6] = {l, start, n, step, v,
                         c64(F, uf__list_itemsize(lt))};
    LLVMValueRef rc = helper(F, UF__LIST_SETSLICE,
                             LLVMInt32TypeInContext(F->L->ctx), a, 6);
    LLVMValueRef zero = LLVMConstInt(LLVMTypeOf(rc), 0, 0);
    uf__fn_raise_if(F, LLVMBuildICmp(B, LLVMIntSLT, rc, zero, ""),
                    UF__JIT_NOMEM);
    uf__fn_raise_if(F, LLVMBuildICmp(B, LLVMIntSGT, rc, zero, ""),
                    UF__JIT_LIST_RESIZE);
    return 0;
}

int uf__lower_list_delslice(uf__fn *F, const uf__expr *e, LLVMValueRef l,
                            const uf__type *lt)
{
    LLVMValueRef start, n, step;
    if (uf__lower_slice_axis(F, e->u.call.args[0], uf__emit_list_len(F, l),
                             &start, &n, &step) < 0)
        return F->err->code;
    LLVMValueRef a[5] = {l, start, n, step, c64(F, uf__list_itemsize(lt))};
    helper(F, UF__LIST_DELSLICE, LLVMVoidTypeInContext(F->L->ctx), a, 5);
    return 0;
}

/* l += m (m's items appended, converted; m may be l) and l *= n, in
 * place: l keeps its header, so every name for it sees the change. */
static void augment(uf__fn *F, uf__binop op, LLVMValueRef l,
                    const uf__type *lt, LLVMValueRef v, const uf__type *xt)
{
    LLVMTypeRef i32 = LLVMInt32TypeInContext(F->L->ctx);
    if (op == UF__OP_MUL) {
        LLVMValueRef a[3] = {l, uf__emit_cast(F, v, xt->dtype, UF_INT64),
                             c64(F, isz(lt))};
        LLVMValueRef rc = helper(F, UF__LIST_IREPEAT, i32, a, 3);
        uf__fn_raise_if(F, LLVMBuildIsNotNull(B, rc, ""), UF__JIT_NOMEM);
        return;
    }
    LLVMValueRef n0 = uf__emit_list_len(F, l), n1 = uf__emit_list_len(F, v);
    LLVMValueRef n = LLVMBuildAdd(B, n0, n1, "");
    LLVMValueRef a[3] = {l, n, c64(F, isz(lt))};
    LLVMValueRef rc = helper(F, UF__LIST_RESERVE, i32, a, 3);
    uf__fn_raise_if(F, LLVMBuildIsNotNull(B, rc, ""), UF__JIT_NOMEM);
    /* both buffers read after the growth (l += l moved them both) */
    span c = {items_of(F, v), items_of(F, l), c64(F, 0), c64(F, 1), n0, xt,
              lt};
    copy_span(F, &c, n1);
    uf__emit_list_set_len(F, l, n);
}

int uf__lower_list_augassign(uf__fn *F, const uf__stmt *s)
{
    const uf__expr *t = s->u.augassign.target, *x = s->u.augassign.value;
    LLVMValueRef l = uf__lower_expr(F, t);
    LLVMValueRef v = l ? uf__lower_expr(F, x) : NULL;
    if (!v)
        return F->err->code;
    augment(F, s->u.augassign.op, l, uf__lower_info(F, t)->type, v,
            uf__lower_info(F, x)->type);
    return 0;
}

/* l + m: a new list of both's items converted; l * n, n * l. */
LLVMValueRef uf__lower_list_binop(uf__fn *F, const uf__expr *e)
{
    const uf__type *rt = uf__lower_info(F, e)->type;
    const uf__expr *x[2] = {e->u.binary.left, e->u.binary.right};
    const uf__type *t[2];
    LLVMValueRef v[2];
    for (int k = 0; k < 2; k++) { /* in source order */
        t[k] = uf__lower_info(F, x[k])->type;
        if (!(v[k] = uf__lower_expr(F, x[k])))
            return NULL;
    }
    if (e->u.binary.inplace) { /* l += m, l *= n: l, changed */
        augment(F, e->u.binary.op, v[0], t[0], v[1], t[1]);
        return v[0];
    }
    if (e->u.binary.op == UF__OP_MUL) {
        int li = t[0]->kind == UF__T_LIST ? 0 : 1;
        LLVMValueRef a[4] = {frame_arg(F), v[li],
                             uf__emit_cast(F, v[1 - li], t[1 - li]->dtype,
                                           UF_INT64),
                             c64(F, isz(rt))};
        LLVMValueRef r = helper(F, UF__LIST_REPEAT, i8p_t(F), a, 4);
        uf__fn_raise_if(F, LLVMBuildIsNull(B, r, ""), UF__JIT_NOMEM);
        return r;
    }
    LLVMValueRef n0 = uf__emit_list_len(F, v[0]);
    LLVMValueRef n1 = uf__emit_list_len(F, v[1]);
    LLVMValueRef r = new_list(F, rt, LLVMBuildAdd(B, n0, n1, ""));
    LLVMValueRef dst = items_of(F, r);
    span c0 = {items_of(F, v[0]), dst, c64(F, 0), c64(F, 1), c64(F, 0),
               t[0], rt};
    copy_span(F, &c0, n0);
    span c1 = {items_of(F, v[1]), dst, c64(F, 0), c64(F, 1), n0, t[1], rt};
    copy_span(F, &c1, n1);
    return r;
}

/* Numba's list comparisons: == (same length and every item ==), != its
 * negation; p < q and p <= q: the first i < min(len) where p[i] < q[i]
 * (true) or p[i] > q[i] (false) decides, else len(p) < / <= len(q);
 * > and >= swap the operands. */
LLVMValueRef uf__lower_list_compare(uf__fn *F, const uf__expr *e)
{
    uf__cmpop op = e->u.compare.ops[0];
    const uf__type *ot = uf__lower_info(F, e)->optype;
    bool strs = ot->kind == UF__T_USTR; /* by uf__ustr_cmp's sign */
    uf_dtype od = strs ? UF_INT64 : ot->dtype;
    const uf__expr *x[2] = {e->u.compare.operands[0],
                            e->u.compare.operands[1]};
    const uf__type *t[2];
    LLVMValueRef v[2];
    for (int k = 0; k < 2; k++) {
        t[k] = uf__lower_info(F, x[k])->type;
        if (!(v[k] = uf__lower_expr(F, x[k])))
            return NULL;
    }
    LLVMTypeRef i1 = LLVMInt1TypeInContext(F->L->ctx);
    bool eq = op == UF__CMP_EQ || op == UF__CMP_NE;
    int p = op == UF__CMP_GT || op == UF__CMP_GE ? 1 : 0, q = 1 - p;
    LLVMValueRef np = uf__emit_list_len(F, v[p]);
    LLVMValueRef nq = uf__emit_list_len(F, v[q]);
    LLVMValueRef res = uf__fn_alloca(F, i1, "list.cmp");
    LLVMValueRef slot = uf__fn_alloca(F, i64_t(F), "list.i");
    LLVMValueRef n;
    if (eq) {
        LLVMValueRef same = LLVMBuildICmp(B, LLVMIntEQ, np, nq, "");
        LLVMBuildStore(B, same, res);
        n = LLVMBuildSelect(B, same, np, c64(F, 0), "");
    } else {
        bool le = op == UF__CMP_LE || op == UF__CMP_GE;
        LLVMBuildStore(B, LLVMBuildICmp(B, le ? LLVMIntSLE : LLVMIntSLT, np,
                                        nq, ""),
                       res);
        n = LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntSLT, np, nq, ""), np,
                            nq, "");
    }
    LLVMBuildStore(B, c64(F, 0), slot);
    LLVMBasicBlockRef head = uf__fn_block(F, "listcmp.head");
    LLVMBasicBlockRef body = uf__fn_block(F, "listcmp.body");
    LLVMBasicBlockRef next = uf__fn_block(F, "listcmp.next");
    LLVMBasicBlockRef done = uf__fn_block(F, "listcmp.done");
    LLVMBuildBr(B, head);
    LLVMPositionBuilderAtEnd(B, head);
    LLVMValueRef i = LLVMBuildLoad2(B, i64_t(F), slot, "");
    LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntSLT, i, n, ""), body, done);
    LLVMPositionBuilderAtEnd(B, body);
    LLVMValueRef a = get(F, items_of(F, v[p]), t[p], i, od);
    LLVMValueRef b = get(F, items_of(F, v[q]), t[q], i, od);
    if (strs) { /* uf__ustr_cmp(a, b) against 0 */
        LLVMValueRef s[2] = {LLVMBuildIntToPtr(B, a, i8p_t(F), ""),
                             LLVMBuildIntToPtr(B, b, i8p_t(F), "")};
        a = LLVMBuildSExt(B,
                          helper(F, UF__USTR_CMP,
                                 LLVMInt32TypeInContext(F->L->ctx), s, 2),
                          i64_t(F), "");
        b = c64(F, 0);
    }
    if (eq) { /* the first unequal item: not equal */
        LLVMValueRef ne = LLVMBuildNot(B, uf__emit_cmp(F, UF__CMP_EQ, od, a,
                                                       b), "");
        LLVMBasicBlockRef differ = uf__fn_block(F, "listcmp.differ");
        LLVMBuildCondBr(B, ne, differ, next);
        LLVMPositionBuilderAtEnd(B, differ);
        LLVMBuildStore(B, LLVMConstInt(i1, 0, 0), res);
        LLVMBuildBr(B, done);
    } else {
        LLVMValueRef lt = uf__emit_cmp(F, UF__CMP_LT, od, a, b);
        LLVMValueRef gt = uf__emit_cmp(F, UF__CMP_GT, od, a, b);
        LLVMBasicBlockRef decide = uf__fn_block(F, "listcmp.decide");
        LLVMBuildCondBr(B, LLVMBuildOr(B, lt, gt, ""), decide, next);
        LLVMPositionBuilderAtEnd(B, decide);
        LLVMBuildStore(B, lt, res);
        LLVMBuildBr(B, done);
    }
    LLVMPositionBuilderAtEnd(B, next);
    LLVMBuildStore(B, LLVMBuildAdd(B, i, c64(F, 1), ""), slot);
    LLVMBuildBr(B, head);
    LLVMPositionBuilderAtEnd(B, done);
    LLVMValueRef r = LLVMBuildLoad2(B, i1, res, "");
    return op == UF__CMP_NE ? LLVMBuildNot(B, r, "") : r;
}
