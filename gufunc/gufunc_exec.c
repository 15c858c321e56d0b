/* Running a gufunc's inner loop over a range of its loop space: the
 * iterator's strips (coalesced runs of loop dimensions), cut at the range's
 * ends, one loop call per piece. This is the whole per-element cost of a
 * call, kept in one function of (begin, end) so that the parallel target
 * can hand ranges to its threads; the units the threads share are cut
 * here too (uf__gufunc_split). */
#include <string.h>

#include "gufunc/gufunc_internal.h"

int uf__gufunc_run_range(const uf__gufunc_exec *x, int64_t begin,
                         int64_t end, int64_t *dims, uf__loop_ctx *ctx)
{
    char *ptrs[UF__LOOP_MAXARGS], *data[UF__LOOP_MAXARGS];
    const int64_t *st = uf__iter_strip_strides(x->it);
    int64_t len = uf__iter_strip_len(x->it), off;
    uf__strided_loop fn = x->loop->fn;
    void *aux = x->loop->aux;
    uf__iter_cursor cur;

    if (end > x->size)
        end = x->size;
    if (begin < 0)
        begin = 0;
    if (begin >= end || len == 0)
        return 0;
    memcpy(dims, x->dims, (size_t)x->ndims * sizeof *dims);
    off = begin % len;
    uf__iter_range(x->it, begin / len, (end - 1) / len + 1, &cur);
    while (begin < end && uf__iter_next(x->it, &cur, ptrs)) {
        int64_t n = len - off < end - begin ? len - off : end - begin;
        int rc;

        for (int k = 0; k < x->nargs; k++)
            data[k] = ptrs[k] + off * st[k];
        dims[0] = n;
        rc = fn(ctx, data, dims, x->steps, aux);
        if (rc != 0)
            return rc;
        begin += n;
        off = 0;
    }
    return 0;
}

void uf__gufunc_split_init(uf__gufunc_split *sp, const uf__gufunc_exec *x,
                           int64_t pieces, int64_t blk)
{
    sp->len = uf__iter_strip_len(x->it);
    sp->nstrips = uf__iter_nstrips(x->it);
    sp->blk = blk > 1 ? blk : 1;
    sp->nblocks = sp->len / sp->blk + (sp->len % sp->blk != 0);
    if (pieces > sp->nblocks)
        pieces = sp->nblocks;
    sp->parts = pieces > 1 ? pieces : 1;
}

int64_t uf__gufunc_split_units(const uf__gufunc_split *sp)
{
    return sp->nstrips * sp->parts;
}

/* First iteration of unit u: its strip's start plus its part's first
 * block (the blocks dealt out evenly between the parts). */
static int64_t unit_start(const uf__gufunc_split *sp, int64_t u)
{
    int64_t strip = u / sp->parts, k = u % sp->parts;
    int64_t q = sp->nblocks / sp->parts, r = sp->nblocks % sp->parts;
    int64_t block = k * q + (k < r ? k : r);

    return strip * sp->len + block * sp->blk;
}

void uf__gufunc_split_range(const uf__gufunc_split *sp, int64_t ubegin,
                            int64_t uend, int64_t *begin, int64_t *end)
{
    *begin = unit_start(sp, ubegin);
    *end = unit_start(sp, uend);
}
