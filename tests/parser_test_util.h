/* Helpers shared by the parser tests (test_parser_*.c): an S-expression
 * printer for trees, a check that expression ids are unique, and parsing
 * a text into a fresh arena. Functions are static inline: each test uses
 * a subset. */
#ifndef UF_TESTS_PARSER_TEST_UTIL_H
#define UF_TESTS_PARSER_TEST_UTIL_H

#include "test_util.h"

#include <math.h>

#include "common/alloc.h"
#include "compiler/front/ast.h"

/* ---- an S-expression printer ------------------------------------------ */

/* Shortest form that reads back to the same double, always float-looking. */
static inline void put_double(uf_test_buf *b, double v)
{
    char tmp[64];
    if (v == floor(v) && fabs(v) < 1e16) {
        uf_test_put(b, "%.1f", v);
        return;
    }
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(tmp, sizeof tmp, "%.*g", prec, v);
        if (strtod(tmp, NULL) == v || isnan(v))
            break;
    }
    uf_test_put(b, "%s", tmp);
    if (strspn(tmp, "-0123456789") == strlen(tmp))
        uf_test_put(b, ".0");
}

static inline void dump_expr(uf_test_buf *b, const uf__expr *e);

static inline void dump_opt(uf_test_buf *b, const uf__expr *e)
{
    if (e == NULL)
        uf_test_put(b, "_");
    else
        dump_expr(b, e);
}

static inline void dump_exprs(uf_test_buf *b, uf__expr *const *v, int n)
{
    for (int k = 0; k < n; k++) {
        uf_test_put(b, " ");
        dump_expr(b, v[k]);
    }
}

static inline void dump_expr(uf_test_buf *b, const uf__expr *e)
{
    switch (e->kind) {
    case UF__EX_INT:
        if (e->u.i.too_big)
            uf_test_put(b, "BIGINT");
        else
            uf_test_put(b, "%llu", (unsigned long long)e->u.i.value);
        break;
    case UF__EX_FLOAT:
        put_double(b, e->u.f);
        break;
    case UF__EX_IMAG:
        put_double(b, e->u.f);
        uf_test_put(b, "j");
        break;
    case UF__EX_STR:
        uf_test_put(b, "'");
        for (size_t k = 0; k < e->u.str.len; k++) {
            unsigned char c = (unsigned char)e->u.str.s[k];
            if (c < 0x20 || c >= 0x7F || c == '\'' || c == '\\')
                uf_test_put(b, "\\x%02x", c);
            else
                uf_test_put(b, "%c", c);
        }
        uf_test_put(b, "'");
        break;
    case UF__EX_BOOL:
        uf_test_put(b, e->u.b ? "True" : "False");
        break;
    case UF__EX_NONE:
        uf_test_put(b, "None");
        break;
    case UF__EX_ELLIPSIS:
        uf_test_put(b, "...");
        break;
    case UF__EX_NAME:
        uf_test_put(b, "%s", e->u.name.id);
        break;
    case UF__EX_ATTR:
        uf_test_put(b, "(. ");
        dump_expr(b, e->u.attr.value);
        uf_test_put(b, " %s)", e->u.attr.attr);
        break;
    case UF__EX_CALL:
        uf_test_put(b, "(call ");
        dump_expr(b, e->u.call.func);
        dump_exprs(b, e->u.call.args, e->u.call.nargs);
        for (int k = 0; k < e->u.call.nkw; k++) {
            uf_test_put(b, " %s=", e->u.call.kw[k].name);
            dump_expr(b, e->u.call.kw[k].value);
        }
        uf_test_put(b, ")");
        break;
    case UF__EX_SUBSCRIPT:
        uf_test_put(b, "([] ");
        dump_expr(b, e->u.subscript.value);
        dump_exprs(b, e->u.subscript.index, e->u.subscript.nindex);
        uf_test_put(b, ")");
        break;
    case UF__EX_SLICE:
        uf_test_put(b, "(: ");
        dump_opt(b, e->u.slice.lower);
        uf_test_put(b, " ");
        dump_opt(b, e->u.slice.upper);
        uf_test_put(b, " ");
        dump_opt(b, e->u.slice.step);
        uf_test_put(b, ")");
        break;
    case UF__EX_UNARY:
        uf_test_put(b, "(%s ", uf__unop_str(e->u.unary.op));
        dump_expr(b, e->u.unary.operand);
        uf_test_put(b, ")");
        break;
    case UF__EX_BINARY:
        uf_test_put(b, "(%s ", uf__binop_str(e->u.binary.op));
        dump_expr(b, e->u.binary.left);
        uf_test_put(b, " ");
        dump_expr(b, e->u.binary.right);
        uf_test_put(b, ")");
        break;
    case UF__EX_BOOLOP:
        uf_test_put(b, "(%s", e->u.boolop.is_and ? "and" : "or");
        dump_exprs(b, e->u.boolop.values, e->u.boolop.n);
        uf_test_put(b, ")");
        break;
    case UF__EX_COMPARE:
        uf_test_put(b, "(cmp ");
        dump_expr(b, e->u.compare.operands[0]);
        for (int k = 0; k < e->u.compare.nops; k++) {
            uf_test_put(b, " %s ", uf__cmpop_str(e->u.compare.ops[k]));
            dump_expr(b, e->u.compare.operands[k + 1]);
        }
        uf_test_put(b, ")");
        break;
    case UF__EX_IFEXP:
        uf_test_put(b, "(ifexp ");
        dump_expr(b, e->u.ifexp.cond);
        uf_test_put(b, " ");
        dump_expr(b, e->u.ifexp.then);
        uf_test_put(b, " ");
        dump_expr(b, e->u.ifexp.orelse);
        uf_test_put(b, ")");
        break;
    case UF__EX_TUPLE:
    case UF__EX_LIST:
        uf_test_put(b, "(%s", e->kind == UF__EX_TUPLE ? "tuple" : "list");
        dump_exprs(b, e->u.seq.elts, e->u.seq.n);
        uf_test_put(b, ")");
        break;
    }
}

