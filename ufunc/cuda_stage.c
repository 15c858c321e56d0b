/* Staging, packing and launching shared by the CUDA call paths
 * (cuda_stage.h). */
#include <stddef.h>
#include <string.h>

#include "common/error_internal.h"
#include "targets/cuda/cuda_memory.h"
#include "targets/cuda/cuda_scratch.h"
#include "ufunc/cuda_stage.h"
#include "ufunc/options.h"

int uf__cuda_call_begin(uf__cuda_site *s, const char *target,
                        const char *kind, const char *name,
                        const uf_call_options *opts, uf_error *err)
{
    memset(s, 0, sizeof *s);
    s->kind = kind;
    s->name = name;
    s->rt = uf__cuda_rt_get(target, err);
    if (s->rt == NULL)
        return err->code;
    s->stream = UF__OPT(opts, stream, NULL);
    if (s->stream != NULL && s->stream->rt != s->rt)
        return uf__error_set(err, UF_ERR_INVALID,
                             "'%s': the stream belongs to target '%s', the "
                             "call runs on '%s'", name,
                             s->stream->rt->target, s->rt->target);
    return 0;
}

bool uf__cuda_any_device(uf_array *const *inputs, int n_in,
                         uf_array *const *outputs, int n_out)
{
    for (int k = 0; k < n_in; k++)
        if (uf__cuda_on_device(inputs[k]))
            return true;
    for (int k = 0; k < n_out; k++)
        if (outputs[k] != NULL && uf__cuda_on_device(outputs[k]))
            return true;
    return false;
}

/* Host array `a` (dtype possibly not the kernel's) on the device as
 * dtype dt: a mapped array in place, else a (cast) copy. */
static int stage_host_input(uf__cuda_site *s, uf__cuda_operand *op,
                            const uf_array *a, uf_dtype dt, uf_error *err)
{
    uf__cuda_buffer *b = uf__cuda_buffer_of(a);
    if (b && b->kind == UF__CUDA_MEM_MAPPED && b->rt == s->rt &&
        uf_array_dtype(a) == dt) {
        op->dev = uf_array_retain((uf_array *)a);
        op->ptr = b->dptr + (uf__cu_dptr)((char *)uf_array_data(a) -
                                          (char *)b->host);
        return 0;
    }
    uf_array *src = (uf_array *)a, *cast = NULL;
    if (uf_array_dtype(a) != dt) {
        cast = uf_array_astype(a, dt, UF_CASTING_UNSAFE, UF_ORDER_C, err);
        if (cast == NULL)
            return err->code;
        src = cast;
    }
    /* synchronous when staged through a temporary that dies here */
    op->dev = uf_to_device(src, s->rt->target, cast ? NULL : s->stream, err);
    uf_array_release(cast);
    if (op->dev == NULL)
        return err->code;
    op->ptr = (uf__cu_dptr)(uintptr_t)uf_array_data(op->dev);
    return 0;
}

int uf__cuda_stage_input(uf__cuda_site *s, int k, const uf_array *a,
                         uf_dtype dt, bool by_value, uf__cuda_operand *op,
                         uf_error *err)
{
    if (uf__cuda_on_device(a)) {
        if (uf_array_dtype(a) != dt)
            return uf__error_set(
                err, UF_ERR_CAST,
                "input %d is a device array of dtype %s, but the "
                "kernel's signature takes %s: device inputs are not "
                "cast (cast it on the device first)",
                k + 1, uf_dtype_name(uf_array_dtype(a)), uf_dtype_name(dt));
        uf__cuda_buffer *b = uf__cuda_buffer_of(a);
        if (b && b->rt != s->rt)
            return uf__error_set(
                err, UF_ERR_INVALID,
                "input %d is device memory of target '%s', not '%s'", k + 1,
                b->rt->target, s->rt->target);
        op->dev = uf_array_retain((uf_array *)a);
        op->ptr = (uf__cu_dptr)(uintptr_t)uf_array_data(a);
        return 0;
    }
    if (by_value && uf_array_ndim(a) == 0) {
        /* a scalar: by value, cast to the kernel's type */
        uf_array *v = uf_array_astype(a, dt, UF_CASTING_UNSAFE, UF_ORDER_C,
                                      err);
        if (v == NULL)
            return err->code;
        memcpy(op->value, uf_array_data(v), uf_dtype_itemsize(dt));
        uf_array_release(v);
        op->scalar = true;
        return 0;
    }
    s->host_side = true;
    return stage_host_input(s, op, a, dt, err);
}

