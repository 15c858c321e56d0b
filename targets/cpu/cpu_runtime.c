/* C runtime helpers that JIT code calls through absolute symbols: the
 * cmath functions worth not open-coding (NumPy's/Numba's algorithms), the
 * chunked driver of the broadcast loop path and the padded last block of
 * blocked contiguous loops. */
#include <math.h>
#include <string.h>

#include "targets/cpu/cpu.h"

/* cmath.sqrt: NumPy's npy_csqrt as Numba lowers it. */
static void rt_csqrt(double *z)
{
    const double thres = 1.7976931348623157e308 / (1.0 + 1.4142135623730951);
    double a = z[0], b = z[1], re, im;
    if ((a == 0.0 && b == 0.0) || isinf(b)) {
        z[0] = fabs(b);
        return; /* imag stays b */
    }
    if (isnan(a)) {
        z[1] = a;
        return;
    }
    if (isinf(a)) {
        if (a < 0.0) {
            z[0] = fabs(b - b);
            z[1] = copysign(a, b);
        } else {
            z[1] = copysign(b - b, b);
        }
        return;
    }
    bool scale = fabs(a) >= thres || fabs(b) >= thres;
    if (scale) {
        a *= 0.25;
        b *= 0.25;
    }
    if (a >= 0) {
        double t = sqrt((a + hypot(a, b)) * 0.5);
        re = t;
        im = b / (2 * t);
    } else {
        double t = sqrt((-a + hypot(a, b)) * 0.5);
        re = fabs(b) / (2 * t);
        im = copysign(t, b);
    }
    /* both parts come out halved by the scaling (Numba's copy of this
     * algorithm only doubles the real part: a bug we do not reproduce) */
    z[0] = scale ? re * 2 : re;
    z[1] = scale ? im * 2 : im;
}

/* cmath.exp with Numba's special cases for infinities and NaNs. */
static void rt_cexp(double *z)
{
    double x = z[0], y = z[1];
    if (isfinite(x)) {
        if (isfinite(y)) {
            double r = exp(x);
            z[0] = r * cos(y);
            z[1] = r * sin(y);
        } else {
            z[0] = z[1] = NAN;
        }
    } else if (isnan(x)) {
        if (y != 0)
            z[1] = x;
    } else if (x > 0.0) {
        if (isfinite(y)) {
            double re = cos(y), im = sin(y);
            z[0] = re != 0 ? re * x : re;
            z[1] = im != 0 ? im * x : im;
        } else {
            z[1] = NAN;
        }
    } else {
        if (isfinite(y)) {
            double r = exp(x);
            z[0] = r * cos(y);
            z[1] = r * sin(y);
        } else {
            z[0] = z[1] = 0.0;
        }
    }
}

/* z ** w: CPython's _Py_c_pow as Numba's numba_cpow (0 ** w for w with a
 * nonzero imaginary part or a negative real part is nan+nanj). */
static void rt_cpow(double *z, const double *w)
{
    double ar = z[0], ai = z[1], br = w[0], bi = w[1];
    if (br == 0.0 && bi == 0.0) {
        z[0] = 1.0;
        z[1] = 0.0;
    } else if (ar == 0.0 && ai == 0.0) {
        if (bi != 0.0 || br < 0.0)
            z[0] = z[1] = NAN;
        else
            z[0] = z[1] = 0.0;
    } else {
        double vabs = hypot(ar, ai), len = pow(vabs, br);
        double at = atan2(ai, ar), phase = at * br;
        if (bi != 0.0) {
            len /= exp(at * bi);
            phase += bi * log(vabs);
        }
        z[0] = len * cos(phase);
        z[1] = len * sin(phase);
    }
}

/* cmath.rect(r, phi) with Numba's handling of infinities. */
static void rt_crect(double *z)
{
    double r = z[0], phi = z[1];
    if (!isfinite(phi)) {
        if (r == 0.0) {
            z[0] = fabs(r);
            z[1] = 0.0;
            return;
        }
        if (isinf(r)) {
            z[0] = r;
            z[1] = phi;
            return;
        }
    }
    double re = cos(phi), im = sin(phi);
    re = (re == 0.0 && isinf(r)) ? re / r : re * r;
    im = (im == 0.0 && isinf(r)) ? im / r : im * r;
    z[0] = re;
    z[1] = im;
}

/* The broadcast path of the ufunc loop (lower_loop.c): `contig` runs over
 * chunks of at most UF__BCAST_CHUNK elements, the inputs of stride 0
 * replaced by buffers holding copies of their one element. Outputs and the
 * other inputs are contiguous; nin <= UF__BCAST_MAXIN. */
