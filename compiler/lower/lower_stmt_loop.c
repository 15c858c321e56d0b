/* The loop statements of a kernel body: while (with its tests pruned or
 * not), for over range(), arrays, homogeneous tuples, lists and the
 * iterators of lower_npiter.c, with Python's semantics (negative steps,
 * empty ranges, for/else, while/else), break and continue targets. Split
 * from lower.c, which lowers the other statements. */
#include <string.h>

#include "common/alloc.h"
#include "common/error_internal.h"
#include "compiler/lower/lower_array.h"
#include "compiler/lower/lower_arraycall.h"
#include "compiler/lower/lower_stmt.h"
#include "compiler/types/index_kinds.h"

#define B (F->L->b)

static int push_loop(uf__fn *F, LLVMBasicBlockRef brk, LLVMBasicBlockRef cont)
{
    if (F->nloops == F->caploops) {
        int cap = F->caploops ? 2 * F->caploops : 8;
        uf__loop_targets *n = uf__realloc(F->loops, (size_t)cap, sizeof *n,
                                          F->err);
        if (!n)
            return UF_ERR_NOMEM;
        F->loops = n;
        F->caploops = cap;
    }
    F->loops[F->nloops].brk = brk;
    F->loops[F->nloops].cont = cont;
    F->nloops++;
    return 0;
}

int uf__lower_push_loop(uf__fn *F, LLVMBasicBlockRef brk,
                        LLVMBasicBlockRef cont)
{
    return push_loop(F, brk, cont);
}

/* while c with its test pruned on entry (truth) or at the end of the
 * body (truth_end, infer_prune.c): the two tests get blocks of their own,
 * continue goes to the first as in CPython. */
static int lower_while_pruned(uf__fn *F, const uf__stmt *s)
{
    const uf__expr *ce = s->u.while_.cond;
    signed char top = uf__lower_info(F, ce)->truth;
    signed char end_t = uf__lower_info(F, ce)->truth_end;
    int rc = 0;
    if (top < 0) { /* never entered */
        if ((rc = uf__lower_decided(F, ce)) != 0)
            return rc;
        return uf__lower_block(F, &s->u.while_.orelse);
    }
    LLVMBasicBlockRef cond = uf__fn_block(F, "while.cond");
    LLVMBasicBlockRef body = uf__fn_block(F, "while.body");
    LLVMBasicBlockRef again = uf__fn_block(F, "while.again");
    LLVMBasicBlockRef els = uf__fn_block(F, "while.else");
    LLVMBasicBlockRef end = uf__fn_block(F, "while.end");
    if ((rc = uf__nrt_loop_enter(F, s, NULL, NULL)) != 0)
        return rc;
    LLVMBuildBr(B, cond);
    LLVMPositionBuilderAtEnd(B, cond);
    if (top == 0) {
        LLVMValueRef c = uf__lower_truth_of(F, ce);
        if (!c)
            return F->err->code;
        LLVMBuildCondBr(B, c, body, els);
    } else {
        if ((rc = uf__lower_decided(F, ce)) != 0)
            return rc;
        LLVMBuildBr(B, body);
    }
    LLVMPositionBuilderAtEnd(B, body);
    if ((rc = push_loop(F, end, cond)) != 0)
        return rc;
    rc = uf__lower_block(F, &s->u.while_.body);
    F->nloops--;
    if (rc != 0)
        return rc;
    if (!uf__lower_terminated(F))
        LLVMBuildBr(B, again);
    /* continue goes to cond, the end of the body to again */
    uf__nrt_loop_latch(F, cond);
    uf__nrt_loop_latch(F, again);
    uf__nrt_loop_leave(F);
    LLVMPositionBuilderAtEnd(B, again);
    if (end_t == 0 && uf__block_falls_through(F->tf, &s->u.while_.body)) {
        LLVMValueRef c = uf__lower_truth_of(F, ce);
        if (!c)
            return F->err->code;
        LLVMBuildCondBr(B, c, body, els);
    } else {
        if (end_t != 0 && (rc = uf__lower_decided(F, ce)) != 0)
            return rc;
        LLVMBuildBr(B, end_t < 0 ? els : body);
    }
    LLVMPositionBuilderAtEnd(B, els);
    if (uf__while_else_live(F->tf, s) &&
        (rc = uf__lower_block(F, &s->u.while_.orelse)) != 0)
        return rc;
    if (!uf__lower_terminated(F))
        LLVMBuildBr(B, end);
    LLVMPositionBuilderAtEnd(B, end);
    return 0;
}

