/* Typing of np.random inside kernels (builtins.h: UF__NPRANDOM_MAP) as
 * Numba 0.68's overloads in numba/np/random/legacy.py type them:
 *   seed(seed): an integer (bool, floats refused); None.
 *   random(size=None) / random_sample / sample / ranf, standard_normal,
 *   standard_exponential: float64; rand(d0, d1, ...), randn(...): the same
 *   with the dimensions as integers (none: a number).
 *   uniform() / uniform(low, high[, size]), normal([loc[, scale[, size]]]),
 *   exponential([scale[, size]]): parameters numbers (ints or floats, not
 *   bool or complex), only those arities, as Numba's overloads have no
 *   defaults but size's.
 *   randint(low[, high[, size]]): integers; the result the widest of the
 *   two types, signed when either is (low alone: int64, Numba's literal
 *   0); an array of int<width>, always signed, as Numba's. Bounds
 *   whose widest type has 8 or 16 bits are refused: Numba 0.68 fails
 *   compiling them (invalid IR).
 *   size None gives a number, an integer a 1-D array, a tuple of one
 *   integer type its length's dimensions (() a 0-d array); C order.
 *   gamma, standard_gamma, beta, chisquare, f, lognormal, laplace,
 *   logistic, gumbel, weibull, pareto, power, rayleigh, standard_cauchy,
 *   standard_t, vonmises, wald, triangular: float64 with the parameters
 *   and arities of Numba's overloads (pareto, vonmises, wald: floats only).
 *   poisson([lam[, size]]), binomial(n, p[, size]) (n an integer),
 *   geometric, hypergeometric, logseries, zipf (a float only):
 *   int64 (binomial of a uint64 n without size: float64, Numba's
 *   unification); negative_binomial(n, p) has no size in Numba;
 *   noncentral_chisquare(df, nonc[, size]): float64.
 *   multinomial(n, pvals[, size]) / dirichlet(alpha[, size]): pvals a 1-D
 *   integer or float array or a tuple of one such type; int64 / float64
 *   arrays of size's dimensions plus one.
 *   shuffle(x): a writable array of at least 1 dimension; None.
 *   permutation(x): an integer (int64 array of x) or an array of at least
 *   1 dimension (a C-order copy of its type).
 *   choice(a, size=None, replace=True): a an integer (int64 values) or a
 *   1-D array (its dtype); size None a value, else an array; p= is not
 *   Numba's (TypingError).
 * CUDA kernels and device functions refuse them all at the call:
 * numba.cuda.random is the GPU's generator. */
#include <stdio.h>
#include <string.h>

#include "compiler/types/infer_internal.h"

#define OPERAND(var, expr)                                                  \
    do {                                                                    \
        (var) = uf__infer_expr(C, (expr));                                  \
        if ((var) == NULL || (var) == UF__UNKNOWN)                          \
            return (var);                                                   \
    } while (0)

/* Each function's parameters: names in order, the counts of leading
 * parameters Numba has an overload for (bit k: k of them), and each
 * one's kind: 'i' integer, 'n' number, 's' size, 'x' shuffle's array,
 * 'p' permutation's, 'a' choice's population, 'r' replace. choice's
 * size and replace have defaults (any subset after a). */
typedef struct spec {
    const char *names[4];
    unsigned arity;
    const char *kinds;
} spec;

