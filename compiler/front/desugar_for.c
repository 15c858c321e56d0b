/* for-loops over enumerate() and zip(), which Numba compiles in nopython
 * code, rewritten before SSA into the counted loops the kernel language
 * has (desugar_for.h):
 *
 *     for i, (x, y) in enumerate(zip(a, b), 1):   it0 = a; it1 = b
 *         body                              ->     for k in range(min(len(it0), len(it1))):
 *                                                      i = k + 1
 *                                                      x = it0[k]; y = it1[k]
 *                                                      body
 *
 * Each iterable is evaluated once, before the loop, as Python does; its
 * elements are what `for x in a` gives (a number of a 1-D array, a row
 * view of an n-d one), and range() counts (a step too: len(range(...))
 * gives the count, lower_range_len.c). A
 * single name bound to an enumerate()/zip() gets the tuple.
 *
 * A tuple target of np.ndindex(), np.ndenumerate() or np.nditer() (which
 * lower_npiter.c lowers as such) becomes a name unpacked at the top of
 * the body; enumerate() of one counts in a variable of its own. */
#include <stdio.h>
#include <string.h>

#include "compiler/front/desugar_for.h"

typedef struct desugar {
    uf__ast_module *m;
    uf__arena *arena;
    uf_error *err;
    int ntemps;
    /* a loop refused (-2 from bind): why and where, for typing to say */
    const char *why;
    uf__pos where;
    int code;
    bool shadow_enumerate, shadow_zip; /* the names are the file's own */
    /* statements before the loop, and at the top of its body */
    uf__stmt **pre, **bind;
    int npre, nbind, cappre, capbind;
} desugar;

static uf__expr *new_expr(desugar *D, uf__expr_kind kind, uf__pos pos)
{
    uf__expr *e = uf__arena_alloc(D->arena, 1, sizeof *e, D->err);
    if (e == NULL)
        return NULL;
    e->kind = kind;
    e->pos = pos;
    e->id = D->m->nexprs++;
    return e;
}

static uf__expr *name_expr(desugar *D, const char *id, uf__pos pos)
{
    uf__expr *e = new_expr(D, UF__EX_NAME, pos);
    if (e != NULL)
        e->u.name.id = id;
    return e;
}

static uf__expr *int_expr(desugar *D, uint64_t v, uf__pos pos)
{
    uf__expr *e = new_expr(D, UF__EX_INT, pos);
    if (e != NULL)
        e->u.i.value = v;
    return e;
}

/* fn(a) or fn(a, b) (b NULL for one argument) of a builtin. */
static uf__expr *call_expr(desugar *D, const char *fn, uf__expr *a,
                           uf__expr *b, uf__pos pos)
{
    if (a == NULL)
        return NULL;
    uf__expr *e = new_expr(D, UF__EX_CALL, pos);
    uf__expr **args = uf__arena_alloc(D->arena, 2, sizeof *args, D->err);
    if (e == NULL || args == NULL || !(e->u.call.func = name_expr(D, fn, pos)))
        return NULL;
    args[0] = a;
    args[1] = b;
    e->u.call.args = args;
    e->u.call.nargs = b ? 2 : 1;
    return e;
}

static uf__expr *binary_expr(desugar *D, uf__binop op, uf__expr *l,
                             uf__expr *r, uf__pos pos)
{
    if (l == NULL || r == NULL)
        return NULL;
    uf__expr *e = new_expr(D, UF__EX_BINARY, pos);
    if (e != NULL) {
        e->u.binary.op = op;
        e->u.binary.left = l;
        e->u.binary.right = r;
    }
    return e;
}

static uf__expr *index_expr(desugar *D, uf__expr *v, uf__expr *i,
                            uf__pos pos)
{
    uf__expr *e = new_expr(D, UF__EX_SUBSCRIPT, pos);
    uf__expr **ix = uf__arena_alloc(D->arena, 1, sizeof *ix, D->err);
    if (e == NULL || ix == NULL || v == NULL || i == NULL)
        return NULL;
    ix[0] = i;
    e->u.subscript.value = v;
    e->u.subscript.index = ix;
    e->u.subscript.nindex = 1;
    return e;
}

/* A name no Python source can spell (the SSA pass's versions use '.'). */
static const char *temp_name(desugar *D, const char *what)
{
    char buf[48];
    int n = snprintf(buf, sizeof buf, "%s$%d", what, D->ntemps++);
    return uf__arena_strndup(D->arena, buf, (size_t)n, D->err);
}

