/* Typing of lists (Numba's list(T), numba/core/typing/listdecl.py): list
 * literals of numbers, `[]` refined by its first append, l.append(v),
 * l[i], l[i] = v, len, for, in, sum/min/max, truth, np.array(l); lowered
 * by compiler/lower/lower_list.c.
 *
 * `l = []` is list(undefined) until `l.append(v)` refines the variable to
 * list(typeof v), as Numba's typeinfer does; an append of another number
 * type widens the element type the way Numba's List.unify does (a
 * list(int32) appended 2.5 becomes a list(float64), its literal converted
 * as it is made). A list still undefined at the fixed point is refused
 * with Numba's message. */
#include <string.h>

#include "common/list_items.h"
#include "compiler/front/typed_containers.h"
#include "compiler/types/infer_internal.h"

/* Lists are made on the host only, and outside prange bodies (Numba's
 * parallel append is a race). */
static int refuse_target(uf__ictx *C, const uf__expr *e)
{
    uf__kernel_kind k = C->tf->decl->kind;
    if (k == UF__K_CUDA_KERNEL || k == UF__K_DEVICE)
        return uf__ierr(C, UF_ERR_UNSUPPORTED, e->pos, "%s", "lists are "
                        "not supported in CUDA kernels (a list allocates "
                        "on the host): use cuda.local.array");
    return 0;
}

/* Numbers, strings, non-empty tuples of numbers and strings, arrays of
 * up to UF__LIST_ITEM_MAXDIM dimensions (their ndim marks the list for
 * the frames: common/list_items.h), and lists of a known item type
 * (lists of lists, any depth: common/list_nest.h). */
bool uf__list_elt_ok(const uf__type *t)
{
    if (t != NULL && t->kind == UF__T_TUPLE && t->n > 0) {
        for (int i = 0; i < t->n; i++) /* tuples of numbers and strings */
            if (t->elts[i]->kind != UF__T_SCALAR &&
                !uf__is_string(t->elts[i]))
                return false;
        return true;
    }
    if (t != NULL && t->kind == UF__T_LIST) { /* list(undefined): */
        int depth = 0;                        /* Numba's refusal too */
        for (const uf__type *u = t; u->kind == UF__T_LIST; u = u->elts[0])
            if (u->n != 1 || ++depth > UF__LIST_NEST_MAX)
                return false;
        return uf__list_elt_ok(t->elts[0]);
    }
    if (t != NULL && t->kind == UF__T_DICT) /* typed dicts, bounded as lists
                                               of lists (lower_list_nest.c) */
        return t->n == 2 && t->layout == 0 &&
               uf__type_nest_depth(t) < UF__LIST_NEST_MAX;
    return t != NULL &&
           (t->kind == UF__T_SCALAR || uf__is_string(t) || /* infer_ustr.c */
            (t->kind == UF__T_ARRAY && t->ndim <= UF__LIST_ITEM_MAXDIM));
}

const uf__type *uf__list_dict_items_type(uf__ictx *C, const uf__expr *x,
                                         const uf__type *dt)
{
    if (dt->layout == 'i' && dt->n == 2 &&
        (uf__is_string(dt->elts[0]) || uf__is_string(dt->elts[1])) &&
        dt->elts[0]->kind != UF__T_TUPLE && dt->elts[1]->kind != UF__T_TUPLE &&
        dt->elts[1]->kind != UF__T_LIST && dt->elts[1]->kind != UF__T_DICT) {
        const uf__type *kv[2];
        for (int i = 0; i < 2; i++)
            kv[i] = uf__is_string(dt->elts[i]) ? uf__type_ustr(C->tc)
                                               : dt->elts[i];
        const uf__type *r = uf__type_tuple(C->tc, 2, kv, C->err);
        return r ? r : uf__ioom(C);
    }
    return uf__dict_items_type(C, x, dt); /* infer_dict.c */
}

