/* Typing of NumPy's whole-array reductions (np.sum(a), a.sum(), np.nanmax
 * ...), np.dot/np.vdot/`@` of two 1-D arrays, np.transpose / a.T, and
 * a.itemsize / a.nbytes, as Numba types them (numba/np/arraymath.py,
 * arrayobj.py, linalg.py). The whole-array forms read the array where it
 * lies; a product with a 2-D operand (lower_matmul.c) and a reduction
 * over one axis of an N-d array (lower_npaxis.c) make a new array, so
 * CUDA kernels refuse them. */
#include <stdio.h>
#include <string.h>

#include "compiler/types/array_members.h"
#include "compiler/types/infer_internal.h"
#include "compiler/types/infer_npextra.h"
#include "compiler/types/infer_npreduce.h"

static bool is_intlike(uf_dtype d)
{
    char k = uf_dtype_kind(d);
    return k == 'i' || k == 'u' || k == 'b';
}

/* numba.np.arraymath.get_accumulator_type: bool and integers narrower
 * than intp accumulate in intp (signed) or uintp (unsigned). */
static uf_dtype accumulator(uf_dtype d)
{
    if (d == UF_BOOL)
        return UF_INT64;
    if (uf_dtype_kind(d) == 'i')
        return UF_INT64;
    if (uf_dtype_kind(d) == 'u')
        return UF_UINT64;
    return d;
}

bool uf__npreduce_dtypes(uf__builtin b, uf_dtype in, uf_dtype *acc,
                         uf_dtype *res)
{
    bool cplx = uf_dtype_kind(in) == 'c';
    switch (b) {
    case UF__BI_NP_SUM:
    case UF__BI_NP_PROD:
    case UF__BI_NP_NANSUM:
    case UF__BI_NP_NANPROD:
        *acc = *res = accumulator(in);
        return true;
    case UF__BI_NP_MIN:
    case UF__BI_NP_MAX:
    case UF__BI_NP_AMIN:
    case UF__BI_NP_AMAX:
    case UF__BI_NP_NANMIN:
    case UF__BI_NP_NANMAX:
        *acc = *res = in;
        return true;
    case UF__BI_NP_MEAN:
        /* array_mean: ints and bools in float64, others in their dtype,
         * the quotient cast back to it */
        *acc = *res = is_intlike(in) ? UF_FLOAT64 : in;
        return true;
    case UF__BI_NP_VAR:
    case UF__BI_NP_STD:
    case UF__BI_NP_NANVAR:
    case UF__BI_NP_NANSTD:
        /* `ssd = 0` (an int) plus real parts: float64 whatever the input;
         * the deviations themselves in the mean's dtype */
        *acc = *res = UF_FLOAT64;
        return true;
    case UF__BI_NP_NANMEAN:
        /* `c = 0.0` plus the elements */
        *acc = *res = cplx ? UF_COMPLEX128 : UF_FLOAT64;
        return true;
    case UF__BI_NP_ARGMIN:
    case UF__BI_NP_ARGMAX:
        *acc = in;
        *res = UF_INT64;
        return true;
    case UF__BI_NP_ALL:
    case UF__BI_NP_ANY:
        *acc = *res = UF_BOOL;
        return true;
    case UF__BI_NP_DOT:
    case UF__BI_NP_VDOT:
        *acc = *res = in;
        return true;
    case UF__BI_NP_NANARGMIN:
    case UF__BI_NP_NANARGMAX:
        *acc = in;
        *res = UF_INT64;
        return true;
    case UF__BI_NP_COUNT_NONZERO:
        *acc = *res = UF_INT64;
        return true;
    case UF__BI_NP_PTP:
        /* np_ptp: max - min in Numba's arithmetic (ints in int64 or
         * uint64, floats in their own dtype), unified with the float64 or
         * complex128 NaN and the int64 placeholder its early return has */
        *acc = is_intlike(in) ? accumulator(in) : in;
        *res = cplx                           ? UF_COMPLEX128
               : uf_dtype_kind(*acc) == 'i' ? UF_INT64
                                            : UF_FLOAT64;
        return true;
    default:
        return false;
    }
}

