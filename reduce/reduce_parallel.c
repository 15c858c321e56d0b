/* A reduction plan (reduce_exec.c) on the `parallel` target, giving the
 * serial result bit for bit whatever the thread count:
 *
 *   - outer iterations (kept axes) each write their own outputs: any
 *     split of them is exact;
 *   - a kept innermost row (axis=0 of a C array) is cut into parts that
 *     start at multiples of ROW_BLOCK elements: every output element is
 *     still combined with its inputs in order, and the elementwise loop
 *     keeps the vector body / remainder split of a serial run;
 *   - runs reduced by the pairwise tree (jit_reduce.h), when there are
 *     too few outer iterations to share (axis=None, a 1-D sum): the tree
 *     of a run depends only on its length, so the run is cut where the
 *     tree splits (after the largest power of two of blocks below its
 *     block count), again in the larger pieces until there are enough;
 *     threads compute the pieces' subtrees and the caller merges them as
 *     the tree does, then folds each run's value into the output in run
 *     order, exactly what the serial `*out = f(*out, tree(run))` does.
 *
 * Runs of an op that may not reassociate (`seq`, left to right) are never
 * cut: with one outer iteration such a reduction stays serial. */
#include <string.h>

#include "common/alloc.h"
#include "common/error_internal.h"
#include "reduce/reduce.h"
#include "targets/target.h"

/* Elements a thread's chunk has at least (as the ufunc target's). */
#define PAR_MIN_CHUNK 32768
/* Units to aim for per thread. */
#define PAR_PARTS_PER_THREAD 4
/* Kept-row part boundaries: a multiple of every vector loop's step. */
#define ROW_BLOCK 256
/* Elements of a kept row a part has at least: each part walks the
 * reduced axis over its own columns, and narrow column strips cost the
 * hardware prefetchers (axis 0 of 1e4 x 1e4 float64: 8 parts of 1250
 * columns took 19% more CPU time than one thread, 2 parts of 5000 5%). */
#define ROW_MIN_PART 4096
/* A piece of a tree-reduced run is cut again only from twice this. */
#define LEAF_MIN 8192
/* Leaves per run at most (its tree of pieces has 2 * MAX_LEAVES - 1
 * nodes) and node values per batch of runs. */
#define MAX_LEAVES 64
#define MAX_NODES (2 * MAX_LEAVES - 1)
#define BATCH_SLOTS 65536

typedef uf__reduce_dim rdim;

static int64_t mul_sat(int64_t a, int64_t b)
{
    const int64_t big = (int64_t)1 << 62;
    return b != 0 && a > big / b ? big : a * b;
}

/* Whether every output element is written through one place only: no
 * stride 0 on a kept axis, no other self-overlap (each kept axis, by
 * increasing stride, steps past what the smaller ones span). */
static bool outputs_disjoint(const uf__reduce_plan *p)
{
    int64_t st[UF_MAXDIMS + 1], n[UF_MAXDIMS + 1], extent;
    int m = 0;

    for (int i = 0; i < p->nk; i++) {
        st[m] = p->k[i].so < 0 ? -p->k[i].so : p->k[i].so;
        n[m++] = p->k[i].n;
    }
    if (!p->inner.red && p->inner.n > 1) {
        st[m] = p->inner.so < 0 ? -p->inner.so : p->inner.so;
        n[m++] = p->inner.n;
    }
    for (int i = 1; i < m; i++)
        for (int j = i; j > 0 && st[j - 1] > st[j]; j--) {
            int64_t t = st[j];
            st[j] = st[j - 1], st[j - 1] = t;
            t = n[j];
            n[j] = n[j - 1], n[j - 1] = t;
        }
    extent = (int64_t)uf_dtype_itemsize(p->op->type);
    for (int i = 0; i < m; i++) {
        if (st[i] < extent)
            return false;
        extent += st[i] * (n[i] - 1);
    }
    return true;
}

/* ---- outer iterations ---------------------------------------------------- */

static int outer_body(void *ctx, int64_t begin, int64_t end, uf_error *err)
{
    return uf__reduce_plan_run(ctx, begin, end, err);
}

static int run_outer(const uf__target *t, const uf__reduce_plan *p,
                     int64_t per_outer, int nthreads, uf_error *err)
{
    int64_t grain = per_outer >= PAR_MIN_CHUNK
                        ? 1 : PAR_MIN_CHUNK / per_outer + 1;
    return t->run(p->nouter, grain, nthreads, outer_body, (void *)p, err);
}

/* ---- parts of a kept innermost row --------------------------------------- */

typedef struct rows {
    const uf__reduce_plan *p;
    int64_t parts, nblocks;
} rows;

static int64_t part_start(const rows *r, int64_t k)
{
    int64_t q = r->nblocks / r->parts, rem = r->nblocks % r->parts;
    int64_t block = k * q + (k < rem ? k : rem);
    int64_t s = block * ROW_BLOCK;
    return s < r->p->inner.n ? s : r->p->inner.n;
}

