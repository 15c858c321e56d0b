/* Expressions, from the conditional expression down to atoms, with
 * Python's precedence. A node's position is the first character of its
 * first token, so `(a + b) * c` starts at the '(' as in CPython. */
#include <stdio.h>
#include <string.h>

#include "compiler/front/ast_visit.h"
#include "compiler/front/parser.h"

/* Positions of tokens at the current point. */
static uf__pos here(uf__parser *p)
{
    return uf__peek(p)->pos;
}

static uf__expr *binary(uf__parser *p, uf__pos pos, uf__binop op,
                        uf__expr *left, uf__expr *right)
{
    uf__expr *e = uf__new_expr(p, UF__EX_BINARY, pos);
    if (e == NULL)
        return NULL;
    e->u.binary.op = op;
    e->u.binary.left = left;
    e->u.binary.right = right;
    return e;
}

/* The pointer vector's items as an expression array. */
static uf__expr **finish_vec(uf__pvec *v)
{
    return (uf__expr **)v->items;
}

static uf__expr *make_seq(uf__parser *p, uf__expr_kind kind, uf__pos pos,
                          uf__pvec *v)
{
    uf__expr *e = uf__new_expr(p, kind, pos);
    if (e == NULL)
        return NULL;
    e->u.seq.elts = finish_vec(v);
    e->u.seq.n = v->n;
    return e;
}

/* star_expressions:
 *     | star_expression (',' star_expression)+ [',']
 *     | star_expression ','
 *     | star_expression
 * star_expression: '*' bitwise_or (refused) | expression
 * A bare tuple `a, b` is a TUPLE at the first element's position. */
uf__expr *uf__parse_star_expressions(uf__parser *p)
{
    uf__pos start = here(p);
    /* `yield` fits where star_expressions do (statements, right-hand
     * sides); elsewhere it is a syntax error, as in CPython. Its value
     * used refuses the def (parser_yield.c). */
    if (uf__at(p, UF__TOK_KW_YIELD))
        return uf__parse_yield_expr(p, false);
    if (uf__at(p, UF__TOK_STAR))
        return uf__unsupported(p, start, "a starred expression");
    uf__expr *first = uf__parse_expression(p);
    if (first == NULL)
        return NULL;
    if (!uf__at(p, UF__TOK_COMMA))
        return first;
    uf__pvec v = {0};
    if (!uf__pvec_push(p, &v, first))
        return NULL;
    while (uf__accept(p, UF__TOK_COMMA)) {
        uf__tok_kind k = uf__peek(p)->kind;
        /* A trailing comma ends the tuple before '=', ')', NEWLINE... */
        if (k == UF__TOK_NEWLINE || k == UF__TOK_ASSIGN || k == UF__TOK_SEMI ||
            k == UF__TOK_RPAR || k == UF__TOK_COLON || k == UF__TOK_EOF ||
            (k >= UF__TOK_PLUSEQ && k <= UF__TOK_ATEQ))
            break;
        if (uf__at(p, UF__TOK_STAR))
            return uf__unsupported(p, here(p), "a starred expression");
        uf__expr *e = uf__parse_expression(p);
        if (e == NULL || !uf__pvec_push(p, &v, e))
            return NULL;
    }
    return make_seq(p, UF__EX_TUPLE, start, &v);
}

static uf__expr *disjunction(uf__parser *p);

/* expression:
 *     | disjunction 'if' disjunction 'else' expression
 *     | disjunction
 *     | lambdef (refused) */
uf__expr *uf__parse_expression(uf__parser *p)
{
    uf__pos start = here(p);
    if (uf__at(p, UF__TOK_KW_LAMBDA))
        return uf__unsupported(p, start, "lambda");
    if (!uf__enter(p, start))
        return NULL;
    uf__expr *res = NULL;
    uf__expr *body = disjunction(p);
    if (body == NULL)
        goto out;
    if (!uf__accept(p, UF__TOK_KW_IF)) {
        res = body;
        goto out;
    }
    uf__expr *cond = disjunction(p);
    if (cond == NULL)
        goto out;
    if (!uf__accept(p, UF__TOK_KW_ELSE)) {
        /* CPython: at the expression itself (inside its parentheses) */
        if (uf__at(p, UF__TOK_COLON) || uf__at(p, UF__TOK_ERROR))
            uf__unexpected(p);
        else
            uf__syntax_error(p, body->pos, "expected 'else' after 'if' "
                             "expression");
        goto out;
    }
    uf__expr *orelse = uf__parse_expression(p);
    if (orelse == NULL)
        goto out;
    res = uf__new_expr(p, UF__EX_IFEXP, start);
    if (res != NULL) {
        res->u.ifexp.cond = cond;
        res->u.ifexp.then = body;
        res->u.ifexp.orelse = orelse;
    }
out:
    uf__leave(p);
    return res;
}

