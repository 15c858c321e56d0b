/* The front end's foundations: the arena, source-error formatting and the
 * tokenizer (token streams for tricky inputs, positions, values). Lexer
 * errors are checked through the parser in test_parser_errors.c. */
#include "test_util.h"

#include <stdalign.h>

#include "common/alloc.h"
#include "compiler/front/arena.h"
#include "compiler/front/lexer.h"
#include "compiler/front/source.h"

/* ---- arena ------------------------------------------------------------ */

static void test_arena(void **state)
{
    (void)state;
    uf_error err;
    uf_error_clear(&err);
    uf__arena *a = uf__arena_new(&err);
    assert_non_null(a);
    /* Aligned for any type, zeroed, distinct, across block boundaries and
     * for blocks of their own. */
    static const size_t sizes[] = {1, 3, 8, 17, 100, 4000, 5000, 20000,
                                   1, 0, 65536, 7};
    unsigned char *prev[12] = {0};
    for (int round = 0; round < 50; round++) {
        for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
            unsigned char *p = uf__arena_alloc(a, sizes[k], 1, &err);
            assert_non_null(p);
            assert_int_equal((uintptr_t)p % alignof(max_align_t), 0);
            for (size_t j = 0; j < sizes[k]; j++)
                assert_int_equal(p[j], 0);
            memset(p, 0xAB, sizes[k]);
            assert_true(p != prev[k]);
            prev[k] = p;
        }
    }
    double *d = uf__arena_alloc(a, 10, sizeof(double), &err);
    assert_non_null(d);
    d[9] = 1.5;
    char *s = uf__arena_strndup(a, "hello world", 5, &err);
    assert_string_equal(s, "hello");
    s = uf__arena_strndup(a, "", 0, &err);
    assert_string_equal(s, "");
    assert_null(uf__arena_alloc(a, SIZE_MAX / 2, 4, &err));
    assert_int_equal(err.code, UF_ERR_OVERFLOW);
    assert_null(uf__arena_alloc(a, 1, SIZE_MAX - 2, &err));
    assert_int_equal(err.code, UF_ERR_OVERFLOW);
    uf__arena_free(a);
    uf__arena_free(NULL);
    assert_int_equal(uf__alloc_live(), 0);
}

static void test_arena_out_of_memory(void **state)
{
    (void)state;
    int failures = 0;
    for (long n = 1;; n++) {
        uf_error err;
        uf_error_clear(&err);
        uf__alloc_fail_at(n);
        uf__arena *a = uf__arena_new(&err);
        bool ok = a != NULL;
        for (int k = 0; ok && k < 100; k++)
            ok = uf__arena_alloc(a, k % 10 == 9 ? 10000 : 300, 1, &err) !=
                 NULL;
        bool failed = uf__alloc_failed();
        uf__alloc_fail_at(0);
        uf__arena_free(a);
        assert_int_equal(uf__alloc_live(), 0);
        if (!failed) {
            assert_true(ok);
            break;
        }
        assert_false(ok);
        assert_int_equal(err.code, UF_ERR_NOMEM);
        failures++;
    }
    assert_true(failures > 5);
}

/* ---- source errors ---------------------------------------------------- */

typedef struct source_case {
    const char *file;
    int line;
    const char *text;
    int eline, ecol;
    const char *expect; /* the whole message */
    size_t len;         /* 0: strlen(text) */
} source_case;

