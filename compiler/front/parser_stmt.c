/* Statements: simple statements, blocks, if/for/while, function
 * definitions with decorators, imports. Statements Python has but kernels
 * do not (class, with, try, raise, del, global, ...) are refused where
 * they start. */
#include <string.h>

#include "compiler/front/parser.h"

static bool statement(uf__parser *p, uf__pvec *out);

static uf__pos here(uf__parser *p)
{
    return uf__peek(p)->pos;
}

static bool fail_unexpected(uf__parser *p)
{
    uf__unexpected(p);
    return false;
}

/* The ':' ending a compound statement's header. As in CPython, `else` and
 * `def` insist on it ("expected ':'" whatever follows), while `if`,
 * `elif`, `while` and `for` say so only at the end of the line and
 * otherwise report the unexpected token. */
static bool expect_colon(uf__parser *p, bool forced)
{
    if (uf__accept(p, UF__TOK_COLON))
        return true;
    if (uf__at(p, UF__TOK_WALRUS) || uf__at(p, UF__TOK_ERROR) ||
        (!forced && !uf__at(p, UF__TOK_NEWLINE)))
        return fail_unexpected(p);
    uf__syntax_error(p, here(p), "expected ':'");
    return false;
}

/* The condition of if/elif/while followed by ':', with CPython's hint for
 * `if x = 1:`. */
static uf__expr *condition(uf__parser *p)
{
    uf__expr *cond = uf__parse_named_expression(p);
    if (cond == NULL)
        return NULL;
    if (uf__at(p, UF__TOK_ASSIGN)) {
        uf__assign_in_expression(p, cond);
        return NULL;
    }
    return expect_colon(p, false) ? cond : NULL;
}

/* statements: statement+ (up to `end`, which is not consumed) */
bool uf__parse_statements(uf__parser *p, uf__block *b, uf__tok_kind end)
{
    uf__pvec v = {0};
    while (!uf__at(p, end)) {
        if (uf__at(p, UF__TOK_EOF) || uf__at(p, UF__TOK_DEDENT))
            return fail_unexpected(p);
        if (!statement(p, &v))
            return false;
    }
    b->stmts = (uf__stmt **)v.items;
    b->n = v.n;
    return true;
}

/* block: NEWLINE INDENT statements DEDENT | simple_stmts
 * `what` and `line` name the header for the missing-block message. */
static bool simple_stmts(uf__parser *p, uf__pvec *out);

static bool block(uf__parser *p, uf__block *b, const char *what, int line)
{
    if (!uf__at(p, UF__TOK_NEWLINE)) {
        uf__pvec v = {0};
        if (!simple_stmts(p, &v))
            return false;
        b->stmts = (uf__stmt **)v.items;
        b->n = v.n;
        return true;
    }
    uf__token *nl = uf__advance(p);
    if (!uf__at(p, UF__TOK_INDENT)) {
        uf__token *t = uf__peek(p);
        /* At the end of the file, point at the header line's end. */
        bool at_end = t->text >= p->src->text + p->src->len;
        uf__syntax_error(p, at_end ? nl->pos : t->pos, "expected an indented "
                         "block after %s on line %d", what, line);
        return false;
    }
    uf__advance(p);
    if (!uf__enter(p, here(p)))
        return false;
    bool ok = uf__parse_statements(p, b, UF__TOK_DEDENT);
    uf__leave(p);
    if (ok)
        uf__advance(p); /* DEDENT */
    return ok;
}

/* else_block: 'else' ':' block */
static bool else_block(uf__parser *p, uf__block *b)
{
    if (!uf__at(p, UF__TOK_KW_ELSE))
        return true;
    int line = uf__advance(p)->pos.line;
    return expect_colon(p, true) && block(p, b, "'else' statement", line);
}

/* if_stmt: 'if' named_expression ':' block (elif_stmt | [else_block])
 * elif_stmt: 'elif' named_expression ':' block (elif_stmt | [else_block])
 * An elif is an IF alone in its parent's orelse. */
static uf__stmt *if_stmt(uf__parser *p)
{
    uf__token *kw = uf__advance(p);
    const char *what = kw->kind == UF__TOK_KW_IF ? "'if' statement"
                                                 : "'elif' statement";
    uf__stmt *s = uf__new_stmt(p, UF__ST_IF, kw->pos);
    if (s == NULL)
        return NULL;
    bool is_elif = kw->kind != UF__TOK_KW_IF; /* runs after the if's */
    p->no_comp += is_elif;
    s->u.if_.cond = condition(p);
    p->no_comp -= is_elif;
    if (s->u.if_.cond == NULL ||
        !block(p, &s->u.if_.body, what, kw->pos.line))
        return NULL;
    if (uf__at(p, UF__TOK_KW_ELIF)) {
        uf__stmt *elif = if_stmt(p);
        if (elif == NULL)
            return NULL;
        uf__stmt **one = uf__arena_alloc(p->arena, 1, sizeof *one, p->err);
        if (one == NULL) {
            p->failed = true;
            return NULL;
        }
        one[0] = elif;
        s->u.if_.orelse.stmts = one;
        s->u.if_.orelse.n = 1;
        return s;
    }
    return else_block(p, &s->u.if_.orelse) ? s : NULL;
}

