/* Node builders and deep copies for generators.c: a generator's body is
 * copied into each loop consuming it, and the loop's body into each of
 * the generator's yields, every copy with fresh expression ids (typing's
 * tables are per id, and the SSA pass renames names in place). */
#include <stdio.h>
#include <string.h>

#include "compiler/front/ast_visit.h"
#include "compiler/front/generators_internal.h"

bool uf__gen_names_has(const uf__gen_names *s, const char *name)
{
    for (int i = 0; i < s->n; i++)
        if (strcmp(s->v[i], name) == 0)
            return true;
    return false;
}

bool uf__gen_names_add(uf__gen_ctx *G, uf__gen_names *s, const char *name)
{
    if (uf__gen_names_has(s, name))
        return true;
    if (s->n == s->cap) {
        int cap = s->cap ? 2 * s->cap : 16;
        const char **v = uf__arena_alloc(G->arena, (size_t)cap, sizeof *v,
                                         G->err);
        if (v == NULL)
            return false;
        if (s->n)
            memcpy(v, s->v, (size_t)s->n * sizeof *v);
        s->v = v;
        s->cap = cap;
    }
    s->v[s->n++] = name;
    return true;
}

typedef struct stored {
    uf__gen_ctx *G;
    uf__gen_names *out;
} stored;

static int target_names(const uf__expr *e, void *ud)
{
    stored *S = ud;
    if (e->kind == UF__EX_NAME)
        return uf__gen_names_add(S->G, S->out, e->u.name.id) ? 0 : -1;
    if (e->kind == UF__EX_TUPLE || e->kind == UF__EX_LIST)
        return uf__ast_visit_n(e->u.seq.elts, e->u.seq.n, target_names, ud);
    return 0; /* a[i] = v, o.x = v store into something else */
}

static int stmt_names(uf__stmt *s, void *ud)
{
    return uf__ast_stmt_targets(s, target_names, ud);
}

bool uf__gen_stored_names(uf__gen_ctx *G, const uf__block *b,
                          uf__gen_names *out)
{
    stored S = {G, out};
    return uf__ast_walk_stmts(b, stmt_names, &S) == 0;
}

uf__expr *uf__gen_expr(uf__gen_ctx *G, uf__expr_kind kind, uf__pos pos)
{
    uf__expr *e = uf__arena_alloc(G->arena, 1, sizeof *e, G->err);
    if (e == NULL)
        return NULL;
    e->kind = kind;
    e->pos = pos;
    e->id = G->m->nexprs++;
    return e;
}

uf__expr *uf__gen_name(uf__gen_ctx *G, const char *id, uf__pos pos)
{
    uf__expr *e = id ? uf__gen_expr(G, UF__EX_NAME, pos) : NULL;
    if (e != NULL)
        e->u.name.id = id;
    return e;
}

uf__expr *uf__gen_int(uf__gen_ctx *G, uint64_t v, uf__pos pos)
{
    uf__expr *e = uf__gen_expr(G, UF__EX_INT, pos);
    if (e != NULL)
        e->u.i.value = v;
    return e;
}

uf__expr *uf__gen_bool(uf__gen_ctx *G, bool v, uf__pos pos)
{
    uf__expr *e = uf__gen_expr(G, UF__EX_BOOL, pos);
    if (e != NULL)
        e->u.b = v;
    return e;
}

uf__expr *uf__gen_call(uf__gen_ctx *G, const char *fn, uf__expr **args,
                       int n, uf__pos pos)
{
    uf__expr *e = uf__gen_expr(G, UF__EX_CALL, pos);
    uf__expr **a = uf__arena_alloc(G->arena, (size_t)n + 1, sizeof *a,
                                   G->err);
    if (e == NULL || a == NULL ||
        (e->u.call.func = uf__gen_name(G, fn, pos)) == NULL)
        return NULL;
    for (int i = 0; i < n; i++)
        if ((a[i] = args[i]) == NULL)
            return NULL;
    e->u.call.args = a;
    e->u.call.nargs = n;
    return e;
}

uf__expr *uf__gen_binary(uf__gen_ctx *G, uf__binop op, uf__expr *l,
                         uf__expr *r, uf__pos pos)
{
    if (l == NULL || r == NULL)
        return NULL;
    uf__expr *e = uf__gen_expr(G, UF__EX_BINARY, pos);
    if (e != NULL) {
        e->u.binary.op = op;
        e->u.binary.left = l;
        e->u.binary.right = r;
    }
    return e;
}

uf__expr *uf__gen_tuple(uf__gen_ctx *G, uf__expr **elts, int n, uf__pos pos)
{
    uf__expr *e = uf__gen_expr(G, UF__EX_TUPLE, pos);
    uf__expr **a = uf__arena_alloc(G->arena, (size_t)n, sizeof *a, G->err);
    if (e == NULL || a == NULL)
        return NULL;
    for (int i = 0; i < n; i++)
        if ((a[i] = elts[i]) == NULL)
            return NULL;
    e->u.seq.elts = a;
    e->u.seq.n = n;
    return e;
}

