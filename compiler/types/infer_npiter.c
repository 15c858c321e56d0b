/* Typing of NumPy's iterators (builtins.h: UF__NPITER_MAP) as Numba 0.68
 * types them (numba/core/typing/npydecl.py: NdIndex, NdEnumerate, NdIter),
 * as the iterable of a for loop, the only place ufjit takes them (one
 * kept in a variable is moved to the one loop reading it by
 * front/iterbind.c; other uses are refused: lower_npiter.c lowers the
 * loop, not an iterator object):
 *   np.ndindex(shape) / np.ndindex(*shape) / np.ndindex(d0, d1, ...):
 *     integers (not bools), or one homogeneous tuple of them; yields a
 *     UniTuple(intp, n);
 *   np.ndenumerate(a): an array of any layout and ndim; yields
 *     (UniTuple(intp, a.ndim), a.dtype);
 *   np.nditer(x) / np.nditer((x, y, ...)): arrays or numbers; yields a
 *     0-d C array (a view of the element; a number's own 0-d array), a
 *     tuple of them for a tuple of operands.
 * None takes keywords (Numba's templates assert there are none).
 *   a.item(): no arguments; a's dtype (ValueError at run time unless a
 *     has one element: lower_npiter.c). */
#include "compiler/types/infer_internal.h"

#define OPERAND(var, expr)                                                  \
    do {                                                                    \
        (var) = uf__infer_expr(C, (expr));                                  \
        if ((var) == NULL || (var) == UF__UNKNOWN)                          \
            return (var);                                                   \
    } while (0)

static bool is_int(const uf__type *t)
{
    return t->kind == UF__T_SCALAR && uf__type_is_int(t);
}

/* The yielded tuple of np.ndindex(args): shape's elements are the
 * arguments (the elements of the tuple for one tuple argument). */
static const uf__type *type_ndindex(uf__ictx *C, const uf__expr *e)
{
    const uf__type *args[UF__TUPLE_MAX];
    int n = e->u.call.nargs;
    if (n > UF__TUPLE_MAX)
        return uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->pos, "np.ndindex() of "
                          "more than %d dimensions", UF__TUPLE_MAX);
    for (int i = 0; i < n; i++)
        OPERAND(args[i], e->u.call.args[i]);
    const uf__type *const *shape = args;
    if (e->u.call.starred) { /* np.ndindex(*t): t's elements */
        if (args[0]->kind != UF__T_TUPLE)
            return uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->u.call.args[0]->pos,
                              "np.ndindex(*x) takes a tuple x, not %s",
                              uf__tname(args[0]));
        n = args[0]->n;
        shape = args[0]->elts;
    }
    const uf__expr *where = n > 0 && !e->u.call.starred ? e->u.call.args[0]
                                                        : e;
    if (n == 1 && shape[0]->kind == UF__T_TUPLE) {
        const uf__type *tup = shape[0];
        for (int i = 1; i < tup->n; i++)
            if (tup->elts[i] != tup->elts[0])
                return uf__ierr_t(C, UF_ERR_TYPING, where->pos, "np.ndindex() "
                                  "takes a tuple of integers of one type, "
                                  "not %s", uf__tname(tup));
        n = tup->n;
        shape = tup->elts;
    }
    for (int i = 0; i < n; i++)
        if (!is_int(shape[i]))
            return uf__ierr_t(C, UF_ERR_TYPING,
                              shape == args ? e->u.call.args[i]->pos
                                            : where->pos, "np.ndindex() "
                              "takes integers or a tuple of them, not %s",
                              uf__tname(shape[i]));
    const uf__type *elts[UF__TUPLE_MAX];
    for (int i = 0; i < n; i++)
        elts[i] = uf__type_scalar(C->tc, UF_INT64);
    return uf__type_tuple(C->tc, n, elts, C->err);
}

