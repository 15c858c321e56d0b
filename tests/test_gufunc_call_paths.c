/* The gufunc call path beyond NumPy's values (test_gufunc_call.c has the
 * oracle): dispatch with given outputs, the compile hook, loop failures,
 * argument errors, unaligned operands, the object API, running ranges of
 * the loop space (the parallel target's unit of work) and out-of-memory
 * paths. Loops follow gufunc/gufunc.h. */
#include <math.h>

#include "test_util.h"

#include "common/alloc.h"
#include "common/error_internal.h"
#include "gufunc/gufunc_internal.h"
#include "ndarray/cast.h"

#define AT(p, T) (*(T *)(p))

/* (i),(i)->(): dims {N, i}, steps {s0, s1, s2, is0, is1}. */
#define INNER1D(name, T)                                                   \
    static int name(void *ctx, char *const *d, const int64_t *dims,        \
                    const int64_t *s, void *aux)                           \
    {                                                                      \
        (void)ctx;                                                         \
        if (aux != NULL)                                                   \
            ++*(int *)aux;                                                 \
        for (int64_t k = 0; k < dims[0]; k++) {                            \
            T acc = 0;                                                     \
            for (int64_t i = 0; i < dims[1]; i++)                          \
                acc += AT(d[0] + k * s[0] + i * s[3], T) *                 \
                       AT(d[1] + k * s[1] + i * s[4], T);                  \
            AT(d[2] + k * s[2], T) = acc;                                  \
        }                                                                  \
        return 0;                                                          \
    }

INNER1D(inner1d_f4, float)
INNER1D(inner1d_f8, double)
INNER1D(inner1d_i8, int64_t)

/* (n)->(),(): max and min (no NaN here). */
static int max_min_f8(void *ctx, char *const *d, const int64_t *dims,
                      const int64_t *s, void *aux)
{
    (void)ctx, (void)aux;
    for (int64_t k = 0; k < dims[0]; k++) {
        double mx = -INFINITY, mn = INFINITY;

        for (int64_t i = 0; i < dims[1]; i++) {
            double v = AT(d[0] + k * s[0] + i * s[3], double);
            mx = v > mx ? v : mx;
            mn = v < mn ? v : mn;
        }
        AT(d[1] + k * s[1], double) = mx;
        AT(d[2] + k * s[2], double) = mn;
    }
    return 0;
}

/* (i)->(): the sum; fails on a negative element with a message, on NaN
 * with status 7 and no message. */
static int checked_sum(void *ctx, char *const *d, const int64_t *dims,
                       const int64_t *s, void *aux)
{
    uf__loop_ctx *c = ctx;

    (void)aux;
    for (int64_t k = 0; k < dims[0]; k++) {
        double acc = 0;

        for (int64_t i = 0; i < dims[1]; i++) {
            double v = AT(d[0] + k * s[0] + i * s[2], double);

            if (v < 0) {
                uf__error_set(c->err, UF_ERR_VALUE, "negative element %g", v);
                return 1;
            }
            if (isnan(v))
                return 7;
            acc += v;
        }
        AT(d[1] + k * s[1], double) = acc;
    }
    return 0;
}

static int status_error(int status, uf_error *err)
{
    return uf__error_set(err, UF_ERR_VALUE, "kernel raised status %d",
                         status);
}

/* Counts calls and checks every operand pointer and stride is aligned for
 * float64 before running inner1d_f8. */
static int aligned_inner1d(void *ctx, char *const *d, const int64_t *dims,
                           const int64_t *s, void *aux)
{
    bool *misaligned = aux;

    for (int k = 0; k < 3; k++)
        if ((uintptr_t)d[k] % 8 != 0 || s[k] % 8 != 0)
            *misaligned = true;
    return inner1d_f8(ctx, d, dims, s, NULL);
}

/* ---- helpers ----------------------------------------------------------- */

typedef struct gu {
    uf__gufunc_layout *layout;
    uf__gufunc *g;
} gu;

static gu new_gufunc(const char *name, const char *sig,
                     uf__gufunc_compile_fn compile, void *cctx)
{
    uf_error err;
    gu r;

    r.layout = uf__gufunc_layout_parse(sig, -1, -1, &err);
    uf_assert_ok(r.layout != NULL, &err);
    r.g = uf__gufunc_new(name, r.layout, compile, cctx, &err);
    uf_assert_ok(r.g != NULL, &err);
    return r;
}