/* named_expression: NAME ':=' expression (refused) | expression !':='
 * The refusal happens where ':=' turns up unexpected (uf__unexpected). */
uf__expr *uf__parse_named_expression(uf__parser *p)
{
    return uf__parse_expression(p);
}

static uf__expr *conjunction(uf__parser *p);
static uf__expr *inversion(uf__parser *p);

/* A chain of `and` or `or` into one BOOLOP. */
static uf__expr *boolop(uf__parser *p, uf__tok_kind tok, bool is_and,
                        uf__expr *(*operand)(uf__parser *))
{
    uf__pos start = here(p);
    uf__expr *first = operand(p);
    if (first == NULL || !uf__at(p, tok))
        return first;
    uf__pvec v = {0};
    if (!uf__pvec_push(p, &v, first))
        return NULL;
    while (uf__accept(p, tok)) {
        uf__expr *e = operand(p);
        if (e == NULL || !uf__pvec_push(p, &v, e))
            return NULL;
    }
    uf__expr *e = uf__new_expr(p, UF__EX_BOOLOP, start);
    if (e == NULL)
        return NULL;
    e->u.boolop.is_and = is_and;
    e->u.boolop.values = finish_vec(&v);
    e->u.boolop.n = v.n;
    return e;
}

/* disjunction: conjunction ('or' conjunction)+ | conjunction */
static uf__expr *disjunction(uf__parser *p)
{
    return boolop(p, UF__TOK_KW_OR, false, conjunction);
}

uf__expr *uf__parse_disjunction(uf__parser *p)
{
    return disjunction(p);
}

/* conjunction: inversion ('and' inversion)+ | inversion */
static uf__expr *conjunction(uf__parser *p)
{
    return boolop(p, UF__TOK_KW_AND, true, inversion);
}

static uf__expr *comparison(uf__parser *p);

/* inversion: 'not' inversion | comparison */
static uf__expr *inversion(uf__parser *p)
{
    uf__pos start = here(p);
    if (!uf__accept(p, UF__TOK_KW_NOT))
        return comparison(p);
    if (!uf__enter(p, start))
        return NULL;
    uf__expr *operand = inversion(p);
    uf__leave(p);
    if (operand == NULL)
        return NULL;
    uf__expr *e = uf__new_expr(p, UF__EX_UNARY, start);
    if (e == NULL)
        return NULL;
    e->u.unary.op = UF__OP_NOT;
    e->u.unary.operand = operand;
    return e;
}

/* Reads a comparison operator if one is next. */
static bool compare_op(uf__parser *p, uf__cmpop *op)
{
    switch (uf__peek(p)->kind) {
    case UF__TOK_EQ: *op = UF__CMP_EQ; break;
    case UF__TOK_NE: *op = UF__CMP_NE; break;
    case UF__TOK_LT: *op = UF__CMP_LT; break;
    case UF__TOK_LE: *op = UF__CMP_LE; break;
    case UF__TOK_GT: *op = UF__CMP_GT; break;
    case UF__TOK_GE: *op = UF__CMP_GE; break;
    case UF__TOK_KW_IN: *op = UF__CMP_IN; break;
    case UF__TOK_KW_IS:
        uf__advance(p);
        *op = uf__accept(p, UF__TOK_KW_NOT) ? UF__CMP_ISNOT : UF__CMP_IS;
        return true;
    case UF__TOK_KW_NOT:
        if (uf__peek_at(p, 1)->kind != UF__TOK_KW_IN)
            return false;
        uf__advance(p);
        *op = UF__CMP_NOTIN;
        break;
    default:
        return false;
    }
    uf__advance(p);
    return true;
}

/* comparison: bitwise_or compare_op_bitwise_or_pair+ | bitwise_or
 * compare_op: '==' | '!=' | '<=' | '<' | '>=' | '>' | 'not' 'in' | 'in'
 *           | 'is' 'not' | 'is'
 * `a < b < c` is one COMPARE with two operators (chained, as in Python). */
