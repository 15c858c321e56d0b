/* Typing of np.cross, np.unwrap and np.select (builtins.h:
 * UF__NPCROSS_MAP), as Numba 0.68 types them (numba/np/arraymath.py):
 *   np.cross(a, b) (np_cross, _cross_impl): a and b arrays of at least
 *     one dimension (0-d arrays and numbers fail Numba's typing on
 *     shape[-1]); a new C array of np.promote_types(a.dtype, b.dtype) and
 *     max(a.ndim, b.ndim) dimensions, the last of 3. A tuple or a list
 *     literal of numbers (nested to one shape) is what np.asarray makes
 *     of it: a C array of its promoted dtype (lower_npcross.c fills it
 *     on the stack).
 *   np.unwrap(p, discont=None, axis=-1, period=2*pi) (numpy_unwrap): p an
 *     array of at least one dimension or a flat sequence with one dtype
 *     (Numba's as_dtype(p.dtype): a tuple of one number type, a list
 *     literal of numbers, which Numba's list unifies), discont None or an int or float,
 *     axis an int (anything but -1 Numba's ValueError at run time),
 *     period an int or float; a new C array of p's shape (below).
 *   np.select(condlist, choicelist, default=0) (np_select): tuples of one
 *     array type or list literals of arrays (at most 32), conditions of
 *     bools with the choices' ndim (at least 1), default a number or
 *     bool; a new C array (below). Lengths that differ are Numba's
 *     ValueError at run time.
 *   cross2d(a, b) (numba.np.extensions; arraymath.py cross2d_impl): a
 *     and b as np.cross takes them; the products np.multiply's loop, their
 *     difference np.subtract's, or Python's `-` on numbers when both are
 *     1-D (int8 vectors give int64, int8 rows int8), a new C array of
 *     max(a.ndim, b.ndim) - 1 dimensions (0-d for two vectors).
 * The runtime (lower_npcross.c) allocates: CUDA kernels and device
 * functions refuse these. */
#include <stdio.h>
#include <string.h>

#include "compiler/types/infer_internal.h"
#include "compiler/types/infer_npjoin.h"
#include "compiler/types/infer_npufunc.h"

/* The most cases np.select takes here (lower_npcross.c walks them all
 * at once). */
#define UF__NPCROSS_SELECT_MAX 32

/* Binds the call's positional and keyword arguments to names[0..n) into
 * x[] (NULL where absent); -1 with the TypingError set. */
static int bind(uf__ictx *C, const uf__expr *e, const char *fn,
                const char *const *names, int n, const uf__expr **x)
{
    for (int i = 0; i < n; i++)
        x[i] = NULL;
    if (e->u.call.nargs > n)
        return uf__ierr(C, UF_ERR_TYPING, e->u.call.args[n]->pos, "%s() "
                        "takes at most %d arguments", fn, n);
    for (int i = 0; i < e->u.call.nargs; i++)
        x[i] = e->u.call.args[i];
    for (int j = 0; j < e->u.call.nkw; j++) {
        const uf__keyword *kw = &e->u.call.kw[j];
        int i = 0;
        while (i < n && strcmp(names[i], kw->name) != 0)
            i++;
        if (i == n)
            return uf__ierr(C, UF_ERR_TYPING, kw->pos, "%s() got an "
                            "unexpected keyword argument '%s'", fn,
                            kw->name);
        if (x[i] != NULL)
            return uf__ierr(C, UF_ERR_TYPING, kw->pos, "%s() got multiple "
                            "values for argument '%s'", fn, kw->name);
        x[i] = kw->value;
    }
    return 0;
}

/* The type of x, a list literal typed as the tuple of its elements. */
static const uf__type *seq_operand(uf__ictx *C, const uf__expr *x)
{
    C->list_as_tuple = x->kind == UF__EX_LIST;
    const uf__type *t = uf__infer_expr(C, x);
    C->list_as_tuple = false;
    return t;
}

/* An operand of np.cross (cross2d, fn): an array of at least one dimension, or a tuple
 * (list) of numbers as the array np.asarray makes of it. */
