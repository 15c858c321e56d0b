/* Generator objects kept in variables (issue 18), the uses side of the
 * state machines generators_flat.c builds: which variables of a def hold
 * generator objects (assigned from a generator call, given to next() or
 * zip()), `it = g(args)` binding g's parameters and the resume index,
 * each next(it) stepping the machine before its statement (StopIteration
 * past the end), and `for T in it` / `for T in zip(g1(...), g2(...))`
 * stepping each generator once per pass. The object never leaves the
 * def: a kept one passed or returned stays refused. */
#include <stdio.h>
#include <string.h>

#include "compiler/front/ast_visit.h"
#include "compiler/front/generators_internal.h"

static bool to_block(uf__gen_ctx *G, const uf__gen_out *o, uf__block *b)
{
    return uf__gen_block(G, o->v, o->n, b);
}

static int nomem(uf__gen_ctx *G)
{
    (void)G;
    return -1;
}

/* ---- the generator objects of the def ------------------------------------- */

typedef struct stepper {
    const char *var; /* the def's variable; NULL: a zip() operand */
    const uf__stmt *def;
    int k;
    int nnext; /* next() calls so far: their temporaries */
} stepper;

typedef struct steps {
    uf__gen_ctx *G;
    stepper v[16];
    int n;
} steps;

static stepper *stepper_of(steps *S, const uf__expr *e)
{
    if (e == NULL || e->kind != UF__EX_NAME)
        return NULL;
    for (int i = 0; i < S->n; i++)
        if (S->v[i].var != NULL && strcmp(S->v[i].var, e->u.name.id) == 0)
            return &S->v[i];
    return NULL;
}

/* one step of p's machine at `at` into o */
static int step_code(uf__gen_ctx *G, const stepper *p, uf__pos at, uf__gen_out *o)
{
    uf__stmt *two[2];
    int rc = uf__gen_step_code(G, p->def, p->k, at, two);
    if (rc)
        return rc;
    return uf__gen_emit(G, o, two[0]) && uf__gen_emit(G, o, two[1]) ? 0 : nomem(G);
}

/* p's parameters from call, and pc = 0 */
static int start(uf__gen_ctx *G, const stepper *p, const uf__expr *call,
                 uf__gen_out *o)
{
    uf__block bind;
    int rc = uf__gen_check_def(G, p->def, call->pos);
    if (rc || (rc = uf__gen_bind(G, p->def, call, p->k, &bind)))
        return rc;
    uf__pos at = call->pos;
    if (!uf__gen_emit_block(G, o, &bind) ||
        !uf__gen_emit(G, o, uf__gen_assign(G, uf__gen_name(G, uf__gen_temp(G, "pc",
                                                                   p->k), at),
                                   uf__gen_int(G, 0, at), at))) /* the entry */
        return nomem(G);
    return 0;
}

/* ---- next() in a statement ------------------------------------------------- */

typedef struct hoist {
    steps *S;
    uf__gen_out *o;
    int in_cond; /* inside `and`, `or`, a conditional expression */
    bool in_while;
} hoist;

