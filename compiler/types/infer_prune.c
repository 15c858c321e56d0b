/* Branch pruning before typing, as Numba's dead_branch_prune
 * (numba/core/analysis.py): a branch whose condition is a compile-time
 * constant goes one way only, and the other way is neither typed nor
 * lowered, so `if DEBUG: return (x, x)` with DEBUG = False compiles.
 *
 * Numba looks at each branch of its IR, i.e. every test of an if, elif,
 * while (twice in Python 3.11: on entry and at the end of the body),
 * conditional expression and and/or operand, and prunes it when
 *  - the test is `bool(c)` with c a constant: a literal (CPython folds
 *    -1, 2 * 3, not True), a module constant, or a local whose definition
 *    is one of these (`flag = False`);
 *  - the test is a binary operation (comparison or arithmetic) whose two
 *    operands are such constants (`K > 3`, `K - 5`, `n is None` for a
 *    local n = None), also through a local (`c = K > 3; if c:`);
 *  - `a.ndim` of an array argument never reassigned is a constant;
 *  - `isinstance(x, T)` is a constant where x is a literal, a module
 *    constant or an argument never reassigned; where x is a local, in a
 *    last round after the others (below).
 * An argument is never a constant (it would be only when passed None),
 * `-K`, `bool(K)`, `math.pi` and `not K` stored in a variable are not.
 * Tests inside `not`, `and`, `or` of a condition are separate branches
 * (CPython compiles them as jumps), so `if x > 0 and DEBUG:` is dead.
 *
 * A local's definition counts when it is the only one reaching the test.
 * Numba decides this in rounds, each on the code the previous one left:
 * CPython drops literal tests and code after return; a first pruning
 * (before SSA) takes variables assigned exactly once; a last one (after
 * SSA) takes the definition reaching the test unless control-flow joins
 * it with another (a phi). The rounds are replayed here in that order,
 * each deciding only what the previous left open: decisions of a round
 * do not feed the next tests of the same round, as in Numba.
 *
 * isinstance on a local: Numba types the function partially (its
 * PartialTypeInference, failing statements skipped), replaces each
 * isinstance whose argument has one definition (not a phi) by the
 * constant its type gives (PropagateLiterals) and prunes once more. So
 * when a live isinstance reads a local, the body is typed the same way
 * (infer.c: uf__infer_partial) and one more SSA round takes the local's
 * type, unless the local is a join (typing refuses isinstance there, as
 * Numba does: infer_arrview.c).
 *
 * Decisions go to the typed function's info[].truth / truth_end (infer.h);
 * the typing (infer.c, infer_expr.c) and the lowering read them. */
#include <string.h>

#include "common/alloc.h"
#include "common/error_internal.h"
#include "compiler/front/ast_visit.h"
#include "compiler/front/consteval.h"
#include "compiler/types/infer_internal.h"

enum { RULE_LITERAL, RULE_SINGLE, RULE_SSA };
enum { VS_UNDEF, VS_DEF, VS_PHI };

/* A constant: a number, None or a string (Numba's Literal[str], its
 * interned type: equal strings are one pointer). */
typedef struct pval {
    bool none;
    const uf__type *str;
    uf__cval v;
} pval;

/* What the definition of a variable reaching a point holds. */
typedef struct vrec {
    unsigned char kind; /* VS_* */
    const void *id;     /* the assignment, for joins */
    bool has_val;
    pval val;
    signed char pred; /* a branch on its value: 1, -1 or 0 */
} vrec;

/* A variable's state before a change, to restore when a branch is walked
 * again from the point before it (copying every variable's state at each
 * branch cost as many copies as a chain of ifs has versions). */
typedef struct undo {
    int v;
    vrec old;
} undo;

typedef struct pr {
    uf__ictx *C;
    const uf__typed_func *tf;
    int rule;
    int nvars, nexprs;
    /* per expression id and site (0: the branch, 1: a while condition at
     * the end of the body): decisions of earlier rounds, and new ones */
    signed char *prev[2], *cur[2];
    unsigned char *seen_end; /* site 1 evaluated */
    int *ndefs;              /* definitions in live code (arguments: 1) */
    const uf__expr **plain;  /* the value of a `v = value` definition */
    vrec *st;                /* the state at the current point */
    undo *log;               /* the changes to st, newest last */
    int nlog, caplog;
    undo *then;              /* states at the end of if bodies walked */
    int nthen, capthen;
    int *seen;               /* per variable: a mark, of gen */
    int gen;
    int depth;               /* definitions followed */
    bool oom;
    uf_error scratch;
    /* per variable: its type in the partial typing, for the last round;
     * NULL before */
    const uf__type **ltype;
    bool want_types; /* an isinstance of a local was left open */
} pr;

