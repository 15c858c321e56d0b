/* The CUDA codegen targets (codegen_nvvm.h): what the shared lowering
 * asks differs from the host in the math mapping (libdevice's __nv_*),
 * the special registers, and the error sink (the launch's status word in
 * device memory instead of a C helper recording a message). */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "common/alloc.h"
#include "common/error_internal.h"
#include "compiler/nvvm/codegen_nvvm.h"
#include "compiler/nvvm/nvvm_internal.h"

_Static_assert(sizeof(uf__nvvm_status) == 592, "status word layout");
_Static_assert(offsetof(uf__nvvm_status, index) == 16, "status layout");
_Static_assert(offsetof(uf__nvvm_status, shape_kind) == 40,
               "status layout");
_Static_assert(offsetof(uf__nvvm_status, shape_dims) == 80, "status layout");

static uf__codegen_nvvm *nvvm_of(const uf__lower *L)
{
    return (uf__codegen_nvvm *)(uintptr_t)L->cg;
}

static void nvvm_function_attrs(uf__lower *L, LLVMValueRef fn)
{
    uf__lower_add_attr(L, fn, (int)LLVMAttributeFunctionIndex, "nounwind");
}

static LLVMValueRef call_fn(uf__fn *F, const char *name, uf_dtype dt,
                            LLVMValueRef *args, int n)
{
    LLVMTypeRef t = uf__lower_dtype(F->L, dt);
    LLVMTypeRef params[3] = {t, t, t};
    LLVMTypeRef fty = LLVMFunctionType(t, params, (unsigned)n, 0);
    LLVMValueRef fn = uf__lower_declare(F->L, name, fty, true);
    return LLVMBuildCall2(F->L->b, fty, fn, args, (unsigned)n, "");
}

/* libdevice names its functions after C's: __nv_sin, __nv_sinf. (The
 * program gets libdevice when a __nv_ function is declared.) */
static LLVMValueRef nvvm_math(uf__fn *F, const char *name, uf_dtype dt,
                              LLVMValueRef *args, int n)
{
    if (dt == UF_FLOAT32 && n == 1 && uf__nvvm_trig_split(name)) {
        LLVMValueRef fn = uf__nvvm_trig_f32(F->L, name);
        return LLVMBuildCall2(F->L->b, LLVMGlobalGetValueType(fn), fn, args,
                              1, "");
    }
    char full[40];
    snprintf(full, sizeof full, "__nv_%s%s", name,
             dt == UF_FLOAT32 ? "f" : "");
    return call_fn(F, full, dt, args, n);
}

/* cudasim: the host's libm, scalar (a simulated thread runs one element;
 * nothing to vectorise), with LLVM intrinsics for the exact operations. */
static LLVMValueRef sim_math(uf__fn *F, const char *name, uf_dtype dt,
                             LLVMValueRef *args, int n)
{
    static const char *const exact[] = {"sqrt", "fabs",  "floor", "ceil",
                                        "trunc", "copysign", "rint"};
    for (size_t i = 0; i < sizeof exact / sizeof exact[0]; i++)
        if (strcmp(exact[i], name) == 0) {
            char intr[32];
            snprintf(intr, sizeof intr, "llvm.%s", name);
            return uf__emit_intrinsic(F, intr, args, n);
        }
    char full[40];
    snprintf(full, sizeof full, "%s%s", name, dt == UF_FLOAT32 ? "f" : "");
    return call_fn(F, full, dt, args, n);
}

/* Runtime helpers are C functions of the host process: a GPU cannot call
 * them. The cmath ones are defined in the module instead (nvvm_cmath.c);
 * for any other the declaration is made (the lowering goes on) and
 * uf__nvvm_refused turns it into the error once lowering is over. */
static LLVMValueRef nvvm_helper(uf__lower *L, const char *name,
                                LLVMTypeRef fty)
{
    LLVMValueRef fn = uf__nvvm_cmath_helper(L, name, fty);
    return fn ? fn : uf__lower_declare(L, name, fty, false);
}

LLVMValueRef uf__nvvm_status_slot(uf__lower *L)
{
    const uf__codegen_nvvm *g = nvvm_of(L);
    LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(L->ctx), 0);
    LLVMValueRef gv = LLVMGetNamedGlobal(L->mod, UF__NVVM_STATUS_GLOBAL);
    if (!gv) {
        gv = LLVMAddGlobalInAddressSpace(L->mod, i8p, UF__NVVM_STATUS_GLOBAL,
                                         g->global_as);
        LLVMSetInitializer(gv, LLVMConstNull(i8p));
        LLVMSetLinkage(gv, LLVMInternalLinkage);
        LLVMSetAlignment(gv, 8);
    }
    LLVMTypeRef slot = LLVMPointerType(i8p, 0);
    return g->global_as ? LLVMConstAddrSpaceCast(gv, slot) : gv;
}

