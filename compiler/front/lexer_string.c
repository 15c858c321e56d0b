/* String literals: prefixes, quotes, escapes (Python's), decoded into
 * the token's value. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "compiler/front/lexer_internal.h"

/* ---- strings ---------------------------------------------------------- */

/* Writes code point cp as UTF-8; returns the byte count. */
static size_t put_utf8(char *out, uint32_t cp)
{
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xC0 | (cp >> 6));
        out[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (char)(0xE0 | (cp >> 12));
        out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | (cp >> 18));
    out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

/* Reads exactly `count` hex digits at j; false when fewer are there. */
static bool read_hex(const lexer *lx, size_t j, int count, uint32_t *out)
{
    uint32_t v = 0;
    for (int k = 0; k < count; k++) {
        char c = at(lx, j + (size_t)k);
        if (j + (size_t)k >= lx->n || !is_digit_base(c, 16))
            return false;
        v = v * 16 + (uint32_t)digit_value(c);
    }
    *out = v;
    return true;
}

/* Decodes the body [s, e) of a string literal whose first line is the
 * lexer's current line (positions of escape errors are computed by
 * walking the body). Decoded text is never longer than the source. */
static int decode_string(lexer *lx, size_t s, size_t e, bool raw,
                         bool bytes, uf__token *tok, uf__pos start)
{
    char *out = uf__arena_alloc(lx->arena, e - s + 1, 1, lx->err);
    if (out == NULL)
        return UF_ERR_NOMEM;
    size_t k = 0;
    int line = start.line;
    size_t line_start = lx->line_start;
    for (size_t j = s; j < e;) {
        char c = lx->t[j];
        size_t nl = newline_len(lx, j);
        if (nl) { /* newlines inside triple quotes read as \n */
            out[k++] = '\n';
            j += nl;
            line++;
            line_start = j;
            continue;
        }
        if (bytes && (unsigned char)c >= 0x80)
            return uf__lx_error(lx, UF_ERR_SYNTAX, start,
                             "bytes can only contain ASCII literal "
                             "characters");
        if (c != '\\' || raw) {
            out[k++] = c;
            if (c == '\\' && j + 1 < e) { /* raw: \" stays two chars */
                if (newline_len(lx, j + 1) == 0)
                    out[k++] = lx->t[++j];
            }
            j++;
            continue;
        }
        uf__pos epos = {line, (int)(j - line_start) + 1};
        char d = at(lx, j + 1);
        size_t nl2 = newline_len(lx, j + 1);
        if (nl2) { /* backslash-newline joins the lines */
            j += 1 + nl2;
            line++;
            line_start = j;
            continue;
        }
        j += 2;
        switch (d) {
        case '\\': out[k++] = '\\'; break;
        case '\'': out[k++] = '\''; break;
        case '"': out[k++] = '"'; break;
        case 'a': out[k++] = '\a'; break;
        case 'b': out[k++] = '\b'; break;
        case 'f': out[k++] = '\f'; break;
        case 'n': out[k++] = '\n'; break;
        case 'r': out[k++] = '\r'; break;
        case 't': out[k++] = '\t'; break;
        case 'v': out[k++] = '\v'; break;
        case '0': case '1': case '2': case '3':
        case '4': case '5': case '6': case '7': {
            uint32_t v = (uint32_t)(d - '0');
            for (int m = 0; m < 2 && j < e && is_digit_base(lx->t[j], 8); m++)
                v = v * 8 + (uint32_t)(lx->t[j++] - '0');
            if (bytes)
                out[k++] = (char)(v & 0xFF);
            else
                k += put_utf8(out + k, v);
            break;
        }
        case 'x': {
            uint32_t v;
            if (j + 2 > e || !read_hex(lx, j, 2, &v))
                return uf__lx_error(lx, UF_ERR_SYNTAX, epos,
                                 "truncated \\xXX escape");
            j += 2;
            if (bytes)
                out[k++] = (char)v;
            else
                k += put_utf8(out + k, v);
            break;
        }
        case 'u':
        case 'U': {
            if (bytes) { /* not an escape in bytes */
                out[k++] = '\\';
                out[k++] = d;
                break;
            }
            int count = d == 'u' ? 4 : 8;
            uint32_t v;
            if (j + (size_t)count > e || !read_hex(lx, j, count, &v))
                return uf__lx_error(lx, UF_ERR_SYNTAX, epos,
                                 d == 'u' ? "truncated \\uXXXX escape"
                                          : "truncated \\UXXXXXXXX escape");
            if (v > 0x10FFFF)
                return uf__lx_error(lx, UF_ERR_SYNTAX, epos,
                                 "illegal Unicode character");
            j += (size_t)count;
            k += put_utf8(out + k, v);
            break;
        }
        case 'N':
            if (!bytes)
                return uf__lx_error(lx, UF_ERR_UNSUPPORTED, epos,
                                 "\\N{...} escapes are not supported in "
                                 "kernels");
            out[k++] = '\\'; /* not an escape in bytes */
            j--;
            break;
        default: /* unknown escapes keep their backslash, as in Python */
            out[k++] = '\\';
            j--;
            break;
        }
    }
    out[k] = '\0';
    tok->v.str.s = out;
    tok->v.str.len = k;
    tok->v.str.is_bytes = bytes;
    return 0;
}

