/* Typing of sets (Numba's set(T) of numbers, numba/core/typing/
 * setdecl.py and numba/cpython/setobj.py): `{a, b}` literals, set() refined
 * by its first add, set(x) of a 1-D array, a list, a homogeneous tuple or
 * a set, s.add / discard / remove / pop / clear / copy / update, `x in s`,
 * len, truth, loops over s, the set operators and methods; lowered by
 * compiler/lower/lower_set.c.
 *
 * As Numba: a literal's items unify (`{1, 2.5}` is a set(float64)); an add
 * or update of another number type widens the variable's set the way
 * Numba's unification does (`s = {1}; s.add(2.5)` makes s a
 * set(float64)); `x in s` converts x to the set's type (1.5 in {1} is
 * True, as Numba's cast); s.remove(x) and s.discard(x) take x of the
 * set's type only; the operators and the
 * methods taking another set (union, issubset, ...) take a set of the
 * same type only (Numba's check_all_set), never a list or a tuple. Keys
 * are numbers (complex ones too), tuples of numbers (nested or not, at
 * most UF__SET_MAXFIELDS 8-byte fields once flattened, a complex number
 * two) and strings (a literal taken as unicode_type, as Numba's typeof of
 * a str); set(d) and set(d.keys()) take a dict's keys, set(d.values())
 * and set(d.items()) its values and (key, value) tuples, set(range(...))
 * the range's values (lower_set_from.c). */
#include <string.h>

#include "common/set.h"
#include "compiler/types/infer_internal.h"

static int refuse_target(uf__ictx *C, const uf__expr *e)
{
    uf__kernel_kind k = C->tf->decl->kind;
    if (k == UF__K_CUDA_KERNEL || k == UF__K_DEVICE)
        return uf__ierr(C, UF_ERR_UNSUPPORTED, e->pos, "%s", "sets are not "
                        "supported in CUDA kernels (a set allocates on the "
                        "host)");
    return 0;
}

/* The 8-byte fields a key of type t flattens to (common/set.h), or -1
 * when t cannot be a key: numbers, and tuples of them. */
static int key_fields(const uf__type *t)
{
    if (t->kind == UF__T_SCALAR)
        return uf_dtype_kind(t->dtype) == 'c' ? 2 : 1;
    if (t->kind != UF__T_TUPLE || t->n == 0)
        return -1;
    int n = 0;
    for (int i = 0; i < t->n; i++) {
        int k = key_fields(t->elts[i]);
        if (k < 0)
            return -1;
        n += k;
    }
    return n;
}

static int check_key(uf__ictx *C, const uf__expr *x, const uf__type *t)
{
    if (uf__is_string(t))
        return 0;
    int n = key_fields(t);
    if (n < 0)
        return uf__ierr(C, UF_ERR_UNSUPPORTED, x->pos, "%s cannot be an item "
                        "of a set in kernels (sets of numbers, tuples of "
                        "numbers and strings)", uf__tname(t));
    if (n > UF__SET_MAXFIELDS)
        return uf__ierr(C, UF_ERR_UNSUPPORTED, x->pos, "%s cannot be an item "
                        "of a set in kernels: a tuple key holds at most %d "
                        "numbers (a complex number counts twice)",
                        uf__tname(t), UF__SET_MAXFIELDS);
    return 0;
}

/* A literal string item makes the set's type unicode_type (Numba's typeof
 * of a str). */
static const uf__type *stored_type(uf__ictx *C, const uf__type *t)
{
    return t->kind == UF__T_STR ? uf__type_ustr(C->tc) : t;
}

/* Whether the items are bools, integers or floats: the 64-bit keys
 * lower_set.c compares inline, and which unify by widening. */
static bool narrow_key(const uf__type *t)
{
    return t->kind == UF__T_SCALAR && uf_dtype_kind(t->dtype) != 'c';
}

/* Whether x (typed t) is looked up in a set of key type k as k: numbers
 * of a narrow set any number but complex (Numba's cast), a complex set
 * any number, a tuple field by field, a string set any string. */
static bool looks_up(const uf__type *t, const uf__type *k)
{
    if (uf__is_string(t) || uf__is_string(k))
        return uf__is_string(t) && k->kind == UF__T_USTR;
    if (t->kind == UF__T_TUPLE && k->kind == UF__T_TUPLE) {
        if (t->n != k->n)
            return false;
        for (int i = 0; i < t->n; i++)
            if (!looks_up(t->elts[i], k->elts[i]))
                return false;
        return true;
    }
    if (t->kind != UF__T_SCALAR || k->kind != UF__T_SCALAR)
        return false;
    return uf_dtype_kind(t->dtype) != 'c' || uf_dtype_kind(k->dtype) == 'c';
}

