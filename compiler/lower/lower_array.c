/* Array values in generated code (the ABI of compiler/lower/lower_array.h): the
 * struct and its fields, element loads and stores, items along the first
 * axis (for loops), and the attributes .shape, .strides, .size, .ndim and len().
 * Indexing itself, with its bounds checks, is in lower_index.c. */
#include "compiler/lower/lower_array.h"

#include "common/error_internal.h"

#define B (F->L->b)

LLVMTypeRef uf__lower_array_type(uf__lower *L, int ndim)
{
    LLVMTypeRef i64 = LLVMInt64TypeInContext(L->ctx);
    LLVMTypeRef dims = LLVMArrayType(i64, (unsigned)(ndim < 0 ? 0 : ndim));
    LLVMTypeRef fields[3] = {
        LLVMPointerType(LLVMInt8TypeInContext(L->ctx), 0), dims, dims};
    return LLVMStructTypeInContext(L->ctx, fields, 3, 0);
}

/* [n x i64] from n values. */
static LLVMValueRef dims_value(uf__lower *L, const LLVMValueRef *v, int n)
{
    LLVMTypeRef i64 = LLVMInt64TypeInContext(L->ctx);
    LLVMValueRef a = LLVMGetUndef(LLVMArrayType(i64, (unsigned)n));
    for (int k = 0; k < n; k++)
        a = LLVMBuildInsertValue(L->b, a, v[k], (unsigned)k, "");
    return a;
}

LLVMValueRef uf__build_array(uf__lower *L, LLVMValueRef data,
                             const LLVMValueRef *shape,
                             const LLVMValueRef *strides, int ndim)
{
    LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(L->ctx), 0);
    if (LLVMTypeOf(data) != i8p)
        data = LLVMBuildPointerCast(L->b, data, i8p, "");
    LLVMValueRef a = LLVMGetUndef(uf__lower_array_type(L, ndim));
    a = LLVMBuildInsertValue(L->b, a, data, 0, "");
    a = LLVMBuildInsertValue(L->b, a, dims_value(L, shape, ndim), 1, "");
    return LLVMBuildInsertValue(L->b, a, dims_value(L, strides, ndim), 2,
                                "");
}

/* ---- fields -------------------------------------------------------------- */

LLVMValueRef uf__emit_array_data(uf__fn *F, LLVMValueRef a)
{
    return LLVMBuildExtractValue(B, a, 0, "data");
}

LLVMValueRef uf__emit_array_dim(uf__fn *F, LLVMValueRef a, int k)
{
    return LLVMBuildExtractValue(B, LLVMBuildExtractValue(B, a, 1, ""),
                                 (unsigned)k, "dim");
}

LLVMValueRef uf__emit_array_stride(uf__fn *F, LLVMValueRef a,
                                   const uf__type *t, int k)
{
    /* the layout's promise (lower_array.h): the innermost stride is the
     * itemsize, a constant the vectoriser can use */
    if ((t->layout == 'C' && k == t->ndim - 1) || (t->layout == 'F' && k == 0))
        return LLVMConstInt(LLVMInt64TypeInContext(F->L->ctx),
                            uf_dtype_itemsize(t->dtype), 0);
    return LLVMBuildExtractValue(B, LLVMBuildExtractValue(B, a, 2, ""),
                                 (unsigned)k, "stride");
}

/* ---- elements ------------------------------------------------------------ */

static LLVMValueRef elem_ptr(uf__fn *F, LLVMValueRef p, uf_dtype dt)
{
    return LLVMBuildPointerCast(
        B, p, LLVMPointerType(uf__lower_mem_dtype(F->L, dt), 0), "");
}

LLVMValueRef uf__emit_elem_load(uf__fn *F, LLVMValueRef p, uf_dtype dt)
{
    LLVMTypeRef mt = uf__lower_mem_dtype(F->L, dt);
    LLVMValueRef v = LLVMBuildLoad2(B, mt, elem_ptr(F, p, dt), "elem");
    LLVMSetAlignment(v, (unsigned)uf_dtype_alignment(dt));
    if (dt == UF_BOOL) /* any nonzero byte is True */
        v = LLVMBuildICmp(B, LLVMIntNE, v, LLVMConstNull(mt), "");
    return v;
}

