/* Argument helpers shared by the commands: messages and exit codes, option
 * parsing, tuples, integer lists and scalar literals. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli/cli_util.h"

int uf__cli_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("ufjit: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return UF__CLI_ERROR;
}

int uf__cli_fail(const uf_error *err, const char *what)
{
    const char *msg = err->message[0] ? err->message : uf_strerror(err->code);
    if (what != NULL && what[0] != '\0')
        return uf__cli_error("%s: %s", what, msg);
    return uf__cli_error("%s", msg);
}

int uf__cli_usage(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "ufjit: %s: ", cmd);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, " (see 'ufjit %s --help')\n", cmd);
    va_end(ap);
    return UF__CLI_USAGE;
}

int uf__cli_seterr(uf_error *err, int code, const char *fmt, ...)
{
    if (err == NULL)
        return code;
    va_list ap;
    va_start(ap, fmt);
    err->code = code;
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    err->file[0] = '\0';
    err->line = 0;
    err->column = 0;
    va_end(ap);
    return code;
}

/* ---- options ------------------------------------------------------------ */

/* "-3", "-.5": a negative number is an argument, not an option, so scalar
 * arguments of later commands need no "--" before them. */
/* "-1", "-.5", "-inf" and "-nan" are values, not options. */
static bool looks_like_option(const char *a)
{
    if (a[0] != '-' || a[1] == '\0')
        return false;
    return !(isdigit((unsigned char)a[1]) || a[1] == '.' ||
             strcasecmp(a + 1, "inf") == 0 ||
             strcasecmp(a + 1, "infinity") == 0 ||
             strcasecmp(a + 1, "nan") == 0);
}

int uf__cli_parse(const char *cmd, int argc, char **argv,
                  const uf__cli_opt *opts, int nopts, const char **pos,
                  int max_pos, int *npos)
{
    unsigned long long seen = 0; /* one bit per option; commands have few */
    bool options_done = false;
    *npos = 0;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (options_done || !looks_like_option(a)) {
            if (*npos >= max_pos)
                return uf__cli_usage(cmd, "unexpected argument '%s'", a);
            pos[(*npos)++] = a;
            continue;
        }
        if (strcmp(a, "--") == 0) {
            options_done = true;
            continue;
        }
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0)
            return UF__CLI_HELP;
        const char *eq = strncmp(a, "--", 2) == 0 ? strchr(a, '=') : NULL;
        size_t len = eq ? (size_t)(eq - a) : strlen(a);
        int k = 0;
        while (k < nopts && !(strlen(opts[k].name) == len &&
                              strncmp(opts[k].name, a, len) == 0))
            k++;
        if (k == nopts || k >= 64)
            return uf__cli_usage(cmd, "unknown option '%.*s'", (int)len, a);
        const uf__cli_opt *o = &opts[k];
        if (seen & (1ULL << k))
            return uf__cli_usage(cmd, "option %s given twice", o->name);
        seen |= 1ULL << k;
        if (o->value != NULL) {
            if (eq != NULL)
                *o->value = eq + 1;
            else if (i + 1 < argc)
                *o->value = argv[++i];
            else
                return uf__cli_usage(cmd, "option %s needs a value",
                                     o->name);
        } else {
            if (eq != NULL)
                return uf__cli_usage(cmd, "option %s takes no value",
                                     o->name);
            *o->flag = true;
        }
    }
    return 0;
}

/* ---- tuples and integer lists ------------------------------------------- */

const char *uf__cli_tuple(int n, const int64_t *v, char *buf, size_t size)
{
    size_t used = 0;
    bool truncated = false;
#define UF__PUT(...)                                                        \
    do {                                                                    \
        int w_ = snprintf(buf + used, size - used, __VA_ARGS__);            \
        if (w_ < 0 || (size_t)w_ >= size - used) {                          \
            truncated = true;                                               \
            goto done;                                                      \
        }                                                                   \
        used += (size_t)w_;                                                 \
    } while (0)
    if (size == 0)
        return buf;
    buf[0] = '\0';
    UF__PUT("(");
    for (int i = 0; i < n; i++)
        UF__PUT("%s%lld", i ? ", " : "", (long long)v[i]);
    UF__PUT(n == 1 ? ",)" : ")");
done:
    if (truncated && size >= 4)
        memcpy(buf + size - 4, "...", 4);
    return buf;
#undef UF__PUT
}

static const char *skip_space(const char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    return s;
}

