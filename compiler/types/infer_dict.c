/* Typing of dicts (Numba's DictType[K, V] of numbers, numba/typed/
 * dictobject.py): `{}` and dict() refined by their first store, `{k: v}`
 * literals, d[k], d[k] = v, `k in d`, len, truth, d.get, d.pop,
 * d.setdefault, d.popitem, d.clear, d.copy, and loops over d, d.keys(),
 * d.values(), d.items(); lowered by compiler/lower/lower_dict.c.
 *
 * As Numba: a literal is typed by its first pair (the others stored into
 * it); a key or value stored, looked up or given as a default converts
 * to the dict's type only within its kind or up (bool -> int -> float ->
 * complex; Numba's _cast refuses float -> int); `{}` never stored into
 * is refused with Numba's message. Keys are numbers (complex ones
 * too), strings (a literal taken as unicode_type) and tuples of numbers;
 * values any number, tuple of
 * numbers, string or array (one dtype and ndim; a C or F array stores
 * into a dict of A arrays, never the other way, as Numba's first store
 * fixes the layout). */
#include <string.h>

#include "common/list_items.h"
#include "common/set.h"
#include "compiler/front/typed_containers.h"
#include "compiler/types/infer_internal.h"

static int refuse_target(uf__ictx *C, const uf__expr *e)
{
    uf__kernel_kind k = C->tf->decl->kind;
    if (k == UF__K_CUDA_KERNEL || k == UF__K_DEVICE)
        return uf__ierr(C, UF_ERR_UNSUPPORTED, e->pos, "%s", "dicts are not "
                        "supported in CUDA kernels (a dict allocates on the "
                        "host)");
    return 0;
}

/* bool 0, integers 1, floats 2, complex 3. */
static int rank(const uf__type *t)
{
    if (t->dtype == UF_BOOL)
        return 0;
    if (uf__type_is_int(t))
        return 1;
    return uf_dtype_kind(t->dtype) == 'c' ? 3 : 2;
}

/* Whether a number of type `from` is stored into, or looked up as, `to`
 * (Numba's _cast: any width within a kind, a kind up, never down); a
 * tuple value field by field. */
static bool casts(const uf__type *from, const uf__type *to)
{
    if (from->kind == UF__T_LIST || from->kind == UF__T_DICT ||
        to->kind == UF__T_LIST || to->kind == UF__T_DICT)
        return from == to; /* stored as its pointer: the very type */
    if (from->kind == UF__T_ARRAY || to->kind == UF__T_ARRAY)
        return from->kind == UF__T_ARRAY && to->kind == UF__T_ARRAY &&
               from->dtype == to->dtype && from->ndim == to->ndim &&
               (from->layout == to->layout || to->layout == 'A') &&
               (!from->readonly || to->readonly);
    if (uf__is_string(from) || uf__is_string(to))
        return uf__is_string(from) && to->kind == UF__T_USTR;
    if (from->kind == UF__T_TUPLE && to->kind == UF__T_TUPLE) {
        if (from->n != to->n)
            return false;
        for (int i = 0; i < from->n; i++)
            if (!casts(from->elts[i], to->elts[i]))
                return false;
        return true;
    }
    return from->kind == UF__T_SCALAR && to->kind == UF__T_SCALAR &&
           rank(from) <= rank(to);
}

/* The 8-byte fields of a key of type t (common/dict.h's WIDE keys: a
 * complex number two, a tuple its numbers', nested or not), or -1 when
 * t cannot be a key. */
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
    if (n < 0 || n > UF__SET_MAXFIELDS)
        return uf__ierr(C, UF_ERR_UNSUPPORTED, x->pos, "%s cannot be a key "
                        "of a dict in kernels (keys are numbers, strings "
                        "and tuples of at most %d numbers, a complex "
                        "number counting twice)", uf__tname(t),
                        UF__SET_MAXFIELDS);
    return 0;
}

/* A literal key or value makes the dict's type unicode_type, as Numba's
 * typeof of a str (dictobject's typed dict of unicode_type). */
static const uf__type *stored_type(uf__ictx *C, const uf__type *t)
{
    return t->kind == UF__T_STR ? uf__type_ustr(C->tc) : t;
}

