/* Typing of NumPy's array constructors inside kernels, as Numba types
 * them (numba/np/arrayobj.py): np.empty/zeros/ones(shape, dtype=float64),
 * np.full(shape, fill, dtype=type of fill), the *_like forms (the
 * array's shape and dtype), np.arange (int64 for integers, float64 when
 * a bound is a float, or dtype=) and np.linspace (float64). The shape is
 * an integer (1-d) or a tuple of integers (its length's dimensions, () a
 * 0-d array); every result is C-contiguous. CUDA kernels and device
 * functions refuse them as numba.cuda does (cuda.local.array is the
 * way); lower_alloc.c refuses them on any other CUDA compilation. */
#include <string.h>

#include "compiler/types/infer_internal.h"

int uf__call_check_params(uf__ictx *C, const uf__expr *e, const char *fn,
                          const char *const *names, int npos)
{
    if (e->u.call.nargs > npos)
        return uf__ierr(C, UF_ERR_TYPING, e->u.call.args[npos]->pos,
                        "%s() takes at most %d positional arguments", fn,
                        npos);
    for (int i = 0; i < e->u.call.nkw; i++) {
        const uf__keyword *kw = &e->u.call.kw[i];
        int j = 0;
        while (j < npos && strcmp(names[j], kw->name) != 0)
            j++;
        if (j == npos)
            return uf__ierr(C, UF_ERR_UNSUPPORTED, kw->pos, "%s() got an "
                            "unsupported keyword argument '%s'", fn,
                            kw->name);
        if (j < e->u.call.nargs)
            return uf__ierr(C, UF_ERR_TYPING, kw->pos, "%s() got multiple "
                            "values for argument '%s'", fn, kw->name);
    }
    return 0;
}

#define OPERAND(var, expr)                                                  \
    do {                                                                    \
        (var) = uf__infer_expr(C, (expr));                                  \
        if ((var) == NULL || (var) == UF__UNKNOWN)                          \
            return (var);                                                   \
    } while (0)

const uf__type *uf__infer_dtype_arg(uf__ictx *C, const char *fn,
                                    const uf__expr *x, uf_dtype *dt)
{
    static const uf__type ok = {.kind = UF__T_NONE};
    *dt = UF_NTYPES;
    if (x == NULL)
        return &ok;
    if (x->kind == UF__EX_STR) { /* 'f4', 'float32', as np.dtype() reads */
        uf_error e;
        if (x->u.str.len < 32 &&
            uf_dtype_from_name(x->u.str.s, dt, &e) == 0)
            return &ok;
        return uf__ierr_t(C, UF_ERR_TYPING, x->pos, "%s(): '%s' is not a "
                          "dtype NumPy knows", fn, x->u.str.s);
    }
    const uf__type *t;
    OPERAND(t, x); /* a NumPy type, a.dtype, a variable holding either */
    if (t->kind == UF__T_NONE)
        return &ok;
    if (t->kind == UF__T_STR) { /* dt = 'f4' (infer_str.c) */
        uf_error e;
        if (t->n < 32 && uf_dtype_from_name(t->name, dt, &e) == 0)
            return &ok;
        return uf__ierr_t(C, UF_ERR_TYPING, x->pos, "%s(): '%s' is not a "
                          "dtype NumPy knows", fn, t->name);
    }
    if (t->kind == UF__T_DTYPE) {
        *dt = t->dtype;
        return &ok;
    }
    /* Python's classes, written or held in a variable, as Numba reads
     * them: np.empty/zeros/ones take float (float64) but not int, bool or
     * complex; np.full takes any of them and makes float64 (its
     * ty_parse_dtype finds no dtype, so np.empty's default); the other
     * functions none */
    if (uf__type_is_pyclass(t)) {
        bool fill = strcmp(fn, "empty") == 0 || strcmp(fn, "zeros") == 0 ||
                    strcmp(fn, "ones") == 0;
        if (strcmp(fn, "full") == 0 ||
            (fill && strcmp(t->name, "float") == 0)) {
            *dt = UF_FLOAT64;
            return &ok;
        }
        return uf__ierr_t(C, UF_ERR_TYPING, x->pos, "%s(): dtype=%s is not "
                          "supported (Numba takes Python's float in "
                          "np.empty/zeros/ones, and any of float, int, bool, "
                          "complex in np.full, which then makes float64): "
                          "use a NumPy type such as np.float64", fn,
                          t->name);
    }
    return uf__ierr_t(C, UF_ERR_TYPING, x->pos, "%s(): dtype must be a "
                      "NumPy type such as np.float64 or np.int64, float, or "
                      "an array's .dtype, not %s", fn, uf__tname(t));
}

