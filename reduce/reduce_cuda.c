/* uf_reduce and @reduce / @cuda.reduce kernels on the CUDA targets (cuda,
 * cudasim): the kernel of compiler/nvvm/nvvm_reduce.c run in the order
 * the CPU target's engine (reduce_exec.c) would run it, so that every
 * target gives the same bits:
 *
 *   - the plan is the CPU's (length-1 axes dropped, axes sorted and
 *     merged, the same innermost axis);
 *   - an innermost reduced run, for ops that reassociate: the pairwise
 *     tree of each run (TREE passes until one value per run is left),
 *     then per output the start value combined with the runs' values in
 *     order (FOLD);
 *   - otherwise (an innermost kept axis, or an op that must run in
 *     order): one thread per output folding its elements in the CPU's
 *     order (FOLD), which is also how a GPU best reduces along an outer
 *     axis (neighbouring threads read neighbouring elements);
 *   - without a start value, the output first gets each reduction's
 *     first element and the rest is reduced in the CPU's boxes (with one
 *     output, the first box starts from that element where it lies).
 *
 * Cost of matching the CPU's order: none in memory traffic (every element
 * is read once, as any tree reads it); the leaf lanes read 8 elements
 * 64 bytes apart per warp step instead of 32 consecutive ones, and the
 * tree has 8 shared-memory levels per 4096 elements (a free-order tree
 * would have the same number). Measured on an H200 (bench/GPU_RESULTS.md):
 * a sum of 10**8 float64 in 198 us against CUB's 183, the leaf pass at 89%
 * of the DRAM's peak (CUB's 93%) plus three small launches of ~3.5 us.
 *
 * The input is staged as uf_call stages it (a host array cast to the
 * accumulator type and copied in); the result is a device array when the
 * input is one, else copied back to a host array; a device out= is
 * written in place (no host round trip), a host one copied into. */
#include <stdio.h>
#include <string.h>

#include "common/error_internal.h"
#include "compiler/context.h"
#include "ndarray/array_internal.h"
#include "reduce/reduce.h"
#include "reduce/reduce_cuda.h"
#include "targets/cuda/cuda_scratch.h"
#include "ufunc/cuda_kernels.h"
#include "ufunc/cuda_stage.h"

#define REDUCE_TAG 0x5245445543454ull /* "REDUCE": the kernel's cache key */
#define MAXDIMS_WORDS (2 * UF_MAXDIMS * 3)

typedef uf__reduce_dim rdim;

typedef struct job {
    uf_func *f;
    const uf__reduce_op *op;
    uf__cuda_site site;
    const uf__cuda_kernel *k;  /* the general kernel */
    const uf__cuda_kernel *kc; /* TREE over contiguous rows, on first use */
    int64_t isz;
    char *init; /* the start value on the device (scratch), or NULL */
    uf__cuda_scratch *scratch; /* the stream's, locked for the call */
} job;

const uf__cuda_kernel *uf__cuda_reduce_kernel(uf_func *f,
                                              const uf__cuda_rt *rt,
                                              uf_dtype t, bool contig,
                                              uf_error *err)
{
    uf__kmodule *km = f->module->km;
    const uf__type *tt = uf__type_scalar(km->tc, t);
    const uf__type *args[2] = {tt, tt};
    bool vec = f->decl->kind == UF__K_VECTORIZE;
    uf_context *ctx = f->module->ctx;
    pthread_mutex_lock(&ctx->lock);
    const uf__cuda_kernel *k = NULL;
    uf__cuda_kernels *ck = uf__cuda_kernels_of(f, err);
    const uf__nvvm_variant v = {.layout = contig ? UF__NVVM_CONTIG
                                                 : UF__NVVM_STRIDED};
    if (ck != NULL)
        k = uf__cuda_kernel_find(ck, rt, &t, 1, 0, &v, REDUCE_TAG);
    if (ck != NULL && k == NULL) {
        const uf__typed_func *tf = uf__infer(km, f->decl, args, 2,
                                             vec ? tt : NULL, err);
        uf__nvvm_spec spec = {.tf = tf, .reduce = true, .v = v};
        if (tf != NULL)
            k = uf__cuda_kernel_add(f, rt, &spec, &t, 1, 0, REDUCE_TAG,
                                    err);
    }
    pthread_mutex_unlock(&ctx->lock);
    return k;
}

