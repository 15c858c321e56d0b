/* Names of operators for messages ("+", "//", "<=", "not in"). */
#include "compiler/front/ast.h"

const char *uf__binop_str(uf__binop op)
{
    switch (op) {
    case UF__OP_ADD: return "+";
    case UF__OP_SUB: return "-";
    case UF__OP_MUL: return "*";
    case UF__OP_DIV: return "/";
    case UF__OP_FLOORDIV: return "//";
    case UF__OP_MOD: return "%";
    case UF__OP_POW: return "**";
    case UF__OP_LSHIFT: return "<<";
    case UF__OP_RSHIFT: return ">>";
    case UF__OP_BITAND: return "&";
    case UF__OP_BITOR: return "|";
    case UF__OP_BITXOR: return "^";
    case UF__OP_MATMUL: return "@";
    }
    return "?";
}

const char *uf__unop_str(uf__unop op)
{
    switch (op) {
    case UF__OP_NEG: return "-";
    case UF__OP_POS: return "+";
    case UF__OP_NOT: return "not";
    case UF__OP_INVERT: return "~";
    }
    return "?";
}

const char *uf__cmpop_str(uf__cmpop op)
{
    switch (op) {
    case UF__CMP_EQ: return "==";
    case UF__CMP_NE: return "!=";
    case UF__CMP_LT: return "<";
    case UF__CMP_LE: return "<=";
    case UF__CMP_GT: return ">";
    case UF__CMP_GE: return ">=";
    case UF__CMP_IS: return "is";
    case UF__CMP_ISNOT: return "is not";
    case UF__CMP_IN: return "in";
    case UF__CMP_NOTIN: return "not in";
    }
    return "?";
}
