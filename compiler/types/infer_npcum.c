/* Typing of np.nancumsum, np.nancumprod, np.diff and np.average
 * (builtins.h: UF__NPCUM_MAP) as Numba 0.68 types them
 * (numba/np/arraymath.py: np_nancumsum, np_nancumprod, np_diff_impl,
 * np_average):
 *   np.nancumsum(a) / np.nancumprod(a): a 1-D C array; of ints and bools
 *     np.cumsum's / np.cumprod's (int64, uint64 for unsigned), of floats
 *     and complex numbers a's dtype;
 *   np.diff(a, n=1): a C array of a's dtype and ndim, a C or F array of
 *     at least one dimension (Numba reshapes it: any other layout is a
 *     TypingError there), n an integer or bool;
 *   np.average(a, axis=None, weights=None): without weights np.mean's
 *     type (a number is its own mean); with weights the true division of
 *     np.sum(np.multiply(a, weights)) by np.sum(weights), each typed as
 *     Numba types it. axis= anything but None is refused at compile time
 *     (Numba raises TypeError "Numba does not support average with axis."
 *     at run time, whatever the arrays).
 * Everything here allocates or loops over arrays on the host: CUDA
 * kernels refuse it at the call, as they refuse np.cumsum. */
#include <string.h>

#include "compiler/types/infer_internal.h"
#include "compiler/types/infer_npcum.h"
#include "compiler/types/infer_npreduce.h"
#include "compiler/types/infer_npufunc.h"

#define OPERAND(var, expr)                                                  \
    do {                                                                    \
        (var) = uf__infer_expr(C, (expr));                                  \
        if ((var) == NULL || (var) == UF__UNKNOWN)                          \
            return (var);                                                   \
    } while (0)

static const char *const cum_names[] = {"a"};
static const char *const diff_names[] = {"a", "n"};
static const char *const avg_names[] = {"a", "axis", "weights"};

int uf__npcum_params(uf__builtin b, const char *const **names)
{
    switch (b) {
    case UF__BI_NP_NANCUMSUM:
    case UF__BI_NP_NANCUMPROD:
        *names = cum_names;
        return 1;
    case UF__BI_NP_DIFF:
        *names = diff_names;
        return 2;
    case UF__BI_NP_AVERAGE:
        *names = avg_names;
        return 3;
    default:
        *names = NULL;
        return 0;
    }
}

