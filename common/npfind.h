/* The runtime of np.nonzero, np.where(cond), np.flatnonzero, np.argwhere,
 * np.extract, np.delete and np.unique inside kernels (compiler/lower/lower_npfind.c
 * calls them by name). Results whose length depends on the data: the
 * generated code counts first (uf__np_count_true), allocates the result
 * in its frame, then has it filled; np.unique fills an array of the
 * input's size and returns how much of it is used. An element is true as
 * NumPy's nonzero takes it: not zero (-0.0 is zero, NaN is true; a complex
 * number when either part is). Arrays are nd-dimensional, shape[] and
 * strides[] (bytes) of any layout, walked in C order. */
#ifndef UF_COMMON_NPFIND_H
#define UF_COMMON_NPFIND_H

#include <stdint.h>

/* The number of true elements among the first `limit` elements in C order
 * of the array at data (dtype dt, a uf_dtype). */
int64_t uf__np_count_true(const char *data, int64_t nd, const int64_t *shape,
                          const int64_t *strides, int32_t dt, int64_t limit);

/* What uf__np_find writes for the j-th true element (in C order). */
enum {
    UF__NPFIND_NONZERO = 0, /* outs[k][j] its index along axis k (nd
                               outputs; a 0-d array: one, of zeros) */
    UF__NPFIND_FLAT = 1,    /* outs[0][j] its flat C-order index */
    UF__NPFIND_ARGWHERE = 2 /* outs[0][j * nd + k] its index along axis k */
};
/* Writes the indices of the true elements as `how` says; outs[] must hold
 * uf__np_count_true(..., INT64_MAX) + 1 of them (rows of them for
 * ARGWHERE): the loops store without a branch, one past the last. */
void uf__np_find(const char *data, int64_t nd, const int64_t *shape,
                 const int64_t *strides, int32_t dt, int32_t how,
                 int64_t *const *outs);

/* np.extract: out[j] = the element of `a` (dtype adt, its itemsize copied)
 * at the flat C-order index of the j-th true element among the first
 * `limit` of `cond`; `limit` is at most a's size. */
void uf__np_extract(const char *cond, int64_t cnd, const int64_t *cshape,
                    const int64_t *cstrides, int32_t cdt, int64_t limit,
                    const char *a, int64_t and_, const int64_t *ashape,
                    const int64_t *astrides, int32_t adt, char *out);

/* np.delete's mask: keep[0..n) set to 1, then cleared at every element
 * of the integer array idx (dtype idt; a negative one counts from the
 * end). Returns how many stay set, or -1 at the first element outside
 * [-n, n), stored in *bad (a uint64 past INT64_MAX as its bits). */
int64_t uf__np_delete_mask(char *keep, int64_t n, const char *idx,
                           int64_t ind, const int64_t *ishape,
                           const int64_t *istrides, int32_t idt,
                           int64_t *bad);

/* np.unique: copies the array's elements (dtype dt) into out (room for
 * all of them), sorts them as np.sort does (NaNs last) and keeps the first
 * of each run of equal ones, NaNs (a complex number with a NaN part)
 * counting as equal to each other, as Numba's np.unique. Returns how many
 * are kept, or -1 out of memory (the sort's buffer). */
int64_t uf__np_unique(const char *data, int64_t nd, const int64_t *shape,
                      const int64_t *strides, int32_t dt, char *out);

/* np.union1d, np.intersect1d, np.setxor1d, np.setdiff1d, np.isin (op) of
 * arrays a and b as Numba 0.68 computes them (numba/np/arraymath.py), the
 * elements compared in dtype dt (np.concatenate's promotion of adt and
 * bdt): out gets the union, intersection or symmetric difference in dt
 * (room for a.size + b.size), the elements of a not in b in adt (room for
 * a.size), or isin's bools for a's elements in C order (a.size). Returns
 * how many it wrote, or -1 out of memory (its scratch copies and the
 * sort's buffer). */
enum {
    UF__NPSET_UNION = 0,
    UF__NPSET_INTERSECT = 1,
    UF__NPSET_SETXOR = 2,
    UF__NPSET_SETDIFF = 3,
    UF__NPSET_ISIN = 4
};
#define UF__NPSET_ASSUME_UNIQUE 1
#define UF__NPSET_INVERT 2
int64_t uf__np_setop(int32_t op, int32_t flags, const char *a, int64_t and_,
                     const int64_t *ashape, const int64_t *astrides,
                     int32_t adt, const char *b, int64_t bnd,
                     const int64_t *bshape, const int64_t *bstrides,
                     int32_t bdt, int32_t dt, char *out);

/* The JIT's names of them: uf__rt_*, which the CUDA targets refuse. */
#define UF__NP_COUNT_TRUE "uf__rt_np_count_true"
#define UF__NP_FIND "uf__rt_np_find"
#define UF__NP_EXTRACT "uf__rt_np_extract"
#define UF__NP_DELETE_MASK "uf__rt_np_delete_mask"
#define UF__NP_UNIQUE "uf__rt_np_unique"
#define UF__NP_SETOP "uf__rt_np_setop"

#endif