/* The functions and attributes in UF__NPREDUCE_MAP's order, then the
 * methods of array_members.c's table that are reductions. */
bool uf__npreduce_listing_at(int i, const char **name, const char **kind)
{
    int nfn = UF__BI_NP_ATTR_NBYTES - UF__BI_NP_SUM + 1;
    int nextra = UF__BI_NP_PTP - UF__BI_NP_NANARGMIN + 1;
    if (i < 0)
        return false;
    if (i < nfn + nextra) {
        *name = uf__builtin_name(i < nfn ? (uf__builtin)(UF__BI_NP_SUM + i)
                                         : (uf__builtin)(UF__BI_NP_NANARGMIN +
                                                         i - nfn));
        *kind = (*name)[0] == '.' ? "attribute" : "function";
        return true;
    }
    nfn += nextra;
    const uf__array_member *m;
    for (int k = 0, left = i - nfn; (m = uf__array_member_at(k)); k++)
        if (m->method && uf__builtin_is_npreduce(m->builtin) && left-- == 0) {
            *name = m->name;
            *kind = "method";
            return true;
        }
    return false;
}

/* ---- typing ------------------------------------------------------------ */

static const uf__type *refuse_args(uf__ictx *C, const uf__expr *e,
                                   const char *name, int n, bool method)
{
    return uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->pos, "%s() with %d "
                      "argument%s is not supported in kernels: only the "
                      "whole-array form %s(%s) and an axis", name, n,
                      n == 1 ? "" : "s", name, method ? "" : "a");
}

/* a.T of Numba: 0-d and 1-d unchanged, else the layout mirrored. */
static const uf__type *transposed(uf__ictx *C, const uf__type *a)
{
    if (a->ndim <= 1)
        return a;
    char l = a->layout == 'C' ? 'F' : a->layout == 'F' ? 'C' : 'A';
    return uf__type_array_ro(C->tc, a->dtype, a->ndim, l, a->readonly,
                             C->err);
}

/* True, with the refusal set, where the kernel cannot allocate (CUDA
 * kernels and device functions); false where it may. */
static bool refuse_alloc(uf__ictx *C, const uf__expr *e, const char *what)
{
    uf__kernel_kind k = C->tf->decl->kind;
    if (k != UF__K_CUDA_KERNEL && k != UF__K_DEVICE)
        return false;
    uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->pos, "%s allocates an array, "
               "which CUDA kernels cannot do", what);
    return true;
}

/* np.dot / np.vdot / `@` of x and y, of one float or complex dtype
 * (Numba's BLAS kernels: dot_2_vv, dot_2_mv, dot_2_vm, dot_2_mm): two
 * 1-D arrays give a scalar, a 2-D one a new C array (the 1-D operand's
 * axis summed away); np.vdot takes 1-D arrays only. */
static const uf__type *type_dot(uf__ictx *C, const uf__expr *e,
                                const char *name, const uf__type *x,
                                const uf__type *y, bool vdot)
{
    if (x->kind != UF__T_ARRAY || y->kind != UF__T_ARRAY)
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "%s of %s and %s is not "
                          "supported in kernels: both operands must be "
                          "arrays", name, uf__tname(x), uf__tname(y));
    int mx = vdot ? 1 : 2;
    if (x->ndim < 1 || y->ndim < 1 || x->ndim > mx || y->ndim > mx)
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "%s of %s and %s: only "
                          "%s arrays are supported (as in Numba)", name,
                          uf__tname(x), uf__tname(y),
                          vdot ? "1-D" : "1-D and 2-D");
    char k = uf_dtype_kind(x->dtype);
    if (k != 'f' && k != 'c')
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "%s is only supported "
                          "on float and complex arrays (Numba's BLAS "
                          "kernels), not %s", name, uf__tname(x));
    if (x->dtype != y->dtype)
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "%s arguments must all "
                          "have the same dtype, not %s and %s", name,
                          uf__tname(x), uf__tname(y));
    if (x->ndim == 1 && y->ndim == 1)
        return uf__type_scalar(C->tc, x->dtype);
    if (refuse_alloc(C, e, name))
        return NULL;
    return uf__type_array(C->tc, x->dtype, x->ndim + y->ndim - 2, 'C',
                          C->err);
}

