/* Typing of NumPy's repeats, resizes and broadcasts (builtins.h:
 * UF__NPSHAPE_MAP) as Numba 0.68 types them (numba/np/arrayobj.py:
 * np_repeat, array_repeat, numpy_resize, numpy_broadcast_to,
 * numpy_broadcast_arrays):
 *   np.repeat(a, repeats) / a.repeat(repeats): a an array or a number,
 *     repeats an integer (not a bool) or a 1-D array of integers: a new
 *     1-D C array of a's dtype;
 *   np.resize(a, new_shape): a an array or a number, new_shape an integer
 *     or a non-empty tuple of integers: a new C array of that many
 *     dimensions;
 *   np.broadcast_to(array, shape): array an array or a number, shape an
 *     integer or a tuple of integers: a read-only 'A' view of len(shape)
 *     dimensions; shape () only for a number or a 0-d array (a read-only
 *     0-d array);
 *   np.broadcast_arrays(*args): arrays or numbers of one dtype: Numba's
 *     list of read-only 'A' views typed as a tuple (ufjit kernels have no
 *     lists), of max(ndim) dimensions (a number counts as 1, as Numba);
 *   np.broadcast_shapes(*args) (ol_numpy_broadcast_shapes): integers and
 *     tuples of integers (empty ones too): a tuple of max(len) int64, ()
 *     for none; bools refused as Numba (not an Integer); a NumPy integer
 *     scalar counts as NumPy counts it (Numba 0.68 skips it);
 *   np.trim_zeros(filt, trim='fb') (arraymath.py: np_trim_zeros): filt a
 *     1-D array, trim a string literal: a view of filt, its type.
 * Tuples and lists as `a` (Numba takes them) are refused: kernels pass
 * arrays. CUDA kernels refuse these (they allocate or need the host's
 * views). */
#include <stdio.h>
#include <string.h>

#include "compiler/types/infer_internal.h"
#include "compiler/types/infer_npshape.h"

#define OPERAND(var, expr)                                                  \
    do {                                                                    \
        (var) = uf__infer_expr(C, (expr));                                  \
        if ((var) == NULL || (var) == UF__UNKNOWN)                          \
            return (var);                                                   \
    } while (0)

static const char *const repeat_names[] = {"a", "repeats"};
static const char *const resize_names[] = {"a", "new_shape"};
static const char *const bcast_names[] = {"array", "shape"};
static const char *const trim_names[] = {"filt", "trim"};

static const char *const *param_names(uf__builtin b)
{
    return b == UF__BI_NP_REPEAT       ? repeat_names
           : b == UF__BI_NP_RESIZE     ? resize_names
           : b == UF__BI_NP_TRIM_ZEROS ? trim_names
                                       : bcast_names;
}

