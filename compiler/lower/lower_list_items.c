/* The items of lists (lower_list.c) that are not numbers: arrays, whose
 * value {data, shape, strides} is stored whole, 8 + 16 * ndim bytes
 * (common/list_items.h), and tuples of numbers, stored field by field
 * (tuple_offset). Numbers are stored as their dtype's bytes.
 *
 * A list of arrays owns no reference to its items' memory: the blocks
 * stay in the frame that made them (lower_alloc.c), and the list is
 * handed to the frame's sweeps and returns marked with the items' ndim
 * (uf__list_push_root, common/list_items.h), so that the runtime keeps
 * every block an item points into while the list is reachable, and hands
 * them to the caller with the list (returned, or given as an argument
 * and appended to). Dicts whose keys or values are strings are handed
 * over the same way (UF__DICT_ROOT_MARK). */
#include "common/list_items.h"
#include "compiler/lower/lower.h"
#include "compiler/lower/lower_array.h"

#define B (F->L->b)

bool uf__list_holds_arrays(const uf__type *lt)
{
    return lt != NULL && lt->kind == UF__T_LIST && lt->n == 1 &&
           (lt->elts[0]->kind == UF__T_ARRAY ||
            lt->elts[0]->kind == UF__T_USTR); /* a string: as a 0-d array's
                                                 data pointer (lower_ustr.c) */
}

int uf__dict_root_what(const uf__type *dt)
{
    if (dt != NULL && dt->kind == UF__T_SET && dt->n == 1) /* lower_set.c */
        return dt->elts[0]->kind == UF__T_USTR ? UF__SET_ROOT_KEYS : 0;
    if (dt == NULL || dt->kind != UF__T_DICT || dt->n != 2)
        return 0;
    return (dt->elts[0]->kind == UF__T_USTR ? UF__DICT_ROOT_KEYS : 0) |
           (dt->elts[1]->kind == UF__T_USTR || dt->elts[1]->kind == UF__T_ARRAY
                ? UF__DICT_ROOT_VALUES /* an array's data pointer first */
                : 0);
}

/* A tuple of numbers is stored field by field, each at an offset aligned
 * to its size (at most 8), the whole rounded up to its widest field: the
 * offset of field k, or the item's size for k == n. */
static int64_t tuple_offset(const uf__type *t, int k)
{
    int64_t off = 0, most = 1;
    for (int i = 0; i <= k && i < t->n; i++) {
        int64_t size = t->elts[i]->kind == UF__T_USTR /* its pointer */
                           ? 8
                           : (int64_t)uf_dtype_itemsize(t->elts[i]->dtype);
        int64_t align = size < 8 ? size : 8;
        off = (off + align - 1) / align * align;
        most = align > most ? align : most;
        if (i == k)
            return off;
        off += size;
    }
    return (off + most - 1) / most * most;
}

static LLVMValueRef field_at(uf__fn *F, LLVMValueRef p, const uf__type *t,
                             int k)
{
    LLVMValueRef o = LLVMConstInt(LLVMInt64TypeInContext(F->L->ctx),
                                  (unsigned long long)tuple_offset(t, k), 0);
    return LLVMBuildInBoundsGEP2(B, LLVMInt8TypeInContext(F->L->ctx), p, &o,
                                 1, "");
}

/* Field k of the tuple at p: a number, or a string's pointer. */
static LLVMValueRef field_load(uf__fn *F, LLVMValueRef p, const uf__type *t,
                               int k)
{
    if (t->elts[k]->kind != UF__T_USTR)
        return uf__emit_elem_load(F, field_at(F, p, t, k), t->elts[k]->dtype);
    LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(F->L->ctx), 0);
    LLVMValueRef v = LLVMBuildLoad2(
        B, i8p,
        LLVMBuildPointerCast(B, field_at(F, p, t, k),
                             LLVMPointerType(i8p, 0), ""),
        "");
    LLVMSetAlignment(v, 8);
    return v;
}

