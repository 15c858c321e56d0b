/* Typing of NumPy functions of their own (builtins.h: UF__NPFUNC_MAP), as
 * Numba 0.68 types them (numba/np/arraymath.py):
 * np.ediff1d(ary, to_end=None, to_begin=None): ary an array, a number or
 * a tuple of numbers of one type, not a bool array (Numba's "Boolean
 * dtype is unsupported"; a bool or a tuple of bools it takes); to_end / to_begin None, a number, an array or such a
 * tuple whose dtype np.can_cast(..., 'safe') to ary's (an empty tuple is
 * float64), else a TypingError; a new 1-D array of ary's dtype.
 * np.trapezoid(y, x=None, dx=1.0): y an array of at least one dimension
 * (a number, a 0-d array are TypingErrors, as in Numba; a tuple Numba
 * takes is refused here), x None or a C or F-contiguous array of at least
 * one dimension (Numba's np.diff(x) reshapes it: a strided view is a
 * TypingError),
 * dx a number (an array dx, which Numba broadcasts, is refused here); the
 * result complex128 where y, x or (without x) dx is complex, else float64,
 * of max(y.ndim, x.ndim) - 1 dimensions (0: a number). All run in the
 * host runtime: CUDA kernels and device functions refuse them. */
#include <stdio.h>
#include <string.h>

#include "compiler/types/infer_internal.h"

bool uf__infer_bind(uf__ictx *C, const uf__expr *e, const char *fn,
                    const char *const *names, int n, int nreq,
                    const uf__expr **x)
{
    for (int i = 0; i < n; i++)
        x[i] = NULL;
    if (e->u.call.nargs > n) {
        uf__ierr_t(C, UF_ERR_TYPING, e->u.call.args[n]->pos, "%s() takes "
                   "at most %d arguments", fn, n);
        return false;
    }
    for (int i = 0; i < e->u.call.nargs; i++)
        x[i] = e->u.call.args[i];
    for (int j = 0; j < e->u.call.nkw; j++) {
        const uf__keyword *kw = &e->u.call.kw[j];
        int i = 0;
        while (i < n && strcmp(names[i], kw->name) != 0)
            i++;
        if (i == n) {
            uf__ierr_t(C, UF_ERR_TYPING, kw->pos, "%s() got an unexpected "
                       "keyword argument '%s'", fn, kw->name);
            return false;
        }
        if (x[i] != NULL) {
            uf__ierr_t(C, UF_ERR_TYPING, kw->pos, "%s() got multiple "
                       "values for argument '%s'", fn, kw->name);
            return false;
        }
        x[i] = kw->value;
    }
    for (int i = 0; i < nreq; i++)
        if (x[i] == NULL) {
            uf__ierr_t(C, UF_ERR_TYPING, e->pos, "%s() missing required "
                       "argument '%s'", fn, names[i]);
            return false;
        }
    return true;
}

/* The dtype of an array-like operand of np.ediff1d (Numba's
 * _dtype_of_compound): an array's, a number's, a homogeneous tuple's
 * (float64 when empty). False (TypingError at x) for anything else. */
static bool compound_dtype(uf__ictx *C, const char *fn, const uf__expr *x,
                           const uf__type *t, uf_dtype *dt)
{
    if (t->kind == UF__T_ARRAY || t->kind == UF__T_SCALAR) {
        *dt = t->dtype;
        return true;
    }
    if (t->kind == UF__T_TUPLE) {
        bool ok = true;
        for (int i = 0; i < t->n; i++)
            ok = ok && t->elts[i]->kind == UF__T_SCALAR &&
                 t->elts[i]->dtype == t->elts[0]->dtype;
        if (ok) {
            *dt = t->n ? t->elts[0]->dtype : UF_FLOAT64;
            return true;
        }
    }
    uf__ierr_t(C, UF_ERR_TYPING, x->pos, "%s(): %s has no dtype (Numba "
               "takes an array, a number or a tuple of numbers of one type)",
               fn, uf__tname(t));
    return false;
}

static const uf__type *ediff1d(uf__ictx *C, const uf__expr *e,
                               const char *fn)
{
    static const char *const names[] = {"ary", "to_end", "to_begin"};
    const uf__expr *x[3];
    if (!uf__infer_bind(C, e, fn, names, 3, 1, x))
        return NULL;
    const uf__type *t = uf__infer_expr(C, x[0]);
    if (t == NULL || t == UF__UNKNOWN)
        return t;
    uf_dtype dt;
    if (!compound_dtype(C, fn, x[0], t, &dt))
        return NULL;
    if (dt == UF_BOOL && t->kind == UF__T_ARRAY) /* Numba's check */
        return uf__ierr_t(C, UF_ERR_TYPING, x[0]->pos, "%s(): Boolean "
                          "dtype is unsupported (as per NumPy)", fn);
    for (int i = 2; i >= 1; i--) { /* Numba checks to_begin first */
        if (x[i] == NULL)
            continue;
        const uf__type *u = uf__infer_expr(C, x[i]);
        if (u == NULL || u == UF__UNKNOWN)
            return u;
        if (u->kind == UF__T_NONE)
            continue;
        uf_dtype ut;
        if (!compound_dtype(C, fn, x[i], u, &ut))
            return NULL;
        if (!uf_can_cast(ut, dt, UF_CASTING_SAFE))
            return uf__ierr_t(C, UF_ERR_TYPING, x[i]->pos, "%s(): dtype of "
                              "%s must be compatible with input ary (%s "
                              "does not cast safely to %s)", fn, names[i],
                              uf_dtype_name(ut), uf_dtype_name(dt));
    }
    const uf__type *r = uf__type_array(C->tc, dt, 1, 'C', C->err);
    return r ? uf__iset(C, e, r) : uf__ioom(C);
}

