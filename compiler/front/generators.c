/* Generator functions in kernels (issue 18), inlined into their consumers
 * (generators.h). Numba compiles a generator into a state machine; ufjit
 * compiles what a consumer does with it instead, which is the same program
 * for the consumers it takes:
 *
 *     def g(n):                         for v in g(m):   ->   n$y0 = m
 *         for i in range(n):                s += v            stop$y0 = False
 *             yield i * i                                      for once$y0 in range(1):
 *                                                                  for i$y0 in range(n$y0):
 *                                                                      v = i$y0 * i$y0
 *                                                                      s += v
 *
 * g's locals are renamed (name$y<k>), each yield runs a copy of the loop's
 * body, and the loop's control flow keeps its meaning: the body runs in a
 * one-pass loop when it has a `continue` or `break` of its own (a break
 * sets stop$y<k>), g's `return` sets stop$y<k> and breaks, and after each
 * of g's loops holding a yield or return, `if stop$y<k>: break` carries the
 * stop out to the one-pass loop around the whole body. A for-else runs
 * unless the consumer's body broke (broke$y<k>).
 *
 * enumerate(g(...)) counts beside the inlined loop; zip(..., g(...), ...)
 * with one generator indexes the other iterables (ranges computed); and
 * list(g(...)), sorted(), min(), max() of one are an append loop before
 * their statement. A generator object kept in a variable for next(), and
 * zip() of several generators, are state machines (generators_step.c,
 * run first). Any other use of a generator function refuses the def
 * using it; yields inside try/except and recursive generators are refused
 * where they are inlined. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "compiler/front/ast_visit.h"
#include "compiler/front/generators_internal.h"

static void set_block(const uf__gen_out *o, uf__block *b)
{
    b->stmts = o->v;
    b->n = o->n;
}

bool uf__gen_emit(uf__gen_ctx *G, uf__gen_out *o, uf__stmt *s)
{
    if (s == NULL)
        return false;
    if (o->n == o->cap) {
        int cap = o->cap ? 2 * o->cap : 8;
        uf__stmt **v = uf__arena_alloc(G->arena, (size_t)cap, sizeof *v,
                                       G->err);
        if (v == NULL)
            return false;
        if (o->n)
            memcpy(v, o->v, (size_t)o->n * sizeof *v);
        o->v = v;
        o->cap = cap;
    }
    o->v[o->n++] = s;
    return true;
}

bool uf__gen_emit_block(uf__gen_ctx *G, uf__gen_out *o, const uf__block *b)
{
    for (int i = 0; i < b->n; i++)
        if (!uf__gen_emit(G, o, b->stmts[i]))
            return false;
    return true;
}

bool uf__gen_is_call_of(const uf__expr *e, const char *fn)
{
    return e != NULL && e->kind == UF__EX_CALL &&
           e->u.call.func->kind == UF__EX_NAME &&
           strcmp(e->u.call.func->u.name.id, fn) == 0;
}

int uf__gen_refuse(uf__gen_ctx *G, int code, uf__pos pos, const char *fmt,
                   ...)
{
    if (G->why != NULL)
        return -2;
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= sizeof buf)
        n = (int)sizeof buf - 1;
    G->why = uf__arena_strndup(G->arena, buf, (size_t)n, G->err);
    if (G->why == NULL)
        return -1;
    G->where = pos;
    G->code = code;
    return -2;
}

static int nomem(uf__gen_ctx *G)
{
    (void)G;
    return -1;
}

/* ---- recognising yields and generator calls ------------------------------ */

static bool is_yield_call(const uf__expr *e)
{
    return e != NULL && e->kind == UF__EX_CALL &&
           e->u.call.func->kind == UF__EX_NAME &&
           strcmp(e->u.call.func->u.name.id, UF__YIELD_NAME) == 0;
}

static bool is_yield_stmt(const uf__stmt *s)
{
    return s->kind == UF__ST_EXPR && is_yield_call(s->u.expr.value);
}

static int find_yield_expr(const uf__expr *e, void *ud)
{
    (void)ud;
    return is_yield_call(e) ? 1 : uf__ast_children(e, find_yield_expr, ud);
}

static int find_yield_stmt(uf__stmt *s, void *ud)
{
    return uf__ast_stmt_exprs(s, find_yield_expr, ud);
}

/* A yield (or, with returns, a return) in b or the blocks nested in it. */
typedef struct exits {
    bool returns;
} exits;

static int find_exit(uf__stmt *s, void *ud)
{
    const exits *x = ud;
    return is_yield_stmt(s) || (x->returns && s->kind == UF__ST_RETURN);
}

static bool has_exit(const uf__block *b)
{
    exits x = {true};
    return uf__ast_walk_stmts(b, find_exit, &x) != 0;
}

const uf__stmt *uf__gen_called(const uf__gen_ctx *G, const uf__expr *e)
{
    if (e == NULL || e->kind != UF__EX_CALL ||
        e->u.call.func->kind != UF__EX_NAME)
        return NULL;
    const char *id = e->u.call.func->u.name.id;
    if (uf__gen_names_has(&G->shadow, id))
        return NULL;
    for (int i = 0; i < G->ngens; i++)
        if (strcmp(G->gens[i]->u.funcdef.name, id) == 0)
            return G->gens[i];
    return NULL;
}