/* The number of dimensions a shape argument gives, or -1 with the error. */
static int shape_ndim(uf__ictx *C, const char *fn, const uf__expr *x,
                      const uf__type *t)
{
    if (uf__type_is_int(t))
        return 1;
    if (t->kind == UF__T_TUPLE && t->n <= UF_MAXDIMS) {
        bool ints = true;
        for (int i = 0; i < t->n; i++)
            ints = ints && uf__type_is_int(t->elts[i]);
        if (ints)
            return t->n;
    }
    uf__ierr(C, UF_ERR_TYPING, x->pos, "%s(): the shape must be an integer "
             "or a tuple of integers, not %s", fn, uf__tname(t));
    return -1;
}

static const uf__type *result(uf__ictx *C, uf_dtype dt, int ndim)
{
    return uf__type_array(C->tc, dt, ndim, 'C', C->err);
}

/* The parameters of each constructor, in NumPy's order: what the typers
 * below accept (positional or by keyword) and README lists. */
static const char *const params[][5] = {
    [UF__BI_NP_EMPTY - UF__BI_NP_EMPTY] = {"shape", "dtype"},
    [UF__BI_NP_ZEROS - UF__BI_NP_EMPTY] = {"shape", "dtype"},
    [UF__BI_NP_ONES - UF__BI_NP_EMPTY] = {"shape", "dtype"},
    [UF__BI_NP_FULL - UF__BI_NP_EMPTY] = {"shape", "fill_value", "dtype"},
    [UF__BI_NP_EMPTY_LIKE - UF__BI_NP_EMPTY] = {"a", "dtype"},
    [UF__BI_NP_ZEROS_LIKE - UF__BI_NP_EMPTY] = {"a", "dtype"},
    [UF__BI_NP_ONES_LIKE - UF__BI_NP_EMPTY] = {"a", "dtype"},
    [UF__BI_NP_FULL_LIKE - UF__BI_NP_EMPTY] = {"a", "fill_value", "dtype"},
    [UF__BI_NP_ARANGE - UF__BI_NP_EMPTY] = {"start", "stop", "step",
                                            "dtype"},
    [UF__BI_NP_LINSPACE - UF__BI_NP_EMPTY] = {"start", "stop", "num"},
};

const char *const *uf__alloc_params(uf__builtin b, int *n)
{
    *n = 0;
    if (!uf__builtin_is_alloc(b))
        return NULL;
    const char *const *p = params[b - UF__BI_NP_EMPTY];
    while (*n < 5 && p[*n] != NULL)
        ++*n;
    return p;
}

/* np.empty / zeros / ones / full (shape first) and the *_like forms. */
static const uf__type *type_fill(uf__ictx *C, const uf__expr *e,
                                 uf__builtin b, const char *fn, bool like,
                                 bool full)
{
    int np;
    const char *const *names = uf__alloc_params(b, &np);
    if (uf__call_check_params(C, e, fn, names, np) != 0)
        return NULL;
    const uf__expr *sx = uf__call_arg(e, 0, names[0]);
    if (sx == NULL)
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "%s() missing required "
                          "argument '%s'", fn, names[0]);
    const uf__type *st;
    OPERAND(st, sx);
    int ndim;
    uf_dtype dt = UF_FLOAT64;
    if (like) {
        if (st->kind != UF__T_ARRAY)
            return uf__ierr_t(C, UF_ERR_UNSUPPORTED, sx->pos, "%s() of %s "
                              "is not supported in kernels: pass an array",
                              fn, uf__tname(st));
        ndim = st->ndim;
        dt = st->dtype;
    } else if ((ndim = shape_ndim(C, fn, sx, st)) < 0) {
        return NULL;
    }
    if (full) {
        const uf__expr *fx = uf__call_arg(e, 1, "fill_value");
        if (fx == NULL)
            return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "%s() missing "
                              "required argument 'fill_value'", fn);
        const uf__type *ft;
        OPERAND(ft, fx);
        if (ft->kind != UF__T_SCALAR)
            return uf__ierr_t(C, UF_ERR_TYPING, fx->pos, "%s(): the fill "
                              "value must be a number, not %s", fn,
                              uf__tname(ft));
        if (!like)
            dt = ft->dtype; /* Numba: the fill value's type */
    }
    uf_dtype want;
    const uf__type *r = uf__infer_dtype_arg(
        C, fn, uf__call_arg(e, full ? 2 : 1, "dtype"), &want);
    if (r == NULL || r == UF__UNKNOWN)
        return r;
    return result(C, want != UF_NTYPES ? want : dt, ndim);
}

/* Numba's _arange_dtype: complex128, float64, else the widest of the
 * integers and int64. */
