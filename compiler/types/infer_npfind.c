/* Typing of np.nonzero, a.nonzero(), np.where(condition) (one argument),
 * np.flatnonzero, np.argwhere, np.extract and np.unique (builtins.h:
 * UF__NPFIND_MAP), as Numba 0.68 types them (numba/core/typing/
 * arraydecl.py resolve_nonzero, numba/np/arraymath.py np_argwhere,
 * np_flatnonzero, ov_np_where, np_extract; arrayobj.py np_unique):
 *   np.nonzero(a), a.nonzero(): a an array of 1 or more dimensions;
 *   a tuple of a.ndim new 1-D int64 arrays. A 0-d array is Numba's
 *   NumbaValueError under NumPy 2.1+, a TypingError; `a=` too.
 *   np.where(condition): np.asarray(condition).nonzero(): an array as
 *   above or a tuple of numbers (one 1-D int64 array).
 *   np.flatnonzero(a): an array (0-d too), a number or a tuple of
 *   numbers: a 1-D int64 array.
 *   np.argwhere(a): an array of 1 or more dimensions: a 2-D int64 array
 *   (count, a.ndim); a tuple: (count, 1); a number: (1, 0) or (0, 0).
 *   np.extract(condition, arr): each an array, a number or a tuple of
 *   numbers: a 1-D array of arr's dtype (a tuple's promoted dtype; a
 *   number's int64, float64, complex128 or bool).
 *   np.unique(ar): an array of any dimensions: a 1-D array of its dtype.
 *   np.union1d(ar1, ar2), np.intersect1d / np.setxor1d / np.setdiff1d(ar1,
 *   ar2, assume_unique=False): arrays or tuples of numbers (a number is
 *   Numba's compile-time failure); a 1-D array of their promoted dtype
 *   (setdiff1d: ar1's). np.isin(element, test_elements, assume_unique=
 *   False, invert=False): arrays, tuples or numbers; bool of element's
 *   shape. The flags are bools (known at run time); anything else is a
 *   TypingError, as Numba's. np.in1d is gone from NumPy 2.4, as here.
 *   np.delete(arr, obj) (np_delete): arr an array; obj an integer, an
 *   array of integers or a tuple of integers (Numba's slice objects are
 *   not in ufjit's kernel language): a 1-D array of arr's dtype.
 * Arguments by position or by their names in Numba (but np.nonzero's);
 * every other keyword (return_counts=, axis= ...) is a TypingError. Lists
 * are refused where they are written (infer_expr.c: use a tuple). Host
 * runtime: CUDA kernels and device functions refuse these at the call. */
#include <stdio.h>
#include <string.h>

#include "compiler/types/infer_internal.h"

#define OPERAND(var, expr)                                                  \
    do {                                                                    \
        (var) = uf__infer_expr(C, (expr));                                  \
        if ((var) == NULL || (var) == UF__UNKNOWN)                          \
            return (var);                                                   \
    } while (0)

/* One call being typed. */
typedef struct fcall {
    uf__ictx *C;
    const uf__expr *e;
    uf__builtin b;
    bool method; /* a.nonzero() */
    char name[32];
} fcall;

/* Binds the arguments to names[0..n) into x[]: positionals first, then
 * keywords (when kw_ok); a missing one, an extra one or an unknown
 * keyword is a TypingError, as in Numba. */