static const uf__stmt *gen_called(const uf__gen_ctx *G, const uf__expr *e)
{
    return uf__gen_called(G, e);
}

static bool is_builtin_call(const uf__expr *e, const char *fn)
{
    return e->kind == UF__EX_CALL && e->u.call.func->kind == UF__EX_NAME &&
           strcmp(e->u.call.func->u.name.id, fn) == 0;
}

/* ---- the consumer's body -------------------------------------------------- */

typedef struct consumer {
    uf__expr *target;   /* the loop's target, copied at each yield */
    uf__block body;     /* its body, breaks replaced, copied at each yield */
    const char *stop;   /* stop$y<k> */
    const char *once;   /* once$y<k>: the one-pass loops' variable */
    bool in_once;       /* the body has a break or continue of its own */
    bool breaks;        /* ... a break */
    int k;
} consumer;

/* The breaks and continues of b outside loops nested in it (in ifs and
 * try blocks): the loop consuming the generator's own. */
static void own_jumps(const uf__block *b, bool *brk, bool *cont)
{
    for (int i = 0; i < b->n; i++) {
        const uf__stmt *s = b->stmts[i];
        if (s->kind == UF__ST_BREAK)
            *brk = true;
        else if (s->kind == UF__ST_CONTINUE)
            *cont = true;
        else if (s->kind == UF__ST_IF) {
            own_jumps(&s->u.if_.body, brk, cont);
            own_jumps(&s->u.if_.orelse, brk, cont);
        }
    }
}

/* Each own break of b becomes `stop = True; [broke = True;] break`, except
 * the zip-exhausted ones (keep_else), which leave the else block to run. */
static bool replace_breaks(uf__gen_ctx *G, uf__block *b, const char *stop,
                           const char *broke, uf__stmt *const *keep_else,
                           int nkeep)
{
    uf__gen_out o = {0};
    for (int i = 0; i < b->n; i++) {
        uf__stmt *s = b->stmts[i];
        if (s->kind == UF__ST_IF) {
            if (!replace_breaks(G, &s->u.if_.body, stop, broke, keep_else,
                                nkeep) ||
                !replace_breaks(G, &s->u.if_.orelse, stop, broke, keep_else,
                                nkeep))
                return false;
        } else if (s->kind == UF__ST_BREAK) {
            bool exhausted = false;
            for (int j = 0; j < nkeep; j++)
                exhausted |= keep_else[j] == s;
            if (!uf__gen_emit(G, &o, uf__gen_assign(G, uf__gen_name(G, stop, s->pos),
                                            uf__gen_bool(G, true, s->pos),
                                            s->pos)))
                return false;
            if (broke != NULL && !exhausted &&
                !uf__gen_emit(G, &o, uf__gen_assign(G, uf__gen_name(G, broke, s->pos),
                                            uf__gen_bool(G, true, s->pos),
                                            s->pos)))
                return false;
        }
        if (!uf__gen_emit(G, &o, s))
            return false;
    }
    set_block(&o, b);
    return true;
}

/* ---- the generator's body ------------------------------------------------- */

static int transform(uf__gen_ctx *G, const consumer *C, uf__block *b,
                     int in_try);

/* `yield e` at s: T = e, then the consumer's body. */
static int at_yield(uf__gen_ctx *G, const consumer *C, const uf__stmt *s,
                    uf__gen_out *o)
{
    /* a bare yield binds nothing: None is no value the lowering has */
    const uf__expr *y = s->u.expr.value;
    if (y->u.call.nargs &&
        !uf__gen_emit(G, o, uf__gen_assign(G, uf__gen_copy_expr(G, C->target, NULL),
                                   y->u.call.args[0], s->pos)))
        return nomem(G);
    uf__block body;
    if (!uf__gen_copy_block(G, &C->body, NULL, &body))
        return nomem(G);
    if (!C->in_once)
        return uf__gen_emit_block(G, o, &body) ? 0 : nomem(G);
    if (!uf__gen_emit(G, o, uf__gen_once(G, C->once, body, s->pos)))
        return nomem(G);
    if (C->breaks &&
        !uf__gen_emit(G, o, uf__gen_if_break(G, uf__gen_name(G, C->stop, s->pos),
                                     s->pos)))
        return nomem(G);
    return 0;
}

static int transform_stmt(uf__gen_ctx *G, const consumer *C, uf__stmt *s,
                          int in_try, uf__gen_out *o)
{
    int rc = 0;
    if (is_yield_stmt(s)) {
        if (in_try)
            return uf__gen_refuse(G, UF_ERR_UNSUPPORTED, s->pos, "'yield' inside "
                          "try/except is not supported: ufjit runs the loop "
                          "consuming the generator at each yield, where the "
                          "handler would catch its errors");
        return at_yield(G, C, s, o);
    }
    switch (s->kind) {
    case UF__ST_RETURN: /* ends the generator; a value is dropped (Numba) */
        if (!uf__gen_emit(G, o, uf__gen_assign(G, uf__gen_name(G, C->stop, s->pos),
                                       uf__gen_bool(G, true, s->pos),
                                       s->pos)) ||
            !uf__gen_emit(G, o, uf__gen_stmt(G, UF__ST_BREAK, s->pos)))
            return nomem(G);
        return 0;
    case UF__ST_IF:
        if ((rc = transform(G, C, &s->u.if_.body, in_try + s->u.if_.is_try))
            || (rc = transform(G, C, &s->u.if_.orelse,
                               in_try + s->u.if_.is_try)))
            return rc;
        return uf__gen_emit(G, o, s) ? 0 : nomem(G);
    case UF__ST_FOR:
    case UF__ST_WHILE: {
        uf__block *body = s->kind == UF__ST_FOR ? &s->u.for_.body
                                                : &s->u.while_.body;
        uf__block *orelse = s->kind == UF__ST_FOR ? &s->u.for_.orelse
                                                  : &s->u.while_.orelse;
        bool exits_here = has_exit(body) || has_exit(orelse);
        if ((rc = transform(G, C, body, in_try)) ||
            (rc = transform(G, C, orelse, in_try)))
            return rc;
        if (!uf__gen_emit(G, o, s))
            return nomem(G);
        if (exits_here &&
            !uf__gen_emit(G, o, uf__gen_if_break(G, uf__gen_name(G, C->stop, s->pos),
                                         s->pos)))
            return nomem(G);
        return 0;
    }
    default:
        return uf__gen_emit(G, o, s) ? 0 : nomem(G);
    }
}

