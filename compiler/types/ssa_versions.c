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
 * assigned to it, so the definitions are split before it runs. The
 * definitions reaching each read are computed (reaching definitions over
 * the tree, loop back edges to a fixed point); a read reached by one
 * definition reads that definition's variable, a read reached by several
 * reads a join variable (Numba's phi) that each of them also assigns,
 * right after it: its type is their unification, as at Numba's phi nodes,
 * and two that do not unify are refused with Numba's message.
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
#include "compiler/types/ssa_versions.h"

typedef uint64_t word;

typedef struct loop_ctx {
    word *brk, *cont; /* states at break / continue statements */
} loop_ctx;

/* A join: the definitions of one name meeting at a read. */
typedef struct join_var {
    int name;
    const word *defs;
    const char *id; /* its variable */
} join_var;

typedef struct versions {
    uf__ast_module *m;
    uf__arena *arena;
    uf_error *err;
    const char **names; /* local names: parameters and assigned names */
    int nnames, capnames;
    /* definitions: parameters first, then assigned Name nodes in source
     * order */
    const uf__expr **def_node; /* NULL for a parameter */
    int *def_name;
    int ndefs, capdefs, capdefs2;
    int *node_def;    /* expression id -> definition index, or -1 */
    word **reaching;  /* expression id of a read of a local -> the
                         definitions reaching it (NULL: not such a read) */
    word *masks;   /* per name: its definitions */
    int nwords;
    loop_ctx *loops;
    int nloops, caploops;
    const char **def_id; /* per definition: its variable */
    int *versions;       /* per name: variables made so far */
    join_var *joins;
    int njoins, capjoins;
    bool failed;
} versions;

/* ---- small sets of definitions ------------------------------------------ */

static word *set_new(versions *W)
{
    word *s = uf__arena_alloc(W->arena, (size_t)W->nwords + 1, sizeof *s,
                              W->err);
    if (s == NULL)
        W->failed = true;
    return s;
}

static word *set_copy(versions *W, const word *a)
{
    word *s = set_new(W);
    if (s)
        memcpy(s, a, (size_t)W->nwords * sizeof *s);
    return s;
}

static void set_or(versions *W, word *a, const word *b)
{
    for (int i = 0; i < W->nwords; i++)
        a[i] |= b[i];
}

static bool set_eq(const versions *W, const word *a, const word *b)
{
    return memcmp(a, b, (size_t)W->nwords * sizeof *a) == 0;
}

static void set_clear(versions *W, word *a)
{
    memset(a, 0, (size_t)W->nwords * sizeof *a);
}

static bool has(const word *s, int d)
{
    return (s[d / 64] >> (d % 64)) & 1;
}

/* ---- collecting names and definitions ----------------------------------- */

static int name_index(const versions *W, const char *id)
{
    for (int i = 0; i < W->nnames; i++)
        if (strcmp(W->names[i], id) == 0)
            return i;
    return -1;
}

/* Makes room for one more element in an arena array of n elements whose
 * capacity is *cap. */
static int grow(versions *W, void **arr, int n, int *cap, size_t size)
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

static void add_name(versions *W, const char *id)
{
    if (name_index(W, id) >= 0)
        return;
    if (grow(W, (void **)&W->names, W->nnames, &W->capnames,
             sizeof *W->names) == 0)
        W->names[W->nnames++] = id;
}

static void add_def(versions *W, const uf__expr *node, const char *id)
{
    add_name(W, id);
    if (W->failed)
        return;
    if (grow(W, (void **)&W->def_node, W->ndefs, &W->capdefs,
             sizeof *W->def_node) != 0 ||
        grow(W, (void **)&W->def_name, W->ndefs, &W->capdefs2,
             sizeof *W->def_name) != 0)
        return;
    W->def_node[W->ndefs] = node;
    W->def_name[W->ndefs] = name_index(W, id);
    W->ndefs++;
}

static int collect_target(const uf__expr *t, void *W)
{
    if (t->kind == UF__EX_NAME)
        add_def(W, t, t->u.name.id);
    else if (t->kind == UF__EX_TUPLE || t->kind == UF__EX_LIST)
        uf__ast_children(t, collect_target, W);
    return 0;
}

static int collect_stmt(uf__stmt *s, void *W)
{
    return uf__ast_stmt_targets(s, collect_target, W);
}

/* ---- reaching definitions ------------------------------------------------ */

/* A read of `id` where the definitions `st` reach (a loop's reads are
 * walked once per round: the sets only grow). */
static void use_name(versions *W, const uf__expr *e, const word *st)
{
    int n = name_index(W, e->u.name.id);
    if (n < 0)
        return; /* a global, a module, a builtin */
    const word *m = W->masks + (size_t)n * (size_t)W->nwords;
    word *r = W->reaching[e->id];
    if (r == NULL && (r = W->reaching[e->id] = set_new(W)) == NULL)
        return;
    for (int i = 0; i < W->nwords; i++)
        r[i] |= m[i] & st[i];
}

/* Calls fn on every Name node of e (reads; and targets when e is one). */
typedef void (*name_fn)(versions *W, const uf__expr *e, const word *st);

typedef struct name_walk {
    versions *W;
    name_fn fn;
    const word *st;
} name_walk;

static int visit_names_cb(const uf__expr *e, void *ud)
{
    name_walk *nw = ud;
    if (e->kind == UF__EX_NAME)
        nw->fn(nw->W, e, nw->st);
    else
        uf__ast_children(e, visit_names_cb, nw);
    return 0;
}

static void visit_names(versions *W, const uf__expr *e, name_fn fn,
                        const word *st)
{
    name_walk nw = {W, fn, st};
    if (e != NULL)
        visit_names_cb(e, &nw);
}

static void use_expr(versions *W, const uf__expr *e, const word *st)
{
    visit_names(W, e, use_name, st);
}

/* An assignment to the Name node e: it replaces the name's definitions. */
static void define(versions *W, const uf__expr *e, word *st)
{
    int d = W->node_def[e->id];
    if (d < 0)
        return;
    const word *m = W->masks + (size_t)W->def_name[d] * (size_t)W->nwords;
    for (int i = 0; i < W->nwords; i++)
        st[i] &= ~m[i];
    st[d / 64] |= (word)1 << (d % 64);
}

static void assign_target(versions *W, const uf__expr *t, word *st)
{
    if (t->kind == UF__EX_NAME)
        define(W, t, st);
    else if (t->kind == UF__EX_TUPLE || t->kind == UF__EX_LIST)
        for (int i = 0; i < t->u.seq.n; i++)
            assign_target(W, t->u.seq.elts[i], st);
    else /* a[i] = v, o.x = v: reads of a, i, o */
        use_expr(W, t, st);
}

static bool walk_block(versions *W, const uf__block *b, word *st);

/* A loop: the state at its head is the entry's joined with the body's end
 * and its continues, to a fixed point (reads inside are recorded on every
 * round; sets only grow). `target` is the for loop's, NULL for while. */
static bool walk_loop(versions *W, const uf__expr *cond, const uf__expr *target,
                      const uf__block *body, const uf__block *orelse,
                      word *st)
{
    word *head = set_copy(W, st), *cur = set_new(W);
    loop_ctx lc = {set_new(W), set_new(W)};
    if (W->failed)
        return false;
    if (grow(W, (void **)&W->loops, W->nloops, &W->caploops,
             sizeof *W->loops) != 0)
        return false;
    for (;;) {
        use_expr(W, cond, head);
        memcpy(cur, head, (size_t)W->nwords * sizeof *cur);
        if (target)
            assign_target(W, target, cur);
        set_clear(W, lc.cont);
        W->loops[W->nloops++] = lc;
        bool end = walk_block(W, body, cur);
        W->nloops--;
        word *next = set_copy(W, head);
        if (next == NULL)
            return false;
        if (end)
            set_or(W, next, cur);
        set_or(W, next, lc.cont);
        if (set_eq(W, next, head))
            break;
        head = next;
    }
    /* the loop ends by its condition (or exhaustion), then the else
     * block; or by a break */
    memcpy(st, head, (size_t)W->nwords * sizeof *st);
    bool end = walk_block(W, orelse, st);
    if (!end)
        set_clear(W, st);
    set_or(W, st, lc.brk);
    return true;
}

static bool walk_stmt(versions *W, const uf__stmt *s, word *st)
{
    switch (s->kind) {
    case UF__ST_EXPR:
        use_expr(W, s->u.expr.value, st);
        return true;
    case UF__ST_ASSIGN:
        use_expr(W, s->u.assign.value, st);
        for (int k = 0; k < s->u.assign.ntargets; k++)
            assign_target(W, s->u.assign.targets[k], st);
        return true;
    case UF__ST_AUGASSIGN: {
        const uf__expr *t = s->u.augassign.target;
        use_expr(W, s->u.augassign.value, st);
        use_expr(W, t, st);
        if (t->kind == UF__EX_NAME)
            define(W, t, st);
        return true;
    }
    case UF__ST_IF: {
        use_expr(W, s->u.if_.cond, st);
        word *other = set_copy(W, st);
        if (other == NULL)
            return false;
        bool a = walk_block(W, &s->u.if_.body, st);
        bool b = walk_block(W, &s->u.if_.orelse, other);
        if (!a)
            set_clear(W, st);
        if (b)
            set_or(W, st, other);
        return a || b;
    }
    case UF__ST_FOR:
        use_expr(W, s->u.for_.iter, st);
        return walk_loop(W, NULL, s->u.for_.target, &s->u.for_.body,
                         &s->u.for_.orelse, st) &&
               !W->failed;
    case UF__ST_WHILE:
        return walk_loop(W, s->u.while_.cond, NULL, &s->u.while_.body,
                         &s->u.while_.orelse, st) &&
               !W->failed;
    case UF__ST_BREAK:
    case UF__ST_CONTINUE:
        if (W->nloops > 0) {
            loop_ctx *lc = &W->loops[W->nloops - 1];
            set_or(W, s->kind == UF__ST_BREAK ? lc->brk : lc->cont, st);
        }
        set_clear(W, st);
        return false;
    case UF__ST_RETURN:
        use_expr(W, s->u.ret.value, st);
        set_clear(W, st);
        return false;
    case UF__ST_ASSERT:
        use_expr(W, s->u.assert_.test, st);
        use_expr(W, s->u.assert_.msg, st);
        return true;
    default:
        return true;
    }
}

/* Walks a block from state st (updated in place); false when its end is
 * not reached. Statements after a return are still walked (from an empty
 * state) so that their names are renamed consistently. */
static bool walk_block(versions *W, const uf__block *b, word *st)
{
    bool reached = true;
    for (int i = 0; i < b->n && !W->failed; i++)
        if (!walk_stmt(W, b->stmts[i], st))
            reached = false;
    return reached && !W->failed;
}

/* ---- variables ----------------------------------------------------------- */

/* The next variable of name n: the name itself first, then "x.1", ... */
static const char *new_variable(versions *W, int n)
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

/* The variable a read of name n reached by the definitions `defs` reads:
 * the definition's when it is one, else their join's; NULL when none
 * reaches (type inference refuses the read) or out of memory. */
static const char *read_variable(versions *W, int n, const word *defs)
{
    int first = -1, count = 0;
    for (int d = 0; d < W->ndefs && count < 2; d++)
        if (has(defs, d) && count++ == 0)
            first = d;
    if (n < 0 || count == 0)
        return NULL;
    if (count == 1)
        return W->def_id[first];
    for (int j = 0; j < W->njoins; j++)
        if (W->joins[j].name == n && set_eq(W, W->joins[j].defs, defs))
            return W->joins[j].id;
    if (grow(W, (void **)&W->joins, W->njoins, &W->capjoins,
             sizeof *W->joins) != 0)
        return NULL;
    join_var *j = &W->joins[W->njoins];
    j->name = n;
    j->defs = defs;
    if ((j->id = new_variable(W, n)) == NULL)
        return NULL;
    W->njoins++;
    return j->id;
}

static uf__expr *new_node(versions *W, uf__expr_kind kind, uf__pos pos)
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

/* ---- renaming ------------------------------------------------------------ */

static void rename_name(versions *W, const uf__expr *e, const word *st)
{
    (void)st;
    const char *id = NULL;
    if (W->node_def[e->id] >= 0)
        id = W->def_id[W->node_def[e->id]];
    else if (W->reaching[e->id] != NULL)
        id = read_variable(W, name_index(W, e->u.name.id),
                           W->reaching[e->id]);
    if (id != NULL)
        ((uf__expr *)e)->u.name.id = id;
}

static void rename_expr(versions *W, const uf__expr *e)
{
    visit_names(W, e, rename_name, NULL);
}

/* x op= v, whose one node reads one variable and defines another, becomes
 * x.2 = x.1 op v (the operation keeps its "op=" in messages). */
static void rename_augassign(versions *W, uf__stmt *s)
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
    if (W->reaching[t->id] != NULL) {
        const char *id = read_variable(W, name_index(W, t->u.name.id),
                                       W->reaching[t->id]);
        if (id != NULL)
            x->u.name.id = id;
    }
    t->u.name.id = W->def_id[W->node_def[t->id]];
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

/* A statement's own expressions, reads before definitions (the joins a
 * read creates are numbered in this order). */
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
    default:
        break;
    }
    return 0;
}

