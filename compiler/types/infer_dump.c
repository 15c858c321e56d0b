/* The typed source of a specialisation, in the spirit of Numba's
 * inspect_types(): a header with the signature, then every source line of
 * the function followed by "#   name = type" for the variables assigned
 * on that line (arguments under the def line). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "common/error_internal.h"
#include "common/strbuf.h"
#include "compiler/front/ast_visit.h"
#include "compiler/types/infer_internal.h"

/* Last line of anything inside the function: the running maximum is the
 * walk's user data. */
static int max_line_expr(const uf__expr *e, void *m)
{
    if (e->pos.line > *(int *)m)
        *(int *)m = e->pos.line;
    return uf__ast_children(e, max_line_expr, m);
}

static int max_line_block(const uf__block *b, void *m);

static int max_line_stmt(const uf__stmt *s, int *m)
{
    if (s->pos.line > *m)
        *m = s->pos.line;
    uf__ast_stmt_exprs(s, max_line_expr, m);
    return uf__ast_stmt_blocks(s, max_line_block, m);
}

static int max_line_block(const uf__block *b, void *m)
{
    for (int i = 0; i < b->n; i++)
        max_line_stmt(b->stmts[i], m);
    return 0;
}

/* Which variables each line assigns, as (line, variable) pairs sorted by
 * line then version (a list, not a line-by-variable matrix: a function of
 * a thousand ifs has thousands of both); and the lines of conditions
 * decided by branch pruning (infer_prune.c): 1 always true, 2 always
 * false, for a note under the line. */
typedef struct assigned {
    int line;
    int var;
    const char *name; /* x of x.3 ... */
    size_t base;      /* ... its length */
    long version;     /* ... and 3 (0 for plain x) */
} assigned;

typedef struct line_marks {
    const uf__typed_func *tf;
    assigned *items;
    int n, cap;
    bool oom;
    uf_error *err;
    int first, nlines;
    signed char *pruned;
} line_marks;

/* Orders by line, then variables by name, a name's versions x, x.1, x.2,
 * ... x.10 by number (compiler/types/ssa_versions.c names them). */
static int assigned_cmp(const void *pa, const void *pb)
{
    const assigned *a = pa, *b = pb;
    if (a->line != b->line)
        return a->line < b->line ? -1 : 1;
    int c = strncmp(a->name, b->name, a->base < b->base ? a->base : b->base);
    if (c != 0 || a->base != b->base)
        return c != 0 ? c : (a->base < b->base ? -1 : 1);
    return (a->version > b->version) - (a->version < b->version);
}

static int mark_target(const uf__expr *t, void *ud)
{
    line_marks *L = ud;
    const uf__typed_func *tf = L->tf;
    if (t->kind == UF__EX_NAME) {
        if (uf__tf_info(tf, t)->type == NULL)
            return 0; /* in a pruned branch (infer_prune.c): never typed */
        int v = uf__tf_info(tf, t)->var;
        int l = t->pos.line - L->first;
        if (v < 0 || v >= tf->nvars || l < 0 || l >= L->nlines)
            return 0;
        if (L->n == L->cap) {
            int ncap = L->cap ? 2 * L->cap : 32;
            assigned *fresh = uf__realloc(L->items, (size_t)ncap,
                                          sizeof *fresh, L->err);
            if (fresh == NULL) {
                L->oom = true;
                return 1;
            }
            L->items = fresh;
            L->cap = ncap;
        }
        const char *name = tf->vars[v].name;
        size_t base = strcspn(name, ".");
        L->items[L->n++] = (assigned){
            t->pos.line, v, name, base,
            name[base] ? strtol(name + base + 1, NULL, 10) : 0};
    } else if (t->kind == UF__EX_TUPLE || t->kind == UF__EX_LIST) {
        return uf__ast_children(t, mark_target, ud);
    }
    return 0;
}

static void mark_pruned(const line_marks *L, const uf__expr *c)
{
    int l = c->pos.line - L->first;
    signed char t = uf__tf_info(L->tf, c)->truth;
    if (L->pruned != NULL && t != 0 && l >= 0 && l < L->nlines)
        L->pruned[l] = t;
}

static int mark_stmt(uf__stmt *s, void *L)
{
    if (s->kind == UF__ST_IF && s->u.if_.cond != NULL)
        mark_pruned(L, s->u.if_.cond);
    else if (s->kind == UF__ST_WHILE)
        mark_pruned(L, s->u.while_.cond);
    return uf__ast_stmt_targets(s, mark_target, L);
}

