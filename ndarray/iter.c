/* The multi-operand strided iterator (contract in iter.h).
 *
 * Construction reduces the iteration to as few dimensions as possible:
 * length-1 dimensions go, broadcast dimensions get stride 0, axes are
 * flipped and sorted so that memory goes forward and the smallest strides
 * are innermost (NumPy's nditer with order='K'), and neighbouring axes that
 * are contiguous for every operand are merged. What is left is stored
 * innermost first: dimension 0 is the strip, dimensions 1.. are the outer
 * loop whose coordinates a cursor keeps. */
#include <string.h>

#include "common/alloc.h"
#include "common/error_internal.h"
#include "ndarray/array_internal.h"
#include "ndarray/iter.h"

struct uf__iter {
    int nop;
    int ndim;          /* >= 1; dimension 0 is the strip */
    int64_t nstrips;
    int64_t strip_len;
    char **base;       /* nop pointers to the first element visited */
    int64_t *shape;    /* ndim lengths, innermost first */
    int64_t *strides;  /* ndim rows of nop strides, innermost first */
};

#define SHAPE_STR_SIZE (UF_MAXDIMS * 22 + 4)

static int64_t *row(const uf__iter *it, int d)
{
    return it->strides + (size_t)d * (size_t)it->nop;
}

static void swap_rows(uf__iter *it, int a, int b)
{
    int64_t *ra = row(it, a), *rb = row(it, b);
    int64_t t = it->shape[a];

    it->shape[a] = it->shape[b];
    it->shape[b] = t;
    for (int op = 0; op < it->nop; op++) {
        t = ra[op];
        ra[op] = rb[op];
        rb[op] = t;
    }
}

static int check_args(int nop, const uf__iter_operand *ops, int ndim,
                      const int64_t *shape, unsigned flags, uf_error *err)
{
    char s1[SHAPE_STR_SIZE], s2[SHAPE_STR_SIZE];

    if (nop < 0 || (nop > 0 && ops == NULL) || ndim < 0 ||
        ndim > UF_MAXDIMS || (ndim > 0 && shape == NULL) ||
        (flags & ~(unsigned)UF__ITER_C_ORDER) != 0)
        return uf__error_set(err, UF_ERR_INVALID,
                             "uf__iter_new: invalid arguments");
    for (int i = 0; i < ndim; i++)
        if (shape[i] < 0)
            return uf__error_set(err, UF_ERR_VALUE,
                                 "negative dimensions are not allowed");
    for (int op = 0; op < nop; op++) {
        const uf__iter_operand *o = &ops[op];
        int off = ndim - o->ndim;

        if (o->ndim < 0 ||
            (o->ndim > 0 && (o->shape == NULL || o->strides == NULL)))
            return uf__error_set(err, UF_ERR_INVALID,
                                 "uf__iter_new: invalid operand %d", op);
        if (off < 0)
            return uf__error_set(err, UF_ERR_SHAPE,
                                 "operand %d has %d dimensions, more than "
                                 "the %d of the iteration",
                                 op, o->ndim, ndim);
        for (int k = 0; k < o->ndim; k++) {
            if (o->shape[k] != 1 && o->shape[k] != shape[off + k]) {
                uf__shape_str(o->ndim, o->shape, s1, sizeof s1);
                uf__shape_str(ndim, shape, s2, sizeof s2);
                return uf__error_set(err, UF_ERR_SHAPE,
                                     "operand %d with shape %s cannot be "
                                     "broadcast to the iteration shape %s",
                                     op, s1, s2);
            }
        }
    }
    return 0;
}

/* Number of elements, or -1 when it does not fit in int64_t. */
static int64_t space_size(int ndim, const int64_t *shape)
{
    int64_t n = 1;

    for (int i = 0; i < ndim; i++)
        if (shape[i] == 0)
            return 0;
    for (int i = 0; i < ndim; i++)
        if (!uf__mul_i64(n, shape[i], &n))
            return -1;
    return n;
}

