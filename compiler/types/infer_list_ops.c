/* Typing of the list operations beyond infer_list.c (lowered by
 * compiler/lower/lower_list_ops.c): l.sort(key=None, reverse=False) and
 * sorted(x, key=None, reverse=False), as Numba 0.68's listobj.py types
 * them.
 *
 * sorted(x) is Numba's `lst = list(x); lst.sort(...)`: x a list, a 1-D
 * array, a tuple whose items share one type, or range(...); a new list.
 * reverse is a bool or an integer (a literal or a run-time value; any
 * other type is Numba's TypingError "an integer is required for
 * 'reverse'"); key is None, or the list of keys the parser made of a
 * key= function or lambda (front/parser_expr.c's sort_key: the name
 * key$K, one key per item, as Numba's `[key(x) for x in lst]`), then the
 * keys are what is ordered. Complex items or keys have no `<` in Numba:
 * a TypingError. */
#include <string.h>

#include "compiler/types/infer_internal.h"

static bool orderable(const uf__type *t)
{
    if (t != NULL && t->kind == UF__T_USTR) /* by code point */
        return true;
    if (t != NULL && t->kind == UF__T_TUPLE) { /* Numba's tuple `<` */
        for (int i = 0; i < t->n; i++) /* numbers and strings */
            if (t->elts[i]->kind != UF__T_USTR &&
                (t->elts[i]->kind != UF__T_SCALAR ||
                 uf__type_is_complex(t->elts[i])))
                return false;
        return t->n > 0;
    }
    return t != NULL && t->kind == UF__T_SCALAR && !uf__type_is_complex(t);
}

/* Slicing, + and *, and comparisons copy and compare items as numbers
 * or strings (their pointers; lower_list_ops.c): lists of arrays or
 * tuples are refused there. */
static bool of_arrays_or_tuples(const uf__type *t)
{
    return t->kind == UF__T_LIST && t->n == 1 &&
           t->elts[0]->kind != UF__T_SCALAR &&
           t->elts[0]->kind != UF__T_USTR;
}

static const uf__type *refuse_items(uf__ictx *C, const uf__expr *e,
                                    const char *what, const uf__type *t)
{
    return uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->pos, "%s of %s is not "
                      "supported in kernels yet (lists of numbers only)",
                      what, uf__tname(t));
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
    if (t->kind == UF__T_SET && t->n == 1) /* its items: lower_set.c */
        return t->elts[0];
    if (t->kind == UF__T_DICT) /* keys, values or items: lower_list.c */
        return uf__list_dict_items_type(C, x, t);
    if (t->kind == UF__T_RANGE && x->kind == UF__EX_CALL &&
        uf__iinfo(C, x)->optype != NULL)
        return uf__iinfo(C, x)->optype;
    if (t->kind == UF__T_TUPLE && t->n > 0 && uf__list_elt_ok(t->elts[0])) {
        for (int i = 1; i < t->n; i++)
            if (t->elts[i] != t->elts[0])
                return uf__ierr_t(C, UF_ERR_TYPING, x->pos, "sorted() of "
                                  "%s: Numba takes a tuple whose items all "
                                  "have one type", uf__tname(t));
        const uf__type *elt = uf__list_stored_type(C, t->elts[0]);
        return elt ? elt : uf__ioom(C);
    }
    return uf__ierr_t(C, UF_ERR_TYPING, x->pos, "No implementation of "
                      "function sorted() for %s (kernels sort a list, a 1-D "
                      "array, a tuple of numbers, a set, a dict or "
                      "range(...))",
                      uf__tname(t));
}

/* The keys sort_key made: key$K, a list. */
static bool made_keys(const uf__expr *key, const uf__type *kt)
{
    return key->kind == UF__EX_NAME &&
           strncmp(key->u.name.id, "key$", 4) == 0 &&
           kt->kind == UF__T_LIST;
}

/* key= and reverse= of either form; 0 or -1. *elt becomes the keys'
 * type when key= is a list of keys. */