/* Field `off` of the status word at `status` as a pointer to `ty`. */
static LLVMValueRef field(uf__lower *L, LLVMValueRef status, unsigned off,
                          LLVMTypeRef ty)
{
    LLVMTypeRef i8 = LLVMInt8TypeInContext(L->ctx);
    LLVMValueRef o = LLVMConstInt(LLVMInt64TypeInContext(L->ctx), off, 0);
    LLVMValueRef p = LLVMBuildGEP2(L->b, i8, status, &o, 1, "");
    return LLVMBuildBitCast(L->b, p, LLVMPointerType(ty, 0), "");
}

/* The first failure is picked by a ticket drawn from `nfail`: the
 * thread drawing 0 owns the word and writes it. libnvvm's LLVM 7 reader
 * cannot read LLVM 14's cmpxchg and atomicrmw records (they carry an
 * alignment since LLVM 13: "Invalid record"), so on NVVM the ticket is
 * NVVM's atomic increment intrinsic (atom.inc with no wrap); cudasim's
 * host code has atomicrmw. */
LLVMValueRef uf__nvvm_claim_status(uf__lower *L, LLVMValueRef status)
{
    LLVMTypeRef i32 = LLVMInt32TypeInContext(L->ctx);
    LLVMValueRef pn = field(L, status, offsetof(uf__nvvm_status, nfail), i32);
    LLVMValueRef ticket;
    if (nvvm_of(L)->sim) {
        ticket = LLVMBuildAtomicRMW(L->b, LLVMAtomicRMWBinOpAdd, pn,
                                    LLVMConstInt(i32, 1, 0),
                                    LLVMAtomicOrderingMonotonic, 0);
    } else {
        static const char name[] = "llvm.nvvm.atomic.load.inc.32.p0i32";
        LLVMTypeRef params[2] = {LLVMPointerType(i32, 0), i32};
        LLVMTypeRef fty = LLVMFunctionType(i32, params, 2, 0);
        LLVMValueRef fn = LLVMGetNamedFunction(L->mod, name);
        if (!fn)
            fn = LLVMAddFunction(L->mod, name, fty);
        LLVMValueRef args[2] = {pn, LLVMConstAllOnes(i32)};
        ticket = LLVMBuildCall2(L->b, fty, fn, args, 2, "ticket");
    }
    return LLVMBuildICmp(L->b, LLVMIntEQ, ticket, LLVMConstNull(i32), "won");
}

void uf__nvvm_store_code(uf__lower *L, LLVMValueRef status, LLVMValueRef code)
{
    LLVMTypeRef i32 = LLVMInt32TypeInContext(L->ctx);
    LLVMBuildStore(L->b, code,
                   field(L, status, offsetof(uf__nvvm_status, code), i32));
}

static int add_site(uf__codegen_nvvm *g, const char *kernel, const char *file)
{
    uf__nvvm_sites *ss = &g->sites;
    for (int i = 0; i < ss->n; i++)
        if (strcmp(ss->v[i].kernel, kernel) == 0 &&
            strcmp(ss->v[i].file, file) == 0)
            return i;
    if (ss->n == g->capsites) {
        int cap = g->capsites ? 2 * g->capsites : 4;
        uf__nvvm_site *n = uf__realloc(ss->v, (size_t)cap, sizeof *n, NULL);
        if (!n)
            goto nomem;
        ss->v = n;
        g->capsites = cap;
    }
    uf__nvvm_site *s = &ss->v[ss->n];
    if (!(s->kernel = uf__strdup(kernel, NULL)))
        goto nomem;
    if (!(s->file = uf__strdup(file, NULL))) {
        uf__free(s->kernel);
        goto nomem;
    }
    return ss->n++;
nomem:
    g->nomem = true;
    return -1;
}

/* The error sink: the first failing thread of the launch writes the
 * report into the status word (nvvm.h); the lowering then returns
 * UF__JIT_INDEX, on which the kernel entry stops the thread. */
