/* The part of libdevice a module calls, linked into it (TOOLCHAIN.md,
 * "NVVM / PTX": re-reading the whole libdevice, 352 functions, for every
 * compile cost 20-80 ms with libnvvm and ~100 ms with NVPTX).
 *
 * libdevice is parsed once per process into a context of its own; for
 * each set of __nv_ functions a module declares, a copy of it keeps those
 * functions and what they reach (globaldce), written as bitcode and
 * cached by the set. A compile parses that small bitcode into its own
 * context and links it (NVPTX; the linked functions become internal), or
 * gives libnvvm the same subset as text to add lazily. One lock guards libdevice's
 * context and the cache: LLVM contexts are not thread-safe. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/BitReader.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/Linker.h>
#include <llvm-c/Transforms/PassBuilder.h>

#include "common/alloc.h"
#include "common/error_internal.h"
#include "compiler/nvvm/nvvm_internal.h"

/* subsets kept; a process compiles kernels over a handful of sets */
#define SUBSETS_MAX 32

typedef struct subset {
    char *key; /* the sorted names, comma separated */
    void *bc; /* LLVM 14 bitcode, for NVPTX */
    size_t len;
    char *text; /* NVVM IR text, for libnvvm */
} subset;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static LLVMContextRef ld_ctx;
static LLVMModuleRef ld_mod;
static subset subsets[SUBSETS_MAX];
static int nsubsets, next_evict;

static bool is_libdevice_name(const char *name, size_t len)
{
    return len > 5 && strncmp(name, "__nv_", 5) == 0;
}

/* libdevice parsed once (lock held). */
static int libdevice_module(uf_error *err)
{
    if (ld_mod)
        return 0;
    size_t len;
    const void *bytes = uf__nvvm_libdevice(&len, err);
    if (!bytes)
        return err->code;
    LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRange(
        bytes, len, "libdevice.10.bc", 0);
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMModuleRef m = NULL;
    bool bad = LLVMParseBitcodeInContext2(ctx, buf, &m);
    LLVMDisposeMemoryBuffer(buf);
    if (bad) {
        LLVMContextDispose(ctx);
        return uf__error_set(err, UF_ERR_INTERNAL,
                             "CUDA: cannot read libdevice.10.bc");
    }
    ld_ctx = ctx;
    ld_mod = m;
    return 0;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* "__nv_cosf,__nv_sinf": the __nv_ functions `mod` declares (at least
 * one), sorted; NULL with err on no memory. */
static char *called_set(LLVMModuleRef mod, uf_error *err)
{
    size_t n = 0, total = 0;
    for (LLVMValueRef f = LLVMGetFirstFunction(mod); f;
         f = LLVMGetNextFunction(f)) {
        size_t len;
        const char *name = LLVMGetValueName2(f, &len);
        if (is_libdevice_name(name, len) && LLVMIsDeclaration(f))
            n++, total += len + 1;
    }
    if (n == 0)
        return uf__strdup("", err);
    const char **names = uf__calloc(n, sizeof *names, err);
    char *key = names ? uf__malloc(total + 1, 1, err) : NULL;
    if (!key) {
        uf__free(names);
        return NULL;
    }
    size_t i = 0;
    for (LLVMValueRef f = LLVMGetFirstFunction(mod); f;
         f = LLVMGetNextFunction(f)) {
        size_t len;
        const char *name = LLVMGetValueName2(f, &len);
        if (is_libdevice_name(name, len) && LLVMIsDeclaration(f))
            names[i++] = name;
    }
    qsort(names, n, sizeof *names, cmp_str);
    key[0] = '\0';
    char *p = key;
    for (i = 0; i < n; i++) {
        size_t len = strlen(names[i]);
        if (i)
            *p++ = ',';
        memcpy(p, names[i], len);
        p += len;
        *p = '\0';
    }
    uf__free(names);
    return key;
}

static bool in_set(const char *key, const char *name, size_t len)
{
    for (const char *p = key; *p;) {
        const char *e = strchr(p, ',');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        if (n == len && strncmp(p, name, len) == 0)
            return true;
        p += n + (e ? 1 : 0);
    }
    return false;
}

/* What LLVM 7's text reader needs of LLVM 14's printout (TOOLCHAIN.md):
 * no attributes it does not know, named parameters and basic blocks.
 * libnvvm adds text modules only eagerly (a lazily added one fails to
 * compile, with no log): the functions become linkonce_odr, resolving
 * the kernel's declarations and dropped once inlined, as a lazily added
 * libdevice's are (the PTX is the same). */
static void as_nvvm_text(LLVMModuleRef m)
{
    uf__nvvm_strip(m);
    char name[24];
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f;
         f = LLVMGetNextFunction(f)) {
        if (!LLVMIsDeclaration(f) &&
            LLVMGetLinkage(f) == LLVMExternalLinkage)
            LLVMSetLinkage(f, LLVMLinkOnceODRLinkage);
        unsigned np = LLVMCountParams(f);
        for (unsigned i = 0; i < np; i++) {
            LLVMValueRef a = LLVMGetParam(f, i);
            size_t len;
            LLVMGetValueName2(a, &len);
            if (len == 0) {
                snprintf(name, sizeof name, "a%u", i);
                LLVMSetValueName2(a, name, strlen(name));
            }
        }
        int nb = 0;
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb;
             bb = LLVMGetNextBasicBlock(bb), nb++) {
            LLVMValueRef v = LLVMBasicBlockAsValue(bb);
            size_t len;
            LLVMGetValueName2(v, &len);
            if (len == 0) {
                snprintf(name, sizeof name, "bb%d", nb);
                LLVMSetValueName2(v, name, strlen(name));
            }
        }
    }
}

