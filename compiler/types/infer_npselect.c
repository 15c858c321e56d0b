/* Typing of np.median, np.nanmedian, np.percentile, np.nanpercentile,
 * np.quantile and np.nanquantile (builtins.h: UF__NPSELECT_MAP), as Numba
 * 0.68 types them (numba/np/arraymath.py np_median, np_nanmedian,
 * _percentile_quantile_inner):
 *   np.median(a), np.nanmedian(a): a an array of any dimensions (0-d
 *   too) of bool, integers or floats; float64.
 *   np.percentile(a, q) and the others: a an array, a number or a tuple
 *   of numbers (Numba's np.asarray(a)); q a number or bool, or a 0-d
 *   array: float64; q an array of any dimensions or a tuple of numbers:
 *   a new 1-D float64 array of q's size (Numba flattens q).
 * Complex elements, axis= and every other keyword but the parameters'
 * own names are TypingErrors, as in Numba. Lists are refused where they
 * are written (infer_expr.c: use a tuple). The runtime is on the host:
 * CUDA kernels and device functions refuse these at the call. */
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

/* An array, number or tuple of numbers the functions read as float64;
 * arrays only for the medians. */
static const uf__type *operand(uf__ictx *C, const char *fn,
                               const uf__expr *x, bool array_only,
                               const char *what)
{
    const uf__type *t;
    OPERAND(t, x);
    bool ok = t->kind == UF__T_ARRAY ||
              (!array_only && (real_scalar(t) || real_tuple(t)));
    if (!ok || (t->kind == UF__T_SCALAR && !real_scalar(t)))
        return uf__ierr_t(C, UF_ERR_TYPING, x->pos, "%s() takes %s as "
                          "'%s', not %s", fn, array_only ? "an array" :
                          "an array, a number or a tuple of numbers",
                          what, uf__tname(t));
    if ((t->kind == UF__T_ARRAY || t->kind == UF__T_SCALAR) &&
        uf_dtype_kind(t->dtype) == 'c')
        return uf__ierr_t(C, UF_ERR_TYPING, x->pos, "%s() is not supported "
                          "for complex dtype (%s), as in Numba", fn,
                          uf__tname(t));
    return t;
}

/* The arguments a (and q) by position or by name; axis= and the other
 * parameters NumPy has and Numba does not are TypingErrors. */
static int bind(uf__ictx *C, const uf__expr *e, const char *fn, int np,
                const uf__expr **x)
{
    static const char *const names[] = {"a", "q"};
    if (e->u.call.nargs > np)
        return uf__ierr(C, UF_ERR_TYPING, e->u.call.args[np]->pos, "%s() "
                        "takes %d positional argument%s in Numba (no axis, "
                        "out or the others)", fn, np, np > 1 ? "s" : "");
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
                            kw->name, strcmp(kw->name, "axis") == 0
                                ? ": Numba's takes no axis (a whole "
                                  "array only)"
                                : "");
        if (x[i] != NULL)
            return uf__ierr(C, UF_ERR_TYPING, kw->pos, "%s() got multiple "
                            "values for argument '%s'", fn, kw->name);
        x[i] = kw->value;
    }
    for (int i = 0; i < np; i++)
        if (x[i] == NULL)
            return uf__ierr(C, UF_ERR_TYPING, e->pos, "%s() missing "
                            "required argument '%s'", fn, names[i]);
    return 0;
}

const uf__type *uf__infer_npselect(uf__ictx *C, const uf__expr *e,
                                   uf__builtin b)
{
    uf__iinfo(C, e)->builtin = b;
    char fn[32];
    snprintf(fn, sizeof fn, "np.%s", uf__builtin_name(b) + 6);
    uf__kernel_kind k = C->tf->decl->kind;
    if (k == UF__K_CUDA_KERNEL || k == UF__K_DEVICE)
        return uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->pos, "%s() copies the "
                          "array in the host runtime, which CUDA kernels "
                          "cannot do", fn);
    bool median = b == UF__BI_NP_MEDIAN || b == UF__BI_NP_NANMEDIAN;
    const uf__expr *x[2];
    if (bind(C, e, fn, median ? 1 : 2, x) != 0)
        return NULL;
    const uf__type *a = operand(C, fn, x[0], median, "a");
    if (a == NULL || a == UF__UNKNOWN)
        return a;
    const uf__type *r = uf__type_scalar(C->tc, UF_FLOAT64);
    if (!median) {
        const uf__type *q = operand(C, fn, x[1], false, "q");
        if (q == NULL || q == UF__UNKNOWN)
            return q;
        if (q->kind == UF__T_TUPLE || (q->kind == UF__T_ARRAY && q->ndim))
            r = uf__type_array(C->tc, UF_FLOAT64, 1, 'C', C->err);
    }
    return r ? uf__iset(C, e, r) : uf__ioom(C);
}
