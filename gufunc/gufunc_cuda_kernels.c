/* The CUDA kernels of one guvectorize function (gufunc_cuda.h): its
 * layout and declared signatures read once, as the CPU target reads them
 * (guvectorize.c), kept as the kind's state of ufunc/cuda_kernels.h,
 * whose cache compiles and loads each kernel on first use. */
#include <stdio.h>
#include <string.h>

#include "common/alloc.h"
#include "common/error_internal.h"
#include "gufunc/gufunc_cuda.h"
#include "gufunc/guvectorize.h"

typedef struct gu_state {
    uf__gufunc_layout *lay;
    int nsigs;
    uf__guvec_arg (*sig)[UF__LOOP_MAXARGS]; /* declared signatures */
    /* a kernel without signatures: the operands compiled so far, in the
     * order first called (the CPU's lazy gufunc picks among its loops) */
    uf__guvec_arg (*lazy)[UF__LOOP_MAXARGS];
    int nlazy, caplazy;
} gu_state;

static void state_free(void *p)
{
    gu_state *s = p;
    if (s == NULL)
        return;
    uf__gufunc_layout_free(s->lay);
    uf__free(s->sig);
    uf__free(s->lazy);
    uf__free(s);
}

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

static int read_signatures(uf_func *f, gu_state *s, uf_error *err)
{
    uf__kmodule *km = f->module->km;
    int n = f->decl->nsignatures;
    if (n > 0 && !(s->sig = uf__calloc((size_t)n, sizeof *s->sig, err)))
        return err->code;
    for (int i = 0; i < n; i++) {
        uf__signature sig;
        if (uf__parse_signature(km->tc, km->arena, f->decl->signatures[i],
                                &sig, err) < 0 ||
            uf__guvectorize_sig_args(f->decl, s->lay, &sig, s->sig[i],
                                     err) != 0)
            return at_signature(f, i, err);
    }
    s->nsigs = n;
    return 0;
}

static gu_state *state_of(uf_func *f, uf_error *err)
{
    uf__cuda_kernels *ck = uf__cuda_kernels_of(f, err);
    if (ck == NULL)
        return NULL;
    if (ck->kind != NULL)
        return ck->kind;
    gu_state *s = uf__calloc(1, sizeof *s, err);
    if (s == NULL)
        return NULL;
    if (!(s->lay = uf__guvectorize_layout(f->module->km, f->decl, err)) ||
        read_signatures(f, s, err) != 0) {
        state_free(s);
        return NULL;
    }
    ck->kind = s;
    ck->kind_free = state_free;
    f->nin = s->lay->nin;
    f->nout = s->lay->nout;
    return s;
}

const uf__gufunc_layout *uf__gufunc_cuda_layout(uf_func *f, uf_error *err)
{
    gu_state *s = state_of(f, err);
    return s ? s->lay : NULL;
}

/* Whether signature `sig` takes the operands of dtypes `types` (inputs,
 * then outputs, -1: not given) on pass `pass` of the CPU's rule (0: the
 * inputs' dtypes exactly; 1: device inputs (`dev`, bit k) exactly, the
 * others safely; 2: all safely), *outs whether the given outputs accept
 * its results (same_kind). */
static bool takes(const uf__gufunc_layout *lay, const uf__guvec_arg *sig,
                  const int *types, uint64_t dev, int pass, bool *outs)
{
    bool fits = true;
    for (int k = 0; k < lay->nin && fits; k++)
        fits = pass == 0 || (pass == 1 && (dev >> k & 1u))
                   ? types[k] == (int)sig[k].dtype
                   : uf_can_cast((uf_dtype)types[k], sig[k].dtype,
                                 UF_CASTING_SAFE);
    *outs = true;
    for (int k = lay->nin; k < lay->nargs && fits && *outs; k++)
        *outs = types[k] < 0 || uf_can_cast(sig[k].dtype, (uf_dtype)types[k],
                                            UF_CASTING_SAME_KIND);
    return fits;
}

/* The first of sigs[0..n) the operands take over passes 0..npass-1 with
 * outputs accepting its results, or -1; *inputs_only: the first the
 * inputs alone take (-1 if none). */
static int pick(const uf__gufunc_layout *lay,
                const uf__guvec_arg (*sigs)[UF__LOOP_MAXARGS], int n,
                const int *types, uint64_t dev, int npass, int *inputs_only)
{
    *inputs_only = -1;
    for (int pass = 0; pass < npass; pass++)
        for (int i = 0; i < n; i++) {
            bool outs;
            if (!takes(lay, sigs[i], types, dev, pass, &outs))
                continue;
            if (outs)
                return i;
            if (*inputs_only < 0)
                *inputs_only = i;
        }
    return -1;
}