/* Values are numbers, tuples of numbers (stored field by field,
 * lower_dict.c), strings or arrays (stored whole, as a list's array
 * items). A list is refused with Numba's words (a reflected list as a
 * value is forbidden; typed.List values are not kernel code). */
static int check_value(uf__ictx *C, const uf__expr *x, const uf__type *t)
{
    if (t->kind == UF__T_LIST)
        return uf__ierr(C, UF_ERR_TYPING, x->pos, "%s as value is forbidden "
                        "(Numba 0.68 refuses a list as the value of a "
                        "dict; an array value is allowed)", uf__tname(t));
    if (t->kind == UF__T_SET)
        return uf__ierr(C, UF_ERR_TYPING, x->pos, "%s as value is forbidden "
                        "(Numba 0.68 refuses a set as the value of a "
                        "dict)", uf__tname(t));
    if (t->kind == UF__T_DICT && t->n == 2 && t->layout == 0) {
        if (uf__type_nest_depth(t) >= UF__LIST_NEST_MAX)
            return uf__ierr(C, UF_ERR_UNSUPPORTED, x->pos, "dicts and lists "
                            "nested more than %d deep are not supported in "
                            "kernels", UF__LIST_NEST_MAX);
        return 0; /* a typed dict: Numba's dict of dicts */
    }
    bool ok = t->kind == UF__T_SCALAR || uf__is_string(t) ||
              t->kind == UF__T_ARRAY;
    if (t->kind == UF__T_TUPLE) {
        ok = t->n > 0;
        for (int i = 0; i < t->n; i++)
            ok = ok && t->elts[i]->kind == UF__T_SCALAR;
    }
    if (!ok)
        return uf__ierr(C, UF_ERR_UNSUPPORTED, x->pos, "%s cannot be a value "
                        "of a dict in kernels (values are numbers, tuples "
                        "of numbers, strings, arrays, dicts, or typed "
                        "lists declared by Dict.empty)", uf__tname(t));
    return 0;
}

/* k (typed kt) against dict dt's key type: 0, or -1 with Numba's
 * refusal. */
static int key_casts(uf__ictx *C, const uf__expr *k, const uf__type *kt,
                     const uf__type *dt, const char *what)
{
    if (!casts(kt, dt->elts[0]))
        return uf__ierr(C, UF_ERR_TYPING, k->pos, "No implementation of "
                        "function %s found for signature (%s, %s): a key "
                        "of type %s does not convert to the key type %s",
                        what, uf__tname(dt), uf__tname(kt), uf__tname(kt),
                        uf__tname(dt->elts[0]));
    return 0;
}

static int value_casts(uf__ictx *C, const uf__expr *v, const uf__type *vt,
                       const uf__type *dt, const char *what)
{
    if (!casts(vt, dt->elts[1]))
        return uf__ierr(C, UF_ERR_TYPING, v->pos, "No implementation of "
                        "function %s found for signature (%s, ..., %s): a "
                        "value of type %s does not convert to the value "
                        "type %s", what, uf__tname(dt), uf__tname(vt),
                        uf__tname(vt), uf__tname(dt->elts[1]));
    return 0;
}

/* dict() and the literal {k0: v0, k1: v1, ...} (2n arguments). */
static const uf__type *type_new(uf__ictx *C, const uf__expr *e)
{
    if (refuse_target(C, e) != 0)
        return NULL;
    int n = e->u.call.nargs;
    if (e->u.call.nkw != 0 || (n > 0 && !e->u.call.starred))
        return uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->pos, "%s", "dict() "
                          "takes no arguments in kernels (Numba's dict() "
                          "makes an empty typed dict)");
    const uf__type *t[2] = {NULL, NULL};
    for (int i = 0; i < n; i++) {
        const uf__expr *x = e->u.call.args[i];
        const uf__type *xt = uf__infer_expr(C, x);
        if (xt == NULL || xt == UF__UNKNOWN)
            return xt;
        if ((i % 2 == 0 ? check_key(C, x, xt) : check_value(C, x, xt)) != 0)
            return NULL;
        if (i < 2) {
            t[i] = stored_type(C, xt);
            continue;
        }
        const uf__type *dt = uf__type_dict(C->tc, t[0], t[1], 0, C->err);
        if (dt == NULL)
            return NULL;
        if ((i % 2 == 0 ? key_casts(C, x, xt, dt, "setitem")
                        : value_casts(C, x, xt, dt, "setitem")) != 0)
            return NULL;
    }
    const uf__type *r = uf__type_dict(C->tc, t[0], t[1], 0, C->err);
    return r ? uf__iset(C, e, r) : NULL;
}

