/* Lists (Numba's list(T), typed by types/infer_list.c): a list value is
 * the data pointer of an NRT block holding common/list.h's header {size,
 * cap, items}, so assignment shares it as in Python and the frame/sweep
 * model (lower_alloc.c, lower_nrt_loop.c) frees it once: uf__type_holds_
 * array counts a list as an array whose data pointer is the header.
 * Reads, stores and appends with room are inline; making a list and
 * growing one call common/list.c. Host targets only. */
#include "common/dict.h"
#include "common/list.h"
#include "common/list_ustr.h"
#include "common/error_internal.h"
#include "compiler/lower/lower.h"
#include "compiler/lower/lower_arraycall.h"
#include "compiler/lower/lower_array.h"

#define B (F->L->b)

enum { OFF_SIZE = 0, OFF_CAP = 8, OFF_ITEMS = 16 };

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

/* The header field at byte offset off, as a pointer to ty. */
static LLVMValueRef field(uf__fn *F, LLVMValueRef l, int off, LLVMTypeRef ty)
{
    LLVMValueRef o = c64(F, off);
    LLVMValueRef p = LLVMBuildInBoundsGEP2(
        B, LLVMInt8TypeInContext(F->L->ctx), l, &o, 1, "");
    return LLVMBuildPointerCast(B, p, LLVMPointerType(ty, 0), "");
}

LLVMValueRef uf__emit_list_len(uf__fn *F, LLVMValueRef l)
{
    return LLVMBuildLoad2(B, i64_t(F), field(F, l, OFF_SIZE, i64_t(F)),
                          "list.size");
}

LLVMValueRef uf__emit_list_items(uf__fn *F, LLVMValueRef l)
{
    return LLVMBuildLoad2(B, i8p_t(F), field(F, l, OFF_ITEMS, i8p_t(F)),
                          "list.items");
}

static LLVMValueRef items_of(uf__fn *F, LLVMValueRef l)
{
    return uf__emit_list_items(F, l);
}

void uf__emit_list_set_len(uf__fn *F, LLVMValueRef l, LLVMValueRef n)
{
    LLVMBuildStore(B, n, field(F, l, OFF_SIZE, i64_t(F)));
}

static int64_t itemsize(const uf__type *lt)
{
    return uf__list_itemsize(lt); /* numbers, arrays: lower_list_items.c */
}

/* The address of item i (i64, in range). */
static LLVMValueRef item_at(uf__fn *F, LLVMValueRef items,
                            const uf__type *lt, LLVMValueRef i)
{
    LLVMValueRef off = LLVMBuildMul(B, i, c64(F, itemsize(lt)), "");
    return LLVMBuildInBoundsGEP2(B, LLVMInt8TypeInContext(F->L->ctx), items,
                                 &off, 1, "");
}

static LLVMValueRef call(uf__fn *F, const char *name, LLVMTypeRef ret,
                         LLVMValueRef *args, unsigned n)
{
    LLVMTypeRef pt[8]; /* n <= 8 */
    for (unsigned i = 0; i < n; i++)
        pt[i] = LLVMTypeOf(args[i]);
    LLVMTypeRef fty = LLVMFunctionType(ret, pt, n, 0);
    LLVMValueRef fn = F->L->cg->helper(F->L, name, fty);
    F->L->uses_runtime = true;
    return LLVMBuildCall2(B, fty, fn, args, n, "");
}

/* Lists are refused where Numba's would race (a prange body run in
 * parallel) or cannot exist (CUDA): NULL with the error, else 0. */
static int refuse_here(uf__fn *F, const uf__expr *e)
{
    if (F->L->cg->sreg != NULL)
        return uf__source_error(F->err, UF_ERR_UNSUPPORTED, F->tf->km->src,
                                e->pos, "%s", "lists are not supported in "
                                "CUDA kernels");
    if (F->in_prange)
        return uf__source_error(F->err, UF_ERR_UNSUPPORTED, F->tf->km->src,
                                e->pos, "%s", "lists cannot be made or "
                                "appended to in a prange body run in "
                                "parallel (Numba's list append there is a "
                                "data race): build an array of the "
                                "loop's length and store into it");
    return 0;
}

/* A new list of n (i64) items, uninitialised; out of memory raises. */
static LLVMValueRef new_list(uf__fn *F, const uf__type *lt, LLVMValueRef n)
{
    LLVMValueRef args[3] = {
        LLVMBuildPointerCast(B, uf__lower_frame_slot(F),
                             LLVMPointerType(i8p_t(F), 0), ""),
        n, c64(F, itemsize(lt))};
    LLVMValueRef l = call(F, UF__LIST_NEW, i8p_t(F), args, 3);
    uf__fn_raise_if(F, LLVMBuildIsNull(B, l, ""), UF__JIT_NOMEM);
    return l;
}