static uf__expr *comparison(uf__parser *p)
{
    uf__pos start = here(p);
    uf__expr *first = uf__parse_bitor(p);
    if (first == NULL)
        return NULL;
    uf__cmpop op;
    if (!compare_op(p, &op))
        return first;
    uf__pvec operands = {0};
    uf__cmpop *ops = NULL;
    int nops = 0, cap = 0;
    if (!uf__pvec_push(p, &operands, first))
        return NULL;
    do {
        if (!uf__grow(p, (void **)&ops, &cap, nops, sizeof *ops))
            return NULL;
        ops[nops++] = op;
        uf__expr *right = uf__parse_bitor(p);
        if (right == NULL || !uf__pvec_push(p, &operands, right))
            return NULL;
    } while (compare_op(p, &op));
    uf__expr *e = uf__new_expr(p, UF__EX_COMPARE, start);
    if (e == NULL)
        return NULL;
    e->u.compare.operands = finish_vec(&operands);
    e->u.compare.ops = ops;
    e->u.compare.nops = nops;
    return e;
}

/* One left-associative binary level: the operator tokens and their ops. */
typedef struct binlevel {
    uf__tok_kind tok[5];
    uf__binop op[5];
    int n;
} binlevel;

static uf__expr *left_assoc(uf__parser *p, const binlevel *lv,
                            uf__expr *(*operand)(uf__parser *))
{
    uf__pos start = here(p);
    uf__expr *left = operand(p);
    while (left != NULL) {
        int k;
        uf__tok_kind t = uf__peek(p)->kind;
        for (k = 0; k < lv->n && lv->tok[k] != t; k++)
            ;
        if (k == lv->n)
            break;
        uf__advance(p);
        uf__expr *right = operand(p);
        if (right == NULL)
            return NULL;
        left = binary(p, start, lv->op[k], left, right);
    }
    return left;
}

static uf__expr *bitxor(uf__parser *p);
static uf__expr *bitand(uf__parser *p);
static uf__expr *shift_expr(uf__parser *p);
static uf__expr *sum(uf__parser *p);
static uf__expr *term(uf__parser *p);
static uf__expr *factor(uf__parser *p);

/* bitwise_or: bitwise_or '|' bitwise_xor | bitwise_xor */
uf__expr *uf__parse_bitor(uf__parser *p)
{
    static const binlevel lv = {{UF__TOK_PIPE}, {UF__OP_BITOR}, 1};
    return left_assoc(p, &lv, bitxor);
}

/* bitwise_xor: bitwise_xor '^' bitwise_and | bitwise_and */
static uf__expr *bitxor(uf__parser *p)
{
    static const binlevel lv = {{UF__TOK_CARET}, {UF__OP_BITXOR}, 1};
    return left_assoc(p, &lv, bitand);
}

/* bitwise_and: bitwise_and '&' shift_expr | shift_expr */
static uf__expr *bitand(uf__parser *p)
{
    static const binlevel lv = {{UF__TOK_AMP}, {UF__OP_BITAND}, 1};
    return left_assoc(p, &lv, shift_expr);
}

/* shift_expr: shift_expr ('<<' | '>>') sum | sum */
static uf__expr *shift_expr(uf__parser *p)
{
    static const binlevel lv = {{UF__TOK_LSHIFT, UF__TOK_RSHIFT},
                                {UF__OP_LSHIFT, UF__OP_RSHIFT}, 2};
    return left_assoc(p, &lv, sum);
}

/* sum: sum ('+' | '-') term | term */
static uf__expr *sum(uf__parser *p)
{
    static const binlevel lv = {{UF__TOK_PLUS, UF__TOK_MINUS},
                                {UF__OP_ADD, UF__OP_SUB}, 2};
    return left_assoc(p, &lv, term);
}

/* term: term ('*' | '/' | '//' | '%' | '@') factor | factor */
static uf__expr *term(uf__parser *p)
{
    static const binlevel lv = {
        {UF__TOK_STAR, UF__TOK_SLASH, UF__TOK_DSLASH, UF__TOK_PERCENT,
         UF__TOK_AT},
        {UF__OP_MUL, UF__OP_DIV, UF__OP_FLOORDIV, UF__OP_MOD, UF__OP_MATMUL},
        5};
    return left_assoc(p, &lv, factor);
}

static uf__expr *power(uf__parser *p);

/* factor: '+' factor | '-' factor | '~' factor | power */
static uf__expr *factor(uf__parser *p)
{
    uf__pos start = here(p);
    uf__unop op;
    switch (uf__peek(p)->kind) {
    case UF__TOK_PLUS: op = UF__OP_POS; break;
    case UF__TOK_MINUS: op = UF__OP_NEG; break;
    case UF__TOK_TILDE: op = UF__OP_INVERT; break;
    default:
        return power(p);
    }
    uf__advance(p);
    if (!uf__enter(p, start))
        return NULL;
    uf__expr *operand = factor(p);
    uf__leave(p);
    if (operand == NULL)
        return NULL;
    uf__expr *e = uf__new_expr(p, UF__EX_UNARY, start);
    if (e == NULL)
        return NULL;
    e->u.unary.op = op;
    e->u.unary.operand = operand;
    return e;
}

