/* The codegen cache: see jit_codegen_cache.h. Files are the disk cache's
 * (compiler/cache/disk_cache.c: checksummed, written atomically), of kind
 * UF__OBJ_CODEGEN, the key's text being the whole IR, so that a hit is a
 * byte-for-byte equal module, not only an equal hash. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm/Config/llvm-config.h>

#include "common/alloc.h"
#include "common/error_internal.h"
#include "compiler/host/jit_codegen_cache.h"

static bool env_on(const char *var)
{
    const char *v = getenv(var);
    return v != NULL && *v != '\0' && strcmp(v, "0") != 0;
}

void uf__codegen_use_init(uf__codegen_use *u, LLVMModuleRef mod,
                          const char *passes, bool nontemporal,
                          const char *triple, const char *cpu,
                          const char *features)
{
    memset(u, 0, sizeof *u);
    const char *dir = getenv("UFJIT_CODEGEN_CACHE_DIR");
    if (dir == NULL || *dir == '\0' || env_on("UFJIT_DUMP_OPTIMIZED") ||
        env_on("UFJIT_DUMP_ASSEMBLY"))
        return;
    /* the feature string runs to a kilobyte: its hash stands for it */
    uf__hash128 h;
    char hex[33];
    uf__hash128_init(&h);
    uf__hash128_add(&h, features, strlen(features));
    uf__hash128_hex(&h, hex);
    uf__loop_key *k = &u->key;
    k->kind = UF__OBJ_CODEGEN;
    k->kernel = "module";
    if (snprintf(u->dir, sizeof u->dir, "%s", dir) >= (int)sizeof u->dir ||
        snprintf(k->sig, sizeof k->sig, "%s %s features %s LLVM %s", triple,
                 cpu, hex, LLVM_VERSION_STRING) >= (int)sizeof k->sig ||
        snprintf(k->opts, sizeof k->opts, "%s nontemporal=%d", passes,
                 nontemporal) >= (int)sizeof k->opts)
        return;
    u->ir = LLVMPrintModuleToString(mod);
    if (u->ir == NULL)
        return;
    k->text = u->ir;
    k->len = strlen(u->ir);
    u->on = true;
}

void uf__codegen_use_release(uf__codegen_use *u)
{
    if (u->ir != NULL)
        LLVMDisposeMessage(u->ir);
    u->ir = NULL;
    u->on = false;
}

int uf__codegen_use_fetch(const uf__codegen_use *u, const char *const *names,
                          int n, char **obj, size_t *objlen, int *nontemporal,
                          uf_error *err)
{
    uf__disk_file f;
    bool nomem = false;
    if (!u->on || !uf__disk_file_load_ex(u->dir, &u->key, &f, &nomem)) {
        if (!nomem)
            return 0;
        uf__error_nomem(err);
        return -1;
    }
    int hit = f.nsyms == n && f.nmeta == 1;
    for (int i = 0; hit && i < n; i++)
        hit = strcmp(f.syms[i], names[i]) == 0;
    if (hit) {
        if ((*obj = uf__malloc(f.objlen, 1, err)) != NULL) {
            memcpy(*obj, f.obj, f.objlen);
            *objlen = f.objlen;
            *nontemporal = f.meta[0];
        } else {
            hit = -1;
        }
    }
    uf__disk_file_release(&f);
    return hit;
}

void uf__codegen_use_store(const uf__codegen_use *u, const char *const *names,
                           int n, const void *obj, size_t objlen,
                           int nontemporal)
{
    int32_t meta = nontemporal;
    if (u->on && n >= 1 && n <= UF__DISK_MAXSYMS)
        (void)uf__disk_file_store(u->dir, &u->key, names, n, &meta, 1, obj,
                                  objlen, false);
}
