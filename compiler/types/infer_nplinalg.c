/* Typing of np.linalg.norm, det, slogdet, inv, solve, cholesky, qr and
 * matrix_power (builtins.h:
 * UF__NPLINALG_MAP), as Numba 0.68 types them (numba/np/linalg.py
 * _check_linalg_matrix, _check_linalg_1_or_2d_matrix, _get_norm_impl):
 *   norm(x, ord=None): x a 1-D or 2-D float array; ord omitted or None,
 *   or a number known at run time. A float64, but x float32 with ord
 *   None and 1-D gives float32 (Numba unifies BLAS nrm2's type with the
 *   0.0 of its other branches everywhere else).
 *   det(a): float64; slogdet(a): (float64, float64) (Numba's sign is
 *   `sgn + 0.`); inv(a): a new 2-D array of a's dtype; solve(a, b): a new
 *   array of b's shape, a and b of one dtype. cholesky(a): a new 2-D
 *   array of a's dtype; qr(a): a tuple of two; matrix_power(a, n): n an
 *   integer, a new 2-D array of a's dtype (C order: Numba's q and r are
 *   Fortran-ordered views, the same values).
 * Numba's TypingErrors keep their wording. Complex matrices: det
 * complex128, slogdet (complex128, float64), inv, solve, matrix_power,
 * cholesky, qr of a's dtype, norm float64 (a vector's 2-norm: its
 * parts' float), eigh (w of the parts' float, v complex), eigvalsh,
 * cond and matrix_rank as for real ones; svd's s, lstsq's residuals and
 * s of the parts' float; pinv of a's dtype; eig's w and v, eigvals' w of
 * a's (complex) dtype. svd(a,
 * full_matrices=1): a (u, s, vh) tuple of a's dtype; cond(x, p=None):
 * float64; matrix_rank(A, tol=None) of 1-D or 2-D A: int64; pinv(a,
 * rcond=1e-15): a new 2-D array of a's dtype. lstsq(a, b, rcond=-1.0),
 * eigh(a), eigvalsh(a), eig(a), eigvals(a): see lstsq() and eig() below.
 * The runtime is on the host:
 * CUDA kernels and device functions refuse these at the call. */
#include <stdio.h>
#include <string.h>

#include "compiler/types/infer_internal.h"

#define OPERAND(var, expr)                                                  \
    do {                                                                    \
        (var) = uf__infer_expr(C, (expr));                                  \
        if ((var) == NULL || (var) == UF__UNKNOWN)                          \
            return (var);                                                   \
    } while (0)

/* A complex dtype's parts' float dtype (svd's s, lstsq's residuals and
 * s, eigh's w); a real dtype itself. */
static uf_dtype real_of(uf_dtype dt)
{
    if (dt == UF_COMPLEX64)
        return UF_FLOAT32;
    return dt == UF_COMPLEX128 ? UF_FLOAT64 : dt;
}

/* x (or a, b) as Numba's checks take it: an array of lo..hi dimensions
 * of floats or complex numbers. */
static const uf__type *matrix(uf__ictx *C, const char *fn, const uf__expr *x,
                              int lo)
{
    const uf__type *t;
    OPERAND(t, x);
    if (t->kind != UF__T_ARRAY)
        return uf__ierr_t(C, UF_ERR_TYPING, x->pos, "%s() only supported "
                          "for array types", fn);
    if (t->ndim < lo || t->ndim > 2)
        return uf__ierr_t(C, UF_ERR_TYPING, x->pos, lo == 1
                          ? "%s() only supported on 1 and 2-D arrays"
                          : "%s() only supported on 2-D arrays.", fn);
    char k = uf_dtype_kind(t->dtype);
    if (k != 'f' && k != 'c')
        return uf__ierr_t(C, UF_ERR_TYPING, x->pos, "%s() only supported on "
                          "float and complex arrays.", fn);
    return t;
}