/* ---- feeding the joins --------------------------------------------------- */

/* `join = definition`, at the definition's position. */
static uf__stmt *feed(versions *W, const join_var *j, int d, uf__pos pos)
{
    uf__stmt *s = uf__arena_alloc(W->arena, 1, sizeof *s, W->err);
    uf__expr **targets = uf__arena_alloc(W->arena, 1, sizeof *targets,
                                         W->err);
    uf__expr *t = new_node(W, UF__EX_NAME, pos);
    uf__expr *v = new_node(W, UF__EX_NAME, pos);
    if (s == NULL || targets == NULL || t == NULL || v == NULL) {
        W->failed = true;
        return NULL;
    }
    t->u.name.id = j->id;
    v->u.name.id = W->def_id[d];
    targets[0] = t;
    s->kind = UF__ST_ASSIGN;
    s->pos = pos;
    s->join_feed = true;
    s->u.assign.targets = targets;
    s->u.assign.ntargets = 1;
    s->u.assign.value = v;
    return s;
}

/* The feeds of definition d into every join it reaches: counted, and
 * written to out unless it is NULL. */
static int def_feeds(versions *W, int d, uf__pos pos, uf__stmt **out)
{
    int k = 0;
    for (int j = 0; j < W->njoins; j++) {
        if (!has(W->joins[j].defs, d))
            continue;
        if (out != NULL)
            out[k] = feed(W, &W->joins[j], d, pos);
        k++;
    }
    return k;
}

