/* The buffered path of a ufunc call: operands whose dtype differs from the
 * loop's (or that are unaligned) are converted chunk by chunk through
 * small buffers, never as whole temporary arrays; with where= the loop runs
 * only on the runs of True of the mask, so masked-out elements are neither
 * computed nor written. Each run (a thread's range of units) has its own
 * buffers; blocks start at the same element offsets as in a serial run. */
#include <string.h>

#include "common/alloc.h"
#include "common/error_internal.h"
#include "ndarray/cast.h"
#include "ufunc/ufunc_exec.h"

typedef struct run_state {
    const uf__ufunc_exec *x;
    uf__loop_ctx *lctx;
    int nop; /* loop operands: nin + nout */
    const int64_t *st; /* iterator strip strides */
    char *const *ptrs; /* current strip */
    char *buf[UF__LOOP_MAXARGS];
    int64_t loop_itemsize[UF__LOOP_MAXARGS];
    uf__cast_fn cast[UF__LOOP_MAXARGS]; /* in: to loop; out: from loop */
    char *data[UF__LOOP_MAXARGS];
    int64_t strides[UF__LOOP_MAXARGS];
} run_state;

/* Elements [first, first + n) of the current strip. */
static int run(run_state *s, int64_t first, int64_t n)
{
    const uf__ufunc_exec *x = s->x;
    int rc;

    for (int i = 0; i < s->nop; i++) {
        char *p = s->ptrs[i] + first * s->st[i];
        bool in = i < x->nin;

        if (!x->buffered[i]) {
            s->data[i] = p;
            s->strides[i] = s->st[i];
        } else if (in && s->st[i] == 0) {
            /* A broadcast input is converted once and stays broadcast. */
            s->cast[i](p, 0, s->buf[i], 0, 1);
            s->data[i] = s->buf[i];
            s->strides[i] = 0;
        } else {
            if (in)
                s->cast[i](p, s->st[i], s->buf[i], s->loop_itemsize[i], n);
            s->data[i] = s->buf[i];
            s->strides[i] = s->loop_itemsize[i];
        }
    }
    rc = x->loop->fn(s->lctx, s->data, &n, s->strides, x->loop->aux);
    if (rc != 0)
        return rc;
    for (int i = x->nin; i < s->nop; i++)
        if (x->buffered[i])
            s->cast[i](s->buf[i], s->loop_itemsize[i],
                       s->ptrs[i] + first * s->st[i], s->st[i], n);
    return 0;
}

/* Splits [off, off + n) into the runs where the mask is true. */
static int run_masked(run_state *s, int64_t off, int64_t n)
{
    const char *m = s->ptrs[s->nop];
    int64_t ms = s->st[s->nop], k = off, end = off + n;

    if (ms == 0)
        return m[0] ? run(s, off, n) : 0;
    while (k < end) {
        int64_t start;
        int rc;

        while (k < end && !m[k * ms])
            k++;
        start = k;
        while (k < end && m[k * ms])
            k++;
        if (k > start && (rc = run(s, start, k - start)) != 0)
            return rc;
    }
    return 0;
}

static size_t buffer_bytes(const run_state *s, int i)
{
    return ((size_t)s->loop_itemsize[i] * UF__UFUNC_BUFSIZE + 63) &
           ~(size_t)63;
}

/* One 64-byte-aligned block holds every buffer (*block stays NULL when
 * nothing is buffered: where= alone needs no buffer). */
static int alloc_buffers(run_state *s, char **block, uf_error *err)
{
    const uf__ufunc_exec *x = s->x;
    size_t total = 0;

    *block = NULL;
    for (int i = 0; i < s->nop; i++)
        if (x->buffered[i])
            total += buffer_bytes(s, i);
    if (total == 0)
        return 0;
    *block = uf__malloc_aligned(total, err);
    if (*block == NULL)
        return err->code;
    total = 0;
    for (int i = 0; i < s->nop; i++) {
        if (!x->buffered[i])
            continue;
        s->buf[i] = *block + total;
        total += buffer_bytes(s, i);
    }
    return 0;
}

int uf__ufunc_run_buffered(const uf__ufunc_exec *x, uf__loop_ctx *lctx,
                           const uf__ufunc_split *sp, int64_t begin,
                           int64_t end, int *status, uf_error *err)
{
    char *ptrs[UF__LOOP_MAXARGS + 1];
    int64_t first, len;
    uf__ufunc_walk w;
    run_state s;
    char *block;
    int rc = 0;

    memset(&s, 0, sizeof s);
    s.x = x;
    s.lctx = lctx;
    s.nop = x->nin + x->nout;
    s.st = uf__iter_strip_strides(sp->it);
    s.ptrs = ptrs;
    for (int i = 0; i < s.nop; i++) {
        uf_dtype lt = x->loop->types[i];

        s.loop_itemsize[i] = (int64_t)uf_dtype_itemsize(lt);
        s.cast[i] = i < x->nin ? uf__get_cast(x->dtypes[i], lt)
                               : uf__get_cast(lt, x->dtypes[i]);
    }
    if (alloc_buffers(&s, &block, err) < 0)
        return err->code;

    *status = 0;
    uf__ufunc_walk_start(&w, sp, begin, end);
    while (rc == 0 && uf__ufunc_walk_next(&w, ptrs, &first, &len)) {
        for (int64_t off = first; off < first + len && rc == 0;
             off += UF__UFUNC_BUFSIZE) {
            int64_t left = first + len - off;
            int64_t n = left < UF__UFUNC_BUFSIZE ? left : UF__UFUNC_BUFSIZE;

            rc = x->masked ? run_masked(&s, off, n) : run(&s, off, n);
        }
    }
    *status = rc;
    uf__free(block);
    return 0;
}
