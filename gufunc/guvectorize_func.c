/* The call path of guvectorize kernels: the gufunc built on first call
 * with every declared signature compiled in order (as Numba compiles them
 * at decoration), or a lazy gufunc compiling one loop per new combination
 * of operand dtypes (the output dtypes inferred when not given). Calls
 * run on the kernel's declared target (target='parallel') unless the
 * options name one. Each loop's aux holds its core-shape variants
 * (gufunc_specialise.h), which calls pick from: made with the loop for
 * declared signatures, on the loop's first call for lazy ones. */
#include <stdio.h>
#include <string.h>

#include "common/alloc.h"
#include "common/error_internal.h"
#include "compiler/module.h"
#include "gufunc/gufunc_cuda.h"
#include "gufunc/gufunc_internal.h"
#include "gufunc/gufunc_specialise.h"
#include "gufunc/guvectorize.h"
#include "targets/target.h"
#include "ufunc/call_check.h"
#include "ufunc/inspect.h"

/* An error without a position points at the signature in the source. */
static int at_signature(uf_func *f, int i, uf_error *err)
{
    if (err->line > 0 || err->code == UF_ERR_NOMEM)
        return err->code;
    char msg[sizeof err->message];
    snprintf(msg, sizeof msg, "%s", err->message);
    return uf__source_error(err, err->code, f->module->km->src,
                            f->decl->signature_pos[i], "%s", msg);
}

/* The lazy gufunc's hook, called under the context lock (the lazy call
 * holds it throughout). */
static int compile_lazy(void *compile_ctx, const int *types,
                        uf__ufunc_loop *out, uf_error *err)
{
    uf_func *f = compile_ctx;
    uf__jit *jit = uf__context_jit(f->module->ctx, err);
    if (jit == NULL)
        return err->code;
    return uf__guvectorize_compile_lazy(f->module->km, f->decl,
                                        uf__gufunc_layout_of(f->gufunc), jit,
                                        types, out, NULL, err);
}

static void free_variants(uf__gufunc *g)
{
    for (int i = 0; i < uf__gufunc_nloops(g); i++)
        uf__gufunc_variants_free(uf__gufunc_get_loop(g, i)->aux);
}

typedef struct pick_ctx {
    uf_func *f;
    bool locked; /* the call holds the context lock */
} pick_ctx;

static uf__strided_loop pick_variant(void *vctx, const uf__ufunc_loop *loop,
                                     const int64_t *dims,
                                     const int64_t *steps,
                                     int64_t iterations,
                                     uf_array *const *ops)
{
    pick_ctx *p = vctx;
    if (loop->aux == NULL && p->locked) {
        /* a lazy loop's table is made on its first call (which, as every
         * call of a lazy gufunc, holds the context lock: nobody reads the
         * loop meanwhile), so that a loop the gufunc failed to add owns
         * nothing */
        uf_error err;
        ((uf__ufunc_loop *)loop)->aux = uf__gufunc_variants_new(
            uf__gufunc_layout_of(p->f->gufunc), NULL, &err);
    }
    return uf__gufunc_variant(p->f, p->locked, loop, dims, steps,
                              iterations, ops);
}

/* Makes f->gufunc. Call with the context lock held. */
static int build_gufunc(uf_func *f, uf_error *err)
{
    uf__kmodule *km = f->module->km;
    const uf__kernel_decl *decl = f->decl;
    bool lazy = decl->nsignatures == 0;
    uf__gufunc_layout *lay = uf__guvectorize_layout(km, decl, err);
    if (lay == NULL)
        return err->code;
    if (lay->nin < 64 && decl->writable_args >> lay->nin != 0) {
        /* Numba: "writable_args must be inputs" (a ValueError there) */
        uf__source_error(err, UF_ERR_VALUE, km->src, decl->writable_args_pos,
                         "writable_args=: '%s' has %d input%s (layout "
                         "'%s'); only inputs can be made writable",
                         decl->name, lay->nin, lay->nin == 1 ? "" : "s",
                         decl->layout);
        goto fail_layout;
    }
    uf__gufunc *g = uf__gufunc_new(decl->name, lay,
                                   lazy ? compile_lazy : NULL, f, err);
    if (g == NULL)
        goto fail_layout;
    uf__gufunc_set_writable_inputs(g, decl->writable_args);
    uf__jit *jit = NULL;
    if (!lazy && (jit = uf__context_jit(f->module->ctx, err)) == NULL)
        goto fail;
    for (int i = 0; i < decl->nsignatures; i++) {
        uf__signature sig;
        uf__ufunc_loop loop;
        if (uf__parse_signature(km->tc, km->arena, decl->signatures[i], &sig,
                                err) < 0 ||
            uf__guvectorize_compile(km, decl, lay, jit, &sig, &loop, NULL,
                                    err) < 0) {
            at_signature(f, i, err);
            goto fail;
        }
        if ((loop.aux = uf__gufunc_variants_new(lay, &sig, err)) == NULL)
            goto fail;
        if (uf__gufunc_add_loop(g, &loop, err) < 0) {
            uf__gufunc_variants_free(loop.aux);
            goto fail;
        }
    }
    f->gufunc = g;
    f->nin = lay->nin;
    f->nout = lay->nout;
    return 0;

fail:
    if (g != NULL)
        free_variants(g);
    uf__gufunc_free(g);
fail_layout:
    uf__gufunc_layout_free(lay);
    return err->code;
}

