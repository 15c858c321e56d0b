/* uf_accumulate on the CUDA targets (cuda, cudasim): the SCAN mode of the
 * reduction kernel (compiler/nvvm/nvvm_reduce.c), one thread per line
 * along the axis, each folding its line left to right as the cpu
 * target's accumulate.c does: the same bits on every target.
 *
 * Cost: a line runs at one thread's speed (n dependent steps of f plus
 * a load and a store each). Many lines (a 2-D array accumulated along
 * either axis) fill the device and neighbouring threads touch
 * neighbouring elements when the lines run along an outer axis; a single
 * long 1-D accumulate runs on one thread, slower than the host. A
 * parallel scan would be fast there but combines floats in another
 * order (not the cpu's bits); integers could take it exactly (later).
 *
 * Operands are staged as uf_call stages them: a host input cast to the
 * accumulator type and copied in, a device input of that type as it is;
 * a device out= written in place on the call's stream, a host one copied
 * back into (cast under the casting rule the caller checked). */
#include <string.h>

#include "common/error_internal.h"
#include "ndarray/array_internal.h"
#include "reduce/reduce.h"
#include "reduce/reduce_cuda.h"
#include "ufunc/cuda_stage.h"

typedef uf__reduce_dim adim;

/* Whether `out` is `in` itself (same memory, same layout): then each
 * thread reads an element before it overwrites it, and nobody else
 * touches its line, so accumulating in place is safe. */
static bool same_layout(const uf_array *in, const uf_array *out)
{
    int nd = uf_array_ndim(in);
    return uf_array_data(in) == uf_array_data(out) &&
           uf_array_dtype(in) == uf_array_dtype(out) &&
           memcmp(uf_array_strides(in), uf_array_strides(out),
                  (size_t)nd * sizeof(int64_t)) == 0;
}

/* The lines: the other axes (length 1 dropped), sorted by input stride
 * and merged as the cpu sorts them, so that neighbouring threads get
 * neighbouring elements. Returns their count into d. */
static int lines(const uf_array *src, const uf_array *dst, int axis, adim *d)
{
    int m = 0;
    for (int i = 0; i < uf_array_ndim(src); i++)
        if (i != axis && uf_array_shape(src)[i] != 1)
            d[m++] = (adim){uf_array_shape(src)[i], uf_array_strides(src)[i],
                            uf_array_strides(dst)[i], false};
    return uf__reduce_sort_merge(d, m);
}

/* The SCAN launch (nvvm.h's reduction ABI) over src and dst. */
static int scan(const uf__cuda_site *s, const uf__cuda_kernel *k,
                const uf_array *src, const uf_array *dst, int axis,
                uf_error *err)
{
    adim d[UF_MAXDIMS];
    int nd = lines(src, dst, axis, d);
    int64_t w[3 * UF_MAXDIMS], count = 1;
    for (int i = 0; i < nd; i++) {
        w[3 * i] = d[i].n;
        w[3 * i + 1] = d[i].si;
        w[3 * i + 2] = d[i].so;
        count *= d[i].n;
    }
    uf_array *dims = NULL;
    if (nd > 0) { /* a synchronous copy: it may die right after */
        int64_t nw = 3 * nd;
        uf_array *h = uf_array_wrap(UF_INT64, 1, &nw, NULL, w, false, NULL,
                                    NULL, err);
        if (h == NULL)
            return err->code;
        dims = uf_to_device(h, s->rt->target, NULL, err);
        uf_array_release(h);
        if (dims == NULL)
            return err->code;
    }
    int32_t mode = UF__NVVM_REDUCE_SCAN, nk = nd, nr = 0, flag = 0;
    char *in = (char *)uf_array_data(src), *out = (char *)uf_array_data(dst),
         *init = NULL, *dp = dims ? (char *)uf_array_data(dims) : NULL;
    int64_t n = uf_array_shape(src)[axis];
    int64_t stride = uf_array_strides(src)[axis];
    int64_t rowstep = uf_array_strides(dst)[axis];
    uf__cuda_params pp;
    memset(&pp, 0, sizeof pp);
    uf__cuda_put(&pp, &mode, 4);
    uf__cuda_put(&pp, &in, 8);
    uf__cuda_put(&pp, &out, 8);
    uf__cuda_put(&pp, &init, 8);
    uf__cuda_put(&pp, &dp, 8);
    uf__cuda_put(&pp, &nk, 4);
    uf__cuda_put(&pp, &nr, 4);
    uf__cuda_put(&pp, &count, 8);
    uf__cuda_put(&pp, &n, 8);
    uf__cuda_put(&pp, &stride, 8);
    uf__cuda_put(&pp, &rowstep, 8);
    uf__cuda_put(&pp, &flag, 4);
    int64_t blocks = (count + UF__NVVM_REDUCE_THREADS - 1) /
                     UF__NVVM_REDUCE_THREADS;
    int64_t cap = (int64_t)s->rt->sm_count * 32;
    if (blocks > (cap > 0 ? cap : 1))
        blocks = cap > 0 ? cap : 1;
    const unsigned grid[3] = {(unsigned)blocks, 1, 1};
    const unsigned block[3] = {UF__NVVM_REDUCE_THREADS, 1, 1};
    int rc = uf__cuda_launch_dims(s, k, grid, block, 0, &pp, err);
    uf_array_release(dims);
    return rc;
}

