/* Module-level arrays: `A = np.array([[1, 2], [3, 4]], dtype=np.float32)`
 * and the few other constructors kernel files use for tables, built when
 * the file is scanned, with NumPy's values bit for bit (ndarray/'s
 * arange, linspace and casts are NumPy's arithmetic; element arithmetic
 * is the constant folder's, whose NumPy-scalar rules are the array rules
 * under NEP 50). Numba freezes such a global into the compiled code as a
 * readonly array; so does ufjit (lower_garray.c).
 *
 * Supported: np.array(nested lists/tuples of numbers, dtype=),
 * np.arange(1-3 args, dtype=), np.zeros/ones/empty(shape, dtype=),
 * np.full(shape, fill, dtype=), np.linspace(a, b, num, endpoint=,
 * dtype=), np.eye(N, M, k, dtype=), .astype(dt), .reshape(...), .copy(),
 * unary - and +, and + - * / ** with a number or another such array
 * (broadcast). Everything else is refused at its position. */
#include <math.h>
#include <string.h>

#include <ufjit/array.h>

#include "common/alloc.h"
#include "compiler/front/consteval_internal.h"
#include "compiler/front/kmodule.h"

/* Arrays are embedded in the generated code: keep them table-sized. */
#define GARRAY_MAX_BYTES ((size_t)16 << 20)

#define SUPPORTED                                                           \
    "module-level arrays are built with np.array, np.arange, np.zeros, "   \
    "np.ones, np.empty, np.full, np.linspace, np.eye, .astype, .reshape, " \
    ".copy and + - * / ** with numbers or other such arrays"

static const char *const constructors[] = {
    "array", "arange", "zeros", "ones", "empty", "full", "linspace", "eye",
};
static const char *const methods[] = {"astype", "reshape", "copy"};

typedef struct actx {
    ev E; /* the folder's state: km, weak flags, err */
} actx;

#define KM(A) ((A)->E.env->km)

/* An error of ndarray/ (no position) moved to `at` in the kernel file. */
static void place(actx *A, const uf__expr *at)
{
    char msg[sizeof A->E.err->message];
    int code = A->E.err->code ? A->E.err->code : UF_ERR_VALUE;
    memcpy(msg, A->E.err->message, sizeof msg);
    uf__source_error(A->E.err, code, KM(A)->src, at->pos, "%s", msg);
}

bool uf__kmodule_array_listing_at(int i, const char **name, bool *method)
{
    int nc = (int)(sizeof constructors / sizeof *constructors);
    int nm = (int)(sizeof methods / sizeof *methods);
    if (i < 0 || i >= nc + nm)
        return false;
    *method = i >= nc;
    *name = *method ? methods[i - nc] : constructors[i];
    return true;
}

static bool listed(const char *const *list, size_t n, const char *s)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(list[i], s) == 0)
            return true;
    return false;
}

/* np.NAME in `f` (a call's function): NAME, or NULL. */
static const char *numpy_func(const uf__kmodule *km, const uf__expr *f)
{
    if (f->kind != UF__EX_ATTR || f->u.attr.value->kind != UF__EX_NAME)
        return NULL;
    const uf__global *g = uf__kmodule_global(km, f->u.attr.value->u.name.id);
    if (g == NULL || g->kind != UF__G_MODULE || strcmp(g->module, "numpy"))
        return NULL;
    return f->u.attr.attr;
}

bool uf__kmodule_is_array_expr(const uf__kmodule *km, const uf__expr *e)
{
    switch (e->kind) {
    case UF__EX_NAME: {
        const uf__global *g = uf__kmodule_global(km, e->u.name.id);
        return g != NULL && g->kind == UF__G_ARRAY;
    }
    case UF__EX_CALL: {
        const uf__expr *f = e->u.call.func;
        const char *np = numpy_func(km, f);
        if (np != NULL) { /* a constructor, or a function of an array */
            if (listed(constructors, sizeof constructors / sizeof
                       *constructors, np))
                return true;
            for (int i = 0; i < e->u.call.nargs; i++)
                if (uf__kmodule_is_array_expr(km, e->u.call.args[i]))
                    return true;
            return false;
        }
        return f->kind == UF__EX_ATTR &&
               uf__kmodule_is_array_expr(km, f->u.attr.value);
    }
    case UF__EX_ATTR:
    case UF__EX_SUBSCRIPT:
        return uf__kmodule_is_array_expr(km, e->u.attr.value);
    case UF__EX_UNARY:
        return uf__kmodule_is_array_expr(km, e->u.unary.operand);
    case UF__EX_BINARY:
        return uf__kmodule_is_array_expr(km, e->u.binary.left) ||
               uf__kmodule_is_array_expr(km, e->u.binary.right);
    default:
        return false;
    }
}

