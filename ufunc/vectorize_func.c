/* The call path of vectorize kernels: the ufunc built from the declared
 * signatures (compiled at first call, as Numba compiles at decoration) or
 * a lazy ufunc compiling one loop per new input-type combination. */
#include <stdio.h>
#include <string.h>

#include "common/alloc.h"
#include "common/error_internal.h"
#include "compiler/context.h"
#include "compiler/host/jit_nontemporal.h"
#include "compiler/host/jit_strided.h"
#include "compiler/module.h"
#include "targets/cpu/cpu.h"
#include "targets/cpu/strided_slot.h"
#include "targets/target.h"
#include "ufunc/call_check.h"
#include "ufunc/cuda_call.h"
#include "ufunc/cuda_kernels.h"
#include "ufunc/inspect.h"
#include "ufunc/vectorize.h"

/* Signature errors point at the signature string in the kernel source. */
static int parse_declared(uf_func *f, int i, uf__signature *sig,
                          uf_error *err)
{
    uf__kmodule *km = f->module->km;
    if (uf__parse_signature(km->tc, km->arena, f->decl->signatures[i], sig,
                            err) < 0) {
        char msg[sizeof err->message];
        snprintf(msg, sizeof msg, "%s", err->message);
        return uf__source_error(err, err->code, km->src,
                                f->decl->signature_pos[i], "%s", msg);
    }
    return 0;
}

/* The strided slots' hooks (jit_strided.h): the fused strided loop, or
 * the streaming loop (`strided` NULL; for element strides `mult`, NULL:
 * unit), of declared signature `sig` (-1:
 * the lazy ufunc's loop for `types`), compiled under the context lock,
 * which guards typing and the JIT. The lock is only tried: its holder may
 * be this very call (a lazy ufunc's first call) or a thread waiting for
 * it. */
static int compile_slot(uf_func *f, int sig, const uf_dtype *types,
                        uf__loop_strided_fn *strided, const int64_t *mult,
                        uf__loop_contig_fn *nt, bool *blocked)
{
    uf_context *ctx = f->module->ctx;
    uf__kmodule *km = f->module->km;
    if (strided && f->decl->fastmath)
        return -1;
    if (pthread_mutex_trylock(&ctx->lock) != 0)
        return UF__STRIDED_RETRY;
    uf_error err;
    uf_error_clear(&err);
    const uf__type *args[UF__LOOP_MAXARGS];
    uf__signature parsed = {NULL, args, f->nin};
    int rc = -1;
    uf__jit *jit = uf__context_jit(ctx, &err);
    if (jit && sig >= 0) {
        if (parse_declared(f, sig, &parsed, &err) < 0)
            jit = NULL;
    } else {
        for (int i = 0; i < f->nin; i++)
            args[i] = uf__type_scalar(km->tc, types[i]);
    }
    const uf__typed_func *tf =
        jit ? uf__infer(km, f->decl, parsed.args, f->nin, parsed.ret, &err)
            : NULL;
    if (tf && (strided ? uf__jit_ufunc_strided(jit, tf, types + f->nin,
                                               strided, &err)
                       : uf__jit_ufunc_stream(jit, tf, types + f->nin, mult,
                                              nt, blocked, &err)) == 0)
        rc = 0;
    pthread_mutex_unlock(&ctx->lock);
    return rc;
}

static int compile_strided(void *cctx, int sig, const uf_dtype *types,
                           uf__loop_strided_fn *fn)
{
    return compile_slot(cctx, sig, types, fn, NULL, NULL, NULL);
}

static int compile_stream(void *cctx, int sig, const uf_dtype *types,
                          const int64_t *strides, uf__loop_contig_fn *fn,
                          bool *blocked)
{
    return compile_slot(cctx, sig, types, NULL, strides, fn, blocked);
}

/* Gives `loop` (a vectorize loop of signature `sig`, -1: lazy) a strided
 * slot: loop->fn and aux become the slot's. */
static int add_slot(uf_func *f, int sig, int nout, uf__ufunc_loop *loop,
                    uf_error *err)
{
    uf__strided_slot *s = uf__strided_slot_new(loop, f->nin + nout,
                                               compile_strided, f, sig, err);
    if (s == NULL)
        return err->code;
    s->compile_nt = compile_stream;
    loop->fn = uf__rt_slot_loop;
    loop->aux = s;
    loop->pick = s->pick;
    return 0;
}

static void free_slot(uf__ufunc_loop *loop)
{
    if (loop->fn == uf__rt_slot_loop)
        uf__strided_slot_free(loop->aux);
}