const uf__type *uf__list_stored_type(uf__ictx *C, const uf__type *t)
{
    if (t->kind == UF__T_STR)
        return uf__type_ustr(C->tc);
    if (t->kind != UF__T_TUPLE)
        return t;
    const uf__type *f[UF__TUPLE_MAX];
    bool changed = false;
    for (int i = 0; i < t->n && i < UF__TUPLE_MAX; i++) {
        f[i] = t->elts[i]->kind == UF__T_STR ? uf__type_ustr(C->tc)
                                             : t->elts[i];
        changed |= f[i] != t->elts[i];
    }
    return changed ? uf__type_tuple(C->tc, t->n, f, C->err) : t;
}

/* The items of two lists of lists unify only when their types are the
 * same (Numba fails on [[1, 2], [2.5]]); others as uf__type_unify. */
static const uf__type *unify_items(uf__ictx *C, const uf__type *a,
                                   const uf__type *b)
{
    if (a->kind == UF__T_LIST || b->kind == UF__T_LIST)
        return a == b ? a : NULL;
    return uf__type_unify(C->tc, a, b);
}

const uf__type *uf__infer_list_literal(uf__ictx *C, const uf__expr *e)
{
    if (refuse_target(C, e) != 0)
        return NULL;
    const uf__type *elt = NULL;
    for (int i = 0; i < e->u.seq.n; i++) {
        const uf__expr *x = e->u.seq.elts[i];
        const uf__type *t = uf__infer_expr(C, x);
        if (t == NULL || t == UF__UNKNOWN)
            return t;
        if (!uf__list_elt_ok(t))
            return uf__ierr_t(C, UF_ERR_UNSUPPORTED, x->pos, "%s cannot be "
                              "an item of a list in kernels (lists of "
                              "numbers, strings, tuples of numbers and "
                              "strings, arrays, lists or dicts only)",
                              uf__tname(t));
        const uf__type *u = elt ? unify_items(C, elt, t) : t;
        if (u == NULL && uf__typectx_oom(C->tc))
            return uf__ioom(C);
        if (u == NULL)
            return uf__ierr_t(C, UF_ERR_TYPING, x->pos, "Cannot unify %s "
                              "and %s for the items of a list",
                              uf__tname(elt), uf__tname(t));
        elt = u;
    }
    /* ['a', 'a']: Numba's list(unicode_type) */
    if (elt != NULL && (elt = uf__list_stored_type(C, elt)) == NULL)
        return uf__ioom(C);
    const uf__type *r = uf__type_list(C->tc, elt, C->err);
    return r ? uf__iset(C, e, r) : NULL;
}

const uf__type *uf__infer_list_attr(uf__ictx *C, const uf__expr *e,
                                    const uf__type *base, uf__expr_info *in)
{
    const char *a = e->u.attr.attr;
    uf__builtin b = UF__BI_NONE;
#define X(id, name)                                                         \
    if (strncmp(name, "list.", 5) == 0 && strcmp(a, &name[5]) == 0)         \
        b = UF__BI_##id;
    UF__LIST_MAP(X)
#undef X
    if (b == UF__BI_NONE)
        return uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->u.attr.attr_pos,
                          "unknown attribute '%s' of %s (not supported in "
                          "kernels)", a, uf__tname(base));
    in->builtin = b;
    const uf__type *f = uf__type_function(C->tc, uf__builtin_name(b), C->err);
    return f ? uf__iset(C, e, f) : NULL;
}