static uf__expr *primary(uf__parser *p);

/* power: await_primary '**' factor | await_primary
 * await_primary: 'await' primary (refused) | primary
 * The right operand is a factor, so 2 ** -1 works and ** is
 * right-associative, while -2 ** 2 is -(2 ** 2). */
static uf__expr *power(uf__parser *p)
{
    uf__pos start = here(p);
    if (uf__at(p, UF__TOK_KW_AWAIT))
        return uf__unsupported(p, start, "'await'");
    uf__expr *base = primary(p);
    if (base == NULL || !uf__accept(p, UF__TOK_DSTAR))
        return base;
    if (!uf__enter(p, start))
        return NULL;
    uf__expr *exp = factor(p);
    uf__leave(p);
    if (exp == NULL)
        return NULL;
    return binary(p, start, UF__OP_POW, base, exp);
}


/* Inside brackets, an element followed by something that starts another
 * expression is most likely a missing comma: CPython's "Perhaps you forgot
 * a comma?" (not after a conditional expression, nor for `print x` or a
 * name running into a string, which CPython words differently). */
void *uf__bad_after(uf__parser *p, const uf__expr *last)
{
    uf__tok_kind k = uf__peek(p)->kind;
    if (last != NULL && k == UF__TOK_ASSIGN)
        return uf__assign_in_expression(p, last);
    bool starts = k == UF__TOK_NAME || k == UF__TOK_INT ||
                  k == UF__TOK_FLOAT || k == UF__TOK_IMAG ||
                  k == UF__TOK_STRING || k == UF__TOK_KW_TRUE ||
                  k == UF__TOK_KW_FALSE || k == UF__TOK_KW_NONE ||
                  k == UF__TOK_ELLIPSIS || k == UF__TOK_LBRACE ||
                  k == UF__TOK_KW_LAMBDA;
    if (last == NULL || !starts || last->kind == UF__EX_IFEXP)
        return uf__unexpected(p);
    if (last->kind == UF__EX_NAME && !last->parenthesized &&
        (k == UF__TOK_STRING || strcmp(last->u.name.id, "print") == 0 ||
         strcmp(last->u.name.id, "exec") == 0))
        return uf__unexpected(p);
    return uf__syntax_error(p, last->pos, "invalid syntax. Perhaps you "
                            "forgot a comma?");
}

static uf__expr *atom(uf__parser *p);
static uf__expr *call_args(uf__parser *p, uf__expr *func, uf__pos start);
static uf__expr *subscript(uf__parser *p, uf__expr *value, uf__pos start);

/* primary:
 *     | primary '.' NAME
 *     | primary '(' [arguments] ')'
 *     | primary '[' slices ']'
 *     | atom */
static uf__expr *primary(uf__parser *p)
{
    uf__pos start = here(p);
    uf__expr *e = atom(p);
    while (e != NULL) {
        if (uf__accept(p, UF__TOK_DOT)) {
            uf__token *name = uf__peek(p);
            if (name->kind != UF__TOK_NAME)
                return uf__unexpected(p);
            uf__advance(p);
            uf__expr *a = uf__new_expr(p, UF__EX_ATTR, start);
            if (a == NULL)
                return NULL;
            a->u.attr.value = e;
            a->u.attr.attr = name->v.name;
            a->u.attr.attr_pos = name->pos;
            e = a;
        } else if (uf__accept(p, UF__TOK_LPAR)) {
            e = call_args(p, e, start);
        } else if (uf__accept(p, UF__TOK_LSQB)) {
            e = subscript(p, e, start);
        } else {
            break;
        }
    }
    return e;
}

/* f is ndindex or X.ndindex: typing checks that it is NumPy's. */
static bool is_ndindex(const uf__expr *f)
{
    return (f->kind == UF__EX_NAME && strcmp(f->u.name.id, "ndindex") == 0) ||
           (f->kind == UF__EX_ATTR && strcmp(f->u.attr.attr, "ndindex") == 0);
}

/* arguments: ','.(starred_expression | expression !'=')+ [',' kwargs]
 *          | kwargs
 * kwarg: NAME '=' expression
 * Called after '('; consumes the ')'. `*args`, `**kw` and generator
 * arguments are refused. */
/* key=lambda NAME: expression (sorted and l.sort only, sort_key): the
 * body, its parameter's name in *param. */
