/* Nested defs and `name = lambda ...` inside a kernel, which Numba inlines
 * where they are only called (inline_closurecall.py), lifted to module
 * level before SSA (closures.h):
 *
 *     @njit                               @njit
 *     def outer(x, n):                    def outer(x, n):
 *         s = 2.0                             s = 2.0
 *         def f(y):               ->          pass
 *             return y * s + x                return outer.<locals>.f(n, s=s, x=x)
 *         return f(n)                     def outer.<locals>.f(y, x, s):  (njit)
 *                                             return y * s + x
 *
 * A free variable (read in the nested def, a local of an enclosing def)
 * is passed by value at each call, so a call sees its value at that time,
 * as Python's cells (and Numba) do; arrays are passed by reference, so
 * writes to their elements reach the caller. A nested def calling a
 * sibling passes that sibling's free variables on; defs nested deeper are
 * lifted first. Each call is typed and compiled for its argument types,
 * as Numba's inlined copies are.
 *
 * Refused at file:line:col: a nested def used other than called (returned,
 * passed, stored, aliased: "may escape", Numba's TypingError where it
 * captures a variable), one calling itself (Numba: NotImplementedError),
 * two defs of one name or a def whose name is also assigned (Numba types
 * them as first-class functions, experimentally), decorated nested defs
 * and default parameter values. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "compiler/front/ast_visit.h"
#include "compiler/front/closures.h"

typedef struct names {
    const char **v;
    int n, cap;
} names;

typedef struct nested {
    uf__stmt *def;
    uf__block *parent; /* where it is written, to become `pass` */
    int index;
    const char *qual; /* outer.<locals>.f */
    names assigned;   /* its parameters and the names it assigns */
    names free;       /* enclosing locals it reads, in order */
    names calls;      /* siblings it calls */
} nested;

typedef struct lifter {
    uf__ast_module *m;
    uf__arena *arena;
    uf_error *err;
    uf__stmt **lifted;
    int nlifted, caplifted;
    const char *why; /* the refusal of the def being lifted */
    uf__pos where;
    int code;
} lifter;

/* A refusal: kept for typing to report when the kernel compiles (the
 * file's other kernels still load), as desugar_for.c's. */
static int fail(lifter *L, int code, uf__pos pos, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    L->why = uf__arena_strndup(L->arena, msg, strlen(msg), L->err);
    if (L->why == NULL)
        return -1;
    L->where = pos;
    L->code = code;
    return -2;
}

static bool has(const names *s, const char *n)
{
    for (int i = 0; i < s->n; i++)
        if (strcmp(s->v[i], n) == 0)
            return true;
    return false;
}

static bool grow(lifter *L, void **v, int *cap, int n, size_t size)
{
    if (n < *cap)
        return true;
    int c = *cap ? *cap * 2 : 8;
    void *nv = uf__arena_alloc(L->arena, (size_t)c, size, L->err);
    if (nv == NULL)
        return false;
    if (n)
        memcpy(nv, *v, (size_t)n * size);
    *v = nv;
    *cap = c;
    return true;
}

static int add(lifter *L, names *s, const char *n)
{
    if (has(s, n))
        return 0;
    if (!grow(L, (void **)&s->v, &s->cap, s->n, sizeof *s->v))
        return -1;
    s->v[s->n++] = n;
    return 0;
}

/* ---- the names a def assigns and reads ------------------------------------ */

typedef struct collect {
    lifter *L;
    names *out;
    int rc;
} collect;

static int target_names(const uf__expr *e, void *ud)
{
    collect *c = ud;
    if (e->kind == UF__EX_NAME)
        return add(c->L, c->out, e->u.name.id);
    if (e->kind == UF__EX_TUPLE || e->kind == UF__EX_LIST)
        return uf__ast_children(e, target_names, ud);
    return 0;
}

static int assigned_in(uf__stmt *s, void *ud)
{
    collect *c = ud;
    if (s->kind == UF__ST_FUNCDEF) /* a nested def binds its name */
        return add(c->L, c->out, s->u.funcdef.name);
    return uf__ast_stmt_targets(s, target_names, ud);
}

static int plain_in(uf__stmt *s, void *ud)
{
    return s->kind == UF__ST_FUNCDEF
               ? 0
               : uf__ast_stmt_targets(s, target_names, ud);
}

static int read_names(const uf__expr *e, void *ud)
{
    collect *c = ud;
    if (e->kind == UF__EX_NAME)
        return add(c->L, c->out, e->u.name.id);
    return uf__ast_children(e, read_names, ud);
}

static int reads_in(uf__stmt *s, void *ud)
{
    if (s->kind == UF__ST_FUNCDEF) /* lifted already: a pass */
        return 0;
    return uf__ast_stmt_exprs(s, read_names, ud);
}

