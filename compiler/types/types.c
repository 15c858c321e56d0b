/* The type table: every type is made once per context, so equality is
 * pointer equality. Scalars, dtypes, none and range live inside the
 * context; tuples, arrays, modules and functions are nodes on a list. */
#include "compiler/types/types.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "common/alloc.h"
#include "common/error_internal.h"
#include <ufjit/array.h>

/* One interned type with its element pointers or name stored after it in
 * the same allocation, so that making a type is one allocation. */
typedef struct uf__typenode {
    struct uf__typenode *next;
    uf__type t;
    const uf__type *extra[]; /* tuple elements, or the name's chars */
} uf__typenode;

struct uf__typectx {
    uf__type scalars[UF_NTYPES];
    uf__type dtypes[UF_NTYPES];
    uf__type dtype_objs[UF_NTYPES];
    uf__type none;
    uf__type range;
    uf__type ustr;
    uf__typenode *nodes; /* every other type, newest first */
    bool oom;            /* an allocation failed (uf__typectx_oom) */
};

uf__typectx *uf__typectx_new(uf_error *err)
{
    uf__typectx *tc = uf__calloc(1, sizeof *tc, err);
    if (!tc)
        return NULL;
    for (int d = 0; d < UF_NTYPES; d++) {
        tc->scalars[d].kind = UF__T_SCALAR;
        tc->scalars[d].dtype = (uf_dtype)d;
        tc->dtypes[d].kind = UF__T_DTYPE;
        tc->dtypes[d].dtype = (uf_dtype)d;
        tc->dtype_objs[d] = tc->dtypes[d];
        tc->dtype_objs[d].dtype_obj = true;
    }
    tc->none.kind = UF__T_NONE;
    tc->range.kind = UF__T_RANGE;
    /* Numba's range(n) iterates int64 (intp). */
    tc->range.dtype = UF_INT64;
    return tc;
}

bool uf__typectx_oom(const uf__typectx *tc)
{
    return tc->oom;
}

void uf__typectx_free(uf__typectx *tc)
{
    if (!tc)
        return;
    uf__typenode *n = tc->nodes;
    while (n) {
        uf__typenode *next = n->next;
        uf__free(n);
        n = next;
    }
    uf__free(tc);
}

const uf__type *uf__type_scalar(uf__typectx *tc, uf_dtype dtype)
{
    if (!uf_dtype_valid((int)dtype))
        return NULL;
    return &tc->scalars[dtype];
}

const uf__type *uf__type_dtype(uf__typectx *tc, uf_dtype dtype)
{
    if (!uf_dtype_valid((int)dtype))
        return NULL;
    return &tc->dtypes[dtype];
}

const uf__type *uf__type_dtype_obj(uf__typectx *tc, uf_dtype dtype)
{
    if (!uf_dtype_valid((int)dtype))
        return NULL;
    return &tc->dtype_objs[dtype];
}

const uf__type *uf__type_none(uf__typectx *tc)
{
    return &tc->none;
}

const uf__type *uf__type_range(uf__typectx *tc)
{
    return &tc->range;
}

const uf__type *uf__type_ustr(uf__typectx *tc)
{
    tc->ustr.kind = UF__T_USTR;
    return &tc->ustr;
}

/* A new node with `extra_bytes` after it, linked into the context. */
static uf__typenode *node_new(uf__typectx *tc, uf__type_kind kind,
                              size_t extra_bytes, uf_error *err)
{
    size_t size;
    if (!uf__add_size(sizeof(uf__typenode), extra_bytes, &size)) {
        uf__error_set(err, UF_ERR_OVERFLOW, "type too large");
        return NULL;
    }
    uf__typenode *n = uf__calloc(1, size, err);
    if (!n) {
        tc->oom = true;
        return NULL;
    }
    n->t.kind = kind;
    n->next = tc->nodes;
    tc->nodes = n;
    return n;
}

