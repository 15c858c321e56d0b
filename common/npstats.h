/* The runtime behind np.histogram, np.cov and np.corrcoef inside kernels
 * (compiler/lower/lower_npstats.c calls these by name). Each reads the
 * data array as it is (data, nd, shape[], strides[] in bytes, dtype dt:
 * bool, integers, floats) in C order and keeps Numba 0.68's arithmetic
 * (numba/np/arraymath.py np_histogram) operation by operation: the
 * subtraction v - bin_min in the type Numba promotes v and bin_min to
 * (int64 wrapping, float32 or float64), the product with bins / (max -
 * min) in float64, floor, and v == bin_max for the last bin; so counts
 * and edges are Numba's to the bit (this file is ISO C,
 * -ffp-contract=off). */
#ifndef UF_COMMON_NPSTATS_H
#define UF_COMMON_NPSTATS_H

#include <stdint.h>

/* What the functions below return besides 0: Numba's ValueErrors. */
enum {
    UF__NPSTATS_HIST_BINS = 1,  /* `bins` should be a positive integer */
    UF__NPSTATS_HIST_RANGE = 2, /* max must be larger than min in range */
    UF__NPSTATS_HIST_EDGES = 3, /* bins must increase monotonically */
    UF__NPSTATS_HIST_NOEDGES = 4 /* an empty array of edges: np.zeros(-1) */
};

/* One end of np.histogram's range: its value as Numba's type holds it
 * (f for floats, i for bool and integers) and that dtype. */
typedef struct uf__hist_end {
    double f;
    int64_t i;
    int32_t dt;
} uf__hist_end;

/* np.histogram(a, bins, range) with bins a number: checks bins > 0, then
 * (has_range 0) sets range[0..1] to the float64 minimum and maximum of
 * the elements, NaN skipped, +inf and -inf when there are none, then
 * checks range[0] <= range[1]. 0 or a status above. */
int uf__np_histogram_range(const char *data, int64_t nd,
                           const int64_t *shape, const int64_t *strides,
                           int32_t dt, int64_t bins, int32_t has_range,
                           uf__hist_end *range);

/* Then hist[0..bins) (zeroed by the caller's allocation or not: it is
 * set here) counts the elements in each of bins equal bins of
 * range[0]..range[1], and edges[0..bins] are np.linspace(range[0],
 * range[1], bins + 1) in Numba's formula. */
void uf__np_histogram_fill(const char *data, int64_t nd,
                           const int64_t *shape, const int64_t *strides,
                           int32_t dt, int64_t bins, const uf__hist_end *range,
                           int64_t *hist, double *edges);

/* np.histogram(a, bins) with bins an array of n edges (stride estride in
 * bytes, dtype edt): 0 when they increase (NaN refused), else
 * UF__NPSTATS_HIST_EDGES, or UF__NPSTATS_HIST_NOEDGES for n = 0. */
int uf__np_histogram_check_edges(const char *edges, int64_t n,
                                 int64_t estride, int32_t edt);

/* Then hist[0..n-1) counts the elements in each bin: the last edge
 * included, NaN and the elements outside skipped, the bin found by
 * Numba's bisection (equal edges: the last of them). */
void uf__np_histogram_edges(const char *data, int64_t nd,
                            const int64_t *shape, const int64_t *strides,
                            int32_t dt, const char *edges, int64_t n,
                            int64_t estride, int32_t edt, int64_t *hist);

/* np.cov / np.corrcoef of m and y (y_data NULL: none), each an array of
 * at most 2 dimensions as the histogram's data are given, as Numba's
 * np_cov / np_corrcoef compute them. flags: */
#define UF__COV_ROWVAR 1    /* rowvar true */
#define UF__COV_BIAS 2      /* bias true */
#define UF__COV_DDOF_INT 4  /* ddof given as an integer: ddof_i */
#define UF__COV_DDOF_REAL 8 /* ddof given as a float: ddof_f */
#define UF__COV_COMPLEX 16  /* complex128 results (else float64) */
/* statuses besides 0, as Numba's exceptions: */
enum {
    UF__NPSTATS_NOMEM = -1,        /* the temporary copy of the data */
    UF__NPSTATS_COV_ONE_ROW = 5,   /* RuntimeError: a 2-D m of one row */
    UF__NPSTATS_COV_DDOF_INF = 6,  /* ValueError: non-finite ddof */
    UF__NPSTATS_COV_DDOF_FRAC = 7, /* ValueError: ddof not integral */
    UF__NPSTATS_COV_DIMS = 8       /* ValueError: m and y incompatible */
};

/* The checks, in Numba's order, and *nvars, the result's side: m's
 * variables plus y's. */
int uf__np_cov_check(const char *m_data, int64_t m_nd, const int64_t *m_shape,
                     const int64_t *m_strides, int32_t m_dt,
                     const char *y_data, int64_t y_nd, const int64_t *y_shape,
                     const int64_t *y_strides, int32_t y_dt, int32_t flags,
                     double ddof_f, int64_t *nvars);

/* Then out (nvars x nvars, C order, float64 or complex128; one element
 * when scalar) = np.cov, or with corr np.corrcoef: the rows' means as
 * Numba's sequential sums, the products summed in order k = 0, 1, ...
 * (Numba calls BLAS there: results agree to rounding, not bits), times
 * 1 / max(nobs - ddof, 0); corrcoef divides row and column by the
 * standard deviations in Numba's order and clips to [-1, 1]; with
 * scalar, corr gives var / var. NaN everywhere for no variables or no
 * observations. 0 or UF__NPSTATS_NOMEM. */
int uf__np_cov(const char *m_data, int64_t m_nd, const int64_t *m_shape,
               const int64_t *m_strides, int32_t m_dt, const char *y_data,
               int64_t y_nd, const int64_t *y_shape, const int64_t *y_strides,
               int32_t y_dt, int32_t flags, int64_t ddof_i, double ddof_f,
               int32_t corr, int32_t scalar, char *out);

/* The JIT's names of them: uf__rt_*, which the CUDA targets refuse. */
#define UF__NP_HIST_RANGE "uf__rt_np_histogram_range"
#define UF__NP_HIST_FILL "uf__rt_np_histogram_fill"
#define UF__NP_HIST_CHECK "uf__rt_np_histogram_check_edges"
#define UF__NP_HIST_EDGES "uf__rt_np_histogram_edges"
#define UF__NP_COV_CHECK "uf__rt_np_cov_check"
#define UF__NP_COV "uf__rt_np_cov"

#endif