static int transform(uf__gen_ctx *G, const consumer *C, uf__block *b,
                     int in_try)
{
    uf__gen_out o = {0};
    for (int i = 0; i < b->n; i++) {
        int rc = transform_stmt(G, C, b->stmts[i], in_try, &o);
        if (rc)
            return rc;
    }
    set_block(&o, b);
    return 0;
}

/* ---- inlining one consumer loop ------------------------------------------ */

static int rewrite_block(uf__gen_ctx *G, uf__block *b);
static int rewrite_stmt(uf__gen_ctx *G, uf__stmt *s, uf__gen_out *o);

/* `p$y<k> = argument` for each parameter of def, from call. */
static int bind_params(uf__gen_ctx *G, const uf__stmt *def,
                       const uf__expr *call, int k, uf__gen_out *o)
{
    const char *name = def->u.funcdef.name;
    int np = def->u.funcdef.nparams, na = call->u.call.nargs;
    if (call->u.call.starred)
        return uf__gen_refuse(G, UF_ERR_UNSUPPORTED, call->pos, "a starred argument "
                      "of generator %s() is not supported", name);
    if (na > np)
        return uf__gen_refuse(G, UF_ERR_TYPING, call->pos, "%s() takes %d positional "
                      "argument%s but %d %s given", name, np,
                      np == 1 ? "" : "s", na, na == 1 ? "was" : "were");
    for (int j = 0; j < call->u.call.nkw; j++) {
        bool known = false;
        for (int i = na; i < np; i++)
            known |= strcmp(def->u.funcdef.params[i].name,
                            call->u.call.kw[j].name) == 0;
        if (!known)
            return uf__gen_refuse(G, UF_ERR_TYPING, call->u.call.kw[j].pos, "%s() got "
                          "an unexpected keyword argument '%s'", name,
                          call->u.call.kw[j].name);
    }
    for (int i = 0; i < np; i++) {
        const uf__param *p = &def->u.funcdef.params[i];
        uf__expr *v = i < na ? call->u.call.args[i] : NULL;
        for (int j = 0; j < call->u.call.nkw && v == NULL; j++)
            if (strcmp(call->u.call.kw[j].name, p->name) == 0)
                v = call->u.call.kw[j].value;
        if (v == NULL && p->default_value != NULL &&
            (v = uf__gen_copy_expr(G, p->default_value, NULL)) == NULL)
            return nomem(G);
        if (v == NULL)
            return uf__gen_refuse(G, UF_ERR_TYPING, call->pos, "%s() missing required "
                          "argument: '%s'", name, p->name);
        uf__expr *t = uf__gen_name(G, uf__gen_temp(G, p->name, k), p->pos);
        if (!uf__gen_emit(G, o, uf__gen_assign(G, t, v, call->pos)))
            return nomem(G);
    }
    return 0;
}

int uf__gen_check_def(uf__gen_ctx *G, const uf__stmt *def, uf__pos at)
{
    if (def->u.funcdef.closure_of != NULL)
        return uf__gen_refuse(G, UF_ERR_UNSUPPORTED, at, "The use of yield in a "
                      "closure is unsupported.");
    for (int i = 0; i < G->ngens; i++)
        if (G->gens[i] == def && G->parse_refusal[i] != NULL)
            return uf__gen_refuse(G, def->u.funcdef.refused_code,
                          def->u.funcdef.refused_pos, "%s",
                          G->parse_refusal[i]);
    return 0;
}

int uf__gen_bind(uf__gen_ctx *G, const uf__stmt *def, const uf__expr *call,
                 int k, uf__block *out)
{
    uf__gen_out o = {0};
    int rc = bind_params(G, def, call, k, &o);
    if (rc == 0 && !uf__gen_block(G, o.v, o.n, out))
        return nomem(G);
    return rc;
}

/* for T in g(args): body [else: orelse] (s), g a generator def, written
 * to o as g's body around copies of body. keep_else: breaks that end the
 * loop as exhaustion does (zip's), not as the body's break. */
