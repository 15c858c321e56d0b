/* numpy.polynomial.polynomial's functions for kernels (nppoly.h), in
 * Numba 0.68's order of operations: the series converted to float64 or
 * complex128 first (as_series' astype), then the arithmetic of its
 * polynomial_functions.py. Compiled as ISO C (-ffp-contract=off): no
 * fused multiply-adds. */
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include <ufjit/array.h>
#include <ufjit/dtype.h>

#include "common/alloc.h"
#include "common/nplinalg.h"
#include "common/nppoly.h"
#include "common/npsignal.h"

/* A complex number, or a real one with im 0 (unused where !cplx). */
typedef struct cnum {
    double re, im;
} cnum;

static int64_t size_of(const uf__np_operand *o)
{
    int64_t n = 1;
    for (int64_t k = 0; k < o->nd; k++)
        n *= o->shape[k];
    return n;
}

/* The element at p of dtype dt converted as astype(float64 / complex128)
 * converts it. */
static cnum load(const char *p, int32_t dt)
{
    cnum v = {0.0, 0.0};
    switch (dt) {
#define INT(e, ctype)                                                       \
    case UF_##e: {                                                          \
        ctype x;                                                            \
        memcpy(&x, p, sizeof x);                                            \
        v.re = (double)x;                                                   \
        break;                                                              \
    }
        INT(BOOL, bool)
        INT(INT8, int8_t)
        INT(UINT8, uint8_t)
        INT(INT16, int16_t)
        INT(UINT16, uint16_t)
        INT(INT32, int32_t)
        INT(UINT32, uint32_t)
        INT(INT64, int64_t)
        INT(UINT64, uint64_t)
#undef INT
    case UF_FLOAT32: {
        float x;
        memcpy(&x, p, sizeof x);
        v.re = x;
        break;
    }
    case UF_FLOAT64:
        memcpy(&v.re, p, sizeof v.re);
        break;
    case UF_COMPLEX64: {
        float x[2];
        memcpy(x, p, sizeof x);
        v.re = x[0];
        v.im = x[1];
        break;
    }
    default: {
        double x[2];
        memcpy(x, p, sizeof x);
        v.re = x[0];
        v.im = x[1];
        break;
    }
    }
    return v;
}

/* Element i of a 0-d or 1-D operand. */
static cnum at(const uf__np_operand *o, int64_t i)
{
    return load(o->nd == 0 ? o->data : o->data + i * o->strides[0], o->dt);
}

static bool nonzero(cnum v, int32_t cplx)
{
    return cplx ? v.re != 0.0 || v.im != 0.0 : v.re != 0.0;
}

static cnum get(const double *buf, int64_t i, int32_t cplx)
{
    cnum v = {buf[cplx ? 2 * i : i], cplx ? buf[2 * i + 1] : 0.0};
    return v;
}

static void set(double *buf, int64_t i, int32_t cplx, cnum v)
{
    if (cplx) {
        buf[2 * i] = v.re;
        buf[2 * i + 1] = v.im;
    } else {
        buf[i] = v.re;
    }
}

/* trimseq's length of an operand of n > 0 elements (at least 1). */
static int64_t trim_op(const uf__np_operand *o, int64_t n, int32_t cplx)
{
    while (n > 1 && !nonzero(at(o, n - 1), cplx))
        n--;
    return n;
}

/* trimseq's length of buf[0..n), n > 0. */
static int64_t trim_buf(const double *buf, int64_t n, int32_t cplx)
{
    while (n > 1 && !nonzero(get(buf, n - 1, cplx), cplx))
        n--;
    return n;
}