/* Rows for every non-unit axis, innermost (last C axis) first. */
static void fill_rows(uf__iter *it, const uf__iter_operand *ops, int ndim,
                      const int64_t *shape)
{
    int nd = 0;

    for (int ax = ndim - 1; ax >= 0; ax--) {
        int64_t *r;

        if (shape[ax] == 1)
            continue;
        r = row(it, nd);
        it->shape[nd] = shape[ax];
        for (int op = 0; op < it->nop; op++) {
            int k = ax - (ndim - ops[op].ndim);

            r[op] = (k < 0 || ops[op].shape[k] == 1) ? 0
                                                      : ops[op].strides[k];
        }
        nd++;
    }
    it->ndim = nd;
}

/* An axis along which no operand moves forward is walked backwards from
 * its far end instead, as NumPy's npyiter_flip_negative_strides does. */
static void flip_negative(uf__iter *it)
{
    for (int d = 0; d < it->ndim; d++) {
        int64_t *r = row(it, d);
        bool any_negative = false, all_nonpositive = true;

        for (int op = 0; op < it->nop; op++) {
            if (r[op] < 0)
                any_negative = true;
            else if (r[op] > 0)
                all_nonpositive = false;
        }
        if (!any_negative || !all_nonpositive)
            continue;
        for (int op = 0; op < it->nop; op++) {
            it->base[op] += (it->shape[d] - 1) * r[op];
            r[op] = -r[op];
        }
    }
}

static int64_t abs64(int64_t v)
{
    return v < 0 ? -v : v;
}

void uf__iter_sort_axes(int ndim, int nop, uf__axis_stride_fn stride,
                        const void *ctx, int *order)
{
    for (int i0 = 1; i0 < ndim; i0++) {
        int ax0 = order[i0], pos = i0;

        for (int i1 = i0 - 1; i1 >= 0; i1--) {
            bool ambiguous = true, swap = false;

            for (int op = 0; op < nop; op++) {
                int64_t s0 = stride(ctx, op, ax0);
                int64_t s1 = stride(ctx, op, order[i1]);

                if (s0 == 0 || s1 == 0)
                    continue;
                if (abs64(s1) <= abs64(s0))
                    swap = false;
                else if (ambiguous)
                    swap = true;
                ambiguous = false;
            }
            if (ambiguous)
                continue;
            if (!swap)
                break;
            pos = i1;
        }
        memmove(order + pos + 1, order + pos,
                (size_t)(i0 - pos) * sizeof *order);
        order[pos] = ax0;
    }
}

static int64_t row_stride(const void *ctx, int op, int axis)
{
    return row(ctx, axis)[op];
}

/* Reorders the iterator's rows into NumPy's K order. */
static void sort_axes(uf__iter *it)
{
    int order[UF_MAXDIMS], at[UF_MAXDIMS];

    for (int d = 0; d < it->ndim; d++)
        order[d] = at[d] = d;
    uf__iter_sort_axes(it->ndim, it->nop, row_stride, it, order);
    /* at[d]: the original row now in position d */
    for (int d = 0; d < it->ndim; d++) {
        int j = d;
        while (at[j] != order[d])
            j++;
        swap_rows(it, d, j);
        int t = at[d];
        at[d] = at[j];
        at[j] = t;
    }
}

/* Merges each axis into the (merged) axis inside it when every operand
 * steps from one to the other exactly as if they were one axis. */
static void coalesce(uf__iter *it)
{
    int w = 0;

    for (int d = 1; d < it->ndim; d++) {
        const int64_t *inner = row(it, w), *outer = row(it, d);
        bool ok = true;

        for (int op = 0; op < it->nop && ok; op++) {
            int64_t step;

            ok = uf__mul_i64(inner[op], it->shape[w], &step) &&
                 step == outer[op];
        }
        if (ok) {
            it->shape[w] *= it->shape[d];
            continue;
        }
        w++;
        if (w != d) {
            it->shape[w] = it->shape[d];
            memcpy(row(it, w), outer, (size_t)it->nop * sizeof(int64_t));
        }
    }
    it->ndim = it->ndim > 0 ? w + 1 : 0;
}

