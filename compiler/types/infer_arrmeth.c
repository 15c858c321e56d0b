/* Typing of the NumPy functions and array methods that copy, reshape,
 * fill, accumulate, sort, search and round arrays (builtins.h:
 * UF__ARRMETH_MAP), as Numba types them (numba/np/arrayobj.py,
 * arraymath.py, core/typing/arraydecl.py):
 *   a.copy() C; np.copy(a) F for an F array, else C; a.astype(dt) and
 *   np.round(a) the same (F stays F); a.flatten(), np.cumsum(a),
 *   np.cumprod(a) 1-D C copies (np.cumsum(a, axis=k) keeps a's shape,
 *   lower_npcumsum.c); a.ravel() a 1-D view of a C array, else a
 *   copy; a.reshape(...) a view of a C or F array (an 'A' array is a
 *   TypingError, as in Numba); np.sort(a) a C copy sorted along the last
 *   axis; a.sort() in place; np.argsort(a) of a 1-D array (complex
 *   numbers in NumPy's order); a.fill(v);
 *   np.searchsorted(a, v, side=) of a 1-D array (an int64, or an int64
 *   array of v's shape); np.round/np.around of numbers (float64, int64,
 *   complex128) and arrays (their dtype), or into out= (out's type);
 *   np.cumsum(x) of a number: x in the sum's accumulator dtype.
 * Everything here but np.round of a number allocates or calls the host
 * runtime: CUDA kernels refuse it at the call, as they refuse np.empty. */
#include <stdio.h>
#include <string.h>

#include "compiler/types/infer_internal.h"
#include "compiler/types/infer_npreduce.h"

#define OPERAND(var, expr)                                                  \
    do {                                                                    \
        (var) = uf__infer_expr(C, (expr));                                  \
        if ((var) == NULL || (var) == UF__UNKNOWN)                          \
            return (var);                                                   \
    } while (0)

/* a.flat (array_members.c's table; the methods a.copy ... are typed at
 * their calls, uf__infer_arrmeth). */
const uf__type *uf__infer_arrmeth_attr(uf__ictx *C, const uf__expr *e,
                                       const uf__type *base,
                                       uf__expr_info *in, uf__builtin b)
{
    if (b != UF__BI_ATTR_FLAT)
        return uf__ierr_t(C, UF_ERR_INTERNAL, e->pos, "no typer for array "
                          "attribute '%s'", e->u.attr.attr);
    /* a C (or 1-D) array: a 1-D view, so iteration and indexing in C
     * order are those of any 1-D array; any other order: an iterator
     * type that only counts, indexes and stores (uf__infer_flat_index,
     * lower_flat.c), as Numba's flat iterator walks such arrays */
    in->builtin = UF__BI_ATTR_FLAT;
    if (base->layout != 'C' && base->ndim > 1)
        return uf__iset(C, e, uf__type_flatiter(C->tc, base, C->err));
    return uf__iset(C, e, uf__type_array_ro(C->tc, base->dtype, 1,
                                            base->layout == 'A' ? 'A' : 'C',
                                            base->readonly, C->err));
}

/* a.flat[k] of an F or strided array: the element, k one integer. */
const uf__type *uf__infer_flat_index(uf__ictx *C, const uf__expr *e,
                                     const uf__type *flat)
{
    if (e->u.subscript.nindex != 1 ||
        e->u.subscript.index[0]->kind == UF__EX_SLICE)
        return uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->pos, "%s is indexed "
                          "with one integer in kernels (no slices)",
                          uf__tname(flat));
    const uf__expr *x = e->u.subscript.index[0];
    const uf__type *t;
    OPERAND(t, x);
    if (t->kind != UF__T_SCALAR || !uf__type_is_int(t))
        return uf__ierr_t(C, UF_ERR_TYPING, x->pos, "%s is indexed with an "
                          "integer, not %s", uf__tname(flat), uf__tname(t));
    return uf__iset(C, e, uf__type_scalar(C->tc, flat->dtype));
}