#define AT(b) [UF__BI_NP_RANDOM_##b - UF__BI_NP_RANDOM_SEED]
static const spec *spec_of(uf__builtin b)
{
    static const spec size_only = {{"size"}, 1u | 2u, "s"};
    static const spec table[] = {
        AT(SEED) = {{"seed"}, 2u, "i"},
        AT(UNIFORM) = {{"low", "high", "size"}, 1u | 4u | 8u, "nns"},
        AT(NORMAL) = {{"loc", "scale", "size"}, 15u, "nns"},
        AT(EXPONENTIAL) = {{"scale", "size"}, 7u, "ns"},
        AT(RANDINT) = {{"low", "high", "size"}, 2u | 4u | 8u, "iis"},
        AT(SHUFFLE) = {{"x"}, 2u, "x"},
        AT(PERMUTATION) = {{"x"}, 2u, "p"},
        AT(CHOICE) = {{"a", "size", "replace"}, 2u | 4u | 8u, "asr"},
        AT(GAMMA) = {{"shape", "scale", "size"}, 2u | 4u | 8u, "nns"},
        AT(STANDARD_GAMMA) = {{"shape", "size"}, 2u | 4u, "ns"},
        AT(BETA) = {{"a", "b", "size"}, 4u | 8u, "nns"},
        AT(CHISQUARE) = {{"df", "size"}, 2u | 4u, "ns"},
        AT(F) = {{"dfnum", "dfden", "size"}, 4u | 8u, "nns"},
        AT(LOGNORMAL) = {{"mean", "sigma", "size"}, 15u, "nns"},
        AT(LAPLACE) = {{"loc", "scale", "size"}, 15u, "nns"},
        AT(LOGISTIC) = {{"loc", "scale", "size"}, 15u, "nns"},
        AT(GUMBEL) = {{"loc", "scale", "size"}, 4u | 8u, "nns"},
        AT(WEIBULL) = {{"a", "size"}, 2u | 4u, "ns"},
        AT(PARETO) = {{"a", "size"}, 2u | 4u, "fs"},
        AT(POWER) = {{"a", "size"}, 2u | 4u, "ns"},
        AT(RAYLEIGH) = {{"scale", "size"}, 7u, "ns"},
        AT(STANDARD_T) = {{"df", "size"}, 2u | 4u, "ns"},
        AT(VONMISES) = {{"mu", "kappa", "size"}, 4u | 8u, "ffs"},
        AT(WALD) = {{"mean", "scale", "size"}, 4u | 8u, "ffs"},
        AT(TRIANGULAR) = {{"left", "mode", "right", "size"}, 8u | 16u,
                          "nnns"},
        AT(POISSON) = {{"lam", "size"}, 1u | 2u | 4u, "ns"},
        AT(BINOMIAL) = {{"n", "p", "size"}, 4u | 8u, "ins"},
        AT(GEOMETRIC) = {{"p", "size"}, 2u | 4u, "ns"},
        AT(NEGATIVE_BINOMIAL) = {{"n", "p"}, 4u, "nn"}, /* no size */
        AT(HYPERGEOMETRIC) = {{"ngood", "nbad", "nsample", "size"},
                              8u | 16u, "nnns"},
        AT(LOGSERIES) = {{"p", "size"}, 2u | 4u, "ns"},
        AT(ZIPF) = {{"a", "size"}, 2u | 4u, "fs"},
        AT(NONCENTRAL_CHISQUARE) = {{"df", "nonc", "size"}, 4u | 8u, "nns"},
        AT(MULTINOMIAL) = {{"n", "pvals", "size"}, 4u | 8u, "ivs"},
        AT(DIRICHLET) = {{"alpha", "size"}, 2u | 4u, "vs"},
    };
    const spec *s = &table[b - UF__BI_NP_RANDOM_SEED];
    return s->kinds ? s : &size_only;
}
#undef AT

/* Whether t is Numba's Integer (bool is not one). */
static bool integer(const uf__type *t)
{
    return uf__type_is_int(t);
}

static bool number(const uf__type *t)
{
    return t->kind == UF__T_SCALAR &&
           (integer(t) || uf_dtype_kind(t->dtype) == 'f');
}

/* multinomial's pvals, dirichlet's alpha: a 1-D array of integers or
 * floats, or a tuple of one such type (Numba's Array or Sequence; a
 * mixed tuple is neither; N-d arrays fail in Numba's body). */