/* Numba's complex multiplication (CPython's _Py_c_prod, and the ufunc's). */
static cnum cmul(cnum a, cnum b)
{
    cnum r = {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
    return r;
}

/* x * 0 with an integer 0 (promoted to 0.0 or 0j). */
static cnum times0(cnum a, int32_t cplx)
{
    if (!cplx) {
        cnum r = {a.re * 0.0, 0.0};
        return r;
    }
    cnum z = {0.0, 0.0};
    return cmul(a, z);
}

/* a / b as Numba divides floats, or complex numbers (CPython's
 * _Py_c_quot, numba/cpython/numbers.py complex_div: Numba's array
 * expressions divide with the scalar operator, not the ufunc's loop); b is
 * never 0 here. */
static cnum cdiv(cnum a, cnum b, int32_t cplx)
{
    cnum r = {a.re / b.re, 0.0};
    if (!cplx)
        return r;
    double br = fabs(b.re), bi = fabs(b.im);
    if (br >= bi) {
        double ratio = b.im / b.re, denom = b.re + b.im * ratio;
        r.re = (a.re + a.im * ratio) / denom;
        r.im = (a.im - a.re * ratio) / denom;
    } else if (bi >= br) {
        double ratio = b.re / b.im, denom = b.re * ratio + b.im;
        r.re = (a.re * ratio + a.im) / denom;
        r.im = (a.im * ratio - a.re) / denom;
    } else {
        r.re = r.im = NAN;
    }
    return r;
}

int64_t uf__np_polyaddsub(const uf__np_operand *a, const uf__np_operand *b,
                          int32_t sub, int32_t cplx, double *out)
{
    int64_t n1 = size_of(a), n2 = size_of(b);
    if (n1 == 0 || n2 == 0)
        return UF__NPPOLY_EMPTY;
    n1 = trim_op(a, n1, cplx);
    n2 = trim_op(b, n2, cplx);
    int64_t n = n1 > n2 ? n1 : n2;
    for (int64_t i = 0; i < n; i++) {
        cnum x = {0.0, 0.0}, y = {0.0, 0.0}, r;
        if (i < n1)
            x = at(a, i);
        if (i < n2)
            y = at(b, i);
        r.re = sub ? x.re - y.re : x.re + y.re;
        r.im = sub ? x.im - y.im : x.im + y.im;
        set(out, i, cplx, r);
    }
    return trim_buf(out, n, cplx);
}

/* The series of o (trimmed, converted) into a new buffer; *n its length. */
static double *series(const uf__np_operand *o, int32_t cplx, int64_t *n)
{
    *n = trim_op(o, size_of(o), cplx);
    double *p = uf__malloc((size_t)*n, cplx ? 2 * sizeof(double)
                                            : sizeof(double), NULL);
    if (p != NULL)
        for (int64_t i = 0; i < *n; i++)
            set(p, i, cplx, at(o, i));
    return p;
}

int64_t uf__np_polymul(const uf__np_operand *a, const uf__np_operand *b,
                       int32_t cplx, double *out)
{
    if (size_of(a) == 0 || size_of(b) == 0)
        return UF__NPPOLY_EMPTY;
    int64_t n1, n2, rc = UF__NPPOLY_NOMEM;
    double *x = series(a, cplx, &n1), *y = NULL;
    if (x == NULL)
        return rc;
    y = series(b, cplx, &n2);
    if (y == NULL)
        goto fail_y;
    int32_t dt = cplx ? UF_COMPLEX128 : UF_FLOAT64;
    int64_t w = cplx ? 16 : 8;
    if (uf__np_correlate((const char *)x, n1, w, dt, (const char *)y, n2, w,
                         dt, UF__NPSIGNAL_FULL << 1, (char *)out, dt) == 0)
        rc = trim_buf(out, n1 + n2 - 1, cplx);
    uf__free(y);
fail_y:
    uf__free(x);
    return rc;
}

int64_t uf__np_polydiv(const uf__np_operand *a, const uf__np_operand *b,
                       int32_t cplx, double *quo, double *rem,
                       int64_t *nrem)
{
    int64_t l1 = size_of(a), l2 = size_of(b);
    if (l1 == 0 || l2 == 0)
        return UF__NPPOLY_EMPTY;
    l1 = trim_op(a, l1, cplx);
    l2 = trim_op(b, l2, cplx);
    cnum scl = at(b, l2 - 1);
    if (!nonzero(scl, cplx))
        return UF__NPPOLY_ZERODIV;
    for (int64_t i = 0; i < l1; i++) /* arr1, worked on in place */
        set(rem, i, cplx, at(a, i));
    if (l1 < l2) {
        set(quo, 0, cplx, times0(get(rem, 0, cplx), cplx));
        *nrem = l1;
        return 1;
    }
    if (l2 == 1) {
        for (int64_t i = 0; i < l1; i++)
            set(quo, i, cplx, cdiv(get(rem, i, cplx), scl, cplx));
        set(rem, 0, cplx, times0(get(rem, 0, cplx), cplx));
        *nrem = 1;
        return l1;
    }
    /* arr1[i:j] -= (arr2[:-1] / scl) * arr1[j], j from l1 - 1 down */
    for (int64_t i = l1 - l2, j = l1 - 1; i >= 0; i--, j--) {
        cnum aj = get(rem, j, cplx);
        for (int64_t k = 0; k < l2 - 1; k++) {
            cnum q = cdiv(at(b, k), scl, cplx), t = get(rem, i + k, cplx);
            cnum p = cplx ? cmul(q, aj) : (cnum){q.re * aj.re, 0.0};
            t.re -= p.re;
            t.im -= p.im;
            set(rem, i + k, cplx, t);
        }
    }
    for (int64_t i = l2 - 1; i < l1; i++)
        set(quo, i - (l2 - 1), cplx, cdiv(get(rem, i, cplx), scl, cplx));
    *nrem = trim_buf(rem, l2 - 1, cplx);
    return l1 - l2 + 1;
}

int64_t uf__np_polyint(const uf__np_operand *c, int64_t m, int32_t cplx,
                       int32_t trim, double *out)
{
    int64_t n = c->nd ? c->shape[0] : 1, rest = 1;
    for (int64_t k = 1; k < c->nd; k++)
        rest *= c->shape[k];
    if (m > 0 && n == 0)
        return UF__NPPOLY_INDEX;
    /* c (any layout) into out's first n rows, C order */
    int64_t idx[UF_MAXDIMS] = {0}, total = n * rest;
    const char *p = c->data;
    for (int64_t e = 0; e < total; e++) {
        set(out, e, cplx, load(p, c->dt));
        for (int64_t k = c->nd - 1; k >= 0; k--) {
            p += c->strides[k];
            if (++idx[k] < c->shape[k])
                break;
            p -= c->strides[k] * c->shape[k];
            idx[k] = 0;
        }
    }
    for (int64_t it = 0; it < m; it++, n++)
        for (int64_t r = 0; r < rest; r++) {
            /* row j + 1 = row j / (j + 1) from the last down, row 1 = row
             * 0, row 0 = row 0 * 0 */
            for (int64_t j = n - 1; j >= 1; j--) {
                cnum v = get(out, j * rest + r, cplx);
                cnum d = {(double)(j + 1), 0.0};
                set(out, (j + 1) * rest + r, cplx, cdiv(v, d, cplx));
            }
            cnum v0 = get(out, r, cplx);
            set(out, rest + r, cplx, v0);
            set(out, r, cplx, times0(v0, cplx));
        }
    if (trim && n > 0)
        return trim_buf(out, n, cplx);
    return n;
}

int64_t uf__np_polyval_shape(const uf__np_operand *c, const uf__np_operand *x,
                             int32_t tensor, int64_t nd, int64_t *shape)
{
    if (c->nd == 0 ? false : c->shape[0] == 0)
        return UF__NPPOLY_INDEX;
    int64_t rc = c->nd > 0 ? c->nd - 1 : 0;
    if (tensor) {
        for (int64_t k = 0; k < rc; k++)
            shape[k] = c->shape[k + 1];
        for (int64_t k = 0; k < x->nd; k++)
            shape[rc + k] = x->shape[k];
        return 0;
    }
    for (int64_t k = 0; k < nd; k++) {
        int64_t kc = k - (nd - rc), kx = k - (nd - x->nd);
        int64_t dc = kc >= 0 ? c->shape[kc + 1] : 1;
        int64_t dx = kx >= 0 ? x->shape[kx] : 1;
        if (dc != dx && dc != 1 && dx != 1)
            return UF__NPPOLY_BCAST;
        shape[k] = dc == 1 ? dx : dc;
    }
    return 0;
}

int64_t uf__np_polyval(const uf__np_operand *c, const uf__np_operand *x,
                       int32_t tensor, int32_t cplx, int64_t nd,
                       const int64_t *shape, double *out)
{
    /* strides over the result's axes (0 where broadcast) of c's rest
     * axes and x's: c's first, then x's with tensor, else both
     * right-aligned */
    int64_t cs[UF_MAXDIMS] = {0}, xs[UF_MAXDIMS] = {0}, idx[UF_MAXDIMS];
    int64_t rc = c->nd > 0 ? c->nd - 1 : 0;
    int64_t oc = tensor ? 0 : nd - rc, ox = tensor ? rc : nd - x->nd;
    for (int64_t k = 0; k < rc; k++)
        cs[oc + k] = c->shape[k + 1] == 1 ? 0 : c->strides[k + 1];
    for (int64_t k = 0; k < x->nd; k++)
        xs[ox + k] = x->shape[k] == 1 ? 0 : x->strides[k];
    int64_t l = c->nd ? c->shape[0] : 1, sc0 = c->nd ? c->strides[0] : 0;
    int64_t total = 1;
    for (int64_t k = 0; k < nd; k++) {
        total *= shape[k];
        idx[k] = 0;
    }
    const char *pc = c->data, *px = x->data;
    for (int64_t e = 0; e < total; e++) {
        cnum xv = load(px, x->dt), y = times0(xv, cplx);
        cnum cl = load(pc + (l - 1) * sc0, c->dt);
        y.re = cl.re + y.re;
        y.im = cl.im + y.im;
        for (int64_t i = l - 1; i >= 1; i--) {
            cnum ci = load(pc + (i - 1) * sc0, c->dt);
            cnum t = cplx ? cmul(y, xv) : (cnum){y.re * xv.re, 0.0};
            y.re = ci.re + t.re;
            y.im = ci.im + t.im;
        }
        set(out, e, cplx, y);
        for (int64_t k = nd - 1; k >= 0; k--) {
            pc += cs[k];
            px += xs[k];
            if (++idx[k] < shape[k])
                break;
            pc -= cs[k] * shape[k];
            px -= xs[k] * shape[k];
            idx[k] = 0;
        }
    }
    return 0;
}

int64_t uf__np_trimlen(const uf__np_operand *seq)
{
    int64_t n = size_of(seq);
    if (n == 0)
        return 0;
    bool cplx = uf_dtype_kind((uf_dtype)seq->dt) == 'c';
    return trim_op(seq, n, cplx);
}

/* np.roots of complex p: the complex companion matrix (its first row
 * -p[1:] / p[0] with Numba's complex division, in double, stored in dt)
 * to common/nplinalg_ceig.c's eigenvalues. */
static int64_t croots(const uf__np_operand *p, int64_t first, int64_t m,
                      int32_t dt, char *out)
{
    bool c8 = dt == UF_COMPLEX64;
    size_t w = c8 ? 2 * sizeof(float) : 2 * sizeof(double);
    char *a = uf__calloc((size_t)(m * m), w, NULL);
    if (a == NULL)
        return UF__NPPOLY_NOMEM;
    cnum p0 = at(p, first);
    for (int64_t i = 0; i < m * m; i++) {
        cnum v = {0.0, 0.0};
        if (i < m) {
            v = cdiv(at(p, first + 1 + i), p0, 1);
            v.re = -v.re;
            v.im = -v.im;
        } else if (i % m == i / m - 1) { /* ones below the diagonal */
            v.re = 1.0;
        }
        if (c8) {
            ((float *)a)[2 * i] = (float)v.re;
            ((float *)a)[2 * i + 1] = (float)v.im;
        } else {
            ((double *)a)[2 * i] = v.re;
            ((double *)a)[2 * i + 1] = v.im;
        }
    }
    int64_t shape[2] = {m, m}, strides[2] = {m * (int64_t)w, (int64_t)w};
    int rc = uf__nplinalg_c_eig(a, shape, strides, dt, out, NULL);
    uf__free(a);
    return rc == 0                          ? 0
           : rc == UF__NPLINALG_NONFINITE ? UF__NPPOLY_NONFINITE
           : rc == UF__NPLINALG_NOMEM     ? UF__NPPOLY_NOMEM
                                          : UF__NPPOLY_CONVERGE;
}

int64_t uf__np_roots(const uf__np_operand *p, int32_t dt, char *out)
{
    int64_t len = size_of(p), first = 0, last = len - 1;
    bool cplx = uf_dtype_kind((uf_dtype)dt) == 'c';
    while (first < len && !nonzero(at(p, first), cplx))
        first++;
    if (first == len)
        return 0;
    while (!nonzero(at(p, last), cplx))
        last--;
    int64_t tz = len - last - 1, n = last - first + 1, m = n - 1;
    bool f4 = dt == UF_FLOAT32;
    size_t w = cplx ? uf_dtype_itemsize((uf_dtype)dt)
                    : f4 ? sizeof(float) : sizeof(double);
    if (m > 0 && cplx) {
        int64_t rc = croots(p, first, m, dt, out);
        if (rc != 0)
            return rc;
    } else if (m > 0) {
        /* the companion matrix: ones below the diagonal, the first row
         * -p[1:] / p[0] (in dt, as Numba's arrays of cast_t) */
        char *a = uf__calloc((size_t)(m * m), w, NULL);
        if (a == NULL)
            return UF__NPPOLY_NOMEM;
        for (int64_t i = 1; i < m; i++) {
            if (f4)
                ((float *)a)[i * m + i - 1] = 1.0f;
            else
                ((double *)a)[i * m + i - 1] = 1.0;
        }
        double p0 = at(p, first).re;
        for (int64_t j = 0; j < m; j++) {
            double pj = at(p, first + 1 + j).re;
            if (f4)
                ((float *)a)[j] = -((float)pj / (float)p0);
            else
                ((double *)a)[j] = -(pj / p0);
        }
        int64_t shape[2] = {m, m}, strides[2] = {m * (int64_t)w,
                                                 (int64_t)w};
        int rc = uf__np_linalg_eig(a, shape, strides, dt, out, NULL);
        uf__free(a);
        if (rc != 0)
            return rc == UF__NPLINALG_DOMAIN      ? UF__NPPOLY_DOMAIN
                   : rc == UF__NPLINALG_NONFINITE ? UF__NPPOLY_NONFINITE
                   : rc == UF__NPLINALG_NOMEM     ? UF__NPPOLY_NOMEM
                                                  : UF__NPPOLY_CONVERGE;
    }
    memset(out + (size_t)m * w, 0, (size_t)tz * w);
    return m + tz;
}
