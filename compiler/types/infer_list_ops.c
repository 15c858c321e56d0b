/* Typing of the list operations beyond infer_list.c (lowered by
 * compiler/lower/lower_list_ops.c): l.sort(key=None, reverse=False) and
 * sorted(x, key=None, reverse=False), as Numba 0.68's listobj.py types
 * them.
 *
 * sorted(x) is Numba's `lst = list(x); lst.sort(...)`: x a list, a 1-D
 * array, a tuple whose items share one type, or range(...); a new list.
 * reverse is a bool or an integer (a literal or a run-time value; any
 * other type is Numba's TypingError "an integer is required for
 * 'reverse'"); key is None (Numba also takes an @njit function, which
 * ufjit refuses: its sort would call back into another compiled
 * function per item). Complex items have no `<` in Numba: a TypingError. */
#include <string.h>

#include "compiler/types/infer_internal.h"

static bool orderable(const uf__type *t)
{
    return t != NULL && t->kind == UF__T_SCALAR && !uf__type_is_complex(t);
}

/* The item type of sorted's iterable x of type t: NULL with the error. */
static const uf__type *items_of(uf__ictx *C, const uf__expr *x,
                                const uf__type *t)
{
    if (t->kind == UF__T_LIST) {
        if (t->n == 0)
            return uf__ierr_t(C, UF_ERR_TYPING, x->pos, "sorted() of %s: "
                              "its items have no known type yet",
                              uf__tname(t));
        return t->elts[0];
    }
    if (t->kind == UF__T_ARRAY && t->ndim == 1)
        return uf__type_scalar(C->tc, t->dtype);
    if (t->kind == UF__T_RANGE && x->kind == UF__EX_CALL &&
        uf__iinfo(C, x)->optype != NULL)
        return uf__iinfo(C, x)->optype;
    if (t->kind == UF__T_TUPLE && t->n > 0 && uf__list_elt_ok(t->elts[0])) {
        for (int i = 1; i < t->n; i++)
            if (t->elts[i] != t->elts[0])
                return uf__ierr_t(C, UF_ERR_TYPING, x->pos, "sorted() of "
                                  "%s: Numba takes a tuple whose items all "
                                  "have one type", uf__tname(t));
        return t->elts[0];
    }
    return uf__ierr_t(C, UF_ERR_TYPING, x->pos, "No implementation of "
                      "function sorted() for %s (kernels sort a list, a 1-D "
                      "array, a tuple of numbers or range(...))",
                      uf__tname(t));
}

/* key= and reverse= of either form; 0 or -1. */
static int check_options(uf__ictx *C, const uf__expr *key,
                         const uf__expr *rev)
{
    if (key != NULL) {
        const uf__type *kt = uf__infer_expr(C, key);
        if (kt == NULL || kt == UF__UNKNOWN)
            return kt == NULL ? -1 : 1;
        if (kt->kind != UF__T_NONE) {
            bool fn = kt->kind == UF__T_FUNCTION;
            return uf__ierr(C, fn ? UF_ERR_UNSUPPORTED : UF_ERR_TYPING,
                            key->pos, "%s", fn
                                ? "sort key= functions are not supported "
                                  "in kernels (only key=None): sort the "
                                  "keys, or build (key, index) pairs"
                                : "Key must be None or a Numba JIT "
                                  "compiled function");
        }
    }
    if (rev != NULL) {
        const uf__type *rt = uf__infer_expr(C, rev);
        if (rt == NULL || rt == UF__UNKNOWN)
            return rt == NULL ? -1 : 1;
        if (rt->kind != UF__T_SCALAR ||
            !(uf__type_is_int(rt) || rt->dtype == UF_BOOL))
            return uf__ierr(C, UF_ERR_TYPING, rev->pos, "an integer is "
                            "required for 'reverse' (got type %s)",
                            uf__tname(rt));
    }
    return 0;
}

const uf__type *uf__infer_list_sort(uf__ictx *C, const uf__expr *e,
                                    uf__builtin b)
{
    static const char *const mnames[] = {"key", "reverse"};
    static const char *const fnames[] = {"iterable", "key", "reverse"};
    const uf__expr *x[3];
    const uf__type *it, *elt;
    uf__iinfo(C, e)->builtin = b;
    if (b == UF__BI_LIST_SORT) {
        if (!uf__infer_bind(C, e, "sort", mnames, 2, 0, &x[1]))
            return NULL;
        const uf__expr *recv = e->u.call.func->u.attr.value;
        it = uf__iinfo(C, recv)->type;
        if (it->n == 0)
            return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "sort() of %s: its "
                              "items have no known type yet", uf__tname(it));
        elt = it->elts[0];
    } else {
        if (C->tf->decl->kind == UF__K_CUDA_KERNEL ||
            C->tf->decl->kind == UF__K_DEVICE)
            return uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->pos, "%s", "sorted() "
                              "is not supported in CUDA kernels (it makes a "
                              "list, which allocates on the host)");
        if (!uf__infer_bind(C, e, "sorted", fnames, 3, 1, x))
            return NULL;
        it = uf__infer_expr(C, x[0]);
        if (it == NULL || it == UF__UNKNOWN)
            return it;
        if ((elt = items_of(C, x[0], it)) == NULL)
            return NULL;
    }
    int rc = check_options(C, x[1], x[2]);
    if (rc != 0)
        return rc < 0 ? NULL : UF__UNKNOWN;
    if (!orderable(elt))
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "No implementation of "
                          "function %s() for list(%s): Numba orders items "
                          "with `<`, which %s does not have",
                          b == UF__BI_LIST_SORT ? "sort" : "sorted",
                          uf__tname(elt), uf__tname(elt));
    if (b == UF__BI_LIST_SORT)
        return uf__iset(C, e, uf__type_none(C->tc));
    const uf__type *r = uf__type_list(C->tc, elt, C->err);
    return r ? uf__iset(C, e, r) : NULL;
}