static const uf__type *trapezoid(uf__ictx *C, const uf__expr *e,
                                 const char *fn)
{
    static const char *const names[] = {"y", "x", "dx"};
    const uf__expr *x[3];
    if (!uf__infer_bind(C, e, fn, names, 3, 1, x))
        return NULL;
    const uf__type *t[3] = {NULL, NULL, NULL};
    for (int i = 0; i < 3; i++) {
        if (x[i] == NULL)
            continue;
        t[i] = uf__infer_expr(C, x[i]);
        if (t[i] == NULL || t[i] == UF__UNKNOWN)
            return t[i];
        if (i > 0 && t[i]->kind == UF__T_NONE)
            t[i] = NULL;
    }
    if (t[0]->kind == UF__T_SCALAR)
        return uf__ierr_t(C, UF_ERR_TYPING, x[0]->pos, "%s(): y cannot be "
                          "a scalar", fn);
    if (t[0]->kind == UF__T_ARRAY && t[0]->ndim == 0)
        return uf__ierr_t(C, UF_ERR_TYPING, x[0]->pos, "%s(): y cannot be "
                          "0D", fn);
    if (t[0]->kind != UF__T_ARRAY)
        return uf__ierr_t(C, UF_ERR_UNSUPPORTED, x[0]->pos, "%s(): y must "
                          "be an array here, not %s (Numba also takes a "
                          "tuple)", fn, uf__tname(t[0]));
    if (t[1] != NULL && (t[1]->kind != UF__T_ARRAY || t[1]->ndim == 0))
        return uf__ierr_t(C, t[1]->kind == UF__T_TUPLE ? UF_ERR_UNSUPPORTED
                                                       : UF_ERR_TYPING,
                          x[1]->pos, "%s(): x must be None or an array of "
                          "at least one dimension here, not %s", fn,
                          uf__tname(t[1]));
    if (t[1] != NULL && t[1]->layout != 'C' && t[1]->layout != 'F')
        return uf__ierr_t(C, UF_ERR_TYPING, x[1]->pos, "%s(): x of layout "
                          "'%c' (a strided view) fails Numba's typing (its "
                          "np.diff(x) reshapes x)", fn, t[1]->layout);
    if (t[2] != NULL && t[2]->kind != UF__T_SCALAR)
        return uf__ierr_t(C, UF_ERR_UNSUPPORTED, x[2]->pos, "%s(): dx must "
                          "be a number here, not %s (Numba also takes an "
                          "array)", fn, uf__tname(t[2]));
    bool cplx = uf_dtype_kind(t[0]->dtype) == 'c';
    int nd = t[0]->ndim;
    if (t[1] != NULL) {
        cplx = cplx || uf_dtype_kind(t[1]->dtype) == 'c';
        nd = t[1]->ndim > nd ? t[1]->ndim : nd;
    } else if (t[2] != NULL) {
        cplx = cplx || uf_dtype_kind(t[2]->dtype) == 'c';
    }
    uf_dtype dt = cplx ? UF_COMPLEX128 : UF_FLOAT64;
    const uf__type *r = nd == 1 ? uf__type_scalar(C->tc, dt)
                                : uf__type_array(C->tc, dt, nd - 1, 'C',
                                                 C->err);
    return r ? uf__iset(C, e, r) : uf__ioom(C);
}

const uf__type *uf__infer_npfunc(uf__ictx *C, const uf__expr *e,
                                 uf__builtin b)
{
    uf__iinfo(C, e)->builtin = b;
    char fn[32];
    snprintf(fn, sizeof fn, "np.%s", uf__builtin_name(b) + 6);
    uf__kernel_kind k = C->tf->decl->kind;
    if (k == UF__K_CUDA_KERNEL || k == UF__K_DEVICE)
        return uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->pos, "%s() runs in "
                          "the host runtime, which CUDA kernels cannot "
                          "call", fn);
    switch (b) {
    case UF__BI_NP_EDIFF1D:
        return ediff1d(C, e, fn);
    default:
        return trapezoid(C, e, fn);
    }
}