const uf__type *uf__dict_items_type(uf__ictx *C, const uf__expr *x,
                                    const uf__type *dt)
{
    if (dt->n != 2)
        return uf__ierr_t(C, UF_ERR_TYPING, x->pos, "%s: its keys and "
                          "values have no known type yet (store an item "
                          "first)", uf__tname(dt));
    if (dt->layout == 'v')
        return dt->elts[1];
    if (dt->layout != 'i')
        return dt->elts[0];
    uf__type_kind vk = dt->elts[1]->kind;
    if (uf__is_string(dt->elts[0]) || uf__is_string(dt->elts[1]) ||
        vk == UF__T_TUPLE || vk == UF__T_ARRAY || vk == UF__T_LIST ||
        vk == UF__T_DICT)
        return uf__ierr_t(C, UF_ERR_UNSUPPORTED, x->pos, "a list of the "
                          "(key, value) tuples of %s is not supported in "
                          "kernels: a list's tuples hold numbers only "
                          "(loop over d.items() instead)",
                          uf__tname(dt));
    const uf__type *r = uf__type_tuple(C->tc, 2, dt->elts, C->err);
    return r ? r : uf__ioom(C);
}

const uf__type *uf__infer_dict_attr(uf__ictx *C, const uf__expr *e,
                                    const uf__type *base, uf__expr_info *in)
{
    const char *a = e->u.attr.attr;
    uf__builtin b = UF__BI_NONE;
#define X(id, name)                                                         \
    if (strncmp(name, "dict.", 5) == 0 && strcmp(a, &name[5]) == 0)         \
        b = UF__BI_##id;
    UF__DICT_MAP(X)
#undef X
    if (b == UF__BI_NONE || base->layout != 0)
        return uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->u.attr.attr_pos,
                          "unknown attribute '%s' of %s (not supported in "
                          "kernels)", a, uf__tname(base));
    in->builtin = b;
    const uf__type *f = uf__type_function(C->tc, uf__builtin_name(b), C->err);
    return f ? uf__iset(C, e, f) : NULL;
}