/* ---- arguments ------------------------------------------------------------ */

static const uf__expr *arg(const uf__expr *e, int pos, const char *name)
{
    if (pos >= 0 && pos < e->u.call.nargs)
        return e->u.call.args[pos];
    for (int i = 0; i < e->u.call.nkw; i++)
        if (strcmp(e->u.call.kw[i].name, name) == 0)
            return e->u.call.kw[i].value;
    return NULL;
}

/* Refuses positional arguments past `maxpos` and keywords not in `kws`. */
static int check_args(actx *A, const uf__expr *e, const char *fn, int maxpos,
                      const char *const *kws, size_t nkws)
{
    if (e->u.call.nargs > maxpos)
        return fail(&A->E, UF_ERR_UNSUPPORTED, e->u.call.args[maxpos],
                    "%s() takes at most %d positional arguments here", fn,
                    maxpos);
    for (int i = 0; i < e->u.call.nkw; i++)
        if (!listed(kws, nkws, e->u.call.kw[i].name))
            return uf__source_error(A->E.err, UF_ERR_UNSUPPORTED, KM(A)->src,
                                    e->u.call.kw[i].pos, "%s(): keyword "
                                    "'%s' is not supported at module level",
                                    fn, e->u.call.kw[i].name);
    return 0;
}

static int scalar(actx *A, const uf__expr *e, uf__cval *v)
{
    return uf__consteval(A->E.env, e, v, A->E.err);
}

static bool dtype_supported(uf_dtype d)
{
    return uf_dtype_valid((int)d);
}

/* dtype=: np.float32, float32 (from numba), int/float/bool/complex, a
 * string ('float32'). NULL expression or None: *has false. */
static int dtype_arg(actx *A, const uf__expr *x, uf_dtype *out, bool *has)
{
    *has = false;
    if (x == NULL || x->kind == UF__EX_NONE)
        return 0;
    const uf__kmodule *km = KM(A);
    bool ok = false;
    if (x->kind == UF__EX_NAME) {
        const uf__global *g = uf__kmodule_global(km, x->u.name.id);
        if (g != NULL && g->kind == UF__G_DTYPE && g->dtype != UF_NTYPES) {
            *out = g->dtype;
            ok = true;
        } else if (g == NULL) {
            static const char *const py[] = {"int", "float", "bool",
                                             "complex"};
            static const uf_dtype pyd[] = {UF_INT64, UF_FLOAT64, UF_BOOL,
                                           UF_COMPLEX128};
            for (int i = 0; i < 4 && !ok; i++)
                if (strcmp(py[i], x->u.name.id) == 0) {
                    *out = pyd[i];
                    ok = true;
                }
        }
    } else if (x->kind == UF__EX_ATTR &&
               x->u.attr.value->kind == UF__EX_NAME) {
        const uf__global *g =
            uf__kmodule_global(km, x->u.attr.value->u.name.id);
        ok = g != NULL && g->kind == UF__G_MODULE &&
             uf__const_dtype_name(g->module, x->u.attr.attr, out);
    } else if (x->kind == UF__EX_STR) {
        uf_error ignore;
        ok = uf_dtype_from_name(x->u.str.s, out, &ignore) == 0;
    }
    if (!ok)
        return fail(&A->E, UF_ERR_UNSUPPORTED, x, "%s", "dtype= must be a "
                    "NumPy number type such as np.float32, int or "
                    "'float64'");
    if (!dtype_supported(*out))
        return fail(&A->E, UF_ERR_UNSUPPORTED, x, "dtype %s is not supported "
                    "for module-level arrays", uf_dtype_name(*out));
    *has = true;
    return 0;
}

static int int_value(actx *A, const uf__expr *x, const char *what,
                     int64_t *out)
{
    uf__cval v;
    if (scalar(A, x, &v) < 0)
        return A->E.err->code;
    uf_dtype d = dt_of(&v);
    if (!is_int(d) || (!is_signed(d) && v.c.v.u > (uint64_t)INT64_MAX))
        return fail(&A->E, UF_ERR_TYPE, x, "%s must be an integer, not %s",
                    what, uf_dtype_name(d));
    *out = is_signed(d) ? v.c.v.i : (int64_t)v.c.v.u;
    return 0;
}

/* A shape: an integer or a tuple of integers, each >= 0. */
static int shape_arg(actx *A, const uf__expr *x, int64_t *shape, int *nd)
{
    const uf__expr *const *elts = (const uf__expr *const *)&x;
    int n = 1;
    if (x->kind == UF__EX_TUPLE || x->kind == UF__EX_LIST) {
        elts = (const uf__expr *const *)x->u.seq.elts;
        n = x->u.seq.n;
    }
    if (n < 1 || n > UF_MAXDIMS)
        return fail(&A->E, UF_ERR_UNSUPPORTED, x, "a module-level array "
                    "needs 1 to %d dimensions", UF_MAXDIMS);
    for (int i = 0; i < n; i++) {
        if (int_value(A, elts[i], "a dimension", &shape[i]) < 0)
            return A->E.err->code;
        if (shape[i] < 0)
            return fail(&A->E, UF_ERR_VALUE, elts[i], "%s", "negative "
                        "dimensions are not allowed");
    }
    *nd = n;
    return 0;
}