static int hoist_next(const uf__expr *ce, void *ud)
{
    hoist *H = ud;
    uf__gen_ctx *G = H->S->G;
    uf__expr *e = (uf__expr *)ce; /* the tree is ours to rewrite */
    bool cond = e->kind == UF__EX_BOOLOP || e->kind == UF__EX_IFEXP;
    H->in_cond += cond;
    int rc = uf__ast_children(e, hoist_next, ud);
    H->in_cond -= cond;
    if (rc || !uf__gen_is_call_of(e, "next") || e->u.call.nargs < 1)
        return rc;
    stepper *p = stepper_of(H->S, e->u.call.args[0]);
    if (p == NULL)
        return 0;
    uf__pos at = e->pos;
    if (e->u.call.nargs != 1 || e->u.call.nkw)
        return uf__gen_refuse(G, UF_ERR_TYPING, at, "next() of generator %s() takes "
                      "no default (Numba: No implementation of function "
                      "Function(<built-in function next>) found)",
                      p->def->u.funcdef.name);
    if (H->in_while || H->in_cond)
        return uf__gen_refuse(G, UF_ERR_UNSUPPORTED, at, "next() of a generator in "
                      "a while loop's condition or inside 'and', 'or' or a "
                      "conditional expression is not supported: ufjit steps "
                      "the generator before the statement");
    char what[32];
    snprintf(what, sizeof what, "next%d", p->nnext++);
    const char *t = uf__gen_temp(G, what, p->k);
    uf__stmt *raise = uf__gen_stmt(G, UF__ST_RAISE, at);
    if (t == NULL || raise == NULL)
        return nomem(G);
    /* Numba's has no message; ufjit's says which generator ran out */
    raise->u.raise.cls = "StopIteration";
    raise->u.raise.cls_pos = at;
    char msg[160];
    int len = snprintf(msg, sizeof msg, "next() of exhausted generator %s()",
                       p->def->u.funcdef.name);
    if (len < 0 || (size_t)len >= sizeof msg)
        len = (int)sizeof msg - 1;
    uf__expr *text = uf__gen_expr(G, UF__EX_STR, at);
    uf__expr **args = uf__arena_alloc(G->arena, 1, sizeof *args, G->err);
    if (text == NULL || args == NULL ||
        (text->u.str.s = uf__arena_strndup(G->arena, msg, (size_t)len,
                                           G->err)) == NULL)
        return nomem(G);
    text->u.str.len = (size_t)len;
    args[0] = text;
    raise->u.raise.args = args;
    raise->u.raise.nargs = 1;
    if ((rc = step_code(G, p, at, H->o)))
        return rc;
    if (!uf__gen_emit(G, H->o, uf__gen_if(G, uf__gen_not(G, uf__gen_name(G, uf__gen_temp(
                                                 G, "has", p->k), at), at),
                                &raise, 1, at)) ||
        !uf__gen_emit(G, H->o, uf__gen_assign(G, uf__gen_name(G, t, at),
                                      uf__gen_name(G, uf__gen_temp(
                                                       G, "val", p->k), at),
                                      at)))
        return nomem(G);
    e->kind = UF__EX_NAME;
    e->u.name.id = t;
    return 0;
}

/* ---- for loops over generator objects -------------------------------------- */

static int rewrite_block(steps *S, uf__block *b);

/* The generators a for loop's iterable steps (its variable, or zip() of
 * generator calls and variables), or 0 when it steps none. */
static int loop_steppers(steps *S, uf__expr *it, stepper **out, int *nout)
{
    uf__gen_ctx *G = S->G;
    *nout = 0;
    stepper *p = stepper_of(S, it);
    if (p != NULL) {
        out[(*nout)++] = p;
        return 0;
    }
    if (!uf__gen_is_call_of(it, "zip") || it->u.call.nkw || it->u.call.starred)
        return 0;
    int ngen = 0, nvar = 0, n = it->u.call.nargs;
    for (int j = 0; j < n; j++) {
        nvar += stepper_of(S, it->u.call.args[j]) != NULL;
        ngen += uf__gen_called(G, it->u.call.args[j]) != NULL;
    }
    if (nvar == 0 && ngen < 2)
        return 0; /* inlined (generators.c) */
    if (nvar + ngen != n)
        return uf__gen_refuse(G, UF_ERR_UNSUPPORTED, it->pos, "zip() of generators "
                      "with other iterables is not supported when a "
                      "generator is an object (several generators or one "
                      "in a variable)");
    if (n > 8)
        return uf__gen_refuse(G, UF_ERR_UNSUPPORTED, it->pos, "zip() of more than 8 "
                      "generators is not supported");
    for (int j = 0; j < n; j++) {
        uf__expr *x = it->u.call.args[j];
        if ((p = stepper_of(S, x)) == NULL) {
            if (S->n == (int)(sizeof S->v / sizeof S->v[0]))
                return uf__gen_refuse(G, UF_ERR_UNSUPPORTED, x->pos, "more than %d "
                              "generator objects in a function are not "
                              "supported", S->n);
            p = &S->v[S->n++];
            *p = (stepper){NULL, uf__gen_called(G, x), G->ninlined++, 0};
        }
        out[(*nout)++] = p;
    }
    return 0;
}