/* The kernel around f for op's type: the general one, or (contig) the
 * TREE kernel for contiguous rows. */
static const uf__cuda_kernel *kernel_of(job *j, bool contig, uf_error *err)
{
    return uf__cuda_reduce_kernel(j->f, j->site.rt, j->op->type, contig,
                                  err);
}

/* A host array's memory on the device byte for byte (the span its
 * strides reach, a synchronous copy): *base is its element 0 there, with
 * the host array's strides, so that the plan is the CPU's own (a copy
 * in another order would change the order of a float sum). A view
 * costs the span it reaches, not just its elements. */
static uf_array *upload_span(job *j, const uf_array *a, char **base,
                             uf_error *err)
{
    int64_t lo = 0, hi = j->isz;
    for (int i = 0; i < uf_array_ndim(a); i++) {
        int64_t ext = (uf_array_shape(a)[i] - 1) * uf_array_strides(a)[i];
        if (ext < 0)
            lo += ext;
        else
            hi += ext;
    }
    int64_t n = hi - lo;
    uf_array *h = uf_array_wrap(UF_UINT8, 1, &n, NULL,
                                (char *)uf_array_data(a) + lo, false, NULL,
                                NULL, err);
    if (h == NULL)
        return NULL;
    uf_array *d = uf_to_device(h, j->site.rt->target, NULL, err);
    uf_array_release(h);
    if (d != NULL)
        *base = (char *)uf_array_data(d) - lo;
    return d;
}

/* Scratch slots of a call (cuda_scratch.h) */
enum { SLOT_DIMS = 2, SLOT_INIT = 3 };

static uf__cuda_scratch *scratch_of(job *j)
{
    if (j->scratch == NULL)
        j->scratch = uf__cuda_scratch_begin(j->site.rt, j->site.stream);
    return j->scratch;
}

/* n elements of dt from the host into scratch slot `slot`, ordered on the
 * call's stream (a synchronous copy, or a fresh allocation and its free,
 * would wait for the device each call); NULL with err set on failure. */
static char *upload(job *j, int slot, uf_dtype dt, int64_t n, const void *data,
                    uf_error *err)
{
    uf__cu_dptr p = 0;
    if (uf__cuda_scratch_put(scratch_of(j), slot, data,
                             (size_t)n * uf_dtype_itemsize(dt), &p,
                             err) != 0)
        return NULL;
    return (char *)(uintptr_t)p;
}

static char *dptr(const uf_array *a)
{
    return a ? (char *)uf_array_data(a) : NULL;
}

typedef struct kparams {
    int32_t mode;
    char *src, *dst, *init;
    char *dims;
    int32_t nk, nr;
    int64_t count, n, stride, rowstep;
    int32_t flag;
} kparams;

static int launch(job *j, const kparams *p, int64_t blocks, uf_error *err)
{
    if (blocks <= 0)
        return 0;
    /* a block per task up to this many (the kernel loops over the rest):
     * a 10**8 float64 sum's 24415 leaf tasks on 4224 blocks (32 per SM)
     * left the last wave uneven, blocks doing 5 tasks beside ones doing
     * 6 (87% of the H200's bandwidth in that pass, CUB 93%) */
    int64_t cap = (int64_t)j->site.rt->sm_count * 256;
    if (cap < 1)
        cap = 1;
    if (blocks > cap)
        blocks = cap;
    uf__cuda_params pp;
    memset(&pp, 0, sizeof pp);
    uf__cuda_put(&pp, &p->mode, 4);
    uf__cuda_put(&pp, &p->src, 8);
    uf__cuda_put(&pp, &p->dst, 8);
    uf__cuda_put(&pp, &p->init, 8);
    uf__cuda_put(&pp, &p->dims, 8);
    uf__cuda_put(&pp, &p->nk, 4);
    uf__cuda_put(&pp, &p->nr, 4);
    uf__cuda_put(&pp, &p->count, 8);
    uf__cuda_put(&pp, &p->n, 8);
    uf__cuda_put(&pp, &p->stride, 8);
    uf__cuda_put(&pp, &p->rowstep, 8);
    uf__cuda_put(&pp, &p->flag, 4);
    const unsigned grid[3] = {(unsigned)blocks, 1, 1};
    const unsigned block[3] = {UF__NVVM_REDUCE_THREADS, 1, 1};
    /* contiguous rows without a dims walk: the lighter kernel */
    const uf__cuda_kernel *k = j->k;
    if (p->mode == UF__NVVM_REDUCE_TREE && p->nk == 0 && p->stride == j->isz) {
        if (j->kc == NULL && (j->kc = kernel_of(j, true, err)) == NULL)
            return err->code;
        k = j->kc;
    }
    return uf__cuda_launch_dims(&j->site, k, grid, block, 0, &pp, err);
}