LLVMValueRef uf__lower_list_new(uf__fn *F, const uf__type *lt,
                                LLVMValueRef n)
{
    return new_list(F, lt, n);
}

void uf__lower_list_set(uf__fn *F, LLVMValueRef l, const uf__type *lt,
                        LLVMValueRef i, LLVMValueRef v)
{
    uf__list_item_store(F, item_at(F, items_of(F, l), lt, i), lt, v);
}

/* for (i = 0; i < n; i++) around what body() emits. */
typedef void (*each_fn)(uf__fn *F, LLVMValueRef i, void *ud);

static void count(uf__fn *F, LLVMValueRef n, each_fn body, void *ud)
{
    LLVMValueRef slot = uf__fn_alloca(F, i64_t(F), "list.i");
    LLVMBuildStore(B, c64(F, 0), slot);
    LLVMBasicBlockRef head = uf__fn_block(F, "list.head");
    LLVMBasicBlockRef loop = uf__fn_block(F, "list.body");
    LLVMBasicBlockRef done = uf__fn_block(F, "list.done");
    LLVMBuildBr(B, head);
    LLVMPositionBuilderAtEnd(B, head);
    LLVMValueRef i = LLVMBuildLoad2(B, i64_t(F), slot, "");
    LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntSLT, i, n, ""), loop, done);
    LLVMPositionBuilderAtEnd(B, loop);
    body(F, i, ud);
    LLVMBuildStore(B, LLVMBuildAdd(B, i, c64(F, 1), ""), slot);
    LLVMBuildBr(B, head);
    LLVMPositionBuilderAtEnd(B, done);
}

typedef struct copy_items {
    LLVMValueRef src, dst; /* item buffers */
    int64_t sstride, dstride;
    uf_dtype from, to;
    const uf__type *slt, *dlt; /* items that are not numbers: loaded from
                                  list type slt, converted, stored */
} copy_items;

static void copy_one(uf__fn *F, LLVMValueRef i, void *ud)
{
    const copy_items *c = ud;
    LLVMTypeRef i8 = LLVMInt8TypeInContext(F->L->ctx);
    LLVMValueRef so = LLVMBuildMul(B, i, c64(F, c->sstride), "");
    LLVMValueRef dof = LLVMBuildMul(B, i, c64(F, c->dstride), "");
    LLVMValueRef sp = LLVMBuildInBoundsGEP2(B, i8, c->src, &so, 1, "");
    LLVMValueRef dp = LLVMBuildInBoundsGEP2(B, i8, c->dst, &dof, 1, "");
    if (c->slt != NULL) {
        LLVMValueRef v = uf__list_item_load(F, sp, c->slt);
        if (v && (v = uf__emit_convert(F, v, c->slt->elts[0],
                                       c->dlt->elts[0])))
            uf__list_item_store(F, dp, c->dlt, v);
        return;
    }
    LLVMValueRef v = uf__emit_elem_load(F, sp, c->from);
    uf__emit_elem_store(F, dp, c->to, uf__emit_cast(F, v, c->from, c->to));
}

LLVMValueRef uf__lower_list_literal(uf__fn *F, const uf__expr *e)
{
    const uf__type *lt = uf__lower_info(F, e)->type;
    if (refuse_here(F, e) != 0)
        return NULL;
    int n = e->u.seq.n;
    LLVMValueRef vals[UF__TUPLE_MAX];
    if (n > UF__TUPLE_MAX) {
        uf__source_error(F->err, UF_ERR_UNSUPPORTED, F->tf->km->src, e->pos,
                         "list literals of more than %d items are not "
                         "supported", UF__TUPLE_MAX);
        return NULL;
    }
    for (int i = 0; i < n; i++) { /* evaluated before the list is made */
        const uf__expr *x = e->u.seq.elts[i];
        if (!(vals[i] = uf__lower_expr(F, x)) ||
            !(vals[i] = uf__emit_convert(F, vals[i],
                                         uf__lower_info(F, x)->type,
                                         lt->elts[0])))
            return NULL;
    }
    LLVMValueRef l = new_list(F, lt, c64(F, n));
    if (n > 0) {
        LLVMValueRef items = items_of(F, l);
        for (int i = 0; i < n; i++)
            uf__list_item_store(F, item_at(F, items, lt, c64(F, i)), lt,
                                vals[i]);
    }
    return l;
}

