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

/* A kernel without signatures: the operands resolved per dtype list. */
typedef struct lazy_entry {
    int types[UF__LOOP_MAXARGS];
    uf__guvec_arg args[UF__LOOP_MAXARGS];
} lazy_entry;

typedef struct gu_state {
    uf__gufunc_layout *lay;
    int nsigs;
    uf__guvec_arg (*sig)[UF__LOOP_MAXARGS]; /* declared signatures */
    lazy_entry *lazy;
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

static int resolve_lazy(uf_func *f, gu_state *s, const int *types,
                        uf__guvec_arg *args, uf_error *err)
{
    size_t bytes = (size_t)s->lay->nargs * sizeof *types;
    for (int i = 0; i < s->nlazy; i++)
        if (memcmp(s->lazy[i].types, types, bytes) == 0) {
            memcpy(args, s->lazy[i].args,
                   (size_t)s->lay->nargs * sizeof *args);
            return 0;
        }
    if (uf__guvectorize_lazy_args(f->module->km, f->decl, s->lay, types,
                                  args, err) != 0)
        return err->code;
    if (s->nlazy == s->caplazy) {
        int cap = s->caplazy ? 2 * s->caplazy : 4;
        lazy_entry *grown = uf__realloc(s->lazy, (size_t)cap,
                                        sizeof *grown, err);
        if (grown == NULL)
            return err->code;
        s->lazy = grown;
        s->caplazy = cap;
    }
    lazy_entry *e = &s->lazy[s->nlazy++];
    memcpy(e->types, types, bytes);
    memcpy(e->args, args, (size_t)s->lay->nargs * sizeof *args);
    return 0;
}

int uf__gufunc_cuda_resolve(uf_func *f, const int *types,
                            uf__guvec_arg *args, uf_error *err)
{
    gu_state *s = state_of(f, err);
    if (s == NULL)
        return err->code;
    if (f->decl->nsignatures == 0)
        return resolve_lazy(f, s, types, args, err);
    /* as the CPU (gufunc.c): a signature taking the inputs' dtypes
     * exactly, else the first they cast to safely; one whose results the
     * given outputs accept (same_kind) before one they do not */
    const uf__gufunc_layout *lay = s->lay;
    int inputs_only = -1;
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < s->nsigs; i++) {
            bool fits = true, outs = true;
            for (int k = 0; k < lay->nin && fits; k++)
                fits = pass == 0 ? types[k] == (int)s->sig[i][k].dtype
                                 : uf_can_cast((uf_dtype)types[k],
                                               s->sig[i][k].dtype,
                                               UF_CASTING_SAFE);
            for (int k = lay->nin; k < lay->nargs && fits && outs; k++)
                outs = types[k] < 0 ||
                       uf_can_cast(s->sig[i][k].dtype, (uf_dtype)types[k],
                                   UF_CASTING_SAME_KIND);
            if (fits && !outs && inputs_only < 0)
                inputs_only = i;
            if (fits && outs) {
                memcpy(args, s->sig[i], (size_t)lay->nargs * sizeof *args);
                return 0;
            }
        }
    if (inputs_only >= 0) { /* the output's check then reports it */
        memcpy(args, s->sig[inputs_only], (size_t)lay->nargs * sizeof *args);
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