const uf__type *uf__type_tuple(uf__typectx *tc, int n,
                               const uf__type *const *elts, uf_error *err)
{
    if (n < 0 || (n > 0 && !elts)) {
        uf__error_set(err, UF_ERR_INVALID, "bad tuple type: %d elements", n);
        return NULL;
    }
    if (n > UF__TUPLE_MAX) {
        uf__error_set(err, UF_ERR_UNSUPPORTED,
                      "tuple of %d elements: at most %d are supported", n,
                      UF__TUPLE_MAX);
        return NULL;
    }
    for (int i = 0; i < n; i++) {
        if (!elts[i]) {
            uf__error_set(err, UF_ERR_INVALID,
                          "bad tuple type: element %d is NULL", i);
            return NULL;
        }
    }
    for (uf__typenode *p = tc->nodes; p; p = p->next) {
        if (p->t.kind == UF__T_TUPLE && p->t.n == n &&
            (n == 0 || memcmp(p->extra, elts, (size_t)n * sizeof *elts) == 0))
            return &p->t;
    }
    size_t bytes;
    if (!uf__mul_size((size_t)n, sizeof *elts, &bytes)) {
        uf__error_set(err, UF_ERR_OVERFLOW, "tuple type too large");
        return NULL;
    }
    uf__typenode *p = node_new(tc, UF__T_TUPLE, bytes, err);
    if (!p)
        return NULL;
    if (n > 0)
        memcpy(p->extra, elts, bytes);
    p->t.n = n;
    p->t.elts = p->extra;
    return &p->t;
}

const uf__type *uf__type_array(uf__typectx *tc, uf_dtype dtype, int ndim,
                               char layout, uf_error *err)
{
    return uf__type_array_ro(tc, dtype, ndim, layout, false, err);
}

const uf__type *uf__type_array_ro(uf__typectx *tc, uf_dtype dtype, int ndim,
                                  char layout, bool readonly, uf_error *err)
{
    if (!uf_dtype_valid((int)dtype)) {
        uf__error_set(err, UF_ERR_INVALID, "bad array type: dtype %d",
                      (int)dtype);
        return NULL;
    }
    if (ndim < 0 || ndim > UF_MAXDIMS) {
        uf__error_set(err, UF_ERR_INVALID,
                      "bad array type: %d dimensions (0..%d)", ndim,
                      UF_MAXDIMS);
        return NULL;
    }
    if (layout != 'C' && layout != 'F' && layout != 'A') {
        uf__error_set(err, UF_ERR_INVALID,
                      "bad array type: layout must be 'C', 'F' or 'A'");
        return NULL;
    }
    for (uf__typenode *p = tc->nodes; p; p = p->next) {
        if (p->t.kind == UF__T_ARRAY && p->t.dtype == dtype &&
            p->t.ndim == ndim && p->t.layout == layout &&
            p->t.readonly == readonly)
            return &p->t;
    }
    uf__typenode *p = node_new(tc, UF__T_ARRAY, 0, err);
    if (!p)
        return NULL;
    p->t.dtype = dtype;
    p->t.ndim = ndim;
    p->t.layout = layout;
    p->t.readonly = readonly;
    return &p->t;
}

const uf__type *uf__type_flatiter(uf__typectx *tc, const uf__type *arr,
                                  uf_error *err)
{
    for (uf__typenode *p = tc->nodes; p; p = p->next) {
        if (p->t.kind == UF__T_FLATITER && p->t.dtype == arr->dtype &&
            p->t.ndim == arr->ndim && p->t.layout == arr->layout &&
            p->t.readonly == arr->readonly)
            return &p->t;
    }
    uf__typenode *p = node_new(tc, UF__T_FLATITER, 0, err);
    if (!p)
        return NULL;
    p->t.dtype = arr->dtype;
    p->t.ndim = arr->ndim;
    p->t.layout = arr->layout;
    p->t.readonly = arr->readonly;
    return &p->t;
}

const uf__type *uf__type_list(uf__typectx *tc, const uf__type *elt,
                              uf_error *err)
{
    for (uf__typenode *p = tc->nodes; p; p = p->next)
        if (p->t.kind == UF__T_LIST && p->t.n == (elt != NULL) &&
            (elt == NULL || p->t.elts[0] == elt))
            return &p->t;
    uf__typenode *p = node_new(tc, UF__T_LIST, sizeof elt, err);
    if (!p)
        return NULL;
    p->t.n = elt != NULL;
    memcpy(p->extra, &elt, sizeof elt);
    p->t.elts = p->extra;
    return &p->t;
}