/* l.append(v): v a number; the variable l refined or widened to hold it. */
static const uf__type *type_append(uf__ictx *C, const uf__expr *e,
                                   const uf__expr *recv, const uf__type *lt)
{
    if (e->u.call.nargs != 1 || e->u.call.nkw != 0)
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "append() takes exactly "
                          "one argument (%d given)",
                          e->u.call.nargs + e->u.call.nkw);
    const uf__expr *x = e->u.call.args[0];
    const uf__type *vt = uf__infer_expr(C, x);
    if (vt == NULL || vt == UF__UNKNOWN)
        return vt;
    if (!uf__list_elt_ok(vt))
        return uf__ierr_t(C, UF_ERR_UNSUPPORTED, x->pos, "%s cannot be an "
                          "item of a list in kernels (lists of numbers, "
                          "strings, tuples of numbers and strings, arrays "
                          "or lists only)", uf__tname(vt));
    if ((vt = uf__list_stored_type(C, vt)) == NULL)
        return uf__ioom(C);
    const uf__type *want = lt->n ? unify_items(C, lt->elts[0], vt) : vt;
    if (lt->n && want != lt->elts[0] && recv->kind == UF__EX_NAME &&
        uf__typed_list_var(C->km, C->tf->decl->def, recv->u.name.id)) {
        if (!uf__typed_casts(vt, lt->elts[0])) /* a numba.typed.List */
            return uf__ierr_t(C, UF_ERR_TYPING, x->pos, "cannot safely cast "
                              "%s to %s. Please cast explicitly.",
                              uf__tname(vt->kind == UF__T_STR
                                            ? uf__type_ustr(C->tc) : vt),
                              uf__tname(lt->elts[0]));
        want = lt->elts[0];
    }
    if (want == NULL && uf__typectx_oom(C->tc))
        return uf__ioom(C);
    if (want == NULL)
        return uf__ierr_t(C, UF_ERR_TYPING, x->pos, "Cannot unify %s and %s "
                          "for the items of %s", uf__tname(lt->elts[0]),
                          uf__tname(vt), uf__tname(lt));
    if (lt->n == 0 || want != lt->elts[0]) {
        const uf__type *nl = uf__type_list(C->tc, want, C->err);
        if (nl == NULL)
            return NULL;
        int v = recv->kind == UF__EX_NAME ? uf__typed_var(C->tf,
                                                          recv->u.name.id)
                                          : -1;
        if (v < 0)
            return uf__ierr_t(C, UF_ERR_TYPING, recv->pos, "cannot append "
                              "%s to %s here: only a list held in a local "
                              "variable takes a new item type",
                              uf__tname(vt), uf__tname(lt));
        if (uf__infer_refine_var(C, v, nl, recv->pos) < 0)
            return NULL;
    }
    uf__iinfo(C, e)->optype = vt;
    return uf__iset(C, e, uf__type_none(C->tc));
}

/* list(), list(range(...)), list(a) of a 1-D array, list(t) of a tuple
 * of numbers (unified), list(l) (a copy): the items' type as iterating
 * gives them. */
static const uf__type *type_new(uf__ictx *C, const uf__expr *e)
{
    if (refuse_target(C, e) != 0)
        return NULL;
    if (e->u.call.nkw != 0 || e->u.call.nargs > 1)
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "list() takes at most "
                          "1 argument (%d given)",
                          e->u.call.nargs + e->u.call.nkw);
    const uf__type *elt = NULL;
    if (e->u.call.nargs == 1) {
        const uf__expr *x = e->u.call.args[0];
        const uf__type *t = uf__infer_expr(C, x);
        if (t == NULL || t == UF__UNKNOWN)
            return t;
        const uf__type *rv = x->kind == UF__EX_CALL ? uf__iinfo(C, x)->optype
                                                    : NULL;
        if (t->kind == UF__T_RANGE && rv != NULL) {
            elt = rv;
        } else if (t->kind == UF__T_ARRAY && t->ndim == 1) {
            elt = uf__type_scalar(C->tc, t->dtype);
        } else if (t->kind == UF__T_LIST) {
            elt = t->n ? t->elts[0] : NULL;
        } else if (t->kind == UF__T_SET && t->n == 1) { /* lower_set.c */
            elt = t->elts[0];
        } else if (t->kind == UF__T_DICT) { /* keys, values or items */
            if ((elt = uf__list_dict_items_type(C, x, t)) == NULL)
                return NULL;
        } else if (t->kind == UF__T_TUPLE && t->n > 0 &&
                   uf__list_elt_ok(t->elts[0])) {
            /* Numba takes a homogeneous tuple (UniTuple) only */
            for (int i = 1; i < t->n; i++)
                if (t->elts[i] != t->elts[0])
                    return uf__ierr_t(C, UF_ERR_TYPING, x->pos, "No "
                                      "implementation of function list() "
                                      "for %s (a tuple whose items all "
                                      "have one type)", uf__tname(t));
            if ((elt = uf__list_stored_type(C, t->elts[0])) == NULL)
                return uf__ioom(C);
        } else {
            return uf__ierr_t(C, UF_ERR_TYPING, x->pos, "list() takes a "
                              "range(), a 1-D array of numbers, a tuple of "
                              "numbers, a list, a set or a dict in kernels, "
                              "not %s",
                              uf__tname(t));
        }
    }
    const uf__type *r = uf__type_list(C->tc, elt, C->err);
    return r ? uf__iset(C, e, r) : NULL;
}

