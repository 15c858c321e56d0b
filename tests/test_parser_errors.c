/* The parser's errors: every error path with its position and message,
 * whole messages with their caret, and deep nesting refused cleanly. */
#include "parser_test_util.h"

/* First line of the error message (the rest is the source excerpt). */
static void first_line(const uf_error *err, char *out, size_t n)
{
    size_t k = strcspn(err->message, "\n");
    if (k >= n)
        k = n - 1;
    memcpy(out, err->message, k);
    out[k] = '\0';
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
    /* non-ASCII identifiers are letters as for CPython (PEP 3131), but
     * those NFKC would change are refused: ufjit cannot normalise */
    {LOC, "\xef\xac\x81x = 3\n", 0, UNS, 1, 1,
     "identifier '\xef\xac\x81x': Python reads '\xef\xac\x81' (U+FB01) "
     "through NFKC normalisation (PEP 3131), which ufjit does not do: "
     "write the normalised form"},
    {LOC, "a\xc2\xb5 = 3\n", 0, UNS, 1, 2,
     "identifier 'a\xc2\xb5': Python reads '\xc2\xb5' (U+00B5) through "
     "NFKC normalisation (PEP 3131), which ufjit does not do: write the "
     "normalised form"},
    /* CPython decodes the whole file first: a bad byte anywhere, even in
     * a comment after a syntax error, is the error */
    {LOC, "x = \xff\n", 0, SYN, 1, 5, "invalid UTF-8 byte 0xFF in source: "
     "kernel files are read as UTF-8, as Python reads them"},
    {LOC, "x = (\n# caf\xe9\n", 0, SYN, 2, 6, "invalid UTF-8 byte 0xE9 in "
     "source: kernel files are read as UTF-8, as Python reads them"},
    {LOC, "x = 1\r\ny = '\xc0\x80'\n", 0, SYN, 2, 6, "invalid UTF-8 byte "
     "0xC0 in source: kernel files are read as UTF-8, as Python reads them"},
    {LOC, "s = '\xed\xa0\x80'\n", 0, SYN, 1, 6, "invalid UTF-8 byte 0xED "
     "in source: kernel files are read as UTF-8, as Python reads them"},
    /* a byte order mark is not text: columns count from after it */
    {LOC, "\xef\xbb\xbfx = 1 +\n", 0, SYN, 1, 8, "invalid syntax"},
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
    /* f-strings are rewritten into + and str() (lexer_string.c) */
    {LOC, "x = f'''{y}'''\n", 0, UNS, 1, 5,
     "triple-quoted f-strings are not supported in kernels"},
    {LOC, "x = rF'{y}'\n", 0, UNS, 1, 5,
     "raw f-strings are not supported in kernels"},
    {LOC, "x = f'{y'\n", 0, SYN, 1, 7, "f-string: expecting '}'"},
    {LOC, "x = f'a}b'\n", 0, SYN, 1, 8, "f-string: single '}' is not "
     "allowed"},
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
    {LOC, "x = (i for i in y)\n", 0, UNS, 1, 5,
     "a generator expression is not supported in kernels"},
    {LOC, "x = sum(i for i in y)\n", 0, UNS, 1, 9,
     "a generator expression is not supported in kernels"},
    {LOC, "x = {i for i in y}\n", 0, UNS, 1, 5,
     "a set comprehension is not supported in kernels"},
    /* {i: 1 for i in y} parses: lc$K = {} and a store loop */
    /* {} and {1: 2} parse: calls of dict() (infer_dict.c) */
    {LOC, "x = {**a}\n", 0, UNS, 1, 5,
     "a dict literal with ** unpacking is not supported in kernels"},
    {LOC, "x = {1: 2, **a}\n", 0, UNS, 1, 12,
     "a dict literal with ** unpacking is not supported in kernels"},
    /* {1, 2} parses: a call of set() (infer_set.c) */
    {LOC, "x = {*a}\n", 0, UNS, 1, 5,
     "a set literal with * unpacking is not supported in kernels"},
    {LOC, "x = {1, *a}\n", 0, UNS, 1, 9,
     "a set literal with * unpacking is not supported in kernels"},
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
    /* inside a def yield parses (compiler/front/generators.c) */
    {LOC, "yield 1\n", 0, SYN, 1, 1, "'yield' outside function"},
    {LOC, "x = (yield)\n", 0, SYN, 1, 6, "'yield' outside function"},
    {LOC, "def f():\n    yield 1 = 2\n", 0, SYN, 2, 13, "invalid syntax"},
    {LOC, "def f():\n    x = await g()\n", 0, UNS, 2, 9,
     "'await' is not supported in kernels"},
    {LOC, "async def f(): pass\n", 0, UNS, 1, 1,
     "'async' is not supported in kernels"},
    {LOC, "@d\nasync def f(): pass\n", 0, UNS, 2, 1,
     "'async' is not supported in kernels"},
    {LOC, "with a: pass\n", 0, UNS, 1, 1,
     "the 'with' statement is not supported in kernels"},
    {LOC, "try:\n    pass\nexcept ValueError: pass\n", 0, UNS, 3, 8,
     "catching an exception other than Exception (Numba: \"Exception "
     "matching is limited to <class 'Exception'>\") is not supported in "
     "kernels"},
    {LOC, "try:\n    pass\nexcept Exception as e: pass\n", 0, UNS, 3, 18,
     "binding the exception with 'as' (Numba: \"Exception object cannot "
     "be stored into variable\") is not supported in kernels"},
    {LOC, "try:\n    pass\nexcept:\n    raise\n", 0, UNS, 4, 5,
     "re-raising the caught exception (Numba: \"The re-raising of an "
     "exception is not yet supported.\") is not supported in kernels"},
    {LOC, "try:\n    pass\n", 0, SYN, 3, 1,
     "expected 'except' or 'finally' block"},
    {LOC, "def f():\n    raise\n", 0, UNS, 2, 5,
     "a bare 'raise' (re-raise) is not supported in kernels"},
    {LOC, "def f():\n    raise a.b('x')\n", 0, UNS, 2, 11,
     "raising something other than an exception class or a call of one is "
     "not supported in kernels"},
    {LOC, "class A: pass\n", 0, UNS, 1, 1,
     "a class definition is not supported in kernels"},
    {LOC, "@dataclass\nclass A: pass\n", 0, UNS, 2, 1,
     "a class definition is not supported in kernels"},
    {LOC, "def f():\n    global x\n", 0, UNS, 2, 5,
     "the 'global' statement is not supported in kernels"},
    {LOC, "def f():\n    nonlocal x\n", 0, UNS, 2, 5,
     "the 'nonlocal' statement is not supported in kernels"},
    {LOC, "del x\n", 0, UNS, 1, 5,
     "'del' of a variable (Numba refuses it: \"Illegal IR, del found\") "
     "is not supported in kernels"},
    {LOC, "del a.b\n", 0, UNS, 1, 5,
     "'del' of an attribute (Numba refuses it: \"Unsupported constraint "
     "encountered: del\") is not supported in kernels"},
    {LOC, "def f(d):\n    del d[0], 1\n", 0, SYN, 2, 15,
     "cannot delete literal"},
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
        {LOC, "x = {i for i in y}",
         "a set comprehension is not supported in kernels\n"
         "x = {i for i in y}\n    ^"},
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
        cmocka_unit_test_setup(test_errors, start_test),
        cmocka_unit_test_setup(test_error_message, start_test),
        cmocka_unit_test_setup(test_deep_nesting, start_test),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