LLVMValueRef uf__lower_list_convert(uf__fn *F, LLVMValueRef l,
                                    const uf__type *from, const uf__type *to)
{
    if (from->n == 0 || to->n == 0 || from->elts[0] == to->elts[0])
        return l; /* list(undefined) is empty: the same header */
    if (uf__list_holds_arrays(from))
        return l; /* layouts differ ('C' seen as 'A'): the same items */
    LLVMValueRef n = uf__emit_list_len(F, l);
    LLVMValueRef r = new_list(F, to, n);
    bool num = from->elts[0]->kind == UF__T_SCALAR;
    copy_items c = {items_of(F, l), items_of(F, r), itemsize(from),
                    itemsize(to), from->elts[0]->dtype, to->elts[0]->dtype,
                    num ? NULL : from, num ? NULL : to};
    count(F, n, copy_one, &c);
    return r;
}

LLVMValueRef uf__lower_list_as_array(uf__fn *F, LLVMValueRef l,
                                     const uf__type *lt)
{
    LLVMValueRef shape = uf__emit_list_len(F, l);
    LLVMValueRef stride = c64(F, itemsize(lt));
    return uf__build_array(F->L, items_of(F, l), &shape, &stride, 1);
}

LLVMValueRef uf__lower_list_to_array(uf__fn *F, LLVMValueRef l,
                                     const uf__type *lt, uf_dtype to)
{
    if (lt->elts[0]->kind == UF__T_TUPLE)
        return uf__lower_list_tuples_array(F, l, lt, to);
    if (lt->elts[0]->kind == UF__T_LIST) /* lower_list_nest_array.c */
        return uf__lower_list_nested_array(F, l, lt, to);
    LLVMValueRef n = uf__emit_list_len(F, l), cnt;
    LLVMValueRef arr = uf__lower_new_array(F, to, 1, &n, &cnt);
    if (to == lt->elts[0]->dtype) { /* the same bytes: one memcpy */
        LLVMBuildMemCpy(B, uf__emit_array_data(F, arr), 8, items_of(F, l), 8,
                        LLVMBuildMul(B, n, c64(F, itemsize(lt)), ""));
        return arr;
    }
    copy_items c = {items_of(F, l), uf__emit_array_data(F, arr),
                    itemsize(lt), (int64_t)uf_dtype_itemsize(to),
                    lt->elts[0]->dtype, to, NULL, NULL};
    count(F, n, copy_one, &c);
    return arr;
}

/* The index of l[x] as i64, wrapped once when negative, raising `status`
 * out of range. */
static LLVMValueRef checked_index(uf__fn *F, LLVMValueRef l,
                                  const uf__expr *x, int status)
{
    LLVMValueRef v = uf__lower_expr(F, x);
    if (!v)
        return NULL;
    uf_dtype xt = uf__lower_info(F, x)->type->dtype;
    LLVMValueRef i = uf__emit_cast(F, v, xt, UF_INT64);
    LLVMValueRef n = uf__emit_list_len(F, l);
    if (xt != UF_UINT64) {
        LLVMValueRef neg = LLVMBuildICmp(B, LLVMIntSLT, i, c64(F, 0), "");
        i = LLVMBuildSelect(B, neg, LLVMBuildAdd(B, i, n, ""), i, "");
    }
    /* unsigned: below zero or at/after n */
    uf__fn_raise_if(F, LLVMBuildICmp(B, LLVMIntUGE, i, n, ""), status);
    return i;
}

LLVMValueRef uf__lower_list_item(uf__fn *F, LLVMValueRef l,
                                 const uf__type *lt, LLVMValueRef i)
{
    return uf__list_item_load(F, item_at(F, items_of(F, l), lt, i), lt);
}

LLVMValueRef uf__lower_list_index(uf__fn *F, const uf__expr *e)
{
    if (e->u.subscript.index[0]->kind == UF__EX_SLICE) /* lower_list_ops.c */
        return uf__lower_list_slice(F, e);
    const uf__expr *base = e->u.subscript.value;
    const uf__type *lt = uf__lower_info(F, base)->type;
    LLVMValueRef l = uf__lower_expr(F, base);
    if (!l)
        return NULL;
    LLVMValueRef i = checked_index(F, l, e->u.subscript.index[0],
                                   UF__JIT_LIST_INDEX);
    if (!i)
        return NULL;
    return uf__list_item_load(F, item_at(F, items_of(F, l), lt, i), lt);
}

