/* The parser's shared machinery and the module rule. The grammar follows
 * CPython's (Grammar/python.gram) restricted to the kernel subset; each
 * parse function carries its rule in a comment. Refused constructs are
 * recognised where they start and reported as UF_ERR_UNSUPPORTED. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "common/error_internal.h"
#include "compiler/front/ast_limits.h"
#include "compiler/front/parser.h"

bool uf__grow(uf__parser *p, void **items, int *cap, int n, size_t size)
{
    if (n < *cap)
        return true;
    int ncap = *cap ? *cap * 2 : 4;
    void *fresh = uf__arena_alloc(p->arena, (size_t)ncap, size, p->err);
    if (fresh == NULL) {
        p->failed = true;
        return false;
    }
    if (n > 0)
        memcpy(fresh, *items, (size_t)n * size);
    *items = fresh;
    *cap = ncap;
    return true;
}

bool uf__pvec_push(uf__parser *p, uf__pvec *v, void *item)
{
    if (!uf__grow(p, (void **)&v->items, &v->cap, v->n, sizeof(void *)))
        return false;
    v->items[v->n++] = item;
    return true;
}

uf__token *uf__peek_at(uf__parser *p, int ahead)
{
    int j = p->i + ahead;
    if (j >= p->ntoks)
        j = p->ntoks - 1;
    if (j > p->far)
        p->far = j;
    return &p->toks[j];
}

uf__pos uf__prev_end(uf__parser *p)
{
    return p->i > 0 ? p->toks[p->i - 1].end : p->toks[0].pos;
}

/* The furthest token the parser has looked at: CPython reports generic
 * errors there and compares lines with it. */
static const uf__token *furthest(uf__parser *p)
{
    return &p->toks[p->far > p->i ? p->far : p->i];
}

/* The first error wins. The lexer's error (in the ERROR token that ends
 * the tokens) is reported when the parser got to it; after an earlier
 * parser error CPython still tokenizes the rest of the file, and reports
 * instead an "eager" tokenizer error, or a bracket left open on a line
 * before the parser's error. */
static void *report(uf__parser *p, int code, uf__pos pos, const char *msg)
{
    if (p->failed)
        return NULL;
    p->failed = true;
    const uf__token *e = &p->toks[p->ntoks - 1];
    if (p->lex_error != NULL) {
        if (furthest(p)->kind == UF__TOK_ERROR ||
            (p->lex_error->code == UF_ERR_SYNTAX && e->v.error.eager)) {
            if (p->err != NULL)
                *p->err = *p->lex_error;
            return NULL;
        }
        if (e->v.error.in_brackets &&
            e->v.error.bracket.line < furthest(p)->pos.line) {
            uf__source_error(p->err, UF_ERR_SYNTAX, p->src, e->v.error.bracket,
                             "'%c' was never closed", e->v.error.bracket_char);
            return NULL;
        }
    }
    uf__source_error(p->err, code, p->src, pos, "%s", msg);
    return NULL;
}

void *uf__syntax_error(uf__parser *p, uf__pos pos, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return report(p, UF_ERR_SYNTAX, pos, msg);
}

void *uf__unsupported(uf__parser *p, uf__pos pos, const char *construct)
{
    char msg[512];
    snprintf(msg, sizeof msg, "%s is not supported in kernels", construct);
    return report(p, UF_ERR_UNSUPPORTED, pos, msg);
}

void *uf__unexpected(uf__parser *p)
{
    uf__token *t = uf__peek(p);
    switch (t->kind) {
    case UF__TOK_WALRUS:
        return uf__unsupported(p, t->pos, "the assignment expression ':='");
    case UF__TOK_INDENT:
        return uf__syntax_error(p, t->pos, "unexpected indent");
    case UF__TOK_NAME:
    case UF__TOK_INT:
    case UF__TOK_FLOAT:
    case UF__TOK_IMAG:
    case UF__TOK_STRING: {
        /* CPython's second pass reads a juxtaposed expression (`a b`)
         * one token further, so a tokenizer error just after it wins. The
         * position stays that of the first pass. */
        uf__pos pos = furthest(p)->pos;
        uf__peek_at(p, 1);
        /* Python 2's `print x` */
        const uf__token *prev = p->i > 0 ? &p->toks[p->i - 1] : NULL;
        if (prev != NULL && prev->kind == UF__TOK_NAME &&
            (strcmp(prev->v.name, "print") == 0 ||
             strcmp(prev->v.name, "exec") == 0) &&
            (p->i < 2 || p->toks[p->i - 2].kind != UF__TOK_DOT))
            return uf__syntax_error(p, prev->pos, "Missing parentheses in "
                                    "call to '%s'. Did you mean %s(...)?",
                                    prev->v.name, prev->v.name);
        return uf__syntax_error(p, pos, "invalid syntax");
    }
    default:
        return uf__syntax_error(p, furthest(p)->pos, "invalid syntax");
    }
}

bool uf__failed(uf__parser *p)
{
    return p->failed;
}

bool uf__enter(uf__parser *p, uf__pos pos)
{
    if (p->depth >= UF__PARSE_MAX_DEPTH) {
        uf__syntax_error(p, pos, "too many nested expressions or blocks "
                         "(more than %d)", UF__PARSE_MAX_DEPTH);
        return false;
    }
    p->depth++;
    return true;
}

void uf__leave(uf__parser *p)
{
    p->depth--;
}

uf__expr *uf__new_expr(uf__parser *p, uf__expr_kind kind, uf__pos pos)
{
    uf__expr *e = uf__arena_alloc(p->arena, 1, sizeof *e, p->err);
    if (e == NULL) {
        p->failed = true;
        return NULL;
    }
    e->kind = kind;
    e->pos = pos;
    e->id = p->nexprs++;
    return e;
}

uf__stmt *uf__new_stmt(uf__parser *p, uf__stmt_kind kind, uf__pos pos)
{
    uf__stmt *s = uf__arena_alloc(p->arena, 1, sizeof *s, p->err);
    if (s == NULL) {
        p->failed = true;
        return NULL;
    }
    s->kind = kind;
    s->pos = pos;
    return s;
}

/* file: [statements] ENDMARKER */
uf__ast_module *uf__parse(const uf__source *src, uf__arena *arena,
                          uf_error *err)
{
    uf__parser p;
    memset(&p, 0, sizeof p);
    p.src = src;
    p.arena = arena;
    p.err = err;
    uf_error lex_err;
    uf_error_clear(&lex_err);
    if (uf__lex(src, arena, &p.toks, &p.ntoks, &lex_err) != 0) {
        if (p.toks == NULL) {
            if (err != NULL)
                *err = lex_err;
            return NULL;
        }
        p.lex_error = &lex_err;
    }
    uf__ast_module *m = uf__arena_alloc(arena, 1, sizeof *m, err);
    if (m == NULL)
        return NULL;
    m->src = src;
    if (!uf__parse_statements(&p, &m->body, UF__TOK_EOF))
        return NULL;
    m->nexprs = p.nexprs;
    if (!uf__ast_check_limits(m, err))
        return NULL;
    return m;
}
