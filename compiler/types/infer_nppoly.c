/* Typing of numpy.polynomial.polynomial's functions and of
 * numpy.polynomial.polyutils.trimseq (builtins.h: UF__NPPOLY_MAP), as
 * Numba 0.68 types them (numba/np/polynomial/polynomial_functions.py):
 *   polyadd / polysub / polymul(c1, c2): each an array of at most one
 *     dimension, a number (not a bool) or a tuple of numbers (Numba's
 *     lists: ufjit has none); a 2-D array fails Numba's typing; a new 1-D
 *     array of _poly_result_dtype: complex128 where an operand is
 *     complex, else float64.
 *   polydiv(c1, c2): the same operands; a tuple (quotient, remainder).
 *   polyval(x, c, tensor=True): x a number (not a bool), an array or a
 *     tuple of numbers; c an array of at least one dimension or a tuple;
 *     tensor a literal True or False (Numba's RequireLiteralValue); the
 *     result of rank c.ndim - 1 + x.ndim with tensor, max(c.ndim - 1,
 *     x.ndim) without (a number where that is 0).
 *   polyint(c, m=1): c an array of at least one dimension or a tuple; m
 *     an integer (not a bool); an array of c's rank.
 *   trimseq(seq): seq a 1-D array (a tuple, a number, another rank fail
 *     Numba's typing); a view of seq, its dtype and layout.
 * polyutils.as_series (a list of arrays in Numba) and the Polynomial
 * class are refused. All run in the host runtime: CUDA kernels and
 * device functions refuse them. */
#include <stdio.h>
#include <string.h>

#include "compiler/types/infer_internal.h"

/* An array-like coefficient operand: its rank (a tuple's is 1, a
 * number's 0) and whether it is complex. minnd/maxnd bound an array's
 * rank, scalar_ok takes numbers. False with the error set. */
static bool coef(uf__ictx *C, const char *fn, const char *name,
                 const uf__expr *x, const uf__type *t, int minnd, int maxnd,
                 bool scalar_ok, int *nd, bool *cplx)
{
    if (t->kind == UF__T_SCALAR && t->dtype == UF_BOOL) {
        uf__ierr_t(C, UF_ERR_TYPING, x->pos, "%s(): the argument \"%s\" "
                   "cannot be a bool (Numba's _poly_result_dtype: 'Input "
                   "dtype must be scalar')", fn, name);
        return false;
    }
    if (t->kind == UF__T_SCALAR && scalar_ok) {
        *nd = 0;
        *cplx = uf_dtype_kind(t->dtype) == 'c';
        return true;
    }
    if (t->kind == UF__T_TUPLE && t->n > 0) {
        bool ok = true, c = false;
        for (int i = 0; i < t->n; i++) {
            ok = ok && t->elts[i]->kind == UF__T_SCALAR;
            c = c || (ok && uf_dtype_kind(t->elts[i]->dtype) == 'c');
        }
        if (ok) {
            *nd = 1;
            *cplx = c;
            return true;
        }
    }
    if (t->kind == UF__T_ARRAY && t->ndim >= minnd && t->ndim <= maxnd) {
        *nd = t->ndim;
        *cplx = uf_dtype_kind(t->dtype) == 'c';
        return true;
    }
    if (t->kind == UF__T_ARRAY) {
        uf__ierr_t(C, UF_ERR_TYPING, x->pos, "%s(): the argument \"%s\" "
                   "must have %s, not %d", fn, name,
                   minnd > 0 ? "at least one dimension"
                             : "at most one dimension", t->ndim);
        return false;
    }
    uf__ierr_t(C, UF_ERR_TYPING, x->pos, "%s(): the argument \"%s\" must "
               "be array-like (an array, %sa non-empty tuple of numbers), "
               "not %s", fn, name, scalar_ok ? "a number or " : "",
               uf__tname(t));
    return false;
}

static const uf__type *vec(uf__ictx *C, bool cplx)
{
    return uf__type_array(C->tc, cplx ? UF_COMPLEX128 : UF_FLOAT64, 1, 'C',
                          C->err);
}

