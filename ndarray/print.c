/* repr() and str() of arrays exactly as NumPy 2 prints them under its
 * default print options (precision=8, threshold=1000, edgeitems=3,
 * linewidth=75, floatmode='maxprec', sign='-'). The layout follows
 * arrayprint.py's _formatArray: rows wrap at the line width with a hanging
 * indent, blocks of higher dimensions are separated by as many newlines as
 * dimensions remain, and arrays of more than 1000 elements show only the
 * first and last three items of each long axis around "...". The elements'
 * text comes from format_scalar.c. */
#include <stdio.h>
#include <string.h>

#include "common/alloc.h"
#include "common/error_internal.h"
#include "ndarray/array_internal.h"
#include "ndarray/format_scalar.h"

enum { THRESHOLD = 1000, EDGE = 3, LINE_WIDTH = 75 };

/* ---- a growing string -------------------------------------------------- */

typedef struct sbuf {
    char *p;
    size_t len, cap;
    size_t line_start; /* index just after the last '\n' */
    bool failed;       /* err is set; later writes do nothing */
    uf_error *err;
} sbuf;

static bool sb_reserve(sbuf *b, size_t more)
{
    size_t need;
    if (b->failed)
        return false;
    if (!uf__add_size(b->len, more, &need) || !uf__add_size(need, 1, &need)) {
        uf__error_set(b->err, UF_ERR_OVERFLOW, "printed array is too long");
        b->failed = true;
        return false;
    }
    if (need <= b->cap)
        return true;
    size_t cap = b->cap != 0 ? b->cap : 128;
    while (cap < need)
        cap = cap <= SIZE_MAX / 2 ? cap * 2 : need;
    char *q = uf__realloc(b->p, cap, 1, b->err);
    if (q == NULL) {
        b->failed = true;
        return false;
    }
    b->p = q;
    b->cap = cap;
    return true;
}

static void sb_put(sbuf *b, const char *s, size_t n)
{
    if (!sb_reserve(b, n))
        return;
    memcpy(b->p + b->len, s, n);
    for (size_t i = 0; i < n; i++)
        if (s[i] == '\n')
            b->line_start = b->len + i + 1;
    b->len += n;
    b->p[b->len] = '\0';
}

static void sb_str(sbuf *b, const char *s)
{
    sb_put(b, s, strlen(s));
}

static void sb_rep(sbuf *b, char c, size_t n)
{
    if (!sb_reserve(b, n))
        return;
    memset(b->p + b->len, c, n);
    if (c == '\n' && n > 0)
        b->line_start = b->len + n;
    b->len += n;
    b->p[b->len] = '\0';
}

static size_t sb_col(const sbuf *b)
{
    return b->len - b->line_start;
}

/* ---- layout ------------------------------------------------------------ */

typedef struct printer {
    const uf_array *a;
    bool summarise;  /* more than THRESHOLD elements */
    const char *sep; /* between items: ", " (repr) or " " (str) */
    size_t indent;   /* hanging indent of the outermost axis */
    size_t width;    /* line width, less the closing suffix */
    uf__elem_fmt fmt;
    sbuf *out;
} printer;

static bool summarised(const printer *p, int axis)
{
    return p->summarise && p->a->shape[axis] > 2 * EDGE;
}

/* Calls fn on every element that will be shown, so that the common format
 * depends on those only (as NumPy's _leading_trailing). */
static void visit(const printer *p, int axis, const char *ptr,
                  void (*fn)(uf__elem_fmt *, const char *), uf__elem_fmt *f)
{
    const uf_array *a = p->a;
    if (axis == a->ndim) {
        fn(f, ptr);
        return;
    }
    int64_t n = a->shape[axis], st = a->strides[axis];
    if (summarised(p, axis)) {
        for (int64_t i = 0; i < EDGE; i++)
            visit(p, axis + 1, ptr + i * st, fn, f);
        for (int64_t i = n - EDGE; i < n; i++)
            visit(p, axis + 1, ptr + i * st, fn, f);
    } else {
        for (int64_t i = 0; i < n; i++)
            visit(p, axis + 1, ptr + i * st, fn, f);
    }
}

