/* Strings known at compile time (typed by compiler/types/infer_str.c):
 * a Literal[str] has no run-time value, so a variable, tuple element or
 * argument holding one keeps an i8 nothing reads (as a dtype value), and
 * what kernels do with one (==, in, len, not) is the constant typing
 * folded. Reading a string expression evaluates nothing: every form that
 * yields one (a literal, a name, a callee's argument) has no effects. */
#include "compiler/lower/lower.h"

bool uf__lower_is_str_value(uf__fn *F, const uf__expr *e)
{
    const uf__expr_info *in = uf__lower_info(F, e);
    if (in->callee != NULL || in->ext != NULL)
        return false; /* a kernel's call: its effects happen */
    return in->builtin == UF__BI_STR_FOLD ||
           (in->type != NULL && in->type->kind == UF__T_STR);
}

LLVMValueRef uf__lower_str_value(uf__fn *F, const uf__expr *e)
{
    const uf__expr_info *in = uf__lower_info(F, e);
    if (in->builtin == UF__BI_STR_FOLD && in->constant != NULL)
        return uf__lower_constant(F, in->constant);
    return LLVMConstInt(LLVMInt8TypeInContext(F->L->ctx), 0, 0);
}

const char *uf__lower_strlit(uf__fn *F, const uf__expr *x, size_t *len)
{
    if (x->kind == UF__EX_STR) {
        if (len)
            *len = x->u.str.len;
        return x->u.str.s;
    }
    const uf__type *t = uf__lower_info(F, x)->type;
    if (t == NULL || t->kind != UF__T_STR)
        return NULL;
    if (len)
        *len = (size_t)t->n;
    return t->name;
}
