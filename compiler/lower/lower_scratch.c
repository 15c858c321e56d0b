/* Scratch arrays kept on the stack (lower_scratch.h).
 *
 * `tmp = np.empty(n)` in a loop body costs a heap block per iteration
 * (common/nrt.c: allocation, a sweep at the latch, the free), several
 * times the work of filling 16 elements. When no reference to the array
 * can outlive the variable it is assigned to, its memory can be a buffer
 * of the function's own stack frame, one per allocation site, reused each
 * time the site runs: the site's previous array is then unreachable,
 * since the site rebinds the only name that held it.
 *
 * A variable qualifies when every assignment of it is such a call alone
 * (`v = np.empty(...)`, one target; np.zeros/ones/full and their _like
 * forms) and every other mention of it reads or writes elements or asks
 * for the shape: `v[i, j]` read as a number, `v[...] = x` and
 * `v[...] op= x` whatever the index, `v.shape`, `v.size`, `v.ndim`,
 * `len(v)`, or reads it whole where no reference to it can come out:
 * an operand of an array expression (`x * v`, `v < 0`, np.sqrt(v) but
 * not its out argument), `out[...] = v`, an argument of a call whose
 * result holds no array (`np.sum(v)`, `v.max()`, a kernel returning a
 * number) or is always new memory (np.dot, v.copy(), np.sort ...).
 * Anything else (a view `v[1:]`, `v` passed to what may return it,
 * returned, assigned to another name, iterated, an SSA join feeding it
 * on) may keep a reference, and the variable stays on the heap.
 * Arguments never qualify. A fill call no name holds (`np.zeros(3) + i`,
 * np.sum(np.ones(n))) is a site too when it is an operand of such an
 * operator or an argument a builtin only reads (temp_use below). The
 * size is known only at run time, so the lowering (lower_alloc.c) takes
 * the stack buffer when the array fits in it and the heap otherwise. */
#include <string.h>

#include "common/alloc.h"
#include "compiler/front/ast_visit.h"
#include "compiler/lower/lower.h"
#include "compiler/lower/lower_scratch.h"
#include "compiler/types/infer_arrexpr.h"
#include "compiler/types/infer_npufunc.h"

/* Per variable: assignments seen, those that were candidate sites, and
 * whether any other mention disqualified it. */
typedef struct var_use {
    int assigns, sites;
    bool escapes;
} var_use;

typedef struct scan {
    const uf__typed_func *tf;
    var_use *v;
} scan;

/* A call lower_alloc.c's fill lowers: UF__NPALLOC_MAP up to np.arange
 * (np.empty .. np.full_like). */
static bool is_fill_call(const uf__typed_func *tf, const uf__expr *e)
{
    uf__builtin b = e->kind == UF__EX_CALL ? uf__tf_info(tf, e)->builtin
                                          : UF__BI_NONE;
    return uf__builtin_is_alloc(b) && b < UF__BI_NP_ARANGE;
}

static int local_of(const scan *S, const uf__expr *e)
{
    if (e->kind != UF__EX_NAME)
        return -1;
    int v = uf__typed_var(S->tf, e->u.name.id);
    return v >= 0 && S->tf->vars[v].arg < 0 ? v : -1;
}

static bool holds_no_array(const uf__type *t)
{
    return t != NULL && !uf__type_holds_array(t);
}

static int expr_use(const uf__expr *e, void *ud);

/* Calls that read no more than the shape and dtype of their first
 * argument: len(v), np.empty_like(v, ...) and the other _like fills. */
static bool reads_shape_only(uf__builtin b, const uf__expr *call)
{
    if (b == UF__BI_LEN)
        return call->u.call.nargs == 1 && call->u.call.nkw == 0;
    return b >= UF__BI_NP_EMPTY_LIKE && b < UF__BI_NP_ARANGE;
}

static int visit_keywords(const uf__expr *call, void *ud)
{
    for (int i = 0; i < call->u.call.nkw; i++) {
        int rc = expr_use(call->u.call.kw[i].value, ud);
        if (rc != 0)
            return rc;
    }
    return 0;
}

/* Builtins whose array result is always new memory, never a view of an
 * argument: a local passed to them is only read. */
