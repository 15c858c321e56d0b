/* Typing of the views that reinterpret an array's bytes and of
 * isinstance (builtins.h: UF__ARRVIEW_MAP), as Numba 0.68 types them:
 *   a.view(dtype) (core/typing/arraydecl.py: resolve_view): dtype a NumPy
 *     type or a dtype object (np.int64, a.dtype; not a string nor a Python
 *     class), one positional argument; a.ndim, a.layout and a.readonly
 *     kept, the new dtype. Shapes and ValueErrors at run time
 *     (lower_arrview.c);
 *   np.frombuffer(buffer, dtype=float, count=-1, offset=0)
 *     (np/arrayobj.py: impl_np_frombuffer): buffer a C array of any ndim
 *     (Numba's Buffer of layout 'C'), dtype None/float (float64), a NumPy
 *     type, a dtype or a dtype string; count and offset 64-bit integers
 *     (Numba fails lowering others); a 1-D
 *     C array, readonly when the buffer is. Numba adds `offset` buffer
 *     *elements* to the data pointer but counts it in result items: when
 *     the two itemsizes differ it reads past the buffer, so a non-zero
 *     offset is refused there (taken where they are equal);
 *   isinstance(x, classinfo) (cpython/builtins.py: ol_isinstance): a bool
 *     known here. x a number, bool, array, tuple, None or range; classinfo
 *     int (int64 only), float (float64), complex (complex128), bool, a
 *     NumPy type (that dtype exactly), tuple (any tuple), range, str,
 *     bytes, list, dict, set (never these values), or a tuple of such
 *     written in the call, whose first match decides (a nested tuple
 *     reached before one is refused, as Numba's overload finds no
 *     match). np.ndarray and anything not a type are TypingErrors, as in
 *     Numba. infer_prune.c decides branches on it before typing where x
 *     is a literal, a module constant, an argument never reassigned or a
 *     local with one definition, so the branch not taken is never typed;
 *     x a join of several definitions (a phi) is refused, as Numba's
 *     literal propagation refuses it.
 * CUDA kernels refuse a.view and np.frombuffer (only the host lowering is
 * tested); isinstance is a constant anywhere. */
#include <stdio.h>
#include <string.h>

#include "compiler/types/infer_internal.h"

#define OPERAND(var, expr)                                                  \
    do {                                                                    \
        (var) = uf__infer_expr(C, (expr));                                  \
        if ((var) == NULL || (var) == UF__UNKNOWN)                          \
            return (var);                                                   \
    } while (0)

/* a.view(dtype) */
static const uf__type *type_view(uf__ictx *C, const uf__expr *e,
                                 const uf__type *a)
{
    if (e->u.call.nkw > 0)
        return uf__ierr_t(C, UF_ERR_TYPING, e->u.call.kw[0].pos, "%s",
                          "array.view() takes the dtype as its one "
                          "positional argument (Numba asserts no keyword)");
    if (e->u.call.nargs != 1)
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "array.view() takes "
                          "exactly one argument, the dtype (%d given)",
                          e->u.call.nargs);
    const uf__expr *x = e->u.call.args[0];
    if (x->kind == UF__EX_STR)
        return uf__ierr_t(C, UF_ERR_TYPING, x->pos, "%s", "array.view() "
                          "takes a NumPy type or a dtype, not a string (as "
                          "Numba: np.dtype('...') or np.int64)");
    const uf__type *t;
    OPERAND(t, x);
    if (t->kind != UF__T_DTYPE)
        return uf__ierr_t(C, UF_ERR_TYPING, x->pos, "array.view() takes a "
                          "NumPy type or a dtype (np.int64, a.dtype), not "
                          "%s", uf__tname(t));
    return uf__type_array_ro(C->tc, t->dtype, a->ndim, a->layout,
                             a->readonly, C->err);
}

static const char *const fb_names[] = {"buffer", "dtype", "count",
                                       "offset"};

/* An integer count= / offset=, or absent. */
static const uf__type *fb_int(uf__ictx *C, const uf__expr *x,
                              const char *what)
{
    const uf__type *t;
    if (x == NULL)
        return uf__type_none(C->tc);
    OPERAND(t, x);
    if (t->kind != UF__T_SCALAR || !uf__type_is_int(t) ||
        uf_dtype_itemsize(t->dtype) != 8)
        return uf__ierr_t(C, UF_ERR_TYPING, x->pos, "np.frombuffer(): %s "
                          "must be a 64-bit integer, not %s (Numba fails "
                          "lowering others)", what, uf__tname(t));
    return t;
}

/* x is the integer literal 0 (an offset that changes nothing). */
static bool literal_zero(const uf__expr *x)
{
    return x == NULL || (x->kind == UF__EX_INT && x->u.i.value == 0);
}

