/* Typing of NumPy's matrix constructors and diagonals (builtins.h:
 * UF__NPMATRIX_MAP) as Numba 0.68 types them (numba/np/arrayobj.py:
 * numpy_eye, impl_np_identity, impl_np_diag, numpy_diagflat;
 * numba/np/arraymath.py: my_tril, my_triu, np_vander, np_fill_diagonal;
 * numba/np/linalg.py: matrix_trace_impl, outer_impl, kron_impl):
 *   np.eye(N, M=None, k=0, dtype=float): a 2-D C array of dtype (a NumPy
 *     type, an array's .dtype, None: float64; Numba refuses Python's
 *     classes and strings here), N and M integers;
 *   np.identity(n, dtype=None): the same, n x n; dtype also a string, and
 *     any Python class makes float64 (Numba's ty_parse_dtype);
 *   np.diag(v, k=0): v a 1-D array (a 2-D square of its dtype) or a 2-D
 *     one (a 1-D copy of the diagonal); k an integer or bool;
 *   np.diagflat(v, k=0): v an array or a number, k an integer: 2-D;
 *   np.trace(a, offset=0): a 2-D float or complex array, offset an
 *     integer; float64 or complex128 (Numba's `ret = 0; ret += a[i, j]`);
 *   np.fill_diagonal(a, val, wrap=False): a of at least 2 dimensions, val
 *     an int, float or bool, or an array; None;
 *   np.tril / np.triu(m, k=0): m of at least 1 dimension, k an integer;
 *     a C array of m's dtype (1-D m gives a square), F for F m of 3 or more
 *     dimensions (Numba's np.empty_like);
 *   np.outer(a, b): arrays of at most 2 dimensions or numbers: 2-D C of
 *     np.multiply's dtype; out= is refused;
 *   np.kron(a, b): the same operands, arrays C or F, not 0-d: a's dtype,
 *     2-D when either is, 1-D for two 1-D arrays, the array's shape when
 *     the other is a number, (1,) for two numbers;
 *   np.vander(x, N=None, increasing=False): x an array of at least one
 *     dimension (not 1-D is Numba's run-time ValueError), N an integer or
 *     None: 2-D C of np.promote_types(x.dtype, int).
 * Tuples and lists as operands are refused (kernels have no sequences of
 * numbers NumPy would take as arrays). All of them allocate or loop on
 * the host: CUDA kernels refuse them at the call. */
#include <string.h>

#include "compiler/types/infer_internal.h"
#include "compiler/types/infer_npmatrix.h"
#include "compiler/types/infer_npufunc.h"

#define OPERAND(var, expr)                                                  \
    do {                                                                    \
        (var) = uf__infer_expr(C, (expr));                                  \
        if ((var) == NULL || (var) == UF__UNKNOWN)                          \
            return (var);                                                   \
    } while (0)

static const char *const eye_names[] = {"N", "M", "k", "dtype"};
static const char *const identity_names[] = {"n", "dtype"};
static const char *const tri_nmk_names[] = {"N", "M", "k"};
static const char *const v_k_names[] = {"v", "k"};
static const char *const trace_names[] = {"a", "offset"};
static const char *const fill_names[] = {"a", "val", "wrap"};
static const char *const tri_names[] = {"m", "k"};
static const char *const outer_names[] = {"a", "b", "out"};
static const char *const kron_names[] = {"a", "b"};
static const char *const vander_names[] = {"x", "N", "increasing"};
static const char *const indices_names[] = {"n", "k", "m"};
static const char *const from_names[] = {"arr", "k"};

int uf__npmatrix_params(uf__builtin b, const char *const **names)
{
    switch (b) {
    case UF__BI_NP_EYE:
        *names = eye_names;
        return 4;
    case UF__BI_NP_IDENTITY:
        *names = identity_names;
        return 2;
    case UF__BI_NP_TRI:
        *names = tri_nmk_names;
        return 3;
    case UF__BI_NP_DIAG:
    case UF__BI_NP_DIAGFLAT:
        *names = v_k_names;
        return 2;
    case UF__BI_NP_TRACE:
        *names = trace_names;
        return 2;
    case UF__BI_NP_FILL_DIAGONAL:
        *names = fill_names;
        return 3;
    case UF__BI_NP_TRIL:
    case UF__BI_NP_TRIU:
        *names = tri_names;
        return 2;
    case UF__BI_NP_OUTER:
        *names = outer_names;
        return 3;
    case UF__BI_NP_KRON:
        *names = kron_names;
        return 2;
    case UF__BI_NP_VANDER:
        *names = vander_names;
        return 3;
    case UF__BI_NP_TRIL_INDICES:
    case UF__BI_NP_TRIU_INDICES:
        *names = indices_names;
        return 3;
    case UF__BI_NP_TRIL_INDICES_FROM:
    case UF__BI_NP_TRIU_INDICES_FROM:
        *names = from_names;
        return 2;
    default:
        *names = NULL;
        return 0;
    }
}