static void free_gufunc(gu *r)
{
    uf__gufunc_free(r->g);
    uf__gufunc_layout_free(r->layout);
}

static void add_loop(gu *r, uf_dtype t, uf__strided_loop fn, void *aux)
{
    uf__ufunc_loop l;
    uf_error err;

    memset(&l, 0, sizeof l);
    for (int i = 0; i < r->layout->nargs; i++)
        l.types[i] = t;
    l.fn = fn;
    l.aux = aux;
    uf_assert_ok(uf__gufunc_add_loop(r->g, &l, &err) == 0, &err);
}

static char *elem(const uf_array *a, int64_t k)
{
    const int64_t *shape = uf_array_shape(a), *st = uf_array_strides(a);
    char *p = uf_array_data(a);

    for (int d = uf_array_ndim(a) - 1; d >= 0; d--) {
        p += (k % shape[d]) * st[d];
        k /= shape[d];
    }
    return p;
}

static double get_f8(const uf_array *a, int64_t k)
{
    double v;

    uf__get_cast(uf_array_dtype(a), UF_FLOAT64)(elem(a, k), 0, (char *)&v, 0,
                                                1);
    return v;
}

/* Small integers and halves: every sum below is exact. */
static uf_array *filled(uf_dtype dt, int ndim, const int64_t *shape,
                        uf_order order, int seed)
{
    uf_error err;
    uf_array *a = uf_empty(dt, ndim, shape, order, &err);

    uf_assert_ok(a != NULL, &err);
    for (int64_t k = 0; k < uf_array_size(a); k++) {
        double v = (double)((k * 7 + seed * 13) % 23 - 11) / 2;
        uf__get_cast(UF_FLOAT64, dt)((const char *)&v, 0, elem(a, k), 0, 1);
    }
    return a;
}

static uf_array *slice(uf_array *a, const char *expr)
{
    uf_error err;
    uf_array *v = uf_array_slice(a, expr, &err);

    uf_assert_ok(v != NULL, &err);
    return v;
}

/* out[k] == sum_i a[k, i] * b[k, i] with b broadcast along its leading
 * loop dimensions (b has `bn` elements). */
static void check_inner(const uf_array *out, const uf_array *a,
                        const uf_array *b, int64_t n)
{
    int64_t bn = uf_array_size(b);

    for (int64_t k = 0; k < uf_array_size(out); k++) {
        double want = 0;

        for (int64_t i = 0; i < n; i++)
            want += get_f8(a, k * n + i) * get_f8(b, (k * n + i) % bn);
        if (get_f8(out, k) != want)
            fail_msg("element %lld is %g, want %g", (long long)k,
                     get_f8(out, k), want);
    }
}

/* ---- dispatch ---------------------------------------------------------- */

/* Loops (float64) then (float32): float32 inputs take the float32 loop
 * that matches them exactly (Numba's guvectorize), unless a given output
 * accepts only the float64 one; an output neither accepts falls back to
 * the first loop and gets NumPy's cast error. */
