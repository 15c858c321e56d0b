/* Gives each independent use of a local name its own variable, as Numba's
 * SSA reconstruction does: in
 *
 *     x = 1
 *     y = x + a
 *     x = (1.5, 2)
 *
 * the two assignments to x never meet at a read, so they may have
 * unrelated types. Type inference gives every variable one type (the
 * unification of what is assigned to it), so the function's names are
 * split into webs first: definitions that reach a common read (through
 * branches and loop back edges: reaching definitions over the tree) are
 * one web, and every web after the first of a name is renamed "x.1",
 * "x.2", ... in the tree (names with a dot cannot come from the source).
 *
 * Difference left from Numba: Numba types each version on its own and
 * unifies only at the joins (its phi nodes), so in `x = 1; y = x // 2;
 * if c: x = 2.5` its y is int64; here x is one web typed float64. */
#include <stdio.h>
#include <string.h>

#include "common/alloc.h"
#include "common/error_internal.h"
#include "compiler/rename_webs.h"

typedef uint64_t word;

typedef struct loop_ctx {
    word *brk, *cont; /* states at break / continue statements */
} loop_ctx;

typedef struct webs {
    uf__arena *arena;
    uf_error *err;
    const char **names; /* local names: parameters and assigned names */
    int nnames, capnames;
    /* definitions: parameters first, then assigned Name nodes in source
     * order */
    const uf__expr **def_node; /* NULL for a parameter */
    int *def_name;
    int ndefs, capdefs, capdefs2;
    int *parent;   /* union-find over definitions */
    int *node_def; /* expression id -> definition index, or -1 */
    int *use_rep;  /* expression id of a read -> one reaching def, or -1 */
    word *masks;   /* per name: its definitions */
    int nwords;
    loop_ctx *loops;
    int nloops, caploops;
    /* per root definition: its web's new name, NULL to keep the name */
    const char **webname;
    bool failed;
} webs;

/* ---- small sets of definitions ------------------------------------------ */

static word *set_new(webs *W)
{
    word *s = uf__arena_alloc(W->arena, (size_t)W->nwords + 1, sizeof *s,
                              W->err);
    if (s == NULL)
        W->failed = true;
    return s;
}

static word *set_copy(webs *W, const word *a)
{
    word *s = set_new(W);
    if (s)
        memcpy(s, a, (size_t)W->nwords * sizeof *s);
    return s;
}

static void set_or(webs *W, word *a, const word *b)
{
    for (int i = 0; i < W->nwords; i++)
        a[i] |= b[i];
}

static bool set_eq(const webs *W, const word *a, const word *b)
{
    return memcmp(a, b, (size_t)W->nwords * sizeof *a) == 0;
}

static void set_clear(webs *W, word *a)
{
    memset(a, 0, (size_t)W->nwords * sizeof *a);
}

static bool has(const word *s, int d)
{
    return (s[d / 64] >> (d % 64)) & 1;
}

/* ---- union-find ---------------------------------------------------------- */

static int find(webs *W, int d)
{
    while (W->parent[d] != d)
        d = W->parent[d] = W->parent[W->parent[d]];
    return d;
}

static void join(webs *W, int a, int b)
{
    a = find(W, a);
    b = find(W, b);
    if (a != b) /* the earlier definition stays the root */
        W->parent[a > b ? a : b] = a < b ? a : b;
}

/* ---- collecting names and definitions ----------------------------------- */

static int name_index(const webs *W, const char *id)
{
    for (int i = 0; i < W->nnames; i++)
        if (strcmp(W->names[i], id) == 0)
            return i;
    return -1;
}

/* Makes room for one more element in an arena array of n elements whose
 * capacity is *cap. */
static int grow(webs *W, void **arr, int n, int *cap, size_t size)
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

static void add_name(webs *W, const char *id)
{
    if (name_index(W, id) >= 0)
        return;
    if (grow(W, (void **)&W->names, W->nnames, &W->capnames,
             sizeof *W->names) == 0)
        W->names[W->nnames++] = id;
}

