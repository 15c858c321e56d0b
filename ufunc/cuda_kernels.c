/* Resolving a CUDA call's signature and compiling, loading and keeping
 * its kernels (cuda_kernels.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "common/error_internal.h"
#include "compiler/context.h"

#include "ufunc/cuda_kernels.h"
#include "ufunc/cuda_link_files.h"
#include "ufunc/cuda_ptx_cache.h"

/* The declared signatures' dtypes, parsed once (the parse allocates in
 * the kernel module's arena: per call it would grow without bound). */
static int parse_signatures(uf_func *f, uf__cuda_kernels *ck, uf_error *err)
{
    uf__kmodule *km = f->module->km;
    int n = f->decl->nsignatures;
    ck->sig_types = n ? uf__calloc((size_t)n, sizeof *ck->sig_types, err)
                      : NULL;
    ck->sig_nout = n ? uf__calloc((size_t)n, sizeof *ck->sig_nout, err)
                     : NULL;
    if (n && (!ck->sig_types || !ck->sig_nout))
        return err->code;
    for (int i = 0; i < n; i++) {
        uf__signature sig;
        if (uf__parse_signature(km->tc, km->arena, f->decl->signatures[i],
                                &sig, err) < 0) {
            char msg[sizeof err->message];
            memcpy(msg, err->message, sizeof msg);
            return uf__source_error(err, err->code, km->src,
                                    f->decl->signature_pos[i], "%s", msg);
        }
        if (sig.nargs != f->nin)
            return uf__source_error(err, UF_ERR_TYPING, km->src,
                                    f->decl->signature_pos[i],
                                    "signature of '%s' has %d argument(s) "
                                    "but the kernel takes %d",
                                    f->decl->name, sig.nargs, f->nin);
        for (int k = 0; k < sig.nargs; k++) {
            if (sig.args[k]->kind != UF__T_SCALAR)
                return uf__source_error(err, UF_ERR_TYPING, km->src,
                                        f->decl->signature_pos[i],
                                        "vectorize kernel '%s': argument "
                                        "%d is not a scalar type",
                                        f->decl->name, k + 1);
            ck->sig_types[i][k] = sig.args[k]->dtype;
        }
        const uf__type *r = sig.ret;
        if (r != NULL && r->kind == UF__T_SCALAR) {
            ck->sig_types[i][f->nin] = r->dtype;
            ck->sig_nout[i] = 1;
        } else if (r != NULL && r->kind == UF__T_TUPLE &&
                   f->nin + r->n <= UF__LOOP_MAXARGS) {
            for (int k = 0; k < r->n; k++)
                ck->sig_types[i][f->nin + k] = r->elts[k]->dtype;
            ck->sig_nout[i] = r->n;
        }
    }
    ck->nsigs = n;
    return 0;
}

uf__cuda_kernels *uf__cuda_kernels_of(uf_func *f, uf_error *err)
{
    if (f->cuda == NULL) {
        uf__cuda_kernels *ck = uf__calloc(1, sizeof *ck, err);
        if (ck == NULL)
            return NULL;
        ck->nsigs = -1;
        f->cuda = ck;
    }
    return f->cuda;
}

/* The state with a vectorize kernel's signatures parsed. */
static uf__cuda_kernels *state_of(uf_func *f, uf_error *err)
{
    uf__cuda_kernels *ck = uf__cuda_kernels_of(f, err);
    if (ck == NULL || ck->nsigs >= 0)
        return ck;
    return parse_signatures(f, ck, err) == 0 ? ck : NULL;
}

/* The kernel typed for input dtypes in (its result's dtypes into
 * types[nin..], *nout, when `nout_known` is 0). */