/* One call being typed: its receiver (the array of a method call, else
 * the first argument) and the expressions of the parameters after it. */
typedef struct mcall {
    uf__ictx *C;
    const uf__expr *e;
    uf__builtin b;
    bool method;
    char name[48]; /* "array.sort" or "np.sort" */
    const uf__expr *recv;
} mcall;

/* Binds the arguments after the receiver to names[0..n) into x[] (NULL
 * when absent); extra positionals and unknown keywords are TypingErrors. */
static int bind(mcall *m, const char *const *names, int n,
                const uf__expr **x)
{
    const uf__expr *e = m->e;
    int skip = m->method ? 0 : 1;
    int npos = e->u.call.nargs - skip;
    if (npos > n)
        return uf__ierr(m->C, UF_ERR_TYPING, e->pos, "%s() takes at most "
                        "%d arguments (%d given)", m->name, n + skip,
                        e->u.call.nargs);
    for (int i = 0; i < n; i++)
        x[i] = i < npos ? e->u.call.args[skip + i] : NULL;
    for (int k = 0; k < e->u.call.nkw; k++) {
        const uf__keyword *kw = &e->u.call.kw[k];
        int i = 0;
        while (i < n && strcmp(names[i], kw->name) != 0)
            i++;
        if (i == n || x[i] != NULL)
            return uf__ierr(m->C, UF_ERR_TYPING, kw->pos, "%s() got %s "
                            "keyword argument '%s'", m->name,
                            i == n ? "an unexpected" : "a repeated",
                            kw->name);
        x[i] = kw->value;
    }
    return 0;
}

static const uf__type *arr(mcall *m, uf_dtype dt, int nd, char layout)
{
    return uf__type_array(m->C->tc, dt, nd, layout, m->C->err);
}

static const uf__type *refuse(mcall *m, const uf__expr *at, int code,
                              const char *why, const uf__type *t)
{
    return uf__ierr_t(m->C, code, at->pos, "%s() %s, not %s", m->name, why,
                      uf__tname(t));
}

/* a.reshape(2, 3), a.reshape((2, 3)), np.reshape(a, 6): the new ndim. */
static const uf__type *type_reshape(mcall *m, const uf__type *a)
{
    uf__ictx *C = m->C;
    const uf__expr *e = m->e;
    int skip = m->method ? 0 : 1;
    int n = e->u.call.nargs - skip;
    if (e->u.call.nkw > 0)
        return uf__ierr_t(C, UF_ERR_TYPING, e->u.call.kw[0].pos, "%s() takes "
                          "no keyword arguments in kernels", m->name);
    if (n < 1 || (!m->method && n != 1))
        return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "%s() needs the new "
                          "shape: integers or one tuple of integers",
                          m->name);
    if (a->layout == 'A')
        return refuse(m, m->recv, UF_ERR_TYPING, "reshapes only contiguous "
                      "arrays (as Numba): copy the array first", a);
    int nd = 0;
    for (int i = 0; i < n; i++) {
        const uf__expr *x = e->u.call.args[skip + i];
        const uf__type *t;
        OPERAND(t, x);
        if (n == 1 && t->kind == UF__T_TUPLE) {
            for (int k = 0; k < t->n; k++)
                if (!uf__type_is_int(t->elts[k]))
                    return refuse(m, x, UF_ERR_TYPING, "takes a shape of "
                                  "integers", t);
            nd = t->n;
        } else if (uf__type_is_int(t)) {
            nd++;
        } else {
            return refuse(m, x, UF_ERR_TYPING, "takes a shape of integers",
                          t);
        }
    }
    if (nd > UF_MAXDIMS)
        return uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->pos, "%s(): more than "
                          "%d dimensions", m->name, UF_MAXDIMS);
    return uf__type_array_ro(C->tc, a->dtype, nd, 'C', a->readonly, C->err);
}

