/* np.insert's fill (npinsert.h). */
#include "common/npinsert.h"

#include <stdbool.h>
#include <string.h>

/* memcpy of n bytes from src + soff to dst + doff, no pointer touched
 * when n is 0 (an empty array's data may be NULL). */
static void copy(char *dst, int64_t doff, const char *src, int64_t soff,
                 int64_t n)
{
    if (n > 0)
        memcpy(dst + doff, src + soff, (size_t)n);
}

/* idx[i] in [-n, n] made non-negative; false when outside. */
static bool normalise(int64_t *v, int64_t n)
{
    if (*v < -n || *v > n)
        return false;
    *v += *v < 0 ? n : 0;
    return true;
}

/* order[0..m) = 0..m-1 sorted by key[] with equal keys in their order:
 * a bottom-up merge sort through tmp[0..m). */
static void stable_argsort(const int64_t *key, int64_t *order, int64_t *tmp,
                           int64_t m)
{
    for (int64_t i = 0; i < m; i++)
        order[i] = i;
    int64_t *src = order, *dst = tmp;
    for (int64_t w = 1; w < m; w *= 2) {
        for (int64_t lo = 0; lo < m; lo += 2 * w) {
            int64_t mid = lo + w < m ? lo + w : m;
            int64_t hi = lo + 2 * w < m ? lo + 2 * w : m;
            int64_t a = lo, b = mid, k = lo;
            while (a < mid && b < hi)
                dst[k++] = key[src[b]] < key[src[a]] ? src[b++] : src[a++];
            while (a < mid)
                dst[k++] = src[a++];
            while (b < hi)
                dst[k++] = src[b++];
        }
        int64_t *t = src;
        src = dst;
        dst = t;
    }
    if (src != order)
        memcpy(order, src, (size_t)m * sizeof *order);
}

int uf__np_insert(char *out, const char *arr, int64_t n, int64_t *idx,
                  int64_t nidx, int32_t one_index, const char *vals,
                  int64_t nvals, int64_t isz, int64_t *order)
{
    if (one_index) {
        int64_t pos = idx[0];
        if (!normalise(&pos, n))
            return UF__NPINSERT_INDEX;
        copy(out, 0, arr, 0, pos * isz);
        copy(out, pos * isz, vals, 0, nvals * isz);
        copy(out, (pos + nvals) * isz, arr, pos * isz, (n - pos) * isz);
        return 0;
    }
    if (nvals != 1 && nvals != nidx)
        return UF__NPINSERT_VALUES;
    for (int64_t i = 0; i < nidx; i++)
        if (!normalise(&idx[i], n))
            return UF__NPINSERT_INDEX;
    if (nidx == 0) { /* order may be NULL */
        copy(out, 0, arr, 0, n * isz);
        return 0;
    }
    /* index i lands at idx[i] + its rank among the indices (Numba's
     * `indices[order[i]] += i`): ascending along order */
    stable_argsort(idx, order, order + nidx, nidx);
    int64_t k = 0, j = 0;
    for (int64_t p = 0; p < n + nidx; p++) {
        const char *from;
        if (k < nidx && idx[order[k]] + k == p) {
            from = vals + (nvals == 1 ? 0 : order[k]) * isz;
            k++;
        } else {
            from = arr + j++ * isz;
        }
        memcpy(out + p * isz, from, (size_t)isz);
    }
    return 0;
}