static uf__expr *key_lambda(uf__parser *p, const char **param)
{
    uf__token *kw = uf__advance(p);
    uf__token *t = uf__peek(p);
    if (t->kind != UF__TOK_NAME)
        return uf__unsupported(p, kw->pos, "a key= lambda without exactly "
                               "one parameter");
    uf__advance(p);
    if (!uf__accept(p, UF__TOK_COLON))
        return uf__unsupported(p, kw->pos, "a key= lambda without exactly "
                               "one parameter");
    *param = t->v.name;
    p->no_comp++; /* its body runs in sort_key's loop */
    uf__expr *body = uf__parse_expression(p);
    p->no_comp--;
    return body;
}

static uf__expr *call_args(uf__parser *p, uf__expr *func, uf__pos start)
{
    uf__pvec args = {0};
    uf__keyword *kw = NULL;
    int nkw = 0, kwcap = 0, lam_kw = -1;
    const char *lam_param = NULL;
    uf__expr *last = NULL;
    bool starred = false;
    while (!uf__at(p, UF__TOK_RPAR)) {
        uf__token *t = uf__peek(p);
        if (t->kind == UF__TOK_STAR && args.n == 0 && is_ndindex(func) &&
            uf__peek_at(p, 1)->kind != UF__TOK_RPAR) {
            /* np.ndindex(*a.shape): the one argument, starred */
            uf__advance(p);
            uf__expr *arg = uf__parse_expression(p);
            if (arg == NULL)
                return NULL;
            if (!uf__at(p, UF__TOK_RPAR))
                return uf__unsupported(p, t->pos, "'*args' in a call, "
                                       "but as np.ndindex's only argument");
            if (!uf__pvec_push(p, &args, arg))
                return NULL;
            starred = true;
            last = arg;
            break;
        }
        if (t->kind == UF__TOK_STAR)
            return uf__unsupported(p, t->pos, "'*args' in a call");
        if (t->kind == UF__TOK_DSTAR)
            return uf__unsupported(p, t->pos, "'**kwargs' in a call");
        if (t->kind == UF__TOK_NAME &&
            uf__peek_at(p, 1)->kind == UF__TOK_ASSIGN) {
            for (int k = 0; k < nkw; k++)
                if (strcmp(kw[k].name, t->v.name) == 0)
                    return uf__syntax_error(p, t->pos, "keyword argument "
                                            "repeated: %s", t->v.name);
            uf__advance(p);
            uf__advance(p);
            bool lam = strcmp(t->v.name, "key") == 0 &&
                       uf__at(p, UF__TOK_KW_LAMBDA);
            uf__expr *value = lam ? key_lambda(p, &lam_param)
                                  : uf__parse_expression(p);
            if (value == NULL)
                return NULL;
            if (lam)
                lam_kw = nkw;
            if (!uf__grow(p, (void **)&kw, &kwcap, nkw, sizeof *kw))
                return NULL;
            kw[nkw].name = t->v.name;
            kw[nkw].pos = t->pos;
            kw[nkw].value = value;
            nkw++;
            last = value;
        } else {
            uf__expr *arg = uf__parse_named_expression(p);
            if (arg == NULL)
                return NULL;
            if (uf__at(p, UF__TOK_ASSIGN))
                return uf__syntax_error(p, arg->pos, "expression cannot "
                                        "contain assignment, perhaps you "
                                        "meant \"==\"?");
            if (uf__at(p, UF__TOK_KW_FOR) || uf__at(p, UF__TOK_KW_ASYNC))
                return uf__unsupported(p, arg->pos, "a generator "
                                       "expression");
            if (nkw > 0)
                return uf__syntax_error(p, arg->pos, "positional argument "
                                        "follows keyword argument");
            if (!uf__pvec_push(p, &args, arg))
                return NULL;
            last = arg;
        }
        if (!uf__accept(p, UF__TOK_COMMA))
            break;
        last = NULL;
    }
    if (!uf__accept(p, UF__TOK_RPAR))
        return uf__bad_after(p, last);
    uf__expr *e = uf__new_expr(p, UF__EX_CALL, start);
    if (e == NULL)
        return NULL;
    e->u.call.func = func;
    e->u.call.args = finish_vec(&args);
    e->u.call.nargs = args.n;
    e->u.call.kw = kw;
    e->u.call.nkw = nkw;
    e->u.call.starred = starred;
    return nkw > 0 ? uf__parse_sort_key(p, e, lam_kw, lam_param) : e;
}

/* Tokens that end a slice bound. */
static bool slice_end(uf__parser *p)
{
    uf__tok_kind k = uf__peek(p)->kind;
    return k == UF__TOK_COLON || k == UF__TOK_COMMA || k == UF__TOK_RSQB;
}

