/* Typing of NumPy's predicates and small functions (builtins.h:
 * UF__NPPRED_MAP) as Numba 0.68 types them (numba/np/arrayobj.py:
 * np_shape, np_size, nan_to_num_impl; numba/np/arraymath.py: np_isscalar,
 * iscomplexobj, isrealobj, isclose, np_allclose, np_array_equal,
 * isneginf, isposinf, np_iscomplex, np_isreal, impl_np_sinc,
 * ov_np_angle):
 *   np.shape(a) a tuple of int64 (a number gives (), a tuple of numbers
 *     (n,)); np.size(a) int64; np.isscalar, np.iscomplexobj,
 *     np.isrealobj bools known from the type alone;
 *   np.isclose(a, b, rtol, atol, equal_nan): a bool of two numbers, else
 *     a bool array of the broadcast dimensions; rtol and atol floats,
 *     equal_nan a bool (TypingError otherwise); complex refused as Numba
 *     refuses it; np.allclose: a bool; np.array_equal: a bool;
 *   np.isneginf / np.isposinf / np.iscomplex / np.isreal: a bool of a
 *     number, a bool array of an array;
 *   np.nan_to_num(x): of an integer x that x (its type); of a float or
 *     complex number the unification Numba makes (float64 or wider,
 *     complex128); of a float or complex array x's dtype;
 *   np.sinc(x): float64 or complex128 of a number, x's dtype of an
 *     array; np.angle(z, deg): float64 of a number, the real dtype of a
 *     float or complex array (integer arrays are a TypingError).
 * The array forms allocate: CUDA kernels refuse them (infer_arrexpr.c's
 * check), their number forms run anywhere. */
#include <string.h>

#include "compiler/types/infer_arrexpr.h"
#include "compiler/types/infer_internal.h"
#include "compiler/types/infer_nppred.h"

#define OPERAND(var, expr)                                                  \
    do {                                                                    \
        (var) = uf__infer_expr(C, (expr));                                  \
        if ((var) == NULL || (var) == UF__UNKNOWN)                          \
            return (var);                                                   \
    } while (0)

static bool is_flt(uf_dtype d)
{
    return uf_dtype_kind(d) == 'f';
}

static bool is_cplx(uf_dtype d)
{
    return uf_dtype_kind(d) == 'c';
}

static const char *const p_a[] = {"a"};
static const char *const p_element[] = {"element"};
static const char *const p_x[] = {"x"};
static const char *const p_close[] = {"a", "b", "rtol", "atol",
                                      "equal_nan"};
static const char *const p_equal[] = {"a1", "a2"};
static const char *const p_inf[] = {"x", "out"};
static const char *const p_n2n[] = {"x", "copy", "nan", "posinf",
                                    "neginf"};
static const char *const p_angle[] = {"z", "deg"};
static const char *const p_chk[] = {"a", "dtype"};

int uf__nppred_params(uf__builtin b, const char *const **names)
{
    switch (b) {
    case UF__BI_NP_SHAPE: case UF__BI_NP_SIZE:
        *names = p_a;
        return 1;
    case UF__BI_NP_ISSCALAR:
        *names = p_element;
        return 1;
    case UF__BI_NP_ISCOMPLEXOBJ: case UF__BI_NP_ISREALOBJ:
    case UF__BI_NP_ISCOMPLEX: case UF__BI_NP_ISREAL: case UF__BI_NP_SINC:
        *names = p_x;
        return 1;
    case UF__BI_NP_ISCLOSE: case UF__BI_NP_ALLCLOSE:
        *names = p_close;
        return 5;
    case UF__BI_NP_ARRAY_EQUAL:
        *names = p_equal;
        return 2;
    case UF__BI_NP_ISNEGINF: case UF__BI_NP_ISPOSINF:
        *names = p_inf;
        return 2;
    case UF__BI_NP_NAN_TO_NUM:
        *names = p_n2n;
        return 5;
    case UF__BI_NP_ANGLE:
        *names = p_angle;
        return 2;
    case UF__BI_NP_ASARRAY_CHKFINITE:
        *names = p_chk;
        return 2;
    default:
        *names = NULL;
        return 0;
    }
}

