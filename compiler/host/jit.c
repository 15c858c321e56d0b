/* The host JIT: ORC LLJIT with a target machine for the host CPU (name and
 * features), libm/libmvec and the runtime helpers resolvable, and the
 * compile path every kernel takes: verify, default<O3>, listings, add to
 * the JIT, look up (TOOLCHAIN.md has the measured facts behind this). */
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/Core.h>
#include <llvm-c/Error.h>
#include <llvm-c/ExecutionEngine.h>
#include <llvm-c/IRReader.h>
#include <llvm-c/LLJIT.h>
#include <llvm-c/Orc.h>
#include <llvm-c/OrcEE.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassBuilder.h>

#include "common/alloc.h"
#include "common/error_internal.h"
#include "compiler/cache/cache.h"
#include "compiler/host/codegen_host.h"
#include "compiler/host/jit.h"
#include "compiler/host/jit_codegen_cache.h"
#include "compiler/host/jit_cpu.h"
#include "compiler/host/jit_nontemporal.h"
#include "compiler/host/jit_passes.h"
#include "compiler/host/jit_runtime_symbols.h"
#include "compiler/host/llvm_fatal.h"
#include "compiler/host/llvm_options.h"
#include "compiler/lower/lower.h"

struct uf__jit {
    LLVMOrcLLJITRef lljit;
    /* our own target machine (LLJIT owns another): optimisation (also
     * uf__jit_run_passes), assembly listings, object code. Neither is
     * thread-safe: compilations hold `lock` from optimisation to symbol
     * lookup */
    LLVMTargetMachineRef tm;
    pthread_mutex_t lock;
    char *triple, *cpu, *features, *layout;
    bool avx512;
    uf__host_vmath vmath; /* libmvec (and SLEEF) variants usable */
    bool have_mvec;
    char vmath_text[512]; /* uf__jit_vector_math */
    /* what this JIT's compilations generate code for: the host CPU */
    uf__codegen_host host;
    atomic_uint_fast64_t seq; /* unique symbol prefixes */
    atomic_uint_fast64_t ncompiles; /* optimiser runs, for tests */
    atomic_uint_fast64_t ncodegen_hits; /* of them, codegen cache hits */
    /* object files added (disk cache), by content hash: an object holding
     * several signatures is added once; guarded by `lock` */
    uf__hash128 *objects;
    int nobjects, capobjects;
    int load_failures; /* a failed load poisons its symbols: new prefixes */
    /* the runtime helpers generated code calls by name (uf__jit_new) */
    const uf__runtime_symbol *rt;
    int nrt;
};

/* Process-wide: LLVM's target registry is (initialised once for every
 * uf__jit of the process). */
static pthread_once_t llvm_once = PTHREAD_ONCE_INIT;
static bool llvm_ready;

/* LLVM's code generator reads some options from process-wide globals
 * (llvm_options.h): set for each compilation, with this lock held from
 * setting them until its code generation is over (every code generation
 * runs in this file, each inside one uf__jit's lock, taken first). The
 * lock and the saved values are process-wide, not per uf__jit, because
 * the options are: LLVM's cl::opt values are globals of the LLVM library,
 * shared by every context of the process, so a per-context lock would let
 * two contexts change them under each other's code generation. Everything
 * else a compilation uses (target machines, JIT, codegen target) is per
 * uf__jit. */
static pthread_mutex_t codegen_lock = PTHREAD_MUTEX_INITIALIZER;
static int codegen_prev_lsr = -1, codegen_prev_mlicm = -1;

/* Vectorize loops (the short pipeline, jit_passes.h) are generated
 * without loop strength reduction: it was 2.7-5.8M of 14-38M
 * instructions per signature (rel_diff f64, gaussian_pdf f32,
 * polar_distance f32) for the same run time of those loops (bench:
 * add/triad/rel_diff/hypot/gaussian_pdf/sine/polar_distance, 16 to 10000
 * elements). Other modules keep LLVM's default. Blocked loops (lower.h)
 * are generated without machine LICM too (jit_passes.h: polar_distance
 * float32 ~2M instructions less, no constant spilled across its calls). */