static const uf__typed_func *typed(uf_func *f, const uf_dtype *in,
                                   uf_dtype *types, int *nout, int known,
                                   uf_error *err)
{
    uf__kmodule *km = f->module->km;
    const uf__type *args[UF__LOOP_MAXARGS];
    for (int i = 0; i < f->nin; i++)
        args[i] = uf__type_scalar(km->tc, in[i]);
    const uf__typed_func *tf =
        uf__infer(km, f->decl, args, f->nin, NULL, err);
    if (tf == NULL || known)
        return tf;
    const uf__type *r = tf->ret;
    if (r->kind == UF__T_SCALAR) {
        types[f->nin] = r->dtype;
        *nout = 1;
        return tf;
    }
    if (r->kind == UF__T_TUPLE && r->n >= 1 &&
        f->nin + r->n <= UF__LOOP_MAXARGS) {
        for (int k = 0; k < r->n; k++) {
            if (r->elts[k]->kind != UF__T_SCALAR)
                goto bad;
            types[f->nin + k] = r->elts[k]->dtype;
        }
        *nout = r->n;
        return tf;
    }
bad:
    uf__error_set(err, UF_ERR_TYPING,
                  "vectorize kernel '%s' must return a number or a tuple "
                  "of numbers", f->decl->name);
    return NULL;
}

/* The first of n signatures (inputs then outputs in tab[i]) every input
 * casts to safely, those in `exact` (bit k: input k) without a cast, or
 * -1. */
static int first_safe(const uf_dtype (*tab)[UF__LOOP_MAXARGS], int n,
                      const uf_dtype *in, int nin, uint64_t exact)
{
    for (int i = 0; i < n; i++) {
        bool fits = true;
        for (int k = 0; k < nin && fits; k++)
            fits = exact & ((uint64_t)1 << k)
                       ? in[k] == tab[i][k]
                       : uf_can_cast(in[k], tab[i][k], UF_CASTING_SAFE);
        if (fits)
            return i;
    }
    return -1;
}

/* A lazy kernel: the first signature compiled so far that takes the
 * inputs safely, else the inputs' own types, added to the list, as the
 * CPU target's lazy ufunc dispatches (float64 compiled first, an int64
 * call runs it, as NumPy's type resolution over the loops added). */
static int resolve_lazy(uf_func *f, uf__cuda_kernels *ck, const uf_dtype *in,
                        uint64_t exact, uf_dtype *types, int *nout,
                        uf_error *err)
{
    int i = first_safe((const uf_dtype(*)[UF__LOOP_MAXARGS])ck->lazy_types,
                       ck->nlazy, in, f->nin, exact);
    if (i >= 0) {
        memcpy(types, ck->lazy_types[i],
               (size_t)(f->nin + ck->lazy_nout[i]) * sizeof *types);
        *nout = ck->lazy_nout[i];
        return 0;
    }
    memcpy(types, in, (size_t)f->nin * sizeof *in);
    if (!typed(f, in, types, nout, 0, err))
        return err->code;
    uf_dtype(*t)[UF__LOOP_MAXARGS] = uf__realloc(
        ck->lazy_types, (size_t)ck->nlazy + 1, sizeof *t, err);
    if (t == NULL)
        return err->code;
    ck->lazy_types = t;
    int *n = uf__realloc(ck->lazy_nout, (size_t)ck->nlazy + 1, sizeof *n,
                         err);
    if (n == NULL)
        return err->code;
    ck->lazy_nout = n;
    memcpy(t[ck->nlazy], types, sizeof t[0]);
    n[ck->nlazy++] = *nout;
    return 0;
}

int uf__cuda_resolve(uf_func *f, const uf_dtype *in, uint64_t on_device,
                     uf_dtype *types, int *nout, uf_error *err)
{
    uf__cuda_kernels *ck = state_of(f, err);
    if (ck == NULL)
        return err->code;
    if (ck->nsigs == 0)
        return resolve_lazy(f, ck, in, on_device, types, nout, err);
    /* device inputs are never cast: a signature taking them as they are
     * first; else the host rule, and the caller says why it cannot run */
    const uf_dtype(*sigs)[UF__LOOP_MAXARGS] =
        (const uf_dtype(*)[UF__LOOP_MAXARGS])ck->sig_types;
    int i = first_safe(sigs, ck->nsigs, in, f->nin, on_device);
    if (i < 0 && on_device != 0)
        i = first_safe(sigs, ck->nsigs, in, f->nin, 0);
    if (i >= 0) {
        memcpy(types, ck->sig_types[i],
               (size_t)(f->nin + ck->sig_nout[i]) * sizeof *types);
        *nout = ck->sig_nout[i];
        if (*nout == 0 && !typed(f, types, types, nout, 0, err))
            return err->code;
        return 0;
    }
    return uf__cuda_no_signature(f, f->nin, in, err);
}

