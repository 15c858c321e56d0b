/* Atomics, fences and the counting barriers of the CUDA codegen targets
 * (codegen.h: atomic_rmw, atomic_cas, threadfence, syncthreads_reduce).
 *
 * cudasim compiles for the host: LLVM's atomicrmw, cmpxchg and fence are
 * real host atomics, atomic across the pool workers that run blocks at
 * the same time; the counting barrier is the simulator's
 * (uf__sim_syncthreads_reduce, sim_abi.h).
 *
 * NVVM: libnvvm's LLVM 7 bitcode reader cannot read LLVM 14's atomicrmw
 * and cmpxchg records (they carry an alignment since LLVM 13), and LLVM
 * 14 no longer knows NVVM's float atomic-add intrinsic. So an atomic is a
 * call of a small helper, uf__nvvm_atom_<op>_<type>, only declared in the
 * module and defined at compile time from text IR both backends read
 * (uf__nvvm_atomics_text): a second module for libnvvm, where float add
 * is llvm.nvvm.atomic.load.add; parsed and linked for LLVM 14's NVPTX
 * backend, where it is atomicrmw fadd. Both inline it into one atom.*
 * instruction, relaxed as numba-cuda's (monotonic). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <llvm-c/IRReader.h>
#include <llvm-c/Linker.h>

#include "common/alloc.h"
#include "common/error_internal.h"
#include "common/sim_abi.h"
#include "compiler/nvvm/codegen_nvvm.h"
#include "compiler/nvvm/nvvm_internal.h"

#define HELPER_PREFIX "uf__nvvm_atom_"

/* helper names by uf__atomic_op; "cas" after them */
static const char *const op_names[UF__ATOMIC_OP_COUNT] = {
    "add", "sub", "and", "or", "xor", "xchg", "max",
    "min", "umax", "umin", "inc", "dec", "fadd"};

static LLVMValueRef intrinsic(uf__lower *L, const char *name,
                              LLVMTypeRef fty)
{
    LLVMValueRef fn = LLVMGetNamedFunction(L->mod, name);
    return fn ? fn : LLVMAddFunction(L->mod, name, fty);
}

/* "i32", "i64", "f32", "f64" */
static const char *type_suffix(LLVMTypeRef t)
{
    switch (LLVMGetTypeKind(t)) {
    case LLVMFloatTypeKind:
        return "f32";
    case LLVMDoubleTypeKind:
        return "f64";
    default:
        return LLVMGetIntTypeWidth(t) == 64 ? "i64" : "i32";
    }
}

/* ---- NVVM: calls of the helpers -------------------------------------------- */

static LLVMValueRef helper_call(uf__lower *L, const char *op,
                                LLVMValueRef *args, unsigned n)
{
    LLVMTypeRef t = LLVMTypeOf(args[n - 1]);
    char name[64];
    snprintf(name, sizeof name, HELPER_PREFIX "%s_%s", op, type_suffix(t));
    LLVMTypeRef params[3] = {LLVMPointerType(t, 0), t, t};
    LLVMTypeRef fty = LLVMFunctionType(t, params, n, 0);
    LLVMValueRef fn = LLVMGetNamedFunction(L->mod, name);
    if (!fn) {
        fn = LLVMAddFunction(L->mod, name, fty);
        uf__lower_add_attr(L, fn, (int)LLVMAttributeFunctionIndex,
                           "nounwind");
    }
    return LLVMBuildCall2(L->b, fty, fn, args, n, "");
}

static LLVMValueRef nvvm_rmw(uf__lower *L, uf__atomic_op op, LLVMValueRef ptr,
                             LLVMValueRef val)
{
    bool wide = LLVMGetTypeKind(LLVMTypeOf(val)) == LLVMIntegerTypeKind &&
                LLVMGetIntTypeWidth(LLVMTypeOf(val)) == 64;
    if ((op == UF__ATOMIC_INC || op == UF__ATOMIC_DEC) && wide)
        return NULL; /* PTX's atom.inc/dec are 32-bit only */
    LLVMValueRef args[2] = {ptr, val};
    return helper_call(L, op_names[op], args, 2);
}