static int check_options(uf__ictx *C, const uf__expr *key,
                         const uf__expr *rev, const uf__type **elt)
{
    if (key != NULL) {
        const uf__type *kt = uf__infer_expr(C, key);
        if (kt == NULL || kt == UF__UNKNOWN)
            return kt == NULL ? -1 : 1;
        if (made_keys(key, kt)) {
            if (kt->n == 0)
                return uf__ierr(C, UF_ERR_TYPING, key->pos, "%s", "the sort "
                                "keys have no known type");
            *elt = kt->elts[0];
        } else if (kt->kind != UF__T_NONE) {
            bool fn = kt->kind == UF__T_FUNCTION;
            return uf__ierr(C, fn ? UF_ERR_UNSUPPORTED : UF_ERR_TYPING,
                            key->pos, "%s", fn
                                ? "a sort key= function other than by its "
                                  "name is not supported in kernels "
                                  "(write key=NAME or a lambda)"
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
    const uf__type *ord = elt; /* the items, or their keys */
    int rc = check_options(C, x[1], x[2], &ord);
    if (rc != 0)
        return rc < 0 ? NULL : UF__UNKNOWN;
    if (!orderable(ord))
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "No implementation of "
                          "function %s() for list(%s): Numba orders %s "
                          "with `<`, which %s does not have",
                          b == UF__BI_LIST_SORT ? "sort" : "sorted",
                          uf__tname(ord), ord == elt ? "items" : "keys",
                          uf__tname(ord));
    if (b == UF__BI_LIST_SORT)
        return uf__iset(C, e, uf__type_none(C->tc));
    const uf__type *r = uf__type_list(C->tc, elt, C->err);
    return r ? uf__iset(C, e, r) : NULL;
}

/* The bounds of the slice l[x]: numbers (not complex) or None. lt, or
 * NULL / UF__UNKNOWN. */
static const uf__type *slice_bounds(uf__ictx *C, const uf__expr *x,
                                    const uf__type *lt)
{
    const uf__expr *b[3] = {x->u.slice.lower, x->u.slice.upper,
                            x->u.slice.step};
    for (int j = 0; j < 3; j++) {
        if (b[j] == NULL)
            continue;
        const uf__type *t = uf__infer_expr(C, b[j]);
        if (t == NULL || t == UF__UNKNOWN)
            return t;
        /* Numba takes a float or bool bound too, truncated */
        if (t->kind != UF__T_NONE &&
            (t->kind != UF__T_SCALAR || uf__type_is_complex(t)))
            return uf__ierr_t(C, UF_ERR_TYPING, b[j]->pos, "slice indices "
                              "must be integers or None, not %s",
                              uf__tname(t));
    }
    return lt;
}

/* l[a:b:c]: a new list (Numba's getitem of a slice). */
const uf__type *uf__infer_list_slice(uf__ictx *C, const uf__expr *e,
                                     const uf__type *lt)
{
    const uf__type *r = slice_bounds(C, e->u.subscript.index[0], lt);
    if (r != lt)
        return r;
    if (lt->n == 0)
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "%s has no items of a "
                          "known type yet", uf__tname(lt));
    if (of_arrays_or_tuples(lt))
        return refuse_items(C, e, "slicing", lt);
    return uf__iset(C, e, lt);
}

const uf__type *uf__infer_list_delitem(uf__ictx *C, const uf__expr *e,
                                       const uf__type *lt)
{
    const uf__expr *x = e->u.call.args[0];
    if (x->kind == UF__EX_SLICE) {
        const uf__type *r = slice_bounds(C, x, lt);
        if (r != lt)
            return r;
        return uf__iset(C, e, uf__type_none(C->tc));
    }
    const uf__type *t = uf__infer_expr(C, x);
    if (t == NULL || t == UF__UNKNOWN)
        return t;
    if (t->kind != UF__T_SCALAR ||
        !(uf__type_is_int(t) || t->dtype == UF_BOOL))
        return uf__ierr_t(C, UF_ERR_TYPING, x->pos, "list indices must be "
                          "integers or slices, not %s", uf__tname(t));
    return uf__iset(C, e, uf__type_none(C->tc));
}

static const uf__type *no_binop(uf__ictx *C, const uf__expr *e, int op,
                                bool inplace, const uf__type *a,
                                const uf__type *b)
{
    return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "unsupported operand types "
                      "for %s%s: %s and %s", uf__binop_str((uf__binop)op),
                      inplace ? "=" : "", uf__tname(a), uf__tname(b));
}

