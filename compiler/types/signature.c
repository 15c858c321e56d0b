/* Numba's signature strings. Numba evaluates them as Python expressions in
 * the numba.types namespace; this is a recursive-descent parser for the
 * part of that language that names kernel types:
 *
 *   signature := [type] '(' [type {',' type} [',']] ')'
 *   type      := base {'[' dims ']'}
 *   base      := NAME
 *              | 'UniTuple' '(' type ',' INT ')'
 *              | 'Tuple' '(' ('(' | '[') [type {',' type} [',']] (')' | ']') ')'
 *   dims      := slice {',' slice} [',']
 *   slice     := ':' | ':' ':' [INT]        (no start or stop, as Numba)
 *
 * A signature without a return type is a Python tuple, so one argument
 * needs its trailing comma: "(float32,)"; "(float32)" is only a type.
 * Errors quote the string and give the 1-based column. */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <ufjit/array.h>

#include "common/alloc.h"
#include "common/error_internal.h"
#include "compiler/types/types.h"

/* Nested tuples and arrays deeper than this are refused rather than
 * risking the stack on hostile input. */
#define MAX_DEPTH 32

typedef struct parser {
    uf__typectx *tc;
    const char *text;
    const char *what; /* "signature" or "type", for messages */
    size_t pos;
    int depth;
    uf_error *err;
} parser;

/* numba.types names of the kernel language's types; "none" and "void"
 * are UF_NTYPES. */
typedef struct type_name {
    const char *name;
    int dtype;
} type_name;

static const type_name type_names[] = {
    {"bool", UF_BOOL},          {"boolean", UF_BOOL},
    {"bool_", UF_BOOL},         {"b1", UF_BOOL},
    {"int8", UF_INT8},          {"int16", UF_INT16},
    {"int32", UF_INT32},        {"int64", UF_INT64},
    {"uint8", UF_UINT8},        {"uint16", UF_UINT16},
    {"uint32", UF_UINT32},      {"uint64", UF_UINT64},
    {"i1", UF_INT8},            {"i2", UF_INT16},
    {"i4", UF_INT32},           {"i8", UF_INT64},
    {"u1", UF_UINT8},           {"u2", UF_UINT16},
    {"u4", UF_UINT32},          {"u8", UF_UINT64},
    {"intp", UF_INT64},         {"uintp", UF_UINT64},
    {"intc", UF_INT32},         {"uintc", UF_UINT32},
    {"int_", UF_INT64},         {"uint", UF_UINT64},
    {"byte", UF_UINT8},         {"char", UF_INT8},
    {"short", UF_INT16},        {"ushort", UF_UINT16},
    {"long_", UF_INT64},        {"ulong", UF_UINT64},
    {"longlong", UF_INT64},     {"ulonglong", UF_UINT64},
    {"ssize_t", UF_INT64},      {"size_t", UF_UINT64},
    {"float32", UF_FLOAT32},    {"float64", UF_FLOAT64},
    {"f4", UF_FLOAT32},         {"f8", UF_FLOAT64},
    {"double", UF_FLOAT64},     {"complex64", UF_COMPLEX64},
    {"complex128", UF_COMPLEX128}, {"c8", UF_COMPLEX64},
    {"c16", UF_COMPLEX128},     {"none", UF_NTYPES},
    {"void", UF_NTYPES},
};

/* Numba types that exist but that ufjit does not compile. */
static const char *const unsupported_names[] = {
    "float16", "f2", "voidptr", "pyobject", "ffi_forced_object",
    "NPDatetime", "NPTimedelta", "Optional", "List",
    "DictType", "ListType", "Array", "slice2_type", "slice3_type",
};

