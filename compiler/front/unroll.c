/* Loops over numba.literal_unroll(), rewritten before SSA the way Numba
 * compiles them (its literal_unroll pass): a loop over the item indices
 * whose body switches on the index to a copy of the loop body for each
 * item, so that each copy is typed with its item's type:
 *
 *     for v in literal_unroll(t):        lu$ = t
 *         body                           if lu$:      <- typing decides
 *     else:                                  for v in lu$: body
 *         tail                               else: tail
 *                                        else:
 *                                            for uk$ in range(len(lu$)):
 *                                                if uk$ == 0: v = lu$[0]; body
 *                                                ...
 *                                                if uk$ == 31: v = lu$[31]; body
 *                                            else: tail
 *
 * The length of t is known only when typing, so the copies go up to
 * UF__UNROLL_MAX and typing prunes the tests (types/infer_unroll.c):
 * copies past the tuple's end are dead, and what is not a tuple of at
 * most that many items (a list, an array, a long tuple of one type) takes
 * the plain loop. A tuple or list display gives exactly its items' copies;
 * where the item is an integer literal and the body never assigns v,
 * reads of v in its copy are the literal itself (Numba's v is a
 * Literal[int] there: t[v] indexes a heterogeneous tuple).
 *
 * As the copies stay inside one loop, break and continue keep their
 * meaning, the else block runs when no break left the loop, and what the
 * body assigns joins across the copies at the loop's head: `s += v` over
 * an int and a float makes s a float, as in Numba, and two types that do
 * not unify are refused where the variable is read after the loop. */
#include <stdio.h>
#include <string.h>

#include "compiler/front/ast_visit.h"
#include "compiler/front/unroll.h"

typedef struct unroll {
    uf__ast_module *m;
    uf__arena *arena;
    uf_error *err;
    int ntemps;
    const uf__stmt *def; /* the function walked */
    /* names the file binds to numba.literal_unroll, to the numba module */
    const char *names[8], *mods[8];
    int nnames, nmods;
    /* locals of the function assigned once, by literal_unroll(x): a loop
     * over one is a loop over literal_unroll(x) (Numba follows them) */
    const char *vars[8];
    int nvars;
} unroll;

/* reads of `name` in a copy of the body are `value` (NULL: none) */
typedef struct subst {
    const char *name;
    const uf__expr *value;
} subst;

static void *alloc(unroll *U, size_t n, size_t size)
{
    return uf__arena_alloc(U->arena, n ? n : 1, size, U->err);
}

static uf__expr *new_expr(unroll *U, uf__expr_kind kind, uf__pos pos)
{
    uf__expr *e = alloc(U, 1, sizeof *e);
    if (e == NULL)
        return NULL;
    e->kind = kind;
    e->pos = pos;
    e->id = U->m->nexprs++;
    return e;
}

static uf__expr *name_expr(unroll *U, const char *id, uf__pos pos)
{
    uf__expr *e = new_expr(U, UF__EX_NAME, pos);
    if (e != NULL)
        e->u.name.id = id;
    return e;
}

static uf__expr *int_expr(unroll *U, int v, uf__pos pos)
{
    uf__expr *e = new_expr(U, UF__EX_INT, pos);
    if (e != NULL)
        e->u.i.value = (uint64_t)v;
    return e;
}

/* ---- copying the body ------------------------------------------------ */

static uf__expr *clone_expr(unroll *U, const uf__expr *e, const subst *sub);

static uf__expr **clone_exprs(unroll *U, uf__expr *const *xs, int n,
                              const subst *sub)
{
    uf__expr **c = alloc(U, (size_t)n, sizeof *c);
    if (c == NULL)
        return NULL;
    for (int i = 0; i < n; i++)
        if (xs[i] != NULL && (c[i] = clone_expr(U, xs[i], sub)) == NULL)
            return NULL;
    return c;
}

