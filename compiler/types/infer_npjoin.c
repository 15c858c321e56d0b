/* Typing of np.concatenate, np.stack, np.hstack, np.vstack (and its
 * alias np.row_stack), np.dstack, np.column_stack and np.append
 * (builtins.h: UF__NPJOIN_MAP) as Numba 0.68 types them
 * (numba/np/arrayobj.py np_concatenate_typer, np_stack_common,
 * NdStack_typer, np_column_stack, np_append; numba/core/typing/npydecl.py
 * _sequence_of_arrays):
 *   the arrays are a non-empty tuple of arrays, written in the call or a
 *     tuple variable (lists are refused where they are written:
 *     infer_expr.c, use a tuple), of one ndim (column_stack: 1 or 2
 *     each); the dtype is theirs unified (np.promote_types: int64 and
 *     uint64 give float64); the result a new array, F when every input
 *     is F, else C;
 *   concatenate: ndim >= 1, the inputs' ndim; stack: ndim + 1; hstack,
 *     vstack, dstack: at least 1, 2, 3 dimensions; column_stack: 2;
 *   axis= (concatenate, stack) an integer: anything else, None too, fails
 *     in Numba while compiling (an assertion of its typer), refused here;
 *   np.append(arr, values, axis=None): arr and values arrays, numbers or
 *     tuples of numbers (Numba's np.asarray); axis None: a 1-D C array of
 *     both flattened, the dtype unified; an integer axis: np.concatenate
 *     ((arr, values), axis) of two arrays;
 *   np.array(object, dtype=None): a number (0-d) or tuples of numbers
 *     nested to one shape, a new C array of the leaves promoted or dtype
 *     (an array is a TypingError in Numba; a ragged tuple Numba compiles
 *     into an unconditional ValueError, refused here); np.asarray(a,
 *     dtype=None) the same, and of an array a itself (a's type) or, when
 *     dtype differs, a.astype(dtype) (F stays F, else C).
 * The copies run on the host: CUDA kernels refuse these at the call. */
#include <stdio.h>
#include <string.h>

#include "common/list_items.h"
#include "compiler/types/infer_internal.h"
#include "compiler/types/infer_npjoin.h"

#define OPERAND(var, expr)                                                  \
    do {                                                                    \
        (var) = uf__infer_expr(C, (expr));                                  \
        if ((var) == NULL || (var) == UF__UNKNOWN)                          \
            return (var);                                                   \
    } while (0)

static int params(uf__builtin b, const char *const **names)
{
    static const char *const arrays_axis[] = {"arrays", "axis"};
    static const char *const tup[] = {"tup"};
    static const char *const append[] = {"arr", "values", "axis"};
    static const char *const array[] = {"object", "dtype"};
    static const char *const asarray[] = {"a", "dtype"};
    switch (b) {
    case UF__BI_NP_ARRAY:
        *names = array;
        return 2;
    case UF__BI_NP_ASARRAY:
        *names = asarray;
        return 2;
    case UF__BI_NP_CONCATENATE:
    case UF__BI_NP_STACK:
        *names = arrays_axis;
        return 2;
    case UF__BI_NP_APPEND:
        *names = append;
        return 3;
    default:
        *names = tup;
        return 1;
    }
}

int uf__npjoin_bind(const uf__expr *e, uf__builtin b, const uf__expr **x,
                    const uf__keyword **bad)
{
    const char *const *names;
    int n = params(b, &names);
    *bad = NULL;
    x[0] = x[1] = x[2] = NULL;
    if (e->u.call.nargs > n)
        return -1;
    for (int i = 0; i < e->u.call.nargs; i++)
        x[i] = e->u.call.args[i];
    for (int k = 0; k < e->u.call.nkw; k++) {
        const uf__keyword *kw = &e->u.call.kw[k];
        int i = 0;
        while (i < n && strcmp(names[i], kw->name) != 0)
            i++;
        if (i == n || x[i] != NULL) {
            *bad = kw;
            return -1;
        }
        x[i] = kw->value;
    }
    return 0;
}

static bool number(const uf__type *t)
{
    return t->kind == UF__T_SCALAR;
}

/* A non-empty tuple of numbers (np.asarray makes it a 1-D array). */
static bool number_tuple(const uf__type *t)
{
    if (t->kind != UF__T_TUPLE || t->n == 0)
        return false;
    for (int i = 0; i < t->n; i++)
        if (!number(t->elts[i]))
            return false;
    return true;
}

uf_dtype uf__npjoin_asarray_dtype(const uf__type *t)
{
    if (t->kind != UF__T_TUPLE)
        return t->dtype;
    uf_dtype d = t->elts[0]->dtype;
    for (int i = 1; i < t->n; i++)
        d = uf_promote_types(d, t->elts[i]->dtype);
    return d;
}