static const source_case source_cases[] = {
    {LOC, "x = 1\ny = $\n", 2, 5, "bad\ny = $\n    ^", 0},
    {LOC, "x = 1\ny = $", 2, 5, "bad\ny = $\n    ^", 0},
    {LOC, "abc\n", 1, 1, "bad\nabc\n^", 0},
    /* tabs are kept so the caret lines up whatever the tab width */
    {LOC, "\tx = 1 +\n", 1, 9, "bad\n\tx = 1 +\n\t       ^", 0},
    {LOC, "a\tb\tc\n", 1, 5, "bad\na\tb\tc\n \t \t^", 0},
    /* past the end of the line: the caret just after it */
    {LOC, "abc\n", 1, 100, "bad\nabc\n   ^", 0},
    {LOC, "abc\n", 1, 4, "bad\nabc\n   ^", 0},
    /* past the end of the file: the last line */
    {LOC, "a\nbc\n", 10, 2, "bad\nbc\n ^", 0},
    {LOC, "a\nbc", 3, 1, "bad\nbc\n^", 0},
    {LOC, "a\nbc\n\n", 3, 1, "bad\n\n^", 0},
    {LOC, "", 1, 1, "bad\n\n^", 0},
    {LOC, "abc", 0, 0, "bad\nabc\n^", 0},
    {LOC, "a\r\nbc\r\nd\r\n", 2, 2, "bad\nbc\n ^", 0},
    {LOC, "a\rbc\rd", 3, 1, "bad\nd\n^", 0},
    {LOC, "a\0b\n", 1, 3, "bad\na?b\n  ^", 4},
};

static void test_source_error(void **state)
{
    (void)state;
    int nfail = 0;
    for (size_t k = 0; k < sizeof source_cases / sizeof *source_cases; k++) {
        const source_case *c = &source_cases[k];
        size_t len = c->len ? c->len : strlen(c->text);
        uf__source src = {"kern.py", c->text, len};
        uf_error err;
        uf_error_clear(&err);
        int rc = uf__source_error(&err, UF_ERR_SYNTAX, &src,
                                  (uf__pos){c->eline, c->ecol}, "%s", "bad");
        if (rc != UF_ERR_SYNTAX || err.code != UF_ERR_SYNTAX ||
            err.line != c->eline || err.column != c->ecol ||
            strcmp(err.file, "kern.py") != 0 ||
            strcmp(err.message, c->expect) != 0) {
            print_error("%s:%d: got %d:%d \"%s\"\n", c->file, c->line,
                        err.line, err.column, err.message);
            nfail++;
        }
    }
    assert_int_equal(nfail, 0);
}

static void test_source_error_limits(void **state)
{
    (void)state;
    uf_error err;
    uf_error_clear(&err);
    /* A 5000-character line: the excerpt around the caret still shows it. */
    char *line = malloc(5002);
    assert_non_null(line);
    for (int k = 0; k < 5000; k++)
        line[k] = (char)('a' + k % 26);
    line[5000] = '\n';
    line[5001] = '\0';
    uf__source src = {"long.py", line, 5001};
    uf__source_error(&err, UF_ERR_TYPING, &src, (uf__pos){1, 4000}, "%s",
                     "far");
    size_t n = strlen(err.message);
    assert_true(n < sizeof err.message);
    assert_int_equal(err.message[n - 1], '^');
    const char *nl1 = strchr(err.message, '\n');
    const char *nl2 = strchr(nl1 + 1, '\n');
    /* The character under the caret is the 4000th of the line. */
    size_t caret_col = n - 1 - (size_t)(nl2 + 1 - err.message);
    assert_int_equal(nl1[1 + caret_col], line[3999]);
    assert_int_equal(err.column, 4000);
    /* A message longer than the buffer is cut, never overflowed. */
    char *big = malloc(3000);
    assert_non_null(big);
    memset(big, 'm', 2999);
    big[2999] = '\0';
    uf__source src2 = {"k.py", "x\n", 2};
    uf__source_error(&err, UF_ERR_SYNTAX, &src2, (uf__pos){1, 1}, "%s", big);
    assert_int_equal(strlen(err.message), sizeof err.message - 1);
    free(big);
    free(line);
    /* NULL err: just the code back. */
    assert_int_equal(uf__source_error(NULL, UF_ERR_SYNTAX, &src2,
                                      (uf__pos){1, 1}, "x"),
                     UF_ERR_SYNTAX);
    /* A long file name is cut to the buffer. */
    char name[400];
    memset(name, 'n', sizeof name - 1);
    name[sizeof name - 1] = '\0';
    uf__source src3 = {name, "x\n", 2};
    uf__source_error(&err, UF_ERR_SYNTAX, &src3, (uf__pos){1, 1}, "m");
    assert_int_equal(strlen(err.file), sizeof err.file - 1);
}