/* A loop body: `break` and `continue` are legal inside. */
static bool loop_body(uf__parser *p, uf__block *b, const char *what,
                      int line)
{
    p->loop_depth++;
    bool ok = block(p, b, what, line);
    p->loop_depth--;
    return ok;
}

/* for_stmt: 'for' star_targets 'in' star_expressions ':' block
 *           [else_block] */
static uf__stmt *for_stmt(uf__parser *p)
{
    uf__token *kw = uf__advance(p);
    uf__stmt *s = uf__new_stmt(p, UF__ST_FOR, kw->pos);
    if (s == NULL)
        return NULL;
    s->u.for_.target = uf__parse_target_list(p);
    if (s->u.for_.target == NULL)
        return NULL;
    if (!uf__accept(p, UF__TOK_KW_IN))
        return uf__unexpected(p);
    s->u.for_.iter = uf__parse_star_expressions(p);
    if (s->u.for_.iter == NULL || !expect_colon(p, false) ||
        !loop_body(p, &s->u.for_.body, "'for' statement", kw->pos.line) ||
        !else_block(p, &s->u.for_.orelse))
        return NULL;
    return s;
}

/* while_stmt: 'while' named_expression ':' block [else_block] */
static uf__stmt *while_stmt(uf__parser *p)
{
    uf__token *kw = uf__advance(p);
    uf__stmt *s = uf__new_stmt(p, UF__ST_WHILE, kw->pos);
    if (s == NULL)
        return NULL;
    p->no_comp++; /* evaluated again before each iteration */
    s->u.while_.cond = condition(p);
    p->no_comp--;
    if (s->u.while_.cond == NULL ||
        !loop_body(p, &s->u.while_.body, "'while' statement",
                   kw->pos.line) ||
        !else_block(p, &s->u.while_.orelse))
        return NULL;
    return s;
}

/* params: param (',' param)* [',']
 * param: NAME [':' expression] ['=' expression]
 * Annotations are read and dropped (Numba ignores them too); `*args`,
 * `**kwargs`, bare `*` and `/` are refused. Called after '('. */
static bool params(uf__parser *p, uf__stmt *s)
{
    uf__param *ps = NULL;
    int n = 0, cap = 0;
    while (!uf__at(p, UF__TOK_RPAR)) {
        uf__token *t = uf__peek(p);
        if (t->kind == UF__TOK_STAR) {
            uf__unsupported(p, t->pos, uf__peek_at(p, 1)->kind == UF__TOK_NAME
                                           ? "a '*args' parameter"
                                           : "a keyword-only parameter");
            return false;
        }
        if (t->kind == UF__TOK_DSTAR) {
            uf__unsupported(p, t->pos, "a '**kwargs' parameter");
            return false;
        }
        if (t->kind == UF__TOK_SLASH) {
            uf__unsupported(p, t->pos, "a positional-only parameter");
            return false;
        }
        if (t->kind != UF__TOK_NAME)
            return fail_unexpected(p);
        for (int k = 0; k < n; k++)
            if (strcmp(ps[k].name, t->v.name) == 0) {
                uf__syntax_error(p, t->pos, "duplicate argument '%s' in "
                                 "function definition", t->v.name);
                return false;
            }
        uf__advance(p);
        if (uf__accept(p, UF__TOK_COLON) && uf__parse_expression(p) == NULL)
            return false;
        uf__expr *def = NULL;
        if (uf__accept(p, UF__TOK_ASSIGN)) {
            def = uf__parse_expression(p);
            if (def == NULL)
                return false;
        } else if (n > 0 && ps[n - 1].default_value != NULL) {
            uf__syntax_error(p, t->pos, "non-default argument follows "
                             "default argument");
            return false;
        }
        if (!uf__grow(p, (void **)&ps, &cap, n, sizeof *ps))
            return false;
        ps[n].name = t->v.name;
        ps[n].pos = t->pos;
        ps[n].default_value = def;
        n++;
        if (!uf__accept(p, UF__TOK_COMMA))
            break;
    }
    if (!uf__accept(p, UF__TOK_RPAR))
        return fail_unexpected(p);
    s->u.funcdef.params = ps;
    s->u.funcdef.nparams = n;
    return true;
}