static int inline_for(uf__gen_ctx *G, uf__stmt *s, const uf__stmt *def,
                      uf__stmt *const *keep_else, int nkeep, uf__gen_out *o)
{
    uf__expr *call = s->u.for_.iter;
    uf__pos at = call->pos;
    const char *gname = def->u.funcdef.name;
    int rc = uf__gen_check_def(G, def, at);
    if (rc)
        return rc;
    for (int i = 0; i < G->depth; i++)
        if (G->stack[i] == def)
            return uf__gen_refuse(G, UF_ERR_UNSUPPORTED, at, "generator %s() uses "
                          "itself: ufjit inlines a generator into the loop "
                          "consuming it, so recursive generators are not "
                          "supported", gname);
    if (G->depth == (int)(sizeof G->stack / sizeof G->stack[0]))
        return uf__gen_refuse(G, UF_ERR_UNSUPPORTED, at, "generators nested more than "
                      "%d deep are not supported", G->depth);
    if ((rc = rewrite_block(G, &s->u.for_.body)) ||
        (rc = rewrite_block(G, &s->u.for_.orelse)))
        return rc;
    int k = G->ninlined++;
    if ((rc = bind_params(G, def, call, k, o)))
        return rc;
    consumer C = {s->u.for_.target, s->u.for_.body, uf__gen_temp(G, "stop", k),
                  uf__gen_temp(G, "once", k), false, false, k};
    const char *broke = s->u.for_.orelse.n ? uf__gen_temp(G, "broke", k)
                                           : NULL;
    if (C.stop == NULL || C.once == NULL ||
        (s->u.for_.orelse.n && broke == NULL))
        return nomem(G);
    bool cont = false;
    own_jumps(&C.body, &C.breaks, &cont);
    C.in_once = C.breaks || cont;
    if (C.breaks && !replace_breaks(G, &C.body, C.stop, broke, keep_else,
                                    nkeep))
        return nomem(G);
    if (!uf__gen_emit(G, o, uf__gen_assign(G, uf__gen_name(G, C.stop, at),
                                   uf__gen_bool(G, false, at), at)) ||
        (broke != NULL &&
         !uf__gen_emit(G, o, uf__gen_assign(G, uf__gen_name(G, broke, at),
                                    uf__gen_bool(G, false, at), at))))
        return nomem(G);
    /* g's body, its locals renamed, its own generator loops inlined */
    uf__gen_names locals = {0};
    for (int i = 0; i < def->u.funcdef.nparams; i++)
        if (!uf__gen_names_add(G, &locals, def->u.funcdef.params[i].name))
            return nomem(G);
    if (!uf__gen_stored_names(G, &def->u.funcdef.body, &locals))
        return nomem(G);
    uf__gen_rename R = {&locals, k};
    uf__block body;
    if (!uf__gen_copy_block(G, &def->u.funcdef.body, &R, &body))
        return nomem(G);
    const uf__block *scope = G->scope;
    G->scope = &body;
    G->stack[G->depth++] = def;
    rc = rewrite_block(G, &body);
    G->depth--;
    G->scope = scope;
    if (rc || (rc = transform(G, &C, &body, 0)))
        return rc;
    if (!uf__gen_emit(G, o, uf__gen_once(G, C.once, body, at)))
        return nomem(G);
    if (broke == NULL)
        return 0;
    uf__stmt *els = uf__gen_stmt(G, UF__ST_IF, s->pos);
    uf__expr *no = uf__gen_expr(G, UF__EX_UNARY, s->pos);
    if (els == NULL || no == NULL ||
        (no->u.unary.operand = uf__gen_name(G, broke, s->pos)) == NULL ||
        !uf__gen_block(G, NULL, 0, &els->u.if_.orelse))
        return nomem(G);
    no->u.unary.op = UF__OP_NOT;
    els->u.if_.cond = no;
    els->u.if_.body = s->u.for_.orelse;
    return uf__gen_emit(G, o, els) ? 0 : nomem(G);
}

/* ---- enumerate() and zip() of a generator -------------------------------- */

/* for T in enumerate(g(...)[, start]):
 *     count$y<k> = start            (0 without one)
 *     for item$y<k> in g(...):
 *         T = (count$y<k>, item$y<k>); count$y<k> += 1
 *         body */
static int inline_enumerate(uf__gen_ctx *G, uf__stmt *s, const uf__stmt *def,
                            uf__gen_out *o)
{
    uf__expr *it = s->u.for_.iter;
    uf__pos at = it->pos;
    uf__expr *start = it->u.call.nargs > 1 ? it->u.call.args[1] : NULL;
    for (int j = 0; j < it->u.call.nkw; j++) {
        if (strcmp(it->u.call.kw[j].name, "start") != 0 || start != NULL)
            return uf__gen_refuse(G, UF_ERR_TYPING, it->u.call.kw[j].pos, "enumerate()"
                          " takes an iterable and a start");
        start = it->u.call.kw[j].value;
    }
    if (it->u.call.nargs > 2)
        return uf__gen_refuse(G, UF_ERR_TYPING, at, "enumerate() takes an iterable "
                      "and a start");
    int k = G->ninlined++;
    const char *c = uf__gen_temp(G, "count", k), *v = uf__gen_temp(G, "item",
                                                                    k);
    if (start == NULL)
        start = uf__gen_int(G, 0, at);
    if (!uf__gen_emit(G, o, uf__gen_assign(G, uf__gen_name(G, c, at), start, at)))
        return nomem(G);
    uf__expr *pair[2] = {uf__gen_name(G, c, at), uf__gen_name(G, v, at)};
    uf__stmt *inc = uf__gen_stmt(G, UF__ST_AUGASSIGN, at);
    uf__gen_out body = {0};
    if (inc == NULL ||
        (inc->u.augassign.target = uf__gen_name(G, c, at)) == NULL ||
        (inc->u.augassign.value = uf__gen_int(G, 1, at)) == NULL ||
        !uf__gen_emit(G, &body, uf__gen_assign(G, s->u.for_.target,
                                       uf__gen_tuple(G, pair, 2, at), at)) ||
        !uf__gen_emit(G, &body, inc) || !uf__gen_emit_block(G, &body, &s->u.for_.body))
        return nomem(G);
    inc->u.augassign.op = UF__OP_ADD;
    s->u.for_.iter = it->u.call.args[0];
    if ((s->u.for_.target = uf__gen_name(G, v, at)) == NULL)
        return nomem(G);
    set_block(&body, &s->u.for_.body);
    return inline_for(G, s, def, NULL, 0, o);
}

