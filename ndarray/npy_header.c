/* The .npy header: prefix checks, the dict literal parser and the writer.
 *
 * NumPy reads the header with ast.literal_eval, so any Python literal that
 * evaluates to the right dict is a valid header. This parser accepts the
 * subset that can describe an array ufjit can hold: keys in any order,
 * whitespace and comments anywhere, trailing commas, u''/r'' strings with
 * escapes, ints with signs, underscores and 0x/0o/0b prefixes, and the
 * Python 2 'L' suffix NumPy strips from version 1.0 and 2.0 headers. */
#include "ndarray/npy_internal.h"

#include <stdio.h>
#include <string.h>

#include "common/alloc.h"
#include "common/error_internal.h"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
static const char foreign_order = '<';
#else
static const char foreign_order = '>';
#endif

static const char npy_magic[6] = {'\x93', 'N', 'U', 'M', 'P', 'Y'};

int uf__npy_parse_prefix(const unsigned char *buf, size_t len,
                         const char *name, int *major, size_t *prefix_len,
                         size_t *header_len, uf_error *err)
{
    if (len == 0)
        return uf__error_set(err, UF_ERR_FORMAT, "%s: file is empty", name);
    if (len < sizeof npy_magic && !memcmp(buf, npy_magic, len))
        return uf__error_set(err, UF_ERR_FORMAT,
                             "%s: file is truncated inside the magic string "
                             "(%zu bytes)", name, len);
    if (len < sizeof npy_magic || memcmp(buf, npy_magic, sizeof npy_magic))
        return uf__error_set(err, UF_ERR_FORMAT,
                             "%s: not a .npy file (the magic string "
                             "\\x93NUMPY is missing)", name);
    if (len < UF__NPY_MAGIC_LEN)
        return uf__error_set(err, UF_ERR_FORMAT,
                             "%s: file is truncated in the format version",
                             name);
    int maj = buf[6], min = buf[7];
    if ((maj != 1 && maj != 2 && maj != 3) || min != 0)
        return uf__error_set(err, UF_ERR_FORMAT,
                             "%s: unsupported .npy format version %d.%d "
                             "(ufjit reads 1.0, 2.0 and 3.0)", name, maj, min);
    size_t nlen = maj == 1 ? 2 : 4;
    if (len < UF__NPY_MAGIC_LEN + nlen)
        return uf__error_set(err, UF_ERR_FORMAT,
                             "%s: file is truncated in the header length",
                             name);
    const unsigned char *p = buf + UF__NPY_MAGIC_LEN;
    size_t hlen = (size_t)p[0] | (size_t)p[1] << 8;
    if (nlen == 4)
        hlen |= (size_t)p[2] << 16 | (size_t)p[3] << 24;
    if (hlen > UF__NPY_MAX_HEADER)
        return uf__error_set(err, UF_ERR_FORMAT,
                             "%s: header of %zu bytes is larger than the "
                             "%zu bytes allowed", name, hlen,
                             UF__NPY_MAX_HEADER);
    *major = maj;
    *prefix_len = UF__NPY_MAGIC_LEN + nlen;
    *header_len = hlen;
    return 0;
}

/* ---- the dict literal ---------------------------------------------------- */

typedef struct parser {
    const char *start, *p, *end;
    int major;
    bool tail; /* past the dict: a backslash-newline would join EOF */
    const char *name;
    uf_error *err;
} parser;

static int perr(parser *ps, const char *what)
{
    return uf__error_set(ps->err, UF_ERR_FORMAT,
                         "%s: cannot parse the header at offset %td: %s",
                         ps->name, ps->p - ps->start, what);
}

static bool is_ident(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9') || c == '_' || (c & 0x80);
}

/* Python's insignificant whitespace inside brackets: blanks, newlines,
 * comments to the end of the line, backslash-newline. */
static void skip_ws(parser *ps)
{
    while (ps->p < ps->end) {
        char c = *ps->p;
        if (c == ' ' || c == '\t' || c == '\f' || c == '\n' || c == '\r') {
            ps->p++;
        } else if (c == '#') {
            while (ps->p < ps->end && *ps->p != '\n' && *ps->p != '\r')
                ps->p++;
        } else if (c == '\\' && !ps->tail && ps->end - ps->p >= 2 &&
                   (ps->p[1] == '\n' || ps->p[1] == '\r')) {
            ps->p += 2;
        } else {
            return;
        }
    }
}