static const uf__type *args_of(uf__ictx *C, const uf__expr *e,
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

static const uf__type *type_method(uf__ictx *C, const uf__expr *e,
                                   const uf__type *dt, uf__builtin b)
{
    const char *name = uf__builtin_name(b) + 5;
    const uf__type *t[2];
    const uf__expr *const *a = (const uf__expr *const *)e->u.call.args;
    const uf__type *r;
    if (dt->n == 0 && b != UF__BI_DICT_CLEAR)
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "%s() of %s: its keys "
                          "and values have no known type yet (store an "
                          "item first)", name, uf__tname(dt));
    switch (b) {
    case UF__BI_DICT_GET:
    case UF__BI_DICT_POP:
    case UF__BI_DICT_SETDEFAULT: {
        r = args_of(C, e, name, b == UF__BI_DICT_POP ? 1 : 2, 2, t);
        if (r == NULL || r == UF__UNKNOWN)
            return r;
        if (key_casts(C, a[0], t[0], dt, name) != 0)
            return NULL;
        if (e->u.call.nargs == 2 && value_casts(C, a[1], t[1], dt, name) != 0)
            return NULL;
        if (e->u.call.nargs == 1 || b == UF__BI_DICT_SETDEFAULT)
            return uf__iset(C, e, dt->elts[1]);
        /* get/pop with a default: Numba's Optional of the value and the
         * default unified, here never None */
        r = uf__type_unify(C->tc, dt->elts[1], t[1]);
        if (r == NULL)
            return uf__typectx_oom(C->tc) ? uf__ioom(C) : NULL;
        return uf__iset(C, e, r);
    }
    case UF__BI_DICT_DELITEM: /* `del d[k]` (parser_del.c) */
        r = args_of(C, e, name, 1, 1, t);
        if (r == NULL || r == UF__UNKNOWN)
            return r;
        if (key_casts(C, a[0], t[0], dt, "delitem") != 0)
            return NULL;
        return uf__iset(C, e, uf__type_none(C->tc));
    case UF__BI_DICT_POPITEM: {
        r = args_of(C, e, name, 0, 0, t);
        if (r == NULL || r == UF__UNKNOWN)
            return r;
        r = uf__type_tuple(C->tc, 2, dt->elts, C->err);
        return r ? uf__iset(C, e, r) : NULL;
    }
    case UF__BI_DICT_UPDATE: { /* Numba: for k, v in other.items(): d[k] = v */
        r = args_of(C, e, name, 1, 1, t);
        if (r == NULL || r == UF__UNKNOWN)
            return r;
        if (t[0]->kind != UF__T_DICT || t[0]->layout != 0)
            return uf__ierr_t(C, UF_ERR_TYPING, a[0]->pos, "No "
                              "implementation of function update() for "
                              "(%s, %s): Numba 0.68 updates a dict from "
                              "another dict only", uf__tname(dt),
                              uf__tname(t[0]));
        if (t[0]->n == 0)
            return uf__iset(C, e, uf__type_none(C->tc)); /* empty: nothing */
        if (key_casts(C, a[0], t[0]->elts[0], dt, "setitem") != 0 ||
            value_casts(C, a[0], t[0]->elts[1], dt, "setitem") != 0)
            return NULL;
        return uf__iset(C, e, uf__type_none(C->tc));
    }
    case UF__BI_DICT_CLEAR:
    case UF__BI_DICT_COPY:
        r = args_of(C, e, name, 0, 0, t);
        if (r == NULL || r == UF__UNKNOWN)
            return r;
        return uf__iset(C, e, b == UF__BI_DICT_COPY ? dt
                                                    : uf__type_none(C->tc));
    default: { /* keys, values, items: a loop's iterable */
        r = args_of(C, e, name, 0, 0, t);
        if (r == NULL || r == UF__UNKNOWN)
            return r;
        char view = b == UF__BI_DICT_KEYS ? 'k'
                    : b == UF__BI_DICT_VALUES ? 'v' : 'i';
        r = uf__type_dict(C->tc, dt->elts[0], dt->elts[1], view, C->err);
        return r ? uf__iset(C, e, r) : NULL;
    }
    }
}

const uf__type *uf__infer_dict_call(uf__ictx *C, const uf__expr *e,
                                    uf__builtin b)
{
    uf__iinfo(C, e)->builtin = b;
    const uf__type *dd; /* Dict.empty (typed_containers.c) */
    int dk = uf__typed_declared(C->km, e, &dd, C->err);
    if (dk != 0)
        return dk < 0 || refuse_target(C, e) != 0 ? NULL : uf__iset(C, e, dd);
    if (b == UF__BI_DICT_NEW)
        return type_new(C, e);
    const uf__expr *recv = e->u.call.func->u.attr.value;
    const uf__type *dt = uf__iinfo(C, recv)->type;
    if (b == UF__BI_DICT_GET && e->u.call.nargs == 1 && e->u.call.nkw == 0)
        return uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->pos, "%s", "d.get(k) "
                          "without a default returns Optional(value) in "
                          "Numba, which ufjit kernels do not have: give a "
                          "default, d.get(k, default)");
    return type_method(C, e, dt, b);
}

const uf__type *uf__infer_dict_index(uf__ictx *C, const uf__expr *e,
                                     const uf__type *dt)
{
    if (e->u.subscript.nindex != 1 ||
        e->u.subscript.index[0]->kind == UF__EX_SLICE)
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "%s", "a dict is "
                          "indexed with one key");
    const uf__expr *x = e->u.subscript.index[0];
    const uf__type *t = uf__infer_expr(C, x);
    if (t == NULL || t == UF__UNKNOWN)
        return t;
    if (dt->n == 0)
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "%s has no keys of a "
                          "known type yet", uf__tname(dt));
    if (key_casts(C, x, t, dt, "getitem") != 0)
        return NULL;
    return uf__iset(C, e, dt->elts[1]);
}