/* while c: body / else: orelse (else runs when c turns false, not after
 * a break) */
int uf__lower_while(uf__fn *F, const uf__stmt *s)
{
    const uf__expr_info *ci = uf__lower_info(F, s->u.while_.cond);
    if (ci->truth != 0 || ci->truth_end != 0)
        return lower_while_pruned(F, s);
    LLVMBasicBlockRef cond = uf__fn_block(F, "while.cond");
    LLVMBasicBlockRef body = uf__fn_block(F, "while.body");
    LLVMBasicBlockRef els = uf__fn_block(F, "while.else");
    LLVMBasicBlockRef end = uf__fn_block(F, "while.end");
    int rc = uf__nrt_loop_enter(F, s, NULL, NULL);
    if (rc != 0)
        return rc;
    LLVMBuildBr(B, cond);
    LLVMPositionBuilderAtEnd(B, cond);
    LLVMValueRef c = uf__lower_truth_of(F, s->u.while_.cond);
    if (!c)
        return F->err->code;
    LLVMBuildCondBr(B, c, body, els);
    LLVMPositionBuilderAtEnd(B, body);
    rc = push_loop(F, end, cond);
    if (rc != 0)
        return rc;
    rc = uf__lower_block(F, &s->u.while_.body);
    F->nloops--;
    if (rc != 0)
        return rc;
    if (!uf__lower_terminated(F))
        LLVMBuildBr(B, cond);
    uf__nrt_loop_latch(F, cond);
    uf__nrt_loop_leave(F);
    LLVMPositionBuilderAtEnd(B, els);
    if ((rc = uf__lower_block(F, &s->u.while_.orelse)) != 0)
        return rc;
    if (!uf__lower_terminated(F))
        LLVMBuildBr(B, end);
    LLVMPositionBuilderAtEnd(B, end);
    return 0;
}

/* A loop of cnt iterations k = 0, 1, ...: the variable vi gets
 * start + k*step (range) or arr[k] (arrays) before each. */
typedef struct counted {
    LLVMValueRef cnt, start, step;
    uf_dtype rt;         /* range: the dtype start/step are computed in */
    LLVMValueRef arr;    /* arrays: the array and its type */
    const uf__type *at;
    LLVMValueRef tup;    /* tuples: a stack copy of the items, [n x T] */
    LLVMTypeRef tupty;
} counted;

