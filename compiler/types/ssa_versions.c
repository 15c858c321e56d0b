/* Gives each definition of a local name its own variable, as Numba's SSA
 * reconstruction does, so that in
 *
 *     x = 1
 *     y = x // 2
 *     if c:
 *         x = 2.5
 *     return x
 *
 * y is int64 (the first x is) while the x returned is float64: type
 * inference gives every variable one type, the unification of what is
 * assigned to it, so the definitions are split before it runs.
 *
 * Where control flow merges (the end of an if, a loop's head, a loop's
 * exit) a name that arrives with different values gets a join (Numba's
 * phi, found by ssa_walk.c), assigned at the end of each incoming edge
 * (its feeds, ssa_joins.c). A join's type is the unification of what
 * reaches it, and two that do not unify are refused with Numba's message.
 * Paths that end in return, break or continue feed only the merge point
 * they jump to. Feeding at the merge points keeps the feeds linear in the
 * code: feeding every join after each definition reaching it made a chain
 * of `if c: x = x + 1` quadratic.
 *
 * The first definition of a name (the parameter, or else the earliest
 * assignment) keeps the name; later ones and the joins are "x.1", "x.2",
 * ... (a dot cannot come from the source). `x op= v` becomes
 * `x.2 = x.1 op v`, which it is for the scalars kernels have. */
#include <stdio.h>
#include <string.h>

#include "common/alloc.h"
#include "common/error_internal.h"
#include "compiler/front/ast_visit.h"
#include "compiler/types/ssa_internal.h"
#include "compiler/types/ssa_versions.h"

/* ---- collecting names and definitions ----------------------------------- */

int uf__ssa_grow(ssa *W, void **arr, int n, int *cap, size_t size)
{
    if (n < *cap)
        return 0;
    int ncap = *cap ? 2 * *cap : 8;
    void *p = uf__arena_alloc(W->arena, (size_t)ncap, size, W->err);
    if (p == NULL) {
        W->failed = true;
        return -1;
    }
    if (n)
        memcpy(p, *arr, (size_t)n * size);
    *arr = p;
    *cap = ncap;
    return 0;
}

static int add_name(ssa *W, const char *id)
{
    int n = uf__ssa_name(W, id);
    if (n >= 0 || W->failed)
        return n;
    if (uf__ssa_grow(W, (void **)&W->names, W->nnames, &W->capnames,
                     sizeof *W->names) != 0)
        return -1;
    if (uf__name_map_put(&W->name_map, W->arena, id, W->nnames, W->err) != 0) {
        W->failed = true;
        return -1;
    }
    W->names[W->nnames] = id;
    return W->nnames++;
}

static void add_def(ssa *W, const uf__expr *node, const char *id, uf__pos pos)
{
    int n = add_name(W, id);
    if (n < 0)
        return;
    if (uf__ssa_grow(W, (void **)&W->defs, W->ndefs, &W->capdefs,
                     sizeof *W->defs) == 0)
        W->defs[W->ndefs++] = (ssa_def){node, pos, n, 0, NULL};
}

static int collect_target(const uf__expr *t, void *W)
{
    if (t->kind == UF__EX_NAME)
        add_def(W, t, t->u.name.id, t->pos);
    else if (t->kind == UF__EX_TUPLE || t->kind == UF__EX_LIST)
        uf__ast_children(t, collect_target, W);
    return 0;
}

static int collect_stmt(uf__stmt *s, void *W)
{
    return uf__ast_stmt_targets(s, collect_target, W);
}

/* Names assigned in a try block (the statements it protects) keep one
 * variable: its handler may start after any of them, reading whichever
 * definition ran last, which the memory of one variable holds; the type
 * is the unification of them all, as Numba's join at the handler. */
static int unsplit_target(const uf__expr *t, void *ud)
{
    ssa *W = ud;
    if (t->kind == UF__EX_NAME) {
        int n = uf__ssa_name(W, t->u.name.id);
        if (n >= 0)
            W->unsplit[n] = 1;
    } else if (t->kind == UF__EX_TUPLE || t->kind == UF__EX_LIST) {
        uf__ast_children(t, unsplit_target, W);
    }
    return 0;
}

static int unsplit_stmt(uf__stmt *s, void *W)
{
    return uf__ast_stmt_targets(s, unsplit_target, W);
}