/* Numba's _sequence_of_arrays: tup a non-empty tuple of arrays of one
 * ndim (column_stack: 1 or 2); their dtype unified into *dt, *nd the
 * ndim (column_stack: 2), *layout F when all are F. */
static int arrays_of(uf__ictx *C, const char *fn, const uf__expr *x,
                     const uf__type *tup, uf_dtype *dt, int *nd, char *layout)
{
    bool ok = tup->kind == UF__T_TUPLE && tup->n > 0;
    for (int i = 0; ok && i < tup->n; i++)
        ok = tup->elts[i]->kind == UF__T_ARRAY;
    if (!ok)
        return uf__ierr(C, UF_ERR_TYPING, x->pos, "%s(): expecting a "
                        "non-empty tuple of arrays, got %s%s", fn,
                        uf__tname(tup),
                        tup->kind == UF__T_ARRAY
                            ? " (an array: write a tuple of arrays, (a,) "
                              "for one)"
                            : "");
    bool cols = strcmp(fn, "np.column_stack") == 0;
    *nd = tup->elts[0]->ndim;
    *dt = tup->elts[0]->dtype;
    *layout = 'F';
    for (int i = 0; i < tup->n; i++) {
        const uf__type *a = tup->elts[i];
        if (cols && (a->ndim < 1 || a->ndim > 2))
            return uf__ierr(C, UF_ERR_TYPING, x->pos, "np.column_stack() "
                            "is only defined on 1-d and 2-d arrays, not %s",
                            uf__tname(a));
        if (!cols && a->ndim != *nd)
            return uf__ierr(C, UF_ERR_TYPING, x->pos, "%s(): all the input "
                            "arrays must have same number of dimensions "
                            "(%s and %s)", fn, uf__tname(tup->elts[0]),
                            uf__tname(a));
        if (a->ndim >= UF__NPJOIN_MAXND)
            return uf__ierr(C, UF_ERR_UNSUPPORTED, x->pos, "%s() of arrays "
                            "of %d dimensions or more", fn,
                            UF__NPJOIN_MAXND);
        *dt = uf_promote_types(*dt, a->dtype);
        if (a->layout != 'F')
            *layout = 'C';
    }
    if (cols)
        *nd = 2;
    return 0;
}

/* axis= of concatenate and stack: an integer (bool is not one to Numba). */
static int int_axis(uf__ictx *C, const char *fn, const uf__expr *x)
{
    if (x == NULL)
        return 0;
    const uf__type *t = uf__infer_expr(C, x);
    if (t == NULL || t == UF__UNKNOWN)
        return -1;
    if (t->kind != UF__T_SCALAR || !uf__type_is_int(t))
        return uf__ierr(C, UF_ERR_TYPING, x->pos, "%s(): axis is an "
                        "integer, not %s%s", fn, uf__tname(t),
                        t->kind == UF__T_NONE
                            ? " (Numba does not take axis=None: "
                              "flatten the arrays first)"
                            : "");
    return 0;
}

static const uf__type *type_append(uf__ictx *C, const uf__expr **x)
{
    const uf__type *t[2];
    static const char *const what[] = {"arr", "values"};
    for (int i = 0; i < 2; i++) {
        OPERAND(t[i], x[i]);
        if (t[i]->kind != UF__T_ARRAY && !number(t[i]) &&
            !number_tuple(t[i]))
            return uf__ierr_t(C, UF_ERR_TYPING, x[i]->pos, "np.append() "
                              "takes an array, a number or a non-empty "
                              "tuple of numbers as '%s', not %s", what[i],
                              uf__tname(t[i]));
        if (t[i]->kind == UF__T_ARRAY && t[i]->ndim >= UF__NPJOIN_MAXND)
            return uf__ierr_t(C, UF_ERR_UNSUPPORTED, x[i]->pos, "np.append"
                              "() of arrays of %d dimensions or more",
                              UF__NPJOIN_MAXND);
    }
    uf_dtype dt = uf_promote_types(uf__npjoin_asarray_dtype(t[0]),
                                   uf__npjoin_asarray_dtype(t[1]));
    const uf__type *ax = NULL;
    if (x[2] != NULL)
        OPERAND(ax, x[2]);
    if (ax == NULL || ax->kind == UF__T_NONE)
        return uf__type_array(C->tc, dt, 1, 'C', C->err);
    if (ax->kind != UF__T_SCALAR || !uf__type_is_int(ax))
        return uf__ierr_t(C, UF_ERR_TYPING, x[2]->pos, "np.append(): the "
                          "third argument \"axis\" must be an integer, not "
                          "%s", uf__tname(ax));
    for (int i = 0; i < 2; i++)
        if (t[i]->kind != UF__T_ARRAY)
            return uf__ierr_t(C, UF_ERR_TYPING, x[i]->pos, "np.append(..., "
                              "axis=k) joins two arrays (Numba's "
                              "np.concatenate((arr, values), axis=k)), not "
                              "%s", uf__tname(t[i]));
    if (t[0]->ndim != t[1]->ndim)
        return uf__ierr_t(C, UF_ERR_TYPING, x[1]->pos, "np.concatenate(): "
                          "all the input arrays must have same number of "
                          "dimensions (np.append of %s and %s)",
                          uf__tname(t[0]), uf__tname(t[1]));
    if (t[0]->ndim == 0)
        return uf__ierr_t(C, UF_ERR_TYPING, x[0]->pos, "%s", "zero-"
                          "dimensional arrays cannot be concatenated");
    char layout = t[0]->layout == 'F' && t[1]->layout == 'F' ? 'F' : 'C';
    return uf__type_array(C->tc, dt, t[0]->ndim, layout, C->err);
}

