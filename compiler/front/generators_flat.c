/* Generator objects kept in variables (issue 18): what inlining into one
 * loop (generators.c) cannot do. Numba compiles a generator into a state
 * machine: an object holding the resume point and every local, and a
 * next function jumping to the point after the last yield. ufjit builds
 * the same machine in the def using the object, as Python:
 *
 *   def g(n):              it = g(m)  ->  n$y0 = m; pc$y0 = 0
 *       for i in range(n):
 *           yield i * i    next(it)   ->  has$y0 = False
 *                                         while True:
 *                                             if pc$y0 == 0:
 *                                                 lo0$y0 = 0; ...; pc$y0 = 1
 *                                             if pc$y0 == 1:    (loop head)
 *                                                 if ix0$y0 < count0$y0:
 *                                                     pc$y0 = 2
 *                                                 else: pc$y0 = 4
 *                                             if pc$y0 == 2:
 *                                                 i$y0 = lo0$y0 + ...
 *                                                 val$y0 = i$y0 * i$y0
 *                                                 pc$y0 = 3
 *                                                 has$y0 = True; break
 *                                             if pc$y0 == 3: pc$y0 = 1
 *                                             ...
 *                                         if not has$y0:
 *                                             raise StopIteration(...)
 *                                         next0$y0 = val$y0
 *
 * g's body is cut into blocks at each yield, if, loop and jump (its
 * for-range loops become counted loops), each block ending by setting the
 * resume index pc$y<k>; g's locals are the def's, renamed, so whatever
 * they hold (arrays, lists) lives as long as the def's locals do and is
 * released as theirs are. `for T in it` and `for T in zip(g1(...),
 * g2(...))` step each generator once per pass (generators_step.c). The
 * object itself never leaves the def: one passed in a call runs in a
 * copy of the callee (generators_pass.c); returning one stays refused. */
#include <stdio.h>
#include <string.h>

#include "compiler/front/ast_visit.h"
#include "compiler/front/generators_internal.h"

static bool to_block(uf__gen_ctx *G, const uf__gen_out *o, uf__block *b)
{
    return uf__gen_block(G, o->v, o->n, b);
}

static int nomem(uf__gen_ctx *G)
{
    (void)G;
    return -1;
}

static bool is_yield_stmt(const uf__stmt *s)
{
    return s->kind == UF__ST_EXPR && uf__gen_is_call_of(s->u.expr.value,
                                                UF__YIELD_NAME);
}

static int find_exit(uf__stmt *s, void *ud)
{
    (void)ud;
    return is_yield_stmt(s) || s->kind == UF__ST_RETURN;
}

/* a yield or return in b or the blocks nested in it */
static bool has_exit(const uf__block *b)
{
    return uf__ast_walk_stmts(b, find_exit, NULL) != 0;
}

static uf__expr *compare(uf__gen_ctx *G, uf__expr *l, uf__cmpop op,
                         uf__expr *r, uf__pos at)
{
    uf__expr *c = uf__gen_expr(G, UF__EX_COMPARE, at);
    uf__expr **ops = uf__arena_alloc(G->arena, 2, sizeof *ops, G->err);
    uf__cmpop *cops = uf__arena_alloc(G->arena, 1, sizeof *cops, G->err);
    if (c == NULL || ops == NULL || cops == NULL || l == NULL || r == NULL)
        return NULL;
    ops[0] = l;
    ops[1] = r;
    cops[0] = op;
    c->u.compare.operands = ops;
    c->u.compare.ops = cops;
    c->u.compare.nops = 1;
    return c;
}

uf__expr *uf__gen_not(uf__gen_ctx *G, uf__expr *e, uf__pos at)
{
    uf__expr *no = uf__gen_expr(G, UF__EX_UNARY, at);
    if (no == NULL || e == NULL)
        return NULL;
    no->u.unary.op = UF__OP_NOT;
    no->u.unary.operand = e;
    return no;
}

uf__stmt *uf__gen_if(uf__gen_ctx *G, uf__expr *cond, uf__stmt **body,
                         int n, uf__pos at)
{
    uf__stmt *s = uf__gen_stmt(G, UF__ST_IF, at);
    if (s == NULL || cond == NULL || !uf__gen_block(G, body, n, &s->u.if_.body)
        || !uf__gen_block(G, NULL, 0, &s->u.if_.orelse))
        return NULL;
    s->u.if_.cond = cond;
    return s;
}