static int counted_loop(uf__fn *F, const uf__stmt *s, int vi,
                        const counted *c)
{
    LLVMTypeRef i64 = LLVMInt64TypeInContext(F->L->ctx);
    LLVMValueRef zero = LLVMConstNull(i64), one = LLVMConstInt(i64, 1, 0);
    const uf__type *vt = F->tf->vars[vi].type;
    LLVMValueRef kp = uf__fn_alloca(F, i64, "k");
    LLVMBuildStore(B, zero, kp);
    LLVMBasicBlockRef hdr = uf__fn_block(F, "for.cond");
    LLVMBasicBlockRef body = uf__fn_block(F, "for.body");
    LLVMBasicBlockRef latch = uf__fn_block(F, "for.next");
    LLVMBasicBlockRef els = uf__fn_block(F, "for.else");
    LLVMBasicBlockRef end = uf__fn_block(F, "for.end");
    /* np.array(l) of the list this loop fills: its array, before the
     * loop's sweeps count what the loop allocates (lower_arraycall.c) */
    int rc = c->cnt ? uf__arraycall_open(F, s, c->cnt, kp) : 0;
    if (rc != 0 || (rc = uf__nrt_loop_enter(F, s, c->arr, c->at)) != 0)
        return rc;
    LLVMBuildBr(B, hdr);
    LLVMPositionBuilderAtEnd(B, hdr);
    LLVMValueRef k = LLVMBuildLoad2(B, i64, kp, "k");
    bool list = c->at && c->at->kind == UF__T_LIST;
    bool str = c->at && c->at->kind == UF__T_USTR;
    /* a list's length is read again before each item, as Numba's list
     * iterator does (the body may append) */
    LLVMValueRef cnt = list ? uf__emit_list_len(F, c->arr) : c->cnt;
    LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntULT, k, cnt, ""), body, els);
    LLVMPositionBuilderAtEnd(B, body);
    LLVMValueRef v;
    if (str) { /* for c in s: its characters (lower_ustr.c) */
        if (!(v = uf__lower_ustr_char_at(F, c->arr, k)))
            return F->err->code;
    } else if (list) {
        const uf__type *item = c->at->elts[0];
        v = uf__lower_list_item(F, c->arr, c->at, k);
        if (!v)
            return F->err->code;
        if (!(v = uf__emit_convert(F, v, item, vt)))
            return F->err->code;
    } else if (c->tup) {
        LLVMValueRef gi[2] = {zero, k};
        v = LLVMBuildLoad2(B, LLVMGetElementType(c->tupty),
                           LLVMBuildInBoundsGEP2(B, c->tupty, c->tup, gi, 2,
                                                 ""),
                           "");
        if (!(v = uf__emit_convert(F, v, c->at->elts[0], vt)))
            return F->err->code;
    } else if (c->arr) {
        const uf__type *item = uf__array_item_type(F->tf->km->tc, c->at,
                                                   F->err);
        if (!item)
            return F->err->code;
        v = uf__emit_array_item(F, c->arr, c->at, k);
        if (!(v = uf__emit_convert(F, v, item, vt)))
            return F->err->code;
    } else {
        v = LLVMBuildAdd(B, c->start, LLVMBuildMul(B, k, c->step, ""), "");
        v = uf__emit_cast(F, v, c->rt, vt->dtype);
    }
    LLVMBuildStore(B, v, F->vars[vi]);
    rc = push_loop(F, end, latch);
    if (rc != 0)
        return rc;
    rc = uf__lower_block(F, &s->u.for_.body);
    F->nloops--;
    if (rc != 0)
        return rc;
    if (!uf__lower_terminated(F))
        LLVMBuildBr(B, latch);
    uf__nrt_loop_latch(F, latch);
    uf__nrt_loop_leave(F);
    LLVMPositionBuilderAtEnd(B, latch);
    LLVMBuildStore(B, LLVMBuildAdd(B, LLVMBuildLoad2(B, i64, kp, ""), one, ""),
                   kp);
    LLVMBuildBr(B, hdr);
    LLVMPositionBuilderAtEnd(B, els);
    if ((rc = uf__lower_block(F, &s->u.for_.orelse)) != 0)
        return rc;
    if (!uf__lower_terminated(F))
        LLVMBuildBr(B, end);
    LLVMPositionBuilderAtEnd(B, end);
    return 0;
}

/* An argument of range() as i64 (signed unless every argument is
 * unsigned, as Numba picks range_state64 / unsigned_range_state64). */
static LLVMValueRef range_arg(uf__fn *F, const uf__expr *e, uf_dtype as)
{
    LLVMValueRef v = uf__lower_expr(F, e);
    if (!v)
        return NULL;
    const uf__type *t = uf__lower_info(F, e)->type;
    if (!t || t->kind != UF__T_SCALAR ||
        !(uf__dtype_is_int(t->dtype) || t->dtype == UF_BOOL)) {
        uf__source_error(F->err, UF_ERR_TYPING, F->tf->km->src, e->pos,
                         "range() arguments must be integers");
        return NULL;
    }
    return uf__emit_cast(F, v, t->dtype, as);
}

static int lower_for_array(uf__fn *F, const uf__stmt *s,
                           const uf__type *at);
static int lower_for_tuple(uf__fn *F, const uf__stmt *s,
                           const uf__type *tt);

/* for v in range(start, stop, step): the trip count is computed first (in
 * unsigned arithmetic, so no overflow near the ends of the type), then v =
 * start + k*step for k in [0, n). v keeps its last value after the loop;
 * an empty range leaves it untouched. */

