/* Compiling vectorize kernels into ufunc loops, through the context's
 * loop cache: what is not cached yet is compiled in one module. */
#include <string.h>

#include "common/alloc.h"
#include "common/error_internal.h"
#include "compiler/context.h"
#include "compiler/cache/disk_cache.h"
#include "targets/cpu/cpu.h"
#include "ufunc/vectorize.h"

/* A cached loop (its descriptor) as the host runtime runs it. */
static uf__ufunc_loop host_loop(const uf__cached_loop *e)
{
    uf__ufunc_loop l = e->loop;
    l.fn = uf__rt_ufunc_loop;
    return l;
}

/* The output dtypes of a kernel returning `ret`: one per tuple element. */
static int output_types(const uf__kernel_decl *decl, const uf__type *ret,
                        uf_dtype *out, int *nout, uf_error *err)
{
    if (ret->kind == UF__T_SCALAR) {
        out[0] = ret->dtype;
        *nout = 1;
        return 0;
    }
    if (ret->kind == UF__T_TUPLE && ret->n >= 1 &&
        ret->n <= UF__LOOP_MAXARGS) {
        for (int i = 0; i < ret->n; i++) {
            if (ret->elts[i]->kind != UF__T_SCALAR)
                goto bad;
            out[i] = ret->elts[i]->dtype;
        }
        *nout = ret->n;
        return 0;
    }
bad:;
    char buf[128];
    uf__type_str(ret, buf, sizeof buf);
    return uf__error_set(err, UF_ERR_TYPING,
                         "vectorize kernel '%s' returns %s: a ufunc kernel "
                         "must return a number or a tuple of numbers",
                         decl->name, buf);
}

/* The checks a signature passes before typing. */
static int check_args(const uf__kernel_decl *decl, const uf__signature *sig,
                      uf_error *err)
{
    int nin = decl->def->u.funcdef.nparams;
    if (sig->nargs != nin)
        return uf__error_set(err, UF_ERR_TYPING,
                             "signature of '%s' has %d argument(s) but the "
                             "kernel takes %d", decl->name, sig->nargs, nin);
    if (nin + 1 > UF__LOOP_MAXARGS)
        return uf__error_set(err, UF_ERR_UNSUPPORTED,
                             "'%s' takes %d arguments: at most %d are "
                             "supported", decl->name, nin,
                             UF__LOOP_MAXARGS - 1);
    for (int i = 0; i < nin; i++) {
        if (sig->args[i]->kind != UF__T_SCALAR) {
            char buf[128];
            uf__type_str(sig->args[i], buf, sizeof buf);
            return uf__error_set(err, UF_ERR_TYPING,
                                 "vectorize kernel '%s': argument %d has "
                                 "type %s, ufunc arguments must be scalars",
                                 decl->name, i + 1, buf);
        }
    }
    return 0;
}

/* What a signature the cache does not have needs for compiling. */
typedef struct miss {
    int index; /* into sigs */
    uf__loop_key key;
    const uf__typed_func *tf;
    uf_dtype types[UF__LOOP_MAXARGS]; /* inputs then outputs */
    const uf_dtype *outs;
    int nout;
} miss;

/* The disk cache's entry for m->key loaded into the JIT and the loop
 * cache: 1; 0 on a miss (or an object that would not load: compiled
 * instead); -1 only when out of memory. */
static int disk_hit(uf__jit *jit, uf__loop_cache *cache, const char *dir,
                    miss *m, int nin, uf_error *err)
{
    uf__disk_entry de;
    if (!uf__disk_cache_load(dir, &m->key, nin, &de))
        return 0;
    int rc = 0;
    for (int k = 0; k < nin; k++)
        if (de.types[k] != m->types[k])
            goto out;
    const char *name = de.symbol;
    void *fn = NULL;
    uf_error local;
    uf_error_clear(&local);
    if (uf__jit_load_object(jit, de.obj, de.objlen, &name, &fn, 1,
                            &local) != 0 || !fn)
        goto out;
    rc = uf__loop_cache_add(cache, &m->key, fn, de.types, nin, de.nout,
                            de.symbol, NULL, err)
             ? 1
             : -1;
out:
    uf__disk_entry_release(&de);
    return rc;
}