/* The arguments of call e, at least lo and at most hi of them, typed
 * into t[]; NULL (error), UF__UNKNOWN, or a non-NULL marker. */
static const uf__type *method_args(uf__ictx *C, const uf__expr *e,
                                   const char *name, int lo, int hi,
                                   const uf__type **t)
{
    int n = e->u.call.nargs;
    if (e->u.call.nkw != 0 || n < lo || n > hi)
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "%s() takes %s%d "
                          "argument%s (%d given)", name,
                          lo == hi ? "exactly " : "at most ", hi,
                          hi == 1 ? "" : "s", n + e->u.call.nkw);
    for (int i = 0; i < n; i++) {
        t[i] = uf__infer_expr(C, e->u.call.args[i]);
        if (t[i] == NULL || t[i] == UF__UNKNOWN)
            return t[i];
    }
    return uf__type_none(C->tc);
}

static bool is_index(const uf__type *t)
{
    return t->kind == UF__T_SCALAR &&
           (uf__type_is_int(t) || t->dtype == UF_BOOL);
}

/* l.count(v), l.index(v), l.remove(v): v compared with == to each item
 * in the type both convert to (recorded as e's optype). */
static const uf__type *type_search(uf__ictx *C, const uf__expr *e,
                                   const uf__type *lt, uf__builtin b,
                                   const char *name)
{
    const uf__type *t[1];
    const uf__type *r = method_args(C, e, name, 1, 1, t);
    if (r == NULL || r == UF__UNKNOWN)
        return r;
    const uf__type *optype = NULL;
    if (lt->n == 1 && t[0]->kind == UF__T_SCALAR)
        uf__type_compare(C->tc, UF__CMP_EQ, lt->elts[0], t[0], &optype);
    if (lt->n == 1 && lt->elts[0]->kind == UF__T_USTR && uf__is_string(t[0]))
        optype = lt->elts[0]; /* strings: common/list_ustr.c */
    if (optype == NULL)
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "No implementation of "
                          "%s() for (%s, %s)", name, uf__tname(lt),
                          uf__tname(t[0]));
    uf__iinfo(C, e)->optype = optype;
    return uf__iset(C, e, b == UF__BI_LIST_REMOVE
                              ? uf__type_none(C->tc)
                              : uf__type_scalar(C->tc, UF_INT64));
}

/* l.extend(x): x a list, a 1-D array or a tuple of numbers; the items
 * appended one by one (the variable refined as by append). */