static void field_store(uf__fn *F, LLVMValueRef p, const uf__type *t, int k,
                        LLVMValueRef v)
{
    if (t->elts[k]->kind != UF__T_USTR) {
        uf__emit_elem_store(F, field_at(F, p, t, k), t->elts[k]->dtype, v);
        return;
    }
    LLVMValueRef s = LLVMBuildStore(
        B, v,
        LLVMBuildPointerCast(B, field_at(F, p, t, k),
                             LLVMPointerType(LLVMTypeOf(v), 0), ""));
    LLVMSetAlignment(s, 8);
}

int64_t uf__list_field_offset(const uf__type *t, int k)
{
    return tuple_offset(t, k);
}

int64_t uf__list_itemsize(const uf__type *lt)
{
    if (lt->n == 0)
        return 1;
    const uf__type *t = lt->elts[0];
    if (t->kind == UF__T_ARRAY)
        return uf__list_item_bytes(t->ndim);
    if (t->kind == UF__T_USTR || t->kind == UF__T_LIST ||
        t->kind == UF__T_DICT) /* its pointer */
        return uf__list_item_bytes(0);
    if (t->kind == UF__T_TUPLE)
        return tuple_offset(t, t->n);
    return (int64_t)uf_dtype_itemsize(t->dtype);
}

LLVMValueRef uf__list_item_load(uf__fn *F, LLVMValueRef p,
                                const uf__type *lt)
{
    const uf__type *t = lt->elts[0];
    if (t->kind == UF__T_SCALAR)
        return uf__emit_elem_load(F, p, t->dtype);
    if (t->kind == UF__T_TUPLE) {
        LLVMTypeRef ty = uf__lower_type(F->L, t, F->err);
        if (!ty)
            return NULL;
        LLVMValueRef v = LLVMGetUndef(ty);
        for (int k = 0; k < t->n; k++)
            v = LLVMBuildInsertValue(B, v, field_load(F, p, t, k),
                                     (unsigned)k, "");
        return v;
    }
    LLVMTypeRef ty = uf__lower_type(F->L, t, F->err);
    if (!ty)
        return NULL;
    LLVMValueRef v = LLVMBuildLoad2(
        B, ty, LLVMBuildPointerCast(B, p, LLVMPointerType(ty, 0), ""), "");
    LLVMSetAlignment(v, 8);
    return v;
}

void uf__list_item_store(uf__fn *F, LLVMValueRef p, const uf__type *lt,
                         LLVMValueRef v)
{
    const uf__type *t = lt->elts[0];
    if (t->kind == UF__T_SCALAR) {
        uf__emit_elem_store(F, p, t->dtype, v);
        return;
    }
    if (t->kind == UF__T_TUPLE) {
        for (int k = 0; k < t->n; k++)
            field_store(F, p, t, k,
                        LLVMBuildExtractValue(B, v, (unsigned)k, ""));
        return;
    }
    LLVMValueRef s = LLVMBuildStore(
        B, v,
        LLVMBuildPointerCast(B, p, LLVMPointerType(LLVMTypeOf(v), 0), ""));
    LLVMSetAlignment(s, 8);
}

void uf__list_push_root(uf__fn *F, LLVMValueRef l, const uf__type *lt,
                        LLVMValueRef *out, int *n, int cap)
{
    if (uf__list_described(lt)) { /* lower_list_nest.c */
        uf__list_push_described(F, l, lt, out, n, cap);
        return;
    }
    int what = uf__dict_root_what(lt);
    if (!uf__list_holds_arrays(lt) && what == 0) {
        if (*n < cap)
            out[(*n)++] = l;
        return;
    }
    if (*n + 2 > cap)
        return;
    LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(F->L->ctx), 0);
    uintptr_t mark = what ? UF__DICT_ROOT_MARK(what)
                          : UF__LIST_ROOT_MARK(lt->elts[0]->ndim);
    out[(*n)++] = LLVMConstIntToPtr(
        LLVMConstInt(LLVMInt64TypeInContext(F->L->ctx),
                     (unsigned long long)mark, 0),
        i8p);
    out[(*n)++] = l;
}