/* As the CPU's lazy gufunc (gufunc.c): a loop compiled so far taking the
 * inputs exactly, else safely (device inputs exactly: they are never
 * cast), with outputs accepting its results; else the operands' own. */
static int resolve_lazy(uf_func *f, gu_state *s, const int *types,
                        uint64_t dev, uf__guvec_arg *args, uf_error *err)
{
    size_t bytes = (size_t)s->lay->nargs * sizeof *args;
    int inputs_only;
    int i = pick(s->lay, (const uf__guvec_arg(*)[UF__LOOP_MAXARGS])s->lazy,
                 s->nlazy, types, dev, 2, &inputs_only);
    if (i >= 0) {
        memcpy(args, s->lazy[i], bytes);
        return 0;
    }
    if (uf__guvectorize_lazy_args(f->module->km, f->decl, s->lay, types,
                                  args, err) != 0)
        return err->code;
    if (s->nlazy == s->caplazy) {
        int cap = s->caplazy ? 2 * s->caplazy : 4;
        uf__guvec_arg(*grown)[UF__LOOP_MAXARGS] =
            uf__realloc(s->lazy, (size_t)cap, sizeof *grown, err);
        if (grown == NULL)
            return err->code;
        s->lazy = grown;
        s->caplazy = cap;
    }
    memcpy(s->lazy[s->nlazy++], args, bytes);
    return 0;
}

int uf__gufunc_cuda_resolve(uf_func *f, const int *types, uint64_t dev,
                            uf__guvec_arg *args, uf_error *err)
{
    gu_state *s = state_of(f, err);
    if (s == NULL)
        return err->code;
    if (f->decl->nsignatures == 0)
        return resolve_lazy(f, s, types, dev, args, err);
    /* as the CPU (gufunc.c): a signature taking the inputs' dtypes
     * exactly, else the first they cast to safely (device inputs
     * exactly: they are never cast); one whose results the given outputs
     * accept (same_kind) before one they do not. When no signature takes
     * the device inputs as they are, the host rule's choice, which
     * staging then refuses with why. */
    const uf__gufunc_layout *lay = s->lay;
    const uf__guvec_arg(*sigs)[UF__LOOP_MAXARGS] =
        (const uf__guvec_arg(*)[UF__LOOP_MAXARGS])s->sig;
    int inputs_only;
    int i = pick(lay, sigs, s->nsigs, types, dev, 2, &inputs_only);
    if (i < 0 && inputs_only < 0 && dev != 0)
        i = pick(lay, sigs, s->nsigs, types, dev, 3, &inputs_only);
    if (i < 0)
        i = inputs_only; /* the output's check then reports it */
    if (i >= 0) {
        memcpy(args, s->sig[i], (size_t)lay->nargs * sizeof *args);
        return 0;
    }
    uf_dtype in[UF__LOOP_MAXARGS];
    for (int k = 0; k < lay->nin; k++)
        in[k] = (uf_dtype)types[k];
    return uf__cuda_no_signature(f, lay->nin, in, err);
}

const uf__cuda_kernel *uf__gufunc_cuda_kernel(uf_func *f,
                                              const uf__cuda_rt *rt,
                                              const uf__guvec_arg *args,
                                              const uf__nvvm_variant *v,
                                              uf_error *err)
{
    gu_state *s = state_of(f, err);
    if (s == NULL)
        return NULL;
    const uf__gufunc_layout *lay = s->lay;
    uf_dtype types[UF__LOOP_MAXARGS];
    uint64_t tag = 0; /* which "()" inputs are plain values */
    for (int k = 0; k < lay->nargs; k++) {
        types[k] = args[k].dtype;
        if (args[k].kind == UF__GUVEC_SCALAR)
            tag |= (uint64_t)1 << k;
    }
    const uf__cuda_kernel *k = uf__cuda_kernel_find(
        f->cuda, rt, types, lay->nin, lay->nout, v, tag);
    if (k != NULL)
        return k;
    uf__typed_func *tf = uf__guvectorize_type(f->module->km, f->decl, lay,
                                              args, v->core_c ? 'C' : 'A',
                                              err);
    if (tf == NULL)
        return NULL;
    uf__nvvm_spec spec = {.tf = tf, .v = *v, .layout = lay, .args = args};
    return uf__cuda_kernel_add(f, rt, &spec, types, lay->nin, lay->nout,
                               tag, err);
}
