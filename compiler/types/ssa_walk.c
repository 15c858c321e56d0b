/* The walk of SSA versioning (ssa_versions.c): one pass over a function
 * following the value of every name, as SSA construction over structured
 * code does. Where control flow merges (the end of an if, a loop's head, a
 * loop's exit) a name that arrives with different values gets a join, its
 * inputs the values on the edges coming in; a loop's head gets a join for
 * each name the loop assigns before its body is walked, so one pass
 * suffices (those that bring one value are dropped by ssa_joins.c). Each
 * read of a local records the value it reads.
 *
 * Branches are walked from the state before them and restored with an
 * undo log, so a merge costs what the branches changed, not the number of
 * names. */
#include <string.h>

#include "common/alloc.h"
#include "compiler/front/ast_visit.h"
#include "compiler/types/ssa_internal.h"

/* An earlier value of a name, to restore when a branch has been walked. */
typedef struct undo {
    int name, value, stamp;
} undo;

/* Where the state was: restoring it undoes what came after. */
typedef struct mark {
    int nlog, floor;
} mark;

/* A loop being walked: the names it assigns (scratch[names ..
 * names + k)), their joins at its head and exit, its breaks. */
typedef struct loop_frame {
    int names, k;
    int *head, *exit;
    ssa_edge *breaks;
    int nbreaks, capbreaks;
} loop_frame;

typedef struct walk {
    ssa *W;
    /* per name: its value, and when it was set: values set before `floor`
     * read as undefined (code after return, break or continue, walked
     * from an empty state as the reaching definitions it replaces did) */
    int *cur, *stamp;
    int floor, clock;
    undo *log;
    int nlog, caplog;
    /* a stack of names and values, and per-name marks for it */
    int *scratch;
    int nscratch, capscratch;
    int *seen, *tmpval, *tmpjoin;
    int gen;
    loop_frame *loops;
    int nloops, caploops;
} walk;

static void *grow_heap(walk *K, void *arr, int n, int *cap, size_t size)
{
    if (n < *cap)
        return arr;
    int ncap = *cap ? 2 * *cap : 64;
    void *p = uf__realloc(arr, (size_t)ncap, size, K->W->err);
    if (p == NULL) {
        K->W->failed = true;
        return NULL;
    }
    *cap = ncap;
    return p;
}

static int get(const walk *K, int n)
{
    return K->stamp[n] >= K->floor ? K->cur[n] : SSA_UNDEF;
}

static void set(walk *K, int n, int v)
{
    undo *log = grow_heap(K, K->log, K->nlog, &K->caplog, sizeof *log);
    if (log == NULL)
        return;
    K->log = log;
    log[K->nlog++] = (undo){n, K->cur[n], K->stamp[n]};
    K->cur[n] = v;
    K->stamp[n] = K->clock;
}

static mark mark_now(const walk *K)
{
    return (mark){K->nlog, K->floor};
}

static void rollback(walk *K, mark m)
{
    while (K->nlog > m.nlog) {
        const undo *u = &K->log[--K->nlog];
        K->cur[u->name] = u->value;
        K->stamp[u->name] = u->stamp;
    }
    K->floor = m.floor;
}

/* Control does not reach what follows: every name reads as undefined. */
static void clear(walk *K)
{
    K->floor = ++K->clock;
}

static void push(walk *K, int x)
{
    int *s = grow_heap(K, K->scratch, K->nscratch, &K->capscratch, sizeof *s);
    if (s == NULL)
        return;
    K->scratch = s;
    s[K->nscratch++] = x;
}

/* Pushes (name, value) for each name set since m; returns how many. */
static int snapshot(walk *K, mark m)
{
    int g = ++K->gen, k = 0;
    for (int i = m.nlog; i < K->nlog && !K->W->failed; i++) {
        int n = K->log[i].name;
        if (K->seen[n] == g)
            continue;
        K->seen[n] = g;
        push(K, n);
        push(K, get(K, n));
        k++;
    }
    return k;
}