static bool makes_new_array(uf__builtin b)
{
    switch (b) {
    case UF__BI_NP_DOT:
    case UF__BI_NP_COPY:
    case UF__BI_METH_COPY:
    case UF__BI_METH_FLATTEN:
    case UF__BI_METH_ASTYPE:
    case UF__BI_NP_SORT:
    case UF__BI_NP_ARGSORT:
    case UF__BI_NP_CUMSUM:
    case UF__BI_NP_CUMPROD:
        return true;
    default:
        return false;
    }
}

/* How many leading positional arguments of the call e only read their
 * array: all of them when its result can hold no reference to one (a
 * number, None) or is always a new array; a ufunc's inputs, not its
 * outputs, in an array expression or np.add(x, y, out); -1 for any
 * other call (a view, a kernel of the file returning an array), whose
 * receiver too may be kept. */
static int read_only_args(const scan *S, const uf__expr *e)
{
    const uf__expr_info *in = uf__tf_info(S->tf, e);
    if (uf__builtin_is_list(in->builtin))
        return -1; /* l.append(v) ...: a list of arrays keeps v */
    if (holds_no_array(in->type))
        return e->u.call.nargs;
    if (in->callee != NULL || in->ext != NULL)
        return -1;
    if (makes_new_array(in->builtin))
        return e->u.call.nargs;
    if (!uf__is_arrexpr(S->tf, e) && !uf__is_ufunc_out(S->tf, e))
        return -1;
    const uf__ufunc_loops *u = uf__npufunc_loops(in->builtin);
    int n = u != NULL ? u->nin : 3; /* np.where, np.clip: (c, x, y) */
    return e->u.call.nargs < n ? e->u.call.nargs : n;
}

/* A call reading its arguments: a local there (or as the receiver of a
 * method) is read, not kept, when read_only_args says so. */
static int call_use(scan *S, const uf__expr *e)
{
    int n = read_only_args(S, e);
    if (n < 0)
        return uf__ast_children(e, expr_use, S);
    const uf__expr *f = e->u.call.func;
    int rc = f->kind == UF__EX_ATTR && local_of(S, f->u.attr.value) >= 0
                 ? 0
                 : expr_use(f, S);
    for (int i = 0; i < e->u.call.nargs && rc == 0; i++)
        if (i >= n || local_of(S, e->u.call.args[i]) < 0)
            rc = expr_use(e->u.call.args[i], S);
    return rc != 0 ? rc : visit_keywords(e, S);
}

/* An operator on whole arrays (x * t, -t, t < 0, t @ w) computes a new
 * array: a local operand is only read. */
static int operator_use(scan *S, const uf__expr *e)
{
    uf__expr *const *op = &e->u.unary.operand;
    int n = 1;
    if (e->kind == UF__EX_BINARY) {
        uf__expr *const lr[2] = {e->u.binary.left, e->u.binary.right};
        for (int i = 0; i < 2; i++)
            if (local_of(S, lr[i]) < 0 && expr_use(lr[i], S) != 0)
                return 1;
        return 0;
    }
    if (e->kind == UF__EX_COMPARE) {
        op = e->u.compare.operands;
        n = e->u.compare.nops + 1;
    }
    for (int i = 0; i < n; i++)
        if (local_of(S, op[i]) < 0 && expr_use(op[i], S) != 0)
            return 1;
    return 0;
}

static bool array_operator(const scan *S, const uf__expr *e)
{
    switch (e->kind) {
    case UF__EX_BINARY:
        return uf__is_arrexpr(S->tf, e) ||
               (e->u.binary.op == UF__OP_MATMUL &&
                !holds_no_array(uf__tf_info(S->tf, e)->type));
    case UF__EX_UNARY:
    case UF__EX_COMPARE:
        return uf__is_arrexpr(S->tf, e);
    default:
        return false;
    }
}

/* e is read: a mention of a local there lets it escape, except inside
 * the forms that only touch its elements or its shape. */