static bool is_count(const uf__type *t)
{
    return t->kind == UF__T_SCALAR && uf__type_is_int(t); /* not bool */
}

/* l += m (m's items converted to l's: Numba's can_convert, so no
 * complex into a real list) and l *= n. */
static bool augment_ok(const uf__type *a, const uf__type *b, int op)
{
    if (of_arrays_or_tuples(a) || of_arrays_or_tuples(b))
        return false;
    if (op == UF__OP_ADD && b->kind == UF__T_LIST && a->n == 1 && b->n == 1 &&
        (a->elts[0]->kind == UF__T_USTR || b->elts[0]->kind == UF__T_USTR))
        return a->elts[0] == b->elts[0];
    if (op == UF__OP_ADD && b->kind == UF__T_LIST && a->n == 1 && b->n == 1)
        return uf__type_is_complex(a->elts[0]) ||
               !uf__type_is_complex(b->elts[0]);
    return op == UF__OP_MUL && a->n == 1 && is_count(b);
}

/* l + m (items unified as Numba's unify_pairs), l * n and n * l (n an
 * integer; bool is not one for Numba). */
const uf__type *uf__infer_list_binop(uf__ictx *C, const uf__expr *e,
                                     const uf__type *a, const uf__type *b)
{
    int op = (int)e->u.binary.op;
    if ((a->kind == UF__T_LIST && a->n == 0) ||
        (b->kind == UF__T_LIST && b->n == 0))
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "%s of a list whose "
                          "items have no known type yet",
                          uf__binop_str((uf__binop)op));
    if (of_arrays_or_tuples(a) || of_arrays_or_tuples(b))
        return refuse_items(C, e, uf__binop_str((uf__binop)op),
                            of_arrays_or_tuples(a) ? a : b);
    if (e->u.binary.inplace) { /* l += m, l *= n */
        if (a->kind != UF__T_LIST ||
            !augment_ok(a, b, op))
            return no_binop(C, e, op, true, a, b);
        return uf__iset(C, e, a);
    }
    if (op == UF__OP_ADD && a->kind == UF__T_LIST && b->kind == UF__T_LIST) {
        const uf__type *u = uf__type_unify(C->tc, a, b);
        if (u == NULL && uf__typectx_oom(C->tc))
            return uf__ioom(C);
        if (u == NULL || u->kind != UF__T_LIST)
            return no_binop(C, e, op, false, a, b);
        return uf__iset(C, e, u);
    }
    if (op == UF__OP_MUL && a->kind == UF__T_LIST && is_count(b))
        return uf__iset(C, e, a);
    if (op == UF__OP_MUL && b->kind == UF__T_LIST && is_count(a))
        return uf__iset(C, e, b);
    return no_binop(C, e, op, false, a, b);
}

/* l += m, l *= n as a statement of their own (a subscript target):
 * l itself, its type kept. */
const uf__type *uf__infer_list_augassign(uf__ictx *C, const uf__stmt *s,
                                         const uf__type *a,
                                         const uf__type *b)
{
    int op = (int)s->u.augassign.op;
    if (!augment_ok(a, b, op))
        return uf__ierr_t(C, UF_ERR_TYPING, s->pos, "unsupported operand "
                          "types for %s=: %s and %s",
                          uf__binop_str((uf__binop)op), uf__tname(a),
                          uf__tname(b));
    return a;
}

/* l == m, l != m (items compared with ==: NaN equals nothing), l < m,
 * l <= m, l > m, l >= m (Numba's loop: the first index where one item is
 * < or > the other decides, else the lengths); the items' comparison
 * typed as for two numbers (e's optype: the type both convert to). */