int uf__cuda_accumulate(uf_func *f, const uf__reduce_op *op,
                        const uf__target *target, uf_array *in, int axis,
                        uf_array **out, const uf_call_options *opts,
                        uf_error *err)
{
    uf__cuda_site site;
    uf__cuda_operand src = {0}, res = {0};
    uf_array *given = *out, *host_out = NULL;
    int rc = uf__cuda_call_begin(&site, target->name, "ufunc", op->name,
                                 opts, err);
    if (rc != 0)
        return rc;
    bool dev_out = given != NULL && uf__cuda_on_device(given);
    site.any_device = uf__cuda_on_device(in) || dev_out;
    if (dev_out && uf__cuda_on_device(in) && uf__arrays_overlap(given, in) &&
        !same_layout(in, given))
        return uf__error_set(err, UF_ERR_VALUE,
                             "accumulate of '%s': the device out= overlaps "
                             "the input other than as the input itself "
                             "(accumulate into a separate device array)",
                             op->name);
    if ((rc = uf__cuda_stage_input(&site, 0, in, op->type, false, &src,
                                   err)) != 0)
        goto done;
    if (dev_out) {
        if ((rc = uf__cuda_stage_output(&site, 0, given, op->type, &res,
                                        err)) != 0)
            goto done;
    } else {
        if (given != NULL) { /* copied back below, cast as checked */
            host_out = given;
            site.host_side = true;
        }
        if ((rc = uf__cuda_alloc_output(&site, &res, op->type,
                                        uf_array_ndim(in),
                                        uf_array_shape(in), err)) != 0)
            goto done;
    }
    if (uf_array_size(in) > 0) {
        const uf__cuda_kernel *k = uf__cuda_reduce_kernel(f, site.rt,
                                                          op->type, false,
                                                          err);
        if (k == NULL || (rc = scan(&site, k, src.dev, res.dev, axis, err)) != 0) {
            rc = err->code;
            goto done;
        }
    }
    if ((rc = uf__cuda_call_wait(&site, err)) != 0)
        goto done;
    if (host_out != NULL) {
        uf_array *h = uf_copy_to_host(res.dev, NULL, NULL, err);
        if (h == NULL) {
            rc = err->code;
            goto done;
        }
        rc = uf_array_copyto(host_out, h, UF_CASTING_UNSAFE, err);
        uf_array_release(h);
    } else if (given == NULL) {
        rc = uf__cuda_finish_output(&site, &res, out, err);
    }
done:
    uf__cuda_operand_release(&src);
    uf__cuda_operand_release(&res);
    return rc;
}