/* ---- g's body cut into blocks --------------------------------------------- */

/* Blocks run in a `while True` of `if pc == i:` in the order they were
 * first written (the source's), a jump forward falling through to its
 * block in the same pass: the definite-assignment scan (Numba's rule: an
 * assignment reaching a read along a path not round a loop) then sees
 * g's locals assigned before their reads, as in g. */
typedef struct fixup {
    uf__expr *lit; /* an int literal naming block `block` */
    int block;
} fixup;

typedef struct flat {
    uf__gen_ctx *G;
    const uf__stmt *def;
    int k;
    const char *pc, *has, *val;
    uf__gen_out *blocks;
    int nblocks, cap;
    int *layout; /* blocks in the order first written */
    int nlayout;
    fixup *fix;
    int nfix, fixcap;
    int cur;   /* the block being written */
    int nfor;  /* for loops so far: their counters' names */
} flat;

enum { ENTRY = 0, END = 1 };

static int new_block(flat *F)
{
    if (F->nblocks == F->cap) {
        int cap = F->cap ? 2 * F->cap : 8;
        uf__gen_out *v = uf__arena_alloc(F->G->arena, (size_t)cap, sizeof *v,
                                  F->G->err);
        int *l = uf__arena_alloc(F->G->arena, (size_t)cap, sizeof *l,
                                 F->G->err);
        if (v == NULL || l == NULL)
            return -1;
        if (F->nblocks) {
            memcpy(v, F->blocks, (size_t)F->nblocks * sizeof *v);
            memcpy(l, F->layout, (size_t)F->nlayout * sizeof *l);
        }
        F->blocks = v;
        F->layout = l;
        F->cap = cap;
    }
    F->blocks[F->nblocks] = (uf__gen_out){0};
    return F->nblocks++;
}

/* b becomes the block being written (each is begun once) */
static void begin(flat *F, int b)
{
    F->cur = b;
    F->layout[F->nlayout++] = b;
}

static bool put(flat *F, uf__stmt *s)
{
    return uf__gen_emit(F->G, &F->blocks[F->cur], s);
}

static uf__expr *block_no(flat *F, int b, uf__pos at)
{
    uf__gen_ctx *G = F->G;
    uf__expr *e = uf__gen_int(G, 0, at);
    if (e == NULL)
        return NULL;
    if (F->nfix == F->fixcap) {
        int cap = F->fixcap ? 2 * F->fixcap : 16;
        fixup *v = uf__arena_alloc(G->arena, (size_t)cap, sizeof *v, G->err);
        if (v == NULL)
            return NULL;
        if (F->nfix)
            memcpy(v, F->fix, (size_t)F->nfix * sizeof *v);
        F->fix = v;
        F->fixcap = cap;
    }
    F->fix[F->nfix++] = (fixup){e, b};
    return e;
}

static uf__stmt *set_pc(flat *F, int to, uf__pos at)
{
    return uf__gen_assign(F->G, uf__gen_name(F->G, F->pc, at),
                          block_no(F, to, at), at);
}

/* `pc = to` ending the current block: the dispatch runs `to` next */
static bool jump(flat *F, int to, uf__pos at)
{
    return put(F, set_pc(F, to, at));
}

/* `if cond: pc = t else: pc = e` ending the current block */
static bool branch(flat *F, uf__expr *cond, int t, int e, uf__pos at)
{
    uf__stmt *then = set_pc(F, t, at), *els = set_pc(F, e, at);
    uf__stmt *s = uf__gen_if(F->G, cond, &then, 1, at);
    if (s == NULL || els == NULL ||
        !uf__gen_block(F->G, &els, 1, &s->u.if_.orelse))
        return false;
    return put(F, s);
}

typedef struct loop_ctx {
    int brk, cont; /* the blocks a break and a continue go to; -1 none */
} loop_ctx;

/* The own breaks and continues of a statement kept whole (in its ifs,
 * not in loops nested in it) leave a loop that was cut into blocks:
 * `pc = to; continue` (the dispatch's continue). */