static int rt_broadcast(int (*contig)(int64_t, char **), int64_t n,
                        char *const *data, const int64_t *strides, int64_t nin,
                        int64_t nargs, const int64_t *itemsize)
{
    _Alignas(64) unsigned char buf[UF__BCAST_MAXIN][UF__BCAST_CHUNK * 16];
    char *ptrs[UF__LOOP_MAXARGS];
    int64_t first = n < UF__BCAST_CHUNK ? n : UF__BCAST_CHUNK;
    for (int64_t k = 0; k < nin; k++)
        if (strides[k] == 0)
            for (int64_t i = 0; i < first; i++)
                memcpy(buf[k] + i * itemsize[k], data[k], (size_t)itemsize[k]);
    for (int64_t off = 0; off < n; off += UF__BCAST_CHUNK) {
        int64_t len = n - off < UF__BCAST_CHUNK ? n - off : UF__BCAST_CHUNK;
        for (int64_t k = 0; k < nargs; k++)
            ptrs[k] = (k < nin && strides[k] == 0)
                          ? (char *)buf[k]
                          : data[k] + off * itemsize[k];
        int rc = contig(len, ptrs);
        if (rc != 0)
            return rc;
    }
    return 0;
}

/* dst[i] = src[i % rest] for i < bl, elements of isz bytes: fixed-size
 * copies the compiler inlines (a call of a 1-element strip pads 16). */
#define PAD_AS(T)                                                          \
    for (int64_t i = 0, j = 0; i < bl; i++, j = j + 1 == rest ? 0 : j + 1) \
        memcpy(dst + i * (int64_t)sizeof(T), src + j * (int64_t)sizeof(T),  \
               sizeof(T));                                                 \
    return
static void pad_block(char *dst, const char *src, int64_t rest, int64_t bl,
                      size_t isz)
{
    switch (isz) {
    case 1: PAD_AS(uint8_t);
    case 2: PAD_AS(uint16_t);
    case 4: PAD_AS(uint32_t);
    case 8: PAD_AS(uint64_t);
    }
    for (int64_t i = 0, j = 0; i < bl; i++, j = j + 1 == rest ? 0 : j + 1)
        memcpy(dst + i * (int64_t)isz, src + j * (int64_t)isz, isz);
}
#undef PAD_AS

/* A blocked contig (lower.h) over the whole blocks of the strip, then over
 * one block of copies holding the rest of it, padded by repeating it
 * (values the kernel takes anyway, so the padding computes nothing a real
 * element would not). The inputs are copied before anything is written,
 * so in-place calls read their old values. */
int uf__rt_blocked(int (*blk)(int64_t, char **), int64_t n, char **ptrs,
                   int64_t block, int64_t nin, int64_t nargs,
                   const int64_t *itemsize)
{
    int64_t whole = n - n % block, rest = n - whole;
    if (whole > 0) {
        int rc = blk(whole, ptrs);
        if (rc != 0 || rest == 0)
            return rc;
    }
    if (rest <= 0)
        return 0;
    _Alignas(64) unsigned char pad[UF__LOOP_MAXARGS][UF__LOOP_BLOCK * 16];
    char *p[UF__LOOP_MAXARGS];
    for (int64_t k = 0; k < nargs; k++) {
        p[k] = (char *)pad[k];
        if (k < nin)
            pad_block(p[k], ptrs[k] + whole * itemsize[k], rest, block,
                      (size_t)itemsize[k]);
    }
    int rc = blk(block, p);
    if (rc != 0)
        return rc;
    for (int64_t k = nin; k < nargs; k++)
        memcpy(ptrs[k] + whole * itemsize[k], p[k],
               (size_t)(rest * itemsize[k]));
    return 0;
}

static const uf__runtime_symbol runtime_symbols[] = {
    {UF__RT_BROADCAST, (void *)rt_broadcast},
    {UF__RT_CSQRT, (void *)rt_csqrt},
    {UF__RT_CEXP, (void *)rt_cexp},
    {UF__RT_CPOW, (void *)rt_cpow},
    {UF__RT_CRECT, (void *)rt_crect},
    {UF__RT_LOOP, (void *)(uintptr_t)uf__rt_loop},
};

const uf__runtime_symbol *uf__cpu_runtime_symbols(int *n)
{
    *n = (int)(sizeof runtime_symbols / sizeof runtime_symbols[0]);
    return runtime_symbols;
}