/* ---- constants ------------------------------------------------------- */

static int var_of(const pr *P, const char *name)
{
    int i = uf__typed_var(P->tf, name);
    return i < P->nvars ? i : -1;
}

/* What CPython folds before Numba sees it: literals and unary/binary
 * operators on them. */
static bool literal_only(const uf__expr *e)
{
    switch (e->kind) {
    case UF__EX_INT:
    case UF__EX_FLOAT:
    case UF__EX_IMAG:
    case UF__EX_BOOL:
    case UF__EX_NONE:
        return true;
    case UF__EX_UNARY:
        return literal_only(e->u.unary.operand);
    case UF__EX_BINARY:
        return literal_only(e->u.binary.left) &&
               literal_only(e->u.binary.right);
    default:
        return false;
    }
}

/* A Python bool/int/float/complex (weak under NEP 50), not a NumPy
 * scalar: module constants of these types come from Python numbers. */
static bool python_dtype(uf_dtype d)
{
    return d == UF_BOOL || d == UF_INT64 || d == UF_FLOAT64 ||
           d == UF_COMPLEX128;
}

static bool reaching(pr *P, int v, vrec *r);
static signed char pred(pr *P, const uf__expr *e);

/* The type of x where it is known before typing: a literal, a module
 * constant, an argument never reassigned, a local that is no join in the
 * last round; else NULL. */
static const uf__type *known_type(pr *P, const uf__expr *x)
{
    uf__typectx *tc = P->C->tc;
    switch (x->kind) {
    case UF__EX_INT:
        return uf__type_scalar(tc, UF_INT64);
    case UF__EX_FLOAT:
        return uf__type_scalar(tc, UF_FLOAT64);
    case UF__EX_IMAG:
        return uf__type_scalar(tc, UF_COMPLEX128);
    case UF__EX_BOOL:
        return uf__type_scalar(tc, UF_BOOL);
    case UF__EX_NONE:
        return uf__type_none(tc);
    case UF__EX_NAME: {
        int v = var_of(P, x->u.name.id);
        if (v >= 0 && P->tf->vars[v].arg < 0) {
            if (P->ltype == NULL)
                P->want_types = true;
            return P->ltype != NULL && !P->tf->vars[v].join ? P->ltype[v]
                                                            : NULL;
        }
        if (v >= 0)
            return P->ndefs[v] == 1 ? P->tf->vars[v].type : NULL;
        const uf__global *g = uf__kmodule_global(P->C->km, x->u.name.id);
        return g != NULL && g->kind == UF__G_CONSTANT ? g->constant.type
                                                      : NULL;
    }
    default:
        return NULL;
    }
}

/* isinstance(x, classinfo) with x's type known (Numba's literal
 * propagation of the call, infer_arrview.c): a constant bool. What Numba
 * refuses is left to typing, which reports it. */
static bool isinstance_atom(pr *P, const uf__expr *e, pval *out)
{
    const uf__expr *f = e->u.call.func;
    if (f->kind != UF__EX_NAME || strcmp(f->u.name.id, "isinstance") != 0 ||
        var_of(P, "isinstance") >= 0 ||
        uf__kmodule_global(P->C->km, "isinstance") != NULL ||
        e->u.call.nargs != 2 || e->u.call.nkw != 0)
        return false;
    const uf__type *xt = known_type(P, e->u.call.args[0]);
    if (xt == NULL)
        return false;
    uf_error *err = P->C->err;
    P->C->err = &P->scratch;
    int r = uf__isinstance_value(P->C, e, xt);
    P->C->err = err;
    if (r < 0) {
        uf_error_clear(&P->scratch);
        return false;
    }
    out->v.c.type = uf__type_scalar(P->C->tc, UF_BOOL);
    out->v.c.v.b = r == 1;
    out->v.weak = true;
    return true;
}

