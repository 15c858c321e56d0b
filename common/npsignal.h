/* The 1-D signal routines of kernels that run in the host runtime:
 * np.convolve and np.correlate, and the windows np.bartlett, np.blackman,
 * np.hamming, np.hanning, np.kaiser (compiler/lower/lower_npsignal.c calls
 * them by name). */
#ifndef UF_COMMON_NPSIGNAL_H
#define UF_COMMON_NPSIGNAL_H

#include <stdint.h>

/* how: UF__NPSIGNAL_CORRELATE or not (np.convolve), | the mode << 1. */
#define UF__NPSIGNAL_CORRELATE 1
enum { UF__NPSIGNAL_VALID = 0, UF__NPSIGNAL_SAME = 1, UF__NPSIGNAL_FULL = 2 };

/* The number of elements np.convolve / np.correlate of na and nv
 * elements (both > 0) give in mode (UF__NPSIGNAL_VALID ...). */
int64_t uf__np_correlate_len(int64_t na, int64_t nv, int mode);

/* out[] (C order, dtype dto, uf__np_correlate_len elements) = np.convolve
 * or np.correlate (how) of the 1-D arrays a (na > 0 elements, stride sa
 * in bytes, dtype dta) and v, as Numba 0.68 computes them
 * (numba/np/arraymath.py _np_correlate_core): the longer operand slides
 * over the shorter one (np.convolve reversing the shorter, np.correlate
 * conjugating v and writing backwards when v is the longer). Each output
 * is a sum of products: where both dtypes are floats or complex (Numba
 * calls BLAS's dot on copies in dto) in dto, with eight partial sums;
 * where one is, products in dto added one by one in float64 or
 * complex128 (Numba's `acc = 0` loop); integers and bools in wrapping
 * 64-bit arithmetic, stored into dto as Numba's casts do. 0, or -1 when
 * the temporary copies cannot be allocated. */
int uf__np_correlate(const char *a, int64_t na, int64_t sa, int32_t dta,
                     const char *v, int64_t nv, int64_t sv, int32_t dtv,
                     int32_t how, char *out, int32_t dto);

/* out[0..m) = the window (UF__NPSIGNAL_BARTLETT ...) of m > 1 points,
 * in Numba 0.68's formulas (numba/np/arraymath.py np_bartlett_impl ...)
 * operation by operation, cos from the C library. Returns 0. */
enum {
    UF__NPSIGNAL_BARTLETT,
    UF__NPSIGNAL_BLACKMAN,
    UF__NPSIGNAL_HAMMING,
    UF__NPSIGNAL_HANNING
};
int uf__np_window(int32_t which, int64_t m, double *out);

/* out[0..m) = np.kaiser(m, beta) for m > 1, Numba 0.68's formula
 * (numba/np/arraymath.py np_kaiser, _i0n, _i0: Cephes' Chebyshev series
 * of I0), exp and sqrt from the C library. Returns 0. */
int uf__np_kaiser(int64_t m, double beta, double *out);

/* The JIT's names of them: uf__rt_*, which the CUDA targets refuse. */
#define UF__NP_CORRELATE "uf__rt_np_correlate"
#define UF__NP_WINDOW "uf__rt_np_window"
#define UF__NP_KAISER "uf__rt_np_kaiser"

#endif
