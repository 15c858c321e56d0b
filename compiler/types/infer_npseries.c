/* Typing of numpy.polynomial.polyutils.as_series(alist, trim=True) as
 * Numba 0.68's polyutils_as_series (numba/np/polynomial/
 * polynomial_functions.py): a reflected list of new 1-D C arrays of
 * np.result_type(float64, the input's dtypes) (float64 or complex128):
 *   alist a 1-D array: one 1-element array per element; a 2-D array: a
 *   copy of each row; a tuple of numbers and arrays of at most 1
 *   dimension: each item np.atleast_1d'd and copied. More dimensions are
 *   Numba's "Coefficient array is not 1-d"; a 0-d array, a number, a
 *   tuple with something else are its TypingErrors. Lists are refused
 *   where they are written (infer_expr.c: use a tuple).
 *   trim a bool (run-time): each array cut to polyutils.trimseq's length.
 * An empty array is Numba's run-time ValueError, no array at all its
 * StopIteration (min() of an empty list; lower_npseries.c). */
#include "compiler/types/infer_internal.h"

const uf__type *uf__infer_as_series(uf__ictx *C, const uf__expr *e,
                                    const char *fn)
{
    static const char *const names[] = {"alist", "trim"};
    const uf__expr *x[2];
    if (!uf__infer_bind(C, e, fn, names, 2, 1, x))
        return NULL;
    const uf__type *t = uf__infer_expr(C, x[0]);
    if (t == NULL || t == UF__UNKNOWN)
        return t;
    if (x[1] != NULL) {
        const uf__type *tt = uf__infer_expr(C, x[1]);
        if (tt == NULL || tt == UF__UNKNOWN)
            return tt;
        if (tt->kind != UF__T_SCALAR || tt->dtype != UF_BOOL)
            return uf__ierr_t(C, UF_ERR_TYPING, x[1]->pos, "%s(): The "
                              "argument \"trim\" must be boolean, not %s",
                              fn, uf__tname(tt));
    }
    uf_dtype res = UF_FLOAT64;
    if (t->kind == UF__T_ARRAY) {
        if (t->ndim > 2)
            return uf__ierr_t(C, UF_ERR_TYPING, x[0]->pos, "%s(): "
                              "Coefficient array is not 1-d (%s; Numba's "
                              "NumbaValueError)", fn, uf__tname(t));
        if (t->ndim == 0)
            return uf__ierr_t(C, UF_ERR_TYPING, x[0]->pos, "%s() of a 0-d "
                              "array is refused by Numba (it cannot "
                              "iterate over it)", fn);
        res = uf_promote_types(res, t->dtype);
    } else if (t->kind == UF__T_TUPLE && t->n > 0) {
        for (int i = 0; i < t->n; i++) {
            const uf__type *it = t->elts[i];
            if (it->kind == UF__T_ARRAY && it->ndim > 1)
                return uf__ierr_t(C, UF_ERR_TYPING, x[0]->pos, "%s(): "
                                  "Coefficient array is not 1-d (item %d "
                                  "is %s; Numba's NumbaValueError)", fn, i,
                                  uf__tname(it));
            if (it->kind != UF__T_ARRAY && it->kind != UF__T_SCALAR)
                return uf__ierr_t(C, UF_ERR_TYPING, x[0]->pos, "%s(): item "
                                  "%d of alist is %s (numbers and arrays "
                                  "are supported)", fn, i, uf__tname(it));
            res = uf_promote_types(res, it->dtype);
        }
    } else {
        return uf__ierr_t(C, UF_ERR_TYPING, x[0]->pos, "%s(): The argument "
                          "\"alist\" must be array-like (an array of 1 or 2 "
                          "dimensions or a tuple), not %s", fn,
                          uf__tname(t));
    }
    const uf__type *at = uf__type_array(C->tc, res, 1, 'C', C->err);
    const uf__type *r = at ? uf__type_list(C->tc, at, C->err) : NULL;
    return r ? uf__iset(C, e, r) : uf__ioom(C);
}
