/* Typing of dtypes as values, of the parts of arrays and of the builtins
 * min/max/sum over arrays and tuples, as Numba types them
 * (core/typing/arraydecl.py, npydecl.py, cpython/builtins.py):
 *   - a.dtype is dtype(X), np.dtype('f4') and np.dtype(np.float32) too,
 *     np.float32 is class(X). Both are values a variable, a tuple or an
 *     argument may hold; they are known at compile time, so they carry no
 *     data (lower_arrattr.c). Two different ones do not unify at a join
 *     (unify.c refuses them: "Cannot unify class(float32) and
 *     class(float64)"). dtype(X) == dtype(Y) is a bool; Numba has no other
 *     comparison of them. d.type of dtype(X) is class(X).
 *   - a.real / a.imag of a complex array: views of its float parts
 *     (layout 'A'); of any other number, a.real is a itself and a.imag a
 *     new readonly array of zeros laid out as a; of a bool array a
 *     TypingError. a.conj() / a.conjugate(): a new array (np.conjugate's
 *     loop: bool gives int8), F for an F array of 2 or more dimensions,
 *     else C. np.real / np.imag of an array are a.real / a.imag.
 *   - min(a) / max(a) of a 1-D array of numbers: its dtype, Python's
 *     comparisons from the first element (an empty array raises
 *     StopIteration, as Numba's next() does); of an N-d array the row
 *     (a view, layout 'A') Numba's same loop picks, whose comparisons
 *     raise ValueError unless the rows hold one element. sum(it, start=0) of a 1-D
 *     array or a tuple of numbers: `acc = start; for x in it: acc = acc +
 *     x`, typed to the fixed point of that loop (int64 for every integer
 *     array with the default start, complex128 for complex64). */
#include <string.h>

#include "compiler/types/infer_arrattr.h"

#define OPERAND(var, expr)                                                  \
    do {                                                                    \
        (var) = uf__infer_expr(C, (expr));                                  \
        if ((var) == NULL || (var) == UF__UNKNOWN)                          \
            return (var);                                                   \
    } while (0)

static uf_dtype float_part(uf_dtype d)
{
    return d == UF_COMPLEX64 ? UF_FLOAT32 : UF_FLOAT64;
}

/* a.real / a.imag (imag true) of array type t, at `at`. */
static const uf__type *part_type(uf__ictx *C, uf__pos at, const uf__type *t,
                                 bool imag)
{
    const char *what = imag ? "imag" : "real";
    if (t->dtype == UF_BOOL)
        return uf__ierr_t(C, UF_ERR_TYPING, at, "cannot access .%s of array "
                          "of bool", what);
    if (uf_dtype_kind(t->dtype) == 'c')
        return uf__type_array_ro(C->tc, float_part(t->dtype), t->ndim, 'A',
                                 t->readonly, C->err);
    if (!imag)
        return t;
    return uf__type_array_ro(C->tc, t->dtype, t->ndim, t->layout, true,
                             C->err);
}

const uf__type *uf__infer_arrattr_attr(uf__ictx *C, const uf__expr *e,
                                       const uf__type *base,
                                       uf__expr_info *in, bool *handled)
{
    const char *a = e->u.attr.attr;
    *handled = true;
    if (strcmp(a, "dtype") == 0) {
        in->builtin = UF__BI_ATTR_DTYPE;
        return uf__iset(C, e, uf__type_dtype_obj(C->tc, base->dtype));
    }
    if (strcmp(a, "real") == 0 || strcmp(a, "imag") == 0) {
        const uf__type *t = part_type(C, e->u.attr.attr_pos, base,
                                      a[0] == 'i');
        in->builtin = a[0] == 'i' ? UF__BI_ARR_IMAG : UF__BI_ARR_REAL;
        return t ? uf__iset(C, e, t) : NULL;
    }
    if (strcmp(a, "conj") == 0 || strcmp(a, "conjugate") == 0) {
        in->builtin = UF__BI_ARR_CONJ;
        return uf__iset(C, e, uf__type_function(C->tc, a[4] ? "array.conjugate"
                                                             : "array.conj",
                                                C->err));
    }
    *handled = false;
    return NULL;
}