static void nvvm_index_error(uf__fn *F, const uf__index_report *r)
{
    uf__lower *L = F->L;
    LLVMContextRef c = L->ctx;
    LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(c), 0);
    LLVMTypeRef i32 = LLVMInt32TypeInContext(c);
    LLVMTypeRef i64 = LLVMInt64TypeInContext(c);
    int site = add_site(nvvm_of(L), r->kernel ? r->kernel : "?",
                        r->file ? r->file : "?");
    LLVMValueRef status =
        LLVMBuildLoad2(L->b, i8p, uf__nvvm_status_slot(L), "status");
    LLVMValueRef won = uf__nvvm_claim_status(L, status);
    LLVMBasicBlockRef write = uf__fn_block(F, "index.report");
    LLVMBasicBlockRef done = uf__fn_block(F, "index.reported");
    LLVMBuildCondBr(L->b, won, write, done);
    LLVMPositionBuilderAtEnd(L->b, write);
    struct {
        unsigned off;
        LLVMTypeRef ty;
        LLVMValueRef v;
    } f[] = {
        {offsetof(uf__nvvm_status, code), i32,
         LLVMConstInt(i32, UF__JIT_INDEX, 0)},
        {offsetof(uf__nvvm_status, site), i32,
         LLVMConstInt(i32, (unsigned long long)(int64_t)site, 1)},
        {offsetof(uf__nvvm_status, line), i32,
         LLVMConstInt(i32, (unsigned long long)r->line, 0)},
        {offsetof(uf__nvvm_status, axis), i32,
         LLVMConstInt(i32, (unsigned long long)(int64_t)r->axis, 1)},
        {offsetof(uf__nvvm_status, index), i64, r->index},
        {offsetof(uf__nvvm_status, size), i64, r->size},
        {offsetof(uf__nvvm_status, is_unsigned), i32,
         LLVMConstInt(i32, r->is_unsigned ? 1 : 0, 0)},
    };
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
        LLVMBuildStore(L->b, f[i].v, field(L, status, f[i].off, f[i].ty));
    LLVMBuildBr(L->b, done);
    LLVMPositionBuilderAtEnd(L->b, done);
}

static int nvvm_finish_module(uf__lower *L, uf_error *err)
{
    return nvvm_of(L)->nomem ? uf__error_nomem(err) : 0;
}

/* llvm.nvvm.read.ptx.sreg.* : i32 () */
static LLVMValueRef nvvm_sreg(uf__lower *L, uf__sreg which)
{
    static const char *const names[UF__SREG_COUNT] = {
        "llvm.nvvm.read.ptx.sreg.tid.x",    "llvm.nvvm.read.ptx.sreg.tid.y",
        "llvm.nvvm.read.ptx.sreg.tid.z",    "llvm.nvvm.read.ptx.sreg.ntid.x",
        "llvm.nvvm.read.ptx.sreg.ntid.y",   "llvm.nvvm.read.ptx.sreg.ntid.z",
        "llvm.nvvm.read.ptx.sreg.ctaid.x",  "llvm.nvvm.read.ptx.sreg.ctaid.y",
        "llvm.nvvm.read.ptx.sreg.ctaid.z",  "llvm.nvvm.read.ptx.sreg.nctaid.x",
        "llvm.nvvm.read.ptx.sreg.nctaid.y", "llvm.nvvm.read.ptx.sreg.nctaid.z",
        "llvm.nvvm.read.ptx.sreg.laneid",   "llvm.nvvm.read.ptx.sreg.warpsize"};
    LLVMTypeRef i32 = LLVMInt32TypeInContext(L->ctx);
    LLVMTypeRef fty = LLVMFunctionType(i32, NULL, 0, 0);
    LLVMValueRef fn = LLVMGetNamedFunction(L->mod, names[which]);
    if (!fn)
        fn = LLVMAddFunction(L->mod, names[which], fty);
    return LLVMBuildCall2(L->b, fty, fn, NULL, 0, "");
}

LLVMValueRef uf__nvvm_sim_self(uf__lower *L)
{
    LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(L->ctx), 0);
    LLVMTypeRef fty = LLVMFunctionType(i8p, NULL, 0, 0);
    LLVMValueRef fn = uf__lower_declare(L, UF__SIM_SELF, fty, true);
    return LLVMBuildCall2(L->b, fty, fn, NULL, 0, "self");
}

/* cudasim: field `which` of the running thread's uf__sim_thread */
static LLVMValueRef sim_sreg(uf__lower *L, uf__sreg which)
{
#define AT(f, i) offsetof(uf__sim_thread, f) + (i) * sizeof(uint32_t)
    static const unsigned off[UF__SREG_COUNT] = {
        AT(tid, 0),    AT(tid, 1),    AT(tid, 2),    AT(ntid, 0),
        AT(ntid, 1),   AT(ntid, 2),   AT(ctaid, 0),  AT(ctaid, 1),
        AT(ctaid, 2),  AT(nctaid, 0), AT(nctaid, 1), AT(nctaid, 2),
        AT(laneid, 0), AT(warpsize, 0)};
#undef AT
    LLVMTypeRef i8 = LLVMInt8TypeInContext(L->ctx);
    LLVMTypeRef i32 = LLVMInt32TypeInContext(L->ctx);
    LLVMValueRef self = uf__nvvm_sim_self(L);
    LLVMValueRef o = LLVMConstInt(LLVMInt64TypeInContext(L->ctx), off[which],
                                  0);
    LLVMValueRef p = LLVMBuildGEP2(L->b, i8, self, &o, 1, "");
    p = LLVMBuildBitCast(L->b, p, LLVMPointerType(i32, 0), "");
    return LLVMBuildLoad2(L->b, i32, p, "");
}

