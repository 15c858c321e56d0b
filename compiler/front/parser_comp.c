/* Comprehensions and sort keys, rewritten into statements that run before
 * the statement holding them (p->pending), as Numba's bytecode runs them:
 * `[ELT for T in I if C]` and `{KEY: ELT for ...}` become a new list or
 * dict filled by a loop; `sorted(X, key=K)` / `L.sort(key=K)` get their
 * keys computed once per item, before the sort. Called by parser_expr.c's
 * atoms and call arguments. */
#include <stdio.h>
#include <string.h>

#include "compiler/front/ast_visit.h"
#include "compiler/front/parser.h"

/* The names bound by a comprehension's target (a name or a tuple of
 * them), renamed in the expressions that see them. */
typedef struct rename {
    const char *from, *to;
} comp_rename;

static int rename_in(const uf__expr *e, void *ud)
{
    const comp_rename *r = ud;
    if (e->kind == UF__EX_NAME && strcmp(e->u.name.id, r->from) == 0)
        ((uf__expr *)e)->u.name.id = r->to; /* this comprehension's node */
    return uf__ast_children(e, rename_in, ud);
}

static int rename_stmt(uf__stmt *s, void *ud)
{
    return uf__ast_stmt_exprs(s, rename_in, ud);
}

static bool pend(uf__parser *p, uf__stmt *s)
{
    if (s == NULL || !uf__grow(p, (void **)&p->pending, &p->cappending,
                               p->npending,
                               sizeof(void *)))
        return false;
    p->pending[p->npending++] = s;
    return true;
}

static bool one_stmt(uf__parser *p, uf__block *b, uf__stmt *s)
{
    b->stmts = uf__arena_alloc(p->arena, 1, sizeof *b->stmts, p->err);
    if (b->stmts == NULL) {
        p->failed = true;
        return false;
    }
    b->stmts[0] = s;
    b->n = 1;
    return true;
}

/* Block b (one statement) gets the statements of `first` before it. */
static bool prepend(uf__parser *p, uf__block *b, const uf__block *first)
{
    uf__stmt **all = uf__arena_alloc(p->arena, (size_t)(first->n + b->n),
                                     sizeof *all, p->err);
    if (all == NULL) {
        p->failed = true;
        return false;
    }
    memcpy(all, first->stmts, (size_t)first->n * sizeof *all);
    memcpy(all + first->n, b->stmts, (size_t)b->n * sizeof *all);
    b->stmts = all;
    b->n += first->n;
    return true;
}

/* listcomp: '[' named_expression for_if_clause+ ']'
 * for_if_clause: 'for' star_targets 'in' disjunction ('if' disjunction)*
 * Rewritten as Numba's bytecode runs it, into statements put before the
 * statement holding it (p->pending):
 *     lc$K = []
 *     for T in I: [if C:] ... lc$K.append(ELT)
 * the comprehension's value the name lc$K; the targets renamed (x$K) so
 * that they stay local to it as in Python 3. A comprehension in ELT
 * (nested) has its statements moved into the innermost body, before the
 * append. Refused where those statements would not run once per
 * evaluation (a while or elif condition) and in the iterables and
 * conditions of another comprehension. A dict comprehension
 * `{KEY: ELT for ...}` (key not NULL) the same way, into `lc$K = {}` and
 * `lc$K[KEY] = ELT`. */
