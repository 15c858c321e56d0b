/* The joins of the walk (ssa_walk.c) become variables and assignments.
 *
 * Joins reached by the same definitions are one variable: the set a join
 * stands for is computed (the union of its inputs' sets, to a fixed point
 * around loops) and joins with equal sets share the first one's variable;
 * a join one definition reaches is that definition, one none reaches is
 * undefined. A variable that holds the current value of its name wherever
 * one of its joins is the value stays correct when it is also assigned at
 * another of them, so sharing is sound, and it keeps the numbering Numba
 * and the earlier reaching-definitions pass gave: joins are numbered on
 * first read, after the definitions, and a read's variable depends only on
 * the definitions reaching it.
 *
 * Only joins that are read, or feed one that is, get a variable and feeds:
 * definitions that meet nowhere must not be unified (Numba accepts
 * `t = 1` and `t = (1, 2)` in two branches when t is not read after).
 * A join only one other join reads gives its inputs to that one
 * (forward_single_uses), so an if inside a loop body feeds the loop's
 * head join directly, as before.
 *
 * Each input gives at most one feed, at the end of its edge: the feeds
 * are linear in the joins' inputs, which the walk makes one per way into
 * each merge point per name it changes there. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "common/error_internal.h"
#include "compiler/types/ssa_internal.h"

typedef uint64_t word;

struct ssa_classes {
    size_t *off; /* per join: where its set starts in bits */
    word *bits;
    int *by_name; /* definitions by name, then index among the name's */
    int *name_first;
    bool *live; /* per join standing for itself: read, or feeds one that
                   is */
    int *target; /* per live one: the join whose variable its feeds
                    assign (itself, or the one it is forwarded to) */
};

static int words_of(const ssa *W, int j)
{
    return (W->name_ndefs[W->joins[j].name] + 63) / 64;
}

/* OR of the set of value v (of join j's name) into join j's set. */
static bool or_value(const ssa *W, struct ssa_classes *C, int j, int v)
{
    word *s = C->bits + C->off[j];
    if (v < W->ndefs) {
        int b = W->defs[v].local;
        word bit = (word)1 << (b % 64);
        bool changed = (s[b / 64] & bit) == 0;
        s[b / 64] |= bit;
        return changed;
    }
    const word *o = C->bits + C->off[v - W->ndefs];
    bool changed = false;
    for (int i = 0, nw = words_of(W, j); i < nw; i++) {
        word x = s[i] | o[i];
        changed |= x != s[i];
        s[i] = x;
    }
    return changed;
}

static uint64_t hash_set(const word *s, int nw, int name)
{
    uint64_t h = 1469598103934665603u ^ (uint64_t)name;
    for (int i = 0; i < nw; i++)
        h = (h ^ s[i]) * 1099511628211u;
    return h;
}

/* What join j with set s stands for when fewer than two definitions reach
 * it. */
static int small_set(const ssa *W, const struct ssa_classes *C, int j,
                     const word *s, int count)
{
    if (count == 0)
        return SSA_UNDEF;
    int nw = words_of(W, j), b = 0;
    for (int i = 0; i < nw; i++)
        if (s[i] != 0) {
            b = i * 64 + __builtin_ctzll(s[i]);
            break;
        }
    return C->by_name[C->name_first[W->joins[j].name] + b];
}

/* canon[] from the sets: equal sets share the first join's. */
static void share_equal_sets(ssa *W, struct ssa_classes *C)
{
    int nj = W->njoins;
    size_t cap = 16;
    while (cap < 2 * (size_t)nj)
        cap *= 2;
    int *table = uf__malloc(cap, sizeof *table, W->err);
    if (table == NULL) {
        W->failed = true;
        return;
    }
    memset(table, -1, cap * sizeof *table);
    for (int j = 0; j < nj; j++) {
        const word *s = C->bits + C->off[j];
        int nw = words_of(W, j), count = 0;
        for (int i = 0; i < nw && count < 2; i++)
            count += __builtin_popcountll(s[i]);
        if (count < 2) {
            W->canon[j] = small_set(W, C, j, s, count);
            continue;
        }
        size_t h = (size_t)hash_set(s, nw, W->joins[j].name) & (cap - 1);
        for (;; h = (h + 1) & (cap - 1)) {
            int r = table[h];
            if (r < 0)
                table[h] = r = j;
            if (r == j || (W->joins[r].name == W->joins[j].name &&
                           memcmp(C->bits + C->off[r], s,
                                  (size_t)nw * sizeof *s) == 0)) {
                W->canon[j] = W->ndefs + r;
                break;
            }
        }
    }
    uf__free(table);
}

