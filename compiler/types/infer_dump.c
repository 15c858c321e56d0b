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

/* Which variables each line assigns: a bit per (line, var) pair kept as
 * a flat array over the function's lines; and the lines of conditions
 * decided by branch pruning (infer_prune.c): 1 always true, 2 always
 * false, for a note under the line. */
typedef struct line_marks {
    const uf__typed_func *tf;
    unsigned char *marks;
    int first, nlines;
    signed char *pruned;
} line_marks;

static int mark_target(const uf__expr *t, void *ud)
{
    const line_marks *L = ud;
    const uf__typed_func *tf = L->tf;
    if (t->kind == UF__EX_NAME) {
        if (tf->info[t->id].type == NULL)
            return 0; /* in a pruned branch (infer_prune.c): never typed */
        int v = tf->info[t->id].var;
        int l = t->pos.line - L->first;
        if (v >= 0 && v < tf->nvars && l >= 0 && l < L->nlines)
            L->marks[(size_t)l * (size_t)tf->nvars + (size_t)v] = 1;
    } else if (t->kind == UF__EX_TUPLE || t->kind == UF__EX_LIST) {
        uf__ast_children(t, mark_target, ud);
    }
    return 0;
}

static void mark_pruned(const line_marks *L, const uf__expr *c)
{
    int l = c->pos.line - L->first;
    signed char t = L->tf->info[c->id].truth;
    if (L->pruned != NULL && t != 0 && l >= 0 && l < L->nlines)
        L->pruned[l] = t;
}

static int mark_stmt(uf__stmt *s, void *L)
{
    if (s->kind == UF__ST_IF)
        mark_pruned(L, s->u.if_.cond);
    else if (s->kind == UF__ST_WHILE)
        mark_pruned(L, s->u.while_.cond);
    return uf__ast_stmt_targets(s, mark_target, L);
}

/* Start and length of line `line` (1-based) of the source. */
static const char *source_line(const uf__source *src, int line, size_t *len)
{
    const char *p = src->text, *end = src->text + src->len;
    for (int l = 1; l < line && p < end; l++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        if (nl == NULL) {
            p = end;
            break;
        }
        p = nl + 1;
    }
    const char *e = p;
    while (e < end && *e != '\n' && *e != '\r')
        e++;
    *len = (size_t)(e - p);
    return p;
}

static size_t indent_of(const char *s, size_t len)
{
    size_t i = 0;
    while (i < len && (s[i] == ' ' || s[i] == '\t'))
        i++;
    return i;
}

/* Orders variables by name, a name's versions x, x.1, x.2, ... x.10 by
 * number (compiler/types/ssa_versions.c names them). */
static int version_cmp(const uf__typed_func *tf, int a, int b)
{
    const char *x = tf->vars[a].name, *y = tf->vars[b].name;
    size_t nx = strcspn(x, "."), ny = strcspn(y, ".");
    int c = strncmp(x, y, nx < ny ? nx : ny);
    if (c != 0 || nx != ny)
        return c != 0 ? c : (nx < ny ? -1 : 1);
    long vx = x[nx] ? strtol(x + nx + 1, NULL, 10) : 0;
    long vy = y[ny] ? strtol(y + ny + 1, NULL, 10) : 0;
    return (vx > vy) - (vx < vy);
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
    unsigned char *marks = NULL;
    signed char *pruned = NULL;
    if (nlines > 0) {
        pruned = uf__calloc((size_t)nlines, 1, err);
        if (pruned == NULL) {
            uf__free(o.s);
            return NULL;
        }
    }
    if (nlines > 0 && tf->nvars > 0) {
        marks = uf__calloc((size_t)nlines * (size_t)tf->nvars, 1, err);
        if (marks == NULL) {
            uf__free(pruned);
            uf__free(o.s);
            return NULL;
        }
        line_marks L = {tf, marks, first, nlines, pruned};
        uf__ast_walk_stmts(&def->u.funcdef.body, mark_stmt, &L);
    }
    for (int l = first; l <= last; l++) {
        size_t len;
        const char *text = source_line(src, l, &len);
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
        for (int v = -1; marks != NULL;) {
            const unsigned char *row =
                marks + (size_t)(l - first) * (size_t)tf->nvars;
            int next = -1;
            for (int w = 0; w < tf->nvars; w++)
                if (row[w] && (v < 0 || version_cmp(tf, w, v) > 0) &&
                    (next < 0 || version_cmp(tf, w, next) < 0))
                    next = w;
            if ((v = next) < 0)
                break;
            uf__strbuf_printf(&o, "%*s#   %s = %s\n", mind, "",
                              tf->vars[v].name, uf__tname(tf->vars[v].type));
        }
        if (pruned != NULL && pruned[l - first] != 0)
            uf__strbuf_printf(&o, "%*s#   pruned: the condition is always "
                              "%s, the other branch is not compiled\n",
                              (int)ind, "",
                              pruned[l - first] > 0 ? "True" : "False");
    }
    uf__free(pruned);
    uf__free(marks);
    return uf__strbuf_take(&o);
}
