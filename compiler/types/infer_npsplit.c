/* Typing of np.split, np.array_split, np.hsplit, np.vsplit and np.dsplit
 * (builtins.h: UF__NPSPLIT_MAP) after Numba 0.68 (numba/np/arrayobj.py:
 * np_split, np_array_split, numpy_hsplit/vsplit/dsplit).
 *
 * Numba returns a list of views. ufjit returns that list, Numba's
 * list(array(...)), for a number of sections known only at run time (as
 * many parts as below); otherwise the parts are a UniTuple of views,
 * which can leave the kernel called through the API (one output each):
 *   indices_or_sections an integer known at compile time (a literal,
 *     -literal or a module constant) N: N parts when N > 0, one when N < 0
 *     (Numba's divmod leaves no index then); N == 0 raises
 *     ZeroDivisionError at run time as Numba's divmod does;
 *   a tuple of integers (k of them): k + 1 parts.
 * An array of indices is refused at the call with a message saying so.
 * Each part is a view of a's dtype, ndim and
 * mutability, layout 'C' when a is a 1-D C array (Numba's slice keeps it)
 * and 'A' otherwise. axis (np.split / np.array_split only) is an integer,
 * checked at run time. np.hsplit takes axis 1 (axis 0 for a 1-D array;
 * a 0-d array fails Numba's typing of shape[0]), np.vsplit axis 0 and
 * np.dsplit axis 2. On an array of too few dimensions those raise
 * Numba's ValueError on every call, their result typed none (any use of
 * it fails Numba's typing): refused here at compile time. Views only: CUDA kernels could take them, but
 * there is no caller there, so they are refused like the other
 * array-returning functions of this family. */
#include <string.h>

#include "compiler/types/infer_internal.h"
#include "compiler/types/infer_npsplit.h"

bool uf__npsplit_const_int(const uf__kmodule *km, const uf__expr *x,
                           int64_t *v)
{
    bool neg = false;
    if (x->kind == UF__EX_UNARY && x->u.unary.op == UF__OP_NEG) {
        neg = true;
        x = x->u.unary.operand;
    }
    int64_t r;
    if (x->kind == UF__EX_INT) {
        if (x->u.i.too_big || x->u.i.value > (uint64_t)INT64_MAX)
            return false;
        r = (int64_t)x->u.i.value;
    } else if (x->kind == UF__EX_NAME) {
        const uf__global *g = uf__kmodule_global(km, x->u.name.id);
        if (g == NULL || g->kind != UF__G_CONSTANT ||
            g->constant.type->kind != UF__T_SCALAR)
            return false;
        switch (g->constant.type->dtype) {
        case UF_INT8: case UF_INT16: case UF_INT32: case UF_INT64:
            r = g->constant.v.i;
            break;
        case UF_UINT8: case UF_UINT16: case UF_UINT32: case UF_UINT64:
            if (g->constant.v.u > (uint64_t)INT64_MAX)
                return false;
            r = (int64_t)g->constant.v.u;
            break;
        default:
            return false;
        }
    } else {
        return false;
    }
    if (neg && r == INT64_MIN)
        return false;
    *v = neg ? -r : r;
    return true;
}

