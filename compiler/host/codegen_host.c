/* The host codegen target (codegen_host.h): the CPU's name and features on
 * every function, math through LLVM intrinsics (which the loop vectoriser
 * maps to vector code) or libm declared readnone, with glibc's libmvec
 * variants named (codegen_host_mvec.c), runtime helpers as external
 * symbols the JIT resolves to the C functions it registers (jit.c), and
 * failed checks reported through one of them (the error sink). */
#include <stdio.h>
#include <string.h>

#include "compiler/host/codegen_host.h"

#define B (F->L->b)

static const uf__codegen_host *host_of(const uf__lower *L)
{
    return (const uf__codegen_host *)L->cg;
}

static void add_str_attr(uf__lower *L, LLVMValueRef fn, const char *k,
                         const char *v)
{
    LLVMAddAttributeAtIndex(
        fn, LLVMAttributeFunctionIndex,
        LLVMCreateStringAttribute(L->ctx, k, (unsigned)strlen(k), v,
                                  (unsigned)strlen(v)));
}

static void host_function_attrs(uf__lower *L, LLVMValueRef fn)
{
    const uf__codegen_host *h = host_of(L);
    if (h->cpu)
        add_str_attr(L, fn, "target-cpu", h->cpu);
    if (h->features)
        add_str_attr(L, fn, "target-features", h->features);
    /* the CPU's tuning prefers 256-bit vectors; AVX-512 pays for loops */
    if (h->prefer512)
        add_str_attr(L, fn, "prefer-vector-width", "512");
    uf__lower_add_attr(L, fn, (int)LLVMAttributeFunctionIndex, "nounwind");
}

/* The math functions LLVM has intrinsics for: the vectoriser widens them
 * (through libmvec, with the annotation, or inline for fabs, floor...);
 * the others are libm calls. */
static bool has_intrinsic(const char *name)
{
    static const char *const names[] = {
        "sin",  "cos",   "exp",  "log",   "log2",  "log10",    "sqrt",
        "pow",  "fabs",  "floor", "ceil", "trunc", "copysign", "rint",
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(names[i], name) == 0)
            return true;
    return false;
}

static LLVMValueRef host_math(uf__fn *F, const char *name, uf_dtype dt,
                              LLVMValueRef *args, int n)
{
    /* ufjit's own IR where it was measured faster than any call */
    LLVMValueRef v = uf__host_inline_math(F, name, dt, args, n);
    if (v)
        return v;
    LLVMValueRef call;
    if (has_intrinsic(name)) {
        char intr[32];
        snprintf(intr, sizeof intr, "llvm.%s", name);
        call = uf__emit_intrinsic(F, intr, args, n);
    } else {
        char full[32];
        snprintf(full, sizeof full, "%s%s", name, dt == UF_FLOAT32 ? "f" : "");
        LLVMTypeRef t = uf__lower_dtype(F->L, dt);
        LLVMTypeRef params[3] = {t, t, t};
        LLVMTypeRef fty = LLVMFunctionType(t, params, (unsigned)n, 0);
        LLVMValueRef fn = uf__lower_declare(F->L, full, fty, true);
        call = LLVMBuildCall2(B, fty, fn, args, (unsigned)n, "");
    }
    uf__host_mvec_annotate(F, call, name, dt);
    return call;
}

/* Helpers are C functions of the process: jit.c defines their names as
 * absolute symbols of the JIT. */
static LLVMValueRef host_helper(uf__lower *L, const char *name,
                                LLVMTypeRef fty)
{
    return uf__lower_declare(L, name, fty, false);
}

/* A NUL-terminated string constant of the module (one per text). */
static LLVMValueRef cstring(uf__fn *F, const char *s)
{
    char name[320];
    snprintf(name, sizeof name, "uf.str.%s", s);
    LLVMTypeRef i8 = LLVMInt8TypeInContext(F->L->ctx);
    LLVMValueRef g = LLVMGetNamedGlobal(F->L->mod, name);
    if (!g) {
        unsigned len = (unsigned)strlen(s);
        g = LLVMAddGlobal(F->L->mod, LLVMArrayType(i8, len + 1), name);
        LLVMSetInitializer(g, LLVMConstStringInContext(F->L->ctx, s, len, 0));
        LLVMSetGlobalConstant(g, 1);
        LLVMSetLinkage(g, LLVMPrivateLinkage);
        LLVMSetUnnamedAddress(g, LLVMGlobalUnnamedAddr);
    }
    return LLVMConstPointerCast(g, LLVMPointerType(i8, 0));
}

/* The error sink: a call of uf__rt_index_error (jit_status.c), which
 * records the message for uf__jit_status_error on the thread running the
 * code; cold, so the check's branch is laid out of the way. */
static void host_index_error(uf__fn *F, const uf__index_report *r)
{
    LLVMContextRef c = F->L->ctx;
    LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(c), 0);
    LLVMTypeRef i32 = LLVMInt32TypeInContext(c);
    LLVMTypeRef i64 = LLVMInt64TypeInContext(c);
    LLVMTypeRef params[7] = {i8p, i8p, i32, i64, i32, i64, i32};
    LLVMTypeRef fty = LLVMFunctionType(LLVMVoidTypeInContext(c), params, 7, 0);
    /* no attributes (as when it was called at its address): the same
     * code around the call */
    LLVMValueRef fn = LLVMGetNamedFunction(F->L->mod, UF__RT_INDEX_ERROR);
    if (!fn)
        fn = LLVMAddFunction(F->L->mod, UF__RT_INDEX_ERROR, fty);
    LLVMValueRef args[7] = {
        cstring(F, r->kernel),
        cstring(F, r->file),
        LLVMConstInt(i32, (unsigned long long)r->line, 0),
        r->index,
        LLVMConstInt(i32, (unsigned long long)(int64_t)r->axis, 1),
        r->size,
        LLVMConstInt(i32, r->is_unsigned ? 1 : 0, 0)};
    LLVMValueRef call = LLVMBuildCall2(B, fty, fn, args, 7, "");
    unsigned cold = LLVMGetEnumAttributeKindForName("cold", 4);
    LLVMAddCallSiteAttribute(call, LLVMAttributeFunctionIndex,
                             LLVMCreateEnumAttribute(c, cold, 0));
}

void uf__codegen_host_init(uf__codegen_host *h, const char *triple,
                           const char *data_layout, const char *cpu,
                           const char *features, bool prefer512,
                           const struct uf__host_vmath *mvec)
{
    memset(h, 0, sizeof *h);
    h->base.name = "host";
    h->base.triple = triple;
    h->base.data_layout = data_layout;
    h->base.function_attrs = host_function_attrs;
    h->base.math = host_math;
    h->base.helper = host_helper;
    h->base.index_error = host_index_error;
    h->base.finish_module = uf__host_mvec_finish;
    h->cpu = cpu;
    h->features = features;
    h->prefer512 = prefer512;
    h->mvec = mvec;
}
