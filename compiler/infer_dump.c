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
#include "compiler/infer_internal.h"

/* Last line of anything inside the function. */
static int max_line_expr(const uf__expr *e)
{
    if (e == NULL)
        return 0;
    int m = e->pos.line;
#define MAXOF(x)                                                            \
    do {                                                                    \
        int l_ = max_line_expr(x);                                          \
        if (l_ > m)                                                         \
            m = l_;                                                         \
    } while (0)
    switch (e->kind) {
    case UF__EX_ATTR: MAXOF(e->u.attr.value); break;
    case UF__EX_CALL:
        MAXOF(e->u.call.func);
        for (int i = 0; i < e->u.call.nargs; i++)
            MAXOF(e->u.call.args[i]);
        for (int i = 0; i < e->u.call.nkw; i++)
            MAXOF(e->u.call.kw[i].value);
        break;
    case UF__EX_SUBSCRIPT:
        MAXOF(e->u.subscript.value);
        for (int i = 0; i < e->u.subscript.nindex; i++)
            MAXOF(e->u.subscript.index[i]);
        break;
    case UF__EX_SLICE:
        MAXOF(e->u.slice.lower);
        MAXOF(e->u.slice.upper);
        MAXOF(e->u.slice.step);
        break;
    case UF__EX_UNARY: MAXOF(e->u.unary.operand); break;
    case UF__EX_BINARY:
        MAXOF(e->u.binary.left);
        MAXOF(e->u.binary.right);
        break;
    case UF__EX_BOOLOP:
        for (int i = 0; i < e->u.boolop.n; i++)
            MAXOF(e->u.boolop.values[i]);
        break;
    case UF__EX_COMPARE:
        for (int i = 0; i <= e->u.compare.nops; i++)
            MAXOF(e->u.compare.operands[i]);
        break;
    case UF__EX_IFEXP:
        MAXOF(e->u.ifexp.cond);
        MAXOF(e->u.ifexp.then);
        MAXOF(e->u.ifexp.orelse);
        break;
    case UF__EX_TUPLE:
    case UF__EX_LIST:
        for (int i = 0; i < e->u.seq.n; i++)
            MAXOF(e->u.seq.elts[i]);
        break;
    default:
        break;
    }
#undef MAXOF
    return m;
}

static int max_line_block(const uf__block *b);

static int max_line_stmt(const uf__stmt *s)
{
    int m = s->pos.line, l;
#define UPD(x)                                                              \
    do {                                                                    \
        l = (x);                                                            \
        if (l > m)                                                          \
            m = l;                                                          \
    } while (0)
    switch (s->kind) {
    case UF__ST_EXPR: UPD(max_line_expr(s->u.expr.value)); break;
    case UF__ST_ASSIGN:
        for (int i = 0; i < s->u.assign.ntargets; i++)
            UPD(max_line_expr(s->u.assign.targets[i]));
        UPD(max_line_expr(s->u.assign.value));
        break;
    case UF__ST_AUGASSIGN: UPD(max_line_expr(s->u.augassign.value)); break;
    case UF__ST_IF:
        UPD(max_line_expr(s->u.if_.cond));
        UPD(max_line_block(&s->u.if_.body));
        UPD(max_line_block(&s->u.if_.orelse));
        break;
    case UF__ST_FOR:
        UPD(max_line_expr(s->u.for_.iter));
        UPD(max_line_block(&s->u.for_.body));
        UPD(max_line_block(&s->u.for_.orelse));
        break;
    case UF__ST_WHILE:
        UPD(max_line_expr(s->u.while_.cond));
        UPD(max_line_block(&s->u.while_.body));
        UPD(max_line_block(&s->u.while_.orelse));
        break;
    case UF__ST_RETURN: UPD(max_line_expr(s->u.ret.value)); break;
    case UF__ST_ASSERT:
        UPD(max_line_expr(s->u.assert_.test));
        UPD(max_line_expr(s->u.assert_.msg));
        break;
    case UF__ST_FUNCDEF: UPD(max_line_block(&s->u.funcdef.body)); break;
    default: break;
    }
#undef UPD
    return m;
}

static int max_line_block(const uf__block *b)
{
    int m = 0;
    for (int i = 0; i < b->n; i++) {
        int l = max_line_stmt(b->stmts[i]);
        if (l > m)
            m = l;
    }
    return m;
}

/* Which variables each line assigns: a bit per (line, var) pair kept as
 * a flat array over the function's lines. */
static void mark_target(const uf__typed_func *tf, const uf__expr *t,
                        unsigned char *marks, int first, int nlines)
{
    if (t->kind == UF__EX_NAME) {
        if (tf->info[t->id].type == NULL)
            return; /* in a pruned branch (infer_prune.c): never typed */
        int v = tf->info[t->id].var;
        int l = t->pos.line - first;
        if (v >= 0 && v < tf->nvars && l >= 0 && l < nlines)
            marks[(size_t)l * (size_t)tf->nvars + (size_t)v] = 1;
    } else if (t->kind == UF__EX_TUPLE || t->kind == UF__EX_LIST) {
        for (int i = 0; i < t->u.seq.n; i++)
            mark_target(tf, t->u.seq.elts[i], marks, first, nlines);
    }
}

/* Lines of conditions decided by branch pruning (infer_prune.c): 1 always
 * true, 2 always false, for a note under the line. */
static void mark_pruned(const uf__typed_func *tf, const uf__expr *c,
                        signed char *pruned, int first, int nlines)
{
    int l = c->pos.line - first;
    signed char t = tf->info[c->id].truth;
    if (pruned != NULL && t != 0 && l >= 0 && l < nlines)
        pruned[l] = t;
}

static void mark_block(const uf__typed_func *tf, const uf__block *b,
                       unsigned char *marks, int first, int nlines,
                       signed char *pruned)
{
    for (int i = 0; i < b->n; i++) {
        const uf__stmt *s = b->stmts[i];
        switch (s->kind) {
        case UF__ST_ASSIGN:
            for (int k = 0; k < s->u.assign.ntargets; k++)
                mark_target(tf, s->u.assign.targets[k], marks, first, nlines);
            break;
        case UF__ST_AUGASSIGN:
            mark_target(tf, s->u.augassign.target, marks, first, nlines);
            break;
        case UF__ST_IF:
            mark_pruned(tf, s->u.if_.cond, pruned, first, nlines);
            mark_block(tf, &s->u.if_.body, marks, first, nlines, pruned);
            mark_block(tf, &s->u.if_.orelse, marks, first, nlines, pruned);
            break;
        case UF__ST_FOR:
            mark_target(tf, s->u.for_.target, marks, first, nlines);
            mark_block(tf, &s->u.for_.body, marks, first, nlines, pruned);
            mark_block(tf, &s->u.for_.orelse, marks, first, nlines, pruned);
            break;
        case UF__ST_WHILE:
            mark_pruned(tf, s->u.while_.cond, pruned, first, nlines);
            mark_block(tf, &s->u.while_.body, marks, first, nlines, pruned);
            mark_block(tf, &s->u.while_.orelse, marks, first, nlines, pruned);
            break;
        default:
            break;
        }
    }
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
 * number (compiler/ssa_versions.c names them). */
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

    int first = def->pos.line, last = max_line_stmt(def);
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
        mark_block(tf, &def->u.funcdef.body, marks, first, nlines, pruned);
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