int uf__lower_for(uf__fn *F, const uf__stmt *s)
{
    const uf__expr *it = s->u.for_.iter;
    const uf__expr *tgt = s->u.for_.target;
    const uf__type *itt = uf__lower_info(F, it)->type;
    if (tgt->kind != UF__EX_NAME)
        return uf__lower_unsupported(F, tgt->pos, "this loop target");
    uf__builtin bi = it->kind == UF__EX_CALL ? uf__lower_info(F, it)->builtin
                                             : UF__BI_NONE;
    if (uf__builtin_is_npiter(bi)) /* np.ndindex ...: lower_npiter.c */
        return uf__lower_for_npiter(F, s);
    if (itt && itt->kind == UF__T_ARRAY)
        return lower_for_array(F, s, itt);
    if (itt && itt->kind == UF__T_TUPLE)
        return lower_for_tuple(F, s, itt);
    if (itt && itt->kind == UF__T_SET) { /* lower_set.c */
        int vi = uf__lower_find_var(F, tgt->u.name.id);
        if (vi < 0 || !F->vars[vi])
            return uf__lower_unsupported(F, tgt->pos, "this loop variable");
        return uf__lower_set_for(F, s, vi);
    }
    if (itt && itt->kind == UF__T_DICT) { /* lower_dict.c */
        int vi = uf__lower_find_var(F, tgt->u.name.id);
        if (vi < 0 || !F->vars[vi])
            return uf__lower_unsupported(F, tgt->pos, "this loop variable");
        return uf__lower_dict_for(F, s, vi);
    }
    if (itt && (itt->kind == UF__T_USTR || itt->kind == UF__T_STR)) {
        int vi = uf__lower_find_var(F, tgt->u.name.id);
        if (vi < 0 || !F->vars[vi])
            return uf__lower_unsupported(F, tgt->pos, "this loop variable");
        LLVMValueRef str = uf__lower_ustr_operand(F, it);
        if (!str)
            return F->err->code;
        LLVMTypeRef i64 = LLVMInt64TypeInContext(F->L->ctx);
        counted c = {uf__emit_ustr_len(F, str), LLVMConstNull(i64),
                     LLVMConstInt(i64, 1, 0), UF_INT64, str,
                     uf__type_ustr(F->tf->km->tc), NULL, NULL};
        return counted_loop(F, s, vi, &c);
    }
    if (itt && itt->kind == UF__T_LIST) {
        int vi = uf__lower_find_var(F, tgt->u.name.id);
        if (vi < 0 || !F->vars[vi])
            return uf__lower_unsupported(F, tgt->pos, "this loop variable");
        LLVMValueRef l = uf__lower_expr(F, it);
        if (!l)
            return F->err->code;
        LLVMTypeRef i64 = LLVMInt64TypeInContext(F->L->ctx);
        counted c = {NULL, LLVMConstNull(i64), LLVMConstInt(i64, 1, 0),
                     UF_INT64, l, itt, NULL, NULL};
        return counted_loop(F, s, vi, &c);
    }
    if (bi != UF__BI_RANGE && bi != UF__BI_PRANGE)
        return uf__lower_unsupported(F, it->pos, "iterating over anything but range() "
                                       "or an array");
    int n = it->u.call.nargs;
    if (n < 1 || n > 3 || it->u.call.nkw)
        return uf__source_error(F->err, UF_ERR_TYPING, F->tf->km->src,
                                it->pos, "range expects 1 to 3 arguments");
    bool all_unsigned = true;
    for (int i = 0; i < n; i++) {
        const uf__type *t = uf__lower_info(F, it->u.call.args[i])->type;
        if (!t || t->kind != UF__T_SCALAR ||
            uf_dtype_kind(t->dtype) != 'u')
            all_unsigned = false;
    }
    uf_dtype rt = all_unsigned ? UF_UINT64 : UF_INT64;
    LLVMTypeRef i64 = LLVMInt64TypeInContext(F->L->ctx);
    LLVMValueRef start = LLVMConstNull(i64), stop, step = LLVMConstInt(i64, 1, 0);
    if (n == 1) {
        if (!(stop = range_arg(F, it->u.call.args[0], rt)))
            return F->err->code;
    } else {
        if (!(start = range_arg(F, it->u.call.args[0], rt)) ||
            !(stop = range_arg(F, it->u.call.args[1], rt)))
            return F->err->code;
        if (n == 3 && !(step = range_arg(F, it->u.call.args[2], rt)))
            return F->err->code;
    }
    LLVMValueRef zero = LLVMConstNull(i64), one = LLVMConstInt(i64, 1, 0);
    LLVMValueRef step0 = LLVMBuildICmp(B, LLVMIntEQ, step, zero, "");
    /* in NumPy's model (nothing may raise) a zero step runs no iteration */
    uf__fn_raise_if(F, step0, UF__JIT_RANGE_STEP);
    /* counted as signed numbers whatever the dtype: Numba's range
     * iterator does so for unsigned ranges too (range(uint64(2**63 + 5))
     * runs no iteration) */
    LLVMValueRef cnt;
    LLVMValueRef up = LLVMBuildICmp(B, LLVMIntSGT, step, zero, "");
    LLVMValueRef lo = LLVMBuildSelect(B, up, start, stop, "");
    LLVMValueRef hi = LLVMBuildSelect(B, up, stop, start, "");
    LLVMValueRef mag = LLVMBuildSelect(
        B, up, step, LLVMBuildSub(B, zero, step, ""), "");
    LLVMValueRef smag = LLVMBuildSelect(B, step0, one, mag, "");
    LLVMValueRef span = LLVMBuildSub(B, hi, lo, "");
    cnt = LLVMBuildAdd(
        B, LLVMBuildUDiv(B, LLVMBuildSub(B, span, one, ""), smag, ""), one,
        "");
    LLVMValueRef nonempty = LLVMBuildAnd(
        B, LLVMBuildICmp(B, LLVMIntSGT, hi, lo, ""),
        LLVMBuildNot(B, step0, ""), "");
    cnt = LLVMBuildSelect(B, nonempty, cnt, zero, "");
    int vi = uf__lower_find_var(F, tgt->u.name.id);
    if (vi < 0 || !F->vars[vi])
        return uf__lower_unsupported(F, tgt->pos, "this loop variable");
    const uf__type *vt = F->tf->vars[vi].type;
    if (vt->kind != UF__T_SCALAR)
        return uf__lower_unsupported(F, tgt->pos, "this loop variable");
    if (bi == UF__BI_PRANGE && uf__prange_parallel(F)) /* lower_prange.c */
        return uf__lower_prange(F, s, cnt, start, step, rt, vi);
    counted c = {cnt, start, step, rt, NULL, NULL, NULL, NULL};
    return counted_loop(F, s, vi, &c);
}