static int new_join(walk *K, int n, uf__pos pos)
{
    ssa *W = K->W;
    if (uf__ssa_grow(W, (void **)&W->joins, W->njoins, &W->capjoins,
                     sizeof *W->joins) != 0)
        return SSA_UNDEF;
    W->joins[W->njoins] = (ssa_join){n, pos, -1, -1};
    return W->njoins++;
}

static void add_input(walk *K, int j, int value, ssa_edge edge)
{
    ssa *W = K->W;
    if (j < 0 || value == SSA_UNDEF ||
        uf__ssa_grow(W, (void **)&W->inputs, W->ninputs, &W->capinputs,
                     sizeof *W->inputs) != 0)
        return;
    W->inputs[W->ninputs] = (ssa_input){value, -1, edge};
    if (W->joins[j].last >= 0)
        W->inputs[W->joins[j].last].next = W->ninputs;
    else
        W->joins[j].first = W->ninputs;
    W->joins[j].last = W->ninputs++;
}

/* What join j stands for: itself, or the one value all its inputs bring
 * (then it is dropped). */
static int settle(walk *K, int j)
{
    ssa *W = K->W;
    if (j < 0)
        return SSA_UNDEF;
    int v = SSA_UNDEF;
    for (int i = W->joins[j].first; i >= 0; i = W->inputs[i].next) {
        if (v == SSA_UNDEF)
            v = W->inputs[i].value;
        else if (W->inputs[i].value != v)
            return W->ndefs + j;
    }
    W->joins[j].first = W->joins[j].last = -1;
    return v;
}

static ssa_edge end_of(uf__block *b)
{
    return (ssa_edge){b, b->n};
}

/* A read of a local where it holds the value the state says. */
static int read_cb(const uf__expr *e, void *ud)
{
    walk *K = ud;
    if (e->kind != UF__EX_NAME)
        return uf__ast_children(e, read_cb, ud);
    int n = uf__ssa_name(K->W, e->u.name.id);
    if (n >= 0) /* else a global, a module, a builtin */
        K->W->read_val[e->id] = get(K, n);
    return 0;
}

static void use_expr(walk *K, const uf__expr *e)
{
    if (e != NULL)
        read_cb(e, K);
}

static void define(walk *K, const uf__expr *e)
{
    int d = K->W->node_def[e->id];
    if (d >= 0)
        set(K, K->W->defs[d].name, d);
}

static void assign_target(walk *K, const uf__expr *t)
{
    if (t->kind == UF__EX_NAME)
        define(K, t);
    else if (t->kind == UF__EX_TUPLE || t->kind == UF__EX_LIST)
        for (int i = 0; i < t->u.seq.n; i++)
            assign_target(K, t->u.seq.elts[i]);
    else /* a[i] = v, o.x = v: reads of a, i, o */
        use_expr(K, t);
}

static bool walk_block(walk *K, uf__block *b);

/* The ways through an if/elif/else chain that reach its end: each
 * block, and where its (name, value) pairs start on the scratch stack. */
typedef struct arm {
    uf__block *block;
    int at, n;
} arm;

typedef struct arms {
    arm *v;
    int n, cap;
} arms;

/* Walks one way from the state at m, records it when it reaches its end,
 * and goes back to m. */
static void walk_arm(walk *K, uf__block *b, mark m, arms *A)
{
    if (walk_block(K, b)) {
        arm *v = grow_heap(K, A->v, A->n, &A->cap, sizeof *v);
        if (v != NULL) {
            A->v = v;
            int at = K->nscratch;
            v[A->n++] = (arm){b, at, snapshot(K, m)};
        }
    }
    rollback(K, m);
}

/* The end of the chain: a name the ways bring different values of gets a
 * join fed at the end of each (the value from before the if where a way
 * left it). */