uf__stmt *uf__gen_stmt(uf__gen_ctx *G, uf__stmt_kind kind, uf__pos pos)
{
    uf__stmt *s = uf__arena_alloc(G->arena, 1, sizeof *s, G->err);
    if (s != NULL) {
        s->kind = kind;
        s->pos = pos;
    }
    return s;
}

uf__stmt *uf__gen_assign(uf__gen_ctx *G, uf__expr *target, uf__expr *value,
                         uf__pos pos)
{
    uf__stmt *s = uf__gen_stmt(G, UF__ST_ASSIGN, pos);
    uf__expr **t = uf__arena_alloc(G->arena, 1, sizeof *t, G->err);
    if (s == NULL || t == NULL || target == NULL || value == NULL)
        return NULL;
    t[0] = target;
    s->u.assign.targets = t;
    s->u.assign.ntargets = 1;
    s->u.assign.value = value;
    return s;
}

bool uf__gen_block(uf__gen_ctx *G, uf__stmt **stmts, int n, uf__block *b)
{
    uf__stmt **v = uf__arena_alloc(G->arena, n ? (size_t)n : 1, sizeof *v,
                                   G->err);
    if (v == NULL)
        return false;
    for (int i = 0; i < n; i++)
        if ((v[i] = stmts[i]) == NULL)
            return false;
    b->stmts = v;
    b->n = n;
    return true;
}

uf__stmt *uf__gen_if_break(uf__gen_ctx *G, uf__expr *cond, uf__pos pos)
{
    uf__stmt *s = uf__gen_stmt(G, UF__ST_IF, pos);
    uf__stmt *brk = uf__gen_stmt(G, UF__ST_BREAK, pos);
    if (s == NULL || cond == NULL ||
        !uf__gen_block(G, &brk, 1, &s->u.if_.body) ||
        !uf__gen_block(G, NULL, 0, &s->u.if_.orelse))
        return NULL;
    s->u.if_.cond = cond;
    return s;
}

uf__stmt *uf__gen_once(uf__gen_ctx *G, const char *name, uf__block body,
                       uf__pos pos)
{
    uf__stmt *s = uf__gen_stmt(G, UF__ST_FOR, pos);
    uf__expr *one = uf__gen_int(G, 1, pos);
    if (s == NULL || one == NULL ||
        (s->u.for_.target = uf__gen_name(G, name, pos)) == NULL ||
        (s->u.for_.iter = uf__gen_call(G, "range", &one, 1, pos)) == NULL ||
        !uf__gen_block(G, NULL, 0, &s->u.for_.orelse))
        return NULL;
    s->u.for_.body = body;
    return s;
}

const char *uf__gen_temp(uf__gen_ctx *G, const char *what, int k)
{
    char buf[160];
    int n = snprintf(buf, sizeof buf, "%s$y%d", what, k);
    if (n < 0 || (size_t)n >= sizeof buf)
        n = (int)sizeof buf - 1;
    return uf__arena_strndup(G->arena, buf, (size_t)n, G->err);
}

/* ---- deep copies --------------------------------------------------------- */

static bool copy_vec(uf__gen_ctx *G, uf__expr **const src, int n,
                     const uf__gen_rename *R, uf__expr ***out)
{
    *out = NULL;
    if (n == 0 || src == NULL)
        return true;
    uf__expr **v = uf__arena_alloc(G->arena, (size_t)n, sizeof *v, G->err);
    if (v == NULL)
        return false;
    for (int i = 0; i < n; i++)
        if (src[i] != NULL &&
            (v[i] = uf__gen_copy_expr(G, src[i], R)) == NULL)
            return false;
    *out = v;
    return true;
}

static bool copy_opt(uf__gen_ctx *G, uf__expr **x, const uf__gen_rename *R)
{
    return *x == NULL || (*x = uf__gen_copy_expr(G, *x, R)) != NULL;
}