int uf__npmatrix_bind(const uf__expr *e, uf__builtin b, const uf__expr **x,
                      const uf__keyword **bad)
{
    const char *const *names;
    int n = uf__npmatrix_params(b, &names);
    *bad = NULL;
    if (e->u.call.nargs > n)
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
    return 0;
}

bool uf__npmatrix_mul(uf_dtype a, uf_dtype b, uf_dtype *op_a,
                      uf_dtype *op_b, uf_dtype *prod)
{
    const uf__ufunc_loops *row = uf__npufunc_loops(UF__BI_NP_MULTIPLY);
    uf_dtype in[2] = {a, b}, types[3];
    if (row == NULL || !uf__ufunc_select_loop(row->loops, 2, 1, in, types))
        return false;
    *op_a = types[0];
    *op_b = types[1];
    *prod = types[2];
    return true;
}

uf_dtype uf__npmatrix_vander_dtype(uf_dtype x)
{
    return uf_promote_types(x, UF_INT64);
}

static const uf__type *arr(uf__ictx *C, uf_dtype dt, int nd, char layout)
{
    return uf__type_array(C->tc, dt, nd, layout, C->err);
}

/* Argument x of fn (parameter `what`) an integer (a bool too when
 * bool_ok; None too when none_ok, then *none set); NULL with the error,
 * UF__UNKNOWN to retry, else x's type. An absent x is fine. */
static const uf__type *int_arg(uf__ictx *C, const char *fn, const char *what,
                               const uf__expr *x, bool bool_ok, bool none_ok)
{
    static const uf__type ok = {.kind = UF__T_NONE};
    if (x == NULL)
        return &ok;
    const uf__type *t;
    OPERAND(t, x);
    if (none_ok && t->kind == UF__T_NONE)
        return t;
    if (t->kind == UF__T_SCALAR &&
        (uf__type_is_int(t) || (bool_ok && t->dtype == UF_BOOL)))
        return t;
    return uf__ierr_t(C, UF_ERR_TYPING, x->pos, "np.%s(): %s must be an "
                      "integer%s, not %s", fn, what,
                      none_ok ? " or None" : "", uf__tname(t));
}

#define INT_ARG(fn, what, x, b, n)                                          \
    do {                                                                    \
        const uf__type *t_ = int_arg(C, fn, what, x, b, n);                 \
        if (t_ == NULL || t_ == UF__UNKNOWN)                                \
            return t_;                                                      \
    } while (0)

/* eye's / identity's dtype argument x into *dt. */
static const uf__type *dtype_arg(uf__ictx *C, uf__builtin b,
                                 const uf__expr *x, uf_dtype *dt)
{
    static const uf__type ok = {.kind = UF__T_NONE};
    bool eye = b == UF__BI_NP_EYE;
    const char *fn = eye ? "eye" : "identity";
    *dt = UF_FLOAT64;
    if (x == NULL)
        return &ok;
    if (x->kind == UF__EX_STR && !eye) { /* a literal string, as np.dtype */
        uf_error e;
        if (x->u.str.len < 32 && uf_dtype_from_name(x->u.str.s, dt, &e) == 0)
            return &ok;
        return uf__ierr_t(C, UF_ERR_TYPING, x->pos, "np.%s(): '%s' is not "
                          "a dtype NumPy knows", fn, x->u.str.s);
    }
    const uf__type *t;
    OPERAND(t, x);
    if (t->kind == UF__T_NONE)
        return &ok;
    if (t->kind == UF__T_DTYPE) {
        *dt = t->dtype;
        return &ok;
    }
    if (!eye && uf__type_is_pyclass(t)) /* ty_parse_dtype finds none */
        return &ok;
    return uf__ierr_t(C, UF_ERR_TYPING, x->pos, "np.%s(): dtype must be a "
                      "NumPy type such as np.float64 or an array's .dtype%s, "
                      "not %s", fn,
                      eye ? " (Numba cannot interpret Python's classes or "
                            "strings here)"
                          : "",
                      uf__tname(t));
}