/* ---- elements --------------------------------------------------------------- */

static uf__cval get_elem(actx *A, uf_dtype d, const char *p)
{
    uf__cval v = mk(&A->E, d, false);
    size_t sz = uf_dtype_itemsize(d);
    if (d == UF_BOOL) {
        v.c.v.b = *p != 0;
    } else if (is_int(d)) {
        uint64_t x = 0;
        memcpy(&x, p, sz); /* little-endian: the low bytes */
        set_int_wrap(&v, x);
    } else if (d == UF_FLOAT32) {
        float f;
        memcpy(&f, p, 4);
        v.c.v.f = f;
    } else if (d == UF_FLOAT64) {
        memcpy(&v.c.v.f, p, 8);
    } else if (d == UF_COMPLEX64) {
        float c[2];
        memcpy(c, p, 8);
        v.c.v.c[0] = c[0];
        v.c.v.c[1] = c[1];
    } else {
        memcpy(v.c.v.c, p, 16);
    }
    return v;
}

/* Stores v, already of dtype d. */
static void put_elem(uf_dtype d, const uf__cval *v, char *p)
{
    size_t sz = uf_dtype_itemsize(d);
    if (d == UF_BOOL) {
        *p = v->c.v.b ? 1 : 0;
    } else if (is_int(d)) {
        uint64_t x = is_signed(d) ? (uint64_t)v->c.v.i : v->c.v.u;
        memcpy(p, &x, sz);
    } else if (d == UF_FLOAT32) {
        float f = (float)v->c.v.f;
        memcpy(p, &f, 4);
    } else if (d == UF_FLOAT64) {
        memcpy(p, &v->c.v.f, 8);
    } else if (d == UF_COMPLEX64) {
        float c[2] = {(float)v->c.v.c[0], (float)v->c.v.c[1]};
        memcpy(p, c, 8);
    } else {
        memcpy(p, v->c.v.c, 16);
    }
}

/* The dtype np.array gives a Python or NumPy scalar: Python numbers are
 * not weak inside a list (int -> int64, float -> float64). */
static uf_dtype discovered(const uf__cval *v) { return dt_of(v); }

/* ---- constructors -------------------------------------------------------- */

static uf_array *eval(actx *A, const uf__expr *e);

/* The nested lists of np.array: their shape, depth first. */
static int list_shape(actx *A, const uf__expr *x, int depth, int64_t *shape,
                      int *nd)
{
    bool seq = x->kind == UF__EX_LIST || x->kind == UF__EX_TUPLE;
    if (depth == *nd) { /* the first leaf fixed the depth */
        if (seq)
            goto ragged;
        return 0;
    }
    if (!seq) {
        if (*nd == -1) {
            *nd = depth;
            return 0;
        }
        goto ragged;
    }
    if (depth >= UF_MAXDIMS)
        return fail(&A->E, UF_ERR_UNSUPPORTED, x, "more than %d nested "
                    "lists", UF_MAXDIMS);
    int n = x->u.seq.n;
    if (*nd == -1 || depth < *nd) {
        if (shape[depth] == -1)
            shape[depth] = n;
        else if (shape[depth] != n)
            goto ragged;
    }
    if (n == 0 && *nd == -1)
        *nd = depth + 1;
    for (int i = 0; i < n; i++)
        if (list_shape(A, x->u.seq.elts[i], depth + 1, shape, nd) < 0)
            return A->E.err->code;
    return 0;
ragged:
    return fail(&A->E, UF_ERR_VALUE, x, "setting an array element with a "
                "sequence: the requested array has an inhomogeneous shape "
                "after %d dimensions", depth);
}

static int list_values(actx *A, const uf__expr *x, uf__cval *out, int64_t *n)
{
    if (x->kind == UF__EX_LIST || x->kind == UF__EX_TUPLE) {
        for (int i = 0; i < x->u.seq.n; i++)
            if (list_values(A, x->u.seq.elts[i], out, n) < 0)
                return A->E.err->code;
        return 0;
    }
    if (scalar(A, x, &out[*n]) < 0)
        return A->E.err->code;
    (*n)++;
    return 0;
}