static bool retarget(flat *F, uf__block *b, const loop_ctx *L)
{
    uf__gen_out o = {0};
    for (int i = 0; i < b->n; i++) {
        uf__stmt *s = b->stmts[i];
        if (s->kind == UF__ST_BREAK || s->kind == UF__ST_CONTINUE) {
            if (!uf__gen_emit(F->G, &o, set_pc(F, s->kind == UF__ST_BREAK ? L->brk
                                                                  : L->cont,
                                       s->pos)) ||
                !uf__gen_emit(F->G, &o, uf__gen_stmt(F->G, UF__ST_CONTINUE, s->pos)))
                return false;
            continue;
        }
        if (s->kind == UF__ST_IF &&
            (!retarget(F, &s->u.if_.body, L) ||
             !retarget(F, &s->u.if_.orelse, L)))
            return false;
        if (!uf__gen_emit(F->G, &o, s))
            return false;
    }
    b->stmts = o.v;
    b->n = o.n;
    return true;
}

static int flatten(flat *F, const uf__block *b, const loop_ctx *L);

static int flat_if(flat *F, uf__stmt *s, const loop_ctx *L)
{
    uf__gen_ctx *G = F->G;
    if (s->u.if_.is_try)
        return uf__gen_refuse(G, UF_ERR_UNSUPPORTED, s->pos, "'yield' or 'return' "
                      "inside try/except in generator %s() used as an "
                      "object (next(), zip() of generators) is not "
                      "supported", F->def->u.funcdef.name);
    int t = new_block(F), e = new_block(F), j = new_block(F);
    if (t < 0 || e < 0 || j < 0 || !branch(F, s->u.if_.cond, t, e, s->pos))
        return nomem(G);
    int rc;
    begin(F, t);
    if ((rc = flatten(F, &s->u.if_.body, L)))
        return rc;
    if (!jump(F, j, s->pos))
        return nomem(G);
    begin(F, e);
    if ((rc = flatten(F, &s->u.if_.orelse, L)))
        return rc;
    if (!jump(F, j, s->pos))
        return nomem(G);
    begin(F, j);
    return 0;
}

/* The loop's body (begun by the caller, after its head), the jump back
 * to head, its else block and the block after it. */
static int flat_loop_rest(flat *F, const uf__block *body,
                          const uf__block *orelse, int head, int els,
                          int end, const loop_ctx *outer, uf__pos at)
{
    loop_ctx L = {end, head};
    int rc = flatten(F, body, &L);
    if (rc)
        return rc;
    if (!jump(F, head, at))
        return nomem(F->G);
    if (els != end) {
        begin(F, els);
        if ((rc = flatten(F, orelse, outer)))
            return rc;
        if (!jump(F, end, at))
            return nomem(F->G);
    }
    begin(F, end);
    return 0;
}

static int flat_while(flat *F, uf__stmt *s, const loop_ctx *outer)
{
    uf__gen_ctx *G = F->G;
    int head = new_block(F), body = new_block(F), end = new_block(F);
    int els = s->u.while_.orelse.n ? new_block(F) : end;
    if (head < 0 || body < 0 || end < 0 || els < 0 || !jump(F, head, s->pos))
        return nomem(G);
    begin(F, head);
    if (!branch(F, s->u.while_.cond, body, els, s->pos))
        return nomem(G);
    begin(F, body);
    return flat_loop_rest(F, &s->u.while_.body, &s->u.while_.orelse, head,
                          els, end, outer, s->pos);
}

