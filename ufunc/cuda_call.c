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
#include "ufunc/call_check.h"
#include "ufunc/cuda_call.h"
#include "ufunc/cuda_kernels.h"
#include "ufunc/cuda_stage.h"
#include "ufunc/options.h"

#define SHAPE_STR (UF_MAXDIMS * 22 + 4)

typedef struct call {
    uf__cuda_site site;
    int nin, nout, nop;
    uf_dtype types[UF__LOOP_MAXARGS];
    int ndim;
    int64_t shape[UF_MAXDIMS];
    uf__cuda_operand ops[UF__LOOP_MAXARGS];
    /* each operand's strides, broadcast to the call's shape */
    int64_t strides[UF__LOOP_MAXARGS][UF_MAXDIMS];
} call;

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

static int stage_inputs(call *c, uf_array *const *inputs, uf_error *err)
{
    for (int k = 0; k < c->nin; k++) {
        uf__cuda_operand *op = &c->ops[k];
        /* a 0-d host input by value, cast to the kernel's type: the
         * variant's scalar_in mask has 32 bits, later ones are staged as
         * 0-d device arrays */
        if (uf__cuda_stage_input(&c->site, k, inputs[k], c->types[k], k < 32,
                                 op, err) != 0)
            return err->code;
        if (!op->scalar)
            broadcast_strides(c, op->dev, c->strides[k]);
    }
    return 0;
}

static int stage_outputs(call *c, uf_array **outputs, int n_out,
                         uf_error *err)
{
    char s1[SHAPE_STR], s2[SHAPE_STR];
    for (int k = 0; k < c->nout; k++) {
        uf__cuda_operand *op = &c->ops[c->nin + k];
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
            if (uf__cuda_stage_output(&c->site, k, o, dt, op, err) != 0)
                return err->code;
        } else if (!c->site.any_device) {
            c->site.host_side = true;
        }
        if (op->dev == NULL &&
            uf__cuda_alloc_output(&c->site, op, dt, c->ndim, c->shape,
                                  err) != 0)
            return err->code;
        broadcast_strides(c, op->dev, c->strides[c->nin + k]);
    }
    return 0;
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
        if (c->ops[i].scalar) {
            v->scalar_in |= 1u << i;
            continue;
        }
        int64_t isz = (int64_t)uf_dtype_itemsize(c->types[i]);
        int64_t r = uf__cuda_reach(c->ndim, c->shape, c->strides[i], isz);
        reach = r > reach ? r : reach;
        if (c->ndim == 1 && c->strides[i][0] != isz)
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

static void pack(const call *c, const uf__cuda_kernel *k, int64_t n,
                 uf__cuda_params *pp)
{
    const uf__nvvm_variant *v = &k->v;
    pp->n = pp->nw = 0;
    uf__cuda_put_index(pp, v, n);
    if (v->layout == UF__NVVM_ND)
        for (int d = 0; d < c->ndim; d++)
            uf__cuda_put_index(pp, v, c->shape[d]);
    for (int i = 0; i < c->nop; i++) {
        uf__cuda_put_operand(pp, &c->ops[i], c->types[i]);
        if (c->ops[i].scalar)
            continue;
        if (v->layout == UF__NVVM_STRIDED)
            uf__cuda_put_index(pp, v, c->strides[i][0]);
        else if (v->layout == UF__NVVM_ND)
            for (int d = 0; d < c->ndim; d++)
                uf__cuda_put_index(pp, v, c->strides[i][d]);
    }
}

static int launch(uf_func *f, call *c, uf_error *err)
{
    int64_t n = call_size(c);
    if (n == 0)
        return 0;
    /* the occupancy's block size is the kernel's: compile with a guess of
     * the thread count first, then size the grid from the kernel */
    uf__nvvm_variant v;
    int64_t guess = (int64_t)c->site.rt->sm_count * 2048;
    if (pick_variant(c, n, guess, &v, err) != 0)
        return err->code;
    uf_context *ctx = f->module->ctx;
    pthread_mutex_lock(&ctx->lock);
    const uf__cuda_kernel *k = uf__cuda_kernel_get(f, c->site.rt, c->types,
                                                   c->nout, &v, err);
    pthread_mutex_unlock(&ctx->lock);
    if (k == NULL)
        return err->code;
    uf__cuda_params pp;
    pack(c, k, n, &pp);
    return uf__cuda_launch(&c->site, k, n, guess, &pp, err);
}

/* Results: host outputs copied back (cast as out= asks), new results
 * handed to the caller: on the device when an operand is there, else
 * copied to the host. The caller's outputs[] change only when every
 * output succeeded: a failure releases the new results made before it. */
static int finish(call *c, uf_array **outputs, int n_out, uf_error *err)
{
    if (uf__cuda_call_wait(&c->site, err) != 0)
        return err->code;
    uf_array *made[UF__LOOP_MAXARGS] = {NULL};
    int n = c->nout < n_out ? c->nout : n_out, rc = 0;
    for (int k = 0; k < n && rc == 0; k++)
        rc = uf__cuda_finish_output(&c->site, &c->ops[c->nin + k],
                                    outputs[k] ? NULL : &made[k], err);
    for (int k = 0; k < n; k++) {
        if (rc == 0 && made[k])
            outputs[k] = made[k];
        else
            uf_array_release(made[k]);
    }
    return rc;
}

static void release_call(call *c)
{
    for (int i = 0; i < c->nop; i++)
        uf__cuda_operand_release(&c->ops[i]);
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
    if (uf__cuda_call_begin(&c.site, target, "ufunc", f->decl->name, opts,
                            err) != 0)
        return err->code;
    uf_dtype in[UF__LOOP_MAXARGS];
    uint64_t dev_in = 0;
    for (int k = 0; k < n_in; k++) {
        in[k] = uf_array_dtype(inputs[k]);
        dev_in |= uf__cuda_on_device(inputs[k]) ? (uint64_t)1 << k : 0;
    }
    c.site.any_device = uf__cuda_any_device(inputs, n_in, outputs, n_out);
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
        uf__cuda_collapse(&c.ndim, c.shape, c.nop, c.strides, c.ops);
        rc = launch(f, &c, err);
    }
    if (rc == 0)
        rc = finish(&c, outputs, n_out, err);
    release_call(&c);
    return rc;
}
