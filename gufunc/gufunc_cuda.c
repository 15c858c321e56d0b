/* guvectorize calls on the CUDA targets (gufunc_cuda.h).
 *
 * A call: resolve the signature; resolve core and loop dimensions with
 * the host's code (uf__gufunc_resolve: the same messages as on the CPU);
 * stage the operands (device arrays as they are, host inputs cast and
 * copied in, "()" host scalars by value, outputs allocated on the device
 * in C order of their shape); read each operand's loop and core strides
 * from its array; collapse the loop space and pick the variant (1-D or
 * N-d, 32-bit indices, 'C' core views); launch one thread per loop
 * element; copy host results back.
 *
 * Unlike the CPU path, an input that shares device memory with an output
 * is not copied first: as on numba-cuda, such a call races. */
#include <string.h>

#include "common/error_internal.h"
#include "compiler/context.h"
#include "gufunc/gufunc_cuda.h"
#include "gufunc/gufunc_internal.h"
#include "ndarray/array_internal.h"
#include "ufunc/call_check.h"
#include "ufunc/cuda_stage.h"
#include "ufunc/options.h"

#define MAXARGS UF__LOOP_MAXARGS

typedef struct gucall {
    uf_func *f;
    const uf__gufunc_layout *L;
    uf__cuda_site site;
    int nin, nout, nargs;
    uf__guvec_arg args[MAXARGS];
    uf__gufunc_axes axes;
    uf__gufunc_resolution res;
    bool resolved;
    uf__cuda_operand ops[MAXARGS];
    /* the loop space (collapsed before the launch), each operand's loop
     * strides over it and its core strides (layout order) */
    int ndim;
    int64_t shape[UF_MAXDIMS];
    int64_t strides[MAXARGS][UF_MAXDIMS];
    int64_t cstrides[UF__NVVM_MAXCORE];
} gucall;

static int check_call(gucall *c, uf_array *const *inputs, int n_in,
                      uf_array **outputs, int n_out,
                      const uf_call_options *opts, uf_error *err)
{
    const char *name = c->f->decl->name;
    int null_input = -1;
    for (int k = 0; k < n_in && null_input < 0; k++)
        if (inputs[k] == NULL)
            null_input = k;
    if (n_in != c->nin || n_out != c->nout || (n_out > 0 && !outputs) ||
        null_input >= 0)
        return uf__call_operands_error("gufunc", name, c->nin, c->nout,
                                       n_in, n_out, null_input, err);
    if (opts != NULL && opts->where != NULL)
        return uf__error_set(err, UF_ERR_INVALID,
                             "gufunc '%s' does not take where=: generalized "
                             "ufuncs have no mask argument", name);
    return uf__gufunc_read_axes(name, opts, &c->axes, err);
}

static int resolve(gucall *c, uf_array *const *inputs, uf_array **outputs,
                   uf_error *err)
{
    int types[MAXARGS];
    uf__gufunc_shape shapes[MAXARGS];
    uint64_t dev_in = 0;
    for (int k = 0; k < c->nin; k++)
        dev_in |= uf__cuda_on_device(inputs[k]) ? (uint64_t)1 << k : 0;
    for (int k = 0; k < c->nargs; k++) {
        const uf_array *a = k < c->nin ? inputs[k] : outputs[k - c->nin];
        types[k] = a ? (int)uf_array_dtype(a) : -1;
        shapes[k].ndim = a ? a->ndim : -1;
        shapes[k].shape = a ? a->shape : NULL;
    }
    uf_context *ctx = c->f->module->ctx;
    pthread_mutex_lock(&ctx->lock);
    int rc = uf__gufunc_cuda_resolve(c->f, types, dev_in, c->args, err);
    pthread_mutex_unlock(&ctx->lock);
    if (rc != 0)
        return rc;
    if (uf__gufunc_resolve(c->L, c->f->decl->name, shapes, &c->axes,
                           &c->res, err) < 0)
        return err->code;
    c->resolved = true;
    return 0;
}