static const uf__type *cross_operand(uf__ictx *C, const uf__expr *x,
                                     const char *fn)
{
    const uf__type *t = seq_operand(C, x);
    if (t == NULL || t == UF__UNKNOWN)
        return t;
    if (t->kind == UF__T_TUPLE) {
        int nd;
        int64_t shape[UF__NPJOIN_MAXND];
        uf_dtype dt;
        if (!uf__npjoin_nested(t, &nd, shape, &dt))
            return uf__ierr_t(C, UF_ERR_TYPING, x->pos, "%s(): %s is not "
                              "array-like (numbers, or tuples of them of "
                              "one shape)", fn, uf__tname(t));
        t = uf__type_array(C->tc, dt, nd, 'C', C->err);
        if (t == NULL)
            return uf__ioom(C);
    }
    if (t->kind != UF__T_ARRAY || t->ndim < 1)
        return uf__ierr_t(C, UF_ERR_TYPING, x->pos, "%s(): an operand "
                          "must be an array of at least one dimension "
                          "(Numba types shape[-1]), not %s", fn,
                          uf__tname(t));
    return t;
}

static const uf__type *infer_cross(uf__ictx *C, const uf__expr *e)
{
    static const char *const names[] = {"a", "b"};
    const uf__expr *x[2];
    if (bind(C, e, "np.cross", names, 2, x) < 0)
        return NULL;
    for (int i = 0; i < 2; i++)
        if (x[i] == NULL)
            return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "np.cross() missing "
                              "required argument '%s'", names[i]);
    const uf__type *a = cross_operand(C, x[0], "np.cross");
    if (a == NULL || a == UF__UNKNOWN)
        return a;
    const uf__type *b = cross_operand(C, x[1], "np.cross");
    if (b == NULL || b == UF__UNKNOWN)
        return b;
    int nd = a->ndim > b->ndim ? a->ndim : b->ndim;
    const uf__type *r = uf__type_array(
        C->tc, uf_promote_types(a->dtype, b->dtype), nd, 'C', C->err);
    return r ? uf__iset(C, e, r) : uf__ioom(C);
}

/* A scalar argument of np.unwrap: int or float (kinds "iuf"), or None
 * where none_ok; *dt gets its dtype (UF_NTYPES: None or absent). */
static int unwrap_scalar(uf__ictx *C, const uf__expr *x, const char *what,
                         const char *kinds, bool none_ok, uf_dtype *dt)
{
    *dt = UF_NTYPES;
    if (x == NULL || (none_ok && x->kind == UF__EX_NONE))
        return 0;
    const uf__type *t = uf__infer_expr(C, x);
    if (t == NULL)
        return -1;
    if (t == UF__UNKNOWN)
        return 1;
    char k = t->kind == UF__T_SCALAR ? uf_dtype_kind(t->dtype) : 0;
    if (k == 0 || strchr(kinds, k) == NULL)
        return uf__ierr(C, UF_ERR_TYPING, x->pos, "np.unwrap(): the "
                        "argument \"%s\" must be %s (Numba's), not %s", what,
                        kinds[1] == 'u' && kinds[2] == 0 ? "an integer"
                                                         : "a scalar",
                        uf__tname(t));
    *dt = t->dtype;
    return 0;
}

/* p of np.unwrap given as tuple (list literal) type t: the 1-D C array
 * of Numba's as_dtype(p.dtype), which a tuple has only when its elements
 * have one type and a list when they are numbers (a reflected list
 * unifies them: promoted here); nested ones have none. NULL with the
 * TypingError. */
static const uf__type *unwrap_sequence(uf__ictx *C, const uf__expr *x,
                                       const uf__type *t)
{
    bool list = x->kind == UF__EX_LIST;
    uf_dtype dt = UF_NTYPES;
    for (int i = 0; i < t->n; i++) {
        const uf__type *e = t->elts[i];
        if (e->kind != UF__T_SCALAR || (!list && e != t->elts[0]))
            return uf__ierr_t(C, UF_ERR_TYPING, x->pos, "np.unwrap(): %s "
                              "cannot be represented as a NumPy dtype "
                              "(Numba's as_dtype of a sequence of one "
                              "number type)", uf__tname(t));
        dt = i == 0 ? e->dtype : uf_promote_types(dt, e->dtype);
    }
    if (t->n == 0)
        return uf__ierr_t(C, UF_ERR_TYPING, x->pos, "%s", "np.unwrap(): "
                          "an empty sequence has no dtype in Numba");
    const uf__type *r = uf__type_array(C->tc, dt, 1, 'C', C->err);
    return r ? r : uf__ioom(C);
}