void uf__list_arg_roots(uf__fn *F, LLVMValueRef *out, int *n, int cap)
{
    const uf__typed_func *tf = F->tf;
    if (tf == NULL)
        return;
    unsigned p0 = F->out != NULL ? 1 : 0;
    for (int a = 0; a < tf->nargs; a++)
        if (uf__list_holds_arrays(tf->args[a]) ||
            uf__list_described(tf->args[a]) ||
            uf__dict_root_what(tf->args[a]) != 0)
            uf__list_push_root(F, LLVMGetParam(F->fn, p0 + (unsigned)a),
                               tf->args[a], out, n, cap);
}

bool uf__call_takes_list_arrays(const uf__typed_func *callee)
{
    for (int a = 0; callee != NULL && a < callee->nargs; a++)
        if (uf__list_holds_arrays(callee->args[a]) ||
            uf__list_described(callee->args[a]) ||
            uf__dict_root_what(callee->args[a]) != 0)
            return true;
    return false;
}

LLVMValueRef uf__lower_list_tuples_array(uf__fn *F, LLVMValueRef l,
                                         const uf__type *lt, uf_dtype to)
{
    const uf__type *t = lt->elts[0];
    LLVMTypeRef i64 = LLVMInt64TypeInContext(F->L->ctx);
    LLVMTypeRef i8 = LLVMInt8TypeInContext(F->L->ctx);
    LLVMValueRef n = uf__emit_list_len(F, l);
    uf__fn_raise_if(F, LLVMBuildICmp(B, LLVMIntEQ, n,
                                     LLVMConstInt(i64, 0, 0), ""),
                    UF__JIT_LIST_INDEX);
    LLVMValueRef shape[2] = {n, LLVMConstInt(i64, (unsigned)t->n, 0)}, cnt;
    LLVMValueRef arr = uf__lower_new_array(F, to, 2, shape, &cnt);
    LLVMValueRef dst = uf__emit_array_data(F, arr);
    int64_t isz = (int64_t)uf_dtype_itemsize(to);
    LLVMValueRef slot = uf__fn_alloca(F, i64, "list.i");
    LLVMBuildStore(B, LLVMConstInt(i64, 0, 0), slot);
    LLVMBasicBlockRef head = uf__fn_block(F, "list.head");
    LLVMBasicBlockRef body = uf__fn_block(F, "list.body");
    LLVMBasicBlockRef done = uf__fn_block(F, "list.done");
    LLVMBuildBr(B, head);
    LLVMPositionBuilderAtEnd(B, head);
    LLVMValueRef i = LLVMBuildLoad2(B, i64, slot, "");
    LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntSLT, i, n, ""), body, done);
    LLVMPositionBuilderAtEnd(B, body);
    LLVMValueRef v = uf__lower_list_item(F, l, lt, i);
    if (!v)
        return NULL;
    LLVMValueRef row = LLVMBuildMul(
        B, i, LLVMConstInt(i64, (unsigned long long)(isz * t->n), 0), "");
    for (int k = 0; k < t->n; k++) {
        LLVMValueRef off = LLVMBuildAdd(
            B, row, LLVMConstInt(i64, (unsigned long long)(isz * k), 0), "");
        uf__emit_elem_store(
            F, LLVMBuildInBoundsGEP2(B, i8, dst, &off, 1, ""), to,
            uf__emit_cast(F, LLVMBuildExtractValue(B, v, (unsigned)k, ""),
                          t->elts[k]->dtype, to));
    }
    LLVMBuildStore(B, LLVMBuildAdd(B, i, LLVMConstInt(i64, 1, 0), ""), slot);
    LLVMBuildBr(B, head);
    LLVMPositionBuilderAtEnd(B, done);
    return arr;
}