int uf__cuda_stage_output(uf__cuda_site *s, int k, uf_array *o, uf_dtype dt,
                          uf__cuda_operand *op, uf_error *err)
{
    if (!(uf_array_flags(o) & UF_ARRAY_WRITEABLE))
        return uf__error_set(err, UF_ERR_READONLY, "output %d is read-only",
                             k + 1);
    if (uf__cuda_on_device(o)) {
        if (uf_array_dtype(o) != dt)
            return uf__error_set(
                err, UF_ERR_CAST,
                "output %d is a device array of dtype %s, but the "
                "kernel's signature gives %s", k + 1,
                uf_dtype_name(uf_array_dtype(o)), uf_dtype_name(dt));
        uf__cuda_buffer *b = uf__cuda_buffer_of(o);
        if (b && b->rt != s->rt)
            return uf__error_set(
                err, UF_ERR_INVALID,
                "output %d is device memory of target '%s', not '%s'", k + 1,
                b->rt->target, s->rt->target);
        op->dev = uf_array_retain(o);
        op->ptr = (uf__cu_dptr)(uintptr_t)uf_array_data(o);
        return 0;
    }
    if (!uf_can_cast(dt, uf_array_dtype(o), UF_CASTING_SAME_KIND))
        return uf__error_set(
            err, UF_ERR_CAST,
            "Cannot cast ufunc output from dtype('%s') to "
            "dtype('%s') with casting rule 'same_kind'",
            uf_dtype_name(dt), uf_dtype_name(uf_array_dtype(o)));
    op->host_out = uf_array_retain(o);
    s->host_side = true;
    return 0;
}

int uf__cuda_alloc_output(uf__cuda_site *s, uf__cuda_operand *op,
                          uf_dtype dt, int ndim, const int64_t *shape,
                          uf_error *err)
{
    op->dev = uf_device_array(dt, ndim, shape, UF_ORDER_C, s->rt->target,
                              err);
    if (op->dev == NULL)
        return err->code;
    op->ptr = (uf__cu_dptr)(uintptr_t)uf_array_data(op->dev);
    return 0;
}

void uf__cuda_collapse(int *ndim, int64_t *shape, int nops,
                       int64_t (*strides)[UF_MAXDIMS],
                       const uf__cuda_operand *ops)
{
    int nd = 0;
    for (int k = 0; k < *ndim; k++) {
        if (shape[k] == 1)
            continue;
        bool merge = nd > 0;
        for (int i = 0; i < nops && merge; i++)
            merge = ops[i].scalar ||
                    strides[i][nd - 1] == strides[i][k] * shape[k];
        if (merge) {
            shape[nd - 1] *= shape[k];
            for (int i = 0; i < nops; i++)
                strides[i][nd - 1] = strides[i][k];
            continue;
        }
        shape[nd] = shape[k];
        for (int i = 0; i < nops; i++)
            strides[i][nd] = strides[i][k];
        nd++;
    }
    *ndim = nd;
}

int64_t uf__cuda_reach(int ndim, const int64_t *shape,
                       const int64_t *strides, int64_t itemsize)
{
    int64_t r = itemsize;
    for (int k = 0; k < ndim; k++)
        r += (strides[k] < 0 ? -strides[k] : strides[k]) * (shape[k] - 1);
    return r;
}

void uf__cuda_put(uf__cuda_params *pp, const void *v, size_t size)
{
    void *slot = &pp->words[pp->nw];
    memcpy(slot, v, size);
    pp->nw += (int)((size + 7) / 8);
    pp->p[pp->n++] = slot;
}

