/* Typing of NumPy's views that reverse, rotate, permute or add axes
 * (builtins.h: UF__NPVIEW_MAP) as Numba 0.68 types them
 * (numba/np/arrayobj.py: np_flip, np_flip_lr, np_flip_ud, numpy_rot90,
 * impl_np_expand_dims, numpy_swapaxes, numpy_moveaxis, numpy_transpose,
 * np_atleast_1d..3d; core/typing/arraydecl.py: resolve_transpose):
 *   np.flip(m): m an array; every axis reversed, layout 'A'; a 0-d array
 *     gives its element (Numba indexes it with an empty tuple);
 *   np.fliplr(m) (at least 2-D), np.flipud(m) (at least 1-D): 'A';
 *   np.rot90(m, k=1): m at least 2-D, k an integer: 'A';
 *   np.expand_dims(a, axis): axis an integer; a's layout for a 0-d or
 *     1-D a, else 'A';
 *   np.swapaxes(a, axis1, axis2), np.moveaxis(a, source, destination):
 *     integers, a at least 1-D: 'A' (moveaxis's sequences are refused);
 *   np.transpose(a, axes), np.permute_dims(a, axes), a.transpose(axes),
 *     a.transpose(i, j, ...): a tuple of a.ndim integers (or a.ndim
 *     integers): 'A'; axes=None is a.T; a.transpose(i) of a 1-D array is
 *     the array itself;
 *   np.atleast_1d/2d/3d(a, ...): arrays only (Numba refuses numbers),
 *     layouts kept; several arrays give a tuple;
 *   np.ascontiguousarray(a), np.asfortranarray(a) (type_asarray below):
 *     the argument itself where it fits, else a copy (numba/np/arrayobj.py:
 *     _as_layout_array_intrinsic; np.asarray is infer_npjoin.c's);
 *   np.roll(a, shift): a new C array of a's shape, the flattened
 *     elements rotated by shift (arraymath.py: np_roll; no axis);
 *   np.take(a, indices) / a.take(indices) (arrayobj.py: numpy_take):
 *     without axis, an element or a new C array (type_take).
 * Everything is a view of the argument (no copy), readonly when it is.
 * Bools are not integers here, as in Numba. CUDA kernels refuse these
 * (only the host lowering is tested). */
#include <stdio.h>
#include <string.h>

#include "compiler/types/infer_internal.h"
#include "compiler/types/infer_npview.h"

#define OPERAND(var, expr)                                                  \
    do {                                                                    \
        (var) = uf__infer_expr(C, (expr));                                  \
        if ((var) == NULL || (var) == UF__UNKNOWN)                          \
            return (var);                                                   \
    } while (0)

static const char *const m_names[] = {"m", "k"};
static const char *const expand_names[] = {"a", "axis"};
static const char *const swap_names[] = {"a", "axis1", "axis2"};
static const char *const move_names[] = {"a", "source", "destination"};
static const char *const axes_names[] = {"a", "axes"};
static const char *const asarray_names[] = {"a"};
static const char *const roll_names[] = {"a", "shift"};
static const char *const take_names[] = {"a", "indices", "axis"};

/* Parameter names in order, their count; 0 for the variadic forms. */
static int params(uf__builtin b, const char *const **names)
{
    switch (b) {
    case UF__BI_NP_FLIP:
    case UF__BI_NP_FLIPLR:
    case UF__BI_NP_FLIPUD:
        *names = m_names;
        return 1;
    case UF__BI_NP_ASCONTIGUOUSARRAY:
    case UF__BI_NP_ASFORTRANARRAY:
        *names = asarray_names;
        return 1;
    case UF__BI_NP_ROLL:
        *names = roll_names;
        return 2;
    case UF__BI_NP_TAKE:
        *names = take_names;
        return 3;
    case UF__BI_NP_ROT90:
        *names = m_names;
        return 2;
    case UF__BI_NP_EXPAND_DIMS:
        *names = expand_names;
        return 2;
    case UF__BI_NP_SWAPAXES:
        *names = swap_names;
        return 3;
    case UF__BI_NP_MOVEAXIS:
        *names = move_names;
        return 3;
    case UF__BI_NP_PERMUTE_DIMS:
    case UF__BI_NP_TRANSPOSE:
    case UF__BI_NP_TRANSPOSE_AXES:
        *names = axes_names;
        return 2;
    default:
        *names = NULL;
        return 0;
    }
}

