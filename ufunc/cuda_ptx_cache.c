/* CUDA kernels' PTX in the disk cache (cuda_ptx_cache.h). */
#include <stdio.h>
#include <string.h>

#include "common/alloc.h"
#include "common/error_internal.h"
#include "compiler/cache/disk_cache.h"
#include "compiler/context.h"
#include "ufunc/cuda_ptx_cache.h"

/* The words kept beside the PTX: nparams, then each parameter's size. */
#define META_MAX UF__DISK_MAXMETA

/* What the key adds to the kernel's text: its types, its variant and
 * the compiler's choices; for guvectorize also its layout, each
 * operand's kind (array, one-element array, "()" by value) and whether
 * core views were typed 'C'. False when it does not fit in buf (the
 * kernel is then not cached: a cut key could name another kernel). */
static bool describe(const uf__cuda_kernel *k, const uf__nvvm_spec *spec,
                     const uf__nvvm_options *opts, char *buf, size_t size)
{
    size_t len = 0;
    for (int i = 0; i < k->nin + k->nout && len < size; i++)
        len += (size_t)snprintf(buf + len, size - len, "%s%s",
                                i == k->nin ? "->" : i ? "," : "",
                                uf_dtype_name(k->types[i]));
    if (len < size)
        len += (size_t)snprintf(buf + len, size - len,
                                "|layout=%d;ndim=%d;index32=%d;scalar=%x|",
                                (int)k->v.layout, k->v.ndim, k->v.index32,
                                (unsigned)k->v.scalar_in);
    if (spec->layout != NULL && len < size) {
        len += (size_t)snprintf(buf + len, size - len,
                                "gu=%s;core_c=%d;tag=%llx;kinds=",
                                spec->layout->text, (int)k->v.core_c,
                                (unsigned long long)k->tag);
        for (int i = 0; i < spec->layout->nargs && len < size; i++)
            len += (size_t)snprintf(buf + len, size - len, "%d",
                                    (int)spec->args[i].kind);
        if (len < size)
            len += (size_t)snprintf(buf + len, size - len, "|");
    }
    if (spec->kernel) /* a cuda.jit kernel: its arguments' full types */
        for (int i = 0; i < spec->tf->nargs && len < size; i++) {
            char t[64];
            uf__type_str(spec->tf->args[i], t, sizeof t);
            len += (size_t)snprintf(buf + len, size - len, "%s%s",
                                    i ? "," : "kernel=", t);
        }
    if (spec->reduce && len < size)
        len += (size_t)snprintf(buf + len, size - len, "reduce|");
    if (len + 1 >= size)
        return false;
    uf__nvvm_cache_tag(opts, buf + len, size - len);
    return strlen(buf) + 1 < size;
}

/* A hit: the file's PTX and the kernel's interface. */
static bool fetch(const uf__disk_use *u, uf__cuda_kernel *k, char **ptx)
{
    uf__disk_file file;
    if (!uf__disk_file_load(u->dir, &u->key, &file))
        return false;
    bool ok = file.nsyms == 1 && file.nmeta >= 1 &&
              file.meta[0] == file.nmeta - 1 && file.objlen > 0 &&
              ((const char *)file.obj)[file.objlen - 1] == '\0' &&
              strlen(file.syms[0]) < sizeof k->k.name;
    if (ok) {
        uf_error err;
        *ptx = uf__malloc(1, file.objlen, &err);
        ok = *ptx != NULL;
    }
    if (ok) {
        memcpy(*ptx, file.obj, file.objlen);
        memset(&k->k, 0, sizeof k->k);
        snprintf(k->k.name, sizeof k->k.name, "%s", file.syms[0]);
        k->k.nparams = file.meta[0];
        for (int i = 0; i < k->k.nparams; i++)
            k->k.param_sizes[i] = (uint32_t)file.meta[1 + i];
    }
    uf__disk_file_release(&file);
    return ok;
}

static void store(const uf__disk_use *u, const uf__cuda_kernel *k,
                  const char *ptx)
{
    if (k->k.has_status || k->k.nparams + 1 > META_MAX)
        return;
    int32_t meta[META_MAX];
    meta[0] = k->k.nparams;
    for (int i = 0; i < k->k.nparams; i++)
        meta[1 + i] = (int32_t)k->k.param_sizes[i];
    const char *sym = k->k.name;
    uf__disk_use_store(u, &sym, 1, meta, 1 + k->k.nparams, ptx,
                       strlen(ptx) + 1);
}

int uf__cuda_ptx_get(uf_func *f, uf__cuda_kernel *k,
                     const uf__nvvm_spec *spec, const uf__nvvm_options *opts,
                     char **ptx, uf_error *err)
{
    char sig[1000];
    bool keyed = describe(k, spec, opts, sig, sizeof sig);
    uf__jit *jit = uf__context_jit(f->module->ctx, err);
    if (jit == NULL)
        return err->code;
    uf__disk_use u = {0};
    if (keyed)
        uf__disk_use_init(&u, UF__OBJ_PTX, f->module->km, f->decl, sig,
                          jit);
    if (u.on && fetch(&u, k, ptx)) {
        uf__disk_use_release(&u);
        return 0;
    }
    uf__nvvm_ptx out;
    int rc = uf__nvvm_ufuncs_ptx(spec, 1, opts, &out, err);
    if (rc == 0) {
        k->k = out.kernels[0];
        k->sites = out.sites;
        out.sites = (uf__nvvm_sites){0};
        *ptx = out.ptx;
        out.ptx = NULL;
        if (u.on)
            store(&u, k, *ptx);
    }
    uf__nvvm_ptx_free(&out);
    uf__disk_use_release(&u);
    return rc;
}