/* A synthesized token (of an f-string's rewriting) at source byte at. */
static int synth(lexer *lx, uf__tok_kind kind, size_t at, const char *name)
{
    uf__token *tok = uf__lx_push(lx, kind, at, at);
    if (tok == NULL)
        return lx->err ? lx->err->code : UF_ERR_NOMEM;
    if (kind == UF__TOK_NAME)
        tok->v.name = name;
    if (kind == UF__TOK_STRING)
        tok->v.str.s = "";
    return 0;
}

/* The literal text [a, b) of an f-string as `+ 'text'` (escapes decoded;
 * a doubled brace already halved by the caller's split). */
static int fstring_text(lexer *lx, size_t a, size_t b)
{
    if (a == b)
        return 0;
    int rc = synth(lx, UF__TOK_PLUS, a, NULL);
    uf__token *tok = rc ? NULL : uf__lx_push(lx, UF__TOK_STRING, a, b);
    if (tok == NULL)
        return rc ? rc : lx->err ? lx->err->code : UF_ERR_NOMEM;
    return decode_string(lx, a, b, false, false, tok, pos_of(lx, a));
}

/* The end of an f-string field's expression starting at a (before e): its
 * '}', or a ':', '!' or '=' at bracket depth 0 that starts a format spec,
 * a conversion or a self-documenting '='; string literals inside (in the
 * other quote) are skipped. */
static size_t field_end(const lexer *lx, size_t a, size_t e, char quote)
{
    int depth = 0;
    for (size_t b = a; b < e; b++) {
        char d = lx->t[b];
        char next = at(lx, b + 1), prev = b > a ? lx->t[b - 1] : 0;
        if ((d == '\'' || d == '"') && d != quote) {
            while (b + 1 < e && lx->t[b + 1] != d)
                b++;
            b++;
        } else if (d == '(' || d == '[' || d == '{') {
            depth++;
        } else if ((d == ')' || d == ']' || d == '}') && depth > 0) {
            depth--;
        } else if (depth == 0 &&
                   (d == '}' || d == ':' || (d == '!' && next != '=') ||
                    (d == '=' && next != '=' && prev != '=' &&
                     prev != '!' && prev != '<' && prev != '>'))) {
            return b;
        }
    }
    return e;
}

/* f'a{x}b{y}' (one line, no format spec, conversion or `=`), rewritten as
 * the tokens of `('' + 'a' + str(x) + 'b' + str(y))`: Numba formats each
 * field with format(x), which is str(x) for the values it takes (strings,
 * integers, bools), so the typing and lowering are those of + and str()
 * (types/infer_ustr.c). The fields' tokens are lexed in place, so errors
 * in them point into the source. */