bool uf__npjoin_nested(const uf__type *t, int *nd, int64_t *shape,
                       uf_dtype *dt)
{
    if (t->kind == UF__T_SCALAR) {
        *nd = 0;
        *dt = t->dtype;
        return true;
    }
    if (t->kind != UF__T_TUPLE || t->n == 0)
        return false;
    int sub;
    if (!uf__npjoin_nested(t->elts[0], &sub, shape + 1, dt) ||
        sub + 1 >= UF__NPJOIN_MAXND)
        return false;
    shape[0] = t->n;
    *nd = sub + 1;
    for (int i = 1; i < t->n; i++) {
        int ndi;
        int64_t si[UF__NPJOIN_MAXND];
        uf_dtype di;
        if (!uf__npjoin_nested(t->elts[i], &ndi, si, &di) || ndi != sub ||
            memcmp(si, shape + 1, sizeof(int64_t) * (size_t)sub) != 0)
            return false;
        *dt = uf_promote_types(*dt, di);
    }
    return true;
}

/* np.array(object, dtype=None), np.asarray(a, dtype=None). */
static const uf__type *type_array(uf__ictx *C, uf__builtin b, const char *fn,
                                  const uf__expr **x)
{
    uf_dtype want;
    const uf__type *d = uf__infer_dtype_arg(C, fn + 3, x[1], &want);
    if (d == NULL || d == UF__UNKNOWN)
        return d;
    /* a list literal here is Numba's reflected list: typed as a tuple */
    C->list_as_tuple = x[0]->kind == UF__EX_LIST;
    const uf__type *t = uf__infer_expr(C, x[0]);
    C->list_as_tuple = false;
    if (t == NULL || t == UF__UNKNOWN)
        return t;
    if (t->kind == UF__T_LIST && t->n == 1 &&
        t->elts[0]->kind == UF__T_TUPLE) { /* (n, k) (lower_list_items.c) */
        uf_dtype dt = t->elts[0]->elts[0]->dtype;
        for (int i = 1; i < t->elts[0]->n; i++)
            dt = uf_promote_types(dt, t->elts[0]->elts[i]->dtype);
        return uf__type_array(C->tc, want == UF_NTYPES ? dt : want, 2, 'C',
                              C->err);
    }
    int nd;
    int64_t shape[UF__NPJOIN_MAXND];
    uf_dtype dt;
    if (t->kind == UF__T_TUPLE && x[0]->kind == UF__EX_LIST &&
        !uf__npjoin_nested(t, &nd, shape, &dt)) {
        /* [[1, 2, 3], [4, 5]]: a ragged literal is Numba's run-time
         * ValueError, so typed as the list of lists it is */
        const uf__type *lt = uf__infer_list_literal(C, x[0]);
        if (lt == NULL || lt == UF__UNKNOWN)
            return lt;
        if (lt->kind == UF__T_LIST && lt->n == 1 &&
            lt->elts[0]->kind == UF__T_LIST)
            t = lt;
    }
    if (t->kind == UF__T_LIST && t->n == 1 &&
        t->elts[0]->kind == UF__T_LIST) { /* nested: lower_list_nest_array.c */
        int levels = 0;
        const uf__type *leaf = t;
        for (; leaf->kind == UF__T_LIST && leaf->n == 1; leaf = leaf->elts[0])
            levels++;
        if (leaf->kind == UF__T_SCALAR && levels <= UF__LIST_NEST_MAX)
            return uf__type_array(C->tc, want == UF_NTYPES ? leaf->dtype
                                                           : want,
                                  levels, 'C', C->err);
        return uf__ierr_t(C, UF_ERR_UNSUPPORTED, x[0]->pos, "np.array() of "
                          "%s is not supported in kernels (lists of lists "
                          "of numbers only)", uf__tname(t));
    }
    if (t->kind == UF__T_LIST && t->n == 1 &&
        t->elts[0]->kind != UF__T_SCALAR) /* Numba's array() takes lists of
                                              numbers or tuples only */
        return uf__ierr_t(C, UF_ERR_TYPING, x[0]->pos, "No implementation "
                          "of function array() for %s (Numba's np.array "
                          "takes a list of numbers or of tuples): pass a "
                          "tuple of the arrays to np.stack", uf__tname(t));
    if (t->kind == UF__T_LIST && t->n == 1) /* a copy (lower_npjoin.c) */
        return uf__type_array(C->tc, want == UF_NTYPES ? t->elts[0]->dtype
                                                       : want,
                              1, 'C', C->err);
    if (t->kind == UF__T_ARRAY) {
        if (b == UF__BI_NP_ARRAY)
            return uf__ierr_t(C, UF_ERR_TYPING, x[0]->pos, "np.array() of "
                              "an array is not supported by Numba (it "
                              "takes numbers and tuples of them): use "
                              "a.copy() or np.asarray(a)");
        if (want == UF_NTYPES || want == t->dtype)
            return t; /* a itself */
        return uf__type_array(C->tc, want, t->ndim,
                              t->layout == 'F' ? 'F' : 'C', C->err);
    }
    if (!uf__npjoin_nested(t, &nd, shape, &dt))
        return uf__ierr_t(C, UF_ERR_TYPING, x[0]->pos, "%s() takes a "
                          "number or a non-empty tuple of numbers, or "
                          "tuples of them of one shape%s, not %s", fn,
                          b == UF__BI_NP_ASARRAY ? ", or an array" : "",
                          uf__tname(t));
    return uf__type_array(C->tc, want == UF_NTYPES ? dt : want, nd, 'C',
                          C->err);
}

