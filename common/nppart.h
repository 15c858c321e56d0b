/* np.partition and np.argpartition inside kernels
 * (compiler/lower/lower_nppart.c calls them by name), element for element
 * as Numba 0.68 computes them (numba/np/arraymath.py np_partition,
 * np_argpartition, valid_kths): each row along the last axis is copied,
 * then for every kth in increasing order Numba's quickselect (_select
 * over _partition with its NaN-aware `<`: NaNs after every number)
 * partitions rows[low..n), low the previous kth. The same median-of-three
 * pivot, swaps and comparisons give the same order of elements, not just
 * a valid partition; as in Numba, no depth limit (inputs built against
 * median-of-three are quadratic there too). */
#ifndef UF_COMMON_NPPART_H
#define UF_COMMON_NPPART_H

#include <stdint.h>

/* What uf__np_partition returns besides 0. */
enum {
    UF__NPPART_NOMEM = -1, /* a row copy or the kth values */
    UF__NPPART_KTH_BOUNDS = 1, /* ValueError: kth out of bounds */
    UF__NPPART_KTH_DIMS = 2    /* ValueError: kth must be scalar or 1-D */
};

/* Partitions the nd >= 1 dimensional array at data (shape[], strides[] in
 * bytes, dtype dt: bool, integers, floats) along its last axis into out,
 * a C-contiguous array of its shape: its elements (arg 0, np.partition,
 * dtype dt) or their indices in each row (arg 1, np.argpartition,
 * int64). kth: nkth integers of dtype kdt, kstride bytes apart; kth_bad
 * nonzero when kth was an array of other than one dimension. As Numba,
 * an empty array is returned (out untouched) before kth is looked at;
 * then kth_bad is KTH_DIMS, a |kth| >= shape[nd - 1] KTH_BOUNDS, and
 * negative kths count from the end. */
int uf__np_partition(const char *data, int64_t nd, const int64_t *shape,
                     const int64_t *strides, int32_t dt, const char *kth,
                     int64_t nkth, int64_t kstride, int32_t kdt,
                     int32_t kth_bad, int32_t arg, char *out);

#define UF__NP_PARTITION "uf__rt_np_partition"

#endif