/* slice: [expression] ':' [expression] [':' [expression]]
 *      | named_expression */
static uf__expr *slice(uf__parser *p)
{
    uf__pos start = here(p);
    if (uf__at(p, UF__TOK_STAR))
        return uf__unsupported(p, start, "a starred expression");
    uf__expr *lower = NULL, *upper = NULL, *step = NULL;
    if (!uf__at(p, UF__TOK_COLON)) {
        lower = uf__parse_named_expression(p);
        if (lower == NULL || !uf__at(p, UF__TOK_COLON))
            return lower;
    }
    uf__advance(p); /* ':' */
    if (!slice_end(p) && (upper = uf__parse_expression(p)) == NULL)
        return NULL;
    if (uf__accept(p, UF__TOK_COLON) && !slice_end(p) &&
        (step = uf__parse_expression(p)) == NULL)
        return NULL;
    uf__expr *e = uf__new_expr(p, UF__EX_SLICE, start);
    if (e == NULL)
        return NULL;
    e->u.slice.lower = lower;
    e->u.slice.upper = upper;
    e->u.slice.step = step;
    return e;
}

/* slices: slice !',' | ','.slice+ [','] ; called after '['. */
static uf__expr *subscript(uf__parser *p, uf__expr *value, uf__pos start)
{
    uf__pvec index = {0};
    uf__expr *last = NULL;
    do {
        if (uf__at(p, UF__TOK_RSQB) && index.n > 0) {
            last = NULL;
            break;
        }
        last = slice(p);
        if (last == NULL || !uf__pvec_push(p, &index, last))
            return NULL;
    } while (uf__accept(p, UF__TOK_COMMA));
    if (!uf__accept(p, UF__TOK_RSQB))
        return uf__bad_after(p, last);
    uf__expr *e = uf__new_expr(p, UF__EX_SUBSCRIPT, start);
    if (e == NULL)
        return NULL;
    e->u.subscript.value = value;
    e->u.subscript.index = finish_vec(&index);
    e->u.subscript.nindex = index.n;
    return e;
}

/* strings: STRING+ (adjacent literals concatenate; str and bytes do not
 * mix) */
static uf__expr *strings(uf__parser *p)
{
    uf__token *first = uf__advance(p);
    uf__expr *e = uf__new_expr(p, UF__EX_STR, first->pos);
    if (e == NULL)
        return NULL;
    if (!uf__at(p, UF__TOK_STRING)) {
        e->u.str.s = first->v.str.s;
        e->u.str.len = first->v.str.len;
        return e;
    }
    size_t total = 0;
    int n = 1;
    for (uf__token *t = uf__peek(p); t->kind == UF__TOK_STRING; t++, n++) {
        if (t->v.str.is_bytes != first->v.str.is_bytes)
            return uf__syntax_error(p, t->pos, "cannot mix bytes and "
                                    "nonbytes literals");
    }
    for (int k = 0; k < n; k++)
        total += first[k].v.str.len;
    char *s = uf__arena_alloc(p->arena, total + 1, 1, p->err);
    if (s == NULL) {
        p->failed = true;
        return NULL;
    }
    size_t off = 0;
    for (int k = 0; k < n; k++) {
        memcpy(s + off, first[k].v.str.s, first[k].v.str.len);
        off += first[k].v.str.len;
    }
    s[off] = '\0';
    for (int k = 1; k < n; k++)
        uf__advance(p);
    e->u.str.s = s;
    e->u.str.len = total;
    return e;
}

/* Elements after the first of a parenthesized tuple or a list, up to the
 * closing token (not consumed):
 * star_named_expressions: ','.star_named_expression+ [','] */
static bool more_elements(uf__parser *p, uf__pvec *v, uf__tok_kind close,
                          uf__expr **last)
{
    while (uf__accept(p, UF__TOK_COMMA)) {
        *last = NULL;
        if (uf__at(p, close))
            break;
        if (uf__at(p, UF__TOK_STAR)) {
            uf__unsupported(p, here(p), "a starred expression");
            return false;
        }
        uf__expr *e = uf__parse_named_expression(p);
        if (e == NULL || !uf__pvec_push(p, v, e))
            return false;
        *last = e;
    }
    return true;
}

/* tuple: '(' [star_named_expression ',' [star_named_expressions]] ')'
 * group: '(' (yield_expr | named_expression) ')'
 * genexp: '(' named_expression for_if_clauses ')' (refused) */