int uf__lower_list_store(uf__fn *F, const uf__expr *t, LLVMValueRef v,
                         const uf__type *vt)
{
    if (t->u.subscript.index[0]->kind == UF__EX_SLICE) /* lower_list_ops.c */
        return uf__lower_list_slice_store(F, t, v, vt);
    const uf__expr *base = t->u.subscript.value;
    const uf__type *lt = uf__lower_info(F, base)->type;
    LLVMValueRef l = uf__lower_expr(F, base);
    if (!l)
        return F->err->code;
    LLVMValueRef i = checked_index(F, l, t->u.subscript.index[0],
                                   UF__JIT_LIST_ASSIGN);
    if (!i)
        return F->err->code;
    if (!(v = uf__emit_convert(F, v, vt, lt->elts[0])))
        return F->err->code;
    uf__list_item_store(F, item_at(F, items_of(F, l), lt, i), lt, v);
    return 0;
}

/* Appends v (already of the item type); a full buffer doubles first. */
static void append_value(uf__fn *F, LLVMValueRef l, const uf__type *lt,
                         LLVMValueRef v)
{
    LLVMValueRef sp = field(F, l, OFF_SIZE, i64_t(F));
    LLVMValueRef n = LLVMBuildLoad2(B, i64_t(F), sp, "");
    LLVMValueRef cap = LLVMBuildLoad2(B, i64_t(F), field(F, l, OFF_CAP,
                                                         i64_t(F)), "");
    LLVMBasicBlockRef grow = uf__fn_block(F, "append.grow");
    LLVMBasicBlockRef put = uf__fn_block(F, "append.put");
    LLVMValueRef full = LLVMBuildICmp(B, LLVMIntSGE, n, cap, "");
    LLVMBuildCondBr(B, full, grow, put);
    /* the slow path is rare: keep the loop's fast path straight */
    LLVMPositionBuilderAtEnd(B, grow);
    LLVMValueRef args[3] = {l, LLVMBuildAdd(B, n, c64(F, 1), ""),
                            c64(F, itemsize(lt))};
    LLVMValueRef rc = call(F, UF__LIST_RESERVE,
                           LLVMInt32TypeInContext(F->L->ctx), args, 3);
    uf__fn_raise_if(F, LLVMBuildIsNotNull(B, rc, ""), UF__JIT_NOMEM);
    LLVMBuildBr(B, put);
    LLVMPositionBuilderAtEnd(B, put);
    uf__list_item_store(F, item_at(F, items_of(F, l), lt, n), lt, v);
    LLVMBuildStore(B, LLVMBuildAdd(B, n, c64(F, 1), ""), sp);
}

/* l.append(v): v cast to the item type. */
static LLVMValueRef lower_append(uf__fn *F, const uf__expr *e,
                                 LLVMValueRef l, const uf__type *lt)
{
    const uf__expr *x = e->u.call.args[0];
    LLVMValueRef v = uf__lower_expr(F, x);
    if (!v ||
        !(v = uf__emit_convert(F, v, uf__lower_info(F, x)->type, lt->elts[0])))
        return NULL;
    append_value(F, l, lt, v);
    return LLVMGetUndef(LLVMInt1TypeInContext(F->L->ctx));
}

typedef struct visit_append {
    LLVMValueRef l;
    const uf__type *lt;
    uf_dtype from;
} visit_append;

static void append_value(uf__fn *F, LLVMValueRef l, const uf__type *lt,
                         LLVMValueRef v);

static void append_visited(uf__fn *F, LLVMValueRef x, void *ud)
{
    const visit_append *A = ud;
    append_value(F, A->l, A->lt,
                 uf__emit_cast(F, x, A->from, A->lt->elts[0]->dtype));
}