static int expr_use(const uf__expr *e, void *ud)
{
    scan *S = ud;
    int v = local_of(S, e);
    if (v >= 0) {
        S->v[v].escapes = true;
        return 0;
    }
    if (e->kind == UF__EX_SUBSCRIPT &&
        local_of(S, e->u.subscript.value) >= 0 &&
        holds_no_array(uf__tf_info(S->tf, e)->type))
        return uf__ast_visit_n(e->u.subscript.index, e->u.subscript.nindex,
                               expr_use, ud);
    if (e->kind == UF__EX_ATTR && local_of(S, e->u.attr.value) >= 0 &&
        (!strcmp(e->u.attr.attr, "shape") || !strcmp(e->u.attr.attr, "size") ||
         !strcmp(e->u.attr.attr, "ndim")))
        return 0;
    if (e->kind == UF__EX_CALL && e->u.call.nargs >= 1 &&
        local_of(S, e->u.call.args[0]) >= 0 &&
        reads_shape_only(uf__tf_info(S->tf, e)->builtin, e))
        return uf__ast_visit_n(e->u.call.args + 1, e->u.call.nargs - 1,
                               expr_use, ud) ||
               visit_keywords(e, ud);
    if (e->kind == UF__EX_CALL)
        return call_use(S, e);
    if (array_operator(S, e))
        return operator_use(S, e);
    return uf__ast_children(e, expr_use, ud);
}

/* e is assigned to (a target): a subscript writes elements, a name is
 * an assignment (a site when `site`), anything else (a tuple target)
 * assigns each element from a value of its own. */
static int target_use(scan *S, const uf__expr *e, bool site)
{
    int v = local_of(S, e);
    if (v >= 0) {
        S->v[v].assigns++;
        S->v[v].sites += site;
        return 0;
    }
    if (e->kind == UF__EX_SUBSCRIPT && local_of(S, e->u.subscript.value) >= 0)
        return uf__ast_visit_n(e->u.subscript.index, e->u.subscript.nindex,
                               expr_use, S);
    if (e->kind == UF__EX_TUPLE || e->kind == UF__EX_LIST) {
        for (int i = 0; i < e->u.seq.n; i++)
            target_use(S, e->u.seq.elts[i], false);
        return 0;
    }
    return expr_use(e, S);
}

static int stmt_use(uf__stmt *s, void *ud)
{
    scan *S = ud;
    switch (s->kind) {
    case UF__ST_ASSIGN: {
        bool site = s->u.assign.ntargets == 1 && !s->join_feed &&
                    is_fill_call(S->tf, s->u.assign.value);
        bool copied = local_of(S, s->u.assign.value) >= 0;
        for (int i = 0; i < s->u.assign.ntargets; i++) {
            target_use(S, s->u.assign.targets[i], site);
            const uf__expr *t = s->u.assign.targets[i];
            const uf__type *bt = t->kind == UF__EX_SUBSCRIPT
                                     ? uf__tf_info(S->tf, t->u.subscript.value)
                                           ->type
                                     : NULL;
            copied &= bt != NULL && bt->kind != UF__T_LIST;
        }
        /* out[...] = v copies v's elements (l[i] = v keeps v) */
        return copied ? 0 : expr_use(s->u.assign.value, S);
    }
    case UF__ST_AUGASSIGN: {
        const uf__expr *t = s->u.augassign.target;
        if (t->kind == UF__EX_SUBSCRIPT)
            target_use(S, t, false);
        else
            expr_use(t, S); /* v op= x on the whole array: kept simple */
        return expr_use(s->u.augassign.value, S);
    }
    case UF__ST_FOR:
        expr_use(s->u.for_.target, S);
        return expr_use(s->u.for_.iter, S);
    default:
        return uf__ast_stmt_exprs(s, expr_use, S);
    }
}

/* Marks the call of each site whose variable qualifies, by expression
 * id. */
typedef struct marker {
    const uf__typed_func *tf;
    const bool *ok;
    bool *calls;
} marker;

static int mark_site(uf__stmt *s, void *ud)
{
    marker *M = ud;
    if (s->kind != UF__ST_ASSIGN || s->u.assign.ntargets != 1 ||
        s->join_feed || !is_fill_call(M->tf, s->u.assign.value))
        return 0;
    const uf__expr *t = s->u.assign.targets[0];
    int v = t->kind == UF__EX_NAME ? uf__typed_var(M->tf, t->u.name.id) : -1;
    unsigned k = (unsigned)(s->u.assign.value->id - M->tf->first_id);
    if (v >= 0 && M->ok[v] && k < (unsigned)M->tf->nids)
        M->calls[k] = true;
    return 0;
}

