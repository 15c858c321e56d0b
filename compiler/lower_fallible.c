/* Which specialisations need the fallible calling convention (lower.h):
 * every njit function (Python's error model), and kernels in NumPy's
 * model that contain an assert, a range() whose step may be zero, a
 * checked index (bounds checking on), or a call of a fallible callee. */
#include "compiler/lower.h"

static bool block_fallible(const uf__typed_func *tf, const uf__block *b,
                           int depth);

/* An index checked at run time (bounds checking on): into an array, or
 * into a tuple with an index that is not a literal. */
static bool index_checked(const uf__typed_func *tf, const uf__expr *e)
{
    const uf__type *bt = tf->info[e->u.subscript.value->id].type;
    if (!bt || !uf__lower_boundscheck(tf))
        return false;
    if (bt->kind == UF__T_ARRAY)
        return true;
    if (bt->kind != UF__T_TUPLE || e->u.subscript.nindex != 1)
        return false;
    const uf__expr *x = e->u.subscript.index[0];
    if (x->kind == UF__EX_UNARY && x->u.unary.op == UF__OP_NEG)
        x = x->u.unary.operand;
    return x->kind != UF__EX_INT;
}

static bool expr_fallible(const uf__typed_func *tf, const uf__expr *e,
                          int depth)
{
    if (!e)
        return false;
    const uf__expr_info *in = &tf->info[e->id];
    if (e->kind == UF__EX_CALL) {
        if (in->callee && in->callee != tf && depth < 32 &&
            (!in->callee->numpy_error_model ||
             block_fallible(in->callee, &in->callee->decl->def->u.funcdef.body,
                            depth + 1)))
            return true;
        if (expr_fallible(tf, e->u.call.func, depth))
            return true;
        for (int i = 0; i < e->u.call.nargs; i++)
            if (expr_fallible(tf, e->u.call.args[i], depth))
                return true;
        for (int i = 0; i < e->u.call.nkw; i++)
            if (expr_fallible(tf, e->u.call.kw[i].value, depth))
                return true;
        return false;
    }
    switch (e->kind) {
    case UF__EX_ATTR:
        return expr_fallible(tf, e->u.attr.value, depth);
    case UF__EX_SUBSCRIPT:
        if (index_checked(tf, e))
            return true;
        for (int i = 0; i < e->u.subscript.nindex; i++)
            if (expr_fallible(tf, e->u.subscript.index[i], depth))
                return true;
        return expr_fallible(tf, e->u.subscript.value, depth);
    case UF__EX_UNARY:
        return expr_fallible(tf, e->u.unary.operand, depth);
    case UF__EX_BINARY:
        return expr_fallible(tf, e->u.binary.left, depth) ||
               expr_fallible(tf, e->u.binary.right, depth);
    case UF__EX_BOOLOP:
        for (int i = 0; i < e->u.boolop.n; i++)
            if (expr_fallible(tf, e->u.boolop.values[i], depth))
                return true;
        return false;
    case UF__EX_COMPARE:
        for (int i = 0; i <= e->u.compare.nops; i++)
            if (expr_fallible(tf, e->u.compare.operands[i], depth))
                return true;
        return false;
    case UF__EX_IFEXP:
        return expr_fallible(tf, e->u.ifexp.cond, depth) ||
               expr_fallible(tf, e->u.ifexp.then, depth) ||
               expr_fallible(tf, e->u.ifexp.orelse, depth);
    case UF__EX_TUPLE:
    case UF__EX_LIST:
        for (int i = 0; i < e->u.seq.n; i++)
            if (expr_fallible(tf, e->u.seq.elts[i], depth))
                return true;
        return false;
    default:
        return false;
    }
}

/* range() with a step that is not a nonzero literal can raise ValueError */
static bool literal_step(const uf__expr *e)
{
    if (e->kind == UF__EX_UNARY && e->u.unary.op == UF__OP_NEG)
        e = e->u.unary.operand;
    return e->kind == UF__EX_INT && e->u.i.value != 0;
}

/* a[i] = v indexes a (checked or not) and evaluates i */
static bool target_fallible(const uf__typed_func *tf, const uf__expr *t,
                            int depth)
{
    if (t->kind == UF__EX_TUPLE || t->kind == UF__EX_LIST) {
        for (int i = 0; i < t->u.seq.n; i++)
            if (target_fallible(tf, t->u.seq.elts[i], depth))
                return true;
        return false;
    }
    return t->kind == UF__EX_SUBSCRIPT && expr_fallible(tf, t, depth);
}

static bool stmt_fallible(const uf__typed_func *tf, const uf__stmt *s,
                          int depth)
{
    switch (s->kind) {
    case UF__ST_ASSERT:
        return true;
    case UF__ST_EXPR:
        return expr_fallible(tf, s->u.expr.value, depth);
    case UF__ST_ASSIGN:
        for (int i = 0; i < s->u.assign.ntargets; i++)
            if (target_fallible(tf, s->u.assign.targets[i], depth))
                return true;
        return expr_fallible(tf, s->u.assign.value, depth);
    case UF__ST_AUGASSIGN:
        return target_fallible(tf, s->u.augassign.target, depth) ||
               expr_fallible(tf, s->u.augassign.value, depth);
    case UF__ST_RETURN:
        return expr_fallible(tf, s->u.ret.value, depth);
    case UF__ST_IF:
        return expr_fallible(tf, s->u.if_.cond, depth) ||
               block_fallible(tf, &s->u.if_.body, depth) ||
               block_fallible(tf, &s->u.if_.orelse, depth);
    case UF__ST_WHILE:
        return expr_fallible(tf, s->u.while_.cond, depth) ||
               block_fallible(tf, &s->u.while_.body, depth) ||
               block_fallible(tf, &s->u.while_.orelse, depth);
    case UF__ST_FOR: {
        const uf__expr *it = s->u.for_.iter;
        if (it->kind == UF__EX_CALL && it->u.call.nargs == 3 &&
            !literal_step(it->u.call.args[2]))
            return true;
        return expr_fallible(tf, it, depth) ||
               block_fallible(tf, &s->u.for_.body, depth) ||
               block_fallible(tf, &s->u.for_.orelse, depth);
    }
    default:
        return false;
    }
}

static bool block_fallible(const uf__typed_func *tf, const uf__block *b,
                           int depth)
{
    for (int i = 0; i < b->n; i++)
        if (stmt_fallible(tf, b->stmts[i], depth))
            return true;
    return false;
}

bool uf__lower_fallible(const uf__typed_func *tf)
{
    return !tf->numpy_error_model ||
           block_fallible(tf, &tf->decl->def->u.funcdef.body, 0);
}