/* The axis argument of a reduction call: a.sum(k) / np.sum(a, k) or
 * axis=k; NULL when there is none. *other: a keyword other than axis. */
const uf__expr *uf__npreduce_axis_arg(const uf__expr *e, bool method,
                                      const uf__keyword **other)
{
    const uf__expr *ax = NULL;
    *other = NULL;
    int first = method ? 0 : 1;
    if (e->u.call.nargs > first)
        ax = e->u.call.args[first];
    for (int j = 0; j < e->u.call.nkw; j++) {
        if (strcmp(e->u.call.kw[j].name, "axis") == 0)
            ax = e->u.call.kw[j].value;
        else if (!*other)
            *other = &e->u.call.kw[j];
    }
    return ax;
}

/* np.argmin / np.argmax(a, axis=k) (Numba's
 * build_argmax_or_argmin_with_axis_impl): k an integer, known or not; a
 * 1-D array gives a scalar, an N-d one a new C array of N-1 axes. np.sum
 * has its own (infer_npaxis.c); the other reductions have no axis in
 * Numba. */
static const uf__type *type_axis(uf__ictx *C, const uf__expr *e,
                                 uf__builtin b, const char *name,
                                 const uf__type *a, const uf__expr *ax)
{
    if (b != UF__BI_NP_ARGMIN && b != UF__BI_NP_ARGMAX)
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "No implementation of "
                          "%s() with an axis: Numba's takes no axis (only "
                          "np.sum, np.cumsum, np.argmin and np.argmax do)",
                          name);
    const uf__type *t = uf__infer_expr(C, ax);
    if (t == NULL || t == UF__UNKNOWN)
        return t;
    if (!uf__type_is_int(t))
        return uf__ierr_t(C, UF_ERR_TYPING, ax->pos, "%s",
                          "axis must be an integer");
    if (a->kind != UF__T_ARRAY || a->ndim == 0)
        return uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->pos, "%s() with an axis "
                          "of %s is not supported in kernels: arrays of one "
                          "or more dimensions", name, uf__tname(a));
    if (uf_dtype_kind(a->dtype) == 'c')
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "No implementation of "
                          "%s for (%s,): complex numbers are not ordered",
                          name, uf__tname(a));
    uf_dtype acc, res;
    uf__npreduce_dtypes(b, a->dtype, &acc, &res);
    uf__iinfo(C, e)->optype = uf__type_scalar(C->tc, acc);
    if (a->ndim == 1)
        return uf__type_scalar(C->tc, res);
    if (refuse_alloc(C, e, name))
        return NULL;
    return uf__type_array(C->tc, res, a->ndim - 1, 'C', C->err);
}