static uf__expr *paren(uf__parser *p)
{
    uf__pos start = here(p);
    uf__advance(p);
    uf__pvec v = {0};
    uf__expr *e;
    if (uf__accept(p, UF__TOK_RPAR))
        goto tuple;
    if (uf__at(p, UF__TOK_KW_YIELD)) {
        e = uf__parse_yield_expr(p, false);
        if (e == NULL)
            return NULL;
        if (!uf__accept(p, UF__TOK_RPAR))
            return uf__unexpected(p);
        return e;
    }
    if (uf__at(p, UF__TOK_STAR))
        return uf__unsupported(p, here(p), "a starred expression");
    e = uf__parse_named_expression(p);
    if (e == NULL)
        return NULL;
    if (uf__at(p, UF__TOK_KW_FOR) || uf__at(p, UF__TOK_KW_ASYNC))
        return uf__unsupported(p, start, "a generator expression");
    if (!uf__at(p, UF__TOK_COMMA)) {
        if (!uf__accept(p, UF__TOK_RPAR))
            return uf__bad_after(p, e);
        e->parenthesized = true;
        return e;
    }
    uf__expr *last = e;
    if (!uf__pvec_push(p, &v, e) ||
        !more_elements(p, &v, UF__TOK_RPAR, &last))
        return NULL;
    if (!uf__accept(p, UF__TOK_RPAR))
        return uf__bad_after(p, last);
tuple:
    e = make_seq(p, UF__EX_TUPLE, start, &v);
    if (e != NULL)
        e->parenthesized = true;
    return e;
}

/* list: '[' [star_named_expressions] ']' | listcomp */
static uf__expr *list(uf__parser *p)
{
    uf__pos start = here(p);
    uf__advance(p);
    uf__pvec v = {0};
    uf__expr *last = NULL;
    int mark = p->npending;
    if (!uf__at(p, UF__TOK_RSQB)) {
        if (uf__at(p, UF__TOK_STAR))
            return uf__unsupported(p, here(p), "a starred expression");
        uf__expr *e = uf__parse_named_expression(p);
        if (e == NULL)
            return NULL;
        if (uf__at(p, UF__TOK_KW_FOR))
            return uf__parse_listcomp(p, start, e, mark, NULL);
        if (uf__at(p, UF__TOK_KW_ASYNC))
            return uf__unsupported(p, start, "an async comprehension");
        last = e;
        if (!uf__pvec_push(p, &v, e) ||
            !more_elements(p, &v, UF__TOK_RSQB, &last))
            return NULL;
    }
    if (!uf__accept(p, UF__TOK_RSQB))
        return uf__bad_after(p, last);
    return make_seq(p, UF__EX_LIST, start, &v);
}

/* `{}` and `{k: v, ...}` as a call of dict() (its pairs as 2n
 * arguments, `starred` marking the literal), which typing types as
 * Numba's DictType (compiler/types/infer_dict.c); `{a, b, ...}` as a
 * call of set() the same way (compiler/types/infer_set.c). */
uf__expr *uf__brace_call(uf__parser *p, uf__pos start, uf__pvec *v,
                         const char *fn)
{
    uf__expr *f = uf__new_expr(p, UF__EX_NAME, start);
    uf__expr *e = f ? uf__new_expr(p, UF__EX_CALL, start) : NULL;
    if (e == NULL)
        return NULL;
    f->u.name.id = fn;
    e->u.call.func = f;
    e->u.call.args = finish_vec(v);
    e->u.call.nargs = v->n;
    e->u.call.starred = v->n > 0;
    return e;
}

/* dict: '{' [kvpair (',' kvpair)* [',']] '}'
 * set: '{' expression (',' expression)* [','] '}'
 * dictcomp | setcomp | '*' / '**' unpacking: refused, named precisely. */