/* for T in it / zip(...):
 *     [zip's generator calls started]   [ex = False]
 *     while True:
 *         step each; if not has: [ex = True;] break
 *         T = val (a tuple of them for zip)
 *         body
 *     [if ex: orelse] */
static int step_for(steps *S, uf__stmt *s, stepper **ps, int np, uf__gen_out *o)
{
    uf__gen_ctx *G = S->G;
    uf__pos at = s->pos;
    uf__expr *it = s->u.for_.iter;
    int rc;
    for (int j = 0; j < np; j++)
        if (ps[j]->var == NULL &&
            (rc = start(G, ps[j], it->u.call.args[j], o)))
            return rc;
    const char *ex = NULL;
    if (s->u.for_.orelse.n) {
        char what[32];
        snprintf(what, sizeof what, "done%d", ps[0]->nnext++);
        if ((ex = uf__gen_temp(G, what, ps[0]->k)) == NULL ||
            !uf__gen_emit(G, o, uf__gen_assign(G, uf__gen_name(G, ex, at),
                                       uf__gen_bool(G, false, at), at)))
            return nomem(G);
    }
    uf__gen_out body = {0};
    uf__expr *vals[8];
    for (int j = 0; j < np; j++) {
        if ((rc = step_code(G, ps[j], at, &body)))
            return rc;
        uf__stmt *stop[2];
        int n = 0;
        if (ex != NULL)
            stop[n++] = uf__gen_assign(G, uf__gen_name(G, ex, at),
                                       uf__gen_bool(G, true, at), at);
        stop[n++] = uf__gen_stmt(G, UF__ST_BREAK, at);
        if (stop[0] == NULL || stop[n - 1] == NULL ||
            !uf__gen_emit(G, &body, uf__gen_if(G, uf__gen_not(G, uf__gen_name(
                                                     G, uf__gen_temp(
                                                            G, "has",
                                                            ps[j]->k),
                                                     at), at),
                                    stop, n, at)) ||
            (vals[j] = uf__gen_name(G, uf__gen_temp(G, "val", ps[j]->k),
                                    at)) == NULL)
            return nomem(G);
    }
    uf__expr *v = np == 1 && stepper_of(S, it) != NULL
                      ? vals[0]
                      : uf__gen_tuple(G, vals, np, at);
    uf__stmt *loop = uf__gen_stmt(G, UF__ST_WHILE, at);
    if (loop == NULL ||
        !uf__gen_emit(G, &body, uf__gen_assign(G, s->u.for_.target, v, at)) ||
        !uf__gen_emit_block(G, &body, &s->u.for_.body) ||
        (loop->u.while_.cond = uf__gen_bool(G, true, at)) == NULL ||
        !to_block(G, &body, &loop->u.while_.body) ||
        !uf__gen_block(G, NULL, 0, &loop->u.while_.orelse) ||
        !uf__gen_emit(G, o, loop))
        return nomem(G);
    if (ex == NULL)
        return 0;
    uf__stmt *els = uf__gen_stmt(G, UF__ST_IF, at);
    if (els == NULL || (els->u.if_.cond = uf__gen_name(G, ex, at)) == NULL ||
        !uf__gen_block(G, NULL, 0, &els->u.if_.orelse))
        return nomem(G);
    els->u.if_.body = s->u.for_.orelse;
    return uf__gen_emit(G, o, els) ? 0 : nomem(G);
}