/* list(), list(range(...)), list(a), list(t), list(l). */
static LLVMValueRef lower_new(uf__fn *F, const uf__expr *e)
{
    const uf__type *lt = uf__lower_info(F, e)->type;
    if (e->u.call.nargs == 0 || lt->n == 0)
        return new_list(F, lt, c64(F, 0));
    const uf__expr *x = e->u.call.args[0];
    const uf__type *t = uf__lower_info(F, x)->type;
    if (t->kind == UF__T_RANGE) { /* appended one by one */
        LLVMValueRef l = new_list(F, lt, c64(F, 0));
        visit_append A = {l, lt, uf__lower_info(F, x)->optype->dtype};
        return uf__lower_range_visit(F, x, append_visited, &A, 0) == 0 ? l
                                                                       : NULL;
    }
    LLVMValueRef v = uf__lower_expr(F, x);
    if (!v)
        return NULL;
    if (t->kind == UF__T_TUPLE) {
        LLVMValueRef l = new_list(F, lt, c64(F, t->n));
        LLVMValueRef items = items_of(F, l);
        for (int i = 0; i < t->n; i++) {
            LLVMValueRef xi = uf__emit_convert(
                F, LLVMBuildExtractValue(B, v, (unsigned)i, ""), t->elts[i],
                lt->elts[0]);
            if (!xi)
                return NULL;
            uf__list_item_store(F, item_at(F, items, lt, c64(F, i)), lt, xi);
        }
        return l;
    }
    LLVMValueRef src, n;
    int64_t stride = 0;
    LLVMValueRef sstride = NULL;
    if (t->kind == UF__T_DICT) { /* list(d), list(d.items()): in order */
        LLVMValueRef l = new_list(F, lt, uf__emit_list_len(F, v));
        uf__lower_dict_to_items(F, v, t, items_of(F, l), lt);
        return l;
    }
    if (t->kind == UF__T_SET) { /* list(s): its items (lower_set.c) */
        LLVMValueRef l = new_list(F, lt, uf__emit_list_len(F, v));
        uf__lower_set_items(F, v, t, items_of(F, l), itemsize(lt),
                            lt->elts[0]->dtype);
        return l;
    }
    if (t->kind == UF__T_LIST && t->elts[0]->kind != UF__T_SCALAR) {
        n = uf__emit_list_len(F, v); /* list(l) of arrays or tuples */
        LLVMValueRef r = new_list(F, lt, n);
        copy_items c = {items_of(F, v), items_of(F, r), itemsize(t),
                        itemsize(lt), UF_BOOL, UF_BOOL, t, lt};
        count(F, n, copy_one, &c);
        return r;
    }
    if (t->kind == UF__T_LIST) {
        src = items_of(F, v);
        n = uf__emit_list_len(F, v);
        stride = itemsize(t);
    } else { /* a 1-D array, any strides */
        src = uf__emit_array_data(F, v);
        n = uf__emit_array_dim(F, v, 0);
        sstride = uf__emit_array_stride(F, v, t, 0);
    }
    LLVMValueRef l = new_list(F, lt, n);
    LLVMValueRef dst = items_of(F, l);
    uf_dtype from = t->kind == UF__T_LIST ? t->elts[0]->dtype : t->dtype;
    LLVMValueRef slot = uf__fn_alloca(F, i64_t(F), "list.i");
    LLVMBuildStore(B, c64(F, 0), slot);
    LLVMBasicBlockRef head = uf__fn_block(F, "list.head");
    LLVMBasicBlockRef loop = uf__fn_block(F, "list.body");
    LLVMBasicBlockRef done = uf__fn_block(F, "list.done");
    LLVMBuildBr(B, head);
    LLVMPositionBuilderAtEnd(B, head);
    LLVMValueRef i = LLVMBuildLoad2(B, i64_t(F), slot, "");
    LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntSLT, i, n, ""), loop, done);
    LLVMPositionBuilderAtEnd(B, loop);
    LLVMValueRef so = LLVMBuildMul(B, i, sstride ? sstride : c64(F, stride),
                                   "");
    LLVMValueRef x0 = uf__emit_elem_load(
        F, LLVMBuildGEP2(B, LLVMInt8TypeInContext(F->L->ctx), src, &so, 1,
                         ""),
        from);
    uf__emit_elem_store(F, item_at(F, dst, lt, i), lt->elts[0]->dtype,
                        uf__emit_cast(F, x0, from, lt->elts[0]->dtype));
    LLVMBuildStore(B, LLVMBuildAdd(B, i, c64(F, 1), ""), slot);
    LLVMBuildBr(B, head);
    LLVMPositionBuilderAtEnd(B, done);
    return l;
}

static LLVMValueRef arg_i64(uf__fn *F, const uf__expr *x)
{
    LLVMValueRef v = uf__lower_expr(F, x);
    return v ? uf__emit_cast(F, v, uf__lower_info(F, x)->type->dtype,
                             UF_INT64)
             : NULL;
}

static void set_size(uf__fn *F, LLVMValueRef l, LLVMValueRef n)
{
    LLVMBuildStore(B, n, field(F, l, OFF_SIZE, i64_t(F)));
}

static void move(uf__fn *F, LLVMValueRef l, LLVMValueRef dst,
                 LLVMValueRef src, LLVMValueRef n, const uf__type *lt)
{
    LLVMValueRef a[5] = {l, dst, src, n, c64(F, itemsize(lt))};
    call(F, UF__LIST_MOVE, LLVMVoidTypeInContext(F->L->ctx), a, 5);
}