/* function_def: [decorators] 'def' NAME '(' [params] ')' ['->' expression]
 *               ':' block
 * decorators: ('@' named_expression NEWLINE)+
 * Nested defs parse (the typer decides about them). */
static uf__stmt *funcdef(uf__parser *p)
{
    uf__pvec decos = {0};
    while (uf__accept(p, UF__TOK_AT)) {
        uf__expr *d = uf__parse_named_expression(p);
        if (d == NULL || !uf__pvec_push(p, &decos, d))
            return NULL;
        if (!uf__accept(p, UF__TOK_NEWLINE))
            return uf__unexpected(p);
    }
    uf__token *kw = uf__peek(p);
    if (kw->kind == UF__TOK_KW_CLASS)
        return uf__unsupported(p, kw->pos, "a class definition");
    if (kw->kind == UF__TOK_KW_ASYNC)
        return uf__unsupported(p, kw->pos, "'async'");
    if (kw->kind != UF__TOK_KW_DEF)
        return uf__unexpected(p);
    uf__advance(p);
    uf__stmt *s = uf__new_stmt(p, UF__ST_FUNCDEF, kw->pos);
    if (s == NULL)
        return NULL;
    uf__token *name = uf__peek(p);
    if (name->kind != UF__TOK_NAME)
        return uf__unexpected(p);
    uf__advance(p);
    s->u.funcdef.name = name->v.name;
    s->u.funcdef.name_pos = name->pos;
    s->u.funcdef.decorators = (uf__expr **)decos.items;
    s->u.funcdef.ndecorators = decos.n;
    if (!uf__accept(p, UF__TOK_LPAR)) {
        if (uf__at(p, UF__TOK_ERROR))
            return uf__unexpected(p);
        return uf__syntax_error(p, here(p), "expected '('");
    }
    if (!params(p, s))
        return NULL;
    if (uf__accept(p, UF__TOK_ARROW) && uf__parse_expression(p) == NULL)
        return NULL;
    if (!expect_colon(p, true))
        return NULL;
    int saved_loops = p->loop_depth, saved_excepts = p->except_depth;
    uf__stmt *saved_def = p->def;
    p->loop_depth = 0;
    p->except_depth = 0;
    p->def = s;
    p->func_depth++;
    bool ok = block(p, &s->u.funcdef.body, "function definition",
                    kw->pos.line);
    p->func_depth--;
    p->loop_depth = saved_loops;
    p->except_depth = saved_excepts;
    p->def = saved_def;
    return ok ? s : NULL;
}

/* dotted_name: dotted_name '.' NAME | NAME ; joined as "numba.cuda". */
static const char *dotted_name(uf__parser *p)
{
    int start = p->i;
    size_t len = 0;
    for (;;) {
        uf__token *t = uf__peek(p);
        if (t->kind != UF__TOK_NAME) {
            uf__unexpected(p);
            return NULL;
        }
        len += t->len;
        uf__advance(p);
        if (!uf__at(p, UF__TOK_DOT))
            break;
        uf__advance(p);
        len++;
    }
    char *s = uf__arena_alloc(p->arena, len + 1, 1, p->err);
    if (s == NULL) {
        p->failed = true;
        return NULL;
    }
    size_t off = 0;
    for (int k = start; k < p->i; k++) {
        memcpy(s + off, p->toks[k].text, p->toks[k].len);
        off += p->toks[k].len;
    }
    s[off] = '\0';
    return s;
}

/* [ 'as' NAME ] after an imported name */
static bool as_name(uf__parser *p, uf__alias *a)
{
    if (!uf__accept(p, UF__TOK_KW_AS))
        return true;
    if (!uf__at(p, UF__TOK_NAME))
        return fail_unexpected(p);
    a->asname = uf__advance(p)->v.name;
    return true;
}

/* import_name: 'import' dotted_as_names
 * dotted_as_names: ','.dotted_as_name+
 * dotted_as_name: dotted_name ['as' NAME] */
static uf__stmt *import_name(uf__parser *p)
{
    uf__stmt *s = uf__new_stmt(p, UF__ST_IMPORT, uf__advance(p)->pos);
    if (s == NULL)
        return NULL;
    uf__alias *names = NULL;
    int n = 0, cap = 0;
    do {
        if (!uf__grow(p, (void **)&names, &cap, n, sizeof *names))
            return NULL;
        uf__alias *a = &names[n];
        a->pos = here(p);
        if ((a->name = dotted_name(p)) == NULL || !as_name(p, a))
            return NULL;
        n++;
    } while (uf__accept(p, UF__TOK_COMMA));
    s->u.import.names = names;
    s->u.import.n = n;
    return s;
}