void uf__emit_elem_store(uf__fn *F, LLVMValueRef p, uf_dtype dt,
                         LLVMValueRef v)
{
    if (dt == UF_BOOL)
        v = LLVMBuildZExt(B, v, uf__lower_mem_dtype(F->L, dt), "");
    LLVMValueRef s = LLVMBuildStore(B, v, elem_ptr(F, p, dt));
    LLVMSetAlignment(s, (unsigned)uf_dtype_alignment(dt));
}

const uf__type *uf__array_item_type(uf__typectx *tc, const uf__type *t,
                                    uf_error *err)
{
    if (t->ndim == 1)
        return uf__type_scalar(tc, t->dtype);
    /* a C array's rows are C; any other layout gives strided views */
    return uf__type_array_ro(tc, t->dtype, t->ndim - 1,
                             t->layout == 'C' ? 'C' : 'A', t->readonly, err);
}

LLVMValueRef uf__emit_array_item(uf__fn *F, LLVMValueRef a,
                                 const uf__type *t, LLVMValueRef k)
{
    LLVMValueRef data = uf__emit_array_data(F, a);
    LLVMValueRef off = LLVMBuildNSWMul(B, k, uf__emit_array_stride(F, a, t, 0),
                                       "");
    LLVMValueRef p = LLVMBuildInBoundsGEP2(
        B, LLVMInt8TypeInContext(F->L->ctx), data, &off, 1, "item");
    if (t->ndim == 1)
        return uf__emit_elem_load(F, p, t->dtype);
    LLVMValueRef shape[64], strides[64];
    for (int d = 1; d < t->ndim; d++) {
        shape[d - 1] = uf__emit_array_dim(F, a, d);
        strides[d - 1] = uf__emit_array_stride(F, a, t, d);
    }
    return uf__build_array(F->L, p, shape, strides, t->ndim - 1);
}

/* ---- attributes ------------------------------------------------------------ */

/* Numba's is_contiguous (C) or is_fortran (F, the axes taken in reverse)
 * of array a of type t, unrolled over its dimensions: axes of length 0 or
 * 1 before the first and after the last longer axis are skipped; the
 * innermost longer axis has the element size as its stride, and each
 * axis from there out to the outermost longer one is its inner
 * neighbour's stride times length. */
static LLVMValueRef contiguous(uf__fn *F, const uf__type *t, LLVMValueRef a,
                               bool fortran)
{
    LLVMTypeRef i64 = LLVMInt64TypeInContext(F->L->ctx);
    LLVMValueRef one = LLVMConstInt(i64, 1, 0);
    LLVMValueRef no = LLVMConstInt(LLVMInt1TypeInContext(F->L->ctx), 0, 0);
    LLVMValueRef dim[UF_MAXDIMS], str[UF_MAXDIMS], longer[UF_MAXDIMS];
    int nd = t->ndim;
    LLVMValueRef strides = LLVMBuildExtractValue(B, a, 2, "");
    for (int i = 0; i < nd; i++) { /* i: C order of the axes checked */
        int k = fortran ? nd - 1 - i : i;
        dim[i] = uf__emit_array_dim(F, a, k);
        str[i] = LLVMBuildExtractValue(B, strides, (unsigned)k, "");
        longer[i] = LLVMBuildICmp(B, LLVMIntSGT, dim[i], one, "");
    }
    LLVMValueRef item =
        LLVMConstInt(i64, (unsigned long long)uf_dtype_itemsize(t->dtype), 0);
    LLVMValueRef bad = no, after = no; /* after: a longer axis past ax */
    for (int ax = nd - 1; ax >= 0; ax--) {
        LLVMValueRef before = no; /* a longer axis before ax */
        for (int j = 0; j < ax; j++)
            before = LLVMBuildOr(B, before, longer[j], "");
        LLVMValueRef inner = LLVMBuildAnd(
            B, longer[ax], LLVMBuildNot(B, after, ""), "");
        bad = LLVMBuildOr(
            B, bad,
            LLVMBuildAnd(B, inner,
                         LLVMBuildICmp(B, LLVMIntNE, str[ax], item, ""), ""),
            "");
        LLVMValueRef from = LLVMBuildOr(B, after, longer[ax], "");
        if (ax > 0)
            bad = LLVMBuildOr(
                B, bad,
                LLVMBuildAnd(
                    B, LLVMBuildAnd(B, before, from, ""),
                    LLVMBuildICmp(B, LLVMIntNE,
                                  LLVMBuildMul(B, str[ax], dim[ax], ""),
                                  str[ax - 1], ""),
                    ""),
                "");
        after = from;
    }
    return LLVMBuildNot(B, bad, "contiguous");
}