int uf__nppred_bind(const uf__expr *e, uf__builtin b, const uf__expr **x,
                    const uf__keyword **bad)
{
    const char *const *names;
    int n = uf__nppred_params(b, &names);
    *bad = NULL;
    if (e->kind != UF__EX_CALL || e->u.call.nargs > n)
        return -1;
    for (int i = 0; i < n; i++)
        x[i] = i < e->u.call.nargs ? e->u.call.args[i] : NULL;
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
    return n;
}

bool uf__nppred_is_arrexpr(const uf__typed_func *tf, const uf__expr *e)
{
    const uf__expr_info *in = uf__tf_info(tf, e);
    if (e->kind != UF__EX_CALL || in->callee != NULL || in->ext != NULL ||
        !uf__builtin_is_nppred_elem(in->builtin) ||
        in->builtin == UF__BI_NP_ALLCLOSE ||
        in->builtin == UF__BI_NP_ARRAY_EQUAL ||
        in->builtin == UF__BI_NP_ASARRAY_CHKFINITE || in->type == NULL ||
        in->type->kind != UF__T_ARRAY)
        return false;
    if (in->builtin == UF__BI_NP_NAN_TO_NUM) { /* x itself when integer */
        const uf__expr *x[UF__NPPRED_MAXARGS];
        const uf__keyword *bad;
        if (uf__nppred_bind(e, in->builtin, x, &bad) < 0 || x[0] == NULL)
            return false;
        const uf__type *t = uf__tf_info(tf, x[0])->type;
        return t != NULL && t->kind == UF__T_ARRAY &&
               (is_flt(t->dtype) ||
                is_cplx(t->dtype));
    }
    return true;
}

static bool numeric(const uf__type *t)
{
    return (t->kind == UF__T_SCALAR || t->kind == UF__T_ARRAY) &&
           t->dtype != UF_BOOL;
}

/* The dtype Numba's determine_dtype gives x (numbers and arrays their
 * own, a tuple its elements' promotion, anything else float64). */
static uf_dtype determined(const uf__type *t)
{
    if (t->kind == UF__T_SCALAR || t->kind == UF__T_ARRAY)
        return t->dtype;
    if (t->kind != UF__T_TUPLE || t->n == 0)
        return UF_FLOAT64;
    uf_dtype d = UF_NTYPES;
    for (int i = 0; i < t->n; i++) {
        const uf__type *el = t->elts[i];
        if (el->kind != UF__T_SCALAR)
            return UF_FLOAT64;
        d = d == UF_NTYPES ? el->dtype : uf_promote_types(d, el->dtype);
    }
    return d == UF_NTYPES ? UF_FLOAT64 : d;
}

static const uf__type *bool_t(uf__ictx *C)
{
    return uf__type_scalar(C->tc, UF_BOOL);
}

static const uf__type *bool_like(uf__ictx *C, int nd)
{
    if (nd < 0)
        return bool_t(C);
    return uf__type_array(C->tc, UF_BOOL, nd, 'C', C->err);
}

/* np.shape(a) / np.size(a): what np.asarray(a) would have. */
static const uf__type *type_shape(uf__ictx *C, uf__builtin b,
                                  const uf__expr *ax, const uf__type *a)
{
    int nd;
    if (a->kind == UF__T_ARRAY)
        nd = a->ndim;
    else if (a->kind == UF__T_SCALAR)
        nd = 0;
    else if (a->kind == UF__T_TUPLE) {
        for (int i = 0; i < a->n; i++)
            if (a->elts[i]->kind != UF__T_SCALAR)
                return uf__ierr_t(C, UF_ERR_UNSUPPORTED, ax->pos, "np.%s() "
                                  "of a tuple of anything but numbers is "
                                  "not supported in kernels, not %s",
                                  b == UF__BI_NP_SHAPE ? "shape" : "size",
                                  uf__tname(a));
        nd = 1;
    } else
        return uf__ierr_t(C, UF_ERR_TYPING, ax->pos, "The argument to "
                          "np.%s must be array-like, not %s",
                          b == UF__BI_NP_SHAPE ? "shape" : "size",
                          uf__tname(a));
    const uf__type *i64 = uf__type_scalar(C->tc, UF_INT64);
    if (b == UF__BI_NP_SIZE)
        return i64;
    const uf__type *elts[64];
    if (nd > 64)
        return uf__ierr_t(C, UF_ERR_UNSUPPORTED, ax->pos, "%s",
                          "too many dimensions");
    for (int i = 0; i < nd; i++)
        elts[i] = i64;
    return uf__type_tuple(C->tc, nd, elts, C->err);
}