/* The parameters of def d and every name its body assigns. */
static int def_assigned(lifter *L, const uf__stmt *d, names *out)
{
    for (int i = 0; i < d->u.funcdef.nparams; i++)
        if (add(L, out, d->u.funcdef.params[i].name) < 0)
            return -1;
    collect c = {L, out, 0};
    return uf__ast_walk_stmts(&d->u.funcdef.body, assigned_in, &c);
}

/* ---- finding the nested defs of one def ------------------------------------ */

typedef struct finder {
    lifter *L;
    nested *v;
    int n, cap;
} finder;

static int find_in_block(finder *F, uf__block *b);

static int find_nested(const uf__block *b, void *ud)
{
    return find_in_block(ud, (uf__block *)b);
}

static int find_in_block(finder *F, uf__block *b)
{
    for (int i = 0; i < b->n; i++) {
        uf__stmt *s = b->stmts[i];
        if (s->kind != UF__ST_FUNCDEF) {
            int rc = uf__ast_stmt_blocks(s, find_nested, F);
            if (rc != 0)
                return rc;
            continue;
        }
        if (!grow(F->L, (void **)&F->v, &F->cap, F->n, sizeof *F->v))
            return -1;
        memset(&F->v[F->n], 0, sizeof F->v[F->n]);
        F->v[F->n].def = s;
        F->v[F->n].parent = b;
        F->v[F->n].index = i;
        F->n++;
    }
    return 0;
}

/* ---- rewriting calls ------------------------------------------------------- */

typedef struct rewrite {
    lifter *L;
    nested *defs;
    int ndefs;
    const names *shadow; /* names the def being rewritten assigns itself */
} rewrite;

static nested *lookup(rewrite *R, const char *name)
{
    if (R->shadow && has(R->shadow, name))
        return NULL;
    for (int i = 0; i < R->ndefs; i++)
        if (strcmp(R->defs[i].def->u.funcdef.name, name) == 0)
            return &R->defs[i];
    return NULL;
}

static uf__expr *name_expr(lifter *L, const char *id, uf__pos pos)
{
    uf__expr *e = uf__arena_alloc(L->arena, 1, sizeof *e, L->err);
    if (e == NULL)
        return NULL;
    e->kind = UF__EX_NAME;
    e->pos = pos;
    e->id = L->m->nexprs++;
    e->u.name.id = id;
    return e;
}

static int rewrite_expr(const uf__expr *ce, void *ud)
{
    rewrite *R = ud;
    uf__expr *e = (uf__expr *)ce; /* the tree is ours to rewrite */
    if (e->kind == UF__EX_NAME) {
        nested *d = lookup(R, e->u.name.id);
        if (d == NULL)
            return 0;
        if (d->free.n > 0)
            return fail(R->L, UF_ERR_TYPING, e->pos, "Cannot capture the "
                        "non-constant value associated with variable '%s' in "
                        "a function that may escape (nested function '%s' "
                        "used other than called)", d->free.v[0],
                        d->def->u.funcdef.name);
        return fail(R->L, UF_ERR_UNSUPPORTED, e->pos, "nested function '%s' "
                    "used other than called (returned, passed, stored or "
                    "aliased) is not supported: call it", e->u.name.id);
    }
    if (e->kind != UF__EX_CALL || e->u.call.func->kind != UF__EX_NAME)
        return uf__ast_children(e, rewrite_expr, ud);
    nested *d = lookup(R, e->u.call.func->u.name.id);
    if (d == NULL)
        return uf__ast_children(e, rewrite_expr, ud);
    int rc = uf__ast_visit_n(e->u.call.args, e->u.call.nargs, rewrite_expr,
                             ud);
    for (int i = 0; i < e->u.call.nkw && rc == 0; i++)
        rc = rewrite_expr(e->u.call.kw[i].value, ud);
    if (rc != 0)
        return rc;
    e->u.call.func->u.name.id = d->qual;
    int nkw = e->u.call.nkw + d->free.n;
    uf__keyword *kw = uf__arena_alloc(R->L->arena, (size_t)nkw, sizeof *kw,
                                      R->L->err);
    if (kw == NULL)
        return -1;
    if (e->u.call.nkw)
        memcpy(kw, e->u.call.kw, (size_t)e->u.call.nkw * sizeof *kw);
    for (int i = 0; i < d->free.n; i++) {
        uf__keyword *k = &kw[e->u.call.nkw + i];
        k->name = d->free.v[i];
        k->pos = e->pos;
        if (!(k->value = name_expr(R->L, d->free.v[i], e->pos)))
            return -1;
    }
    e->u.call.kw = kw;
    e->u.call.nkw = nkw;
    return 0;
}