static LLVMValueRef nvvm_cas(uf__lower *L, LLVMValueRef ptr, LLVMValueRef cmp,
                             LLVMValueRef val)
{
    LLVMValueRef args[3] = {ptr, cmp, val};
    return helper_call(L, "cas", args, 3);
}

static void nvvm_fence(uf__lower *L, uf__fence_scope scope)
{
    static const char *const names[] = {"llvm.nvvm.membar.cta",
                                        "llvm.nvvm.membar.gl",
                                        "llvm.nvvm.membar.sys"};
    LLVMTypeRef fty = LLVMFunctionType(LLVMVoidTypeInContext(L->ctx), NULL,
                                       0, 0);
    LLVMBuildCall2(L->b, fty, intrinsic(L, names[scope], fty), NULL, 0, "");
}

static LLVMValueRef nvvm_sync_reduce(uf__lower *L, uf__sync_reduce op,
                                     LLVMValueRef pred)
{
    static const char *const names[] = {"llvm.nvvm.barrier0.popc",
                                        "llvm.nvvm.barrier0.and",
                                        "llvm.nvvm.barrier0.or"};
    LLVMTypeRef i32 = LLVMInt32TypeInContext(L->ctx);
    LLVMTypeRef fty = LLVMFunctionType(i32, &i32, 1, 0);
    return LLVMBuildCall2(L->b, fty, intrinsic(L, names[op], fty), &pred, 1,
                          "");
}

/* ---- cudasim: host atomics ------------------------------------------------- */

static LLVMValueRef sim_rmw(uf__lower *L, uf__atomic_op op, LLVMValueRef ptr,
                            LLVMValueRef val)
{
    static const LLVMAtomicRMWBinOp ops[UF__ATOMIC_OP_COUNT] = {
        [UF__ATOMIC_ADD] = LLVMAtomicRMWBinOpAdd,
        [UF__ATOMIC_SUB] = LLVMAtomicRMWBinOpSub,
        [UF__ATOMIC_AND] = LLVMAtomicRMWBinOpAnd,
        [UF__ATOMIC_OR] = LLVMAtomicRMWBinOpOr,
        [UF__ATOMIC_XOR] = LLVMAtomicRMWBinOpXor,
        [UF__ATOMIC_XCHG] = LLVMAtomicRMWBinOpXchg,
        [UF__ATOMIC_MAX] = LLVMAtomicRMWBinOpMax,
        [UF__ATOMIC_MIN] = LLVMAtomicRMWBinOpMin,
        [UF__ATOMIC_UMAX] = LLVMAtomicRMWBinOpUMax,
        [UF__ATOMIC_UMIN] = LLVMAtomicRMWBinOpUMin,
        [UF__ATOMIC_FADD] = LLVMAtomicRMWBinOpFAdd,
    };
    if (op == UF__ATOMIC_INC || op == UF__ATOMIC_DEC)
        return NULL; /* no host instruction: a cmpxchg loop */
    return LLVMBuildAtomicRMW(L->b, ops[op], ptr, val,
                              LLVMAtomicOrderingMonotonic, 0);
}

static LLVMValueRef sim_cas(uf__lower *L, LLVMValueRef ptr, LLVMValueRef cmp,
                            LLVMValueRef val)
{
    LLVMValueRef r = LLVMBuildAtomicCmpXchg(L->b, ptr, cmp, val,
                                            LLVMAtomicOrderingMonotonic,
                                            LLVMAtomicOrderingMonotonic, 0);
    return LLVMBuildExtractValue(L->b, r, 0, "");
}

static void sim_fence(uf__lower *L, uf__fence_scope scope)
{
    (void)scope; /* one host: every scope is the process */
    LLVMBuildFence(L->b, LLVMAtomicOrderingSequentiallyConsistent, 0, "");
}