/* One iterable of a zip beside the generator, evaluated before the loop:
 * its length and its element at index name ix. */
static int zip_part(uf__gen_ctx *G, uf__expr *x, const char *ix, int k,
                    int j, uf__expr **len, uf__expr **elem, uf__gen_out *o)
{
    uf__pos at = x->pos;
    char what[32];
    if (is_builtin_call(x, "range") && x->u.call.nkw == 0 &&
        x->u.call.nargs >= 1 && x->u.call.nargs <= 3) {
        /* range(a, b, c)[ix] is a + ix * c */
        int n = x->u.call.nargs;
        uf__expr *arg[3] = {NULL, NULL, NULL};
        for (int i = 0; i < 3; i++) {
            uf__expr *v = i == 0 ? (n > 1 ? x->u.call.args[0]
                                          : uf__gen_int(G, 0, at))
                          : i == 1 ? x->u.call.args[n > 1 ? 1 : 0]
                                   : (n > 2 ? x->u.call.args[2]
                                            : uf__gen_int(G, 1, at));
            snprintf(what, sizeof what, "range%d_%d", j, i);
            const char *t = uf__gen_temp(G, what, k);
            if (!uf__gen_emit(G, o, uf__gen_assign(G, uf__gen_name(G, t, at), v, at)))
                return nomem(G);
            arg[i] = uf__gen_name(G, t, at);
        }
        uf__expr *r3[3] = {uf__gen_copy_expr(G, arg[0], NULL),
                           uf__gen_copy_expr(G, arg[1], NULL),
                           uf__gen_copy_expr(G, arg[2], NULL)};
        uf__expr *r = uf__gen_call(G, "range", r3, 3, at);
        *len = uf__gen_call(G, "len", &r, 1, at);
        *elem = uf__gen_binary(G, UF__OP_ADD, arg[0],
                               uf__gen_binary(G, UF__OP_MUL,
                                              uf__gen_name(G, ix, at), arg[2],
                                              at),
                               at);
        return *len && *elem ? 0 : nomem(G);
    }
    snprintf(what, sizeof what, "zip%d", j);
    const char *t = uf__gen_temp(G, what, k);
    if (!uf__gen_emit(G, o, uf__gen_assign(G, uf__gen_name(G, t, at), x, at)))
        return nomem(G);
    uf__expr *ref = uf__gen_name(G, t, at);
    *len = uf__gen_call(G, "len", &ref, 1, at);
    *elem = uf__gen_expr(G, UF__EX_SUBSCRIPT, at);
    uf__expr **ixv = uf__arena_alloc(G->arena, 1, sizeof *ixv, G->err);
    if (*len == NULL || *elem == NULL || ixv == NULL ||
        (ixv[0] = uf__gen_name(G, ix, at)) == NULL ||
        ((*elem)->u.subscript.value = uf__gen_name(G, t, at)) == NULL)
        return nomem(G);
    (*elem)->u.subscript.index = ixv;
    (*elem)->u.subscript.nindex = 1;
    return 0;
}

/* for T in zip(x0, ..., g(...), ...) with one generator:
 *     zip0$y<k> = x0 ...; index$y<k> = 0
 *     for item$y<k> in g(...):
 *         if index$y<k> >= len(zip0$y<k>): break      (per other iterable)
 *         T = (zip0$y<k>[index$y<k>], ..., item$y<k>, ...); index$y<k> += 1
 *         body
 * The exhaustion breaks leave an else block to run, as zip ending does. */