/* Numba's find_const: the value of `e` when it is a constant. */
static bool atom(pr *P, const uf__expr *e, pval *out)
{
    memset(out, 0, sizeof *out);
    if (e->kind == UF__EX_STR) {
        out->str = uf__type_strlit(P->C->tc, e->u.str.s, e->u.str.len,
                                   NULL);
        return out->str != NULL;
    }
    if (literal_only(e)) {
        if (e->kind == UF__EX_NONE) {
            out->none = true;
            return true;
        }
        uf__const_env env = {P->C->km, NULL};
        if (uf__consteval(&env, e, &out->v, &P->scratch) == 0)
            return true;
        uf_error_clear(&P->scratch); /* 1/0: Numba leaves it to run time */
        return false;
    }
    if (P->rule == RULE_LITERAL)
        return false;
    if (e->kind == UF__EX_NAME) {
        int v = var_of(P, e->u.name.id);
        const uf__type *t = v >= 0 ? P->tf->vars[v].type : NULL;
        if (v >= 0 && P->tf->vars[v].arg >= 0 && P->ndefs[v] == 1 &&
            t != NULL && t->kind == UF__T_STR) {
            out->str = t; /* an argument specialised per value */
            return true;
        }
        if (v >= 0) {
            vrec r;
            if (!reaching(P, v, &r) || !r.has_val)
                return false;
            *out = r.val;
            return true;
        }
        const uf__global *g = uf__kmodule_global(P->C->km, e->u.name.id);
        if (g == NULL || g->kind != UF__G_CONSTANT)
            return false;
        if (g->constant.type->kind == UF__T_STR) {
            out->str = g->constant.type;
            return true;
        }
        out->v.c = g->constant;
        out->v.weak = python_dtype(g->constant.type->dtype);
        return true;
    }
    if (e->kind == UF__EX_CALL)
        return isinstance_atom(P, e, out);
    /* Numba's rewrite_semantic_constants: a.ndim of an array argument */
    if (e->kind == UF__EX_ATTR && strcmp(e->u.attr.attr, "ndim") == 0 &&
        e->u.attr.value->kind == UF__EX_NAME) {
        int v = var_of(P, e->u.attr.value->u.name.id);
        if (v < 0 || P->tf->vars[v].arg < 0 || P->ndefs[v] != 1)
            return false;
        const uf__type *t = P->tf->vars[v].type;
        if (t == NULL || t->kind != UF__T_ARRAY)
            return false;
        out->v.c.type = uf__type_scalar(P->C->tc, UF_INT64);
        out->v.c.v.i = t->ndim;
        out->v.weak = true;
        return true;
    }
    return false;
}

static signed char truth_of(const pval *v)
{
    if (v->none)
        return -1;
    if (v->str)
        return v->str->n > 0 ? 1 : -1;
    return uf__consteval_truth(&v->v) ? 1 : -1;
}

/* A branch on `l op r` (Numba's prune_by_value): both constants. */
static signed char binop_cmp(pr *P, const uf__expr *at, uf__cmpop op,
                             const uf__expr *l, const uf__expr *r)
{
    pval a, b;
    if (!atom(P, l, &a) || !atom(P, r, &b))
        return 0;
    if (a.none || b.none) {
        bool same = a.none && b.none;
        switch (op) {
        case UF__CMP_EQ:
        case UF__CMP_IS:
            return same ? 1 : -1;
        case UF__CMP_NE:
        case UF__CMP_ISNOT:
            return same ? -1 : 1;
        default:
            return 0; /* TypeError in Python: not pruned */
        }
    }
    if (op == UF__CMP_IS || op == UF__CMP_ISNOT || op == UF__CMP_IN ||
        op == UF__CMP_NOTIN)
        return 0; /* identity of numbers: not decided here */
    if (a.str || b.str) { /* equal strings are one interned type */
        if (!a.str || !b.str || (op != UF__CMP_EQ && op != UF__CMP_NE))
            return 0; /* left to typing (infer_str.c) */
        return (a.str == b.str) == (op == UF__CMP_EQ) ? 1 : -1;
    }
    uf__const_env env = {P->C->km, NULL};
    bool res;
    if (uf__consteval_compare(&env, at, op, &a.v, &b.v, &res,
                              &P->scratch) < 0) {
        uf_error_clear(&P->scratch);
        return 0;
    }
    return res ? 1 : -1;
}

static uf__cmpop invert_identity(uf__cmpop op)
{
    switch (op) {
    case UF__CMP_IS: return UF__CMP_ISNOT;
    case UF__CMP_ISNOT: return UF__CMP_IS;
    case UF__CMP_IN: return UF__CMP_NOTIN;
    default: return UF__CMP_IN;
    }
}

/* A branch on bool(e) where e is a value: Numba looks through e's
 * definition for a binary operation or a constant. */