static LLVMValueRef sim_sync_reduce(uf__lower *L, uf__sync_reduce op,
                                    LLVMValueRef pred)
{
    LLVMTypeRef i32 = LLVMInt32TypeInContext(L->ctx);
    LLVMTypeRef params[2] = {i32, i32};
    LLVMTypeRef fty = LLVMFunctionType(i32, params, 2, 0);
    LLVMValueRef fn = LLVMGetNamedFunction(L->mod, UF__SIM_SYNCTHREADS_REDUCE);
    if (!fn) {
        fn = LLVMAddFunction(L->mod, UF__SIM_SYNCTHREADS_REDUCE, fty);
        uf__lower_add_attr(L, fn, (int)LLVMAttributeFunctionIndex,
                           "nounwind");
    }
    LLVMValueRef args[2] = {LLVMConstInt(i32, (unsigned long long)op, 0),
                            pred};
    return LLVMBuildCall2(L->b, fty, fn, args, 2, "");
}

void uf__nvvm_atomic_init(uf__codegen_nvvm *g)
{
    g->base.atomic_rmw = g->sim ? sim_rmw : nvvm_rmw;
    g->base.atomic_cas = g->sim ? sim_cas : nvvm_cas;
    g->base.threadfence = g->sim ? sim_fence : nvvm_fence;
    g->base.syncthreads_reduce = g->sim ? sim_sync_reduce : nvvm_sync_reduce;
}

/* ---- the helpers' definitions ---------------------------------------------- */

typedef struct text {
    char *s;
    size_t n, cap;
    bool nomem;
} text;

static void put(text *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void put(text *t, const char *fmt, ...)
{
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        size_t room = t->cap - t->n;
        int k = t->nomem ? 0 : vsnprintf(t->s + t->n, room, fmt, ap);
        va_end(ap);
        if (t->nomem || k < 0)
            return;
        if ((size_t)k < room) {
            t->n += (size_t)k;
            return;
        }
        size_t cap = 2 * t->cap + (size_t)k + 256;
        char *s = uf__realloc(t->s, cap, 1, NULL);
        if (!s) {
            t->nomem = true;
            return;
        }
        t->s = s;
        t->cap = cap;
    }
}

/* The definition of helper `name` (HELPER_PREFIX "<op>_<type>"), or
 * false when the name is not one of them. */
static bool define_helper(text *t, const char *name, bool libnvvm)
{
    const char *rest = name + strlen(HELPER_PREFIX);
    if (strcmp(rest, "activemask_i32") == 0) {
        /* nvvm_warp.c's: neither libnvvm nor LLVM 14 has an intrinsic;
         * inline PTX, which text IR carries to both */
        put(t, "define linkonce_odr i32 @%s() alwaysinline {\nentry:\n"
               "  %%m = call i32 asm sideeffect \"activemask.b32 $0;\", "
               "\"=r\"()\n  ret i32 %%m\n}\n", name);
        return true;
    }
    const char *us = strrchr(rest, '_');
    if (!us || us - rest > 8)
        return false;
    char op[16];
    snprintf(op, sizeof op, "%.*s", (int)(us - rest), rest);
    const char *ts = us + 1;
    const char *T = strcmp(ts, "i32") == 0   ? "i32"
                    : strcmp(ts, "i64") == 0 ? "i64"
                    : strcmp(ts, "f32") == 0 ? "float"
                    : strcmp(ts, "f64") == 0 ? "double"
                                             : NULL;
    if (!T)
        return false;
    if (strcmp(op, "cas") == 0) {
        put(t,
            "define linkonce_odr %s @%s(%s* %%p, %s %%c, %s %%v) "
            "alwaysinline {\nentry:\n"
            "  %%s = cmpxchg volatile %s* %%p, %s %%c, %s %%v monotonic "
            "monotonic\n"
            "  %%r = extractvalue { %s, i1 } %%s, 0\n  ret %s %%r\n}\n",
            T, name, T, T, T, T, T, T, T, T);
        return true;
    }
    int k = 0;
    while (k < UF__ATOMIC_OP_COUNT && strcmp(op_names[k], op) != 0)
        k++;
    if (k == UF__ATOMIC_OP_COUNT)
        return false;
    char body[160];
    if (k == UF__ATOMIC_INC || k == UF__ATOMIC_DEC) {
        /* atom.inc / atom.dec: CUDA's wrapping atomicInc / atomicDec */
        put(t, "declare i32 @llvm.nvvm.atomic.load.%s.32.p0i32(i32*, i32)\n",
            op);
        snprintf(body, sizeof body,
                 "call i32 @llvm.nvvm.atomic.load.%s.32.p0i32(i32* %%p, "
                 "i32 %%v)", op);
    } else if (k == UF__ATOMIC_FADD && libnvvm) {
        const char *s = T[0] == 'f' ? "f32.p0f32" : "f64.p0f64";
        put(t, "declare %s @llvm.nvvm.atomic.load.add.%s(%s*, %s)\n", T, s,
            T, T);
        snprintf(body, sizeof body,
                 "call %s @llvm.nvvm.atomic.load.add.%s(%s* %%p, %s %%v)", T,
                 s, T, T);
    } else {
        snprintf(body, sizeof body, "atomicrmw %s %s* %%p, %s %%v monotonic",
                 op, T, T);
    }
    put(t,
        "define linkonce_odr %s @%s(%s* %%p, %s %%v) alwaysinline {\n"
        "entry:\n  %%r = %s\n  ret %s %%r\n}\n",
        T, name, T, T, body, T);
    return true;
}