static int inline_zip(uf__gen_ctx *G, uf__stmt *s, int gi, uf__gen_out *o)
{
    uf__expr *it = s->u.for_.iter;
    uf__pos at = it->pos;
    int n = it->u.call.nargs;
    if (n > 8)
        return uf__gen_refuse(G, UF_ERR_UNSUPPORTED, at, "zip() of more than 8 "
                      "iterables with a generator is not supported");
    int k = G->ninlined++;
    const char *ix = uf__gen_temp(G, "index", k), *v = uf__gen_temp(G, "item",
                                                                     k);
    if (ix == NULL || v == NULL)
        return nomem(G);
    uf__expr *elems[8];
    uf__stmt *stops[8];
    int nstops = 0;
    uf__gen_out body = {0};
    for (int j = 0; j < n; j++) {
        if (j == gi) {
            elems[j] = uf__gen_name(G, v, at);
            continue;
        }
        uf__expr *len;
        int rc = zip_part(G, it->u.call.args[j], ix, k, j, &len, &elems[j],
                          o);
        if (rc)
            return rc;
        uf__expr *cmp = uf__gen_expr(G, UF__EX_COMPARE, at);
        uf__expr **ops = uf__arena_alloc(G->arena, 2, sizeof *ops, G->err);
        uf__cmpop *cops = uf__arena_alloc(G->arena, 1, sizeof *cops, G->err);
        if (cmp == NULL || ops == NULL || cops == NULL ||
            (ops[0] = uf__gen_name(G, ix, at)) == NULL)
            return nomem(G);
        ops[1] = len;
        cops[0] = UF__CMP_GE;
        cmp->u.compare.operands = ops;
        cmp->u.compare.ops = cops;
        cmp->u.compare.nops = 1;
        uf__stmt *stop = uf__gen_if_break(G, cmp, at);
        if (!uf__gen_emit(G, &body, stop))
            return nomem(G);
        stops[nstops++] = stop->u.if_.body.stmts[0];
    }
    uf__stmt *inc = uf__gen_stmt(G, UF__ST_AUGASSIGN, at);
    if (!uf__gen_emit(G, o, uf__gen_assign(G, uf__gen_name(G, ix, at),
                                   uf__gen_int(G, 0, at), at)) ||
        inc == NULL ||
        (inc->u.augassign.target = uf__gen_name(G, ix, at)) == NULL ||
        (inc->u.augassign.value = uf__gen_int(G, 1, at)) == NULL ||
        !uf__gen_emit(G, &body, uf__gen_assign(G, s->u.for_.target,
                                       uf__gen_tuple(G, elems, n, at), at)) ||
        !uf__gen_emit(G, &body, inc) || !uf__gen_emit_block(G, &body, &s->u.for_.body))
        return nomem(G);
    inc->u.augassign.op = UF__OP_ADD;
    const uf__stmt *def = gen_called(G, it->u.call.args[gi]);
    s->u.for_.iter = it->u.call.args[gi];
    if ((s->u.for_.target = uf__gen_name(G, v, at)) == NULL)
        return nomem(G);
    set_block(&body, &s->u.for_.body);
    return inline_for(G, s, def, stops, nstops, o);
}

/* ---- list(g(...)), sorted(), min(), max() -------------------------------- */

typedef struct hoist {
    uf__gen_ctx *G;
    uf__gen_out *o;
    bool in_while; /* the expressions are a while loop's condition */
    int rc;
} hoist;

static bool is_collector(const uf__expr *e)
{
    return is_builtin_call(e, "list") || is_builtin_call(e, "sorted") ||
           is_builtin_call(e, "min") || is_builtin_call(e, "max");
}

/* list$y<k> = []; for item$y<k> in g(...): list$y<k>.append(item$y<k>)
 * before the statement, and e (list(...)) or its argument replaced by
 * list$y<k>. */
static int hoist_expr(const uf__expr *ce, void *ud)
{
    hoist *H = ud;
    uf__gen_ctx *G = H->G;
    uf__expr *e = (uf__expr *)ce; /* the tree is ours to rewrite */
    int rc = uf__ast_children(e, hoist_expr, ud);
    if (rc)
        return rc;
    if (!is_collector(e) || e->u.call.nargs != 1 ||
        gen_called(G, e->u.call.args[0]) == NULL)
        return 0;
    uf__pos at = e->pos;
    if (H->in_while)
        return uf__gen_refuse(G, UF_ERR_UNSUPPORTED, at, "%s() of a generator in a "
                      "while loop's condition is not supported",
                      e->u.call.func->u.name.id);
    int k = G->ninlined++;
    const char *l = uf__gen_temp(G, "list", k), *v = uf__gen_temp(G, "item",
                                                                   k);
    uf__stmt *loop = uf__gen_stmt(G, UF__ST_FOR, at);
    uf__stmt *app = uf__gen_stmt(G, UF__ST_EXPR, at);
    uf__expr *meth = uf__gen_expr(G, UF__EX_ATTR, at);
    uf__expr *item = uf__gen_name(G, v, at);
    if (loop == NULL || app == NULL || meth == NULL || item == NULL ||
        !uf__gen_emit(G, H->o, uf__gen_assign(G, uf__gen_name(G, l, at),
                                      uf__gen_expr(G, UF__EX_LIST, at), at)) ||
        (meth->u.attr.value = uf__gen_name(G, l, at)) == NULL ||
        (app->u.expr.value = uf__gen_call(G, "x", &item, 1, at)) == NULL ||
        (loop->u.for_.target = uf__gen_name(G, v, at)) == NULL ||
        !uf__gen_block(G, &app, 1, &loop->u.for_.body) ||
        !uf__gen_block(G, NULL, 0, &loop->u.for_.orelse))
        return nomem(G);
    meth->u.attr.attr = "append";
    meth->u.attr.attr_pos = at;
    app->u.expr.value->u.call.func = meth;
    loop->u.for_.iter = e->u.call.args[0];
    if ((rc = rewrite_stmt(G, loop, H->o)))
        return rc;
    if (is_builtin_call(e, "list")) {
        e->kind = UF__EX_NAME;
        e->u.name.id = l;
    } else if ((e->u.call.args[0] = uf__gen_name(G, l, at)) == NULL) {
        return nomem(G);
    }
    return 0;
}

/* ---- statements ----------------------------------------------------------- */

