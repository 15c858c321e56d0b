/* Generator objects passed to njit functions (issue 18): `f(..., g(a),
 * ...)`, a fresh generator as an argument of a module-level njit def f,
 * calls a copy of f made for g,
 *
 *     def f$g0(x, n$a1):       (f's parameter `it` replaced by g's)
 *         it = g(n$a1)
 *         <f's body>
 *
 * with g's arguments in its place: f's body then keeps the generator in
 * a variable, which generators.c inlines or generators_step.c steps, as
 * Numba's f would run the object it is given. One generator argument per
 * call, positional, made in the call; a generator object kept in a
 * variable and then passed stays refused. */
#include <stdio.h>
#include <string.h>

#include "compiler/front/ast_visit.h"
#include "compiler/front/generators_internal.h"

typedef struct copy_key {
    const uf__stmt *f, *g;
    int j;
    uf__stmt *copy;
} copy_key;

struct passing {
    uf__gen_ctx *G;
    copy_key made[32];
    int nmade;
    uf__stmt *added[32]; /* copies to append to the module */
    int nadded;
    int rc;
};
typedef struct passing passing;

/* The module-level njit def (no generator) a call calls, or NULL. */
static uf__stmt *njit_def(uf__gen_ctx *G, const uf__expr *e)
{
    if (e->kind != UF__EX_CALL || e->u.call.func->kind != UF__EX_NAME ||
        uf__gen_names_has(&G->shadow, e->u.call.func->u.name.id))
        return NULL;
    const char *id = e->u.call.func->u.name.id;
    for (int i = 0; i < G->m->body.n; i++) {
        uf__stmt *s = G->m->body.stmts[i];
        if (s->kind != UF__ST_FUNCDEF || strcmp(s->u.funcdef.name, id) != 0)
            continue;
        if (s->u.funcdef.ndecorators == 0 || s->u.funcdef.closure_of)
            return NULL;
        for (int j = 0; j < G->ngens; j++)
            if (G->gens[j] == s)
                return NULL;
        return s;
    }
    return NULL;
}

/* f's copy taking g's parameters in place of its parameter j */
static uf__stmt *make_copy(passing *P, uf__stmt *f, const uf__stmt *g, int j,
                           uf__pos at)
{
    uf__gen_ctx *G = P->G;
    for (int i = 0; i < P->nmade; i++)
        if (P->made[i].f == f && P->made[i].g == g && P->made[i].j == j)
            return P->made[i].copy;
    if (P->nmade == (int)(sizeof P->made / sizeof P->made[0])) {
        P->rc = uf__gen_refuse(G, UF_ERR_UNSUPPORTED, at, "more than %d functions "
                       "given generators are not supported", P->nmade);
        return NULL;
    }
    int gp = g->u.funcdef.nparams, fp = f->u.funcdef.nparams;
    int np = fp - 1 + gp;
    uf__stmt *c = uf__gen_stmt(G, UF__ST_FUNCDEF, f->pos);
    uf__param *params = uf__arena_alloc(G->arena, (size_t)np + 1,
                                        sizeof *params, G->err);
    char name[160];
    snprintf(name, sizeof name, "%s$%s%d", f->u.funcdef.name,
             g->u.funcdef.name, P->nmade);
    if (c == NULL || params == NULL)
        return NULL;
    *c = *f;
    c->u.funcdef.name = uf__arena_strndup(G->arena, name, strlen(name),
                                          G->err);
    if (c->u.funcdef.name == NULL)
        return NULL;
    /* the copy's parameters: f's, g's (renamed) in place of j */
    uf__expr **gargs = uf__arena_alloc(G->arena, (size_t)gp + 1,
                                       sizeof *gargs, G->err);
    if (gargs == NULL)
        return NULL;
    int n = 0;
    for (int i = 0; i < fp; i++) {
        if (i != j) {
            params[n++] = f->u.funcdef.params[i];
            continue;
        }
        for (int q = 0; q < gp; q++) {
            snprintf(name, sizeof name, "%s$a%d",
                     g->u.funcdef.params[q].name, j);
            const char *pn = uf__arena_strndup(G->arena, name, strlen(name),
                                               G->err);
            if (pn == NULL || (gargs[q] = uf__gen_name(G, pn, at)) == NULL)
                return NULL;
            params[n++] = (uf__param){pn, f->u.funcdef.params[i].pos, NULL};
        }
    }
    c->u.funcdef.params = params;
    c->u.funcdef.nparams = np;
    /* it = g(params...); then f's body, copied */
    uf__block body;
    if (!uf__gen_copy_block(G, &f->u.funcdef.body, NULL, &body))
        return NULL;
    uf__stmt **v = uf__arena_alloc(G->arena, (size_t)body.n + 1, sizeof *v,
                                   G->err);
    uf__expr *call = uf__gen_call(G, g->u.funcdef.name, gargs, gp, at);
    if (v == NULL || call == NULL ||
        (v[0] = uf__gen_assign(G, uf__gen_name(G, f->u.funcdef.params[j].name,
                                               at),
                               call, at)) == NULL)
        return NULL;
    if (body.n)
        memcpy(v + 1, body.stmts, (size_t)body.n * sizeof *v);
    c->u.funcdef.body.stmts = v;
    c->u.funcdef.body.n = body.n + 1;
    P->made[P->nmade++] = (copy_key){f, g, j, c};
    P->added[P->nadded++] = c;
    return c;
}

