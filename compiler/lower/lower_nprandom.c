/* np.random inside kernels (typed by infer_nprandom.c): calls of the
 * host runtime common/nprandom.h, whose per-thread generator is Numba's.
 * A number is one call (normal() and uniform() their own functions,
 * for loops that draw one at a time; random() and randint() are drawn
 * inline, lower_nprandom_inline.c); size= allocates the
 * C-order result through NRT (lower_alloc.c) and fills it with one call;
 * shuffle, permutation and choice pass the array as data, shape and
 * strides. The runtime's statuses become Numba's ValueErrors. */
#include "common/nprandom.h"
#include "compiler/host/jit.h"
#include "compiler/lower/lower.h"
#include "compiler/lower/lower_rtcall.h"
#include "compiler/lower/lower_array.h"
#include "compiler/lower/lower_nprandom_inline.h"

#define B (F->L->b)

/* The runtime's statuses as Numba's exceptions. */
static void raise_status(uf__fn *F, LLVMValueRef st)
{
    static const uf__rt_status map[] = {
        {UF__NPRANDOM_NOMEM, UF__JIT_NOMEM},
        {UF__NPRANDOM_EMPTY_RANGE, UF__JIT_RANDOM_RANGE},
        {UF__NPRANDOM_LARGER_SAMPLE, UF__JIT_RANDOM_SAMPLE},
    };
    uf__emit_rt_statuses(F, st, map, sizeof map / sizeof map[0]);
}

static const uf__type *type_of(uf__fn *F, const uf__expr *x)
{
    return uf__lower_info(F, x)->type;
}

/* Argument x converted to dtype dt, or dflt (a float64) when absent. */
static LLVMValueRef number(uf__fn *F, const uf__expr *x, uf_dtype dt,
                           double dflt, bool *ok)
{
    if (x == NULL)
        return LLVMConstReal(uf__ty_f64(F), dflt);
    LLVMValueRef v = uf__lower_expr(F, x);
    if (v == NULL) {
        *ok = false;
        return NULL;
    }
    return uf__emit_cast(F, v, type_of(F, x)->dtype, dt);
}

/* The shape a size argument gives (an integer or a tuple of them). */
static int size_shape(uf__fn *F, const uf__expr *x, LLVMValueRef *shape)
{
    LLVMValueRef v = uf__lower_expr(F, x);
    if (!v)
        return -1;
    const uf__type *t = type_of(F, x);
    if (t->kind != UF__T_TUPLE) {
        shape[0] = uf__emit_cast(F, v, t->dtype, UF_INT64);
        return 0;
    }
    for (int k = 0; k < t->n; k++)
        shape[k] = uf__emit_cast(F,
                                 LLVMBuildExtractValue(B, v, (unsigned)k, ""),
                                 t->elts[k]->dtype, UF_INT64);
    return 0;
}

/* The result: for an array type, a new array of the shape size gives
 * (rand / randn: the positional dimensions), with *out its data and *n
 * its count; for a number, a stack slot of its type and n = 1. */
static LLVMValueRef result(uf__fn *F, const uf__expr *e, const uf__type *rt,
                           const uf__expr *sx, LLVMValueRef *out,
                           LLVMValueRef *n)
{
    if (rt->kind != UF__T_ARRAY) {
        *out = LLVMBuildPointerCast(
            B, uf__fn_alloca(F, uf__lower_mem_dtype(F->L, rt->dtype),
                             "rnd.out"),
            uf__ty_i8p(F), "");
        *n = uf__c_i64(F, 1);
        return NULL;
    }
    LLVMValueRef shape[UF_MAXDIMS];
    uf__builtin b = uf__lower_info(F, e)->builtin;
    if (b == UF__BI_NP_RANDOM_RAND || b == UF__BI_NP_RANDOM_RANDN) {
        for (int k = 0; k < rt->ndim; k++) {
            const uf__expr *d = e->u.call.args[k];
            LLVMValueRef v = uf__lower_expr(F, d);
            if (!v)
                return NULL;
            shape[k] = uf__emit_cast(F, v, type_of(F, d)->dtype, UF_INT64);
        }
    } else if (rt->ndim > 0 && size_shape(F, sx, shape) != 0) {
        return NULL;
    }
    LLVMValueRef a = uf__lower_new_array(F, rt->dtype, rt->ndim, shape, n);
    *out = uf__emit_rt_data(F, a);
    return a;
}