const uf__type *uf__infer_npjoin(uf__ictx *C, const uf__expr *e,
                                 uf__builtin b)
{
    uf__iinfo(C, e)->builtin = b;
    char fn[32];
    snprintf(fn, sizeof fn, "np.%s", uf__builtin_name(b) + 6);
    const uf__expr *x[3];
    const uf__keyword *kw;
    const char *const *names;
    int np = params(b, &names);
    if (uf__npjoin_bind(e, b, x, &kw) != 0) {
        if (kw != NULL)
            return uf__ierr_t(C, UF_ERR_TYPING, kw->pos, "%s() got an "
                              "unexpected or repeated keyword argument "
                              "'%s'", fn, kw->name);
        return uf__ierr_t(C, UF_ERR_TYPING, e->u.call.args[np]->pos, "%s() "
                          "takes at most %d argument%s in Numba", fn, np,
                          np > 1 ? "s" : "");
    }
    int need = b == UF__BI_NP_APPEND ? 2 : 1;
    for (int i = 0; i < need; i++)
        if (x[i] == NULL)
            return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "%s() missing "
                              "required argument '%s'", fn, names[i]);
    uf__kernel_kind k = C->tf->decl->kind;
    if (k == UF__K_CUDA_KERNEL || k == UF__K_DEVICE)
        return uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->pos, "%s() allocates "
                          "an array on the host, which CUDA kernels cannot "
                          "do", fn);
    const uf__type *r;
    if (b == UF__BI_NP_ARRAY || b == UF__BI_NP_ASARRAY) {
        r = type_array(C, b, fn, x);
    } else if (b == UF__BI_NP_APPEND) {
        r = type_append(C, x);
    } else {
        const uf__type *tup;
        OPERAND(tup, x[0]);
        uf_dtype dt = UF_FLOAT64;
        int nd = 0;
        char layout = 'C';
        if (arrays_of(C, fn, x[0], tup, &dt, &nd, &layout) != 0)
            return NULL;
        if (int_axis(C, fn, x[1]) != 0)
            return NULL;
        switch (b) {
        case UF__BI_NP_CONCATENATE:
            if (nd == 0)
                return uf__ierr_t(C, UF_ERR_TYPING, x[0]->pos, "%s",
                                  "zero-dimensional arrays cannot be "
                                  "concatenated");
            break;
        case UF__BI_NP_STACK:
            nd++;
            break;
        case UF__BI_NP_HSTACK:
            nd = nd < 1 ? 1 : nd;
            break;
        case UF__BI_NP_VSTACK:
        case UF__BI_NP_ROW_STACK:
            nd = nd < 2 ? 2 : nd;
            break;
        case UF__BI_NP_DSTACK:
            nd = nd < 3 ? 3 : nd;
            break;
        default: /* column_stack: 2 */
            break;
        }
        r = uf__type_array(C->tc, dt, nd, layout, C->err);
    }
    if (r == NULL)
        return C->err->code ? NULL : uf__ioom(C);
    return r == UF__UNKNOWN ? r : uf__iset(C, e, r);
}
