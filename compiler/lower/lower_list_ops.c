/* Lowering of the list operations typed by types/infer_list_ops.c:
 * l.sort() and sorted(x) (a new list made as list(x) is, then sorted in
 * place by common/list_ops.c's quicksort, the scheme Numba's list sort
 * uses, so NaNs and -0.0/0.0 end where Numba's leave them). */
#include <string.h>

#include "common/list_ops.h"
#include "compiler/lower/lower.h"

#define B (F->L->b)

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
        l = uf__lower_list_new(F, e); /* list(x) */
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
    LLVMValueRef a[3] = {l, LLVMConstInt(i32, lt->elts[0]->dtype, 0), rev};
    LLVMTypeRef pt[3] = {LLVMTypeOf(l), i32, i32};
    LLVMTypeRef fty = LLVMFunctionType(LLVMVoidTypeInContext(ctx), pt, 3, 0);
    LLVMValueRef fn = F->L->cg->helper(F->L, UF__LIST_SORT, fty);
    F->L->uses_runtime = true;
    LLVMBuildCall2(B, fty, fn, a, 3, "");
    return method ? LLVMGetUndef(LLVMInt1TypeInContext(ctx)) : l;
}