/* Checks the element count against the size limit. */
static int size_ok(actx *A, const uf__expr *at, uf_dtype d, int nd,
                   const int64_t *shape)
{
    uint64_t bytes = uf_dtype_itemsize(d);
    for (int i = 0; i < nd; i++) {
        if (shape[i] != 0 && bytes > GARRAY_MAX_BYTES / (uint64_t)shape[i])
            bytes = GARRAY_MAX_BYTES + 1;
        else
            bytes *= (uint64_t)shape[i];
    }
    if (bytes > GARRAY_MAX_BYTES)
        return fail(&A->E, UF_ERR_UNSUPPORTED, at, "a module-level array of "
                    "more than %zu bytes: ufjit embeds these arrays in the "
                    "compiled code (pass large arrays as arguments)",
                    GARRAY_MAX_BYTES);
    return 0;
}

static uf_array *np_array(actx *A, const uf__expr *e)
{
    static const char *const kws[] = {"object", "dtype"};
    const uf__expr *obj = arg(e, 0, "object");
    uf_dtype dt;
    bool has;
    if (check_args(A, e, "np.array", 1, kws, 2) < 0 ||
        dtype_arg(A, arg(e, 1, "dtype"), &dt, &has) < 0)
        return NULL;
    if (obj == NULL) {
        fail(&A->E, UF_ERR_VALUE, e, "%s", "np.array() needs the values");
        return NULL;
    }
    if (uf__kmodule_is_array_expr(KM(A), obj)) { /* np.array(A, dtype) */
        uf_array *a = eval(A, obj);
        if (a == NULL || !has)
            return a;
        uf_array *r = uf_array_astype(a, dt, UF_CASTING_UNSAFE, UF_ORDER_C,
                                      A->E.err);
        uf_array_release(a);
        return r;
    }
    int64_t shape[UF_MAXDIMS];
    for (int i = 0; i < UF_MAXDIMS; i++)
        shape[i] = -1;
    int nd = -1;
    if (list_shape(A, obj, 0, shape, &nd) < 0)
        return NULL;
    for (int i = 0; i < nd; i++)
        if (shape[i] < 0)
            shape[i] = 0;
    if (nd == 0) {
        fail(&A->E, UF_ERR_UNSUPPORTED, obj, "%s", "a 0-d module-level "
             "array: use a number constant");
        return NULL;
    }
    int64_t count = 1;
    for (int i = 0; i < nd; i++)
        count *= shape[i];
    if (size_ok(A, e, has ? dt : UF_COMPLEX128, nd, shape) < 0)
        return NULL;
    uf__cval *vals = uf__calloc(count ? (size_t)count : 1, sizeof *vals,
                                A->E.err);
    if (vals == NULL)
        return NULL;
    uf_array *a = NULL;
    int64_t n = 0;
    if (list_values(A, obj, vals, &n) < 0)
        goto done;
    if (!has) { /* NumPy's discovery: the promoted type of the elements */
        dt = n ? discovered(&vals[0]) : UF_FLOAT64;
        for (int64_t i = 1; i < n; i++)
            dt = uf_promote_types(dt, discovered(&vals[i]));
    }
    if (!(a = uf_empty(dt, nd, shape, UF_ORDER_C, A->E.err)))
        goto done;
    size_t isz = uf_dtype_itemsize(dt);
    for (int64_t i = 0; i < n; i++) {
        uf__cval c;
        if (convert(&A->E, obj, &vals[i], dt, false, &c) < 0) {
            uf_array_release(a);
            a = NULL;
            goto done;
        }
        put_elem(dt, &c, (char *)uf_array_data(a) + (size_t)i * isz);
    }
done:
    uf__free(vals);
    return a;
}

/* np.zeros / ones / empty / full */
static uf_array *np_filled(actx *A, const uf__expr *e, const char *fn)
{
    static const char *const kws[] = {"shape", "fill_value", "dtype"};
    bool full = strcmp(fn, "full") == 0;
    char name[16];
    snprintf(name, sizeof name, "np.%s", fn);
    if (check_args(A, e, name, full ? 3 : 2, kws, 3) < 0)
        return NULL;
    const uf__expr *sx = arg(e, 0, "shape");
    const uf__expr *fx = full ? arg(e, 1, "fill_value") : NULL;
    if (sx == NULL || (full && fx == NULL)) {
        fail(&A->E, UF_ERR_VALUE, e, "%s() needs a shape%s", name,
             full ? " and a fill value" : "");
        return NULL;
    }
    int64_t shape[UF_MAXDIMS];
    int nd = 0;
    uf_dtype dt = UF_FLOAT64;
    bool has;
    uf__cval fill;
    if (shape_arg(A, sx, shape, &nd) < 0 ||
        dtype_arg(A, arg(e, full ? 2 : 1, "dtype"), &dt, &has) < 0 ||
        (full && scalar(A, fx, &fill) < 0))
        return NULL;
    if (full && !has)
        dt = discovered(&fill);
    if (size_ok(A, e, dt, nd, shape) < 0)
        return NULL;
    if (!full) /* np.empty's contents are arbitrary: zeros here */
        return fn[0] == 'o' ? uf_ones(dt, nd, shape, UF_ORDER_C, A->E.err)
                            : uf_zeros(dt, nd, shape, UF_ORDER_C, A->E.err);
    uf__cval c;
    if (convert(&A->E, fx, &fill, dt, false, &c) < 0)
        return NULL;
    char buf[16];
    put_elem(dt, &c, buf);
    return uf_full(dt, nd, shape, buf, dt, UF_ORDER_C, A->E.err);
}

