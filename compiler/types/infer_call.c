/* Typing of calls: Python builtins, dtype casts, math/cmath functions with
 * the overload lists of Numba's typing templates (mathdecl.py,
 * cmathdecl.py, builtins.py), NumPy ufuncs by NumPy's loop selection as
 * Numba does it (numpy_support.ufunc_find_matching_loop), and calls of
 * other kernels of the file, specialised per argument types.
 *
 * For a builtin CALL the info's `optype` is the type the arguments are
 * converted to before the operation (the chosen overload's argument type;
 * for math functions of integers the float type they compute in); for
 * range(...) it is the loop variable's type. */
#include <stdio.h>
#include <string.h>

#include "common/error_internal.h"
#include "compiler/front/ast_limits.h"
#include "compiler/types/infer_internal.h"
#include "compiler/types/infer_arrattr.h"
#include "compiler/types/infer_arrexpr.h"
#include "compiler/types/infer_npufunc.h"
#include "compiler/types/infer_npview.h"

#define MAXARGS 8

typedef struct callinfo {
    uf__ictx *C;
    const uf__expr *e;
    uf__expr_info *in;
    const char *name; /* for messages: "math.sin" */
    const uf__type *args[MAXARGS];
    int n;
} callinfo;

static const uf__type *scalar(callinfo *k, uf_dtype d)
{
    return uf__type_scalar(k->C->tc, d);
}

/* "No implementation of math.sin for (complex128,)" */
static const uf__type *no_impl(callinfo *k)
{
    char list[512];
    size_t used = 0;
    list[0] = '\0';
    for (int i = 0; i < k->n; i++) {
        int w = snprintf(list + used, sizeof list - used, "%s%s",
                         i ? ", " : "", uf__tname(k->args[i]));
        if (w < 0 || (size_t)w >= sizeof list - used)
            break;
        used += (size_t)w;
    }
    return uf__ierr_t(k->C, UF_ERR_TYPING, k->e->pos, "No implementation of "
                      "%s for (%s%s)", k->name, list, k->n == 1 ? "," : "");
}

static const uf__type *arity(callinfo *k, int lo, int hi)
{
    if (k->n >= lo && k->n <= hi)
        return NULL;
    if (lo == hi)
        return uf__ierr_t(k->C, UF_ERR_TYPING, k->e->pos, "%s() takes %d "
                          "argument%s (%d given)", k->name, lo,
                          lo == 1 ? "" : "s", k->n);
    return uf__ierr_t(k->C, UF_ERR_TYPING, k->e->pos, "%s() takes %d to %d "
                      "arguments (%d given)", k->name, lo, hi, k->n);
}

#define CHECK_ARITY(k, lo, hi)                                              \
    do {                                                                    \
        if ((k)->n < (lo) || (k)->n > (hi)) {                               \
            arity((k), (lo), (hi));                                         \
            return NULL;                                                    \
        }                                                                   \
    } while (0)

static bool all_scalar(callinfo *k)
{
    for (int i = 0; i < k->n; i++)
        if (k->args[i]->kind != UF__T_SCALAR)
            return false;
    return true;
}

/* A concrete template: cases[c][0] is the result, cases[c][1..nargs] the
 * arguments, chosen as Numba's resolve_overload does. Sets optype to the
 * first argument type of the chosen case. */
static const uf__type *pick(callinfo *k, const uf_dtype (*cases)[4],
                            int ncases, int nargs)
{
    uf_dtype flat[16 * 3];
    if (k->n != nargs || !all_scalar(k) || ncases > 16)
        return no_impl(k);
    for (int c = 0; c < ncases; c++)
        for (int i = 0; i < nargs; i++)
            flat[c * nargs + i] = cases[c][i + 1];
    int best = uf__type_pick_overload(k->args, nargs, flat, ncases, true);
    if (best < 0)
        return no_impl(k);
    k->in->optype = scalar(k, cases[best][1]);
    return scalar(k, cases[best][0]);
}

#define I8 UF_INT64
#define U8 UF_UINT64
#define F4 UF_FLOAT32
#define F8 UF_FLOAT64
#define C8 UF_COMPLEX64
#define C16 UF_COMPLEX128
#define B UF_BOOL

/* mathdecl.Math_unary */
static const uf_dtype math_unary[][4] = {
    {F8, I8}, {F8, U8}, {F4, F4}, {F8, F8}};
/* Math_atan2, Math_hypot (and math.fmod, which Numba lacks) */
static const uf_dtype math_binary[][4] = {
    {F8, I8, I8}, {F8, U8, U8}, {F4, F4, F4}, {F8, F8, F8}};
/* Math_converter: floor, ceil, trunc */
static const uf_dtype math_convert[][4] = {
    {I8, I8}, {U8, U8}, {I8, F4}, {I8, F8}};
static const uf_dtype math_copysign[][4] = {{F4, F4, F4}, {F8, F8, F8}};
static const uf_dtype math_predicate[][4] = {
    {B, I8}, {B, U8}, {B, F4}, {B, F8}};