/* np.searchsorted(a, v, side='left'). */
static const uf__type *type_searchsorted(mcall *m, const uf__type *a)
{
    uf__ictx *C = m->C;
    static const char *const names[] = {"v", "side"};
    const uf__expr *x[2];
    if (bind(m, names, 2, x) != 0)
        return NULL;
    if (a->ndim != 1)
        return refuse(m, m->recv, UF_ERR_TYPING, "searches a 1-D array",
                      a);
    if (x[0] == NULL)
        return uf__ierr_t(m->C, UF_ERR_TYPING, m->e->pos, "%s() missing "
                          "required argument 'v'", m->name);
    const char *side = "left";
    int r = x[1] != NULL ? uf__infer_strlit(m->C, x[1], &side) : 1;
    if (r < 0)
        return NULL;
    if (r == 0 || (strcmp(side, "left") != 0 && strcmp(side, "right") != 0))
        return uf__ierr_t(m->C, UF_ERR_TYPING, x[1]->pos, "%s(): side must "
                          "be the literal 'left' or 'right'", m->name);
    const uf__type *v;
    OPERAND(v, x[0]);
    if (v->kind != UF__T_SCALAR && v->kind != UF__T_ARRAY)
        return refuse(m, x[0], UF_ERR_TYPING, "searches for numbers or an "
                      "array of them", v);
    if (v->kind == UF__T_SCALAR)
        return uf__type_scalar(m->C->tc, UF_INT64);
    return arr(m, UF_INT64, v->ndim, 'C');
}

/* np.round(a, decimals, out) (Numba: an array a rounded element by
 * element into out of the same shape, a number into out[0]): out
 * itself, in its dtype. */
static const uf__type *round_out(mcall *m, const uf__type *a,
                                 const uf__type *out, const uf__expr *ox)
{
    uf__kernel_kind k = m->C->tf->decl->kind;
    if (k == UF__K_CUDA_KERNEL || k == UF__K_DEVICE)
        return uf__ierr_t(m->C, UF_ERR_UNSUPPORTED, ox->pos, "%s(out=) is "
                          "not supported in CUDA kernels: assign the result",
                          m->name);
    if (out->readonly)
        return refuse(m, ox, UF_ERR_TYPING, "writes into a writable out", out);
    if (uf_dtype_kind(a->dtype) == 'c' && uf_dtype_kind(out->dtype) != 'c')
        return refuse(m, ox, UF_ERR_TYPING, "of complex numbers needs a "
                      "complex out", out);
    if (a->kind == UF__T_ARRAY && a->ndim != out->ndim)
        return refuse(m, ox, UF_ERR_TYPING, "needs an out of the array's "
                      "number of dimensions", out);
    if (a->kind == UF__T_SCALAR && out->ndim == 0)
        return refuse(m, ox, UF_ERR_TYPING, "of a number stores out[0]: "
                      "out cannot be 0-d", out);
    return out;
}

/* np.round(a, decimals=0): numbers as Numba's scalar implementation
 * unifies its branches (float64, int64 -- uint64 with int64 is float64 --
 * complex128), arrays keep their dtype. */
