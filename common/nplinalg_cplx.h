/* Complex elements of complex64/complex128 matrices read and written as C's
 * double complex: the complex eigensolver and SVD compute in double and
 * round complex64 results on the way out. */
#ifndef UF_COMMON_NPLINALG_CPLX_H
#define UF_COMMON_NPLINALG_CPLX_H

#include <complex.h>
#include <stdint.h>
#include <string.h>

#include <ufjit/dtype.h>

/* glibc defines C11's CMPLX only for GCC >= 4.7 by version number, which
 * clang (the fuzz build's compiler) fails; clang has the same builtin. */
#ifndef CMPLX
#define CMPLX(x, y) __builtin_complex((double)(x), (double)(y))
#endif

static inline double complex uf__cplx_get(const char *p, int32_t dt)
{
    if (dt == UF_COMPLEX64) {
        float f[2];
        memcpy(f, p, sizeof f);
        return CMPLX(f[0], f[1]);
    }
    double d[2];
    memcpy(d, p, sizeof d);
    return CMPLX(d[0], d[1]);
}

static inline void uf__cplx_put(char *p, int32_t dt, double complex v)
{
    if (dt == UF_COMPLEX64) {
        float f[2] = {(float)creal(v), (float)cimag(v)};
        memcpy(p, f, sizeof f);
    } else {
        double d[2] = {creal(v), cimag(v)};
        memcpy(p, d, sizeof d);
    }
}

#endif