static void merge_arms(walk *K, const uf__stmt *s, const arms *A)
{
    int g = ++K->gen, ubase = K->nscratch;
    for (int k = 0; k < A->n; k++)
        for (int i = 0; i < A->v[k].n; i++) {
            int n = K->scratch[A->v[k].at + 2 * i];
            if (K->seen[n] != g) {
                K->seen[n] = g;
                push(K, n);
            }
        }
    int nu = K->nscratch - ubase;
    if (K->W->failed)
        return;
    for (int u = 0; u < nu; u++) {
        int n = K->scratch[ubase + u];
        K->tmpjoin[n] = A->n > 1 ? new_join(K, n, s->pos) : -1;
    }
    for (int k = 0; k < A->n; k++) {
        const arm *a = &A->v[k];
        int ga = ++K->gen;
        for (int i = 0; i < a->n; i++) {
            int n = K->scratch[a->at + 2 * i];
            K->seen[n] = ga;
            K->tmpval[n] = K->scratch[a->at + 2 * i + 1];
        }
        for (int u = 0; u < nu; u++) {
            int n = K->scratch[ubase + u];
            int v = K->seen[n] == ga ? K->tmpval[n] : get(K, n);
            if (A->n == 1)
                K->tmpjoin[n] = v; /* one way: its value */
            else
                add_input(K, K->tmpjoin[n], v, end_of(a->block));
        }
    }
    for (int u = 0; u < nu; u++) {
        int n = K->scratch[ubase + u];
        int v = A->n > 1 ? settle(K, K->tmpjoin[n]) : K->tmpjoin[n];
        if (v != get(K, n))
            set(K, n, v);
    }
}

/* An if and its elif chain, merged at one point as in Numba's control
 * flow graph (each way jumps to the end of the chain): a ladder of n
 * ways gets one join of n inputs per name, not n - 1 nested ones. */
static bool walk_if(walk *K, uf__stmt *s)
{
    mark m = mark_now(K);
    int base = K->nscratch;
    arms A = {NULL, 0, 0};
    for (uf__stmt *t = s; t != NULL && !K->W->failed;) {
        use_expr(K, t->u.if_.cond); /* before the way: from state m */
        walk_arm(K, &t->u.if_.body, m, &A);
        uf__block *e = &t->u.if_.orelse;
        t = NULL;
        if (e->n == 1 && e->stmts[0]->kind == UF__ST_IF)
            t = e->stmts[0]; /* elif: its end is the chain's */
        else
            walk_arm(K, e, m, &A);
    }
    if (!K->W->failed)
        merge_arms(K, s, &A);
    bool reached = A.n > 0;
    uf__free(A.v);
    K->nscratch = base;
    if (!reached)
        clear(K);
    return reached && !K->W->failed;
}

static int loop_name_cb(const uf__expr *t, void *ud)
{
    walk *K = ud;
    if (t->kind == UF__EX_TUPLE || t->kind == UF__EX_LIST)
        return uf__ast_children(t, loop_name_cb, ud);
    int d = t->kind == UF__EX_NAME ? K->W->node_def[t->id] : -1;
    if (d >= 0 && K->seen[K->W->defs[d].name] != K->gen) {
        K->seen[K->W->defs[d].name] = K->gen;
        push(K, K->W->defs[d].name);
    }
    return 0;
}

static int loop_stmt_cb(uf__stmt *s, void *K)
{
    return uf__ast_stmt_targets(s, loop_name_cb, K);
}

/* Pushes the names a loop assigns: its target's, its body's. */
static int loop_names(walk *K, const uf__expr *target, uf__block *body)
{
    int base = K->nscratch;
    K->gen++;
    if (target != NULL)
        loop_name_cb(target, K);
    uf__ast_walk_stmts(body, loop_stmt_cb, K);
    return K->nscratch - base;
}

/* Joins at the loop's exit: names the loop assigns (exit[]) and those only
 * its else block does, whose breaks bring the value from before the
 * loop. `sb` holds the else block's (name, value) pairs when it ends. */