static int bind(fcall *m, const char *const *names, int n, bool kw_ok,
                const uf__expr **x)
{
    uf__ictx *C = m->C;
    const uf__expr *e = m->e;
    if (e->u.call.nargs > n)
        return uf__ierr(C, UF_ERR_TYPING, e->u.call.args[n]->pos, "%s() "
                        "takes %d argument%s in Numba", m->name, n,
                        n == 1 ? "" : "s");
    for (int i = 0; i < n; i++)
        x[i] = i < e->u.call.nargs ? e->u.call.args[i] : NULL;
    for (int k = 0; k < e->u.call.nkw; k++) {
        const uf__keyword *kw = &e->u.call.kw[k];
        int i = 0;
        while (kw_ok && i < n && strcmp(names[i], kw->name) != 0)
            i++;
        if (!kw_ok || i == n)
            return uf__ierr(C, UF_ERR_TYPING, kw->pos, "%s() got an "
                            "unexpected keyword argument '%s' (Numba's "
                            "takes none but %s)", m->name, kw->name,
                            kw_ok ? "the parameters above" : "positionals");
        if (x[i] != NULL)
            return uf__ierr(C, UF_ERR_TYPING, kw->pos, "%s() got multiple "
                            "values for argument '%s'", m->name, kw->name);
        x[i] = kw->value;
    }
    for (int i = 0; i < n; i++)
        if (x[i] == NULL)
            return uf__ierr(C, UF_ERR_TYPING, e->pos, "%s() missing "
                            "required argument '%s'", m->name, names[i]);
    return 0;
}

/* bind for parameters after the first two being optional (NULL when
 * absent). */
static int bind_opt(fcall *m, const char *const *names, int n,
                    const uf__expr **x)
{
    const uf__expr *e = m->e;
    if (e->u.call.nargs > n)
        return uf__ierr(m->C, UF_ERR_TYPING, e->u.call.args[n]->pos, "%s() "
                        "takes at most %d arguments in Numba", m->name, n);
    for (int i = 0; i < n; i++)
        x[i] = i < e->u.call.nargs ? e->u.call.args[i] : NULL;
    for (int k = 0; k < e->u.call.nkw; k++) {
        const uf__keyword *kw = &e->u.call.kw[k];
        int i = 0;
        while (i < n && strcmp(names[i], kw->name) != 0)
            i++;
        if (i == n)
            return uf__ierr(m->C, UF_ERR_TYPING, kw->pos, "%s() got an "
                            "unexpected keyword argument '%s'", m->name,
                            kw->name);
        if (x[i] != NULL)
            return uf__ierr(m->C, UF_ERR_TYPING, kw->pos, "%s() got "
                            "multiple values for argument '%s'", m->name,
                            kw->name);
        x[i] = kw->value;
    }
    for (int i = 0; i < 2; i++)
        if (x[i] == NULL)
            return uf__ierr(m->C, UF_ERR_TYPING, e->pos, "%s() missing "
                            "required argument '%s'", m->name, names[i]);
    return 0;
}

/* The dtype of np.asarray(t) for an array, a number or a tuple of numbers
 * (promoted as NumPy does), or UF_NTYPES for anything else. */
static uf_dtype asarray_dtype(const uf__type *t)
{
    if (t->kind == UF__T_ARRAY || t->kind == UF__T_SCALAR)
        return t->dtype;
    if (t->kind != UF__T_TUPLE || t->n == 0)
        return UF_NTYPES;
    uf_dtype d = UF_NTYPES;
    for (int i = 0; i < t->n; i++) {
        if (t->elts[i]->kind != UF__T_SCALAR)
            return UF_NTYPES;
        d = i ? uf_promote_types(d, t->elts[i]->dtype) : t->elts[i]->dtype;
    }
    return d;
}

/* An operand: what np.asarray takes (arrays_only: arrays only; nd1: of
 * one or more dimensions, a tuple counting as 1-D). */