/* for x in a: x = a[k] for k in [0, len(a)), an element of a 1-D array or
 * a view one dimension down. */
static int lower_for_array(uf__fn *F, const uf__stmt *s, const uf__type *at)
{
    const uf__expr *tgt = s->u.for_.target;
    if (at->ndim < 1)
        return uf__source_error(F->err, UF_ERR_TYPING, F->tf->km->src,
                                s->u.for_.iter->pos,
                                "iteration over a 0-d array");
    int vi = uf__lower_find_var(F, tgt->u.name.id);
    if (vi < 0 || !F->vars[vi])
        return uf__lower_unsupported(F, tgt->pos, "this loop variable");
    LLVMValueRef a = uf__lower_expr(F, s->u.for_.iter);
    if (!a)
        return F->err->code;
    LLVMTypeRef i64 = LLVMInt64TypeInContext(F->L->ctx);
    counted c = {uf__emit_array_dim(F, a, 0), LLVMConstNull(i64),
                 LLVMConstInt(i64, 1, 0), UF_INT64, a, at, NULL, NULL};
    return counted_loop(F, s, vi, &c);
}

/* for x in t, t a homogeneous tuple (typing refuses the others): x =
 * t[k] for k in [0, len(t)), read from a stack copy of the items made
 * once before the loop. The tuple is handed to the loop's sweeps as an
 * iterated array would be, so the arrays it holds stay alive. */
static int lower_for_tuple(uf__fn *F, const uf__stmt *s, const uf__type *tt)
{
    const uf__expr *tgt = s->u.for_.target;
    int vi = uf__lower_find_var(F, tgt->u.name.id);
    if (vi < 0 || !F->vars[vi] || tt->n < 1)
        return uf__lower_unsupported(F, tgt->pos, "this loop variable");
    LLVMValueRef tv = uf__lower_expr(F, s->u.for_.iter);
    if (!tv || !(tv = uf__lower_ustr_tuple(F, tv, &tt))) /* lower_ustr.c */
        return F->err->code;
    LLVMTypeRef et = uf__lower_type(F->L, tt->elts[0], F->err);
    if (!et)
        return F->err->code;
    LLVMTypeRef i64 = LLVMInt64TypeInContext(F->L->ctx);
    LLVMTypeRef aty = LLVMArrayType(et, (unsigned)tt->n);
    LLVMValueRef buf = uf__fn_alloca(F, aty, "tuple");
    for (int i = 0; i < tt->n; i++) {
        LLVMValueRef gi[2] = {LLVMConstNull(i64),
                              LLVMConstInt(i64, (unsigned long long)i, 0)};
        LLVMBuildStore(B, LLVMBuildExtractValue(B, tv, (unsigned)i, ""),
                       LLVMBuildInBoundsGEP2(B, aty, buf, gi, 2, ""));
    }
    counted c = {LLVMConstInt(i64, (unsigned long long)tt->n, 0),
                 LLVMConstNull(i64), LLVMConstInt(i64, 1, 0), UF_INT64,
                 tv, tt, buf, aty};
    return counted_loop(F, s, vi, &c);
}
