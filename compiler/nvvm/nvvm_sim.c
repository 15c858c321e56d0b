/* The CUDA kernel compiled for cudasim (nvvm.h): the same lowering and
 * entry as for NVVM, with the cudasim codegen target (the host's triple,
 * libm, the simulated thread's registers), compiled by the host JIT with
 * its host entry `NAME__sim(void **params)`. */
#include <stdio.h>
#include <string.h>

#include "common/error_internal.h"
#include "compiler/nvvm/nvvm_internal.h"

int uf__nvvm_ufunc_sim(uf__jit *jit, const uf__nvvm_spec *spec,
                       uf__nvvm_kernel *kernel, uf__nvvm_sites *sites,
                       uf__sim_kernel *out, uf_error *err)
{
    const uf__typed_func *tf = spec->tf;
    uf_error local;
    if (!err)
        err = &local;
    memset(out, 0, sizeof *out);
    memset(kernel, 0, sizeof *kernel);
    memset(sites, 0, sizeof *sites);
    uf__lower L;
    if (uf__jit_begin(jit, &L, err) != 0)
        return err->code;
    uf__codegen_nvvm g;
    uf__codegen_sim_init(&g, L.cg->triple, L.cg->data_layout);
    L.cg = &g.base;
    snprintf(kernel->name, sizeof kernel->name, "%s_%s", L.prefix,
             tf->decl ? tf->decl->name : "k");
    for (char *p = kernel->name; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
              (*p >= '0' && *p <= '9') || *p == '_'))
            *p = '_';
    kernel->name[sizeof kernel->name - 6] = '\0'; /* room for "__sim" */
    int rc = uf__nvvm_lower_kernel(&L, spec, kernel, err);
    if (rc != 0) {
        uf__jit_abort(&L);
        uf__codegen_nvvm_clear(&g);
        return rc;
    }
    char entry[80];
    snprintf(entry, sizeof entry, "%s__sim", kernel->name);
    const char *names[1] = {entry};
    void *addr = NULL;
    rc = uf__jit_finish(jit, &L, names, &addr, 1, NULL, err);
    if (rc != 0) {
        uf__codegen_nvvm_clear(&g);
        return rc;
    }
    *sites = g.sites;
    out->name = kernel->name;
    out->fn = (uf__sim_kernel_fn)(uintptr_t)addr;
    out->nparams = kernel->nparams;
    out->param_sizes = kernel->param_sizes;
    out->shared_bytes = kernel->shared_bytes;
    return 0;
}