/* import_from:
 *     | 'from' ('.' | '...')* dotted_name 'import' import_from_targets
 *     | 'from' ('.' | '...')+ 'import' import_from_targets
 * import_from_targets:
 *     | '(' import_from_as_names [','] ')'
 *     | import_from_as_names !','
 *     | '*' (refused)
 * import_from_as_name: NAME ['as' NAME] */
static uf__stmt *import_from(uf__parser *p)
{
    uf__stmt *s = uf__new_stmt(p, UF__ST_IMPORTFROM, uf__advance(p)->pos);
    if (s == NULL)
        return NULL;
    int level = 0;
    for (;;) {
        if (uf__accept(p, UF__TOK_DOT))
            level++;
        else if (uf__accept(p, UF__TOK_ELLIPSIS))
            level += 3;
        else
            break;
    }
    s->u.importfrom.level = level;
    s->u.importfrom.module = "";
    if (level == 0 || !uf__at(p, UF__TOK_KW_IMPORT)) {
        s->u.importfrom.module = dotted_name(p);
        if (s->u.importfrom.module == NULL)
            return NULL;
    }
    if (!uf__accept(p, UF__TOK_KW_IMPORT))
        return uf__unexpected(p);
    if (uf__at(p, UF__TOK_STAR))
        return uf__unsupported(p, here(p), "'from ... import *'");
    bool parens = uf__accept(p, UF__TOK_LPAR);
    uf__alias *names = NULL;
    int n = 0, cap = 0;
    for (;;) {
        uf__token *t = uf__peek(p);
        if (t->kind != UF__TOK_NAME)
            return uf__unexpected(p);
        if (!uf__grow(p, (void **)&names, &cap, n, sizeof *names))
            return NULL;
        names[n].name = t->v.name;
        names[n].pos = t->pos;
        uf__advance(p);
        if (!as_name(p, &names[n]))
            return NULL;
        n++;
        if (!uf__accept(p, UF__TOK_COMMA))
            break;
        if (parens && uf__at(p, UF__TOK_RPAR))
            break;
        if (!parens && uf__at(p, UF__TOK_NEWLINE))
            return uf__syntax_error(p, here(p), "trailing comma not allowed "
                                    "without surrounding parentheses");
    }
    if (parens && !uf__accept(p, UF__TOK_RPAR))
        return uf__unexpected(p);
    s->u.importfrom.names = names;
    s->u.importfrom.n = n;
    return s;
}

/* Augmented assignment operators and their binary operation. */
static bool augassign_op(uf__tok_kind k, uf__binop *op)
{
    switch (k) {
    case UF__TOK_PLUSEQ: *op = UF__OP_ADD; return true;
    case UF__TOK_MINUSEQ: *op = UF__OP_SUB; return true;
    case UF__TOK_STAREQ: *op = UF__OP_MUL; return true;
    case UF__TOK_SLASHEQ: *op = UF__OP_DIV; return true;
    case UF__TOK_DSLASHEQ: *op = UF__OP_FLOORDIV; return true;
    case UF__TOK_PERCENTEQ: *op = UF__OP_MOD; return true;
    case UF__TOK_DSTAREQ: *op = UF__OP_POW; return true;
    case UF__TOK_AMPEQ: *op = UF__OP_BITAND; return true;
    case UF__TOK_PIPEEQ: *op = UF__OP_BITOR; return true;
    case UF__TOK_CARETEQ: *op = UF__OP_BITXOR; return true;
    case UF__TOK_LSHIFTEQ: *op = UF__OP_LSHIFT; return true;
    case UF__TOK_RSHIFTEQ: *op = UF__OP_RSHIFT; return true;
    case UF__TOK_ATEQ: *op = UF__OP_MATMUL; return true;
    default: return false;
    }
}

/* NAME '=' 'lambda' [NAME (',' NAME)*] ':' expression, inside a def: the
 * nested def `def NAME(params): return expression` (compiler/front/
 * closures.c lifts it, as Numba inlines a lambda it only calls). Other
 * lambdas are refused where the expression parser meets them. */