/* ---- token streams ---------------------------------------------------- */

/* NL IN DE EOF for layout tokens, i:/f:/j:/s:/b: prefixes for literals,
 * the spelling otherwise; with_pos adds @line:col. */
static void dump_tokens(uf_test_buf *b, const uf__token *t, int n, bool with_pos)
{
    for (int k = 0; k < n; k++) {
        if (k)
            uf_test_put(b, " ");
        switch (t[k].kind) {
        case UF__TOK_NEWLINE: uf_test_put(b, "NL"); break;
        case UF__TOK_INDENT: uf_test_put(b, "IN"); break;
        case UF__TOK_DEDENT: uf_test_put(b, "DE"); break;
        case UF__TOK_EOF: uf_test_put(b, "EOF"); break;
        case UF__TOK_ERROR: uf_test_put(b, "ERR"); break;
        case UF__TOK_NAME: uf_test_put(b, "%s", t[k].v.name); break;
        case UF__TOK_INT:
            if (t[k].v.i.too_big)
                uf_test_put(b, "i:BIG");
            else
                uf_test_put(b, "i:%llu", (unsigned long long)t[k].v.i.value);
            break;
        case UF__TOK_FLOAT: uf_test_put(b, "f:%.17g", t[k].v.f); break;
        case UF__TOK_IMAG: uf_test_put(b, "j:%.17g", t[k].v.f); break;
        case UF__TOK_STRING:
            uf_test_put(b, "%s:'", t[k].v.str.is_bytes ? "b" : "s");
            for (size_t j = 0; j < t[k].v.str.len; j++) {
                unsigned char c = (unsigned char)t[k].v.str.s[j];
                if (c < 0x20 || c >= 0x7F || c == '\\' || c == '\'')
                    uf_test_put(b, "\\x%02x", c);
                else
                    uf_test_put(b, "%c", c);
            }
            uf_test_put(b, "'");
            break;
        default:
            uf_test_put(b, "%s", uf__tok_str(t[k].kind));
        }
        if (with_pos)
            uf_test_put(b, "@%d:%d", t[k].pos.line, t[k].pos.col);
    }
}

typedef struct lex_case {
    const char *file;
    int line;
    const char *src;
    const char *expect;
} lex_case;