/* l.pop() / l.pop(i): Numba's IndexErrors, the items after i moved down. */
static LLVMValueRef lower_pop(uf__fn *F, const uf__expr *e, LLVMValueRef l,
                              const uf__type *lt)
{
    LLVMValueRef i = NULL;
    if (e->u.call.nargs == 1 && !(i = arg_i64(F, e->u.call.args[0])))
        return NULL;
    LLVMValueRef n = uf__emit_list_len(F, l);
    uf__fn_raise_if(F, LLVMBuildICmp(B, LLVMIntEQ, n, c64(F, 0), ""),
                    UF__JIT_LIST_POP_EMPTY);
    LLVMValueRef last = LLVMBuildSub(B, n, c64(F, 1), "");
    if (i == NULL)
        i = last;
    else {
        LLVMValueRef neg = LLVMBuildICmp(B, LLVMIntSLT, i, c64(F, 0), "");
        i = LLVMBuildSelect(B, neg, LLVMBuildAdd(B, i, n, ""), i, "");
        uf__fn_raise_if(F, LLVMBuildICmp(B, LLVMIntUGE, i, n, ""),
                        UF__JIT_LIST_POP_INDEX);
    }
    LLVMValueRef v = uf__list_item_load(F, item_at(F, items_of(F, l), lt, i),
                                        lt);
    move(F, l, i, LLVMBuildAdd(B, i, c64(F, 1), ""), LLVMBuildSub(B, last, i,
                                                                   ""),
         lt);
    set_size(F, l, last);
    return v;
}

/* `del l[i]`: l.pop(i) with the value dropped, as Numba's reflected
 * list does it (its IndexErrors are pop's); `del l[a:b:c]` in
 * lower_list_ops.c. */
static LLVMValueRef lower_delitem(uf__fn *F, const uf__expr *e,
                                  LLVMValueRef l, const uf__type *lt)
{
    if (e->u.call.args[0]->kind == UF__EX_SLICE)
        return uf__lower_list_delslice(F, e, l, lt) != 0
                   ? NULL
                   : LLVMGetUndef(LLVMInt1TypeInContext(F->L->ctx));
    return lower_pop(F, e, l, lt) == NULL
               ? NULL
               : LLVMGetUndef(LLVMInt1TypeInContext(F->L->ctx));
}

/* l.insert(i, v): i wrapped once then clamped to [0, n] as Python. */
static LLVMValueRef lower_insert(uf__fn *F, const uf__expr *e,
                                 LLVMValueRef l, const uf__type *lt)
{
    LLVMValueRef i = arg_i64(F, e->u.call.args[0]);
    const uf__expr *x = e->u.call.args[1];
    LLVMValueRef v = i ? uf__lower_expr(F, x) : NULL;
    if (!v)
        return NULL;
    if (!(v = uf__emit_convert(F, v, uf__lower_info(F, x)->type,
                               lt->elts[0])))
        return NULL;
    LLVMValueRef n = uf__emit_list_len(F, l);
    LLVMValueRef zero = c64(F, 0);
    i = LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntSLT, i, zero, ""),
                        LLVMBuildAdd(B, i, n, ""), i, "");
    i = LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntSLT, i, zero, ""), zero,
                        i, "");
    i = LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntSGT, i, n, ""), n, i, "");
    append_value(F, l, lt, v); /* grows by one (v stored at the end) */
    move(F, l, LLVMBuildAdd(B, i, c64(F, 1), ""), i, LLVMBuildSub(B, n, i, ""),
         lt);
    uf__list_item_store(F, item_at(F, items_of(F, l), lt, i), lt, v);
    return LLVMGetUndef(LLVMInt1TypeInContext(F->L->ctx));
}

typedef struct search {
    LLVMValueRef items, key, hit; /* hit: i64 alloca, -1 when none */
    const uf__type *lt;
    uf_dtype od;
    bool all; /* count every match */
    LLVMBasicBlockRef out;
} search;

static void search_one(uf__fn *F, LLVMValueRef i, void *ud)
{
    const search *S = ud;
    uf_dtype dt = S->lt->elts[0]->dtype;
    LLVMValueRef x = uf__emit_cast(
        F, uf__emit_elem_load(F, item_at(F, S->items, S->lt, i), dt), dt,
        S->od);
    LLVMValueRef eq = uf__emit_cmp(F, UF__CMP_EQ, S->od, x, S->key);
    if (S->all) {
        LLVMValueRef c = LLVMBuildLoad2(B, i64_t(F), S->hit, "");
        LLVMBuildStore(B, LLVMBuildAdd(B, c, LLVMBuildZExt(B, eq, i64_t(F),
                                                           ""),
                                       ""),
                       S->hit);
        return;
    }
    LLVMBasicBlockRef found = uf__fn_block(F, "list.found");
    LLVMBasicBlockRef next = uf__fn_block(F, "list.next");
    LLVMBuildCondBr(B, eq, found, next);
    LLVMPositionBuilderAtEnd(B, found);
    LLVMBuildStore(B, i, S->hit);
    LLVMBuildBr(B, S->out);
    LLVMPositionBuilderAtEnd(B, next);
}