static const uf__type *type_extend(uf__ictx *C, const uf__expr *e,
                                   const uf__expr *recv, const uf__type *lt)
{
    const uf__type *t[1];
    const uf__type *r = method_args(C, e, "extend", 1, 1, t);
    if (r == NULL || r == UF__UNKNOWN)
        return r;
    const uf__type *it = t[0], *vt = NULL;
    if (it->kind == UF__T_LIST)
        vt = it->n ? it->elts[0] : NULL;
    else if (it->kind == UF__T_ARRAY && it->ndim == 1)
        vt = uf__type_scalar(C->tc, it->dtype);
    else
        return uf__ierr_t(C, UF_ERR_TYPING, e->u.call.args[0]->pos,
                          "extend() takes a list or a 1-D array in kernels, "
                          "not %s", uf__tname(it));
    if (vt != NULL) {
        const uf__type *want = lt->n ? uf__type_unify(C->tc, lt->elts[0], vt)
                                     : vt;
        if (want == NULL)
            return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "Cannot unify %s "
                              "and %s for the items of %s",
                              uf__tname(lt->n ? lt->elts[0] : NULL),
                              uf__tname(vt), uf__tname(lt));
        if (lt->n == 0 || want != lt->elts[0]) {
            const uf__type *nl = uf__type_list(C->tc, want, C->err);
            int v = recv->kind == UF__EX_NAME
                        ? uf__typed_var(C->tf, recv->u.name.id)
                        : -1;
            if (nl == NULL)
                return NULL;
            if (v < 0)
                return uf__ierr_t(C, UF_ERR_TYPING, recv->pos, "cannot "
                                  "extend %s with %s here: only a list "
                                  "held in a local variable takes a new "
                                  "item type", uf__tname(lt),
                                  uf__tname(it));
            if (uf__infer_refine_var(C, v, nl, recv->pos) < 0)
                return NULL;
        }
    }
    return uf__iset(C, e, uf__type_none(C->tc));
}

static const uf__type *type_method(uf__ictx *C, const uf__expr *e,
                                   const uf__expr *recv, const uf__type *lt,
                                   uf__builtin b)
{
    const char *name = uf__builtin_name(b) + 5;
    const uf__type *t[2];
    const uf__type *r;
    if (lt->n == 0 && b != UF__BI_LIST_EXTEND && b != UF__BI_LIST_INSERT &&
        b != UF__BI_LIST_CLEAR)
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "%s() of %s: its items "
                          "have no known type yet", name, uf__tname(lt));
    switch (b) {
    case UF__BI_LIST_POP:
        r = method_args(C, e, name, 0, 1, t);
        if (r == NULL || r == UF__UNKNOWN)
            return r;
        if (e->u.call.nargs == 1 && !is_index(t[0]))
            return uf__ierr_t(C, UF_ERR_TYPING, e->u.call.args[0]->pos,
                              "pop() index must be an integer, not %s",
                              uf__tname(t[0]));
        return uf__iset(C, e, lt->elts[0]);
    case UF__BI_LIST_INSERT: {
        r = method_args(C, e, name, 2, 2, t);
        if (r == NULL || r == UF__UNKNOWN)
            return r;
        if (!is_index(t[0]))
            return uf__ierr_t(C, UF_ERR_TYPING, e->u.call.args[0]->pos,
                              "insert() index must be an integer, not %s",
                              uf__tname(t[0]));
        if (!uf__list_elt_ok(t[1]))
            return uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->u.call.args[1]->pos,
                              "%s cannot be an item of a list in kernels "
                              "(lists of numbers, strings, tuples of "
                              "numbers and strings, arrays or lists only)",
                              uf__tname(t[1]));
        if ((t[1] = uf__list_stored_type(C, t[1])) == NULL)
            return uf__ioom(C);
        const uf__type *want = lt->n ? unify_items(C, lt->elts[0], t[1])
                                     : t[1];
        if (want != NULL && (lt->n == 0 || want != lt->elts[0])) {
            int v = recv->kind == UF__EX_NAME
                        ? uf__typed_var(C->tf, recv->u.name.id)
                        : -1;
            const uf__type *nl = uf__type_list(C->tc, want, C->err);
            if (nl == NULL || v < 0 ||
                uf__infer_refine_var(C, v, nl, recv->pos) < 0)
                return nl == NULL || v >= 0
                           ? NULL
                           : uf__ierr_t(C, UF_ERR_TYPING, recv->pos, "cannot "
                                        "insert %s into %s here",
                                        uf__tname(t[1]), uf__tname(lt));
        }
        return uf__iset(C, e, uf__type_none(C->tc));
    }
    case UF__BI_LIST_DELITEM:
        if (e->u.call.nargs != 1 || e->u.call.nkw != 0)
            return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "%s", "__delitem__() "
                              "takes exactly one argument");
        return uf__infer_list_delitem(C, e, lt); /* infer_list_ops.c */
    case UF__BI_LIST_EXTEND:
        return type_extend(C, e, recv, lt);
    case UF__BI_LIST_CLEAR:
    case UF__BI_LIST_REVERSE:
    case UF__BI_LIST_COPY:
        r = method_args(C, e, name, 0, 0, t);
        if (r == NULL || r == UF__UNKNOWN)
            return r;
        return uf__iset(C, e, b == UF__BI_LIST_COPY ? lt
                                                    : uf__type_none(C->tc));
    default:
        return type_search(C, e, lt, b, name);
    }
}

