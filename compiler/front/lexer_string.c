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
    if (fstr)
        return uf__lx_error(lx, UF_ERR_UNSUPPORTED, start,
                         "f-strings are not supported in kernels");
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