/* The items' type of x (typed t) that set(x) and s.update(x) take: a
 * 1-D array, a list, a tuple whose items share one type, a set, a
 * range() call, a dict (its keys) or its keys(), values() or items()
 * view; NULL with the error. */
static const uf__type *items_of(uf__ictx *C, const uf__expr *x,
                                const uf__type *t, const char *what)
{
    const uf__type *it = NULL;
    const uf__type *rv = t->kind == UF__T_RANGE && x->kind == UF__EX_CALL
                             ? uf__iinfo(C, x)->optype
                             : NULL;
    if (t->kind == UF__T_RANGE) { /* a range() call's values: its dtype */
        if (rv == NULL)
            return uf__ierr_t(C, UF_ERR_UNSUPPORTED, x->pos, "%s of a range "
                              "held in a variable is not supported in "
                              "kernels (call range() in the argument)",
                              what);
        it = uf__type_scalar(C->tc, rv->dtype);
    } else if (t->kind == UF__T_ARRAY && t->ndim == 1)
        it = uf__type_scalar(C->tc, t->dtype);
    else if ((t->kind == UF__T_LIST || t->kind == UF__T_SET) && t->n == 1)
        it = t->elts[0];
    else if (t->kind == UF__T_TUPLE && t->n > 0) {
        it = t->elts[0];
        for (int i = 1; i < t->n && it != NULL; i++)
            if (t->elts[i] != it)
                it = NULL;
    } else if (t->kind == UF__T_DICT && t->n == 2 &&
               (t->layout == 0 || t->layout == 'k')) {
        it = t->elts[0]; /* set(d), set(d.keys()): lower_set.c */
    } else if (t->kind == UF__T_DICT && t->n == 2 && t->layout == 'v') {
        it = t->elts[1]; /* set(d.values()): lower_set_from.c */
    } else if (t->kind == UF__T_DICT && t->n == 2) { /* d.items() */
        if ((it = uf__type_tuple(C->tc, 2, t->elts, C->err)) == NULL)
            return uf__ioom(C);
    } else if ((t->kind == UF__T_LIST || t->kind == UF__T_SET) && t->n == 0)
        return uf__ierr_t(C, UF_ERR_TYPING, x->pos, "%s of %s: its items "
                          "have no known type yet", what, uf__tname(t));
    if (it == NULL)
        return uf__ierr_t(C, UF_ERR_TYPING, x->pos, "No implementation of "
                          "function %s for %s (kernels take a 1-D array, a "
                          "list, a tuple whose items all have one type, a "
                          "set, a range or a dict's keys, values or "
                          "items)", what, uf__tname(t));
    return check_key(C, x, it) == 0 ? stored_type(C, it) : NULL;
}

/* The set variable recv (of type st) made to hold items of type it: the
 * variable refined or widened (Numba's unification); 0 or -1. */
static int widen(uf__ictx *C, const uf__expr *recv, const uf__type *st,
                 const uf__type *it, const uf__expr *x)
{
    it = stored_type(C, it);
    if (st->n == 1 && !(narrow_key(st->elts[0]) && narrow_key(it))) {
        /* a tuple, complex or string set keeps its type: the item is
         * converted to it (lower_set.c) */
        if (it == st->elts[0] || looks_up(it, st->elts[0]))
            return 0;
        return uf__ierr(C, UF_ERR_TYPING, x->pos, "Cannot unify %s and %s "
                        "for the items of %s", uf__tname(st->elts[0]),
                        uf__tname(it), uf__tname(st));
    }
    const uf__type *want = st->n ? uf__type_unify(C->tc, st->elts[0], it)
                                 : it;
    if (want == NULL && uf__typectx_oom(C->tc))
        return uf__ioom(C), -1;
    if (want == NULL)
        return uf__ierr(C, UF_ERR_TYPING, x->pos, "Cannot unify %s and %s "
                        "for the items of %s", uf__tname(st->elts[0]),
                        uf__tname(it), uf__tname(st));
    if (st->n == 1 && want == st->elts[0])
        return 0;
    const uf__type *ns = uf__type_set(C->tc, want, C->err);
    if (ns == NULL)
        return -1;
    int v = recv->kind == UF__EX_NAME ? uf__typed_var(C->tf, recv->u.name.id)
                                      : -1;
    if (v < 0)
        return uf__ierr(C, UF_ERR_TYPING, recv->pos, "cannot add %s to %s "
                        "here: only a set held in a local variable takes a "
                        "new item type", uf__tname(it), uf__tname(st));
    return uf__infer_refine_var(C, v, ns, recv->pos);
}