/* Frees the slots of the loops of u (not u). */
static void free_slots(uf__ufunc *u)
{
    if (u == NULL)
        return;
    for (int i = 0; i < uf__ufunc_nloops(u); i++) {
        const uf__ufunc_loop *l = uf__ufunc_get_loop(u, i);
        if (l->fn == uf__rt_slot_loop)
            uf__strided_slot_free(l->aux);
    }
}

/* The lazy ufunc's hook: a loop for the exact input types. */
static int compile_exact(void *compile_ctx, const uf_dtype *in,
                         uf__ufunc_loop *out, uf_error *err)
{
    uf_func *f = compile_ctx;
    uf__kmodule *km = f->module->km;
    const uf__type *args[UF__LOOP_MAXARGS];
    for (int i = 0; i < f->nin; i++)
        args[i] = uf__type_scalar(km->tc, in[i]);
    uf__signature sig = {NULL, args, f->nin};
    int nout = 0;
    if (uf__vectorize_loops(f->module->ctx, km, f->module->text,
                            f->module->src.len, f->decl, 1, &sig, out, &nout,
                            NULL, NULL, err) < 0)
        return err->code;
    if (f->nout >= 0 && nout != f->nout)
        return uf__error_set(err, UF_ERR_TYPING,
                             "'%s' returns %d value(s) for these input "
                             "types but %d for earlier ones",
                             f->decl->name, nout, f->nout);
    if (add_slot(f, -1, nout, out, err) < 0)
        return err->code;
    f->nout = nout;
    return 0;
}

/* Makes f->ufunc: every declared signature compiled now (as Numba does at
 * decoration), or an empty lazy ufunc whose output count comes from typing
 * the first call's input types. Call with the context lock held. */
static int build_ufunc(uf_func *f, uf_array *const *inputs, int n_in,
                       uf_error *err)
{
    uf__ufunc_loop loop;
    if (f->decl->nsignatures == 0) {
        uf_dtype in[UF__LOOP_MAXARGS];
        if (n_in != f->nin || n_in > UF__LOOP_MAXARGS)
            return uf__error_set(err, UF_ERR_INVALID,
                                 "'%s' takes %d input(s), %d given",
                                 f->decl->name, f->nin, n_in);
        for (int i = 0; i < n_in; i++)
            in[i] = uf_array_dtype(inputs[i]);
        if (compile_exact(f, in, &loop, err) < 0)
            return err->code;
        f->ufunc = uf__ufunc_new(f->decl->name, f->nin, f->nout,
                                 compile_exact, f, err);
        if (f->ufunc == NULL || uf__ufunc_add_loop(f->ufunc, &loop, err) < 0) {
            free_slot(&loop);
            uf__ufunc_free(f->ufunc);
            f->ufunc = NULL;
            return err->code;
        }
        return 0;
    }

    /* every declared signature: from the context's cache or compiled
     * together in one module */
    int n = f->decl->nsignatures, bad = -1, added = 0;
    uf__signature *sigs = uf__calloc((size_t)n, sizeof *sigs, err);
    uf__ufunc_loop *loops = uf__calloc((size_t)n, sizeof *loops, err);
    int *nouts = uf__calloc((size_t)n, sizeof *nouts, err);
    uf__ufunc *u = NULL;
    if (!sigs || !loops || !nouts)
        goto fail;
    for (int i = 0; i < n; i++)
        if (parse_declared(f, i, &sigs[i], err) < 0)
            goto fail;
    if (uf__vectorize_loops(f->module->ctx, f->module->km, f->module->text,
                            f->module->src.len, f->decl, n, sigs, loops,
                            nouts, NULL, &bad, err) < 0) {
        if (bad >= 0 && err->line == 0) { /* the signature's own fault */
            char msg[sizeof err->message];
            snprintf(msg, sizeof msg, "%s", err->message);
            uf__source_error(err, err->code, f->module->km->src,
                             f->decl->signature_pos[bad], "%s", msg);
        }
        goto fail;
    }
    for (int i = 0; i < n; i++)
        if (add_slot(f, i, nouts[i], &loops[i], err) < 0)
            goto fail;
    for (int i = 0; i < n; i++) {
        if (u == NULL) {
            u = uf__ufunc_new(f->decl->name, f->nin, nouts[i], NULL, NULL,
                              err);
            if (u == NULL)
                goto fail;
        } else if (nouts[i] != uf__ufunc_nout(u)) {
            uf__source_error(err, UF_ERR_TYPING, f->module->km->src,
                             f->decl->signature_pos[i],
                             "signature '%s' gives %d output(s), earlier "
                             "signatures %d", f->decl->signatures[i],
                             nouts[i], uf__ufunc_nout(u));
            goto fail;
        }
        if (uf__ufunc_add_loop(u, &loops[i], err) < 0)
            goto fail;
        added = i + 1;
    }
    f->ufunc = u;
    f->nout = uf__ufunc_nout(u);
    uf__free(sigs);
    uf__free(loops);
    uf__free(nouts);
    return 0;

fail:
    free_slots(u);
    for (int i = added; loops && i < n; i++)
        free_slot(&loops[i]);
    uf__ufunc_free(u);
    uf__free(sigs);
    uf__free(loops);
    uf__free(nouts);
    return err->code;
}