static LLVMValueRef load_result(uf__fn *F, const uf__type *rt,
                                LLVMValueRef arr, LLVMValueRef out)
{
    return arr ? arr : uf__emit_elem_load(F, out, rt->dtype);
}

/* The float distributions: the runtime's number, the parameters' names
 * in order (size after them) and the defaults of those Numba lets out. */
typedef struct dist {
    uf__builtin b;
    int kind;
    const char *names[3];
    double dflt[3];
} dist;

static const dist dists[] = {
    {UF__BI_NP_RANDOM_UNIFORM, UF__NPRANDOM_UNIFORM, {"low", "high"},
     {0.0, 1.0}},
    {UF__BI_NP_RANDOM_NORMAL, UF__NPRANDOM_NORMAL, {"loc", "scale"},
     {0.0, 1.0}},
    {UF__BI_NP_RANDOM_STANDARD_NORMAL, UF__NPRANDOM_NORMAL, {0}, {0.0, 1.0}},
    {UF__BI_NP_RANDOM_RANDN, UF__NPRANDOM_NORMAL, {0}, {0.0, 1.0}},
    {UF__BI_NP_RANDOM_EXPONENTIAL, UF__NPRANDOM_EXPONENTIAL, {"scale"},
     {1.0}},
    {UF__BI_NP_RANDOM_STANDARD_EXPONENTIAL, UF__NPRANDOM_EXPONENTIAL, {0},
     {1.0}},
    {UF__BI_NP_RANDOM_GAMMA, UF__NPRANDOM_GAMMA, {"shape", "scale"},
     {0.0, 1.0}},
    {UF__BI_NP_RANDOM_STANDARD_GAMMA, UF__NPRANDOM_GAMMA, {"shape"},
     {0.0, 1.0}},
    {UF__BI_NP_RANDOM_BETA, UF__NPRANDOM_BETA, {"a", "b"}, {0}},
    {UF__BI_NP_RANDOM_CHISQUARE, UF__NPRANDOM_CHISQUARE, {"df"}, {0}},
    {UF__BI_NP_RANDOM_F, UF__NPRANDOM_F, {"dfnum", "dfden"}, {0}},
    {UF__BI_NP_RANDOM_LOGNORMAL, UF__NPRANDOM_LOGNORMAL, {"mean", "sigma"},
     {0.0, 1.0}},
    {UF__BI_NP_RANDOM_LAPLACE, UF__NPRANDOM_LAPLACE, {"loc", "scale"},
     {0.0, 1.0}},
    {UF__BI_NP_RANDOM_LOGISTIC, UF__NPRANDOM_LOGISTIC, {"loc", "scale"},
     {0.0, 1.0}},
    {UF__BI_NP_RANDOM_GUMBEL, UF__NPRANDOM_GUMBEL, {"loc", "scale"}, {0}},
    {UF__BI_NP_RANDOM_WEIBULL, UF__NPRANDOM_WEIBULL, {"a"}, {0}},
    {UF__BI_NP_RANDOM_PARETO, UF__NPRANDOM_PARETO, {"a"}, {0}},
    {UF__BI_NP_RANDOM_POWER, UF__NPRANDOM_POWER, {"a"}, {0}},
    {UF__BI_NP_RANDOM_RAYLEIGH, UF__NPRANDOM_RAYLEIGH, {"scale"}, {1.0}},
    {UF__BI_NP_RANDOM_STANDARD_CAUCHY, UF__NPRANDOM_CAUCHY, {0}, {0}},
    {UF__BI_NP_RANDOM_STANDARD_T, UF__NPRANDOM_STANDARD_T, {"df"}, {0}},
    {UF__BI_NP_RANDOM_VONMISES, UF__NPRANDOM_VONMISES, {"mu", "kappa"},
     {0}},
    {UF__BI_NP_RANDOM_WALD, UF__NPRANDOM_WALD, {"mean", "scale"}, {0}},
    {UF__BI_NP_RANDOM_TRIANGULAR, UF__NPRANDOM_TRIANGULAR,
     {"left", "mode", "right"}, {0}},
};

