/* Internals shared by the tokenizer's files: lexer.c (lines, names,
 * numbers, operators, the driver) and lexer_string.c (string literals). */
#ifndef UF_COMPILER_LEXER_INTERNAL_H
#define UF_COMPILER_LEXER_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "compiler/front/lexer.h"

#define MAX_INDENT 100 /* CPython's MAXINDENT: at most 99 levels */
#define MAX_PARENS 200 /* CPython's MAXLEVEL */

typedef struct lexer {
    const uf__source *src;
    const char *t;
    size_t n;
    size_t i;          /* cursor */
    int line;          /* line of the cursor */
    size_t line_start; /* index where that line starts */
    uf__arena *arena;
    uf_error *err;
    uf__token *toks;
    int ntoks, cap;
    int indent[MAX_INDENT + 1]; /* columns, tabs to multiples of 8 */
    int altindent[MAX_INDENT + 1]; /* the same with tabs as 1 */
    int nindent;
    struct {
        char c;
        uf__pos pos;
    } parens[MAX_PARENS];
    int depth;
    /* The error is one CPython's tokenizer raises even after an earlier
     * parser error (see uf__token.v.error). */
    bool eager;
} lexer;

/* The byte at index j, or 0 past the end (the text may hold NULs). */
static inline char at(const lexer *lx, size_t j)
{
    return j < lx->n ? lx->t[j] : '\0';
}

static inline uf__pos pos_of(const lexer *lx, size_t j)
{
    return (uf__pos){lx->line, (int)(j - lx->line_start) + 1};
}

/* Errors at pos: the message with the source line and a caret; return the
 * code. An eager one is an error CPython raises as soon as its tokenizer
 * meets it. */
int uf__lx_error(lexer *lx, int code, uf__pos pos, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
int uf__lx_eager(lexer *lx, uf__pos pos, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Appends a token; NULL (err set) when the arena is exhausted. */
uf__token *uf__lx_push(lexer *lx, uf__tok_kind kind, size_t start, size_t end);
/* A string literal whose prefix starts at s and quote at q
 * (lexer_string.c). */
int uf__lx_scan_string(lexer *lx, size_t s, size_t q);
/* The tokens of source bytes [a, b) on the cursor's line (an f-string's
 * field, lexer_string.c); lx->i ends at b. */
int uf__lx_scan_range(lexer *lx, size_t a, size_t b);

static inline bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static inline bool is_digit_base(char c, int base)
{
    switch (base) {
    case 2:
        return c == '0' || c == '1';
    case 8:
        return c >= '0' && c <= '7';
    case 16:
        return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    default:
        return is_digit(c);
    }
}

static inline int digit_value(char c)
{
    if (is_digit(c))
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return c - 'A' + 10;
}

/* Length of the line terminator at j (\n, \r\n or \r), 0 if none. */
static inline size_t newline_len(const lexer *lx, size_t j)
{
    char c = at(lx, j);
    if (j >= lx->n)
        return 0;
    if (c == '\n')
        return 1;
    if (c == '\r')
        return at(lx, j + 1) == '\n' && j + 1 < lx->n ? 2 : 1;
    return 0;
}

static inline void next_line(lexer *lx, size_t after)
{
    lx->line++;
    lx->line_start = after;
}

#endif
