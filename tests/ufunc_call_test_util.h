/* Helpers shared by the ufunc call tests (test_ufunc_call*.c):
 * hand-written C loops (NumPy's semantics), a spying loop, building
 * ufuncs and arrays, and a call with default options. Functions are
 * static inline: each test uses a subset. */
#ifndef UF_TESTS_UFUNC_CALL_TEST_UTIL_H
#define UF_TESTS_UFUNC_CALL_TEST_UTIL_H

#include <math.h>

#include "test_util.h"

#include "common/alloc.h"
#include "common/error_internal.h"
#include "ndarray/cast.h"
#include "ufunc/ufunc.h"

/* ---- loops ------------------------------------------------------------- */

#define AT(p, i, s, T) (*(T *)((p) + (i) * (s)))

/* out = a + b over one strip, for each C type. */
#define BINARY_LOOP(name, T, expr)                                         \
    static inline int name(void *ctx, char *const *d, const int64_t *n,    \
                           const int64_t *s, void *aux)                    \
    {                                                                      \
        (void)ctx, (void)aux;                                              \
        for (int64_t i = 0; i < n[0]; i++) {                               \
            T a = AT(d[0], i, s[0], T), b = AT(d[1], i, s[1], T);          \
            AT(d[2], i, s[2], T) = (expr);                                 \
        }                                                                  \
        return 0;                                                          \
    }

BINARY_LOOP(add_f4, float, a + b)
BINARY_LOOP(add_f8, double, a + b)
/* Integer addition wraps, as NumPy's does. */
BINARY_LOOP(add_i4, int32_t, (int32_t)((uint32_t)a + (uint32_t)b))
BINARY_LOOP(add_i8, int64_t, (int64_t)((uint64_t)a + (uint64_t)b))

static inline int neg_f8(void *ctx, char *const *d, const int64_t *n,
                         const int64_t *s, void *aux)
{
    (void)ctx, (void)aux;
    for (int64_t i = 0; i < n[0]; i++)
        AT(d[1], i, s[1], double) = -AT(d[0], i, s[0], double);
    return 0;
}

/* Python's floor division and modulo; NumPy gives 0 for a zero divisor
 * and wraps INT64_MIN // -1. */
static inline int divmod_i8(void *ctx, char *const *d, const int64_t *n,
                            const int64_t *s, void *aux)
{
    (void)ctx, (void)aux;
    for (int64_t i = 0; i < n[0]; i++) {
        int64_t a = AT(d[0], i, s[0], int64_t), b = AT(d[1], i, s[1], int64_t);
        int64_t q, r;

        if (b == 0) {
            q = r = 0;
        } else if (a == INT64_MIN && b == -1) {
            q = INT64_MIN;
            r = 0;
        } else {
            q = a / b;
            r = a % b;
            if (r != 0 && ((r < 0) != (b < 0))) {
                q--;
                r += b;
            }
        }
        AT(d[2], i, s[2], int64_t) = q;
        AT(d[3], i, s[3], int64_t) = r;
    }
    return 0;
}

/* NumPy's npy_divmod. */
static inline int divmod_f8(void *ctx, char *const *d, const int64_t *n,
                            const int64_t *s, void *aux)
{
    (void)ctx, (void)aux;
    for (int64_t i = 0; i < n[0]; i++) {
        double a = AT(d[0], i, s[0], double), b = AT(d[1], i, s[1], double);
        double mod = fmod(a, b), div, floordiv;

        if (b == 0) {
            AT(d[2], i, s[2], double) = a / b;
            AT(d[3], i, s[3], double) = mod;
            continue;
        }
        div = (a - mod) / b;
        if (mod != 0) {
            if ((b < 0) != (mod < 0)) {
                mod += b;
                div -= 1.0;
            }
        } else {
            mod = copysign(0.0, b);
        }
        if (div != 0) {
            floordiv = floor(div);
            if (div - floordiv > 0.5)
                floordiv += 1.0;
        } else {
            floordiv = copysign(0.0, a / b);
        }
        AT(d[2], i, s[2], double) = floordiv;
        AT(d[3], i, s[3], double) = mod;
    }
    return 0;
}

/* out = x; fails on a negative x with a message, on NaN with only a
 * status, so both error forms are seen. */
static inline int checked_f8(void *ctx, char *const *d, const int64_t *n,
                             const int64_t *s, void *aux)
{
    uf__loop_ctx *c = ctx;

    (void)aux;
    for (int64_t i = 0; i < n[0]; i++) {
        double x = AT(d[0], i, s[0], double);

        if (x < 0) {
            uf__error_set(c->err, UF_ERR_VALUE, "negative input %g", x);
            return 1;
        }
        if (isnan(x))
            return 7;
        AT(d[1], i, s[1], double) = x;
    }
    return 0;
}

/* out = x * *(double *)aux. */
static inline int scale_f8(void *ctx, char *const *d, const int64_t *n,
                           const int64_t *s, void *aux)
{
    (void)ctx;
    for (int64_t i = 0; i < n[0]; i++)
        AT(d[1], i, s[1], double) = AT(d[0], i, s[0], double) *
                                    *(const double *)aux;
    return 0;
}