/* A copy of libdevice keeping the functions named in `key` and what they
 * reach, as bitcode for `triple` and `layout` (lock held). */
static int make_subset(const char *key, const char *triple,
                       const char *layout, subset *s, uf_error *err)
{
    LLVMModuleRef m = LLVMCloneModule(ld_mod);
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f;
         f = LLVMGetNextFunction(f)) {
        size_t len;
        const char *name = LLVMGetValueName2(f, &len);
        if (!LLVMIsDeclaration(f) && !in_set(key, name, len))
            LLVMSetLinkage(f, LLVMInternalLinkage);
    }
    for (LLVMValueRef g = LLVMGetFirstGlobal(m); g; g = LLVMGetNextGlobal(g))
        if (!LLVMIsDeclaration(g))
            LLVMSetLinkage(g, LLVMInternalLinkage);
    LLVMSetTarget(m, triple);
    LLVMSetDataLayout(m, layout);
    LLVMPassBuilderOptionsRef po = LLVMCreatePassBuilderOptions();
    LLVMErrorRef e = LLVMRunPasses(m, "globaldce", NULL, po);
    LLVMDisposePassBuilderOptions(po);
    if (e) {
        char *msg = LLVMGetErrorMessage(e);
        uf__error_set(err, UF_ERR_INTERNAL, "CUDA: trimming libdevice: %s",
                      msg);
        LLVMDisposeErrorMessage(msg);
        LLVMDisposeModule(m);
        return UF_ERR_INTERNAL;
    }
    memset(s, 0, sizeof *s);
    LLVMMemoryBufferRef buf = LLVMWriteBitcodeToMemoryBuffer(m);
    size_t len = LLVMGetBufferSize(buf);
    s->bc = uf__malloc(len, 1, err);
    if (s->bc) {
        memcpy(s->bc, LLVMGetBufferStart(buf), len);
        s->len = len;
    }
    LLVMDisposeMemoryBuffer(buf);
    as_nvvm_text(m);
    char *t = LLVMPrintModuleToString(m);
    LLVMDisposeModule(m);
    s->text = s->bc ? uf__strdup(t, err) : NULL;
    LLVMDisposeMessage(t);
    s->key = s->text ? uf__strdup(key, err) : NULL;
    if (!s->key) {
        uf__free(s->bc);
        uf__free(s->text);
        memset(s, 0, sizeof *s);
        return UF_ERR_NOMEM;
    }
    return 0;
}