static void exit_joins(walk *K, const uf__stmt *s, loop_frame *F, bool e,
                       uf__block *orelse, int ne, int sbase)
{
    int g = K->gen + 1; /* g: set by the else block; g + 1: merged */
    K->gen += 2;
    for (int i = 0; i < ne; i++) {
        int n = K->scratch[sbase + 2 * i];
        K->seen[n] = g;
        K->tmpval[n] = K->scratch[sbase + 2 * i + 1];
    }
    for (int i = 0; i < F->k; i++) {
        int n = K->scratch[F->names + i];
        if (e)
            add_input(K, F->exit[i], K->seen[n] == g ? K->tmpval[n] : get(K, n),
                      end_of(orelse));
        K->seen[n] = g + 1;
    }
    for (int i = 0; i < ne; i++) {
        int n = K->scratch[sbase + 2 * i];
        if (K->seen[n] == g + 1)
            continue;
        K->seen[n] = g + 1;
        int j = F->nbreaks > 0 ? new_join(K, n, s->pos) : -1;
        if (j < 0) {
            set(K, n, K->tmpval[n]);
            continue;
        }
        add_input(K, j, K->tmpval[n], end_of(orelse));
        for (int b = 0; b < F->nbreaks; b++)
            add_input(K, j, get(K, n), F->breaks[b]);
        int v = settle(K, j);
        if (v != get(K, n))
            set(K, n, v);
    }
    for (int i = 0; i < F->k; i++) {
        int n = K->scratch[F->names + i], v = settle(K, F->exit[i]);
        if (v != get(K, n))
            set(K, n, v);
    }
}

/* A loop: each name it assigns gets a join at its head, fed before the
 * loop and at the end of the body and each continue, and one at its
 * exit, fed at the end of the else block (where the loop ends by its
 * condition) and at each break. Joins that turn out to bring one value
 * are dropped later (ssa_joins.c). */
static bool walk_loop(walk *K, uf__stmt *s, ssa_edge entry,
                      const uf__expr *cond, const uf__expr *target,
                      uf__block *body, uf__block *orelse)
{
    ssa *W = K->W;
    int base = K->nscratch;
    int k = loop_names(K, target, body);
    loop_frame *lf = grow_heap(K, K->loops, K->nloops, &K->caploops,
                               sizeof *lf);
    if (lf == NULL)
        return false;
    K->loops = lf;
    loop_frame F = {base, k, NULL, NULL, NULL, 0, 0};
    F.head = uf__arena_alloc(W->arena, (size_t)k + 1, sizeof *F.head, W->err);
    F.exit = uf__arena_alloc(W->arena, (size_t)k + 1, sizeof *F.exit, W->err);
    if (F.head == NULL || F.exit == NULL || W->failed) {
        W->failed = true;
        return false;
    }
    for (int i = 0; i < k; i++) {
        int n = K->scratch[base + i];
        F.head[i] = new_join(K, n, s->pos);
        F.exit[i] = new_join(K, n, s->pos);
        add_input(K, F.head[i], get(K, n), entry);
        set(K, n, F.head[i] >= 0 ? W->ndefs + F.head[i] : SSA_UNDEF);
    }
    mark mh = mark_now(K);
    use_expr(K, cond);
    if (target != NULL)
        assign_target(K, target);
    K->loops[K->nloops++] = F;
    bool end = walk_block(K, body);
    F = K->loops[--K->nloops];
    for (int i = 0; i < k && end; i++)
        add_input(K, F.head[i], get(K, K->scratch[base + i]), end_of(body));
    rollback(K, mh);
    bool e = walk_block(K, orelse);
    int sbase = K->nscratch, ne = e ? snapshot(K, mh) : 0;
    rollback(K, mh);
    if (!W->failed)
        exit_joins(K, s, &F, e, orelse, ne, sbase);
    uf__free(F.breaks);
    K->nscratch = base;
    if (!e && F.nbreaks == 0)
        clear(K);
    return (e || F.nbreaks > 0) && !W->failed;
}