static const uf_dtype math_pow[][4] = {
    {F8, F8, I8}, {F8, F8, U8}, {F4, F4, F4}, {F8, F8, F8}};
static const uf_dtype builtin_round1[][4] = {{I8, F4}, {I8, F8}};
static const uf_dtype builtin_round2[][4] = {{F4, F4, I8}, {F8, F8, I8}};
static const uf_dtype builtin_divmod[][4] = {
    {I8, I8, I8}, {U8, U8, U8}, {F4, F4, F4}, {F8, F8, F8}};
static const uf_dtype range_cases[][4] = {
    {UF_INT32, UF_INT32, UF_INT32, UF_INT32}, {I8, I8, I8, I8},
    {U8, U8, U8, U8}};
static const uf_dtype cmath_unary[][4] = {{C8, C8}, {C16, C16}};
static const uf_dtype cmath_binary[][4] = {{C8, C8, C8}, {C16, C16, C16}};
static const uf_dtype cmath_predicate[][4] = {{B, C8}, {B, C16}};

#define NCASES(a) ((int)(sizeof(a) / sizeof *(a)))

/* The float type a math function of an integer computes in. */
static void compute_in_result(callinfo *k, const uf__type *r)
{
    if (r != NULL && uf__type_is_float(r))
        k->in->optype = r;
}

static const uf__type *type_math(callinfo *k, uf__builtin b)
{
    const uf__type *r;
    switch (b) {
    case UF__BI_ATAN2:
    case UF__BI_HYPOT:
    case UF__BI_FMOD:
        r = pick(k, math_binary, NCASES(math_binary), 2);
        compute_in_result(k, r);
        return r;
    case UF__BI_FLOOR:
    case UF__BI_CEIL:
    case UF__BI_TRUNC:
        return pick(k, math_convert, NCASES(math_convert), 1);
    case UF__BI_COPYSIGN:
        return pick(k, math_copysign, NCASES(math_copysign), 2);
    case UF__BI_ISNAN:
    case UF__BI_ISINF:
    case UF__BI_ISFINITE:
        return pick(k, math_predicate, NCASES(math_predicate), 1);
    case UF__BI_MPOW:
        r = pick(k, math_pow, NCASES(math_pow), 2);
        compute_in_result(k, r);
        return r;
    default:
        r = pick(k, math_unary, NCASES(math_unary), 1);
        compute_in_result(k, r);
        return r;
    }
}

/* ---- NumPy ufuncs ---------------------------------------------------- */

/* The first loop every input casts to safely (infer_npufunc.c: NumPy's
 * selection as Numba does it, so that np.power(float32, int32) stays
 * float32); a ufunc with two outputs (np.divmod) gives a tuple. */
static const uf__type *type_ufunc(callinfo *k, uf__builtin b)
{
    const uf__ufunc_loops *found = uf__npufunc_loops(b);
    if (found == NULL)
        return uf__ierr_t(k->C, UF_ERR_INTERNAL, k->e->pos, "no loops for "
                          "%s", k->name);
    uf__ufunc_loops row = *found;
    if (k->n == row.nin + row.nout) /* np.add(x, y, out): infer_arrexpr.c */
        return uf__infer_ufunc_out(k->C, k->e, b, k->args, k->n);
    if (k->n != row.nin) {
        arity(k, row.nin, row.nin + row.nout);
        return NULL;
    }
    if (uf__any_array(k->args, k->n)) /* np.sqrt(x): infer_arrexpr.c */
        return uf__infer_array_ufunc(k->C, k->e, b, k->args, k->n);
    if (!all_scalar(k))
        return no_impl(k);
    uf_dtype in[MAXARGS], types[MAXARGS + 2];
    for (int i = 0; i < row.nin; i++)
        in[i] = k->args[i]->dtype;
    if (!uf__ufunc_select_loop(row.loops, row.nin, row.nout, in, types))
        return no_impl(k);
    k->in->optype = scalar(k, types[0]);
    if (row.nout == 1)
        return scalar(k, types[row.nin]);
    const uf__type *outs[2] = {scalar(k, types[row.nin]),
                               scalar(k, types[row.nin + 1])};
    return uf__type_tuple(k->C->tc, 2, outs, k->C->err);
}

/* ---- Python builtins ------------------------------------------------- */

static const uf__type *unify_all(callinfo *k, const uf__type *const *ts,
                                 int n)
{
    const uf__type *r = ts[0];
    for (int i = 1; i < n && r; i++)
        r = uf__type_unify(k->C->tc, r, ts[i]);
    if (r == NULL && uf__typectx_oom(k->C->tc))
        return uf__ioom(k->C);
    if (r == NULL)
        return uf__ierr_t(k->C, UF_ERR_TYPING, k->e->pos, "%s(): the given "
                          "types cannot be unified", k->name);
    return r;
}