static const dist *dist_of(uf__builtin b)
{
    static const dist random = {UF__BI_NONE, UF__NPRANDOM_RANDOM, {0}, {0}};
    for (size_t i = 0; i < sizeof dists / sizeof dists[0]; i++)
        if (dists[i].b == b)
            return &dists[i];
    return &random; /* random, random_sample, sample, ranf, rand */
}

/* The float distributions' statuses as Numba's ValueErrors. */
static void raise_dist_status(uf__fn *F, LLVMValueRef st)
{
    static const uf__rt_status map[] = {
        {UF__NPRANDOM_BAD_GAMMA, UF__JIT_RANDOM_GAMMA},
        {UF__NPRANDOM_BAD_POWER, UF__JIT_RANDOM_POWER},
        {UF__NPRANDOM_BAD_RAYLEIGH, UF__JIT_RANDOM_RAYLEIGH},
        {UF__NPRANDOM_BAD_WALD_MEAN, UF__JIT_RANDOM_WALD_MEAN},
        {UF__NPRANDOM_BAD_WALD_SCALE, UF__JIT_RANDOM_WALD_SCALE},
    };
    uf__emit_rt_statuses(F, st, map, sizeof map / sizeof map[0]);
}

/* Whether the distribution checks its parameters. */
static bool dist_fallible(int kind)
{
    switch (kind) {
    case UF__NPRANDOM_GAMMA:
    case UF__NPRANDOM_BETA:
    case UF__NPRANDOM_CHISQUARE:
    case UF__NPRANDOM_F:
    case UF__NPRANDOM_POWER:
    case UF__NPRANDOM_RAYLEIGH:
    case UF__NPRANDOM_STANDARD_T:
    case UF__NPRANDOM_WALD:
        return true;
    default:
        return false;
    }
}

/* random ... triangular: float64 draws of up to three parameters. */
static LLVMValueRef lower_floats(uf__fn *F, const uf__expr *e, uf__builtin b,
                                 const uf__type *rt)
{
    const dist *d = dist_of(b);
    int np = 0;
    while (np < 3 && d->names[np])
        np++;
    bool ok = true;
    LLVMValueRef p[3];
    for (int i = 0; i < 3; i++)
        p[i] = number(F, i < np ? uf__call_arg(e, i, d->names[i]) : NULL,
                      UF_FLOAT64, d->dflt[i], &ok);
    if (!ok)
        return NULL;
    const uf__expr *sx = b == UF__BI_NP_RANDOM_RAND ||
                                 b == UF__BI_NP_RANDOM_RANDN
                             ? NULL
                             : uf__call_arg(e, np, "size");
    int kind = d->kind;
    if (rt->kind != UF__T_ARRAY) { /* one draw: the direct functions */
        if (kind == UF__NPRANDOM_RANDOM)
            return uf__emit_random_double(F);
        if (kind == UF__NPRANDOM_NORMAL)
            return uf__emit_rt_call(F, UF__NP_RANDOM_NORMAL, uf__ty_f64(F), p,
                                    2);
        if (kind == UF__NPRANDOM_UNIFORM)
            return uf__emit_rt_call(F, UF__NP_RANDOM_UNIFORM, uf__ty_f64(F), p,
                                    2);
    }
    LLVMValueRef out, n;
    LLVMValueRef arr = result(F, e, rt, sx, &out, &n);
    if (rt->kind == UF__T_ARRAY && arr == NULL)
        return NULL;
    LLVMValueRef args[6] = {uf__c_i32(F, kind), p[0], p[1], p[2],
                            uf__emit_rt_ptr(F, out, uf__ty_f64(F)), n};
    LLVMValueRef st = uf__emit_rt_call(F, UF__NP_RANDOM_FILL, uf__ty_i32(F),
                                       args, 6);
    if (dist_fallible(kind))
        raise_dist_status(F, st);
    return load_result(F, rt, arr, out);
}