int uf__cli_parse_int_list(const char *text, int *out, int max, int *n,
                           uf_error *err)
{
    *n = 0;
    const char *s = skip_space(text);
    if (*s == '\0')
        return 0;
    for (;;) {
        s = skip_space(s);
        char *end;
        errno = 0;
        long v = strtol(s, &end, 10);
        if (end == s)
            return uf__cli_seterr(err, UF_ERR_VALUE,
                                  "'%s' is not a comma-separated list of "
                                  "integers", text);
        if (errno == ERANGE || v < INT_MIN || v > INT_MAX)
            return uf__cli_seterr(err, UF_ERR_VALUE,
                                  "'%.*s' is out of range in '%s'",
                                  (int)(end - s), s, text);
        if (*n >= max)
            return uf__cli_seterr(err, UF_ERR_VALUE,
                                  "more than %d entries in '%s'", max, text);
        out[(*n)++] = (int)v;
        s = skip_space(end);
        if (*s == '\0')
            return 0;
        if (*s != ',')
            return uf__cli_seterr(err, UF_ERR_VALUE,
                                  "'%s' is not a comma-separated list of "
                                  "integers", text);
        s++;
    }
}

/* ---- scalar literals ------------------------------------------------------
 * A literal is first read on its own (bool, integer, float or complex, as
 * Python spells them), then given its type: the one Numba infers for the
 * Python literal, or the one written before ':'. */

typedef enum lit_kind { LIT_BOOL, LIT_INT, LIT_FLOAT, LIT_COMPLEX } lit_kind;

typedef struct literal {
    lit_kind kind;
    bool b;
    bool neg;          /* LIT_INT: a '-' sign */
    bool too_big;      /* LIT_INT: magnitude past 2**64 - 1 */
    uint64_t mag;      /* LIT_INT: magnitude */
    double re, im;     /* LIT_INT (approximate), LIT_FLOAT, LIT_COMPLEX */
} literal;

static int digit_value(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    c = (char)tolower((unsigned char)c);
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return 99;
}

/* [sign] digits, or [sign] 0x.. / 0o.. / 0b.. as Python's int() reads them
 * with base 0; exactly s[0..len). */
static bool scan_int(const char *s, size_t len, literal *lit)
{
    size_t i = 0;
    int base = 10;
    lit->neg = false;
    if (i < len && (s[i] == '+' || s[i] == '-'))
        lit->neg = s[i++] == '-';
    if (i + 1 < len && s[i] == '0') {
        char p = (char)tolower((unsigned char)s[i + 1]);
        base = p == 'x' ? 16 : p == 'o' ? 8 : p == 'b' ? 2 : 10;
        if (base != 10)
            i += 2;
    }
    if (i == len)
        return false;
    uint64_t mag = 0;
    double approx = 0.0;
    bool too_big = false;
    for (; i < len; i++) {
        int d = digit_value(s[i]);
        if (d >= base)
            return false;
        if (__builtin_mul_overflow(mag, (uint64_t)base, &mag) ||
            __builtin_add_overflow(mag, (uint64_t)d, &mag))
            too_big = true;
        approx = approx * base + d;
    }
    lit->kind = LIT_INT;
    lit->mag = mag;
    lit->too_big = too_big;
    lit->re = too_big ? approx : (double)mag;
    if (lit->neg)
        lit->re = -lit->re;
    lit->im = 0.0;
    return true;
}

static bool equals_nocase(const char *s, size_t len, const char *word)
{
    return strlen(word) == len && strncasecmp(s, word, len) == 0;
}

/* Python's float(): [sign] (digits [. [digits]] | . digits) [e [sign]
 * digits], or [sign] inf / infinity / nan; exactly s[0..len). */
static bool scan_float(const char *s, size_t len, double *out)
{
    char buf[128];
    size_t i = 0;
    if (len == 0 || len >= sizeof buf)
        return false;
    memcpy(buf, s, len);
    buf[len] = '\0';
    if (buf[i] == '+' || buf[i] == '-')
        i++;
    const char *word = buf + i;
    size_t wlen = len - i;
    if (!(equals_nocase(word, wlen, "inf") ||
          equals_nocase(word, wlen, "infinity") ||
          equals_nocase(word, wlen, "nan"))) {
        size_t mant = 0;
        while (isdigit((unsigned char)buf[i]))
            i++, mant++;
        if (buf[i] == '.') {
            i++;
            while (isdigit((unsigned char)buf[i]))
                i++, mant++;
        }
        if (mant == 0)
            return false;
        if (buf[i] == 'e' || buf[i] == 'E') {
            i++;
            if (buf[i] == '+' || buf[i] == '-')
                i++;
            if (!isdigit((unsigned char)buf[i]))
                return false;
            while (isdigit((unsigned char)buf[i]))
                i++;
        }
        if (i != len)
            return false;
    }
    *out = strtod(buf, NULL); /* the CLI never calls setlocale: '.' */
    return true;
}