static int push(desugar *D, uf__stmt ***list, int *n, int *cap, uf__stmt *s)
{
    if (s == NULL)
        return -1;
    if (*n == *cap) {
        int nc = *cap ? 2 * *cap : 8;
        uf__stmt **g = uf__arena_alloc(D->arena, (size_t)nc, sizeof *g,
                                       D->err);
        if (g == NULL)
            return -1;
        if (*n)
            memcpy(g, *list, (size_t)*n * sizeof *g);
        *list = g;
        *cap = nc;
    }
    (*list)[(*n)++] = s;
    return 0;
}

static uf__stmt *assign_stmt(desugar *D, uf__expr *target, uf__expr *value,
                             uf__pos pos)
{
    if (target == NULL || value == NULL)
        return NULL;
    uf__stmt *s = uf__arena_alloc(D->arena, 1, sizeof *s, D->err);
    uf__expr **t = uf__arena_alloc(D->arena, 1, sizeof *t, D->err);
    if (s == NULL || t == NULL)
        return NULL;
    t[0] = target;
    s->kind = UF__ST_ASSIGN;
    s->pos = pos;
    s->u.assign.targets = t;
    s->u.assign.ntargets = 1;
    s->u.assign.value = value;
    return s;
}

/* `tmp = value` before the loop; the name of tmp. */
static const char *evaluate_once(desugar *D, uf__expr *value)
{
    const char *t = temp_name(D, "it");
    if (t == NULL)
        return NULL;
    uf__stmt *s = assign_stmt(D, name_expr(D, t, value->pos), value,
                              value->pos);
    return push(D, &D->pre, &D->npre, &D->cappre, s) < 0 ? NULL : t;
}

static bool is_call_of(const desugar *D, const uf__expr *e, const char *fn)
{
    if (e->kind != UF__EX_CALL || e->u.call.func->kind != UF__EX_NAME ||
        strcmp(e->u.call.func->u.name.id, fn) != 0)
        return false;
    if (strcmp(fn, "enumerate") == 0)
        return !D->shadow_enumerate;
    if (strcmp(fn, "zip") == 0)
        return !D->shadow_zip;
    return true;
}

static bool is_combinator(const desugar *D, const uf__expr *e)
{
    return is_call_of(D, e, "enumerate") || is_call_of(D, e, "zip");
}

/* E.flat: counted too (flat[k] of an F or strided array is no view) */
static bool is_flat(const uf__expr *e)
{
    return e->kind == UF__EX_ATTR && strcmp(e->u.attr.attr, "flat") == 0;
}

/* t.flat, for the temporary t that holds E of E.flat */
static uf__expr *flat_of(desugar *D, const char *t, const uf__expr *flat)
{
    uf__expr *e = new_expr(D, UF__EX_ATTR, flat->pos);
    if (e == NULL || (e->u.attr.value = name_expr(D, t, flat->pos)) == NULL)
        return NULL;
    e->u.attr.attr = flat->u.attr.attr;
    e->u.attr.attr_pos = flat->u.attr.attr_pos;
    return e;
}

/* A loop the rewrite refuses: typing reports it (only if the function is
 * compiled, as Numba would), so the file still loads. */
static int refuse_code(desugar *D, int code, uf__pos pos, const char *msg)
{
    D->why = uf__arena_strndup(D->arena, msg, strlen(msg), D->err);
    D->where = pos;
    D->code = code;
    return D->why ? -2 : -1;
}

static int refuse(desugar *D, uf__pos pos, const char *msg)
{
    return refuse_code(D, UF_ERR_UNSUPPORTED, pos, msg);
}

/* The element source of iterable `it` for counter `k`: *len gets the
 * number of elements, *elem (when target is NULL) the element's value,
 * else target is bound to it by statements in D->bind. */
static int bind(desugar *D, uf__expr *target, uf__expr *it, const char *k,
                uf__expr **len, uf__expr **elem);