static inline void dump_block(uf_test_buf *b, const uf__block *blk);

static inline void dump_stmt(uf_test_buf *b, const uf__stmt *s)
{
    switch (s->kind) {
    case UF__ST_EXPR:
        uf_test_put(b, "(expr ");
        dump_expr(b, s->u.expr.value);
        uf_test_put(b, ")");
        break;
    case UF__ST_ASSIGN:
        uf_test_put(b, "(=");
        dump_exprs(b, s->u.assign.targets, s->u.assign.ntargets);
        uf_test_put(b, " ");
        dump_expr(b, s->u.assign.value);
        uf_test_put(b, ")");
        break;
    case UF__ST_AUGASSIGN:
        uf_test_put(b, "(%s= ", uf__binop_str(s->u.augassign.op));
        dump_expr(b, s->u.augassign.target);
        uf_test_put(b, " ");
        dump_expr(b, s->u.augassign.value);
        uf_test_put(b, ")");
        break;
    case UF__ST_IF:
        uf_test_put(b, "(if ");
        dump_expr(b, s->u.if_.cond);
        uf_test_put(b, " ");
        dump_block(b, &s->u.if_.body);
        if (s->u.if_.orelse.n > 0) {
            uf_test_put(b, " ");
            dump_block(b, &s->u.if_.orelse);
        }
        uf_test_put(b, ")");
        break;
    case UF__ST_FOR:
        uf_test_put(b, "(for ");
        dump_expr(b, s->u.for_.target);
        uf_test_put(b, " ");
        dump_expr(b, s->u.for_.iter);
        uf_test_put(b, " ");
        dump_block(b, &s->u.for_.body);
        if (s->u.for_.orelse.n > 0) {
            uf_test_put(b, " ");
            dump_block(b, &s->u.for_.orelse);
        }
        uf_test_put(b, ")");
        break;
    case UF__ST_WHILE:
        uf_test_put(b, "(while ");
        dump_expr(b, s->u.while_.cond);
        uf_test_put(b, " ");
        dump_block(b, &s->u.while_.body);
        if (s->u.while_.orelse.n > 0) {
            uf_test_put(b, " ");
            dump_block(b, &s->u.while_.orelse);
        }
        uf_test_put(b, ")");
        break;
    case UF__ST_BREAK:
        uf_test_put(b, "(break)");
        break;
    case UF__ST_CONTINUE:
        uf_test_put(b, "(continue)");
        break;
    case UF__ST_PASS:
        uf_test_put(b, "(pass)");
        break;
    case UF__ST_RETURN:
        uf_test_put(b, "(return");
        if (s->u.ret.value != NULL) {
            uf_test_put(b, " ");
            dump_expr(b, s->u.ret.value);
        }
        uf_test_put(b, ")");
        break;
    case UF__ST_ASSERT:
        uf_test_put(b, "(assert ");
        dump_expr(b, s->u.assert_.test);
        if (s->u.assert_.msg != NULL) {
            uf_test_put(b, " ");
            dump_expr(b, s->u.assert_.msg);
        }
        uf_test_put(b, ")");
        break;
    case UF__ST_RAISE:
        uf_test_put(b, "(raise ");
        uf_test_put(b, s->u.raise.cls);
        for (int k = 0; k < s->u.raise.nargs; k++) {
            uf_test_put(b, " ");
            dump_expr(b, s->u.raise.args[k]);
        }
        uf_test_put(b, ")");
        break;
    case UF__ST_IMPORT:
        uf_test_put(b, "(import");
        for (int k = 0; k < s->u.import.n; k++) {
            uf_test_put(b, " %s", s->u.import.names[k].name);
            if (s->u.import.names[k].asname)
                uf_test_put(b, ":%s", s->u.import.names[k].asname);
        }
        uf_test_put(b, ")");
        break;
    case UF__ST_IMPORTFROM:
        uf_test_put(b, "(from %.*s%s", s->u.importfrom.level, "..........",
            s->u.importfrom.module);
        for (int k = 0; k < s->u.importfrom.n; k++) {
            uf_test_put(b, " %s", s->u.importfrom.names[k].name);
            if (s->u.importfrom.names[k].asname)
                uf_test_put(b, ":%s", s->u.importfrom.names[k].asname);
        }
        uf_test_put(b, ")");
        break;
    case UF__ST_FUNCDEF:
        uf_test_put(b, "(def %s (", s->u.funcdef.name);
        for (int k = 0; k < s->u.funcdef.nparams; k++) {
            uf_test_put(b, "%s%s", k ? " " : "", s->u.funcdef.params[k].name);
            if (s->u.funcdef.params[k].default_value) {
                uf_test_put(b, "=");
                dump_expr(b, s->u.funcdef.params[k].default_value);
            }
        }
        uf_test_put(b, ")");
        if (s->u.funcdef.ndecorators > 0) {
            uf_test_put(b, " (@");
            dump_exprs(b, s->u.funcdef.decorators, s->u.funcdef.ndecorators);
            uf_test_put(b, ")");
        }
        uf_test_put(b, " ");
        dump_block(b, &s->u.funcdef.body);
        uf_test_put(b, ")");
        break;
    }
}