static LLVMValueRef lower_randint(uf__fn *F, const uf__expr *e,
                                  const uf__type *rt)
{
    const uf__expr *lx = uf__call_arg(e, 0, "low"),
                   *hx = uf__call_arg(e, 1, "high");
    LLVMValueRef lo = uf__c_i64(F, 0), hi;
    bool ok = true;
    if (hx == NULL) {
        hi = number(F, lx, UF_INT64, 0, &ok);
    } else {
        lo = number(F, lx, UF_INT64, 0, &ok);
        hi = ok ? number(F, hx, UF_INT64, 0, &ok) : NULL;
    }
    if (!ok)
        return NULL;
    int width = (int)uf_dtype_itemsize(rt->dtype) * 8;
    if (rt->kind != UF__T_ARRAY) { /* one draw, inline */
        LLVMValueRef st, v = uf__emit_randint_one(F, lo, hi, width, &st);
        raise_status(F, st);
        return uf__emit_cast(F, v, UF_INT64, rt->dtype);
    }
    LLVMValueRef out, n;
    LLVMValueRef arr = result(F, e, rt, uf__call_arg(e, 2, "size"), &out, &n);
    if (rt->kind == UF__T_ARRAY && arr == NULL)
        return NULL;
    LLVMValueRef args[5] = {lo, hi, uf__c_i32(F, width), out, n};
    raise_status(
        F, uf__emit_rt_call(F, UF__NP_RANDOM_RANDINT, uf__ty_i32(F), args, 5));
    return load_result(F, rt, arr, out);
}

/* An array as the runtime reads it: data, nd, shape, strides. */
static void take_array(uf__fn *F, LLVMValueRef v, const uf__type *t,
                       LLVMValueRef *a)
{
    int nd = t->ndim ? t->ndim : 1;
    LLVMTypeRef at = LLVMArrayType(uf__ty_i64(F), (unsigned)nd);
    LLVMValueRef sh = uf__fn_alloca(F, at, "rnd.shape");
    LLVMValueRef st = uf__fn_alloca(F, at, "rnd.strides");
    sh = uf__emit_rt_ptr(F, sh, uf__ty_i64(F));
    st = uf__emit_rt_ptr(F, st, uf__ty_i64(F));
    for (int k = 0; k < t->ndim; k++) {
        LLVMValueRef ix = uf__c_i64(F, k);
        LLVMBuildStore(B, uf__emit_array_dim(F, v, k),
                       LLVMBuildGEP2(B, uf__ty_i64(F), sh, &ix, 1, ""));
        LLVMBuildStore(B, uf__emit_array_stride(F, v, t, k),
                       LLVMBuildGEP2(B, uf__ty_i64(F), st, &ix, 1, ""));
    }
    a[0] = uf__emit_rt_data(F, v);
    a[1] = uf__c_i64(F, t->ndim);
    a[2] = sh;
    a[3] = st;
    a[4] = uf__c_i64(F, (int64_t)uf_dtype_itemsize(t->dtype));
}