static const uf__type *type_round(mcall *m, const uf__type *a)
{
    uf__ictx *C = m->C;
    static const char *const names[] = {"decimals", "out"};
    const uf__expr *x[2];
    if (bind(m, names, 2, x) != 0)
        return NULL;
    const uf__type *out = NULL;
    if (x[1] != NULL) {
        OPERAND(out, x[1]);
        if (out->kind == UF__T_NONE)
            out = NULL;
        else if (out->kind != UF__T_ARRAY)
            return uf__ierr_t(C, UF_ERR_TYPING, x[1]->pos, "%s", "The "
                              "argument \"out\" must be an array if it is "
                              "provided");
    }
    if (x[0] != NULL) {
        const uf__type *d;
        OPERAND(d, x[0]);
        if (!uf__type_is_int(d))
            return refuse(m, x[0], UF_ERR_TYPING, "takes an integer number "
                          "of decimals", d);
    }
    if ((a->kind != UF__T_SCALAR && a->kind != UF__T_ARRAY) ||
        a->dtype == UF_BOOL)
        return refuse(m, m->recv, UF_ERR_TYPING, "rounds numbers and "
                      "arrays of numbers (not booleans)", a);
    if (out != NULL)
        return round_out(m, a, out, x[1]);
    if (a->kind == UF__T_ARRAY)
        return arr(m, a->dtype, a->ndim, a->layout == 'F' ? 'F' : 'C');
    switch (uf_dtype_kind(a->dtype)) {
    case 'c':
        return uf__type_scalar(m->C->tc, UF_COMPLEX128);
    case 'f':
        return uf__type_scalar(m->C->tc, UF_FLOAT64);
    default:
        return uf__type_scalar(m->C->tc, a->dtype == UF_UINT64 ? UF_FLOAT64
                                                               : UF_INT64);
    }
}

static const uf__type *type_fill(mcall *m, const uf__type *a)
{
    uf__ictx *C = m->C;
    static const char *const names[] = {"value"};
    const uf__expr *x[1];
    if (bind(m, names, 1, x) != 0)
        return NULL;
    if (x[0] == NULL)
        return uf__ierr_t(m->C, UF_ERR_TYPING, m->e->pos, "%s() missing "
                          "required argument 'value'", m->name);
    const uf__type *v;
    OPERAND(v, x[0]);
    if (a->ndim == 0 || a->readonly)
        return refuse(m, m->recv, UF_ERR_TYPING, "fills a writable array "
                      "of at least one dimension", a);
    if (v->kind != UF__T_SCALAR ||
        (uf_dtype_kind(v->dtype) == 'c' && uf_dtype_kind(a->dtype) != 'c'))
        return refuse(m, x[0], UF_ERR_TYPING, "takes a number that "
                      "converts to the array's dtype", v);
    return uf__type_none(m->C->tc);
}

/* np.cumsum's axis (x[0]: None, or an integer, which keeps the shape)
 * and dtype (x[1]) as Numba's array_cumsum reads them; both consumed. */
static const uf__type *cumsum_params(mcall *m, const uf__type *a,
                                     const uf__expr **x, uf_dtype *want,
                                     bool *along)
{
    uf__ictx *C = m->C;
    const uf__type *t = NULL;
    if (x[0] != NULL)
        OPERAND(t, x[0]);
    if (t != NULL && t->kind != UF__T_NONE) {
        if (!uf__type_is_int(t))
            return uf__ierr_t(C, UF_ERR_TYPING, x[0]->pos, "%s", "NumPy "
                              "cumsum only suppports integer axis value");
        if (a->kind == UF__T_ARRAY && a->ndim == 0) /* Numba fails */
            return refuse(m, m->recv, UF_ERR_TYPING, "with an axis takes "
                          "an array of at least one dimension", a);
        *along = true;
    }
    const uf__type *r = uf__infer_np_dtype_param(C, m->name, x[1], want);
    if (r == NULL || r == UF__UNKNOWN)
        return r;
    if (*want != UF_NTYPES && uf_dtype_kind(a->dtype) == 'c' &&
        uf_dtype_kind(*want) != 'c')
        return refuse(m, x[1], UF_ERR_TYPING, "cannot convert complex "
                      "numbers to dtype=", a);
    x[0] = x[1] = NULL;
    return r;
}

/* The methods and functions with no parameter but the array (kind= and
 * axis= are refused by name). */
