/* The nesting limits of compiler/front/ast_limits.h, measured without
 * recursion: an explicit stack for blocks and one for expressions. */
#include "compiler/front/ast_limits.h"

#include "common/alloc.h"
#include "compiler/front/ast_visit.h"

typedef struct limit_walk {
    uf__ast_module *m;
    uf_error *err;
    int *height; /* by expression id, 0 until computed */
    /* expressions: pending nodes, each pushed twice (children first) */
    struct pending {
        const uf__expr *e;
        bool children_pushed;
    } *stack;
    int nstack, capstack;
    /* blocks: the next statement of each open block */
    struct open_block {
        const uf__block *b;
        int next;
        int depth;
        uf__stmt *def;   /* the innermost def around b, or NULL */
        int def_depth;   /* the depth of that def's body */
    } *blocks;
    int nblocks, capblocks;
    int push_depth; /* depth of the blocks being pushed */
    uf__stmt *push_def;
    int push_def_depth;
    int root_max; /* tallest expression of the statement being checked */
    int max_child;  /* tallest child of the node being finished */
    bool failed;
} limit_walk;

static bool grow(void **items, int *cap, int n, size_t size, uf_error *err)
{
    if (n < *cap)
        return true;
    int ncap = *cap ? *cap * 2 : 64;
    void *fresh = uf__realloc(*items, (size_t)ncap, size, err);
    if (fresh == NULL)
        return false;
    *items = fresh;
    *cap = ncap;
    return true;
}

static int push_expr(const uf__expr *e, void *ud)
{
    limit_walk *w = ud;
    if (!grow((void **)&w->stack, &w->capstack, w->nstack, sizeof *w->stack,
              w->err)) {
        w->failed = true;
        return 1;
    }
    w->stack[w->nstack++] = (struct pending){e, false};
    return 0;
}

static int tallest_child(const uf__expr *e, void *ud)
{
    limit_walk *w = ud;
    if (w->height[e->id] > w->max_child)
        w->max_child = w->height[e->id];
    return 0;
}

/* Post-order over root's subtree: a node's height once its children's are
 * known. Stops at the first node over the limit, the innermost one. */
static int check_expr(const uf__expr *root, void *ud)
{
    limit_walk *w = ud;
    if (push_expr(root, w) != 0)
        return 1;
    while (w->nstack > 0) {
        struct pending *top = &w->stack[w->nstack - 1];
        const uf__expr *e = top->e;
        if (!top->children_pushed) {
            top->children_pushed = true;
            if (uf__ast_children(e, push_expr, w) != 0)
                return 1;
            continue;
        }
        w->nstack--;
        w->max_child = 0;
        uf__ast_children(e, tallest_child, w);
        w->height[e->id] = w->max_child + 1;
        if (w->height[e->id] > UF__MAX_EXPR_HEIGHT) {
            uf__source_error(w->err, UF_ERR_LIMIT, w->m->src, e->pos,
                             "expression nested too deeply (more than %d "
                             "levels of operators, calls or subscripts): "
                             "split it into several statements",
                             UF__MAX_EXPR_HEIGHT);
            w->failed = true;
            return 1;
        }
    }
    if (w->height[root->id] > w->root_max)
        w->root_max = w->height[root->id];
    return 0;
}

static int push_block(const uf__block *b, void *ud)
{
    limit_walk *w = ud;
    if (!grow((void **)&w->blocks, &w->capblocks, w->nblocks,
              sizeof *w->blocks, w->err)) {
        w->failed = true;
        return 1;
    }
    w->blocks[w->nblocks++] = (struct open_block){
        b, 0, w->push_depth, w->push_def, w->push_def_depth};
    return 0;
}

/* Blocks depth-first, statements in source order. */
static void check_blocks(limit_walk *w)
{
    w->push_depth = 0; /* the module's statements */
    if (push_block(&w->m->body, w) != 0)
        return;
    while (w->nblocks > 0) {
        struct open_block *top = &w->blocks[w->nblocks - 1];
        if (top->next == top->b->n) {
            w->nblocks--;
            continue;
        }
        uf__stmt *s = top->b->stmts[top->next++];
        int depth = top->depth;
        uf__stmt *def = top->def;
        int def_depth = top->def_depth;
        if (depth > UF__MAX_BLOCK_DEPTH) {
            uf__source_error(w->err, UF_ERR_LIMIT, w->m->src, s->pos,
                             "blocks nested too deeply (more than %d "
                             "levels, each elif counting as one)",
                             UF__MAX_BLOCK_DEPTH);
            w->failed = true;
            return;
        }
        w->root_max = 0;
        if (uf__ast_stmt_exprs(s, check_expr, w) != 0)
            return;
        if (def != NULL) {
            int nesting = depth - def_depth + 1 + w->root_max;
            if (nesting > def->u.funcdef.nesting)
                def->u.funcdef.nesting = nesting;
        }
        /* pushed in reverse so that the first nested block is checked
         * first and errors come in source order */
        int first = w->nblocks;
        w->push_depth = depth + 1;
        w->push_def = s->kind == UF__ST_FUNCDEF ? s : def;
        w->push_def_depth = s->kind == UF__ST_FUNCDEF ? depth + 1 : def_depth;
        if (uf__ast_stmt_blocks(s, push_block, w) != 0)
            return;
        for (int i = first, j = w->nblocks - 1; i < j; i++, j--) {
            struct open_block t = w->blocks[i];
            w->blocks[i] = w->blocks[j];
            w->blocks[j] = t;
        }
    }
}

bool uf__ast_check_limits(uf__ast_module *m, uf_error *err)
{
    limit_walk w = {.m = m, .err = err};
    w.height = uf__calloc(m->nexprs > 0 ? (size_t)m->nexprs : 1,
                          sizeof *w.height, err);
    if (w.height == NULL)
        return false;
    check_blocks(&w);
    uf__free(w.height);
    uf__free(w.stack);
    uf__free(w.blocks);
    return !w.failed;
}
