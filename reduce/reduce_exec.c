/* The reduction engine: combines an array's elements along some axes into
 * an output of the same rank (stride 0 on the reduced axes), the way
 * NumPy's reduction iterator does, with its loops chosen for memory order:
 *
 *   - innermost axis reduced (axis=-1 of a C array, axis=None): one call
 *     per run, `*out = f(*out, tree(run))` (the pairwise tree) for ops that
 *     reassociate, else `seq` left to right;
 *   - innermost axis kept (axis=0 of a C array): the elementwise ufunc loop
 *     on rows, out[j] = f(out[j], x[i, j]) for i in order, so the inner loop
 *     runs over contiguous memory and vectorises; contiguous rows go
 *     UF__REDUCE_ROWS at a time (fns.rows), out[j] kept in a register.
 *
 * Without a start value (no initial, no identity) each reduction starts
 * from its first element, as NumPy's does: that element is copied into the
 * output, and the rest is reduced as a few boxes (for reduced axes
 * r0, r1, ...: r0 from index 1 with the others whole, then r0 at 0 and r1
 * from 1, ...), which cover every other element once; a single axis is
 * then just x[1:], in order.
 *
 * On a target with threads each plan runs through reduce_parallel.c. */
#include <stddef.h>
#include <string.h>

#include "common/error_internal.h"
#include "ndarray/cast.h"
#include "reduce/reduce.h"
#include "common/loop.h"

typedef uf__reduce_dim rdim;

static int64_t abs64(int64_t v) { return v < 0 ? -v : v; }

/* Drops length-1 axes, flips axes where allowed (kept axes negative in
 * both operands; reduced ones only when the op reassociates, since the
 * order along a reduced axis is the result's order otherwise), sorts by
 * input stride (outermost first) and merges neighbours that memory lets
 * through as one. Returns the new count. */
int uf__reduce_normalize(uf__reduce_dim *d, int nd, const char **in,
                         char **out, bool reassoc)
{
    int m = 0;
    for (int i = 0; i < nd; i++)
        if (d[i].n != 1)
            d[m++] = d[i];
    for (int i = 0; i < m; i++) {
        if (d[i].red && reassoc && d[i].si < 0) {
            *in += (d[i].n - 1) * d[i].si;
            d[i].si = -d[i].si;
        } else if (!d[i].red && d[i].si < 0 && d[i].so < 0) {
            *in += (d[i].n - 1) * d[i].si;
            *out += (d[i].n - 1) * d[i].so;
            d[i].si = -d[i].si;
            d[i].so = -d[i].so;
        }
    }
    return uf__reduce_sort_merge(d, m);
}

int uf__reduce_sort_merge(uf__reduce_dim *d, int nd)
{
    for (int i = 1; i < nd; i++) { /* stable insertion sort */
        rdim v = d[i];
        int j = i;
        while (j > 0 && abs64(d[j - 1].si) < abs64(v.si)) {
            d[j] = d[j - 1];
            j--;
        }
        d[j] = v;
    }
    int k = 0;
    for (int i = 1; i < nd; i++) {
        rdim *o = &d[k];
        if (o->red == d[i].red && o->si == d[i].si * d[i].n &&
            o->so == d[i].so * d[i].n) {
            o->n *= d[i].n;
            o->si = d[i].si;
            o->so = d[i].so;
        } else {
            d[++k] = d[i];
        }
    }
    return nd == 0 ? 0 : k + 1;
}

/* A short innermost axis costs a call per handful of elements: when it
 * has at most 8 and an axis of the other kind is long, that one goes
 * innermost instead (the order along any one reduced axis is unchanged). */
void uf__reduce_pick_inner(uf__reduce_dim *d, int nd)
{
    if (nd < 2 || d[nd - 1].n > 8)
        return;
    int best = -1;
    for (int i = 0; i < nd - 1; i++)
        if (d[i].red != d[nd - 1].red && d[i].n >= 64 &&
            (best < 0 || d[i].n > d[best].n))
            best = i;
    if (best < 0)
        return;
    rdim v = d[best];
    memmove(&d[best], &d[best + 1], (size_t)(nd - 1 - best) * sizeof *d);
    d[nd - 1] = v;
}

static void plan_build(uf__reduce_plan *p, const uf__reduce_op *op,
                       rdim *d, int nd, const char *in, char *out)
{
    memset(p, 0, offsetof(uf__reduce_plan, k));
    p->op = op;
    nd = uf__reduce_normalize(d, nd, &in, &out, op->reassociate);
    uf__reduce_pick_inner(d, nd);
    p->in = in;
    p->out = out;
    p->nouter = 1;
    if (nd == 0) { /* a single element */
        p->inner = (rdim){1, 0, 0, true};
        return;
    }
    for (int i = 0; i < nd - 1; i++) {
        if (d[i].red) {
            p->r[p->nr++] = d[i];
        } else {
            p->k[p->nk++] = d[i];
            p->nouter *= d[i].n;
        }
    }
    p->inner = d[nd - 1];
}

