/* Iterators kept in a variable, as Numba users write them:
 *
 *     it = np.ndindex(a.shape)          ->     pass
 *     for idx in it:                           for idx in np.ndindex(a.shape):
 *
 * np.ndindex, np.ndenumerate, np.nditer, enumerate and zip make iterator
 * objects in Numba; ufjit lowers them as loops (lower_npiter.c,
 * desugar_for.c), so the call is moved to the one loop that consumes it,
 * which is the same program when
 *  - the variable is assigned once in the function, by the call, and read
 *    once, inside the iterable of a for loop (`for k, i in enumerate(it)`
 *    too) that comes later in the same block, or inside if blocks of a
 *    later statement of that block: never inside a loop the binding is not
 *    in (Numba's iterators are single-pass: a second round would see
 *    nothing);
 *  - no name the call reads is assigned between the binding and the loop
 *    (the call is evaluated at the loop instead).
 * Any other use (next(it), two loops, a loop inside another, passing it
 * to a function, storing it again) refuses the function at the use, with
 * what works: typing reports it when the function is compiled. */
#include <stdio.h>
#include <string.h>

#include "common/alloc.h"
#include "common/error_internal.h"
#include "compiler/front/ast_visit.h"
#include "compiler/front/iterbind.h"

typedef struct ib {
    uf__arena *arena;
    uf_error *err;
    bool shadow_enumerate, shadow_zip;
    const char *name; /* the variable looked at */
    int nuses;        /* reads of it */
    int nstores;
    const uf__expr *first_other; /* a read outside a for's iterable */
    const uf__expr *ses[2];      /* reads inside for iterables */
    const uf__stmt *loop[2];     /* their loops */
    int nloops;
} ib;

static bool is_name(const uf__expr *e, const char *id)
{
    return e->kind == UF__EX_NAME && strcmp(e->u.name.id, id) == 0;
}

/* The iterator-making call: np.ndindex ... by the callee's attribute name
 * (typing checks it is NumPy's), enumerate and zip unless the file binds
 * those names. */
static const char *iter_call(const ib *B, const uf__expr *e)
{
    if (e->kind != UF__EX_CALL)
        return NULL;
    const uf__expr *f = e->u.call.func;
    if (f->kind == UF__EX_ATTR) {
        const char *a = f->u.attr.attr;
        if (strcmp(a, "ndindex") == 0)
            return "np.ndindex";
        if (strcmp(a, "ndenumerate") == 0)
            return "np.ndenumerate";
        return strcmp(a, "nditer") == 0 ? "np.nditer" : NULL;
    }
    if (f->kind != UF__EX_NAME)
        return NULL;
    if (strcmp(f->u.name.id, "enumerate") == 0 && !B->shadow_enumerate)
        return "enumerate";
    if (strcmp(f->u.name.id, "zip") == 0 && !B->shadow_zip)
        return "zip";
    return NULL;
}

/* ---- uses of the variable ---------------------------------------------- */

typedef struct use_walk {
    ib *B;
    const uf__stmt *loop; /* the for loop whose iterable is walked, or NULL */
} use_walk;

static int count_expr(const uf__expr *e, void *ud)
{
    use_walk *w = ud;
    ib *B = w->B;
    if (is_name(e, B->name)) {
        B->nuses++;
        if (w->loop == NULL) {
            if (B->first_other == NULL)
                B->first_other = e;
        } else {
            if (B->nloops < 2) {
                B->ses[B->nloops] = e;
                B->loop[B->nloops] = w->loop;
            }
            B->nloops++;
        }
    }
    return uf__ast_children(e, count_expr, ud);
}

static int count_target(const uf__expr *t, void *ud)
{
    ib *B = ud;
    if (is_name(t, B->name))
        B->nstores++;
    else if (t->kind == UF__EX_TUPLE || t->kind == UF__EX_LIST)
        return uf__ast_children(t, count_target, ud);
    return 0;
}

/* A target walked for its reads: names bound are not reads, the parts of
 * a[i] = v are. */