/* Units [begin, end): unit u is part u % parts of outer iteration
 * u / parts; consecutive parts of one iteration run as one piece. */
static int rows_body(void *ctx, int64_t begin, int64_t end, uf_error *err)
{
    const rows *r = ctx;
    const uf__reduce_plan *p = r->p;
    uf__reduce_plan q;
    int rc;

    if (r->parts == 1)
        return uf__reduce_plan_run(p, begin, end, err);
    memcpy(&q, p, sizeof q);
    while (begin < end) {
        int64_t o = begin / r->parts, k0 = begin % r->parts;
        int64_t k1 = end - o * r->parts < r->parts ? end - o * r->parts
                                                   : r->parts;
        int64_t s0 = part_start(r, k0);
        int64_t s1 = k1 == r->parts ? p->inner.n : part_start(r, k1);

        q.in = p->in + s0 * p->inner.si;
        q.out = p->out + s0 * p->inner.so;
        q.inner.n = s1 - s0;
        if (q.inner.n > 0 && (rc = uf__reduce_plan_run(&q, o, o + 1, err)))
            return rc;
        begin = o * r->parts + k1;
    }
    return 0;
}

static int run_rows(const uf__target *t, const uf__reduce_plan *p,
                    int64_t per_outer, int nthreads, uf_error *err)
{
    int64_t target = (int64_t)nthreads * PAR_PARTS_PER_THREAD, per_unit;
    rows r = {p, 1, p->inner.n / ROW_BLOCK + (p->inner.n % ROW_BLOCK != 0)};

    if (p->nouter < target)
        r.parts = (target + p->nouter - 1) / p->nouter;
    if (r.parts > p->inner.n / ROW_MIN_PART)
        r.parts = p->inner.n / ROW_MIN_PART;
    if (r.parts > r.nblocks)
        r.parts = r.nblocks;
    if (r.parts < 1)
        r.parts = 1;
    per_unit = per_outer / r.parts + 1;
    return t->run(mul_sat(p->nouter, r.parts),
                  per_unit >= PAR_MIN_CHUNK ? 1 : PAR_MIN_CHUNK / per_unit + 1,
                  nthreads, rows_body, &r, err);
}

/* ---- runs cut along the pairwise tree ------------------------------------ */

/* A piece of a run: elements [off, off + n); left < 0 for a leaf. */
typedef struct tnode {
    int64_t off, n;
    int left, right;
} tnode;

typedef struct trees {
    const uf__reduce_plan *p;
    tnode node[MAX_NODES];
    int nnodes;
    int leaf[MAX_LEAVES]; /* the leaves' node numbers */
    int nleaves;
    const char **run;     /* [batch] each run's first element */
    char *val;            /* [batch][nnodes] node values */
    size_t isz;
} trees;

/* Cuts [0, n) where the tree splits, the largest piece first, until
 * there are `want` leaves or no piece is worth cutting. Node numbers
 * grow downwards: children come after their parent. */
static void cut_run(trees *t, int64_t n, int64_t want)
{
    t->node[0] = (tnode){0, n, -1, -1};
    t->nnodes = 1;
    t->leaf[0] = 0;
    t->nleaves = 1;
    while (t->nleaves < want && t->nleaves < MAX_LEAVES) {
        int best = 0;
        for (int i = 1; i < t->nleaves; i++)
            if (t->node[t->leaf[i]].n > t->node[t->leaf[best]].n)
                best = i;
        tnode *v = &t->node[t->leaf[best]];
        int64_t blocks = (v->n + UF__REDUCE_BLOCK - 1) / UF__REDUCE_BLOCK;
        if (v->n < 2 * LEAF_MIN || blocks < 2)
            break;
        int64_t pow2 = 1;
        while (pow2 * 2 < blocks)
            pow2 *= 2;
        int64_t left = pow2 * UF__REDUCE_BLOCK;
        int l = t->nnodes, r = t->nnodes + 1;
        t->node[l] = (tnode){v->off, left, -1, -1};
        t->node[r] = (tnode){v->off + left, v->n - left, -1, -1};
        v->left = l;
        v->right = r;
        t->nnodes += 2;
        /* the cut leaf becomes its left piece; the right one is added */
        t->leaf[best] = l;
        t->leaf[t->nleaves++] = r;
    }
}

/* Leaves [begin, end) of the batch: leaf j is leaf j % nleaves of run
 * j / nleaves. */
static int leaves_body(void *ctx, int64_t begin, int64_t end, uf_error *err)
{
    const trees *t = ctx;
    const uf__reduce_plan *p = t->p;

    for (int64_t j = begin; j < end; j++) {
        int64_t run = j / t->nleaves;
        const tnode *v = &t->node[t->leaf[j % t->nleaves]];
        char *res = t->val + ((size_t)run * (size_t)t->nnodes +
                              (size_t)(v - t->node)) * t->isz;
        int st = uf__reduce_tree(p->op, res, t->run[run] + v->off * p->inner.si,
                                 v->n, p->inner.si);
        if (st != 0)
            return uf__reduce_status(p->op, st, err);
    }
    return 0;
}