/* "1+2j", "-2.5e-3j", "j", "(1-j)", "inf+nanj": Python's complex(). */
static bool scan_complex(const char *s, size_t len, literal *lit)
{
    if (len >= 2 && s[0] == '(' && s[len - 1] == ')')
        s++, len -= 2;
    if (len == 0 || (s[len - 1] != 'j' && s[len - 1] != 'J'))
        return false;
    size_t body = len - 1;
    size_t split = 0; /* start of the imaginary part */
    for (size_t k = body; k-- > 1;) {
        if ((s[k] == '+' || s[k] == '-') && s[k - 1] != 'e' &&
            s[k - 1] != 'E') {
            split = k;
            break;
        }
    }
    double re = 0.0, im;
    if (split > 0 && !scan_float(s, split, &re))
        return false;
    const char *is = s + split;
    size_t ilen = body - split;
    if (ilen == 0 || (ilen == 1 && (is[0] == '+' || is[0] == '-')))
        im = (ilen == 1 && is[0] == '-') ? -1.0 : 1.0;
    else if (!scan_float(is, ilen, &im))
        return false;
    lit->kind = LIT_COMPLEX;
    lit->re = re;
    lit->im = im;
    return true;
}

static bool scan_literal(const char *s, size_t len, literal *lit)
{
    memset(lit, 0, sizeof *lit);
    if (equals_nocase(s, len, "true") || equals_nocase(s, len, "false")) {
        lit->kind = LIT_BOOL;
        lit->b = tolower((unsigned char)s[0]) == 't';
        return true;
    }
    if (scan_int(s, len, lit))
        return true;
    if (scan_float(s, len, &lit->re)) {
        lit->kind = LIT_FLOAT;
        return true;
    }
    return scan_complex(s, len, lit);
}

static const char *const lit_names[] = {"bool", "integer", "float",
                                        "complex"};

/* Stores an integer literal in an integer dtype, checking the range. */
static int store_int(const literal *lit, uf_dtype dt, uf__cli_scalar *out,
                     const char *text, uf_error *err)
{
    unsigned bits = (unsigned)uf_dtype_itemsize(dt) * 8;
    bool is_signed = uf_dtype_kind(dt) == 'i';
    uint64_t umax = bits == 64 ? UINT64_MAX : (1ULL << bits) - 1;
    uint64_t limit = is_signed ? (lit->neg ? umax / 2 + 1 : umax / 2)
                               : (lit->neg ? 0 : umax);
    if (lit->too_big || lit->mag > limit)
        return uf__cli_seterr(err, UF_ERR_VALUE, "%s is out of range for %s",
                              text, uf_dtype_name(dt));
    /* Two's complement negation of the magnitude; exact for INT64_MIN. */
    uint64_t u = lit->neg ? 0 - lit->mag : lit->mag;
    switch (dt) {
    case UF_INT8: out->v.i8 = (int8_t)u; break;
    case UF_UINT8: out->v.u8 = (uint8_t)u; break;
    case UF_INT16: out->v.i16 = (int16_t)u; break;
    case UF_UINT16: out->v.u16 = (uint16_t)u; break;
    case UF_INT32: out->v.i32 = (int32_t)u; break;
    case UF_UINT32: out->v.u32 = (uint32_t)u; break;
    case UF_INT64: out->v.i64 = (int64_t)u; break;
    default: out->v.u64 = u; break;
    }
    return 0;
}

static bool overflows_f32(double x)
{
    return isfinite(x) && !isfinite((float)x);
}

/* 1e999 reads as an infinity: refused as an overflow, as 3.5e38 is for
 * float32, rather than taken for inf (which the text can say). */
static bool text_overflows(const char *text, double x)
{
    return isinf(x) && strcasestr(text, "inf") == NULL;
}

/* Complex values are stored as their two parts (C17 6.2.5: a complex has
 * the layout of a two-element array): re + im * I would turn an infinite
 * real part and a NaN imaginary part into NaN + NaN i. */