/* Sets err to "bad signature 'TEXT': MESSAGE at column N". */
static int fail_at(parser *p, int code, size_t pos, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int fail_at(parser *p, int code, size_t pos, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    size_t len = strlen(p->text);
    int shown = len > 200 ? 200 : (int)len;
    uf__error_set(p->err, code, "bad %s '%.*s%s': %s at column %zu", p->what,
                  shown, p->text, len > 200 ? "..." : "", msg, pos + 1);
    return code;
}

static void skip_space(parser *p)
{
    while (p->text[p->pos] == ' ' || p->text[p->pos] == '\t' ||
           p->text[p->pos] == '\n' || p->text[p->pos] == '\r')
        p->pos++;
}

/* The next significant character, skipping blanks first. */
static char peek(parser *p)
{
    skip_space(p);
    return p->text[p->pos];
}

static bool accept(parser *p, char c)
{
    if (peek(p) != c)
        return false;
    p->pos++;
    return true;
}

/* Describes what is at the current position, for "expected" messages. */
static void describe_here(parser *p, char *buf, size_t size)
{
    char c = peek(p);
    if (c == '\0')
        snprintf(buf, size, "end of text");
    else
        snprintf(buf, size, "'%c'", c);
}

static int expect(parser *p, char c, const char *context)
{
    if (accept(p, c))
        return 0;
    char here[32];
    describe_here(p, here, sizeof here);
    return fail_at(p, UF_ERR_SYNTAX, p->pos, "expected '%c'%s, found %s", c,
                   context, here);
}

static bool is_ident_start(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* NAME: sets *start and *len; 0 when there is none. */
static size_t read_ident(parser *p, size_t *start)
{
    skip_space(p);
    *start = p->pos;
    if (!is_ident_start(p->text[p->pos]))
        return 0;
    while (is_ident_start(p->text[p->pos]) || is_digit(p->text[p->pos]))
        p->pos++;
    return p->pos - *start;
}

/* INT, non-negative unless `allow_minus`; refuses values past INT_MAX. */
static int read_int(parser *p, bool allow_minus, int *out)
{
    skip_space(p);
    size_t start = p->pos;
    bool neg = allow_minus && p->text[p->pos] == '-';
    if (neg)
        p->pos++;
    if (!is_digit(p->text[p->pos])) {
        char here[32];
        describe_here(p, here, sizeof here);
        return fail_at(p, UF_ERR_SYNTAX, p->pos,
                       "expected an integer, found %s", here);
    }
    long v = 0;
    while (is_digit(p->text[p->pos])) {
        v = v * 10 + (p->text[p->pos] - '0');
        if (v > INT_MAX)
            return fail_at(p, UF_ERR_SYNTAX, start, "integer too large");
        p->pos++;
    }
    *out = neg ? -(int)v : (int)v;
    return 0;
}

static int parse_type(parser *p, const uf__type **out);

/* A growing list of types: a few on the stack, more on the heap. */
typedef struct type_list {
    const uf__type *small[8];
    const uf__type **items;
    int n, cap;
} type_list;

static void list_init(type_list *l)
{
    l->items = l->small;
    l->n = 0;
    l->cap = 8;
}

static void list_free(type_list *l)
{
    if (l->items != l->small)
        uf__free((void *)l->items);
}

static int list_push(parser *p, type_list *l, const uf__type *t)
{
    if (l->n == l->cap) {
        int cap = l->cap * 2;
        const uf__type **items;
        if (l->items == l->small) {
            items = uf__malloc((size_t)cap, sizeof *items, p->err);
            if (items)
                memcpy(items, l->small, sizeof l->small);
        } else {
            items = uf__realloc((void *)l->items, (size_t)cap, sizeof *items,
                                p->err);
        }
        if (!items)
            return UF_ERR_NOMEM;
        l->items = items;
        l->cap = cap;
    }
    l->items[l->n++] = t;
    return 0;
}

/* [type {',' type} [',']] up to `close`; the opening bracket is read. */
static int parse_type_list(parser *p, char close, type_list *l,
                           bool *trailing_comma)
{
    *trailing_comma = false;
    if (accept(p, close))
        return 0;
    for (;;) {
        const uf__type *t;
        int rc = parse_type(p, &t);
        if (rc < 0)
            return rc;
        rc = list_push(p, l, t);
        if (rc < 0)
            return rc;
        if (accept(p, close))
            return 0;
        rc = expect(p, ',', " between types");
        if (rc < 0)
            return rc;
        if (accept(p, close)) {
            *trailing_comma = true;
            return 0;
        }
    }
}

/* 'Tuple' '(' ('(' | '[') types (')' | ']') ')' */
static int parse_tuple(parser *p, size_t at, const uf__type **out)
{
    int rc = expect(p, '(', " after Tuple");
    if (rc < 0)
        return rc;
    char close;
    if (accept(p, '('))
        close = ')';
    else if (accept(p, '['))
        close = ']';
    else
        return fail_at(p, UF_ERR_SYNTAX, p->pos,
                       "Tuple takes one tuple of types, as in "
                       "Tuple((float64, int32))");
    type_list l;
    list_init(&l);
    bool trailing;
    rc = parse_type_list(p, close, &l, &trailing);
    if (rc == 0)
        rc = expect(p, ')', " to close Tuple(...)");
    if (rc == 0 && l.n > UF__TUPLE_MAX)
        rc = fail_at(p, UF_ERR_UNSUPPORTED, at,
                     "tuple of %d elements: at most %d are supported", l.n,
                     UF__TUPLE_MAX);
    if (rc == 0) {
        *out = uf__type_tuple(p->tc, l.n, l.items, p->err);
        if (!*out)
            rc = UF_ERR_NOMEM;
    }
    list_free(&l);
    return rc;
}

/* 'UniTuple' '(' type ',' INT ')' */
static int parse_unituple(parser *p, const uf__type **out)
{
    int rc = expect(p, '(', " after UniTuple");
    if (rc < 0)
        return rc;
    const uf__type *elt;
    rc = parse_type(p, &elt);
    if (rc < 0)
        return rc;
    rc = expect(p, ',', " before the UniTuple count");
    if (rc < 0)
        return rc;
    size_t count_pos = (skip_space(p), p->pos);
    int n;
    rc = read_int(p, false, &n);
    if (rc < 0)
        return rc;
    if (n > UF__TUPLE_MAX)
        return fail_at(p, UF_ERR_UNSUPPORTED, count_pos,
                       "tuple of %d elements: at most %d are supported", n,
                       UF__TUPLE_MAX);
    accept(p, ','); /* UniTuple(f8, 2,) is valid Python */
    rc = expect(p, ')', " to close UniTuple(...)");
    if (rc < 0)
        return rc;
    const uf__type *elts[UF__TUPLE_MAX];
    for (int i = 0; i < n; i++)
        elts[i] = elt;
    *out = uf__type_tuple(p->tc, n, elts, p->err);
    return *out ? 0 : UF_ERR_NOMEM;
}

/* '[' dims ']' after a scalar: Numba's Type.__getitem__. A step of 1 in
 * the first slot of several makes F, in the last slot C, else A; other
 * steps are allowed and ignored as Numba does. */
static int parse_dims(parser *p, size_t at, const uf__type *elt,
                      const uf__type **out)
{
    if (elt->kind != UF__T_SCALAR) {
        char name[128];
        uf__type_str(elt, name, sizeof name);
        return fail_at(p, UF_ERR_UNSUPPORTED, at,
                       "arrays of %s are not supported", name);
    }
    int ndim = 0;
    bool first_unit = false, last_unit = false, tuple = false;
    for (;;) {
        size_t slot = (skip_space(p), p->pos);
        if (!accept(p, ':')) {
            return fail_at(p, UF_ERR_SYNTAX, slot,
                           "array dimensions are written ':', '::1' (no "
                           "start or stop)");
        }
        bool unit = false;
        if (accept(p, ':')) {
            char c = peek(p);
            if (is_digit(c) || c == '-') {
                int step;
                int rc = read_int(p, true, &step);
                if (rc < 0)
                    return rc;
                unit = step == 1;
            }
        }
        if (ndim == 0)
            first_unit = unit;
        last_unit = unit;
        if (++ndim > UF_MAXDIMS)
            return fail_at(p, UF_ERR_UNSUPPORTED, slot,
                           "more than %d dimensions", UF_MAXDIMS);
        if (accept(p, ']'))
            break;
        int rc = expect(p, ',', " or ']' in array dimensions");
        if (rc < 0)
            return rc;
        tuple = true;
        if (accept(p, ']'))
            break;
    }
    /* Python passes one slice alone, several (or one with a comma) as a
     * tuple: Numba checks the first step of a tuple before the last. */
    char layout = tuple && first_unit ? 'F' : last_unit ? 'C' : 'A';
    *out = uf__type_array(p->tc, elt->dtype, ndim, layout, p->err);
    return *out ? 0 : UF_ERR_NOMEM;
}

/* type := base {'[' dims ']'} */
static int parse_type(parser *p, const uf__type **out)
{
    if (++p->depth > MAX_DEPTH) {
        return fail_at(p, UF_ERR_UNSUPPORTED, p->pos,
                       "types nested more than %d deep", MAX_DEPTH);
    }
    size_t at;
    size_t len = read_ident(p, &at);
    int rc = 0;
    const uf__type *t = NULL;
    const char *name = p->text + at;
    if (len == 0) {
        char here[32];
        describe_here(p, here, sizeof here);
        rc = fail_at(p, UF_ERR_SYNTAX, p->pos, "expected a type, found %s",
                     here);
        goto done;
    }
    if (len == 5 && memcmp(name, "Tuple", 5) == 0) {
        rc = parse_tuple(p, at, &t);
    } else if (len == 8 && memcmp(name, "UniTuple", 8) == 0) {
        rc = parse_unituple(p, &t);
    } else if ((len == 12 && memcmp(name, "unicode_type", 12) == 0) ||
               (len == 6 && memcmp(name, "string", 6) == 0)) {
        t = uf__type_ustr(p->tc); /* types.string is unicode_type */
    } else {
        size_t n = sizeof type_names / sizeof type_names[0];
        for (size_t i = 0; i < n && !t; i++) {
            if (strlen(type_names[i].name) == len &&
                memcmp(type_names[i].name, name, len) == 0)
                t = type_names[i].dtype == UF_NTYPES
                        ? uf__type_none(p->tc)
                        : uf__type_scalar(p->tc, (uf_dtype)type_names[i].dtype);
        }
        if (!t) {
            size_t nu = sizeof unsupported_names / sizeof unsupported_names[0];
            for (size_t i = 0; i < nu; i++) {
                if (strlen(unsupported_names[i]) == len &&
                    memcmp(unsupported_names[i], name, len) == 0) {
                    rc = fail_at(p, UF_ERR_UNSUPPORTED, at,
                                 "type '%.*s' is not supported", (int)len,
                                 name);
                    goto done;
                }
            }
            rc = fail_at(p, UF_ERR_TYPING, at, "unknown type '%.*s'",
                         (int)len, name);
        }
    }
    while (rc == 0 && peek(p) == '[') {
        size_t bracket = p->pos;
        p->pos++;
        rc = parse_dims(p, bracket, t, &t);
    }
done:
    p->depth--;
    if (rc == 0)
        *out = t;
    return rc;
}

static int check_end(parser *p)
{
    if (peek(p) == '\0')
        return 0;
    return fail_at(p, UF_ERR_SYNTAX, p->pos, "unexpected '%c' after the %s",
                   p->text[p->pos], p->what);
}

int uf__parse_type(uf__typectx *tc, const char *text, const uf__type **out,
                   uf_error *err)
{
    if (!text)
        return uf__error_set(err, UF_ERR_INVALID, "bad type: NULL text");
    parser p = {.tc = tc, .text = text, .what = "type", .err = err};
    const uf__type *t;
    int rc = parse_type(&p, &t);
    if (rc == 0)
        rc = check_end(&p);
    if (rc == 0)
        *out = t;
    return rc;
}

/* "int32[:], int32, int32[:]": argument types alone, without a return
 * type or parentheses (Numba evaluates the string to a tuple of types);
 * `first` is parsed, the parser is at the comma after it. */
static int parse_bare_list(parser *p, const uf__type *first, type_list *l)
{
    int rc = list_push(p, l, first);
    while (rc == 0 && accept(p, ',')) {
        if (peek(p) == '\0') /* "int32[:]," */
            break;
        const uf__type *t;
        if ((rc = parse_type(p, &t)) < 0)
            return rc;
        rc = list_push(p, l, t);
    }
    return rc < 0 ? rc : check_end(p);
}

int uf__parse_signature(uf__typectx *tc, uf__arena *arena, const char *text,
                        uf__signature *out, uf_error *err)
{
    if (!text)
        return uf__error_set(err, UF_ERR_INVALID, "bad signature: NULL text");
    parser p = {.tc = tc, .text = text, .what = "signature", .err = err};
    const uf__type *ret = NULL;
    int rc = 0;
    type_list l;
    list_init(&l);
    bool trailing = false;
    if (peek(&p) != '(') {
        rc = parse_type(&p, &ret);
        if (rc < 0)
            return rc;
        if (peek(&p) == ',') {
            rc = parse_bare_list(&p, ret, &l);
            ret = NULL;
            goto done;
        }
        if (peek(&p) != '(') {
            char here[32];
            describe_here(&p, here, sizeof here);
            return fail_at(&p, UF_ERR_SYNTAX, p.pos,
                           "expected '(' and the argument types, found %s",
                           here);
        }
    }
    size_t open = p.pos;
    p.pos++;
    rc = parse_type_list(&p, ')', &l, &trailing);
    if (rc == 0)
        rc = check_end(&p);
    /* "(float32)" is a parenthesised type in Python, not a signature. */
    if (rc == 0 && !ret && l.n == 1 && !trailing)
        rc = fail_at(&p, UF_ERR_SYNTAX, open,
                     "one argument without a return type needs a trailing "
                     "comma, as in '(float32,)'");
done:
    if (rc == 0) {
        const uf__type **args = NULL;
        if (l.n > 0) {
            args = uf__arena_alloc(arena, (size_t)l.n, sizeof *args, err);
            if (!args)
                rc = UF_ERR_NOMEM;
            else
                memcpy(args, l.items, (size_t)l.n * sizeof *args);
        }
        if (rc == 0) {
            out->ret = ret;
            out->args = args;
            out->nargs = l.n;
        }
    }
    list_free(&l);
    return rc;
}