/* An operand of np.outer / np.kron: an array of at most 2 dimensions or a
 * number. */
static const uf__type *mat_operand(uf__ictx *C, uf__builtin b,
                                   const uf__expr *x)
{
    const char *fn = b == UF__BI_NP_OUTER ? "outer" : "kron";
    const uf__type *t;
    OPERAND(t, x);
    if (t->kind == UF__T_SCALAR)
        return t;
    if (t->kind != UF__T_ARRAY)
        return uf__ierr_t(C, UF_ERR_TYPING, x->pos, "np.%s() takes arrays "
                          "or numbers, not %s", fn, uf__tname(t));
    if (t->ndim > 2)
        return uf__ierr_t(C, UF_ERR_TYPING, x->pos, "np.%s() only "
                          "supported on 1 and 2-D arrays, not %s", fn,
                          uf__tname(t));
    if (b == UF__BI_NP_KRON && t->ndim == 0)
        return uf__ierr_t(C, UF_ERR_TYPING, x->pos, "np.kron() takes arrays "
                          "of 1 or 2 dimensions or numbers, not %s (Numba "
                          "cannot reshape it)", uf__tname(t));
    if (b == UF__BI_NP_KRON && t->layout != 'C' && t->layout != 'F')
        return uf__ierr_t(C, UF_ERR_TYPING, x->pos, "np.kron only supports "
                          "'C' or 'F' layout input arrays, not %s: copy the "
                          "view first", uf__tname(t));
    return t;
}

static const uf__type *type_outer_kron(uf__ictx *C, const uf__expr *e,
                                       uf__builtin b, const uf__expr **x)
{
    const char *fn = b == UF__BI_NP_OUTER ? "outer" : "kron";
    if (x[1] == NULL)
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "np.%s() missing "
                          "required argument 'b'", fn);
    if (b == UF__BI_NP_OUTER && x[2] != NULL)
        return uf__ierr_t(C, UF_ERR_UNSUPPORTED, x[2]->pos, "%s",
                          "np.outer(a, b, out) is not supported in kernels: "
                          "assign the result instead (out[...] = "
                          "np.outer(a, b))");
    const uf__type *ta = mat_operand(C, b, x[0]);
    if (ta == NULL || ta == UF__UNKNOWN)
        return ta;
    const uf__type *tb = mat_operand(C, b, x[1]);
    if (tb == NULL || tb == UF__UNKNOWN)
        return tb;
    uf_dtype oa, ob, p;
    if (!uf__npmatrix_mul(ta->dtype, tb->dtype, &oa, &ob, &p))
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "np.%s() of %s and %s: "
                          "np.multiply has no loop for them", fn,
                          uf__tname(ta), uf__tname(tb));
    if (b == UF__BI_NP_OUTER)
        return arr(C, p, 2, 'C');
    bool aa = ta->kind == UF__T_ARRAY, ba = tb->kind == UF__T_ARRAY;
    int nd = aa && ba ? (ta->ndim == 2 || tb->ndim == 2 ? 2 : 1)
             : aa     ? ta->ndim
             : ba     ? tb->ndim
                      : 1;
    return arr(C, ta->dtype, nd, 'C');
}

static const uf__type *type_fill(uf__ictx *C, const uf__expr *e,
                                 const uf__type *a, const uf__expr **x)
{
    if (a->ndim < 2)
        return uf__ierr_t(C, UF_ERR_TYPING, x[0]->pos, "np.fill_diagonal() "
                          "takes an array of at least 2 dimensions, not %s",
                          uf__tname(a));
    if (x[1] == NULL)
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "%s", "np.fill_diagonal"
                          "() missing required argument 'val'");
    const uf__type *v;
    OPERAND(v, x[1]);
    bool ok = v->kind == UF__T_ARRAY ||
              (v->kind == UF__T_SCALAR && uf_dtype_kind(v->dtype) != 'c');
    if (!ok)
        return uf__ierr_t(C, UF_ERR_TYPING, x[1]->pos, "np.fill_diagonal(): "
                          "val must be an int, float or bool or an array, "
                          "not %s", uf__tname(v));
    if (x[2] != NULL) {
        const uf__type *w;
        OPERAND(w, x[2]);
        if (w->kind != UF__T_SCALAR || uf_dtype_kind(w->dtype) == 'c')
            return uf__ierr_t(C, UF_ERR_TYPING, x[2]->pos,
                              "np.fill_diagonal(): wrap must be a bool, "
                              "not %s", uf__tname(w));
    }
    return uf__type_none(C->tc);
}