static signed char pred(pr *P, const uf__expr *e)
{
    if (e->kind == UF__EX_COMPARE && e->u.compare.nops == 1)
        return binop_cmp(P, e, e->u.compare.ops[0],
                         e->u.compare.operands[0], e->u.compare.operands[1]);
    /* CPython folds `not a is b` into `a is not b` (also in, not in) */
    if (e->kind == UF__EX_UNARY && e->u.unary.op == UF__OP_NOT) {
        const uf__expr *c = e->u.unary.operand;
        if (c->kind == UF__EX_COMPARE && c->u.compare.nops == 1) {
            uf__cmpop op = c->u.compare.ops[0];
            if (op == UF__CMP_IS || op == UF__CMP_ISNOT ||
                op == UF__CMP_IN || op == UF__CMP_NOTIN)
                return binop_cmp(P, c, invert_identity(op),
                                 c->u.compare.operands[0],
                                 c->u.compare.operands[1]);
        }
    }
    if (e->kind == UF__EX_BINARY && !literal_only(e)) {
        pval a, b;
        uf__cval r;
        if (!atom(P, e->u.binary.left, &a) ||
            !atom(P, e->u.binary.right, &b) || a.none || b.none || a.str ||
            b.str)
            return 0;
        uf__const_env env = {P->C->km, NULL};
        if (uf__consteval_binop(&env, e, e->u.binary.op, &a.v, &b.v, &r,
                                &P->scratch) < 0) {
            uf_error_clear(&P->scratch);
            return 0;
        }
        return uf__consteval_truth(&r) ? 1 : -1;
    }
    if (e->kind == UF__EX_NAME && P->rule != RULE_LITERAL) {
        int v = var_of(P, e->u.name.id);
        vrec r;
        if (v >= 0)
            return reaching(P, v, &r) ? r.pred : 0;
    }
    pval v;
    return atom(P, e, &v) ? truth_of(&v) : 0;
}

/* The record of `v = value` evaluated where it stands. */
static vrec record_of(pr *P, const void *id, const uf__expr *value)
{
    vrec r;
    memset(&r, 0, sizeof r);
    r.kind = VS_DEF;
    r.id = id;
    if (value != NULL && P->depth < 16) {
        P->depth++;
        r.has_val = atom(P, value, &r.val);
        r.pred = pred(P, value);
        P->depth--;
    }
    return r;
}

/* The definition of local v reaching the test, when there is only one:
 * before SSA, the only definition in the function; after, the one the
 * state holds (a variable with one definition is never renamed). */
static bool reaching(pr *P, int v, vrec *r)
{
    if (P->tf->vars[v].arg >= 0 || P->rule == RULE_LITERAL)
        return false; /* an argument is a constant only when None */
    if (P->rule == RULE_SSA && P->st[v].kind == VS_DEF) {
        *r = P->st[v];
        return true;
    }
    if (P->ndefs[v] != 1 || (P->rule == RULE_SSA && P->st[v].kind == VS_PHI))
        return false;
    /* read where its only definition does not reach (Python would raise
     * UnboundLocalError): Numba's first round still takes it */
    int rule = P->rule;
    P->rule = RULE_SINGLE;
    *r = record_of(P, P->plain[v], P->plain[v]);
    P->rule = rule;
    return true;
}

/* ---- decisions -------------------------------------------------------- */

/* The decision of the branch on `e` at `site`: an earlier round's, else
 * `s`, recorded as this round's. */
static signed char settle(pr *P, int site, const uf__expr *e, signed char s)
{
    int k = uf__tf_index(P->tf, e);
    if (site == 1)
        P->seen_end[k] = 1;
    if (P->prev[site][k] != 0)
        return P->prev[site][k];
    if (P->cur[site][k] == 0)
        P->cur[site][k] = s;
    return s;
}

typedef struct site_walk {
    pr *P;
    int site;
} site_walk;

static signed char cond(pr *P, const uf__expr *e, int site);

/* An expression as a value: its conditional expressions and and/or
 * operands are branches too. Recursing through uf__ast_children itself,
 * one stack frame a level. */
static int visit_value(const uf__expr *e, void *ud)
{
    const site_walk *w = ud;
    pr *P = w->P;
    int site = w->site;
    if (e->kind == UF__EX_IFEXP) {
        const uf__expr *c = e->u.ifexp.cond;
        signed char t = settle(P, site, c, cond(P, c, site));
        if (t >= 0)
            visit_value(e->u.ifexp.then, ud);
        if (t <= 0)
            visit_value(e->u.ifexp.orelse, ud);
        return 0;
    }
    if (e->kind == UF__EX_BOOLOP) {
        signed char stop = e->u.boolop.is_and ? -1 : 1;
        for (int i = 0; i < e->u.boolop.n; i++) {
            const uf__expr *x = e->u.boolop.values[i];
            visit_value(x, ud);
            if (i < e->u.boolop.n - 1 && settle(P, site, x, pred(P, x)) == stop)
                return 0;
        }
        return 0;
    }
    return uf__ast_children(e, visit_value, ud);
}

static void visit(pr *P, const uf__expr *e, int site)
{
    site_walk w = {P, site};
    if (e != NULL)
        visit_value(e, &w);
}

/* The operands of e as values (and/or and conditional expressions are
 * walked by their own rules before this). */