const uf__type *uf__infer_dtype_attr(uf__ictx *C, const uf__expr *e,
                                     const uf__type *base,
                                     uf__expr_info *in)
{
    const char *a = e->u.attr.attr;
    if (base->dtype_obj && strcmp(a, "type") == 0) {
        in->builtin = UF__BI_DTYPE_TYPE;
        return uf__iset(C, e, uf__type_dtype(C->tc, base->dtype));
    }
    return uf__ierr_t(C, UF_ERR_TYPING, e->u.attr.attr_pos, "Unknown "
                      "attribute '%s' of type %s%s", a, uf__tname(base),
                      base->dtype_obj ? " (kernels have d.type of a dtype)"
                                      : "");
}

const uf__type *uf__infer_dtype_compare(uf__ictx *C, const uf__expr *e,
                                        uf__expr_info *in, int op,
                                        const uf__type *a,
                                        const uf__type *b)
{
    if (op != UF__CMP_EQ || e->u.compare.nops != 1 ||
        a->kind != UF__T_DTYPE || b->kind != UF__T_DTYPE || !a->dtype_obj ||
        !b->dtype_obj)
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "'%s' is not supported "
                          "between %s and %s (Numba compares dtypes with == "
                          "only, a.dtype == b.dtype)",
                          uf__cmpop_str((uf__cmpop)op), uf__tname(a),
                          uf__tname(b));
    uf__constant *k = uf__arena_alloc(C->km->arena, 1, sizeof *k, C->err);
    if (k == NULL)
        return NULL;
    k->type = uf__type_scalar(C->tc, UF_BOOL);
    k->v.b = a->dtype == b->dtype;
    in->constant = k;
    in->builtin = UF__BI_DTYPE_EQ;
    return uf__iset(C, e, k->type);
}

/* np.dtype(x): a string NumPy reads ('f4', 'float32') or a NumPy type. */
static const uf__type *type_np_dtype(uf__ictx *C, const uf__expr *e)
{
    if (e->u.call.nargs != 1 || e->u.call.nkw != 0)
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "%s", "np.dtype() takes "
                          "one argument in kernels (a string or a NumPy "
                          "type)");
    const uf__expr *x = e->u.call.args[0];
    uf_dtype dt;
    if (x->kind == UF__EX_STR) {
        uf_error ignored;
        if (x->u.str.len >= 32 || uf_dtype_from_name(x->u.str.s, &dt,
                                                      &ignored) != 0)
            return uf__ierr_t(C, UF_ERR_TYPING, x->pos, "np.dtype(): '%s' "
                              "is not a dtype NumPy knows", x->u.str.s);
    } else {
        const uf__type *t;
        OPERAND(t, x);
        if (t->kind != UF__T_DTYPE || t->dtype_obj)
            return uf__ierr_t(C, UF_ERR_TYPING, x->pos, "No implementation "
                              "of np.dtype for %s (a string or a NumPy type "
                              "such as np.float32)", uf__tname(t));
        dt = t->dtype;
    }
    uf__iinfo(C, e)->builtin = UF__BI_NP_DTYPE;
    return uf__iset(C, e, uf__type_dtype_obj(C->tc, dt));
}