uf__expr *uf__parse_listcomp(uf__parser *p, uf__pos start, uf__expr *elt,
                            int mark, uf__expr *key)
{
    if (p->no_comp > 0)
        return uf__unsupported(p, start, key ? "a dict comprehension here "
                               "(in a while or elif condition, or in the "
                               "iterable or condition of another "
                               "comprehension: assign it to a variable "
                               "first)"
                               : "a list comprehension here (in a "
                               "while or elif condition, or in the "
                               "iterable or condition of another "
                               "comprehension: assign it to a variable "
                               "first)");
    /* comprehensions in the element (`[[j for j in range(i)] for i in
     * ...]`) pended their statements: they run once per element, in the
     * innermost body before the append */
    uf__block moved = {0};
    if (p->npending > mark) {
        moved.n = p->npending - mark;
        moved.stmts = uf__arena_alloc(p->arena, (size_t)moved.n,
                                      sizeof *moved.stmts, p->err);
        if (moved.stmts == NULL) {
            p->failed = true;
            return NULL;
        }
        memcpy(moved.stmts, &p->pending[mark],
               (size_t)moved.n * sizeof *moved.stmts);
        p->npending = mark;
    }
    int k = p->ncomps++;
    enum { MAXC = 16 };
    uf__stmt *clause[MAXC];
    int nc = 0;
    p->no_comp++;
    while (uf__at(p, UF__TOK_KW_FOR)) {
        uf__token *kw = uf__advance(p);
        uf__stmt *f = nc < MAXC ? uf__new_stmt(p, UF__ST_FOR, kw->pos) : NULL;
        if (f == NULL) {
            p->no_comp--;
            return nc < MAXC ? NULL
                             : uf__unsupported(p, kw->pos, "a comprehension "
                                               "of more than 16 clauses");
        }
        clause[nc++] = f;
        if (!(f->u.for_.target = uf__parse_target_list(p)) ||
            !uf__accept(p, UF__TOK_KW_IN) ||
            !(f->u.for_.iter = uf__parse_disjunction(p))) {
            p->no_comp--;
            return p->failed ? NULL : uf__unexpected(p);
        }
        while (uf__at(p, UF__TOK_KW_IF)) {
            uf__token *ik = uf__advance(p);
            uf__stmt *c = nc < MAXC ? uf__new_stmt(p, UF__ST_IF, ik->pos)
                                    : NULL;
            if (c == NULL || !(c->u.if_.cond = uf__parse_disjunction(p))) {
                p->no_comp--;
                return c == NULL && nc >= MAXC
                           ? uf__unsupported(p, ik->pos, "a comprehension "
                                             "of more than 16 clauses")
                           : NULL;
            }
            clause[nc++] = c;
        }
    }
    p->no_comp--;
    if (!uf__accept(p, key ? UF__TOK_RBRACE : UF__TOK_RSQB))
        return uf__bad_after(p, elt);
    /* the targets of clause i are seen by the clauses after it (their
     * iterables too) and by the element */
    for (int i = 0; i < nc; i++) {
        if (clause[i]->kind != UF__ST_FOR)
            continue;
        uf__expr *t = clause[i]->u.for_.target;
        uf__expr **names = t->kind == UF__EX_NAME ? &clause[i]->u.for_.target
                                                  : t->u.seq.elts;
        int nn = t->kind == UF__EX_NAME ? 1 : t->u.seq.n;
        for (int j = 0; j < nn; j++) {
            if (names[j]->kind != UF__EX_NAME)
                return uf__unsupported(p, names[j]->pos, "this target of a "
                                       "comprehension");
            char buf[96];
            int len = snprintf(buf, sizeof buf, "%s$%d", names[j]->u.name.id,
                               k);
            comp_rename r = {names[j]->u.name.id,
                        uf__arena_strndup(p->arena, buf, (size_t)len,
                                          p->err)};
            if (r.to == NULL) {
                p->failed = true;
                return NULL;
            }
            names[j]->u.name.id = r.to;
            for (int m = i + 1; m < nc; m++) {
                uf__stmt *c = clause[m];
                if (c->kind == UF__ST_IF) {
                    rename_in(c->u.if_.cond, &r);
                } else {
                    rename_in(c->u.for_.iter, &r);
                }
            }
            for (int m = i; m < nc; m++)
                if (clause[m]->kind == UF__ST_IF)
                    rename_in(clause[m]->u.if_.cond, &r);
            rename_in(elt, &r);
            if (key != NULL)
                rename_in(key, &r);
            if (moved.n > 0)
                uf__ast_walk_stmts(&moved, rename_stmt, &r);
        }
    }
    char buf[32];
    int len = snprintf(buf, sizeof buf, "lc$%d", k);
    const char *lc = uf__arena_strndup(p->arena, buf, (size_t)len, p->err);
    uf__pvec none = {0};
    uf__expr *empty = key ? uf__brace_call(p, start, &none, "dict")
                          : uf__new_expr(p, UF__EX_LIST, start);
    uf__expr *target = uf__new_expr(p, UF__EX_NAME, start);
    uf__expr *recv = uf__new_expr(p, UF__EX_NAME, elt->pos);
    uf__expr *meth = uf__new_expr(p, UF__EX_ATTR, elt->pos);
    uf__expr *call = uf__new_expr(p, UF__EX_CALL, elt->pos);
    uf__expr *value = uf__new_expr(p, UF__EX_NAME, start);
    uf__expr **args = uf__arena_alloc(p->arena, 1, sizeof *args, p->err);
    uf__expr **tg = uf__arena_alloc(p->arena, 1, sizeof *tg, p->err);
    uf__stmt *init = uf__new_stmt(p, UF__ST_ASSIGN, start);
    uf__stmt *app = uf__new_stmt(p, UF__ST_EXPR, elt->pos);
    if (!lc || !empty || !target || !recv || !meth || !call || !value ||
        !args || !tg || !init || !app) {
        p->failed = true;
        return NULL;
    }
    target->u.name.id = recv->u.name.id = value->u.name.id = lc;
    tg[0] = target;
    init->u.assign.targets = tg;
    init->u.assign.ntargets = 1;
    init->u.assign.value = empty;
    meth->u.attr.value = recv;
    meth->u.attr.attr = "append";
    meth->u.attr.attr_pos = elt->pos;
    args[0] = elt;
    call->u.call.func = meth;
    call->u.call.args = args;
    call->u.call.nargs = 1;
    app->u.expr.value = call;
    if (key != NULL) { /* lc$K[KEY] = ELT */
        uf__expr *sub = uf__new_expr(p, UF__EX_SUBSCRIPT, elt->pos);
        uf__expr **ix = uf__arena_alloc(p->arena, 1, sizeof *ix, p->err);
        uf__expr **st = uf__arena_alloc(p->arena, 1, sizeof *st, p->err);
        app = uf__new_stmt(p, UF__ST_ASSIGN, key->pos);
        if (!sub || !ix || !st || !app) {
            p->failed = true;
            return NULL;
        }
        ix[0] = key;
        sub->u.subscript.value = recv;
        sub->u.subscript.index = ix;
        sub->u.subscript.nindex = 1;
        st[0] = sub;
        app->u.assign.targets = st;
        app->u.assign.ntargets = 1;
        app->u.assign.value = elt;
    }
    uf__stmt *inner = app;
    for (int i = nc - 1; i >= 0; i--) {
        uf__block *b = clause[i]->kind == UF__ST_FOR ? &clause[i]->u.for_.body
                                                     : &clause[i]->u.if_.body;
        if (i == nc - 1 && moved.n > 0) { /* the element's statements */
            if (!one_stmt(p, b, inner) || !prepend(p, b, &moved))
                return NULL;
        } else if (!one_stmt(p, b, inner)) {
            return NULL;
        }
        inner = clause[i];
    }
    if (!pend(p, init) || !pend(p, clause[0]))
        return NULL;
    return value;
}