static void visit_children(pr *P, const uf__expr *e, int site)
{
    site_walk w = {P, site};
    uf__ast_children(e, visit_value, &w);
}

/* A condition (if, while, conditional expression): `not`, and/or and
 * chained comparisons are jumps, each test a branch of its own. The
 * result is the way the whole condition goes: 1, -1, or 0 at run time. */
static signed char cond(pr *P, const uf__expr *e, int site)
{
    if (e->kind == UF__EX_UNARY && e->u.unary.op == UF__OP_NOT)
        return (signed char)-cond(P, e->u.unary.operand, site);
    if (e->kind == UF__EX_BOOLOP) {
        signed char stop = e->u.boolop.is_and ? -1 : 1;
        bool open = false;
        for (int i = 0; i < e->u.boolop.n; i++) {
            const uf__expr *x = e->u.boolop.values[i];
            signed char s = settle(P, site, x, cond(P, x, site));
            if (s == stop)
                return stop; /* the rest is dead */
            open |= s == 0;
        }
        return open ? 0 : (signed char)-stop;
    }
    if (e->kind == UF__EX_IFEXP) {
        const uf__expr *c = e->u.ifexp.cond;
        signed char t = settle(P, site, c, cond(P, c, site));
        if (t > 0)
            return cond(P, e->u.ifexp.then, site);
        if (t < 0)
            return cond(P, e->u.ifexp.orelse, site);
        signed char a = cond(P, e->u.ifexp.then, site);
        signed char b = cond(P, e->u.ifexp.orelse, site);
        return a == b ? a : 0;
    }
    visit_children(P, e, site);
    if (e->kind == UF__EX_COMPARE && e->u.compare.nops > 1) {
        bool open = false;
        for (int i = 0; i < e->u.compare.nops; i++) {
            signed char s = binop_cmp(P, e, e->u.compare.ops[i],
                                      e->u.compare.operands[i],
                                      e->u.compare.operands[i + 1]);
            if (s < 0)
                return -1;
            open |= s == 0;
        }
        return open ? 0 : 1;
    }
    return pred(P, e);
}

/* ---- the walk over the statements ------------------------------------ */

static uf__dview prev_view(const pr *P)
{
    uf__dview D = {P->prev[0], P->prev[1], P->tf};
    return D;
}

static void count_target(pr *P, const uf__expr *t, const uf__expr *value)
{
    if (t->kind == UF__EX_NAME) {
        int v = var_of(P, t->u.name.id);
        if (v >= 0) {
            P->ndefs[v]++;
            P->plain[v] = value;
        }
    } else if (t->kind == UF__EX_TUPLE || t->kind == UF__EX_LIST) {
        for (int i = 0; i < t->u.seq.n; i++)
            count_target(P, t->u.seq.elts[i], NULL);
    }
}

/* Definitions in the live code (count) or the variables assigned (mark,
 * when not NULL). */
static void defs_block(pr *P, const uf__block *b, unsigned char *mark);

static void defs_target(pr *P, const uf__expr *t, const uf__expr *value,
                        unsigned char *mark)
{
    if (mark == NULL) {
        count_target(P, t, value);
    } else if (t->kind == UF__EX_NAME) {
        int v = var_of(P, t->u.name.id);
        if (v >= 0)
            mark[v] = 1;
    } else if (t->kind == UF__EX_TUPLE || t->kind == UF__EX_LIST) {
        for (int i = 0; i < t->u.seq.n; i++)
            defs_target(P, t->u.seq.elts[i], NULL, mark);
    }
}

static void defs_stmt(pr *P, const uf__stmt *s, unsigned char *mark)
{
    uf__dview D = prev_view(P);
    switch (s->kind) {
    case UF__ST_ASSIGN:
        for (int i = 0; i < s->u.assign.ntargets; i++)
            defs_target(P, s->u.assign.targets[i], s->u.assign.value, mark);
        break;
    case UF__ST_AUGASSIGN:
        defs_target(P, s->u.augassign.target, NULL, mark);
        break;
    case UF__ST_IF: {
        signed char t = uf__dv_top(&D, s->u.if_.cond);
        if (t >= 0)
            defs_block(P, &s->u.if_.body, mark);
        if (t <= 0)
            defs_block(P, &s->u.if_.orelse, mark);
        break;
    }
    case UF__ST_FOR:
        defs_target(P, s->u.for_.target, NULL, mark);
        defs_block(P, &s->u.for_.body, mark);
        defs_block(P, &s->u.for_.orelse, mark);
        break;
    case UF__ST_WHILE:
        if (uf__dv_top(&D, s->u.while_.cond) >= 0)
            defs_block(P, &s->u.while_.body, mark);
        if (uf__dv_else_live(&D, s))
            defs_block(P, &s->u.while_.orelse, mark);
        break;
    default:
        break;
    }
}

