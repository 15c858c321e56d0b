/* Typing of np.histogram, np.cov and np.corrcoef (builtins.h:
 * UF__NPSTATS_MAP), as Numba 0.68 types them (numba/np/arraymath.py
 * np_histogram, np_cov, np_corrcoef). np.histogram:
 *   np.histogram(a, bins=10, range=None): a an array of any dimensions
 *   (0-d too) or a number, of bool, integers or floats; bins an integer
 *   (not bool) or a 1-D array of edges; range None or a tuple of two
 *   numbers (Numba ignores it with edges). The result is the tuple
 *   (int64 counts, float64 np.linspace edges), or with an array of edges
 *   (int64 counts, that array itself).
 * Complex a, bins or range are TypingErrors, as in Numba, and so are a
 * float or bool bins. Refused where Numba compiles them: bins a tuple
 * (Numba returns the tuple as the edges: write np.array(...)), edges of
 * two or more dimensions (Numba fails at run time), range an array of
 * two numbers (write a tuple); and a bool number as a, which Numba fails
 * to lower (an internal TypeError).
 * np.cov(m, y, rowvar, bias, ddof) and np.corrcoef(x, y, rowvar): m and y
 * arrays of at most 2 dimensions (numbers and tuples, which Numba takes,
 * are refused: write np.array); ddof None, bool, an integer or a float
 * (not with a 1-D m alone, as in Numba); see cov() for the result. The
 * runtime is on the host: CUDA kernels and device functions refuse these
 * at the call. */
#include <string.h>

#include "compiler/types/infer_internal.h"

#define OPERAND(var, expr)                                                  \
    do {                                                                    \
        (var) = uf__infer_expr(C, (expr));                                  \
        if ((var) == NULL || (var) == UF__UNKNOWN)                          \
            return (var);                                                   \
    } while (0)

static bool real_scalar(const uf__type *t)
{
    return t->kind == UF__T_SCALAR && uf_dtype_kind(t->dtype) != 'c';
}