/* Binds each part of a tuple target, or builds the tuple for a name. */
static int bind_parts(desugar *D, uf__expr *target, uf__expr **iters,
                      uf__expr **prefix, int n, const char *k,
                      uf__expr **len, uf__expr **elem, uf__pos pos)
{
    int first = prefix ? 1 : 0, total = first + n;
    uf__expr **vals = NULL;
    if (target != NULL && target->kind == UF__EX_TUPLE) {
        if (target->u.seq.n != total) {
            char msg[128];
            snprintf(msg, sizeof msg, "cannot unpack %d values into %d names",
                     total, target->u.seq.n);
            return refuse_code(D, UF_ERR_TYPING, target->pos, msg);
        }
    } else {
        vals = uf__arena_alloc(D->arena, (size_t)total, sizeof *vals, D->err);
        if (vals == NULL)
            return -1;
    }
    bool tuple_target = vals == NULL;
    if (prefix) {
        if (tuple_target) {
            uf__stmt *s = assign_stmt(D, target->u.seq.elts[0], *prefix, pos);
            if (push(D, &D->bind, &D->nbind, &D->capbind, s) < 0)
                return -1;
        } else {
            vals[0] = *prefix;
        }
    }
    *len = NULL;
    for (int i = 0; i < n; i++) {
        uf__expr *l = NULL, *v = NULL;
        uf__expr *t = tuple_target ? target->u.seq.elts[first + i] : NULL;
        int rc = bind(D, t, iters[i], k, &l, tuple_target ? NULL : &v);
        if (rc < 0)
            return rc;
        if (!tuple_target)
            vals[first + i] = v;
        *len = *len && l ? call_expr(D, "min", *len, l, pos) : l;
        if (*len == NULL)
            return -1;
    }
    if (tuple_target)
        return 0;
    uf__expr *tup = new_expr(D, UF__EX_TUPLE, pos);
    if (tup == NULL)
        return -1;
    tup->u.seq.elts = vals;
    tup->u.seq.n = total;
    if (elem != NULL) {
        *elem = tup;
        return 0;
    }
    uf__stmt *s = assign_stmt(D, target, tup, pos);
    return push(D, &D->bind, &D->nbind, &D->capbind, s);
}

static int bind_enumerate(desugar *D, uf__expr *target, uf__expr *it,
                          const char *k, uf__expr **len, uf__expr **elem)
{
    uf__expr *start = it->u.call.nargs == 2 ? it->u.call.args[1] : NULL;
    /* Numba takes start only by position */
    if (it->u.call.nkw != 0)
        return refuse(D, it->u.call.kw[0].pos, "enumerate() takes start by "
                      "position, not as a keyword (as Numba)");
    if (it->u.call.nargs < 1 || it->u.call.nargs > 2)
        return refuse(D, it->pos, "enumerate() takes an iterable and an "
                      "optional start");
    uf__expr *count = name_expr(D, k, it->pos);
    if (start != NULL) {
        const char *s = start->kind == UF__EX_INT ? NULL
                                                  : evaluate_once(D, start);
        if (start->kind != UF__EX_INT && s == NULL)
            return -1;
        count = binary_expr(D, UF__OP_ADD, count,
                            s ? name_expr(D, s, start->pos) : start,
                            start->pos);
    }
    if (count == NULL)
        return -1;
    return bind_parts(D, target, it->u.call.args, &count, 1, k, len, elem,
                      it->pos);
}

/* range(stop) or range(start, stop): start + k, max(stop - start, 0);
 * range(start, stop, step): start + k*step, len(range(start, stop, step))
 * (which raises ValueError for a zero step, as Python and Numba do when
 * the loop starts). */
static int bind_range(desugar *D, uf__expr *target, uf__expr *it,
                      const char *k, uf__expr **len, uf__expr **elem)
{
    int n = it->u.call.nargs;
    if (n < 1 || n > 3 || it->u.call.nkw != 0)
        return refuse_code(D, UF_ERR_TYPING, it->pos, "range() takes 1 to "
                           "3 integer arguments, by position");
    const char *arg[3] = {NULL, NULL, NULL};
    for (int i = 0; i < n; i++)
        if ((arg[i] = evaluate_once(D, it->u.call.args[i])) == NULL)
            return -1;
    const char *stop = arg[n == 1 ? 0 : 1], *start = n > 1 ? arg[0] : NULL;
    const char *step = n == 3 ? arg[2] : NULL;
    uf__pos p = it->pos;
    uf__expr *value = name_expr(D, k, p);
    if (step != NULL)
        value = binary_expr(D, UF__OP_MUL, value, name_expr(D, step, p), p);
    if (start != NULL)
        value = binary_expr(D, UF__OP_ADD, name_expr(D, start, p), value, p);
    if (step != NULL) {
        uf__expr *r = call_expr(D, "range", name_expr(D, start, p),
                                name_expr(D, stop, p), p);
        uf__expr **a3 = r ? uf__arena_alloc(D->arena, 3, sizeof *a3, D->err)
                          : NULL;
        if (a3 == NULL || (a3[2] = name_expr(D, step, p)) == NULL)
            return -1;
        a3[0] = r->u.call.args[0];
        a3[1] = r->u.call.args[1];
        r->u.call.args = a3;
        r->u.call.nargs = 3;
        *len = call_expr(D, "len", r, NULL, p);
    } else {
        uf__expr *count = name_expr(D, stop, p);
        if (start != NULL)
            count = binary_expr(D, UF__OP_SUB, count, name_expr(D, start, p),
                                p);
        uf__expr *zero = int_expr(D, 0, p);
        *len = count && zero ? call_expr(D, "max", count, zero, p) : NULL;
    }
    if (*len == NULL || value == NULL)
        return -1;
    if (elem != NULL) {
        *elem = value;
        return 0;
    }
    return push(D, &D->bind, &D->nbind, &D->capbind,
                assign_stmt(D, target, value, p));
}