static int target_feeds(versions *W, const uf__expr *t, uf__stmt **out)
{
    int k = 0;
    if (t->kind == UF__EX_NAME && W->node_def[t->id] >= 0)
        k = def_feeds(W, W->node_def[t->id], t->pos, out);
    else if (t->kind == UF__EX_TUPLE || t->kind == UF__EX_LIST)
        for (int i = 0; i < t->u.seq.n; i++)
            k += target_feeds(W, t->u.seq.elts[i], out ? out + k : NULL);
    return k;
}

static int stmt_feeds(versions *W, const uf__stmt *s, uf__stmt **out)
{
    int k = 0;
    if (s->kind == UF__ST_ASSIGN) /* augmented ones are plain ones now */
        for (int i = 0; i < s->u.assign.ntargets; i++)
            k += target_feeds(W, s->u.assign.targets[i],
                              out ? out + k : NULL);
    return k;
}

static void feed_block(versions *W, uf__block *b, uf__stmt **lead, int nlead);

/* A for loop's target is defined on each round: its feeds open the body. */
static void feed_nested(versions *W, uf__stmt *s)
{
    switch (s->kind) {
    case UF__ST_IF:
        feed_block(W, &s->u.if_.body, NULL, 0);
        feed_block(W, &s->u.if_.orelse, NULL, 0);
        break;
    case UF__ST_WHILE:
        feed_block(W, &s->u.while_.body, NULL, 0);
        feed_block(W, &s->u.while_.orelse, NULL, 0);
        break;
    case UF__ST_FOR: {
        int n = target_feeds(W, s->u.for_.target, NULL);
        uf__stmt **lead = n ? uf__arena_alloc(W->arena, (size_t)n,
                                              sizeof *lead, W->err)
                            : NULL;
        if (n && lead == NULL) {
            W->failed = true;
            return;
        }
        target_feeds(W, s->u.for_.target, lead);
        feed_block(W, &s->u.for_.body, lead, n);
        feed_block(W, &s->u.for_.orelse, NULL, 0);
        break;
    }
    default:
        break;
    }
}