static const uf__type *type_minmax(callinfo *k)
{
    const uf__type *const *ts = k->args;
    int n = k->n;
    if (n == 0)
        return arity(k, 1, MAXARGS);
    if (n == 1 && (k->args[0]->kind == UF__T_ARRAY ||
                   k->args[0]->kind == UF__T_RANGE ||
                   k->args[0]->kind == UF__T_LIST ||
                   k->args[0]->kind == UF__T_SET)) /* infer_arrattr.c */
        return uf__infer_iter_minmax(k->C, k->e, k->in->builtin, k->args[0]);
    if (n == 1) {
        if (k->args[0]->kind != UF__T_TUPLE || k->args[0]->n == 0)
            return no_impl(k);
        ts = k->args[0]->elts;
        n = k->args[0]->n;
    }
    for (int i = 0; i < n; i++)
        if (ts[i]->kind != UF__T_SCALAR || uf__type_is_complex(ts[i]))
            return no_impl(k);
    const uf__type *r = unify_all(k, ts, n);
    k->in->optype = r;
    return r;
}

static const uf__type *type_len(callinfo *k)
{
    CHECK_ARITY(k, 1, 1);
    const uf__type *a = k->args[0];
    if (a->kind == UF__T_USTR) { /* a run-time string: lower_ustr.c */
        k->in->builtin = UF__BI_USTR_LEN;
        return scalar(k, UF_INT64);
    }
    if (a->kind == UF__T_STR) /* infer_str.c */
        return uf__infer_str_len(k->C, k->e, k->in, a);
    if ((a->kind == UF__T_ARRAY && a->ndim > 0) || a->kind == UF__T_TUPLE ||
        a->kind == UF__T_FLATITER || a->kind == UF__T_LIST ||
        a->kind == UF__T_SET || (a->kind == UF__T_DICT && a->layout == 0))
        return scalar(k, UF_INT64);
    /* len(range(...)): the range's dtype, as Numba's range_len (int32,
     * int64 or uint64); int64 for the count desugar_for.c writes for a
     * stepped range in zip()/enumerate() (its len() sits at the range's
     * own position), which counts a loop as Numba's iterators do */
    const uf__expr *rx = k->e->u.call.args[0];
    if (a->kind == UF__T_RANGE && rx->kind == UF__EX_CALL) {
        const uf__type *rv = uf__iinfo(k->C, rx)->optype;
        bool desugared = k->e->pos.line == rx->pos.line &&
                         k->e->pos.col == rx->pos.col;
        return scalar(k, rv && !desugared ? rv->dtype : UF_INT64);
    }
    return no_impl(k);
}

static const uf__type *type_range(callinfo *k)
{
    CHECK_ARITY(k, 1, 3);
    for (int i = 0; i < k->n; i++)
        if (k->args[i]->kind != UF__T_SCALAR ||
            !(uf__type_is_int(k->args[i]) || k->args[i]->dtype == UF_BOOL))
            return uf__ierr_t(k->C, UF_ERR_TYPING, k->e->u.call.args[i]->pos,
                              "range() arguments must be integers, not %s",
                              uf__tname(k->args[i]));
    uf_dtype flat[3 * 3];
    for (int c = 0; c < 3; c++)
        for (int i = 0; i < k->n; i++)
            flat[c * k->n + i] = range_cases[c][i];
    int best = uf__type_pick_overload(k->args, k->n, flat, 3, true);
    if (best < 0)
        return no_impl(k);
    k->in->optype = scalar(k, range_cases[best][0]);
    return uf__type_range(k->C->tc);
}

/* dtype(x): float32(x), np.int8(x), numba.complex64(x) */
static const uf__type *type_cast(callinfo *k, uf_dtype to)
{
    k->in->builtin = UF__BI_CAST;
    k->in->cast_to = to;
    CHECK_ARITY(k, 1, 1);
    const uf__type *a = k->args[0];
    if (a->kind != UF__T_SCALAR ||
        (uf__type_is_complex(a) && uf_dtype_kind(to) != 'c' && to != UF_BOOL))
        return uf__ierr_t(k->C, UF_ERR_TYPING, k->e->pos, "cannot cast %s to "
                          "%s", uf__tname(a), uf_dtype_name(to));
    k->in->optype = a;
    return scalar(k, to);
}