/* Arguments by position or by name (names[0..np)); nreq required. */
static int bind(uf__ictx *C, const uf__expr *e, const char *fn, int np,
                int nreq, const char *const *names, const uf__expr **x)
{
    if (e->u.call.nargs > np)
        return uf__ierr(C, UF_ERR_TYPING, e->u.call.args[np]->pos, "%s() "
                        "takes %d positional argument%s in Numba", fn, np,
                        np > 1 ? "s" : "");
    for (int i = 0; i < np; i++)
        x[i] = i < e->u.call.nargs ? e->u.call.args[i] : NULL;
    for (int k = 0; k < e->u.call.nkw; k++) {
        const uf__keyword *kw = &e->u.call.kw[k];
        int i = 0;
        while (i < np && strcmp(names[i], kw->name) != 0)
            i++;
        if (i == np)
            return uf__ierr(C, UF_ERR_TYPING, kw->pos, "%s() got an "
                            "unexpected keyword argument '%s'%s", fn,
                            kw->name, strcmp(kw->name, "axis") == 0 ||
                                    strcmp(kw->name, "keepdims") == 0
                                ? " (Numba's takes none)"
                                : "");
        if (x[i] != NULL)
            return uf__ierr(C, UF_ERR_TYPING, kw->pos, "%s() got multiple "
                            "values for argument '%s'", fn, kw->name);
        x[i] = kw->value;
    }
    for (int i = 0; i < nreq; i++)
        if (x[i] == NULL)
            return uf__ierr(C, UF_ERR_TYPING, e->pos, "%s() missing "
                            "required argument '%s'", fn, names[i]);
    return 0;
}

/* norm(x, ord=None), cond(x, p=None), matrix_rank(A, tol=None): a
 * matrix (cond: 2-D) and None or a real number. */
static const uf__type *norm(uf__ictx *C, const uf__expr *e, const char *fn,
                            uf__builtin b)
{
    static const char *const names[3][2] = {
        {"x", "ord"}, {"x", "p"}, {"A", "tol"}};
    int w = b == UF__BI_NP_LINALG_NORM ? 0 : b == UF__BI_NP_LINALG_COND ? 1
                                                                       : 2;
    const uf__expr *x[2];
    if (bind(C, e, fn, 2, 1, names[w], x) != 0)
        return NULL;
    const uf__type *t = matrix(C, fn, x[0], w == 1 ? 2 : 1);
    if (t == NULL || t == UF__UNKNOWN)
        return t;
    bool none = x[1] == NULL;
    if (!none) {
        const uf__type *o;
        OPERAND(o, x[1]);
        none = o->kind == UF__T_NONE;
        if (!none && (o->kind != UF__T_SCALAR ||
                      uf_dtype_kind(o->dtype) == 'c'))
            return uf__ierr_t(C, UF_ERR_TYPING, x[1]->pos, "%s() takes None "
                              "or a real number as '%s', not %s", fn,
                              names[w][1], uf__tname(o));
    }
    /* a complex vector's 2-norm: its parts' float (Numba's nrm2) */
    uf_dtype r = w == 2 ? UF_INT64
                 : w == 0 && none && t->ndim == 1
                     ? (t->dtype == UF_COMPLEX64    ? UF_FLOAT32
                        : t->dtype == UF_COMPLEX128 ? UF_FLOAT64
                                                    : t->dtype)
                     : UF_FLOAT64;
    return uf__iset(C, e, uf__type_scalar(C->tc, r));
}

/* lstsq(a, b, rcond=-1.0): a 2-D, b 1-D or 2-D of a's dtype, rcond a
 * real number; Numba's (x, residuals, rank, s): x of b's dimensions,
 * residuals and s 1-D, all of a's dtype, rank int32 (LAPACK's int); a
 * complex a's residuals and s of its parts' float dtype. */