static int bind(desugar *D, uf__expr *target, uf__expr *it, const char *k,
                uf__expr **len, uf__expr **elem)
{
    if (is_call_of(D, it, "enumerate"))
        return bind_enumerate(D, target, it, k, len, elem);
    if (is_call_of(D, it, "zip")) {
        if (it->u.call.nargs < 1 || it->u.call.nkw != 0)
            return refuse(D, it->pos, "zip() takes one or more iterables");
        return bind_parts(D, target, it->u.call.args, NULL, it->u.call.nargs,
                          k, len, elem, it->pos);
    }
    if (is_call_of(D, it, "range"))
        return bind_range(D, target, it, k, len, elem);
    /* an array (or whatever the iterable is: typing says if it is not);
     * of E.flat, E is what is evaluated once */
    bool flat = is_flat(it);
    const char *t = evaluate_once(D, flat ? it->u.attr.value : it);
    if (t == NULL)
        return -1;
    uf__pos p = it->pos;
    *len = call_expr(D, "len", flat ? flat_of(D, t, it) : name_expr(D, t, p),
                     NULL, p);
    uf__expr *value = index_expr(D, flat ? flat_of(D, t, it)
                                         : name_expr(D, t, p),
                                 name_expr(D, k, p), p);
    if (*len == NULL || value == NULL)
        return -1;
    if (elem != NULL) {
        *elem = value;
        return 0;
    }
    return push(D, &D->bind, &D->nbind, &D->capbind,
                assign_stmt(D, target, value, target->pos));
}

/* np.ndindex(...), np.ndenumerate(...), np.nditer(...) by the callee's
 * name (typing checks it is NumPy's). */
static bool is_npiter_call(const uf__expr *it)
{
    if (it->kind != UF__EX_CALL)
        return false;
    const uf__expr *f = it->u.call.func;
    const char *id = f->kind == UF__EX_NAME   ? f->u.name.id
                     : f->kind == UF__EX_ATTR ? f->u.attr.attr
                                              : "";
    return strcmp(id, "ndindex") == 0 || strcmp(id, "ndenumerate") == 0 ||
           strcmp(id, "nditer") == 0;
}

/* for T in enumerate(X[, start]) over X = np.ndindex(...) ..., which has
 * no length to count with:
 *     c$ = start                       (0 without one)
 *     for t$ in X:
 *         T = (c$, t$); c$ = c$ + 1
 *         body */
static int rewrite_enumerate_npiter(desugar *D, uf__stmt *s, uf__stmt ***out,
                                    int *n, int *cap)
{
    uf__expr *it = s->u.for_.iter, *target = s->u.for_.target;
    uf__pos p = it->pos;
    const char *c = temp_name(D, "c"), *t = temp_name(D, "ix");
    uf__expr *start = it->u.call.nargs == 2 ? it->u.call.args[1]
                                            : int_expr(D, 0, p);
    if (c == NULL || t == NULL ||
        push(D, out, n, cap, assign_stmt(D, name_expr(D, c, p), start, p)) < 0)
        return -1;
    uf__expr *tup = new_expr(D, UF__EX_TUPLE, target->pos);
    uf__expr **elts = uf__arena_alloc(D->arena, 2, sizeof *elts, D->err);
    if (tup == NULL || elts == NULL ||
        (elts[0] = name_expr(D, c, target->pos)) == NULL ||
        (elts[1] = name_expr(D, t, target->pos)) == NULL)
        return -1;
    tup->u.seq.elts = elts;
    tup->u.seq.n = 2;
    uf__stmt *bind = assign_stmt(D, target, tup, target->pos);
    uf__stmt *step = assign_stmt(
        D, name_expr(D, c, p),
        binary_expr(D, UF__OP_ADD, name_expr(D, c, p), int_expr(D, 1, p), p),
        p);
    uf__block *body = &s->u.for_.body;
    uf__stmt **g = bind && step ? uf__arena_alloc(D->arena,
                                                  (size_t)body->n + 2,
                                                  sizeof *g, D->err)
                                : NULL;
    if (g == NULL)
        return -1;
    g[0] = bind;
    g[1] = step;
    if (body->n)
        memcpy(g + 2, body->stmts, (size_t)body->n * sizeof *g);
    body->stmts = g;
    body->n += 2;
    s->u.for_.target = name_expr(D, t, target->pos);
    s->u.for_.iter = it->u.call.args[0];
    return s->u.for_.target ? push(D, out, n, cap, s) : -1;
}

