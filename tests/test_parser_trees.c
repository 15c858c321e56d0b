/* The parser's trees: S-expressions of parsed sources against expected
 * strings, and the source positions recorded in the nodes. */
#include "parser_test_util.h"

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_trees, start_test),
        cmocka_unit_test_setup(test_positions, start_test),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
