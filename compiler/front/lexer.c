/* The tokenizer: Python's rules for the kernel subset, in one pass over the
 * file into an arena array of tokens. Indentation follows CPython's
 * tokenizer: columns with tabs to the next multiple of 8, checked against
 * tabs counted as 1 so that ambiguous mixes are a TabError-style error. */
#include <locale.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error_internal.h"
#include "compiler/front/lexer_internal.h"
#include "compiler/front/unicode_ident.h"
#include "common/utf8.h"

typedef struct spelling {
    const char *text;
    size_t len;
    uf__tok_kind kind;
} spelling;

static const spelling ops[] = {
#define UF__OP_ROW(name, text) {text, sizeof text - 1, UF__TOK_##name},
    UF__TOK_OPS(UF__OP_ROW)
#undef UF__OP_ROW
};

static const spelling keywords[] = {
#define UF__KW_ROW(name, text) {text, sizeof text - 1, UF__TOK_KW_##name},
    UF__TOK_KEYWORDS(UF__KW_ROW)
#undef UF__KW_ROW
};

const char *uf__tok_str(uf__tok_kind kind)
{
    switch (kind) {
#define UF__TOK_NAME(name, text) \
    case UF__TOK_##name:         \
        return text;
        UF__TOK_SPECIAL(UF__TOK_NAME)
        UF__TOK_OPS(UF__TOK_NAME)
#undef UF__TOK_NAME
#define UF__KW_NAME(name, text) \
    case UF__TOK_KW_##name:     \
        return text;
        UF__TOK_KEYWORDS(UF__KW_NAME)
#undef UF__KW_NAME
    case UF__TOK_COUNT:
        break;
    }
    return "?";
}

int uf__lx_error(lexer *lx, int code, uf__pos pos, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return uf__source_error(lx->err, code, lx->src, pos, "%s", msg);
}

int uf__lx_eager(lexer *lx, uf__pos pos, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    lx->eager = true;
    return uf__source_error(lx->err, UF_ERR_SYNTAX, lx->src, pos, "%s", msg);
}