static int count_target_reads(const uf__expr *t, void *ud)
{
    if (t->kind == UF__EX_NAME)
        return 0;
    if (t->kind == UF__EX_TUPLE || t->kind == UF__EX_LIST)
        return uf__ast_children(t, count_target_reads, ud);
    return count_expr(t, ud);
}

/* The reads of the variable in s (nested blocks by the caller's walk),
 * and its stores. */
static int count_stmt(uf__stmt *s, void *ud)
{
    ib *B = ud;
    use_walk w = {B, NULL};
    uf__ast_stmt_targets(s, count_target, B);
    switch (s->kind) {
    case UF__ST_ASSIGN:
        for (int i = 0; i < s->u.assign.ntargets; i++)
            count_target_reads(s->u.assign.targets[i], &w);
        return count_expr(s->u.assign.value, &w);
    case UF__ST_FOR:
        count_target_reads(s->u.for_.target, &w);
        w.loop = s;
        return count_expr(s->u.for_.iter, &w);
    default: /* x += v reads x too */
        return uf__ast_stmt_exprs(s, count_expr, &w);
    }
}

/* ---- where the loop stands ----------------------------------------------- */

/* Whether the for loop L is s, or inside if blocks of s (not loops). */
static bool holds_via_ifs(const uf__stmt *s, const uf__stmt *L)
{
    if (s == L)
        return true;
    if (s->kind != UF__ST_IF)
        return false;
    const uf__block *bs[2] = {&s->u.if_.body, &s->u.if_.orelse};
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < bs[k]->n; i++)
            if (holds_via_ifs(bs[k]->stmts[i], L))
                return true;
    return false;
}

typedef struct names_walk {
    const uf__expr *call; /* names it reads */
    const uf__stmt *skip; /* the loop itself */
    bool hit;
} names_walk;

static int reads_name(const uf__expr *e, void *ud)
{
    const char *id = ud;
    if (is_name(e, id))
        return 1;
    return uf__ast_children(e, reads_name, ud);
}

static int target_hits(const uf__expr *t, void *ud)
{
    names_walk *w = ud;
    if (t->kind == UF__EX_NAME)
        return reads_name(w->call, (void *)t->u.name.id);
    if (t->kind == UF__EX_TUPLE || t->kind == UF__EX_LIST)
        return uf__ast_children(t, target_hits, ud);
    return 0;
}

static int stmt_hits(uf__stmt *s, void *ud);

static int block_hits(const uf__block *b, void *ud)
{
    for (int i = 0; i < b->n; i++)
        if (stmt_hits(b->stmts[i], ud))
            return 1;
    return 0;
}

/* s (nested blocks included, the loop left out) assigns a name the call
 * reads. */
static int stmt_hits(uf__stmt *s, void *ud)
{
    names_walk *w = ud;
    if (s == w->skip)
        return 0;
    if (uf__ast_stmt_targets(s, target_hits, w))
        return 1;
    return uf__ast_stmt_blocks(s, block_hits, w);
}

/* ---- the rewrite ------------------------------------------------------ */

static const char what_works[] =
    "is taken as the iterable of one for loop after it (`it = "
    "np.ndindex(a.shape)` then `for idx in it:`, in the same block or an "
    "if block there, no name the call reads assigned in between), as if "
    "written in the loop; not by next(), a second loop, a loop inside "
    "another loop, or passed on (Numba's iterators are single-pass "
    "objects ufjit does not make)";

static int refuse(ib *B, uf__stmt *def, const uf__expr *at, const char *fn)
{
    if (def->u.funcdef.refused != NULL)
        return 0; /* the first refusal stands */
    char msg[640];
    snprintf(msg, sizeof msg, "'%s' holds %s(...): an iterator kept in a "
             "variable %s", B->name, fn, what_works);
    const char *m = uf__arena_strndup(B->arena, msg, strlen(msg), B->err);
    if (m == NULL)
        return -1;
    def->u.funcdef.refused = m;
    def->u.funcdef.refused_pos = at->pos;
    def->u.funcdef.refused_code = UF_ERR_UNSUPPORTED;
    return 0;
}

static int walk_block(ib *B, uf__stmt *def, uf__block *b);

