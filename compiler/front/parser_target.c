/* Assignment targets: which expressions may be assigned to, and the
 * syntax errors (with CPython's texts and "Maybe you meant" hints) for the
 * ones that may not. */
#include <stdbool.h>

#include "compiler/front/parser.h"

const char *uf__expr_desc(const uf__expr *e)
{
    switch (e->kind) {
    case UF__EX_INT:
    case UF__EX_FLOAT:
    case UF__EX_IMAG:
    case UF__EX_STR:
        return "literal";
    case UF__EX_BOOL:
        return e->u.b ? "True" : "False";
    case UF__EX_NONE:
        return "None";
    case UF__EX_ELLIPSIS:
        return "ellipsis";
    case UF__EX_NAME:
        return "name";
    case UF__EX_ATTR:
        return "attribute";
    case UF__EX_CALL:
        return "function call";
    case UF__EX_SUBSCRIPT:
        return "subscript";
    case UF__EX_SLICE:
        return "slice";
    case UF__EX_UNARY:
    case UF__EX_BINARY:
    case UF__EX_BOOLOP:
        return "expression";
    case UF__EX_COMPARE:
        return "comparison";
    case UF__EX_IFEXP:
        return "conditional expression";
    case UF__EX_TUPLE:
        return "tuple";
    case UF__EX_LIST:
        return "list";
    }
    return "expression";
}

/* CPython adds "Maybe you meant '=='" only for targets at bitwise_or
 * level (not True/False/None, comparisons, not, and/or, if-else). */
static bool hintable(const uf__expr *e)
{
    switch (e->kind) {
    case UF__EX_BOOL:
    case UF__EX_NONE:
    case UF__EX_COMPARE:
    case UF__EX_BOOLOP:
    case UF__EX_IFEXP:
        return false;
    case UF__EX_UNARY:
        return e->u.unary.op != UF__OP_NOT;
    default:
        return true;
    }
}

void *uf__assign_in_expression(uf__parser *p, const uf__expr *e)
{
    if (e->kind == UF__EX_NAME && !e->parenthesized)
        return uf__syntax_error(p, e->pos, "invalid syntax. Maybe you meant "
                                "'==' or ':=' instead of '='?");
    if (e->kind == UF__EX_TUPLE || e->kind == UF__EX_LIST || !hintable(e))
        return uf__unexpected(p);
    return uf__syntax_error(p, e->pos, "cannot assign to %s here. Maybe you "
                            "meant '==' instead of '='?", uf__expr_desc(e));
}

bool uf__check_target(uf__parser *p, uf__expr *e, bool hint)
{
    switch (e->kind) {
    case UF__EX_NAME:
    case UF__EX_ATTR:
    case UF__EX_SUBSCRIPT:
        return true;
    case UF__EX_LIST:
    case UF__EX_TUPLE: {
        /* CPython's hint reaches into a bare `a, 1 = x` only */
        bool inner_hint = hint && e->kind == UF__EX_TUPLE && !e->parenthesized;
        /* [a, b] = ... unpacks exactly like a tuple */
        e->kind = UF__EX_TUPLE;
        for (int k = 0; k < e->u.seq.n; k++)
            if (!uf__check_target(p, e->u.seq.elts[k], inner_hint))
                return false;
        return true;
    }
    default:
        uf__syntax_error(p, e->pos, "cannot assign to %s%s", uf__expr_desc(e),
                         hint && hintable(e) ? " here. Maybe you meant '==' "
                                               "instead of '='?"
                                             : "");
        return false;
    }
}