static uf__expr *name_expr(uf__parser *p, uf__pos pos, const char *id)
{
    uf__expr *e = uf__new_expr(p, UF__EX_NAME, pos);
    if (e == NULL || id == NULL) {
        p->failed = true;
        return NULL;
    }
    e->u.name.id = id;
    return e;
}

static const char *temp_name(uf__parser *p, const char *stem, int k)
{
    char buf[32];
    int len = snprintf(buf, sizeof buf, "%s$%d", stem, k);
    return uf__arena_strndup(p->arena, buf, (size_t)len, p->err);
}

/* sorted(X, key=K, reverse=R) and L.sort(key=K, reverse=R), K a lambda or
 * a function (not None): Numba's `_lst = [key(x) for x in lst]` computes
 * every key once, before the sort, so the keys are made here by
 * statements put before the statement holding the call, as a list
 * comprehension's are:
 *     srt$K = list(X)            (when X is not a name: Numba's
 *                                 sorted starts with list(X))
 *     key$K = []
 *     for v$K in X: key$K.append(K(v$K))   (a lambda's body, its
 *                                            parameter renamed v$K)
 * and key= becomes the name key$K, a list of keys, which the typing
 * (types/infer_list_ops.c) takes from here only. lam_kw is the index of
 * a key= lambda (-1: none), lam_param its parameter. */