/* set(), set(x), and the literal {a, b, ...} (`starred`). */
static const uf__type *type_new(uf__ictx *C, const uf__expr *e)
{
    if (refuse_target(C, e) != 0)
        return NULL;
    int n = e->u.call.nargs;
    const uf__type *key = NULL;
    if (e->u.call.starred) {
        for (int i = 0; i < n; i++) {
            const uf__expr *x = e->u.call.args[i];
            const uf__type *xt = uf__infer_expr(C, x);
            if (xt == NULL || xt == UF__UNKNOWN)
                return xt;
            if (check_key(C, x, xt) != 0)
                return NULL;
            xt = stored_type(C, xt);
            const uf__type *u = key ? uf__type_unify(C->tc, key, xt) : xt;
            if (u == NULL && uf__typectx_oom(C->tc))
                return uf__ioom(C);
            if (u == NULL)
                return uf__ierr_t(C, UF_ERR_TYPING, x->pos, "Cannot unify "
                                  "%s and %s for the items of a set",
                                  uf__tname(key), uf__tname(xt));
            key = u;
        }
    } else if (e->u.call.nkw != 0 || n > 1) {
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "set() takes at most 1 "
                          "argument (%d given)", n + e->u.call.nkw);
    } else if (n == 1) {
        const uf__expr *x = e->u.call.args[0];
        const uf__type *xt = uf__infer_expr(C, x);
        if (xt == NULL || xt == UF__UNKNOWN)
            return xt;
        if ((key = items_of(C, x, xt, "set()")) == NULL)
            return NULL;
        uf__iinfo(C, e)->optype = xt;
    }
    const uf__type *r = uf__type_set(C->tc, key, C->err);
    return r ? uf__iset(C, e, r) : NULL;
}

const uf__type *uf__infer_set_attr(uf__ictx *C, const uf__expr *e,
                                   const uf__type *base, uf__expr_info *in)
{
    const char *a = e->u.attr.attr;
    uf__builtin b = UF__BI_NONE;
#define X(id, name)                                                         \
    if (strncmp(name, "set.", 4) == 0 && strcmp(a, &name[4]) == 0)          \
        b = UF__BI_##id;
    UF__SET_MAP(X)
#undef X
    if (b == UF__BI_NONE)
        return uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->u.attr.attr_pos,
                          "unknown attribute '%s' of %s (not supported in "
                          "kernels)", a, uf__tname(base));
    in->builtin = b;
    const uf__type *f = uf__type_function(C->tc, uf__builtin_name(b), C->err);
    return f ? uf__iset(C, e, f) : NULL;
}

static const uf__type *args_of(uf__ictx *C, const uf__expr *e,
                               const char *name, int want,
                               const uf__type **t)
{
    int n = e->u.call.nargs;
    if (e->u.call.nkw != 0 || n != want)
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "%s() takes exactly %d "
                          "argument%s (%d given)", name, want,
                          want == 1 ? "" : "s", n + e->u.call.nkw);
    for (int i = 0; i < n; i++) {
        t[i] = uf__infer_expr(C, e->u.call.args[i]);
        if (t[i] == NULL || t[i] == UF__UNKNOWN)
            return t[i];
    }
    return uf__type_none(C->tc);
}

/* Numba's check_all_set: b a set of a's type. */
static int same_sets(uf__ictx *C, uf__pos pos, const char *what,
                     const uf__type *a, const uf__type *b)
{
    if (b->kind != UF__T_SET || a->kind != UF__T_SET)
        return uf__ierr(C, UF_ERR_TYPING, pos, "No implementation of "
                        "function %s found for signature (%s, %s): All "
                        "arguments must be Sets", what, uf__tname(a),
                        uf__tname(b));
    if (a->n == 0 || b->n == 0 || a != b)
        return uf__ierr(C, UF_ERR_TYPING, pos, "No implementation of "
                        "function %s found for signature (%s, %s): All Sets "
                        "must be of the same type", what, uf__tname(a),
                        uf__tname(b));
    return 0;
}