/* e with every node new (its own id), sharing only strings and operator
 * arrays; a read of sub->name is a copy of sub->value at the read. */
static uf__expr *clone_expr(unroll *U, const uf__expr *e, const subst *sub)
{
    if (e == NULL)
        return NULL;
    if (sub != NULL && e->kind == UF__EX_NAME &&
        strcmp(e->u.name.id, sub->name) == 0) {
        uf__expr *v = clone_expr(U, sub->value, NULL);
        if (v != NULL)
            v->pos = e->pos;
        return v;
    }
    uf__expr *c = new_expr(U, e->kind, e->pos);
    if (c == NULL)
        return NULL;
    int id = c->id;
    *c = *e;
    c->id = id;
    bool ok = true;
    switch (e->kind) {
    case UF__EX_ATTR:
        ok = (c->u.attr.value = clone_expr(U, e->u.attr.value, sub)) != NULL;
        break;
    case UF__EX_CALL:
        ok = (c->u.call.func = clone_expr(U, e->u.call.func, sub)) != NULL &&
             (c->u.call.args = clone_exprs(U, e->u.call.args, e->u.call.nargs,
                                           sub)) != NULL;
        if (ok && e->u.call.nkw > 0) {
            c->u.call.kw = alloc(U, (size_t)e->u.call.nkw, sizeof *c->u.call.kw);
            ok = c->u.call.kw != NULL;
            for (int i = 0; ok && i < e->u.call.nkw; i++) {
                c->u.call.kw[i] = e->u.call.kw[i];
                ok = (c->u.call.kw[i].value =
                          clone_expr(U, e->u.call.kw[i].value, sub)) != NULL;
            }
        }
        break;
    case UF__EX_SUBSCRIPT:
        ok = (c->u.subscript.value = clone_expr(U, e->u.subscript.value,
                                                sub)) != NULL &&
             (c->u.subscript.index = clone_exprs(U, e->u.subscript.index,
                                                 e->u.subscript.nindex,
                                                 sub)) != NULL;
        break;
    case UF__EX_SLICE:
        ok = (!e->u.slice.lower ||
              (c->u.slice.lower = clone_expr(U, e->u.slice.lower, sub))) &&
             (!e->u.slice.upper ||
              (c->u.slice.upper = clone_expr(U, e->u.slice.upper, sub))) &&
             (!e->u.slice.step ||
              (c->u.slice.step = clone_expr(U, e->u.slice.step, sub)));
        break;
    case UF__EX_UNARY:
        ok = (c->u.unary.operand = clone_expr(U, e->u.unary.operand, sub)) !=
             NULL;
        break;
    case UF__EX_BINARY:
        ok = (c->u.binary.left = clone_expr(U, e->u.binary.left, sub)) &&
             (c->u.binary.right = clone_expr(U, e->u.binary.right, sub));
        break;
    case UF__EX_BOOLOP:
        ok = (c->u.boolop.values = clone_exprs(U, e->u.boolop.values,
                                               e->u.boolop.n, sub)) != NULL;
        break;
    case UF__EX_COMPARE:
        ok = (c->u.compare.operands = clone_exprs(U, e->u.compare.operands,
                                                  e->u.compare.nops + 1,
                                                  sub)) != NULL;
        break;
    case UF__EX_IFEXP:
        ok = (c->u.ifexp.cond = clone_expr(U, e->u.ifexp.cond, sub)) &&
             (c->u.ifexp.then = clone_expr(U, e->u.ifexp.then, sub)) &&
             (c->u.ifexp.orelse = clone_expr(U, e->u.ifexp.orelse, sub));
        break;
    case UF__EX_TUPLE:
    case UF__EX_LIST:
        ok = (c->u.seq.elts = clone_exprs(U, e->u.seq.elts, e->u.seq.n,
                                          sub)) != NULL;
        break;
    default: /* literals and names */
        break;
    }
    return ok ? c : NULL;
}