static const uf__type *type_builtin(callinfo *k, uf__builtin b)
{
    if (uf__builtin_is_cuda(b))
        return uf__infer_cuda_call(k->C, k->e, b, k->args, k->n);
    uf__ictx *C = k->C;
    const uf__type *a = k->n > 0 ? k->args[0] : NULL;
    const uf__type *r;
    switch (b) {
    case UF__BI_ABS:
        CHECK_ARITY(k, 1, 1);
        r = uf__type_abs(C->tc, a, &k->in->optype);
        return r ? r : no_impl(k);
    case UF__BI_MIN:
    case UF__BI_MAX:
        return type_minmax(k);
    case UF__BI_ROUND:
        CHECK_ARITY(k, 1, 2);
        if (k->n == 1)
            return pick(k, builtin_round1, NCASES(builtin_round1), 1);
        if (k->args[1]->kind != UF__T_SCALAR ||
            !uf__type_is_int(k->args[1]))
            return no_impl(k);
        return pick(k, builtin_round2, NCASES(builtin_round2), 2);
    case UF__BI_INT:
        CHECK_ARITY(k, 1, 1);
        if (a->kind != UF__T_SCALAR || uf__type_is_complex(a))
            return no_impl(k);
        k->in->optype = a;
        return uf__type_is_int(a) ? a : scalar(k, UF_INT64);
    case UF__BI_FLOAT:
        CHECK_ARITY(k, 1, 1);
        if (a->kind != UF__T_SCALAR || a->dtype == UF_BOOL ||
            uf__type_is_complex(a))
            return no_impl(k);
        k->in->optype = a;
        return uf__type_is_float(a) ? a : scalar(k, UF_FLOAT64);
    case UF__BI_BOOL:
        CHECK_ARITY(k, 1, 1);
        if (a->kind == UF__T_SET && a->n == 1) /* not empty: lower_math.c */
            return scalar(k, UF_BOOL);
        if (a->kind != UF__T_SCALAR)
            return no_impl(k);
        k->in->optype = a;
        return scalar(k, UF_BOOL);
    case UF__BI_COMPLEX: {
        CHECK_ARITY(k, 1, 2);
        bool all_f4 = true;
        for (int i = 0; i < k->n; i++) {
            const uf__type *t = k->args[i];
            /* Numba types complex(z, w) but cannot lower it */
            if (t->kind != UF__T_SCALAR || t->dtype == UF_BOOL ||
                (k->n == 2 && uf__type_is_complex(t)))
                return no_impl(k);
            all_f4 &= t->dtype == UF_FLOAT32;
        }
        r = scalar(k, all_f4 ? UF_COMPLEX64 : UF_COMPLEX128);
        k->in->optype = k->n == 1 ? a : scalar(k, all_f4 ? UF_FLOAT32
                                                         : UF_FLOAT64);
        return r;
    }
    case UF__BI_LEN:
        return type_len(k);
    case UF__BI_NP_WHERE:
        return uf__infer_array_where(C, k->e, k->args, k->n);
    case UF__BI_NP_CLIP:
        return uf__infer_array_clip(C, k->e, k->args, k->n);
    case UF__BI_RANGE:
    case UF__BI_PRANGE: /* typed as range, as Numba */
        return type_range(k);
    case UF__BI_POW:
        CHECK_ARITY(k, 2, 2);
        r = NULL;
        if (all_scalar(k))
            r = uf__type_binop(C->tc, UF__OP_POW, k->args[0], k->args[1],
                               &k->in->optype);
        return r ? r : no_impl(k);
    case UF__BI_DIVMOD: {
        CHECK_ARITY(k, 2, 2);
        const uf__type *t = pick(k, builtin_divmod, NCASES(builtin_divmod),
                                 2);
        if (t == NULL)
            return NULL;
        const uf__type *pair[2] = {t, t};
        return uf__type_tuple(C->tc, 2, pair, C->err);
    }
    case UF__BI_NP_REAL:
    case UF__BI_NP_IMAG:
        CHECK_ARITY(k, 1, 1);
        if (a->kind != UF__T_SCALAR || a->dtype == UF_BOOL)
            return no_impl(k);
        k->in->optype = a;
        if (a->dtype == UF_COMPLEX64)
            return scalar(k, UF_FLOAT32);
        if (a->dtype == UF_COMPLEX128)
            return scalar(k, UF_FLOAT64);
        return a;
    case UF__BI_C_SQRT:
    case UF__BI_C_EXP:
        return pick(k, cmath_unary, NCASES(cmath_unary), 1);
    case UF__BI_C_LOG:
        CHECK_ARITY(k, 1, 2);
        if (k->n == 2)
            return pick(k, cmath_binary, NCASES(cmath_binary), 2);
        return pick(k, cmath_unary, NCASES(cmath_unary), 1);
    case UF__BI_C_ISNAN:
    case UF__BI_C_ISINF:
    case UF__BI_C_ISFINITE:
        return pick(k, cmath_predicate, NCASES(cmath_predicate), 1);
    case UF__BI_C_PHASE:
    case UF__BI_C_POLAR: {
        /* Numba's overloads take complex numbers only */
        CHECK_ARITY(k, 1, 1);
        if (a->kind != UF__T_SCALAR || !uf__type_is_complex(a))
            return no_impl(k);
        k->in->optype = a;
        const uf__type *f = scalar(k, a->dtype == UF_COMPLEX64 ? UF_FLOAT32
                                                               : UF_FLOAT64);
        if (b == UF__BI_C_PHASE)
            return f;
        const uf__type *pair[2] = {f, f};
        return uf__type_tuple(C->tc, 2, pair, C->err);
    }
    case UF__BI_C_RECT: {
        CHECK_ARITY(k, 2, 2);
        for (int i = 0; i < 2; i++)
            if (k->args[i]->kind != UF__T_SCALAR ||
                !uf__type_is_float(k->args[i]))
                return no_impl(k);
        bool f4 = k->args[0]->dtype == UF_FLOAT32 &&
                  k->args[1]->dtype == UF_FLOAT32;
        k->in->optype = scalar(k, f4 ? UF_FLOAT32 : UF_FLOAT64);
        return scalar(k, f4 ? UF_COMPLEX64 : UF_COMPLEX128);
    }
    default:
        break;
    }
    const char *q = uf__builtin_name(b);
    if (strncmp(q, "math.", 5) == 0)
        return type_math(k, b);
    if (strncmp(q, "numpy.", 6) == 0)
        return type_ufunc(k, b);
    return uf__ierr_t(C, UF_ERR_UNSUPPORTED, k->e->pos, "%s() is not "
                      "supported in kernels", k->name);
}