static int find_try(uf__stmt *s, void *ud)
{
    ssa *W = ud;
    if (s->kind != UF__ST_IF || !s->u.if_.is_try)
        return 0;
    if (W->unsplit == NULL) {
        W->unsplit = uf__arena_alloc(W->arena, (size_t)W->nnames + 1, 1,
                                     W->err);
        if (W->unsplit == NULL)
            return -1;
    }
    uf__block b = {s->u.if_.body.stmts, s->u.if_.ntry};
    return uf__ast_walk_stmts(&b, unsplit_stmt, W);
}

/* ---- renaming ------------------------------------------------------------ */

static uf__expr *new_node(ssa *W, uf__expr_kind kind, uf__pos pos)
{
    uf__expr *e = uf__arena_alloc(W->arena, 1, sizeof *e, W->err);
    if (e == NULL) {
        W->failed = true;
        return NULL;
    }
    e->kind = kind;
    e->pos = pos;
    e->id = W->m->nexprs++;
    return e;
}

/* The variable the Name node e stands for: its definition's, or that of
 * the value it reads; NULL to leave it (a global, or a read no definition
 * reaches: type inference refuses it). */
static const char *variable_of(ssa *W, const uf__expr *e)
{
    if (W->node_def[e->id] >= 0)
        return W->defs[W->node_def[e->id]].id;
    if (W->read_val[e->id] != -2)
        return uf__ssa_read_variable(W, W->read_val[e->id]);
    return NULL;
}

static int rename_cb(const uf__expr *e, void *W)
{
    if (e->kind != UF__EX_NAME)
        return uf__ast_children(e, rename_cb, W);
    const char *id = variable_of(W, e);
    if (id != NULL)
        ((uf__expr *)e)->u.name.id = id;
    return 0;
}

static void rename_expr(ssa *W, const uf__expr *e)
{
    if (e != NULL)
        rename_cb(e, W);
}

/* x op= v, whose one node reads one variable and defines another, becomes
 * x.2 = x.1 op v (the operation keeps its "op=" in messages). */
static void rename_augassign(ssa *W, uf__stmt *s)
{
    uf__expr *t = s->u.augassign.target, *v = s->u.augassign.value;
    uf__binop op = s->u.augassign.op;
    rename_expr(W, v);
    if (t->kind != UF__EX_NAME || W->node_def[t->id] < 0) {
        rename_expr(W, t);
        return;
    }
    uf__expr *x = new_node(W, UF__EX_NAME, t->pos);
    uf__expr *b = new_node(W, UF__EX_BINARY, s->pos);
    uf__expr **targets = uf__arena_alloc(W->arena, 1, sizeof *targets,
                                         W->err);
    if (x == NULL || b == NULL || targets == NULL) {
        W->failed = true;
        return;
    }
    x->u.name.id = t->u.name.id;
    if (W->read_val[t->id] != -2) {
        const char *id = uf__ssa_read_variable(W, W->read_val[t->id]);
        if (id != NULL)
            x->u.name.id = id;
    }
    t->u.name.id = W->defs[W->node_def[t->id]].id;
    b->u.binary.op = op;
    b->u.binary.left = x;
    b->u.binary.right = v;
    b->u.binary.inplace = true;
    targets[0] = t;
    s->kind = UF__ST_ASSIGN;
    s->u.assign.targets = targets;
    s->u.assign.ntargets = 1;
    s->u.assign.value = b;
}

/* A statement's own expressions, reads before definitions (joins get
 * their variables on first read, in this order). */
static int rename_stmt(uf__stmt *s, void *W)
{
    switch (s->kind) {
    case UF__ST_EXPR:
        rename_expr(W, s->u.expr.value);
        break;
    case UF__ST_ASSIGN:
        rename_expr(W, s->u.assign.value);
        for (int k = 0; k < s->u.assign.ntargets; k++)
            rename_expr(W, s->u.assign.targets[k]);
        break;
    case UF__ST_AUGASSIGN:
        rename_augassign(W, s);
        break;
    case UF__ST_IF:
        rename_expr(W, s->u.if_.cond);
        break;
    case UF__ST_FOR:
        rename_expr(W, s->u.for_.target);
        rename_expr(W, s->u.for_.iter);
        break;
    case UF__ST_WHILE:
        rename_expr(W, s->u.while_.cond);
        break;
    case UF__ST_RETURN:
        rename_expr(W, s->u.ret.value);
        break;
    case UF__ST_ASSERT:
        rename_expr(W, s->u.assert_.test);
        rename_expr(W, s->u.assert_.msg);
        break;
    case UF__ST_RAISE:
        for (int i = 0; i < s->u.raise.nargs; i++)
            rename_expr(W, s->u.raise.args[i]);
        break;
    default:
        break;
    }
    return 0;
}