int uf__cuda_no_signature(uf_func *f, int nin, const uf_dtype *in,
                          uf_error *err)
{
    char have[512], list[1024];
    size_t len = 0;
    have[0] = list[0] = '\0';
    for (int k = 0; k < nin; k++)
        len += (size_t)snprintf(have + len, sizeof have - len, "%s%s",
                                k ? ", " : "", uf_dtype_name(in[k]));
    len = 0;
    for (int s = 0; s < f->decl->nsignatures && len < sizeof list; s++)
        len += (size_t)snprintf(list + len, sizeof list - len, "%s'%s'",
                                s ? ", " : "", f->decl->signatures[s]);
    return uf__error_set(err, UF_ERR_TYPE,
                         "ufunc '%s' not supported for the input types "
                         "(%s) on the CUDA target: no signature of %s takes "
                         "them under the 'safe' casting rule",
                         f->decl->name, have, list);
}

static bool same_key(const uf__cuda_kernel *k, const uf__cuda_rt *rt,
                     const uf_dtype *types, int nin, int nout,
                     const uf__nvvm_variant *v, uint64_t tag)
{
    return k->rt == rt && k->tag == tag && k->nin == nin && k->nout == nout &&
           memcmp(k->types, types, (size_t)(nin + nout) * sizeof *types) ==
               0 &&
           k->v.layout == v->layout && k->v.index32 == v->index32 &&
           k->v.scalar_in == v->scalar_in && k->v.core_c == v->core_c &&
           (v->layout != UF__NVVM_ND || k->v.ndim == v->ndim);
}

const uf__cuda_kernel *uf__cuda_kernel_find(const uf__cuda_kernels *ck,
                                            const uf__cuda_rt *rt,
                                            const uf_dtype *types, int nin,
                                            int nout,
                                            const uf__nvvm_variant *v,
                                            uint64_t tag)
{
    for (const uf__cuda_kernel *k = ck->list; k; k = k->next)
        if (same_key(k, rt, types, nin, nout, v, tag))
            return k;
    return NULL;
}

static int finish_load(uf_func *f, uf__cuda_kernel *k, uf_error *err);

/* Compiles k for its runtime: PTX for a GPU, host code for cudasim; and
 * loads it. */
static int compile_and_load(uf_func *f, uf__cuda_kernel *k,
                            const uf__nvvm_spec *spec, uf_error *err)
{
    const uf__cuda_rt *rt = k->rt;
    const void *image;
    char *ptx = NULL;
    uf__sim_image sim_image;
    if (rt->drv->image_kind == UF__CU_IMAGE_SIM) {
        uf__jit *jit = uf__context_jit(f->module->ctx, err);
        if (jit == NULL ||
            uf__nvvm_ufunc_sim(jit, spec, &k->k, &k->sites, &k->sim,
                               err) != 0)
            return err->code;
        sim_image = (uf__sim_image){UF__SIM_IMAGE_MAGIC, 1, &k->sim};
        image = &sim_image;
    } else {
        uf__nvvm_options opts = {.fastmath = f->decl->fastmath,
                                 .max_registers = f->decl->max_registers};
        char arch[24];
        if (getenv("UFJIT_CUDA_ARCH") == NULL) {
            /* the device's own, as numba-cuda compiles for it */
            snprintf(arch, sizeof arch, "compute_%d%d", rt->cc_major,
                     rt->cc_minor);
            opts.arch = arch;
        }
        if (uf__cuda_ptx_get(f, k, spec, &opts, &ptx, err) != 0)
            return err->code;
        image = ptx;
        /* foreign device code (link=): through the driver's linker */
        uf__cuda_link_inputs li;
        int rc = uf__cuda_link_inputs_get(
            f, opts.arch ? opts.arch : getenv("UFJIT_CUDA_ARCH"), &li, err);
        if (rc == 0 && li.n > 0)
            rc = uf__cuda_link_load(rt->drv, ptx, li.in, li.n, &k->mod, err);
        bool linked = li.n > 0;
        uf__cuda_link_inputs_clear(&li);
        if (rc != 0 || linked) {
            uf__free(ptx);
            if (rc != 0)
                return rc;
            return finish_load(f, k, err);
        }
    }
    int rc = uf__cuda_check(rt, rt->drv->module_load_data(&k->mod, image),
                            "cuModuleLoadData", err);
    uf__free(ptx);
    if (rc != 0)
        return rc;
    return finish_load(f, k, err);
}

