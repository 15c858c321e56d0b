/* The items of lists (lower_list.c) that are not numbers: arrays, whose
 * value {data, shape, strides} is stored whole, 8 + 16 * ndim bytes
 * (common/list_items.h). Numbers are stored as their dtype's bytes.
 *
 * A list of arrays owns no reference to its items' memory: the blocks
 * stay in the frame that made them (lower_alloc.c), and the list is
 * handed to the frame's sweeps and returns marked with the items' ndim
 * (uf__list_push_root, common/list_items.h), so that the runtime keeps
 * every block an item points into while the list is reachable, and hands
 * them to the caller with the list (returned, or given as an argument
 * and appended to). */
#include "common/list_items.h"
#include "compiler/lower/lower.h"
#include "compiler/lower/lower_array.h"

#define B (F->L->b)

bool uf__list_holds_arrays(const uf__type *lt)
{
    return lt != NULL && lt->kind == UF__T_LIST && lt->n == 1 &&
           lt->elts[0]->kind == UF__T_ARRAY;
}

int64_t uf__list_itemsize(const uf__type *lt)
{
    if (lt->n == 0)
        return 1;
    const uf__type *t = lt->elts[0];
    if (t->kind == UF__T_ARRAY)
        return uf__list_item_bytes(t->ndim);
    return (int64_t)uf_dtype_itemsize(t->dtype);
}

LLVMValueRef uf__list_item_load(uf__fn *F, LLVMValueRef p,
                                const uf__type *lt)
{
    const uf__type *t = lt->elts[0];
    if (t->kind == UF__T_SCALAR)
        return uf__emit_elem_load(F, p, t->dtype);
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
    LLVMValueRef s = LLVMBuildStore(
        B, v,
        LLVMBuildPointerCast(B, p, LLVMPointerType(LLVMTypeOf(v), 0), ""));
    LLVMSetAlignment(s, 8);
}

void uf__list_push_root(uf__fn *F, LLVMValueRef l, const uf__type *lt,
                        LLVMValueRef *out, int *n, int cap)
{
    if (!uf__list_holds_arrays(lt)) {
        if (*n < cap)
            out[(*n)++] = l;
        return;
    }
    if (*n + 2 > cap)
        return;
    LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(F->L->ctx), 0);
    out[(*n)++] = LLVMConstIntToPtr(
        LLVMConstInt(LLVMInt64TypeInContext(F->L->ctx),
                     (unsigned long long)UF__LIST_ROOT_MARK(
                         lt->elts[0]->ndim),
                     0),
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
        if (uf__list_holds_arrays(tf->args[a]))
            uf__list_push_root(F, LLVMGetParam(F->fn, p0 + (unsigned)a),
                               tf->args[a], out, n, cap);
}

bool uf__call_takes_list_arrays(const uf__typed_func *callee)
{
    for (int a = 0; callee != NULL && a < callee->nargs; a++)
        if (uf__list_holds_arrays(callee->args[a]))
            return true;
    return false;
}