/* for T in range(a, b, c): counted, a and c kept, T = lo + ix * step */
static int flat_for(flat *F, uf__stmt *s, const loop_ctx *outer)
{
    uf__gen_ctx *G = F->G;
    uf__expr *it = s->u.for_.iter;
    uf__pos at = s->pos;
    if (!uf__gen_is_call_of(it, "range") || it->u.call.nkw || it->u.call.starred ||
        it->u.call.nargs < 1 || it->u.call.nargs > 3)
        return uf__gen_refuse(G, UF_ERR_UNSUPPORTED, it->pos, "generator %s() is "
                      "used as an object (next(), zip() of generators): "
                      "ufjit compiles its loops holding a yield only over "
                      "range()", F->def->u.funcdef.name);
    int n = it->u.call.nargs, j = F->nfor++;
    char what[32];
    const char *names[5];
    static const char *const stem[5] = {"lo", "hi", "step", "ix", "count"};
    for (int i = 0; i < 5; i++) {
        snprintf(what, sizeof what, "%s%d", stem[i], j);
        if ((names[i] = uf__gen_temp(G, what, F->k)) == NULL)
            return nomem(G);
    }
    uf__expr *v[3] = {n > 1 ? it->u.call.args[0] : uf__gen_int(G, 0, at),
                      it->u.call.args[n > 1 ? 1 : 0],
                      n > 2 ? it->u.call.args[2] : uf__gen_int(G, 1, at)};
    for (int i = 0; i < 3; i++)
        if (!put(F, uf__gen_assign(G, uf__gen_name(G, names[i], at), v[i],
                                   at)))
            return nomem(G);
    /* count = len(range(lo, hi, step)) */
    uf__expr *r3[3] = {uf__gen_name(G, names[0], at),
                       uf__gen_name(G, names[1], at),
                       uf__gen_name(G, names[2], at)};
    uf__expr *r = uf__gen_call(G, "range", r3, 3, at);
    if (!put(F, uf__gen_assign(G, uf__gen_name(G, names[4], at),
                               uf__gen_call(G, "len", &r, 1, at), at)) ||
        !put(F, uf__gen_assign(G, uf__gen_name(G, names[3], at),
                               uf__gen_int(G, 0, at), at)))
        return nomem(G);
    int head = new_block(F), body = new_block(F), end = new_block(F);
    int els = s->u.for_.orelse.n ? new_block(F) : end;
    if (head < 0 || body < 0 || end < 0 || els < 0 || !jump(F, head, at))
        return nomem(G);
    begin(F, head);
    if (!branch(F, compare(G, uf__gen_name(G, names[3], at), UF__CMP_LT,
                           uf__gen_name(G, names[4], at), at),
                body, els, at))
        return nomem(G);
    begin(F, body);
    uf__stmt *inc = uf__gen_stmt(G, UF__ST_AUGASSIGN, at);
    if (inc == NULL ||
        (inc->u.augassign.target = uf__gen_name(G, names[3], at)) == NULL ||
        (inc->u.augassign.value = uf__gen_int(G, 1, at)) == NULL)
        return nomem(G);
    inc->u.augassign.op = UF__OP_ADD;
    uf__expr *elem = uf__gen_binary(
        G, UF__OP_ADD, uf__gen_name(G, names[0], at),
        uf__gen_binary(G, UF__OP_MUL, uf__gen_name(G, names[3], at),
                       uf__gen_name(G, names[2], at), at),
        at);
    if (!put(F, uf__gen_assign(G, s->u.for_.target, elem, at)) ||
        !put(F, inc))
        return nomem(G);
    return flat_loop_rest(F, &s->u.for_.body, &s->u.for_.orelse, head, els,
                          end, outer, at);
}

/* a jump ends the block: what follows it in g's source is dead */
static int jump_away(flat *F, int to, uf__pos at)
{
    int dead = new_block(F);
    if (dead < 0 || !jump(F, to, at))
        return nomem(F->G);
    begin(F, dead);
    return 0;
}

static int flat_stmt(flat *F, uf__stmt *s, const loop_ctx *L)
{
    uf__gen_ctx *G = F->G;
    if (is_yield_stmt(s)) {
        const uf__expr *y = s->u.expr.value;
        if (y->u.call.nargs == 0)
            return uf__gen_refuse(G, UF_ERR_UNSUPPORTED, s->pos, "a bare 'yield' "
                          "(a None value) in generator %s() used as an "
                          "object is not supported", F->def->u.funcdef.name);
        int next = new_block(F);
        if (next < 0 ||
            !put(F, uf__gen_assign(G, uf__gen_name(G, F->val, s->pos),
                                   y->u.call.args[0], s->pos)) ||
            !put(F, set_pc(F, next, s->pos)) ||
            !put(F, uf__gen_assign(G, uf__gen_name(G, F->has, s->pos),
                                   uf__gen_bool(G, true, s->pos), s->pos)) ||
            !put(F, uf__gen_stmt(G, UF__ST_BREAK, s->pos)))
            return nomem(G);
        begin(F, next);
        return 0;
    }
    switch (s->kind) {
    case UF__ST_RETURN: /* ends the generator; a value is dropped */
        return jump_away(F, END, s->pos);
    case UF__ST_BREAK:
    case UF__ST_CONTINUE:
        if (L->brk >= 0)
            return jump_away(F, s->kind == UF__ST_BREAK ? L->brk : L->cont,
                             s->pos);
        break;
    case UF__ST_IF:
        if (has_exit(&s->u.if_.body) || has_exit(&s->u.if_.orelse))
            return flat_if(F, s, L);
        if (L->brk >= 0 && (!retarget(F, &s->u.if_.body, L) ||
                            !retarget(F, &s->u.if_.orelse, L)))
            return nomem(G);
        break;
    case UF__ST_WHILE:
        if (has_exit(&s->u.while_.body) || has_exit(&s->u.while_.orelse))
            return flat_while(F, s, L);
        break;
    case UF__ST_FOR:
        if (has_exit(&s->u.for_.body) || has_exit(&s->u.for_.orelse))
            return flat_for(F, s, L);
        break;
    default:
        break;
    }
    return put(F, s) ? 0 : nomem(G);
}