/* np.unwrap(p, discont=None, axis=-1, period=2*pi) (numpy_unwrap): the
 * dtype np.result_type(p.dtype, period's) (float64 without period); an
 * integer one narrower than int64 comes from a narrower period type. */
static const uf__type *infer_unwrap(uf__ictx *C, const uf__expr *e)
{
    static const char *const names[] = {"p", "discont", "axis", "period"};
    const uf__expr *x[4];
    if (bind(C, e, "np.unwrap", names, 4, x) < 0)
        return NULL;
    if (x[0] == NULL)
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "np.unwrap() missing "
                          "required argument 'p'");
    uf_dtype ddt, adt, pdt;
    int rc = unwrap_scalar(C, x[2], "axis", "iu", false, &adt);
    if (rc == 0)
        rc = unwrap_scalar(C, x[1], "discont", "iuf", true, &ddt);
    if (rc == 0)
        rc = unwrap_scalar(C, x[3], "period", "iufc", false, &pdt);
    if (rc != 0)
        return rc < 0 ? NULL : UF__UNKNOWN;
    const uf__type *p = seq_operand(C, x[0]);
    if (p == NULL || p == UF__UNKNOWN)
        return p;
    if (p->kind == UF__T_TUPLE) {
        p = unwrap_sequence(C, x[0], p);
        if (p == NULL)
            return NULL;
    }
    if (p->kind != UF__T_ARRAY || p->ndim < 1)
        return uf__ierr_t(C, UF_ERR_TYPING, x[0]->pos, "np.unwrap(): p "
                          "must be an array of at least one dimension "
                          "(Numba types shape[-1]), not %s", uf__tname(p));
    uf_dtype dt = uf_promote_types(p->dtype,
                                   pdt == UF_NTYPES ? UF_FLOAT64 : pdt);
    char k = uf_dtype_kind(dt);
    if (k == 'c')
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "np.unwrap() of "
                          "complex values: Numba's np.mod has no complex "
                          "loop");
    const uf__type *r = uf__type_array(C->tc, dt, p->ndim, 'C', C->err);
    return r ? uf__iset(C, e, r) : uf__ioom(C);
}

/* condlist / choicelist of np.select: a tuple of one type (Numba's
 * UniTuple) or a list literal of arrays of one dtype and ndim (Numba's
 * List: their layouts unify), typed as the tuple of its elements. */
static const uf__type *select_seq(uf__ictx *C, const uf__expr *x,
                                  const char *what)
{
    const uf__type *t;
    if (x->kind == UF__EX_LIST) {
        int n = x->u.seq.n;
        if (n > UF__NPCROSS_SELECT_MAX)
            return uf__ierr_t(C, UF_ERR_UNSUPPORTED, x->pos, "np.select() "
                              "of more than %d cases is not supported",
                              UF__NPCROSS_SELECT_MAX);
        const uf__type *elts[UF__NPCROSS_SELECT_MAX];
        for (int i = 0; i < n; i++) {
            elts[i] = uf__infer_expr(C, x->u.seq.elts[i]);
            if (elts[i] == NULL || elts[i] == UF__UNKNOWN)
                return elts[i];
            bool same = elts[i]->kind == UF__T_ARRAY &&
                        elts[0]->kind == UF__T_ARRAY
                            ? elts[i]->dtype == elts[0]->dtype &&
                                  elts[i]->ndim == elts[0]->ndim
                            : elts[i] == elts[0];
            if (!same)
                return uf__ierr_t(C, UF_ERR_TYPING, x->u.seq.elts[i]->pos,
                                  "np.select(): a list of %s and %s cannot "
                                  "be typed (Numba's lists hold one type)",
                                  uf__tname(elts[0]), uf__tname(elts[i]));
        }
        t = uf__type_tuple(C->tc, n, elts, C->err);
        if (t == NULL)
            return uf__ioom(C);
        uf__iset(C, x, t);
    } else {
        t = uf__infer_expr(C, x);
        if (t == NULL || t == UF__UNKNOWN)
            return t;
        bool uni = t->kind == UF__T_TUPLE && t->n > 0;
        for (int i = 1; uni && i < t->n; i++)
            uni = t->elts[i] == t->elts[0];
        if (!uni)
            return uf__ierr_t(C, UF_ERR_TYPING, x->pos, "np.select(): %s "
                              "must be a List or a Tuple (of one type), not "
                              "%s", what, uf__tname(t));
        if (t->n > UF__NPCROSS_SELECT_MAX)
            return uf__ierr_t(C, UF_ERR_UNSUPPORTED, x->pos, "np.select() "
                              "of more than %d cases is not supported",
                              UF__NPCROSS_SELECT_MAX);
    }
    if (t->n == 0)
        return uf__ierr_t(C, UF_ERR_TYPING, x->pos, "np.select(): an empty "
                          "%s has no type in Numba", what);
    if (t->elts[0]->kind != UF__T_ARRAY)
        return uf__ierr_t(C, UF_ERR_TYPING, x->pos, "np.select(): items of "
                          "%s must be arrays", what);
    return t;
}

