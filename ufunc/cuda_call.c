/* vectorize calls on the CUDA targets (cuda_call.h): numba-cuda's rules
 * for where results live (on the device when any input is a device array,
 * else copied back), plus broadcasting with stride 0, any view in one
 * launch, scalars by value, and out= on either side.
 *
 * A call: resolve the signature; stage the operands (host inputs cast and
 * copied in, 0-d host inputs passed by value, mapped host arrays used in
 * place); pick the kernel variant from the collapsed iteration space;
 * launch over a grid-stride loop; copy host results back and turn a
 * kernel's status word into the CPU target's error. */
#include <stdio.h>
#include <string.h>

#include "common/alloc.h"
#include "common/error_internal.h"
#include "compiler/context.h"
#include "ndarray/array_internal.h"
#include "targets/cuda/cuda_memory.h"
#include "ufunc/call_check.h"
#include "ufunc/cuda_call.h"
#include "ufunc/cuda_kernels.h"
#include "ufunc/options.h"

#define SHAPE_STR (UF_MAXDIMS * 22 + 4)

/* One operand as the kernel sees it. */
typedef struct operand {
    uf_array *dev;   /* the device array the kernel reads or writes (ref) */
    uf__cu_dptr ptr; /* its element 0 on the device */
    bool scalar;     /* an input passed by value */
    unsigned char value[16];
    int ndim;
    int64_t strides[UF_MAXDIMS]; /* broadcast to the call's shape */
    uf_array *host_out; /* an output to copy back into (ref), or NULL */
} operand;

typedef struct call {
    const uf__cuda_rt *rt;
    uf_stream *stream;
    int nin, nout, nop;
    uf_dtype types[UF__LOOP_MAXARGS];
    int ndim;
    int64_t shape[UF_MAXDIMS];
    operand ops[UF__LOOP_MAXARGS];
    bool host_side; /* a host operand: synchronise before returning */
    bool any_device; /* a device operand: new results stay there */
} call;

static bool on_device(const uf_array *a)
{
    return uf_array_device(a).type == UF_DEVICE_CUDA;
}

/* The strides of an array of shape (nd, shape) as seen over the call's
 * broadcast shape: missing and length-1 axes get 0. */
static void broadcast_strides(const call *c, const uf_array *a,
                              int64_t *out)
{
    int nd = uf_array_ndim(a), off = c->ndim - nd;
    for (int k = 0; k < c->ndim; k++) {
        int j = k - off;
        out[k] = j < 0 || (uf_array_shape(a)[j] == 1 && c->shape[k] != 1)
                     ? 0
                     : uf_array_strides(a)[j];
    }
}

/* Host array `a` (dtype possibly not the kernel's) on the device as
 * dtype dt: a mapped array in place, else a (cast) copy. */