static void defs_block(pr *P, const uf__block *b, unsigned char *mark)
{
    uf__dview D = prev_view(P);
    for (int i = 0; i < b->n; i++) {
        defs_stmt(P, b->stmts[i], mark);
        if (!uf__dv_stmt_falls(&D, b->stmts[i]))
            break;
    }
}

/* Pushes `u` onto the array *a of *n elements (capacity *cap). */
static void push_undo(pr *P, undo **a, int *n, int *cap, const undo *u)
{
    if (*n == *cap) {
        int ncap = *cap ? 2 * *cap : 64;
        undo *fresh = uf__realloc(*a, (size_t)ncap, sizeof *fresh, P->C->err);
        if (fresh == NULL) {
            P->oom = true;
            return;
        }
        *a = fresh;
        *cap = ncap;
    }
    (*a)[(*n)++] = *u;
}

/* Variable v's state becomes r, undoably. */
static void set_state(pr *P, int v, const vrec *r)
{
    undo u = {v, P->st[v]};
    push_undo(P, &P->log, &P->nlog, &P->caplog, &u);
    P->st[v] = *r;
}

/* Back to the state when the log held `mark` changes. */
static void undo_to(pr *P, int mark)
{
    while (P->nlog > mark) {
        P->nlog--;
        P->st[P->log[P->nlog].v] = P->log[P->nlog].old;
    }
}

static void set_phi(pr *P, int v)
{
    vrec r = P->st[v];
    r.kind = VS_PHI;
    r.id = NULL;
    set_state(P, v, &r);
}

/* Control flow meets: variable v, defined differently on the two ways
 * (b the other way's), gets a phi, unless it has one definition (never
 * renamed). */
static void join_var(pr *P, int v, const vrec *b)
{
    const vrec *a = &P->st[v];
    if (a->kind == b->kind && a->id == b->id)
        return;
    if (P->ndefs[v] <= 1 && a->kind != VS_PHI && b->kind != VS_PHI) {
        if (a->kind == VS_UNDEF)
            set_state(P, v, b);
        return;
    }
    set_phi(P, v);
}

/* A loop header: what the body assigns meets what came before. */
static void loop_phis(pr *P, const unsigned char *assigned)
{
    for (int v = 0; v < P->nvars; v++)
        if (assigned[v] && P->ndefs[v] > 1)
            set_phi(P, v);
}

static void define(pr *P, const uf__expr *t, const vrec *r)
{
    if (t->kind == UF__EX_NAME) {
        int v = var_of(P, t->u.name.id);
        if (v >= 0) {
            vrec x = *r;
            x.id = t;
            set_state(P, v, &x);
        }
    } else if (t->kind == UF__EX_TUPLE || t->kind == UF__EX_LIST) {
        for (int i = 0; i < t->u.seq.n; i++) {
            vrec none = record_of(P, t->u.seq.elts[i], NULL);
            define(P, t->u.seq.elts[i], &none);
        }
    } else {
        visit(P, t, 0); /* a[i] = v */
    }
}

static void walk_block(pr *P, const uf__block *b);

static unsigned char *assigned_in(pr *P, const uf__block *b,
                                  const uf__expr *target)
{
    unsigned char *m = uf__arena_alloc(P->C->km->arena, (size_t)P->nvars + 1,
                                       1, P->C->err);
    if (m == NULL) {
        P->oom = true;
        return NULL;
    }
    defs_block(P, b, m);
    if (target != NULL)
        defs_target(P, target, NULL, m);
    return m;
}

/* After a loop's else block, unless no live break skips it: a break
 * brings what the body assigned, so a variable the else block (or a join
 * fed there) assigns again is not that block's alone. */
static void loop_exit(pr *P, const uf__block *body, const unsigned char *L)
{
    uf__dview D = prev_view(P);
    if (uf__dv_has_jump(&D, body, UF__ST_BREAK))
        loop_phis(P, L);
}

static void walk_while(pr *P, const uf__stmt *s)
{
    uf__dview D = prev_view(P);
    const uf__expr *c = s->u.while_.cond;
    const uf__block *body = &s->u.while_.body;
    unsigned char *L = assigned_in(P, body, NULL);
    int entry = P->nlog;
    if (L == NULL)
        return;
    /* the test on entry also runs after `continue` */
    if (uf__dv_top(&D, c) >= 0 && uf__dv_has_jump(&D, body, UF__ST_CONTINUE))
        loop_phis(P, L);
    settle(P, 0, c, cond(P, c, 0));
    undo_to(P, entry);
    loop_phis(P, L);
    if (uf__dv_top(&D, c) >= 0) {
        walk_block(P, body);
        if (uf__dv_block_falls(&D, body))
            settle(P, 1, c, cond(P, c, 1));
        undo_to(P, entry);
        loop_phis(P, L);
    }
    if (uf__dv_else_live(&D, s))
        walk_block(P, &s->u.while_.orelse);
    loop_exit(P, body, L);
}

