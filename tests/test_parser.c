/* The parser: trees printed as S-expressions against expected strings,
 * every error path with its position and message, the seed kernels, and
 * robustness (prefixes, byte flips, out-of-memory). */
#include "test_util.h"

#include <math.h>

#include "common/alloc.h"
#include "compiler/ast.h"

/* ---- an S-expression printer ------------------------------------------ */

/* Shortest form that reads back to the same double, always float-looking. */
static void put_double(uf_test_buf *b, double v)
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

static void dump_expr(uf_test_buf *b, const uf__expr *e);

static void dump_opt(uf_test_buf *b, const uf__expr *e)
{
    if (e == NULL)
        uf_test_put(b, "_");
    else
        dump_expr(b, e);
}

static void dump_exprs(uf_test_buf *b, uf__expr *const *v, int n)
{
    for (int k = 0; k < n; k++) {
        uf_test_put(b, " ");
        dump_expr(b, v[k]);
    }
}

static void dump_expr(uf_test_buf *b, const uf__expr *e)
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

static void dump_block(uf_test_buf *b, const uf__block *blk);

static void dump_stmt(uf_test_buf *b, const uf__stmt *s)
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

static void dump_block(uf_test_buf *b, const uf__block *blk)
{
    uf_test_put(b, "[");
    for (int k = 0; k < blk->n; k++) {
        if (k)
            uf_test_put(b, " ");
        dump_stmt(b, blk->stmts[k]);
    }
    uf_test_put(b, "]");
}

static void dump_module(uf_test_buf *b, const uf__ast_module *m)
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

static void ids_expr(idcheck *c, const uf__expr *e);

static void ids_exprs(idcheck *c, uf__expr *const *v, int n)
{
    for (int k = 0; k < n; k++)
        ids_expr(c, v[k]);
}

static void ids_expr(idcheck *c, const uf__expr *e)
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

static void ids_block(idcheck *c, const uf__block *b)
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

static bool ids_ok(const uf__ast_module *m)
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

static int start_test(void **state)
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