/* A float argument (rtol, atol) or a bool one (equal_nan) of
 * np.isclose / np.allclose, when given. */
static const uf__type *check_kind(uf__ictx *C, const uf__expr *x,
                                  bool want_float, const char *msg)
{
    if (x == NULL)
        return bool_t(C);
    const uf__type *t;
    OPERAND(t, x);
    bool ok = t->kind == UF__T_SCALAR &&
              (want_float ? is_flt(t->dtype)
                          : t->dtype == UF_BOOL);
    if (!ok)
        return uf__ierr_t(C, UF_ERR_TYPING, x->pos, "%s, not %s", msg,
                          uf__tname(t));
    return t;
}

static const uf__type *type_close(uf__ictx *C, uf__builtin b,
                                  const uf__expr **x, const uf__type *a)
{
    const uf__type *bt, *t;
    if (x[1] == NULL)
        return uf__ierr_t(C, UF_ERR_TYPING, x[0]->pos, "np.%s() missing "
                          "required argument 'b'",
                          b == UF__BI_NP_ISCLOSE ? "isclose" : "allclose");
    OPERAND(bt, x[1]);
    const uf__type *ab[2] = {a, bt};
    for (int i = 0; i < 2; i++)
        if (ab[i]->kind != UF__T_SCALAR && ab[i]->kind != UF__T_ARRAY)
            return uf__ierr_t(C, UF_ERR_TYPING, x[i]->pos, "The %s argument "
                              "\"%s\" must be array-like (a number or an "
                              "array in kernels), not %s",
                              i ? "second" : "first", i ? "b" : "a",
                              uf__tname(ab[i]));
    if ((t = check_kind(C, x[2], true, "The third argument \"rtol\" must "
                        "be a floating point")) == NULL || t == UF__UNKNOWN)
        return t;
    if ((t = check_kind(C, x[3], true, "The fourth argument \"atol\" must "
                        "be a floating point")) == NULL || t == UF__UNKNOWN)
        return t;
    if ((t = check_kind(C, x[4], false, "The fifth argument \"equal_nan\" "
                        "must be a boolean")) == NULL || t == UF__UNKNOWN)
        return t;
    for (int i = 0; i < 2; i++)
        if (is_cplx(ab[i]->dtype))
            return uf__ierr_t(C, UF_ERR_TYPING, x[i]->pos, "np.%s() of "
                              "complex numbers: Numba has no implementation "
                              "for %s",
                              b == UF__BI_NP_ISCLOSE ? "isclose" : "allclose",
                              uf__tname(ab[i]));
    if (b == UF__BI_NP_ALLCLOSE) {
        if (a->kind == UF__T_ARRAY && bt->kind == UF__T_ARRAY &&
            a->dtype != bt->dtype) /* np.broadcast_arrays refuses them */
            return uf__ierr_t(C, UF_ERR_TYPING, x[1]->pos, "np.allclose() "
                              "of arrays of different dtypes (%s, %s): "
                              "Numba cannot broadcast arrays with "
                              "different types", uf__tname(a),
                              uf__tname(bt));
        return bool_t(C);
    }
    int nd = -1;
    for (int i = 0; i < 2; i++)
        if (ab[i]->kind == UF__T_ARRAY && ab[i]->ndim > nd)
            nd = ab[i]->ndim;
    return bool_like(C, nd);
}

static const uf__type *type_array_equal(uf__ictx *C, const uf__expr **x,
                                        const uf__type *a)
{
    const uf__type *bt;
    if (x[1] == NULL)
        return uf__ierr_t(C, UF_ERR_TYPING, x[0]->pos, "%s", "np.array_"
                          "equal() missing required argument 'a2'");
    OPERAND(bt, x[1]);
    const uf__type *ab[2] = {a, bt};
    for (int i = 0; i < 2; i++)
        if (ab[i]->kind != UF__T_SCALAR && ab[i]->kind != UF__T_ARRAY)
            return uf__ierr_t(C, UF_ERR_TYPING, x[i]->pos, "np.array_"
                              "equal() takes numbers or arrays in kernels, "
                              "not %s", uf__tname(ab[i]));
    const uf__type *opt = NULL;
    if (!uf__type_compare(C->tc, UF__CMP_EQ, uf__type_scalar(C->tc, a->dtype),
                          uf__type_scalar(C->tc, bt->dtype), &opt) ||
        opt == NULL)
        return uf__ierr_t(C, UF_ERR_TYPING, x[0]->pos, "np.array_equal() "
                          "cannot compare %s with %s", uf__tname(a),
                          uf__tname(bt));
    return bool_t(C);
}