static uf__expr *brace(uf__parser *p)
{
    uf__pos start = here(p);
    uf__pvec v = {0};
    int mark = p->npending;
    uf__advance(p);
    if (uf__accept(p, UF__TOK_RBRACE))
        return uf__brace_call(p, start, &v, "dict");
    if (uf__at(p, UF__TOK_DSTAR))
        return uf__unsupported(p, start, "a dict literal with ** unpacking");
    if (uf__at(p, UF__TOK_STAR))
        return uf__unsupported(p, start, "a set literal with * unpacking");
    uf__expr *k = uf__parse_named_expression(p);
    if (k == NULL)
        return NULL;
    if (uf__accept(p, UF__TOK_COLON)) {
        uf__expr *x = uf__parse_expression(p);
        if (x == NULL)
            return NULL;
        if (uf__at(p, UF__TOK_KW_FOR))
            return uf__parse_listcomp(p, start, x, mark, k);
        if (uf__at(p, UF__TOK_KW_ASYNC))
            return uf__unsupported(p, start, "an async comprehension");
        for (;;) {
            if (!uf__pvec_push(p, &v, k) || !uf__pvec_push(p, &v, x))
                return NULL;
            if (!uf__accept(p, UF__TOK_COMMA) || uf__at(p, UF__TOK_RBRACE))
                break;
            if (uf__at(p, UF__TOK_DSTAR))
                return uf__unsupported(p, here(p), "a dict literal with "
                                       "** unpacking");
            if (!(k = uf__parse_expression(p)))
                return NULL;
            if (!uf__accept(p, UF__TOK_COLON))
                return uf__unexpected(p);
            if (!(x = uf__parse_expression(p)))
                return NULL;
        }
        if (!uf__accept(p, UF__TOK_RBRACE))
            return uf__unexpected(p);
        return uf__brace_call(p, start, &v, "dict");
    }
    if (uf__at(p, UF__TOK_KW_FOR) || uf__at(p, UF__TOK_KW_ASYNC))
        return uf__unsupported(p, start, "a set comprehension");
    for (;;) {
        if (!uf__pvec_push(p, &v, k))
            return NULL;
        if (!uf__accept(p, UF__TOK_COMMA) || uf__at(p, UF__TOK_RBRACE))
            break;
        if (uf__at(p, UF__TOK_STAR))
            return uf__unsupported(p, here(p), "a set literal with * "
                                   "unpacking");
        if (!(k = uf__parse_named_expression(p)))
            return NULL;
    }
    if (!uf__accept(p, UF__TOK_RBRACE))
        return uf__unexpected(p);
    return uf__brace_call(p, start, &v, "set");
}

/* atom:
 *     | NAME | 'True' | 'False' | 'None' | strings | NUMBER | '...'
 *     | (tuple | group | genexp) | (list | listcomp)
 *     | (dict | set | dictcomp | setcomp) (refused) */
static uf__expr *atom(uf__parser *p)
{
    uf__token *t = uf__peek(p);
    uf__expr *e;
    switch (t->kind) {
    case UF__TOK_NAME:
        if ((e = uf__new_expr(p, UF__EX_NAME, t->pos)) != NULL)
            e->u.name.id = t->v.name;
        break;
    case UF__TOK_INT:
        if ((e = uf__new_expr(p, UF__EX_INT, t->pos)) != NULL) {
            e->u.i.value = t->v.i.value;
            e->u.i.too_big = t->v.i.too_big;
        }
        break;
    case UF__TOK_FLOAT:
    case UF__TOK_IMAG:
        e = uf__new_expr(p, t->kind == UF__TOK_FLOAT ? UF__EX_FLOAT
                                                     : UF__EX_IMAG, t->pos);
        if (e != NULL)
            e->u.f = t->v.f;
        break;
    case UF__TOK_KW_TRUE:
    case UF__TOK_KW_FALSE:
        if ((e = uf__new_expr(p, UF__EX_BOOL, t->pos)) != NULL)
            e->u.b = t->kind == UF__TOK_KW_TRUE;
        break;
    case UF__TOK_KW_NONE:
        e = uf__new_expr(p, UF__EX_NONE, t->pos);
        break;
    case UF__TOK_ELLIPSIS:
        e = uf__new_expr(p, UF__EX_ELLIPSIS, t->pos);
        break;
    case UF__TOK_STRING:
        return strings(p);
    case UF__TOK_LPAR:
        return paren(p);
    case UF__TOK_LSQB:
        return list(p);
    case UF__TOK_LBRACE:
        return brace(p);
    default:
        return uf__unexpected(p);
    }
    if (e != NULL)
        uf__advance(p);
    return e;
}

/* star_targets: star_target (',' star_target)* [',']
 * The `for` target: parsed at bitwise_or level so that `in` is left for
 * the loop, then checked as a target. */
uf__expr *uf__parse_target_list(uf__parser *p)
{
    uf__pos start = here(p);
    uf__pvec v = {0};
    for (;;) {
        if (uf__at(p, UF__TOK_STAR))
            return uf__unsupported(p, here(p), "a starred expression");
        uf__expr *e = uf__parse_bitor(p);
        if (e == NULL || !uf__pvec_push(p, &v, e))
            return NULL;
        if (!uf__accept(p, UF__TOK_COMMA) || uf__at(p, UF__TOK_KW_IN))
            break;
    }
    uf__expr *target = v.n == 1 && uf__peek_at(p, -1)->kind != UF__TOK_COMMA
                           ? v.items[0]
                           : make_seq(p, UF__EX_TUPLE, start, &v);
    if (target == NULL || !uf__check_target(p, target, false))
        return NULL;
    return target;
}
