/* Reads before assignment: the definite-assignment scan that type inference
 * runs once per specialisation, before typing. */
#include <string.h>

#include "common/alloc.h"
#include "compiler/front/ast_visit.h"
#include "compiler/types/infer_internal.h"

/* Python raises UnboundLocalError when a local is read before any
 * assignment reached it. Like Numba's bytecode analysis ("Variable 'z' is
 * not defined"), a read is accepted when an assignment may reach it along
 * a path that does not go round a loop: the value of a previous iteration
 * does not count. `d` holds one byte per variable. */
typedef struct defscan {
    uf__ictx *C;
} defscan;

static int def_block(defscan *S, const uf__block *b, unsigned char *d);

typedef struct def_reads {
    defscan *S;
    unsigned char *d;
} def_reads;

/* The reads of an expression (recursing through uf__ast_children itself,
 * one stack frame a level). */
static int def_read(const uf__expr *e, void *ud)
{
    const def_reads *r = ud;
    const uf__typed_func *tf = r->S->C->tf;
    switch (e->kind) {
    case UF__EX_NAME: {
        int v = uf__typed_var(tf, e->u.name.id);
        if (v >= 0 && !r->d[v])
            return uf__ierr(r->S->C, UF_ERR_TYPING, e->pos, "local variable "
                            "'%.*s' is referenced before assignment",
                            (int)strcspn(e->u.name.id, "."), e->u.name.id);
        return 0;
    }
    case UF__EX_BOOLOP: {
        /* operands after one that decides the outcome are dead */
        signed char stop = e->u.boolop.is_and ? -1 : 1;
        for (int i = 0; i < e->u.boolop.n; i++) {
            const uf__expr *x = e->u.boolop.values[i];
            if (def_read(x, ud) < 0)
                return -1;
            if (uf__tf_info(tf, x)->truth == stop)
                break;
        }
        return 0;
    }
    case UF__EX_IFEXP: {
        const uf__expr *c = e->u.ifexp.cond;
        signed char t = uf__tf_info(tf, c)->truth;
        if ((t == 0 || uf__cond_runs(c)) && def_read(c, ud) < 0)
            return -1;
        if (t >= 0 && def_read(e->u.ifexp.then, ud) < 0)
            return -1;
        return t <= 0 ? def_read(e->u.ifexp.orelse, ud) : 0;
    }
    default:
        return uf__ast_children(e, def_read, ud);
    }
}

static int def_expr(defscan *S, const uf__expr *e, unsigned char *d)
{
    def_reads r = {S, d};
    return e != NULL ? def_read(e, &r) : 0;
}

static int def_store(defscan *S, const uf__expr *t, unsigned char *d)
{
    if (t->kind == UF__EX_NAME) {
        int v = uf__typed_var(S->C->tf, t->u.name.id);
        if (v >= 0)
            d[v] = 1;
        return 0;
    }
    if (t->kind == UF__EX_TUPLE || t->kind == UF__EX_LIST) {
        for (int i = 0; i < t->u.seq.n; i++)
            if (def_store(S, t->u.seq.elts[i], d) < 0)
                return -1;
        return 0;
    }
    return def_expr(S, t, d); /* a[i] = v reads a and i */
}

static unsigned char *def_copy(defscan *S, const unsigned char *d)
{
    int n = S->C->tf->nvars;
    unsigned char *c = uf__arena_alloc(S->C->km->arena, (size_t)n + 1, 1,
                                       S->C->err);
    if (c != NULL && n > 0)
        memcpy(c, d, (size_t)n);
    return c;
}

static void def_union(defscan *S, unsigned char *d, const unsigned char *o)
{
    for (int i = 0; i < S->C->tf->nvars; i++)
        d[i] |= o[i];
}

/* A loop: its body and condition see what was assigned before it; after
 * it, whatever the body may have assigned too. */
static int def_loop(defscan *S, const uf__expr *cond, const uf__expr *target,
                    const uf__block *body, const uf__block *orelse,
                    unsigned char *d)
{
    unsigned char *in = def_copy(S, d);
    if (in == NULL)
        return -1;
    if (target != NULL)
        def_store(S, target, in);
    if (def_block(S, body, in) < 0)
        return -1;
    def_union(S, d, in);
    return orelse != NULL ? def_block(S, orelse, d) : 0;
}