int uf__nvvm_atomics_text(LLVMModuleRef mod, bool libnvvm, int ir_major,
                          int ir_minor, char **out, uf_error *err)
{
    *out = NULL;
    text t = {0};
    int nhelpers = 0;
    for (LLVMValueRef f = LLVMGetFirstFunction(mod); f;
         f = LLVMGetNextFunction(f)) {
        size_t len;
        const char *name = LLVMGetValueName2(f, &len);
        if (!LLVMIsDeclaration(f) ||
            strncmp(name, HELPER_PREFIX, strlen(HELPER_PREFIX)) != 0)
            continue;
        if (nhelpers++ == 0)
            put(&t, "target datalayout = \"%s\"\ntarget triple = \"%s\"\n",
                LLVMGetDataLayoutStr(mod), LLVMGetTarget(mod));
        if (!define_helper(&t, name, libnvvm)) {
            uf__free(t.s);
            return uf__error_set(err, UF_ERR_INTERNAL,
                                 "no definition for the atomic helper %s",
                                 name);
        }
    }
    if (nhelpers && libnvvm)
        put(&t, "!nvvmir.version = !{!0}\n!0 = !{i32 %d, i32 %d}\n",
            ir_major, ir_minor);
    if (t.nomem) {
        uf__free(t.s);
        return uf__error_nomem(err);
    }
    *out = t.s;
    return 0;
}

int uf__nvvm_atomics_link(LLVMModuleRef mod, uf_error *err)
{
    char *src;
    int rc = uf__nvvm_atomics_text(mod, false, 0, 0, &src, err);
    if (rc != 0 || !src)
        return rc;
    LLVMContextRef ctx = LLVMGetModuleContext(mod);
    LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(
        src, strlen(src), "uf_atomics");
    uf__free(src);
    LLVMModuleRef helpers = NULL;
    char *msg = NULL;
    if (LLVMParseIRInContext(ctx, buf, &helpers, &msg)) {
        rc = uf__error_set(err, UF_ERR_INTERNAL, "the atomic helpers do not "
                           "parse: %s", msg ? msg : "?");
        LLVMDisposeMessage(msg);
        return rc;
    }
    if (LLVMLinkModules2(mod, helpers)) /* consumes helpers */
        return uf__error_set(err, UF_ERR_INTERNAL, "%s",
                             "the atomic helpers do not link");
    return 0;
}