/* Puts `lead` first in b and each definition's feeds right after it. */
static void feed_block(versions *W, uf__block *b, uf__stmt **lead, int nlead)
{
    int n = nlead;
    for (int i = 0; i < b->n && !W->failed; i++) {
        feed_nested(W, b->stmts[i]);
        n += 1 + stmt_feeds(W, b->stmts[i], NULL);
    }
    if (W->failed || n == b->n)
        return;
    uf__stmt **out = uf__arena_alloc(W->arena, (size_t)n, sizeof *out,
                                     W->err);
    if (out == NULL) {
        W->failed = true;
        return;
    }
    int k = 0;
    for (int i = 0; i < nlead; i++)
        out[k++] = lead[i];
    for (int i = 0; i < b->n; i++) {
        out[k++] = b->stmts[i];
        k += stmt_feeds(W, b->stmts[i], out + k);
    }
    b->stmts = out;
    b->n = k;
}

/* Parameters are defined on entry: their feeds open the body. */
static void feed_function(versions *W, uf__stmt *fn)
{
    int nparams = fn->u.funcdef.nparams, n = 0;
    for (int d = 0; d < nparams; d++)
        n += def_feeds(W, d, fn->u.funcdef.params[d].pos, NULL);
    uf__stmt **lead = n ? uf__arena_alloc(W->arena, (size_t)n, sizeof *lead,
                                          W->err)
                        : NULL;
    if (n && lead == NULL) {
        W->failed = true;
        return;
    }
    /* lead is NULL when no parameter feeds a join: NULL + 0 is undefined */
    for (int d = 0, k = 0; d < nparams && lead != NULL; d++)
        k += def_feeds(W, d, fn->u.funcdef.params[d].pos, lead + k);
    feed_block(W, &fn->u.funcdef.body, lead, n);
}