void uf__cuda_put_index(uf__cuda_params *pp, const uf__nvvm_variant *v,
                        int64_t x)
{
    if (v->index32) {
        int32_t y = (int32_t)x;
        uf__cuda_put(pp, &y, 4);
    } else {
        uf__cuda_put(pp, &x, 8);
    }
}

void uf__cuda_put_operand(uf__cuda_params *pp, const uf__cuda_operand *op,
                          uf_dtype dt)
{
    if (op->scalar)
        uf__cuda_put(pp, op->value, uf_dtype_itemsize(dt));
    else
        uf__cuda_put(pp, &op->ptr, sizeof op->ptr);
}

/* The status word's fields every report uses: zeroed before a launch
 * and read after it; the shapes behind them only when the code says the
 * winning thread wrote them (nvvm_shape_error.c), so a launch moves 40
 * bytes, not 592. */
#define STATUS_HEAD offsetof(uf__nvvm_status, shape_kind)

/* Whether the shapes a status word carries (nvvm_shape_error.c) are
 * whole: read from device memory, so checked before they are printed. */
static bool status_shapes_fit(const uf__nvvm_status *st)
{
    if (st->nshapes <= 0 || st->nshapes > UF__NVVM_STATUS_SHAPES)
        return false;
    int total = 0;
    for (int s = 0; s < st->nshapes; s++) {
        if (st->shape_ndim[s] < 0 || st->shape_ndim[s] > UF__NVVM_STATUS_DIMS)
            return false;
        total += st->shape_ndim[s];
    }
    return total <= UF__NVVM_STATUS_DIMS;
}

/* The kernel's status word after a launch: the CPU target's error,
 * worded as its loop words it ("ufunc 'pick': IndexError: ..."). */
static int check_status(const uf__cuda_site *s, const uf__cuda_kernel *k,
                        uf__cu_dptr status, uf_error *err)
{
    uf__nvvm_status st;
    const uf__cu_driver *d = s->rt->drv;
    if (uf__cuda_check(s->rt, d->memcpy_dtoh(&st, status, STATUS_HEAD),
                       "cuMemcpyDtoH", err) != 0)
        return err->code;
    if (st.code == 0)
        return 0;
    if ((st.code == UF__JIT_BCAST_SHAPES || st.code == UF__JIT_SLICE_SHAPE) &&
        uf__cuda_check(s->rt,
                       d->memcpy_dtoh((char *)&st + STATUS_HEAD,
                                      status + STATUS_HEAD,
                                      sizeof st - STATUS_HEAD),
                       "cuMemcpyDtoH", err) != 0)
        return err->code;
    if (st.code == UF__JIT_INDEX && st.site >= 0 && st.site < k->sites.n)
        uf__rt_index_error(k->sites.v[st.site].kernel,
                           k->sites.v[st.site].file, st.line, st.index,
                           st.axis, st.size, (int32_t)st.is_unsigned);
    if ((st.code == UF__JIT_BCAST_SHAPES || st.code == UF__JIT_SLICE_SHAPE) &&
        status_shapes_fit(&st))
        uf__rt_broadcast_error(st.shape_kind, st.nshapes, st.shape_ndim,
                               st.shape_dims);
    uf_error why;
    int code = uf__jit_status_error((int)st.code, &why);
    return uf__error_set(err, code, "%s '%s': %s", s->kind, s->name,
                         why.message);
}

int uf__cuda_launch(const uf__cuda_site *s, const uf__cuda_kernel *k,
                    int64_t n, int64_t threads, uf__cuda_params *pp,
                    uf_error *err)
{
    int64_t grid = (n + k->block - 1) / k->block;
    if (grid > k->grid_cap)
        grid = k->grid_cap;
    /* 32-bit indices were chosen for `threads` threads: a kernel whose
     * occupancy allows more must not launch them (i + the grid's stride
     * would wrap) */
    if (k->v.index32 && grid * k->block > threads)
        grid = threads / k->block > 0 ? threads / k->block : 1;
    const unsigned g[3] = {(unsigned)grid, 1, 1};
    const unsigned b[3] = {(unsigned)k->block, 1, 1};
    return uf__cuda_launch_dims(s, k, g, b, 0, pp, err);
}