static int store_typed(const literal *lit, uf_dtype dt, uf__cli_scalar *out,
                       const char *text, uf_error *err)
{
    out->dtype = dt;
    switch (uf_dtype_kind(dt)) {
    case 'b':
        if (lit->kind == LIT_BOOL) {
            out->v.b = lit->b;
            return 0;
        }
        if (lit->kind == LIT_INT && !lit->too_big && lit->mag <= 1 &&
            !(lit->neg && lit->mag == 1)) {
            out->v.b = lit->mag == 1;
            return 0;
        }
        return uf__cli_seterr(err, UF_ERR_VALUE,
                              "%s is not a bool (true, false, 0 or 1)", text);
    case 'i':
    case 'u':
        if (lit->kind != LIT_INT)
            return uf__cli_seterr(err, UF_ERR_VALUE,
                                  "%s is a %s literal, not an integer for %s",
                                  text, lit_names[lit->kind],
                                  uf_dtype_name(dt));
        return store_int(lit, dt, out, text, err);
    case 'f':
        if (lit->kind != LIT_INT && lit->kind != LIT_FLOAT)
            return uf__cli_seterr(err, UF_ERR_VALUE,
                                  "%s is a %s literal, not a number for %s",
                                  text, lit_names[lit->kind],
                                  uf_dtype_name(dt));
        if (text_overflows(text, lit->re))
            return uf__cli_seterr(err, UF_ERR_VALUE, "%s overflows %s (inf "
                                  "is written inf)", text, uf_dtype_name(dt));
        if (dt == UF_FLOAT32) {
            if (overflows_f32(lit->re))
                return uf__cli_seterr(err, UF_ERR_VALUE,
                                      "%s overflows float32", text);
            out->v.f32 = (float)lit->re;
        } else {
            out->v.f64 = lit->re;
        }
        return 0;
    default: /* 'c' */
        if (lit->kind == LIT_BOOL)
            return uf__cli_seterr(err, UF_ERR_VALUE,
                                  "%s is a bool literal, not a number for %s",
                                  text, uf_dtype_name(dt));
        if (text_overflows(text, lit->re) || text_overflows(text, lit->im))
            return uf__cli_seterr(err, UF_ERR_VALUE, "%s overflows %s (inf "
                                  "is written inf)", text, uf_dtype_name(dt));
        if (dt == UF_COMPLEX64) {
            if (overflows_f32(lit->re) || overflows_f32(lit->im))
                return uf__cli_seterr(err, UF_ERR_VALUE,
                                      "%s overflows complex64", text);
            float parts[2] = {(float)lit->re, (float)lit->im};
            memcpy(&out->v.c64, parts, sizeof parts);
        } else {
            double parts[2] = {lit->re, lit->im};
            memcpy(&out->v.c128, parts, sizeof parts);
        }
        return 0;
    }
}

int uf__cli_parse_scalar(const char *text, uf__cli_scalar *out,
                         uf_error *err)
{
    const char *s = skip_space(text);
    const char *colon = strchr(s, ':');
    uf_dtype typed = UF_NTYPES;
    if (colon != NULL) {
        char name[64];
        size_t nlen = (size_t)(colon - s);
        while (nlen > 0 && isspace((unsigned char)s[nlen - 1]))
            nlen--;
        if (nlen == 0 || nlen >= sizeof name)
            return uf__cli_seterr(err, UF_ERR_VALUE,
                                  "'%s' has no valid type before ':'", text);
        memcpy(name, s, nlen);
        name[nlen] = '\0';
        if (uf_dtype_from_name(name, &typed, err) != 0)
            return err ? err->code : UF_ERR_TYPE;
        s = skip_space(colon + 1);
    }
    size_t len = strlen(s);
    while (len > 0 && isspace((unsigned char)s[len - 1]))
        len--;
    literal lit;
    if (!scan_literal(s, len, &lit))
        return uf__cli_seterr(err, UF_ERR_VALUE,
                              "'%s' is not a scalar literal (examples: 3, "
                              "2.5, true, 1+2j, float32:2.5; a string is "
                              "str:TEXT)", text);
    if (typed != UF_NTYPES)
        return store_typed(&lit, typed, out, text, err);

    /* Untyped: Numba's typeof() of the Python literal. */
    switch (lit.kind) {
    case LIT_BOOL:
        return store_typed(&lit, UF_BOOL, out, text, err);
    case LIT_INT:
        if (lit.too_big)
            return uf__cli_seterr(err, UF_ERR_VALUE,
                                  "%s is out of range for int64 and uint64",
                                  text);
        if (lit.mag > (uint64_t)INT64_MAX && !lit.neg)
            return store_typed(&lit, UF_UINT64, out, text, err);
        return store_typed(&lit, UF_INT64, out, text, err);
    case LIT_FLOAT:
        return store_typed(&lit, UF_FLOAT64, out, text, err);
    default:
        return store_typed(&lit, UF_COMPLEX128, out, text, err);
    }
}