uf__expr *uf__parse_sort_key(uf__parser *p, uf__expr *e, int lam_kw,
                             const char *lam_param)
{
    int ki = -1;
    for (int i = 0; i < e->u.call.nkw; i++)
        if (strcmp(e->u.call.kw[i].name, "key") == 0)
            ki = i;
    if (ki < 0)
        return e;
    uf__expr *f = e->u.call.func, *kv = e->u.call.kw[ki].value;
    bool is_sorted = f->kind == UF__EX_NAME &&
                     strcmp(f->u.name.id, "sorted") == 0 &&
                     e->u.call.nargs >= 1;
    bool is_sort = f->kind == UF__EX_ATTR &&
                   strcmp(f->u.attr.attr, "sort") == 0;
    if (!is_sorted && !is_sort)
        return lam_kw < 0 ? e : uf__unsupported(p, kv->pos, "lambda");
    if (lam_kw < 0 && kv->kind != UF__EX_NAME && kv->kind != UF__EX_ATTR)
        return e; /* None, or refused by the typing */
    if (p->no_comp > 0)
        return uf__unsupported(p, kv->pos, "a sort key= here (in a while or "
                               "elif condition, or inside a comprehension: "
                               "sort into a variable first)");
    uf__expr *src = is_sorted ? e->u.call.args[0] : f->u.attr.value;
    if (is_sort && src->kind != UF__EX_NAME)
        return uf__unsupported(p, src->pos, "sort(key=...) of a list that "
                               "is not a variable (assign it to one first)");
    int k = p->ncomps++;
    if (src->kind != UF__EX_NAME) { /* srt$K = list(X), evaluated once */
        uf__expr *t = name_expr(p, src->pos, temp_name(p, "srt", k));
        uf__expr **tg = uf__arena_alloc(p->arena, 1, sizeof *tg, p->err);
        uf__expr **la = uf__arena_alloc(p->arena, 1, sizeof *la, p->err);
        uf__expr *mk = uf__new_expr(p, UF__EX_CALL, src->pos);
        uf__stmt *s = uf__new_stmt(p, UF__ST_ASSIGN, src->pos);
        if (!t || !tg || !la || !mk || !s ||
            !(mk->u.call.func = name_expr(p, src->pos, "list"))) {
            p->failed = true;
            return NULL;
        }
        la[0] = src;
        mk->u.call.args = la;
        mk->u.call.nargs = 1;
        tg[0] = t;
        s->u.assign.targets = tg;
        s->u.assign.ntargets = 1;
        s->u.assign.value = mk;
        if (!pend(p, s))
            return NULL;
        e->u.call.args[0] = src = name_expr(p, src->pos, t->u.name.id);
        if (src == NULL)
            return NULL;
    }
    uf__pos at = kv->pos;
    const char *keys = temp_name(p, "key", k), *v = temp_name(p, "v", k);
    uf__expr *elt = kv;
    if (lam_kw >= 0) { /* the body, its parameter renamed */
        comp_rename r = {lam_param, v};
        if (v == NULL) {
            p->failed = true;
            return NULL;
        }
        rename_in(kv, &r);
    } else { /* K(v$K) */
        uf__expr **a = uf__arena_alloc(p->arena, 1, sizeof *a, p->err);
        elt = uf__new_expr(p, UF__EX_CALL, at);
        if (!a || !elt || !(a[0] = name_expr(p, at, v))) {
            p->failed = true;
            return NULL;
        }
        elt->u.call.func = kv;
        elt->u.call.args = a;
        elt->u.call.nargs = 1;
    }
    uf__expr *target = name_expr(p, at, keys), *recv = name_expr(p, at, keys);
    uf__expr *var = name_expr(p, at, v), *iter = name_expr(p, at,
                                                          src->u.name.id);
    uf__expr *meth = uf__new_expr(p, UF__EX_ATTR, at);
    uf__expr *call = uf__new_expr(p, UF__EX_CALL, at);
    uf__expr *empty = uf__new_expr(p, UF__EX_LIST, at);
    uf__expr **args = uf__arena_alloc(p->arena, 1, sizeof *args, p->err);
    uf__expr **tg = uf__arena_alloc(p->arena, 1, sizeof *tg, p->err);
    uf__stmt *init = uf__new_stmt(p, UF__ST_ASSIGN, at);
    uf__stmt *app = uf__new_stmt(p, UF__ST_EXPR, at);
    uf__stmt *loop = uf__new_stmt(p, UF__ST_FOR, at);
    uf__expr *ref = name_expr(p, at, keys);
    if (!target || !recv || !var || !iter || !meth || !call || !empty ||
        !args || !tg || !init || !app || !loop || !ref) {
        p->failed = true;
        return NULL;
    }
    tg[0] = target;
    init->u.assign.targets = tg;
    init->u.assign.ntargets = 1;
    init->u.assign.value = empty;
    meth->u.attr.value = recv;
    meth->u.attr.attr = "append";
    meth->u.attr.attr_pos = at;
    args[0] = elt;
    call->u.call.func = meth;
    call->u.call.args = args;
    call->u.call.nargs = 1;
    app->u.expr.value = call;
    loop->u.for_.target = var;
    loop->u.for_.iter = iter;
    if (!one_stmt(p, &loop->u.for_.body, app) || !pend(p, init) ||
        !pend(p, loop))
        return NULL;
    e->u.call.kw[ki].value = ref;
    return e;
}