/* b->stmts[i] is `name = call`: forwarded, refused, or left alone (not
 * read at all: typing refuses the call outside a loop). */
static int bind_one(ib *B, uf__stmt *def, uf__block *b, int i,
                    const char *fn)
{
    uf__stmt *s = b->stmts[i];
    uf__expr *call = s->u.assign.value;
    B->name = s->u.assign.targets[0]->u.name.id;
    B->nuses = B->nstores = B->nloops = 0;
    B->first_other = NULL;
    uf__ast_walk_stmts(&def->u.funcdef.body, count_stmt, B);
    if (B->nuses == 0)
        return 0;
    if (B->nstores != 1)
        return refuse(B, def, s->u.assign.targets[0], fn);
    if (B->first_other != NULL || B->nloops != 1)
        return refuse(B, def, B->first_other ? B->first_other : B->ses[1],
                      fn);
    int k = i + 1;
    while (k < b->n && !holds_via_ifs(b->stmts[k], B->loop[0]))
        k++;
    if (k == b->n) /* before the binding, or inside a loop */
        return refuse(B, def, B->ses[0], fn);
    names_walk w = {call, B->loop[0], false};
    for (int j = i + 1; j <= k; j++)
        if (stmt_hits(b->stmts[j], &w))
            return refuse(B, def, B->ses[0], fn);
    /* the read becomes the call (the call's node is no longer the
     * binding's: its id stays unique) */
    *(uf__expr *)B->ses[0] = *call;
    s->kind = UF__ST_PASS;
    return 0;
}

static int walk_stmt(ib *B, uf__stmt *def, uf__stmt *s)
{
    switch (s->kind) {
    case UF__ST_IF:
        return walk_block(B, def, &s->u.if_.body) < 0
                   ? -1
                   : walk_block(B, def, &s->u.if_.orelse);
    case UF__ST_FOR:
        return walk_block(B, def, &s->u.for_.body) < 0
                   ? -1
                   : walk_block(B, def, &s->u.for_.orelse);
    case UF__ST_WHILE:
        return walk_block(B, def, &s->u.while_.body) < 0
                   ? -1
                   : walk_block(B, def, &s->u.while_.orelse);
    default:
        return 0;
    }
}

static int walk_block(ib *B, uf__stmt *def, uf__block *b)
{
    for (int i = 0; i < b->n; i++) {
        uf__stmt *s = b->stmts[i];
        const char *fn;
        if (s->kind == UF__ST_ASSIGN && s->u.assign.ntargets == 1 &&
            s->u.assign.targets[0]->kind == UF__EX_NAME &&
            (fn = iter_call(B, s->u.assign.value)) != NULL) {
            if (bind_one(B, def, b, i, fn) < 0)
                return -1;
        } else if (walk_stmt(B, def, s) < 0) {
            return -1;
        }
    }
    return 0;
}

/* The file binds `id` at module level (then enumerate/zip are its own). */
static bool module_binds(const uf__ast_module *m, const char *id)
{
    for (int i = 0; i < m->body.n; i++) {
        const uf__stmt *s = m->body.stmts[i];
        if (s->kind == UF__ST_FUNCDEF && strcmp(s->u.funcdef.name, id) == 0)
            return true;
        if (s->kind == UF__ST_ASSIGN)
            for (int t = 0; t < s->u.assign.ntargets; t++)
                if (is_name(s->u.assign.targets[t], id))
                    return true;
    }
    return false;
}

int uf__iterbind(uf__ast_module *m, uf__arena *arena, uf_error *err)
{
    ib B;
    memset(&B, 0, sizeof B);
    B.arena = arena;
    B.err = err;
    B.shadow_enumerate = module_binds(m, "enumerate");
    B.shadow_zip = module_binds(m, "zip");
    for (int i = 0; i < m->body.n; i++) {
        uf__stmt *s = m->body.stmts[i];
        if (s->kind == UF__ST_FUNCDEF &&
            walk_block(&B, s, &s->u.funcdef.body) < 0)
            return err ? err->code : -1;
    }
    return 0;
}