int uf__reduce_status(const uf__reduce_op *op, int status, uf_error *err)
{
    uf_error why;
    uf_error_clear(&why);
    int code = uf__jit_status_error(status, &why);
    return uf__error_set(err, code, "ufunc '%s': %s", op->name, why.message);
}

int uf__reduce_loop_failed(const uf__reduce_op *op, int status,
                           const uf_error *loop_err, uf_error *err)
{
    if (loop_err->code != UF_ERR_OK)
        return uf__error_set(err, loop_err->code, "ufunc '%s': %s", op->name,
                             loop_err->message);
    return uf__reduce_status(op, status, err);
}

/* Elements gathered per piece of a strided run: a power-of-two number of
 * blocks, so each piece is a whole subtree of the pairwise tree. */
#define PIECE (UF__REDUCE_BLOCK * 16)
#define MAX_ITEM 16

int uf__reduce_tree(const uf__reduce_op *op, void *res, const char *x,
                    int64_t n, int64_t stride)
{
    size_t isz = uf_dtype_itemsize(op->type);
    if (stride == (int64_t)isz)
        return op->fns.tree(res, x, n);
    /* the same tree as over contiguous memory: pieces are merged as the
     * tree merges its blocks (a binary counter, then a fold from the
     * top) */
    _Alignas(16) char buf[PIECE * MAX_ITEM];
    _Alignas(16) char stack[66][MAX_ITEM];
    uf__cast_fn copy = uf__get_cast(op->type, op->type);
    int top = 0, st;
    for (int64_t c = 0; c * PIECE < n; c++) {
        int64_t m = n - c * PIECE < PIECE ? n - c * PIECE : PIECE;
        copy(x + c * PIECE * stride, stride, buf, (int64_t)isz, m);
        if ((st = op->fns.tree(stack[top++], buf, m)) != 0)
            return st;
        for (int64_t cnt = c + 1; (cnt & 1) == 0; cnt >>= 1, top--)
            if ((st = op->fns.combine(stack[top - 2], stack[top - 1])) != 0)
                return st;
    }
    for (; top > 1; top--)
        if ((st = op->fns.combine(stack[top - 2], stack[top - 1])) != 0)
            return st;
    memcpy(res, stack[0], isz);
    return 0;
}

/* One inner call at in/out. */
static int inner_call(const uf__reduce_plan *p, const char *in, char *out,
                      uf__loop_ctx *lctx)
{
    const uf__reduce_op *op = p->op;
    const rdim *d = &p->inner;
    if (d->red) {
        if (op->fns.tree != NULL && op->reassociate) {
            _Alignas(16) char part[MAX_ITEM];
            int st = uf__reduce_tree(op, part, in, d->n, d->si);
            return st != 0 ? st : op->fns.combine(out, part);
        }
        return op->fns.seq(out, in, d->n, d->si);
    }
    char *data[3] = {out, (char *)in, out};
    int64_t strides[3] = {d->so, d->si, d->so};
    return op->fns.binary(lctx, data, &d->n, strides, NULL);
}

/* Whether the plan's passes over rows go UF__REDUCE_ROWS at a time
 * through fns.rows: an innermost kept axis contiguous in both operands
 * (axis=0 of a C array) and a reduced axis around it. */
static bool jam_rows(const uf__reduce_plan *p)
{
    int64_t isz = (int64_t)uf_dtype_itemsize(p->op->type);
    return p->op->fns.rows != NULL && !p->inner.red && p->nr > 0 &&
           p->inner.si == isz && p->inner.so == isz;
}