const char *uf__ssa_new_variable(ssa *W, int n)
{
    int k = W->versions[n]++;
    if (k == 0)
        return W->names[n];
    size_t len = strlen(W->names[n]) + 16;
    char *id = uf__arena_alloc(W->arena, len, 1, W->err);
    if (id == NULL) {
        W->failed = true;
        return NULL;
    }
    snprintf(id, len, "%s.%d", W->names[n], k);
    return id;
}

/* Each definition's variable and index among its name's. */
static int number_defs(ssa *W)
{
    W->name_ndefs = uf__arena_alloc(W->arena, (size_t)W->nnames,
                                    sizeof *W->name_ndefs, W->err);
    W->versions = uf__arena_alloc(W->arena, (size_t)W->nnames,
                                  sizeof *W->versions, W->err);
    if (W->name_ndefs == NULL || W->versions == NULL)
        return -1;
    /* parameters first, then assignments in source order */
    for (int d = 0; d < W->ndefs && !W->failed; d++) {
        int n = W->defs[d].name;
        W->defs[d].local = W->name_ndefs[n]++;
        W->defs[d].id = W->unsplit && W->unsplit[n] && W->defs[d].local > 0
                            ? W->names[n]
                            : uf__ssa_new_variable(W, n);
    }
    return W->failed ? -1 : 0;
}

static int rename_function(uf__ast_module *m, uf__stmt *fn, uf__arena *arena,
                           uf_error *err)
{
    ssa W = {.m = m, .arena = arena, .err = err};
    for (int i = 0; i < fn->u.funcdef.nparams; i++)
        add_def(&W, NULL, fn->u.funcdef.params[i].name,
                fn->u.funcdef.params[i].pos);
    uf__ast_walk_stmts(&fn->u.funcdef.body, collect_stmt, &W);
    if (W.failed)
        return err->code ? err->code : UF_ERR_NOMEM;
    if (W.ndefs == 0)
        return 0;
    if (uf__ast_walk_stmts(&fn->u.funcdef.body, find_try, &W) != 0)
        return err->code ? err->code : UF_ERR_NOMEM;
    /* per expression id: the module's ids, so temporary (the rest lives
     * in the module's arena, sized by this function) */
    size_t nx = (size_t)m->nexprs + 1;
    W.node_def = uf__malloc(nx, sizeof *W.node_def, err);
    W.read_val = uf__malloc(nx, sizeof *W.read_val, err);
    if (W.node_def && W.read_val && number_defs(&W) == 0) {
        for (size_t i = 0; i < nx; i++) {
            W.node_def[i] = -1;
            W.read_val[i] = -2;
        }
        for (int d = 0; d < W.ndefs; d++)
            if (W.defs[d].node)
                W.node_def[W.defs[d].node->id] = d;
        uf__ssa_walk(&W, fn);
        if (!W.failed)
            uf__ssa_join_classes(&W);
        if (!W.failed)
            uf__ast_walk_stmts(&fn->u.funcdef.body, rename_stmt, &W);
        if (!W.failed)
            uf__ssa_place_feeds(&W);
    } else {
        W.failed = true;
    }
    uf__ssa_joins_free(&W);
    uf__free(W.node_def);
    uf__free(W.read_val);
    return W.failed ? (err->code ? err->code : UF_ERR_NOMEM) : 0;
}

int uf__ssa_versions(uf__ast_module *m, uf__arena *arena, uf_error *err)
{
    for (int i = 0; i < m->body.n; i++) {
        uf__stmt *s = m->body.stmts[i];
        if (s->kind == UF__ST_FUNCDEF &&
            rename_function(m, s, arena, err) != 0)
            return err->code ? err->code : UF_ERR_NOMEM;
    }
    return 0;
}