static int rewrite_stmt(uf__stmt *s, void *ud)
{
    if (s->kind == UF__ST_FUNCDEF)
        return 0;
    return uf__ast_stmt_exprs(s, rewrite_expr, ud);
}

/* ---- lifting --------------------------------------------------------------- */

static int lift_from(lifter *L, uf__stmt *outer, const char *qual,
                     const uf__stmt *root, const names *env);

static char *qualify(lifter *L, const char *outer, const char *name)
{
    size_t n = strlen(outer) + strlen(name) + sizeof ".<locals>.";
    char *q = uf__arena_alloc(L->arena, n, 1, L->err);
    if (q != NULL)
        snprintf(q, n, "%s.<locals>.%s", outer, name);
    return q;
}

/* Whether d reaches target through the calls of the defs (depth-first). */
static bool reaches(nested *defs, int n, const nested *d, const char *target,
                    int depth)
{
    if (depth > n)
        return false;
    for (int i = 0; i < d->calls.n; i++) {
        if (strcmp(d->calls.v[i], target) == 0)
            return true;
        for (int j = 0; j < n; j++)
            if (strcmp(defs[j].def->u.funcdef.name, d->calls.v[i]) == 0 &&
                reaches(defs, n, &defs[j], target, depth + 1))
                return true;
    }
    return false;
}

/* Lifts the defs nested in `outer` (named qual), whose enclosing defs'
 * locals are env. */