static void codegen_begin(const char *passes)
{
    pthread_mutex_lock(&codegen_lock);
    codegen_prev_lsr = uf__llvm_disable_lsr(passes == uf__passes_short ||
                                            passes == uf__passes_blocked);
    codegen_prev_mlicm =
        uf__llvm_disable_machine_licm(passes == uf__passes_blocked);
}

static void codegen_end(void)
{
    if (codegen_prev_lsr >= 0)
        uf__llvm_disable_lsr(codegen_prev_lsr);
    if (codegen_prev_mlicm >= 0)
        uf__llvm_disable_machine_licm(codegen_prev_mlicm);
    pthread_mutex_unlock(&codegen_lock);
}

static void llvm_init(void)
{
    uf__llvm_install_fatal_handlers();
    llvm_ready = !LLVMInitializeNativeTarget() &&
                 !LLVMInitializeNativeAsmPrinter() &&
                 !LLVMInitializeNativeAsmParser();
}

/* Consumes an LLVMErrorRef into err as UF_ERR_INTERNAL. */
static int llvm_error(uf_error *err, LLVMErrorRef e, const char *what)
{
    char *msg = LLVMGetErrorMessage(e);
    uf__error_set(err, UF_ERR_INTERNAL, "LLVM: %s: %s", what,
                  msg ? msg : "unknown error");
    LLVMDisposeErrorMessage(msg);
    return UF_ERR_INTERNAL;
}

/* A copy of an LLVM-allocated message in our allocator. */
static char *take_message(char *msg, uf_error *err)
{
    char *s = uf__strdup(msg ? msg : "", err);
    LLVMDisposeMessage(msg);
    return s;
}

/* UFJIT_ENABLE_PROFILING=1 (Numba's NUMBA_ENABLE_PROFILING): every object
 * the JIT links is announced to LLVM's perf listener, which writes
 * jit-PID.dump (in $JITDUMPDIR, else under ~/.debug/jit) for `perf record
 * -k 1` then `perf inject --jit`: samples in JIT code get the functions'
 * names (uf0_contig0, uf1_nt...) instead of bare addresses. */
static bool profiling_on(void)
{
    const char *v = getenv("UFJIT_ENABLE_PROFILING");
    return v && strcmp(v, "1") == 0;
}

/* The object layer LLJIT makes by default on ELF hosts (RuntimeDyld with
 * a section memory manager), with the perf listener registered. The
 * listener is process-wide and never freed: LLVM writes its dump file
 * until exit. NULL from LLVM (built without perf support): no listener. */
static LLVMJITEventListenerRef perf_listener;

static void make_perf_listener(void)
{
#ifndef UFJIT_NO_PERF_LISTENER /* (cmake/llvm.cmake: static LLVM) */
    perf_listener = LLVMCreatePerfJITEventListener();
#endif
}

static LLVMOrcObjectLayerRef perf_layer(void *ctx,
                                        LLVMOrcExecutionSessionRef es,
                                        const char *triple)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    (void)ctx, (void)triple;
    pthread_once(&once, make_perf_listener);
    LLVMOrcObjectLayerRef layer =
        LLVMOrcCreateRTDyldObjectLinkingLayerWithSectionMemoryManager(es);
    if (perf_listener != NULL)
        LLVMOrcRTDyldObjectLinkingLayerRegisterJITEventListener(
            layer, perf_listener);
    return layer;
}

static LLVMTargetMachineRef make_tm(const uf__jit *jit, uf_error *err)
{
    LLVMTargetRef target;
    char *msg = NULL;
    if (LLVMGetTargetFromTriple(jit->triple, &target, &msg)) {
        uf__error_set(err, UF_ERR_INTERNAL, "LLVM: no target for %s: %s",
                      jit->triple, msg ? msg : "");
        LLVMDisposeMessage(msg);
        return NULL;
    }
    LLVMTargetMachineRef tm = LLVMCreateTargetMachine(
        target, jit->triple, jit->cpu, jit->features,
        LLVMCodeGenLevelAggressive, LLVMRelocDefault,
        LLVMCodeModelJITDefault);
    if (!tm)
        uf__error_set(err, UF_ERR_INTERNAL,
                      "LLVM: cannot create a target machine for %s",
                      jit->cpu);
    return tm;
}

