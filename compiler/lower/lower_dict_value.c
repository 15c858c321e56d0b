/* Dict values in their entries (lower_dict_value.h). */
#include "common/list_items.h"
#include "compiler/lower/lower_dict_value.h"

#define B (F->L->b)

static LLVMTypeRef i64_t(uf__fn *F)
{
    return LLVMInt64TypeInContext(F->L->ctx);
}

static LLVMTypeRef i8p_t(uf__fn *F)
{
    return LLVMPointerType(LLVMInt8TypeInContext(F->L->ctx), 0);
}

static LLVMValueRef field_ptr(uf__fn *F, LLVMValueRef p, int64_t off)
{
    return LLVMBuildInBoundsGEP2(
        B, LLVMInt8TypeInContext(F->L->ctx), p,
        (LLVMValueRef[]){LLVMConstInt(i64_t(F), (unsigned long long)off, 1)},
        1, "");
}

/* A string, a list or a dict is stored as its pointer (lower_list_nest.c
 * keeps an inner list's or dict's header alive). */
static bool ptr_value(const uf__type *vt)
{
    return vt->kind == UF__T_USTR || vt->kind == UF__T_LIST ||
           vt->kind == UF__T_DICT;
}

/* The bytes of a value of type vt: a number's, a tuple's laid out as a
 * list's tuple items are (lower_list_items.c). */
int64_t uf__dict_vsize(const uf__type *vt)
{
    if (ptr_value(vt))
        return 8; /* its pointer */
    if (vt->kind == UF__T_ARRAY)
        return uf__list_item_bytes(vt->ndim);
    return vt->kind == UF__T_TUPLE ? uf__list_field_offset(vt, vt->n)
                                   : (int64_t)uf_dtype_itemsize(vt->dtype);
}

/* An array value at p: its struct, 8-aligned. */
static LLVMValueRef array_load(uf__fn *F, LLVMValueRef p, const uf__type *vt)
{
    LLVMTypeRef ty = uf__lower_type(F->L, vt, F->err);
    if (ty == NULL)
        return NULL;
    LLVMValueRef v = LLVMBuildLoad2(
        B, ty, LLVMBuildPointerCast(B, p, LLVMPointerType(ty, 0), ""), "");
    LLVMSetAlignment(v, 8);
    return v;
}

/* The value of type vt at p (a tuple field by field). */
LLVMValueRef uf__dict_vload(uf__fn *F, LLVMValueRef p, const uf__type *vt)
{
    if (vt->kind == UF__T_ARRAY)
        return array_load(F, p, vt);
    if (ptr_value(vt))
        return LLVMBuildLoad2(
            B, i8p_t(F),
            LLVMBuildPointerCast(B, p, LLVMPointerType(i8p_t(F), 0), ""), "");
    if (vt->kind != UF__T_TUPLE)
        return uf__emit_elem_load(F, p, vt->dtype);
    LLVMTypeRef ty = uf__lower_type(F->L, vt, F->err);
    if (ty == NULL)
        return NULL;
    LLVMValueRef v = LLVMGetUndef(ty);
    for (int k = 0; k < vt->n; k++)
        v = LLVMBuildInsertValue(
            B, v,
            uf__emit_elem_load(F, field_ptr(F, p, uf__list_field_offset(vt, k)),
                               vt->elts[k]->dtype),
            (unsigned)k, "");
    return v;
}

void uf__dict_vstore(uf__fn *F, LLVMValueRef p, const uf__type *vt,
                   LLVMValueRef v)
{
    if (vt->kind == UF__T_ARRAY) {
        LLVMSetAlignment(
            LLVMBuildStore(B, v,
                           LLVMBuildPointerCast(
                               B, p, LLVMPointerType(LLVMTypeOf(v), 0), "")),
            8);
        return;
    }
    if (ptr_value(vt)) {
        LLVMBuildStore(B, v,
                       LLVMBuildPointerCast(B, p,
                                            LLVMPointerType(i8p_t(F), 0), ""));
        return;
    }
    if (vt->kind != UF__T_TUPLE) {
        uf__emit_elem_store(F, p, vt->dtype, v);
        return;
    }
    for (int k = 0; k < vt->n; k++)
        uf__emit_elem_store(F, field_ptr(F, p, uf__list_field_offset(vt, k)),
                            vt->elts[k]->dtype,
                            LLVMBuildExtractValue(B, v, (unsigned)k, ""));
}

/* A buffer for one value of dict type dt (d.pop, d.popitem). */
LLVMValueRef uf__dict_value_buf(uf__fn *F, const uf__type *dt)
{
    int64_t words = (uf__dict_vsize(dt->elts[1]) + 7) / 8;
    LLVMValueRef out = uf__fn_alloca(
        F, LLVMArrayType(i64_t(F), (unsigned)(words < 2 ? 2 : words)),
        "dict.out");
    return LLVMBuildPointerCast(B, out, i8p_t(F), "");
}