uf__iter *uf__iter_new(int nop, const uf__iter_operand *ops, int ndim,
                       const int64_t *shape, unsigned flags, uf_error *err)
{
    size_t rows = ndim > 0 ? (size_t)ndim : 1, nbytes, cells;
    int64_t size;
    uf__iter *it;

    if (check_args(nop, ops, ndim, shape, flags, err) < 0)
        return NULL;
    size = space_size(ndim, shape);
    if (size < 0) {
        uf__error_set(err, UF_ERR_OVERFLOW,
                      "iteration space is too big: the product of the shape "
                      "overflows");
        return NULL;
    }

    /* One block: header, shape, stride rows, base pointers (the int64_t
     * arrays first, so they stay aligned on 32-bit targets too). */
    if (!uf__mul_size(rows, (size_t)nop + 1, &cells) ||
        !uf__mul_size(cells, sizeof(int64_t), &nbytes) ||
        !uf__add_size(nbytes, sizeof *it + (size_t)nop * sizeof(char *),
                      &nbytes)) {
        uf__error_set(err, UF_ERR_OVERFLOW, "too many iterator operands");
        return NULL;
    }
    it = uf__malloc(1, nbytes, err);
    if (it == NULL)
        return NULL;
    it->nop = nop;
    it->shape = (int64_t *)(it + 1);
    it->strides = it->shape + rows;
    it->base = (char **)(it->strides + rows * (size_t)nop);
    for (int op = 0; op < nop; op++)
        it->base[op] = ops[op].data;

    if (size == 0) {
        it->ndim = 1;
        it->shape[0] = 0;
        memset(it->strides, 0, (size_t)nop * sizeof(int64_t));
        it->nstrips = 0;
        it->strip_len = 0;
        return it;
    }

    fill_rows(it, ops, ndim, shape);
    if (!(flags & UF__ITER_C_ORDER)) {
        flip_negative(it);
        sort_axes(it);
    }
    coalesce(it);
    if (it->ndim == 0) {
        /* 0-d, or only length-1 axes: a single element. */
        it->ndim = 1;
        it->shape[0] = 1;
        memset(it->strides, 0, (size_t)nop * sizeof(int64_t));
    }
    it->strip_len = it->shape[0];
    it->nstrips = size / it->strip_len;
    return it;
}

void uf__iter_free(uf__iter *it)
{
    uf__free(it);
}

int uf__iter_nop(const uf__iter *it)
{
    return it->nop;
}

int64_t uf__iter_nstrips(const uf__iter *it)
{
    return it->nstrips;
}

int64_t uf__iter_strip_len(const uf__iter *it)
{
    return it->strip_len;
}

const int64_t *uf__iter_strip_strides(const uf__iter *it)
{
    return it->strides;
}

/* The only division in the iterator: the coordinates of `begin`. */
void uf__iter_range(const uf__iter *it, int64_t begin, int64_t end,
                    uf__iter_cursor *c)
{
    if (end > it->nstrips)
        end = it->nstrips;
    if (begin < 0)
        begin = 0;
    if (begin > end)
        begin = end;
    c->next = begin;
    c->end = end;
    for (int d = 1; d < it->ndim; d++) {
        c->coord[d - 1] = begin % it->shape[d];
        begin /= it->shape[d];
    }
}

/* Pointers are recomputed from the coordinates rather than advanced from
 * the previous call's, so `ptrs` is output only. One outer dimension (the
 * common case after coalescing) needs no coordinates at all. */
bool uf__iter_next(const uf__iter *it, uf__iter_cursor *c, char **ptrs)
{
    const int nop = it->nop, nd = it->ndim;
    char *const *base = it->base;
    const int64_t *outer = it->strides + nop;
    int64_t k = c->next;

    if (k >= c->end)
        return false;
    c->next = k + 1;
    if (nd == 1) {
        for (int op = 0; op < nop; op++)
            ptrs[op] = base[op];
        return true;
    }
    if (nd == 2) {
        for (int op = 0; op < nop; op++)
            ptrs[op] = base[op] + k * outer[op];
        return true;
    }
    for (int op = 0; op < nop; op++) {
        char *p = base[op];

        for (int d = 1; d < nd; d++)
            p += c->coord[d - 1] * outer[(size_t)(d - 1) * (size_t)nop + op];
        ptrs[op] = p;
    }
    /* Odometer step to the next strip's coordinates. */
    for (int d = 1; d < nd; d++) {
        if (++c->coord[d - 1] < it->shape[d])
            break;
        c->coord[d - 1] = 0;
    }
    return true;
}