/* np.select(condlist, choicelist, default=0) (np_select): the dtype of
 * Numba's default * np.ones(shape, choicelist[0].dtype), np.multiply's
 * loop for the two (an int default and a float choice: the float). */
static const uf__type *infer_select(uf__ictx *C, const uf__expr *e)
{
    static const char *const names[] = {"condlist", "choicelist",
                                        "default"};
    const uf__expr *x[3];
    if (bind(C, e, "np.select", names, 3, x) < 0)
        return NULL;
    for (int i = 0; i < 2; i++)
        if (x[i] == NULL)
            return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "np.select() "
                              "missing required argument '%s'", names[i]);
    const uf__type *cl = select_seq(C, x[0], "condlist");
    if (cl == NULL || cl == UF__UNKNOWN)
        return cl;
    const uf__type *xl = select_seq(C, x[1], "choicelist");
    if (xl == NULL || xl == UF__UNKNOWN)
        return xl;
    uf_dtype dd = UF_INT64;
    if (x[2] != NULL) {
        const uf__type *d = uf__infer_expr(C, x[2]);
        if (d == NULL || d == UF__UNKNOWN)
            return d;
        if (d->kind != UF__T_SCALAR)
            return uf__ierr_t(C, UF_ERR_TYPING, x[2]->pos, "np.select(): "
                              "default must be a scalar (number or "
                              "boolean), not %s", uf__tname(d));
        dd = d->dtype;
    }
    const uf__type *c0 = cl->elts[0], *x0 = xl->elts[0];
    if (c0->dtype != UF_BOOL)
        return uf__ierr_t(C, UF_ERR_TYPING, x[0]->pos, "np.select(): "
                          "condlist arrays must contain booleans, not %s",
                          uf__tname(c0));
    if (c0->ndim != x0->ndim)
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "np.select(): condlist "
                          "and choicelist elements must have the same number "
                          "of dimensions");
    if (c0->ndim < 1)
        return uf__ierr_t(C, UF_ERR_TYPING, x[0]->pos, "np.select(): "
                          "condlist arrays must be of at least dimension 1");
    const uf__ufunc_loops *l = uf__npufunc_loops(UF__BI_NP_MULTIPLY);
    uf_dtype in[2] = {dd, x0->dtype}, types[3];
    if (!l || !uf__ufunc_select_loop(l->loops, 2, 1, in, types))
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "np.select(): no loop "
                          "of np.multiply takes %s and %s", uf_dtype_name(dd),
                          uf_dtype_name(x0->dtype));
    /* Numba's `out = np.where(cond, choice, out)` must keep out's type */
    if (uf_promote_types(x0->dtype, types[2]) != types[2])
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "np.select(): Numba "
                          "cannot unify its result's %s with np.where's %s "
                          "of a %s choice", uf_dtype_name(types[2]),
                          uf_dtype_name(uf_promote_types(x0->dtype,
                                                         types[2])),
                          uf_dtype_name(x0->dtype));
    const uf__type *r = uf__type_array(C->tc, types[2], x0->ndim, 'C',
                                       C->err);
    return r ? uf__iset(C, e, r) : uf__ioom(C);
}