static const lex_case lex_cases[] = {
    {LOC, "", "EOF"},
    {LOC, "\n\n   \n\t\n", "EOF"},
    {LOC, "# only a comment", "EOF"},
    {LOC, "x = 1\n", "x = i:1 NL EOF"},
    {LOC, "x", "x NL EOF"},
    {LOC, "x # trailing comment", "x NL EOF"},
    {LOC, "x;y;\n", "x ; y ; NL EOF"},
    /* indentation */
    {LOC, "if a:\n  b\n  c\nd\n", "if a : NL IN b NL c NL DE d NL EOF"},
    {LOC, "if a:\n if b:\n  c\nd\n",
     "if a : NL IN if b : NL IN c NL DE DE d NL EOF"},
    {LOC, "if a:\n  b", "if a : NL IN b NL DE EOF"},
    {LOC, "if a:\n  b\n\n      # deeper comment\n\n  c\n",
     "if a : NL IN b NL c NL DE EOF"},
    {LOC, "if a:\n\tb\n\tc\n", "if a : NL IN b NL c NL DE EOF"},
    {LOC, "if a:\n  \tb\n  \tc\n", "if a : NL IN b NL c NL DE EOF"},
    {LOC, "if a:\n    b\n  \n\n", "if a : NL IN b NL DE EOF"},
    {LOC, "\fx = 1\n", "x = i:1 NL EOF"},
    {LOC, "if a:\n  b\n\f  c\n", "if a : NL IN b NL c NL DE EOF"},
    /* joining lines */
    {LOC, "x = (1,\n        2)\n", "x = ( i:1 , i:2 ) NL EOF"},
    {LOC, "x = [\n# c\n\n  1]\n", "x = [ i:1 ] NL EOF"},
    {LOC, "f(a,\n  b\n)\n", "f ( a , b ) NL EOF"},
    {LOC, "x = 1 + \\\n  2\n", "x = i:1 + i:2 NL EOF"},
    {LOC, "if a:\n  x = \\\n1\n  y\n", "if a : NL IN x = i:1 NL y NL DE EOF"},
    {LOC, "x\r\ny\r\n", "x NL y NL EOF"},
    {LOC, "x\ry\r", "x NL y NL EOF"},
    {LOC, "if a:\r\n  b\r\n", "if a : NL IN b NL DE EOF"},
    /* operators: longest match */
    {LOC, "a**=b//=c>>=d<<=e", "a **= b //= c >>= d <<= e NL EOF"},
    {LOC, "a**b//c<<d>>e", "a ** b // c << d >> e NL EOF"},
    {LOC, "a+=b-=c*=d/=e%=f&=g|=h^=i@=j",
     "a += b -= c *= d /= e %= f &= g |= h ^= i @= j NL EOF"},
    {LOC, "a<=b>=c==d!=e<f>g", "a <= b >= c == d != e < f > g NL EOF"},
    {LOC, "def f()->x:=...", "def f ( ) -> x := ... NL EOF"},
    {LOC, "a.b@c~d", "a . b @ c ~ d NL EOF"},
    {LOC, "x[::-1]", "x [ : : - i:1 ] NL EOF"},
    {LOC, "{a}", "{ a } NL EOF"},
    /* names and keywords */
    {LOC, "iff if_ _if True true None none and_ not in is",
     "iff if_ _if True true None none and_ not in is NL EOF"},
    {LOC, "match case type _ __x1", "match case type _ __x1 NL EOF"},
    {LOC, "lambda yield await async with",
     "lambda yield await async with NL EOF"},
    /* numbers */
    {LOC, "0 00 0_0 7 1_000 18446744073709551615",
     "i:0 i:0 i:0 i:7 i:1000 i:18446744073709551615 NL EOF"},
    {LOC, "18446744073709551616 0x1_0000_0000_0000_0000",
     "i:BIG i:BIG NL EOF"},
    {LOC, "0xDEAD_beef 0XfF 0o777 0O7 0b1010_1010 0B1 0x_1",
     "i:3735928559 i:255 i:511 i:7 i:170 i:1 i:1 NL EOF"},
    {LOC, "1.5 1. .5 1e-3 1E+3 1.e5 1_0.5e+1_0 0.0 00.5 1e400",
     "f:1.5 f:1 f:0.5 f:0.001 f:1000 f:100000 f:105000000000 f:0 f:0.5 "
     "f:inf NL EOF"},
    {LOC, "2j 1.5J .5j 1e3j 1_0j 0j 07j", "j:2 j:1.5 j:0.5 j:1000 j:10 j:0 "
     "j:7 NL EOF"},
    {LOC, "1if x else 2", "i:1 if x else i:2 NL EOF"},
    {LOC, "1.5or 2", "f:1.5 or i:2 NL EOF"},
    {LOC, "x.real 1 .real", "x . real i:1 . real NL EOF"},
    {LOC, "0.1 2.5e-308", "f:0.10000000000000001 f:2.4999999999999998e-308 "
     "NL EOF"},
    /* strings */
    {LOC, "'a' \"b\" '''c''' \"\"\"d\"\"\" '' \"\"\"\"\"\"",
     "s:'a' s:'b' s:'c' s:'d' s:'' s:'' NL EOF"},
    {LOC, "'a\\'b' \"a\\\"b\" '''a'b''c''' \"it's\"",
     "s:'a\\x27b' s:'a\"b' s:'a\\x27b\\x27\\x27c' s:'it\\x27s' NL EOF"},
    {LOC, "'\\a\\b\\f\\n\\r\\t\\v\\\\\\0\\101\\1010\\x41\\xfF'",
     "s:'\\x07\\x08\\x0c\\x0a\\x0d\\x09\\x0b\\x5c\\x00AA0A\\xc3\\xbf' NL EOF"},
    {LOC, "'\\u00e9\\U0001F600\\777'",
     "s:'\\xc3\\xa9\\xf0\\x9f\\x98\\x80\\xc7\\xbf' NL EOF"},
    {LOC, "b'\\xff\\777\\u00e9\\N{X}' B'a'",
     "b:'\\xff\\xff\\x5cu00e9\\x5cN{X}' b:'a' NL EOF"},
    {LOC, "r'\\n\\'' R'\\x' rb'\\d' Br'a' bR'b' RB'c' u'x' U'y'",
     "s:'\\x5cn\\x5c\\x27' s:'\\x5cx' b:'\\x5cd' b:'a' b:'b' b:'c' s:'x' "
     "s:'y' NL EOF"},
    {LOC, "'\\q\\z'", "s:'\\x5cq\\x5cz' NL EOF"},
    {LOC, "'ab\\\ncd'", "s:'abcd' NL EOF"},
    {LOC, "r'ab\\\ncd'", "s:'ab\\x5c\\x0acd' NL EOF"},
    {LOC, "'''a\r\nb\rc'''", "s:'a\\x0ab\\x0ac' NL EOF"},
    {LOC, "x = '''\n  not an indent\n'''\ny", "x = s:'\\x0a  not an indent"
     "\\x0a' NL y NL EOF"},
    {LOC, "'caf\xc3\xa9 \xe2\x82\xac' # \xe2\x82\xac in a comment",
     "s:'caf\\xc3\\xa9 \\xe2\\x82\\xac' NL EOF"},
    {LOC, "ur'x'", "ur s:'x' NL EOF"},
    /* an error: the tokens before it and one ERROR token */
    {LOC, "x = (1 $", "x = ( i:1 ERR"},
    {LOC, "x = 'a\\x'", "x = ERR"},
    /* no DEDENT before a bad unindent: the error is the next token */
    {LOC, "if a:\n  b\n c\n", "if a : NL IN b NL ERR"},
    /* a trailing comment: NEWLINE starts where the comment does */
    {LOC, "x  # c\ny", "x NL y NL EOF"},
};