/* A while loop with its pruned tests: the body is dead when the test on
 * entry is always false, the else block when the loop never ends so. */
static int def_while(defscan *S, const uf__stmt *s, unsigned char *d)
{
    const uf__typed_func *tf = S->C->tf;
    const uf__expr *c = s->u.while_.cond;
    signed char top = uf__tf_info(tf, c)->truth;
    signed char end = uf__tf_info(tf, c)->truth_end;
    bool live = top >= 0;
    bool end_runs = live && end == 0 &&
                    uf__block_falls_through(tf, &s->u.while_.body);
    if ((top == 0 || end_runs || uf__cond_runs(c)) && def_expr(S, c, d) < 0)
        return -1;
    if (live && def_loop(S, NULL, NULL, &s->u.while_.body, NULL, d) < 0)
        return -1;
    if (uf__while_else_live(tf, s))
        return def_block(S, &s->u.while_.orelse, d);
    return 0;
}

static int def_stmt(defscan *S, const uf__stmt *s, unsigned char *d)
{
    switch (s->kind) {
    case UF__ST_EXPR:
        return def_expr(S, s->u.expr.value, d);
    case UF__ST_ASSIGN:
        /* a join's feed reads the value where it stands, which may come
         * round the loop only (the join is assigned, not read, here) */
        if (!s->join_feed && def_expr(S, s->u.assign.value, d) < 0)
            return -1;
        for (int i = 0; i < s->u.assign.ntargets; i++)
            if (def_store(S, s->u.assign.targets[i], d) < 0)
                return -1;
        return 0;
    case UF__ST_AUGASSIGN:
        if (def_expr(S, s->u.augassign.target, d) < 0 ||
            def_expr(S, s->u.augassign.value, d) < 0)
            return -1;
        return def_store(S, s->u.augassign.target, d);
    case UF__ST_IF: {
        const uf__expr *c = s->u.if_.cond;
        signed char t = c ? uf__tf_info(S->C->tf, c)->truth : 0; /* try */
        if (c && (t == 0 || uf__cond_runs(c)) && def_expr(S, c, d) < 0)
            return -1;
        if (t != 0)
            return def_block(S, t > 0 ? &s->u.if_.body : &s->u.if_.orelse,
                             d);
        unsigned char *other = def_copy(S, d);
        if (other == NULL || def_block(S, &s->u.if_.body, d) < 0 ||
            def_block(S, &s->u.if_.orelse, other) < 0)
            return -1;
        def_union(S, d, other);
        return 0;
    }
    case UF__ST_FOR:
        if (def_expr(S, s->u.for_.iter, d) < 0)
            return -1;
        return def_loop(S, NULL, s->u.for_.target, &s->u.for_.body,
                        &s->u.for_.orelse, d);
    case UF__ST_WHILE:
        return def_while(S, s, d);
    case UF__ST_RETURN:
        return def_expr(S, s->u.ret.value, d);
    case UF__ST_ASSERT:
        return def_expr(S, s->u.assert_.test, d);
    case UF__ST_RAISE:
        for (int i = 0; i < s->u.raise.nargs; i++)
            if (def_expr(S, s->u.raise.args[i], d) < 0)
                return -1;
        return 0;
    default:
        return 0;
    }
}

static int def_block(defscan *S, const uf__block *b, unsigned char *d)
{
    for (int i = 0; i < b->n; i++) {
        if (def_stmt(S, b->stmts[i], d) < 0)
            return -1;
        if (!uf__stmt_falls_through(S->C->tf, b->stmts[i]))
            break; /* the rest is dead code */
    }
    return 0;
}

/* Arguments are assigned on entry. */
int uf__infer_check_reads(uf__ictx *C)
{
    defscan S = {C};
    unsigned char *d = uf__arena_alloc(C->km->arena,
                                       (size_t)C->tf->nvars + 1, 1, C->err);
    if (d == NULL)
        return -1;
    for (int i = 0; i < C->tf->nvars; i++)
        d[i] = C->tf->vars[i].arg >= 0;
    return def_block(&S, &C->tf->decl->def->u.funcdef.body, d);
}