static const uf__type *type_method(uf__ictx *C, const uf__expr *e,
                                   const uf__expr *recv, const uf__type *st,
                                   uf__builtin b)
{
    const char *name = uf__builtin_name(b) + 4;
    const uf__type *t[1] = {NULL};
    const uf__expr *x = e->u.call.nargs ? e->u.call.args[0] : e;
    const uf__type *none = uf__type_none(C->tc), *r;
    bool unary = b == UF__BI_SET_POP || b == UF__BI_SET_CLEAR ||
                 b == UF__BI_SET_COPY;
    r = args_of(C, e, name, unary ? 0 : 1, t);
    if (r == NULL || r == UF__UNKNOWN)
        return r;
    if (st->n == 0 && b != UF__BI_SET_ADD && b != UF__BI_SET_UPDATE &&
        b != UF__BI_SET_CLEAR)
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "%s() of %s: its items "
                          "have no known type yet (add an item first)", name,
                          uf__tname(st));
    switch (b) {
    case UF__BI_SET_ADD:
        if (check_key(C, x, t[0]) != 0 || widen(C, recv, st, t[0], x) != 0)
            return NULL;
        return uf__iset(C, e, none);
    case UF__BI_SET_UPDATE: {
        if (t[0]->kind == UF__T_DICT) /* Numba fails typing these */
            return uf__ierr_t(C, UF_ERR_TYPING, x->pos, "No implementation "
                              "of function set.update found for signature "
                              "(%s, %s): Numba 0.68 does not update a set "
                              "from a dict or a dict view (set(d) and "
                              "set(d.values()) make one)", uf__tname(st),
                              uf__tname(t[0]));
        const uf__type *it = items_of(C, x, t[0], "set.update()");
        if (it == NULL || widen(C, recv, st, it, x) != 0)
            return NULL;
        uf__iinfo(C, e)->optype = t[0];
        return uf__iset(C, e, none);
    }
    case UF__BI_SET_DISCARD:
    case UF__BI_SET_REMOVE:
        /* Numba's remove: `if s.dtype == item`; its discard takes any
         * item but fails lowering another type (an LLVM type mismatch) */
        if (stored_type(C, t[0]) != st->elts[0])
            return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "No implementation "
                              "of function set.%s found for signature (%s, "
                              "%s): the item must have the set's type %s",
                              name, uf__tname(st), uf__tname(t[0]),
                              uf__tname(st->elts[0]));
        return uf__iset(C, e, none);
    case UF__BI_SET_POP:
        return uf__iset(C, e, st->elts[0]);
    case UF__BI_SET_CLEAR:
        return uf__iset(C, e, none);
    case UF__BI_SET_COPY:
        return uf__iset(C, e, st);
    case UF__BI_SET_UNION:
    case UF__BI_SET_INTERSECTION:
    case UF__BI_SET_DIFFERENCE:
    case UF__BI_SET_SYMDIFF:
        if (same_sets(C, x->pos, uf__builtin_name(b), st, t[0]) != 0)
            return NULL;
        return uf__iset(C, e, st);
    case UF__BI_SET_INTERSECTION_UPDATE:
    case UF__BI_SET_DIFFERENCE_UPDATE:
    case UF__BI_SET_SYMDIFF_UPDATE:
        if (same_sets(C, x->pos, uf__builtin_name(b), st, t[0]) != 0)
            return NULL;
        return uf__iset(C, e, none);
    default: /* issubset, issuperset, isdisjoint */
        if (same_sets(C, x->pos, uf__builtin_name(b), st, t[0]) != 0)
            return NULL;
        return uf__iset(C, e, uf__type_scalar(C->tc, UF_BOOL));
    }
}

const uf__type *uf__infer_set_call(uf__ictx *C, const uf__expr *e,
                                   uf__builtin b)
{
    uf__iinfo(C, e)->builtin = b;
    if (b == UF__BI_SET_NEW)
        return type_new(C, e);
    const uf__expr *recv = e->u.call.func->u.attr.value;
    return type_method(C, e, recv, uf__iinfo(C, recv)->type, b);
}

const uf__type *uf__infer_set_item(uf__ictx *C, const uf__expr *it,
                                   const uf__type *st)
{
    if (st->n == 0) {
        uf__ierr(C, UF_ERR_TYPING, it->pos, "%s has no items of a known "
                 "type to iterate over", uf__tname(st));
        return NULL;
    }
    return st->elts[0];
}