static const uf__type *type_trace(uf__ictx *C, const uf__expr **x,
                                  const uf__type *a)
{
    char k = uf_dtype_kind(a->dtype);
    if (a->ndim != 2 || (k != 'f' && k != 'c'))
        return uf__ierr_t(C, UF_ERR_TYPING, x[0]->pos, "np.trace() only "
                          "supported on 2-D float and complex arrays, not "
                          "%s", uf__tname(a));
    INT_ARG("trace", "offset", x[1], false, false);
    return uf__type_scalar(C->tc, k == 'c' ? UF_COMPLEX128 : UF_FLOAT64);
}

static const uf__type *type_vander(uf__ictx *C, const uf__expr **x,
                                   const uf__type *a)
{
    if (a->ndim == 0)
        return uf__ierr_t(C, UF_ERR_TYPING, x[0]->pos, "np.vander() takes "
                          "an array of at least one dimension, not %s",
                          uf__tname(a));
    INT_ARG("vander", "N", x[1], false, true);
    if (x[2] != NULL) {
        const uf__type *t;
        OPERAND(t, x[2]);
        if (t->kind != UF__T_SCALAR || uf_dtype_kind(t->dtype) == 'c')
            return uf__ierr_t(C, UF_ERR_TYPING, x[2]->pos, "np.vander(): "
                              "increasing must be a bool, not %s",
                              uf__tname(t));
    }
    return arr(C, uf__npmatrix_vander_dtype(a->dtype), 2, 'C');
}

/* np.diag, np.diagflat, np.tril, np.triu of operand type a. */
static const uf__type *type_diag_tri(uf__ictx *C, uf__builtin b,
                                     const uf__expr **x, const uf__type *a)
{
    const char *fn = uf__builtin_name(b) + 6;
    if (b == UF__BI_NP_DIAGFLAT) {
        INT_ARG(fn, "k", x[1], false, false);
        return arr(C, a->dtype, 2, 'C');
    }
    if (b == UF__BI_NP_DIAG) {
        if (a->kind != UF__T_ARRAY || (a->ndim != 1 && a->ndim != 2))
            return uf__ierr_t(C, UF_ERR_TYPING, x[0]->pos, "np.diag(): "
                              "input must be a 1- or 2-d array, not %s",
                              uf__tname(a));
        INT_ARG(fn, "k", x[1], true, false);
        return arr(C, a->dtype, 3 - a->ndim, 'C');
    }
    if (a->kind != UF__T_ARRAY || a->ndim < 1)
        return uf__ierr_t(C, UF_ERR_TYPING, x[0]->pos, "np.%s() takes an "
                          "array of at least one dimension, not %s", fn,
                          uf__tname(a));
    INT_ARG(fn, "k", x[1], false, false);
    int nd = a->ndim < 2 ? 2 : a->ndim;
    return arr(C, a->dtype, nd, nd > 2 && a->layout == 'F' ? 'F' : 'C');
}

/* (rows, cols): two int64 1-D arrays, as np.nonzero gives them. */
static const uf__type *index_pair(uf__ictx *C)
{
    const uf__type *a = arr(C, UF_INT64, 1, 'C');
    if (a == NULL)
        return NULL;
    const uf__type *elts[2] = {a, a};
    return uf__type_tuple(C->tc, 2, elts, C->err);
}

/* np.tril_indices(n, k=0, m=None) ..., np.tril_indices_from(arr, k=0):
 * integers (not bools: Numba's check_is_integer), arr 2-D. */
static const uf__type *type_indices(uf__ictx *C, uf__builtin b,
                                    const uf__expr **x)
{
    const char *fn = uf__builtin_name(b) + 6;
    if (b == UF__BI_NP_TRIL_INDICES || b == UF__BI_NP_TRIU_INDICES) {
        INT_ARG(fn, "n", x[0], false, false);
        INT_ARG(fn, "k", x[1], false, false);
        INT_ARG(fn, "m", x[2], false, true);
        return index_pair(C);
    }
    const uf__type *a;
    OPERAND(a, x[0]);
    if (a->kind != UF__T_ARRAY || a->ndim != 2)
        return uf__ierr_t(C, UF_ERR_TYPING, x[0]->pos, "np.%s(): input "
                          "array must be 2-d, not %s", fn, uf__tname(a));
    INT_ARG(fn, "k", x[1], false, false);
    return index_pair(C);
}