/* np.nan_to_num(x, copy=True, nan=0.0, posinf=None, neginf=None). */
static const uf__type *type_nan_to_num(uf__ictx *C, const uf__expr **x,
                                       const uf__type *a)
{
    if (!numeric(a))
        return uf__ierr_t(C, UF_ERR_TYPING, x[0]->pos, "np.nan_to_num(): "
                          "Only Integer, Float, and Complex values are "
                          "accepted, not %s", uf__tname(a));
    if (x[1] != NULL) {
        const uf__type *t;
        OPERAND(t, x[1]);
        if (x[1]->kind != UF__EX_BOOL || !x[1]->u.b)
            return uf__ierr_t(C, UF_ERR_UNSUPPORTED, x[1]->pos, "%s",
                              "np.nan_to_num(copy=) takes only the literal "
                              "True in kernels (copy=False updates the "
                              "array in place: write x[:] = "
                              "np.nan_to_num(x) instead)");
    }
    uf_dtype r = a->dtype;
    bool flt = is_flt(a->dtype);
    if (flt && a->kind == UF__T_SCALAR)
        r = uf_promote_types(r, UF_FLOAT64);
    for (int i = 2; i < 5; i++) {
        if (x[i] == NULL)
            continue;
        const uf__type *t;
        OPERAND(t, x[i]);
        if (i > 2 && t->kind == UF__T_NONE)
            continue;
        if (t->kind != UF__T_SCALAR || is_cplx(t->dtype))
            return uf__ierr_t(C, UF_ERR_TYPING, x[i]->pos, "np.nan_to_num(): "
                              "%s must be a real number%s, not %s",
                              i == 2 ? "nan" : i == 3 ? "posinf" : "neginf",
                              i > 2 ? " or None" : "", uf__tname(t));
        if (flt && a->kind == UF__T_SCALAR)
            r = uf_promote_types(r, t->dtype);
    }
    if (a->kind == UF__T_SCALAR) /* complex(r, c): complex128 */
        return uf__type_scalar(C->tc, is_cplx(r) ? UF_COMPLEX128
                                                              : r);
    if (!flt && !is_cplx(a->dtype))
        return a; /* x itself */
    return uf__type_array(C->tc, a->dtype, a->ndim, 'C', C->err);
}

/* np.asarray_chkfinite(a, dtype=None): an array, returned as it is. */
static const uf__type *type_chkfinite(uf__ictx *C, const uf__expr **x,
                                      const uf__type *a)
{
    if (x[1] != NULL) {
        const uf__type *t;
        OPERAND(t, x[1]);
        if (t->kind != UF__T_NONE)
            return uf__ierr_t(C, UF_ERR_UNSUPPORTED, x[1]->pos, "%s",
                              "np.asarray_chkfinite(dtype=) is not "
                              "supported in kernels: convert with "
                              ".astype() after the check");
    }
    if (a->kind != UF__T_ARRAY)
        return uf__ierr_t(C, UF_ERR_TYPING, x[0]->pos, "The argument to "
                          "np.asarray_chkfinite must be array-like (an "
                          "array in kernels), not %s", uf__tname(a));
    return a;
}