/* g's arguments in the call, its defaults filled in */
static bool gen_args(passing *P, const uf__stmt *g, const uf__expr *gc,
                     uf__expr **out)
{
    uf__gen_ctx *G = P->G;
    int gp = g->u.funcdef.nparams, na = gc->u.call.nargs;
    if (gc->u.call.nkw || gc->u.call.starred || na > gp) {
        P->rc = uf__gen_refuse(G, UF_ERR_UNSUPPORTED, gc->pos, "generator %s() "
                       "passed to a function takes its arguments by position "
                       "only", g->u.funcdef.name);
        return false;
    }
    for (int q = 0; q < gp; q++) {
        const uf__expr *d = g->u.funcdef.params[q].default_value;
        if (q < na) {
            out[q] = gc->u.call.args[q];
        } else if (d == NULL) {
            P->rc = uf__gen_refuse(G, UF_ERR_TYPING, gc->pos, "%s() missing required "
                           "argument: '%s'", g->u.funcdef.name,
                           g->u.funcdef.params[q].name);
            return false;
        } else if ((out[q] = uf__gen_copy_expr(G, d, NULL)) == NULL) {
            P->rc = -1;
            return false;
        }
    }
    return true;
}

static int pass_expr(const uf__expr *ce, void *ud)
{
    passing *P = ud;
    uf__gen_ctx *G = P->G;
    uf__expr *e = (uf__expr *)ce; /* the tree is ours to rewrite */
    int rc = uf__ast_children(e, pass_expr, ud);
    if (rc || e->kind != UF__EX_CALL)
        return rc;
    uf__stmt *f = njit_def(G, e);
    if (f == NULL)
        return 0;
    int j = -1;
    for (int i = 0; i < e->u.call.nargs; i++) {
        if (uf__gen_called(G, e->u.call.args[i]) == NULL)
            continue;
        if (j >= 0)
            return P->rc = uf__gen_refuse(G, UF_ERR_UNSUPPORTED,
                                  e->u.call.args[i]->pos, "passing two "
                                  "generators to one call of %s() is not "
                                  "supported", f->u.funcdef.name);
        j = i;
    }
    if (j < 0)
        return 0;
    if (e->u.call.starred || j >= f->u.funcdef.nparams)
        return P->rc = uf__gen_refuse(G, UF_ERR_UNSUPPORTED, e->pos, "a generator "
                              "passed in a starred call of %s() is not "
                              "supported", f->u.funcdef.name);
    for (int d = 0; d < f->u.funcdef.ndecorators; d++)
        if (f->u.funcdef.decorators[d]->kind == UF__EX_CALL &&
            f->u.funcdef.decorators[d]->u.call.nargs > 0)
            return P->rc = uf__gen_refuse(G, UF_ERR_UNSUPPORTED, e->pos, "a generator "
                                  "passed to %s(), which has a signature, is "
                                  "not supported", f->u.funcdef.name);
    uf__expr *gc = e->u.call.args[j];
    const uf__stmt *g = uf__gen_called(G, gc);
    if ((rc = uf__gen_check_def(G, g, gc->pos)))
        return P->rc = rc;
    int gp = g->u.funcdef.nparams, na = e->u.call.nargs;
    uf__expr **args = uf__arena_alloc(G->arena, (size_t)(na - 1 + gp) + 1,
                                      sizeof *args, G->err);
    if (args == NULL)
        return P->rc = -1;
    if (!gen_args(P, g, gc, args + j))
        return P->rc ? P->rc : -1;
    uf__stmt *c = make_copy(P, f, g, j, gc->pos);
    if (c == NULL)
        return P->rc ? P->rc : (P->rc = -1);
    for (int i = 0; i < j; i++)
        args[i] = e->u.call.args[i];
    for (int i = j + 1; i < na; i++)
        args[i - 1 + gp] = e->u.call.args[i];
    uf__expr *fn = uf__gen_name(G, c->u.funcdef.name, e->u.call.func->pos);
    if (fn == NULL)
        return P->rc = -1;
    e->u.call.func = fn;
    e->u.call.args = args;
    e->u.call.nargs = na - 1 + gp;
    return 0;
}

static int pass_stmt(uf__stmt *s, void *ud)
{
    return uf__ast_stmt_exprs(s, pass_expr, ud);
}

int uf__gen_pass_def(uf__gen_ctx *G, uf__block *body)
{
    passing *P = G->passing;
    if (P == NULL) {
        P = uf__arena_alloc(G->arena, 1, sizeof *P, G->err);
        if (P == NULL)
            return -1;
        P->G = G;
        G->passing = P;
    }
    P->rc = 0;
    P->nadded = 0;
    int rc = uf__ast_walk_stmts(body, pass_stmt, P);
    if (rc)
        return P->rc ? P->rc : rc;
    /* the copies join the module: the def loop rewrites them later */
    uf__block *m = &G->m->body;
    if (P->nadded == 0)
        return 0;
    uf__stmt **v = uf__arena_alloc(G->arena, (size_t)(m->n + P->nadded),
                                   sizeof *v, G->err);
    if (v == NULL)
        return -1;
    memcpy(v, m->stmts, (size_t)m->n * sizeof *v);
    memcpy(v + m->n, P->added, (size_t)P->nadded * sizeof *v);
    m->stmts = v;
    m->n += P->nadded;
    return 0;
}
