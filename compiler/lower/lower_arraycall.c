/* np.array of a list filled by one loop, without the list (Numba's
 * _inline_arraycall, numba/core/inline_closurecall.py): in
 *
 *     l = []                          # or a comprehension's lc$K = []
 *     for v in range(...) / an array / a tuple:
 *         ...
 *         l.append(x)
 *         ...
 *     ... np.array(l) ...             # the next statement
 *
 * the loop's trip count is the list's final length, so the array is
 * allocated once before the loop and the append stores x at the loop's
 * counter: no list, no growth, no copy. Safe only when every iteration
 * appends exactly once and nothing else sees the list:
 *   - `l = []` (empty), the for and the statement using np.array(l) are
 *     in the same block, the for right before that statement and after
 *     the assignment, with no else block; np.array(l) among that
 *     statement's own expressions (not in a block nested in it, not a
 *     while condition), so that it runs once;
 *   - l is named exactly three times in the function: its assignment, the
 *     append (a statement of the loop's own body, not nested in an if or
 *     an inner loop) and np.array(l) / np.asarray(l) (positional, 1-D
 *     result: no 2-D list of lists);
 *   - no break or continue anywhere in the loop's body;
 *   - the items are numbers (bool, ints, floats, complex): tuples and
 *     arrays keep the list (Numba refuses those in its rewrite);
 *   - the loop counts a range() (not a parallel prange), an array or a
 *     tuple: lists are refused (the body could change their length).
 * A return or raise in the body leaves the array half filled, but then
 * np.array(l) never runs. Anything else keeps today's list path. The
 * list's variable holds the array's data pointer meanwhile, so the
 * frame's sweeps (lower_nrt_loop.c), which keep what the variables point
 * into, keep the array. */
#include <string.h>

#include "common/alloc.h"
#include "compiler/front/ast_visit.h"
#include "compiler/lower/lower.h"
#include "compiler/lower/lower_arraycall.h"
#include "compiler/lower/lower_stmt.h"

#define B (F->L->b)

typedef struct uf__arraycall {
    const uf__stmt *init, *loop; /* l = [] and the for */
    const uf__expr *append;      /* the l.append(x) call */
    const uf__expr *object;      /* l in np.array(l) */
    int var;                     /* l's index in F->vars */
    uf_dtype dt;                 /* the array's dtype (np.array's) */
    const uf__type *rt;          /* np.array's type */
    LLVMValueRef arr;            /* slot of the array, once the loop opens */
    LLVMValueRef k;              /* the loop's counter slot */
} arraycall;

struct uf__arraycalls {
    arraycall *p;
    int n, cap;
};

/* ---- finding the pattern -------------------------------------------- */

typedef struct mentions {
    const char *name;
    int n;
    const uf__expr *last;
} mentions;

static int count_name(const uf__expr *e, void *ud)
{
    mentions *m = ud;
    if (e->kind == UF__EX_NAME && strcmp(e->u.name.id, m->name) == 0) {
        m->n++;
        m->last = e;
    }
    return uf__ast_children(e, count_name, ud);
}

static int count_stmt(uf__stmt *s, void *ud)
{
    return uf__ast_stmt_exprs(s, count_name, ud);
}

/* How many times s and the statements nested in it name `name`. */
static int mentions_in(const uf__stmt *s, const char *name)
{
    mentions m = {name, 0, NULL};
    uf__block one = {(uf__stmt **)&s, 1};
    uf__ast_walk_stmts(&one, count_stmt, &m);
    return m.n;
}

static int jumps(uf__stmt *s, void *ud)
{
    (void)ud;
    return s->kind == UF__ST_BREAK || s->kind == UF__ST_CONTINUE;
}

/* `name = []`: the name, else NULL. */
static const char *empty_list_target(uf__fn *F, const uf__stmt *s)
{
    if (s->kind != UF__ST_ASSIGN || s->u.assign.ntargets != 1 ||
        s->join_feed)
        return NULL;
    const uf__expr *t = s->u.assign.targets[0], *v = s->u.assign.value;
    if (t->kind != UF__EX_NAME || v->kind != UF__EX_LIST || v->u.seq.n != 0)
        return NULL;
    /* the variable's type: the literal's items are still undefined */
    int vi = uf__lower_find_var(F, t->u.name.id);
    const uf__type *lt = vi >= 0 ? F->tf->vars[vi].type : NULL;
    if (!lt || lt->kind != UF__T_LIST || lt->n != 1 || !lt->elts[0] ||
        lt->elts[0]->kind != UF__T_SCALAR)
        return NULL;
    return t->u.name.id;
}

/* The loop counts range(), an array or a tuple (lower_stmt_loop.c's
 * counted_loop) and its body always reaches one top-level l.append(x). */