/* dims triples of d[0..nd) into w at *nw (s_in replaced by 0 when
 * `no_in`). */
static void put_dims(int64_t *w, int *nw, const rdim *d, int nd, bool no_in)
{
    for (int i = 0; i < nd; i++) {
        w[(*nw)++] = d[i].n;
        w[(*nw)++] = no_in ? 0 : d[i].si;
        w[(*nw)++] = d[i].so;
    }
}

/* FOLD over outputs kept[0..nk) with segments red[0..nr) at src (one
 * segment when nr is 0; none when red is NULL: the start alone). */
static int fold(job *j, const rdim *kept, int nk, const rdim *red, int nr,
                char *src, char *dst, int64_t rowstep, bool no_in, int flag,
                uf_error *err)
{
    int64_t w[MAXDIMS_WORDS];
    int nw = 0;
    put_dims(w, &nw, kept, nk, no_in);
    put_dims(w, &nw, red, nr, false);
    int64_t m = 1, n = 1;
    for (int i = 0; i < nk; i++)
        m *= kept[i].n;
    for (int i = 0; i < nr; i++)
        n *= red[i].n;
    if (red == NULL)
        n = 0;
    char *dims = nw ? upload(j, SLOT_DIMS, UF_INT64, nw, w, err) : NULL;
    if (nw && dims == NULL)
        return err->code;
    kparams p = {UF__NVVM_REDUCE_FOLD, src, dst, j->init, dims,
                 nk, nr, m, n, 0, rowstep, flag};
    return launch(j, &p, (m + UF__NVVM_REDUCE_THREADS - 1) /
                             UF__NVVM_REDUCE_THREADS, err);
}

/* The stream's scratch buffer of n elements of the op's type (slot 0/1):
 * no allocation once it is large enough (cuda_scratch.h). */
static char *scratch(job *j, int slot, int64_t n, uf_error *err)
{
    uf__cu_dptr p = 0;
    if (uf__cuda_scratch_slot(scratch_of(j), slot, (size_t)(n * j->isz), &p,
                              err) != 0)
        return NULL;
    return (char *)(uintptr_t)p;
}

/* TREE passes over `rows` runs of n elements at stride si (rows walked by
 * rd[0..nrd)) until one value per row is left; *res points at them. */
static int tree(job *j, const rdim *rd, int nrd, int64_t rows, char *src,
                int64_t n, int64_t si, char **res, uf_error *err)
{
    int64_t w[MAXDIMS_WORDS];
    int nw = 0;
    put_dims(w, &nw, rd, nrd, false);
    char *dims = nw ? upload(j, SLOT_DIMS, UF_INT64, nw, w, err) : NULL;
    if (nw && dims == NULL)
        return err->code;
    int64_t chunk = UF__NVVM_REDUCE_LEAF_CHUNK;
    int slot = 0, rc = 0;
    bool leaf = true;
    for (;;) {
        int64_t nch = (n + chunk - 1) / chunk;
        char *out = scratch(j, slot, rows * nch, err);
        if (out == NULL) {
            rc = err->code;
            break;
        }
        kparams p = {UF__NVVM_REDUCE_TREE, src, out, NULL,
                     leaf ? dims : NULL, leaf ? nrd : 0, 0, rows, n, si,
                     leaf ? 0 : n * j->isz, leaf};
        if ((rc = launch(j, &p, rows * nch, err)) != 0)
            break;
        src = out;
        if (nch == 1)
            break;
        n = nch;
        si = j->isz;
        chunk = UF__NVVM_REDUCE_THREADS;
        leaf = false;
        slot ^= 1;
    }
    *res = src;
    return rc;
}