/* a.conj() / a.conjugate(): np.conjugate's loop on the array. */
static const uf__type *type_conj(uf__ictx *C, const uf__expr *e)
{
    const uf__expr *f = e->u.call.func;
    const uf__type *t = uf__iinfo(C, f->u.attr.value)->type;
    if (e->u.call.nargs != 0 || e->u.call.nkw != 0)
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "%s() takes no "
                          "arguments", f->u.attr.attr);
    if (t == NULL || t->kind != UF__T_ARRAY)
        return uf__ierr_t(C, UF_ERR_INTERNAL, e->pos, "%s", "conj() of what");
    uf_dtype dt = t->dtype == UF_BOOL ? UF_INT8 : t->dtype;
    char layout = t->layout == 'F' && t->ndim >= 2 ? 'F' : 'C';
    uf__iinfo(C, e)->builtin = UF__BI_ARR_CONJ;
    return uf__iset(C, e, uf__type_array(C->tc, dt, t->ndim, layout,
                                         C->err));
}

/* The types `it` yields, for min/max/sum: the elements of a tuple of
 * numbers or the dtype of a 1-D array; 0 with the error otherwise. */
static int iter_elts(uf__ictx *C, const uf__expr *x, const char *fn,
                     const uf__type *it, const uf__type **elts, int cap)
{
    /* range(...) written in the call: its values' dtype (Numba's
     * range_state32/64 or unsigned_range_state64, infer_call.c) */
    const uf__type *rv = x->kind == UF__EX_CALL ? uf__iinfo(C, x)->optype
                                                : NULL;
    if (it->kind == UF__T_RANGE && rv != NULL) {
        elts[0] = rv;
        return 1;
    }
    if (it->kind == UF__T_ARRAY && it->ndim == 1) {
        elts[0] = uf__type_scalar(C->tc, it->dtype);
        return 1;
    }
    if (it->kind == UF__T_LIST && it->n == 1 &&
        it->elts[0]->kind == UF__T_SCALAR) { /* infer_list.c */
        elts[0] = it->elts[0];
        return 1;
    }
    if (it->kind == UF__T_TUPLE && it->n > 0 && it->n <= cap) {
        for (int i = 0; i < it->n; i++) {
            if (it->elts[i]->kind != UF__T_SCALAR)
                goto bad;
            elts[i] = it->elts[i];
        }
        return it->n;
    }
bad:
    return uf__ierr(C, UF_ERR_TYPING, x->pos, "No implementation of %s() "
                    "for %s (a 1-D array, a range(), a list or a "
                    "non-empty tuple of numbers)",
                    fn, uf__tname(it)), 0;
}

/* sum(iterable, start=0): the fixed point of `acc = acc + x`. */
static const uf__type *type_sum(uf__ictx *C, const uf__expr *e)
{
    static const char *const names[] = {"iterable", "start"};
    if (uf__call_check_params(C, e, "sum", names, 2) != 0)
        return NULL;
    const uf__expr *ix = uf__call_arg(e, 0, "iterable");
    const uf__expr *sx = uf__call_arg(e, 1, "start");
    if (ix == NULL)
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "%s", "sum() missing "
                          "required argument 'iterable'");
    const uf__type *it, *acc = uf__type_scalar(C->tc, UF_INT64);
    OPERAND(it, ix);
    if (sx != NULL) {
        OPERAND(acc, sx);
        if (acc->kind != UF__T_SCALAR)
            return uf__ierr_t(C, UF_ERR_TYPING, sx->pos, "sum(): start must "
                              "be a number, not %s", uf__tname(acc));
    }
    const uf__type *elts[UF__TUPLE_MAX];
    int n = iter_elts(C, ix, "sum", it, elts, UF__TUPLE_MAX);
    if (n == 0)
        return NULL;
    for (int round = 0; round < 16; round++) {
        const uf__type *next = acc;
        for (int i = 0; i < n; i++) {
            const uf__type *r = uf__type_binop(C->tc, UF__OP_ADD, next,
                                               elts[i], NULL);
            const uf__type *u = r ? uf__type_unify(C->tc, next, r) : NULL;
            if (u == NULL) {
                if (uf__typectx_oom(C->tc))
                    return uf__ioom(C);
                return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "sum(): cannot "
                                  "add %s to %s", uf__tname(elts[i]),
                                  uf__tname(next));
            }
            next = u;
        }
        if (next == acc) {
            uf__expr_info *in = uf__iinfo(C, e);
            in->builtin = UF__BI_SUM;
            in->optype = acc;
            return uf__iset(C, e, acc);
        }
        acc = next;
    }
    return uf__ierr_t(C, UF_ERR_INTERNAL, e->pos, "%s", "sum(): its type "
                      "does not settle");
}