/* Whether the lazy ufunc f->ufunc has a memoized loop for these inputs'
 * dtypes; called with the context lock. */
static bool resolved(uf__ufunc *u, int nin, uf_array *const *inputs,
                     int n_in)
{
    uf_dtype in[UF__LOOP_MAXARGS];
    if (inputs == NULL || n_in != nin || n_in > UF__LOOP_MAXARGS)
        return false;
    for (int i = 0; i < n_in; i++) {
        if (inputs[i] == NULL)
            return false;
        in[i] = uf_array_dtype(inputs[i]);
    }
    return uf__ufunc_resolved(u, in) != NULL;
}

static int vectorize_call(uf_func *f, uf_array *const *inputs, int n_in,
                          uf_array **outputs, int n_out,
                          const uf_call_options *opts, uf_error *err)
{
    const char *name = uf__func_target(f, opts);
    const uf__target *t = uf__target_find(name);
    if (t != NULL && (t->caps & UF__TCAP_DEVICE))
        return uf__cuda_vectorize_call(f, t->name, inputs, n_in, outputs,
                                       n_out, opts, err);
    bool lazy = f->decl->nsignatures == 0;
    /* Built already: its loop list never changes again, or this call's
     * loop is memoized (found without compiling, and it never moves). */
    uf__ufunc *u = atomic_load_explicit(&f->ufunc_ready,
                                        memory_order_acquire);
    if (u != NULL && (!lazy || resolved(u, f->nin, inputs, n_in)))
        return uf__ufunc_call_target(u, f->decl->target, inputs, n_in,
                                     outputs, n_out, opts, err);
    uf_context *ctx = f->module->ctx;
    pthread_mutex_lock(&ctx->lock);
    int rc = f->ufunc == NULL ? build_ufunc(f, inputs, n_in, err) : 0;
    if (rc == 0)
        atomic_store_explicit(&f->ufunc_ready, f->ufunc,
                              memory_order_release);
    if (rc == 0 && (!lazy || resolved(f->ufunc, f->nin, inputs, n_in))) {
        /* The loop list never changes again, or this call's loop is
         * memoized (found without compiling, and it never moves): call
         * without the lock (which a strided loop's compile then tries). */
        pthread_mutex_unlock(&ctx->lock);
        return uf__ufunc_call_target(f->ufunc, f->decl->target, inputs,
                                     n_in, outputs, n_out, opts, err);
    }
    if (rc == 0)
        rc = uf__ufunc_call_target(f->ufunc, f->decl->target, inputs, n_in,
                                   outputs, n_out, opts, err);
    pthread_mutex_unlock(&ctx->lock);
    return rc;
}

int uf__vectorize_func_loop(uf_func *f, const uf_dtype *in,
                            uf__ufunc_loop *loop, uf_error *err)
{
    uf_context *ctx = f->module->ctx;
    uf_array *probe[UF__LOOP_MAXARGS] = {NULL};
    int rc = 0, made = 0;
    pthread_mutex_lock(&ctx->lock);
    if (f->ufunc == NULL) {
        /* a lazy ufunc is built from the first call's input types */
        for (; made < f->nin && made < UF__LOOP_MAXARGS; made++)
            if (!(probe[made] = uf_empty(in[made], 0, NULL, UF_ORDER_C, err))) {
                rc = err->code;
                break;
            }
        if (rc == 0)
            rc = build_ufunc(f, probe, f->nin, err);
        for (int i = 0; i < made; i++)
            uf_array_release(probe[i]);
        if (rc == 0)
            atomic_store_explicit(&f->ufunc_ready, f->ufunc,
                                  memory_order_release);
    }
    const uf__ufunc_loop *found = NULL;
    if (rc == 0 && (rc = uf__ufunc_resolve(f->ufunc, in, &found, err)) == 0)
        *loop = *found;
    pthread_mutex_unlock(&ctx->lock);
    return rc;
}

static void vectorize_release(uf_func *f)
{
    uf__cuda_kernels_free(f);
    atomic_store(&f->ufunc_ready, NULL);
    free_slots(f->ufunc);
    uf__ufunc_free(f->ufunc);
    f->ufunc = NULL;
}

const uf__kind_ops uf__vectorize_kind = {
    .call = vectorize_call,
    .loop = uf__vectorize_func_loop,
    .inspect = uf__vectorize_inspect,
    .example_signature = "'float64(float64, float64)'",
    .release = vectorize_release,
};