/* Appends a word to the current row, first breaking the line when the word
 * would pass `limit` and the line holds more than its indent. */
static void add_word(printer *p, const char *w, size_t n, size_t limit,
                     size_t hang)
{
    sbuf *out = p->out;
    size_t col = sb_col(out);
    if (col + n > limit && col > hang) {
        while (out->len > out->line_start && out->p[out->len - 1] == ' ')
            out->len--;
        sb_rep(out, '\n', 1);
        sb_rep(out, ' ', hang);
    }
    sb_put(out, w, n);
}

static void add_elem(printer *p, const char *ptr, size_t limit, size_t hang)
{
    char w[UF__ELEM_MAX];
    size_t n = uf__elem_fmt_write(&p->fmt, ptr, w);
    add_word(p, w, n, limit, hang);
}

/* One bracketed sub-array along `axis`, starting at the column just past
 * its hanging indent (the parent wrote the indent or an opening '['). */
static void emit(printer *p, int axis, const char *ptr)
{
    const uf_array *a = p->a;
    sbuf *out = p->out;
    int64_t n = a->shape[axis], st = a->strides[axis];
    bool summary = summarised(p, axis);
    int64_t lead = summary ? EDGE : 0, trail = summary ? EDGE : n;
    size_t hang = p->indent + (size_t)axis;
    size_t seplen = strlen(p->sep);

    sb_put(out, "[", 1);
    if (axis == a->ndim - 1) {
        /* room left of the separator or closing bracket */
        size_t limit = p->width - (size_t)axis - 1;
        for (int64_t i = 0; i < lead && !out->failed; i++) {
            add_elem(p, ptr + i * st, limit, hang);
            sb_put(out, p->sep, seplen);
        }
        if (summary) {
            add_word(p, "...", 3, limit, hang);
            sb_put(out, p->sep, seplen);
        }
        for (int64_t i = trail; i >= 1 && !out->failed; i--) {
            add_elem(p, ptr + (n - i) * st, limit, hang);
            if (i > 1)
                sb_put(out, p->sep, seplen);
        }
    } else {
        /* ",\n\n" between 2-d blocks of a 3-d array, and so on */
        size_t sep_text = p->sep[0] == ',' ? 1 : 0;
        size_t newlines = (size_t)(a->ndim - axis - 1);
        int64_t child = 0;
        for (int64_t i = 0; i < lead && !out->failed; i++, child++) {
            if (child > 0)
                sb_rep(out, ' ', hang);
            emit(p, axis + 1, ptr + i * st);
            sb_put(out, p->sep, sep_text);
            sb_rep(out, '\n', newlines);
        }
        if (summary) {
            sb_rep(out, ' ', hang);
            sb_put(out, "...", 3);
            sb_put(out, p->sep, sep_text);
            sb_rep(out, '\n', newlines);
        }
        for (int64_t i = trail; i >= 1 && !out->failed; i--, child++) {
            if (child > 0)
                sb_rep(out, ' ', hang);
            emit(p, axis + 1, ptr + (n - i) * st);
            if (i > 1) {
                sb_put(out, p->sep, sep_text);
                sb_rep(out, '\n', newlines);
            }
        }
    }
    sb_put(out, "]", 1);
}

static int64_t array_size(const uf_array *a)
{
    int64_t size = 1;
    for (int i = 0; i < a->ndim; i++)
        size *= a->shape[i];
    return size;
}

/* NumPy's array2string: `prefix_len` columns precede the text on its first
 * line and `width` is the line width less the closing suffix. */