static uf__ast_module *parse_text(const char *text, size_t len,
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

/* First line of the error message (the rest is the source excerpt). */
static void first_line(const uf_error *err, char *out, size_t n)
{
    size_t k = strcspn(err->message, "\n");
    if (k >= n)
        k = n - 1;
    memcpy(out, err->message, k);
    out[k] = '\0';
}

/* ---- trees ------------------------------------------------------------ */

typedef struct tree_case {
    const char *file;
    int line;
    const char *src;
    const char *expect;
} tree_case;

static const tree_case trees[] = {
    /* precedence and associativity */
    {LOC, "x = 1 + 2 * 3\n", "(= x (+ 1 (* 2 3)))"},
    {LOC, "x = (1 + 2) * 3\n", "(= x (* (+ 1 2) 3))"},
    {LOC, "x = a - b - c\n", "(= x (- (- a b) c))"},
    {LOC, "x = a / b // c % d @ e\n", "(= x (@ (% (// (/ a b) c) d) e))"},
    {LOC, "x = 2 ** 3 ** 2\n", "(= x (** 2 (** 3 2)))"},
    {LOC, "x = -2 ** 2\n", "(= x (- (** 2 2)))"},
    {LOC, "x = 2 ** -1\n", "(= x (** 2 (- 1)))"},
    {LOC, "x = -a * b\n", "(= x (* (- a) b))"},
    {LOC, "x = ~a + +b - -c\n", "(= x (- (+ (~ a) (+ b)) (- c)))"},
    {LOC, "x = --a\n", "(= x (- (- a)))"},
    {LOC, "x = a | b ^ c & d << e + f\n",
     "(= x (| a (^ b (& c (<< d (+ e f))))))"},
    {LOC, "x = a >> 1 << 2\n", "(= x (<< (>> a 1) 2))"},
    {LOC, "x = a & b | c & d\n", "(= x (| (& a b) (& c d)))"},
    {LOC, "x = not a == b\n", "(= x (not (cmp a == b)))"},
    {LOC, "x = not not a\n", "(= x (not (not a)))"},
    {LOC, "x = a or b and c or d\n", "(= x (or a (and b c) d))"},
    {LOC, "x = a and b and c\n", "(= x (and a b c))"},
    {LOC, "x = not a and b\n", "(= x (and (not a) b))"},
    {LOC, "x = a < b <= c\n", "(= x (cmp a < b <= c))"},
    {LOC, "x = a == b != c > d >= e\n", "(= x (cmp a == b != c > d >= e))"},
    {LOC, "x = a is not b\n", "(= x (cmp a is not b))"},
    {LOC, "x = a not in b\n", "(= x (cmp a not in b))"},
    {LOC, "x = a is b in c\n", "(= x (cmp a is b in c))"},
    {LOC, "x = a + 1 < b * 2\n", "(= x (cmp (+ a 1) < (* b 2)))"},
    {LOC, "x = a | b < c\n", "(= x (cmp (| a b) < c))"},
    {LOC, "x = a if c else b\n", "(= x (ifexp c a b))"},
    {LOC, "x = a if c else b if d else e\n",
     "(= x (ifexp c a (ifexp d b e)))"},
    {LOC, "x = a or b if c or d else e and f\n",
     "(= x (ifexp (or c d) (or a b) (and e f)))"},
    {LOC, "x = (a if c else b) + 1\n", "(= x (+ (ifexp c a b) 1))"},
    /* literals */
    {LOC, "x = 1_000 + 0x1f + 0o17 + 0b101 + 0\n",
     "(= x (+ (+ (+ (+ 1000 31) 15) 5) 0))"},
    {LOC, "x = 18446744073709551615\n", "(= x 18446744073709551615)"},
    {LOC, "x = 18446744073709551616\n", "(= x BIGINT)"},
    {LOC, "x = 0xffff_ffff_ffff_ffff_f\n", "(= x BIGINT)"},
    {LOC, "x = 1.5, 1., .5, 1e-3, 1_0.5e+1_0, 2E2\n",
     "(= x (tuple 1.5 1.0 0.5 0.001 105000000000.0 200.0))"},
    {LOC, "x = 2j + 1.5J + 1e3j\n", "(= x (+ (+ 2.0j 1.5j) 1000.0j))"},
    {LOC, "x = 1e400\n", "(= x inf)"},
    {LOC, "x = 00 + 0_0\n", "(= x (+ 0 0))"},
    {LOC, "x = True, False, None, ...\n",
     "(= x (tuple True False None ...))"},
    {LOC, "x = 'a' \"b\" '''c''' \"\"\"d\"\"\"\n", "(= x 'abcd')"},
    {LOC, "x = 'a\\tb\\n\\\\\\'\\\"\\x41\\101\\0'\n",
     "(= x 'a\\x09b\\x0a\\x5c\\x27\"AA\\x00')"},
    {LOC, "x = r'a\\tb\\'' + R\"\\d\"\n",
     "(= x (+ 'a\\x5ctb\\x5c\\x27' '\\x5cd'))"},
    {LOC, "x = u'\\u00e9\\U0001F600' + b'\\xff\\u00e9'\n",
     "(= x (+ '\\xc3\\xa9\\xf0\\x9f\\x98\\x80' '\\xff\\x5cu00e9'))"},
    {LOC, "x = 'a\\q' + '''x\ny'''\n", "(= x (+ 'a\\x5cq' 'x\\x0ay'))"},
    {LOC, "x = 'ab\\\ncd'\n", "(= x 'abcd')"},
    {LOC, "x = 1if y else 2\n", "(= x (ifexp y 1 2))"},
    /* primaries */
    {LOC, "x = math.pi\n", "(= x (. math pi))"},
    {LOC, "x = a.b.c(1)(2)[3]\n",
     "(= x ([] (call (call (. (. a b) c) 1) 2) 3))"},
    {LOC, "f()\n", "(expr (call f))"},
    {LOC, "f(a, b=1, c=x + 1,)\n", "(expr (call f a b=1 c=(+ x 1)))"},
    {LOC, "print('x', 1)\n", "(expr (call print 'x' 1))"},
    {LOC, "x = a[i, j]\n", "(= x ([] a i j))"},
    {LOC, "x = a[(i, j)]\n", "(= x ([] a (tuple i j)))"},
    {LOC, "x = a[i,]\n", "(= x ([] a i))"},
    {LOC, "x = a[1:2, ::3]\n", "(= x ([] a (: 1 2 _) (: _ _ 3)))"},
    {LOC, "x = a[:]\n", "(= x ([] a (: _ _ _)))"},
    {LOC, "x = a[::]\n", "(= x ([] a (: _ _ _)))"},
    {LOC, "x = a[i:]\n", "(= x ([] a (: i _ _)))"},
    {LOC, "x = a[:-1]\n", "(= x ([] a (: _ (- 1) _)))"},
    {LOC, "x = a[::-1, i + 1]\n", "(= x ([] a (: _ _ (- 1)) (+ i 1)))"},
    {LOC, "x = a[...]\n", "(= x ([] a ...))"},
    {LOC, "x = a[..., 0]\n", "(= x ([] a ... 0))"},
    {LOC, "x = M.shape[0]\n", "(= x ([] (. M shape) 0))"},
    {LOC, "x = -a[0] ** 2\n", "(= x (- (** ([] a 0) 2)))"},
    /* tuples and lists */
    {LOC, "x = ()\n", "(= x (tuple))"},
    {LOC, "x = (1,)\n", "(= x (tuple 1))"},
    {LOC, "x = 1,\n", "(= x (tuple 1))"},
    {LOC, "x = (1)\n", "(= x 1)"},
    {LOC, "x = ((1, 2), 3)\n", "(= x (tuple (tuple 1 2) 3))"},
    {LOC, "x = []\n", "(= x (list))"},
    {LOC, "x = ['f4(f4)', 'f8(f8)',]\n", "(= x (list 'f4(f4)' 'f8(f8)'))"},
    {LOC, "x = [\n  1,\n  2\n]\n", "(= x (list 1 2))"},
    /* statements */
    {LOC, "x, y = y, x\n", "(= (tuple x y) (tuple y x))"},
    {LOC, "(x, y) = [a, b] = 1, 2\n",
     "(= (tuple x y) (tuple a b) (tuple 1 2))"},
    {LOC, "a = b = 0\n", "(= a b 0)"},
    {LOC, "a[i, j] = x.y = 0\n", "(= ([] a i j) (. x y) 0)"},
    {LOC, "x, = t\n", "(= (tuple x) t)"},
    {LOC, "x, (y, z) = t\n", "(= (tuple x (tuple y z)) t)"},
    {LOC, "x += 1\nx -= 1\nx *= 1\nx /= 1\nx //= 1\nx %= 1\nx **= 1\n",
     "(+= x 1) (-= x 1) (*= x 1) (/= x 1) (//= x 1) (%= x 1) (**= x 1)"},
    {LOC, "x &= 1\nx |= 1\nx ^= 1\nx <<= 1\nx >>= 1\nx @= 1\n",
     "(&= x 1) (|= x 1) (^= x 1) (<<= x 1) (>>= x 1) (@= x 1)"},
    {LOC, "a[i] += b[j] * 2\n", "(+= ([] a i) (* ([] b j) 2))"},
    {LOC, "x += 1, 2\n", "(+= x (tuple 1 2))"},
    {LOC, "x = 1; y = 2;\n", "(= x 1) (= y 2)"},
    {LOC, "if a:\n    x = 1\n", "(if a [(= x 1)])"},
    {LOC, "if a: x = 1; y = 2\n", "(if a [(= x 1) (= y 2)])"},
    {LOC, "if a:\n    pass\nelif b:\n    x = 1\nelif c:\n    x = 2\n"
          "else:\n    x = 3\n",
     "(if a [(pass)] [(if b [(= x 1)] [(if c [(= x 2)] [(= x 3)])])])"},
    {LOC, "if a:\n    if b:\n        x = 1\n    else:\n        x = 2\n"
          "x = 3\n",
     "(if a [(if b [(= x 1)] [(= x 2)])]) (= x 3)"},
    {LOC, "for i in range(10):\n    s += i\nelse:\n    s = 0\n",
     "(for i (call range 10) [(+= s i)] [(= s 0)])"},
    {LOC, "for i, j in pairs:\n    pass\n",
     "(for (tuple i j) pairs [(pass)])"},
    {LOC, "for (i, j) in a, b:\n    pass\n",
     "(for (tuple i j) (tuple a b) [(pass)])"},
    {LOC, "for x, in t: pass\n", "(for (tuple x) t [(pass)])"},
    {LOC, "for a[i] in t: pass\n", "(for ([] a i) t [(pass)])"},
    {LOC, "for [a, b] in x: pass\n", "(for (tuple a b) x [(pass)])"},
    {LOC, "for (a) in x: pass\n", "(for a x [(pass)])"},
    {LOC, "while i < n:\n    i += 1\n    if i > 5:\n        break\n"
          "    continue\nelse:\n    pass\n",
     "(while (cmp i < n) [(+= i 1) (if (cmp i > 5) [(break)]) (continue)] "
     "[(pass)])"},
    {LOC, "while True:\n    for i in x:\n        break\n    break\n",
     "(while True [(for i x [(break)]) (break)])"},
    {LOC, "def f():\n    return\n", "(def f () [(return)])"},
    {LOC, "def f(a, b=1, c=-2.5,):\n    return a, b\n",
     "(def f (a b=1 c=(- 2.5)) [(return (tuple a b))])"},
    {LOC, "def f(x: float, y: int = 2) -> float:\n    return x\n",
     "(def f (x y=2) [(return x)])"},
    {LOC, "def f(x): return x + 1\n", "(def f (x) [(return (+ x 1))])"},
    {LOC, "def f():\n    def g():\n        return 1\n    return g()\n",
     "(def f () [(def g () [(return 1)]) (return (call g))])"},
    {LOC, "def f():\n    for i in x:\n        def g():\n            pass\n",
     "(def f () [(for i x [(def g () [(pass)])])])"},
    {LOC, "@vectorize\ndef f(x):\n    return x\n",
     "(def f (x) (@ vectorize) [(return x)])"},
    {LOC, "@vectorize(['float32(float32, float32)'], target='parallel')\n"
          "@other.deco\n"
          "def f(x, y):\n    return x\n",
     "(def f (x y) (@ (call vectorize (list 'float32(float32, float32)') "
     "target='parallel') (. other deco)) [(return x)])"},
    {LOC, "@cuda.jit(device=True)\ndef f(x):\n    return x\n",
     "(def f (x) (@ (call (. cuda jit) device=True)) [(return x)])"},
    {LOC, "def f():\n    assert x > 0\n    assert x, 'msg'\n",
     "(def f () [(assert (cmp x > 0)) (assert x 'msg')])"},
    {LOC, "import math\nimport numpy as np, numba.cuda, a.b.c as d\n",
     "(import math) (import numpy:np numba.cuda a.b.c:d)"},
    {LOC, "from numba import vectorize, float32 as f4\n",
     "(from numba vectorize float32:f4)"},
    {LOC, "from numba.cuda import (jit,\n    grid as g,)\n",
     "(from numba.cuda jit grid:g)"},
    {LOC, "from . import x\nfrom ..a import y\nfrom ... import z\n",
     "(from . x) (from ..a y) (from ... z)"},
    {LOC, "from . a import b\nfrom .... c import d\n",
     "(from .a b) (from ....c d)"},
    {LOC, "SQRT_2PI = float32((2 * math.pi) ** 0.5)\n",
     "(= SQRT_2PI (call float32 (** (* 2 (. math pi)) 0.5)))"},
    {LOC, "x = 1  # comment\n\n   \n# another\n  # indented comment\ny = 2",
     "(= x 1) (= y 2)"},
    {LOC, "x = (1 +\n     2)\ny = [1,\n# c\n  2]\n",
     "(= x (+ 1 2)) (= y (list 1 2))"},
    {LOC, "x = 1 + \\\n    2\n", "(= x (+ 1 2))"},
    {LOC, "if a:\n\tx = 1\n\ty = 2\n", "(if a [(= x 1) (= y 2)])"},
    {LOC, "if a:\r\n    x = 1\r\ny = 2\r\n", "(if a [(= x 1)]) (= y 2)"},
    {LOC, "if a:\n  if b:\n    if c:\n      x = 1\ny = 2\n",
     "(if a [(if b [(if c [(= x 1)])])]) (= y 2)"},
    {LOC, "", ""},
    {LOC, "\n\n# only comments\n", ""},
    {LOC, "x = 1", "(= x 1)"},
    {LOC, "match = 1\ncase = match\n", "(= match 1) (= case match)"},
    {LOC, "x = a[1:2:3]\n", "(= x ([] a (: 1 2 3)))"},
    {LOC, "x = not a in b\n", "(= x (not (cmp a in b)))"},
    {LOC, "x = a if b else c, d\n", "(= x (tuple (ifexp b a c) d))"},
    {LOC, "x = -1 ** 2 ** -3\n", "(= x (- (** 1 (** 2 (- 3)))))"},
    {LOC, "x = 1 < 2 == 3 != 4 is 5 is not 6 in 7 not in 8\n",
     "(= x (cmp 1 < 2 == 3 != 4 is 5 is not 6 in 7 not in 8))"},
    {LOC, "x = f(a)(b)[c].d\n", "(= x (. ([] (call (call f a) b) c) d))"},
    {LOC, "x = a + b if c else d - e\n",
     "(= x (ifexp c (+ a b) (- d e)))"},
    {LOC, "x = a < b and b < c or not d\n",
     "(= x (or (and (cmp a < b) (cmp b < c)) (not d)))"},
    {LOC, "x = ~-+a\n", "(= x (~ (- (+ a))))"},
    {LOC, "x = a ** b[0] ** c.d\n", "(= x (** a (** ([] b 0) (. c d))))"},
    {LOC, "x = 2 * -a ** 2\n", "(= x (* 2 (- (** a 2))))"},
    {LOC, "x = a % b // c * d / e\n", "(= x (/ (* (// (% a b) c) d) e))"},
    {LOC, "x = a << b + c >> d\n", "(= x (>> (<< a (+ b c)) d))"},
    {LOC, "x = a ^ b | c & d ^ e\n", "(= x (| (^ a b) (^ (& c d) e)))"},
    {LOC, "x = (a, b)[0]\n", "(= x ([] (tuple a b) 0))"},
    {LOC, "x = 'abc'[1]\n", "(= x ([] 'abc' 1))"},
    {LOC, "x = (1).real\n", "(= x (. 1 real))"},
    {LOC, "for i in range(10): break\n", "(for i (call range 10) [(break)])"},
    {LOC, "while 1: continue\n", "(while 1 [(continue)])"},
    {LOC, "def f(a,): pass\n", "(def f (a) [(pass)])"},
    {LOC, "def f():\n    assert x, (a, b)\n",
     "(def f () [(assert x (tuple a b))])"},
    {LOC, "@numba.vectorize(\"f8(f8)\", nopython=True, cache=False)\n"
          "def f(x): return x\n",
     "(def f (x) (@ (call (. numba vectorize) 'f8(f8)' nopython=True "
     "cache=False)) [(return x)])"},
    {LOC, "@a\n@b.c\n@d(1)\ndef f(): pass\n",
     "(def f () (@ a (. b c) (call d 1)) [(pass)])"},
    {LOC, "from numba import (vectorize)\n", "(from numba vectorize)"},
    {LOC, "def f():\n    for i in x:\n        for j in y:\n"
          "            continue\n        break\n    return\n",
     "(def f () [(for i x [(for j y [(continue)]) (break)]) (return)])"},
    {LOC, "def f():\n    while a:\n        def g():\n            return 1\n"
          "        break\n",
     "(def f () [(while a [(def g () [(return 1)]) (break)])])"},
    {LOC, "x = a.real + z.imag * 1j\n",
     "(= x (+ (. a real) (* (. z imag) 1.0j)))"},
};

static void test_trees(void **state)
{
    (void)state;
    int nfail = 0;
    for (size_t k = 0; k < sizeof trees / sizeof *trees; k++) {
        const tree_case *c = &trees[k];
        uf__source src;
        uf__arena *arena;
        uf_error err;
        uf__ast_module *m = parse_text(c->src, strlen(c->src), &src, &arena,
                                       &err);
        if (m == NULL) {
            uf__arena_free(arena);
            row_fail(nfail, c->file, c->line, "parse failed: %s at %d:%d",
                     err.message, err.line, err.column);
            continue;
        }
        uf_test_buf b = {.n = 0};
        b.s[0] = '\0';
        dump_module(&b, m);
        bool same = strcmp(b.s, c->expect) == 0;
        bool ids = ids_ok(m);
        uf__arena_free(arena);
        if (!same)
            row_fail(nfail, c->file, c->line, "got\n  %s\nexpected\n  %s",
                     b.s, c->expect);
        if (!ids)
            row_fail(nfail, c->file, c->line, "expression ids not unique or "
                     "out of range");
    }
    assert_int_equal(nfail, 0);
    assert_int_equal(uf__alloc_live(), live_base);
}

/* ---- errors ----------------------------------------------------------- */

typedef struct error_case {
    const char *file;
    int line;
    const char *src;
    size_t len; /* 0: strlen(src) (set for sources holding a NUL) */
    int code;
    int eline, ecol;
    const char *message; /* first line of err->message */
} error_case;

#define SYN UF_ERR_SYNTAX
#define UNS UF_ERR_UNSUPPORTED
#define MAYBE " here. Maybe you meant '==' instead of '='?"

/* Positions and messages are CPython 3.11's unless a comment says why
 * not. */
static const error_case errors[] = {
    /* lexer */
    {LOC, "x = $\n", 0, SYN, 1, 5, "invalid syntax"},
    {LOC, "x = !\n", 0, SYN, 1, 5, "invalid syntax"},
    {LOC, "x = ?\n", 0, SYN, 1, 5, "invalid syntax"},
    {LOC, "x = `a`\n", 0, SYN, 1, 5, "invalid syntax"},
    {LOC, "x = \x01\n", 0, SYN, 1, 5, "invalid non-printable character U+0001"},
    {LOC, "x = \xe2\x82\xac\n", 0, SYN, 1, 5,
     "invalid character '\xe2\x82\xac' (U+20AC)"},
    /* non-ASCII identifiers are refused (CPython accepts letters) */
    {LOC, "\xcf\x80 = 3\n", 0, SYN, 1, 1,
     "invalid character '\xcf\x80' (U+03C0)"},
    {LOC, "ab\xcf\x80 = 3\n", 0, SYN, 1, 3,
     "invalid character '\xcf\x80' (U+03C0)"},
    {LOC, "x = \xff\n", 0, SYN, 1, 5, "invalid UTF-8 byte 0xFF in source"},
    {LOC, "x = 1\0\n", 7, SYN, 1, 6, "source code cannot contain null bytes"},
    {LOC, "x = 1__0\n", 0, SYN, 1, 6, "invalid decimal literal"},
    {LOC, "x = 1_\n", 0, SYN, 1, 6, "invalid decimal literal"},
    {LOC, "x = 1_000_\n", 0, SYN, 1, 10, "invalid decimal literal"},
    {LOC, "x = 1.5_\n", 0, SYN, 1, 8, "invalid decimal literal"},
    {LOC, "x = 1e5_\n", 0, SYN, 1, 8, "invalid decimal literal"},
    {LOC, "x = 0x\n", 0, SYN, 1, 6, "invalid hexadecimal literal"},
    {LOC, "x = 0x_\n", 0, SYN, 1, 7, "invalid hexadecimal literal"},
    {LOC, "x = 0o\n", 0, SYN, 1, 6, "invalid octal literal"},
    {LOC, "x = 0b\n", 0, SYN, 1, 6, "invalid binary literal"},
    {LOC, "x = 0b2\n", 0, SYN, 1, 7, "invalid digit '2' in binary literal"},
    {LOC, "x = 0o19\n", 0, SYN, 1, 8, "invalid digit '9' in octal literal"},
    {LOC, "x = 0b12\n", 0, SYN, 1, 8, "invalid digit '2' in binary literal"},
    {LOC, "x = 0b1_\n", 0, SYN, 1, 8, "invalid binary literal"},
    {LOC, "x = 012\n", 0, SYN, 1, 5, "leading zeros in decimal integer "
     "literals are not permitted; use an 0o prefix for octal integers"},
    {LOC, "x = 0_7\n", 0, SYN, 1, 5, "leading zeros in decimal integer "
     "literals are not permitted; use an 0o prefix for octal integers"},
    {LOC, "x = 1abc\n", 0, SYN, 1, 5, "invalid decimal literal"},
    {LOC, "x = 1.5abc\n", 0, SYN, 1, 7, "invalid decimal literal"},
    {LOC, "x = 1e\n", 0, SYN, 1, 5, "invalid decimal literal"},
    {LOC, "x = 1e+\n", 0, SYN, 1, 7, "invalid decimal literal"},
    {LOC, "x = 1.5jx\n", 0, SYN, 1, 8, "invalid imaginary literal"},
    {LOC, "x = 0x1g\n", 0, SYN, 1, 7, "invalid hexadecimal literal"},
    {LOC, "x = 1.__class__\n", 0, SYN, 1, 6, "invalid decimal literal"},
    {LOC, "x = 'abc\n", 0, SYN, 1, 5,
     "unterminated string literal (detected at line 1)"},
    {LOC, "x = 'abc", 0, SYN, 1, 5,
     "unterminated string literal (detected at line 1)"},
    {LOC, "x = b'abc\\\n", 0, SYN, 1, 5,
     "unterminated string literal (detected at line 1)"},
    {LOC, "x = b'abc\\\n\n", 0, SYN, 1, 5,
     "unterminated string literal (detected at line 2)"},
    {LOC, "x = '''abc\n\n", 0, SYN, 1, 5,
     "unterminated triple-quoted string literal (detected at line 2)"},
    {LOC, "x = \"\"\"abc\"\"\n", 0, SYN, 1, 5,
     "unterminated triple-quoted string literal (detected at line 1)"},
    /* escapes: CPython reports these at the string; ufjit at the escape */
    {LOC, "x = 'ab\\x4'\n", 0, SYN, 1, 8, "truncated \\xXX escape"},
    {LOC, "x = '\\u12'\n", 0, SYN, 1, 6, "truncated \\uXXXX escape"},
    {LOC, "x = '\\U0011ffff'\n", 0, SYN, 1, 6, "illegal Unicode character"},
    {LOC, "x = '''\n\\U1'''\n", 0, SYN, 2, 1, "truncated \\UXXXXXXXX escape"},
    {LOC, "x = '\\N{DASH}'\n", 0, UNS, 1, 6,
     "\\N{...} escapes are not supported in kernels"},
    {LOC, "x = b'\xc3\xa9'\n", 0, SYN, 1, 5,
     "bytes can only contain ASCII literal characters"},
    {LOC, "x = f'{y}'\n", 0, UNS, 1, 5,
     "f-strings are not supported in kernels"},
    {LOC, "x = rF'{y}'\n", 0, UNS, 1, 5,
     "f-strings are not supported in kernels"},
    {LOC, "x = 1 \\ y\n", 0, SYN, 1, 8,
     "unexpected character after line continuation character"},
    {LOC, "x = 1 +\\", 0, SYN, 1, 9, "unexpected EOF while parsing"},
    /* brackets */
    {LOC, "f(1,\n", 0, SYN, 1, 2, "'(' was never closed"},
    {LOC, "f((1,\n", 0, SYN, 1, 3, "'(' was never closed"},
    {LOC, "x = [1,\n2\n", 0, SYN, 1, 5, "'[' was never closed"},
    {LOC, "x = (1 +\n", 0, SYN, 1, 5, "'(' was never closed"},
    {LOC, "f(1]\n", 0, SYN, 1, 4,
     "closing parenthesis ']' does not match opening parenthesis '('"},
    {LOC, "x = [1,\n 2)\n", 0, SYN, 2, 3, "closing parenthesis ')' does not "
     "match opening parenthesis '[' on line 1"},
    {LOC, ")\n", 0, SYN, 1, 1, "unmatched ')'"},
    {LOC, "x = 1}\n", 0, SYN, 1, 6, "unmatched '}'"},
    /* indentation (CPython puts these carets on the last blank or at
     * column 1; ufjit puts them on the statement) */
    {LOC, "x = 1\n    y = 2\n", 0, SYN, 2, 5, "unexpected indent"},
    {LOC, "  x = 1\n", 0, SYN, 1, 3, "unexpected indent"},
    {LOC, "if x:\n        a\n    b\n", 0, SYN, 3, 5,
     "unindent does not match any outer indentation level"},
    {LOC, "if x:\n    pass\n  else: pass\n", 0, SYN, 3, 3,
     "unindent does not match any outer indentation level"},
    {LOC, "def f():\n\tif x:\n        pass\n", 0, SYN, 3, 9,
     "inconsistent use of tabs and spaces in indentation"},
    {LOC, "def f():\n        if x:\n\tpass\n", 0, SYN, 3, 2,
     "inconsistent use of tabs and spaces in indentation"},
    {LOC, "if a:\n        x = 1\n\ty = 2\n", 0, SYN, 3, 2,
     "inconsistent use of tabs and spaces in indentation"},
    {LOC, "if x:\npass\n", 0, SYN, 2, 1,
     "expected an indented block after 'if' statement on line 1"},
    {LOC, "if x:\n", 0, SYN, 1, 6,
     "expected an indented block after 'if' statement on line 1"},
    {LOC, "x = 1\nif x:", 0, SYN, 2, 6,
     "expected an indented block after 'if' statement on line 2"},
    {LOC, "def f(x):\nreturn x\n", 0, SYN, 2, 1,
     "expected an indented block after function definition on line 1"},
    {LOC, "@d\ndef f(x):\n", 0, SYN, 2, 10,
     "expected an indented block after function definition on line 2"},
    {LOC, "for x in y:\npass\n", 0, SYN, 2, 1,
     "expected an indented block after 'for' statement on line 1"},
    {LOC, "while x:\npass\n", 0, SYN, 2, 1,
     "expected an indented block after 'while' statement on line 1"},
    {LOC, "if x:\n    pass\nelif y:\npass\n", 0, SYN, 4, 1,
     "expected an indented block after 'elif' statement on line 3"},
    {LOC, "if x:\n    pass\nelse:\npass\n", 0, SYN, 4, 1,
     "expected an indented block after 'else' statement on line 3"},
    {LOC, "def f():\n    if x:\n    y = 1\n", 0, SYN, 3, 5,
     "expected an indented block after 'if' statement on line 2"},
    {LOC, "def f():\n    for i in x:\n        pass\n    else:\n", 0, SYN, 4,
     10, "expected an indented block after 'else' statement on line 4"},
    /* missing ':' */
    {LOC, "if x\n    pass\n", 0, SYN, 1, 5, "expected ':'"},
    {LOC, "def f()\n    pass\n", 0, SYN, 1, 8, "expected ':'"},
    {LOC, "for x in y\n    pass\n", 0, SYN, 1, 11, "expected ':'"},
    {LOC, "while x\n    pass\n", 0, SYN, 1, 8, "expected ':'"},
    {LOC, "if x:\n    pass\nelse\n    pass\n", 0, SYN, 3, 5, "expected ':'"},
    {LOC, "def f() -> int\n    pass\n", 0, SYN, 1, 15, "expected ':'"},
    /* targets */
    {LOC, "1 = x\n", 0, SYN, 1, 1, "cannot assign to literal" MAYBE},
    {LOC, "f() = 1\n", 0, SYN, 1, 1, "cannot assign to function call" MAYBE},
    {LOC, "a + b = 1\n", 0, SYN, 1, 1, "cannot assign to expression" MAYBE},
    {LOC, "-a = 1\n", 0, SYN, 1, 1, "cannot assign to expression" MAYBE},
    {LOC, "... = 1\n", 0, SYN, 1, 1, "cannot assign to ellipsis" MAYBE},
    {LOC, "'s' = 1\n", 0, SYN, 1, 1, "cannot assign to literal" MAYBE},
    {LOC, "x = 1 = y\n", 0, SYN, 1, 5, "cannot assign to literal"},
    {LOC, "a, 1 = x\n", 0, SYN, 1, 4, "cannot assign to literal" MAYBE},
    {LOC, "(a, f()) = x\n", 0, SYN, 1, 5, "cannot assign to function call"},
    {LOC, "[a, 1] = x\n", 0, SYN, 1, 5, "cannot assign to literal"},
    {LOC, "a, [b, 1] = x\n", 0, SYN, 1, 8, "cannot assign to literal"},
    {LOC, "(1) = x\n", 0, SYN, 1, 2, "cannot assign to literal" MAYBE},
    {LOC, "x, = 1, = y\n", 0, SYN, 1, 6, "cannot assign to literal"},
    {LOC, "True = 1\n", 0, SYN, 1, 1, "cannot assign to True"},
    {LOC, "None = 1\n", 0, SYN, 1, 1, "cannot assign to None"},
    {LOC, "a if b else c = 1\n", 0, SYN, 1, 1,
     "cannot assign to conditional expression"},
    {LOC, "a < b = 1\n", 0, SYN, 1, 1, "cannot assign to comparison"},
    {LOC, "not a = 1\n", 0, SYN, 1, 1, "cannot assign to expression"},
    {LOC, "a and b = 1\n", 0, SYN, 1, 1, "cannot assign to expression"},
    {LOC, "for 1 in x: pass\n", 0, SYN, 1, 5, "cannot assign to literal"},
    {LOC, "for f() in x: pass\n", 0, SYN, 1, 5,
     "cannot assign to function call"},
    {LOC, "for a, b + 1 in x: pass\n", 0, SYN, 1, 8,
     "cannot assign to expression"},
    {LOC, "f() += 1\n", 0, SYN, 1, 1,
     "'function call' is an illegal expression for augmented assignment"},
    {LOC, "1 += 1\n", 0, SYN, 1, 1,
     "'literal' is an illegal expression for augmented assignment"},
    {LOC, "(a, b) += 1\n", 0, SYN, 1, 1,
     "'tuple' is an illegal expression for augmented assignment"},
    {LOC, "a, b += 1\n", 0, SYN, 1, 1,
     "'tuple' is an illegal expression for augmented assignment"},
    {LOC, "[a] += 1\n", 0, SYN, 1, 1,
     "'list' is an illegal expression for augmented assignment"},
    /* calls and definitions */
    {LOC, "x = (1 if 2)\n", 0, SYN, 1, 6,
     "expected 'else' after 'if' expression"},
    /* CPython points at the ')' here; ufjit at the argument */
    {LOC, "f(a=1, 2)\n", 0, SYN, 1, 8,
     "positional argument follows keyword argument"},
    {LOC, "f(a=1, a=2)\n", 0, SYN, 1, 8, "keyword argument repeated: a"},
    {LOC, "f(1=2)\n", 0, SYN, 1, 3,
     "expression cannot contain assignment, perhaps you meant \"==\"?"},
    {LOC, "def f(a=1, b): pass\n", 0, SYN, 1, 12,
     "non-default argument follows default argument"},
    {LOC, "def f(a, a): pass\n", 0, SYN, 1, 10,
     "duplicate argument 'a' in function definition"},
    {LOC, "return 1\n", 0, SYN, 1, 1, "'return' outside function"},
    {LOC, "break\n", 0, SYN, 1, 1, "'break' outside loop"},
    {LOC, "continue\n", 0, SYN, 1, 1, "'continue' not properly in loop"},
    {LOC, "def f():\n    break\n", 0, SYN, 2, 5, "'break' outside loop"},
    {LOC, "while x:\n    pass\nelse:\n    break\n", 0, SYN, 4, 5,
     "'break' outside loop"},
    {LOC, "for i in x:\n    def g():\n        continue\n", 0, SYN, 3, 9,
     "'continue' not properly in loop"},
    /* CPython points past the end of the line here */
    {LOC, "x = \"a\" b\"b\"\n", 0, SYN, 1, 9,
     "cannot mix bytes and nonbytes literals"},
    {LOC, "from x import a,\n", 0, SYN, 1, 17,
     "trailing comma not allowed without surrounding parentheses"},
    /* invalid syntax */
    {LOC, "import a.\n", 0, SYN, 1, 10, "invalid syntax"},
    {LOC, "x = \n", 0, SYN, 1, 5, "invalid syntax"},
    {LOC, "a[]\n", 0, SYN, 1, 3, "invalid syntax"},
    {LOC, "x = 1 if 2 else\n", 0, SYN, 1, 16, "invalid syntax"},
    {LOC, "x = a.1\n", 0, SYN, 1, 6, "invalid syntax"},
    {LOC, "import\n", 0, SYN, 1, 7, "invalid syntax"},
    {LOC, "from a import ()\n", 0, SYN, 1, 16, "invalid syntax"},
    {LOC, "x = 1;; y = 2\n", 0, SYN, 1, 7, "invalid syntax"},
    {LOC, "@d\nx = 1\n", 0, SYN, 2, 1, "invalid syntax"},
    {LOC, "elif x: pass\n", 0, SYN, 1, 1, "invalid syntax"},
    {LOC, "else: pass\n", 0, SYN, 1, 1, "invalid syntax"},
    {LOC, "x = 1 +\n", 0, SYN, 1, 8, "invalid syntax"},
    {LOC, "x = not\n", 0, SYN, 1, 8, "invalid syntax"},
    {LOC, "x = a b\n", 0, SYN, 1, 7, "invalid syntax"},
    {LOC, "x = (1 2)\n", 0, SYN, 1, 6,
     "invalid syntax. Perhaps you forgot a comma?"},
    {LOC, "x = [1 2]\n", 0, SYN, 1, 6,
     "invalid syntax. Perhaps you forgot a comma?"},
    {LOC, "f(a b)\n", 0, SYN, 1, 3,
     "invalid syntax. Perhaps you forgot a comma?"},
    {LOC, "def (x): pass\n", 0, SYN, 1, 5, "invalid syntax"},
    {LOC, "def f(1): pass\n", 0, SYN, 1, 7, "invalid syntax"},
    {LOC, "if x: if y: pass\n", 0, SYN, 1, 7, "invalid syntax"},
    {LOC, "x = a not b\n", 0, SYN, 1, 11, "invalid syntax"},
    {LOC, "x = 1 if y els 2\n", 0, SYN, 1, 5,
     "expected 'else' after 'if' expression"},
    {LOC, "x = (a) if b c\n", 0, SYN, 1, 6,
     "expected 'else' after 'if' expression"},
    {LOC, "x = a.if\n", 0, SYN, 1, 7, "invalid syntax"},
    {LOC, "import a as 1\n", 0, SYN, 1, 13, "invalid syntax"},
    {LOC, "x = ur'a'\n", 0, SYN, 1, 7, "invalid syntax"},
    {LOC, "@\ndef f(): pass\n", 0, SYN, 1, 2, "invalid syntax"},
    /* CPython's hints */
    {LOC, "a[1 2]\n", 0, SYN, 1, 3,
     "invalid syntax. Perhaps you forgot a comma?"},
    {LOC, "f(a=1 2)\n", 0, SYN, 1, 5,
     "invalid syntax. Perhaps you forgot a comma?"},
    {LOC, "x = (1, 2 3)\n", 0, SYN, 1, 9,
     "invalid syntax. Perhaps you forgot a comma?"},
    {LOC, "x = (a {})\n", 0, SYN, 1, 6,
     "invalid syntax. Perhaps you forgot a comma?"},
    {LOC, "(a if b else c d)\n", 0, SYN, 1, 16, "invalid syntax"},
    {LOC, "x = (a \"s\")\n", 0, SYN, 1, 8, "invalid syntax"},
    {LOC, "print x\n", 0, SYN, 1, 1,
     "Missing parentheses in call to 'print'. Did you mean print(...)?"},
    {LOC, "exec \"x\"\n", 0, SYN, 1, 1,
     "Missing parentheses in call to 'exec'. Did you mean exec(...)?"},
    {LOC, "x = foo.print y\n", 0, SYN, 1, 15, "invalid syntax"},
    {LOC, "if x = 1:\n    pass\n", 0, SYN, 1, 4,
     "invalid syntax. Maybe you meant '==' or ':=' instead of '='?"},
    {LOC, "while x.y = 1: pass\n", 0, SYN, 1, 7,
     "cannot assign to attribute here. Maybe you meant '==' instead of "
     "'='?"},
    {LOC, "x = (y = 1)\n", 0, SYN, 1, 6,
     "invalid syntax. Maybe you meant '==' or ':=' instead of '='?"},
    {LOC, "x = [y = 1]\n", 0, SYN, 1, 6,
     "invalid syntax. Maybe you meant '==' or ':=' instead of '='?"},
    {LOC, "if f() = 1: pass\n", 0, SYN, 1, 4,
     "cannot assign to function call here. Maybe you meant '==' instead "
     "of '='?"},
    {LOC, "if x < 1 = 2: pass\n", 0, SYN, 1, 10, "invalid syntax"},
    {LOC, "def f:\n    pass\n", 0, SYN, 1, 6, "expected '('"},
    {LOC, "def f x: pass\n", 0, SYN, 1, 7, "expected '('"},
    {LOC, "def f() x:\n  pass\n", 0, SYN, 1, 9, "expected ':'"},
    {LOC, "if x:\n  pass\nelse pass\n", 0, SYN, 3, 6, "expected ':'"},
    {LOC, "for x in y z: pass\n", 0, SYN, 1, 12, "invalid syntax"},
    {LOC, "for x in y pass\n", 0, SYN, 1, 12, "invalid syntax"},
    {LOC, "if x y: pass\n", 0, SYN, 1, 6, "invalid syntax"},
    {LOC, "while x y: pass\n", 0, SYN, 1, 9, "invalid syntax"},
    {LOC, "if x  # c\n    pass\n", 0, SYN, 1, 7, "expected ':'"},
    {LOC, "x = 1 lambda: 2\n", 0, SYN, 1, 7, "invalid syntax"},
    {LOC, "x = -lambda: 1\n", 0, SYN, 1, 6, "invalid syntax"},
    {LOC, "x = -yield\n", 0, SYN, 1, 6, "invalid syntax"},
    /* which error wins: CPython tokenizes the rest of the file after a
     * parser error and prefers most tokenizer errors found there */
    {LOC, "x = 1 y\nz = 0x\n", 0, SYN, 2, 6, "invalid hexadecimal literal"},
    {LOC, "x = 1 y\nz = $\n", 0, SYN, 1, 7, "invalid syntax"},
    {LOC, "x = (\ny = 1 $\n", 0, SYN, 1, 5, "'(' was never closed"},
    {LOC, "x = (1 2)\ny = \"abc\n", 0, SYN, 2, 5,
     "unterminated string literal (detected at line 2)"},
    {LOC, "x = a b\ny = 1 \\ 2\n", 0, SYN, 1, 7, "invalid syntax"},
    {LOC, "x = a b\nif x:\n  a\n b\n", 0, SYN, 1, 7, "invalid syntax"},
    {LOC, "x = a b 1_\n", 0, SYN, 1, 10, "invalid decimal literal"},
    {LOC, "x = 08 + 1\nx y\n", 0, SYN, 1, 5, "leading zeros in decimal "
     "integer literals are not permitted; use an 0o prefix for octal "
     "integers"},
    {LOC, "x = 'a' b'b' 1x\n", 0, SYN, 1, 14, "invalid decimal literal"},
    {LOC, "x = 0_1f\n", 0, SYN, 1, 5, "leading zeros in decimal integer "
     "literals are not permitted; use an 0o prefix for octal integers"},
    {LOC, "def f(x pass\n", 0, SYN, 1, 9, "invalid syntax"},
    {LOC, "x = lambda: 1\ny = 1 $ 2\n", 0, UNS, 1, 5,
     "lambda is not supported in kernels"},
    {LOC, "x = lambda: 1\ny = 0b2\n", 0, SYN, 2, 7,
     "invalid digit '2' in binary literal"},
    /* refused constructs */
    {LOC, "f = lambda x: x\n", 0, UNS, 1, 5,
     "lambda is not supported in kernels"},
    {LOC, "x = [i for i in y]\n", 0, UNS, 1, 5,
     "a list comprehension is not supported in kernels"},
    {LOC, "x = (i for i in y)\n", 0, UNS, 1, 5,
     "a generator expression is not supported in kernels"},
    {LOC, "x = sum(i for i in y)\n", 0, UNS, 1, 9,
     "a generator expression is not supported in kernels"},
    {LOC, "x = {i for i in y}\n", 0, UNS, 1, 5,
     "a set comprehension is not supported in kernels"},
    {LOC, "x = {i: 1 for i in y}\n", 0, UNS, 1, 5,
     "a dict comprehension is not supported in kernels"},
    {LOC, "x = {}\n", 0, UNS, 1, 5,
     "a dict literal is not supported in kernels"},
    {LOC, "x = {1: 2}\n", 0, UNS, 1, 5,
     "a dict literal is not supported in kernels"},
    {LOC, "x = {**a}\n", 0, UNS, 1, 5,
     "a dict literal is not supported in kernels"},
    {LOC, "x = {1, 2}\n", 0, UNS, 1, 5,
     "a set literal is not supported in kernels"},
    {LOC, "*a, b = x\n", 0, UNS, 1, 1,
     "a starred expression is not supported in kernels"},
    {LOC, "a, *b = x\n", 0, UNS, 1, 4,
     "a starred expression is not supported in kernels"},
    {LOC, "x = [*a]\n", 0, UNS, 1, 6,
     "a starred expression is not supported in kernels"},
    {LOC, "x = (1, *a)\n", 0, UNS, 1, 9,
     "a starred expression is not supported in kernels"},
    {LOC, "x = a[*b]\n", 0, UNS, 1, 7,
     "a starred expression is not supported in kernels"},
    {LOC, "for *a in b: pass\n", 0, UNS, 1, 5,
     "a starred expression is not supported in kernels"},
    {LOC, "f(*a)\n", 0, UNS, 1, 3,
     "'*args' in a call is not supported in kernels"},
    {LOC, "f(x, **k)\n", 0, UNS, 1, 6,
     "'**kwargs' in a call is not supported in kernels"},
    {LOC, "if (n := 10) > 5: pass\n", 0, UNS, 1, 7,
     "the assignment expression ':=' is not supported in kernels"},
    {LOC, "x := 1\n", 0, UNS, 1, 3,
     "the assignment expression ':=' is not supported in kernels"},
    {LOC, "while n := f(): pass\n", 0, UNS, 1, 9,
     "the assignment expression ':=' is not supported in kernels"},
    {LOC, "def f():\n    yield 1\n", 0, UNS, 2, 5,
     "'yield' is not supported in kernels"},
    {LOC, "def f():\n    x = yield\n", 0, UNS, 2, 9,
     "'yield' is not supported in kernels"},
    {LOC, "def f():\n    x = await g()\n", 0, UNS, 2, 9,
     "'await' is not supported in kernels"},
    {LOC, "async def f(): pass\n", 0, UNS, 1, 1,
     "'async' is not supported in kernels"},
    {LOC, "@d\nasync def f(): pass\n", 0, UNS, 2, 1,
     "'async' is not supported in kernels"},
    {LOC, "with a: pass\n", 0, UNS, 1, 1,
     "the 'with' statement is not supported in kernels"},
    {LOC, "try:\n    pass\nexcept: pass\n", 0, UNS, 1, 1,
     "the 'try' statement is not supported in kernels"},
    {LOC, "def f():\n    raise ValueError\n", 0, UNS, 2, 5,
     "the 'raise' statement is not supported in kernels"},
    {LOC, "class A: pass\n", 0, UNS, 1, 1,
     "a class definition is not supported in kernels"},
    {LOC, "@dataclass\nclass A: pass\n", 0, UNS, 2, 1,
     "a class definition is not supported in kernels"},
    {LOC, "def f():\n    global x\n", 0, UNS, 2, 5,
     "the 'global' statement is not supported in kernels"},
    {LOC, "def f():\n    nonlocal x\n", 0, UNS, 2, 5,
     "the 'nonlocal' statement is not supported in kernels"},
    {LOC, "del x\n", 0, UNS, 1, 1,
     "the 'del' statement is not supported in kernels"},
    {LOC, "x: int = 1\n", 0, UNS, 1, 1,
     "an annotated assignment is not supported in kernels"},
    {LOC, "x.y: int\n", 0, UNS, 1, 1,
     "an annotated assignment is not supported in kernels"},
    {LOC, "from numba import *\n", 0, UNS, 1, 19,
     "'from ... import *' is not supported in kernels"},
    {LOC, "def f(*args): pass\n", 0, UNS, 1, 7,
     "a '*args' parameter is not supported in kernels"},
    {LOC, "def f(a, *, b): pass\n", 0, UNS, 1, 10,
     "a keyword-only parameter is not supported in kernels"},
    {LOC, "def f(**kw): pass\n", 0, UNS, 1, 7,
     "a '**kwargs' parameter is not supported in kernels"},
    {LOC, "def f(a, /): pass\n", 0, UNS, 1, 10,
     "a positional-only parameter is not supported in kernels"},
};

static void test_errors(void **state)
{
    (void)state;
    int nfail = 0;
    for (size_t k = 0; k < sizeof errors / sizeof *errors; k++) {
        const error_case *c = &errors[k];
        uf__source src;
        uf__arena *arena;
        uf_error err;
        size_t len = c->len ? c->len : strlen(c->src);
        uf__ast_module *m = parse_text(c->src, len, &src, &arena, &err);
        uf__arena_free(arena);
        if (m != NULL) {
            row_fail(nfail, c->file, c->line, "parsed, expected an error");
            continue;
        }
        char msg[1024];
        first_line(&err, msg, sizeof msg);
        if (err.code != c->code || err.line != c->eline ||
            err.column != c->ecol || strcmp(msg, c->message) != 0 ||
            strcmp(err.file, "k.py") != 0)
            row_fail(nfail, c->file, c->line,
                     "got %s %d:%d \"%s\"\n  expected %s %d:%d \"%s\"",
                     uf_err_name(err.code), err.line, err.column, msg,
                     uf_err_name(c->code), c->eline, c->ecol, c->message);
    }
    assert_int_equal(nfail, 0);
    assert_int_equal(uf__alloc_live(), live_base);
}

/* ---- positions and messages ------------------------------------------- */

static uf__ast_module *parse_ok(const char *text, uf__arena **arena)
{
    static uf__source src;
    uf_error err;
    uf__ast_module *m = parse_text(text, strlen(text), &src, arena, &err);
    if (m == NULL)
        fail_msg("%s: %s", text, err.message);
    return m;
}

#define assert_pos(p, l, c)                                                 \
    do {                                                                    \
        assert_int_equal((p).line, (l));                                    \
        assert_int_equal((p).col, (c));                                     \
    } while (0)

static void test_positions(void **state)
{
    (void)state;
    uf__arena *arena;
    uf__ast_module *m = parse_ok("x = (a + b) * c.d(e, k=f)[1:2]\n", &arena);
    const uf__stmt *s = m->body.stmts[0];
    assert_pos(s->pos, 1, 1);
    const uf__expr *mul = s->u.assign.value;
    assert_int_equal(mul->kind, UF__EX_BINARY);
    assert_pos(mul->pos, 1, 5); /* the '(' of its left operand */
    assert_false(mul->parenthesized);
    const uf__expr *add = mul->u.binary.left;
    assert_pos(add->pos, 1, 6);
    assert_true(add->parenthesized);
    const uf__expr *sub = mul->u.binary.right;
    assert_int_equal(sub->kind, UF__EX_SUBSCRIPT);
    assert_pos(sub->pos, 1, 15);
    const uf__expr *call = sub->u.subscript.value;
    assert_pos(call->pos, 1, 15);
    assert_pos(call->u.call.func->u.attr.attr_pos, 1, 17);
    assert_pos(call->u.call.kw[0].pos, 1, 22);
    assert_pos(sub->u.subscript.index[0]->pos, 1, 27);
    assert_int_equal(m->nexprs, 14);
    uf__arena_free(arena);

    m = parse_ok("if a:\n    pass\nelif b:\n    pass\n", &arena);
    s = m->body.stmts[0];
    assert_pos(s->pos, 1, 1);
    assert_pos(s->u.if_.orelse.stmts[0]->pos, 3, 1);
    assert_pos(s->u.if_.orelse.stmts[0]->u.if_.cond->pos, 3, 6);
    uf__arena_free(arena);

    m = parse_ok("from a import b as c, d\nimport x.y as z\n"
                 "def f(p, q=1):\n    return -p, (q,), not p or q < 2\n",
                 &arena);
    assert_pos(m->body.stmts[0]->u.importfrom.names[0].pos, 1, 15);
    assert_pos(m->body.stmts[0]->u.importfrom.names[1].pos, 1, 23);
    assert_pos(m->body.stmts[1]->u.import.names[0].pos, 2, 8);
    s = m->body.stmts[2];
    assert_pos(s->pos, 3, 1);
    assert_pos(s->u.funcdef.name_pos, 3, 5);
    assert_pos(s->u.funcdef.params[1].pos, 3, 10);
    const uf__expr *ret = s->u.funcdef.body.stmts[0]->u.ret.value;
    assert_int_equal(ret->kind, UF__EX_TUPLE);
    assert_false(ret->parenthesized);
    assert_pos(ret->pos, 4, 12);
    assert_pos(ret->u.seq.elts[1]->pos, 4, 16);
    assert_true(ret->u.seq.elts[1]->parenthesized);
    const uf__expr *orx = ret->u.seq.elts[2];
    assert_int_equal(orx->kind, UF__EX_BOOLOP);
    assert_pos(orx->pos, 4, 22);
    assert_pos(orx->u.boolop.values[1]->pos, 4, 31);
    uf__arena_free(arena);
    assert_int_equal(uf__alloc_live(), live_base);
}

/* The whole message: text, source line, caret (tabs kept). */
static void test_error_message(void **state)
{
    (void)state;
    static const struct {
        const char *file;
        int line;
        const char *src, *message;
    } cases[] = {
        {LOC, "def f(x):\n\treturn x +\n",
         "invalid syntax\n\treturn x +\n\t          ^"},
        {LOC, "x = 1\ny = (1,\n",
         "'(' was never closed\ny = (1,\n    ^"},
        {LOC, "x = [i for i in y]",
         "a list comprehension is not supported in kernels\n"
         "x = [i for i in y]\n    ^"},
        {LOC, "if x:\n", "expected an indented block after 'if' statement "
                          "on line 1\nif x:\n     ^"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        uf__source src;
        uf__arena *arena;
        uf_error err;
        uf__ast_module *m = parse_text(cases[k].src, strlen(cases[k].src),
                                       &src, &arena, &err);
        uf__arena_free(arena);
        if (m != NULL || strcmp(err.message, cases[k].message) != 0 ||
            strcmp(err.file, "k.py") != 0)
            uf_fail_at(cases[k].file, cases[k].line, "got \"%s\"",
                       err.message);
    }
}

/* ---- seed kernels ----------------------------------------------------- */

/* The kernels of the seed documents (indentation restored), one file. */
static const char seed_kernels[] =
    "import math\n"
    "import numpy as np\n"
    "from numba import vectorize, guvectorize, cuda, float32, float64, int64, "
    "jit, njit\n"
    "from numba import prange\n"
    "\n"
    "# This gets inlined at compile time\n"
    "SQRT_2PI = np.float32((2*math.pi)**0.5)\n"
    "SQRT_2PI_F = float32((2 * math.pi) ** 0.5)\n"
    "\n"
    "\n"
    "@jit\n"
    "def hypot(x, y):\n"
    "    x = abs(x);\n"
    "    y = abs(y);\n"
    "    t = min(x, y);\n"
    "    x = max(x, y);\n"
    "    t = t / x;\n"
    "    return x * math.sqrt(1+t*t)\n"
    "\n"
    "\n"
    "@vectorize\n"
    "def rel_diff(x, y):\n"
    "    return 2 * (x - y) / (x + y)\n"
    "\n"
    "\n"
    "@vectorize([float32(float32, float32),\n"
    "            float64(float64, float64)],\n"
    "           target='cpu')\n"
    "def rel_diff_typed(x, y):\n"
    "    return 2 * (x - y) / (x + y)\n"
    "\n"
    "\n"
    "@vectorize(['int64(int64, int64)'], target='cuda')\n"
    "def add_ufunc(x, y):\n"
    "    return x + y\n"
    "\n"
    "\n"
    "@vectorize(['float32(float32, float32, float32)'], target='parallel')\n"
    "# Probability Distribution Function\n"
    "def gaussian_pdf(x, mean, sigma):\n"
    "    '''Compute the value of a Gaussian probability density function at x\n"
    "    with given mean and sigma.'''\n"
    "    return math.exp(-0.5 * ((x - mean) / sigma)**2) / (sigma * SQRT_2PI)\n"
    "\n"
    "\n"
    "@cuda.jit(device=True)\n"
    "def polar_to_cartesian(rho, theta):\n"
    "    x = rho * math.cos(theta)\n"
    "    y = rho * math.sin(theta)\n"
    "    return x, y  # This is Python, so let's return a tuple\n"
    "\n"
    "\n"
    "@vectorize(['float32(float32, float32, float32, float32)'], "
    "target='cuda')\n"
    "def polar_distance(rho1, theta1, rho2, theta2):\n"
    "    x1, y1 = polar_to_cartesian(rho1, theta1)\n"
    "    x2, y2 = polar_to_cartesian(rho2, theta2)\n"
    "\n"
    "    return ((x1 - x2)**2 + (y1 - y2)**2)**0.5\n"
    "\n"
    "\n"
    "@guvectorize(['void(float64[:,:], float64[:], float64[:])'], "
    "'(m,n),(n)->(m)')\n"
    "def matvec(M, v, y):\n"
    "    for i in range(M.shape[0]):\n"
    "        acc = 0.0\n"
    "        for j in range(M.shape[1]):\n"
    "            acc += M[i, j] * v[j]\n"
    "        y[i] = acc\n"
    "\n"
    "\n"
    "@guvectorize([(int64[:], int64[:], int64[:])], '(n),()->(n)')\n"
    "def g(x, y, res):\n"
    "    for i in range(x.shape[0]):\n"
    "        res[i] = x[i] + y[0]\n"
    "\n"
    "\n"
    "@cuda.reduce\n"
    "def sum_reduce(a, b):\n"
    "    return a + b\n"
    "\n"
    "\n"
    "@njit('(float64[:, :], float64[:, :], float64)',\n"
    "      parallel=True)\n"
    "def scale(lhs, rhs, alpha):\n"
    "    for i in prange(len(lhs)):\n"
    "        lhs[i] = alpha * rhs[i]\n"
    "\n"
    "\n"
    "@cuda.jit('void(float64[:,], float64[:,], float64[:,])')\n"
    "def add(lhs, rhs1, rhs2):\n"
    "    i = cuda.grid(1)\n"
    "    if i < lhs.shape[0]:\n"
    "        lhs[i] = rhs1[i] + rhs2[i]\n"
    "\n"
    "\n"
    "@cuda.jit\n"
    "def add_kernel(x, y, out):\n"
    "    tx = cuda.threadIdx.x  # this is the unique thread ID within a 1D "
    "block\n"
    "    ty = cuda.blockIdx.x   # Similarly, this is the unique block ID\n"
    "\n"
    "    block_size = cuda.blockDim.x  # number of threads per block\n"
    "    grid_size = cuda.gridDim.x    # number of blocks in the grid\n"
    "\n"
    "    start = tx + ty * block_size\n"
    "    stride = block_size * grid_size\n"
    "\n"
    "    # assuming x and y inputs are same length\n"
    "    for i in range(start, x.shape[0], stride):\n"
    "        out[i] = x[i] + y[i]\n"
    "\n"
    "\n"
    "@njit\n"
    "def collatz(n):\n"
    "    steps = 0\n"
    "    while n != 1:\n"
    "        if n % 2 == 0:\n"
    "            n //= 2\n"
    "        elif n < 0:\n"
    "            break\n"
    "        else:\n"
    "            n = 3 * n + 1\n"
    "        steps += 1\n"
    "    else:\n"
    "        steps = -steps\n"
    "    return steps\n";

/* The parts of the seed file whose trees are worth pinning down. */
static const struct {
    const char *name;
    const char *expect;
} seed_trees[] = {
    {"gaussian_pdf",
     "(def gaussian_pdf (x mean sigma) (@ (call vectorize "
     "(list 'float32(float32, float32, float32)') target='parallel')) "
     "[(expr 'Compute the value of a Gaussian probability density function "
     "at x\\x0a    with given mean and sigma.') "
     "(return (/ (call (. math exp) (* (- 0.5) (** (/ (- x mean) sigma) 2))) "
     "(* sigma SQRT_2PI)))])"},
    {"polar_distance",
     "(def polar_distance (rho1 theta1 rho2 theta2) (@ (call vectorize "
     "(list 'float32(float32, float32, float32, float32)') target='cuda')) "
     "[(= (tuple x1 y1) (call polar_to_cartesian rho1 theta1)) "
     "(= (tuple x2 y2) (call polar_to_cartesian rho2 theta2)) "
     "(return (** (+ (** (- x1 x2) 2) (** (- y1 y2) 2)) 0.5))])"},
    {"matvec",
     "(def matvec (M v y) (@ (call guvectorize "
     "(list 'void(float64[:,:], float64[:], float64[:])') "
     "'(m,n),(n)->(m)')) "
     "[(for i (call range ([] (. M shape) 0)) [(= acc 0.0) "
     "(for j (call range ([] (. M shape) 1)) "
     "[(+= acc (* ([] M i j) ([] v j)))]) (= ([] y i) acc)])])"},
    {"sum_reduce",
     "(def sum_reduce (a b) (@ (. cuda reduce)) [(return (+ a b))])"},
    {"collatz",
     "(def collatz (n) (@ njit) [(= steps 0) (while (cmp n != 1) "
     "[(if (cmp (% n 2) == 0) [(//= n 2)] [(if (cmp n < 0) [(break)] "
     "[(= n (+ (* 3 n) 1))])]) (+= steps 1)] [(= steps (- steps))]) "
     "(return steps)])"},
};

static void test_seeds(void **state)
{
    (void)state;
    uf__source src;
    uf__arena *arena;
    uf_error err;
    uf__ast_module *m = parse_text(seed_kernels, strlen(seed_kernels), &src,
                                   &arena, &err);
    if (m == NULL) {
        uf__arena_free(arena);
        fail_msg("seed kernels: %s at %d:%d", err.message, err.line,
                 err.column);
    }
    assert_true(ids_ok(m));
    int ndefs = 0, nfound = 0;
    for (int k = 0; k < m->body.n; k++) {
        const uf__stmt *s = m->body.stmts[k];
        if (s->kind != UF__ST_FUNCDEF)
            continue;
        ndefs++;
        for (size_t j = 0; j < sizeof seed_trees / sizeof *seed_trees; j++) {
            if (strcmp(seed_trees[j].name, s->u.funcdef.name) != 0)
                continue;
            uf_test_buf b = {.n = 0};
            b.s[0] = '\0';
            dump_stmt(&b, s);
            if (strcmp(b.s, seed_trees[j].expect) != 0) {
                uf__arena_free(arena);
                fail_msg("%s: got\n  %s\nexpected\n  %s",
                         seed_trees[j].name, b.s, seed_trees[j].expect);
            }
            nfound++;
        }
    }
    /* 4 imports and 2 constants before the 14 definitions */
    assert_int_equal(m->body.n, 20);
    assert_int_equal(ndefs, 14);
    assert_int_equal(nfound, (int)(sizeof seed_trees / sizeof *seed_trees));
    const uf__stmt *c = m->body.stmts[5];
    uf_test_buf b = {.n = 0};
    b.s[0] = '\0';
    dump_stmt(&b, c);
    assert_string_equal(b.s, "(= SQRT_2PI_F (call float32 "
                             "(** (* 2 (. math pi)) 0.5)))");
    /* positions: the def line, the name, the decorator */
    const uf__stmt *hyp = m->body.stmts[6];
    assert_int_equal(hyp->pos.line, 12);
    assert_int_equal(hyp->pos.col, 1);
    assert_int_equal(hyp->u.funcdef.name_pos.col, 5);
    assert_int_equal(hyp->u.funcdef.decorators[0]->pos.line, 11);
    assert_int_equal(hyp->u.funcdef.decorators[0]->pos.col, 2);
    uf__arena_free(arena);
    assert_int_equal(uf__alloc_live(), live_base);
}

/* ---- robustness ------------------------------------------------------- */

static const char *const robust_files[] = {
    seed_kernels,
    "if a:\n\tx = (1 +\n  2) if b else [c[1:2, ::3], d.e(f, g=h)]\n"
    "elif not x is not y:\n    pass\nelse:\n  while 1: break\n",
    "x = '''a\nb''' \"c\\\"\" r'\\d' b'\\x00'\ny = 0x_1f + 1_0.5e-3j\n"
    "def f(a, b=-1):\n    return a ** -b // 2 % 3 @ m\n",
};

/* Parses text[0..len); the result must be success or a clean error, and
 * nothing may leak. Returns false (after printing why) otherwise. */
static bool parse_cleanly(const char *text, size_t len, const char *what,
                          size_t at)
{
    uf__source src;
    uf__arena *arena;
    uf_error err;
    uf__ast_module *m = parse_text(text, len, &src, &arena, &err);
    bool ok = true;
    if (m != NULL) {
        ok = ids_ok(m);
    } else if ((err.code != UF_ERR_SYNTAX && err.code != UF_ERR_UNSUPPORTED) ||
               err.line < 1 || err.column < 1 || err.message[0] == '\0' ||
               strchr(err.message, '^') == NULL) {
        ok = false;
    }
    uf__arena_free(arena);
    if (uf__alloc_live() != live_base)
        ok = false;
    if (!ok)
        print_error("%s at %zu: code %s, %d:%d, \"%s\"\n", what, at,
                    uf_err_name(err.code), err.line, err.column, err.message);
    return ok;
}

static void test_prefixes(void **state)
{
    (void)state;
    for (size_t f = 0; f < sizeof robust_files / sizeof *robust_files; f++) {
        const char *text = robust_files[f];
        size_t n = strlen(text);
        for (size_t len = 0; len <= n; len++)
            if (!parse_cleanly(text, len, "prefix", len))
                fail();
    }
}

/* Deterministic xorshift so failures reproduce. */
static uint32_t rng_next(uint32_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 17;
    *s ^= *s << 5;
    return *s;
}

static void test_byte_flips(void **state)
{
    (void)state;
    static const char interesting[] = "()[]{}:,;.\n\t \\'\"#=+-*/%@<>!~"
                                      "0123456789eEjJxXbBoO_aA\x80\xff";
    uint32_t seed = 12345;
    for (size_t f = 0; f < sizeof robust_files / sizeof *robust_files; f++) {
        size_t n = strlen(robust_files[f]);
        char *buf = malloc(n + 1);
        assert_non_null(buf);
        for (int round = 0; round < 1500; round++) {
            memcpy(buf, robust_files[f], n + 1);
            int flips = 1 + (int)(rng_next(&seed) % 3);
            for (int k = 0; k < flips; k++) {
                size_t at = rng_next(&seed) % n;
                uint32_t r = rng_next(&seed);
                buf[at] = (r & 1) ? (char)(r >> 8)
                                  : interesting[(r >> 8) %
                                                (sizeof interesting - 1)];
            }
            if (!parse_cleanly(buf, n, "flip round", (size_t)round)) {
                print_error("input:\n%.*s\n", (int)n, buf);
                free(buf);
                fail();
            }
        }
        free(buf);
    }
}

/* Allocation N fails for N = 1, 2, ... until parsing succeeds: every
 * failure is a clean UF_ERR_NOMEM and leaves nothing allocated. */
static void test_out_of_memory(void **state)
{
    (void)state;
    int failures = 0;
    for (long n = 1;; n++) {
        uf_error err;
        uf_error_clear(&err);
        uf__alloc_fail_at(n);
        uf__source src = {"k.py", seed_kernels, strlen(seed_kernels)};
        uf__arena *arena = uf__arena_new(&err);
        uf__ast_module *m = arena ? uf__parse(&src, arena, &err) : NULL;
        bool failed = uf__alloc_failed();
        uf__alloc_fail_at(0);
        uf__arena_free(arena);
        assert_int_equal(uf__alloc_live(), live_base);
        if (!failed) {
            assert_non_null(m);
            break;
        }
        assert_null(m);
        if (err.code != UF_ERR_NOMEM)
            fail_msg("allocation %ld: %s (%s)", n, uf_err_name(err.code),
                     err.message);
        failures++;
        assert_true(n < 10000);
    }
    assert_true(failures >= 2);
}

/* Deep nesting is refused cleanly rather than overflowing the stack. */
static void test_deep_nesting(void **state)
{
    (void)state;
    static const struct {
        const char *open, *close, *message;
    } cases[] = {
        {"(", ")", "too many nested parentheses"},
        {"-", "", "too many nested expressions or blocks (more than 300)"},
        {"not ", "", "too many nested expressions or blocks (more than 300)"},
        {"a if b else ", "", "too many nested expressions or blocks (more "
                             "than 300)"},
        {"2 ** ", "", "too many nested expressions or blocks (more than "
                      "300)"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        size_t depth = 5000;
        size_t lo = strlen(cases[c].open), lc = strlen(cases[c].close);
        char *buf = malloc(4 + depth * (lo + lc) + 3);
        assert_non_null(buf);
        size_t k = 0;
        memcpy(buf, "x = ", 4);
        k = 4;
        for (size_t d = 0; d < depth; d++, k += lo)
            memcpy(buf + k, cases[c].open, lo);
        buf[k++] = '1';
        for (size_t d = 0; d < depth; d++, k += lc)
            memcpy(buf + k, cases[c].close, lc);
        buf[k++] = '\n';
        uf__source src;
        uf__arena *arena;
        uf_error err;
        uf__ast_module *m = parse_text(buf, k, &src, &arena, &err);
        uf__arena_free(arena);
        free(buf);
        assert_null(m);
        char msg[1024];
        first_line(&err, msg, sizeof msg);
        assert_string_equal(msg, cases[c].message);
        assert_int_equal(err.code, UF_ERR_SYNTAX);
    }
    /* 200 nested parentheses are fine, as in CPython */
    char deep[4 + 200 + 1 + 200 + 2];
    memcpy(deep, "x = ", 4);
    memset(deep + 4, '(', 200);
    deep[204] = '1';
    memset(deep + 205, ')', 200);
    deep[405] = '\n';
    deep[406] = '\0';
    uf__source dsrc;
    uf__arena *darena;
    uf_error derr;
    uf__ast_module *dm = parse_text(deep, 406, &dsrc, &darena, &derr);
    bool parsed = dm != NULL && dm->nexprs == 2;
    uf__arena_free(darena);
    assert_true(parsed);
    /* 99 nested blocks are fine, 100 are not (CPython's limit) */
    for (int levels = 99; levels <= 100; levels++) {
        size_t cap = (size_t)levels * (size_t)levels + 64 * (size_t)levels;
        char *buf = malloc(cap);
        assert_non_null(buf);
        size_t k = 0;
        for (int d = 0; d < levels; d++) {
            memset(buf + k, ' ', (size_t)d);
            k += (size_t)d;
            memcpy(buf + k, "if x:\n", 6);
            k += 6;
        }
        memset(buf + k, ' ', (size_t)levels);
        k += (size_t)levels;
        memcpy(buf + k, "pass\n", 5);
        k += 5;
        uf__source src;
        uf__arena *arena;
        uf_error err;
        uf__ast_module *m = parse_text(buf, k, &src, &arena, &err);
        uf__arena_free(arena);
        free(buf);
        if (levels == 99) {
            assert_non_null(m);
        } else {
            assert_null(m);
            char msg[1024];
            first_line(&err, msg, sizeof msg);
            assert_string_equal(msg, "too many levels of indentation");
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_trees, start_test),
        cmocka_unit_test_setup(test_errors, start_test),
        cmocka_unit_test_setup(test_positions, start_test),
        cmocka_unit_test_setup(test_error_message, start_test),
        cmocka_unit_test_setup(test_seeds, start_test),
        cmocka_unit_test_setup(test_prefixes, start_test),
        cmocka_unit_test_setup(test_byte_flips, start_test),
        cmocka_unit_test_setup(test_out_of_memory, start_test),
        cmocka_unit_test_setup(test_deep_nesting, start_test),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