static void nvvm_syncthreads(uf__lower *L)
{
    static const char name[] = "llvm.nvvm.barrier0";
    LLVMTypeRef fty = LLVMFunctionType(LLVMVoidTypeInContext(L->ctx), NULL,
                                       0, 0);
    LLVMValueRef fn = LLVMGetNamedFunction(L->mod, name);
    if (!fn)
        fn = LLVMAddFunction(L->mod, name, fty);
    LLVMBuildCall2(L->b, fty, fn, NULL, 0, "");
}

/* cudasim: the simulator's barrier, a call with effects (never merged or
 * moved across others) */
static void sim_syncthreads(uf__lower *L)
{
    LLVMTypeRef fty = LLVMFunctionType(LLVMVoidTypeInContext(L->ctx), NULL,
                                       0, 0);
    LLVMValueRef fn = LLVMGetNamedFunction(L->mod, UF__SIM_SYNCTHREADS);
    if (!fn) {
        fn = LLVMAddFunction(L->mod, UF__SIM_SYNCTHREADS, fty);
        uf__lower_add_attr(L, fn, (int)LLVMAttributeFunctionIndex,
                           "nounwind");
    }
    LLVMBuildCall2(L->b, fty, fn, NULL, 0, "");
}

void uf__codegen_nvvm_init(uf__codegen_nvvm *g)
{
    memset(g, 0, sizeof *g);
    g->base.name = "nvvm";
    g->base.triple = UF__NVVM_TRIPLE;
    g->base.data_layout = UF__NVVM_DATA_LAYOUT;
    g->base.function_attrs = nvvm_function_attrs;
    g->base.math = nvvm_math;
    g->base.helper = nvvm_helper;
    g->base.index_error = nvvm_index_error;
    g->base.finish_module = nvvm_finish_module;
    g->base.sreg = nvvm_sreg;
    g->base.syncthreads = nvvm_syncthreads;
    g->global_as = 1;
    g->base.links_device_code = true;
    g->base.const_as = 4;
    g->base.inexact_frem = true;
    uf__nvvm_shared_init(g);
    uf__nvvm_atomic_init(g);
    uf__nvvm_warp_init(g);
    uf__nvvm_shape_error_init(g);
}

void uf__codegen_sim_init(uf__codegen_nvvm *g, const char *triple,
                          const char *data_layout)
{
    uf__codegen_nvvm_init(g);
    g->base.name = "cudasim";
    g->base.triple = triple;
    g->base.data_layout = data_layout;
    g->base.math = sim_math;
    g->base.sreg = sim_sreg;
    g->base.syncthreads = sim_syncthreads;
    g->sim = true;
    g->global_as = 0;
    g->base.links_device_code = false;
    g->base.const_as = 0;
    g->base.inexact_frem = false;
    uf__nvvm_shared_init(g);
    uf__nvvm_atomic_init(g);
    uf__nvvm_warp_init(g);
    uf__nvvm_shape_error_init(g);
}

void uf__nvvm_sites_clear(uf__nvvm_sites *s)
{
    for (int i = 0; i < s->n; i++) {
        uf__free(s->v[i].kernel);
        uf__free(s->v[i].file);
    }
    uf__free(s->v);
    s->v = NULL;
    s->n = 0;
}

void uf__codegen_nvvm_clear(uf__codegen_nvvm *g)
{
    uf__nvvm_sites_clear(&g->sites);
    g->capsites = 0;
}

int uf__nvvm_refused(uf__lower *L, const char *kernel, uf_error *err)
{
    /* the cmath helpers are defined (nvvm_cmath.c); any other is not */
    for (LLVMValueRef f = LLVMGetFirstFunction(L->mod); f;
         f = LLVMGetNextFunction(f)) {
        size_t len;
        const char *name = LLVMGetValueName2(f, &len);
        if (LLVMIsDeclaration(f) && strncmp(name, "uf__rt_", 7) == 0)
            return uf__error_set(err, UF_ERR_UNSUPPORTED,
                                 "kernel '%s': the host runtime helper %s is "
                                 "not available to the CUDA target",
                                 kernel, name);
    }
    return 0;
}
