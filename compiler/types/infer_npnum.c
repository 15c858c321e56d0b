/* Typing of NumPy's interpolation and binning inside kernels (builtins.h:
 * UF__NPNUM_MAP), as Numba 0.68 types them (numba/np/arraymath.py):
 *   np.interp(x, xp, fp): x a real number, an array of any dimensions or
 *   a tuple of real numbers; xp a 1-D real array or a tuple of real
 *   numbers; fp a 1-D array (complex too) or a tuple of real numbers.
 *   The result is float64, complex128 when fp is complex; a number for a
 *   number x (but bool: Numba gives a 0-d array there), else a new array
 *   of x's shape (1-D for a tuple). Numba's np.interp has no left, right
 *   or period: those keywords are TypingErrors, as are complex x or xp
 *   and xp or fp of more than one dimension.
 *   np.digitize(x, bins, right=False): x a real number (bool too) or an
 *   array of one or more dimensions or a tuple of real numbers; bins a 1-D
 *   real array or tuple; right a number or bool. int64, a new array of
 *   x's shape for an array or tuple. Complex x, a 0-d x and N-d bins are
 *   TypingErrors (Numba's np.searchsorted takes a complex number x; ufjit
 *   refuses it).
 *   np.bincount(a, weights=None, minlength=0): a a 1-D array of integers
 *   (not bool or uint64, as Numba) or a tuple of integers; weights None
 *   or a 1-D real array or tuple; minlength an integer. A new 1-D array:
 *   int64 counts, float64 sums with weights.
 * The runtime is on the host: CUDA kernels and device functions refuse
 * these at the call. */
#include <stdio.h>
#include <string.h>

#include "compiler/types/infer_internal.h"

#define OPERAND(var, expr)                                                  \
    do {                                                                    \
        (var) = uf__infer_expr(C, (expr));                                  \
        if ((var) == NULL || (var) == UF__UNKNOWN)                          \
            return (var);                                                   \
    } while (0)

static bool real_scalar(const uf__type *t)
{
    return t->kind == UF__T_SCALAR && uf_dtype_kind(t->dtype) != 'c';
}

/* A tuple of real numbers (Numba's np.asarray of it is a 1-D array). */
static bool real_tuple(const uf__type *t)
{
    if (t->kind != UF__T_TUPLE)
        return false;
    for (int i = 0; i < t->n; i++)
        if (!real_scalar(t->elts[i]))
            return false;
    return true;
}

/* The arguments by position or by name into x[0..np); a keyword NumPy
 * has and Numba does not gets `why`. */
static int bind(uf__ictx *C, const uf__expr *e, const char *fn, int np,
                const char *const *names, const uf__expr **x,
                const char *why)
{
    if (e->u.call.nargs > np)
        return uf__ierr(C, UF_ERR_TYPING, e->u.call.args[np]->pos, "%s() "
                        "takes at most %d arguments in Numba%s", fn, np,
                        why);
    for (int i = 0; i < np; i++)
        x[i] = i < e->u.call.nargs ? e->u.call.args[i] : NULL;
    for (int k = 0; k < e->u.call.nkw; k++) {
        const uf__keyword *kw = &e->u.call.kw[k];
        int i = 0;
        while (i < np && strcmp(names[i], kw->name) != 0)
            i++;
        if (i == np)
            return uf__ierr(C, UF_ERR_TYPING, kw->pos, "%s() got an "
                            "unexpected keyword argument '%s'%s", fn,
                            kw->name, why);
        if (x[i] != NULL)
            return uf__ierr(C, UF_ERR_TYPING, kw->pos, "%s() got multiple "
                            "values for argument '%s'", fn, kw->name);
        x[i] = kw->value;
    }
    return 0;
}

static int require(uf__ictx *C, const uf__expr *e, const char *fn, int np,
                   const char *const *names, const uf__expr **x)
{
    for (int i = 0; i < np; i++)
        if (x[i] == NULL)
            return uf__ierr(C, UF_ERR_TYPING, e->pos, "%s() missing "
                            "required argument '%s'", fn, names[i]);
    return 0;
}

