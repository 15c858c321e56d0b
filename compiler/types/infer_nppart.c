/* Typing of np.partition(a, kth) and np.argpartition(a, kth)
 * (builtins.h: UF__NPPART_MAP), as Numba 0.68 types them
 * (numba/np/arraymath.py np_partition, np_argpartition):
 *   a: an array of 1 or more dimensions of bool, integers or floats, or a
 *     non-empty tuple of such numbers (Numba's np.asarray: a 1-D array of
 *     their common dtype);
 *   kth: an integer, a tuple of integers of one type, or an array of
 *     integers (one of other than 1 dimension is Numba's run-time
 *     ValueError); bool is refused, as Numba does with NumPy >= 2.3;
 *   the result: a new C array of a's shape, of a's dtype (partition) or
 *     int64 (argpartition).
 * A 0-d a, complex elements, a float kth and the keywords NumPy has and
 * Numba does not (axis, kind, order) are TypingErrors as in Numba. The
 * runtime is on the host: CUDA kernels and device functions refuse these
 * at the call. */
#include <stdio.h>
#include <string.h>

#include "compiler/types/infer_internal.h"

static bool real_scalar(const uf__type *t)
{
    return t->kind == UF__T_SCALAR && uf_dtype_kind(t->dtype) != 'c';
}

static bool int_scalar(const uf__type *t)
{
    return t->kind == UF__T_SCALAR &&
           (uf_dtype_kind(t->dtype) == 'i' || uf_dtype_kind(t->dtype) == 'u');
}

/* The dtype np.asarray gives a tuple of real numbers, or UF_NTYPES when t
 * is not one. */
static uf_dtype tuple_dtype(const uf__type *t)
{
    if (t->kind != UF__T_TUPLE || t->n == 0)
        return UF_NTYPES;
    uf_dtype dt = t->elts[0]->dtype;
    for (int i = 0; i < t->n; i++) {
        if (!real_scalar(t->elts[i]))
            return UF_NTYPES;
        dt = uf_promote_types(dt, t->elts[i]->dtype);
    }
    return dt;
}

/* kth as Numba takes it: getattr(kth, 'dtype', kth) an Integer (a
 * tuple's dtype only when its elements share one type). */
static bool kth_ok(const uf__type *t)
{
    if (int_scalar(t))
        return true;
    if (t->kind == UF__T_ARRAY)
        return uf_dtype_kind(t->dtype) == 'i' ||
               uf_dtype_kind(t->dtype) == 'u';
    if (t->kind != UF__T_TUPLE || t->n == 0 || !int_scalar(t->elts[0]))
        return false;
    for (int i = 1; i < t->n; i++)
        if (t->elts[i] != t->elts[0])
            return false;
    return true;
}

/* a and kth by position or by name; any other keyword is a TypingError. */
static int bind(uf__ictx *C, const uf__expr *e, const char *fn,
                const uf__expr **x)
{
    static const char *const names[] = {"a", "kth"};
    if (e->u.call.nargs > 2)
        return uf__ierr(C, UF_ERR_TYPING, e->u.call.args[2]->pos, "%s() "
                        "takes 2 positional arguments in Numba (no axis, "
                        "kind or order)", fn);
    for (int i = 0; i < 2; i++)
        x[i] = i < e->u.call.nargs ? e->u.call.args[i] : NULL;
    for (int k = 0; k < e->u.call.nkw; k++) {
        const uf__keyword *kw = &e->u.call.kw[k];
        int i = 0;
        while (i < 2 && strcmp(names[i], kw->name) != 0)
            i++;
        if (i == 2)
            return uf__ierr(C, UF_ERR_TYPING, kw->pos, "%s() got an "
                            "unexpected keyword argument '%s': Numba's "
                            "takes a and kth only (the last axis)", fn,
                            kw->name);
        if (x[i] != NULL)
            return uf__ierr(C, UF_ERR_TYPING, kw->pos, "%s() got multiple "
                            "values for argument '%s'", fn, kw->name);
        x[i] = kw->value;
    }
    for (int i = 0; i < 2; i++)
        if (x[i] == NULL)
            return uf__ierr(C, UF_ERR_TYPING, e->pos, "%s() missing "
                            "required argument '%s'", fn, names[i]);
    return 0;
}

const uf__type *uf__infer_nppart(uf__ictx *C, const uf__expr *e,
                                 uf__builtin b)
{
    uf__iinfo(C, e)->builtin = b;
    const char *fn = b == UF__BI_NP_PARTITION ? "np.partition"
                                              : "np.argpartition";
    uf__kernel_kind kk = C->tf->decl->kind;
    if (kk == UF__K_CUDA_KERNEL || kk == UF__K_DEVICE)
        return uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->pos, "%s() copies the "
                          "array in the host runtime, which CUDA kernels "
                          "cannot do", fn);
    const uf__expr *x[2];
    if (bind(C, e, fn, x) != 0)
        return NULL;
    const uf__type *a = uf__infer_expr(C, x[0]);
    if (a == NULL || a == UF__UNKNOWN)
        return a;
    const uf__type *k = uf__infer_expr(C, x[1]);
    if (k == NULL || k == UF__UNKNOWN)
        return k;
    uf_dtype dt;
    int nd;
    if (a->kind == UF__T_ARRAY) {
        if (a->ndim == 0)
            return uf__ierr_t(C, UF_ERR_TYPING, x[0]->pos, "%s(): the first "
                              "argument must be at least 1-D (found 0-D)",
                              fn);
        dt = a->dtype;
        nd = a->ndim;
    } else {
        dt = tuple_dtype(a);
        nd = 1;
        bool numbers = a->kind == UF__T_TUPLE && a->n > 0;
        for (int i = 0; numbers && i < a->n; i++)
            numbers = a->elts[i]->kind == UF__T_SCALAR;
        if (!numbers)
            return uf__ierr_t(C, UF_ERR_TYPING, x[0]->pos, "%s() takes an "
                              "array or a non-empty tuple of numbers as "
                              "'a' (Numba's array-like), not %s", fn,
                              uf__tname(a));
    }
    if (dt == UF_NTYPES || uf_dtype_kind(dt) == 'c')
        return uf__ierr_t(C, UF_ERR_TYPING, x[0]->pos, "%s() is not "
                          "supported for %s, as in Numba (no ordering of "
                          "complex numbers there)", fn, uf__tname(a));
    if (!kth_ok(k))
        return uf__ierr_t(C, UF_ERR_TYPING, x[1]->pos, "%s(): partition "
                          "index must be integer (an int, a tuple of ints "
                          "of one type or an integer array), not %s", fn,
                          uf__tname(k));
    const uf__type *r = uf__type_array(
        C->tc, b == UF__BI_NP_PARTITION ? dt : UF_INT64, nd, 'C', C->err);
    return r ? uf__iset(C, e, r) : uf__ioom(C);
}