const uf__type *uf__infer_npreduce_call(uf__ictx *C, const uf__expr *e,
                                        uf__builtin b,
                                        const uf__type *const *args, int n)
{
    const uf__expr *f = e->u.call.func;
    const uf__type *all[8];
    int m = 0;
    bool method = false;
    if (f->kind == UF__EX_ATTR) {
        const uf__type *rt = uf__iinfo(C, f->u.attr.value)->type;
        method = rt && rt->kind == UF__T_ARRAY;
        if (method)
            all[m++] = rt;
    }
    for (int i = 0; i < n && m < 8; i++)
        all[m++] = args[i];
    const char *q = uf__builtin_name(b);
    char name[64];
    snprintf(name, sizeof name, "%s%s", method ? "array." : "np.",
             strchr(q, '.') + 1);
    uf__expr_info *in = uf__iinfo(C, e);
    in->builtin = b;
    if (uf__builtin_is_npextra(b)) /* infer_npextra.c */
        return uf__infer_npextra(C, e, b, name);
    if (b == UF__BI_NP_DOT || b == UF__BI_NP_VDOT) {
        if (m != 2 || e->u.call.nkw > 0)
            return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "%s() takes 2 "
                              "arguments (%d given)%s", name, m,
                              m > 2 || e->u.call.nkw > 0
                                  ? ": out= is not supported in kernels"
                                  : "");
        return type_dot(C, e, name, all[0], all[1], b == UF__BI_NP_VDOT);
    }
    if (b == UF__BI_NP_SUM && m >= 1) /* axis= and dtype= */
        return uf__infer_npsum(C, e, name, method, all[0]);
    const uf__keyword *other;
    const uf__expr *ax = uf__npreduce_axis_arg(e, method, &other);
    if (other)
        return uf__ierr_t(C, UF_ERR_UNSUPPORTED, other->pos, "%s() with "
                          "%s= is not supported in kernels", name,
                          other->name);
    if (ax && m <= 2 && b != UF__BI_NP_TRANSPOSE)
        return type_axis(C, e, b, name, all[0], ax);
    if (m != 1)
        return refuse_args(C, e, name, n, method);
    const uf__type *a = all[0];
    if (b == UF__BI_NP_TRANSPOSE) {
        if (a->kind != UF__T_ARRAY)
            return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "%s() of %s is not "
                              "supported in kernels", name, uf__tname(a));
        return transposed(C, a);
    }
    /* Numba's scalar forms of the ones that have them */
    if (a->kind == UF__T_SCALAR &&
        (b == UF__BI_NP_MIN || b == UF__BI_NP_MAX || b == UF__BI_NP_AMIN ||
         b == UF__BI_NP_AMAX))
        return a;
    if (a->kind == UF__T_SCALAR && (b == UF__BI_NP_ALL || b == UF__BI_NP_ANY))
        return uf__type_scalar(C->tc, UF_BOOL);
    if (a->kind != UF__T_ARRAY)
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "No implementation of "
                          "%s for (%s,): kernels reduce arrays only", name,
                          uf__tname(a));
    if ((b == UF__BI_NP_ARGMIN || b == UF__BI_NP_ARGMAX) &&
        uf_dtype_kind(a->dtype) == 'c')
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "No implementation of "
                          "%s for (%s,): complex numbers are not ordered",
                          name, uf__tname(a));
    uf_dtype acc, res;
    if (!uf__npreduce_dtypes(b, a->dtype, &acc, &res))
        return uf__ierr_t(C, UF_ERR_INTERNAL, e->pos, "no typing for %s",
                          name);
    in->optype = uf__type_scalar(C->tc, acc);
    return uf__type_scalar(C->tc, res);
}

const uf__type *uf__infer_npreduce_attr(uf__ictx *C, const uf__expr *e,
                                        const uf__type *base,
                                        uf__expr_info *in, uf__builtin b)
{
    in->builtin = b;
    if (b == UF__BI_NP_ATTR_T) {
        const uf__type *t = transposed(C, base);
        return t ? uf__iset(C, e, t) : NULL;
    }
    if (b == UF__BI_NP_ATTR_ITEMSIZE || b == UF__BI_NP_ATTR_NBYTES)
        return uf__iset(C, e, uf__type_scalar(C->tc, UF_INT64));
    return uf__ierr_t(C, UF_ERR_INTERNAL, e->pos, "no typer for array "
                      "attribute '%s'", e->u.attr.attr);
}

const uf__type *uf__infer_matmul(uf__ictx *C, const uf__expr *e,
                                 const uf__type *x, const uf__type *y)
{
    uf__expr_info *in = uf__iinfo(C, e);
    in->builtin = UF__BI_NP_DOT;
    const uf__type *r = type_dot(C, e, "the @ operator", x, y, false);
    return r ? uf__iset(C, e, r) : NULL;
}
