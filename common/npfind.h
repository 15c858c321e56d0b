/* The runtime of np.nonzero, np.where(cond), np.flatnonzero, np.argwhere,
 * np.extract and np.unique inside kernels (compiler/lower/lower_npfind.c
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

/* np.unique: copies the array's elements (dtype dt) into out (room for
 * all of them), sorts them as np.sort does (NaNs last) and keeps the first
 * of each run of equal ones, NaNs (a complex number with a NaN part)
 * counting as equal to each other, as Numba's np.unique. Returns how many
 * are kept, or -1 out of memory (the sort's buffer). */
int64_t uf__np_unique(const char *data, int64_t nd, const int64_t *shape,
                      const int64_t *strides, int32_t dt, char *out);

/* The JIT's names of them: uf__rt_*, which the CUDA targets refuse. */
#define UF__NP_COUNT_TRUE "uf__rt_np_count_true"
#define UF__NP_FIND "uf__rt_np_find"
#define UF__NP_EXTRACT "uf__rt_np_extract"
#define UF__NP_UNIQUE "uf__rt_np_unique"

#endif