/* The definitions reaching each join: inputs flow forward in creation
 * order and back around loops, a round per level of loop nesting. */
static void reaching_sets(ssa *W, struct ssa_classes *C)
{
    size_t total = 0;
    for (int j = 0; j < W->njoins; j++) {
        C->off[j] = total;
        total += (size_t)words_of(W, j);
    }
    C->bits = uf__calloc(total + 1, sizeof *C->bits, W->err);
    if (C->bits == NULL) {
        W->failed = true;
        return;
    }
    for (bool changed = true; changed;) {
        changed = false;
        for (int j = 0; j < W->njoins; j++)
            for (int i = W->joins[j].first; i >= 0; i = W->inputs[i].next)
                changed |= or_value(W, C, j, W->inputs[i].value);
    }
}

void uf__ssa_join_classes(ssa *W)
{
    size_t nj = (size_t)W->njoins + 1;
    struct ssa_classes *C = uf__calloc(1, sizeof *C, W->err);
    W->classes = C;
    if (C == NULL) {
        W->failed = true;
        return;
    }
    C->off = uf__malloc(nj, sizeof *C->off, W->err);
    C->live = uf__calloc(nj, sizeof *C->live, W->err);
    C->by_name = uf__malloc((size_t)W->ndefs + 1, sizeof *C->by_name, W->err);
    C->name_first = uf__calloc((size_t)W->nnames + 1, sizeof *C->name_first,
                               W->err);
    W->canon = uf__malloc(nj, sizeof *W->canon, W->err);
    W->join_id = uf__calloc(nj, sizeof *W->join_id, W->err);
    if (!C->off || !C->live || !C->by_name || !C->name_first || !W->canon ||
        !W->join_id) {
        W->failed = true;
        return;
    }
    for (int n = 0; n < W->nnames; n++)
        C->name_first[n + 1] = C->name_first[n] + W->name_ndefs[n];
    for (int d = 0; d < W->ndefs; d++)
        C->by_name[C->name_first[W->defs[d].name] + W->defs[d].local] = d;
    reaching_sets(W, C);
    if (!W->failed)
        share_equal_sets(W, C);
}

/* The value v stands for (v >= 0): a definition, a join standing for
 * itself, or SSA_UNDEF. */
static int resolve(const ssa *W, int v)
{
    return v < W->ndefs ? v : W->canon[v - W->ndefs];
}

const char *uf__ssa_read_variable(ssa *W, int value)
{
    int c = value == SSA_UNDEF ? SSA_UNDEF : resolve(W, value);
    if (c == SSA_UNDEF)
        return NULL;
    if (c < W->ndefs)
        return W->defs[c].id;
    int r = c - W->ndefs;
    if (W->unsplit && W->unsplit[W->joins[r].name]) /* ssa_versions.c */
        return W->names[W->joins[r].name];
    if (W->join_id[r] == NULL) {
        W->join_id[r] = uf__ssa_new_variable(W, W->joins[r].name);
        W->classes->live[r] = true;
    }
    return W->join_id[r];
}

/* ---- feeds --------------------------------------------------------------- */

/* Marks live the joins that live ones read (through any of the joins
 * sharing their variable). */