static void add_def(webs *W, const uf__expr *node, const char *id)
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

static void collect_target(webs *W, const uf__expr *t)
{
    if (t->kind == UF__EX_NAME)
        add_def(W, t, t->u.name.id);
    else if (t->kind == UF__EX_TUPLE || t->kind == UF__EX_LIST)
        for (int i = 0; i < t->u.seq.n; i++)
            collect_target(W, t->u.seq.elts[i]);
}

static void collect_block(webs *W, const uf__block *b)
{
    for (int i = 0; i < b->n; i++) {
        const uf__stmt *s = b->stmts[i];
        switch (s->kind) {
        case UF__ST_ASSIGN:
            for (int k = 0; k < s->u.assign.ntargets; k++)
                collect_target(W, s->u.assign.targets[k]);
            break;
        case UF__ST_AUGASSIGN:
            collect_target(W, s->u.augassign.target);
            break;
        case UF__ST_IF:
            collect_block(W, &s->u.if_.body);
            collect_block(W, &s->u.if_.orelse);
            break;
        case UF__ST_FOR:
            collect_target(W, s->u.for_.target);
            collect_block(W, &s->u.for_.body);
            collect_block(W, &s->u.for_.orelse);
            break;
        case UF__ST_WHILE:
            collect_block(W, &s->u.while_.body);
            collect_block(W, &s->u.while_.orelse);
            break;
        default:
            break;
        }
    }
}

/* ---- reaching definitions ------------------------------------------------ */

/* A read of `id` where the definitions `st` reach: they are one web. */
static void use_name(webs *W, const uf__expr *e, const word *st)
{
    int n = name_index(W, e->u.name.id);
    if (n < 0)
        return; /* a global, a module, a builtin */
    const word *m = W->masks + (size_t)n * (size_t)W->nwords;
    int first = W->use_rep[e->id];
    for (int d = 0; d < W->ndefs; d++) {
        if (!has(m, d) || !has(st, d))
            continue;
        if (first < 0)
            first = W->use_rep[e->id] = d;
        else
            join(W, first, d);
    }
}

/* Calls fn on every Name node of e (reads; and targets when e is one). */
typedef void (*name_fn)(webs *W, const uf__expr *e, const word *st);

static void visit_names(webs *W, const uf__expr *e, name_fn fn,
                        const word *st)
{
    if (e == NULL)
        return;
    switch (e->kind) {
    case UF__EX_NAME:
        fn(W, e, st);
        break;
    case UF__EX_ATTR:
        visit_names(W, e->u.attr.value, fn, st);
        break;
    case UF__EX_CALL:
        visit_names(W, e->u.call.func, fn, st);
        for (int i = 0; i < e->u.call.nargs; i++)
            visit_names(W, e->u.call.args[i], fn, st);
        for (int i = 0; i < e->u.call.nkw; i++)
            visit_names(W, e->u.call.kw[i].value, fn, st);
        break;
    case UF__EX_SUBSCRIPT:
        visit_names(W, e->u.subscript.value, fn, st);
        for (int i = 0; i < e->u.subscript.nindex; i++)
            visit_names(W, e->u.subscript.index[i], fn, st);
        break;
    case UF__EX_SLICE:
        visit_names(W, e->u.slice.lower, fn, st);
        visit_names(W, e->u.slice.upper, fn, st);
        visit_names(W, e->u.slice.step, fn, st);
        break;
    case UF__EX_UNARY:
        visit_names(W, e->u.unary.operand, fn, st);
        break;
    case UF__EX_BINARY:
        visit_names(W, e->u.binary.left, fn, st);
        visit_names(W, e->u.binary.right, fn, st);
        break;
    case UF__EX_BOOLOP:
        for (int i = 0; i < e->u.boolop.n; i++)
            visit_names(W, e->u.boolop.values[i], fn, st);
        break;
    case UF__EX_COMPARE:
        for (int i = 0; i <= e->u.compare.nops; i++)
            visit_names(W, e->u.compare.operands[i], fn, st);
        break;
    case UF__EX_IFEXP:
        visit_names(W, e->u.ifexp.cond, fn, st);
        visit_names(W, e->u.ifexp.then, fn, st);
        visit_names(W, e->u.ifexp.orelse, fn, st);
        break;
    case UF__EX_TUPLE:
    case UF__EX_LIST:
        for (int i = 0; i < e->u.seq.n; i++)
            visit_names(W, e->u.seq.elts[i], fn, st);
        break;
    default:
        break;
    }
}