/* polyadd, polysub, polymul, polydiv (c1, c2). */
static const uf__type *binary(uf__ictx *C, const uf__expr *e,
                              uf__builtin b, const char *fn)
{
    static const char *const names[] = {"c1", "c2"};
    const uf__expr *x[2];
    if (!uf__infer_bind(C, e, fn, names, 2, 2, x))
        return NULL;
    bool cplx = false;
    for (int i = 0; i < 2; i++) {
        const uf__type *t = uf__infer_expr(C, x[i]);
        if (t == NULL || t == UF__UNKNOWN)
            return t;
        int nd;
        bool c;
        if (!coef(C, fn, names[i], x[i], t, 0, 1, true, &nd, &c))
            return NULL;
        cplx = cplx || c;
    }
    const uf__type *v = vec(C, cplx);
    if (v == NULL)
        return uf__ioom(C);
    if (b != UF__BI_NP_POLYDIV)
        return uf__iset(C, e, v);
    const uf__type *two[2] = {v, v};
    const uf__type *r = uf__type_tuple(C->tc, 2, two, C->err);
    return r ? uf__iset(C, e, r) : uf__ioom(C);
}

static const uf__type *polyval(uf__ictx *C, const uf__expr *e,
                               const char *fn)
{
    static const char *const names[] = {"x", "c", "tensor"};
    const uf__expr *x[3];
    if (!uf__infer_bind(C, e, fn, names, 3, 2, x))
        return NULL;
    const uf__type *tx = uf__infer_expr(C, x[0]);
    if (tx == NULL || tx == UF__UNKNOWN)
        return tx;
    const uf__type *tc = uf__infer_expr(C, x[1]);
    if (tc == NULL || tc == UF__UNKNOWN)
        return tc;
    int nx, nc;
    bool cx, cc;
    if (!coef(C, fn, "x", x[0], tx, 0, UF_MAXDIMS, true, &nx, &cx) ||
        !coef(C, fn, "c", x[1], tc, 1, UF_MAXDIMS, false, &nc, &cc))
        return NULL;
    bool tensor = true;
    if (x[2] != NULL) {
        const uf__type *tt = uf__infer_expr(C, x[2]);
        if (tt == NULL || tt == UF__UNKNOWN)
            return tt;
        if (x[2]->kind != UF__EX_BOOL)
            return uf__ierr_t(C, UF_ERR_TYPING, x[2]->pos, "%s(): the "
                              "argument \"tensor\" must be a literal True "
                              "or False", fn);
        tensor = x[2]->u.b;
    }
    int nd = tx->kind == UF__T_SCALAR ? nc - 1
             : tensor                 ? nc - 1 + nx
             : nc - 1 > nx            ? nc - 1
                                      : nx;
    if (nd > UF_MAXDIMS)
        return uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->pos, "%s(): a result "
                          "of %d dimensions (at most %d here)", fn, nd,
                          UF_MAXDIMS);
    uf_dtype dt = cx || cc ? UF_COMPLEX128 : UF_FLOAT64;
    const uf__type *r = nd == 0 ? uf__type_scalar(C->tc, dt)
                                : uf__type_array(C->tc, dt, nd, 'C', C->err);
    return r ? uf__iset(C, e, r) : uf__ioom(C);
}

static const uf__type *polyint(uf__ictx *C, const uf__expr *e,
                               const char *fn)
{
    static const char *const names[] = {"c", "m"};
    const uf__expr *x[2];
    if (!uf__infer_bind(C, e, fn, names, 2, 1, x))
        return NULL;
    const uf__type *tc = uf__infer_expr(C, x[0]);
    if (tc == NULL || tc == UF__UNKNOWN)
        return tc;
    int nc;
    bool cc;
    if (!coef(C, fn, "c", x[0], tc, 1, UF_MAXDIMS, false, &nc, &cc))
        return NULL;
    if (x[1] != NULL) {
        const uf__type *tm = uf__infer_expr(C, x[1]);
        if (tm == NULL || tm == UF__UNKNOWN)
            return tm;
        if (tm->kind != UF__T_SCALAR || uf_dtype_kind(tm->dtype) == 'b' ||
            (uf_dtype_kind(tm->dtype) != 'i' &&
             uf_dtype_kind(tm->dtype) != 'u'))
            return uf__ierr_t(C, UF_ERR_TYPING, x[1]->pos, "%s(): the "
                              "argument \"m\" must be an integer, not %s",
                              fn, uf__tname(tm));
    }
    const uf__type *r = uf__type_array(C->tc, cc ? UF_COMPLEX128
                                                 : UF_FLOAT64,
                                       nc, 'C', C->err);
    return r ? uf__iset(C, e, r) : uf__ioom(C);
}