static int stage_host_input(call *c, operand *op, const uf_array *a,
                            uf_dtype dt, uf_error *err)
{
    uf__cuda_buffer *b = uf__cuda_buffer_of(a);
    if (b && b->kind == UF__CUDA_MEM_MAPPED && b->rt == c->rt &&
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
    op->dev = uf_to_device(src, c->rt->target, cast ? NULL : c->stream, err);
    uf_array_release(cast);
    if (op->dev == NULL)
        return err->code;
    op->ptr = (uf__cu_dptr)(uintptr_t)uf_array_data(op->dev);
    return 0;
}

static int stage_inputs(call *c, uf_array *const *inputs, uf_error *err)
{
    for (int k = 0; k < c->nin; k++) {
        const uf_array *a = inputs[k];
        operand *op = &c->ops[k];
        uf_dtype dt = c->types[k];
        if (on_device(a)) {
            if (uf_array_dtype(a) != dt)
                return uf__error_set(
                    err, UF_ERR_CAST,
                    "input %d is a device array of dtype %s, but the "
                    "kernel's signature takes %s: device inputs are not "
                    "cast (cast it on the device first)",
                    k + 1, uf_dtype_name(uf_array_dtype(a)),
                    uf_dtype_name(dt));
            uf__cuda_buffer *b = uf__cuda_buffer_of(a);
            if (b && b->rt != c->rt)
                return uf__error_set(
                    err, UF_ERR_INVALID,
                    "input %d is device memory of target '%s', not '%s'",
                    k + 1, b->rt->target, c->rt->target);
            op->dev = uf_array_retain((uf_array *)a);
            op->ptr = (uf__cu_dptr)(uintptr_t)uf_array_data(a);
        } else if (uf_array_ndim(a) == 0 && k < 32) {
            /* a scalar: by value, cast to the kernel's type (the
             * variant's scalar_in mask has 32 bits: later ones are
             * staged as 0-d device arrays) */
            uf_array *v = uf_array_astype(a, dt, UF_CASTING_UNSAFE,
                                          UF_ORDER_C, err);
            if (v == NULL)
                return err->code;
            memcpy(op->value, uf_array_data(v), uf_dtype_itemsize(dt));
            uf_array_release(v);
            op->scalar = true;
            continue;
        } else {
            c->host_side = true;
            if (stage_host_input(c, op, a, dt, err) != 0)
                return err->code;
        }
        broadcast_strides(c, op->dev, op->strides);
    }
    return 0;
}

static int stage_outputs(call *c, uf_array **outputs, int n_out,
                         uf_error *err)
{
    char s1[SHAPE_STR], s2[SHAPE_STR];
    for (int k = 0; k < c->nout; k++) {
        operand *op = &c->ops[c->nin + k];
        uf_dtype dt = c->types[c->nin + k];
        uf_array *o = k < n_out ? outputs[k] : NULL;
        if (o != NULL) {
            if (uf_array_ndim(o) != c->ndim ||
                memcmp(uf_array_shape(o), c->shape,
                       (size_t)c->ndim * sizeof(int64_t)) != 0)
                return uf__error_set(
                    err, UF_ERR_SHAPE,
                    "non-broadcastable output operand with shape %s "
                    "doesn't match the broadcast shape %s",
                    uf__compact_shape(uf_array_ndim(o), uf_array_shape(o),
                                      s1, sizeof s1),
                    uf__compact_shape(c->ndim, c->shape, s2, sizeof s2));
            if (!(uf_array_flags(o) & UF_ARRAY_WRITEABLE))
                return uf__error_set(err, UF_ERR_READONLY,
                                     "output %d is read-only", k + 1);
            if (on_device(o)) {
                if (uf_array_dtype(o) != dt)
                    return uf__error_set(
                        err, UF_ERR_CAST,
                        "output %d is a device array of dtype %s, but the "
                        "kernel's signature gives %s", k + 1,
                        uf_dtype_name(uf_array_dtype(o)), uf_dtype_name(dt));
                op->dev = uf_array_retain(o);
            } else {
                if (!uf_can_cast(dt, uf_array_dtype(o),
                                 UF_CASTING_SAME_KIND))
                    return uf__error_set(
                        err, UF_ERR_CAST,
                        "Cannot cast ufunc output from dtype('%s') to "
                        "dtype('%s') with casting rule 'same_kind'",
                        uf_dtype_name(dt), uf_dtype_name(uf_array_dtype(o)));
                op->host_out = uf_array_retain(o);
                c->host_side = true;
            }
        } else if (!c->any_device) {
            c->host_side = true;
        }
        if (op->dev == NULL) {
            op->dev = uf_device_array(dt, c->ndim, c->shape, UF_ORDER_C,
                                      c->rt->target, err);
            if (op->dev == NULL)
                return err->code;
        }
        op->ptr = (uf__cu_dptr)(uintptr_t)uf_array_data(op->dev);
        broadcast_strides(c, op->dev, op->strides);
    }
    return 0;
}

/* Merges adjacent axes every array operand walks as one (stride[i] ==
 * stride[i+1] * shape[i+1]) and drops length-1 axes: the fewer axes, the
 * simpler the kernel variant. */
static void collapse(call *c)
{
    int nd = 0;
    for (int k = 0; k < c->ndim; k++) {
        if (c->shape[k] == 1)
            continue;
        bool merge = nd > 0;
        for (int i = 0; i < c->nop && merge; i++)
            merge = c->ops[i].scalar ||
                    c->ops[i].strides[nd - 1] ==
                        c->ops[i].strides[k] * c->shape[k];
        if (merge) {
            c->shape[nd - 1] *= c->shape[k];
            for (int i = 0; i < c->nop; i++)
                c->ops[i].strides[nd - 1] = c->ops[i].strides[k];
            continue;
        }
        c->shape[nd] = c->shape[k];
        for (int i = 0; i < c->nop; i++)
            c->ops[i].strides[nd] = c->ops[i].strides[k];
        nd++;
    }
    c->ndim = nd;
}

static int64_t call_size(const call *c)
{
    int64_t n = 1;
    for (int k = 0; k < c->ndim; k++)
        n *= c->shape[k];
    return n;
}

/* The variant for the collapsed space, 32-bit when every index and byte
 * offset of a launch of `threads` threads fits. */
static int pick_variant(const call *c, int64_t n, int64_t threads,
                        uf__nvvm_variant *v, uf_error *err)
{
    memset(v, 0, sizeof *v);
    bool contig = c->ndim <= 1;
    int64_t reach = 0;
    for (int i = 0; i < c->nop; i++) {
        const operand *op = &c->ops[i];
        if (op->scalar) {
            v->scalar_in |= 1u << i;
            continue;
        }
        int64_t isz = (int64_t)uf_dtype_itemsize(c->types[i]), r = isz;
        for (int k = 0; k < c->ndim; k++)
            r += (op->strides[k] < 0 ? -op->strides[k] : op->strides[k]) *
                 (c->shape[k] - 1);
        reach = r > reach ? r : reach;
        if (c->ndim == 1 && op->strides[0] != isz)
            contig = false;
    }
    if (c->ndim > UF__NVVM_MAXDIM)
        return uf__error_set(err, UF_ERR_UNSUPPORTED,
                             "a CUDA call over %d axes that cannot be "
                             "merged: at most %d are supported", c->ndim,
                             UF__NVVM_MAXDIM);
    v->layout = contig ? UF__NVVM_CONTIG
                : c->ndim == 1 ? UF__NVVM_STRIDED
                               : UF__NVVM_ND;
    v->ndim = v->layout == UF__NVVM_ND ? c->ndim : 0;
    v->index32 = n + threads <= INT32_MAX && reach <= INT32_MAX;
    return 0;
}

/* The launch's parameter values, in the order of nvvm.h's ABI, and
 * pointers to them as cuLaunchKernel takes them. */
typedef struct params {
    int64_t words[2 + UF__NVVM_MAXDIM +
                  UF__LOOP_MAXARGS * (2 + UF__NVVM_MAXDIM)];
    void *p[2 + UF__NVVM_MAXDIM + UF__LOOP_MAXARGS * (1 + UF__NVVM_MAXDIM)];
    int n, nw;
} params;

/* Adds one parameter of `size` bytes (the kernel's param_sizes say). */
static void put(params *pp, const void *v, size_t size)
{
    void *slot = &pp->words[pp->nw];
    memcpy(slot, v, size);
    pp->nw += (int)((size + 7) / 8);
    pp->p[pp->n++] = slot;
}

static void put_index(params *pp, const uf__nvvm_variant *v, int64_t x)
{
    if (v->index32) {
        int32_t y = (int32_t)x;
        put(pp, &y, 4);
    } else {
        put(pp, &x, 8);
    }
}

static int pack(const call *c, const uf__cuda_kernel *k, int64_t n,
                params *pp, uf_error *err)
{
    const uf__nvvm_variant *v = &k->v;
    pp->n = pp->nw = 0;
    put_index(pp, v, n);
    if (v->layout == UF__NVVM_ND)
        for (int d = 0; d < c->ndim; d++)
            put_index(pp, v, c->shape[d]);
    for (int i = 0; i < c->nop; i++) {
        const operand *op = &c->ops[i];
        if (op->scalar) {
            put(pp, op->value, uf_dtype_itemsize(c->types[i]));
            continue;
        }
        put(pp, &op->ptr, sizeof op->ptr);
        if (v->layout == UF__NVVM_STRIDED)
            put_index(pp, v, op->strides[0]);
        else if (v->layout == UF__NVVM_ND)
            for (int d = 0; d < c->ndim; d++)
                put_index(pp, v, op->strides[d]);
    }
    if (k->k.has_status)
        put(pp, &k->status, sizeof k->status);
    if (pp->n != k->k.nparams)
        return uf__error_set(err, UF_ERR_INTERNAL,
                             "CUDA kernel '%s' takes %d parameters, the "
                             "launcher packed %d", k->k.name, k->k.nparams,
                             pp->n);
    return 0;
}

/* The kernel's status word after a launch: the CPU target's error,
 * worded as its ufunc loop words it ("ufunc 'pick': IndexError: ..."). */
static int check_status(const call *c, const char *name,
                        const uf__cuda_kernel *k, uf_error *err)
{
    uf__nvvm_status st;
    const uf__cu_driver *d = c->rt->drv;
    if (uf__cuda_check(c->rt, d->memcpy_dtoh(&st, k->status, sizeof st),
                       "cuMemcpyDtoH", err) != 0)
        return err->code;
    if (st.code == 0)
        return 0;
    if (st.code == UF__JIT_INDEX && st.site >= 0 && st.site < k->sites.n)
        uf__rt_index_error(k->sites.v[st.site].kernel,
                           k->sites.v[st.site].file, st.line, st.index,
                           st.axis, st.size, (int32_t)st.is_unsigned);
    uf_error why;
    int code = uf__jit_status_error((int)st.code, &why);
    return uf__error_set(err, code, "ufunc '%s': %s", name, why.message);
}

static int launch(uf_func *f, call *c, uf_error *err)
{
    int64_t n = call_size(c);
    if (n == 0)
        return 0;
    /* the occupancy's block size is the kernel's: compile with a guess of
     * the thread count first, then size the grid from the kernel */
    uf__nvvm_variant v;
    int64_t guess = (int64_t)c->rt->sm_count * 2048;
    if (pick_variant(c, n, guess, &v, err) != 0)
        return err->code;
    uf_context *ctx = f->module->ctx;
    pthread_mutex_lock(&ctx->lock);
    const uf__cuda_kernel *k = uf__cuda_kernel_get(f, c->rt, c->types,
                                                   c->nout, &v, err);
    pthread_mutex_unlock(&ctx->lock);
    if (k == NULL)
        return err->code;
    int64_t grid = (n + k->block - 1) / k->block;
    if (grid > k->grid_cap)
        grid = k->grid_cap;
    /* 32-bit indices were chosen for `guess` threads: a kernel whose
     * occupancy allows more must not launch them (i + the grid's stride
     * would wrap) */
    if (v.index32 && grid * k->block > guess)
        grid = guess / k->block > 0 ? guess / k->block : 1;
    const uf__cu_driver *d = c->rt->drv;
    uf__cu_stream s = uf__cuda_stream(c->stream);
    if (k->k.has_status &&
        uf__cuda_check(c->rt,
                       d->memset_d8_async(k->status, 0,
                                          sizeof(uf__nvvm_status), s),
                       "cuMemsetD8Async", err) != 0)
        return err->code;
    params pp;
    if (pack(c, k, n, &pp, err) != 0)
        return err->code;
    if (uf__cuda_check(c->rt,
                       d->launch_kernel(k->fn, (unsigned)grid, 1, 1,
                                        (unsigned)k->block, 1, 1, 0, s, pp.p,
                                        NULL),
                       "cuLaunchKernel", err) != 0)
        return err->code;
    if (!k->k.has_status)
        return 0;
    if (uf__cuda_check(c->rt,
                       s ? d->stream_synchronize(s) : d->ctx_synchronize(),
                       "cuStreamSynchronize", err) != 0)
        return err->code;
    return check_status(c, f->decl->name, k, err);
}

/* Results: host outputs copied back (cast as out= asks), new results
 * handed to the caller: on the device when an operand is there, else
 * copied to the host. */
static int finish(call *c, uf_array **outputs, int n_out, uf_error *err)
{
    /* the launch is queued on c->stream: wait for it before reading its
     * results on the host (an asynchronous copy-back on the stream would
     * still be in flight when out= is filled from it) */
    if (c->host_side && c->stream &&
        uf_stream_synchronize(c->stream, err) != 0)
        return err->code;
    for (int k = 0; k < c->nout && k < n_out; k++) {
        operand *op = &c->ops[c->nin + k];
        if (op->host_out) {
            uf_array *h = uf_copy_to_host(op->dev, NULL, NULL, err);
            if (h == NULL)
                return err->code;
            int rc = uf_array_copyto(op->host_out, h, UF_CASTING_SAME_KIND,
                                     err);
            uf_array_release(h);
            if (rc != 0)
                return rc;
        } else if (outputs[k] == NULL) {
            if (!c->any_device) {
                outputs[k] = uf_copy_to_host(op->dev, NULL, NULL, err);
                if (outputs[k] == NULL)
                    return err->code;
            } else {
                outputs[k] = uf_array_retain(op->dev);
            }
        }
    }
    return 0;
}

static void release_call(call *c)
{
    for (int i = 0; i < c->nop; i++) {
        uf_array_release(c->ops[i].dev);
        uf_array_release(c->ops[i].host_out);
    }
}

/* NumPy's rule, worded as the CPU target words it: the call's shape is
 * the broadcast of the inputs and the given outputs; an output is never
 * broadcast itself (stage_outputs checks it has the call's shape). */
static int broadcast(call *c, uf_array *const *inputs, uf_array **outputs,
                     int n_out, uf_error *err)
{
    int ndims[UF__LOOP_MAXARGS], n = 0;
    const int64_t *shapes[UF__LOOP_MAXARGS];
    for (int k = 0; k < c->nin + n_out; k++) {
        const uf_array *a = k < c->nin ? inputs[k] : outputs[k - c->nin];
        if (a == NULL)
            continue;
        ndims[n] = uf_array_ndim(a);
        shapes[n++] = uf_array_shape(a);
    }
    if (uf_broadcast_shapes(n, ndims, shapes, &c->ndim, c->shape, NULL) == 0)
        return 0;
    char msg[sizeof err->message], s[SHAPE_STR];
    size_t len = 0;
    msg[0] = '\0';
    for (int i = 0; i < n && len < sizeof msg; i++)
        len += (size_t)snprintf(msg + len, sizeof msg - len, "%s%s",
                                i ? " " : "",
                                uf__compact_shape(ndims[i], shapes[i], s,
                                                  sizeof s));
    return uf__error_set(err, UF_ERR_SHAPE,
                         "operands could not be broadcast together with "
                         "shapes %s", msg);
}

int uf__cuda_vectorize_call(uf_func *f, const char *target,
                            uf_array *const *inputs, int n_in,
                            uf_array **outputs, int n_out,
                            const uf_call_options *opts, uf_error *err)
{
    if (n_in != f->nin || n_in > UF__LOOP_MAXARGS - 1)
        return uf__error_set(err, UF_ERR_INVALID,
                             "'%s' takes %d input(s), %d given",
                             f->decl->name, f->nin, n_in);
    for (int k = 0; k < n_in; k++)
        if (inputs[k] == NULL)
            return uf__error_set(err, UF_ERR_INVALID,
                                 "'%s': input %d is NULL", f->decl->name,
                                 k + 1);
    if (UF__OPT(opts, where, NULL) != NULL)
        return uf__error_set(err, UF_ERR_UNSUPPORTED,
                             "'%s': where= is not supported on the CUDA "
                             "targets yet", f->decl->name);
    call c;
    memset(&c, 0, sizeof c);
    c.rt = uf__cuda_rt_get(target, err);
    if (c.rt == NULL)
        return err->code;
    c.stream = UF__OPT(opts, stream, NULL);
    if (c.stream != NULL && c.stream->rt != c.rt)
        return uf__error_set(err, UF_ERR_INVALID,
                             "'%s': the stream belongs to target '%s', the "
                             "call runs on '%s'", f->decl->name,
                             c.stream->rt->target, c.rt->target);
    uf_dtype in[UF__LOOP_MAXARGS];
    uint64_t dev_in = 0;
    for (int k = 0; k < n_in; k++) {
        in[k] = uf_array_dtype(inputs[k]);
        dev_in |= on_device(inputs[k]) ? (uint64_t)1 << k : 0;
    }
    c.any_device = dev_in != 0;
    for (int k = 0; k < n_out; k++)
        c.any_device |= outputs[k] != NULL && on_device(outputs[k]);
    c.nin = n_in;
    uf_context *ctx = f->module->ctx;
    pthread_mutex_lock(&ctx->lock);
    int rc = uf__cuda_resolve(f, in, dev_in, c.types, &c.nout, err);
    pthread_mutex_unlock(&ctx->lock);
    if (rc != 0)
        return rc;
    if (n_out > c.nout)
        return uf__error_set(err, UF_ERR_INVALID,
                             "'%s' has %d output(s), %d given",
                             f->decl->name, c.nout, n_out);
    c.nop = c.nin + c.nout;
    if ((rc = broadcast(&c, inputs, outputs, n_out, err)) == 0 &&
        (rc = stage_inputs(&c, inputs, err)) == 0 &&
        (rc = stage_outputs(&c, outputs, n_out, err)) == 0) {
        collapse(&c);
        rc = launch(f, &c, err);
    }
    if (rc == 0)
        rc = finish(&c, outputs, n_out, err);
    release_call(&c);
    return rc;
}