static int clone_block(unroll *U, const uf__block *b, uf__block *out,
                       const subst *sub);

static uf__stmt *clone_stmt(unroll *U, const uf__stmt *s, const subst *sub)
{
    uf__stmt *c = alloc(U, 1, sizeof *c);
    if (c == NULL)
        return NULL;
    *c = *s;
    bool ok = true;
    switch (s->kind) {
    case UF__ST_EXPR:
        ok = (c->u.expr.value = clone_expr(U, s->u.expr.value, sub)) != NULL;
        break;
    case UF__ST_ASSIGN:
        ok = (c->u.assign.targets = clone_exprs(U, s->u.assign.targets,
                                                s->u.assign.ntargets,
                                                sub)) != NULL &&
             (c->u.assign.value = clone_expr(U, s->u.assign.value, sub));
        break;
    case UF__ST_AUGASSIGN:
        ok = (c->u.augassign.target = clone_expr(U, s->u.augassign.target,
                                                 sub)) &&
             (c->u.augassign.value = clone_expr(U, s->u.augassign.value,
                                                sub));
        break;
    case UF__ST_IF:
        ok = (!s->u.if_.cond ||
              (c->u.if_.cond = clone_expr(U, s->u.if_.cond, sub))) &&
             clone_block(U, &s->u.if_.body, &c->u.if_.body, sub) == 0 &&
             clone_block(U, &s->u.if_.orelse, &c->u.if_.orelse, sub) == 0;
        break;
    case UF__ST_FOR:
        ok = (c->u.for_.target = clone_expr(U, s->u.for_.target, sub)) &&
             (c->u.for_.iter = clone_expr(U, s->u.for_.iter, sub)) &&
             clone_block(U, &s->u.for_.body, &c->u.for_.body, sub) == 0 &&
             clone_block(U, &s->u.for_.orelse, &c->u.for_.orelse, sub) == 0;
        break;
    case UF__ST_WHILE:
        ok = (c->u.while_.cond = clone_expr(U, s->u.while_.cond, sub)) &&
             clone_block(U, &s->u.while_.body, &c->u.while_.body, sub) == 0 &&
             clone_block(U, &s->u.while_.orelse, &c->u.while_.orelse,
                         sub) == 0;
        break;
    case UF__ST_RETURN:
        ok = !s->u.ret.value ||
             (c->u.ret.value = clone_expr(U, s->u.ret.value, sub));
        break;
    case UF__ST_ASSERT:
        ok = (c->u.assert_.test = clone_expr(U, s->u.assert_.test, sub)) &&
             (!s->u.assert_.msg ||
              (c->u.assert_.msg = clone_expr(U, s->u.assert_.msg, sub)));
        break;
    case UF__ST_RAISE:
        ok = (c->u.raise.args = clone_exprs(U, s->u.raise.args,
                                            s->u.raise.nargs, sub)) != NULL;
        break;
    default: /* break, continue, pass; imports and defs (refused when typed) */
        break;
    }
    return ok ? c : NULL;
}

static int clone_block(unroll *U, const uf__block *b, uf__block *out,
                       const subst *sub)
{
    out->n = b->n;
    out->stmts = alloc(U, (size_t)b->n, sizeof *out->stmts);
    if (out->stmts == NULL)
        return -1;
    for (int i = 0; i < b->n; i++)
        if ((out->stmts[i] = clone_stmt(U, b->stmts[i], sub)) == NULL)
            return -1;
    return 0;
}

/* ---- what the file calls literal_unroll -------------------------------- */

static bool in(const char *const *xs, int n, const char *s)
{
    for (int i = 0; i < n; i++)
        if (strcmp(xs[i], s) == 0)
            return true;
    return false;
}

static bool is_numba(const char *module)
{
    return strcmp(module, "numba") == 0 || strcmp(module, "ufjit") == 0;
}