static bool numbers(const uf__type *t)
{
    if (t->kind == UF__T_ARRAY)
        return t->ndim == 1 && strchr("iuf", uf_dtype_kind(t->dtype));
    if (t->kind != UF__T_TUPLE || t->n == 0)
        return false;
    for (int i = 0; i < t->n; i++)
        if (!number(t->elts[i]) || t->elts[i]->dtype != t->elts[0]->dtype)
            return false;
    return true;
}

/* The dimensions a size gives: -1 for None, or -2 with the error. */
static int size_ndim(uf__ictx *C, const char *fn, const uf__expr *x,
                     const uf__type *t)
{
    if (t->kind == UF__T_NONE)
        return -1;
    if (integer(t))
        return 1;
    if (t->kind == UF__T_TUPLE && t->n <= UF_MAXDIMS) {
        bool ok = true; /* Numba's UniTuple of an integer type */
        for (int i = 0; i < t->n; i++)
            ok = ok && integer(t->elts[i]) &&
                 t->elts[i]->dtype == t->elts[0]->dtype;
        if (ok)
            return t->n;
    }
    uf__ierr(C, UF_ERR_TYPING, x->pos, "%s(): size must be None, an integer "
             "or a tuple of one integer type, not %s", fn, uf__tname(t));
    return -2;
}

/* np.random.rand(d0, d1, ...) / randn: positional integers of one type. */
static const uf__type *dims_call(uf__ictx *C, const uf__expr *e,
                                 const char *fn)
{
    if (e->u.call.nkw)
        return uf__ierr_t(C, UF_ERR_TYPING, e->u.call.kw[0].pos, "%s() "
                          "takes no keyword arguments", fn);
    int n = e->u.call.nargs;
    if (n > UF_MAXDIMS)
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "%s(): at most %d "
                          "dimensions", fn, UF_MAXDIMS);
    const uf__type *first = NULL;
    for (int i = 0; i < n; i++) {
        const uf__type *t;
        OPERAND(t, e->u.call.args[i]);
        if (!integer(t) || (first && t->dtype != first->dtype))
            return uf__ierr_t(C, UF_ERR_TYPING, e->u.call.args[i]->pos,
                              "%s() takes dimensions as integers of one "
                              "type, not %s", fn, uf__tname(t));
        first = first ? first : t;
    }
    const uf__type *r = n ? uf__type_array(C->tc, UF_FLOAT64, n, 'C', C->err)
                          : uf__type_scalar(C->tc, UF_FLOAT64);
    return r ? uf__iset(C, e, r) : uf__ioom(C);
}

/* Binds the arguments of e to the spec's parameters (x[], NULL where not
 * given); the number given, or -1 with the error. */
static int bind(uf__ictx *C, const uf__expr *e, const char *fn,
                const spec *s, const uf__expr **x)
{
    int np = 0;
    while (np < 4 && s->names[np])
        np++;
    if (e->u.call.nargs > np)
        return uf__ierr(C, UF_ERR_TYPING, e->u.call.args[np]->pos, "%s() "
                        "takes at most %d argument%s", fn, np,
                        np > 1 ? "s" : ""), -1;
    for (int i = 0; i < np; i++)
        x[i] = i < e->u.call.nargs ? e->u.call.args[i] : NULL;
    for (int k = 0; k < e->u.call.nkw; k++) {
        const uf__keyword *kw = &e->u.call.kw[k];
        int i = 0;
        while (i < np && strcmp(s->names[i], kw->name) != 0)
            i++;
        if (i == np)
            return uf__ierr(C, UF_ERR_TYPING, kw->pos, "%s() got an "
                            "unexpected keyword argument '%s'%s", fn,
                            kw->name, strcmp(kw->name, "p") == 0
                                ? " (Numba's choice takes no p)" : ""), -1;
        if (x[i] != NULL)
            return uf__ierr(C, UF_ERR_TYPING, kw->pos, "%s() got multiple "
                            "values for argument '%s'", fn, kw->name), -1;
        x[i] = kw->value;
    }
    int given = 0;
    while (given < np && x[given])
        given++;
    bool defaults = s->kinds[0] == 'a';
    for (int i = given; i < np; i++)
        if (x[i] && !defaults)
            return uf__ierr(C, UF_ERR_TYPING, x[i]->pos, "%s() takes '%s' "
                            "only after '%s' (Numba's overloads)", fn,
                            s->names[i], s->names[given]), -1;
    if (!(s->arity & (1u << given)) && !(defaults && x[0]))
        return uf__ierr(C, UF_ERR_TYPING, e->pos, "%s() does not take %d "
                        "argument%s in Numba", fn, given,
                        given == 1 ? "" : "s"), -1;
    return given;
}