uf__expr *uf__gen_copy_expr(uf__gen_ctx *G, const uf__expr *e,
                            const uf__gen_rename *R)
{
    uf__expr *c = uf__gen_expr(G, e->kind, e->pos);
    if (c == NULL)
        return NULL;
    int id = c->id;
    *c = *e;
    c->id = id;
    switch (e->kind) {
    case UF__EX_NAME:
        if (R != NULL && uf__gen_names_has(R->locals, e->u.name.id))
            c->u.name.id = uf__gen_temp(G, e->u.name.id, R->suffix);
        return c->u.name.id ? c : NULL;
    case UF__EX_ATTR:
        return copy_opt(G, &c->u.attr.value, R) ? c : NULL;
    case UF__EX_CALL:
        if (!copy_opt(G, &c->u.call.func, R) ||
            !copy_vec(G, e->u.call.args, e->u.call.nargs, R, &c->u.call.args))
            return NULL;
        if (e->u.call.nkw > 0) {
            c->u.call.kw = uf__arena_alloc(G->arena, (size_t)e->u.call.nkw,
                                           sizeof *c->u.call.kw, G->err);
            if (c->u.call.kw == NULL)
                return NULL;
            for (int i = 0; i < e->u.call.nkw; i++) {
                c->u.call.kw[i] = e->u.call.kw[i];
                if (!copy_opt(G, &c->u.call.kw[i].value, R))
                    return NULL;
            }
        }
        return c;
    case UF__EX_SUBSCRIPT:
        return copy_opt(G, &c->u.subscript.value, R) &&
                       copy_vec(G, e->u.subscript.index, e->u.subscript.nindex,
                                R, &c->u.subscript.index)
                   ? c
                   : NULL;
    case UF__EX_SLICE:
        return copy_opt(G, &c->u.slice.lower, R) &&
                       copy_opt(G, &c->u.slice.upper, R) &&
                       copy_opt(G, &c->u.slice.step, R)
                   ? c
                   : NULL;
    case UF__EX_UNARY:
        return copy_opt(G, &c->u.unary.operand, R) ? c : NULL;
    case UF__EX_BINARY:
        return copy_opt(G, &c->u.binary.left, R) &&
                       copy_opt(G, &c->u.binary.right, R)
                   ? c
                   : NULL;
    case UF__EX_BOOLOP:
        return copy_vec(G, e->u.boolop.values, e->u.boolop.n, R,
                        &c->u.boolop.values)
                   ? c
                   : NULL;
    case UF__EX_COMPARE:
        return copy_vec(G, e->u.compare.operands, e->u.compare.nops + 1, R,
                        &c->u.compare.operands)
                   ? c
                   : NULL;
    case UF__EX_IFEXP:
        return copy_opt(G, &c->u.ifexp.cond, R) &&
                       copy_opt(G, &c->u.ifexp.then, R) &&
                       copy_opt(G, &c->u.ifexp.orelse, R)
                   ? c
                   : NULL;
    case UF__EX_TUPLE:
    case UF__EX_LIST:
        return copy_vec(G, e->u.seq.elts, e->u.seq.n, R, &c->u.seq.elts)
                   ? c
                   : NULL;
    default:
        return c;
    }
}

static uf__stmt *copy_stmt(uf__gen_ctx *G, const uf__stmt *s,
                           const uf__gen_rename *R)
{
    uf__stmt *c = uf__gen_stmt(G, s->kind, s->pos);
    if (c == NULL)
        return NULL;
    *c = *s;
    switch (s->kind) {
    case UF__ST_EXPR:
        return copy_opt(G, &c->u.expr.value, R) ? c : NULL;
    case UF__ST_ASSIGN:
        return copy_vec(G, s->u.assign.targets, s->u.assign.ntargets, R,
                        &c->u.assign.targets) &&
                       copy_opt(G, &c->u.assign.value, R)
                   ? c
                   : NULL;
    case UF__ST_AUGASSIGN:
        return copy_opt(G, &c->u.augassign.target, R) &&
                       copy_opt(G, &c->u.augassign.value, R)
                   ? c
                   : NULL;
    case UF__ST_IF:
        return copy_opt(G, &c->u.if_.cond, R) &&
                       uf__gen_copy_block(G, &s->u.if_.body, R,
                                          &c->u.if_.body) &&
                       uf__gen_copy_block(G, &s->u.if_.orelse, R,
                                          &c->u.if_.orelse)
                   ? c
                   : NULL;
    case UF__ST_FOR:
        return copy_opt(G, &c->u.for_.target, R) &&
                       copy_opt(G, &c->u.for_.iter, R) &&
                       uf__gen_copy_block(G, &s->u.for_.body, R,
                                          &c->u.for_.body) &&
                       uf__gen_copy_block(G, &s->u.for_.orelse, R,
                                          &c->u.for_.orelse)
                   ? c
                   : NULL;
    case UF__ST_WHILE:
        return copy_opt(G, &c->u.while_.cond, R) &&
                       uf__gen_copy_block(G, &s->u.while_.body, R,
                                          &c->u.while_.body) &&
                       uf__gen_copy_block(G, &s->u.while_.orelse, R,
                                          &c->u.while_.orelse)
                   ? c
                   : NULL;
    case UF__ST_RETURN:
        return copy_opt(G, &c->u.ret.value, R) ? c : NULL;
    case UF__ST_ASSERT:
        return copy_opt(G, &c->u.assert_.test, R) &&
                       copy_opt(G, &c->u.assert_.msg, R)
                   ? c
                   : NULL;
    case UF__ST_RAISE:
        return copy_vec(G, s->u.raise.args, s->u.raise.nargs, R,
                        &c->u.raise.args)
                   ? c
                   : NULL;
    default: /* pass, break, continue, imports; nested defs are lifted */
        return c;
    }
}

bool uf__gen_copy_block(uf__gen_ctx *G, const uf__block *b,
                        const uf__gen_rename *R, uf__block *out)
{
    uf__stmt **v = uf__arena_alloc(G->arena, b->n ? (size_t)b->n : 1,
                                   sizeof *v, G->err);
    if (v == NULL)
        return false;
    for (int i = 0; i < b->n; i++)
        if ((v[i] = copy_stmt(G, b->stmts[i], R)) == NULL)
            return false;
    out->stmts = v;
    out->n = b->n;
    return true;
}
