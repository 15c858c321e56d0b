/* The frees at the end of loop iterations (common/nrt.h's uf__nrt_sweep).
 *
 * A function's frame owns every block it made (lower_alloc.c) and frees
 * them at its returns; without more, `for i in range(n): t = np.empty(m)`
 * would keep n blocks until then. So each loop that allocates (or adopts
 * a callee's array) sweeps the frame where an iteration ends, at the start
 * of its latch (the block `continue` and the end of the body go to): a
 * block is kept when a data pointer of an array variable, of an array
 * inside a tuple variable, or of an array an enclosing `for` iterates over
 * points into it (from its first byte to one past its last), and freed
 * otherwise. Between statements no other value holds an array (array
 * expressions' temporaries die within their statement), so what is swept
 * can no longer be reached; views (slices, .T, reshape) point into their
 * base's block and keep it alive. The latches are only recorded while the
 * body is lowered: the sweeps go in once the whole function is known
 * (uf__nrt_loops_finish), since a variable assigned after the loop in an
 * enclosing loop's body is live at the inner latch too. */
#include "common/alloc.h"
#include "common/nrt.h"
#include "compiler/front/ast_visit.h"
#include "compiler/lower/lower.h"

#define B (F->L->b)

typedef struct iter_arr {
    LLVMValueRef v; /* NULL: a loop over range() or a while */
    const uf__type *t;
    const uf__stmt *loop;
} iter_arr;

typedef struct sweep_point {
    LLVMBasicBlockRef latch;
    int first, n; /* the iterated arrays live there, in saved[] */
    const uf__stmt *outermost; /* the outermost loop around the latch */
} sweep_point;

struct uf__nrt_loops {
    iter_arr *stack;
    int *sites; /* F->nrt_sites when each open loop was entered */
    int depth, capdepth;
    sweep_point *points;
    int npoints, cappoints;
    iter_arr *saved;
    int nsaved, capsaved;
};

static int grow(uf__fn *F, void **p, int *cap, int need, size_t size)
{
    if (need <= *cap)
        return 0;
    int c = *cap ? *cap : 8;
    while (c < need)
        c *= 2;
    void *n = uf__realloc(*p, (size_t)c, size, F->err);
    if (!n)
        return UF_ERR_NOMEM;
    *p = n;
    *cap = c;
    return 0;
}

int uf__nrt_loop_enter(uf__fn *F, const uf__stmt *loop, LLVMValueRef iter,
                       const uf__type *at)
{
    if (!F->nrt_loops &&
        !(F->nrt_loops = uf__calloc(1, sizeof *F->nrt_loops, F->err)))
        return UF_ERR_NOMEM;
    struct uf__nrt_loops *S = F->nrt_loops;
    int cap = S->capdepth;
    if (grow(F, (void **)&S->stack, &cap, S->depth + 1, sizeof *S->stack) ||
        grow(F, (void **)&S->sites, &S->capdepth, S->depth + 1,
             sizeof *S->sites))
        return UF_ERR_NOMEM;
    S->stack[S->depth] = (iter_arr){iter, at, loop};
    S->sites[S->depth] = F->nrt_sites;
    S->depth++;
    return 0;
}

void uf__nrt_loop_latch(uf__fn *F, LLVMBasicBlockRef latch)
{
    struct uf__nrt_loops *S = F->nrt_loops;
    if (!S || S->depth == 0 || F->nrt_sites == S->sites[S->depth - 1])
        return; /* nothing made in this loop: nothing to sweep */
    int n = 0;
    for (int d = 0; d < S->depth; d++)
        n += S->stack[d].v != NULL;
    /* out of memory here only loses the sweep (blocks then live until
     * the return, as before); err is not set for it */
    uf_error scratch;
    uf_error *keep_err = F->err;
    F->err = &scratch;
    bool ok = !grow(F, (void **)&S->points, &S->cappoints, S->npoints + 1,
                    sizeof *S->points) &&
              !grow(F, (void **)&S->saved, &S->capsaved, S->nsaved + n,
                    sizeof *S->saved);
    F->err = keep_err;
    if (!ok)
        return;
    S->points[S->npoints++] = (sweep_point){latch, S->nsaved, n,
                                            S->stack[0].loop};
    for (int d = 0; d < S->depth; d++)
        if (S->stack[d].v)
            S->saved[S->nsaved++] = S->stack[d];
}