const uf__type *uf__infer_set_contains(uf__ictx *C, const uf__expr *e,
                                       uf__expr_info *in, const uf__type *x,
                                       const uf__type *st)
{
    if (st->n == 0 || !looks_up(x, st->elts[0]) ||
        (narrow_key(st->elts[0]) && x->kind != UF__T_SCALAR))
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "No implementation of "
                          "function contains for (%s, %s)", uf__tname(st),
                          uf__tname(x));
    if (e->u.compare.nops != 1)
        return uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->pos, "%s", "'in' in a "
                          "comparison chain is not supported in kernels");
    in->optype = st->elts[0]; /* x converted to it, as Numba's contains */
    return uf__iset(C, e, uf__type_scalar(C->tc, UF_BOOL));
}

static const char *op_name(int op)
{
    switch (op) {
    case UF__OP_BITOR:
        return "or_";
    case UF__OP_BITAND:
        return "and_";
    case UF__OP_SUB:
        return "sub";
    default:
        return "xor";
    }
}

static bool set_op(int op)
{
    return op == UF__OP_BITOR || op == UF__OP_BITAND || op == UF__OP_SUB ||
           op == UF__OP_BITXOR;
}

const uf__type *uf__infer_set_binop(uf__ictx *C, const uf__expr *e,
                                    const uf__type *a, const uf__type *b)
{
    int op = (int)e->u.binary.op;
    if (!set_op(op))
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "unsupported operand "
                          "types for %s: %s and %s",
                          uf__binop_str(e->u.binary.op), uf__tname(a),
                          uf__tname(b));
    if (same_sets(C, e->pos, op_name(op), a, b) != 0)
        return NULL;
    return uf__iset(C, e, a);
}

const uf__type *uf__infer_set_augassign(uf__ictx *C, const uf__stmt *s,
                                        const uf__type *a, const uf__type *b)
{
    int op = (int)s->u.augassign.op;
    if (!set_op(op))
        return uf__ierr_t(C, UF_ERR_TYPING, s->pos, "unsupported operand "
                          "types for %s=: %s and %s",
                          uf__binop_str(s->u.augassign.op), uf__tname(a),
                          uf__tname(b));
    static const char *const inames[] = {"isub", "iand", "ior", "ixor"};
    const char *what = op == UF__OP_SUB      ? inames[0]
                       : op == UF__OP_BITAND ? inames[1]
                       : op == UF__OP_BITOR  ? inames[2]
                                             : inames[3];
    if (same_sets(C, s->pos, what, a, b) != 0)
        return NULL;
    return a;
}

const uf__type *uf__infer_set_compare(uf__ictx *C, const uf__expr *e,
                                      uf__expr_info *in, int op,
                                      const uf__type *a, const uf__type *b)
{
    if (e->u.compare.nops != 1 || op == UF__CMP_IS || op == UF__CMP_ISNOT)
        return uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->pos, "%s", "sets are "
                          "compared with one of ==, !=, <, <=, >, >= in "
                          "kernels (not in a chain, not with 'is')");
    if (same_sets(C, e->pos, uf__cmpop_str((uf__cmpop)op), a, b) != 0)
        return NULL;
    in->optype = a;
    return uf__iset(C, e, uf__type_scalar(C->tc, UF_BOOL));
}

int uf__infer_set_check(uf__ictx *C)
{
    const uf__typed_func *tf = C->tf;
    for (int i = 0; i < tf->nvars; i++) {
        const uf__type *t = tf->vars[i].type;
        if (t == NULL || t->kind != UF__T_SET || t->n != 0)
            continue;
        /* a version of the name (ssa_versions.c) fed into a refined join
         * is not imprecise */
        const char *name = tf->vars[i].name;
        size_t len = strcspn(name, ".");
        bool refined = false;
        for (int j = 0; j < tf->nvars && !refined; j++) {
            const uf__type *u = tf->vars[j].type;
            refined = u && u->kind == UF__T_SET && u->n == 1 &&
                      strncmp(tf->vars[j].name, name, len) == 0 &&
                      strcspn(tf->vars[j].name, ".") == len;
        }
        if (!refined)
            return uf__ierr(C, UF_ERR_TYPING, C->def_pos[i], "Cannot infer "
                            "the type of variable '%.*s', have imprecise "
                            "type: set(undefined). For Numba to be able to "
                            "compile a set, the set must have a known and "
                            "precise type that can be inferred from the "
                            "other variables (add an item: s.add(x))",
                            (int)len, name);
    }
    return 0;
}