static const uf__type *operand(fcall *m, const uf__expr *x, bool tuples,
                               bool numbers, bool nd1, const char *what)
{
    uf__ictx *C = m->C;
    const uf__type *t;
    OPERAND(t, x);
    bool ok = t->kind == UF__T_ARRAY ||
              (tuples && t->kind == UF__T_TUPLE &&
               asarray_dtype(t) != UF_NTYPES) ||
              (numbers && t->kind == UF__T_SCALAR);
    if (!ok)
        return uf__ierr_t(C, UF_ERR_TYPING, x->pos, "%s() takes %s as "
                          "'%s', not %s", m->name,
                          tuples ? (numbers ? "an array, a number or a "
                                              "tuple of numbers"
                                            : "an array or a tuple of "
                                              "numbers")
                                 : "an array",
                          what, uf__tname(t));
    if (nd1 && t->kind == UF__T_ARRAY && t->ndim == 0)
        return uf__ierr_t(C, UF_ERR_TYPING, x->pos, "%s() of a 0-d array "
                          "is refused by Numba under NumPy 2.1+ (use "
                          "np.atleast_1d(a))", m->name);
    return t;
}

static const uf__type *iarr(fcall *m, int nd)
{
    return uf__type_array(m->C->tc, UF_INT64, nd, 'C', m->C->err);
}