/* The target's runtime helpers (uf__jit_new), then the compiler's own
 * (jit_runtime_symbols.c), as absolute symbols of this process: named, not
 * called at their address, so that object code in the disk cache runs in
 * other processes too. */
static int define_runtime(uf__jit *jit, uf_error *err)
{
    int nown;
    const uf__runtime_symbol *own = uf__jit_own_symbols(&nown);
    int n = jit->nrt + nown;
    LLVMJITCSymbolMapPair *pairs = uf__calloc((size_t)n, sizeof *pairs, err);
    if (!pairs)
        return UF_ERR_NOMEM;
    for (int i = 0; i < n; i++) {
        uf__runtime_symbol s = i < jit->nrt ? jit->rt[i] : own[i - jit->nrt];
        pairs[i].Name = LLVMOrcLLJITMangleAndIntern(jit->lljit, s.name);
        pairs[i].Sym.Address = (LLVMOrcExecutorAddress)(uintptr_t)s.addr;
        pairs[i].Sym.Flags.GenericFlags =
            LLVMJITSymbolGenericFlagsExported |
            LLVMJITSymbolGenericFlagsCallable;
        pairs[i].Sym.Flags.TargetFlags = 0;
    }
    LLVMOrcMaterializationUnitRef mu = LLVMOrcAbsoluteSymbols(pairs,
                                                              (size_t)n);
    uf__free(pairs);
    LLVMErrorRef e = LLVMOrcJITDylibDefine(
        LLVMOrcLLJITGetMainJITDylib(jit->lljit), mu);
    if (e) {
        LLVMOrcDisposeMaterializationUnit(mu);
        return llvm_error(err, e, "defining runtime symbols");
    }
    return 0;
}

uf__jit *uf__jit_new(const uf__runtime_symbol *rt, int nrt, uf_error *err)
{
    uf_error local;
    if (!err)
        err = &local;
    pthread_once(&llvm_once, llvm_init);
    if (!llvm_ready) {
        uf__error_set(err, UF_ERR_INTERNAL,
                      "LLVM: the native target is not available");
        return NULL;
    }
    uf__jit *jit = uf__calloc(1, sizeof *jit, err);
    if (!jit)
        return NULL;
    if (pthread_mutex_init(&jit->lock, NULL) != 0) {
        uf__free(jit);
        uf__error_set(err, UF_ERR_INTERNAL, "cannot create a mutex");
        return NULL;
    }
    atomic_init(&jit->seq, 0);
    atomic_init(&jit->ncompiles, 0);
    jit->rt = rt;
    jit->nrt = nrt;
    if (!(jit->triple = take_message(LLVMGetDefaultTargetTriple(), err)) ||
        !(jit->cpu = take_message(LLVMGetHostCPUName(), err)) ||
        !(jit->features = take_message(LLVMGetHostCPUFeatures(), err)) ||
        uf__jit_cpu_override(&jit->cpu, &jit->features, err) != 0)
        goto fail;
    jit->avx512 = uf__jit_cpu_has(jit->features, "avx512f");

    if (!(jit->tm = make_tm(jit, err)))
        goto fail;
    LLVMTargetDataRef td = LLVMCreateTargetDataLayout(jit->tm);
    jit->layout = take_message(LLVMCopyStringRepOfTargetData(td), err);
    LLVMDisposeTargetData(td);
    if (!jit->layout)
        goto fail;

    /* LLJIT gets its own target machine: the builder takes ownership */
    LLVMTargetMachineRef jit_tm = make_tm(jit, err);
    if (!jit_tm)
        goto fail;
    LLVMOrcLLJITBuilderRef builder = LLVMOrcCreateLLJITBuilder();
    LLVMOrcLLJITBuilderSetJITTargetMachineBuilder(
        builder, LLVMOrcJITTargetMachineBuilderCreateFromTargetMachine(jit_tm));
    if (profiling_on())
        LLVMOrcLLJITBuilderSetObjectLinkingLayerCreator(builder, perf_layer,
                                                        NULL);
    LLVMErrorRef e = LLVMOrcCreateLLJIT(&jit->lljit, builder);
    if (e) {
        jit->lljit = NULL;
        llvm_error(err, e, "creating the JIT");
        goto fail;
    }

    /* libm is linked; libmvec usually is not and is loaded on demand: both
     * visible to the process search generator (handles stay open) */
    dlopen("libm.so.6", RTLD_NOW | RTLD_GLOBAL);
    /* glibc's vector math (libmvec) is on unless UFJIT_ENABLE_LIBMVEC=0:
     * it is within 4 ulp of libm (tests/test_mvec_ulp.c measures every
     * mapped function), not bit-identical to it, so comparisons with
     * Numba without SVML (which calls libm) bit for bit turn it off */
    const char *mv = getenv("UFJIT_ENABLE_LIBMVEC");
    bool mvec_off = mv && strcmp(mv, "0") == 0;
    if (!mvec_off && dlopen("libmvec.so.1", RTLD_NOW | RTLD_GLOBAL)) {
        bool avx2 = uf__jit_cpu_has(jit->features, "avx2");
        jit->have_mvec = true;
        uf__host_mvec_probe(avx2, jit->avx512, jit->vmath.mask);
        /* SLEEF where it was measured faster: only beside libmvec, so
         * UFJIT_ENABLE_LIBMVEC=0 still means libm's results bit for bit */
        uf__host_sleef_probe(avx2, jit->avx512, &jit->vmath);
        /* and ufjit's own inline code where that was faster still */
        uf__host_inline_probe(avx2, jit->avx512,
                              uf__jit_cpu_has(jit->features, "fma"),
                              &jit->vmath);
        uf__host_vmath_describe(&jit->vmath, jit->vmath_text,
                                sizeof jit->vmath_text);
    } else {
        snprintf(jit->vmath_text, sizeof jit->vmath_text, "%s",
                 mvec_off ? "scalar libm (UFJIT_ENABLE_LIBMVEC=0)"
                          : "scalar libm (no usable libmvec)");
    }
    uf__codegen_host_init(&jit->host, jit->triple, jit->layout, jit->cpu,
                          jit->features, jit->avx512,
                          jit->have_mvec ? &jit->vmath : NULL);
    LLVMOrcDefinitionGeneratorRef gen;
    e = LLVMOrcCreateDynamicLibrarySearchGeneratorForProcess(
        &gen, LLVMOrcLLJITGetGlobalPrefix(jit->lljit), NULL, NULL);
    if (e) {
        llvm_error(err, e, "process symbol generator");
        goto fail;
    }
    LLVMOrcJITDylibAddGenerator(LLVMOrcLLJITGetMainJITDylib(jit->lljit), gen);
    if (define_runtime(jit, err) != 0)
        goto fail;
    return jit;

fail:
    uf__jit_free(jit);
    return NULL;
}