/* After the module loaded: the kernel's function and launch
 * configuration. */
static int finish_load(uf_func *f, uf__cuda_kernel *k, uf_error *err)
{
    (void)f;
    const uf__cuda_rt *rt = k->rt;
    if (uf__cuda_check(rt,
                       rt->drv->module_get_function(&k->fn, k->mod,
                                                    k->k.name),
                       "cuModuleGetFunction", err) != 0)
        return err->code;
    int min_grid = 0, block = 0;
    if (rt->drv->occupancy_max_block(&min_grid, &block, k->fn, 0, 0) ==
            UF__CU_SUCCESS &&
        block > 0) {
        k->block = block;
        k->grid_cap = min_grid > 0 ? min_grid : rt->sm_count * 4;
    } else {
        k->block = 256;
        k->grid_cap = rt->sm_count * 8;
    }
    return 0;
}

static void kernel_free(uf__cuda_kernel *k)
{
    uf_error err;
    if (uf__cuda_rt_enter(k->rt, &err) == 0) {
        if (k->mod)
            (void)k->rt->drv->module_unload(k->mod);
    }
    uf__nvvm_sites_clear(&k->sites);
    uf__free(k);
}

const uf__cuda_kernel *uf__cuda_kernel_add(uf_func *f,
                                           const uf__cuda_rt *rt,
                                           const uf__nvvm_spec *spec,
                                           const uf_dtype *types, int nin,
                                           int nout, uint64_t tag,
                                           uf_error *err)
{
    uf__cuda_kernels *ck = uf__cuda_kernels_of(f, err);
    if (ck == NULL)
        return NULL;
    uf__cuda_kernel *k = uf__calloc(1, sizeof *k, err);
    if (k == NULL)
        return NULL;
    k->rt = rt;
    k->nin = nin;
    k->nout = nout;
    memcpy(k->types, types, (size_t)(nin + nout) * sizeof *types);
    k->v = spec->v;
    k->tag = tag;
    if (compile_and_load(f, k, spec, err) != 0) {
        kernel_free(k);
        return NULL;
    }
    k->next = ck->list;
    ck->list = k;
    return k;
}

const uf__cuda_kernel *uf__cuda_kernel_get(uf_func *f, const uf__cuda_rt *rt,
                                           const uf_dtype *types, int nout,
                                           const uf__nvvm_variant *v,
                                           uf_error *err)
{
    uf__cuda_kernels *ck = state_of(f, err);
    if (ck == NULL)
        return NULL;
    const uf__cuda_kernel *found =
        uf__cuda_kernel_find(ck, rt, types, f->nin, nout, v, 0);
    if (found)
        return found;
    const uf__typed_func *tf = typed(f, types, NULL, NULL, 1, err);
    if (tf == NULL)
        return NULL;
    uf__nvvm_spec spec = {.tf = tf, .out_types = types + f->nin, .v = *v};
    return uf__cuda_kernel_add(f, rt, &spec, types, f->nin, nout, 0, err);
}

void uf__cuda_kernels_free(uf_func *f)
{
    uf__cuda_kernels *ck = f->cuda;
    if (ck == NULL)
        return;
    for (uf__cuda_kernel *k = ck->list, *next; k; k = next) {
        next = k->next;
        kernel_free(k);
    }
    uf__free(ck->sig_types);
    uf__free(ck->sig_nout);
    uf__free(ck->lazy_types);
    uf__free(ck->lazy_nout);
    if (ck->kind_free)
        ck->kind_free(ck->kind);
    uf__free(ck);
    f->cuda = NULL;
}