static uf__stmt *lambda_assign(uf__parser *p)
{
    uf__token *name = uf__advance(p);
    uf__advance(p); /* '=' */
    uf__token *kw = uf__advance(p);
    uf__stmt *s = uf__new_stmt(p, UF__ST_FUNCDEF, name->pos);
    if (s == NULL)
        return NULL;
    s->u.funcdef.name = name->v.name;
    s->u.funcdef.name_pos = name->pos;
    uf__param *ps = NULL;
    int n = 0, cap = 0;
    while (!uf__at(p, UF__TOK_COLON)) {
        uf__token *t = uf__peek(p);
        if (t->kind != UF__TOK_NAME)
            return uf__unexpected(p);
        for (int k = 0; k < n; k++)
            if (strcmp(ps[k].name, t->v.name) == 0)
                return uf__syntax_error(p, t->pos, "duplicate argument '%s' "
                                        "in function definition", t->v.name);
        if (!uf__grow(p, (void **)&ps, &cap, n, sizeof *ps))
            return NULL;
        uf__advance(p);
        ps[n].name = t->v.name;
        ps[n].pos = t->pos;
        ps[n].default_value = NULL;
        n++;
        if (uf__at(p, UF__TOK_ASSIGN))
            return uf__unsupported(p, uf__peek(p)->pos, "a lambda parameter's "
                                   "default value");
        if (!uf__accept(p, UF__TOK_COMMA))
            break;
    }
    if (!uf__accept(p, UF__TOK_COLON))
        return uf__unexpected(p);
    s->u.funcdef.params = ps;
    s->u.funcdef.nparams = n;
    uf__expr *body = uf__parse_expression(p);
    if (body == NULL)
        return NULL;
    uf__stmt *r = uf__new_stmt(p, UF__ST_RETURN, kw->pos);
    uf__stmt **stmts = uf__arena_alloc(p->arena, 1, sizeof *stmts, p->err);
    if (r == NULL || stmts == NULL) {
        p->failed = true;
        return NULL;
    }
    r->u.ret.value = body;
    stmts[0] = r;
    s->u.funcdef.body.stmts = stmts;
    s->u.funcdef.body.n = 1;
    return s;
}

/* assignment:
 *     | NAME ':' expression ['=' expression] (refused)
 *     | (star_targets '=')+ star_expressions !'='
 *     | single_target augassign star_expressions
 * star_expressions (an expression statement) */
static uf__stmt *expr_stmt(uf__parser *p)
{
    uf__pos start = here(p);
    if (p->func_depth > 0 && uf__at(p, UF__TOK_NAME) &&
        uf__peek_at(p, 1)->kind == UF__TOK_ASSIGN &&
        uf__peek_at(p, 2)->kind == UF__TOK_KW_LAMBDA)
        return lambda_assign(p);
    if (uf__at(p, UF__TOK_KW_YIELD)) { /* a yield statement */
        uf__expr *y = uf__parse_yield_expr(p, true);
        if (y == NULL)
            return NULL;
        if (!uf__at(p, UF__TOK_NEWLINE) && !uf__at(p, UF__TOK_SEMI))
            return uf__unexpected(p);
        uf__stmt *s = uf__new_stmt(p, UF__ST_EXPR, start);
        if (s != NULL)
            s->u.expr.value = y;
        return s;
    }
    uf__expr *first = uf__parse_star_expressions(p);
    if (first == NULL)
        return NULL;
    uf__binop op;
    if (uf__at(p, UF__TOK_COLON))
        return uf__unsupported(p, start, "an annotated assignment");
    if (augassign_op(uf__peek(p)->kind, &op)) {
        if (first->kind != UF__EX_NAME && first->kind != UF__EX_ATTR &&
            first->kind != UF__EX_SUBSCRIPT)
            return uf__syntax_error(p, first->pos, "'%s' is an illegal "
                                    "expression for augmented assignment",
                                    uf__expr_desc(first));
        uf__advance(p);
        uf__expr *value = uf__parse_star_expressions(p);
        if (value == NULL)
            return NULL;
        uf__stmt *s = uf__new_stmt(p, UF__ST_AUGASSIGN, start);
        if (s == NULL)
            return NULL;
        s->u.augassign.target = first;
        s->u.augassign.op = op;
        s->u.augassign.value = value;
        return s;
    }
    if (!uf__at(p, UF__TOK_ASSIGN)) {
        uf__stmt *s = uf__new_stmt(p, UF__ST_EXPR, start);
        if (s != NULL)
            s->u.expr.value = first;
        return s;
    }
    uf__pvec v = {0};
    if (!uf__pvec_push(p, &v, first))
        return NULL;
    while (uf__accept(p, UF__TOK_ASSIGN)) {
        uf__expr *e = uf__parse_star_expressions(p);
        if (e == NULL || !uf__pvec_push(p, &v, e))
            return NULL;
    }
    int ntargets = v.n - 1;
    for (int k = 0; k < ntargets; k++)
        if (!uf__check_target(p, v.items[k], ntargets == 1))
            return NULL;
    uf__stmt *s = uf__new_stmt(p, UF__ST_ASSIGN, start);
    if (s == NULL)
        return NULL;
    s->u.assign.targets = (uf__expr **)v.items;
    s->u.assign.ntargets = ntargets;
    s->u.assign.value = v.items[ntargets];
    return s;
}