static bool variadic(uf__builtin b, bool method)
{
    return b == UF__BI_NP_ATLEAST_1D || b == UF__BI_NP_ATLEAST_2D ||
           b == UF__BI_NP_ATLEAST_3D ||
           (method && (b == UF__BI_NP_TRANSPOSE ||
                       b == UF__BI_NP_TRANSPOSE_AXES));
}

int uf__npview_bind(const uf__expr *e, uf__builtin b, bool method,
                    const uf__expr **x, const uf__keyword **bad)
{
    *bad = NULL;
    if (variadic(b, method)) {
        int n = 0;
        if (method)
            x[n++] = e->u.call.func->u.attr.value;
        if (e->u.call.nkw > 0) {
            *bad = &e->u.call.kw[0];
            return -1;
        }
        if (n + e->u.call.nargs > UF__NPVIEW_MAXARGS)
            return -1;
        for (int i = 0; i < e->u.call.nargs; i++)
            x[n++] = e->u.call.args[i];
        return n;
    }
    const char *const *names;
    int n = params(b, &names);
    int skip = method ? 1 : 0; /* a.take(i): the receiver is `a` */
    if (e->u.call.nargs + skip > n)
        return -1;
    for (int i = 0; i < n; i++)
        x[i] = i < skip ? e->u.call.func->u.attr.value
               : i - skip < e->u.call.nargs ? e->u.call.args[i - skip]
                                            : NULL;
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

bool uf__npview_transpose_has_axes(const uf__expr *e, bool method)
{
    return e->u.call.nargs + e->u.call.nkw >= (method ? 1 : 2);
}

typedef struct vcall {
    uf__ictx *C;
    const uf__expr *e;
    uf__builtin b;
    const char *name; /* "np.flip", "array.transpose" */
} vcall;

static const uf__type *view(vcall *v, const uf__type *a, int nd, char layout)
{
    return uf__type_array_ro(v->C->tc, a->dtype, nd, layout, a->readonly,
                             v->C->err);
}

/* x an integer (not a bool), as Numba's types.Integer checks. */
static const uf__type *int_arg(vcall *v, const uf__expr *x, const char *what)
{
    uf__ictx *C = v->C;
    const uf__type *t;
    OPERAND(t, x);
    if (t->kind != UF__T_SCALAR || !uf__type_is_int(t))
        return uf__ierr_t(C, UF_ERR_TYPING, x->pos, "%s(): %s must be an "
                          "integer, not %s", v->name, what, uf__tname(t));
    return t;
}

static const uf__type *need_ndim(vcall *v, const uf__expr *at,
                                 const uf__type *a, int nd)
{
    if (a->ndim >= nd)
        return a;
    return uf__ierr_t(v->C, UF_ERR_TYPING, at->pos, "%s() takes an array "
                      "of at least %d dimension%s, not %s (Numba: Input "
                      "must be >= %d-d.)", v->name, nd, nd == 1 ? "" : "s",
                      uf__tname(a), nd);
}

/* np.transpose(a, axes), a.transpose(...), np.permute_dims(a, axes):
 * x[1..n) after the array. */
static const uf__type *type_transpose(vcall *v, const uf__type *a,
                                      const uf__expr **x, int n)
{
    uf__ictx *C = v->C;
    if (n == 2) {
        bool permute = v->b == UF__BI_NP_PERMUTE_DIMS;
        if (x[1] == NULL && !permute)
            return uf__ierr_t(C, UF_ERR_TYPING, v->e->pos, "%s() missing "
                              "required argument 'axes'", v->name);
        const uf__type *t = uf__type_none(C->tc); /* permute_dims(a) */
        if (x[1])
            OPERAND(t, x[1]);
        if (t->kind == UF__T_NONE) {
            if (a->ndim <= 1)
                return a;
            char l = a->layout == 'C' ? 'F' : a->layout == 'F' ? 'C' : 'A';
            return view(v, a, a->ndim, l);
        }
        if (t->kind == UF__T_SCALAR && uf__type_is_int(t) && a->ndim == 1)
            return a; /* a.transpose(0) */
        if (t->kind == UF__T_TUPLE) {
            for (int k = 0; k < t->n; k++)
                if (t->elts[k]->kind != UF__T_SCALAR ||
                    !uf__type_is_int(t->elts[k]))
                    return uf__ierr_t(C, UF_ERR_TYPING, x[1]->pos, "%s(): "
                                      "axes must be integers, not %s",
                                      v->name, uf__tname(t));
            if (t->n != a->ndim || a->ndim < 2)
                return uf__ierr_t(C, UF_ERR_TYPING, x[1]->pos, "%s() of %s "
                                  "takes a tuple of %d axes, not %s (Numba "
                                  "asserts it; a 1-D array's tuple too)",
                                  v->name, uf__tname(a), a->ndim,
                                  uf__tname(t));
            return view(v, a, a->ndim, 'A');
        }
        if (!(t->kind == UF__T_SCALAR && uf__type_is_int(t)))
            return uf__ierr_t(C, UF_ERR_TYPING, x[1]->pos, "%s(): axes must "
                              "be a tuple of integers, not %s", v->name,
                              uf__tname(t));
    }
    /* a.transpose(i, j, ...) */
    for (int i = 1; i < n; i++)
        if (!int_arg(v, x[i], "each axis"))
            return NULL;
    if (n - 1 != a->ndim)
        return uf__ierr_t(C, UF_ERR_TYPING, v->e->pos, "%s() of %s takes %d "
                          "axes, not %d", v->name, uf__tname(a), a->ndim,
                          n - 1);
    return a->ndim == 1 ? a : view(v, a, a->ndim, 'A');
}

static const uf__type *type_atleast(vcall *v, const uf__expr **x, int n)
{
    uf__ictx *C = v->C;
    int min = v->b == UF__BI_NP_ATLEAST_1D   ? 1
              : v->b == UF__BI_NP_ATLEAST_2D ? 2
                                             : 3;
    if (n == 0)
        return uf__ierr_t(C, UF_ERR_TYPING, v->e->pos, "%s() takes at least "
                          "one array", v->name);
    const uf__type *r[UF__NPVIEW_MAXARGS];
    for (int i = 0; i < n; i++) {
        const uf__type *a;
        OPERAND(a, x[i]);
        if (a->kind != UF__T_ARRAY)
            return uf__ierr_t(C, UF_ERR_TYPING, x[i]->pos, "%s() takes "
                              "arrays, not %s (Numba has no overload for "
                              "numbers)", v->name, uf__tname(a));
        r[i] = a->ndim >= min ? a : view(v, a, min, a->layout);
        if (r[i] == NULL)
            return NULL;
    }
    return n == 1 ? r[0] : uf__type_tuple(C->tc, n, r, C->err);
}

/* np.ascontiguousarray(a) / np.asfortranarray(a): a writable array of
 * at least one dimension in that layout (a number a new one of one
 * element). */
static const uf__type *type_asarray(vcall *v, const uf__expr **x)
{
    uf__ictx *C = v->C;
    const uf__type *a;
    OPERAND(a, x[0]);
    bool number = a->kind == UF__T_SCALAR;
    char l = v->b == UF__BI_NP_ASCONTIGUOUSARRAY ? 'C' : 'F';
    if (!number && a->kind != UF__T_ARRAY)
        return uf__ierr_t(C, UF_ERR_TYPING, x[0]->pos, "%s(): The argument "
                          "\"a\" must be array-like, not %s", v->name,
                          uf__tname(a));
    return uf__type_array(C->tc, a->dtype, a->kind == UF__T_ARRAY &&
                          a->ndim > 1 ? a->ndim : 1, l, C->err);
}

/* np.take(a, indices) / a.take(indices) without axis: a.ravel()[i] for
 * an integer, a new C array of the indices' shape for an array of
 * integers, a 1-D one for a tuple of integers. */
static const uf__type *type_take(vcall *v, const uf__expr **x)
{
    uf__ictx *C = v->C;
    const uf__type *a, *t;
    OPERAND(a, x[0]);
    if (a->kind != UF__T_ARRAY)
        return uf__ierr_t(C, UF_ERR_TYPING, x[0]->pos, "%s() takes an "
                          "array, not %s", v->name, uf__tname(a));
    if (x[2] != NULL) {
        OPERAND(t, x[2]);
        if (t->kind != UF__T_NONE)
            return uf__ierr_t(C, UF_ERR_UNSUPPORTED, x[2]->pos, "%s(axis=) "
                              "is not supported in kernels", v->name);
    }
    if (x[1] == NULL)
        return uf__ierr_t(C, UF_ERR_TYPING, v->e->pos, "%s() missing "
                          "required argument 'indices'", v->name);
    OPERAND(t, x[1]);
    if (t->kind == UF__T_SCALAR && uf__type_is_int(t))
        return uf__type_scalar(C->tc, a->dtype);
    if (t->kind == UF__T_ARRAY && uf_dtype_kind(t->dtype) != 'b' &&
        (uf_dtype_kind(t->dtype) == 'i' || uf_dtype_kind(t->dtype) == 'u'))
        return uf__type_array(C->tc, a->dtype, t->ndim, 'C', C->err);
    if (t->kind == UF__T_TUPLE && t->n > 0) {
        for (int k = 0; k < t->n; k++)
            if (t->elts[k]->kind != UF__T_SCALAR ||
                !uf__type_is_int(t->elts[k]))
                return uf__ierr_t(C, UF_ERR_TYPING, x[1]->pos, "%s(): "
                                  "indices must be integers, not %s",
                                  v->name, uf__tname(t));
        return uf__type_array(C->tc, a->dtype, 1, 'C', C->err);
    }
    return uf__ierr_t(C, UF_ERR_TYPING, x[1]->pos, "%s(): indices must be "
                      "an integer, an array or a tuple of integers, not %s",
                      v->name, uf__tname(t));
}

/* np.roll(a, shift): a new C array of a's shape (a number: a 0-d one),
 * shift an integer or bool (Numba's np_roll has no axis). */
static const uf__type *type_roll(vcall *v, const uf__expr **x)
{
    uf__ictx *C = v->C;
    const uf__type *a, *s;
    OPERAND(a, x[0]);
    if (x[1] == NULL)
        return uf__ierr_t(C, UF_ERR_TYPING, v->e->pos, "%s() missing "
                          "required argument 'shift'", v->name);
    OPERAND(s, x[1]);
    if (s->kind != UF__T_SCALAR ||
        (!uf__type_is_int(s) && s->dtype != UF_BOOL))
        return uf__ierr_t(C, UF_ERR_TYPING, x[1]->pos, "%s(): shift must "
                          "be an integer, not %s (no axis, as Numba)",
                          v->name, uf__tname(s));
    if (a->kind == UF__T_SCALAR)
        return uf__type_array(C->tc, a->dtype, 0, 'C', C->err);
    if (a->kind != UF__T_ARRAY)
        return uf__ierr_t(C, UF_ERR_TYPING, x[0]->pos, "%s() takes an array "
                          "or a number, not %s", v->name, uf__tname(a));
    return uf__type_array(C->tc, a->dtype, a->ndim, 'C', C->err);
}

const uf__type *uf__infer_npview(uf__ictx *C, const uf__expr *e,
                                 uf__builtin b)
{
    const uf__expr *f = e->u.call.func;
    bool method = false;
    if (f->kind == UF__EX_ATTR) {
        const uf__type *rt = uf__iinfo(C, f->u.attr.value)->type;
        method = rt && rt->kind == UF__T_ARRAY;
    }
    if (b == UF__BI_NP_TRANSPOSE)
        b = UF__BI_NP_TRANSPOSE_AXES;
    uf__iinfo(C, e)->builtin = b;
    char name[40];
    if (b == UF__BI_NP_TRANSPOSE_AXES)
        strcpy(name, method ? "array.transpose" : "np.transpose");
    else if (method)
        snprintf(name, sizeof name, "array.%s", uf__builtin_name(b) + 6);
    else
        snprintf(name, sizeof name, "np.%s", uf__builtin_name(b) + 6);
    vcall v = {.C = C, .e = e, .b = b, .name = name};
    const uf__expr *x[UF__NPVIEW_MAXARGS];
    const uf__keyword *kw;
    int n = uf__npview_bind(e, b, method, x, &kw);
    if (n < 0) {
        if (kw != NULL)
            return uf__ierr_t(C, UF_ERR_TYPING, kw->pos, "%s() got an "
                              "unexpected or repeated keyword argument "
                              "'%s'", name, kw->name);
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "%s() got too many "
                          "arguments (%d)", name, e->u.call.nargs);
    }
    uf__kernel_kind k = C->tf->decl->kind;
    if (k == UF__K_CUDA_KERNEL || k == UF__K_DEVICE)
        return uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->pos, "%s() is not "
                          "supported in CUDA kernels", name);
    const uf__type *r;
    if (b >= UF__BI_NP_ATLEAST_1D && b <= UF__BI_NP_ATLEAST_3D) {
        r = type_atleast(&v, x, n);
        return r && r != UF__UNKNOWN ? uf__iset(C, e, r) : r;
    }
    if (x[0] == NULL)
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "%s() missing required "
                          "argument '%s'", name,
                          b <= UF__BI_NP_ROT90 ? "m" : "a");
    if (b >= UF__BI_NP_ASCONTIGUOUSARRAY && b <= UF__BI_NP_TAKE) {
        r = b == UF__BI_NP_TAKE   ? type_take(&v, x)
            : b == UF__BI_NP_ROLL ? type_roll(&v, x)
                                  : type_asarray(&v, x);
        return r && r != UF__UNKNOWN ? uf__iset(C, e, r) : r;
    }
    const uf__type *a;
    OPERAND(a, x[0]);
    if (a->kind != UF__T_ARRAY)
        return uf__ierr_t(C, UF_ERR_TYPING, x[0]->pos, "%s() takes an array, "
                          "not %s", name, uf__tname(a));
    for (int i = 1; i < n; i++)
        if (x[i] == NULL && b != UF__BI_NP_ROT90 &&
            b != UF__BI_NP_TRANSPOSE_AXES && b != UF__BI_NP_PERMUTE_DIMS)
            return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "%s() missing "
                              "required argument", name);
    switch (b) {
    case UF__BI_NP_FLIP:
        r = a->ndim == 0 ? uf__type_scalar(C->tc, a->dtype)
                         : view(&v, a, a->ndim, 'A');
        break;
    case UF__BI_NP_FLIPLR:
    case UF__BI_NP_FLIPUD:
        r = need_ndim(&v, x[0], a, b == UF__BI_NP_FLIPLR ? 2 : 1);
        if (r)
            r = view(&v, a, a->ndim, 'A');
        break;
    case UF__BI_NP_ROT90:
        r = need_ndim(&v, x[0], a, 2);
        if (r && x[1] != NULL)
            r = int_arg(&v, x[1], "k");
        if (r && r != UF__UNKNOWN)
            r = view(&v, a, a->ndim, 'A');
        break;
    case UF__BI_NP_EXPAND_DIMS:
        r = int_arg(&v, x[1], "axis");
        if (r && r != UF__UNKNOWN)
            r = a->ndim + 1 > UF_MAXDIMS
                    ? uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->pos, "%s(): "
                                 "more than %d dimensions", name, UF_MAXDIMS)
                    : view(&v, a, a->ndim + 1, a->ndim <= 1 ? a->layout : 'A');
        break;
    case UF__BI_NP_SWAPAXES:
    case UF__BI_NP_MOVEAXIS:
        r = need_ndim(&v, x[0], a, 1);
        for (int i = 1; i < 3 && r && r != UF__UNKNOWN; i++) {
            const uf__type *t;
            OPERAND(t, x[i]);
            if (b == UF__BI_NP_MOVEAXIS && t->kind == UF__T_TUPLE)
                return uf__ierr_t(C, UF_ERR_UNSUPPORTED, x[i]->pos, "%s() "
                                  "of sequences of axes is not supported in "
                                  "kernels: one integer each", name);
            r = int_arg(&v, x[i], (b == UF__BI_NP_SWAPAXES ? swap_names
                                                           : move_names)[i]);
        }
        if (r && r != UF__UNKNOWN)
            r = view(&v, a, a->ndim, 'A');
        break;
    default: /* transpose, permute_dims */
        r = type_transpose(&v, a, x, n);
        break;
    }
    return r && r != UF__UNKNOWN ? uf__iset(C, e, r) : r;
}