/* ---- calls of other kernels ------------------------------------------ */

/* A callee with explicit signatures (@njit('f8(f8)')) compiles only
 * those: the call converts its arguments to the best matching one. */
static int pick_signature(callinfo *k, const uf__kernel_decl *d,
                          const uf__type **args, const uf__type **ret)
{
    uf__kmodule *km = k->C->km;
    int best = -1, nsig = d->nsignatures;
    uf__signature sigs[16];
    if (nsig > 16)
        nsig = 16;
    uf_dtype flat[16 * MAXARGS];
    bool scalars = true;
    for (int s = 0; s < nsig; s++) {
        if (uf__parse_signature(km->tc, km->arena, d->signatures[s], &sigs[s],
                                k->C->err) < 0) {
            char msg[sizeof k->C->err->message];
            snprintf(msg, sizeof msg, "%s", k->C->err->message);
            return uf__ierr(k->C, k->C->err->code, d->signature_pos[s], "%s",
                            msg);
        }
        if (sigs[s].nargs != k->n)
            continue;
        bool exact = true;
        for (int i = 0; i < k->n; i++) {
            exact &= sigs[s].args[i] == k->args[i];
            scalars &= sigs[s].args[i]->kind == UF__T_SCALAR;
            flat[s * k->n + i] = sigs[s].args[i]->kind == UF__T_SCALAR
                                     ? sigs[s].args[i]->dtype
                                     : UF_NTYPES;
        }
        if (exact && best < 0)
            best = s;
    }
    if (best < 0 && scalars && all_scalar(k)) {
        bool ok = true;
        for (int s = 0; s < nsig; s++)
            ok &= sigs[s].nargs == k->n;
        if (ok)
            best = uf__type_pick_overload(k->args, k->n, flat, nsig, true);
    }
    if (best < 0)
        return no_impl(k), -1;
    for (int i = 0; i < k->n; i++)
        args[i] = sigs[best].args[i];
    *ret = sigs[best].ret;
    return 0;
}

static const uf__type *call_kernel(callinfo *k, const uf__expr *f)
{
    uf__ictx *C = k->C;
    const uf__global *g = uf__kmodule_global(C->km, f->u.name.id);
    if (g->kernel < 0)
        return uf__ierr_t(C, UF_ERR_TYPING, f->pos, "Untyped global name "
                          "'%s': cannot determine Numba type of <class "
                          "'function'> (decorate '%s' with @njit or "
                          "@cuda.jit(device=True) to call it from a kernel)",
                          f->u.name.id, f->u.name.id);
    const uf__kernel_decl *d = &C->km->kernels[g->kernel];
    if (d->kind != UF__K_NJIT && d->kind != UF__K_DEVICE)
        return uf__ierr_t(C, UF_ERR_UNSUPPORTED, f->pos, "'%s' is a %s "
                          "kernel: only @njit and @cuda.jit(device=True) "
                          "functions can be called from kernels", d->name,
                          d->kind == UF__K_VECTORIZE     ? "vectorize"
                          : d->kind == UF__K_GUVECTORIZE ? "guvectorize"
                                                         : "reduce");
    int nesting = d->def->u.funcdef.nesting;
    for (uf__ictx *c = C; c != NULL; c = c->caller) {
        if (c->tf->decl == d)
            return uf__ierr_t(C, UF_ERR_UNSUPPORTED, k->e->pos, "recursive "
                              "call of '%s' is not supported", d->name);
        nesting += c->tf->decl->def->u.funcdef.nesting + UF__CALL_NESTING;
    }
    if (nesting > UF__MAX_CALL_NESTING)
        return uf__ierr_t(C, UF_ERR_LIMIT, k->e->pos, "calls nested too "
                          "deeply: '%s' called here would make the chain of "
                          "kernel calls and the blocks and expressions "
                          "inside them deeper than %d levels",
                          d->name, UF__MAX_CALL_NESTING);
    int np = d->def->u.funcdef.nparams;
    if (k->n != np)
        return uf__ierr_t(C, UF_ERR_TYPING, k->e->pos, "%s() takes %d "
                          "positional argument%s but %d %s given", d->name,
                          np, np == 1 ? "" : "s", k->n,
                          k->n == 1 ? "was" : "were");
    for (int i = 0; i < k->n; i++)
        if (k->args[i]->kind == UF__T_NONE)
            return uf__ierr_t(C, UF_ERR_TYPING, k->e->u.call.args[i]->pos,
                              "cannot pass None to '%s'", d->name);
    const uf__type *args[MAXARGS];
    const uf__type *ret = NULL;
    for (int i = 0; i < k->n; i++)
        args[i] = k->args[i];
    if (d->nsignatures > 0 && pick_signature(k, d, args, &ret) < 0)
        return NULL;
    uf__typed_func *tf = uf__infer_spec(C->km, d, args, k->n, ret,
                                        C->tf->numpy_error_model, C, C->err);
    if (tf == NULL)
        return NULL;
    k->in->callee = tf;
    return tf->ret;
}