static bool peek(parser *ps, char c)
{
    return ps->p < ps->end && *ps->p == c;
}

static bool accept_word(parser *ps, const char *w)
{
    size_t n = strlen(w);
    if ((size_t)(ps->end - ps->p) < n || memcmp(ps->p, w, n))
        return false;
    if (ps->p + n < ps->end && is_ident((unsigned char)ps->p[n]))
        return false;
    ps->p += n;
    return true;
}

static int hexval(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* A one-line string literal with an optional u/r prefix, decoded into
 * out[cap]; a longer value is cut (it cannot name a dtype anyway) and
 * *truncated says so.
 *   string := [uUrR]? ( '...' | "..." )   (no triple quotes) */
static int parse_string(parser *ps, char *out, size_t cap, bool *truncated)
{
    bool raw = false;
    size_t n = 0;
    *truncated = false;
    if (ps->p < ps->end && (*ps->p == 'u' || *ps->p == 'U'))
        ps->p++;
    else if (ps->p < ps->end && (*ps->p == 'r' || *ps->p == 'R'))
        raw = true, ps->p++;
    if (ps->p >= ps->end || (*ps->p != '\'' && *ps->p != '"'))
        return perr(ps, "expected a string");
    char q = *ps->p++;
    if (ps->end - ps->p >= 2 && ps->p[0] == q && ps->p[1] == q)
        return perr(ps, "triple-quoted strings are not supported");
    for (;;) {
        if (ps->p >= ps->end || *ps->p == '\n' || *ps->p == '\r')
            return perr(ps, "unterminated string");
        int c = (unsigned char)*ps->p++;
        if (c == q)
            break;
        if (c == '\\' && ps->p < ps->end) {
            int e = (unsigned char)*ps->p;
            if (raw) {
                /* r'\'' keeps both characters */
                if (e == q || e == '\\') {
                    if (n + 1 < cap)
                        out[n++] = (char)c;
                    else
                        *truncated = true;
                    c = e;
                    ps->p++;
                }
            } else {
                ps->p++;
                switch (e) {
                case '\n': case '\r': continue;
                case '\\': case '\'': case '"': c = e; break;
                case 'a': c = '\a'; break;
                case 'b': c = '\b'; break;
                case 'f': c = '\f'; break;
                case 'n': c = '\n'; break;
                case 'r': c = '\r'; break;
                case 't': c = '\t'; break;
                case 'v': c = '\v'; break;
                case 'x': {
                    int h1 = ps->p < ps->end ? hexval(ps->p[0]) : -1;
                    int h2 = ps->p + 1 < ps->end ? hexval(ps->p[1]) : -1;
                    if (h1 < 0 || h2 < 0)
                        return perr(ps, "bad \\x escape in a string");
                    /* NUL and non-ASCII cannot name a dtype: keep them
                     * from ending or passing for one */
                    c = h1 * 16 + h2;
                    c = c > 0 && c < 0x80 ? c : 0x80;
                    ps->p += 2;
                    break;
                }
                default:
                    if (e >= '0' && e <= '7') {
                        int v = e - '0';
                        for (int k = 0; k < 2 && ps->p < ps->end &&
                                        *ps->p >= '0' && *ps->p <= '7'; k++)
                            v = v * 8 + (*ps->p++ - '0');
                        c = v > 0 && v < 0x80 ? v : 0x80; /* as \\x */
                    } else if (e == 'u' || e == 'U' || e == 'N') {
                        return perr(ps, "unicode escapes in strings are not "
                                        "supported");
                    } else {
                        /* Python keeps an unknown escape as written */
                        ps->p--;
                    }
                }
            }
        }
        if (n + 1 < cap)
            out[n++] = (char)c;
        else
            *truncated = true;
    }
    out[n] = '\0';
    return 0;
}

static bool digit_in_base(int c, int base)
{
    int v = hexval(c);
    return v >= 0 && v < base;
}

/* An integer literal, checked to fit int64.
 *   int := [+-] ws (decimal | 0[xX] hex | 0[oO] octal | 0[bB] binary)
 * with single underscores between digits, and for versions 1 and 2 an
 * optional Python 2 'L' suffix. */
static int parse_int(parser *ps, int64_t *out)
{
    bool neg = false;
    if (peek(ps, '-') || peek(ps, '+')) {
        neg = *ps->p++ == '-';
        skip_ws(ps);
    }
    if (ps->p >= ps->end || *ps->p < '0' || *ps->p > '9')
        return perr(ps, "shape must be a tuple of ints");
    int base = 10;
    bool need_digit = false;
    if (*ps->p == '0' && ps->end - ps->p >= 2) {
        char b = ps->p[1];
        base = b == 'x' || b == 'X' ? 16 : b == 'o' || b == 'O' ? 8 :
               b == 'b' || b == 'B' ? 2 : 10;
        if (base != 10) {
            ps->p += 2;
            need_digit = true;
            if (peek(ps, '_'))
                ps->p++;
        }
    }
    bool leading_zero = base == 10 && *ps->p == '0';
    bool nonzero = false, overflow = false;
    uint64_t v = 0;
    for (;;) {
        if (ps->p >= ps->end || !digit_in_base((unsigned char)*ps->p, base)) {
            if (need_digit)
                return perr(ps, "malformed integer");
            break;
        }
        int d = hexval(*ps->p++);
        nonzero |= d != 0;
        if (v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
            overflow = true;
        else
            v = v * (uint64_t)base + (uint64_t)d;
        need_digit = false;
        if (peek(ps, '_')) {
            ps->p++;
            need_digit = true;
        }
    }
    if (leading_zero && nonzero)
        return perr(ps, "leading zeros in a decimal integer");
    if (ps->p < ps->end && *ps->p == 'L' && ps->major > 2 &&
        (ps->p + 1 == ps->end || !is_ident((unsigned char)ps->p[1])))
        return perr(ps, "the Python 2 'L' suffix is only allowed in version "
                        "1.0 and 2.0 headers");
    if (ps->p < ps->end && (*ps->p == '.' ||
                            (is_ident((unsigned char)*ps->p) &&
                             !(ps->major <= 2 && *ps->p == 'L'))))
        return perr(ps, "shape must be a tuple of ints");
    if (ps->major <= 2) {
        /* NumPy drops a NAME token "L" right after a number (Python 2
         * longs), even with blanks between. */
        const char *save = ps->p;
        skip_ws(ps);
        if (!accept_word(ps, "L"))
            ps->p = save;
    }
    if (neg && v != 0)
        return uf__error_set(ps->err, UF_ERR_FORMAT,
                             "%s: negative dimension -%s%llu in the shape",
                             ps->name, overflow ? ">" : "",
                             (unsigned long long)v);
    if (overflow || v > (uint64_t)INT64_MAX)
        return uf__error_set(ps->err, UF_ERR_FORMAT,
                             "%s: dimension %s%llu in the shape does not "
                             "fit a 64-bit integer", ps->name,
                             overflow ? "> " : "", (unsigned long long)v);
    *out = (int64_t)v;
    return 0;
}

/*   shape := '(' ws ')' | '(' int ws ',' (ws int ws ',')* [ws int ws] ')' */
static int parse_shape(parser *ps, uf__npy_header *h)
{
    if (!peek(ps, '('))
        return perr(ps, "shape must be a tuple of ints");
    ps->p++;
    skip_ws(ps);
    int n = 0;
    bool comma = false;
    while (!peek(ps, ')')) {
        if (n == UF_MAXDIMS)
            return uf__error_set(ps->err, UF_ERR_FORMAT,
                                 "%s: the shape has more than %d "
                                 "dimensions", ps->name, UF_MAXDIMS);
        int rc = parse_int(ps, &h->shape[n]);
        if (rc)
            return rc;
        n++;
        skip_ws(ps);
        comma = peek(ps, ',');
        if (!comma)
            break;
        ps->p++;
        skip_ws(ps);
    }
    if (!peek(ps, ')'))
        return perr(ps, "expected ',' or ')' in the shape");
    if (n == 1 && !comma)
        return perr(ps, "shape must be a tuple of ints, not an int "
                        "(write (n,) for one dimension)");
    ps->p++;
    h->ndim = n;
    return 0;
}

/* Descr values ufjit cannot hold, with the reason given to the user. A
 * kind letter matches with or without a size ("U", "U5", "M8[ns]"); a
 * typestr or name only as written (or with a "[unit]"). */
static const struct {
    const char *what;
    bool letter;
    const char *why;
} refused_descr[] = {
    {"O", true, "object arrays hold pickled Python objects"},
    {"U", true, "unicode string dtypes are not supported"},
    {"S", true, "byte string dtypes are not supported"},
    {"a", true, "byte string dtypes are not supported"},
    {"V", true, "void (raw bytes) dtypes are not supported"},
    {"M", true, "datetime64 is not supported"},
    {"m", true, "timedelta64 is not supported"},
    {"e", true, "float16 is not supported"},
    {"g", true, "long double is not supported"},
    {"G", true, "long double complex is not supported"},
    {"f2", false, "float16 is not supported"},
    {"f16", false, "long double is not supported"},
    {"c32", false, "long double complex is not supported"},
    {"float16", false, "float16 is not supported"},
    {"half", false, "float16 is not supported"},
    {"object", false, "object arrays hold pickled Python objects"},
    {"str", false, "unicode string dtypes are not supported"},
    {"unicode", false, "unicode string dtypes are not supported"},
    {"bytes", false, "byte string dtypes are not supported"},
    {"void", false, "void (raw bytes) dtypes are not supported"},
    {"datetime64", false, "datetime64 is not supported"},
    {"timedelta64", false, "timedelta64 is not supported"},
    {"longdouble", false, "long double is not supported"},
    {"float128", false, "long double is not supported"},
    {"complex256", false, "long double complex is not supported"},
};

static bool refused_match(const char *s, const char *what, bool letter)
{
    size_t n = strlen(what);
    if (strncmp(s, what, n))
        return false;
    char next = s[n];
    return next == '\0' || next == '[' ||
           (letter && next >= '0' && next <= '9');
}

/* `s` for a message: quoted, unprintable bytes as \xNN. */
static const char *quoted(const char *s, char *buf, size_t size)
{
    size_t n = 0;
    buf[n++] = '\'';
    for (; *s && n + 6 < size; s++) {
        unsigned char c = (unsigned char)*s;
        if (c >= 0x20 && c < 0x7f && c != '\\')
            buf[n++] = (char)c;
        else
            n += (size_t)snprintf(buf + n, size - n, "\\x%02x", c);
    }
    buf[n++] = '\'';
    buf[n] = '\0';
    return buf;
}

/* descr := [<>|=] [count] [<>|=] typestr-or-name
 * np.dtype() reads a leading count as a subarray: '1f8' is one float64 per
 * element, which is a float64 array; any other count is refused. */
static int resolve_descr(parser *ps, const char *descr, uf__npy_header *h)
{
    char q[4 * 64 + 8], code[64];
    const char *s = descr;
    char order = 0;
    if (*s == '<' || *s == '>' || *s == '|' || *s == '=')
        order = *s++;
    if (*s >= '0' && *s <= '9') {
        const char *digits = s;
        while (*s >= '0' && *s <= '9')
            s++;
        if (s - digits != 1 || *digits != '1') {
            bool zeros = *digits == '0' && s - digits > 1;
            return uf__error_set(ps->err, UF_ERR_FORMAT,
                                 zeros ? "%s: unknown dtype %s in the header"
                                       : "%s: dtype %s cannot be loaded: "
                                         "subarray dtypes are not supported",
                                 ps->name, quoted(descr, q, sizeof q));
        }
        if (*s == '<' || *s == '>' || *s == '|' || *s == '=') {
            if (order)
                goto unknown;
            order = *s++;
        }
    }
    snprintf(code, sizeof code, "%s%s", order ? (char[]){order, 0} : "", s);

    uf_error sub = {0};
    if (uf_dtype_from_typestr(code, &h->dtype, &h->swapped, &sub) == 0)
        return 0;
    /* NumPy passes descr to np.dtype(), which also takes names ('f8',
     * 'float64') and, after a byte order, one-character codes ('>d') */
    if ((!order || (s[0] && !s[1])) &&
        uf_dtype_from_name(s, &h->dtype, &sub) == 0) {
        h->swapped = order == foreign_order && uf_dtype_itemsize(h->dtype) > 1;
        return 0;
    }
    for (size_t i = 0; i < sizeof refused_descr / sizeof *refused_descr; i++)
        if (refused_match(s, refused_descr[i].what, refused_descr[i].letter))
            return uf__error_set(ps->err, UF_ERR_FORMAT,
                                 "%s: dtype %s cannot be loaded: %s",
                                 ps->name, quoted(descr, q, sizeof q),
                                 refused_descr[i].why);
unknown:
    return uf__error_set(ps->err, UF_ERR_FORMAT,
                         "%s: unknown dtype %s in the header", ps->name,
                         quoted(descr, q, sizeof q));
}

/* Well-formed UTF-8 (version 3.0 headers): no overlongs, surrogates or
 * code points past U+10FFFF, as Python's decoder. */
static bool valid_utf8(const unsigned char *s, size_t n)
{
    size_t i = 0;
    while (i < n) {
        unsigned c = s[i];
        size_t len;
        unsigned min, cp;
        if (c < 0x80) {
            i++;
            continue;
        } else if ((c & 0xE0) == 0xC0) {
            len = 2, min = 0x80, cp = c & 0x1F;
        } else if ((c & 0xF0) == 0xE0) {
            len = 3, min = 0x800, cp = c & 0x0F;
        } else if ((c & 0xF8) == 0xF0) {
            len = 4, min = 0x10000, cp = c & 0x07;
        } else {
            return false;
        }
        if (n - i < len)
            return false;
        for (size_t k = 1; k < len; k++) {
            if ((s[i + k] & 0xC0) != 0x80)
                return false;
            cp = cp << 6 | (s[i + k] & 0x3F);
        }
        if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
            return false;
        i += len;
    }
    return true;
}

enum { KEY_DESCR = 1, KEY_FORTRAN = 2, KEY_SHAPE = 4 };

/*   header := ws '{' ws [item (ws ',' ws item)* [ws ',']] ws '}' ws EOF
 *   item   := string ws ':' ws value
 * A repeated key takes the last value, as a Python dict does. */
int uf__npy_parse_header(const char *text, size_t len, int major,
                         const char *name, uf__npy_header *out,
                         uf_error *err)
{
    parser ps = {text, text, text + len, major, false, name, err};
    char descr[64] = "";
    bool truncated = false;
    unsigned seen = 0;

    if (memchr(text, '\0', len))
        return uf__error_set(err, UF_ERR_FORMAT,
                             "%s: the header contains a NUL byte", name);
    if (major == 3 && !valid_utf8((const unsigned char *)text, len))
        return uf__error_set(err, UF_ERR_FORMAT,
                             "%s: the version 3.0 header is not valid "
                             "UTF-8", name);
    skip_ws(&ps);
    if (!peek(&ps, '{'))
        return uf__error_set(err, UF_ERR_FORMAT,
                             "%s: the header is not a dict literal "
                             "(it does not start with '{')", name);
    ps.p++;
    skip_ws(&ps);
    while (!peek(&ps, '}')) {
        char key[32];
        bool cut;
        if (ps.p >= ps.end)
            return perr(&ps, "the dict is not terminated by '}'");
        int rc = parse_string(&ps, key, sizeof key, &cut);
        if (rc)
            return rc;
        skip_ws(&ps);
        if (!peek(&ps, ':'))
            return perr(&ps, "expected ':' after a key");
        ps.p++;
        skip_ws(&ps);
        if (!cut && !strcmp(key, "descr")) {
            if (peek(&ps, '['))
                return uf__error_set(err, UF_ERR_FORMAT,
                                     "%s: structured dtypes (descr is a "
                                     "list of fields) are not supported",
                                     name);
            if (peek(&ps, '('))
                return uf__error_set(err, UF_ERR_FORMAT,
                                     "%s: subarray dtypes (descr is a "
                                     "tuple) are not supported", name);
            rc = parse_string(&ps, descr, sizeof descr, &truncated);
            seen |= KEY_DESCR;
        } else if (!cut && !strcmp(key, "fortran_order")) {
            if (accept_word(&ps, "True"))
                out->fortran_order = true, rc = 0;
            else if (accept_word(&ps, "False"))
                out->fortran_order = false, rc = 0;
            else
                rc = perr(&ps, "fortran_order must be True or False");
            seen |= KEY_FORTRAN;
        } else if (!cut && !strcmp(key, "shape")) {
            rc = parse_shape(&ps, out);
            seen |= KEY_SHAPE;
        } else {
            return uf__error_set(err, UF_ERR_FORMAT,
                                 "%s: unexpected key '%s%s' in the header "
                                 "(expected 'descr', 'fortran_order' and "
                                 "'shape')", name, key, cut ? "..." : "");
        }
        if (rc)
            return rc;
        skip_ws(&ps);
        if (!peek(&ps, ','))
            break;
        ps.p++;
        skip_ws(&ps);
    }
    if (!peek(&ps, '}'))
        return perr(&ps, ps.p < ps.end ? "expected ',' or '}' in the dict"
                                       : "the dict is not terminated by '}'");
    ps.p++;
    ps.tail = true;
    skip_ws(&ps);
    if (ps.p != ps.end)
        return perr(&ps, "unexpected text after the dict");
    if (seen != (KEY_DESCR | KEY_FORTRAN | KEY_SHAPE))
        return uf__error_set(err, UF_ERR_FORMAT,
                             "%s: the header lacks the key '%s'", name,
                             !(seen & KEY_DESCR)     ? "descr"
                             : !(seen & KEY_FORTRAN) ? "fortran_order"
                                                     : "shape");
    if (truncated) {
        char q[4 * 64 + 8];
        return uf__error_set(err, UF_ERR_FORMAT,
                             "%s: unknown dtype %s... in the header", name,
                             quoted(descr, q, sizeof q));
    }
    return resolve_descr(&ps, descr, out);
}

/* ---- writing ------------------------------------------------------------- */

char *uf__npy_wrap_header(const char *dict, size_t dict_len, size_t *out_len,
                          uf_error *err)
{
    /* +1 for the final '\n'; the padding is 1..64 spaces, never 0, exactly
     * as NumPy computes it */
    size_t hlen = dict_len + 1;
    size_t nlen = 2;
    size_t pad = UF__NPY_ALIGN - (UF__NPY_MAGIC_LEN + nlen + hlen) %
                                     UF__NPY_ALIGN;
    if (hlen + pad > 0xFFFF) {
        nlen = 4;
        pad = UF__NPY_ALIGN - (UF__NPY_MAGIC_LEN + nlen + hlen) %
                                  UF__NPY_ALIGN;
    }
    size_t total = UF__NPY_MAGIC_LEN + nlen + hlen + pad;
    if (hlen + pad > 0xFFFFFFFFu) {
        uf__error_set(err, UF_ERR_OVERFLOW,
                      "a .npy header of %zu bytes is too long", hlen);
        return NULL;
    }
    unsigned char *buf = uf__malloc(total, 1, err);
    if (!buf)
        return NULL;
    size_t field = hlen + pad;
    memcpy(buf, npy_magic, sizeof npy_magic);
    buf[6] = nlen == 2 ? 1 : 2;
    buf[7] = 0;
    for (size_t i = 0; i < nlen; i++)
        buf[UF__NPY_MAGIC_LEN + i] = (unsigned char)(field >> (8 * i));
    unsigned char *p = buf + UF__NPY_MAGIC_LEN + nlen;
    memcpy(p, dict, dict_len);
    memset(p + dict_len, ' ', pad);
    p[dict_len + pad] = '\n';
    *out_len = total;
    return (char *)buf;
}

/* np.save's dict: keys sorted, repr() of each value followed by ", ", then
 * blanks so the growing axis can take up to 21 digits when rewritten in
 * place (GROWTH_AXIS_MAX_DIGITS). */
char *uf__npy_format_header(uf_dtype dtype, bool fortran_order, int ndim,
                            const int64_t *shape, size_t *out_len,
                            uf_error *err)
{
    enum { growth_digits = 21 };
    char dict[128 + UF_MAXDIMS * 24];
    char typestr[8];
    if (!uf_dtype_valid((int)dtype) || ndim < 0 || ndim > UF_MAXDIMS) {
        uf__error_set(err, UF_ERR_INVALID, "cannot describe dtype %d with "
                      "%d dimensions in a .npy header", (int)dtype, ndim);
        return NULL;
    }
    int n = snprintf(dict, sizeof dict,
                     "{'descr': '%s', 'fortran_order': %s, 'shape': (",
                     uf_dtype_typestr(dtype, typestr),
                     fortran_order ? "True" : "False");
    size_t len = (size_t)n;
    for (int i = 0; i < ndim; i++)
        len += (size_t)snprintf(dict + len, sizeof dict - len,
                                i ? ", %lld" : "%lld", (long long)shape[i]);
    len += (size_t)snprintf(dict + len, sizeof dict - len, "%s), }",
                            ndim == 1 ? "," : "");
    if (ndim > 0) {
        char digits[24];
        int grow = snprintf(digits, sizeof digits, "%lld",
                            (long long)shape[fortran_order ? ndim - 1 : 0]);
        for (int i = grow; i < growth_digits; i++)
            dict[len++] = ' ';
    }
    return uf__npy_wrap_header(dict, len, out_len, err);
}