int uf__infer_dict_store(uf__ictx *C, const uf__expr *t, const uf__type *dt,
                         const uf__type *vt)
{
    const uf__expr *recv = t->u.subscript.value;
    if (t->u.subscript.nindex != 1 ||
        t->u.subscript.index[0]->kind == UF__EX_SLICE)
        return uf__ierr(C, UF_ERR_TYPING, t->pos, "%s", "a dict is indexed "
                        "with one key");
    const uf__expr *x = t->u.subscript.index[0];
    const uf__type *kt = uf__infer_expr(C, x);
    if (kt == NULL || kt == UF__UNKNOWN)
        return kt == NULL ? -1 : 0;
    if (dt->n == 2) {
        if (key_casts(C, x, kt, dt, "setitem") != 0)
            return -1;
        if (!casts(vt, dt->elts[1]))
            return uf__ierr(C, UF_ERR_TYPING, t->pos, "No implementation of "
                            "function setitem found for signature (%s, %s, "
                            "%s): the value does not convert to the value "
                            "type %s", uf__tname(dt), uf__tname(kt),
                            uf__tname(vt), uf__tname(dt->elts[1]));
        return 0;
    }
    /* `d = {}`: the first store gives the dict its types */
    if (check_key(C, x, kt) != 0 || check_value(C, t, vt) != 0)
        return -1;
    int v = recv->kind == UF__EX_NAME ? uf__typed_var(C->tf, recv->u.name.id)
                                      : -1;
    if (v < 0)
        return uf__ierr(C, UF_ERR_TYPING, recv->pos, "%s", "cannot store "
                        "into an empty dict here: only a dict held in a "
                        "local variable takes its types from a store");
    const uf__type *nd = uf__type_dict(C->tc, stored_type(C, kt),
                                       stored_type(C, vt), 0, C->err);
    if (nd == NULL)
        return -1;
    return uf__infer_refine_var(C, v, nd, recv->pos);
}

const uf__type *uf__infer_dict_item(uf__ictx *C, const uf__expr *it,
                                    const uf__type *dt)
{
    if (dt->n == 0) {
        uf__ierr(C, UF_ERR_TYPING, it->pos, "%s has no keys of a known type "
                 "to iterate over", uf__tname(dt));
        return NULL;
    }
    if (dt->layout == 'v')
        return dt->elts[1];
    if (dt->layout == 'i')
        return uf__type_tuple(C->tc, 2, dt->elts, C->err);
    return dt->elts[0];
}

const uf__type *uf__infer_dict_contains(uf__ictx *C, const uf__expr *e,
                                        uf__expr_info *in, const uf__type *x,
                                        const uf__type *dt)
{
    if (dt->n == 0 && dt->layout == 0 && e->u.compare.nops == 1) {
        /* `k in d` before d's first store (the word count's `if w in d`):
         * Numba types it, and an empty dict holds nothing */
        if (check_key(C, e->u.compare.operands[0], x) != 0)
            return NULL;
        in->optype = x;
        return uf__iset(C, e, uf__type_scalar(C->tc, UF_BOOL));
    }
    if (dt->n == 0 || dt->layout != 0)
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "No implementation of "
                          "function contains for (%s, %s)", uf__tname(dt),
                          uf__tname(x));
    if (key_casts(C, e->u.compare.operands[0], x, dt, "contains") != 0)
        return NULL;
    if (e->u.compare.nops != 1)
        return uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->pos, "%s", "'in' in a "
                          "comparison chain is not supported in kernels");
    in->optype = dt->elts[0];
    return uf__iset(C, e, uf__type_scalar(C->tc, UF_BOOL));
}