/* Joins (no constant) for what was assigned since the log held `mark`. */
static void phis_since(pr *P, int mark)
{
    int end = P->nlog, g = ++P->gen;
    for (int i = mark; i < end && !P->oom; i++) {
        int v = P->log[i].v;
        if (P->seen[v] == g)
            continue;
        P->seen[v] = g;
        set_phi(P, v);
    }
}

/* A try (an IF with is_try): the handler may start after any statement
 * of the try block, so what that block assigns is a join there, and what
 * either assigns is one after the statement. */
static void walk_try(pr *P, const uf__stmt *s)
{
    int before = P->nlog;
    walk_block(P, &s->u.if_.body);
    phis_since(P, before);
    walk_block(P, &s->u.if_.orelse);
    phis_since(P, before);
}

static void walk_if(pr *P, const uf__stmt *s)
{
    if (s->u.if_.is_try) {
        walk_try(P, s);
        return;
    }
    uf__dview D = prev_view(P);
    const uf__expr *c = s->u.if_.cond;
    settle(P, 0, c, cond(P, c, 0));
    signed char t = uf__dv_top(&D, c);
    if (t > 0) {
        walk_block(P, &s->u.if_.body);
        return;
    }
    if (t < 0) {
        walk_block(P, &s->u.if_.orelse);
        return;
    }
    int before = P->nlog, base = P->nthen;
    walk_block(P, &s->u.if_.body);
    /* the state at the end of the body: what it changed */
    int g = ++P->gen;
    for (int i = before; i < P->nlog; i++) {
        int v = P->log[i].v;
        if (P->seen[v] == g)
            continue;
        P->seen[v] = g;
        undo u = {v, P->st[v]};
        push_undo(P, &P->then, &P->nthen, &P->capthen, &u);
    }
    undo_to(P, before);
    walk_block(P, &s->u.if_.orelse);
    bool ft = uf__dv_block_falls(&D, &s->u.if_.body);
    bool fe = uf__dv_block_falls(&D, &s->u.if_.orelse);
    /* ft alone: back to the body's state; both: join the two */
    int end = P->nlog;
    g = ++P->gen;
    for (int i = base; ft && i < P->nthen && !P->oom; i++) {
        undo u = P->then[i];
        P->seen[u.v] = g;
        if (fe)
            join_var(P, u.v, &u.old);
        else
            set_state(P, u.v, &u.old);
    }
    /* what only the else block changed: the body left it as before */
    for (int i = before; ft && i < end && !P->oom; i++) {
        undo u = P->log[i]; /* the first change of v holds its old state */
        if (P->seen[u.v] == g)
            continue;
        P->seen[u.v] = g;
        if (fe)
            join_var(P, u.v, &u.old);
        else
            set_state(P, u.v, &u.old);
    }
    P->nthen = base;
}

static void walk_stmt(pr *P, const uf__stmt *s)
{
    switch (s->kind) {
    case UF__ST_EXPR:
        visit(P, s->u.expr.value, 0);
        break;
    case UF__ST_ASSIGN: {
        visit(P, s->u.assign.value, 0);
        vrec r = record_of(P, s, s->u.assign.value);
        for (int i = 0; i < s->u.assign.ntargets; i++)
            define(P, s->u.assign.targets[i], &r);
        break;
    }
    case UF__ST_AUGASSIGN: {
        visit(P, s->u.augassign.value, 0);
        vrec r = record_of(P, s, NULL);
        if (s->u.augassign.target->kind != UF__EX_NAME)
            visit(P, s->u.augassign.target, 0);
        else
            define(P, s->u.augassign.target, &r);
        break;
    }
    case UF__ST_IF:
        walk_if(P, s);
        break;
    case UF__ST_WHILE:
        walk_while(P, s);
        break;
    case UF__ST_FOR: {
        visit(P, s->u.for_.iter, 0);
        unsigned char *L = assigned_in(P, &s->u.for_.body, s->u.for_.target);
        if (L == NULL)
            return;
        loop_phis(P, L);
        walk_block(P, &s->u.for_.body);
        loop_phis(P, L);
        walk_block(P, &s->u.for_.orelse);
        loop_exit(P, &s->u.for_.body, L);
        break;
    }
    case UF__ST_RETURN:
        visit(P, s->u.ret.value, 0);
        break;
    case UF__ST_ASSERT:
        cond(P, s->u.assert_.test, 0);
        break;
    case UF__ST_RAISE:
        for (int i = 0; i < s->u.raise.nargs; i++)
            visit(P, s->u.raise.args[i], 0);
        break;
    default:
        break;
    }
}

