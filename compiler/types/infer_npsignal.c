/* Typing of np.convolve(a, v, mode='full') and np.correlate(a, v,
 * mode='valid') (builtins.h: UF__NPSIGNAL_MAP), as Numba 0.68 types them
 * (numba/np/arraymath.py np_convolve, _np_correlate): a and v 1-D arrays
 * of any dtype (0-d and N-d arrays, numbers and tuples are TypingErrors,
 * as in Numba); the result a new 1-D array of np.promote_types of the two
 * dtypes (for np.correlate of a real `a`, of np.conj(a)'s dtype: a bool
 * becomes CONJ_BOOL). mode a string literal; one that is not 'full',
 * 'same' or 'valid' raises Numba's ValueError at run time. The runtime is
 * on the host: CUDA kernels and device functions refuse these.
 * np.bartlett(M), np.blackman(M), np.hamming(M), np.hanning(M)
 * (numba/np/arraymath.py window_generator): M an integer (a bool, a
 * float are TypingErrors; an unsigned one for np.hamming and np.hanning,
 * whose integer np.arange Numba cannot type); a new 1-D float64 array.
 * np.kaiser(M, beta) (numba/np/arraymath.py np_kaiser): M a signed
 * integer (Numba's np.arange(0, M) fails on an unsigned one), beta an
 * integer or a float (a bool, a complex number are TypingErrors); a new
 * 1-D float64 array. */
#include <stdio.h>
#include <string.h>

#include "compiler/types/infer_internal.h"

/* np.conj of a bool array in Numba: the ufunc's first loop that takes
 * bools. */
#define CONJ_BOOL UF_INT8

static const uf__type *operand(uf__ictx *C, const char *fn,
                               const uf__expr *x)
{
    const uf__type *t = uf__infer_expr(C, x);
    if (t == NULL || t == UF__UNKNOWN)
        return t;
    if (t->kind != UF__T_ARRAY || t->ndim != 1)
        return uf__ierr_t(C, UF_ERR_TYPING, x->pos, "%s() only supported "
                          "on 1D arrays (Numba's), not %s", fn,
                          uf__tname(t));
    return t;
}

/* np.bartlett(M) ...: one integer, by position or as M=. */
static const uf__type *window(uf__ictx *C, const uf__expr *e, uf__builtin b)
{
    const char *fn = uf__builtin_name(b) + 6;
    const uf__expr *m = e->u.call.nargs == 1 ? e->u.call.args[0] : NULL;
    if (e->u.call.nargs > 1)
        return uf__ierr_t(C, UF_ERR_TYPING, e->u.call.args[1]->pos, "np.%s() "
                          "takes 1 argument (M)", fn);
    for (int j = 0; j < e->u.call.nkw; j++) {
        const uf__keyword *kw = &e->u.call.kw[j];
        if (strcmp(kw->name, "M") != 0 || m != NULL)
            return uf__ierr_t(C, UF_ERR_TYPING, kw->pos, "np.%s() got an "
                              "unexpected keyword argument '%s'", fn,
                              kw->name);
        m = kw->value;
    }
    if (m == NULL)
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "np.%s() missing "
                          "required argument 'M'", fn);
    const uf__type *t = uf__infer_expr(C, m);
    if (t == NULL || t == UF__UNKNOWN)
        return t;
    char kind = t->kind == UF__T_SCALAR ? uf_dtype_kind(t->dtype) : 0;
    if (kind != 'i' && kind != 'u')
        return uf__ierr_t(C, UF_ERR_TYPING, m->pos, "np.%s(): M must be an "
                          "integer (Numba's), not %s", fn, uf__tname(t));
    if (kind == 'u' && (b == UF__BI_NP_HAMMING || b == UF__BI_NP_HANNING))
        return uf__ierr_t(C, UF_ERR_TYPING, m->pos, "np.%s(): an unsigned "
                          "M fails Numba's typing (its np.arange(1 - M, M, "
                          "2))", fn);
    const uf__type *r = uf__type_array(C->tc, UF_FLOAT64, 1, 'C', C->err);
    return r ? uf__iset(C, e, r) : uf__ioom(C);
}

