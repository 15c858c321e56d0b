/* One CUDA compilation (nvvm.h): a module of its own LLVM context with
 * the NVVM codegen target, the kernel and its entry lowered into it
 * (nvvm_kernel.c), cleaned for libnvvm (nvvm_ir.c), then PTX from libnvvm
 * (nvvm_lib.c) or LLVM's NVPTX backend (nvvm_fallback.c). */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/BitWriter.h>

#include "common/alloc.h"
#include "common/error_internal.h"
#include "compiler/nvvm/nvvm_internal.h"

/* "ufk<i>_<kernel>_<layout>[_i32]" (guvectorize: "_g<layout>[c]"), a
 * PTX identifier unique in its module */
static void kernel_name(int i, const uf__nvvm_spec *sp, char name[64])
{
    const uf__nvvm_variant *v = &sp->v;
    char lay[8];
    if (sp->kernel)
        snprintf(lay, sizeof lay, "k");
    else if (v->layout == UF__NVVM_ND)
        snprintf(lay, sizeof lay, "nd%d", v->ndim);
    else
        snprintf(lay, sizeof lay, "%s",
                 v->layout == UF__NVVM_STRIDED ? "s" : "c");
    snprintf(name, 64, "ufk%d_%.32s_%s%s%s%s", i,
             sp->tf->decl ? sp->tf->decl->name : "k", sp->layout ? "g" : "",
             lay, sp->layout && v->core_c ? "c" : "",
             v->index32 ? "_i32" : "");
    for (char *p = name; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
              (*p >= '0' && *p <= '9') || *p == '_'))
            *p = '_';
}

typedef struct nvvm_unit {
    uf__lower L;
    uf__codegen_nvvm g;
} nvvm_unit;

static void unit_release(nvvm_unit *u)
{
    LLVMContextRef ctx = u->L.ctx;
    uf__jit_abort(&u->L); /* builder, module, function table */
    if (ctx)
        LLVMContextDispose(ctx);
    uf__codegen_nvvm_clear(&u->g);
}

/* The kernels lowered into a fresh NVVM module, verified. */
static int unit_lower(nvvm_unit *u, const uf__nvvm_spec *specs, int n,
                      uf__nvvm_kernel *k, uf_error *err)
{
    memset(u, 0, sizeof *u);
    uf__codegen_nvvm_init(&u->g);
    uf__lower *L = &u->L;
    L->cg = &u->g.base;
    L->ctx = LLVMContextCreate();
    snprintf(L->prefix, sizeof L->prefix, "nv");
    L->mod = LLVMModuleCreateWithNameInContext("ufjit", L->ctx);
    LLVMSetTarget(L->mod, L->cg->triple);
    LLVMSetDataLayout(L->mod, L->cg->data_layout);
    L->b = LLVMCreateBuilderInContext(L->ctx);
    int rc = 0;
    for (int i = 0; i < n && rc == 0; i++) {
        memset(&k[i], 0, sizeof k[i]);
        kernel_name(i, &specs[i], k[i].name);
        rc = uf__nvvm_lower_kernel(L, &specs[i], &k[i], err);
    }
    if (rc != 0)
        return rc;
    char *msg = NULL;
    if (LLVMVerifyModule(L->mod, LLVMReturnStatusAction, &msg))
        rc = uf__error_set(err, UF_ERR_INTERNAL,
                           "NVVM IR of kernel '%s' does not verify: %s",
                           k[0].name, msg ? msg : "");
    LLVMDisposeMessage(msg);
    return rc;
}

static const char *pick_arch(const uf__nvvm_options *o, char buf[24])
{
    const char *a = o && o->arch ? o->arch : getenv("UFJIT_CUDA_ARCH");
    if (!a || !*a)
        a = "compute_80";
    if (strncmp(a, "sm_", 3) == 0) /* libnvvm spells it compute_XY */
        snprintf(buf, 24, "compute_%.12s", a + 3);
    else
        snprintf(buf, 24, "%.23s", a);
    return buf;
}

static uf__nvvm_backend pick_backend(const uf__nvvm_options *o)
{
    if (o && o->backend != UF__NVVM_AUTO)
        return o->backend;
    const char *e = getenv("UFJIT_CUDA_BACKEND");
    if (e && strcmp(e, "nvptx") == 0)
        return UF__NVVM_NVPTX;
    if (e && strcmp(e, "libnvvm") == 0)
        return UF__NVVM_LIBNVVM;
    return uf__nvvm_lib_load(NULL) == 0 ? UF__NVVM_LIBNVVM : UF__NVVM_NVPTX;
}

/* PTX modules compiled by this process (the disk cache's tests). */
static _Atomic uint64_t ncompiles;

uint64_t uf__nvvm_ncompiles(void)
{
    return atomic_load(&ncompiles);
}

const char *uf__nvvm_cache_tag(const uf__nvvm_options *opts, char *buf,
                               size_t size)
{
    char arch[24];
    const uf__nvvm_toolkit *t = uf__nvvm_toolkit_get();
    bool nvvm = pick_backend(opts) == UF__NVVM_LIBNVVM;
    snprintf(buf, size,
             "arch=%s;backend=%s;nvvm=%d.%d;ir=%d.%d;fastmath=%d;extra=%s",
             pick_arch(opts, arch), nvvm ? "libnvvm" : "nvptx",
             nvvm ? t->nvvm_major : 0, nvvm ? t->nvvm_minor : 0,
             nvvm ? t->nvvm_ir_major : 0, nvvm ? t->nvvm_ir_minor : 0,
             opts && opts->fastmath, opts && opts->extra ? opts->extra : "");
    size_t len = strlen(buf);
    if (opts && opts->max_registers > 0 && len < size)
        snprintf(buf + len, size - len, ";maxreg=%d", opts->max_registers);
    return buf;
}

