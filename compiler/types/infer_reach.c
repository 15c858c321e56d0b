/* Reachability with branch pruning: which statements control can leave
 * at their end, given the decisions of infer_prune.c, either final (in
 * the typed function's info) or of a pruning round in progress. Typing,
 * the read-before-assignment check and lowering skip what follows a
 * statement that never falls through, as CPython never compiles it. */
#include "compiler/types/infer_internal.h"

signed char uf__dv_top(const uf__dview *D, const uf__expr *e)
{
    if (e == NULL) /* a try: either way */
        return 0;
    return D->top == NULL ? uf__tf_info(D->tf, e)->truth
                          : D->top[uf__tf_index(D->tf, e)];
}

signed char uf__dv_end(const uf__dview *D, const uf__expr *e)
{
    return D->end == NULL ? uf__tf_info(D->tf, e)->truth_end
                          : D->end[uf__tf_index(D->tf, e)];
}

bool uf__dv_else_live(const uf__dview *D, const uf__stmt *s)
{
    const uf__expr *c = s->u.while_.cond;
    if (uf__dv_top(D, c) != 1)
        return true;
    /* entered for sure: the test at the end of the body */
    return uf__dv_end(D, c) != 1 && uf__dv_block_falls(D, &s->u.while_.body);
}

/* A live break or continue (`kind`) of the loop whose body is `b`. */
bool uf__dv_has_jump(const uf__dview *D, const uf__block *b,
                     uf__stmt_kind kind)
{
    for (int i = 0; i < b->n; i++) {
        const uf__stmt *s = b->stmts[i];
        if (s->kind == kind)
            return true;
        if (s->kind == UF__ST_IF) {
            signed char t = uf__dv_top(D, s->u.if_.cond);
            if ((t >= 0 && uf__dv_has_jump(D, &s->u.if_.body, kind)) ||
                (t <= 0 && uf__dv_has_jump(D, &s->u.if_.orelse, kind)))
                return true;
        } else if (s->kind == UF__ST_FOR) {
            if (uf__dv_has_jump(D, &s->u.for_.orelse, kind))
                return true;
        } else if (s->kind == UF__ST_WHILE) {
            if (uf__dv_else_live(D, s) &&
                uf__dv_has_jump(D, &s->u.while_.orelse, kind))
                return true;
        }
        if (!uf__dv_stmt_falls(D, s))
            return false;
    }
    return false;
}

bool uf__dv_stmt_falls(const uf__dview *D, const uf__stmt *s)
{
    switch (s->kind) {
    case UF__ST_RETURN:
    case UF__ST_RAISE:
    case UF__ST_BREAK:
    case UF__ST_CONTINUE:
        return false;
    case UF__ST_IF: {
        signed char t = uf__dv_top(D, s->u.if_.cond);
        if (t > 0)
            return uf__dv_block_falls(D, &s->u.if_.body);
        if (t < 0)
            return uf__dv_block_falls(D, &s->u.if_.orelse);
        return uf__dv_block_falls(D, &s->u.if_.body) ||
               uf__dv_block_falls(D, &s->u.if_.orelse);
    }
    case UF__ST_WHILE:
        if (uf__dv_top(D, s->u.while_.cond) < 0)
            return uf__dv_block_falls(D, &s->u.while_.orelse);
        if (uf__dv_else_live(D, s) && uf__dv_block_falls(D, &s->u.while_.orelse))
            return true;
        return uf__dv_has_jump(D, &s->u.while_.body, UF__ST_BREAK);
    case UF__ST_FOR:
        return uf__dv_block_falls(D, &s->u.for_.orelse) ||
               uf__dv_has_jump(D, &s->u.for_.body, UF__ST_BREAK);
    default:
        return true;
    }
}

bool uf__dv_block_falls(const uf__dview *D, const uf__block *b)
{
    for (int i = 0; i < b->n; i++)
        if (!uf__dv_stmt_falls(D, b->stmts[i]))
            return false;
    return true;
}

bool uf__stmt_falls_through(const uf__typed_func *tf, const uf__stmt *s)
{
    uf__dview D = {NULL, NULL, tf};
    return uf__dv_stmt_falls(&D, s);
}

bool uf__block_falls_through(const uf__typed_func *tf, const uf__block *b)
{
    uf__dview D = {NULL, NULL, tf};
    return uf__dv_block_falls(&D, b);
}

bool uf__while_else_live(const uf__typed_func *tf, const uf__stmt *s)
{
    uf__dview D = {NULL, NULL, tf};
    return uf__dv_else_live(&D, s);
}