static int flatten(flat *F, const uf__block *b, const loop_ctx *L)
{
    for (int i = 0; i < b->n; i++) {
        int rc = flat_stmt(F, b->stmts[i], L);
        if (rc)
            return rc;
    }
    return 0;
}

int uf__gen_step_code(uf__gen_ctx *G, const uf__stmt *def, int k,
                      uf__pos at, uf__stmt **out)
{
    uf__gen_names locals = {0};
    for (int i = 0; i < def->u.funcdef.nparams; i++)
        if (!uf__gen_names_add(G, &locals, def->u.funcdef.params[i].name))
            return nomem(G);
    if (!uf__gen_stored_names(G, &def->u.funcdef.body, &locals))
        return nomem(G);
    uf__gen_rename R = {&locals, k};
    uf__block body;
    if (!uf__gen_copy_block(G, &def->u.funcdef.body, &R, &body))
        return nomem(G);
    flat F = {0};
    F.G = G;
    F.def = def;
    F.k = k;
    F.pc = uf__gen_temp(G, "pc", k);
    F.has = uf__gen_temp(G, "has", k);
    F.val = uf__gen_temp(G, "val", k);
    if (F.pc == NULL || F.has == NULL || F.val == NULL ||
        new_block(&F) != ENTRY || new_block(&F) != END ||
        !uf__gen_emit(G, &F.blocks[END], uf__gen_stmt(G, UF__ST_BREAK, at)))
        return nomem(G);
    begin(&F, ENTRY);
    loop_ctx none = {-1, -1};
    int rc = flatten(&F, &body, &none);
    if (rc)
        return rc;
    if (!jump(&F, END, at))
        return nomem(G);
    F.layout[F.nlayout++] = END;
    /* block numbers are their places in the layout (ENTRY stays 0) */
    int *place = uf__arena_alloc(G->arena, (size_t)F.nblocks, sizeof *place,
                                 G->err);
    uf__gen_out ifs = {0};
    if (place == NULL)
        return nomem(G);
    for (int i = 0; i < F.nlayout; i++)
        place[F.layout[i]] = i;
    for (int i = 0; i < F.nfix; i++)
        F.fix[i].lit->u.i.value = (uint64_t)place[F.fix[i].block];
    for (int i = 0; i < F.nlayout; i++) {
        const uf__gen_out *b = &F.blocks[F.layout[i]];
        uf__stmt *s = uf__gen_if(G, compare(G, uf__gen_name(G, F.pc, at),
                                         UF__CMP_EQ,
                                         uf__gen_int(G, (uint64_t)i, at), at),
                              b->v, b->n, at);
        if (!uf__gen_emit(G, &ifs, s))
            return nomem(G);
    }
    uf__stmt *loop = uf__gen_stmt(G, UF__ST_WHILE, at);
    if (loop == NULL ||
        (loop->u.while_.cond = uf__gen_bool(G, true, at)) == NULL ||
        !to_block(G, &ifs, &loop->u.while_.body) ||
        !uf__gen_block(G, NULL, 0, &loop->u.while_.orelse) ||
        (out[0] = uf__gen_assign(G, uf__gen_name(G, F.has, at),
                                 uf__gen_bool(G, false, at), at)) == NULL)
        return nomem(G);
    out[1] = loop;
    return 0;
}