static LLVMValueRef lower_shuffle(uf__fn *F, const uf__expr *e,
                                  const uf__type *rt, uf__builtin b)
{
    const uf__expr *xx = uf__call_arg(e, 0, "x");
    LLVMValueRef v = uf__lower_expr(F, xx);
    if (!v)
        return NULL;
    const uf__type *t = type_of(F, xx);
    LLVMValueRef a[6];
    if (b == UF__BI_NP_RANDOM_SHUFFLE) {
        take_array(F, v, t, a);
        uf__emit_rt_call(F, UF__NP_RANDOM_SHUFFLE,
                         LLVMVoidTypeInContext(F->L->ctx), a, 5);
        return LLVMGetUndef(LLVMInt1TypeInContext(F->L->ctx));
    }
    LLVMValueRef shape[UF_MAXDIMS], n;
    if (t->kind == UF__T_ARRAY) {
        take_array(F, v, t, a);
        for (int k = 0; k < t->ndim; k++)
            shape[k] = uf__emit_array_dim(F, v, k);
    } else { /* np.arange(x): no elements for x <= 0 */
        LLVMValueRef x = uf__emit_cast(F, v, t->dtype, UF_INT64);
        shape[0] = LLVMBuildSelect(
            B, LLVMBuildICmp(B, LLVMIntSLT, x, uf__c_i64(F, 0), ""),
            uf__c_i64(F, 0), x, "");
        LLVMValueRef sh = uf__fn_alloca(F, uf__ty_i64(F), "rnd.n");
        LLVMBuildStore(B, shape[0], sh);
        a[0] = LLVMConstNull(uf__ty_i8p(F));
        a[1] = uf__c_i64(F, 1);
        a[2] = sh;
        a[3] = sh;
        a[4] = uf__c_i64(F, 0);
    }
    LLVMValueRef arr = uf__lower_new_array(F, rt->dtype, rt->ndim, shape, &n);
    a[5] = uf__emit_rt_data(F, arr);
    uf__emit_rt_call(F, UF__NP_RANDOM_PERMUTATION,
                     LLVMVoidTypeInContext(F->L->ctx), a, 6);
    return arr;
}

static LLVMValueRef lower_choice(uf__fn *F, const uf__expr *e,
                                 const uf__type *rt)
{
    const uf__expr *ax = uf__call_arg(e, 0, "a"),
                   *sx = uf__call_arg(e, 1, "size"),
                   *rx = uf__call_arg(e, 2, "replace");
    LLVMValueRef v = uf__lower_expr(F, ax);
    if (!v)
        return NULL;
    const uf__type *t = type_of(F, ax);
    LLVMValueRef data, n, stride, isz;
    if (t->kind == UF__T_ARRAY) {
        data = uf__emit_rt_data(F, v);
        n = uf__emit_array_dim(F, v, 0);
        stride = uf__emit_array_stride(F, v, t, 0);
        isz = uf__c_i64(F, (int64_t)uf_dtype_itemsize(t->dtype));
    } else {
        data = LLVMConstNull(uf__ty_i8p(F));
        n = uf__emit_cast(F, v, t->dtype, UF_INT64);
        stride = uf__c_i64(F, 8);
        isz = uf__c_i64(F, 0);
    }
    LLVMValueRef replace = uf__c_i32(F, 1);
    if (sx && type_of(F, sx)->kind == UF__T_NONE)
        sx = NULL;
    if (rx) { /* evaluated even where a number ignores it */
        LLVMValueRef r = uf__lower_expr(F, rx);
        if (!r)
            return NULL;
        replace = LLVMBuildZExt(B, uf__emit_truth(F, r, type_of(F, rx)->dtype),
                                uf__ty_i32(F), "");
    }
    if (rt->kind != UF__T_ARRAY)
        replace = uf__c_i32(F, 1);
    LLVMValueRef out, cnt;
    LLVMValueRef arr = result(F, e, rt, sx, &out, &cnt);
    if (rt->kind == UF__T_ARRAY && arr == NULL)
        return NULL;
    LLVMValueRef args[7] = {data, n, stride, isz, replace, out, cnt};
    raise_status(
        F, uf__emit_rt_call(F, UF__NP_RANDOM_CHOICE, uf__ty_i32(F), args, 7));
    return load_result(F, rt, arr, out);
}