static int scan_fstring(lexer *lx, size_t s, size_t q)
{
    uf__pos start = pos_of(lx, s);
    char quote = lx->t[q];
    if (at(lx, q + 1) == quote && at(lx, q + 2) == quote)
        return uf__lx_error(lx, UF_ERR_UNSUPPORTED, start, "%s", "triple-"
                            "quoted f-strings are not supported in kernels");
    size_t e = q + 1;
    while (e < lx->n && lx->t[e] != quote && newline_len(lx, e) == 0)
        e += lx->t[e] == '\\' && e + 1 < lx->n ? 2 : 1;
    if (e >= lx->n || lx->t[e] != quote)
        return uf__lx_eager(lx, start, "unterminated string literal "
                            "(detected at line %d)", lx->line);
    int rc;
    if ((rc = synth(lx, UF__TOK_LPAR, s, NULL)) != 0 ||
        (rc = synth(lx, UF__TOK_STRING, s, NULL)) != 0)
        return rc;
    size_t text = q + 1;
    for (size_t j = q + 1; j < e;) {
        char c = lx->t[j];
        if ((c == '{' || c == '}') && at(lx, j + 1) == c) { /* {{ or }} */
            if ((rc = fstring_text(lx, text, j + 1)) != 0)
                return rc;
            text = j += 2;
            continue;
        }
        if (c == '}')
            return uf__lx_error(lx, UF_ERR_SYNTAX, pos_of(lx, j), "%s",
                                "f-string: single '}' is not allowed");
        if (c != '{') {
            j++;
            continue;
        }
        if ((rc = fstring_text(lx, text, j)) != 0)
            return rc;
        size_t a = j + 1, b = field_end(lx, a, e, quote);
        size_t close = b; /* past a spec, conversion or '=': its '}' */
        for (int depth = 0; close < e; close++)
            if (lx->t[close] == '{')
                depth++;
            else if (lx->t[close] == '}' && depth-- == 0)
                break;
        if (close >= e)
            return uf__lx_eager(lx, pos_of(lx, j), "%s", "f-string: "
                                "expecting '}'");
        /* a spec, a conversion or '=' (Numba refuses format specs): the
         * field becomes format(x), which typing refuses at its place */
        const char *fn = b == close ? "str" : "format";
        if ((rc = synth(lx, UF__TOK_PLUS, a, NULL)) != 0 ||
            (rc = synth(lx, UF__TOK_NAME, a, fn)) != 0 ||
            (rc = synth(lx, UF__TOK_LPAR, a, NULL)) != 0 ||
            (rc = uf__lx_scan_range(lx, a, b)) != 0 ||
            (rc = synth(lx, UF__TOK_RPAR, b, NULL)) != 0)
            return rc;
        text = j = close + 1;
    }
    if ((rc = fstring_text(lx, text, e)) != 0 ||
        (rc = synth(lx, UF__TOK_RPAR, e + 1, NULL)) != 0)
        return rc;
    lx->i = e + 1;
    return 0;
}

/* A string literal starting at `s` whose prefix (r, b, u, rb, ...) spans
 * [s, q); the quote is at q. */
int uf__lx_scan_string(lexer *lx, size_t s, size_t q)
{
    bool raw = false, bytes = false, fstr = false;
    for (size_t j = s; j < q; j++) {
        char c = lx->t[j];
        raw |= c == 'r' || c == 'R';
        bytes |= c == 'b' || c == 'B';
        fstr |= c == 'f' || c == 'F';
    }
    uf__pos start = pos_of(lx, s);
    if (fstr && (raw || bytes))
        return uf__lx_error(lx, UF_ERR_UNSUPPORTED, start, "%s", "raw "
                            "f-strings are not supported in kernels");
    if (fstr)
        return scan_fstring(lx, s, q);
    char quote = lx->t[q];
    bool triple = at(lx, q + 1) == quote && at(lx, q + 2) == quote &&
                  q + 2 < lx->n;
    size_t body = q + (triple ? 3 : 1);
    int start_line = lx->line;
    size_t start_line_start = lx->line_start;
    size_t j = body;
    for (;;) {
        if (j >= lx->n) {
            /* CPython counts a final newline as part of the last line. */
            int last = lx->line;
            if (lx->n > 0 && lx->line_start == lx->n && last > 1)
                last--;
            if (triple)
                return uf__lx_eager(lx, start,
                                   "unterminated triple-quoted string "
                                   "literal (detected at line %d)", last);
            return uf__lx_eager(lx, start, "unterminated string literal "
                               "(detected at line %d)", last);
        }
        char c = lx->t[j];
        if (c == quote &&
            (!triple || (at(lx, j + 1) == quote && at(lx, j + 2) == quote &&
                         j + 2 < lx->n)))
            break;
        size_t nl = newline_len(lx, j);
        if (nl) {
            if (!triple)
                return uf__lx_eager(lx, start,
                                 "unterminated string literal (detected at "
                                 "line %d)", lx->line);
            j += nl;
            next_line(lx, j);
            continue;
        }
        if (c == '\\' && j + 1 < lx->n) {
            size_t nl2 = newline_len(lx, j + 1);
            if (nl2) {
                j += 1 + nl2;
                next_line(lx, j);
                continue;
            }
            j += 2;
            continue;
        }
        j++;
    }
    size_t body_end = j;
    size_t end = j + (triple ? 3 : 1);
    /* The token spans lines: its start position was computed above. */
    uf__token *tok = uf__lx_push(lx, UF__TOK_STRING, end, end);
    if (tok == NULL)
        return lx->err ? lx->err->code : UF_ERR_NOMEM;
    tok->pos = start;
    tok->text = lx->t + s;
    tok->len = end - s;
    /* decode_string walks lines from the start: give it that line. */
    int cur_line = lx->line;
    size_t cur_start = lx->line_start;
    lx->line = start_line;
    lx->line_start = start_line_start;
    int rc = decode_string(lx, body, body_end, raw, bytes, tok, start);
    lx->line = cur_line;
    lx->line_start = cur_start;
    if (rc) {
        lx->ntoks--; /* no half-decoded token before the ERROR token */
        return rc;
    }
    lx->i = end;
    return 0;
}