static const uf__type *type_ndenumerate(uf__ictx *C, const uf__expr *e)
{
    if (e->u.call.nargs != 1)
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "np.ndenumerate() takes "
                          "one array (%d arguments given)", e->u.call.nargs);
    const uf__type *a;
    OPERAND(a, e->u.call.args[0]);
    if (a->kind != UF__T_ARRAY)
        return uf__ierr_t(C, UF_ERR_TYPING, e->u.call.args[0]->pos,
                          "np.ndenumerate() takes an array, not %s",
                          uf__tname(a));
    const uf__type *elts[UF__TUPLE_MAX];
    for (int i = 0; i < a->ndim; i++)
        elts[i] = uf__type_scalar(C->tc, UF_INT64);
    const uf__type *pair[2] = {uf__type_tuple(C->tc, a->ndim, elts, C->err),
                               uf__type_scalar(C->tc, a->dtype)};
    return pair[0] ? uf__type_tuple(C->tc, 2, pair, C->err) : NULL;
}

/* An operand of np.nditer: an array or a number; its view's type. */
static const uf__type *nditer_view(uf__ictx *C, const uf__expr *x,
                                   const uf__type *t)
{
    if (t->kind == UF__T_ARRAY || t->kind == UF__T_SCALAR)
        return uf__type_array(C->tc, t->dtype, 0, 'C', C->err);
    return uf__ierr_t(C, UF_ERR_TYPING, x->pos, "np.nditer() takes arrays "
                      "and numbers, not %s", uf__tname(t));
}

static const uf__type *type_nditer(uf__ictx *C, const uf__expr *e)
{
    if (e->u.call.nargs != 1)
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "np.nditer() takes one "
                          "array or a tuple of arrays (%d arguments given)",
                          e->u.call.nargs);
    const uf__expr *x = e->u.call.args[0];
    const uf__type *t;
    OPERAND(t, x);
    if (t->kind != UF__T_TUPLE)
        return nditer_view(C, x, t);
    if (t->n == 0)
        return uf__ierr_t(C, UF_ERR_TYPING, x->pos, "%s", "np.nditer() of "
                          "an empty tuple");
    const uf__type *views[UF__TUPLE_MAX];
    for (int i = 0; i < t->n; i++)
        if ((views[i] = nditer_view(C, x, t->elts[i])) == NULL)
            return NULL;
    return uf__type_tuple(C->tc, t->n, views, C->err);
}

const uf__type *uf__infer_npiter(uf__ictx *C, const uf__expr *e,
                                 uf__builtin b)
{
    uf__expr_info *in = uf__iinfo(C, e);
    in->builtin = b;
    const char *name = uf__builtin_name(b) + 6; /* "numpy." */
    if (C->for_iter != e)
        return uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->pos, "np.%s() is "
                          "supported as the iterable of a for loop only "
                          "(for i in np.%s(...), or `it = np.%s(...)` "
                          "read by one for loop after it)", name, name,
                          name);
    C->for_iter = NULL;
    if (e->u.call.nkw != 0)
        return uf__ierr_t(C, UF_ERR_TYPING, e->u.call.kw[0].pos, "np.%s() "
                          "takes no keyword arguments (as Numba)", name);
    const uf__type *item = b == UF__BI_NP_NDINDEX ? type_ndindex(C, e)
                           : b == UF__BI_NP_NDENUMERATE
                               ? type_ndenumerate(C, e)
                               : type_nditer(C, e);
    if (item == NULL || item == UF__UNKNOWN)
        return item;
    in = uf__iinfo(C, e); /* typing the operands may have moved it */
    in->optype = item;
    return uf__iset(C, e, item);
}

const uf__type *uf__infer_array_item(uf__ictx *C, const uf__expr *e)
{
    const uf__type *a = uf__iinfo(C, e->u.call.func->u.attr.value)->type;
    uf__iinfo(C, e)->builtin = UF__BI_METH_ITEM;
    if (e->u.call.nargs != 0 || e->u.call.nkw != 0)
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "%s", "array.item() "
                          "takes no arguments (as Numba)");
    return uf__iset(C, e, uf__type_scalar(C->tc, a->dtype));
}