void uf__nrt_loop_leave(uf__fn *F)
{
    if (F->nrt_loops && F->nrt_loops->depth > 0)
        F->nrt_loops->depth--;
}

void uf__nrt_loops_free(uf__fn *F)
{
    struct uf__nrt_loops *S = F->nrt_loops;
    if (!S)
        return;
    uf__free(S->stack);
    uf__free(S->sites);
    uf__free(S->points);
    uf__free(S->saved);
    uf__free(S);
    F->nrt_loops = NULL;
}

/* ---- which variables may still be read ------------------------------ */

/* The statements in the order the body's walk visits them (each before
 * those nested in it): seq, and for every variable the last statement
 * naming it (its own expressions: targets, values, conditions, a for's
 * iterable). A variable no statement from the outermost loop around a
 * latch on names cannot be read again once the loop is entered (code
 * before that loop never runs again): what it points into need not be
 * kept. The joins' assignments (ssa_joins.c) are statements too, so `v =
 * np.zeros(2)` fed into the loop's join before the loop is dead inside. */
typedef struct last_use {
    const uf__typed_func *tf;
    int seq;
    int *last;               /* per variable, -1: never named */
    const uf__stmt **loops;  /* loop statements and their seq */
    int *loop_seq;
    int nloops, cap;
    bool failed;
} last_use;

static int name_use(const uf__expr *e, void *ud)
{
    last_use *U = ud;
    if (e->kind == UF__EX_NAME) {
        int v = uf__typed_var(U->tf, e->u.name.id);
        if (v >= 0)
            U->last[v] = U->seq;
    }
    return uf__ast_children(e, name_use, ud);
}

static int stmt_use(uf__stmt *s, void *ud)
{
    last_use *U = ud;
    U->seq++;
    if (s->kind == UF__ST_FOR || s->kind == UF__ST_WHILE) {
        if (U->nloops == U->cap) {
            int c = U->cap ? 2 * U->cap : 8;
            const uf__stmt **l = uf__realloc(U->loops, (size_t)c,
                                             sizeof *l, NULL);
            int *q = l ? uf__realloc(U->loop_seq, (size_t)c, sizeof *q,
                                     NULL)
                       : NULL;
            if (l)
                U->loops = l;
            if (!q) {
                U->failed = true;
                return 1;
            }
            U->loop_seq = q;
            U->cap = c;
        }
        U->loops[U->nloops] = s;
        U->loop_seq[U->nloops++] = U->seq;
    }
    return uf__ast_stmt_exprs(s, name_use, ud);
}

/* The seq of loop statement s, or 0 (unknown: every variable counts). */
static int seq_of(const last_use *U, const uf__stmt *s)
{
    for (int k = 0; k < U->nloops; k++)
        if (U->loops[k] == s)
            return U->loop_seq[k];
    return 0;
}

/* How many arrays a value of type t holds. */
static int array_count(const uf__type *t)
{
    if (t == NULL)
        return 0;
    if (t->kind == UF__T_ARRAY)
        return 1;
    if (t->kind == UF__T_LIST || t->kind == UF__T_DICT ||
        t->kind == UF__T_SET) /* the header, and a mark (its strings) or a
                                 mark and a descriptor (lower_list_nest.c) */
        return uf__list_root_slots(t);
    if (t->kind == UF__T_USTR)
        return 1;
    int n = 0;
    if (t->kind == UF__T_TUPLE)
        for (int i = 0; i < t->n; i++)
            n += array_count(t->elts[i]);
    return n;
}

/* The sweep at the start of p's latch: the live data pointers into
 * keep[], then uf__nrt_sweep. */