/* A number for arange/linspace as a double, exactly. */
static int real_arg(actx *A, const uf__expr *x, uf__cval *v, double *out)
{
    if (scalar(A, x, v) < 0)
        return A->E.err->code;
    uf_dtype d = dt_of(v);
    if (is_complex(d))
        return fail(&A->E, UF_ERR_UNSUPPORTED, x, "%s", "complex bounds are "
                    "not supported here");
    *out = as_double(v);
    if (is_int(d) && fabs(*out) > 0x1p53)
        return fail(&A->E, UF_ERR_UNSUPPORTED, x, "%s", "integer bounds past "
                    "2**53 are not supported here");
    return 0;
}

static uf_array *np_arange(actx *A, const uf__expr *e)
{
    static const char *const kws[] = {"dtype"};
    int n = e->u.call.nargs;
    if (check_args(A, e, "np.arange", 3, kws, 1) < 0)
        return NULL;
    if (n < 1) {
        fail(&A->E, UF_ERR_VALUE, e, "%s", "np.arange() needs a stop");
        return NULL;
    }
    double v[3] = {0.0, 0.0, 1.0};
    uf__cval c;
    uf_dtype inferred = UF_INT64;
    for (int i = 0; i < n; i++) {
        if (real_arg(A, e->u.call.args[i], &c, &v[n == 1 ? 1 : i]) < 0)
            return NULL;
        inferred = i == 0 ? discovered(&c)
                          : uf_promote_types(inferred, discovered(&c));
    }
    if (n == 1)
        v[0] = 0.0;
    if (inferred == UF_BOOL)
        inferred = UF_INT64; /* arange(True) counts as ints */
    uf_dtype dt;
    bool has;
    if (dtype_arg(A, arg(e, -1, "dtype"), &dt, &has) < 0)
        return NULL;
    double len = ceil((v[1] - v[0]) / v[2]);
    int64_t shape = len > 0 && len < 9e18 ? (int64_t)len : 0;
    if (size_ok(A, e, has ? dt : inferred, 1, &shape) < 0)
        return NULL;
    uf_array *a = uf_arange(v[0], v[1], v[2], has ? dt : inferred, A->E.err);
    if (a == NULL)
        place(A, e);
    return a;
}

static uf_array *np_linspace(actx *A, const uf__expr *e)
{
    static const char *const kws[] = {"start", "stop", "num", "endpoint",
                                      "dtype"};
    if (check_args(A, e, "np.linspace", 3, kws, 5) < 0)
        return NULL;
    const uf__expr *sx = arg(e, 0, "start"), *ex = arg(e, 1, "stop");
    const uf__expr *nx = arg(e, 2, "num"), *px = arg(e, -1, "endpoint");
    if (sx == NULL || ex == NULL) {
        fail(&A->E, UF_ERR_VALUE, e, "%s", "np.linspace() needs a start and "
             "a stop");
        return NULL;
    }
    double a, b;
    uf__cval ca, cb;
    int64_t num = 50;
    uf_dtype dt = UF_FLOAT64;
    bool has, endpoint = true;
    if (real_arg(A, sx, &ca, &a) < 0 || real_arg(A, ex, &cb, &b) < 0 ||
        (nx != NULL && int_value(A, nx, "num", &num) < 0) ||
        dtype_arg(A, arg(e, -1, "dtype"), &dt, &has) < 0)
        return NULL;
    /* NumPy computes in result_type(start, stop, float(num)): float64
     * unless a bound is a NumPy float32 */
    if (dt_of(&ca) == UF_FLOAT32 || dt_of(&cb) == UF_FLOAT32) {
        fail(&A->E, UF_ERR_UNSUPPORTED, dt_of(&ca) == UF_FLOAT32 ? sx : ex,
             "%s", "np.linspace with float32 bounds (computed in float32 "
             "by NumPy) is not supported: give Python numbers and "
             "dtype=np.float32");
        return NULL;
    }
    if (px != NULL) {
        uf__cval c;
        if (scalar(A, px, &c) < 0)
            return NULL;
        endpoint = uf__consteval_truth(&c);
    }
    if (size_ok(A, e, dt, 1, &num) < 0)
        return NULL;
    uf_array *r = uf_linspace(a, b, num, endpoint, dt, A->E.err);
    if (r == NULL)
        place(A, e);
    return r;
}