static void test_dispatch_with_outputs(void **state)
{
    (void)state;
    static const struct {
        const char *file;
        int line;
        uf_dtype out;      /* UF_BOOL: none given */
        uf_casting casting;
        int f8_calls, f4_calls;
        const char *error;
    } rows[] = {
        {LOC, UF_BOOL, UF_CASTING_SAME_KIND, 0, 1, NULL},
        {LOC, UF_FLOAT32, UF_CASTING_SAME_KIND, 0, 1, NULL},
        {LOC, UF_FLOAT64, UF_CASTING_SAFE, 0, 1, NULL},
        {LOC, UF_FLOAT32, UF_CASTING_SAFE, 0, 1, NULL},
        {LOC, UF_FLOAT32, UF_CASTING_NO, 0, 1, NULL},
        {LOC, UF_FLOAT64, UF_CASTING_NO, 0, 0,
         "Cannot cast ufunc 'dot' input 0 from dtype('float32') to "
         "dtype('float64') with casting rule 'no'"},
        {LOC, UF_INT32, UF_CASTING_SAME_KIND, 0, 0,
         "Cannot cast ufunc 'dot' output from dtype('float64') to "
         "dtype('int32') with casting rule 'same_kind'"},
        {LOC, UF_INT16, UF_CASTING_SAFE, 0, 0,
         "Cannot cast ufunc 'dot' output from dtype('float64') to "
         "dtype('int16') with casting rule 'safe'"},
    };

    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        int f8 = 0, f4 = 0;
        gu g = new_gufunc("dot", "(i),(i)->()", NULL, NULL);
        uf_array *a = filled(UF_FLOAT32, 2, (int64_t[]){3, 4}, UF_ORDER_C, 1);
        uf_array *b = filled(UF_FLOAT32, 1, (int64_t[]){4}, UF_ORDER_C, 2);
        uf_array *in[2] = {a, b}, *out[1] = {NULL}, *given = NULL;
        uf_call_options opts = {.size = sizeof opts,
                                .casting = rows[r].casting,
                                .casting_set = true};
        uf_error err;
        int rc;

        add_loop(&g, UF_FLOAT64, inner1d_f8, &f8);
        add_loop(&g, UF_FLOAT32, inner1d_f4, &f4);
        if (rows[r].out != UF_BOOL)
            out[0] = given = filled(rows[r].out, 1, (int64_t[]){3},
                                    UF_ORDER_C, 3);
        rc = uf__gufunc_call(g.g, in, 2, out, 1, &opts, &err);
        if (rows[r].error != NULL) {
            if (rc != UF_ERR_CAST || strcmp(err.message, rows[r].error) != 0)
                uf_fail_at(rows[r].file, rows[r].line, "%s: %s",
                           uf_err_name(rc), err.message);
        } else if (rc != 0) {
            uf_fail_at(rows[r].file, rows[r].line, "%s", err.message);
        } else {
            check_inner(out[0], a, b, 4);
        }
        if (f8 != rows[r].f8_calls || f4 != rows[r].f4_calls)
            uf_fail_at(rows[r].file, rows[r].line, "f8 loop %d, f4 loop %d",
                       f8, f4);
        if (given == NULL && rc == 0)
            assert_int_equal(uf_array_dtype(out[0]), UF_FLOAT32);
        uf_array_release(out[0]);
        uf_array_release(a);
        uf_array_release(b);
        free_gufunc(&g);
    }
}

/* A lazy gufunc's hook: records the types it is asked for; floats get a
 * float64 loop, integers an int64 one; `mode` makes it misbehave. */
typedef struct hook {
    int calls, types[3], mode;
} hook;

static int compile_hook(void *cctx, const int *types, uf__ufunc_loop *out,
                        uf_error *err)
{
    hook *h = cctx;
    uf_dtype t = uf_dtype_kind((uf_dtype)types[0]) == 'i' &&
                         uf_dtype_kind((uf_dtype)types[1]) == 'i'
                     ? UF_INT64
                     : UF_FLOAT64;

    h->calls++;
    memcpy(h->types, types, sizeof h->types);
    if (h->mode == 1)
        return uf__error_set(err, UF_ERR_TYPING, "cannot type it");
    out->types[0] = out->types[1] = out->types[2] = t;
    out->fn = t == UF_FLOAT64 ? inner1d_f8 : inner1d_i8;
    if (h->mode == 2)
        out->fn = NULL;
    if (h->mode == 3)
        out->types[0] = UF_INT8;
    return 0;
}

