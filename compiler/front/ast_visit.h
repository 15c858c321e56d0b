/* Walking the syntax tree (compiler/front/ast.h) without a switch over every
 * node kind in each pass: the children of an expression, the expressions
 * and blocks of a statement, and every statement of a block. A pass keeps
 * its own switch for what it does per kind and leaves the recursion here.
 *
 * Each walk calls back once per item, in source order, and stops at the
 * first callback that returns nonzero, returning that value (0 when all
 * were visited). Absent children (a slice bound, a bare return's value)
 * are skipped. children, stmt_exprs and stmt_blocks look one level down
 * and leave the recursion to the caller; walk_stmts recurses over nested
 * blocks only (their depth is bounded by the parser's nesting limit). */
#ifndef UF_COMPILER_AST_VISIT_H
#define UF_COMPILER_AST_VISIT_H

#include "compiler/front/ast.h"

typedef int (*uf__ast_expr_fn)(const uf__expr *e, void *ud);
typedef int (*uf__ast_block_fn)(const uf__block *b, void *ud);
/* Statements are handed out writable: compiler/types/ssa_versions.c rewrites
 * them in place while walking. */
typedef int (*uf__ast_stmt_fn)(uf__stmt *s, void *ud);

/* fn on each non-NULL xs[i], i < n, up to the first nonzero return. */
static inline int uf__ast_visit_n(uf__expr *const *xs, int n,
                                  uf__ast_expr_fn fn, void *ud)
{
    for (int i = 0; i < n; i++) {
        int rc = xs[i] != NULL ? fn(xs[i], ud) : 0;
        if (rc != 0)
            return rc;
    }
    return 0;
}

/* Each direct child expression of e: an attribute's value; a call's
 * function, arguments, keyword values; a subscript's value then indices;
 * slice bounds; operands; a conditional's test, then, else; elements.
 * Inline so that a pass recursing through it (fn calling this again)
 * costs one stack frame per level of the tree, as its own switch did. */
static inline int uf__ast_children(const uf__expr *e, uf__ast_expr_fn fn,
                                   void *ud)
{
    int rc;
    switch (e->kind) {
    case UF__EX_ATTR:
        return uf__ast_visit_n(&e->u.attr.value, 1, fn, ud);
    case UF__EX_CALL:
        rc = uf__ast_visit_n(&e->u.call.func, 1, fn, ud);
        if (rc == 0)
            rc = uf__ast_visit_n(e->u.call.args, e->u.call.nargs, fn, ud);
        for (int i = 0; i < e->u.call.nkw && rc == 0; i++)
            rc = uf__ast_visit_n(&e->u.call.kw[i].value, 1, fn, ud);
        return rc;
    case UF__EX_SUBSCRIPT:
        rc = uf__ast_visit_n(&e->u.subscript.value, 1, fn, ud);
        return rc != 0 ? rc
                       : uf__ast_visit_n(e->u.subscript.index,
                                         e->u.subscript.nindex, fn, ud);
    case UF__EX_SLICE: {
        uf__expr *const x[3] = {e->u.slice.lower, e->u.slice.upper,
                                e->u.slice.step};
        return uf__ast_visit_n(x, 3, fn, ud);
    }
    case UF__EX_UNARY:
        return uf__ast_visit_n(&e->u.unary.operand, 1, fn, ud);
    case UF__EX_BINARY: {
        uf__expr *const x[2] = {e->u.binary.left, e->u.binary.right};
        return uf__ast_visit_n(x, 2, fn, ud);
    }
    case UF__EX_BOOLOP:
        return uf__ast_visit_n(e->u.boolop.values, e->u.boolop.n, fn, ud);
    case UF__EX_COMPARE:
        return uf__ast_visit_n(e->u.compare.operands, e->u.compare.nops + 1,
                               fn, ud);
    case UF__EX_IFEXP: {
        uf__expr *const x[3] = {e->u.ifexp.cond, e->u.ifexp.then,
                                e->u.ifexp.orelse};
        return uf__ast_visit_n(x, 3, fn, ud);
    }
    case UF__EX_TUPLE:
    case UF__EX_LIST:
        return uf__ast_visit_n(e->u.seq.elts, e->u.seq.n, fn, ud);
    default: /* literals and names */
        return 0;
    }
}

/* Each expression a statement holds itself (not those of its nested
 * blocks): assignment targets then value, an augmented target then value,
 * a condition, a for loop's target then iterable, a returned value, an
 * assert's test then message, a def's decorators then parameter
 * defaults. */
int uf__ast_stmt_exprs(const uf__stmt *s, uf__ast_expr_fn fn, void *ud);

/* The targets a statement assigns: an assignment's (a = b = v: a, b), an
 * augmented assignment's, a for loop's. */
int uf__ast_stmt_targets(const uf__stmt *s, uf__ast_expr_fn fn, void *ud);

/* The blocks nested in s: body then else block of if, for and while; a
 * def's body. */
int uf__ast_stmt_blocks(const uf__stmt *s, uf__ast_block_fn fn, void *ud);

/* Every statement of b and of the blocks nested in it, each statement
 * before the statements nested in it. A def's body is not entered: the
 * passes walk one function at a time. */
int uf__ast_walk_stmts(const uf__block *b, uf__ast_stmt_fn fn, void *ud);

/* The argument of call e at position pos (-1: keyword only) or keyword
 * name, or NULL when left out. */
const uf__expr *uf__call_arg(const uf__expr *e, int pos, const char *name);

#endif