static const uf__expr *loop_append(uf__fn *F, const uf__stmt *s,
                                   const char *name)
{
    if (s->kind != UF__ST_FOR || s->u.for_.orelse.n != 0 ||
        s->u.for_.refused || s->u.for_.target->kind != UF__EX_NAME)
        return NULL;
    const uf__expr *it = s->u.for_.iter;
    const uf__type *itt = uf__lower_info(F, it)->type;
    bool ok = itt && (itt->kind == UF__T_ARRAY || itt->kind == UF__T_TUPLE);
    uf__builtin bi = it->kind == UF__EX_CALL ? uf__lower_info(F, it)->builtin
                                             : UF__BI_NONE;
    if (uf__builtin_is_npiter(bi))
        return NULL; /* np.ndindex ...: lower_npiter.c's loops */
    if (!ok)
        ok = bi == UF__BI_RANGE;
    if (!ok || uf__ast_walk_stmts(&s->u.for_.body, jumps, NULL) != 0)
        return NULL;
    const uf__expr *found = NULL;
    for (int i = 0; i < s->u.for_.body.n; i++) {
        const uf__stmt *b = s->u.for_.body.stmts[i];
        const uf__expr *e = b->kind == UF__ST_EXPR ? b->u.expr.value : NULL;
        if (e && e->kind == UF__EX_CALL && e->u.call.nargs == 1 &&
            e->u.call.nkw == 0 && e->u.call.func->kind == UF__EX_ATTR &&
            uf__lower_info(F, e)->builtin == UF__BI_LIST_APPEND) {
            const uf__expr *r = e->u.call.func->u.attr.value;
            if (r->kind == UF__EX_NAME && strcmp(r->u.name.id, name) == 0)
                found = e;
        }
        /* only statements before the append may end the iteration
         * early (return, raise), never skip it: no jumps at all */
        if (found)
            break;
    }
    return found;
}

typedef struct find_array {
    uf__fn *F;
    const char *name;
    const uf__expr *call;
} find_array;

static int array_of_name(const uf__expr *e, void *ud)
{
    find_array *A = ud;
    if (e->kind == UF__EX_CALL && e->u.call.nargs >= 1) {
        uf__builtin b = uf__lower_info(A->F, e)->builtin;
        const uf__expr *x = e->u.call.args[0];
        if ((b == UF__BI_NP_ARRAY || b == UF__BI_NP_ASARRAY) &&
            x->kind == UF__EX_NAME && strcmp(x->u.name.id, A->name) == 0)
            A->call = e;
    }
    return uf__ast_children(e, array_of_name, ud);
}


static int add(uf__fn *F, const arraycall *a)
{
    struct uf__arraycalls *S = F->arraycalls;
    if (!S && !(S = F->arraycalls = uf__calloc(1, sizeof *S, F->err)))
        return UF_ERR_NOMEM;
    if (S->n == S->cap) {
        int c = S->cap ? 2 * S->cap : 4;
        arraycall *p = uf__realloc(S->p, (size_t)c, sizeof *p, F->err);
        if (!p)
            return UF_ERR_NOMEM;
        S->p = p;
        S->cap = c;
    }
    S->p[S->n++] = *a;
    return 0;
}

static arraycall *find(uf__fn *F, const void *node, int what);

/* The plan for b->stmts[i] = `l = []`, if the pattern holds. */
static int scan_at(uf__fn *F, const uf__block *b, int i,
                   const uf__block *body)
{
    const char *name = empty_list_target(F, b->stmts[i]);
    if (!name)
        return 0;
    int j = i + 1;
    while (j < b->n && b->stmts[j]->kind != UF__ST_FOR &&
           mentions_in(b->stmts[j], name) == 0)
        j++;
    if (j + 1 >= b->n)
        return 0;
    const uf__expr *app = loop_append(F, b->stmts[j], name);
    if (!app)
        return 0;
    /* np.array(l) runs once: in the statement's own expressions (not a
     * block nested in it, not a while condition), so that it is the
     * only owner of the array, as it would be of its copy */
    find_array A = {F, name, NULL};
    const uf__stmt *next = b->stmts[j + 1];
    if (next->kind == UF__ST_WHILE)
        return 0;
    uf__ast_stmt_exprs(next, array_of_name, &A);
    if (!A.call)
        return 0;
    const uf__type *rt = uf__lower_info(F, A.call)->type;
    if (!rt || rt->kind != UF__T_ARRAY || rt->ndim != 1)
        return 0;
    mentions all = {name, 0, NULL};
    uf__ast_walk_stmts(body, count_stmt, &all);
    int vi = uf__lower_find_var(F, name);
    if (all.n != 3 || vi < 0 || !F->vars[vi])
        return 0;
    arraycall a = {b->stmts[i], b->stmts[j], app, A.call->u.call.args[0],
                   vi, rt->dtype, rt, NULL, NULL};
    arraycall *seen = find(F, a.init, 0);
    if (seen) { /* the block lowered again: the plan starts over */
        *seen = a;
        return 0;
    }
    return add(F, &a);
}