static void dump_ptx(const uf__nvvm_ptx *p)
{
    const char *v = getenv("UFJIT_DUMP_PTX");
    if (v && *v && strcmp(v, "0") != 0)
        fprintf(stderr, "---- PTX %s (%s, %s) ----\n%s\n", p->kernels[0].name,
                p->backend == UF__NVVM_LIBNVVM ? "libnvvm" : "nvptx",
                p->arch, p->ptx);
}

int uf__nvvm_ufuncs_ptx(const uf__nvvm_spec *specs, int n,
                        const uf__nvvm_options *opts, uf__nvvm_ptx *out,
                        uf_error *err)
{
    uf_error local;
    if (!err)
        err = &local;
    memset(out, 0, sizeof *out);
    if (n < 1)
        return uf__error_set(err, UF_ERR_INVALID, "no kernel to compile");
    if (!(out->kernels = uf__calloc((size_t)n, sizeof *out->kernels, err)))
        return UF_ERR_NOMEM;
    out->nkernels = n;
    nvvm_unit u;
    int rc = unit_lower(&u, specs, n, out->kernels, err);
    if (rc != 0)
        goto done;
    pick_arch(opts, out->arch);
    out->backend = pick_backend(opts);
    if (opts && opts->max_registers > 0) /* both backends read it */
        uf__nvvm_annotate_maxnreg(u.L.mod, out->kernels, n,
                                  opts->max_registers);
    bool full = uf__nvvm_libdevice_full();
    int maj, min;
    uf__nvvm_lib_ir_version(&maj, &min);
    if (out->backend == UF__NVVM_NVPTX) {
        /* the part of libdevice it calls, linked before the cleanup; the
         * fallback links the whole one when declarations are left */
        if (!full && (rc = uf__nvvm_link_libdevice(u.L.mod, err)) != 0)
            goto done;
        if ((rc = uf__nvvm_atomics_link(u.L.mod, err)) != 0)
            goto done;
        uf__nvvm_cleanup(u.L.mod, maj, min);
        LLVMModuleRef mod = u.L.mod;
        u.L.mod = NULL; /* the fallback consumes it */
        rc = uf__nvvm_fallback_compile(u.L.ctx, mod, out->kernels, n,
                                       out->arch, opts && opts->fastmath,
                                       &out->ptx, &out->len, err);
    } else {
        char *text = NULL, *atomics = NULL;
        const void *ld = NULL;
        size_t ldlen = 0;
        if (uf__nvvm_uses_libdevice(u.L.mod)) {
            if (full && !(ld = uf__nvvm_libdevice(&ldlen, err)))
                rc = err->code;
            else if (!full &&
                     (rc = uf__nvvm_libdevice_text(u.L.mod, &text, err)) == 0)
                ld = text, ldlen = strlen(text);
        }
        if (rc == 0)
            rc = uf__nvvm_atomics_text(u.L.mod, true, maj, min, &atomics,
                                       err);
        if (rc != 0) {
            uf__free(text);
            goto done;
        }
        uf__nvvm_cleanup(u.L.mod, maj, min);
        LLVMMemoryBufferRef bc = LLVMWriteBitcodeToMemoryBuffer(u.L.mod);
        rc = uf__nvvm_lib_compile(LLVMGetBufferStart(bc), LLVMGetBufferSize(bc),
                                  ld, ldlen, text != NULL, atomics,
                                  out->arch, opts,
                                  &out->ptx,
                                  &out->len, err);
        LLVMDisposeMemoryBuffer(bc);
        uf__free(text);
        uf__free(atomics);
    }
    if (rc == 0) {
        out->sites = u.g.sites;
        memset(&u.g.sites, 0, sizeof u.g.sites);
        dump_ptx(out);
        atomic_fetch_add(&ncompiles, 1);
    }
done:
    unit_release(&u);
    if (rc != 0)
        uf__nvvm_ptx_free(out);
    return rc;
}

void uf__nvvm_ptx_free(uf__nvvm_ptx *p)
{
    if (!p)
        return;
    uf__free(p->ptx);
    uf__free(p->kernels);
    uf__nvvm_sites_clear(&p->sites);
    memset(p, 0, sizeof *p);
}

char *uf__nvvm_ufuncs_ir(const uf__nvvm_spec *specs, int n, uf_error *err)
{
    uf__nvvm_kernel *k = uf__calloc((size_t)(n > 0 ? n : 1), sizeof *k, err);
    if (!k)
        return NULL;
    nvvm_unit u;
    char *text = NULL;
    if (unit_lower(&u, specs, n, k, err) == 0) {
        int maj, min;
        uf__nvvm_lib_ir_version(&maj, &min);
        uf__nvvm_cleanup(u.L.mod, maj, min);
        char *s = LLVMPrintModuleToString(u.L.mod);
        text = uf__strdup(s, err);
        LLVMDisposeMessage(s);
    }
    unit_release(&u);
    uf__free(k);
    return text;
}