int uf__npshape_bind(const uf__expr *e, uf__builtin b, bool method,
                     const uf__expr **x, const uf__keyword **bad)
{
    *bad = NULL;
    if (b == UF__BI_NP_BROADCAST_ARRAYS || b == UF__BI_NP_BROADCAST_SHAPES) {
        if (e->u.call.nkw > 0) {
            *bad = &e->u.call.kw[0];
            return -1;
        }
        if (e->u.call.nargs > UF__NPSHAPE_MAXARGS)
            return -1;
        for (int i = 0; i < e->u.call.nargs; i++)
            x[i] = e->u.call.args[i];
        return e->u.call.nargs;
    }
    const char *const *names = param_names(b);
    int n = 2;
    int skip = method ? 1 : 0; /* a.repeat(r): the receiver is `a` */
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

typedef struct scall {
    uf__ictx *C;
    const uf__expr *e;
    const char *name; /* "np.repeat", "array.repeat" */
} scall;

static bool is_int(const uf__type *t)
{
    return t->kind == UF__T_SCALAR && uf__type_is_int(t);
}

/* a an array or a number (np.asarray's), as the first argument. */
static const uf__type *array_like(scall *s, const uf__expr *x,
                                  const char *what)
{
    uf__ictx *C = s->C;
    const uf__type *a;
    OPERAND(a, x);
    if (a->kind == UF__T_ARRAY || a->kind == UF__T_SCALAR)
        return a;
    if (a->kind == UF__T_TUPLE)
        return uf__ierr_t(C, UF_ERR_UNSUPPORTED, x->pos, "%s() of a tuple "
                          "is not supported in kernels: pass an array",
                          s->name);
    return uf__ierr_t(C, UF_ERR_TYPING, x->pos, "%s(): The argument \"%s\" "
                      "must be array-like, not %s", s->name, what,
                      uf__tname(a));
}

/* The number of dimensions a shape argument gives (an integer: 1, a
 * tuple of integers: its length), -1 after an error, -2 on UNKNOWN. */
static int shape_arg(scall *s, const uf__expr *x, const char *what,
                     bool empty_ok)
{
    uf__ictx *C = s->C;
    const uf__type *t = uf__infer_expr(C, x);
    if (t == NULL)
        return -1;
    if (t == UF__UNKNOWN)
        return -2;
    if (is_int(t))
        return 1;
    if (t->kind == UF__T_TUPLE && (t->n > 0 || empty_ok)) {
        bool ok = true;
        for (int k = 0; k < t->n; k++)
            ok = ok && is_int(t->elts[k]);
        if (ok && t->n > UF_MAXDIMS)
            return uf__ierr(C, UF_ERR_UNSUPPORTED, x->pos, "%s(): more than "
                            "%d dimensions", s->name, UF_MAXDIMS),
                   -1;
        if (ok)
            return t->n;
    }
    return uf__ierr(C, UF_ERR_TYPING, x->pos, "%s(): The argument \"%s\" "
                    "must be an integer or a %stuple of integers, not %s",
                    s->name, what, empty_ok ? "" : "non-empty ",
                    uf__tname(t)),
           -1;
}

static const uf__type *type_repeat(scall *s, const uf__expr **x)
{
    uf__ictx *C = s->C;
    const uf__type *a = array_like(s, x[0], "a"), *r;
    if (a == NULL || a == UF__UNKNOWN)
        return a;
    OPERAND(r, x[1]);
    bool ok = is_int(r) ||
              (r->kind == UF__T_ARRAY && r->ndim == 1 &&
               (uf_dtype_kind(r->dtype) == 'i' ||
                uf_dtype_kind(r->dtype) == 'u'));
    if (!ok)
        return uf__ierr_t(C, UF_ERR_TYPING, x[1]->pos, "%s(): The repeats "
                          "argument must be an integer or a 1-D array of "
                          "integers, not %s (Numba types repeats[0] of an "
                          "array as a number)", s->name, uf__tname(r));
    return uf__type_array(C->tc, a->dtype, 1, 'C', C->err);
}

static const uf__type *type_resize(scall *s, const uf__expr **x)
{
    uf__ictx *C = s->C;
    const uf__type *a = array_like(s, x[0], "a");
    if (a == NULL || a == UF__UNKNOWN)
        return a;
    int nd = shape_arg(s, x[1], "new_shape", false);
    if (nd < 0)
        return nd == -2 ? UF__UNKNOWN : NULL;
    return uf__type_array(C->tc, a->dtype, nd, 'C', C->err);
}

static const uf__type *type_broadcast_to(scall *s, const uf__expr **x)
{
    uf__ictx *C = s->C;
    const uf__type *a = array_like(s, x[0], "array");
    if (a == NULL || a == UF__UNKNOWN)
        return a;
    int nd = shape_arg(s, x[1], "shape", true);
    if (nd < 0)
        return nd == -2 ? UF__UNKNOWN : NULL;
    if (nd == 0) {
        if (a->kind == UF__T_ARRAY && a->ndim > 0)
            return uf__ierr_t(C, UF_ERR_TYPING, x[1]->pos, "%s(): Cannot "
                              "broadcast a non-scalar to a scalar array",
                              s->name);
        return uf__type_array_ro(C->tc, a->dtype, 0, 'C', true, C->err);
    }
    return uf__type_array_ro(C->tc, a->dtype, nd, 'A', true, C->err);
}

static const uf__type *type_broadcast_arrays(scall *s, const uf__expr **x,
                                             int n)
{
    uf__ictx *C = s->C;
    const uf__type *t[UF__NPSHAPE_MAXARGS], *r[UF__NPSHAPE_MAXARGS];
    int m = 0;
    for (int i = 0; i < n; i++) {
        if (!(t[i] = array_like(s, x[i], "*args")) || t[i] == UF__UNKNOWN)
            return t[i];
        if (t[i]->dtype != t[0]->dtype)
            return uf__ierr_t(C, UF_ERR_TYPING, x[i]->pos, "%s(): Mismatch "
                              "of argument types. Numba cannot broadcast "
                              "arrays with different types (%s and %s)",
                              s->name, uf__tname(t[0]), uf__tname(t[i]));
        int nd = t[i]->kind == UF__T_ARRAY ? t[i]->ndim : 1;
        m = nd > m ? nd : m;
    }
    if (n == 0)
        return uf__ierr_t(C, UF_ERR_UNSUPPORTED, s->e->pos, "%s() of no "
                          "arrays is not supported in kernels (an empty "
                          "list)", s->name);
    for (int i = 0; i < n; i++)
        if (!(r[i] = uf__type_array_ro(C->tc, t[0]->dtype, m, 'A', true,
                                       C->err)))
            return NULL;
    return uf__type_tuple(C->tc, n, r, C->err);
}

/* np.broadcast_shapes(*args): UniTuple(int64, the longest shape). */
static const uf__type *type_broadcast_shapes(scall *s, const uf__expr **x,
                                             int n)
{
    uf__ictx *C = s->C;
    int m = 0;
    for (int i = 0; i < n; i++) {
        const uf__type *t;
        OPERAND(t, x[i]);
        bool ok = is_int(t); /* not a bool: Numba's Integer */
        if (t->kind == UF__T_TUPLE) {
            ok = true;
            for (int k = 0; k < t->n; k++)
                ok = ok && is_int(t->elts[k]);
        }
        if (!ok)
            return uf__ierr_t(C, UF_ERR_TYPING, x[i]->pos, "%s(): Argument %d "
                              "must be either an int or tuple[int]. Got %s",
                              s->name, i, uf__tname(t));
        int len = t->kind == UF__T_TUPLE ? t->n : 1;
        if (len > UF_MAXDIMS)
            return uf__ierr_t(C, UF_ERR_UNSUPPORTED, x[i]->pos, "%s(): more "
                              "than %d dimensions", s->name, UF_MAXDIMS);
        m = len > m ? len : m;
    }
    const uf__type *i64 = uf__type_scalar(C->tc, UF_INT64), *r[UF_MAXDIMS];
    for (int k = 0; k < m; k++)
        r[k] = i64;
    return uf__type_tuple(C->tc, m, r, C->err);
}

/* np.trim_zeros(filt, trim): a view of the 1-D filt, its type. */
static const uf__type *type_trim_zeros(scall *s, const uf__expr **x)
{
    uf__ictx *C = s->C;
    const uf__type *a;
    OPERAND(a, x[0]);
    if (a->kind != UF__T_ARRAY)
        return uf__ierr_t(C, UF_ERR_TYPING, x[0]->pos, "%s(): The first "
                          "argument must be an array, not %s", s->name,
                          uf__tname(a));
    if (a->ndim != 1)
        return uf__ierr_t(C, UF_ERR_TYPING, x[0]->pos, "%s(): array must be "
                          "1D, not %s (Numba: a 0-d one does not iterate)",
                          s->name, uf__tname(a));
    const char *trim;
    int r = x[1] != NULL ? uf__infer_strlit(C, x[1], &trim) : 1;
    if (r < 0)
        return NULL;
    if (r == 0)
        return uf__ierr_t(C, UF_ERR_TYPING, x[1]->pos, "%s(): The second "
                          "argument must be a string literal", s->name);
    return a;
}

/* Which ends np.trim_zeros(filt, trim) trims: 'f' / 'b' in trim.lower(). */
void uf__npshape_trim_ends(const char *trim, bool *front, bool *back)
{
    const char *t = trim ? trim : "fb";
    *front = strchr(t, 'f') || strchr(t, 'F');
    *back = strchr(t, 'b') || strchr(t, 'B');
}

const uf__type *uf__infer_npshape(uf__ictx *C, const uf__expr *e,
                                  uf__builtin b)
{
    const uf__expr *f = e->u.call.func;
    bool method = false;
    if (f->kind == UF__EX_ATTR) {
        const uf__type *rt = uf__iinfo(C, f->u.attr.value)->type;
        method = rt && rt->kind == UF__T_ARRAY;
    }
    uf__iinfo(C, e)->builtin = b;
    char name[40];
    snprintf(name, sizeof name, "%s.%s", method ? "array" : "np",
             uf__builtin_name(b) + 6);
    scall s = {.C = C, .e = e, .name = name};
    const uf__expr *x[UF__NPSHAPE_MAXARGS];
    const uf__keyword *kw;
    int n = uf__npshape_bind(e, b, method, x, &kw);
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
    if (b == UF__BI_NP_BROADCAST_ARRAYS) {
        r = type_broadcast_arrays(&s, x, n);
    } else if (b == UF__BI_NP_BROADCAST_SHAPES) {
        r = type_broadcast_shapes(&s, x, n);
    } else {
        for (int i = 0; i < n; i++)
            if (x[i] == NULL && !(b == UF__BI_NP_TRIM_ZEROS && i == 1))
                return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "%s() missing "
                                  "required argument '%s'", name,
                                  param_names(b)[i]);
        r = b == UF__BI_NP_REPEAT        ? type_repeat(&s, x)
            : b == UF__BI_NP_RESIZE      ? type_resize(&s, x)
            : b == UF__BI_NP_TRIM_ZEROS ? type_trim_zeros(&s, x)
                                         : type_broadcast_to(&s, x);
    }
    return r && r != UF__UNKNOWN ? uf__iset(C, e, r) : r;
}
