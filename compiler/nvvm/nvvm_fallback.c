/* PTX without libnvvm: LLVM 14's NVPTX backend (TOOLCHAIN.md). libdevice
 * is linked into the module when it is called, everything but the kernel
 * internalised so that globaldce drops the unused part of libdevice,
 * then O3 (with NVPTX's own NVVMReflect at the pipeline's start) and code
 * generation for sm_80 .. sm_86: LLVM 14 knows nothing newer, and its
 * sm_86 PTX (7.0) is accepted by ptxas and the driver for later GPUs. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/BitReader.h>
#include <llvm-c/Linker.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassBuilder.h>

#include "common/alloc.h"
#include "common/error_internal.h"
#include "compiler/nvvm/nvvm_internal.h"

void LLVMInitializeNVPTXTargetInfo(void);
void LLVMInitializeNVPTXTarget(void);
void LLVMInitializeNVPTXTargetMC(void);
void LLVMInitializeNVPTXAsmPrinter(void);

static pthread_once_t nvptx_once = PTHREAD_ONCE_INIT;

static void nvptx_init(void)
{
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
}

/* compute_90 / sm_90 -> "sm_86" at most, "sm_80" at least... of what
 * LLVM 14 knows */
static void cpu_of(const char *arch, char cpu[16])
{
    const char *d = strchr(arch, '_');
    int v = d ? atoi(d + 1) : 80;
    if (v > 86)
        v = 86;
    if (v < 35)
        v = 80;
    snprintf(cpu, 16, "sm_%d", v);
}

static int link_libdevice(LLVMContextRef ctx, LLVMModuleRef mod,
                          uf_error *err)
{
    size_t len;
    const void *bytes = uf__nvvm_libdevice(&len, err);
    if (!bytes)
        return err->code;
    LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRange(
        bytes, len, "libdevice.10.bc", 0);
    LLVMModuleRef ld = NULL;
    if (LLVMParseBitcodeInContext2(ctx, buf, &ld)) {
        LLVMDisposeMemoryBuffer(buf);
        return uf__error_set(err, UF_ERR_INTERNAL,
                             "NVPTX: cannot read libdevice.10.bc");
    }
    LLVMDisposeMemoryBuffer(buf);
    LLVMSetTarget(ld, LLVMGetTarget(mod));
    LLVMSetDataLayout(ld, LLVMGetDataLayoutStr(mod));
    if (LLVMLinkModules2(mod, ld)) /* consumes ld */
        return uf__error_set(err, UF_ERR_INTERNAL,
                             "NVPTX: linking libdevice failed");
    return 0;
}

static bool is_kernel(const char *name, const uf__nvvm_kernel *k, int n)
{
    for (int i = 0; i < n; i++)
        if (strcmp(name, k[i].name) == 0)
            return true;
    return false;
}

static void internalize(LLVMModuleRef mod, const uf__nvvm_kernel *k, int n)
{
    for (LLVMValueRef f = LLVMGetFirstFunction(mod); f;
         f = LLVMGetNextFunction(f)) {
        size_t len;
        const char *name = LLVMGetValueName2(f, &len);
        if (!LLVMIsDeclaration(f) && !is_kernel(name, k, n))
            LLVMSetLinkage(f, LLVMInternalLinkage);
    }
    for (LLVMValueRef g = LLVMGetFirstGlobal(mod); g;
         g = LLVMGetNextGlobal(g))
        if (!LLVMIsDeclaration(g))
            LLVMSetLinkage(g, LLVMInternalLinkage);
}

int uf__nvvm_fallback_compile(LLVMContextRef ctx, LLVMModuleRef mod,
                              const uf__nvvm_kernel *kernels, int nkernels,
                              const char *arch,
                              bool fastmath, char **ptx, size_t *ptxlen,
                              uf_error *err)
{
    pthread_once(&nvptx_once, nvptx_init);
    int rc = 0;
    LLVMTargetMachineRef tm = NULL;
    if (uf__nvvm_uses_libdevice(mod) &&
        (rc = link_libdevice(ctx, mod, err)) != 0)
        goto out;
    if (fastmath) /* libdevice's __nvvm_reflect("__CUDA_FTZ") */
        LLVMAddModuleFlag(mod, LLVMModuleFlagBehaviorOverride,
                          "nvvm-reflect-ftz", 16,
                          LLVMValueAsMetadata(LLVMConstInt(
                              LLVMInt32TypeInContext(ctx), 1, 0)));
    internalize(mod, kernels, nkernels);
    LLVMTargetRef target;
    char *msg = NULL;
    if (LLVMGetTargetFromTriple(UF__NVVM_TRIPLE, &target, &msg)) {
        rc = uf__error_set(err, UF_ERR_INTERNAL, "NVPTX: no target: %s",
                           msg ? msg : "");
        LLVMDisposeMessage(msg);
        goto out;
    }
    char cpu[16];
    cpu_of(arch, cpu);
    tm = LLVMCreateTargetMachine(target, UF__NVVM_TRIPLE, cpu, "",
                                 LLVMCodeGenLevelAggressive, LLVMRelocDefault,
                                 LLVMCodeModelDefault);
    if (!tm) {
        rc = uf__error_set(err, UF_ERR_INTERNAL,
                           "NVPTX: no target machine for %s", cpu);
        goto out;
    }
    LLVMPassBuilderOptionsRef po = LLVMCreatePassBuilderOptions();
    LLVMErrorRef e = LLVMRunPasses(mod, "globaldce,default<O3>", tm, po);
    LLVMDisposePassBuilderOptions(po);
    if (e) {
        char *m = LLVMGetErrorMessage(e);
        rc = uf__error_set(err, UF_ERR_INTERNAL, "NVPTX optimisation: %s", m);
        LLVMDisposeErrorMessage(m);
        goto out;
    }
    LLVMMemoryBufferRef buf = NULL;
    if (LLVMTargetMachineEmitToMemoryBuffer(tm, mod, LLVMAssemblyFile, &msg,
                                            &buf)) {
        rc = uf__error_set(err, UF_ERR_INTERNAL, "NVPTX code generation: %s",
                           msg ? msg : "");
        LLVMDisposeMessage(msg);
        goto out;
    }
    size_t len = LLVMGetBufferSize(buf);
    char *s = uf__malloc(len + 1, 1, err);
    if (!s) {
        rc = UF_ERR_NOMEM;
    } else {
        memcpy(s, LLVMGetBufferStart(buf), len);
        s[len] = '\0';
        *ptx = s;
        *ptxlen = strlen(s);
    }
    LLVMDisposeMemoryBuffer(buf);
out:
    if (tm)
        LLVMDisposeTargetMachine(tm);
    LLVMDisposeModule(mod);
    return rc;
}