/* 'raise' NAME ['(' args ')']: the forms Numba compiles, an exception
 * class or a call of one with positional arguments. A bare re-raise,
 * `raise ... from ...` and an exception held in a variable are refused
 * here (Numba has no try to re-raise from, nor exception values). */
static uf__stmt *raise_stmt(uf__parser *p)
{
    uf__token *t = uf__advance(p);
    if ((uf__at(p, UF__TOK_NEWLINE) || uf__at(p, UF__TOK_SEMI)) &&
        p->except_depth > 0) {
        if (!uf__refuse_in_def(p, t->pos, "re-raising the caught exception "
                           "(Numba: \"The re-raising of an exception is not "
                           "yet supported.\")"))
            return NULL;
        return uf__new_stmt(p, UF__ST_PASS, t->pos);
    }
    if (uf__at(p, UF__TOK_NEWLINE) || uf__at(p, UF__TOK_SEMI))
        return uf__unsupported(p, t->pos, "a bare 'raise' (re-raise)");
    uf__expr *e = uf__parse_expression(p);
    if (e == NULL)
        return NULL;
    if (uf__at(p, UF__TOK_KW_FROM))
        return uf__unsupported(p, uf__peek(p)->pos, "'raise ... from'");
    uf__stmt *s = uf__new_stmt(p, UF__ST_RAISE, t->pos);
    if (s == NULL)
        return NULL;
    uf__expr *cls = e->kind == UF__EX_CALL ? e->u.call.func : e;
    if (cls->kind != UF__EX_NAME)
        return uf__unsupported(p, cls->pos, "raising something other than "
                               "an exception class or a call of one");
    if (e->kind == UF__EX_CALL && e->u.call.nkw > 0)
        return uf__unsupported(p, e->u.call.kw[0].pos, "keyword arguments "
                               "of an exception");
    s->u.raise.cls = cls->u.name.id;
    s->u.raise.cls_pos = cls->pos;
    if (e->kind == UF__EX_CALL) {
        s->u.raise.args = e->u.call.args;
        s->u.raise.nargs = e->u.call.nargs;
    }
    return s;
}

/* simple_stmt:
 *     | assignment | star_expressions
 *     | 'return' [star_expressions] | 'pass' | 'break' | 'continue'
 *     | 'assert' expression [',' expression]
 *     | import_name | import_from
 *     | 'raise' NAME ['(' [args] ')']
 *     | 'del' del_targets
 *     | 'global' | 'nonlocal' (refused) | 'yield' (parser_yield.c) */
static uf__stmt *simple_stmt(uf__parser *p)
{
    uf__token *t = uf__peek(p);
    uf__stmt *s;
    switch (t->kind) {
    case UF__TOK_KW_RETURN:
        if (p->func_depth == 0)
            return uf__syntax_error(p, t->pos, "'return' outside function");
        uf__advance(p);
        if ((s = uf__new_stmt(p, UF__ST_RETURN, t->pos)) == NULL)
            return NULL;
        if (!uf__at(p, UF__TOK_NEWLINE) && !uf__at(p, UF__TOK_SEMI) &&
            (s->u.ret.value = uf__parse_star_expressions(p)) == NULL)
            return NULL;
        return s;
    case UF__TOK_KW_PASS:
        uf__advance(p);
        return uf__new_stmt(p, UF__ST_PASS, t->pos);
    case UF__TOK_KW_BREAK:
        if (p->loop_depth == 0)
            return uf__syntax_error(p, t->pos, "'break' outside loop");
        uf__advance(p);
        return uf__new_stmt(p, UF__ST_BREAK, t->pos);
    case UF__TOK_KW_CONTINUE:
        if (p->loop_depth == 0)
            return uf__syntax_error(p, t->pos, "'continue' not properly in "
                                    "loop");
        uf__advance(p);
        return uf__new_stmt(p, UF__ST_CONTINUE, t->pos);
    case UF__TOK_KW_ASSERT:
        uf__advance(p);
        if ((s = uf__new_stmt(p, UF__ST_ASSERT, t->pos)) == NULL ||
            (s->u.assert_.test = uf__parse_expression(p)) == NULL)
            return NULL;
        if (uf__accept(p, UF__TOK_COMMA) &&
            (s->u.assert_.msg = uf__parse_expression(p)) == NULL)
            return NULL;
        return s;
    case UF__TOK_KW_IMPORT:
        return import_name(p);
    case UF__TOK_KW_FROM:
        return import_from(p);
    case UF__TOK_KW_DEL:
        return uf__parse_del(p); /* parser_del.c */
    case UF__TOK_KW_GLOBAL:
        return uf__unsupported(p, t->pos, "the 'global' statement");
    case UF__TOK_KW_NONLOCAL:
        return uf__unsupported(p, t->pos, "the 'nonlocal' statement");
    case UF__TOK_KW_RAISE:
        return raise_stmt(p);
    default:
        return expr_stmt(p);
    }
}