static const uf__type *type_plain(mcall *m, const uf__type *a)
{
    uf__builtin b = m->b;
    static const char *const cum[] = {"axis", "dtype"}, *const srt[] = {
        "kind"};
    bool sorts = b == UF__BI_NP_SORT || b == UF__BI_METH_SORT ||
                 b == UF__BI_NP_ARGSORT;
    const char *const *nm = b == UF__BI_NP_CUMSUM ? cum : srt;
    int n = b == UF__BI_NP_CUMSUM ? 2 : sorts ? 1 : 0;
    const uf__expr *x[2];
    if (bind(m, nm, n, x) != 0)
        return NULL;
    /* a.sort() and argsort take Numba's kinds (every one of ours gives
     * the same values; argsort is stable whichever is asked) */
    if (sorts && b != UF__BI_NP_SORT && x[0] != NULL) {
        const char *k = "";
        if (uf__infer_strlit(m->C, x[0], &k) < 0)
            return NULL;
        if (strcmp(k, "quicksort") != 0 && strcmp(k, "mergesort") != 0 &&
            strcmp(k, "stable") != 0)
            return uf__ierr_t(m->C, UF_ERR_TYPING, x[0]->pos, "%s(): kind "
                              "must be the literal 'quicksort', "
                              "'mergesort' or 'stable'", m->name);
        x[0] = NULL;
    }
    uf_dtype want = UF_NTYPES; /* cumsum's dtype= and axis= */
    bool along = false;
    if (b == UF__BI_NP_CUMSUM) {
        const uf__type *r = cumsum_params(m, a, x, &want, &along);
        if (r == NULL || r == UF__UNKNOWN)
            return r;
    }
    for (int i = 0; i < n; i++)
        if (x[i] != NULL)
            return uf__ierr_t(m->C, b == UF__BI_NP_SORT ? UF_ERR_TYPING
                                                        : UF_ERR_UNSUPPORTED,
                              x[i]->pos, "%s(%s=) is not supported in "
                              "kernels", m->name, nm[i]);
    switch (b) {
    case UF__BI_NP_COPY:
        return arr(m, a->dtype, a->ndim, a->layout == 'F' ? 'F' : 'C');
    case UF__BI_METH_COPY:
        return arr(m, a->dtype, a->ndim, 'C');
    case UF__BI_NP_RAVEL: /* a view of a C array */
        return uf__type_array_ro(m->C->tc, a->dtype, 1, 'C',
                                 a->readonly && a->layout == 'C', m->C->err);
    case UF__BI_METH_FLATTEN:
        return arr(m, a->dtype, 1, 'C');
    case UF__BI_NP_CUMSUM:
    case UF__BI_NP_CUMPROD: {
        uf_dtype acc, res;
        uf__npreduce_dtypes(b == UF__BI_NP_CUMSUM ? UF__BI_NP_SUM
                                                  : UF__BI_NP_PROD,
                            a->dtype, &acc, &res);
        if (want != UF_NTYPES)
            res = want;
        /* np.cumsum(x) of a number: the number in the accumulator's dtype
         * (Numba's make_scalar_reduction_impl_axis), whatever the axis */
        if (a->kind == UF__T_SCALAR)
            return uf__type_scalar(m->C->tc, res);
        return arr(m, res, along ? a->ndim : 1, 'C');
    }
    case UF__BI_NP_SORT:
    case UF__BI_METH_SORT:
        if (a->ndim == 0)
            return refuse(m, m->recv, UF_ERR_TYPING, "sorts arrays of at "
                          "least one dimension", a);
        if (b == UF__BI_METH_SORT && a->readonly)
            return refuse(m, m->recv, UF_ERR_TYPING, "sorts a writable "
                          "array", a);
        return b == UF__BI_NP_SORT ? arr(m, a->dtype, a->ndim, 'C')
                                   : uf__type_none(m->C->tc);
    default: /* argsort */
        if (a->ndim != 1)
            return refuse(m, m->recv, UF_ERR_TYPING, "sorts 1-D arrays", a);
        return arr(m, UF_INT64, 1, 'C');
    }
}

