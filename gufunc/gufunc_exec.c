/* Running a gufunc's inner loop over a range of its loop space: the
 * iterator's strips (coalesced runs of loop dimensions), cut at the range's
 * ends, one loop call per piece. This is the whole per-element cost of a
 * call, kept in one function of (begin, end) so that the parallel target
 * can hand ranges to its threads. */
#include <string.h>

#include "gufunc/gufunc_internal.h"

int uf__gufunc_run_range(const uf__gufunc_exec *x, int64_t begin,
                         int64_t end, int64_t *dims, uf__loop_ctx *ctx)
{
    char *ptrs[UF__UFUNC_MAXARGS], *data[UF__UFUNC_MAXARGS];
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