/* Start of line `line` (1-based) of the source. */
static const char *line_start(const uf__source *src, int line)
{
    const char *p = src->text, *end = src->text + src->len;
    for (int l = 1; l < line && p < end; l++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        if (nl == NULL)
            return end;
        p = nl + 1;
    }
    return p;
}

/* The line starting at p: its length, and where the next one starts. */
static size_t line_at(const uf__source *src, const char *p, const char **next)
{
    const char *end = src->text + src->len;
    const char *e = p;
    while (e < end && *e != '\n' && *e != '\r')
        e++;
    *next = end;
    if (e < end) { /* past a lone '\r' too, as line_start counts */
        const char *nl = memchr(e, '\n', (size_t)(end - e));
        if (nl != NULL)
            *next = nl + 1;
    }
    return (size_t)(e - p);
}

static size_t indent_of(const char *s, size_t len)
{
    size_t i = 0;
    while (i < len && (s[i] == ' ' || s[i] == '\t'))
        i++;
    return i;
}

char *uf__typed_func_dump(const uf__typed_func *tf, uf_error *err)
{
    const uf__source *src = tf->km->src;
    const uf__stmt *def = tf->decl->def;
    uf__strbuf o = uf__strbuf_init(err);

    uf__strbuf_printf(&o, "%s (", tf->decl->name);
    for (int i = 0; i < tf->nargs; i++)
        uf__strbuf_printf(&o, "%s%s", i ? ", " : "", uf__tname(tf->args[i]));
    uf__strbuf_printf(&o, ") -> %s\n", uf__tname(tf->ret));
    uf__strbuf_printf(&o, "--------------------------------------------------------------"
             "------------------\n# File: %s\n", src->name);

    int first = def->pos.line, last = 0;
    max_line_stmt(def, &last);
    for (int i = 0; i < def->u.funcdef.ndecorators; i++)
        if (def->u.funcdef.decorators[i]->pos.line < first)
            first = def->u.funcdef.decorators[i]->pos.line;
    int nlines = last - first + 1;
    line_marks L = {.tf = tf, .err = err, .first = first, .nlines = nlines};
    if (nlines > 0) {
        L.pruned = uf__calloc((size_t)nlines, 1, err);
        if (L.pruned == NULL) {
            uf__free(o.s);
            return NULL;
        }
        uf__ast_walk_stmts(&def->u.funcdef.body, mark_stmt, &L);
        if (L.oom) {
            uf__free(L.pruned);
            uf__free(L.items);
            uf__free(o.s);
            return NULL;
        }
        if (L.n > 1) /* qsort(NULL, 0, ...) is undefined */
            qsort(L.items, (size_t)L.n, sizeof *L.items, assigned_cmp);
    }
    const char *cursor = line_start(src, first);
    int next_mark = 0;
    for (int l = first; l <= last; l++) {
        const char *text = cursor;
        size_t len = line_at(src, text, &cursor);
        uf__strbuf_printf(&o, "%.*s\n", (int)len, text);
        size_t ind = indent_of(text, len);
        if (l == def->u.funcdef.name_pos.line) {
            /* the arguments, indented like the body */
            for (int v = 0; v < tf->nvars; v++)
                if (tf->vars[v].arg >= 0)
                    uf__strbuf_printf(&o, "%*s#   %s = arg(%d) :: %s\n", (int)ind + 4, "",
                         tf->vars[v].name, tf->vars[v].arg,
                         uf__tname(tf->vars[v].type));
        }
        /* the variables assigned on the line, a name's versions in order
         * (x, x.1, x.2), the parameters' joins indented as the body */
        int mind = (int)ind + (l == def->u.funcdef.name_pos.line ? 4 : 0);
        for (int prev = -1; next_mark < L.n && L.items[next_mark].line == l;
             next_mark++) {
            int v = L.items[next_mark].var;
            if (v == prev)
                continue;
            prev = v;
            uf__strbuf_printf(&o, "%*s#   %s = %s\n", mind, "",
                              tf->vars[v].name, uf__tname(tf->vars[v].type));
        }
        if (L.pruned != NULL && L.pruned[l - first] != 0)
            uf__strbuf_printf(&o, "%*s#   pruned: the condition is always "
                              "%s, the other branch is not compiled\n",
                              (int)ind, "",
                              L.pruned[l - first] > 0 ? "True" : "False");
    }
    uf__free(L.pruned);
    uf__free(L.items);
    return uf__strbuf_take(&o);
}