static void test_compile_hook(void **state)
{
    (void)state;
    hook h = {0};
    gu g = new_gufunc("lazy", "(i),(i)->()", compile_hook, &h);
    uf_array *a = filled(UF_INT32, 2, (int64_t[]){3, 4}, UF_ORDER_C, 1);
    uf_array *f = filled(UF_FLOAT32, 1, (int64_t[]){4}, UF_ORDER_C, 2);
    uf_array *i32 = filled(UF_INT32, 1, (int64_t[]){3}, UF_ORDER_C, 3);
    uf_array *in[2] = {a, f}, *out[1] = {NULL};
    uf_error err;

    /* int32 with float32: compiled for exactly those, output left open */
    uf_assert_ok(uf__gufunc_call(g.g, in, 2, out, 1, NULL, &err) == 0, &err);
    assert_int_equal(h.calls, 1);
    assert_int_equal(h.types[0], UF_INT32);
    assert_int_equal(h.types[1], UF_FLOAT32);
    assert_int_equal(h.types[2], -1);
    check_inner(out[0], a, f, 4);
    uf_array_release(out[0]);
    /* int16 casts safely to the float64 loop: no compile */
    out[0] = NULL;
    in[0] = filled(UF_INT16, 2, (int64_t[]){3, 4}, UF_ORDER_C, 1);
    uf_assert_ok(uf__gufunc_call(g.g, in, 2, out, 1, NULL, &err) == 0, &err);
    assert_int_equal(h.calls, 1);
    uf_array_release(out[0]);
    uf_array_release(in[0]);
    /* an int32 output the float64 loop cannot write: compiled with it */
    in[0] = a;
    in[1] = a;
    out[0] = i32;
    uf_assert_ok(uf__gufunc_call(g.g, in, 2, out, 1, NULL, &err) == 0, &err);
    assert_int_equal(h.calls, 2);
    assert_int_equal(h.types[2], UF_INT32);
    assert_int_equal(uf__gufunc_nloops(g.g), 2);
    assert_int_equal(uf__gufunc_get_loop(g.g, 1)->types[2], UF_INT64);
    check_inner(i32, a, a, 4);
    /* hooks that fail or give bad loops */
    static const struct {
        int mode, code;
        const char *msg;
    } bad[] = {
        {1, UF_ERR_TYPING, "cannot type it"},
        {2, UF_ERR_INTERNAL, "compile hook: gufunc 'lazy' loop has no "
                             "function"},
        {3, UF_ERR_INTERNAL, "compile hook: gufunc 'lazy' got a loop whose "
                             "input types the inputs cannot be safely cast "
                             "to"},
    };
    uf_array *c = filled(UF_COMPLEX64, 1, (int64_t[]){4}, UF_ORDER_C, 4);
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        in[0] = in[1] = c;
        out[0] = NULL;
        h.mode = bad[k].mode;
        assert_int_equal(uf__gufunc_call(g.g, in, 2, out, 1, NULL, &err),
                         bad[k].code);
        assert_string_equal(err.message, bad[k].msg);
        assert_null(out[0]);
        assert_int_equal(uf__gufunc_nloops(g.g), 2);
    }
    uf_array_release(c);
    uf_array_release(i32);
    uf_array_release(a);
    uf_array_release(f);
    free_gufunc(&g);
}

/* ---- failures ---------------------------------------------------------- */

static void test_loop_errors(void **state)
{
    (void)state;
    static const struct {
        const char *file;
        int line;
        double bad;
        bool hook;
        int code;
        const char *msg;
    } rows[] = {
        {LOC, -1.5, false, UF_ERR_VALUE,
         "gufunc 'checked': negative element -1.5"},
        {LOC, NAN, false, UF_ERR_VALUE,
         "gufunc 'checked': the inner loop failed (status 7)"},
        {LOC, NAN, true, UF_ERR_VALUE,
         "gufunc 'checked': kernel raised status 7"},
        {LOC, 2.0, false, 0, NULL},
    };

    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        gu g = new_gufunc("checked", "(i)->()", NULL, NULL);
        uf__ufunc_loop l = {.types = {UF_FLOAT64, UF_FLOAT64},
                            .fn = checked_sum,
                            .status_error = rows[r].hook ? status_error
                                                         : NULL};
        uf_array *x = filled(UF_FLOAT64, 2, (int64_t[]){50, 3}, UF_ORDER_C, 1);
        uf_array *in[1] = {x}, *out[1] = {NULL};
        long live;
        uf_error err;
        int rc;

        uf_assert_ok(uf__gufunc_add_loop(g.g, &l, &err) == 0, &err);
        for (int64_t k = 0; k < 150; k++)
            *(double *)elem(x, k) = (double)(k % 5);
        *(double *)elem(x, 100) = rows[r].bad;
        live = uf__alloc_live();
        rc = uf__gufunc_call(g.g, in, 1, out, 1, NULL, &err);
        if (rows[r].msg == NULL) {
            uf_assert_ok(rc == 0, &err);
            uf_array_release(out[0]);
        } else if (rc != rows[r].code ||
                   strcmp(err.message, rows[r].msg) != 0 || out[0] != NULL) {
            uf_fail_at(rows[r].file, rows[r].line, "%s: %s",
                       uf_err_name(rc), err.message);
        }
        assert_int_equal(uf__alloc_live(), live);
        uf_array_release(x);
        free_gufunc(&g);
    }
}