static inline void dump_block(uf_test_buf *b, const uf__block *blk)
{
    uf_test_put(b, "[");
    for (int k = 0; k < blk->n; k++) {
        if (k)
            uf_test_put(b, " ");
        dump_stmt(b, blk->stmts[k]);
    }
    uf_test_put(b, "]");
}

static inline void dump_module(uf_test_buf *b, const uf__ast_module *m)
{
    for (int k = 0; k < m->body.n; k++) {
        if (k)
            uf_test_put(b, " ");
        dump_stmt(b, m->body.stmts[k]);
    }
}

/* ---- expression ids: unique and below nexprs ------------------------- */

typedef struct idcheck {
    bool *seen;
    int n;
    bool ok;
} idcheck;

static inline void ids_expr(idcheck *c, const uf__expr *e);

static inline void ids_exprs(idcheck *c, uf__expr *const *v, int n)
{
    for (int k = 0; k < n; k++)
        ids_expr(c, v[k]);
}

static inline void ids_expr(idcheck *c, const uf__expr *e)
{
    if (e == NULL)
        return;
    if (e->id < 0 || e->id >= c->n || c->seen[e->id]) {
        c->ok = false;
        return;
    }
    c->seen[e->id] = true;
    switch (e->kind) {
    case UF__EX_ATTR:
        ids_expr(c, e->u.attr.value);
        break;
    case UF__EX_CALL:
        ids_expr(c, e->u.call.func);
        ids_exprs(c, e->u.call.args, e->u.call.nargs);
        for (int k = 0; k < e->u.call.nkw; k++)
            ids_expr(c, e->u.call.kw[k].value);
        break;
    case UF__EX_SUBSCRIPT:
        ids_expr(c, e->u.subscript.value);
        ids_exprs(c, e->u.subscript.index, e->u.subscript.nindex);
        break;
    case UF__EX_SLICE:
        ids_expr(c, e->u.slice.lower);
        ids_expr(c, e->u.slice.upper);
        ids_expr(c, e->u.slice.step);
        break;
    case UF__EX_UNARY:
        ids_expr(c, e->u.unary.operand);
        break;
    case UF__EX_BINARY:
        ids_expr(c, e->u.binary.left);
        ids_expr(c, e->u.binary.right);
        break;
    case UF__EX_BOOLOP:
        ids_exprs(c, e->u.boolop.values, e->u.boolop.n);
        break;
    case UF__EX_COMPARE:
        ids_exprs(c, e->u.compare.operands, e->u.compare.nops + 1);
        break;
    case UF__EX_IFEXP:
        ids_expr(c, e->u.ifexp.cond);
        ids_expr(c, e->u.ifexp.then);
        ids_expr(c, e->u.ifexp.orelse);
        break;
    case UF__EX_TUPLE:
    case UF__EX_LIST:
        ids_exprs(c, e->u.seq.elts, e->u.seq.n);
        break;
    default:
        break;
    }
}