/* `from numba import literal_unroll [as lu]`, `import numba [as nb]`. */
static void find_names(unroll *U)
{
    for (int i = 0; i < U->m->body.n; i++) {
        const uf__stmt *s = U->m->body.stmts[i];
        if (s->kind == UF__ST_IMPORTFROM && s->u.importfrom.level == 0 &&
            is_numba(s->u.importfrom.module))
            for (int j = 0; j < s->u.importfrom.n && U->nnames < 8; j++) {
                const uf__alias *a = &s->u.importfrom.names[j];
                if (strcmp(a->name, "literal_unroll") == 0)
                    U->names[U->nnames++] = a->asname ? a->asname : a->name;
            }
        if (s->kind == UF__ST_IMPORT)
            for (int j = 0; j < s->u.import.n && U->nmods < 8; j++) {
                const uf__alias *a = &s->u.import.names[j];
                if (a->asname && is_numba(a->name))
                    U->mods[U->nmods++] = a->asname;
                else if (!a->asname && (is_numba(a->name) ||
                                        strncmp(a->name, "numba.", 6) == 0))
                    U->mods[U->nmods++] = a->name[0] == 'u' ? "ufjit"
                                                            : "numba";
            }
    }
}

/* 1: literal_unroll(...) by a name the file imported it as (the loops
 * Numba unrolls); 2: numba.literal_unroll(...) (Numba's pass does not see
 * it: a plain call returning its argument); 0: neither. */
static int lu_call(const unroll *U, const uf__expr *e)
{
    if (e->kind != UF__EX_CALL)
        return 0;
    const uf__expr *f = e->u.call.func;
    if (f->kind == UF__EX_NAME && in(U->names, U->nnames, f->u.name.id))
        return 1;
    if (f->kind == UF__EX_ATTR && f->u.attr.value->kind == UF__EX_NAME &&
        strcmp(f->u.attr.attr, "literal_unroll") == 0 &&
        in(U->mods, U->nmods, f->u.attr.value->u.name.id))
        return 2;
    return 0;
}

static bool one_argument(const uf__expr *call)
{
    return call->u.call.nargs == 1 && call->u.call.nkw == 0 &&
           !call->u.call.starred;
}

/* Whether s is a loop Numba unrolls: over literal_unroll(...) by name, or
 * over a local assigned once by such a call. */
static bool lu_loop(const unroll *U, const uf__stmt *s)
{
    if (s->kind != UF__ST_FOR)
        return false;
    const uf__expr *it = s->u.for_.iter;
    return lu_call(U, it) == 1 ||
           (it->kind == UF__EX_NAME && in(U->vars, U->nvars, it->u.name.id));
}

/* literal_unroll(x) outside a loop's iterable is x (Numba's overload
 * returns its argument): the call node takes the argument's place. */
static int strip_call(const uf__expr *e, void *ud)
{
    uf__expr *x = (uf__expr *)e; /* the tree is the pass's to rewrite */
    while (lu_call(ud, x) && one_argument(x))
        *x = *x->u.call.args[0];
    return uf__ast_children(x, strip_call, ud);
}

/* ---- scans of the body ----------------------------------------------- */

typedef struct find {
    const unroll *U;
    const char *name; /* assigns: the name */
    const uf__stmt *hit;
} find;

static int target_is(const uf__expr *e, void *ud)
{
    find *F = ud;
    if (e->kind == UF__EX_NAME)
        return strcmp(e->u.name.id, F->name) == 0;
    if (e->kind == UF__EX_TUPLE || e->kind == UF__EX_LIST)
        return uf__ast_children(e, target_is, ud);
    return 0;
}

static int assigns_stmt(uf__stmt *s, void *ud)
{
    return uf__ast_stmt_targets(s, target_is, ud);
}

/* Whether b assigns `name` anywhere. */
static bool assigns(const unroll *U, const uf__block *b, const char *name)
{
    find F = {U, name, NULL};
    return uf__ast_walk_stmts(b, assigns_stmt, &F) != 0;
}