/* The dtype of NumPy ufunc b's loop for x, y (Numba's choice). */
static bool loop_dtype(uf__builtin b, uf_dtype x, uf_dtype y, uf_dtype *r)
{
    const uf__ufunc_loops *l = uf__npufunc_loops(b);
    uf_dtype in[2] = {x, y}, types[3];
    if (!l || !uf__ufunc_select_loop(l->loops, 2, 1, in, types))
        return false;
    *r = types[2];
    return true;
}

/* cross2d's dtypes: *mul of the products, *sub of their difference (the
 * result), nd the result's dimensions. */
static bool cross2d_dtypes(uf__typectx *tc, uf_dtype da, uf_dtype db, int nd,
                           uf_dtype *mul, uf_dtype *sub)
{
    if (!loop_dtype(UF__BI_NP_MULTIPLY, da, db, mul))
        return false;
    if (nd > 0) /* products of arrays: np.subtract's loop */
        return loop_dtype(UF__BI_NP_SUBTRACT, *mul, *mul, sub);
    /* of 1-D operands the products are numbers: Python's `-` on them */
    const uf__type *m = uf__type_scalar(tc, *mul);
    const uf__type *r = m ? uf__type_binop(tc, UF__OP_SUB, m, m, NULL) : NULL;
    if (r == NULL || r->kind != UF__T_SCALAR)
        return false;
    *sub = r->dtype;
    return true;
}

/* numba.np.extensions.cross2d(a, b) (arraymath.py cross2d_impl): a and b
 * as np.cross takes them; the C array of max(a.ndim, b.ndim) - 1
 * dimensions (0-d for two vectors) of cross2d_dtypes. */
static const uf__type *infer_cross2d(uf__ictx *C, const uf__expr *e)
{
    static const char *const names[] = {"a", "b"};
    const uf__expr *x[2];
    if (bind(C, e, "cross2d", names, 2, x) < 0)
        return NULL;
    for (int i = 0; i < 2; i++)
        if (x[i] == NULL)
            return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "cross2d() missing "
                              "required argument '%s'", names[i]);
    const uf__type *a = cross_operand(C, x[0], "cross2d");
    if (a == NULL || a == UF__UNKNOWN)
        return a;
    const uf__type *b = cross_operand(C, x[1], "cross2d");
    if (b == NULL || b == UF__UNKNOWN)
        return b;
    int nd = (a->ndim > b->ndim ? a->ndim : b->ndim) - 1;
    uf_dtype mul, sub;
    if (!cross2d_dtypes(C->tc, a->dtype, b->dtype, nd, &mul, &sub))
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "cross2d() of %s and "
                          "%s: no np.multiply / subtract loop (Numba's "
                          "TypingError)", uf__tname(a), uf__tname(b));
    const uf__type *r = uf__type_array(C->tc, sub, nd, 'C', C->err);
    return r ? uf__iset(C, e, r) : uf__ioom(C);
}

const uf__type *uf__infer_npcross(uf__ictx *C, const uf__expr *e,
                                  uf__builtin b)
{
    uf__iinfo(C, e)->builtin = b;
    if (b == UF__BI_NP_CROSS2D) {
        uf__kernel_kind k = C->tf->decl->kind;
        if (k == UF__K_CUDA_KERNEL || k == UF__K_DEVICE)
            return uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->pos, "%s",
                              "cross2d() allocates its result in the host "
                              "runtime, which CUDA kernels cannot call");
        return infer_cross2d(C, e);
    }
    const char *fn = uf__builtin_name(b) + 6;
    uf__kernel_kind k = C->tf->decl->kind;
    if (k == UF__K_CUDA_KERNEL || k == UF__K_DEVICE)
        return uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->pos, "np.%s() "
                          "allocates its result in the host runtime, which "
                          "CUDA kernels cannot call", fn);
    if (b == UF__BI_NP_CROSS)
        return infer_cross(C, e);
    if (b == UF__BI_NP_UNWRAP)
        return infer_unwrap(C, e);
    return infer_select(C, e);
}