/* The cached subset for `key`, made when missing (lock held). */
static const subset *find_subset(const char *key, const char *triple,
                                 const char *layout, uf_error *err)
{
    for (int i = 0; i < nsubsets; i++)
        if (strcmp(subsets[i].key, key) == 0)
            return &subsets[i];
    if (libdevice_module(err) != 0)
        return NULL;
    subset s;
    if (make_subset(key, triple, layout, &s, err) != 0)
        return NULL;
    int at = nsubsets < SUBSETS_MAX ? nsubsets++ : next_evict++ % SUBSETS_MAX;
    uf__free(subsets[at].key);
    uf__free(subsets[at].bc);
    uf__free(subsets[at].text);
    subsets[at] = s;
    return &subsets[at];
}

/* The libdevice functions now defined in mod, internal; the globals
 * they brought were made internal in the subset. */
static void internalize_linked(LLVMModuleRef mod)
{
    for (LLVMValueRef f = LLVMGetFirstFunction(mod); f;
         f = LLVMGetNextFunction(f)) {
        size_t len;
        const char *name = LLVMGetValueName2(f, &len);
        if (is_libdevice_name(name, len) && !LLVMIsDeclaration(f))
            LLVMSetLinkage(f, LLVMInternalLinkage);
    }
}

int uf__nvvm_link_libdevice(LLVMModuleRef mod, uf_error *err)
{
    if (!uf__nvvm_uses_libdevice(mod))
        return 0;
    char *key = called_set(mod, err);
    if (!key)
        return UF_ERR_NOMEM;
    pthread_mutex_lock(&lock);
    const subset *s = find_subset(key, LLVMGetTarget(mod),
                                  LLVMGetDataLayoutStr(mod), err);
    LLVMModuleRef sub = NULL;
    int rc = s ? 0 : err->code;
    if (s) {
        /* parsed while the lock keeps the bytes alive */
        LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRange(
            s->bc, s->len, "libdevice-subset", 0);
        if (LLVMParseBitcodeInContext2(LLVMGetModuleContext(mod), buf, &sub))
            rc = uf__error_set(err, UF_ERR_INTERNAL,
                               "CUDA: cannot read the libdevice subset");
        LLVMDisposeMemoryBuffer(buf);
    }
    pthread_mutex_unlock(&lock);
    uf__free(key);
    if (rc != 0)
        return rc;
    if (LLVMLinkModules2(mod, sub)) /* consumes sub */
        return uf__error_set(err, UF_ERR_INTERNAL,
                             "CUDA: linking the libdevice subset failed");
    internalize_linked(mod);
    return 0;
}

bool uf__nvvm_libdevice_full(void)
{
    const char *e = getenv("UFJIT_CUDA_LIBDEVICE");
    return e && strcmp(e, "full") == 0;
}

int uf__nvvm_libdevice_text(LLVMModuleRef mod, char **text, uf_error *err)
{
    *text = NULL;
    if (!uf__nvvm_uses_libdevice(mod))
        return 0;
    char *key = called_set(mod, err);
    if (!key)
        return UF_ERR_NOMEM;
    pthread_mutex_lock(&lock);
    const subset *s = find_subset(key, LLVMGetTarget(mod),
                                  LLVMGetDataLayoutStr(mod), err);
    int rc = !s                                    ? err->code
             : !(*text = uf__strdup(s->text, err)) ? UF_ERR_NOMEM
                                                   : 0;
    pthread_mutex_unlock(&lock);
    uf__free(key);
    return rc;
}