static void use_expr(webs *W, const uf__expr *e, const word *st)
{
    visit_names(W, e, use_name, st);
}

/* An assignment to the Name node e: it replaces the name's definitions. */
static void define(webs *W, const uf__expr *e, word *st)
{
    int d = W->node_def[e->id];
    if (d < 0)
        return;
    const word *m = W->masks + (size_t)W->def_name[d] * (size_t)W->nwords;
    for (int i = 0; i < W->nwords; i++)
        st[i] &= ~m[i];
    st[d / 64] |= (word)1 << (d % 64);
}

static void assign_target(webs *W, const uf__expr *t, word *st)
{
    if (t->kind == UF__EX_NAME)
        define(W, t, st);
    else if (t->kind == UF__EX_TUPLE || t->kind == UF__EX_LIST)
        for (int i = 0; i < t->u.seq.n; i++)
            assign_target(W, t->u.seq.elts[i], st);
    else /* a[i] = v, o.x = v: reads of a, i, o */
        use_expr(W, t, st);
}

static bool walk_block(webs *W, const uf__block *b, word *st);

/* A loop: the state at its head is the entry's joined with the body's end
 * and its continues, to a fixed point (reads inside are recorded on every
 * round; sets only grow). `target` is the for loop's, NULL for while. */
static bool walk_loop(webs *W, const uf__expr *cond, const uf__expr *target,
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

static bool walk_stmt(webs *W, const uf__stmt *s, word *st)
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
        if (t->kind == UF__EX_NAME) {
            /* one node reads and writes: the new definition joins the web
             * of what it reads */
            int d = W->node_def[t->id], r = W->use_rep[t->id];
            if (d >= 0 && r >= 0)
                join(W, d, r);
            define(W, t, st);
        }
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
static bool walk_block(webs *W, const uf__block *b, word *st)
{
    bool reached = true;
    for (int i = 0; i < b->n && !W->failed; i++)
        if (!walk_stmt(W, b->stmts[i], st))
            reached = false;
    return reached && !W->failed;
}

/* ---- renaming ------------------------------------------------------------ */

static void rename_name(webs *W, const uf__expr *e, const word *st)
{
    (void)st;
    int d = W->node_def[e->id] >= 0 ? W->node_def[e->id] : W->use_rep[e->id];
    const char *nm = d >= 0 ? W->webname[find(W, d)] : NULL;
    if (nm != NULL)
        ((uf__expr *)e)->u.name.id = nm;
}

static void rename_expr(webs *W, const uf__expr *e)
{
    visit_names(W, e, rename_name, NULL);
}

static void rename_block(webs *W, const uf__block *b)
{
    for (int i = 0; i < b->n; i++) {
        const uf__stmt *s = b->stmts[i];
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
            rename_expr(W, s->u.augassign.target);
            rename_expr(W, s->u.augassign.value);
            break;
        case UF__ST_IF:
            rename_expr(W, s->u.if_.cond);
            rename_block(W, &s->u.if_.body);
            rename_block(W, &s->u.if_.orelse);
            break;
        case UF__ST_FOR:
            rename_expr(W, s->u.for_.target);
            rename_expr(W, s->u.for_.iter);
            rename_block(W, &s->u.for_.body);
            rename_block(W, &s->u.for_.orelse);
            break;
        case UF__ST_WHILE:
            rename_expr(W, s->u.while_.cond);
            rename_block(W, &s->u.while_.body);
            rename_block(W, &s->u.while_.orelse);
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
    }
}

/* Names of the webs (indexed by root definition): the web holding the
 * parameter, or else the earliest definition, keeps the name; the others
 * become "x.1", "x.2", ... in source order. */
static const char **web_names(webs *W)
{
    const char **webname = uf__arena_alloc(W->arena, (size_t)W->ndefs + 1,
                                           sizeof *webname, W->err);
    int *count = uf__arena_alloc(W->arena, (size_t)W->nnames + 1,
                                 sizeof *count, W->err);
    if (webname == NULL || count == NULL) {
        W->failed = true;
        return NULL;
    }
    for (int d = 0; d < W->ndefs; d++) {
        int r = find(W, d);
        if (r != d)
            continue; /* roots are their web's earliest definition */
        int n = W->def_name[d];
        if (count[n]++ == 0)
            continue; /* NULL: keeps the source name */
        char buf[160];
        snprintf(buf, sizeof buf, "%s.%d", W->names[n], count[n] - 1);
        if (!(webname[d] = uf__arena_strndup(W->arena, buf, strlen(buf),
                                             W->err))) {
            W->failed = true;
            return NULL;
        }
    }
    return webname;
}

static int rename_function(const uf__ast_module *m, const uf__stmt *fn,
                           uf__arena *arena, uf_error *err)
{
    webs W = {.arena = arena, .err = err};
    for (int i = 0; i < fn->u.funcdef.nparams; i++)
        add_def(&W, NULL, fn->u.funcdef.params[i].name);
    collect_block(&W, &fn->u.funcdef.body);
    if (W.failed)
        return err->code;
    if (W.ndefs == 0)
        return 0;
    W.nwords = (W.ndefs + 63) / 64;
    /* per expression id: the module's ids, so temporary (the rest lives
     * in the module's arena, sized by this function) */
    size_t nx = (size_t)m->nexprs + 1;
    W.node_def = uf__malloc(nx, sizeof *W.node_def, err);
    W.use_rep = uf__malloc(nx, sizeof *W.use_rep, err);
    W.parent = uf__arena_alloc(arena, (size_t)W.ndefs, sizeof *W.parent, err);
    W.masks = uf__arena_alloc(arena, (size_t)W.nnames * (size_t)W.nwords,
                              sizeof *W.masks, err);
    word *st = set_new(&W);
    int rc = err->code ? err->code : UF_ERR_NOMEM;
    if (W.node_def && W.use_rep && W.parent && W.masks && st) {
        for (size_t i = 0; i < nx; i++)
            W.node_def[i] = W.use_rep[i] = -1;
        for (int d = 0; d < W.ndefs; d++) {
            W.parent[d] = d;
            if (W.def_node[d])
                W.node_def[W.def_node[d]->id] = d;
            else /* parameters are defined on entry */
                st[d / 64] |= (word)1 << (d % 64);
            W.masks[(size_t)W.def_name[d] * (size_t)W.nwords +
                    (size_t)d / 64] |= (word)1 << (d % 64);
        }
        walk_block(&W, &fn->u.funcdef.body, st);
        W.webname = W.failed ? NULL : web_names(&W);
        if (W.webname != NULL) {
            rename_block(&W, &fn->u.funcdef.body);
            rc = 0;
        }
    }
    uf__free(W.node_def);
    uf__free(W.use_rep);
    return rc;
}

int uf__rename_webs(uf__ast_module *m, uf__arena *arena, uf_error *err)
{
    for (int i = 0; i < m->body.n; i++) {
        const uf__stmt *s = m->body.stmts[i];
        if (s->kind == UF__ST_FUNCDEF &&
            rename_function(m, s, arena, err) != 0)
            return err->code ? err->code : UF_ERR_NOMEM;
    }
    return 0;
}