void uf__jit_free(uf__jit *jit)
{
    if (!jit)
        return;
    if (jit->lljit) {
        LLVMErrorRef e = LLVMOrcDisposeLLJIT(jit->lljit);
        if (e)
            LLVMConsumeError(e);
    }
    if (jit->tm)
        LLVMDisposeTargetMachine(jit->tm);
    pthread_mutex_destroy(&jit->lock);
    uf__free(jit->objects);
    uf__free(jit->triple);
    uf__free(jit->cpu);
    uf__free(jit->features);
    uf__free(jit->layout);
    uf__free(jit);
}

const char *uf__jit_host_cpu(const uf__jit *jit)
{
    return jit->cpu;
}

const char *uf__jit_host_features(const uf__jit *jit)
{
    return jit->features;
}

bool uf__jit_have_mvec(const uf__jit *jit)
{
    return jit->have_mvec;
}

const char *uf__jit_vector_math(const uf__jit *jit)
{
    return jit->vmath_text;
}

int uf__jit_begin(uf__jit *jit, uf__lower *L, uf_error *err)
{
    memset(L, 0, sizeof *L);
    unsigned long long n = (unsigned long long)atomic_fetch_add(&jit->seq, 1);
    snprintf(L->prefix, sizeof L->prefix, "uf%llu", n);
    L->tsc = LLVMOrcCreateNewThreadSafeContext();
    if (!L->tsc)
        return uf__error_nomem(err);
    L->cg = &jit->host.base;
    L->ctx = LLVMOrcThreadSafeContextGetContext(L->tsc);
    L->mod = LLVMModuleCreateWithNameInContext(L->prefix, L->ctx);
    LLVMSetTarget(L->mod, L->cg->triple);
    LLVMSetDataLayout(L->mod, L->cg->data_layout);
    L->b = LLVMCreateBuilderInContext(L->ctx);
    return 0;
}