int uf__npcum_bind(const uf__expr *e, uf__builtin b, const uf__expr **x,
                   const uf__keyword **bad)
{
    const char *const *names;
    int n = uf__npcum_params(b, &names);
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

static const uf__type *arr(uf__ictx *C, uf_dtype dt, int nd)
{
    return uf__type_array(C->tc, dt, nd, 'C', C->err);
}

/* np.nancumsum / np.nancumprod of array a. */
static const uf__type *type_nancum(uf__ictx *C, uf__builtin b,
                                   const uf__type *a)
{
    char k = uf_dtype_kind(a->dtype);
    if (k == 'f' || k == 'c')
        return arr(C, a->dtype, 1);
    uf_dtype acc, res; /* np.cumsum / np.cumprod's */
    uf__npreduce_dtypes(b == UF__BI_NP_NANCUMSUM ? UF__BI_NP_SUM
                                                 : UF__BI_NP_PROD,
                        a->dtype, &acc, &res);
    return arr(C, res, 1);
}

static const uf__type *type_diff(uf__ictx *C, const uf__expr *e,
                                 const uf__type *a, const uf__expr *nx)
{
    if (a->ndim == 0)
        return uf__ierr_t(C, UF_ERR_TYPING, e->u.call.args[0]->pos,
                          "np.diff() takes an array of at least one "
                          "dimension, not %s", uf__tname(a));
    if (a->layout != 'C' && a->layout != 'F')
        return uf__ierr_t(C, UF_ERR_TYPING, e->u.call.args[0]->pos,
                          "np.diff() takes a contiguous array (Numba "
                          "reshapes it), not %s: copy the view first",
                          uf__tname(a));
    if (nx != NULL) {
        const uf__type *t;
        OPERAND(t, nx);
        if (t->kind != UF__T_SCALAR ||
            (!uf__type_is_int(t) && t->dtype != UF_BOOL))
            return uf__ierr_t(C, UF_ERR_TYPING, nx->pos, "np.diff(): n is "
                              "an integer, not %s", uf__tname(t));
    }
    return arr(C, a->dtype, a->ndim);
}

bool uf__npcum_average_dtypes(uf__typectx *tc, uf_dtype a, uf_dtype w,
                              uf_dtype *op_a,
                              uf_dtype *op_w, uf_dtype *prod,
                              uf_dtype *div_op, uf_dtype *res)
{
    const uf__ufunc_loops *row = uf__npufunc_loops(UF__BI_NP_MULTIPLY);
    uf_dtype in[2] = {a, w}, types[3];
    if (row == NULL ||
        !uf__ufunc_select_loop(row->loops, 2, 1, in, types))
        return false;
    *op_a = types[0];
    *op_w = types[1];
    *prod = types[2];
    uf_dtype acc, sp, sw;
    uf__npreduce_dtypes(UF__BI_NP_SUM, *prod, &acc, &sp);
    uf__npreduce_dtypes(UF__BI_NP_SUM, w, &acc, &sw);
    const uf__type *optype;
    const uf__type *r = uf__type_binop(tc, UF__OP_DIV,
                                       uf__type_scalar(tc, sp),
                                       uf__type_scalar(tc, sw), &optype);
    if (r == NULL)
        return false;
    *div_op = optype ? optype->dtype : r->dtype;
    *res = r->dtype;
    return true;
}

static const uf__type *type_average(uf__ictx *C, const uf__expr *e,
                                    const uf__type *a, const uf__expr **x)
{
    if (x[1] != NULL) {
        const uf__type *t;
        OPERAND(t, x[1]);
        if (t->kind != UF__T_NONE)
            return uf__ierr_t(C, UF_ERR_UNSUPPORTED, x[1]->pos, "%s",
                              "np.average(axis=) is not supported: Numba "
                              "does not support average with axis.");
    }
    const uf__type *w = NULL;
    if (x[2] != NULL) {
        OPERAND(w, x[2]);
        if (w->kind == UF__T_NONE)
            w = NULL;
        else if (w->kind != UF__T_ARRAY || a->kind != UF__T_ARRAY ||
                 w->ndim > UF__NPCUM_MAXND)
            return uf__ierr_t(C, UF_ERR_UNSUPPORTED, x[2]->pos, "np.average"
                              "(a, weights=w) takes arrays a and w in "
                              "kernels, not %s and %s", uf__tname(a),
                              uf__tname(w));
    }
    uf_dtype acc, res;
    if (w == NULL) { /* np.mean(np.asarray(a)) */
        uf__npreduce_dtypes(UF__BI_NP_MEAN, a->dtype, &acc, &res);
        return uf__type_scalar(C->tc, res);
    }
    uf_dtype oa, ow, p, dop;
    if (!uf__npcum_average_dtypes(C->tc, a->dtype, w->dtype, &oa, &ow, &p, &dop,
                                  &res))
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "np.average() of %s "
                          "weighted by %s: np.multiply has no loop for "
                          "them", uf__tname(a), uf__tname(w));
    return uf__type_scalar(C->tc, res);
}

const uf__type *uf__infer_npcum(uf__ictx *C, const uf__expr *e,
                                uf__builtin b)
{
    uf__iinfo(C, e)->builtin = b;
    const char *name = uf__builtin_name(b) + 6; /* "numpy." */
    const uf__expr *x[3];
    const uf__keyword *kw;
    if (uf__npcum_bind(e, b, x, &kw) != 0) {
        if (kw != NULL)
            return uf__ierr_t(C, UF_ERR_TYPING, kw->pos, "np.%s() got an "
                              "unexpected or repeated keyword argument "
                              "'%s'", name, kw->name);
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "np.%s() takes at most "
                          "%d arguments (%d given)", name,
                          uf__npcum_params(b, &(const char *const *){0}),
                          e->u.call.nargs);
    }
    if (x[0] == NULL)
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "np.%s() missing "
                          "required argument 'a'", name);
    uf__kernel_kind k = C->tf->decl->kind;
    if (k == UF__K_CUDA_KERNEL || k == UF__K_DEVICE)
        return uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->pos, "np.%s() "
                          "allocates an array or loops over one on the "
                          "host, which CUDA kernels cannot do", name);
    const uf__type *a;
    OPERAND(a, x[0]);
    bool number_ok = b == UF__BI_NP_AVERAGE && a->kind == UF__T_SCALAR;
    if (a->kind != UF__T_ARRAY && !number_ok)
        return uf__ierr_t(C, UF_ERR_TYPING, x[0]->pos, "np.%s() takes an "
                          "array, not %s", name, uf__tname(a));
    if (a->kind == UF__T_ARRAY && a->ndim > UF__NPCUM_MAXND)
        return uf__ierr_t(C, UF_ERR_UNSUPPORTED, x[0]->pos, "np.%s() of "
                          "more than %d dimensions", name, UF__NPCUM_MAXND);
    const uf__type *r;
    switch (b) {
    case UF__BI_NP_DIFF:
        r = type_diff(C, e, a, x[1]);
        break;
    case UF__BI_NP_AVERAGE:
        r = type_average(C, e, a, x);
        break;
    default:
        r = type_nancum(C, b, a);
        break;
    }
    return r && r != UF__UNKNOWN ? uf__iset(C, e, r) : r;
}
