/* The walks of compiler/ast_visit.h. */
#include "compiler/ast_visit.h"

#define VISIT(x)                                                            \
    do {                                                                    \
        if ((x) != NULL && (rc = fn((x), ud)) != 0)                         \
            return rc;                                                      \
    } while (0)

static int visit_all(uf__expr *const *xs, int n, uf__ast_expr_fn fn, void *ud)
{
    int rc;
    for (int i = 0; i < n; i++)
        VISIT(xs[i]);
    return 0;
}

int uf__ast_children(const uf__expr *e, uf__ast_expr_fn fn, void *ud)
{
    int rc;
    switch (e->kind) {
    case UF__EX_ATTR:
        VISIT(e->u.attr.value);
        return 0;
    case UF__EX_CALL:
        VISIT(e->u.call.func);
        if ((rc = visit_all(e->u.call.args, e->u.call.nargs, fn, ud)) != 0)
            return rc;
        for (int i = 0; i < e->u.call.nkw; i++)
            VISIT(e->u.call.kw[i].value);
        return 0;
    case UF__EX_SUBSCRIPT:
        VISIT(e->u.subscript.value);
        return visit_all(e->u.subscript.index, e->u.subscript.nindex, fn, ud);
    case UF__EX_SLICE:
        VISIT(e->u.slice.lower);
        VISIT(e->u.slice.upper);
        VISIT(e->u.slice.step);
        return 0;
    case UF__EX_UNARY:
        VISIT(e->u.unary.operand);
        return 0;
    case UF__EX_BINARY:
        VISIT(e->u.binary.left);
        VISIT(e->u.binary.right);
        return 0;
    case UF__EX_BOOLOP:
        return visit_all(e->u.boolop.values, e->u.boolop.n, fn, ud);
    case UF__EX_COMPARE:
        return visit_all(e->u.compare.operands, e->u.compare.nops + 1, fn, ud);
    case UF__EX_IFEXP:
        VISIT(e->u.ifexp.cond);
        VISIT(e->u.ifexp.then);
        VISIT(e->u.ifexp.orelse);
        return 0;
    case UF__EX_TUPLE:
    case UF__EX_LIST:
        return visit_all(e->u.seq.elts, e->u.seq.n, fn, ud);
    default: /* literals and names */
        return 0;
    }
}

int uf__ast_stmt_exprs(const uf__stmt *s, uf__ast_expr_fn fn, void *ud)
{
    int rc;
    switch (s->kind) {
    case UF__ST_EXPR:
        VISIT(s->u.expr.value);
        return 0;
    case UF__ST_ASSIGN:
        if ((rc = visit_all(s->u.assign.targets, s->u.assign.ntargets, fn,
                            ud)) != 0)
            return rc;
        VISIT(s->u.assign.value);
        return 0;
    case UF__ST_AUGASSIGN:
        VISIT(s->u.augassign.target);
        VISIT(s->u.augassign.value);
        return 0;
    case UF__ST_IF:
        VISIT(s->u.if_.cond);
        return 0;
    case UF__ST_FOR:
        VISIT(s->u.for_.target);
        VISIT(s->u.for_.iter);
        return 0;
    case UF__ST_WHILE:
        VISIT(s->u.while_.cond);
        return 0;
    case UF__ST_RETURN:
        VISIT(s->u.ret.value);
        return 0;
    case UF__ST_ASSERT:
        VISIT(s->u.assert_.test);
        VISIT(s->u.assert_.msg);
        return 0;
    case UF__ST_FUNCDEF:
        if ((rc = visit_all(s->u.funcdef.decorators, s->u.funcdef.ndecorators,
                            fn, ud)) != 0)
            return rc;
        for (int i = 0; i < s->u.funcdef.nparams; i++)
            VISIT(s->u.funcdef.params[i].default_value);
        return 0;
    default:
        return 0;
    }
}

int uf__ast_stmt_targets(const uf__stmt *s, uf__ast_expr_fn fn, void *ud)
{
    switch (s->kind) {
    case UF__ST_ASSIGN:
        return visit_all(s->u.assign.targets, s->u.assign.ntargets, fn, ud);
    case UF__ST_AUGASSIGN:
        return fn(s->u.augassign.target, ud);
    case UF__ST_FOR:
        return fn(s->u.for_.target, ud);
    default:
        return 0;
    }
}

int uf__ast_stmt_blocks(const uf__stmt *s, uf__ast_block_fn fn, void *ud)
{
    const uf__block *first, *second = NULL;
    switch (s->kind) {
    case UF__ST_IF:
        first = &s->u.if_.body;
        second = &s->u.if_.orelse;
        break;
    case UF__ST_FOR:
        first = &s->u.for_.body;
        second = &s->u.for_.orelse;
        break;
    case UF__ST_WHILE:
        first = &s->u.while_.body;
        second = &s->u.while_.orelse;
        break;
    case UF__ST_FUNCDEF:
        first = &s->u.funcdef.body;
        break;
    default:
        return 0;
    }
    int rc = fn(first, ud);
    return rc != 0 || second == NULL ? rc : fn(second, ud);
}

typedef struct stmt_walk {
    uf__ast_stmt_fn fn;
    void *ud;
} stmt_walk;

static int walk_block(const uf__block *b, void *w);

static int walk_nested(uf__stmt *s, stmt_walk *w)
{
    if (s->kind == UF__ST_FUNCDEF)
        return 0;
    return uf__ast_stmt_blocks(s, walk_block, w);
}

static int walk_block(const uf__block *b, void *ud)
{
    stmt_walk *w = ud;
    for (int i = 0; i < b->n; i++) {
        int rc = w->fn(b->stmts[i], w->ud);
        if (rc == 0)
            rc = walk_nested(b->stmts[i], w);
        if (rc != 0)
            return rc;
    }
    return 0;
}

int uf__ast_walk_stmts(const uf__block *b, uf__ast_stmt_fn fn, void *ud)
{
    stmt_walk w = {fn, ud};
    return walk_block(b, &w);
}