static void test_token_streams(void **state)
{
    (void)state;
    int nfail = 0;
    for (size_t k = 0; k < sizeof lex_cases / sizeof *lex_cases; k++) {
        const lex_case *c = &lex_cases[k];
        uf__source src = {"k.py", c->src, strlen(c->src)};
        uf_error err;
        uf_error_clear(&err);
        uf__arena *a = uf__arena_new(&err);
        assert_non_null(a);
        uf__token *toks;
        int n;
        int rc = uf__lex(&src, a, &toks, &n, &err);
        uf_test_buf b = {.n = 0};
        b.s[0] = '\0';
        if (toks != NULL)
            dump_tokens(&b, toks, n, false);
        bool want_error = strstr(c->expect, "ERR") != NULL;
        if ((rc != 0) != want_error || strcmp(b.s, c->expect) != 0) {
            print_error("%s:%d: rc %d (%s)\n  got      %s\n  expected %s\n",
                        c->file, c->line, rc, err.message, b.s, c->expect);
            nfail++;
        }
        uf__arena_free(a);
    }
    assert_int_equal(nfail, 0);
    assert_int_equal(uf__alloc_live(), 0);
}

/* Positions: start and end of each token, 1-based, columns in bytes. */
static const lex_case pos_cases[] = {
    {LOC, "x = 1\n", "x@1:1 =@1:3 i:1@1:5 NL@1:6 EOF@2:1"},
    {LOC, "x = 1  # one\n", "x@1:1 =@1:3 i:1@1:5 NL@1:8 EOF@2:1"},
    {LOC, "if a:\n\tb = 'x\\\ny'\n",
     "if@1:1 a@1:4 :@1:5 NL@1:6 IN@2:2 b@2:2 =@2:4 s:'xy'@2:6 NL@3:3 "
     "DE@4:1 EOF@4:1"},
    {LOC, "x = '''a\nbc''' + 1\n",
     "x@1:1 =@1:3 s:'a\\x0abc'@1:5 +@2:7 i:1@2:9 NL@2:10 EOF@3:1"},
    {LOC, "f(a,\n  b)", "f@1:1 (@1:2 a@1:3 ,@1:4 b@2:3 )@2:4 NL@2:5 EOF@2:5"},
    /* a non-ASCII name (PEP 3131): columns count bytes, as CPython's */
    {LOC, "caf\xc3\xa9 = 1", "caf\xc3\xa9@1:1 =@1:7 i:1@1:9 NL@1:10 EOF@1:10"},
    {LOC, "'\xc3\xa9' + x", "s:'\\xc3\\xa9'@1:1 +@1:6 x@1:8 NL@1:9 EOF@1:9"},
};

