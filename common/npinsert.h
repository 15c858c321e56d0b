/* The runtime of np.insert inside kernels (compiler/lower/lower_npinsert.c
 * calls it by name), as Numba 0.68's np_insert (numba/np/arraymath.py):
 * the generated code first flattens arr and values into C arrays of the
 * result's dtype and obj into int64s, makes the result and a scratch of
 * 2 * nidx int64s in its frame, then calls this to fill the result. */
#ifndef UF_COMMON_NPINSERT_H
#define UF_COMMON_NPINSERT_H

#include <stdint.h>

/* What uf__np_insert returns besides 0. */
enum {
    UF__NPINSERT_INDEX = -1, /* IndexError: an index outside [-n, n] */
    UF__NPINSERT_VALUES = -2 /* ValueError: several indices, and neither
                                one value nor one per index */
};

/* out = arr[0..n) (items of isz bytes) with vals[0..nvals) inserted
 * before the positions idx[0..nidx) (negative ones counting from the
 * end; idx is normalised in place). One index (one_index: obj was an
 * integer, or nidx == 1): every value goes there, out holds n + nvals.
 * Otherwise out holds n + nidx: index i gets vals[i] (vals[0] when
 * nvals == 1), equal indices in their order, as NumPy's stable argsort
 * places them; order holds 2 * nidx int64s of scratch. */
int uf__np_insert(char *out, const char *arr, int64_t n, int64_t *idx,
                  int64_t nidx, int32_t one_index, const char *vals,
                  int64_t nvals, int64_t isz, int64_t *order);

/* The JIT's name of it: uf__rt_*, which the CUDA targets refuse. */
#define UF__NP_INSERT "uf__rt_np_insert"

#endif