/* One plan of the CPU engine (dims d[0..nd), out holding the start when
 * flag is 1, else the start in j->init): reduce_exec.c's run_dims. */
static int run_dims(job *j, rdim *d, int nd, char *in, char *out, int flag,
                    uf_error *err)
{
    const char *cin = in;
    nd = uf__reduce_normalize(d, nd, &cin, &out, j->op->reassociate);
    uf__reduce_pick_inner(d, nd);
    in = (char *)cin;
    rdim k[UF_MAXDIMS], r[UF_MAXDIMS + 1];
    int nk = 0, nr = 0;
    for (int i = 0; i < nd - 1; i++) {
        if (d[i].red)
            r[nr++] = d[i];
        else
            k[nk++] = d[i];
    }
    rdim inner = nd > 0 ? d[nd - 1] : (rdim){1, 0, 0, true};
    if (!inner.red) { /* per output, its column in order */
        k[nk++] = inner;
        return fold(j, k, nk, r, nr, in, out, 0, false, flag, err);
    }
    if (!j->op->reassociate) {
        r[nr++] = inner;
        return fold(j, k, nk, r, nr, in, out, 0, false, flag, err);
    }
    /* rows: the kept axes, then the outer reduced ones */
    rdim rows[2 * UF_MAXDIMS];
    int64_t nrows = 1, nred = 1;
    for (int i = 0; i < nk; i++)
        rows[i] = k[i], nrows *= k[i].n;
    for (int i = 0; i < nr; i++)
        rows[nk + i] = r[i], nred *= r[i].n;
    char *vals = NULL;
    int rc = tree(j, rows, nk + nr, nrows * nred, in, inner.n, inner.si,
                  &vals, err);
    if (rc != 0)
        return rc;
    rdim seg = {nred, j->isz, 0, true};
    return fold(j, k, nk, &seg, 1, vals, out, nred * j->isz, true, flag,
                err);
}

/* reduce_exec.c's uf__reduce_exec on the device. */
static int exec(job *j, const uf__reduce_args *a, uf_error *err)
{
    rdim d[UF_MAXDIMS];
    int nd = a->ndim;
    bool red_empty = false;
    for (int i = 0; i < nd; i++) {
        d[i] = (rdim){a->shape[i], a->in_strides[i],
                      a->red[i] ? 0 : a->out_strides[i], a->red[i]};
        if (a->shape[i] == 0 && !a->red[i])
            return 0; /* no output */
        red_empty = red_empty || a->shape[i] == 0;
    }
    char *in = (char *)a->in, *out = a->out;
    if (red_empty) { /* every output is the start value */
        rdim k[UF_MAXDIMS];
        int nk = 0;
        for (int i = 0; i < nd; i++)
            if (!d[i].red)
                k[nk++] = d[i];
        return fold(j, k, nk, NULL, 0, in, out, 0, false, 0, err);
    }
    if (a->have_start)
        return run_dims(j, d, nd, in, out, 0, err);
    const char *cin = in;
    nd = uf__reduce_normalize(d, nd, &cin, &out, j->op->reassociate);
    in = (char *)cin;
    rdim k[UF_MAXDIMS];
    int nk = 0;
    for (int i = 0; i < nd; i++)
        if (!d[i].red)
            k[nk++] = d[i];
    /* One output: the first box (when not empty) starts from in[0] itself
     * (the start pointer at it) rather than from the copy a first fold
     * would make, a launch less. */
    int b0 = 0;
    while (b0 < nd && !d[b0].red)
        b0++;
    bool one = nk == 0 && b0 < nd && d[b0].n > 1, first = true;
    int rc = 0;
    if (one)
        j->init = in;
    else
        rc = fold(j, k, nk, NULL, 0, in, out, 0, false, 2, err);
    for (int b = 0; b < nd && rc == 0; b++) {
        if (!d[b].red)
            continue;
        rdim box[UF_MAXDIMS];
        memcpy(box, d, (size_t)nd * sizeof *d);
        for (int i = 0; i < b; i++)
            if (box[i].red)
                box[i].n = 1;
        box[b].n -= 1;
        rc = run_dims(j, box, nd, in + d[b].si, out, one && first ? 0 : 1,
                      err);
        first = false;
    }
    return rc;
}