/* ---- statements ----------------------------------------------------------- */

static int rewrite_stmt(steps *S, uf__stmt *s, uf__gen_out *o)
{
    uf__gen_ctx *G = S->G;
    int rc = 0;
    switch (s->kind) {
    case UF__ST_IF:
        if ((rc = rewrite_block(S, &s->u.if_.body)) ||
            (rc = rewrite_block(S, &s->u.if_.orelse)))
            return rc;
        break;
    case UF__ST_FOR:
        if ((rc = rewrite_block(S, &s->u.for_.body)) ||
            (rc = rewrite_block(S, &s->u.for_.orelse)))
            return rc;
        break;
    case UF__ST_WHILE:
        if ((rc = rewrite_block(S, &s->u.while_.body)) ||
            (rc = rewrite_block(S, &s->u.while_.orelse)))
            return rc;
        break;
    default:
        break;
    }
    if (s->kind == UF__ST_ASSIGN && s->u.assign.ntargets == 1) {
        stepper *p = stepper_of(S, s->u.assign.targets[0]);
        if (p != NULL) {
            hoist H = {S, o, 0, false};
            if ((rc = uf__ast_children(s->u.assign.value, hoist_next, &H)))
                return rc;
            return start(G, p, s->u.assign.value, o);
        }
    }
    hoist H = {S, o, 0, s->kind == UF__ST_WHILE};
    if (s->kind == UF__ST_FOR) {
        stepper *ps[8];
        int np;
        if ((rc = uf__ast_stmt_exprs(s, hoist_next, &H)) ||
            (rc = loop_steppers(S, s->u.for_.iter, ps, &np)))
            return rc;
        if (np)
            return step_for(S, s, ps, np, o);
    } else if ((rc = uf__ast_stmt_exprs(s, hoist_next, &H))) {
        return rc;
    }
    return uf__gen_emit(G, o, s) ? 0 : nomem(G);
}

static int rewrite_block(steps *S, uf__block *b)
{
    uf__gen_out o = {0};
    for (int i = 0; i < b->n; i++) {
        int rc = rewrite_stmt(S, b->stmts[i], &o);
        if (rc)
            return rc;
    }
    return to_block(S->G, &o, b) ? 0 : nomem(S->G);
}

/* ---- which variables hold generator objects ------------------------------- */

typedef struct uses {
    const char *name;
    int all, allowed;
    uf__pos first_bad;
    bool bad;
} uses;

static int count_uses(const uf__expr *e, void *ud)
{
    uses *u = ud;
    if (e->kind == UF__EX_NAME && strcmp(e->u.name.id, u->name) == 0)
        u->all++;
    if (uf__gen_is_call_of(e, "next") || uf__gen_is_call_of(e, "zip"))
        for (int i = 0; i < e->u.call.nargs; i++) {
            const uf__expr *a = e->u.call.args[i];
            u->allowed += a->kind == UF__EX_NAME &&
                          strcmp(a->u.name.id, u->name) == 0 &&
                          (uf__gen_is_call_of(e, "zip") || i == 0);
        }
    return uf__ast_children(e, count_uses, ud);
}

static int uses_stmt(uf__stmt *s, void *ud)
{
    uses *u = ud;
    int before = u->all - u->allowed;
    if (s->kind == UF__ST_FOR && s->u.for_.iter->kind == UF__EX_NAME &&
        strcmp(s->u.for_.iter->u.name.id, u->name) == 0)
        u->allowed++;
    if (s->kind == UF__ST_ASSIGN)
        for (int i = 0; i < s->u.assign.ntargets; i++) {
            const uf__expr *t = s->u.assign.targets[i];
            u->allowed += t->kind == UF__EX_NAME &&
                          strcmp(t->u.name.id, u->name) == 0;
        }
    uf__ast_stmt_exprs(s, count_uses, ud);
    if (!u->bad && u->all - u->allowed > before) {
        u->bad = true;
        u->first_bad = s->pos;
    }
    return 0;
}