/* The statements list comprehensions in the statement just parsed were
 * rewritten into (parser_expr.c), from `mark` on, go before it. */
static bool flush(uf__parser *p, uf__pvec *out, int mark)
{
    for (int i = mark; i < p->npending; i++)
        if (!uf__pvec_push(p, out, p->pending[i]))
            return false;
    p->npending = mark;
    return true;
}

/* simple_stmts: simple_stmt (';' simple_stmt)* [';'] NEWLINE */
static bool simple_stmts(uf__parser *p, uf__pvec *out)
{
    for (;;) {
        int mark = p->npending;
        uf__stmt *s = simple_stmt(p);
        if (s == NULL || !flush(p, out, mark) || !uf__pvec_push(p, out, s))
            return false;
        if (uf__accept(p, UF__TOK_SEMI)) {
            if (uf__accept(p, UF__TOK_NEWLINE))
                return true;
            continue;
        }
        if (uf__accept(p, UF__TOK_NEWLINE))
            return true;
        return fail_unexpected(p);
    }
}

/* A form of try Numba refuses compiling the function it is in: inside a
 * def, recorded on the def (the first one), which typing reports at pos
 * when the function is compiled, as Numba's TypingError, so that the
 * file's other functions still compile; at module level, refused now.
 * False when parsing must stop. */
bool uf__refuse_in_def(uf__parser *p, uf__pos pos, const char *construct)
{
    if (p->def == NULL) {
        uf__unsupported(p, pos, construct);
        return false;
    }
    if (p->def->u.funcdef.refused != NULL)
        return true;
    static const char tail[] = " is not supported in kernels";
    size_t len = strlen(construct) + sizeof tail;
    char *m = uf__arena_alloc(p->arena, len, 1, p->err);
    if (m == NULL) {
        p->failed = true;
        return false;
    }
    memcpy(m, construct, strlen(construct));
    memcpy(m + strlen(construct), tail, sizeof tail);
    p->def->u.funcdef.refused = m;
    p->def->u.funcdef.refused_pos = pos;
    p->def->u.funcdef.refused_code = UF_ERR_UNSUPPORTED;
    return true;
}

/* A return, or a break/continue of a loop enclosing the block (in_loop:
 * of a loop inside it), in b: what would leave a try with a finally. */
static const uf__stmt *leaves(const uf__block *b, bool in_loop)
{
    for (int i = 0; i < b->n; i++) {
        const uf__stmt *s = b->stmts[i], *x = NULL;
        switch (s->kind) {
        case UF__ST_RETURN:
            return s;
        case UF__ST_BREAK:
        case UF__ST_CONTINUE:
            if (!in_loop)
                return s;
            break;
        case UF__ST_IF:
            if (!(x = leaves(&s->u.if_.body, in_loop)))
                x = leaves(&s->u.if_.orelse, in_loop);
            break;
        case UF__ST_FOR:
            if (!(x = leaves(&s->u.for_.body, true)))
                x = leaves(&s->u.for_.orelse, in_loop);
            break;
        case UF__ST_WHILE:
            if (!(x = leaves(&s->u.while_.body, true)))
                x = leaves(&s->u.while_.orelse, in_loop);
            break;
        default:
            break;
        }
        if (x)
            return x;
    }
    return NULL;
}

/* except_block: 'except' [expression ['as' NAME]] ':' block
 * Numba 0.68 matches only Exception (a bare except is the same), and
 * binds no exception object: other classes, tuples of classes and `as`
 * are refused with its reasons, when the function is compiled
 * (uf__refuse_in_def). */
static bool except_block(uf__parser *p, uf__block *h)
{
    uf__token *kw = uf__advance(p);
    if (!uf__at(p, UF__TOK_COLON)) {
        uf__expr *cls = uf__parse_expression(p);
        if (cls == NULL)
            return false;
        if ((cls->kind != UF__EX_NAME ||
             strcmp(cls->u.name.id, "Exception") != 0) &&
            !uf__refuse_in_def(p, cls->pos, "catching an exception other than "
                           "Exception (Numba: \"Exception matching is "
                           "limited to <class 'Exception'>\")"))
            return false;
        if (uf__at(p, UF__TOK_KW_AS)) {
            uf__token *as = uf__advance(p);
            if (!uf__refuse_in_def(p, as->pos, "binding the exception with 'as' "
                               "(Numba: \"Exception object cannot be stored "
                               "into variable\")"))
                return false;
            if (!uf__accept(p, UF__TOK_NAME)) {
                uf__unexpected(p);
                return false;
            }
        }
    }
    p->except_depth++;
    bool ok = expect_colon(p, true) &&
              block(p, h, "'except' statement", kw->pos.line);
    p->except_depth--;
    return ok;
}