const uf__type *uf__infer_arrattr_call(uf__ictx *C, const uf__expr *e,
                                       uf__builtin b)
{
    switch (b) {
    case UF__BI_NP_DTYPE:
        return type_np_dtype(C, e);
    case UF__BI_ARR_CONJ:
        return type_conj(C, e);
    case UF__BI_SUM:
        return type_sum(C, e);
    default:
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "%s is not callable",
                          uf__builtin_name(b));
    }
}

static bool has_complex(const uf__type *t)
{
    if (t->kind == UF__T_TUPLE) {
        for (int i = 0; i < t->n; i++)
            if (has_complex(t->elts[i]))
                return true;
        return false;
    }
    return t->kind == UF__T_SCALAR && uf__type_is_complex(t);
}

const uf__type *uf__infer_iter_minmax(uf__ictx *C, const uf__expr *e,
                                      uf__builtin b, const uf__type *a)
{
    const char *fn = b == UF__BI_MIN ? "min" : "max";
    const uf__type *elt, *r = NULL;
    if (a->kind == UF__T_ARRAY && a->ndim >= 2) {
        /* Numba's loop over the rows: `if x < m: m = x` on views, whose
         * truth is that of their one element (lower_arrattr.c) */
        elt = uf__type_scalar(C->tc, a->dtype);
        r = uf__type_array_ro(C->tc, a->dtype, a->ndim - 1, 'A', a->readonly,
                              C->err);
        if (r == NULL)
            return NULL;
    } else if (a->kind == UF__T_SET && a->n == 1 &&
               a->elts[0]->kind != UF__T_SCALAR) {
        /* tuples and strings: lower_set_from.c; complex fields are not
         * ordered (Numba finds no `<` for them) */
        if (has_complex(a->elts[0]))
            return uf__ierr_t(C, UF_ERR_TYPING, e->u.call.args[0]->pos,
                              "No implementation of %s() for %s (complex "
                              "numbers are not ordered)", fn, uf__tname(a));
        elt = a->elts[0];
    } else if (a->kind == UF__T_SET && a->n == 1) { /* not sum: Numba */
        elt = a->elts[0];
    } else if (a->kind == UF__T_LIST && a->n == 1 &&
               a->elts[0]->kind == UF__T_USTR) { /* by code point */
        elt = a->elts[0];
    } else if (iter_elts(C, e->u.call.args[0], fn, a, &elt, 1) == 0) {
        return NULL;
    }
    if (uf__type_is_complex(elt))
        return uf__ierr_t(C, UF_ERR_TYPING, e->u.call.args[0]->pos, "No "
                          "implementation of %s() for %s (complex numbers "
                          "are not ordered)", fn, uf__tname(a));
    uf__expr_info *in = uf__iinfo(C, e);
    in->builtin = b == UF__BI_MIN ? UF__BI_ITER_MIN : UF__BI_ITER_MAX;
    in->optype = elt;
    return uf__iset(C, e, r ? r : elt);
}

const uf__type *uf__infer_np_part(uf__ictx *C, const uf__expr *e,
                                  uf__builtin b, const uf__type *a)
{
    const uf__type *t = part_type(C, e->pos, a, b == UF__BI_NP_IMAG);
    if (t == NULL)
        return NULL;
    uf__iinfo(C, e)->builtin = b == UF__BI_NP_IMAG ? UF__BI_ARR_IMAG
                                                   : UF__BI_ARR_REAL;
    return uf__iset(C, e, t);
}