typedef struct nexted {
    uf__gen_ctx *G;
    uf__gen_names names;
    bool oom;
} nexted;

static int find_next(const uf__expr *e, void *ud)
{
    nexted *x = ud;
    if ((uf__gen_is_call_of(e, "next") || uf__gen_is_call_of(e, "zip")) &&
        e->u.call.nargs >= 1)
        for (int i = 0; i < e->u.call.nargs; i++)
            if (e->u.call.args[i]->kind == UF__EX_NAME &&
                (uf__gen_is_call_of(e, "zip") || i == 0) &&
                !uf__gen_names_add(x->G, &x->names,
                                   e->u.call.args[i]->u.name.id))
                x->oom = true;
    return uf__ast_children(e, find_next, ud);
}

static int next_stmt(uf__stmt *s, void *ud)
{
    return uf__ast_stmt_exprs(s, find_next, ud);
}

typedef struct assigned {
    uf__gen_ctx *G;
    const char *name;
    const uf__stmt *def; /* the generator every assignment calls */
    int n;
    bool other; /* an assignment of anything else */
    uf__pos at;
} assigned;

static int assign_stmt(uf__stmt *s, void *ud)
{
    assigned *a = ud;
    if (s->kind == UF__ST_ASSIGN) {
        bool hit = false;
        for (int i = 0; i < s->u.assign.ntargets; i++) {
            const uf__expr *t = s->u.assign.targets[i];
            hit |= t->kind == UF__EX_NAME && strcmp(t->u.name.id,
                                                    a->name) == 0;
        }
        if (!hit)
            return 0;
        const uf__stmt *def = uf__gen_called(a->G, s->u.assign.value);
        if (def == NULL || s->u.assign.ntargets != 1 ||
            (a->def != NULL && a->def != def)) {
            a->other = true;
            a->at = s->pos;
            return 0;
        }
        if (a->n++ == 0)
            a->at = s->pos;
        a->def = def;
    }
    return 0;
}

int uf__gen_step_def(uf__gen_ctx *G, uf__block *body)
{
    nexted x = {G, {0}, false};
    uf__ast_walk_stmts(body, next_stmt, &x);
    if (x.oom)
        return nomem(G);
    steps *S = uf__arena_alloc(G->arena, 1, sizeof *S, G->err);
    if (S == NULL)
        return nomem(G);
    S->G = G;
    for (int i = 0; i < x.names.n; i++) {
        assigned a = {G, x.names.v[i], NULL, 0, false, {0}};
        uf__ast_walk_stmts(body, assign_stmt, &a);
        if (a.def == NULL)
            continue; /* next() of something else (an iterator of arrays) */
        if (a.other)
            return uf__gen_refuse(G, UF_ERR_UNSUPPORTED, a.at, "'%s' holds a "
                          "generator object of %s(): ufjit keeps one in a "
                          "variable only when every assignment to it calls "
                          "that generator", a.name, a.def->u.funcdef.name);
        uses u = {a.name, 0, 0, {0}, false};
        uf__ast_walk_stmts(body, uses_stmt, &u);
        if (u.bad)
            return uf__gen_refuse(G, UF_ERR_UNSUPPORTED, u.first_bad, "'%s' holds a "
                          "generator object of %s(): ufjit compiles one only "
                          "as the argument of next() and the iterable of a "
                          "for loop or zip() in the function making it; "
                          "passing, returning or keeping it elsewhere is not "
                          "supported", a.name, a.def->u.funcdef.name);
        if (S->n == (int)(sizeof S->v / sizeof S->v[0]))
            return uf__gen_refuse(G, UF_ERR_UNSUPPORTED, a.at, "more than %d "
                          "generator objects in a function are not "
                          "supported", S->n);
        S->v[S->n++] = (stepper){a.name, a.def, G->ninlined++, 0};
    }
    return rewrite_block(S, body);
}