int uf__reduce_plan_run(const uf__reduce_plan *p, int64_t begin, int64_t end,
                        uf_error *err)
{
    uf_error loop_err;
    uf_error_clear(&loop_err);
    uf__loop_ctx lctx = {.err = &loop_err};
    int64_t kc[UF_MAXDIMS], rc[UF_MAXDIMS];
    /* the kept coordinates of `begin` */
    int64_t rem = begin;
    const char *kin = p->in;
    char *kout = p->out;
    for (int i = p->nk - 1; i >= 0; i--) {
        kc[i] = rem % p->k[i].n;
        rem /= p->k[i].n;
        kin += kc[i] * p->k[i].si;
        kout += kc[i] * p->k[i].so;
    }
    bool jam = jam_rows(p);
    for (int64_t o = begin; o < end; o++) {
        const char *rin = kin;
        for (int i = 0; i < p->nr; i++)
            rc[i] = 0;
        for (;;) {
            /* UF__REDUCE_ROWS steps of the innermost reduced axis at once
             * where that many are left: the same order for every out[j] */
            int64_t step = 1;
            int st, i = p->nr - 1;
            if (jam && p->r[i].n - rc[i] >= UF__REDUCE_ROWS) {
                step = UF__REDUCE_ROWS;
                st = p->op->fns.rows(kout, rin, p->inner.n, p->r[i].si);
            } else {
                st = inner_call(p, rin, kout, &lctx);
            }
            if (st != 0)
                return uf__reduce_loop_failed(p->op, st, &loop_err, err);
            for (; i >= 0; i--, step = 1) {
                rin += step * p->r[i].si;
                if ((rc[i] += step) < p->r[i].n)
                    break;
                rin -= rc[i] * p->r[i].si;
                rc[i] = 0;
            }
            if (i < 0)
                break;
        }
        for (int i = p->nk - 1; i >= 0; i--) {
            kin += p->k[i].si;
            kout += p->k[i].so;
            if (++kc[i] < p->k[i].n)
                break;
            kin -= kc[i] * p->k[i].si;
            kout -= kc[i] * p->k[i].so;
            kc[i] = 0;
        }
    }
    return 0;
}

static int run_dims(const uf__reduce_args *a, rdim *d, int nd,
                    const char *in, char *out, uf_error *err)
{
    uf__reduce_plan p;
    plan_build(&p, a->op, d, nd, in, out);
    if (a->target->caps & UF__TCAP_THREADS)
        return uf__reduce_plan_run_parallel(&p, a->target, a->nthreads, err);
    return uf__reduce_plan_run(&p, 0, p.nouter, err);
}

int uf__reduce_walk(const uf__reduce_dim *d, int nd, const char *in,
                    char *out, uf__reduce_visit_fn fn, void *ud)
{
    int64_t c[UF_MAXDIMS] = {0};
    for (;;) {
        int rc = fn(ud, in, out);
        if (rc != 0)
            return rc;
        int i = nd - 1;
        for (; i >= 0; i--) {
            in += d[i].si;
            out += d[i].so;
            if (++c[i] < d[i].n)
                break;
            in -= c[i] * d[i].si;
            out -= c[i] * d[i].so;
            c[i] = 0;
        }
        if (i < 0)
            return 0;
    }
}

typedef struct copy_row {
    uf__cast_fn copy;
    rdim row;
} copy_row;

static int copy_one_row(void *ud, const char *in, char *out)
{
    const copy_row *r = ud;
    r->copy(in, r->row.si, out, r->row.so, r->row.n);
    return 0;
}

void uf__reduce_copy(uf_dtype t, const uf__reduce_dim *d, int nd,
                     const char *in, char *out)
{
    copy_row r = {uf__get_cast(t, t), nd > 0 ? d[nd - 1] : (rdim){1, 0, 0,
                                                                  false}};
    uf__reduce_walk(d, nd > 0 ? nd - 1 : 0, in, out, copy_one_row, &r);
}

/* out = in over the kept axes (the reduced ones at index 0). */
static void copy_kept(uf_dtype t, const rdim *d, int nd, const char *in,
                      char *out)
{
    rdim k[UF_MAXDIMS];
    int nk = 0;
    for (int i = 0; i < nd; i++)
        if (!d[i].red)
            k[nk++] = d[i];
    uf__reduce_copy(t, k, nk, in, out);
}

int uf__reduce_exec(const uf__reduce_args *a, uf_error *err)
{
    rdim d[UF_MAXDIMS];
    int nd = a->ndim;
    /* a bad UFJIT_THREADING_LAYER fails every parallel call */
    if (a->target->config_error(err) != 0)
        return err->code;
    for (int i = 0; i < nd; i++) {
        if (a->shape[i] == 0)
            return 0; /* nothing to combine, or no output */
        d[i] = (rdim){a->shape[i], a->in_strides[i],
                      a->red[i] ? 0 : a->out_strides[i], a->red[i]};
    }
    const char *in = a->in;
    char *out = a->out;
    if (a->have_start)
        return run_dims(a, d, nd, in, out, err);

    nd = uf__reduce_normalize(d, nd, &in, &out, a->op->reassociate);
    copy_kept(a->op->type, d, nd, in, out);
    /* box j: reduced axes before j at index 0, axis j from 1, the rest
     * whole */
    for (int j = 0; j < nd; j++) {
        if (!d[j].red)
            continue;
        rdim box[UF_MAXDIMS];
        memcpy(box, d, (size_t)nd * sizeof *d);
        for (int i = 0; i < j; i++)
            if (box[i].red)
                box[i].n = 1;
        box[j].n -= 1;
        int rc = run_dims(a, box, nd, in + d[j].si, out, err);
        if (rc != 0)
            return rc;
    }
    return 0;
}