static void lower_release(uf__lower *L, bool dispose_module)
{
    if (L->b)
        LLVMDisposeBuilder(L->b);
    if (dispose_module && L->mod)
        LLVMDisposeModule(L->mod);
    if (L->tsc)
        LLVMOrcDisposeThreadSafeContext(L->tsc);
    uf__free(L->fns);
    L->b = NULL;
    L->mod = NULL;
    L->tsc = NULL;
    L->fns = NULL;
}

void uf__jit_abort(uf__lower *L)
{
    lower_release(L, true);
}

static void dump_if(const char *var, const char *title, LLVMModuleRef mod)
{
    const char *v = getenv(var);
    if (!v || !*v || strcmp(v, "0") == 0)
        return;
    char *s = LLVMPrintModuleToString(mod);
    fprintf(stderr, "---- %s ----\n%s\n", title, s);
    LLVMDisposeMessage(s);
}

/* Host assembly of a copy of the module (emission runs codegen passes
 * that change the IR, and the JIT compiles the original). */
static char *emit_asm(uf__jit *jit, LLVMModuleRef mod, uf_error *err)
{
    LLVMModuleRef copy = LLVMCloneModule(mod);
    LLVMMemoryBufferRef buf = NULL;
    char *msg = NULL;
    if (LLVMTargetMachineEmitToMemoryBuffer(jit->tm, copy, LLVMAssemblyFile,
                                            &msg, &buf)) {
        uf__error_set(err, UF_ERR_INTERNAL, "LLVM: assembly listing: %s",
                      msg ? msg : "");
        LLVMDisposeMessage(msg);
        LLVMDisposeModule(copy);
        return NULL;
    }
    LLVMDisposeModule(copy);
    size_t len = LLVMGetBufferSize(buf);
    char *s = uf__malloc(len + 1, 1, err);
    if (s) {
        memcpy(s, LLVMGetBufferStart(buf), len);
        s[len] = '\0';
    }
    LLVMDisposeMemoryBuffer(buf);
    return s;
}

/* The pipeline `passes` on `mod` with jit's target machine (its cost
 * model: vector widths, CPU features), vectorisers and unrolling on;
 * called with jit->lock held. */
static LLVMErrorRef run_pipeline(uf__jit *jit, LLVMModuleRef mod,
                                 const char *passes)
{
    LLVMPassBuilderOptionsRef opts = LLVMCreatePassBuilderOptions();
    LLVMPassBuilderOptionsSetLoopVectorization(opts, 1);
    LLVMPassBuilderOptionsSetSLPVectorization(opts, 1);
    LLVMPassBuilderOptionsSetLoopInterleaving(opts, 1);
    LLVMPassBuilderOptionsSetLoopUnrolling(opts, 1);
    LLVMErrorRef e = LLVMRunPasses(mod, passes, jit->tm, opts);
    LLVMDisposePassBuilderOptions(opts);
    return e;
}

int uf__jit_run_passes(uf__jit *jit, uf__lower *L, const char *passes,
                       uf_error *err)
{
    pthread_mutex_lock(&jit->lock);
    LLVMErrorRef e = run_pipeline(jit, L->mod, passes);
    pthread_mutex_unlock(&jit->lock);
    if (e) {
        char *msg = LLVMGetErrorMessage(e);
        uf__error_set(err, UF_ERR_INTERNAL, "LLVM optimisation: %s", msg);
        LLVMDisposeErrorMessage(msg);
        return err->code;
    }
    return 0;
}

/* L's pipeline (NULL: O3) and non-temporal stores (L->nontemporal), plus
 * the listings (or the optimised IR alone into *ir); called with
 * jit->lock held. */