static const uf__type *type_eye(uf__ictx *C, uf__builtin b,
                                const uf__expr **x)
{
    const char *fn = b == UF__BI_NP_EYE ? "eye" : "identity";
    INT_ARG(fn, b == UF__BI_NP_EYE ? "N" : "n", x[0], false, false);
    uf_dtype dt;
    const uf__type *r;
    if (b == UF__BI_NP_EYE) {
        INT_ARG(fn, "M", x[1], false, true);
        INT_ARG(fn, "k", x[2], true, false);
        r = dtype_arg(C, b, x[3], &dt);
    } else {
        r = dtype_arg(C, b, x[1], &dt);
    }
    if (r == NULL || r == UF__UNKNOWN)
        return r;
    return arr(C, dt, 2, 'C');
}

/* np.tri(N, M=None, k=0), as Numba's: float64 (no dtype argument),
 * ints only (k too, where NumPy takes floats). */
static const uf__type *type_tri(uf__ictx *C, const uf__expr **x)
{
    INT_ARG("tri", "N", x[0], false, false);
    INT_ARG("tri", "M", x[1], false, true);
    INT_ARG("tri", "k", x[2], false, false);
    return arr(C, UF_FLOAT64, 2, 'C');
}

const uf__type *uf__infer_npmatrix(uf__ictx *C, const uf__expr *e,
                                   uf__builtin b)
{
    uf__iinfo(C, e)->builtin = b;
    const char *name = uf__builtin_name(b) + 6; /* "numpy." */
    const char *const *names;
    int np = uf__npmatrix_params(b, &names);
    const uf__expr *x[UF__NPMATRIX_MAXARGS];
    const uf__keyword *kw;
    if (uf__npmatrix_bind(e, b, x, &kw) != 0) {
        if (kw != NULL)
            return uf__ierr_t(C, UF_ERR_TYPING, kw->pos, "np.%s() got an "
                              "unexpected or repeated keyword argument "
                              "'%s'", name, kw->name);
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "np.%s() takes at most "
                          "%d arguments (%d given)", name, np,
                          e->u.call.nargs);
    }
    if (x[0] == NULL)
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "np.%s() missing "
                          "required argument '%s'", name, names[0]);
    uf__kernel_kind kk = C->tf->decl->kind;
    if (kk == UF__K_CUDA_KERNEL || kk == UF__K_DEVICE)
        return uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->pos, "np.%s() "
                          "allocates an array or loops over one on the "
                          "host, which CUDA kernels cannot do", name);
    const uf__type *r;
    if (b == UF__BI_NP_EYE || b == UF__BI_NP_IDENTITY) {
        r = type_eye(C, b, x);
    } else if (b == UF__BI_NP_TRI) {
        r = type_tri(C, x);
    } else if (b >= UF__BI_NP_TRIL_INDICES &&
               b <= UF__BI_NP_TRIU_INDICES_FROM) {
        r = type_indices(C, b, x);
    } else if (b == UF__BI_NP_OUTER || b == UF__BI_NP_KRON) {
        r = type_outer_kron(C, e, b, x);
    } else {
        const uf__type *a;
        OPERAND(a, x[0]);
        bool number_ok = b == UF__BI_NP_DIAGFLAT &&
                         a->kind == UF__T_SCALAR;
        if (a->kind != UF__T_ARRAY && !number_ok)
            return uf__ierr_t(C, UF_ERR_TYPING, x[0]->pos, "np.%s() takes "
                              "an array, not %s", name, uf__tname(a));
        if (a->kind == UF__T_ARRAY && a->ndim > UF_MAXDIMS)
            return uf__ierr_t(C, UF_ERR_UNSUPPORTED, x[0]->pos, "np.%s() of "
                              "more than %d dimensions", name, UF_MAXDIMS);
        switch (b) {
        case UF__BI_NP_TRACE:
            r = type_trace(C, x, a);
            break;
        case UF__BI_NP_FILL_DIAGONAL:
            r = type_fill(C, e, a, x);
            break;
        case UF__BI_NP_VANDER:
            r = type_vander(C, x, a);
            break;
        default:
            r = type_diag_tri(C, b, x, a);
            break;
        }
    }
    return r && r != UF__UNKNOWN ? uf__iset(C, e, r) : r;
}