const uf__type *uf__type_dict(uf__typectx *tc, const uf__type *key,
                              const uf__type *val, char view, uf_error *err)
{
    const uf__type *kv[2] = {key, val};
    int n = key != NULL ? 2 : 0;
    for (uf__typenode *p = tc->nodes; p; p = p->next)
        if (p->t.kind == UF__T_DICT && p->t.n == n && p->t.layout == view &&
            (n == 0 || (p->t.elts[0] == key && p->t.elts[1] == val)))
            return &p->t;
    uf__typenode *p = node_new(tc, UF__T_DICT, sizeof kv, err);
    if (!p)
        return NULL;
    p->t.n = n;
    p->t.layout = view;
    memcpy(p->extra, kv, sizeof kv);
    p->t.elts = p->extra;
    return &p->t;
}

int uf__type_nest_depth(const uf__type *t)
{
    int d = 0;
    for (;;) {
        if (t != NULL && t->kind == UF__T_LIST && t->n == 1)
            t = t->elts[0];
        else if (t != NULL && t->kind == UF__T_DICT && t->n == 2)
            t = t->elts[1];
        else
            return d;
        d++;
    }
}

const uf__type *uf__type_set(uf__typectx *tc, const uf__type *key,
                             uf_error *err)
{
    for (uf__typenode *p = tc->nodes; p; p = p->next)
        if (p->t.kind == UF__T_SET && p->t.n == (key != NULL) &&
            (key == NULL || p->t.elts[0] == key))
            return &p->t;
    uf__typenode *p = node_new(tc, UF__T_SET, sizeof key, err);
    if (!p)
        return NULL;
    p->t.n = key != NULL;
    memcpy(p->extra, &key, sizeof key);
    p->t.elts = p->extra;
    return &p->t;
}

/* Modules and functions are known by name only. */
static const uf__type *named(uf__typectx *tc, uf__type_kind kind,
                             const char *name, uf_error *err)
{
    if (!name || !*name) {
        uf__error_set(err, UF_ERR_INVALID, "bad %s type: empty name",
                      kind == UF__T_MODULE ? "module" : "function");
        return NULL;
    }
    for (uf__typenode *p = tc->nodes; p; p = p->next) {
        if (p->t.kind == kind && strcmp(p->t.name, name) == 0)
            return &p->t;
    }
    size_t len = strlen(name) + 1;
    uf__typenode *p = node_new(tc, kind, len, err);
    if (!p)
        return NULL;
    char *copy = (char *)p->extra;
    memcpy(copy, name, len);
    p->t.name = copy;
    return &p->t;
}

const uf__type *uf__type_strlit(uf__typectx *tc, const char *s, size_t len,
                                uf_error *err)
{
    if (len > (size_t)INT32_MAX - 1) {
        uf__error_set(err, UF_ERR_OVERFLOW, "string literal too long");
        return NULL;
    }
    for (uf__typenode *p = tc->nodes; p; p = p->next)
        if (p->t.kind == UF__T_STR && (size_t)p->t.n == len &&
            memcmp(p->t.name, s, len) == 0)
            return &p->t;
    uf__typenode *p = node_new(tc, UF__T_STR, len + 1, err);
    if (!p)
        return NULL;
    char *copy = (char *)p->extra;
    if (len > 0)
        memcpy(copy, s, len);
    copy[len] = '\0';
    p->t.name = copy;
    p->t.n = (int)len;
    return &p->t;
}

const uf__type *uf__type_module(uf__typectx *tc, const char *name,
                                uf_error *err)
{
    return named(tc, UF__T_MODULE, name, err);
}

const uf__type *uf__type_function(uf__typectx *tc, const char *name,
                                  uf_error *err)
{
    return named(tc, UF__T_FUNCTION, name, err);
}

bool uf__type_is_pyclass(const uf__type *t)
{
    static const char *const names[] = {"float", "int", "bool", "complex"};
    if (t == NULL || t->kind != UF__T_FUNCTION)
        return false;
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (strcmp(t->name, names[i]) == 0)
            return true;
    return false;
}

bool uf__type_is_number(const uf__type *t)
{
    return t && t->kind == UF__T_SCALAR;
}

bool uf__type_is_int(const uf__type *t)
{
    if (!uf__type_is_number(t))
        return false;
    char k = uf_dtype_kind(t->dtype);
    return k == 'i' || k == 'u';
}

bool uf__type_is_float(const uf__type *t)
{
    return uf__type_is_number(t) && uf_dtype_kind(t->dtype) == 'f';
}

bool uf__type_is_complex(const uf__type *t)
{
    return uf__type_is_number(t) && uf_dtype_kind(t->dtype) == 'c';
}