static void test_token_positions(void **state)
{
    (void)state;
    int nfail = 0;
    for (size_t k = 0; k < sizeof pos_cases / sizeof *pos_cases; k++) {
        const lex_case *c = &pos_cases[k];
        uf__source src = {"k.py", c->src, strlen(c->src)};
        uf_error err;
        uf_error_clear(&err);
        uf__arena *a = uf__arena_new(&err);
        assert_non_null(a);
        uf__token *toks;
        int n;
        uf__lex(&src, a, &toks, &n, &err);
        uf_test_buf b = {.n = 0};
        b.s[0] = '\0';
        /* From the error token back to the start for the ERR rows. */
        if (toks != NULL && n > 0 && toks[n - 1].kind == UF__TOK_ERROR)
            dump_tokens(&b, toks + n - 1, 1, true);
        else if (toks != NULL)
            dump_tokens(&b, toks, n, true);
        if (strcmp(b.s, c->expect) != 0) {
            print_error("%s:%d:\n  got      %s\n  expected %s\n", c->file,
                        c->line, b.s, c->expect);
            nfail++;
        }
        uf__arena_free(a);
    }
    assert_int_equal(nfail, 0);
    /* The token text points into the source; end is one past. */
    uf__source src = {"k.py", "abc = 0x1f", 10};
    uf_error err;
    uf__arena *a = uf__arena_new(&err);
    uf__token *toks;
    int n;
    assert_int_equal(uf__lex(&src, a, &toks, &n, &err), 0);
    assert_int_equal(toks[2].len, 4);
    assert_memory_equal(toks[2].text, "0x1f", 4);
    assert_int_equal(toks[2].end.col, 11);
    assert_int_equal(toks[0].end.col, 4);
    uf__arena_free(a);
    assert_int_equal(uf__alloc_live(), 0);
}

static void test_token_names(void **state)
{
    (void)state;
    assert_string_equal(uf__tok_str(UF__TOK_DSLASHEQ), "//=");
    assert_string_equal(uf__tok_str(UF__TOK_KW_NONLOCAL), "nonlocal");
    assert_string_equal(uf__tok_str(UF__TOK_NEWLINE), "newline");
    assert_string_equal(uf__tok_str(UF__TOK_COUNT), "?");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_arena),
        cmocka_unit_test(test_arena_out_of_memory),
        cmocka_unit_test(test_source_error),
        cmocka_unit_test(test_source_error_limits),
        cmocka_unit_test(test_token_streams),
        cmocka_unit_test(test_token_positions),
        cmocka_unit_test(test_token_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