const uf__type *uf__infer_list_compare(uf__ictx *C, const uf__expr *e,
                                       uf__expr_info *in, int op,
                                       const uf__type *a, const uf__type *b)
{
    if (e->u.compare.nops != 1)
        return uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->pos, "%s", "lists in a "
                          "chain of comparisons are not supported in "
                          "kernels");
    if (a->n == 0 || b->n == 0)
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "%s", "comparison of a "
                          "list whose items have no known type yet");
    if (of_arrays_or_tuples(a) || of_arrays_or_tuples(b))
        return refuse_items(C, e, "comparison",
                            of_arrays_or_tuples(a) ? a : b);
    const uf__type *optype = NULL, *r;
    if (a->elts[0]->kind == UF__T_USTR || b->elts[0]->kind == UF__T_USTR) {
        if (a->elts[0] != b->elts[0])
            return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "'%s' is not "
                              "supported between %s and %s",
                              uf__cmpop_str((uf__cmpop)op), uf__tname(a),
                              uf__tname(b));
        in->optype = a->elts[0]; /* strings: by code point */
        return uf__iset(C, e, uf__type_scalar(C->tc, UF_BOOL));
    }
    r = uf__type_compare(C->tc, op == UF__CMP_EQ || op == UF__CMP_NE
                                    ? UF__CMP_EQ
                                    : UF__CMP_LT,
                         a->elts[0], b->elts[0], &optype);
    if (r == NULL && uf__typectx_oom(C->tc))
        return uf__ioom(C);
    if (r == NULL || optype == NULL)
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "'%s' is not supported "
                          "between %s and %s",
                          uf__cmpop_str((uf__cmpop)op), uf__tname(a),
                          uf__tname(b));
    in->optype = optype;
    return uf__iset(C, e, uf__type_scalar(C->tc, UF_BOOL));
}

/* A number of type from stored into a list of numbers of type to: as
 * l += m (Numba's can_convert), so no complex into a real list. */
static bool number_into(const uf__type *from, const uf__type *to)
{
    return from->kind == UF__T_SCALAR && to->kind == UF__T_SCALAR &&
           (uf__type_is_complex(to) || !uf__type_is_complex(from));
}

/* The items of list type from converted into those of list type to by
 * l[a:b] = m: numbers as l += m converts them, tuples of as many fields
 * field by field, arrays of one dtype and ndim (a C array into a list of
 * A arrays: the same item). */
static bool slice_items_into(uf__ictx *C, const uf__type *from,
                             const uf__type *to)
{
    if (from == to)
        return true;
    if (from->kind == UF__T_SCALAR)
        return number_into(from, to);
    if (from->kind == UF__T_TUPLE && to->kind == UF__T_TUPLE) {
        if (from->n != to->n)
            return false;
        for (int i = 0; i < from->n; i++)
            if (!number_into(from->elts[i], to->elts[i]))
                return false;
        return true;
    }
    return from->kind == UF__T_ARRAY && to->kind == UF__T_ARRAY &&
           uf__type_unify(C->tc, from, to) == to;
}

int uf__infer_list_slice_store(uf__ictx *C, const uf__expr *t,
                               const uf__type *lt, const uf__type *vt)
{
    const uf__type *r = slice_bounds(C, t->u.subscript.index[0], lt);
    if (r != lt)
        return r == NULL ? -1 : 0;
    if (lt->n == 0)
        return uf__ierr(C, UF_ERR_TYPING, t->pos, "%s has no items of a "
                        "known type yet", uf__tname(lt));
    if (vt->kind != UF__T_LIST)
        return uf__ierr(C, UF_ERR_TYPING, t->pos, "cannot assign %s to a "
                        "slice of %s (Numba 0.68 takes a list there only; "
                        "make one with list(x))", uf__tname(vt),
                        uf__tname(lt));
    if (vt->n == 0)
        return uf__ierr(C, UF_ERR_TYPING, t->pos, "cannot assign %s to a "
                        "slice of %s: its items have no known type (as "
                        "Numba, an empty literal has none)", uf__tname(vt),
                        uf__tname(lt));
    if (!slice_items_into(C, vt->elts[0], lt->elts[0]))
        return uf__ierr(C, UF_ERR_TYPING, t->pos, "cannot assign %s to a "
                        "slice of %s: its items do not convert",
                        uf__tname(vt), uf__tname(lt));
    uf__iset(C, t, lt);
    return 0;
}