static int optimise(uf__jit *jit, uf__lower *L, uf__jit_listing *listing,
                    char **ir, uf_error *err)
{
    LLVMModuleRef mod = L->mod;
    const char *passes = L->passes;
    LLVMErrorRef e = run_pipeline(jit, mod, passes ? passes : "default<O3>");
    if (e)
        return llvm_error(err, e, "optimisation");
    if (L->nontemporal)
        L->nontemporal_stores = uf__jit_mark_nontemporal(mod);
    dump_if("UFJIT_DUMP_OPTIMIZED", "optimised LLVM IR", mod);
    const char *dump_asm = getenv("UFJIT_DUMP_ASSEMBLY");
    bool want_asm = (listing != NULL) ||
                    (dump_asm && *dump_asm && strcmp(dump_asm, "0") != 0);
    char *text = NULL;
    if (want_asm && !(text = emit_asm(jit, mod, err)))
        return err->code;
    if (dump_asm && *dump_asm && strcmp(dump_asm, "0") != 0)
        fprintf(stderr, "---- assembly ----\n%s\n", text);
    if (listing) {
        listing->asm_text = text;
        listing->llvm_ir = take_message(LLVMPrintModuleToString(mod), err);
        if (!listing->llvm_ir) {
            uf__free(listing->asm_text);
            listing->asm_text = NULL;
            return err->code;
        }
    } else {
        uf__free(text);
    }
    if (ir && !(*ir = take_message(LLVMPrintModuleToString(mod), err)))
        return err->code;
    return 0;
}

int uf__jit_finish(uf__jit *jit, uf__lower *L, const char *const *names,
                   void **addrs, int n, uf__jit_listing *listing,
                   uf_error *err)
{
    return uf__jit_finish_all(jit, L, names, addrs, n, listing, NULL, NULL,
                              NULL, err);
}

/* Records an added object's hash: 1 when it was there already, 0 when
 * recorded now, -1 when memory ran out (err set: the call fails, as with
 * any allocation). Called with jit->lock held. */
static int object_seen(uf__jit *jit, const uf__hash128 *h, uf_error *err)
{
    for (int i = 0; i < jit->nobjects; i++)
        if (jit->objects[i].a == h->a && jit->objects[i].b == h->b)
            return 1;
    if (jit->nobjects == jit->capobjects) {
        int cap = jit->capobjects ? 2 * jit->capobjects : 8;
        uf__hash128 *o = uf__realloc(jit->objects, (size_t)cap, sizeof *o,
                                     err);
        if (!o)
            return -1;
        jit->objects = o;
        jit->capobjects = cap;
    }
    jit->objects[jit->nobjects++] = *h;
    return 0;
}

/* Machine code of the optimised module as an object file (the module is
 * consumed by code generation: the caller disposes of it). */
static int emit_object(uf__jit *jit, LLVMModuleRef mod, char **obj,
                       size_t *objlen, uf_error *err)
{
    LLVMMemoryBufferRef buf = NULL;
    char *msg = NULL;
    if (LLVMTargetMachineEmitToMemoryBuffer(jit->tm, mod, LLVMObjectFile,
                                            &msg, &buf)) {
        uf__error_set(err, UF_ERR_INTERNAL, "LLVM: object emission: %s",
                      msg ? msg : "");
        LLVMDisposeMessage(msg);
        return UF_ERR_INTERNAL;
    }
    size_t len = LLVMGetBufferSize(buf);
    *obj = uf__malloc(len ? len : 1, 1, err);
    if (*obj) {
        memcpy(*obj, LLVMGetBufferStart(buf), len);
        *objlen = len;
    }
    LLVMDisposeMemoryBuffer(buf);
    return *obj ? 0 : UF_ERR_NOMEM;
}

/* Adds object code to the main JITDylib (unless the same bytes were added
 * before) and looks up names[0..n). Called with jit->lock held. */
static int add_object(uf__jit *jit, const void *obj, size_t len,
                      const char *const *names, void **addrs, int n,
                      uf_error *err)
{
    uf__hash128 h;
    uf__hash128_init(&h);
    uf__hash128_add(&h, obj, len);
    int seen = object_seen(jit, &h, err);
    if (seen < 0)
        return err->code;
    if (!seen) {
        LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(
            obj, len, "ufjit-object");
        if (!buf)
            return uf__error_nomem(err);
        LLVMErrorRef e = LLVMOrcLLJITAddObjectFile(
            jit->lljit, LLVMOrcLLJITGetMainJITDylib(jit->lljit), buf);
        if (e) {
            jit->load_failures++;
            return llvm_error(err, e, "adding an object file");
        }
    }
    for (int i = 0; i < n; i++) {
        LLVMOrcExecutorAddress addr = 0;
        LLVMErrorRef e = LLVMOrcLLJITLookup(jit->lljit, &addr, names[i]);
        if (e) {
            jit->load_failures++;
            return llvm_error(err, e, "symbol lookup");
        }
        addrs[i] = (void *)(uintptr_t)addr;
    }
    return 0;
}