/* for T in enumerate(...)/zip(...): the statements that replace it (the
 * prologue, then the counted loop) appended to *out. */
static int rewrite_for(desugar *D, uf__stmt *s, uf__stmt ***out, int *n,
                       int *cap)
{
    const uf__expr *it = s->u.for_.iter;
    if (is_call_of(D, it, "enumerate") && it->u.call.nkw == 0 &&
        (it->u.call.nargs == 1 || it->u.call.nargs == 2) &&
        is_npiter_call(it->u.call.args[0]))
        return rewrite_enumerate_npiter(D, s, out, n, cap);
    D->npre = D->nbind = 0;
    D->pre = D->bind = NULL;
    D->cappre = D->capbind = 0;
    const char *k = temp_name(D, "k");
    uf__expr *len = NULL;
    if (k == NULL)
        return -1;
    int rc = bind(D, s->u.for_.target, s->u.for_.iter, k, &len, NULL);
    if (rc == -2) { /* left as it is, with the reason */
        s->u.for_.refused = D->why;
        s->u.for_.refused_pos = D->where;
        s->u.for_.refused_code = D->code;
        return push(D, out, n, cap, s);
    }
    if (rc < 0)
        return -1;
    uf__pos p = s->u.for_.iter->pos;
    uf__expr *range = call_expr(D, "range", len, NULL, p);
    uf__expr *counter = name_expr(D, k, s->u.for_.target->pos);
    if (range == NULL || counter == NULL)
        return -1;
    for (int i = 0; i < D->npre; i++)
        if (push(D, out, n, cap, D->pre[i]) < 0)
            return -1;
    /* the element bindings, then the body */
    uf__block *body = &s->u.for_.body;
    for (int i = 0; i < body->n; i++)
        if (push(D, &D->bind, &D->nbind, &D->capbind, body->stmts[i]) < 0)
            return -1;
    body->stmts = D->bind;
    body->n = D->nbind;
    s->u.for_.target = counter;
    s->u.for_.iter = range;
    return push(D, out, n, cap, s);
}

static int walk_block(desugar *D, uf__block *b);

static int walk_stmt(desugar *D, uf__stmt *s)
{
    switch (s->kind) {
    case UF__ST_IF:
        return walk_block(D, &s->u.if_.body) < 0 ? -1
                                                 : walk_block(D, &s->u.if_.orelse);
    case UF__ST_FOR:
        return walk_block(D, &s->u.for_.body) < 0
                   ? -1
                   : walk_block(D, &s->u.for_.orelse);
    case UF__ST_WHILE:
        return walk_block(D, &s->u.while_.body) < 0
                   ? -1
                   : walk_block(D, &s->u.while_.orelse);
    case UF__ST_FUNCDEF:
        return walk_block(D, &s->u.funcdef.body);
    default:
        return 0;
    }
}

/* for (i, j) in np.ndindex(...) / np.ndenumerate(...) / np.nditer(...):
 * the callee's name only (typing checks it is NumPy's). */
static bool unpacks_npiter(const uf__stmt *s)
{
    const uf__expr *t = s->u.for_.target;
    const uf__expr *it = s->u.for_.iter;
    /* d.items() (by the attribute: typing checks d is a dict) too */
    bool items = it->kind == UF__EX_CALL &&
                 it->u.call.func->kind == UF__EX_ATTR &&
                 strcmp(it->u.call.func->u.attr.attr, "items") == 0;
    return (t->kind == UF__EX_TUPLE || t->kind == UF__EX_LIST) &&
           (items || is_npiter_call(it));
}

/* for (x, y) in pts, pts a variable: a list of tuples (types/
 * infer_list.c) or anything whose items unpack; typing checks them. */