static int rename_function(uf__ast_module *m, uf__stmt *fn, uf__arena *arena,
                           uf_error *err)
{
    versions W = {.m = m, .arena = arena, .err = err};
    for (int i = 0; i < fn->u.funcdef.nparams; i++)
        add_def(&W, NULL, fn->u.funcdef.params[i].name);
    uf__ast_walk_stmts(&fn->u.funcdef.body, collect_stmt, &W);
    if (W.failed)
        return err->code;
    if (W.ndefs == 0)
        return 0;
    W.nwords = (W.ndefs + 63) / 64;
    /* per expression id: the module's ids, so temporary (the rest lives
     * in the module's arena, sized by this function) */
    size_t nx = (size_t)m->nexprs + 1;
    W.node_def = uf__malloc(nx, sizeof *W.node_def, err);
    W.reaching = uf__calloc(nx, sizeof *W.reaching, err);
    W.masks = uf__arena_alloc(arena, (size_t)W.nnames * (size_t)W.nwords,
                              sizeof *W.masks, err);
    W.def_id = uf__arena_alloc(arena, (size_t)W.ndefs, sizeof *W.def_id,
                               err);
    W.versions = uf__arena_alloc(arena, (size_t)W.nnames,
                                 sizeof *W.versions, err);
    word *st = set_new(&W);
    int rc = err->code ? err->code : UF_ERR_NOMEM;
    if (W.node_def && W.reaching && W.masks && W.def_id && W.versions &&
        st) {
        for (size_t i = 0; i < nx; i++)
            W.node_def[i] = -1;
        for (int d = 0; d < W.ndefs; d++) {
            if (W.def_node[d])
                W.node_def[W.def_node[d]->id] = d;
            else /* parameters are defined on entry */
                st[d / 64] |= (word)1 << (d % 64);
            W.masks[(size_t)W.def_name[d] * (size_t)W.nwords +
                    (size_t)d / 64] |= (word)1 << (d % 64);
        }
        walk_block(&W, &fn->u.funcdef.body, st);
        /* parameters first, then assignments in source order */
        for (int d = 0; d < W.ndefs && !W.failed; d++)
            W.def_id[d] = new_variable(&W, W.def_name[d]);
        if (!W.failed)
            uf__ast_walk_stmts(&fn->u.funcdef.body, rename_stmt, &W);
        if (!W.failed)
            feed_function(&W, fn);
        if (!W.failed)
            rc = 0;
    }
    uf__free(W.node_def);
    uf__free(W.reaching);
    return rc;
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