static int stray_call(const uf__expr *e, void *ud)
{
    uf__gen_ctx *G = ud;
    const uf__stmt *def = gen_called(G, e);
    if (def != NULL)
        return uf__gen_refuse(G, UF_ERR_UNSUPPORTED, e->pos, "%s() is a generator: "
                      "ufjit compiles a generator call as the iterable of a "
                      "for loop (also in enumerate() or zip()), as the "
                      "argument of list(), sorted(), min() or max(), or "
                      "kept in a variable for next() and for loops in the "
                      "same function, or made in the call passing it to an "
                      "njit function; passing one kept in a variable, or "
                      "returning one, is not supported",
                      def->u.funcdef.name);
    return uf__ast_children(e, stray_call, ud);
}

static int rewrite_stmt(uf__gen_ctx *G, uf__stmt *s, uf__gen_out *o)
{
    hoist H = {G, o, s->kind == UF__ST_WHILE, 0};
    int rc = uf__ast_stmt_exprs(s, hoist_expr, &H);
    if (rc)
        return rc;
    if (s->kind == UF__ST_FOR) {
        uf__expr *it = s->u.for_.iter;
        const uf__stmt *def = gen_called(G, it);
        if (def != NULL)
            return inline_for(G, s, def, NULL, 0, o);
        if (is_builtin_call(it, "enumerate") && it->u.call.nargs >= 1 &&
            (def = gen_called(G, it->u.call.args[0])) != NULL)
            return inline_enumerate(G, s, def, o);
        if (is_builtin_call(it, "zip")) {
            int gi = -1;
            for (int j = 0; j < it->u.call.nargs; j++) {
                if (gen_called(G, it->u.call.args[j]) == NULL)
                    continue;
                if (gi >= 0)
                    return uf__gen_refuse(G, UF_ERR_UNSUPPORTED, it->u.call.args[j]->pos,
                                  "zip() of two generators is not supported: "
                                  "ufjit inlines a generator into the loop "
                                  "consuming it, and runs one at a time");
                gi = j;
            }
            if (gi >= 0 && it->u.call.nkw == 0)
                return inline_zip(G, s, gi, o);
        }
    }
    switch (s->kind) {
    case UF__ST_IF:
        if ((rc = rewrite_block(G, &s->u.if_.body)) ||
            (rc = rewrite_block(G, &s->u.if_.orelse)))
            return rc;
        break;
    case UF__ST_FOR:
        if ((rc = rewrite_block(G, &s->u.for_.body)) ||
            (rc = rewrite_block(G, &s->u.for_.orelse)))
            return rc;
        break;
    case UF__ST_WHILE:
        if ((rc = rewrite_block(G, &s->u.while_.body)) ||
            (rc = rewrite_block(G, &s->u.while_.orelse)))
            return rc;
        break;
    default:
        break;
    }
    if ((rc = uf__ast_stmt_exprs(s, stray_call, G)))
        return rc;
    return uf__gen_emit(G, o, s) ? 0 : nomem(G);
}

/* ---- a generator kept in a variable -------------------------------------- */

typedef struct count {
    const char *name;
    int n;
} count;

static int count_expr(const uf__expr *e, void *ud)
{
    count *c = ud;
    c->n += e->kind == UF__EX_NAME && strcmp(e->u.name.id, c->name) == 0;
    return uf__ast_children(e, count_expr, ud);
}

static int count_stmt(uf__stmt *s, void *ud)
{
    return uf__ast_stmt_exprs(s, count_expr, ud);
}

typedef struct reads {
    const uf__gen_names *stored;
    bool hit;
} reads;

static int read_expr(const uf__expr *e, void *ud)
{
    reads *r = ud;
    r->hit |= e->kind == UF__EX_NAME &&
              uf__gen_names_has(r->stored, e->u.name.id);
    return uf__ast_children(e, read_expr, ud);
}

/* it = g(...) at b->stmts[i], read once in the function, as the iterable
 * of the for loop b->stmts[j] (j > i), nothing the call reads assigned in
 * between (Numba's generator would have bound them at the call): the
 * call moves into the loop, as iterbind.c does for np.ndindex(). */
static bool forward(uf__gen_ctx *G, uf__block *b, int i, bool *nomem_)
{
    uf__stmt *s = b->stmts[i];
    if (s->kind != UF__ST_ASSIGN || s->u.assign.ntargets != 1 ||
        s->u.assign.targets[0]->kind != UF__EX_NAME ||
        gen_called(G, s->u.assign.value) == NULL)
        return false;
    const char *name = s->u.assign.targets[0]->u.name.id;
    count c = {name, 0};
    uf__ast_walk_stmts(G->scope, count_stmt, &c);
    if (c.n != 2)
        return false;
    for (int j = i + 1; j < b->n; j++) {
        uf__stmt *l = b->stmts[j];
        if (l->kind != UF__ST_FOR || l->u.for_.iter->kind != UF__EX_NAME ||
            strcmp(l->u.for_.iter->u.name.id, name) != 0)
            continue;
        uf__gen_names stored = {0};
        uf__block between = {b->stmts + i + 1, j - i - 1};
        if (!uf__gen_stored_names(G, &between, &stored)) {
            *nomem_ = true;
            return false;
        }
        reads r = {&stored, false};
        read_expr(s->u.assign.value, &r);
        if (r.hit)
            return false;
        l->u.for_.iter = s->u.assign.value;
        return true;
    }
    return false;
}