int uf__npsplit_bind(const uf__expr *e, uf__builtin b, const uf__expr **x,
                     const uf__keyword **bad)
{
    static const char *const names[] = {"ary", "indices_or_sections",
                                        "axis"};
    int n = b == UF__BI_NP_SPLIT || b == UF__BI_NP_ARRAY_SPLIT ? 3 : 2;
    *bad = NULL;
    x[0] = x[1] = x[2] = NULL;
    if (e->u.call.nargs > n)
        return -1;
    for (int i = 0; i < e->u.call.nargs; i++)
        x[i] = e->u.call.args[i];
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

const uf__type *uf__infer_npsplit(uf__ictx *C, const uf__expr *e,
                                  uf__builtin b)
{
    uf__iinfo(C, e)->builtin = b;
    const char *fn = uf__builtin_name(b) + 6; /* "numpy." */
    uf__kernel_kind k = C->tf->decl->kind;
    if (k == UF__K_CUDA_KERNEL || k == UF__K_DEVICE)
        return uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->pos, "np.%s() is not "
                          "supported in CUDA kernels", fn);
    const uf__expr *x[3];
    const uf__keyword *kw;
    if (uf__npsplit_bind(e, b, x, &kw) != 0) {
        if (kw != NULL)
            return uf__ierr_t(C, UF_ERR_TYPING, kw->pos, "np.%s() got an "
                              "unexpected or repeated keyword argument "
                              "'%s'", fn, kw->name);
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "np.%s() takes at most "
                          "%d arguments (%d given)", fn,
                          b <= UF__BI_NP_ARRAY_SPLIT ? 3 : 2,
                          e->u.call.nargs);
    }
    if (x[0] == NULL || x[1] == NULL)
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "np.%s() missing "
                          "required argument '%s'", fn,
                          x[0] == NULL ? "ary" : "indices_or_sections");
    const uf__type *a = uf__infer_expr(C, x[0]);
    if (a == NULL || a == UF__UNKNOWN)
        return a;
    const uf__type *s = uf__infer_expr(C, x[1]);
    if (s == NULL || s == UF__UNKNOWN)
        return s;
    if (x[2] != NULL) {
        const uf__type *ax = uf__infer_expr(C, x[2]);
        if (ax == NULL || ax == UF__UNKNOWN)
            return ax;
        if (ax->kind != UF__T_SCALAR || !uf__type_is_int(ax))
            return uf__ierr_t(C, UF_ERR_TYPING, x[2]->pos, "np.%s(): axis "
                              "must be an integer, not %s", fn,
                              uf__tname(ax));
    }
    if (a->kind == UF__T_TUPLE)
        return uf__ierr_t(C, UF_ERR_UNSUPPORTED, x[0]->pos, "np.%s() of "
                          "%s: ufjit splits arrays only (pass "
                          "np.asarray(...))", fn, uf__tname(a));
    if (a->kind != UF__T_ARRAY)
        return uf__ierr_t(C, UF_ERR_TYPING, x[0]->pos, "np.%s(): the "
                          "argument \"ary\" must be an array, not %s", fn,
                          uf__tname(a));
    int least = b == UF__BI_NP_VSPLIT ? 2 : b == UF__BI_NP_DSPLIT ? 3 : 1;
    if (a->ndim < least && least > 1)
        return uf__ierr_t(C, UF_ERR_TYPING, x[0]->pos, "np.%s() of %s: %s "
                          "only works on arrays of %d or more dimensions "
                          "(Numba's ValueError, raised on every call: its "
                          "result has no type)", fn, uf__tname(a), fn,
                          least);
    if (a->ndim == 0)
        return uf__ierr_t(C, UF_ERR_TYPING, x[0]->pos, "np.%s() of a 0-d "
                          "array: Numba fails typing its shape[axis] "
                          "(tuple index out of range)", fn);
    int nparts;
    int64_t nsec;
    char layout = a->ndim == 1 && a->layout == 'C' ? 'C' : 'A';
    const uf__type *part = uf__type_array_ro(C->tc, a->dtype, a->ndim,
                                             layout, a->readonly, C->err);
    if (part == NULL)
        return NULL;
    if (s->kind == UF__T_SCALAR && uf__type_is_int(s)) {
        if (!uf__npsplit_const_int(C->km, x[1], &nsec)) {
            /* known at run time only: Numba's list of views (the lists of
             * arrays of lower_list_items.c) */
            const uf__type *r = uf__type_list(C->tc, part, C->err);
            return r ? uf__iset(C, e, r) : NULL;
        }
        if (nsec > UF__TUPLE_MAX)
            return uf__ierr_t(C, UF_ERR_UNSUPPORTED, x[1]->pos, "np.%s() "
                              "into more than %d parts (ufjit's tuples "
                              "hold at most %d items)", fn, UF__TUPLE_MAX,
                              UF__TUPLE_MAX);
        nparts = nsec > 0 ? (int)nsec : 1;
    } else if (s->kind == UF__T_TUPLE) {
        bool hetero = false;
        for (int i = 0; i < s->n; i++) {
            if (s->elts[i]->kind != UF__T_SCALAR ||
                !uf__type_is_int(s->elts[i]))
                return uf__ierr_t(C, UF_ERR_TYPING, x[1]->pos, "np.%s(): "
                                  "indices_or_sections must be an integer "
                                  "or a tuple of integers, not %s", fn,
                                  uf__tname(s));
            hetero = hetero || s->elts[i] != s->elts[0];
        }
        if (s->n == 0)
            return uf__ierr_t(C, UF_ERR_TYPING, x[1]->pos, "np.%s() with "
                              "an empty tuple of indices: Numba fails "
                              "typing it", fn);
        if (hetero && b > UF__BI_NP_ARRAY_SPLIT)
            return uf__ierr_t(C, UF_ERR_TYPING, x[1]->pos, "np.%s(): The "
                              "argument \"indices_or_sections\" must be "
                              "int or 1d-array, not %s", fn, uf__tname(s));
        if (s->n + 1 > UF__TUPLE_MAX)
            return uf__ierr_t(C, UF_ERR_UNSUPPORTED, x[1]->pos, "np.%s() "
                              "into more than %d parts", fn, UF__TUPLE_MAX);
        nparts = s->n + 1;
    } else if (s->kind == UF__T_ARRAY) {
        return uf__ierr_t(C, UF_ERR_UNSUPPORTED, x[1]->pos, "np.%s() with "
                          "an array of indices: Numba returns a list, "
                          "which ufjit kernels do not have; ufjit returns "
                          "a tuple of views, whose length must be known "
                          "at compile time (pass a tuple of indices or an "
                          "integer literal)", fn);
    } else {
        return uf__ierr_t(C, UF_ERR_TYPING, x[1]->pos, "np.%s(): "
                          "indices_or_sections must be an integer or a "
                          "tuple of integers, not %s", fn, uf__tname(s));
    }
    const uf__type *elts[UF__TUPLE_MAX];
    for (int i = 0; i < nparts; i++)
        elts[i] = part;
    const uf__type *r = uf__type_tuple(C->tc, nparts, elts, C->err);
    return r ? uf__iset(C, e, r) : NULL;
}