static void test_argument_errors(void **state)
{
    (void)state;
    gu g = new_gufunc("inner1d", "(i),(i)->()", NULL, NULL);
    uf_array *a = filled(UF_FLOAT64, 2, (int64_t[]){3, 4}, UF_ORDER_C, 1);
    uf_array *m = filled(UF_BOOL, 1, (int64_t[]){3}, UF_ORDER_C, 1);
    uf_array *in[3] = {a, a, a}, *nul[2] = {a, NULL}, *out[2] = {NULL, NULL};
    int ax[2] = {0, 1};
    uf_error err;
    static const char *counts = "gufunc 'inner1d' takes 2 inputs and 1 "
                                "output (got %d and %d)";
    char want[256];
    static const struct {
        uf_call_options o;
        int code;
        const char *msg;
    } opts[] = {
        {{.size = 8}, UF_ERR_INVALID,
         "uf_call_options.size must be set to sizeof(uf_call_options) "
         "(got 8)"},
        {{.size = sizeof(uf_call_options), .casting = (uf_casting)9,
          .casting_set = true}, UF_ERR_INVALID, "invalid casting rule 9"},
        {{.size = sizeof(uf_call_options), .target = "cuda"},
         UF_ERR_UNSUPPORTED,
         "target 'cuda' is not available yet (only 'cpu' and 'parallel')"},
        {{.size = sizeof(uf_call_options), .axes_mode = UF_AXES_ALL},
         UF_ERR_INVALID,
         "gufunc 'inner1d': axis= must be a single axis, not every axis "
         "(None)"},
        {{.size = sizeof(uf_call_options), .axes_mode = UF_AXES_LIST,
          .naxes = 2}, UF_ERR_INVALID,
         "gufunc 'inner1d': axis= must be a single axis (got 2); use "
         "gufunc_axes for axes="},
        {{.size = sizeof(uf_call_options), .axes_mode = (uf_axes_mode)7},
         UF_ERR_INVALID, "invalid axes mode 7"},
        {{.size = sizeof(uf_call_options), .gufunc_nops = -1},
         UF_ERR_INVALID, "inner1d: invalid axes arguments"},
    };

    add_loop(&g, UF_FLOAT64, inner1d_f8, NULL);
    assert_int_equal(uf__gufunc_call(g.g, in, 3, out, 1, NULL, &err),
                     UF_ERR_INVALID);
    snprintf(want, sizeof want, counts, 3, 1);
    assert_string_equal(err.message, want);
    assert_int_equal(uf__gufunc_call(g.g, in, 2, out, 2, NULL, &err),
                     UF_ERR_INVALID);
    snprintf(want, sizeof want, counts, 2, 2);
    assert_string_equal(err.message, want);
    assert_int_equal(uf__gufunc_call(g.g, NULL, 2, out, 1, NULL, &err),
                     UF_ERR_INVALID);
    assert_int_equal(uf__gufunc_call(g.g, in, 2, NULL, 1, NULL, &err),
                     UF_ERR_INVALID);
    assert_int_equal(uf__gufunc_call(g.g, nul, 2, out, 1, NULL, &err),
                     UF_ERR_INVALID);
    assert_string_equal(err.message, "gufunc 'inner1d': input 1 is NULL");
    assert_int_equal(uf__gufunc_call(NULL, in, 2, out, 1, NULL, &err),
                     UF_ERR_INVALID);
    /* NumPy's gufuncs take no where= */
    uf_call_options w = {.size = sizeof w, .where = m};
    assert_int_equal(uf__gufunc_call(g.g, in, 2, out, 1, &w, &err),
                     UF_ERR_INVALID);
    assert_string_equal(err.message,
                        "gufunc 'inner1d' does not take where=: generalized "
                        "ufuncs have no mask argument");
    for (size_t k = 0; k < sizeof opts / sizeof opts[0]; k++) {
        uf_call_options o = opts[k].o;

        o.axes = ax;
        assert_int_equal(uf__gufunc_call(g.g, in, 2, out, 1, &o, &err),
                         opts[k].code);
        assert_string_equal(err.message, opts[k].msg);
        assert_null(out[0]);
    }
    /* an older caller's smaller struct: the fields past it are unread */
    uf_call_options old = {.size = offsetof(uf_call_options, num_threads),
                           .axes_mode = UF_AXES_ALL, .gufunc_nops = -1};
    uf_assert_ok(uf__gufunc_call(g.g, in, 2, out, 1, &old, &err) == 0, &err);
    uf_array_release(out[0]);
    /* a NULL error object is allowed */
    assert_int_equal(uf__gufunc_call(g.g, in, 3, out, 1, NULL, NULL),
                     UF_ERR_INVALID);
    uf_array_release(a);
    uf_array_release(m);
    free_gufunc(&g);
}