int uf__jit_load_object(uf__jit *jit, const void *obj, size_t len,
                        const char *const *names, void **addrs, int n,
                        uf_error *err)
{
    pthread_mutex_lock(&jit->lock);
    int rc = add_object(jit, obj, len, names, addrs, n, err);
    pthread_mutex_unlock(&jit->lock);
    return rc;
}

int uf__jit_finish_all(uf__jit *jit, uf__lower *L, const char *const *names,
                       void **addrs, int n, uf__jit_listing *listing,
                       char **ir, char **obj, size_t *objlen, uf_error *err)
{
    if (ir)
        *ir = NULL;
    if (obj)
        *obj = NULL;
    if (listing)
        listing->llvm_ir = listing->asm_text = NULL;
    if (L->cg->finish_module && L->cg->finish_module(L, err) != 0) {
        lower_release(L, true);
        return err->code;
    }
    dump_if("UFJIT_DUMP_LLVM", "LLVM IR", L->mod);
    char *msg = NULL;
    if (LLVMVerifyModule(L->mod, LLVMReturnStatusAction, &msg)) {
        uf__error_set(err, UF_ERR_INTERNAL, "LLVM: invalid module %s: %s",
                      L->prefix, msg ? msg : "");
        LLVMDisposeMessage(msg);
        lower_release(L, true);
        return UF_ERR_INTERNAL;
    }
    LLVMDisposeMessage(msg);

    /* keyed by the module as it is before optimisation */
    uf__codegen_use cu = {0};
    if (listing == NULL && ir == NULL && n > 0)
        uf__codegen_use_init(&cu, L->mod, L->passes ? L->passes
                                                    : "default<O3>",
                             L->nontemporal, jit->triple, jit->cpu,
                             jit->features);

    /* one compilation at a time: our target machine, and LLJIT's default
     * compiler (one target machine too) are not safe to share between
     * threads -- concurrent materialisation ends in a fatal MC error */
    pthread_mutex_lock(&jit->lock);
    codegen_begin(L->passes);
    if (n > 0)
        atomic_fetch_add(&jit->ncompiles, 1);
    char *bytes = NULL;
    size_t len = 0;
    int rc = uf__codegen_use_fetch(&cu, names, n, &bytes, &len,
                                   &L->nontemporal_stores, err);
    if (rc != 0) {
        /* a codegen cache hit (no listing or IR asked: nothing else to
         * hand back), or its allocation failed */
        lower_release(L, true);
        uf__codegen_use_release(&cu);
        if (rc > 0) {
            atomic_fetch_add(&jit->ncodegen_hits, 1);
            rc = add_object(jit, bytes, len, names, addrs, n, err);
        } else {
            rc = err->code;
        }
        if (rc == 0 && obj) {
            *obj = bytes;
            *objlen = len;
        } else {
            uf__free(bytes);
        }
        codegen_end();
        pthread_mutex_unlock(&jit->lock);
        return rc;
    }
    rc = optimise(jit, L, listing, ir, err);
    if (rc != 0) {
        codegen_end();
        pthread_mutex_unlock(&jit->lock);
        lower_release(L, true);
        uf__codegen_use_release(&cu);
        return rc;
    }

    if (n == 0) {
        /* a listing only (uf__jit_ufunc_contig_ir): nothing to run */
        codegen_end();
        pthread_mutex_unlock(&jit->lock);
        lower_release(L, true);
        return 0;
    }

    if (obj || cu.on) {
        /* object code for the disk or codegen cache: the JIT gets the
         * same bytes (no second code generation) */
        rc = emit_object(jit, L->mod, &bytes, &len, err);
        lower_release(L, true);
        if (rc == 0)
            rc = add_object(jit, bytes, len, names, addrs, n, err);
        if (rc == 0)
            uf__codegen_use_store(&cu, names, n, bytes, len,
                                  L->nontemporal_stores);
        uf__codegen_use_release(&cu);
        if (rc != 0 || obj == NULL)
            uf__free(bytes);
        if (rc != 0)
            goto fail;
        if (obj) {
            *obj = bytes;
            *objlen = len;
        }
        codegen_end();
        pthread_mutex_unlock(&jit->lock);
        return 0;
    }

    /* the JIT takes the module; the thread-safe module keeps the context
     * alive after we drop our reference */
    LLVMOrcThreadSafeModuleRef tsm = LLVMOrcCreateNewThreadSafeModule(L->mod,
                                                                      L->tsc);
    L->mod = NULL;
    lower_release(L, false);
    LLVMErrorRef e = LLVMOrcLLJITAddLLVMIRModule(
        jit->lljit, LLVMOrcLLJITGetMainJITDylib(jit->lljit), tsm);
    if (e) {
        rc = llvm_error(err, e, "adding a module");
        goto fail;
    }
    for (int i = 0; i < n; i++) {
        LLVMOrcExecutorAddress addr = 0;
        e = LLVMOrcLLJITLookup(jit->lljit, &addr, names[i]);
        if (e) {
            rc = llvm_error(err, e, "symbol lookup");
            goto fail;
        }
        addrs[i] = (void *)(uintptr_t)addr;
    }
    codegen_end();
    pthread_mutex_unlock(&jit->lock);
    return 0;

fail:
    codegen_end();
    pthread_mutex_unlock(&jit->lock);
    if (ir) {
        uf__free(*ir);
        *ir = NULL;
    }
    if (listing) {
        uf__free(listing->llvm_ir);
        uf__free(listing->asm_text);
        listing->llvm_ir = listing->asm_text = NULL;
    }
    return rc;
}

