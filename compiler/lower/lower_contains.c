/* `x in c` / `x not in c` (typed by compiler/types/infer_contains.c):
 * x and each element converted to the optype and compared with ==, as
 * Numba's operator.contains does (NaN is in nothing); an array is walked
 * row by row in C order and the walk stops at the first match, a tuple's
 * elements are compared one after another. */
#include "common/list_ustr.h"
#include "compiler/lower/lower.h"
#include "compiler/lower/lower_npreduce.h"

#define B (F->L->b)

typedef struct find {
    uf_dtype dt, od;
    LLVMValueRef key;   /* in od */
    LLVMValueRef found; /* i1 alloca */
    LLVMBasicBlockRef out;
} find;

/* One row: compare until a match, which jumps to the end of the walk. */
static void find_row(uf__fn *F, void *ctx, LLVMValueRef p, LLVMValueRef n,
                     LLVMValueRef stride)
{
    find *S = ctx;
    uf__npr_loop l;
    uf__npr_loop_open(F, &l, uf__npr_c64(F, 0), n);
    LLVMValueRef x = uf__emit_elem_load(
        F, uf__npr_gep(F, p, LLVMBuildMul(B, l.i, stride, "")), S->dt);
    LLVMValueRef eq = uf__emit_cmp(F, UF__CMP_EQ, S->od,
                                   uf__emit_cast(F, x, S->dt, S->od), S->key);
    LLVMBasicBlockRef hit = uf__fn_block(F, "in.hit");
    LLVMBasicBlockRef next = uf__fn_block(F, "in.next");
    LLVMBuildCondBr(B, eq, hit, next);
    LLVMPositionBuilderAtEnd(B, hit);
    LLVMBuildStore(B, LLVMConstInt(LLVMInt1TypeInContext(F->L->ctx), 1, 0),
                   S->found);
    LLVMBuildBr(B, S->out);
    LLVMPositionBuilderAtEnd(B, next);
    uf__npr_loop_close(F, &l, 1);
}

LLVMValueRef uf__lower_contains(uf__fn *F, const uf__expr *e)
{
    const uf__expr_info *in = uf__lower_info(F, e);
    const uf__expr *xe = e->u.compare.operands[0];
    const uf__expr *ce = e->u.compare.operands[1];
    const uf__type *xt = uf__lower_info(F, xe)->type;
    const uf__type *ct = uf__lower_info(F, ce)->type;
    const uf__type *rt = in->type;
    uf_dtype od = in->optype->dtype;
    LLVMTypeRef i1 = LLVMInt1TypeInContext(F->L->ctx);
    if (ct->kind == UF__T_SET) /* lower_set.c */
        return uf__lower_set_contains(F, e);
    if (ct->kind == UF__T_DICT) /* lower_dict.c */
        return uf__lower_dict_contains(F, e);
    LLVMValueRef key = uf__lower_expr(F, xe);
    if (key == NULL)
        return NULL;
    if (in->optype->kind == UF__T_USTR) { /* s in l: common/list_ustr.c */
        LLVMValueRef l = uf__lower_expr(F, ce);
        if (!l || !(key = uf__emit_convert(F, key, xt, in->optype)))
            return NULL;
        LLVMTypeRef i64 = LLVMInt64TypeInContext(F->L->ctx);
        LLVMValueRef a[3] = {l, key, LLVMConstInt(i64, 0, 0)};
        LLVMTypeRef pt[3] = {LLVMTypeOf(l), LLVMTypeOf(key), i64};
        LLVMTypeRef fty = LLVMFunctionType(i64, pt, 3, 0);
        LLVMValueRef fn = F->L->cg->helper(F->L, UF__LIST_USTR_FIND, fty);
        F->L->uses_runtime = true;
        LLVMValueRef r = LLVMBuildICmp(
            B, e->u.compare.ops[0] == UF__CMP_NOTIN ? LLVMIntSLT : LLVMIntSGE,
            LLVMBuildCall2(B, fty, fn, a, 3, ""), LLVMConstInt(i64, 0, 0),
            "");
        return uf__emit_cast(F, r, UF_BOOL, rt->dtype);
    }
    key = uf__emit_cast(F, key, xt->dtype, od);
    LLVMValueRef r;
    if (ct->kind == UF__T_TUPLE) {
        LLVMValueRef t = uf__lower_expr(F, ce);
        if (t == NULL)
            return NULL;
        r = LLVMConstInt(i1, 0, 0);
        for (int i = 0; i < ct->n; i++) {
            LLVMValueRef v = LLVMBuildExtractValue(B, t, (unsigned)i, "");
            v = uf__emit_cast(F, v, ct->elts[i]->dtype, od);
            r = LLVMBuildOr(B, r, uf__emit_cmp(F, UF__CMP_EQ, od, v, key), "");
        }
    } else if (ct->kind == UF__T_LIST) { /* its items, in order */
        LLVMValueRef l = uf__lower_expr(F, ce);
        if (l == NULL)
            return NULL;
        LLVMValueRef view = uf__lower_list_as_array(F, l, ct);
        uf_dtype dt = ct->elts[0]->dtype;
        find S = {.dt = dt, .od = od, .key = key,
                  .found = uf__fn_alloca(F, i1, "in.found"),
                  .out = uf__fn_block(F, "in.out")};
        LLVMBuildStore(B, LLVMConstInt(i1, 0, 0), S.found);
        find_row(F, &S, uf__emit_array_data(F, view),
                 uf__emit_array_dim(F, view, 0),
                 uf__npr_c64(F, (int64_t)uf_dtype_itemsize(dt)));
        LLVMBuildBr(B, S.out);
        LLVMPositionBuilderAtEnd(B, S.out);
        r = LLVMBuildLoad2(B, i1, S.found, "");
    } else {
        uf__npr_arr A;
        if (uf__npr_load(F, ce, &A) < 0)
            return NULL;
        find S = {.dt = A.dt, .od = od, .key = key,
                  .found = uf__fn_alloca(F, i1, "in.found"),
                  .out = uf__fn_block(F, "in.out")};
        LLVMBuildStore(B, LLVMConstInt(i1, 0, 0), S.found);
        uf__npr_each_row(F, &A, find_row, &S);
        LLVMBuildBr(B, S.out);
        LLVMPositionBuilderAtEnd(B, S.out);
        r = LLVMBuildLoad2(B, i1, S.found, "");
    }
    if (e->u.compare.ops[0] == UF__CMP_NOTIN)
        r = LLVMBuildNot(B, r, "");
    return uf__emit_cast(F, r, UF_BOOL, rt->dtype);
}
