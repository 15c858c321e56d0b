/* The statement walks of compiler/front/ast_visit.h (the expression one is
 * inline there). */
#include "compiler/front/ast_visit.h"

#include <string.h>

int uf__ast_stmt_exprs(const uf__stmt *s, uf__ast_expr_fn fn, void *ud)
{
    int rc;
    switch (s->kind) {
    case UF__ST_EXPR:
        return uf__ast_visit_n(&s->u.expr.value, 1, fn, ud);
    case UF__ST_ASSIGN:
        rc = uf__ast_visit_n(s->u.assign.targets, s->u.assign.ntargets, fn,
                             ud);
        return rc != 0 ? rc : uf__ast_visit_n(&s->u.assign.value, 1, fn, ud);
    case UF__ST_AUGASSIGN: {
        uf__expr *const x[2] = {s->u.augassign.target, s->u.augassign.value};
        return uf__ast_visit_n(x, 2, fn, ud);
    }
    case UF__ST_IF:
        return uf__ast_visit_n(&s->u.if_.cond, 1, fn, ud);
    case UF__ST_FOR: {
        uf__expr *const x[2] = {s->u.for_.target, s->u.for_.iter};
        return uf__ast_visit_n(x, 2, fn, ud);
    }
    case UF__ST_WHILE:
        return uf__ast_visit_n(&s->u.while_.cond, 1, fn, ud);
    case UF__ST_RETURN:
        return uf__ast_visit_n(&s->u.ret.value, 1, fn, ud);
    case UF__ST_ASSERT: {
        uf__expr *const x[2] = {s->u.assert_.test, s->u.assert_.msg};
        return uf__ast_visit_n(x, 2, fn, ud);
    }
    case UF__ST_RAISE:
        return uf__ast_visit_n(s->u.raise.args, s->u.raise.nargs, fn, ud);
    case UF__ST_FUNCDEF:
        rc = uf__ast_visit_n(s->u.funcdef.decorators,
                             s->u.funcdef.ndecorators, fn, ud);
        for (int i = 0; i < s->u.funcdef.nparams && rc == 0; i++)
            rc = uf__ast_visit_n(&s->u.funcdef.params[i].default_value, 1, fn,
                                 ud);
        return rc;
    default:
        return 0;
    }
}

int uf__ast_stmt_targets(const uf__stmt *s, uf__ast_expr_fn fn, void *ud)
{
    switch (s->kind) {
    case UF__ST_ASSIGN:
        return uf__ast_visit_n(s->u.assign.targets, s->u.assign.ntargets, fn,
                               ud);
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

static int walk_block(const uf__block *b, void *ud)
{
    stmt_walk *w = ud;
    for (int i = 0; i < b->n; i++) {
        uf__stmt *s = b->stmts[i];
        int rc = w->fn(s, w->ud);
        /* a def's body is another function's */
        if (rc == 0 && s->kind != UF__ST_FUNCDEF)
            rc = uf__ast_stmt_blocks(s, walk_block, w);
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

const uf__expr *uf__call_arg(const uf__expr *e, int pos, const char *name)
{
    if (pos >= 0 && pos < e->u.call.nargs)
        return e->u.call.args[pos];
    for (int i = 0; i < e->u.call.nkw; i++)
        if (strcmp(e->u.call.kw[i].name, name) == 0)
            return e->u.call.kw[i].value;
    return NULL;
}
