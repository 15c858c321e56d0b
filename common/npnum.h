/* The numeric helpers behind NumPy's interpolation and binning functions
 * inside kernels (compiler/lower/lower_npnum.c calls them by name):
 * np.interp, np.digitize and np.bincount as Numba 0.68 computes them (numba/np/arraymath.py
 * np_interp_impl_inner and its complex twin, themselves NumPy's C
 * arr_interp): the same guessed binary search, the same slope formula
 * and the same retries when an interpolation gives NaN, so results are
 * Numba's to the bit. */
#ifndef UF_COMMON_NPNUM_H
#define UF_COMMON_NPNUM_H

#include <stdint.h>

/* What the functions below return besides 0. */
enum {
    UF__NPNUM_NOMEM = -1,       /* a temporary */
    UF__NPNUM_INTERP_EMPTY = 1, /* np.interp: xp is empty */
    UF__NPNUM_INTERP_SIZE = 2,  /* np.interp: xp and fp differ in length */
    UF__NPNUM_DIGITIZE_MONO = 3, /* np.digitize: bins not monotonic */
    UF__NPNUM_BINCOUNT_WLEN = 4, /* np.bincount: weights' length differs */
    UF__NPNUM_BINCOUNT_MINLEN = 5, /* np.bincount: minlength < 0 */
    UF__NPNUM_BINCOUNT_NEG = 6  /* np.bincount: a negative element */
};

/* out[i] = np.interp(x[i], xp, fp) for the elements of the xnd-dimensional
 * array x (xshape[], xstrides[] in bytes, dtype xdt: bool, integers,
 * floats), in C order, out contiguous: float64, or with fp complex
 * (fpdt complex64 / complex128) complex128 as {re, im} pairs. xp holds
 * nxp elements nsxp bytes apart (dtype xpdt, real), fp nfp elements sfp
 * bytes apart. xty is the dtype Numba does x's arithmetic in (x's own,
 * float64 for a tuple): with complex fp, Numba subtracts in the operands'
 * types (float32 - float32 stays float32). 0, or a status above. */
int uf__np_interp(const char *x, int64_t xnd, const int64_t *xshape,
                  const int64_t *xstrides, int32_t xdt, int32_t xty,
                  const char *xp, int64_t nxp, int64_t sxp, int32_t xpdt,
                  const char *fp, int64_t nfp, int64_t sfp, int32_t fpdt,
                  char *out);

/* out[i] = np.digitize(x[i], bins, right) for the elements of x (as for
 * np.interp; xnd 0 with scalar 1 for a number x, which Numba searches
 * without its run-over-run narrowing) in C order; bins nb elements sb
 * bytes apart (dtype bdt). Numba's algorithm: its monotonicity check, then
 * np.searchsorted (side 'right', 'left' with right) of the bins or of the
 * reversed bins, NaN sorting last; compared as int64 when both dtypes are
 * integers (uint64 with uint64 as uint64), else as float64. 0 or a
 * status. */
int uf__np_digitize(const char *x, int64_t xnd, const int64_t *xshape,
                    const int64_t *xstrides, int32_t xdt, int32_t scalar,
                    const char *bins, int64_t nb, int64_t sb, int32_t bdt,
                    int32_t right, int64_t *out);

/* np.bincount's checks and result length, in Numba's order: weights of
 * another length (nw >= 0; -1: none), minlength < 0, a negative element
 * after the first (Numba does not check a[0]: a negative a[0] counts at
 * out[a[0] + len] when that is in range, else is
 * UF__NPNUM_BINCOUNT_NEG here). a: na integers sa bytes apart (dtype
 * adt; float64 holding integers for a tuple). */
int uf__np_bincount_len(const char *a, int64_t na, int64_t sa, int32_t adt,
                        int64_t nw, int64_t minlength, int64_t *len);

/* Fills out[0..len) (int64 counts, or float64 sums of the weights when
 * w is not NULL: nw elements sw bytes apart, dtype wdt) after
 * uf__np_bincount_len said len. */
void uf__np_bincount_fill(const char *a, int64_t na, int64_t sa,
                          int32_t adt, const char *w, int64_t sw,
                          int32_t wdt, int64_t len, char *out);

/* Numba's binary_search_with_guess: the index i with arr[i] <= key <
 * arr[i + 1] (-1 below arr[0], n above arr[n - 1]), starting from the
 * previous answer guess; for tests. */
int64_t uf__np_interp_search(double key, const double *arr, int64_t n,
                             int64_t guess);

/* The JIT's names of them: uf__rt_*, which the CUDA targets refuse. */
#define UF__NP_INTERP "uf__rt_np_interp"
#define UF__NP_DIGITIZE "uf__rt_np_digitize"
#define UF__NP_BINCOUNT_LEN "uf__rt_np_bincount_len"
#define UF__NP_BINCOUNT_FILL "uf__rt_np_bincount_fill"

#endif