/* Fill calls no name holds: an operand of an operator on whole arrays
 * (`np.zeros(3) + i`) or an argument a builtin only reads (np.sum(...),
 * a ufunc's input), consumed within the expression that made it, which
 * computes new memory. Each is a site of its own, and the next time it
 * runs its previous array is dead: so it takes a stack buffer too, and
 * no heap block waits for the loop's sweep (Numba frees such temporaries
 * at once). */
typedef struct temps {
    scan *S;
    bool *calls;
    bool any;
} temps;

static void mark_temp(temps *T, const uf__expr *e)
{
    unsigned k = (unsigned)(e->id - T->S->tf->first_id);
    if (is_fill_call(T->S->tf, e) && k < (unsigned)T->S->tf->nids)
        T->any = T->calls[k] = true;
}

static int temp_use(const uf__expr *e, void *ud)
{
    temps *T = ud;
    scan *S = T->S;
    if (array_operator(S, e)) {
        if (e->kind == UF__EX_BINARY) {
            mark_temp(T, e->u.binary.left);
            mark_temp(T, e->u.binary.right);
        } else if (e->kind == UF__EX_UNARY) {
            mark_temp(T, e->u.unary.operand);
        } else {
            for (int i = 0; i <= e->u.compare.nops; i++)
                mark_temp(T, e->u.compare.operands[i]);
        }
    } else if (e->kind == UF__EX_CALL) {
        const uf__expr_info *in = uf__tf_info(S->tf, e);
        int n = in->callee == NULL && in->ext == NULL ? read_only_args(S, e)
                                                      : -1;
        for (int i = 0; i < n; i++)
            mark_temp(T, e->u.call.args[i]);
    }
    return uf__ast_children(e, temp_use, ud);
}

static int stmt_temps(uf__stmt *s, void *ud)
{
    return uf__ast_stmt_exprs(s, temp_use, ud);
}

/* The sites' calls, by expression id - first_id; NULL when none (or out
 * of memory: then every array stays on the heap). */
static bool *sites(const uf__typed_func *tf)
{
    const uf__block *body = &tf->decl->def->u.funcdef.body;
    scan S = {tf, uf__calloc((size_t)tf->nvars + 1, sizeof *S.v, NULL)};
    bool *ok = uf__calloc((size_t)tf->nvars + 1, sizeof *ok, NULL);
    bool *calls = uf__calloc((size_t)tf->nids + 1, sizeof *calls, NULL);
    bool any = false;
    if (S.v && ok && calls && uf__ast_walk_stmts(body, stmt_use, &S) == 0)
        for (int i = 0; i < tf->nvars; i++)
            any |= ok[i] = !S.v[i].escapes && S.v[i].assigns > 0 &&
                           S.v[i].sites == S.v[i].assigns;
    if (any) {
        marker M = {tf, ok, calls};
        uf__ast_walk_stmts(body, mark_site, &M);
    }
    if (S.v && calls) {
        temps T = {&S, calls, false};
        uf__ast_walk_stmts(body, stmt_temps, &T);
        any |= T.any;
    }
    if (!any) {
        uf__free(calls);
        calls = NULL;
    }
    uf__free(S.v);
    uf__free(ok);
    return calls;
}

bool uf__scratch_site(uf__fn *F, const uf__expr *call)
{
    if (!F->tf || F->L->cg->sreg != NULL)
        return false;
    if (!F->scratch_scanned) {
        F->scratch_scanned = true;
        F->scratch_calls = sites(F->tf);
    }
    unsigned k = (unsigned)(call->id - F->tf->first_id);
    return F->scratch_calls != NULL && k < (unsigned)F->tf->nids &&
           F->scratch_calls[k] &&
           F->scratch_bytes + UF__SCRATCH_BYTES <= UF__SCRATCH_FRAME_BYTES;
}