static void propagate_live(ssa *W)
{
    struct ssa_classes *C = W->classes;
    int nj = W->njoins;
    int *first = uf__calloc((size_t)nj + 2, sizeof *first, W->err);
    int *members = uf__malloc((size_t)nj + 1, sizeof *members, W->err);
    int *stack = uf__malloc((size_t)nj + 1, sizeof *stack, W->err);
    if (first == NULL || members == NULL || stack == NULL) {
        W->failed = true;
        goto done;
    }
    for (int j = 0; j < nj; j++)
        if (W->canon[j] >= W->ndefs)
            first[W->canon[j] - W->ndefs + 1]++;
    for (int r = 0; r < nj; r++)
        first[r + 1] += first[r];
    int *fill = stack; /* reused: a cursor per representative */
    memcpy(fill, first, (size_t)nj * sizeof *fill);
    for (int j = 0; j < nj; j++)
        if (W->canon[j] >= W->ndefs)
            members[fill[W->canon[j] - W->ndefs]++] = j;
    int top = 0;
    for (int r = 0; r < nj; r++)
        if (C->live[r])
            stack[top++] = r;
    while (top > 0) {
        int r = stack[--top];
        for (int m = first[r]; m < first[r + 1]; m++)
            for (int i = W->joins[members[m]].first; i >= 0;
                 i = W->inputs[i].next) {
                int c = resolve(W, W->inputs[i].value);
                if (c >= W->ndefs && !C->live[c - W->ndefs]) {
                    C->live[c - W->ndefs] = true;
                    stack[top++] = c - W->ndefs;
                }
            }
    }
done:
    uf__free(first);
    uf__free(members);
    uf__free(stack);
}

/* A join no read sees and one other join takes as an input on one edge
 * (an if's end inside a loop body, before the back edge) needs no
 * variable: its inputs feed the other join's directly, on its own edges
 * (the name is not redefined between its merge point and that edge, and
 * assigning a join the current value anywhere keeps it right). Moving the
 * inputs, never copying them, keeps the feeds linear; it keeps the
 * numbering of feeding each join after the definitions reaching it. */
static void forward_single_uses(ssa *W)
{
    struct ssa_classes *C = W->classes;
    int nj = W->njoins;
    int *uses = uf__calloc((size_t)nj + 1, sizeof *uses, W->err);
    int *consumer = uf__malloc((size_t)nj + 1, sizeof *consumer, W->err);
    int *path = uf__malloc((size_t)nj + 1, sizeof *path, W->err);
    C->target = uf__malloc((size_t)nj + 1, sizeof *C->target, W->err);
    if (uses == NULL || consumer == NULL || path == NULL || C->target == NULL) {
        W->failed = true;
        goto done;
    }
    for (int j = 0; j < nj; j++) {
        int c = W->canon[j];
        C->target[j] = -1;
        if (c < W->ndefs || !C->live[c - W->ndefs])
            continue;
        for (int i = W->joins[j].first; i >= 0; i = W->inputs[i].next) {
            int v = resolve(W, W->inputs[i].value);
            if (v >= W->ndefs && v != c) {
                uses[v - W->ndefs]++;
                consumer[v - W->ndefs] = c - W->ndefs;
            }
        }
    }
    /* follow single uses to a join that keeps its variable (a cycle of
     * them keeps the one where it closes) */
    for (int r = 0; r < nj; r++) {
        if (!C->live[r] || C->target[r] >= 0)
            continue;
        int n = 0, t = r;
        while (C->target[t] == -1 && W->join_id[t] == NULL && uses[t] == 1) {
            C->target[t] = -2; /* on the path */
            path[n++] = t;
            t = consumer[t];
        }
        int final = C->target[t] >= 0 ? C->target[t] : t;
        for (int i = 0; i < n; i++)
            C->target[path[i]] = final;
        C->target[final] = final;
    }
    /* the joins only other joins read: numbered after those read, in the
     * order the walk made them */
    for (int r = 0; r < nj && !W->failed; r++)
        if (C->live[r] && C->target[r] == r && W->join_id[r] == NULL)
            W->join_id[r] = uf__ssa_new_variable(W, W->joins[r].name);
done:
    uf__free(uses);
    uf__free(consumer);
    uf__free(path);
}

/* One assignment `target = source` to insert before stmts[at] of block. */
typedef struct feed_rec {
    uf__block *block;
    int at, seq;
    const char *target, *source;
    uf__pos pos;
} feed_rec;

static int rec_cmp(const void *pa, const void *pb)
{
    const feed_rec *a = pa, *b = pb;
    uintptr_t x = (uintptr_t)a->block, y = (uintptr_t)b->block;
    if (x != y)
        return x < y ? -1 : 1;
    if (a->at != b->at)
        return a->at < b->at ? -1 : 1;
    return (a->seq > b->seq) - (a->seq < b->seq);
}