/* l.count(v), l.index(v), l.remove(v). */
static LLVMValueRef lower_search(uf__fn *F, const uf__expr *e,
                                 LLVMValueRef l, const uf__type *lt,
                                 uf__builtin b)
{
    const uf__expr *x = e->u.call.args[0];
    const uf__type *ot = uf__lower_info(F, e)->optype;
    uf_dtype od = ot->dtype;
    LLVMValueRef key = uf__lower_expr(F, x);
    if (!key)
        return NULL;
    LLVMValueRef r;
    if (ot->kind == UF__T_USTR) { /* common/list_ustr.c */
        if (!(key = uf__emit_convert(F, key, uf__lower_info(F, x)->type, ot)))
            return NULL;
        LLVMValueRef a[3] = {l, key, c64(F, 0)};
        bool all = b == UF__BI_LIST_COUNT;
        LLVMTypeRef pt[3] = {LLVMTypeOf(l), LLVMTypeOf(key), i64_t(F)};
        LLVMTypeRef fty = LLVMFunctionType(i64_t(F), pt, all ? 2 : 3, 0);
        LLVMValueRef fn = F->L->cg->helper(
            F->L, all ? UF__LIST_USTR_COUNT : UF__LIST_USTR_FIND, fty);
        F->L->uses_runtime = true;
        r = LLVMBuildCall2(B, fty, fn, a, all ? 2 : 3, "");
        if (all)
            return r;
    } else {
        key = uf__emit_cast(F, key, uf__lower_info(F, x)->type->dtype, od);
        search S = {items_of(F, l), key,
                    uf__fn_alloca(F, i64_t(F), "list.hit"), lt, od,
                    b == UF__BI_LIST_COUNT, uf__fn_block(F, "list.searched")};
        LLVMBuildStore(B, c64(F, S.all ? 0 : -1), S.hit);
        count(F, uf__emit_list_len(F, l), search_one, &S);
        LLVMBuildBr(B, S.out);
        LLVMPositionBuilderAtEnd(B, S.out);
        r = LLVMBuildLoad2(B, i64_t(F), S.hit, "");
        if (S.all)
            return r;
    }
    uf__fn_raise_if(F, LLVMBuildICmp(B, LLVMIntSLT, r, c64(F, 0), ""),
                    b == UF__BI_LIST_INDEX ? UF__JIT_LIST_VALUE
                                           : UF__JIT_LIST_REMOVE);
    if (b == UF__BI_LIST_INDEX)
        return r;
    LLVMValueRef n = uf__emit_list_len(F, l);
    LLVMValueRef last = LLVMBuildSub(B, n, c64(F, 1), "");
    move(F, l, r, LLVMBuildAdd(B, r, c64(F, 1), ""), LLVMBuildSub(B, last, r,
                                                                   ""),
         lt);
    set_size(F, l, last);
    return LLVMGetUndef(LLVMInt1TypeInContext(F->L->ctx));
}

typedef struct extend_src {
    LLVMValueRef l, src; /* src: a list, or a 1-D array */
    const uf__type *lt, *st;
} extend_src;

/* One item of the source appended: a list's items are read through its
 * header each time (l.extend(l) may move them while it grows). */
static void extend_one(uf__fn *F, LLVMValueRef i, void *ud)
{
    const extend_src *X = ud;
    uf_dtype from, to = X->lt->elts[0]->dtype;
    LLVMValueRef p;
    if (X->st->kind == UF__T_LIST && X->st->elts[0]->kind != UF__T_SCALAR) {
        LLVMValueRef v = uf__list_item_load(
            F, item_at(F, items_of(F, X->src), X->st, i), X->st);
        if (v && (v = uf__emit_convert(F, v, X->st->elts[0], X->lt->elts[0])))
            append_value(F, X->l, X->lt, v);
        return;
    }
    if (X->st->kind == UF__T_LIST) {
        from = X->st->elts[0]->dtype;
        p = item_at(F, items_of(F, X->src), X->st, i);
    } else {
        from = X->st->dtype;
        LLVMValueRef off = LLVMBuildMul(
            B, i, uf__emit_array_stride(F, X->src, X->st, 0), "");
        p = LLVMBuildGEP2(B, LLVMInt8TypeInContext(F->L->ctx),
                          uf__emit_array_data(F, X->src), &off, 1, "");
    }
    append_value(F, X->l, X->lt,
                 uf__emit_cast(F, uf__emit_elem_load(F, p, from), from, to));
}