/* Misaligned inputs and outputs: the loop sees aligned converted copies
 * and temporaries, and the result lands in the caller's memory. */
static void test_unaligned(void **state)
{
    (void)state;
    static double store[3][64];
    bool misaligned = false;
    gu g = new_gufunc("inner1d", "(i),(i)->()", NULL, NULL);
    uf_array *ok = filled(UF_FLOAT64, 2, (int64_t[]){5, 6}, UF_ORDER_C, 1);
    uf_array *arr[3];
    uf_error err;

    add_loop(&g, UF_FLOAT64, aligned_inner1d, &misaligned);
    for (int k = 0; k < 3; k++) {
        int64_t shape[2] = {5, 6};
        arr[k] = uf_array_wrap(UF_FLOAT64, k == 2 ? 1 : 2, shape, NULL,
                               (char *)store[k] + 1, true, NULL, NULL, &err);
        uf_assert_ok(arr[k] != NULL, &err);
        assert_false(uf_array_flags(arr[k]) & UF_ARRAY_ALIGNED);
    }
    uf_assert_ok(uf_array_copyto(arr[0], ok, UF_CASTING_NO, &err) == 0, &err);
    uf_assert_ok(uf_array_copyto(arr[1], ok, UF_CASTING_NO, &err) == 0, &err);
    uf_array *in[2] = {arr[0], arr[1]}, *out[1] = {arr[2]};
    uf_assert_ok(uf__gufunc_call(g.g, in, 2, out, 1, NULL, &err) == 0, &err);
    assert_false(misaligned);
    check_inner(arr[2], ok, ok, 6);
    for (int k = 0; k < 3; k++)
        uf_array_release(arr[k]);
    uf_array_release(ok);
    free_gufunc(&g);
}