int uf__cuda_reduce(uf_func *f, const uf__reduce_op *op,
                    const uf__target *target, uf_array *in, const bool *red,
                    bool keepdims, int rnd, const int64_t *rshape,
                    const void *start, bool have_start, uf_array **out,
                    const uf_call_options *opts, uf_error *err)
{
    job j = {.f = f, .op = op,
             .isz = (int64_t)uf_dtype_itemsize(op->type)};
    uf__cuda_operand src = {0}, res = {0};
    int rc = uf__cuda_call_begin(&j.site, target->name, "ufunc", op->name,
                                 opts, err);
    if (rc != 0)
        return rc;
    /* numba-cuda's rule: a device input or out= keeps the result there */
    j.site.any_device = uf__cuda_on_device(in) ||
                        (*out != NULL && uf__cuda_on_device(*out));
    /* the input: a device array as it is (of the reduction's type), a
     * host one as the CPU reads it (cast as it casts) */
    uf_array *host = NULL;
    char *base = NULL;
    if (*out != NULL && uf__cuda_on_device(*out) &&
        uf__cuda_on_device(in) && uf__arrays_overlap(*out, in)) {
        /* threads would write outputs other threads still read */
        rc = uf__error_set(err, UF_ERR_VALUE,
                           "reduction '%s': the device out= overlaps the "
                           "input (reduce into a separate device array)",
                           op->name);
        goto done;
    }
    if (uf__cuda_on_device(in)) {
        if ((rc = uf__cuda_stage_input(&j.site, 0, in, op->type, false, &src,
                                       err)) != 0)
            goto done;
        base = dptr(src.dev);
    } else {
        if (!(host = uf__reduce_input(in, op->type, err))) {
            rc = err->code;
            goto done;
        }
        if (uf_array_size(host) > 0 &&
            !(src.dev = upload_span(&j, host, &base, err))) {
            rc = err->code;
            goto done;
        }
    }
    const uf_array *sa = uf__cuda_on_device(in) ? src.dev : host;
    if (*out != NULL && (rc = uf__cuda_stage_output(&j.site, 0, *out,
                                                    op->type, &res, err)) != 0)
        goto done;
    if (res.dev == NULL &&
        (rc = uf__cuda_alloc_output(&j.site, &res, op->type, rnd, rshape,
                                    err)) != 0)
        goto done;
    if (!(j.k = kernel_of(&j, false, err))) {
        rc = err->code;
        goto done;
    }
    if (have_start &&
        !(j.init = upload(&j, SLOT_INIT, op->type, 1, start, err))) {
        rc = err->code;
        goto done;
    }
    const uf_array *rd = res.dev;
    int64_t ostrides[UF_MAXDIMS];
    for (int i = 0, kk = 0; i < uf_array_ndim(sa); i++) {
        if (!red[i] || keepdims)
            kk++;
        ostrides[i] = red[i] ? 0 : uf_array_strides(rd)[kk - 1];
    }
    uf__reduce_args a = {op, uf_array_ndim(sa), uf_array_shape(sa),
                         base, uf_array_strides(sa), dptr(rd),
                         ostrides, red, have_start, target, 0};
    if ((rc = exec(&j, &a, err)) != 0)
        goto done;
    if ((rc = uf__cuda_call_wait(&j.site, err)) != 0)
        goto done;
    /* a device out= already holds the result; a host one gets it copied
     * back; a new result goes where any_device says */
    uf_array *result = NULL;
    if ((rc = uf__cuda_finish_output(&j.site, &res,
                                     *out == NULL ? &result : NULL,
                                     err)) != 0)
        goto done;
    if (*out == NULL)
        *out = result;
done:
    uf_array_release(host);
    uf__cuda_scratch_end(j.scratch);
    uf__cuda_operand_release(&src);
    uf__cuda_operand_release(&res);
    return rc;
}