static inline void ids_block(idcheck *c, const uf__block *b)
{
    for (int k = 0; k < b->n; k++) {
        const uf__stmt *s = b->stmts[k];
        switch (s->kind) {
        case UF__ST_EXPR:
            ids_expr(c, s->u.expr.value);
            break;
        case UF__ST_ASSIGN:
            ids_exprs(c, s->u.assign.targets, s->u.assign.ntargets);
            ids_expr(c, s->u.assign.value);
            break;
        case UF__ST_AUGASSIGN:
            ids_expr(c, s->u.augassign.target);
            ids_expr(c, s->u.augassign.value);
            break;
        case UF__ST_IF:
            ids_expr(c, s->u.if_.cond);
            ids_block(c, &s->u.if_.body);
            ids_block(c, &s->u.if_.orelse);
            break;
        case UF__ST_FOR:
            ids_expr(c, s->u.for_.target);
            ids_expr(c, s->u.for_.iter);
            ids_block(c, &s->u.for_.body);
            ids_block(c, &s->u.for_.orelse);
            break;
        case UF__ST_WHILE:
            ids_expr(c, s->u.while_.cond);
            ids_block(c, &s->u.while_.body);
            ids_block(c, &s->u.while_.orelse);
            break;
        case UF__ST_RETURN:
            ids_expr(c, s->u.ret.value);
            break;
        case UF__ST_ASSERT:
            ids_expr(c, s->u.assert_.test);
            ids_expr(c, s->u.assert_.msg);
            break;
        case UF__ST_FUNCDEF:
            for (int j = 0; j < s->u.funcdef.nparams; j++)
                ids_expr(c, s->u.funcdef.params[j].default_value);
            ids_exprs(c, s->u.funcdef.decorators, s->u.funcdef.ndecorators);
            ids_block(c, &s->u.funcdef.body);
            break;
        default:
            break;
        }
    }
}

static inline bool ids_ok(const uf__ast_module *m)
{
    idcheck c = {calloc((size_t)m->nexprs + 1, 1), m->nexprs, true};
    ids_block(&c, &m->body);
    free(c.seen);
    return c.ok;
}

/* ---- helpers ---------------------------------------------------------- */

/* Live allocations when the current test started: a failed test leaks
 * its arena (CMocka jumps out), which must not fail the next ones. */
static long live_base;

static inline int start_test(void **state)
{
    (void)state;
    live_base = uf__alloc_live();
    return 0;
}

/* Table loops report every bad row, then fail once. */
#define row_fail(nfail, file, line, ...)                                    \
    do {                                                                    \
        print_error("%s:%d: ", (file), (line));                           \
        print_error(__VA_ARGS__);                                          \
        print_error("\n");                                                 \
        (nfail)++;                                                          \
    } while (0)

static inline uf__ast_module *parse_text(const char *text, size_t len,
                                         uf__source *src, uf__arena **arena,
                                         uf_error *err)
{
    src->name = "k.py";
    src->text = text;
    src->len = len;
    uf_error_clear(err);
    *arena = uf__arena_new(err);
    if (*arena == NULL)
        return NULL;
    return uf__parse(src, *arena, err);
}

#endif