/* Arguments of a kernel call in parameter order: positional ones, then
 * keywords matched by name (Python's rules, no defaults). 0, or -1 with
 * the error set, or 1 when a keyword value reads a local not typed yet. */
static int kernel_args(callinfo *k, const uf__expr *f)
{
    uf__ictx *C = k->C;
    const uf__expr *e = k->e;
    const uf__global *g = uf__kmodule_global(C->km, f->u.name.id);
    if (g->kernel < 0 || e->u.call.nkw == 0)
        return 0; /* nothing to reorder (or refused later) */
    const uf__stmt *def = C->km->kernels[g->kernel].def;
    int np = def->u.funcdef.nparams;
    if (np > MAXARGS || k->n > np)
        return 0; /* the arity error comes later */
    const uf__type *ordered[MAXARGS] = {NULL};
    for (int i = 0; i < k->n; i++)
        ordered[i] = k->args[i];
    for (int j = 0; j < e->u.call.nkw; j++) {
        const uf__keyword *kw = &e->u.call.kw[j];
        int i = 0;
        while (i < np && strcmp(def->u.funcdef.params[i].name, kw->name) != 0)
            i++;
        if (i == np)
            return uf__ierr(C, UF_ERR_TYPING, kw->pos, "%s() got an "
                              "unexpected keyword argument '%s'",
                              f->u.name.id, kw->name);
        if (ordered[i] != NULL)
            return uf__ierr(C, UF_ERR_TYPING, kw->pos, "%s() got multiple "
                              "values for argument '%s'", f->u.name.id,
                              kw->name);
        const uf__type *t = uf__infer_expr(C, kw->value);
        if (t == NULL || t == UF__UNKNOWN)
            return t == NULL ? -1 : 1;
        if (!uf__is_value_type(t))
            return uf__ierr(C, UF_ERR_UNSUPPORTED, kw->value->pos, "%s "
                              "cannot be passed as an argument",
                              uf__tname(t));
        ordered[i] = t;
    }
    for (int i = 0; i < np; i++)
        if (ordered[i] == NULL)
            return uf__ierr(C, UF_ERR_TYPING, e->pos, "%s() missing "
                              "argument '%s'", f->u.name.id,
                              def->u.funcdef.params[i].name);
    for (int i = 0; i < np; i++)
        k->args[i] = ordered[i];
    k->n = np;
    return 0;
}

/* f is a.method of an array a (a.transpose rather than np.transpose). */
static bool is_array_method(uf__ictx *C, const uf__expr *f)
{
    if (f->kind != UF__EX_ATTR)
        return false;
    const uf__type *rt = uf__iinfo(C, f->u.attr.value)->type;
    return rt && rt->kind == UF__T_ARRAY;
}