int uf__arraycall_scan(uf__fn *F, const uf__block *b)
{
    /* lists are refused in CUDA kernels and parallel prange bodies: the
     * list path says so */
    if (!F->tf || F->L->cg->sreg != NULL || !F->tf->decl || F->in_prange)
        return 0;
    const uf__block *body = &F->tf->decl->def->u.funcdef.body;
    for (int i = 0; i + 2 < b->n; i++) {
        int rc = scan_at(F, b, i, body);
        if (rc != 0)
            return rc;
    }
    return 0;
}

/* ---- lowering the plan ---------------------------------------------- */

static arraycall *find(uf__fn *F, const void *node, int what)
{
    struct uf__arraycalls *S = F->arraycalls;
    for (int i = 0; S && i < S->n; i++) {
        arraycall *a = &S->p[i];
        const void *k = what == 0   ? (const void *)a->init
                        : what == 1 ? (const void *)a->loop
                        : what == 2 ? (const void *)a->append
                                    : (const void *)a->object;
        if (k == node)
            return a;
    }
    return NULL;
}

bool uf__arraycall_init(uf__fn *F, const uf__stmt *s)
{
    arraycall *a = find(F, s, 0);
    if (!a)
        return false;
    /* nothing made: the sweeps before the loop see a NULL list */
    LLVMBuildStore(B, LLVMConstNull(LLVMGetAllocatedType(F->vars[a->var])),
                   F->vars[a->var]);
    return true;
}

int uf__arraycall_open(uf__fn *F, const uf__stmt *loop, LLVMValueRef cnt,
                       LLVMValueRef k)
{
    arraycall *a = find(F, loop, 1);
    if (!a)
        return 0;
    LLVMValueRef n;
    LLVMValueRef arr = uf__lower_new_array(F, a->dt, 1, &cnt, &n);
    if (!arr)
        return F->err->code;
    LLVMTypeRef ty = uf__lower_type(F->L, a->rt, F->err);
    if (!ty)
        return F->err->code;
    a->arr = uf__fn_alloca(F, ty, "arraycall");
    LLVMBuildStore(B, arr, a->arr);
    LLVMValueRef data = uf__emit_array_data(F, arr);
    LLVMTypeRef vt = LLVMGetAllocatedType(F->vars[a->var]);
    LLVMBuildStore(B, LLVMBuildPointerCast(B, data, vt, ""), F->vars[a->var]);
    a->k = k;
    return 0;
}

LLVMValueRef uf__arraycall_append(uf__fn *F, const uf__expr *e,
                                  const uf__type *lt, bool *done)
{
    arraycall *a = find(F, e, 2);
    *done = a != NULL && a->arr != NULL;
    if (!*done)
        return NULL;
    const uf__expr *x = e->u.call.args[0];
    LLVMValueRef v = uf__lower_expr(F, x);
    if (!v ||
        !(v = uf__emit_convert(F, v, uf__lower_info(F, x)->type, lt->elts[0])))
        return NULL;
    v = uf__emit_cast(F, v, lt->elts[0]->dtype, a->dt);
    LLVMTypeRef aty = LLVMGetAllocatedType(a->arr);
    LLVMValueRef data = uf__emit_array_data(F, LLVMBuildLoad2(B, aty, a->arr,
                                                              ""));
    LLVMTypeRef i64 = LLVMInt64TypeInContext(F->L->ctx);
    LLVMValueRef k = LLVMBuildLoad2(B, i64, a->k, "");
    LLVMValueRef off = LLVMBuildMul(
        B, k, LLVMConstInt(i64, (unsigned long long)uf_dtype_itemsize(a->dt),
                           0), "");
    LLVMValueRef p = LLVMBuildInBoundsGEP2(B, LLVMInt8TypeInContext(F->L->ctx),
                                           data, &off, 1, "");
    uf__emit_elem_store(F, p, a->dt, v);
    return LLVMGetUndef(LLVMInt1TypeInContext(F->L->ctx));
}

LLVMValueRef uf__arraycall_result(uf__fn *F, const uf__expr *object)
{
    arraycall *a = find(F, object, 3);
    if (!a || !a->arr)
        return NULL;
    return LLVMBuildLoad2(B, LLVMGetAllocatedType(a->arr), a->arr,
                          "arraycall");
}

void uf__arraycall_free(uf__fn *F)
{
    if (!F->arraycalls)
        return;
    uf__free(F->arraycalls->p);
    uf__free(F->arraycalls);
    F->arraycalls = NULL;
}