static int stage(gucall *c, uf_array *const *inputs, uf_array **outputs,
                 uf_error *err)
{
    c->site.any_device =
        uf__cuda_any_device(inputs, c->nin, outputs, c->nout);
    /* "()" inputs by value: the variant's scalar_in mask has 32 bits,
     * later ones are read through a pointer as the kernel allows */
    for (int k = 0; k < c->nin; k++)
        if (uf__cuda_stage_input(&c->site, k, inputs[k], c->args[k].dtype,
                                 c->args[k].kind == UF__GUVEC_SCALAR &&
                                     k < 32,
                                 &c->ops[k], err) != 0)
            return err->code;
    for (int o = 0; o < c->nout; o++) {
        int k = c->nin + o;
        uf__cuda_operand *op = &c->ops[k];
        uf_dtype dt = c->args[k].dtype;
        uf_array *given = outputs[o];
        const uf__gufunc_operand *ro = &c->res.ops[k];
        if (given != NULL) {
            if (uf__cuda_stage_output(&c->site, o, given, dt, op, err) != 0)
                return err->code;
        } else if (!c->site.any_device) {
            c->site.host_side = true;
        }
        /* a host out= gets a device array of its own shape (ro->shape) */
        if (op->dev == NULL &&
            uf__cuda_alloc_output(&c->site, op, dt, ro->ndim, ro->shape,
                                  err) != 0)
            return err->code;
    }
    return 0;
}

/* Each operand's loop and core strides, from the array the kernel
 * reads (its shape is the caller's: the resolution maps its axes). */
static int strides_of(gucall *c, uf_error *err)
{
    c->ndim = c->res.loop_ndim;
    memcpy(c->shape, c->res.loop_shape, (size_t)c->ndim * sizeof *c->shape);
    int ncore = 0;
    for (int k = 0; k < c->nargs; k++)
        ncore += c->L->core_ndim[k];
    if (ncore > UF__NVVM_MAXCORE)
        return uf__error_set(err, UF_ERR_UNSUPPORTED,
                             "'%s': the CUDA target passes at most %d core "
                             "strides, layout '%s' has %d", c->f->decl->name,
                             UF__NVVM_MAXCORE, c->L->text, ncore);
    for (int k = 0; k < c->nargs; k++) {
        const uf__cuda_operand *op = &c->ops[k];
        for (int ax = 0; ax < c->ndim; ax++)
            c->strides[k][ax] =
                op->scalar ? 0
                           : uf__gufunc_loop_stride(&c->res, k, op->dev, ax);
        if (!op->scalar)
            uf__gufunc_core_strides(c->L, &c->res, k, op->dev,
                                    &c->cstrides[c->L->core_offset[k]]);
    }
    return 0;
}

/* Whether every ARRAY operand is C-contiguous over its core dimensions
 * (NumPy's relaxed rule: a length-1 dimension's step does not matter). */
static bool core_contiguous(const gucall *c)
{
    const uf__gufunc_layout *L = c->L;
    for (int k = 0; k < c->nargs; k++) {
        if (c->args[k].kind != UF__GUVEC_ARRAY)
            continue;
        int64_t expect = (int64_t)uf_dtype_itemsize(c->args[k].dtype);
        for (int j = L->core_ndim[k] - 1; j >= 0; j--) {
            int cx = L->core_offset[k] + j;
            int64_t d = c->res.dim_size[L->dim_ix[cx]];
            if (d != 1 && c->cstrides[cx] != expect)
                return false;
            expect *= d;
        }
    }
    return true;
}

static int pick_variant(const gucall *c, int64_t n, int64_t threads,
                        uf__nvvm_variant *v, uf_error *err)
{
    memset(v, 0, sizeof *v);
    if (c->ndim > UF__NVVM_MAXDIM)
        return uf__error_set(err, UF_ERR_UNSUPPORTED,
                             "a CUDA call over %d loop axes that cannot be "
                             "merged: at most %d are supported", c->ndim,
                             UF__NVVM_MAXDIM);
    int64_t reach = 0;
    for (int k = 0; k < c->nargs; k++) {
        if (c->ops[k].scalar) {
            v->scalar_in |= 1u << k;
            continue;
        }
        int64_t r = uf__cuda_reach(c->ndim, c->shape, c->strides[k], 0);
        reach = r > reach ? r : reach;
    }
    v->layout = c->ndim <= 1 ? UF__NVVM_STRIDED : UF__NVVM_ND;
    v->ndim = v->layout == UF__NVVM_ND ? c->ndim : 0;
    v->index32 = n + threads <= INT32_MAX && reach <= INT32_MAX;
    v->core_c = core_contiguous(c);
    return 0;
}

