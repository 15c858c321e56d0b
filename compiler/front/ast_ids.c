/* Numbering each def's expressions consecutively (ast_ids.h). The new ids
 * start after every id in use, so an expression the walk would miss keeps
 * an id no other takes. */
#include "compiler/front/ast_ids.h"

#include "compiler/front/ast_visit.h"

typedef struct numbering {
    int next;
} numbering;

static int number_expr(const uf__expr *e, void *ud)
{
    numbering *N = ud;
    ((uf__expr *)e)->id = N->next++; /* the tree is ours to renumber */
    return uf__ast_children(e, number_expr, ud);
}

static void number_block(numbering *N, const uf__block *b);

static int number_nested(const uf__block *b, void *ud)
{
    number_block(ud, b);
    return 0;
}

static void number_stmt(numbering *N, const uf__stmt *s)
{
    uf__ast_stmt_exprs(s, number_expr, N);
    uf__ast_stmt_blocks(s, number_nested, N); /* nested defs too */
}

static void number_block(numbering *N, const uf__block *b)
{
    for (int i = 0; i < b->n; i++)
        number_stmt(N, b->stmts[i]);
}

void uf__ast_number_functions(uf__ast_module *m)
{
    numbering N = {m->nexprs};
    for (int i = 0; i < m->body.n; i++) {
        uf__stmt *s = m->body.stmts[i];
        if (s->kind != UF__ST_FUNCDEF)
            continue;
        s->u.funcdef.first_id = N.next;
        number_stmt(&N, s);
        s->u.funcdef.nids = N.next - s->u.funcdef.first_id;
    }
    m->nexprs = N.next;
}