/* np.frombuffer(buffer, dtype=float, count=-1, offset=0) */
static const uf__type *type_frombuffer(uf__ictx *C, const uf__expr *e)
{
    const uf__expr *x[4] = {NULL, NULL, NULL, NULL};
    if (e->u.call.nargs > 4)
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "np.frombuffer() takes "
                          "at most 4 arguments (%d given)", e->u.call.nargs);
    for (int i = 0; i < e->u.call.nargs; i++)
        x[i] = e->u.call.args[i];
    for (int k = 0; k < e->u.call.nkw; k++) {
        const uf__keyword *kw = &e->u.call.kw[k];
        int i = 0;
        while (i < 4 && strcmp(fb_names[i], kw->name) != 0)
            i++;
        if (i == 4 || x[i] != NULL)
            return uf__ierr_t(C, UF_ERR_TYPING, kw->pos, "np.frombuffer() "
                              "got %s keyword argument '%s'",
                              i == 4 ? "an unexpected" : "a repeated",
                              kw->name);
        x[i] = kw->value;
    }
    if (x[0] == NULL)
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "%s", "np.frombuffer() "
                          "missing required argument 'buffer'");
    const uf__type *a, *t;
    OPERAND(a, x[0]);
    if (a->kind != UF__T_ARRAY || a->layout != 'C')
        return uf__ierr_t(C, UF_ERR_TYPING, x[0]->pos, "np.frombuffer(): "
                          "Argument \"buffer\" must be buffer-like (a C "
                          "array in kernels). Got %s", uf__tname(a));
    uf_dtype dt = UF_FLOAT64;
    if (x[1] != NULL && x[1]->kind == UF__EX_STR) {
        uf_error scratch;
        if (x[1]->u.str.len >= 32 ||
            uf_dtype_from_name(x[1]->u.str.s, &dt, &scratch) != 0)
            return uf__ierr_t(C, UF_ERR_TYPING, x[1]->pos, "np.frombuffer():"
                              " '%s' is not a dtype NumPy knows",
                              x[1]->u.str.s);
    } else if (x[1] != NULL) {
        OPERAND(t, x[1]);
        if (t->kind == UF__T_DTYPE)
            dt = t->dtype;
        else if (!(t->kind == UF__T_NONE ||
                   (uf__type_is_pyclass(t) && strcmp(t->name, "float") == 0)))
            return uf__ierr_t(C, UF_ERR_TYPING, x[1]->pos, "np.frombuffer():"
                              " Cannot parse the dtype %s (Numba takes a "
                              "NumPy type, a dtype, a string or float)",
                              uf__tname(t));
    }
    if (!fb_int(C, x[2], "count") || !fb_int(C, x[3], "offset"))
        return NULL;
    if (!literal_zero(x[3]) &&
        uf_dtype_itemsize(dt) != uf_dtype_itemsize(a->dtype))
        return uf__ierr_t(C, UF_ERR_UNSUPPORTED, x[3]->pos, "np.frombuffer()"
                          ": offset= with a dtype of another itemsize than "
                          "the buffer's (%s) is not supported in kernels: "
                          "Numba steps the data by buffer items but counts "
                          "result items, reading past the buffer",
                          uf__tname(a));
    return uf__type_array_ro(C->tc, dt, 1, 'C', a->readonly, C->err);
}

const uf__type *uf__infer_arrview(uf__ictx *C, const uf__expr *e,
                                  uf__builtin b)
{
    uf__iinfo(C, e)->builtin = b;
    const char *name = b == UF__BI_METH_VIEW ? "array.view" : "np.frombuffer";
    uf__kernel_kind k = C->tf->decl->kind;
    if (k == UF__K_CUDA_KERNEL || k == UF__K_DEVICE)
        return uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->pos, "%s() is not "
                          "supported in CUDA kernels", name);
    const uf__type *r;
    if (b == UF__BI_METH_VIEW) {
        const uf__expr *f = e->u.call.func;
        const uf__type *a =
            f->kind == UF__EX_ATTR ? uf__iinfo(C, f->u.attr.value)->type
                                   : NULL;
        if (a == NULL || a->kind != UF__T_ARRAY)
            return uf__ierr_t(C, UF_ERR_INTERNAL, e->pos, "%s", "a view of "
                              "something not an array");
        r = type_view(C, e, a);
    } else {
        r = type_frombuffer(C, e);
    }
    return r && r != UF__UNKNOWN ? uf__iset(C, e, r) : r;
}

/* ---- isinstance -------------------------------------------------------- */

/* Whether x's type is one Numba's isinstance takes. */
static bool isinstance_supported(const uf__type *t)
{
    return t->kind == UF__T_SCALAR || t->kind == UF__T_ARRAY ||
           t->kind == UF__T_TUPLE || t->kind == UF__T_NONE ||
           t->kind == UF__T_RANGE || uf__is_string(t);
}

/* A Python class by name, not shadowed by a local or a module global:
 * whether xt is an instance (1, 0), or -1 when `id` is not one. */