const uf__type *uf__infer_list_call(uf__ictx *C, const uf__expr *e,
                                    uf__builtin b)
{
    if (b == UF__BI_LIST_SORT || b == UF__BI_LIST_SORTED)
        return uf__infer_list_sort(C, e, b); /* infer_list_ops.c */
    if (b == UF__BI_LIST_NEW) {
        uf__iinfo(C, e)->builtin = b;
        const uf__type *dl; /* List.empty_list (typed_containers.c) */
        int dk = uf__typed_declared(C->km, e, &dl, C->err);
        if (dk != 0)
            return dk < 0 || refuse_target(C, e) != 0 ? NULL
                                                     : uf__iset(C, e, dl);
        return type_new(C, e);
    }
    const uf__expr *recv = e->u.call.func->u.attr.value;
    const uf__type *lt = uf__iinfo(C, recv)->type;
    uf__iinfo(C, e)->builtin = b;
    if (b == UF__BI_LIST_APPEND)
        return type_append(C, e, recv, lt);
    return type_method(C, e, recv, lt, b);
}

const uf__type *uf__infer_list_index(uf__ictx *C, const uf__expr *e,
                                     const uf__type *lt)
{
    if (e->u.subscript.nindex == 1 &&
        e->u.subscript.index[0]->kind == UF__EX_SLICE) /* infer_list_ops.c */
        return uf__infer_list_slice(C, e, lt);
    if (e->u.subscript.nindex != 1)
        return uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->pos, "%s", "lists are "
                          "indexed with one integer or a slice in kernels");
    const uf__expr *x = e->u.subscript.index[0];
    const uf__type *t = uf__infer_expr(C, x);
    if (t == NULL || t == UF__UNKNOWN)
        return t;
    if (t->kind != UF__T_SCALAR ||
        !(uf__type_is_int(t) || t->dtype == UF_BOOL))
        return uf__ierr_t(C, UF_ERR_TYPING, x->pos, "list indices must be "
                          "integers, not %s", uf__tname(t));
    if (lt->n == 0)
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "%s has no items of a "
                          "known type yet", uf__tname(lt));
    return uf__iset(C, e, lt->elts[0]);
}

int uf__infer_list_check(uf__ictx *C)
{
    const uf__typed_func *tf = C->tf;
    for (int i = 0; i < tf->nvars; i++) {
        const uf__type *t = tf->vars[i].type;
        if (t == NULL || t->kind != UF__T_LIST || t->n != 0)
            continue;
        /* a version of the name (ssa_versions.c) fed into a refined join
         * is not imprecise */
        const char *name = tf->vars[i].name;
        size_t len = strcspn(name, ".");
        bool refined = false;
        for (int j = 0; j < tf->nvars && !refined; j++) {
            const uf__type *u = tf->vars[j].type;
            refined = u && u->kind == UF__T_LIST && u->n == 1 &&
                      strncmp(tf->vars[j].name, name, len) == 0 &&
                      strcspn(tf->vars[j].name, ".") == len;
        }
        if (!refined)
            return uf__ierr(C, UF_ERR_TYPING, C->def_pos[i], "Cannot infer "
                            "the type of variable '%.*s', have imprecise "
                            "type: list(undefined)<iv=None>. For Numba to "
                            "be able to compile a list, the list must have "
                            "a known and precise type that can be inferred "
                            "from the other variables (append an item)",
                            (int)len, name);
    }
    return 0;
}