static uf_array *np_eye(actx *A, const uf__expr *e)
{
    static const char *const kws[] = {"N", "M", "k", "dtype"};
    if (check_args(A, e, "np.eye", 3, kws, 4) < 0)
        return NULL;
    const uf__expr *nx = arg(e, 0, "N"), *mx = arg(e, 1, "M"),
                   *kx = arg(e, 2, "k");
    int64_t shape[2], k = 0;
    uf_dtype dt = UF_FLOAT64;
    bool has;
    if (nx == NULL) {
        fail(&A->E, UF_ERR_VALUE, e, "%s", "np.eye() needs N");
        return NULL;
    }
    if (int_value(A, nx, "N", &shape[0]) < 0 ||
        (mx != NULL && mx->kind != UF__EX_NONE &&
         int_value(A, mx, "M", &shape[1]) < 0) ||
        (kx != NULL && int_value(A, kx, "k", &k) < 0) ||
        dtype_arg(A, arg(e, -1, "dtype"), &dt, &has) < 0)
        return NULL;
    if (mx == NULL || mx->kind == UF__EX_NONE)
        shape[1] = shape[0];
    if (shape[0] < 0 || shape[1] < 0) {
        fail(&A->E, UF_ERR_VALUE, e, "%s", "negative dimensions are not "
             "allowed");
        return NULL;
    }
    if (size_ok(A, e, dt, 2, shape) < 0)
        return NULL;
    uf_array *a = uf_zeros(dt, 2, shape, UF_ORDER_C, A->E.err);
    if (a == NULL)
        return NULL;
    uf__cval one = mk(&A->E, UF_INT64, true), c;
    one.c.v.i = 1;
    if (convert(&A->E, e, &one, dt, false, &c) < 0) {
        uf_array_release(a);
        return NULL;
    }
    size_t isz = uf_dtype_itemsize(dt);
    for (int64_t i = 0; i < shape[0]; i++) {
        int64_t j = i + k;
        if (j >= 0 && j < shape[1])
            put_elem(dt, &c, (char *)uf_array_data(a) +
                                 (size_t)(i * shape[1] + j) * isz);
    }
    return a;
}

/* ---- methods and operators ------------------------------------------------ */

static uf_array *method(actx *A, const uf__expr *e)
{
    const uf__expr *f = e->u.call.func;
    const char *m = f->u.attr.attr;
    if (!listed(methods, sizeof methods / sizeof *methods, m)) {
        uf__source_error(A->E.err, UF_ERR_UNSUPPORTED, KM(A)->src,
                         f->u.attr.attr_pos, "the array method .%s() is not "
                         "supported at module level: %s", m, SUPPORTED);
        return NULL;
    }
    uf_array *a = eval(A, f->u.attr.value);
    if (a == NULL)
        return NULL;
    uf_array *r = NULL;
    if (strcmp(m, "copy") == 0) {
        if (check_args(A, e, ".copy", 0, NULL, 0) == 0)
            r = uf_array_copy(a, UF_ORDER_C, A->E.err);
    } else if (strcmp(m, "astype") == 0) {
        static const char *const kws[] = {"dtype"};
        uf_dtype dt;
        bool has;
        if (check_args(A, e, ".astype", 1, kws, 1) == 0 &&
            dtype_arg(A, arg(e, 0, "dtype"), &dt, &has) == 0) {
            if (!has)
                fail(&A->E, UF_ERR_VALUE, e, "%s", ".astype() needs a dtype");
            else
                r = uf_array_astype(a, dt, UF_CASTING_UNSAFE, UF_ORDER_C,
                                    A->E.err);
        }
    } else { /* reshape((a, b)) or reshape(a, b), one -1 allowed */
        int64_t shape[UF_MAXDIMS];
        int nd = e->u.call.nargs;
        if (check_args(A, e, ".reshape", UF_MAXDIMS, NULL, 0) < 0)
            goto done;
        if (nd == 1 && (e->u.call.args[0]->kind == UF__EX_TUPLE ||
                        e->u.call.args[0]->kind == UF__EX_LIST)) {
            const uf__expr *t = e->u.call.args[0];
            nd = t->u.seq.n;
            for (int i = 0; i < nd; i++)
                if (int_value(A, t->u.seq.elts[i], "a dimension",
                              &shape[i]) < 0)
                    goto done;
        } else {
            for (int i = 0; i < nd; i++)
                if (int_value(A, e->u.call.args[i], "a dimension",
                              &shape[i]) < 0)
                    goto done;
        }
        if (nd < 1) {
            fail(&A->E, UF_ERR_UNSUPPORTED, e, "%s", "a 0-d module-level "
                 "array: use a number constant");
            goto done;
        }
        r = uf_array_reshape(a, nd, shape, UF_ORDER_C, true, A->E.err);
        if (r == NULL)
            place(A, e);
    }
done:
    uf_array_release(a);
    return r;
}