const uf__type *uf__infer_npfind(uf__ictx *C, const uf__expr *e,
                                 uf__builtin b)
{
    uf__expr_info *in = uf__iinfo(C, e);
    fcall m = {.C = C, .e = e, .b = b};
    const uf__expr *f = e->u.call.func;
    if (b == UF__BI_NP_NONZERO && f->kind == UF__EX_ATTR) {
        const uf__type *rt = uf__iinfo(C, f->u.attr.value)->type;
        m.method = rt && rt->kind == UF__T_ARRAY;
    }
    snprintf(m.name, sizeof m.name, "%s%s", m.method ? "array." : "np.",
             uf__builtin_name(b) + 6);
    /* np.where(cond) is np.asarray(cond).nonzero() */
    in->builtin = b == UF__BI_NP_WHERE ? UF__BI_NP_NONZERO : b;
    uf__kernel_kind k = C->tf->decl->kind;
    if (k == UF__K_CUDA_KERNEL || k == UF__K_DEVICE)
        return uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->pos, "%s() allocates "
                          "its result in the host runtime, which CUDA "
                          "kernels cannot do", m.name);
    const uf__expr *x[2];
    const uf__type *a, *r = NULL;
    switch (b) {
    case UF__BI_NP_NONZERO:
    case UF__BI_NP_WHERE: {
        static const char *const cond[] = {"condition"}, *const an[] = {"a"};
        bool where = b == UF__BI_NP_WHERE;
        if (m.method) {
            if (e->u.call.nargs + e->u.call.nkw > 0)
                return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "%s() takes no "
                                  "arguments", m.name);
            x[0] = f->u.attr.value;
        } else if (bind(&m, where ? cond : an, 1, where, x) != 0) {
            return NULL;
        }
        a = operand(&m, x[0], where, false, true, where ? "condition" : "a");
        if (a == NULL || a == UF__UNKNOWN)
            return a;
        int n = a->kind == UF__T_ARRAY ? a->ndim : 1;
        const uf__type *one = iarr(&m, 1), *elts[UF_MAXDIMS];
        if (one == NULL)
            return uf__ioom(C);
        for (int i = 0; i < n; i++)
            elts[i] = one;
        r = uf__type_tuple(C->tc, n, elts, C->err);
        break;
    }
    case UF__BI_NP_FLATNONZERO:
    case UF__BI_NP_ARGWHERE: {
        static const char *const an[] = {"a"};
        if (bind(&m, an, 1, true, x) != 0)
            return NULL;
        bool arg = b == UF__BI_NP_ARGWHERE;
        a = operand(&m, x[0], true, true, arg, "a");
        if (a == NULL || a == UF__UNKNOWN)
            return a;
        r = iarr(&m, arg ? 2 : 1);
        break;
    }
    case UF__BI_NP_EXTRACT: {
        static const char *const names[] = {"condition", "arr"};
        if (bind(&m, names, 2, true, x) != 0)
            return NULL;
        const uf__type *c = operand(&m, x[0], true, true, false,
                                    "condition");
        if (c == NULL || c == UF__UNKNOWN)
            return c;
        a = operand(&m, x[1], true, true, false, "arr");
        if (a == NULL || a == UF__UNKNOWN)
            return a;
        r = uf__type_array(C->tc, asarray_dtype(a), 1, 'C', C->err);
        break;
    }
    case UF__BI_NP_UNION1D:
    case UF__BI_NP_INTERSECT1D:
    case UF__BI_NP_SETXOR1D:
    case UF__BI_NP_SETDIFF1D:
    case UF__BI_NP_ISIN: {
        static const char *const names[] = {"ar1", "ar2", "assume_unique"};
        static const char *const isin[] = {"element", "test_elements",
                                           "assume_unique", "invert"};
        bool is = b == UF__BI_NP_ISIN;
        int np = is ? 4 : b == UF__BI_NP_UNION1D ? 2 : 3;
        const uf__expr *y[4] = {NULL, NULL, NULL, NULL};
        if (bind_opt(&m, is ? isin : names, np, y) != 0)
            return NULL;
        const uf__type *t1 = operand(&m, y[0], true, is, false,
                                     is ? "element" : "ar1");
        if (t1 == NULL || t1 == UF__UNKNOWN)
            return t1;
        const uf__type *t2 = operand(&m, y[1], true, is, false,
                                     is ? "test_elements" : "ar2");
        if (t2 == NULL || t2 == UF__UNKNOWN)
            return t2;
        for (int i = 2; i < np; i++) {
            const uf__type *ft;
            if (y[i] == NULL)
                continue;
            OPERAND(ft, y[i]);
            if (ft->kind != UF__T_SCALAR || ft->dtype != UF_BOOL)
                return uf__ierr_t(C, UF_ERR_TYPING, y[i]->pos, "%s() takes "
                                  "a bool as '%s' (as Numba), not %s",
                                  m.name, (is ? isin : names)[i],
                                  uf__tname(ft));
        }
        if (is)
            r = uf__type_array(C->tc, UF_BOOL,
                               t1->kind == UF__T_ARRAY ? t1->ndim
                               : t1->kind == UF__T_TUPLE ? 1 : 0,
                               'C', C->err);
        else
            r = uf__type_array(C->tc, b == UF__BI_NP_SETDIFF1D
                                          ? asarray_dtype(t1)
                                          : uf_promote_types(
                                                asarray_dtype(t1),
                                                asarray_dtype(t2)),
                               1, 'C', C->err);
        break;
    }
    case UF__BI_NP_DELETE: {
        static const char *const names[] = {"arr", "obj"};
        if (bind(&m, names, 2, true, x) != 0)
            return NULL;
        const uf__type *o;
        OPERAND(a, x[0]);
        if (a->kind != UF__T_ARRAY)
            return uf__ierr_t(C, UF_ERR_TYPING, x[0]->pos, "%s(): arr must "
                              "be either an Array or a Sequence, not %s",
                              m.name, uf__tname(a));
        OPERAND(o, x[1]);
        uf_dtype od = asarray_dtype(o);
        if (od == UF_NTYPES ||
            !(uf_dtype_kind(od) == 'i' || uf_dtype_kind(od) == 'u'))
            return uf__ierr_t(C, UF_ERR_TYPING, x[1]->pos, "%s(): obj should "
                              "be of Integer dtype, not %s", m.name,
                              uf__tname(o));
        r = uf__type_array(C->tc, a->dtype, 1, 'C', C->err);
        break;
    }
    default: { /* np.unique */
        static const char *const names[] = {"ar"};
        if (bind(&m, names, 1, true, x) != 0)
            return NULL;
        a = operand(&m, x[0], false, false, false, "ar");
        if (a == NULL || a == UF__UNKNOWN)
            return a;
        r = uf__type_array(C->tc, a->dtype, 1, 'C', C->err);
        break;
    }
    }
    return r ? uf__iset(C, e, r) : uf__ioom(C);
}
