/* Keys of sets flattened into 8-byte fields (lower_set_key.h, common/
 * set.h): an integer or bool widened to 64 bits, a float or each part of
 * a complex number as a double, a tuple's fields in order (nested tuples
 * flattened), a string as its uf__ustr pointer. */
#include "common/set.h"
#include "compiler/lower/lower_set_key.h"

#define B (F->L->b)

bool uf__set_key_narrow(const uf__type *kt)
{
    return kt->kind == UF__T_SCALAR && uf_dtype_kind(kt->dtype) != 'c';
}

/* Adds kt's fields to *n, the doubles' bits to *fmask. */
static void layout(const uf__type *kt, int32_t *n, uint64_t *fmask)
{
    if (kt->kind == UF__T_TUPLE) {
        for (int i = 0; i < kt->n; i++)
            layout(kt->elts[i], n, fmask);
        return;
    }
    char k = kt->kind == UF__T_SCALAR ? uf_dtype_kind(kt->dtype) : 'p';
    for (int i = 0; i < (k == 'c' ? 2 : 1); i++, (*n)++)
        if ((k == 'f' || k == 'c') && *n < 64)
            *fmask |= UINT64_C(1) << *n;
}

int32_t uf__set_key_kind(const uf__type *kt, int32_t *nfields,
                         uint64_t *fmask)
{
    *nfields = 0;
    *fmask = 0;
    layout(kt, nfields, fmask);
    if (kt->kind == UF__T_USTR)
        return UF__SET_USTR;
    if (!uf__set_key_narrow(kt))
        return UF__SET_WIDE;
    return *fmask ? UF__SET_FLOAT : UF__SET_BITS;
}

static LLVMValueRef at(uf__fn *F, LLVMValueRef p, int i)
{
    LLVMTypeRef i64 = LLVMInt64TypeInContext(F->L->ctx);
    LLVMValueRef o = LLVMConstInt(i64, (unsigned long long)i * 8, 0);
    p = LLVMBuildInBoundsGEP2(B, LLVMInt8TypeInContext(F->L->ctx), p, &o, 1,
                              "");
    return LLVMBuildPointerCast(B, p, LLVMPointerType(i64, 0), "");
}

static void put(uf__fn *F, LLVMValueRef p, int *i, LLVMValueRef w)
{
    LLVMSetAlignment(LLVMBuildStore(B, w, at(F, p, (*i)++)), 8);
}

static LLVMValueRef get(uf__fn *F, LLVMValueRef p, int *i)
{
    LLVMValueRef v = LLVMBuildLoad2(B, LLVMInt64TypeInContext(F->L->ctx),
                                    at(F, p, (*i)++), "");
    LLVMSetAlignment(v, 8);
    return v;
}

static LLVMValueRef dbl_bits(uf__fn *F, LLVMValueRef v, uf_dtype dt)
{
    return LLVMBuildBitCast(B, uf__emit_cast(F, v, dt, UF_FLOAT64),
                            LLVMInt64TypeInContext(F->L->ctx), "");
}

static LLVMValueRef from_bits(uf__fn *F, LLVMValueRef w, uf_dtype dt)
{
    return uf__emit_cast(
        F, LLVMBuildBitCast(B, w, LLVMDoubleTypeInContext(F->L->ctx), ""),
        UF_FLOAT64, dt);
}

static void store(uf__fn *F, LLVMValueRef p, int *i, LLVMValueRef v,
                  const uf__type *t)
{
    LLVMTypeRef i64 = LLVMInt64TypeInContext(F->L->ctx);
    if (t->kind == UF__T_TUPLE) {
        for (int k = 0; k < t->n; k++)
            store(F, p, i, LLVMBuildExtractValue(B, v, (unsigned)k, ""),
                  t->elts[k]);
        return;
    }
    if (t->kind != UF__T_SCALAR) { /* a string's pointer */
        put(F, p, i, LLVMBuildPtrToInt(B, v, i64, ""));
        return;
    }
    char k = uf_dtype_kind(t->dtype);
    if (k == 'c') {
        uf_dtype part = uf__dtype_part(t->dtype);
        put(F, p, i, dbl_bits(F, LLVMBuildExtractValue(B, v, 0, ""), part));
        put(F, p, i, dbl_bits(F, LLVMBuildExtractValue(B, v, 1, ""), part));
    } else if (k == 'f') {
        put(F, p, i, dbl_bits(F, v, t->dtype));
    } else {
        put(F, p, i, uf__emit_cast(F, v, t->dtype, UF_INT64));
    }
}

static LLVMValueRef load(uf__fn *F, LLVMValueRef p, int *i,
                         const uf__type *t)
{
    if (t->kind == UF__T_TUPLE) {
        LLVMTypeRef ty = uf__lower_type(F->L, t, F->err);
        if (ty == NULL)
            return NULL;
        LLVMValueRef v = LLVMGetUndef(ty);
        for (int k = 0; k < t->n; k++) {
            LLVMValueRef x = load(F, p, i, t->elts[k]);
            if (x == NULL)
                return NULL;
            v = LLVMBuildInsertValue(B, v, x, (unsigned)k, "");
        }
        return v;
    }
    if (t->kind != UF__T_SCALAR) {
        LLVMTypeRef ty = uf__lower_type(F->L, t, F->err);
        return ty ? LLVMBuildIntToPtr(B, get(F, p, i), ty, "") : NULL;
    }
    char k = uf_dtype_kind(t->dtype);
    if (k == 'c') {
        uf_dtype part = uf__dtype_part(t->dtype);
        LLVMValueRef v = LLVMGetUndef(uf__lower_dtype(F->L, t->dtype));
        v = LLVMBuildInsertValue(B, v, from_bits(F, get(F, p, i), part), 0,
                                 "");
        return LLVMBuildInsertValue(B, v, from_bits(F, get(F, p, i), part), 1,
                                    "");
    }
    if (k == 'f')
        return from_bits(F, get(F, p, i), t->dtype);
    return uf__emit_cast(F, get(F, p, i), UF_INT64, t->dtype);
}

LLVMValueRef uf__set_key_store(uf__fn *F, LLVMValueRef v, const uf__type *kt)
{
    int32_t n;
    uint64_t fmask;
    uf__set_key_kind(kt, &n, &fmask);
    LLVMTypeRef i64 = LLVMInt64TypeInContext(F->L->ctx);
    LLVMValueRef buf = uf__fn_alloca(F, LLVMArrayType(i64, (unsigned)n),
                                     "set.key");
    buf = LLVMBuildPointerCast(
        B, buf, LLVMPointerType(LLVMInt8TypeInContext(F->L->ctx), 0), "");
    int i = 0;
    store(F, buf, &i, v, kt);
    return buf;
}

LLVMValueRef uf__set_key_load(uf__fn *F, LLVMValueRef p, const uf__type *kt)
{
    int i = 0;
    return load(F, p, &i, kt);
}