const uf__type *uf__infer_call(uf__ictx *C, const uf__expr *e)
{
    uf__expr_info *in = uf__iinfo(C, e);
    const uf__expr *f = e->u.call.func;
    if (f->kind == UF__EX_NAME && strcmp(f->u.name.id, "print") == 0 &&
        uf__typed_var(C->tf, "print") < 0) /* infer_raise.c */
        return uf__infer_print(C, e);
    if (e->u.call.nargs > MAXARGS)
        return uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->pos, "calls with more "
                          "than %d arguments are not supported", MAXARGS);
    const uf__type *ft = uf__infer_expr(C, f);
    if (ft == NULL || ft == UF__UNKNOWN)
        return ft;
    /* d(x) with d holding float, int, bool or complex: that builtin */
    if (uf__type_is_pyclass(ft) && uf__iinfo(C, f)->builtin == UF__BI_NONE)
        uf__iinfo(C, f)->builtin = uf__builtin_lookup(ft->name);
    const uf__expr_info *fi = uf__iinfo(C, f);
    const uf__global *g = NULL;
    if (f->kind == UF__EX_NAME && fi->var < 0)
        g = uf__kmodule_global(C->km, f->u.name.id);
    bool is_kernel = g != NULL && g->kind == UF__G_KERNEL;
    if (uf__builtin_is_alloc(fi->builtin)) { /* np.empty ...: infer_alloc.c */
        in->builtin = fi->builtin;
        const uf__type *r = uf__infer_alloc(C, e, fi->builtin);
        return r && r != UF__UNKNOWN ? uf__iset(C, e, r) : r;
    }
    if (uf__builtin_is_list(fi->builtin)) /* l.append ...: infer_list.c */
        return uf__infer_list_call(C, e, fi->builtin);
    if (uf__builtin_is_dict(fi->builtin)) /* d.get ...: infer_dict.c */
        return uf__infer_dict_call(C, e, fi->builtin);
    if (uf__builtin_is_set(fi->builtin)) /* s.add ...: infer_set.c */
        return uf__infer_set_call(C, e, fi->builtin);
    if (uf__builtin_is_nppred(fi->builtin)) /* np.isclose ...: infer_nppred.c */
        return uf__infer_nppred(C, e, fi->builtin);
    if (uf__builtin_is_npselect(fi->builtin)) /* np.median ... */
        return uf__infer_npselect(C, e, fi->builtin);
    if (uf__builtin_is_nppart(fi->builtin)) /* np.partition ... */
        return uf__infer_nppart(C, e, fi->builtin);
    if (uf__builtin_is_npstats(fi->builtin)) /* np.histogram ... */
        return uf__infer_npstats(C, e, fi->builtin);
    if (fi->builtin == UF__BI_NP_INSERT) /* infer_npinsert.c */
        return uf__infer_npinsert(C, e);
    if (uf__builtin_is_npfind(fi->builtin) || /* np.nonzero ... */
        (fi->builtin == UF__BI_NP_WHERE && e->u.call.nargs + e->u.call.nkw == 1))
        return uf__infer_npfind(C, e, fi->builtin);
    if (uf__builtin_is_nprandom(fi->builtin)) /* np.random.*: */
        return uf__infer_nprandom(C, e, fi->builtin); /* infer_nprandom.c */
    if (uf__builtin_is_npnum(fi->builtin)) /* np.interp ... */
        return uf__infer_npnum(C, e, fi->builtin);
    if (uf__builtin_is_nplinalg(fi->builtin)) /* np.linalg.det ... */
        return uf__infer_nplinalg(C, e, fi->builtin);
    if (uf__builtin_is_arrmeth(fi->builtin)) /* a.copy() ...: infer_arrmeth.c */
        return uf__infer_arrmeth(C, e, fi->builtin);
    if (uf__builtin_is_npiter(fi->builtin)) /* np.ndindex ...: */
        return uf__infer_npiter(C, e, fi->builtin); /* infer_npiter.c */
    if (fi->builtin == UF__BI_METH_ITEM) /* a.item(): infer_npiter.c */
        return uf__infer_array_item(C, e);
    if (uf__builtin_is_npcum(fi->builtin)) /* np.diff ...: infer_npcum.c */
        return uf__infer_npcum(C, e, fi->builtin);
    if (uf__builtin_is_npjoin(fi->builtin)) /* infer_npjoin.c */
        return uf__infer_npjoin(C, e, fi->builtin);
    if (uf__builtin_is_npsignal(fi->builtin)) /* np.convolve ... */
        return uf__infer_npsignal(C, e, fi->builtin);
    if (uf__builtin_is_npspace(fi->builtin)) /* np.logspace ... */
        return uf__infer_npspace(C, e, fi->builtin);
    if (uf__builtin_is_npfunc(fi->builtin)) /* np.ediff1d ... */
        return uf__infer_npfunc(C, e, fi->builtin);
    if (uf__builtin_is_npcross(fi->builtin)) /* np.cross ... */
        return uf__infer_npcross(C, e, fi->builtin);
    if (uf__builtin_is_nppoly(fi->builtin)) /* polyadd ...: infer_nppoly.c */
        return uf__infer_nppoly(C, e, fi->builtin);
    if (uf__builtin_is_npsplit(fi->builtin)) /* np.split ... */
        return uf__infer_npsplit(C, e, fi->builtin);
    if (uf__builtin_is_npmatrix(fi->builtin)) /* np.eye ...: infer_npmatrix.c */
        return uf__infer_npmatrix(C, e, fi->builtin);
    if (uf__builtin_is_npview(fi->builtin) || /* np.flip ...: infer_npview.c */
        (fi->builtin == UF__BI_NP_TRANSPOSE &&
         uf__npview_transpose_has_axes(e, is_array_method(C, f))))
        return uf__infer_npview(C, e, fi->builtin);
    if (uf__builtin_is_arrview(fi->builtin)) /* a.view ...: infer_arrview.c */
        return uf__infer_arrview(C, e, fi->builtin);
    if (fi->builtin == UF__BI_ISINSTANCE) /* infer_arrview.c */
        return uf__infer_isinstance(C, e);
    if (uf__builtin_is_npshape(fi->builtin)) /* np.repeat ...: infer_npshape.c */
        return uf__infer_npshape(C, e, fi->builtin);
    if (uf__builtin_is_arrattr(fi->builtin) && ft->kind != UF__T_DTYPE)
        /* np.dtype(), a.conj(), sum(); d.type(x) is a cast (below) */
        return uf__infer_arrattr_call(C, e, fi->builtin);
    bool kw_ok = is_kernel || fi->builtin == UF__BI_CUDA_SHARED_ARRAY ||
                 fi->builtin == UF__BI_CUDA_LOCAL_ARRAY ||
                 fi->builtin == UF__BI_CUDA_RANDOM_CREATE; /* refused */
    /* the NumPy reductions read axis= themselves (infer_npreduce.c) */
    if (e->u.call.nkw > 0 && !kw_ok && !uf__builtin_is_npreduce(fi->builtin))
        return uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->u.call.kw[0].pos, "%s",
                          "keyword arguments are only supported in calls of "
                          "kernels of the file");
    if (kw_ok && !is_kernel) { /* the CUDA arrays read their own args */
        in->builtin = fi->builtin;
        const uf__type *r = uf__infer_cuda_call(C, e, fi->builtin, NULL, 0);
        return r && r != UF__UNKNOWN ? uf__iset(C, e, r) : r;
    }
    callinfo k = {.C = C, .e = e, .in = in, .n = e->u.call.nargs};
    for (int i = 0; i < k.n; i++) {
        const uf__expr *x = e->u.call.args[i];
        const uf__type *t = uf__infer_expr(C, x);
        if (t == NULL || t == UF__UNKNOWN)
            return t;
        /* np.sum(a, 0, np.float32): a dtype in its place */
        bool dtype_arg = t->kind == UF__T_DTYPE &&
                         uf__builtin_is_npreduce(fi->builtin);
        if (!uf__is_value_type(t) && !dtype_arg &&
            !((t->kind == UF__T_RANGE || t->kind == UF__T_FLATITER) &&
              fi->builtin == UF__BI_LEN) &&
            !(t->kind == UF__T_RANGE && x->kind == UF__EX_CALL &&
              k.n == 1 && (fi->builtin == UF__BI_MIN ||
                           fi->builtin == UF__BI_MAX)))
            return uf__ierr_t(C, UF_ERR_UNSUPPORTED, x->pos, "%s cannot be "
                              "passed as an argument", uf__tname(t));
        if (uf__is_arrexpr(C->tf, x) && uf__arrexpr_no_alloc(C) &&
            !uf__builtin_is_npufunc(fi->builtin) &&
            uf__npufunc_loops(fi->builtin) == NULL &&
            fi->builtin != UF__BI_NP_WHERE &&
            fi->builtin != UF__BI_NP_CLIP)
            return uf__refuse_arrexpr(C, x, "cannot be passed to a "
                                      "function"), NULL;
        k.args[i] = t;
    }
    const uf__type *r;
    if (ft->kind == UF__T_DTYPE && ft->dtype_obj)
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "%s is not callable "
                          "(a dtype; d.type(x) casts to it)", uf__tname(ft));
    if (ft->kind == UF__T_DTYPE) {
        k.name = uf_dtype_name(ft->dtype);
        r = type_cast(&k, ft->dtype);
        return r ? uf__iset(C, e, r) : NULL;
    }
    if (ft->kind != UF__T_FUNCTION)
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "%s is not callable",
                          uf__tname(ft));
    k.name = ft->name;
    if (fi->builtin == UF__BI_METH_CONJUGATE) {
        /* z.conjugate(): the receiver's type */
        in->builtin = UF__BI_METH_CONJUGATE;
        const uf__type *z = uf__iinfo(C, f->u.attr.value)->type;
        if (k.n != 0)
            return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "conjugate() takes "
                              "no arguments (%d given)", k.n);
        in->optype = z;
        return uf__iset(C, e, z);
    }
    if (uf__builtin_is_npreduce(fi->builtin)) {
        r = uf__infer_npreduce_call(C, e, fi->builtin, k.args, k.n);
        return r ? uf__iset(C, e, r) : NULL;
    }
    if ((fi->builtin == UF__BI_NP_REAL || fi->builtin == UF__BI_NP_IMAG) &&
        k.n == 1 && k.args[0]->kind == UF__T_ARRAY) /* infer_arrattr.c */
        return uf__infer_np_part(C, e, fi->builtin, k.args[0]);
    if (uf__builtin_is_ustr(fi->builtin)) /* str, ord, chr: infer_ustr.c */
        return uf__infer_ustr_call(C, e, fi->builtin, k.args, k.n);
    if (fi->builtin != UF__BI_NONE) {
        in->builtin = fi->builtin;
        r = type_builtin(&k, fi->builtin);
        return r ? uf__iset(C, e, r) : NULL;
    }
    if (g != NULL && g->kind == UF__G_EXTERN)
        return uf__infer_extern_call(C, e, &C->km->externs[g->ext], k.args,
                                     k.n);
    if (is_kernel) {
        int rc = kernel_args(&k, f);
        if (rc != 0)
            return rc < 0 ? NULL : UF__UNKNOWN;
        r = call_kernel(&k, f);
        return r ? uf__iset(C, e, r) : NULL;
    }
    return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "%s is not callable",
                      uf__tname(ft));
}
