/* The tokenizer for the kernel subset of Python: Python's token rules
 * (NEWLINE/INDENT/DEDENT, implicit and explicit line joining, number and
 * string literals) with errors at file:line:col through uf__source_error. */
#ifndef UF_COMPILER_LEXER_H
#define UF_COMPILER_LEXER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "compiler/front/arena.h"
#include "compiler/front/source.h"

/* Tokens other than operators and keywords. */
#define UF__TOK_SPECIAL(X)                                                  \
    X(EOF, "end of file")                                                   \
    X(ERROR, "error")                                                       \
    X(NEWLINE, "newline")                                                   \
    X(INDENT, "indent")                                                     \
    X(DEDENT, "dedent")                                                     \
    X(NAME, "name")                                                         \
    X(INT, "integer")                                                       \
    X(FLOAT, "float")                                                       \
    X(IMAG, "imaginary")                                                    \
    X(STRING, "string")

/* Operators and delimiters with their spelling. */
#define UF__TOK_OPS(X)                                                      \
    X(LPAR, "(") X(RPAR, ")") X(LSQB, "[") X(RSQB, "]")                     \
    X(LBRACE, "{") X(RBRACE, "}") X(COMMA, ",") X(COLON, ":")               \
    X(SEMI, ";") X(DOT, ".") X(ELLIPSIS, "...") X(AT, "@")                  \
    X(ASSIGN, "=") X(ARROW, "->") X(WALRUS, ":=")                           \
    X(PLUS, "+") X(MINUS, "-") X(STAR, "*") X(SLASH, "/")                   \
    X(DSLASH, "//") X(PERCENT, "%") X(DSTAR, "**") X(AMP, "&")              \
    X(PIPE, "|") X(CARET, "^") X(TILDE, "~") X(LSHIFT, "<<")                \
    X(RSHIFT, ">>") X(LT, "<") X(GT, ">") X(LE, "<=") X(GE, ">=")           \
    X(EQ, "==") X(NE, "!=")                                                 \
    X(PLUSEQ, "+=") X(MINUSEQ, "-=") X(STAREQ, "*=") X(SLASHEQ, "/=")       \
    X(DSLASHEQ, "//=") X(PERCENTEQ, "%=") X(DSTAREQ, "**=")                 \
    X(AMPEQ, "&=") X(PIPEEQ, "|=") X(CARETEQ, "^=") X(LSHIFTEQ, "<<=")      \
    X(RSHIFTEQ, ">>=") X(ATEQ, "@=")

/* Python's keywords (soft keywords such as `match` are names). */
#define UF__TOK_KEYWORDS(X)                                                 \
    X(FALSE, "False") X(NONE, "None") X(TRUE, "True") X(AND, "and")         \
    X(AS, "as") X(ASSERT, "assert") X(ASYNC, "async") X(AWAIT, "await")     \
    X(BREAK, "break") X(CLASS, "class") X(CONTINUE, "continue")             \
    X(DEF, "def") X(DEL, "del") X(ELIF, "elif") X(ELSE, "else")             \
    X(EXCEPT, "except") X(FINALLY, "finally") X(FOR, "for")                 \
    X(FROM, "from") X(GLOBAL, "global") X(IF, "if") X(IMPORT, "import")     \
    X(IN, "in") X(IS, "is") X(LAMBDA, "lambda") X(NONLOCAL, "nonlocal")     \
    X(NOT, "not") X(OR, "or") X(PASS, "pass") X(RAISE, "raise")             \
    X(RETURN, "return") X(TRY, "try") X(WHILE, "while") X(WITH, "with")     \
    X(YIELD, "yield")

typedef enum uf__tok_kind {
#define UF__TOK_ENUM(name, text) UF__TOK_##name,
    UF__TOK_SPECIAL(UF__TOK_ENUM)
    UF__TOK_OPS(UF__TOK_ENUM)
#undef UF__TOK_ENUM
#define UF__TOK_KW_ENUM(name, text) UF__TOK_KW_##name,
    UF__TOK_KEYWORDS(UF__TOK_KW_ENUM)
#undef UF__TOK_KW_ENUM
    UF__TOK_COUNT
} uf__tok_kind;

typedef struct uf__token {
    uf__tok_kind kind;
    uf__pos pos; /* first character */
    uf__pos end; /* just past the last character */
    const char *text; /* the token's source text (not NUL-terminated) */
    size_t len;
    union {
        struct {
            uint64_t value;
            bool too_big; /* did not fit in 64 bits */
        } i;              /* INT */
        double f;         /* FLOAT; IMAG: the imaginary part */
        struct {
            const char *s; /* escapes decoded, NUL-terminated */
            size_t len;
            bool is_bytes;
        } str;            /* STRING */
        const char *name; /* NAME, NUL-terminated */
        struct {
            /* CPython's tokenizer raises this error even when the parser
             * failed earlier (bad numbers, strings, characters, brackets);
             * the others (indentation, line continuation, escapes, ...)
             * only when the parser gets this far. */
            bool eager;
            /* brackets were open: the innermost one */
            bool in_brackets;
            uf__pos bracket;
            char bracket_char;
        } error;          /* ERROR */
    } v;
} uf__token;

/* Tokenizes the whole of src into an arena array ending with one EOF
 * token. Returns 0, or UF_ERR_SYNTAX / UF_ERR_UNSUPPORTED (f-strings) /
 * UF_ERR_NOMEM with err set. On a syntax or unsupported error the array
 * still holds the tokens before the error followed by one ERROR token at
 * its position: the parser reports the lexer's error only if it gets that
 * far, as CPython's lazy tokenizer does (`def f(x pass` is "invalid
 * syntax", not "'(' was never closed"). On NOMEM *toks is NULL. */
int uf__lex(const uf__source *src, uf__arena *arena, uf__token **toks,
            int *ntoks, uf_error *err);

/* "(" for operators, "if" for keywords, "name" / "newline" ... otherwise. */
const char *uf__tok_str(uf__tok_kind kind);

#endif