static int refused_stmt(uf__stmt *s, void *ud)
{
    find *F = ud;
    if (s->kind == UF__ST_RETURN || lu_loop(F->U, s)) {
        F->hit = s;
        return 1;
    }
    return 0;
}

/* Marks loop s refused: typing reports it at `pos`. */
static void refuse(uf__stmt *s, uf__pos pos, int code, const char *why)
{
    s->u.for_.refused = why;
    s->u.for_.refused_pos = pos;
    s->u.for_.refused_code = code;
}

/* ---- the rewrite ------------------------------------------------------ */

typedef struct stmts {
    uf__stmt **s;
    int n, cap;
} stmts;

static int push(unroll *U, stmts *L, uf__stmt *s)
{
    if (s == NULL)
        return -1;
    if (L->n == L->cap) {
        int nc = L->cap ? 2 * L->cap : 8;
        uf__stmt **g = alloc(U, (size_t)nc, sizeof *g);
        if (g == NULL)
            return -1;
        if (L->n)
            memcpy(g, L->s, (size_t)L->n * sizeof *g);
        L->s = g;
        L->cap = nc;
    }
    L->s[L->n++] = s;
    return 0;
}

static uf__stmt *new_stmt(unroll *U, uf__stmt_kind kind, uf__pos pos)
{
    uf__stmt *s = alloc(U, 1, sizeof *s);
    if (s != NULL) {
        s->kind = kind;
        s->pos = pos;
    }
    return s;
}

static uf__stmt *assign_stmt(unroll *U, uf__expr *target, uf__expr *value,
                             uf__pos pos)
{
    uf__stmt *s = new_stmt(U, UF__ST_ASSIGN, pos);
    uf__expr **t = alloc(U, 1, sizeof *t);
    if (s == NULL || t == NULL || target == NULL || value == NULL)
        return NULL;
    t[0] = target;
    s->u.assign.targets = t;
    s->u.assign.ntargets = 1;
    s->u.assign.value = value;
    return s;
}

static const char *temp_name(unroll *U, const char *what)
{
    char buf[48];
    int n = snprintf(buf, sizeof buf, "%s$%d", what, U->ntemps++);
    return uf__arena_strndup(U->arena, buf, (size_t)n, U->err);
}

static uf__expr *call1(unroll *U, const char *fn, uf__expr *arg, uf__pos pos)
{
    uf__expr *e = new_expr(U, UF__EX_CALL, pos);
    uf__expr **args = alloc(U, 1, sizeof *args);
    if (e == NULL || args == NULL || arg == NULL ||
        (e->u.call.func = name_expr(U, fn, pos)) == NULL)
        return NULL;
    args[0] = arg;
    e->u.call.args = args;
    e->u.call.nargs = 1;
    return e;
}

/* An integer written in the source, which Numba types as a Literal[int]
 * in the item's copy (t[v] then indexes a heterogeneous tuple). Strings
 * stay variables: ufjit's isinstance() takes no Literal[str]. */
static bool is_literal(const uf__expr *e)
{
    if (e->kind == UF__EX_UNARY && (e->u.unary.op == UF__OP_NEG ||
                                    e->u.unary.op == UF__OP_POS))
        e = e->u.unary.operand;
    return e->kind == UF__EX_INT && !e->u.i.too_big;
}

