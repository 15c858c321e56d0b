/* Parses NumPy's basic-indexing syntax from text, as written between the
 * brackets of a[...] in Python:
 *
 *   index  := "()" | item ("," item)* [","]
 *   item   := "..." | "Ellipsis" | newaxis | slice | integer
 *   newaxis:= "None" | "np.newaxis" | "numpy.newaxis" | "newaxis"
 *   slice  := [bound] ":" [bound] [":" [bound]]
 *   bound  := integer | "None"          (None is the same as leaving it out)
 *   integer:= ["+" | "-"] digits        (decimal)
 *
 * Spaces may appear between tokens. Errors give the 0-based character
 * position in the message. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "common/error_internal.h"
#include "ndarray/array_internal.h"

typedef struct parser {
    const char *src;
    const char *p;
    uf_error *err;
} parser;

static void skip_ws(parser *ps)
{
    while (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' ||
           *ps->p == '\r')
        ps->p++;
}

static int pos(const parser *ps)
{
    return (int)(ps->p - ps->src);
}

static int syntax_error(parser *ps, const char *what)
{
    char found[32];
    if (*ps->p == '\0')
        snprintf(found, sizeof found, "end of expression");
    else if (isprint((unsigned char)*ps->p))
        snprintf(found, sizeof found, "'%c'", *ps->p);
    else
        snprintf(found, sizeof found, "byte 0x%02x",
                 (unsigned)(unsigned char)*ps->p);
    return uf__error_set(ps->err, UF_ERR_SYNTAX,
                         "invalid index \"%.200s\": expected %s at position "
                         "%d, found %s", ps->src, what, pos(ps), found);
}

static bool is_ident_char(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

/* Consumes keyword `kw` when it is the whole next word. */
static bool accept_word(parser *ps, const char *kw)
{
    size_t n = strlen(kw);
    if (strncmp(ps->p, kw, n) != 0 || is_ident_char(ps->p[n]))
        return false;
    ps->p += n;
    return true;
}

static bool at_integer(const parser *ps)
{
    const char *q = ps->p;
    if (*q == '+' || *q == '-')
        return true;
    return isdigit((unsigned char)*q);
}

/* integer := ["+" | "-"] digits */
static int parse_integer(parser *ps, int64_t *out)
{
    int start = pos(ps);
    bool neg = false;
    if (*ps->p == '+' || *ps->p == '-') {
        neg = *ps->p == '-';
        ps->p++;
        skip_ws(ps);
    }
    if (!isdigit((unsigned char)*ps->p))
        return syntax_error(ps, "digits");
    /* Accumulate as a negative number so INT64_MIN fits. */
    int64_t v = 0;
    while (isdigit((unsigned char)*ps->p)) {
        int d = *ps->p - '0';
        if (__builtin_mul_overflow(v, 10, &v) ||
            __builtin_sub_overflow(v, d, &v))
            return uf__error_set(ps->err, UF_ERR_SYNTAX,
                                 "invalid index \"%.200s\": the integer at "
                                 "position %d does not fit in 64 bits",
                                 ps->src, start);
        ps->p++;
    }
    if (is_ident_char(*ps->p) || *ps->p == '.')
        return syntax_error(ps, "a decimal integer");
    if (!neg) {
        if (v == INT64_MIN)
            return uf__error_set(ps->err, UF_ERR_SYNTAX,
                                 "invalid index \"%.200s\": the integer at "
                                 "position %d does not fit in 64 bits",
                                 ps->src, start);
        v = -v;
    }
    *out = v;
    return 0;
}

/* bound := integer | "None" | (nothing). Sets *present. */
static int parse_bound(parser *ps, bool *present, int64_t *value)
{
    skip_ws(ps);
    *present = false;
    if (accept_word(ps, "None"))
        return 0;
    if (at_integer(ps)) {
        *present = true;
        return parse_integer(ps, value);
    }
    return 0;
}

/* item := "..." | "Ellipsis" | newaxis | slice | integer */
static int parse_item(parser *ps, uf_index *ix)
{
    memset(ix, 0, sizeof *ix);
    skip_ws(ps);
    if (strncmp(ps->p, "...", 3) == 0) {
        ps->p += 3;
        ix->kind = UF_INDEX_ELLIPSIS;
        return 0;
    }
    if (accept_word(ps, "Ellipsis")) {
        ix->kind = UF_INDEX_ELLIPSIS;
        return 0;
    }
    if (accept_word(ps, "np.newaxis") || accept_word(ps, "numpy.newaxis") ||
        accept_word(ps, "newaxis")) {
        ix->kind = UF_INDEX_NEWAXIS;
        return 0;
    }
    /* "None" alone is newaxis; "None:" starts a slice. */
    bool has_word_none = accept_word(ps, "None");
    bool present = false;
    int64_t v = 0;
    int rc = has_word_none ? 0 : parse_bound(ps, &present, &v);
    if (rc < 0)
        return rc;
    skip_ws(ps);
    if (*ps->p != ':') {
        if (has_word_none) {
            ix->kind = UF_INDEX_NEWAXIS;
            return 0;
        }
        if (!present)
            return syntax_error(ps, "an index");
        ix->kind = UF_INDEX_INTEGER;
        ix->has_start = true;
        ix->start = v;
        return 0;
    }
    ix->kind = UF_INDEX_SLICE;
    ix->has_start = present;
    ix->start = present ? v : 0;
    ps->p++; /* ':' */
    if ((rc = parse_bound(ps, &ix->has_stop, &ix->stop)) < 0)
        return rc;
    skip_ws(ps);
    if (*ps->p == ':') {
        ps->p++;
        if ((rc = parse_bound(ps, &ix->has_step, &ix->step)) < 0)
            return rc;
    }
    if (!ix->has_step)
        ix->step = 1;
    return 0;
}

int uf_index_parse(const char *expr, uf_index *out, int max, int *n,
                   uf_error *err)
{
    if (n != NULL)
        *n = 0;
    if (expr == NULL || n == NULL || max < 0 || (max > 0 && out == NULL))
        return uf__error_set(err, UF_ERR_INVALID,
                             "uf_index_parse: expr and n must not be NULL, "
                             "out must hold max >= 0 entries");
    parser ps = {expr, expr, err};
    skip_ws(&ps);
    /* "()" is the empty tuple: a[()] indexes nothing. */
    if (*ps.p == '(') {
        ps.p++;
        skip_ws(&ps);
        if (*ps.p != ')')
            return syntax_error(&ps, "')' (only the empty tuple \"()\" "
                                     "may be parenthesised)");
        ps.p++;
        skip_ws(&ps);
        if (*ps.p != '\0')
            return syntax_error(&ps, "end of expression");
        return 0;
    }
    int count = 0;
    for (;;) {
        uf_index ix;
        int at = pos(&ps);
        int rc = parse_item(&ps, &ix);
        if (rc < 0)
            return rc;
        if (count == max)
            return uf__error_set(err, UF_ERR_INVALID,
                                 "invalid index \"%.200s\": more than %d "
                                 "entries (entry at position %d)", expr, max,
                                 at);
        out[count++] = ix;
        skip_ws(&ps);
        if (*ps.p == '\0')
            break;
        if (*ps.p != ',')
            return syntax_error(&ps, "',' or end of expression");
        ps.p++;
        skip_ws(&ps);
        if (*ps.p == '\0')
            break; /* trailing comma: "0," is the tuple (0,) */
    }
    *n = count;
    return 0;
}
