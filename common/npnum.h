/* The numeric helpers behind NumPy's interpolation and binning functions
 * inside kernels (compiler/lower/lower_npnum.c calls them by name):
 * np.interp as Numba 0.68 computes it (numba/np/arraymath.py
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
    UF__NPNUM_INTERP_SIZE = 2   /* np.interp: xp and fp differ in length */
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

/* Numba's binary_search_with_guess: the index i with arr[i] <= key <
 * arr[i + 1] (-1 below arr[0], n above arr[n - 1]), starting from the
 * previous answer guess; for tests. */
int64_t uf__np_interp_search(double key, const double *arr, int64_t n,
                             int64_t guess);

/* The JIT's names of them: uf__rt_*, which the CUDA targets refuse. */
#define UF__NP_INTERP "uf__rt_np_interp"

#endif