/* Appends b's statements to out. */
static bool push_block(uf__parser *p, uf__pvec *out, const uf__block *b)
{
    for (int i = 0; i < b->n; i++)
        if (!uf__pvec_push(p, out, b->stmts[i]))
            return false;
    return true;
}

/* try_stmt: 'try' ':' block except_block+ [else_block] [finally_block]
 *         | 'try' ':' block finally_block
 * finally_block: 'finally' ':' block
 * As Numba 0.68 does: the first except clause catches every exception the
 * try block raises (later ones never run); the else block runs when none
 * was raised, its exceptions propagate; the finally block runs after the
 * try statement when control falls out of it. An exception leaving the
 * statement does not run it (Numba 0.68 then stops with an internal
 * AssertionError), nor would a return, break or continue here, which
 * Numba does run it for: those are refused in a try with a finally
 * (uf__refuse_in_def).
 * Becomes an IF with is_try (ast.h) followed by the finally block's
 * statements; a try/finally alone is its two blocks in sequence. */
static bool try_stmt(uf__parser *p, uf__pvec *out)
{
    uf__token *kw = uf__advance(p);
    uf__block body = {0}, handler = {0}, orelse = {0}, fin = {0};
    if (!expect_colon(p, true) ||
        !block(p, &body, "'try' statement", kw->pos.line))
        return false;
    int nexcept = 0;
    while (uf__at(p, UF__TOK_KW_EXCEPT)) {
        uf__block h = {0};
        if (!except_block(p, &h))
            return false;
        if (nexcept++ == 0)
            handler = h;
    }
    if (nexcept > 0 && !else_block(p, &orelse))
        return false;
    if (uf__at(p, UF__TOK_KW_FINALLY)) {
        int line = uf__advance(p)->pos.line;
        if (!expect_colon(p, true) ||
            !block(p, &fin, "'finally' statement", line))
            return false;
        const uf__stmt *x = leaves(&body, false);
        if (!x)
            x = leaves(&handler, false);
        if (!x)
            x = leaves(&orelse, false);
        if (x && !uf__refuse_in_def(p, x->pos, "leaving a try that has a "
                                "finally block by return, break or "
                                "continue"))
            return false;
    } else if (nexcept == 0) {
        uf__syntax_error(p, here(p), "expected 'except' or 'finally' block");
        return false;
    }
    if (nexcept == 0)
        return push_block(p, out, &body) && push_block(p, out, &fin);
    uf__stmt *s = uf__new_stmt(p, UF__ST_IF, kw->pos);
    uf__stmt **all = uf__arena_alloc(p->arena, (size_t)(body.n + orelse.n) + 1,
                                     sizeof *all, p->err);
    if (s == NULL || all == NULL) {
        p->failed = true;
        return false;
    }
    for (int i = 0; i < body.n; i++)
        all[i] = body.stmts[i];
    for (int i = 0; i < orelse.n; i++)
        all[body.n + i] = orelse.stmts[i];
    s->u.if_.is_try = true;
    s->u.if_.ntry = body.n;
    s->u.if_.body.stmts = all;
    s->u.if_.body.n = body.n + orelse.n;
    s->u.if_.orelse = handler;
    return uf__pvec_push(p, out, s) && push_block(p, out, &fin);
}

/* statement: compound_stmt | simple_stmts
 * compound_stmt: function_def | if_stmt | for_stmt | while_stmt
 *              | class_def | with_stmt | try_stmt | async (refused) */
static bool statement(uf__parser *p, uf__pvec *out)
{
    uf__token *t = uf__peek(p);
    uf__stmt *s;
    int mark = p->npending;
    switch (t->kind) {
    case UF__TOK_INDENT:
        return fail_unexpected(p);
    case UF__TOK_AT:
    case UF__TOK_KW_DEF:
        s = funcdef(p);
        break;
    case UF__TOK_KW_IF:
        s = if_stmt(p);
        break;
    case UF__TOK_KW_FOR:
        s = for_stmt(p);
        break;
    case UF__TOK_KW_WHILE:
        s = while_stmt(p);
        break;
    case UF__TOK_KW_CLASS:
        uf__unsupported(p, t->pos, "a class definition");
        return false;
    case UF__TOK_KW_WITH:
        uf__unsupported(p, t->pos, "the 'with' statement");
        return false;
    case UF__TOK_KW_TRY:
        return try_stmt(p, out);
    case UF__TOK_KW_ASYNC:
        uf__unsupported(p, t->pos, "'async'");
        return false;
    default:
        return simple_stmts(p, out);
    }
    return s != NULL && flush(p, out, mark) && uf__pvec_push(p, out, s);
}
