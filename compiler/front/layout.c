/* Parsing gufunc layouts with NumPy's grammar and positions (see layout.h),
 * and the checks of a layout against a kernel's signature. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "common/error_internal.h"
#include "compiler/front/layout.h"

typedef struct parser {
    const char *s;
    int i;                  /* current position, reported on error */
    const char *error;      /* what was expected there */
    uf__gufunc_layout *L;
    int ncore;              /* core dimensions written to dim_ix so far */
} parser;

static bool is_alpha_(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool is_alnum_(char c)
{
    return is_alpha_(c) || (c >= '0' && c <= '9');
}

static int skip_ws(const char *s, int i)
{
    while (s[i] == ' ' || s[i] == '\t')
        i++;
    return i;
}

/* A name runs over identifier characters, plus one trailing '?'. */
static int end_of_name(const char *s, int i)
{
    while (is_alnum_(s[i]))
        i++;
    if (s[i] == '?')
        i++;
    return i;
}

static bool same_name(const char *a, const char *b)
{
    while (is_alnum_(*a) && is_alnum_(*b)) {
        if (*a != *b)
            return false;
        a++;
        b++;
    }
    return !is_alnum_(*a) && !is_alnum_(*b);
}

/* A fixed size as NumPy reads it (strtoll): -1 when it is not a number,
 * runs into a name, or does not fit. */
static int64_t fixed_size(const char *s)
{
    char *stop;
    long long v;

    errno = 0;
    v = strtoll(s, &stop, 10);
    if (stop == s || is_alpha_(*stop) || errno == ERANGE ||
        v >= INT64_MAX || v <= INT64_MIN)
        return -1;
    return v;
}

/* dim := (NAME | SIZE) ['?'], registered in the layout's distinct dims. */
static bool parse_dim(parser *p, bool is_input)
{
    uf__gufunc_layout *L = p->L;
    const char *s = p->s;
    int i = p->i, end, ix;
    int64_t size = -1;
    bool flexible;

    if (!is_alpha_(s[i])) {
        size = fixed_size(s + i);
        if (size <= 0) {
            p->error = "expect dimension name or non-zero frozen size";
            return false;
        }
    }
    end = end_of_name(s, i);
    flexible = end > 0 && s[end - 1] == '?';
    for (ix = 0; ix < L->ndims; ix++) {
        const uf__gufunc_dim *d = &L->dims[ix];
        if (size > 0 ? size == d->size
                     : d->size < 0 && same_name(s + i, s + d->name_pos))
            break;
    }
    if (ix == L->ndims) {
        L->dims[ix] = (uf__gufunc_dim){
            .name_pos = i,
            .name_len = end - i - (flexible ? 1 : 0),
            .size = size,
            .flexible = flexible,
        };
        L->ndims++;
    } else if (flexible && !L->dims[ix].flexible) {
        p->error = "? cannot be used, name already seen without ?";
        return false;
    } else if (!flexible && L->dims[ix].flexible) {
        p->error = "? must be used, name already seen with ?";
        return false;
    }
    if (is_input)
        L->dims[ix].in_input = true;
    L->dim_ix[p->ncore++] = ix;
    p->i = end;
    return true;
}

/* arg := '(' [dim (',' dim)*] ')'; leaves p->i on the ')'. */
static bool parse_arg(parser *p, int arg, bool is_input)
{
    const char *s = p->s;
    int start = p->ncore;

    if (s[p->i] != '(') {
        p->error = "expect '('";
        return false;
    }
    p->i = skip_ws(s, p->i + 1);
    while (s[p->i] != ')') {
        if (s[p->i] == '\0') {
            p->error = "unexpected end of signature string";
            return false;
        }
        if (!parse_dim(p, is_input))
            return false;
        p->i = skip_ws(s, p->i);
        if (s[p->i] != ',' && s[p->i] != ')') {
            p->error = "expect ',' or ')'";
            return false;
        }
        if (s[p->i] == ',') {
            p->i = skip_ws(s, p->i + 1);
            if (s[p->i] == ')') {
                p->error = "',' must not be followed by ')'";
                return false;
            }
        }
    }
    p->L->core_offset[arg] = start;
    p->L->core_ndim[arg] = p->ncore - start;
    return true;
}

/* NumPy's loop: the arity is known, so '->' is expected after exactly nin
 * arguments and ',' between the others. */
static bool parse_known(parser *p, int nin, int nout)
{
    const char *s = p->s;
    int nargs = nin + nout, cur = 0;

    p->i = skip_ws(s, 0);
    while (s[p->i] != '\0') {
        if (cur == nin) {
            if (s[p->i] != '-' || s[p->i + 1] != '>') {
                p->error = "expect '->'";
                return false;
            }
            p->i = skip_ws(s, p->i + 2);
        }
        if (!parse_arg(p, cur, cur < nin))
            return false;
        cur++;
        p->i = skip_ws(s, p->i + 1);
        if (cur != nin && cur != nargs) {
            if (s[p->i] != ',') {
                p->error = "expect ','";
                return false;
            }
            p->i = skip_ws(s, p->i + 1);
        }
    }
    if (cur != nargs) {
        p->error = "incomplete signature: not all arguments found";
        return false;
    }
    p->L->nin = nin;
    p->L->nout = nout;
    return true;
}

/* The arity comes from the text: inputs up to '->', then at least one
 * output up to the end. */
static bool parse_free(parser *p)
{
    const char *s = p->s;
    int cur = 0, nin = -1;

    p->i = skip_ws(s, 0);
    if (s[p->i] == '-' && s[p->i + 1] == '>') {
        nin = 0;
        p->i = skip_ws(s, p->i + 2);
    }
    for (;;) {
        if (!parse_arg(p, cur, nin < 0))
            return false;
        cur++;
        p->i = skip_ws(s, p->i + 1);
        if (s[p->i] == ',') {
            p->i = skip_ws(s, p->i + 1);
        } else if (nin < 0 && s[p->i] == '-' && s[p->i + 1] == '>') {
            nin = cur;
            p->i = skip_ws(s, p->i + 2);
        } else if (nin >= 0 && s[p->i] == '\0') {
            break;
        } else {
            p->error = nin < 0 ? "expect ',' or '->'"
                               : "expect ',' or end of signature";
            return false;
        }
    }
    p->L->nin = nin;
    p->L->nout = cur - nin;
    return true;
}

uf__gufunc_layout *uf__gufunc_layout_parse(const char *text, int nin,
                                           int nout, uf_error *err)
{
    uf__gufunc_layout *L;
    parser p = {.s = text};
    size_t len, cap;
    bool ok;

    if (text == NULL || (nin < 0) != (nout < 0) || nin > 4096 ||
        nout > 4096) {
        uf__error_set(err, UF_ERR_INVALID,
                      "uf__gufunc_layout_parse: invalid arguments");
        return NULL;
    }
    len = strlen(text);
    if (len > INT32_MAX / 4) {
        uf__error_set(err, UF_ERR_VALUE, "gufunc signature is too long");
        return NULL;
    }
    /* Every argument and every core dimension uses at least one character;
     * NumPy's loop may read arguments past nin + nout before failing. */
    cap = len + (size_t)(nin > 0 ? nin : 0) + (size_t)(nout > 0 ? nout : 0) +
          1;
    L = uf__calloc(1, sizeof *L, err);
    if (L == NULL)
        return NULL;
    L->text = uf__strdup(text, err);
    if (L->text == NULL)
        goto fail;
    L->dims = uf__calloc(cap, sizeof *L->dims, err);
    if (L->dims == NULL)
        goto fail;
    L->core_ndim = uf__calloc(3 * cap, sizeof *L->core_ndim, err);
    if (L->core_ndim == NULL)
        goto fail;
    L->core_offset = L->core_ndim + cap;
    L->dim_ix = L->core_ndim + 2 * cap;

    p.L = L;
    p.s = L->text;
    ok = nin >= 0 ? parse_known(&p, nin, nout) : parse_free(&p);
    if (!ok) {
        uf__error_set(err, UF_ERR_SYNTAX, "%s at position %d in \"%s\"",
                      p.error, p.i, text);
        goto fail;
    }
    L->nargs = L->nin + L->nout;
    return L;

fail:
    uf__gufunc_layout_free(L);
    return NULL;
}

void uf__gufunc_layout_free(uf__gufunc_layout *layout)
{
    if (layout == NULL)
        return;
    uf__free(layout->core_ndim);
    uf__free(layout->dims);
    uf__free(layout->text);
    uf__free(layout);
}

int uf__gufunc_layout_check_arity(const uf__gufunc_layout *layout, int nin,
                                  int nout, uf_error *err)
{
    if (layout == NULL || nin < 0)
        return uf__error_set(err, UF_ERR_INVALID,
                             "uf__gufunc_layout_check_arity: invalid "
                             "arguments");
    if (nout < 0) {
        if (nin != layout->nargs)
            return uf__error_set(err, UF_ERR_VALUE,
                                 "the kernel takes %d arguments but its "
                                 "layout \"%s\" describes %d (%d inputs, "
                                 "%d outputs)",
                                 nin, layout->text, layout->nargs,
                                 layout->nin, layout->nout);
        return 0;
    }
    if (nin != layout->nin || nout != layout->nout)
        return uf__error_set(err, UF_ERR_VALUE,
                             "the kernel has %d inputs and %d outputs but "
                             "its layout \"%s\" has %d inputs and %d "
                             "outputs",
                             nin, nout, layout->text, layout->nin,
                             layout->nout);
    return 0;
}

int uf__gufunc_layout_check_arg(const uf__gufunc_layout *layout, int arg,
                                int ndim, uf_error *err)
{
    int want;

    if (layout == NULL || arg < 0 || arg >= layout->nargs || ndim < -1)
        return uf__error_set(err, UF_ERR_INVALID,
                             "uf__gufunc_layout_check_arg: invalid "
                             "arguments");
    want = layout->core_ndim[arg];
    /* Numba's convention: a "()" operand may be a 1-d array read as x[0]. */
    if (ndim == want || (ndim == -1 && want == 0) || (want == 0 && ndim == 1))
        return 0;
    return uf__error_set(err, UF_ERR_TYPE,
                         "type and shape signature mismatch for arg #%d: "
                         "the layout \"%s\" gives it %d core dimensions, "
                         "the signature %s",
                         arg + 1, layout->text, want,
                         ndim < 0 ? "a scalar type"
                                  : ndim == 1 ? "a 1-d array"
                                              : "an array of another "
                                                "dimension count");
}

const char *uf__gufunc_dim_name(const uf__gufunc_layout *layout, int ix,
                                char *buf, size_t size)
{
    const uf__gufunc_dim *d = &layout->dims[ix];

    snprintf(buf, size, "%.*s", d->name_len, layout->text + d->name_pos);
    return buf;
}