/* `if k == K: v = lu[K]; body` for item K (`lit`: its literal, or NULL). */
static uf__stmt *copy_of(unroll *U, const uf__stmt *loop, const char *k,
                         const char *lu, int K, const uf__expr *lit)
{
    const uf__expr *target = loop->u.for_.target;
    uf__pos at = loop->pos, ip = loop->u.for_.iter->pos;
    uf__stmt *s = new_stmt(U, UF__ST_IF, at);
    uf__expr *cmp = new_expr(U, UF__EX_COMPARE, at);
    uf__expr **ops = alloc(U, 2, sizeof *ops);
    uf__cmpop *op = alloc(U, 1, sizeof *op);
    uf__expr **ix = alloc(U, 1, sizeof *ix);
    uf__expr *sub = new_expr(U, UF__EX_SUBSCRIPT, ip);
    if (s == NULL || cmp == NULL || ops == NULL || op == NULL || ix == NULL ||
        sub == NULL || (ops[0] = name_expr(U, k, at)) == NULL ||
        (ops[1] = int_expr(U, K, at)) == NULL ||
        (sub->u.subscript.value = name_expr(U, lu, ip)) == NULL ||
        (ix[0] = int_expr(U, K, ip)) == NULL)
        return NULL;
    *op = UF__CMP_EQ;
    cmp->u.compare.operands = ops;
    cmp->u.compare.ops = op;
    cmp->u.compare.nops = 1;
    sub->u.subscript.index = ix;
    sub->u.subscript.nindex = 1;
    s->u.if_.cond = cmp;
    subst sb = {target->u.name.id, lit};
    uf__block body;
    if (clone_block(U, &loop->u.for_.body, &body, lit ? &sb : NULL) != 0)
        return NULL;
    uf__stmt **g = alloc(U, (size_t)body.n + 1, sizeof *g);
    if (g == NULL || (g[0] = assign_stmt(U, name_expr(U, target->u.name.id,
                                                      target->pos),
                                         sub, target->pos)) == NULL)
        return NULL;
    if (body.n)
        memcpy(g + 1, body.stmts, (size_t)body.n * sizeof *g);
    s->u.if_.body = (uf__block){g, body.n + 1};
    return s;
}

/* `for k in range(count): copies... else: tail` over the n items of lu;
 * count is n when known (a display), else len(lu). `items`: the
 * display's, for their literals; `mark`: copies guarded for typing. */
static uf__stmt *counted(unroll *U, const uf__stmt *loop, const char *lu,
                         int n, bool known, uf__expr *const *items,
                         const uf__block *tail)
{
    uf__pos at = loop->pos;
    const char *k = temp_name(U, "uk");
    uf__stmt *f = new_stmt(U, UF__ST_FOR, at);
    if (k == NULL || f == NULL)
        return NULL;
    uf__expr *count = known ? int_expr(U, n, at)
                            : call1(U, "len", name_expr(U, lu, at), at);
    if ((f->u.for_.iter = call1(U, "range", count, at)) == NULL ||
        (f->u.for_.target = name_expr(U, k, at)) == NULL)
        return NULL;
    bool literals = items != NULL &&
                    !assigns(U, &loop->u.for_.body,
                             loop->u.for_.target->u.name.id);
    stmts L = {NULL, 0, 0};
    for (int K = 0; K < n; K++) {
        const uf__expr *lit = literals && is_literal(items[K]) ? items[K]
                                                              : NULL;
        uf__stmt *c = copy_of(U, loop, k, lu, K, lit);
        if (c == NULL || push(U, &L, c) < 0)
            return NULL;
        if (!known) {
            c->u.if_.unroll.tuple = lu;
            c->u.if_.unroll.copy = K;
            c->u.if_.unroll.at = loop->pos;
        }
    }
    f->u.for_.body = (uf__block){L.s, L.n};
    if (tail != NULL)
        f->u.for_.orelse = *tail;
    return f;
}

static int walk_block(unroll *U, uf__block *b);