/* The statuses of the integer distributions and those after them. */
static void raise_int_status(uf__fn *F, LLVMValueRef st)
{
    static const uf__rt_status map[] = {
        {UF__NPRANDOM_BAD_GAMMA, UF__JIT_RANDOM_GAMMA},
        {UF__NPRANDOM_BAD_POISSON, UF__JIT_RANDOM_POISSON},
        {UF__NPRANDOM_BAD_BINOMIAL_N, UF__JIT_RANDOM_BINOMIAL_N},
        {UF__NPRANDOM_BAD_BINOMIAL_P, UF__JIT_RANDOM_BINOMIAL_P},
        {UF__NPRANDOM_BAD_GEOMETRIC, UF__JIT_RANDOM_GEOMETRIC},
        {UF__NPRANDOM_BAD_NEGBIN_N, UF__JIT_RANDOM_NEGBIN_N},
        {UF__NPRANDOM_BAD_NEGBIN_P, UF__JIT_RANDOM_NEGBIN_P},
        {UF__NPRANDOM_BAD_LOGSERIES, UF__JIT_RANDOM_LOGSERIES},
        {UF__NPRANDOM_BAD_ZIPF, UF__JIT_RANDOM_ZIPF},
        {UF__NPRANDOM_BAD_NC_DF, UF__JIT_RANDOM_NC_DF},
        {UF__NPRANDOM_BAD_NC_NONC, UF__JIT_RANDOM_NC_NONC},
        {UF__NPRANDOM_BAD_DIRICHLET, UF__JIT_RANDOM_DIRICHLET},
        {UF__NPRANDOM_ZERODIV, UF__JIT_ZERODIV},
        {UF__NPRANDOM_RANGE_STEP, UF__JIT_RANGE_STEP},
    };
    uf__emit_rt_statuses(F, st, map, sizeof map / sizeof map[0]);
}

/* poisson ... zipf: int64 draws; noncentral_chisquare: float64 ones. */
static LLVMValueRef lower_ints(uf__fn *F, const uf__expr *e, uf__builtin b,
                               const uf__type *rt)
{
    static const struct {
        uf__builtin b;
        int kind;
        const char *names[3];
    } tab[] = {
        {UF__BI_NP_RANDOM_POISSON, UF__NPRANDOM_POISSON, {"lam"}},
        {UF__BI_NP_RANDOM_BINOMIAL, UF__NPRANDOM_BINOMIAL, {"n", "p"}},
        {UF__BI_NP_RANDOM_GEOMETRIC, UF__NPRANDOM_GEOMETRIC, {"p"}},
        {UF__BI_NP_RANDOM_NEGATIVE_BINOMIAL, UF__NPRANDOM_NEGATIVE_BINOMIAL,
         {"n", "p"}},
        {UF__BI_NP_RANDOM_HYPERGEOMETRIC, UF__NPRANDOM_HYPERGEOMETRIC,
         {"ngood", "nbad", "nsample"}},
        {UF__BI_NP_RANDOM_LOGSERIES, UF__NPRANDOM_LOGSERIES, {"p"}},
        {UF__BI_NP_RANDOM_ZIPF, UF__NPRANDOM_ZIPF, {"a"}},
        {UF__BI_NP_RANDOM_NONCENTRAL_CHISQUARE, -1, {"df", "nonc"}},
    };
    size_t t = 0;
    while (tab[t].b != b)
        t++;
    int np = 0;
    while (np < 3 && tab[t].names[np])
        np++;
    bool ok = true;
    LLVMValueRef p[3], n_ = uf__c_i64(F, 0);
    int first = 0;
    if (b == UF__BI_NP_RANDOM_BINOMIAL) { /* n an integer, p a float */
        const uf__expr *nx = uf__call_arg(e, 0, "n");
        LLVMValueRef v = uf__lower_expr(F, nx);
        if (!v)
            return NULL;
        n_ = uf__emit_cast(F, v, type_of(F, nx)->dtype, UF_INT64);
        first = 1;
    }
    for (int i = 0; i < 3 && ok; i++) /* poisson(): lam 1.0 */
        p[i] = number(F,
                      first + i < np
                          ? uf__call_arg(e, first + i, tab[t].names[first + i])
                          : NULL,
                      UF_FLOAT64, 1.0, &ok);
    if (!ok)
        return NULL;
    LLVMValueRef out, n;
    LLVMValueRef arr = result(F, e, rt, uf__call_arg(e, np, "size"), &out, &n);
    if (rt->kind == UF__T_ARRAY && arr == NULL)
        return NULL;
    bool cast = rt->kind != UF__T_ARRAY && tab[t].kind >= 0 &&
                rt->dtype != UF_INT64; /* binomial's uint64 n: float64 */
    if (cast)
        out = LLVMBuildPointerCast(
            B, uf__fn_alloca(F, uf__ty_i64(F), "rnd.int"), uf__ty_i8p(F), "");
    LLVMValueRef st;
    if (tab[t].kind < 0) {
        LLVMValueRef args[4] = {p[0], p[1],
                                uf__emit_rt_ptr(F, out, uf__ty_f64(F)), n};
        st = uf__emit_rt_call(F, UF__NP_RANDOM_NONCENTRAL_CHISQUARE,
                              uf__ty_i32(F), args, 4);
    } else {
        LLVMValueRef args[7] = {uf__c_i32(F, tab[t].kind), n_, p[0], p[1],
                                p[2], uf__emit_rt_ptr(F, out, uf__ty_i64(F)),
                                n};
        st = uf__emit_rt_call(F, UF__NP_RANDOM_IFILL, uf__ty_i32(F), args, 7);
    }
    raise_int_status(F, st);
    if (cast)
        return uf__emit_cast(F, uf__emit_elem_load(F, out, UF_INT64),
                             UF_INT64, rt->dtype);
    return load_result(F, rt, arr, out);
}

