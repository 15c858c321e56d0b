/* np.ediff1d and np.trapezoid for kernels (npfunc.h): element by element
 * over operands of any layout, in Numba's order of operations. Compiled
 * as ISO C (-ffp-contract=off): no fused multiply-adds. */
#include <stdbool.h>
#include <string.h>

#include <ufjit/array.h>
#include <ufjit/dtype.h>

#include "common/npfunc.h"

/* A walk over an operand in C order. */
typedef struct walk {
    const uf__np_operand *o;
    int64_t idx[UF_MAXDIMS];
    const char *p;
} walk;

static int64_t size_of(const uf__np_operand *o)
{
    int64_t n = 1;
    for (int64_t k = 0; k < o->nd; k++)
        n *= o->shape[k];
    return n;
}

static void walk_start(walk *w, const uf__np_operand *o)
{
    w->o = o;
    w->p = o->data;
    memset(w->idx, 0, sizeof(int64_t) * (size_t)o->nd);
}

/* The current element's address, then a step to the next one. */
static const char *walk_next(walk *w)
{
    const char *cur = w->p;
    const uf__np_operand *o = w->o;
    for (int64_t k = o->nd - 1; k >= 0; k--) {
        w->p += o->strides[k];
        if (++w->idx[k] < o->shape[k])
            break;
        w->p -= o->strides[k] * o->shape[k];
        w->idx[k] = 0;
    }
    return cur;
}

/* An element as its integer bits (sign- or zero-extended) and as a
 * complex number. */
typedef struct num {
    uint64_t bits;
    double re, im;
    bool is_int, is_uns;
} num;

static num load(const char *p, int32_t dt)
{
    num v = {0, 0.0, 0.0, true, false};
    switch (dt) {
#define INT(e, ctype, uns)                                                  \
    case UF_##e: {                                                          \
        ctype x;                                                            \
        memcpy(&x, p, sizeof x);                                            \
        v.bits = (uint64_t)x;                                               \
        v.is_uns = uns;                                                     \
        v.re = (double)x;                                                   \
        return v;                                                           \
    }
        INT(BOOL, bool, true)
        INT(INT8, int8_t, false)
        INT(UINT8, uint8_t, true)
        INT(INT16, int16_t, false)
        INT(UINT16, uint16_t, true)
        INT(INT32, int32_t, false)
        INT(UINT32, uint32_t, true)
        INT(INT64, int64_t, false)
        INT(UINT64, uint64_t, true)
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
    v.is_int = false;
    return v;
}

/* Stores v as dtype dt: integers by their low bits, floats from the
 * integer itself (one rounding), complex parts as they are. */
static void store(char *p, int32_t dt, num v)
{
    switch (dt) {
#define INT(e, ctype)                                                       \
    case UF_##e: {                                                          \
        ctype x = (ctype)v.bits;                                            \
        memcpy(p, &x, sizeof x);                                            \
        return;                                                             \
    }
        INT(INT8, int8_t)
        INT(UINT8, uint8_t)
        INT(INT16, int16_t)
        INT(UINT16, uint16_t)
        INT(INT32, int32_t)
        INT(UINT32, uint32_t)
        INT(INT64, int64_t)
        INT(UINT64, uint64_t)
#undef INT
    case UF_BOOL: {
        bool x = v.bits != 0;
        memcpy(p, &x, sizeof x);
        return;
    }
    default:
        break;
    }
    double re = v.re;
    if (v.is_int)
        re = v.is_uns ? (double)v.bits : (double)(int64_t)v.bits;
    switch (dt) {
    case UF_FLOAT32: {
        float x = (float)re;
        memcpy(p, &x, sizeof x);
        return;
    }
    case UF_FLOAT64:
        memcpy(p, &re, sizeof re);
        return;
    case UF_COMPLEX64: {
        float x[2] = {(float)re, (float)v.im};
        memcpy(p, x, sizeof x);
        return;
    }
    default: {
        double x[2] = {re, v.im};
        memcpy(p, x, sizeof x);
        return;
    }
    }
}

/* Copies o raveled into out (dtype odt); returns the next free byte. */
static char *ravel(const uf__np_operand *o, char *out, int32_t odt)
{
    size_t isz = uf_dtype_itemsize((uf_dtype)odt);
    walk w;
    walk_start(&w, o);
    for (int64_t i = size_of(o); i > 0; i--, out += isz)
        store(out, odt, load(walk_next(&w), o->dt));
    return out;
}

/* b - a, both of dtype dt: integers wrap, float32 in float. */
static num minus(num b, num a, int32_t dt)
{
    num r = b;
    if (b.is_int) {
        r.bits = b.bits - a.bits;
        return r;
    }
    if (dt == UF_FLOAT32 || dt == UF_COMPLEX64) {
        r.re = (float)((float)b.re - (float)a.re);
        r.im = (float)((float)b.im - (float)a.im);
    } else {
        r.re = b.re - a.re;
        r.im = b.im - a.im;
    }
    return r;
}

void uf__np_ediff1d(const uf__np_operand *ary, const uf__np_operand *end,
                    const uf__np_operand *begin, char *out, int32_t odt)
{
    if (begin != NULL)
        out = ravel(begin, out, odt);
    size_t isz = uf_dtype_itemsize((uf_dtype)odt);
    int64_t n = size_of(ary);
    if (n > 0) {
        walk w;
        walk_start(&w, ary);
        num prev = load(walk_next(&w), ary->dt);
        for (int64_t i = 1; i < n; i++, out += isz) {
            num cur = load(walk_next(&w), ary->dt);
            store(out, odt, minus(cur, prev, ary->dt));
            prev = cur;
        }
    }
    if (end != NULL)
        ravel(end, out, odt);
}