static const uf__type *trimseq(uf__ictx *C, const uf__expr *e,
                               const char *fn)
{
    static const char *const names[] = {"seq"};
    const uf__expr *x[1];
    if (!uf__infer_bind(C, e, fn, names, 1, 1, x))
        return NULL;
    const uf__type *t = uf__infer_expr(C, x[0]);
    if (t == NULL || t == UF__UNKNOWN)
        return t;
    if (t->kind != UF__T_ARRAY || t->ndim != 1)
        return uf__ierr_t(C, UF_ERR_TYPING, x[0]->pos, "%s(): the argument "
                          "\"seq\" must be a 1-d array, not %s (Numba "
                          "refuses tuples, numbers and other ranks)", fn,
                          uf__tname(t));
    const uf__type *r = uf__type_array_ro(C->tc, t->dtype, 1, t->layout,
                                          t->readonly, C->err);
    return r ? uf__iset(C, e, r) : uf__ioom(C);
}

/* np.roots(p): p a 1-D array of integers (float64 roots), float32,
 * float64, complex64 or complex128 (roots of its dtype; real p with
 * complex roots is Numba's eigvals ValueError at run time). Numba's
 * ValueError for another rank and bools are refused here. */
static const uf__type *roots(uf__ictx *C, const uf__expr *e, const char *fn)
{
    static const char *const names[] = {"p"};
    const uf__expr *x[1];
    if (!uf__infer_bind(C, e, fn, names, 1, 1, x))
        return NULL;
    const uf__type *t = uf__infer_expr(C, x[0]);
    if (t == NULL || t == UF__UNKNOWN)
        return t;
    if (t->kind != UF__T_ARRAY)
        return uf__ierr_t(C, UF_ERR_TYPING, x[0]->pos, "%s(): p must be an "
                          "array, not %s", fn, uf__tname(t));
    char k = uf_dtype_kind(t->dtype);
    if (t->ndim != 1 || k == 'b')
        return uf__ierr_t(C, UF_ERR_UNSUPPORTED, x[0]->pos, "%s(): p of %s "
                          "is not supported here (a 1-D array of integers, "
                          "floats or complex numbers is; Numba raises "
                          "ValueError for other ranks)", fn, uf__tname(t));
    uf_dtype dt = k == 'c' || t->dtype == UF_FLOAT32 ? t->dtype : UF_FLOAT64;
    const uf__type *r = uf__type_array(C->tc, dt, 1, 'C', C->err);
    return r ? uf__iset(C, e, r) : uf__ioom(C);
}

const uf__type *uf__infer_nppoly(uf__ictx *C, const uf__expr *e,
                                 uf__builtin b)
{
    uf__iinfo(C, e)->builtin = b;
    const char *full = uf__builtin_name(b), *dot = strrchr(full, '.');
    char fn[48];
    snprintf(fn, sizeof fn, "%s.%s",
             b == UF__BI_NP_TRIMSEQ || b == UF__BI_NP_AS_SERIES
                 ? "polyutils"
             : b == UF__BI_NP_ROOTS ? "np"
                                    : "polynomial",
             dot + 1);
    uf__kernel_kind k = C->tf->decl->kind;
    if (k == UF__K_CUDA_KERNEL || k == UF__K_DEVICE)
        return uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->pos, "%s() runs in "
                          "the host runtime, which CUDA kernels cannot "
                          "call", fn);
    switch (b) {
    case UF__BI_NP_POLYVAL:
        return polyval(C, e, fn);
    case UF__BI_NP_POLYINT:
        return polyint(C, e, fn);
    case UF__BI_NP_TRIMSEQ:
        return trimseq(C, e, fn);
    case UF__BI_NP_ROOTS:
        return roots(C, e, fn);
    case UF__BI_NP_AS_SERIES: /* infer_npseries.c */
        return uf__infer_as_series(C, e, fn);
    default:
        return binary(C, e, b, fn);
    }
}