int uf__vectorize_loops(uf_context *ctx, uf__kmodule *km, const char *text,
                        size_t len, const uf__kernel_decl *decl, int n,
                        const uf__signature *sigs, uf__ufunc_loop *loops,
                        int *nouts, const uf__cached_loop **entries,
                        int *bad, uf_error *err)
{
    int nin = decl->def->u.funcdef.nparams, nmiss = 0, at = -1, rc = 0;
    char dir[UF__DISK_CACHE_PATH_MAX];
    bool use_disk = uf__disk_cache_dir(decl->cache, dir, sizeof dir);
    char *obj = NULL;
    size_t objlen = 0;
    uf__jit *jit = uf__context_jit(ctx, err);
    uf__loop_cache *cache = jit ? uf__context_loops(ctx, err) : NULL;
    if (!cache)
        goto out;
    /* the keys name the text the kernel's code depends on, not the whole
     * module (`text`): editing another kernel keeps these loops cached */
    (void)text;
    (void)len;
    size_t klen = 0;
    char *ktext = uf__kernel_source(km, decl, &klen, err);
    if (!ktext) {
        rc = err->code;
        goto out;
    }
    miss *ms = uf__calloc((size_t)n, sizeof *ms, err);
    void **contigs = uf__calloc((size_t)n, sizeof *contigs, err);
    const uf__typed_func **tfs = uf__calloc((size_t)n, sizeof *tfs, err);
    const uf_dtype **outs = uf__calloc((size_t)n, sizeof *outs, err);
    char (*symbols)[UF__JIT_SYMBOL_MAX] =
        uf__calloc((size_t)n, sizeof *symbols, err);
    if (!ms || !contigs || !tfs || !outs || !symbols)
        goto fail;

    for (int i = 0; i < n; i++) {
        const uf__signature *sig = &sigs[i];
        const uf__cached_loop *hit;
        at = i;
        if (check_args(decl, sig, err) < 0)
            goto fail;
        miss *m = &ms[nmiss];
        if (uf__loop_key_make(&m->key, ktext, klen, decl, sig->args, nin,
                              sig->ret, jit, err) < 0)
            goto fail;
        if ((hit = uf__loop_cache_find(cache, &m->key)) != NULL) {
            loops[i] = host_loop(hit);
            nouts[i] = hit->nout;
            if (entries)
                entries[i] = hit;
            continue;
        }
        m->index = i;
        for (int k = 0; k < nin; k++)
            m->types[k] = sig->args[k]->dtype;
        int got = use_disk ? disk_hit(jit, cache, dir, m, nin, err) : 0;
        if (got < 0)
            goto fail;
        if (got > 0) {
            const uf__cached_loop *e = uf__loop_cache_find(cache, &m->key);
            loops[i] = host_loop(e);
            nouts[i] = e->nout;
            if (entries)
                entries[i] = e;
            continue;
        }
        m->tf = uf__infer(km, decl, sig->args, nin, sig->ret, err);
        if (m->tf == NULL ||
            output_types(decl, m->tf->ret, m->types + nin, &m->nout, err) < 0)
            goto fail;
        if (nin + m->nout > UF__LOOP_MAXARGS) {
            uf__error_set(err, UF_ERR_UNSUPPORTED,
                          "'%s' has too many operands", decl->name);
            goto fail;
        }
        /* the same signature twice in one list compiles once */
        bool dup = false;
        for (int j = 0; j < nmiss && !dup; j++)
            dup = strcmp(ms[j].key.sig, m->key.sig) == 0;
        if (dup)
            m->index = -1 - i; /* filled from its twin below */
        nmiss++;
    }
    at = -1;

    /* compile the misses (twins excluded) together */
    int ncompile = 0;
    for (int j = 0; j < nmiss; j++)
        if (ms[j].index >= 0) {
            tfs[ncompile] = ms[j].tf;
            outs[ncompile] = ms[j].types + nin;
            ncompile++;
        }
    if (ncompile > 0 && use_disk) {
        /* symbols named by the content of what is compiled together */
        uf__hash128 h;
        char stem[33];
        uf__hash128_init(&h);
        for (int j = 0; j < nmiss; j++)
            if (ms[j].index >= 0) {
                uf__hash128 k;
                uf__disk_key_hash(&ms[j].key, &k);
                uf__hash128_add(&h, &k, sizeof k);
            }
        uf__hash128_hex(&h, stem);
        if (uf__jit_ufunc_contigs_obj(jit, ncompile, tfs, outs, contigs,
                                      symbols, NULL, stem, &obj, &objlen,
                                      err) != 0)
            goto fail;
        for (int j = 0, c = 0; j < nmiss; j++)
            if (ms[j].index >= 0) {
                (void)uf__disk_cache_store(dir, &ms[j].key, symbols[c],
                                           ms[j].types, nin + ms[j].nout,
                                           ms[j].nout, obj, objlen);
                c++;
            }
    } else if (ncompile > 0 &&
               uf__jit_ufunc_contigs(jit, ncompile, tfs, outs, contigs,
                                     symbols, NULL, err) != 0)
        goto fail;
    for (int j = 0, c = 0; j < nmiss; j++) {
        miss *m = &ms[j];
        const uf__cached_loop *e = NULL;
        if (m->index >= 0) {
            /* no listing kept: ufunc/inspect.c makes one when asked */
            e = uf__loop_cache_add(cache, &m->key, contigs[c], m->types, nin,
                                   m->nout, symbols[c], NULL, err);
            c++;
        } else {
            e = uf__loop_cache_find(cache, &m->key);
            m->index = -1 - m->index;
        }
        if (!e)
            goto fail;
        loops[m->index] = host_loop(e);
        nouts[m->index] = e->nout;
        if (entries)
            entries[m->index] = e;
    }
    goto done;

fail:
    rc = err->code ? err->code : UF_ERR_NOMEM;
done:
    uf__free(obj);
    uf__free(ms);
    uf__free(contigs);
    uf__free(tfs);
    uf__free(outs);
    uf__free(symbols);
    uf__free(ktext);
out:
    if (!cache && rc == 0)
        rc = err->code;
    if (bad)
        *bad = at;
    return rc;
}
