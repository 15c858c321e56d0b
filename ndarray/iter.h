/* The multi-operand strided iterator under every elementwise operation.
 *
 * It hands out 1-D strips: one pointer per operand, one stride per operand
 * (the same for every strip) and a length. Broadcast dimensions get stride
 * 0; dimensions contiguous for all operands together are coalesced; axes are
 * ordered (and, when all operands agree, flipped) for memory locality unless
 * UF__ITER_C_ORDER asks for row-major visiting order. The strips can be
 * split into ranges [begin, end) so parallel workers share them out, each
 * with its own cursor. No work is done per element outside the strip. */
#ifndef UF_NDARRAY_ITER_H
#define UF_NDARRAY_ITER_H

#include <stdbool.h>
#include <stdint.h>
#include <ufjit/array.h>

typedef struct uf__iter uf__iter;

typedef struct uf__iter_operand {
    char *data;
    int ndim;               /* <= the iteration ndim; aligned to the right */
    const int64_t *shape;   /* each dim equal to the iteration dim, or 1 */
    const int64_t *strides; /* bytes */
} uf__iter_operand;

enum uf__iter_flags {
    /* Visit elements in row-major order of the iteration shape: no axis
     * reordering or flipping (coalescing still happens). */
    UF__ITER_C_ORDER = 1 << 0
};

/* Position inside a range of strips; one per thread. */
typedef struct uf__iter_cursor {
    int64_t next;   /* index of the strip the next call returns */
    int64_t end;    /* one past the last strip of the range */
    int64_t coord[UF_MAXDIMS]; /* outer coordinates of strip `next` */
} uf__iter_cursor;

/* Builds an iterator over `shape` (ndim may be 0). Each operand must
 * broadcast to `shape` exactly (UF_ERR_SHAPE otherwise). */
uf__iter *uf__iter_new(int nop, const uf__iter_operand *ops, int ndim,
                       const int64_t *shape, unsigned flags, uf_error *err);
void uf__iter_free(uf__iter *it);

int uf__iter_nop(const uf__iter *it);
/* Number of strips (0 when the iteration space is empty). */
int64_t uf__iter_nstrips(const uf__iter *it);
/* Length of every strip. */
int64_t uf__iter_strip_len(const uf__iter *it);
/* The nop per-operand strides within a strip. */
const int64_t *uf__iter_strip_strides(const uf__iter *it);

/* Prepares `c` to visit strips [begin, end). */
void uf__iter_range(const uf__iter *it, int64_t begin, int64_t end,
                    uf__iter_cursor *c);
/* Writes the nop strip pointers of the next strip of c's range into `ptrs`
 * and returns true, or returns false when the range is done. */
bool uf__iter_next(const uf__iter *it, uf__iter_cursor *c, char **ptrs);

/* Byte stride of operand `op` along `axis` (0 when it does not move). */
typedef int64_t (*uf__axis_stride_fn)(const void *ctx, int op, int axis);

/* NumPy's npyiter_find_best_axis_ordering, shared by the iterator and by
 * output allocation in K order: stably sorts the axes in order[0..ndim)
 * (innermost first) so smaller strides go inwards. An axis moves inwards
 * past another only when the first operand moving along both says so and
 * no later one disagrees; operands with stride 0 on either are ignored. */
void uf__iter_sort_axes(int ndim, int nop, uf__axis_stride_fn stride,
                        const void *ctx, int *order);

#endif