/* Sum of every input (nin in aux). */
static inline int sum_f8(void *ctx, char *const *d, const int64_t *n,
                         const int64_t *s, void *aux)
{
    int nin = *(const int *)aux;

    (void)ctx;
    for (int64_t i = 0; i < n[0]; i++) {
        double acc = 0;

        for (int k = 0; k < nin; k++)
            acc += AT(d[k], i, s[k], double);
        AT(d[nin], i, s[nin], double) = acc;
    }
    return 0;
}

/* A loop that records how it is called, then runs `inner`. */
typedef struct spy {
    uf__strided_loop inner;
    int nop;
    int64_t calls, total, max_n, min_n;
    char *first[4];
    int64_t strides[4];
    bool misaligned;
    size_t align;
} spy;

static inline int spy_loop(void *ctx, char *const *d, const int64_t *n,
                           const int64_t *s, void *aux)
{
    spy *sp = aux;

    if (sp->calls == 0) {
        for (int i = 0; i < sp->nop; i++) {
            sp->first[i] = d[i];
            sp->strides[i] = s[i];
        }
        sp->min_n = n[0];
    }
    sp->calls++;
    sp->total += n[0];
    if (n[0] > sp->max_n)
        sp->max_n = n[0];
    if (n[0] < sp->min_n)
        sp->min_n = n[0];
    for (int i = 0; i < sp->nop; i++)
        if ((uintptr_t)d[i] % sp->align != 0 ||
            (s[i] % (int64_t)sp->align) != 0)
            sp->misaligned = true;
    return sp->inner(ctx, d, n, s, NULL);
}

/* ---- building ufuncs --------------------------------------------------- */

static inline uf__ufunc *new_ufunc(const char *name, int nin, int nout)
{
    uf_error err;
    uf__ufunc *u = uf__ufunc_new(name, nin, nout, NULL, NULL, &err);

    uf_assert_ok(u != NULL, &err);
    return u;
}

/* Appends a loop whose operands all have type t. */
static inline void add_loop(uf__ufunc *u, uf_dtype t, uf__strided_loop fn,
                            void *aux)
{
    uf__ufunc_loop l;
    uf_error err;

    memset(&l, 0, sizeof l);
    for (int i = 0; i < uf__ufunc_nin(u) + uf__ufunc_nout(u); i++)
        l.types[i] = t;
    l.fn = fn;
    l.aux = aux;
    uf_assert_ok(uf__ufunc_add_loop(u, &l, &err) == 0, &err);
}

/* ---- array helpers ----------------------------------------------------- */

/* Pointer to the element with C-order flat index k. */
static inline char *elem(const uf_array *a, int64_t k)
{
    const int64_t *shape = uf_array_shape(a), *st = uf_array_strides(a);
    char *p = uf_array_data(a);

    for (int d = uf_array_ndim(a) - 1; d >= 0; d--) {
        p += (k % shape[d]) * st[d];
        k /= shape[d];
    }
    return p;
}

static inline double get_f8(const uf_array *a, int64_t k)
{
    double v;

    uf__get_cast(uf_array_dtype(a), UF_FLOAT64)(elem(a, k), 0, (char *)&v, 0,
                                                1);
    return v;
}

static inline void set_f8(uf_array *a, int64_t k, double v)
{
    uf__get_cast(UF_FLOAT64, uf_array_dtype(a))((const char *)&v, 0,
                                                elem(a, k), 0, 1);
}

static inline uf_array *new_array(uf_dtype dt, int ndim, const int64_t *shape,
                                  uf_order order)
{
    uf_error err;
    uf_array *a = uf_empty(dt, ndim, shape, order, &err);

    uf_assert_ok(a != NULL, &err);
    return a;
}

static inline uf_array *slice(uf_array *a, const char *expr)
{
    uf_error err;
    uf_array *v = uf_array_slice(a, expr, &err);

    uf_assert_ok(v != NULL, &err);
    return v;
}

/* ---- calls ------------------------------------------------------------- */

/* A call with the given inputs and outputs and default options. */
static inline int call(uf__ufunc *u, uf_array **in, uf_array **out,
                       const uf_call_options *opts, uf_error *err)
{
    return uf__ufunc_call(u, in, uf__ufunc_nin(u), out, uf__ufunc_nout(u),
                          opts, err);
}

static inline uf__ufunc *spied_add(spy *sp, uf_dtype t)
{
    uf__ufunc *u = new_ufunc("add", 2, 1);

    memset(sp, 0, sizeof *sp);
    sp->inner = t == UF_FLOAT32 ? add_f4 : add_f8;
    sp->nop = 3;
    sp->align = uf_dtype_itemsize(t);
    add_loop(u, t, spy_loop, sp);
    return u;
}

static inline uf_array *filled(uf_dtype dt, int ndim, const int64_t *shape,
                               uf_order order, int seed)
{
    uf_array *a = new_array(dt, ndim, shape, order);

    for (int64_t k = 0; k < uf_array_size(a); k++)
        set_f8(a, k, (double)((k * 7 + seed * 13) % 101 - 50));
    return a;
}

#endif