/* An operand of + - * / **: an array (owned) or a number. */
typedef struct operand {
    uf_array *a;
    uf__cval v;
} operand;

static int operand_of(actx *A, const uf__expr *x, operand *o)
{
    o->a = NULL;
    if (uf__kmodule_is_array_expr(KM(A), x)) {
        o->a = eval(A, x);
        return o->a ? 0 : A->E.err->code;
    }
    return scalar(A, x, &o->v);
}

/* The C-contiguous copy of `a` broadcast to shape. */
static uf_array *spread(actx *A, uf_array *a, int nd, const int64_t *shape)
{
    uf_array *b = uf_array_broadcast_to(a, nd, shape, A->E.err);
    if (b == NULL)
        return NULL;
    uf_array *c = uf_array_copy(b, UF_ORDER_C, A->E.err);
    uf_array_release(b);
    return c;
}

static uf_array *binary(actx *A, const uf__expr *e)
{
    uf__binop op = e->u.binary.op;
    if (op != UF__OP_ADD && op != UF__OP_SUB && op != UF__OP_MUL &&
        op != UF__OP_DIV && op != UF__OP_POW) {
        fail(&A->E, UF_ERR_UNSUPPORTED, e, "the operator %s on module-level "
             "arrays is not supported: %s", uf__binop_str(op), SUPPORTED);
        return NULL;
    }
    operand x, y;
    uf_array *r = NULL, *xa = NULL, *ya = NULL;
    if (operand_of(A, e->u.binary.left, &x) < 0)
        return NULL;
    if (operand_of(A, e->u.binary.right, &y) < 0)
        goto done;
    int nd;
    int64_t shape[UF_MAXDIMS];
    const int64_t *shapes[2];
    int nds[2], k = 0;
    if (x.a) {
        shapes[k] = uf_array_shape(x.a);
        nds[k++] = uf_array_ndim(x.a);
    }
    if (y.a) {
        shapes[k] = uf_array_shape(y.a);
        nds[k++] = uf_array_ndim(y.a);
    }
    if (uf_broadcast_shapes(k, nds, shapes, &nd, shape, A->E.err) < 0) {
        place(A, e);
        goto done;
    }
    if ((x.a && !(xa = spread(A, x.a, nd, shape))) ||
        (y.a && !(ya = spread(A, y.a, nd, shape))))
        goto done;
    /* the result type: the operation on ones of the operands' kinds */
    uf__cval one = mk(&A->E, UF_INT64, true), ox = x.v, oy = y.v, t;
    one.c.v.i = 1;
    if (xa && convert(&A->E, e, &one, uf_array_dtype(xa), false, &ox) < 0)
        goto done;
    if (ya && convert(&A->E, e, &one, uf_array_dtype(ya), false, &oy) < 0)
        goto done;
    if (uf__ce_binop(&A->E, e, op, &ox, &oy, &t) < 0)
        goto done;
    uf_dtype rd = dt_of(&t);
    if (size_ok(A, e, rd, nd, shape) < 0 ||
        !(r = uf_empty(rd, nd, shape, UF_ORDER_C, A->E.err)))
        goto done;
    int64_t n = uf_array_size(r);
    size_t rs = uf_dtype_itemsize(rd);
    size_t xs = xa ? uf_array_itemsize(xa) : 0;
    size_t ys = ya ? uf_array_itemsize(ya) : 0;
    for (int64_t i = 0; i < n; i++) {
        uf__cval a = x.v, b = y.v, c;
        if (xa)
            a = get_elem(A, uf_array_dtype(xa),
                         (const char *)uf_array_data(xa) + (size_t)i * xs);
        if (ya)
            b = get_elem(A, uf_array_dtype(ya),
                         (const char *)uf_array_data(ya) + (size_t)i * ys);
        if (uf__ce_binop(&A->E, e, op, &a, &b, &c) < 0 ||
            convert(&A->E, e, &c, rd, false, &c) < 0) {
            uf_array_release(r);
            r = NULL;
            goto done;
        }
        put_elem(rd, &c, (char *)uf_array_data(r) + (size_t)i * rs);
    }
done:
    uf_array_release(x.a);
    uf_array_release(y.a);
    uf_array_release(xa);
    uf_array_release(ya);
    return r;
}