static int emit_sweep(uf__fn *F, const sweep_point *p, LLVMValueRef keep,
                      LLVMValueRef *ptrs, int cap, const last_use *U)
{
    LLVMValueRef first = LLVMGetFirstInstruction(p->latch);
    if (!first)
        return 0;
    LLVMPositionBuilderBefore(B, first);
    const uf__typed_func *tf = F->tf;
    int n = 0;
    int from = U ? seq_of(U, p->outermost) : 0;
    for (int i = 0; i < tf->nvars; i++) {
        const uf__type *t = tf->vars[i].type;
        if (!F->vars[i] || !uf__type_holds_array(t))
            continue;
        if (from > 0 && U->last[i] < from)
            continue; /* never read again once the loop is entered */
        LLVMTypeRef ty = uf__lower_type(F->L, t, F->err);
        if (!ty)
            return F->err->code;
        LLVMValueRef v = LLVMBuildLoad2(B, ty, F->vars[i], "");
        uf__lower_array_pointers(F, v, t, ptrs, &n, cap);
    }
    const iter_arr *it = F->nrt_loops->saved + p->first;
    for (int k = 0; k < p->n; k++)
        uf__lower_array_pointers(F, it[k].v, it[k].t, ptrs, &n, cap);
    LLVMContextRef ctx = F->L->ctx;
    LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(ctx), 0);
    LLVMTypeRef i64 = LLVMInt64TypeInContext(ctx);
    LLVMValueRef base = keep ? LLVMBuildPointerCast(
                                   B, keep, LLVMPointerType(i8p, 0), "")
                             : LLVMConstNull(LLVMPointerType(i8p, 0));
    for (int k = 0; k < n; k++) {
        LLVMValueRef ix = LLVMConstInt(i64, (unsigned long long)k, 0);
        LLVMBuildStore(B, ptrs[k],
                       LLVMBuildInBoundsGEP2(B, i8p, base, &ix, 1, ""));
    }
    LLVMValueRef args[3] = {
        LLVMBuildPointerCast(B, F->nrt_frame, LLVMPointerType(i8p, 0), ""),
        base, LLVMConstInt(i64, (unsigned long long)n, 0)};
    LLVMTypeRef pt[3] = {LLVMTypeOf(args[0]), LLVMTypeOf(args[1]), i64};
    LLVMTypeRef fty = LLVMFunctionType(LLVMVoidTypeInContext(ctx), pt, 3, 0);
    LLVMValueRef fn = F->L->cg->helper(F->L, UF__NRT_SWEEP, fty);
    LLVMBuildCall2(B, fty, fn, args, 3, "");
    return 0;
}

int uf__nrt_loops_finish(uf__fn *F)
{
    struct uf__nrt_loops *S = F->nrt_loops;
    if (!S || S->npoints == 0 || !F->nrt_frame || !F->tf)
        return 0;
    int cap = 0, most = 0;
    for (int i = 0; i < F->tf->nvars; i++)
        if (F->vars[i])
            cap += array_count(F->tf->vars[i].type);
    for (int k = 0; k < S->npoints; k++) {
        int n = 0;
        for (int j = 0; j < S->points[k].n; j++)
            n += array_count(S->saved[S->points[k].first + j].t);
        most = n > most ? n : most;
    }
    cap += most;
    LLVMValueRef *ptrs = NULL;
    LLVMValueRef keep = NULL;
    if (cap > 0) {
        if (!(ptrs = uf__calloc((size_t)cap, sizeof *ptrs, F->err)))
            return UF_ERR_NOMEM;
        LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(F->L->ctx),
                                          0);
        keep = uf__fn_alloca(F, LLVMArrayType(i8p, (unsigned)cap),
                             "nrt.live");
    }
    /* without the uses (out of memory), every variable is kept */
    last_use U = {.tf = F->tf};
    const uf__block *body = &F->tf->decl->def->u.funcdef.body;
    bool uses = (U.last = uf__calloc((size_t)F->tf->nvars + 1,
                                     sizeof *U.last, NULL)) != NULL;
    for (int i = 0; uses && i < F->tf->nvars; i++)
        U.last[i] = -1;
    if (uses)
        uses = uf__ast_walk_stmts(body, stmt_use, &U) == 0 && !U.failed;
    int rc = 0;
    for (int k = 0; k < S->npoints && rc == 0; k++)
        rc = emit_sweep(F, &S->points[k], keep, ptrs, cap, uses ? &U : NULL);
    uf__free(U.last);
    uf__free(U.loops);
    uf__free(U.loop_seq);
    uf__free(ptrs);
    return rc;
}