/* multinomial(n, pvals, size) / dirichlet(alpha, size): pvals an array
 * (its data) or a tuple (its numbers as float64 in a stack array); the
 * result size's dimensions and len(pvals). */
static LLVMValueRef lower_vector(uf__fn *F, const uf__expr *e, uf__builtin b,
                                 const uf__type *rt)
{
    bool multi = b == UF__BI_NP_RANDOM_MULTINOMIAL;
    const uf__expr *px = multi ? uf__call_arg(e, 1, "pvals")
                               : uf__call_arg(e, 0, "alpha");
    const uf__expr *sx = multi ? uf__call_arg(e, 2, "size")
                               : uf__call_arg(e, 1, "size");
    LLVMValueRef n_ = NULL;
    if (multi) {
        const uf__expr *nx = uf__call_arg(e, 0, "n");
        LLVMValueRef v = uf__lower_expr(F, nx);
        if (!v)
            return NULL;
        n_ = uf__emit_cast(F, v, type_of(F, nx)->dtype, UF_INT64);
    }
    LLVMValueRef v = uf__lower_expr(F, px);
    if (!v)
        return NULL;
    const uf__type *t = type_of(F, px);
    LLVMValueRef data, len, stride, dt;
    if (t->kind == UF__T_ARRAY) {
        data = uf__emit_rt_data(F, v);
        len = uf__emit_array_dim(F, v, 0);
        stride = uf__emit_array_stride(F, v, t, 0);
        dt = uf__c_i32(F, uf_dtype_kind(t->dtype) * 256 +
                        (int)uf_dtype_itemsize(t->dtype));
    } else {
        LLVMTypeRef at = LLVMArrayType(uf__ty_f64(F), (unsigned)t->n);
        LLVMValueRef buf = LLVMBuildPointerCast(
            B, uf__fn_alloca(F, at, "rnd.pvals"),
            LLVMPointerType(uf__ty_f64(F), 0), "");
        for (int k = 0; k < t->n; k++) {
            LLVMValueRef ix = uf__c_i64(F, k);
            LLVMBuildStore(
                B,
                uf__emit_cast(F, LLVMBuildExtractValue(B, v, (unsigned)k, ""),
                              t->elts[k]->dtype, UF_FLOAT64),
                LLVMBuildGEP2(B, uf__ty_f64(F), buf, &ix, 1, ""));
        }
        data = LLVMBuildPointerCast(B, buf, uf__ty_i8p(F), "");
        len = uf__c_i64(F, t->n);
        stride = uf__c_i64(F, 8);
        dt = uf__c_i32(F, 'f' * 256 + 8);
    }
    LLVMValueRef shape[UF_MAXDIMS], cnt;
    int sd = rt->ndim - 1;
    if (sx && type_of(F, sx)->kind != UF__T_NONE && sd > 0 &&
        size_shape(F, sx, shape) != 0)
        return NULL;
    shape[sd] = len;
    LLVMValueRef arr = uf__lower_new_array(F, rt->dtype, rt->ndim, shape,
                                           &cnt);
    if (arr == NULL)
        return NULL;
    LLVMValueRef out = uf__emit_array_data(F, arr);
    LLVMValueRef st;
    if (multi) {
        LLVMValueRef args[7] = {n_, data, len, stride, dt,
                                uf__emit_rt_ptr(F, out, uf__ty_i64(F)), cnt};
        st = uf__emit_rt_call(F, UF__NP_RANDOM_MULTINOMIAL, uf__ty_i32(F),
                              args, 7);
    } else {
        LLVMValueRef args[6] = {data, len, stride, dt,
                                uf__emit_rt_ptr(F, out, uf__ty_f64(F)), cnt};
        st = uf__emit_rt_call(F, UF__NP_RANDOM_DIRICHLET, uf__ty_i32(F), args,
                              6);
    }
    raise_int_status(F, st);
    return arr;
}