static void body(const uf_array *a, sbuf *out, size_t prefix_len,
                 size_t width, const char *sep)
{
    int64_t size = array_size(a);
    if (size == 0) {
        sb_str(out, "[]");
        return;
    }
    printer p = {.a = a, .summarise = size > THRESHOLD, .sep = sep,
                 .indent = 1 + prefix_len, .width = width, .out = out};
    uf__elem_fmt_init(&p.fmt, a->dtype, a->ndim == 0);
    visit(&p, 0, a->data, uf__elem_fmt_scan, &p.fmt);
    if (uf__elem_fmt_plan(&p.fmt))
        visit(&p, 0, a->data, uf__elem_fmt_measure, &p.fmt);
    uf__elem_fmt_finish(&p.fmt);
    if (a->ndim == 0) {
        char w[UF__ELEM_MAX];
        sb_put(out, w, uf__elem_fmt_write(&p.fmt, a->data, w));
        return;
    }
    emit(&p, 0, a->data);
}

static int check_printable(const uf_array *a, uf_error *err)
{
    if (a == NULL)
        return uf__error_set(err, UF_ERR_INVALID, "array is NULL");
    if (!uf_dtype_valid((int)a->dtype))
        return uf__error_set(err, UF_ERR_TYPE, "array has an invalid dtype "
                             "(%d)", (int)a->dtype);
    if (a->device.type != UF_DEVICE_HOST)
        return uf__error_set(err, UF_ERR_UNSUPPORTED,
                             "cannot print an array in CUDA device memory; "
                             "copy it to the host first");
    return 0;
}

static char *finish(sbuf *out)
{
    if (out->failed) {
        uf__free(out->p);
        return NULL;
    }
    return out->p;
}

/* The dtype goes unsaid only for the types NumPy infers from the text. */
static bool dtype_implied(uf_dtype t)
{
    return t == UF_FLOAT64 || t == UF_INT64 || t == UF_BOOL ||
           t == UF_COMPLEX128;
}

char *uf_array_repr(const uf_array *a, uf_error *err)
{
    static const char prefix[] = "array(";
    const size_t plen = sizeof prefix - 1;
    if (check_printable(a, err) < 0)
        return NULL;
    sbuf out = {.err = err};
    sb_str(&out, prefix);
    body(a, &out, plen, LINE_WIDTH - 1, ", ");

    /* shape= when the text does not show it, dtype= unless implied */
    int64_t size = array_size(a);
    char extra[UF_MAXDIMS * 24 + 64], shape[UF_MAXDIMS * 24 + 8];
    size_t n = 0;
    extra[0] = '\0';
    if ((size == 0 && !(a->ndim == 1)) || size > THRESHOLD) {
        uf__shape_str(a->ndim, a->shape, shape, sizeof shape);
        n += (size_t)snprintf(extra + n, sizeof extra - n, "shape=%s", shape);
    }
    if (!dtype_implied(a->dtype) || size == 0)
        n += (size_t)snprintf(extra + n, sizeof extra - n, "%sdtype=%s",
                              n > 0 ? ", " : "", uf_dtype_name(a->dtype));
    if (n == 0) {
        sb_put(&out, ")", 1);
        return finish(&out);
    }
    sb_put(&out, ",", 1);
    /* the extras go on a line of their own when they would pass the width */
    if (sb_col(&out) + n + 1 + 1 > LINE_WIDTH) {
        sb_rep(&out, '\n', 1);
        sb_rep(&out, ' ', plen);
    } else {
        sb_put(&out, " ", 1);
    }
    sb_put(&out, extra, n);
    sb_put(&out, ")", 1);
    return finish(&out);
}

char *uf_array_str(const uf_array *a, uf_error *err)
{
    if (check_printable(a, err) < 0)
        return NULL;
    sbuf out = {.err = err};
    if (a->ndim == 0) {
        /* a 0-d array prints as its scalar: full precision, no padding */
        char w[UF__ELEM_MAX];
        sb_put(&out, w, uf__scalar_str(a->dtype, a->data, w));
    } else {
        body(a, &out, 0, LINE_WIDTH, " ");
    }
    return finish(&out);
}