/* np.kaiser(M, beta), by position or keyword. */
static const uf__type *kaiser(uf__ictx *C, const uf__expr *e)
{
    static const char *const names[] = {"M", "beta"};
    if (uf__call_check_params(C, e, "kaiser", names, 2) != 0)
        return NULL;
    for (int i = 0; i < 2; i++) {
        const uf__expr *x = uf__call_arg(e, i, names[i]);
        if (x == NULL)
            return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "np.kaiser() "
                              "missing required argument '%s'", names[i]);
        const uf__type *t = uf__infer_expr(C, x);
        if (t == NULL || t == UF__UNKNOWN)
            return t;
        char kind = t->kind == UF__T_SCALAR ? uf_dtype_kind(t->dtype) : 0;
        if (i == 0 && kind != 'i' && kind != 'u')
            return uf__ierr_t(C, UF_ERR_TYPING, x->pos, "np.kaiser(): M "
                              "must be an integer (Numba's), not %s",
                              uf__tname(t));
        if (i == 0 && kind == 'u')
            return uf__ierr_t(C, UF_ERR_TYPING, x->pos, "%s", "np.kaiser(): "
                              "an unsigned M fails Numba's typing (its "
                              "np.arange(0, M))");
        if (i == 1 && kind != 'i' && kind != 'u' && kind != 'f')
            return uf__ierr_t(C, UF_ERR_TYPING, x->pos, "np.kaiser(): beta "
                              "must be an integer or float (Numba's), not "
                              "%s", uf__tname(t));
    }
    const uf__type *r = uf__type_array(C->tc, UF_FLOAT64, 1, 'C', C->err);
    return r ? uf__iset(C, e, r) : uf__ioom(C);
}

const uf__type *uf__infer_npsignal(uf__ictx *C, const uf__expr *e,
                                   uf__builtin b)
{
    uf__iinfo(C, e)->builtin = b;
    char fn[32];
    snprintf(fn, sizeof fn, "np.%s", uf__builtin_name(b) + 6);
    uf__kernel_kind k = C->tf->decl->kind;
    if (k == UF__K_CUDA_KERNEL || k == UF__K_DEVICE)
        return uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->pos, "%s() runs in "
                          "the host runtime, which CUDA kernels cannot "
                          "call", fn);
    if (b == UF__BI_NP_KAISER)
        return kaiser(C, e);
    if (b >= UF__BI_NP_BARTLETT)
        return window(C, e, b);
    static const char *const names[] = {"a", "v", "mode"};
    const uf__expr *x[3] = {NULL, NULL, NULL};
    if (e->u.call.nargs > 3)
        return uf__ierr_t(C, UF_ERR_TYPING, e->u.call.args[3]->pos, "%s() "
                          "takes at most 3 arguments", fn);
    for (int i = 0; i < e->u.call.nargs; i++)
        x[i] = e->u.call.args[i];
    for (int j = 0; j < e->u.call.nkw; j++) {
        const uf__keyword *kw = &e->u.call.kw[j];
        int i = 0;
        while (i < 3 && strcmp(names[i], kw->name) != 0)
            i++;
        if (i == 3)
            return uf__ierr_t(C, UF_ERR_TYPING, kw->pos, "%s() got an "
                              "unexpected keyword argument '%s'", fn,
                              kw->name);
        if (x[i] != NULL)
            return uf__ierr_t(C, UF_ERR_TYPING, kw->pos, "%s() got "
                              "multiple values for argument '%s'", fn,
                              kw->name);
        x[i] = kw->value;
    }
    for (int i = 0; i < 2; i++)
        if (x[i] == NULL)
            return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "%s() missing "
                              "required argument '%s'", fn, names[i]);
    const char *mode;
    int sr = x[2] != NULL ? uf__infer_strlit(C, x[2], &mode) : 1;
    if (sr < 0)
        return NULL;
    if (sr == 0)
        return uf__ierr_t(C, UF_ERR_TYPING, x[2]->pos, "%s(): mode must be "
                          "a string literal ('full', 'same' or 'valid')",
                          fn);
    const uf__type *a = operand(C, fn, x[0]);
    if (a == NULL || a == UF__UNKNOWN)
        return a;
    const uf__type *v = operand(C, fn, x[1]);
    if (v == NULL || v == UF__UNKNOWN)
        return v;
    uf_dtype da = a->dtype;
    if (b == UF__BI_NP_CORRELATE && da == UF_BOOL)
        da = CONJ_BOOL;
    uf_dtype dt = uf_promote_types(da, v->dtype);
    const uf__type *r = uf__type_array(C->tc, dt, 1, 'C', C->err);
    return r ? uf__iset(C, e, r) : uf__ioom(C);
}