LLVMValueRef uf__lower_array_attr(uf__fn *F, const uf__expr *e,
                                  uf__builtin bi, const uf__expr *arr)
{
    const uf__type *t = uf__lower_info(F, arr)->type;
    const uf__type *rt = uf__lower_info(F, e)->type;
    if (!t || t->kind != UF__T_ARRAY || !rt) {
        uf__source_error(F->err, UF_ERR_UNSUPPORTED, F->tf->km->src, e->pos,
                         "%s", "this array attribute is not supported by "
                         "the CPU lowering");
        return NULL;
    }
    LLVMValueRef a = uf__lower_expr(F, arr);
    if (!a)
        return NULL;
    LLVMTypeRef i64 = LLVMInt64TypeInContext(F->L->ctx);
    LLVMValueRef r;
    switch (bi) {
    case UF__BI_ATTR_SHAPE:
    case UF__BI_ATTR_STRIDES: {
        LLVMTypeRef ty = uf__lower_type(F->L, rt, F->err);
        if (!ty)
            return NULL;
        r = LLVMGetUndef(ty);
        for (int k = 0; k < t->ndim; k++)
            r = LLVMBuildInsertValue(
                B, r,
                /* the real strides: the layout's constant is only the
                 * stride that addressing may assume (a newaxis is 0) */
                LLVMBuildExtractValue(
                    B, LLVMBuildExtractValue(
                           B, a, bi == UF__BI_ATTR_SHAPE ? 1 : 2, ""),
                    (unsigned)k, ""),
                (unsigned)k, "");
        return r;
    }
    case UF__BI_ATTR_NDIM:
        r = LLVMConstInt(i64, (unsigned long long)t->ndim, 0);
        break;
    case UF__BI_ATTR_C_CONTIGUOUS: /* a C or F layout decides it, as Numba */
    case UF__BI_ATTR_F_CONTIGUOUS: {
        bool f = bi == UF__BI_ATTR_F_CONTIGUOUS;
        LLVMTypeRef i1 = LLVMInt1TypeInContext(F->L->ctx);
        if (!f && t->layout == 'C')
            return LLVMConstInt(i1, 1, 0);
        if (f && (t->layout == 'F' || (t->ndim <= 1 && t->layout == 'C')))
            return LLVMConstInt(i1, 1, 0);
        return uf__emit_cast(F, contiguous(F, t, a, f), UF_BOOL, rt->dtype);
    }
    case UF__BI_ATTR_SIZE:
        r = LLVMConstInt(i64, 1, 0);
        for (int k = 0; k < t->ndim; k++)
            r = LLVMBuildMul(B, r, uf__emit_array_dim(F, a, k), "size");
        break;
    case UF__BI_LEN:
        if (t->ndim == 0) {
            uf__source_error(F->err, UF_ERR_TYPING, F->tf->km->src, e->pos,
                             "%s", "len() of a 0-d array");
            return NULL;
        }
        r = uf__emit_array_dim(F, a, 0);
        break;
    default:
        uf__source_error(F->err, UF_ERR_UNSUPPORTED, F->tf->km->src, e->pos,
                         "%s", "this array attribute is not supported by "
                         "the CPU lowering");
        return NULL;
    }
    if (rt->kind != UF__T_SCALAR)
        return r;
    return uf__emit_cast(F, r, UF_INT64, rt->dtype);
}