static uf_array *unary(actx *A, const uf__expr *e)
{
    uf__unop op = e->u.unary.op;
    if (op != UF__OP_NEG && op != UF__OP_POS) {
        fail(&A->E, UF_ERR_UNSUPPORTED, e, "this unary operator on "
             "module-level arrays is not supported: %s", SUPPORTED);
        return NULL;
    }
    uf_array *a = eval(A, e->u.unary.operand);
    if (a == NULL)
        return NULL;
    uf_array *r = uf_array_copy(a, UF_ORDER_C, A->E.err);
    uf_array_release(a);
    if (r == NULL || op == UF__OP_POS)
        return r;
    uf_dtype d = uf_array_dtype(r);
    if (d == UF_BOOL) {
        uf_array_release(r);
        fail(&A->E, UF_ERR_TYPE, e, "%s", "the numpy boolean negative, the "
             "`-` operator, is not supported");
        return NULL;
    }
    int64_t n = uf_array_size(r);
    size_t isz = uf_dtype_itemsize(d);
    for (int64_t i = 0; i < n; i++) {
        char *p = (char *)uf_array_data(r) + (size_t)i * isz;
        uf__cval v = get_elem(A, d, p);
        if (is_int(d)) {
            set_int_wrap(&v, (uint64_t)0 - as_bits(&v));
        } else if (is_float(d)) {
            v.c.v.f = -v.c.v.f;
        } else {
            v.c.v.c[0] = -v.c.v.c[0];
            v.c.v.c[1] = -v.c.v.c[1];
        }
        put_elem(d, &v, p);
    }
    return r;
}

/* ---- the expression --------------------------------------------------------- */

static uf_array *eval(actx *A, const uf__expr *e)
{
    switch (e->kind) {
    case UF__EX_NAME: {
        const uf__global *g = uf__kmodule_global(KM(A), e->u.name.id);
        const uf__garray *ga = g->array;
        return uf_array_wrap(ga->dtype, ga->ndim, ga->shape, NULL,
                             (void *)(uintptr_t)ga->data, false, NULL, NULL,
                             A->E.err);
    }
    case UF__EX_UNARY:
        return unary(A, e);
    case UF__EX_BINARY:
        return binary(A, e);
    case UF__EX_CALL: {
        const char *np = numpy_func(KM(A), e->u.call.func);
        if (np == NULL)
            return method(A, e);
        if (strcmp(np, "array") == 0)
            return np_array(A, e);
        if (strcmp(np, "arange") == 0)
            return np_arange(A, e);
        if (strcmp(np, "linspace") == 0)
            return np_linspace(A, e);
        if (strcmp(np, "eye") == 0)
            return np_eye(A, e);
        if (listed(constructors, sizeof constructors / sizeof *constructors,
                   np))
            return np_filled(A, e, np);
        uf__source_error(A->E.err, UF_ERR_UNSUPPORTED, KM(A)->src,
                         e->u.call.func->u.attr.attr_pos, "np.%s() is not "
                         "supported at module level: %s", np, SUPPORTED);
        return NULL;
    }
    case UF__EX_SUBSCRIPT:
        fail(&A->E, UF_ERR_UNSUPPORTED, e, "indexing a module-level array "
             "at module level is not supported: %s", SUPPORTED);
        return NULL;
    default: /* ATTR */
        fail(&A->E, UF_ERR_UNSUPPORTED, e, "this attribute of a module-level "
             "array is not supported at module level: %s", SUPPORTED);
        return NULL;
    }
}

int uf__kmodule_scan_array(uf__kmodule *km, const bool *weak,
                           const uf__expr *e, uf__garray *out, uf_error *err)
{
    uf__const_env env = {km, weak};
    actx A = {{&env, err}};
    uf_array *a = eval(&A, e);
    if (a == NULL)
        return err->code ? err->code : UF_ERR_INTERNAL;
    uf_array *c = uf_array_copy(a, UF_ORDER_C, err);
    uf_array_release(a);
    if (c == NULL)
        return err->code;
    memset(out, 0, sizeof *out);
    out->dtype = uf_array_dtype(c);
    out->ndim = uf_array_ndim(c);
    memcpy(out->shape, uf_array_shape(c),
           (size_t)out->ndim * sizeof *out->shape);
    out->nbytes = (size_t)uf_array_nbytes(c);
    out->pos = e->pos;
    int rc = 0;
    if (out->ndim < 1) {
        rc = fail(&A.E, UF_ERR_UNSUPPORTED, e, "%s", "a 0-d module-level "
                  "array: use a number constant");
    } else if (out->nbytes > GARRAY_MAX_BYTES) {
        rc = size_ok(&A, e, out->dtype, out->ndim, out->shape);
    } else {
        void *d = uf__arena_alloc(km->arena, out->nbytes ? out->nbytes : 1,
                                  1, err);
        if (d == NULL)
            rc = err->code;
        else if (out->nbytes)
            memcpy(d, uf_array_data(c), out->nbytes);
        out->data = d;
    }
    uf_array_release(c);
    return rc;
}