static bool is_alpha(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

/* Non-ASCII bytes count as identifier characters here so that `1π` or
 * `abcé` are reported as one bad token, not split. */
static bool is_ident(char c)
{
    return is_alpha(c) || is_digit(c) || (unsigned char)c >= 0x80;
}

/* The length of the non-ASCII identifier character at i (XID_Start when
 * `first`, else XID_Continue), or 0. */
static int ident_char_at(const lexer *lx, size_t i, bool first)
{
    if (i >= lx->n || (unsigned char)lx->t[i] < 0x80)
        return 0;
    uint32_t cp;
    int len = uf__utf8_decode(lx->t + i, lx->n - i, &cp);
    if (len == 0)
        return 0;
    bool ok = first ? uf__cp_in(uf__xid_start, uf__xid_start_n, cp)
                    : uf__cp_in(uf__xid_continue, uf__xid_continue_n, cp);
    return ok ? len : 0;
}

/* forward: the token scanners uf__lx_scan_range dispatches to */
static int scan_number(lexer *lx);
static int scan_name(lexer *lx);
static int scan_operator(lexer *lx);
static int bad_character(lexer *lx, size_t i);

int uf__lx_scan_range(lexer *lx, size_t a, size_t b)
{
    size_t n = lx->n;
    int rc = 0;
    lx->n = b; /* the scanners stop at the range's end */
    lx->i = a;
    while (rc == 0 && lx->i < b) {
        char c = lx->t[lx->i];
        if (c == ' ' || c == '\t') {
            lx->i++;
            continue;
        }
        if (is_digit(c) || (c == '.' && is_digit(at(lx, lx->i + 1))))
            rc = scan_number(lx);
        else if (is_alpha(c) || ident_char_at(lx, lx->i, true) > 0)
            rc = scan_name(lx);
        else if (c == '\'' || c == '"')
            rc = uf__lx_scan_string(lx, lx->i, lx->i);
        else if ((unsigned char)c >= 0x80 || c == '\0' || c == '\\')
            rc = bad_character(lx, lx->i);
        else
            rc = scan_operator(lx);
    }
    lx->n = n;
    return rc;
}

uf__token *uf__lx_push(lexer *lx, uf__tok_kind kind, size_t start,
                       size_t end)
{
    if (lx->ntoks == lx->cap) {
        /* Kernel files average about one token per 4 bytes. */
        size_t guess = lx->n / 4 + 16;
        int cap = lx->cap ? lx->cap * 2 : guess < 65536 ? (int)guess : 65536;
        uf__token *t = uf__arena_alloc(lx->arena, (size_t)cap, sizeof *t,
                                       lx->err);
        if (t == NULL)
            return NULL;
        if (lx->ntoks > 0)
            memcpy(t, lx->toks, (size_t)lx->ntoks * sizeof *t);
        lx->toks = t;
        lx->cap = cap;
    }
    uf__token *tok = &lx->toks[lx->ntoks++];
    memset(tok, 0, sizeof *tok);
    tok->kind = kind;
    tok->pos = pos_of(lx, start);
    tok->end = pos_of(lx, end);
    tok->text = lx->t + start;
    tok->len = end - start;
    return tok;
}

/* ---- numbers ---------------------------------------------------------- */

/* Consumes d ('_'? d)* from *pi; a '_' not followed by a digit is an
 * error at the '_'. */
static int scan_digits(lexer *lx, size_t *pi, int base, const char *what)
{
    size_t i = *pi;
    for (;;) {
        while (is_digit_base(at(lx, i), base))
            i++;
        if (at(lx, i) != '_')
            break;
        if (!is_digit_base(at(lx, i + 1), base))
            return uf__lx_eager(lx, pos_of(lx, i),
                             "invalid %s literal", what);
        i++;
    }
    *pi = i;
    return 0;
}

/* A number may not run into a name (`1abc`), except for the keywords
 * CPython tolerates there (`1if x else 2`). */
static int verify_end(lexer *lx, size_t i, const char *what)
{
    if (!is_ident(at(lx, i)))
        return 0;
    static const char *const allowed[] = {"and", "else", "for", "if",
                                          "in", "is", "not", "or"};
    for (size_t k = 0; k < sizeof allowed / sizeof *allowed; k++) {
        size_t len = strlen(allowed[k]);
        if (i + len <= lx->n && memcmp(lx->t + i, allowed[k], len) == 0 &&
            !is_ident(at(lx, i + len)))
            return 0;
    }
    return uf__lx_eager(lx, pos_of(lx, i - 1),
                     "invalid %s literal", what);
}

/* Value of the digits in [s, e) skipping underscores; sets too_big on
 * overflow instead of failing (the typer decides what to do). */
static void int_value(const lexer *lx, size_t s, size_t e, int base,
                      uf__token *tok)
{
    uint64_t v = 0;
    bool big = false;
    for (size_t j = s; j < e; j++) {
        char c = lx->t[j];
        if (c == '_')
            continue;
        uint64_t d = (uint64_t)digit_value(c);
        if (v > (UINT64_MAX - d) / (uint64_t)base)
            big = true;
        v = v * (uint64_t)base + d;
    }
    tok->v.i.value = big ? 0 : v;
    tok->v.i.too_big = big;
}

/* strtod on [s, e) without underscores. strtod follows the C locale's
 * decimal point, which a host program may have changed: substitute it. */
static int float_value(lexer *lx, size_t s, size_t e, double *out)
{
    const char *dp = localeconv()->decimal_point;
    size_t dplen = dp && dp[0] ? strlen(dp) : 1;
    char small[128];
    char *buf = small;
    size_t need = (e - s) * dplen + 1;
    if (need > sizeof small) {
        buf = uf__arena_alloc(lx->arena, need, 1, lx->err);
        if (buf == NULL)
            return UF_ERR_NOMEM;
    }
    size_t k = 0;
    for (size_t j = s; j < e; j++) {
        char c = lx->t[j];
        if (c == '_')
            continue;
        if (c == '.' && dp && dp[0]) {
            memcpy(buf + k, dp, dplen);
            k += dplen;
        } else {
            buf[k++] = c;
        }
    }
    buf[k] = '\0';
    *out = strtod(buf, NULL);
    return 0;
}

static int scan_number(lexer *lx)
{
    size_t s = lx->i, i = s;
    char c1 = at(lx, s + 1);
    if (at(lx, s) == '0' && strchr("xXoObB", c1) != NULL && c1 != '\0') {
        int base = c1 == 'x' || c1 == 'X'   ? 16
                   : c1 == 'o' || c1 == 'O' ? 8
                                            : 2;
        const char *what = base == 16 ? "hexadecimal" : base == 8 ? "octal"
                                                                  : "binary";
        i = s + 2;
        if (at(lx, i) == '_')
            i++;
        if (!is_digit_base(at(lx, i), base)) {
            if (is_digit(at(lx, i)))
                return uf__lx_eager(lx, pos_of(lx, i),
                                 "invalid digit '%c' in %s literal",
                                 at(lx, i), what);
            return uf__lx_eager(lx, pos_of(lx, i - 1),
                             "invalid %s literal", what);
        }
        size_t ds = i;
        int rc = scan_digits(lx, &i, base, what);
        if (rc)
            return rc;
        if (is_digit(at(lx, i)))
            return uf__lx_eager(lx, pos_of(lx, i),
                             "invalid digit '%c' in %s literal", at(lx, i),
                             what);
        rc = verify_end(lx, i, what);
        if (rc)
            return rc;
        uf__token *tok = uf__lx_push(lx, UF__TOK_INT, s, i);
        if (tok == NULL)
            return lx->err ? lx->err->code : UF_ERR_NOMEM;
        int_value(lx, ds, i, base, tok);
        lx->i = i;
        return 0;
    }

    bool is_float = false, is_imag = false;
    int rc;
    if (is_digit(at(lx, i))) {
        rc = scan_digits(lx, &i, 10, "decimal");
        if (rc)
            return rc;
    }
    size_t int_end = i;
    if (at(lx, i) == '.') {
        is_float = true;
        i++;
        if (is_digit(at(lx, i))) {
            rc = scan_digits(lx, &i, 10, "decimal");
            if (rc)
                return rc;
        }
    }
    char e = at(lx, i);
    if (e == 'e' || e == 'E') {
        size_t j = i + 1;
        char sign = at(lx, j);
        if (sign == '+' || sign == '-') {
            j++;
            if (!is_digit(at(lx, j)))
                return uf__lx_eager(lx, pos_of(lx, j - 1),
                                 "invalid decimal literal");
        }
        if (is_digit(at(lx, j))) {
            is_float = true;
            i = j;
            rc = scan_digits(lx, &i, 10, "decimal");
            if (rc)
                return rc;
        }
        /* else `1else`: leave the e to verify_end */
    }
    size_t num_end = i;
    if (at(lx, i) == 'j' || at(lx, i) == 'J') {
        is_imag = true;
        i++;
    }
    /* CPython checks leading zeros before what follows the number. */
    if (!is_float && !is_imag && lx->t[s] == '0') {
        for (size_t j = s; j < int_end; j++)
            if (lx->t[j] != '0' && lx->t[j] != '_')
                return uf__lx_eager(lx, pos_of(lx, s),
                                   "leading zeros in decimal integer "
                                   "literals are not permitted; use an 0o "
                                   "prefix for octal integers");
    }
    rc = verify_end(lx, i, is_imag ? "imaginary" : "decimal");
    if (rc)
        return rc;
    uf__tok_kind kind = is_imag ? UF__TOK_IMAG : is_float ? UF__TOK_FLOAT
                                                          : UF__TOK_INT;
    uf__token *tok = uf__lx_push(lx, kind, s, i);
    if (tok == NULL)
        return lx->err ? lx->err->code : UF_ERR_NOMEM;
    if (kind == UF__TOK_INT) {
        int_value(lx, s, i, 10, tok);
    } else {
        rc = float_value(lx, s, num_end, &tok->v.f);
        if (rc)
            return rc;
    }
    lx->i = i;
    return 0;
}

/* ---- names, operators, brackets -------------------------------------- */

static bool is_string_prefix(const char *p, size_t len)
{
    if (len == 0 || len > 2)
        return false;
    char a = (char)(p[0] | 0x20), b = len == 2 ? (char)(p[1] | 0x20) : 0;
    if (len == 1)
        return a == 'r' || a == 'b' || a == 'u' || a == 'f';
    return (a == 'r' && (b == 'b' || b == 'f')) ||
           ((a == 'b' || a == 'f') && b == 'r');
}

/* Reports a byte that starts no token, decoding UTF-8 for the message. */
static int bad_character(lexer *lx, size_t i)
{
    unsigned char c = (unsigned char)lx->t[i];
    uf__pos pos = pos_of(lx, i);
    if (c == 0)
        return uf__lx_error(lx, UF_ERR_SYNTAX, pos,
                         "source code cannot contain null bytes");
    if (c < 0x80) {
        if (c < 0x20 || c == 0x7F)
            return uf__lx_eager(lx, pos,
                               "invalid non-printable character U+%04X", c);
        return uf__lx_error(lx, UF_ERR_SYNTAX, pos, "invalid syntax");
    }
    int len = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
    uint32_t cp = len == 1 ? c : c & (0xFF >> (len + 1));
    for (int k = 1; k < len; k++) {
        unsigned char d = (unsigned char)at(lx, i + (size_t)k);
        if ((d & 0xC0) != 0x80 || i + (size_t)k >= lx->n) {
            len = 1;
            break;
        }
        cp = (cp << 6) | (d & 0x3F);
    }
    if (len == 1)
        return uf__lx_eager(lx, pos, "invalid UTF-8 byte 0x%02X in source",
                           c);
    return uf__lx_eager(lx, pos, "invalid character '%.*s' (U+%04X)", len,
                       lx->t + i, (unsigned)cp);
}

/* Non-ASCII identifiers (PEP 3131): Python normalises them with NFKC
 * before comparing; without those tables, a name holding a character
 * NFKC may change is refused (unicode_ident.h) rather than compared
 * differently. */
static int check_nfkc(lexer *lx, size_t s, size_t e)
{
    for (size_t i = s; i < e;) {
        uint32_t cp;
        int len = uf__utf8_decode(lx->t + i, e - i, &cp);
        if (len > 1 && uf__cp_in(uf__nfkc_may_change, uf__nfkc_may_change_n,
                                 cp))
            return uf__lx_error(lx, UF_ERR_UNSUPPORTED, pos_of(lx, i),
                             "identifier '%.*s': Python reads '%.*s' "
                             "(U+%04X) through NFKC normalisation (PEP "
                             "3131), which ufjit does not do: write the "
                             "normalised form", (int)(e - s), lx->t + s,
                             len, lx->t + i, (unsigned)cp);
        i += len > 0 ? (size_t)len : 1;
    }
    return 0;
}

static int scan_name(lexer *lx)
{
    size_t s = lx->i, i = s;
    bool ascii = true;
    for (;;) {
        if (is_alpha(at(lx, i)) || is_digit(at(lx, i))) {
            i++;
            continue;
        }
        int len = ident_char_at(lx, i, i == s);
        if (len <= 0)
            break;
        ascii = false;
        i += (size_t)len;
    }
    if ((at(lx, i) == '\'' || at(lx, i) == '"') &&
        is_string_prefix(lx->t + s, i - s))
        return uf__lx_scan_string(lx, s, i);
    if ((unsigned char)at(lx, i) >= 0x80)
        return bad_character(lx, i);
    int rc = ascii ? 0 : check_nfkc(lx, s, i);
    if (rc)
        return rc;
    for (size_t k = 0; k < sizeof keywords / sizeof *keywords; k++) {
        if (keywords[k].len == i - s && keywords[k].text[0] == lx->t[s] &&
            memcmp(keywords[k].text, lx->t + s, i - s) == 0) {
            if (uf__lx_push(lx, keywords[k].kind, s, i) == NULL)
                return lx->err ? lx->err->code : UF_ERR_NOMEM;
            lx->i = i;
            return 0;
        }
    }
    uf__token *tok = uf__lx_push(lx, UF__TOK_NAME, s, i);
    if (tok == NULL)
        return lx->err ? lx->err->code : UF_ERR_NOMEM;
    tok->v.name = uf__arena_strndup(lx->arena, lx->t + s, i - s, lx->err);
    if (tok->v.name == NULL)
        return UF_ERR_NOMEM;
    lx->i = i;
    return 0;
}

static char closer_of(char open)
{
    return open == '(' ? ')' : open == '[' ? ']' : '}';
}

static int scan_operator(lexer *lx)
{
    size_t s = lx->i;
    size_t best = 0;
    uf__tok_kind kind = UF__TOK_EOF;
    for (size_t k = 0; k < sizeof ops / sizeof *ops; k++) {
        size_t len = ops[k].len;
        if (len > best && ops[k].text[0] == lx->t[s] && s + len <= lx->n &&
            memcmp(ops[k].text, lx->t + s, len) == 0) {
            best = len;
            kind = ops[k].kind;
        }
    }
    if (best == 0)
        return bad_character(lx, s);
    char c = lx->t[s];
    uf__pos pos = pos_of(lx, s);
    if (kind == UF__TOK_LPAR || kind == UF__TOK_LSQB ||
        kind == UF__TOK_LBRACE) {
        if (lx->depth >= MAX_PARENS)
            return uf__lx_eager(lx, pos,
                             "too many nested parentheses");
        lx->parens[lx->depth].c = c;
        lx->parens[lx->depth].pos = pos;
        lx->depth++;
    } else if (kind == UF__TOK_RPAR || kind == UF__TOK_RSQB ||
               kind == UF__TOK_RBRACE) {
        if (lx->depth == 0)
            return uf__lx_eager(lx, pos, "unmatched '%c'", c);
        lx->depth--;
        char open = lx->parens[lx->depth].c;
        if (closer_of(open) != c) {
            if (lx->parens[lx->depth].pos.line != pos.line)
                return uf__lx_eager(lx, pos,
                                 "closing parenthesis '%c' does not match "
                                 "opening parenthesis '%c' on line %d", c,
                                 open, lx->parens[lx->depth].pos.line);
            return uf__lx_eager(lx, pos,
                             "closing parenthesis '%c' does not match "
                             "opening parenthesis '%c'", c, open);
        }
    }
    if (uf__lx_push(lx, kind, s, s + best) == NULL)
        return lx->err ? lx->err->code : UF_ERR_NOMEM;
    lx->i = s + best;
    return 0;
}

/* ---- lines and indentation ------------------------------------------- */

/* At the start of a logical line: measures the indentation, skips blank
 * and comment-only lines, and emits INDENT/DEDENT. Sets *eof at the end of
 * the text. */
static int line_start(lexer *lx, bool *eof)
{
    for (;;) {
        int col = 0, alt = 0;
        size_t j = lx->i;
        for (;; j++) {
            char c = at(lx, j);
            if (j >= lx->n)
                break;
            if (c == ' ') {
                col++;
                alt++;
            } else if (c == '\t') {
                col = (col / 8 + 1) * 8;
                alt++;
            } else if (c == '\f') {
                col = alt = 0;
            } else {
                break;
            }
        }
        if (j >= lx->n) {
            lx->i = j;
            *eof = true;
            return 0;
        }
        if (at(lx, j) == '#') {
            while (j < lx->n && newline_len(lx, j) == 0)
                j++;
        }
        size_t nl = newline_len(lx, j);
        if (nl) { /* blank line: no tokens, indentation ignored */
            lx->i = j + nl;
            next_line(lx, lx->i);
            continue;
        }
        if (j >= lx->n) {
            lx->i = j;
            *eof = true;
            return 0;
        }
        lx->i = j;
        uf__pos pos = pos_of(lx, j);
        int top = lx->indent[lx->nindent], alttop = lx->altindent[lx->nindent];
        if (col == top) {
            if (alt != alttop)
                goto tab_error;
        } else if (col > top) {
            if (alt <= alttop)
                goto tab_error;
            if (lx->nindent + 1 >= MAX_INDENT)
                return uf__lx_error(lx, UF_ERR_SYNTAX, pos,
                                 "too many levels of indentation");
            lx->nindent++;
            lx->indent[lx->nindent] = col;
            lx->altindent[lx->nindent] = alt;
            if (uf__lx_push(lx, UF__TOK_INDENT, j, j) == NULL)
                return lx->err ? lx->err->code : UF_ERR_NOMEM;
        } else {
            /* Check before emitting any DEDENT: the error comes where the
             * parser asks for the token after the NEWLINE. */
            int level = lx->nindent;
            while (level > 0 && col < lx->indent[level])
                level--;
            if (col != lx->indent[level])
                return uf__lx_error(lx, UF_ERR_SYNTAX, pos,
                                 "unindent does not match any outer "
                                 "indentation level");
            if (alt != lx->altindent[level])
                goto tab_error;
            while (lx->nindent > level) {
                lx->nindent--;
                if (uf__lx_push(lx, UF__TOK_DEDENT, j, j) == NULL)
                    return lx->err ? lx->err->code : UF_ERR_NOMEM;
            }
        }
        *eof = false;
        return 0;
    tab_error:
        return uf__lx_error(lx, UF_ERR_SYNTAX, pos,
                         "inconsistent use of tabs and spaces in "
                         "indentation");
    }
}

static int lex_tokens(lexer *lx);

/* Python decodes the whole file before reading any of it: a byte that is
 * not UTF-8, even in a comment, is an error wherever it is. */
static int check_utf8(lexer *lx)
{
    size_t i = 0;
    while (i < lx->n) {
        if ((unsigned char)lx->t[i] < 0x80) {
            i++;
            continue;
        }
        uint32_t cp;
        int len = uf__utf8_decode(lx->t + i, lx->n - i, &cp);
        if (len == 0)
            break;
        i += (size_t)len;
    }
    if (i == lx->n)
        return 0;
    for (size_t j = 0; j < i; j++) {
        size_t nl = newline_len(lx, j);
        if (nl > 0) {
            j += nl - 1;
            next_line(lx, j + 1);
        }
    }
    return uf__lx_error(lx, UF_ERR_SYNTAX, pos_of(lx, i), "invalid UTF-8 byte "
                     "0x%02X in source: kernel files are read as UTF-8, as "
                     "Python reads them", (unsigned char)lx->t[i]);
}

int uf__lex(const uf__source *src, uf__arena *arena, uf__token **toks,
            int *ntoks, uf_error *err)
{
    lexer lx;
    memset(&lx, 0, sizeof lx);
    lx.src = src;
    lx.t = src->text ? src->text : "";
    lx.n = src->text ? src->len : 0;
    /* A UTF-8 byte order mark is not part of the text, as for Python (the
     * first line's columns then count from after it, as Python's do). */
    if (lx.n >= 3 && memcmp(lx.t, "\xEF\xBB\xBF", 3) == 0) {
        lx.t += 3;
        lx.n -= 3;
    }
    lx.line = 1;
    lx.arena = arena;
    lx.err = err;
    *toks = NULL;
    *ntoks = 0;
    int rc = check_utf8(&lx);
    if (rc)
        return rc;
    lx.line = 1;
    lx.line_start = 0;
    rc = lex_tokens(&lx);
    if (rc == UF_ERR_SYNTAX || rc == UF_ERR_UNSUPPORTED) {
        /* Tokens so far plus an ERROR token where the error is. */
        size_t at_i = lx.i < lx.n ? lx.i : lx.n;
        uf__token *t = uf__lx_push(&lx, UF__TOK_ERROR, at_i, at_i);
        if (t == NULL)
            return UF_ERR_NOMEM;
        if (err != NULL) {
            t->pos = (uf__pos){err->line, err->column};
            t->end = t->pos;
        }
        t->v.error.eager = lx.eager;
        if (lx.depth > 0) {
            t->v.error.in_brackets = true;
            t->v.error.bracket = lx.parens[lx.depth - 1].pos;
            t->v.error.bracket_char = lx.parens[lx.depth - 1].c;
        }
    }
    if (rc == 0 || rc == UF_ERR_SYNTAX || rc == UF_ERR_UNSUPPORTED) {
        *toks = lx.toks;
        *ntoks = lx.ntoks;
    }
    return rc;
}

/* The whole text into lx->toks, ending with EOF. */
static int lex_tokens(lexer *lx)
{
    int rc;
    uf_error *err = lx->err;

    bool at_bol = true;
    for (;;) {
        if (at_bol && lx->depth == 0) {
            bool eof = false;
            rc = line_start(lx, &eof);
            if (rc)
                return rc;
            if (eof)
                break;
            at_bol = false;
        }
        char c = at(lx, lx->i);
        if (c == ' ' || c == '\t' || c == '\f') {
            lx->i++;
            continue;
        }
        if (lx->i >= lx->n)
            break;
        size_t nl_at = lx->i;
        if (c == '#') {
            /* CPython's NEWLINE starts where a trailing comment does. */
            while (lx->i < lx->n && newline_len(lx, lx->i) == 0)
                lx->i++;
            if (lx->i >= lx->n)
                continue;
        }
        size_t nl = newline_len(lx, lx->i);
        if (nl) {
            if (lx->depth == 0) {
                if (uf__lx_push(lx, UF__TOK_NEWLINE, nl_at, lx->i + 1) == NULL)
                    return err ? err->code : UF_ERR_NOMEM;
                at_bol = true;
            }
            lx->i += nl;
            next_line(lx, lx->i);
            continue;
        }
        if (c == '\\') {
            size_t nl2 = newline_len(lx, lx->i + 1);
            if (lx->i + 1 >= lx->n)
                return uf__lx_error(lx, UF_ERR_SYNTAX, pos_of(lx, lx->i + 1),
                                 "unexpected EOF while parsing");
            if (nl2 == 0)
                return uf__lx_error(lx, UF_ERR_SYNTAX, pos_of(lx, lx->i + 1),
                                 "unexpected character after line "
                                 "continuation character");
            lx->i += 1 + nl2;
            next_line(lx, lx->i);
            continue;
        }
        if (is_digit(c) || (c == '.' && is_digit(at(lx, lx->i + 1))))
            rc = scan_number(lx);
        else if (is_alpha(c) || ident_char_at(lx, lx->i, true) > 0)
            rc = scan_name(lx);
        else if (c == '\'' || c == '"')
            rc = uf__lx_scan_string(lx, lx->i, lx->i);
        else if ((unsigned char)c >= 0x80 || c == '\0')
            rc = bad_character(lx, lx->i);
        else
            rc = scan_operator(lx);
        if (rc)
            return rc;
    }

    if (lx->depth > 0) {
        char open = lx->parens[lx->depth - 1].c;
        return uf__lx_error(lx, UF_ERR_SYNTAX, lx->parens[lx->depth - 1].pos,
                         "'%c' was never closed", open);
    }
    size_t end = lx->n;
    if (lx->ntoks > 0) {
        uf__tok_kind last = lx->toks[lx->ntoks - 1].kind;
        if (last != UF__TOK_NEWLINE && last != UF__TOK_DEDENT &&
            uf__lx_push(lx, UF__TOK_NEWLINE, end, end) == NULL)
            return err ? err->code : UF_ERR_NOMEM;
    }
    while (lx->nindent > 0) {
        lx->nindent--;
        if (uf__lx_push(lx, UF__TOK_DEDENT, end, end) == NULL)
            return err ? err->code : UF_ERR_NOMEM;
    }
    if (uf__lx_push(lx, UF__TOK_EOF, end, end) == NULL)
        return err ? err->code : UF_ERR_NOMEM;
    return 0;
}