int uf__infer_dict_check(uf__ictx *C)
{
    const uf__typed_func *tf = C->tf;
    for (int i = 0; i < tf->nvars; i++) {
        const uf__type *t = tf->vars[i].type;
        if (t == NULL || t->kind != UF__T_DICT || t->n != 0)
            continue;
        /* a version of the name (ssa_versions.c) fed into a refined join
         * is not imprecise */
        const char *name = tf->vars[i].name;
        size_t len = strcspn(name, ".");
        bool refined = false;
        for (int j = 0; j < tf->nvars && !refined; j++) {
            const uf__type *u = tf->vars[j].type;
            refined = u && u->kind == UF__T_DICT && u->n == 2 &&
                      strncmp(tf->vars[j].name, name, len) == 0 &&
                      strcspn(tf->vars[j].name, ".") == len;
        }
        if (!refined)
            return uf__ierr(C, UF_ERR_TYPING, C->def_pos[i], "Cannot infer "
                            "the type of variable '%.*s', have imprecise "
                            "type: DictType[undefined,undefined]<iv={}>. "
                            "For Numba to be able to compile a dict, the "
                            "dict must have a known and precise type that "
                            "can be inferred from the other variables "
                            "(store an item: d[k] = v)", (int)len, name);
    }
    return 0;
}

/* d == e, d != e of two dicts (Numba's impl_equal: the same length, and
 * every key of d, cast to e's key type, found in e with a value ==); the
 * values compared as two numbers (e's optype). */
const uf__type *uf__infer_dict_compare(uf__ictx *C, const uf__expr *e,
                                       uf__expr_info *in, int op,
                                       const uf__type *a, const uf__type *b)
{
    if (e->u.compare.nops != 1 || (op != UF__CMP_EQ && op != UF__CMP_NE) ||
        a->layout != 0 || b->layout != 0)
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "'%s' is not supported "
                          "between %s and %s (dicts take == and != "
                          "only)", uf__cmpop_str((uf__cmpop)op),
                          uf__tname(a), uf__tname(b));
    if (a->n == 0 || b->n == 0)
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "%s", "comparison of a "
                          "dict whose keys and values have no known type "
                          "yet");
    if (uf__is_string(a->elts[0]) != uf__is_string(b->elts[0]))
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "'%s' is not supported "
                          "between %s and %s (their keys do not convert)",
                          uf__cmpop_str((uf__cmpop)op), uf__tname(a),
                          uf__tname(b));
    if (uf__is_string(a->elts[1]) || uf__is_string(b->elts[1])) {
        if (!uf__is_string(a->elts[1]) || !uf__is_string(b->elts[1]))
            return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "'%s' is not "
                              "supported between %s and %s",
                              uf__cmpop_str((uf__cmpop)op), uf__tname(a),
                              uf__tname(b));
        in->optype = a->elts[1]; /* strings: compared by content */
        return uf__iset(C, e, uf__type_scalar(C->tc, UF_BOOL));
    }
    if (a->elts[1]->kind == UF__T_ARRAY || b->elts[1]->kind == UF__T_ARRAY)
        return uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->pos, "'%s' of dicts "
                          "whose values are arrays is not supported in "
                          "kernels (Numba compiles it, then raises "
                          "ValueError: the truth value of an array with "
                          "more than one element is ambiguous); compare "
                          "the keys and np.array_equal the values",
                          uf__cmpop_str((uf__cmpop)op));
    if (a->elts[1]->kind != UF__T_SCALAR || b->elts[1]->kind != UF__T_SCALAR)
        return uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->pos, "%s", "== of dicts "
                          "whose values are tuples, lists or dicts is not "
                          "supported in kernels yet");
    const uf__type *optype = NULL;
    const uf__type *r = uf__type_compare(C->tc, UF__CMP_EQ, a->elts[1],
                                         b->elts[1], &optype);
    if (r == NULL && uf__typectx_oom(C->tc))
        return uf__ioom(C);
    if (r == NULL || optype == NULL)
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "'%s' is not supported "
                          "between %s and %s", uf__cmpop_str((uf__cmpop)op),
                          uf__tname(a), uf__tname(b));
    in->optype = optype;
    return uf__iset(C, e, uf__type_scalar(C->tc, UF_BOOL));
}