static int lift_from(lifter *L, uf__stmt *outer, const char *qual,
                     const uf__stmt *root, const names *env)
{
    finder F = {L, NULL, 0, 0};
    if (find_in_block(&F, &outer->u.funcdef.body) != 0)
        return -1;
    if (F.n == 0)
        return 0;
    names locals = {0};
    for (int i = 0; i < env->n; i++)
        if (add(L, &locals, env->v[i]) < 0)
            return -1;
    if (def_assigned(L, outer, &locals) < 0)
        return -1;
    /* a def's name assigned otherwise, or defined twice */
    names plain = {0};
    {
        collect c = {L, &plain, 0};
        for (int i = 0; i < outer->u.funcdef.nparams; i++)
            if (add(L, &plain, outer->u.funcdef.params[i].name) < 0)
                return -1;
        if (uf__ast_walk_stmts(&outer->u.funcdef.body, plain_in, &c) != 0)
            return -1;
    }
    for (int i = 0; i < F.n; i++) {
        uf__stmt *d = F.v[i].def;
        const char *name = d->u.funcdef.name;
        if (d->u.funcdef.ndecorators > 0)
            return fail(L, UF_ERR_UNSUPPORTED, d->u.funcdef.decorators[0]->pos,
                        "a decorated nested function ('%s') is not "
                        "supported", name);
        for (int k = 0; k < d->u.funcdef.nparams; k++)
            if (d->u.funcdef.params[k].default_value != NULL)
                return fail(L, UF_ERR_UNSUPPORTED, d->u.funcdef.params[k].pos,
                            "default argument values are not supported in "
                            "kernels");
        for (int j = 0; j < i; j++)
            if (strcmp(F.v[j].def->u.funcdef.name, name) == 0)
                return fail(L, UF_ERR_UNSUPPORTED, d->pos, "nested function "
                            "'%s' defined twice (Numba types it as a "
                            "first-class function, experimentally)", name);
        if (has(&plain, name))
            return fail(L, UF_ERR_UNSUPPORTED, d->u.funcdef.name_pos,
                        "nested function '%s' is also assigned as a "
                        "variable", name);
        if (!(F.v[i].qual = qualify(L, qual, name)))
            return -1;
    }
    /* deeper defs first: their calls then read what they capture */
    for (int i = 0; i < F.n; i++) {
        int rc = lift_from(L, F.v[i].def, F.v[i].qual, root, &locals);
        if (rc != 0)
            return rc;
    }
    for (int i = 0; i < F.n; i++) {
        nested *d = &F.v[i];
        names reads = {0};
        collect c = {L, &reads, 0};
        if (def_assigned(L, d->def, &d->assigned) < 0 ||
            uf__ast_walk_stmts(&d->def->u.funcdef.body, reads_in, &c) != 0)
            return -1;
        for (int k = 0; k < reads.n; k++) {
            const char *n = reads.v[k];
            if (has(&d->assigned, n))
                continue;
            bool sibling = false;
            for (int j = 0; j < F.n; j++)
                sibling |= strcmp(F.v[j].def->u.funcdef.name, n) == 0;
            if (sibling ? add(L, &d->calls, n) < 0
                        : has(&locals, n) && add(L, &d->free, n) < 0)
                return -1;
        }
    }
    for (int i = 0; i < F.n; i++)
        if (reaches(F.v, F.n, &F.v[i], F.v[i].def->u.funcdef.name, 0))
            return fail(L, UF_ERR_UNSUPPORTED, F.v[i].def->u.funcdef.name_pos,
                        "nested function '%s' calls itself: recursion of a "
                        "closure is not supported (Numba: 'Unsupported use "
                        "of cell variable')", F.v[i].def->u.funcdef.name);
    /* a sibling's captures are passed on: to a fixed point */
    for (bool changed = true; changed;) {
        changed = false;
        for (int i = 0; i < F.n; i++)
            for (int k = 0; k < F.v[i].calls.n; k++)
                for (int j = 0; j < F.n; j++) {
                    if (strcmp(F.v[j].def->u.funcdef.name,
                               F.v[i].calls.v[k]) != 0)
                        continue;
                    for (int q = 0; q < F.v[j].free.n; q++)
                        if (!has(&F.v[i].free, F.v[j].free.v[q])) {
                            if (add(L, &F.v[i].free, F.v[j].free.v[q]) < 0)
                                return -1;
                            changed = true;
                        }
                }
    }
    /* the calls: in the outer def, then in each nested one */
    rewrite R = {L, F.v, F.n, NULL};
    int rc = uf__ast_walk_stmts(&outer->u.funcdef.body, rewrite_stmt, &R);
    for (int i = 0; i < F.n && rc == 0; i++) {
        R.shadow = &F.v[i].assigned;
        rc = uf__ast_walk_stmts(&F.v[i].def->u.funcdef.body, rewrite_stmt,
                                &R);
    }
    if (rc != 0)
        return rc;
    /* each nested def becomes `pass` where it was, its lifted copy a
     * module-level def with the captures as parameters */
    for (int i = 0; i < F.n; i++) {
        nested *d = &F.v[i];
        uf__stmt *pass = uf__arena_alloc(L->arena, 1, sizeof *pass, L->err);
        uf__stmt *lift = uf__arena_alloc(L->arena, 1, sizeof *lift, L->err);
        int np = d->def->u.funcdef.nparams + d->free.n;
        uf__param *ps = uf__arena_alloc(L->arena, (size_t)np + 1, sizeof *ps,
                                        L->err);
        if (pass == NULL || lift == NULL || ps == NULL)
            return -1;
        pass->kind = UF__ST_PASS;
        pass->pos = d->def->pos;
        *lift = *d->def;
        lift->u.funcdef.name = d->qual;
        if (d->def->u.funcdef.nparams)
            memcpy(ps, d->def->u.funcdef.params,
                   (size_t)d->def->u.funcdef.nparams * sizeof *ps);
        for (int k = 0; k < d->free.n; k++) {
            uf__param *p = &ps[d->def->u.funcdef.nparams + k];
            p->name = d->free.v[k];
            p->pos = d->def->u.funcdef.name_pos;
            p->default_value = NULL;
        }
        lift->u.funcdef.params = ps;
        lift->u.funcdef.nparams = np;
        lift->u.funcdef.closure_of = root;
        d->parent->stmts[d->index] = pass;
        if (!grow(L, (void **)&L->lifted, &L->caplifted, L->nlifted,
                  sizeof *L->lifted))
            return -1;
        L->lifted[L->nlifted++] = lift;
    }
    return 0;
}

int uf__lift_closures(uf__ast_module *m, uf__arena *arena, uf_error *err)
{
    lifter L = {m, arena, err, NULL, 0, 0, NULL, {0, 0}, 0};
    names none = {0};
    for (int i = 0; i < m->body.n; i++) {
        uf__stmt *s = m->body.stmts[i];
        if (s->kind != UF__ST_FUNCDEF)
            continue;
        int before = L.nlifted;
        int rc = lift_from(&L, s, s->u.funcdef.name, s, &none);
        if (rc == -2) { /* refused: when s is typed (infer.c) */
            L.nlifted = before;
            s->u.funcdef.refused = L.why;
            s->u.funcdef.refused_pos = L.where;
            s->u.funcdef.refused_code = L.code;
        } else if (rc != 0) {
            return err->code ? err->code : UF_ERR_NOMEM;
        }
    }
    if (L.nlifted == 0)
        return 0;
    int n = m->body.n + L.nlifted;
    uf__stmt **body = uf__arena_alloc(arena, (size_t)n, sizeof *body, err);
    if (body == NULL)
        return err->code;
    memcpy(body, m->body.stmts, (size_t)m->body.n * sizeof *body);
    memcpy(body + m->body.n, L.lifted, (size_t)L.nlifted * sizeof *body);
    m->body.stmts = body;
    m->body.n = n;
    return 0;
}