static void test_object_api(void **state)
{
    (void)state;
    uf_error err;
    uf__gufunc_layout *L = uf__gufunc_layout_parse("(i)->()", -1, -1, &err);
    uf__gufunc *g;
    uf__ufunc_loop l = {.types = {UF_FLOAT64, UF_FLOAT64}};

    uf_assert_ok(L != NULL, &err);
    assert_null(uf__gufunc_new(NULL, L, NULL, NULL, &err));
    assert_int_equal(err.code, UF_ERR_INVALID);
    assert_null(uf__gufunc_new("f", NULL, NULL, NULL, &err));
    g = uf__gufunc_new("f", L, NULL, NULL, &err);
    uf_assert_ok(g != NULL, &err);
    assert_int_equal(uf__gufunc_add_loop(g, &l, &err), UF_ERR_INVALID);
    assert_string_equal(err.message, "uf__gufunc_add_loop: gufunc 'f' loop "
                                     "has no function");
    l.fn = checked_sum;
    l.types[1] = (uf_dtype)99;
    assert_int_equal(uf__gufunc_add_loop(g, &l, &err), UF_ERR_INVALID);
    assert_int_equal(uf__gufunc_add_loop(g, NULL, &err), UF_ERR_INVALID);
    l.types[1] = UF_FLOAT64;
    for (int k = 0; k < 9; k++)
        uf_assert_ok(uf__gufunc_add_loop(g, &l, &err) == 0, &err);
    assert_int_equal(uf__gufunc_nloops(g), 9);
    assert_ptr_equal(uf__gufunc_get_loop(g, 8)->fn, checked_sum);
    assert_null(uf__gufunc_get_loop(g, 9));
    assert_null(uf__gufunc_get_loop(g, -1));
    assert_string_equal(uf__gufunc_name(g), "f");
    /* no loop for complex: NumPy's message, then the loops there are */
    uf_array *c = filled(UF_COMPLEX128, 1, (int64_t[]){2}, UF_ORDER_C, 1);
    uf_array *in[1] = {c}, *out[1] = {NULL};
    assert_int_equal(uf__gufunc_call(g, in, 1, out, 1, NULL, &err),
                     UF_ERR_TYPE);
    assert_non_null(strstr(err.message, "ufunc 'f' not supported for the "
                                        "input types, and the inputs could "
                                        "not be safely coerced"));
    assert_non_null(strstr(err.message, "; inputs (complex128); loops: "
                                        "(float64) -> float64, "));
    uf_array_release(c);
    uf__gufunc_free(g);
    uf__gufunc_free(NULL);
    uf__gufunc_layout_free(L);
}

/* ---- ranges of the loop space ------------------------------------------ */

/* uf__gufunc_run_range on pieces of the loop space (as parallel workers
 * would take them, cutting strips) gives what one run gives. */
static void test_run_ranges(void **state)
{
    (void)state;
    static const int64_t cuts[][6] = {
        {0, 35, -1}, {0, 3, 10, 11, 35, -1}, {0, 7, 14, 21, 28, 35},
        {0, 1, 2, 34, 35, -1}, {0, 0, 17, 17, 40, -1},
    };
    uf_array *base = filled(UF_FLOAT64, 3, (int64_t[]){5, 9, 3}, UF_ORDER_C,
                            1);
    uf_array *a = slice(base, ":, :7");
    uf_array *b = filled(UF_FLOAT64, 2, (int64_t[]){7, 3}, UF_ORDER_C, 2);
    uf_array *out = filled(UF_FLOAT64, 2, (int64_t[]){5, 7}, UF_ORDER_C, 3);
    uf__iter_operand ops[3] = {
        {uf_array_data(a), 2, uf_array_shape(a), uf_array_strides(a)},
        {uf_array_data(b), 1, uf_array_shape(b), uf_array_strides(b)},
        {uf_array_data(out), 2, uf_array_shape(out), uf_array_strides(out)},
    };
    uf__ufunc_loop loop = {.fn = inner1d_f8};
    int64_t dims[2] = {0, 3}, scratch[2], steps[5];
    uf_error err, lerr;
    uf__loop_ctx lctx = {.err = &lerr};
    uf__iter *it = uf__iter_new(3, ops, 2, (int64_t[]){5, 7}, 0, &err);

    uf_assert_ok(it != NULL, &err);
    assert_int_equal(uf__iter_nstrips(it), 5);
    memcpy(steps, uf__iter_strip_strides(it), 3 * sizeof *steps);
    steps[3] = steps[4] = 8;
    uf__gufunc_exec x = {.loop = &loop, .nargs = 3, .it = it, .ndims = 2,
                         .dims = dims, .steps = steps, .size = 35};
    for (size_t c = 0; c < sizeof cuts / sizeof cuts[0]; c++) {
        memset(uf_array_data(out), 0, 35 * sizeof(double));
        for (int k = 0; k < 5 && cuts[c][k + 1] >= 0; k++)
            assert_int_equal(uf__gufunc_run_range(&x, cuts[c][k],
                                                  cuts[c][k + 1], scratch,
                                                  &lctx), 0);
        for (int64_t k = 0; k < 35; k++) {
            double want = 0;

            for (int64_t i = 0; i < 3; i++)
                want += get_f8(a, k * 3 + i) * get_f8(b, (k % 7) * 3 + i);
            if (get_f8(out, k) != want)
                fail_msg("cuts %zu: element %lld", c, (long long)k);
        }
    }
    uf__iter_free(it);
    uf_array_release(out);
    uf_array_release(a);
    uf_array_release(b);
    uf_array_release(base);
}