static int guvectorize_call(uf_func *f, uf_array *const *inputs, int n_in,
                            uf_array **outputs, int n_out,
                            const uf_call_options *opts, uf_error *err)
{
    const uf__target *t = uf__target_find(uf__func_target(f, opts));
    if (t != NULL && (t->caps & UF__TCAP_DEVICE)) {
        if (f->decl->writable_args != 0)
            return uf__error_set(err, UF_ERR_TYPE, "gufunc '%s': "
                                 "writable_args= is not supported on target "
                                 "'%s' (as in Numba)", f->decl->name,
                                 t->name);
        return uf__gufunc_cuda_call(f, t->name, inputs, n_in, outputs, n_out,
                                    opts, err);
    }
    uf_context *ctx = f->module->ctx;
    pthread_mutex_lock(&ctx->lock);
    int rc = f->gufunc == NULL ? build_gufunc(f, err) : 0;
    if (rc == 0 && f->decl->nsignatures > 0) {
        /* the loop list never changes again: call without the lock */
        pthread_mutex_unlock(&ctx->lock);
        pick_ctx p = {f, false};
        return uf__gufunc_call_pick(f->gufunc, f->decl->target,
                                    pick_variant, &p, inputs, n_in, outputs,
                                    n_out, opts, err);
    }
    pick_ctx p = {f, true};
    if (rc == 0)
        rc = uf__gufunc_call_pick(f->gufunc, f->decl->target, pick_variant,
                                  &p, inputs, n_in, outputs, n_out, opts,
                                  err);
    pthread_mutex_unlock(&ctx->lock);
    return rc;
}

static void guvectorize_release(uf_func *f)
{
    uf__cuda_kernels_free(f);
    if (f->gufunc == NULL)
        return;
    uf__gufunc_layout *lay = (uf__gufunc_layout *)uf__gufunc_layout_of(
        f->gufunc);
    free_variants(f->gufunc);
    uf__gufunc_free(f->gufunc);
    uf__gufunc_layout_free(lay);
    f->gufunc = NULL;
}

/* A gufunc's outputs are its trailing arguments. */
static void guvectorize_arity(uf_func *f)
{
    uf__guvectorize_arity(f->decl, &f->nin, &f->nout);
}

/* The gufunc loop of one signature, for its listing. */
static int compile_listing(uf_func *f, const uf__typed_func *tf,
                           uf__jit *jit, const uf__signature *sig,
                           uf__jit_listing *listing, uf_error *err)
{
    uf__kmodule *km = f->module->km;
    uf__gufunc_layout *lay = uf__guvectorize_layout(km, f->decl, err);
    if (lay == NULL)
        return err->code;
    uf__ufunc_loop loop;
    int rc = uf__guvectorize_compile(km, f->decl, lay, jit, sig, &loop,
                                     listing, err);
    uf__gufunc_layout_free(lay);
    return rc;
}

/* The CUDA kernels the cuda target compiles for one signature, as one
 * PTX module: the general variant (one loop axis, 64-bit indices, core
 * views of any strides) and the one a call over C-contiguous core views
 * whose offsets fit 32 bits gets (gufunc_cuda.c: pick_variant). */
static int ptx_listing(uf_func *f, const uf__signature *sig, uf__strbuf *out,
                       uf_error *err)
{
    uf__kmodule *km = f->module->km;
    uf__gufunc_layout *lay = uf__guvectorize_layout(km, f->decl, err);
    if (lay == NULL)
        return err->code;
    uf__guvec_arg args[UF__LOOP_MAXARGS];
    uf__nvvm_spec specs[2];
    int rc = uf__guvectorize_sig_args(f->decl, lay, sig, args, err);
    for (int i = 0; rc == 0 && i < 2; i++) {
        uf__nvvm_variant v = {.layout = UF__NVVM_STRIDED, .index32 = i == 1,
                              .core_c = i == 1};
        for (int k = 0; k < lay->nin && k < 32; k++)
            if (args[k].kind == UF__GUVEC_SCALAR)
                v.scalar_in |= 1u << k; /* staged by value, as a call */
        const uf__typed_func *tf = uf__guvectorize_type(
            km, f->decl, lay, args, v.core_c ? 'C' : 'A', err);
        if (tf == NULL)
            rc = err->code;
        specs[i] = (uf__nvvm_spec){.tf = tf, .v = v, .layout = lay,
                                   .args = args};
    }
    if (rc == 0)
        rc = uf__inspect_append_ptx(out, specs, 2, err);
    uf__gufunc_layout_free(lay);
    return rc;
}

/* A guvectorize kernel returns nothing whatever its signature says (void
 * or none): its typing takes no declared result. */
static const uf__inspect_kind inspect_kind = {.no_result = true,
                                              .compile = compile_listing,
                                              .ptx = ptx_listing};

static int guvectorize_inspect(uf_func *f, const char *sig, unsigned what,
                               uf__strbuf *out, uf_error *err)
{
    return uf__inspect_compiled(f, sig, what, &inspect_kind, out, err);
}

const uf__kind_ops uf__guvectorize_kind = {
    .arity = guvectorize_arity,
    .call = guvectorize_call,
    .inspect = guvectorize_inspect,
    .example_signature = "'void(float64[:], float64[:])'",
    .release = guvectorize_release,
};
