/* float32 sin, cos and tan with libdevice's slow argument reduction out
 * of line. __nv_sinf/cosf/tanf inline a Payne-Hanek reduction (a 28-byte
 * local array and a loop) for |x| >= 105615; inlined into a grid-stride
 * loop its registers add to the loop's (sine float32: 22 registers
 * against numba-cuda's 19). libdevice already keeps the double versions'
 * slow path in a function of its own (__internal_trig_reduction_slowpathd);
 * this does the same for float:
 *
 *   uf.nv.sinf(x) = |x| <u 105615 ? __nv_sinf(x)        (inlined; the
 *                                     optimiser drops its slow path, the
 *                                     same test being known true)
 *                                  : uf.nv.sinf.slow(x)  (noinline)
 *
 * The test is the complement of libdevice's own (`fabs(x) >= 105615.0`,
 * ordered), so NaN and infinities take the inline path as they do in
 * __nv_sinf, and every result is __nv_sinf's. */
#include <stdio.h>
#include <string.h>

#include "compiler/nvvm/nvvm_internal.h"

/* libdevice's threshold for the slow reduction (__nv_sinf: fcmp oge) */
#define SLOW_REDUCTION_FROM 105615.0

static LLVMValueRef declare(uf__lower *L, const char *name, LLVMTypeRef fty)
{
    return uf__lower_declare(L, name, fty, true);
}

static LLVMValueRef internal_fn(uf__lower *L, const char *name,
                                LLVMTypeRef fty, const char *inline_attr)
{
    LLVMValueRef fn = LLVMAddFunction(L->mod, name, fty);
    LLVMSetLinkage(fn, LLVMInternalLinkage);
    uf__lower_add_attr(L, fn, (int)LLVMAttributeFunctionIndex, "nounwind");
    uf__lower_add_attr(L, fn, (int)LLVMAttributeFunctionIndex, "readnone");
    uf__lower_add_attr(L, fn, (int)LLVMAttributeFunctionIndex, inline_attr);
    return fn;
}

bool uf__nvvm_trig_split(const char *name)
{
    return strcmp(name, "sin") == 0 || strcmp(name, "cos") == 0 ||
           strcmp(name, "tan") == 0;
}

LLVMValueRef uf__nvvm_trig_f32(uf__lower *L, const char *name)
{
    char wrap[32], slow[40], nv[32];
    snprintf(wrap, sizeof wrap, "uf.nv.%sf", name);
    LLVMValueRef fn = LLVMGetNamedFunction(L->mod, wrap);
    if (fn)
        return fn;
    snprintf(slow, sizeof slow, "uf.nv.%sf.slow", name);
    snprintf(nv, sizeof nv, "__nv_%sf", name);
    LLVMContextRef ctx = L->ctx;
    LLVMTypeRef f32 = LLVMFloatTypeInContext(ctx);
    LLVMTypeRef fty = LLVMFunctionType(f32, &f32, 1, 0);
    LLVMValueRef lib = declare(L, nv, fty);
    /* libdevice's fabs, not LLVM's: the optimiser must see the very
     * value __nv_sinf tests to drop its inline slow path */
    LLVMValueRef fabs = declare(L, "__nv_fabsf", fty);
    LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);

    LLVMValueRef sfn = internal_fn(L, slow, fty, "noinline");
    LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(ctx, sfn, ""));
    LLVMValueRef x = LLVMGetParam(sfn, 0);
    LLVMBuildRet(b, LLVMBuildCall2(b, fty, lib, &x, 1, ""));

    fn = internal_fn(L, wrap, fty, "alwaysinline");
    LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(ctx, fn, "");
    LLVMBasicBlockRef fast = LLVMAppendBasicBlockInContext(ctx, fn, "fast");
    LLVMBasicBlockRef out = LLVMAppendBasicBlockInContext(ctx, fn, "slow");
    LLVMPositionBuilderAtEnd(b, entry);
    x = LLVMGetParam(fn, 0);
    LLVMValueRef a = LLVMBuildCall2(b, fty, fabs, &x, 1, "");
    LLVMValueRef near = LLVMBuildFCmp(
        b, LLVMRealULT, a, LLVMConstReal(f32, SLOW_REDUCTION_FROM), "");
    LLVMBuildCondBr(b, near, fast, out);
    LLVMPositionBuilderAtEnd(b, fast);
    LLVMBuildRet(b, LLVMBuildCall2(b, fty, lib, &x, 1, ""));
    LLVMPositionBuilderAtEnd(b, out);
    LLVMBuildRet(b, LLVMBuildCall2(b, fty, sfn, &x, 1, ""));
    LLVMDisposeBuilder(b);
    return fn;
}

/* Calls of the wrappers in the module (before inlining). */
static unsigned wrapper_calls(LLVMModuleRef mod)
{
    static const char *const names[] = {"uf.nv.sinf", "uf.nv.cosf",
                                        "uf.nv.tanf"};
    unsigned n = 0;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        LLVMValueRef fn = LLVMGetNamedFunction(mod, names[i]);
        for (LLVMUseRef u = fn ? LLVMGetFirstUse(fn) : NULL; u;
             u = LLVMGetNextUse(u))
            n++;
    }
    return n;
}

void uf__nvvm_trig_settle(LLVMModuleRef mod)
{
    /* one call: its slow path out of line (sine float32: 22 -> 19
     * registers). Several (polar_distance's sin and cos): the out-of-line
     * copies cost more than they save (28 -> 30 registers, +0.6 ms of
     * libnvvm), so the calls go straight to libdevice again and the
     * wrappers are dropped (inlining the slow functions back instead
     * would compile each function twice: 47 ms). */
    if (wrapper_calls(mod) <= 1)
        return;
    static const char *const names[][3] = {
        {"uf.nv.sinf", "uf.nv.sinf.slow", "__nv_sinf"},
        {"uf.nv.cosf", "uf.nv.cosf.slow", "__nv_cosf"},
        {"uf.nv.tanf", "uf.nv.tanf.slow", "__nv_tanf"}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        LLVMValueRef wrap = LLVMGetNamedFunction(mod, names[i][0]);
        LLVMValueRef lib = LLVMGetNamedFunction(mod, names[i][2]);
        if (!wrap || !lib)
            continue;
        LLVMReplaceAllUsesWith(wrap, lib);
        LLVMDeleteFunction(wrap);
        LLVMValueRef slow = LLVMGetNamedFunction(mod, names[i][1]);
        if (slow)
            LLVMDeleteFunction(slow);
    }
}