static void pack(const gucall *c, const uf__cuda_kernel *k, int64_t n,
                 uf__cuda_params *pp)
{
    const uf__nvvm_variant *v = &k->v;
    const uf__gufunc_layout *L = c->L;
    pp->n = pp->nw = 0;
    uf__cuda_put_index(pp, v, n);
    if (v->layout == UF__NVVM_ND)
        for (int d = 0; d < c->ndim; d++)
            uf__cuda_put_index(pp, v, c->shape[d]);
    for (int i = 0; i < c->nargs; i++) {
        uf__cuda_put_operand(pp, &c->ops[i], c->args[i].dtype);
        if (c->ops[i].scalar)
            continue;
        if (v->layout == UF__NVVM_STRIDED)
            uf__cuda_put_index(pp, v, c->ndim ? c->strides[i][0] : 0);
        else
            for (int d = 0; d < c->ndim; d++)
                uf__cuda_put_index(pp, v, c->strides[i][d]);
    }
    for (int d = 0; d < L->ndims; d++)
        if (!(L->dims[d].size > 0 && !L->dims[d].flexible))
            uf__cuda_put(pp, &c->res.dim_size[d], sizeof(int64_t));
    for (int i = 0; i < c->nargs; i++)
        for (int j = 0; j < L->core_ndim[i] && !c->ops[i].scalar; j++)
            uf__cuda_put(pp, &c->cstrides[L->core_offset[i] + j],
                         sizeof(int64_t));
}

static int launch(gucall *c, uf_error *err)
{
    int64_t n = 1;
    for (int d = 0; d < c->ndim; d++)
        n *= c->shape[d];
    if (n == 0)
        return 0; /* an empty loop space: outputs allocated, nothing run */
    uf__cuda_collapse(&c->ndim, c->shape, c->nargs, c->strides, c->ops);
    uf__nvvm_variant v;
    int64_t guess = (int64_t)c->site.rt->sm_count * 2048;
    if (pick_variant(c, n, guess, &v, err) != 0)
        return err->code;
    uf_context *ctx = c->f->module->ctx;
    pthread_mutex_lock(&ctx->lock);
    const uf__cuda_kernel *k =
        uf__gufunc_cuda_kernel(c->f, c->site.rt, c->args, &v, err);
    pthread_mutex_unlock(&ctx->lock);
    if (k == NULL)
        return err->code;
    uf__cuda_params pp;
    pack(c, k, n, &pp);
    return uf__cuda_launch(&c->site, k, n, guess, &pp, err);
}

static int finish(gucall *c, uf_array **outputs, uf_array **results,
                  uf_error *err)
{
    if (uf__cuda_call_wait(&c->site, err) != 0)
        return err->code;
    for (int o = 0; o < c->nout; o++) {
        uf_array **slot = outputs[o] != NULL ? NULL : &results[o];
        if (uf__cuda_finish_output(&c->site, &c->ops[c->nin + o], slot,
                                   err) != 0)
            return err->code;
    }
    return 0;
}

int uf__gufunc_cuda_call(uf_func *f, const char *target,
                         uf_array *const *inputs, int n_in,
                         uf_array **outputs, int n_out,
                         const uf_call_options *opts, uf_error *err)
{
    gucall c;
    memset(&c, 0, sizeof c);
    c.f = f;
    uf_context *ctx = f->module->ctx;
    pthread_mutex_lock(&ctx->lock);
    c.L = uf__gufunc_cuda_layout(f, err);
    pthread_mutex_unlock(&ctx->lock);
    if (c.L == NULL)
        return err->code;
    c.nin = c.L->nin;
    c.nout = c.L->nout;
    c.nargs = c.L->nargs;
    uf_array *results[MAXARGS] = {NULL};
    int rc;
    if ((rc = check_call(&c, inputs, n_in, outputs, n_out, opts, err)) == 0 &&
        (rc = uf__cuda_call_begin(&c.site, target, "gufunc", f->decl->name,
                                  opts, err)) == 0 &&
        (rc = resolve(&c, inputs, outputs, err)) == 0 &&
        (rc = stage(&c, inputs, outputs, err)) == 0 &&
        (rc = strides_of(&c, err)) == 0 && (rc = launch(&c, err)) == 0)
        rc = finish(&c, outputs, results, err);
    for (int o = 0; o < c.nout; o++) {
        if (rc == 0 && results[o] != NULL)
            outputs[o] = results[o];
        else
            uf_array_release(results[o]);
    }
    for (int k = 0; k < c.nargs; k++)
        uf__cuda_operand_release(&c.ops[k]);
    if (c.resolved)
        uf__gufunc_resolution_free(&c.res);
    return rc;
}