bool uf__nprandom_fallible(uf__builtin b, const uf__type *t)
{
    return b == UF__BI_NP_RANDOM_RANDINT || b == UF__BI_NP_RANDOM_CHOICE ||
           b >= UF__BI_NP_RANDOM_POISSON ||
           dist_fallible(dist_of(b)->kind) ||
           (t != NULL && t->kind == UF__T_ARRAY);
}

LLVMValueRef uf__lower_nprandom(uf__fn *F, const uf__expr *e)
{
    const uf__expr_info *in = uf__lower_info(F, e);
    uf__builtin b = in->builtin;
    if (F->L->cg->sreg != NULL) { /* a CUDA ufunc or gufunc */
        uf__source_error(F->err, UF_ERR_UNSUPPORTED, F->tf->km->src, e->pos,
                         "np.%s() draws from the host's per-thread Mersenne "
                         "Twister, which CUDA kernels cannot reach (use "
                         "numba.cuda.random)", uf__builtin_name(b) + 6);
        return NULL;
    }
    const uf__type *rt = in->type;
    switch (b) {
    case UF__BI_NP_RANDOM_SEED: {
        const uf__expr *sx = uf__call_arg(e, 0, "seed");
        LLVMValueRef v = uf__lower_expr(F, sx);
        if (!v)
            return NULL;
        LLVMValueRef s = uf__emit_cast(F, v, type_of(F, sx)->dtype,
                                       UF_INT64);
        s = LLVMBuildTrunc(B, s, uf__ty_i32(F), "");
        uf__emit_rt_call(F, UF__NP_RANDOM_SEED,
                         LLVMVoidTypeInContext(F->L->ctx), &s, 1);
        return LLVMGetUndef(LLVMInt1TypeInContext(F->L->ctx));
    }
    case UF__BI_NP_RANDOM_RANDINT:
        return lower_randint(F, e, rt);
    case UF__BI_NP_RANDOM_SHUFFLE:
    case UF__BI_NP_RANDOM_PERMUTATION:
        return lower_shuffle(F, e, rt, b);
    case UF__BI_NP_RANDOM_CHOICE:
        return lower_choice(F, e, rt);
    case UF__BI_NP_RANDOM_POISSON:
    case UF__BI_NP_RANDOM_BINOMIAL:
    case UF__BI_NP_RANDOM_GEOMETRIC:
    case UF__BI_NP_RANDOM_NEGATIVE_BINOMIAL:
    case UF__BI_NP_RANDOM_HYPERGEOMETRIC:
    case UF__BI_NP_RANDOM_LOGSERIES:
    case UF__BI_NP_RANDOM_ZIPF:
    case UF__BI_NP_RANDOM_NONCENTRAL_CHISQUARE:
        return lower_ints(F, e, b, rt);
    case UF__BI_NP_RANDOM_MULTINOMIAL:
    case UF__BI_NP_RANDOM_DIRICHLET:
        return lower_vector(F, e, b, rt);
    default:
        return lower_floats(F, e, b, rt);
    }
}