/* for v in literal_unroll(x): the statements replacing loop s, onto L. */
static int rewrite(unroll *U, uf__stmt *s, stmts *L)
{
    uf__expr *call = s->u.for_.iter;
    uf__expr *target = s->u.for_.target;
    if (call->kind == UF__EX_CALL && !one_argument(call)) {
        refuse(s, call->pos, UF_ERR_TYPING, "literal_unroll() takes exactly "
               "one argument");
        return push(U, L, s);
    }
    uf__expr *x = call->kind == UF__EX_CALL ? call->u.call.args[0] : call;
    s->u.for_.iter = x; /* what the refused loops and plain ones see */
    find F = {U, NULL, NULL};
    if (target->kind != UF__EX_NAME) {
        refuse(s, target->pos, UF_ERR_TYPING, "a loop over literal_unroll() "
               "takes a single name as its target: Numba fails to unpack "
               "the items there");
        return push(U, L, s);
    }
    if (uf__ast_walk_stmts(&s->u.for_.body, refused_stmt, &F) != 0) {
        if (F.hit->kind == UF__ST_RETURN)
            refuse(s, F.hit->pos, UF_ERR_TYPING, "a return inside a loop "
                   "over literal_unroll() is not supported: Numba cannot "
                   "type it");
        else
            refuse(s, F.hit->pos, UF_ERR_UNSUPPORTED, "Nesting of "
                   "literal_unroll is unsupported");
        return push(U, L, s);
    }
    if (x->kind == UF__EX_STR) {
        refuse(s, x->pos, UF_ERR_UNSUPPORTED, "Invalid use of "
               "literal_unroll, argument should be a tuple or a list of "
               "constant values");
        return push(U, L, s);
    }
    bool display = x->kind == UF__EX_TUPLE || x->kind == UF__EX_LIST;
    if ((display && x->u.seq.n == 0) ||
        (x->kind == UF__EX_CALL && x->u.call.func->kind == UF__EX_NAME &&
         strcmp(x->u.call.func->u.name.id, "range") == 0)) {
        /* literal_unroll(range(n)) loops plainly; () is refused by the
         * typing of `for v in ()` as Numba's getiter refuses it */
        x->kind = display ? UF__EX_TUPLE : x->kind;
        if (walk_block(U, &s->u.for_.body) < 0 ||
            walk_block(U, &s->u.for_.orelse) < 0)
            return -1;
        return push(U, L, s);
    }
    /* a list display is a tuple (Numba's const list to tuple pass) */
    x->kind = display ? UF__EX_TUPLE : x->kind;
    const char *lu = temp_name(U, "lu");
    if (lu == NULL ||
        push(U, L, assign_stmt(U, name_expr(U, lu, x->pos), x, x->pos)) < 0)
        return -1;
    uf__stmt *out;
    if (display) {
        out = counted(U, s, lu, x->u.seq.n, true, x->u.seq.elts,
                      &s->u.for_.orelse);
    } else {
        /* if lu: the plain loop; else: the copies (types/infer_unroll.c) */
        uf__block tail;
        uf__stmt *f = counted(U, s, lu, UF__UNROLL_MAX, false, NULL, NULL);
        out = new_stmt(U, UF__ST_IF, s->pos);
        uf__stmt **one = alloc(U, 1, sizeof *one), **other =
            alloc(U, 1, sizeof *other);
        if (f == NULL || out == NULL || one == NULL || other == NULL ||
            clone_block(U, &s->u.for_.orelse, &tail, NULL) != 0 ||
            (out->u.if_.cond = name_expr(U, lu, x->pos)) == NULL)
            return -1;
        f->u.for_.orelse = tail;
        s->u.for_.iter = name_expr(U, lu, x->pos);
        one[0] = s;
        other[0] = f;
        out->u.if_.body = (uf__block){one, 1};
        out->u.if_.orelse = (uf__block){other, 1};
        const char *xn = x->kind == UF__EX_NAME ? x->u.name.id : NULL;
        bool param = false;
        for (int i = 0; xn && i < U->def->u.funcdef.nparams; i++)
            param |= strcmp(U->def->u.funcdef.params[i].name, xn) == 0;
        out->u.if_.unroll.tuple = lu;
        out->u.if_.unroll.copy = -1;
        out->u.if_.unroll.of_arg =
            param && !assigns(U, &U->def->u.funcdef.body, xn);
        out->u.if_.unroll.at = x->pos;
    }
    if (out == NULL || push(U, L, out) < 0)
        return -1;
    /* what the copies hold (an else block's own loops, calls to strip) */
    uf__block here = {&L->s[L->n - 1], 1};
    return walk_block(U, &here);
}