/* The length of a difference along an axis of n elements. */
static int64_t less_one(int64_t n)
{
    return n > 0 ? n - 1 : 0;
}

/* Axis j of the m-dimensional broadcast of operand o (nd axes, its last
 * one shortened by one): 1 where o has no such axis. */
static int64_t dim_of(const uf__np_operand *o, int64_t m, int64_t j)
{
    int64_t k = j - (m - o->nd);
    if (k < 0)
        return 1;
    return k == o->nd - 1 ? less_one(o->shape[k]) : o->shape[k];
}

/* The m axes of the broadcast of y_ave and d into p; false where they do
 * not broadcast. */
static bool product_shape(const uf__np_operand *y, const uf__np_operand *x,
                          int64_t m, int64_t *p)
{
    for (int64_t j = 0; j < m; j++) {
        int64_t a = dim_of(y, m, j);
        int64_t b = x != NULL ? dim_of(x, m, j) : 1;
        if (a != b && a != 1 && b != 1)
            return false;
        p[j] = a == 1 ? b : a;
    }
    return true;
}

int uf__np_trapz_shape(const uf__np_operand *y, const uf__np_operand *x,
                       int64_t nd, int64_t *out_shape)
{
    int64_t p[UF_MAXDIMS];
    if (!product_shape(y, x, nd + 1, p))
        return -1;
    memcpy(out_shape, p, sizeof(int64_t) * (size_t)nd);
    return 0;
}

/* (y[k] + y[k + 1]) / 2.0 as Numba's array expression computes it, with
 * its scalar rules: bools and integers added as int64 (uint64 for
 * unsigned ones; wrapping), floats in their own precision, then float64
 * division, or NumPy's complex division by 2 + 0j (Smith's: the ratio 0
 * multiplies the other part, so an infinite part makes a NaN). */
static void y_ave(const char *p0, const char *p1, int32_t dt, double *re,
                  double *im)
{
    num a = load(p0, dt), b = load(p1, dt);
    double s, t = 0.0;
    if (a.is_int) {
        uint64_t sum = a.bits + b.bits;
        s = a.is_uns && dt != UF_BOOL ? (double)sum : (double)(int64_t)sum;
    } else if (dt == UF_FLOAT32 || dt == UF_COMPLEX64) {
        s = (float)((float)a.re + (float)b.re);
        t = (float)((float)a.im + (float)b.im);
    } else {
        s = a.re + b.re;
        t = a.im + b.im;
    }
    if (uf_dtype_kind((uf_dtype)dt) == 'c') {
        *re = (s + t * 0.0) * 0.5;
        *im = (t - s * 0.0) * 0.5;
    } else {
        *re = s / 2.0;
        *im = 0.0;
    }
}

void uf__np_trapz(const uf__np_operand *y, const uf__np_operand *x,
                  double dxr, double dxi, int32_t cplx, int64_t nd,
                  const int64_t *out_shape, double *out)
{
    int64_t m = nd + 1, p[UF_MAXDIMS], idx[UF_MAXDIMS];
    product_shape(y, x, m, p);
    int64_t nout = 1;
    for (int64_t j = 0; j < nd; j++)
        nout *= out_shape[j];
    memset(idx, 0, sizeof(int64_t) * (size_t)m);
    int64_t ylast = y->strides[y->nd - 1];
    int64_t ystep = dim_of(y, m, m - 1) == 1 ? 0 : ylast;
    int64_t xlast = x != NULL ? x->strides[x->nd - 1] : 0;
    int64_t xstep = x != NULL && dim_of(x, m, m - 1) != 1 ? xlast : 0;
    bool xc = x != NULL && uf_dtype_kind((uf_dtype)x->dt) == 'c';
    for (int64_t o = 0; o < nout; o++) {
        /* the operands' first elements at the output's index */
        const char *yp = y->data, *xp = x != NULL ? x->data : NULL;
        for (int64_t j = 0; j < nd; j++) {
            int64_t ky = j - (m - y->nd);
            if (ky >= 0 && y->shape[ky] != 1)
                yp += idx[j] * y->strides[ky];
            int64_t kx = x != NULL ? j - (m - x->nd) : -1;
            if (kx >= 0 && x->shape[kx] != 1)
                xp += idx[j] * x->strides[kx];
        }
        double sr = 0.0, si = 0.0;
        for (int64_t k = 0; k < p[m - 1]; k++) {
            double ar, ai, dr = dxr, di = dxi;
            y_ave(yp + k * ystep, yp + k * ystep + ylast, y->dt, &ar, &ai);
            if (x != NULL) {
                const char *x0 = xp + k * xstep;
                num d = minus(load(x0 + xlast, x->dt), load(x0, x->dt),
                              x->dt);
                char tmp[16]; /* np.diff's array: x's dtype (bools !=) */
                store(tmp, x->dt, d);
                d = load(tmp, x->dt);
                store(tmp, xc ? UF_COMPLEX128 : UF_FLOAT64, d);
                num dd = load(tmp, xc ? UF_COMPLEX128 : UF_FLOAT64);
                dr = dd.re;
                di = dd.im;
            }
            if (cplx) {
                sr += dr * ar - di * ai;
                si += dr * ai + di * ar;
            } else {
                sr += dr * ar;
            }
        }
        if (cplx) {
            out[2 * o] = sr;
            out[2 * o + 1] = si;
        } else {
            out[o] = sr;
        }
        for (int64_t j = nd - 1; j >= 0; j--) {
            if (++idx[j] < out_shape[j])
                break;
            idx[j] = 0;
        }
    }
}