/* break and continue feed the innermost loop's exit or head joins. */
static void jump(walk *K, const uf__stmt *s, ssa_edge at)
{
    if (K->nloops == 0)
        return;
    loop_frame *F = &K->loops[K->nloops - 1];
    bool brk = s->kind == UF__ST_BREAK;
    for (int i = 0; i < F->k; i++)
        add_input(K, brk ? F->exit[i] : F->head[i],
                  get(K, K->scratch[F->names + i]), at);
    if (brk) {
        ssa_edge *e = grow_heap(K, F->breaks, F->nbreaks, &F->capbreaks,
                                sizeof *e);
        if (e == NULL)
            return;
        F->breaks = e;
        e[F->nbreaks++] = at;
    }
}

/* Statement i of b; false when control does not reach its end. */
static bool walk_stmt(walk *K, uf__block *b, int i)
{
    uf__stmt *s = b->stmts[i];
    ssa_edge here = {b, i};
    switch (s->kind) {
    case UF__ST_EXPR:
        use_expr(K, s->u.expr.value);
        return true;
    case UF__ST_ASSIGN:
        use_expr(K, s->u.assign.value);
        for (int k = 0; k < s->u.assign.ntargets; k++)
            assign_target(K, s->u.assign.targets[k]);
        return true;
    case UF__ST_AUGASSIGN: {
        const uf__expr *t = s->u.augassign.target;
        use_expr(K, s->u.augassign.value);
        use_expr(K, t);
        if (t->kind == UF__EX_NAME)
            define(K, t);
        return true;
    }
    case UF__ST_IF:
        return walk_if(K, s);
    case UF__ST_FOR:
        use_expr(K, s->u.for_.iter);
        return walk_loop(K, s, here, NULL, s->u.for_.target, &s->u.for_.body,
                         &s->u.for_.orelse);
    case UF__ST_WHILE:
        return walk_loop(K, s, here, s->u.while_.cond, NULL,
                         &s->u.while_.body, &s->u.while_.orelse);
    case UF__ST_BREAK:
    case UF__ST_CONTINUE:
        jump(K, s, here);
        clear(K);
        return false;
    case UF__ST_RETURN:
        use_expr(K, s->u.ret.value);
        clear(K);
        return false;
    case UF__ST_ASSERT:
        use_expr(K, s->u.assert_.test);
        use_expr(K, s->u.assert_.msg);
        return true;
    case UF__ST_RAISE:
        for (int k = 0; k < s->u.raise.nargs; k++)
            use_expr(K, s->u.raise.args[k]);
        clear(K);
        return false;
    default:
        return true;
    }
}

/* Walks a block; false when its end is not reached. Statements after a
 * return are still walked (from an empty state) so that their names are
 * renamed consistently. */
static bool walk_block(walk *K, uf__block *b)
{
    bool reached = true;
    for (int i = 0; i < b->n && !K->W->failed; i++)
        if (!walk_stmt(K, b, i))
            reached = false;
    return reached && !K->W->failed;
}

void uf__ssa_walk(ssa *W, uf__stmt *fn)
{
    walk K = {.W = W};
    size_t nn = (size_t)W->nnames + 1;
    K.cur = uf__malloc(nn, sizeof *K.cur, W->err);
    K.stamp = uf__calloc(nn, sizeof *K.stamp, W->err);
    K.seen = uf__calloc(nn, sizeof *K.seen, W->err);
    K.tmpval = uf__calloc(nn, sizeof *K.tmpval, W->err);
    K.tmpjoin = uf__calloc(nn, sizeof *K.tmpjoin, W->err);
    if (K.cur && K.stamp && K.seen && K.tmpval && K.tmpjoin) {
        for (int n = 0; n < W->nnames; n++)
            K.cur[n] = SSA_UNDEF;
        for (int d = 0; d < fn->u.funcdef.nparams; d++)
            K.cur[W->defs[d].name] = d; /* parameters are defined on entry */
        walk_block(&K, &fn->u.funcdef.body);
    } else {
        W->failed = true;
    }
    uf__free(K.loops);
    uf__free(K.scratch);
    uf__free(K.log);
    uf__free(K.cur);
    uf__free(K.stamp);
    uf__free(K.seen);
    uf__free(K.tmpval);
    uf__free(K.tmpjoin);
}

