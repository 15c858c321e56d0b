/* The iteration space of a ufunc call cut into "units" (ufunc_exec.h):
 * strips, or when there are too few strips for the threads, parts of
 * strips that start at multiples of UF__UFUNC_BUFSIZE elements, so that
 * however threads group them the loop sees the same element ranges'
 * alignment as a serial run. Walking a range of units merges the
 * consecutive parts of one strip into one loop call. */
#include "ufunc/ufunc_exec.h"

void uf__ufunc_split_init(uf__ufunc_split *sp, const uf__iter *it,
                          int64_t pieces)
{
    int64_t len = uf__iter_strip_len(it);

    sp->it = it;
    sp->nblocks = len / UF__UFUNC_BUFSIZE + (len % UF__UFUNC_BUFSIZE != 0);
    if (pieces > sp->nblocks)
        pieces = sp->nblocks;
    sp->pieces = pieces > 1 ? pieces : 1;
}

int64_t uf__ufunc_split_units(const uf__ufunc_split *sp)
{
    return uf__iter_nstrips(sp->it) * sp->pieces;
}

/* First element of part `k` of a strip: the blocks are dealt out evenly. */
static int64_t part_start(const uf__ufunc_split *sp, int64_t k)
{
    int64_t q = sp->nblocks / sp->pieces, r = sp->nblocks % sp->pieces;
    int64_t block = k * q + (k < r ? k : r), len = uf__iter_strip_len(sp->it);

    return block >= sp->nblocks ? len : block * UF__UFUNC_BUFSIZE;
}

void uf__ufunc_walk_start(uf__ufunc_walk *w, const uf__ufunc_split *sp,
                          int64_t begin, int64_t end)
{
    int64_t p = sp->pieces;

    w->sp = sp;
    w->unit = begin;
    w->end = end;
    if (p == 1)
        uf__iter_range(sp->it, begin, end, &w->cur);
    else
        uf__iter_range(sp->it, begin / p, end > begin ? (end - 1) / p + 1 : 0,
                       &w->cur);
}

bool uf__ufunc_walk_next(uf__ufunc_walk *w, char **ptrs, int64_t *first,
                         int64_t *n)
{
    const uf__ufunc_split *sp = w->sp;
    int64_t p = sp->pieces, strip, stop;

    if (w->unit >= w->end || !uf__iter_next(sp->it, &w->cur, ptrs))
        return false;
    if (p == 1) {
        w->unit++;
        *first = 0;
        *n = uf__iter_strip_len(sp->it);
        return true;
    }
    strip = w->unit / p;
    stop = (strip + 1) * p < w->end ? (strip + 1) * p : w->end;
    *first = part_start(sp, w->unit - strip * p);
    *n = part_start(sp, stop - strip * p) - *first;
    w->unit = stop;
    return true;
}