/* The launch itself, its status word (when the kernel has one) given. */
static int launch_with(const uf__cuda_site *s, const uf__cuda_kernel *k,
                       const unsigned grid[3], const unsigned block[3],
                       unsigned shared_bytes, uf__cuda_params *pp,
                       uf__cu_dptr status, uf_error *err)
{
    if (k->k.has_status)
        uf__cuda_put(pp, &status, sizeof status);
    if (pp->n != k->k.nparams)
        return uf__error_set(err, UF_ERR_INTERNAL,
                             "CUDA kernel '%s' takes %d parameters, the "
                             "launcher packed %d", k->k.name, k->k.nparams,
                             pp->n);
    const uf__cu_driver *d = s->rt->drv;
    uf__cu_stream st = uf__cuda_stream(s->stream);
    if (k->k.has_status &&
        uf__cuda_check(s->rt,
                       d->memset_d8_async(status, 0, STATUS_HEAD, st),
                       "cuMemsetD8Async", err) != 0)
        return err->code;
    if (uf__cuda_check(s->rt,
                       d->launch_kernel(k->fn, grid[0], grid[1], grid[2],
                                        block[0], block[1], block[2],
                                        shared_bytes, st, pp->p, NULL),
                       "cuLaunchKernel", err) != 0)
        return err->code;
    if (!k->k.has_status)
        return 0;
    if (uf__cuda_check(s->rt,
                       st ? d->stream_synchronize(st) : d->ctx_synchronize(),
                       "cuStreamSynchronize", err) != 0)
        return err->code;
    return check_status(s, k, status, err);
}

/* A fallible kernel's status word is its stream's (cuda_scratch.h: made
 * once through the memory manager, so a plug-in serves it too; two
 * streams running one kernel do not share it), locked for the launch,
 * which waits for the kernel and reads it. */
int uf__cuda_launch_dims(const uf__cuda_site *s, const uf__cuda_kernel *k,
                         const unsigned grid[3], const unsigned block[3],
                         unsigned shared_bytes, uf__cuda_params *pp,
                         uf_error *err)
{
    if (!k->k.has_status)
        return launch_with(s, k, grid, block, shared_bytes, pp, 0, err);
    uf__cuda_scratch *sc;
    uf__cu_dptr status;
    if (uf__cuda_status_begin(s->rt, s->stream, sizeof(uf__nvvm_status), &sc,
                              &status, err) != 0)
        return err->code;
    int rc = launch_with(s, k, grid, block, shared_bytes, pp, status, err);
    uf__cuda_status_end(sc);
    return rc;
}

int uf__cuda_call_wait(const uf__cuda_site *s, uf_error *err)
{
    if (s->host_side && s->stream)
        return uf_stream_synchronize(s->stream, err);
    return 0;
}

int uf__cuda_finish_output(const uf__cuda_site *s, uf__cuda_operand *op,
                           uf_array **result, uf_error *err)
{
    if (op->host_out) {
        /* the stream was waited for (uf__cuda_call_wait) */
        uf_array *h = uf_copy_to_host(op->dev, NULL, NULL, err);
        if (h == NULL)
            return err->code;
        int rc = uf_array_copyto(op->host_out, h, UF_CASTING_SAME_KIND, err);
        uf_array_release(h);
        return rc;
    }
    if (result == NULL || *result != NULL)
        return 0;
    if (!s->any_device) {
        *result = uf_copy_to_host(op->dev, NULL, NULL, err);
        return *result ? 0 : err->code;
    }
    *result = uf_array_retain(op->dev);
    return 0;
}

void uf__cuda_operand_release(uf__cuda_operand *op)
{
    uf_array_release(op->dev);
    uf_array_release(op->host_out);
    op->dev = op->host_out = NULL;
}