/* l.extend(x): x's items appended (as many as x had before). */
static LLVMValueRef lower_extend(uf__fn *F, const uf__expr *e,
                                 LLVMValueRef l, const uf__type *lt)
{
    const uf__expr *x = e->u.call.args[0];
    const uf__type *st = uf__lower_info(F, x)->type;
    LLVMValueRef src = uf__lower_expr(F, x);
    if (!src)
        return NULL;
    if (!(st->kind == UF__T_LIST && st->n == 0)) {
        LLVMValueRef n = st->kind == UF__T_LIST ? uf__emit_list_len(F, src)
                                                : uf__emit_array_dim(F, src,
                                                                     0);
        extend_src X = {l, src, lt, st};
        count(F, n, extend_one, &X);
    }
    return LLVMGetUndef(LLVMInt1TypeInContext(F->L->ctx));
}

LLVMValueRef uf__lower_list_of(uf__fn *F, const uf__expr *e)
{
    return lower_new(F, e);
}

LLVMValueRef uf__lower_list_call(uf__fn *F, const uf__expr *e)
{
    uf__builtin ob = uf__lower_info(F, e)->builtin;
    if (ob == UF__BI_LIST_SORT || ob == UF__BI_LIST_SORTED)
        return refuse_here(F, e) != 0 ? NULL
                                      : uf__lower_list_sort(F, e); /* ops */
    if (uf__lower_info(F, e)->builtin == UF__BI_LIST_NEW) {
        if (refuse_here(F, e) != 0)
            return NULL;
        return lower_new(F, e);
    }
    const uf__expr *recv = e->u.call.func->u.attr.value;
    const uf__type *lt = uf__lower_info(F, recv)->type;
    if (refuse_here(F, e) != 0)
        return NULL;
    if (ob == UF__BI_LIST_APPEND) { /* into np.array(l)'s array? */
        bool done;
        LLVMValueRef r = uf__arraycall_append(F, e, lt, &done);
        if (done)
            return r;
    }
    LLVMValueRef l = uf__lower_expr(F, recv);
    if (!l)
        return NULL;
    uf__builtin b = uf__lower_info(F, e)->builtin;
    switch (b) {
    case UF__BI_LIST_APPEND:
        return lower_append(F, e, l, lt);
    case UF__BI_LIST_POP:
        return lower_pop(F, e, l, lt);
    case UF__BI_LIST_DELITEM:
        return lower_delitem(F, e, l, lt);
    case UF__BI_LIST_INSERT:
        return lower_insert(F, e, l, lt);
    case UF__BI_LIST_CLEAR:
        set_size(F, l, c64(F, 0));
        return LLVMGetUndef(LLVMInt1TypeInContext(F->L->ctx));
    case UF__BI_LIST_REVERSE: {
        LLVMValueRef a[2] = {l, c64(F, itemsize(lt))};
        call(F, UF__LIST_REVERSE, LLVMVoidTypeInContext(F->L->ctx), a, 2);
        return LLVMGetUndef(LLVMInt1TypeInContext(F->L->ctx));
    }
    case UF__BI_LIST_COPY: {
        LLVMValueRef n = uf__emit_list_len(F, l);
        LLVMValueRef r = new_list(F, lt, n);
        copy_items c = {items_of(F, l), items_of(F, r), itemsize(lt),
                        itemsize(lt), lt->elts[0]->dtype, lt->elts[0]->dtype,
                        lt, lt};
        count(F, n, copy_one, &c);
        return r;
    }
    case UF__BI_LIST_COUNT:
    case UF__BI_LIST_INDEX:
    case UF__BI_LIST_REMOVE:
        return lower_search(F, e, l, lt, b);
    case UF__BI_LIST_EXTEND:
        return lower_extend(F, e, l, lt);
    default:
        uf__source_error(F->err, UF_ERR_UNSUPPORTED, F->tf->km->src, e->pos,
                         "%s", "this list method is not supported by the "
                         "CPU lowering");
        return NULL;
    }
}

bool uf__list_fallible(const uf__typed_func *tf, const uf__expr *e)
{
    const uf__type *t = uf__tf_info(tf, e)->type;
    if (e->kind == UF__EX_LIST && t && t->kind == UF__T_LIST)
        return true; /* out of memory */
    if (e->kind == UF__EX_CALL &&
        uf__builtin_is_list(uf__tf_info(tf, e)->builtin))
        return true;
    if (e->kind == UF__EX_BINARY && t && t->kind == UF__T_LIST)
        return true; /* l + m, l * n: out of memory */
    if (e->kind == UF__EX_SUBSCRIPT) {
        const uf__type *bt = uf__tf_info(tf, e->u.subscript.value)->type;
        return bt && bt->kind == UF__T_LIST; /* IndexError */
    }
    return false;
}