static int pyclass_match(const char *id, const uf__type *xt)
{
    static const struct {
        const char *id;
        uf_dtype dt;
    } nums[] = {{"int", UF_INT64}, {"float", UF_FLOAT64},
                {"complex", UF_COMPLEX128}, {"bool", UF_BOOL}};
    for (size_t i = 0; i < sizeof nums / sizeof *nums; i++)
        if (strcmp(id, nums[i].id) == 0)
            return xt->kind == UF__T_SCALAR && xt->dtype == nums[i].dt;
    if (strcmp(id, "tuple") == 0)
        return xt->kind == UF__T_TUPLE;
    if (strcmp(id, "range") == 0)
        return xt->kind == UF__T_RANGE;
    if (strcmp(id, "str") == 0) /* unicode_type and Literal[str] */
        return uf__is_string(xt);
    static const char *const never[] = {"bytes", "list", "dict", "set"};
    for (size_t i = 0; i < sizeof never / sizeof *never; i++)
        if (strcmp(id, never[i]) == 0)
            return 0;
    return -1;
}

static int not_a_type(uf__ictx *C, const uf__expr *c, const uf__type *xt,
                      const char *what)
{
    return uf__ierr(C, UF_ERR_TYPING, c->pos, "isinstance(): no "
                    "implementation for %s and %s (arg 2 must be a type "
                    "or a tuple of types, as Numba's overload takes)",
                    uf__tname(xt), what);
}

/* One class of classinfo: 1 or 0; -1 with the error. */
static int class_match(uf__ictx *C, const uf__expr *c, const uf__type *xt)
{
    if (c->kind == UF__EX_NAME && uf__typed_var(C->tf, c->u.name.id) < 0 &&
        uf__kmodule_global(C->km, c->u.name.id) == NULL) {
        int r = pyclass_match(c->u.name.id, xt);
        if (r >= 0)
            return r;
    }
    if (c->kind == UF__EX_ATTR && strcmp(c->u.attr.attr, "ndarray") == 0)
        return uf__ierr(C, UF_ERR_TYPING, c->pos, "%s", "isinstance(): Use "
                        "of unsupported NumPy function 'numpy.ndarray' (as "
                        "Numba: test a.ndim or the dtype instead)");
    if (c->kind == UF__EX_TUPLE)
        return not_a_type(C, c, xt, "a nested tuple");
    const uf__type *t = uf__infer_expr(C, c);
    if (t == NULL || t == UF__UNKNOWN)
        return -1;
    if (t->kind == UF__T_DTYPE && !t->dtype_obj)
        return xt->kind == UF__T_SCALAR && xt->dtype == t->dtype;
    if (uf__type_is_pyclass(t)) { /* a global alias of int, float ... */
        int r = pyclass_match(t->name, xt);
        return r >= 0 ? r : not_a_type(C, c, xt, t->name);
    }
    return not_a_type(C, c, xt, uf__tname(t));
}

int uf__isinstance_value(uf__ictx *C, const uf__expr *e, const uf__type *xt)
{
    if (e->u.call.nkw > 0 || e->u.call.nargs != 2)
        return uf__ierr(C, UF_ERR_TYPING, e->pos, "%s", "isinstance() takes "
                        "2 positional arguments, the value and the class or "
                        "tuple of classes (Numba has no other overload)");
    if (!isinstance_supported(xt))
        return uf__ierr(C, UF_ERR_TYPING, e->u.call.args[0]->pos,
                        "isinstance() does not support variables of type "
                        "\"%s\".", uf__tname(xt));
    const uf__expr *c = e->u.call.args[1];
    if (c->kind != UF__EX_TUPLE)
        return class_match(C, c, xt);
    for (int i = 0; i < c->u.seq.n; i++) {
        int r = class_match(C, c->u.seq.elts[i], xt);
        if (r != 0)
            return r; /* a match, or the error */
    }
    return 0;
}

const uf__type *uf__infer_isinstance(uf__ictx *C, const uf__expr *e)
{
    uf__expr_info *in = uf__iinfo(C, e);
    in->builtin = UF__BI_ISINSTANCE;
    if (e->u.call.nargs < 1 || e->u.call.nkw > 0)
        return uf__isinstance_value(C, e, uf__type_none(C->tc)), NULL;
    const uf__type *xt;
    OPERAND(xt, e->u.call.args[0]);
    const uf__expr *x = e->u.call.args[0];
    int v = x->kind == UF__EX_NAME ? uf__typed_var(C->tf, x->u.name.id) : -1;
    if (v >= 0 && C->tf->vars[v].join) /* Numba's PropagateLiterals */
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "isinstance() cannot "
                          "determine the type of variable \"%.*s\" due to "
                          "a branch (Numba refuses a variable assigned on "
                          "several ways into this point: test it where one "
                          "assignment reaches)",
                          (int)strcspn(x->u.name.id, "."), x->u.name.id);
    int r = uf__isinstance_value(C, e, xt);
    if (r < 0)
        return NULL;
    uf__constant *k = uf__arena_alloc(C->km->arena, 1, sizeof *k, C->err);
    if (k == NULL)
        return NULL;
    k->type = uf__type_scalar(C->tc, UF_BOOL);
    k->v.b = r == 1;
    in->constant = k;
    return uf__iset(C, e, k->type);
}