/* The arguments by position or by name; x[i] NULL when left out. */
static int bind(uf__ictx *C, const uf__expr *e, const char *fn,
                const char *const *names, int np, int nreq,
                const uf__expr **x)
{
    if (e->u.call.nargs > np)
        return uf__ierr(C, UF_ERR_TYPING, e->u.call.args[np]->pos, "%s() "
                        "takes at most %d positional arguments in Numba",
                        fn, np);
    for (int i = 0; i < np; i++)
        x[i] = i < e->u.call.nargs ? e->u.call.args[i] : NULL;
    for (int k = 0; k < e->u.call.nkw; k++) {
        const uf__keyword *kw = &e->u.call.kw[k];
        int i = 0;
        while (i < np && strcmp(names[i], kw->name) != 0)
            i++;
        if (i == np)
            return uf__ierr(C, UF_ERR_TYPING, kw->pos, "%s() got an "
                            "unexpected keyword argument '%s' (Numba's "
                            "takes no others)", fn, kw->name);
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

static const uf__type *histogram(uf__ictx *C, const uf__expr *e)
{
    static const char *const names[] = {"a", "bins", "range"};
    const uf__expr *x[3];
    if (bind(C, e, "np.histogram", names, 3, 1, x) != 0)
        return NULL;
    const uf__type *a, *bins = NULL, *range = NULL;
    OPERAND(a, x[0]);
    if (!(a->kind == UF__T_ARRAY || a->kind == UF__T_SCALAR) ||
        uf_dtype_kind(a->dtype) == 'c')
        return uf__ierr_t(C, UF_ERR_TYPING, x[0]->pos, "np.histogram() "
                          "takes an array or a number of bool, integers or "
                          "floats as 'a', not %s (Numba compares its "
                          "elements)", uf__tname(a));
    if (a->kind == UF__T_SCALAR && a->dtype == UF_BOOL)
        return uf__ierr_t(C, UF_ERR_TYPING, x[0]->pos, "np.histogram() of "
                          "a bool number: Numba's np.nditer cannot lower it "
                          "(pass an array)");
    if (x[1] != NULL) {
        OPERAND(bins, x[1]);
        bool count = bins->kind == UF__T_SCALAR &&
                     strchr("iu", uf_dtype_kind(bins->dtype)) != NULL;
        bool edges = bins->kind == UF__T_ARRAY && bins->ndim == 1 &&
                     uf_dtype_kind(bins->dtype) != 'c';
        if (!count && !edges)
            return uf__ierr_t(C, UF_ERR_TYPING, x[1]->pos, "np.histogram() "
                              "takes an integer or a 1-D array of real "
                              "edges as 'bins', not %s%s", uf__tname(bins),
                              bins->kind == UF__T_TUPLE
                                  ? " (write np.array(...) for edges)"
                                  : "");
    }
    if (x[2] != NULL) {
        OPERAND(range, x[2]);
        bool ok = range->kind == UF__T_NONE ||
                  (range->kind == UF__T_TUPLE && range->n == 2 &&
                   real_scalar(range->elts[0]) &&
                   real_scalar(range->elts[1]));
        if (!ok)
            return uf__ierr_t(C, UF_ERR_TYPING, x[2]->pos, "np.histogram() "
                              "takes None or a tuple (min, max) of two real "
                              "numbers as 'range', not %s", uf__tname(range));
    }
    const uf__type *el[2];
    el[0] = uf__type_array(C->tc, UF_INT64, 1, 'C', C->err);
    el[1] = bins != NULL && bins->kind == UF__T_ARRAY
                ? bins
                : uf__type_array(C->tc, UF_FLOAT64, 1, 'C', C->err);
    const uf__type *r = el[0] && el[1] ? uf__type_tuple(C->tc, 2, el, C->err)
                                       : NULL;
    return r ? uf__iset(C, e, r) : uf__ioom(C);
}

/* m / x or y of np.cov, np.corrcoef: an array of at most 2 dimensions. */
static bool cov_operand(uf__ictx *C, const char *fn, const uf__expr *x,
                        const char *name, const uf__type *t)
{
    if (t->kind == UF__T_ARRAY && t->ndim <= 2)
        return true;
    if (t->kind == UF__T_ARRAY)
        uf__ierr(C, UF_ERR_TYPING, x->pos, "%s(): %s has more than 2 "
                 "dimensions", fn, name);
    else
        uf__ierr(C, UF_ERR_TYPING, x->pos, "%s() takes an array of at most "
                 "2 dimensions as '%s', not %s (ufjit: numbers and tuples "
                 "are not taken here, write np.array(...))", fn, name,
                 uf__tname(t));
    return false;
}

static bool flag_scalar(const uf__type *t)
{
    return t->kind == UF__T_SCALAR && uf_dtype_kind(t->dtype) != 'c';
}

/* np.cov(m, y=None, rowvar=True, bias=False, ddof=None) and
 * np.corrcoef(x, y=None, rowvar=True): float64 or, when m or y is
 * complex, complex128; a 1-D m without y gives a 0-d array (np.cov) or a
 * number (np.corrcoef), anything else a new C-order (n, n) array. */
static const uf__type *cov(uf__ictx *C, const uf__expr *e, bool corr)
{
    static const char *const cnames[] = {"m", "y", "rowvar", "bias", "ddof"};
    static const char *const rnames[] = {"x", "y", "rowvar"};
    const char *fn = corr ? "np.corrcoef" : "np.cov";
    const uf__expr *x[5] = {NULL, NULL, NULL, NULL, NULL};
    if (bind(C, e, fn, corr ? rnames : cnames, corr ? 3 : 5, 1, x) != 0)
        return NULL;
    const uf__type *t[5] = {NULL, NULL, NULL, NULL, NULL};
    for (int i = 0; i < 5; i++)
        if (x[i] != NULL)
            OPERAND(t[i], x[i]);
    if (!cov_operand(C, fn, x[0], corr ? "x" : "m", t[0]))
        return NULL;
    bool has_y = t[1] != NULL && t[1]->kind != UF__T_NONE;
    if (has_y && !cov_operand(C, fn, x[1], "y", t[1]))
        return NULL;
    for (int i = 2; i < 4; i++)
        if (t[i] != NULL && !flag_scalar(t[i]))
            return uf__ierr_t(C, UF_ERR_TYPING, x[i]->pos, "%s() takes a "
                              "bool or a number as '%s', not %s", fn,
                              cnames[i], uf__tname(t[i]));
    bool scalar = t[0]->ndim == 1 && !has_y;
    if (t[4] != NULL && t[4]->kind != UF__T_NONE) {
        char k = t[4]->kind == UF__T_SCALAR ? uf_dtype_kind(t[4]->dtype) : 0;
        if (k != 'b' && k != 'i' && k != 'u' && k != 'f')
            return uf__ierr_t(C, UF_ERR_TYPING, x[4]->pos, "ddof must be a "
                              "real numerical scalar type");
        if (k == 'f' && scalar)
            return uf__ierr_t(C, UF_ERR_TYPING, x[4]->pos, "np.cov() of a "
                              "1-D m takes no float ddof in Numba (its "
                              "single-variable path passes the dtype to the "
                              "ddof check): write an integer");
    }
    bool cx = uf_dtype_kind(t[0]->dtype) == 'c' ||
              (has_y && uf_dtype_kind(t[1]->dtype) == 'c');
    uf_dtype dt = cx ? UF_COMPLEX128 : UF_FLOAT64;
    const uf__type *r = scalar && corr ? uf__type_scalar(C->tc, dt)
                        : scalar       ? uf__type_array(C->tc, dt, 0, 'C',
                                                        C->err)
                                 : uf__type_array(C->tc, dt, 2, 'C', C->err);
    return r ? uf__iset(C, e, r) : uf__ioom(C);
}

const uf__type *uf__infer_npstats(uf__ictx *C, const uf__expr *e,
                                  uf__builtin b)
{
    uf__iinfo(C, e)->builtin = b;
    uf__kernel_kind k = C->tf->decl->kind;
    if (k == UF__K_CUDA_KERNEL || k == UF__K_DEVICE)
        return uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->pos, "np.%s() runs in "
                          "the host runtime, which CUDA kernels cannot "
                          "call", uf__builtin_name(b) + 6);
    if (b == UF__BI_NP_HISTOGRAM)
        return histogram(C, e);
    return cov(C, e, b == UF__BI_NP_CORRCOEF);
}