static const uf__type *type_astype(mcall *m, const uf__type *a)
{
    static const char *const names[] = {"dtype"};
    const uf__expr *x[1];
    if (bind(m, names, 1, x) != 0)
        return NULL;
    if (x[0] == NULL)
        return uf__ierr_t(m->C, UF_ERR_TYPING, m->e->pos, "%s() missing "
                          "required argument 'dtype'", m->name);
    uf_dtype dt;
    const uf__type *r = uf__infer_dtype_arg(m->C, m->name, x[0], &dt);
    if (r == NULL || r == UF__UNKNOWN)
        return r;
    if (dt == UF_NTYPES)
        return refuse(m, x[0], UF_ERR_TYPING, "takes a dtype", r);
    return arr(m, dt, a->ndim, a->layout == 'F' ? 'F' : 'C');
}

const uf__type *uf__infer_arrmeth(uf__ictx *C, const uf__expr *e,
                                  uf__builtin b)
{
    uf__expr_info *in = uf__iinfo(C, e);
    in->builtin = b;
    mcall m = {.C = C, .e = e, .b = b};
    const uf__expr *f = e->u.call.func;
    if (f->kind == UF__EX_ATTR) {
        const uf__type *rt = uf__iinfo(C, f->u.attr.value)->type;
        m.method = rt && rt->kind == UF__T_ARRAY;
    }
    const char *q = uf__builtin_name(b);
    snprintf(m.name, sizeof m.name, "%s%s", m.method ? "array." : "np.",
             strchr(q, '.') + 1);
    if (m.method) {
        m.recv = f->u.attr.value;
    } else if (e->u.call.nargs > 0) {
        m.recv = e->u.call.args[0];
    } else {
        m.recv = uf__call_arg(e, -1, "a");
        if (m.recv == NULL)
            return uf__ierr_t(C, UF_ERR_TYPING, e->pos, "%s() missing "
                              "required argument 'a'", m.name);
        return uf__ierr_t(C, UF_ERR_UNSUPPORTED, m.recv->pos, "%s(a=) is "
                          "not supported in kernels: pass the array first",
                          m.name);
    }
    const uf__type *a;
    OPERAND(a, m.recv);
    /* np.cumsum of a number is the number (np.cumprod's is refused, as
     * Numba has no such overload) */
    bool number_ok = b == UF__BI_NP_ROUND || b == UF__BI_NP_AROUND ||
                     (b == UF__BI_NP_CUMSUM && !m.method);
    uf__kernel_kind k = C->tf->decl->kind;
    if ((k == UF__K_CUDA_KERNEL || k == UF__K_DEVICE) &&
        !(number_ok && a->kind == UF__T_SCALAR))
        return uf__ierr_t(C, UF_ERR_UNSUPPORTED, e->pos, "%s() allocates "
                          "an array or calls the host runtime, which CUDA "
                          "kernels cannot do", m.name);
    if (a->kind != UF__T_ARRAY &&
        (!number_ok || (b == UF__BI_NP_CUMSUM && a->kind != UF__T_SCALAR)))
        return refuse(&m, m.recv, UF_ERR_TYPING, "takes an array", a);
    const uf__type *r;
    switch (b) {
    case UF__BI_NP_RESHAPE:
        r = type_reshape(&m, a);
        break;
    case UF__BI_NP_SEARCHSORTED:
        r = type_searchsorted(&m, a);
        break;
    case UF__BI_NP_ROUND:
    case UF__BI_NP_AROUND:
        r = type_round(&m, a);
        break;
    case UF__BI_METH_FILL:
        r = type_fill(&m, a);
        break;
    case UF__BI_METH_ASTYPE:
        r = type_astype(&m, a);
        break;
    default:
        r = type_plain(&m, a);
        break;
    }
    return r && r != UF__UNKNOWN ? uf__iset(C, e, r) : r;
}