static const uf__type *lstsq(uf__ictx *C, const uf__expr *e, const char *fn)
{
    static const char *const names[] = {"a", "b", "rcond"};
    const uf__expr *x[3];
    if (bind(C, e, fn, 3, 2, names, x) != 0)
        return NULL;
    const uf__type *a = matrix(C, fn, x[0], 2);
    if (a == NULL || a == UF__UNKNOWN)
        return a;
    const uf__type *bt = matrix(C, fn, x[1], 1);
    if (bt == NULL || bt == UF__UNKNOWN)
        return bt;
    if (bt->dtype != a->dtype)
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "%s() only supports "
                          "inputs that have homogeneous dtypes.", fn);
    if (x[2] != NULL) {
        const uf__type *rt;
        OPERAND(rt, x[2]);
        if (rt->kind != UF__T_SCALAR || uf_dtype_kind(rt->dtype) == 'c')
            return uf__ierr_t(C, UF_ERR_TYPING, x[2]->pos, "%s() takes a "
                              "real number as 'rcond', not %s", fn,
                              uf__tname(rt));
    }
    const uf__type *four[4] = {
        uf__type_array(C->tc, a->dtype, bt->ndim, 'C', C->err),
        uf__type_array(C->tc, real_of(a->dtype), 1, 'C', C->err),
        uf__type_scalar(C->tc, UF_INT32), NULL};
    four[3] = four[1];
    if (four[0] == NULL || four[1] == NULL || four[2] == NULL)
        return uf__ioom(C);
    const uf__type *r = uf__type_tuple(C->tc, 4, four, C->err);
    return r ? uf__iset(C, e, r) : uf__ioom(C);
}

/* eigh(a), eig(a): (w, v), w 1-D and v 2-D of a's dtype (Numba's real
 * eig of a real a; a complex a's eigh w of its parts' float dtype);
 * eigvalsh(a), eigvals(a): w. */
static const uf__type *eig(uf__ictx *C, const uf__expr *e, const char *fn,
                           uf__builtin b)
{
    static const char *const names[] = {"a"};
    const uf__expr *x[1];
    if (bind(C, e, fn, 1, 1, names, x) != 0)
        return NULL;
    const uf__type *a = matrix(C, fn, x[0], 2);
    if (a == NULL || a == UF__UNKNOWN)
        return a;
    bool sym = b == UF__BI_NP_LINALG_EIGH || b == UF__BI_NP_LINALG_EIGVALSH;
    uf_dtype wd = sym ? real_of(a->dtype) : a->dtype;
    const uf__type *two[2] = {
        uf__type_array(C->tc, wd, 1, 'C', C->err),
        uf__type_array(C->tc, a->dtype, 2, 'C', C->err)};
    if (two[0] == NULL || two[1] == NULL)
        return uf__ioom(C);
    const uf__type *r = b == UF__BI_NP_LINALG_EIGH || b == UF__BI_NP_LINALG_EIG
                            ? uf__type_tuple(C->tc, 2, two, C->err)
                            : two[0];
    return r ? uf__iset(C, e, r) : uf__ioom(C);
}