char *uf__jit_asm_from_ir(uf__jit *jit, const char *ir, uf_error *err)
{
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(
        ir, strlen(ir), "listing");
    LLVMModuleRef mod = NULL;
    char *msg = NULL, *text = NULL;
    if (LLVMParseIRInContext(ctx, buf, &mod, &msg)) {
        uf__error_set(err, UF_ERR_INTERNAL, "LLVM: reading a listing: %s",
                      msg ? msg : "");
        LLVMDisposeMessage(msg);
    } else {
        pthread_mutex_lock(&jit->lock);
        /* code generated as the module's compilation did: its contents
         * tell which pipeline it had (jit_passes.h) */
        codegen_begin(uf__passes_elementwise(mod));
        text = emit_asm(jit, mod, err);
        codegen_end();
        pthread_mutex_unlock(&jit->lock);
        LLVMDisposeModule(mod);
    }
    LLVMContextDispose(ctx);
    return text;
}

uint64_t uf__jit_ncompiles(const uf__jit *jit)
{
    return (uint64_t)atomic_load(&jit->ncompiles);
}

uint64_t uf__jit_ncodegen_hits(const uf__jit *jit)
{
    return (uint64_t)atomic_load(&jit->ncodegen_hits);
}

/* ---- object code for the disk cache, any kind of compilation ----------- */

void uf__jit_disk_prefix(uf__jit *jit, uf__lower *L, const char *stem)
{
    /* as uf__jit_ufunc_contigs_obj names its symbols: by content, made
     * unique after a failed load (whose symbols stay defined) */
    pthread_mutex_lock(&jit->lock);
    int failed = jit->load_failures;
    pthread_mutex_unlock(&jit->lock);
    if (failed) {
        char seq[12];
        snprintf(seq, sizeof seq, "%.11s", L->prefix + 2);
        snprintf(L->prefix, sizeof L->prefix, "ud%.16s_%s", stem, seq);
    } else
        snprintf(L->prefix, sizeof L->prefix, "ud%.20s", stem);
    LLVMSetModuleIdentifier(L->mod, L->prefix, strlen(L->prefix));
    LLVMSetSourceFileName(L->mod, L->prefix, strlen(L->prefix));
}

int uf__jit_finish_obj(uf__jit *jit, uf__lower *L, const char *const *names,
                       void **addrs, int n, char **obj, size_t *objlen,
                       uf_error *err)
{
    return uf__jit_finish_all(jit, L, names, addrs, n, NULL, NULL, obj,
                              objlen, err);
}