/* ---- out of memory ----------------------------------------------------- */

/* max_min on an int32 input (a converted copy) with a float32 out0 (a
 * temporary copied back), out1 allocated, and axis=0. */
static int oom_max_min(gu *g, uf_array **keep, uf_error *err)
{
    int axis = 0, rc;
    uf_call_options o = {.size = sizeof o, .axes_mode = UF_AXES_LIST,
                         .naxes = 1, .axes = &axis};
    uf_array *in[1] = {keep[0]}, *out[2] = {keep[1], NULL};

    rc = uf__gufunc_call(g->g, in, 1, out, 2, &o, err);
    if (out[0] != keep[1] || (rc != 0) != (out[1] == NULL))
        fail_msg("outputs");
    uf_array_release(out[1]);
    return rc;
}

/* inner1d writing into a column of its own input (which is copied
 * first), with axes=. */
static int oom_overlap(gu *g, uf_array **keep, uf_error *err)
{
    int n[3] = {1, 1, 0}, a0[1] = {-1}, a1[1] = {0};
    const int *axes[3] = {a0, a1, NULL};
    uf_call_options o = {.size = sizeof o, .gufunc_nops = 3,
                         .gufunc_naxes = n, .gufunc_axes = axes};
    uf_array *in[2] = {keep[2], keep[3]}, *out[1] = {keep[4]};

    return uf__gufunc_call(g->g, in, 2, out, 1, &o, err);
}

/* Allocation N of each call fails for N = 1, 2, ...: UF_ERR_NOMEM and
 * nothing leaked, until the call succeeds. */
static void test_out_of_memory(void **state)
{
    (void)state;
    static int (*const calls[])(gu *, uf_array **, uf_error *) = {
        oom_max_min, oom_overlap};
    gu gs[2] = {new_gufunc("max_min", "(n)->(),()", NULL, NULL),
                new_gufunc("inner1d", "(i),(i)->()", NULL, NULL)};
    uf_array *keep[5];

    add_loop(&gs[0], UF_FLOAT64, max_min_f8, NULL);
    add_loop(&gs[1], UF_FLOAT64, inner1d_f8, NULL);
    keep[0] = filled(UF_INT32, 2, (int64_t[]){6, 40}, UF_ORDER_F, 1);
    keep[1] = filled(UF_FLOAT32, 1, (int64_t[]){40}, UF_ORDER_C, 2);
    keep[2] = filled(UF_FLOAT64, 2, (int64_t[]){8, 8}, UF_ORDER_C, 3);
    keep[3] = filled(UF_FLOAT64, 2, (int64_t[]){8, 8}, UF_ORDER_C, 4);
    keep[4] = slice(keep[2], ":, 0");
    for (size_t c = 0; c < sizeof calls / sizeof calls[0]; c++) {
        long live = uf__alloc_live();
        int k;

        for (k = 1; k < 100; k++) {
            uf_error err;
            int rc;
            bool failed;

            uf__alloc_fail_at(k);
            rc = calls[c](&gs[c], keep, &err);
            failed = uf__alloc_failed();
            uf__alloc_fail_at(0);
            if (!failed) {
                uf_assert_ok(rc == 0, &err);
                break;
            }
            if (rc != UF_ERR_NOMEM)
                fail_msg("call %zu, allocation %d: %s: %s", c, k,
                         uf_err_name(rc), err.message);
            assert_int_equal(uf__alloc_live(), live);
        }
        assert_true(k >= 5 && k < 100);
        assert_int_equal(uf__alloc_live(), live);
    }
    for (int k = 0; k < 5; k++)
        uf_array_release(keep[k]);
    free_gufunc(&gs[0]);
    free_gufunc(&gs[1]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dispatch_with_outputs),
        cmocka_unit_test(test_compile_hook),
        cmocka_unit_test(test_loop_errors),
        cmocka_unit_test(test_argument_errors),
        cmocka_unit_test(test_unaligned),
        cmocka_unit_test(test_object_api),
        cmocka_unit_test(test_run_ranges),
        cmocka_unit_test(test_out_of_memory),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