const uf__type *uf__infer_nplinalg(uf__ictx *C, const uf__expr *e,
                                   uf__builtin b)
{
    uf__iinfo(C, e)->builtin = b;
    char fn[32];
    snprintf(fn, sizeof fn, "np.linalg.%s", uf__builtin_name(b) + 13);
    uf__kernel_kind k = C->tf->decl->kind;
    if (k == UF__K_CUDA_KERNEL || k == UF__K_DEVICE)
        return uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->pos, "%s() factorises "
                          "a copy in the host runtime, which CUDA kernels "
                          "cannot do", fn);
    if (b == UF__BI_NP_LINALG_NORM || b == UF__BI_NP_LINALG_COND ||
        b == UF__BI_NP_LINALG_MATRIX_RANK)
        return norm(C, e, fn, b);
    if (b == UF__BI_NP_LINALG_LSTSQ)
        return lstsq(C, e, fn);
    if (b >= UF__BI_NP_LINALG_EIGH && b <= UF__BI_NP_LINALG_EIGVALS)
        return eig(C, e, fn, b);
    static const char *const names[] = {"a", "b"};
    static const char *const pnames[] = {"a", "n"};
    static const char *const snames[] = {"a", "full_matrices"};
    static const char *const rnames[] = {"a", "rcond"};
    bool solve = b == UF__BI_NP_LINALG_SOLVE;
    bool pw = b == UF__BI_NP_LINALG_MATRIX_POWER;
    bool sv = b == UF__BI_NP_LINALG_SVD, pinv = b == UF__BI_NP_LINALG_PINV;
    const uf__expr *x[2];
    if (bind(C, e, fn, solve || pw || sv || pinv ? 2 : 1, solve || pw ? 2 : 1,
             pw ? pnames : sv ? snames : pinv ? rnames : names, x) != 0)
        return NULL;
    const uf__type *a = matrix(C, fn, x[0], 2);
    if (a == NULL || a == UF__UNKNOWN)
        return a;
    const uf__type *r;
    if (solve) {
        const uf__type *bt = matrix(C, fn, x[1], 1);
        if (bt == NULL || bt == UF__UNKNOWN)
            return bt;
        if (bt->dtype != a->dtype)
            return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "%s() only supports "
                              "inputs that have homogeneous dtypes.", fn);
        r = uf__type_array(C->tc, a->dtype, bt->ndim, 'C', C->err);
    } else if (pw) {
        const uf__type *nt;
        OPERAND(nt, x[1]);
        if (nt->kind != UF__T_SCALAR || (uf_dtype_kind(nt->dtype) != 'i' &&
                                         uf_dtype_kind(nt->dtype) != 'u'))
            return uf__ierr_t(C, UF_ERR_TYPING, x[1]->pos, "Exponent must "
                              "be an integer.");
        r = uf__type_array(C->tc, a->dtype, 2, 'C', C->err);
    } else if (sv || pinv) {
        if (x[1] != NULL) {
            const uf__type *ft;
            OPERAND(ft, x[1]);
            if (ft->kind != UF__T_SCALAR || uf_dtype_kind(ft->dtype) == 'c')
                return uf__ierr_t(C, UF_ERR_TYPING, x[1]->pos, "%s() takes "
                                  "a bool or a number as '%s', not %s", fn,
                                  sv ? "full_matrices" : "rcond",
                                  uf__tname(ft));
        }
        const uf__type *m = uf__type_array(C->tc, a->dtype, 2, 'C', C->err);
        const uf__type *v = uf__type_array(C->tc, real_of(a->dtype),
                                           1, 'C', C->err);
        const uf__type *three[3] = {m, v, m};
        r = pinv ? m : m && v ? uf__type_tuple(C->tc, 3, three, C->err)
                             : NULL;
    } else if (b == UF__BI_NP_LINALG_QR) {
        const uf__type *m = uf__type_array(C->tc, a->dtype, 2, 'C', C->err);
        const uf__type *two[2] = {m, m};
        r = m ? uf__type_tuple(C->tc, 2, two, C->err) : NULL;
    } else if (b == UF__BI_NP_LINALG_INV ||
               b == UF__BI_NP_LINALG_CHOLESKY) {
        r = uf__type_array(C->tc, a->dtype, 2, 'C', C->err);
    } else if (b == UF__BI_NP_LINALG_DET) { /* complex: complex128 */
        r = uf__type_scalar(C->tc, uf_dtype_kind(a->dtype) == 'c'
                                       ? UF_COMPLEX128
                                       : UF_FLOAT64);
    } else { /* complex: (complex128, float64), Numba's sgn + 0.j */
        const uf__type *f = uf__type_scalar(C->tc, UF_FLOAT64);
        const uf__type *two[2] = {
            uf_dtype_kind(a->dtype) == 'c'
                ? uf__type_scalar(C->tc, UF_COMPLEX128)
                : f,
            f};
        r = uf__type_tuple(C->tc, 2, two, C->err);
    }
    return r ? uf__iset(C, e, r) : uf__ioom(C);
}
