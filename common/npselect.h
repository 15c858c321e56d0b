/* The order statistics behind np.median, np.nanmedian, np.percentile,
 * np.nanpercentile, np.quantile and np.nanquantile inside kernels
 * (compiler/lower/lower_npselect.c calls them by name). Each works on a
 * temporary C-order copy of the array (uf__malloc, freed before it
 * returns) with Numba 0.68's quickselect: the same median-of-three pivot,
 * the same swaps and `<` comparisons (numba/np/arraymath.py _partition,
 * _select, _select_two), so that np.median of an array holding NaN gives
 * the element Numba's gives (Numba does not skip them there), and the
 * sign of a zero is Numba's. A selection not done after 4 log2(n) + 16
 * partitions (inputs built against median-of-three) heap-sorts what is
 * left instead, which gives the same value for NaN-free data. */
#ifndef UF_COMMON_NPSELECT_H
#define UF_COMMON_NPSELECT_H

#include <stdint.h>

/* What the functions below return besides 0. */
enum {
    UF__NPSELECT_NOMEM = -1,      /* the temporary copy */
    UF__NPSELECT_Q_RANGE = 1,     /* a q outside [0, 100] / [0, 1], NaN */
    UF__NPSELECT_EMPTY_MIN = 2,   /* q = 0 of an empty array (np.min) */
    UF__NPSELECT_EMPTY_MAX = 3,   /* q = 100 of an empty array (np.max) */
    UF__NPSELECT_EMPTY_SELECT = 4 /* 0 < q < 100 of an empty array:
                                     Numba's _select_two asserts */
};

/* *out = the median of the nd-dimensional array at data (shape[],
 * strides[] in bytes, dtype dt: bool, integers, floats), as Numba's
 * np.median computes it (skip_nan 0) or np.nanmedian (skip_nan 1): NaN
 * when no element is left; an even count averages the two middle
 * elements in Numba's types (int64 sums wrap, float32 ones round to
 * float32). 0 or UF__NPSELECT_NOMEM. */
int uf__np_median(const char *data, int64_t nd, const int64_t *shape,
                  const int64_t *strides, int32_t dt, int32_t skip_nan,
                  double *out);

/* out[i] = the percentile q[i] (how & UF__NPSELECT_QUANTILE: the quantile,
 * q[i] * 100) of the array at data, for each element of the array of q's
 * (qnd dimensions, C order), as Numba's np.percentile (how &
 * UF__NPSELECT_SKIP_NAN: np.nanpercentile) computes it: the elements as
 * float64, a NaN among them makes every result NaN (skipped instead with
 * SKIP_NAN), linear interpolation between the closest ranks in Numba's
 * formula, Numba's rules for q = 0 and q = 100 with infinities. 0, or a
 * status above. */
#define UF__NPSELECT_SKIP_NAN 1
#define UF__NPSELECT_QUANTILE 2
int uf__np_percentile(const char *data, int64_t nd, const int64_t *shape,
                      const int64_t *strides, int32_t dt, const char *q,
                      int64_t qnd, const int64_t *qshape,
                      const int64_t *qstrides, int32_t qdt, int32_t how,
                      double *out);

/* The k-th smallest of a[0..n) (float64, 0 <= k < n), moving elements as
 * Numba's _select does; for tests and benchmarks. */
double uf__np_select_f64(double *a, int64_t n, int64_t k);

/* The JIT's names of them: uf__rt_*, which the CUDA targets refuse. */
#define UF__NP_MEDIAN "uf__rt_np_median"
#define UF__NP_PERCENTILE "uf__rt_np_percentile"

#endif