/* The run's value from its leaves, merged as the tree merges them (the
 * left piece accumulates the right), into node 0. */
static int merge_run(const trees *t, char *val)
{
    for (int i = t->nnodes - 1; i >= 0; i--) {
        const tnode *v = &t->node[i];
        if (v->left < 0)
            continue;
        memcpy(val + (size_t)i * t->isz, val + (size_t)v->left * t->isz,
               t->isz);
        int st = t->p->op->fns.combine(val + (size_t)i * t->isz,
                                       val + (size_t)v->right * t->isz);
        if (st != 0)
            return st;
    }
    return 0;
}

static int run_trees(const uf__target *tg, const uf__reduce_plan *p,
                     int64_t nruns, int nthreads, uf_error *err)
{
    int64_t want = (int64_t)nthreads * PAR_PARTS_PER_THREAD, batch;
    trees t;
    int rc = 0;

    t.p = p;
    t.isz = uf_dtype_itemsize(p->op->type);
    cut_run(&t, p->inner.n, nruns >= want ? 1 : (want + nruns - 1) / nruns);
    /* one piece per outer iteration: share the outer iterations instead */
    if (nruns * t.nleaves < 2)
        return run_outer(tg, p, p->inner.n, nthreads, err);
    batch = BATCH_SLOTS / t.nnodes;
    if (batch > nruns)
        batch = nruns;
    t.run = uf__malloc((size_t)batch, sizeof *t.run, err);
    t.val = t.run ? uf__malloc((size_t)batch * (size_t)t.nnodes, t.isz, err)
                  : NULL;
    if (t.val == NULL) {
        uf__free(t.run);
        return err->code;
    }
    /* leaves per chunk: enough elements between them */
    int64_t leaf_n = p->inner.n / t.nleaves + 1;
    int64_t grain = leaf_n >= PAR_MIN_CHUNK ? 1 : PAR_MIN_CHUNK / leaf_n + 1;
    int64_t kc[UF_MAXDIMS], rco[UF_MAXDIMS];
    const char *kin = p->in;
    char *kout = p->out;

    memset(kc, 0, sizeof kc);
    for (int64_t o = 0; o < p->nouter && rc == 0; o++) {
        const char *rin = kin;
        memset(rco, 0, sizeof rco);
        for (int64_t done = 0; done < nruns && rc == 0;) {
            int64_t b = nruns - done < batch ? nruns - done : batch;
            /* the batch's runs in the serial order */
            for (int64_t i = 0; i < b; i++) {
                t.run[i] = rin;
                for (int d = p->nr - 1; d >= 0; d--) {
                    rin += p->r[d].si;
                    if (++rco[d] < p->r[d].n)
                        break;
                    rin -= rco[d] * p->r[d].si;
                    rco[d] = 0;
                }
            }
            if ((rc = tg->run(b * t.nleaves, grain, nthreads, leaves_body,
                              &t, err)) != 0)
                break;
            for (int64_t i = 0; i < b; i++) {
                char *val = t.val + (size_t)i * (size_t)t.nnodes * t.isz;
                int st = merge_run(&t, val);
                if (st == 0)
                    st = p->op->fns.combine(kout, val);
                if (st != 0) {
                    rc = uf__reduce_status(p->op, st, err);
                    break;
                }
            }
            done += b;
        }
        for (int d = p->nk - 1; d >= 0; d--) {
            kin += p->k[d].si;
            kout += p->k[d].so;
            if (++kc[d] < p->k[d].n)
                break;
            kin -= kc[d] * p->k[d].si;
            kout -= kc[d] * p->k[d].so;
            kc[d] = 0;
        }
    }
    uf__free(t.val);
    uf__free(t.run);
    return rc != 0 ? err->code : 0;
}

int uf__reduce_plan_run_parallel(const uf__reduce_plan *p,
                                 const uf__target *t, int nthreads,
                                 uf_error *err)
{
    const uf__reduce_op *op = p->op;
    int64_t nruns = 1, per_outer, total;

    nthreads = t->threads(nthreads);
    for (int i = 0; i < p->nr; i++)
        nruns = mul_sat(nruns, p->r[i].n);
    per_outer = mul_sat(nruns, p->inner.n);
    total = mul_sat(per_outer, p->nouter);
    /* one thread (the serial layer's) runs everything on the caller's
     * thread: no cuts */
    if (nthreads <= 1 || total < 2 * PAR_MIN_CHUNK || !outputs_disjoint(p))
        return uf__reduce_plan_run(p, 0, p->nouter, err);
    if (!p->inner.red)
        return run_rows(t, p, per_outer, nthreads, err);
    if (p->nouter >= (int64_t)nthreads * PAR_PARTS_PER_THREAD ||
        op->fns.tree == NULL || !op->reassociate)
        return run_outer(t, p, per_outer, nthreads, err);
    return run_trees(t, p, nruns, nthreads, err);
}
