/* a.flat[k] read, written and updated, and len(a.flat). Of an F-ordered
 * or strided N-d array a.flat is UF__T_FLATITER (typed by
 * infer_arrmeth.c; its value is the array itself); of a C or 1-D array a
 * 1-D view (lower_arrmeth.c). Position k counts in C order, as NumPy's: a
 * negative k counts from the end, one out of range raises IndexError as
 * NumPy's a.flat does (Numba reads past the array), then k is split into
 * indices from the last axis, each times its stride. `for x in a.flat` is
 * a counted loop over these (front/desugar_for.c) whose index is in range
 * by construction: no wrap, no check, so the C case is a unit-stride
 * loop. */
#include <string.h>

#include "compiler/lower/lower.h"

#define B (F->L->b)

static LLVMValueRef size_of(uf__fn *F, LLVMValueRef a, int ndim)
{
    LLVMValueRef n = LLVMConstInt(LLVMInt64TypeInContext(F->L->ctx), 1, 0);
    for (int k = 0; k < ndim; k++)
        n = LLVMBuildMul(B, n, uf__emit_array_dim(F, a, k), "flat.size");
    return n;
}

LLVMValueRef uf__lower_flat_len(uf__fn *F, const uf__expr *flat)
{
    const uf__type *ft = uf__lower_info(F, flat)->type;
    LLVMValueRef a = uf__lower_expr(F, flat);
    return a ? size_of(F, a, ft->ndim) : NULL;
}

/* IndexError at `pos` unless idx < size (idx wrapped; orig as written). */
static void check(uf__fn *F, uf__pos pos, LLVMValueRef orig, bool uns,
                  LLVMValueRef idx, LLVMValueRef size)
{
    if (!F->fallible || !F->tf)
        return; /* never: lower_fallible.c makes these functions fallible */
    LLVMValueRef bad = LLVMBuildICmp(B, LLVMIntUGE, idx, size, "flat.oob");
    LLVMBasicBlockRef raise = uf__fn_block(F, "flat.index.error");
    LLVMBasicBlockRef ok = uf__fn_block(F, "flat.index.ok");
    LLVMBuildCondBr(B, bad, raise, ok);
    LLVMPositionBuilderAtEnd(B, raise);
    uf__index_report r = {
        .kernel = F->tf->decl->name, .file = F->tf->km->src->name,
        .line = pos.line, .index = orig, .is_unsigned = uns, .axis = 0,
        .size = size};
    F->L->cg->index_error(F, &r);
    LLVMBuildRet(B, LLVMConstInt(LLVMInt32TypeInContext(F->L->ctx),
                                 UF__JIT_INDEX, 0));
    LLVMPositionBuilderAtEnd(B, ok);
}

bool uf__is_flat_subscript(uf__fn *F, const uf__expr *e)
{
    if (e->kind != UF__EX_SUBSCRIPT || e->u.subscript.nindex != 1)
        return false;
    const uf__expr *b = e->u.subscript.value;
    const uf__expr_info *bi = uf__lower_info(F, b);
    const uf__type *kt = uf__lower_info(F, e->u.subscript.index[0])->type;
    return b->kind == UF__EX_ATTR && bi->builtin == UF__BI_ATTR_FLAT &&
           bi->type && (bi->type->kind == UF__T_FLATITER ||
                        bi->type->kind == UF__T_ARRAY) &&
           kt && kt->kind == UF__T_SCALAR && uf__dtype_is_int(kt->dtype);
}

/* it$.flat[k$] of desugar_for.c's loop over E.flat (names no Python
 * source can spell): k$ counts below len(it$.flat). */
static bool desugared(const uf__expr *fx, const uf__expr *x)
{
    const uf__expr *v = fx->u.attr.value;
    return x->kind == UF__EX_NAME && strncmp(x->u.name.id, "k$", 2) == 0 &&
           v->kind == UF__EX_NAME && strncmp(v->u.name.id, "it$", 3) == 0;
}

LLVMValueRef uf__lower_flat_address(uf__fn *F, const uf__expr *e,
                                    uf_dtype *dt)
{
    const uf__expr *fx = e->u.subscript.value;
    const uf__expr *x = e->u.subscript.index[0];
    const uf__type *ft = uf__lower_info(F, fx)->type;
    const uf__type *kt = uf__lower_info(F, x)->type;
    const uf__type *at = uf__type_array(F->tf->km->tc, ft->dtype, ft->ndim,
                                        ft->layout, F->err);
    LLVMValueRef a = at ? uf__lower_expr(F, fx) : NULL;
    LLVMValueRef k = a ? uf__lower_expr(F, x) : NULL;
    if (!k)
        return NULL;
    LLVMTypeRef i64 = LLVMInt64TypeInContext(F->L->ctx);
    bool sgn = uf__dtype_is_signed(kt->dtype);
    k = uf__emit_cast(F, k, kt->dtype, sgn ? UF_INT64 : UF_UINT64);
    LLVMValueRef size = size_of(F, a, ft->ndim), idx = k;
    if (sgn && !desugared(fx, x))
        idx = LLVMBuildSelect(
            B, LLVMBuildICmp(B, LLVMIntSLT, k, LLVMConstNull(i64), ""),
            LLVMBuildAdd(B, k, size, ""), k, "flat.k");
    if (!desugared(fx, x))
        check(F, e->pos, k, !sgn, idx, size);
    LLVMValueRef off = LLVMConstNull(i64);
    for (int d = ft->ndim - 1; d > 0; d--) {
        LLVMValueRef n = uf__emit_array_dim(F, a, d);
        LLVMValueRef i = LLVMBuildURem(B, idx, n, "");
        idx = LLVMBuildUDiv(B, idx, n, "");
        off = LLVMBuildAdd(
            B, off, LLVMBuildMul(B, i, uf__emit_array_stride(F, a, at, d), ""),
            "");
    }
    off = LLVMBuildAdd(
        B, off, LLVMBuildMul(B, idx, uf__emit_array_stride(F, a, at, 0), ""),
        "flat.off");
    *dt = ft->dtype;
    return LLVMBuildGEP2(B, LLVMInt8TypeInContext(F->L->ctx),
                         uf__emit_array_data(F, a), &off, 1, "flat.ptr");
}

LLVMValueRef uf__lower_flat_load(uf__fn *F, const uf__expr *e)
{
    uf_dtype dt;
    LLVMValueRef p = uf__lower_flat_address(F, e, &dt);
    if (!p)
        return NULL;
    const uf__type *rt = uf__lower_info(F, e)->type;
    return uf__emit_cast(F, uf__emit_elem_load(F, p, dt), dt, rt->dtype);
}

int uf__lower_flat_store(uf__fn *F, const uf__expr *target, LLVMValueRef v,
                         const uf__type *vt)
{
    uf_dtype dt;
    LLVMValueRef p = uf__lower_flat_address(F, target, &dt);
    if (!p)
        return F->err->code;
    uf__emit_elem_store(F, p, dt, uf__emit_cast(F, v, vt->dtype, dt));
    return 0;
}