/* Numba says "bool" where NumPy says "bool_"/"bool". */
static const char *scalar_name(uf_dtype d)
{
    return d == UF_BOOL ? "bool" : uf_dtype_name(d);
}

/* snprintf into buf at *pos, tracking the would-be length like snprintf
 * so that the caller can size a buffer from the first call. */
static void put(char *buf, size_t size, size_t *pos, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void put(char *buf, size_t size, size_t *pos, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *dst = *pos < size ? buf + *pos : NULL;
    size_t room = *pos < size ? size - *pos : 0;
    int k = vsnprintf(dst, room, fmt, ap);
    va_end(ap);
    if (k > 0)
        *pos += (size_t)k;
}

static void type_str(const uf__type *t, char *buf, size_t size, size_t *pos)
{
    if (!t) {
        put(buf, size, pos, "<null>");
        return;
    }
    switch (t->kind) {
    case UF__T_SCALAR:
        put(buf, size, pos, "%s", scalar_name(t->dtype));
        return;
    case UF__T_DTYPE:
        put(buf, size, pos, "%s(%s)", t->dtype_obj ? "dtype" : "class",
            scalar_name(t->dtype));
        return;
    case UF__T_NONE:
        put(buf, size, pos, "none");
        return;
    case UF__T_RANGE:
        /* What Numba 0.5x-0.6x prints for range(n) with int64 bounds. */
        put(buf, size, pos, "range_state_int64");
        return;
    case UF__T_MODULE:
        put(buf, size, pos, "Module(%s)", t->name);
        return;
    case UF__T_FUNCTION:
        put(buf, size, pos, "Function(%s)", t->name);
        return;
    case UF__T_ARRAY:
        put(buf, size, pos, "%sarray(%s, %dd, %c)",
            t->readonly ? "readonly " : "", scalar_name(t->dtype), t->ndim,
            t->layout);
        return;
    case UF__T_FLATITER:
        put(buf, size, pos, "array.flat(%sarray(%s, %dd, %c))",
            t->readonly ? "readonly " : "", scalar_name(t->dtype), t->ndim,
            t->layout);
        return;
    case UF__T_STR:
        put(buf, size, pos, "Literal[str](%s)", t->name);
        return;
    case UF__T_USTR:
        put(buf, size, pos, "unicode_type");
        return;
    case UF__T_LIST:
        put(buf, size, pos, "list(");
        if (t->n == 1)
            type_str(t->elts[0], buf, size, pos);
        else
            put(buf, size, pos, "undefined");
        put(buf, size, pos, ")<iv=None>");
        return;
    case UF__T_SET:
        put(buf, size, pos, "set(");
        if (t->n == 1)
            type_str(t->elts[0], buf, size, pos);
        else
            put(buf, size, pos, "undefined");
        put(buf, size, pos, ")");
        return;
    case UF__T_DICT:
        put(buf, size, pos, "%sDictType[", t->layout == 'k'   ? "keys of "
                                            : t->layout == 'v' ? "values of "
                                            : t->layout == 'i' ? "items of "
                                                               : "");
        if (t->n == 2) {
            type_str(t->elts[0], buf, size, pos);
            put(buf, size, pos, ",");
            type_str(t->elts[1], buf, size, pos);
        } else {
            put(buf, size, pos, "undefined,undefined");
        }
        put(buf, size, pos, "]<iv=None>");
        return;
    case UF__T_TUPLE: {
        /* Numba canonicalises a tuple of equal elements to UniTuple. */
        bool uni = t->n > 0;
        for (int i = 1; i < t->n && uni; i++)
            uni = t->elts[i] == t->elts[0];
        if (uni) {
            put(buf, size, pos, "UniTuple(");
            type_str(t->elts[0], buf, size, pos);
            put(buf, size, pos, " x %d)", t->n);
            return;
        }
        put(buf, size, pos, "Tuple(");
        for (int i = 0; i < t->n; i++) {
            if (i > 0)
                put(buf, size, pos, ", ");
            type_str(t->elts[i], buf, size, pos);
        }
        put(buf, size, pos, ")");
        return;
    }
    }
    put(buf, size, pos, "<bad type>");
}

int uf__type_str(const uf__type *t, char *buf, size_t size)
{
    size_t pos = 0;
    if (size > 0)
        buf[0] = '\0';
    type_str(t, buf, size, &pos);
    return pos > (size_t)__INT_MAX__ ? __INT_MAX__ : (int)pos;
}