uf_dtype uf__arange_dtype(const uf__type *const *bounds, int n)
{
    uf_dtype dt = UF_INT64;
    bool fl = false, cx = false;
    for (int i = 0; i < n; i++) {
        if (bounds[i] == NULL || bounds[i]->kind != UF__T_SCALAR)
            continue;
        cx = cx || uf__type_is_complex(bounds[i]);
        fl = fl || uf__type_is_float(bounds[i]);
        if (bounds[i]->dtype == UF_UINT64)
            dt = UF_UINT64;
    }
    return cx ? UF_COMPLEX128 : fl ? UF_FLOAT64 : dt;
}

static const uf__type *type_arange(uf__ictx *C, const uf__expr *e)
{
    int np;
    const char *const *names = uf__alloc_params(UF__BI_NP_ARANGE, &np);
    if (uf__call_check_params(C, e, "arange", names, np) != 0)
        return NULL;
    const uf__type *b[3] = {NULL, NULL, NULL};
    for (int i = 0; i < 3; i++) {
        const uf__expr *x = uf__call_arg(e, i, names[i]);
        if (x == NULL)
            continue;
        OPERAND(b[i], x);
        if (b[i]->kind == UF__T_NONE && i > 0) {
            b[i] = NULL;
            continue;
        }
        if (b[i]->kind != UF__T_SCALAR || b[i]->dtype == UF_BOOL ||
            uf__type_is_complex(b[i]))
            return uf__ierr_t(C, UF_ERR_TYPING, x->pos, "arange(): the "
                              "bounds and step must be integers or floats, "
                              "not %s", uf__tname(b[i]));
    }
    if (b[0] == NULL)
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "%s", "arange() missing "
                          "required argument 'start'");
    if (b[1] == NULL && b[2] != NULL)
        return uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->pos, "%s", "arange() "
                          "with a step needs a stop");
    uf_dtype want;
    const uf__type *r = uf__infer_dtype_arg(C, "arange",
                                            uf__call_arg(e, 3, "dtype"),
                                            &want);
    if (r == NULL || r == UF__UNKNOWN)
        return r;
    return result(C, want != UF_NTYPES ? want : uf__arange_dtype(b, 3), 1);
}

static const uf__type *type_linspace(uf__ictx *C, const uf__expr *e)
{
    int np;
    const char *const *names = uf__alloc_params(UF__BI_NP_LINSPACE, &np);
    if (uf__call_check_params(C, e, "linspace", names, np) != 0)
        return NULL;
    for (int i = 0; i < 3; i++) {
        const uf__expr *x = uf__call_arg(e, i, names[i]);
        if (x == NULL) {
            if (i < 2)
                return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "linspace() "
                                  "missing required argument '%s'",
                                  names[i]);
            continue;
        }
        const uf__type *t;
        OPERAND(t, x);
        bool ok = t->kind == UF__T_SCALAR &&
                  (i < 2 ? !uf__type_is_complex(t) : uf__type_is_int(t));
        if (!ok)
            return uf__ierr_t(C, UF_ERR_TYPING, x->pos, "linspace(): %s, "
                              "not %s", i < 2 ? "the bounds must be real "
                              "numbers" : "the argument \"num\" must be an "
                              "integer", uf__tname(t));
    }
    return result(C, UF_FLOAT64, 1);
}

const uf__type *uf__infer_alloc(uf__ictx *C, const uf__expr *e,
                                uf__builtin b)
{
    const char *fn = uf__builtin_name(b) + strlen("numpy.");
    uf__kernel_kind k = C->tf->decl->kind;
    if (k == UF__K_CUDA_KERNEL || k == UF__K_DEVICE)
        return uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->pos, "np.%s() allocates "
                          "an array, which CUDA kernels cannot do: use "
                          "cuda.local.array(shape, dtype) with a shape known "
                          "at compile time", fn);
    switch (b) {
    case UF__BI_NP_EMPTY:
    case UF__BI_NP_ZEROS:
    case UF__BI_NP_ONES:
        return type_fill(C, e, b, fn, false, false);
    case UF__BI_NP_FULL:
        return type_fill(C, e, b, fn, false, true);
    case UF__BI_NP_EMPTY_LIKE:
    case UF__BI_NP_ZEROS_LIKE:
    case UF__BI_NP_ONES_LIKE:
        return type_fill(C, e, b, fn, true, false);
    case UF__BI_NP_FULL_LIKE:
        return type_fill(C, e, b, fn, true, true);
    case UF__BI_NP_ARANGE:
        return type_arange(C, e);
    default:
        return type_linspace(C, e);
    }
}