static const uf__type *type_elem1(uf__ictx *C, uf__builtin b,
                                  const uf__expr **x, const uf__type *a)
{
    const char *name = uf__builtin_name(b) + 6;
    bool arr = a->kind == UF__T_ARRAY;
    if (a->kind != UF__T_SCALAR && a->kind != UF__T_ARRAY)
        return uf__ierr_t(C, UF_ERR_TYPING, x[0]->pos, "np.%s() takes a "
                          "number or an array in kernels, not %s", name,
                          uf__tname(a));
    uf_dtype d = a->dtype;
    switch (b) {
    case UF__BI_NP_ISNEGINF:
    case UF__BI_NP_ISPOSINF:
        if (x[1] != NULL) {
            const uf__type *t;
            OPERAND(t, x[1]);
            if (t->kind != UF__T_NONE)
                return uf__ierr_t(C, UF_ERR_UNSUPPORTED, x[1]->pos, "np.%s"
                                  "(x, out) is not supported in kernels: "
                                  "write out[:] = np.%s(x)", name, name);
        }
        if (is_cplx(d))
            return uf__ierr_t(C, UF_ERR_TYPING, x[0]->pos, "np.%s() of %s: "
                              "np.signbit has no loop for complex numbers",
                              name, uf__tname(a));
        return bool_like(C, arr ? a->ndim : -1);
    case UF__BI_NP_ISCOMPLEX:
    case UF__BI_NP_ISREAL:
        return bool_like(C, arr ? a->ndim : -1);
    case UF__BI_NP_SINC:
        if (d == UF_BOOL)
            return uf__ierr_t(C, UF_ERR_TYPING, x[0]->pos, "np.sinc() of "
                              "%s: Numba has no implementation for bools",
                              uf__tname(a));
        if (arr)
            return uf__type_array(C->tc, d, a->ndim, 'C', C->err);
        return uf__type_scalar(C->tc, is_cplx(d) ? UF_COMPLEX128
                                                              : UF_FLOAT64);
    default: /* NP_ANGLE */
        if (x[1] != NULL) {
            const uf__type *t;
            OPERAND(t, x[1]);
            if (t->kind != UF__T_SCALAR)
                return uf__ierr_t(C, UF_ERR_TYPING, x[1]->pos, "np.angle(): "
                                  "deg is a bool, not %s", uf__tname(t));
        }
        if (d == UF_BOOL || (arr && !is_flt(d) &&
                             !is_cplx(d)))
            return uf__ierr_t(C, UF_ERR_TYPING, x[0]->pos, "np.angle() "
                              "takes a number or an array of floats or "
                              "complex numbers, not %s", uf__tname(a));
        if (!arr)
            return uf__type_scalar(C->tc, UF_FLOAT64);
        return uf__type_array(C->tc, is_cplx(d)
                                         ? (d == UF_COMPLEX64 ? UF_FLOAT32 : UF_FLOAT64)
                                         : d,
                              a->ndim, 'C', C->err);
    }
}

const uf__type *uf__infer_nppred(uf__ictx *C, const uf__expr *e,
                                 uf__builtin b)
{
    uf__iinfo(C, e)->builtin = b;
    const char *name = uf__builtin_name(b) + 6; /* "numpy." */
    const uf__expr *x[UF__NPPRED_MAXARGS];
    const uf__keyword *kw;
    if (uf__nppred_bind(e, b, x, &kw) < 0) {
        if (kw != NULL)
            return uf__ierr_t(C, UF_ERR_TYPING, kw->pos, "np.%s() got an "
                              "unexpected or repeated keyword argument "
                              "'%s'", name, kw->name);
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "np.%s() takes at most "
                          "%d arguments (%d given)", name,
                          uf__nppred_params(b, &(const char *const *){0}),
                          e->u.call.nargs);
    }
    if (x[0] == NULL)
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "np.%s() missing "
                          "required argument", name);
    const uf__type *a, *r;
    OPERAND(a, x[0]);
    switch (b) {
    case UF__BI_NP_SHAPE:
    case UF__BI_NP_SIZE:
        r = type_shape(C, b, x[0], a);
        break;
    case UF__BI_NP_ISSCALAR:
    case UF__BI_NP_ISCOMPLEXOBJ:
    case UF__BI_NP_ISREALOBJ:
        r = bool_t(C);
        break;
    case UF__BI_NP_ISCLOSE:
    case UF__BI_NP_ALLCLOSE:
        r = type_close(C, b, x, a);
        break;
    case UF__BI_NP_ARRAY_EQUAL:
        r = type_array_equal(C, x, a);
        break;
    case UF__BI_NP_NAN_TO_NUM:
        r = type_nan_to_num(C, x, a);
        break;
    case UF__BI_NP_ASARRAY_CHKFINITE:
        r = type_chkfinite(C, x, a);
        break;
    default:
        r = type_elem1(C, b, x, a);
        break;
    }
    return r && r != UF__UNKNOWN ? uf__iset(C, e, r) : r;
}

/* np.isscalar(x) / np.iscomplexobj(x) / np.isrealobj(x) of type t:
 * known at compile time. */
bool uf__nppred_const(uf__builtin b, const uf__type *t)
{
    if (b == UF__BI_NP_ISSCALAR)
        return t->kind == UF__T_SCALAR;
    bool c = is_cplx(determined(t));
    return b == UF__BI_NP_ISCOMPLEXOBJ ? c : !c;
}