/* xp or fp: a 1-D array (real for xp) or a tuple of real numbers. */
static const uf__type *table(uf__ictx *C, const uf__expr *x,
                             const char *what, bool real)
{
    const uf__type *t;
    OPERAND(t, x);
    if (t->kind == UF__T_ARRAY && t->ndim > 1)
        return uf__ierr_t(C, UF_ERR_TYPING, x->pos, "np.interp(): %s must "
                          "be 1D", what);
    if (real_tuple(t) && t->n > 0)
        return t;
    if (t->kind != UF__T_ARRAY || t->ndim != 1)
        return uf__ierr_t(C, UF_ERR_TYPING, x->pos, "np.interp() takes a "
                          "1-D array or a tuple of numbers as '%s', not %s",
                          what, uf__tname(t));
    if (real && uf_dtype_kind(t->dtype) == 'c')
        return uf__ierr_t(C, UF_ERR_TYPING, x->pos, "np.interp(): Cannot "
                          "cast array data from complex dtype to float64 "
                          "dtype ('%s')", what);
    return t;
}

static const uf__type *infer_interp(uf__ictx *C, const uf__expr *e)
{
    static const char *const names[] = {"x", "xp", "fp"};
    const uf__expr *a[3];
    const char *why = " (no left, right or period: Numba's np.interp "
                      "takes x, xp and fp only)";
    if (bind(C, e, "np.interp", 3, names, a, why) != 0 ||
        require(C, e, "np.interp", 3, names, a) != 0)
        return NULL;
    const uf__type *x, *xp, *fp;
    OPERAND(x, a[0]);
    bool ok = x->kind == UF__T_ARRAY || real_tuple(x) ||
              x->kind == UF__T_SCALAR;
    if (!ok)
        return uf__ierr_t(C, UF_ERR_TYPING, a[0]->pos, "np.interp() takes "
                          "a number, an array or a tuple of numbers as 'x', "
                          "not %s", uf__tname(x));
    if (x->kind != UF__T_TUPLE && uf_dtype_kind(x->dtype) == 'c')
        return uf__ierr_t(C, UF_ERR_TYPING, a[0]->pos, "np.interp(): Cannot "
                          "cast array data from complex dtype to float64 "
                          "dtype ('x')");
    xp = table(C, a[1], "xp", true);
    if (xp == NULL || xp == UF__UNKNOWN)
        return xp;
    fp = table(C, a[2], "fp", false);
    if (fp == NULL || fp == UF__UNKNOWN)
        return fp;
    uf_dtype dt = fp->kind == UF__T_ARRAY && uf_dtype_kind(fp->dtype) == 'c'
                      ? UF_COMPLEX128
                      : UF_FLOAT64;
    const uf__type *r;
    if (x->kind == UF__T_SCALAR && x->dtype != UF_BOOL)
        r = uf__type_scalar(C->tc, dt);
    else
        r = uf__type_array(C->tc, dt, x->kind == UF__T_ARRAY ? x->ndim
                                      : x->kind == UF__T_TUPLE ? 1 : 0,
                           'C', C->err);
    return r ? uf__iset(C, e, r) : uf__ioom(C);
}

static bool int_scalar(const uf__type *t)
{
    return t->kind == UF__T_SCALAR &&
           (uf_dtype_kind(t->dtype) == 'i' || uf_dtype_kind(t->dtype) == 'u');
}

/* A real number, bool included. */
static const uf__type *number(uf__ictx *C, const char *fn,
                              const uf__expr *x, const char *what,
                              bool integer)
{
    const uf__type *t;
    OPERAND(t, x);
    if (integer ? !int_scalar(t) : !real_scalar(t))
        return uf__ierr_t(C, UF_ERR_TYPING, x->pos, "%s() takes %s as '%s', "
                          "not %s", fn, integer ? "an integer" : "a number",
                          what, uf__tname(t));
    return t;
}