static void walk_block(pr *P, const uf__block *b)
{
    uf__dview D = prev_view(P);
    for (int i = 0; i < b->n && !P->oom; i++) {
        walk_stmt(P, b->stmts[i]);
        if (!uf__dv_stmt_falls(&D, b->stmts[i]))
            break;
    }
}

/* Operands inside a while condition are tested on entry and at the end
 * of the body: a decision holds only when both agree. */
static int merge_operand(const uf__expr *e, void *ud)
{
    pr *P = ud;
    uf__expr_info *in = uf__tf_info(P->C->tf, e);
    int k = uf__tf_index(P->tf, e);
    if (P->seen_end[k] && P->prev[1][k] != in->truth)
        in->truth = 0;
    return uf__ast_children(e, merge_operand, P);
}

static int merge_stmt(uf__stmt *s, void *P)
{
    if (s->kind == UF__ST_WHILE)
        uf__ast_children(s->u.while_.cond, merge_operand, P);
    return 0;
}

static int prune_rounds(pr *P, int first, int last);

int uf__infer_prune(uf__ictx *C)
{
    uf__typed_func *tf = C->tf;
    uf__arena *A = C->km->arena;
    pr P;
    memset(&P, 0, sizeof P);
    P.C = C;
    P.tf = tf;
    P.nvars = tf->nvars;
    P.nexprs = tf->nids; /* the function's, plus one for the others */
    size_t ne = (size_t)P.nexprs + 1, nv = (size_t)P.nvars + 1;
    for (int k = 0; k < 2; k++) {
        P.prev[k] = uf__arena_alloc(A, ne, 1, C->err);
        P.cur[k] = uf__arena_alloc(A, ne, 1, C->err);
        if (P.prev[k] == NULL || P.cur[k] == NULL)
            return -1;
    }
    P.seen_end = uf__arena_alloc(A, ne, 1, C->err);
    P.ndefs = uf__arena_alloc(A, nv, sizeof *P.ndefs, C->err);
    P.plain = uf__arena_alloc(A, nv, sizeof *P.plain, C->err);
    P.st = uf__arena_alloc(A, nv, sizeof *P.st, C->err);
    P.seen = uf__arena_alloc(A, nv, sizeof *P.seen, C->err);
    if (P.seen_end == NULL || P.ndefs == NULL || P.plain == NULL ||
        P.st == NULL || P.seen == NULL)
        return -1;
    int rc = prune_rounds(&P, RULE_LITERAL, RULE_SSA);
    if (rc == 0 && P.want_types) { /* isinstance of a local: typed round */
        P.ltype = uf__arena_alloc(A, nv, sizeof *P.ltype, C->err);
        rc = P.ltype == NULL || uf__infer_partial(C, P.ltype) < 0
                 ? -1
                 : prune_rounds(&P, RULE_SSA, RULE_SSA);
    }
    uf__free(P.log);
    uf__free(P.then);
    return rc;
}

/* Numba's rounds first .. last, each on what the previous decided. */
static int prune_rounds(pr *P, int first, int last)
{
    uf__typed_func *tf = P->C->tf;
    size_t ne = (size_t)P->nexprs + 1;
    const uf__block *body = &tf->decl->def->u.funcdef.body;
    for (int rule = first; rule <= last; rule++) {
        P->rule = rule;
        P->nlog = 0;
        for (int v = 0; v < P->nvars; v++) {
            P->ndefs[v] = tf->vars[v].arg >= 0;
            P->plain[v] = NULL;
            memset(&P->st[v], 0, sizeof P->st[v]);
            if (tf->vars[v].arg >= 0) {
                P->st[v].kind = VS_DEF;
                P->st[v].id = &tf->vars[v];
            }
        }
        defs_block(P, body, NULL);
        memset(P->cur[0], 0, ne);
        memset(P->cur[1], 0, ne);
        walk_block(P, body);
        if (P->oom)
            return -1;
        for (int k = 0; k < 2; k++)
            for (size_t i = 0; i < ne; i++)
                if (P->prev[k][i] == 0)
                    P->prev[k][i] = P->cur[k][i];
    }
    for (int i = 0; i < P->nexprs; i++) {
        tf->info[i].truth = P->prev[0][i];
        tf->info[i].truth_end = P->prev[1][i];
    }
    uf__ast_walk_stmts(body, merge_stmt, P);
    return 0;
}