static bool unpacks_name(const uf__stmt *s)
{
    const uf__expr *t = s->u.for_.target;
    return (t->kind == UF__EX_TUPLE || t->kind == UF__EX_LIST) &&
           s->u.for_.iter->kind == UF__EX_NAME;
}

/* for T in X: body  ->  for t$ in X: T = t$; body (Numba unpacks the
 * tuple each iteration yields the same way). */
static int unpack_target(desugar *D, uf__stmt *s)
{
    uf__expr *target = s->u.for_.target;
    const char *t = temp_name(D, "ix");
    uf__expr *name = t ? name_expr(D, t, target->pos) : NULL;
    uf__stmt *a = name ? assign_stmt(D, target, name_expr(D, t, target->pos),
                                     target->pos)
                       : NULL;
    uf__block *body = &s->u.for_.body;
    uf__stmt **g = a ? uf__arena_alloc(D->arena, (size_t)body->n + 1,
                                       sizeof *g, D->err)
                     : NULL;
    if (g == NULL)
        return -1;
    g[0] = a;
    if (body->n)
        memcpy(g + 1, body->stmts, (size_t)body->n * sizeof *g);
    body->stmts = g;
    body->n++;
    s->u.for_.target = name;
    return 0;
}

static int walk_block(desugar *D, uf__block *b)
{
    bool any = false;
    for (int i = 0; i < b->n; i++) {
        uf__stmt *s = b->stmts[i];
        if (s->kind == UF__ST_FOR && (unpacks_npiter(s) || unpacks_name(s)) &&
            unpack_target(D, s) < 0)
            return -1;
        if (walk_stmt(D, s) < 0)
            return -1;
        any |= s->kind == UF__ST_FOR && (is_combinator(D, s->u.for_.iter) ||
                                         is_flat(s->u.for_.iter));
    }
    if (!any)
        return 0;
    uf__stmt **out = NULL;
    int n = 0, cap = 0;
    for (int i = 0; i < b->n; i++) {
        uf__stmt *s = b->stmts[i];
        int rc = s->kind == UF__ST_FOR && (is_combinator(D, s->u.for_.iter) ||
                                           is_flat(s->u.for_.iter))
                     ? rewrite_for(D, s, &out, &n, &cap)
                     : push(D, &out, &n, &cap, s);
        if (rc < 0)
            return -1;
    }
    b->stmts = out;
    b->n = n;
    return 0;
}

/* Whether the file binds `id` at module level (a def, an import, an
 * assignment): then calls of it are the file's, not the builtin. */
static bool module_binds(const uf__ast_module *m, const char *id)
{
    for (int i = 0; i < m->body.n; i++) {
        const uf__stmt *s = m->body.stmts[i];
        if (s->kind == UF__ST_FUNCDEF && strcmp(s->u.funcdef.name, id) == 0)
            return true;
        if (s->kind == UF__ST_ASSIGN)
            for (int t = 0; t < s->u.assign.ntargets; t++) {
                const uf__expr *e = s->u.assign.targets[t];
                if (e->kind == UF__EX_NAME && strcmp(e->u.name.id, id) == 0)
                    return true;
            }
        const uf__alias *a = s->kind == UF__ST_IMPORT ? s->u.import.names
                             : s->kind == UF__ST_IMPORTFROM
                                 ? s->u.importfrom.names
                                 : NULL;
        int na = s->kind == UF__ST_IMPORT       ? s->u.import.n
                 : s->kind == UF__ST_IMPORTFROM ? s->u.importfrom.n
                                                : 0;
        for (int j = 0; a && j < na; j++) {
            const char *bound = a[j].asname ? a[j].asname : a[j].name;
            if (strcmp(bound, id) == 0)
                return true;
        }
    }
    return false;
}

int uf__desugar_for(uf__ast_module *m, uf__arena *arena, uf_error *err)
{
    desugar D;
    memset(&D, 0, sizeof D);
    D.m = m;
    D.arena = arena;
    D.err = err;
    D.shadow_enumerate = module_binds(m, "enumerate");
    D.shadow_zip = module_binds(m, "zip");
    /* inside functions only: a loop at module level is refused by the
     * module scan as it is */
    for (int i = 0; i < m->body.n; i++)
        if (m->body.stmts[i]->kind == UF__ST_FUNCDEF &&
            walk_stmt(&D, m->body.stmts[i]) < 0)
            return err ? err->code : -1;
    return 0;
}