static int rewrite_block(uf__gen_ctx *G, uf__block *b)
{
    uf__gen_out o = {0};
    for (int i = 0; i < b->n; i++) {
        bool oom = false;
        if (forward(G, b, i, &oom))
            continue;
        if (oom)
            return nomem(G);
        int rc = rewrite_stmt(G, b->stmts[i], &o);
        if (rc)
            return rc;
    }
    set_block(&o, b);
    return 0;
}

/* ---- the module ----------------------------------------------------------- */

/* A decorated def (an njit function, or a lifted nested def) with a
 * yield; a plain Python generator is no kernel, as any plain def. */
static bool is_generator_def(uf__stmt *s)
{
    return s->kind == UF__ST_FUNCDEF &&
           (s->u.funcdef.ndecorators > 0 || s->u.funcdef.closure_of) &&
           uf__ast_walk_stmts(&s->u.funcdef.body, find_yield_stmt, NULL) != 0;
}

static void refuse_def(uf__stmt *def, const char *why, uf__pos pos, int code)
{
    if (def->u.funcdef.refused != NULL)
        return;
    def->u.funcdef.refused = why;
    def->u.funcdef.refused_pos = pos;
    def->u.funcdef.refused_code = code;
}

/* A def using generators: not one itself, nor refused already. */
static bool consumer_def(uf__gen_ctx *G, uf__stmt *s)
{
    bool is_gen = false;
    for (int j = 0; j < G->ngens; j++)
        is_gen |= G->gens[j] == s;
    return s->kind == UF__ST_FUNCDEF && !is_gen &&
           s->u.funcdef.refused == NULL &&
           uf__ast_walk_stmts(&s->u.funcdef.body, find_yield_stmt, NULL) == 0;
}

/* The names s assigns shadow generators; false: out of memory */
static bool begin_def(uf__gen_ctx *G, uf__stmt *s)
{
    G->why = NULL;
    G->shadow.n = 0;
    for (int j = 0; j < s->u.funcdef.nparams; j++)
        if (!uf__gen_names_add(G, &G->shadow, s->u.funcdef.params[j].name))
            return false;
    if (!uf__gen_stored_names(G, &s->u.funcdef.body, &G->shadow))
        return false;
    G->scope = &s->u.funcdef.body;
    return true;
}

int uf__inline_generators(uf__ast_module *m, uf__arena *arena, uf_error *err)
{
    uf__gen_ctx G = {0};
    G.m = m;
    G.arena = arena;
    G.err = err;
    int ngens = 0;
    for (int i = 0; i < m->body.n; i++) {
        uf__stmt *s = m->body.stmts[i];
        ngens += is_generator_def(s);
    }
    if (ngens == 0)
        return 0;
    G.gens = uf__arena_alloc(arena, (size_t)ngens, sizeof *G.gens, err);
    G.parse_refusal = uf__arena_alloc(arena, (size_t)ngens,
                                      sizeof *G.parse_refusal, err);
    if (G.gens == NULL || G.parse_refusal == NULL)
        return UF_ERR_NOMEM;
    char buf[512];
    for (int i = 0; i < m->body.n; i++) {
        uf__stmt *s = m->body.stmts[i];
        if (!is_generator_def(s))
            continue;
        G.parse_refusal[G.ngens] = s->u.funcdef.refused; /* yield from */
        G.gens[G.ngens++] = s;
        /* compiled on its own (uf_call, ufjit call): its object would be
         * the result, which no caller outside njit code can take */
        int n = snprintf(buf, sizeof buf, "%s() is a generator function: "
                         "ufjit runs generators inside njit code only (for "
                         "loops, next(), enumerate(), zip(), list(), sorted(),"
                         " min(), max()); a generator object cannot be "
                         "returned to the caller", s->u.funcdef.name);
        const char *why = s->u.funcdef.closure_of != NULL
                              ? "The use of yield in a closure is unsupported."
                              : uf__arena_strndup(arena, buf, (size_t)n, err);
        if (why == NULL)
            return UF_ERR_NOMEM;
        refuse_def(s, why, s->u.funcdef.name_pos, UF_ERR_UNSUPPORTED);
    }
    /* first the calls passing generators (copies of the callees made
     * before any body is rewritten), then each def's own */
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < m->body.n; i++) {
            uf__stmt *s = m->body.stmts[i];
            if (!consumer_def(&G, s))
                continue;
            if (!begin_def(&G, s))
                return UF_ERR_NOMEM;
            int rc = pass == 0 ? uf__gen_pass_def(&G, &s->u.funcdef.body)
                               : uf__gen_step_def(&G, &s->u.funcdef.body);
            if (rc == 0 && pass == 1)
                rc = rewrite_block(&G, &s->u.funcdef.body);
            if (rc == -2)
                refuse_def(s, G.why, G.where, G.code);
            else if (rc != 0)
                return err->code ? err->code : UF_ERR_NOMEM;
        }
    /* the defaults were copied into the calls; the module scan refuses
     * them on kernels, which a generator never is on its own */
    for (int j = 0; j < G.ngens; j++) {
        uf__stmt *g = (uf__stmt *)G.gens[j];
        for (int i = 0; i < g->u.funcdef.nparams; i++)
            g->u.funcdef.params[i].default_value = NULL;
    }
    return 0;
}