/* A float64 result: a number, or an array of size's dimensions. */
static const uf__type *sized(uf__ictx *C, uf_dtype dt, int ndim)
{
    return ndim < 0 ? uf__type_scalar(C->tc, dt)
                    : uf__type_array(C->tc, dt, ndim, 'C', C->err);
}

static uf_dtype int_dtype(int bits, bool is_signed)
{
    switch (bits) {
    case 8:
        return is_signed ? UF_INT8 : UF_UINT8;
    case 16:
        return is_signed ? UF_INT16 : UF_UINT16;
    case 32:
        return is_signed ? UF_INT32 : UF_UINT32;
    default:
        return is_signed ? UF_INT64 : UF_UINT64;
    }
}

const uf__type *uf__infer_nprandom(uf__ictx *C, const uf__expr *e,
                                   uf__builtin b)
{
    uf__iinfo(C, e)->builtin = b;
    char fn[48];
    snprintf(fn, sizeof fn, "np.%s", uf__builtin_name(b) + 6);
    uf__kernel_kind kk = C->tf->decl->kind;
    if (kk == UF__K_CUDA_KERNEL || kk == UF__K_DEVICE)
        return uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->pos, "%s() draws from "
                          "the host's per-thread Mersenne Twister, which "
                          "CUDA kernels cannot reach (use numba.cuda.random)",
                          fn);
    if (b == UF__BI_NP_RANDOM_RAND || b == UF__BI_NP_RANDOM_RANDN)
        return dims_call(C, e, fn);
    const spec *s = spec_of(b);
    const uf__expr *x[4] = {NULL, NULL, NULL, NULL};
    if (bind(C, e, fn, s, x) < 0)
        return NULL;
    const uf__type *t[4] = {NULL, NULL, NULL, NULL};
    int ndim = -1;
    for (int i = 0; i < 4 && s->names[i]; i++) {
        if (!x[i])
            continue;
        OPERAND(t[i], x[i]);
        char k = s->kinds[i];
        if (k == 's') {
            if ((ndim = size_ndim(C, fn, x[i], t[i])) < -1)
                return NULL;
            continue;
        }
        bool ok = k == 'i'   ? integer(t[i])
                  : k == 'n' ? number(t[i])
                  : k == 'f' ? t[i]->kind == UF__T_SCALAR &&
                                   uf_dtype_kind(t[i]->dtype) == 'f'
                  : k == 'r' ? t[i]->kind == UF__T_SCALAR &&
                                   uf_dtype_kind(t[i]->dtype) != 'c'
                  : k == 'x' ? t[i]->kind == UF__T_ARRAY && t[i]->ndim >= 1
                  : k == 'p' ? integer(t[i]) || (t[i]->kind == UF__T_ARRAY &&
                                                 t[i]->ndim >= 1)
                  : k == 'v' ? numbers(t[i])
                             : integer(t[i]) || (t[i]->kind == UF__T_ARRAY &&
                                                 t[i]->ndim == 1);
        if (!ok) {
            static const char *const what[] = {
                "i", "an integer", "n", "an integer or a float", "f",
                "a float (Numba's overload takes no integer)", "r",
                "a bool or a number", "x", "an array of at least 1 "
                "dimension", "p", "an integer or an array of at least 1 "
                "dimension", "a", "an integer or a 1-D array", "v", "a 1-D array or a "
                "tuple of one type of integers or floats"};
            const char *w = "";
            for (size_t j = 0; j < sizeof what / sizeof *what; j += 2)
                if (what[j][0] == k)
                    w = what[j + 1];
            return uf__ierr_t(C, UF_ERR_TYPING, x[i]->pos, "%s() takes %s "
                              "as '%s', not %s", fn, w, s->names[i],
                              uf__tname(t[i]));
        }
        if (k == 'x' && t[i]->readonly)
            return uf__ierr_t(C, UF_ERR_TYPING, x[i]->pos, "%s() shuffles "
                              "in place: '%s' is a readonly array", fn,
                              s->names[i]);
    }
    const uf__type *r;
    switch (b) {
    case UF__BI_NP_RANDOM_SEED:
    case UF__BI_NP_RANDOM_SHUFFLE:
        r = uf__type_none(C->tc);
        break;
    case UF__BI_NP_RANDOM_RANDINT: {
        const uf__type *lo = t[1] ? t[0] : NULL, *hi = t[1] ? t[1] : t[0];
        int bits = (int)uf_dtype_itemsize(hi->dtype) * 8;
        bool sgn = uf_dtype_kind(hi->dtype) == 'i';
        if (lo == NULL) { /* randint(0, high): Numba's literal 0, int64 */
            bits = 64;
            sgn = true;
        } else {
            int lb = (int)uf_dtype_itemsize(lo->dtype) * 8;
            bits = lb > bits ? lb : bits;
            sgn = sgn || uf_dtype_kind(lo->dtype) == 'i';
        }
        if (bits < 32) /* Numba 0.68 emits invalid IR (trunc i8 to i32) */
            return uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->pos, "%s() of %d-bit "
                              "integers: Numba cannot compile it (its "
                              "randrange truncates to a wider type); pass "
                              "int32 or int64 bounds", fn, bits);
        r = sized(C, int_dtype(bits, ndim < 0 ? sgn : true), ndim);
        break;
    }
    case UF__BI_NP_RANDOM_PERMUTATION:
        r = t[0]->kind == UF__T_ARRAY
                ? uf__type_array(C->tc, t[0]->dtype, t[0]->ndim, 'C', C->err)
                : uf__type_array(C->tc, UF_INT64, 1, 'C', C->err);
        break;
    case UF__BI_NP_RANDOM_CHOICE:
        r = sized(C, t[0]->kind == UF__T_ARRAY ? t[0]->dtype : UF_INT64,
                  ndim);
        break;
    case UF__BI_NP_RANDOM_BINOMIAL: /* a number: Numba unifies 0 and n,
                                       uint64 n and int64 0 as float64 */
        r = sized(C,
                  ndim < 0 && t[0]->dtype == UF_UINT64 ? UF_FLOAT64
                                                        : UF_INT64,
                  ndim);
        break;
    case UF__BI_NP_RANDOM_POISSON:
    case UF__BI_NP_RANDOM_GEOMETRIC:
    case UF__BI_NP_RANDOM_NEGATIVE_BINOMIAL:
    case UF__BI_NP_RANDOM_HYPERGEOMETRIC:
    case UF__BI_NP_RANDOM_LOGSERIES:
    case UF__BI_NP_RANDOM_ZIPF:
        r = sized(C, UF_INT64, ndim);
        break;
    case UF__BI_NP_RANDOM_MULTINOMIAL: /* size's dimensions + len(pvals) */
    case UF__BI_NP_RANDOM_DIRICHLET:
        if (ndim + 1 > UF_MAXDIMS)
            return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "%s(): at most %d "
                              "dimensions", fn, UF_MAXDIMS);
        r = uf__type_array(C->tc,
                           b == UF__BI_NP_RANDOM_DIRICHLET ? UF_FLOAT64
                                                           : UF_INT64,
                           ndim < 0 ? 1 : ndim + 1, 'C', C->err);
        break;
    default:
        r = sized(C, UF_FLOAT64, ndim);
    }
    return r ? uf__iset(C, e, r) : uf__ioom(C);
}