static int walk_stmt(unroll *U, uf__stmt *s)
{
    if (uf__ast_stmt_exprs(s, strip_call, U) != 0)
        return -1;
    switch (s->kind) {
    case UF__ST_IF:
        return walk_block(U, &s->u.if_.body) < 0 ? -1
               : walk_block(U, &s->u.if_.orelse);
    case UF__ST_FOR:
        return walk_block(U, &s->u.for_.body) < 0 ? -1
               : walk_block(U, &s->u.for_.orelse);
    case UF__ST_WHILE:
        return walk_block(U, &s->u.while_.body) < 0 ? -1
               : walk_block(U, &s->u.while_.orelse);
    default:
        return 0;
    }
}

static int walk_block(unroll *U, uf__block *b)
{
    bool any = false;
    for (int i = 0; i < b->n; i++)
        any |= lu_loop(U, b->stmts[i]);
    if (!any) {
        for (int i = 0; i < b->n; i++)
            if (walk_stmt(U, b->stmts[i]) < 0)
                return -1;
        return 0;
    }
    stmts L = {NULL, 0, 0};
    for (int i = 0; i < b->n; i++) {
        uf__stmt *s = b->stmts[i];
        int rc = lu_loop(U, s) ? rewrite(U, s, &L)
                     : walk_stmt(U, s) < 0 ? -1 : push(U, &L, s);
        if (rc < 0)
            return -1;
    }
    b->stmts = L.s;
    b->n = L.n;
    return 0;
}

typedef struct bound {
    unroll *U;
    const char *name;
    int n; /* assignments of name */
} bound;

static int count_target(const uf__expr *e, void *ud)
{
    bound *B = ud;
    if (e->kind == UF__EX_NAME)
        B->n += strcmp(e->u.name.id, B->name) == 0;
    else if (e->kind == UF__EX_TUPLE || e->kind == UF__EX_LIST)
        uf__ast_children(e, count_target, ud);
    return 0;
}

static int count_stmt(uf__stmt *s, void *ud)
{
    return uf__ast_stmt_targets(s, count_target, ud);
}

/* `x = literal_unroll(t)` with x assigned nowhere else: into U->vars. */
static int find_var(uf__stmt *s, void *ud)
{
    bound *B = ud;
    unroll *U = B->U;
    if (s->kind != UF__ST_ASSIGN || s->u.assign.ntargets != 1 ||
        s->u.assign.targets[0]->kind != UF__EX_NAME ||
        lu_call(U, s->u.assign.value) != 1 ||
        !one_argument(s->u.assign.value) || U->nvars == 8)
        return 0;
    bound C = {U, s->u.assign.targets[0]->u.name.id, 0};
    uf__ast_walk_stmts(&U->def->u.funcdef.body, count_stmt, &C);
    if (C.n == 1)
        U->vars[U->nvars++] = C.name;
    return 0;
}

int uf__unroll_literal(uf__ast_module *m, uf__arena *arena, uf_error *err)
{
    unroll U;
    memset(&U, 0, sizeof U);
    U.m = m;
    U.arena = arena;
    U.err = err;
    find_names(&U);
    if (U.nnames == 0 && U.nmods == 0)
        return 0;
    for (int i = 0; i < m->body.n; i++) {
        uf__stmt *s = m->body.stmts[i];
        if (s->kind != UF__ST_FUNCDEF)
            continue;
        U.def = s;
        U.nvars = 0;
        bound B = {&U, NULL, 0};
        uf__ast_walk_stmts(&s->u.funcdef.body, find_var, &B);
        if (walk_block(&U, &s->u.funcdef.body) < 0)
            return err ? err->code : -1;
    }
    return 0;
}