static const uf__type *infer_digitize(uf__ictx *C, const uf__expr *e)
{
    static const char *const names[] = {"x", "bins", "right"};
    const uf__expr *a[3];
    if (bind(C, e, "np.digitize", 3, names, a, "") != 0 ||
        require(C, e, "np.digitize", 2, names, a) != 0)
        return NULL;
    const uf__type *x, *bins;
    OPERAND(x, a[0]);
    if (!(x->kind == UF__T_ARRAY && x->ndim > 0) && !real_tuple(x) &&
        x->kind != UF__T_SCALAR)
        return uf__ierr_t(C, UF_ERR_TYPING, a[0]->pos, "np.digitize() "
                          "takes a number, an array of one or more "
                          "dimensions or a tuple of numbers as 'x', not %s",
                          uf__tname(x));
    if (x->kind != UF__T_TUPLE && uf_dtype_kind(x->dtype) == 'c')
        return uf__ierr_t(C, UF_ERR_TYPING, a[0]->pos, "np.digitize(): x "
                          "may not be complex");
    OPERAND(bins, a[1]);
    if (!(real_tuple(bins) && bins->n > 0) &&
        !(bins->kind == UF__T_ARRAY && bins->ndim == 1 &&
          uf_dtype_kind(bins->dtype) != 'c'))
        return uf__ierr_t(C, UF_ERR_TYPING, a[1]->pos, "np.digitize() "
                          "takes a 1-D real array or a tuple of numbers as "
                          "'bins', not %s", uf__tname(bins));
    if (a[2]) {
        const uf__type *r = number(C, "np.digitize", a[2], "right", false);
        if (r == NULL || r == UF__UNKNOWN)
            return r;
    }
    const uf__type *r = x->kind == UF__T_SCALAR
                            ? uf__type_scalar(C->tc, UF_INT64)
                            : uf__type_array(C->tc, UF_INT64,
                                             x->kind == UF__T_ARRAY ? x->ndim
                                                                    : 1,
                                             'C', C->err);
    return r ? uf__iset(C, e, r) : uf__ioom(C);
}

/* A tuple of integers. */
static bool int_tuple(const uf__type *t)
{
    if (t->kind != UF__T_TUPLE || t->n == 0)
        return false;
    for (int i = 0; i < t->n; i++)
        if (!int_scalar(t->elts[i]))
            return false;
    return true;
}

static const uf__type *infer_bincount(uf__ictx *C, const uf__expr *e)
{
    static const char *const names[] = {"a", "weights", "minlength"};
    const uf__expr *a[3];
    if (bind(C, e, "np.bincount", 3, names, a, "") != 0 ||
        require(C, e, "np.bincount", 1, names, a) != 0)
        return NULL;
    const uf__type *x, *w = NULL;
    OPERAND(x, a[0]);
    bool ok = int_tuple(x) ||
              (x->kind == UF__T_ARRAY && x->ndim == 1 &&
               (uf_dtype_kind(x->dtype) == 'i' ||
                uf_dtype_kind(x->dtype) == 'u') && x->dtype != UF_UINT64);
    if (!ok)
        return uf__ierr_t(C, UF_ERR_TYPING, a[0]->pos, "np.bincount() "
                          "takes a 1-D array of integers (not uint64) or a "
                          "tuple of integers as 'a', not %s", uf__tname(x));
    if (a[1]) {
        OPERAND(w, a[1]);
        if (w->kind == UF__T_NONE)
            w = NULL;
        else if (!(real_tuple(w) && w->n > 0) &&
                 !(w->kind == UF__T_ARRAY && w->ndim == 1 &&
                   uf_dtype_kind(w->dtype) != 'c'))
            return uf__ierr_t(C, UF_ERR_TYPING, a[1]->pos, "np.bincount() "
                              "takes None, a 1-D real array or a tuple of "
                              "numbers as 'weights', not %s", uf__tname(w));
    }
    if (a[2]) {
        const uf__type *m = number(C, "np.bincount", a[2], "minlength",
                                   true);
        if (m == NULL || m == UF__UNKNOWN)
            return m;
    }
    const uf__type *r = uf__type_array(C->tc, w ? UF_FLOAT64 : UF_INT64, 1,
                                       'C', C->err);
    return r ? uf__iset(C, e, r) : uf__ioom(C);
}

const uf__type *uf__infer_npnum(uf__ictx *C, const uf__expr *e,
                                uf__builtin b)
{
    uf__iinfo(C, e)->builtin = b;
    char fn[32];
    snprintf(fn, sizeof fn, "np.%s", uf__builtin_name(b) + 6);
    uf__kernel_kind k = C->tf->decl->kind;
    if (k == UF__K_CUDA_KERNEL || k == UF__K_DEVICE)
        return uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->pos, "%s() runs in the "
                          "host runtime, which CUDA kernels cannot call", fn);
    switch (b) {
    case UF__BI_NP_INTERP:
        return infer_interp(C, e);
    case UF__BI_NP_DIGITIZE:
        return infer_digitize(C, e);
    case UF__BI_NP_BINCOUNT:
        return infer_bincount(C, e);
    default:
        return uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->pos, "%s() is not "
                          "supported", fn);
    }
}