static uf__expr *name_node(ssa *W, const char *id, uf__pos pos)
{
    uf__expr *e = uf__arena_alloc(W->arena, 1, sizeof *e, W->err);
    if (e == NULL)
        return NULL;
    e->kind = UF__EX_NAME;
    e->pos = pos;
    e->id = W->m->nexprs++;
    e->u.name.id = id;
    return e;
}

/* `target = source`, at pos, marked join_feed. */
static uf__stmt *feed_stmt(ssa *W, const feed_rec *f)
{
    uf__stmt *s = uf__arena_alloc(W->arena, 1, sizeof *s, W->err);
    uf__expr **targets = uf__arena_alloc(W->arena, 1, sizeof *targets,
                                         W->err);
    uf__expr *t = name_node(W, f->target, f->pos);
    uf__expr *v = name_node(W, f->source, f->pos);
    if (s == NULL || targets == NULL || t == NULL || v == NULL) {
        W->failed = true;
        return NULL;
    }
    targets[0] = t;
    s->kind = UF__ST_ASSIGN;
    s->pos = f->pos;
    s->join_feed = true;
    s->u.assign.targets = targets;
    s->u.assign.ntargets = 1;
    s->u.assign.value = v;
    return s;
}

/* Inserts the feeds recs[0..n) of one block, sorted by position. */
static void insert_feeds(ssa *W, const feed_rec *recs, int n)
{
    uf__block *b = recs[0].block;
    uf__stmt **out = uf__arena_alloc(W->arena, (size_t)b->n + (size_t)n,
                                     sizeof *out, W->err);
    if (out == NULL) {
        W->failed = true;
        return;
    }
    int k = 0, r = 0;
    for (int i = 0; i <= b->n && !W->failed; i++) {
        for (; r < n && recs[r].at == i; r++)
            out[k++] = feed_stmt(W, &recs[r]);
        if (i < b->n)
            out[k++] = b->stmts[i];
    }
    b->stmts = out;
    b->n = k;
}

/* The feeds of join j: each input that brings another value than the
 * variable j's feeds assign holds (an input forwarded there brings its
 * own inputs). */
static int join_feeds(ssa *W, int j, feed_rec *out, int seq)
{
    const struct ssa_classes *C = W->classes;
    int c = W->canon[j], k = 0;
    if (c < W->ndefs || !C->live[c - W->ndefs])
        return 0;
    int t = C->target[c - W->ndefs];
    for (int i = W->joins[j].first; i >= 0; i = W->inputs[i].next) {
        const ssa_input *in = &W->inputs[i];
        int v = resolve(W, in->value);
        if (v == SSA_UNDEF || (v >= W->ndefs && C->target[v - W->ndefs] == t))
            continue;
        if (out != NULL) {
            bool def = v < W->ndefs;
            out[k] = (feed_rec){in->edge.block, in->edge.at, seq + k,
                                W->join_id[t],
                                def ? W->defs[v].id
                                    : W->join_id[v - W->ndefs],
                                def ? W->defs[v].pos : W->joins[j].pos};
        }
        k++;
    }
    return k;
}

void uf__ssa_place_feeds(ssa *W)
{
    propagate_live(W);
    if (!W->failed)
        forward_single_uses(W);
    int n = 0;
    for (int j = 0; j < W->njoins && !W->failed; j++)
        n += join_feeds(W, j, NULL, 0);
    if (W->failed || n == 0)
        return;
    feed_rec *recs = uf__malloc((size_t)n, sizeof *recs, W->err);
    if (recs == NULL) {
        W->failed = true;
        return;
    }
    for (int j = 0, k = 0; j < W->njoins; j++)
        k += join_feeds(W, j, recs + k, k);
    qsort(recs, (size_t)n, sizeof *recs, rec_cmp);
    for (int i = 0, e; i < n && !W->failed; i = e) {
        for (e = i + 1; e < n && recs[e].block == recs[i].block; e++)
            ;
        insert_feeds(W, recs + i, e - i);
    }
    uf__free(recs);
}

void uf__ssa_joins_free(ssa *W)
{
    struct ssa_classes *C = W->classes;
    if (C != NULL) {
        uf__free(C->off);
        uf__free(C->bits);
        uf__free(C->by_name);
        uf__free(C->name_first);
        uf__free(C->live);
        uf__free(C->target);
        uf__free(C);
    }
    uf__free(W->canon);
    uf__free(W->join_id);
}
